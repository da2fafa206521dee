//===- SummaryExchange.cpp - Exporting and importing summaries -------------===//
#include "streamalloc/Access/SummaryExchange.h"

#include "AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/Support/ErrorHandling.h"

#include <map>

using namespace clang;

namespace streamalloc {

namespace {
/// Stands for a name that has no USR: it never resolves.
constexpr llvm::StringLiteral Unnamed = "?";

/// A flag of a summary: its JSON key and where both forms keep it. Export,
/// import and both JSON directions read this one list, so a new flag cannot
/// be carried one way and forgotten the other.
struct SummaryFlag {
  const char *Key;
  bool PortableSummary::*Portable;
  bool FunctionSummary::*Summary;
};

constexpr SummaryFlag Flags[] = {
    {"storesUnknown", &PortableSummary::StoresUnknown, &FunctionSummary::StoresUnknown},
    {"writesOutput", &PortableSummary::WritesOutput, &FunctionSummary::WritesOutput},
    {"performsGpuOps", &PortableSummary::PerformsGpuOps, &FunctionSummary::PerformsGpuOps},
    {"resetsDevice", &PortableSummary::ResetsDevice, &FunctionSummary::ResetsDevice},
    {"maySync", &PortableSummary::MaySync, &FunctionSummary::MaySync},
    {"readsTimer", &PortableSummary::ReadsTimer, &FunctionSummary::ReadsTimer},
    {"syncsDeviceBeforeTimer", &PortableSummary::SyncsDeviceBeforeTimer,
     &FunctionSummary::SyncsDeviceBeforeTimer},
    {"calleesPerformGpuOps", &PortableSummary::CalleesPerformGpuOps,
     &FunctionSummary::CalleesPerformGpuOps},
    {"leavesOwnStreamWork", &PortableSummary::LeavesOwnStreamWork,
     &FunctionSummary::LeavesOwnStreamWork},
    {"recursive", &PortableSummary::Recursive, &FunctionSummary::Recursive},
};
} // namespace

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Buf;
  if (!D || index::generateUSRForDecl(D, Buf))
    return "";
  return std::string(Buf);
}

bool isExportable(const FunctionDecl &F) {
  const SourceManager &SM = F.getASTContext().getSourceManager();
  return F.doesThisDeclarationHaveABody() && F.isExternallyVisible() && !F.isInlined() &&
         !F.isTemplateInstantiation() && !F.isDependentContext() && !F.isImplicit() &&
         !isa<CXXMethodDecl>(F) && !isDeviceFunction(F) &&
         !SM.isInSystemHeader(SM.getExpansionLoc(F.getLocation()));
}

//===----------------------------------------------------------------------===//
// Export
//===----------------------------------------------------------------------===//

namespace {

std::string keyName(FieldKey K) {
  if (!K)
    return "";
  std::string Usr = usrOf(K);
  return Usr.empty() ? Unnamed.str() : Usr;
}

PortableRef portable(const SummaryRef &R) {
  PortableRef P;
  P.Kind = R.Kind;
  switch (R.Kind) {
  case SummaryRef::Path:
    P.Param = R.P.Param;
    P.ByValue = R.P.ByValue;
    for (FieldKey K : R.P.Loads)
      P.Loads.push_back(keyName(K));
    break;
  case SummaryRef::Global:
    P.Global = usrOf(R.Var);
    if (P.Global.empty())
      P.Global = Unnamed.str();
    break;
  case SummaryRef::Fresh:
    P.FreshIndex = R.FreshIndex;
    break;
  case SummaryRef::Unknown:
    break;
  }
  return P;
}

} // namespace

