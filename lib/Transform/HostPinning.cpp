//===- HostPinning.cpp ----------------------------------------------------===//
#include "streamalloc/Transform/HostPinning.h"
#include "PointerUse.h"
#include "RestateInCaller.h"
#include "VectorRegistration.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/ImportedSummaries.h"
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/Model/ApiModel.h"
#include "streamalloc/Transform/PointerGroup.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Path.h"

#include <cassert>

using namespace clang;

namespace streamalloc {

llvm::StringRef pinActionName(PinAction Action) {
  switch (Action) {
  case PinAction::Pageable:
    return "pageable";
  case PinAction::AllocPinned:
    return "allocated page-locked";
  case PinAction::Register:
    return "registered";
  }
  llvm_unreachable("not a pin action");
}

namespace {

/// The asynchronous form of a GPU copy or fill (the program's own
/// cudaMemcpyAsync and the like): with pageable memory it returns only once
/// the host side of the transfer is done, with page-locked memory at once.
bool isAsyncFormOfGpuOp(const ApiFunction &Api) {
  static const llvm::StringSet<> AsyncForms = [] {
    llvm::StringSet<> Names;
    for (unsigned I = 0; I < apiModelSize(); ++I)
      if (apiModelRow(I).isGpuOp() && !apiModelRow(I).AsyncName.empty())
        Names.insert(apiModelRow(I).AsyncName);
    return Names;
  }();
  return AsyncForms.contains(Api.Name);
}

bool isPinnableAllocCall(const CallExpr *Call) {
  const ApiFunction *Api = modelledCallee(Call);
  return Api && (Api->has(ApiCap::PinnableAlloc) || Api->has(ApiCap::RegistrableAlloc));
}

/// The arguments whose product is the bytes the host allocation \p Call
/// (isPinnableAllocCall) asks for: aligned_alloc's and posix_memalign's last,
/// calloc's two, malloc's one.
std::vector<const Expr *> allocatedBytes(const CallExpr &Call) {
  const ApiFunction *Api = modelledCallee(&Call);
  if (Api->has(ApiCap::RegistrableAlloc))
    return {Call.getArg(Call.getNumArgs() - 1)};
  return {Call.arg_begin(), Call.arg_end()};
}

/// posix_memalign's call whose out-parameter is \p AddrOf, or null.
const CallExpr *posixMemalignInto(const Expr *AddrOf, ASTContext &Ctx) {
  const CallExpr *Call = callGivenAddressFirst(AddrOf, Ctx);
  return Call && modelledCallee(Call) == &apiRow(ApiId::posix_memalign) ? Call : nullptr;
}

/// An allocation that can be registered but not replaced by a page-locked
/// one (aligned_alloc: cudaMallocHost does not promise the alignment).
bool onlyRegistrable(const Expr *Site) {
  const auto *Call = dyn_cast<CallExpr>(Site->IgnoreParenCasts());
  const ApiFunction *Api = Call ? modelledCallee(Call) : nullptr;
  return Api && Api->has(ApiCap::RegistrableAlloc);
}

/// The return statements of \p F's own body (not of lambdas there).
std::vector<const ReturnStmt *> returnsOf(const FunctionDecl &F) {
  std::vector<const ReturnStmt *> Found;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *R = dyn_cast<ReturnStmt>(S))
      Found.push_back(R);
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(F.getBody());
  return Found;
}

FormulaOrWhy returnedBytesOf(const FunctionDecl &Def, VariableUses &Uses);

/// What pinning accepts in a group: allocations the rewrite can replace
/// (malloc/calloc named directly, new[] of a trivial type), held only by
/// local pointers, released only by plain free or delete[] calls in the
/// allocating function, and passed only to calls that neither keep nor
/// release the memory. The program's own asynchronous copies are refused:
/// pinned, they would stop being staged before they return. An allocation
/// may also be the call of a helper of the file that returns a buffer it
/// allocates (`float *x = make_buffer(n);`): see allocationHelper.
class PinningPolicy : public PointerGroupPolicy {
public:
  /// \p ReturnsFrom: the helper whose allocations are traced, where a
  /// return of them is where they go to the caller.
  /// \p WholeProgram: no other unit calls the file's functions.
  explicit PinningPolicy(const FunctionDecl *ReturnsFrom = nullptr, bool WholeProgram = false)
      : ReturnsFrom(ReturnsFrom), WholeProgram(WholeProgram) {}

  bool site(PointerGroupTracer &T, const Expr *E) override {
    E = E->IgnoreParenCasts();
    if (llvm::is_contained(T.Sites, E))
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(E); Call && !isPinnableAllocCall(Call))
      return allocationHelper(T, Call);
    if (!acceptsAllocation(T, E))
      return false;
    T.recordSite(E);
    return holdsResultOf(T, E);
  }

  bool otherSource(PointerGroupTracer &T, const Expr *E) override {
    if (isa<CallExpr, CXXNewExpr>(E))
      return site(T, E);
    return T.fail("it may also hold a pointer from the expression on line " +
                  std::to_string(T.lineOf(E)));
  }

  /// `&p` only as the out-parameter of a posix_memalign in the allocating
  /// function: another allocation into the group's pointer.
  bool holderAddress(PointerGroupTracer &T, const FunctionDecl *Fn, const Expr *AddrOf,
                     const std::string &Name) override {
    if (const CallExpr *Call = posixMemalignInto(AddrOf, T.context()); Call && Fn == &T.home())
      return site(T, Call);
    return T.fail(wording().UnfollowedUse(Name) + T.at(AddrOf));
  }

  bool modelledCall(PointerGroupTracer &T, const FunctionDecl *Fn, const CallExpr *Call,
                    const ApiFunction &Api, unsigned Index, bool Offset) override {
    std::string Here = T.at(Call->getArg(Index));
    if (isAsyncFormOfGpuOp(Api))
      return T.fail("the program's own " + Api.Name.str() + " on line " +
                    std::to_string(T.lineOf(Call)) +
                    " would become truly asynchronous (with pageable memory it returns only "
                    "once the host side of the copy is done)");
    switch (Api.roleOf(Index)) {
    case ArgRole::None:
    case ArgRole::Read:
    case ArgRole::Write:
    case ArgRole::ReadWrite:
    case ArgRole::VariadicRead:
      if (Api.Kind == ApiKind::Allocate || Api.has(ApiCap::PageLocks))
        break;
      // A helper's copy of the buffer runs at full speed once it is pinned.
      if (Fn != &T.home() && Api.Kind == ApiKind::GpuCopy &&
          !llvm::is_contained(T.HelperCopies, Call))
        T.HelperCopies.push_back(Call);
      return true;
    case ArgRole::Free:
      if (Api.has(ApiCap::PinnableRelease) && mayRelease(T, Fn) && !Offset) {
        const auto *Callee = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
        if (!Callee || Callee->hasQualifier() || !T.writtenDirectly(Callee->getLocation()))
          return T.fail("it is released by a `" + Api.Name.str() + "` not spelled plainly" + Here);
        T.recordRelease(Call);
        return true;
      }
      if (!mayRelease(T, Fn))
        return T.fail("it is released in `" + Fn->getNameAsString() + "`" + Here);
      break;
    default:
      break;
    }
    return T.fail("a pointer into it is passed to `" + Api.Name.str() + "`" + Here);
  }

