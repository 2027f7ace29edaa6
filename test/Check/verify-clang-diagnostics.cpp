// RUN: tilecc check -verify %s
// -verify also covers Clang's own diagnostics and their notes.
int twice(int x); // expected-note {{previous declaration is here}}
float twice(int x); // expected-error {{functions that differ only in their return type cannot be overloaded}}
const char* text = "// expected-error {{in a string literal: not a directive}}";
