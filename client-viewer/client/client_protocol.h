// One connection to steerd (docs/PROTOCOL.md) without a socket or a clock: datagrams come in
// through onDatagram() with their arrival time, go out through a sink, and every timed thing
// happens in update(now). It seals and opens datagrams with the session's keys, keeps the
// sequence numbers and acks, and hands each packet to the part that owns its kind:
//
//   handshake.h           connection state, the handshake, refusals, timeouts, Disconnect
//   snapshot_assembler.h  snapshot parts, baselines, whole snapshots and their acknowledgement
//   own_player.h          the player's inputs, prediction and reconciliation (Snapshot.own)
//   scene_fetch.h         the static scene
//   scene_changes_fetch.h what changes in it (doors, obstacles)
//   debug_subscription.h  the debug stream (watched agent, hover, brain states)
//   control_channel.h     the control role's commands, results and events
//   replay_follower.h     a served replay's status and playback controls
//   traffic_meter.h       loss and rates
//
// plus the clock sync (Ping/Pong) and the interpolation buffer. Client (client.h) is this with a
// UDP socket; tests drive it on simulated time. Not thread-safe: one thread at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "client/client_options.h"
#include "client/clock_sync.h"
#include "client/control_channel.h"
#include "client/debug_subscription.h"
#include "client/handshake.h"
#include "client/interpolation.h"
#include "client/own_player.h"
#include "client/packet_outbox.h"
#include "client/replay_follower.h"
#include "client/scene_changes_fetch.h"
#include "client/scene_fetch.h"
#include "client/snapshot_assembler.h"
#include "client/traffic_meter.h"
#include "proto/control.pb.h"
#include "proto/packet.h"
#include "proto/session_seal.h"

namespace steerd::client {

class ClientProtocol : private PacketOutbox {
 public:
  // Where datagrams go (sealed, framed): a socket's send_to, or a test's queue. Returns whether the
  // datagram went out (otherwise counted in sendFailures).
  using DatagramSink = std::function<bool(std::span<const std::uint8_t> datagram)>;

  ClientProtocol(ClientOptions options, DatagramSink sink);
  ClientProtocol(const ClientProtocol&) = delete;
  ClientProtocol& operator=(const ClientProtocol&) = delete;
  ~ClientProtocol() override;

  // A datagram from the server's address, as received, and when it arrived.
  void onDatagram(std::span<const std::uint8_t> datagram, TimePoint arrival);
  // One from any other address (only counted), and a receive that failed.
  void countForeignDatagram(std::size_t bytes);
  void countReceiveError() { ++receiveErrors_; }

  // Starts the handshake: a ConnectRequest now. Only from kIdle; returns false otherwise.
  bool connect(TimePoint now);
  // Timed work; call at least at the input rate.
  void update(TimePoint now);
  // Disconnect{CLIENT_LEFT} three times if connected or connecting; state kDisconnected.
  void disconnect();
  // A local error (the socket could not be opened): kFailed with `why`.
  void fail(std::string why) { handshake_.fail(std::move(why)); }

  // The player's desired position (m) and velocity (m/s), sent with every following input. No
  // input is sent before the first call (inputs carry only ack_snapshot until then).
  void setPlayer(float x, float y, float vx, float vy) { player_.setPosition(x, y, vx, vy); }
  // Intent mode (ServerInfo::playerIntents): the direction the player wants to move in (length
  // <= 1: the share of max speed), sent with every following input, each one input interval
  // long; the server moves the body (server/movement/). No input is sent before the first call.
  void setMove(float mx, float my) { player_.setMove(mx, my); }

  ClientState state() const { return handshake_.state(); }
  const std::string& stateMessage() const { return handshake_.message(); }  // why not connected
  wire::RefuseReason refuseReason() const { return handshake_.refuseReason(); }
  wire::DisconnectReason disconnectReason() const { return handshake_.disconnectReason(); }
  bool connected() const { return handshake_.connected(); }
  const ServerInfo& server() const { return handshake_.server(); }  // valid once connected

