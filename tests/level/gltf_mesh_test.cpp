// The glTF importer on small files built here: JSON with a base64 data: buffer, .glb assembled
// byte by byte, and files on disk for the file-system rules.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "level/level_mesh.h"

namespace steerd::level {
namespace {

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[v & 63] : '=';
  }
  return out;
}

template <class T>
std::string bytesOf(const std::vector<T>& values) {
  std::string s(values.size() * sizeof(T), '\0');
  if (!values.empty()) std::memcpy(s.data(), values.data(), s.size());
  return s;
}

void putU32(std::string& s, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// One mesh ("ground": a unit quad on the ground, facing up) in one buffer: positions, then indices.
struct Gltf {
  std::vector<float> positions = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1};
  std::vector<std::uint16_t> indices = {0, 3, 2, 0, 2, 1};
  std::string nodes = R"([{"name":"floor","mesh":0}])";
  std::string scenes = R"("scene":0,"scenes":[{"nodes":[0]}])";
  std::string meshExtras;      // e.g. ,"extras":{"steerd":"blocking"}
  std::string primitiveExtra;  // e.g. ,"mode":5
  std::string morePrimitives;  // e.g. ,{"attributes":{"POSITION":0},"mode":1}
  std::string positionAccessorExtra;
  std::string positionViewExtra;
  long positionCount = -1;       // -1: the positions' own count
  long positionViewLength = -1;  // -1: the positions' own bytes
  std::string bufferUri;         // empty: a data: URI of bin()
  bool glb = false;              // no uri: the .glb's BIN chunk
  std::size_t padding = 0;       // zero bytes after the indices, in the buffer

  std::string bin() const {
    std::string b = bytesOf(positions) + bytesOf(indices) + std::string(padding, '\0');
    while (b.size() % 4 != 0) b.push_back('\0');
    return b;
  }

  std::string json() const {
    const std::size_t positionBytes = positions.size() * sizeof(float);
    const std::string count = std::to_string(positionCount >= 0 ? positionCount : long(positions.size() / 3));
    const std::string viewLength =
        std::to_string(positionViewLength >= 0 ? positionViewLength : long(positionBytes));
    std::string accessors = R"([{"bufferView":0,"componentType":5126,"count":)" + count +
                            R"(,"type":"VEC3")" + positionAccessorExtra + "}";
    std::string views = R"([{"buffer":0,"byteOffset":0,"byteLength":)" + viewLength + positionViewExtra + "}";
    std::string indexRef;
    if (!indices.empty()) {
      accessors += R"(,{"bufferView":1,"componentType":5123,"count":)" + std::to_string(indices.size()) +
                   R"(,"type":"SCALAR"})";
      views += R"(,{"buffer":0,"byteOffset":)" + std::to_string(positionBytes) + R"(,"byteLength":)" +
               std::to_string(indices.size() * 2) + "}";
      indexRef = R"(,"indices":1)";
    }
    const std::string data = bin();
    std::string buffer = R"({"byteLength":)" + std::to_string(data.size());
    if (!glb)
      buffer += R"(,"uri":")" +
                (bufferUri.empty() ? "data:application/octet-stream;base64," + base64(data) : bufferUri) +
                "\"";
    return R"({"asset":{"version":"2.0"},)" + scenes + R"(,"nodes":)" + nodes +
           R"(,"meshes":[{"name":"ground")" + meshExtras + R"(,"primitives":[{"attributes":{"POSITION":0})" +
           indexRef + primitiveExtra + "}" + morePrimitives + "]}],\"accessors\":" + accessors +
           "],\"bufferViews\":" + views + "],\"buffers\":[" + buffer + "}]}";
  }

  // A .glb: header, the JSON chunk (space-padded), the BIN chunk.
  std::string glbBytes() const {
    Gltf copy = *this;
    copy.glb = true;
    std::string text = copy.json();
    while (text.size() % 4 != 0) text.push_back(' ');
    const std::string data = bin();
    std::string out = "glTF";
    putU32(out, 2);
    putU32(out, static_cast<std::uint32_t>(12 + 8 + text.size() + 8 + data.size()));
    putU32(out, static_cast<std::uint32_t>(text.size()));
    out += "JSON";
    out += text;
    putU32(out, static_cast<std::uint32_t>(data.size()));
    out += std::string("BIN\0", 4);
    out += data;
    return out;
  }
};

