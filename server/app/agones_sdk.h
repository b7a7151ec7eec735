// The Agones game server lifecycle, through the SDK sidecar's local HTTP API (Agones 1.x REST
// SDK: POST /ready, /health, /shutdown; PUT /metadata/label). Calls run on their own thread so a
// slow or absent sidecar never delays a tick; failures are logged (rate-limited) and retried,
// never fatal to a running match. The sidecar may start after the server: Ready is retried until
// it answers.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace steerd {

struct AgonesConfig {
  std::string host = "127.0.0.1";
  std::uint16_t port = 9358;  // AGONES_SDK_HTTP_PORT
  std::chrono::milliseconds retryInterval{500};
  std::chrono::milliseconds requestTimeout{1000};
};

// Reads AGONES_SDK_HTTP_PORT (default 9358). Returns an error message for a malformed value.
std::string agonesConfigFromEnvironment(AgonesConfig& config);

class AgonesSdk {
 public:
  explicit AgonesSdk(AgonesConfig config);
  ~AgonesSdk();  // finishes pending calls that can still succeed quickly, then stops
  AgonesSdk(const AgonesSdk&) = delete;
  AgonesSdk& operator=(const AgonesSdk&) = delete;

  void ready();                     // retried until the sidecar accepts it
  void health();                    // one ping; dropped if the previous one is still pending
  void players(std::size_t count);  // label "players" = count (latest value wins)
  void shutdown();                  // retried until accepted

  std::uint64_t failures() const;  // calls that failed (each retry counts)

 private:
  struct Call {
    std::string method, path, body;
    bool retry = false;
  };
  void enqueue(Call call);
  void run();
  bool perform(const Call& call);

  AgonesConfig config_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Call> queue_;
  bool stopping_ = false;
  std::uint64_t failures_ = 0;
  std::chrono::steady_clock::time_point lastWarning_{};
  std::thread thread_;
};

}  // namespace steerd
