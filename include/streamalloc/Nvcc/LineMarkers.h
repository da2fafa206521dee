//===- LineMarkers.h - The transformed file, numbered like its source ------===//
//
// nvcc compiles the tool's output in the source's place. `#line` directives
// make its diagnostics, `__FILE__` and `__LINE__` name the source and the
// source's line numbers, as they would without the tool: the output is the
// source with whole lines inserted (the stream pool, waits) and some lines
// edited in place, so a marker after each inserted run restores the numbers.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_NVCC_LINEMARKERS_H
#define STREAMALLOC_NVCC_LINEMARKERS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace streamalloc::nvcc {

/// \p Transformed with `#line N "<SourceName>"` first and before each line
/// of \p Original that follows lines the tool inserted or removed. Markers
/// go only before a line that starts a statement of the original (never
/// after a line continued with a backslash, never in a file with a raw string
/// literal); where the two texts cannot be aligned, the markers stop there.
std::string withLineMarkers(llvm::StringRef Original, llvm::StringRef Transformed,
                            llvm::StringRef SourceName);

} // namespace streamalloc::nvcc

#endif
