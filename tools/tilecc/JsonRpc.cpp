//===- JsonRpc.cpp - JSON-RPC 2.0 framed as the Language Server Protocol frames it -===//
#include "JsonRpc.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilecc::driver;

/// A header line without its line ending; false at the end of the input.
bool JsonRpcTransport::readLine(std::string &line) {
  line.clear();
  for (int c; (c = std::fgetc(in)) != EOF;) {
    if (c == '\n') {
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      return true;
    }
    if (line.size() < 4096)  // a header this long is garbage; keep reading to its end
      line += static_cast<char>(c);
  }
  return !line.empty();
}

std::optional<llvm::json::Value> JsonRpcTransport::read(std::string &error) {
  error.clear();
  std::optional<size_t> length;
  std::string line;
  bool sawHeader = false;
  while (readLine(line)) {
    if (line.empty()) {
      if (!sawHeader)
        continue;  // blank lines between messages
      break;
    }
    sawHeader = true;
    llvm::StringRef header(line);
    if (header.consume_front_insensitive("Content-Length:")) {
      size_t value = 0;
      if (header.trim().getAsInteger(10, value))
        error = "bad Content-Length header '" + line + "'";
      else
        length = value;
    }
  }
  if (!sawHeader)
    return std::nullopt;  // end of input
  if (!length) {
    if (error.empty())
      error = "a message without a Content-Length header";
    return std::nullopt;
  }
  std::string body;
  if (*length > kMaxMessageBytes) {
    char buffer[65536];
    for (size_t left = *length; left > 0;) {
      size_t got = std::fread(buffer, 1, std::min(left, sizeof buffer), in);
      if (got == 0)
        break;
      left -= got;
    }
    error = "a message of " + std::to_string(*length) + " bytes (the limit is " +
            std::to_string(kMaxMessageBytes) + ")";
    return std::nullopt;
  }
  body.resize(*length);
  size_t got = *length ? std::fread(body.data(), 1, *length, in) : 0;
  if (got != *length) {
    error = "the input ended inside a message";
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(body);
  if (!value) {
    error = "the message is not JSON: " + llvm::toString(value.takeError());
    return std::nullopt;
  }
  return std::move(*value);
}

void JsonRpcTransport::send(const llvm::json::Value &message) {
  std::string body;
  llvm::raw_string_ostream os(body);
  os << message;
  os.flush();
  std::lock_guard<std::mutex> lock(writing);
  std::fprintf(out, "Content-Length: %zu\r\n\r\n", body.size());
  std::fwrite(body.data(), 1, body.size(), out);
  std::fflush(out);
}

void JsonRpcTransport::notify(llvm::StringRef method, llvm::json::Value params) {
  send(llvm::json::Object{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

void JsonRpcTransport::reply(const llvm::json::Value &id, llvm::json::Value result) {
  send(llvm::json::Object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void JsonRpcTransport::replyError(const llvm::json::Value &id, RpcError code,
                                  llvm::StringRef message) {
  send(llvm::json::Object{
      {"jsonrpc", "2.0"},
      {"id", id},
      {"error", llvm::json::Object{{"code", static_cast<int>(code)}, {"message", message}}}});
}
