// One client library (client/client_protocol.h) and the simulated server (tests/net/sim_net.h)
// joined by two queues on made-up time, for the integration tests.
#pragma once

#include <deque>
#include <functional>

#include "../net/sim_net.h"
#include "client/client_protocol.h"

namespace steerd::test {

using client::ClientOptions;
using client::ClientProtocol;
using client::TimePoint;

// One client and the simulated server, joined by two queues; `lose(n)` says whether the n-th
// datagram the server sends is lost on the way.
struct SimLink {
  explicit SimLink(net::ServerSetup setup = {}, std::function<bool(std::uint64_t)> loseFromServer = {},
                   const ClientOptions& clientOptions = options())
      : server(std::move(setup)),
        address(asio::ip::make_address("127.0.0.1"), 41000),
        lose(std::move(loseFromServer)),
        client(clientOptions, [this](std::span<const std::uint8_t> d) {
          toServer.emplace_back(d.begin(), d.end());
          return true;
        }) {}

  static ClientOptions options() {
    ClientOptions o;
    o.server = asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 7777);
    o.inputRateHz = 30.0;
    return o;
  }
  TimePoint clientNow() const { return TimePoint(std::chrono::nanoseconds(server.now.steadyNs)); }

  // One tick of the server, then what each side sent reaches the other, then the client's update.
  void step() {
    for (const auto& d : toServer) server.deliver(d, address);
    toServer.clear();
    server.step();
    auto& q = server.toClient[address];
    while (!q.empty()) {
      if (!lose || !lose(sentByServer++)) client.onDatagram(q.front(), clientNow());
      q.pop_front();
    }
    client.update(clientNow());
  }
  bool stepUntil(const std::function<bool()>& done, int maxTicks = 600) {
    for (int i = 0; i < maxTicks; ++i) {
      step();
      if (done()) return true;
    }
    return false;
  }

  net::SimServer server;
  net::Address address;
  std::function<bool(std::uint64_t)> lose;
  std::uint64_t sentByServer = 0;
  std::deque<std::vector<std::uint8_t>> toServer;
  ClientProtocol client;
};

}  // namespace steerd::test
