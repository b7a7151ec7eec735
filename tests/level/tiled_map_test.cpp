// The Tiled importer on small maps written here: a wall of tiles as merged boxes (y flipped), every
// layer encoding, external tilesets, hostile files, and each object class.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "level/tiled_map.h"

namespace steerd::level {
namespace {

namespace pb = steerd::scenario;

// A 6 x 4 map of 32 px tiles; tile 1 of the tileset (gid 2) blocks, tile 0 (gid 1) does not:
//   row 0: . # # # . .
//   row 1: . # # # . o
//   row 2: . . # # . .
//   row 3: # . . . . .    (gid 2 flipped horizontally: the flag is masked off)
// In metres (one a tile, y up from the bottom edge): x 1..4 y 2..4, x 2..4 y 1..2, x 0..1 y 0..1.
constexpr const char* kCsv = "0,2,2,2,0,0,\n0,2,2,2,0,1,\n0,0,2,2,0,0,\n2147483650,0,0,0,0,0";

// The same cells as little-endian uint32, base64 (plain) and compressed, made at dev time with
//   python3: struct.pack('<24I', *cells), zlib.compress(raw, 9), gzip.compress(raw, 9, mtime=0),
//   zstd -19 -c; raw + b'\0' and raw[:-1] for one byte too many and too few.
constexpr const char* kPlain =
    "AAAAAAIAAAACAAAAAgAAAAAAAAAAAAAAAAAAAAIAAAACAAAAAgAAAAAAAAABAAAAAAAAAAAAAAACAAAAAgAAAAAAAAAAAAAAAgAAgAAA"
    "AAAA"
    "AAAAAAAAAAAAAAAAAAAA";
constexpr const char* kZlib = "eNpjYGBgYELCyABdnBGLHBK/gQELAAAPbACU";
constexpr const char* kGzip = "H4sIAAAAAAACA2NgYGBgQsLIAF2cEYscEr+BAQsAABWk1zZgAAAA";
constexpr const char* kZstd = "KLUv/QRo5QAA8oEDCODpAADDyJ0Cc/+P/z4EAG9yQHd2Ui6+Wj/gzOY=";
constexpr const char* kZlibOneByteMore = "eNpjYGBgYELCyABdnBGLHBK/gQEbAAAQAACU";
constexpr const char* kZlibOneByteLess = "eNpjYGBgYELCyABdnBGLHBK/gQETAAAO2ACU";
constexpr const char* kZlibCutShort = "eNpjYGBgYELCyABdnBGLHBK/gQEL";
constexpr const char* kZlib64KiBZeros =
    "eNrtwQEBAAAAgJD+r+"
    "4ICgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAGoADw"
    "AB";

constexpr const char* kJsonTileset =
    R"({"firstgid": 1, "name": "walls", "tilewidth": 32, "tileheight": 32, "tilecount": 4, "columns": 2,
        "tiles": [{"id": 1, "properties": [{"name": "blocking", "type": "bool", "value": true}]}]})";

// The 6 x 4 map as .tmj; `layer` is the tile layer's "data" (and "encoding", "compression").
std::string tmj(const std::string& layer, const std::string& tilesets = kJsonTileset,
                const std::string& moreLayers = "") {
  return R"({"type": "map", "version": "1.10", "orientation": "orthogonal", "renderorder": "right-down",
    "width": 6, "height": 4, "tilewidth": 32, "tileheight": 32, "infinite": false,
    "tilesets": [)" +
         tilesets + R"(],
    "layers": [{"type": "tilelayer", "id": 1, "name": "ground", "width": 6, "height": 4, )" +
         layer + "}" + moreLayers + "]}";
}

std::string csvArray() { return std::string("\"data\": [") + kCsv + "]"; }

constexpr const char* kXmlTileset =
    R"(<tileset firstgid="1" name="walls" tilewidth="32" tileheight="32" tilecount="4">
  <tile id="1"><properties><property name="blocking" type="bool" value="true"/></properties></tile>
 </tileset>)";

// The 6 x 4 map as .tmx; `data` is the whole <data> element.
std::string tmx(const std::string& data, const std::string& tileset = kXmlTileset) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="6" height="4" tilewidth="32"
     tileheight="32" infinite="0" nextlayerid="2" nextobjectid="1">
 )" + tileset +
         R"(
 <layer id="1" name="ground" width="6" height="4">
  )" + data +
         R"(
 </layer>
</map>
)";
}

TiledLoad loadJson(const std::string& text, const TiledImportOptions& options = {}) {
  return loadTiledText(text, false, "test.tmj", "", options);
}

TiledLoad loadXml(const std::string& text, const TiledImportOptions& options = {}) {
  return loadTiledText(text, true, "test.tmx", "", options);
}

struct BoxWant {
  float cx, cy, hx, hy;
};

void expectBoxes(const pb::Scenario& s, const std::vector<BoxWant>& want) {
  ASSERT_EQ(s.boxes_size(), static_cast<int>(want.size()));
  for (std::size_t i = 0; i < want.size(); ++i) {
    const pb::Box& b = s.boxes(static_cast<int>(i));
    EXPECT_NEAR(b.center().x(), want[i].cx, 1e-5) << "box " << i;
    EXPECT_NEAR(b.center().y(), want[i].cy, 1e-5) << "box " << i;
    EXPECT_NEAR(b.half_size().x(), want[i].hx, 1e-5) << "box " << i;
    EXPECT_NEAR(b.half_size().y(), want[i].hy, 1e-5) << "box " << i;
    EXPECT_EQ(b.angle_deg(), 0.0f) << "box " << i;
  }
}

