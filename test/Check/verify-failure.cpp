// RUN: rm -rf %t && split-file %s %t
// RUN: not tilecc check -verify %t/mismatch.cpp 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: tilecc check -verify %t/mismatch.cpp 2>/dev/null || test $? -eq 1
// RUN: not tilecc check -verify %t/none.cpp 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not tilecc check -verify %t/malformed.cpp 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not tilecc check -verify %t/unexpected.cpp 2>&1 | FileCheck %s --check-prefix=UNEXPECTED
// -verify failures: expectations not met and diagnostics not expected are errors (exit 1);
// so are a file without directives and malformed directives.

// MISMATCH: error: 'expected-error' diagnostics expected but not seen:
// MISMATCH-NEXT:   File {{.*}}mismatch.cpp Line 5: exceptions are forbidden
// MISMATCH-NEXT: error: 'expected-error' diagnostics seen but not expected:
// MISMATCH-NEXT:   File {{.*}}mismatch.cpp Line 5: exceptions are not allowed in a tile kernel [tile-kernel-exception]
// MISMATCH-NEXT: error: 'expected-warning' diagnostics expected but not seen:
// MISMATCH-NEXT:   File {{.*}}mismatch.cpp Line 5: never reported
// NONE: error: no expected directives found: consider use of 'expected-no-diagnostics'
// MALFORMED: malformed.cpp:1:4: error: invalid line number in 'expected-error' directive
// MALFORMED-NEXT: malformed.cpp:2:4: error: cannot find end ('}}') of expected string in 'expected-error'
// MALFORMED-NEXT: malformed.cpp:3:4: error: invalid count in 'expected-note' directive
// MALFORMED-NEXT: malformed.cpp:4:4: error: cannot find start ('{{\{\{}}') of expected string in 'expected-warning'
// UNEXPECTED: error: 'expected-error' diagnostics seen but not expected:
// UNEXPECTED-NEXT:   File {{.*}}unexpected.cpp Line 3: functions that differ only in their return type cannot be overloaded
// UNEXPECTED-NEXT: error: 'expected-note' diagnostics seen but not expected:
// UNEXPECTED-NEXT:   File {{.*}}unexpected.cpp Line 2: previous declaration is here

//--- mismatch.cpp
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z, int n) {
  if (n < 0)
    throw n; // expected-error {{exceptions are forbidden}}
  z.store(z.load()); // expected-warning@-1 2 {{never reported}}
}

//--- none.cpp
int main() { return 0; }

//--- malformed.cpp
// expected-error@+x {{a}}
// expected-error {{unterminated
// expected-note 0 {{never}}
// expected-warning no braces
int main() { return 0; }

//--- unexpected.cpp
// expected-no-diagnostics
int twice(int x);
float twice(int x);
