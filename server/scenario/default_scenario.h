// The built-in scenario that `steerd` runs with no --scenario: scenarios/default.txtpb, embedded
// at build time (server/scenario/embed_text.cmake) so the binary needs no file beside it, and so the
// default is a scenario file like any other (the same loader, the same validation, live tuning
// from the file on disk).
#pragma once

#include <string_view>

namespace steerd {

inline constexpr const char* kDefaultScenarioName = "default";

// The text of scenarios/default.txtpb as it was when the binary was built.
std::string_view defaultScenarioText();

}  // namespace steerd
