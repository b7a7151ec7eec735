#include "viewer/inspector.h"

#include <imgui.h>

#include <cmath>
#include <numbers>

#include "viewer/palette.h"

namespace steerd::viewer {

std::optional<std::uint32_t> pickEntity(const Scene& scene, const Camera& camera, Point screen,
                                        float radiusPixels) {
  std::optional<std::uint32_t> best;
  float bestDistance = radiusPixels;
  for (const client::EntityView& e : scene.sample.entities) {
    if (e.id == scene.playerEntity()) continue;
    const float d = length(camera.worldToScreen({e.x, e.y}) - screen);
    if (d <= bestDistance) {
      bestDistance = d;
      best = e.id;
    }
  }
  return best;
}

InspectorActions drawInspector(const Scene& scene, bool following, float viewportWidth, float top) {
  InspectorActions actions;
  const float width = 270.0f;
  ImGui::SetNextWindowPos(ImVec2(viewportWidth - 10.0f, top), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Inspector", nullptr,
                    ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return actions;
  }
  std::optional<std::size_t> index;
  if (scene.selected) index = scene.find(*scene.selected);
  if (!scene.selected) {
    ImGui::TextDisabled("Click an NPC to inspect it.");
  } else if (!index) {
    ImGui::Text("Entity %u", *scene.selected);
    ImGui::TextDisabled("not in the current snapshot (gone, or out of view)");
    actions.deselect = ImGui::Button("Clear");
  } else {
    const client::EntityView& e = scene.sample.entities[*index];
    const Rgba c = palette::archetype(e.archetype);
    ImGui::Text("Entity %u", e.id);
    ImGui::TextDisabled("archetype");
    ImGui::SameLine(90.0f);
    ImGui::ColorButton("##arch", ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(12.0f, 12.0f));
    ImGui::SameLine();
    ImGui::Text("%s (#%u)", scene.archetypeName(e.archetype).c_str(), e.archetype);
    ImGui::TextDisabled("position");
    ImGui::SameLine(90.0f);
    ImGui::Text("(%.2f, %.2f) m", e.x, e.y);
    ImGui::TextDisabled("heading");
    ImGui::SameLine(90.0f);
    ImGui::Text("%.0f deg", e.heading * 180.0 / std::numbers::pi);
    ImGui::TextDisabled("speed");
    ImGui::SameLine(90.0f);
    if (*index < scene.motion.size() && scene.motion[*index].known) {
      const Point v = scene.motion[*index].velocity;
      ImGui::Text("%.2f m/s (%.2f, %.2f)", length(v), v.x, v.y);
    } else {
      ImGui::TextDisabled("unknown yet");
    }
    actions.follow = ImGui::Button(following ? "Following (F)" : "Follow (F)");
    ImGui::SameLine();
    actions.deselect = ImGui::Button("Clear (Esc)");
  }
  ImGui::Separator();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - 20.0f);
  ImGui::TextDisabled(
      "Brain state and active behaviours need the server's debug stream, which is not built yet "
      "(future work).");
  ImGui::PopTextWrapPos();
  ImGui::End();
  return actions;
}

}  // namespace steerd::viewer
