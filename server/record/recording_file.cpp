#include "record/recording_file.h"

#include <xxhash.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace steerd::record {

namespace {

// Seeds keep a length's check from ever equalling a payload's checksum of the same bytes.
constexpr std::uint64_t kLengthSeed = 0x5354524c454e4754ull;
constexpr std::uint64_t kPayloadSeed = 0x5354525041594c44ull;

void putU32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void putU64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
std::uint32_t getU32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}
std::uint64_t getU64(const std::uint8_t* p) {
  return static_cast<std::uint64_t>(getU32(p)) | static_cast<std::uint64_t>(getU32(p + 4)) << 32;
}
std::uint32_t lengthCheck(const std::uint8_t* lengthBytes) {
  return static_cast<std::uint32_t>(XXH3_64bits_withSeed(lengthBytes, 4, kLengthSeed));
}
std::uint64_t payloadChecksum(const std::uint8_t* p, std::size_t n) {
  return XXH3_64bits_withSeed(p, n, kPayloadSeed);
}

}  // namespace

std::uint64_t frameChecksum(const std::uint8_t* payload, std::size_t size) {
  return payloadChecksum(payload, size);
}

std::uint32_t frameLengthCheck(std::uint32_t length) {
  std::vector<std::uint8_t> bytes;
  putU32(bytes, length);
  return lengthCheck(bytes.data());
}

std::vector<std::uint8_t> fileHeaderBytes() {
  std::vector<std::uint8_t> out(kRecordingMagic, kRecordingMagic + sizeof kRecordingMagic);
  putU32(out, kRecordingFormatVersion);
  return out;
}

bool appendFrame(const Frame& frame, std::vector<std::uint8_t>& out) {
  const std::size_t size = frame.ByteSizeLong();
  if (size > kMaxFrameBytes) return false;
  const std::size_t start = out.size();
  putU32(out, static_cast<std::uint32_t>(size));
  putU32(out, lengthCheck(out.data() + start));
  const std::size_t payload = out.size();
  out.resize(payload + size);
  if (!frame.SerializeToArray(out.data() + payload, static_cast<int>(size))) {
    out.resize(start);
    return false;
  }
  putU64(out, payloadChecksum(out.data() + payload, size));
  return true;
}

std::unique_ptr<RecordingWriter> RecordingWriter::create(const std::string& path, std::string& error) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    error = path + ": cannot create the recording: " + std::strerror(errno);
    return nullptr;
  }
  std::unique_ptr<RecordingWriter> w(new RecordingWriter(f, path));
  const std::vector<std::uint8_t> header = fileHeaderBytes();
  if (std::fwrite(header.data(), 1, header.size(), f) != header.size()) {
    error = path + ": cannot write the recording: " + std::strerror(errno);
    return nullptr;
  }
  w->bytes_ = header.size();
  return w;
}

RecordingWriter::~RecordingWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

bool RecordingWriter::fail(const std::string& what) {
  if (error_.empty()) error_ = path_ + ": " + what;
  return false;
}

bool RecordingWriter::write(const Frame& frame) {
  if (file_ == nullptr || !error_.empty()) return fail("the recording is closed");
  scratch_.clear();
  if (!appendFrame(frame, scratch_)) return fail("a frame larger than the format allows was not written");
  if (std::fwrite(scratch_.data(), 1, scratch_.size(), file_) != scratch_.size())
    return fail(std::string("write failed: ") + std::strerror(errno));
  bytes_ += scratch_.size();
  return true;
}

bool RecordingWriter::flush() {
  if (file_ == nullptr) return false;
  if (std::fflush(file_) != 0) return fail(std::string("flush failed: ") + std::strerror(errno));
  return true;
}

bool RecordingWriter::close() {
  if (file_ == nullptr) return error_.empty();
  const bool flushed = flush();
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!closed) return fail(std::string("close failed: ") + std::strerror(errno));
  return flushed && error_.empty();
}

std::unique_ptr<RecordingReader> RecordingReader::open(const std::string& path, std::string& error) {
  std::error_code ec;
  // A directory, a device or a pipe is not a recording (reading /dev/zero would never end well).
  if (!std::filesystem::is_regular_file(path, ec)) {
    error = path + (std::filesystem::exists(path, ec) ? ": not a regular file" : ": no such file");
    return nullptr;
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    error = path + ": cannot open: " + std::strerror(errno);
    return nullptr;
  }
  std::unique_ptr<RecordingReader> r(new RecordingReader(f, path));
  std::uint8_t header[kFileHeaderBytes];
  std::size_t got = 0;
  if (!r->readExactly(header, sizeof header, got) ||
      std::memcmp(header, kRecordingMagic, sizeof kRecordingMagic) != 0) {
    error = path + ": not a steerd recording (no STEERREC header)";
    return nullptr;
  }
  const std::uint32_t version = getU32(header + 8);
  if (version != kRecordingFormatVersion) {
    error = path + ": recording format version " + std::to_string(version) + "; this steerd reads version " +
            std::to_string(kRecordingFormatVersion);
    return nullptr;
  }
  return r;
}

RecordingReader::~RecordingReader() {
  if (file_ != nullptr) std::fclose(file_);
}

bool RecordingReader::readExactly(void* to, std::size_t n, std::size_t& got) {
  got = std::fread(to, 1, n, file_);
  offset_ += got;
  return got == n;
}

RecordingReader::Status RecordingReader::damaged(const std::string& what) {
  problem_ = path_ + ": damaged at byte " + std::to_string(offset_) + " (frame " + std::to_string(frames_) +
             "): " + what;
  return Status::kDamaged;
}

RecordingReader::Status RecordingReader::next(Frame& out) {
  if (!problem_.empty()) return Status::kDamaged;
  const std::uint64_t start = offset_;
  std::uint8_t head[8];
  std::size_t got = 0;
  if (!readExactly(head, sizeof head, got)) {
    if (std::ferror(file_)) return damaged("read failed");
    if (got == 0) return Status::kEnd;
    problem_ =
        path_ + ": ends inside frame " + std::to_string(frames_) + " (byte " + std::to_string(start) + ")";
    return Status::kCutShort;
  }
  if (lengthCheck(head) != getU32(head + 4)) {
    offset_ = start;
    return damaged("the frame's length fails its check");
  }
  const std::uint32_t length = getU32(head);
  if (length > kMaxFrameBytes) {
    offset_ = start;
    return damaged("a frame of " + std::to_string(length) + " bytes (at most " +
                   std::to_string(kMaxFrameBytes) + " allowed)");
  }
  payload_.resize(length + std::size_t{8});
  if (!readExactly(payload_.data(), payload_.size(), got)) {
    if (std::ferror(file_)) return damaged("read failed");
    problem_ =
        path_ + ": ends inside frame " + std::to_string(frames_) + " (byte " + std::to_string(start) + ")";
    return Status::kCutShort;
  }
  if (payloadChecksum(payload_.data(), length) != getU64(payload_.data() + length)) {
    offset_ = start;
    return damaged("checksum mismatch");
  }
  if (!out.ParseFromArray(payload_.data(), static_cast<int>(length))) {
    offset_ = start;
    return damaged("the frame does not parse");
  }
  ++frames_;
  return Status::kFrame;
}

}  // namespace steerd::record
