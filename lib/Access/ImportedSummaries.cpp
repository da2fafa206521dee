//===- ImportedSummaries.cpp - Summaries of functions other units define ---===//
#include "streamalloc/Access/ImportedSummaries.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <mutex>

using namespace clang;

namespace streamalloc {

void SummaryImports::add(const std::string &Source, const std::vector<PortableSummary> &Exports) {
  for (const PortableSummary &P : Exports) {
    auto [It, New] = SourceOf.try_emplace(P.Usr, Source);
    if (New || It->second == Source) {
      std::string Other = New ? "" : Entries[P.Usr].OtherSource;
      Entries[P.Usr] = {P, Other};
      continue;
    }
    Entry &E = Entries[P.Usr];
    if (E.OtherSource.empty())
      E.OtherSource = P.Source;
  }
}

const SummaryImports::Entry *SummaryImports::find(llvm::StringRef Usr) const {
  auto It = Entries.find(Usr);
  return It == Entries.end() ? nullptr : &It->second;
}

struct ImportScope::State {
  const SummaryImports &Imports;
  ASTContext &Ctx;
  std::unique_ptr<DeclIndex> Index; ///< built on the first import
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<ImportedFunction>> Resolved;
  std::vector<std::pair<const FunctionDecl *, const ImportedFunction *>> Used;

  State(const SummaryImports &Imports, ASTContext &Ctx) : Imports(Imports), Ctx(Ctx) {}

  const ImportedFunction *lookup(const FunctionDecl *F) {
    const FunctionDecl *Key = F->getCanonicalDecl();
    if (auto It = Resolved.find(Key); It != Resolved.end())
      return It->second.get();
    std::unique_ptr<ImportedFunction> &Slot = Resolved[Key];
    const SummaryImports::Entry *E =
        F->isExternallyVisible() && !F->isInlined() ? Imports.find(usrOf(Key)) : nullptr;
    if (!E || E->Summary.Signature != F->getType().getCanonicalType().getAsString())
      return nullptr;
    if (!Index)
      Index = std::make_unique<DeclIndex>(Ctx);
    auto I = std::make_unique<ImportedFunction>();
    I->Source = E->Summary.Source;
    I->Line = E->Summary.Line;
    I->PlainParams = E->Summary.PlainParams;
    I->ReturnedBytes = E->Summary.ReturnedBytes;
    I->ReturnedBytesWhy = E->Summary.ReturnedBytesWhy;
    if (!E->OtherSource.empty())
      I->Conflict = "`" + F->getNameAsString() + "` is defined both in " + E->Summary.Source +
                    " and in " + E->OtherSource;
    else
      I->Summary = importSummary(E->Summary, *Index);
    Slot = std::move(I);
    Used.push_back({Key, Slot.get()});
    return Slot.get();
  }
};

namespace {
std::mutex ScopesLock;
llvm::DenseMap<const ASTContext *, ImportScope::State *> &scopes() {
  static llvm::DenseMap<const ASTContext *, ImportScope::State *> Scopes;
  return Scopes;
}
ImportScope::State *scopeOf(const ASTContext &Ctx) {
  std::lock_guard<std::mutex> Guard(ScopesLock);
  return scopes().lookup(&Ctx);
}
} // namespace

ImportScope::ImportScope(ASTContext &Ctx, const SummaryImports &Imports)
    : S(std::make_unique<State>(Imports, Ctx)), Ctx(Ctx) {
  std::lock_guard<std::mutex> Guard(ScopesLock);
  scopes()[&Ctx] = S.get();
}

ImportScope::~ImportScope() {
  std::lock_guard<std::mutex> Guard(ScopesLock);
  scopes().erase(&Ctx);
}

const ImportedFunction *ImportScope::lookup(const FunctionDecl *F) {
  if (!F || F->hasBody()) // never over a body the unit has
    return nullptr;
  State *S = scopeOf(F->getASTContext());
  return S ? S->lookup(F) : nullptr;
}

std::vector<std::pair<const FunctionDecl *, const ImportedFunction *>>
ImportScope::used(ASTContext &Ctx) {
  State *S = scopeOf(Ctx);
  return S ? S->Used : decltype(S->Used){};
}

} // namespace streamalloc
