// RUN: tilecc compile %s -I%S/Inputs -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc -c %t.cu -I%S/Inputs -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// Reductions whose axis crosses warps and whose results nothing broadcasts back: column sums
// of 16-bit integers widened to 32 bits, over 8 warps that share the rows. Stored at once, the
// sums take their shape's anchor (4 per thread, as the store wants); summed over a loop, the
// loop carries them spread over the block, one per thread. Integer sums are exact in any
// order, so the default device and the CPU backend must agree bit for bit.
#include <cstdint>
#include <tile/tile.hpp>

#include "bitwise_checks.h"

using tile::dyn;

TILE_KERNEL TILE_KERNEL_CONFIG(num_warps = 8) void column_sums(tile::Tensor<int32_t, 128>& out,
                                                             const tile::Tensor<int16_t, dyn, dyn>& x) {
  out.store(tile::sum<0>(tile::cast<int32_t>(x.partition<64, 128>().load(0, tile::block_id(0)))));
}

TILE_KERNEL TILE_KERNEL_CONFIG(num_warps = 8) void carried_column_sums(
    tile::Tensor<int32_t, 128>& out, const tile::Tensor<int16_t, dyn, dyn>& x) {
  auto tiles = x.partition<64, 128>();
  auto acc = tile::zeros<int32_t, 128>();
  for (int64_t i = 0; i * 64 < x.shape(0); ++i)
    acc = acc + tile::sum<0>(tile::cast<int32_t>(tiles.load(i, tile::block_id(0))));
  out.store(acc);
}

// (Regular expressions, so that the patterns do not match these lines, which the generated
// file quotes.)
// CHECK-LABEL: {{^}}// column_sums:
// CHECK: {{#tilegpu.blocked<sizePerThread = \[4\], threadsPerWarp = \[32\], warpsPerBlock = \[8\], order = \[0\]> over \[128\]}}
// CHECK-LABEL: {{^}}// carried_column_sums:
// CHECK: {{#tilegpu.linear<register = \[\], lane = \[\[1\], \[2\], \[4\], \[8\], \[16\]\], warp = \[\[32\], \[64\], \[0\]\]> over \[128\]}}

int main() {
  const int64_t rows = 64 * 5, cols = 128 * 3;
  const auto hx = randomValues<int16_t>(size_t(rows * cols), 7);
  int bad = 0;
  auto run = [&](const tile::Device& dev, bool carried) {
    auto x = tile::from_host(hx, {rows, cols}, dev);
    auto y = tile::zeros<int32_t>({cols}, dev);
    if (carried)
      tile::launch<carried_column_sums>(y.partition_mut<128>(), x).sync();
    else
      tile::launch<column_sums>(y.partition_mut<128>(), x).sync();
    return y.to_host();
  };
  bad += compare("column sums", run(tile::default_device(), false), run(tile::cpu_device(), false));
  bad += compare("carried column sums", run(tile::default_device(), true),
                 run(tile::cpu_device(), true));
  // The sums themselves, against a plain loop on the host.
  std::vector<int32_t> want(size_t(cols), 0), first(size_t(cols), 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      want[size_t(c)] += hx[size_t(r * cols + c)];
      if (r < 64) first[size_t(c)] += hx[size_t(r * cols + c)];
    }
  bad += compare("column sums against the host", run(tile::default_device(), false), first);
  bad += compare("carried column sums against the host", run(tile::default_device(), true), want);
  std::printf("reductions across warps: %d mismatches on %s\n", bad,
              tile::default_device().name().c_str());
  return bad != 0;
}
// OUT: reductions across warps: 0 mismatches
