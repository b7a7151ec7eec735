// Wavefront OBJ levels through tinyobjloader. The file is read here (size-capped) and parsed from
// memory, so `mtllib` lines open nothing; faces are kept as polygons and fanned here, after every
// index is checked, since the library's own triangulation reads vertices before anyone checks.
#include <tiny_obj_loader.h>

#include <sstream>

#include "level/level_mesh.h"

namespace steerd::level {

namespace {

std::string firstLine(const std::string& s) {
  const auto end = s.find('\n');
  return end == std::string::npos ? s : s.substr(0, end);
}

}  // namespace

MeshLoad loadObjText(std::string_view text, const std::string& displayName,
                     const MeshImportOptions& options) {
  MeshLoad r;
  if (text.size() > options.maxFileBytes) {
    r.error = displayName + ": " + std::to_string(text.size()) + " bytes, more than the limit of " +
              std::to_string(options.maxFileBytes);
    return r;
  }
  tinyobj::ObjReaderConfig config;
  config.triangulate = false;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromString(std::string(text), std::string(), config)) {
    const std::string why = firstLine(reader.Error());
    r.error = displayName + ": not a valid OBJ file" + (why.empty() ? "" : ": " + why);
    return r;
  }
  const auto& positions = reader.GetAttrib().vertices;
  LevelMesh& m = r.mesh;
  m.verts.reserve(positions.size());
  for (std::size_t i = 0; i + 2 < positions.size(); i += 3) {
    const float in[3] = {positions[i], positions[i + 1], positions[i + 2]};
    float out[3];
    toLevelAxes(in, options, out);
    m.verts.insert(m.verts.end(), out, out + 3);
  }
  const auto vertexCount = static_cast<std::int64_t>(m.verts.size() / 3);
  const bool mirror = levelAxesMirror(options);
  for (const auto& shape : reader.GetShapes()) {
    const bool walkable =
        !globMatch(options.blocking, shape.name) &&
        (globMatch(options.walkable, shape.name) || (shape.name.empty() && options.walkable == "*"));
    std::size_t at = 0;
    for (std::size_t f = 0; f < shape.mesh.num_face_vertices.size(); ++f) {
      const std::size_t n = shape.mesh.num_face_vertices[f];
      if (at + n > shape.mesh.indices.size()) {
        r.error = displayName + ": face " + std::to_string(f + 1) + " of \"" + shape.name + "\" is cut short";
        return r;
      }
      for (std::size_t k = 0; k < n; ++k) {
        const int v = shape.mesh.indices[at + k].vertex_index;
        if (v < 0 || v >= vertexCount) {
          r.error = displayName + ": face " + std::to_string(f + 1) + " of \"" + shape.name +
                    "\" names a vertex that does not exist (there are " + std::to_string(vertexCount) + ")";
          return r;
        }
      }
      for (std::size_t k = 1; k + 1 < n; ++k) {  // fan: faces are planar, usually quads or triangles
        if (m.triangleCount() >= options.maxTriangles) {
          r.error =
              displayName + ": more than the limit of " + std::to_string(options.maxTriangles) + " triangles";
          return r;
        }
        const int a = shape.mesh.indices[at].vertex_index, b = shape.mesh.indices[at + k].vertex_index,
                  c = shape.mesh.indices[at + k + 1].vertex_index;
        if (a == b || b == c || a == c) continue;
        if (mirror)
          m.tris.insert(m.tris.end(), {a, c, b});
        else
          m.tris.insert(m.tris.end(), {a, b, c});
        m.walkable.push_back(walkable ? 1 : 0);
      }
      at += n;
    }
  }
  std::istringstream warnings(reader.Warning());
  for (std::string line; std::getline(warnings, line) && m.warnings.size() < 5;)
    if (!line.empty()) m.warnings.push_back(displayName + ": " + line);
  r.error = checkLevelMesh(m, options, displayName);
  return r;
}

MeshLoad loadObjFile(const std::string& path, const MeshImportOptions& options) {
  std::string text, error;
  if (!readFileCapped(path, options.maxFileBytes, text, error)) {
    MeshLoad r;
    r.error = error;
    return r;
  }
  return loadObjText(text, path, options);
}

}  // namespace steerd::level
