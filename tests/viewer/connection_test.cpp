// The viewer's Connection over real UDP on 127.0.0.1: a silent address times out with a clear
// message; a refusing server's message comes through; and Retry works again and again (it once
// could not: the io_context, out of work between two clients, stayed stopped and the new
// client's receives never ran).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "proto/packet.h"
#include "viewer/connection.h"

namespace steerd::viewer {
namespace {

using udp = asio::ip::udp;
using namespace std::chrono_literals;

// Answers every datagram with Refuse{TOKEN_MISSING}, as a server with a token key does.
class RefusingServer {
 public:
  explicit RefusingServer(asio::io_context& io)
      : socket_(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    socket_.non_blocking(true);
  }
  std::uint16_t port() const { return socket_.local_endpoint().port(); }
  void poll() {
    std::array<std::uint8_t, 2048> buffer{};
    for (;;) {
      std::error_code ec;
      udp::endpoint from;
      socket_.receive_from(asio::buffer(buffer), from, 0, ec);
      if (ec) return;
      wire::Packet p;
      p.mutable_refuse()->set_reason(wire::REFUSE_TOKEN_MISSING);
      p.mutable_refuse()->set_message("this server needs a connect token");
      std::vector<std::uint8_t> bytes;
      ASSERT_TRUE(wire::encodeDatagram({static_cast<std::uint8_t>(p.body_case()), 0, 0, 0}, p, bytes));
      socket_.send_to(asio::buffer(bytes), from, 0, ec);
    }
  }

 private:
  udp::socket socket_;
};

// Polls until the connection leaves kConnecting or `limit` passes.
LinkState settle(Connection& c, RefusingServer* server, std::chrono::milliseconds limit) {
  const auto end = client::Clock::now() + limit;
  while (c.state() == LinkState::kConnecting && client::Clock::now() < end) {
    if (server) server->poll();
    c.poll(client::Clock::now());
    std::this_thread::sleep_for(2ms);
  }
  return c.state();
}

TEST(Connection, NoServerTimesOutWithAMessageNamingTheAddress) {
  asio::io_context io;
  udp::socket silent(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));  // bound, never answers
  ConnectionConfig config;
  config.host = "127.0.0.1";
  config.port = silent.local_endpoint().port();
  config.connectTimeoutSeconds = 0.3;
  Connection c(config);
  c.start(client::Clock::now());
  EXPECT_EQ(settle(c, nullptr, 5s), LinkState::kFailed);
  EXPECT_NE(c.problem().find("Cannot reach a steerd server at " + c.target()), std::string::npos)
      << c.problem();
  EXPECT_TRUE(c.takeNewProblem());
  EXPECT_FALSE(c.takeNewProblem());  // reported once
}

TEST(Connection, RefusalIsReportedAndRetryWorksEveryTime) {
  asio::io_context io;
  RefusingServer server(io);
  ConnectionConfig config;
  config.host = "127.0.0.1";
  config.port = server.port();
  config.connectTimeoutSeconds = 3.0;
  Connection c(config);
  for (int attempt = 1; attempt <= 3; ++attempt) {
    c.start(client::Clock::now());
    EXPECT_EQ(c.attempts(), attempt);
    EXPECT_EQ(c.state(), LinkState::kConnecting);
    ASSERT_EQ(settle(c, &server, 2s), LinkState::kFailed) << "attempt " << attempt;
    EXPECT_NE(c.problem().find("refused this viewer: this server needs a connect token"), std::string::npos)
        << c.problem();
    EXPECT_NE(c.problem().find("--token"), std::string::npos) << c.problem();
    EXPECT_TRUE(c.takeNewProblem());
  }
}

TEST(Connection, UnresolvableHostFailsAtOnce) {
  ConnectionConfig config;
  config.host = "no-such-host.invalid";
  config.port = 7777;
  Connection c(config);
  c.start(client::Clock::now());
  EXPECT_EQ(c.state(), LinkState::kFailed);
  EXPECT_NE(c.problem().find("cannot resolve"), std::string::npos) << c.problem();
  EXPECT_EQ(c.client(), nullptr);
  c.poll(client::Clock::now());  // harmless
  EXPECT_EQ(c.state(), LinkState::kFailed);
}

}  // namespace
}  // namespace steerd::viewer