  bool kernelArgument(PointerGroupTracer &T, const CallExpr *, const Expr *Arg) override {
    return T.fail("a pointer into it is passed to a kernel" + T.at(Arg));
  }

  bool deleted(PointerGroupTracer &T, const FunctionDecl *Fn, const CXXDeleteExpr *Delete,
               bool Offset) override {
    std::string Here = T.at(Delete->getArgument());
    if (!mayRelease(T, Fn) || Offset || !Delete->isArrayForm())
      return T.fail("it is released by a delete the rewrite does not handle" + Here);
    T.recordRelease(Delete);
    return T.writtenDirectly(Delete->getBeginLoc()) ||
           T.fail("it is released through a macro" + Here);
  }

  bool returned(PointerGroupTracer &T, const FunctionDecl *Fn, const Expr *Val) override {
    if (Fn == ReturnsFrom && Fn == &T.home())
      return true;
    return PointerGroupPolicy::returned(T, Fn, Val);
  }

  bool trustsPlainImportedParams() const override { return true; }

  /// The calls of helpers left as written whose results are registered where
  /// they are called, with the bytes each call allocates (an expression of
  /// the caller).
  llvm::DenseMap<const Expr *, std::string> RegisteredResults;

  Wording wording() const override {
    return {"it is",
            [](const std::string &Name) {
              return "the address of `" + Name + "` is taken or it is bound to a reference";
            },
            "the pinning analysis does not follow", "the analysis cannot see"};
  }

protected:
  /// Whether a release of the group's memory in \p Fn may be rewritten.
  virtual bool mayRelease(PointerGroupTracer &T, const FunctionDecl *Fn) const {
    return Fn == &T.home();
  }

  /// The checks on an allocation \p E (parentheses and casts stripped) that
  /// the rewrite replaces: a plain malloc/calloc call or new[] of a trivial
  /// type, spelled in the file.
  static bool acceptsAllocation(PointerGroupTracer &T, const Expr *E) {
    std::string Line = std::to_string(T.lineOf(E));
    if (const auto *Call = dyn_cast<CallExpr>(E); Call && isPinnableAllocCall(Call)) {
      const auto *Callee = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
      if (!Callee || Callee->hasQualifier() || !T.writtenDirectly(Callee->getLocation()))
        return T.fail("its allocation on line " + Line +
                      " is not spelled as a plain call in this file");
      return true;
    }
    if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
      if (!New->isArray() || New->getNumPlacementArgs() != 0 ||
          !New->getAllocatedType().isTrivialType(T.context()) ||
          !New->getOperatorNew()->isReplaceableGlobalAllocationFunction() ||
          (New->hasInitializer() && !isa<ImplicitValueInitExpr>(New->getInitializer())))
        return T.fail("its allocation on line " + Line + " is not a plain new[] of a trivial type");
      if (!T.writtenDirectly(New->getBeginLoc()) || !T.writtenDirectly(New->getEndLoc()))
        return T.fail("its allocation on line " + Line + " is spelled through a macro");
      return true;
    }
    return T.fail("it may also hold a pointer the analysis cannot follow (line " + Line + ")");
  }

  /// The allocation's result must go straight into a plain local pointer
  /// (or, in a helper traced for its caller, be returned).
  bool holdsResultOf(PointerGroupTracer &T, const Expr *Site) {
    if (const auto *Call = dyn_cast<CallExpr>(Site);
        Call && modelledCallee(Call) == &apiRow(ApiId::posix_memalign)) {
      if (const VarDecl *V = variableGivenAddressFirst(*Call))
        return T.addHolder(&T.home(), V);
      return T.fail("the allocation on line " + std::to_string(T.lineOf(Site)) +
                    " is not stored straight into a local pointer");
    }
    const Expr *Val = Site;
    while (true) {
      auto Parents = T.context().getParents(*Val);
      if (Parents.size() != 1)
        return T.fail("its allocation's result is used in several places");
      if (const auto *P = Parents[0].get<Expr>(); P && isa<ParenExpr, CastExpr>(P)) {
        Val = P;
        continue;
      }
      if (Parents[0].get<ReturnStmt>() && &T.home() == ReturnsFrom)
        return true;
      if (const auto *V = Parents[0].get<VarDecl>())
        return T.addHolder(&T.home(), V);
      if (const auto *BO = Parents[0].get<BinaryOperator>();
          BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Val)
        if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
          if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
            return T.addHolder(&T.home(), V);
      return T.fail("the allocation on line " + std::to_string(T.lineOf(Site)) +
                    " is not stored straight into a local pointer");
    }
  }

