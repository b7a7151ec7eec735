// The Agones lifecycle against a recording stand-in for the SDK sidecar. The stand-in follows
// the Agones 1.x REST SDK reference (https://agones.dev/site/docs/guides/client-sdks/rest/):
// POST /ready, POST /health, POST /shutdown with a JSON body "{}", PUT /metadata/label with
// {"key": ..., "value": ...}; each answers 200 with "{}".
#include "app/agones_sdk.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace steerd {
namespace {

using namespace std::chrono_literals;

class RecordingSidecar {
 public:
  RecordingSidecar() {
    auto record = [this](const httplib::Request& req, httplib::Response& res) {
      {
        std::lock_guard lock(mutex_);
        calls_.push_back(req.method + " " + req.path + " " + req.body);
      }
      res.set_content("{}", "application/json");
    };
    server_.Post("/ready", record);
    server_.Post("/health", record);
    server_.Post("/shutdown", record);
    server_.Put("/metadata/label", record);
    port_ = server_.bind_to_any_port("127.0.0.1");
  }
  void start() {
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 1000 && !server_.is_running(); ++i) std::this_thread::sleep_for(1ms);
  }
  ~RecordingSidecar() {
    server_.stop();
    if (thread_.joinable()) thread_.join();
  }
  int port() const { return port_; }
  std::vector<std::string> calls() {
    std::lock_guard lock(mutex_);
    return calls_;
  }
  // Waits (up to 10 s, so a broken build cannot hang) until `n` calls are recorded.
  bool waitFor(std::size_t n) {
    for (int i = 0; i < 1000; ++i) {
      if (calls().size() >= n) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mutex_;
  std::vector<std::string> calls_;
};

AgonesConfig configFor(int port) {
  AgonesConfig c;
  c.port = static_cast<std::uint16_t>(port);
  c.retryInterval = 20ms;
  c.requestTimeout = 200ms;
  return c;
}

TEST(AgonesSdk, ReadyHealthPlayersShutdownInOrder) {
  RecordingSidecar sidecar;
  sidecar.start();
  AgonesSdk sdk(configFor(sidecar.port()));
  sdk.ready();
  ASSERT_TRUE(sidecar.waitFor(1));
  sdk.health();
  ASSERT_TRUE(sidecar.waitFor(2));
  sdk.players(3);
  ASSERT_TRUE(sidecar.waitFor(3));
  sdk.shutdown();
  ASSERT_TRUE(sidecar.waitFor(4));
  const auto calls = sidecar.calls();
  EXPECT_EQ(calls[0], "POST /ready {}");
  EXPECT_EQ(calls[1], "POST /health {}");
  EXPECT_EQ(calls[2], R"(PUT /metadata/label {"key":"players","value":"3"})");
  EXPECT_EQ(calls[3], "POST /shutdown {}");
  EXPECT_EQ(sdk.failures(), 0u);
}

TEST(AgonesSdk, ReadyIsRetriedUntilTheSidecarComesUp) {
  RecordingSidecar sidecar;  // bound, but not answering yet
  AgonesSdk sdk(configFor(sidecar.port()));
  sdk.ready();
  std::this_thread::sleep_for(300ms);
  EXPECT_TRUE(sidecar.calls().empty());
  sidecar.start();
  ASSERT_TRUE(sidecar.waitFor(1));
  EXPECT_EQ(sidecar.calls()[0], "POST /ready {}");
  EXPECT_GT(sdk.failures(), 0u);
}

TEST(AgonesSdk, AMissingSidecarIsNeverFatal) {
  RecordingSidecar nobody;  // never started: connections are refused or time out
  {
    AgonesSdk sdk(configFor(nobody.port()));
    sdk.ready();
    sdk.health();
    sdk.players(1);
  }  // destroying it with calls pending returns (each pending call is tried once more)
  SUCCEED();
}

TEST(AgonesSdk, PortComesFromTheEnvironment) {
  AgonesConfig c;
  ::setenv("AGONES_SDK_HTTP_PORT", "19358", 1);
  EXPECT_EQ(agonesConfigFromEnvironment(c), "");
  EXPECT_EQ(c.port, 19358);
  ::setenv("AGONES_SDK_HTTP_PORT", "nope", 1);
  EXPECT_NE(agonesConfigFromEnvironment(c), "");
  ::unsetenv("AGONES_SDK_HTTP_PORT");
  AgonesConfig d;
  EXPECT_EQ(agonesConfigFromEnvironment(d), "");
  EXPECT_EQ(d.port, 9358);
}

}  // namespace
}  // namespace steerd
