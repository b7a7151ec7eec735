/* steerd_client.h: the steerd client library's C API (docs/ENGINES.md).
 *
 * One steerd_client is one connection to a steerd server: the handshake (with a connect token when
 * the server wants one), the player's input, snapshots decoded, clock-synced and interpolated for
 * drawing, the own player predicted (intent mode), the static scene, and the control channel
 * (spawning and commanding NPCs, with the control role). No C++ or protobuf type crosses this
 * header: opaque handles, plain structs, status codes. Link libsteerd_client (pkg-config
 * steerd-client, or CMake find_package(steerd_client)).
 *
 * Time: every call that needs the time takes `now`, seconds on a monotonic clock of the caller's
 * that runs at real time (Unity's Time.realtimeSinceStartupAsDouble, Godot's
 * Time.get_ticks_usec() / 1e6, Python's time.monotonic()). The library never reads a clock to
 * decide what to do; it maps the caller's to the arrival times of datagrams.
 *
 * Threads: the library starts none. A client is not thread-safe: make every call on one client
 * from one thread at a time (the game's main thread, typically). Different clients may be used
 * from different threads at once. steerd_client_abi_version and steerd_status_name may be called
 * from anywhere.
 *
 * Errors: every call returns STEERD_OK or an error status, never aborts the process, and leaves a
 * message for steerd_client_last_error. A null or destroyed handle gives STEERD_ERR_NULL (a
 * destroyed handle is detected while its memory is not reused: do not rely on it). Queues are
 * bounded: a caller that never reads loses the oldest control messages and the count says so.
 */
#ifndef STEERD_CLIENT_H
#define STEERD_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(STEERD_CLIENT_BUILD)
#define STEERD_API __declspec(dllexport)
#elif defined(_WIN32)
#define STEERD_API __declspec(dllimport)
#else
#define STEERD_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a struct or a signature below changes. Compare with what you were built against. */
#define STEERD_CLIENT_ABI_VERSION 1
STEERD_API int steerd_client_abi_version(void);

typedef enum steerd_status {
  STEERD_OK = 0,
  STEERD_ERR_NULL = 1,             /* a null handle or output pointer */
  STEERD_ERR_BAD_ARGUMENT = 2,     /* an argument out of range (NaN, a bad address, a bad token) */
  STEERD_ERR_STATE = 3,            /* not now: not connected, already connecting, ... */
  STEERD_ERR_BUFFER_TOO_SMALL = 4, /* the output buffer was filled; *count says how many there are */
  STEERD_ERR_NOT_ALLOWED = 5,      /* the server did not grant it (the control role) */
  STEERD_ERR_FULL = 6,             /* a bounded queue is full (commands waiting for acknowledgement) */
  STEERD_ERR_INTERNAL = 7          /* a failure inside the library (out of memory, a socket error) */
} steerd_status;
/* A few words for a status ("bad argument"), for messages; never NULL. */
STEERD_API const char* steerd_status_name(steerd_status status);

typedef enum steerd_connection_state {
  STEERD_IDLE = 0,
  STEERD_CONNECTING = 1,
  STEERD_CONNECTED = 2,
  STEERD_REFUSED = 3, /* steerd_client_last_error says why (full, token, ...) */
  STEERD_TIMED_OUT = 4,
  STEERD_DISCONNECTED = 5,
  STEERD_FAILED = 6
} steerd_connection_state;

typedef struct steerd_client steerd_client;

typedef struct steerd_client_options {
  const char* server;   /* "host:port" (IPv4, IPv6 in brackets, or a name) */
  const uint8_t* token; /* a connect token's bytes (ClientToken), or NULL */
  size_t token_size;
  int no_body;            /* 1: no player body (a game's logic, an observer) */
  int fetch_scene;        /* 1: fetch the static scene once connected */
  double connect_timeout; /* seconds; 0: 5 */
} steerd_client_options;

/* Creates a client (nothing is sent until steerd_client_connect). A host name in `server` is
 * resolved here, which blocks the calling thread on DNS: give a numeric address from a frame
 * loop. On failure *out is NULL and steerd_client_last_error(NULL) says why, on this thread. */
