#include "app/agones_sdk.h"

#include <httplib.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>

namespace steerd {

std::string agonesConfigFromEnvironment(AgonesConfig& config) {
  const char* port = std::getenv("AGONES_SDK_HTTP_PORT");
  if (port == nullptr || *port == '\0') return {};
  char* end = nullptr;
  const long p = std::strtol(port, &end, 10);
  if (*end != '\0' || p <= 0 || p > 65535)
    return std::string("AGONES_SDK_HTTP_PORT is not a port: '") + port + "'";
  config.port = static_cast<std::uint16_t>(p);
  return {};
}

namespace {

std::map<std::string, std::string> stringMap(const nlohmann::json& j) {
  std::map<std::string, std::string> out;
  if (!j.is_object()) return out;
  for (const auto& [k, v] : j.items()) {
    if (v.is_string()) out[k] = v.get<std::string>();
  }
  return out;
}

}  // namespace

std::optional<GameServerInfo> parseGameServer(std::string_view json) {
  const nlohmann::json doc = nlohmann::json::parse(json, nullptr, false);
  if (!doc.is_object()) return std::nullopt;
  const nlohmann::json& gs = doc.contains("result") ? doc["result"] : doc;
  if (!gs.is_object()) return std::nullopt;
  const auto status = gs.find("status");
  if (status == gs.end() || !status->is_object()) return std::nullopt;
  const auto state = status->find("state");
  if (state == status->end() || !state->is_string()) return std::nullopt;
  GameServerInfo info;
  info.state = state->get<std::string>();
  auto meta = gs.find("object_meta");
  if (meta == gs.end()) meta = gs.find("objectMeta");
  if (meta != gs.end() && meta->is_object()) {
    if (const auto name = meta->find("name"); name != meta->end() && name->is_string())
      info.name = name->get<std::string>();
    if (const auto labels = meta->find("labels"); labels != meta->end()) info.labels = stringMap(*labels);
    if (const auto notes = meta->find("annotations"); notes != meta->end())
      info.annotations = stringMap(*notes);
  }
  return info;
}

AgonesSdk::AgonesSdk(AgonesConfig config) : config_(std::move(config)) {
  thread_ = std::thread([this] { run(); });
}

AgonesSdk::~AgonesSdk() {
  std::shared_ptr<httplib::Client> watching;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    watching = watchClient_;
  }
  wake_.notify_all();
  // Ends the open watch request. Again until the thread is out: a request that was only about to
  // open its socket when first stopped is stopped by the next try.
  while (watchThread_.joinable() && !watchDone_.load()) {
    {
      std::lock_guard lock(mutex_);
      watching = watchClient_;
    }
    if (watching) watching->stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (watchThread_.joinable()) watchThread_.join();
  thread_.join();
}

void AgonesSdk::enqueue(Call call) {
  {
    std::lock_guard lock(mutex_);
    if (call.path == "/health" &&
        std::any_of(queue_.begin(), queue_.end(), [](const Call& c) { return c.path == "/health"; })) {
      return;  // one pending health ping is enough
    }
    if (call.path == "/metadata/label") {
      // Only the latest player count matters.
      queue_.erase(std::remove_if(queue_.begin(), queue_.end(),
                                  [](const Call& c) { return c.path == "/metadata/label"; }),
                   queue_.end());
    }
    queue_.push_back(std::move(call));
  }
  wake_.notify_all();
}

void AgonesSdk::ready() { enqueue({"POST", "/ready", "{}", true}); }
void AgonesSdk::health() { enqueue({"POST", "/health", "{}", false}); }
void AgonesSdk::shutdown() { enqueue({"POST", "/shutdown", "{}", true}); }
void AgonesSdk::allocate() { enqueue({"POST", "/allocate", "{}", true}); }
// Not retried: a cluster without the Lists feature answers 404 for ever, and a retried call would
// hold up the Health pings queued behind it. The label below still carries the count.
void AgonesSdk::playerJoined(std::uint32_t clientId) {
  enqueue({"POST", "/v1beta1/lists/players:addValue",
           nlohmann::json{{"value", std::to_string(clientId)}}.dump(), false});
}
void AgonesSdk::playerLeft(std::uint32_t clientId) {
  enqueue({"POST", "/v1beta1/lists/players:removeValue",
           nlohmann::json{{"value", std::to_string(clientId)}}.dump(), false});
}
void AgonesSdk::players(std::size_t count) {
  enqueue({"PUT", "/metadata/label",
           nlohmann::json{{"key", "players"}, {"value", std::to_string(count)}}.dump(), false});
}

std::uint64_t AgonesSdk::failures() const {
  std::lock_guard lock(mutex_);
  return failures_;
}

bool AgonesSdk::perform(const Call& call) {
  httplib::Client client(config_.host, config_.port);
  const auto timeout = std::chrono::duration_cast<std::chrono::microseconds>(config_.requestTimeout).count();
  client.set_connection_timeout(0, static_cast<time_t>(timeout));
  client.set_read_timeout(0, static_cast<time_t>(timeout));
  const auto result = call.method == "PUT" ? client.Put(call.path, call.body, "application/json")
                                           : client.Post(call.path, call.body, "application/json");
  if (result && result->status == 200) return true;
  warn(call.method + " " + call.path + " failed (" +
           (result ? "HTTP " + std::to_string(result->status) : httplib::to_string(result.error())) + ")",
       call.retry);
  return false;
}

void AgonesSdk::warn(const std::string& what, bool retrying) {
  std::lock_guard lock(mutex_);
  ++failures_;
  const auto now = std::chrono::steady_clock::now();
  if (now - lastWarning_ > std::chrono::seconds(5)) {
    lastWarning_ = now;
    spdlog::warn("agones: {}; {}", what, retrying ? "retrying" : "will try again later");
  }
}

void AgonesSdk::watch() {
  std::lock_guard lock(mutex_);
  if (watchThread_.joinable()) return;
  watchThread_ = std::thread([this] { runWatch(); });
}

std::optional<GameServerInfo> AgonesSdk::gameServer() const {
  std::lock_guard lock(mutex_);
  return gameServer_;
}

void AgonesSdk::seen(const GameServerInfo& info) {
  std::lock_guard lock(mutex_);
  if (!gameServer_ || gameServer_->state != info.state) {
    spdlog::info("agones: GameServer {} is {}", info.name.empty() ? "(unnamed)" : info.name, info.state);
  }
  gameServer_ = info;
}

void AgonesSdk::runWatch() {
  struct Done {
    std::atomic<bool>& flag;
    ~Done() { flag = true; }
  } done{watchDone_};
  for (;;) {
    auto client = std::make_shared<httplib::Client>(config_.host, config_.port);
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      watchClient_ = client;
    }
    const auto timeout =
        std::chrono::duration_cast<std::chrono::microseconds>(config_.requestTimeout).count();
    client->set_connection_timeout(0, static_cast<time_t>(timeout));
    // The current state first (the stream only says what changes), then the stream itself.
    if (auto now = client->Get("/gameserver"); now && now->status == 200) {
      if (auto info = parseGameServer(now->body)) seen(*info);
    }
    client->set_read_timeout(3600, 0);  // the stream is quiet between changes
    std::string pending;
    auto streamed = client->Get("/watch/gameserver", [&](const char* data, std::size_t size) {
      pending.append(data, size);
      for (auto end = pending.find('\n'); end != std::string::npos; end = pending.find('\n')) {
        if (auto info = parseGameServer(std::string_view(pending).substr(0, end))) seen(*info);
        pending.erase(0, end + 1);
      }
      if (pending.size() > (1u << 20)) pending.clear();  // no line is that long: not a GameServer stream
      return true;
    });
    if (!pending.empty()) {
      if (auto info = parseGameServer(pending)) seen(*info);
    }
    std::unique_lock lock(mutex_);
    watchClient_.reset();
    if (stopping_) return;
    lock.unlock();
    warn(std::string("the GameServer watch ended (") +
             (streamed ? "HTTP " + std::to_string(streamed->status) : httplib::to_string(streamed.error())) +
             ")",
         true);
    lock.lock();
    wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; });
    if (stopping_) return;
  }
}

void AgonesSdk::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left to say
    Call call = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    const bool ok = perform(call);
    lock.lock();
    if (ok) {
      if (call.path == "/ready") spdlog::info("agones: marked Ready");
      if (call.path == "/shutdown") spdlog::info("agones: asked for Shutdown");
    } else if (call.retry && !stopping_) {
      // A stopping server makes each pending call once; a running one retries until it lands.
      queue_.push_front(std::move(call));
      wake_.wait_for(lock, config_.retryInterval, [this] { return stopping_; });
    }
  }
}

}  // namespace steerd