PortableSummary exportSummary(const FunctionDecl &F, const FunctionSummary &S) {
  PortableSummary P;
  P.Usr = usrOf(&F);
  P.Name = F.getQualifiedNameAsString();
  P.Signature = F.getType().getCanonicalType().getAsString();
  const SourceManager &SM = F.getASTContext().getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(F.getLocation());
  P.Source = SM.getFilename(Loc).str();
  P.Line = SM.getExpansionLineNumber(Loc);
  for (const SummaryAccess &A : S.Accesses)
    P.Accesses.push_back({portable(A.Object), A.Host, A.Device});
  P.UnknownHost = S.UnknownHost;
  P.UnknownDevice = S.UnknownDevice;
  P.UnknownWhy = S.UnknownWhy;
  P.FreshObjects = S.FreshObjects;
  for (const SummaryStore &St : S.Stores)
    P.Stores.push_back({portable(St.Target), keyName(St.Field), portable(St.Value)});
  for (const SummaryRef &R : S.Escapes)
    P.Escapes.push_back(portable(R));
  for (const SummaryRef &R : S.Returns)
    P.Returns.push_back(portable(R));
  for (const auto &[K, R] : S.ReturnFields)
    P.ReturnFields.push_back({keyName(K), portable(R)});
  for (const SummaryFlag &F : Flags)
    P.*F.Portable = S.*F.Summary;
  return P;
}

//===----------------------------------------------------------------------===//
// Import
//===----------------------------------------------------------------------===//

DeclIndex::DeclIndex(ASTContext &Ctx) {
  struct Indexer : RecursiveASTVisitor<Indexer> {
    llvm::StringMap<const Decl *> &Decls;
    explicit Indexer(llvm::StringMap<const Decl *> &Decls) : Decls(Decls) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    void add(const Decl *D, bool Replace) {
      std::string Usr = usrOf(D);
      if (Usr.empty())
        return;
      if (Replace)
        Decls[Usr] = D;
      else
        Decls.try_emplace(Usr, D);
    }
    bool VisitFunctionDecl(FunctionDecl *F) {
      add(F->getCanonicalDecl(), false);
      return true;
    }
    bool VisitVarDecl(VarDecl *V) {
      // The declaration the analysis meets in expressions: the definition
      // when there is one.
      if (V->hasGlobalStorage() && !isa<ParmVarDecl>(V))
        add(V, V->isThisDeclarationADefinition() != VarDecl::DeclarationOnly);
      return true;
    }
    bool VisitFieldDecl(FieldDecl *F) {
      add(F, false);
      return true;
    }
    bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
      add(RD->getCanonicalDecl(), false);
      return true;
    }
  } I(Decls);
  I.TraverseDecl(Ctx.getTranslationUnitDecl());
}

namespace {

class Importer {
public:
  Importer(const PortableSummary &P, const DeclIndex &Index) : P(P), Index(Index) {}

  FunctionSummary run() {
    FunctionSummary S;
    S.UnknownHost = P.UnknownHost;
    S.UnknownDevice = P.UnknownDevice;
    S.UnknownWhy = P.UnknownWhy;
    S.FreshObjects = P.FreshObjects;
    std::map<SummaryRef, SummaryAccess> Accesses;
    for (const PortableSummary::Access &A : P.Accesses) {
      std::optional<SummaryRef> R = ref(A.Object);
      if (!R) {
        S.UnknownHost |= A.Host;
        S.UnknownDevice |= A.Device;
        noteUnresolved(S);
        continue;
      }
      SummaryAccess &Slot = Accesses[*R];
      Slot.Object = *R;
      Slot.Host |= A.Host;
      Slot.Device |= A.Device;
    }
    for (auto &[R, A] : Accesses)
      S.Accesses.push_back(A);
    for (const PortableSummary::Store &St : P.Stores) {
      std::optional<SummaryRef> Target = ref(St.Target), Value = ref(St.Value);
      std::optional<FieldKey> Field = key(St.Field);
      if (!Target || !Value || !Field) {
        S.StoresUnknown = true;
        noteUnresolved(S);
        continue;
      }
      S.Stores.push_back({*Target, *Field, *Value});
    }
    for (const PortableRef &E : P.Escapes) {
      if (std::optional<SummaryRef> R = ref(E)) {
        S.Escapes.push_back(*R);
        continue;
      }
      // What escapes cannot be named here: anything may be reached later.
      S.StoresUnknown = true;
      S.UnknownHost |= ReadWriteAccess;
      noteUnresolved(S);
    }
    for (const PortableRef &R : P.Returns)
      S.Returns.push_back(ref(R).value_or(SummaryRef::unknown()));
    for (const auto &[K, R] : P.ReturnFields) {
      std::optional<FieldKey> Key = key(K);
      std::optional<SummaryRef> Value = ref(R);
      if (Key && Value)
        S.ReturnFields.push_back({*Key, *Value});
      else
        S.ReturnFields.push_back({nullptr, SummaryRef::unknown()});
    }
    auto SortUnique = [](auto &V) {
      llvm::sort(V);
      V.erase(std::unique(V.begin(), V.end()), V.end());
    };
    SortUnique(S.Stores);
    SortUnique(S.Returns);
    SortUnique(S.Escapes);
    // Only StoresUnknown may be set already (by stores it cannot resolve).
    for (const SummaryFlag &F : Flags)
      S.*F.Summary |= P.*F.Portable;
    return S;
  }

private:
  const PortableSummary &P;
  const DeclIndex &Index;