STEERD_API steerd_status steerd_client_create(const steerd_client_options* options, steerd_client** out);
/* Sends a goodbye if connected, closes the socket and frees the client. NULL is ignored. */
STEERD_API void steerd_client_destroy(steerd_client* client);

/* Why the last call on this client failed, or the state's reason (refused, timed out): a message
 * owned by the client, valid until its next call. With NULL: why the calling thread's last
 * steerd_client_create failed. Never NULL. */
STEERD_API const char* steerd_client_last_error(const steerd_client* client);

STEERD_API steerd_status steerd_client_connect(steerd_client* client, double now);
/* Reads what arrived and does the timed work (resends, inputs, pings, timeouts). Call it every
 * frame, or at least 30 times a second. */
STEERD_API steerd_status steerd_client_update(steerd_client* client, double now);
STEERD_API steerd_status steerd_client_disconnect(steerd_client* client);
STEERD_API steerd_connection_state steerd_client_state(const steerd_client* client);

typedef struct steerd_server_info {
  uint32_t client_id;
  uint32_t player_entity;           /* the own body's id in entities; 0xffffffff: none (no_body) */
  double tick_rate;                 /* ticks per second */
  double send_rate;                 /* snapshots per second */
  float min_x, min_y, max_x, max_y; /* world bounds, m */
  float player_radius, player_max_speed;
  int player_intents;  /* 1: the server moves the player from steerd_client_set_move */
  int control_allowed; /* 1: this client has the control role */
  uint32_t archetype_count;
} steerd_server_info;
STEERD_API steerd_status steerd_client_server_info(const steerd_client* client, steerd_server_info* out);
/* The name of archetype `index` (entities' archetype numbers), NUL-terminated, into `buffer`. */
STEERD_API steerd_status steerd_client_archetype_name(const steerd_client* client, uint32_t index,
                                                      char* buffer, size_t capacity);

/* An entity as drawn at a render time: what an animation blend tree reads. */
typedef struct steerd_entity {
  uint32_t id;
  uint32_t archetype;
  float x, y;      /* m */
  float z;         /* m: the ground's height under it on a level with heights, else 0 */
  float heading;   /* radians, counter-clockwise from +x, (-pi, pi] */
  float vx, vy;    /* m/s, between the two snapshots drawn from */
  float turn_rate; /* rad/s, the same way */
} steerd_entity;

/* The entities interpolated for drawing at `now` (the server's time less the interpolation
 * delay). Writes up to `capacity` into `out` and the number there are into `*count`;
 * STEERD_ERR_BUFFER_TOO_SMALL when there are more (call again with a bigger buffer). Before the
 * first snapshot, and when not connected: STEERD_OK and 0. */
STEERD_API steerd_status steerd_client_entities(steerd_client* client, double now, steerd_entity* out,
                                                size_t capacity, size_t* count);

typedef struct steerd_player {
  float x, y, vx, vy;
} steerd_player;
/* The own player predicted from the inputs sent (intent mode), at `now`. STEERD_ERR_STATE before
 * the server's first report of it. */
STEERD_API steerd_status steerd_client_predicted_player(const steerd_client* client, double now,
                                                        steerd_player* out);

/* Intent mode: the direction to move in (length <= 1: the share of max speed). */
STEERD_API steerd_status steerd_client_set_move(steerd_client* client, float mx, float my);
/* Position mode: where the player is and its velocity. */
STEERD_API steerd_status steerd_client_set_player(steerd_client* client, float x, float y, float vx,
                                                  float vy);

/* The scene (fetch_scene) as it is now: circles and wall segments, m. The static scene, with what
 * changed while the server runs on top: live circle obstacles, and the four walls of each live box
 * and each shut door (docs/PROTOCOL.md, "Scene changes"). Read them again when the version moves. */
