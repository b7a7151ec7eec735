// glTF 2.0 levels through tinygltf (Debian's shared library). tinygltf parses the JSON and the
// buffers; it checks little of what the JSON says about them, so every index, offset, stride and
// count is checked here before a byte is read. Images are never decoded, and external files are
// read only from the level's own folder, through file callbacks that refuse everything else.
#include <tiny_gltf.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "level/level_mesh.h"

namespace steerd::level {

namespace {

constexpr int kMaxNodeDepth = 64;
// tinygltf turns `extras` and `extensions` into its own values recursively, so a file nested
// thousands deep would overflow the stack: nesting is capped before it parses.
constexpr int kMaxJsonNesting = 128;
constexpr std::size_t kMaxNameChars = 60;
constexpr std::size_t kMaxLibraryMessage = 200;

// ---------------------------------------------------------------------------------------------
// Names in messages

std::string quotedName(const std::string& name) {
  std::string s = "\"";
  for (std::size_t i = 0; i < name.size() && i < kMaxNameChars; ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    s += c < 0x20 || c == 0x7f ? '?' : name[i];  // a name must not break the message's line
  }
  if (name.size() > kMaxNameChars) s += "...";
  return s + "\"";
}

std::string nodeLabel(const tinygltf::Model& model, int index) {
  const auto& name = model.nodes[static_cast<std::size_t>(index)].name;
  return name.empty() ? "node " + std::to_string(index) : "node " + quotedName(name);
}

std::string meshLabel(const tinygltf::Model& model, int index) {
  const auto& name = model.meshes[static_cast<std::size_t>(index)].name;
  return name.empty() ? "mesh " + std::to_string(index) : "mesh " + quotedName(name);
}

// tinygltf's own message: its first line, short (some quote a whole data: URI).
std::string libraryMessage(const std::string& err) {
  std::string s = err.substr(0, err.find('\n'));
  if (s.size() > kMaxLibraryMessage) s = s.substr(0, kMaxLibraryMessage) + "...";
  return s.empty() ? "unknown error" : s;
}

const char* typeName(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return "SCALAR";
    case TINYGLTF_TYPE_VEC2:
      return "VEC2";
    case TINYGLTF_TYPE_VEC3:
      return "VEC3";
    case TINYGLTF_TYPE_VEC4:
      return "VEC4";
    case TINYGLTF_TYPE_MAT2:
      return "MAT2";
    case TINYGLTF_TYPE_MAT3:
      return "MAT3";
    case TINYGLTF_TYPE_MAT4:
      return "MAT4";
    default:
      return "an unknown type";
  }
}

const char* componentName(int componentType) {
  switch (componentType) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
      return "BYTE";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return "UNSIGNED_BYTE";
    case TINYGLTF_COMPONENT_TYPE_SHORT:
      return "SHORT";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return "UNSIGNED_SHORT";
    case TINYGLTF_COMPONENT_TYPE_INT:
      return "INT";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
      return "UNSIGNED_INT";
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return "FLOAT";
    case TINYGLTF_COMPONENT_TYPE_DOUBLE:
      return "DOUBLE";
    default:
      return "an unknown component type";
  }
}

std::uint64_t componentBytes(int componentType) {
  switch (componentType) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return 2;
    case TINYGLTF_COMPONENT_TYPE_INT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return 4;
    case TINYGLTF_COMPONENT_TYPE_DOUBLE:
      return 8;
    default:
      return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Checks on the bytes before tinygltf sees them

bool nestedTooDeep(std::string_view json, int limit) {
  int depth = 0;
  bool inString = false, escaped = false;
  for (const char c : json) {
    if (inString) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        inString = false;
      }
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

std::uint32_t readU32(std::string_view b, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<std::size_t>(i)]);
  return v;
}

