// RUN: tilecc build --cpu %S/../../examples/column_stats/column_stats.tile.cpp -o %t.exe
// RUN: %t.exe 300 130 40 3 7 | FileCheck %s
// RUN: %t.exe 5 70 9 2 4 | FileCheck %s
// RUN: tilecc check %S/../../examples/column_stats/column_stats.tile.cpp
// The column_stats example (K-loops with `for`, `continue`, `break` and an `if`/`else if`
// chain) passes the checks, builds for the CPU backend, and matches its host reference on
// every element, also when no row is taken.
// CHECK: column_stats: {{[0-9]+}} x {{[0-9]+}} OK on cpu
