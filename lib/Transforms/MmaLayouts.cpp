//===- MmaLayouts.cpp - mma operands and accumulators in fragment registers -----===//
//
// `tile-mma-layouts` turns each `tile.mma` whose tiles are whole numbers of instruction
// tiles into `tilegpu.mma` on fragment layouts:
//
//  * the accumulator and the inputs take the fragment layouts of tilegpu::mmaFragments (which
//    tile-infer-layouts has usually given them already), and `tilegpu.convert_layout` ops
//    move the operands in and the result out where they are not;
//  * an accumulator an `scf.for` carries from one iteration to the next is carried in the mma
//    layout: its initial value is converted before the loop (free for constants and splats),
//    its uses in the body and after the loop read it through conversions, and the conversion
//    folding then removes the round trip between iterations.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Transforms/Passes.h"
#include "MmaCarry.h"

#include "tilecc/Dialect/TileGPU/MmaFragments.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEMMALAYOUTS
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;
using tilegpu::ConvertLayoutOp;

namespace {

RankedTensorType withLayout(RankedTensorType type, Attribute layout) {
  return RankedTensorType::get(type.getShape(), type.getElementType(), layout);
}

/// `v` as `type`: itself, or a conversion made at the builder's insertion point.
Value convertTo(OpBuilder &builder, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  return builder.create<ConvertLayoutOp>(loc, type, v);
}

bool hasMmaLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa_and_nonnull<tilegpu::MmaLayoutAttr>(tensor.getEncoding());
}

/// Rewrites `op` on fragments when its shape allows; returns false when it keeps its layouts.
bool rewriteMma(tile::MmaOp op, unsigned numWarps) {
  RankedTensorType a = op.getA().getType(), b = op.getB().getType(), acc = op.getAcc().getType();
  std::optional<tilegpu::MmaFragments> fragments = tilegpu::mmaFragments(a, b, acc, numWarps);
  if (!fragments)
    return false;
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Value fa = convertTo(builder, loc, op.getA(), withLayout(a, fragments->a));
  Value fb = convertTo(builder, loc, op.getB(), withLayout(b, fragments->b));
  Value fc = convertTo(builder, loc, op.getAcc(), withLayout(acc, fragments->acc));
  Value product = builder.create<tilegpu::MmaOp>(loc, fc.getType(), fa, fb, fc);
  op.replaceAllUsesWith(convertTo(builder, loc, product, op.getType()));
  op.erase();
  return true;
}

struct TileMmaLayoutsPass : public tilecc::impl::TileMmaLayoutsBase<TileMmaLayoutsPass> {
  void runOnOperation() override;
};

} // namespace

void tilecc::carryInMmaLayout(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
    auto out = yield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
    if (!out || !hasMmaLayout(out.getSrc().getType()))
      continue;
    Type fragment = out.getSrc().getType(), carried = loop.getResult(i).getType();
    Location loc = loop.getLoc();
    OpBuilder builder(loop);
    OpOperand &init = loop.getInitArgsMutable()[i];
    init.set(convertTo(builder, loc, init.get(), fragment));

    BlockArgument arg = loop.getRegionIterArg(i);
    arg.setType(fragment);
    builder.setInsertionPointToStart(loop.getBody());
    auto inBody = builder.create<ConvertLayoutOp>(loc, carried, arg);
    arg.replaceAllUsesExcept(inBody, inBody);
    yield.setOperand(i, out.getSrc());

    Value result = loop.getResult(i);
    result.setType(fragment);
    builder.setInsertionPointAfter(loop);
    auto after = builder.create<ConvertLayoutOp>(loc, carried, result);
    result.replaceAllUsesExcept(after, after);
  }
}

bool tilecc::onlyCarried(Operation *mma) {
  auto yields = [](Operation *user) { return isa<scf::YieldOp>(user); };
  return llvm::all_of(mma->getUsers(), [&](Operation *user) {
    return yields(user) ||
           (isa<ConvertLayoutOp>(user) && llvm::all_of(user->getUsers(), yields));
  });
}

bool tilecc::variesInLoop(scf::ForOp loop, Value operand) {
  while (auto convert = operand.getDefiningOp<ConvertLayoutOp>()) {
    if (!loop->isAncestor(convert))
      return false;
    operand = convert.getSrc();
  }
  Operation *def = operand.getDefiningOp();
  Region *region = def ? def->getParentRegion() : operand.getParentRegion();
  return loop->isAncestor(region->getParentOp()) || region == &loop.getRegion();
}

void TileMmaLayoutsPass::runOnOperation() {
  func::FuncOp func = getOperation();
  auto warps = func->getAttrOfType<IntegerAttr>(tilegpu::kNumWarpsAttrName);
  if (!warps) {
    func.emitError() << "'" << tilegpu::kNumWarpsAttrName
                     << "' is missing; run tile-assign-layouts first";
    return signalPassFailure();
  }
  SmallVector<tile::MmaOp> mmas;
  func.walk([&](tile::MmaOp op) { mmas.push_back(op); });
  bool changed = false;
  for (tile::MmaOp op : mmas)
    changed |= rewriteMma(op, unsigned(warps.getInt()));
  if (!changed)
    return;
  func.walk([&](scf::ForOp loop) { carryInMmaLayout(loop); }); // inner loops first

  RewritePatternSet patterns(&getContext());
  ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
  if (failed(applyPatternsAndFoldGreedily(func, std::move(patterns))))
    return signalPassFailure();
}
