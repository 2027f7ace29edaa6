// tile/matmul.hpp - matrix multiply-accumulate of tiles (tensor cores on the GPU).
//
//   mma(a, b, acc)   acc + a x b:  Tile<A, M, K>, Tile<A, K, N>, Tile<float, M, N> -> Tile<float, M, N>
//   matmul(a, b)     a x b, i.e. mma(a, b, zeros<float, M, N>())
// Batched: rank-3 tiles B x M x K, B x K x N and B x M x N multiply batch by batch (the same B in
// a, b and acc). M, N, K and B are any dimensions a Tile allows.
//
// Numbers, as on the GPU:
//  * The inputs a and b hold f16, bf16, float, or the f8 types: both the same type, except that
//    f8e4m3 and f8e5m2 may be mixed (a of one, b of the other), as the FP8 tensor cores allow.
//    The accumulator and the result are float. Anything else (complex included) is rejected at
//    compile time, as are shapes that do not fit.
//  * f16, bf16, f8e4m3 and f8e5m2 elements are converted to float (exactly), where each product
//    a[m][k] * b[k][n] is exact.
//  * float inputs run on TF32 tensor cores: each element of a and b is first rounded to TF32,
//    i.e. its float bit pattern keeps the top 10 of the 23 mantissa bits, rounded to nearest
//    with ties to even (a carry may raise the exponent, up to infinity); NaN and infinity are
//    unchanged. The products of the rounded values are then exact in float too.
//    (All three: barring products outside float's range, which overflow or underflow.)
//  * result[m][n] = acc[m][n] + p_0 + p_1 + ... + p_{K-1} with p_k = a[m][k] * b[k][n], added
//    in float in increasing k order, one rounding per addition. The GPU adds in another order,
//    so results agree within float rounding, and exactly when every partial sum is exact (small
//    integers, for instance). (FP8 tensor cores may also keep fewer bits than float while they
//    add; this float sum is the specification they approximate.)
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <type_traits>

#include "tile/core.hpp"
#include "tile/shape.hpp"
#include "tile/tile_value.hpp"

