// RUN: rm -rf %t && mkdir -p %t
// Diagnostics are the same with the precompiled header as without it, include stacks and all:
// in the source, in the tile headers and in the standard headers (and in every report format).
// RUN: env TILECC_CACHE_DIR=%t/cache not tilecc check %s 2>%t/built.txt
// RUN: env TILECC_CACHE_DIR=%t/cache not tilecc check %s 2>%t/reused.txt
// RUN: env TILECC_CACHE_DIR=%t/cache not tilecc check --no-pch %s 2>%t/none.txt
// RUN: diff %t/built.txt %t/none.txt
// RUN: diff %t/reused.txt %t/none.txt
// RUN: FileCheck %s <%t/reused.txt
// RUN: env TILECC_CACHE_DIR=%t/cache not tilecc check --format=sarif %s >%t/reused.sarif
// RUN: env TILECC_CACHE_DIR=%t/cache not tilecc check --format=sarif --no-pch %s >%t/none.sarif
// RUN: diff %t/reused.sarif %t/none.sarif
// RUN: env TILECC_CACHE_DIR=%t/cache not tilecc compile %s -o %t/x.cu 2>%t/compile.txt
// RUN: env TILECC_CACHE_DIR=%t/cache not tilecc compile --no-pch %s -o %t/x.cu 2>%t/compile-none.txt
// RUN: diff %t/compile.txt %t/compile-none.txt
#include <vector>
#include <tile/tile.hpp>

struct Pinned {
  Pinned() = default;
  Pinned(const Pinned&) = delete;
};

void f() {
  auto x = tile::zeros<float>({100});
  auto p = std::move(x).partition<0>();
  std::vector<Pinned> v(3);
  std::vector<Pinned> w = v;
  int i = "not an int";
}

// CHECK: In file included from {{.*}}pch-diagnostics.cpp:16:
// CHECK-NEXT: In file included from {{.*}}vector:{{[0-9]+}}:
// CHECK: error: call to deleted constructor of 'Pinned'
// CHECK: pch-diagnostics.cpp:29:7: error: cannot initialize a variable of type 'int' with an lvalue of type 'const char[11]'
// CHECK: pch-diagnostics.cpp:26:25: error: static assertion failed {{.*}}tile::Array::partition: every tile dimension must be positive
// CHECK: {{.*}}tile{{[/\\]}}array.hpp:{{[0-9]+}}:{{[0-9]+}}: note: the tile library reports it here
