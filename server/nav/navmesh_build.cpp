#include "nav/navmesh_build.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <Recast.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>

namespace steerd::nav {

namespace {

// Recast objects freed by their own functions.
struct FreeHeightfield {
  void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
};
struct FreeCompact {
  void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
};
struct FreeContours {
  void operator()(rcContourSet* p) const { rcFreeContourSet(p); }
};
struct FreePolyMesh {
  void operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); }
};
struct FreeDetail {
  void operator()(rcPolyMeshDetail* p) const { rcFreePolyMeshDetail(p); }
};

constexpr float kCellHeight = 0.1f;                    // m: a level's steps and slopes are resolved to this
constexpr float kFloorLow = -1.0f, kFloorHigh = 4.0f;  // a flat world's vertical extent, m

// World (x, y) -> Recast (x, 0, y).
void put(std::vector<float>& out, steer::Vec2 p, float height = 0.0f) {
  out.push_back(p.x);
  out.push_back(height);
  out.push_back(p.y);
}

std::vector<float> recastVerts(const Polygon& p) {
  std::vector<float> v;
  v.reserve(p.size() * 3);
  for (const auto& q : p) put(v, q);
  return v;
}

// The strip a wall blocks: a thin rectangle along the segment.
Polygon wallStrip(const NavInput::Segment& w, float thickness) {
  const steer::Vec2 along = steer::normalizedOr(w.to - w.from, {1.0f, 0.0f});
  const steer::Vec2 side = steer::perp(along) * (0.5f * thickness);
  const steer::Vec2 pad = along * (0.5f * thickness);
  return {w.from - pad - side, w.to + pad - side, w.to + pad + side, w.from - pad + side};
}

// The ground: the walkable polygons (or the bounds), fanned into triangles.
struct Ground {
  std::vector<float> verts;
  std::vector<int> tris;
  std::vector<unsigned char> areas;
};

// A level's triangles as they are: walkable ones marked by Recast's own slope test.
Ground groundOfMesh(const NavInput& in, rcContext& ctx) {
  Ground g;
  g.verts = in.mesh.verts;
  g.tris = in.mesh.tris;
  g.areas.assign(in.mesh.walkable.size(), RC_NULL_AREA);
  rcMarkWalkableTriangles(&ctx, in.settings.walkableSlopeDeg, g.verts.data(),
                          static_cast<int>(g.verts.size() / 3), g.tris.data(),
                          static_cast<int>(g.areas.size()), g.areas.data());
  for (std::size_t i = 0; i < g.areas.size(); ++i)
    if (!in.mesh.walkable[i]) g.areas[i] = RC_NULL_AREA;
  return g;
}

Ground groundOf(const NavInput& in, rcContext& ctx) {
  if (!in.mesh.empty()) return groundOfMesh(in, ctx);
  std::vector<Polygon> polys = in.walkable;
  if (polys.empty()) {
    polys.push_back(
        {in.boundsMin, {in.boundsMax.x, in.boundsMin.y}, in.boundsMax, {in.boundsMin.x, in.boundsMax.y}});
  }
  Ground g;
  for (const Polygon& p : polys) {
    const int base = static_cast<int>(g.verts.size() / 3);
    for (const auto& q : p) put(g.verts, q);
    for (std::size_t i = 1; i + 1 < p.size(); ++i) {
      g.tris.insert(g.tris.end(), {base, base + static_cast<int>(i), base + static_cast<int>(i) + 1});
      g.areas.push_back(RC_WALKABLE_AREA);
    }
  }
  return g;
}

// One tile's build: its Recast settings, then each step's product as the steps run.
struct TileBuild {
  int tx = 0, ty = 0;
  rcConfig cfg{};
  std::unique_ptr<rcHeightfield, FreeHeightfield> solid;
  std::unique_ptr<rcCompactHeightfield, FreeCompact> chf;
  std::unique_ptr<rcContourSet, FreeContours> cset;
  std::unique_ptr<rcPolyMesh, FreePolyMesh> pmesh;
  std::unique_ptr<rcPolyMeshDetail, FreeDetail> dmesh;  // a level's only
};

