#include "viewer/world_renderer.h"

#include <algorithm>
#include <cmath>

#include "viewer/palette.h"

namespace steerd::viewer {

namespace {

// A narrow dart pointing along `heading` (tip, right wing, shallow notch, left wing): longer than
// wide, so which end leads reads at a glance even when small.
void arrow(Canvas& canvas, Point at, float heading, float half, Rgba fill) {
  const Point f{std::cos(heading), -std::sin(heading)};  // screen y points down
  const Point s{-f.y, f.x};
  const Point tip = at + f * half;
  const Point back = at - f * (half * 0.8f);
  const Point right = back + s * (half * 0.55f);
  const Point left = back - s * (half * 0.55f);
  const Point notch = at - f * (half * 0.5f);
  canvas.triangle(tip, right, notch, fill);
  canvas.triangle(tip, notch, left, fill);
}

}  // namespace

float gridSpacing(float scale, float minPixels) {
  if (!(scale > 0.0f)) return 1.0f;
  const float minMetres = minPixels / scale;
  float decade = std::pow(10.0f, std::floor(std::log10(minMetres)));
  for (;;) {
    for (float m : {1.0f, 2.0f, 5.0f}) {
      if (decade * m >= minMetres) return decade * m;
    }
    decade *= 10.0f;
  }
}

float WorldRenderer::entityPixels(const Camera& camera) {
  return std::max(camera.metresToPixels(kEntityLengthMetres * 0.5f), kMinPixels * 0.5f);
}

void WorldRenderer::drawBackground(SDL_Renderer* renderer, const Camera& camera, const Scene& scene) {
  SDL_SetRenderDrawColor(renderer, palette::kBackground.r, palette::kBackground.g, palette::kBackground.b,
                         255);
  SDL_RenderClear(renderer);
  if (!scene.connected() || !scene.bounds.valid()) return;

  const WorldRect& b = scene.bounds;
  const Point lo = camera.worldToScreen({b.minX, b.maxY});  // top left on screen
  const Point hi = camera.worldToScreen({b.maxX, b.minY});
  canvas_.rect(lo, hi, palette::kWorld);

  // Grid: minor lines at least 14 px apart, a major line every fifth; clipped to what is seen.
  const float minor = gridSpacing(camera.scale(), 14.0f);
  const float major = minor * 5.0f;
  const WorldRect seen = camera.visibleWorld();
  const float x0 = std::max(b.minX, seen.minX), x1 = std::min(b.maxX, seen.maxX);
  const float y0 = std::max(b.minY, seen.minY), y1 = std::min(b.maxY, seen.maxY);
  if (x0 < x1 && y0 < y1) {
    for (float x = std::ceil(x0 / minor) * minor; x <= x1; x += minor) {
      const bool isMajor = std::abs(std::remainder(x, major)) < minor * 0.01f;
      const float sx = camera.worldToScreen({x, 0.0f}).x;
      canvas_.line({sx, std::max(lo.y, 0.0f)}, {sx, std::min(hi.y, camera.viewportHeight())}, 1.0f,
                   isMajor ? palette::kGridMajor : palette::kGridMinor);
    }
    for (float y = std::ceil(y0 / minor) * minor; y <= y1; y += minor) {
      const bool isMajor = std::abs(std::remainder(y, major)) < minor * 0.01f;
      const float sy = camera.worldToScreen({0.0f, y}).y;
      canvas_.line({std::max(lo.x, 0.0f), sy}, {std::min(hi.x, camera.viewportWidth()), sy}, 1.0f,
                   isMajor ? palette::kGridMajor : palette::kGridMinor);
    }
  }
  // The bounds, 2 px.
  canvas_.line(lo, {hi.x, lo.y}, 2.0f, palette::kBounds);
  canvas_.line({hi.x, lo.y}, hi, 2.0f, palette::kBounds);
  canvas_.line(hi, {lo.x, hi.y}, 2.0f, palette::kBounds);
  canvas_.line({lo.x, hi.y}, lo, 2.0f, palette::kBounds);
  canvas_.flush(renderer);
}

std::size_t WorldRenderer::drawEntities(SDL_Renderer* renderer, const Camera& camera, const Scene& scene) {
  const float half = entityPixels(camera);
  const float w = camera.viewportWidth(), h = camera.viewportHeight();
  // On a level with heights, higher bodies are drawn lighter and lower ones darker.
  float low = 0.0f, high = 0.0f;
  for (const client::EntityView& e : scene.sample.entities)
    low = std::min(low, e.z), high = std::max(high, e.z);
  const float range = high - low;
  const auto byHeight = [&](Rgba c, float z) {
    return range > 0.25f ? c.shade(0.9f * (z - low) / range - 0.45f) : c;
  };
  std::size_t drawn = 0;
  for (const client::EntityView& e : scene.sample.entities) {
    const Point p = camera.worldToScreen({e.x, e.y});
    if (p.x < -half || p.y < -half || p.x > w + half || p.y > h + half) continue;  // off screen
    ++drawn;
    if (e.id == scene.playerEntity()) {
      // Where the server has our player: a ring under the avatar (they part when inputs lag).
      canvas_.ring(p, half * 1.4f, std::max(1.5f, half * 0.25f), palette::kAvatarRing.withAlpha(150));
    } else if (scene.isPlayer(e)) {
      canvas_.disc(p, half * 0.9f, palette::kOtherPlayer.withAlpha(90));
      arrow(canvas_, p, e.heading, half * 1.3f, palette::kOtherPlayer);
    } else if (const auto byState = scene.states ? scene.states->colourOf(e.id) : std::nullopt) {
      arrow(canvas_, p, e.heading, half, byHeight(*byState, e.z));
    } else if (scene.states != nullptr) {
      // No state listed (no brain, or past the list's limit): dimmed, so the states stand out.
      arrow(canvas_, p, e.heading, half, palette::archetype(e.archetype).shade(-0.55f));
    } else {
      arrow(canvas_, p, e.heading, half, byHeight(palette::archetype(e.archetype), e.z));
    }
  }
  if (scene.selected) {
    if (auto i = scene.find(*scene.selected)) {
      const client::EntityView& e = scene.sample.entities[*i];
      canvas_.ring(camera.worldToScreen({e.x, e.y}), half * 2.0f + 3.0f, 2.0f, palette::kSelection);
    }
  }
  canvas_.flush(renderer);
  return drawn;
}

void WorldRenderer::drawAvatar(SDL_Renderer* renderer, const Camera& camera, const Scene& scene) {
  if (!scene.avatar) return;
  const float half = entityPixels(camera) * 1.4f;
  const Point p = camera.worldToScreen(scene.avatar->position);
  canvas_.disc(p, half * 1.9f, palette::kAvatarRing.withAlpha(45), 28);
  canvas_.ring(p, half * 1.9f, 2.0f, palette::kAvatarRing, 32);
  canvas_.disc(p, half * 0.75f, palette::kAvatar, 20);
  const Point v = scene.avatar->velocity;
  if (length(v) > 0.05f) {
    const float heading = std::atan2(v.y, v.x);
    const Point f{std::cos(heading), -std::sin(heading)};
    const Point s{-f.y, f.x};
    const Point tip = p + f * (half * 1.7f);
    const Point base = p + f * (half * 0.9f);
    canvas_.triangle(tip, base + s * (half * 0.5f), base - s * (half * 0.5f), palette::kAvatar);
  }
  canvas_.flush(renderer);
}

}  // namespace steerd::viewer
