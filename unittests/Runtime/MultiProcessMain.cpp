// One rank of a communicator across processes, run by scripts/tile-launch (ctest
// multiprocess.*, label `multidevice`): every collective of tile/collective.hpp, issued sync,
// async and as a replayed graph, checked against the values each rank can work out alone.
// Prints "rank R of N: M mismatches"; exits 1 on a mismatch. With `--rank-1-fails`, rank 1
// exits at once, which must stop the others instead of leaving them waiting.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tile/tile.hpp"

/// This process's arrays for a collective: its one rank's.
std::vector<tile::Array<float>> one(tile::Array<float> a) {
  std::vector<tile::Array<float>> v;
  v.push_back(std::move(a));
  return v;
}

int main(int argc, char** argv) {
  auto comm = tile::Communicator::from_environment();
  const int n = comm.size(), me = comm.first_rank();
  if (argc > 1 && std::string(argv[1]) == "--rank-1-fails" && me == 1) return 3;
  const tile::Device& d = comm.device(me);
  int bad = 0;
  auto expect = [&](const char* what, const std::vector<float>& got, const std::vector<float>& want) {
    if (got != want) {
      ++bad;
      std::printf("rank %d: %s: got %g..., expected %g...\n", me, what, got.empty() ? 0.0 : got[0],
                  want.empty() ? 0.0 : want[0]);
    }
  };
  const int64_t m = 1000;
  auto mine = [&](float base) {  // this rank's array: base + rank + i / 1000
    std::vector<float> h(m);
    for (int64_t i = 0; i < m; ++i) h[size_t(i)] = base + float(me) + float(i) / 1000.0f;
    return h;
  };
  auto at = [&](float base, int r) {  // what rank r's array holds
    std::vector<float> h(m);
    for (int64_t i = 0; i < m; ++i) h[size_t(i)] = base + float(r) + float(i) / 1000.0f;
    return h;
  };

  std::vector<tile::Array<float>> sums = one(tile::from_host(mine(1.0f), {m}, d));
  tile::ops::all_reduce(comm, sums).sync();
  std::vector<float> total(m, 0.0f);
  for (int r = 0; r < n; ++r) {
    const std::vector<float> h = at(1.0f, r);
    for (int64_t i = 0; i < m; ++i) total[size_t(i)] += h[size_t(i)];
  }
  expect("all_reduce", sums[0].to_host(), total);

  std::vector<tile::Array<float>> b = one(tile::from_host(mine(5.0f), {m}, d));
  b = tile::ops::broadcast(comm, std::move(b), n - 1).async().get();
  expect("broadcast", b[0].to_host(), at(5.0f, n - 1));

  std::vector<tile::Array<float>> in = one(tile::from_host(mine(0.0f), {m}, d));
  std::vector<tile::Array<float>> gathered = one(tile::zeros<float>({n * m}, d));
  tile::ops::all_gather(comm, in, gathered).sync();
  std::vector<float> stacked;
  for (int r = 0; r < n; ++r) {
    const std::vector<float> h = at(0.0f, r);
    stacked.insert(stacked.end(), h.begin(), h.end());
  }
  expect("all_gather", gathered[0].to_host(), stacked);

  // Block `me` of the sum of every rank's gathered array: n times block `me` of `stacked`.
  std::vector<tile::Array<float>> block = one(tile::zeros<float>({m}, d));
  tile::ops::reduce_scatter(comm, gathered, block).sync();
  std::vector<float> want_block = at(0.0f, me);
  for (float& x : want_block) {
    float s = 0.0f;
    for (int r = 0; r < n; ++r) s += x;
    x = s;
  }
  expect("reduce_scatter", block[0].to_host(), want_block);

  // A ring step, replayed three times as a graph: each replay passes the arrays one rank on.
  std::vector<int> from;
  for (int r = 0; r < n; ++r) from.push_back((r + n - 1) % n);
  std::vector<tile::Array<float>> ring = one(tile::from_host(mine(0.0f), {m}, d));
  std::vector<tile::Array<float>> next = one(tile::zeros<float>({m}, d));
  tile::ops::send_recv(comm, ring, next, from).sync();
  expect("send_recv", next[0].to_host(), at(0.0f, (me + n - 1) % n));
  auto graph = tile::ops::all_reduce(comm, one(tile::ones<float>({m}, d))).graph();
  graph.sync();
  graph.sync();
  graph.sync();
  // Replays sum the current values again: 1 -> n -> n^2 -> n^3.
  expect("all_reduce replayed", std::move(graph).get()[0].to_host(), std::vector<float>(m, float(n * n * n)));

  std::printf("rank %d of %d: %d mismatches\n", me, n, bad);
  return bad ? 1 : 0;
}
