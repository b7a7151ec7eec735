#include "viewer/inspector.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "viewer/hover_label.h"
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

void drawHoverLabel(ImDrawList* drawList, const Camera& camera, const Scene& scene) {
  if (!scene.hovered) return;
  const std::optional<std::size_t> index = scene.find(*scene.hovered);
  if (!index) return;
  const client::EntityView& e = scene.sample.entities[*index];
  const bool debugAllowed = scene.server != nullptr && scene.server->debugAllowed;
  const std::string text = hoverLabelText(e.id, scene.archetypeName(e.archetype), debugAllowed, scene.hover);
  const Point at = camera.worldToScreen({e.x, e.y});
  const ImVec2 pad(5.0f, 3.0f);
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  // Right of the dart and a little above, kept inside the viewport.
  ImVec2 min(at.x + 14.0f, at.y - size.y - 2.0f * pad.y - 4.0f);
  min.x = std::clamp(min.x, 0.0f, std::max(0.0f, camera.viewportWidth() - size.x - 2.0f * pad.x));
  min.y = std::clamp(min.y, 0.0f, std::max(0.0f, camera.viewportHeight() - size.y - 2.0f * pad.y));
  const ImVec2 max(min.x + size.x + 2.0f * pad.x, min.y + size.y + 2.0f * pad.y);
  drawList->AddRectFilled(min, max, IM_COL32(20, 22, 28, 220), 3.0f);
  drawList->AddRect(min, max, IM_COL32(110, 115, 130, 255), 3.0f);
  drawList->AddText(ImVec2(min.x + pad.x, min.y + pad.y), IM_COL32(235, 235, 235, 255), text.c_str());
}

namespace {

constexpr float kWidth = 310.0f;
constexpr float kLabelColumn = 90.0f;
constexpr float kBarColumn = 192.0f;  // behaviour rows: swatch and name, then the force bar

ImVec4 colourOf(Rgba c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f); }

// A heading between parts of the panel (ImGui 1.86 has no SeparatorText).
void section(const char* name) {
  ImGui::Separator();
  ImGui::Text("%s", name);
}

void label(const char* name) {
  ImGui::TextDisabled("%s", name);
  ImGui::SameLine(kLabelColumn);
}

// "weighted_truncated_running_sum" -> "weighted truncated running sum": wraps at the spaces.
std::string spaced(std::string name) {
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

// A bar of |force| against the agent's maxForce, in the behaviour's own colour, with `note` after
// the number.
void forceBar(float magnitude, float maxForce, Rgba colour, const char* note = "") {
  char text[48];
  std::snprintf(text, sizeof text, "%.1f%s", magnitude, note);
  const float fraction = maxForce > 0.0f ? std::clamp(magnitude / maxForce, 0.0f, 1.0f) : 0.0f;
  ImGui::PushStyleColor(ImGuiCol_PlotHistogram, colourOf(colour));
  ImGui::ProgressBar(fraction, ImVec2(-1.0f, 0.0f), text);
  ImGui::PopStyleColor();
}

double secondsBetween(const Scene& scene, std::uint32_t from, std::uint32_t to) {
  const double rate = scene.server != nullptr && scene.server->tickRate > 0 ? scene.server->tickRate : 30.0;
  return to >= from ? (to - from) / rate : 0.0;
}

// What the debug stream says: brain, steering, target and goal.
void drawDebug(const Scene& scene, const wire::DebugInfo& d) {
  if (!d.brain_state().empty()) {
    section("Brain");
    label("state");
    ImGui::Text("%s", d.brain_state().c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("for %.1f s", secondsBetween(scene, d.state_entered_tick(), d.tick()));
    if (d.transitions_size() == 0) {
      label("recent");
      ImGui::TextDisabled("no change since selected");
    }
    for (int i = d.transitions_size() - 1; i >= 0; --i) {  // newest first
      const wire::DebugTransition& t = d.transitions(i);
      label(i == d.transitions_size() - 1 ? "recent" : "");
      ImGui::Text("%s -> %s", t.from().c_str(), t.to().c_str());
      ImGui::SameLine();
      ImGui::TextDisabled("%.1f s ago", secondsBetween(scene, t.tick(), d.tick()));
    }
  }
  section("Steering");
  if (d.external()) {
    ImGui::TextDisabled("a player: its client moves it");
    return;
  }
  ImGui::TextDisabled("%s, m/s2", spaced(d.combiner()).c_str());
  if (!d.forces_known()) {
    ImGui::TextDisabled("not steered yet (spawned since the last tick)");
  } else {
    for (int b = 0; b < d.behaviours_size(); ++b) {
      const wire::DebugBehaviour& w = d.behaviours(b);
      const Rgba c = palette::behaviour(static_cast<std::uint32_t>(b));
      ImGui::PushID(b);
      ImGui::ColorButton("##behaviour", colourOf(c), ImGuiColorEditFlags_NoTooltip, ImVec2(10.0f, 10.0f));
      ImGui::SameLine();
      const std::string name = w.detail().empty() ? w.kind() : w.kind() + " " + w.detail();
      ImGui::Text("%s", name.c_str());
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("weight %g, priority %d\nits own force (%.2f, %.2f) m/s2, before the weight",
                          w.weight(), w.priority(), w.force_x(), w.force_y());
      }
      // A long name pushes its bar to the next line rather than under the name.
      if (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x < kBarColumn - 4.0f) {
        ImGui::SameLine(kBarColumn);
      } else {
        ImGui::Dummy(ImVec2(kBarColumn - ImGui::GetStyle().WindowPadding.x, 0.0f));
        ImGui::SameLine(kBarColumn);
      }
      if (w.evaluated()) {
        char note[16];
        std::snprintf(note, sizeof note, " x%g", w.weight());
        forceBar(std::hypot(w.force_x(), w.force_y()) * w.weight(), d.max_force(), c, note);
      } else {
        ImGui::TextDisabled("not reached");
      }
      ImGui::PopID();
    }
    ImGui::Text("combined");
    ImGui::SameLine(kBarColumn);
    forceBar(std::hypot(d.force_x(), d.force_y()), d.max_force(), palette::kCombinedForce.withAlpha(200));
  }
  label("target");
  if (d.target_id() >= 0) {
    const auto t = scene.find(static_cast<std::uint32_t>(d.target_id()));
    if (t) {
      const client::EntityView& e = scene.sample.entities[*t];
      ImGui::Text("%d (%s), %.1f m", d.target_id(), scene.archetypeName(e.archetype).c_str(),
                  std::hypot(e.x - d.x(), e.y - d.y()));
    } else {
      ImGui::Text("%d", d.target_id());
    }
  } else {
    ImGui::TextDisabled("none");
  }
  label("waiting for");
  if (!d.waiting_for().empty()) {
    ImGui::Text("%s", d.waiting_for().c_str());
  } else {
    ImGui::TextDisabled("nothing");
  }
  label("goal");
  if (d.has_goal()) {
    ImGui::Text("(%.1f, %.1f), %.1f m", d.goal_x(), d.goal_y(),
                std::hypot(d.goal_x() - d.x(), d.goal_y() - d.y()));
  } else {
    ImGui::TextDisabled("none");
  }
  label("velocity");
  ImGui::Text("%.2f m/s of %.1f", std::hypot(d.vx(), d.vy()), d.max_speed());
}

}  // namespace

