// The client's half of a connect token (docs/PROTOCOL.md, "Connect tokens"): reading the
// ClientToken a matchmaker gave, proving its keys in the ConnectResponse, checking the server's
// proof in the Accept, and binding the session's keys to the token's. The server's half (issuing
// and opening private tokens) is server/net/connect_token.h; both sides share these definitions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "proto/session_seal.h"

namespace steerd::wire {

inline constexpr std::size_t kKeyProofBytes = 32;  // crypto_auth_BYTES

// What a client needs from its ClientToken.
struct ClientTokenKeys {
  std::string privateToken;  // sent as is in ConnectRequest.token and ConnectResponse.token
  SessionKey clientToServer{};
  SessionKey serverToClient{};
  std::uint64_t clientId = 0;
  std::uint64_t expiresUnixSeconds = 0;
};

// Copies 32 bytes into `key`; false (key untouched) for any other length.
bool sessionKeyFrom(std::string_view bytes, SessionKey& key);

// Reads a serialized ClientToken; nullopt and `error` set when it is not one (or its keys are not
// 32 bytes each).
std::optional<ClientTokenKeys> parseClientToken(std::string_view bytes, std::string& error);

// ConnectResponse.key_proof: crypto_auth keyed with the client-to-server key over
// "steerd-c2s" | cookie | client public key.
std::string connectProof(const SessionKey& clientToServer, std::string_view cookie,
                         std::string_view clientPublicKey);
bool connectProofValid(const SessionKey& clientToServer, std::string_view cookie,
                       std::string_view clientPublicKey, std::string_view proof);

// Accept.key_proof: crypto_auth keyed with the server-to-client key over
// "steerd-s2c" | server public key | client public key.
std::string acceptProof(const SessionKey& serverToClient, std::string_view serverPublicKey,
                        std::string_view clientPublicKey);
bool acceptProofValid(const SessionKey& serverToClient, std::string_view serverPublicKey,
                      std::string_view clientPublicKey, std::string_view proof);

// The session's keys with a token: each direction's X25519 key (crypto_kx) hashed with that
// direction's token key (BLAKE2b-256 keyed, crypto_generichash). Fresh per connection (the key
// pairs are), and unknowable without the token's keys even to a man in the middle of the exchange.
// `serverSide` says which of `exchanged`'s keys is which direction.
SessionKeys bindSessionKeys(const SessionKeys& exchanged, const SessionKey& clientToServer,
                            const SessionKey& serverToClient, bool serverSide);

}  // namespace steerd::wire
