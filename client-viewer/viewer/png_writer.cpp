#include "viewer/png_writer.h"

#include <zlib.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace steerd::viewer {

namespace {

constexpr std::array<std::uint8_t, 8> kSignature{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

void putU32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  out.push_back(static_cast<std::uint8_t>(v >> 24));
  out.push_back(static_cast<std::uint8_t>(v >> 16));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
  out.push_back(static_cast<std::uint8_t>(v));
}

// length, type, data, CRC-32 of type + data.
void putChunk(std::vector<std::uint8_t>& out, const char (&type)[5], std::span<const std::uint8_t> data) {
  putU32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t typeAt = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  const uLong crc = crc32(crc32(0L, Z_NULL, 0), out.data() + typeAt, static_cast<uInt>(4 + data.size()));
  putU32(out, static_cast<std::uint32_t>(crc));
}

std::uint8_t paeth(int a, int b, int c) {
  const int p = a + b - c;
  const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return static_cast<std::uint8_t>(a);
  if (pb <= pc) return static_cast<std::uint8_t>(b);
  return static_cast<std::uint8_t>(c);
}

// Filters one row with filter `type` into `out` (row bytes, without the type byte). `prev` is
// the previous row unfiltered, all zeros for the first row. Returns the sum of |signed byte|.
std::uint64_t filterRow(int type, const std::uint8_t* row, const std::uint8_t* prev, std::size_t n, int bpp,
                        std::uint8_t* out) {
  std::uint64_t cost = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int a = i >= static_cast<std::size_t>(bpp) ? row[i - bpp] : 0;
    const int b = prev[i];
    const int c = i >= static_cast<std::size_t>(bpp) ? prev[i - bpp] : 0;
    int predicted = 0;
    switch (type) {
      case 1:
        predicted = a;
        break;
      case 2:
        predicted = b;
        break;
      case 3:
        predicted = (a + b) / 2;
        break;
      case 4:
        predicted = paeth(a, b, c);
        break;
      default:
        break;
    }
    const auto v = static_cast<std::uint8_t>(row[i] - predicted);
    out[i] = v;
    cost += static_cast<std::uint64_t>(std::abs(static_cast<int>(static_cast<std::int8_t>(v))));
  }
  return cost;
}

}  // namespace

std::vector<std::uint8_t> encodePng(const ImageView& image, std::string& error, int compressionLevel) {
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
  if (static_cast<std::uint64_t>(rowBytes + 1) * static_cast<std::uint64_t>(image.height) >
      std::numeric_limits<uLong>::max() / 2) {
    error = "image too large";
    return {};
  }

  // Filtered scanlines: one filter-type byte, then the row.
  std::vector<std::uint8_t> filtered((rowBytes + 1) * static_cast<std::size_t>(image.height));
  std::vector<std::uint8_t> zeros(rowBytes, 0), candidate(rowBytes);
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* row = image.pixels + static_cast<std::size_t>(y) * image.stride;
    const std::uint8_t* prev = y > 0 ? row - image.stride : zeros.data();
    std::uint8_t* out = filtered.data() + static_cast<std::size_t>(y) * (rowBytes + 1);
    std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
    for (int type = 0; type <= 4; ++type) {
      const std::uint64_t cost = filterRow(type, row, prev, rowBytes, image.channels, candidate.data());
      if (cost < best) {
        best = cost;
        out[0] = static_cast<std::uint8_t>(type);
        std::memcpy(out + 1, candidate.data(), rowBytes);
      }
    }
  }

  uLongf zlen = compressBound(static_cast<uLong>(filtered.size()));
  std::vector<std::uint8_t> idat(zlen);
  const int level = compressionLevel < 0 || compressionLevel > 9 ? Z_DEFAULT_COMPRESSION : compressionLevel;
  const int rc = compress2(idat.data(), &zlen, filtered.data(), static_cast<uLong>(filtered.size()), level);
  if (rc != Z_OK) {
    error = std::string("zlib compress2 failed: ") + zError(rc);
    return {};
  }
  idat.resize(zlen);

  std::vector<std::uint8_t> ihdr;
  putU32(ihdr, static_cast<std::uint32_t>(image.width));
  putU32(ihdr, static_cast<std::uint32_t>(image.height));
  ihdr.push_back(8);                            // bit depth
  ihdr.push_back(image.channels == 4 ? 6 : 2);  // colour type: RGBA or RGB
  ihdr.push_back(0);                            // compression: deflate
  ihdr.push_back(0);                            // filter method: adaptive
  ihdr.push_back(0);                            // no interlace

  std::vector<std::uint8_t> png(kSignature.begin(), kSignature.end());
  png.reserve(png.size() + 3 * 12 + ihdr.size() + idat.size());
  putChunk(png, "IHDR", ihdr);
  putChunk(png, "IDAT", idat);
  putChunk(png, "IEND", {});
  return png;
}

std::string writePng(const std::string& path, const ImageView& image, int compressionLevel) {
  std::string error;
  const std::vector<std::uint8_t> png = encodePng(image, error, compressionLevel);
  if (png.empty()) return error;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return "cannot open " + path + ": " + std::strerror(errno);
  const bool written = std::fwrite(png.data(), 1, png.size(), f) == png.size();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) return "cannot write " + path + ": " + std::strerror(errno);
  return {};
}

}  // namespace steerd::viewer
