// No answer larger than what asked for it (issue 17's third hole): a ConnectRequest from an
// admitted address gets a Challenge, not the Accept again; a ConnectResponse must be padded to
// kMinConnectResponseBytes, so the Accept it is answered with (archetype names and all) is never
// larger; scenario files whose names would not fit are refused.
#include <gtest/gtest.h>

#include "scenario/scenario_file.h"
#include "udp_harness.h"

namespace steerd::net {
namespace {

TEST(Amplification, AConnectRequestFromAnAdmittedAddressGetsAChallengeNotTheAccept) {
  Server s;
  RawClient c(s.endpoint->port());
  ASSERT_TRUE(c.connect(s));
  wire::Packet again;
  again.mutable_connect_request();
  c.send(again, wire::kMinConnectDatagramBytes);
  const auto answer = c.await(s, wire::Packet::kChallenge);
  ASSERT_TRUE(answer) << "no Challenge";
  EXPECT_LT(c.awaitedBytes, wire::kMinConnectDatagramBytes) << "smaller than the request";
  for (int i = 0; i < 10; ++i) s.step();
  EXPECT_FALSE(c.await1(wire::Packet::kAccept).has_value()) << "no Accept without a cookie";
}

TEST(Amplification, AConnectResponsePaddedOnlyLikeARequestIsDropped) {
  Server s;
  RawClient c(s.endpoint->port());
  const auto cookie = c.challenge(s);
  ASSERT_TRUE(cookie);
  wire::Packet resp;
  resp.mutable_connect_response()->set_cookie(*cookie);
  c.send(resp, wire::kMinConnectDatagramBytes);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kUnpadded) == 1; }));
  EXPECT_EQ(s.metrics.connects.load(), 0u);
}

TEST(Amplification, TheAcceptWithLongArchetypeNamesIsNoLargerThanTheRequest) {
  ServerSetup setup;
  // Archetype names near the limit the scenario check allows.
  for (int i = 0; setup.archetypes.size() < 20; ++i) {
    Archetype a = evader();
    a.name = std::string(50, static_cast<char>('a' + i));
    a.behaviours.clear();
    setup.archetypes.push_back(a);
  }
  Server s(setup);
  RawClient c(s.endpoint->port());
  const auto cookie = c.challenge(s);
  ASSERT_TRUE(cookie);
  wire::Packet resp;
  resp.mutable_connect_response()->set_cookie(*cookie);
  resp.mutable_connect_response()->set_public_key(c.keys.publicKey);
  std::vector<std::uint8_t> request;
  ASSERT_TRUE(wire::encodeDatagram({wire::Packet::kConnectResponse, 1, 0, 0}, resp, request,
                                   wire::kMinConnectResponseBytes));
  c.sendBytes(request);
  const auto accept = c.await(s, wire::Packet::kAccept);
  ASSERT_TRUE(accept);
  EXPECT_EQ(accept->accept().archetypes_size(), 21);
  EXPECT_GT(c.awaitedBytes, 1000u) << "the test makes a big Accept";
  EXPECT_LE(c.awaitedBytes, request.size());
}

TEST(Amplification, ScenarioFilesWhoseAcceptWouldNotFitAreRefused) {
  std::string text = R"(name: "names" bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } })";
  for (int i = 0; i < 25; ++i) {
    text += " archetypes { name: \"" + std::string(60, static_cast<char>('a' + i)) +
            "\" limits { radius: 0.5 mass: 1 max_speed: 1 max_force: 1 } behaviours { kind: WANDER } }";
  }
  const ScenarioLoad r = loadScenarioText(text, "names.txtpb", {1, 1, 0}, false);
  ASSERT_FALSE(r.errors.empty());
  bool said = false;
  for (const auto& e : r.errors)
    said = said || (e.find("archetypes") != std::string::npos && e.find("Accept") != std::string::npos);
  EXPECT_TRUE(said) << r.errors[0];
}

}  // namespace
}  // namespace steerd::net
