"""steerd_client: Python bindings (ctypes) for the steerd client library's C API.

One module, no build step: it loads libsteerd-client.so (client-viewer/capi/steerd_client.h is the
contract) and wraps every function of the header:

    import time, steerd_client as sc
    with sc.Client("127.0.0.1:7777") as c:
        c.connect()
        c.wait_connected()
        while True:
            c.update()
            c.set_move(1.0, 0.0)
            for e in c.entities():
                ...
            time.sleep(1 / 60)

The library is found from the environment variable STEERD_CLIENT_LIB (a path to the .so), else a
libsteerd-client.so next to this file, else ctypes.util.find_library("steerd-client") (the system's
library path). Its ABI version is checked when it is loaded: a mismatch raises SteerdError.

Time: every call that needs the time takes `now`, seconds on a monotonic clock; here it defaults
to time.monotonic(). Threads: a Client is not thread-safe (use it from one thread at a time).
Errors: a call that fails raises SteerdError with the status's name and the library's message.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import dataclasses
import enum
import os
import time
from dataclasses import dataclass
from typing import List, Optional, Tuple

__all__ = [
    "ABI_VERSION", "NO_ENTITY", "Status", "State", "MessageKind", "EventKind", "SteerdError",
    "Entity", "Player", "ServerInfo", "Circle", "Segment", "ControlMessage", "Stats", "Client",
    "library", "status_name",
]

ABI_VERSION = 1  # STEERD_CLIENT_ABI_VERSION these bindings were written against
NO_ENTITY = 0xFFFFFFFF  # server_info().player_entity with no body


class Status(enum.IntEnum):
    OK = 0
    ERR_NULL = 1
    ERR_BAD_ARGUMENT = 2
    ERR_STATE = 3
    ERR_BUFFER_TOO_SMALL = 4
    ERR_NOT_ALLOWED = 5
    ERR_FULL = 6
    ERR_INTERNAL = 7


class State(enum.IntEnum):
    IDLE = 0
    CONNECTING = 1
    CONNECTED = 2
    REFUSED = 3
    TIMED_OUT = 4
    DISCONNECTED = 5
    FAILED = 6


class MessageKind(enum.IntEnum):
    RESULT = 1
    EVENT = 2


class EventKind(enum.IntEnum):
    """steerd.control.EventKind (proto/control.proto)."""
    UNSPECIFIED = 0
    SPAWNED = 1
    DESPAWNED = 2
    STATE_CHANGED = 3
    ARRIVED = 4
    TARGET_LOST = 5
    SIGHTED = 6
    LOST_SIGHT = 7
    CAUGHT = 8
    PATH_FAILED = 9
    OVERFLOW = 10


class SteerdError(Exception):
    """A call that did not return STEERD_OK: `status` (a Status, or the raw int), `status_name`
    (steerd_status_name's words for it), `message` (steerd_client_last_error), `call` (which)."""

    def __init__(self, status: int, status_name: str, message: str, call: str = ""):
        try:
            status = Status(status)
        except ValueError:
            pass
        self.status = status
        self.status_name = status_name
        self.message = message
        self.call = call
        where = f"{call}: " if call else ""
        what = f"STEERD_{status.name} ({status_name})" if isinstance(status, Status) else status_name
        super().__init__(f"{where}{what}: {message}" if message else f"{where}{what}")


# --- The header's structs, field for field ---------------------------------------------------------

class _Options(ctypes.Structure):
    _fields_ = [
        ("server", ctypes.c_char_p),
        ("token", ctypes.POINTER(ctypes.c_uint8)),
        ("token_size", ctypes.c_size_t),
        ("no_body", ctypes.c_int),
        ("fetch_scene", ctypes.c_int),
        ("connect_timeout", ctypes.c_double),
    ]


class _ServerInfo(ctypes.Structure):
    _fields_ = [
        ("client_id", ctypes.c_uint32),
        ("player_entity", ctypes.c_uint32),
        ("tick_rate", ctypes.c_double),
        ("send_rate", ctypes.c_double),
        ("min_x", ctypes.c_float), ("min_y", ctypes.c_float),
        ("max_x", ctypes.c_float), ("max_y", ctypes.c_float),
        ("player_radius", ctypes.c_float),
        ("player_max_speed", ctypes.c_float),
        ("player_intents", ctypes.c_int),
        ("control_allowed", ctypes.c_int),
        ("archetype_count", ctypes.c_uint32),
    ]


class _Entity(ctypes.Structure):
    _fields_ = [
        ("id", ctypes.c_uint32),
        ("archetype", ctypes.c_uint32),
        ("x", ctypes.c_float), ("y", ctypes.c_float), ("z", ctypes.c_float),
        ("heading", ctypes.c_float),
        ("vx", ctypes.c_float), ("vy", ctypes.c_float),
        ("turn_rate", ctypes.c_float),
    ]


class _Player(ctypes.Structure):
    _fields_ = [("x", ctypes.c_float), ("y", ctypes.c_float), ("vx", ctypes.c_float), ("vy", ctypes.c_float)]


class _Circle(ctypes.Structure):
    _fields_ = [("x", ctypes.c_float), ("y", ctypes.c_float), ("radius", ctypes.c_float)]


class _Segment(ctypes.Structure):
    _fields_ = [("ax", ctypes.c_float), ("ay", ctypes.c_float), ("bx", ctypes.c_float), ("by", ctypes.c_float)]


class _ControlMessage(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int32),
        ("sequence", ctypes.c_uint32),
        ("ok", ctypes.c_int32),
        ("event_kind", ctypes.c_int32),
        ("agent", ctypes.c_uint32),
        ("other", ctypes.c_uint32),
        ("tick", ctypes.c_uint64),
        ("x", ctypes.c_float), ("y", ctypes.c_float),
        ("error", ctypes.c_char * 160),
    ]


