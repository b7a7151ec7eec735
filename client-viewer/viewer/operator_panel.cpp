#include "viewer/operator_panel.h"

#include <imgui.h>

#include <string>

#include "viewer/palette.h"

namespace steerd::viewer {

namespace {

constexpr float kWidth = 320.0f;
constexpr float kLabelColumn = 88.0f;
constexpr int kLogLines = 8;  // visible at once; the log scrolls through the rest

const ImVec4 kErrorColour(1.0f, 0.45f, 0.42f, 1.0f);
const ImVec4 kResultColour(0.55f, 0.90f, 0.55f, 1.0f);

// "boid #12", or "#12" when it is not in the sample.
std::string selectedName(const Scene& scene, std::uint32_t id) {
  std::string name;  // appended, not "#" + ...: GCC 12 warns falsely on that (-Wrestrict)
  if (const auto i = scene.find(id)) {
    name = scene.archetypeName(scene.sample.entities[*i].archetype);
    name += ' ';
  }
  name += '#';
  name += std::to_string(id);
  return name;
}

bool selectedIsPlayer(const Scene& scene) {
  if (!scene.selected) return false;
  if (*scene.selected == scene.playerEntity()) return true;
  const auto i = scene.find(*scene.selected);
  return i && scene.isPlayer(scene.sample.entities[*i]);
}

}  // namespace

void drawOperatorPanel(OperatorModel& model, const Scene& scene, float viewportHeight) {
  if (!model.enabled()) return;
  ImGui::SetNextWindowPos(ImVec2(10.0f, viewportHeight - 10.0f), ImGuiCond_FirstUseEver, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowSize(ImVec2(kWidth, 0.0f), ImGuiCond_Always);
  if (!ImGui::Begin("Operator", nullptr, ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoResize)) {
    ImGui::End();
    return;
  }
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + kWidth - 24.0f);

  // The archetype to spawn.
  ImGui::TextDisabled("archetype");
  ImGui::SameLine(kLabelColumn);
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::BeginCombo("##archetype",
                        model.archetypeName().empty() ? "(none)" : model.archetypeName().c_str())) {
    for (int i = 0; i < static_cast<int>(model.archetypes().size()); ++i) {
      const bool chosen = i == model.archetype();
      if (ImGui::Selectable(model.archetypes()[static_cast<std::size_t>(i)].c_str(), chosen))
        model.setArchetype(i);
      if (chosen) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }

  // What a left click on the world does.
  ImGui::TextDisabled("left click");
  ImGui::SameLine(kLabelColumn);
  if (ImGui::RadioButton("select", model.mode() == ClickMode::kSelect)) model.setMode(ClickMode::kSelect);
  ImGui::SameLine();
  if (ImGui::RadioButton("spawn", model.mode() == ClickMode::kSpawn)) model.setMode(ClickMode::kSpawn);
  ImGui::SameLine();
  if (ImGui::RadioButton("send to", model.mode() == ClickMode::kMoveTo)) model.setMode(ClickMode::kMoveTo);
  switch (model.mode()) {
    case ClickMode::kSelect:
      ImGui::TextDisabled("spawn: each click places a %s",
                          model.archetypeName().empty() ? "new agent" : model.archetypeName().c_str());
      ImGui::TextDisabled("send to: each click sends the selected NPC");
      break;
    case ClickMode::kSpawn:
      ImGui::Text("Click the world: a %s spawns there.", model.archetypeName().c_str());
      ImGui::TextDisabled("Esc: back to selecting.");
      break;
    case ClickMode::kMoveTo:
      if (scene.selected) {
        ImGui::Text("Click the world: %s walks there.", selectedName(scene, *scene.selected).c_str());
      } else {
        ImGui::TextColored(kErrorColour, "No NPC selected: Esc, then click one.");
      }
      ImGui::TextDisabled("Esc: back to selecting.");
      break;
  }
  bool release = model.releaseOnArrival();
  if (ImGui::Checkbox("send to: release on arrival", &release)) model.setReleaseOnArrival(release);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "On: once there, its own behaviours steer it again.\nOff: it stays there until sent elsewhere.");
  }

  // The selection.
  ImGui::TextDisabled("selected");
  ImGui::SameLine(kLabelColumn);
  if (scene.selected) {
    ImGui::Text("%s", selectedName(scene, *scene.selected).c_str());
    ImGui::SameLine();
    const bool player = selectedIsPlayer(scene);
    ImGui::BeginDisabled(player);
    if (ImGui::Button("Despawn (Del)")) model.despawn(*scene.selected);
    ImGui::EndDisabled();
    if (player && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      ImGui::SetTooltip("A player's body goes when its client leaves");
    }
  } else {
    ImGui::TextDisabled("none");
  }

  // The log, newest first.
  ImGui::Separator();
  ImGui::TextDisabled("results and events, newest first");
  ImGui::PopTextWrapPos();
  ImGui::BeginChild("##log", ImVec2(0.0f, kLogLines * ImGui::GetTextLineHeightWithSpacing() + 8.0f), true);
  ImGui::PushTextWrapPos(0.0f);
  const auto& lines = model.lines();
  if (lines.empty()) ImGui::TextDisabled("nothing yet");
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    switch (it->kind) {
      case OperatorLine::Kind::kError:
        ImGui::TextColored(kErrorColour, "%s", it->text.c_str());
        break;
      case OperatorLine::Kind::kResult:
        ImGui::TextColored(kResultColour, "%s", it->text.c_str());
        break;
      case OperatorLine::Kind::kEvent:
        ImGui::TextDisabled("%s", it->text.c_str());
        break;
    }
  }
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
  bool all = model.allEvents();
  if (ImGui::Checkbox("every event kind", &all)) model.setAllEvents(all);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Off: spawned, despawned, arrived, target lost, path failed, caught.\nOn: brain state changes and "
        "sightings too (busy in a big world).");
  }
  if (model.pending() > 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("%zu awaiting a result", model.pending());
  }
  ImGui::End();
}

void drawOperatorHint(ImDrawList* drawList, const OperatorModel& model, const Scene& scene,
                      std::optional<Point> pointer) {
  if (!model.enabled() || !pointer || model.mode() == ClickMode::kSelect) return;
  std::string text;
  ImU32 colour = IM_COL32(255, 255, 255, 230);
  if (model.mode() == ClickMode::kSpawn) {
    if (model.archetypeName().empty()) return;
    text = "spawn " + model.archetypeName();
    if (scene.server != nullptr) {
      const auto& names = scene.server->archetypes;
      for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == model.archetypeName())
          colour = palette::archetype(static_cast<std::uint32_t>(i)).abgr();
      }
    }
  } else {
    if (!scene.selected) return;
    text = "send " + selectedName(scene, *scene.selected) + " here";
    colour = palette::kGoal.withAlpha(230).abgr();
  }
  const ImVec2 at(pointer->x, pointer->y);
  drawList->AddCircle(at, 9.0f, colour, 24, 2.0f);
  drawList->AddLine(ImVec2(at.x - 4.0f, at.y), ImVec2(at.x + 4.0f, at.y), colour);
  drawList->AddLine(ImVec2(at.x, at.y - 4.0f), ImVec2(at.x, at.y + 4.0f), colour);
  drawList->AddText(ImVec2(at.x + 14.0f, at.y - 20.0f), colour, text.c_str());
}

}  // namespace steerd::viewer