class TileBuilder {
 public:
  TileBuilder(const NavInput& in, const NavMeshTiles& layout, float floorLow, float floorHigh)
      : in_(in), layout_(layout), ground_(groundOf(in, ctx_)), floorLow_(floorLow), floorHigh_(floorHigh) {
    for (const Polygon& p : in.blocking) blockers_.push_back(recastVerts(p));
    // Recast marks a cell by its centre, so a strip thinner than a cell can miss every centre (a
    // 0.2 m wall on a 0.5 m grid's line between two rows of centres): the wall vanished from the
    // mesh and paths went through it. At least a cell wide, it covers a row of centres wherever it lies.
    const float thickness = std::max(in.wallThickness, 1.001f * in.settings.cellSize);
    for (const auto& w : in.walls) blockers_.push_back(recastVerts(wallStrip(w, thickness)));
    for (const auto& a : in.areas) areaVerts_.push_back(recastVerts(a.polygon));
    if (!in.mesh.empty()) collectRoofs();
    for (const auto& l : in.links) {
      put(linkVerts_, l.from);
      put(linkVerts_, l.to);
      linkRadius_.push_back(l.radius);
      linkFlags_.push_back(kWalkFlag);
      linkAreas_.push_back(l.area != 0 ? l.area : kGroundArea);
      linkDir_.push_back(l.bidirectional ? DT_OFFMESH_CON_BIDIR : 0);
      linkIds_.push_back(static_cast<unsigned int>(linkIds_.size()));
    }
  }

  // Builds tile (tx, ty); false with `error` set on failure; true and empty data when the tile
  // has no walkable ground. Recast's steps in order, each a function below.
  bool build(int tx, int ty, std::vector<unsigned char>& data, int& polygons, std::string& error) {
    TileBuild t;
    t.tx = tx;
    t.ty = ty;
    t.cfg = tileConfig(tx, ty);
    if (!rasterise(t, error) || !compact(t, error) || !markAreas(t, error) || !buildContours(t, error))
      return false;
    if (t.cset->nconts == 0) {
      data.clear();
      return true;
    }
    if (!buildPolygons(t, error)) return false;
    if (t.pmesh->npolys == 0) {
      data.clear();
      return true;
    }
    if (!fitsTile(t, error)) return false;
    for (int i = 0; i < t.pmesh->npolys; ++i) t.pmesh->flags[i] = kWalkFlag;
    if (!buildDetail(t, error) || !createTileData(t, data, error)) return false;
    polygons = t.pmesh->npolys;
    return true;
  }

 private:
  // Recast's settings for tile (tx, ty): its cells and a border wide enough for the erosion.
  rcConfig tileConfig(int tx, int ty) const {
    const NavBuildSettings& s = in_.settings;
    rcConfig cfg{};
    cfg.cs = s.cellSize;
    cfg.ch = kCellHeight;
    cfg.walkableSlopeAngle = s.walkableSlopeDeg;
    cfg.walkableHeight = static_cast<int>(std::ceil(s.agentHeight / cfg.ch));
    cfg.walkableClimb = static_cast<int>(std::floor(s.walkableClimb / cfg.ch));
    cfg.walkableRadius = static_cast<int>(std::ceil(s.agentRadius / cfg.cs));
    cfg.maxEdgeLen = static_cast<int>(s.maxEdgeLength / cfg.cs);
    cfg.maxSimplificationError = s.maxSimplificationError;
    cfg.minRegionArea = 8 * 8;  // cells: specks of ground smaller than this are dropped
    cfg.mergeRegionArea = 20 * 20;
    cfg.maxVertsPerPoly = DT_VERTS_PER_POLYGON;
    cfg.tileSize = static_cast<int>(std::lround(layout_.tileWidth / cfg.cs));
    cfg.borderSize = cfg.walkableRadius + 3;
    cfg.width = cfg.tileSize + 2 * cfg.borderSize;
    cfg.height = cfg.width;
    cfg.bmin[0] = layout_.origin[0] + static_cast<float>(tx) * layout_.tileWidth -
                  static_cast<float>(cfg.borderSize) * cfg.cs;
    cfg.bmin[1] = floorLow_;
    cfg.bmin[2] = layout_.origin[2] + static_cast<float>(ty) * layout_.tileWidth -
                  static_cast<float>(cfg.borderSize) * cfg.cs;
    cfg.bmax[0] = cfg.bmin[0] + static_cast<float>(cfg.width) * cfg.cs;
    cfg.bmax[1] = floorHigh_;
    cfg.bmax[2] = cfg.bmin[2] + static_cast<float>(cfg.height) * cfg.cs;
    return cfg;
  }

