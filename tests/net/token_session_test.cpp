// One connect token, one session (issue 17's first hole: ten sockets with one token were all
// admitted). The newest connection with a token's client id takes the session; the old one is told
// DISCONNECT_REPLACED and its player body goes.
#include <gtest/gtest.h>

#include "net/connect_token.h"
#include "udp_harness.h"

namespace steerd::net {
namespace {

constexpr std::uint64_t kFar = 4'000'000'000ull;  // expiry, unix seconds

std::size_t players(const Server& s) {
  std::size_t n = 0;
  const auto& a = s.world->agents();
  for (std::size_t i = 0; i < a.size(); ++i) n += (a.memory(i).flags & kAgentExternal) ? 1 : 0;
  return n;
}

TEST(TokenSession, ASecondConnectionWithTheSameTokenReplacesTheFirst) {
  TokenKey key{};
  key[3] = 9;
  NetConfig config;
  config.tokenKey = key;
  Server s(config);
  const std::string token = issueToken(key, 42, kFar);
  RawClient first(s.endpoint->port());
  ASSERT_TRUE(first.connect(s, token));
  ASSERT_TRUE(s.stepUntil([&] { return players(s) == 1; }));
  RawClient second(s.endpoint->port());
  const auto accepted = second.connect(s, token);
  ASSERT_TRUE(accepted && accepted->has_accept());
  const auto gone = first.await(s, wire::Packet::kDisconnect);
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->disconnect().reason(), wire::DISCONNECT_REPLACED);
  ASSERT_TRUE(s.stepUntil([&] { return players(s) == 1 && s.metrics.clients.load() == 1; }));
  EXPECT_EQ(s.metrics.sessionsReplaced.load(), 1u);
  // The first one's packets are no longer a session's.
  first.input(5, 10, 10);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kUnknownClient) >= 1; }));
}

TEST(TokenSession, TenSocketsWithOneTokenEndAsOneSession) {
  TokenKey key{};
  key[0] = 1;
  NetConfig config;
  config.tokenKey = key;
  Server s(config);
  const std::string token = issueToken(key, 7, kFar);
  std::vector<std::unique_ptr<RawClient>> clients;
  for (int i = 0; i < 10; ++i) {
    clients.push_back(std::make_unique<RawClient>(s.endpoint->port()));
    ASSERT_TRUE(clients.back()->connect(s, token));
  }
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.clients.load() == 1 && players(s) == 1; }));
  EXPECT_EQ(s.metrics.sessionsReplaced.load(), 9u);
}

TEST(TokenSession, DifferentTokensAndAFreedTokenDoNotReplace) {
  TokenKey key{};
  key[5] = 2;
  NetConfig config;
  config.tokenKey = key;
  Server s(config);
  RawClient a(s.endpoint->port()), b(s.endpoint->port());
  ASSERT_TRUE(a.connect(s, issueToken(key, 1, kFar)));
  ASSERT_TRUE(b.connect(s, issueToken(key, 2, kFar)));
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.clients.load() == 2; }));
  // b leaves; its token comes back with a new socket: nothing to replace.
  wire::Packet bye;
  bye.mutable_disconnect()->set_reason(wire::DISCONNECT_CLIENT_LEFT);
  b.send(bye);
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.clients.load() == 1; }));
  RawClient again(s.endpoint->port());
  ASSERT_TRUE(again.connect(s, issueToken(key, 2, kFar)));
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.clients.load() == 2; }));
  EXPECT_EQ(s.metrics.sessionsReplaced.load(), 0u);
}

}  // namespace
}  // namespace steerd::net
