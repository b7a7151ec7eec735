// One connection to steerd over UDP (docs/PROTOCOL.md): ClientProtocol (client_protocol.h: the
// handshake, inputs, pings, snapshots, clock sync and interpolation, and when asked the static
// scene, the debug stream, the control role and a served replay's controls) with a UDP socket,
// for the viewer, the load tester, the director and the C API.
//
// A Client owns one UDP socket (bound to an ephemeral port) and no thread, and never blocks:
//   - start() (called by connect() too) begins an asynchronous receive on the io_context;
//     datagrams are handled in its completion handler as they arrive, stamped with their arrival
//     (by the kernel where it can, client/stamped_receive.h);
//   - update(now) does everything timed: handshake resends and timeouts, inputs at the input
//     rate, pings, the server-silence timeout, the per-second rates of stats();
//   - sends are non-blocking send_to calls; a datagram the socket cannot take now is dropped and
//     counted (sendFailures), like any other lost datagram.
// The owner runs the io_context and calls update() periodically (at least at the input rate; a
// load tester can call update() on many clients from one shared timer). `now` defaults to
// steady_clock's, which the receive handler stamps arrivals with.
//
// Not thread-safe: a Client's methods and its receive handler must never run concurrently. With
// an io_context run by one thread, call the methods from that thread (e.g. from a timer). With
// several threads, every handler of a client runs on its strand, executor(): call the methods
// through it (asio::dispatch(client.executor(), ...)). Destroy a Client from the same place; it
// may be destroyed with a receive pending (the handler then finds it gone and does nothing).
#pragma once

#include <memory>
#include <optional>

#include <asio.hpp>

#include "client/client_protocol.h"

namespace steerd::client {

class Client : public ClientProtocol {
 public:
  using Executor = asio::strand<asio::io_context::executor_type>;

  Client(asio::io_context& io, ClientOptions options);
  ~Client() override;

  // Begins receiving (idempotent). connect() calls it, through ClientProtocol's too.
  void start();
  // ClientProtocol's calls with `now`, and without it on steady_clock's time.
  using ClientProtocol::connect;
  using ClientProtocol::predictedPlayer;
  using ClientProtocol::stats;
  using ClientProtocol::update;
  bool connect() { return connect(Clock::now()); }
  void update() { update(Clock::now()); }
  std::optional<PredictedPlayer> predictedPlayer() const { return predictedPlayer(Clock::now()); }
  ClientStats stats() const { return stats(Clock::now()); }

  asio::ip::udp::endpoint localEndpoint() const;
  Executor executor() const;

 private:
  void willConnect() override { start(); }

  struct Socket;  // shared with the receive pending, which may outlive the Client
  std::shared_ptr<Socket> socket_;
};

}  // namespace steerd::client
