// The viewer's connection: the io_context, one client::Client, and what to tell the user when it
// fails. The viewer runs the io_context itself (poll() once per frame: it never blocks), so the
// client needs no thread. Retry replaces the client with a fresh one.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include <asio.hpp>

#include "client/client.h"
#include "loadtest/relay.h"

namespace steerd::viewer {

struct ConnectionConfig {
  std::string host;
  std::uint16_t port = 0;
  std::string token;
  double interpDelaySnapshots = 2.0;
  double connectTimeoutSeconds = 5.0;     // no Accept or Refuse by then: "cannot reach"
  loadtest::ImpairmentConfig impairment;  // active: the client talks through an impairing relay
};

enum class LinkState : std::uint8_t { kConnecting, kConnected, kFailed };

class Connection {
 public:
  explicit Connection(ConnectionConfig config);

  // Resolves the host and starts the handshake (again, with a new client, after a failure).
  void start(client::TimePoint now);
  // Runs ready handlers (receives) and the client's timed work. Never blocks.
  void poll(client::TimePoint now);
  // Waits up to `d` for network events, handling them as they come (instead of sleeping between
  // frames: packets are then timestamped when they arrive, not at the next frame).
  void waitFor(std::chrono::duration<double> d);
  // Says goodbye to the server if connected.
  void stop();

  LinkState state() const { return state_; }
  // The client, once start() has made one (null if the host did not resolve).
  client::Client* client() { return client_.get(); }
  const client::Client* client() const { return client_.get(); }
  // Why the connection failed, for the window and stderr; empty unless kFailed.
  const std::string& problem() const { return problem_; }
  std::string target() const;  // "HOST:PORT"
  int attempts() const { return attempts_; }
  // True once per failure: the caller reports it (stderr) exactly once.
  bool takeNewProblem();

 private:
  void failWith(std::string message);
  std::string describeFailure(const client::Client& c) const;

  ConnectionConfig config_;
  asio::io_context io_;
  std::unique_ptr<client::Client> client_;
  std::shared_ptr<loadtest::ImpairedRelay> relay_;  // when config_.impairment is active
  LinkState state_ = LinkState::kConnecting;
  std::string problem_;
  bool newProblem_ = false;
  int attempts_ = 0;
};

}  // namespace steerd::viewer
