#include "nav/navmesh_cache.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include <unistd.h>

#include <xxhash.h>

namespace steerd::nav {

namespace {

constexpr char kMagic[4] = {'S', 'T', 'N', 'M'};
constexpr std::uint32_t kVersion = 1;

class Writer {
 public:
  template <class T>
  void put(const T& v) {
    const std::size_t at = bytes.size();
    bytes.resize(at + sizeof v);
    std::memcpy(bytes.data() + at, &v, sizeof v);
  }
  std::vector<unsigned char> bytes;
};

class Reader {
 public:
  Reader(const unsigned char* data, std::size_t size) : p_(data), end_(data + size) {}
  template <class T>
  bool get(T& v) {
    if (static_cast<std::size_t>(end_ - p_) < sizeof v) return false;
    std::memcpy(&v, p_, sizeof v);
    p_ += sizeof v;
    return true;
  }
  bool take(std::size_t n, std::vector<unsigned char>& out) {
    if (static_cast<std::size_t>(end_ - p_) < n) return false;
    out.assign(p_, p_ + n);
    p_ += n;
    return true;
  }
  bool atEnd() const { return p_ == end_; }

 private:
  const unsigned char* p_;
  const unsigned char* end_;
};

}  // namespace

std::string cacheFilePath(const std::string& dir, std::uint64_t key) {
  char name[64];
  std::snprintf(name, sizeof name, "navmesh-%016llx.bin", static_cast<unsigned long long>(key));
  return (std::filesystem::path(dir) / name).string();
}

std::optional<NavMeshTiles> loadCachedTiles(const std::string& dir, std::uint64_t key, std::string& why) {
  why.clear();
  const std::string path = cacheFilePath(dir, key);
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  const std::vector<unsigned char> file((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  const auto damaged = [&](const char* what) {
    why = path + ": " + what + "; rebuilding";
    return std::nullopt;
  };
  if (file.size() < sizeof kMagic + sizeof(std::uint64_t)) return damaged("too short");
  const std::size_t body = file.size() - sizeof(std::uint64_t);
  std::uint64_t sum = 0;
  std::memcpy(&sum, file.data() + body, sizeof sum);
  if (XXH3_64bits(file.data(), body) != sum) return damaged("checksum mismatch");
  Reader r(file.data(), body);
  char magic[4];
  std::uint32_t version = 0, count = 0;
  std::uint64_t fileKey = 0;
  NavMeshTiles t;
  if (!r.get(magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0)
    return damaged("not a navmesh cache file");
  if (!r.get(version) || version != kVersion) return damaged("another format version");
  if (!r.get(fileKey) || fileKey != key) return damaged("built from other geometry");
  if (!r.get(t.origin) || !r.get(t.tileWidth) || !r.get(t.tilesX) || !r.get(t.tilesY) ||
      !r.get(t.maxPolysPerTile) || !r.get(count))
    return damaged("truncated header");
  for (std::uint32_t i = 0; i < count; ++i) {
    NavMeshTiles::Tile tile;
    std::uint32_t size = 0;
    if (!r.get(tile.x) || !r.get(tile.y) || !r.get(size) || !r.take(size, tile.data))
      return damaged("truncated tile");
    t.tiles.push_back(std::move(tile));
  }
  if (!r.atEnd()) return damaged("trailing bytes");
  return t;
}

std::string storeCachedTiles(const std::string& dir, std::uint64_t key, const NavMeshTiles& t) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return "cannot create navmesh cache directory " + dir + ": " + ec.message();
  Writer w;
  w.put(kMagic);
  w.put(kVersion);
  w.put(key);
  w.put(t.origin);
  w.put(t.tileWidth);
  w.put(t.tilesX);
  w.put(t.tilesY);
  w.put(t.maxPolysPerTile);
  w.put(static_cast<std::uint32_t>(t.tiles.size()));
  for (const auto& tile : t.tiles) {
    w.put(tile.x);
    w.put(tile.y);
    w.put(static_cast<std::uint32_t>(tile.data.size()));
    w.bytes.insert(w.bytes.end(), tile.data.begin(), tile.data.end());
  }
  w.put(XXH3_64bits(w.bytes.data(), w.bytes.size()));
  const std::string path = cacheFilePath(dir, key);
  const std::string temp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(w.bytes.data()), static_cast<std::streamsize>(w.bytes.size()));
    if (!out) {
      std::filesystem::remove(temp, ec);
      return "cannot write navmesh cache file " + temp;
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    return "cannot rename " + temp + " to " + path;
  }
  return {};
}

}  // namespace steerd::nav
