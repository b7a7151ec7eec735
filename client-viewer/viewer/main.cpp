// steer-viewer: renders a steerd server's world as a client sees it, with a player to walk
// around, debug overlays and a HUD. See client-viewer/README.md.
#include <cstdio>
#include <exception>

#include "client/protobuf_log.h"
#include "viewer/app.h"
#include "viewer/options.h"

int main(int argc, char** argv) {
  steerd::viewer::ViewerOptions options;
  if (auto code = steerd::viewer::parseViewerOptions(argc, argv, options)) return *code;
  steerd::client::quietProtobufParseWarnings();
  try {
    steerd::viewer::App app(std::move(options));
    return app.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "steer-viewer: %s\n", e.what());
    return 1;
  }
}
