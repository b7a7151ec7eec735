// Debug overlays over the world: velocity vectors (estimated between snapshots), a ghost of the
// newest raw snapshot next to the interpolated entities (how far rendering trails the server),
// entity ids, the client's area of interest (the radius the server's Accept gave), and, for the
// selected agent, what the server's debug stream says: each behaviour's force and the combined
// one, its goal and target, its sensors (neighbour radius, obstacle detection box, wall feelers),
// its navmesh corridor (or the path waypoint it steers to) and its context steering maps.
#pragma once

#include <SDL.h>

#include "viewer/camera.h"
#include "viewer/canvas.h"
#include "viewer/scene.h"

struct ImDrawList;

namespace steerd::viewer {

struct OverlaySettings {
  bool velocity = false;
  bool ghosts = false;
  bool ids = false;
  bool interest = false;  // nothing to draw when the server sends the whole world (radius 0)
  bool forces = false;    // the selected agent's (debug stream)
  bool target = false;
  bool sensors = false;
  bool corridor = false;  // its navmesh corridor, or the waypoint it steers to on its path
  bool context = false;   // its context steering maps (interest and danger rays)
  bool states = false;    // every agent on screen coloured by its brain state, with a key (debug stream)
};

// Whether this client sees only part of the world: the server gave a non-zero interest radius.
inline bool interestLimited(const Scene& scene) {
  return scene.server != nullptr && scene.server->interestRadius > 0.0f;
}

class Overlays {
 public:
  // Labels are skipped when more than this many entities are on screen: they would be a blur.
  static constexpr std::size_t kMaxLabels = 1500;
  static constexpr float kVelocitySeconds = 1.0f;  // a vector shows one second of motion
  static constexpr float kMaxForcePixels = 70.0f;  // a force of the agent's maxForce, on screen
  static constexpr float kContextPixels = 60.0f;   // a context map value of 1, on screen

  // Velocity vectors (drawn under the entities) and ghosts (over them).
  void drawVelocities(SDL_Renderer* renderer, const Camera& camera, const Scene& scene,
                      const OverlaySettings& settings);
  void drawGhosts(SDL_Renderer* renderer, const Camera& camera, const Scene& scene,
                  const OverlaySettings& settings);
  // The selected agent's forces, goal, target and sensors (nothing without its DebugInfo). Drawn at
  // its interpolated position, which trails the server's by the interpolation delay.
  void drawSelection(SDL_Renderer* renderer, const Camera& camera, const Scene& scene,
                     const OverlaySettings& settings);
  // The selected agent's corridor (a polyline from it through the corners, the leg it is on
  // brighter) or path waypoint, and its context maps (rays round it: interest and danger by
  // value, the chosen slot highlighted). Nothing without its DebugInfo.
  void drawNavigation(SDL_Renderer* renderer, const Camera& camera, const Scene& scene,
                      const OverlaySettings& settings);
  // The interest circle around the server's copy of our player (the avatar until it is seen).
  void drawInterest(SDL_Renderer* renderer, const Camera& camera, const Scene& scene,
                    const OverlaySettings& settings);
  // Entity ids, as text on ImGui's background layer (drawn after the world, under the panels).
  void drawLabels(ImDrawList* list, const Camera& camera, const Scene& scene,
                  const OverlaySettings& settings);

 private:
  void drawSenses(const Camera& camera, const wire::DebugInfo& d, Point at);
  Canvas canvas_;
};

}  // namespace steerd::viewer
