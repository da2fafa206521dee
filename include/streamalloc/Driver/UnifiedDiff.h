//===- UnifiedDiff.h - `diff -u` style output for --diff --------------------===//
#ifndef STREAMALLOC_DRIVER_UNIFIEDDIFF_H
#define STREAMALLOC_DRIVER_UNIFIEDDIFF_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace streamalloc {

/// A unified diff from \p Before to \p After with \p Context lines of
/// context; empty when the texts are equal.
std::string unifiedDiff(llvm::StringRef Before, llvm::StringRef After, llvm::StringRef NameBefore,
                        llvm::StringRef NameAfter, unsigned Context = 3);

} // namespace streamalloc

#endif
