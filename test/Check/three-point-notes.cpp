// RUN: not tilecc check %s 2>&1 | FileCheck %s --check-prefix=CLANG
// RUN: not tilecc check --format=github %s | FileCheck %s --check-prefix=GITHUB
// RUN: not tilecc check --format=sarif %s | FileCheck %s --check-prefix=SARIF
// RUN: tilecc check -verify %s
// A borrow error in three points: the conflicting access is the error; where the loan was
// created and where it is used later are notes, in every format.
#include <tile/tile.hpp>
#include "Inputs/host-kernel.h"
void early_read(tile::Array<float>& z, const tile::Array<float>& x) {
  auto op = tile::launch<add<128>>(z.partition_mut<128>(), x); // expected-note {{'z' was lent exclusively here}}
  std::vector<float> before = z.to_host(); // expected-error {{[tile-access-while-borrowed]}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
// CLANG: three-point-notes.cpp:11:33: error: {{.*}} [tile-access-while-borrowed]
// CLANG: three-point-notes.cpp:10:38: note: 'z' was lent exclusively here
// CLANG: three-point-notes.cpp:12:17: note: the loan is still needed here

// GITHUB: ::error file={{.*}}three-point-notes.cpp,line=11,col=33,title=tile-access-while-borrowed::{{.*}}%0A{{.*}}three-point-notes.cpp:10:38: note: 'z' was lent exclusively here%0A{{.*}}three-point-notes.cpp:12:17: note: the loan is still needed here

// SARIF: "ruleId": "tile-access-while-borrowed",
// SARIF: "startLine": 11,
// SARIF-NEXT: "startColumn": 33
// SARIF: "relatedLocations": [
// SARIF: "id": 0,
// SARIF: "startLine": 10,
// SARIF-NEXT: "startColumn": 38
// SARIF: "text": "'z' was lent exclusively here"
// SARIF: "id": 1,
// SARIF: "startLine": 12,
// SARIF-NEXT: "startColumn": 17
// SARIF: "text": "the loan is still needed here"