// The .glb framing: header, then chunks that exactly fill the length the header gives. tinygltf
// checks part of this (not the BIN chunk's own header), so a lying length would read past the end.
std::string checkGlbFraming(std::string_view b) {
  constexpr std::uint32_t kJson = 0x4E4F534A;
  if (b.size() < 20) return "too short for a .glb file (" + std::to_string(b.size()) + " bytes)";
  if (b.substr(0, 4) != "glTF") return "not a .glb file (it does not start with \"glTF\")";
  const std::uint32_t version = readU32(b, 4);
  if (version != 2) return "glTF binary version " + std::to_string(version) + " (steerd reads version 2)";
  const std::uint64_t length = readU32(b, 8);
  if (length != b.size())
    return "the header says " + std::to_string(length) + " bytes, but there are " + std::to_string(b.size()) +
           " (cut short or damaged?)";
  if (readU32(b, 16) != kJson) return "the first chunk is not the JSON chunk";
  std::uint64_t at = 12;
  for (int chunk = 0; at < length; ++chunk) {
    if (length - at < 8) return "chunk " + std::to_string(chunk) + "'s header is cut short";
    const std::uint64_t chunkLength = readU32(b, static_cast<std::size_t>(at));
    if (chunkLength > length - at - 8)
      return "chunk " + std::to_string(chunk) + " says " + std::to_string(chunkLength) + " bytes, but only " +
             std::to_string(length - at - 8) + " follow";
    at += 8 + chunkLength;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// External files: tinygltf asks through these callbacks, which read only under the level's folder

struct ExternalFiles {
  std::string prefix;     // the level's folder with a trailing '/'; empty: no external file is read
  std::size_t fileLimit;  // bytes, each file
  std::size_t bytesLeft;  // bytes, all external files together (one file may be named many times)
  std::string refusal;    // why the first refused file was refused, for the error
};

void noteRefusal(ExternalFiles& files, std::string why) {
  if (files.refusal.empty()) files.refusal = std::move(why);
}

bool safeRelativePath(std::string_view rel) {
  if (rel.empty() || rel.front() == '/' || rel.front() == '\\' || rel.find('\0') != std::string_view::npos)
    return false;
  std::size_t start = 0;
  while (start <= rel.size()) {
    std::size_t end = rel.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = rel.size();
    if (rel.substr(start, end - start) == "..") return false;
    start = end + 1;
  }
  return true;
}

// Textures are never read: the navmesh needs none, and an image can be large.
bool isImagePath(std::string_view path) {
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string ext(path.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* image :
       {"png", "jpg", "jpeg", "gif", "bmp", "tga", "webp", "ktx", "ktx2", "dds", "basis", "hdr"})
    if (ext == image) return true;
  return false;
}

// Whether `path` (tinygltf joins its base dir and the URI) may be read. tinygltf also tries the
// URI under "."; that try is turned down quietly, since it is not the level's folder.
bool allowedPath(ExternalFiles& files, const std::string& path) {
  if (files.prefix.empty()) {
    noteRefusal(files, "buffer file " + quotedName(path) + " refused: only embedded buffers are read here");
    return false;
  }
  if (path.compare(0, files.prefix.size(), files.prefix) != 0) return false;
  const std::string rel = path.substr(files.prefix.size());
  if (!safeRelativePath(rel)) {
    noteRefusal(files,
                "buffer file " + quotedName(rel) +
                    " refused: only relative paths inside the level's folder, without \"..\", are read");
    return false;
  }
  return !isImagePath(rel);
}

bool fsFileExists(const std::string& path, void* user) {
  auto& files = *static_cast<ExternalFiles*>(user);
  std::error_code ec;
  return allowedPath(files, path) && std::filesystem::is_regular_file(path, ec);
}

std::string fsExpandFilePath(const std::string& path, void*) { return path; }  // no ~ or $VAR

bool fsReadWholeFile(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user) {
  auto& files = *static_cast<ExternalFiles*>(user);
  if (!allowedPath(files, path)) return false;
  std::string bytes, error;
  if (!readFileCapped(path, std::min(files.fileLimit, files.bytesLeft), bytes, error)) {
    noteRefusal(files, "buffer file " + error);
    if (err) *err += error;
    return false;
  }
  files.bytesLeft -= bytes.size();
  out->assign(bytes.begin(), bytes.end());
  return true;
}

bool fsWriteWholeFile(std::string*, const std::string&, const std::vector<unsigned char>&, void*) {
  return false;
}

bool skipImage(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int,
               void*) {
  return true;
}

// ---------------------------------------------------------------------------------------------
// Transforms, in double precision

using Mat4 = std::array<double, 16>;  // column-major, as glTF writes matrices

Mat4 identity() {
  Mat4 m{};
  m[0] = m[5] = m[10] = m[15] = 1.0;
  return m;
}

Mat4 multiply(const Mat4& a, const Mat4& b) {
  Mat4 r{};
  for (int col = 0; col < 4; ++col)
    for (int row = 0; row < 4; ++row) {
      double s = 0.0;
      for (int k = 0; k < 4; ++k) s += a[k * 4 + row] * b[col * 4 + k];
      r[col * 4 + row] = s;
    }
  return r;
}

void transformPoint(const Mat4& m, const double p[3], double out[3]) {
  for (int row = 0; row < 3; ++row)
    out[row] = m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row];
}

double linearDeterminant(const Mat4& m) {
  return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) +
         m[8] * (m[1] * m[6] - m[5] * m[2]);
}

