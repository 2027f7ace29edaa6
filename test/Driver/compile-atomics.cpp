// RUN: tilecc compile %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc -c %t.cu -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// Atomic updates from many tile programs at once, on every kind of element the GPU updates
// differently: native 32/64-bit atomics, 16-bit and byte-wide compare-and-swap loops, signed and
// unsigned orders, floats with NaN. Each program records the old values it got back, so the
// test checks that every element was updated exactly once per program (the olds are a
// permutation), also where the layout replicates a small tile and for scalar updates made by one
// thread. Runs on the GPU where there is one, else on the CPU backend.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tile/tile.hpp>
#include <vector>

constexpr long long P = 200;  // tile programs: fits every counter type below without wrapping

// Every program adds one to the 4 elements of `counts` (a tile far smaller than a warp, so the
// layout replicates it) and records the old values it saw.
template <class T>
TILE_KERNEL void count_up(tile::Tensor<T, 1, 4>& olds, tile::Atomic<T, 4>& counts) {
  olds.store(tile::reshape<1, 4>(counts.atomic_add(tile::ones<T, 4>(), 0)));
}

// Scalar updates: a ticket from a counter, a compare-and-swap race, an exchange chain, and
// updates outside the array that must be dropped (their old value reads zero).
TILE_KERNEL void scalars(tile::Tensor<int64_t, 1, 4>& got, tile::Atomic<int64_t, 4>& cells) {
  const int64_t me = tile::block_id(0);
  const int64_t ticket = cells.atomic_add(int64_t(1), 0);
  const int64_t won = cells.atomic_cas(int64_t(0), me + 1, 1);
  const int64_t before = cells.atomic_exchange(me + 1, 2);
  const int64_t outside = cells.atomic_add(int64_t(5), 4) + cells.atomic_add(int64_t(5), -1);
  auto lane = tile::iota<int64_t, 4>();
  auto row = tile::where(lane == 0, ticket, tile::where(lane == 1, won, tile::where(lane == 2, before, outside)));
  got.store(tile::reshape<1, 4>(row));
}

// Each program folds its row of x into `hi` and `lo` (floats with NaN, unsigned above 2^31,
// bytes below zero, 16-bit above 2^15).
TILE_KERNEL void extremes(const tile::Tensor<float, P, 64>& x, const tile::Tensor<uint32_t, P, 64>& u,
                          const tile::Tensor<int8_t, P, 64>& s, const tile::Tensor<uint16_t, P, 64>& h,
                          tile::Atomic<float, 64>& hi, tile::Atomic<float, 64>& lo,
                          tile::Atomic<uint32_t, 64>& uhi, tile::Atomic<int8_t, 64>& slo,
                          tile::Atomic<uint16_t, 64>& hhi, tile::Tensor<int32_t, 1>& done) {
  const int64_t i = tile::block_id(0);
  hi.atomic_max(tile::reshape<64>(x.partition<1, 64>().load(i, 0)), 0);
  lo.atomic_min(tile::reshape<64>(x.partition<1, 64>().load(i, 0)), 0);
  uhi.atomic_max(tile::reshape<64>(u.partition<1, 64>().load(i, 0)), 0);
  slo.atomic_min(tile::reshape<64>(s.partition<1, 64>().load(i, 0)), 0);
  hhi.atomic_max(tile::reshape<64>(h.partition<1, 64>().load(i, 0)), 0);
  done.store(tile::ones<int32_t, 1>());
}

// Program p adds tile p of 32 elements to an array of 70: the third tile is cut at the edge.
TILE_KERNEL void edge(tile::Tensor<int32_t, 32>& olds, tile::Atomic<int32_t, tile::dyn>& a) {
  olds.store(a.atomic_add(tile::full<int32_t, 32>(1000), tile::block_id(0)));
}

// CHECK: tile_dev::atomic_tile<tile_dev::Rmw::add>
// CHECK: tile_dev::share_owned(
// CHECK: tile_dev::atomic_element<tile_dev::Rmw::cas>
// CHECK: tile_dev::atomic_tile<tile_dev::Rmw::umax>

static int failures = 0, checks = 0;
static void expect(bool ok, const char* what, long long at) {
  ++checks;
  if (!ok && ++failures <= 20) std::printf("FAILED: %s at %lld\n", what, at);
}

template <class T>
static double as_double(T x) {
  if constexpr (std::is_arithmetic_v<T>) return double(x);
  else return double(float(x));
}

template <class T>
static void count_up_check(const char* name) {
  auto olds = tile::zeros<T>({P, 4});
  auto counts = tile::zeros<T>({4});
  tile::launch<count_up<T>>(olds.template partition_mut<1, 4>(), counts).sync();
  const std::vector<T> o = olds.to_host(), c = counts.to_host();
  for (int e = 0; e < 4; ++e) {
    expect(as_double(c[e]) == double(P), name, e);
    std::vector<double> seen;
    for (long long p = 0; p < P; ++p) seen.push_back(as_double(o[p * 4 + e]));
    std::sort(seen.begin(), seen.end());
    for (long long p = 0; p < P; ++p) expect(seen[p] == double(p), name, p);
  }
}

