// Batches filled shapes (triangles, thick lines, discs, rings) in screen pixels into one vertex
// list and draws it with a single SDL_RenderGeometry call: thousands of entities cost one draw,
// and it works on every SDL_Renderer backend, the software one included.
#pragma once

#include <vector>

#include <SDL.h>

#include "viewer/geometry.h"
#include "viewer/palette.h"

namespace steerd::viewer {

class Canvas {
 public:
  void clear() { vertices_.clear(); }
  void triangle(Point a, Point b, Point c, Rgba colour);
  void quad(Point a, Point b, Point c, Point d, Rgba colour);  // a-b-c-d in order around
  void rect(Point min, Point max, Rgba colour);
  void line(Point a, Point b, float width, Rgba colour);
  // `dash` pixels drawn, `gap` pixels skipped, from a; returns how far into the pattern b ends,
  // so a polyline's next segment can carry on where this one stopped (pass it as `phase`).
  float dashedLine(Point a, Point b, float width, float dash, float gap, Rgba colour, float phase = 0.0f);
  // A line from a to b with a head at b (`head` pixels long); nothing when shorter than a pixel.
  void arrow(Point a, Point b, float width, float head, Rgba colour);
  void disc(Point centre, float radius, Rgba colour, int segments = 20);
  void ring(Point centre, float radius, float width, Rgba colour, int segments = 28);
  // Draws everything batched so far and clears the batch.
  void flush(SDL_Renderer* renderer);
  std::size_t size() const { return vertices_.size(); }

 private:
  std::vector<SDL_Vertex> vertices_;
};

}  // namespace steerd::viewer
