// The simulation thread's side of the network: turns joins into player bodies and leaves into
// despawns, applies validated inputs before each tick, and after each tick sends snapshots to the
// clients that are due one, and DebugInfo to the clients watching an agent (--allow-debug). It owns the
// per-client views; the network thread owns the sockets.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "control/control.h"
#include "movement/player_motion.h"
#include "net/client_view.h"
#include "net/control_link.h"
#include "net/debug_watch.h"
#include "net/input_validation.h"
#include "net/server_metrics.h"
#include "net/session_transport.h"
#include "net/snapshot_stage.h"
#include "world/world.h"

namespace steerd::net {

// How a client moves its player (steerd --player-input).
enum class PlayerInputMode : std::uint8_t {
  kPosition,  // the client says where its player is; the server validates (bounds, reach, the scene)
  kIntent,    // the client says where it wants to go; the server moves the body (server/movement/)
};

struct SessionConfig {
  double tickRate = 30.0;                // Hz
  double sendRate = 20.0;                // snapshots per second
  double clientKbps = 256.0;             // snapshot byte budget per client
  float interestRadius = 0.0f;           // m; 0: whole world
  control::ControllerConfig controller;  // the control API's limits (agent cap)
  ControlLimits controlLimits;           // each control client's channel
  PlayerInputMode playerInput = PlayerInputMode::kPosition;
  // Threads that build snapshots off the tick, while the next one steps (net/snapshot_stage.h);
  // 0: within the tick, on the world's pool (tests and replays: the same bytes at the same tick).
  unsigned snapshotThreads = 0;
};

class GameSession {
 public:
  GameSession(World& world, SessionTransport& endpoint, ServerMetrics& metrics, const SessionConfig& config);
  ~GameSession();  // after the snapshot round in flight
  GameSession(const GameSession&) = delete;
  GameSession& operator=(const GameSession&) = delete;

  // Before a tick: joins, leaves and inputs the network thread handed over.
  void beforeTick();
  // After a tick: snapshots to every client when one is due. With snapshot threads the round is
  // built while the next tick steps; when the last one is still being built, none is started and
  // the clients stay due.
  void afterTick();
  // Blocks until the snapshot round in flight (if any) has been sent.
  void waitForSnapshots();
  // With snapshot threads: called on a snapshot thread as each round has been sent. A real-time
  // loop posts sendDueSnapshots() to its own thread, so that when a round took longer than a tick
  // the next starts at once, not at the next tick. Set (and cleared) with no round in flight.
  void setRoundDoneHandler(std::function<void()> handler);
  // Starts a round for the clients due (on the simulation thread, between ticks too): none when
  // one is in flight, nobody is due, or a round of this tick went out already.
  void sendDueSnapshots();
  // Between ticks, while a served replay is paused: joins, leaves, acks and debug selects of
  // clients without a body, and the current tick's snapshot to each client `wantsSnapshot` names
  // that has not acknowledged it. Never changes the world: anything that would (a body, moves,
  // commands) waits for the next beforeTick().
  void serveHeld(const std::function<bool(std::uint32_t clientId)>& wantsSnapshot);

  std::size_t clientCount() const { return clients_.size(); }
  bool hasClient(std::uint32_t clientId) const { return clients_.count(clientId) != 0; }
  // What the last beforeTick() took from the network, in the order it was applied (a recording
  // keeps it: server/record/).
  const std::vector<NetEvent>& takenEvents() const { return events_; }
  // The control API the session's control clients drive; an embedding process may use it too.
  control::Controller& controller() { return controller_; }
  // A served replay's seek: snapshots say `epoch` from now on (Snapshot.epoch), acks of another
  // epoch's snapshots are ignored, and every client's next snapshot is whole.
  void setSnapshotEpoch(std::uint32_t epoch);
  std::uint32_t snapshotEpoch() const { return epoch_; }

  // Accept.player_entity of a client without a body (ConnectResponse.no_body).
  static constexpr std::uint32_t kNoBody = 0xffffffffu;

  // Intent inputs: the longest step one may ask for; how many may wait for their turn; how long a
  // missing one is waited for before it is passed over.
  static constexpr float kMaxIntentDt = 0.1f;
  static constexpr std::size_t kMaxPendingIntents = 32;
  static constexpr std::uint64_t kIntentGapWaitTicks = 3;
  // Both modes: how much time a client may bank beyond the tick at hand. Intent inputs' dt, and
  // position inputs' moves at max speed, may add up to the time that passed plus this (inputs
  // come in bursts; a client late after a loss catches up), never more.
  static constexpr double kMaxBankSeconds = 0.25;
  // What Snapshot.own takes at most (tag, length, five fields), left free in every part.
  static constexpr std::size_t kOwnPlayerBytes = 32;
  // What Snapshot.epoch takes at most (a two-byte tag, a five-byte varint).
  static constexpr std::size_t kEpochBytes = 7;
  // What Snapshot.scene_version takes at most (as the epoch).
  static constexpr std::size_t kSceneVersionBytes = 7;
  // The shapes players collide with: the scene as clients get it (quantised), static shapes,
  // live obstacles and shut doors, so a client stepping its own player with the same model and
  // the same scene version gets the same floats.
  const movement::CollisionScene& collisionScene() const { return collision_; }
  // The scene's changes as clients are told them (SceneChanges); its version is the world's.
  const wire::SceneChangeLog& sceneChanges() const { return sceneLog_; }

