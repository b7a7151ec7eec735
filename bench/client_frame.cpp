// What a game's frame costs the client library: N clients against a live steerd, each updated and
// its entities read for drawing every 1/60 s. Built twice: client_frame_capi through the C API
// (libsteerd-client), client_frame_cpp through the C++ Client; scripts/bench.sh capi runs both
// against the same server and prints microseconds per client-frame (the C API's cost over C++).
//   client_frame HOST:PORT [CLIENTS] [SECONDS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#ifdef STEERD_BENCH_CAPI
#include "steerd_client.h"
#else
#include "client/address.h"
#include "client/client.h"
#endif

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point t) { return std::chrono::duration<double>(t.time_since_epoch()).count(); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s HOST:PORT [CLIENTS] [SECONDS]\n", argv[0]);
    return 2;
  }
  const std::string server = argv[1];
  const int clients = argc > 2 ? std::atoi(argv[2]) : 100;
  const double runSeconds = argc > 3 ? std::atof(argv[3]) : 5.0;
  if (clients < 1 || clients > 5000 || !(runSeconds > 0.0)) {
    std::fprintf(stderr, "CLIENTS 1..5000, SECONDS > 0\n");
    return 2;
  }
#ifdef STEERD_BENCH_CAPI
  const char* kind = "C API";
  std::vector<steerd_client*> cs(static_cast<std::size_t>(clients), nullptr);
  std::vector<steerd_entity> buffer(8192);
  for (auto& c : cs) {
    steerd_client_options o{};
    o.server = server.c_str();
    o.no_body = 1;
    if (steerd_client_create(&o, &c) != STEERD_OK ||
        steerd_client_connect(c, seconds(Clock::now())) != STEERD_OK) {
      std::fprintf(stderr, "create/connect: %s\n", steerd_client_last_error(c));
      return 1;
    }
  }
  auto frame = [&](double now, std::size_t& entities) {
    for (steerd_client* c : cs) {
      steerd_client_update(c, now);
      std::size_t n = 0;
      steerd_client_entities(c, now, buffer.data(), buffer.size(), &n);
      entities += n;
    }
  };
  auto connectedCount = [&] {
    int n = 0;
    for (steerd_client* c : cs) n += steerd_client_state(c) == STEERD_CONNECTED;
    return n;
  };
#else
  const char* kind = "C++";
  asio::io_context io;
  std::string host;
  std::uint16_t port = 0;
  if (!steerd::client::splitHostPort(server, host, port).empty()) return 2;
  std::vector<std::unique_ptr<steerd::client::Client> > cs;
  for (int i = 0; i < clients; ++i) {
    steerd::client::ClientOptions o;
    o.server = {asio::ip::make_address(host), port};
    o.noBody = true;
    cs.push_back(std::make_unique<steerd::client::Client>(io, o));
    cs.back()->connect();
  }
  steerd::client::Sample sample;
  auto frame = [&](double, std::size_t& entities) {
    io.poll();
    io.restart();
    const auto now = Clock::now();
    for (auto& c : cs) {
      c->update(now);
      c->sample(now, sample);
      entities += sample.entities.size();
    }
  };
  auto connectedCount = [&] {
    int n = 0;
    for (auto& c : cs) n += c->connected();
    return n;
  };
#endif
  // Connect everyone first (not measured).
  std::size_t ignored = 0;
  const auto connectBy = Clock::now() + std::chrono::seconds(20);
  while (connectedCount() < clients && Clock::now() < connectBy) {
    frame(seconds(Clock::now()), ignored);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const int connected = connectedCount();
  // Then frames at 60 Hz; the time inside the frame is the library's.
  std::size_t frames = 0, entities = 0;
  double busy = 0.0;
  const auto end =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(runSeconds));
  auto next = Clock::now();
  while (Clock::now() < end) {
    const auto t0 = Clock::now();
    frame(seconds(t0), entities);
    busy += std::chrono::duration<double>(Clock::now() - t0).count();
    ++frames;
    next += std::chrono::microseconds(16667);
    std::this_thread::sleep_until(next);
  }
  const double perClientFrameUs = busy / (static_cast<double>(frames) * clients) * 1e6;
  std::printf(
      "%s: %d clients (%d connected), %zu frames, %.1f entities a client-frame, %.2f us a client-frame "
      "(update + entities)\n",
      kind, clients, connected, frames,
      static_cast<double>(entities) / (static_cast<double>(frames) * clients), perClientFrameUs);
  return connected == clients ? 0 : 1;
}
