// SteerdClient.cs: C# bindings (P/Invoke) for the steerd client library's C API
// (client-viewer/capi/steerd_client.h is the contract; docs/ENGINES.md).
//
// One file, no engine types, no unsafe code: drop it into a Unity project (Assets/, with
// libsteerd-client.so / steerd-client.dll / libsteerd-client.dylib under Assets/Plugins/) or a Godot
// .NET project (the library next to the executable or on the library path), or any .NET or Mono
// program. [DllImport("steerd-client")] finds libsteerd-client.so on Linux, steerd-client.dll on
// Windows, libsteerd-client.dylib on macOS.
//
//   using (var c = new Steerd.SteerdClient("127.0.0.1:7777")) {
//     c.Connect(now);
//     ... every frame: c.Update(now); c.SetMove(mx, my); var n = c.GetEntities(now, ref buffer);
//   }
//
// Time: every call that needs the time takes `now`, seconds on a monotonic clock of the caller's
// (Unity: Time.realtimeSinceStartupAsDouble; Godot: Time.GetTicksUsec() / 1e6; else
// SteerdClient.MonotonicNow()). Threads: a client is not thread-safe; call it from one thread
// (the game's main thread). Errors: a failed call throws SteerdException (the status, its name and
// the library's message).
using System;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;

namespace Steerd
{
    public enum SteerdStatus
    {
        Ok = 0,
        ErrNull = 1,
        ErrBadArgument = 2,
        ErrState = 3,
        ErrBufferTooSmall = 4,
        ErrNotAllowed = 5,
        ErrFull = 6,
        ErrInternal = 7,
    }

    public enum ConnectionState
    {
        Idle = 0,
        Connecting = 1,
        Connected = 2,
        Refused = 3,
        TimedOut = 4,
        Disconnected = 5,
        Failed = 6,
    }

    public enum MessageKind
    {
        Result = 1,
        Event = 2,
    }

    // steerd.control.EventKind (proto/control.proto).
    public enum EventKind
    {
        Unspecified = 0,
        Spawned = 1,
        Despawned = 2,
        StateChanged = 3,
        Arrived = 4,
        TargetLost = 5,
        Sighted = 6,
        LostSight = 7,
        Caught = 8,
        PathFailed = 9,
        Overflow = 10,
    }

    // steerd_server_info
    [StructLayout(LayoutKind.Sequential)]
    public struct ServerInfo
    {
        public uint ClientId;
        public uint PlayerEntity;     // the own body's id in entities; NoEntity: none (NoBody)
        public double TickRate;       // ticks per second
        public double SendRate;       // snapshots per second
        public float MinX, MinY, MaxX, MaxY; // world bounds, m
        public float PlayerRadius, PlayerMaxSpeed;
        public int PlayerIntents;     // 1: move the player with SetMove, 0: with SetPlayer
        public int ControlAllowed;    // 1: this client has the control role
        public uint ArchetypeCount;

        public const uint NoEntity = 0xffffffff;
    }

    // steerd_entity: an entity as drawn at a render time.
    [StructLayout(LayoutKind.Sequential)]
    public struct Entity
    {
        public uint Id;
        public uint Archetype;
        public float X, Y;     // m
        public float Z;        // m: the ground's height under it on a level with heights, else 0
        public float Heading;  // radians, counter-clockwise from +x, (-pi, pi]
        public float Vx, Vy;   // m/s
        public float TurnRate; // rad/s
    }

    // steerd_player: the own player predicted (intent mode).
    [StructLayout(LayoutKind.Sequential)]
    public struct Player
    {
        public float X, Y, Vx, Vy;
    }

    // steerd_circle
    [StructLayout(LayoutKind.Sequential)]
    public struct Circle
    {
        public float X, Y, Radius;
    }

    // steerd_segment
    [StructLayout(LayoutKind.Sequential)]
    public struct Segment
    {
        public float Ax, Ay, Bx, By;
    }

