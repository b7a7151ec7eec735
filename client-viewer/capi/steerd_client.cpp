// The C API over steerd::client::Client (steerd_client.h). Each steerd_client owns an io_context
// that only its own calls run (poll in update), so the library has no thread and no global state.
// Every entry point catches: nothing thrown crosses into a C, C# or Python caller.
#include "steerd_client.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <string>

#include "client/address.h"
#include "client/client.h"
#include "proto/control_commands.h"

namespace {

using steerd::client::Client;
using steerd::client::ClientState;
using steerd::client::Clock;
using steerd::client::TimePoint;

constexpr std::uint32_t kAlive = 0x5354434c;  // "STCL": a live handle
constexpr std::size_t kMaxQueuedMessages = 4096;

}  // namespace

struct steerd_client {
  std::uint32_t magic = kAlive;
  asio::io_context io;
  std::unique_ptr<Client> client;
  std::string error;
  // The caller's clock to ours: set at the first call that gives a time.
  bool offsetSet = false;
  Clock::duration offset{};
  std::deque<steerd::wire::ControlMessage> messages;
  std::uint64_t messagesReceived = 0, messagesDropped = 0;
  std::vector<steerd::wire::ControlMessage> incoming;
  steerd::client::Sample sample;

  TimePoint at(double now) {
    const auto callerTime = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(now));
    if (!offsetSet) {
      offset = Clock::now().time_since_epoch() - callerTime;
      offsetSet = true;
    }
    return TimePoint(callerTime + offset);
  }
  // Moves what the client received into the bounded queue.
  void drainMessages() {
    incoming.clear();
    client->takeControlMessages(incoming);
    messagesReceived += incoming.size();
    for (auto& m : incoming) {
      if (messages.size() == kMaxQueuedMessages) {
        messages.pop_front();
        ++messagesDropped;
      }
      messages.push_back(std::move(m));
    }
  }
};

namespace {

bool alive(const steerd_client* c) { return c != nullptr && c->magic == kAlive; }

// Why this thread's last steerd_client_create failed: there is no handle to keep it in (errno's
// way, per thread, so threads creating clients at once do not see each other's).
thread_local std::string createError;

steerd_status createFailed(steerd_status s, std::string why) {
  createError = std::move(why);
  return s;
}

steerd_status fail(const steerd_client* c, steerd_status s, std::string message) {
  if (alive(c)) const_cast<steerd_client*>(c)->error = std::move(message);
  return s;
}

// Runs `body` for a live handle, turning anything thrown into STEERD_ERR_INTERNAL.
template <typename F>
steerd_status guarded(const steerd_client* c, F&& body) {
  if (!alive(c)) return STEERD_ERR_NULL;
  const_cast<steerd_client*>(c)->error.clear();
  try {
    return body();
  } catch (const std::exception& e) {
    return fail(c, STEERD_ERR_INTERNAL, e.what());
  } catch (...) {
    return fail(c, STEERD_ERR_INTERNAL, "unknown failure");
  }
}

bool isFiniteTime(double v) { return std::isfinite(v); }

steerd_status needConnected(steerd_client* c) {
  if (!c->client->connected()) return fail(c, STEERD_ERR_STATE, "not connected");
  return STEERD_OK;
}

steerd_status sendCommand(steerd_client* c, steerd::control::Command command, std::uint32_t* sequence) {
  if (const steerd_status s = needConnected(c); s != STEERD_OK) return s;
  if (!c->client->server().controlAllowed)
    return fail(c, STEERD_ERR_NOT_ALLOWED,
                "this client has no control role (steerd --allow-control, or a control token)");
  const std::uint32_t seq = c->client->sendCommand(std::move(command));
  if (seq == 0) return fail(c, STEERD_ERR_FULL, "too many commands wait for acknowledgement");
  if (sequence != nullptr) *sequence = seq;
  return STEERD_OK;
}

// Copies `n` items through `put` into a caller's buffer of `capacity`.
template <typename Put>
steerd_status fill(steerd_client* c, std::size_t n, std::size_t capacity, std::size_t* count, Put&& put) {
  *count = n;
  const std::size_t m = std::min(n, capacity);
  for (std::size_t i = 0; i < m; ++i) put(i);
  if (n > capacity)
    return fail(c, STEERD_ERR_BUFFER_TOO_SMALL,
                std::to_string(n) + " items, room for " + std::to_string(capacity));
  return STEERD_OK;
}

}  // namespace

