#include "viewer/view_panel.h"

#include <imgui.h>

#include <cstdint>
#include <map>
#include <string>

#include "viewer/palette.h"

namespace steerd::viewer {

namespace {

// The overlays drawn for every entity, with the interest circle's tooltip saying why there may be none.
void drawEntityOverlayToggles(OverlaySettings& overlays, const Scene& scene) {
  ImGui::Checkbox("Velocity vectors (V)", &overlays.velocity);
  ImGui::Checkbox("Raw snapshot ghosts (G)", &overlays.ghosts);
  ImGui::Checkbox("Entity ids (N)", &overlays.ids);
  ImGui::Checkbox("Area of interest (O)", &overlays.interest);
  if (scene.connected() && ImGui::IsItemHovered()) {
    if (interestLimited(scene)) {
      ImGui::SetTooltip("Snapshots hold the entities within %.0f m of the player.",
                        scene.server->interestRadius);
    } else {
      ImGui::SetTooltip("The server sends the whole world (--interest-radius 0): no circle to draw.");
    }
  }
}

// The selected NPC's overlays (from the server's debug stream), three to a line.
void drawSelectedNpcToggles(OverlaySettings& overlays) {
  ImGui::TextDisabled("Selected NPC");
  ImGui::Checkbox("Forces B", &overlays.forces);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Each behaviour's force and the combined one (white)");
  ImGui::SameLine();
  ImGui::Checkbox("Target T", &overlays.target);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Its target (red) and goal (green)");
  ImGui::SameLine();
  ImGui::Checkbox("Sensors X", &overlays.sensors);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Neighbour radius, obstacle detection box, wall feelers");
  ImGui::Checkbox("Corridor C", &overlays.corridor);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Its navmesh corridor (the leg it is on brighter, its goal ringed), or the path waypoint it "
        "steers to");
  }
  ImGui::SameLine();
  ImGui::Checkbox("Context M", &overlays.context);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Its context steering maps: interest (green) and danger (red) per direction, the choice (white)");
  }
  ImGui::Checkbox("Brain states K", &overlays.states);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Every agent on screen coloured by its brain state, with a key (servers with --allow-debug)");
  }
}

// The static scene's layers, and how much of each the server sent.
void drawGeometryToggles(GeometrySettings& geometry, const Scene& scene) {
  ImGui::Checkbox("Walls", &geometry.obstaclesAndWalls);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Obstacles and walls");
  ImGui::SameLine();
  ImGui::Checkbox("Paths", &geometry.paths);
  ImGui::SameLine();
  ImGui::Checkbox("Navmesh", &geometry.navmesh);
  if (scene.connected() && scene.geometry != nullptr) {
    const wire::SceneGeometry& g = *scene.geometry;
    ImGui::TextDisabled("%zu obstacles, %zu walls, %zu paths, %zu polygons", g.obstacles.size(),
                        g.walls.size(), g.paths.size(), g.navPolygons.size());
  }
}

// Fit, follow or stop following: the camera's buttons, and which bot walks the player.
void drawCameraButtons(const ViewState& view, ViewActions& actions) {
  if (ImGui::Button("Fit (Home)")) actions.fit = true;
  ImGui::SameLine();
  if (view.following) {
    if (ImGui::Button(view.followingSelection ? "Stop following NPC (F)" : "Stop following (F)")) {
      actions.stopFollowing = true;
    }
  } else if (ImGui::Button("Follow avatar (F)")) {
    actions.followAvatar = true;
  }
  if (view.botActive) ImGui::TextDisabled("bot: %s", view.botName);
}

// A key line: a small colour swatch, then the name and count.
void drawSwatchLine(const char* swatchId, const Rgba& c, const std::string& name, std::size_t count) {
  ImGui::ColorButton(swatchId, ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f),
                     ImGuiColorEditFlags_NoTooltip, ImVec2(12.0f, 12.0f));
  ImGui::SameLine();
  ImGui::Text("%-14s %zu", name.c_str(), count);
}

// Legend: one swatch per archetype with its count in the current sample.
void drawArchetypeLegend(const Scene& scene) {
  std::map<std::uint32_t, std::size_t> counts;
  for (const client::EntityView& e : scene.sample.entities) ++counts[e.archetype];
  ImGui::Separator();
  for (const auto& [archetype, count] : counts) {
    const std::string name = scene.archetypeName(archetype);
    const Rgba c = palette::isPlayerArchetype(name) ? palette::kOtherPlayer : palette::archetype(archetype);
    ImGui::PushID(static_cast<int>(archetype));
    drawSwatchLine("##swatch", c, name, count);
    ImGui::PopID();
  }
}

// The states overlay's key: one swatch per brain state on screen, with its count.
void drawBrainStateKey(const Scene& scene) {
  ImGui::Separator();
  ImGui::Text("Brain states%s", scene.states->truncated() ? " (the nearest 512)" : "");
  if (!scene.server->debugAllowed) {
    ImGui::TextDisabled("the server does not allow debug (--allow-debug)");
  } else if (scene.states->key().empty()) {
    ImGui::TextDisabled("none on screen (agents with a brain)");
  }
  int n = 0;
  for (const StateColours::KeyEntry& k : scene.states->key()) {
    ImGui::PushID(1000 + n++);  // apart from the archetype swatches' ids
    drawSwatchLine("##state", k.colour, k.name, k.count);
    ImGui::PopID();
  }
}

void drawKeysHelp() {
  if (!ImGui::CollapsingHeader("Keys")) return;
  ImGui::TextDisabled(
      "WASD / arrows   move the player\n"
      "left drag       walk to the pointer\n"
      "left click      select an NPC\n"
      "right/middle    pan\n"
      "wheel           zoom at the pointer\n"
      "F / Home        follow / fit the world\n"
      "V G N O         overlays\n"
      "B T X C M       selected NPC's forces,\n"
      "                target, sensors, corridor,\n"
      "                context maps\n"
      "K               colour by brain state\n"
      "Esc             clear the selection\n"
      "Del             despawn it (operator panel)\n"
      "R               retry the connection\n"
      "Tab             hide the panels\n"
      "Space / .       replay: play-pause, step\n"
      "[ / ]           replay: slower / faster");
}

}  // namespace

ViewActions drawViewPanel(OverlaySettings& overlays, GeometrySettings& geometry, const Scene& scene,
                          const ViewState& view, float viewportWidth) {
  ViewActions actions;
  const float width = 270.0f;
  ImGui::SetNextWindowPos(ImVec2(viewportWidth - 10.0f, 10.0f), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("View", nullptr,
                    ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return actions;
  }
  drawEntityOverlayToggles(overlays, scene);
  drawSelectedNpcToggles(overlays);
  ImGui::Separator();
  drawGeometryToggles(geometry, scene);
  drawCameraButtons(view, actions);
  if (scene.connected()) {
    drawArchetypeLegend(scene);
    if (scene.states != nullptr) drawBrainStateKey(scene);
  }
  drawKeysHelp();
  actions.bottom = ImGui::GetWindowPos().y + ImGui::GetWindowSize().y;
  ImGui::End();
  return actions;
}

}  // namespace steerd::viewer
