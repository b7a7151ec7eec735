#include "record/session_recorder.h"

#include <spdlog/spdlog.h>

#include <cmath>

#include <fmt/format.h>

#include "record/recorded_event.h"

namespace steerd::record {

std::unique_ptr<SessionRecorder> SessionRecorder::start(const std::string& path, Header header,
                                                        std::string& error) {
  auto writer = RecordingWriter::create(path, error);
  if (!writer) return nullptr;
  header.set_format_version(kRecordingFormatVersion);
  header.set_steerd_version(STEERD_VERSION);
  header.set_digest_blocks(kDigestBlocks);
  Frame frame;
  *frame.mutable_header() = std::move(header);
  if (!writer->write(frame) || !writer->flush()) {
    error = writer->error();
    return nullptr;
  }
  const double rate = frame.header().tick_rate();
  const auto everyTicks =
      static_cast<std::uint64_t>(std::isfinite(rate) && rate >= 1.0 ? std::ceil(rate) : 1.0);
  return std::unique_ptr<SessionRecorder>(new SessionRecorder(std::move(writer), everyTicks));
}

void SessionRecorder::fail() {
  if (!error_.empty()) return;
  error_ = writer_->error();
  spdlog::error("recording stopped after {} ticks: {}; the server plays on", ticks_, error_);
}

void SessionRecorder::afterStep(const World& world, const std::vector<net::NetEvent>& events) {
  if (failed()) return;
  Tick& t = *frame_.mutable_tick();
  t.Clear();
  t.set_tick(world.tick());
  for (const net::NetEvent& e : events) {
    if (isRecorded(e)) toRecord(e, *t.add_events());
  }
  if (t.events_size() > kMaxEventsPerTick) {
    error_ = fmt::format("tick {} had {} events, more than a recording holds ({})", world.tick(),
                         t.events_size(), kMaxEventsPerTick);
    spdlog::error("recording stopped after {} ticks: {}; the server plays on", ticks_, error_);
    writer_.reset();
    return;
  }
  if (reloads_.size() > static_cast<std::size_t>(kMaxReloadsPerTick)) {
    error_ = fmt::format("{} reloads before tick {}, more than a recording holds ({})", reloads_.size(),
                         world.tick(), kMaxReloadsPerTick);
    spdlog::error("recording stopped after {} ticks: {}; the server plays on", ticks_, error_);
    writer_.reset();
    return;
  }
  for (std::string& text : reloads_) t.add_reload_text(std::move(text));
  reloads_.clear();
  const StateDigest d = world.stateDigest(kDigestBlocks);
  t.set_state_hash(d.whole);
  for (const std::uint64_t h : d.parts) t.add_part_hashes(static_cast<std::uint32_t>(h));
  for (const std::uint64_t h : d.blocks) t.add_block_hashes(static_cast<std::uint32_t>(h));
  t.set_index_count(d.indexCount);
  for (const auto& [id, h] : d.external)
    t.add_player_hashes(static_cast<std::uint64_t>(id) << 32 | static_cast<std::uint32_t>(h));
  t.set_agent_count(static_cast<std::uint32_t>(world.agentCount()));
  lastHash_ = d.whole;
  ++ticks_;
  if (!writer_->write(frame_)) return fail();
  if (ticks_ % flushEveryTicks_ == 0 && !writer_->flush()) fail();
}

bool SessionRecorder::finish() {
  if (!writer_) return false;
  if (!failed()) {
    Frame end;
    end.mutable_end()->set_ticks(ticks_);
    end.mutable_end()->set_state_hash(lastHash_);
    if (!writer_->write(end)) fail();
  }
  if (!writer_->close()) fail();
  return error_.empty();
}

}  // namespace steerd::record
