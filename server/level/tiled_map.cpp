// Tiled maps into scenario parts. Both formats (.tmx through pugixml, .tmj through nlohmann::json)
// are read into the same plain structs (a tileset's blocking tiles, a layer's gids, an object), and
// one MapBuilder turns those into boxes, obstacles, walls, regions, paths and spawns. Every value
// from the file is type- and range-checked before it is used; a failure throws ImportError, which
// the entry points catch and prefix with the file's name.
#include "level/tiled_map.h"

#include <sodium.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_d_stableOutBuffer (zstd 1.4.4+)
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <pugixml.hpp>
#include <set>
#include <stdexcept>
#include <utility>

#include "level/level_mesh.h"

namespace steerd::level {

namespace {

namespace pb = steerd::scenario;
using Json = nlohmann::json;

constexpr std::uint32_t kGidMask = 0x0FFFFFFFu;  // the top four bits flip or rotate the tile
constexpr double kMaxPixels = 1e6;               // farther from the origin than any real map
constexpr double kMaxTilePixels = 65536;
constexpr int kMaxGroupDepth = 16;
constexpr std::size_t kMaxShapePoints = 1024;  // a region may have no more (scenario checks)
constexpr int kEllipseSides = 16;
constexpr double kSpawnHalfSize = 1.0;  // m either side of a spawn point
constexpr std::int64_t kMaxSpawnCount = 1'000'000;
constexpr std::size_t kMaxNameBytes = 1024;
constexpr double kPi = 3.14159265358979323846;

// ---- Errors and text ----------------------------------------------------------------------

struct ImportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw ImportError(where.empty() ? what : where + ": " + what);
}

// Text from the file, shown in a message: quoted, cut short, without control characters.
std::string shown(std::string_view s) {
  constexpr std::size_t kShown = 80;
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size() && i < kShown; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    out += c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c);
  }
  if (s.size() > kShown) out += "...";
  return out + "\"";
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string_view trim(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// Strict numbers: the whole text (spaces around allowed), nothing else.
template <class T>
std::optional<T> parseNumber(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  T v{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string checkedName(std::string_view s, const std::string& where) {
  if (s.size() > kMaxNameBytes) fail(where, "a name longer than " + std::to_string(kMaxNameBytes) + " bytes");
  return std::string(s);
}

// ---- Properties ---------------------------------------------------------------------------

struct Property {
  enum class Kind { kBool, kInt, kFloat, kString, kOther };
  Kind kind = Kind::kOther;
  bool flag = false;
  double number = 0.0;  // kInt, kFloat
  std::string text;     // kString
};
using Properties = std::map<std::string, Property, std::less<>>;

const Property* findProperty(const Properties& props, std::string_view name) {
  const auto it = props.find(name);
  return it == props.end() ? nullptr : &it->second;
}

bool boolProperty(const Properties& props, std::string_view name, bool fallback, const std::string& where) {
  const Property* p = findProperty(props, name);
  if (!p) return fallback;
  if (p->kind != Property::Kind::kBool) fail(where, "property " + shown(name) + " must be a bool");
  return p->flag;
}

std::optional<std::int64_t> intProperty(const Properties& props, std::string_view name,
                                        const std::string& where) {
  const Property* p = findProperty(props, name);
  if (!p) return std::nullopt;
  if (p->kind != Property::Kind::kInt) fail(where, "property " + shown(name) + " must be an int");
  return static_cast<std::int64_t>(p->number);
}

std::optional<double> numberProperty(const Properties& props, std::string_view name,
                                     const std::string& where) {
  const Property* p = findProperty(props, name);
  if (!p) return std::nullopt;
  if (p->kind != Property::Kind::kInt && p->kind != Property::Kind::kFloat)
    fail(where, "property " + shown(name) + " must be a number");
  return p->number;
}

std::optional<std::string> stringProperty(const Properties& props, std::string_view name,
                                          const std::string& where) {
  const Property* p = findProperty(props, name);
  if (!p) return std::nullopt;
  if (p->kind != Property::Kind::kString) fail(where, "property " + shown(name) + " must be a string");
  return p->text;
}

bool isBlockingClass(std::string_view cls) { return cls == "blocking" || cls == "obstacle" || cls == "wall"; }

// ---- The map, its tilesets and objects, as both formats say them ----------------------------

struct MapInfo {
  std::size_t width = 0, height = 0;     // tiles
  double tileWidth = 0, tileHeight = 0;  // pixels
  std::string describe() const { return std::to_string(width) + " x " + std::to_string(height) + " tiles"; }
  std::size_t cells() const { return width * height; }
};

struct TilesetTiles {
  std::vector<std::uint32_t> blocking;  // local tile ids, sorted
};
// Shared: a map may name one tileset file many times, and a copy each could run to gigabytes.
using TilesetPtr = std::shared_ptr<const TilesetTiles>;

enum class Shape { kRectangle, kEllipse, kPoint, kPolygon, kPolyline, kTile, kText };

struct Pt {
  double x = 0.0, y = 0.0;
};

struct MapObject {
  std::int64_t id = 0;
  std::string name, cls;  // cls: the class (or type), lower case
  Shape shape = Shape::kRectangle;
  double x = 0, y = 0, width = 0, height = 0, rotation = 0;  // pixels; degrees clockwise
  std::uint32_t gid = 0;                                     // kTile: the tile, flags masked off
  bool templated = false;
  std::vector<Pt> points;  // kPolygon, kPolyline: relative to (x, y)
  Properties props;
};

std::string objectLabel(std::int64_t id, std::string_view name) {
  return "object " + std::to_string(id) + (name.empty() ? "" : " (" + shown(name) + ")");
}

void checkMapInfo(const MapInfo& m, const TiledImportOptions& options) {
  if (m.width == 0 || m.height == 0) fail("", "the map has no tiles (width and height must be at least 1)");
  if (m.width > options.maxTiles / m.height)
    fail("", "the map is " + m.describe() + ", more than the limit of " + std::to_string(options.maxTiles));
  if (!(m.tileWidth >= 1 && m.tileWidth <= kMaxTilePixels && m.tileHeight >= 1 &&
        m.tileHeight <= kMaxTilePixels))
    fail("", "tilewidth and tileheight must be 1 to 65536 pixels");
}

void checkOrientation(std::string_view orientation, bool infinite) {
  if (orientation != "orthogonal")
    fail("", "a " + shown(orientation) + " map: only orthogonal maps are read");
  if (infinite)
    fail("", "an infinite map: turn Infinite off in Tiled's Map Properties (it keeps the tiles drawn)");
}

// ---- Layer data: CSV, base64, zlib / gzip / zstd --------------------------------------------

std::vector<std::uint32_t> gidsFromCsv(std::string_view text, const MapInfo& m, const std::string& where) {
  std::vector<std::uint32_t> gids;
  gids.reserve(m.cells());
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = text.find(',', pos);
    const std::string_view token =
        trim(text.substr(pos, comma == std::string_view::npos ? text.npos : comma - pos));
    if (token.empty()) {
      if (comma == std::string_view::npos) break;  // Tiled ends rows with a comma
      fail(where, "an empty cell in the CSV data");
    }
    if (gids.size() == m.cells())
      fail(where, "CSV data holds more than " + std::to_string(m.cells()) + " tiles (" + m.describe() + ")");
    const auto gid = parseNumber<std::uint32_t>(token);
    if (!gid) fail(where, "CSV data holds " + shown(token) + ", not a tile number");
    gids.push_back(*gid);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  if (gids.size() != m.cells())
    fail(where, "CSV data holds " + std::to_string(gids.size()) + " tiles, not " + std::to_string(m.cells()) +
                    " (" + m.describe() + ")");
  return gids;
}

std::vector<unsigned char> base64Decode(std::string_view text, const std::string& where) {
  std::vector<unsigned char> out(text.size() / 4 * 3 + 3);
  std::size_t length = 0;
  if (sodium_base642bin(out.data(), out.size(), text.data(), text.size(), " \t\r\n", &length, nullptr,
                        sodium_base64_VARIANT_ORIGINAL) != 0)
    fail(where, "the layer's base64 data is not valid");
  out.resize(length);
  return out;
}

[[noreturn]] void inflatesPast(std::size_t expected, const MapInfo& m, const std::string& where) {
  fail(where, "data inflates past " + std::to_string(expected) + " bytes (" + m.describe() + ")");
}

// zlib or gzip (inflate detects which). The output buffer holds one byte more than expected, so
// data that inflates past it is noticed there and never given more memory.
std::vector<unsigned char> inflateZlib(const std::vector<unsigned char>& in, std::size_t expected,
                                       const MapInfo& m, const std::string& where) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) fail(where, "zlib cannot start");
  const std::unique_ptr<z_stream, int (*)(z_stream*)> end(&zs, inflateEnd);
  std::vector<unsigned char> out(expected + 1);
  std::size_t inPos = 0, outPos = 0;
  for (;;) {
    const std::size_t inChunk = std::min<std::size_t>(in.size() - inPos, UINT_MAX);
    const std::size_t outChunk = std::min<std::size_t>(out.size() - outPos, UINT_MAX);
    zs.next_in = const_cast<Bytef*>(in.data() + inPos);  // zlib's API is not const; it only reads
    zs.avail_in = static_cast<uInt>(inChunk);
    zs.next_out = out.data() + outPos;
    zs.avail_out = static_cast<uInt>(outChunk);
    const int rc = inflate(&zs, Z_NO_FLUSH);
    inPos += inChunk - zs.avail_in;
    outPos += outChunk - zs.avail_out;
    if (outPos > expected) inflatesPast(expected, m, where);
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR) fail(where, "the compressed data is cut short");
    if (rc != Z_OK)
      fail(where, std::string("the compressed data is not valid: ") + (zs.msg ? zs.msg : "zlib error"));
  }
  if (inPos != in.size()) fail(where, "bytes after the end of the compressed data");
  out.resize(outPos);
  return out;
}