const std::vector<BoxWant> kWallBoxes = {
    {2.5f, 3.0f, 1.5f, 1.0f}, {3.0f, 1.5f, 1.0f, 0.5f}, {0.5f, 0.5f, 0.5f, 0.5f}};

std::string base64(const std::string& bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[v >> 18 & 63];
    out += kAlphabet[v >> 12 & 63];
    out += i + 1 < bytes.size() ? kAlphabet[v >> 6 & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[v & 63] : '=';
  }
  return out;
}

// A zstd frame of `blocks` RLE blocks, each 128 KiB of zeros from 4 bytes, its header without a
// content size (so only decoding finds out how much comes): 8192 blocks are 1 GiB from 32 KiB.
std::string zstdZeros(std::size_t blocks) {
  std::string frame = {'\x28', '\xb5', '\x2f', '\xfd', '\x00', '\x38'};  // magic; no size; 128 KiB window
  for (std::size_t i = 0; i < blocks; ++i) {
    const std::uint32_t header = (i + 1 == blocks ? 1u : 0u) | 1u << 1 | 131072u << 3;  // last, RLE, size
    frame += {static_cast<char>(header & 0xff), static_cast<char>(header >> 8 & 0xff),
              static_cast<char>(header >> 16 & 0xff), '\0'};
  }
  return frame;
}

class TempDir {
 public:
  TempDir()
      : path_(std::filesystem::temp_directory_path() /
              ("tiled_map_test_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string write(const std::string& name, const std::string& text) const {
    const auto file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const std::size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// ---- Tile layers ----------------------------------------------------------------------------

TEST(TiledMap, JsonTileWallBecomesMergedBoxesWithTheYAxisFlipped) {
  const TiledLoad r = loadJson(tmj(csvArray()));
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.parts.bounds().min().x(), 0.0f);
  EXPECT_EQ(r.parts.bounds().min().y(), 0.0f);
  EXPECT_EQ(r.parts.bounds().max().x(), 6.0f);
  EXPECT_EQ(r.parts.bounds().max().y(), 4.0f);
  expectBoxes(r.parts, kWallBoxes);
  EXPECT_FALSE(r.parts.has_navmesh());  // nothing asked for one
  EXPECT_TRUE(r.warnings.empty());
}

TEST(TiledMap, TmxWithCsvDataGivesTheSameBoxes) {
  const TiledLoad r = loadXml(tmx(std::string("<data encoding=\"csv\">\n") + kCsv + "\n</data>"));
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.parts.bounds().max().x(), 6.0f);
  EXPECT_EQ(r.parts.bounds().max().y(), 4.0f);
  expectBoxes(r.parts, kWallBoxes);
}

TEST(TiledMap, TmxWithTileElementsGivesTheSameBoxes) {
  std::string tiles = "<data>";
  for (const char* gid : {"0", "2", "2", "2", "0", "0", "0",          "2", "2", "2", "0", "1",
                          "0", "0", "2", "2", "0", "0", "2147483650", "0", "0", "0", "0", "0"})
    tiles += std::string("<tile gid=\"") + gid + "\"/>";
  const TiledLoad r = loadXml(tmx(tiles + "</data>"));
  ASSERT_EQ(r.error, "");
  expectBoxes(r.parts, kWallBoxes);
}

TEST(TiledMap, Base64LayersReadPlainZlibGzipAndZstd) {
  for (const auto& [compression, data] : std::vector<std::pair<std::string, std::string>>{
           {"", kPlain}, {"zlib", kZlib}, {"gzip", kGzip}, {"zstd", kZstd}}) {
    SCOPED_TRACE(compression);
    const TiledLoad json = loadJson(
        tmj(R"("encoding": "base64", "compression": ")" + compression + R"(", "data": ")" + data + "\""));
    ASSERT_EQ(json.error, "");
    expectBoxes(json.parts, kWallBoxes);
    // In .tmx Tiled wraps the text in newlines and spaces; they are skipped.
    const std::string attr = compression.empty() ? "" : " compression=\"" + compression + "\"";
    const TiledLoad xml = loadXml(tmx("<data encoding=\"base64\"" + attr + ">\n   " + data.substr(0, 10) +
                                      "\n " + data.substr(10) + "\n  </data>"));
    ASSERT_EQ(xml.error, "");
    expectBoxes(xml.parts, kWallBoxes);
  }
}

TEST(TiledMap, CompressedDataMustInflateToExactlyTheLayersBytes) {
  const auto zlib = [](const char* data) {
    return loadJson(
        tmj(std::string(R"("encoding": "base64", "compression": "zlib", "data": ")") + data + "\""));
  };
  EXPECT_EQ(zlib(kZlibOneByteMore).error,
            "test.tmj: layer \"ground\": data inflates past 96 bytes (6 x 4 tiles)");
  EXPECT_EQ(zlib(kZlibOneByteLess).error,
            "test.tmj: layer \"ground\": data holds 95 bytes, not 96 (6 x 4 tiles)");
  EXPECT_EQ(zlib(kZlibCutShort).error, "test.tmj: layer \"ground\": the compressed data is cut short");
  EXPECT_EQ(zlib("bm90IHpsaWI=").error.find("test.tmj: layer \"ground\": the compressed data is not valid"),
            0u);
  EXPECT_EQ(zlib("not base64!").error, "test.tmj: layer \"ground\": the layer's base64 data is not valid");
  // A larger layer than options allow to inflate is refused before anything is inflated.
  TiledImportOptions small;
  small.maxInflatedBytes = 95;
  EXPECT_EQ(
      loadJson(tmj(std::string(R"("encoding": "base64", "compression": "zlib", "data": ")") + kZlib + "\""),
               small)
          .error,
      "test.tmj: layer \"ground\": data would inflate to 96 bytes, more than the limit of 95");
}

