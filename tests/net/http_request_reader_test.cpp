// Reading HTTP requests for the metrics port: what completes a request, what is refused and with
// which status, before anything unbounded is kept.
#include "net/http_request_reader.h"

#include <gtest/gtest.h>

#include <string>

namespace steerd::net {
namespace {

using State = HttpRequestReader::State;

State feedAll(HttpRequestReader& r, const std::string& bytes, std::size_t* consumed = nullptr) {
  std::size_t used = 0;
  const State s = r.feed(bytes.data(), bytes.size(), used);
  if (consumed) *consumed = used;
  return s;
}

TEST(HttpRequestReader, ReadsAGetAndStopsAtItsLastByte) {
  HttpRequestReader r{HttpLimits{}};
  const std::string first = "GET /healthz?verbose=1 HTTP/1.1\r\nHost: x\r\n\r\n";
  const std::string second = "HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  const std::string both = first + second;
  std::size_t used = 0;
  ASSERT_EQ(feedAll(r, both, &used), State::kComplete);
  EXPECT_EQ(used, first.size());  // the second request is left for next()
  EXPECT_EQ(r.request().method, "GET");
  EXPECT_EQ(r.request().path, "/healthz");
  EXPECT_TRUE(r.request().keepAlive);

  r.next();
  EXPECT_FALSE(r.started());
  ASSERT_EQ(r.feed(both.data() + used, both.size() - used, used), State::kComplete);
  EXPECT_EQ(r.request().method, "HEAD");
  EXPECT_EQ(r.request().path, "/metrics");
  EXPECT_FALSE(r.request().keepAlive);
}

TEST(HttpRequestReader, ARequestTrickledAByteAtATimeCompletesAtTheEnd) {
  HttpRequestReader r{HttpLimits{}};
  const std::string req = "GET /readyz HTTP/1.0\r\n\r\n";
  for (std::size_t i = 0; i + 1 < req.size(); ++i) {
    std::size_t used = 0;
    ASSERT_EQ(r.feed(&req[i], 1, used), State::kNeedMore) << i;
    EXPECT_EQ(used, 1u);
    EXPECT_TRUE(r.started());
  }
  std::size_t used = 0;
  ASSERT_EQ(r.feed(&req.back(), 1, used), State::kComplete);
  EXPECT_EQ(r.request().path, "/readyz");
  EXPECT_FALSE(r.request().keepAlive);  // HTTP/1.0 without keep-alive
}

TEST(HttpRequestReader, ADeclaredBodyOverTheLimitIsRefusedBeforeAnyOfItIsRead) {
  HttpLimits limits;
  limits.maxBodyBytes = 100;
  HttpRequestReader r{limits};
  EXPECT_EQ(feedAll(r, "POST /metrics HTTP/1.1\r\nContent-Length: 209715200\r\n\r\naaaa"), State::kRefused);
  EXPECT_EQ(r.refusalStatus(), 413);
  EXPECT_NE(r.refusalReason().find("209715200"), std::string::npos) << r.refusalReason();
  // Refused is final: more bytes change nothing.
  EXPECT_EQ(feedAll(r, "GET / HTTP/1.1\r\n\r\n"), State::kRefused);
}

TEST(HttpRequestReader, AChunkedBodyIsCountedAndRefusedPastTheLimit) {
  HttpLimits limits;
  limits.maxBodyBytes = 100;
  HttpRequestReader r{limits};
  ASSERT_EQ(feedAll(r, "POST /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"), State::kNeedMore);
  ASSERT_EQ(feedAll(r, "32\r\n" + std::string(50, 'a') + "\r\n"), State::kNeedMore);
  EXPECT_EQ(feedAll(r, "64\r\n" + std::string(100, 'a') + "\r\n"), State::kRefused);
  EXPECT_EQ(r.refusalStatus(), 413);
}

TEST(HttpRequestReader, ASmallBodyIsReadAndDropped) {
  HttpRequestReader r{HttpLimits{}};
  ASSERT_EQ(feedAll(r, "POST /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"), State::kComplete);
  EXPECT_EQ(r.request().method, "POST");
}

TEST(HttpRequestReader, ALongTargetIsRefusedWith414) {
  HttpLimits limits;
  limits.maxUrlBytes = 64;
  HttpRequestReader r{limits};
  EXPECT_EQ(feedAll(r, "GET /" + std::string(100, 'a') + " HTTP/1.1\r\n\r\n"), State::kRefused);
  EXPECT_EQ(r.refusalStatus(), 414);
}

TEST(HttpRequestReader, AHeadOverTheLimitIsRefusedWith431WhileItTrickles) {
  HttpLimits limits;
  limits.maxHeadBytes = 1024;
  HttpRequestReader r{limits};
  ASSERT_EQ(feedAll(r, "GET /metrics HTTP/1.1\r\n"), State::kNeedMore);
  State s = State::kNeedMore;
  int lines = 0;
  while (s == State::kNeedMore && lines < 1000) {
    s = feedAll(r, "X-a: b\r\n");  // the slow-connection attack: a header a second, never the end
    ++lines;
  }
  ASSERT_EQ(s, State::kRefused);
  EXPECT_EQ(r.refusalStatus(), 431);
  EXPECT_LT(lines, 1024 / 4);
}

TEST(HttpRequestReader, GarbageIsRefusedWith400) {
  for (const std::string bad : {"\x01\x02\x03 nonsense\r\n\r\n", "GET /x HTTP/9\r\n\r\n",
                                "GET /x HTTP/1.1\r\nContent-Length: -1\r\n\r\n"}) {
    HttpRequestReader r{HttpLimits{}};
    EXPECT_EQ(feedAll(r, bad), State::kRefused) << bad;
    EXPECT_EQ(r.refusalStatus(), 400) << bad;
    EXPECT_FALSE(r.refusalReason().empty());
  }
}

}  // namespace
}  // namespace steerd::net