  void noteUnresolved(FunctionSummary &S) const {
    if (S.UnknownWhy.empty())
      S.UnknownWhy = "memory that `" + P.Name + "` (summarised from " + P.Source +
                     ") names and this file cannot";
  }

  std::optional<FieldKey> key(const std::string &Name) const {
    if (Name.empty())
      return FieldKey(nullptr);
    const Decl *D = Index.find(Name);
    if (!D || !isa<FieldDecl, CXXRecordDecl>(D))
      return std::nullopt;
    return FieldKey(D);
  }

  std::optional<SummaryRef> ref(const PortableRef &R) const {
    switch (R.Kind) {
    case SummaryRef::Unknown:
      return SummaryRef::unknown();
    case SummaryRef::Fresh:
      if (R.FreshIndex >= P.FreshObjects.size())
        return std::nullopt;
      return SummaryRef::fresh(R.FreshIndex);
    case SummaryRef::Global:
      if (const auto *V = dyn_cast_or_null<VarDecl>(Index.find(R.Global)))
        return SummaryRef::global(V);
      return std::nullopt;
    case SummaryRef::Path: {
      SymbolicPath Path;
      Path.Param = R.Param;
      Path.ByValue = R.ByValue;
      for (const std::string &K : R.Loads) {
        std::optional<FieldKey> Key = key(K);
        if (!Key)
          return std::nullopt;
        Path.Loads.push_back(*Key);
      }
      return SummaryRef::path(std::move(Path));
    }
    }
    llvm_unreachable("not a summary reference kind");
  }
};

} // namespace

FunctionSummary importSummary(const PortableSummary &P, const DeclIndex &Index) {
  return Importer(P, Index).run();
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace {

llvm::json::Value refJSON(const PortableRef &R) {
  switch (R.Kind) {
  case SummaryRef::Path: {
    llvm::json::Array Loads;
    for (const std::string &K : R.Loads)
      Loads.push_back(K);
    return llvm::json::Object{
        {"param", (int64_t)R.Param}, {"byValue", R.ByValue}, {"loads", std::move(Loads)}};
  }
  case SummaryRef::Global:
    return llvm::json::Object{{"global", R.Global}};
  case SummaryRef::Fresh:
    return llvm::json::Object{{"fresh", (int64_t)R.FreshIndex}};
  case SummaryRef::Unknown:
    break;
  }
  return llvm::json::Object{{"unknown", true}};
}

bool refFromJSON(const llvm::json::Value &V, PortableRef &R) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O)
    return false;
  if (std::optional<int64_t> Param = O->getInteger("param")) {
    R.Kind = SummaryRef::Path;
    R.Param = (unsigned)*Param;
    R.ByValue = O->getBoolean("byValue").value_or(false);
    const llvm::json::Array *Loads = O->getArray("loads");
    if (!Loads)
      return false;
    for (const llvm::json::Value &K : *Loads) {
      std::optional<llvm::StringRef> S = K.getAsString();
      if (!S)
        return false;
      R.Loads.push_back(S->str());
    }
    return true;
  }
  if (std::optional<llvm::StringRef> G = O->getString("global")) {
    R.Kind = SummaryRef::Global;
    R.Global = G->str();
    return true;
  }
  if (std::optional<int64_t> F = O->getInteger("fresh")) {
    R.Kind = SummaryRef::Fresh;
    R.FreshIndex = (unsigned)*F;
    return true;
  }
  R.Kind = SummaryRef::Unknown;
  return O->getBoolean("unknown").value_or(false);
}

} // namespace

