#include "nav/navmesh.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>

#include "nav/tile_check.h"

namespace steerd::nav {

std::unique_ptr<NavMesh> NavMesh::fromTiles(const NavMeshTiles& tiles, const std::vector<float>& areaCosts,
                                            std::string& error) {
  std::unique_ptr<NavMesh> m(new NavMesh());
  m->layout_ = tiles;
  m->layout_.tiles.clear();
  m->mesh_.reset(dtAllocNavMesh());
  dtNavMeshParams params{};
  std::copy(tiles.origin, tiles.origin + 3, params.orig);
  params.tileWidth = tiles.tileWidth;
  params.tileHeight = tiles.tileWidth;
  params.maxTiles = std::max(1, tiles.tilesX * tiles.tilesY);
  params.maxPolys = tiles.maxPolysPerTile;
  if (!m->mesh_ || dtStatusFailed(m->mesh_->init(&params))) {
    error = "navmesh: Detour could not set up a mesh of " + std::to_string(params.maxTiles) + " tiles";
    return nullptr;
  }
  for (const auto& t : tiles.tiles) {
    // Detour follows a tile's counts and indices unchecked: check them first (a cache file's
    // header may lie).
    if (const std::string problem = tileDataProblem(t.data.data(), t.data.size()); !problem.empty()) {
      error = "navmesh: tile (" + std::to_string(t.x) + ", " + std::to_string(t.y) + "): " + problem;
      return nullptr;
    }
    // Detour keeps (and with DT_TILE_FREE_DATA frees) the buffer: give it its own copy.
    const int size = static_cast<int>(t.data.size());
    auto* data = static_cast<unsigned char*>(dtAlloc(t.data.size(), DT_ALLOC_PERM));
    if (data == nullptr) {
      error = "navmesh: out of memory";
      return nullptr;
    }
    std::memcpy(data, t.data.data(), t.data.size());
    const dtStatus s = m->mesh_->addTile(data, size, DT_TILE_FREE_DATA, 0, nullptr);
    if (dtStatusFailed(s)) {
      dtFree(data);
      error = "navmesh: tile (" + std::to_string(t.x) + ", " + std::to_string(t.y) +
              ") is not valid Detour data (a stale or damaged cache file?)";
      return nullptr;
    }
  }
  m->query_.reset(dtAllocNavMeshQuery());
  if (!m->query_ || dtStatusFailed(m->query_->init(m->mesh_.get(), 64))) {
    error = "navmesh: Detour could not set up a query";
    return nullptr;
  }
  m->filter_.setIncludeFlags(kWalkFlag);
  m->filter_.setExcludeFlags(kClosedFlag);
  for (std::size_t i = 0; i < areaCosts.size() && i < 62; ++i)
    m->filter_.setAreaCost(static_cast<int>(i + 1), areaCosts[i]);
  m->filter_.setAreaCost(kGroundArea, 1.0f);
  m->findIslands();
  m->indexColumns();
  m->indexAreas();
  return m;
}

void NavMesh::indexAreas() {
  areaPolys_.assign(kGroundArea + 1, {});
  areaClosed_.resize(kGroundArea + 1, false);
  const dtNavMesh& mesh = *mesh_;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const dtMeshTile* tile = mesh.getTile(i);
    if (!tile || !tile->header) continue;
    const dtPolyRef base = mesh.getPolyRefBase(tile);
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const unsigned char area = tile->polys[p].getArea();
      if (area > 0 && area < kGroundArea) areaPolys_[area].push_back(base | static_cast<dtPolyRef>(p));
    }
  }
  for (unsigned char area = 1; area < kGroundArea; ++area)  // a rebuilt tile's polygons come open
    if (areaClosed_[area]) setAreaPassable(area, false);
}