TEST(TiledMap, ZipBombsAreRefusedQuickly) {
  const auto start = std::chrono::steady_clock::now();
  // 64 KiB of zeros from 86 bytes (zlib), and 1 GiB from 32 KiB (zstd, no size in the header).
  const TiledLoad zlib = loadJson(
      tmj(std::string(R"("encoding": "base64", "compression": "zlib", "data": ")") + kZlib64KiBZeros + "\""));
  EXPECT_EQ(zlib.error, "test.tmj: layer \"ground\": data inflates past 96 bytes (6 x 4 tiles)");
  const TiledLoad zstd =
      loadXml(tmx("<data encoding=\"base64\" compression=\"zstd\">" + base64(zstdZeros(8192)) + "</data>"));
  EXPECT_EQ(zstd.error, "test.tmx: layer \"ground\": data inflates past 96 bytes (6 x 4 tiles)");
  // On a larger map the cap is that map's bytes, still far short of the 1 GiB.
  std::string big =
      tmx("<data encoding=\"base64\" compression=\"zstd\">" + base64(zstdZeros(8192)) + "</data>");
  big = replaced(big, "width=\"6\" height=\"4\" tilewidth", "width=\"500\" height=\"500\" tilewidth");
  big = replaced(big, "width=\"6\" height=\"4\">", "width=\"500\" height=\"500\">");
  EXPECT_EQ(loadXml(big).error,
            "test.tmx: layer \"ground\": data inflates past 1000000 bytes (500 x 500 tiles)");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(TiledMap, LayersThatHoldTheWrongNumberOfTilesAreRefused) {
  EXPECT_EQ(loadXml(tmx("<data encoding=\"csv\">0,2,2</data>")).error,
            "test.tmx: layer \"ground\": CSV data holds 3 tiles, not 24 (6 x 4 tiles)");
  EXPECT_EQ(loadXml(tmx(std::string("<data encoding=\"csv\">") + kCsv + ",0</data>")).error,
            "test.tmx: layer \"ground\": CSV data holds more than 24 tiles (6 x 4 tiles)");
  EXPECT_EQ(loadXml(tmx("<data encoding=\"csv\">0,,2</data>")).error,
            "test.tmx: layer \"ground\": an empty cell in the CSV data");
  EXPECT_EQ(loadJson(tmj(R"("data": [0, 2])")).error,
            "test.tmj: layer \"ground\": data holds 2 tiles, not 24 (6 x 4 tiles)");
  EXPECT_EQ(loadJson(tmj(csvArray(), kJsonTileset,
                         R"(, {"type": "tilelayer", "name": "x", "width": 7, "data": []})"))
                .error,
            "test.tmj: layer \"x\": the layer's size differs from the map's (6 x 4 tiles)");
}

TEST(TiledMap, TileLimitsCountEveryLayer) {
  TiledImportOptions options;
  options.maxTiles = 30;  // the map (24) fits; a second layer does not
  EXPECT_EQ(loadJson(tmj(csvArray()), options).error, "");
  EXPECT_EQ(loadJson(tmj(csvArray(), kJsonTileset,
                         std::string(R"(, {"type": "tilelayer", "name": "decor", )") + csvArray() + "}"),
                     options)
                .error,
            "test.tmj: layer \"decor\": the tile layers hold more than 30 tiles in all");
  options.maxTiles = 20;
  EXPECT_EQ(loadJson(tmj(csvArray()), options).error,
            "test.tmj: the map is 6 x 4 tiles, more than the limit of 20");
}

TEST(TiledMap, GroupLayersPassTheirBlockingPropertyDown) {
  // gid 1 does not block by its tile, but its layer sits in a group marked blocking.
  const std::string group = R"(, {"type": "group", "name": "walls",
      "properties": [{"name": "blocking", "type": "bool", "value": true}],
      "layers": [{"type": "group", "name": "inner", "layers": [{"type": "tilelayer", "name": "posts",
        "data": [1,0,0,0,0,1, 0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0]}]}]})";
  const TiledLoad r =
      loadJson(tmj(R"("data": [0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0])", kJsonTileset, group));
  ASSERT_EQ(r.error, "");
  expectBoxes(r.parts, {{0.5f, 3.5f, 0.5f, 0.5f}, {5.5f, 3.5f, 0.5f, 0.5f}});

  std::string deep = R"({"type": "tilelayer", "name": "deep", "data": []})";
  for (int i = 0; i < 20; ++i) deep = R"({"type": "group", "name": "g", "layers": [)" + deep + "]}";
  EXPECT_EQ(loadJson(tmj(csvArray(), kJsonTileset, ", " + deep)).error,
            "test.tmj: layer \"g\": groups nest deeper than 16");
}

