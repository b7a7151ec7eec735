#include "viewer/options.h"

#include "proto/hex.h"

#include <CLI/CLI.hpp>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
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
  std::vector<std::string> overlays;
  app.add_option("--overlay", overlays,
                 "Overlays on from the start: velocity, ghosts, ids, interest, and for the selected agent "
                 "forces, target, sensors, corridor, context (comma separated)")
      ->delimiter(',')
      ->check(CLI::IsMember(
          {"velocity", "ghosts", "ids", "interest", "forces", "target", "sensors", "corridor", "context"}));
  std::uint32_t select = 0;
  auto* selectOption = app.add_option("--select", select, "Entity id to select (inspector) from the start");
  app.add_flag("--follow", out.follow,
               "The camera follows the --select entity (or the player) from the start");
  float zoom = 0.0f;
  auto* zoomOption =
      app.add_option("--zoom", zoom, "Pixels per metre from the start, instead of fitting the world")
          ->check(CLI::Range(0.01f, 400.0f));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  // CLI11's Range lets NaN through (every comparison with NaN is false).
  for (const auto& [name, value] :
       {std::pair{"--after", out.after}, {"--interp-delay", out.interpDelaySnapshots}}) {
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
  if (!bot.empty()) out.bot = parseBotPattern(bot);
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