std::vector<unsigned char> inflateZstd(const std::vector<unsigned char>& in, std::size_t expected,
                                       const MapInfo& m, const std::string& where) {
  if (in.empty()) fail(where, "the compressed data is empty");
  const unsigned long long declared = ZSTD_getFrameContentSize(in.data(), in.size());
  if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR && declared > expected)
    inflatesPast(expected, m, where);
  const std::unique_ptr<ZSTD_DCtx, std::size_t (*)(ZSTD_DCtx*)> ctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!ctx) fail(where, "zstd cannot start");
  // Decoding straight into this buffer (which must then hold the whole frame) leaves zstd no
  // window of its own to allocate, however large a window the frame's header asks for.
  if (ZSTD_isError(ZSTD_DCtx_setParameter(ctx.get(), ZSTD_d_stableOutBuffer, 1)))
    fail(where, "this zstd library cannot decode into a fixed buffer");
  std::vector<unsigned char> out(expected + 1);  // one byte more, as inflateZlib
  ZSTD_inBuffer ib{in.data(), in.size(), 0};
  ZSTD_outBuffer ob{out.data(), out.size(), 0};
  for (;;) {
    const std::size_t before = ib.pos + ob.pos;
    const std::size_t rc = ZSTD_decompressStream(ctx.get(), &ob, &ib);
    if (ZSTD_getErrorCode(rc) == ZSTD_error_dstSize_tooSmall) inflatesPast(expected, m, where);
    if (ZSTD_isError(rc))
      fail(where, std::string("the compressed data is not valid: ") + ZSTD_getErrorName(rc));
    if (ob.pos > expected) inflatesPast(expected, m, where);
    if (rc == 0 && ib.pos == ib.size) break;  // every frame ended and flushed
    if (ib.pos + ob.pos == before) fail(where, "the compressed data is cut short");  // no progress left
  }
  out.resize(ob.pos);
  return out;
}

std::vector<std::uint32_t> gidsFromBytes(const std::vector<unsigned char>& bytes, const MapInfo& m,
                                         const std::string& where) {
  if (bytes.size() != m.cells() * 4)
    fail(where, "data holds " + std::to_string(bytes.size()) + " bytes, not " +
                    std::to_string(m.cells() * 4) + " (" + m.describe() + ")");
  std::vector<std::uint32_t> gids(m.cells());
  for (std::size_t i = 0; i < gids.size(); ++i) {
    const unsigned char* b = bytes.data() + 4 * i;  // little-endian, as Tiled writes
    gids[i] = std::uint32_t{b[0]} | std::uint32_t{b[1]} << 8 | std::uint32_t{b[2]} << 16 |
              std::uint32_t{b[3]} << 24;
  }
  return gids;
}

std::vector<std::uint32_t> gidsFromBase64(std::string_view text, std::string_view compression,
                                          const MapInfo& m, const TiledImportOptions& options,
                                          const std::string& where) {
  const std::size_t expected = m.cells() * 4;
  const std::vector<unsigned char> raw = base64Decode(text, where);
  if (compression.empty()) return gidsFromBytes(raw, m, where);
  if (expected > options.maxInflatedBytes)
    fail(where, "data would inflate to " + std::to_string(expected) + " bytes, more than the limit of " +
                    std::to_string(options.maxInflatedBytes));
  if (compression == "zlib" || compression == "gzip")
    return gidsFromBytes(inflateZlib(raw, expected, m, where), m, where);
  if (compression == "zstd") return gidsFromBytes(inflateZstd(raw, expected, m, where), m, where);
  fail(where, "compression " + shown(compression) + " is not read (zlib, gzip, zstd or none)");
}

// ---- Tilesets, embedded or in their own files ----------------------------------------------

struct TilesetSource {
  const TiledImportOptions& options;
  std::string baseDir;
  std::map<std::string, TilesetPtr> cache;  // by path under baseDir: each file is read once
  std::size_t bytesRead = 0;                // over every tileset file: at most maxFileBytes
};

bool tileBlocks(const Properties& props, std::string_view cls, bool hasShapes, const std::string& where) {
  return boolProperty(props, "blocking", false, where) || isBlockingClass(lower(cls)) || hasShapes;
}

std::uint32_t tileId(std::optional<std::int64_t> id, const std::string& where) {
  if (!id || *id < 0 || *id > kGidMask) fail(where, "a tile without a valid id");
  return static_cast<std::uint32_t>(*id);
}

