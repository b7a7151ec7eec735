#include "viewer/png_writer.h"

#include <png.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>

namespace steerd::viewer {

std::vector<std::uint8_t> encodePng(const ImageView& image, std::string& error) {
  error.clear();
  if (image.width <= 0 || image.height <= 0 || image.pixels == nullptr) {
    error = "empty image";
    return {};
  }
  if (image.channels != 3 && image.channels != 4) {
    error = "unsupported channel count " + std::to_string(image.channels);
    return {};
  }
  const std::size_t rowBytes =
      static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.channels);
  if (image.stride < rowBytes) {
    error = "row stride smaller than a row";
    return {};
  }
  // libpng takes the stride as a png_int_32 count of components (bytes, at 8 bits).
  if (image.stride > static_cast<std::size_t>(std::numeric_limits<png_int_32>::max()) ||
      static_cast<std::uint64_t>(image.stride) * static_cast<std::uint64_t>(image.height) > (1ull << 31)) {
    error = "image too large";
    return {};
  }

  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width);
  png.height = static_cast<png_uint_32>(image.height);
  png.format = image.channels == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  const auto stride = static_cast<png_int_32>(image.stride);
  // First the size, then the bytes (libpng's two-call form of writing to memory).
  png_alloc_size_t size = 0;
  if (png_image_write_to_memory(&png, nullptr, &size, 0, image.pixels, stride, nullptr) == 0) {
    error = std::string("libpng: ") + png.message;
    png_image_free(&png);
    return {};
  }
  std::vector<std::uint8_t> out(size);
  if (png_image_write_to_memory(&png, out.data(), &size, 0, image.pixels, stride, nullptr) == 0) {
    error = std::string("libpng: ") + png.message;
    png_image_free(&png);
    return {};
  }
  out.resize(size);
  return out;
}

std::string writePng(const std::string& path, const ImageView& image) {
  std::string error;
  const std::vector<std::uint8_t> png = encodePng(image, error);
  if (png.empty()) return error;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return "cannot open " + path + ": " + std::strerror(errno);
  const bool written = std::fwrite(png.data(), 1, png.size(), f) == png.size();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) return "cannot write " + path + ": " + std::strerror(errno);
  return {};
}

}  // namespace steerd::viewer
