#!/usr/bin/env python3
"""Writes hand-edited variants of tilecc's generated CUDA for attention<128, 128, false>
(bench/attention.tile.cpp cut down to that one instantiation), to measure what each
schedule change is worth before the compiler makes it:

  v0  as generated
  v1  exp as ex2.approx of x * log2(e)
  v2  v1, producer warps keep 40 registers and the consumers take 232 (setmaxnreg)
  v3  v2, the consumer loop pipelined as FlashAttention-3 does within a warpgroup: the next
      Q x K^T is issued before this block's P x V, and the softmax runs while P x V does

usage: make_variants.py GENERATED.cu OUTDIR
  GENERATED.cu: `tilecc compile --arch=sm_90a` of bench/attention.tile.cpp with main() cut
  down to run<128, 128, false> (the compiler of b660027, before tile-defer-carried-mma).
"""
import re
import sys

src = open(sys.argv[1]).read()
out = sys.argv[2]

UNPINNED = r"""
namespace tilecc_exp {
template <class LC, class SA, class SB, class T>
__device__ __forceinline__ void mma_ss(float (&c)[LC::elems], const T* a, const T* b, unsigned tid) {
  constexpr int W = LC::wm_count;
  constexpr int64_t K = SA::tile_cols, N = LC::S::cols, RM = LC::RM, RN = LC::RN, KI = 16;
  constexpr int64_t NC = N < 256 ? N : 256;
  constexpr uint32_t bytes = 2;
  constexpr uint32_t a_lbo = SA::column_major ? uint32_t(SA::rows * SA::block) * bytes : 16;
  constexpr uint32_t b_lbo = SB::column_major ? 16 : uint32_t(SB::rows * SB::block) * bytes;
  const int64_t wg = int64_t(tid / 128u);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int64_t kk = 0; kk < K / KI; ++kk)
#pragma unroll
    for (int64_t i = 0; i < RM; ++i) {
      const int64_t row = i * 16 * W + wg * 64;
      const uint64_t da = tile_dev::detail::wgmma_descriptor<SA>(a + SA::offset(row * K + kk * KI), a_lbo, uint32_t(8 * SA::block) * bytes);
#pragma unroll
      for (int64_t nc = 0; nc < N / NC; ++nc) {
        const uint64_t db = tile_dev::detail::wgmma_descriptor<SB>(b + SB::offset(kk * KI * N + nc * NC), b_lbo, uint32_t(8 * SB::block) * bytes);
        tile_dev::detail::wgmma<int(NC), T, T, SA::column_major ? 1 : 0, SB::column_major ? 0 : 1>(&c[(i * RN + nc * (NC / 8)) * 4], da, db);
      }
    }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <class LC, class LA, class SB, class T>
__device__ __forceinline__ void mma_rs(float (&c)[LC::elems], uint32_t (&a)[LA::elems / 2], const T* b) {
  constexpr int64_t KI = 16, N = LC::S::cols, RM = LC::RM, RN = LC::RN;
  constexpr int64_t NC = N < 256 ? N : 256;
  constexpr uint32_t bytes = 2;
  constexpr uint32_t b_lbo = SB::column_major ? 16 : uint32_t(SB::rows * SB::block) * bytes;
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int64_t kk = 0; kk < LA::RC; ++kk)
#pragma unroll
    for (int64_t i = 0; i < RM; ++i)
#pragma unroll
      for (int64_t nc = 0; nc < N / NC; ++nc) {
        const uint64_t db = tile_dev::detail::wgmma_descriptor<SB>(b + SB::offset(kk * KI * N + nc * NC), b_lbo, uint32_t(8 * SB::block) * bytes);
        tile_dev::detail::wgmma_rs<int(NC), T, SB::column_major ? 0 : 1>(&c[(i * RN + nc * (NC / 8)) * 4], &a[(i * LA::RC + kk) * 4], db);
      }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
}  // namespace tilecc_exp
"""

FAST_EXP = """
__device__ __forceinline__ float tilecc_fast_exp(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x * 1.4426950408889634f));
  return y;
}
"""


def with_fast_exp(s):
    s = s.replace("tile_dev::exp(", "tilecc_fast_exp(")
    first = s.index("template <bool Whole_>")
    return s[:first] + FAST_EXP + s[first:]


def with_registers(s):
    # The bench's operands always take the tensor-map path: the element-wise fallback of the
    # producer (which would spill at 40 registers) traps instead, so that ptxas's spill counts
    # are the consumers'.
    s = re.sub(r"(if \(v21\) \{.*?\n    \} else \{\n)(.*?)(\n    \}\n    return;)",
               lambda m: m.group(1) + "      __trap();" + m.group(3), s, flags=re.S)
    return s.replace("set_registers<false, 120>", "set_registers<false, 40>").replace(
        "set_registers<true, 192>", "set_registers<true, 232>")