void sortUnique(std::vector<std::uint32_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// `source` relative to `fromDir` (itself under baseDir), normalised; never absolute, never "..".
std::string safeRelativePath(std::string_view source, const std::string& fromDir, const std::string& where) {
  if (source.empty() || source.size() > kMaxNameBytes || source.find('\0') != std::string_view::npos)
    fail(where, "tileset source " + shown(source) + " is not a file name");
  if (source.front() == '/' || source.front() == '\\' || (source.size() > 1 && source[1] == ':'))
    fail(where,
         "tileset source " + shown(source) + " is an absolute path: only files beside the map are read");
  std::string out = fromDir;
  std::size_t pos = 0;
  while (pos <= source.size()) {
    const std::size_t sep = std::min(source.find('/', pos), source.find('\\', pos));
    const std::string_view part = source.substr(pos, sep == std::string_view::npos ? source.npos : sep - pos);
    if (part == "..") fail(where, "tileset source " + shown(source) + " leaves the map's directory (\"..\")");
    if (!part.empty() && part != ".") out += (out.empty() ? "" : "/") + std::string(part);
    if (sep == std::string_view::npos) break;
    pos = sep + 1;
  }
  if (out.empty()) fail(where, "tileset source " + shown(source) + " is not a file name");
  return out;
}

std::string dirOf(const std::string& rel) {
  const std::size_t slash = rel.rfind('/');
  return slash == std::string::npos ? std::string() : rel.substr(0, slash);
}

bool looksLikeXml(std::string_view text) {
  text = trim(text);
  return !text.empty() && text.front() == '<';
}

TilesetPtr tilesetFromFile(TilesetSource& src, std::string_view source, const std::string& fromDir,
                           std::vector<std::string>& chain, const std::string& where);

Properties xmlProperties(const pugi::xml_node& owner) {
  Properties out;
  for (const pugi::xml_node p : owner.child("properties").children("property")) {
    const std::string_view type = p.attribute("type").value();  // Tiled leaves it out for strings
    const pugi::xml_attribute valueAttr = p.attribute("value");
    const std::string_view value = valueAttr ? valueAttr.value() : p.text().get();  // long strings: text
    const auto integer = parseNumber<std::int64_t>(value);
    const auto real = parseNumber<double>(value);
    Property prop;  // a value that does not parse stays kOther: an error only if it is read
    if (type == "bool" && (value == "true" || value == "false")) {
      prop.kind = Property::Kind::kBool;
      prop.flag = value == "true";
    } else if (type == "int" && integer) {
      prop.kind = Property::Kind::kInt;
      prop.number = static_cast<double>(*integer);
    } else if (type == "float" && real && std::isfinite(*real)) {
      prop.kind = Property::Kind::kFloat;
      prop.number = *real;
    } else if (type.empty() || type == "string" || type == "file" || type == "color") {
      prop.kind = Property::Kind::kString;
      prop.text = value;
    }
    out[p.attribute("name").value()] = std::move(prop);
  }
  return out;
}

std::string xmlClass(const pugi::xml_node& n) {
  const std::string_view cls = n.attribute("class").value();  // Tiled 1.9+
  return lower(cls.empty() ? std::string_view(n.attribute("type").value()) : cls);
}

TilesetPtr tilesetFromXml(TilesetSource& src, const pugi::xml_node& ts, const std::string& dir,
                          std::vector<std::string>& chain, const std::string& where) {
  if (const pugi::xml_attribute source = ts.attribute("source"))
    return tilesetFromFile(src, source.value(), dir, chain, where);
  TilesetTiles out;
  for (const pugi::xml_node tile : ts.children("tile")) {
    const std::uint32_t id = tileId(parseNumber<std::int64_t>(tile.attribute("id").value()), where);
    const std::string tw = where + ": tile " + std::to_string(id);
    const bool shapes = !tile.child("objectgroup").child("object").empty();  // collision shapes
    if (tileBlocks(xmlProperties(tile), xmlClass(tile), shapes, tw)) out.blocking.push_back(id);
  }
  sortUnique(out.blocking);
  return std::make_shared<const TilesetTiles>(std::move(out));
}

// ---- JSON fields, each type-checked ---------------------------------------------------------

const Json* member(const Json& o, const char* key) {
  if (!o.is_object()) return nullptr;
  const auto it = o.find(key);
  return it == o.end() ? nullptr : &*it;
}

[[noreturn]] void wrongType(const std::string& where, const char* key, const char* expected,
                            const Json& got) {
  fail(where, std::string("\"") + key + "\" must be " + expected + ", not " + got.type_name());
}

std::optional<std::string> jsonString(const Json& o, const char* key, const std::string& where) {
  const Json* v = member(o, key);
  if (!v) return std::nullopt;
  if (!v->is_string()) wrongType(where, key, "a string", *v);
  return checkedName(v->get_ref<const std::string&>(), where);
}

std::optional<double> jsonNumber(const Json& o, const char* key, const std::string& where) {
  const Json* v = member(o, key);
  if (!v) return std::nullopt;
  if (!v->is_number()) wrongType(where, key, "a number", *v);
  const double d = v->get<double>();
  if (!std::isfinite(d)) fail(where, std::string("\"") + key + "\" is not a finite number");
  return d;
}

std::optional<std::int64_t> jsonInteger(const Json& o, const char* key, const std::string& where) {
  const Json* v = member(o, key);
  if (!v) return std::nullopt;
  if (v->is_number_unsigned()) {
    const auto u = v->get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      fail(where, std::string("\"") + key + "\" is too large");
    return static_cast<std::int64_t>(u);
  }
  if (v->is_number_integer()) return v->get<std::int64_t>();
  if (v->is_number_float()) {  // 3.0 is 3; 3.5 is not an integer
    const double d = v->get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e15) return static_cast<std::int64_t>(d);
  }
  wrongType(where, key, "an integer", *v);
}

std::optional<bool> jsonBool(const Json& o, const char* key, const std::string& where) {
  const Json* v = member(o, key);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) wrongType(where, key, "true or false", *v);
  return v->get<bool>();
}

const Json* jsonArray(const Json& o, const char* key, const std::string& where) {
  const Json* v = member(o, key);
  if (v && !v->is_array()) wrongType(where, key, "an array", *v);
  return v;
}

Property jsonProperty(const Json& value) {
  Property p;
  if (value.is_boolean()) {
    p.kind = Property::Kind::kBool;
    p.flag = value.get<bool>();
  } else if (value.is_number_integer()) {  // unsigned too
    p.kind = Property::Kind::kInt;
    p.number = value.get<double>();
  } else if (value.is_number_float() && std::isfinite(value.get<double>())) {
    p.kind = Property::Kind::kFloat;
    p.number = value.get<double>();
  } else if (value.is_string()) {
    p.kind = Property::Kind::kString;
    p.text = value.get<std::string>();
  }
  return p;
}

// Tiled 1.2+ writes [{"name", "type", "value"}]; older files an object of name: value.
Properties jsonProperties(const Json& owner, const std::string& where) {
  Properties out;
  const Json* props = member(owner, "properties");
  if (!props) return out;
  if (props->is_object()) {
    for (const auto& [name, value] : props->items()) out[name] = jsonProperty(value);
    return out;
  }
  if (!props->is_array()) wrongType(where, "properties", "an array", *props);
  for (const Json& p : *props) {
    if (!p.is_object()) fail(where, "a property that is not an object");
    const auto name = jsonString(p, "name", where);
    const Json* value = member(p, "value");
    if (!name || !value) fail(where, "a property needs a \"name\" and a \"value\"");
    out[*name] = jsonProperty(*value);
  }
  return out;
}

std::string jsonClass(const Json& o, const std::string& where) {
  std::string cls = jsonString(o, "class", where).value_or("");  // Tiled 1.9+
  if (cls.empty()) cls = jsonString(o, "type", where).value_or("");
  return lower(cls);
}

TilesetPtr tilesetFromJson(TilesetSource& src, const Json& ts, const std::string& dir,
                           std::vector<std::string>& chain, const std::string& where) {
  if (!ts.is_object()) fail(where, "a tileset that is not a JSON object");
  if (const auto source = jsonString(ts, "source", where))
    return tilesetFromFile(src, *source, dir, chain, where);
  TilesetTiles out;
  const Json* tiles = jsonArray(ts, "tiles", where);
  if (!tiles) return std::make_shared<const TilesetTiles>();
  for (const Json& tile : *tiles) {
    const std::uint32_t id = tileId(jsonInteger(tile, "id", where), where);
    const std::string tw = where + ": tile " + std::to_string(id);
    const Json* group = member(tile, "objectgroup");
    const Json* shapes = group ? jsonArray(*group, "objects", tw) : nullptr;
    if (tileBlocks(jsonProperties(tile, tw), jsonClass(tile, tw), shapes && !shapes->empty(), tw))
      out.blocking.push_back(id);
  }
  sortUnique(out.blocking);
  return std::make_shared<const TilesetTiles>(std::move(out));
}

Json parseJson(std::string_view text, const std::string& where) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    std::string why = e.what();
    if (const std::size_t tag = why.find("] "); tag != std::string::npos) why = why.substr(tag + 2);
    fail(where, "not valid JSON: " + why);
  }
}

pugi::xml_node parseXml(pugi::xml_document& doc, std::string_view text, const char* root,
                        const std::string& where) {
  const pugi::xml_parse_result r =
      doc.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_auto);
  if (!r)
    fail(where, std::string("not valid XML: ") + r.description() + " at byte " + std::to_string(r.offset));
  const pugi::xml_node node = doc.child(root);
  if (!node) fail(where, std::string("no <") + root + "> element");
  return node;
}

TilesetPtr tilesetFromFile(TilesetSource& src, std::string_view source, const std::string& fromDir,
                           std::vector<std::string>& chain, const std::string& where) {
  if (src.baseDir.empty())
    fail(where,
         "tileset " + shown(source) + " is in its own file, and there is no directory to read it from");
  const std::string rel = safeRelativePath(source, fromDir, where);
  if (std::find(chain.begin(), chain.end(), rel) != chain.end())
    fail(where,
         "tileset " + shown(rel) + (chain.back() == rel ? " refers to itself" : " refers back to itself"));
  if (chain.size() >= static_cast<std::size_t>(std::max(src.options.maxTilesetDepth, 0)))
    fail(where, "tileset " + shown(rel) + ": tilesets lead on to others more than " +
                    std::to_string(src.options.maxTilesetDepth) + " deep");
  if (const auto hit = src.cache.find(rel); hit != src.cache.end()) return hit->second;
  std::string text, error;
  const std::size_t left = src.options.maxFileBytes - std::min(src.bytesRead, src.options.maxFileBytes);
  if (!readFileCapped(src.baseDir + "/" + rel, left, text, error))
    fail(where, "tileset " + shown(rel) + ": " + error);
  src.bytesRead += text.size();
  const std::string inner = "tileset " + shown(rel);
  chain.push_back(rel);
  TilesetPtr tiles;
  if (looksLikeXml(text)) {
    pugi::xml_document doc;
    tiles = tilesetFromXml(src, parseXml(doc, text, "tileset", inner), dirOf(rel), chain, inner);
  } else {
    tiles = tilesetFromJson(src, parseJson(text, inner), dirOf(rel), chain, inner);
  }
  chain.pop_back();
  src.cache.emplace(rel, tiles);
  return tiles;
}