TEST(TiledMap, MetresPerTileScalesTilesAndObjects) {
  TiledImportOptions options;
  options.metresPerTile = 2.0f;
  const std::string objects = R"(, {"type": "objectgroup", "name": "things", "objects": [
      {"id": 1, "type": "spawn", "point": true, "x": 64, "y": 96,
       "properties": [{"name": "archetype", "type": "string", "value": "sheep"}]},
      {"id": 2, "type": "blocking", "x": 128, "y": 0, "width": 64, "height": 32}]})";
  const TiledLoad r = loadJson(tmj(csvArray(), kJsonTileset, objects), options);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.parts.bounds().max().x(), 12.0f);
  EXPECT_EQ(r.parts.bounds().max().y(), 8.0f);
  // The rectangle (tiles x 4..6, rows 0..1) comes first, then the tiles'.
  expectBoxes(r.parts, {{10, 7, 2, 1}, {5, 6, 3, 2}, {6, 3, 2, 1}, {1, 1, 1, 1}});
  ASSERT_EQ(r.parts.spawns_size(), 1);
  const pb::SpawnGroup& g = r.parts.spawns(0);  // at (4, 2) m, one metre each way
  EXPECT_FLOAT_EQ(g.min().x(), 3);
  EXPECT_FLOAT_EQ(g.min().y(), 1);
  EXPECT_FLOAT_EQ(g.max().x(), 5);
  EXPECT_FLOAT_EQ(g.max().y(), 3);

  options.metresPerTile = -1.0f;
  EXPECT_EQ(loadJson(tmj(csvArray()), options).error.find("test.tmj: metresPerTile must be above 0"), 0u);
}

// ---- Map headers and JSON types -------------------------------------------------------------

TEST(TiledMap, OnlyFiniteOrthogonalMapsAreRead) {
  EXPECT_EQ(loadJson(replaced(tmj(csvArray()), "\"orthogonal\"", "\"isometric\"")).error,
            "test.tmj: a \"isometric\" map: only orthogonal maps are read");
  EXPECT_EQ(loadXml(replaced(tmx("<data encoding=\"csv\"/>"), "orthogonal", "hexagonal")).error,
            "test.tmx: a \"hexagonal\" map: only orthogonal maps are read");
  EXPECT_EQ(loadJson(replaced(tmj(csvArray()), "\"infinite\": false", "\"infinite\": true"))
                .error.find("test.tmj: an infinite map"),
            0u);
  EXPECT_EQ(loadXml(replaced(tmx("<data encoding=\"csv\"/>"), "infinite=\"0\"", "infinite=\"1\""))
                .error.find("test.tmx: an infinite map"),
            0u);
}

TEST(TiledMap, WrongJsonTypesAreRefusedNamingTheField) {
  const std::string good = tmj(csvArray());
  ASSERT_EQ(loadJson(good).error, "");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {replaced(good, "\"width\": 6", "\"width\": \"6\""), "\"width\" must be an integer, not string"},
      {replaced(good, "\"tileheight\": 32", "\"tileheight\": 32.5"),
       "\"tileheight\" must be an integer, not number"},
      {replaced(good, "\"infinite\": false", "\"infinite\": 0"),
       "\"infinite\" must be true or false, not number"},
      {replaced(good, "\"orientation\": \"orthogonal\"", "\"orientation\": [1]"),
       "\"orientation\" must be a string, not array"},
      {replaced(good, "\"layers\": [", "\"layers\": {}, \"unused\": ["),
       "\"layers\" must be an array, not object"},
      {replaced(good, "[0,2,2", "[0,\"2\",2"), "layer \"ground\": data: \"2\" is not a tile number"},
      {replaced(good, "[0,2,2", "[-1,2,2"), "layer \"ground\": data: -1 is not a tile number"},
      {replaced(good, "[0,2,2", "[4294967296,2,2"),
       "layer \"ground\": data: 4294967296 is not a tile number"},
      {replaced(good, "\"data\": [", "\"data\": {}, \"unused\": ["),
       "layer \"ground\": \"data\" must be an array (or a string with \"encoding\": \"base64\"), not object"},
      {replaced(good, "\"type\": \"tilelayer\"", "\"type\": 3"),
       "layer \"ground\": \"type\" must be a string, not number"},
      {replaced(good, "\"value\": true", "\"value\": \"yes\""),
       "tileset at firstgid 1: tile 1: property \"blocking\" must be a bool"},
      {replaced(good, "\"tiles\": [", "\"tiles\": 5, \"x\": ["),
       "tileset at firstgid 1: \"tiles\" must be an array, not number"},
      {replaced(good, "\"id\": 1, \"properties\"", "\"id\": null, \"properties\""),
       "tileset at firstgid 1: \"id\" must be an integer, not null"},
      {replaced(good, "\"firstgid\": 1", "\"firstgid\": 0"),
       "tileset at firstgid 0: \"firstgid\" must be 1 to 268435455"},
      {"[1, 2]", "not a Tiled map (not a JSON object)"},
      {"{\"type\": \"tileset\"}", "not a Tiled map (\"type\" is \"tileset\")"},
  };
  for (const auto& [text, message] : cases) {
    const TiledLoad r = loadTiledText(text, false, "bad.tmj", "", {});
    EXPECT_EQ(r.error, "bad.tmj: " + message);
    EXPECT_EQ(r.parts.boxes_size(), 0);  // nothing half-read comes back
  }
  EXPECT_EQ(loadJson("{\"width\": ").error.find("test.tmj: not valid JSON: "), 0u);
  EXPECT_EQ(loadXml("<map").error.find("test.tmx: not valid XML: "), 0u);
}

