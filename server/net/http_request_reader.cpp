#include "net/http_request_reader.h"

#include <http_parser.h>

#include <limits>
#include <utility>

namespace steerd::net {

// Callbacks return nonzero to stop the parser (it then reports HPE_CB_*); the reason is already set.
struct HttpRequestReader::Parser {
  http_parser parser{};
  http_parser_settings settings{};
  HttpRequestReader* reader = nullptr;

  static HttpRequestReader& of(http_parser* p) { return *static_cast<Parser*>(p->data)->reader; }

  static int onUrl(http_parser* p, const char* at, std::size_t n) {
    HttpRequestReader& r = of(p);
    if (r.url_.size() + n > r.limits_.maxUrlBytes) {
      r.refuse(414, "request target longer than " + std::to_string(r.limits_.maxUrlBytes) + " bytes");
      return 1;
    }
    r.url_.append(at, n);
    return 0;
  }
  // The head's size is what its parts hold plus a line's ": " and CRLF; the headers themselves are
  // not kept (no endpoint reads one), so only this count grows with them.
  static int onHeaderPart(http_parser* p, const char*, std::size_t n) {
    HttpRequestReader& r = of(p);
    r.headBytes_ += n + 2;
    if (r.headBytes_ + r.url_.size() > r.limits_.maxHeadBytes) {
      r.refuse(431, "request head over " + std::to_string(r.limits_.maxHeadBytes) + " bytes");
      return 1;
    }
    return 0;
  }
  static int onHeadersComplete(http_parser* p) {
    HttpRequestReader& r = of(p);
    r.request_.method = http_method_str(static_cast<http_method>(p->method));
    const std::size_t query = r.url_.find_first_of("?#");
    r.request_.path = r.url_.substr(0, query);
    // http-parser leaves content_length at ULLONG_MAX when the request has no Content-Length.
    if (p->content_length != std::numeric_limits<std::uint64_t>::max() &&
        p->content_length > r.limits_.maxBodyBytes) {
      r.refuse(413, "body of " + std::to_string(p->content_length) + " bytes; at most " +
                        std::to_string(r.limits_.maxBodyBytes));
      return -1;
    }
    return 0;
  }
  static int onBody(http_parser* p, const char*, std::size_t n) {
    HttpRequestReader& r = of(p);
    r.bodyBytes_ += n;  // read and dropped: the endpoints take no body
    if (r.bodyBytes_ > r.limits_.maxBodyBytes) {
      r.refuse(413, "body over " + std::to_string(r.limits_.maxBodyBytes) + " bytes");
      return 1;
    }
    return 0;
  }
  static int onMessageComplete(http_parser* p) {
    HttpRequestReader& r = of(p);
    r.complete_ = true;
    r.request_.keepAlive = http_should_keep_alive(p) != 0;
    http_parser_pause(p, 1);  // stop here: the next request waits for next()
    return 0;
  }
};

HttpRequestReader::HttpRequestReader(const HttpLimits& limits)
    : limits_(limits), parser_(std::make_unique<Parser>()) {
  parser_->reader = this;
  http_parser_init(&parser_->parser, HTTP_REQUEST);
  parser_->parser.data = parser_.get();
  http_parser_settings_init(&parser_->settings);
  parser_->settings.on_url = &Parser::onUrl;
  parser_->settings.on_header_field = &Parser::onHeaderPart;
  parser_->settings.on_header_value = &Parser::onHeaderPart;
  parser_->settings.on_headers_complete = &Parser::onHeadersComplete;
  parser_->settings.on_body = &Parser::onBody;
  parser_->settings.on_message_complete = &Parser::onMessageComplete;
}

HttpRequestReader::~HttpRequestReader() = default;

HttpRequestReader::State HttpRequestReader::refuse(int status, std::string reason) {
  if (state_ != State::kRefused) {
    refusalStatus_ = status;
    refusalReason_ = std::move(reason);
    state_ = State::kRefused;
  }
  return state_;
}

HttpRequestReader::State HttpRequestReader::feed(const char* data, std::size_t size, std::size_t& consumed) {
  consumed = 0;
  if (state_ != State::kNeedMore || size == 0) return state_;
  started_ = true;
  consumed = http_parser_execute(&parser_->parser, &parser_->settings, data, size);
  if (state_ == State::kRefused) return state_;
  if (complete_) return state_ = State::kComplete;
  const auto err = static_cast<http_errno>(parser_->parser.http_errno);
  if (err != HPE_OK) return refuse(400, std::string("malformed request: ") + http_errno_description(err));
  return state_;
}

void HttpRequestReader::next() {
  if (state_ != State::kComplete) return;
  http_parser_pause(&parser_->parser, 0);
  request_ = {};
  url_.clear();
  headBytes_ = bodyBytes_ = 0;
  started_ = complete_ = false;
  state_ = State::kNeedMore;
}

}  // namespace steerd::net
