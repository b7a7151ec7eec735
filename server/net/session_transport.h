// What the simulation thread's session (GameSession) needs of the network: the events handed
// over since the last tick, a way to send datagrams, the tick to stamp on pongs, and the scene to
// answer requests with. The network thread's NetEndpoint is one; a replay (server/record/) is
// another, fed from a recording, that sends nowhere.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "proto/scene_changes_codec.h"
#include "proto/wire.pb.h"

namespace steerd::net {

// Network thread -> simulation thread.
struct NetEvent {
  enum class Kind : std::uint8_t { kJoin, kLeave, kInput, kDebugSelect, kControl, kReplayControl };
  Kind kind = Kind::kInput;
  std::uint32_t clientId = 0;
  wire::Input input;           // kInput
  wire::DebugSelect debug;     // kDebugSelect
  wire::Control control;       // kControl
  wire::ReplayControl replay;  // kReplayControl (a served replay's transport takes these)
  wire::DisconnectReason reason = wire::DISCONNECT_UNSPECIFIED;  // kLeave
  bool controlRole = false;                                      // kJoin: may send Control
  bool noBody = false;                                           // kJoin: no player body
  std::string publicKey;    // kJoin: the server's key for this session, for the Accept (session_seal.h)
  std::string acceptProof;  // kJoin with a connect token: Accept.key_proof (token_proof.h)
};

// Simulation thread -> network thread: a whole datagram (encodeDatagram) for one client; the
// network thread writes the header's sequence and ack fields before sending.
struct OutDatagram {
  std::uint32_t clientId = 0;
  std::vector<std::uint8_t> bytes;
};

class SessionTransport {
 public:
  virtual ~SessionTransport() = default;
  // Everything handed over since the last call, in arrival order (`out` is replaced).
  virtual void takeEvents(std::vector<NetEvent>& out) = 0;
  // Queues the datagrams and empties `batch`.
  virtual void send(std::vector<OutDatagram>& batch) = 0;
  // The tick just stepped, its steady-clock time and the rate, for the clients' clock sync.
  virtual void publishTick(std::uint32_t tick, std::int64_t steadyNs, double tickRate) = 0;
  virtual void setScene(const std::vector<wire::Scene>& parts) = 0;
  // The scene's changes as of its newest version, to answer SceneChangesRequest with (a
  // transport that sends nowhere ignores them).
  virtual void setSceneChanges(std::shared_ptr<const wire::SceneChangeLog> log) { (void)log; }
  virtual bool debugAllowed() const = 0;
};

}  // namespace steerd::net
