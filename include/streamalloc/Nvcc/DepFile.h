//===- DepFile.h - Depfiles that name the source, not its stand-in ---------===//
#ifndef STREAMALLOC_NVCC_DEPFILE_H
#define STREAMALLOC_NVCC_DEPFILE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace streamalloc::nvcc {

/// \p Name as a Makefile rule spells it (spaces, `#` and `$` escaped).
std::string escapeForMake(llvm::StringRef Name);

/// \p Text (a Makefile-syntax depfile) with every occurrence of the
/// temporary's stem \p TempStem, raw or escaped, replaced by the source's
/// stem \p SourceStem, so that the rule names the source (and an object
/// named after it) instead of a file that no longer exists.
std::string renameInDepFile(llvm::StringRef Text, llvm::StringRef TempStem,
                            llvm::StringRef SourceStem);

} // namespace streamalloc::nvcc

#endif
