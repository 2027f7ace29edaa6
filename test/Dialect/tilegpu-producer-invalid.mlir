// The verifier of the producer warps' region.
// RUN: tilecc-opt %s -split-input-file -verify-diagnostics

func.func @part_of_a_warpgroup() attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @+1 {{the producer's warps must be whole warpgroups (a multiple of 4)}}
  tilegpu.producer attributes {warps = 2 : i32} {
  }
  return
}

// -----

func.func @inside_control_flow(%c: i1) attributes {tilegpu.num_warps = 4 : i32} {
  scf.if %c {
    // expected-error @+1 {{must be an op of the function body, outside control flow}}
    tilegpu.producer attributes {warps = 4 : i32} {
    }
  }
  return
}

// -----

func.func @odd_registers() attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @+1 {{register counts must be multiples of 8 from 24 to 256}}
  tilegpu.producer attributes {warps = 4 : i32, registers = 44 : i32} {
  }
  return
}
