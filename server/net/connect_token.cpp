#include "net/connect_token.h"

#include <sodium.h>

#include <fstream>
#include <sstream>

#include "proto/wire.pb.h"

namespace steerd::net {

std::optional<TokenKey> readTokenKeyFile(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read token key file " + path;
    return std::nullopt;
  }
  // A key file is 64 hex digits and a newline: read a little more than that and no further, so
  // /dev/zero or a large file is refused rather than read without end.
  constexpr std::size_t kMaxKeyFileBytes = 4096;
  std::string s(kMaxKeyFileBytes + 1, '\0');
  in.read(s.data(), static_cast<std::streamsize>(s.size()));
  s.resize(static_cast<std::size_t>(in.gcount()));
  if (s.size() > kMaxKeyFileBytes) {
    error = path + ": larger than a token key file (64 hex digits)";
    return std::nullopt;
  }
  const auto first = s.find_first_not_of(" \t\r\n");
  const auto last = s.find_last_not_of(" \t\r\n");
  s = first == std::string::npos ? std::string{} : s.substr(first, last - first + 1);
  const auto bytes = fromHex(s);
  if (!bytes || bytes->size() != TokenKey{}.size()) {
    error =
        path + ": a token key is 64 hex digits (32 bytes); found " + std::to_string(s.size()) + " characters";
    return std::nullopt;
  }
  TokenKey key;
  std::copy(bytes->begin(), bytes->end(), key.begin());
  return key;
}

std::string issueToken(const TokenKey& key, std::uint64_t clientId, std::uint64_t expiresUnixSeconds,
                       wire::TokenRole role) {
  if (sodium_init() < 0) return {};
  wire::ConnectTokenBody body;
  body.set_client_id(clientId);
  body.set_expires_unix_s(expiresUnixSeconds);
  body.set_role(role);
  std::string nonce(16, '\0');
  randombytes_buf(nonce.data(), nonce.size());
  body.set_nonce(nonce);
  wire::ConnectToken token;
  token.set_body(body.SerializeAsString());
  std::string mac(crypto_auth_BYTES, '\0');
  crypto_auth(reinterpret_cast<unsigned char*>(mac.data()),
              reinterpret_cast<const unsigned char*>(token.body().data()), token.body().size(), key.data());
  token.set_mac(mac);
  return token.SerializeAsString();
}

TokenCheck checkToken(const TokenKey& key, std::string_view bytes, std::uint64_t nowUnixSeconds) {
  if (bytes.empty()) return {TokenVerdict::kMissing, 0};
  wire::ConnectToken token;
  if (!token.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) ||
      token.mac().size() != crypto_auth_BYTES) {
    return {TokenVerdict::kInvalid, 0};
  }
  if (crypto_auth_verify(reinterpret_cast<const unsigned char*>(token.mac().data()),
                         reinterpret_cast<const unsigned char*>(token.body().data()), token.body().size(),
                         key.data()) != 0) {
    return {TokenVerdict::kInvalid, 0};
  }
  wire::ConnectTokenBody body;
  if (!body.ParseFromString(token.body())) return {TokenVerdict::kInvalid, 0};
  if (body.expires_unix_s() < nowUnixSeconds) return {TokenVerdict::kExpired, body.client_id()};
  return {TokenVerdict::kValid, body.client_id(), body.role()};
}

}  // namespace steerd::net
