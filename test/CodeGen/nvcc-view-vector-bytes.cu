// make_view takes, once per launch, the widest aligned vector access along each axis of stride
// 1 (the fact the unmasked fast path of tile_dev::load/store relies on). Host-only: runs with
// or without a GPU.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && %t | FileCheck %s
#include <device/tile_device.cuh>

#include <cstdio>

alignas(16) static float data[4096];

static void show(const char* what, float* p, int64_t rows_stride) {
  tile::detail::ArgDesc a{};
  a.data = p;
  a.rank = 2;
  a.shape[0] = 16;
  a.shape[1] = 16;
  a.strides[0] = rows_stride;
  a.strides[1] = 1;
  const tile_dev::View<float, 2> v = tile_dev::make_view<float, 2>(a);
  std::printf("%s: %d %d\n", what, int(v.vector_bytes[0]), int(v.vector_bytes[1]));
}

int main() {
  // CHECK: aligned rows: 0 16
  show("aligned rows", data, 64);
  // CHECK-NEXT: rows of 2 floats: 0 8
  show("rows of 2 floats", data, 2);
  // CHECK-NEXT: odd rows: 0 4
  show("odd rows", data, 63);
  // CHECK-NEXT: offset by one float: 0 4
  show("offset by one float", data + 1, 64);
  // CHECK-NEXT: offset by two floats: 0 8
  show("offset by two floats", data + 2, 64);
  // A column view (rows of stride 1, columns of stride 64) is contiguous along axis 0.
  tile::detail::ArgDesc a{};
  a.data = data;
  a.rank = 2;
  a.shape[0] = 64;
  a.shape[1] = 16;
  a.strides[0] = 1;
  a.strides[1] = 64;
  const tile_dev::View<float, 2> v = tile_dev::make_view<float, 2>(a);
  // CHECK-NEXT: columns: 16 0
  std::printf("columns: %d %d\n", int(v.vector_bytes[0]), int(v.vector_bytes[1]));
}
