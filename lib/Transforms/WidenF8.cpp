//===- WidenF8.cpp - f8 arithmetic computed in f32 --------------------------------===//
//
// `tile-widen-f8`: every arith/math op that computes on f8 operands (anything but a
// conversion, constant, select or bitcast) is rebuilt on f32: its f8 operands are extended
// with `arith.extf`, and each f8 result is truncated back with `arith.truncf`. Tiles keep their
// shapes; ops inside reduction and scan combiners are rewritten like any other.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEWIDENF8
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

bool isF8(Type type) {
  Type element = getElementTypeOrSelf(type);
  return isa<Float8E4M3FNType, Float8E5M2Type>(element);
}

/// `type` with its element type replaced by f32 when it is an f8.
Type widened(Type type) {
  if (!isF8(type))
    return type;
  Type f32 = Float32Type::get(type.getContext());
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), f32, tensor.getEncoding());
  return f32;
}

bool computesOnF8(Operation *op) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return false;
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::ConstantOp, arith::SelectOp, arith::BitcastOp,
          arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp>(op))
    return false;
  return llvm::any_of(op->getOperandTypes(), isF8);
}

struct TileWidenF8Pass : public tilecc::impl::TileWidenF8Base<TileWidenF8Pass> {
  void runOnOperation() override {
    SmallVector<Operation *> work;
    getOperation().walk([&](Operation *op) {
      if (computesOnF8(op))
        work.push_back(op);
    });
    OpBuilder b(&getContext());
    for (Operation *op : work) {
      b.setInsertionPoint(op);
      Location loc = op->getLoc();
      SmallVector<Value> operands;
      for (Value v : op->getOperands())
        operands.push_back(isF8(v.getType())
                               ? b.create<arith::ExtFOp>(loc, widened(v.getType()), v).getResult()
                               : v);
      SmallVector<Type> resultTypes;
      for (Type t : op->getResultTypes())
        resultTypes.push_back(widened(t));
      OperationState state(loc, op->getName(), operands, resultTypes, op->getAttrs());
      Operation *wide = b.create(state);
      for (auto [old, now] : llvm::zip(op->getResults(), wide->getResults())) {
        Value result = now;
        if (old.getType() != now.getType())
          result = b.create<arith::TruncFOp>(loc, old.getType(), now);
        old.replaceAllUsesWith(result);
      }
      op->erase();
    }
  }
};

} // namespace
