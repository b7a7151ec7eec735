// What a client is told to do and what it reports: its options, its connection states, what the
// server said in its Accept, and its statistics. Shared by the parts of the client
// (client_protocol.h) and by Client, which adds the socket (client.h).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <asio/ip/udp.hpp>

#include "client/clock_sync.h"
#include "proto/packet.h"

namespace steerd::client {

enum class ClientState : std::uint8_t {
  kIdle,               // constructed, connect() not called
  kAwaitingChallenge,  // sending ConnectRequest
  kAwaitingAccept,     // sending ConnectResponse with the cookie
  kConnected,
  kRefused,       // the server refused: stateMessage() has its message
  kTimedOut,      // no answer to the handshake, or the server went silent
  kDisconnected,  // the server said Disconnect, or we did (disconnect())
  kFailed,        // local error: the socket could not be opened, or the server's Accept is unusable
};
const char* clientStateName(ClientState state);

struct ClientOptions {
  asio::ip::udp::endpoint server;
  std::string token;  // connect token (bytes); may be empty
  double inputRateHz = 30.0;
  std::chrono::duration<double> pingInterval{0.5};
  // From connect() to Accept/Refuse; past it the client is kTimedOut.
  std::chrono::duration<double> connectTimeout{5.0};
  std::chrono::duration<double> resendInterval{0.25};  // handshake packets, until answered
  // Resends of each handshake packet after its first send (ConnectRequest, then ConnectResponse);
  // once spent the client waits out connectTimeout. The default covers 5 s at 250 ms.
  int retries = 20;
  // Connected, but nothing heard from the server for this long: kTimedOut.
  std::chrono::duration<double> serverTimeout{10.0};
  std::size_t baselineRing = 64;  // complete snapshots kept as possible baselines
  std::size_t interpolationCapacity = 32;
  // Render delay, in snapshot intervals (tickRate / sendRate ticks each).
  double interpolationDelaySnapshots = 2.0;
  double maxExtrapolationSeconds = 0.25;  // then the entities hold
  bool interpolate = true;                // false: no interpolation buffer (snapshots still decoded)
  // false: light snapshots (client/snapshot_header.h), for a client that needs no positions (a
  // load tester's players). Of each snapshot part only the tick, part, part count, baseline tick,
  // epoch and Snapshot.own are read; the entity arrays are skipped unparsed. Parts are still
  // checked (framing, seal, protobuf tags and lengths, part counts, baselines held), counted,
  // assembled and acknowledged exactly as when decoding, and onSnapshot fires the same; a part
  // that does not read is a counted drop or malformed part, as when decoding. What differs: the
  // records hold no entities (latestSnapshot() is empty, stats().entityCount 0), the interpolation
  // buffer holds the ticks alone (sample() gives the same kinds, with no entities), and garbage
  // inside an entity array goes unseen. Prediction (intent mode) works as when decoding.
  bool decodeEntities = true;
  // Fetch the static scene (obstacles, walls, paths, navmesh) once connected: part 0, then the
  // missing parts (at most 16 a request), asked again every sceneRetryInterval until all are in.
  bool fetchScene = false;
  std::chrono::duration<double> sceneRetryInterval{0.5};
  // While watchAgent() has an agent, its DebugSelect is repeated this often (the server ends a
  // stream nobody repeats within 3 s).
  std::chrono::duration<double> debugSelectInterval{1.0};
  // Called each time a snapshot becomes whole (every part in), with its tick and the arrival time of
  // its last part, from onDatagram (a Client's: on its strand): a load tester measures snapshot
  // intervals with it.
  std::function<void(std::uint32_t tick, TimePoint arrival)> onSnapshot;
  // No player body (ConnectResponse.no_body): a game-logic client or an observer. Inputs carry
  // only the snapshot acknowledgement; snapshots still come.
  bool noBody = false;
  // Control channel (servers that grant this client the control role, docs/CONTROL.md): commands
  // not acknowledged are sent again this often; at most this many wait (sendCommand refuses more).
  std::chrono::duration<double> commandResendInterval{0.1};
  std::size_t maxUnacknowledgedCommands = 16384;
};

// What the server said in its Accept.
struct ServerInfo {
  std::uint32_t clientId = 0;
  std::uint32_t playerEntity = 0;
  double tickRate = 0.0;                         // ticks per second
  double sendRate = 0.0;                         // snapshots per second
  float minX = 0, minY = 0, maxX = 0, maxY = 0;  // world bounds, m
  std::uint32_t serverTick = 0;                  // at Accept
  float playerMaxSpeed = 0.0f;
  std::vector<std::string> archetypes;  // names, indexed by the snapshots' archetype numbers
  float interestRadius = 0.0f;          // m around the player that snapshots cover; 0: everything
  bool debugAllowed = false;            // the server answers watchAgent() (steerd --allow-debug)
  bool controlAllowed = false;          // the server applies this client's commands (control role)
  // The player archetype's limits, and whether the server moves players from intents (steerd
  // --player-input intent), for predicting the player with server/movement's model.
  struct PlayerLimits {
    float radius = 0, mass = 0, maxSpeed = 0, maxForce = 0, maxTurnRate = 0;
  } playerLimits;
  bool playerIntents = false;
};

// The server's exact state of this client's player and the last input it applied, from the
// newest snapshot that carried it (Snapshot.own: servers in intent mode).
struct OwnPlayerState {
  std::uint32_t tick = 0;       // the snapshot's
  std::uint32_t lastInput = 0;  // PlayerInput.sequence of the last input applied (0: none yet)
  float x = 0, y = 0, vx = 0, vy = 0;
};

// The player as predicted (intent mode): after every input sent, with the corrections eased out.
struct PredictedPlayer {
  float x = 0, y = 0;    // to draw at the time asked for
  float vx = 0, vy = 0;  // predicted
};

struct ClientStats {
  // Prediction (intent mode): each Snapshot.own against what was predicted for that input.
  std::uint64_t predictionSamples = 0;  // reports compared
  double predictionErrorSumM = 0.0;     // their distances, summed (mean = sum / samples)
  double predictionErrorMaxM = 0.0;
  std::uint64_t predictionCorrections = 0;  // reconciles that moved the prediction (> 1 mm)
  // Timing.
  double rttMs = 0.0;        // smoothed
  double rttJitterMs = 0.0;  // smoothed mean deviation of the RTT
  double lossPercent = 0.0;  // gaps in the server's sequence numbers over the last 256
  double kbpsIn = 0.0;       // UDP payload kilobits per second over the last full second
  double kbpsOut = 0.0;
  double snapshotsPerSecond = 0.0;  // complete snapshots, last full second
  double snapshotJitterMs = 0.0;    // RFC 3550 interarrival jitter of complete snapshots
  double interpolationDelayTicks = 0.0;
  double interpolationDelayMs = 0.0;
  double serverTick = 0.0;               // estimated now
  std::size_t bufferDepth = 0;           // snapshots in the interpolation buffer
  std::size_t bufferAhead = 0;           // of which newer than the render tick
  std::size_t entityCount = 0;           // in the newest complete snapshot (0 when light)
  std::uint32_t newestCompleteTick = 0;  // also the ack_snapshot sent
  std::uint32_t inputSequence = 0;       // of the newest input sent

