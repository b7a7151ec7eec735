// steer-viewer's flags: HOST:PORT, token files, and bad flags refused with a non-zero exit.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "viewer/options.h"

namespace steerd::viewer {
namespace {

std::optional<int> parse(std::vector<std::string> args, ViewerOptions& out) {
  args.insert(args.begin(), "steer-viewer");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return parseViewerOptions(static_cast<int>(argv.size()), argv.data(), out);
}

TEST(ViewerOptions, SplitsHostAndPort) {
  std::string host;
  std::uint16_t port = 0;
  EXPECT_EQ(splitHostPort("127.0.0.1:7777", host, port), "");
  EXPECT_EQ(host, "127.0.0.1");
  EXPECT_EQ(port, 7777);
  EXPECT_EQ(splitHostPort("game.example:1", host, port), "");
  EXPECT_EQ(host, "game.example");
  EXPECT_EQ(splitHostPort("[::1]:9000", host, port), "");
  EXPECT_EQ(host, "::1");
  EXPECT_EQ(port, 9000);
}

TEST(ViewerOptions, RefusesMalformedAddresses) {
  std::string host = "kept";
  std::uint16_t port = 5;
  for (const char* bad : {"localhost", ":7777", "host:", "host:0", "host:65536", "host:12ab", "::1:7777",
                          "[::1]7777", "[::1"}) {
    EXPECT_NE(splitHostPort(bad, host, port), "") << bad;
  }
  EXPECT_EQ(host, "kept");
  EXPECT_EQ(port, 5);
}

TEST(ViewerOptions, TokenTextIsHexWithWhitespaceAllowedAround) {
  std::string bytes;
  EXPECT_EQ(parseTokenText("  0aFF10\n", bytes), "");
  EXPECT_EQ(bytes, std::string("\x0a\xff\x10", 3));
  EXPECT_NE(parseTokenText("", bytes), "");
  EXPECT_NE(parseTokenText(" \n", bytes), "");
  EXPECT_NE(parseTokenText("abc", bytes), "");
  EXPECT_NE(parseTokenText("zz", bytes), "");
  EXPECT_NE(parseTokenText("ab cd", bytes), "");
}

TEST(ViewerOptions, ParsesEveryFlag) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto token = dir / "steer_viewer_options_test.token";
  std::ofstream(token) << "c0ffee\n";
  ViewerOptions o;
  const auto rc = parse({"--server", "10.0.0.2:7000", "--token",      token.string(), "--screenshot",
                         "out.PNG",  "--after",       "1.5",          "--bot",        "figure8",
                         "--width",  "640",           "--height",     "480",          "--interp-delay",
                         "3",        "--overlay",     "velocity,ids", "--select",     "301"},
                        o);
  std::filesystem::remove(token);
  EXPECT_FALSE(rc.has_value());
  EXPECT_EQ(o.host, "10.0.0.2");
  EXPECT_EQ(o.port, 7000);
  EXPECT_EQ(o.token, std::string("\xc0\xff\xee", 3));
  EXPECT_EQ(o.screenshot, "out.PNG");
  EXPECT_DOUBLE_EQ(o.after, 1.5);
  EXPECT_EQ(o.bot, BotPattern::kFigure8);
  EXPECT_EQ(o.width, 640);
  EXPECT_EQ(o.height, 480);
  EXPECT_DOUBLE_EQ(o.interpDelaySnapshots, 3.0);
  EXPECT_TRUE(o.velocity);
  EXPECT_FALSE(o.ghosts);
  EXPECT_TRUE(o.ids);
  EXPECT_EQ(o.select, 301u);
}

TEST(ViewerOptions, DebugOverlaysFollowAndZoom) {
  ViewerOptions o;
  EXPECT_FALSE(parse({"--server", "h:1", "--overlay", "interest,forces,target,sensors", "--select", "4",
                      "--follow", "--zoom", "12.5"},
                     o)
                   .has_value());
  EXPECT_TRUE(o.interest);
  EXPECT_TRUE(o.forces);
  EXPECT_TRUE(o.target);
  EXPECT_TRUE(o.sensors);
  EXPECT_FALSE(o.velocity);
  EXPECT_TRUE(o.follow);
  ASSERT_TRUE(o.zoom.has_value());
  EXPECT_FLOAT_EQ(*o.zoom, 12.5f);
  ViewerOptions plain;
  EXPECT_FALSE(parse({"--server", "h:1"}, plain).has_value());
  EXPECT_FALSE(plain.follow);
  EXPECT_FALSE(plain.zoom.has_value());
  EXPECT_FALSE(plain.corridor);
  EXPECT_FALSE(plain.context);
}

TEST(ViewerOptions, CorridorAndContextOverlays) {
  ViewerOptions o;
  EXPECT_FALSE(parse({"--server", "h:1", "--overlay", "corridor,context", "--select", "4"}, o).has_value());
  EXPECT_TRUE(o.corridor);
  EXPECT_TRUE(o.context);
  EXPECT_FALSE(o.forces);
}

TEST(ViewerOptions, OperatorSpawnsInOrder) {
  ViewerOptions o;
  EXPECT_FALSE(
      parse({"--server", "h:1", "--operator-spawn", "boid@120,80", "--operator-spawn", "hider@ -3.5, 1e2"}, o)
          .has_value());
  ASSERT_EQ(o.operatorSpawns.size(), 2u);
  EXPECT_EQ(o.operatorSpawns[0].archetype, "boid");
  EXPECT_FLOAT_EQ(o.operatorSpawns[0].x, 120.0f);
  EXPECT_FLOAT_EQ(o.operatorSpawns[0].y, 80.0f);
  EXPECT_EQ(o.operatorSpawns[1].archetype, "hider");
  EXPECT_FLOAT_EQ(o.operatorSpawns[1].x, -3.5f);
  EXPECT_FLOAT_EQ(o.operatorSpawns[1].y, 100.0f);
  EXPECT_FALSE(o.operatorSend.has_value());
  ViewerOptions sent;
  EXPECT_FALSE(parse({"--server", "h:1", "--operator-send", "60,40.5"}, sent).has_value());
  ASSERT_TRUE(sent.operatorSend.has_value());
  EXPECT_FLOAT_EQ(sent.operatorSend->x, 60.0f);
  EXPECT_FLOAT_EQ(sent.operatorSend->y, 40.5f);
  OperatorSpawn s;
  EXPECT_EQ(parseOperatorSpawn("a@b@1,2", s), "");  // the archetype is everything before the last '@'
  EXPECT_EQ(s.archetype, "a@b");
  for (const char* bad : {"boid", "@1,2", "boid@", "boid@1", "boid@1,", "boid@,2", "boid@1,2,3", "boid@x,2",
                          "boid@nan,1", "boid@1,inf"}) {
    EXPECT_NE(parseOperatorSpawn(bad, s), "") << bad;
  }
}

TEST(ViewerOptions, BadFlagsExitNonZero) {
  const std::vector<std::vector<std::string>> bad = {
      {},                                            // --server is required
      {"--server", "nohost"},                        // no port
      {"--server", "h:1", "--bot", "square"},        // unknown pattern
      {"--server", "h:1", "--width", "10"},          // too small
      {"--server", "h:1", "--width", "abc"},         // not a number
      {"--server", "h:1", "--after", "2"},           // --after without --screenshot
      {"--server", "h:1", "--screenshot", "x.jpg"},  // not a PNG
      {"--server", "h:1", "--screenshot", "x.png", "--after", "nan"},
      {"--server", "h:1", "--interp-delay", "-1"},
      {"--server", "h:1", "--token", "/nonexistent/token"},
      {"--server", "h:1", "--overlay", "aoi"},
      {"--server", "h:1", "--select", "-3"},
      {"--server", "h:1", "--zoom", "0"},
      {"--server", "h:1", "--zoom", "nan"},
      {"--server", "h:1", "--operator-spawn", "boid@1"},
      {"--server", "h:1", "--operator-send", "1;2"},
      {"--server", "h:1", "--frobnicate"},
  };
  for (const auto& args : bad) {
    ViewerOptions o;
    testing::internal::CaptureStderr();
    const auto rc = parse(args, o);
    const std::string err = testing::internal::GetCapturedStderr();
    ASSERT_TRUE(rc.has_value()) << testing::PrintToString(args);
    EXPECT_NE(*rc, 0) << testing::PrintToString(args);
    EXPECT_FALSE(err.empty()) << testing::PrintToString(args);
  }
}

TEST(ViewerOptions, HelpExitsZero) {
  ViewerOptions o;
  testing::internal::CaptureStdout();
  const auto rc = parse({"--help"}, o);
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(rc.has_value());
  EXPECT_EQ(*rc, 0);
  EXPECT_NE(out.find("--screenshot"), std::string::npos);
}

TEST(ViewerOptions, ReplaySeekAndPause) {
  ViewerOptions o;
  EXPECT_FALSE(parse({"--server", "h:1", "--replay-seek", "120", "--replay-pause"}, o).has_value());
  ASSERT_TRUE(o.replaySeek.has_value());
  EXPECT_EQ(*o.replaySeek, 120u);
  EXPECT_TRUE(o.replayPause);
  ViewerOptions plain;
  EXPECT_FALSE(parse({"--server", "h:1"}, plain).has_value());
  EXPECT_FALSE(plain.replaySeek.has_value());
  EXPECT_FALSE(plain.replayPause);
  for (const char* bad : {"-1", "abc", "1.5", "99999999999"}) {
    ViewerOptions b;
    EXPECT_TRUE(parse({"--server", "h:1", "--replay-seek", bad}, b).has_value()) << bad;
  }
}

}  // namespace
}  // namespace steerd::viewer