// ---- Geometry -----------------------------------------------------------------------------

double cross(Pt a, Pt b) { return a.x * b.y - a.y * b.x; }
double dot(Pt a, Pt b) { return a.x * b.x + a.y * b.y; }
Pt sub(Pt a, Pt b) { return {a.x - b.x, a.y - b.y}; }
double length(Pt a) { return std::hypot(a.x, a.y); }

// Exact for the right angles a map mostly has, so a box turned 90 degrees stays on the grid.
std::pair<double, double> sinCosDeg(double deg) {
  const double d = std::fmod(deg, 360.0);
  const double n = (d < 0 ? d + 360.0 : d);
  if (n == 0.0) return {0.0, 1.0};
  if (n == 90.0) return {1.0, 0.0};
  if (n == 180.0) return {0.0, -1.0};
  if (n == 270.0) return {-1.0, 0.0};
  return {std::sin(n * kPi / 180.0), std::cos(n * kPi / 180.0)};
}

// An object's pixels (relative to its x, y, before its rotation) to world metres. Tiled turns
// clockwise on screen (y down) around (x, y); the world's y is flipped, so the map reads the same
// way up, and a clockwise turn stays clockwise (a negative angle in the world's y-up frame).
struct Frame {
  double x, y, sn, cs, sx, sy, top;
  Pt operator()(double lx, double ly) const {
    const double px = x + lx * cs - ly * sn, py = y + lx * sn + ly * cs;
    return {px * sx, top - py * sy};
  }
};

std::vector<Pt> withoutRepeats(std::vector<Pt> p) {
  std::vector<Pt> out;
  for (const Pt& v : p) {
    if (out.empty() || v.x != out.back().x || v.y != out.back().y) out.push_back(v);
  }
  while (out.size() > 1 && out.front().x == out.back().x && out.front().y == out.back().y) out.pop_back();
  return out;
}

double signedArea(const std::vector<Pt>& p) {
  double a = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) a += cross(p[i], p[(i + 1) % p.size()]);
  return 0.5 * a;
}

// Convex: every turn the same way, and one turn in all (a star turns twice).
bool isConvex(const std::vector<Pt>& p) {
  int sign = 0;
  double turning = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Pt e1 = sub(p[(i + 1) % p.size()], p[i]), e2 = sub(p[(i + 2) % p.size()], p[(i + 1) % p.size()]);
    const double c = cross(e1, e2), d = dot(e1, e2);
    turning += std::atan2(c, d);
    if (std::fabs(c) <= 1e-9 * length(e1) * length(e2)) {
      if (d < 0) return false;  // the outline doubles back on itself
      continue;
    }
    const int s = c > 0 ? 1 : -1;
    if (sign != 0 && s != sign) return false;
    sign = s;
  }
  return std::fabs(std::fabs(turning) - 2 * kPi) < 1e-6;
}

void setVec(pb::Vec2* v, Pt p) {
  v->set_x(static_cast<float>(p.x));
  v->set_y(static_cast<float>(p.y));
}

// ---- The builder: what both formats feed ----------------------------------------------------

class MapBuilder {
 public:
  MapBuilder(const MapInfo& map, const TiledImportOptions& options, TiledLoad& out)
      : map_(map),
        options_(options),
        out_(out),
        sx_(options.metresPerTile / map.tileWidth),
        sy_(options.metresPerTile / map.tileHeight),
        widthM_(static_cast<double>(map.width) * options.metresPerTile),
        heightM_(static_cast<double>(map.height) * options.metresPerTile),
        blocked_(map.cells(), 0) {}

  const MapInfo& map() const { return map_; }

  void addTileset(std::int64_t firstGid, TilesetPtr tiles, const std::string& where) {
    if (firstGid < 1 || firstGid > kGidMask)
      fail(where, "\"firstgid\" must be 1 to " + std::to_string(kGidMask));
    if (!tilesets_.emplace(static_cast<std::uint32_t>(firstGid), std::move(tiles)).second)
      fail(where, "a second tileset at firstgid " + std::to_string(firstGid));
  }

  // Counts a tile layer against maxTiles (over every layer) before its data is decoded.
  void startTileLayer(std::optional<std::int64_t> width, std::optional<std::int64_t> height,
                      const std::string& where) {
    if ((width && *width != static_cast<std::int64_t>(map_.width)) ||
        (height && *height != static_cast<std::int64_t>(map_.height)))
      fail(where, "the layer's size differs from the map's (" + map_.describe() + ")");
    tilesRead_ += map_.cells();
    if (tilesRead_ > options_.maxTiles)
      fail(where, "the tile layers hold more than " + std::to_string(options_.maxTiles) + " tiles in all");
  }

  void addTileLayer(const std::vector<std::uint32_t>& gids, bool layerBlocking, const std::string& where) {
    for (std::size_t i = 0; i < gids.size() && i < blocked_.size(); ++i) {
      const std::uint32_t gid = gids[i] & kGidMask;
      if (gid != 0 && !blocked_[i] && (layerBlocking || gidBlocks(gid, where))) blocked_[i] = 1;
    }
  }

  void warn(const std::string& what) { out_.warnings.push_back(what); }

  void addObject(const MapObject& o, const std::string& layerWhere);
  void finish();

 private:
  bool gidBlocks(std::uint32_t gid, const std::string& where);
  Frame frame(const MapObject& o) const {
    const auto [s, c] = sinCosDeg(o.rotation);
    return {o.x, o.y, s, c, sx_, sy_, heightM_};
  }
  // A tile object stands on its (x, y), its bottom-left; any other shape hangs from it.
  static double top(const MapObject& o) { return o.shape == Shape::kTile ? -o.height : 0.0; }
  std::vector<Pt> corners(const MapObject& o) const;
  std::vector<Pt> worldPoints(const MapObject& o) const;
  std::vector<Pt> ellipse(const MapObject& o, double grow) const;
  Pt anchor(const MapObject& o) const;
  void checkNumbers(const MapObject& o, const std::string& where) const;
  void addBlocking(const MapObject& o, const std::string& where);
  void addBoxOrQuad(const MapObject& o, const std::string& where);
  void addEllipse(const MapObject& o, const std::string& where);
  void addConvex(std::vector<Pt> p, const std::string& where);
  void addWalls(const MapObject& o, const std::string& where);
  void addRegion(const MapObject& o, const std::string& where);
  void addPath(const MapObject& o, const std::string& where);
  void addWaypoint(const std::string& name, Pt p, const std::string& where);
  void addSpawn(const MapObject& o, const std::string& where);
  void addTileBoxes();
  Pt clamp(Pt p) const { return {std::clamp(p.x, 0.0, widthM_), std::clamp(p.y, 0.0, heightM_)}; }

  const MapInfo map_;
  const TiledImportOptions& options_;
  TiledLoad& out_;
  const double sx_, sy_, widthM_, heightM_;       // metres per pixel; the map's size in metres
  std::map<std::uint32_t, TilesetPtr> tilesets_;  // by firstgid
  std::vector<std::uint8_t> blocked_;             // per cell, row by row from the top
  std::size_t tilesRead_ = 0, objectsRead_ = 0, unclassed_ = 0;
  std::uint32_t lastGid_ = 0;  // the last lookup: neighbouring cells mostly repeat a tile
  bool lastBlocks_ = false;
  std::set<std::string> waypoints_, paths_, regions_;
};

bool MapBuilder::gidBlocks(std::uint32_t gid, const std::string& where) {
  if (gid == lastGid_) return lastBlocks_;
  auto it = tilesets_.upper_bound(gid);
  if (it == tilesets_.begin()) fail(where, "tile " + std::to_string(gid) + " is in no tileset");
  --it;
  const auto& b = it->second->blocking;
  lastGid_ = gid;
  lastBlocks_ = std::binary_search(b.begin(), b.end(), gid - it->first);
  return lastBlocks_;
}

