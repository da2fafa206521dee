//===- DepFile.cpp --------------------------------------------------------===//
#include "streamalloc/Nvcc/DepFile.h"

namespace streamalloc::nvcc {

std::string escapeForMake(llvm::StringRef Name) {
  std::string Out;
  for (char C : Name) {
    if (C == ' ' || C == '#')
      Out += '\\';
    else if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

namespace {
std::string replaceAll(llvm::StringRef Text, llvm::StringRef From, llvm::StringRef To) {
  std::string Out;
  while (true) {
    size_t At = Text.find(From);
    if (At == llvm::StringRef::npos)
      break;
    Out += Text.take_front(At);
    Out += To;
    Text = Text.drop_front(At + From.size());
  }
  Out += Text;
  return Out;
}
} // namespace

std::string renameInDepFile(llvm::StringRef Text, llvm::StringRef TempStem,
                            llvm::StringRef SourceStem) {
  std::string Escaped = replaceAll(Text, escapeForMake(TempStem), escapeForMake(SourceStem));
  return replaceAll(Escaped, TempStem, SourceStem);
}

} // namespace streamalloc::nvcc
