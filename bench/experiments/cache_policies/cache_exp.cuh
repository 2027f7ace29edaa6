#pragma once
// Cache policies on 16-byte global accesses, for the experiment in run.sh. C: 0 default,
// 1 L1::no_allocate, 2 L1::evict_last, 3 L1::no_allocate + L2 evict_first, 4 L1::evict_last +
// L2 evict_last, 5 .cs (streaming). Only Whole, 16-byte accesses change; others are as before.
namespace tile_dev { namespace cexp {
template <int C> __device__ __forceinline__ uint4 ld16(const void* p, bool in) {
  unsigned w[4] = {0u, 0u, 0u, 0u};
  if constexpr (C == 0)
    asm("{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n @p ld.global.nc.v4.b32 {%0, %1, %2, %3}, [%5];\n}"
        : "+r"(w[0]), "+r"(w[1]), "+r"(w[2]), "+r"(w[3]) : "r"(int(in)), "l"(p));
  else if constexpr (C == 1)
    asm("{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n @p ld.global.nc.L1::no_allocate.v4.b32 {%0, %1, %2, %3}, [%5];\n}"
        : "+r"(w[0]), "+r"(w[1]), "+r"(w[2]), "+r"(w[3]) : "r"(int(in)), "l"(p));
  else if constexpr (C == 2)
    asm("{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n @p ld.global.nc.L1::evict_last.v4.b32 {%0, %1, %2, %3}, [%5];\n}"
        : "+r"(w[0]), "+r"(w[1]), "+r"(w[2]), "+r"(w[3]) : "r"(int(in)), "l"(p));
  else if constexpr (C == 3)
    asm("{\n .reg .pred p;\n .reg .b64 q;\n setp.ne.b32 p, %4, 0;\n createpolicy.fractional.L2::evict_first.b64 q, 1.0;\n @p ld.global.nc.L1::no_allocate.L2::cache_hint.v4.b32 {%0, %1, %2, %3}, [%5], q;\n}"
        : "+r"(w[0]), "+r"(w[1]), "+r"(w[2]), "+r"(w[3]) : "r"(int(in)), "l"(p));
  else if constexpr (C == 4)
    asm("{\n .reg .pred p;\n .reg .b64 q;\n setp.ne.b32 p, %4, 0;\n createpolicy.fractional.L2::evict_last.b64 q, 1.0;\n @p ld.global.nc.L1::evict_last.L2::cache_hint.v4.b32 {%0, %1, %2, %3}, [%5], q;\n}"
        : "+r"(w[0]), "+r"(w[1]), "+r"(w[2]), "+r"(w[3]) : "r"(int(in)), "l"(p));
  else if constexpr (C == 5)
    asm("{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n @p ld.global.cs.v4.b32 {%0, %1, %2, %3}, [%5];\n}"
        : "+r"(w[0]), "+r"(w[1]), "+r"(w[2]), "+r"(w[3]) : "r"(int(in)), "l"(p));
  uint4 u; memcpy(&u, w, 16); return u;
}
template <int C> __device__ __forceinline__ void st16(void* p, uint4 u) {
  if constexpr (C == 0)
    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(u.x), "r"(u.y), "r"(u.z), "r"(u.w) : "memory");
  else if constexpr (C == 1)
    asm volatile("st.global.L1::no_allocate.v4.b32 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(u.x), "r"(u.y), "r"(u.z), "r"(u.w) : "memory");
  else if constexpr (C == 3)
    asm volatile("{\n .reg .b64 q;\n createpolicy.fractional.L2::evict_first.b64 q, 1.0;\n st.global.L1::no_allocate.L2::cache_hint.v4.b32 [%0], {%1, %2, %3, %4}, q;\n}" :: "l"(p), "r"(u.x), "r"(u.y), "r"(u.z), "r"(u.w) : "memory");
  else if constexpr (C == 5)
    asm volatile("st.global.cs.v4.b32 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(u.x), "r"(u.y), "r"(u.z), "r"(u.w) : "memory");
}
template <int C, int V, bool NC, bool Aligned, bool Whole, class L, class T, int R>
__device__ __forceinline__ void load(T (&dst)[L::elems], const View<T, R>& v, const Thread<L>& t,
    const int64_t (&off)[R], const int64_t (&lo)[R], const int64_t (&hi)[R]) {
  if constexpr (Whole && sizeof(T) * V == 16) {
    const T* p0 = detail::thread_origin(v, t, off);
    const bool in = detail::inside<L>(off, lo, hi);
#pragma unroll
    for (int r0 = 0; r0 < L::elems; r0 += V) {
      uint4 raw = ld16<C>(p0 + detail::reg_offset<L, true>(v, r0), in);
      memcpy(&dst[r0], &raw, 16);
    }
  } else {
    tile_dev::load<V, NC, Aligned, Whole>(dst, v, t, off, lo, hi);
  }
}
template <int C, int V, bool Aligned, bool Whole, class L, class T, int R>
__device__ __forceinline__ void store(const View<T, R>& v, const Thread<L>& t, const T (&src)[L::elems],
    const int64_t (&off)[R], const int64_t (&lo)[R], const int64_t (&hi)[R]) {
  if constexpr (Whole && sizeof(T) * V == 16) {
    if (L::replicates && !t.owner) return;
    if (!detail::inside<L>(off, lo, hi)) return;
    T* p0 = detail::thread_origin(v, t, off);
#pragma unroll
    for (int r0 = 0; r0 < L::elems; r0 += V) {
      uint4 raw; memcpy(&raw, &src[r0], 16);
      st16<C>(p0 + detail::reg_offset<L, true>(v, r0), raw);
    }
  } else {
    tile_dev::store<V, Aligned, Whole>(v, t, src, off, lo, hi);
  }
}
}}