std::vector<Pt> MapBuilder::corners(const MapObject& o) const {
  const Frame f = frame(o);
  const double t = top(o);
  return {f(0, t), f(o.width, t), f(o.width, t + o.height), f(0, t + o.height)};
}

std::vector<Pt> MapBuilder::worldPoints(const MapObject& o) const {
  const Frame f = frame(o);
  std::vector<Pt> out;
  for (const Pt& p : o.points) out.push_back(f(p.x, p.y));
  return out;
}

// The ellipse inside the object's rectangle as a polygon, its radii times `grow`.
std::vector<Pt> MapBuilder::ellipse(const MapObject& o, double grow) const {
  const Frame f = frame(o);
  const Pt c = f(o.width / 2, o.height / 2);
  const Pt ax = sub(f(o.width, o.height / 2), c), ay = sub(f(o.width / 2, o.height), c);
  std::vector<Pt> out;
  for (int i = 0; i < kEllipseSides; ++i) {
    const double t = 2 * kPi * i / kEllipseSides;
    out.push_back({c.x + grow * (std::cos(t) * ax.x + std::sin(t) * ay.x),
                   c.y + grow * (std::cos(t) * ax.y + std::sin(t) * ay.y)});
  }
  return out;
}

// Where a point-like use of an object (a waypoint) puts it: a point, a shape's middle.
Pt MapBuilder::anchor(const MapObject& o) const {
  if (o.shape == Shape::kPoint) return frame(o)(0, 0);
  if (o.shape == Shape::kPolygon || o.shape == Shape::kPolyline) {
    const std::vector<Pt> p = worldPoints(o);
    Pt sum;
    for (const Pt& v : p) sum = {sum.x + v.x, sum.y + v.y};
    return p.empty() ? frame(o)(0, 0) : Pt{sum.x / p.size(), sum.y / p.size()};
  }
  return frame(o)(o.width / 2, top(o) + o.height / 2);
}

void MapBuilder::checkNumbers(const MapObject& o, const std::string& where) const {
  const auto within = [&](double v, const char* what) {
    if (!std::isfinite(v)) fail(where, std::string(what) + " is not a finite number");
    if (std::fabs(v) > kMaxPixels)
      fail(where, std::string(what) + " is " + std::to_string(v) + " pixels, beyond the limit of 1e6");
  };
  within(o.x, "x");
  within(o.y, "y");
  within(o.width, "width");
  within(o.height, "height");
  if (!std::isfinite(o.rotation) || std::fabs(o.rotation) > kMaxPixels) fail(where, "rotation out of range");
  if (o.width < 0 || o.height < 0) fail(where, "a negative width or height");
  if (o.points.size() > kMaxShapePoints)
    fail(where, "more than " + std::to_string(kMaxShapePoints) + " points");
  for (const Pt& p : o.points) {
    within(p.x, "a point's x");
    within(p.y, "a point's y");
    within(o.x + p.x, "a point's x");
    within(o.y + p.y, "a point's y");
  }
}

void MapBuilder::addObject(const MapObject& o, const std::string& layerWhere) {
  if (++objectsRead_ > options_.maxObjects)
    fail(layerWhere, "more than " + std::to_string(options_.maxObjects) + " objects");
  const std::string where = layerWhere + ": " + objectLabel(o.id, o.name);
  if (o.templated) {
    warn(where + ": made from a template, which is not read (detach it in Tiled); ignored");
    return;
  }
  checkNumbers(o, where);
  const std::string& c = o.cls;
  if (o.shape == Shape::kText) {
    if (!c.empty()) warn(where + ": a text object; ignored");
  } else if (isBlockingClass(c)) {
    addBlocking(o, where);
  } else if (c == "region") {
    addRegion(o, where);
  } else if (c == "path") {
    addPath(o, where);
  } else if (c == "spawn") {
    addSpawn(o, where);
  } else if (c == "waypoint") {
    addWaypoint(o.name.empty() ? "waypoint_" + std::to_string(o.id) : o.name, anchor(o), where);
  } else if (!c.empty()) {
    warn(where + ": class " + shown(c) + " means nothing to steerd; ignored");
  } else if (o.shape == Shape::kPoint && !o.name.empty()) {
    addWaypoint(o.name, anchor(o), where);
  } else if (o.shape == Shape::kTile && o.gid != 0 && gidBlocks(o.gid, where)) {
    addBlocking(o, where);  // a tile whose tile blocks, placed as an object
  } else {
    ++unclassed_;
  }
}

void MapBuilder::addBlocking(const MapObject& o, const std::string& where) {
  switch (o.shape) {
    case Shape::kRectangle:
    case Shape::kTile:
      addBoxOrQuad(o, where);
      return;
    case Shape::kEllipse:
      addEllipse(o, where);
      return;
    case Shape::kPolygon:
      addConvex(worldPoints(o), where);
      return;
    case Shape::kPolyline:
      addWalls(o, where);
      return;
    default:
      fail(where, "a point cannot block: draw a rectangle, ellipse, polygon or polyline");
  }
}

// A rectangle stays a box while its sides stay square (tiles as wide as high, or turned by right
// angles); turned on non-square tiles it is a parallelogram, a blocking polygon.
void MapBuilder::addBoxOrQuad(const MapObject& o, const std::string& where) {
  if (!(o.width > 0 && o.height > 0)) fail(where, "a blocking rectangle needs a width and a height");
  const std::vector<Pt> c = corners(o);
  const Pt e1 = sub(c[1], c[0]), e2 = sub(c[3], c[0]);
  if (std::fabs(dot(e1, e2)) > 1e-9 * length(e1) * length(e2)) return addConvex(c, where);
  pb::Box* box = out_.parts.add_boxes();
  setVec(box->mutable_center(), {(c[0].x + c[2].x) / 2, (c[0].y + c[2].y) / 2});
  setVec(box->mutable_half_size(), {length(e1) / 2, length(e2) / 2});
  const double angle = std::atan2(e1.y, e1.x) * 180.0 / kPi;
  box->set_angle_deg(angle == 0.0 ? 0.0f : static_cast<float>(angle));  // never -0
}

// A circle is an obstacle; any other ellipse a 16-gon around it (its corners just outside, so it
// blocks at least the ellipse), a blocking polygon.
void MapBuilder::addEllipse(const MapObject& o, const std::string& where) {
  if (!(o.width > 0 && o.height > 0)) fail(where, "a blocking ellipse needs a width and a height");
  const Frame f = frame(o);
  const Pt c = f(o.width / 2, o.height / 2);
  const Pt ax = sub(f(o.width, o.height / 2), c), ay = sub(f(o.width / 2, o.height), c);
  const double a = length(ax), b = length(ay);
  if (std::fabs(dot(ax, ay)) <= 1e-9 * a * b && std::fabs(a - b) <= 1e-6 * std::max(a, b)) {
    pb::Obstacle* ob = out_.parts.add_obstacles();
    setVec(ob->mutable_center(), c);
    ob->set_radius(static_cast<float>(a));
    return;
  }
  addConvex(ellipse(o, 1.0 / std::cos(kPi / kEllipseSides)), where);
}

void MapBuilder::addConvex(std::vector<Pt> p, const std::string& where) {
  p = withoutRepeats(std::move(p));
  if (p.size() < 3) fail(where, "a blocking polygon needs at least 3 distinct points");
  if (std::fabs(signedArea(p)) < 1e-6) fail(where, "a blocking polygon with no area");
  if (!isConvex(p))
    fail(where, "a blocking polygon that is not convex: split it into convex pieces in Tiled");
  pb::Polygon* poly = out_.parts.mutable_navmesh()->add_blocking();
  for (const Pt& v : p) setVec(poly->add_points(), v);
}

void MapBuilder::addWalls(const MapObject& o, const std::string& where) {
  const std::vector<Pt> p = worldPoints(o);
  int added = 0;
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    const auto fx = static_cast<float>(p[i].x), fy = static_cast<float>(p[i].y);
    const auto tx = static_cast<float>(p[i + 1].x), ty = static_cast<float>(p[i + 1].y);
    if (fx == tx && fy == ty) continue;  // a zero-length wall is refused by the scenario's checks
    pb::Wall* w = out_.parts.add_walls();
    setVec(w->mutable_from(), p[i]);
    setVec(w->mutable_to(), p[i + 1]);
    w->set_two_sided(true);
    ++added;
  }
  if (added == 0) fail(where, "a wall polyline needs two distinct points");
}

