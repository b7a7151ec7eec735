#include "loadtest/threshold.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "loadtest/series.h"

namespace steerd::loadtest {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// 'text' (GCC 12 warns, wrongly, of overlapping copies in "'" + std::string(...)).
std::string inQuotes(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  out += text;
  out += '\'';
  return out;
}

std::string number(double v, int digits = 6) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

// A limit as written back in an expression's text: every digit that matters.
std::string limitText(double v) { return number(v, 15); }

const char* negatedOpText(CompareOp op) {
  switch (op) {
    case CompareOp::kLess:
      return ">=";
    case CompareOp::kLessEqual:
      return ">";
    case CompareOp::kGreater:
      return "<=";
    case CompareOp::kGreaterEqual:
      return "<";
  }
  return "?";
}

// Top-level keys of the report that are not figures: what was asked, the verdict, the search.
constexpr std::string_view kNotFigures[] = {"schema",  "config",   "why",      "thresholds", "checks",
                                            "verdict", "failures", "capacity", "exit_code",  "interrupted",
                                            "signal",  "end",      "aborted"};

bool notFigure(std::string_view key) {
  return std::find(std::begin(kNotFigures), std::end(kNotFigures), key) != std::end(kNotFigures);
}

std::string keysOf(const Json& object, bool top) {
  std::string out;
  for (const auto& [k, v] : object.items()) {
    if (top && notFigure(k)) continue;
    if (!out.empty()) out += ", ";
    out += k;
  }
  return out;
}

bool isUpperBound(CompareOp op) { return op == CompareOp::kLess || op == CompareOp::kLessEqual; }

}  // namespace

const char* opText(CompareOp op) {
  switch (op) {
    case CompareOp::kLess:
      return "<";
    case CompareOp::kLessEqual:
      return "<=";
    case CompareOp::kGreater:
      return ">";
    case CompareOp::kGreaterEqual:
      return ">=";
  }
  return "?";
}

bool compare(double value, CompareOp op, double limit) {
  switch (op) {
    case CompareOp::kLess:
      return value < limit;
    case CompareOp::kLessEqual:
      return value <= limit;
    case CompareOp::kGreater:
      return value > limit;
    case CompareOp::kGreaterEqual:
      return value >= limit;
  }
  return false;
}

std::optional<ThresholdExpr> parseThreshold(std::string_view text, std::string& error) {
  const std::string_view all = trim(text);
  const std::size_t at = all.find_first_of("<>");
  if (at == std::string_view::npos) {
    error = "no comparison: expected PATH OP NUMBER with OP one of < <= > >=, e.g. 'rtt_ms.p99<80'";
    return std::nullopt;
  }
  ThresholdExpr e;
  std::size_t opLength = 1;
  const bool orEqual = at + 1 < all.size() && all[at + 1] == '=';
  if (all[at] == '<') {
    e.op = orEqual ? CompareOp::kLessEqual : CompareOp::kLess;
  } else {
    e.op = orEqual ? CompareOp::kGreaterEqual : CompareOp::kGreater;
  }
  if (orEqual) opLength = 2;
  const std::string_view path = trim(all.substr(0, at));
  const std::string_view limit = trim(all.substr(at + opLength));
  if (path.empty()) {
    error = "no path before '" + std::string(opText(e.op)) + "' (a figure of the report, e.g. rtt_ms.p99)";
    return std::nullopt;
  }
  // The path: words of letters, digits and _ joined by single dots.
  std::size_t begin = 0;
  for (;;) {
    const std::size_t dot = path.find('.', begin);
    const std::string_view word = path.substr(begin, dot == std::string_view::npos ? dot : dot - begin);
    const bool ok = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
    if (!ok) {
      error = inQuotes(path) +
              " is not a path: words of letters, digits and _ joined by dots, e.g. "
              "snapshot_jitter_ms.p99";
      return std::nullopt;
    }
    e.keys.emplace_back(word);
    if (dot == std::string_view::npos) break;
    begin = dot + 1;
  }
  e.path = path;
  if (limit.empty()) {
    error = "no number after '" + std::string(opText(e.op)) + "'";
    return std::nullopt;
  }
  if (limit.find_first_of("<>=") != std::string_view::npos) {
    error = "one comparison only, one of < <= > >= (no = or ==)";
    return std::nullopt;
  }
  const std::string number_(limit);
  char* end = nullptr;
  const double v = std::strtod(number_.c_str(), &end);
  if (end != number_.c_str() + number_.size()) {
    error = inQuotes(number_) + " is not a number";
    return std::nullopt;
  }
  if (!std::isfinite(v)) {
    error = "the limit must be a finite number, not " + inQuotes(number_);
    return std::nullopt;
  }
  e.limit = v;
  e.text = e.path + opText(e.op) + limitText(v);
  e.name = e.text;
  e.source = "--threshold '" + std::string(text) + "'";
  return e;
}

