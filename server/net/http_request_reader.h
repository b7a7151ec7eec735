// Reads HTTP/1.1 requests from a byte stream with the limits in HttpLimits (Node's http-parser does
// the parsing). Pure: bytes in, a request head or a refusal out; the socket is elsewhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "net/http_limits.h"

namespace steerd::net {

struct HttpRequestHead {
  std::string method;  // "GET", "HEAD", "POST", ...
  std::string path;    // the target without its query string
  bool keepAlive = false;
};

class HttpRequestReader {
 public:
  enum class State { kNeedMore, kComplete, kRefused };

  explicit HttpRequestReader(const HttpLimits& limits);
  ~HttpRequestReader();
  HttpRequestReader(const HttpRequestReader&) = delete;
  HttpRequestReader& operator=(const HttpRequestReader&) = delete;

  // Feeds `size` bytes; `consumed` says how many were used. A complete request stops the reader at
  // its last byte (the rest belongs to the next request: feed it after next()); a refusal is final.
  State feed(const char* data, std::size_t size, std::size_t& consumed);
  const HttpRequestHead& request() const { return request_; }
  // The status to answer a refused request with (400, 413, 414, 431) and a one-line reason.
  int refusalStatus() const { return refusalStatus_; }
  const std::string& refusalReason() const { return refusalReason_; }
  // True once any byte of the current request has been fed.
  bool started() const { return started_; }
  // Ready for the next request on the same connection (after kComplete).
  void next();

  struct Parser;  // http-parser's state and callbacks, kept out of this header

 private:
  State refuse(int status, std::string reason);

  HttpLimits limits_;
  std::unique_ptr<Parser> parser_;
  HttpRequestHead request_;
  std::string url_;
  std::size_t headBytes_ = 0, bodyBytes_ = 0;
  bool started_ = false, complete_ = false;
  int refusalStatus_ = 0;
  std::string refusalReason_;
  State state_ = State::kNeedMore;
};

}  // namespace steerd::net
