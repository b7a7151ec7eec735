// The movement model's worked examples (docs/PROTOCOL.md, "The movement model"): each example's
// inputs go through stepPlayer (and, substep by substep, through the functions it is made of) and
// through a straight transcription of the document's equations written here in plain float maths,
// calling nothing of the project's. Both must give the document's tables, to the 6 decimals they
// print, and the same bits as each other; and the document's text (read from the source tree)
// must hold those rows, as the transcription formats them. So the text, the transcription and the
// code cannot drift apart: change one and this fails.
//
// Run with STEERD_PRINT_WORKED_EXAMPLE=1 to print the document's lines (after a deliberate change
// of the model, to update the document and the tables here).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "movement/player_motion.h"
#include "steering/locomotion.h"
#include "steering/velocity_matching.h"

namespace steerd::movement {
namespace {

// --- The document's equations, transcribed (plain floats; nothing of steerd's) -----------------
namespace doc {

struct V {
  float x = 0.0f, y = 0.0f;
};
V operator+(V a, V b) { return {a.x + b.x, a.y + b.y}; }
V operator-(V a, V b) { return {a.x - b.x, a.y - b.y}; }
V operator*(V a, float s) { return {a.x * s, a.y * s}; }
V operator/(V a, float s) { return {a.x / s, a.y / s}; }
float dot(V a, V b) { return a.x * b.x + a.y * b.y; }
float len(V a) { return std::sqrt(dot(a, a)); }
bool finite(V a) { return std::isfinite(a.x) && std::isfinite(a.y); }
V finiteOrZero(V a) { return finite(a) ? a : V{}; }
// truncate(u, m): u when |u|^2 <= m^2, else u * (m / |u|); zero when m is not > 0.
V truncate(V u, float m) {
  if (!(m > 0.0f)) return {};
  const float l2 = dot(u, u);
  return l2 <= m * m ? u : u * (m / std::sqrt(l2));
}

struct Circle {
  V c;
  float R;
};
struct Wall {
  V a, b;
};
struct Scene {
  float minX, minY, maxX, maxY;
  std::vector<Circle> circles;
  std::vector<Wall> walls;
  bool bounded() const { return minX < maxX && minY < maxY; }
};
struct Limits {
  float r, m, S, Fmax, w;  // radius, mass, max speed, max force, max turn rate
};

// The grid that says which shapes a lookup tests.
struct Cells {
  int x0, y0, x1, y1;
};
struct Grid {
  bool on = false;
  float cell = 8.0f;
  int cols = 0, rows = 0;
};
Grid gridOf(const Scene& s) {
  Grid g;
  g.on = s.bounded() && !(s.circles.empty() && s.walls.empty());
  if (!g.on) return g;
  g.cell = std::max(8.0f, std::max(s.maxX - s.minX, s.maxY - s.minY) / 4096.0f);
  g.cols = std::max(1, static_cast<int>(std::ceil((s.maxX - s.minX) / g.cell)));
  g.rows = std::max(1, static_cast<int>(std::ceil((s.maxY - s.minY) / g.cell)));
  return g;
}
int cellOf(float u, int n) {
  if (!(u >= 0.0f)) return 0;
  if (u >= static_cast<float>(n - 1)) return n - 1;
  return static_cast<int>(std::floor(u));
}
Cells cellsOf(const Scene& s, const Grid& g, float lx, float ly, float hx, float hy) {
  return {cellOf((lx - s.minX) / g.cell, g.cols), cellOf((ly - s.minY) / g.cell, g.rows),
          cellOf((hx - s.minX) / g.cell, g.cols), cellOf((hy - s.minY) / g.cell, g.rows)};
}
bool overlap(Cells a, Cells b) { return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1; }
// The circles and the walls a lookup at p with reach `reach` tests, each in ascending index order.
void nearby(const Scene& s, V p, float reach, std::vector<int>& circles, std::vector<int>& walls) {
  circles.clear();
  walls.clear();
  const Grid g = gridOf(s);
  const Cells q = g.on ? cellsOf(s, g, p.x - reach, p.y - reach, p.x + reach, p.y + reach) : Cells{};
  for (int i = 0; i < static_cast<int>(s.circles.size()); ++i) {
    const Circle& c = s.circles[i];
    if (!g.on || overlap(q, cellsOf(s, g, c.c.x - c.R, c.c.y - c.R, c.c.x + c.R, c.c.y + c.R)))
      circles.push_back(i);
  }
  for (int j = 0; j < static_cast<int>(s.walls.size()); ++j) {
    const Wall& w = s.walls[j];
    if (!g.on || overlap(q, cellsOf(s, g, std::min(w.a.x, w.b.x), std::min(w.a.y, w.b.y),
                                    std::max(w.a.x, w.b.x), std::max(w.a.y, w.b.y))))
      walls.push_back(j);
  }
}

// nearest(p, a, b): the point of segment [a, b] nearest to p.
V nearest(V p, V a, V b) {
  const V ab = b - a;
  const float l2 = dot(ab, ab);
  if (!(l2 > 0.0f)) return a;
  const float t = dot(p - a, ab) / l2;
  return a + ab * (t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t));
}
// slide(v, n): v less its part into the surface whose outward normal is n.
V slide(V v, V n) {
  const float into = dot(v, n);
  return into < 0.0f ? v - n * into : v;
}

struct State {
  V p, v;
};

// What one push-out pass did: the position after the circles and after the walls, and the
// velocity after the walls (the document's pass table).
struct Pass {
  V afterCircles, afterWalls, velocityAfterWalls;
};

State pushOut(State s, const Limits& L, const Scene& scene, std::vector<Pass>* passes) {
  const float r = std::max(L.r, 0.0f);
  std::vector<int> circles, walls;
  for (int pass = 0; pass < 3; ++pass) {
    bool touched = false;
    nearby(scene, s.p, r, circles, walls);
    for (const int i : circles) {
      const Circle& c = scene.circles[i];
      const float reach = c.R + r;
      const V d = s.p - c.c;
      const float d2 = dot(d, d);
      if (!(d2 < reach * reach)) continue;
      const float dist = std::sqrt(d2);
      const V n = dist > 1e-6f ? d / dist : V{1.0f, 0.0f};
      s.p = c.c + n * reach;
      s.v = slide(s.v, n);
      touched = true;
    }
    const V afterCircles = s.p;
    for (const int j : walls) {
      const Wall& w = scene.walls[j];
      const V k = nearest(s.p, w.a, w.b);
      const V d = s.p - k;
      const float d2 = dot(d, d);
      if (!(d2 < r * r)) continue;
      const float dist = std::sqrt(d2);
      V n;
      if (dist > 1e-6f) {
        n = d / dist;
      } else {
        const V ab = w.b - w.a;
        const float l = len(ab);
        const V t = l > 1e-6f ? ab / l : V{1.0f, 0.0f};
        n = {-t.y, t.x};
      }
      s.p = k + n * r;
      s.v = slide(s.v, n);
      touched = true;
    }
    if (touched) passes->push_back({afterCircles, s.p, s.v});
    if (scene.bounded()) {
      auto clampAxis = [&](float& p, float& v, float lo, float hi) {
        if (lo > hi) lo = hi = (lo + hi) * 0.5f;
        if (p < lo) {
          p = lo;
          v = std::max(v, 0.0f);
          touched = true;
        } else if (p > hi) {
          p = hi;
          v = std::min(v, 0.0f);
          touched = true;
        }
      };
      clampAxis(s.p.x, s.v.x, scene.minX + r, scene.maxX - r);
      clampAxis(s.p.y, s.v.y, scene.minY + r, scene.maxY - r);
    }
    if (!touched) break;
  }
  return s;
}

bool clear(V p, float radius, const Scene& scene) {
  const float r = std::max(radius, 0.0f);
  std::vector<int> circles, walls;
  nearby(scene, p, r, circles, walls);
  for (const int i : circles) {
    const Circle& c = scene.circles[i];
    const float reach = c.R + r - 1e-4f;
    const V d = p - c.c;
    if (reach > 0.0f && dot(d, d) < reach * reach) return false;
  }
  for (const int j : walls) {
    const Wall& w = scene.walls[j];
    const float reach = r - 1e-4f;
    const V d = p - nearest(p, w.a, w.b);
    if (reach > 0.0f && dot(d, d) < reach * reach) return false;
  }
  return true;
}

float cross(V a, V b) { return a.x * b.y - a.y * b.x; }
bool segmentsCross(V a, V b, V c, V d) {
  const float d1 = cross(b - a, c - a), d2 = cross(b - a, d - a);
  const float d3 = cross(d - c, a - c), d4 = cross(d - c, b - c);
  const bool straddles1 = (d1 > 0.0f) != (d2 > 0.0f) || d1 == 0.0f || d2 == 0.0f;
  const bool straddles2 = (d3 > 0.0f) != (d4 > 0.0f) || d3 == 0.0f || d4 == 0.0f;
  return straddles1 && straddles2 && !(d1 == 0.0f && d2 == 0.0f);
}

bool blocked(V from, V to, float radius, const Scene& scene) {
  if (!clear(to, radius, scene)) return true;
  std::vector<int> circles, walls;
  nearby(scene, from, len(from - to), circles, walls);
  for (const int i : circles) {
    const Circle& c = scene.circles[i];
    const V d = c.c - nearest(c.c, from, to);
    if (dot(d, d) < c.R * c.R) return true;
  }
  for (const int j : walls) {
    if (segmentsCross(from, to, scene.walls[j].a, scene.walls[j].b)) return true;
  }
  return false;
}

// One substep's numbers, as the document's tables show them.
struct Row {
  V force, velocity, moved, pushed, slid;  // f; u after the limits; p + u h; after the push-out
  std::vector<Pass> passes;                // the push-out's passes that touched a shape
  bool blocked = false;
  State end;
};

struct Result {
  int substeps = 0;
  float h = 0.0f, cosMax = 0.0f, sinMax = 0.0f;
  std::vector<Row> rows;
  State end;
};

Result step(State s, V move, float dt, const Limits& L, const Scene& scene) {
  Result out;
  out.end = s;
  // 0. No step.
  if (!(dt > 0.0f) || !std::isfinite(dt) || !finite(s.p) || !finite(s.v)) return out;
  // 1. Move.
  if (!finite(move)) move = {};
  const float m2 = dot(move, move);
  if (m2 > 1.0f) move = move / std::sqrt(m2);
  const float S = std::isfinite(L.S) ? std::max(L.S, 0.0f) : 0.0f;
  // 2. Substeps.
  float n = std::ceil(dt / 0.05f);
  if (L.r > 0.0f) n = std::max(n, std::ceil(S * dt / (0.5f * L.r)));
  n = std::min(std::max(n, 1.0f), 64.0f);
  out.substeps = static_cast<int>(n);
  const float h = dt / n;
  out.h = h;
  // 3. Turn limit.
  const float theta = L.w * h;
  const bool turnLimit = L.w >= 0.0f && theta < 3.14159265358979323846f;
  const float c = turnLimit ? std::cos(theta) : -1.0f;
  const float sn = turnLimit ? std::sin(theta) : 0.0f;
  out.cosMax = c;
  out.sinMax = sn;
  const float pivot = std::max(1e-6f, 0.05f * (std::isfinite(L.S) ? L.S : 0.0f));
  const V target = move * S;
  const float T = 0.1f;
  const float Fmax = std::max(L.Fmax, 0.0f), mass = std::max(L.m, 0.0f);
  for (int k = 0; k < out.substeps; ++k) {
    Row row;
    // 4. Force.
    const V g = target - s.v;
    const float gl = len(g);
    V F;
    if (gl * mass >= Fmax * T) {
      F = (gl > 1e-6f ? g / gl : V{}) * Fmax;
    } else {
      F = g * (mass / T);
    }
    row.force = F;
    // Velocity.
    V a{};
    if (L.m > 0.0f && std::isfinite(L.m)) a = finiteOrZero(truncate(finiteOrZero(F), L.Fmax) / L.m);
    V u = truncate(finiteOrZero(s.v + a * h), L.S);
    const float speed = len(s.v);
    if (turnLimit && speed > pivot) {  // turn
      const V e = s.v / speed;
      const float su = len(u);
      const V d = u / su;
      if (su > 1e-6f && dot(e, d) < c) {
        const float side = cross(e, d) < 0.0f ? -sn : sn;
        u = V{e.x * c - e.y * side, e.x * side + e.y * c} * su;
      }
    }
    u = finiteOrZero(u);
    row.velocity = u;
    // Position and contacts.
    const State moved{s.p + u * h, u};
    row.moved = moved.p;
    const State pushed = pushOut(moved, L, scene, &row.passes);
    row.pushed = pushed.p;
    row.slid = pushed.v;
    // Blocked.
    row.blocked = blocked(s.p, pushed.p, L.r, scene) && clear(s.p, L.r, scene);
    if (row.blocked) {
      s.v = {};
    } else {
      s = pushed;
    }
    row.end = s;
    out.rows.push_back(row);
  }
  out.end = s;
  return out;
}

}  // namespace doc

// --- The examples -------------------------------------------------------------------------------

// The default player archetype (world/archetype.h, playerArchetype()).
constexpr doc::Limits kLimits{0.5f, 1.0f, 8.0f, 40.0f, 4.0f * 3.14159265358979323846f};

steer::BodyLimits bodyLimits() {
  steer::BodyLimits l;
  l.radius = kLimits.r;
  l.mass = kLimits.m;
  l.maxSpeed = kLimits.S;
  l.maxForce = kLimits.Fmax;
  l.maxTurnRate = kLimits.w;
  return l;
}

// The scene of the examples: bounds (0, 0) to (40, 40), two rocks and two walls.
doc::Scene docScene() {
  return {0, 0, 40, 40, {{{20, 10}, 1.0f}, {{31.5f, 28}, 1.0f}}, {{{12, 4}, {12, 16}}, {{30, 20}, {30, 36}}}};
}
CollisionScene codeScene() {
  const doc::Scene d = docScene();
  std::vector<Circle> circles;
  for (const auto& c : d.circles) circles.push_back({{c.c.x, c.c.y}, c.R});
  std::vector<Segment> walls;
  for (const auto& w : d.walls) walls.push_back({{w.a.x, w.a.y}, {w.b.x, w.b.y}});
  return CollisionScene(d.minX, d.minY, d.maxX, d.maxY, std::move(circles), std::move(walls));
}

// One substep's row of a document table: the force, the velocity after the limits, p + u h, and
// the position and velocity after the push-out; whether the substep was blocked.
struct TableRow {
  std::array<double, 2> force, velocity, moved, pushed, slid;
  bool blocked;
};

struct Example {
  const char* name;
  doc::State start;
  doc::V move;
  float dt;
  std::array<TableRow, 2> rows;
  std::array<std::uint32_t, 4> endBits;  // position x, y and velocity x, y, as IEEE binary32
};

// docs/PROTOCOL.md, "Worked examples": the inputs and the tables, as printed there.
const std::array<Example, 4> kExamples{{
    {"1. open ground, turning",
     {{10, 10}, {1, 0}},
     {0, 1},
     1.0f / 30.0f,
     {{{{-4.961390, 39.691116},
        {1.106243, 0.235139},
        {10.018437, 10.003919},
        {10.018437, 10.003919},
        {1.106243, 0.235139},
        false},
       {{-5.641747, 39.600136},
        {1.234421, 0.549600},
        {10.039011, 10.013079},
        {10.039011, 10.013079},
        {1.234421, 0.549600},
        false}}},
     {0x41209fca, 0x41203592, 0x3f9e0186, 0x3f0cb294}},
    {"2. into the wall, sliding",
     {{11.4f, 10}, {6, 0}},
     {0.8f, 0.6f},
     1.0f / 30.0f,
     {{{{3.321820, 39.861832},
        {6.055364, 0.664364},
        {11.500922, 10.011073},
        {11.500000, 10.011073},
        {0.000000, 0.664364},
        false},
       {{33.596066, 21.709547},
        {0.243052, 1.143468},
        {11.504051, 10.030131},
        {11.500000, 10.030131},
        {0.000002, 1.143468},
        false}}},
     {0x41380000, 0x41207b6b, 0x36140000, 0x3f925d29}},
    {"3. onto the rock",
     {{18.4f, 10.2f}, {6, 0}},
     {1, 0},
     1.0f / 30.0f,
     {{{{20.000000, 0.000000},
        {6.333333, 0.000000},
        {18.505556, 10.200000},
        {18.505556, 10.200000},
        {6.333333, 0.000000},
        false},
       {{16.666664, 0.000000},
        {6.611111, 0.000000},
        {18.615742, 10.200000},
        {18.515415, 10.214495},
        {0.135184, 0.935652},
        false}}},
     {0x41941f92, 0x41236e92, 0x3e0a6dc0, 0x3f6f86e5}},
    {"4. a gap too narrow",
     {{30.5f, 26.8f}, {0, 6}},
     {0, 1},
     1.0f / 30.0f,
     {{{{0.000000, 20.000000},
        {0.000000, 6.333333},
        {30.500000, 26.905556},
        {30.500000, 26.884098},
        {0.000000, 0.578029},
        true},
       {{0.000000, 40.000000},
        {0.000000, 0.666667},
        {30.500000, 26.811110},
        {30.500000, 26.811110},
        {0.000000, 0.666667},
        false}}},
     {0x41f40000, 0x41d67d27, 0x00000000, 0x3f2aaaab}},
}};

std::string fmt(doc::V v) {
  char b[64];
  std::snprintf(b, sizeof b, "(%.6f, %.6f)", static_cast<double>(v.x), static_cast<double>(v.y));
  return b;
}
std::uint32_t bitsOf(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
bool sameBits(doc::V a, Vec2 b) { return bitsOf(a.x) == bitsOf(b.x) && bitsOf(a.y) == bitsOf(b.y); }

// A float as the document prints it (rounded to 6 decimals): within half a unit of the 6th.
void expectPrinted(doc::V got, std::array<double, 2> printed, const char* what) {
  EXPECT_NEAR(static_cast<double>(got.x), printed[0], 5.0001e-7) << what << " x";
  EXPECT_NEAR(static_cast<double>(got.y), printed[1], 5.0001e-7) << what << " y";
}

// The transcription of the equations gives the document's tables.
TEST(MovementWorkedExample, TheEquationsGiveTheDocumentsTables) {
  const doc::Scene scene = docScene();
  for (const Example& ex : kExamples) {
    SCOPED_TRACE(ex.name);
    const doc::Result r = doc::step(ex.start, ex.move, ex.dt, kLimits, scene);
    ASSERT_EQ(r.substeps, 2);
    EXPECT_EQ(bitsOf(r.h), 0x3c888889u) << "h = (1/30) / 2";
    for (std::size_t k = 0; k < r.rows.size(); ++k) {
      SCOPED_TRACE(k + 1);
      const doc::Row& got = r.rows[k];
      const TableRow& want = ex.rows[k];
      expectPrinted(got.force, want.force, "force");
      expectPrinted(got.velocity, want.velocity, "velocity");
      expectPrinted(got.moved, want.moved, "p + u h");
      expectPrinted(got.pushed, want.pushed, "pushed out");
      expectPrinted(got.slid, want.slid, "slid");
      EXPECT_EQ(got.blocked, want.blocked);
    }
    EXPECT_EQ(bitsOf(r.end.p.x), ex.endBits[0]);
    EXPECT_EQ(bitsOf(r.end.p.y), ex.endBits[1]);
    EXPECT_EQ(bitsOf(r.end.v.x), ex.endBits[2]);
    EXPECT_EQ(bitsOf(r.end.v.y), ex.endBits[3]);
  }
}

// stepPlayer, whole and one substep at a time, and the functions it is made of, give the
// transcription's bits at every stage (and so the document's numbers).
TEST(MovementWorkedExample, TheCodeGivesTheEquationsBits) {
  const doc::Scene scene = docScene();
  const CollisionScene code = codeScene();
  for (const Example& ex : kExamples) {
    SCOPED_TRACE(ex.name);
    const doc::Result r = doc::step(ex.start, ex.move, ex.dt, kLimits, scene);
    const PlayerState whole = stepPlayer({{ex.start.p.x, ex.start.p.y}, {ex.start.v.x, ex.start.v.y}},
                                         {{ex.move.x, ex.move.y}, ex.dt}, bodyLimits(), code);
    EXPECT_EQ(bitsOf(whole.position.x), ex.endBits[0]);
    EXPECT_EQ(bitsOf(whole.position.y), ex.endBits[1]);
    EXPECT_EQ(bitsOf(whole.velocity.x), ex.endBits[2]);
    EXPECT_EQ(bitsOf(whole.velocity.y), ex.endBits[3]);
    doc::State s = ex.start;
    for (std::size_t k = 0; k < r.rows.size(); ++k) {
      SCOPED_TRACE(k + 1);
      const doc::Row& row = r.rows[k];
      steer::Body body;
      body.limits = bodyLimits();
      body.position = {s.p.x, s.p.y};
      body.velocity = {s.v.x, s.v.y};
      const Vec2 move = clampedMove({ex.move.x, ex.move.y});
      const Vec2 force = steer::velocityMatch(body, move * kLimits.S, {kPlayerTimeToTarget}).linear;
      EXPECT_TRUE(sameBits(row.force, force));
      const steer::Body next =
          steer::integrateDynamicStep(body, force, steer::DynamicStep::of(bodyLimits(), r.h));
      EXPECT_TRUE(sameBits(row.velocity, next.velocity));
      EXPECT_TRUE(sameBits(row.moved, next.position));
      const PlayerState pushed = resolveContacts({next.position, next.velocity}, kLimits.r, code);
      EXPECT_TRUE(sameBits(row.pushed, pushed.position));
      EXPECT_TRUE(sameBits(row.slid, pushed.velocity));
      // No substep here takes the centre through a shape, so only the end's overlap decides.
      EXPECT_EQ(row.blocked,
                !isClear(pushed.position, kLimits.r, code) && isClear(body.position, kLimits.r, code));
      // A step of one substep's length is one substep (h / 0.05 and 8 h / 0.25 are below 1).
      const PlayerState one = stepPlayer({body.position, body.velocity}, {move, r.h}, bodyLimits(), code);
      EXPECT_TRUE(sameBits(row.end.p, one.position) && sameBits(row.end.v, one.velocity));
      s = row.end;
    }
  }
}

// The turn limit's constants for the default limits at h = 1/60 s, as the document gives them: the
// C library's cosf and sinf here, which for this angle are also the double-precision values
// rounded to float (what a client in another language computes).
TEST(MovementWorkedExample, TheTurnLimitsCosineAndSineAreTheDocuments) {
  const doc::Result r = doc::step({{10, 10}, {1, 0}}, {0, 1}, 1.0f / 30.0f, kLimits, docScene());
  const float theta = kLimits.w * r.h;
  EXPECT_EQ(bitsOf(kLimits.w), 0x41490fdbu);
  EXPECT_EQ(bitsOf(theta), 0x3e567751u);
  EXPECT_EQ(bitsOf(r.cosMax), 0x3f7a67e2u);
  EXPECT_EQ(bitsOf(r.sinMax), 0x3e54e6cfu);
  EXPECT_EQ(r.cosMax, static_cast<float>(std::cos(static_cast<double>(theta))));
  EXPECT_EQ(r.sinMax, static_cast<float>(std::sin(static_cast<double>(theta))));
  const steer::DynamicStep step = steer::DynamicStep::of(bodyLimits(), r.h);
  EXPECT_EQ(step.cosMaxTurn, r.cosMax);
  EXPECT_EQ(step.sinMaxTurn, r.sinMax);
  EXPECT_EQ(step.pivotSpeed, 0.4f);
}

// The document's lines for one example, formatted from the transcription: its substep table's
// rows, its pass-table rows (the push-out's passes that touched a shape, for the substeps where
// there were more than one) and its end line.
std::vector<std::string> documentLines(const Example& ex, const doc::Result& r) {
  std::vector<std::string> lines;
  char b[512];
  doc::State s = ex.start;
  for (std::size_t k = 0; k < r.rows.size(); ++k) {
    const doc::Row& row = r.rows[k];
    const std::string end = row.blocked ? "blocked: stays at " + fmt(s.p) + ", v = (0, 0)" : "taken";
    std::snprintf(b, sizeof b, "| %zu | %s | %s | %s | %s | %s | %s |", k + 1, fmt(row.force).c_str(),
                  fmt(row.velocity).c_str(), fmt(row.moved).c_str(), fmt(row.pushed).c_str(),
                  fmt(row.slid).c_str(), end.c_str());
    lines.push_back(b);
    for (std::size_t i = 0; row.passes.size() > 1 && i < row.passes.size(); ++i) {
      const doc::Pass& pass = row.passes[i];
      std::snprintf(b, sizeof b, "| %zu | %s | %s | %s |", i + 1, fmt(pass.afterCircles).c_str(),
                    fmt(pass.afterWalls).c_str(), fmt(pass.velocityAfterWalls).c_str());
      lines.push_back(b);
    }
    s = row.end;
  }
  std::snprintf(b, sizeof b, "End: `p = %s`, `v = %s`; bits `0x%08x 0x%08x 0x%08x 0x%08x`.",
                fmt(r.end.p).c_str(), fmt(r.end.v).c_str(), bitsOf(r.end.p.x), bitsOf(r.end.p.y),
                bitsOf(r.end.v.x), bitsOf(r.end.v.y));
  lines.push_back(b);
  return lines;
}

// docs/PROTOCOL.md, found from this file's path (tests/movement/ in the source tree), with every
// run of white space made one space (the end lines wrap).
std::string protocolText() {
  const std::filesystem::path path =
      std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "docs" / "PROTOCOL.md";
  std::ifstream in(path);
  if (!in) return {};
  std::string text, word;
  while (in >> word) text += word + " ";
  return text;
}
std::string oneSpaced(const std::string& line) {
  std::istringstream in(line);
  std::string text, word;
  while (in >> word) text += word + " ";
  return text;
}

// The document prints the transcription's numbers: every table row and end line, as the
// transcription formats them, is in its text, and so are the step's constants.
TEST(MovementWorkedExample, TheDocumentPrintsTheseNumbers) {
  const std::string text = protocolText();
  ASSERT_FALSE(text.empty()) << "docs/PROTOCOL.md not found from " << __FILE__;
  ASSERT_NE(text.find("### The movement model"), std::string::npos);
  const doc::Scene scene = docScene();
  for (const Example& ex : kExamples) {
    SCOPED_TRACE(ex.name);
    const std::vector<std::string> lines =
        documentLines(ex, doc::step(ex.start, ex.move, ex.dt, kLimits, scene));
    for (const std::string& line : lines)
      EXPECT_NE(text.find(oneSpaced(line)), std::string::npos) << "not in docs/PROTOCOL.md: " << line;
    // STEERD_PRINT_WORKED_EXAMPLE=1 prints them (to update the document after a deliberate change).
    if (std::getenv("STEERD_PRINT_WORKED_EXAMPLE") != nullptr) {
      std::printf("%s\n", ex.name);
      for (const std::string& line : lines) std::printf("%s\n", line.c_str());
    }
  }
  for (const char* constant :
       {"`theta = 0x3e567751`", "`c = 0x3f7a67e2`", "`s = 0x3e54e6cf`", "(`0x3c888889`)", "`= 0x41490fdb`",
        "`0.05` is `0x3d4ccccd`", "`0.1` is `0x3dcccccd`", "`1e-6` is `0x358637bd`", "`1e-4` is `0x38d1b717`",
        "`pi` is `0x40490fdb`"})
    EXPECT_NE(text.find(constant), std::string::npos) << constant;
  EXPECT_EQ(bitsOf(0.05f), 0x3d4ccccdu);
  EXPECT_EQ(bitsOf(0.1f), 0x3dcccccdu);
  EXPECT_EQ(bitsOf(1e-6f), 0x358637bdu);
  EXPECT_EQ(bitsOf(1e-4f), 0x38d1b717u);
  EXPECT_EQ(bitsOf(3.14159265358979323846f), 0x40490fdbu);
  EXPECT_EQ(kMaxSubstepSeconds, 0.05f);
  EXPECT_EQ(kPlayerTimeToTarget, 0.1f);
  EXPECT_EQ(kCollisionPasses, 3);
  EXPECT_EQ(steer::kEpsilon, 1e-6f);
}

}  // namespace
}  // namespace steerd::movement
