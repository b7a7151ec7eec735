// libFuzzer target for recording files (issue 38): the bytes go through the loader (framing,
// checks, the protobuf parse) and the replay: the header's checks, the world it builds, each tick's
// events through the session. Any file must replay, or stop with a verdict (differs, damaged,
// refused, unreadable), never crash, hang or take unbounded memory.
//
// The first byte says how the rest becomes a file:
//   bit 0 clear: the rest is the file, as it is (its framing checks are what is fuzzed);
//   bit 0 set:   the rest is frames' payloads, each after a u16 length (little-endian), framed here
//                with good lengths and checksums, so the fuzzer reaches what is inside them; and a
//                tick that differs only by its state hash gets the replayed one and the file is
//                replayed again (up to 8 times), so that later ticks are reached too;
//   bit 1 set:   played by --serve's playback (a watcher joins and seeks to the end) instead of a
//                headless replay.
// Kept to small worlds (a seconds-long world build or navmesh is not what is fuzzed here: the
// scenario fuzzer has those): a file whose header asks for a navmesh, a level, more than 200
// agents or a 1,000-agent cap is skipped, and at most 64 ticks are played.
// Built with clang by scripts/fuzz.sh.
#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "record/recording_file.h"
#include "record/replay.h"
#include "record/replay_playback.h"

namespace {

using namespace steerd;

constexpr int kMaxTicks = 64;

const std::string& filePath() {
  static const std::string path = (std::filesystem::temp_directory_path() /
                                   ("steerd-recording-fuzz-" + std::to_string(::getpid()) + ".rec"))
                                      .string();
  return path;
}

void putU32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// The payloads the input holds, each after its u16 length.
std::vector<std::string> payloadsOf(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at + 2 <= size) {
    std::size_t length = data[at] | static_cast<std::size_t>(data[at + 1]) << 8;
    at += 2;
    length = std::min(length, size - at);
    out.emplace_back(reinterpret_cast<const char*>(data + at), length);
    at += length;
  }
  return out;
}

// Frames with good checks around the payloads.
std::vector<std::uint8_t> framed(const std::vector<std::string>& payloads) {
  std::vector<std::uint8_t> file = record::fileHeaderBytes();
  for (const std::string& p : payloads) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(p.data());
    putU32(file, static_cast<std::uint32_t>(p.size()));
    putU32(file, record::frameLengthCheck(static_cast<std::uint32_t>(p.size())));
    file.insert(file.end(), bytes, bytes + p.size());
    const std::uint64_t sum = record::frameChecksum(bytes, p.size());
    putU32(file, static_cast<std::uint32_t>(sum));
    putU32(file, static_cast<std::uint32_t>(sum >> 32));
  }
  return file;
}

void writeFile(const std::vector<std::uint8_t>& file) {
  std::ofstream out(filePath(), std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));
}

// Replays the file headless, at most kMaxTicks ticks; the verdict.
record::ReplayResult replayHeadless(const record::ReplayOptions& options) {
  record::ReplayResult result;
  auto replayer = record::Replayer::open(options, nullptr, result);
  if (!replayer) {
    if (result.summary.empty()) __builtin_trap();  // refused without saying why
    return result;
  }
  std::int64_t now = 0;
  for (int t = 0; t < kMaxTicks && replayer->next(now += 33'333'333);) ++t;
  return replayer->result();
}

// A tick that differed by its state hash alone, given the replayed hash: true when one was mended.
bool mendHash(const record::ReplayResult& r, std::vector<std::string>& payloads) {
  if (r.outcome != record::ReplayResult::Outcome::kDiffers || r.details.empty()) return false;
  const std::string& line = r.details.front();  // "state hash X recorded, Y replayed"
  const std::size_t at = line.find("recorded, ");
  if (line.rfind("state hash ", 0) != 0 || at == std::string::npos) return false;
  const std::uint64_t replayed = std::strtoull(line.c_str() + at + 10, nullptr, 16);
  for (std::string& p : payloads) {
    record::Frame f;
    if (!f.ParseFromString(p) || !f.has_tick() || f.tick().tick() != r.differingTick) continue;
    f.mutable_tick()->set_state_hash(replayed);
    return f.SerializeToString(&p);
  }
  return false;
}

// Whether the file's header asks for a small world (what this target replays).
bool smallWorld(const std::string& path) {
  std::string error;
  auto reader = record::RecordingReader::open(path, error);
  if (!reader) return true;  // refused at open: cheap
  record::Frame frame;
  if (reader->next(frame) != record::RecordingReader::Status::kFrame || !frame.has_header()) return true;
  const record::Header& h = frame.header();
  if (h.agents() > 200 || h.max_agents() > 1000) return false;
  if (!h.builtin_scenario().empty()) return h.agents() > 0;  // crowd's own size is 10,000
  const std::string& text = h.scenario_text();
  if (text.find("navmesh") != std::string::npos || text.find("level") != std::string::npos) return false;
  std::size_t agents = 0;
  for (std::size_t at = text.find("count"); at != std::string::npos; at = text.find("count", at + 1)) {
    const std::size_t colon = text.find_first_of(":0123456789", at + 5);
    if (colon == std::string::npos) break;
    agents +=
        static_cast<std::size_t>(std::strtoul(text.c_str() + colon + (text[colon] == ':'), nullptr, 10));
    if (agents > 200) return false;
  }
  return true;
}

// --serve's network, played back: one watcher joins, then asks to seek to the end.
class OneWatcher final : public net::SessionTransport {
 public:
  void takeEvents(std::vector<net::NetEvent>& out) override {
    out.clear();
    net::NetEvent e;
    e.clientId = 1;
    if (calls_ == 0) {
      e.kind = net::NetEvent::Kind::kJoin;
      out.push_back(e);
    } else if (calls_ == 3) {
      e.kind = net::NetEvent::Kind::kReplayControl;
      e.replay.set_request(1);
      e.replay.set_action(wire::REPLAY_SEEK);
      e.replay.set_tick(0xffffffffu);
      out.push_back(e);
    }
    ++calls_;
  }
  void send(std::vector<net::OutDatagram>& batch) override { batch.clear(); }
  void publishTick(std::uint32_t, std::int64_t, double) override {}
  void setScene(const std::vector<wire::Scene>&) override {}
  bool debugAllowed() const override { return false; }

 private:
  int calls_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  spdlog::set_level(spdlog::level::off);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  std::vector<std::string> payloads;
  if ((mode & 1) != 0) {
    payloads = payloadsOf(data + 1, size - 1);
    writeFile(framed(payloads));
  } else {
    writeFile(std::vector<std::uint8_t>(data + 1, data + size));
  }
  if (!smallWorld(filePath())) return 0;
  record::ReplayOptions options;
  options.path = filePath();
  options.maxClients = 16;
  record::ReplayResult result = replayHeadless(options);
  for (int pass = 0; (mode & 1) != 0 && pass < 8 && mendHash(result, payloads); ++pass) {
    writeFile(framed(payloads));
    result = replayHeadless(options);
  }
  if ((mode & 2) == 0) return 0;
  OneWatcher live;
  auto playback = record::ReplayPlayback::open(options, live, result, nullptr);
  if (!playback) {
    if (result.summary.empty()) __builtin_trap();
    return 0;
  }
  if (playback->lastTick() < playback->firstTick()) __builtin_trap();
  std::int64_t now = 0;
  for (int i = 0; i < kMaxTicks && playback->ticksPlayed() < static_cast<std::uint64_t>(kMaxTicks); ++i)
    playback->update(now += 20'000'000);
  return 0;
}
