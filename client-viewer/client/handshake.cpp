#include "client/handshake.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "client/durations.h"
#include "proto/packet.h"

namespace steerd::client {

namespace {

constexpr std::size_t kMaxCookieBytes = 512;

std::string describe(const asio::ip::udp::endpoint& e) {
  std::ostringstream s;
  s << e;
  return s.str();
}

}  // namespace

ServerInfo serverInfoOf(const wire::Accept& a) {
  ServerInfo info;
  info.clientId = a.client_id();
  info.playerEntity = a.player_entity();
  info.tickRate = a.tick_rate();
  info.sendRate = a.send_rate();
  info.minX = a.min_x();
  info.minY = a.min_y();
  info.maxX = a.max_x();
  info.maxY = a.max_y();
  info.serverTick = a.server_tick();
  info.playerMaxSpeed = a.player_max_speed();
  info.archetypes.assign(a.archetypes().begin(), a.archetypes().end());
  info.interestRadius = std::isfinite(a.interest_radius()) ? std::max(a.interest_radius(), 0.0f) : 0.0f;
  info.debugAllowed = a.debug_allowed();
  info.controlAllowed = a.control_allowed();
  const wire::PlayerLimits& pl = a.player_limits();
  info.playerLimits = {pl.radius(), pl.mass(), pl.max_speed(), pl.max_force(), pl.max_turn_rate()};
  info.playerIntents = a.player_intents();
  return info;
}

bool Handshake::connect(TimePoint now, PacketOutbox& out) {
  if (state_ != ClientState::kIdle) return false;
  keys_ = wire::KeyPair::generate();  // fresh for every connection: its sessions share nothing
  tokenKeys_.reset();
  if (!options_.token.empty()) {
    std::string error;
    tokenKeys_ = wire::parseClientToken(options_.token, error);
    if (!tokenKeys_) {
      fail("the connect token is unusable: " + error);
      return false;
    }
  }
  notAllocatedMessage_.clear();
  state_ = ClientState::kAwaitingChallenge;
  started_ = now;
  sends_ = 0;
  send(now, out);
  return true;
}

void Handshake::send(TimePoint now, PacketOutbox& out) {
  wire::Packet p;
  if (state_ == ClientState::kAwaitingChallenge) {
    auto* r = p.mutable_connect_request();  // set even when empty: it names the packet's kind
    if (tokenKeys_) r->set_token(tokenKeys_->privateToken);
  } else {
    auto* r = p.mutable_connect_response();
    r->set_cookie(cookie_);
    r->set_no_body(options_.noBody);
    r->set_public_key(keys_.publicKey);
    if (tokenKeys_) {
      r->set_token(tokenKeys_->privateToken);
      r->set_key_proof(wire::connectProof(tokenKeys_->clientToServer, cookie_, keys_.publicKey));
    }
  }
  out.post(p, wire::minimumDatagramBytes(p.body_case()));
  ++sends_;
  lastSend_ = now;
}

void Handshake::update(TimePoint now, PacketOutbox& out) {
  if (handshaking()) {
    if (now - started_ >= toDuration(options_.connectTimeout)) {
      std::ostringstream s;
      s << "no " << (state_ == ClientState::kAwaitingChallenge ? "answer" : "Accept or Refuse") << " from "
        << describe(options_.server) << " within " << options_.connectTimeout.count() << " s";
      if (!notAllocatedMessage_.empty()) s << " (last refusal: " << notAllocatedMessage_ << ")";
      state_ = ClientState::kTimedOut;
      message_ = s.str();
    } else if (now - lastSend_ >= toDuration(options_.resendInterval) &&
               sends_ <= std::max(options_.retries, 0)) {
      send(now, out);
    }
  } else if (state_ == ClientState::kConnected && now - lastHeard_ > toDuration(options_.serverTimeout)) {
    std::ostringstream s;
    s << "server " << describe(options_.server) << " silent for " << options_.serverTimeout.count() << " s";
    state_ = ClientState::kTimedOut;
    message_ = s.str();
  }
}

void Handshake::disconnect(PacketOutbox& out) {
  if (state_ == ClientState::kAwaitingAccept || state_ == ClientState::kConnected) {
    wire::Packet p;
    p.mutable_disconnect()->set_reason(wire::DISCONNECT_CLIENT_LEFT);
    for (int i = 0; i < 3; ++i) out.post(p);
  }
  if (handshaking() || state_ == ClientState::kConnected || state_ == ClientState::kIdle) {
    state_ = ClientState::kDisconnected;
    disconnectReason_ = wire::DISCONNECT_CLIENT_LEFT;
    message_ = "disconnected by the client";
  }
}

void Handshake::fail(std::string why) {
  state_ = ClientState::kFailed;
  message_ = std::move(why);
}

void Handshake::onChallenge(const wire::Challenge& c, TimePoint now, PacketOutbox& out) {
  if (!handshaking() || c.cookie().empty() || c.cookie().size() > kMaxCookieBytes) return;
  const bool fresh = state_ == ClientState::kAwaitingChallenge;
  cookie_ = c.cookie();
  if (fresh) {
    state_ = ClientState::kAwaitingAccept;
    sends_ = 0;
    send(now, out);
  }
}

void Handshake::onRefuse(const wire::Refuse& r, TimePoint now) {
  if (!handshaking()) return;
  refuseReason_ = r.reason();
  if (r.reason() == wire::REFUSE_NOT_ALLOCATED) {
    // An Agones server allocated a moment ago admits players once its match is loaded: start the
    // handshake again (a fresh challenge) until connectTimeout.
    notAllocatedMessage_ = r.message();
    state_ = ClientState::kAwaitingChallenge;
    sends_ = 0;
    lastSend_ = now;
    return;
  }
  state_ = ClientState::kRefused;
  message_ =
      !r.message().empty() ? r.message() : std::string("refused: ") + wire::RefuseReason_Name(r.reason());
}

std::optional<wire::SessionKeys> Handshake::onAccept(const wire::Accept& a, TimePoint now) {
  if (state_ != ClientState::kAwaitingAccept) return std::nullopt;
  auto rateOk = [](float r) { return std::isfinite(r) && r > 0.0f && r <= 10000.0f; };
  if (!rateOk(a.tick_rate()) || !rateOk(a.send_rate())) {
    std::ostringstream s;
    s << "the server's Accept is unusable (tick_rate " << a.tick_rate() << ", send_rate " << a.send_rate()
      << ")";
    fail(s.str());
    return std::nullopt;
  }
  // With a token, only a server that opened it can prove its half of the keys: an Accept without
  // that proof is someone else's (a man in the middle), so ignored; the real one may follow.
  if (tokenKeys_ &&
      !wire::acceptProofValid(tokenKeys_->serverToClient, a.public_key(), keys_.publicKey, a.key_proof()))
    return std::nullopt;
  auto sessionKeys = wire::clientSessionKeys(keys_, a.public_key());
  if (!sessionKeys) {
    std::ostringstream s;
    s << "the server's Accept has no usable public key (" << a.public_key().size() << " bytes; protocol "
      << int{wire::kProtocolVersion} << " needs " << wire::kPublicKeyBytes << ")";
    fail(s.str());
    return std::nullopt;
  }
  if (tokenKeys_)
    *sessionKeys = wire::bindSessionKeys(*sessionKeys, tokenKeys_->clientToServer, tokenKeys_->serverToClient,
                                         /*serverSide=*/false);
  info_ = serverInfoOf(a);
  state_ = ClientState::kConnected;
  message_.clear();
  lastHeard_ = now;
  return sessionKeys;
}

void Handshake::onDisconnect(const wire::Disconnect& d) {
  if (!handshaking() && state_ != ClientState::kConnected) return;
  state_ = ClientState::kDisconnected;
  disconnectReason_ = d.reason();
  message_ = std::string("server disconnected: ") + wire::DisconnectReason_Name(d.reason());
}

}  // namespace steerd::client
