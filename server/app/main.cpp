// steerd: the server process. Flags, logging, then the headless or the real-time run.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <exception>

#include "app/headless_run.h"
#include "app/options.h"
#include "app/realtime_run.h"

int main(int argc, char** argv) {
  steerd::Options options;
  if (auto exitCode = steerd::parseOptions(argc, argv, options)) return *exitCode;

  // Logs go to stderr so that stdout carries only what scripts read (the report, state_hash).
  auto logger = spdlog::stderr_color_mt("steerd");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(options.logLevel));
  spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");

  try {
    return options.headless ? steerd::runHeadless(options, stdout) : steerd::runRealtime(options);
  } catch (const std::exception& e) {
    spdlog::critical("fatal: {}", e.what());
    return 1;
  }
}