private:
  const FunctionDecl *ReturnsFrom;
  bool WholeProgram;

  /// What each helper left as written returns: the bytes of the one C
  /// allocation it returns, as a formula over its arguments, or why its
  /// result cannot be registered by its caller.
  llvm::DenseMap<const FunctionDecl *, FormulaOrWhy> Returned;
  VariableUses HelperUses;

  const FormulaOrWhy &returnedAllocation(const FunctionDecl &Def) {
    auto [It, New] = Returned.try_emplace(&Def);
    if (New)
      It->second = returnedBytesOf(Def, HelperUses);
    return It->second;
  }
  bool registeredResult(PointerGroupTracer &T, const CallExpr *Call, const FormulaOrWhy &Bytes,
                        const std::string &NotRewritten);
  bool registeredResult(PointerGroupTracer &T, const CallExpr *Call, const FunctionDecl &Def,
                        const std::string &NotRewritten) {
    return registeredResult(T, Call, returnedAllocation(Def), NotRewritten);
  }
  bool importedResult(PointerGroupTracer &T, const CallExpr *Call);

  /// `p = helper(...)`, where helper is a function of this file that only
  /// the allocating function calls (not from other files: internal linkage
  /// or the whole program in the file; its address not taken) and that returns memory it allocates
  /// the way this policy accepts, without releasing it. The group then holds the helper's
  /// allocations, every call of the helper and what each call's result reaches: pinned, the helper
  /// allocates page-locked memory for all of its calls, and every release of their results is
  /// rewritten.
  bool allocationHelper(PointerGroupTracer &T, const CallExpr *Call) {
    std::string Line = std::to_string(T.lineOf(Call));
    auto Refuse = [&](const std::string &Why) {
      return T.fail("it may also hold memory from `" + calleeName(Call) + "` (line " + Line + ")" +
                    (Why.empty() ? "" : ", " + Why));
    };
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    ASTContext &Ctx = T.context();
    if (!Callee || Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
      return Refuse("");
    if (!Callee->hasBody(Def))
      return importedResult(T, Call);
    if (isa<CXXMethodDecl>(Def))
      return Refuse("");
    // The helper's own allocation is rewritten only where no other caller
    // sees the change; otherwise its result may still be registered here.
    if (Def->isTemplateInstantiation())
      return registeredResult(T, Call, *Def, "a template instance");
    if (!T.writtenDirectly(Def->getLocation()))
      return registeredResult(T, Call, *Def, "which is defined in another file");
    if (Def->isExternallyVisible() && !WholeProgram)
      return registeredResult(T, Call, *Def, "which other files may call (it is not `static`)");
    if (escapingUseOf(*Def, Ctx).isValid())
      return registeredResult(T, Call, *Def, "whose address is taken");
    for (const CallExpr *Other : directCallsOf(*Def, Ctx))
      if (!callIsIn(Other, T.home(), Ctx))
        return registeredResult(T, Call, *Def,
                                "which is also called outside `" + T.home().getNameAsString() +
                                    "` (line " + std::to_string(T.lineOf(Other)) + ")");
    T.recordSite(Call);
    if (!holdsResultOf(T, Call))
      return false;
    // What the helper returns: the same for every group that calls it. A
    // group that holds one call holds them all, so each group records the
    // helper's allocations and every call again (a call already in the
    // group's sites is not traced twice).
    auto [Known, New] = HelperReturns.try_emplace(Def);
    if (New)
      Known->second = traceHelperReturns(*Def, Ctx);
    if (!Known->second.Traced)
      return Refuse(Known->second.Why);
    for (const Expr *S : Known->second.Sites)
      T.recordSite(S);
    // Each call is a buffer of the group.
    for (const CallExpr *Other : directCallsOf(*Def, Ctx))
      if (!site(T, Other))
        return false;
    return true;
  }

  /// Whether \p Call sits in \p F's own body (not in a lambda there).
  static bool callIsIn(const CallExpr *Call, const FunctionDecl &F, ASTContext &Ctx) {
    DynTypedNode N = DynTypedNode::create(*Call);
    while (true) {
      auto Parents = Ctx.getParents(N);
      if (Parents.size() != 1 || Parents[0].get<LambdaExpr>())
        return false;
      if (const auto *D = Parents[0].get<FunctionDecl>())
        return D == &F;
      N = Parents[0];
    }
  }

  /// What a helper rewritten for its callers returns: the allocations its
  /// returns give back, or (not Traced) why they cannot be pinned, which may
  /// say nothing beyond the helper's name.
  struct HelperReturnsTrace {
    bool Traced = false;
    std::vector<const Expr *> Sites;
    std::string Why;
  };
  llvm::DenseMap<const FunctionDecl *, HelperReturnsTrace> HelperReturns;

  HelperReturnsTrace traceHelperReturns(const FunctionDecl &Def, ASTContext &Ctx) {
    PinningPolicy Inner(&Def, WholeProgram);
    VariableUses Uses;
    PointerGroupTracer Helper(Ctx, Def, Inner, Uses);
    std::vector<const ReturnStmt *> Returns = returnsOf(Def);
    if (Returns.empty())
      return {false, {}, "which does not return a value"};
    for (const ReturnStmt *R : Returns)
      if (!R->getRetValue() || !Helper.traceReturnedValue(R->getRetValue()))
        return {false, {}, Helper.Why.empty() ? "" : "allocated there: " + Helper.Why};
    if (!Helper.Releases.empty())
      return {false,
              {},
              "which also releases it (line " + std::to_string(Helper.lineOf(Helper.Releases[0])) +
                  ")"};
    return {true, Helper.Sites, ""};
  }
};

/// What a helper whose result its caller registers may do with the memory
/// it returns: take it from one C allocation (malloc, calloc, aligned_alloc,
/// or posix_memalign into a local pointer), anywhere, since the helper stays
/// as written, and return it without keeping or releasing it.
class HelperResultPolicy : public PinningPolicy {
public:
  explicit HelperResultPolicy(const FunctionDecl &Helper) : PinningPolicy(&Helper) {}

  bool site(PointerGroupTracer &T, const Expr *E) override {
    E = E->IgnoreParenCasts();
    if (llvm::is_contained(T.Sites, E))
      return true;
    const auto *Call = dyn_cast<CallExpr>(E);
    if (!Call || !isPinnableAllocCall(Call))
      return T.fail("it returns memory that may come from an allocation other than malloc, "
                    "calloc, aligned_alloc or posix_memalign" +
                    T.at(E));
    T.recordSite(Call);
    return holdsResultOf(T, Call);
  }
};

/// Whether \p Val, returned by \p Helper, is the start of what \p Site
/// allocates (or null): the site itself, or a local pointer that holds
/// nothing else and is never moved along.
bool returnsStartOf(const Expr *Val, const CallExpr *Site, const FunctionDecl &Helper,
                    VariableUses &Uses) {
  ASTContext &Ctx = Helper.getASTContext();
  auto StartOrNull = [&](const Expr *E) {
    E = E->IgnoreParenCasts();
    return E == Site || isNullConstant(E, Ctx);
  };
  if (StartOrNull(Val))
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(Val->IgnoreParenCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      (V->hasInit() && !StartOrNull(V->getInit())))
    return false;
  for (const DeclRefExpr *Use : Uses.of(&Helper, V)) {
    const Expr *E = Use;
    while (true) {
      auto Parents = Ctx.getParents(*E);
      if (Parents.size() != 1)
        return false;
      const auto *Paren = Parents[0].get<ParenExpr>();
      if (!Paren)
        break;
      E = Paren;
    }
    DynTypedNode P = Ctx.getParents(*E)[0];
    if (const auto *BO = P.get<BinaryOperator>(); BO && BO->getLHS() == E) {
      if (BO->getOpcode() != BO_Assign || !StartOrNull(BO->getRHS()))
        return false;
    } else if (const auto *UO = P.get<UnaryOperator>()) {
      if (UO->isIncrementDecrementOp() ||
          (UO->getOpcode() == UO_AddrOf && posixMemalignInto(UO, Ctx) != Site))
        return false;
    }
  }
  return true;
}

