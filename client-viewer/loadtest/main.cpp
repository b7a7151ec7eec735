// steer-loadtest: simulated players against a steerd server (README in client-viewer/loadtest/).
#include <cstdio>
#include <exception>

#include "client/protobuf_log.h"
#include "loadtest/options.h"
#include "loadtest/run.h"

int main(int argc, char** argv) {
  steerd::loadtest::LoadOptions options;
  if (auto code = steerd::loadtest::parseLoadOptions(argc, argv, options)) return *code;
  steerd::client::quietProtobufParseWarnings();
  try {
    return steerd::loadtest::runLoadTest(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "steer-loadtest: %s\n", e.what());
    return 1;
  }
}
