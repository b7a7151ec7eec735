// steer-director's JSON lines: the kind under "event" first, then the message's fields.
#include <gtest/gtest.h>

#include "director/event_json.h"

namespace steerd::director {
namespace {

TEST(EventJson, KindsAreLowerCaseWithoutThePrefix) {
  EXPECT_EQ(eventKindName(control::EVENT_STATE_CHANGED), "state_changed");
  EXPECT_EQ(eventKindName(control::EVENT_SPAWNED), "spawned");
}

TEST(EventJson, AnEventLineStartsWithItsKindAndKeepsItsFields) {
  wire::ControlMessage m;
  m.set_sequence(3);
  control::Event* e = m.mutable_event();
  e->set_kind(control::EVENT_ARRIVED);
  e->set_tick(120);
  e->set_agent(7);
  e->set_archetype("guard \"7\"");
  const std::string line = messageJson(m);
  EXPECT_EQ(line.rfind("{\"event\":\"arrived\",", 0), 0u) << line;
  EXPECT_NE(line.find("\"agent\":7"), std::string::npos) << line;
  EXPECT_NE(line.find("\"tick\":\"120\""), std::string::npos)
      << "64-bit ticks are strings in proto JSON: " << line;
  EXPECT_NE(line.find("guard \\\"7\\\""), std::string::npos) << "quotes escaped: " << line;
  EXPECT_EQ(line.find("\"kind\""), std::string::npos) << "the kind is said once, as event";
  EXPECT_EQ(line.back(), '}');
}

TEST(EventJson, AResultLineAndAnEmptyOne) {
  wire::ControlMessage m;
  m.mutable_result()->set_sequence(9);
  m.mutable_result()->set_status(control::STATUS_ERROR);
  m.mutable_result()->set_error("spawn.position: inside an obstacle");
  const std::string line = messageJson(m);
  EXPECT_EQ(line.rfind("{\"event\":\"result\",", 0), 0u) << line;
  EXPECT_NE(line.find("inside an obstacle"), std::string::npos);
  wire::ControlMessage empty;
  empty.mutable_event();  // every field at its default
  EXPECT_EQ(messageJson(empty), "{\"event\":\"unspecified\"}");
}

}  // namespace
}  // namespace steerd::director
