// The operator panel (ImGui, bottom left), shown only when the server grants this viewer the
// control role (steerd --allow-control, or a control token): the archetype to spawn, what a left
// click on the world does (select as usual, spawn there, or send the selected agent there), a
// Despawn button for the selection, and the last results and events of the control channel, one
// line each. The logic is operator_model.h's; this file only draws it.
#pragma once

#include <optional>

#include "viewer/camera.h"
#include "viewer/operator_model.h"
#include "viewer/scene.h"

struct ImDrawList;

namespace steerd::viewer {

// Draws the panel at the viewport's bottom left; its widgets change `model` and send commands
// through it. Nothing when the model is not enabled.
void drawOperatorPanel(OperatorModel& model, const Scene& scene, float viewportHeight);

// Next to the pointer (`pointer`, screen pixels; nullopt: not over the world), what a click would
// do in the spawn and send modes: a ring and "spawn boid" or "send #12 here".
void drawOperatorHint(ImDrawList* drawList, const OperatorModel& model, const Scene& scene,
                      std::optional<Point> pointer);

}  // namespace steerd::viewer
