#include "app/build_info.h"

// STEERD_VERSION, STEERD_BUILD_TYPE and STEERD_CXX_FLAGS come from server/app/CMakeLists.txt, on
// this file only, so a change of version rebuilds one file.
#ifndef STEERD_VERSION
#define STEERD_VERSION "unknown"
#endif
#ifndef STEERD_BUILD_TYPE
#define STEERD_BUILD_TYPE "unknown"
#endif
#ifndef STEERD_CXX_FLAGS
#define STEERD_CXX_FLAGS ""
#endif

namespace steerd {

namespace {

std::string compilerName() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

}  // namespace

BuildInfo buildInfo() {
  BuildInfo b;
  b.version = STEERD_VERSION;
  b.compiler = compilerName();
  // __clang_version__ ends in a space on some builds.
  while (!b.compiler.empty() && b.compiler.back() == ' ') b.compiler.pop_back();
  b.buildType = STEERD_BUILD_TYPE;
  b.flags = STEERD_CXX_FLAGS;
  return b;
}

std::string versionText() {
  const BuildInfo b = buildInfo();
  return "steerd " + b.version + "\ncompiler: " + b.compiler + "\nbuild: " + b.buildType +
         "\nflags: " + b.flags;
}

}  // namespace steerd