bool NavMesh::replaceTile(int tx, int ty, const std::vector<unsigned char>& data, std::string& error) {
  if (const dtTileRef old = mesh_->getTileRefAt(tx, ty, 0); old != 0)
    mesh_->removeTile(old, nullptr, nullptr);
  bool ok = true;
  if (!data.empty()) {
    if (const std::string problem = tileDataProblem(data.data(), data.size()); !problem.empty()) {
      error = "navmesh: tile (" + std::to_string(tx) + ", " + std::to_string(ty) + "): " + problem;
      ok = false;
    } else {
      auto* copy = static_cast<unsigned char*>(dtAlloc(data.size(), DT_ALLOC_PERM));
      if (copy == nullptr) {
        error = "navmesh: out of memory";
        ok = false;
      } else {
        std::memcpy(copy, data.data(), data.size());
        if (dtStatusFailed(
                mesh_->addTile(copy, static_cast<int>(data.size()), DT_TILE_FREE_DATA, 0, nullptr))) {
          dtFree(copy);
          error = "navmesh: tile (" + std::to_string(tx) + ", " + std::to_string(ty) + ") refused by Detour";
          ok = false;
        }
      }
    }
  }
  findIslands();
  indexColumns();
  indexAreas();
  return ok;
}

std::size_t NavMesh::setAreaPassable(unsigned char area, bool passable) {
  if (area == 0 || area >= kGroundArea) return 0;
  areaClosed_[area] = !passable;
  const unsigned short flags = passable ? kWalkFlag : static_cast<unsigned short>(kWalkFlag | kClosedFlag);
  for (const dtPolyRef ref : areaPolys_[area]) mesh_->setPolyFlags(ref, flags);
  return areaPolys_[area].size();
}

bool NavMesh::areaPassable(unsigned char area) const {
  return area == 0 || area >= kGroundArea || !areaClosed_[area];
}

std::size_t NavMesh::areaPolygonCount(unsigned char area) const {
  return area > 0 && area < kGroundArea ? areaPolys_[area].size() : 0;
}

void NavMesh::setAreaCost(unsigned char area, float cost) {
  if (area > 0 && area < kGroundArea) filter_.setAreaCost(area, cost);
}

float NavMesh::areaCost(unsigned char area) const { return filter_.getAreaCost(area); }

NavPoint NavMesh::nearest(steer::Vec2 p, float searchRadius) const {
  if (sloped_) return nearestSloped(p, searchRadius);
  float center[3], extents[3] = {searchRadius, 2.0f, searchRadius}, found[3];
  toRecast(p, center);
  NavPoint out;
  if (dtStatusFailed(query_->findNearestPoly(center, extents, &filter_, &out.poly, found)) || out.poly == 0)
    return {};
  out.position = fromRecast(found);
  // Detour picks polygons whose bounding boxes overlap the search box, so a point in a hole (a
  // box inside the ground) can get a polygon whose nearest point lies metres away.
  if (std::abs(out.position.x - p.x) > searchRadius + 1e-3f ||
      std::abs(out.position.y - p.y) > searchRadius + 1e-3f)
    return {};
  return out;
}

NavPoint NavMesh::randomReachablePoint(steer::Vec2 from, steer::Vec2 lo, steer::Vec2 hi, steer::Rng& rng,
                                       int attempts) const {
  const NavPoint here = nearest(from, 4.0f);
  const std::uint32_t island = here ? islandOf(here.poly) : 0;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    const steer::Vec2 p{lo.x + rng.uniform() * (hi.x - lo.x), lo.y + rng.uniform() * (hi.y - lo.y)};
    const NavPoint on = nearest(p, 1.0f);
    if (on && (island == 0 || islandOf(on.poly) == island)) return on;
  }
  return {};
}

std::size_t NavMesh::polyIndex(dtPolyRef ref) const {
  unsigned int salt = 0, it = 0, ip = 0;
  mesh_->decodePolyId(ref, salt, it, ip);
  return tileBase_[it] + ip;
}