extern "C" {

int steerd_client_abi_version(void) { return STEERD_CLIENT_ABI_VERSION; }

const char* steerd_status_name(steerd_status status) {
  switch (status) {
    case STEERD_OK:
      return "ok";
    case STEERD_ERR_NULL:
      return "null handle or pointer";
    case STEERD_ERR_BAD_ARGUMENT:
      return "bad argument";
    case STEERD_ERR_STATE:
      return "not in a state for it";
    case STEERD_ERR_BUFFER_TOO_SMALL:
      return "buffer too small";
    case STEERD_ERR_NOT_ALLOWED:
      return "not allowed";
    case STEERD_ERR_FULL:
      return "queue full";
    case STEERD_ERR_INTERNAL:
      return "internal error";
  }
  return "unknown status";
}

steerd_status steerd_client_create(const steerd_client_options* options, steerd_client** out) {
  if (out != nullptr) *out = nullptr;
  if (options == nullptr || out == nullptr) return createFailed(STEERD_ERR_NULL, "options or out is NULL");
  createError.clear();
  try {
    auto c = std::make_unique<steerd_client>();
    steerd::client::ClientOptions o;
    std::string host;
    std::uint16_t port = 0;
    if (options->server == nullptr) return createFailed(STEERD_ERR_BAD_ARGUMENT, "no server address");
    if (const std::string e = steerd::client::splitHostPort(options->server, host, port); !e.empty())
      return createFailed(STEERD_ERR_BAD_ARGUMENT, e);
    asio::ip::udp::resolver resolver(c->io);
    asio::error_code ec;
    const auto found = resolver.resolve(asio::ip::udp::v4(), host, std::to_string(port), ec);
    if (ec || found.empty()) {
      const auto found6 = resolver.resolve(host, std::to_string(port), ec);
      if (ec || found6.empty())
        return createFailed(STEERD_ERR_BAD_ARGUMENT,
                            "cannot resolve " + host + (ec ? ": " + ec.message() : ""));
      o.server = found6.begin()->endpoint();
    } else {
      o.server = found.begin()->endpoint();
    }
    if (options->token != nullptr && options->token_size > 0) {
      if (options->token_size > 4096)
        return createFailed(STEERD_ERR_BAD_ARGUMENT, "a connect token is at most 4096 bytes");
      o.token.assign(reinterpret_cast<const char*>(options->token), options->token_size);
    }
    o.noBody = options->no_body != 0;
    o.fetchScene = options->fetch_scene != 0;
    if (options->connect_timeout > 0.0) {
      if (!isFiniteTime(options->connect_timeout) || options->connect_timeout > 3600.0)
        return createFailed(STEERD_ERR_BAD_ARGUMENT, "connect_timeout must be finite, at most 3600 s");
      o.connectTimeout = std::chrono::duration<double>(options->connect_timeout);
    }
    c->client = std::make_unique<Client>(c->io, std::move(o));
    *out = c.release();
    return STEERD_OK;
  } catch (const std::exception& e) {
    return createFailed(STEERD_ERR_INTERNAL, e.what());
  } catch (...) {
    return createFailed(STEERD_ERR_INTERNAL, "unknown failure");
  }
}

void steerd_client_destroy(steerd_client* c) {
  if (!alive(c)) return;
  try {
    if (c->client->connected()) c->client->disconnect();
  } catch (...) {
  }
  c->magic = 0;
  delete c;
}

const char* steerd_client_last_error(const steerd_client* c) {
  if (c == nullptr) return createError.empty() ? "no error" : createError.c_str();
  if (!alive(c)) return "destroyed handle";
  if (!c->error.empty()) return c->error.c_str();
  return c->client->stateMessage().c_str();
}

steerd_status steerd_client_connect(steerd_client* c, double now) {
  return guarded(c, [&] {
    if (!isFiniteTime(now)) return fail(c, STEERD_ERR_BAD_ARGUMENT, "now is not a finite number");
    if (!c->client->connect(c->at(now))) {
      return fail(c, STEERD_ERR_STATE,
                  c->client->state() == ClientState::kFailed
                      ? c->client->stateMessage()
                      : std::string("connect only from the idle state"));
    }
    return STEERD_OK;
  });
}

steerd_status steerd_client_update(steerd_client* c, double now) {
  return guarded(c, [&] {
    if (!isFiniteTime(now)) return fail(c, STEERD_ERR_BAD_ARGUMENT, "now is not a finite number");
    const TimePoint t = c->at(now);
    c->io.poll();
    c->io.restart();  // poll() stops the context when it runs out of ready work
    c->client->update(t);
    c->drainMessages();
    return STEERD_OK;
  });
}

steerd_status steerd_client_disconnect(steerd_client* c) {
  return guarded(c, [&] {
    c->client->disconnect();
    return STEERD_OK;
  });
}

steerd_connection_state steerd_client_state(const steerd_client* c) {
  if (!alive(c)) return STEERD_FAILED;
  switch (c->client->state()) {
    case ClientState::kIdle:
      return STEERD_IDLE;
    case ClientState::kAwaitingChallenge:
    case ClientState::kAwaitingAccept:
      return STEERD_CONNECTING;
    case ClientState::kConnected:
      return STEERD_CONNECTED;
    case ClientState::kRefused:
      return STEERD_REFUSED;
    case ClientState::kTimedOut:
      return STEERD_TIMED_OUT;
    case ClientState::kDisconnected:
      return STEERD_DISCONNECTED;
    case ClientState::kFailed:
      return STEERD_FAILED;
  }
  return STEERD_FAILED;
}

steerd_status steerd_client_server_info(const steerd_client* c, steerd_server_info* out) {
  return guarded(c, [&] {
    if (out == nullptr) return STEERD_ERR_NULL;
    if (!c->client->connected()) return fail(c, STEERD_ERR_STATE, "not connected");
    const auto& s = c->client->server();
    *out = steerd_server_info{};
    out->client_id = s.clientId;
    out->player_entity = s.playerEntity;
    out->tick_rate = s.tickRate;
    out->send_rate = s.sendRate;
    out->min_x = s.minX;
    out->min_y = s.minY;
    out->max_x = s.maxX;
    out->max_y = s.maxY;
    out->player_radius = s.playerLimits.radius;
    out->player_max_speed = s.playerMaxSpeed;
    out->player_intents = s.playerIntents ? 1 : 0;
    out->control_allowed = s.controlAllowed ? 1 : 0;
    out->archetype_count = static_cast<std::uint32_t>(s.archetypes.size());
    return STEERD_OK;
  });
}

steerd_status steerd_client_archetype_name(const steerd_client* c, uint32_t index, char* buffer,
                                           size_t capacity) {
  return guarded(c, [&] {
    if (buffer == nullptr) return STEERD_ERR_NULL;
    if (!c->client->connected()) return fail(c, STEERD_ERR_STATE, "not connected");
    const auto& names = c->client->server().archetypes;
    if (index >= names.size())
      return fail(c, STEERD_ERR_BAD_ARGUMENT, "no archetype " + std::to_string(index));
    const std::string& n = names[index];
    if (capacity < n.size() + 1) {
      if (capacity > 0) buffer[0] = '\0';
      return fail(c, STEERD_ERR_BUFFER_TOO_SMALL,
                  "the name needs " + std::to_string(n.size() + 1) + " bytes");
    }
    std::memcpy(buffer, n.c_str(), n.size() + 1);
    return STEERD_OK;
  });
}

steerd_status steerd_client_entities(steerd_client* c, double now, steerd_entity* out, size_t capacity,
                                     size_t* count) {
  return guarded(c, [&] {
    if (count == nullptr || (out == nullptr && capacity > 0)) return STEERD_ERR_NULL;
    if (!isFiniteTime(now)) return fail(c, STEERD_ERR_BAD_ARGUMENT, "now is not a finite number");
    *count = 0;
    if (!c->client->connected()) return STEERD_OK;  // a render loop draws nothing, as before a snapshot
    c->client->sample(c->at(now), c->sample);
    const double perSecond = c->client->server().tickRate;  // motion is per tick
    const auto& es = c->sample.entities;
    const auto& ms = c->sample.motion;
    return fill(c, es.size(), capacity, count, [&](std::size_t i) {
      const auto& e = es[i];
      const steerd::client::EntityMotion m = i < ms.size() ? ms[i] : steerd::client::EntityMotion{};
      out[i] = steerd_entity{e.id,
                             e.archetype,
                             e.x,
                             e.y,
                             e.z,
                             e.heading,
                             static_cast<float>(m.vx * perSecond),
                             static_cast<float>(m.vy * perSecond),
                             static_cast<float>(m.turnRate * perSecond)};
    });
  });
}

steerd_status steerd_client_predicted_player(const steerd_client* c, double now, steerd_player* out) {
  return guarded(c, [&] {
    if (out == nullptr) return STEERD_ERR_NULL;
    if (!isFiniteTime(now)) return fail(c, STEERD_ERR_BAD_ARGUMENT, "now is not a finite number");
    const auto p = c->client->predictedPlayer(const_cast<steerd_client*>(c)->at(now));
    if (!p)
      return fail(c, STEERD_ERR_STATE, "no prediction yet (intent mode, after the server's first report)");
    *out = steerd_player{p->x, p->y, p->vx, p->vy};
    return STEERD_OK;
  });
}

steerd_status steerd_client_set_move(steerd_client* c, float mx, float my) {
  return guarded(c, [&] {
    if (!std::isfinite(mx) || !std::isfinite(my))
      return fail(c, STEERD_ERR_BAD_ARGUMENT, "move is not finite");
    c->client->setMove(mx, my);
    return STEERD_OK;
  });
}

steerd_status steerd_client_set_player(steerd_client* c, float x, float y, float vx, float vy) {
  return guarded(c, [&] {
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(vx) || !std::isfinite(vy))
      return fail(c, STEERD_ERR_BAD_ARGUMENT, "position or velocity is not finite");
    c->client->setPlayer(x, y, vx, vy);
    return STEERD_OK;
  });
}

