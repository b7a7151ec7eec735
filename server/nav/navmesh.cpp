#include "nav/navmesh.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace steerd::nav {

std::unique_ptr<NavMesh> NavMesh::fromTiles(const NavMeshTiles& tiles, const std::vector<float>& areaCosts,
                                            std::string& error) {
  std::unique_ptr<NavMesh> m(new NavMesh());
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
  m->filter_.setExcludeFlags(0);
  for (std::size_t i = 0; i < areaCosts.size() && i < 62; ++i)
    m->filter_.setAreaCost(static_cast<int>(i + 1), areaCosts[i]);
  m->filter_.setAreaCost(kGroundArea, 1.0f);
  m->findIslands();
  return m;
}

NavPoint NavMesh::nearest(steer::Vec2 p, float searchRadius) const {
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
}

std::uint32_t NavMesh::islandOf(dtPolyRef poly) const {
  if (poly == 0 || !mesh_->isValidPolyRef(poly)) return 0;
  const std::size_t i = polyIndex(poly);
  return i < island_.size() ? island_[i] : 0;
}

std::vector<Polygon> NavMesh::polygons() const {
  std::vector<Polygon> out;
  const dtNavMesh& mesh = *mesh_;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const dtMeshTile* tile = mesh.getTile(i);
    if (!tile || !tile->header) continue;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const dtPoly& poly = tile->polys[p];
      if (poly.getType() == DT_POLYTYPE_OFFMESH_CONNECTION) continue;
      Polygon q;
      for (int v = 0; v < poly.vertCount; ++v) q.push_back(fromRecast(&tile->verts[poly.verts[v] * 3]));
      out.push_back(std::move(q));
    }
  }
  return out;
}

}  // namespace steerd::nav
