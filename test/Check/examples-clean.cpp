// RUN: tilecc check %S/../../examples/*/*.tile.cpp 2>&1 | count 0
// Every example checks clean: exit 0 (lit runs pipelines with pipefail), nothing reported.
