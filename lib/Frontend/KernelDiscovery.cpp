//===- KernelDiscovery.cpp - which kernels a translation unit compiles --------===//
#include "tilecc/Frontend/KernelDiscovery.h"

#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace tilecc;

namespace {

class DiscoveryVisitor : public RecursiveASTVisitor<DiscoveryVisitor> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *fn) {
    if (!fn->isThisDeclarationADefinition() || fn->isDependentContext() || !isTileKernel(fn))
      return true;
    TemplateSpecializationKind tsk = fn->getTemplateSpecializationKind();
    if (tsk == TSK_Undeclared || tsk == TSK_ExplicitInstantiationDefinition ||
        tsk == TSK_ExplicitSpecialization)
      kernels.insert(fn);
    return true;
  }

  // `tile::launch<K>(...)`: K is the kernel instantiation to compile; each candidate of
  // `tile::autotune<K1, K2, ...>(...)` too.
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    for (const FunctionDecl *kernel : launchedFunctions(dyn_cast<FunctionDecl>(ref->getDecl())))
      if (const FunctionDecl *def = kernel->getDefinition(); def && isTileKernel(def))
        kernels.insert(def);
    return true;
  }

  // The instantiations of a generic lambda's call operator hang off its template, which the
  // traversal of the lambda expression does not reach: visit them for the launches they make.
  bool VisitLambdaExpr(LambdaExpr *lambda) {
    if (FunctionTemplateDecl *callOperator = lambda->getDependentCallOperator())
      for (FunctionDecl *instance : callOperator->specializations())
        TraverseDecl(instance);
    return true;
  }

  llvm::SetVector<const FunctionDecl *> kernels;
};

std::string symbolFor(llvm::StringRef name) {
  std::string symbol;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      symbol += c;
    else if (!symbol.empty() && symbol.back() != '_')
      symbol += '_';
  }
  while (!symbol.empty() && symbol.back() == '_')
    symbol.pop_back();
  return symbol.empty() ? "kernel" : symbol;
}

} // namespace

std::vector<KernelInstance> tilecc::discoverKernels(ASTContext &context) {
  DiscoveryVisitor visitor;
  visitor.TraverseDecl(context.getTranslationUnitDecl());

  PrintingPolicy policy = context.getPrintingPolicy();
  policy.SuppressUnwrittenScope = true;
  policy.FullyQualifiedName = true;
  std::vector<KernelInstance> result;
  llvm::StringSet<> symbols;
  for (const FunctionDecl *fn : visitor.kernels) {
    KernelInstance kernel{fn, "", "", ""};
    llvm::raw_string_ostream name(kernel.displayName);
    fn->getNameForDiagnostic(name, policy, /*Qualified=*/true);
    name.flush();
    kernel.entryExpr = "&::" + kernel.displayName;
    std::string symbol = symbolFor(kernel.displayName);
    kernel.symbol = symbol;
    for (int n = 1; !symbols.insert(kernel.symbol).second; ++n)
      kernel.symbol = symbol + "_" + std::to_string(n);
    result.push_back(std::move(kernel));
  }
  return result;
}