# The consumer loop of the kernel that runs: the version for a K of unit stride along its
# rows (k.view().transpose()), launched with Whole_ = false (the bench's K allows no vectors
# along axis 1).
PIPELINED = r"""
  float m_[2] = {-INFINITY, -INFINITY}, l_[2] = {0.f, 0.f}, acc_[64];
  _Pragma("unroll") for (int i_ = 0; i_ < 64; ++i_) acc_[i_] = 0.f;
  uint32_t pp_[32];
  // softmax of s_ in place (exponentials; s_ is the accumulator of a finished Q x K^T):
  // updates m_ and l_, returns alpha.
  auto softmax_ = [&](float (&s_)[64], float (&alpha_)[2]) {
    float mx_[2];
    _Pragma("unroll") for (int k_ = 0; k_ < 2; ++k_) mx_[k_] = m_[k_];
    _Pragma("unroll") for (int r_ = 0; r_ < 64; ++r_) { const int k_ = tile_dev::compress(r_, 2u); s_[r_] = __fmul_rn(s_[r_], arg5); mx_[k_] = fmaxf(mx_[k_], s_[r_]); }
    _Pragma("unroll") for (int k_ = 0; k_ < 2; ++k_) { mx_[k_] = fmaxf(mx_[k_], tile_dev::shfl_xor(mx_[k_], 1)); mx_[k_] = fmaxf(mx_[k_], tile_dev::shfl_xor(mx_[k_], 2)); }
    float sum_[2] = {0.f, 0.f};
    _Pragma("unroll") for (int r_ = 0; r_ < 64; ++r_) { const int k_ = tile_dev::compress(r_, 2u); s_[r_] = tilecc_fast_exp(s_[r_] - mx_[k_]); sum_[k_] += s_[r_]; }
    _Pragma("unroll") for (int k_ = 0; k_ < 2; ++k_) { sum_[k_] += tile_dev::shfl_xor(sum_[k_], 1); sum_[k_] += tile_dev::shfl_xor(sum_[k_], 2); }
    _Pragma("unroll") for (int k_ = 0; k_ < 2; ++k_) { alpha_[k_] = tilecc_fast_exp(m_[k_] - mx_[k_]); l_[k_] = l_[k_] * alpha_[k_] + sum_[k_]; m_[k_] = mx_[k_]; }
  };
  auto pack_ = [&](const float (&s_)[64]) {
    _Pragma("unroll") for (int r_ = 0; r_ < 64; r_ += 2) { __nv_bfloat162 h_ = __floats2bfloat162_rn(s_[r_], s_[r_ + 1]); memcpy(&pp_[r_ / 2], &h_, 4); }
  };
  auto rescale_ = [&](const float (&alpha_)[2]) {
    _Pragma("unroll") for (int r_ = 0; r_ < 64; ++r_) acc_[r_] = acc_[r_] * alpha_[tile_dev::compress(r_, 2u)];
  };
  {
    tile_dev::barrier_wait(v18 + 0, 0); tile_dev::fence_async_shared();
    float s_[64]; _Pragma("unroll") for (int i_ = 0; i_ < 64; ++i_) s_[i_] = 0.0f;
    tile_dev::warpgroup_mma<LC_, SQ_, SK_>(s_, (v17 + 0 * 16384), (v15 + 0 * 16384), threadIdx.x);
    tile_dev::warpgroup_wait<0>(s_);
    float alpha_[2];
    softmax_(s_, alpha_);
    pack_(s_);
  }
  for (int64_t j_ = 1; j_ < v10; ++j_) {
    const int64_t st_ = j_ % 3, ph_ = (j_ / 3) % 2, pst_ = (j_ - 1) % 3;
    tile_dev::barrier_wait(v18 + st_, ph_); tile_dev::fence_async_shared();
    float s_[64]; _Pragma("unroll") for (int i_ = 0; i_ < 64; ++i_) s_[i_] = 0.0f;
    tile_dev::detail::pin_registers(s_); tile_dev::detail::pin_registers(acc_); tile_dev::detail::pin_registers(pp_);
    tilecc_exp::mma_ss<LC_, SQ_, SK_>(s_, (v17 + 0 * 16384), (v15 + st_ * 16384), threadIdx.x);
    tilecc_exp::mma_rs<LC_, LA_, SV_>(acc_, pp_, (v16 + pst_ * 16384));
    tile_dev::warpgroup_wait<1>(s_);
    float alpha_[2];
    softmax_(s_, alpha_);
    tile_dev::warpgroup_wait<0>(acc_); tile_dev::detail::pin_registers(pp_);
    tile_dev::barrier_arrive(v19 + pst_);
    rescale_(alpha_);
    pack_(s_);
  }
  {
    const int64_t pst_ = (v10 - 1) % 3;
    tile_dev::warpgroup_mma_rs<LC_, LA_, SV_>(acc_, pp_, (v16 + pst_ * 16384), threadIdx.x);
    tile_dev::warpgroup_wait<0>(acc_); tile_dev::detail::pin_registers(pp_);
    tile_dev::barrier_arrive(v19 + pst_);
  }
  float v53[2] = {l_[0], l_[1]}; float v54[64]; _Pragma("unroll") for (int i_ = 0; i_ < 64; ++i_) v54[i_] = acc_[i_];
"""


def pipelined(s):
    name = "__tilecc_attention_128_128_false_unit_stride_2"
    start = s.index("template <bool Whole_> __global__ void __launch_bounds__(384, 1) " + name + "(")
    begin = s.index("float v52[2];", start)
    end = s.index("#line 55", begin)
    pre = "L1_frag"
    body = (PIPELINED.replace("LC_", name + "_L1_frag").replace("LA_", name + "_L5_frag")
            .replace("SQ_", "tile_dev::Staging<128, 0, 8, 1, 8, 64, 128>")
            .replace("SK_", "tile_dev::Staging<128, 0, 8, 1, 8, 64, 128, 128>")
            .replace("SV_", "tile_dev::Staging<128, 0, 8, 1, 8, 64, 128>"))
    first = s.index("template <bool Whole_>")
    s = s[:first] + UNPINNED + s[first:]
    begin += len(UNPINNED)
    end += len(UNPINNED)
    return s[:begin] + body + s[end:]


v1 = with_fast_exp(src)
v2 = with_registers(v1)
v3 = pipelined(v2)
for name, text in (("v0", src), ("v1", v1), ("v2", v2), ("v3", v3)):
    open(f"{out}/att_{name}.cu", "w").write(text)
