// OBJ levels: faces become triangles in Recast's axes, names pick what is walked on, and a broken
// or hostile file is refused with a message naming it.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "level/level_mesh.h"

namespace steerd::level {
namespace {

constexpr const char* kQuadAndBox = R"(# a floor and a crate
o floor
v 0 0 0
v 10 0 0
v 10 0 10
v 0 0 10
f 1 2 3 4
o crate_1
v 2 0 2
v 3 0 2
v 3 1 2
f 5 6 7
)";

TEST(ObjMesh, FacesAreFannedIntoTrianglesWithTheirVertices) {
  const MeshLoad m = loadObjText(kQuadAndBox, "t.obj", {});
  ASSERT_EQ(m.error, "");
  EXPECT_EQ(m.mesh.triangleCount(), 3u);  // the quad's two and the crate's one
  ASSERT_EQ(m.mesh.verts.size(), 7u * 3);
  EXPECT_FLOAT_EQ(m.mesh.verts[2 * 3 + 0], 10.0f);
  EXPECT_FLOAT_EQ(m.mesh.verts[2 * 3 + 2], -10.0f);  // north is -z in a Y-up file
  // The axes are a mirror image, so each triangle's corners turn round: (1, 3, 2), (1, 4, 3).
  EXPECT_EQ(m.mesh.tris[0], 0);
  EXPECT_EQ(m.mesh.tris[1], 2);
  EXPECT_EQ(m.mesh.tris[2], 1);
  EXPECT_EQ(m.mesh.tris[4], 3);
  EXPECT_EQ(m.mesh.tris[5], 2);
}

TEST(ObjMesh, BlockingPatternWinsOverWalkable) {
  MeshImportOptions o;
  o.blocking = "crate*";
  const MeshLoad m = loadObjText(kQuadAndBox, "t.obj", o);
  ASSERT_EQ(m.error, "");
  ASSERT_EQ(m.mesh.walkable.size(), 3u);
  EXPECT_EQ(m.mesh.walkable[0], 1);
  EXPECT_EQ(m.mesh.walkable[1], 1);
  EXPECT_EQ(m.mesh.walkable[2], 0);
  o.blocking.clear();
  o.walkable = "floor";  // only the floor: the crate blocks
  const MeshLoad only = loadObjText(kQuadAndBox, "t.obj", o);
  EXPECT_EQ(only.mesh.walkable[2], 0);
  EXPECT_EQ(only.mesh.walkable[0], 1);
}

TEST(ObjMesh, ScaleAndZUpMapToRecastAxes) {
  MeshImportOptions o;
  o.scale = 0.01f;  // centimetres
  o.up = UpAxis::kZ;
  const MeshLoad m = loadObjText("v 100 200 300\nv 0 0 0\nv 100 0 0\nf 1 2 3\n", "cm.obj", o);
  ASSERT_EQ(m.error, "");
  EXPECT_FLOAT_EQ(m.mesh.verts[0], 1.0f);  // x
  EXPECT_FLOAT_EQ(m.mesh.verts[1], 3.0f);  // up: the file's z
  EXPECT_FLOAT_EQ(m.mesh.verts[2], 2.0f);  // the ground's second axis: the file's y
}

TEST(ObjMesh, AnIndexPastTheVerticesIsRefusedNamingTheFile) {
  const MeshLoad m = loadObjText("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 999999\n", "broken.obj", {});
  ASSERT_NE(m.error, "");
  EXPECT_NE(m.error.find("broken.obj"), std::string::npos) << m.error;
  EXPECT_NE(m.error.find("vertex"), std::string::npos) << m.error;
}

TEST(ObjMesh, NonFiniteAndFarVerticesAreRefused) {
  // tinyobjloader reads "nan" as 0, but a number past float's range becomes inf.
  EXPECT_NE(loadObjText("v 1e39 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n", "inf.obj", {}).error.find("finite"),
            std::string::npos);
  EXPECT_NE(loadObjText("v 1e30 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n", "far.obj", {}).error.find("limit"),
            std::string::npos);
}

TEST(ObjMesh, EmptyTruncatedAndOversizedFilesAreRefused) {
  EXPECT_NE(loadObjText("", "empty.obj", {}).error.find("no triangles"), std::string::npos);
  EXPECT_NE(loadObjText("v 0 0 0\nv 1 0", "cut.obj", {}).error, "");
  MeshImportOptions small;
  small.maxTriangles = 1;
  EXPECT_NE(loadObjText(kQuadAndBox, "many.obj", small).error.find("limit"), std::string::npos);
  small = {};
  small.maxFileBytes = 10;
  EXPECT_NE(loadObjText(kQuadAndBox, "big.obj", small).error.find("limit"), std::string::npos);
}

TEST(ObjMesh, NothingWalkableIsRefused) {
  MeshImportOptions o;
  o.blocking = "*";
  EXPECT_NE(loadObjText(kQuadAndBox, "t.obj", o).error.find("walked on"), std::string::npos);
}

TEST(ObjMesh, AFileIsReadFromDiskAndAMissingOneNamed) {
  const auto dir = std::filesystem::temp_directory_path() / ("steerd_obj_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "level.obj").string();
  std::ofstream(path) << kQuadAndBox << "mtllib /etc/passwd\n";  // a material library opens nothing
  const MeshLoad m = loadObjFile(path, {});
  EXPECT_EQ(m.error, "");
  EXPECT_EQ(m.mesh.triangleCount(), 3u);
  const MeshLoad missing = loadObjFile((dir / "nope.obj").string(), {});
  EXPECT_NE(missing.error.find("nope.obj"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(GlobMatch, StarsAndQuestionMarks) {
  EXPECT_TRUE(globMatch("*", "anything"));
  EXPECT_TRUE(globMatch("*", ""));
  EXPECT_TRUE(globMatch("wall*", "wall_north"));
  EXPECT_FALSE(globMatch("wall*", "floor"));
  EXPECT_TRUE(globMatch("*_col", "rock_col"));
  EXPECT_TRUE(globMatch("h?use", "house"));
  EXPECT_FALSE(globMatch("", "x"));
  EXPECT_TRUE(globMatch("a*b*c", "a_x_b_y_c"));
  EXPECT_FALSE(globMatch("a*b*c", "a_x_b_y"));
}

}  // namespace
}  // namespace steerd::level