void NavMesh::findIslands() {
  const dtNavMesh& mesh = *mesh_;
  const int maxTiles = mesh.getMaxTiles();
  tileBase_.assign(static_cast<std::size_t>(maxTiles) + 1, 0);
  for (int i = 0; i < maxTiles; ++i) {
    const dtMeshTile* tile = mesh.getTile(i);
    const int polys = tile && tile->header ? tile->header->polyCount : 0;
    tileBase_[static_cast<std::size_t>(i) + 1] =
        tileBase_[static_cast<std::size_t>(i)] + static_cast<std::uint32_t>(polys);
  }
  polygonCount_ = tileBase_.back();
  // Union-find over links; a link in either direction joins two polygons.
  std::vector<std::uint32_t> parent(polygonCount_);
  std::iota(parent.begin(), parent.end(), 0u);
  const auto root = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (int i = 0; i < maxTiles; ++i) {
    const dtMeshTile* tile = mesh.getTile(i);
    if (!tile || !tile->header) continue;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const std::uint32_t self = tileBase_[static_cast<std::size_t>(i)] + static_cast<std::uint32_t>(p);
      for (unsigned int l = tile->polys[p].firstLink; l != DT_NULL_LINK; l = tile->links[l].next) {
        const dtPolyRef other = tile->links[l].ref;
        if (other == 0) continue;
        const std::uint32_t a = root(self), b = root(static_cast<std::uint32_t>(polyIndex(other)));
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
      }
    }
  }
  island_.assign(polygonCount_, 0);
  std::vector<std::uint32_t> idOfRoot(polygonCount_, 0);
  islandCount_ = 0;
  for (std::uint32_t x = 0; x < polygonCount_; ++x) {
    const std::uint32_t r = root(x);
    if (idOfRoot[r] == 0) idOfRoot[r] = ++islandCount_;
    island_[x] = idOfRoot[r];
  }
  // Each island's area in (x, y), for the largest.
  std::vector<double> area(islandCount_ + 1, 0.0);
  for (int i = 0; i < maxTiles; ++i) {
    const dtMeshTile* tile = mesh.getTile(i);
    if (!tile || !tile->header) continue;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const dtPoly& poly = tile->polys[p];
      double a = 0.0;
      for (int v = 0; v < poly.vertCount; ++v) {
        const float* q0 = &tile->verts[poly.verts[v] * 3];
        const float* q1 = &tile->verts[poly.verts[(v + 1) % poly.vertCount] * 3];
        a += static_cast<double>(q0[0]) * q1[2] - static_cast<double>(q1[0]) * q0[2];
      }
      area[island_[tileBase_[static_cast<std::size_t>(i)] + static_cast<std::uint32_t>(p)]] +=
          std::abs(a) * 0.5;
    }
  }
  largestIsland_ = 0;
  for (std::uint32_t k = 1; k <= islandCount_; ++k)
    if (largestIsland_ == 0 || area[k] > area[largestIsland_]) largestIsland_ = k;
}

std::uint32_t NavMesh::islandOf(dtPolyRef poly) const {
  if (poly == 0 || !mesh_->isValidPolyRef(poly)) return 0;
  const std::size_t i = polyIndex(poly);
  return i < island_.size() ? island_[i] : 0;
}

template <class F>
void NavMesh::forEachGroundPolygon(F&& each) const {
  const dtNavMesh& mesh = *mesh_;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const dtMeshTile* tile = mesh.getTile(i);
    if (!tile || !tile->header) continue;
    const dtPolyRef base = mesh.getPolyRefBase(tile);
    for (int p = 0; p < tile->header->polyCount; ++p) {
      if (tile->polys[p].getType() == DT_POLYTYPE_OFFMESH_CONNECTION) continue;
      each(*tile, tile->polys[p], base | static_cast<dtPolyRef>(p),
           tileBase_[static_cast<std::size_t>(i)] + static_cast<std::size_t>(p));
    }
  }
}

std::vector<Polygon> NavMesh::polygons() const {
  std::vector<Polygon> out;
  forEachGroundPolygon([&](const dtMeshTile& tile, const dtPoly& poly, dtPolyRef, std::size_t) {
    Polygon q;
    for (int v = 0; v < poly.vertCount; ++v) q.push_back(fromRecast(&tile.verts[poly.verts[v] * 3]));
    out.push_back(std::move(q));
  });
  return out;
}