 private:
  struct Player {
    AgentId body;
    // Owned apart so that a round in flight keeps a leaving client's view until it is done.
    std::unique_ptr<ClientView> view;
    DebugWatch debug;
    std::uint32_t lastSequence = 0;
    bool anyInput = false;
    std::uint64_t lastInputTick = 0;
    std::unique_ptr<ControlLink> link = nullptr;  // clients with the control role
    control::SubscriberId subscriber = 0;
    // The time the client may still spend moving its body (both modes: accrueBanks). Intent
    // mode: inputs not applied yet, by sequence; the tick since which the next one in sequence
    // has been missing (0: none missing).
    double bank = 0.0;
    std::map<std::uint32_t, wire::PlayerInput> pending{};
    std::uint64_t gapSinceTick = 0;
    // Snapshots: sendRate / tickRate is added each tick, and a snapshot is due at 1. Each client
    // starts at its own phase, so at 20 snapshots a second on 30 ticks the clients are spread over
    // the ticks (two thirds of them each tick) instead of all built on two ticks of three.
    double sendCredit = 0.0;
    // The newest ack that came while a round was being built (the view is the round's then).
    std::uint32_t pendingAck = 0;
  };
  // A client in the round being built: what it reads besides its view, frozen at the tick.
  struct RoundClient {
    std::uint32_t id = 0;
    Player* player = nullptr;  // the simulation thread's (the round reads the rest)
    ClientView* view = nullptr;
    ViewCentre centre;
    std::optional<wire::OwnPlayer> own;  // intent mode: the body as the server has it
  };
  void join(const NetEvent& e);
  void onControl(std::uint32_t clientId, const wire::Control& packet);
  void takeCommands(std::uint32_t clientId, Player& p);
  void flushControl();
  double now() const { return static_cast<double>(world_.tick()) / config_.tickRate; }
  void leave(std::uint32_t clientId);
  void input(std::uint32_t clientId, const wire::Input& input);
  void positionInput(Player& p, const wire::Input& input);
  void accrueBanks();  // a tick's time to every client's bank
  void intentInput(Player& p, const wire::Input& input);
  void applyIntents();  // before the tick, every client's due inputs in sequence order
  void debugSelect(std::uint32_t clientId, const wire::DebugSelect& select);
  void sendDebugInfo();  // outside the snapshot schedule and budget
  // This tick's snapshots to the clients `due` names (every client when empty); `unbudgeted`:
  // every entity in view, whatever --client-kbps allows.
  // With snapshot threads, `inBackground` starts the round and returns (false, doing nothing, when
  // the last round is still being built); otherwise the round is sent before it returns.
  bool sendSnapshots(const std::function<bool(std::uint32_t, const Player&)>& due, bool unbudgeted,
                     bool inBackground);
  void buildRound(const SnapshotStage::ParallelFor& parallelFor);
  void acknowledge(Player& p, std::uint32_t tick);
  // After a tick: when the world's scene version moved, records the change for clients and
  // rebuilds the players' collision scene.
  void followScene();
  bool roundInFlight() const { return stage_ != nullptr && stage_->busy(); }
  static constexpr std::size_t kUnbudgetedBytes = std::size_t{1} << 30;

  World& world_;
  SessionTransport& endpoint_;
  ServerMetrics& metrics_;
  SessionConfig config_;
  ArchetypeIndex playerArchetype_;
  InputLimits limits_;
  movement::CollisionScene collision_;
  wire::SceneGeometry staticScene_;  // as clients decode it
  wire::SceneChangeLog sceneLog_;
  std::unordered_map<std::uint32_t, Player> clients_;
  struct Joined {
    std::uint32_t id;
    Player* player;  // in clients_ (its nodes never move)
  };
  std::vector<Joined> order_;  // in join order: a fixed sending order
  std::vector<NetEvent> events_;
  std::vector<NetEvent> held_;  // serveHeld's events for the next tick
  std::vector<OutDatagram> out_;
  std::uint32_t epoch_ = 0;  // Snapshot.epoch (setSnapshotEpoch)
  control::Controller controller_;
  // The snapshot round being built (read by the stage's threads while it is in flight).
  std::vector<wire::EntityState> wireStates_;  // its tick's, in id order
  AgentHeights heights_;                       // a level's heights, for wireStates_
  ViewFrame frame_;
  InterestGrid interestGrid_;  // over wireStates_, with an interest radius
  InterestConfig roundInterest_;
  std::vector<RoundClient> round_;                   // in join order
  std::vector<std::vector<OutDatagram>> perClient_;  // built in parallel, queued in join order
  // Sending as the round goes: a chunk's datagrams are queued once every chunk before it is built
  // too, so they leave in join order (as one batch would) without waiting for the whole round.
  std::mutex sendMutex_;
  std::vector<char> chunkBuilt_;  // under sendMutex_
  std::size_t chunksSent_ = 0;    // under sendMutex_
  // Snapshot parts, one vector per chunk of a round's clients, kept from round to round so the
  // parts' storage is reused (ClientView::build refills them).
  std::vector<std::vector<wire::Snapshot>> partsOfChunk_;
  std::vector<OutDatagram> roundOut_;
  std::vector<std::unique_ptr<ClientView>> retired_;  // views of clients who left during a round
  std::uint32_t lastRoundTick_ = 0;                   // the tick of the last round started
  std::function<void()> roundDone_;                   // setRoundDoneHandler
  std::unique_ptr<SnapshotStage> stage_;              // null: rounds are built within the tick
};

}  // namespace steerd::net
