#include "viewer/connection_panel.h"

#include <imgui.h>

#include <algorithm>

namespace steerd::viewer {

bool drawConnectionPanel(const Connection& connection, float viewportWidth, float viewportHeight) {
  if (connection.state() == LinkState::kConnected) return false;
  const bool failed = connection.state() == LinkState::kFailed;
  const float width = std::min(520.0f, viewportWidth - 40.0f);
  ImGui::SetNextWindowPos(ImVec2(viewportWidth * 0.5f, viewportHeight * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Always);
  ImGui::Begin("Connection", nullptr,
               ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_AlwaysAutoResize);
  bool retry = false;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - 24.0f);
  if (failed) {
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.42f, 1.0f), "Not connected");
    ImGui::TextWrapped("%s", connection.problem().c_str());
    ImGui::Spacing();
    retry = ImGui::Button("Retry (R)");
    if (connection.attempts() > 1) {
      ImGui::SameLine();
      ImGui::TextDisabled("attempt %d", connection.attempts());
    }
  } else {
    static const char* const kDots[] = {"", ".", "..", "..."};
    const int phase = static_cast<int>(ImGui::GetTime() * 3.0) % 4;
    ImGui::Text("Connecting to %s%s", connection.target().c_str(), kDots[phase]);
  }
  ImGui::PopTextWrapPos();
  ImGui::End();
  return retry;
}

}  // namespace steerd::viewer