namespace {

// Polygon `poly` of `tile` in world (x, y), and its lowest and highest vertex.
Polygon outlineOf(const dtMeshTile& tile, const dtPoly& poly, float& low, float& high) {
  Polygon q;
  low = std::numeric_limits<float>::max();
  high = std::numeric_limits<float>::lowest();
  for (int v = 0; v < poly.vertCount; ++v) {
    const float* p = &tile.verts[poly.verts[v] * 3];
    q.push_back(fromRecast(p));
    low = std::min(low, p[1]);
    high = std::max(high, p[1]);
  }
  return q;
}

steer::Vec2 centroidOf(const Polygon& p) {
  steer::Vec2 c{0.0f, 0.0f};
  for (const auto& v : p) c = c + v;
  return c * (1.0f / static_cast<float>(p.size()));
}

// The polygon's box in (x, y).
void boxOf(const Polygon& p, steer::Vec2& lo, steer::Vec2& hi) {
  lo = hi = p.front();
  for (const auto& v : p)
    lo = {std::min(lo.x, v.x), std::min(lo.y, v.y)}, hi = {std::max(hi.x, v.x), std::max(hi.y, v.y)};
}

float signedArea(const Polygon& p) {
  float a = 0.0f;
  for (std::size_t i = 0; i < p.size(); ++i) a += steer::cross(p[i], p[(i + 1) % p.size()]);
  return 0.5f * a;
}

// Convex `a` clipped by convex `b` (Sutherland-Hodgman): their common part.
Polygon clipConvex(Polygon a, const Polygon& b) {
  const float orient = signedArea(b) >= 0.0f ? 1.0f : -1.0f;
  for (std::size_t i = 0; i < b.size() && !a.empty(); ++i) {
    const steer::Vec2 e0 = b[i], e1 = b[(i + 1) % b.size()];
    const auto side = [&](steer::Vec2 p) { return orient * steer::cross(e1 - e0, p - e0); };
    Polygon out;
    for (std::size_t j = 0; j < a.size(); ++j) {
      const steer::Vec2 p = a[j], q = a[(j + 1) % a.size()];
      const float sp = side(p), sq = side(q);
      if (sp >= 0.0f) out.push_back(p);
      if ((sp >= 0.0f) != (sq >= 0.0f)) out.push_back(p + (q - p) * (sp / (sp - sq)));
    }
    a = std::move(out);
  }
  return a;
}

}  // namespace

void NavMesh::indexColumns() {
  const dtNavMesh& mesh = *mesh_;
  float low = std::numeric_limits<float>::max(), high = std::numeric_limits<float>::lowest();
  steer::Vec2 lo{std::numeric_limits<float>::max(), std::numeric_limits<float>::max()}, hi{-lo.x, -lo.y};
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const dtMeshTile* tile = mesh.getTile(i);
    if (!tile || !tile->header) continue;
    for (int v = 0; v < tile->header->vertCount; ++v) {
      const float* p = &tile->verts[v * 3];
      low = std::min(low, p[1]), high = std::max(high, p[1]);
      lo = {std::min(lo.x, p[0]), std::min(lo.y, p[2])}, hi = {std::max(hi.x, p[0]), std::max(hi.y, p[2])};
    }
  }
  // A flat world's ground lies within a voxel or two of 0; a level with ramps or floors does not,
  // nor a flat level off height 0 (Detour's search round height 0 would miss it).
  sloped_ = high >= low && (high - low > 0.5f || high > 0.6f || low < -0.6f);
  if (!sloped_) return;
  const float width = std::max(hi.x - lo.x, hi.y - lo.y);
  columnCell_ = std::max(4.0f, width / 1024.0f);  // at most about a million cells
  columnOrigin_ = lo;
  columnsX_ = std::max(1, static_cast<int>(std::ceil((hi.x - lo.x) / columnCell_)) + 1);
  columnsY_ = std::max(1, static_cast<int>(std::ceil((hi.y - lo.y) / columnCell_)) + 1);
  const auto cellsOf = [&](const dtMeshTile& tile, const dtPoly& poly, auto&& each) {
    float l, h;
    steer::Vec2 a, b;
    boxOf(outlineOf(tile, poly, l, h), a, b);
    const int x0 = std::clamp(static_cast<int>((a.x - lo.x) / columnCell_), 0, columnsX_ - 1);
    const int x1 = std::clamp(static_cast<int>((b.x - lo.x) / columnCell_), 0, columnsX_ - 1);
    const int y0 = std::clamp(static_cast<int>((a.y - lo.y) / columnCell_), 0, columnsY_ - 1);
    const int y1 = std::clamp(static_cast<int>((b.y - lo.y) / columnCell_), 0, columnsY_ - 1);
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x)
        each(static_cast<std::size_t>(y) * static_cast<std::size_t>(columnsX_) + static_cast<std::size_t>(x));
  };
  columnStart_.assign(static_cast<std::size_t>(columnsX_) * static_cast<std::size_t>(columnsY_) + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<std::uint32_t> fill;
    if (pass == 1) {
      for (std::size_t c = 1; c < columnStart_.size(); ++c) columnStart_[c] += columnStart_[c - 1];
      columnPolys_.assign(columnStart_.back(), 0);
      fill.assign(columnStart_.begin(), columnStart_.end() - 1);
    }
    forEachGroundPolygon([&](const dtMeshTile& tile, const dtPoly& poly, dtPolyRef ref, std::size_t) {
      cellsOf(tile, poly, [&](std::size_t c) {
        if (pass == 0)
          ++columnStart_[c + 1];
        else
          columnPolys_[fill[c]++] = ref;
      });
    });
  }
}

