// RUN: tilecc check %s 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: tilecc check -Wno-tile-unused-op %s 2>&1 | count 0
// RUN: tilecc check -Wno-tile-unused-op -Wtile-unused-op %s 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not tilecc check -Werror=tile-unused-op %s 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: not tilecc check -Werror %s 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: tilecc check -Werror -Wno-error=tile-unused-op %s 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not tilecc check -Werror=tile-unused-op --format=sarif %s | FileCheck %s --check-prefix=SARIF
// A warning rule exits 0; -Wno-<id> silences it, -W<id> brings it back, -Werror=<id> and
// -Werror make it an error (exit 1), -Wno-error=<id> keeps it a warning under -Werror.
#include <tile/tile.hpp>
#include "Inputs/host-kernel.h"
void forgotten(tile::Array<float>& z, const tile::Array<float>& x) {
  auto op = tile::launch<add<128>>(z.partition_mut<128>(), x);
}
// WARN: rule-severity-flags.cpp:13:8: warning: {{.*}} is never executed{{.*}} [tile-unused-op]
// ERROR: rule-severity-flags.cpp:13:8: error: {{.*}} is never executed{{.*}} [tile-unused-op]
// SARIF: "ruleId": "tile-unused-op",
// SARIF-NEXT: "ruleIndex": {{[0-9]+}},
// SARIF-NEXT: "level": "error",
