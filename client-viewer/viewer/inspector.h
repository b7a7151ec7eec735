// Selection and the inspector panel: a click picks the entity nearest the pointer; the panel
// shows its id, archetype, position, heading and speed (estimated between snapshots), and, from
// the server's debug stream (steerd --allow-debug), its brain state and recent transitions, each
// active behaviour with the force it produced (a bar against the agent's maxForce), the combined
// force, its target and goal.
#pragma once

#include <optional>

#include "viewer/camera.h"
#include "viewer/scene.h"

struct ImDrawList;

namespace steerd::viewer {

// The id of the entity whose screen position is nearest `screen` and within `radiusPixels`; our
// own player body is skipped (clicking near the avatar should not select it).
std::optional<std::uint32_t> pickEntity(const Scene& scene, const Camera& camera, Point screen,
                                        float radiusPixels);

struct InspectorActions {
  bool follow = false;    // "Follow" pressed
  bool deselect = false;  // "Clear" pressed
};

// Draws the inspector window (right side). `following` is whether the camera follows the
// selection now. The window goes to the right edge at height `top`, and scrolls rather than
// reach past the viewport's bottom.
InspectorActions drawInspector(const Scene& scene, bool following, float viewportWidth, float viewportHeight,
                               float top);

// The hover label (hover_label.h) next to the entity under the pointer (Scene::hovered), if it is
// in the sample; nothing otherwise.
void drawHoverLabel(ImDrawList* drawList, const Camera& camera, const Scene& scene);

}  // namespace steerd::viewer
