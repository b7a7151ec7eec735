#include "viewer/options.h"

#include "proto/hex.h"

#include <CLI/CLI.hpp>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

namespace steerd::viewer {

std::string parseTokenText(const std::string& text, std::string& bytes) {
  std::size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  const std::string_view hex(text.data() + b, e - b);
  if (hex.empty()) return "the token file is empty";
  auto decoded = wire::fromHex(hex);
  if (!decoded) return "the token is not hex (as steerd --issue-token prints it)";
  bytes = std::move(*decoded);
  return {};
}

namespace {

// A whole, finite number, spaces allowed around it.
bool parseFloat(std::string_view text, float& out) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  float v = 0.0f;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    return false;
  out = v;
  return true;
}

}  // namespace

bool parseWorldPoint(std::string_view text, Point& out) {
  const auto comma = text.find(',');
  Point p;
  if (comma == std::string_view::npos || !parseFloat(text.substr(0, comma), p.x) ||
      !parseFloat(text.substr(comma + 1), p.y)) {
    return false;
  }
  out = p;
  return true;
}

std::string parseOperatorSpawn(const std::string& text, OperatorSpawn& out) {
  const auto at = text.rfind('@');
  if (at == std::string::npos || at == 0) return "'" + text + "' is not ARCHETYPE@X,Y";
  Point p;
  if (!parseWorldPoint(std::string_view(text).substr(at + 1), p)) {
    return "'" + text + "': X,Y must be two finite numbers (metres), e.g. boid@120,80";
  }
  out.archetype = text.substr(0, at);
  out.x = p.x;
  out.y = p.y;
  return {};
}

