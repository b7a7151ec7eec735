// The recording file's framing (server/record/recording_file.h): frames read back as written; every
// changed byte is caught; a file cut anywhere reads as its whole frames, then "cut short"; hostile
// files are refused with a clear error and bounded memory.
#include "record/recording_file.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <tuple>

namespace steerd::record {
namespace {

namespace fs = std::filesystem;

std::string tempPath(const std::string& name) {
  return (fs::temp_directory_path() / ("steerd_recording_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::vector<std::uint8_t> readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void writeAll(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::vector<Frame> sampleFrames() {
  std::vector<Frame> frames(4);
  frames[0].mutable_header()->set_scenario_name("default");
  frames[0].mutable_header()->set_seed(7);
  for (int t = 1; t <= 2; ++t) {
    Tick* tick = frames[static_cast<std::size_t>(t)].mutable_tick();
    tick->set_tick(static_cast<std::uint64_t>(t));
    tick->set_state_hash(0x1234567890abcdefull + static_cast<std::uint64_t>(t));
    Event* e = tick->add_events();
    e->set_kind(Event::INPUT);
    e->set_client_id(3);
    wire::PlayerInput* in = e->mutable_input()->add_inputs();
    in->set_sequence(static_cast<std::uint32_t>(t));
    in->set_move_x(0.5f);
  }
  frames[3].mutable_end()->set_ticks(2);
  return frames;
}

// Writes the sample; returns its path.
std::string writeSample(const std::string& name) {
  const std::string path = tempPath(name);
  std::string error;
  auto w = RecordingWriter::create(path, error);
  EXPECT_TRUE(w) << error;
  for (const Frame& f : sampleFrames()) EXPECT_TRUE(w->write(f));
  EXPECT_TRUE(w->close()) << w->error();
  return path;
}

// Reads every frame: the frames and the status that ended the reading.
std::pair<std::vector<Frame>, RecordingReader::Status> readFrames(const std::string& path,
                                                                  std::string& error) {
  std::vector<Frame> frames;
  auto r = RecordingReader::open(path, error);
  if (!r) return {frames, RecordingReader::Status::kDamaged};
  Frame f;
  RecordingReader::Status s;
  while ((s = r->next(f)) == RecordingReader::Status::kFrame) frames.push_back(f);
  error = r->problem();
  return {frames, s};
}

bool sameFrame(const Frame& a, const Frame& b) { return a.SerializeAsString() == b.SerializeAsString(); }

TEST(RecordingFile, FramesReadBackAsWritten) {
  const std::string path = writeSample("roundtrip");
  std::string error;
  const auto [frames, status] = readFrames(path, error);
  EXPECT_EQ(status, RecordingReader::Status::kEnd) << error;
  const auto expected = sampleFrames();
  ASSERT_EQ(frames.size(), expected.size());
  for (std::size_t i = 0; i < frames.size(); ++i) EXPECT_TRUE(sameFrame(frames[i], expected[i])) << i;
  fs::remove(path);
}

TEST(RecordingFile, EveryChangedByteIsCaught) {
  const std::string path = writeSample("flip");
  const std::vector<std::uint8_t> good = readAll(path);
  const auto expected = sampleFrames();
  const std::string bad = tempPath("flip_bad");
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::vector<std::uint8_t> bytes = good;
    bytes[i] ^= 0x5a;
    writeAll(bad, bytes);
    std::string error;
    const auto [frames, status] = readFrames(bad, error);
    // Refused at open (the file header), or damaged at the frame holding the byte: never read
    // to its end as if nothing had changed, and every frame read before is an untouched one.
    EXPECT_EQ(status, RecordingReader::Status::kDamaged) << "byte " << i;
    EXPECT_FALSE(error.empty()) << "byte " << i;
    for (std::size_t k = 0; k < frames.size(); ++k)
      EXPECT_TRUE(sameFrame(frames[k], expected[k])) << "byte " << i;
  }
  fs::remove(bad);
  fs::remove(path);
}

TEST(RecordingFile, AFileCutAnywhereReadsItsWholeFramesThenSaysCutShort) {
  const std::string path = writeSample("cut");
  const std::vector<std::uint8_t> good = readAll(path);
  const auto expected = sampleFrames();
  const std::string cut = tempPath("cut_short");
  for (std::size_t n = kFileHeaderBytes; n < good.size(); ++n) {
    writeAll(cut, std::vector<std::uint8_t>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)));
    std::string error;
    const auto [frames, status] = readFrames(cut, error);
    EXPECT_TRUE(status == RecordingReader::Status::kCutShort || status == RecordingReader::Status::kEnd)
        << "cut at " << n << ": " << error;
    EXPECT_LT(frames.size(), expected.size());
    for (std::size_t k = 0; k < frames.size(); ++k) EXPECT_TRUE(sameFrame(frames[k], expected[k]));
  }
  fs::remove(cut);
  fs::remove(path);
}

TEST(RecordingFile, HostileFilesAreRefusedWithAClearError) {
  std::string error;
  EXPECT_FALSE(RecordingReader::open(tempPath("missing"), error));
  EXPECT_NE(error.find("no such file"), std::string::npos) << error;
  EXPECT_FALSE(RecordingReader::open(fs::temp_directory_path().string(), error));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  EXPECT_FALSE(RecordingReader::open("/dev/zero", error));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;

  const std::string path = tempPath("hostile");
  writeAll(path, {'h', 'e', 'l', 'l', 'o'});
  EXPECT_FALSE(RecordingReader::open(path, error));
  EXPECT_NE(error.find("not a steerd recording"), std::string::npos) << error;

  std::vector<std::uint8_t> other = fileHeaderBytes();
  other[8] = 99;  // a version this build does not read
  writeAll(path, other);
  EXPECT_FALSE(RecordingReader::open(path, error));
  EXPECT_NE(error.find("version 99"), std::string::npos) << error;
  fs::remove(path);
}

TEST(RecordingFile, AHugeFrameLengthIsDamageNotAnAllocation) {
  Frame big;
  big.mutable_tick()->add_reload_text(std::string(kMaxFrameBytes + 1, 'x'));
  std::vector<std::uint8_t> bytes;
  EXPECT_FALSE(appendFrame(big, bytes));  // the writer refuses one
  EXPECT_TRUE(bytes.empty());

  const auto putU32 = [](std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  };
  const std::string path = tempPath("huge");
  std::string error;
  // A length that passes its check but is over the limit (a file built to exhaust memory).
  std::vector<std::uint8_t> file = fileHeaderBytes();
  putU32(file, 0xfffffff0u);
  putU32(file, frameLengthCheck(0xfffffff0u));
  writeAll(path, file);
  auto [frames, status] = readFrames(path, error);
  EXPECT_EQ(status, RecordingReader::Status::kDamaged);
  EXPECT_NE(error.find("at most"), std::string::npos) << error;
  // A length whose check fails is damage, even where the file would hold it.
  file = fileHeaderBytes();
  putU32(file, 4);
  putU32(file, frameLengthCheck(4) ^ 1u);
  file.resize(file.size() + 12, 0);
  writeAll(path, file);
  std::tie(frames, status) = readFrames(path, error);
  EXPECT_EQ(status, RecordingReader::Status::kDamaged);
  EXPECT_NE(error.find("length fails its check"), std::string::npos) << error;
  // A frame whose checks pass but whose bytes are not a Frame (a truncated varint).
  file = fileHeaderBytes();
  const std::vector<std::uint8_t> junk = {0x0a, 0xff, 0xff, 0xff};
  putU32(file, 4);
  putU32(file, frameLengthCheck(4));
  file.insert(file.end(), junk.begin(), junk.end());
  const std::uint64_t sum = frameChecksum(junk.data(), junk.size());
  putU32(file, static_cast<std::uint32_t>(sum));
  putU32(file, static_cast<std::uint32_t>(sum >> 32));
  writeAll(path, file);
  std::tie(frames, status) = readFrames(path, error);
  EXPECT_EQ(status, RecordingReader::Status::kDamaged);
  EXPECT_NE(error.find("does not parse"), std::string::npos) << error;
  fs::remove(path);
}

TEST(RecordingFile, AWriterThatCannotCreateItsFileSaysWhy) {
  std::string error;
  EXPECT_FALSE(RecordingWriter::create(fs::temp_directory_path().string(), error));
  EXPECT_NE(error.find("cannot create"), std::string::npos) << error;
  EXPECT_FALSE(RecordingWriter::create("/nonexistent-dir/x.rec", error));
  EXPECT_NE(error.find("cannot create"), std::string::npos) << error;
}

}  // namespace
}  // namespace steerd::record
