//===- JsonRpcTest.cpp - LSP message framing ------------------------------------===//
#include "JsonRpc.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace tilecc::driver;

namespace {
/// A transport reading `input` and writing into a buffer.
struct Pipe {
  explicit Pipe(const std::string &input) : text(input) {
    in = fmemopen(text.data(), text.size(), "r");
    out = open_memstream(&written, &writtenSize);
  }
  ~Pipe() {
    std::fclose(in);
    std::fclose(out);
    std::free(written);
  }
  std::string output() {
    std::fflush(out);
    return std::string(written, writtenSize);
  }
  std::string text;
  std::FILE *in;
  std::FILE *out;
  char *written = nullptr;
  size_t writtenSize = 0;
};

std::string frame(const std::string &body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}
} // namespace

TEST(JsonRpc, ReadsFramedMessagesInOrder) {
  Pipe pipe(frame(R"({"id":1})") + "Content-Type: x\r\n" + frame(R"({"id":2})"));
  JsonRpcTransport rpc(pipe.in, pipe.out);
  std::string error;
  auto first = rpc.read(error);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->getAsObject()->getInteger("id"), 1);
  auto second = rpc.read(error);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->getAsObject()->getInteger("id"), 2);
  EXPECT_FALSE(rpc.read(error));
  EXPECT_TRUE(error.empty());  // the end of the input, not an error
}

TEST(JsonRpc, ReportsABodyThatIsNotJsonAndStaysInStep) {
  Pipe pipe(frame("{not json") + frame(R"({"id":3})"));
  JsonRpcTransport rpc(pipe.in, pipe.out);
  std::string error;
  EXPECT_FALSE(rpc.read(error));
  EXPECT_NE(error.find("not JSON"), std::string::npos);
  auto next = rpc.read(error);
  ASSERT_TRUE(next);
  EXPECT_EQ(next->getAsObject()->getInteger("id"), 3);
}

TEST(JsonRpc, ReportsAMissingOrBadContentLength) {
  Pipe pipe("X-Other: 1\r\n\r\nContent-Length: ten\r\n\r\n");
  JsonRpcTransport rpc(pipe.in, pipe.out);
  std::string error;
  EXPECT_FALSE(rpc.read(error));
  EXPECT_NE(error.find("without a Content-Length"), std::string::npos);
  EXPECT_FALSE(rpc.read(error));
  EXPECT_NE(error.find("bad Content-Length"), std::string::npos);
}

TEST(JsonRpc, ReportsTheInputEndingInsideAMessage) {
  Pipe pipe("Content-Length: 100\r\n\r\n{\"id\":");
  JsonRpcTransport rpc(pipe.in, pipe.out);
  std::string error;
  EXPECT_FALSE(rpc.read(error));
  EXPECT_NE(error.find("ended inside a message"), std::string::npos);
}

TEST(JsonRpc, SkipsAMessageOverTheLimit) {
  std::string huge = "Content-Length: " +
                     std::to_string(JsonRpcTransport::kMaxMessageBytes + 1) + "\r\n\r\n";
  Pipe pipe(huge + std::string(JsonRpcTransport::kMaxMessageBytes + 1, ' ') + frame("{}"));
  JsonRpcTransport rpc(pipe.in, pipe.out);
  std::string error;
  EXPECT_FALSE(rpc.read(error));
  EXPECT_NE(error.find("the limit is"), std::string::npos);
  EXPECT_TRUE(rpc.read(error));
}

TEST(JsonRpc, WritesRepliesWithTheirLength) {
  Pipe pipe("");
  JsonRpcTransport rpc(pipe.in, pipe.out);
  rpc.reply(7, nullptr);
  rpc.replyError(8, RpcError::MethodNotFound, "no");
  std::string reply = R"({"id":7,"jsonrpc":"2.0","result":null})";
  std::string error = R"({"error":{"code":-32601,"message":"no"},"id":8,"jsonrpc":"2.0"})";
  EXPECT_EQ(pipe.output(), frame(reply) + frame(error));
}
