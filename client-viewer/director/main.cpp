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
#include <memory>
#include <optional>
#include <string>
#include <vector>

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

// Fills `flags` from argv; the exit code when the program ends here (0 for --help, 2 for a bad flag).
std::optional<int> parseFlags(int argc, char** argv, Flags& flags) {
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
  return std::nullopt;
}

// --token's bytes ("" without one); nullopt, said on stderr, when it is not hex.
std::optional<std::string> decodeToken(const std::string& hex) {
  if (hex.empty()) return std::string();
  auto bytes = wire::fromHex(hex);
  if (!bytes) std::fprintf(stderr, "--token: not hex\n");
  return bytes;
}

// HOST as an address, else looked up; nullopt, said on stderr, when it cannot be.
std::optional<asio::ip::udp::endpoint> resolveServer(asio::io_context& io, const std::string& host,
                                                     std::uint16_t port) {
  std::error_code ec;
  const auto address = asio::ip::make_address(host, ec);
  if (!ec) return asio::ip::udp::endpoint{address, port};
  asio::ip::udp::resolver resolver(io);
  const auto found = resolver.resolve(host, std::to_string(port), ec);
  if (ec || found.empty()) {
    std::fprintf(stderr, "cannot resolve '%s'\n", host.c_str());
    return std::nullopt;
  }
  return *found.begin();
}

client::ClientOptions clientOptionsFor(const asio::ip::udp::endpoint& server, const std::string& token) {
  client::ClientOptions options;
  options.server = server;
  options.token = token;
  options.noBody = true;
  options.interpolate = false;
  return options;
}

// The connection and the match script, stepped every 10 ms on the io_context until the duration
// is up, a signal comes, or the connection ends.
class Director {
 public:
  Director(asio::io_context& io, Flags flags, const client::ClientOptions& options)
      : io_(io), flags_(std::move(flags)), client_(io, options), signals_(io, SIGINT, SIGTERM), timer_(io) {}

  // Runs until the end; the exit code (0: the match ran and the connection held).
  int run() {
    signals_.async_wait([this](const std::error_code& e, int) {
      if (!e) stop_ = true;
    });
    started_ = Clock::now();
    client_.connect();
    step();
    io_.run();
    const bool ok = match_ != nullptr && !lost_;
    if (client_.connected()) client_.disconnect();
    std::fprintf(stderr, "steer-director: %llu line(s); %zu player(s) with waves, %llu command error(s)\n",
                 static_cast<unsigned long long>(lines_), match_ ? match_->players() : 0,
                 static_cast<unsigned long long>(match_ ? match_->errors() : 0));
    return ok ? 0 : 1;
  }

 private:
  double seconds() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }

  // One pass: the connection, the match once connected, the messages and the match's clock; then
  // the next in 10 ms, unless the run is over.
  void step() {
    client_.update();
    if (connectionEnded()) {
      std::fprintf(stderr, "steer-director: %s\n", client_.stateMessage().c_str());
      lost_ = true;
      io_.stop();
      return;
    }
    if (client_.connected() && !match_ && !startMatch()) {
      io_.stop();
      return;
    }
    printMessages();
    if (match_) match_->update(seconds());
    if (stop_ || (flags_.duration > 0.0 && seconds() >= flags_.duration)) {
      io_.stop();
      return;
    }
    timer_.expires_after(std::chrono::milliseconds(10));
    timer_.async_wait([this](const std::error_code& e) {
      if (!e) step();
    });
  }

  // Refused, timed out or disconnected: neither connected nor on the way.
  bool connectionEnded() const {
    const client::ClientState state = client_.state();
    return state != client::ClientState::kConnected && state != client::ClientState::kAwaitingChallenge &&
           state != client::ClientState::kAwaitingAccept;
  }

  // Once connected: the match, on the first NPC archetype unless --archetype named one. False
  // when the server did not grant the control role.
  bool startMatch() {
    const client::ServerInfo& info = client_.server();
    if (!info.controlAllowed) {
      std::fprintf(stderr,
                   "steer-director: the server did not grant the control role (give it a control token, or "
                   "run steerd with --allow-control)\n");
      return false;
    }
    if (flags_.match.archetype.empty()) {
      for (const auto& name : info.archetypes) {
        if (name != "player") {
          flags_.match.archetype = name;
          break;
        }
      }
    }
    std::fprintf(stderr, "steer-director: connected to %s as client %u; waves of \"%s\"\n",
                 flags_.server.c_str(), info.clientId, flags_.match.archetype.c_str());
    match_ = std::make_unique<director::Match>(
        flags_.match, director::WorldBounds{info.minX, info.minY, info.maxX, info.maxY},
        [this](control::Command cmd) { return client_.sendCommand(std::move(cmd)); });
    match_->start(seconds());
    return true;
  }

  // Every result and event as a JSON line on stdout, and to the match script.
  void printMessages() {
    client_.takeControlMessages(messages_);
    for (const auto& m : messages_) {
      std::cout << director::messageJson(m) << '\n';
      ++lines_;
      if (match_) match_->onMessage(m);
    }
    if (!messages_.empty()) std::cout.flush();
    messages_.clear();
  }

  asio::io_context& io_;
  Flags flags_;
  client::Client client_;
  asio::signal_set signals_;
  asio::steady_timer timer_;
  Clock::time_point started_;
  std::unique_ptr<director::Match> match_;
  std::vector<wire::ControlMessage> messages_;
  std::uint64_t lines_ = 0;
  bool lost_ = false;  // the connection ended (refused, timed out, disconnected)
  bool stop_ = false;  // Ctrl-C or SIGTERM
};

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (const auto exitCode = parseFlags(argc, argv, flags)) return *exitCode;
  client::quietProtobufParseWarnings();
  std::string host;
  std::uint16_t port = 0;
  if (const std::string e = client::splitHostPort(flags.server, host, port); !e.empty()) {
    std::fprintf(stderr, "--server: %s\n", e.c_str());
    return 2;
  }
  const std::optional<std::string> token = decodeToken(flags.token);
  if (!token) return 2;

  asio::io_context io;
  const auto endpoint = resolveServer(io, host, port);
  if (!endpoint) return 1;
  Director director(io, std::move(flags), clientOptionsFor(*endpoint, *token));
  return director.run();
}