MeshLoad loadText(const Gltf& g, const MeshImportOptions& options = {}) {
  return loadGltfBytes(g.json(), false, "town.gltf", "", options);
}

// Whether triangle t faces up (+y, Recast's up): what the navmesh walks on.
bool facesUp(const LevelMesh& m, std::size_t t) {
  const float* a = &m.verts[3 * static_cast<std::size_t>(m.tris[3 * t])];
  const float* b = &m.verts[3 * static_cast<std::size_t>(m.tris[3 * t + 1])];
  const float* c = &m.verts[3 * static_cast<std::size_t>(m.tris[3 * t + 2])];
  const float e0[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const float e1[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  return e0[2] * e1[0] - e0[0] * e1[2] > 0.0f;  // the cross product's y
}

// Expectations are written in glTF's axes (+y up, after the node transforms); level_mesh's
// toLevelAxes and levelAxesMirror say where that lands in the level, so these tests check the
// import, not the choice of axes.
void expectVertex(const LevelMesh& m, std::size_t v, float x, float y, float z,
                  const MeshImportOptions& options = {}) {
  ASSERT_LT(3 * v + 2, m.verts.size());
  const float in[3] = {x, y, z};
  float want[3];
  toLevelAxes(in, options, want);
  EXPECT_NEAR(m.verts[3 * v], want[0], 1e-5) << "vertex " << v;
  EXPECT_NEAR(m.verts[3 * v + 1], want[1], 1e-5) << "vertex " << v;
  EXPECT_NEAR(m.verts[3 * v + 2], want[2], 1e-5) << "vertex " << v;
}

std::vector<float> levelVerts(const std::vector<float>& gltf, const MeshImportOptions& options = {}) {
  std::vector<float> out(gltf.size());
  for (std::size_t i = 0; i + 2 < gltf.size(); i += 3) toLevelAxes(&gltf[i], options, &out[i]);
  return out;
}

// Triangles as glTF winds them, taken in the other order where the level's axes mirror.
std::vector<std::int32_t> levelTris(std::vector<std::int32_t> gltf, const MeshImportOptions& options = {}) {
  if (levelAxesMirror(options))
    for (std::size_t i = 0; i + 2 < gltf.size(); i += 3) std::swap(gltf[i + 1], gltf[i + 2]);
  return gltf;
}

// A fresh folder for files on disk, removed afterwards.
class GltfFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("steerd-gltf-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "level");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& rel, const std::string& bytes) const {
    const auto path = dir_ / rel;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
  }

  std::filesystem::path dir_;
};

TEST(GltfMesh, UnitQuadOnTheGroundIsTwoWalkableTriangles) {
  const MeshLoad r = loadText(Gltf{});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.verts, levelVerts({0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1}));
  EXPECT_EQ(r.mesh.tris, levelTris({0, 3, 2, 0, 2, 1}));
  EXPECT_EQ(r.mesh.walkable, (std::vector<std::uint8_t>{1, 1}));
  EXPECT_TRUE(facesUp(r.mesh, 0));
  EXPECT_TRUE(facesUp(r.mesh, 1));
  EXPECT_TRUE(r.mesh.warnings.empty());
}

TEST(GltfMesh, GlbQuadLoadsLikeTheJsonOne) {
  const MeshLoad r = loadGltfBytes(Gltf{}.glbBytes(), true, "town.glb", "", {});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.verts, levelVerts({0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1}));
  EXPECT_EQ(r.mesh.tris, levelTris({0, 3, 2, 0, 2, 1}));
  EXPECT_EQ(r.mesh.walkable, (std::vector<std::uint8_t>{1, 1}));
}

TEST(GltfMesh, NodeTranslationAndScaleAreApplied) {
  Gltf g;
  g.nodes = R"([{"mesh":0,"translation":[10,2,-3],"scale":[2,3,4]}])";
  const MeshLoad r = loadText(g);
  ASSERT_EQ(r.error, "");
  expectVertex(r.mesh, 0, 10, 2, -3);
  expectVertex(r.mesh, 2, 12, 2, 1);  // (1, 0, 1) scaled, then moved
  EXPECT_TRUE(facesUp(r.mesh, 0));
}

