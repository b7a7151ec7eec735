// Snapshot compression, shared by the server (encode) and the clients (decode).
//
// Both sides keep, per acknowledged snapshot, a SnapshotRecord: every entity the client holds, in
// quantised form, sorted by id. The server codes snapshot n against the newest record the client
// acknowledged (the baseline b): each entity of the baseline that is updated is sent as the
// residual from a prediction both sides compute in integers (position + velocity x ticks elapsed,
// heading + turn rate x ticks elapsed),
// so steady motion costs about one byte; entities new to the client are sent whole. A snapshot
// too big for one datagram is split by id range into parts that each decode on their own.
// docs/PROTOCOL.md, "Snapshots", has the layout and the numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "proto/wire.pb.h"

namespace steerd::wire {

inline constexpr float kPositionUnitsPerMetre = 64.0f;  // resolution 1/64 m (15.6 mm)
inline constexpr int kHeadingSteps = 256;               // resolution 1/256 turn (1.4 degrees)
inline constexpr int kVelocityFraction = 16;            // velocity kept in 1/16 position unit per tick
inline constexpr float kHeightUnitsPerMetre = 32.0f;    // heights: 1/32 m (31 mm), within +-1,024 m

// Velocities the prediction keeps, in 1/16 position unit per tick: 2,047 position units (32 m) a
// tick, 960 m/s at 30 Hz; a step faster than that (a teleport) is predicted at this speed.
inline constexpr std::int32_t kVelocityLimit = 32767;

// One entity as the client holds it: all integers, so both sides compute the same predictions.
// 28 bytes: the encoder walks a record of these for every client and snapshot (the baseline read,
// the next record written), so its size is most of what a snapshot costs in memory traffic.
struct EntityState {
  std::uint32_t id = 0;
  std::uint16_t archetype = 0;  // ArchetypeIndex (a world has at most 65,536)
  std::int16_t z = 0;           // height, 1/32 m (a level with heights; 0 on a flat world)
  std::int32_t x = 0, y = 0;    // position, 1/64 m
  // Velocity, 1/16 position unit per tick, within kVelocityLimit (derived, never sent).
  std::int16_t vx = 0, vy = 0;
  std::uint8_t heading = 0;  // 0..255, 1/256 turn counter-clockwise from +x
  std::int16_t turn = 0;     // heading rate, 1/16 heading step per tick (derived, never sent)
  std::uint32_t tick = 0;    // the tick this state was taken at

  bool operator==(const EntityState&) const = default;
};

static_assert(sizeof(EntityState) == 28);

struct SnapshotRecord {
  std::uint32_t tick = 0;
  std::vector<EntityState> entities;  // sorted by id
  bool operator==(const SnapshotRecord&) const = default;
  const EntityState* find(std::uint32_t id) const;
};

std::int32_t quantizePosition(float metres);
// Inline: the server calls it for every entity in every client's view.
inline float positionMetres(std::int32_t units) { return static_cast<float>(units) / kPositionUnitsPerMetre; }
std::uint32_t quantizeHeading(float hx, float hy);
std::int16_t quantizeHeight(float metres);
inline float heightMetres(std::int16_t units) { return static_cast<float>(units) / kHeightUnitsPerMetre; }
float headingRadians(std::uint32_t heading);

// What the server wants the client to have at `tick`.
struct SnapshotContent {
  SnapshotContent() = default;
  SnapshotContent(std::uint32_t tick_, std::span<const EntityState> updated_,
                  std::span<const std::uint32_t> removed_ = {}, bool heights_ = false)
      : tick(tick_), updated(updated_), removed(removed_), heights(heights_) {}
  std::uint32_t tick = 0;
  // Entities to send now (sorted by id, unique): position, heading, archetype and id are read
  // (and the height, with `heights`).
  std::span<const EntityState> updated;
  // Baseline entities the client must drop (left its area of interest, or gone). Sorted.
  std::span<const std::uint32_t> removed;
  // The world has heights (a sloped level): the height columns are sent. A flat world's
  // snapshots leave them out, and their entities' heights stay 0.
  bool heights = false;
};

// Encodes `content` against `baseline` (null: none, everything is new) into parts whose bodies
// each fit `maxPartBytes` (serialized Packet bytes). Writes the record the client will hold once
// it has every part into `record`.
std::vector<Snapshot> encodeSnapshot(const SnapshotContent& content, const SnapshotRecord* baseline,
                                     std::size_t maxPartBytes, SnapshotRecord& record);
// The same into `parts`, resized to the part count: the messages already there are cleared and
// refilled, so a caller that keeps `parts` from one snapshot to the next reuses their storage.
void encodeSnapshot(const SnapshotContent& content, const SnapshotRecord* baseline, std::size_t maxPartBytes,
                    SnapshotRecord& record, std::vector<Snapshot>& parts);

// Decodes one part. `baseline` must be the record of part.baseline_tick() (null when that is 0).
// Appends the entities of the part's id range, sorted, to `out` (its tick is set). Returns an error
// message on a malformed part (counts that disagree, ids out of range or unsorted...), leaving
// `out` as it was.
std::string decodeSnapshotPart(const Snapshot& part, const SnapshotRecord* baseline, SnapshotRecord& out);

// The bytes of one part as a Packet body (what goes after the datagram header).
std::size_t partBodyBytes(const Snapshot& part);

}  // namespace steerd::wire
