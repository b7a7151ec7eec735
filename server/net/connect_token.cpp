#include "net/connect_token.h"

#include "proto/token_proof.h"

#include <sodium.h>

#include <algorithm>
#include <fstream>

namespace steerd::net {

namespace {

// The additional data a private token is sealed with: a label and its expiry, so the expiry in
// the clear cannot be changed.
std::string additionalData(std::uint64_t expires) {
  std::string ad = "steerdT1";
  for (int i = 0; i < 8; ++i) ad.push_back(static_cast<char>((expires >> (8 * i)) & 0xff));
  return ad;
}

void randomKey(wire::SessionKey& k) { randombytes_buf(k.data(), k.size()); }

std::string keyBytes(const wire::SessionKey& k) { return std::string(k.begin(), k.end()); }

TokenCheck verdictOnly(TokenVerdict v) {
  TokenCheck c;
  c.verdict = v;
  return c;
}

}  // namespace

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

std::string issueToken(const TokenKey& key, const TokenGrant& grant) {
  if (sodium_init() < 0) return {};
  wire::SessionKey c2s, s2c;
  randomKey(c2s);
  randomKey(s2c);

  wire::PrivateTokenBody body;
  body.set_client_id(grant.clientId);
  body.set_role(grant.role);
  body.set_expires_unix_s(grant.expiresUnixSeconds);
  for (const auto& a : grant.serverAddresses) body.add_server_addresses(a);
  body.set_timeout_s(grant.timeoutSeconds);
  body.set_client_to_server_key(keyBytes(c2s));
  body.set_server_to_client_key(keyBytes(s2c));
  const std::string plain = body.SerializeAsString();

  wire::PrivateToken token;
  token.set_expires_unix_s(grant.expiresUnixSeconds);
  std::string nonce(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES, '\0');
  randombytes_buf(nonce.data(), nonce.size());
  std::string sealed(plain.size() + crypto_aead_xchacha20poly1305_ietf_ABYTES, '\0');
  unsigned long long sealedSize = 0;
  const std::string ad = additionalData(grant.expiresUnixSeconds);
  crypto_aead_xchacha20poly1305_ietf_encrypt(
      reinterpret_cast<unsigned char*>(sealed.data()), &sealedSize,
      reinterpret_cast<const unsigned char*>(plain.data()), plain.size(),
      reinterpret_cast<const unsigned char*>(ad.data()), ad.size(), nullptr,
      reinterpret_cast<const unsigned char*>(nonce.data()), key.data());
  sealed.resize(sealedSize);
  token.set_nonce(nonce);
  token.set_sealed(sealed);

  wire::ClientToken client;
  client.set_private_token(token.SerializeAsString());
  client.set_client_id(grant.clientId);
  client.set_role(grant.role);
  client.set_expires_unix_s(grant.expiresUnixSeconds);
  for (const auto& a : grant.serverAddresses) client.add_server_addresses(a);
  client.set_timeout_s(grant.timeoutSeconds);
  client.set_client_to_server_key(keyBytes(c2s));
  client.set_server_to_client_key(keyBytes(s2c));
  sodium_memzero(c2s.data(), c2s.size());
  sodium_memzero(s2c.data(), s2c.size());
  return client.SerializeAsString();
}

std::string issueToken(const TokenKey& key, std::uint64_t clientId, std::uint64_t expiresUnixSeconds,
                       wire::TokenRole role) {
  TokenGrant g;
  g.clientId = clientId;
  g.role = role;
  g.expiresUnixSeconds = expiresUnixSeconds;
  return issueToken(key, g);
}

TokenCheck checkToken(const TokenKey& key, std::string_view bytes, std::uint64_t nowUnixSeconds) {
  if (bytes.empty()) return verdictOnly(TokenVerdict::kMissing);
  wire::PrivateToken token;
  if (!token.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) ||
      token.nonce().size() != crypto_aead_xchacha20poly1305_ietf_NPUBBYTES ||
      token.sealed().size() < crypto_aead_xchacha20poly1305_ietf_ABYTES) {
    return verdictOnly(TokenVerdict::kInvalid);
  }
  std::string plain(token.sealed().size() - crypto_aead_xchacha20poly1305_ietf_ABYTES, '\0');
  unsigned long long plainSize = 0;
  const std::string ad = additionalData(token.expires_unix_s());
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(
          reinterpret_cast<unsigned char*>(plain.data()), &plainSize, nullptr,
          reinterpret_cast<const unsigned char*>(token.sealed().data()), token.sealed().size(),
          reinterpret_cast<const unsigned char*>(ad.data()), ad.size(),
          reinterpret_cast<const unsigned char*>(token.nonce().data()), key.data()) != 0) {
    return verdictOnly(TokenVerdict::kInvalid);
  }
  plain.resize(plainSize);
  wire::PrivateTokenBody body;
  TokenCheck out;
  if (!body.ParseFromString(plain) || body.expires_unix_s() != token.expires_unix_s() ||
      !wire::sessionKeyFrom(body.client_to_server_key(), out.clientToServer) ||
      !wire::sessionKeyFrom(body.server_to_client_key(), out.serverToClient)) {
    return verdictOnly(TokenVerdict::kInvalid);
  }
  out.clientId = body.client_id();
  if (body.expires_unix_s() < nowUnixSeconds) {
    out.verdict = TokenVerdict::kExpired;
    return out;
  }
  out.verdict = TokenVerdict::kValid;
  out.role = body.role();
  out.serverAddresses.assign(body.server_addresses().begin(), body.server_addresses().end());
  out.timeoutSeconds = body.timeout_s();
  return out;
}

bool tokenNamesServer(const std::vector<std::string>& tokenAddresses,
                      const std::vector<std::string>& ownAddresses, std::uint16_t gamePort) {
  if (tokenAddresses.empty()) return true;
  for (const auto& a : tokenAddresses) {
    if (ownAddresses.empty()) {
      const auto colon = a.rfind(':');
      if (colon != std::string::npos && a.substr(colon + 1) == std::to_string(gamePort)) return true;
    } else if (std::find(ownAddresses.begin(), ownAddresses.end(), a) != ownAddresses.end()) {
      return true;
    }
  }
  return false;
}

}  // namespace steerd::net
