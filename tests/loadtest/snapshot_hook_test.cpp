// The client library's snapshot hook (ClientOptions::onSnapshot), which the load tester measures
// snapshot intervals with: called once per snapshot when its last part arrives, never for one
// that stays incomplete, with the tick and a plausible arrival time. A small fake server on
// 127.0.0.1 speaks the protocol through proto/packet.h and proto/snapshot_codec.h.
#include <gtest/gtest.h>

#include "proto/session_seal.h"

#include <chrono>
#include <cmath>
#include <thread>
#include <utility>
#include <vector>

#include "client/client.h"

namespace steerd::client {
namespace {

using udp = asio::ip::udp;
using namespace std::chrono_literals;

class TinyServer {
 public:
  explicit TinyServer(asio::io_context& io)
      : socket_(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    socket_.non_blocking(true);
  }
  udp::endpoint endpoint() const { return socket_.local_endpoint(); }

  void poll() {
    std::array<std::uint8_t, 2048> buf{};
    for (;;) {
      udp::endpoint from;
      std::error_code ec;
      const std::size_t n = socket_.receive_from(asio::buffer(buf), from, 0, ec);
      if (ec) return;
      wire::Decoded d;
      std::vector<std::uint8_t> plain;
      if (seal_.unprotect(std::span<const std::uint8_t>(buf.data(), n), plain) != wire::DropReason::kNone)
        continue;
      wire::decodeDatagram(plain, d);
      if (d.drop != wire::DropReason::kNone) continue;
      client_ = from;
      wire::Packet out;
      if (d.packet.has_connect_request()) {
        out.mutable_challenge()->set_cookie("cookie");
        send(out);
      } else if (d.packet.has_connect_response()) {
        const wire::KeyPair keys = wire::KeyPair::generate();
        const auto sessionKeys = wire::serverSessionKeys(keys, d.packet.connect_response().public_key());
        if (!sessionKeys) continue;
        seal_ = wire::SessionSeal(*sessionKeys);
        auto* a = out.mutable_accept();
        a->set_public_key(keys.publicKey);
        a->set_client_id(1);
        a->set_player_entity(999);
        a->set_tick_rate(30);
        a->set_send_rate(15);
        a->set_max_x(100);
        a->set_max_y(100);
        a->set_server_tick(100);
        a->set_player_max_speed(6);
        send(out);
      } else if (d.packet.has_input()) {
        acked = std::max(acked, d.packet.input().ack_snapshot());
      }
    }
  }

  void send(const wire::Packet& p) {
    std::vector<std::uint8_t> bytes, sealed;
    ASSERT_TRUE(wire::encodeDatagram({static_cast<std::uint8_t>(p.body_case()), 0, 0, 0}, p, bytes));
    ASSERT_TRUE(seal_.protect(bytes, sequence_++, sealed));
    socket_.send_to(asio::buffer(sealed), client_);
  }
  void sendPart(const wire::Snapshot& s) {
    wire::Packet p;
    *p.mutable_snapshot() = s;
    send(p);
  }

  std::uint32_t acked = 0;

 private:
  udp::socket socket_;
  udp::endpoint client_;
  std::uint64_t sequence_ = 0;
  wire::SessionSeal seal_;  // the session's, once the ConnectResponse gave the client's key
};

template <class Done>
bool pump(asio::io_context& io, Client& c, TinyServer& s, Done done) {
  const auto deadline = Clock::now() + 10s;  // a hang guard; nothing asserts on durations
  while (Clock::now() < deadline) {
    io.restart();
    io.poll();
    c.update(Clock::now());
    s.poll();
    if (done()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return false;
}

std::vector<wire::EntityState> world(int n, std::int32_t shift) {
  std::vector<wire::EntityState> out;
  for (int i = 1; i <= n; ++i) {
    wire::EntityState e;
    e.id = static_cast<std::uint32_t>(i);
    e.archetype = 0;
    e.x = wire::quantizePosition(static_cast<float>(i)) + shift;
    e.y = wire::quantizePosition(static_cast<float>(i % 7));
    e.heading = static_cast<std::uint32_t>(i) & 255u;
    out.push_back(e);
  }
  return out;
}

TEST(SnapshotHookTest, CalledOncePerWholeSnapshotWithItsTick) {
  asio::io_context io;
  TinyServer server(io);
  std::vector<std::pair<std::uint32_t, TimePoint>> calls;
  ClientOptions o;
  o.server = server.endpoint();
  o.resendInterval = 0.05s;
  o.onSnapshot = [&](std::uint32_t tick, TimePoint arrival) { calls.emplace_back(tick, arrival); };
  Client client(io, o);
  const TimePoint before = Clock::now();
  ASSERT_TRUE(client.connect());
  ASSERT_TRUE(pump(io, client, server, [&] { return client.connected(); }));

  // A: tick 110, two parts, sent in reverse order: one call, after the second.
  wire::SnapshotRecord a;
  const auto partsA = wire::encodeSnapshot({110, world(80, 0), {}}, nullptr, 300, a);
  ASSERT_GE(partsA.size(), 2u);
  for (auto it = partsA.rbegin(); it != partsA.rend(); ++it) server.sendPart(*it);
  ASSERT_TRUE(pump(io, client, server, [&] { return server.acked == 110; }));
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].first, 110u);

  // B: tick 112 against A, whole; sent twice (a duplicate is no new snapshot).
  wire::SnapshotRecord b;
  const auto partsB = wire::encodeSnapshot({112, world(80, 3), {}}, &a, 1100, b);
  ASSERT_EQ(partsB.size(), 1u);
  server.sendPart(partsB[0]);
  server.sendPart(partsB[0]);
  ASSERT_TRUE(
      pump(io, client, server, [&] { return server.acked == 112 && client.stats().partsDuplicate >= 1; }));
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[1].first, 112u);

  // C: tick 114 (whole, no baseline) in parts of which only the first arrives: no call.
  wire::SnapshotRecord c;
  const auto partsC = wire::encodeSnapshot({114, world(80, 6), {}}, nullptr, 300, c);
  ASSERT_GE(partsC.size(), 2u);
  server.sendPart(partsC[0]);
  ASSERT_TRUE(
      pump(io, client, server, [&] { return client.stats().snapshotParts >= 1 + partsA.size() + 1; }));
  EXPECT_EQ(calls.size(), 2u);

  // D: tick 116, whole, no baseline.
  wire::SnapshotRecord d;
  for (const auto& p : wire::encodeSnapshot({116, world(80, 9), {}}, nullptr, 1100, d)) server.sendPart(p);
  ASSERT_TRUE(pump(io, client, server, [&] { return server.acked == 116; }));
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[2].first, 116u);

  // Arrival times: after connect(), in order, not in the future.
  EXPECT_GE(calls[0].second, before);
  for (std::size_t i = 1; i < calls.size(); ++i) EXPECT_GE(calls[i].second, calls[i - 1].second);
  EXPECT_LE(calls.back().second, Clock::now());
  EXPECT_EQ(client.stats().snapshotsComplete, calls.size());
}

}  // namespace
}  // namespace steerd::client
