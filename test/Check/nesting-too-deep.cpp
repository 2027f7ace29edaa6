// Expressions and statements nested past what the access checker follows are refused with an
// error at the first place too deep, by check and by compile alike, not a crash.
// RUN: python3 %S/Inputs/deep_kernel.py sum 3000 > %t.sum.cpp
// RUN: not tilecc check %t.sum.cpp 2>&1 | FileCheck %s
// RUN: not tilecc compile %t.sum.cpp -o %t.cu 2>&1 | FileCheck %s
// RUN: python3 %S/Inputs/deep_kernel.py elseif 3000 > %t.elseif.cpp
// RUN: not tilecc check %t.elseif.cpp 2>&1 | FileCheck %s
// CHECK: error: nesting this deep (more levels of expressions or statements than the access checker follows; name intermediate results or split the chain) is not supported in a tile kernel [tile-unsupported]

// A sum of 200 terms and a chain of 300 branches are checked and compiled.
// RUN: python3 %S/Inputs/deep_kernel.py sum 200 > %t.sum200.cpp
// RUN: tilecc check %t.sum200.cpp
// RUN: tilecc compile %t.sum200.cpp -o %t.sum200.cu
// RUN: python3 %S/Inputs/deep_kernel.py elseif 300 > %t.elseif300.cpp
// RUN: tilecc check %t.elseif300.cpp
