// RUN: cd %S && not tilecc check --format=sarif format-sarif.cpp Inputs/redeclared.cpp > %t.sarif
// RUN: FileCheck %s < %t.sarif
// RUN: FileCheck %s --check-prefix=RULES < %t.sarif
// --format=sarif: one SARIF 2.1.0 run with the whole rule table; a result per diagnostic, notes
// as related locations; files below the working directory relative to %SRCROOT%.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) {
  float* scratch = new float[4];
  z.store(z.load() + scratch[0]);
}

// CHECK: "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json",
// CHECK-NEXT: "version": "2.1.0",
// CHECK-NEXT: "runs": [
// CHECK-NEXT: {
// CHECK-NEXT: "tool": {
// CHECK-NEXT: "driver": {
// CHECK-NEXT: "name": "tilecc",
// CHECK-NEXT: "version": "{{[0-9]+\.[0-9]+\.[0-9]+}}",
// CHECK-NEXT: "semanticVersion": "{{[0-9]+\.[0-9]+\.[0-9]+}}",
// CHECK-NEXT: "fullName": "tilecc {{[0-9]+\.[0-9]+\.[0-9]+}} (LLVM {{[0-9]+\.[0-9]+\.[0-9]+}})",
// CHECK-NEXT: "informationUri": "{{.+}}",
// CHECK-NEXT: "rules": [
// CHECK: "invocations": [
// CHECK-NEXT: {
// CHECK-NEXT: "executionSuccessful": true
// CHECK: "originalUriBaseIds": {
// CHECK-NEXT: "%SRCROOT%": {
// CHECK-NEXT: "uri": "file:///{{.*}}/"
// CHECK: "columnKind": "utf16CodeUnits",
// CHECK-NEXT: "results": [
// CHECK-NEXT: {
// CHECK-NEXT: "ruleId": "tile-kernel-allocation",
// CHECK-NEXT: "ruleIndex": 2,
// CHECK-NEXT: "level": "error",
// CHECK-NEXT: "message": {
// CHECK-NEXT: "text": "dynamic allocation is not allowed in a tile kernel"
// CHECK-NEXT: },
// CHECK-NEXT: "locations": [
// CHECK-NEXT: {
// CHECK-NEXT: "physicalLocation": {
// CHECK-NEXT: "artifactLocation": {
// CHECK-NEXT: "uri": "format-sarif.cpp",
// CHECK-NEXT: "uriBaseId": "%SRCROOT%"
// CHECK-NEXT: },
// CHECK-NEXT: "region": {
// CHECK-NEXT: "startLine": 9,
// CHECK-NEXT: "startColumn": 20
// CHECK: "ruleId": "clang-diagnostic-error",
// CHECK-NOT: "ruleIndex"
// CHECK: "level": "error",
// CHECK-NEXT: "message": {
// CHECK-NEXT: "text": "redefinition of 'twice'"
// CHECK: "uri": "Inputs/redeclared.cpp",
// CHECK: "startLine": 4,
// CHECK: "relatedLocations": [
// CHECK-NEXT: {
// CHECK-NEXT: "id": 0,
// CHECK-NEXT: "physicalLocation": {
// CHECK-NEXT: "artifactLocation": {
// CHECK-NEXT: "uri": "Inputs/redeclared.cpp",
// CHECK-NEXT: "uriBaseId": "%SRCROOT%"
// CHECK-NEXT: },
// CHECK-NEXT: "region": {
// CHECK-NEXT: "startLine": 3,
// CHECK-NEXT: "startColumn": 12
// CHECK-NEXT: }
// CHECK-NEXT: },
// CHECK-NEXT: "message": {
// CHECK-NEXT: "text": "previous definition is here"

// Every rule of Rules.def, in order, with its descriptions, where its explanation is published
// and its default level.
// RULES: "rules": [
// RULES-NEXT: {
// RULES-NEXT: "id": "tile-kernel-param",
// RULES-NEXT: "name": "KernelParam",
// RULES-NEXT: "helpUri": "{{.+}}/docs/rules/tile-kernel-param.md",
// RULES-NEXT: "shortDescription": {
// RULES-NEXT: "text": "A kernel parameter has a type that a tile kernel cannot take."
// RULES-NEXT: },
// RULES-NEXT: "fullDescription": {
// RULES-NEXT: "text": "A tile kernel runs once per tile program, {{.*}}"
// RULES-NEXT: },
// RULES-NEXT: "messageStrings": {
// RULES-NEXT: "default": {
// RULES-NEXT: "text": "kernel parameter '...' has type ...; {{.*}}"
// RULES-NEXT: }
// RULES-NEXT: },
// RULES-NEXT: "help": {
// RULES-NEXT: "text": "# tile-kernel-param\n\n{{.*}}",
// RULES-NEXT: "markdown": "# tile-kernel-param\n\n{{.*}}"
// RULES-NEXT: },
// RULES-NEXT: "defaultConfiguration": {
// RULES-NEXT: "level": "error"
// RULES-NEXT: }
// RULES-NEXT: },
// RULES: "id": "tile-unused-op",
// RULES: "level": "warning"
// RULES: "id": "tile-no-kernels",
// RULES: "level": "warning"
// RULES-NEXT: }
// RULES-NEXT: }
// RULES-NEXT: ]
