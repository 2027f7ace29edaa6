// The number of warps follows the largest tile: clamp(pow2floor(vectors / 64), 1, 8), where
// vectors = elements / vector width, then doubled while that tile needs more than 128
// registers per thread.
// RUN: tilecc-opt %s --tile-assign-layouts | FileCheck %s

// CHECK-LABEL: func.func @f32_128
// CHECK-SAME: tilegpu.num_warps = 1 : i32
func.func @f32_128(%t: tensor<128xf32>) { return }

// CHECK-LABEL: func.func @f32_512
// CHECK-SAME: tilegpu.num_warps = 2 : i32
func.func @f32_512(%t: tensor<512xf32>) { return }

// CHECK-LABEL: func.func @f32_1024
// CHECK-SAME: tensor<1024xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4], order = [0]>>
// CHECK-SAME: tilegpu.num_warps = 4 : i32
func.func @f32_1024(%t: tensor<1024xf32>) { return }

// CHECK-LABEL: func.func @f32_4096
// CHECK-SAME: tilegpu.num_warps = 8 : i32
func.func @f32_4096(%t: tensor<4096xf32>) { return }

// Capped at 8 warps from the vectors; more only while the largest tile needs more than 128
// registers per thread: 65536 floats take 16 warps (128 registers each).
// CHECK-LABEL: func.func @f32_65536
// CHECK-SAME: tilegpu.num_warps = 16 : i32
func.func @f32_65536(%t: tensor<65536xf32>) { return }

// f16 moves 8 elements per 16-byte vector: 1024 halves are 128 vectors, 2 warps.
// CHECK-LABEL: func.func @f16_1024
// CHECK-SAME: tensor<1024xf16, #tilegpu.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerBlock = [2], order = [0]>>
// CHECK-SAME: tilegpu.num_warps = 2 : i32
func.func @f16_1024(%t: tensor<1024xf16>) { return }

// The largest tile decides for the whole function; smaller tiles are spread over the same
// warps (the 128-tile is replicated across them).
// CHECK-LABEL: func.func @mixed
// CHECK-SAME: tensor<128xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4], order = [0]>>
// CHECK-SAME: tensor<1024xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4], order = [0]>>
// CHECK-SAME: tilegpu.num_warps = 4 : i32
func.func @mixed(%a: tensor<128xf32>, %b: tensor<1024xf32>) { return }
