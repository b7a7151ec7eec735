// A game's level as triangles, ready for Recast: what the OBJ and glTF importers produce.
//
// Coordinates are Recast's axes in metres, after the import's scale and up axis: x, up, z, so
// the steering world's ground plane (x, y) is Recast's (x, z) (server/nav maps the rest).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace steerd::level {

struct LevelMesh {
  std::vector<float> verts;        // 3 per vertex: x, up, z
  std::vector<std::int32_t> tris;  // 3 vertex indices per triangle, each < verts.size() / 3
  std::vector<std::uint8_t>
      walkable;  // per triangle: 1 may be walked on where its slope allows, 0 only blocks
  std::vector<std::string> warnings;  // allowed but worth saying (a mesh skipped, a material ignored)
  std::size_t triangleCount() const { return tris.size() / 3; }
};

enum class UpAxis { kY, kZ };

// What a mesh file cannot say for itself (steerd --level-scale, --level-up, --level-walkable,
// --level-blocking; a scenario's level { ... } block).
struct MeshImportOptions {
  float scale = 1.0f;          // file units to metres
  UpAxis up = UpAxis::kY;      // glTF is always +Y up; OBJ from Blender is Y up by default too
  std::string walkable = "*";  // glob over object, group, mesh and node names: may be walked on
  std::string blocking;        // glob: never walked on, only blocks (wins over `walkable`)
  // Limits a hostile file cannot pass (each refusal says which).
  std::size_t maxFileBytes = std::size_t{256} << 20;
  std::size_t maxTriangles = 4'000'000;
  float maxCoordinate = 100'000.0f;  // m, after scale
};

struct MeshLoad {
  LevelMesh mesh;
  std::string error;  // empty on success; otherwise names the file and what is wrong
};

// Reads a whole file, refusing one larger than `limit` bytes (or not a regular file); `error`
// names the path.
bool readFileCapped(const std::string& path, std::size_t limit, std::string& out, std::string& error);

// Glob with * and ? (case-sensitive); an empty pattern matches nothing.
bool globMatch(std::string_view pattern, std::string_view name);

// Maps a point in the file's axes to Recast's (x, up, z) with the scale applied, so that the
// world's (x, y) reads as the editor's top view (north up).
void toLevelAxes(const float in[3], const MeshImportOptions& options, float out[3]);
// Whether that map is a mirror image (it is, for both up axes): a triangle's corners are then
// taken in the other order, so a floor still faces up (Recast walks only up-facing triangles:
// counter-clockwise seen from above, as glTF and OBJ exporters write them).
bool levelAxesMirror(const MeshImportOptions& options);

// Checks the finished mesh against the limits and for NaN, inf and out-of-range indices; the
// message names `displayName`. Empty when it is fine.
std::string checkLevelMesh(const LevelMesh& mesh, const MeshImportOptions& options,
                           const std::string& displayName);

// Wavefront OBJ (tinyobjloader): every face, fanned into triangles; objects and groups are the
// names the patterns match.
MeshLoad loadObjFile(const std::string& path, const MeshImportOptions& options);
MeshLoad loadObjText(std::string_view text, const std::string& displayName, const MeshImportOptions& options);

// glTF 2.0, .gltf (JSON, buffers beside it or as data: URIs) or .glb (tinygltf): the default
// scene's nodes with their transforms, TRIANGLES primitives (strips and fans converted); a
// node's name, its mesh's name, or `extras: {"steerd": "walkable" | "blocking" | "ignore"}`
// decide what each part is.
MeshLoad loadGltfFile(const std::string& path, const MeshImportOptions& options);
// `baseDir` resolves external buffers (none when empty: only embedded ones are read).
MeshLoad loadGltfBytes(std::string_view bytes, bool binary, const std::string& displayName,
                       const std::string& baseDir, const MeshImportOptions& options);

}  // namespace steerd::level
