//===- TileLibraryTest.cpp - recognising tile library entities ----------------===//
#include "ParseHelper.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

using namespace tilecc;
using namespace tilecc::testing;

namespace {

const char *kKernel = R"(
TILE_KERNEL void k(tile::Tensor<float, 32, tile::dyn>& out,
                   const tile::Tensor<double, tile::dyn>& in, float a, const float* p,
                   tile::Tensor<float, 8> byValue, int& ref) {}
void host(tile::Tile<int32_t, 4, 8> t) {}
)";

TEST(TileLibrary, RecognisesKernelsByAnnotation) {
  auto ast = parseTileCode(kKernel);
  ASSERT_TRUE(ast);
  EXPECT_TRUE(isTileKernel(findFunction(ast->getASTContext(), "k")));
  EXPECT_FALSE(isTileKernel(findFunction(ast->getASTContext(), "host")));
}

TEST(TileLibrary, ReadsTensorAndTileShapes) {
  auto ast = parseTileCode(kKernel);
  ASSERT_TRUE(ast);
  const clang::FunctionDecl *k = findFunction(ast->getASTContext(), "k");
  std::optional<TileClass> out = getTileClass(k->getParamDecl(0)->getType());
  ASSERT_TRUE(out);
  EXPECT_EQ(out->kind, TileClassKind::Tensor);
  EXPECT_TRUE(out->element->isSpecificBuiltinType(clang::BuiltinType::Float));
  ASSERT_EQ(out->dims.size(), 2u);
  EXPECT_EQ(out->dims[0], 32);
  EXPECT_EQ(out->dims[1], -1);

  const clang::FunctionDecl *host = findFunction(ast->getASTContext(), "host");
  std::optional<TileClass> t = getTileClass(host->getParamDecl(0)->getType());
  ASSERT_TRUE(t);
  EXPECT_EQ(t->kind, TileClassKind::Tile);
  EXPECT_EQ(t->dims, (llvm::SmallVector<int64_t, 4>{4, 8}));
  EXPECT_FALSE(getTileClass(k->getParamDecl(2)->getType()));
}

TEST(TileLibrary, ClassifiesKernelParameters) {
  auto ast = parseTileCode(kKernel);
  ASSERT_TRUE(ast);
  const clang::FunctionDecl *k = findFunction(ast->getASTContext(), "k");
  EXPECT_EQ(classifyKernelParam(k->getParamDecl(0)), ParamKind::ExclusiveView);
  EXPECT_EQ(classifyKernelParam(k->getParamDecl(1)), ParamKind::SharedView);
  EXPECT_EQ(classifyKernelParam(k->getParamDecl(2)), ParamKind::Scalar);
  EXPECT_EQ(classifyKernelParam(k->getParamDecl(3)), ParamKind::Invalid);
  EXPECT_EQ(classifyKernelParam(k->getParamDecl(4)), ParamKind::Invalid);
  EXPECT_EQ(classifyKernelParam(k->getParamDecl(5)), ParamKind::Invalid);
}

TEST(TileLibrary, ClassifiesAtomicParameters) {
  auto ast = parseTileCode(R"(
TILE_KERNEL void k(tile::Atomic<int32_t, tile::dyn>& a, const tile::Atomic<float, 8>& c,
                   tile::Atomic<float, 8>* p) {}
)");
  ASSERT_TRUE(ast);
  const clang::FunctionDecl *k = findFunction(ast->getASTContext(), "k");
  EXPECT_EQ(classifyKernelParam(k->getParamDecl(0)), ParamKind::AtomicView);
  EXPECT_EQ(classifyKernelParam(k->getParamDecl(1)), ParamKind::Invalid) << "atomic updates need a non-const Atomic";
  EXPECT_EQ(classifyKernelParam(k->getParamDecl(2)), ParamKind::Invalid);
  for (unsigned i = 0; i < 3; ++i)
    EXPECT_TRUE(isAtomicType(k->getParamDecl(i)->getType())) << i;
  std::optional<TileClass> cls = getTileClass(k->getParamDecl(0)->getType());
  ASSERT_TRUE(cls);
  EXPECT_EQ(cls->kind, TileClassKind::Atomic);
  EXPECT_EQ(cls->dims, (llvm::SmallVector<int64_t, 4>{-1}));
}

} // namespace

namespace {

/// The names of the functions the tile library declares (free, or members of its classes).
class LibraryFunctions : public clang::RecursiveASTVisitor<LibraryFunctions> {
public:
  bool VisitFunctionDecl(clang::FunctionDecl *fn) {
    if (fn->getDeclName().isIdentifier() && isInTileNamespace(fn))
      names.insert(fn->getName());
    return true;
  }
  llvm::StringSet<> names;
};

TEST(TileLibrary, EveryTableFunctionIsDeclaredByTheLibrary) {
  auto ast = parseTileCode("");
  ASSERT_TRUE(ast);
  // The whole library: the parse's traversal scope is the file's own declarations.
  clang::ASTContext &ctx = ast->getASTContext();
  ctx.setTraversalScope({ctx.getTranslationUnitDecl()});
  LibraryFunctions library;
  library.TraverseDecl(ctx.getTranslationUnitDecl());
  for (unsigned k = 0; k < unsigned(TileFn::Unknown); ++k) {
    llvm::StringRef spelling = spellingOf(TileFn(k));
    EXPECT_TRUE(library.names.contains(spelling)) << "tile::" << spelling.str();
    EXPECT_EQ(tileFunctionNamed(spelling), TileFn(k)) << spelling.str();
  }
}

TEST(TileLibrary, RecognisesTableFunctionsOnlyInTheLibrary) {
  auto ast = parseTileCode(R"(
float exp(float x) { return x; }
TILE_KERNEL void k(tile::Tensor<float, 8>& z) { z.store(tile::exp(z.load())); }
)");
  ASSERT_TRUE(ast);
  clang::ASTContext &ctx = ast->getASTContext();
  EXPECT_EQ(tileFunction(findFunction(ctx, "exp")), TileFn::Unknown);
  const clang::FunctionDecl *k = findFunction(ctx, "k");
  std::vector<TileFn> called;
  struct Calls : clang::RecursiveASTVisitor<Calls> {
    std::vector<TileFn> *out;
    bool VisitCallExpr(clang::CallExpr *call) {
      if (const clang::FunctionDecl *fn = call->getDirectCallee())
        out->push_back(tileFunction(fn));
      return true;
    }
  } calls;
  calls.out = &called;
  calls.TraverseDecl(const_cast<clang::FunctionDecl *>(k));
  EXPECT_TRUE(llvm::is_contained(called, TileFn::Exp));
  EXPECT_TRUE(llvm::is_contained(called, TileFn::Store));
  EXPECT_TRUE(llvm::is_contained(called, TileFn::Load));
  EXPECT_TRUE(hasRole(TileFn::Exp, Math));
  EXPECT_TRUE(hasRole(TileFn::Max, Math | Reduction));
  EXPECT_FALSE(hasRole(TileFn::Sum, Math));
  EXPECT_TRUE(hasRole(TileFn::Store, Access | Writes));
  EXPECT_FALSE(hasRole(TileFn::Unknown, 0));
}

} // namespace
