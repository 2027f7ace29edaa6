// RUN: not tilecc compile %t.does-not-exist.cpp -o %t.cu 2>&1 | FileCheck %s
// RUN: tilecc compile %t.does-not-exist.cpp -o %t.cu 2>/dev/null || test $? -eq 2
// A missing input is a tool failure (exit 2), not a crash.
// CHECK: tilecc: error: no such file: '{{.*}}does-not-exist.cpp'
