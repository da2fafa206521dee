//===- PointsTo.h - Flow-insensitive points-to inside one function ---------===//
//
// Inclusion-based (Andersen-style), flow-insensitive points-to facts for one
// function, host or device. Pointers live in cells: a local variable nobody
// takes the address of is a cell of its own; any other memory object holds
// one cell per field that stores pointers (FieldKey), which makes struct
// fields, arrays of pointers and out-parameters (`cudaMalloc(&p, n)`) one
// mechanism. What a parameter points to is a symbolic object (`*p`,
// `*w.d_params`), so the facts are in terms of the caller's arguments.
//
// Calls are seen through the API model, callee summaries, or not at all: the
// pointers passed to a call the analysis cannot see escape, and what an
// escaped object holds is Unknown afterwards.
//
// Whether two symbolic objects (or one and a global) may be the same memory
// is the AliasPolicy's question: a function other files may call must assume
// they may; a static function whose callers are all in view is given the
// answers its call sites imply.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_LIB_ACCESS_POINTSTO_H
#define STREAMALLOC_LIB_ACCESS_POINTSTO_H

#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/Access/MemoryObjects.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <optional>
#include <set>

namespace streamalloc {

struct ApiFunction;

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
  static Pointees of(ObjectId Object);
  bool empty() const { return Objects.empty() && !Unknown; }
};

/// The memory an lvalue designates: objects, local variables no one takes
/// the address of (cells without an object), and which of their pointer
/// fields is meant (Key). Value: a temporary built from this expression.
struct LValue {
  Pointees Objects;
  llvm::SmallVector<const clang::VarDecl *, 1> Vars;
  FieldKey Key = nullptr;
  const clang::Expr *Value = nullptr;

  void merge(const LValue &Other);
  static LValue of(Pointees P, FieldKey Key = nullptr);
};

/// Whether a function's symbolic objects and globals may be the same memory.
class AliasPolicy {
public:
  enum class Mode {
    Distinct, ///< never (summaries: the caller maps each to its own objects)
    Collapse, ///< any two symbolic objects, and a symbolic object and any global
    Context,  ///< as the call sites say, for the objects they were asked about
  };
  Mode M = Mode::Distinct;
  std::set<SymbolicPath> Known; ///< Context: paths the call sites answered for
  llvm::DenseSet<const clang::VarDecl *> KnownGlobals;
  std::set<std::pair<SummaryRef, SummaryRef>> Pairs; ///< Context: the pairs that may alias
  llvm::DenseSet<unsigned> Restrict;                 ///< __restrict__ parameters
  std::vector<std::string> Notes;                    ///< why, for --dump=summaries

  bool mayAlias(const SummaryRef &A, const SummaryRef &B) const;
};

/// A call as the analysis sees it: the callee, an expression per argument,
/// and the object a member function is called on.
struct CallSite {
  const clang::Expr *Site = nullptr; ///< CallExpr or CXXConstructExpr
  const clang::FunctionDecl *Callee = nullptr;
  llvm::SmallVector<const clang::Expr *, 4> Args;
  const clang::Expr *Object = nullptr; ///< member call: the object (a pointer if ObjectIsPointer)
  bool ObjectIsPointer = false;
  const LValue *Constructed = nullptr; ///< constructor: the object being built

  static CallSite of(const clang::Expr *CallOrConstruct);
  /// Argument for parameter \p I of the callee (null past the end).
  const clang::Expr *arg(unsigned I) const { return I < Args.size() ? Args[I] : nullptr; }
};

/// What a call is, for both the points-to and the read/write walkers.
struct CallTarget {
  const ApiFunction *Api = nullptr;         ///< modelled function
  const clang::FunctionDecl *Def = nullptr; ///< definition to summarise
  bool Builtin = false;                     ///< a compiler builtin without memory effects
  std::string Why;                          ///< neither: why the call is not followed
};

/// Classifies the call \p E (CallExpr, CXXConstructExpr) made from host or
/// device code.
CallTarget resolveCall(const clang::Expr *E, bool FromDevice);

