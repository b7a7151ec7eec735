#include "viewer/palette.h"

#include <algorithm>
#include <array>

namespace steerd::viewer {

Rgba Rgba::shade(float t) const {
  const float k = std::clamp(t < 0 ? -t : t, 0.0f, 1.0f);
  const float to = t < 0 ? 0.0f : 255.0f;
  auto mix = [&](std::uint8_t c) { return static_cast<std::uint8_t>(c + (to - c) * k + 0.5f); };
  return {mix(r), mix(g), mix(b), a};
}

std::uint32_t Rgba::abgr() const {
  return static_cast<std::uint32_t>(r) | static_cast<std::uint32_t>(g) << 8 |
         static_cast<std::uint32_t>(b) << 16 | static_cast<std::uint32_t>(a) << 24;
}

namespace palette {

Rgba archetype(std::uint32_t index) {
  // Tableau 10, a little brighter for a dark background.
  static constexpr std::array<Rgba, 10> kColours{{
      {94, 145, 196},   // blue
      {247, 153, 66},   // orange
      {232, 97, 99},    // red
      {118, 196, 189},  // teal
      {102, 180, 90},   // green
      {240, 208, 86},   // yellow
      {186, 135, 175},  // purple
      {255, 166, 178},  // pink
      {172, 131, 107},  // brown
      {196, 188, 184},  // grey
  }};
  return kColours[index % kColours.size()];
}

Rgba behaviour(std::uint32_t index) {
  // The archetype colours, started further along so the first behaviour is not the boids' blue.
  return archetype(index + 1).shade(0.15f);
}

bool isPlayerArchetype(std::string_view name) { return name == "player"; }

}  // namespace palette

}  // namespace steerd::viewer
