// device/tile_device.cuh - the device library of tilecc's generated CUDA.
//
// Every `.cu` file tilecc emits does `#include <device/tile_device.cuh>`; compile it with
// `-I<tilecc>/runtime -I<tilecc>/include` (the installed compiler adds both). Everything here
// lives in namespace `tile_dev` and is header-only.
//
// What the generated code relies on:
//  * `View<T, R>`: a tensor argument (data pointer, whole-array shape and strides in elements,
//    and the partition's tile shape `piece` for exclusive arguments), built on the host from
//    `tile::detail::ArgDesc` by `make_view`.
//  * `Grid`: the partition grid. The launch is 1-D over the product of its extents; program
//    coordinates are row-major (last axis fastest), recovered by `Grid::decompose`.
//  * `Linear<Shape, Threads, RegBases, ThreadBases>`: a tile layout the compiler chose, as the
//    row-major index each bit of a register's and of a thread's number adds.
//    Register `r` of a thread holds the element at `Thread<L>::coord(r, d)`; the compiler
//    numbers registers so that a vector access of `L::vec` elements along `L::fast` occupies
//    consecutive registers.
//  * `load` / `store`: masked global accesses of a whole distributed tile. Elements outside
//    [starts, bounds) read zero and are not written, exactly like the CPU reference. A tile
//    wholly inside its bounds (one test per access) moves without a test per element: each
//    thread moves its runs of `V` consecutive registers with one 16-byte (or narrower) access
//    when the view allows it along the fastest axis (`View::vector_bytes`, taken at launch)
//    and the offset is a multiple of `V` (proven by the compiler, `Aligned`, else tested once).
//    A tile cut by its bounds tests each vector and falls back to element accesses. In a
//    kernel specialized at launch, an access's `Fit` says what the launcher tested: `kFitWhole`
//    (the tile wholly inside or wholly outside, its vectors aligned) keeps only the first
//    path, `kFitRuns` (each run of V wholly inside or outside, an aligned vector) moves a cut
//    tile with one predicated vector access per run; either way nvcc reserves no registers
//    for a path per element. Loads from shared (read-only) views go through the
//    non-coherent read-only path. Where a layout replicates a tile, only the owning copy
//    stores.
//  * Scalar helpers for the ops of `arith`/`math` the generated code uses (`cvt`, `from_bits`,
//    `maximumf`, `exp`, ...), defined for float, double, `__half` and `__nv_bfloat16`.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda.h>
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include <tile/detail/abi.hpp>

#include "tile_wgmma.cuh"

namespace tile_dev {

/// complex<float> as tile::complex<float> lays it out: the real part, then the imaginary
/// part. The generated code computes on the parts (tile.real / tile.imag / tile.make_complex).
struct alignas(8) cfloat {
  float re, im;
};

#define TILE_DEV_HD __host__ __device__ __forceinline__
#define TILE_DEV_D __device__ __forceinline__

//===----------------------------------------------------------------------===//
// Compile-time integer lists and layouts
//===----------------------------------------------------------------------===//

/// A compile-time list of integers, one per tile axis.
template <int64_t... V>
struct Ix {
  static constexpr int size = sizeof...(V);
  TILE_DEV_HD static constexpr int64_t at(int i) {
    int64_t out = 0;
    int k = 0;
    ((out = (k++ == i ? V : out)), ...);
    return out;
  }
  TILE_DEV_HD static constexpr int64_t product() { return (int64_t(1) * ... * V); }
};

/// A tile layout as the compiler chose it (`tilegpu` layouts are linear layouts; see
/// tilecc/Layout/LinearLayout.h). `RegBases` lists the row-major index in the tile that each
/// bit of a register number adds, `ThreadBases` what each bit of a thread's number in its
/// program adds (the 5 lane bits, then the warp bits). The compiler only emits layouts whose
/// bases are disjoint bits, so an element's index is the sum of its register's and its
/// thread's. A zero thread basis means threads that differ in that bit hold copies; the copy
/// whose such bits are all zero owns the element (it stores it).
/// The XOR of the entries of `Bases` selected by the set bits of `x`: the image of `x` under
/// a linear map over GF(2) (a register's index in a tile, or a source register).
template <class Bases>
TILE_DEV_HD constexpr int64_t span(int64_t x) {
  int64_t flat = 0;
  for (int b = 0; b < Bases::size; ++b)
    if ((x >> b) & 1) flat ^= Bases::at(b);
  return flat;
}

namespace detail {
/// Elements of a tile of `Shape` after one step along axis d (row-major).
template <class Shape>
TILE_DEV_HD constexpr int64_t stride(int d) {
  int64_t s = 1;
  for (int k = d + 1; k < Shape::size; ++k) s *= Shape::at(k);
  return s;
}
template <class Shape, class RegBases>
TILE_DEV_HD constexpr int fast_axis() {
  int axis = Shape::size - 1;
  if constexpr (RegBases::size > 0)
    for (int d = 0; d < Shape::size; ++d)
      if (RegBases::at(0) == stride<Shape>(d)) {
        axis = d;
        break;
      }
  return axis;
}
template <class Shape, class RegBases>
TILE_DEV_HD constexpr int vector_run() {
  int b = 0;
  while (b < RegBases::size && RegBases::at(b) == (int64_t(1) << b) * stride<Shape>(fast_axis<Shape, RegBases>())) ++b;
  return 1 << b;
}
template <class Bases>
TILE_DEV_HD constexpr unsigned free_bits() {
  unsigned m = 0;
  for (int b = 0; b < Bases::size; ++b)
    if (Bases::at(b) == 0) m |= 1u << b;
  return m;
}
}  // namespace detail

template <class Shape, int Threads, class RegBases_, class ThreadBases_>
struct Linear {
  using RegBases = RegBases_;
  using ThreadBases = ThreadBases_;
  static constexpr int rank = Shape::size;
  static constexpr int elems = 1 << RegBases::size;
  static constexpr int num_threads = Threads;
  /// The axis register 1 steps along (the tile's last axis when a thread holds one element),
  /// and how many leading registers are consecutive along it: one vector access.
  static constexpr int fast = detail::fast_axis<Shape, RegBases>();
  static constexpr int vec = detail::vector_run<Shape, RegBases>();
  /// Bits of the thread number whose threads hold copies.
  static constexpr unsigned free_mask = detail::free_bits<ThreadBases>();
  static constexpr bool replicates = free_mask != 0;

  TILE_DEV_HD static constexpr int64_t shape(int d) { return Shape::at(d); }
  TILE_DEV_HD static constexpr int64_t stride(int d) { return detail::stride<Shape>(d); }
  /// Row-major index, and coordinate along axis d, of register r of thread 0.
  TILE_DEV_HD static constexpr int64_t reg_linear(int r) { return span<RegBases>(r); }
  TILE_DEV_HD static constexpr int64_t reg_coord(int r, int d) {
    return (reg_linear(r) / stride(d)) % shape(d);
  }
};

/// Where one thread's registers lie in a tile of layout L.
template <class L>
struct Thread {
  int64_t base[L::rank];  // this thread's offset along each axis
  int64_t base_linear;    // and in row-major order
  bool owner;             // false for a copy the layout replicates: it must not store

  TILE_DEV_D explicit Thread(unsigned tid) {
    int64_t flat = 0;
#pragma unroll
    for (int b = 0; b < L::ThreadBases::size; ++b)
      if ((tid >> b) & 1u) flat |= L::ThreadBases::at(b);
    base_linear = flat;
    owner = (tid & L::free_mask) == 0;
#pragma unroll
    for (int d = 0; d < L::rank; ++d) base[d] = (flat / L::stride(d)) % L::shape(d);
  }
  /// Coordinate along axis d (within the tile) of this thread's register r.
  TILE_DEV_D int64_t coord(int r, int d) const { return base[d] + L::reg_coord(r, d); }
  /// Row-major linear index within the tile of register r.
  TILE_DEV_D int64_t linear(int r) const { return base_linear + L::reg_linear(r); }
};

//===----------------------------------------------------------------------===//
// Kernel arguments
//===----------------------------------------------------------------------===//

/// A tensor argument: the whole array, plus the partition's tile shape for exclusive pieces.
template <class T, int R>
struct View {
  T* data;
  int64_t shape[R];
  int64_t strides[R];
  int64_t piece[R];
  /// Per axis: the widest access in bytes (a power of two, at most 16) that is aligned at
  /// every element whose coordinate along that axis is a multiple of the access width, when
  /// the axis has stride 1; 0 otherwise. Taken once per launch from the data pointer and the
  /// other axes' strides.
  int8_t vector_bytes[R];
};

template <class T, int R>
inline View<T, R> make_view(const tile::detail::ArgDesc& a) {
  View<T, R> v{};
  v.data = static_cast<T*>(a.data);
  for (int d = 0; d < R; ++d) {
    v.shape[d] = a.shape[d];
    v.strides[d] = a.strides[d];
    v.piece[d] = a.piece[d];
  }
  for (int f = 0; f < R; ++f) {
    uint64_t bits = reinterpret_cast<uintptr_t>(v.data) | 16u;
    for (int d = 0; d < R; ++d)
      if (d != f) bits |= uint64_t(v.strides[d]) * sizeof(T);
    v.vector_bytes[f] = v.strides[f] == 1 ? int8_t(bits & (~bits + 1)) : int8_t(0);
  }
  return v;
}

/// A rank-R tile moving through a rank-N view (R < N) spans the view's last R axes and is one
/// element thick along the others, at its offsets there. `trailing` gives the rank-R view the
/// tile moves in (advanced along the leading axes; the vector alignment of its axes is the
/// whole view's, which every leading offset keeps) with the tile's offsets and bounds along
/// the last R axes; a tile outside the leading axes' bounds gets empty bounds, so that it
/// reads zeros and stores nothing.
template <class T, int R>
struct TrailingAccess {
  View<T, R> view;
  int64_t off[R], lo[R], hi[R];
};

template <int R, class T, int N>
TILE_DEV_D TrailingAccess<T, R> trailing(const View<T, N>& v, const int64_t (&off)[N],
                                         const int64_t (&lo)[N], const int64_t (&hi)[N]) {
  static_assert(R >= 1 && R < N, "tilecc: a trailing access has a lower rank than its view");
  constexpr int lead = N - R;
  bool inside = true;
  int64_t lin = 0;
#pragma unroll
  for (int d = 0; d < lead; ++d) {
    inside = inside && off[d] >= lo[d] && off[d] < hi[d];
    lin += off[d] * v.strides[d];
  }
  TrailingAccess<T, R> a;
  a.view.data = v.data + (inside ? lin : 0);
#pragma unroll
  for (int d = 0; d < R; ++d) {
    a.view.shape[d] = v.shape[lead + d];
    a.view.strides[d] = v.strides[lead + d];
    a.view.piece[d] = v.piece[lead + d];
    a.view.vector_bytes[d] = v.vector_bytes[lead + d];
    a.off[d] = off[lead + d];
    a.lo[d] = lo[lead + d];
    a.hi[d] = inside ? hi[lead + d] : lo[lead + d];
  }
  return a;
}

/// Facts of a launch's arguments that a kernel specialized by tile-specialize-launch needs:
/// the array extent along `axis` is a multiple of `n`; the view allows `bytes`-byte vectors
/// along `axis`.
template <class T, int R>
inline bool extent_divisible(const View<T, R>& v, int axis, int64_t n) {
  return v.shape[axis] % n == 0;
}
template <class T, int R>
inline bool allows_vectors(const View<T, R>& v, int axis, int bytes) {
  return v.vector_bytes[axis] >= bytes;
}

/// What the launch guarantees about an access (the instance `Fit_` of a specialized kernel):
/// nothing, that each thread's runs of V elements are aligned vectors wholly inside or wholly
/// outside the bounds, or that the whole tile is (and its runs aligned vectors).
constexpr int kFitAny = 0, kFitRuns = 1, kFitWhole = 2;
/// The fit of an access proven for runs alone, or for whole tiles alone, in instance `fit`.
__host__ __device__ constexpr int fit_runs(int fit) { return fit < kFitRuns ? fit : kFitRuns; }
__host__ __device__ constexpr int fit_whole(int fit) { return fit == kFitWhole ? fit : kFitAny; }

/// Division of any n < 2^31 by a fixed d >= 1 as a multiply and a shift: with l = ceil(log2 d)
/// and m = ceil(2^(31+l) / d) (which fits 32 bits), floor(n / d) = (n * m) >> (31 + l), since
/// the error m * d - 2^(31+l) < d <= 2^l keeps n * m / 2^(31+l) below floor(n / d) + 1.
struct Divisor {
  uint32_t d = 1, m = 0x80000000u, shift = 31;
  static Divisor of(uint32_t d) {
    Divisor v;
    v.d = d;
    uint32_t l = 0;
    while ((uint64_t(1) << l) < d) ++l;
    v.m = uint32_t(((uint64_t(1) << (31 + l)) + d - 1) / d);
    v.shift = 31 + l;
    return v;
  }
  TILE_DEV_HD uint32_t quotient(uint32_t n) const { return uint32_t((uint64_t(n) * m) >> shift); }
};

/// The partition grid of a launch (row-major, last axis fastest).
struct Grid {
  int32_t rank;
  int64_t extent[tile::detail::kMaxRank];
  const int32_t* map;  // program -> tile coordinates of a mapped partition, or null
  tile::detail::CheckRecord* checks;  // where a failed tile::check is reported, or null
  /// Fewer than 2^31 programs and no map: program coordinates come from `divisor` in 32 bits.
  bool narrow;
  Divisor divisor[tile::detail::kMaxRank];

