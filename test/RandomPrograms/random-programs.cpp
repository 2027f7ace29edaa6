// Twenty random tile programs (generate_programs.py: chains of elementwise, broadcast, reshape,
// permute, cat, extract, cast, reduction and scan ops over random shapes and element types)
// compile through tilecc and through nvcc for sm_90a, and run: each program runs on
// the default device and on the CPU backend and compares every element (on a GPU machine that
// is the GPU against the reference; here, the CPU against itself).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/generate_programs.py --out %t --programs 20 --per-file 20 --seed 7
// RUN: tilecc compile %t/random_0.tile.cpp -o %t/random_0.cu
// RUN: %if nvcc %{ %nvcc -c %t/random_0.cu -o %t/random_0.o %}
// RUN: %if nvcc %{ %nvcc-link %t/random_0.o -L%tile_libdir -ltile_rt -o %t/random_0 %}
// RUN: %if nvcc %{ %t/random_0 | FileCheck %s %}
// CHECK: 20 programs on {{.*}}: 0 mismatched
