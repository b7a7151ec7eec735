// Sample.cs: a console sample of SteerdClient.cs: connect, walk the player round a circle, spawn a
// few NPCs through the control role (steerd --allow-control), read the entities each frame (what
// a MonoBehaviour's Update or a Godot node's _Process does) and the control messages.
//
//   mcs -out:Sample.exe client-viewer/bindings/csharp/*.cs
//   LD_LIBRARY_PATH=build/ci/client-viewer/capi mono Sample.exe 127.0.0.1:7777 [SECONDS]
//
// Prints one line at the end, "csharp ok: N snapshots, walked X.X m, spawned K NPCs, E events", or
// "csharp FAIL: reason" (exit 1). Progress goes to stderr.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading;
using Steerd;

public static class Sample
{
    // steerd.control.Command { subscribe { kinds: [SPAWNED, DESPAWNED, ARRIVED] } }, encoded by hand
    // (field 15, length 5: Subscribe { field 1, packed, length 3: 1 2 4 }); or Google.Protobuf's
    // classes generated from proto/control.proto.
    static readonly byte[] Subscribe = { 0x7A, 0x05, 0x0A, 0x03, 0x01, 0x02, 0x04 };

    static int Fail(string reason)
    {
        Console.WriteLine("csharp FAIL: " + reason);
        return 1;
    }

    static string F(double v) { return v.ToString("0.0", CultureInfo.InvariantCulture); }

    public static int Main(string[] args)
    {
        if (args.Length < 1)
        {
            Console.Error.WriteLine("usage: Sample.exe HOST:PORT [SECONDS]");
            return 2;
        }
        string server = args[0];
        double seconds = args.Length > 1 ? double.Parse(args[1], CultureInfo.InvariantCulture) : 6.0;
        try
        {
            return Run(server, seconds);
        }
        catch (SteerdException e)
        {
            return Fail(e.Message);
        }
    }

