// RUN: not tilecc --explain tile-nope 2>&1 | FileCheck %s
// RUN: tilecc --explain tile-nope 2>/dev/null || test $? -eq 2
// An unknown id is a tool failure that lists the known ids.
// CHECK: tilecc: error: unknown rule id 'tile-nope'; the rules are: tile-kernel-param, tile-kernel-exception, {{.*}}, tile-no-kernels
