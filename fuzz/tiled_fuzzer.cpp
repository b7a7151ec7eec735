// libFuzzer target for Tiled maps: the first byte picks the format (odd: .tmx XML, even: .tmj
// JSON), the rest is the map's text. Any text must load or give an error naming the file, never
// crash, hang or take unbounded memory: small limits here keep each run short, and zlib, gzip and
// zstd layers are fuzzed through their base64. No directory is given, so external tilesets are
// refused without touching the disk. Built with clang by scripts/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "level/tiled_map.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  steerd::level::TiledImportOptions options;
  options.maxFileBytes = std::size_t{1} << 20;
  options.maxTiles = std::size_t{1} << 16;
  options.maxInflatedBytes = std::size_t{1} << 18;
  options.maxObjects = 4096;
  options.maxTilesetDepth = 2;
  const bool xml = (data[0] & 1) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const steerd::level::TiledLoad r = steerd::level::loadTiledText(text, xml, "fuzz.map", "", options);
  // An error names the file; a success stays within the limits it was given.
  if (!r.error.empty() && r.error.rfind("fuzz.map: ", 0) != 0) std::abort();
  if (r.error.empty() && (r.parts.boxes_size() > 2 * 4096 || r.parts.walls_size() > 4096 * 1024))
    std::abort();
  return 0;
}
