// The Agones lifecycle against a recording stand-in for the SDK sidecar. The stand-in follows
// the Agones 1.x REST SDK reference (https://agones.dev/site/docs/guides/client-sdks/rest/):
// POST /ready, POST /health, POST /shutdown with a JSON body "{}", PUT /metadata/label with
// {"key": ..., "value": ...}; each answers 200 with "{}".
#include "app/agones_sdk.h"
#include "app/agones_match.h"

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
    server_.Post("/allocate", record);
    server_.Post(R"(/v1beta1/lists/players:(addValue|removeValue))", record);
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

TEST(AgonesSdk, PlayersListAllocateAndTheirBodies) {
  RecordingSidecar sidecar;
  sidecar.start();
  AgonesSdk sdk(configFor(sidecar.port()));
  sdk.playerJoined(7);
  sdk.allocate();
  sdk.playerLeft(7);
  ASSERT_TRUE(sidecar.waitFor(3));
  const auto calls = sidecar.calls();
  EXPECT_EQ(calls[0], R"(POST /v1beta1/lists/players:addValue {"value":"7"})");
  EXPECT_EQ(calls[1], "POST /allocate {}");
  EXPECT_EQ(calls[2], R"(POST /v1beta1/lists/players:removeValue {"value":"7"})");
}

TEST(AgonesGameServer, ParsesWatchLinesAndGetBodies) {
  const auto watched = parseGameServer(
      R"({"result":{"object_meta":{"name":"gs-1","annotations":{"steerd.dev/scenario":"yard"},)"
      R"("labels":{"x":"y","n":3}},"status":{"state":"Allocated","address":"10.0.0.1"}}})");
  ASSERT_TRUE(watched.has_value());
  EXPECT_EQ(watched->name, "gs-1");
  EXPECT_EQ(watched->state, "Allocated");
  EXPECT_EQ(watched->annotations.at("steerd.dev/scenario"), "yard");
  EXPECT_EQ(watched->labels.at("x"), "y");
  EXPECT_EQ(watched->labels.count("n"), 0u);  // not a string: not a label value
  const auto got = parseGameServer(R"({"objectMeta":{"name":"gs-2"},"status":{"state":"Ready"}})");
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->name, "gs-2");
  EXPECT_EQ(got->state, "Ready");
}

TEST(AgonesGameServer, RefusesWhatIsNotAGameServer) {
  EXPECT_FALSE(parseGameServer("").has_value());
  EXPECT_FALSE(parseGameServer("{").has_value());
  EXPECT_FALSE(parseGameServer("[]").has_value());
  EXPECT_FALSE(parseGameServer(R"({"result":5})").has_value());
  EXPECT_FALSE(parseGameServer(R"({"status":{"state":7}})").has_value());
  EXPECT_FALSE(parseGameServer(R"({"object_meta":{}})").has_value());
}

GameServerInfo allocatedWith(const std::string& scenario) {
  GameServerInfo gs;
  gs.state = "Allocated";
  gs.annotations["steerd.dev/scenario"] = scenario;
  return gs;
}

TEST(AgonesMatch, TheAllocationNamesABuiltInOrAFileInTheScenarioDir) {
  Options o;
  o.scenario = "default";
  o.scenarioDir = STEERD_SCENARIOS_DIR;
  EXPECT_EQ(scenarioForMatch(o, GameServerInfo{}).scenario, "default");  // nothing named
  EXPECT_EQ(scenarioForMatch(o, allocatedWith("crowd")).scenario, "crowd");
  const MatchScenario yard = scenarioForMatch(o, allocatedWith("yard"));
  EXPECT_FALSE(yard.refused);
  EXPECT_EQ(yard.scenario, std::string(STEERD_SCENARIOS_DIR) + "/yard.txtpb");
  EXPECT_EQ(scenarioForMatch(o, allocatedWith("yard.txtpb")).scenario, yard.scenario);
  GameServerInfo labelled;
  labelled.labels["steerd.dev/scenario"] = "guards";
  EXPECT_EQ(scenarioForMatch(o, labelled).scenario, std::string(STEERD_SCENARIOS_DIR) + "/guards.txtpb");
}

TEST(AgonesMatch, PathsAndUnknownNamesRunTheFleetsScenario) {
  Options o;
  o.scenario = "default";
  o.scenarioDir = STEERD_SCENARIOS_DIR;
  for (const char* bad : {"../scenarios/yard.txtpb", "/etc/passwd", "..", "nope", "sub/yard"}) {
    const MatchScenario m = scenarioForMatch(o, allocatedWith(bad));
    EXPECT_TRUE(m.refused) << bad;
    EXPECT_EQ(m.scenario, "default") << bad;
    EXPECT_NE(m.note.find("--scenario-dir"), std::string::npos) << m.note;
  }
}

}  // namespace
}  // namespace steerd
