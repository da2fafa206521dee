//===- InactiveCode.cpp ---------------------------------------------------===//
#include "streamalloc/Driver/InactiveCode.h"

#include "llvm/ADT/StringSwitch.h"

#include <cctype>
#include <string>

namespace streamalloc {

namespace {

/// Splits skipped text into logical lines (backslash continuations joined)
/// with comments and the contents of literals blanked, so that `#` and
/// words inside them are not taken for directives or code.
class LineScanner {
public:
  LineScanner(llvm::StringRef Buffer, unsigned Begin, unsigned End)
      : Buffer(Buffer), Pos(Begin), End(End) {}

  /// The next logical line: its start offset and its text without comments.
  bool next(unsigned &Start, std::string &Text) {
    if (Pos >= End)
      return false;
    Start = Pos;
    Text.clear();
    while (Pos < End) {
      char C = Buffer[Pos];
      if (C == '\\' && Pos + 1 < End && Buffer[Pos + 1] == '\n') {
        Pos += 2; // a continuation: the logical line goes on
        continue;
      }
      if (InComment) {
        if (C == '*' && Pos + 1 < End && Buffer[Pos + 1] == '/') {
          InComment = false;
          Text += ' ';
          Pos += 2;
          continue;
        }
        if (C == '\n') {
          ++Pos;
          return true;
        }
        ++Pos;
        continue;
      }
      if (C == '\n') {
        ++Pos;
        return true;
      }
      if (C == '/' && Pos + 1 < End && Buffer[Pos + 1] == '*') {
        InComment = true;
        Pos += 2;
        continue;
      }
      if (C == '/' && Pos + 1 < End && Buffer[Pos + 1] == '/') {
        while (Pos < End && Buffer[Pos] != '\n')
          ++Pos;
        continue;
      }
      if (C == '"' || C == '\'') {
        Text += C; // the literal itself is code; its contents do not matter
        for (++Pos; Pos < End && Buffer[Pos] != C && Buffer[Pos] != '\n'; ++Pos)
          if (Buffer[Pos] == '\\')
            ++Pos;
        if (Pos < End && Buffer[Pos] == C)
          ++Pos;
        Text += C;
        continue;
      }
      Text += C;
      ++Pos;
    }
    return true;
  }

  unsigned position() const { return Pos; }
  bool inComment() const { return InComment; }

private:
  llvm::StringRef Buffer;
  unsigned Pos, End;
  bool InComment = false;
};

enum class Directive { None, Open, Alternative, Close, BringsCode, Other };

/// What a logical line is; \p Name and \p Condition receive the directive's
/// name and the text after it.
Directive classify(llvm::StringRef Text, llvm::StringRef &Name, llvm::StringRef &Condition) {
  Text = Text.trim();
  if (!Text.consume_front("#"))
    return Directive::None;
  Text = Text.ltrim();
  Name = Text.take_while([](char C) { return std::isalpha(C) || C == '_'; });
  Condition = Text.drop_front(Name.size()).trim();
  return llvm::StringSwitch<Directive>(Name)
      .Cases({"if", "ifdef", "ifndef"}, Directive::Open)
      .Cases({"elif", "elifdef", "elifndef", "else"}, Directive::Alternative)
      .Case("endif", Directive::Close)
      // An included file or a pragma (`omp parallel for`) brings code or
      // changes the statement that follows.
      .Cases({"include", "include_next", "import", "pragma"}, Directive::BringsCode)
      .Default(Directive::Other);
}

} // namespace

std::vector<InactiveGroup> inactiveGroups(llvm::StringRef Buffer, unsigned Begin, unsigned End) {
  std::vector<InactiveGroup> Groups;
  End = std::min<unsigned>(End, Buffer.size());
  LineScanner Lines(Buffer, Begin, End);
  unsigned Start, Depth = 0;
  std::string Text;
  bool NeverCompiled = false;
  auto LineOf = [&](unsigned Offset) {
    return 1 + static_cast<unsigned>(Buffer.take_front(Offset).count('\n'));
  };
  // The first line is the directive that opens the first group.
  bool First = true;
  while (Lines.next(Start, Text)) {
    llvm::StringRef Name, Condition;
    Directive D = classify(Text, Name, Condition);
    if (First || (Depth == 0 && D == Directive::Alternative)) {
      First = false;
      NeverCompiled = Name == "if" && Condition == "0";
      // The group's text starts on the line after the directive (and after
      // a comment that the directive's line opens).
      while (Lines.inComment() && Lines.next(Start, Text))
        ;
      unsigned Next = Lines.position();
      if (Next < End)
        Groups.push_back({Next, LineOf(Next), false});
      continue;
    }
    if (D == Directive::Close && Depth == 0)
      break;
    if (D == Directive::Open)
      ++Depth;
    else if (D == Directive::Close)
      --Depth;
    bool Code = D == Directive::BringsCode ||
                (D == Directive::None && !llvm::StringRef(Text).trim().empty());
    if (Code && !NeverCompiled && !Groups.empty())
      Groups.back().HasCode = true;
  }
  return Groups;
}

} // namespace streamalloc