  /// The number of programs. Extents past the rank are 1, so the product runs over all
  /// kMaxRank axes with constant indices (a dynamic index would copy the kernel parameter to
  /// local memory).
  TILE_DEV_HD int64_t size() const {
    int64_t n = 1;
#pragma unroll
    for (int d = 0; d < tile::detail::kMaxRank; ++d) n *= extent[d];
    return n;
  }
  TILE_DEV_HD int64_t num_blocks(int axis) const { return axis < rank ? extent[axis] : 1; }
  /// The linear program a persistent block visits `k`-th in a grouped order: for a grid of
  /// rank 2, bands of `Group` grid rows taken column by column, so that the programs running
  /// at once share a few rows of tiles of one operand and columns of the other (in L2); for
  /// other ranks, `k` itself. A permutation of [0, size()).
  template <int Rank, int Group>
  TILE_DEV_D int64_t grouped(int64_t k) const {
    if constexpr (Rank != 2) {
      return k;
    } else {
      const int64_t cols = extent[1];
      const int64_t first = k / (Group * cols) * Group;
      const int64_t height = extent[0] - first < Group ? extent[0] - first : Group;
      const int64_t in = k - first * cols;
      return (first + in % height) * cols + in / height;
    }
  }
  /// Program `linear`'s coordinate along `axis`.
  template <int Rank = 0>
  TILE_DEV_D int64_t coord(int64_t linear, int axis) const {
    int64_t id[tile::detail::kMaxRank];
    decompose<Rank>(linear, id);
    return id[axis];
  }
  /// Program coordinates of linear program `linear` (its tile's, for a mapped partition);
  /// axes past the grid's rank read 0. `Rank`, when the kernel knows it (the rank of its
  /// exclusive pieces), is the grid's rank: only its axes are computed, and the outermost
  /// coordinate is what the inner axes leave (linear < size()).
  template <int Rank = 0>
  TILE_DEV_D void decompose(int64_t linear, int64_t (&id)[tile::detail::kMaxRank]) const {
    if constexpr (Rank > 0) {
      static_assert(Rank <= tile::detail::kMaxRank, "tilecc: grid rank beyond the ABI's");
#pragma unroll
      for (int d = Rank; d < tile::detail::kMaxRank; ++d) id[d] = 0;
      if (map) {
#pragma unroll
        for (int d = 0; d < Rank; ++d) id[d] = map[linear * Rank + d];
      } else if (narrow) {
        uint32_t n = uint32_t(linear);
#pragma unroll
        for (int d = Rank - 1; d > 0; --d) {
          const uint32_t q = divisor[d].quotient(n);
          id[d] = int64_t(n - q * divisor[d].d);
          n = q;
        }
        id[0] = n;
      } else {
#pragma unroll
        for (int d = Rank - 1; d > 0; --d) {
          id[d] = linear % extent[d];
          linear /= extent[d];
        }
        id[0] = linear;
      }
      return;
    }
    if (narrow) {
      uint32_t n = uint32_t(linear);
#pragma unroll
      for (int d = tile::detail::kMaxRank - 1; d >= 0; --d) {
        const uint32_t q = divisor[d].quotient(n);
        id[d] = d < rank ? int64_t(n - q * divisor[d].d) : 0;
        n = d < rank ? q : n;
      }
      return;
    }
    if (map) {
#pragma unroll
      for (int d = 0; d < tile::detail::kMaxRank; ++d) id[d] = d < rank ? map[linear * rank + d] : 0;
      return;
    }
#pragma unroll
    for (int d = tile::detail::kMaxRank - 1; d >= 0; --d) {
      if (d < rank) {
        id[d] = rank == 1 ? linear : linear % extent[d];
        linear = rank == 1 ? 0 : linear / extent[d];
      } else {
        id[d] = 0;
      }
    }
  }
};

inline Grid make_grid(const tile::detail::LaunchArgs& a) {
  Grid g{};
  g.rank = a.grid_rank < 1 ? 1 : a.grid_rank;
  for (int d = 0; d < tile::detail::kMaxRank; ++d) g.extent[d] = d < a.grid_rank ? a.grid[d] : 1;
  g.map = a.program_map;
  g.checks = a.checks;
  g.narrow = !g.map && g.size() < (int64_t(1) << 31);
  for (int d = 0; d < tile::detail::kMaxRank; ++d)
    if (g.narrow && g.extent[d] >= 1) g.divisor[d] = Divisor::of(uint32_t(g.extent[d]));
  return g;
}

/// The multiprocessors of the current device (a persistent kernel's launch starts as many
/// blocks as they hold at once). Read once per device.
inline int64_t multiprocessors() {
  constexpr int kDevices = 64;
  static std::atomic<int> count[kDevices];
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0) {
    (void)cudaGetLastError();
    return 1;
  }
  if (device < kDevices)
    if (int n = count[device].load(std::memory_order_relaxed); n > 0) return n;
  int n = 0;
  if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || n < 1) {
    (void)cudaGetLastError();
    n = 1;
  }
  if (device < kDevices) count[device].store(n, std::memory_order_relaxed);
  return n;
}

/// True when tensor argument `a` has stride 1 along `axis` (a launcher's test for a kernel
/// version whose operand stages run along that axis).
inline bool unit_stride(const tile::detail::ArgDesc& a, int axis) {
  return axis < a.rank && a.strides[axis] == 1;
}

/// A scalar argument: the C++ parameter type `C` as stored by the runtime, converted to the
/// kernel's register type `K` (a value conversion between arithmetic types, else the bits).
template <class K, class C>
inline K scalar_arg(const tile::detail::ArgDesc& a) {
  C c = a.scalar_as<C>();
  if constexpr (std::is_arithmetic_v<C> && std::is_arithmetic_v<K>) {
    return static_cast<K>(c);
  } else {
    static_assert(sizeof(K) == sizeof(C), "tilecc: scalar argument size mismatch");
    K k;
    std::memcpy(&k, &c, sizeof(K));
    return k;
  }
}

//===----------------------------------------------------------------------===//
// Global memory access
//===----------------------------------------------------------------------===//

namespace detail {
template <int Bytes> struct Bits;
template <> struct Bits<1> { using type = unsigned char; };
template <> struct Bits<2> { using type = unsigned short; };
template <> struct Bits<4> { using type = unsigned int; };
template <> struct Bits<8> { using type = uint2; };
template <> struct Bits<16> { using type = uint4; };

/// The register type of one V-element access of T: float4/float2 for float (so the PTX reads
/// as `.v4.f32`), otherwise raw bits of the same size.
template <class T, int V> struct Vec { using type = typename Bits<int(sizeof(T)) * V>::type; };
template <> struct Vec<float, 4> { using type = float4; };
template <> struct Vec<float, 2> { using type = float2; };
template <> struct Vec<double, 2> { using type = double2; };

template <bool NC, class U>
TILE_DEV_D U read(const U* p) {
  if constexpr (NC) return __ldg(p);
  else return *p;
}

/// read<NC>(p) where `in`, else zeros. A read-only (NC) access of 4, 8 or 16 bytes is one
/// predicated load into registers zeroed first, as the hardware allows, so no branch splits
/// the registers it fills.
template <bool NC, class U>
TILE_DEV_D U read_or_zero(const U* p, bool in) {
  if constexpr (NC && (sizeof(U) == 4 || sizeof(U) == 8 || sizeof(U) == 16)) {
    unsigned w[4] = {0u, 0u, 0u, 0u};
    if constexpr (sizeof(U) == 16)
      asm("{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n"
          " @p ld.global.nc.v4.b32 {%0, %1, %2, %3}, [%5];\n}"
          : "+r"(w[0]), "+r"(w[1]), "+r"(w[2]), "+r"(w[3])
          : "r"(int(in)), "l"(p));
    else if constexpr (sizeof(U) == 8)
      asm("{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n"
          " @p ld.global.nc.v2.b32 {%0, %1}, [%3];\n}"
          : "+r"(w[0]), "+r"(w[1])
          : "r"(int(in)), "l"(p));
    else
      asm("{\n .reg .pred p;\n setp.ne.b32 p, %1, 0;\n @p ld.global.nc.b32 %0, [%2];\n}"
          : "+r"(w[0])
          : "r"(int(in)), "l"(p));
    U u;
    memcpy(&u, w, sizeof(U));
    return u;
  } else {
    return in ? read<NC>(p) : U{};
  }
}

template <bool NC, class T>
TILE_DEV_D T read_elem(const T* p) {
  if constexpr (NC && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8)) {
    using B = std::conditional_t<sizeof(T) == 8, unsigned long long,
                                 typename Bits<int(sizeof(T))>::type>;
    B b = __ldg(reinterpret_cast<const B*>(p));
    T t;
    memcpy(&t, &b, sizeof(T));
    return t;
  } else {
    return *p;
  }
}

template <int Bytes>
TILE_DEV_D bool aligned(const void* p) {
  return (reinterpret_cast<uintptr_t>(p) & uintptr_t(Bytes - 1)) == 0;
}

/// Whether the whole tile of layout L at `off` lies inside [lo, hi) on every axis.
template <class L, int R>
TILE_DEV_D bool inside(const int64_t (&off)[R], const int64_t (&lo)[R], const int64_t (&hi)[R]) {
  bool in = true;
#pragma unroll
  for (int d = 0; d < R; ++d) in = in && off[d] >= lo[d] && off[d] + L::shape(d) <= hi[d];
  return in;
}

/// Whether the run of this thread starting at register r0 lies inside [lo, hi), for runs
/// known to lie wholly inside or wholly outside (its first element decides).
template <class L, int R>
TILE_DEV_D bool run_inside(const Thread<L>& t, int r0, const int64_t (&off)[R],
                           const int64_t (&lo)[R], const int64_t (&hi)[R]) {
  bool in = true;
#pragma unroll
  for (int d = 0; d < R; ++d) {
    const int64_t c = off[d] + t.coord(r0, d);
    in = in && c >= lo[d] && c < hi[d];
  }
  return in;
}

/// Whether every V-element run of a tile at `off` is an aligned vector access: the view allows
/// V * sizeof(T) bytes along axis F, and the offset along F is a multiple of V (proven by the
/// compiler when Aligned; the layout starts every run at a multiple of V within the tile).
template <int V, bool Aligned, int F, class T, int R>
TILE_DEV_D bool vectors_aligned(const View<T, R>& v, const int64_t (&off)[R]) {
  return v.vector_bytes[F] >= int(sizeof(T) * V) && (Aligned || (off[F] & (V - 1)) == 0);
}

/// This thread's element of coordinate `off + base` in the view.
template <class L, class T, int R>
TILE_DEV_D T* thread_origin(const View<T, R>& v, const Thread<L>& t, const int64_t (&off)[R]) {
  int64_t lin = 0;
#pragma unroll
  for (int d = 0; d < R; ++d) lin += (off[d] + t.base[d]) * v.strides[d];
  return v.data + lin;
}

/// Register r's element relative to thread_origin (UnitFast: the fast axis has stride 1).
template <class L, bool UnitFast, class T, int R>
TILE_DEV_D int64_t reg_offset(const View<T, R>& v, int r) {
  int64_t lin = 0;
#pragma unroll
  for (int d = 0; d < R; ++d)
    lin += L::reg_coord(r, d) * (UnitFast && d == L::fast ? int64_t(1) : v.strides[d]);
  return lin;
}

/// Reads this thread's registers of a tile wholly inside its bounds, from its origin p0: with
/// one aligned V-element access per run (Vectors), or element by element; zeros where `in` is
/// false (a tile wholly outside). The zeros are chosen per access, so that narrow elements stay
/// packed in the registers the accesses fill.
template <int V, bool NC, bool Vectors, class L, class T, int R>
TILE_DEV_D void read_inside(T (&dst)[L::elems], const View<T, R>& v, const T* p0,
                            bool in = true) {
  if constexpr (Vectors) {
    using VT = typename Vec<T, V>::type;
#pragma unroll
    for (int r0 = 0; r0 < L::elems; r0 += V) {
      VT raw = read_or_zero<NC>(reinterpret_cast<const VT*>(p0 + reg_offset<L, true>(v, r0)), in);
      memcpy(&dst[r0], &raw, sizeof(VT));
    }
  } else {
#pragma unroll
    for (int r = 0; r < L::elems; ++r)
      dst[r] = in ? read_elem<NC>(p0 + reg_offset<L, false>(v, r)) : T{};
  }
}

/// Writes this thread's registers of a tile wholly inside its bounds, as read_inside reads.
template <int V, bool Vectors, class L, class T, int R>
TILE_DEV_D void write_inside(const View<T, R>& v, T* p0, const T (&src)[L::elems]) {
  if constexpr (Vectors) {
    using VT = typename Vec<T, V>::type;
#pragma unroll
    for (int r0 = 0; r0 < L::elems; r0 += V) {
      VT raw;
      memcpy(&raw, &src[r0], sizeof(VT));
      *reinterpret_cast<VT*>(p0 + reg_offset<L, true>(v, r0)) = raw;
    }
  } else {
#pragma unroll
    for (int r = 0; r < L::elems; ++r) p0[reg_offset<L, false>(v, r)] = src[r];
  }
}
}  // namespace detail

/// Loads the tile at `off` of view `v` into this thread's registers `dst`: element (off + c)
/// when starts <= off + c < bounds on every axis, else zero. NC: the view is read-only for the
/// whole kernel (shared), so the non-coherent cache path may be used. Fit (what the launch
/// guarantees, tile-specialize-launch): kFitWhole, the tile is wholly inside or wholly outside
/// its bounds and its vectors aligned, so only that is tested; kFitRuns, each run is, so each
/// run is one predicated vector read.
template <int V, bool NC, bool Aligned = false, int Fit = kFitAny, class L, class T, int R>
TILE_DEV_D void load(T (&dst)[L::elems], const View<T, R>& v, const Thread<L>& t,
                     const int64_t (&off)[R], const int64_t (&lo)[R], const int64_t (&hi)[R]) {
  static_assert(L::rank == R, "tilecc: tile and view ranks differ");
  constexpr int f = L::fast;
  static_assert(V >= 1 && L::vec % V == 0, "tilecc: vector width must divide the register run");
  constexpr bool can_vec = V > 1 && (sizeof(T) * V == 2 || sizeof(T) * V == 4 ||
                                     sizeof(T) * V == 8 || sizeof(T) * V == 16);
  if constexpr (Fit == kFitWhole) {
    detail::read_inside<V, NC, can_vec, L>(dst, v, detail::thread_origin(v, t, off),
                                           detail::inside<L>(off, lo, hi));
    return;
  }
  if constexpr (Fit == kFitRuns && can_vec) {
    using VT = typename detail::Vec<T, V>::type;
    const T* p0 = detail::thread_origin(v, t, off);
#pragma unroll
    for (int r0 = 0; r0 < L::elems; r0 += V) {
      VT raw = detail::read_or_zero<NC>(
          reinterpret_cast<const VT*>(p0 + detail::reg_offset<L, true>(v, r0)),
          detail::run_inside<L>(t, r0, off, lo, hi));
      memcpy(&dst[r0], &raw, sizeof(VT));
    }
    return;
  }
  if (detail::inside<L>(off, lo, hi)) {  // the common case: no element needs a test
    const T* p0 = detail::thread_origin(v, t, off);
    if constexpr (can_vec) {
      if (detail::vectors_aligned<V, Aligned, f>(v, off)) {
        detail::read_inside<V, NC, true, L>(dst, v, p0);
        return;
      }
    }
    detail::read_inside<V, NC, false, L>(dst, v, p0);
    return;
  }
  const int64_t sf = v.strides[f];
#pragma unroll
  for (int r0 = 0; r0 < L::elems; r0 += V) {
    int64_t c[R];
    int64_t lin = 0;
    bool ok = true;
#pragma unroll
    for (int d = 0; d < R; ++d) {
      c[d] = off[d] + t.coord(r0, d);
      if (d != f) ok = ok && c[d] >= lo[d] && c[d] < hi[d];
      lin += c[d] * v.strides[d];
    }
    const T* p = v.data + lin;
    if (ok && c[f] >= lo[f] && c[f] + V <= hi[f]) {
      if constexpr (can_vec) {
        using VT = typename detail::Vec<T, V>::type;
        if (sf == 1 && detail::aligned<int(sizeof(VT))>(p)) {
          VT raw = detail::read<NC>(reinterpret_cast<const VT*>(p));
          memcpy(&dst[r0], &raw, sizeof(VT));
          continue;
        }
      }
#pragma unroll
      for (int e = 0; e < V; ++e) dst[r0 + e] = detail::read_elem<NC>(p + e * sf);
    } else {
#pragma unroll
      for (int e = 0; e < V; ++e) {
        const int64_t ce = c[f] + e;
        dst[r0 + e] = (ok && ce >= lo[f] && ce < hi[f]) ? detail::read_elem<NC>(p + e * sf) : T{};
      }
    }
  }
}

