#include "viewer/overlays.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>

#include "proto/snapshot_codec.h"
#include "viewer/palette.h"
#include "viewer/world_renderer.h"

namespace steerd::viewer {

void Overlays::drawGhosts(SDL_Renderer* renderer, const Camera& camera, const Scene& scene,
                          const OverlaySettings& settings) {
  const float half = WorldRenderer::entityPixels(camera);
  if (settings.ghosts && scene.newest != nullptr) {
    // The newest snapshot as it arrived: an outline arrow at its quantised position, tied to
    // the interpolated entity by a thin line.
    std::size_t j = 0;
    const auto& now = scene.sample.entities;
    for (const wire::EntityState& raw : scene.newest->entities) {
      const Point world{wire::positionMetres(raw.x), wire::positionMetres(raw.y)};
      const Point p = camera.worldToScreen(world);
      if (p.x < -half || p.y < -half || p.x > camera.viewportWidth() + half ||
          p.y > camera.viewportHeight() + half) {
        continue;
      }
      const float heading = wire::headingRadians(raw.heading);
      const Point f{std::cos(heading), -std::sin(heading)};
      const Point s{-f.y, f.x};
      const Point tip = p + f * half, back = p - f * (half * 0.8f);
      const Point right = back + s * (half * 0.55f), left = back - s * (half * 0.55f);
      canvas_.line(tip, right, 1.2f, palette::kGhost);
      canvas_.line(right, left, 1.2f, palette::kGhost);
      canvas_.line(left, tip, 1.2f, palette::kGhost);
      while (j < now.size() && now[j].id < raw.id) ++j;
      if (j < now.size() && now[j].id == raw.id) {
        canvas_.line(camera.worldToScreen({now[j].x, now[j].y}), p, 1.0f, palette::kGhost.withAlpha(90));
      }
    }
  }
  canvas_.flush(renderer);
}

void Overlays::drawSelection(SDL_Renderer* renderer, const Camera& camera, const Scene& scene,
                             const OverlaySettings& settings) {
  const wire::DebugInfo* d = scene.selectedDebug();
  if (d == nullptr || !(settings.forces || settings.target || settings.sensors)) return;
  const auto index = scene.find(d->agent_id());
  const Point at =
      index ? Point{scene.sample.entities[*index].x, scene.sample.entities[*index].y} : Point{d->x(), d->y()};
  const Point s = camera.worldToScreen(at);
  if (settings.sensors) {
    if (d->neighbour_radius() > 0.0f) {
      const float r = camera.metresToPixels(d->neighbour_radius());
      canvas_.ring(s, r, 1.0f, palette::kSensor, std::clamp(static_cast<int>(r * 0.4f), 24, 96));
    }
    // The detection box ahead, as wide as the body, along the heading the server used.
    const Point h{d->heading_x(), d->heading_y()};
    if (d->detection_box_length() > 0.0f && length(h) > 0.5f) {
      const Point side{-h.y * d->radius(), h.x * d->radius()};
      const Point tip = at + h * d->detection_box_length();
      const Point c[4] = {camera.worldToScreen(at + side), camera.worldToScreen(tip + side),
                          camera.worldToScreen(tip - side), camera.worldToScreen(at - side)};
      canvas_.quad(c[0], c[1], c[2], c[3], palette::kSensor.withAlpha(30));
      for (int k = 0; k < 4; ++k) canvas_.line(c[k], c[(k + 1) % 4], 1.0f, palette::kSensor);
    }
    for (int k = 0; k < d->feeler_x_size() && k < d->feeler_y_size(); ++k) {
      const Point tip = camera.worldToScreen(at + Point{d->feeler_x(k), d->feeler_y(k)});
      canvas_.line(s, tip, 1.2f, palette::kSensor.withAlpha(200));
      canvas_.disc(tip, 2.0f, palette::kSensor.withAlpha(220), 8);
    }
    drawSenses(camera, *d, at);
  }
  if (settings.target) {
    if (d->target_id() >= 0) {
      if (auto t = scene.find(static_cast<std::uint32_t>(d->target_id()))) {
        const Point p = camera.worldToScreen({scene.sample.entities[*t].x, scene.sample.entities[*t].y});
        canvas_.dashedLine(s, p, 1.5f, 6.0f, 4.0f, palette::kTarget);
        canvas_.ring(p, WorldRenderer::entityPixels(camera) * 1.8f, 2.0f, palette::kTarget);
      }
    }
    if (d->has_goal()) {
      const Point g = camera.worldToScreen({d->goal_x(), d->goal_y()});
      canvas_.dashedLine(s, g, 1.2f, 3.0f, 4.0f, palette::kGoal);
      canvas_.line(g - Point{5, 5}, g + Point{5, 5}, 2.0f, palette::kGoal);
      canvas_.line(g - Point{5, -5}, g + Point{5, -5}, 2.0f, palette::kGoal);
    }
  }
  if (settings.forces && d->forces_known() && d->max_force() > 0.0f) {
    // Screen y points down: a world force (x, y) is (x, -y) on screen.
    const float k = kMaxForcePixels / d->max_force();
    for (int b = 0; b < d->behaviours_size(); ++b) {
      const wire::DebugBehaviour& w = d->behaviours(b);
      if (!w.evaluated()) continue;
      const Point f{w.force_x() * w.weight() * k, -w.force_y() * w.weight() * k};
      canvas_.arrow(s, s + f, 2.0f, 8.0f, palette::behaviour(static_cast<std::uint32_t>(b)));
    }
    const Point f{d->force_x() * k, -d->force_y() * k};
    canvas_.arrow(s, s + f, 3.0f, 11.0f, palette::kCombinedForce);
  }
  canvas_.flush(renderer);
}

// A brain's senses: each one's reach as an arc over its field of view (a ring when all round) with
// the cone's edges, and a line of sight to each agent in it: solid green when it sees it, dashed
// red when an obstacle or wall is in the way.
void Overlays::drawSenses(const Camera& camera, const wire::DebugInfo& d, Point at) {
  const Point s = camera.worldToScreen(at);
  const float facing = std::atan2(d.heading_y(), d.heading_x());
  for (const wire::DebugSense& sense : d.senses()) {
    if (!(sense.range() > 0.0f) || !std::isfinite(sense.range())) continue;
    const float half = std::clamp(sense.fov_deg(), 0.0f, 360.0f) * 0.5f * std::numbers::pi_v<float> / 180.0f;
    const int segments = 48;
    Point last{};
    for (int k = 0; k <= segments; ++k) {
      const float a = facing - half + 2.0f * half * static_cast<float>(k) / segments;
      const Point p = camera.worldToScreen(at + Point{std::cos(a), std::sin(a)} * sense.range());
      if (k > 0) canvas_.line(last, p, 1.2f, palette::kSense);
      if ((k == 0 || k == segments) && half < std::numbers::pi_v<float>)
        canvas_.line(s, p, 1.0f, palette::kSense);
      last = p;
    }
    const int n =
        std::min({sense.agent_id_size(), sense.agent_x_size(), sense.agent_y_size(), sense.visible_size()});
    for (int k = 0; k < n; ++k) {
      const Point p = camera.worldToScreen({sense.agent_x(k), sense.agent_y(k)});
      if (sense.visible(k)) {
        canvas_.line(s, p, 1.5f, palette::kSeen);
      } else {
        canvas_.dashedLine(s, p, 1.2f, 4.0f, 4.0f, palette::kUnseen);
      }
    }
  }
}

void Overlays::drawNavigation(SDL_Renderer* renderer, const Camera& camera, const Scene& scene,
                              const OverlaySettings& settings) {
  const wire::DebugInfo* d = scene.selectedDebug();
  if (d == nullptr || !(settings.corridor || settings.context)) return;
  const auto index = scene.find(d->agent_id());
  const Point at =
      index ? Point{scene.sample.entities[*index].x, scene.sample.entities[*index].y} : Point{d->x(), d->y()};
  const Point s = camera.worldToScreen(at);
  if (settings.corridor && d->navigating()) {
    const int n = std::min(d->corridor_x_size(), d->corridor_y_size());
    const int current = static_cast<int>(d->corridor_corner());
    Point previous = s;
    for (int k = 0; k < n; ++k) {
      const Point p = camera.worldToScreen({d->corridor_x(k), d->corridor_y(k)});
      if (k < current) {
        // Behind it: the corner it passed last, faint.
        if (k + 1 == current) canvas_.line(p, s, 1.0f, palette::kCorridor.withAlpha(70));
        canvas_.disc(p, 2.5f, palette::kCorridor.withAlpha(90), 10);
        continue;
      }
      const bool leg = k == current;
      canvas_.line(previous, p, leg ? 3.0f : 1.5f, palette::kCorridor.withAlpha(leg ? 235 : 130));
      canvas_.disc(p, leg ? 4.5f : 3.0f, palette::kCorridor.withAlpha(leg ? 235 : 150), 12);
      previous = p;
    }
    if (d->nav_has_goal()) {
      const Point g = camera.worldToScreen({d->nav_goal_x(), d->nav_goal_y()});
      canvas_.ring(g, 7.0f, 2.0f, palette::kCorridor, 20);
    }
    if (d->nav_waiting())
      canvas_.ring(s, WorldRenderer::entityPixels(camera) * 2.2f, 1.0f, palette::kCorridor, 20);
  }
  if (settings.corridor && d->path_id() >= 0 && d->path_waypoint() >= 0 && scene.geometry != nullptr &&
      static_cast<std::size_t>(d->path_id()) < scene.geometry->paths.size()) {
    // The path itself is the scene's; mark the waypoint it steers to and the way there.
    const auto& points = scene.geometry->paths[static_cast<std::size_t>(d->path_id())].points;
    if (static_cast<std::size_t>(d->path_waypoint()) < points.size()) {
      const auto& w = points[static_cast<std::size_t>(d->path_waypoint())];
      const Point p = camera.worldToScreen({w.x, w.y});
      canvas_.line(s, p, 2.0f, palette::kCorridor.withAlpha(200));
      canvas_.ring(p, 8.0f, 2.5f, palette::kCorridor, 24);
    }
  }
  const int slots = static_cast<int>(std::min(d->context_interest().size(), d->context_danger().size()));
  if (settings.context && slots > 0) {
    const float base = WorldRenderer::entityPixels(camera) * 1.2f;
    for (int i = 0; i < slots; ++i) {
      const float angle = 2.0f * 3.14159265f * static_cast<float>(i) / static_cast<float>(slots);
      // Screen y points down.
      const Point u{std::cos(angle), -std::sin(angle)};
      const Point side{-u.y, u.x};
      const auto value = [](const std::string& bytes, int k) {
        return static_cast<float>(static_cast<std::uint8_t>(bytes[static_cast<std::size_t>(k)])) / 255.0f;
      };
      const float interest = value(d->context_interest(), i);
      const float danger = value(d->context_danger(), i);
      const Point from = s + u * base;
      // Interest and danger side by side along the slot's direction, so both stay visible.
      if (interest > 0.0f) {
        canvas_.line(from + side * 1.5f, from + side * 1.5f + u * (interest * kContextPixels), 2.0f,
                     palette::kContextInterest);
      }
      if (danger > 0.0f) {
        canvas_.line(from - side * 1.5f, from - side * 1.5f + u * (danger * kContextPixels), 2.0f,
                     palette::kContextDanger);
      }
      if (i == d->context_slot()) {
        canvas_.arrow(s, s + u * (base + kContextPixels + 8.0f), 2.5f, 9.0f, palette::kContextChosen);
      }
    }
    canvas_.ring(s, base + kContextPixels, 1.0f, palette::kContextInterest.withAlpha(50), 48);
  }
  canvas_.flush(renderer);
}

void Overlays::drawInterest(SDL_Renderer* renderer, const Camera& camera, const Scene& scene,
                            const OverlaySettings& settings) {
  if (!settings.interest || !interestLimited(scene)) return;
  std::optional<Point> centre;
  if (auto i = scene.find(scene.playerEntity())) {
    centre = Point{scene.sample.entities[*i].x, scene.sample.entities[*i].y};
  } else if (scene.avatar) {
    centre = scene.avatar->position;
  }
  if (!centre) return;
  const float r = camera.metresToPixels(scene.server->interestRadius);
  const int segments = std::clamp(static_cast<int>(r * 0.3f), 32, 180);
  const Point c = camera.worldToScreen(*centre);
  canvas_.disc(c, r, palette::kInterest.withAlpha(14), segments);
  canvas_.ring(c, r, 2.0f, palette::kInterest, segments);
  canvas_.flush(renderer);
}

void Overlays::drawVelocities(SDL_Renderer* renderer, const Camera& camera, const Scene& scene,
                              const OverlaySettings& settings) {
  if (settings.velocity) {
    for (std::size_t i = 0; i < scene.sample.entities.size() && i < scene.motion.size(); ++i) {
      if (!scene.motion[i].known) continue;
      const client::EntityView& e = scene.sample.entities[i];
      const Point from = camera.worldToScreen({e.x, e.y});
      const Point to = camera.worldToScreen(Point{e.x, e.y} + scene.motion[i].velocity * kVelocitySeconds);
      if (length(to - from) < 1.0f) continue;
      canvas_.line(from, to, 1.5f, palette::kVelocity);
    }
    if (scene.avatar) {
      const Point from = camera.worldToScreen(scene.avatar->position);
      const Point to =
          camera.worldToScreen(scene.avatar->position + scene.avatar->velocity * kVelocitySeconds);
      canvas_.line(from, to, 2.0f, palette::kAvatarRing);
    }
  }
  canvas_.flush(renderer);
}

void Overlays::drawLabels(ImDrawList* list, const Camera& camera, const Scene& scene,
                          const OverlaySettings& settings) {
  if (!settings.ids || list == nullptr) return;
  const float w = camera.viewportWidth(), h = camera.viewportHeight();
  std::size_t onScreen = 0;
  for (const client::EntityView& e : scene.sample.entities) {
    const Point p = camera.worldToScreen({e.x, e.y});
    if (p.x >= 0 && p.y >= 0 && p.x <= w && p.y <= h) ++onScreen;
  }
  if (onScreen > kMaxLabels) return;
  const float half = WorldRenderer::entityPixels(camera);
  char text[16];
  for (const client::EntityView& e : scene.sample.entities) {
    const Point p = camera.worldToScreen({e.x, e.y});
    if (p.x < 0 || p.y < 0 || p.x > w || p.y > h) continue;
    std::snprintf(text, sizeof text, "%u", e.id);
    list->AddText(ImVec2(p.x + half + 2.0f, p.y - 7.0f), palette::kText.withAlpha(200).abgr(), text);
  }
}

}  // namespace steerd::viewer
