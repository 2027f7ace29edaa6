//===- RegisterPressureTest.cpp - peakLiveRegisters' model, rule by rule -------===//
//
// Each test parses a function and counts one register per tensor element, so that the peak
// is the number of elements live at once under the model of RegisterPressure.h.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/RegisterPressure.h"

#include "tilecc/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

class RegisterPressureTest : public ::testing::Test {
protected:
  RegisterPressureTest() {
    ctx.loadDialect<arith::ArithDialect, func::FuncDialect, math::MathDialect, scf::SCFDialect,
                    tilecc::tile::TileDialect>();
  }
  int64_t peak(const char *source) {
    module = parseSourceString<ModuleOp>(source, &ctx);
    EXPECT_TRUE(module);
    if (!module)
      return -1;
    func::FuncOp func = *module->getOps<func::FuncOp>().begin();
    return tilecc::tilegpu::peakLiveRegisters(func, [](Value v) -> int64_t {
      auto tensor = dyn_cast<RankedTensorType>(v.getType());
      return tensor ? tensor.getNumElements() : 0;
    });
  }
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(RegisterPressureTest, AnElementwiseOpReusesTheOperandItLastUses) {
  EXPECT_EQ(peak(R"(
    func.func @f(%t: tensor<64xf32>) -> tensor<64xf32> {
      %a = math.exp %t : tensor<64xf32>
      %b = arith.addf %a, %a : tensor<64xf32>
      return %b : tensor<64xf32>
    })"),
            64);
}

TEST_F(RegisterPressureTest, AValueUsedLaterStaysLive) {
  EXPECT_EQ(peak(R"(
    func.func @f(%t: tensor<64xf32>) -> tensor<64xf32> {
      %a = math.exp %t : tensor<64xf32>
      %b = arith.addf %a, %t : tensor<64xf32>
      %c = arith.mulf %b, %a : tensor<64xf32>
      return %c : tensor<64xf32>
    })"),
            // a is used twice: it is held, with t until the sum and with the sum after.
            128);
}

TEST_F(RegisterPressureTest, AChainOfSingleUsesHoldsOnlyItsLeaves) {
  // exp(t) + u is computed element by element where the product needs it: neither the
  // exponential nor the sum holds registers, t and u live until the product.
  EXPECT_EQ(peak(R"(
    func.func @f(%t: tensor<64xf32>, %u: tensor<64xf32>) -> tensor<64xf32> {
      %a = math.exp %t : tensor<64xf32>
      %b = arith.addf %a, %u : tensor<64xf32>
      %c = arith.mulf %b, %t : tensor<64xf32>
      return %c : tensor<64xf32>
    })"),
            128);
}

TEST_F(RegisterPressureTest, ABroadcastInAChainHoldsNothing) {
  // The widened weights feed the product through a broadcast: only the loaded row of
  // weights (16 elements) and the tile are live.
  EXPECT_EQ(peak(R"(
    func.func @f(%t: tensor<4x16xf32>, %w: tensor<16xf16>) -> tensor<4x16xf32> {
      %g = arith.extf %w : tensor<16xf16> to tensor<16xf32>
      %b = tile.broadcast %g : tensor<16xf32> -> tensor<4x16xf32>
      %y = arith.mulf %t, %b : tensor<4x16xf32>
      return %y : tensor<4x16xf32>
    })"),
            80);
}

TEST_F(RegisterPressureTest, AResultThatOnlyFeedsAReductionHoldsNothing) {
  // t * t is summed as it is computed; t stays live for the product after the sum.
  EXPECT_EQ(peak(R"(
    func.func @f(%t: tensor<1x64xf32>) -> tensor<1x64xf32> {
      %sq = arith.mulf %t, %t : tensor<1x64xf32>
      %s = tile.reduce %sq axis 1 : tensor<1x64xf32> -> tensor<1xf32> {
      ^bb0(%a: f32, %b: f32):
        %c = arith.addf %a, %b : f32
        tile.yield %c : f32
      }
      %r = tile.reshape %s : tensor<1xf32> -> tensor<1x1xf32>
      %bc = tile.broadcast %r : tensor<1x1xf32> -> tensor<1x64xf32>
      %y = arith.mulf %t, %bc : tensor<1x64xf32>
      return %y : tensor<1x64xf32>
    })"),
            65);
}

TEST_F(RegisterPressureTest, LoadsAreLiveFromTheStartOfTheirBlock) {
  // The weights are loaded after the row is squared, but nvcc issues the load first: both
  // tiles are live while the row's square is computed.
  EXPECT_EQ(peak(R"(
    func.func @f(%x: !tile.view<?xf32>, %w: !tile.view<?xf32>, %i: index) -> tensor<64xf32> {
      %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xf32>
      %sq = arith.mulf %t, %t : tensor<64xf32>
      %g = tile.load %w[%i] : !tile.view<?xf32> -> tensor<64xf32>
      %y = arith.mulf %sq, %g : tensor<64xf32>
      return %y : tensor<64xf32>
    })"),
            128);
}

TEST_F(RegisterPressureTest, AUseInALoopLastsTheWholeLoop) {
  EXPECT_EQ(peak(R"(
    func.func @f(%t: tensor<64xf32>, %n: index) -> tensor<64xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant dense<0.0> : tensor<64xf32>
      %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64xf32>) {
        %s = arith.addf %acc, %t : tensor<64xf32>
        scf.yield %s : tensor<64xf32>
      }
      return %r : tensor<64xf32>
    })"),
            // t with the accumulator, then t with the sum; the loop's result only after it.
            128);
}

} // namespace