/// The bytes of the one C allocation \p Def returns, found with \p Uses
/// (its variables' mentions), or why a caller cannot register its result
/// (a clause that follows "and").
FormulaOrWhy returnedBytesOf(const FunctionDecl &Def, VariableUses &Uses) {
  ASTContext &Ctx = Def.getASTContext();
  const std::string NotHere = "that memory cannot be registered where it is returned: ";
  HelperResultPolicy Inner(Def);
  PointerGroupTracer Helper(Ctx, Def, Inner, Uses);
  std::vector<const ReturnStmt *> Returns = returnsOf(Def);
  for (const ReturnStmt *Ret : Returns)
    if (!Ret->getRetValue() || !Helper.traceReturnedValue(Ret->getRetValue()))
      return {{}, NotHere + (Helper.Why.empty() ? "it returns no pointer" : Helper.Why)};
  const auto *Site = Helper.Sites.size() == 1 ? dyn_cast<CallExpr>(Helper.Sites[0]) : nullptr;
  if (Returns.empty())
    return {{}, NotHere + "it returns no value"};
  if (!Helper.Releases.empty())
    return {{}, NotHere + "it also releases it" + Helper.at(Helper.Releases[0])};
  if (!Site)
    return {{},
            NotHere + "it returns memory from " + std::to_string(Helper.Sites.size()) +
                " allocations"};
  for (const ReturnStmt *Ret : Returns)
    if (!returnsStartOf(Ret->getRetValue(), Site, Def, Uses))
      return {{},
              NotHere + "it may return a pointer past the start of its allocation" +
                  Helper.at(Ret)};
  std::vector<const Expr *> Factors = allocatedBytes(*Site);
  FormulaOrWhy Bytes;
  for (const Expr *Factor : Factors) {
    FormulaOrWhy F = formulaForCallers(*Factor, Def, Uses, Factors.size() > 1);
    if (!F.Why.empty())
      return {{}, "the size it allocates " + F.Why};
    if (!Bytes.Formula.empty())
      Bytes.Formula += " * ";
    Bytes.Formula += F.Formula;
  }
  return Bytes;
}

/// `p = helper(...)` where the helper cannot be rewritten (\p NotRewritten
/// says why) but returns the memory of one C allocation whose size the
/// caller can restate: the call is a site of its own, whose result is
/// registered as it returns and unregistered where the group is released.
bool PinningPolicy::registeredResult(PointerGroupTracer &T, const CallExpr *Call,
                                     const FormulaOrWhy &Returned,
                                     const std::string &NotRewritten) {
  auto Refuse = [&](const std::string &Why) {
    return T.fail("it may also hold memory from `" + calleeName(Call) + "`" + T.at(Call) + ", " +
                  NotRewritten + ", and " + Why);
  };
  if (!T.writtenDirectly(Call->getBeginLoc()) || !T.writtenDirectly(Call->getRParenLoc()))
    return Refuse("the call is spelled through a macro");
  if (!Returned.Why.empty())
    return Refuse(Returned.Why);
  RestatedExpr Bytes = restateAt(Returned.Formula, *Call, T.home(), HelperUses);
  if (!Bytes.Why.empty())
    return Refuse("the size it allocates " + Bytes.Why);
  T.recordSite(Call);
  RegisteredResults[Call] = Bytes.Text;
  return holdsResultOf(T, Call);
}

/// `p = helper(...)` where another translation unit defines the helper: its
/// exported summary says what it returns (CrossTu.cpp).
bool PinningPolicy::importedResult(PointerGroupTracer &T, const CallExpr *Call) {
  const ImportedFunction *I = ImportScope::lookup(Call->getDirectCallee());
  std::string Name = "`" + calleeName(Call) + "`";
  if (!I)
    return T.fail("it may also hold memory from " + Name + T.at(Call) +
                  ", whose body is not visible (name the file that defines it with "
                  "--summary-source, or run the tool over the whole project)");
  if (!I->Conflict.empty())
    return T.fail("it may also hold memory from " + Name + T.at(Call) + ": " + I->Conflict);
  FormulaOrWhy Returned{I->ReturnedBytes, I->ReturnedBytesWhy};
  if (Returned.Formula.empty() && Returned.Why.empty())
    Returned.Why = "the summary of its unit does not say what it allocates";
  return registeredResult(T, Call, Returned,
                          "which is defined in " + llvm::sys::path::filename(I->Source).str());
}

/// Pinning's policy for the pointers into a std::vector's elements: a
/// pointer variable of the function that declares the vector may hold
/// `v.data()` or the address of an element of that vector (`&v[i]`).
class VectorElementsPolicy : public PinningPolicy {
public:
  VectorElementsPolicy(const VarDecl *Vector, bool WholeProgram)
      : PinningPolicy(nullptr, WholeProgram), Vector(Vector) {}

  bool otherSource(PointerGroupTracer &T, const Expr *E) override {
    const Expr *Inner = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Inner); UO && UO->getOpcode() == UO_AddrOf)
      Inner = UO->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Call = dyn_cast<CallExpr>(Inner); Call && isElementCallOnVector(Call))
      return true;
    return PinningPolicy::otherSource(T, E);
  }

private:
  const VarDecl *Vector;

  bool isElementCallOnVector(const CallExpr *Call) const {
    const ApiFunction *Api = modelledCallee(Call);
    if (!Api || Api->Kind != ApiKind::ContainerElements)
      return false;
    const Expr *Object = nullptr;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      Object = Member->getImplicitObjectArgument();
    else if (isa<CXXOperatorCallExpr>(Call) && Call->getNumArgs() > 0)
      Object = Call->getArg(0);
    const auto *Ref = Object ? dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()) : nullptr;
    return Ref && Ref->getDecl() == Vector;
  }
};

