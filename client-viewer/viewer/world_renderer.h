// Draws the world: the background, the world's bounds with a metre grid, every entity as an
// arrow along its heading coloured by archetype, other players, the server's copy of our player,
// the local avatar, and the selection. Obstacles, walls and paths are not on the wire yet, so
// they are not drawn (nothing is made up).
#pragma once

#include <cstddef>

#include <SDL.h>

#include "viewer/camera.h"
#include "viewer/canvas.h"
#include "viewer/scene.h"

namespace steerd::viewer {

class WorldRenderer {
 public:
  // Entity arrows are this long in the world, but never shorter on screen than kMinPixels.
  static constexpr float kEntityLengthMetres = 2.0f;
  static constexpr float kMinPixels = 10.0f;

  void drawBackground(SDL_Renderer* renderer, const Camera& camera, const Scene& scene);
  // Returns how many entities of scene.sample were drawn (on screen) this frame.
  std::size_t drawEntities(SDL_Renderer* renderer, const Camera& camera, const Scene& scene);
  void drawAvatar(SDL_Renderer* renderer, const Camera& camera, const Scene& scene);

  // The arrow's half-length in pixels at the camera's scale.
  static float entityPixels(const Camera& camera);

 private:
  Canvas canvas_;
};

// The grid spacing (1, 2 or 5 times a power of ten metres) that puts lines at least
// `minPixels` apart at `scale` px/m.
float gridSpacing(float scale, float minPixels);

}  // namespace steerd::viewer
