#include "viewer/connection.h"

#include <sstream>

namespace steerd::viewer {

Connection::Connection(ConnectionConfig config) : config_(std::move(config)) {}

std::string Connection::target() const {
  const bool v6 = config_.host.find(':') != std::string::npos;
  return (v6 ? "[" + config_.host + "]" : config_.host) + ":" + std::to_string(config_.port);
}

void Connection::failWith(std::string message) {
  state_ = LinkState::kFailed;
  problem_ = std::move(message);
  newProblem_ = true;
}

bool Connection::takeNewProblem() {
  const bool n = newProblem_;
  newProblem_ = false;
  return n;
}

void Connection::start(client::TimePoint now) {
  ++attempts_;
  if (client_) {
    client_->disconnect();
    client_.reset();
    if (io_.stopped()) io_.restart();
    io_.poll();  // lets the old socket's aborted receive finish
  }
  state_ = LinkState::kConnecting;
  problem_.clear();
  newProblem_ = false;

  // A name is resolved once per attempt; a literal address resolves without a lookup.
  std::error_code ec;
  asio::ip::udp::resolver resolver(io_);
  const auto results = resolver.resolve(asio::ip::udp::v4(), config_.host, std::to_string(config_.port), ec);
  asio::ip::udp::endpoint endpoint;
  if (ec || results.empty()) {
    const auto any = resolver.resolve(config_.host, std::to_string(config_.port), ec);
    if (ec || any.empty()) {
      failWith("cannot resolve '" + config_.host + "': " + (ec ? ec.message() : std::string("no address")));
      return;
    }
    endpoint = any.begin()->endpoint();
  } else {
    endpoint = results.begin()->endpoint();
  }

  if (relay_) {
    relay_->stop();
    relay_.reset();
  }
  if (config_.impairment.active()) {
    // A bad link to look at: the load tester's relay between the client and the server.
    relay_ = loadtest::ImpairedRelay::create(asio::make_strand(io_), endpoint, config_.impairment,
                                             static_cast<std::uint64_t>(attempts_), 0, ec);
    if (!relay_) {
      failWith("cannot open the impairing relay: " + ec.message());
      return;
    }
    relay_->start();
    endpoint = relay_->endpoint();
  }
  client::ClientOptions o;
  o.server = endpoint;
  o.token = config_.token;
  o.interpolationDelaySnapshots = config_.interpDelaySnapshots;
  o.connectTimeout = std::chrono::duration<double>(config_.connectTimeoutSeconds);
  o.fetchScene = true;  // obstacles, walls, paths and the navmesh, to draw
  client_ = std::make_unique<client::Client>(io_, o);
  if (!client_->connect(now)) {
    failWith(describeFailure(*client_));
  }
}

void Connection::poll(client::TimePoint now) {
  // An io_context that ran out of work (no client, or its socket closed) stays stopped until
  // restarted; a new client's receive would never run otherwise.
  if (io_.stopped()) io_.restart();
  io_.poll();
  if (!client_ || state_ == LinkState::kFailed) return;
  client_->update(now);
  switch (client_->state()) {
    case client::ClientState::kConnected:
      state_ = LinkState::kConnected;
      break;
    case client::ClientState::kIdle:
    case client::ClientState::kAwaitingChallenge:
    case client::ClientState::kAwaitingAccept:
      state_ = LinkState::kConnecting;
      break;
    default:
      failWith(describeFailure(*client_));
      break;
  }
}

void Connection::waitFor(std::chrono::duration<double> d) {
  if (io_.stopped()) io_.restart();
  io_.run_for(std::chrono::duration_cast<std::chrono::microseconds>(d));
}

void Connection::stop() {
  if (client_) client_->disconnect();
  io_.poll();
}

std::string Connection::describeFailure(const client::Client& c) const {
  std::ostringstream s;
  switch (c.state()) {
    case client::ClientState::kTimedOut:
      if (state_ == LinkState::kConnected) {
        s << "Lost the server at " << target() << ": " << c.stateMessage();
      } else {
        s << "Cannot reach a steerd server at " << target() << " (" << c.stateMessage()
          << "). Is it running, and is the port right?";
      }
      break;
    case client::ClientState::kRefused:
      s << "The server at " << target() << " refused this viewer: " << c.stateMessage();
      switch (c.refuseReason()) {
        case wire::REFUSE_TOKEN_MISSING:
          s << ". Start the viewer with --token FILE.";
          break;
        case wire::REFUSE_TOKEN_INVALID:
        case wire::REFUSE_TOKEN_EXPIRED:
          s << ". Get a fresh token (steerd --issue-token) for this server's key.";
          break;
        default:
          break;
      }
      break;
    case client::ClientState::kDisconnected:
      switch (c.disconnectReason()) {
        case wire::DISCONNECT_SERVER_SHUTDOWN:
          s << "The server at " << target() << " shut down.";
          break;
        case wire::DISCONNECT_TIMED_OUT:
          s << "The server at " << target() << " dropped this viewer (it heard nothing from it in time).";
          break;
        case wire::DISCONNECT_REPLACED:
          s << "Another client connected to " << target()
            << " with this viewer's connect token and took its session.";
          break;
        default:
          s << "Disconnected from " << target() << ": " << c.stateMessage();
          break;
      }
      break;
    case client::ClientState::kFailed:
      s << "Connection to " << target() << " failed: " << c.stateMessage();
      break;
    default:
      s << "Connection to " << target() << " is " << client::clientStateName(c.state());
      break;
  }
  return s.str();
}

}  // namespace steerd::viewer