  // Snapshots: the newest complete one (null before any; without entities when light,
  // ClientOptions::decodeEntities) and the tick acknowledged with inputs.
  const wire::SnapshotRecord* latestSnapshot() const { return snapshots_.latest(); }
  std::uint32_t ackedTick() const { return snapshots_.newestComplete(); }
  // Snapshot.own, the newest (servers in intent mode); nullopt before one came.
  std::optional<OwnPlayerState> ownPlayer() const { return player_.own(); }
  // The player predicted from the inputs sent (intent mode), with corrections eased out; nullopt
  // before the first Snapshot.own. With fetchScene it collides with the static scene once whole.
  std::optional<PredictedPlayer> predictedPlayer(TimePoint now) const { return player_.predicted(now); }
  // Each prediction error measured since the last call (m; the newest 4,096 kept), appended.
  void takePredictionErrors(std::vector<float>& out) { player_.takeErrors(out); }
  // Why a snapshot or scene part was last refused (empty if never).
  const std::string& lastDecodeError() const { return lastDecodeError_; }

  // The scene as it is now (ClientOptions::fetchScene; empty without it): the static scene's parts
  // received so far, merged (shapes in the order their parts came), with the changes heard of on
  // top (wire::currentScene: live circles, the walls of live boxes and shut doors, and each
  // door's state now).
  const wire::SceneGeometry& scene() const;
  bool sceneComplete() const { return scene_.complete(); }
  // The static scene alone, and the changes alone: the scene version they are at (0: none yet,
  // the static scene as sent), the doors' states and the live obstacles.
  const wire::SceneGeometry& staticScene() const { return scene_.geometry(); }
  std::uint32_t sceneVersion() const { return changes_.version(); }
  const wire::SceneLive& sceneChanges() const { return changes_.live(); }

  // The debug stream (sent only when the server allows it, ServerInfo::debugAllowed; a change goes
  // at the next update()): which agent to hear about (nullopt: none), its newest DebugInfo (null
  // until one came, and after a change).
  void watchAgent(std::optional<std::uint32_t> agent) { debug_.watch(agent); }
  std::optional<std::uint32_t> watchedAgent() const { return debug_.watched(); }
  const wire::DebugInfo* debugInfo() const { return debug_.info(); }
  // The agent under the person's pointer (nullopt: none; 0 is an agent id like any other), with or
  // without a watched agent, answered in DebugInfo.hover.
  void hoverAgent(std::optional<std::uint32_t> agent) { debug_.hover(agent); }
  std::optional<std::uint32_t> hoveredAgent() const { return debug_.hovered(); }
  const wire::DebugHover* hoverInfo() const { return debug_.hoverInfo(); }
  // The brain states of the agents in a circle of the world (the viewer's screen), answered in
  // DebugInfo.states; a moved area goes within 0.25 s when it moved by a quarter of its radius.
  using StatesArea = client::StatesArea;
  void watchBrainStates(std::optional<StatesArea> area) { debug_.watchStates(area); }
  std::optional<StatesArea> brainStatesArea() const { return debug_.statesArea(); }
  const wire::DebugStates* brainStates() const { return debug_.states(); }

  // The control channel (ServerInfo::controlAllowed): a command for the server, sent at the next
  // update() and again until acknowledged; the server applies each once, in order. Returns its
  // sequence (CommandResult.sequence), or 0 when not connected with the role or too many wait.
  std::uint32_t sendCommand(control::Command command);
  std::size_t commandsUnacknowledged() const { return control_.unacknowledged(); }
  // The results and events received since the last call, in the server's order, each once.
  void takeControlMessages(std::vector<wire::ControlMessage>& out) { control_.take(out); }