InspectorActions drawInspector(const Scene& scene, bool following, float viewportWidth, float viewportHeight,
                               float top) {
  InspectorActions actions;
  ImGui::SetNextWindowPos(ImVec2(viewportWidth - 10.0f, top), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
  // As tall as its content (0: fit), but never past the window's bottom: then it scrolls.
  ImGui::SetNextWindowSize(ImVec2(kWidth, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(kWidth, 0.0f),
                                      ImVec2(kWidth, std::max(120.0f, viewportHeight - top - 10.0f)));
  if (!ImGui::Begin("Inspector", nullptr, ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoResize)) {
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
    ImGui::SameLine();
    ImGui::ColorButton("##arch", colourOf(c), ImGuiColorEditFlags_NoTooltip, ImVec2(12.0f, 12.0f));
    ImGui::SameLine();
    ImGui::TextUnformatted(scene.archetypeName(e.archetype).c_str());  // the name: an index reads like an id
    label("position");
    ImGui::Text("(%.2f, %.2f) m", e.x, e.y);
    // A level with heights: some entity stands off the zero plane.
    const bool heights = std::any_of(scene.sample.entities.begin(), scene.sample.entities.end(),
                                     [](const client::EntityView& v) { return v.z != 0.0f; });
    if (heights) {
      label("height");
      ImGui::Text("%.2f m", e.z);
    }
    label("heading");
    ImGui::Text("%.0f deg", e.heading * 180.0 / std::numbers::pi);
    label("speed");
    if (*index < scene.motion.size() && scene.motion[*index].known) {
      const Point v = scene.motion[*index].velocity;
      ImGui::Text("%.2f m/s (%.2f, %.2f)", length(v), v.x, v.y);
    } else {
      ImGui::TextDisabled("unknown yet");
    }
    actions.follow = ImGui::Button(following ? "Following (F)" : "Follow (F)");
    ImGui::SameLine();
    actions.deselect = ImGui::Button("Clear (Esc)");

    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + kWidth - 20.0f);
    if (scene.server == nullptr || !scene.server->debugAllowed) {
      ImGui::Separator();
      ImGui::TextDisabled(
          "The server runs without --allow-debug: no brain state, behaviours or forces to show.");
    } else if (const wire::DebugInfo* d = scene.selectedDebug()) {
      drawDebug(scene, *d);
    } else if (scene.debug != nullptr && scene.debug->agent_id() == e.id && !scene.debug->found()) {
      ImGui::Separator();
      ImGui::TextDisabled("The server knows no agent %u (it has gone).", e.id);
    } else {
      ImGui::Separator();
      ImGui::TextDisabled("Waiting for the server's debug stream...");
    }
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
  return actions;
}

}  // namespace steerd::viewer
