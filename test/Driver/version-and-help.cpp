// tilecc --version names the project's version and the LLVM it was built with; --help after a
// command prints the usage instead of running it.
// RUN: tilecc --version | FileCheck %s --check-prefix=VERSION
// VERSION: tilecc {{[0-9]+\.[0-9]+\.[0-9]+}} (LLVM 19.{{[0-9]+\.[0-9]+}})
// RUN: tilecc compile --help | FileCheck %s --check-prefix=HELP
// RUN: tilecc check %s --help | FileCheck %s --check-prefix=HELP
// RUN: tilecc build -h | FileCheck %s --check-prefix=HELP
// RUN: tilecc lsp --help < /dev/null | FileCheck %s --check-prefix=HELP
// HELP: USAGE: tilecc compile FILE
// HELP: tilecc --version
