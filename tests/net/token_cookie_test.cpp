#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "net/connect_token.h"
#include "net/cookie.h"
#include "proto/token_proof.h"

namespace steerd::net {
namespace {

TEST(Cookie, ChecksForTheSameAddressWithinTwoBuckets) {
  CookieJar jar;
  const std::string a = std::string("\x7f\x00\x00\x01", 4) + "\x10\x27";
  const std::string b = std::string("\x7f\x00\x00\x01", 4) + "\x11\x27";  // another port
  const std::string c = jar.make(a, 1000);
  EXPECT_EQ(c.size(), 32u);
  EXPECT_TRUE(jar.check(c, a, 1000));
  EXPECT_TRUE(jar.check(c, a, 1009));
  EXPECT_TRUE(jar.check(c, a, 1015));   // previous bucket
  EXPECT_FALSE(jar.check(c, a, 1020));  // two buckets later: expired
  EXPECT_FALSE(jar.check(c, b, 1000));  // from another address
  EXPECT_FALSE(jar.check(c.substr(1), a, 1000));
  std::string forged = c;
  forged[5] ^= 1;
  EXPECT_FALSE(jar.check(forged, a, 1000));
  CookieJar other;  // another server (or a restart): its key differs
  EXPECT_FALSE(other.check(c, a, 1000));
}

// The private part of a ClientToken: what a client sends, and all a server sees.
std::string privateOf(const std::string& clientToken) {
  std::string error;
  const auto k = wire::parseClientToken(clientToken, error);
  EXPECT_TRUE(k) << error;
  return k ? k->privateToken : std::string{};
}

TEST(ConnectToken, ValidExpiredForgedAndMissing) {
  TokenKey key{};
  key[0] = 7;
  TokenKey otherKey{};
  const std::string t = privateOf(issueToken(key, 42, 2000));
  EXPECT_EQ(checkToken(key, t, 1000).verdict, TokenVerdict::kValid);
  EXPECT_EQ(checkToken(key, t, 1000).clientId, 42u);
  EXPECT_EQ(checkToken(key, t, 2001).verdict, TokenVerdict::kExpired);
  EXPECT_EQ(checkToken(otherKey, t, 1000).verdict, TokenVerdict::kInvalid);
  EXPECT_EQ(checkToken(key, "", 1000).verdict, TokenVerdict::kMissing);
  EXPECT_EQ(checkToken(key, "garbage", 1000).verdict, TokenVerdict::kInvalid);
  for (std::size_t i = 0; i < t.size(); ++i) {  // any changed byte
    std::string tampered = t;
    tampered[i] ^= 1;
    EXPECT_NE(checkToken(key, tampered, 1000).verdict, TokenVerdict::kValid) << i;
  }
}

TEST(ConnectToken, TheServerOpensTheKeysAndGrantTheClientWasGiven) {
  TokenKey key{};
  key[3] = 9;
  TokenGrant g;
  g.clientId = 77;
  g.role = wire::ROLE_CONTROL;
  g.expiresUnixSeconds = 5000;
  g.serverAddresses = {"10.0.0.1:7777", "game.example:7000"};
  g.timeoutSeconds = 12;
  const std::string client = issueToken(key, g);
  std::string error;
  const auto k = wire::parseClientToken(client, error);
  ASSERT_TRUE(k) << error;
  const TokenCheck t = checkToken(key, k->privateToken, 1000);
  ASSERT_EQ(t.verdict, TokenVerdict::kValid);
  EXPECT_EQ(t.clientId, 77u);
  EXPECT_EQ(t.role, wire::ROLE_CONTROL);
  EXPECT_EQ(t.serverAddresses, g.serverAddresses);
  EXPECT_EQ(t.timeoutSeconds, 12u);
  EXPECT_EQ(t.clientToServer, k->clientToServer);
  EXPECT_EQ(t.serverToClient, k->serverToClient);
  EXPECT_NE(t.clientToServer, t.serverToClient);
  // The keys are nowhere in the private token's bytes: it is sealed.
  const std::string c2s(k->clientToServer.begin(), k->clientToServer.end());
  EXPECT_EQ(k->privateToken.find(c2s), std::string::npos);
  // Fresh keys for each token issued.
  const auto again = wire::parseClientToken(issueToken(key, g), error);
  ASSERT_TRUE(again);
  EXPECT_NE(again->clientToServer, k->clientToServer);
}

TEST(ConnectToken, TheExpiryInTheClearCannotBeMoved) {
  TokenKey key{};
  wire::PrivateToken t;
  ASSERT_TRUE(t.ParseFromString(privateOf(issueToken(key, 1, 2000))));
  t.set_expires_unix_s(999999);
  EXPECT_EQ(checkToken(key, t.SerializeAsString(), 1000).verdict, TokenVerdict::kInvalid);
}

TEST(ConnectToken, AServerTakesATokenThatNamesItOrNoServer) {
  EXPECT_TRUE(tokenNamesServer({}, {}, 7777));
  EXPECT_TRUE(tokenNamesServer({"1.2.3.4:7777"}, {"1.2.3.4:7777"}, 7777));
  EXPECT_FALSE(tokenNamesServer({"1.2.3.4:7778"}, {"1.2.3.4:7777"}, 7777));
  EXPECT_FALSE(tokenNamesServer({"5.6.7.8:7777"}, {"1.2.3.4:7777"}, 7777));  // its port, not its address
  // Without --public-address, the port decides.
  EXPECT_TRUE(tokenNamesServer({"5.6.7.8:7000", "5.6.7.8:7777"}, {}, 7777));
  EXPECT_FALSE(tokenNamesServer({"5.6.7.8:7000"}, {}, 7777));
  EXPECT_FALSE(tokenNamesServer({"nonsense"}, {}, 7777));
}

TEST(TokenProof, OnlyTheKeysHolderMakesTheProofs) {
  wire::SessionKey c2s{}, s2c{}, other{};
  c2s[0] = 1;
  s2c[0] = 2;
  other[0] = 3;
  const std::string cookie(32, 'c'), clientPub(32, 'p'), serverPub(32, 's');
  const std::string proof = wire::connectProof(c2s, cookie, clientPub);
  EXPECT_EQ(proof.size(), wire::kKeyProofBytes);
  EXPECT_TRUE(wire::connectProofValid(c2s, cookie, clientPub, proof));
  EXPECT_FALSE(wire::connectProofValid(other, cookie, clientPub, proof));
  EXPECT_FALSE(wire::connectProofValid(c2s, std::string(32, 'd'), clientPub, proof));  // another cookie
  EXPECT_FALSE(wire::connectProofValid(c2s, cookie, std::string(32, 'q'), proof));     // another key pair
  EXPECT_FALSE(wire::connectProofValid(c2s, cookie, clientPub, ""));
  EXPECT_FALSE(wire::connectProofValid(c2s, cookie, clientPub, proof.substr(1)));
  const std::string accept = wire::acceptProof(s2c, serverPub, clientPub);
  EXPECT_TRUE(wire::acceptProofValid(s2c, serverPub, clientPub, accept));
  EXPECT_FALSE(wire::acceptProofValid(c2s, serverPub, clientPub, accept));  // the other direction's key
  EXPECT_FALSE(wire::acceptProofValid(s2c, std::string(32, 't'), clientPub, accept));
}

TEST(TokenProof, BoundSessionKeysMatchAcrossTheTwoSidesAndDifferFromTheExchangeAlone) {
  const wire::KeyPair client = wire::KeyPair::generate(), server = wire::KeyPair::generate();
  const auto c = wire::clientSessionKeys(client, server.publicKey);
  const auto s = wire::serverSessionKeys(server, client.publicKey);
  ASSERT_TRUE(c && s);
  wire::SessionKey c2s{}, s2c{};
  c2s[5] = 1;
  s2c[5] = 2;
  const wire::SessionKeys cb = wire::bindSessionKeys(*c, c2s, s2c, false);
  const wire::SessionKeys sb = wire::bindSessionKeys(*s, c2s, s2c, true);
  EXPECT_EQ(cb.transmit, sb.receive);
  EXPECT_EQ(cb.receive, sb.transmit);
  EXPECT_NE(cb.transmit, c->transmit);  // a man in the middle of the exchange alone has only these
  EXPECT_NE(cb.receive, c->receive);
}

TEST(ConnectToken, HexAndKeyFiles) {
  EXPECT_EQ(toHex("\x01\xab"), "01ab");
  EXPECT_EQ(fromHex("01AB").value(), "\x01\xab");
  EXPECT_FALSE(fromHex("abc").has_value());
  EXPECT_FALSE(fromHex("zz").has_value());
  EXPECT_FALSE(fromHex("01 2").has_value());  // a space is not skipped
  EXPECT_FALSE(fromHex("0g").has_value());
  EXPECT_EQ(fromHex("").value(), "");
  EXPECT_EQ(toHex(""), "");
  const std::string all = [] {
    std::string s;
    for (int i = 0; i < 256; ++i) s.push_back(static_cast<char>(i));
    return s;
  }();
  EXPECT_EQ(fromHex(toHex(all)).value(), all);
  EXPECT_EQ(toHex(all).substr(0, 8), "00010203");
  const auto dir = std::filesystem::temp_directory_path();
  const auto good = dir / "steerd_key_good.txt";
  const auto bad = dir / "steerd_key_bad.txt";
  std::ofstream(good) << std::string(64, 'a') << "\n";
  std::ofstream(bad) << "abcd\n";
  std::string error;
  const auto key = readTokenKeyFile(good.string(), error);
  ASSERT_TRUE(key.has_value()) << error;
  EXPECT_EQ((*key)[0], 0xaa);
  EXPECT_FALSE(readTokenKeyFile(bad.string(), error).has_value());
  EXPECT_NE(error.find("64 hex digits"), std::string::npos);
  EXPECT_FALSE(readTokenKeyFile((dir / "steerd_no_such_key").string(), error).has_value());
  EXPECT_NE(error.find("cannot read"), std::string::npos);
  std::filesystem::remove(good);
  std::filesystem::remove(bad);
}

}  // namespace
}  // namespace steerd::net