  // The ground's triangles into the heightfield's spans.
  bool rasterise(TileBuild& t, std::string& error) {
    const rcConfig& cfg = t.cfg;
    t.solid.reset(rcAllocHeightfield());
    if (!t.solid ||
        !rcCreateHeightfield(&ctx_, *t.solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch))
      return fail(error, "heightfield", t.tx, t.ty);
    if (!rcRasterizeTriangles(&ctx_, ground_.verts.data(), static_cast<int>(ground_.verts.size() / 3),
                              ground_.tris.data(), ground_.areas.data(),
                              static_cast<int>(ground_.areas.size()), *t.solid, cfg.walkableClimb))
      return fail(error, "rasterisation", t.tx, t.ty);
    if (!in_.mesh.empty()) {
      // A level's own geometry: Recast's usual clean-up (steps up onto low obstacles are walked,
      // ledges and spans without head room are not).
      rcFilterLowHangingWalkableObstacles(&ctx_, cfg.walkableClimb, *t.solid);
      rcFilterLedgeSpans(&ctx_, cfg.walkableHeight, cfg.walkableClimb, *t.solid);
      rcFilterWalkableLowHeightSpans(&ctx_, cfg.walkableHeight, *t.solid);
    }
    return true;
  }

  // The spans' walkable tops, as the compact heightfield the rest works on.
  bool compact(TileBuild& t, std::string& error) {
    t.chf.reset(rcAllocCompactHeightfield());
    if (!t.chf ||
        !rcBuildCompactHeightfield(&ctx_, t.cfg.walkableHeight, t.cfg.walkableClimb, *t.solid, *t.chf))
      return fail(error, "compact heightfield", t.tx, t.ty);
    t.solid.reset();
    return true;
  }

  // Holes where something blocks, the erosion by the agent's radius, then the cost areas.
  bool markAreas(TileBuild& t, std::string& error) {
    rcCompactHeightfield& chf = *t.chf;
    // Blockers become holes before the erosion, so the erosion keeps bodies clear of them too.
    for (const auto& c : in_.cylinders) {
      const float pos[3] = {c.center.x, floorLow_, c.center.y};
      rcMarkCylinderArea(&ctx_, pos, c.radius, floorHigh_ - floorLow_, RC_NULL_AREA, chf);
    }
    for (const auto& v : blockers_) {
      rcMarkConvexPolyArea(&ctx_, v.data(), static_cast<int>(v.size() / 3), floorLow_, floorHigh_,
                           RC_NULL_AREA, chf);
    }
    // Nothing is walked under a level's blocking part (a house's floor inside its walls, the
    // ground under a crate): each blocking triangle seen from above clears the ground beneath it.
    for (std::size_t i = 0; i < roofs_.size(); ++i) {
      rcMarkConvexPolyArea(&ctx_, roofs_[i].data(), 3, floorLow_, roofTops_[i], RC_NULL_AREA, chf);
    }
    if (!rcErodeWalkableArea(&ctx_, t.cfg.walkableRadius, chf)) return fail(error, "erosion", t.tx, t.ty);
    for (std::size_t i = 0; i < areaVerts_.size(); ++i) {
      const auto& v = areaVerts_[i];
      rcMarkConvexPolyArea(&ctx_, v.data(), static_cast<int>(v.size() / 3), floorLow_, floorHigh_,
                           static_cast<unsigned char>(i + 1), chf);
    }
    return true;
  }

  // The walkable cells grouped into regions, and the regions' outlines.
  bool buildContours(TileBuild& t, std::string& error) {
    const rcConfig& cfg = t.cfg;
    if (!rcBuildDistanceField(&ctx_, *t.chf)) return fail(error, "distance field", t.tx, t.ty);
    if (!rcBuildRegions(&ctx_, *t.chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea))
      return fail(error, "regions", t.tx, t.ty);
    t.cset.reset(rcAllocContourSet());
    if (!t.cset || !rcBuildContours(&ctx_, *t.chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *t.cset))
      return fail(error, "contours", t.tx, t.ty);
    return true;
  }

  bool buildPolygons(TileBuild& t, std::string& error) {
    t.pmesh.reset(rcAllocPolyMesh());
    if (!t.pmesh || !rcBuildPolyMesh(&ctx_, *t.cset, t.cfg.maxVertsPerPoly, *t.pmesh))
      return fail(error, "polygons", t.tx, t.ty);
    return true;
  }

