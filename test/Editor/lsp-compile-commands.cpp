// RUN: rm -rf %t && mkdir -p %t/src %t/out && cp %s %t/src/kernel.tile.cpp
// RUN: echo '[{"directory": "%t/src", "file": "kernel.tile.cpp", "command": "c++ -std=c++20 -DSTEP=2.0f -c kernel.tile.cpp"}]' > %t/out/compile_commands.json
// RUN: %python %S/Inputs/lsp_client.py --init-options '{"compilationDatabasePath": "%t/out"}' \
// RUN:   tilecc lsp --debounce-ms=0 -- open %t/src/kernel.tile.cpp wait %t/src/kernel.tile.cpp \
// RUN:   | FileCheck %s
// RUN: %python %S/Inputs/lsp_client.py tilecc lsp -p %t/out --debounce-ms=0 -- \
// RUN:   open %t/src/kernel.tile.cpp wait %t/src/kernel.tile.cpp | FileCheck %s
// RUN: mkdir -p %t/src/build && mv %t/out/compile_commands.json %t/src/build/
// RUN: %python %S/Inputs/lsp_client.py tilecc lsp --debounce-ms=0 -- \
// RUN:   open %t/src/kernel.tile.cpp wait %t/src/kernel.tile.cpp | FileCheck %s
// RUN: mkdir -p %t/plain && echo '[{"directory": "%t/src", "file": "kernel.tile.cpp", "command": "c++ -std=c++20 -c kernel.tile.cpp"}]' > %t/plain/compile_commands.json
// RUN: %python %S/Inputs/lsp_client.py tilecc lsp -p %t/plain --debounce-ms=0 -- \
// RUN:   open %t/src/kernel.tile.cpp wait %t/src/kernel.tile.cpp | FileCheck %s --check-prefix=NODEF
// tilecc lsp reads the buffer's flags from compile_commands.json: the directory the client names
// (initializationOptions.compilationDatabasePath), -p, or build/ beside the file; a command
// without -DSTEP leaves STEP undefined.
#include <tile/tile.hpp>

TILE_KERNEL void step(tile::Tensor<float, 128>& z) { z.store(z.load() + STEP); }

// CHECK: diagnostics kernel.tile.cpp version=1 count=0
// NODEF: diagnostics kernel.tile.cpp version=1 count=1
// NODEF-NEXT: use of undeclared identifier 'STEP'
