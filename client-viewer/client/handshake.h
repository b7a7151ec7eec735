// The connection's state machine (docs/PROTOCOL.md, "Handshake"): ConnectRequest until a Challenge,
// ConnectResponse with its cookie (and, with a connect token, the proof of the token's keys) until
// an Accept or a Refuse, resends and the connect timeout, REFUSE_NOT_ALLOCATED retried, the
// server's silence once connected, and Disconnect either way. Time is a parameter; packets go to
// an outbox; sealing and acks are ClientProtocol's.
#pragma once

#include <optional>
#include <string>

#include "client/client_options.h"
#include "client/packet_outbox.h"
#include "proto/session_seal.h"
#include "proto/token_proof.h"

namespace steerd::client {

class Handshake {
 public:
  // `options` must outlive the handshake.
  explicit Handshake(const ClientOptions& options) : options_(options) {}

  // Sends a ConnectRequest now. Only from kIdle; false otherwise, or when the token is unusable
  // (then kFailed).
  bool connect(TimePoint now, PacketOutbox& out);
  // Resends and the connect timeout while handshaking; the server-silence timeout once connected.
  void update(TimePoint now, PacketOutbox& out);
  // Disconnect{CLIENT_LEFT} three times when the server may hold a session; kDisconnected.
  void disconnect(PacketOutbox& out);
  // A local error (the socket, an unusable Accept): kFailed with `why`.
  void fail(std::string why);

  void onChallenge(const wire::Challenge& challenge, TimePoint now, PacketOutbox& out);
  void onRefuse(const wire::Refuse& refuse, TimePoint now);
  // The session's keys when the Accept is this server's answer (its proof holds, its numbers are
  // usable): the state is then kConnected and server() filled. Nothing when it is ignored (no
  // proof: someone else's) or unusable (kFailed).
  std::optional<wire::SessionKeys> onAccept(const wire::Accept& accept, TimePoint now);
  void onDisconnect(const wire::Disconnect& disconnect);
  // A packet of the connection arrived (the silence timeout starts again).
  void heard(TimePoint now) { lastHeard_ = now; }

  ClientState state() const { return state_; }
  bool handshaking() const {
    return state_ == ClientState::kAwaitingChallenge || state_ == ClientState::kAwaitingAccept;
  }
  bool connected() const { return state_ == ClientState::kConnected; }
  const std::string& message() const { return message_; }
  wire::RefuseReason refuseReason() const { return refuseReason_; }
  wire::DisconnectReason disconnectReason() const { return disconnectReason_; }
  const ServerInfo& server() const { return info_; }
  // When the newest handshake packet went out: the Accept's round trip seeds the clock from it.
  TimePoint lastSend() const { return lastSend_; }

 private:
  void send(TimePoint now, PacketOutbox& out);

  const ClientOptions& options_;
  ClientState state_ = ClientState::kIdle;
  std::string message_;
  wire::RefuseReason refuseReason_ = wire::REFUSE_UNSPECIFIED;
  wire::DisconnectReason disconnectReason_ = wire::DISCONNECT_UNSPECIFIED;
  std::string notAllocatedMessage_;  // the last REFUSE_NOT_ALLOCATED's (retried until the timeout)
  wire::KeyPair keys_;               // this connection's, made at connect()
  // From options.token (a ClientToken): the private token to send and the keys to prove it.
  std::optional<wire::ClientTokenKeys> tokenKeys_;
  std::string cookie_;
  ServerInfo info_;
  TimePoint started_{}, lastSend_{}, lastHeard_{};
  int sends_ = 0;  // of the packet the state sends, since it began
};

// What an Accept says, its numbers made safe (a non-finite interest radius is none).
ServerInfo serverInfoOf(const wire::Accept& accept);

}  // namespace steerd::client