steerd_status steerd_client_scene_obstacles(const steerd_client* c, steerd_circle* out, size_t capacity,
                                            size_t* count, int* complete) {
  return guarded(c, [&] {
    if (count == nullptr || (out == nullptr && capacity > 0)) return STEERD_ERR_NULL;
    if (complete != nullptr) *complete = c->client->sceneComplete() ? 1 : 0;
    const auto& o = c->client->scene().obstacles;
    return fill(const_cast<steerd_client*>(c), o.size(), capacity, count, [&](std::size_t i) {
      out[i] = steerd_circle{o[i].centre.x, o[i].centre.y, o[i].radius};
    });
  });
}

steerd_status steerd_client_scene_walls(const steerd_client* c, steerd_segment* out, size_t capacity,
                                        size_t* count, int* complete) {
  return guarded(c, [&] {
    if (count == nullptr || (out == nullptr && capacity > 0)) return STEERD_ERR_NULL;
    if (complete != nullptr) *complete = c->client->sceneComplete() ? 1 : 0;
    const auto& w = c->client->scene().walls;
    return fill(const_cast<steerd_client*>(c), w.size(), capacity, count, [&](std::size_t i) {
      out[i] = steerd_segment{w[i].from.x, w[i].from.y, w[i].to.x, w[i].to.y};
    });
  });
}

