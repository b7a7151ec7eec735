#include "viewer/replay_bar.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "viewer/replay_timeline.h"

namespace steerd::viewer {

ReplayBarActions drawReplayBar(const wire::ReplayStatus& s, double tickRate, ReplayBarState& state,
                               float viewportWidth, float viewportHeight) {
  ReplayBarActions out;
  const float width = std::min(900.0f, viewportWidth - 40.0f);
  ImGui::SetNextWindowPos(ImVec2(viewportWidth * 0.5f, viewportHeight - 12.0f), ImGuiCond_Always,
                          ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("Replay", nullptr,
               ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoTitleBar);
  const bool still = s.paused() || s.ended();
  if (ImGui::Button(still ? "Play (space)" : "Pause (space)", ImVec2(110.0f, 0.0f)))
    out.action = still ? wire::REPLAY_PLAY : wire::REPLAY_PAUSE;
  ImGui::SameLine();
  if (ImGui::Button("Step (.)")) out.action = wire::REPLAY_STEP;
  ImGui::SameLine();
  if (ImGui::Button("-")) out.speed = nextReplaySpeed(s.speed(), -1);
  ImGui::SameLine();
  ImGui::Text("%gx", s.speed());
  ImGui::SameLine();
  if (ImGui::Button("+")) out.speed = nextReplaySpeed(s.speed(), +1);
  ImGui::SameLine();
  ImGui::TextUnformatted(replayPosition(s, tickRate).c_str());
  if (s.seeking()) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "seeking to %u", s.seek_tick());
  } else if (s.paused()) {
    ImGui::SameLine();
    ImGui::TextDisabled("paused");
  }
  // The timeline: while held, the handle is where it is dragged; the seek goes when it is let go.
  int tick = state.dragging ? state.dragTick : static_cast<int>(s.seeking() ? s.seek_tick() : s.tick());
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::SliderInt("##timeline", &tick, static_cast<int>(s.first_tick()), static_cast<int>(s.last_tick()),
                   "tick %d");
  if (ImGui::IsItemDeactivatedAfterEdit()) out.seek = static_cast<std::uint32_t>(std::max(tick, 0));
  state.dragging = ImGui::IsItemActive();
  state.dragTick = tick;
  if (s.ended()) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - 24.0f);
    const bool ok = s.verdict().rfind("replay ok", 0) == 0;
    ImGui::TextColored(ok ? ImVec4(0.55f, 0.85f, 0.55f, 1.0f) : ImVec4(1.0f, 0.45f, 0.42f, 1.0f), "%s",
                       s.verdict().c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
  return out;
}

}  // namespace steerd::viewer