template <class F>
void NavMesh::forPolysNear(steer::Vec2 lo, steer::Vec2 hi, F&& each) const {
  // Clamped as floats first: a far point's cell does not fit an int.
  const auto cell = [&](float v, float origin, int count) {
    return static_cast<int>(
        std::clamp(std::floor((v - origin) / columnCell_), 0.0f, static_cast<float>(count - 1)));
  };
  const int x0 = cell(lo.x, columnOrigin_.x, columnsX_), x1 = cell(hi.x, columnOrigin_.x, columnsX_);
  const int y0 = cell(lo.y, columnOrigin_.y, columnsY_), y1 = cell(hi.y, columnOrigin_.y, columnsY_);
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const std::size_t c =
          static_cast<std::size_t>(y) * static_cast<std::size_t>(columnsX_) + static_cast<std::size_t>(x);
      for (std::uint32_t k = columnStart_[c]; k < columnStart_[c + 1]; ++k) each(columnPolys_[k]);
    }
  }
}

NavPoint NavMesh::nearestSloped(steer::Vec2 p, float searchRadius) const {
  // The polygon under p, or else the one nearest in (x, y): one floor has one answer, so the
  // height of the query point does not pick a floor (Detour's 3-D nearest would, wrongly).
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || !(searchRadius >= 0.0f)) return {};
  const steer::Vec2 r{searchRadius, searchRadius};
  NavPoint best;
  float bestD2 = std::numeric_limits<float>::max();
  forPolysNear(p - r, p + r, [&](dtPolyRef ref) {
    float pos[3], closest[3];
    toRecast(p, pos);
    bool over = false;
    if (dtStatusFailed(query_->closestPointOnPoly(ref, pos, closest, &over))) return;
    const steer::Vec2 q = fromRecast(closest);
    if (std::abs(q.x - p.x) > searchRadius + 1e-3f || std::abs(q.y - p.y) > searchRadius + 1e-3f) return;
    const float d2 = steer::distanceSq(p, q);
    if (d2 < bestD2 || (d2 == bestD2 && ref < best.poly)) {
      bestD2 = d2;
      best = {ref, q, closest[1]};
    }
  });
  return best;
}

bool NavMesh::heightOver(dtPolyRef poly, steer::Vec2 p, float& height) const {
  if (poly == 0 || !mesh_->isValidPolyRef(poly)) return false;
  float pos[3], closest[3];
  toRecast(p, pos);
  bool over = false;
  if (dtStatusFailed(query_->closestPointOnPoly(poly, pos, closest, &over)) || !over) return false;
  height = closest[1];
  return true;
}

