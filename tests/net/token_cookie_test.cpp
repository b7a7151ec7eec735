#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "net/connect_token.h"
#include "net/cookie.h"

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

TEST(ConnectToken, ValidExpiredForgedAndMissing) {
  TokenKey key{};
  key[0] = 7;
  TokenKey otherKey{};
  const std::string t = issueToken(key, 42, 2000);
  EXPECT_EQ(checkToken(key, t, 1000).verdict, TokenVerdict::kValid);
  EXPECT_EQ(checkToken(key, t, 1000).clientId, 42u);
  EXPECT_EQ(checkToken(key, t, 2001).verdict, TokenVerdict::kExpired);
  EXPECT_EQ(checkToken(otherKey, t, 1000).verdict, TokenVerdict::kInvalid);
  EXPECT_EQ(checkToken(key, "", 1000).verdict, TokenVerdict::kMissing);
  EXPECT_EQ(checkToken(key, "garbage", 1000).verdict, TokenVerdict::kInvalid);
  std::string tampered = t;
  tampered[4] ^= 1;
  EXPECT_NE(checkToken(key, tampered, 1000).verdict, TokenVerdict::kValid);
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
