// Shared by the scenario file's loaders: the error collector with file and field path, and the
// small formatting helpers its messages use.
#pragma once

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "proto/scenario.pb.h"
#include "steering/vec2.h"

namespace steerd::scenario_check {

namespace pb = steerd::scenario;

inline bool finite(float f) { return std::isfinite(f); }
inline std::string num(float f) {
  std::ostringstream s;
  s << f;
  return s.str();
}
inline std::string quoted(const std::string& s) { return "\"" + s + "\""; }
inline steer::Vec2 vec(const pb::Vec2& v) { return {v.x(), v.y()}; }

// No quantity in a scenario file (metres, m/s, N, kg, weights, seconds) is sane past this; a
// huge finite value (an obstacle radius of 1e10) would otherwise pass and poison the buckets, the
// navmesh build or the sums. Coordinates are bounded by the same figure.
inline constexpr float kMaxValue = 1e6f;

// Collects semantic errors with the file name and a field path.
class Checker {
 public:
  Checker(std::string file, std::vector<std::string>& out, std::vector<std::string>* warnings = nullptr)
      : file_(std::move(file)), out_(out), warnings_(warnings) {}
  void error(const std::string& field, const std::string& message) {
    out_.push_back(file_ + ": " + field + ": " + message);
  }
  // What is allowed but almost certainly not what was meant (a field the kind ignores).
  void warn(const std::string& field, const std::string& message) {
    if (warnings_ != nullptr) warnings_->push_back(file_ + ": " + field + ": " + message);
  }
  void finitePoint(const std::string& field, const pb::Vec2& v) {
    // The point first, appended to: GCC 12's -Wrestrict misreads "(" + std::string once inlined.
    std::string point = num(v.x());
    point.append(", ").append(num(v.y()));
    if (!finite(v.x()) || !finite(v.y()))
      error(field, "not a finite point (" + point + ")");
    else if (std::fabs(v.x()) > kMaxValue || std::fabs(v.y()) > kMaxValue)
      error(field, std::string(1, '(').append(point).append(") is beyond ") + num(kMaxValue) + " m");
  }
  void nonNegative(const std::string& field, float v) {
    if (!finite(v) || v < 0.0f)
      error(field, "must be a finite number >= 0, not " + num(v));
    else if (v > kMaxValue)
      error(field, "at most " + num(kMaxValue) + ", not " + num(v));
  }
  void positive(const std::string& field, float v) {
    if (!finite(v) || v <= 0.0f)
      error(field, "must be a finite number > 0, not " + num(v));
    else if (v > kMaxValue)
      error(field, "at most " + num(kMaxValue) + ", not " + num(v));
  }

 private:
  std::string file_;
  std::vector<std::string>& out_;
  std::vector<std::string>* warnings_;
};

// The names a file defines, by kind (index in the file).
struct NameSets {
  std::map<std::string, int> waypoints, paths, archetypes, doors;
};

}  // namespace steerd::scenario_check
