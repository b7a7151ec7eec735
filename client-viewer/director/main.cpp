// steer-director: a game's logic as a separate process. Connects to steerd with the control role
// (a control token, or a server run with --allow-control), without a player body, runs the match
// script (match.h), and prints every result and event as one JSON object per line on stdout.
// Logs go to stderr. Exit 0 after --duration seconds or on Ctrl-C/SIGTERM; 1 when it cannot
// connect, is not given the control role, or loses the server; 2 on bad flags (0 for --help).
#include <CLI/CLI.hpp>
#include <asio.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "client/address.h"
#include "client/client.h"
#include "client/protobuf_log.h"
#include "director/event_json.h"
#include "director/match.h"
#include "proto/hex.h"

namespace {

using namespace steerd;
using Clock = std::chrono::steady_clock;

struct Flags {
  std::string server;
  double duration = 0.0;
  std::string token;
  director::MatchConfig match;
};

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  CLI::App app{
      "steer-director: drives steerd's NPCs as a game's logic would, over the control channel; "
      "prints results and events as JSON lines"};
  app.add_option("--server", flags.server, "steerd's UDP address, HOST:PORT")->required();
  app.add_option("--duration", flags.duration, "Seconds to run (0: until Ctrl-C)")
      ->check(CLI::Range(0.0, 1e7));
  app.add_option("--token", flags.token, "Connect token in hex (steerd --issue-token ID --role control)");
  app.add_option("--archetype", flags.match.archetype,
                 "Archetype of the waves (default: the first NPC archetype)");
  app.add_option("--opening", flags.match.opening, "NPCs spawned at the start")->check(CLI::Range(0, 10000));
  app.add_option("--wave", flags.match.wave, "NPCs spawned for each player that joins")
      ->check(CLI::Range(0, 1000));
  app.add_option("--chase", flags.match.chaseSeconds, "Seconds between sending waves to their player")
      ->check(CLI::Range(0.1, 3600.0));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  client::quietProtobufParseWarnings();
  std::string host;
  std::uint16_t port = 0;
  if (const std::string e = client::splitHostPort(flags.server, host, port); !e.empty()) {
    std::fprintf(stderr, "--server: %s\n", e.c_str());
    return 2;
  }
  std::string token;
  if (!flags.token.empty()) {
    const auto bytes = wire::fromHex(flags.token);
    if (!bytes) {
      std::fprintf(stderr, "--token: not hex\n");
      return 2;
    }
    token = *bytes;
  }

  asio::io_context io;
  std::error_code ec;
  asio::ip::udp::endpoint endpoint;
  const auto address = asio::ip::make_address(host, ec);
  if (!ec) {
    endpoint = {address, port};
  } else {
    asio::ip::udp::resolver resolver(io);
    const auto found = resolver.resolve(host, std::to_string(port), ec);
    if (ec || found.empty()) {
      std::fprintf(stderr, "cannot resolve '%s'\n", host.c_str());
      return 1;
    }
    endpoint = *found.begin();
  }
  client::ClientOptions options;
  options.server = endpoint;
  options.token = token;
  options.noBody = true;
  options.interpolate = false;
  client::Client c(io, options);

  bool stop = false;
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const std::error_code& e, int) {
    if (!e) stop = true;
  });

  const auto started = Clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
  std::unique_ptr<director::Match> match;
  std::vector<wire::ControlMessage> messages;
  std::uint64_t lines = 0;
  bool lost = false;  // the connection ended (refused, timed out, disconnected)
  c.connect();
  asio::steady_timer timer(io);
  std::function<void()> step = [&] {
    c.update();
    if (c.state() != client::ClientState::kConnected &&
        c.state() != client::ClientState::kAwaitingChallenge &&
        c.state() != client::ClientState::kAwaitingAccept) {
      std::fprintf(stderr, "steer-director: %s\n", c.stateMessage().c_str());
      lost = true;
      io.stop();
      return;
    }
    if (c.connected() && !match) {
      const client::ServerInfo& info = c.server();
      if (!info.controlAllowed) {
        std::fprintf(stderr,
                     "steer-director: the server did not grant the control role (give it a control token, or "
                     "run steerd with --allow-control)\n");
        io.stop();
        return;
      }
      if (flags.match.archetype.empty()) {
        for (const auto& name : info.archetypes) {
          if (name != "player") {
            flags.match.archetype = name;
            break;
          }
        }
      }
      std::fprintf(stderr, "steer-director: connected to %s as client %u; waves of \"%s\"\n",
                   flags.server.c_str(), info.clientId, flags.match.archetype.c_str());
      match = std::make_unique<director::Match>(
          flags.match, director::WorldBounds{info.minX, info.minY, info.maxX, info.maxY},
          [&](control::Command cmd) { return c.sendCommand(std::move(cmd)); });
      match->start(seconds());
    }
    c.takeControlMessages(messages);
    for (const auto& m : messages) {
      std::cout << director::messageJson(m) << '\n';
      ++lines;
      if (match) match->onMessage(m);
    }
    if (!messages.empty()) std::cout.flush();
    messages.clear();
    if (match) match->update(seconds());
    if (stop || (flags.duration > 0.0 && seconds() >= flags.duration)) {
      io.stop();
      return;
    }
    timer.expires_after(std::chrono::milliseconds(10));
    timer.async_wait([&](const std::error_code& e) {
      if (!e) step();
    });
  };
  step();
  io.run();
  const bool ok = match != nullptr && !lost;
  if (c.connected()) c.disconnect();
  std::fprintf(stderr, "steer-director: %llu line(s); %zu player(s) with waves, %llu command error(s)\n",
               static_cast<unsigned long long>(lines), match ? match->players() : 0,
               static_cast<unsigned long long>(match ? match->errors() : 0));
  return ok ? 0 : 1;
}
