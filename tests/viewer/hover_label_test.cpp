// The hover label: id and archetype always; the brain state (or "no brain") only with debug allowed
// and an answer about this very agent.
#include <gtest/gtest.h>

#include "viewer/hover_label.h"

namespace steerd::viewer {
namespace {

wire::DebugHover hoverAbout(std::uint32_t id, bool found, const std::string& state) {
  wire::DebugHover h;
  h.set_agent_id(id);
  h.set_found(found);
  h.set_brain_state(state);
  return h;
}

TEST(HoverLabel, IdAndArchetypeWithoutDebug) {
  const wire::DebugHover h = hoverAbout(12, true, "ride herd/fetch");
  EXPECT_EQ(hoverLabelText(12, "dog", false, nullptr), "12 dog");
  EXPECT_EQ(hoverLabelText(12, "dog", false, &h), "12 dog");
}

TEST(HoverLabel, BrainStateOrNoBrainWithDebug) {
  const wire::DebugHover brain = hoverAbout(12, true, "ride herd/fetch");
  EXPECT_EQ(hoverLabelText(12, "dog", true, &brain), "12 dog\nride herd/fetch");
  const wire::DebugHover none = hoverAbout(7, true, "");
  EXPECT_EQ(hoverLabelText(7, "deer", true, &none), "7 deer\nno brain");
}

TEST(HoverLabel, NothingMoreUntilAnAnswerAboutThisAgent) {
  EXPECT_EQ(hoverLabelText(12, "dog", true, nullptr), "12 dog");
  const wire::DebugHover other = hoverAbout(13, true, "idle");
  EXPECT_EQ(hoverLabelText(12, "dog", true, &other), "12 dog");
  const wire::DebugHover gone = hoverAbout(12, false, "");
  EXPECT_EQ(hoverLabelText(12, "dog", true, &gone), "12 dog");
}

}  // namespace
}  // namespace steerd::viewer