    static int Run(string server, double seconds)
    {
        using (var client = new SteerdClient(server)) // no token: a server without --token-key
        {
            client.Connect(SteerdClient.MonotonicNow());
            double deadline = SteerdClient.MonotonicNow() + 10;
            while (client.State != ConnectionState.Connected)
            {
                client.Update(SteerdClient.MonotonicNow());
                var s = client.State;
                if (s == ConnectionState.Connected) break;
                if (s != ConnectionState.Connecting || SteerdClient.MonotonicNow() > deadline)
                    return Fail("not connected to " + server + ": " + s + ": " + client.LastError);
                Thread.Sleep(16);
            }
            ServerInfo info = client.GetServerInfo();
            var names = new List<string>();
            for (uint i = 0; i < info.ArchetypeCount; i++) names.Add(client.ArchetypeName(i));
            string npc = names.Find(n => n != "player") ?? (names.Count > 0 ? names[0] : "boid");
            Console.Error.WriteLine("csharp: connected as client " + info.ClientId + ", player entity " +
                                    info.PlayerEntity + ", archetypes [" + string.Join(", ", names) + "], intents " +
                                    info.PlayerIntents + ", control " + info.ControlAllowed);

            // Control: subscribe to events, then spawn a ring of 3 around the world's centre.
            var spawns = new Dictionary<uint, long>(); // sequence -> -1 waiting, -2 refused, else agent id
            var refusals = new List<string>();
            if (info.ControlAllowed != 0)
            {
                client.SendCommand(Subscribe);
                float cx = (info.MinX + info.MaxX) / 2, cy = (info.MinY + info.MaxY) / 2;
                for (int i = 0; i < 3; i++)
                {
                    double a = 2 * Math.PI * i / 3;
                    spawns[client.Spawn(npc, cx + 4 * (float)Math.Cos(a), cy + 4 * (float)Math.Sin(a))] = -1;
                }
            }

            var entities = new Entity[256];
            double walked = 0;
            bool haveLast = false, haveCentre = false;
            float lastX = 0, lastY = 0, centreX = 0, centreY = 0;
            const float radius = 3, omega = 1; // position mode: a circle 3 m round at 1 rad/s
            int events = 0;
            double start = SteerdClient.MonotonicNow(), nextPrint = start;
            while (true)
            {
                double now = SteerdClient.MonotonicNow();
                if (now - start > seconds) break;
                client.Update(now);
                float t = (float)(now - start);
                if (info.PlayerIntents != 0)
                {
                    // Intent mode: a direction turning at omega; the server moves the body, the library
                    // predicts it.
                    client.SetMove(0.8f * (float)Math.Cos(omega * t), 0.8f * (float)Math.Sin(omega * t));
                }
                else if (haveLast)
                {
                    if (!haveCentre) { centreX = lastX - radius; centreY = lastY; haveCentre = true; }
                    client.SetPlayer(centreX + radius * (float)Math.Cos(omega * t), centreY + radius * (float)Math.Sin(omega * t),
                                     -radius * omega * (float)Math.Sin(omega * t), radius * omega * (float)Math.Cos(omega * t));
                }

                // Render time: every entity interpolated at `now`; the player's body among them.
                int count = client.GetEntities(now, ref entities);
                bool haveHere = false;
                float hx = 0, hy = 0;
                for (int i = 0; i < count; i++)
                {
                    if (entities[i].Id != info.PlayerEntity) continue;
                    hx = entities[i].X; hy = entities[i].Y; haveHere = true;
                    break;
                }
                Player predicted;
                if (!haveHere && client.TryGetPredictedPlayer(now, out predicted))
                {
                    hx = predicted.X; hy = predicted.Y; haveHere = true;
                }
                if (haveHere)
                {
                    if (haveLast) walked += Math.Sqrt((hx - lastX) * (hx - lastX) + (hy - lastY) * (hy - lastY));
                    lastX = hx; lastY = hy; haveLast = true;
                }

                foreach (var m in client.TakeMessages())
                {
                    if (m.IsResult && spawns.ContainsKey(m.Sequence))
                    {
                        spawns[m.Sequence] = m.Applied ? (long)m.Agent : -2;
                        if (m.Applied) client.MoveTo(m.Agent, lastX, lastY); // come to the player
                        else refusals.Add(m.Error);
                    }
                    else if (m.IsEvent)
                    {
                        events++;
                    }
                }

                if (now >= nextPrint)
                {
                    nextPrint += 1.0;
                    Console.Error.WriteLine("csharp: t=" + F(t) + "s " + count + " entities, player at (" + F(hx) + ", " +
                                            F(hy) + ")" + (count > 0 ? ", first: #" + entities[0].Id + " " +
                                            Name(names, entities[0].Archetype) + " (" + F(entities[0].X) + ", " +
                                            F(entities[0].Y) + ") heading " + F(entities[0].Heading) : ""));
                }
                Thread.Sleep(16); // ~60 Hz
            }

            int spawned = 0;
            foreach (var agent in spawns.Values)
            {
                if (agent < 0) continue;
                spawned++;
                client.Despawn((uint)agent); // leave the server as it was
            }
            for (int i = 0; i < 10; i++)
            {
                client.Update(SteerdClient.MonotonicNow());
                foreach (var m in client.TakeMessages()) if (m.IsEvent) events++;
                Thread.Sleep(16);
            }
            Stats stats = client.GetStats(SteerdClient.MonotonicNow());
            var state = client.State;
            if (state == ConnectionState.Connected) client.Disconnect();

            if (state != ConnectionState.Connected) return Fail("connection ended early: " + state);
            if (stats.Snapshots == 0) return Fail("no snapshots");
            if (walked < 1.0) return Fail("walked only " + walked.ToString("0.00", CultureInfo.InvariantCulture) + " m");
            if (info.ControlAllowed == 0) return Fail("the server did not grant the control role (steerd --allow-control)");
            if (spawned == 0)
                return Fail("no NPC spawned (" + spawns.Count + " asked, refusals: " +
                            (refusals.Count > 0 ? string.Join("; ", refusals) : "no result") + ")");
            Console.WriteLine("csharp ok: " + stats.Snapshots + " snapshots, walked " + F(walked) + " m, spawned " +
                              spawned + " NPCs, " + events + " events");
            return 0;
        }
    }

    static string Name(List<string> names, uint archetype)
    {
        return archetype < names.Count ? names[(int)archetype] : archetype.ToString();
    }
}