    // steerd_control_message: a command's result or an event.
    [StructLayout(LayoutKind.Sequential, CharSet = CharSet.Ansi)]
    public struct ControlMessage
    {
        public int Kind;       // MessageKind
        public uint Sequence;  // a result: the command's
        public int Ok;         // a result: 1 applied, 0 refused (Error says why)
        public int EventKind;  // an event: EventKind
        public uint Agent;     // the agent it is about (spawn: the new id)
        public uint Other;     // an event's other agent (Caught, TargetLost)
        public ulong Tick;
        public float X, Y;     // an event's position
        [MarshalAs(UnmanagedType.ByValTStr, SizeConst = 160)]
        public string Error;   // a refused result's reason

        public bool IsResult { get { return Kind == (int)MessageKind.Result; } }
        public bool IsEvent { get { return Kind == (int)MessageKind.Event; } }
        public bool Applied { get { return Ok != 0; } }
    }

    // steerd_stats
    [StructLayout(LayoutKind.Sequential)]
    public struct Stats
    {
        public ulong Snapshots;  // complete snapshots received
        public ulong DatagramsIn, DatagramsOut, BytesIn, BytesOut;
        public ulong DecodeFailures;
        public ulong CommandsSent, CommandsAcknowledged;
        public ulong MessagesReceived, MessagesDropped;
        public double RttMs;
        public double ServerTick; // estimated now
    }

    public class SteerdException : Exception
    {
        public readonly SteerdStatus Status;
        public readonly string StatusName;      // steerd_status_name's words for it
        public readonly string LibraryMessage;  // steerd_client_last_error

        public SteerdException(SteerdStatus status, string statusName, string message, string call)
            : base((string.IsNullOrEmpty(call) ? "" : call + ": ") + status + " (" + statusName + ")" +
                   (string.IsNullOrEmpty(message) ? "" : ": " + message))
        {
            Status = status;
            StatusName = statusName;
            LibraryMessage = message;
        }
    }

    // The client handle: steerd_client_destroy when disposed or collected.
    public sealed class SteerdClientHandle : SafeHandle
    {
        internal IntPtr Server;  // the options' memory, kept as long as the client
        internal IntPtr Token;

        public SteerdClientHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            NativeMethods.steerd_client_destroy(handle);
            FreeOptions();
            return true;
        }