  // A tile holds no more polygons than a dtPolyRef leaves room for (buildNavMeshTiles).
  bool fitsTile(const TileBuild& t, std::string& error) const {
    if (t.pmesh->npolys <= layout_.maxPolysPerTile) return true;
    error = "navmesh tile (" + std::to_string(t.tx) + ", " + std::to_string(t.ty) + ") has " +
            std::to_string(t.pmesh->npolys) + " polygons, more than " +
            std::to_string(layout_.maxPolysPerTile) + ": lower navmesh.tile_size";
    return false;
  }

  // A level's ground is not flat: the detail mesh gives Detour its heights within a polygon.
  bool buildDetail(TileBuild& t, std::string& error) {
    if (in_.mesh.empty()) return true;
    t.dmesh.reset(rcAllocPolyMeshDetail());
    if (!t.dmesh || !rcBuildPolyMeshDetail(&ctx_, *t.pmesh, *t.chf, t.cfg.cs * 6.0f, t.cfg.ch, *t.dmesh))
      return fail(error, "detail mesh", t.tx, t.ty);
    return true;
  }

  // The polygons, detail and off-mesh links as Detour's tile data.
  bool createTileData(const TileBuild& t, std::vector<unsigned char>& data, std::string& error) const {
    const NavBuildSettings& s = in_.settings;
    const rcPolyMesh& pmesh = *t.pmesh;
    dtNavMeshCreateParams params{};
    params.verts = pmesh.verts;
    params.vertCount = pmesh.nverts;
    params.polys = pmesh.polys;
    params.polyAreas = pmesh.areas;
    params.polyFlags = pmesh.flags;
    params.polyCount = pmesh.npolys;
    params.nvp = pmesh.nvp;
    // A flat world has no detail mesh: Detour triangulates the polygons itself.
    if (t.dmesh) {
      params.detailMeshes = t.dmesh->meshes;
      params.detailVerts = t.dmesh->verts;
      params.detailVertsCount = t.dmesh->nverts;
      params.detailTris = t.dmesh->tris;
      params.detailTriCount = t.dmesh->ntris;
    }
    params.offMeshConVerts = linkVerts_.data();
    params.offMeshConRad = linkRadius_.data();
    params.offMeshConFlags = linkFlags_.data();
    params.offMeshConAreas = linkAreas_.data();
    params.offMeshConDir = linkDir_.data();
    params.offMeshConUserID = linkIds_.data();
    params.offMeshConCount = static_cast<int>(linkRadius_.size());
    params.walkableHeight = s.agentHeight;
    params.walkableRadius = s.agentRadius;
    params.walkableClimb = static_cast<float>(t.cfg.walkableClimb) * t.cfg.ch;
    params.tileX = t.tx;
    params.tileY = t.ty;
    params.tileLayer = 0;
    std::copy(pmesh.bmin, pmesh.bmin + 3, params.bmin);
    std::copy(pmesh.bmax, pmesh.bmax + 3, params.bmax);
    params.cs = t.cfg.cs;
    params.ch = t.cfg.ch;
    params.buildBvTree = true;
    unsigned char* out = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&params, &out, &size)) return fail(error, "Detour tile data", t.tx, t.ty);
    data.assign(out, out + size);
    dtFree(out);
    return true;
  }

  // The level's blocking triangles that cover some ground seen from above (not its walls' sides).
  void collectRoofs() {
    const auto& v = in_.mesh.verts;
    for (std::size_t t = 0; t < in_.mesh.walkable.size(); ++t) {
      if (in_.mesh.walkable[t]) continue;
      const float* a = &v[static_cast<std::size_t>(in_.mesh.tris[t * 3]) * 3];
      const float* b = &v[static_cast<std::size_t>(in_.mesh.tris[t * 3 + 1]) * 3];
      const float* c = &v[static_cast<std::size_t>(in_.mesh.tris[t * 3 + 2]) * 3];
      const float e0[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
                  e1[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
      const float nx = e0[1] * e1[2] - e0[2] * e1[1], ny = e0[2] * e1[0] - e0[0] * e1[2],
                  nz = e0[0] * e1[1] - e0[1] * e1[0];
      const float n2 = nx * nx + ny * ny + nz * nz;
      // Seen edge-on from above (a wall's side: its normal nearly level) covers no ground.
      if (!(n2 > 0.0f) || ny * ny < 0.0025f * n2) continue;
      roofs_.push_back({a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]});
      roofTops_.push_back(std::max({a[1], b[1], c[1]}) + 0.01f);
    }
  }

  static bool fail(std::string& error, const char* step, int tx, int ty) {
    error = std::string("navmesh build failed at the ") + step + " step of tile (" + std::to_string(tx) +
            ", " + std::to_string(ty) + ")";
    return false;
  }

  const NavInput& in_;
  const NavMeshTiles& layout_;
  rcContext ctx_{false};  // no log, no timers: errors come back as the step that failed
  Ground ground_;
  float floorLow_, floorHigh_;  // the heightfield's vertical extent, m
  std::vector<std::vector<float>> blockers_, areaVerts_;
  std::vector<std::array<float, 9>> roofs_;
  std::vector<float> roofTops_;
  std::vector<float> linkVerts_, linkRadius_;
  std::vector<unsigned short> linkFlags_;
  std::vector<unsigned char> linkAreas_, linkDir_;
  std::vector<unsigned int> linkIds_;
};