llvm::json::Value toJSON(const PortableSummary &P) {
  llvm::json::Array Accesses, Fresh, Stores, Escapes, Returns, ReturnFields, Plain;
  for (const PortableSummary::Access &A : P.Accesses)
    Accesses.push_back(llvm::json::Object{
        {"object", refJSON(A.Object)}, {"host", (int64_t)A.Host}, {"device", (int64_t)A.Device}});
  for (const FreshObject &F : P.FreshObjects)
    Fresh.push_back(llvm::json::Object{{"kind", (int64_t)F.Kind}, {"name", F.Name}});
  for (const PortableSummary::Store &St : P.Stores)
    Stores.push_back(llvm::json::Object{
        {"target", refJSON(St.Target)}, {"field", St.Field}, {"value", refJSON(St.Value)}});
  for (const PortableRef &R : P.Escapes)
    Escapes.push_back(refJSON(R));
  for (const PortableRef &R : P.Returns)
    Returns.push_back(refJSON(R));
  for (const auto &[K, R] : P.ReturnFields)
    ReturnFields.push_back(llvm::json::Object{{"field", K}, {"value", refJSON(R)}});
  for (unsigned I : P.PlainParams)
    Plain.push_back((int64_t)I);
  // Text pieces as strings, argument holes as their index.
  llvm::json::Array Bytes;
  for (const ArgumentFormula::Piece &Piece : P.ReturnedBytes.Pieces)
    Bytes.push_back(Piece.Arg < 0 ? llvm::json::Value(Piece.Text)
                                  : llvm::json::Value((int64_t)Piece.Arg));
  llvm::json::Object O{
      {"usr", P.Usr},
      {"name", P.Name},
      {"signature", P.Signature},
      {"source", P.Source},
      {"line", (int64_t)P.Line},
      {"plainParams", std::move(Plain)},
      {"returnedBytes", std::move(Bytes)},
      {"returnedBytesWhy", P.ReturnedBytesWhy},
      {"accesses", std::move(Accesses)},
      {"unknownHost", (int64_t)P.UnknownHost},
      {"unknownDevice", (int64_t)P.UnknownDevice},
      {"unknownWhy", P.UnknownWhy},
      {"fresh", std::move(Fresh)},
      {"stores", std::move(Stores)},
      {"escapes", std::move(Escapes)},
      {"returns", std::move(Returns)},
      {"returnFields", std::move(ReturnFields)},
  };
  for (const SummaryFlag &F : Flags)
    O[F.Key] = P.*F.Portable;
  return O;
}