ThresholdExpr namedThreshold(std::string name, std::string source, std::string_view path, CompareOp op,
                             double limit) {
  std::string error;
  auto e = parseThreshold(std::string(path) + opText(op) + "0", error);
  e->limit = limit;
  e->text = e->path + opText(op) + limitText(limit);
  e->name = std::move(name);
  e->source = std::move(source);
  return *e;
}

std::string checkThresholdPath(const ThresholdExpr& e, const Json& skeleton) {
  if (notFigure(e.keys.front())) {
    return inQuotes(e.keys.front()) +
           " is not a figure a threshold can judge; the report's figures: " + keysOf(skeleton, true);
  }
  const Json* at = &skeleton;
  std::string prefix;
  for (const std::string& k : e.keys) {
    if (!at->is_object()) return inQuotes(prefix) + " is a single figure, with no " + inQuotes(k) + " in it";
    if (!at->contains(k)) {
      if (prefix.empty()) return "the report has no figure " + inQuotes(k) + "; it has: " + keysOf(*at, true);
      return "the report has no " + inQuotes(k) + " in " + inQuotes(prefix) +
             "; it has: " + keysOf(*at, false);
    }
    at = &(*at)[k];
    prefix += (prefix.empty() ? "" : ".") + k;
  }
  if (at->is_object()) return inQuotes(e.path) + " is a group, not a figure: one of " + keysOf(*at, false);
  if (!at->is_number() && !at->is_null()) return inQuotes(e.path) + " is not a number";
  return "";
}

Judged whenJudged(const ThresholdExpr& e) {
  const std::string& top = e.keys.front();
  const std::string sub = e.keys.size() > 1 ? e.keys[1] : std::string();
  bool growing = false, level = false;
  if (const auto s = seriesFromName(top); s && e.keys.size() == 2) {
    growing = sub == "count" || sub == "max";
    level = sub == "mean" || sub == "p50" || sub == "p95" || sub == "p99";
  } else if (top == "counts" && e.keys.size() == 2) {
    level = sub == "connected_at_end";
    growing = !level && sub != "players" && sub != "still_connecting";
  } else if ((top == "samples" || top == "impairment") && e.keys.size() == 2) {
    growing = true;
  } else if (top == "server" && e.keys.size() == 2) {
    growing = sub == "late_ticks";
    level = sub == "tick_p99_ms";
  } else if (e.keys.size() == 1) {
    level = top == "connected_fraction" || top == "prediction_corrections_per_s";
  }
  if (growing) return isUpperBound(e.op) ? Judged::kAnyTime : Judged::kAtEnd;
  return level ? Judged::kOnceHeld : Judged::kAtEnd;
}

std::optional<double> numberAt(const Json& j, const std::vector<std::string>& keys) {
  const Json* at = &j;
  for (const std::string& k : keys) {
    if (!at->is_object() || !at->contains(k)) return std::nullopt;
    at = &(*at)[k];
  }
  if (!at->is_number()) return std::nullopt;
  const double v = at->get<double>();
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

Check judge(const ThresholdExpr& e, const Json& report) {
  Check c;
  c.name = e.name;
  c.expression = e.text;
  c.limit = e.limit;
  c.value = numberAt(report, e.keys);
  if (!c.value) {
    std::string why = "not measured";
    if (e.keys.front() == "server") {
      const auto server = report.find("server");
      if (server != report.end() && server->is_object() && !server->value("metrics_reachable", true)) {
        why = "the metrics endpoint was unreachable";
      }
    }
    c.failure = e.path + " unknown: " + why + " (" + e.source + ")";
    return c;
  }
  c.pass = compare(*c.value, e.op, e.limit);
  if (!c.pass) {
    c.failure = e.path + " " + number(*c.value) + " " + negatedOpText(e.op) + " " + number(e.limit) + " (" +
                e.source + ")";
  }
  return c;
}

}  // namespace steerd::loadtest
