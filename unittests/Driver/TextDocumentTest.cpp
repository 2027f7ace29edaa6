//===- TextDocumentTest.cpp - positions and edits as the LSP names them -------===//
#include "TextDocument.h"

#include <gtest/gtest.h>

using namespace tilecc::driver;

TEST(TextDocument, OffsetOfCountsLinesAndColumns) {
  std::string text = "ab\ncd\n";
  EXPECT_EQ(offsetOf(text, {0, 0}), 0u);
  EXPECT_EQ(offsetOf(text, {0, 2}), 2u);
  EXPECT_EQ(offsetOf(text, {1, 1}), 4u);
}

TEST(TextDocument, OffsetOfClampsToTheLineAndTheText) {
  std::string text = "ab\ncd";
  EXPECT_EQ(offsetOf(text, {0, 99}), 2u);  // stops at the newline
  EXPECT_EQ(offsetOf(text, {7, 0}), text.size());
}

TEST(TextDocument, OffsetOfCountsUtf16CodeUnits) {
  // "é" is 2 bytes and 1 unit; "😀" (U+1F600) is 4 bytes and 2 units.
  std::string text = "\xC3\xA9x\xF0\x9F\x98\x80y";
  EXPECT_EQ(offsetOf(text, {0, 1}), 2u);
  EXPECT_EQ(offsetOf(text, {0, 2}), 3u);
  EXPECT_EQ(offsetOf(text, {0, 4}), 7u);
  EXPECT_EQ(offsetOf(text, {0, 5}), 8u);
}

TEST(TextDocument, ApplyChangeReplacesARange) {
  std::string text = "int a = 1;\nint b = 2;\n";
  EXPECT_TRUE(applyChange(text, {1, 8}, {1, 9}, "42"));
  EXPECT_EQ(text, "int a = 1;\nint b = 42;\n");
  EXPECT_TRUE(applyChange(text, {0, 10}, {1, 0}, " "));
  EXPECT_EQ(text, "int a = 1; int b = 42;\n");
}

TEST(TextDocument, ApplyChangeRefusesAnInvertedRange) {
  std::string text = "abc";
  EXPECT_FALSE(applyChange(text, {0, 2}, {0, 1}, "x"));
  EXPECT_EQ(text, "abc");
}

TEST(TextDocument, UriToPathDecodesFileUris) {
  EXPECT_EQ(uriToPath("file:///home/a%20b/k.tile.cpp"), "/home/a b/k.tile.cpp");
  EXPECT_EQ(uriToPath("file://localhost/tmp/x.cpp"), "/tmp/x.cpp");
  EXPECT_EQ(uriToPath("untitled:Untitled-1"), std::nullopt);
  EXPECT_EQ(uriToPath("file://server/share/x.cpp"), std::nullopt);
}
