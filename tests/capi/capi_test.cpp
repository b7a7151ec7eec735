// The C API (client-viewer/capi/steerd_client.h) as an engine uses it: this test links only
// libsteerd-client and drives a real steerd process on 127.0.0.1 ($STEERD_BIN): connect, entities
// at render time with their motion, a walked player, spawns through the control role, and every
// kind of bad call answered with a status and a message, never a crash.
#include "steerd_client.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A steerd process on 127.0.0.1 with a port of its own choosing, read from its first lines.
class SteerdProcess {
 public:
  explicit SteerdProcess(bool control) {
    const char* bin = std::getenv("STEERD_BIN");
    if (bin == nullptr) return;
    int out[2];
    if (pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], 1);
      dup2(out[1], 2);
      close(out[0]);
      std::vector<const char*> argv = {
          bin,         "--bind", "127.0.0.1",         "--port", "0", "--metrics-port", "0",
          "--threads", "1",      "--status-interval", "0"};
      if (control) argv.push_back("--allow-control");
      argv.push_back(nullptr);
      execv(bin, const_cast<char* const*>(argv.data()));
      _exit(127);
    }
    close(out[1]);
    FILE* f = fdopen(out[0], "r");
    char line[512];
    while (f != nullptr && std::fgets(line, sizeof line, f) != nullptr) {
      const char* at = std::strstr(line, "listening on udp ");
      if (at == nullptr) continue;
      const char* colon = std::strrchr(std::strtok(const_cast<char*>(at + 17), " "), ':');
      if (colon != nullptr) port_ = std::atoi(colon + 1);
      break;
    }
    out_ = f;  // kept open (and drained by nobody: the server logs little at this level)
  }
  ~SteerdProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      waitpid(pid_, &status, 0);
    }
    if (out_ != nullptr) std::fclose(out_);
  }
  int port() const { return port_; }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  FILE* out_ = nullptr;
};

