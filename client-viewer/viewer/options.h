// Command-line options of steer-viewer.
#pragma once

#include <optional>
#include <string>

#include "client/address.h"

#include "viewer/bot.h"

namespace steerd::viewer {

struct ViewerOptions {
  std::string host;  // from --server HOST:PORT
  std::uint16_t port = 0;
  std::string token;       // connect token bytes (the --token file holds them as hex)
  std::string screenshot;  // --screenshot FILE.png: render, save, exit
  double after = 3.0;      // seconds of rendering before the screenshot
  std::optional<BotPattern> bot;
  int width = 1280, height = 800;  // window size, logical pixels
  double interpDelaySnapshots = 2.0;
  // Overlays switched on from the start (--overlay velocity,ghosts,ids,interest,forces,target,sensors,
  // corridor,context): for screenshots.
  bool velocity = false, ghosts = false, ids = false, interest = false;
  bool forces = false, target = false, sensors = false, corridor = false, context = false;
  std::optional<std::uint32_t> select;  // --select ID: the entity in the inspector from the start
  bool follow = false;                  // --follow: the camera follows the selection (or the player)
  std::optional<float> zoom;            // --zoom PX: pixels per metre instead of fitting the world
};

// Parses argv. On --help or a bad flag prints to stdout/stderr and returns the exit code to use
// (0 for --help, non-zero otherwise); else fills `out` and returns nullopt.
std::optional<int> parseViewerOptions(int argc, char** argv, ViewerOptions& out);

using client::splitHostPort;  // HOST:PORT or [IPv6]:PORT

// A token file's text: hex digits (as `steerd --issue-token` prints them), surrounding
// whitespace allowed. Returns an error message, or empty on success with `bytes` set.
std::string parseTokenText(const std::string& text, std::string& bytes);

}  // namespace steerd::viewer
