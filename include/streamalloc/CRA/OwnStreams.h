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
// where its work ends inside the function that enqueued it: `main`, or a
// function whose body synchronises the device after its last such op, with
// no return before that. Anywhere else the file is left unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_CRA_OWNSTREAMS_H
#define STREAMALLOC_CRA_OWNSTREAMS_H

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

/// A name for the stream \p Stream (an argument in \p F) that stays the same
/// stream wherever it is spelled in \p F: a local variable or parameter, or
/// an element of a local array at a constant index, that \p F only reads,
/// apart from creating it before any use. "" when there is none: two
/// spellings may then be the same stream or not.
std::string ownStreamKey(const clang::Expr *Stream, const clang::FunctionDecl &F,
                         clang::ASTContext &Ctx);

/// Why the ops \p F puts on streams of the program's own are not modelled
/// (a sentence naming the line), or "" when they are (or there are none).
std::string whyOwnStreamsAreNotModelled(const clang::FunctionDecl &F, clang::ASTContext &Ctx);

} // namespace streamalloc

#endif