/// What pinning accepts for a buffer a class owns: a pointer member that
/// holds, in every object of the class, only null, allocations spelled in
/// the class's file that the rewrite can replace, or the member of another
/// object (a copy of the pointer: the original then releases one buffer
/// twice, which a working program does not do). Its memory is released only
/// in the class's member functions (the destructor, typically), and leaves
/// the class only through member functions that return the pointer or a
/// reference into it, every call of which is followed in its caller.
/// Pinned, every object's buffer is page-locked.
class OwnedBufferPolicy : public PinningPolicy {
public:
  OwnedBufferPolicy(const FieldDecl &Member, bool WholeProgram)
      : PinningPolicy(nullptr, WholeProgram), Member(Member),
        Class(*cast<CXXRecordDecl>(Member.getParent())) {}

  bool fieldStore(PointerGroupTracer &T, const FunctionDecl *Fn, const BinaryOperator *,
                  const Expr *Value) override {
    const Expr *E = Value->IgnoreParenCasts();
    if (isNullConstant(E, T.context()))
      return true;
    if (const auto *Other = dyn_cast<MemberExpr>(E); Other && Other->getMemberDecl() == &Member)
      return true; // the member of another object: already in the group
    if (const auto *Call = dyn_cast<CallExpr>(E); Call && !isPinnableAllocCall(Call))
      return T.fail("`" + Member.getNameAsString() + "` may also hold memory from `" +
                    calleeName(Call) + "`" + T.at(Call));
    if (!acceptsAllocation(T, E))
      return false;
    T.recordSite(E);
    return true;
  }

  /// A local pointer of the constructor (the tracer's home) that holds what
  /// a member function of the class returns (`float *p = data();`): the
  /// pointer the member function returns is followed from its return.
  bool otherSource(PointerGroupTracer &T, const Expr *E) override {
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E))
      if (const CXXMethodDecl *M = Call->getMethodDecl(); M && M->getParent() == &Class)
        return true;
    return PinningPolicy::otherSource(T, E);
  }

  bool returned(PointerGroupTracer &T, const FunctionDecl *Fn, const Expr *Val) override {
    const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
    ASTContext &Ctx = T.context();
    std::string Name = "`" + Fn->getNameAsString() + "`";
    if (!Method || Method->getParent() != &Class)
      return PinningPolicy::returned(T, Fn, Val);
    if (Method->isVirtual())
      return T.fail("a pointer into it is returned from " + Name + ", which is virtual" +
                    T.at(Val));
    if (SourceLocation Escape = escapingUseOf(*Method, Ctx); Escape.isValid())
      return T.fail("a pointer into it is returned from " + Name + ", whose address is taken" +
                    " (line " +
                    std::to_string(Ctx.getSourceManager().getSpellingLineNumber(
                        Ctx.getSourceManager().getFileLoc(Escape))) +
                    ")");
    if (!Followed.insert(Method).second)
      return true;
    bool Element = !Val->getType()->isPointerType();
    for (const CallExpr *Call : directCallsOf(*Method, Ctx)) {
      const FunctionDecl *Caller = enclosingFunction(Call, Ctx);
      if (!Caller)
        return T.fail("a pointer into it is returned from " + Name + " outside a function" +
                      T.at(Call));
      if (Caller->isDependentContext())
        continue; // a template's pattern: its instantiations are followed
      if (!T.traceCallResult(Caller, Call, Element))
        return false;
    }
    return true;
  }

protected:
  bool mayRelease(PointerGroupTracer &, const FunctionDecl *Fn) const override {
    const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
    return Method && Method->getParent() == &Class;
  }

private:
  const FieldDecl &Member;
  const CXXRecordDecl &Class;
  llvm::SmallPtrSet<const FunctionDecl *, 4> Followed; ///< accessors whose calls are traced
};