// ---- External tilesets ----------------------------------------------------------------------

TEST(TiledMap, ExternalTilesetsAreReadBesideTheMap) {
  const TempDir dir;
  // Tile 1 blocks by its collision shape (an objectgroup), not by a property.
  dir.write("walls.tsx", R"(<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="walls" tilewidth="32" tileheight="32" tilecount="4" columns="2">
 <tile id="1"><objectgroup draworder="index"><object id="1" x="0" y="0" width="32" height="32"/></objectgroup></tile>
 <tile id="0"><objectgroup draworder="index"/></tile>
</tileset>
)");
  const std::string map = dir.write("yard.tmx", tmx(std::string("<data encoding=\"csv\">") + kCsv + "</data>",
                                                    "<tileset firstgid=\"1\" source=\"walls.tsx\"/>"));
  const TiledLoad r = loadTiledFile(map, {});
  ASSERT_EQ(r.error, "");
  expectBoxes(r.parts, kWallBoxes);

  // A .tmj in the same directory with a .tsj in a folder below: tile 1 blocks by its class.
  dir.write("sets/walls.tsj",
            R"({"type": "tileset", "name": "walls", "tiles": [{"id": 1, "type": "Wall"}]})");
  const std::string json =
      dir.write("yard.tmj", tmj(csvArray(), R"({"firstgid": 1, "source": "sets/walls.tsj"})"));
  const TiledLoad j = loadTiledFile(json, {});
  ASSERT_EQ(j.error, "");
  expectBoxes(j.parts, kWallBoxes);

  // Without the tile's rule nothing blocks: the rule above is what made the boxes.
  dir.write("plain.tsx", R"(<tileset name="plain"><tile id="1"/></tileset>)");
  const std::string plain =
      dir.write("plain.tmx", tmx(std::string("<data encoding=\"csv\">") + kCsv + "</data>",
                                 "<tileset firstgid=\"1\" source=\"plain.tsx\"/>"));
  const TiledLoad p = loadTiledFile(plain, {});
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.parts.boxes_size(), 0);
}

TEST(TiledMap, TilesetsThatLeadBackToThemselvesOrTooDeepAreRefused) {
  const TempDir dir;
  dir.write("self.tsx", R"(<tileset source="self.tsx"/>)");
  dir.write("a.tsx", R"(<tileset source="b.tsx"/>)");
  dir.write("b.tsx", R"(<tileset source="a.tsx"/>)");
  dir.write("c.tsx", R"(<tileset source="d.tsx"/>)");
  dir.write("d.tsx", R"(<tileset name="d"/>)");
  const auto load = [&](const std::string& source, int depth) {
    TiledImportOptions options;
    options.maxTilesetDepth = depth;
    return loadTiledText(
               tmx("<data encoding=\"csv\">0</data>", "<tileset firstgid=\"1\" source=\"" + source + "\"/>"),
               true, "loop.tmx", dir.path(), options)
        .error;
  };
  EXPECT_EQ(load("self.tsx", 4), "loop.tmx: tileset \"self.tsx\": tileset \"self.tsx\" refers to itself");
  EXPECT_EQ(load("a.tsx", 4), "loop.tmx: tileset \"b.tsx\": tileset \"a.tsx\" refers back to itself");
  EXPECT_EQ(load("c.tsx", 1),
            "loop.tmx: tileset \"c.tsx\": tileset \"d.tsx\": tilesets lead on to others more than 1 deep");
  // c leads to d, which is fine at depth 2: the error is then the layer's (one tile in a 6 x 4 map).
  EXPECT_EQ(load("c.tsx", 2), "loop.tmx: layer \"ground\": CSV data holds 1 tiles, not 24 (6 x 4 tiles)");
}

TEST(TiledMap, TilesetPathsOutsideTheMapsDirectoryAreRefused) {
  const TempDir dir;
  dir.write("sub/walls.tsx", R"(<tileset name="walls"/>)");
  const auto load = [&](const std::string& source, const std::string& baseDir) {
    return loadTiledText(tmj(csvArray(), R"({"firstgid": 1, "source": ")" + source + "\"}"), false, "map.tmj",
                         baseDir, {})
        .error;
  };
  EXPECT_EQ(
      load("../walls.tsx", dir.path() + "/sub"),
      "map.tmj: tileset at firstgid 1: tileset source \"../walls.tsx\" leaves the map's directory (\"..\")");
  EXPECT_EQ(load("sub/../../x.tsx", dir.path()),
            "map.tmj: tileset at firstgid 1: tileset source \"sub/../../x.tsx\" leaves the map's directory "
            "(\"..\")");
  EXPECT_EQ(load("/etc/passwd", dir.path()),
            "map.tmj: tileset at firstgid 1: tileset source \"/etc/passwd\" is an "
            "absolute path: only files beside the map are read");
  EXPECT_EQ(load("sub/walls.tsx", ""),
            "map.tmj: tileset at firstgid 1: tileset \"sub/walls.tsx\" is in its own "
            "file, and there is no directory to read it from");
  // The same file, under the directory, is read (nothing blocks: an empty tileset).
  EXPECT_EQ(load("sub/walls.tsx", dir.path()), "");
  EXPECT_EQ(load("./sub/walls.tsx", dir.path()), "");
  EXPECT_EQ(load("missing.tsx", dir.path()).find("map.tmj: tileset at firstgid 1: tileset \"missing.tsx\": "),
            0u);
}