/// Stores this thread's registers `src` of the tile at `off` of view `v`, dropping elements
/// outside [starts, bounds). Copies a replicating layout does not own do not store.
template <int V, bool Aligned = false, int Fit = kFitAny, class L, class T, int R>
TILE_DEV_D void store(const View<T, R>& v, const Thread<L>& t, const T (&src)[L::elems],
                      const int64_t (&off)[R], const int64_t (&lo)[R], const int64_t (&hi)[R]) {
  static_assert(L::rank == R, "tilecc: tile and view ranks differ");
  constexpr int f = L::fast;
  static_assert(V >= 1 && L::vec % V == 0, "tilecc: vector width must divide the register run");
  constexpr bool can_vec = V > 1 && (sizeof(T) * V == 2 || sizeof(T) * V == 4 ||
                                     sizeof(T) * V == 8 || sizeof(T) * V == 16);
  if (L::replicates && !t.owner) return;
  if constexpr (Fit == kFitWhole) {
    if (detail::inside<L>(off, lo, hi))
      detail::write_inside<V, can_vec, L>(v, detail::thread_origin(v, t, off), src);
    return;
  }
  if constexpr (Fit == kFitRuns && can_vec) {
    using VT = typename detail::Vec<T, V>::type;
    T* p0 = detail::thread_origin(v, t, off);
#pragma unroll
    for (int r0 = 0; r0 < L::elems; r0 += V)
      if (detail::run_inside<L>(t, r0, off, lo, hi)) {
        VT raw;
        memcpy(&raw, &src[r0], sizeof(VT));
        *reinterpret_cast<VT*>(p0 + detail::reg_offset<L, true>(v, r0)) = raw;
      }
    return;
  }
  if (detail::inside<L>(off, lo, hi)) {  // the common case: no element needs a test
    T* p0 = detail::thread_origin(v, t, off);
    if constexpr (can_vec) {
      if (detail::vectors_aligned<V, Aligned, f>(v, off)) {
        detail::write_inside<V, true, L>(v, p0, src);
        return;
      }
    }
    detail::write_inside<V, false, L>(v, p0, src);
    return;
  }
  const int64_t sf = v.strides[f];
#pragma unroll
  for (int r0 = 0; r0 < L::elems; r0 += V) {
    int64_t c[R];
    int64_t lin = 0;
    bool ok = true;
#pragma unroll
    for (int d = 0; d < R; ++d) {
      c[d] = off[d] + t.coord(r0, d);
      if (d != f) ok = ok && c[d] >= lo[d] && c[d] < hi[d];
      lin += c[d] * v.strides[d];
    }
    T* p = v.data + lin;
    if (ok && c[f] >= lo[f] && c[f] + V <= hi[f]) {
      if constexpr (can_vec) {
        using VT = typename detail::Vec<T, V>::type;
        if (sf == 1 && detail::aligned<int(sizeof(VT))>(p)) {
          VT raw;
          memcpy(&raw, &src[r0], sizeof(VT));
          *reinterpret_cast<VT*>(p) = raw;
          continue;
        }
      }
#pragma unroll
      for (int e = 0; e < V; ++e) p[e * sf] = src[r0 + e];
    } else {
#pragma unroll
      for (int e = 0; e < V; ++e) {
        const int64_t ce = c[f] + e;
        if (ok && ce >= lo[f] && ce < hi[f]) p[e * sf] = src[r0 + e];
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Exchanging elements between threads: warp shuffles and shared memory
//===----------------------------------------------------------------------===//
//
// Ops that move elements between threads (reductions, scans, broadcast, reshape, permute, cat,
// extract) stage a whole tile in the kernel's dynamic shared memory at an offset the compiler
// planned (`--emit=smem-plan`): every owning thread writes its registers at their row-major
// index, the block synchronises, and every thread reads the elements its result registers
// need. The generated code synchronizes between the writes and the reads, and before the
// writes unless the compiler proved the bytes free (tilegpu-place-barriers).

/// The kernel's dynamic shared memory.
TILE_DEV_D unsigned char* shared_base() {
  extern __shared__ __align__(1024) unsigned char tile_dev_smem[];
  return tile_dev_smem;
}

/// Element pointer at byte offset `off` of the dynamic shared memory.
template <class T>
TILE_DEV_D T* shared_at(int64_t off) {
  return reinterpret_cast<T*>(shared_base() + off);
}

/// Writes a tile's elements at their row-major indices (owners only).
template <class L, class T>
TILE_DEV_D void to_shared(T* s, const Thread<L>& t, const T (&src)[L::elems]) {
  if (L::replicates && !t.owner) return;
#pragma unroll
  for (int r = 0; r < L::elems; ++r) s[t.linear(r)] = src[r];
}

/// The bits of `x` that `mask` selects, packed toward bit 0 (a reduction's key, or a warp's
/// position along the reduced axis).
TILE_DEV_HD constexpr int compress(unsigned x, unsigned mask) {
  int out = 0, k = 0;
#pragma unroll
  for (int b = 0; b < 32; ++b)
    if ((mask >> b) & 1u) out |= int((x >> b) & 1u) << k++;
  return out;
}

namespace detail {
/// `x` of any element type moved as 32-bit words, each by `move` (a warp shuffle).
template <class T, class F>
TILE_DEV_D T shuffle_words(T x, F move) {
  constexpr int n = int((sizeof(T) + 3) / 4);
  unsigned w[n] = {};
  memcpy(w, &x, sizeof(T));
#pragma unroll
  for (int k = 0; k < n; ++k) w[k] = move(w[k]);
  memcpy(&x, w, sizeof(T));
  return x;
}
} // namespace detail

/// `x` from the lane `lane ^ mask` of this warp.
template <class T>
TILE_DEV_D T shfl_xor(T x, int mask) {
  return detail::shuffle_words(x, [&](unsigned w) { return __shfl_xor_sync(0xffffffffu, w, mask); });
}

/// `x` from lane `from` of this warp (every lane of the warp takes part).
template <class T>
TILE_DEV_D T shfl(T x, int from) {
  return detail::shuffle_words(x, [&](unsigned w) { return __shfl_sync(0xffffffffu, w, from); });
}

/// Row-major index in the source of the element a broadcast puts at result register r
/// (shapes aligned from the right; size-1 source axes repeat).
template <class Src, class L>
TILE_DEV_D int64_t broadcast_index(const Thread<L>& t, int r) {
  constexpr int lead = L::rank - Src::size;
  int64_t lin = 0;
#pragma unroll
  for (int k = 0; k < Src::size; ++k)
    lin = lin * Src::at(k) + (Src::at(k) == 1 ? 0 : t.coord(r, lead + k));
  return lin;
}

/// Row-major index in the source of result register r of a permutation (result axis k is
/// source axis Perm[k]).
template <class Src, class Perm, class L>
TILE_DEV_D int64_t permute_index(const Thread<L>& t, int r) {
  int64_t c[L::rank];
#pragma unroll
  for (int k = 0; k < L::rank; ++k) c[Perm::at(k)] = t.coord(r, k);
  int64_t lin = 0;
#pragma unroll
  for (int k = 0; k < L::rank; ++k) lin = lin * Src::at(k) + c[k];
  return lin;
}

/// Index of result register r of `cat<Axis>(a, b)` in a buffer holding a then b (each of
/// shape Src, row-major).
template <class Src, int Axis, class L>
TILE_DEV_D int64_t cat_index(const Thread<L>& t, int r) {
  int64_t lin = 0, which = 0;
#pragma unroll
  for (int k = 0; k < L::rank; ++k) {
    int64_t c = t.coord(r, k);
    if (k == Axis && c >= Src::at(k)) {
      which = 1;
      c -= Src::at(k);
    }
    lin = lin * Src::at(k) + c;
  }
  return which * Src::product() + lin;
}

/// Row-major source index of result register r of `extract` at sub-tile `index`, or -1 where
/// it falls outside the source.
template <class Src, class L>
TILE_DEV_D int64_t extract_index(const Thread<L>& t, int r, const int64_t (&index)[L::rank]) {
  int64_t lin = 0;
  bool inside = true;
#pragma unroll
  for (int k = 0; k < L::rank; ++k) {
    const int64_t c = index[k] * L::shape(k) + t.coord(r, k);
    inside = inside && c >= 0 && c < Src::at(k);
    lin = lin * Src::at(k) + c;
  }
  return inside ? lin : -1;
}

//===----------------------------------------------------------------------===//
// Matrix multiply-accumulate on tensor cores (mma.sync, sm_80 and later)
//===----------------------------------------------------------------------===//
//
// `mma_shared` computes C += A x B for row-major [Batch x] M x K and K x N inputs and an
// M x N float accumulator, all staged in shared memory; C is updated in place. The output is
// cut into 16 x 8 tiles, dealt to the warps in turn; each warp runs `mma.sync` m16n8k16
// (f16, bf16) or m16n8k8 (TF32 for float inputs) over K, reading its fragments (the PTX
// fragment layouts) with zero padding where M, N or K is smaller than the instruction.

/// A float rounded to TF32 (10 mantissa bits), to nearest with ties to even; NaN and inf kept.
TILE_DEV_HD float round_tf32(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0xfffu + ((u >> 13) & 1u)) & 0xffffe000u;
  memcpy(&x, &u, 4);
  return x;
}

namespace detail {
template <class T>
TILE_DEV_D uint32_t pack2(T lo, T hi) {
  uint16_t l, h;
  memcpy(&l, &lo, 2);
  memcpy(&h, &hi, 2);
  return uint32_t(l) | (uint32_t(h) << 16);
}
template <class T>
TILE_DEV_D uint32_t bits32(T x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}
}  // namespace detail

template <class In, int64_t Batch, int64_t M, int64_t N, int64_t K, int Warps>
TILE_DEV_D void mma_shared(const In* A, const In* B, float* C, unsigned tid) {
  constexpr bool tf32 = std::is_same_v<In, float>;
  constexpr int64_t KS = tf32 ? 8 : 16;  // the instruction's k
  constexpr int64_t TM = (M + 15) / 16, TN = (N + 7) / 8;
  const int lane = int(tid % 32u), warp = int(tid / 32u);
  const int g = lane >> 2, t = lane & 3;
  auto a_at = [&](int64_t b, int64_t m, int64_t k) -> In {
    return m < M && k < K ? A[(b * M + m) * K + k] : In(0.0f);
  };
  auto b_at = [&](int64_t b, int64_t k, int64_t n) -> In {
    return k < K && n < N ? B[(b * K + k) * N + n] : In(0.0f);
  };
  for (int64_t tile = warp; tile < Batch * TM * TN; tile += Warps) {
    const int64_t b = tile / (TM * TN), m0 = (tile / TN) % TM * 16, n0 = tile % TN * 8;
    float c[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int64_t m = m0 + g + (i >= 2 ? 8 : 0), n = n0 + 2 * t + (i & 1);
      c[i] = m < M && n < N ? C[(b * M + m) * N + n] : 0.0f;
    }
    for (int64_t k0 = 0; k0 < K; k0 += KS) {
      if constexpr (tf32) {
        const uint32_t a0 = detail::bits32(a_at(b, m0 + g, k0 + t));
        const uint32_t a1 = detail::bits32(a_at(b, m0 + g + 8, k0 + t));
        const uint32_t a2 = detail::bits32(a_at(b, m0 + g, k0 + t + 4));
        const uint32_t a3 = detail::bits32(a_at(b, m0 + g + 8, k0 + t + 4));
        const uint32_t b0 = detail::bits32(b_at(b, k0 + t, n0 + g));
        const uint32_t b1 = detail::bits32(b_at(b, k0 + t + 4, n0 + g));
        asm volatile(
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
            "{%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
      } else {
        const int64_t k = k0 + 2 * t;
        const uint32_t a0 = detail::pack2(a_at(b, m0 + g, k), a_at(b, m0 + g, k + 1));
        const uint32_t a1 = detail::pack2(a_at(b, m0 + g + 8, k), a_at(b, m0 + g + 8, k + 1));
        const uint32_t a2 = detail::pack2(a_at(b, m0 + g, k + 8), a_at(b, m0 + g, k + 9));
        const uint32_t a3 =
            detail::pack2(a_at(b, m0 + g + 8, k + 8), a_at(b, m0 + g + 8, k + 9));
        const uint32_t b0 = detail::pack2(b_at(b, k, n0 + g), b_at(b, k + 1, n0 + g));
        const uint32_t b1 = detail::pack2(b_at(b, k + 8, n0 + g), b_at(b, k + 9, n0 + g));
        if constexpr (std::is_same_v<In, __half>)
          asm volatile(
              "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
              "{%8,%9}, {%0,%1,%2,%3};\n"
              : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
              : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        else
          asm volatile(
              "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
              "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
              : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
              : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
      }
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int64_t m = m0 + g + (i >= 2 ? 8 : 0), n = n0 + 2 * t + (i & 1);
      if (m < M && n < N) C[(b * M + m) * N + n] = c[i];
    }
  }
}

/// Stages a float tile for TF32 multiplication: each element rounded to TF32.
template <class L>
TILE_DEV_D void to_shared_tf32(float* s, const Thread<L>& t, const float (&src)[L::elems]) {
  if (L::replicates && !t.owner) return;
#pragma unroll
  for (int r = 0; r < L::elems; ++r) s[t.linear(r)] = round_tf32(src[r]);
}

//===----------------------------------------------------------------------===//
// Scalar helpers for arith and math
//===----------------------------------------------------------------------===//

template <class T>
inline constexpr bool is_low_float_v =
    std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

template <class T>
inline constexpr bool is_fp8_v = std::is_same_v<T, __nv_fp8_e4m3> || std::is_same_v<T, __nv_fp8_e5m2>;

/// A bf16 widened to float: its bits are the float's upper half. Plain integer arithmetic (not
/// the conversion instruction) lets the compiler widen both halves of a packed pair in place.
TILE_DEV_HD float widen_bf16(__nv_bfloat16 x) {
  const unsigned bits = unsigned(__bfloat16_as_ushort(x)) << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/// Value conversion, rounding once as the CPU reference does: narrow floats widen exactly; a
/// conversion to a narrow float rounds from float, or from double for doubles and integers
/// (f8 saturates to its largest finite value, like tile::f8e4m3/f8e5m2).
template <class To, class From>
TILE_DEV_HD To cvt(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_fp8_v<From>) {
    return cvt<To>(static_cast<float>(x));
  } else if constexpr (is_fp8_v<To>) {
    if constexpr (is_low_float_v<From>) return To(cvt<float>(x));
    else if constexpr (std::is_same_v<From, float>) return To(x);
    else return To(static_cast<double>(x));
  } else if constexpr (std::is_same_v<To, __half>) {
    if constexpr (std::is_same_v<From, __nv_bfloat16>) return __float2half(widen_bf16(x));
    else if constexpr (std::is_same_v<From, float>) return __float2half(x);
    else return __double2half(static_cast<double>(x));
  } else if constexpr (std::is_same_v<To, __nv_bfloat16>) {
    if constexpr (std::is_same_v<From, __half>) return __float2bfloat16(__half2float(x));
    else if constexpr (std::is_same_v<From, float>) return __float2bfloat16(x);
    else return __double2bfloat16(static_cast<double>(x));
  } else if constexpr (std::is_same_v<From, __half>) {
    return static_cast<To>(__half2float(x));
  } else if constexpr (std::is_same_v<From, __nv_bfloat16>) {
    return static_cast<To>(widen_bf16(x));
  } else {
    return static_cast<To>(x);
  }
}

/// Stages a tile converted to U (f8 mma inputs as f16, exactly): owners write row-major.
template <class U, class L, class T>
TILE_DEV_D void to_shared_as(U* s, const Thread<L>& t, const T (&src)[L::elems]) {
  if (L::replicates && !t.owner) return;
#pragma unroll
  for (int r = 0; r < L::elems; ++r) s[t.linear(r)] = cvt<U>(src[r]);
}

//===----------------------------------------------------------------------===//
// Fragment layouts: mma operands and accumulators held in registers
//===----------------------------------------------------------------------===//
//
// `MmaAcc` is `#tilegpu.mma` and `MmaOperand` `#tilegpu.dot_operand` (see TileGPUOps.td for
// the register order) applied to one tile shape: the instruction tiles `mma_frag` and
// `ldmatrix_operand` walk. Where each register's element lies is the layout's `Linear` form,
// as for every other layout.

namespace detail {
template <class Shape>
struct MatShape {
  static constexpr int rank = Shape::size;
  static constexpr int64_t batch = rank == 3 ? Shape::at(0) : 1;
  static constexpr int64_t rows = Shape::at(rank - 2), cols = Shape::at(rank - 1);
};
}  // namespace detail

template <class Shape, int WM, int WN, int Warps>
struct MmaAcc {
  using S = detail::MatShape<Shape>;
  static constexpr int rank = S::rank;
  static constexpr int64_t RM = S::rows / (16 * WM), RN = S::cols / (8 * WN);
  static_assert(S::rows % (16 * WM) == 0 && S::cols % (8 * WN) == 0 && Warps % (WM * WN) == 0,
                "tilecc: inconsistent mma layout");
  static constexpr int elems = int(S::batch * RM * RN * 4);
  static constexpr int num_threads = 32 * Warps;
  static constexpr bool replicates = WM * WN < Warps;
  static constexpr int wm_count = WM, wn_count = WN;
  TILE_DEV_HD static constexpr int64_t shape(int d) { return Shape::at(d); }
};

template <class Shape, int OpIdx, int KWidth, int WM, int WN, int Warps>
struct MmaOperand {
  using S = detail::MatShape<Shape>;
  static constexpr int rank = S::rank;
  static constexpr int64_t KI = 8 * KWidth;  // the instruction's k
  static constexpr int64_t per_tile = OpIdx == 0 ? KI / 2 : KI / 4;
  // Instruction tiles along the operand's rows and columns.
  static constexpr int64_t RR = OpIdx == 0 ? S::rows / (16 * WM) : S::rows / KI;
  static constexpr int64_t RC = OpIdx == 0 ? S::cols / KI : S::cols / (8 * WN);
  static_assert(RR * (OpIdx == 0 ? 16 * WM : KI) == S::rows &&
                    RC * (OpIdx == 0 ? KI : 8 * WN) == S::cols && Warps % (WM * WN) == 0,
                "tilecc: inconsistent dot operand layout");
  static constexpr int elems = int(S::batch * RR * RC * per_tile);
  static constexpr int num_threads = 32 * Warps;
  static constexpr bool replicates = true;  // over the other side of the warp grid
  static constexpr int op_idx = OpIdx, wm_count = WM, wn_count = WN;
  TILE_DEV_HD static constexpr int64_t shape(int d) { return Shape::at(d); }
};

namespace detail {
/// Four f8 values as one instruction register, the first in the low byte.
template <class T>
TILE_DEV_D uint32_t pack4(const T* x) {
  uint32_t u = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    unsigned char b;
    memcpy(&b, &x[i], 1);
    u |= uint32_t(b) << (8 * i);
  }
  return u;
}

TILE_DEV_D void mma_f16(float* d, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0,
                        uint32_t b1) {
  asm(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

TILE_DEV_D void mma_bf16(float* d, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                         uint32_t b0, uint32_t b1) {
  asm(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

/// One m16n8k8 TF32 tile (A rows g, g+8 at k t and t+4; B k t, t+4 at column g), each input
/// rounded to TF32 first.
TILE_DEV_D void mma_tf32(float* d, float a0, float a1, float a2, float a3, float b0, float b1) {
  asm(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(bits32(round_tf32(a0))), "r"(bits32(round_tf32(a1))), "r"(bits32(round_tf32(a2))),
        "r"(bits32(round_tf32(a3))), "r"(bits32(round_tf32(b0))), "r"(bits32(round_tf32(b1))));
}

/// One m16n8k32 f8 tile: A holds 16 values per lane (rows g, g+8; k 4t..4t+3 and 16+4t..),
/// B 8 (k likewise, column g). From sm_89 a native f8 instruction; before, two f16
/// instructions over the same registers, each taking k 4t..4t+3 (then 16+4t..) of every lane
/// as the k 2t, 2t+1, 2t+8, 2t+9 the f16 fragments hold: both operands agree on the order.
template <class InA, class InB>
TILE_DEV_D void mma_f8_tile(float* d, const InA* x, const InB* y) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  const uint32_t a0 = pack4(x), a1 = pack4(x + 4), a2 = pack4(x + 8), a3 = pack4(x + 12);
  const uint32_t b0 = pack4(y), b1 = pack4(y + 4);
#define TILE_DEV_MMA_F8(TA, TB)                                                                 \
  asm("mma.sync.aligned.m16n8k32.row.col.f32." TA "." TB                               \
               ".f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"                   \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                 \
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1))
  constexpr bool a4 = std::is_same_v<InA, __nv_fp8_e4m3>, b4 = std::is_same_v<InB, __nv_fp8_e4m3>;
  if constexpr (a4 && b4) TILE_DEV_MMA_F8("e4m3", "e4m3");
  else if constexpr (a4) TILE_DEV_MMA_F8("e4m3", "e5m2");
  else if constexpr (b4) TILE_DEV_MMA_F8("e5m2", "e4m3");
  else TILE_DEV_MMA_F8("e5m2", "e5m2");
#undef TILE_DEV_MMA_F8
#else
  auto h = [](auto v) { return cvt<__half>(v); };
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const InA* p = x + 8 * half;
    const InB* q = y + 4 * half;
    mma_f16(d, pack2(h(p[0]), h(p[1])), pack2(h(p[4]), h(p[5])), pack2(h(p[2]), h(p[3])),
            pack2(h(p[6]), h(p[7])), pack2(h(q[0]), h(q[1])), pack2(h(q[2]), h(q[3])));
  }
#endif
}
}  // namespace detail

/// C += A x B on fragments: A, B and C in the MmaOperand / MmaAcc layouts of one warp grid.
/// Float inputs are multiplied as TF32; f8 inputs (e4m3 and e5m2 in any pair) natively.
template <class LA, class LB, class LC, class InA, class InB>
TILE_DEV_D void mma_frag(const InA (&a)[LA::elems], const InB (&b)[LB::elems],
                         float (&c)[LC::elems]) {
  constexpr bool tf32 = std::is_same_v<InA, float>;
  constexpr int64_t RM = LC::RM, RN = LC::RN, RK = LA::RC;
#pragma unroll
  for (int64_t bt = 0; bt < LC::S::batch; ++bt)
#pragma unroll
    for (int64_t kk = 0; kk < RK; ++kk)  // K outermost: consecutive instructions are independent
#pragma unroll
      for (int64_t i = 0; i < RM; ++i)
#pragma unroll
        for (int64_t j = 0; j < RN; ++j) {
          float* d = &c[((bt * RM + i) * RN + j) * 4];
          const InA* x = &a[((bt * RM + i) * RK + kk) * LA::per_tile];
          const InB* y = &b[((bt * RK + kk) * RN + j) * LB::per_tile];
          if constexpr (is_fp8_v<InA>) {
            detail::mma_f8_tile(d, x, y);
          } else if constexpr (tf32) {
            detail::mma_tf32(d, x[0], x[1], x[2], x[3], y[0], y[1]);
          } else if constexpr (std::is_same_v<InA, __half>) {
            detail::mma_f16(d, detail::pack2(x[0], x[1]), detail::pack2(x[2], x[3]),
                            detail::pack2(x[4], x[5]), detail::pack2(x[6], x[7]),
                            detail::pack2(y[0], y[1]), detail::pack2(y[2], y[3]));
          } else {
            detail::mma_bf16(d, detail::pack2(x[0], x[1]), detail::pack2(x[2], x[3]),
                             detail::pack2(x[4], x[5]), detail::pack2(x[6], x[7]),
                             detail::pack2(y[0], y[1]), detail::pack2(y[2], y[3]));
          }
        }
}

/// Writes a tile's elements row-major with `Pad` elements after each row (owners only): the
/// staging of a conversion to 16-bit mma operands, whose ldmatrix reads of eight rows then
/// fall in distinct banks. Runs of registers that are consecutive along the last axis (a
/// blocked layout's sizePerThread) are written as 16-byte vectors where they fill one.
template <int Pad, class L, class T>
TILE_DEV_D void to_shared_padded(T* s, const Thread<L>& t, const T (&src)[L::elems]) {
  if (L::replicates && !t.owner) return;
  constexpr int64_t cols = L::shape(L::rank - 1);
  constexpr int V = [] {
    {
      constexpr int per16 = int(16 / sizeof(T));
      if (L::fast == L::rank - 1 && L::vec % per16 == 0 && (cols + Pad) % per16 == 0)
        return per16;
    }
    return 1;
  }();
#pragma unroll
  for (int r = 0; r < L::elems; r += V) {
    const int64_t lin = t.linear(r);
    T* p = s + (lin / cols) * (cols + Pad) + lin % cols;
    if constexpr (V > 1) {
      uint4 raw;
      memcpy(&raw, &src[r], 16);
      *reinterpret_cast<uint4*>(p) = raw;
    } else {
      *p = src[r];
    }
  }
}

/// Reads 16-bit mma operand fragments (kWidth 2, in the instruction tiles of F) from a tile
/// laid out in shared memory as `Place` says (a Staging: padded rows of to_shared_padded, or a
/// buffer's swizzle): one ldmatrix.x4 per A instruction tile, one ldmatrix.x2.trans per B
/// tile. Each lane's 16-byte row segment must stay contiguous in `Place`. `tid` is the
/// thread's number in its program.
namespace detail {
/// ldmatrix.x4 of the 16-row A instruction tile at (m0, k0) of a tile laid out as `Place`, 32
/// bytes of K (row-major: lane rows along K; column-major, 16-bit only: stored rows along M,
/// transposed on the way). 8-bit elements move as pairs, which is their mma fragment.
template <class Place, class T>
TILE_DEV_D void ldmatrix_a(uint32_t (&r)[4], const T* s, int64_t m0, int64_t k0, int lane) {
  constexpr int64_t cols = Place::tile_cols, g = 16 / int64_t(sizeof(T));  // elements per 16 B
  static_assert(sizeof(T) == 2 || !Place::column_major, "tilecc: ldmatrix transposes 16 bits");
  if constexpr (Place::column_major) {
    const int64_t m = m0 + ((lane >> 3) & 1) * 8, k = k0 + (lane >> 4) * 8 + (lane & 7);
    const unsigned a = unsigned(__cvta_generic_to_shared(s + Place::offset(m * cols + k)));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
  } else {
    const int64_t m = m0 + (lane & 15), k = k0 + (lane >> 4) * g;
    const unsigned a = unsigned(__cvta_generic_to_shared(s + Place::offset(m * cols + k)));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
  }
}
/// ldmatrix.x2 of the 8-column B instruction tile at (k0, n0), 32 bytes of K (row-major,
/// 16-bit only: lane rows along N, transposed on the way; column-major: stored rows along K).
template <class Place, class T>
TILE_DEV_D void ldmatrix_b(uint32_t (&r)[2], const T* s, int64_t k0, int64_t n0, int lane) {
  constexpr int64_t cols = Place::tile_cols, g = 16 / int64_t(sizeof(T));  // elements per 16 B
  static_assert(sizeof(T) == 2 || Place::column_major, "tilecc: ldmatrix transposes 16 bits");
  if constexpr (Place::column_major) {
    const int64_t k = k0 + ((lane >> 3) & 1) * g, n = n0 + (lane & 7);
    const unsigned a = unsigned(__cvta_generic_to_shared(s + Place::offset(k * cols + n)));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(a));
  } else {
    const int64_t k = k0 + (lane & 15), n = n0;
    const unsigned a = unsigned(__cvta_generic_to_shared(s + Place::offset(k * cols + n)));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(a));
  }
}
}  // namespace detail

template <class F, class Place, class T>
TILE_DEV_D void ldmatrix_operand(T (&dst)[F::elems], unsigned tid, const T* s) {
  static_assert(sizeof(T) == 2 && F::KI == 16, "tilecc: ldmatrix reads 16-bit operands");
  using S = typename F::S;
  static_assert(Place::tile_cols == S::cols, "tilecc: the staging is not of this tile");
  constexpr int WM = F::wm_count, WN = F::wn_count;
  const int lane = int(tid % 32u), w = int(tid / 32u % unsigned(WM * WN));
  const int wm = w / WN, wn = w % WN;
#pragma unroll
  for (int64_t bt = 0; bt < S::batch; ++bt)
#pragma unroll
    for (int64_t tr = 0; tr < F::RR; ++tr)
#pragma unroll
      for (int64_t tc = 0; tc < F::RC; ++tc) {
        T* out = &dst[((bt * F::RR + tr) * F::RC + tc) * F::per_tile];
        if constexpr (F::op_idx == 0) {
          uint32_t r[4];
          detail::ldmatrix_a<Place>(r, s, bt * S::rows + tr * 16 * WM + wm * 16, tc * 16, lane);
          memcpy(out, r, 16);
        } else {
          uint32_t r[2];
          detail::ldmatrix_b<Place>(r, s, bt * S::rows + tr * 16, tc * 8 * WN + wn * 8, lane);
          memcpy(out, r, 8);
        }
      }
}

/// Reads a tile staged row-major in shared memory into the registers of layout L.
template <class L, class T>
TILE_DEV_D void from_shared(T (&dst)[L::elems], const Thread<L>& t, const T* s) {
#pragma unroll
  for (int r = 0; r < L::elems; ++r) dst[r] = s[t.linear(r)];
}

/// How an exchange or a buffer lays its tile out in shared memory (the compiler's choice,
/// printed): rows of `Cols` elements, each followed by `Pad` elements, the `Vec`-element
/// groups of row r stored at group ^ ((r / PerPhase) % MaxPhase). A buffer whose rows are
/// longer than one swizzle row cuts them into blocks of `Block` elements and stores each
/// block column of its `Rows` rows on its own, one after the other (what wgmma reads). A
/// column-major stage (`TileCols` > 0) stores the transpose of its tile of TileCols columns:
/// a stored row per tile column.
template <int64_t Cols, int64_t Pad, int64_t Vec, int64_t PerPhase, int64_t MaxPhase,
          int64_t Block = Cols, int64_t Rows = 1, int64_t TileCols = 0>
struct Staging {
  static constexpr int64_t cols = Cols, block = Block, rows = Rows;
  static constexpr int64_t vec = Vec, per_phase = PerPhase, max_phase = MaxPhase;
  static constexpr bool column_major = TileCols != 0;
  /// The tile's columns (its last axis).
  static constexpr int64_t tile_cols = column_major ? TileCols : Cols;
  static_assert(Cols % Block == 0 && (Block == Cols || Pad == 0), "tilecc: bad staging");
  /// Where element `lin` (row-major in the tile) lies in the buffer.
  TILE_DEV_HD static constexpr int64_t offset(int64_t lin) {
    if constexpr (column_major) lin = lin % TileCols * Cols + lin / TileCols;
    const int64_t row = lin / Cols, col = lin % Cols;
    const int64_t b = col / Block, c = col % Block;
    return (b * Rows + row) * (Block + Pad) + (c ^ (((row / PerPhase) % MaxPhase) * Vec));
  }
};

// ---------------------------------------------------------------------------------------------
// Async copies into shared-memory buffers (tilegpu.async_copy, async_commit, async_wait)
// ---------------------------------------------------------------------------------------------

namespace detail {
/// cp.async of `Bytes` bytes from global `src` to shared `dst`, reading `SrcBytes` of them (0:
/// none, the destination is zero-filled). Before sm_80, a plain copy.
template <int Bytes>
TILE_DEV_D void cp_async(void* dst, const void* src, bool read) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  const unsigned d = unsigned(__cvta_generic_to_shared(dst));
  const int n = read ? Bytes : 0;
  if constexpr (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(n)
                 : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(d), "l"(src),
                 "n"(Bytes), "r"(n)
                 : "memory");
#else
  using W = std::conditional_t<Bytes == 16, uint4, std::conditional_t<Bytes == 8, uint2, uint32_t>>;
  *reinterpret_cast<W*>(dst) = read ? *reinterpret_cast<const W*>(src) : W{};
#endif
}
}  // namespace detail

/// Starts copying the tile at `off` of view `v` into one stage `dst` of a buffer laid out as
/// `Place`: element (off + c) when lo <= off + c < hi on every axis, else zero, as `load` reads
/// it. Thread t copies its registers' elements of layout L, V consecutive ones along the axis
/// the stage stores contiguously (the last, or the first of a column-major stage) per access. A tile wholly inside its bounds whose vectors are aligned (`Aligned`: the
/// offset along the last axis is a multiple of V) moves with one cp.async per run; kFitWhole:
/// the launch guarantees every tile is wholly inside or wholly outside and aligned, so only
/// that is tested (outside: zero-filling cp.async that read nothing); kFitRuns: every run is,
/// so each run is one cp.async, zero-filling where it is outside. Cut tiles take a cp.async
/// where a run is inside and aligned, a zero fill where it is outside, element copies
/// otherwise. Complete after async_wait, visible to the other threads after a barrier.
/// `Round`: floats are stored rounded to TF32, by element copies (cp.async cannot round).
template <int V, class Place, bool Aligned = false, int Fit = kFitAny, bool Round = false,
          class L, class T, int R>
TILE_DEV_D void async_copy(T* dst, const View<T, R>& v, const Thread<L>& t,
                           const int64_t (&off)[R], const int64_t (&lo)[R],
                           const int64_t (&hi)[R]) {
  static_assert(!Round || std::is_same_v<T, float>, "tilecc: only floats round to TF32");
  static_assert(L::rank == R, "tilecc: tile and view ranks differ");
  static_assert(V == 1 || L::fast == (Place::column_major ? 0 : R - 1),
                "tilecc: async copies run along the axis the stage stores contiguously");
  static_assert(V >= 1 && L::vec % V == 0, "tilecc: vector width must divide the register run");
  constexpr int f = L::fast;
  constexpr int bytes = int(sizeof(T)) * V;
  constexpr bool can_async = !Round && (bytes == 4 || bytes == 8 || bytes == 16);
  if (L::replicates && !t.owner) return;
  if constexpr (can_async) {
    const bool in = detail::inside<L>(off, lo, hi);
    if (Fit != kFitAny || (in && detail::vectors_aligned<V, Aligned, f>(v, off))) {
      const T* p0 = detail::thread_origin(v, t, off);
#pragma unroll
      for (int r0 = 0; r0 < L::elems; r0 += V) {
        const bool read = Fit == kFitRuns ? detail::run_inside<L>(t, r0, off, lo, hi) : in;
        detail::cp_async<bytes>(dst + Place::offset(t.linear(r0)),
                                read ? p0 + detail::reg_offset<L, (V > 1)>(v, r0) : v.data, read);
      }
      return;
    }
  }
  const int64_t sf = v.strides[f];
#pragma unroll
  for (int r0 = 0; r0 < L::elems; r0 += V) {
    int64_t c[R];
    int64_t lin = 0;
    bool ok = true;
#pragma unroll
    for (int d = 0; d < R; ++d) {
      c[d] = off[d] + t.coord(r0, d);
      if (d != f) ok = ok && c[d] >= lo[d] && c[d] < hi[d];
      lin += c[d] * v.strides[d];
    }
    const T* p = v.data + lin;
    const int64_t tile = t.linear(r0);
    if constexpr (can_async) {
      if (ok && c[f] >= lo[f] && c[f] + V <= hi[f] && sf == 1 && detail::aligned<bytes>(p)) {
        detail::cp_async<bytes>(dst + Place::offset(tile), p, true);
        continue;
      }
      if (!ok || c[f] + V <= lo[f] || c[f] >= hi[f]) {
        detail::cp_async<bytes>(dst + Place::offset(tile), v.data, false);
        continue;
      }
    }
#pragma unroll
    for (int e = 0; e < V; ++e) {
      const int64_t ce = c[f] + e;
      T x = (ok && ce >= lo[f] && ce < hi[f]) ? detail::read_elem<true>(p + e * sf) : T{};
      if constexpr (Round) x = round_tf32(x);
      dst[Place::offset(tile + e * L::stride(f))] = x;
    }
  }
}

/// Closes the group of async copies this thread started since the last commit.
TILE_DEV_D void async_commit() {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/// Waits until at most `Pending` of this thread's committed groups are still in flight.
template <int Pending>
TILE_DEV_D void async_wait() {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
#endif
}

/// Makes this thread's shared-memory writes (async copies included, once waited for) visible
/// to the async proxy that wgmma reads through; a barrier then publishes them to the block.
TILE_DEV_D void fence_async_shared() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/// Writes the R x C tile held in the stage at `src` (laid out as SS) into the stage at `dst`
/// (laid out as SD), each float rounded to TF32 when `Round` (tilegpu.restage). The program's
/// `Threads` threads share the work: along one layout each moves 16-byte vectors (so `src` may
/// be `dst`); between a row-major and a column-major stage each moves 4 x 4 blocks, four
/// vectors of 4 elements read along SS's rows and four written along SD's. A barrier must
/// precede it (the stage's copies visible) and follow it (before other threads read `dst`).
template <class SS, class SD, int64_t R, int64_t C, bool Round, unsigned Threads, class T>
TILE_DEV_D void restage(T* dst, const T* src, unsigned tid) {
  static_assert(!Round || std::is_same_v<T, float>, "tilecc: only floats round to TF32");
  auto out = [](T x) {
    if constexpr (Round) return round_tf32(x);
    else return x;
  };
  if constexpr (std::is_same_v<SS, SD>) {
    constexpr int64_t V = 16 / int64_t(sizeof(T));
    static_assert((R * C) % V == 0 && SS::vec % V == 0, "tilecc: a stage of 16-byte groups");
    for (int64_t i = tid; i < R * C / V; i += Threads) {
      struct alignas(16) Vec { T e[V]; } v = *reinterpret_cast<const Vec*>(src + i * V);
#pragma unroll
      for (int64_t e = 0; e < V; ++e) v.e[e] = out(v.e[e]);
      *reinterpret_cast<Vec*>(dst + i * V) = v;
    }
  } else {
    static_assert(SS::column_major != SD::column_major && R % 4 == 0 && C % 4 == 0 &&
                      SS::vec % 4 == 0 && SD::vec % 4 == 0,
                  "tilecc: a stage restaged between row-major and column-major, 4 x 4 blocks");
    struct alignas(4 * sizeof(T)) Vec { T e[4]; };
    // Blocks along SS's stored rows (`along` of them) and across them. A warp takes 4 along
    // by 8 across where the stage holds whole such groups: its reads and writes then take at
    // most 1.5 (floats) or 3 (bytes) times the fewest shared-memory wavefronts, against 2.5
    // and 8.5 for 32 blocks along.
    constexpr int64_t along = SS::column_major ? R / 4 : C / 4;
    constexpr int64_t across = R * C / 16 / along;
    constexpr bool grouped = along % 4 == 0 && across % 8 == 0;
    for (int64_t b = tid; b < R * C / 16; b += Threads) {
      int64_t major = b / along * 4, minor = b % along * 4;
      if constexpr (grouped) {
        const int64_t w = b / 32, l = b % 32;
        minor = (w % (along / 4) * 4 + l % 4) * 4;
        major = (w / (along / 4) * 8 + l / 4) * 4;
      }
      const int64_t r0 = SS::column_major ? minor : major, c0 = SS::column_major ? major : minor;
      Vec v[4];
#pragma unroll
      for (int64_t q = 0; q < 4; ++q)  // SS's stored row q of the block
        v[q] = *reinterpret_cast<const Vec*>(
            src + SS::offset(SS::column_major ? r0 * C + c0 + q : (r0 + q) * C + c0));
#pragma unroll
      for (int64_t q = 0; q < 4; ++q) {  // SD's stored row q of the block
        Vec w;
#pragma unroll
        for (int64_t e = 0; e < 4; ++e) w.e[e] = out(v[e].e[q]);
        *reinterpret_cast<Vec*>(
            dst + SD::offset(SD::column_major ? r0 * C + c0 + q : (r0 + q) * C + c0)) = w;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Memory barriers and producer warps (tilegpu.alloc_barriers, barrier_wait, barrier_arrive,
// async_copy_arrive, producer)
// ---------------------------------------------------------------------------------------------

namespace detail {
TILE_DEV_D unsigned shared_address(const void* p) {
  return unsigned(__cvta_generic_to_shared(p));
}
}  // namespace detail

/// Thread 0 initializes the `N` barriers at `bars` for `Arrivals` arrivals per phase; then the
/// whole block meets (producer warps included).
template <int N, unsigned Arrivals>
TILE_DEV_D void init_barriers(uint64_t* bars) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  if (threadIdx.x == 0) {
#pragma unroll
    for (int i = 0; i < N; ++i)
      asm volatile("mbarrier.init.shared.b64 [%0], %1;\n" ::"r"(detail::shared_address(bars + i)),
                   "r"(Arrivals)
                   : "memory");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
  }
#endif
  __syncthreads();
}

/// Waits until barrier `bar` has completed its phase of parity `parity` (a fresh barrier's
/// phase of parity 1 counts as complete).
TILE_DEV_D void barrier_wait(uint64_t* bar, int64_t parity) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  const unsigned a = detail::shared_address(bar), p = unsigned(parity & 1);
  unsigned done = 0;
  do {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("{\n .reg .pred ready;\n mbarrier.try_wait.parity.shared.b64 ready, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, ready;\n}\n"
                 : "=r"(done) : "r"(a), "r"(p) : "memory");
#else
    asm volatile("{\n .reg .pred ready;\n mbarrier.test_wait.parity.shared.b64 ready, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, ready;\n}\n"
                 : "=r"(done) : "r"(a), "r"(p) : "memory");
#endif
  } while (!done);
#endif
}

/// The calling warp arrives once on barrier `bar`, after all its lanes got here.
TILE_DEV_D void barrier_arrive(uint64_t* bar) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  __syncwarp();
  if (threadIdx.x % 32u == 0)
    asm volatile("{\n .reg .b64 state;\n mbarrier.arrive.shared.b64 state, [%0];\n}\n" ::"r"(
                     detail::shared_address(bar)) : "memory");
#endif
}

/// The calling thread arrives on barrier `bar` once the async copies it started have landed.
TILE_DEV_D void async_copy_arrive(uint64_t* bar) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];\n" ::"r"(
                   detail::shared_address(bar)) : "memory");
#endif
}

// ---------------------------------------------------------------------------------------------
// Tensor maps (tilegpu.tensor_map, tensor_map_copy, barrier_expect)
// ---------------------------------------------------------------------------------------------

/// A kernel parameter (`__grid_constant__`): the tensor-memory-accelerator descriptor of a view
/// argument, and whether the launch could build it.
struct TensorMap {
  CUtensorMap map;
  bool valid;
};

/// Built by the launcher: the descriptor of tensor argument `a` for boxes of Rows x Cols
/// elements of its last two axes in a `Swizzle`-byte swizzle (tile::detail::tensor_map,
/// cached per view and box), their rows along the view's last axis, or along the one before
/// (`ColumnMajor`: a view contiguous along that axis, such as a row-major array's transpose).
/// `RoundTF32`: the copies round floats to TF32, to nearest, ties to even.
template <int64_t Rows, int64_t Cols, int Swizzle, bool ColumnMajor = false, bool RoundTF32 = false>
inline TensorMap tensor_map(const tile::detail::ArgDesc& a) {
  TensorMap m;
  m.valid = tile::detail::tensor_map(&m.map, a, Rows, Cols, Swizzle, ColumnMajor ? 0 : 1,
                                     RoundTF32);
  return m;
}

/// True where the kernel may copy through `m`: the launch built it and the code runs on
/// sm_90 or later.
TILE_DEV_D bool usable(const TensorMap& m) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return m.valid;
#else
  (void)m;
  return false;
#endif
}

namespace detail {
/// The hardware's coordinates of the box at view coordinates `at` (rank N, the box spanning
/// the last two axes): the contiguous axis first, then the other box axis, then the leading
/// axes from the last to the first (tile::detail::tensor_map orders the map's axes so).
template <bool ColumnMajor, int N>
TILE_DEV_D void box_coordinates(int (&c)[N], const int64_t (&at)[N], int64_t column_shift) {
  const int64_t row = at[N - 2], col = at[N - 1] + (ColumnMajor ? 0 : column_shift);
  c[0] = int(ColumnMajor ? row + column_shift : col);
  c[1] = int(ColumnMajor ? col : row);
#pragma unroll
  for (int k = 2; k < N; ++k) c[k] = int(at[N - 1 - k]);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
/// cp.async.bulk.tensor of one box of map `map` at hardware coordinates `c` into shared `dst`,
/// completing on barrier `bar`.
template <int N>
TILE_DEV_D void bulk_tensor_load(uint32_t dst, uint64_t map, const int (&c)[N], uint32_t bar) {
  static_assert(N >= 2 && N <= 5, "tilecc: tensor maps have 2 to 5 axes");
  if constexpr (N == 2)
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst), "l"(map), "r"(c[0]), "r"(c[1]),
                 "r"(bar) : "memory");
  else if constexpr (N == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(dst), "l"(map), "r"(c[0]),
                 "r"(c[1]), "r"(c[2]), "r"(bar) : "memory");
  else if constexpr (N == 4)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4, %5}], [%6];\n" ::"r"(dst), "l"(map), "r"(c[0]),
                 "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar) : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];\n" ::"r"(dst), "l"(map), "r"(c[0]),
                 "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar) : "memory");
}