/// The pointer member of a class that the allocation \p Site in one of its
/// constructors is stored into (`p = malloc(...)`, `this->p = ...` or an
/// initialiser `p(new T[n])`), or null.
const FieldDecl *memberStoredInto(const Expr *Site, const CXXConstructorDecl &Ctor,
                                  ASTContext &Ctx) {
  const Expr *Val = Site;
  while (true) {
    auto Parents = Ctx.getParents(*Val);
    if (Parents.size() != 1)
      return nullptr;
    if (const auto *P = Parents[0].get<Expr>(); P && isa<ParenExpr, CastExpr>(P)) {
      Val = P;
      continue;
    }
    // An initialiser's expression has the constructor as its parent.
    if (Parents[0].get<CXXConstructorDecl>() == &Ctor) {
      for (const CXXCtorInitializer *Init : Ctor.inits())
        if (Init->isWritten() && Init->getInit() == Val)
          return Init->getMember();
      return nullptr;
    }
    const auto *Store = Parents[0].get<BinaryOperator>();
    if (!Store || Store->getOpcode() != BO_Assign || Store->getRHS() != Val)
      return nullptr;
    const auto *M = dyn_cast<MemberExpr>(Store->getLHS()->IgnoreParens());
    const auto *F = M ? dyn_cast<FieldDecl>(M->getMemberDecl()) : nullptr;
    if (!F || F->getParent() != Ctor.getParent() ||
        !isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
      return nullptr;
    return F;
  }
}

/// The group of a buffer that the constructor \p Ctor allocates (\p Site)
/// and keeps in a member of its class; its reason when pinning cannot follow
/// it.
struct OwnedBuffer {
  std::vector<const Expr *> Sites, Releases;
  std::string Why;
};
OwnedBuffer traceOwnedBuffer(const CXXConstructorDecl &Ctor, const Expr *Site, bool WholeProgram) {
  OwnedBuffer Group;
  ASTContext &Ctx = Ctor.getASTContext();
  const CXXRecordDecl *Class = Ctor.getParent();
  std::string Owner = "`" + Class->getNameAsString() + "`";
  const FieldDecl *Member = memberStoredInto(Site, Ctor, Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Member) {
    Group.Why = "its constructor's allocation on line " +
                std::to_string(SM.getSpellingLineNumber(SM.getFileLoc(Site->getBeginLoc()))) +
                " is not stored straight into a member of " + Owner;
    return Group;
  }
  if (isa<ClassTemplateSpecializationDecl>(Class) || Class->getDescribedClassTemplate() ||
      Class->isDependentContext() || Class->isLambda() || Class->isUnion())
    Group.Why = "it is owned by " + Owner + ", a class template or a union";
  else if (SM.isInSystemHeader(SM.getExpansionLoc(Class->getLocation())))
    Group.Why = "it is owned by " + Owner + ", a class of a system header";
  if (!Group.Why.empty())
    return Group;
  OwnedBufferPolicy Policy(*Member, WholeProgram);
  VariableUses Uses;
  PointerGroupTracer Tracer(Ctx, Ctor, Policy, Uses);
  if (!Tracer.traceField(Member))
    Group.Why = "it is held by `" + Class->getNameAsString() + "::" + Member->getNameAsString() +
                "`, and " + Tracer.Why;
  else if (!llvm::is_contained(Tracer.Sites, Site->IgnoreParenCasts()))
    Group.Why = "its allocation is not one the rewrite can replace";
  Group.Sites = std::move(Tracer.Sites);
  Group.Releases = std::move(Tracer.Releases);
  return Group;
}

/// The helpers (`f`, `g`) whose calls among \p Sites have their results
/// registered.
std::string returnersOf(llvm::ArrayRef<const Expr *> Sites,
                        const llvm::DenseMap<const Expr *, std::string> &Registered) {
  std::vector<std::string> Names;
  for (const Expr *S : Sites)
    if (Registered.count(S))
      if (std::string Name = "`" + calleeName(cast<CallExpr>(S)) + "`";
          !llvm::is_contained(Names, Name))
        Names.push_back(Name);
  return llvm::join(Names, ", ");
}

/// Host memory pinning may change: an allocation, or a vector's elements.
bool isHostBuffer(ObjectKind Kind) {
  return Kind == ObjectKind::HostAllocation || Kind == ObjectKind::ContainerStorage;
}

/// Bytes of an allocation or a copy when they are compile-time constants.
std::optional<double> constantBytes(const Expr *Site, ASTContext &Ctx) {
  auto Eval = [&](const Expr *E) -> std::optional<double> {
    Expr::EvalResult R;
    if (E && E->EvaluateAsInt(R, Ctx))
      return (double)R.Val.getInt().getZExtValue();
    return std::nullopt;
  };
  if (const auto *Call = dyn_cast<CallExpr>(Site)) {
    if (!isPinnableAllocCall(Call))
      return std::nullopt; // a helper that allocates: its size is the helper's business
    double Bytes = 1;
    for (const Expr *Factor : allocatedBytes(*Call)) {
      std::optional<double> F = Eval(Factor);
      if (!F)
        return std::nullopt;
      Bytes *= *F;
    }
    return Bytes;
  }
  // `std::vector<T> v(n)` or `v(n, x)`: n elements.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Site)) {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        Construct->getType()->getAsCXXRecordDecl());
    if (!Spec || Construct->getNumArgs() == 0 ||
        !Construct->getArg(0)->getType()->isIntegerType() || Spec->getTemplateArgs().size() == 0)
      return std::nullopt;
    std::optional<double> N = Eval(Construct->getArg(0));
    QualType Element = Spec->getTemplateArgs()[0].getAsType();
    if (!N || Element->isIncompleteType())
      return std::nullopt;
    return *N * Ctx.getTypeSizeInChars(Element).getQuantity();
  }
  if (const auto *New = dyn_cast<CXXNewExpr>(Site)) {
    std::optional<double> N = New->getArraySize() ? Eval(*New->getArraySize()) : std::nullopt;
    if (!N)
      return std::nullopt;
    return *N * Ctx.getTypeSizeInChars(New->getAllocatedType()).getQuantity();
  }
  return std::nullopt;
}

} // namespace

llvm::DenseSet<ObjectId> pageLockedObjects(const FunctionAccesses &FA,
                                           const std::vector<PinDecision> &Pins,
                                           llvm::ArrayRef<unsigned> PageLockedParams) {
  llvm::DenseSet<ObjectId> Locked;
  for (const PinDecision &D : Pins)
    if (D.Action != PinAction::Pageable)
      Locked.insert(D.Object);
  for (ObjectId Obj = 0; Obj < FA.objects().size(); ++Obj) {
    ObjectKind Kind = FA.objects().get(Obj).Kind;
    std::optional<unsigned> Param = FA.pointedToByParam(Obj);
    if (Kind == ObjectKind::PinnedAllocation || Kind == ObjectKind::ManagedAllocation ||
        (Param && llvm::is_contained(PageLockedParams, *Param)))
      Locked.insert(Obj);
  }
  return Locked;
}

ArgumentFormula returnedAllocationBytes(const FunctionDecl &F, std::string &Why) {
  VariableUses Uses;
  FormulaOrWhy Bytes = returnedBytesOf(F, Uses);
  Why = Bytes.Why;
  return Bytes.Formula;
}

std::vector<unsigned> plainHostParameters(const FunctionDecl &F) {
  std::vector<unsigned> Plain;
  ASTContext &Ctx = F.getASTContext();
  // The tracer follows a buffer from the function that allocates it (its
  // home) into helpers. Here the buffer comes from a caller elsewhere, so the
  // home is a declaration that never holds it: a release or a new source in
  // F fails as it does in any helper.
  const FunctionDecl *Home = nullptr;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *Other = dyn_cast<FunctionDecl>(D); Other && Other != &F && !Other->hasBody()) {
      Home = Other;
      break;
    }
  if (!Home || !F.hasBody())
    return Plain;
  PinningPolicy Policy;
  VariableUses Uses;
  for (unsigned I = 0; I < F.getNumParams(); ++I) {
    const ParmVarDecl *P = F.getParamDecl(I);
    if (!P->getType()->isPointerType())
      continue;
    PointerGroupTracer Tracer(Ctx, *Home, Policy, Uses);
    if (Tracer.traceHolder(&F, P) && Tracer.Sites.empty() && Tracer.Releases.empty())
      Plain.push_back(I);
  }
  return Plain;
}

