//===- MmaFragments.cpp - the registers an mma reads and writes ------------------===//
#include "tilecc/Dialect/TileGPU/MmaFragments.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"

#include "llvm/ADT/SmallVector.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::tilegpu;

/// The WM x WN warp grid for an M x N accumulator over `numWarps` warps.
static std::pair<unsigned, unsigned> warpGrid(int64_t m, int64_t n, unsigned numWarps) {
  if (m % (16 * int64_t(numWarps)) == 0)
    return {numWarps, 1u};
  unsigned wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    bool canM = m % (16 * wm * 2) == 0, canN = n % (8 * wn * 2) == 0;
    if (canM && (m / wm >= n / wn || !canN))
      wm *= 2;
    else if (canN)
      wn *= 2;
    else
      break;
  }
  return {wm, wn};
}

std::optional<MmaFragments> tilegpu::mmaFragments(RankedTensorType a, RankedTensorType b,
                                                  RankedTensorType acc, unsigned numWarps) {
  if (acc.getRank() < 2 || a.getRank() != acc.getRank() || b.getRank() != acc.getRank())
    return std::nullopt;
  size_t rank = acc.getRank(), r = rank - 2;
  int64_t m = acc.getDimSize(r), n = acc.getDimSize(r + 1), k = a.getDimSize(r + 1);
  unsigned kWidth = mmaKWidth(a.getElementType());
  if (m % 16 != 0 || n % 8 != 0 || k % (8 * kWidth) != 0)
    return std::nullopt;
  MLIRContext *ctx = acc.getContext();
  auto [wm, wn] = warpGrid(m, n, numWarps);
  SmallVector<unsigned> wpb(rank, 1);
  wpb[r] = wm;
  wpb[r + 1] = wn;
  auto parent = MmaLayoutAttr::get(ctx, wpb);
  return MmaFragments{parent, DotOperandLayoutAttr::get(ctx, 0, parent, kWidth),
                      DotOperandLayoutAttr::get(ctx, 1, parent, kWidth)};
}