void MapBuilder::addRegion(const MapObject& o, const std::string& where) {
  std::vector<Pt> p;
  if (o.shape == Shape::kRectangle || o.shape == Shape::kTile) {
    p = corners(o);
  } else if (o.shape == Shape::kEllipse) {
    p = ellipse(o, 1.0);
  } else if (o.shape == Shape::kPolygon) {
    p = withoutRepeats(worldPoints(o));
  } else {
    fail(where, "a region must be a rectangle, ellipse or polygon");
  }
  if (p.size() < 3 || std::fabs(signedArea(p)) < 1e-6) fail(where, "a region with no area");
  const std::string name = o.name.empty() ? "region_" + std::to_string(o.id) : o.name;
  if (!regions_.insert(name).second) fail(where, "a second region named " + shown(name));
  pb::Region* r = out_.parts.add_regions();
  r->set_name(name);
  for (const Pt& v : p) setVec(r->add_points(), v);
}

void MapBuilder::addPath(const MapObject& o, const std::string& where) {
  if (o.shape != Shape::kPolyline && o.shape != Shape::kPolygon)
    fail(where, "a path must be a polyline or polygon");
  const std::vector<Pt> p = withoutRepeats(worldPoints(o));
  if (p.size() < 2) fail(where, "a path needs at least two distinct points");
  const std::string name = o.name.empty() ? "path_" + std::to_string(o.id) : o.name;
  if (!paths_.insert(name).second) fail(where, "a second path named " + shown(name));
  pb::Path* path = out_.parts.add_paths();
  path->set_name(name);
  path->set_looped(boolProperty(o.props, "looped", o.shape == Shape::kPolygon, where));
  for (std::size_t i = 0; i < p.size(); ++i) {
    const std::string wp = name + "_" + std::to_string(i);
    addWaypoint(wp, p[i], where);
    path->add_waypoints(wp);
  }
}

void MapBuilder::addWaypoint(const std::string& name, Pt p, const std::string& where) {
  if (!waypoints_.insert(name).second) fail(where, "a second waypoint named " + shown(name));
  pb::Waypoint* w = out_.parts.add_waypoints();
  w->set_name(name);
  setVec(w->mutable_position(), p);
}

void MapBuilder::addSpawn(const MapObject& o, const std::string& where) {
  const auto archetype = stringProperty(o.props, "archetype", where);
  if (!archetype || archetype->empty()) fail(where, "a spawn needs a string property \"archetype\"");
  const std::int64_t count = intProperty(o.props, "count", where).value_or(1);
  if (count < 1 || count > kMaxSpawnCount)
    fail(where, "property \"count\" must be 1 to " + std::to_string(kMaxSpawnCount));
  const double speed = numberProperty(o.props, "speed", where).value_or(0.0);
  if (!(speed >= 0 && speed <= 1e4)) fail(where, "property \"speed\" must be 0 to 10000 m/s");
  Pt lo{kMaxPixels * 10, kMaxPixels * 10}, hi{-kMaxPixels * 10, -kMaxPixels * 10};
  const Pt at = anchor(o);
  if (o.shape == Shape::kPoint) {
    lo = {at.x - kSpawnHalfSize, at.y - kSpawnHalfSize};
    hi = {at.x + kSpawnHalfSize, at.y + kSpawnHalfSize};
  } else {
    const std::vector<Pt> shape =
        o.shape == Shape::kPolygon || o.shape == Shape::kPolyline ? worldPoints(o) : corners(o);
    for (const Pt& v : shape) {
      lo = {std::min(lo.x, v.x), std::min(lo.y, v.y)};
      hi = {std::max(hi.x, v.x), std::max(hi.y, v.y)};
    }
    if (shape.empty()) lo = hi = at;
  }
  pb::SpawnGroup* g = out_.parts.add_spawns();
  g->set_archetype(*archetype);
  g->set_count(static_cast<std::uint32_t>(count));
  setVec(g->mutable_min(), clamp(lo));
  setVec(g->mutable_max(), clamp(hi));
  g->set_speed(static_cast<float>(speed));
  g->set_path(stringProperty(o.props, "path", where).value_or(""));
}

struct TileRect {
  std::size_t x0, x1, y0, y1;  // [x0, x1) x [y0, y1) in cells, rows from the top
};

// Runs of blocked cells per row, and a run that repeats the one above (same ends) extends its
// rectangle: a wall of tiles is one box, an L two.
std::vector<TileRect> mergeBlocked(const std::vector<std::uint8_t>& blocked, std::size_t w, std::size_t h,
                                   std::size_t limit) {
  std::vector<TileRect> done, open, next;
  const auto close = [&](const TileRect& r) {
    done.push_back(r);
    if (done.size() > limit)
      fail("", "the blocked tiles make more than " + std::to_string(limit) + " boxes (maxObjects)");
  };
  for (std::size_t y = 0; y < h; ++y) {
    next.clear();
    std::size_t k = 0;  // open rectangles are in x order, as the runs are
    for (std::size_t x = 0; x < w;) {
      if (!blocked[y * w + x]) {
        ++x;
        continue;
      }
      const std::size_t x0 = x;
      while (x < w && blocked[y * w + x]) ++x;
      while (k < open.size() && open[k].x0 < x0) close(open[k++]);
      if (k < open.size() && open[k].x0 == x0 && open[k].x1 == x) {
        next.push_back(open[k++]);
        next.back().y1 = y + 1;
      } else {
        if (k < open.size() && open[k].x0 == x0) close(open[k++]);
        next.push_back({x0, x, y, y + 1});
      }
    }
    while (k < open.size()) close(open[k++]);
    std::swap(open, next);
  }
  for (const TileRect& r : open) close(r);
  std::sort(done.begin(), done.end(), [](const TileRect& a, const TileRect& b) {
    return std::pair(a.y0, a.x0) < std::pair(b.y0, b.x0);
  });
  return done;
}

void MapBuilder::addTileBoxes() {
  const double m = options_.metresPerTile;
  for (const TileRect& r : mergeBlocked(blocked_, map_.width, map_.height, options_.maxObjects)) {
    pb::Box* box = out_.parts.add_boxes();
    const double x0 = r.x0 * m, x1 = r.x1 * m, y0 = heightM_ - r.y1 * m, y1 = heightM_ - r.y0 * m;
    setVec(box->mutable_center(), {(x0 + x1) / 2, (y0 + y1) / 2});
    setVec(box->mutable_half_size(), {(x1 - x0) / 2, (y1 - y0) / 2});
    box->set_angle_deg(0.0f);
  }
}

void MapBuilder::finish() {
  auto* bounds = out_.parts.mutable_bounds();
  setVec(bounds->mutable_min(), {0, 0});
  setVec(bounds->mutable_max(), {widthM_, heightM_});
  addTileBoxes();
  if (unclassed_ > 0) warn(std::to_string(unclassed_) + " object(s) without a class (or type) ignored");
}

// ---- XML (.tmx) ---------------------------------------------------------------------------

double xmlNumber(const pugi::xml_node& n, const char* attr, double fallback, const std::string& where) {
  const pugi::xml_attribute a = n.attribute(attr);
  if (!a) return fallback;
  const auto v = parseNumber<double>(a.value());
  if (!v || !std::isfinite(*v)) fail(where, std::string(attr) + "=" + shown(a.value()) + " is not a number");
  return *v;
}

std::optional<std::int64_t> xmlInteger(const pugi::xml_node& n, const char* attr, const std::string& where) {
  const pugi::xml_attribute a = n.attribute(attr);
  if (!a) return std::nullopt;
  const auto v = parseNumber<std::int64_t>(a.value());
  if (!v) fail(where, std::string(attr) + "=" + shown(a.value()) + " is not an integer");
  return v;
}

void warnOffset(MapBuilder& b, double dx, double dy, const std::string& where) {
  if (dx != 0 || dy != 0) b.warn(where + ": the layer's offset is ignored");
}

