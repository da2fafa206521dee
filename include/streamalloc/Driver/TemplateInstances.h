//===- TemplateInstances.h - Templated host functions and their instances ---===//
//
// A templated host function (a function template, or a member function of a
// class template) has no analysable body of its own: its dependent calls are
// unresolved. Each instantiation has one, built by Clang from the pattern's
// text and carrying the pattern's source locations, so an edit made for an
// instantiation is an edit of the template's text. The driver analyses every
// instantiation and rewrites the pattern when they all agree.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_DRIVER_TEMPLATEINSTANCES_H
#define STREAMALLOC_DRIVER_TEMPLATEINSTANCES_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace streamalloc {

/// A template pattern (its definition) and its instantiations with a body,
/// in the order Clang keeps them.
struct TemplateInstances {
  const clang::FunctionDecl *Pattern;
  std::vector<const clang::FunctionDecl *> Instances;
};

/// Every instantiated function of the translation unit that \p Wanted
/// accepts (it is handed the instantiation), grouped by pattern, patterns in
/// the order their first instantiation is found.
std::vector<TemplateInstances>
findTemplateInstances(clang::ASTContext &Ctx,
                      llvm::function_ref<bool(const clang::FunctionDecl *)> Wanted);

/// The name of an instantiation with its template arguments (`run<float>`,
/// `Box<int>::fill`), as the report spells it.
std::string instanceName(const clang::FunctionDecl &F);

/// File offsets [begin, end) of a text.
using TextRanges = std::vector<std::pair<unsigned, unsigned>>;

/// The texts of the branches \p Instance discards: for each `if constexpr`
/// its condition rejects (its `then`) or accepts (its `else`), the branch's
/// text, at the outermost macro expansion. The instantiation has no code
/// there, so edits made there for other instantiations do not change it.
TextRanges discardedBranches(const clang::FunctionDecl &Instance);

/// The texts that lie in a text of both \p A and \p B.
TextRanges overlaps(const TextRanges &A, const TextRanges &B);

/// The file offsets [begin, end) of \p Pattern's text, from its return type to
/// its closing brace, at the outermost macro expansion.
std::pair<unsigned, unsigned> patternRange(const clang::FunctionDecl &Pattern);

} // namespace streamalloc

#endif