/// cp.async.bulk.tensor of shared `src` to the box of map `map` at hardware coordinates `c`
/// (a bulk group).
template <int N>
TILE_DEV_D void bulk_tensor_store(uint64_t map, const int (&c)[N], uint32_t src) {
  static_assert(N >= 2 && N <= 5, "tilecc: tensor maps have 2 to 5 axes");
  if constexpr (N == 2)
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n"
                 ::"l"(map), "r"(c[0]), "r"(c[1]), "r"(src) : "memory");
  else if constexpr (N == 3)
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}],"
                 " [%4];\n" ::"l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(src) : "memory");
  else if constexpr (N == 4)
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%1, %2, %3, %4}],"
                 " [%5];\n" ::"l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(src)
                 : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group"
                 " [%0, {%1, %2, %3, %4, %5}], [%6];\n" ::"l"(map), "r"(c[0]), "r"(c[1]),
                 "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(src) : "memory");
}
#endif
}  // namespace detail

/// Producer thread 0 copies the box at view coordinates `at` of `m`'s view (its rows and
/// columns along the last two axes), and the `Blocks - 1` boxes Cols stored columns after
/// each other, into the Rows x Cols blocks of the stage at `dst`, one after the other
/// (cp.async.bulk.tensor; zeros outside the view); the bytes complete on barrier `bar`. A
/// column-major map's stored rows run along the second-to-last axis.
template <int64_t Rows, int64_t Cols, int64_t Blocks, bool ColumnMajor = false, class T, int N>
TILE_DEV_D void tensor_map_copy(T* dst, const TensorMap& m, const int64_t (&at)[N],
                                uint64_t* bar, unsigned ptid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if (ptid != 0) return;
  const uint64_t map = reinterpret_cast<uint64_t>(&m.map);
#pragma unroll
  for (int64_t b = 0; b < Blocks; ++b) {
    int c[N];
    detail::box_coordinates<ColumnMajor>(c, at, b * Cols);
    detail::bulk_tensor_load(detail::shared_address(dst + b * Rows * Cols), map, c,
                             detail::shared_address(bar));
  }
#else
  (void)dst, (void)m, (void)at, (void)bar, (void)ptid;
  __trap();  // usable() is false here
#endif
}