steerd_status steerd_client_scene_version(const steerd_client* c, uint32_t* version) {
  return guarded(c, [&] {
    if (version == nullptr) return STEERD_ERR_NULL;
    *version = c->client->sceneVersion();
    return STEERD_OK;
  });
}

steerd_status steerd_client_scene_doors(const steerd_client* c, steerd_door* out, size_t capacity,
                                        size_t* count) {
  return guarded(c, [&] {
    if (count == nullptr || (out == nullptr && capacity > 0)) return STEERD_ERR_NULL;
    const auto& d = c->client->scene().doors;
    return fill(const_cast<steerd_client*>(c), d.size(), capacity, count, [&](std::size_t i) {
      steerd_door door{d[i].from.x, d[i].from.y, d[i].to.x, d[i].to.y, d[i].thickness, d[i].open ? 1 : 0, {}};
      d[i].name.copy(door.name, std::min(d[i].name.size(), sizeof door.name - 1));
      out[i] = door;
    });
  });
}

steerd_status steerd_client_spawn(steerd_client* c, const char* archetype, float x, float y,
                                  uint32_t* sequence) {
  return guarded(c, [&] {
    if (archetype == nullptr) return STEERD_ERR_NULL;
    if (!std::isfinite(x) || !std::isfinite(y))
      return fail(c, STEERD_ERR_BAD_ARGUMENT, "position is not finite");
    return sendCommand(c, steerd::control::spawnAt(archetype, x, y), sequence);
  });
}

