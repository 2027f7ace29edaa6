// Programs that must not compile, one per CASE_* macro; CMakeLists.txt runs the compiler on
// each and checks that the diagnostic says what was wrong in tile terms.
#include <tile/tile.hpp>

using tile::dyn;
using tile::Tensor;
using tile::Tile;

#if defined(CASE_SHAPE_MISMATCH)
auto f(Tile<float, 128> a, Tile<float, 64> b) { return a + b; }
#elif defined(CASE_ELEMENT_MISMATCH)
auto f(Tile<float, 16> a, Tile<int32_t, 16> b) { return a * b; }
#elif defined(CASE_NOT_POWER_OF_TWO)
Tile<float, 100> t;
#elif defined(CASE_STORE_THROUGH_SHARED)
TILE_KERNEL void k(const Tensor<float, 128>& x) { x.store(x.load()); }
#elif defined(CASE_COPY_SHARED_VIEW)
TILE_KERNEL void k(const Tensor<float, 128>& x) {
  auto copy = x;
  copy.store(x.load());
}
#elif defined(CASE_LOAD_DYNAMIC_VIEW)
TILE_KERNEL void k(Tensor<float, dyn>& z) { auto t = z.load(); }
#elif defined(CASE_MOD_ON_FLOAT)
auto f(Tile<float, 8> a) { return a % a; }
#elif defined(CASE_MATH_ON_INTEGERS)
auto f(Tile<int32_t, 8> a) { return tile::exp(a); }
#elif defined(CASE_BROADCAST_INCOMPATIBLE)
auto f(Tile<float, 4, 8> a) { return tile::broadcast<4, 16>(a); }
#elif defined(CASE_RESHAPE_SIZE_MISMATCH)
auto f(Tile<float, 4, 8> a) { return tile::reshape<4, 4>(a); }
#elif defined(CASE_PERMUTE_NOT_PERMUTATION)
auto f(Tile<float, 2, 4, 8> a) { return tile::permute<0, 2, 2>(a); }
#elif defined(CASE_REDUCE_AXIS_OUT_OF_RANGE)
auto f(Tile<float, 4, 8> a) { return tile::sum<2>(a); }
#elif defined(CASE_SUM_OF_BOOL)
auto f(Tile<float, 8> a) { return tile::sum(a > 0.0f); }
#elif defined(CASE_MATMUL_INNER_MISMATCH)
auto f(Tile<tile::f16, 16, 32> a, Tile<tile::f16, 16, 8> b) { return tile::matmul(a, b); }
#elif defined(CASE_MMA_BATCH_MISMATCH)
auto f(Tile<float, 2, 16, 8> a, Tile<float, 4, 8, 16> b, Tile<float, 2, 16, 16> c) {
  return tile::mma(a, b, c);
}
#elif defined(CASE_MMA_ACCUMULATOR_SHAPE)
auto f(Tile<tile::bf16, 16, 8> a, Tile<tile::bf16, 8, 32> b, Tile<float, 16, 16> c) {
  return tile::mma(a, b, c);
}
#elif defined(CASE_MATMUL_INT32_INPUTS)
auto f(Tile<int32_t, 16, 16> a, Tile<int32_t, 16, 16> b) { return tile::matmul(a, b); }
#elif defined(CASE_MMA_DOUBLE_ACCUMULATOR)
auto f(Tile<tile::f16, 16, 16> a, Tile<tile::f16, 16, 16> b, Tile<double, 16, 16> c) {
  return tile::mma(a, b, c);
}
#elif defined(CASE_PARTITION_LVALUE)
void f() {
  auto a = tile::zeros<float>({8});
  a.partition<4>();
}
#elif defined(CASE_SYNC_LVALUE)
template <int B> TILE_KERNEL void inc(Tensor<float, B>& z) { z.store(z.load() + 1.0f); }
void f() {
  auto op = tile::launch<inc<4>>(tile::zeros<float>({8}).partition<4>());
  op.sync();
}
#elif defined(CASE_LAUNCH_PARTITION_LVALUE)
template <int B> TILE_KERNEL void inc(Tensor<float, B>& z) { z.store(z.load() + 1.0f); }
void f() {
  auto p = tile::zeros<float>({8}).partition<4>();
  (void)tile::launch<inc<4>>(p);
}
#elif defined(CASE_ATOMIC_LOAD)
TILE_KERNEL void k(tile::Atomic<float, 128>& a) { auto t = a.load(); }
#elif defined(CASE_ATOMIC_STORE)
TILE_KERNEL void k(tile::Atomic<float, 128>& a) { a.store(tile::zeros<float, 128>()); }
#elif defined(CASE_ATOMIC_MOVED_ARRAY)
TILE_KERNEL void k(tile::Atomic<float, dyn>& a) { a.atomic_add(1.0f, 0); }
void f() { (void)tile::launch<k>(tile::zeros<float>({8})); }
#elif defined(CASE_ATOMIC_CONST_ARRAY)
TILE_KERNEL void k(tile::Atomic<float, dyn>& a) { a.atomic_add(1.0f, 0); }
void f(const tile::Array<float>& a) { (void)tile::launch<k>(a); }
#elif defined(CASE_ATOMIC_CONST_PARAM)
TILE_KERNEL void k(const tile::Atomic<float, dyn>& a) {}
void f(tile::Array<float>& a) { (void)tile::launch<k>(a); }
#elif defined(CASE_MAX_OF_COMPLEX)
auto f(Tile<tile::complex<float>, 8> a) { return tile::max(a); }
#elif defined(CASE_LESS_ON_COMPLEX)
auto f(Tile<tile::complex<float>, 8> a, Tile<tile::complex<float>, 8> b) { return a < b; }
#elif defined(CASE_MIN_ON_COMPLEX)
auto f(Tile<tile::complex<float>, 8> a, Tile<tile::complex<float>, 8> b) { return tile::min(a, b); }
#elif defined(CASE_MATH_ON_COMPLEX)
auto f(Tile<tile::complex<float>, 8> a) { return tile::exp(a); }
#elif defined(CASE_COMPLEX_SCALAR_ON_REAL_TILE)
auto f(Tile<float, 8> a) { return a * tile::complex<float>(0.0f, 1.0f); }
#elif defined(CASE_MATMUL_COMPLEX_INPUTS)
auto f(Tile<tile::complex<float>, 16, 16> a, Tile<tile::complex<float>, 16, 16> b) { return tile::matmul(a, b); }
#elif defined(CASE_MMA_F8_WITH_F16)
auto f(Tile<tile::f8e4m3, 16, 32> a, Tile<tile::f16, 32, 16> b) { return tile::matmul(a, b); }
#elif defined(CASE_ATOMIC_F8)
TILE_KERNEL void k(tile::Atomic<tile::f8e4m3, dyn>& a) { a.atomic_add(tile::f8e4m3(1.0f), 0); }
#elif defined(CASE_ATOMIC_COMPLEX)
TILE_KERNEL void k(tile::Atomic<tile::complex<float>, dyn>& a) { a.atomic_exchange(tile::complex<float>(1.0f), 0); }
#elif defined(CASE_VIEW_OF_TEMPORARY)
void f() { auto v = tile::zeros<float>({8}).view(); }
#elif defined(CASE_SLICE_MUT_OF_TEMPORARY)
void f() { auto v = tile::zeros<float>({8}).slice_mut(0, 0, 4); }
#elif defined(CASE_VIEW_MUT_SLICE_LVALUE)
void f(tile::Array<float>& a) {
  auto v = a.view_mut();
  auto w = v.slice(0, 0, 4);
}
#elif defined(CASE_VIEW_MUT_TRANSPOSE_LVALUE)
void f(tile::Array<float>& a) {
  auto v = a.view_mut();
  auto w = v.transpose();
}
#elif defined(CASE_VIEW_MUT_PERMUTE_LVALUE)
void f(tile::Array<float>& a) {
  auto v = a.view_mut();
  auto w = v.permute({1, 0});
}
#elif defined(CASE_VIEW_MUT_PARTITION_LVALUE)
void f(tile::Array<float>& a) {
  auto v = a.view_mut();
  auto p = v.partition<4>();
}
#elif defined(CASE_LAUNCH_MUTABLE_VIEW)
template <int B> TILE_KERNEL void inc(Tensor<float, B>& z) { z.store(z.load() + 1.0f); }
void f(tile::Array<float>& a) { (void)tile::launch<inc<4>>(a.view_mut()); }
#elif defined(CASE_ATOMIC_VIEW)
TILE_KERNEL void k(tile::Atomic<float, dyn>& a) { a.atomic_add(1.0f, 0); }
void f(tile::Array<float>& a) { (void)tile::launch<k>(a.view()); }
#else
#error "no CASE_* selected"
#endif