/// Where a function's callees' summaries come from.
class CalleeSummaries {
public:
  virtual ~CalleeSummaries();
  /// The summary of the definition \p Def.
  virtual const FunctionSummary &summaryOf(const clang::FunctionDecl *Def) = 0;
  /// Whether a call to \p Def closes a cycle still being solved (fresh
  /// objects it returns are then named once per call site).
  virtual bool inCycle(const clang::FunctionDecl *Def) = 0;
  /// Whether the output keeps every GPU op of \p Def as written, on the
  /// legacy default stream (FunctionSummaries::setLeftAsWritten).
  virtual bool leftAsWritten(const clang::FunctionDecl *Def) const = 0;
  /// Whether the output blocks the host in \p Def exactly where the original
  /// does (FunctionSummaries::setBlocksAsWritten).
  virtual bool blocksAsWritten(const clang::FunctionDecl *Def) const = 0;
  /// Whether every call of \p Def, left as written, returns only once all
  /// the device work queued before the call is complete.
  virtual bool completesEarlierWork(const clang::FunctionDecl *Def) const = 0;
  /// The stream of the tool's pool on which \p Def returns with work pending
  /// (FunctionSummaries::setPendingWorkStream).
  virtual std::optional<unsigned> pendingWorkStream(const clang::FunctionDecl *Def) const = 0;
};

class PointsTo {
public:
  PointsTo(const clang::FunctionDecl &F, clang::ASTContext &Ctx, ObjectTable &Objects,
           CalleeSummaries &Callees, AliasPolicy Aliases = {});

  const clang::FunctionDecl &function() const { return F; }
  clang::ASTContext &context() const { return Ctx; }
  bool isDevice() const { return Device; }
  CalleeSummaries &callees() const { return Callees; }
  const AliasPolicy &aliases() const { return Aliases; }
  const ObjectTable &objects() const { return Objects; }

  /// What the pointer (or iterator) value \p E points to.
  Pointees pointees(const clang::Expr *E);
  /// The memory the lvalue \p E designates.
  LValue lvalue(const clang::Expr *E);
  /// Objects the lvalue \p E designates that other code can reach (local
  /// variables nobody takes the address of are invisible).
  Pointees addressOf(const clang::Expr *E);
  /// What the pointers stored where \p L designates point to.
  Pointees load(const LValue &L);
  /// The elements of the container the lvalue (or pointer) \p Object names.
  Pointees elementsOf(const clang::Expr *Object, bool IsPointer = false);
  /// The memory a call's argument gives the callee: what a pointer or
  /// iterator points to, the elements of a container; empty for a scalar.
  Pointees argumentMemory(const clang::Expr *Arg, bool Container);

  /// The objects a callee's summary names, at the call site \p C.
  Pointees instantiate(const SummaryRef &R, const CallSite &C, const FunctionSummary &S);
  /// Where a callee's store lands: like instantiate(), but a local no one
  /// else can reach stays a cell (`make(&p)`, a constructor of a local).
  LValue instantiateTarget(const SummaryRef &R, const CallSite &C, const FunctionSummary &S);

  /// Adds \p P with \p Mode to \p Set: Unknown absorbs the rest; const
  /// objects are left out; an object also stands for what may alias it.
  void addAccess(AccessSet &Set, const Pointees &P, uint8_t Mode, std::string &UnknownWhy) const;

  bool isTracked(const clang::VarDecl *V) const;
  bool isImmutable(const clang::VarDecl *V) const;
  ObjectId storageOf(const clang::VarDecl *V);

  // --- facts for the function's summary --------------------------------
  /// The path a symbolic object stands for (null for other objects).
  const SymbolicPath *pathOf(ObjectId O) const;
  /// The global (or static) variable whose storage \p O is (null otherwise).
  const clang::VarDecl *globalOf(ObjectId O) const;
  bool isEscaped(ObjectId O) const;
  bool mayAlias(ObjectId A, ObjectId B) const;
  bool storesUnknown() const { return StoresUnknown; }
  const std::string &storesUnknownWhy() const { return StoresUnknownWhy; }
  /// Pointers stored in \p O's cells: (field, what they point to).
  const llvm::SmallVector<std::pair<FieldKey, Pointees>, 2> *storesOf(ObjectId O) const;
  const Pointees &returned() const { return Returned; }
  const std::vector<std::pair<FieldKey, Pointees>> &returnedFields() const {
    return ReturnedFields;
  }

private:
  using CellList = llvm::SmallVector<std::pair<FieldKey, Pointees>, 2>;

  const clang::FunctionDecl &F;
  clang::ASTContext &Ctx;
  ObjectTable &Objects;
  CalleeSummaries &Callees;
  AliasPolicy Aliases;
  bool Device;

