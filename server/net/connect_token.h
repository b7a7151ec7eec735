// Connect tokens (netcode.io's idea): a matchmaker holding the server's shared key signs
// (client id, expiry, nonce); the server admits only clients that present a token whose MAC
// checks out and whose expiry has not passed. `steerd --issue-token` plays the matchmaker.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "proto/hex.h"
#include "proto/wire.pb.h"

namespace steerd::net {

using TokenKey = std::array<unsigned char, 32>;

// Reads a key file: 64 hex digits (surrounding whitespace allowed). Returns nullopt and sets
// `error` on a missing file or a malformed key.
std::optional<TokenKey> readTokenKeyFile(const std::string& path, std::string& error);

// The token's bytes as they travel in ConnectRequest.token (a serialized wire::ConnectToken).
// ROLE_CONTROL admits a game-logic client whose Control packets the server applies.
std::string issueToken(const TokenKey& key, std::uint64_t clientId, std::uint64_t expiresUnixSeconds,
                       wire::TokenRole role = wire::ROLE_PLAYER);

enum class TokenVerdict { kValid, kMissing, kInvalid, kExpired };
struct TokenCheck {
  TokenVerdict verdict = TokenVerdict::kInvalid;
  std::uint64_t clientId = 0;
  wire::TokenRole role = wire::ROLE_PLAYER;  // valid tokens only
};
TokenCheck checkToken(const TokenKey& key, std::string_view token, std::uint64_t nowUnixSeconds);

using wire::fromHex;
using wire::toHex;

}  // namespace steerd::net
