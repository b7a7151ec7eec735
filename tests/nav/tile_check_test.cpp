// Tile data read back from a cache file is checked before Detour follows its counts and indices:
// built tiles pass, and each kind of lie in a header or an array is refused, not crashed on.
#include "nav/tile_check.h"

#include <gtest/gtest.h>

#include <DetourNavMesh.h>

#include <cstring>

#include "nav/navmesh.h"
#include "nav/navmesh_build.h"

namespace steerd::nav {
namespace {

// A 20 m field with a box in the middle and an off-mesh link over it: one tile, detail, BV tree.
std::vector<unsigned char> builtTile() {
  NavInput in;
  in.boundsMin = {0, 0};
  in.boundsMax = {20, 20};
  in.blocking.push_back({{8, 8}, {12, 8}, {12, 12}, {8, 12}});
  in.links.push_back({{6, 10}, {14, 10}, 0.5f, true});
  const NavBuildResult r = buildNavMeshTiles(in);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.tiles.tiles.size(), 1u);
  return r.tiles.tiles.front().data;
}

dtMeshHeader headerOf(const std::vector<unsigned char>& d) {
  dtMeshHeader h;
  std::memcpy(&h, d.data(), sizeof h);
  return h;
}
void setHeader(std::vector<unsigned char>& d, const dtMeshHeader& h) { std::memcpy(d.data(), &h, sizeof h); }

// Where polygon p lies in the data (the layout addTile assumes).
std::size_t polyOffset(const dtMeshHeader& h, int p) {
  const auto align = [](std::size_t n) { return (n + 3) & ~std::size_t{3}; };
  return align(sizeof(dtMeshHeader)) + align(sizeof(float) * 3 * static_cast<std::size_t>(h.vertCount)) +
         sizeof(dtPoly) * static_cast<std::size_t>(p);
}

TEST(TileCheck, BuiltTilesPass) {
  const auto d = builtTile();
  EXPECT_EQ(tileDataProblem(d.data(), d.size()), "");
  EXPECT_GT(headerOf(d).offMeshConCount, 0);
  EXPECT_GT(headerOf(d).bvNodeCount, 0);
}

TEST(TileCheck, LyingHeadersAreRefused) {
  const auto good = builtTile();
  const dtMeshHeader h0 = headerOf(good);
  const auto refused = [&](auto change) {
    auto d = good;
    dtMeshHeader h = h0;
    change(h);
    setHeader(d, h);
    return tileDataProblem(d.data(), d.size());
  };
  EXPECT_NE(refused([](dtMeshHeader& h) { h.magic = 1; }), "");
  EXPECT_NE(refused([](dtMeshHeader& h) { h.version = 99; }), "");
  EXPECT_NE(refused([](dtMeshHeader& h) { h.polyCount = 1 << 20; }), "");  // arrays past the end
  EXPECT_NE(refused([](dtMeshHeader& h) { h.vertCount = -5; }), "");
  EXPECT_NE(refused([](dtMeshHeader& h) { h.maxLinkCount = 0; }), "");
  EXPECT_NE(refused([](dtMeshHeader& h) { h.offMeshBase = h.polyCount; }), "");
  EXPECT_NE(refused([](dtMeshHeader& h) { h.detailMeshCount = h.polyCount + 1; }), "");
  // Fewer vertices than the polygons name: every array still fits, but an index does not.
  EXPECT_NE(refused([](dtMeshHeader& h) { h.vertCount = 2; }), "");
  EXPECT_NE(tileDataProblem(good.data(), good.size() / 2), "");
  EXPECT_NE(tileDataProblem(good.data(), 8), "");
}

TEST(TileCheck, BadIndicesInsideTheArraysAreRefused) {
  const auto good = builtTile();
  const dtMeshHeader h = headerOf(good);
  const auto withPoly = [&](auto change) {
    auto d = good;
    dtPoly poly;
    std::memcpy(&poly, d.data() + polyOffset(h, 0), sizeof poly);
    change(poly);
    std::memcpy(d.data() + polyOffset(h, 0), &poly, sizeof poly);
    return tileDataProblem(d.data(), d.size());
  };
  EXPECT_NE(withPoly([&](dtPoly& p) { p.verts[0] = static_cast<unsigned short>(h.vertCount + 7); }), "");
  EXPECT_NE(withPoly([](dtPoly& p) { p.vertCount = DT_VERTS_PER_POLYGON + 1; }), "");
  EXPECT_NE(withPoly([&](dtPoly& p) { p.neis[0] = static_cast<unsigned short>(h.polyCount + 5); }), "");
  EXPECT_EQ(withPoly([](dtPoly& p) { p.neis[0] = DT_EXT_LINK | 2; }), "");  // a tile border: fine
}

TEST(TileCheck, ACacheTileThatLiesGivesAnErrorNotACrash) {
  NavMeshTiles tiles;
  tiles.tileWidth = 20;
  tiles.tilesX = tiles.tilesY = 1;
  tiles.maxPolysPerTile = 1 << 16;
  tiles.tiles.push_back({0, 0, builtTile()});
  std::string error;
  EXPECT_NE(NavMesh::fromTiles(tiles, {}, error), nullptr) << error;
  dtMeshHeader h = headerOf(tiles.tiles[0].data);
  h.vertCount = 2;
  setHeader(tiles.tiles[0].data, h);
  EXPECT_EQ(NavMesh::fromTiles(tiles, {}, error), nullptr);
  EXPECT_NE(error.find("tile (0, 0)"), std::string::npos) << error;
}

}  // namespace
}  // namespace steerd::nav
