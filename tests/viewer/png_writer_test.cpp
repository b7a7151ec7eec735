// The PNG writer (libpng): a small image written, then read back two ways: chunk by chunk by hand
// (the signature, IHDR's fields, every CRC, and the pixels after inflating IDAT and undoing the
// filters: an independent reading of the PNG spec) and by libpng's own reader.
#include <gtest/gtest.h>
#include <png.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "viewer/png_writer.h"

namespace steerd::viewer {
namespace {

struct Chunk {
  std::string type;
  std::vector<std::uint8_t> data;
  bool crcOk = false;
};

std::uint32_t be32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | p[3];
}

// Splits a PNG into chunks; fails the test on a bad signature or a chunk running past the end.
std::vector<Chunk> readChunks(const std::vector<std::uint8_t>& png) {
  static const std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<Chunk> chunks;
  EXPECT_GE(png.size(), 8u);
  if (png.size() < 8 || !std::equal(kSignature, kSignature + 8, png.begin())) {
    ADD_FAILURE() << "bad signature";
    return chunks;
  }
  std::size_t i = 8;
  while (i + 12 <= png.size()) {
    const std::uint32_t n = be32(&png[i]);
    if (i + 12 + n > png.size()) {
      ADD_FAILURE() << "chunk runs past the end";
      return chunks;
    }
    Chunk c;
    c.type.assign(reinterpret_cast<const char*>(&png[i + 4]), 4);
    c.data.assign(png.begin() + static_cast<std::ptrdiff_t>(i + 8),
                  png.begin() + static_cast<std::ptrdiff_t>(i + 8 + n));
    const uLong crc = crc32(crc32(0L, Z_NULL, 0), &png[i + 4], 4 + n);
    c.crcOk = crc == be32(&png[i + 8 + n]);
    chunks.push_back(std::move(c));
    i += 12 + n;
  }
  EXPECT_EQ(i, png.size()) << "trailing bytes";
  return chunks;
}

std::uint8_t paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return static_cast<std::uint8_t>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// Inflates IDAT and undoes each row's filter (an independent reading of the PNG spec).
std::vector<std::uint8_t> decodePixels(const std::vector<std::uint8_t>& idat, int width, int height,
                                       int bpp) {
  const std::size_t rowBytes = static_cast<std::size_t>(width) * bpp;
  std::vector<std::uint8_t> raw((rowBytes + 1) * height);
  uLongf rawLen = raw.size();
  EXPECT_EQ(uncompress(raw.data(), &rawLen, idat.data(), idat.size()), Z_OK);
  EXPECT_EQ(rawLen, raw.size());
  std::vector<std::uint8_t> out(rowBytes * height);
  for (int y = 0; y < height; ++y) {
    const std::uint8_t type = raw[y * (rowBytes + 1)];
    EXPECT_LE(type, 4);
    const std::uint8_t* in = &raw[y * (rowBytes + 1) + 1];
    std::uint8_t* row = &out[y * rowBytes];
    const std::uint8_t* prev = y > 0 ? row - rowBytes : nullptr;
    for (std::size_t x = 0; x < rowBytes; ++x) {
      const int a = x >= static_cast<std::size_t>(bpp) ? row[x - bpp] : 0;
      const int b = prev ? prev[x] : 0;
      const int c = prev && x >= static_cast<std::size_t>(bpp) ? prev[x - bpp] : 0;
      const int pred = type == 1   ? a
                       : type == 2 ? b
                       : type == 3 ? (a + b) / 2
                       : type == 4 ? paeth(a, b, c)
                                   : 0;
      row[x] = static_cast<std::uint8_t>(in[x] + pred);
    }
  }
  return out;
}

std::vector<std::uint8_t> testImage(int width, int height, int channels, std::size_t stride) {
  std::vector<std::uint8_t> px(stride * height, 0xEE);  // padding bytes must not leak into the file
  std::mt19937 rng(42);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      std::uint8_t* p = &px[y * stride + x * channels];
      p[0] = static_cast<std::uint8_t>(x * 255 / std::max(width - 1, 1));  // gradients (Sub/Up pay off)
      p[1] = static_cast<std::uint8_t>(y * 255 / std::max(height - 1, 1));
      p[2] = static_cast<std::uint8_t>(rng());  // noise (filter None pays off)
      if (channels == 4) p[3] = static_cast<std::uint8_t>((x + y) % 3 == 0 ? 255 : 128);
    }
  }
  return px;
}

