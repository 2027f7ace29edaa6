// RUN: tilecc compile %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc -c %t.cu -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | env LC_ALL=C sort | FileCheck --check-prefix=OUT %s %}
// tile::print and tile::check end to end: the printed lines (sorted, since programs print in
// any order) and the tile::Error of a failed check are the same on the GPU and on the CPU
// backend. A failure is reported by sync(), by a future's get() and by a graph's sync(), and the
// runtime goes on working afterwards.
#include <cstdio>
#include <functional>
#include <tile/tile.hpp>
#include <vector>

TILE_KERNEL void bounded(tile::Tensor<float, 2, 2>& z, const tile::Tensor<float, tile::dyn, tile::dyn>& x,
                         float limit, uint32_t tag) {
  auto t = tile::load_tile_like(x, z);
  if (tag > 1000) {
    tile::print("t", t);
    tile::print("tag", tag);
    tile::print("big", tile::cast<int32_t>(t) > 5);
  }
  tile::check(t < limit, "values stay below the limit");
  tile::check(tile::block_id(1) < 2, "at most two column blocks");
  z.store(t * 2.0f);
}

// CHECK: tile_dev::print_tile("t",
// CHECK: tile_dev::print_element(tile_dev::program_text(grid, bid_).text, "tag", "", {{.*}}, true);
// CHECK: tile_dev::check_failed(grid, bid_, "bounded", "compile-check-print.cpp", 23, "values stay below the limit");

static void report(const char* how, const std::function<void()>& run) {
  try {
    run();
    std::printf("~%s: no error\n", how);
  } catch (const tile::Error& e) {
    std::printf("~%s: %s\n", how, e.what());
  }
}

int main() {
  std::vector<float> h{1, 2, 3, 4, 5, 6, 7, 8};
  auto x = tile::from_host(h, {2, 4});
  auto z = tile::zeros<float>({2, 4});
  tile::launch<bounded>(z.partition_mut<2, 2>(), x, 100.0f, 4000000000u).sync();
  report("sync", [&] { tile::launch<bounded>(z.partition_mut<2, 2>(), x, 7.5f, 1u).sync(); });
  report("async", [&] { tile::launch<bounded>(z.partition_mut<2, 2>(), x, 7.5f, 2u).async().get(); });
  report("graph", [&] {
    auto g = tile::launch<bounded>(z.partition_mut<2, 2>(), x, 7.5f, 3u).graph();
    g.sync();
  });
  report("after", [&] { tile::launch<bounded>(z.partition_mut<2, 2>(), x, 100.0f, 5u).sync(); });
  std::printf("~z[7] = %g on %s\n", double(z.to_host()[7]), tile::default_device().name().c_str());
}
// Only the first launch prints.
// OUT: [program (0, 0)] big[0, 0] = 0
// OUT: [program (0, 0)] t[0, 0] = 1
// OUT-NEXT: [program (0, 0)] t[0, 1] = 2
// OUT-NEXT: [program (0, 0)] t[1, 0] = 5
// OUT-NEXT: [program (0, 0)] t[1, 1] = 6
// OUT: [program (0, 0)] tag = 4000000000
// OUT: [program (0, 1)] big[1, 1] = 1
// OUT: [program (0, 1)] t[1, 1] = 8
// OUT-NEXT: [program (0, 1)] tag = 4000000000
// OUT: ~after: no error
// OUT-NEXT: ~async: tile::launch<bounded>: tile::check failed at compile-check-print.cpp:23 in tile program (0, 1): values stay below the limit
// OUT-NEXT: ~graph: tile::launch<bounded>: tile::check failed at compile-check-print.cpp:23 in tile program (0, 1): values stay below the limit
// OUT-NEXT: ~sync: tile::launch<bounded>: tile::check failed at compile-check-print.cpp:23 in tile program (0, 1): values stay below the limit
// OUT-NEXT: ~z[7] = 16 on
