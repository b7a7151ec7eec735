// Colours: the background, the world, the archetypes (Tableau 10, which stays distinguishable on
// a dark background and for most colour-blind viewers), players and overlays.
#pragma once

#include <cstdint>
#include <string_view>

namespace steerd::viewer {

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;

  Rgba withAlpha(std::uint8_t alpha) const { return {r, g, b, alpha}; }
  // Mixes towards white (t > 0) or black (t < 0) by |t| in [0, 1].
  Rgba shade(float t) const;
  std::uint32_t abgr() const;  // ImGui's IM_COL32 layout
  friend bool operator==(Rgba, Rgba) = default;
};

namespace palette {

inline constexpr Rgba kBackground{22, 25, 32};
inline constexpr Rgba kWorld{32, 37, 47};
inline constexpr Rgba kGridMinor{40, 46, 58};
inline constexpr Rgba kGridMajor{52, 60, 75};
inline constexpr Rgba kBounds{120, 132, 156};
inline constexpr Rgba kAvatar{255, 255, 255};     // the local player
inline constexpr Rgba kAvatarRing{255, 214, 10};  // its halo
inline constexpr Rgba kOtherPlayer{0, 229, 255};  // other clients' players
inline constexpr Rgba kSelection{255, 255, 255};
inline constexpr Rgba kVelocity{255, 255, 255, 150};
inline constexpr Rgba kGhost{255, 80, 200, 170};
inline constexpr Rgba kText{225, 230, 240};
// The static scene.
inline constexpr Rgba kNavFill{86, 140, 190, 34};
inline constexpr Rgba kNavEdge{110, 160, 210, 70};
inline constexpr Rgba kPath{214, 196, 120, 170};
inline constexpr Rgba kObstacle{88, 96, 112};
inline constexpr Rgba kObstacleEdge{150, 160, 180};
inline constexpr Rgba kWall{205, 210, 222};
inline constexpr Rgba kDoorShut{196, 92, 60};         // a shut door's rectangle, filled
inline constexpr Rgba kDoorOpen{120, 196, 120};       // an open door's rectangle, dashed
inline constexpr Rgba kCarving{150, 118, 84};         // a barricade that carves the navmesh
inline constexpr Rgba kInterest{120, 220, 140, 150};  // the area-of-interest circle
// The selected agent's debug overlays.
inline constexpr Rgba kCombinedForce{255, 255, 255};
inline constexpr Rgba kSensor{150, 200, 255, 120};  // neighbour radius, detection box, feelers
inline constexpr Rgba kSense{255, 210, 120, 110};   // a brain's sense: its reach and field of view
inline constexpr Rgba kSeen{120, 240, 160, 220};    // a line of sight to an agent it sees
inline constexpr Rgba kUnseen{255, 110, 110, 170};  // in reach and view, but behind something
inline constexpr Rgba kTarget{255, 110, 110, 200};
inline constexpr Rgba kGoal{120, 240, 160, 210};
inline constexpr Rgba kCorridor{255, 200, 80, 235};  // the leg it is on; the rest dimmer
inline constexpr Rgba kContextInterest{90, 230, 120, 200};
inline constexpr Rgba kContextDanger{255, 80, 80, 200};
inline constexpr Rgba kContextChosen{255, 255, 255, 240};

// The colour of archetype number `index` (its position in Accept's list).
Rgba archetype(std::uint32_t index);
// The colour of the selected agent's behaviour number `index` (force arrows and inspector bars).
Rgba behaviour(std::uint32_t index);

// True for the archetype names the server gives player bodies.
bool isPlayerArchetype(std::string_view name);

}  // namespace palette

}  // namespace steerd::viewer