typedef struct steerd_circle {
  float x, y, radius;
} steerd_circle;
typedef struct steerd_segment {
  float ax, ay, bx, by;
} steerd_segment;
/* 1 in *complete once every part has arrived. Same buffer rules as steerd_client_entities. */
STEERD_API steerd_status steerd_client_scene_obstacles(const steerd_client* client, steerd_circle* out,
                                                       size_t capacity, size_t* count, int* complete);
STEERD_API steerd_status steerd_client_scene_walls(const steerd_client* client, steerd_segment* out,
                                                   size_t capacity, size_t* count, int* complete);
/* The scene's version the client holds: 0 until something changed and the change arrived. */
STEERD_API steerd_status steerd_client_scene_version(const steerd_client* client, uint32_t* version);
/* The scenario's doors: the opening from a to b, `thickness` deep, and whether it is open now. */
typedef struct steerd_door {
  float ax, ay, bx, by, thickness;
  int open;
  char name[68]; /* NUL-terminated, at most 64 bytes of UTF-8 */
} steerd_door;
STEERD_API steerd_status steerd_client_scene_doors(const steerd_client* client, steerd_door* out,
                                                   size_t capacity, size_t* count);

/* The control channel (the control role: steerd --allow-control, or a control token).
 * Commands are sent at the next update and again until acknowledged; *sequence is the command's
 * number, which its result carries. */
STEERD_API steerd_status steerd_client_spawn(steerd_client* client, const char* archetype, float x, float y,
                                             uint32_t* sequence);
STEERD_API steerd_status steerd_client_move_to(steerd_client* client, uint32_t agent, float x, float y,
                                               uint32_t* sequence);
STEERD_API steerd_status steerd_client_despawn(steerd_client* client, uint32_t agent, uint32_t* sequence);
/* Any command: a serialized steerd.control.Command (proto/control.proto; its sequence is set
 * here). */
STEERD_API steerd_status steerd_client_send_command(steerd_client* client, const uint8_t* command,
                                                    size_t size, uint32_t* sequence);

typedef enum steerd_message_kind { STEERD_MESSAGE_RESULT = 1, STEERD_MESSAGE_EVENT = 2 } steerd_message_kind;
typedef struct steerd_control_message {
  int32_t kind;       /* steerd_message_kind */
  uint32_t sequence;  /* a result: the command's */
  int32_t ok;         /* a result: 1 applied, 0 refused (error says why) */
  int32_t event_kind; /* an event: steerd.control.EventKind (1 SPAWNED, 2 DESPAWNED, ...) */
  uint32_t agent;     /* the agent it is about (spawn: the new id) */
  uint32_t other;     /* an event's other agent (CAUGHT, TARGET_LOST) */
  uint64_t tick;
  float x, y;      /* an event's position */
  char error[160]; /* a refused result's reason, NUL-terminated (cut to fit) */
} steerd_control_message;
/* Results and events received since the last call, in the server's order, each once (at most 4096
 * kept; older ones are dropped and counted in steerd_stats.messages_dropped). Takes up to
 * `capacity`; the rest stay queued: call again while *count == capacity. Events have ok 0. */
STEERD_API steerd_status steerd_client_take_messages(steerd_client* client, steerd_control_message* out,
                                                     size_t capacity, size_t* count);
/* The same, whole: the next message as a serialized steerd.wire.ControlMessage. *size 0: none.
 * STEERD_ERR_BUFFER_TOO_SMALL (with *size the size needed) leaves it queued. Both calls take from
 * one queue. */
STEERD_API steerd_status steerd_client_take_message_bytes(steerd_client* client, uint8_t* buffer,
                                                          size_t capacity, size_t* size);

typedef struct steerd_stats {
  uint64_t snapshots; /* complete snapshots received */
  uint64_t datagrams_in, datagrams_out, bytes_in, bytes_out;
  uint64_t decode_failures;
  uint64_t commands_sent, commands_acknowledged;
  uint64_t messages_received, messages_dropped;
  double rtt_ms;
  double server_tick; /* estimated now */
} steerd_stats;
STEERD_API steerd_status steerd_client_stats(const steerd_client* client, double now, steerd_stats* out);

#ifdef __cplusplus
}
#endif

#endif /* STEERD_CLIENT_H */
