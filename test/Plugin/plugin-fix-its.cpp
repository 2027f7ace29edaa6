// REQUIRES: plugin
// RUN: not %clang-plugin -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
// The plugin's notes carry tilecc's fix-its, so clang (and an editor reading its diagnostics)
// offers them: a tensor taken by value becomes a reference or a const reference.
#include <tile/tile.hpp>

TILE_KERNEL void by_value(tile::Tensor<float, 128>& z, tile::Tensor<float, 128> x) {
  z.store(x.load());
}
// CHECK: plugin-fix-its.cpp:7:81: error: kernel parameter 'x' has type
// CHECK: note: take it by reference for exclusive access
// CHECK: fix-it:"{{.*}}plugin-fix-its.cpp":{7:80-7:80}:"&"
// CHECK: note: or by const reference for shared access
// CHECK: fix-it:"{{.*}}plugin-fix-its.cpp":{7:56-7:56}:"const "
// CHECK: fix-it:"{{.*}}plugin-fix-its.cpp":{7:80-7:80}:"&"