class _Stats(ctypes.Structure):
    _fields_ = [
        ("snapshots", ctypes.c_uint64),
        ("datagrams_in", ctypes.c_uint64), ("datagrams_out", ctypes.c_uint64),
        ("bytes_in", ctypes.c_uint64), ("bytes_out", ctypes.c_uint64),
        ("decode_failures", ctypes.c_uint64),
        ("commands_sent", ctypes.c_uint64), ("commands_acknowledged", ctypes.c_uint64),
        ("messages_received", ctypes.c_uint64), ("messages_dropped", ctypes.c_uint64),
        ("rtt_ms", ctypes.c_double),
        ("server_tick", ctypes.c_double),
    ]


# --- What the wrappers hand out ---------------------------------------------------------------------

@dataclass(frozen=True)
class Entity:
    """An entity as drawn at a render time (m, radians counter-clockwise from +x, m/s, rad/s)."""
    id: int
    archetype: int
    x: float
    y: float
    z: float
    heading: float
    vx: float
    vy: float
    turn_rate: float


@dataclass(frozen=True)
class Player:
    """The own player as predicted (intent mode)."""
    x: float
    y: float
    vx: float
    vy: float


@dataclass(frozen=True)
class ServerInfo:
    client_id: int
    player_entity: int  # NO_ENTITY: no body
    tick_rate: float
    send_rate: float
    min_x: float
    min_y: float
    max_x: float
    max_y: float
    player_radius: float
    player_max_speed: float
    player_intents: bool  # True: move the player with set_move, else set_player
    control_allowed: bool  # True: this client has the control role
    archetype_count: int


@dataclass(frozen=True)
class Circle:
    x: float
    y: float
    radius: float


@dataclass(frozen=True)
class Segment:
    ax: float
    ay: float
    bx: float
    by: float


@dataclass(frozen=True)
class ControlMessage:
    """A command's result (kind RESULT: sequence, ok, error; agent is a spawn's new id) or an event
    (kind EVENT: event_kind, agent, other, tick, x, y)."""
    kind: int  # MessageKind
    sequence: int
    ok: bool
    event_kind: int  # EventKind
    agent: int
    other: int
    tick: int
    x: float
    y: float
    error: str

    @property
    def is_result(self) -> bool:
        return self.kind == MessageKind.RESULT

    @property
    def is_event(self) -> bool:
        return self.kind == MessageKind.EVENT


