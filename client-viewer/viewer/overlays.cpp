#include "viewer/overlays.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

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