// The node's own transform: its matrix, or translation * rotation * scale.
std::string localTransform(const tinygltf::Node& node, Mat4& out) {
  out = identity();
  if (!node.matrix.empty()) {
    if (node.matrix.size() != 16)
      return "matrix has " + std::to_string(node.matrix.size()) + " numbers, not 16";
    std::copy(node.matrix.begin(), node.matrix.end(), out.begin());
    return {};
  }
  if (!node.translation.empty() && node.translation.size() != 3) return "translation does not have 3 numbers";
  if (!node.scale.empty() && node.scale.size() != 3) return "scale does not have 3 numbers";
  if (!node.rotation.empty() && node.rotation.size() != 4) return "rotation does not have 4 numbers";
  double x = 0.0, y = 0.0, z = 0.0, w = 1.0;
  if (!node.rotation.empty()) {
    const auto& q = node.rotation;
    const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!std::isfinite(norm) || norm < 1e-9) return "rotation is not a unit quaternion";
    x = q[0] / norm, y = q[1] / norm, z = q[2] / norm, w = q[3] / norm;  // exporters round
  }
  const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                          {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                          {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
  for (int col = 0; col < 3; ++col) {
    const double s = node.scale.empty() ? 1.0 : node.scale[static_cast<std::size_t>(col)];
    for (int row = 0; row < 3; ++row) out[col * 4 + row] = r[row][col] * s;
  }
  for (int row = 0; row < 3 && !node.translation.empty(); ++row)
    out[12 + row] = node.translation[static_cast<std::size_t>(row)];
  return {};
}

// A float for the level: what a float cannot hold becomes infinite, which checkLevelMesh refuses.
float toFloat(double v) {
  if (std::isnan(v)) return std::numeric_limits<float>::quiet_NaN();
  if (std::abs(v) > static_cast<double>(std::numeric_limits<float>::max()))
    return v > 0 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
  return static_cast<float>(v);
}

// ---------------------------------------------------------------------------------------------
// What a part is

enum class Part { kUnset, kWalkable, kBlocking, kIgnore };

// `extras: {"steerd": "walkable" | "blocking" | "ignore"}` on a node or a mesh.
std::string partFromExtras(const tinygltf::Value& extras, const std::string& owner, Part& out) {
  out = Part::kUnset;
  if (!extras.IsObject() || !extras.Has("steerd")) return {};
  const tinygltf::Value& v = extras.Get("steerd");
  const std::string s = v.IsString() ? v.Get<std::string>() : std::string();
  if (s == "walkable") {
    out = Part::kWalkable;
  } else if (s == "blocking") {
    out = Part::kBlocking;
  } else if (s == "ignore") {
    out = Part::kIgnore;
  } else {
    return owner + ": extras \"steerd\" must be \"walkable\", \"blocking\" or \"ignore\"" +
           (v.IsString() ? ", not " + quotedName(s) : "");
  }
  return {};
}

Part partFromNames(const MeshImportOptions& options, const std::string& nodeName,
                   const std::string& meshName) {
  if (globMatch(options.blocking, nodeName) || globMatch(options.blocking, meshName)) return Part::kBlocking;
  if (globMatch(options.walkable, nodeName) || globMatch(options.walkable, meshName)) return Part::kWalkable;
  return Part::kBlocking;
}

// ---------------------------------------------------------------------------------------------
// Accessors

struct AccessorView {
  const unsigned char* data = nullptr;  // the first element
  std::uint64_t stride = 0;
  std::size_t count = 0;
  int componentType = 0;
};

// Whether `count` elements of `elementBytes`, `stride` apart from `offset`, lie within `length`
// bytes; no product or sum here can overflow.
bool fitsIn(std::uint64_t offset, std::uint64_t stride, std::uint64_t count, std::uint64_t elementBytes,
            std::uint64_t length) {
  if (offset > length) return false;
  if (count == 0) return true;
  const std::uint64_t room = length - offset;
  if (elementBytes > room) return false;
  return count - 1 <= (room - elementBytes) / stride;
}

std::uint32_t readIndex(const AccessorView& view, std::size_t i) {
  const unsigned char* at = view.data + i * view.stride;
  if (view.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE) return at[0];
  if (view.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
    std::uint16_t v;
    std::memcpy(&v, at, sizeof v);  // glTF is little-endian, as are the machines steerd runs on
    return v;
  }
  std::uint32_t v;
  std::memcpy(&v, at, sizeof v);
  return v;
}

std::size_t triangleCount(int mode, std::size_t n) {
  if (mode == TINYGLTF_MODE_TRIANGLES) return n / 3;
  return n >= 3 ? n - 2 : 0;  // strips and fans
}

// Triangle `t` of a primitive, as glTF orders strips (every other one turned) and fans.
std::array<std::size_t, 3> triangleCorners(int mode, std::size_t i) {
  if (mode == TINYGLTF_MODE_TRIANGLES) return {3 * i, 3 * i + 1, 3 * i + 2};
  if (mode == TINYGLTF_MODE_TRIANGLE_STRIP)
    return i % 2 == 0 ? std::array{i, i + 1, i + 2} : std::array{i, i + 2, i + 1};
  return {i + 1, i + 2, 0};  // fan
}

// ---------------------------------------------------------------------------------------------
// The scene, node by node, into the level

class SceneReader {
 public:
  SceneReader(const tinygltf::Model& model, const MeshImportOptions& options, LevelMesh& mesh)
      : model_(model),
        options_(options),
        mesh_(mesh),
        onPath_(model.nodes.size(), false),
        seen_(model.nodes.size(), false),
        levelMirrors_(levelAxesMirror(options)) {}

  // Every part of the scene into the mesh; an error does not name the file yet.
  std::string read() {
    std::vector<int> roots;
    if (std::string error = sceneRoots(roots); !error.empty()) return error;
    for (const int root : roots)
      if (std::string error = readNode(root, identity(), Part::kUnset, 1); !error.empty()) return error;
    return {};
  }

  std::vector<std::string> warnings(const std::string& displayName) const {
    std::vector<std::string> w;
    if (skippedPointsLines_ > 0)
      w.push_back(displayName + ": " + std::to_string(skippedPointsLines_) +
                  " primitive(s) of points or lines skipped (only triangles are walked on or block)");
    if (skippedNoPosition_ > 0)
      w.push_back(displayName + ": " + std::to_string(skippedNoPosition_) +
                  " primitive(s) without POSITION skipped");
    return w;
  }

 private:
  // The default scene's nodes, or scene 0's, or every node that is no other node's child.
  std::string sceneRoots(std::vector<int>& roots) const {
    const auto& scenes = model_.scenes;
    if (model_.defaultScene >= 0) {
      if (static_cast<std::size_t>(model_.defaultScene) >= scenes.size())
        return "the default scene " + std::to_string(model_.defaultScene) + " does not exist (there are " +
               std::to_string(scenes.size()) + ")";
      roots = scenes[static_cast<std::size_t>(model_.defaultScene)].nodes;
    } else if (!scenes.empty()) {
      roots = scenes.front().nodes;
    } else {
      std::vector<bool> isChild(model_.nodes.size(), false);
      for (const auto& node : model_.nodes)
        for (const int c : node.children)
          if (c >= 0 && static_cast<std::size_t>(c) < isChild.size())
            isChild[static_cast<std::size_t>(c)] = true;
      for (std::size_t i = 0; i < isChild.size(); ++i)
        if (!isChild[i]) roots.push_back(static_cast<int>(i));
    }
    return {};
  }

  std::string readNode(int index, const Mat4& parent, Part inherited, int depth) {
    if (index < 0 || static_cast<std::size_t>(index) >= model_.nodes.size())
      return "node " + std::to_string(index) + " does not exist (there are " +
             std::to_string(model_.nodes.size()) + ")";
    const auto i = static_cast<std::size_t>(index);
    if (onPath_[i]) return nodeLabel(model_, index) + " is its own ancestor (a cycle in the node tree)";
    if (seen_[i]) return nodeLabel(model_, index) + " has more than one parent (glTF nodes form trees)";
    if (depth > kMaxNodeDepth)
      return nodeLabel(model_, index) + " lies more than " + std::to_string(kMaxNodeDepth) + " nodes deep";
    onPath_[i] = seen_[i] = true;
    std::string error = readNodeBody(index, parent, inherited, depth);
    onPath_[i] = false;
    return error;
  }

  std::string readNodeBody(int index, const Mat4& parent, Part inherited, int depth) {
    const tinygltf::Node& node = model_.nodes[static_cast<std::size_t>(index)];
    Mat4 local;
    if (std::string error = localTransform(node, local); !error.empty())
      return nodeLabel(model_, index) + ": " + error;
    const Mat4 world = multiply(parent, local);
    Part own;
    if (std::string error = partFromExtras(node.extras, nodeLabel(model_, index), own); !error.empty())
      return error;
    const Part part = own != Part::kUnset ? own : inherited;  // the nearest ancestor's word wins
    if (node.mesh != -1)
      if (std::string error = readMesh(index, world, part); !error.empty()) return error;
    for (const int child : node.children)
      if (std::string error = readNode(child, world, part, depth + 1); !error.empty()) return error;
    return {};
  }

  std::string readMesh(int nodeIndex, const Mat4& world, Part part) {
    const tinygltf::Node& node = model_.nodes[static_cast<std::size_t>(nodeIndex)];
    if (node.mesh < 0 || static_cast<std::size_t>(node.mesh) >= model_.meshes.size())
      return nodeLabel(model_, nodeIndex) + " names mesh " + std::to_string(node.mesh) +
             ", which does not exist (there are " + std::to_string(model_.meshes.size()) + ")";
    const tinygltf::Mesh& mesh = model_.meshes[static_cast<std::size_t>(node.mesh)];
    const std::string label = meshLabel(model_, node.mesh);
    if (part == Part::kUnset) {
      if (std::string error = partFromExtras(mesh.extras, label, part); !error.empty()) return error;
    }
    if (part == Part::kUnset) part = partFromNames(options_, node.name, mesh.name);
    if (part == Part::kIgnore) return {};
    // A mirroring transform turns the windings over; turning them back keeps the ground facing up.
    const bool flip = (linearDeterminant(world) < 0.0) != levelMirrors_;
    for (const auto& primitive : mesh.primitives)
      if (std::string error = readPrimitive(primitive, label, world, flip, part == Part::kWalkable);
          !error.empty())
        return error;
    return {};
  }

  std::string readPrimitive(const tinygltf::Primitive& primitive, const std::string& label, const Mat4& world,
                            bool flip, bool walkable) {
    const int mode = primitive.mode == -1 ? TINYGLTF_MODE_TRIANGLES : primitive.mode;
    if (mode >= TINYGLTF_MODE_POINTS && mode <= TINYGLTF_MODE_LINE_STRIP) {
      ++skippedPointsLines_;
      return {};
    }
    if (mode < TINYGLTF_MODE_TRIANGLES || mode > TINYGLTF_MODE_TRIANGLE_FAN)
      return "a primitive of " + label + " has mode " + std::to_string(mode) + ", which glTF does not define";
    const auto position = primitive.attributes.find("POSITION");
    if (position == primitive.attributes.end()) {
      ++skippedNoPosition_;
      return {};
    }
    AccessorView positions, indices;
    if (std::string error = viewAccessor(position->second, false, "POSITION of " + label, positions);
        !error.empty())
      return error;
    const bool indexed = primitive.indices != -1;
    if (indexed) {
      if (std::string error = viewAccessor(primitive.indices, true, "indices of " + label, indices);
          !error.empty())
        return error;
    }
    const std::size_t triangles = triangleCount(mode, indexed ? indices.count : positions.count);
    if (triangles == 0) return {};
    if (std::string error = checkLimits(triangles, positions.count); !error.empty()) return error;
    std::vector<std::uint32_t> corners;
    if (indexed) {
      if (std::string error = readIndices(indices, positions.count, primitive.indices, label, corners);
          !error.empty())
        return error;
    }
    const std::size_t base = mesh_.verts.size() / 3;
    appendVertices(positions, world);
    appendTriangles(mode, triangles, corners, base, flip, walkable);
    return {};
  }

  // Refuses a primitive that would pass the limits before anything is allocated for it.
  std::string checkLimits(std::size_t triangles, std::size_t vertices) const {
    if (triangles > options_.maxTriangles - std::min(options_.maxTriangles, mesh_.triangleCount()))
      return "more than the limit of " + std::to_string(options_.maxTriangles) + " triangles";
    // Unused vertices cost memory too: at most three per allowed triangle.
    const std::uint64_t maxVertices = std::min<std::uint64_t>(std::uint64_t{3} * options_.maxTriangles,
                                                              std::numeric_limits<std::int32_t>::max());
    const std::uint64_t have = mesh_.verts.size() / 3;
    if (vertices > maxVertices - std::min(maxVertices, have))
      return "more than the limit of " + std::to_string(maxVertices) +
             " vertices (3 for each triangle allowed)";
    return {};
  }

  // The accessor's bytes, after every index, type, offset and stride it names is checked.
  std::string viewAccessor(int index, bool isIndices, const std::string& role, AccessorView& out) const {
    const std::string what = "accessor " + std::to_string(index) + " (" + role + ")";
    if (index < 0 || static_cast<std::size_t>(index) >= model_.accessors.size())
      return what + " does not exist (there are " + std::to_string(model_.accessors.size()) + ")";
    const tinygltf::Accessor& a = model_.accessors[static_cast<std::size_t>(index)];
    if (a.sparse.isSparse)
      return what + " is sparse, which steerd does not read (export without sparse accessors)";
    if (std::string error = checkAccessorType(a, isIndices); !error.empty()) return what + " " + error;
    if (a.bufferView < 0 || static_cast<std::size_t>(a.bufferView) >= model_.bufferViews.size())
      return what + (a.bufferView == -1 ? " has no bufferView (no data)"
                                        : " names bufferView " + std::to_string(a.bufferView) +
                                              ", which does not exist (there are " +
                                              std::to_string(model_.bufferViews.size()) + ")");
    const tinygltf::BufferView& v = model_.bufferViews[static_cast<std::size_t>(a.bufferView)];
    const std::string viewName = "bufferView " + std::to_string(a.bufferView);
    if (v.buffer < 0 || static_cast<std::size_t>(v.buffer) >= model_.buffers.size())
      return viewName + " (of " + what + ") names buffer " + std::to_string(v.buffer) +
             ", which does not exist";
    const auto& data = model_.buffers[static_cast<std::size_t>(v.buffer)].data;
    const std::string bufferName = "buffer " + std::to_string(v.buffer);
    if (!fitsIn(v.byteOffset, 1, v.byteLength, 1, data.size()))
      return viewName + " (of " + what + ") reaches past the end of " + bufferName + " (" +
             std::to_string(data.size()) + " bytes)";
    const std::uint64_t elementBytes = componentBytes(a.componentType) * (isIndices ? 1 : 3);
    if (v.byteStride != 0 && v.byteStride < elementBytes)
      return viewName + "'s byteStride " + std::to_string(v.byteStride) + " is less than the " +
             std::to_string(elementBytes) + " bytes of each element of " + what;
    const std::uint64_t stride = v.byteStride != 0 ? v.byteStride : elementBytes;
    if (!fitsIn(a.byteOffset, stride, a.count, elementBytes, v.byteLength))
      return what + " reads past the end of " + viewName + " (" + std::to_string(v.byteLength) +
             " bytes of " + bufferName + ")";
    out.data = data.data() + v.byteOffset + a.byteOffset;
    out.stride = stride;
    out.count = a.count;
    out.componentType = a.componentType;
    return {};
  }

  static std::string checkAccessorType(const tinygltf::Accessor& a, bool isIndices) {
    const std::string is = std::string("is ") + typeName(a.type) + " of " + componentName(a.componentType);
    if (isIndices) {
      const bool ok =
          a.type == TINYGLTF_TYPE_SCALAR && (a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE ||
                                             a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ||
                                             a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
      return ok ? std::string()
                : is + "; indices must be SCALAR of UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT";
    }
    const bool ok = a.type == TINYGLTF_TYPE_VEC3 && a.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT;
    return ok ? std::string()
              : is + "; steerd reads positions as VEC3 of FLOAT (export without quantization)";
  }

  std::string readIndices(const AccessorView& view, std::size_t vertexCount, int accessor,
                          const std::string& label, std::vector<std::uint32_t>& out) const {
    out.resize(view.count);
    for (std::size_t i = 0; i < view.count; ++i) {
      out[i] = readIndex(view, i);
      if (out[i] >= vertexCount)
        return "accessor " + std::to_string(accessor) + " (indices of " + label + ") names vertex " +
               std::to_string(out[i]) + ", but its POSITION has " + std::to_string(vertexCount);
    }
    return {};
  }

  void appendVertices(const AccessorView& positions, const Mat4& world) {
    mesh_.verts.reserve(mesh_.verts.size() + 3 * positions.count);
    for (std::size_t i = 0; i < positions.count; ++i) {
      float p[3];
      std::memcpy(p, positions.data + i * positions.stride, sizeof p);  // may be unaligned
      const double in[3] = {p[0], p[1], p[2]};
      double placed[3];
      transformPoint(world, in, placed);
      const float file[3] = {toFloat(placed[0]), toFloat(placed[1]), toFloat(placed[2])};
      float level[3];
      toLevelAxes(file, options_, level);
      mesh_.verts.insert(mesh_.verts.end(), level, level + 3);
    }
  }

  void appendTriangles(int mode, std::size_t triangles, const std::vector<std::uint32_t>& indices,
                       std::size_t base, bool flip, bool walkable) {
    for (std::size_t t = 0; t < triangles; ++t) {
      auto c = triangleCorners(mode, t);
      if (!indices.empty())
        for (auto& corner : c) corner = indices[corner];           // each checked against the vertex count
      if (c[0] == c[1] || c[1] == c[2] || c[0] == c[2]) continue;  // degenerate: no area to walk on
      if (flip) std::swap(c[1], c[2]);
      for (const auto corner : c) mesh_.tris.push_back(static_cast<std::int32_t>(base + corner));
      mesh_.walkable.push_back(walkable ? 1 : 0);
    }
  }

  const tinygltf::Model& model_;
  const MeshImportOptions& options_;
  LevelMesh& mesh_;
  std::vector<bool> onPath_;  // nodes between the scene and the one being read: a cycle guard
  std::vector<bool> seen_;    // nodes read already: a node with two parents would be read twice
  bool levelMirrors_;
  int skippedPointsLines_ = 0;
  int skippedNoPosition_ = 0;
};

// Extensions that change how geometry is stored, which the reader above does not undo.
std::string checkRequiredExtensions(const tinygltf::Model& model) {
  for (const auto& name : model.extensionsRequired)
    if (name == "KHR_draco_mesh_compression" || name == "EXT_meshopt_compression")
      return "needs the extension " + quotedName(name) + " (compressed geometry), which steerd does not read";
  return {};
}

// tinygltf's parse, with images skipped and external files limited to the level's folder.
std::string parseModel(std::string_view bytes, bool binary, const std::string& baseDir,
                       const MeshImportOptions& options, tinygltf::Model& model) {
  ExternalFiles files{baseDir.empty() ? std::string() : (baseDir.back() == '/' ? baseDir : baseDir + "/"),
                      options.maxFileBytes,
                      options.maxFileBytes,
                      {}};
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&skipImage, nullptr);
  loader.SetFsCallbacks({&fsFileExists, &fsExpandFilePath, &fsReadWholeFile, &fsWriteWholeFile, &files});
  std::string err, warn;
  const auto size = static_cast<unsigned int>(bytes.size());
  const bool ok =
      binary ? loader.LoadBinaryFromMemory(
                   &model, &err, &warn, reinterpret_cast<const unsigned char*>(bytes.data()), size, baseDir)
             : loader.LoadASCIIFromString(&model, &err, &warn, bytes.data(), size, baseDir);
  if (ok) return {};
  // A refused or missing file is what tinygltf reports as "File ..."; say why it was refused.
  if (!files.refusal.empty() && err.find("File ") != std::string::npos) return files.refusal;
  return std::string("not a valid glTF ") + (binary ? "binary (.glb)" : "(.gltf)") +
         " file: " + libraryMessage(err);
}

// What the bytes must pass before tinygltf is given them.
std::string checkBytes(std::string_view bytes, bool binary, const MeshImportOptions& options) {
  if (bytes.size() > options.maxFileBytes)
    return std::to_string(bytes.size()) + " bytes, more than the limit of " +
           std::to_string(options.maxFileBytes);
  if (bytes.size() > std::numeric_limits<std::uint32_t>::max())
    return "4 GiB or more, which glTF does not allow";
  std::string_view json = bytes;
  if (binary) {
    if (std::string error = checkGlbFraming(bytes); !error.empty()) return error;
    json = bytes.substr(20, readU32(bytes, 12));
  }
  if (nestedTooDeep(json, kMaxJsonNesting))
    return "its JSON nests more than " + std::to_string(kMaxJsonNesting) + " levels deep";
  return {};
}

std::string loadInto(std::string_view bytes, bool binary, const std::string& baseDir,
                     const MeshImportOptions& options, LevelMesh& mesh, const std::string& displayName) {
  if (std::string error = checkBytes(bytes, binary, options); !error.empty()) return error;
  tinygltf::Model model;
  if (std::string error = parseModel(bytes, binary, baseDir, options, model); !error.empty()) return error;
  if (!model.asset.version.empty() && model.asset.version[0] != '2')
    return "glTF version " + quotedName(model.asset.version) + " (steerd reads glTF 2.0)";
  if (std::string error = checkRequiredExtensions(model); !error.empty()) return error;
  SceneReader reader(model, options, mesh);
  if (std::string error = reader.read(); !error.empty()) return error;
  mesh.warnings = reader.warnings(displayName);
  return {};
}

bool endsWithGlb(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".glb";
}

}  // namespace

