// Connect tokens (netcode.io's design; docs/PROTOCOL.md, "Connect tokens"): a matchmaker holding
// the server's token key grants a client id, a role and an expiry, with fresh client-to-server and
// server-to-client keys, sealed in a private token only servers can open; the client gets the same
// keys beside it (wire::ClientToken) and proves them in its handshake. `steerd --issue-token`
// plays the matchmaker; a backend in C++ links steerd_token and calls issueToken.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proto/hex.h"
#include "proto/session_seal.h"
#include "proto/wire.pb.h"

namespace steerd::net {

using TokenKey = std::array<unsigned char, 32>;

// Reads a key file: 64 hex digits (surrounding whitespace allowed). Returns nullopt and sets
// `error` on a missing file or a malformed key.
std::optional<TokenKey> readTokenKeyFile(const std::string& path, std::string& error);

struct TokenGrant {
  std::uint64_t clientId = 0;
  wire::TokenRole role = wire::ROLE_PLAYER;  // ROLE_CONTROL: its Control packets are applied
  std::uint64_t expiresUnixSeconds = 0;
  std::vector<std::string> serverAddresses;  // "host:port"; none: good for any server with the key
  std::uint32_t timeoutSeconds = 0;          // silence that ends the session; 0: the server's own
};

// A serialized wire::ClientToken for the client (fresh keys each call), or "" when libsodium
// cannot start.
std::string issueToken(const TokenKey& key, const TokenGrant& grant);
// The common case: a player or control token good for any server.
std::string issueToken(const TokenKey& key, std::uint64_t clientId, std::uint64_t expiresUnixSeconds,
                       wire::TokenRole role = wire::ROLE_PLAYER);

enum class TokenVerdict { kValid, kMissing, kInvalid, kExpired };
struct TokenCheck {
  TokenVerdict verdict = TokenVerdict::kInvalid;
  std::uint64_t clientId = 0;
  // Valid tokens only:
  wire::TokenRole role = wire::ROLE_PLAYER;
  wire::SessionKey clientToServer{}, serverToClient{};
  std::vector<std::string> serverAddresses;
  std::uint32_t timeoutSeconds = 0;
};
// Opens a private token (ConnectResponse.token): kInvalid when it is not sealed with `key` or
// its contents are malformed.
TokenCheck checkToken(const TokenKey& key, std::string_view privateToken, std::uint64_t nowUnixSeconds);

// Whether a token naming `tokenAddresses` is good for this server: yes when it names none, or one
// of `ownAddresses` exactly ("host:port", --public-address); when the server knows none of its
// addresses, any with the server's game port.
bool tokenNamesServer(const std::vector<std::string>& tokenAddresses,
                      const std::vector<std::string>& ownAddresses, std::uint16_t gamePort);

using wire::fromHex;
using wire::toHex;

}  // namespace steerd::net
