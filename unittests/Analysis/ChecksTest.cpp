//===- ChecksTest.cpp - which functions runChecks hands to each checker -------===//
#include "ParseHelper.h"
#include "tilecc/Analysis/Checks.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "gtest/gtest.h"
#include <string>

using namespace tilecc;
using namespace tilecc::testing;

namespace {

/// The host functions of `code`, as "name" or "lambda" (call operators), in order.
std::vector<std::string> hostFunctions(const std::string &code) {
  auto ast = parseTileCode(code);
  EXPECT_TRUE(ast && !ast->getDiagnostics().hasErrorOccurred());
  std::vector<std::string> names;
  if (!ast)
    return names;
  for (const clang::FunctionDecl *fn : hostFunctionsToCheck(ast->getASTContext())) {
    const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(fn);
    std::string name = method && method->getParent()->isLambda()
                           ? "lambda"
                           : fn->getQualifiedNameAsString();
    if (const clang::TemplateArgumentList *args = fn->getTemplateSpecializationArgs())
      if (args->get(0).getKind() == clang::TemplateArgument::Integral)
        name += "<" + std::to_string(args->get(0).getAsIntegral().getExtValue()) + ">";
    names.push_back(name);
  }
  return names;
}

// Templates come with their instantiations: the host borrow checker analyzes the instantiations
// through the pattern (one report per location).
TEST(Checks, HostFunctionsAreTheMainFilesNonKernelBodies) {
  EXPECT_EQ(hostFunctions(R"(
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
      auto twice = [](float x) { return 2.0f * x; };
      z.store(z.load() * twice(1.0f));
    }
    void declared_only();
    int helper(int x) { return x + 1; }
    template <int N> int scaled(int x) { return N * x; }
    struct Runner {
      Runner() = default;
      int run() const { return scaled<3>(helper(1)); }
    };
    int main() {
      auto square = [](int x) { return x * x; };
      auto generic = [](auto x) { return x; };
      return square(Runner().run()) + generic(1) + int(generic(2.0));
    })"),
            (std::vector<std::string>{"lambda", "helper", "scaled", "scaled<3>", "Runner::run",
                                      "main", "lambda", "lambda", "lambda", "lambda"}));
}

TEST(Checks, TemplateInstantiationsOfClassMembers) {
  EXPECT_EQ(hostFunctions(R"(
    template <int N> struct Box { int get() const { return N; } int unused() const { return 0; } };
    int use() { return Box<4>().get(); })"),
            (std::vector<std::string>{"Box::get", "Box::unused", "Box<4>::get", "use"}));
}

} // namespace