/// The program's `Groups` warpgroups take turns issuing warpgroup mma (tilegpu.turn_wait,
/// tilegpu.turn_pass): warpgroup w waits on named barrier 2 + w, which completes when the
/// warpgroup before it (the last, for the first) arrives there. `Once`: only the first
/// warpgroup waits (turn_wait), only the last passes (turn_pass).
template <unsigned Groups, bool Once = false>
TILE_DEV_D void turn_wait() {
  static_assert(Groups >= 2 && Groups <= 8, "tilecc: two to eight warpgroups take turns");
  const unsigned w = threadIdx.x / 128u;
  if (Once && w != 0) return;
  asm volatile("bar.sync %0, 256;\n" ::"r"(2u + w) : "memory");
}
template <unsigned Groups, bool Once = false>
TILE_DEV_D void turn_pass() {
  static_assert(Groups >= 2 && Groups <= 8, "tilecc: two to eight warpgroups take turns");
  const unsigned w = threadIdx.x / 128u;
  if (Once && w != Groups - 1) return;
  asm volatile("bar.arrive %0, 256;\n" ::"r"(2u + (w + 1) % Groups) : "memory");
}

/// The tile program's `Threads` threads meet (named barrier 1): in a block with producer
/// warps, which do not take part.
template <unsigned Threads>
TILE_DEV_D void program_barrier() {
  asm volatile("bar.sync 1, %0;\n" ::"n"(Threads) : "memory");
}

