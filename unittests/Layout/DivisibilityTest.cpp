//===- DivisibilityTest.cpp - knownDivisor on index arithmetic ------------------===//
//
// Each test parses a function whose returned values are the arithmetic under test and checks
// the power of two knownDivisor proves for each.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/Divisibility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using tilecc::tilegpu::knownDivisor;

namespace {

class DivisibilityTest : public ::testing::Test {
protected:
  DivisibilityTest() {
    ctx.loadDialect<arith::ArithDialect, func::FuncDialect, scf::SCFDialect>();
  }
  /// knownDivisor of each value the function `@f` in `source` returns.
  std::vector<int64_t> divisors(const char *source,
                                tilecc::tilegpu::AssumedDivisor assumed = nullptr) {
    module = parseSourceString<ModuleOp>(source, &ctx);
    EXPECT_TRUE(module);
    std::vector<int64_t> result;
    if (!module)
      return result;
    module->walk([&](func::ReturnOp ret) {
      for (Value v : ret.getOperands())
        result.push_back(knownDivisor(v, assumed));
    });
    return result;
  }
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(DivisibilityTest, ConstantsGiveTheirLowestSetBit) {
  EXPECT_EQ(divisors(R"(
    func.func @f() -> (index, index, index, i32) {
      %a = arith.constant 96 : index
      %b = arith.constant 7 : index
      %c = arith.constant -64 : index
      %d = arith.constant 0 : i32
      return %a, %b, %c, %d : index, index, index, i32
    })"),
            (std::vector<int64_t>{32, 1, 64, tilecc::tilegpu::kMaxKnownDivisor}));
}

TEST_F(DivisibilityTest, ArgumentsAreOnlyDivisibleByOne) {
  EXPECT_EQ(divisors(R"(
    func.func @f(%i: index) -> index {
      return %i : index
    })"),
            (std::vector<int64_t>{1}));
}

TEST_F(DivisibilityTest, ProductsAddAndSumsTakeTheSmaller) {
  EXPECT_EQ(divisors(R"(
    func.func @f(%i: index, %j: index) -> (index, index, index, index, index) {
      %c8 = arith.constant 8 : index
      %c12 = arith.constant 12 : index
      %c2 = arith.constant 2 : index
      %a = arith.muli %i, %c8 : index
      %b = arith.muli %a, %c12 : index
      %c = arith.addi %a, %c12 : index
      %d = arith.subi %b, %a : index
      %e = arith.shli %j, %c2 : index
      return %a, %b, %c, %d, %e : index, index, index, index, index
    })"),
            (std::vector<int64_t>{8, 32, 4, 8, 4}));
}

TEST_F(DivisibilityTest, SelectMinAndCastsKeepWhatBothSidesHave) {
  EXPECT_EQ(divisors(R"(
    func.func @f(%p: i1, %i: index) -> (index, index, i64, index) {
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %a = arith.muli %i, %c64 : index
      %s = arith.select %p, %a, %c16 : index
      %m = arith.minsi %a, %c16 : index
      %w = arith.index_cast %a : index to i64
      %masked = arith.andi %i, %c64 : index
      return %s, %m, %w, %masked : index, index, i64, index
    })"),
            (std::vector<int64_t>{16, 16, 64, 64}));
}

TEST_F(DivisibilityTest, LoopCarriedValuesAreUnknown) {
  // Even a value that starts and steps in multiples of 256 is not followed around the loop.
  EXPECT_EQ(divisors(R"(
    func.func @f(%n: index) -> index {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %r = scf.for %k = %c0 to %n step %c1 iter_args(%a = %c0) -> (index) {
        %next = arith.addi %a, %c256 : index
        scf.yield %next : index
      }
      return %r : index
    })"),
            (std::vector<int64_t>{1}));
}

TEST_F(DivisibilityTest, InductionVariablesInsideTheirLoop) {
  module = parseSourceString<ModuleOp>(R"(
    func.func @f(%n: index, %lb: index) {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      scf.for %k = %c0 to %n step %c256 {
      }
      scf.for %k = %c32 to %n step %c256 {
      }
      scf.for %k = %lb to %n step %c256 {
      }
      return
    })",
                                       &ctx);
  ASSERT_TRUE(module);
  std::vector<int64_t> got;
  module->walk([&](scf::ForOp loop) { got.push_back(knownDivisor(loop.getInductionVar())); });
  EXPECT_EQ(got, (std::vector<int64_t>{256, 32, 1}));
}

TEST_F(DivisibilityTest, AssumedFactsExplainTheLeaves) {
  // A launch specialization assumes the argument a multiple of 256: the bound of a piece,
  // min(i * 256 + 256, n), is then a multiple of 256; without the assumption only of 1.
  const char *source = R"(
    func.func @f(%i: index, %n: index) -> index {
      %c256 = arith.constant 256 : index
      %o = arith.muli %i, %c256 : index
      %e = arith.addi %o, %c256 : index
      %b = arith.minsi %e, %n : index
      return %b : index
    })";
  EXPECT_EQ(divisors(source), (std::vector<int64_t>{1}));
  auto assumed = [](Value v) -> int64_t {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getArgNumber() == 1 ? 256 : 1;
  };
  EXPECT_EQ(divisors(source, assumed), (std::vector<int64_t>{256}));
}

} // namespace
