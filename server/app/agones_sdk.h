// The Agones game server lifecycle, through the SDK sidecar's local HTTP API (Agones 1.x REST
// SDK: POST /ready, /health, /allocate, /shutdown; PUT /metadata/label; the "players"
// List, POST /v1beta1/lists/players:addValue and :removeValue; GET /gameserver and the streaming
// GET /watch/gameserver). Calls run on their own thread so a slow or absent sidecar never delays
// a tick; failures are logged (rate-limited) and retried where they must land, never fatal to a
// running match. The sidecar may start after the server: Ready is retried until it answers.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace httplib {
class Client;
}

namespace steerd {

struct AgonesConfig {
  std::string host = "127.0.0.1";
  std::uint16_t port = 9358;  // AGONES_SDK_HTTP_PORT
  std::chrono::milliseconds retryInterval{500};
  std::chrono::milliseconds requestTimeout{1000};
};

// Reads AGONES_SDK_HTTP_PORT (default 9358). Returns an error message for a malformed value.
std::string agonesConfigFromEnvironment(AgonesConfig& config);

// What the watch says of this GameServer: its state (Ready, Reserved, Allocated, Shutdown, ...)
// and metadata (an allocation's labels and annotations arrive with the Allocated state).
struct GameServerInfo {
  std::string name;
  std::string state;
  std::map<std::string, std::string> labels, annotations;
};

// Parses one GameServer as the REST SDK sends it: GET /gameserver's body, or one line of
// /watch/gameserver ({"result": {...}}); object_meta or objectMeta. nullopt when it is not one.
std::optional<GameServerInfo> parseGameServer(std::string_view json);

class AgonesSdk {
 public:
  explicit AgonesSdk(AgonesConfig config);
  ~AgonesSdk();  // finishes pending calls that can still succeed quickly, then stops
  AgonesSdk(const AgonesSdk&) = delete;
  AgonesSdk& operator=(const AgonesSdk&) = delete;

  void ready();                               // retried until the sidecar accepts it
  void health();                              // one ping; dropped if the previous one is still pending
  void players(std::size_t count);            // label "players" = count (latest value wins)
  void playerJoined(std::uint32_t clientId);  // the "players" List: addValue
  void playerLeft(std::uint32_t clientId);    // the "players" List: removeValue
  void allocate();                            // self-allocation: not scaled down from now on
  void shutdown();                            // retried until accepted

  // Follows the GameServer on a thread of its own: GET /gameserver, then the watch stream,
  // reconnecting after a second when either fails. gameServer() is the latest seen.
  void watch();
  std::optional<GameServerInfo> gameServer() const;

  std::uint64_t failures() const;  // calls that failed (each retry counts)

 private:
  struct Call {
    std::string method, path, body;
    bool retry = false;
  };
  void enqueue(Call call);
  void run();
  bool perform(const Call& call);
  void runWatch();
  void seen(const GameServerInfo& info);
  void warn(const std::string& what, bool retrying);

  AgonesConfig config_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Call> queue_;
  bool stopping_ = false;
  std::uint64_t failures_ = 0;
  std::chrono::steady_clock::time_point lastWarning_{};
  std::optional<GameServerInfo> gameServer_;
  std::shared_ptr<httplib::Client> watchClient_;  // the open watch request, stopped on destruction
  std::atomic<bool> watchDone_{false};
  std::thread thread_;
  std::thread watchThread_;
};

}  // namespace steerd