  llvm::DenseSet<const clang::VarDecl *> PlainOnly; ///< locals used only plainly
  llvm::DenseMap<const clang::VarDecl *, ObjectId> Storage;
  llvm::DenseSet<ObjectId> ImmutableObjects;
  llvm::DenseMap<const clang::Expr *, ObjectId> Sites; ///< allocation expressions
  std::map<std::pair<const clang::Expr *, unsigned>, ObjectId> CallSiteFresh;
  llvm::DenseMap<const clang::Expr *, std::string> CallNames; ///< `v = f()`: names f's objects
  std::map<SymbolicPath, ObjectId> Symbols;
  llvm::DenseMap<ObjectId, SymbolicPath> SymbolPaths;
  llvm::DenseMap<ObjectId, CellList> ObjectCells;
  llvm::DenseMap<const clang::VarDecl *, CellList> VarCells;
  llvm::DenseSet<ObjectId> Escaped;
  llvm::DenseSet<ObjectId> Exposed; ///< held by symbolic objects, when unknown code runs
  llvm::DenseMap<ObjectId, std::string> EscapeWhy;
  bool StoresUnknown = false;
  std::string StoresUnknownWhy;
  Pointees Returned;
  std::vector<std::pair<FieldKey, Pointees>> ReturnedFields;
  bool Changed = false;

  /// Statements whose pointer effects are re-evaluated until nothing changes.
  std::vector<const clang::Stmt *> Constraints;
  /// Lambdas whose closure variable is only ever called (buildClosure).
  llvm::DenseSet<const clang::LambdaExpr *> ModelledClosures;
  std::vector<const clang::CXXCtorInitializer *> MemberInits;

  void classifyUses(const clang::Stmt *Body);
  void collect(const clang::Stmt *S);
  void collectDecl(const clang::VarDecl *V);
  void solve();
  void apply(const clang::Stmt *S);
  void applyCall(const clang::Expr *E, const LValue *Constructed);
  void applyApiCall(const CallSite &C, const ApiFunction &Api);
  void applySummaryCall(const CallSite &C, const FunctionSummary &S);
  void escapeArguments(const CallSite &C, const std::string &Why);

  void store(const LValue &Where, const Pointees &What);
  void storeCell(CellList &Cells, FieldKey Key, const Pointees &What);
  void assignAggregate(const LValue &Where, const clang::Expr *Value, clang::QualType Type);
  void escape(const Pointees &P, const std::string &Why);
  void closeEscapes();
  void noteUnknownStores(const std::string &Why);

  Pointees readCells(const CellList *Cells, FieldKey Key) const;
  Pointees readObject(ObjectId O, FieldKey Key);
  Pointees readVar(const clang::VarDecl *V, FieldKey Key);
  Pointees paramContent(const clang::VarDecl *V, FieldKey Key);
  Pointees fieldOfValue(const clang::Expr *Aggregate, FieldKey Key);
  Pointees callPointees(const clang::Expr *Call);
  Pointees thisPointees();
  /// The closure class, when this function is a lambda's body.
  const clang::CXXRecordDecl *lambdaClass() const;
  /// In a lambda's body: the closure's field that holds capture \p V.
  const clang::FieldDecl *captureField(const clang::VarDecl *V) const;
  /// In a lambda's body: what the captured `this` points to.
  Pointees capturedThis();
  /// Stores a lambda's captures into the fields of \p Closure.
  void buildClosure(const LValue &Closure, const clang::LambdaExpr *L);
  LValue callLValue(const clang::CallExpr *Call);
  LValue varLValue(const clang::VarDecl *V);
  Pointees objectsOf(const LValue &L);
  /// The memory a pointer argument designates; for `&x`, x itself (also
  /// when x is a local no one else can reach).
  LValue pointeeLValue(const clang::Expr *Pointer);

  ObjectId symbol(const SymbolicPath &P);
  Pointees symbolContent(const SymbolicPath &Base, FieldKey Key);
  ObjectId siteFor(const clang::Expr *Site, ObjectKind Kind, std::string Name,
                   clang::SourceLocation Loc);
  ObjectId allocationSite(const clang::Expr *Allocation, const ApiFunction *Api, std::string Name);
  ObjectKind kindOf(const ApiFunction &Api) const;
  /// Names the allocation \p Value makes (if it is one) after what it is
  /// first assigned to.
  void nameAllocation(const clang::Expr *Value, std::string Name);
  unsigned lineOf(clang::SourceLocation Loc) const;
  bool isGlobalObject(ObjectId O) const;
  bool isParamVar(const clang::VarDecl *V, unsigned &Index) const;
};

/// The keys under which a value of type \p T holds pointers (its pointer
/// fields, nested ones included; null for a pointer or an array of them;
/// the class for a container).
void pointerKeys(clang::QualType T, llvm::SmallVectorImpl<FieldKey> &Keys);

/// Whether \p T is a container the API model knows (std::vector).
const clang::CXXRecordDecl *containerClass(clang::QualType T);

/// A short name for the memory \p E designates, for objects it allocates
/// (`d`, `w.d_params`, `bufs`).
std::string nameOf(const clang::Expr *E);

} // namespace streamalloc

#endif