@dataclass(frozen=True)
class Stats:
    snapshots: int
    datagrams_in: int
    datagrams_out: int
    bytes_in: int
    bytes_out: int
    decode_failures: int
    commands_sent: int
    commands_acknowledged: int
    messages_received: int
    messages_dropped: int
    rtt_ms: float
    server_tick: float


def _plain(struct: ctypes.Structure, cls):
    return cls(*(getattr(struct, name) for name, *_ in struct._fields_))


# --- Loading the library ----------------------------------------------------------------------------

_lib: Optional[ctypes.CDLL] = None
_P = ctypes.POINTER
_client_p = ctypes.c_void_p
_SIGNATURES = {
    # name: (restype, argtypes)
    "steerd_client_abi_version": (ctypes.c_int, []),
    "steerd_status_name": (ctypes.c_char_p, [ctypes.c_int]),
    "steerd_client_create": (ctypes.c_int, [_P(_Options), _P(_client_p)]),
    "steerd_client_destroy": (None, [_client_p]),
    "steerd_client_last_error": (ctypes.c_char_p, [_client_p]),
    "steerd_client_connect": (ctypes.c_int, [_client_p, ctypes.c_double]),
    "steerd_client_update": (ctypes.c_int, [_client_p, ctypes.c_double]),
    "steerd_client_disconnect": (ctypes.c_int, [_client_p]),
    "steerd_client_state": (ctypes.c_int, [_client_p]),
    "steerd_client_server_info": (ctypes.c_int, [_client_p, _P(_ServerInfo)]),
    "steerd_client_archetype_name": (ctypes.c_int, [_client_p, ctypes.c_uint32, ctypes.c_char_p, ctypes.c_size_t]),
    "steerd_client_entities": (ctypes.c_int, [_client_p, ctypes.c_double, _P(_Entity), ctypes.c_size_t,
                                              _P(ctypes.c_size_t)]),
    "steerd_client_predicted_player": (ctypes.c_int, [_client_p, ctypes.c_double, _P(_Player)]),
    "steerd_client_set_move": (ctypes.c_int, [_client_p, ctypes.c_float, ctypes.c_float]),
    "steerd_client_set_player": (ctypes.c_int, [_client_p, ctypes.c_float, ctypes.c_float, ctypes.c_float,
                                                ctypes.c_float]),
    "steerd_client_scene_obstacles": (ctypes.c_int, [_client_p, _P(_Circle), ctypes.c_size_t, _P(ctypes.c_size_t),
                                                     _P(ctypes.c_int)]),
    "steerd_client_scene_walls": (ctypes.c_int, [_client_p, _P(_Segment), ctypes.c_size_t, _P(ctypes.c_size_t),
                                                 _P(ctypes.c_int)]),
    "steerd_client_scene_version": (ctypes.c_int, [_client_p, _P(ctypes.c_uint32)]),
    "steerd_client_spawn": (ctypes.c_int, [_client_p, ctypes.c_char_p, ctypes.c_float, ctypes.c_float,
                                           _P(ctypes.c_uint32)]),
    "steerd_client_move_to": (ctypes.c_int, [_client_p, ctypes.c_uint32, ctypes.c_float, ctypes.c_float,
                                             _P(ctypes.c_uint32)]),
    "steerd_client_despawn": (ctypes.c_int, [_client_p, ctypes.c_uint32, _P(ctypes.c_uint32)]),
    "steerd_client_send_command": (ctypes.c_int, [_client_p, ctypes.c_char_p, ctypes.c_size_t,
                                                  _P(ctypes.c_uint32)]),
    "steerd_client_take_messages": (ctypes.c_int, [_client_p, _P(_ControlMessage), ctypes.c_size_t,
                                                   _P(ctypes.c_size_t)]),
    "steerd_client_take_message_bytes": (ctypes.c_int, [_client_p, ctypes.c_char_p, ctypes.c_size_t,
                                                        _P(ctypes.c_size_t)]),
    "steerd_client_stats": (ctypes.c_int, [_client_p, ctypes.c_double, _P(_Stats)]),
}


