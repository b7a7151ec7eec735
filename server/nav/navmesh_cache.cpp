#include "nav/navmesh_cache.h"

#include <array>
#include <cerrno>
#include <cmath>
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

std::string keyFilePath(const std::string& dir) {
  return (std::filesystem::path(dir) / kKeyFileName).string();
}

// The key file's bytes, when it is this user's own regular file that nobody else may read or
// write: whoever reads it can seal cache files this server hands to Detour, and whoever writes it
// can make the server trust theirs. Nothing, with `why` empty, when there is none; nothing, with
// `why` saying what is wrong and what to do, when it is not such a file.
std::optional<std::vector<unsigned char>> readKeyFile(const std::string& path, std::string& why) {
  // O_NOFOLLOW: a link is not the install's own file; O_NONBLOCK: a FIFO does not hang the open.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    why = path +
          (errno == ELOOP ? std::string(": a symbolic link, not a regular file")
                          : ": cannot open: " + std::string(std::strerror(errno))) +
          "; remove it (a new key is made on the next store)";
    return std::nullopt;
  }
  struct stat st {};
  std::vector<unsigned char> bytes(crypto_auth_KEYBYTES + 1);
  ssize_t got = -1;
  if (::fstat(fd, &st) != 0) {
    why = path + ": cannot stat: " + std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    why = path + ": not a regular file; remove it (a new key is made on the next store)";
  } else if (st.st_uid != ::geteuid()) {
    why = path + ": owned by uid " + std::to_string(st.st_uid) + ", not this user (uid " +
          std::to_string(::geteuid()) + "); remove it (a new key is made on the next store) or chown it";
  } else if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    why = path + ": mode " + mode +
          " lets group or others at the navmesh cache key (who reads it can seal cache files this "
          "server trusts); chmod 600 " +
          path;
  } else {
    got = ::read(fd, bytes.data(), bytes.size());
    if (got < 0) why = path + ": cannot read: " + std::strerror(errno);
  }
  ::close(fd);
  if (got < 0) return std::nullopt;
  bytes.resize(static_cast<std::size_t>(got));
  return bytes;
}

// The install's cache key (`dir`/navmesh-cache.key, 32 random bytes, owner-only), made when
// `create` and missing. Files are sealed with it: a cache copied from elsewhere, or edited and
// re-sealed without the key, is never passed to Detour.
std::optional<CacheKey> cacheKey(const std::string& dir, bool create, std::string& why) {
  const std::string path = keyFilePath(dir);
  std::string readWhy;
  if (auto bytes = readKeyFile(path, readWhy)) {
    CacheKey key{};
    if (bytes->size() != key.size()) {
      why = path + ": not a cache key (" + std::to_string(key.size()) +
            " bytes); remove it (a new key is made on the next store)";
      return std::nullopt;
    }
    std::copy(bytes->begin(), bytes->end(), key.begin());
    return key;
  }
  if (!readWhy.empty() || !create) {
    why = readWhy.empty() ? path + ": no cache key" : readWhy;
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

std::string cacheKeyProblem(const std::string& dir) {
  std::string why;
  if (cacheKey(dir, false, why)) return {};
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::symlink_status(keyFilePath(dir), ec)) ? why : std::string{};
}

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
  // The grid as a build makes it (Detour allocates the whole grid up front and packs tile and
  // polygon indices into 22 bits), before anything is sized from it.
  if (t.tilesX < 1 || t.tilesY < 1 ||
      static_cast<double>(t.tilesX) * static_cast<double>(t.tilesY) > kMaxNavTiles || t.maxPolysPerTile < 1 ||
      t.maxPolysPerTile > (1 << 16) || !(t.tileWidth > 0.0f) || !std::isfinite(t.tileWidth) ||
      !std::isfinite(t.origin[0]) || !std::isfinite(t.origin[1]) || !std::isfinite(t.origin[2]))
    return damaged("a tile grid no build makes");
  if (static_cast<std::uint64_t>(count) >
      static_cast<std::uint64_t>(t.tilesX) * static_cast<std::uint64_t>(t.tilesY))
    return damaged("more tiles than its grid");
  for (std::uint32_t i = 0; i < count; ++i) {
    NavMeshTiles::Tile tile;
    std::uint32_t size = 0;
    if (!r.get(tile.x) || !r.get(tile.y) || !r.get(size) || !r.take(size, tile.data))
      return damaged("truncated tile");
    if (tile.x < 0 || tile.x >= t.tilesX || tile.y < 0 || tile.y >= t.tilesY)
      return damaged("a tile outside its grid");
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
