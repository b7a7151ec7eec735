// libFuzzer target for the navmesh cache loader behind its seal: the input is written as the cache
// file and sealed with the install's key (as if the attacker had the key), so the loader's own
// parsing (header, counts, tile sizes, bounds) is what is fuzzed. It must give tiles or a reason,
// never crash or read past the file. Detour's tile parsing is not fuzzed: Detour trusts tile data,
// which is why a file without the install's seal never reaches it.
// Built with clang by scripts/fuzz.sh.
#include <sodium.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "nav/navmesh_cache.h"

namespace {

const std::string& dir() {
  static const std::string d = [] {
    const auto p =
        std::filesystem::temp_directory_path() / ("steerd-navcache-fuzz-" + std::to_string(::getpid()));
    std::filesystem::remove_all(p);
    // A store makes the install's key; the fuzzer then seals every input with it.
    steerd::nav::NavMeshTiles empty;
    (void)steerd::nav::storeCachedTiles(p.string(), 1, empty);
    return p.string();
  }();
  return d;
}

std::array<unsigned char, crypto_auth_KEYBYTES> key() {
  std::array<unsigned char, crypto_auth_KEYBYTES> k{};
  std::ifstream in(dir() + "/navmesh-cache.key", std::ios::binary);
  in.read(reinterpret_cast<char*>(k.data()), static_cast<std::streamsize>(k.size()));
  return k;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto sealKey = key();
  constexpr std::uint64_t kKey = 0x1234;
  // The format's own prefix (magic, version 2, the key) is given, so inputs explore what follows.
  std::vector<unsigned char> file = {'S', 'T', 'N', 'M', 2, 0, 0, 0};
  for (int i = 0; i < 8; ++i) file.push_back(static_cast<unsigned char>(kKey >> (8 * i)));
  file.insert(file.end(), data, data + size);
  std::array<unsigned char, crypto_auth_BYTES> mac{};
  crypto_auth(mac.data(), file.data(), file.size(), sealKey.data());
  file.insert(file.end(), mac.begin(), mac.end());
  {
    std::ofstream out(steerd::nav::cacheFilePath(dir(), kKey), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));
  }
  std::string why;
  const auto tiles = steerd::nav::loadCachedTiles(dir(), kKey, why);
  if (!tiles && why.empty()) __builtin_trap();  // a file that is there is loaded or refused with a reason
  return 0;
}
