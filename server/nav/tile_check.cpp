#include "nav/tile_check.h"

#include <DetourCommon.h>
#include <DetourNavMesh.h>

#include <cstdint>
#include <cstring>

namespace steerd::nav {

namespace {

constexpr int kMaxCount = 1 << 22;  // far above any tile steerd builds (polygons, vertices, links)

std::string at(const char* what, long long index) { return std::string(what) + " " + std::to_string(index); }

}  // namespace

std::string tileDataProblem(const unsigned char* data, std::size_t size) {
  if (data == nullptr || size < sizeof(dtMeshHeader)) return "shorter than a tile header";
  dtMeshHeader h;
  std::memcpy(&h, data, sizeof h);
  if (h.magic != DT_NAVMESH_MAGIC) return "not Detour tile data (bad magic)";
  if (h.version != DT_NAVMESH_VERSION) return "Detour tile data of another version";
  for (const int count : {h.polyCount, h.vertCount, h.maxLinkCount, h.detailMeshCount, h.detailVertCount,
                          h.detailTriCount, h.bvNodeCount, h.offMeshConCount}) {
    if (count < 0 || count > kMaxCount) return "a count in the header is out of range";
  }
  if (h.maxLinkCount < 1) return "no room for links";  // addTile writes links[maxLinkCount - 1]
  if (h.offMeshBase < 0 || h.offMeshBase + h.offMeshConCount > h.polyCount)
    return "off-mesh connections past the polygons";
  // One detail mesh per ground polygon; the off-mesh connections' polygons come after them.
  if (h.detailMeshCount > h.polyCount) return "more detail meshes than polygons";
  // The layout addTile assumes (DetourNavMesh.cpp): each array 4-byte aligned, in this order.
  const std::uint64_t headerSize = static_cast<std::uint64_t>(dtAlign4(sizeof(dtMeshHeader)));
  const auto bytes = [](std::uint64_t n, std::uint64_t each) { return (n * each + 3) & ~std::uint64_t{3}; };
  const std::uint64_t vertsAt = headerSize;
  const std::uint64_t polysAt = vertsAt + bytes(static_cast<std::uint64_t>(h.vertCount), sizeof(float) * 3);
  const std::uint64_t linksAt = polysAt + bytes(static_cast<std::uint64_t>(h.polyCount), sizeof(dtPoly));
  const std::uint64_t detailAt = linksAt + bytes(static_cast<std::uint64_t>(h.maxLinkCount), sizeof(dtLink));
  const std::uint64_t detailVertsAt =
      detailAt + bytes(static_cast<std::uint64_t>(h.detailMeshCount), sizeof(dtPolyDetail));
  const std::uint64_t detailTrisAt =
      detailVertsAt + bytes(static_cast<std::uint64_t>(h.detailVertCount), sizeof(float) * 3);
  const std::uint64_t bvAt = detailTrisAt + bytes(static_cast<std::uint64_t>(h.detailTriCount), 4);
  const std::uint64_t offMeshAt = bvAt + bytes(static_cast<std::uint64_t>(h.bvNodeCount), sizeof(dtBVNode));
  const std::uint64_t end =
      offMeshAt + bytes(static_cast<std::uint64_t>(h.offMeshConCount), sizeof(dtOffMeshConnection));
  if (end > size) return "its arrays run past the end of the data";

  const auto read = [&](std::uint64_t offset, auto& out) { std::memcpy(&out, data + offset, sizeof out); };
  for (int p = 0; p < h.polyCount; ++p) {
    dtPoly poly;
    read(polysAt + static_cast<std::uint64_t>(p) * sizeof(dtPoly), poly);
    const bool offMesh = poly.getType() == DT_POLYTYPE_OFFMESH_CONNECTION;
    if (poly.vertCount > DT_VERTS_PER_POLYGON || poly.vertCount < (offMesh ? 2 : 3))
      return at("polygon", p) + " has " + std::to_string(poly.vertCount) + " vertices";
    for (int v = 0; v < poly.vertCount; ++v) {
      if (poly.verts[v] >= h.vertCount)
        return at("polygon", p) + " names " + at("vertex", poly.verts[v]) + " of " +
               std::to_string(h.vertCount);
      const unsigned short nei = poly.neis[v];
      if (nei != 0 && !(nei & DT_EXT_LINK) && nei - 1 >= h.polyCount)
        return at("polygon", p) + " names " + at("neighbour", nei - 1) + " of " + std::to_string(h.polyCount);
    }
    if (p >= h.detailMeshCount || offMesh) continue;
    dtPolyDetail pd;
    read(detailAt + static_cast<std::uint64_t>(p) * sizeof(dtPolyDetail), pd);
    if (std::uint64_t{pd.vertBase} + pd.vertCount > static_cast<std::uint64_t>(h.detailVertCount) ||
        std::uint64_t{pd.triBase} + pd.triCount > static_cast<std::uint64_t>(h.detailTriCount))
      return at("polygon", p) + "'s detail mesh runs past the detail arrays";
    for (int t = 0; t < pd.triCount; ++t) {
      unsigned char tri[4];
      read(detailTrisAt + (std::uint64_t{pd.triBase} + static_cast<std::uint64_t>(t)) * 4, tri);
      for (int k = 0; k < 3; ++k) {
        if (tri[k] >= poly.vertCount + pd.vertCount)
          return at("polygon", p) + "'s detail triangle names no vertex";
      }
    }
  }
  for (int n = 0; n < h.bvNodeCount; ++n) {
    dtBVNode node;
    read(bvAt + static_cast<std::uint64_t>(n) * sizeof(dtBVNode), node);
    // A leaf names a polygon; an inner node the distance to its escape, within the tree.
    if (node.i >= 0 ? node.i >= h.polyCount
                    : (node.i == INT32_MIN || static_cast<long long>(n) - node.i > h.bvNodeCount))
      return at("bounding-volume node", n) + " points outside the tree";
  }
  for (int c = 0; c < h.offMeshConCount; ++c) {
    dtOffMeshConnection con;
    read(offMeshAt + static_cast<std::uint64_t>(c) * sizeof(dtOffMeshConnection), con);
    if (con.poly >= h.polyCount) return at("off-mesh connection", c) + " names no polygon";
  }
  return {};
}

}  // namespace steerd::nav
