// One address may hold only --max-clients-per-address sessions (issue 38): past the cap a client
// is refused with REFUSE_ADDRESS_FULL and the refusal is counted; other addresses are not held
// back, and a session that ends frees its place. On simulated time (sim_net.h).
#include <gtest/gtest.h>

#include "net/address_sessions.h"
#include "sim_net.h"

namespace steerd::net {
namespace {

Address at(const char* ip, std::uint16_t port) { return Address(asio::ip::make_address(ip), port); }

ServerSetup capOf(std::size_t cap) {
  ServerSetup s;
  s.net.maxClientsPerAddress = cap;
  return s;
}

wire::RefuseReason refusal(const std::optional<wire::Packet>& answer) {
  return answer && answer->has_refuse() ? answer->refuse().reason() : wire::REFUSE_UNSPECIFIED;
}

TEST(AddressCap, AThirdSessionFromOneAddressIsRefusedAndAnotherAddressIsNot) {
  SimServer s(capOf(2));
  SimClient a(s, at("198.51.100.7", 40000)), b(s, at("198.51.100.7", 40001)), c(s, at("198.51.100.7", 40002));
  ASSERT_TRUE(a.connect().value_or(wire::Packet()).has_accept());
  ASSERT_TRUE(b.connect().value_or(wire::Packet()).has_accept());
  const auto third = c.connect();
  ASSERT_TRUE(third && third->has_refuse());
  EXPECT_EQ(third->refuse().reason(), wire::REFUSE_ADDRESS_FULL);
  EXPECT_NE(third->refuse().message().find("--max-clients-per-address"), std::string::npos)
      << third->refuse().message();
  EXPECT_EQ(s.metrics.refusalsPerAddress.load(), 1u);
  EXPECT_EQ(s.metrics.refusals.load(), 1u);
  EXPECT_EQ(s.protocol->connectionCount(), 2u);
  // Another host is admitted; so is an address in the same /24 (only an IPv6 /64 is one address).
  SimClient d(s, at("198.51.100.8", 40000));
  EXPECT_TRUE(d.connect().value_or(wire::Packet()).has_accept());
  EXPECT_EQ(s.protocol->connectionCount(), 3u);
  EXPECT_EQ(s.metrics.refusalsPerAddress.load(), 1u);
}

TEST(AddressCap, WhenASessionEndsTheAddressMayConnectAgain) {
  SimServer s(capOf(2));
  SimClient a(s, at("198.51.100.7", 40000)), b(s, at("198.51.100.7", 40001)), c(s, at("198.51.100.7", 40002));
  ASSERT_TRUE(a.connect().value_or(wire::Packet()).has_accept());
  ASSERT_TRUE(b.connect().value_or(wire::Packet()).has_accept());
  ASSERT_EQ(refusal(c.connect()), wire::REFUSE_ADDRESS_FULL);
  // One leaves (a Disconnect): the third gets in.
  wire::Packet bye;
  bye.mutable_disconnect()->set_reason(wire::DISCONNECT_CLIENT_LEFT);
  a.send(bye);
  s.step();
  ASSERT_EQ(s.protocol->connectionCount(), 1u);
  ASSERT_TRUE(c.connect().value_or(wire::Packet()).has_accept());
  // One falls silent and times out: its place is free again too.
  SimClient d(s, at("198.51.100.7", 40003));
  ASSERT_EQ(refusal(d.connect()), wire::REFUSE_ADDRESS_FULL);
  wire::Packet keepAlive;
  keepAlive.mutable_input();
  for (int i = 0; i < 6 * 30; ++i) {  // c speaks every second; b says nothing past the 5 s timeout
    if (i % 30 == 0) c.send(keepAlive);
    s.step();
  }
  ASSERT_EQ(s.metrics.timeouts.load(), 1u);
  EXPECT_TRUE(d.connect().value_or(wire::Packet()).has_accept());
  EXPECT_EQ(s.metrics.refusalsPerAddress.load(), 2u);
}

// A restart on the same port (a new key) replaces its session rather than adding one: a full
// address is not refused for it.
TEST(AddressCap, ANewKeyFromAnAdmittedAddressReplacesItsSessionAtTheCap) {
  SimServer s(capOf(1));
  SimClient a(s, at("198.51.100.7", 40000));
  ASSERT_TRUE(a.connect().value_or(wire::Packet()).has_accept());
  s.advance(NetProtocol::kReplaceAfterSilenceSeconds + 0.1);  // the old session has fallen silent
  SimClient again(s, at("198.51.100.7", 40000));              // a new key pair, the same address
  EXPECT_TRUE(again.connect().value_or(wire::Packet()).has_accept());
  EXPECT_EQ(s.metrics.sessionsReplaced.load(), 1u);
  EXPECT_EQ(s.metrics.refusalsPerAddress.load(), 0u);
}

TEST(AddressCap, ZeroIsNoCapAndLoopbackIsNotCounted) {
  {
    SimServer s(capOf(0));
    for (std::uint16_t port = 40000; port < 40006; ++port) {
      SimClient c(s, at("198.51.100.7", port));
      ASSERT_TRUE(c.connect().value_or(wire::Packet()).has_accept()) << port;
    }
  }
  SimServer s(capOf(2));
  for (int i = 0; i < 5; ++i) {
    SimClient c(s);  // 127.0.0.1: this machine (a load tester, a relay in front)
    ASSERT_TRUE(c.connect().value_or(wire::Packet()).has_accept()) << i;
  }
  EXPECT_EQ(s.metrics.refusalsPerAddress.load(), 0u);
}

TEST(AddressCap, AnIPv6Slash64IsOneAddressAndMappedIPv4IsItsIPv4) {
  const auto key = [](const char* ip) { return AddressSessions::keyOf(asio::ip::make_address(ip)); };
  EXPECT_EQ(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
  EXPECT_NE(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
  EXPECT_EQ(key("::ffff:198.51.100.7"), key("198.51.100.7"));
  EXPECT_NE(key("198.51.100.7"), key("198.51.100.8"));
  EXPECT_FALSE(key("127.0.0.1").has_value());
  EXPECT_FALSE(key("127.9.9.9").has_value());
  EXPECT_FALSE(key("::1").has_value());
  EXPECT_FALSE(key("::ffff:127.0.0.1").has_value());
}

}  // namespace
}  // namespace steerd::net
