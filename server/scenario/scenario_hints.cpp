#include "scenario/scenario_hints.h"

#include <google/protobuf/descriptor.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "proto/scenario.pb.h"

namespace steerd::scenario_hints {

namespace {

namespace gp = google::protobuf;

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool sameIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

// The text between the n-th pair of double quotes of `s` (0-based), or empty.
std::string quotedAt(const std::string& s, int n) {
  std::size_t at = 0;
  for (int i = 0; i <= n; ++i) {
    const std::size_t open = s.find('"', at);
    if (open == std::string::npos) return {};
    const std::size_t close = s.find('"', open + 1);
    if (close == std::string::npos) return {};
    if (i == n) return s.substr(open + 1, close - open - 1);
    at = close + 1;
  }
  return {};
}

// Every message type of the scenario file's proto, nested ones too.
void messagesOf(const gp::Descriptor* d, std::vector<const gp::Descriptor*>& out) {
  out.push_back(d);
  for (int i = 0; i < d->nested_type_count(); ++i) messagesOf(d->nested_type(i), out);
}
std::vector<const gp::Descriptor*> scenarioMessages() {
  std::vector<const gp::Descriptor*> out;
  const gp::FileDescriptor* file = steerd::scenario::Scenario::descriptor()->file();
  for (int i = 0; i < file->message_type_count(); ++i) messagesOf(file->message_type(i), out);
  return out;
}

std::string didYouMean(const std::vector<std::string>& names) {
  if (names.empty()) return {};
  std::string out = " (did you mean ";
  for (std::size_t i = 0; i < names.size() && i < 3; ++i) {
    if (i > 0) out += i + 1 == std::min<std::size_t>(names.size(), 3) ? " or " : ", ";
    out += names[i];
  }
  return out + "?)";
}

}  // namespace

std::size_t editDistance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::vector<std::string> nearest(std::string_view word, const std::vector<std::string>& candidates) {
  for (const std::string& c : candidates) {
    if (sameIgnoringCase(word, c)) return {c};
  }
  // Long names spend a few more edits than short ones: "behaviors" for "behaviours", not "x" for "y".
  const std::size_t allowed = std::max<std::size_t>(1, word.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> scored;
  std::set<std::string> seen;
  for (const std::string& c : candidates) {
    if (word.size() > 64 || c.size() > 64 || !seen.insert(c).second) continue;  // a hostile name: no hint
    const std::size_t d = editDistance(word, c);
    if (d <= allowed) scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, c] : scored) {
    if (d > scored.front().first) break;  // only the nearest
    out.push_back(c);
  }
  return out;
}

std::string hintFor(const std::string& message) {
  if (message.rfind("Unknown enumeration value of ", 0) == 0) {
    const std::string value = quotedAt(message, 0), field = quotedAt(message, 1);
    std::vector<std::string> names;
    for (const gp::Descriptor* d : scenarioMessages()) {
      const gp::FieldDescriptor* f = d->FindFieldByName(field);
      if (f == nullptr || f->enum_type() == nullptr) continue;
      for (int i = 0; i < f->enum_type()->value_count(); ++i)
        names.push_back(f->enum_type()->value(i)->name());
    }
    return didYouMean(nearest(value, names));
  }
  if (message.rfind("Message type ", 0) == 0 && message.find("has no field named") != std::string::npos) {
    const std::string type = quotedAt(message, 0), field = quotedAt(message, 1);
    const gp::Descriptor* d = gp::DescriptorPool::generated_pool()->FindMessageTypeByName(type);
    if (d == nullptr) return {};
    std::vector<std::string> names;
    for (int i = 0; i < d->field_count(); ++i) names.push_back(d->field(i)->name());
    return didYouMean(nearest(field, names));
  }
  return {};
}

std::vector<Position> unclosedBraces(std::string_view text) {
  std::vector<Position> open;
  int line = 1, column = 0;
  char quote = 0;
  bool comment = false, escaped = false;
  for (const char c : text) {
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
      comment = false;
      quote = 0;  // text format strings do not span lines
      continue;
    }
    if (comment) continue;
    if (quote != 0) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    if (c == '#') {
      comment = true;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      open.push_back({line, column});
    } else if (c == '}' && !open.empty()) {
      open.pop_back();
    }
  }
  return open;
}

}  // namespace steerd::scenario_hints