  // A served replay (steerd --replay --serve, docs/RECORDING.md): where its playback is (nullopt:
  // not a replay server, or no status yet).
  std::optional<wire::ReplayStatus> replayStatus() const { return replay_.status(); }
  // A control for the playback every watcher sees, sent at the next update() and again every
  // 100 ms until the server's status shows it applied (in order, each once; at most 16 wait, the
  // oldest dropped). Nothing is sent to a server that has sent no ReplayStatus.
  void controlReplay(wire::ReplayAction action, float speed = 1.0f, std::uint32_t tick = 0);
  std::size_t replayControlsPending() const { return replay_.pending(); }

  // Clock and rendering.
  const ClockSync& clock() const { return clock_; }
  double serverTickAt(TimePoint now) const { return clock_.serverTickAt(now); }
  double interpolationDelayTicks() const { return replay_.delayTicks(delayTicks_); }
  // The tick to draw: the server's estimated tick less the interpolation delay; in a served replay
  // that stands still (paused, seeking, at its end), exactly the tick it stands at.
  double renderTickAt(TimePoint now) const { return replay_.renderTickAt(clock_, delayTicks_, now); }
  const InterpolationBuffer& interpolation() const { return interp_; }
  // Samples the interpolation buffer at renderTickAt(now) and counts the kind in stats().
  void sample(TimePoint now, Sample& out);

  ClientStats stats(TimePoint now) const;

 protected:
  // Called by connect() before the first packet goes (a Client starts receiving there).
  virtual void willConnect() {}

 private:
  void deliver(const wire::Packet& packet, std::size_t minBytes) override;  // seal and send
  // A packet of the connection (not a stateless handshake answer): acks, loss, liveness. False
  // when its sequence is implausible (a counted drop).
  bool heard(TimePoint now);
  void dispatch(const wire::Packet& packet, TimePoint now);
  void onAccept(const wire::Accept& accept, TimePoint now);
  void onPong(const wire::Pong& pong, TimePoint now);
  void onLightSnapshot(TimePoint now);
  void onSnapshotPart(const SnapshotPartHeader& part, const wire::Snapshot* full, TimePoint now);
  void onReplayStatus(const wire::ReplayStatus& status, TimePoint now);
  void startEpoch(std::uint32_t epoch);
  void toViews(const std::vector<wire::EntityState>& entities);
  void countDrop(wire::DropReason reason) { ++drops_[static_cast<std::size_t>(reason)]; }
  SceneAt wholeScene() const {
    return scene_.complete() ? SceneAt{&scene(), changes_.generation()} : SceneAt{};
  }

  ClientOptions options_;
  DatagramSink sink_;

  // The session: its seal, sequence numbers and acks.
  wire::SessionSeal seal_;
  std::uint64_t sequence_ = 0;  // of the next datagram: the seal's nonce, its low bits the header's
  wire::AckTracker acks_;
  std::vector<std::uint8_t> tx_, sealedTx_, plain_;  // reused buffers
  wire::Decoded decoded_;

  Handshake handshake_;
  SnapshotAssembler snapshots_;
  OwnPlayer player_;
  SceneFetch scene_;
  SceneChangesFetch changes_;
  // scene(), built again when a static part or a change came since (the key is both counts).
  mutable wire::SceneGeometry current_;
  mutable std::uint64_t currentKey_ = ~std::uint64_t{0};
  DebugSubscription debug_;
  ControlChannel control_;
  ReplayFollower replay_;
  ClockSync clock_;
  InterpolationBuffer interp_;
  double delayTicks_ = 0.0;
  std::vector<EntityView> views_;  // reused
  TimePoint nextPingAt_{};

  LossWindow loss_;
  RateWindow rates_;
  std::string lastDecodeError_;
  std::uint64_t datagramsIn_ = 0, datagramsOut_ = 0, bytesIn_ = 0, bytesOut_ = 0, sendFailures_ = 0,
                receiveErrors_ = 0, foreignDatagrams_ = 0, pongsIgnored_ = 0, replayStatuses_ = 0,
                replayEpochs_ = 0;
  std::array<std::uint64_t, static_cast<std::size_t>(wire::DropReason::kCount)> drops_{};
  std::array<std::uint64_t, 5> samples_{};
};

}  // namespace steerd::client
