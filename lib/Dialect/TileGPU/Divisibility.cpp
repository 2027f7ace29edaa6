//===- Divisibility.cpp - powers of two that provably divide an index ----------===//
//
// A bottom-up walk over the defining ops, in exponents of two: sums take the smaller
// exponent, products add them, a left shift by a constant adds the shift. The walk is
// bounded in depth so that long chains of index arithmetic stay cheap; past the bound a
// value counts as divisible by 1, which is always sound.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/Divisibility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APInt.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;

namespace tilecc::tilegpu {
namespace {

constexpr unsigned kMaxLog = 30;
constexpr unsigned kMaxDepth = 32;

unsigned logOfConstant(const APInt &c) {
  return c.isZero() ? kMaxLog : std::min<unsigned>(c.countr_zero(), kMaxLog);
}

unsigned knownLog(Value v, unsigned depth, AssumedDivisor assumed);

/// What `assumed` says of a value the arithmetic does not explain.
unsigned assumedLog(Value v, AssumedDivisor assumed) {
  int64_t d = assumed ? assumed(v) : 1;
  return d > 1 ? std::min<unsigned>(llvm::Log2_64(uint64_t(d)), kMaxLog) : 0;
}

unsigned knownLog(Value v, unsigned depth, AssumedDivisor assumed) {
  if (depth > kMaxDepth)
    return 0;
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return logOfConstant(constant);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // An induction variable takes lb, lb + step, ...: every value is divisible by what
    // divides both bounds' start and the step.
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (arg == loop.getInductionVar())
        return std::min(knownLog(loop.getLowerBound(), depth + 1, assumed),
                        knownLog(loop.getStep(), depth + 1, assumed));
    return assumedLog(v, assumed);
  }
  Operation *op = v.getDefiningOp();
  auto operand = [&](unsigned i) { return knownLog(op->getOperand(i), depth + 1, assumed); };
  if (isa<arith::AddIOp, arith::SubIOp, arith::MinSIOp, arith::MinUIOp, arith::MaxSIOp,
          arith::MaxUIOp>(op))
    return std::min(operand(0), operand(1));
  if (isa<arith::MulIOp>(op))
    return std::min(operand(0) + operand(1), kMaxLog);
  if (isa<arith::ShLIOp>(op)) {
    APInt shift;
    if (matchPattern(op->getOperand(1), m_ConstantInt(&shift)) && shift.ult(kMaxLog))
      return std::min<unsigned>(operand(0) + unsigned(shift.getZExtValue()), kMaxLog);
    return operand(0);
  }
  if (isa<arith::AndIOp>(op)) // a bit clear in either operand is clear in the result
    return std::max(operand(0), operand(1));
  if (isa<arith::SelectOp>(op))
    return std::min(operand(1), operand(2));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(op))
    return operand(0);
  return assumedLog(v, assumed);
}

} // namespace

int64_t knownDivisor(Value v, AssumedDivisor assumed) {
  return int64_t(1) << knownLog(v, 0, assumed);
}

} // namespace tilecc::tilegpu
