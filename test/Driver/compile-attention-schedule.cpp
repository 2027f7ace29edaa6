// Attention's key loop on sm_90a (tile-defer-carried-mma): P x V of one key block is issued
// after the next block's Q x K^T and waited for after that block's softmax; the consumer
// warpgroups run with 232 registers (the tensor-map producer keeps 40). ptxas keeps every
// warpgroup mma asynchronous: no serialization warning (C7513: registers of a later wgmma
// defined while a group runs; C7514: accumulators read before their wait).
// RUN: tilecc compile --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc-path -std=c++20 -x cu -I%tile_include -I%tile_include/../runtime -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -cubin %t.cu -o %t.cubin 2>&1 | FileCheck --check-prefix=PTXAS %s %}
#include <cmath>
#include <tile/tile.hpp>

using tile::bf16;
using tile::dyn;

constexpr int BM = 128, BN = 128, D = 128;

// CHECK: tile_dev::set_registers<false, 40>();
// CHECK: tile_dev::set_registers<true, 232>();
// The first block's Q x K^T and softmax before the loop, then in each step: the step's
// Q x K^T, the previous step's P x V, the wait for Q x K^T alone, the softmax, the wait for
// P x V, the release of its stages.
// CHECK: tile_dev::warpgroup_wait<0>(
// CHECK: for (int64_t
// CHECK: tile_dev::warpgroup_mma<
// CHECK-NEXT: tile_dev::warpgroup_mma_rs<
// CHECK-NEXT: tile_dev::warpgroup_wait<1>(
// CHECK: tile_dev::exp(
// CHECK: tile_dev::warpgroup_wait<0>(
// CHECK-NEXT: tile_dev::barrier_arrive(
// The last block's P x V after the loop.
// CHECK: tile_dev::warpgroup_mma_rs<
// PTXAS-NOT: C751
// PTXAS: Compiling entry function
// PTXAS-NOT: C751
TILE_KERNEL void attention(tile::Tensor<bf16, BM, D>& o, const tile::Tensor<bf16, dyn, dyn>& q,
                           const tile::Tensor<bf16, dyn, dyn>& kt,
                           const tile::Tensor<bf16, dyn, dyn>& v, int64_t seq, float scale) {
  const int64_t i = tile::block_id(0);
  const int64_t first = (i * BM - i * BM % seq) / BN;
  auto qt = q.partition<BM, D>().load(i, 0);
  auto pk = kt.partition<D, BN>();
  auto pv = v.partition<BN, D>();
  auto m = tile::full<float, BM>(-INFINITY);
  auto l = tile::zeros<float, BM>();
  auto acc = tile::zeros<float, BM, D>();
  for (int64_t j = 0; j < seq / BN; ++j) {
    auto s = tile::mma(qt, pk.load(0, first + j), tile::zeros<float, BM, BN>()) * scale;
    auto m_new = tile::max(m, tile::max<1>(s));
    auto p = tile::exp(s - tile::broadcast<BM, BN>(tile::reshape<BM, 1>(m_new)));
    auto alpha = tile::exp(m - m_new);
    l = l * alpha + tile::sum<1>(p);
    acc = tile::mma(tile::cast<bf16>(p), pv.load(first + j, 0),
                    acc * tile::broadcast<BM, D>(tile::reshape<BM, 1>(alpha)));
    m = m_new;
  }
  o.store(tile::cast<bf16>(acc / tile::broadcast<BM, D>(tile::reshape<BM, 1>(l))));
}

int main() {
  const int64_t heads = 2, seq = 256, rows = heads * seq;
  auto q = tile::zeros<bf16>({rows, D}), k = tile::zeros<bf16>({rows, D});
  auto v = tile::zeros<bf16>({rows, D}), o = tile::zeros<bf16>({rows, D});
  tile::launch<attention>(o.partition_mut<BM, D>(), q, k.view().transpose(), v, seq, 0.125f).sync();
}