int bitsFor(int n) {
  int bits = 0;
  while ((1 << bits) < n) ++bits;
  return bits;
}

}  // namespace

namespace {

// A level spans its own heights (and head room above the highest floor); a flat world -1..4 m.
void floorRange(const NavInput& in, float& floorLow, float& floorHigh) {
  floorLow = kFloorLow;
  floorHigh = kFloorHigh;
  if (in.mesh.empty()) return;
  floorLow = std::numeric_limits<float>::max();
  floorHigh = std::numeric_limits<float>::lowest();
  for (std::size_t i = 1; i < in.mesh.verts.size(); i += 3) {
    floorLow = std::min(floorLow, in.mesh.verts[i]);
    floorHigh = std::max(floorHigh, in.mesh.verts[i]);
  }
  floorLow -= 1.0f;
  floorHigh += in.settings.agentHeight + 1.0f;
}

}  // namespace

bool buildNavMeshTile(const NavInput& in, const NavMeshTiles& layout, int tx, int ty,
                      std::vector<unsigned char>& data, std::string& error) {
  if (tx < 0 || ty < 0 || tx >= layout.tilesX || ty >= layout.tilesY) {
    error = "navmesh: no tile (" + std::to_string(tx) + ", " + std::to_string(ty) + ")";
    return false;
  }
  float floorLow = 0.0f, floorHigh = 0.0f;
  floorRange(in, floorLow, floorHigh);
  TileBuilder builder(in, layout, floorLow, floorHigh);
  int polygons = 0;
  return builder.build(tx, ty, data, polygons, error);
}

NavBuildResult buildNavMeshTiles(const NavInput& in) {
  NavBuildResult result;
  const auto errors = validateNavInput(in);
  if (!errors.empty()) {
    result.error = errors.front();
    return result;
  }
  NavMeshTiles& t = result.tiles;
  const NavBuildSettings& s = in.settings;
  const float width = in.boundsMax.x - in.boundsMin.x, height = in.boundsMax.y - in.boundsMin.y;
  // Tiles are whole cells wide; one tile covers a world smaller than tile_size.
  const float cells = std::ceil(std::min(s.tileSize, std::max(width, height)) / s.cellSize);
  t.tileWidth = cells * s.cellSize;
  t.tilesX = std::max(1, static_cast<int>(std::ceil(width / t.tileWidth)));
  t.tilesY = std::max(1, static_cast<int>(std::ceil(height / t.tileWidth)));
  float floorLow = 0.0f, floorHigh = 0.0f;
  floorRange(in, floorLow, floorHigh);
  t.origin[0] = in.boundsMin.x;
  t.origin[1] = floorLow;
  t.origin[2] = in.boundsMin.y;
  // A 32-bit dtPolyRef holds the tile and polygon indices in 22 bits (10 stay for the salt).
  const int tileBits = bitsFor(t.tilesX * t.tilesY);
  if (tileBits > 14) {
    result.error =
        "navmesh: " + std::to_string(t.tilesX * t.tilesY) + " tiles is too many; raise navmesh.tile_size";
    return result;
  }
  t.maxPolysPerTile = 1 << std::min(16, 22 - tileBits);

  TileBuilder builder(in, t, floorLow, floorHigh);
  for (int ty = 0; ty < t.tilesY; ++ty) {
    for (int tx = 0; tx < t.tilesX; ++tx) {
      NavMeshTiles::Tile tile{tx, ty, {}};
      int polys = 0;
      if (!builder.build(tx, ty, tile.data, polys, result.error)) return result;
      if (tile.data.empty()) continue;
      result.polygons += polys;
      t.tiles.push_back(std::move(tile));
    }
  }
  if (t.tiles.empty()) result.error = "navmesh: no walkable ground left after removing what blocks it";
  return result;
}

}  // namespace steerd::nav