namespace tile {

namespace detail {

/// x rounded to TF32: the top 10 mantissa bits of the float, round to nearest, ties to even.
/// NaN and infinity are returned unchanged.
constexpr float round_to_tf32(float x) {
  const uint32_t b = std::bit_cast<uint32_t>(x);
  if ((b & 0x7fffffffu) >= 0x7f800000u) return x;
  const uint32_t lsb = (b >> 13) & 1u;  // the last kept bit: ties go to where it is 0
  return std::bit_cast<float>((b + 0x0fffu + lsb) & ~uint32_t{0x1fffu});
}

/// The input element types of tile::mma and tile::matmul.
template <class T>
inline constexpr bool mma_f8_input_v = std::is_same_v<T, f8e4m3> || std::is_same_v<T, f8e5m2>;
template <class T>
inline constexpr bool mma_input_v =
    std::is_same_v<T, f16> || std::is_same_v<T, bf16> || std::is_same_v<T, float> || mma_f8_input_v<T>;

/// Whether a of A and b of B may be multiplied: the same type, or two f8 types.
template <class A, class B>
inline constexpr bool mma_input_pair_v = std::is_same_v<A, B> || (mma_f8_input_v<A> && mma_f8_input_v<B>);

/// An input element as the tensor cores see it, in float.
template <class T>
constexpr float mma_operand(T x) {
  if constexpr (std::is_same_v<T, float>)
    return round_to_tf32(x);
  else if constexpr (is_narrow_float_v<T>)
    return static_cast<float>(x);
  else
    return 0.0f;  // rejected by check_mma
}

/// Dimension k counted from the end (1 is the last) of a shape of any rank, 0 where there is none.
template <std::size_t R>
constexpr int64_t dim_from_end(const std::array<int64_t, R>& shape, std::size_t k) {
  return k <= R ? shape[R - k] : 0;
}

enum class MmaProblem { None, Rank, InputType, MixedInputs, AccumulatorType, Inner, Batch, AccumulatorShape };

/// What is wrong with mma(a, b, acc) for tiles of these types, if anything (the first problem).
template <class TA, class TB, class TC>
constexpr MmaProblem mma_problem() {
  using A = typename TA::value_type;
  constexpr int r = TA::rank;
  if (!(r == 2 || r == 3) || TB::rank != r || TC::rank != r) return MmaProblem::Rank;
  if (!mma_input_v<A>) return MmaProblem::InputType;
  if (!mma_input_pair_v<A, typename TB::value_type>) return MmaProblem::MixedInputs;
  if (!std::is_same_v<typename TC::value_type, float>) return MmaProblem::AccumulatorType;
  constexpr auto sa = TA::shape;
  constexpr auto sb = TB::shape;
  constexpr auto sc = TC::shape;
  if (dim_from_end(sa, 1) != dim_from_end(sb, 2)) return MmaProblem::Inner;
  if (r == 3 && sa[0] != sb[0]) return MmaProblem::Batch;
  if (dim_from_end(sc, 2) != dim_from_end(sa, 2) || dim_from_end(sc, 1) != dim_from_end(sb, 1) ||
      (r == 3 && sc[0] != sa[0]))
    return MmaProblem::AccumulatorShape;
  return MmaProblem::None;
}

/// Reports the first problem of mma(a, b, acc) with one static_assert; the instantiation context
/// names the three tile types.
template <class TA, class TB, class TC>
constexpr void check_mma() {
  constexpr MmaProblem p = mma_problem<TA, TB, TC>();
  if constexpr (p == MmaProblem::Rank)
    static_assert(false_for_types<TA, TB, TC>,
                  "tile::mma and tile::matmul take rank-2 tiles (M x K times K x N, accumulator "
                  "M x N) or batched rank-3 tiles (B x M x K times B x K x N, accumulator B x M x N)");
  else if constexpr (p == MmaProblem::InputType)
    static_assert(false_for_types<TA, TB, TC>,
                  "tile::mma and tile::matmul: the input tiles must hold f16, bf16, f8e4m3, "
                  "f8e5m2 or float; convert them with tile::cast<U>(t)");
  else if constexpr (p == MmaProblem::MixedInputs)
    static_assert(false_for_types<TA, TB, TC>,
                  "tile::mma and tile::matmul: both input tiles must have the same element type "
                  "(or both an f8 type); convert one with tile::cast<U>(t)");
  else if constexpr (p == MmaProblem::AccumulatorType)
    static_assert(false_for_types<TA, TB, TC>,
                  "tile::mma: the accumulator must be a float tile (the tensor cores accumulate "
                  "in float); convert the result with tile::cast<U>(t)");
  else if constexpr (p == MmaProblem::Inner)
    static_assert(false_for_types<TA, TB, TC>,
                  "tile::mma and tile::matmul: the inner dimensions differ: a's last dimension "
                  "(K of M x K) must equal b's second-to-last (K of K x N)");
  else if constexpr (p == MmaProblem::Batch)
    static_assert(false_for_types<TA, TB, TC>,
                  "tile::mma and tile::matmul: the batch dimensions differ: batched a and b "
                  "(B x M x K and B x K x N) must have the same first dimension B");
  else if constexpr (p == MmaProblem::AccumulatorShape)
    static_assert(false_for_types<TA, TB, TC>,
                  "tile::mma: the accumulator must have the shape of the product, M x N "
                  "(B x M x N batched) for a of M x K and b of K x N");
}

/// out += a x b batch by batch, in float, each out[m][n] adding its products in increasing k.
template <class TA, class TB, class TC>
constexpr void mma_accumulate(const TA& a, const TB& b, TC& out) {
  constexpr int r = TA::rank;
  constexpr int64_t batches = r == 3 ? TA::shape[0] : 1;
  constexpr int64_t M = dim_from_end(TA::shape, 2);
  constexpr int64_t K = dim_from_end(TA::shape, 1);
  constexpr int64_t N = dim_from_end(TB::shape, 1);
  const auto& x = TileAccess::storage(a);
  const auto& y = TileAccess::storage(b);
  auto& o = TileAccess::storage(out);
  const auto at = [](int64_t i) { return static_cast<std::size_t>(i); };
  for (int64_t bt = 0; bt < batches; ++bt)
    for (int64_t m = 0; m < M; ++m) {
      float* row = o.data() + at((bt * M + m) * N);
      // k outermost: every row[n] still receives its products in increasing k.
      for (int64_t k = 0; k < K; ++k) {
        const float xv = mma_operand(x[at((bt * M + m) * K + k)]);
        const auto* yrow = y.data() + at((bt * K + k) * N);
        for (int64_t n = 0; n < N; ++n) {
          const float p = xv * mma_operand(yrow[n]);  // exact (see the header comment)
          row[n] += p;
        }
      }
    }
}

/// The shape of matmul(a, b): M x N, or B x M x N for rank-3 a. For tiles tile::matmul rejects,
/// still some valid tile shape, so that the one static_assert is the only error.
template <class TA, class TB>
constexpr auto matmul_shape() {
  if constexpr (TA::rank == 3)
    return std::array<int64_t, 3>{TA::shape[0], TA::shape[1], dim_from_end(TB::shape, 1)};
  else
    return std::array<int64_t, 2>{TA::rank >= 2 ? dim_from_end(TA::shape, 2) : TA::shape[0],
                                  dim_from_end(TB::shape, 1)};
}
template <class TA, class TB>
using matmul_result_t = tile_of_t<float, matmul_shape<TA, TB>()>;

}  // namespace detail

/// acc + a x b on tensor cores: a is M x K, b is K x N (f16, bf16, f8, or float rounded to TF32),
/// acc and the result are float M x N; rank 3 multiplies B batches. See the header comment.
template <class A, int... SA, class B, int... SB, class C, int... SC>
constexpr Tile<C, SC...> mma(const Tile<A, SA...>& a, const Tile<B, SB...>& b, const Tile<C, SC...>& acc) {
  using TA = Tile<A, SA...>;
  using TB = Tile<B, SB...>;
  using TC = Tile<C, SC...>;
  detail::check_mma<TA, TB, TC>();
  TC out = acc;
  if constexpr (detail::mma_problem<TA, TB, TC>() == detail::MmaProblem::None)
    detail::mma_accumulate(a, b, out);
  return out;
}

/// a x b in float: mma(a, b, zeros<float, M, N>()), batched for rank-3 tiles.
template <class A, int... SA, class B, int... SB>
constexpr detail::matmul_result_t<Tile<A, SA...>, Tile<B, SB...>> matmul(const Tile<A, SA...>& a,
                                                                         const Tile<B, SB...>& b) {
  return mma(a, b, detail::matmul_result_t<Tile<A, SA...>, Tile<B, SB...>>());
}

}  // namespace tile