std::vector<std::uint32_t> gidsFromXmlTiles(const pugi::xml_node& data, const MapInfo& m,
                                            const std::string& where) {
  std::vector<std::uint32_t> gids;
  for (const pugi::xml_node tile : data.children("tile")) {
    if (gids.size() == m.cells()) fail(where, "data holds more than " + std::to_string(m.cells()) + " tiles");
    const auto gid = xmlInteger(tile, "gid", where).value_or(0);
    if (gid < 0 || gid > std::numeric_limits<std::uint32_t>::max()) fail(where, "a tile gid out of range");
    gids.push_back(static_cast<std::uint32_t>(gid));
  }
  if (gids.size() != m.cells())
    fail(where, "data holds " + std::to_string(gids.size()) + " tiles, not " + std::to_string(m.cells()));
  return gids;
}

void readXmlTileLayer(MapBuilder& b, const pugi::xml_node& layer, bool inherited, const std::string& where,
                      const TiledImportOptions& options) {
  b.startTileLayer(xmlInteger(layer, "width", where), xmlInteger(layer, "height", where), where);
  warnOffset(b, xmlNumber(layer, "offsetx", 0, where), xmlNumber(layer, "offsety", 0, where), where);
  const bool blocking = inherited || boolProperty(xmlProperties(layer), "blocking", false, where);
  const pugi::xml_node data = layer.child("data");
  if (!data) fail(where, "no <data>");
  if (data.child("chunk")) fail(where, "data in chunks (an infinite map): turn Infinite off in Tiled");
  const std::string_view encoding = data.attribute("encoding").value();
  const std::string_view compression = data.attribute("compression").value();
  const MapInfo& m = b.map();
  if (encoding == "base64") {
    b.addTileLayer(gidsFromBase64(data.text().get(), compression, m, options, where), blocking, where);
  } else if (!compression.empty()) {
    fail(where, "compressed data must be base64");
  } else if (encoding == "csv") {
    b.addTileLayer(gidsFromCsv(data.text().get(), m, where), blocking, where);
  } else if (encoding.empty()) {
    b.addTileLayer(gidsFromXmlTiles(data, m, where), blocking, where);
  } else {
    fail(where, "encoding " + shown(encoding) + " is not read (csv, base64 or none)");
  }
}

std::vector<Pt> xmlPoints(std::string_view text, const std::string& where) {
  std::vector<Pt> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find_first_of(" \t\r\n", pos), text.size());
    const std::string_view pair = text.substr(pos, end - pos);
    pos = end + 1;
    if (pair.empty()) continue;
    if (out.size() == kMaxShapePoints)
      fail(where, "more than " + std::to_string(kMaxShapePoints) + " points");
    const std::size_t comma = pair.find(',');
    const auto x = parseNumber<double>(pair.substr(0, comma));
    const auto y =
        comma == std::string_view::npos ? std::nullopt : parseNumber<double>(pair.substr(comma + 1));
    if (!x || !y) fail(where, "point " + shown(pair) + " is not x,y");
    out.push_back({*x, *y});
  }
  return out;
}

MapObject xmlObject(const pugi::xml_node& n, const std::string& layerWhere) {
  MapObject o;
  o.id = xmlInteger(n, "id", layerWhere).value_or(0);
  o.name = checkedName(n.attribute("name").value(), layerWhere);
  const std::string where = layerWhere + ": " + objectLabel(o.id, o.name);
  o.cls = checkedName(xmlClass(n), where);
  o.x = xmlNumber(n, "x", 0, where);
  o.y = xmlNumber(n, "y", 0, where);
  o.width = xmlNumber(n, "width", 0, where);
  o.height = xmlNumber(n, "height", 0, where);
  o.rotation = xmlNumber(n, "rotation", 0, where);
  o.templated = static_cast<bool>(n.attribute("template"));
  if (const auto gid = xmlInteger(n, "gid", where)) {
    if (*gid < 0 || *gid > std::numeric_limits<std::uint32_t>::max()) fail(where, "gid out of range");
    o.shape = Shape::kTile;
    o.gid = static_cast<std::uint32_t>(*gid) & kGidMask;
  }
  if (n.child("ellipse")) o.shape = Shape::kEllipse;
  if (n.child("point")) o.shape = Shape::kPoint;
  if (n.child("text")) o.shape = Shape::kText;
  if (const pugi::xml_node p = n.child("polygon")) {
    o.shape = Shape::kPolygon;
    o.points = xmlPoints(p.attribute("points").value(), where);
  } else if (const pugi::xml_node l = n.child("polyline")) {
    o.shape = Shape::kPolyline;
    o.points = xmlPoints(l.attribute("points").value(), where);
  }
  o.props = xmlProperties(n);
  return o;
}

void readXmlLayers(MapBuilder& b, const pugi::xml_node& parent, bool inherited, int depth,
                   const TiledImportOptions& options) {
  for (const pugi::xml_node child : parent.children()) {
    const std::string_view kind = child.name();
    const std::string where = "layer " + shown(child.attribute("name").value());
    if (kind == "layer") {
      readXmlTileLayer(b, child, inherited, where, options);
    } else if (kind == "objectgroup") {
      warnOffset(b, xmlNumber(child, "offsetx", 0, where), xmlNumber(child, "offsety", 0, where), where);
      for (const pugi::xml_node o : child.children("object")) b.addObject(xmlObject(o, where), where);
    } else if (kind == "group") {
      if (depth >= kMaxGroupDepth) fail(where, "groups nest deeper than " + std::to_string(kMaxGroupDepth));
      const bool blocking = inherited || boolProperty(xmlProperties(child), "blocking", false, where);
      readXmlLayers(b, child, blocking, depth + 1, options);
    }  // image layers, properties, editor settings: nothing to read
  }
}

MapInfo xmlMapInfo(const pugi::xml_node& map, const TiledImportOptions& options) {
  const std::string_view infinite = map.attribute("infinite").value();
  checkOrientation(map.attribute("orientation").value(), infinite == "1" || infinite == "true");
  MapInfo m;
  const auto count = [&](const char* attr) {
    const std::int64_t v = xmlInteger(map, attr, "").value_or(0);
    if (v < 0 || v > 1'000'000'000) fail("", std::string(attr) + " out of range");
    return v;
  };
  m.width = static_cast<std::size_t>(count("width"));
  m.height = static_cast<std::size_t>(count("height"));
  m.tileWidth = static_cast<double>(count("tilewidth"));
  m.tileHeight = static_cast<double>(count("tileheight"));
  checkMapInfo(m, options);
  return m;
}

void readXmlMap(std::string_view text, const std::string& baseDir, const TiledImportOptions& options,
                TiledLoad& out) {
  pugi::xml_document doc;
  const pugi::xml_node map = parseXml(doc, text, "map", "");
  MapBuilder b(xmlMapInfo(map, options), options, out);
  TilesetSource src{options, baseDir, {}, 0};
  for (const pugi::xml_node ts : map.children("tileset")) {
    const auto firstGid = xmlInteger(ts, "firstgid", "tileset");
    const std::string where = "tileset at firstgid " + std::to_string(firstGid.value_or(0));
    std::vector<std::string> chain;
    b.addTileset(firstGid.value_or(0), tilesetFromXml(src, ts, "", chain, where), where);
  }
  readXmlLayers(b, map, false, 0, options);
  b.finish();
}

// ---- JSON (.tmj) --------------------------------------------------------------------------

std::vector<std::uint32_t> gidsFromJsonArray(const Json& data, const MapInfo& m, const std::string& where) {
  if (data.size() != m.cells())
    fail(where, "data holds " + std::to_string(data.size()) + " tiles, not " + std::to_string(m.cells()) +
                    " (" + m.describe() + ")");
  std::vector<std::uint32_t> gids;
  gids.reserve(data.size());
  for (const Json& v : data) {
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > std::numeric_limits<std::uint32_t>::max()) {
      // Only a scalar is shown: dumping a deeply nested array would recurse.
      fail(where, "data: " + (v.is_primitive() ? v.dump().substr(0, 40) : std::string(v.type_name())) +
                      " is not a tile number");
    }
    gids.push_back(v.get<std::uint32_t>());
  }
  return gids;
}