        internal void FreeOptions()
        {
            if (Server != IntPtr.Zero) Marshal.FreeHGlobal(Server);
            if (Token != IntPtr.Zero) Marshal.FreeHGlobal(Token);
            Server = IntPtr.Zero;
            Token = IntPtr.Zero;
        }
    }

    // The header's functions, one for one.
    public static class NativeMethods
    {
        public const string Library = "steerd-client";
        public const int AbiVersion = 1; // STEERD_CLIENT_ABI_VERSION these bindings were written against

        [StructLayout(LayoutKind.Sequential)]
        public struct Options
        {
            public IntPtr Server;      // const char*: "host:port"
            public IntPtr Token;       // const uint8_t*, or zero
            public UIntPtr TokenSize;  // size_t
            public int NoBody;
            public int FetchScene;
            public double ConnectTimeout;
        }

        [DllImport(Library)] public static extern int steerd_client_abi_version();
        [DllImport(Library)] public static extern IntPtr steerd_status_name(SteerdStatus status);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_create(ref Options options, out SteerdClientHandle client);
        [DllImport(Library)] public static extern void steerd_client_destroy(IntPtr client);
        [DllImport(Library)] public static extern IntPtr steerd_client_last_error(SteerdClientHandle client);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_connect(SteerdClientHandle client, double now);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_update(SteerdClientHandle client, double now);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_disconnect(SteerdClientHandle client);
        [DllImport(Library)] public static extern ConnectionState steerd_client_state(SteerdClientHandle client);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_server_info(SteerdClientHandle client, out ServerInfo info);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_archetype_name(SteerdClientHandle client, uint index, [Out] byte[] buffer, UIntPtr capacity);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_entities(SteerdClientHandle client, double now, [Out] Entity[] entities, UIntPtr capacity, out UIntPtr count);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_predicted_player(SteerdClientHandle client, double now, out Player player);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_set_move(SteerdClientHandle client, float mx, float my);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_set_player(SteerdClientHandle client, float x, float y, float vx, float vy);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_scene_obstacles(SteerdClientHandle client, [Out] Circle[] circles, UIntPtr capacity, out UIntPtr count, out int complete);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_scene_walls(SteerdClientHandle client, [Out] Segment[] walls, UIntPtr capacity, out UIntPtr count, out int complete);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_scene_version(SteerdClientHandle client, out uint version);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_spawn(SteerdClientHandle client, byte[] archetype, float x, float y, out uint sequence);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_move_to(SteerdClientHandle client, uint agent, float x, float y, out uint sequence);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_despawn(SteerdClientHandle client, uint agent, out uint sequence);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_send_command(SteerdClientHandle client, byte[] command, UIntPtr size, out uint sequence);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_take_messages(SteerdClientHandle client, [Out] ControlMessage[] messages, UIntPtr capacity, out UIntPtr count);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_take_message_bytes(SteerdClientHandle client, [Out] byte[] buffer, UIntPtr capacity, out UIntPtr size);
        [DllImport(Library)] public static extern SteerdStatus steerd_client_stats(SteerdClientHandle client, double now, out Stats stats);

        // A NUL-terminated UTF-8 string the library owns, copied.
        public static string Utf8(IntPtr p)
        {
            if (p == IntPtr.Zero) return "";
            int n = 0;
            while (Marshal.ReadByte(p, n) != 0) n++;
            var bytes = new byte[n];
            Marshal.Copy(p, bytes, 0, n);
            return Encoding.UTF8.GetString(bytes);
        }

        public static string Utf8(byte[] buffer)
        {
            int n = Array.IndexOf(buffer, (byte)0);
            return Encoding.UTF8.GetString(buffer, 0, n < 0 ? buffer.Length : n);
        }

        public static byte[] Utf8z(string s)
        {
            var bytes = Encoding.UTF8.GetBytes(s ?? "");
            Array.Resize(ref bytes, bytes.Length + 1);
            return bytes;
        }

        public static string StatusName(SteerdStatus status)
        {
            return Utf8(steerd_status_name(status));
        }

        static bool checkedAbi;

        // Loads the library and checks its ABI version (once; throws SteerdException when missing or
        // different).
        public static void CheckAbi()
        {
            if (checkedAbi) return;
            int version;
            try
            {
                version = steerd_client_abi_version();
            }
            catch (DllNotFoundException e)
            {
                throw new SteerdException(SteerdStatus.ErrInternal, "NOT_FOUND",
                    "lib" + Library + ".so / " + Library + ".dll not found (put it on the library path or in " +
                    "Plugins/): " + e.Message, "load");
            }
            catch (EntryPointNotFoundException e)
            {
                throw new SteerdException(SteerdStatus.ErrInternal, "ABI_MISMATCH", e.Message, "load");
            }
            if (version != AbiVersion)
                throw new SteerdException(SteerdStatus.ErrInternal, "ABI_MISMATCH",
                    "the library has ABI version " + version + ", these bindings were written for " + AbiVersion,
                    "load");
            checkedAbi = true;
        }
    }

    // One connection to a steerd server (steerd_client). Dispose() says goodbye if connected and
    // frees it.
    public sealed class SteerdClient : IDisposable
    {
        readonly SteerdClientHandle handle;
        ControlMessage[] messages;

        // Seconds on a monotonic clock, for programs without an engine's clock.
        public static double MonotonicNow()
        {
            return Stopwatch.GetTimestamp() / (double)Stopwatch.Frequency;
        }

        public SteerdClient(string server, byte[] token = null, bool noBody = false, bool fetchScene = false,
                            double connectTimeout = 0)
        {
            NativeMethods.CheckAbi();
            var options = new NativeMethods.Options();
            IntPtr serverMemory = IntPtr.Zero, tokenMemory = IntPtr.Zero;
            var serverBytes = NativeMethods.Utf8z(server);
            serverMemory = Marshal.AllocHGlobal(serverBytes.Length);
            Marshal.Copy(serverBytes, 0, serverMemory, serverBytes.Length);
            options.Server = serverMemory;
            if (token != null && token.Length > 0)
            {
                tokenMemory = Marshal.AllocHGlobal(token.Length);
                Marshal.Copy(token, 0, tokenMemory, token.Length);
                options.Token = tokenMemory;
                options.TokenSize = new UIntPtr((uint)token.Length);
            }
            options.NoBody = noBody ? 1 : 0;
            options.FetchScene = fetchScene ? 1 : 0;
            options.ConnectTimeout = connectTimeout;
            SteerdClientHandle h;
            var status = NativeMethods.steerd_client_create(ref options, out h);
            if (status != SteerdStatus.Ok || h == null || h.IsInvalid)
            {
                // No client, so no steerd_client_last_error: the header's statuses say what it was.
                string message = status == SteerdStatus.ErrBadArgument
                    ? "server '" + server + "': not a host:port that resolves, or a bad token or connectTimeout" : "";
                if (h != null) h.Dispose();
                Marshal.FreeHGlobal(serverMemory);
                if (tokenMemory != IntPtr.Zero) Marshal.FreeHGlobal(tokenMemory);
                throw new SteerdException(status, NativeMethods.StatusName(status), message, "create");
            }
            h.Server = serverMemory;
            h.Token = tokenMemory;
            handle = h;
        }

        public void Dispose()
        {
            handle.Dispose();
        }

        public bool IsDisposed { get { return handle.IsClosed; } }

        // Why the last call failed, or the state's reason (refused, timed out).
        public string LastError
        {
            get { return handle.IsClosed ? "" : NativeMethods.Utf8(NativeMethods.steerd_client_last_error(handle)); }
        }

        void Check(SteerdStatus status, string call)
        {
            if (status != SteerdStatus.Ok)
                throw new SteerdException(status, NativeMethods.StatusName(status), LastError, call);
        }

        // Connection
        public void Connect(double now) { Check(NativeMethods.steerd_client_connect(handle, now), "connect"); }

        // Reads what arrived and does the timed work: every frame, or at least 30 times a second.
        public void Update(double now) { Check(NativeMethods.steerd_client_update(handle, now), "update"); }

        public void Disconnect() { Check(NativeMethods.steerd_client_disconnect(handle), "disconnect"); }

        public ConnectionState State { get { return NativeMethods.steerd_client_state(handle); } }

        // What the server said
        public ServerInfo GetServerInfo()
        {
            ServerInfo info;
            Check(NativeMethods.steerd_client_server_info(handle, out info), "server_info");
            return info;
        }

        public string ArchetypeName(uint index)
        {
            for (int capacity = 64; ; capacity *= 4)
            {
                var buffer = new byte[capacity];
                var status = NativeMethods.steerd_client_archetype_name(handle, index, buffer, new UIntPtr((uint)capacity));
                if (status == SteerdStatus.ErrBufferTooSmall && capacity < 65536) continue;
                Check(status, "archetype_name");
                return NativeMethods.Utf8(buffer);
            }
        }

        // The entities interpolated for drawing at `now`, into `buffer` (grown when too small; reuse
        // it every frame): returns how many there are.
        public int GetEntities(double now, ref Entity[] buffer)
        {
            if (buffer == null || buffer.Length == 0) buffer = new Entity[256];
            while (true)
            {
                UIntPtr count;
                var status = NativeMethods.steerd_client_entities(handle, now, buffer, new UIntPtr((uint)buffer.Length), out count);
                int n = (int)count.ToUInt64();
                if (status == SteerdStatus.ErrBufferTooSmall && n > buffer.Length)
                {
                    buffer = new Entity[Math.Max(n, 2 * buffer.Length)];
                    continue;
                }
                Check(status, "entities");
                return Math.Min(n, buffer.Length);
            }
        }

        // The own player predicted at `now` (intent mode); false before the server's first report.
        public bool TryGetPredictedPlayer(double now, out Player player)
        {
            var status = NativeMethods.steerd_client_predicted_player(handle, now, out player);
            if (status == SteerdStatus.ErrState) return false;
            Check(status, "predicted_player");
            return true;
        }

        // Intent mode: the direction to move in (length <= 1: the share of max speed).
        public void SetMove(float mx, float my) { Check(NativeMethods.steerd_client_set_move(handle, mx, my), "set_move"); }

        // Position mode: where the player is and its velocity.
        public void SetPlayer(float x, float y, float vx, float vy)
        {
            Check(NativeMethods.steerd_client_set_player(handle, x, y, vx, vy), "set_player");
        }

        // The static scene (fetchScene): returns whether every part has arrived.
        public bool GetSceneObstacles(out Circle[] circles)
        {
            for (int capacity = 256; ; )
            {
                var buffer = new Circle[capacity];
                UIntPtr count;
                int complete;
                var status = NativeMethods.steerd_client_scene_obstacles(handle, buffer, new UIntPtr((uint)capacity), out count, out complete);
                int n = (int)count.ToUInt64();
                if (status == SteerdStatus.ErrBufferTooSmall && n > capacity) { capacity = n; continue; }
                Check(status, "scene_obstacles");
                Array.Resize(ref buffer, Math.Min(n, capacity));
                circles = buffer;
                return complete != 0;
            }
        }

        public bool GetSceneWalls(out Segment[] walls)
        {
            for (int capacity = 256; ; )
            {
                var buffer = new Segment[capacity];
                UIntPtr count;
                int complete;
                var status = NativeMethods.steerd_client_scene_walls(handle, buffer, new UIntPtr((uint)capacity), out count, out complete);
                int n = (int)count.ToUInt64();
                if (status == SteerdStatus.ErrBufferTooSmall && n > capacity) { capacity = n; continue; }
                Check(status, "scene_walls");
                Array.Resize(ref buffer, Math.Min(n, capacity));
                walls = buffer;
                return complete != 0;
            }
        }

        // The scene's version held: it moves when a door or an obstacle changed (read the scene again).
        public uint SceneVersion
        {
            get
            {
                uint version;
                Check(NativeMethods.steerd_client_scene_version(handle, out version), "scene_version");
                return version;
            }
        }

        // The control channel (the control role). Each returns the command's sequence number, which
        // its result carries.
        public uint Spawn(string archetype, float x, float y)
        {
            uint sequence;
            Check(NativeMethods.steerd_client_spawn(handle, NativeMethods.Utf8z(archetype), x, y, out sequence), "spawn");
            return sequence;
        }

        public uint MoveTo(uint agent, float x, float y)
        {
            uint sequence;
            Check(NativeMethods.steerd_client_move_to(handle, agent, x, y, out sequence), "move_to");
            return sequence;
        }

        public uint Despawn(uint agent)
        {
            uint sequence;
            Check(NativeMethods.steerd_client_despawn(handle, agent, out sequence), "despawn");
            return sequence;
        }

        // Any command: a serialized steerd.control.Command (its sequence is set by the library).
        public uint SendCommand(byte[] command)
        {
            uint sequence;
            Check(NativeMethods.steerd_client_send_command(handle, command, new UIntPtr((uint)command.Length), out sequence), "send_command");
            return sequence;
        }

        // Results and events received since the last call, in the server's order, each once. Taken
        // a few at a time (each call converts the whole buffer's error strings), until fewer come.
        public ControlMessage[] TakeMessages()
        {
            if (messages == null) messages = new ControlMessage[32];
            ControlMessage[] taken = null;
            int total = 0;
            while (true)
            {
                UIntPtr count;
                Check(NativeMethods.steerd_client_take_messages(handle, messages, new UIntPtr((uint)messages.Length), out count), "take_messages");
                int n = Math.Min((int)count.ToUInt64(), messages.Length);
                if (taken == null) taken = new ControlMessage[n];
                else Array.Resize(ref taken, total + n);
                Array.Copy(messages, 0, taken, total, n);
                total += n;
                if (n < messages.Length) return taken;
            }
        }

        // The next message whole, a serialized steerd.wire.ControlMessage; null when none.
        public byte[] TakeMessageBytes()
        {
            for (int capacity = 1024; ; )
            {
                var buffer = new byte[capacity];
                UIntPtr size;
                var status = NativeMethods.steerd_client_take_message_bytes(handle, buffer, new UIntPtr((uint)capacity), out size);
                int n = (int)size.ToUInt64();
                if (status == SteerdStatus.ErrBufferTooSmall && n > capacity) { capacity = n; continue; }
                Check(status, "take_message_bytes");
                if (n == 0) return null;
                Array.Resize(ref buffer, n);
                return buffer;
            }
        }

        public Stats GetStats(double now)
        {
            Stats stats;
            Check(NativeMethods.steerd_client_stats(handle, now, out stats), "stats");
            return stats;
        }
    }
}