def _candidates() -> List[str]:
    env = os.environ.get("STEERD_CLIENT_LIB")
    if env:
        return [env]  # asked for by name: that one or nothing
    here = os.path.dirname(os.path.abspath(__file__))
    found = [os.path.join(here, n) for n in ("libsteerd-client.so", "libsteerd-client.so.1",
                                             "libsteerd-client.dylib", "steerd-client.dll")
             if os.path.exists(os.path.join(here, n))]
    system = ctypes.util.find_library("steerd-client")
    if system:
        found.append(system)
    return found


def library() -> ctypes.CDLL:
    """The loaded C library (loaded, typed and ABI-checked on first use)."""
    global _lib
    if _lib is not None:
        return _lib
    candidates = _candidates()
    if not candidates:
        raise SteerdError(-1, "NOT_FOUND", "libsteerd-client not found: set STEERD_CLIENT_LIB to its path, put it "
                          "next to steerd_client.py, or install it on the library path", "load")
    errors = []
    for path in candidates:
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError as e:
            errors.append(f"{path}: {e}")
    else:
        raise SteerdError(-1, "NOT_FOUND", "; ".join(errors), "load")
    for name, (restype, argtypes) in _SIGNATURES.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            raise SteerdError(-1, "ABI_MISMATCH", f"{path} has no {name}", "load") from None
        fn.restype, fn.argtypes = restype, argtypes
    version = lib.steerd_client_abi_version()
    if version != ABI_VERSION:
        raise SteerdError(-1, "ABI_MISMATCH", f"{path} has ABI version {version}, these bindings were written for "
                          f"{ABI_VERSION}", "load")
    _lib = lib
    return lib


def status_name(status: int) -> str:
    name = library().steerd_status_name(int(status))
    return name.decode() if name else f"status {int(status)}"


def _now(now: Optional[float]) -> float:
    return time.monotonic() if now is None else float(now)


# --- The client -------------------------------------------------------------------------------------