void readJsonTileLayer(MapBuilder& b, const Json& layer, bool inherited, const std::string& where,
                       const TiledImportOptions& options) {
  if (member(layer, "chunks")) fail(where, "data in chunks (an infinite map): turn Infinite off in Tiled");
  b.startTileLayer(jsonInteger(layer, "width", where), jsonInteger(layer, "height", where), where);
  warnOffset(b, jsonNumber(layer, "offsetx", where).value_or(0),
             jsonNumber(layer, "offsety", where).value_or(0), where);
  const bool blocking = inherited || boolProperty(jsonProperties(layer, where), "blocking", false, where);
  const std::string encoding = jsonString(layer, "encoding", where).value_or("csv");
  const std::string compression = jsonString(layer, "compression", where).value_or("");
  const Json* data = member(layer, "data");
  if (!data) fail(where, "no \"data\"");
  if (data->is_array()) {
    b.addTileLayer(gidsFromJsonArray(*data, b.map(), where), blocking, where);
  } else if (data->is_string() && encoding == "base64") {
    b.addTileLayer(gidsFromBase64(data->get_ref<const std::string&>(), compression, b.map(), options, where),
                   blocking, where);
  } else {
    wrongType(where, "data", "an array (or a string with \"encoding\": \"base64\")", *data);
  }
}

std::vector<Pt> jsonPoints(const Json& points, const std::string& where) {
  if (points.size() > kMaxShapePoints)
    fail(where, "more than " + std::to_string(kMaxShapePoints) + " points");
  std::vector<Pt> out;
  for (const Json& p : points) {
    if (!p.is_object()) fail(where, "a point that is not an object {\"x\", \"y\"}");
    const auto x = jsonNumber(p, "x", where), y = jsonNumber(p, "y", where);
    if (!x || !y) fail(where, "a point without \"x\" and \"y\"");
    out.push_back({*x, *y});
  }
  return out;
}

MapObject jsonObject(const Json& j, const std::string& layerWhere) {
  if (!j.is_object()) fail(layerWhere, "an object that is not a JSON object");
  MapObject o;
  o.id = jsonInteger(j, "id", layerWhere).value_or(0);
  o.name = jsonString(j, "name", layerWhere).value_or("");
  const std::string where = layerWhere + ": " + objectLabel(o.id, o.name);
  o.cls = jsonClass(j, where);
  o.x = jsonNumber(j, "x", where).value_or(0);
  o.y = jsonNumber(j, "y", where).value_or(0);
  o.width = jsonNumber(j, "width", where).value_or(0);
  o.height = jsonNumber(j, "height", where).value_or(0);
  o.rotation = jsonNumber(j, "rotation", where).value_or(0);
  o.templated = jsonString(j, "template", where).has_value();
  if (const auto gid = jsonInteger(j, "gid", where)) {
    if (*gid < 0 || *gid > std::numeric_limits<std::uint32_t>::max()) fail(where, "gid out of range");
    o.shape = Shape::kTile;
    o.gid = static_cast<std::uint32_t>(*gid) & kGidMask;
  }
  if (jsonBool(j, "ellipse", where).value_or(false)) o.shape = Shape::kEllipse;
  if (jsonBool(j, "point", where).value_or(false)) o.shape = Shape::kPoint;
  if (member(j, "text")) o.shape = Shape::kText;
  if (const Json* p = jsonArray(j, "polygon", where)) {
    o.shape = Shape::kPolygon;
    o.points = jsonPoints(*p, where);
  } else if (const Json* l = jsonArray(j, "polyline", where)) {
    o.shape = Shape::kPolyline;
    o.points = jsonPoints(*l, where);
  }
  o.props = jsonProperties(j, where);
  return o;
}

void readJsonLayers(MapBuilder& b, const Json& layers, bool inherited, int depth,
                    const TiledImportOptions& options) {
  for (const Json& layer : layers) {
    if (!layer.is_object()) fail("", "a layer that is not a JSON object");
    const std::string where = "layer " + shown(jsonString(layer, "name", "layer").value_or(""));
    const auto type = jsonString(layer, "type", where);
    if (!type) fail(where, "no \"type\"");
    if (*type == "tilelayer") {
      readJsonTileLayer(b, layer, inherited, where, options);
    } else if (*type == "objectgroup") {
      warnOffset(b, jsonNumber(layer, "offsetx", where).value_or(0),
                 jsonNumber(layer, "offsety", where).value_or(0), where);
      if (const Json* objects = jsonArray(layer, "objects", where))
        for (const Json& o : *objects) b.addObject(jsonObject(o, where), where);
    } else if (*type == "group") {
      if (depth >= kMaxGroupDepth) fail(where, "groups nest deeper than " + std::to_string(kMaxGroupDepth));
      const bool blocking = inherited || boolProperty(jsonProperties(layer, where), "blocking", false, where);
      if (const Json* children = jsonArray(layer, "layers", where))
        readJsonLayers(b, *children, blocking, depth + 1, options);
    } else if (*type != "imagelayer") {
      b.warn(where + ": layer type " + shown(*type) + " is not read; ignored");
    }
  }
}

MapInfo jsonMapInfo(const Json& map, const TiledImportOptions& options) {
  if (const auto type = jsonString(map, "type", ""); type && *type != "map")
    fail("", "not a Tiled map (\"type\" is " + shown(*type) + ")");
  checkOrientation(jsonString(map, "orientation", "").value_or(""),
                   jsonBool(map, "infinite", "").value_or(false));
  const auto count = [&](const char* key) {
    const std::int64_t v = jsonInteger(map, key, "").value_or(0);
    if (v < 0 || v > 1'000'000'000) fail("", std::string("\"") + key + "\" out of range");
    return v;
  };
  MapInfo m;
  m.width = static_cast<std::size_t>(count("width"));
  m.height = static_cast<std::size_t>(count("height"));
  m.tileWidth = static_cast<double>(count("tilewidth"));
  m.tileHeight = static_cast<double>(count("tileheight"));
  checkMapInfo(m, options);
  return m;
}

void readJsonMap(std::string_view text, const std::string& baseDir, const TiledImportOptions& options,
                 TiledLoad& out) {
  const Json map = parseJson(text, "");
  if (!map.is_object()) fail("", "not a Tiled map (not a JSON object)");
  MapBuilder b(jsonMapInfo(map, options), options, out);
  TilesetSource src{options, baseDir, {}, 0};
  if (const Json* tilesets = jsonArray(map, "tilesets", "")) {
    for (const Json& ts : *tilesets) {
      const auto firstGid = jsonInteger(ts, "firstgid", "tileset");
      const std::string where = "tileset at firstgid " + std::to_string(firstGid.value_or(0));
      std::vector<std::string> chain;
      b.addTileset(firstGid.value_or(0), tilesetFromJson(src, ts, "", chain, where), where);
    }
  }
  const Json* layers = jsonArray(map, "layers", "");
  if (!layers) fail("", "no \"layers\"");
  readJsonLayers(b, *layers, false, 0, options);
  b.finish();
}

void checkOptions(const TiledImportOptions& options) {
  if (!(std::isfinite(options.metresPerTile) && options.metresPerTile > 0.0f &&
        options.metresPerTile <= 1e4f))
    fail("", "metresPerTile must be above 0 and at most 10000, not " + std::to_string(options.metresPerTile));
}

bool endsWith(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && lower(s.substr(s.size() - tail.size())) == tail;
}

}  // namespace

TiledLoad loadTiledFile(const std::string& path, const TiledImportOptions& options) {
  TiledLoad r;
  const bool xml = endsWith(path, ".tmx");
  if (!xml && !endsWith(path, ".tmj") && !endsWith(path, ".json")) {
    r.error = path + ": not a Tiled map by its name (.tmx, .tmj or .json)";
    return r;
  }
  std::string text;
  if (!readFileCapped(path, options.maxFileBytes, text, r.error)) return r;
  const std::size_t slash = path.rfind('/');
  return loadTiledText(text, xml, path,
                       slash == std::string::npos ? "." : path.substr(0, slash + (slash == 0)), options);
}

TiledLoad loadTiledText(std::string_view text, bool xml, const std::string& displayName,
                        const std::string& baseDir, const TiledImportOptions& options) {
  TiledLoad r;
  try {
    checkOptions(options);
    if (text.size() > options.maxFileBytes)
      fail("", std::to_string(text.size()) + " bytes, more than the limit of " +
                   std::to_string(options.maxFileBytes));
    if (xml) {
      readXmlMap(text, baseDir, options, r);
    } else {
      readJsonMap(text, baseDir, options, r);
    }
  } catch (const ImportError& e) {
    r.parts.Clear();
    r.error = displayName + ": " + e.what();
  } catch (const std::exception& e) {  // out of memory, say: still a message, never a crash
    r.parts.Clear();
    r.error = displayName + ": cannot be read (" + e.what() + ")";
  }
  for (std::string& w : r.warnings) w = displayName + ": " + w;
  return r;
}

}  // namespace steerd::level
