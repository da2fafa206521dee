//===- PointsTo.h - Flow-insensitive points-to inside one host function ----===//
#ifndef STREAMALLOC_LIB_ACCESS_POINTSTO_H
#define STREAMALLOC_LIB_ACCESS_POINTSTO_H

#include "streamalloc/Access/MemoryObjects.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

namespace streamalloc {

/// The objects a pointer may point to; Unknown when the analysis cannot say.
struct Pointees {
  llvm::SmallVector<ObjectId, 2> Objects;
  bool Unknown = false;
  std::string Why; ///< why Unknown, in words
  /// Points into a temporary (or compound literal), which dies at the end of
  /// its full-expression: an op using it must finish within the statement.
  bool Temporary = false;

  bool merge(const Pointees &Other);
  static Pointees unknown(std::string Why);
  void addTo(AccessSet &Set, uint8_t Mode, std::string &UnknownWhy) const;
};

/// Points-to facts for the local variables of one host function.
///
/// A local pointer variable points to the union of what is assigned to it
/// anywhere in the function. A variable whose storage is used in any way
/// other than a plain read or assignment (its address is taken, it is bound
/// to a reference, captured by a lambda, ...) is "tracked": its storage is a
/// memory object other code may reach, and a tracked pointer variable's value
/// is Unknown (someone else may write it). Parameters and globals of pointer
/// type are Unknown.
class PointsTo {
public:
  PointsTo(const clang::FunctionDecl &F, clang::ASTContext &Ctx, ObjectTable &Objects);

  Pointees pointees(const clang::Expr *PointerValue);
  /// Objects the lvalue \p E designates.
  Pointees addressOf(const clang::Expr *E);
  bool isTracked(const clang::VarDecl *V) const;
  /// A const object (no mutable parts, no CUDA memory-space attribute): no
  /// one can write it, so accessing it never conflicts with anything.
  bool isImmutable(const clang::VarDecl *V) const;
  ObjectId storageOf(const clang::VarDecl *V);

private:
  clang::ASTContext &Ctx;
  ObjectTable &Objects;
  llvm::DenseSet<const clang::VarDecl *> PlainOnly; ///< locals used only plainly
  /// In source order, so objects are numbered the same way on every run.
  llvm::MapVector<const clang::VarDecl *, llvm::SmallVector<const clang::Expr *, 2>> Sources;
  llvm::DenseMap<const clang::VarDecl *, Pointees> VarPointees;
  llvm::DenseMap<const clang::VarDecl *, ObjectId> Storage;
  llvm::DenseMap<const clang::Expr *, ObjectId> Sites;
  llvm::DenseMap<const clang::VarDecl *, const clang::CallExpr *> OutAllocs;

  /// Local arrays of pointers whose elements are only read, assigned, or
  /// given to an allocation as out-parameter (`cudaMalloc(&d[i], n)`): their
  /// elements point to the union of what is stored (whole-array).
  llvm::DenseMap<const clang::VarDecl *, llvm::SmallVector<const clang::CallExpr *, 2>>
      PointerArrays;

  void classifyUses(const clang::Stmt *Body);
  void collectPointerArrays(const clang::Stmt *Body);
  void collectSources(const clang::Stmt *S);
  ObjectId siteFor(const clang::Expr *Allocation, const clang::VarDecl *Named, ObjectKind Kind);
  Pointees pointeesOfVar(const clang::VarDecl *V);
};

} // namespace streamalloc

#endif
