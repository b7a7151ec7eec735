// What the scenario-file tests share: load a text, break one piece of a good one, and look for
// an error that names the place.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/scenario_file.h"

namespace steerd::testing {

inline ScenarioLoad load(const std::string& text) {
  return loadScenarioText(text, "t.txtpb", {1, 1, 0}, true);
}

// `good` with its first `from` replaced by `to` (a test bug, reported, when `from` is missing).
inline std::string replacedIn(const std::string& good, const std::string& from, const std::string& to) {
  std::string s = good;
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << "test bug: '" << from << "' not in the good scenario";
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// The load failed, built nothing, and one of its errors contains `expected`.
inline void expectError(const std::string& text, const std::string& expected) {
  const ScenarioLoad r = load(text);
  EXPECT_EQ(r.world, nullptr);
  ASSERT_FALSE(r.errors.empty()) << "no error; expected: " << expected;
  bool found = false;
  for (const auto& e : r.errors) found = found || e.find(expected) != std::string::npos;
  EXPECT_TRUE(found) << "expected an error containing: " << expected << "\nfirst error: " << r.errors[0];
}

// Some error contains both `a` and `b`.
inline bool mentions(const std::vector<std::string>& errors, const std::string& a, const std::string& b) {
  for (const auto& e : errors) {
    if (e.find(a) != std::string::npos && e.find(b) != std::string::npos) return true;
  }
  return false;
}

}  // namespace steerd::testing