MeshLoad loadGltfBytes(std::string_view bytes, bool binary, const std::string& displayName,
                       const std::string& baseDir, const MeshImportOptions& options) {
  MeshLoad r;
  std::string error;
  try {
    error = loadInto(bytes, binary, baseDir, options, r.mesh, displayName);
  } catch (const std::exception& e) {  // tinygltf throws on some damaged files (vector::at)
    error = std::string("cannot be read: ") + e.what();
  } catch (...) {
    error = "cannot be read";
  }
  if (error.empty())
    error = checkLevelMesh(r.mesh, options, displayName);
  else
    error = displayName + ": " + error;
  if (!error.empty()) r.mesh = LevelMesh();
  r.error = std::move(error);
  return r;
}

MeshLoad loadGltfFile(const std::string& path, const MeshImportOptions& options) {
  MeshLoad r;
  // stat first: a FIFO or device must not be opened, and a huge file not read.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::is_regular_file(status)) {
    r.error = path + (ec ? ": cannot open the file (" + ec.message() + ")" : ": not a regular file");
    return r;
  }
  std::string bytes;
  if (!readFileCapped(path, options.maxFileBytes, bytes, r.error)) return r;
  const bool binary = endsWithGlb(path) || bytes.compare(0, 4, "glTF") == 0;
  std::string baseDir = std::filesystem::path(path).parent_path().string();
  if (baseDir.empty()) baseDir = ".";
  return loadGltfBytes(bytes, binary, path, baseDir, options);
}

}  // namespace steerd::level