int main() {
  count_up_check<int32_t>("count_up<int32_t>");
  count_up_check<uint8_t>("count_up<uint8_t>");
  count_up_check<int16_t>("count_up<int16_t>");
  count_up_check<int64_t>("count_up<int64_t>");
  count_up_check<uint64_t>("count_up<uint64_t>");
  count_up_check<float>("count_up<float>");
  count_up_check<double>("count_up<double>");
  count_up_check<tile::f16>("count_up<f16>");
  count_up_check<tile::bf16>("count_up<bf16>");

  {  // scalars
    auto got = tile::zeros<int64_t>({P, 4});
    auto cells = tile::zeros<int64_t>({4});
    tile::launch<scalars>(got.partition_mut<1, 4>(), cells).sync();
    const std::vector<int64_t> g = got.to_host(), c = cells.to_host();
    std::vector<int64_t> tickets, befores;
    long long winners = 0;
    for (long long p = 0; p < P; ++p) {
      tickets.push_back(g[p * 4]);
      if (g[p * 4 + 1] == 0) {
        ++winners;
        expect(c[1] == p + 1, "cas: the cell holds the winner", p);
      } else {
        expect(g[p * 4 + 1] == c[1], "cas: losers see the winner", p);
      }
      befores.push_back(g[p * 4 + 2]);
      expect(g[p * 4 + 3] == 0, "updates outside the array read zero", p);
    }
    expect(winners == 1, "cas: exactly one winner", winners);
    std::sort(tickets.begin(), tickets.end());
    for (long long p = 0; p < P; ++p) expect(tickets[p] == p, "tickets", p);
    expect(c[0] == P, "ticket counter", c[0]);
    befores.push_back(c[2]);  // the exchanges form one chain 0 -> ... -> the last one's value
    std::sort(befores.begin(), befores.end());
    for (long long k = 0; k <= P; ++k) expect(befores[k] == k, "exchange chain", k);
    expect(c[3] == 0, "nothing written past the array", c[3]);
  }

  {  // extremes
    std::vector<float> hx(P * 64);
    std::vector<uint32_t> hu(P * 64);
    std::vector<int8_t> hs(P * 64);
    std::vector<uint16_t> hh(P * 64);
    for (long long k = 0; k < P * 64; ++k) {
      const long long r = (k * 2654435761LL) % 1000003;
      hx[k] = (r % 17 == 0) ? std::numeric_limits<float>::quiet_NaN() : float(r % 2001) - 1000.0f;
      hu[k] = uint32_t(r * 4099u);
      hs[k] = int8_t(r % 251 - 125);
      hh[k] = uint16_t(r * 37);
    }
    // A column of NaN only: the extremes stay at their initial value there.
    for (long long p = 0; p < P; ++p) hx[p * 64 + 5] = std::numeric_limits<float>::quiet_NaN();
    auto x = tile::from_host(hx, {P, 64});
    auto u = tile::from_host(hu, {P, 64});
    auto s = tile::from_host(hs, {P, 64});
    auto h = tile::from_host(hh, {P, 64});
    auto hi = tile::full<float>({64}, -std::numeric_limits<float>::infinity());
    auto lo = tile::full<float>({64}, std::numeric_limits<float>::infinity());
    auto uhi = tile::zeros<uint32_t>({64});
    auto slo = tile::zeros<int8_t>({64});
    auto hhi = tile::zeros<uint16_t>({64});
    auto done = tile::zeros<int32_t>({P});
    tile::launch<extremes>(x, u, s, h, hi, lo, uhi, slo, hhi, done.partition_mut<1>()).sync();
    const std::vector<float> ghi = hi.to_host(), glo = lo.to_host();
    const std::vector<uint32_t> guhi = uhi.to_host();
    const std::vector<int8_t> gslo = slo.to_host();
    const std::vector<uint16_t> ghhi = hhi.to_host();
    for (int e = 0; e < 64; ++e) {
      float mx = -std::numeric_limits<float>::infinity(), mn = std::numeric_limits<float>::infinity();
      uint32_t umx = 0;
      int8_t smn = 0;
      uint16_t hmx = 0;
      for (long long p = 0; p < P; ++p) {
        mx = std::fmax(mx, hx[p * 64 + e]);
        mn = std::fmin(mn, hx[p * 64 + e]);
        umx = std::max(umx, hu[p * 64 + e]);
        smn = std::min(smn, hs[p * 64 + e]);
        hmx = std::max(hmx, hh[p * 64 + e]);
      }
      expect(ghi[e] == mx, "float atomic_max", e);
      expect(glo[e] == mn, "float atomic_min", e);
      expect(guhi[e] == umx, "uint32 atomic_max", e);
      expect(gslo[e] == smn, "int8 atomic_min", e);
      expect(ghhi[e] == hmx, "uint16 atomic_max", e);
    }
  }

  {  // edge
    auto olds = tile::full<int32_t>({96}, -1);
    auto a = tile::zeros<int32_t>({70});
    tile::launch<edge>(olds.partition_mut<32>(), a).sync();
    const std::vector<int32_t> o = olds.to_host(), g = a.to_host();
    for (int k = 0; k < 70; ++k) expect(g[k] == 1000 && o[k] == 0, "edge: inside", k);
    for (int k = 70; k < 96; ++k) expect(o[k] == 0, "edge: dropped", k);
  }

  std::printf("atomics: %d checks, %d failures on %s\n", checks, failures,
              tile::default_device().name().c_str());
  return failures != 0;
}
// OUT: atomics: {{[0-9]+}} checks, 0 failures
