// Attention over (heads, seq, d) arrays loads each operand as a (1, rows, cols) tile and
// reshapes it: the reshape folds into the load, so on sm_90a the operands still go through
// rings filled by producer warps with 3-D tensor maps (the box one element along the heads
// axis, K's map column-major in the version for a transposed view), both products run as
// warpgroup mma, and the output piece is stored through a 3-D tensor map.
// RUN: tilecc compile --arch=sm_90a %s --emit=tilegpu-ir -o - | FileCheck --check-prefix=IR %s
// RUN: tilecc compile --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s < %t.cu
#include <algorithm>
#include <cmath>
#include <tile/tile.hpp>

using tile::bf16;
using tile::dyn;

constexpr int BM = 128, BN = 64, D = 64;

// IR-LABEL: func.func @attention_unit_stride_2
// IR-NOT: tile.reshape {{.*}}tensor<1x
// IR: tilegpu.tensor_map %arg2 : <?x?x?xbf16> -> <tensor<64x64xbf16>, <{{.*}}order = [0, 1]>>
// IR: tilegpu.tensor_map %arg3 : <?x?x?xbf16> -> <tensor<64x64xbf16>, <{{.*}}order = [1, 0]>>
// IR: tilegpu.tensor_map %arg0 : <1x128x64xbf16, exclusive> -> <tensor<128x64xbf16>
// IR: tilegpu.producer
// IR: tilegpu.tensor_map_copy %{{.*}}[%{{.*}}, %c0, %{{.*}}] into
// IR: tilegpu.tensor_map_copy %{{.*}}[%{{.*}}, %{{.*}}, %c0] into
// IR: tilegpu.warpgroup_mma
// IR: tilegpu.warpgroup_mma
// IR: tilegpu.tensor_map_store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] through

// CHECK: __tilecc_attention_unit_stride_2(
// CHECK: tile_dev::tensor_map_copy<64, 64, 1, true>({{.*}}, map0_, {{[{]}}v{{[0-9]+}}, 0, v{{[0-9]+}}},
// CHECK: tile_dev::tensor_map_copy<64, 64, 1>({{.*}}, map1_, {{[{]}}v{{[0-9]+}}, v{{[0-9]+}}, 0},
// CHECK: tile_dev::tensor_map_store<{{.*}}, map2_, {{[{]}}v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}});
TILE_KERNEL void attention(tile::Tensor<bf16, 1, BM, D>& o,
                           const tile::Tensor<bf16, dyn, dyn, dyn>& q,
                           const tile::Tensor<bf16, dyn, dyn, dyn>& kt,
                           const tile::Tensor<bf16, dyn, dyn, dyn>& v, float scale) {
  const int64_t h = tile::block_id(0), i = tile::block_id(1);
  const int64_t seq = q.shape(1);
  auto qt = tile::reshape<BM, D>(q.partition<1, BM, D>().load(h, i, 0));
  auto pk = kt.partition<1, D, BN>();
  auto pv = v.partition<1, BN, D>();
  auto m = tile::full<float, BM>(-INFINITY);
  auto l = tile::zeros<float, BM>();
  auto acc = tile::zeros<float, BM, D>();
  for (int64_t j = 0; j < (seq + BN - 1) / BN; ++j) {
    auto s = tile::mma(qt, tile::reshape<D, BN>(pk.load(h, 0, j)), tile::zeros<float, BM, BN>());
    auto col = tile::broadcast<BM, BN>(tile::iota<int64_t, BN>() + j * BN);
    s = tile::where(col < seq, s * scale, -INFINITY);
    auto m_new = tile::max(m, tile::max<1>(s));
    auto p = tile::exp(s - tile::broadcast<BM, BN>(tile::reshape<BM, 1>(m_new)));
    auto alpha = tile::exp(m - m_new);
    l = l * alpha + tile::sum<1>(p);
    acc = tile::mma(tile::cast<bf16>(p), tile::reshape<BN, D>(pv.load(h, j, 0)),
                    acc * tile::broadcast<BM, D>(tile::reshape<BM, 1>(alpha)));
    m = m_new;
  }
  auto out = acc / tile::broadcast<BM, D>(tile::reshape<BM, 1>(l));
  o.store(tile::reshape<1, BM, D>(tile::cast<bf16>(out)));
}

int main() {
  const int64_t heads = 2, seq = 200;
  auto q = tile::zeros<bf16>({heads, seq, D}), k = tile::zeros<bf16>({heads, seq, D});
  auto v = tile::zeros<bf16>({heads, seq, D}), o = tile::zeros<bf16>({heads, seq, D});
  tile::launch<attention>(o.partition_mut<1, BM, D>(), q, k.view().transpose(1, 2), v, 0.125f)
      .sync();
}
