// unittests/Runtime/ErrorMatchers.h - checking the tile::Error a call throws.
//
//   EXPECT_HAS(error_of([&] { ... }), "the rule's words");
//
// error_of runs `f` and returns the message of the tile::Error it throws ("(no error)" when
// it throws none); EXPECT_HAS checks that a message contains a fragment and prints it if not.
#pragma once

#include <tile/tile.hpp>

#include <gtest/gtest.h>

#include <string>

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const tile::Error& e) {
    return e.what();
  }
  return "(no error)";
}

#define EXPECT_HAS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)