/// Every producer thread arrives once on barrier `bar` (lane 0 for its warp), and producer
/// thread 0 first makes the phase wait for `Bytes` bytes of tensor-map copies.
template <long long Bytes>
TILE_DEV_D void barrier_expect(uint64_t* bar, unsigned ptid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  static_assert(Bytes < (1 << 20), "tilecc: a barrier phase expects less than 1 MiB");
  const unsigned a = detail::shared_address(bar);
  if (ptid == 0)
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;\n" ::"r"(a),
                 "r"(unsigned(Bytes)) : "memory");
  if (ptid % 32u == 0)
    asm volatile("{\n .reg .b64 state;\n mbarrier.arrive.shared::cta.b64 state, [%0], 32;\n}\n"
                 ::"r"(a) : "memory");
#else
  (void)bar, (void)ptid;
  __trap();  // usable() is false here
#endif
}

/// Gives the calling warpgroup `Registers` registers per thread (setmaxnreg, sm_90a; elsewhere
/// nothing): fewer for producer warps, more for the program's.
template <bool More, unsigned Registers>
TILE_DEV_D void set_registers() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if constexpr (More)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
  else
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Registers));
#endif
}

// ---------------------------------------------------------------------------------------------
// Warpgroup mma from buffer stages (tilegpu.warpgroup_mma)
// ---------------------------------------------------------------------------------------------

namespace detail {
/// The wgmma matrix descriptor of the operand starting at `p` in a stage laid out as `Place`
/// (rows of 32, 64 or 128 bytes in their swizzle): leading and stride byte offsets `lbo`,
/// `sbo`, the swizzle mode of the row length. Stages are aligned to the swizzle's 1024 bytes.
template <class Place, class T>
TILE_DEV_D uint64_t wgmma_descriptor(const T* p, uint32_t lbo, uint32_t sbo) {
  constexpr int64_t row_bytes = Place::block * int64_t(sizeof(T));
  static_assert((row_bytes == 128 || row_bytes == 64 || row_bytes == 32) &&
                    Place::vec * int64_t(sizeof(T)) == 16 &&
                    Place::per_phase * row_bytes == 128 && Place::max_phase * 16 == row_bytes,
                "tilecc: a wgmma operand stage has rows of 32, 64 or 128 bytes in their swizzle");
  constexpr uint64_t mode = row_bytes == 128 ? 1 : row_bytes == 64 ? 2 : 3;
  const uint32_t addr = unsigned(__cvta_generic_to_shared(p));
  return uint64_t((addr & 0x3FFFF) >> 4) | uint64_t(lbo >> 4) << 16 |
         uint64_t(sbo >> 4) << 32 | mode << 62;
}

/// Keeps the compiler from moving accesses of the accumulator registers (or of A's, packed)
/// across a wgmma fence, and keeps them alive up to a wait.
template <int E>
TILE_DEV_D void pin_registers(float (&c)[E]) {
#pragma unroll
  for (int i = 0; i < E; ++i) asm volatile("" : "+f"(c[i])::"memory");
}
template <int E>
TILE_DEV_D void pin_registers(uint32_t (&c)[E]) {
#pragma unroll
  for (int i = 0; i < E; ++i) asm volatile("" : "+r"(c[i])::"memory");
}
}  // namespace detail

namespace detail {
/// warpgroup_mma's product of TF32 stages before sm_90a: m16n8k8 fragments read element by
/// element (each A fragment once per K step, each B fragment once), the warps laid out as for
/// 16-bit stages.
template <class LC, class SA, class SB>
TILE_DEV_D void mma_tf32_stages(float (&c)[LC::elems], const float* a, const float* b, int lane,
                                int w) {
  constexpr int64_t W = LC::wm_count, K = SA::tile_cols, N = LC::S::cols, RM = LC::RM;
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int64_t kk = 0; kk < K; kk += 8) {
    float fa[RM][4];
#pragma unroll
    for (int64_t i = 0; i < RM; ++i) {
      const int64_t r = i * 16 * W + w * 16 + g;
      fa[i][0] = a[SA::offset(r * K + kk + t)];
      fa[i][1] = a[SA::offset((r + 8) * K + kk + t)];
      fa[i][2] = a[SA::offset(r * K + kk + t + 4)];
      fa[i][3] = a[SA::offset((r + 8) * K + kk + t + 4)];
    }
#pragma unroll
    for (int64_t j = 0; j < LC::RN; ++j) {
      const float b0 = b[SB::offset((kk + t) * N + j * 8 + g)];
      const float b1 = b[SB::offset((kk + t + 4) * N + j * 8 + g)];
#pragma unroll
      for (int64_t i = 0; i < RM; ++i)
        mma_tf32(&c[(i * LC::RN + j) * 4], fa[i][0], fa[i][1], fa[i][2], fa[i][3], b0, b1);
    }
  }
}
}  // namespace detail

/// C += A x B with A (M x K) and B (K x N) tiles in buffer stages laid out as SA and SB, and C
/// in the MmaAcc layout LC of W x 1 warps (W a multiple of 4: warpgroup g holds rows
/// 64g .. 64g+63 of every 16W-row repeat). 16-bit operands (f16 or bf16, both alike) may be
/// stored row-major or column-major; 8-bit ones (f8 e4m3 or e5m2, any pair) and floats
/// (multiplied as TF32, the stages already rounded: tilegpu.restage) K-major: A row-major, B
/// column-major. On sm_90a each warpgroup issues wgmma.mma_async m64nNk16 (k32 for 8 bits, k8
/// for TF32) from shared-memory descriptors, N up to 256 columns per instruction, as one
/// group: `c` and the stages stay in use until warpgroup_wait; elsewhere the warps read the
/// same stages with ldmatrix and run mma.sync at once. Needs the stages' copies waited for,
/// fenced and published by a barrier.
template <class LC, class SA, class SB, class TA, class TB>
TILE_DEV_D void warpgroup_mma(float (&c)[LC::elems], const TA* a, const TB* b, unsigned tid) {
  constexpr bool f8 = sizeof(TA) == 1;
  static_assert(LC::wn_count == 1 && LC::wm_count % 4 == 0,
                "tilecc: a warpgroup mma has warpgroups stacked along M");
  static_assert(sizeof(TA) == sizeof(TB) && (std::is_same_v<TA, TB> || f8) &&
                    (sizeof(TA) == 2 || (!SA::column_major && SB::column_major)),
                "tilecc: warpgroup mma operands are both f16, both bf16, or f8 or float stored "
                "K-major");
  constexpr int W = LC::wm_count;
  constexpr int64_t K = SA::tile_cols, N = LC::S::cols, RM = LC::RM, RN = LC::RN;
  constexpr int64_t KI = 32 / int64_t(sizeof(TA));  // K per instruction: 32 bytes
  static_assert(K % KI == 0 && SB::tile_cols == N, "tilecc: inconsistent warpgroup mma operands");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int64_t NC = N < 256 ? N : 256;  // columns per instruction
  constexpr uint32_t bytes = uint32_t(sizeof(TA));
  // K-major operands (A row-major, B column-major) step 8 stored rows by SBO; MN-major ones
  // also step from one block column of the stored rows to the next by LBO.
  constexpr uint32_t a_lbo = SA::column_major ? uint32_t(SA::rows * SA::block) * bytes : 16;
  constexpr uint32_t b_lbo = SB::column_major ? 16 : uint32_t(SB::rows * SB::block) * bytes;
  const int64_t wg = int64_t(tid / 128u);
  detail::pin_registers(c);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int64_t kk = 0; kk < K / KI; ++kk)
#pragma unroll
    for (int64_t i = 0; i < RM; ++i) {
      const int64_t row = i * 16 * W + wg * 64;
      const uint64_t da = detail::wgmma_descriptor<SA>(a + SA::offset(row * K + kk * KI), a_lbo,
                                                       uint32_t(8 * SA::block) * bytes);
#pragma unroll
      for (int64_t nc = 0; nc < N / NC; ++nc) {
        const uint64_t db = detail::wgmma_descriptor<SB>(b + SB::offset(kk * KI * N + nc * NC),
                                                         b_lbo, uint32_t(8 * SB::block) * bytes);
        detail::wgmma<int(NC), TA, TB, SA::column_major ? 1 : 0, SB::column_major ? 0 : 1>(
            &c[(i * RN + nc * (NC / 8)) * 4], da, db);
      }
    }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#else
  const int lane = int(tid % 32u), w = int(tid / 32u % unsigned(W));
  if constexpr (std::is_same_v<TA, float>) {
    detail::mma_tf32_stages<LC, SA, SB>(c, a, b, lane, w);
  } else {
#pragma unroll
    for (int64_t kk = 0; kk < K / KI; ++kk) {
      uint32_t fa[RM][4];
#pragma unroll
      for (int64_t i = 0; i < RM; ++i)
        detail::ldmatrix_a<SA>(fa[i], a, i * 16 * W + w * 16, kk * KI, lane);
#pragma unroll
      for (int64_t j = 0; j < RN; ++j) {
        uint32_t fb[2];
        detail::ldmatrix_b<SB>(fb, b, kk * KI, j * 8, lane);
#pragma unroll
        for (int64_t i = 0; i < RM; ++i) {
          float* d = &c[(i * RN + j) * 4];
          if constexpr (f8) {
            TA x[16];
            TB y[8];
            memcpy(x, fa[i], 16);
            memcpy(y, fb, 8);
            detail::mma_f8_tile(d, x, y);
          } else if constexpr (std::is_same_v<TA, __half>) {
            detail::mma_f16(d, fa[i][0], fa[i][1], fa[i][2], fa[i][3], fb[0], fb[1]);
          } else {
            detail::mma_bf16(d, fa[i][0], fa[i][1], fa[i][2], fa[i][3], fb[0], fb[1]);
          }
        }
      }
    }
  }
#endif
}

/// The 16-bit registers `a` packed in pairs, the first in the low half: an A operand as
/// warpgroup_mma_rs reads it.
template <int E, class T>
TILE_DEV_D void pack_pairs(uint32_t (&p)[E / 2], const T (&a)[E]) {
  static_assert(sizeof(T) == 2 && E % 2 == 0, "tilecc: pairs of 16-bit registers");
  memcpy(p, a, sizeof p);
}