std::vector<PinDecision> planPinning(const FunctionAccesses &FA, const CraResult &Cra, PinMode Mode,
                                     bool FileResetsDevice, const CostModel &Costs,
                                     bool WholeProgram) {
  assert(Cra.Ops.size() == FA.ops().size() && "the analysis is for this function's ops");
  std::vector<PinDecision> Decisions;
  ASTContext &Ctx = FA.function().getASTContext();
  const ObjectTable &Objects = FA.objects();
  // Host allocations the GPU copies of this function use, with the bytes
  // the copies move in each direction (-1: the whole buffer, size unknown
  // here) and the loops each copy sits in.
  struct Use {
    double Bytes;
    bool Reads;
    bool Async;
    std::vector<const Stmt *> Loops;
    bool ByCallee; ///< the work a callee returns with (its copies are in it)
    const Stmt *At;
  };
  // The bytes a linear copy moves, when they are a constant (else -1).
  auto BytesOf = [&](const Expr *E, const ApiFunction *Api) {
    if (Api && Api->has(ApiCap::LinearCopy))
      if (const auto *Call = dyn_cast<CallExpr>(E); Call && Call->getNumArgs() > 2) {
        Expr::EvalResult R;
        if (Call->getArg(2)->EvaluateAsInt(R, Ctx))
          return (double)R.Val.getInt().getZExtValue();
      }
    return -1.0;
  };
  llvm::DenseMap<ObjectId, std::vector<Use>> Copied;
  for (const GpuOp &Op : FA.ops()) {
    // The work a callee returns with copies what it touches on the host.
    if (Op.Kind != GpuOpKind::Copy && Op.Kind != GpuOpKind::CallWork)
      continue;
    double Bytes = BytesOf(Op.Call, Op.Api);
    for (auto [Obj, Access] : Op.Effects.entries())
      if (Obj != UnknownObject && isHostBuffer(Objects.get(Obj).Kind))
        Copied[Obj].push_back({Bytes, !(Access & WriteAccess), Cra.Ops[Op.Id].Async,
                               Cra.Ops[Op.Id].Loops, Op.Kind == GpuOpKind::CallWork, Op.Call});
  }
  constexpr double AssumedTrips = 4; // a loop around a copy but not its allocation

  PinningPolicy Policy(nullptr, WholeProgram);
  VariableUses Uses;
  // A std::vector's elements, traced from the vector's construction, with
  // the copies of them in this function (\p Copies) and in helpers.
  struct TracedVector {
    VectorRegistration Where;
    std::vector<const CallExpr *> HelperCopies;
  };
  auto TraceVector = [&](const MemoryObject &M, llvm::ArrayRef<const Stmt *> Copies) {
    TracedVector Out;
    const auto *Site = dyn_cast<CXXConstructExpr>(M.Site);
    if (!Site) {
      Out.Where.Why = "its vector is not constructed where it is declared";
      return Out;
    }
    VectorElementsPolicy Elements(vectorConstructedBy(Site, Ctx), WholeProgram);
    PointerGroupTracer Tracer(Ctx, FA.function(), Elements, Uses);
    Out.Where = traceVectorStorage(Site, Tracer, Uses, Copies);
    if (Out.Where.Why.empty() && !Tracer.Releases.empty())
      Out.Where.Why = "a pointer into its elements is released" + Tracer.at(Tracer.Releases[0]);
    Out.HelperCopies = std::move(Tracer.HelperCopies);
    return Out;
  };
  // Buffers this function only passes to helpers that copy them.
  if (Mode != PinMode::Off && !FileResetsDevice) {
    PinningPolicy Survey(nullptr, WholeProgram);
    for (ObjectId Obj = 0; Obj < Objects.size(); ++Obj)
      if (const MemoryObject &M = Objects.get(Obj);
          isHostBuffer(M.Kind) && M.Site && !Copied.count(Obj)) {
        std::vector<const CallExpr *> HelperCopies;
        if (M.Kind == ObjectKind::ContainerStorage) {
          HelperCopies = TraceVector(M, {}).HelperCopies;
        } else {
          PointerGroupTracer Tracer(Ctx, FA.function(), Survey, Uses);
          Tracer.trace(M.Site);
          HelperCopies = std::move(Tracer.HelperCopies);
        }
        if (!HelperCopies.empty())
          Copied[Obj]; // no copy here: the helpers' are counted below
      }
  }
  llvm::SmallPtrSet<const Expr *, 8> Done;
  // The sites of class-owned groups already decided, with the decision: the
  // objects of one class share it.
  llvm::DenseMap<const Expr *, std::pair<PinAction, std::string>> OwnedDecided;
  for (ObjectId Obj = 0; Obj < Objects.size(); ++Obj) {
    auto It = Copied.find(Obj);
    if (It == Copied.end())
      continue;
    const MemoryObject &M = Objects.get(Obj);
    PinDecision D{Obj, M.Name, M.Line};
    D.Site = M.Site;
    // A buffer a constructor allocates into a member of its object.
    const auto *OwnerCtor =
        !M.Site && M.CalleeSite ? dyn_cast_or_null<CXXConstructorDecl>(M.AllocatedBy) : nullptr;
    if (OwnerCtor)
      D.Site = M.CalleeSite;
    if (auto Owned = OwnerCtor ? OwnedDecided.find(D.Site) : OwnedDecided.end();
        Owned != OwnedDecided.end()) {
      std::tie(D.Action, D.Why) = Owned->second;
      D.Site = nullptr; // rewritten with the first object of its class
      Decisions.push_back(std::move(D));
      continue;
    }
    if (D.Site && Done.count(D.Site))
      continue; // pinned together with an earlier buffer
    if (Mode == PinMode::Off)
      D.Why = "pinning is off (--pin=off)";
    else if (FileResetsDevice)
      D.Why = "the file calls " + apiOfKind(ApiKind::DeviceReset).Name.str() +
              ", which would release page-locked memory";
    else if (!D.Site)
      D.Why = "its allocation is not an expression the rewrite can replace";
    if (!D.Why.empty()) {
      Decisions.push_back(std::move(D));
      continue;
    }
    std::vector<const Expr *> Sites, Releases;
    std::vector<const CallExpr *> HelperCopies;
    bool IsVector = M.Kind == ObjectKind::ContainerStorage;
    if (IsVector) {
      std::vector<const Stmt *> Copies;
      for (const Use &U : It->second)
        Copies.push_back(U.At);
      TracedVector Traced = TraceVector(M, Copies);
      D.Why = std::move(Traced.Where.Why);
      D.Vector = Traced.Where.Vector;
      D.RegisterAfter = Traced.Where.After;
      HelperCopies = std::move(Traced.HelperCopies);
    } else if (OwnerCtor) {
      OwnedBuffer Group = traceOwnedBuffer(*OwnerCtor, D.Site, WholeProgram);
      D.Why = std::move(Group.Why);
      Sites = std::move(Group.Sites);
      Releases = std::move(Group.Releases);
    } else {
      PointerGroupTracer Tracer(Ctx, FA.function(), Policy, Uses);
      if (!Tracer.trace(D.Site))
        D.Why = Tracer.Why;
      Sites = std::move(Tracer.Sites);
      Releases = std::move(Tracer.Releases);
      HelperCopies = std::move(Tracer.HelperCopies);
    }
    if (!D.Why.empty()) {
      if (OwnerCtor)
        for (const Expr *S : Sites)
          OwnedDecided[S] = {D.Action, D.Why};
      Decisions.push_back(std::move(D));
      continue;
    }
    // The cost model: bytes unknown at compile time count as large buffers.
    BufferTraffic T;
    T.Bytes = constantBytes(D.Site->IgnoreParenCasts(), Ctx).value_or(1e9);
    // A helper's buffer is sized inside the helper: it is taken to be as
    // large as the largest copy of it, when that is known.
    if (const auto *Call = dyn_cast<CallExpr>(D.Site->IgnoreParenCasts());
        Call && !isPinnableAllocCall(Call) && !It->second.empty())
      if (double Largest =
              llvm::max_element(It->second,
                                [](const Use &A, const Use &B) { return A.Bytes < B.Bytes; })
                  ->Bytes;
          Largest > 0)
        T.Bytes = Largest;
    // The loops around the allocation: copies repeated with it are not
    // repeated per allocation.
    std::vector<const Stmt *> SiteLoops = loopsAround(OwnerCtor ? M.Call : D.Site, Ctx);
    for (const Use &U : It->second) {
      double Trips =
          llvm::any_of(U.Loops, [&](const Stmt *L) { return !llvm::is_contained(SiteLoops, L); })
              ? AssumedTrips
              : 1;
      (U.Reads ? T.H2DBytes : T.D2HBytes) += Trips * (U.Bytes >= 0 ? U.Bytes : T.Bytes);
      ++T.Copies;
    }
    // The helpers it is passed to copy it too (unless a callee's work, which
    // holds its copies, is already counted), at full speed once it is pinned.
    unsigned InHelpers = 0;
    std::vector<std::string> Helpers;
    if (llvm::none_of(It->second, [](const Use &U) { return U.ByCallee; }))
      for (const CallExpr *Call : HelperCopies) {
        const ApiFunction *Api = modelledCallee(Call);
        CopyDirection Direction = copyDirectionOf(*Api, *Call);
        if (Direction != CopyDirection::HostToDevice && Direction != CopyDirection::DeviceToHost)
          continue;
        double Bytes = BytesOf(Call, Api);
        double Trips = loopsAround(Call, Ctx).empty() ? 1 : AssumedTrips;
        (Direction == CopyDirection::HostToDevice ? T.H2DBytes : T.D2HBytes) +=
            Trips * (Bytes >= 0 ? Bytes : T.Bytes);
        ++T.Copies;
        ++InHelpers;
        if (const FunctionDecl *In = enclosingFunction(Call, Ctx))
          if (std::string Name = "`" + In->getNameAsString() + "`";
              !llvm::is_contained(Helpers, Name))
            Helpers.push_back(Name);
      }
    unsigned Copies = T.Copies;
    auto RegisteredResult = [&](const Expr *S) { return Policy.RegisteredResults.count(S) != 0; };
    bool ResultRegistered = llvm::any_of(Sites, RegisteredResult);
    bool RegisterOnly = IsVector || ResultRegistered || llvm::any_of(Sites, onlyRegistrable);
    double RegisterSaving = Costs.pinSaving(T, true);
    double AllocSaving = RegisterOnly ? RegisterSaving : Costs.pinSaving(T, false);
    bool Register = Mode == PinMode::Register || RegisterOnly ||
                    (Mode == PinMode::Auto && RegisterSaving > AllocSaving);
    // An asynchronous copy from or to pageable memory blocks the host until
    // the work queued before it has finished, so pinning is what lets the
    // host run ahead at all; its worth (the GPU time queued before the copy)
    // is not known here, but measured on the bench suite it is the main gain.
    bool AnyAsync = llvm::any_of(It->second, [](const Use &U) { return U.Async; });
    if (Mode == PinMode::Auto && !AnyAsync && std::max(AllocSaving, RegisterSaving) <= 0) {
      D.Why = "pinning it costs more than its " + std::to_string(Copies) + " cop" +
              (Copies == 1 ? "y" : "ies") + " would save (measured cost model)";
    } else {
      D.Action = Register ? PinAction::Register : PinAction::AllocPinned;
      D.Why = AnyAsync ? std::string("asynchronous copies of pageable memory block the host")
                       : "so that its " + std::to_string(Copies) + " cop" +
                             (Copies == 1 ? "y" : "ies") + " run at full speed";
      if (IsVector)
        D.Why += "; its elements are registered from line " +
                 std::to_string(
                     Ctx.getSourceManager().getExpansionLineNumber(D.RegisterAfter->getEndLoc())) +
                 ", where `" + D.Name + "` has its final size, to the end of its scope";
      else if (ResultRegistered)
        D.Why += "; registered where " + returnersOf(Sites, Policy.RegisteredResults) +
                 " returns it (the helper is left as written)";
      else if (RegisterOnly && Mode == PinMode::Alloc)
        D.Why += "; registered rather than allocated page-locked: " +
                 apiName(ApiId::cudaMallocHost).str() +
                 " does not promise the alignment its allocation asks for";
      if (InHelpers > 0)
        D.Why += " (" + (InHelpers == Copies ? "all" : std::to_string(InHelpers) + " of them") +
                 " in " + llvm::join(Helpers, ", ") + ", which it is passed to)";
      if (OwnerCtor)
        D.Why += "; the change is made in `" + OwnerCtor->getParent()->getNameAsString() +
                 "`'s constructor, for every object of the class";
      for (const Expr *S : Sites)
        Done.insert(S);
      D.Releases = Releases;
      D.RegisteredBytes = Policy.RegisteredResults.lookup(D.Site->IgnoreParenCasts());
      // The other allocations of the group go with it.
      for (const Expr *S : Sites)
        if (S != D.Site->IgnoreParenCasts()) {
          PinDecision Extra = D;
          Extra.Site = S;
          Extra.RegisteredBytes = Policy.RegisteredResults.lookup(S);
          Extra.Releases.clear();
          Extra.SiteOnly = true;
          for (ObjectId Other = 0; Other < Objects.size() && !OwnerCtor; ++Other)
            if (const MemoryObject &M = Objects.get(Other);
                M.Site && M.Site->IgnoreParenCasts() == S) {
              Extra.Object = Other;
              Extra.Name = M.Name;
              Extra.Line = M.Line;
              Extra.SiteOnly = false;
              break;
            }
          Decisions.push_back(std::move(Extra));
        }
    }
    if (OwnerCtor)
      for (const Expr *S : Sites)
        OwnedDecided[S] = {D.Action, D.Why};
    Decisions.push_back(std::move(D));
  }
  return Decisions;
}

} // namespace streamalloc