TEST(GltfMesh, ParentAndChildTransformsComposeWithRotation) {
  Gltf g;
  // The parent moves by (5, 0, 0); the child turns a quarter about +y, so +x goes to -z.
  g.nodes = R"([{"translation":[5,0,0],"children":[1]},
                {"mesh":0,"rotation":[0,0.7071067811865476,0,0.7071067811865476]}])";
  const MeshLoad r = loadText(g);
  ASSERT_EQ(r.error, "");
  expectVertex(r.mesh, 1, 5, 0, -1);  // (1, 0, 0)
  expectVertex(r.mesh, 3, 6, 0, 0);   // (0, 0, 1)
  EXPECT_TRUE(facesUp(r.mesh, 0));
}

TEST(GltfMesh, MatrixIsAppliedAndAMirrorKeepsTheGroundFacingUp) {
  Gltf g;
  // Column-major: x mirrored, then moved by (0, 1, 0).
  g.nodes = R"([{"mesh":0,"matrix":[-1,0,0,0, 0,1,0,0, 0,0,1,0, 0,1,0,1]}])";
  const MeshLoad r = loadText(g);
  ASSERT_EQ(r.error, "");
  expectVertex(r.mesh, 2, -1, 1, 1);
  EXPECT_TRUE(facesUp(r.mesh, 0));
  EXPECT_TRUE(facesUp(r.mesh, 1));
}

TEST(GltfMesh, OptionsScaleIsApplied) {
  Gltf g;
  g.nodes = R"([{"mesh":0,"translation":[100,0,0]}])";
  MeshImportOptions options;
  options.scale = 0.01f;  // centimetres
  const MeshLoad r = loadText(g, options);
  ASSERT_EQ(r.error, "");
  expectVertex(r.mesh, 0, 100, 0, 0, options);
  expectVertex(r.mesh, 2, 101, 0, 1, options);
  EXPECT_NEAR(r.mesh.verts[6], 1.01f, 1e-5);  // x is x in every axis choice
}

TEST(GltfMesh, ExtrasBlockingAndIgnoreAreHonoured) {
  Gltf g;
  g.nodes = R"([{"name":"floor","mesh":0},
                {"name":"wall","mesh":0,"translation":[5,0,0],"extras":{"steerd":"blocking"}},
                {"name":"bush","mesh":0,"translation":[9,0,0],"extras":{"steerd":"ignore"}}])";
  g.scenes = R"("scenes":[{"nodes":[0,1,2]}])";
  const MeshLoad r = loadText(g);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.walkable, (std::vector<std::uint8_t>{1, 1, 0, 0}));
  EXPECT_EQ(r.mesh.verts.size(), 8u * 3);  // the ignored bush adds nothing
  expectVertex(r.mesh, 4, 5, 0, 0);
}

TEST(GltfMesh, NearestNodeExtrasWinThenMeshExtras) {
  Gltf g;
  // A blocking parent, a walkable child under it, and a plain grandchild that inherits "blocking".
  g.nodes = R"([{"extras":{"steerd":"blocking"},"children":[1,2]},
                {"mesh":0,"extras":{"steerd":"walkable"}},
                {"children":[3]}, {"mesh":0}])";
  const MeshLoad r = loadText(g);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.walkable, (std::vector<std::uint8_t>{1, 1, 0, 0}));

  Gltf plain;
  plain.meshExtras = R"(,"extras":{"steerd":"ignore"})";
  plain.nodes = R"([{"mesh":0},{"mesh":0,"extras":{"steerd":"walkable"}}])";
  plain.scenes = R"("scenes":[{"nodes":[0,1]}])";
  const MeshLoad p = loadText(plain);
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.mesh.walkable, (std::vector<std::uint8_t>{1, 1}));  // the mesh's "ignore" left node 0 out
}

TEST(GltfMesh, UnknownExtrasWordIsRefused) {
  Gltf g;
  g.nodes = R"([{"name":"floor","mesh":0,"extras":{"steerd":"walkble"}}])";
  const MeshLoad r = loadText(g);
  EXPECT_NE(r.error.find("town.gltf: node \"floor\": extras \"steerd\""), std::string::npos) << r.error;
}

