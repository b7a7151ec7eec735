#include "app/agones_sdk.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

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

AgonesSdk::AgonesSdk(AgonesConfig config) : config_(std::move(config)) {
  thread_ = std::thread([this] { run(); });
}

AgonesSdk::~AgonesSdk() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
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
void AgonesSdk::players(std::size_t count) {
  enqueue({"PUT", "/metadata/label", R"({"key":"players","value":")" + std::to_string(count) + "\"}", false});
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
  std::lock_guard lock(mutex_);
  ++failures_;
  const auto now = std::chrono::steady_clock::now();
  if (now - lastWarning_ > std::chrono::seconds(5)) {
    lastWarning_ = now;
    spdlog::warn("agones: {} {} failed ({}); {}", call.method, call.path,
                 result ? "HTTP " + std::to_string(result->status) : httplib::to_string(result.error()),
                 call.retry ? "retrying" : "will try again later");
  }
  return false;
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