// ---- Objects --------------------------------------------------------------------------------

// A 20 x 10 map of 32 px tiles (10 m high: world y = 10 - pixel y / 32).
std::string objectMapJson(const std::string& objects) {
  return R"({"type": "map", "orientation": "orthogonal", "width": 20, "height": 10, "tilewidth": 32,
    "tileheight": 32, "infinite": false, "tilesets": [)" +
         std::string(kJsonTileset) + R"(],
    "layers": [{"type": "objectgroup", "name": "things", "objects": [)" +
         objects + "]}]}";
}

std::string objectMapXml(const std::string& objects) {
  return R"(<map orientation="orthogonal" width="20" height="10" tilewidth="32" tileheight="32" infinite="0">
 )" + std::string(kXmlTileset) +
         R"(
 <objectgroup id="2" name="things">
)" + objects +
         R"(
 </objectgroup>
</map>)";
}

constexpr const char* kObjectsJson = R"(
  {"id": 1, "name": "flock", "type": "spawn", "point": true, "x": 64, "y": 96,
   "properties": [{"name": "archetype", "type": "string", "value": "sheep"},
                  {"name": "count", "type": "int", "value": 5}]},
  {"id": 2, "class": "Spawn", "point": true, "x": 16, "y": 16,
   "properties": [{"name": "archetype", "type": "string", "value": "dog"}]},
  {"id": 3, "name": "pen", "type": "region", "x": 320, "y": 32,
   "polygon": [{"x": 0, "y": 0}, {"x": 64, "y": 0}, {"x": 64, "y": 64}, {"x": 0, "y": 64}]},
  {"id": 4, "name": "route", "type": "path", "x": 0, "y": 0,
   "polyline": [{"x": 32, "y": 32}, {"x": 96, "y": 32}, {"x": 96, "y": 96}],
   "properties": [{"name": "looped", "type": "bool", "value": true}]},
  {"id": 5, "type": "wall", "x": 0, "y": 160, "polyline": [{"x": 0, "y": 0}, {"x": 64, "y": 0}, {"x": 64, "y": 64}]},
  {"id": 6, "type": "blocking", "x": 64, "y": 256, "width": 96, "height": 32},
  {"id": 7, "type": "waypoint", "point": true, "x": 608, "y": 288},
  {"id": 8, "name": "gate", "point": true, "x": 480, "y": 160},
  {"id": 9, "name": "oak", "type": "tree", "x": 0, "y": 0, "width": 32, "height": 32},
  {"id": 10, "x": 0, "y": 0, "width": 32, "height": 32},
  {"id": 11, "type": "region", "x": 0, "y": 0, "width": 32, "height": 32},
  {"id": 12, "type": "obstacle", "x": 448, "y": 32, "width": 64, "height": 64, "polygon": [
   {"x": 0, "y": 0}, {"x": 64, "y": 0}, {"x": 32, "y": 64}]})";

constexpr const char* kObjectsXml = R"(
  <object id="1" name="flock" type="spawn" x="64" y="96"><properties>
    <property name="archetype" value="sheep"/><property name="count" type="int" value="5"/></properties><point/></object>
  <object id="2" class="Spawn" x="16" y="16"><properties><property name="archetype" value="dog"/></properties><point/></object>
  <object id="3" name="pen" type="region" x="320" y="32"><polygon points="0,0 64,0 64,64 0,64"/></object>
  <object id="4" name="route" type="path" x="0" y="0"><properties><property name="looped" type="bool" value="true"/>
    </properties><polyline points="32,32 96,32 96,96"/></object>
  <object id="5" type="wall" x="0" y="160"><polyline points="0,0 64,0 64,64"/></object>
  <object id="6" type="blocking" x="64" y="256" width="96" height="32"/>
  <object id="7" type="waypoint" x="608" y="288"><point/></object>
  <object id="8" name="gate" x="480" y="160"><point/></object>
  <object id="9" name="oak" type="tree" x="0" y="0" width="32" height="32"/>
  <object id="10" x="0" y="0" width="32" height="32"/>
  <object id="11" type="region" x="0" y="0" width="32" height="32"/>
  <object id="12" type="obstacle" x="448" y="32" width="64" height="64"><polygon points="0,0 64,0 32,64"/></object>)";

void expectAt(const pb::Vec2& v, float x, float y) {
  EXPECT_NEAR(v.x(), x, 1e-4);
  EXPECT_NEAR(v.y(), y, 1e-4);
}

