// Screenshots as PNG files (8-bit RGB or RGBA), written by libpng's simplified API: libpng picks
// each row's filter and compresses; the file is tagged sRGB (what the renderer's colours are).
#pragma once

#include <cstddef>
#include <cstdint>
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

// The PNG file's bytes, or an empty vector (and `error` set) for a bad image or a libpng failure.
std::vector<std::uint8_t> encodePng(const ImageView& image, std::string& error);

// Encodes and writes `path`. Returns an empty string on success, else why not.
std::string writePng(const std::string& path, const ImageView& image);

}  // namespace steerd::viewer