TEST(GltfMesh, BlockingGlobMatchesANodeName) {
  Gltf g;
  g.nodes = R"([{"name":"floor","mesh":0},{"name":"wall_north","mesh":0,"translation":[0,0,5]}])";
  g.scenes = R"("scenes":[{"nodes":[0,1]}])";
  MeshImportOptions options;
  options.blocking = "wall*";
  const MeshLoad r = loadText(g, options);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.walkable, (std::vector<std::uint8_t>{1, 1, 0, 0}));
}

TEST(GltfMesh, WalkableGlobLeavesOtherPartsBlocking) {
  Gltf g;
  g.nodes = R"([{"name":"floor","mesh":0},{"name":"roof","mesh":0,"translation":[0,3,0]}])";
  g.scenes = R"("scenes":[{"nodes":[0,1]}])";
  MeshImportOptions options;
  options.walkable = "fl*";
  const MeshLoad r = loadText(g, options);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.walkable, (std::vector<std::uint8_t>{1, 1, 0, 0}));
}

TEST(GltfMesh, TriangleStripIsConverted) {
  Gltf g;
  g.positions = {0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1};
  g.indices.clear();
  g.primitiveExtra = R"(,"mode":5)";
  const MeshLoad r = loadText(g);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.tris, levelTris({0, 1, 2, 1, 3, 2}));  // every other one turned
  EXPECT_TRUE(facesUp(r.mesh, 0));
  EXPECT_TRUE(facesUp(r.mesh, 1));
}

TEST(GltfMesh, TriangleFanIsConverted) {
  Gltf g;
  g.positions = {0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0};
  g.indices.clear();
  g.primitiveExtra = R"(,"mode":6)";
  const MeshLoad r = loadText(g);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.tris, levelTris({1, 2, 0, 2, 3, 0}));
  EXPECT_TRUE(facesUp(r.mesh, 0));
  EXPECT_TRUE(facesUp(r.mesh, 1));
}

TEST(GltfMesh, DegenerateTrianglesAreSkipped) {
  Gltf g;
  g.indices = {0, 3, 2, 1, 1, 2, 0, 2, 1};
  const MeshLoad r = loadText(g);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.tris, levelTris({0, 3, 2, 0, 2, 1}));
}

TEST(GltfMesh, PointsAndLinesAreSkippedWithAWarning) {
  Gltf g;
  g.morePrimitives = R"(,{"attributes":{"POSITION":0},"mode":1},{"attributes":{"POSITION":0},"mode":0})";
  const MeshLoad r = loadText(g);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.triangleCount(), 2u);
  ASSERT_EQ(r.mesh.warnings.size(), 1u);
  EXPECT_NE(r.mesh.warnings[0].find("town.gltf: 2 primitive(s) of points or lines skipped"),
            std::string::npos);
}

TEST(GltfMesh, IndexOutOfRangeIsRefusedNamingTheFile) {
  Gltf g;
  g.indices = {0, 3, 2, 0, 2, 9};
  const MeshLoad r = loadText(g);
  EXPECT_EQ(r.error,
            "town.gltf: accessor 1 (indices of mesh \"ground\") names vertex 9, but its POSITION has 4");
  EXPECT_TRUE(r.mesh.tris.empty());
}

TEST(GltfMesh, AccessorPastTheBufferEndIsRefused) {
  Gltf g;
  g.positionCount = 40;  // 480 bytes from a 48-byte view
  const MeshLoad r = loadText(g);
  EXPECT_EQ(r.error.rfind("town.gltf: accessor 0 (POSITION of mesh \"ground\") reads past the end", 0), 0u)
      << r.error;
}

