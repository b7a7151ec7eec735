// Thresholds as expressions on the report: `PATH OP NUMBER`, PATH a dotted path to a number in the
// report's JSON (`rtt_ms.p99`, `server.tick_p99_ms`, `connected_fraction`), OP one of < <= > >=.
// The four old flags (--max-tick-p99-ms, ...) are the same thing under a name.
//
// Parsing checks the syntax; checkThresholdPath() checks the path against a report's keys (a
// skeleton report, before the run); judge() reads the value from a report and compares. A value
// that is null (not measurable: metrics unreachable, nothing measured) fails.
//
// whenJudged() says whether a check can be judged while the run goes on (--abort-on-fail): an
// upper bound on a figure that only grows (counts, a series' count or max) at any time, since a
// failure then is final; a bound on a level (a percentile, a mean, the connected fraction, the
// server's tick p99) once the players are held; the rest (times, the tester's CPU, lower bounds on
// growing figures) at the end only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace steerd::loadtest {

using Json = nlohmann::ordered_json;

enum class CompareOp : std::uint8_t { kLess, kLessEqual, kGreater, kGreaterEqual };
const char* opText(CompareOp op);
// value OP limit
bool compare(double value, CompareOp op, double limit);

struct ThresholdExpr {
  std::string name;    // the check's name: the flag (max_tick_p99_ms) for the four old flags, else `text`
  std::string text;    // path op limit, no spaces: "rtt_ms.p99<80"
  std::string source;  // as given, for messages: "--threshold 'rtt_ms.p99 < 80'", "--max-tick-p99-ms 16"
  std::string path;
  std::vector<std::string> keys;  // path split at the dots
  CompareOp op = CompareOp::kLess;
  double limit = 0.0;
};

// Syntax only: a path of [A-Za-z0-9_] words joined by dots, an operator, a finite number; spaces
// allowed around each. nullopt with `error` saying what is wrong.
std::optional<ThresholdExpr> parseThreshold(std::string_view text, std::string& error);
// A named check on `path` (the old flags).
ThresholdExpr namedThreshold(std::string name, std::string source, std::string_view path, CompareOp op,
                             double limit);

// "" when `e.path` names a number (or null: a number not measured yet) in `skeleton`, a report
// (reportSkeleton()), outside what is not a figure (config, thresholds, checks, capacity, ...);
// else why not, naming what the report has at that level.
std::string checkThresholdPath(const ThresholdExpr& e, const Json& skeleton);

enum class Judged : std::uint8_t { kAnyTime, kOnceHeld, kAtEnd };
Judged whenJudged(const ThresholdExpr& e);

struct Check {
  std::string name;
  std::string expression;  // ThresholdExpr::text
  double limit = 0;
  std::optional<double> value;  // nullopt: not measurable
  bool pass = false;
  std::string failure;  // human-readable, when not pass
};

// The value at `e.path` in `report` (nullopt when null, missing or not a number) compared.
Check judge(const ThresholdExpr& e, const Json& report);
// The number at `keys` in `j`, nullopt when missing, null or not a number.
std::optional<double> numberAt(const Json& j, const std::vector<std::string>& keys);

}  // namespace steerd::loadtest
