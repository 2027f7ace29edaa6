// RUN: not tilecc check %t.missing.cpp 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: tilecc check %t.missing.cpp 2>/dev/null || test $? -eq 2
// RUN: tilecc check --format=xml %s 2>/dev/null || test $? -eq 2
// RUN: not tilecc check --format=xml %s 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: tilecc check 2>/dev/null || test $? -eq 2
// RUN: tilecc check --format=sarif %t.missing.cpp %s > %t.sarif 2>/dev/null || test $? -eq 2
// RUN: FileCheck %s --check-prefix=SARIF < %t.sarif
// A missing input, a bad option or no input at all is a tool failure: exit 2. The other files
// are still checked, and a SARIF log records the failure.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) { throw 1; }
// MISSING: tilecc: error: no such file: '{{.*}}missing.cpp'
// FORMAT: tilecc: error: unknown --format 'xml' (expected clang, sarif or github)
// SARIF: "executionSuccessful": false,
// SARIF-NEXT: "toolExecutionNotifications": [
// SARIF-NEXT: {
// SARIF-NEXT: "level": "error",
// SARIF-NEXT: "message": {
// SARIF-NEXT: "text": "no such file: '{{.*}}missing.cpp'"
// SARIF: "ruleId": "tile-kernel-exception",
