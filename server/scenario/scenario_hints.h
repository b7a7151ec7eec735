// What a designer gets beside a scenario file's parse errors: "did you mean" for an unknown enum
// value or field name (the nearest names by edit distance, from the scenario proto's own
// descriptors), and an unclosed brace reported where it was opened (protobuf's parser only
// notices at the end of the file).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace steerd::scenario_hints {

// Levenshtein distance with adjacent transpositions (optimal string alignment), case-blind.
std::size_t editDistance(std::string_view a, std::string_view b);
// The candidates nearest `word` (at most a third of its length away, and at least 1 edit allowed),
// best first; an exact case-blind match alone when there is one.
std::vector<std::string> nearest(std::string_view word, const std::vector<std::string>& candidates);
// For a message of protobuf's text parser ("Unknown enumeration value of "FLE" for field
// "kind"." or "Message type "steerd.scenario.Archetype" has no field named "behaviors"."): the
// hint to append (" (did you mean FLEE?)"), or empty.
std::string hintFor(const std::string& parserMessage);
// Where each '{' that is never closed was opened (1-based line and column), in `text` as the
// parser reads it (strings and # comments skipped); empty when braces balance.
struct Position {
  int line = 0, column = 0;
};
std::vector<Position> unclosedBraces(std::string_view text);

}  // namespace steerd::scenario_hints