std::uint32_t NavMesh::islandAt(steer::Vec2 p, float height) const {
  if (!sloped_) {
    const NavPoint on = nearest(p, 0.01f);
    return on ? islandOf(on.poly) : 0;
  }
  std::uint32_t best = 0;
  float bestDy = std::numeric_limits<float>::max();
  forPolysNear(p, p, [&](dtPolyRef ref) {
    float pos[3], closest[3];
    toRecast(p, pos, height);
    bool over = false;
    if (dtStatusFailed(query_->closestPointOnPoly(ref, pos, closest, &over)) || !over) return;
    const float dy = std::abs(closest[1] - height);
    if (dy < bestDy) bestDy = dy, best = islandOf(ref);
  });
  return best;
}

std::vector<bool> NavMesh::islandsWithRoom(const NavMesh& shrunk) const {
  std::vector<bool> keep(islandCount_ + 1, false);
  shrunk.forEachGroundPolygon([&](const dtMeshTile& tile, const dtPoly& poly, dtPolyRef, std::size_t) {
    float low, high;
    const Polygon q = outlineOf(tile, poly, low, high);
    keep[islandAt(centroidOf(q), 0.5f * (low + high))] = true;
  });
  keep[0] = false;
  return keep;
}

std::vector<NavMesh::Edge> NavMesh::boundaryEdges(const std::vector<bool>& keep) const {
  std::vector<Edge> out;
  forEachGroundPolygon([&](const dtMeshTile& tile, const dtPoly& poly, dtPolyRef, std::size_t dense) {
    if (!keep.empty() && !keep[island_[dense]]) return;
    float low, high;
    const Polygon q = outlineOf(tile, poly, low, high);
    const steer::Vec2 centre = centroidOf(q);
    for (int e = 0; e < poly.vertCount; ++e) {
      bool open = poly.neis[e] != 0;
      if (open && (poly.neis[e] & DT_EXT_LINK)) {  // a tile's border: open where a link crosses it
        open = false;
        for (unsigned int l = poly.firstLink; l != DT_NULL_LINK; l = tile.links[l].next)
          open = open || (tile.links[l].edge == e && tile.links[l].ref != 0);
      }
      if (open) continue;
      Edge edge{q[static_cast<std::size_t>(e)], q[static_cast<std::size_t>((e + 1) % poly.vertCount)]};
      if (steer::cross(edge.to - edge.from, centre - edge.from) < 0.0f) std::swap(edge.from, edge.to);
      out.push_back(edge);
    }
  });
  return out;
}

std::string NavMesh::floorOverlap(float minArea, const std::vector<bool>& keep) const {
  if (!sloped_) return {};
  std::string found;
  forEachGroundPolygon([&](const dtMeshTile& tile, const dtPoly& poly, dtPolyRef self, std::size_t dense) {
    if (!found.empty() || (!keep.empty() && !keep[island_[dense]])) return;
    float low, high;
    const Polygon a = outlineOf(tile, poly, low, high);
    steer::Vec2 lo, hi;
    boxOf(a, lo, hi);
    forPolysNear(lo, hi, [&](dtPolyRef other) {
      if (!found.empty() || other <= self || (!keep.empty() && !keep[islandOf(other)])) return;
      const dtMeshTile* t2 = nullptr;
      const dtPoly* p2 = nullptr;
      if (dtStatusFailed(mesh_->getTileAndPolyByRef(other, &t2, &p2))) return;
      float l2, h2;
      const Polygon common = clipConvex(a, outlineOf(*t2, *p2, l2, h2));
      if (common.size() < 3 || std::abs(signedArea(common)) <= minArea) return;
      const steer::Vec2 c = centroidOf(common);
      float pos[3], ha = 0.0f, hb = 0.0f;
      toRecast(c, pos);
      if (dtStatusFailed(query_->getPolyHeight(self, pos, &ha)) ||
          dtStatusFailed(query_->getPolyHeight(other, pos, &hb)))
        return;
      if (std::abs(ha - hb) < 0.5f) return;  // one floor, folded at a voxel seam
      char text[200];
      std::snprintf(text, sizeof text,
                    "two floors overlap near (%.1f, %.1f): walkable ground at %.1f m and at %.1f m above it "
                    "(%.1f m^2 one over the other)",
                    c.x, c.y, std::min(ha, hb), std::max(ha, hb), std::abs(signedArea(common)));
      found = text;
    });
  });
  return found;
}

}  // namespace steerd::nav
