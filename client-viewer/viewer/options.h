// Command-line options of steer-viewer.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/address.h"

#include "viewer/bot.h"
#include "viewer/geometry.h"

namespace steerd::viewer {

// --operator-spawn ARCHETYPE@X,Y: a spawn the operator panel sends once connected.
struct OperatorSpawn {
  std::string archetype;
  float x = 0.0f, y = 0.0f;  // m, world coordinates
};

// "boid@120,80" (spaces allowed around the numbers). Returns an error message, or empty on
// success with `out` set.
std::string parseOperatorSpawn(const std::string& text, OperatorSpawn& out);
// "120,80": a world point, two finite numbers. False (and `out` unchanged) otherwise.
bool parseWorldPoint(std::string_view text, Point& out);

struct ViewerOptions {
  std::string host;  // from --server HOST:PORT
  std::uint16_t port = 0;
  std::string token;       // connect token bytes (the --token file holds them as hex)
  std::string screenshot;  // --screenshot FILE.png: render, save, exit
  double after = 3.0;      // seconds of rendering before the screenshot
  std::optional<BotPattern> bot;
  int width = 1280, height = 800;  // window size, logical pixels
  double interpDelaySnapshots = 2.0;
  // A bad link to look at (the load tester's relay in front of the viewer's client): loss
  // probability, one-way delay and its +- jitter, ms.
  double loss = 0.0, latencyMs = 0.0, jitterMs = 0.0;
  // Overlays switched on from the start (--overlay velocity,ghosts,ids,interest,forces,target,sensors,
  // corridor,context,states): for screenshots.
  bool velocity = false, ghosts = false, ids = false, interest = false, states = false;
  bool forces = false, target = false, sensors = false, corridor = false, context = false;
  std::optional<std::uint32_t> select;  // --select ID: the entity in the inspector from the start
  bool follow = false;                  // --follow: the camera follows the selection (or the player)
  std::optional<float> zoom;            // --zoom PX: pixels per metre instead of fitting the world
  // --operator-spawn (repeatable): spawns the operator panel sends, in order, once connected with
  // the control role; the last one that succeeds is selected. For screenshots of the panel.
  std::vector<OperatorSpawn> operatorSpawns;
  // --operator-send X,Y: once those spawns are answered, the selection (the last one spawned, or
  // --select's) is sent there (MoveTo).
  std::optional<Point> operatorSend;
  // A served replay (steerd --replay FILE --serve): once its first status comes, seek to this tick
  // and/or pause; a screenshot waits until the playback stands there. For screenshots.
  std::optional<std::uint32_t> replaySeek;
  bool replayPause = false;
};

// Parses argv. On --help or a bad flag prints to stdout/stderr and returns the exit code to use
// (0 for --help, non-zero otherwise); else fills `out` and returns nullopt.
std::optional<int> parseViewerOptions(int argc, char** argv, ViewerOptions& out);

using client::splitHostPort;  // HOST:PORT or [IPv6]:PORT

// A token file's text: hex digits (as `steerd --issue-token` prints them), surrounding
// whitespace allowed. Returns an error message, or empty on success with `bytes` set.
std::string parseTokenText(const std::string& text, std::string& bytes);

}  // namespace steerd::viewer
