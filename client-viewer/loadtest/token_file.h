// Connect tokens for players, from a file of hex tokens as `steerd --issue-token` prints them.
#pragma once

#include <string>
#include <vector>

namespace steerd::loadtest {

// One token (bytes) per non-empty line; whitespace around a line is ignored. Returns false with
// `error` naming the line for a line that is not an even number of hex digits, or for no token.
bool readTokenFile(const std::string& path, std::vector<std::string>& tokens, std::string& error);

// Hex digits to bytes; false on odd length or a non-hex digit.
bool hexToBytes(std::string_view hex, std::string& out);

}  // namespace steerd::loadtest