std::optional<int> parseViewerOptions(int argc, char** argv, ViewerOptions& out) {
  CLI::App app{"steer-viewer: watch a steerd server's world, and walk a player through it"};
  std::string server, tokenFile, bot;
  app.add_option("--server", server, "steerd's UDP game address, HOST:PORT")->required();
  app.add_option("--token", tokenFile, "File with a connect token in hex (steerd --issue-token prints one)")
      ->check(CLI::ExistingFile);
  auto* shot = app.add_option("--screenshot", out.screenshot,
                              "Render for --after seconds, save the frame as this PNG file and exit");
  app.add_option("--after", out.after, "Seconds to render before --screenshot")
      ->check(CLI::Range(0.0, 3600.0))
      ->needs(shot);
  app.add_option("--bot", bot, "Move the player along a pattern: circle, figure8 or random")
      ->check(CLI::IsMember({"circle", "figure8", "random"}));
  app.add_option("--width", out.width, "Window width, pixels")->check(CLI::Range(160, 16384));
  app.add_option("--height", out.height, "Window height, pixels")->check(CLI::Range(120, 16384));
  app.add_option("--interp-delay", out.interpDelaySnapshots,
                 "Interpolation delay, in snapshot intervals (more: smoother under loss, later)")
      ->check(CLI::Range(0.0, 30.0));
  app.add_option("--loss", out.loss,
                 "Simulated loss each way, 0..1 (a relay in front of the viewer's client)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--latency", out.latencyMs, "Simulated one-way delay, ms, added each way")
      ->check(CLI::Range(0.0, 10000.0));
  app.add_option("--jitter", out.jitterMs, "Simulated delay variation, +- ms (uniform; reorders)")
      ->check(CLI::Range(0.0, 10000.0));
  std::vector<std::string> overlays;
  app.add_option(
         "--overlay", overlays,
         "Overlays on from the start: velocity, ghosts, ids, interest, states (colour by brain state, "
         "--allow-debug servers), and for the selected agent forces, target, sensors, corridor, context "
         "(comma separated)")
      ->delimiter(',')
      ->check(CLI::IsMember({"velocity", "ghosts", "ids", "interest", "states", "forces", "target", "sensors",
                             "corridor", "context"}));
  std::uint32_t select = 0;
  auto* selectOption = app.add_option("--select", select, "Entity id to select (inspector) from the start");
  app.add_flag("--follow", out.follow,
               "The camera follows the --select entity (or the player) from the start");
  float zoom = 0.0f;
  auto* zoomOption =
      app.add_option("--zoom", zoom, "Pixels per metre from the start, instead of fitting the world")
          ->check(CLI::Range(0.01f, 400.0f));
  std::vector<std::string> operatorSpawns;
  app.add_option("--operator-spawn", operatorSpawns,
                 "ARCHETYPE@X,Y: once connected with the control role (steerd --allow-control), the operator "
                 "panel spawns one there (repeatable; for screenshots)");
  std::string operatorSend;
  auto* sendOption = app.add_option(
      "--operator-send", operatorSend,
      "X,Y: once the --operator-spawn results are in, the operator panel sends the selection (the last agent "
      "spawned, or --select's) there");
  std::uint32_t replaySeek = 0;
  auto* seekOption =
      app.add_option("--replay-seek", replaySeek,
                     "TICK: against steerd --replay FILE --serve, seek there once connected (the "
                     "screenshot waits until the playback is there)");
  app.add_flag("--replay-pause", out.replayPause,
               "Against steerd --replay FILE --serve: pause the playback once connected");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  // CLI11's Range lets NaN through (every comparison with NaN is false).
  for (const auto& [name, value] : {std::pair{"--after", out.after},
                                    {"--interp-delay", out.interpDelaySnapshots},
                                    {"--loss", out.loss},
                                    {"--latency", out.latencyMs},
                                    {"--jitter", out.jitterMs}}) {
    if (!std::isfinite(value)) {
      std::fprintf(stderr, "%s must be a finite number\nRun with --help for more information.\n", name);
      return 2;
    }
  }
  if (const std::string error = splitHostPort(server, out.host, out.port); !error.empty()) {
    std::fprintf(stderr, "--server: %s\nRun with --help for more information.\n", error.c_str());
    return 2;
  }
  if (!tokenFile.empty()) {
    std::ifstream in(tokenFile, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      std::fprintf(stderr, "--token: cannot read %s\n", tokenFile.c_str());
      return 2;
    }
    if (const std::string error = parseTokenText(text.str(), out.token); !error.empty()) {
      std::fprintf(stderr, "--token %s: %s\n", tokenFile.c_str(), error.c_str());
      return 2;
    }
  }
  for (const std::string& text : operatorSpawns) {
    OperatorSpawn spawn;
    if (const std::string error = parseOperatorSpawn(text, spawn); !error.empty()) {
      std::fprintf(stderr, "--operator-spawn: %s\nRun with --help for more information.\n", error.c_str());
      return 2;
    }
    out.operatorSpawns.push_back(std::move(spawn));
  }
  if (sendOption->count() > 0) {
    Point to;
    if (!parseWorldPoint(operatorSend, to)) {
      std::fprintf(stderr,
                   "--operator-send: '%s' is not X,Y (two finite numbers, metres)\nRun with --help for more "
                   "information.\n",
                   operatorSend.c_str());
      return 2;
    }
    out.operatorSend = to;
  }
  if (!bot.empty()) out.bot = parseBotPattern(bot);
  if (seekOption->count() > 0) out.replaySeek = replaySeek;
  if (selectOption->count() > 0) out.select = select;
  if (zoomOption->count() > 0) {
    if (!std::isfinite(zoom)) {
      std::fprintf(stderr, "--zoom must be a finite number\nRun with --help for more information.\n");
      return 2;
    }
    out.zoom = zoom;
  }
  for (const std::string& o : overlays) {
    out.velocity = out.velocity || o == "velocity";
    out.ghosts = out.ghosts || o == "ghosts";
    out.ids = out.ids || o == "ids";
    out.interest = out.interest || o == "interest";
    out.forces = out.forces || o == "forces";
    out.target = out.target || o == "target";
    out.sensors = out.sensors || o == "sensors";
    out.corridor = out.corridor || o == "corridor";
    out.context = out.context || o == "context";
    out.states = out.states || o == "states";
  }
  if (!out.screenshot.empty()) {
    const auto dot = out.screenshot.rfind('.');
    std::string ext = dot == std::string::npos ? "" : out.screenshot.substr(dot);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext != ".png") {
      std::fprintf(stderr, "--screenshot: the file must end in .png, got '%s'\n", out.screenshot.c_str());
      return 2;
    }
  }
  return std::nullopt;
}

}  // namespace steerd::viewer
