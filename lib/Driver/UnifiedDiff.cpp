//===- UnifiedDiff.cpp - Line diff (Myers) rendered as unified hunks -------===//
#include "streamalloc/Driver/UnifiedDiff.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace streamalloc {

namespace {
std::vector<llvm::StringRef> splitLines(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Lines;
  while (!Text.empty()) {
    size_t NL = Text.find('\n');
    Lines.push_back(Text.take_front(NL == llvm::StringRef::npos ? Text.size() : NL + 1));
    Text = Text.drop_front(Lines.back().size());
  }
  return Lines;
}

enum class Op { Keep, Delete, Insert };

/// Shortest edit script between A and B (Myers' greedy algorithm).
std::vector<Op> editScript(const std::vector<llvm::StringRef> &A,
                           const std::vector<llvm::StringRef> &B) {
  const int N = A.size(), M = B.size(), Max = N + M;
  std::vector<int> V(2 * Max + 2, 0);
  std::vector<std::vector<int>> Trace;
  for (int D = 0; D <= Max; ++D) {
    Trace.push_back(V);
    for (int K = -D; K <= D; K += 2) {
      int X = (K == -D || (K != D && V[Max + K - 1] < V[Max + K + 1])) ? V[Max + K + 1]
                                                                       : V[Max + K - 1] + 1;
      int Y = X - K;
      while (X < N && Y < M && A[X] == B[Y])
        ++X, ++Y;
      V[Max + K] = X;
      if (X >= N && Y >= M) {
        // Walk back through the saved frontiers.
        std::vector<Op> Script;
        for (int DD = D; DD > 0; --DD) {
          const std::vector<int> &Prev = Trace[DD];
          int KK = X - Y;
          bool Down = KK == -DD || (KK != DD && Prev[Max + KK - 1] < Prev[Max + KK + 1]);
          int PrevK = Down ? KK + 1 : KK - 1;
          int PrevX = Prev[Max + PrevK], PrevY = PrevX - PrevK;
          while (X > PrevX && Y > PrevY)
            Script.push_back(Op::Keep), --X, --Y;
          Script.push_back(Down ? Op::Insert : Op::Delete);
          X = PrevX, Y = PrevY;
        }
        while (X > 0 && Y > 0)
          Script.push_back(Op::Keep), --X, --Y;
        return {Script.rbegin(), Script.rend()};
      }
    }
  }
  return {};
}
} // namespace

std::string unifiedDiff(llvm::StringRef Before, llvm::StringRef After, llvm::StringRef NameBefore,
                        llvm::StringRef NameAfter, unsigned Context) {
  if (Before == After)
    return "";
  std::vector<llvm::StringRef> A = splitLines(Before), B = splitLines(After);
  std::vector<Op> Script = editScript(A, B);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "--- " << NameBefore << "\n+++ " << NameAfter << "\n";
  auto Line = [&](char Tag, llvm::StringRef L) {
    OS << Tag << L;
    if (!L.ends_with("\n"))
      OS << "\n\\ No newline at end of file\n";
  };
  size_t I = 0;
  while (I < Script.size()) {
    // Next change, then grow the hunk while changes are within 2*Context.
    size_t First = I;
    while (First < Script.size() && Script[First] == Op::Keep)
      ++First;
    if (First == Script.size())
      break;
    size_t Start = First >= Context ? First - Context : 0;
    size_t End = First;
    for (size_t J = First, Keeps = 0; J < Script.size(); ++J) {
      if (Script[J] == Op::Keep) {
        if (++Keeps > 2 * Context)
          break;
      } else {
        Keeps = 0;
        End = J + 1;
      }
    }
    End = std::min(Script.size(), End + Context);
    // Line numbers at Start.
    unsigned ALine = 0, BLine = 0;
    for (size_t J = 0; J < Start; ++J) {
      ALine += Script[J] != Op::Insert;
      BLine += Script[J] != Op::Delete;
    }
    unsigned ACount = 0, BCount = 0;
    for (size_t J = Start; J < End; ++J) {
      ACount += Script[J] != Op::Insert;
      BCount += Script[J] != Op::Delete;
    }
    OS << "@@ -" << ALine + (ACount ? 1 : 0) << "," << ACount << " +" << BLine + (BCount ? 1 : 0)
       << "," << BCount << " @@\n";
    unsigned AI = ALine, BI = BLine;
    for (size_t J = Start; J < End; ++J) {
      if (Script[J] == Op::Keep)
        Line(' ', A[AI++]), ++BI;
      else if (Script[J] == Op::Delete)
        Line('-', A[AI++]);
      else
        Line('+', B[BI++]);
    }
    I = End;
  }
  return Out;
}

} // namespace streamalloc
