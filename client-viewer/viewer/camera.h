// The view onto the world: which world point sits at the middle of the window and how many screen
// pixels one metre takes. World y points up, screen y points down; screen units are the window's
// logical pixels (the renderer's scale maps them to the drawable on high-DPI screens).
#pragma once

#include "viewer/geometry.h"

namespace steerd::viewer {

class Camera {
 public:
  static constexpr float kMinScale = 0.005f;  // px per m: a 200 km world fits 1000 px
  static constexpr float kMaxScale = 400.0f;  // px per m: a 1 m body fills the window

  void setViewport(float width, float height);
  float viewportWidth() const { return width_; }
  float viewportHeight() const { return height_; }

  Point centre() const { return centre_; }
  float scale() const { return scale_; }
  void setCentre(Point world) { centre_ = world; }
  void setScale(float pixelsPerMetre);  // clamped to [kMinScale, kMaxScale]

  Point worldToScreen(Point world) const;
  Point screenToWorld(Point screen) const;
  float metresToPixels(float metres) const { return metres * scale_; }

  // Moves the view by a drag of (dx, dy) screen pixels: the world follows the pointer.
  void panPixels(float dx, float dy);
  // Multiplies the scale by `factor`, keeping the world point under `screen` where it is.
  void zoomAt(Point screen, float factor);
  // Centres `world` and picks the largest scale that shows all of it with `marginPixels` to spare
  // on every side. An empty or invalid rectangle only moves the centre.
  void fit(const WorldRect& world, float marginPixels);
  // The same, into the part of the viewport left when `left`, `top`, `right` and `bottom` pixels
  // are kept clear (for panels); the world's centre goes to the middle of that part.
  void fitInside(const WorldRect& world, float marginPixels, float left, float top, float right,
                 float bottom);
  // The world rectangle the viewport shows now.
  WorldRect visibleWorld() const;

 private:
  float width_ = 1.0f, height_ = 1.0f;
  Point centre_{};
  float scale_ = 1.0f;
};

}  // namespace steerd::viewer
