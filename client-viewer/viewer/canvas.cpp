#include "viewer/canvas.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace steerd::viewer {

namespace {

SDL_Vertex vertex(Point p, Rgba c) { return SDL_Vertex{{p.x, p.y}, {c.r, c.g, c.b, c.a}, {0.0f, 0.0f}}; }

}  // namespace

void Canvas::triangle(Point a, Point b, Point c, Rgba colour) {
  vertices_.push_back(vertex(a, colour));
  vertices_.push_back(vertex(b, colour));
  vertices_.push_back(vertex(c, colour));
}

void Canvas::quad(Point a, Point b, Point c, Point d, Rgba colour) {
  triangle(a, b, c, colour);
  triangle(a, c, d, colour);
}

void Canvas::rect(Point min, Point max, Rgba colour) {
  quad(min, {max.x, min.y}, max, {min.x, max.y}, colour);
}

void Canvas::line(Point a, Point b, float width, Rgba colour) {
  const Point d = b - a;
  const float len = length(d);
  if (!(len > 0.0f)) return;
  const Point n{-d.y / len * width * 0.5f, d.x / len * width * 0.5f};
  quad(a + n, b + n, b - n, a - n, colour);
}

float Canvas::dashedLine(Point a, Point b, float width, float dash, float gap, Rgba colour, float phase) {
  const float len = length(b - a);
  const float period = dash + gap;
  if (!(len > 0.0f) || !(dash > 0.0f) || !(gap >= 0.0f)) return phase;
  const Point dir = (b - a) * (1.0f / len);
  float at = -std::fmod(phase, period);  // where the current period began, along a -> b
  for (; at < len; at += period) {
    const float from = std::max(at, 0.0f), to = std::min(at + dash, len);
    if (to > from) line(a + dir * from, a + dir * to, width, colour);
  }
  return std::fmod(std::fmod(phase, period) + len, period);
}

void Canvas::arrow(Point a, Point b, float width, float head, Rgba colour) {
  const Point d = b - a;
  const float len = length(d);
  if (!(len >= 1.0f)) return;
  const Point f = d * (1.0f / len);
  const Point s{-f.y, f.x};
  const float h = std::min(head, len);
  const Point base = b - f * h;
  line(a, base, width, colour);
  triangle(b, base + s * (h * 0.45f), base - s * (h * 0.45f), colour);
}

void Canvas::disc(Point centre, float radius, Rgba colour, int segments) {
  const float step = 2.0f * std::numbers::pi_v<float> / static_cast<float>(segments);
  Point prev{centre.x + radius, centre.y};
  for (int i = 1; i <= segments; ++i) {
    const Point next{centre.x + radius * std::cos(step * i), centre.y + radius * std::sin(step * i)};
    triangle(centre, prev, next, colour);
    prev = next;
  }
}

void Canvas::ring(Point centre, float radius, float width, Rgba colour, int segments) {
  const float step = 2.0f * std::numbers::pi_v<float> / static_cast<float>(segments);
  const float inner = std::max(radius - width * 0.5f, 0.0f), outer = radius + width * 0.5f;
  for (int i = 0; i < segments; ++i) {
    const float a0 = step * i, a1 = step * (i + 1);
    const Point c0{std::cos(a0), std::sin(a0)}, c1{std::cos(a1), std::sin(a1)};
    quad(centre + c0 * inner, centre + c0 * outer, centre + c1 * outer, centre + c1 * inner, colour);
  }
}

void Canvas::flush(SDL_Renderer* renderer) {
  if (!vertices_.empty()) {
    SDL_RenderGeometry(renderer, nullptr, vertices_.data(), static_cast<int>(vertices_.size()), nullptr, 0);
  }
  vertices_.clear();
}

}  // namespace steerd::viewer