/// C += A x B as warpgroup_mma does, with A (M x K, f16 or bf16 like B) in this thread's
/// registers `a`, packed in pairs (pack_pairs), in the dot operand layout LA of C's (its warp's
/// rows as mma.sync A fragments: the registers of an accumulator of the same layout cast to
/// 16 bits), and B (K x N) in a buffer stage laid out as SB. wgmma reads `a` until
/// warpgroup_wait: pin_registers(a) after the wait keeps the registers from being reused.
template <class LC, class LA, class SB, class T>
TILE_DEV_D void warpgroup_mma_rs(float (&c)[LC::elems], uint32_t (&a)[LA::elems / 2],
                                 const T* b, unsigned tid) {
  static_assert(LC::wn_count == 1 && LC::wm_count % 4 == 0 && LA::wm_count == LC::wm_count &&
                    LA::wn_count == 1 && LA::op_idx == 0,
                "tilecc: a warpgroup mma has warpgroups stacked along M");
  static_assert(sizeof(T) == 2, "tilecc: an A operand in registers has 16-bit elements");
  constexpr int64_t KI = 16, K = LA::S::cols, N = LC::S::cols, RM = LC::RM, RN = LC::RN;
  static_assert(LA::RR == RM && LA::RC * KI == K && SB::tile_cols == N && LA::per_tile == 8,
                "tilecc: inconsistent warpgroup mma operands");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int64_t NC = N < 256 ? N : 256;  // columns per instruction
  constexpr uint32_t bytes = uint32_t(sizeof(T));
  constexpr uint32_t b_lbo = SB::column_major ? 16 : uint32_t(SB::rows * SB::block) * bytes;
  detail::pin_registers(c);
  detail::pin_registers(a);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int64_t kk = 0; kk < LA::RC; ++kk)
#pragma unroll
    for (int64_t i = 0; i < RM; ++i) {
#pragma unroll
      for (int64_t nc = 0; nc < N / NC; ++nc) {
        const uint64_t db = detail::wgmma_descriptor<SB>(b + SB::offset(kk * KI * N + nc * NC),
                                                         b_lbo, uint32_t(8 * SB::block) * bytes);
        detail::wgmma_rs<int(NC), T, SB::column_major ? 0 : 1>(&c[(i * RN + nc * (NC / 8)) * 4],
                                                                &a[(i * LA::RC + kk) * 4], db);
      }
    }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#else
  const int lane = int(tid % 32u);
#pragma unroll
  for (int64_t kk = 0; kk < LA::RC; ++kk)
#pragma unroll
    for (int64_t j = 0; j < RN; ++j) {
      uint32_t fb[2];
      detail::ldmatrix_b<SB>(fb, b, kk * KI, j * 8, lane);
#pragma unroll
      for (int64_t i = 0; i < RM; ++i) {
        const uint32_t* x = &a[(i * LA::RC + kk) * 4];
        float* d = &c[(i * RN + j) * 4];
        if constexpr (std::is_same_v<T, __half>)
          detail::mma_f16(d, x[0], x[1], x[2], x[3], fb[0], fb[1]);
        else
          detail::mma_bf16(d, x[0], x[1], x[2], x[3], fb[0], fb[1]);
      }
    }
#endif
}

/// Waits until at most `Pending` of this warpgroup's mma groups are in flight; with 0 the
/// accumulator `c` of the last one is ready.
template <int Pending, int E>
TILE_DEV_D void warpgroup_wait(float (&c)[E]) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
  detail::pin_registers(c);
#else
  (void)c;
#endif
}

namespace detail {
/// The word type of an access of `Bytes` bytes.
template <int Bytes>
using access_word_t = std::conditional_t<Bytes == 16, uint4, std::conditional_t<Bytes == 8,
    uint2, std::conditional_t<Bytes == 4, uint32_t, std::conditional_t<Bytes == 2, uint16_t,
    uint8_t>>>>;
/// `V` registers to shared memory at `to` (aligned to the access) as one access.
template <class T, int V>
TILE_DEV_D void store_vector(T* to, const T* from) {
  using W = access_word_t<int(sizeof(T)) * V>;
  static_assert(sizeof(W) == sizeof(T) * V, "tilecc: a staged vector is 1 to 16 bytes");
  W w;
  memcpy(&w, from, sizeof(W));
  *reinterpret_cast<W*>(to) = w;
}
/// `V` elements of shared memory at `from` (aligned to the access) to registers.
template <class T, int V>
TILE_DEV_D void load_vector(T* to, const T* from) {
  using W = access_word_t<int(sizeof(T)) * V>;
  static_assert(sizeof(W) == sizeof(T) * V, "tilecc: a staged vector is 1 to 16 bytes");
  const W w = *reinterpret_cast<const W*>(from);
  memcpy(to, &w, sizeof(W));
}
} // namespace detail

/// Writes a tile's elements where staging S puts them (owners only), `V` consecutive
/// registers per access.
template <class S, int V, class L, class T>
TILE_DEV_D void to_shared_staged(T* s, const Thread<L>& t, const T (&src)[L::elems]) {
  static_assert(V == 1 || (L::fast == L::rank - 1 && L::vec % V == 0), "tilecc: bad vector");
  if (L::replicates && !t.owner) return;
#pragma unroll
  for (int r = 0; r < L::elems; r += V) {
    T* p = s + S::offset(t.linear(r));
    if constexpr (V == 1) *p = src[r];
    else detail::store_vector<T, V>(p, &src[r]);
  }
}

/// Reads a tile staged by to_shared_staged<S, ...> into the registers of layout L, `V`
/// consecutive registers per access.
template <class S, int V, class L, class T>
TILE_DEV_D void from_shared_staged(T (&dst)[L::elems], const Thread<L>& t, const T* s) {
  static_assert(V == 1 || (L::fast == L::rank - 1 && L::vec % V == 0), "tilecc: bad vector");
#pragma unroll
  for (int r = 0; r < L::elems; r += V) {
    const T* p = s + S::offset(t.linear(r));
    if constexpr (V == 1) dst[r] = *p;
    else detail::load_vector<T, V>(&dst[r], p);
  }
}

/// The program's `Threads` threads store tile `src` (layout L, their registers) at view
/// coordinates `at` of the view of `m` (the tile along its last two axes; elements outside
/// the view are dropped) in chunks of S::cols columns:
/// each chunk into one of the two stages at `stages` (staging S, the map's box), and program
/// thread 0 hands it to the tensor memory accelerator, which writes it out while the threads
/// fill the other stage (cp.async.bulk.tensor, bulk groups). The lanes and warps of L hold
/// columns within one chunk, so a register's chunk is known at compile time. Begins with a
/// barrier of the program's threads; thread 0 waits until the stages are read before it
/// returns.
template <class S, unsigned Threads, class L, class T, int N>
TILE_DEV_D void tensor_map_store(const T (&src)[L::elems], const Thread<L>& t, T* stages,
                                 const TensorMap& m, const int64_t (&at)[N]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr int64_t chunk = S::cols, stage = L::shape(0) * S::cols;
  constexpr int64_t chunks = L::shape(1) / chunk;
  static_assert(L::rank == 2 && S::block == S::cols && L::shape(1) % chunk == 0,
                "tilecc: a tensor map store takes whole column chunks of the tile");
  constexpr int V = L::fast == 1 ? (L::vec < S::vec ? L::vec : S::vec) : 1;
  const bool first = threadIdx.x == 0;
  const uint64_t map = reinterpret_cast<uint64_t>(&m.map);
  program_barrier<Threads>();
#pragma unroll
  for (int64_t c = 0; c < chunks; ++c) {
    T* s = stages + (c % 2) * stage;
    if (c >= 2) {  // the stage's last chunk has been read
      if (first) asm volatile("cp.async.bulk.wait_group.read 1;\n" ::: "memory");
      program_barrier<Threads>();
    }
    if (!L::replicates || t.owner) {
#pragma unroll
      for (int r = 0; r < L::elems; r += V) {
        if (L::reg_coord(r, 1) / chunk != c) continue;
        const int64_t lin = t.coord(r, 0) * chunk + t.coord(r, 1) % chunk;
        if constexpr (V == 1) s[S::offset(lin)] = src[r];
        else detail::store_vector<T, V>(s + S::offset(lin), &src[r]);
      }
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    program_barrier<Threads>();
    if (first) {
      int hw[N];
      detail::box_coordinates<false>(hw, at, c * chunk);
      detail::bulk_tensor_store(map, hw, detail::shared_address(s));
      asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    }
  }
  if (first) asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
#else
  (void)src, (void)t, (void)stages, (void)m, (void)at;
  __trap();  // usable() is false here
#endif
}

/// The value whose bits are `bits` (for constants that have no exact literal: inf, NaN, f16).
template <class T, class B>
TILE_DEV_HD T from_bits(B bits) {
  static_assert(sizeof(T) <= sizeof(B), "tilecc: constant bits too narrow");
  using U = std::conditional_t<sizeof(T) == 1, uint8_t,
            std::conditional_t<sizeof(T) == 2, uint16_t,
            std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
  U u = static_cast<U>(bits);
  T t;
  memcpy(&t, &u, sizeof(T));
  return t;
}

template <class To, class From>
TILE_DEV_HD To bit_cast(From x) {
  static_assert(sizeof(To) == sizeof(From), "tilecc: bitcast between different sizes");
  To t;
  memcpy(&t, &x, sizeof(To));
  return t;
}

/// Integer negation. ptxas (CUDA 13.0, sm_80 and sm_90a) miscompiles an integer `0 - x` that
/// feeds a chain of max/min: the SASS combines x where it should combine -x (see
/// bench/results/2026-11-30-h200-mma-fragments.md). Subtracting from a zero in constant memory,
/// which ptxas does not fold, costs the same single instruction and is compiled correctly.
static __constant__ int64_t tile_dev_opaque_zero = 0;
/// Wraps around like the rest of integer arithmetic (the negation of the least value is itself).
template <class T>
TILE_DEV_D T negate(T x) {
  using U = std::make_unsigned_t<T>;
  return T(U(U(tile_dev_opaque_zero) - U(x)));
}

// Integer division rounding toward +inf / -inf (arith.ceildivsi / floordivsi / ceildivui).
template <class T>
TILE_DEV_HD T ceildiv(T a, T b) {
  T q = a / b, r = a % b;
  return (r != 0 && ((r < 0) == (b < 0))) ? T(q + 1) : q;
}
template <class T>
TILE_DEV_HD T floordiv(T a, T b) {
  T q = a / b, r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? T(q - 1) : q;
}
template <class T>
TILE_DEV_HD T ceildivu(T a, T b) {
  using U = std::make_unsigned_t<T>;
  U ua = U(a), ub = U(b);
  return T(ua / ub + (ua % ub != 0 ? 1 : 0));
}
template <class T>
TILE_DEV_HD T smin(T a, T b) { return b < a ? b : a; }
template <class T>
TILE_DEV_HD T smax(T a, T b) { return a < b ? b : a; }
template <class T>
TILE_DEV_HD T umin(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return U(b) < U(a) ? b : a;
}
template <class T>
TILE_DEV_HD T umax(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return U(a) < U(b) ? b : a;
}
template <class T>
TILE_DEV_HD T iabs(T a) { return a < 0 ? T(-a) : a; }

template <class T>
TILE_DEV_HD bool isnan_(T x) { return !(x == x); }
template <class T>
TILE_DEV_HD bool is_neg_zero(T x) {
  const float f = cvt<float>(x);
  return f == 0.0f && (bit_cast<uint32_t>(f) >> 31) != 0;
}

// arith.maximumf / minimumf propagate NaN; maxnumf / minnumf prefer the number.
// Both order -0 below +0. On the GPU a float takes the hardware's max / min (max.NaN for the
// NaN-propagating forms, sm_80 on), one instruction where the portable form takes eight (a
// softmax's row maximum ran attention at 0.37 of SDPA with it, 0.88 without, H100); equal
// operands, where only the zeros' signs may differ, are combined bit by bit instead.
namespace detail {
TILE_DEV_D float equal_max(float a, float b) { return __int_as_float(__float_as_int(a) & __float_as_int(b)); }
TILE_DEV_D float equal_min(float a, float b) { return __int_as_float(__float_as_int(a) | __float_as_int(b)); }
TILE_DEV_D float max_nan(float a, float b) {
  float d;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  return d;
}
TILE_DEV_D float min_nan(float a, float b) {
  float d;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  return d;
}
}  // namespace detail
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define TILE_DEV_HW_MINMAX 1
#else
#define TILE_DEV_HW_MINMAX 0
#endif
template <class T>
TILE_DEV_HD T maximumf(T a, T b) {
#if TILE_DEV_HW_MINMAX
  if constexpr (std::is_same_v<T, float>)
    return a == b ? detail::equal_max(a, b) : detail::max_nan(a, b);
#endif
  if (isnan_(a)) return a;
  if (isnan_(b)) return b;
  if (a == b) return is_neg_zero(a) ? b : a;
  return a < b ? b : a;
}
template <class T>
TILE_DEV_HD T minimumf(T a, T b) {
#if TILE_DEV_HW_MINMAX
  if constexpr (std::is_same_v<T, float>)
    return a == b ? detail::equal_min(a, b) : detail::min_nan(a, b);
#endif
  if (isnan_(a)) return a;
  if (isnan_(b)) return b;
  if (a == b) return is_neg_zero(a) ? a : b;
  return b < a ? b : a;
}
template <class T>
TILE_DEV_HD T maxnumf(T a, T b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) return a == b ? detail::equal_max(a, b) : fmaxf(a, b);
#endif
  if (isnan_(a)) return b;
  if (isnan_(b)) return a;
  return maximumf(a, b);
}
template <class T>
TILE_DEV_HD T minnumf(T a, T b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) return a == b ? detail::equal_min(a, b) : fminf(a, b);
#endif
  if (isnan_(a)) return b;
  if (isnan_(b)) return a;
  return minimumf(a, b);
}
#undef TILE_DEV_HW_MINMAX

// Unary and binary math on float, double and (through float) the 16-bit floats.
#define TILE_DEV_MATH1(name, ffn, dfn)                                                    \
  TILE_DEV_D float name(float x) { return ::ffn(x); }                                    \
  TILE_DEV_D double name(double x) { return ::dfn(x); }                                  \
  TILE_DEV_D __half name(__half x) { return __float2half(::ffn(__half2float(x))); }      \
  TILE_DEV_D __nv_bfloat16 name(__nv_bfloat16 x) {                                       \
    return __float2bfloat16(::ffn(__bfloat162float(x)));                                 \
  }
#define TILE_DEV_MATH2(name, ffn, dfn)                                                    \
  TILE_DEV_D float name(float x, float y) { return ::ffn(x, y); }                        \
  TILE_DEV_D double name(double x, double y) { return ::dfn(x, y); }                     \
  TILE_DEV_D __half name(__half x, __half y) {                                           \
    return __float2half(::ffn(__half2float(x), __half2float(y)));                        \
  }                                                                                      \
  TILE_DEV_D __nv_bfloat16 name(__nv_bfloat16 x, __nv_bfloat16 y) {                      \
    return __float2bfloat16(::ffn(__bfloat162float(x), __bfloat162float(y)));            \
  }