TEST(GltfMesh, BufferViewPastTheBufferEndIsRefused) {
  Gltf g;
  g.positionViewLength = 4000;
  const MeshLoad r = loadText(g);
  EXPECT_NE(r.error.find("reaches past the end of buffer 0"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.rfind("town.gltf: ", 0), 0u);
}

TEST(GltfMesh, HugeCountIsRefusedWithoutOverflow) {
  Gltf g;
  g.positionCount = std::numeric_limits<long>::max();
  const MeshLoad r = loadText(g);
  EXPECT_NE(r.error.find("town.gltf: "), std::string::npos);
  EXPECT_TRUE(r.mesh.verts.empty());
}

TEST(GltfMesh, ByteStrideShorterThanAPositionIsRefused) {
  Gltf g;
  g.positionViewExtra = R"(,"byteStride":4)";
  const MeshLoad r = loadText(g);
  EXPECT_NE(r.error.find("byteStride 4 is less than the 12 bytes"), std::string::npos) << r.error;
}

TEST(GltfMesh, PositionsThatAreNotFloatVec3AreRefused) {
  std::string text = Gltf{}.json();
  const auto at = text.find("\"componentType\":5126");
  text.replace(at, 20, "\"componentType\":5123");
  const MeshLoad r = loadGltfBytes(text, false, "town.gltf", "", {});
  EXPECT_NE(r.error.find("is VEC3 of UNSIGNED_SHORT"), std::string::npos) << r.error;
}

TEST(GltfMesh, SparseAccessorIsRefused) {
  Gltf g;
  g.positionAccessorExtra = R"(,"sparse":{"count":1,"indices":{"bufferView":1,"componentType":5123},)"
                            R"("values":{"bufferView":0}})";
  const MeshLoad r = loadText(g);
  EXPECT_NE(r.error.find("is sparse"), std::string::npos) << r.error;
}

TEST(GltfMesh, GlbWithALyingChunkLengthIsRefused) {
  std::string bytes = Gltf{}.glbBytes();
  const std::uint32_t jsonLength =
      static_cast<unsigned char>(bytes[12]) | static_cast<unsigned char>(bytes[13]) << 8;
  const std::size_t binHeader = 20 + jsonLength;
  ASSERT_EQ(bytes.substr(binHeader + 4, 3), "BIN");
  bytes[binHeader] = static_cast<char>(bytes[binHeader] + 8);  // 8 bytes more than there are
  const MeshLoad r = loadGltfBytes(bytes, true, "town.glb", "", {});
  EXPECT_EQ(r.error.rfind("town.glb: chunk 1 says", 0), 0u) << r.error;
}

TEST(GltfMesh, GlbWhoseHeaderLengthLiesIsRefused) {
  std::string bytes = Gltf{}.glbBytes();
  bytes[8] = static_cast<char>(bytes[8] - 4);
  const MeshLoad r = loadGltfBytes(bytes, true, "town.glb", "", {});
  EXPECT_NE(r.error.find("town.glb: the header says"), std::string::npos) << r.error;
}

TEST(GltfMesh, NaNVertexIsRefused) {
  Gltf g;
  g.positions[4] = std::numeric_limits<float>::quiet_NaN();
  const MeshLoad r = loadText(g);
  EXPECT_NE(r.error.find("town.gltf: vertex 2 is not a finite number"), std::string::npos) << r.error;
}

TEST(GltfMesh, NodeCycleIsRefused) {
  Gltf g;
  g.nodes = R"([{"name":"a","children":[1]},{"name":"b","mesh":0,"children":[0]}])";
  const MeshLoad r = loadText(g);
  EXPECT_EQ(r.error, "town.gltf: node \"a\" is its own ancestor (a cycle in the node tree)");
}

TEST(GltfMesh, NodeWithTwoParentsIsRefused) {
  Gltf g;
  g.nodes = R"([{"children":[1,2]},{"children":[3]},{"children":[3]},{"name":"shared","mesh":0}])";
  const MeshLoad r = loadText(g);
  EXPECT_NE(r.error.find("node \"shared\" has more than one parent"), std::string::npos) << r.error;
}

TEST(GltfMesh, NodesNestedTooDeepAreRefused) {
  Gltf g;
  g.nodes = "[";
  for (int i = 0; i < 70; ++i) g.nodes += R"({"children":[)" + std::to_string(i + 1) + "]},";
  g.nodes += R"({"mesh":0}])";
  const MeshLoad r = loadText(g);
  EXPECT_NE(r.error.find("more than 64 nodes deep"), std::string::npos) << r.error;
}

TEST(GltfMesh, NoScenesReadsEveryRootNode) {
  Gltf g;
  g.scenes = R"("extensionsUsed":[])";
  g.nodes = R"([{"children":[1]},{"mesh":0},{"mesh":0,"translation":[3,0,0]}])";
  const MeshLoad r = loadText(g);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.triangleCount(), 4u);
}

TEST(GltfMesh, TriangleLimitIsEnforcedWhileReading) {
  MeshImportOptions options;
  options.maxTriangles = 1;
  const MeshLoad r = loadText(Gltf{}, options);
  EXPECT_EQ(r.error, "town.gltf: more than the limit of 1 triangles");
}

