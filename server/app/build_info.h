// What this binary is: its version, the compiler and the flags it was built with (--version,
// steerd_build_info in /metrics).
#pragma once

#include <string>

namespace steerd {

struct BuildInfo {
  std::string version;    // the project's version (CMakeLists.txt)
  std::string compiler;   // "gcc 12.2.0", "clang 14.0.6"
  std::string buildType;  // Release, Debug, RelWithDebInfo
  std::string flags;      // the C++ compile flags of this build
};

BuildInfo buildInfo();

// The --version text: one line each, no final newline (CLI11 prints one).
std::string versionText();

}  // namespace steerd
