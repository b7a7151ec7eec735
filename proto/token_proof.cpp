#include "proto/token_proof.h"

#include <sodium.h>

#include <algorithm>

#include "proto/wire.pb.h"

namespace steerd::wire {

namespace {

static_assert(kKeyProofBytes == crypto_auth_BYTES);
static_assert(kSessionKeyBytes == crypto_auth_KEYBYTES);

std::string proof(const SessionKey& key, std::string_view label, std::string_view a, std::string_view b) {
  crypto_auth_hmacsha512256_state state;
  crypto_auth_hmacsha512256_init(&state, key.data(), key.size());
  crypto_auth_hmacsha512256_update(&state, reinterpret_cast<const unsigned char*>(label.data()),
                                   label.size());
  crypto_auth_hmacsha512256_update(&state, reinterpret_cast<const unsigned char*>(a.data()), a.size());
  crypto_auth_hmacsha512256_update(&state, reinterpret_cast<const unsigned char*>(b.data()), b.size());
  std::string out(kKeyProofBytes, '\0');
  crypto_auth_hmacsha512256_final(&state, reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

bool sameProof(const std::string& expected, std::string_view got) {
  return got.size() == expected.size() && sodium_memcmp(expected.data(), got.data(), got.size()) == 0;
}

SessionKey bind(const SessionKey& exchanged, const SessionKey& tokenKey) {
  SessionKey out{};
  crypto_generichash(out.data(), out.size(), exchanged.data(), exchanged.size(), tokenKey.data(),
                     tokenKey.size());
  return out;
}

}  // namespace

bool sessionKeyFrom(std::string_view bytes, SessionKey& key) {
  if (bytes.size() != key.size()) return false;
  std::copy(bytes.begin(), bytes.end(), key.begin());
  return true;
}

std::optional<ClientTokenKeys> parseClientToken(std::string_view bytes, std::string& error) {
  ClientToken t;
  if (bytes.empty() || !t.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) ||
      t.private_token().empty()) {
    error =
        "not a connect token from steerd --issue-token (protocol " + std::to_string(kProtocolVersion) + ")";
    return std::nullopt;
  }
  ClientTokenKeys k;
  if (!sessionKeyFrom(t.client_to_server_key(), k.clientToServer) ||
      !sessionKeyFrom(t.server_to_client_key(), k.serverToClient)) {
    error = "connect token without its two 32-byte keys";
    return std::nullopt;
  }
  k.privateToken = t.private_token();
  k.clientId = t.client_id();
  k.expiresUnixSeconds = t.expires_unix_s();
  return k;
}

std::string connectProof(const SessionKey& clientToServer, std::string_view cookie,
                         std::string_view clientPublicKey) {
  return proof(clientToServer, "steerd-c2s", cookie, clientPublicKey);
}

bool connectProofValid(const SessionKey& clientToServer, std::string_view cookie,
                       std::string_view clientPublicKey, std::string_view got) {
  return sameProof(connectProof(clientToServer, cookie, clientPublicKey), got);
}

std::string acceptProof(const SessionKey& serverToClient, std::string_view serverPublicKey,
                        std::string_view clientPublicKey) {
  return proof(serverToClient, "steerd-s2c", serverPublicKey, clientPublicKey);
}

bool acceptProofValid(const SessionKey& serverToClient, std::string_view serverPublicKey,
                      std::string_view clientPublicKey, std::string_view got) {
  return sameProof(acceptProof(serverToClient, serverPublicKey, clientPublicKey), got);
}

SessionKeys bindSessionKeys(const SessionKeys& exchanged, const SessionKey& clientToServer,
                            const SessionKey& serverToClient, bool serverSide) {
  // The server receives what the client transmits: its receive key is the client-to-server one.
  const SessionKey& receiveToken = serverSide ? clientToServer : serverToClient;
  const SessionKey& transmitToken = serverSide ? serverToClient : clientToServer;
  return {bind(exchanged.receive, receiveToken), bind(exchanged.transmit, transmitToken)};
}

}  // namespace steerd::wire
