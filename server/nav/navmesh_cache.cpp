#include "nav/navmesh_cache.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

namespace steerd::nav {

namespace {

constexpr char kMagic[4] = {'S', 'T', 'N', 'M'};
// 2: a keyed MAC (crypto_auth) instead of an xxHash, so a file re-sealed by someone else is a miss.
constexpr std::uint32_t kVersion = 2;
constexpr const char* kKeyFileName = "navmesh-cache.key";
// Far above any real mesh (a 2 km world at 0.3 m cells is tens of MB): a file past it is not read.
constexpr std::uintmax_t kMaxCacheBytes = std::uintmax_t{1} << 30;
using CacheKey = std::array<unsigned char, crypto_auth_KEYBYTES>;

// A regular file (after symlinks) of at most `max` bytes, read whole; nothing, with `why`, else.
std::optional<std::vector<unsigned char>> readRegularFile(const std::string& path, std::uintmax_t max,
                                                          std::string& why) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return std::nullopt;  // a plain miss
  if (!std::filesystem::is_regular_file(status)) {
    why = "not a regular file";
    return std::nullopt;
  }
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size > max) {
    why = ec ? "unreadable" : "larger than " + std::to_string(max) + " bytes";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
  if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size))) {
    why = "unreadable";
    return std::nullopt;
  }
  return bytes;
}

// The install's cache key (`dir`/navmesh-cache.key, 32 random bytes, owner-only), made when
// `create` and missing. Files are sealed with it: a cache copied from elsewhere, or edited and
// re-sealed without the key, is never passed to Detour.
std::optional<CacheKey> cacheKey(const std::string& dir, bool create, std::string& why) {
  const std::string path = (std::filesystem::path(dir) / kKeyFileName).string();
  std::string readWhy;
  if (auto bytes = readRegularFile(path, 64, readWhy)) {
    CacheKey key{};
    if (bytes->size() != key.size()) {
      why = path + ": not a cache key";
      return std::nullopt;
    }
    std::copy(bytes->begin(), bytes->end(), key.begin());
    return key;
  }
  if (!readWhy.empty() || !create) {
    why = readWhy.empty() ? path + ": no cache key" : path + ": " + readWhy;
    return std::nullopt;
  }
  if (sodium_init() < 0) {
    why = "libsodium did not start";
    return std::nullopt;
  }
  CacheKey key{};
  randombytes_buf(key.data(), key.size());
  // O_EXCL: two servers starting at once agree on one key (the loser reads the winner's).
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) return cacheKey(dir, false, why);
  const bool ok = ::write(fd, key.data(), key.size()) == static_cast<ssize_t>(key.size());
  ::close(fd);
  if (!ok) {
    why = "cannot write " + path;
    return std::nullopt;
  }
  return key;
}

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
  std::string readWhy;
  const auto read = readRegularFile(path, kMaxCacheBytes, readWhy);
  const auto damaged = [&](const std::string& what) {
    why = path + ": " + what + "; rebuilding";
    return std::nullopt;
  };
  if (!read) return readWhy.empty() ? std::nullopt : damaged(readWhy);
  const std::vector<unsigned char>& file = *read;
  std::string keyWhy;
  const auto sealKey = cacheKey(dir, false, keyWhy);
  if (!sealKey) return damaged(keyWhy);
  if (file.size() < sizeof kMagic + crypto_auth_BYTES) return damaged("too short");
  const std::size_t body = file.size() - crypto_auth_BYTES;
  if (crypto_auth_verify(file.data() + body, file.data(), body, sealKey->data()) != 0)
    return damaged("not sealed with this install's cache key");
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
  if (static_cast<std::uint64_t>(count) >
      static_cast<std::uint64_t>(t.tilesX) * static_cast<std::uint64_t>(t.tilesY))
    return damaged("more tiles than its grid");
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
  std::string keyWhy;
  const auto sealKey = cacheKey(dir, true, keyWhy);
  if (!sealKey) return keyWhy;
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
  std::array<unsigned char, crypto_auth_BYTES> mac{};
  crypto_auth(mac.data(), w.bytes.data(), w.bytes.size(), sealKey->data());
  w.bytes.insert(w.bytes.end(), mac.begin(), mac.end());
  const std::string path = cacheFilePath(dir, key);
  if (const auto status = std::filesystem::symlink_status(path, ec);
      !ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    return path + " is not a regular file (a directory, a link or a device): remove it to cache here";
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