struct Live {
  explicit Live(bool control) : server(control) {
    EXPECT_GT(server.port(), 0) << "steerd did not start (STEERD_BIN="
                                << (std::getenv("STEERD_BIN") ? std::getenv("STEERD_BIN") : "") << ")";
    const std::string address = "127.0.0.1:" + std::to_string(server.port());
    steerd_client_options o{};
    o.server = address.c_str();
    EXPECT_EQ(steerd_client_create(&o, &client), STEERD_OK);
  }
  ~Live() { steerd_client_destroy(client); }
  // Updates the client at 200 Hz until `done`, for at most 10 s of the server's real time.
  bool until(const std::function<bool()>& done) {
    for (int i = 0; i < 2000; ++i) {
      EXPECT_EQ(steerd_client_update(client, nowSeconds()), STEERD_OK);
      if (done()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }
  bool connect() {
    EXPECT_EQ(steerd_client_connect(client, nowSeconds()), STEERD_OK);
    return until([&] { return steerd_client_state(client) == STEERD_CONNECTED; });
  }
  SteerdProcess server;
  steerd_client* client = nullptr;
};

TEST(CApi, ConnectsAndDrawsEntitiesWithTheirMotion) {
  EXPECT_EQ(steerd_client_abi_version(), STEERD_CLIENT_ABI_VERSION);
  Live live(false);
  ASSERT_TRUE(live.connect()) << steerd_client_last_error(live.client);
  steerd_server_info info{};
  ASSERT_EQ(steerd_client_server_info(live.client, &info), STEERD_OK);
  EXPECT_GT(info.tick_rate, 0.0);
  EXPECT_GT(info.archetype_count, 1u);  // the scenario's, and the player
  char name[64];
  ASSERT_EQ(steerd_client_archetype_name(live.client, 0, name, sizeof name), STEERD_OK);
  EXPECT_GT(std::strlen(name), 0u);

  // Walk east and watch the body.
  ASSERT_EQ(steerd_client_set_move(live.client, 1.0f, 0.0f), STEERD_OK);
  std::vector<steerd_entity> es(4096);
  float startX = NAN, lastX = NAN, speed = 0.0f;
  std::vector<float> speeds;  // the drawn body's speed each frame it moved
  ASSERT_TRUE(live.until([&] {
    std::size_t n = 0;
    if (steerd_client_entities(live.client, nowSeconds(), es.data(), es.size(), &n) != STEERD_OK)
      return false;
    for (std::size_t i = 0; i < n; ++i) {
      if (es[i].id != info.player_entity) continue;
      if (std::isnan(startX)) startX = es[i].x;
      lastX = es[i].x;
      speed = std::hypot(es[i].vx, es[i].vy);
      if (speed > 0.5f) {
        speeds.push_back(speed);
        EXPECT_GT(es[i].vx, std::abs(es[i].vy)) << "walking east";
      }
    }
    return !std::isnan(startX) && lastX - startX > 2.0f && speeds.size() >= 5;
  })) << "walked "
      << lastX - startX << " m, speed " << speed;
  // The motion is the displacement between the snapshots drawn from. When a loaded machine sends
  // inputs late, the server applies the banked ones in one tick (up to 0.25 s of them, game_session.h),
  // so one snapshot interval can show several times the top speed: the median is the walk's.
  std::nth_element(speeds.begin(), speeds.begin() + speeds.size() / 2, speeds.end());
  EXPECT_LE(speeds[speeds.size() / 2], info.player_max_speed * 1.3f);
  steerd_player p{};
  EXPECT_EQ(steerd_client_predicted_player(live.client, nowSeconds(), &p), STEERD_OK);
  EXPECT_GT(p.x, startX);
  steerd_stats stats{};
  ASSERT_EQ(steerd_client_stats(live.client, nowSeconds(), &stats), STEERD_OK);
  EXPECT_GT(stats.snapshots, 0u);
}

TEST(CApi, SpawnsThroughTheControlRoleAndHearsEachResult) {
  Live live(true);
  ASSERT_TRUE(live.connect()) << steerd_client_last_error(live.client);
  std::uint32_t seq = 0;
  steerd_server_info info{};
  ASSERT_EQ(steerd_client_server_info(live.client, &info), STEERD_OK);
  EXPECT_EQ(info.control_allowed, 1);
  char name[64];
  ASSERT_EQ(steerd_client_archetype_name(live.client, 0, name, sizeof name), STEERD_OK);
  const float x = (info.min_x + info.max_x) / 2, y = (info.min_y + info.max_y) / 2;
  ASSERT_EQ(steerd_client_spawn(live.client, name, x, y, &seq), STEERD_OK)
      << steerd_client_last_error(live.client);
  EXPECT_EQ(seq, 1u);
  ASSERT_EQ(steerd_client_spawn(live.client, "dragon", x, y, &seq), STEERD_OK);
  std::vector<steerd_control_message> got;
  ASSERT_TRUE(live.until([&] {
    steerd_control_message m[8];
    std::size_t n = 0;
    EXPECT_EQ(steerd_client_take_messages(live.client, m, 8, &n), STEERD_OK);
    got.insert(got.end(), m, m + n);
    return std::count_if(got.begin(), got.end(),
                         [](const auto& x) { return x.kind == STEERD_MESSAGE_RESULT; }) == 2;
  }));
  const auto first =
      std::find_if(got.begin(), got.end(), [](const auto& x) { return x.kind == STEERD_MESSAGE_RESULT; });
  ASSERT_NE(first, got.end());
  EXPECT_EQ(first->sequence, 1u);
  EXPECT_EQ(first->ok, 1);
  EXPECT_GT(first->agent, 0u);
  const auto second =
      std::find_if(first + 1, got.end(), [](const auto& x) { return x.kind == STEERD_MESSAGE_RESULT; });
  ASSERT_NE(second, got.end());
  EXPECT_EQ(second->ok, 0);
  EXPECT_NE(std::string(second->error).find("dragon"), std::string::npos) << second->error;
}

TEST(CApi, BadCallsGetAStatusAndAMessage) {
  steerd_client* none = nullptr;
  EXPECT_EQ(steerd_client_update(nullptr, 1.0), STEERD_ERR_NULL);
  EXPECT_EQ(steerd_client_state(nullptr), STEERD_FAILED);
  steerd_client_destroy(nullptr);  // ignored
  steerd_client_options bad{};
  EXPECT_EQ(steerd_client_create(&bad, &none), STEERD_ERR_BAD_ARGUMENT);  // no server
  bad.server = "no port here";
  EXPECT_EQ(steerd_client_create(&bad, &none), STEERD_ERR_BAD_ARGUMENT);
  EXPECT_NE(std::string(steerd_client_last_error(nullptr)).find("port"), std::string::npos)
      << steerd_client_last_error(nullptr);
  EXPECT_EQ(none, nullptr);
  const std::uint8_t garbage[3] = {1, 2, 3};
  bad.server = "127.0.0.1:9";
  bad.token = garbage;
  bad.token_size = sizeof garbage;
  ASSERT_EQ(steerd_client_create(&bad, &none), STEERD_OK);
  EXPECT_EQ(steerd_client_connect(none, 1.0), STEERD_ERR_STATE);  // the token is not a token
  EXPECT_NE(std::string(steerd_client_last_error(none)).find("token"), std::string::npos);
  steerd_client_destroy(none);

  Live live(false);
  EXPECT_EQ(steerd_client_connect(live.client, NAN), STEERD_ERR_BAD_ARGUMENT);
  std::size_t n = 0;
  EXPECT_EQ(steerd_client_entities(live.client, 1.0, nullptr, 0, &n), STEERD_OK);  // not connected: none
  EXPECT_EQ(n, 0u);
  ASSERT_TRUE(live.connect());
  EXPECT_EQ(steerd_client_connect(live.client, nowSeconds()), STEERD_ERR_STATE);  // already
  EXPECT_EQ(steerd_client_set_move(live.client, NAN, 0.0f), STEERD_ERR_BAD_ARGUMENT);
  EXPECT_EQ(steerd_client_entities(live.client, nowSeconds(), nullptr, 4, &n), STEERD_ERR_NULL);
  // A buffer too small: filled, and the count says how many there are.
  ASSERT_TRUE(live.until([&] {
    steerd_entity one{};
    return steerd_client_entities(live.client, nowSeconds(), &one, 1, &n) == STEERD_ERR_BUFFER_TOO_SMALL;
  }));
  EXPECT_GT(n, 1u);
  char tiny[2];
  EXPECT_EQ(steerd_client_archetype_name(live.client, 0, tiny, sizeof tiny), STEERD_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(steerd_client_archetype_name(live.client, 99, tiny, sizeof tiny), STEERD_ERR_BAD_ARGUMENT);
  // No control role here.
  std::uint32_t seq = 0;
  EXPECT_EQ(steerd_client_spawn(live.client, "anything", 1, 1, &seq), STEERD_ERR_NOT_ALLOWED);
  EXPECT_NE(std::string(steerd_client_last_error(live.client)).find("control"), std::string::npos);
  EXPECT_EQ(steerd_client_send_command(live.client, garbage, sizeof garbage, &seq), STEERD_ERR_BAD_ARGUMENT);
  std::size_t size = 0;
  EXPECT_EQ(steerd_client_take_message_bytes(live.client, nullptr, 0, &size), STEERD_OK);
  EXPECT_EQ(size, 0u);
  // The scene's version and doors: a world that never changed is at 0 and has no doors here.
  EXPECT_EQ(steerd_client_scene_version(live.client, nullptr), STEERD_ERR_NULL);
  std::uint32_t version = 7;
  EXPECT_EQ(steerd_client_scene_version(live.client, &version), STEERD_OK);
  EXPECT_EQ(version, 0u);
  EXPECT_EQ(steerd_client_scene_doors(live.client, nullptr, 4, &n), STEERD_ERR_NULL);
  EXPECT_EQ(steerd_client_scene_doors(live.client, nullptr, 0, &n), STEERD_OK);
  EXPECT_EQ(n, 0u);
}

}  // namespace
