#include "viewer/camera.h"

#include <algorithm>
#include <cmath>

namespace steerd::viewer {

void Camera::setViewport(float width, float height) {
  width_ = std::max(width, 1.0f);
  height_ = std::max(height, 1.0f);
}

void Camera::setScale(float pixelsPerMetre) {
  if (!std::isfinite(pixelsPerMetre)) return;
  scale_ = std::clamp(pixelsPerMetre, kMinScale, kMaxScale);
}

Point Camera::worldToScreen(Point world) const {
  return {width_ * 0.5f + (world.x - centre_.x) * scale_, height_ * 0.5f - (world.y - centre_.y) * scale_};
}

Point Camera::screenToWorld(Point screen) const {
  return {centre_.x + (screen.x - width_ * 0.5f) / scale_, centre_.y - (screen.y - height_ * 0.5f) / scale_};
}

void Camera::panPixels(float dx, float dy) {
  centre_.x -= dx / scale_;
  centre_.y += dy / scale_;
}

void Camera::zoomAt(Point screen, float factor) {
  if (!std::isfinite(factor) || factor <= 0.0f) return;
  const Point anchor = screenToWorld(screen);
  setScale(scale_ * factor);
  // Put the anchor back under the pointer at the new scale.
  centre_.x = anchor.x - (screen.x - width_ * 0.5f) / scale_;
  centre_.y = anchor.y + (screen.y - height_ * 0.5f) / scale_;
}

void Camera::fit(const WorldRect& world, float marginPixels) { fitInside(world, marginPixels, 0, 0, 0, 0); }

void Camera::fitInside(const WorldRect& world, float marginPixels, float left, float top, float right,
                       float bottom) {
  if (!std::isfinite(world.minX) || !std::isfinite(world.minY) || !std::isfinite(world.maxX) ||
      !std::isfinite(world.maxY)) {
    return;
  }
  // The free part of the viewport; insets that leave less than half of it are ignored.
  auto clear = [](float v) { return std::isfinite(v) ? std::max(v, 0.0f) : 0.0f; };
  left = clear(left), top = clear(top), right = clear(right), bottom = clear(bottom);
  if (left + right > width_ * 0.5f) left = right = 0.0f;
  if (top + bottom > height_ * 0.5f) top = bottom = 0.0f;
  const float freeW = width_ - left - right, freeH = height_ - top - bottom;
  if (world.valid()) {
    const float margin = std::clamp(marginPixels, 0.0f, std::min(freeW, freeH) * 0.25f);
    setScale(std::min((freeW - 2.0f * margin) / world.width(), (freeH - 2.0f * margin) / world.height()));
  }
  // Put the world's centre at the middle of the free part.
  const Point c = world.centre();
  centre_ = {c.x - (left + freeW * 0.5f - width_ * 0.5f) / scale_,
             c.y + (top + freeH * 0.5f - height_ * 0.5f) / scale_};
}

WorldRect Camera::visibleWorld() const {
  const Point a = screenToWorld({0.0f, height_});
  const Point b = screenToWorld({width_, 0.0f});
  return {a.x, a.y, b.x, b.y};
}

}  // namespace steerd::viewer
