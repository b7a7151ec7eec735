// Between control.proto's Point and the steering library's Vec2.
#pragma once

#include "proto/control.pb.h"
#include "steering/vec2.h"

namespace steerd::control {

inline steer::Vec2 vecOf(const Point& p) { return {p.x(), p.y()}; }

inline void setPoint(Point* out, steer::Vec2 v) {
  out->set_x(v.x);
  out->set_y(v.y);
}

}  // namespace steerd::control
