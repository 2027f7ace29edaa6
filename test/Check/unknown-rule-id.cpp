// RUN: not tilecc check -Wno-tile-no-such-rule %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: tilecc check -Wno-tile-no-such-rule %s 2>/dev/null || test $? -eq 2
// RUN: not tilecc check -Werror=unused-variable %s 2>&1 | FileCheck %s --check-prefix=CLANG
// RUN: not tilecc check -Wno-tile-store-shared %s 2>&1 | FileCheck %s --check-prefix=SAFETY
// RUN: tilecc check -Wno-error=tile-store-shared %s 2>/dev/null || test $? -eq 2
// An id that is not a rule is a tool failure (exit 2) naming the id; Clang's warning flags go
// after `--`. Rules that are errors by default are safety guarantees and cannot be turned off.
int main() { return 0; }
// UNKNOWN: tilecc: error: unknown rule id 'tile-no-such-rule' in '-Wno-tile-no-such-rule' (tilecc --explain lists the rules; pass Clang's warning flags after '--')
// CLANG: tilecc: error: unknown rule id 'unused-variable' in '-Werror=unused-variable'
// SAFETY: tilecc: error: 'tile-store-shared' is an error and cannot be disabled (see tilecc --explain tile-store-shared)