void expectRoundTrip(int width, int height, int channels, std::size_t stride) {
  const std::vector<std::uint8_t> px = testImage(width, height, channels, stride);
  std::string error;
  const std::vector<std::uint8_t> png = encodePng({width, height, channels, stride, px.data()}, error);
  ASSERT_TRUE(error.empty()) << error;
  const std::vector<Chunk> chunks = readChunks(png);
  // IHDR first, IEND last, the image data in one or more IDATs between; ancillary chunks (sRGB)
  // are allowed, nothing else critical.
  ASSERT_GE(chunks.size(), 3u);
  EXPECT_EQ(chunks.front().type, "IHDR");
  EXPECT_EQ(chunks.back().type, "IEND");
  std::vector<std::uint8_t> idat;
  for (const Chunk& c : chunks) {
    EXPECT_TRUE(c.crcOk) << c.type;
    if (c.type == "IDAT") idat.insert(idat.end(), c.data.begin(), c.data.end());
    const bool critical = c.type[0] >= 'A' && c.type[0] <= 'Z';
    if (critical) {
      EXPECT_TRUE(c.type == "IHDR" || c.type == "IDAT" || c.type == "IEND") << c.type;
    }
  }
  ASSERT_FALSE(idat.empty());
  ASSERT_EQ(chunks[0].data.size(), 13u);
  EXPECT_EQ(be32(&chunks[0].data[0]), static_cast<std::uint32_t>(width));
  EXPECT_EQ(be32(&chunks[0].data[4]), static_cast<std::uint32_t>(height));
  EXPECT_EQ(chunks[0].data[8], 8);                      // bit depth
  EXPECT_EQ(chunks[0].data[9], channels == 4 ? 6 : 2);  // colour type
  EXPECT_EQ(chunks[0].data[10], 0);                     // deflate
  EXPECT_EQ(chunks[0].data[11], 0);                     // adaptive filtering
  EXPECT_EQ(chunks[0].data[12], 0);                     // no interlace
  EXPECT_TRUE(chunks.back().data.empty());

  const std::vector<std::uint8_t> decoded = decodePixels(idat, width, height, channels);
  const std::size_t rowBytes = static_cast<std::size_t>(width) * channels;
  for (int y = 0; y < height; ++y) {
    ASSERT_TRUE(std::equal(decoded.begin() + y * rowBytes, decoded.begin() + (y + 1) * rowBytes,
                           px.begin() + y * stride))
        << "row " << y;
  }
}

// libpng's reader gets back the very pixels (and reads the file as the format given).
void expectLibpngReadsItBack(int width, int height, int channels, std::size_t stride) {
  const std::vector<std::uint8_t> px = testImage(width, height, channels, stride);
  std::string error;
  const std::vector<std::uint8_t> file = encodePng({width, height, channels, stride, px.data()}, error);
  ASSERT_TRUE(error.empty()) << error;
  png_image read{};
  read.version = PNG_IMAGE_VERSION;
  ASSERT_NE(png_image_begin_read_from_memory(&read, file.data(), file.size()), 0) << read.message;
  EXPECT_EQ(read.width, static_cast<png_uint_32>(width));
  EXPECT_EQ(read.height, static_cast<png_uint_32>(height));
  read.format = channels == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  std::vector<std::uint8_t> back(PNG_IMAGE_SIZE(read));
  ASSERT_NE(png_image_finish_read(&read, nullptr, back.data(), 0, nullptr), 0) << read.message;
  const std::size_t rowBytes = static_cast<std::size_t>(width) * channels;
  for (int y = 0; y < height; ++y) {
    ASSERT_TRUE(
        std::equal(back.begin() + y * rowBytes, back.begin() + (y + 1) * rowBytes, px.begin() + y * stride))
        << "row " << y;
  }
}

TEST(PngWriter, LibpngReadsBackTheSamePixels) {
  expectLibpngReadsItBack(13, 7, 3, 13 * 3);
  expectLibpngReadsItBack(9, 11, 4, 9 * 4 + 5);
  expectLibpngReadsItBack(640, 480, 3, 640 * 3);  // several IDAT chunks
}

TEST(PngWriter, RgbImageRoundTripsThroughZlibAndTheFilters) { expectRoundTrip(13, 7, 3, 13 * 3); }

TEST(PngWriter, RgbaImageWithPaddedRowsRoundTrips) { expectRoundTrip(9, 11, 4, 9 * 4 + 5); }

TEST(PngWriter, LargeImageInSeveralIdatChunksRoundTrips) { expectRoundTrip(640, 480, 3, 640 * 3); }

TEST(PngWriter, OnePixelImageRoundTrips) { expectRoundTrip(1, 1, 3, 3); }

TEST(PngWriter, FlatImageCompressesWell) {
  std::vector<std::uint8_t> px(200 * 100 * 3, 40);
  std::string error;
  const auto png = encodePng({200, 100, 3, 600, px.data()}, error);
  ASSERT_TRUE(error.empty());
  EXPECT_LT(png.size(), 1000u);  // 60 KB of one colour
}

TEST(PngWriter, RefusesBadImagesWithAReason) {
  std::vector<std::uint8_t> px(64, 0);
  std::string error;
  EXPECT_TRUE(encodePng({0, 4, 3, 12, px.data()}, error).empty());
  EXPECT_FALSE(error.empty());
  EXPECT_TRUE(encodePng({4, 4, 3, 12, nullptr}, error).empty());
  EXPECT_FALSE(error.empty());
  EXPECT_TRUE(encodePng({4, 4, 2, 8, px.data()}, error).empty());
  EXPECT_NE(error.find("channel"), std::string::npos);
  EXPECT_TRUE(encodePng({4, 4, 3, 11, px.data()}, error).empty());
  EXPECT_NE(error.find("stride"), std::string::npos);
}

TEST(PngWriter, WritesTheFileAndReportsUnwritablePaths) {
  const std::vector<std::uint8_t> px = testImage(5, 4, 3, 15);
  std::string name = "steer_viewer_png_test_";
  name += std::to_string(::getpid());
  name += ".png";
  const auto path = std::filesystem::temp_directory_path() / name;
  ASSERT_EQ(writePng(path.string(), {5, 4, 3, 15, px.data()}), "");
  std::ifstream in(path, std::ios::binary);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::string error;
  EXPECT_EQ(bytes, encodePng({5, 4, 3, 15, px.data()}, error));
  std::filesystem::remove(path);

  const std::string bad = writePng("/nonexistent-dir/x.png", {5, 4, 3, 15, px.data()});
  EXPECT_NE(bad.find("/nonexistent-dir/x.png"), std::string::npos) << bad;
}

}  // namespace
}  // namespace steerd::viewer
