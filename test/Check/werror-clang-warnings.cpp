// RUN: tilecc check %s -- -Wunused-variable 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not tilecc check -Werror %s -- -Wunused-variable 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: not tilecc check -Werror --format=github %s -- -Wunused-variable | FileCheck %s --check-prefix=GITHUB
// Warnings exit 0; under -Werror they are errors (Clang's own warnings included) and exit 1.
int f() {
  int unused = 1;
  return 0;
}
// WARN: werror-clang-warnings.cpp:6:7: warning: unused variable 'unused' [-Wunused-variable]
// ERROR: werror-clang-warnings.cpp:6:7: error: unused variable 'unused' [-Werror,-Wunused-variable]
// GITHUB: ::error file={{.*}}werror-clang-warnings.cpp,line=6,col=7,title=clang-diagnostic-unused-variable::unused variable 'unused'