TEST(TiledMap, ObjectsBecomeSpawnsRegionsPathsWallsBoxesAndWaypoints) {
  const TiledLoad r = loadJson(objectMapJson(kObjectsJson));
  ASSERT_EQ(r.error, "");
  const pb::Scenario& s = r.parts;
  EXPECT_EQ(s.bounds().max().x(), 20.0f);
  EXPECT_EQ(s.bounds().max().y(), 10.0f);

  ASSERT_EQ(s.spawns_size(), 2);
  EXPECT_EQ(s.spawns(0).archetype(), "sheep");
  EXPECT_EQ(s.spawns(0).count(), 5u);
  expectAt(s.spawns(0).min(), 1, 6);  // the point is at (2, 7) m
  expectAt(s.spawns(0).max(), 3, 8);
  EXPECT_EQ(s.spawns(1).archetype(), "dog");
  EXPECT_EQ(s.spawns(1).count(), 1u);
  expectAt(s.spawns(1).min(), 0, 8.5f);  // (0.5, 9.5) m, the box clamped to the map
  expectAt(s.spawns(1).max(), 1.5f, 10);

  ASSERT_EQ(s.regions_size(), 2);
  EXPECT_EQ(s.regions(0).name(), "pen");
  ASSERT_EQ(s.regions(0).points_size(), 4);
  expectAt(s.regions(0).points(0), 10, 9);
  expectAt(s.regions(0).points(1), 12, 9);
  expectAt(s.regions(0).points(2), 12, 7);
  expectAt(s.regions(0).points(3), 10, 7);
  EXPECT_EQ(s.regions(1).name(), "region_11");
  ASSERT_EQ(s.regions(1).points_size(), 4);
  expectAt(s.regions(1).points(2), 1, 9);

  ASSERT_EQ(s.paths_size(), 1);
  EXPECT_EQ(s.paths(0).name(), "route");
  EXPECT_TRUE(s.paths(0).looped());
  ASSERT_EQ(s.paths(0).waypoints_size(), 3);
  EXPECT_EQ(s.paths(0).waypoints(2), "route_2");
  ASSERT_EQ(s.waypoints_size(), 5);
  EXPECT_EQ(s.waypoints(0).name(), "route_0");
  expectAt(s.waypoints(0).position(), 1, 9);
  expectAt(s.waypoints(1).position(), 3, 9);
  expectAt(s.waypoints(2).position(), 3, 7);
  EXPECT_EQ(s.waypoints(3).name(), "waypoint_7");
  expectAt(s.waypoints(3).position(), 19, 1);
  EXPECT_EQ(s.waypoints(4).name(), "gate");
  expectAt(s.waypoints(4).position(), 15, 5);

  ASSERT_EQ(s.walls_size(), 2);
  expectAt(s.walls(0).from(), 0, 5);
  expectAt(s.walls(0).to(), 2, 5);
  expectAt(s.walls(1).from(), 2, 5);
  expectAt(s.walls(1).to(), 2, 3);
  EXPECT_TRUE(s.walls(0).two_sided());
  EXPECT_TRUE(s.walls(1).two_sided());

  expectBoxes(s, {{3.5f, 1.5f, 1.5f, 0.5f}});  // tiles x 2..5, rows 8..9

  ASSERT_EQ(s.navmesh().blocking_size(), 1);  // the convex obstacle polygon
  ASSERT_EQ(s.navmesh().blocking(0).points_size(), 3);
  expectAt(s.navmesh().blocking(0).points(2), 15, 7);

  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_EQ(
      r.warnings[0],
      "test.tmj: layer \"things\": object 9 (\"oak\"): class \"tree\" means nothing to steerd; ignored");
  EXPECT_EQ(r.warnings[1], "test.tmj: 1 object(s) without a class (or type) ignored");
}

TEST(TiledMap, TmxObjectsReadAsTheirJsonTwins) {
  const TiledLoad json = loadJson(objectMapJson(kObjectsJson));
  const TiledLoad xml = loadXml(objectMapXml(kObjectsXml));
  ASSERT_EQ(json.error, "");
  ASSERT_EQ(xml.error, "");
  EXPECT_EQ(xml.parts.DebugString(), json.parts.DebugString());
  EXPECT_EQ(xml.parts.spawns_size(), 2);
}

// Box corners as steerd's nav does (scenario_nav.cpp: counter-clockwise angle).
std::vector<std::pair<double, double>> boxCorners(const pb::Box& b) {
  const double a = b.angle_deg() * M_PI / 180.0;
  const double ax = std::cos(a), ay = std::sin(a);
  const double hx = b.half_size().x(), hy = b.half_size().y();
  std::vector<std::pair<double, double>> out;
  for (const auto& [sx, sy] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}})
    out.emplace_back(b.center().x() + sx * hx * ax - sy * hy * ay,
                     b.center().y() + sx * hx * ay + sy * hy * ax);
  return out;
}

void expectCorner(const pb::Box& b, double x, double y) {
  bool found = false;
  for (const auto& [cx, cy] : boxCorners(b))
    found = found || (std::fabs(cx - x) < 1e-4 && std::fabs(cy - y) < 1e-4);
  EXPECT_TRUE(found) << "no corner at (" << x << ", " << y << ")";
}

TEST(TiledMap, RotatedRectanglesTurnClockwiseAroundTheirTopLeftAsInTiled) {
  const TiledLoad r = loadJson(objectMapJson(R"(
    {"id": 1, "type": "blocking", "x": 320, "y": 160, "width": 64, "height": 32, "rotation": 90},
    {"id": 2, "type": "blocking", "x": 320, "y": 192, "width": 64, "height": 32, "rotation": 30},
    {"id": 3, "gid": 2, "x": 0, "y": 320, "width": 32, "height": 32})"));
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.parts.boxes_size(), 3);
  // 90: the 2 x 1 tile rectangle hangs down from its top-left (10, 5): x 9..10, y 3..5.
  const pb::Box& right = r.parts.boxes(0);
  expectAt(right.center(), 9.5f, 4.0f);
  EXPECT_FLOAT_EQ(right.angle_deg(), -90.0f);
  for (const auto& [x, y] : {std::pair{9.0, 3.0}, {10.0, 3.0}, {10.0, 5.0}, {9.0, 5.0}})
    expectCorner(right, x, y);
  // 30: its top edge runs from the top-left (10, 4) down to the right, its left edge down-left.
  const pb::Box& tilted = r.parts.boxes(1);
  EXPECT_FLOAT_EQ(tilted.angle_deg(), -30.0f);
  expectCorner(tilted, 10.0, 4.0);
  expectCorner(tilted, 10.0 + 2 * std::cos(M_PI / 6), 4.0 - 2 * std::sin(M_PI / 6));
  expectCorner(tilted, 10.0 - std::sin(M_PI / 6), 4.0 - std::cos(M_PI / 6));
  // A tile object (gid 2 blocks) stands on its bottom-left corner: (0, 0)..(1, 1).
  expectAt(r.parts.boxes(2).center(), 0.5f, 0.5f);
  expectAt(r.parts.boxes(2).half_size(), 0.5f, 0.5f);
}

