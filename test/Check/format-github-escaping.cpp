// RUN: rm -rf %t && mkdir -p %t && cp %s '%t/a,b:c.cpp'
// RUN: cd %t && tilecc check --format=github 'a,b:c.cpp' | FileCheck %s --match-full-lines
// GitHub's escaping: '%' in the message, ',' and ':' in properties. A warning alone exits 0.
#include <cstdio>

void hello() { std::printf("%d\n"); }
// CHECK: ::warning file=a%2Cb%3Ac.cpp,line=6,col=30,title=clang-diagnostic-format-insufficient-args::more '%25' conversions than data arguments
