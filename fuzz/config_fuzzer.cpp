// libFuzzer target for --config files (issue 38): the text goes through the limits checked before
// the parser (size, section depth), CLI11's TOML/INI parser, every flag's own check and the checks
// after the parse (parseConfigText, what --config FILE does with the file). Any text must give
// options or a usage error, never crash, hang or take unbounded memory; options it gives must be
// what the command line would allow.
// Built with clang by scripts/fuzz.sh.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

#include "app/options.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // CLI11 prints each usage error (and any help asked for) to std::cerr / std::cout, and the checks
  // after the parse to stderr: not for every input. libFuzzer kept its own handle on stderr, and
  // sanitizer reports write to the file descriptor itself.
  std::cout.rdbuf(nullptr);
  std::cerr.rdbuf(nullptr);
  if (std::FILE* devNull = std::fopen("/dev/null", "w")) stderr = devNull;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  steerd::Options options;
  if (steerd::parseConfigText(text, options).has_value()) return 0;
  // Accepted: within what the flags allow.
  const bool sane = std::isfinite(options.tickRate) && options.tickRate >= 1.0 &&
                    options.tickRate <= 1000.0 && options.sendRate <= options.tickRate &&
                    options.threads >= 1 && options.maxClients >= 1 && options.maxClients <= 100'000 &&
                    std::isfinite(options.interestRadius);
  if (!sane) __builtin_trap();
  return 0;
}
