// What CodeGen cannot print is an error on the op, never a crash, and no output is written.
// RUN: not tilecc-translate --tilegpu-to-cuda %s -split-input-file -verify-diagnostics

func.func @unsupported_op(%z: !tile.view<128xi32, exclusive>, %a: i32)
    attributes {tile.kernel = "bad", tile.entry = "&::bad", tilegpu.num_warps = 1 : i32} {
  // expected-error @+1 {{CodeGen cannot emit 'math.ctpop' as CUDA}}
  %c = math.ctpop %a : i32
  return
}

// -----

// expected-error @+1 {{kernel 'noentry' has no 'tile.entry' attribute naming its C++ entry}}
func.func @no_entry(%z: !tile.view<128xf32, exclusive>) attributes {tile.kernel = "noentry"} {
  return
}

// -----

func.func @no_layout(%x: !tile.view<?xf32>, %t: f32)
    attributes {tile.kernel = "nolayout", tile.entry = "&::nolayout"} {
  // expected-error @+1 {{tile value of type 'tensor<128xf32>' has no layout; run tile-assign-layouts before CodeGen}}
  %s = tile.splat %t : f32 -> tensor<128xf32>
  return
}

// -----

func.func @element_type(%a: f8E4M3FN, %b: f8E4M3FN)
    attributes {tile.kernel = "f8", tile.entry = "&::f8", tilegpu.num_warps = 1 : i32} {
  // expected-error @+1 {{argument 0: a kernel parameter of type 'f8E4M3FN' cannot be passed to CUDA}}
  return
}

// -----

#L4 = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4], order = [0]>
func.func @warps(%t: f32)
    attributes {tile.kernel = "warps", tile.entry = "&::warps", tilegpu.num_warps = 1 : i32} {
  // expected-error @+1 {{spreads over 4 warps but the kernel has 1}}
  %s = tile.splat %t : f32 -> tensor<512xf32, #L4>
  return
}

// -----

#L = #tilegpu.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @uneven(%t: f32)
    attributes {tile.kernel = "uneven", tile.entry = "&::uneven", tilegpu.num_warps = 1 : i32} {
  // expected-error @+1 {{does not tile shape [4] evenly}}
  %s = tile.splat %t : f32 -> tensor<4xf32, #L>
  return
}

// -----

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
#M = #tilegpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @conversion(%a: tensor<128xf16, #L>)
    attributes {tile.kernel = "conv", tile.entry = "&::conv", tilegpu.num_warps = 1 : i32} {
  // expected-error @+1 {{needs a layout conversion, which CodeGen does not support}}
  %b = arith.extf %a : tensor<128xf16, #L> to tensor<128xf32, #M>
  return
}

// -----

#L = #tilegpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @vector(%x: !tile.view<?xf32>, %i: index)
    attributes {tile.kernel = "vec", tile.entry = "&::vec", tilegpu.num_warps = 1 : i32} {
  // expected-error @+1 {{vector width 4 does not divide the 2 consecutive elements per thread of the layout}}
  %t = tilegpu.global_load %x[%i] bounds [%i] {vector = 4 : i32} : !tile.view<?xf32> -> tensor<64xf32, #L>
  return
}

// -----

func.func @turns_of_one_warpgroup() attributes {tile.kernel = "turns_of_one_warpgroup", tile.entry = "&::turns_of_one_warpgroup", tilegpu.num_warps = 4 : i32} {
  // expected-error @+1 {{warpgroups take turns in a program of two or more warpgroups}}
  tilegpu.turn_wait
  return
}
