//===- InactiveCode.h - Groups of an #if chain that this build skips --------===//
//
// The preprocessor skips the text of an inactive `#if`/`#elif`/`#else`
// group without parsing it. In another configuration that text is compiled
// and may touch anything, so the CRA puts a wait inside it: on the group's
// first line, where it runs only when the group is compiled in.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_DRIVER_INACTIVECODE_H
#define STREAMALLOC_DRIVER_INACTIVECODE_H

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace streamalloc {

/// One group of a conditional-directive chain whose text this build skips.
struct InactiveGroup {
  unsigned Begin; ///< offset of the first line after the group's directive
  unsigned Line;  ///< that line's number (1-based)
  bool HasCode;   ///< holds code, `#include` or `#pragma` (not only directives and comments)
};

/// The groups in the skipped text \p Buffer[\p Begin, \p End), which starts
/// at the directive that opens its first group. A skipped range that runs
/// over several groups of one chain (`#elif` and `#else` after a group that
/// was taken) gives one group each, since each is compiled in a different
/// configuration. `#if 0` groups are never compiled and hold no code.
std::vector<InactiveGroup> inactiveGroups(llvm::StringRef Buffer, unsigned Begin, unsigned End);

} // namespace streamalloc

#endif
