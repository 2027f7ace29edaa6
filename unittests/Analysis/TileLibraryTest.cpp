//===- TileLibraryTest.cpp - recognising tile library entities ----------------===//
#include "ParseHelper.h"
#include "tilecc/Analysis/TileLibrary.h"

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
  EXPECT_EQ(out->name, "Tensor");
  EXPECT_TRUE(out->element->isSpecificBuiltinType(clang::BuiltinType::Float));
  ASSERT_EQ(out->dims.size(), 2u);
  EXPECT_EQ(out->dims[0], 32);
  EXPECT_EQ(out->dims[1], -1);

  const clang::FunctionDecl *host = findFunction(ast->getASTContext(), "host");
  std::optional<TileClass> t = getTileClass(host->getParamDecl(0)->getType());
  ASSERT_TRUE(t);
  EXPECT_EQ(t->name, "Tile");
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
  EXPECT_EQ(cls->name, "Atomic");
  EXPECT_EQ(cls->dims, (llvm::SmallVector<int64_t, 4>{-1}));
}

} // namespace