class Client:
    """One connection to a steerd server (steerd_client). Use it as a context manager, or call
    close(): it says goodbye if connected and frees the library's client."""

    def __init__(self, server: str, token: Optional[bytes] = None, no_body: bool = False,
                 fetch_scene: bool = False, connect_timeout: float = 0.0):
        self._lib = library()
        self._handle = ctypes.c_void_p()
        self._server = server.encode()  # kept alive as long as the client, whatever the library copies
        self._token = (ctypes.c_uint8 * len(token)).from_buffer_copy(token) if token else None
        options = _Options(self._server,
                           ctypes.cast(self._token, _P(ctypes.c_uint8)) if self._token else None,
                           len(token) if token else 0, int(bool(no_body)), int(bool(fetch_scene)),
                           float(connect_timeout))
        status = self._lib.steerd_client_create(ctypes.byref(options), ctypes.byref(self._handle))
        if status != Status.OK:
            # No client, so no steerd_client_last_error: the header's statuses say what it was.
            self._handle = ctypes.c_void_p()
            raise SteerdError(status, status_name(status), f"server {server!r}: not a host:port that resolves, or a "
                              "bad token or connect_timeout" if status == Status.ERR_BAD_ARGUMENT else "", "create")
        self._entities = (_Entity * 256)()
        self._messages = (_ControlMessage * 64)()

    # lifetime
    def close(self) -> None:
        if self._handle:
            self._lib.steerd_client_destroy(self._handle)
            self._handle = ctypes.c_void_p()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    @property
    def closed(self) -> bool:
        return not self._handle

    def _check(self, status: int, call: str) -> None:
        if status != Status.OK:
            raise SteerdError(status, status_name(status), self.last_error, call)

    def _h(self):
        if not self._handle:
            raise SteerdError(Status.ERR_NULL, status_name(Status.ERR_NULL), "the client is closed")
        return self._handle

    @property
    def last_error(self) -> str:
        message = self._lib.steerd_client_last_error(self._handle if self._handle else None)
        return message.decode(errors="replace") if message else ""

    # connection
    def connect(self, now: Optional[float] = None) -> None:
        self._check(self._lib.steerd_client_connect(self._h(), _now(now)), "connect")

    def update(self, now: Optional[float] = None) -> None:
        """Reads what arrived and does the timed work: call it every frame (at least 30 Hz)."""
        self._check(self._lib.steerd_client_update(self._h(), _now(now)), "update")

    def disconnect(self) -> None:
        self._check(self._lib.steerd_client_disconnect(self._h()), "disconnect")

    @property
    def state(self) -> State:
        s = self._lib.steerd_client_state(self._h())
        try:
            return State(s)
        except ValueError:
            return s

    def wait_connected(self, timeout: float = 10.0, poll: float = 1 / 60) -> None:
        """Updates until connected; raises SteerdError (ERR_STATE) when refused, timed out or failed."""
        deadline = time.monotonic() + timeout
        while True:
            self.update()
            state = self.state
            if state == State.CONNECTED:
                return
            if state not in (State.CONNECTING, State.IDLE) or time.monotonic() > deadline:
                raise SteerdError(Status.ERR_STATE, status_name(Status.ERR_STATE),
                                  f"{getattr(state, 'name', state)}: {self.last_error}", "wait_connected")
            time.sleep(poll)

    # what the server said
    def server_info(self) -> ServerInfo:
        out = _ServerInfo()
        self._check(self._lib.steerd_client_server_info(self._h(), ctypes.byref(out)), "server_info")
        return dataclasses.replace(_plain(out, ServerInfo), player_intents=bool(out.player_intents),
                                   control_allowed=bool(out.control_allowed))

    def archetype_name(self, index: int) -> str:
        capacity = 64
        while True:
            buffer = ctypes.create_string_buffer(capacity)
            status = self._lib.steerd_client_archetype_name(self._h(), index, buffer, capacity)
            if status == Status.ERR_BUFFER_TOO_SMALL and capacity < 65536:
                capacity *= 4
                continue
            self._check(status, "archetype_name")
            return buffer.value.decode(errors="replace")

    def archetype_names(self) -> List[str]:
        return [self.archetype_name(i) for i in range(self.server_info().archetype_count)]

    # drawing
    def entities(self, now: Optional[float] = None) -> List[Entity]:
        """The entities interpolated for drawing at `now` ([] before the first snapshot)."""
        now = _now(now)
        count = ctypes.c_size_t()
        while True:
            status = self._lib.steerd_client_entities(self._h(), now, self._entities, len(self._entities),
                                                      ctypes.byref(count))
            if status == Status.ERR_BUFFER_TOO_SMALL and count.value > len(self._entities):
                self._entities = (_Entity * max(count.value, 2 * len(self._entities)))()
                continue
            self._check(status, "entities")
            return [_plain(self._entities[i], Entity) for i in range(count.value)]

    def predicted_player(self, now: Optional[float] = None) -> Optional[Player]:
        """The own player predicted at `now` (intent mode); None before the server first reported it."""
        out = _Player()
        status = self._lib.steerd_client_predicted_player(self._h(), _now(now), ctypes.byref(out))
        if status == Status.ERR_STATE:
            return None
        self._check(status, "predicted_player")
        return _plain(out, Player)

    # the player's input
    def set_move(self, mx: float, my: float) -> None:
        """Intent mode: the direction to move in (length <= 1: the share of max speed)."""
        self._check(self._lib.steerd_client_set_move(self._h(), mx, my), "set_move")

    def set_player(self, x: float, y: float, vx: float = 0.0, vy: float = 0.0) -> None:
        """Position mode: where the player is and its velocity."""
        self._check(self._lib.steerd_client_set_player(self._h(), x, y, vx, vy), "set_player")

    # the static scene
    def _scene(self, fn, cls, plain, call) -> Tuple[list, bool]:
        capacity, count, complete = 256, ctypes.c_size_t(), ctypes.c_int()
        while True:
            buffer = (cls * capacity)()
            status = fn(self._h(), buffer, capacity, ctypes.byref(count), ctypes.byref(complete))
            if status == Status.ERR_BUFFER_TOO_SMALL and count.value > capacity:
                capacity = count.value
                continue
            self._check(status, call)
            return [_plain(buffer[i], plain) for i in range(count.value)], bool(complete.value)

    def scene_obstacles(self) -> Tuple[List[Circle], bool]:
        """The scene's circles, and whether every part has arrived (fetch_scene=True)."""
        return self._scene(self._lib.steerd_client_scene_obstacles, _Circle, Circle, "scene_obstacles")

    def scene_walls(self) -> Tuple[List[Segment], bool]:
        """The scene's wall segments, and whether every part has arrived (fetch_scene=True)."""
        return self._scene(self._lib.steerd_client_scene_walls, _Segment, Segment, "scene_walls")

    def scene_version(self) -> int:
        """The scene's version held: it moves when a door or an obstacle changed (read the scene again)."""
        version = ctypes.c_uint32()
        self._check(self._lib.steerd_client_scene_version(self._h(), ctypes.byref(version)), "scene_version")
        return version.value

    # the control channel (the control role); each returns the command's sequence number
    def spawn(self, archetype: str, x: float, y: float) -> int:
        seq = ctypes.c_uint32()
        self._check(self._lib.steerd_client_spawn(self._h(), archetype.encode(), x, y, ctypes.byref(seq)), "spawn")
        return seq.value

    def move_to(self, agent: int, x: float, y: float) -> int:
        seq = ctypes.c_uint32()
        self._check(self._lib.steerd_client_move_to(self._h(), agent, x, y, ctypes.byref(seq)), "move_to")
        return seq.value

    def despawn(self, agent: int) -> int:
        seq = ctypes.c_uint32()
        self._check(self._lib.steerd_client_despawn(self._h(), agent, ctypes.byref(seq)), "despawn")
        return seq.value

    def send_command(self, command: bytes) -> int:
        """Any command: a serialized steerd.control.Command (its sequence is set by the library)."""
        seq = ctypes.c_uint32()
        self._check(self._lib.steerd_client_send_command(self._h(), bytes(command), len(command), ctypes.byref(seq)),
                    "send_command")
        return seq.value

    def take_messages(self) -> List[ControlMessage]:
        """Results and events received since the last call, in the server's order, each once."""
        out, count = [], ctypes.c_size_t()
        while True:  # a bufferful at a time, until fewer come
            status = self._lib.steerd_client_take_messages(self._h(), self._messages, len(self._messages),
                                                           ctypes.byref(count))
            self._check(status, "take_messages")
            n = min(count.value, len(self._messages))
            for m in self._messages[:n]:
                out.append(ControlMessage(m.kind, m.sequence, bool(m.ok), m.event_kind, m.agent, m.other, m.tick, m.x,
                                          m.y, m.error.decode(errors="replace")))
            if n < len(self._messages):
                return out

    def take_message_bytes(self) -> Optional[bytes]:
        """The next message whole, as a serialized steerd.wire.ControlMessage; None when none."""
        size = ctypes.c_size_t()
        capacity = 1024
        while True:
            buffer = ctypes.create_string_buffer(capacity)
            status = self._lib.steerd_client_take_message_bytes(self._h(), buffer, capacity, ctypes.byref(size))
            if status == Status.ERR_BUFFER_TOO_SMALL and size.value > capacity:
                capacity = size.value
                continue
            self._check(status, "take_message_bytes")
            return buffer.raw[:size.value] if size.value else None

    def stats(self, now: Optional[float] = None) -> Stats:
        out = _Stats()
        self._check(self._lib.steerd_client_stats(self._h(), _now(now), ctypes.byref(out)), "stats")
        return _plain(out, Stats)
