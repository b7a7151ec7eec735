// steerd --record FILE: writes the recording as the server runs (docs/RECORDING.md). Each tick's
// frame (the events that went in, a reload if there was one, the world's digest after the step)
// is written when the tick ends and the file is flushed once a second of ticks, so memory stays
// bounded and a killed server leaves a file that replays up to its last second. A write that
// fails ends the recording (logged once); the server plays on.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "net/server_tick.h"
#include "proto/recording.pb.h"
#include "record/recording_file.h"

namespace steerd::record {

class SessionRecorder final : public net::TickObserver {
 public:
  // Agent blocks in each tick's digest: where a replay differs, to a 32nd of the agents (to the
  // agent, with 32 or fewer).
  static constexpr std::uint32_t kDigestBlocks = 32;

  // Creates `path` and writes `header` (digest_blocks and format_version are filled in); null with
  // `error` set when it cannot.
  static std::unique_ptr<SessionRecorder> start(const std::string& path, Header header, std::string& error);

  void afterStep(const World& world, const std::vector<net::NetEvent>& events) override;
  // The scenario file's text, reloaded (archetypes) between ticks: kept in the next tick's frame.
  void reloaded(std::string text) {
    if (!failed()) reloads_.push_back(std::move(text));
  }
  // Writes the End frame and closes the file; false (error() says why) when the recording failed.
  bool finish();

  bool failed() const { return !writer_ || !writer_->error().empty(); }
  const std::string& error() const { return error_; }
  std::uint64_t ticks() const { return ticks_; }
  std::uint64_t bytes() const { return writer_ ? writer_->bytes() : 0; }

 private:
  SessionRecorder(std::unique_ptr<RecordingWriter> writer, std::uint64_t flushEveryTicks)
      : writer_(std::move(writer)), flushEveryTicks_(flushEveryTicks) {}
  void fail();
  std::unique_ptr<RecordingWriter> writer_;
  std::uint64_t flushEveryTicks_;
  std::uint64_t ticks_ = 0;
  std::uint64_t lastHash_ = 0;
  std::vector<std::string> reloads_;
  std::string error_;
  Frame frame_;
};

}  // namespace steerd::record