TEST(GltfMesh, DeeplyNestedJsonIsRefusedBeforeParsing) {
  Gltf g;
  g.meshExtras = R"(,"extras":{"deep":)" + std::string(5000, '[') + std::string(5000, ']') + "}";
  const MeshLoad r = loadText(g);
  EXPECT_NE(r.error.find("town.gltf: its JSON nests more than"), std::string::npos) << r.error;
}

TEST(GltfMesh, GarbageIsRefusedAsTextAndAsBinary) {
  for (const bool binary : {false, true}) {
    const MeshLoad r = loadGltfBytes("{\"asset\": [1, 2", binary, "junk.gltf", "", {});
    EXPECT_EQ(r.error.rfind("junk.gltf: ", 0), 0u) << r.error;
  }
}

TEST(GltfMesh, ExternalBufferRefusedWithoutABaseDir) {
  Gltf g;
  g.bufferUri = "quad.bin";
  const MeshLoad r = loadText(g);
  EXPECT_NE(r.error.find("town.gltf: buffer file \"quad.bin\" refused"), std::string::npos) << r.error;
}

TEST_F(GltfFiles, GlbFileLoadsAndTruncatedFilesAreRefused) {
  const std::string glb = Gltf{}.glbBytes();
  const std::string good = write("level/town.glb", glb);
  const MeshLoad r = loadGltfFile(good, {});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.triangleCount(), 2u);

  const std::string cut = write("level/cut.glb", glb.substr(0, glb.size() - 10));
  const MeshLoad c = loadGltfFile(cut, {});
  EXPECT_EQ(c.error.rfind(cut + ": the header says", 0), 0u) << c.error;

  const std::string text = Gltf{}.json();
  const std::string cutText = write("level/cut.gltf", text.substr(0, text.size() / 2));
  const MeshLoad t = loadGltfFile(cutText, {});
  EXPECT_EQ(t.error.rfind(cutText + ": not a valid glTF", 0), 0u) << t.error;
}

TEST_F(GltfFiles, FileLargerThanTheLimitIsRefused) {
  const std::string path = write("level/town.gltf", Gltf{}.json());
  MeshImportOptions options;
  options.maxFileBytes = 100;
  const MeshLoad r = loadGltfFile(path, options);
  EXPECT_NE(r.error.find("more than the limit of 100"), std::string::npos) << r.error;
}

TEST_F(GltfFiles, ExternalBufferBesideTheFileLoads) {
  Gltf g;
  g.bufferUri = "quad.bin";
  write("level/quad.bin", g.bin());
  const MeshLoad r = loadGltfFile(write("level/town.gltf", g.json()), {});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.mesh.triangleCount(), 2u);
}

TEST_F(GltfFiles, ExternalBufferOutsideTheFolderIsRefused) {
  Gltf g;
  write("x.bin", g.bin());  // there, and readable: only the rule keeps it out
  for (const std::string uri : {"../x.bin", "%2e%2e/x.bin", "sub/../../x.bin"}) {
    g.bufferUri = uri;
    const std::string path = write("level/town.gltf", g.json());
    const MeshLoad r = loadGltfFile(path, {});
    EXPECT_EQ(r.error.rfind(path + ": buffer file \"", 0), 0u) << uri << ": " << r.error;
    EXPECT_NE(r.error.find("refused: only relative paths inside the level's folder"), std::string::npos)
        << r.error;
  }
}

TEST_F(GltfFiles, ExternalBufferLargerThanTheLimitIsRefused) {
  Gltf g;
  g.bufferUri = "quad.bin";
  write("level/quad.bin", g.bin());
  const std::string path = write("level/town.gltf", g.json());
  MeshImportOptions options;
  options.maxFileBytes = 1000;  // the .gltf fits, and so does its buffer
  EXPECT_EQ(loadGltfFile(path, options).error, "");
  g.padding = 2000;  // now the buffer does not
  write("level/quad.bin", g.bin());
  const MeshLoad r = loadGltfFile(write("level/town.gltf", g.json()), options);
  EXPECT_NE(r.error.find("quad.bin: 2060 bytes, more than the limit of 1000"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace steerd::level
