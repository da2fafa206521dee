//===- OwnStreams.h - Where CRA models ops on the program's own streams -----===//
//
// A program may already put some of its copies, fills and launches on
// streams it created. The output leaves them as written, and CRA models them
// (PendingSet::OwnStream): in the original, the legacy default stream ordered
// them with every op the tool moves onto its own streams, and a call that
// blocked the host waited for them; the output provides that order itself.
//
// The model holds where such an op is a statement of its own in a block (or
// a declaration, or the expansion of an error-check macro built of those),
// outside try blocks, switch bodies, lambdas and statement expressions, and
// where a function that may return before its work on such a stream is done
// is only called directly (its callers model the call as such an op: see
// FunctionSummary::LeavesOwnStreamWork). Anywhere else the file is left
// unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_CRA_OWNSTREAMS_H
#define STREAMALLOC_CRA_OWNSTREAMS_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
} // namespace clang

namespace streamalloc {

/// The stream argument of \p Op, a launch or an asynchronous copy or fill
/// that passes a stream of the program's own (not the legacy stream), or null.
const clang::Expr *ownStreamOf(const clang::Expr *Op, clang::ASTContext &Ctx);

/// Whether \p Stream, a stream argument, is the legacy default stream
/// wherever it is evaluated (see isLegacyStream in the read/write analysis).
bool namesLegacyStream(const clang::Expr *Stream, clang::ASTContext &Ctx);

/// A name for the stream \p Stream (an argument in \p F) that stays the same
/// stream wherever it is spelled in \p F: a local variable or parameter, or
/// an element of a local array at a constant index, that \p F only reads,
/// apart from creating it before any use. "" when there is none: two
/// spellings may then be the same stream or not.
std::string ownStreamKey(const clang::Expr *Stream, const clang::FunctionDecl &F,
                         clang::ASTContext &Ctx);

/// Why the work \p F puts on streams of the program's own is not modelled
/// (a sentence naming the line), or "" when it is (or there is none). Such
/// work: its ops given such a stream, and calls of functions for which
/// \p LeavesWork holds (FunctionSummary::LeavesOwnStreamWork).
std::string
whyOwnStreamsAreNotModelled(const clang::FunctionDecl &F, clang::ASTContext &Ctx,
                            llvm::function_ref<bool(const clang::FunctionDecl *)> LeavesWork);

/// For \p F, which may return while work it put on a stream of the
/// program's own is still running: why a caller in the unit may not model
/// that work (a constructor, destructor, operator or virtual function; its
/// address taken), or "".
std::string whyOwnStreamWorkEscapes(const clang::FunctionDecl &F, clang::ASTContext &Ctx);

} // namespace streamalloc

#endif