// exp and exp2 of float (and of the 16-bit floats, through float) run on the special function
// unit, as Triton's and CUTLASS's do: ex2.approx.ftz (relative error about 2^-22; results
// below the smallest normal float flush to zero), exp(x) as 2^(x log2 e). A softmax spends
// most of its instructions here: libdevice's expf takes about eight.
namespace detail {
TILE_DEV_D float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
}  // namespace detail
TILE_DEV_D float exp2(float x) { return detail::exp2_approx(x); }
TILE_DEV_D float exp(float x) { return detail::exp2_approx(x * 1.4426950408889634f); }
TILE_DEV_D double exp2(double x) { return ::exp2(x); }
TILE_DEV_D double exp(double x) { return ::exp(x); }
TILE_DEV_D __half exp2(__half x) { return __float2half(exp2(__half2float(x))); }
TILE_DEV_D __half exp(__half x) { return __float2half(exp(__half2float(x))); }
TILE_DEV_D __nv_bfloat16 exp2(__nv_bfloat16 x) {
  return __float2bfloat16(exp2(__bfloat162float(x)));
}
TILE_DEV_D __nv_bfloat16 exp(__nv_bfloat16 x) { return __float2bfloat16(exp(__bfloat162float(x))); }
TILE_DEV_MATH1(expm1, expm1f, expm1)
TILE_DEV_MATH1(log, logf, log)
TILE_DEV_MATH1(log2, log2f, log2)
TILE_DEV_MATH1(log10, log10f, log10)
TILE_DEV_MATH1(log1p, log1pf, log1p)
TILE_DEV_MATH1(sqrt, sqrtf, sqrt)
TILE_DEV_MATH1(rsqrt, rsqrtf, rsqrt)
TILE_DEV_MATH1(cbrt, cbrtf, cbrt)
TILE_DEV_MATH1(sin, sinf, sin)
TILE_DEV_MATH1(cos, cosf, cos)
TILE_DEV_MATH1(tan, tanf, tan)
TILE_DEV_MATH1(asin, asinf, asin)
TILE_DEV_MATH1(acos, acosf, acos)
TILE_DEV_MATH1(atan, atanf, atan)
TILE_DEV_MATH1(sinh, sinhf, sinh)
TILE_DEV_MATH1(cosh, coshf, cosh)
TILE_DEV_MATH1(tanh, tanhf, tanh)
TILE_DEV_MATH1(asinh, asinhf, asinh)
TILE_DEV_MATH1(acosh, acoshf, acosh)
TILE_DEV_MATH1(atanh, atanhf, atanh)
TILE_DEV_MATH1(erf, erff, erf)
TILE_DEV_MATH1(erfc, erfcf, erfc)
TILE_DEV_MATH1(fabs, fabsf, fabs)
TILE_DEV_MATH1(floor, floorf, floor)
TILE_DEV_MATH1(ceil, ceilf, ceil)
TILE_DEV_MATH1(trunc, truncf, trunc)
TILE_DEV_MATH1(round, roundf, round)
TILE_DEV_MATH1(roundeven, rintf, rint)
TILE_DEV_MATH2(pow, powf, pow)
TILE_DEV_MATH2(atan2, atan2f, atan2)
TILE_DEV_MATH2(fmod, fmodf, fmod)
TILE_DEV_MATH2(copysign, copysignf, copysign)
#undef TILE_DEV_MATH1
#undef TILE_DEV_MATH2

TILE_DEV_D float fma(float a, float b, float c) { return ::fmaf(a, b, c); }
TILE_DEV_D double fma(double a, double b, double c) { return ::fma(a, b, c); }
TILE_DEV_D __half fma(__half a, __half b, __half c) { return __hfma(a, b, c); }
TILE_DEV_D __nv_bfloat16 fma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return __float2bfloat16(::fmaf(__bfloat162float(a), __bfloat162float(b), __bfloat162float(c)));
}

//===----------------------------------------------------------------------===//
// Atomic updates
//===----------------------------------------------------------------------===//
//
// `tilegpu.global_atomic`: each element update is one atomic read-modify-write of global memory,
// computed exactly as the CPU reference does (tile/atomic.hpp). CUDA's native atomics serve
// where they give that result; otherwise a compare-and-swap loop applies the rule: 16-bit
// elements swap 16 bits, bytes swap the aligned 32-bit word that holds them (the runtime
// allocates arrays in whole words).

/// The update `tilegpu.global_atomic` names (umax/umin compare integers as unsigned).
enum class Rmw { add, max, min, umax, umin, exchange, cas };

namespace detail {
template <class T>
using UnsignedOf = std::conditional_t<
    sizeof(T) == 1, unsigned char,
    std::conditional_t<sizeof(T) == 2, unsigned short,
                       std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>>>;

template <class T>
TILE_DEV_D UnsignedOf<T> bits_of(T x) {
  UnsignedOf<T> u;
  memcpy(&u, &x, sizeof(T));
  return u;
}
template <class T>
TILE_DEV_D T of_bits(UnsignedOf<T> u) {
  T x;
  memcpy(&x, &u, sizeof(T));
  return x;
}

/// Atomically replaces *p by f(*p) and returns the old value. When f leaves the bits as they
/// are, the load was the atomic step and nothing is written.
template <class T, class F>
TILE_DEV_D T atomic_update(T* p, F f) {
  if constexpr (sizeof(T) == 1) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    unsigned int* word = reinterpret_cast<unsigned int*>(a & ~uintptr_t(3));
    const unsigned shift = unsigned(a & 3u) * 8u;
    unsigned int seen = *reinterpret_cast<volatile unsigned int*>(word);
    for (;;) {
      const unsigned char bits = (unsigned char)(seen >> shift);
      const T old = of_bits<T>(bits);
      const unsigned char next = bits_of(f(old));
      if (next == bits) return old;
      const unsigned int want = (seen & ~(0xffu << shift)) | (unsigned(next) << shift);
      const unsigned int got = atomicCAS(word, seen, want);
      if (got == seen) return old;
      seen = got;
    }
  } else {
    using U = UnsignedOf<T>;
    U* q = reinterpret_cast<U*>(p);
    U seen = *reinterpret_cast<volatile U*>(q);
    for (;;) {
      const T old = of_bits<T>(seen);
      const U next = bits_of(f(old));
      if (next == seen) return old;
      const U got = atomicCAS(q, seen, next);
      if (got == seen) return old;
      seen = got;
    }
  }
}
}  // namespace detail

/// One element update of *p with `v` (and `expected`, for cas); returns the old value.
template <Rmw K, class T>
TILE_DEV_D T rmw(T* p, T v, T expected) {
  using detail::atomic_update;
  using detail::bits_of;
  using detail::of_bits;
  using U = detail::UnsignedOf<T>;
  constexpr bool wide = sizeof(T) == 4 || sizeof(T) == 8;
  constexpr bool integer = std::is_integral_v<T>;
  if constexpr (K == Rmw::add) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
      return atomicAdd(p, v);
    else if constexpr (integer && wide)  // two's complement: one add for either signedness
      return of_bits<T>(atomicAdd(reinterpret_cast<U*>(p), bits_of(v)));
    else
      return atomic_update(p, [v](T o) { return T(o + v); });
  } else if constexpr (K == Rmw::max || K == Rmw::min) {
    constexpr bool mx = K == Rmw::max;
    if constexpr (!integer) {
      return atomic_update(p, [v](T o) { return mx ? maxnumf(o, v) : minnumf(o, v); });
    } else if constexpr (wide) {
      using S = std::conditional_t<sizeof(T) == 4, int, long long>;
      S* q = reinterpret_cast<S*>(p);
      return T(mx ? atomicMax(q, S(v)) : atomicMin(q, S(v)));
    } else {
      return atomic_update(p, [v](T o) { return mx ? smax(o, v) : smin(o, v); });
    }
  } else if constexpr (K == Rmw::umax || K == Rmw::umin) {
    static_assert(integer, "tilecc: umax/umin need integer elements");
    constexpr bool mx = K == Rmw::umax;
    if constexpr (wide) {
      U* q = reinterpret_cast<U*>(p);
      return of_bits<T>(mx ? atomicMax(q, bits_of(v)) : atomicMin(q, bits_of(v)));
    } else {
      return atomic_update(p, [v](T o) {
        const U a = bits_of(o), b = bits_of(v);
        return (mx ? a < b : b < a) ? v : o;
      });
    }
  } else if constexpr (K == Rmw::exchange) {
    if constexpr (wide)
      return of_bits<T>(atomicExch(reinterpret_cast<U*>(p), bits_of(v)));
    else
      return atomic_update(p, [v](T) { return v; });
  } else {
    if constexpr (sizeof(T) >= 2)
      return of_bits<T>(atomicCAS(reinterpret_cast<U*>(p), bits_of(expected), bits_of(v)));
    else
      return atomic_update(p, [v, expected](T o) { return bits_of(o) == bits_of(expected) ? v : o; });
  }
}

/// Tile update: register r of this thread updates the element at off + coord(r) when it lies
/// in [0, bounds), and receives its old value (zero when dropped). Copies a replicating layout
/// does not own make no update and receive zero (see `share_owned`).
template <Rmw K, class L, class T, int R>
TILE_DEV_D void atomic_tile(T (&old)[L::elems], const View<T, R>& v, const Thread<L>& t,
                            const T (&src)[L::elems], const T (&expected)[L::elems],
                            const int64_t (&off)[R], const int64_t (&hi)[R]) {
  static_assert(L::rank == R, "tilecc: tile and view ranks differ");
  const bool acts = !L::replicates || t.owner;
#pragma unroll
  for (int r = 0; r < L::elems; ++r) {
    old[r] = T{};
    int64_t lin = 0;
    bool ok = acts;
#pragma unroll
    for (int d = 0; d < R; ++d) {
      const int64_t c = off[d] + t.coord(r, d);
      ok = ok && c >= 0 && c < hi[d];
      lin += c * v.strides[d];
    }
    if (ok) old[r] = rmw<K>(v.data + lin, src[r], expected[r]);
  }
}

/// Element update of the element at `at` when it lies in [0, bounds); else the old value is
/// zero. Made by one thread of the program.
template <Rmw K, class T, int R>
TILE_DEV_D T atomic_element(const View<T, R>& v, const int64_t (&at)[R], const int64_t (&hi)[R],
                            std::type_identity_t<T> value, std::type_identity_t<T> expected) {
  int64_t lin = 0;
#pragma unroll
  for (int d = 0; d < R; ++d) {
    if (at[d] < 0 || at[d] >= hi[d]) return T{};
    lin += at[d] * v.strides[d];
  }
  return rmw<K>(v.data + lin, value, expected);
}

/// Gives every copy of a replicated tile its owner's registers, through shared memory `s`.
template <class L, class T>
TILE_DEV_D void share_owned(T (&x)[L::elems], const Thread<L>& t, T* s) {
  __syncthreads();
  to_shared(s, t, x);
  __syncthreads();
#pragma unroll
  for (int r = 0; r < L::elems; ++r) x[r] = s[t.linear(r)];
}

//===----------------------------------------------------------------------===//
// Debugging: tile.check and tile.print
//===----------------------------------------------------------------------===//
//
// The formats are tile/debug.hpp's, so that a kernel prints the same lines on both backends.

namespace detail {
/// Appends `s` to the text at `p`, leaving room for the terminating zero before `end`.
TILE_DEV_D void append(char*& p, char* end, const char* s) {
  while (*s && p + 1 < end) *p++ = *s++;
  *p = 0;
}
TILE_DEV_D void append(char*& p, char* end, long long v) {
  char digits[24];
  int n = 0;
  unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
  do {
    digits[n++] = char('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0 && p + 1 < end) *p++ = '-';
  while (n && p + 1 < end) *p++ = digits[--n];
  *p = 0;
}
}  // namespace detail

/// "(i, j)": the program's coordinates, as tile/debug.hpp writes them.
struct ProgramText {
  char text[96];
};
TILE_DEV_D ProgramText program_text(const Grid& g, const int64_t (&bid)[tile::detail::kMaxRank]) {
  ProgramText t;
  char* p = t.text;
  char* end = t.text + sizeof t.text;
  detail::append(p, end, "(");
  for (int a = 0; a < g.rank; ++a) {
    if (a) detail::append(p, end, ", ");
    detail::append(p, end, (long long)bid[a]);
  }
  detail::append(p, end, ")");
  return t;
}

/// Records the first failed tile::check of the device (tile/detail/abi.hpp, CheckRecord).
TILE_DEV_D void check_failed(const Grid& g, const int64_t (&bid)[tile::detail::kMaxRank],
                             const char* kernel, const char* file, int line, const char* message) {
  tile::detail::CheckRecord* r = g.checks;
  if (!r || atomicCAS(&r->state, 0, 1) != 0) return;
  r->line = line;
  r->grid_rank = g.rank;
  for (int a = 0; a < tile::detail::kMaxRank; ++a) r->program[a] = bid[a];
  char* p = r->kernel;
  detail::append(p, r->kernel + sizeof r->kernel, kernel);
  p = r->file;
  detail::append(p, r->file + sizeof r->file, file);
  p = r->message;
  detail::append(p, r->message + sizeof r->message, message);
  __threadfence_system();
  atomicExch(&r->state, 2);
}

/// One printed line: `[program P] label<index> = v`.
template <class T>
TILE_DEV_D void print_element(const char* program, const char* label, const char* index, T v,
                              bool is_unsigned) {
  if constexpr (std::is_same_v<T, bool>) {
    printf("[program %s] %s%s = %d\n", program, label, index, v ? 1 : 0);
  } else if constexpr (std::is_integral_v<T>) {
    if (is_unsigned)
      printf("[program %s] %s%s = %llu\n", program, label, index,
             (unsigned long long)detail::bits_of(v));
    else
      printf("[program %s] %s%s = %lld\n", program, label, index, (long long)v);
  } else if constexpr (std::is_same_v<T, double>) {
    printf("[program %s] %s%s = %.17g\n", program, label, index, v);
  } else if constexpr (std::is_same_v<T, cfloat>) {
    printf("[program %s] %s%s = (%.9g, %.9g)\n", program, label, index, double(v.re), double(v.im));
  } else {
    printf("[program %s] %s%s = %.9g\n", program, label, index, double(cvt<float>(v)));
  }
}

/// Prints every element of a tile in row-major order: the owners stage it in `s`, then the
/// `leader` thread prints.
template <class L, class T>
TILE_DEV_D void print_tile(const char* label, const T (&x)[L::elems], const Thread<L>& t, T* s,
                           const char* program, bool leader, bool is_unsigned) {
  __syncthreads();
  to_shared(s, t, x);
  __syncthreads();
  if (leader) {
    int64_t numel = 1;
    for (int d = 0; d < L::rank; ++d) numel *= L::shape(d);
    for (int64_t k = 0; k < numel; ++k) {
      int64_t coord[L::rank];
      int64_t rest = k;
      for (int d = L::rank - 1; d >= 0; --d) {
        coord[d] = rest % L::shape(d);
        rest /= L::shape(d);
      }
      char index[96];
      char* p = index;
      char* end = index + sizeof index;
      detail::append(p, end, "[");
      for (int d = 0; d < L::rank; ++d) {
        if (d) detail::append(p, end, ", ");
        detail::append(p, end, (long long)coord[d]);
      }
      detail::append(p, end, "]");
      print_element(program, label, index, s[k], is_unsigned);
    }
  }
  __syncthreads();
}

}  // namespace tile_dev
