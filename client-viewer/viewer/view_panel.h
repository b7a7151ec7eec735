// The "View" panel (ImGui, top right): overlay and static-scene switches, camera actions, the
// archetype legend with how many of each are on screen, and the keys.
#pragma once

#include "viewer/geometry_renderer.h"
#include "viewer/overlays.h"
#include "viewer/scene.h"

namespace steerd::viewer {

struct ViewActions {
  bool fit = false;           // fit the world (Home)
  bool followAvatar = false;  // follow the player's avatar
  bool stopFollowing = false;
  float bottom = 0.0f;  // the panel's lower edge, screen pixels (the inspector goes under it)
};

struct ViewState {
  bool following = false;
  bool followingSelection = false;
  bool botActive = false;
  const char* botName = "";
};

ViewActions drawViewPanel(OverlaySettings& overlays, GeometrySettings& geometry, const Scene& scene,
                          const ViewState& view, float viewportWidth);

}  // namespace steerd::viewer
