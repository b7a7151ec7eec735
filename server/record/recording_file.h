// The recording file's framing (docs/RECORDING.md): an 8-byte magic and a format version, then
// frames, each a serialized record::Frame between a checked length and a checksum:
//   u32 length | u32 length check | payload (length bytes) | u64 payload checksum   (little-endian)
// The length has its own check so that a damaged length is reported as damage, not mistaken for a
// file cut short. A file that ends inside a frame was cut short (a killed server): every whole
// frame before that still reads. Nothing is trusted before its checks pass, and no frame may be
// larger than kMaxFrameBytes (nor hold more than kMaxEventsPerTick events), so a hostile file's
// cost is bounded: one frame's bytes, and what protobuf makes of them (a few hundred MB at worst).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "proto/recording.pb.h"

namespace steerd::record {

inline constexpr std::uint32_t kRecordingFormatVersion = 1;
inline constexpr char kRecordingMagic[8] = {'S', 'T', 'E', 'E', 'R', 'R', 'E', 'C'};
inline constexpr std::size_t kFileHeaderBytes = 12;     // magic + version
inline constexpr std::size_t kFrameOverheadBytes = 16;  // length, its check, the checksum
inline constexpr std::uint32_t kMaxFrameBytes = 4u << 20;
// A tick with more events than this is not recorded (the recording stops) nor replayed (damage).
inline constexpr int kMaxEventsPerTick = 262'144;
// Reloads of the scenario before one tick (SIGHUP or --watch: one now and then); each is a
// scenario load in the replay.
inline constexpr int kMaxReloadsPerTick = 8;
// --max-clients' range: a header stating more is refused.
inline constexpr std::uint64_t kMaxClientsLimit = 100'000;

// A frame length's check: the low 32 bits of XXH3-64 of the length's 4 bytes, seeded.
std::uint32_t frameLengthCheck(std::uint32_t length);
// A frame payload's checksum: XXH3-64, seeded.
std::uint64_t frameChecksum(const std::uint8_t* payload, std::size_t size);
// Appends one frame's bytes to `out`; false (nothing appended) when it is larger than kMaxFrameBytes.
bool appendFrame(const Frame& frame, std::vector<std::uint8_t>& out);
// The file's first kFileHeaderBytes.
std::vector<std::uint8_t> fileHeaderBytes();

// Writes a recording as it happens, buffered; flush() hands what is buffered to the system, so a
// kill -9 after it loses nothing before it.
class RecordingWriter {
 public:
  // Creates (or replaces) `path` and writes the file header; null with `error` set when it cannot.
  static std::unique_ptr<RecordingWriter> create(const std::string& path, std::string& error);
  ~RecordingWriter();
  RecordingWriter(const RecordingWriter&) = delete;
  RecordingWriter& operator=(const RecordingWriter&) = delete;

  bool write(const Frame& frame);  // false (error() says why) when it could not
  bool flush();
  bool close();
  const std::string& error() const { return error_; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  RecordingWriter(std::FILE* file, std::string path) : file_(file), path_(std::move(path)) {}
  bool fail(const std::string& what);
  std::FILE* file_;
  std::string path_;
  std::string error_;
  std::uint64_t bytes_ = 0;
  std::vector<std::uint8_t> scratch_;
};

class RecordingReader {
 public:
  enum class Status {
    kFrame,     // `out` holds the next frame
    kEnd,       // the file ends after the last whole frame
    kCutShort,  // the file ends inside a frame (a killed writer); everything before it was read
    kDamaged,   // a check failed or a frame does not parse: problem() says where
  };
  // Opens and checks the file header; null with `error` set when it is not a recording this
  // build reads (no such file, a directory, another format or version).
  static std::unique_ptr<RecordingReader> open(const std::string& path, std::string& error);
  ~RecordingReader();
  RecordingReader(const RecordingReader&) = delete;
  RecordingReader& operator=(const RecordingReader&) = delete;

  Status next(Frame& out);
  const std::string& problem() const { return problem_; }
  std::uint64_t offset() const { return offset_; }  // bytes read so far (the next frame's start)
  std::uint64_t frames() const { return frames_; }

 private:
  RecordingReader(std::FILE* file, std::string path) : file_(file), path_(std::move(path)) {}
  // Reads exactly n bytes; false when the file ends first (got says how many came).
  bool readExactly(void* to, std::size_t n, std::size_t& got);
  Status damaged(const std::string& what);
  std::FILE* file_;
  std::string path_;
  std::string problem_;
  std::uint64_t offset_ = 0;
  std::uint64_t frames_ = 0;
  std::vector<std::uint8_t> payload_;
};

}  // namespace steerd::record
