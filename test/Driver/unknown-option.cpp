// RUN: not tilecc compile --frobnicate %s 2>&1 | FileCheck %s
// RUN: tilecc compile --frobnicate %s 2>/dev/null || test $? -eq 2
// CHECK: tilecc: error: unknown option '--frobnicate'
