// On a GPU machine: the collectives of tile/collective.hpp through NCCL on every GPU there is
// (one rank per GPU; with one GPU each collective is a copy of the rank's own data), checked
// against the values expected. Build against tile_rt (bench/gpu/build_runtime.sh):
//   g++ -std=c++20 -Iinclude bench/gpu/collectives.cpp -L$WORK -ltile_rt -L$CUDA/lib64 -lcudart_static -ldl -lrt -lpthread
// Prints "collectives: N ranks on ..., 0 mismatches" when correct. On the CPU backend it runs
// over the simulated devices of TILE_CPU_DEVICES.
#include <cstdio>
#include <vector>

#include "tile/tile.hpp"

int main() {
  auto comm = tile::Communicator::all();
  const int n = comm.size();
  int bad = 0;
  auto expect = [&](const char* what, const std::vector<float>& got, const std::vector<float>& want) {
    if (got != want) {
      ++bad;
      std::printf("  %s: wrong values (first %g, expected %g)\n", what, got.empty() ? 0.0 : got[0],
                  want.empty() ? 0.0 : want[0]);
    }
  };
  const int64_t m = 1 << 20;
  auto fill = [&](float base) {
    std::vector<tile::Array<float>> v;
    for (int r = 0; r < n; ++r)
      v.push_back(tile::full<float>({m}, base + float(r), comm.device(r)));
    return v;
  };
  auto sums = fill(1.0f);
  tile::ops::all_reduce(comm, sums).sync();
  float total = 0;
  for (int r = 0; r < n; ++r) total += 1.0f + float(r);
  for (int r = 0; r < n; ++r) expect("all_reduce", sums[r].to_host(), std::vector<float>(m, total));
  auto b = tile::ops::broadcast(comm, fill(5.0f), n - 1).async().get();
  for (int r = 0; r < n; ++r) expect("broadcast", b[r].to_host(), std::vector<float>(m, 5.0f + float(n - 1)));
  auto in = fill(0.0f);
  std::vector<tile::Array<float>> out;
  for (int r = 0; r < n; ++r) out.push_back(tile::zeros<float>({m * n}, comm.device(r)));
  tile::ops::all_gather(comm, in, out).sync();
  std::vector<float> gathered;
  for (int r = 0; r < n; ++r) gathered.insert(gathered.end(), m, float(r));
  for (int r = 0; r < n; ++r) expect("all_gather", out[r].to_host(), gathered);
  auto scattered = tile::ops::reduce_scatter(comm, out, fill(0.0f)).graph();
  scattered.sync();
  auto blocks = std::move(scattered).get();
  for (int r = 0; r < n; ++r) expect("reduce_scatter", blocks[r].to_host(), std::vector<float>(m, float(n * r)));
  // A ring step: rank r receives rank r - 1's array (with one GPU, its own).
  std::vector<int> from;
  for (int r = 0; r < n; ++r) from.push_back((r + n - 1) % n);
  auto shifted = tile::ops::send_recv(comm, in, fill(-1.0f), from).sync();
  for (int r = 0; r < n; ++r) expect("send_recv", shifted[r].to_host(), std::vector<float>(m, float((r + n - 1) % n)));
  std::printf("collectives: %d ranks on %s..., %d mismatches\n", n, comm.device(0).name().c_str(), bad);
  return bad ? 1 : 0;
}