bool fromJSON(const llvm::json::Value &V, PortableSummary &P, llvm::json::Path Path) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O) {
    Path.report("expected a summary object");
    return false;
  }
  auto Str = [&](llvm::StringRef Key, std::string &Out) {
    std::optional<llvm::StringRef> S = O->getString(Key);
    if (S)
      Out = S->str();
    return S.has_value();
  };
  auto Int = [&](llvm::StringRef Key, auto &Out) {
    std::optional<int64_t> I = O->getInteger(Key);
    if (I)
      Out = static_cast<std::remove_reference_t<decltype(Out)>>(*I);
    return I.has_value();
  };
  auto Bool = [&](llvm::StringRef Key, bool &Out) {
    std::optional<bool> B = O->getBoolean(Key);
    if (B)
      Out = *B;
    return B.has_value();
  };
  auto Refs = [&](llvm::StringRef Key, std::vector<PortableRef> &Out) {
    const llvm::json::Array *A = O->getArray(Key);
    if (!A)
      return false;
    for (const llvm::json::Value &E : *A) {
      PortableRef R;
      if (!refFromJSON(E, R))
        return false;
      Out.push_back(std::move(R));
    }
    return true;
  };
  bool Ok = Str("usr", P.Usr) && Str("name", P.Name) && Str("signature", P.Signature) &&
            Str("source", P.Source) && Int("line", P.Line) && Int("unknownHost", P.UnknownHost) &&
            Int("unknownDevice", P.UnknownDevice) && Str("unknownWhy", P.UnknownWhy) &&
            Str("returnedBytesWhy", P.ReturnedBytesWhy) && Refs("escapes", P.Escapes) &&
            Refs("returns", P.Returns) &&
            llvm::all_of(Flags, [&](const SummaryFlag &F) { return Bool(F.Key, P.*F.Portable); });
  const llvm::json::Array *Plain = O->getArray("plainParams");
  const llvm::json::Array *Bytes = O->getArray("returnedBytes");
  const llvm::json::Array *Accesses = O->getArray("accesses");
  const llvm::json::Array *Fresh = O->getArray("fresh");
  const llvm::json::Array *Stores = O->getArray("stores");
  const llvm::json::Array *ReturnFields = O->getArray("returnFields");
  Ok = Ok && Plain && Bytes && Accesses && Fresh && Stores && ReturnFields;
  for (unsigned I = 0; Ok && I < Bytes->size(); ++I) {
    std::optional<llvm::StringRef> Text = (*Bytes)[I].getAsString();
    std::optional<int64_t> Arg = (*Bytes)[I].getAsInteger();
    Ok = Text || (Arg && *Arg >= 0);
    if (Ok)
      P.ReturnedBytes.Pieces.push_back(Text ? ArgumentFormula::Piece{Text->str(), -1}
                                            : ArgumentFormula::Piece{"", (int)*Arg});
  }
  for (unsigned I = 0; Ok && I < Plain->size(); ++I) {
    std::optional<int64_t> N = (*Plain)[I].getAsInteger();
    Ok = N.has_value();
    if (Ok)
      P.PlainParams.push_back((unsigned)*N);
  }
  for (unsigned I = 0; Ok && I < Accesses->size(); ++I) {
    const llvm::json::Object *A = (*Accesses)[I].getAsObject();
    PortableSummary::Access Acc;
    Ok = A && A->get("object") && refFromJSON(*A->get("object"), Acc.Object) &&
         A->getInteger("host") && A->getInteger("device");
    if (!Ok)
      break;
    Acc.Host = (uint8_t)*A->getInteger("host");
    Acc.Device = (uint8_t)*A->getInteger("device");
    P.Accesses.push_back(std::move(Acc));
  }
  for (unsigned I = 0; Ok && I < Fresh->size(); ++I) {
    const llvm::json::Object *F = (*Fresh)[I].getAsObject();
    Ok = F && F->getInteger("kind") && F->getString("name") && *F->getInteger("kind") >= 0 &&
         *F->getInteger("kind") <= (int64_t)ObjectKind::ProgramOutput;
    if (Ok)
      P.FreshObjects.push_back({(ObjectKind)*F->getInteger("kind"), F->getString("name")->str()});
  }
  for (unsigned I = 0; Ok && I < Stores->size(); ++I) {
    const llvm::json::Object *St = (*Stores)[I].getAsObject();
    PortableSummary::Store Store;
    Ok = St && St->get("target") && St->get("value") && St->getString("field") &&
         refFromJSON(*St->get("target"), Store.Target) &&
         refFromJSON(*St->get("value"), Store.Value);
    if (!Ok)
      break;
    Store.Field = St->getString("field")->str();
    P.Stores.push_back(std::move(Store));
  }
  for (unsigned I = 0; Ok && I < ReturnFields->size(); ++I) {
    const llvm::json::Object *RF = (*ReturnFields)[I].getAsObject();
    PortableRef R;
    Ok = RF && RF->getString("field") && RF->get("value") && refFromJSON(*RF->get("value"), R);
    if (Ok)
      P.ReturnFields.push_back({RF->getString("field")->str(), std::move(R)});
  }
  if (!Ok)
    Path.report("malformed summary");
  return Ok;
}

} // namespace streamalloc
