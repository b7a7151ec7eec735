// A small PNG encoder (8-bit RGB or RGBA, no interlace) for screenshots: signature, IHDR, one
// IDAT (zlib stream of the filtered rows), IEND; each chunk with its CRC-32 (zlib's crc32).
// Each row gets the filter (None, Sub, Up, Average or Paeth) with the smallest sum of absolute
// filtered bytes, the heuristic the PNG specification recommends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace steerd::viewer {

struct ImageView {
  int width = 0;
  int height = 0;
  int channels = 3;        // 3: RGB, 4: RGBA
  std::size_t stride = 0;  // bytes from one row to the next (>= width * channels)
  const std::uint8_t* pixels = nullptr;
};

// The PNG file's bytes, or an empty vector (and `error` set) for a bad image or a zlib failure.
std::vector<std::uint8_t> encodePng(const ImageView& image, std::string& error, int compressionLevel = 6);

// Encodes and writes `path`. Returns an empty string on success, else why not.
std::string writePng(const std::string& path, const ImageView& image, int compressionLevel = 6);

}  // namespace steerd::viewer