steerd_status steerd_client_move_to(steerd_client* c, uint32_t agent, float x, float y, uint32_t* sequence) {
  return guarded(c, [&] {
    if (!std::isfinite(x) || !std::isfinite(y))
      return fail(c, STEERD_ERR_BAD_ARGUMENT, "position is not finite");
    return sendCommand(c, steerd::control::moveTo(agent, x, y), sequence);
  });
}

steerd_status steerd_client_despawn(steerd_client* c, uint32_t agent, uint32_t* sequence) {
  return guarded(c, [&] { return sendCommand(c, steerd::control::despawnAgent(agent), sequence); });
}

steerd_status steerd_client_send_command(steerd_client* c, const uint8_t* command, size_t size,
                                         uint32_t* sequence) {
  return guarded(c, [&] {
    if (command == nullptr && size > 0) return STEERD_ERR_NULL;
    steerd::control::Command cmd;
    if (size > steerd::wire::kMaxDatagramBytes || !cmd.ParseFromArray(command, static_cast<int>(size)) ||
        cmd.kind_case() == steerd::control::Command::KIND_NOT_SET)
      return fail(c, STEERD_ERR_BAD_ARGUMENT, "not a serialized steerd.control.Command with a kind");
    return sendCommand(c, std::move(cmd), sequence);
  });
}

steerd_status steerd_client_take_messages(steerd_client* c, steerd_control_message* out, size_t capacity,
                                          size_t* count) {
  return guarded(c, [&] {
    if (count == nullptr || (out == nullptr && capacity > 0)) return STEERD_ERR_NULL;
    const std::size_t n = std::min(capacity, c->messages.size());
    for (std::size_t i = 0; i < n; ++i) {
      const steerd::wire::ControlMessage& m = c->messages.front();
      steerd_control_message r{};
      if (m.has_result()) {
        const auto& res = m.result();
        r.kind = STEERD_MESSAGE_RESULT;
        r.sequence = res.sequence();
        r.ok = res.status() == steerd::control::STATUS_OK ? 1 : 0;
        r.agent = res.agent();
        r.tick = res.tick();
        std::snprintf(r.error, sizeof r.error, "%s", res.error().c_str());
      } else {
        const auto& ev = m.event();
        r.kind = STEERD_MESSAGE_EVENT;
        r.event_kind = ev.kind();
        r.agent = ev.agent();
        r.other = ev.other();
        r.tick = ev.tick();
        r.x = ev.position().x();
        r.y = ev.position().y();
      }
      out[i] = r;
      c->messages.pop_front();
    }
    *count = n;
    return STEERD_OK;
  });
}

steerd_status steerd_client_take_message_bytes(steerd_client* c, uint8_t* buffer, size_t capacity,
                                               size_t* size) {
  return guarded(c, [&] {
    if (size == nullptr || (buffer == nullptr && capacity > 0)) return STEERD_ERR_NULL;
    *size = 0;
    if (c->messages.empty()) return STEERD_OK;
    const std::size_t need = c->messages.front().ByteSizeLong();
    *size = need;
    if (need > capacity)
      return fail(c, STEERD_ERR_BUFFER_TOO_SMALL, "the message needs " + std::to_string(need) + " bytes");
    c->messages.front().SerializeToArray(buffer, static_cast<int>(capacity));
    c->messages.pop_front();
    return STEERD_OK;
  });
}

steerd_status steerd_client_stats(const steerd_client* c, double now, steerd_stats* out) {
  return guarded(c, [&] {
    if (out == nullptr) return STEERD_ERR_NULL;
    if (!isFiniteTime(now)) return fail(c, STEERD_ERR_BAD_ARGUMENT, "now is not a finite number");
    const auto s = c->client->stats(const_cast<steerd_client*>(c)->at(now));
    *out = steerd_stats{};
    out->snapshots = s.snapshotsComplete;
    out->datagrams_in = s.datagramsIn;
    out->datagrams_out = s.datagramsOut;
    out->bytes_in = s.bytesIn;
    out->bytes_out = s.bytesOut;
    out->decode_failures = s.decodeFailures();
    out->commands_sent = s.commandsSent;
    out->commands_acknowledged = s.commandsAcknowledged;
    out->messages_received = c->messagesReceived;
    out->messages_dropped = c->messagesDropped;
    out->rtt_ms = s.rttMs;
    out->server_tick = s.serverTick;
    return STEERD_OK;
  });
}

}  // extern "C"
