// Debug overlays over the world: velocity vectors (estimated between snapshots), a ghost of the
// newest raw snapshot next to the interpolated entities (how far rendering trails the server),
// and entity ids. The area of interest has no overlay: the server does not send its radius
// (Accept carries none), and the viewer does not guess it.
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
  bool interest = false;  // no effect until the server tells its interest radius
};

// Whether the server told this client its area of interest (it does not yet).
inline bool interestKnown(const Scene&) { return false; }

class Overlays {
 public:
  // Labels are skipped when more than this many entities are on screen: they would be a blur.
  static constexpr std::size_t kMaxLabels = 1500;
  static constexpr float kVelocitySeconds = 1.0f;  // a vector shows one second of motion

  // Velocity vectors (drawn under the entities) and ghosts (over them).
  void drawVelocities(SDL_Renderer* renderer, const Camera& camera, const Scene& scene,
                      const OverlaySettings& settings);
  void drawGhosts(SDL_Renderer* renderer, const Camera& camera, const Scene& scene,
                  const OverlaySettings& settings);
  // Entity ids, as text on ImGui's background layer (drawn after the world, under the panels).
  void drawLabels(ImDrawList* list, const Camera& camera, const Scene& scene,
                  const OverlaySettings& settings);

 private:
  Canvas canvas_;
};

}  // namespace steerd::viewer
