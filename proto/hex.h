// Hex text for binary values that people copy around (connect tokens, token keys), shared by the
// server, the matchmaker command and the clients.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace steerd::wire {

std::string toHex(std::string_view bytes);
// Upper or lower case; nullopt on an odd length or a non-hex digit.
std::optional<std::string> fromHex(std::string_view hex);

}  // namespace steerd::wire
