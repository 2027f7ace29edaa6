//===- VersionUnitStrides.cpp - kernel versions for operands stored column-major -===//
//
// `tile-version-unit-strides` gives a kernel whose loop multiplies tiles loaded from a shared
// view argument (`tile.load` of a rank-2 tile straight into an operand of `tile.mma`) a
// version per set of such views contiguous along the axis of the operand's first axis (the
// view's second-to-last): a transposed array (`b.transpose()`, or `k.transpose(1, 2)` of
// (heads, seq, d) keys), a column-major weight. The version is a copy of the kernel whose
// view arguments carry `tilegpu.unit_stride = <that axis>`; the kernel lists its versions
// (`tilegpu.versions`, the larger sets first) and its launcher takes the first whose views all
// have stride 1 along that axis, else runs the kernel itself. Nothing else changes: a version computes the same result for
// any argument, and later passes use the fact to lay the operand's shared-memory stages out
// along that axis (copies of whole 16-byte runs, wgmma reading them K-major or M-major).
//
// With operands of 8-bit or f32 (TF32) elements only B is versioned: wgmma reads them K-major
// only, which for A is its row-major form (an A stored column-major is restaged every step).
// At most two views are versioned (three versions).
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/SharedStaging.h"
#include "tilecc/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEVERSIONUNITSTRIDES
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

constexpr unsigned kMaxVersionedViews = 2;

/// A shared view argument whose loads in a loop feed `tile.mma` operands, and the view axis
/// the operand's first axis runs along (its rank-2 tiles span the view's last two axes).
struct OperandView {
  unsigned arg;
  int64_t axis;
};

/// The shared views whose loads in a loop feed `tile.mma` operands of `func` directly, in
/// argument order.
SmallVector<OperandView> operandViews(func::FuncOp func) {
  llvm::MapVector<unsigned, int64_t> args;
  func.walk([&](tile::MmaOp mma) {
    if (!mma->getParentOfType<scf::ForOp>())
      return;
    SmallVector<Value, 2> operands{mma.getA(), mma.getB()};
    for (auto [k, operand] : llvm::enumerate(operands)) {
      auto load = operand.getDefiningOp<tile::LoadOp>();
      auto view = load ? dyn_cast<BlockArgument>(load.getView()) : BlockArgument();
      if (!view || view.getOwner() != &func.getBody().front())
        continue;
      auto type = cast<tile::ViewType>(view.getType());
      auto tile = cast<RankedTensorType>(operand.getType());
      // The operands a column-major ring serves: 16-bit ones, and B of the types wgmma
      // reads only K-major (8-bit, TF32).
      Type element = tile.getElementType();
      bool served = tilegpu::warpgroupElement(element) &&
                    (!tilegpu::warpgroupKMajorOnly(element) || k == 1);
      if (tile.getRank() == 2 && type.getRank() >= 2 && !type.isExclusive() && served)
        args.insert({view.getArgNumber(), int64_t(type.getRank()) - 2});
    }
  });
  SmallVector<OperandView> sorted;
  for (auto [arg, axis] : args)
    sorted.push_back({arg, axis});
  llvm::sort(sorted, [](const OperandView &x, const OperandView &y) { return x.arg < y.arg; });
  if (sorted.size() > kMaxVersionedViews)
    sorted.resize(kMaxVersionedViews);
  return sorted;
}

struct VersionUnitStridesPass
    : public tilecc::impl::TileVersionUnitStridesBase<VersionUnitStridesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> kernels;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(tile::kKernelAttrName) && !func.isExternal() &&
          !func->hasAttr(tilegpu::kVersionOfAttrName) && !func->hasAttr(tilegpu::kVersionsAttrName))
        kernels.push_back(func);
    for (func::FuncOp func : kernels) {
      SmallVector<OperandView> views = operandViews(func);
      if (views.empty())
        continue;
      // Every non-empty set of the views, the larger sets first.
      SmallVector<unsigned> sets;
      for (unsigned set = 1; set < (1u << views.size()); ++set)
        sets.push_back(set);
      llvm::stable_sort(sets, [](unsigned x, unsigned y) {
        return llvm::popcount(x) > llvm::popcount(y);
      });
      SmallVector<Attribute> versions;
      OpBuilder b(func);
      for (unsigned set : sets) {
        auto version = cast<func::FuncOp>(b.clone(*func));
        std::string name = func.getSymName().str() + "_unit_stride";
        for (auto [k, view] : llvm::enumerate(views))
          if (set & (1u << k)) {
            name += "_" + std::to_string(view.arg);
            version.setArgAttr(view.arg, tilegpu::kUnitStrideAttrName,
                               b.getI64IntegerAttr(view.axis));
          }
        version.setSymName(name);
        symbols.insert(version); // renames on a clash
        version->setAttr(tilegpu::kVersionOfAttrName, FlatSymbolRefAttr::get(func));
        versions.push_back(FlatSymbolRefAttr::get(version));
      }
      func->setAttr(tilegpu::kVersionsAttrName, b.getArrayAttr(versions));
    }
  }
};

} // namespace
