// RUN: tilecc check %S/../../examples/add/add.tile.cpp
// RUN: tilecc check %S/../../examples/matrix_relu/matrix_relu.tile.cpp
// RUN: tilecc check %S/../../examples/saxpy/saxpy.tile.cpp
// RUN: tilecc check %S/../../examples/*/*.tile.cpp 2>&1 | count 0
// Every example checks clean (exit 0, nothing reported).
