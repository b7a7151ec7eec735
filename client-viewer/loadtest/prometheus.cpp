#include "loadtest/prometheus.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace steerd::loadtest {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::optional<double> parseNumber(std::string_view s) {
  s = trim(s);
  if (s == "+Inf" || s == "Inf") return std::numeric_limits<double>::infinity();
  if (s == "-Inf") return -std::numeric_limits<double>::infinity();
  if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (s.empty()) return std::nullopt;
  const std::string copy(s);  // strtod: from_chars for double is not everywhere yet
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  return v;
}

// The value of label `name` in `labels` (the text between the braces), if present.
std::optional<std::string> labelValue(std::string_view labels, std::string_view name) {
  std::size_t i = 0;
  while (i < labels.size()) {
    while (i < labels.size() && (labels[i] == ' ' || labels[i] == ',')) ++i;
    const std::size_t eq = labels.find('=', i);
    if (eq == std::string_view::npos || eq + 1 >= labels.size() || labels[eq + 1] != '"') return std::nullopt;
    const std::string_view key = trim(labels.substr(i, eq - i));
    std::string value;
    std::size_t j = eq + 2;
    for (; j < labels.size() && labels[j] != '"'; ++j) {
      if (labels[j] == '\\' && j + 1 < labels.size()) ++j;
      value += labels[j];
    }
    if (j >= labels.size()) return std::nullopt;
    if (key == name) return value;
    i = j + 1;
  }
  return std::nullopt;
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

MetricsText parseMetrics(std::string_view text, std::size_t* badLines) {
  MetricsText out;
  std::size_t bad = 0;
  std::map<std::string, std::vector<std::pair<double, double>>> buckets;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (line.empty() || line.front() == '#') continue;
    std::string_view name, labels, rest;
    const std::size_t brace = line.find('{');
    const std::size_t space = line.find_first_of(" \t");
    if (brace != std::string_view::npos && (space == std::string_view::npos || brace < space)) {
      const std::size_t close = line.find('}', brace);
      if (close == std::string_view::npos) {
        ++bad;
        continue;
      }
      name = line.substr(0, brace);
      labels = line.substr(brace + 1, close - brace - 1);
      rest = line.substr(close + 1);
    } else {
      if (space == std::string_view::npos) {
        ++bad;
        continue;
      }
      name = line.substr(0, space);
      rest = line.substr(space);
    }
    rest = trim(rest);
    const std::size_t end = rest.find_first_of(" \t");  // an optional timestamp follows
    const auto value = parseNumber(rest.substr(0, end));
    if (!value || name.empty()) {
      ++bad;
      continue;
    }
    if (endsWith(name, "_bucket")) {
      const auto le = labelValue(labels, "le");
      const auto bound = le ? parseNumber(*le) : std::nullopt;
      if (!bound) {
        ++bad;
        continue;
      }
      buckets[std::string(name.substr(0, name.size() - 7))].emplace_back(*bound, *value);
      continue;
    }
    if (labels.empty()) out.values[std::string(name)] = *value;
  }
  for (auto& [base, list] : buckets) {
    std::sort(list.begin(), list.end());
    Histogram& h = out.histograms[base];
    h.buckets = std::move(list);
    if (auto it = out.values.find(base + "_sum"); it != out.values.end()) h.sum = it->second;
    if (auto it = out.values.find(base + "_count"); it != out.values.end()) {
      h.count = it->second;
    } else {
      h.count = h.total();
    }
  }
  if (badLines != nullptr) *badLines = bad;
  return out;
}

std::optional<Histogram> histogramDelta(const Histogram& later, const Histogram& earlier) {
  if (later.buckets.size() != earlier.buckets.size()) return std::nullopt;
  Histogram d;
  for (std::size_t i = 0; i < later.buckets.size(); ++i) {
    const auto& [bound, n] = later.buckets[i];
    if (bound != earlier.buckets[i].first || n < earlier.buckets[i].second) return std::nullopt;
    d.buckets.emplace_back(bound, n - earlier.buckets[i].second);
  }
  d.sum = later.sum - earlier.sum;
  d.count = later.count - earlier.count;
  if (d.count < 0) return std::nullopt;
  return d;
}

std::optional<double> histogramQuantile(const Histogram& h, double q) {
  if (h.buckets.empty() || !(h.total() > 0) || !std::isfinite(q)) return std::nullopt;
  q = std::clamp(q, 0.0, 1.0);
  const double rank = q * h.total();
  double lower = 0.0, below = 0.0;
  double highestFinite = 0.0;
  for (const auto& [bound, cumulative] : h.buckets) {
    if (std::isfinite(bound)) highestFinite = bound;
  }
  for (const auto& [bound, cumulative] : h.buckets) {
    if (cumulative >= rank && cumulative > below) {
      if (!std::isfinite(bound)) return highestFinite;
      return lower + (bound - lower) * (rank - below) / (cumulative - below);
    }
    if (std::isfinite(bound)) lower = bound;
    below = cumulative;
  }
  return highestFinite;
}

}  // namespace steerd::loadtest