TEST(TiledMap, EllipsesBecomeCirclesOrPolygonsAroundThem) {
  const TiledLoad r = loadJson(objectMapJson(R"(
    {"id": 1, "type": "obstacle", "ellipse": true, "x": 448, "y": 32, "width": 64, "height": 64},
    {"id": 2, "type": "blocking", "ellipse": true, "x": 0, "y": 0, "width": 128, "height": 64})"));
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.parts.obstacles_size(), 1);
  expectAt(r.parts.obstacles(0).center(), 15, 8);
  EXPECT_FLOAT_EQ(r.parts.obstacles(0).radius(), 1.0f);
  ASSERT_EQ(r.parts.navmesh().blocking_size(), 1);
  const pb::Polygon& p = r.parts.navmesh().blocking(0);
  ASSERT_EQ(p.points_size(), 16);
  // Centred at (2, 9), radii 2 and 1, its corners outside the ellipse (so it blocks all of it).
  const double grow = 1.0 / std::cos(M_PI / 16);
  expectAt(p.points(0), static_cast<float>(2 + 2 * grow), 9);
  for (const auto& v : p.points()) {
    const double e = std::pow((v.x() - 2) / 2, 2) + std::pow(v.y() - 9, 2);
    EXPECT_GE(e, 1.0 - 1e-5);
  }
}

TEST(TiledMap, ObjectErrorsNameTheLayerAndTheObject) {
  const auto error = [](const std::string& object) { return loadJson(objectMapJson(object)).error; };
  EXPECT_EQ(
      error(R"({"id": 7, "name": "L", "type": "blocking", "x": 0, "y": 0, "polygon": [
              {"x": 0, "y": 0}, {"x": 64, "y": 0}, {"x": 64, "y": 32}, {"x": 32, "y": 32},
              {"x": 32, "y": 64}, {"x": 0, "y": 64}]})"),
      "test.tmj: layer \"things\": object 7 (\"L\"): a blocking polygon that is not convex: split it into "
      "convex pieces in Tiled");
  // A five-pointed star turns the same way at every point, but twice round.
  EXPECT_EQ(error(R"({"id": 8, "type": "blocking", "x": 100, "y": 100, "polygon": [
              {"x": 0, "y": -50}, {"x": 29, "y": 40}, {"x": -48, "y": -15}, {"x": 48, "y": -15}, {"x": -29, "y": 40}]})"),
            "test.tmj: layer \"things\": object 8: a blocking polygon that is not convex: split it into "
            "convex pieces "
            "in Tiled");
  EXPECT_EQ(error(R"({"id": 3, "type": "spawn", "point": true, "x": 5, "y": 5})"),
            "test.tmj: layer \"things\": object 3: a spawn needs a string property \"archetype\"");
  EXPECT_EQ(error(R"({"id": 3, "type": "spawn", "point": true, "x": 5, "y": 5, "properties": [
              {"name": "archetype", "type": "string", "value": "sheep"}, {"name": "count", "type": "int", "value": 0}]})"),
            "test.tmj: layer \"things\": object 3: property \"count\" must be 1 to 1000000");
  EXPECT_EQ(error(R"({"id": 4, "type": "blocking", "x": 2e6, "y": 0, "width": 32, "height": 32})"),
            "test.tmj: layer \"things\": object 4: x is 2000000.000000 pixels, beyond the limit of 1e6");
  EXPECT_EQ(error(R"({"id": 5, "type": "blocking", "x": 0, "y": 0, "width": -32, "height": 32})"),
            "test.tmj: layer \"things\": object 5: a negative width or height");
  EXPECT_EQ(error(R"({"id": 6, "type": "region", "point": true, "x": 0, "y": 0})"),
            "test.tmj: layer \"things\": object 6: a region must be a rectangle, ellipse or polygon");
  EXPECT_EQ(error(R"({"id": 1, "name": "a", "point": true}, {"id": 2, "name": "a", "point": true})"),
            "test.tmj: layer \"things\": object 2 (\"a\"): a second waypoint named \"a\"");
  EXPECT_EQ(
      loadXml(objectMapXml(R"(<object id="9" type="blocking" x="nan" y="0" width="32" height="32"/>)")).error,
      "test.tmx: layer \"things\": object 9: x=\"nan\" is not a number");
  TiledImportOptions few;
  few.maxObjects = 1;
  EXPECT_EQ(loadJson(objectMapJson(R"({"id": 1}, {"id": 2})"), few).error,
            "test.tmj: layer \"things\": more than 1 objects");
}

}  // namespace
}  // namespace steerd::level