  // Counters since construction.
  std::uint64_t datagramsIn = 0, datagramsOut = 0, bytesIn = 0, bytesOut = 0;
  std::uint64_t sendFailures = 0;  // datagrams the socket did not take
  std::uint64_t receiveErrors = 0;
  std::uint64_t foreignDatagrams = 0;  // from an address other than the server's
  std::array<std::uint64_t, static_cast<std::size_t>(wire::DropReason::kCount)> drops{};  // by reason
  std::uint64_t snapshotParts = 0;  // parts decoded (light: read and taken)
  std::uint64_t snapshotsComplete = 0;
  std::uint64_t partsDuplicate = 0;
  std::uint64_t partsStale = 0;             // older than every baseline held (ring full)
  std::uint64_t partsBaselineMissing = 0;   // coded against a baseline no longer (or never) held
  std::uint64_t partsMalformed = 0;         // decodeSnapshotPart refused it, or part counts disagree
  std::uint64_t partsOtherEpoch = 0;        // a served replay's, from before its latest seek
  std::uint64_t replayStatuses = 0;         // ReplayStatus received (a served replay)
  std::uint64_t replayEpochs = 0;           // times the buffers started afresh (its seeks)
  std::uint64_t snapshotsAbandoned = 0;     // ticks whose parts never all arrived
  std::uint64_t pongsIgnored = 0;           // implausible echoed time
  std::uint64_t sceneRequests = 0;          // SceneRequests sent
  std::uint64_t scenePartsMalformed = 0;    // decodeScenePart refused it, or part counts disagree
  std::uint32_t scenePartsReceived = 0;     // distinct parts held
  std::uint32_t scenePartCount = 0;         // parts the scene has (0: not known yet)
  std::uint64_t sceneChangeRequests = 0;    // SceneChangesRequests sent
  std::uint64_t sceneChangePages = 0;       // pages of scene changes applied
  std::uint64_t sceneChangesMalformed = 0;  // pages refused (applySceneChanges)
  std::uint32_t sceneVersion = 0;           // the scene version held
  std::uint64_t debugInfos = 0;             // DebugInfo received for the watched agent
  std::uint64_t commandsSent = 0;           // commands queued by sendCommand
  std::uint64_t commandsAcknowledged = 0;   // ... and acknowledged by the server
  std::uint64_t controlMessages = 0;        // results and events delivered (each once, in order)
  std::uint64_t controlDuplicates = 0;      // results and events received again (resends)
  std::uint64_t controlUntakenDropped = 0;  // delivered but never taken (65,536 kept), the oldest
  std::array<std::uint64_t, 5> samples{};   // sample() results, by SampleKind
  std::uint64_t decodeFailures() const;     // drops, malformed or baseline-less parts, bad scene parts
};

}  // namespace steerd::client
