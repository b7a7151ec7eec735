// Checks Detour tile data before dtNavMesh::addTile trusts it. Detour reads a tile's arrays where
// its header's counts say they are and follows every index inside them unchecked, so a cache file
// whose header lies (an attacker who can also write the cache key) could make it read or write out
// of bounds. Built tiles always pass; this is for tiles read back from disk.
#pragma once

#include <cstddef>
#include <string>

namespace steerd::nav {

// Empty when `data` is a well-formed tile: magic and version, every array inside `size` bytes,
// every polygon, neighbour, detail, bounding-volume and off-mesh index in range. Otherwise what
// is wrong ("polygon 12 names vertex 900 of 64").
std::string tileDataProblem(const unsigned char* data, std::size_t size);

}  // namespace steerd::nav
