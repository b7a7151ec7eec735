#include "level/level_mesh.h"

#include <cmath>
#include <fstream>

namespace steerd::level {

bool readFileCapped(const std::string& path, std::size_t limit, std::string& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open the file";
    return false;
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) {
    error = path + ": cannot read the file (not a regular file?)";
    return false;
  }
  if (static_cast<std::uint64_t>(size) > limit) {
    error = path + ": " + std::to_string(size) + " bytes, more than the limit of " + std::to_string(limit);
    return false;
  }
  in.seekg(0);
  out.resize(static_cast<std::size_t>(size));
  in.read(out.data(), size);
  if (in.gcount() != size) {
    error = path + ": cannot read the file";
    return false;
  }
  return true;
}

bool globMatch(std::string_view pattern, std::string_view name) {
  if (pattern.empty()) return false;
  // Iterative glob with one backtrack point: linear in practice, never exponential.
  std::size_t p = 0, n = 0, starP = std::string_view::npos, starN = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      starP = p++;
      starN = n;
    } else if (starP != std::string_view::npos) {
      p = starP + 1;
      n = ++starN;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

void toLevelAxes(const float in[3], const MeshImportOptions& options, float out[3]) {
  const float s = options.scale;
  // The world's (x, y) is Recast's (x, z), and y points north as an editor's top view shows it:
  // -z in a Y-up file (glTF, Godot, Unity, Blender's Y-up OBJ), +y in a Z-up one (Blender).
  if (options.up == UpAxis::kZ) {
    out[0] = in[0] * s;
    out[1] = in[2] * s;
    out[2] = in[1] * s;
  } else {
    out[0] = in[0] * s;
    out[1] = in[1] * s;
    out[2] = -in[2] * s;
  }
}

bool levelAxesMirror(const MeshImportOptions& options) {
  float m[3][3];
  for (int axis = 0; axis < 3; ++axis) {
    float in[3] = {0.0f, 0.0f, 0.0f};
    in[axis] = 1.0f;
    toLevelAxes(in, options, m[axis]);
  }
  const float det = m[0][0] * (m[1][1] * m[2][2] - m[2][1] * m[1][2]) -
                    m[1][0] * (m[0][1] * m[2][2] - m[2][1] * m[0][2]) +
                    m[2][0] * (m[0][1] * m[1][2] - m[1][1] * m[0][2]);
  return det < 0.0f;
}

std::string checkLevelMesh(const LevelMesh& mesh, const MeshImportOptions& options,
                           const std::string& displayName) {
  if (mesh.tris.size() % 3 != 0 || mesh.verts.size() % 3 != 0 || mesh.walkable.size() * 3 != mesh.tris.size())
    return displayName + ": internal error: the mesh's arrays do not match";
  if (mesh.tris.empty()) return displayName + ": no triangles (nothing to walk on)";
  if (mesh.triangleCount() > options.maxTriangles)
    return displayName + ": " + std::to_string(mesh.triangleCount()) + " triangles, more than the limit of " +
           std::to_string(options.maxTriangles);
  for (std::size_t i = 0; i < mesh.verts.size(); ++i) {
    const float v = mesh.verts[i];
    if (!std::isfinite(v))
      return displayName + ": vertex " + std::to_string(i / 3 + 1) + " is not a finite number";
    if (std::abs(v) > options.maxCoordinate)
      return displayName + ": vertex " + std::to_string(i / 3 + 1) + " lies " + std::to_string(std::abs(v)) +
             " m out, beyond the limit of " + std::to_string(options.maxCoordinate) +
             " m (wrong --level-scale?)";
  }
  const auto count = static_cast<std::int64_t>(mesh.verts.size() / 3);
  for (std::size_t i = 0; i < mesh.tris.size(); ++i) {
    if (mesh.tris[i] < 0 || mesh.tris[i] >= count)
      return displayName + ": triangle " + std::to_string(i / 3 + 1) + " names vertex " +
             std::to_string(mesh.tris[i] + 1) + ", but there are " + std::to_string(count);
  }
  bool anyWalkable = false;
  for (const auto w : mesh.walkable) anyWalkable = anyWalkable || w != 0;
  if (!anyWalkable)
    return displayName + ": no part may be walked on (see --level-walkable and --level-blocking)";
  return {};
}

}  // namespace steerd::level
