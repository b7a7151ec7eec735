#!/usr/bin/env python3
"""steerd_client example: connect, walk the player round a circle, spawn a few NPCs through the
control role (steerd --allow-control), read the entities each frame and the control messages.

    STEERD_CLIENT_LIB=build/ci/client-viewer/capi/libsteerd-client.so \\
        python3 client-viewer/bindings/python/example.py 127.0.0.1:7777 [SECONDS]

Prints one line at the end, "python ok: N snapshots, walked X.X m, spawned K NPCs, E events", or
"python FAIL: reason" (exit 1). Progress goes to stderr.
"""
import math
import sys
import time

import steerd_client as sc

# steerd.control.Command { subscribe { kinds: [SPAWNED, DESPAWNED, ARRIVED] } }, encoded by hand
# (field 15, length 5: Subscribe { field 1, packed, length 3: 1 2 4 }); or use protobuf's
# generated control_pb2 from proto/control.proto.
SUBSCRIBE = bytes([0x7A, 0x05, 0x0A, 0x03, 0x01, 0x02, 0x04])


def fail(reason: str) -> int:
    print(f"python FAIL: {reason}", flush=True)
    return 1


def main(argv) -> int:
    if len(argv) < 2:
        print("usage: example.py HOST:PORT [SECONDS]", file=sys.stderr)
        return 2
    server, seconds = argv[1], float(argv[2]) if len(argv) > 2 else 6.0

    with sc.Client(server) as client:  # no token: a server without --token-key
        client.connect()
        try:
            client.wait_connected(timeout=10)
        except sc.SteerdError as e:
            return fail(f"not connected to {server}: {e}")
        info = client.server_info()
        names = client.archetype_names()
        npc = next((n for n in names if n != "player"), names[0] if names else "boid")
        print(f"python: connected as client {info.client_id}, player entity {info.player_entity}, "
              f"archetypes {names}, intents {info.player_intents}, control {info.control_allowed}", file=sys.stderr)

        # Control: subscribe to events, then spawn a ring of 3 around the world's centre.
        spawns = {}  # sequence -> None (waiting), agent id (applied) or False (refused)
        if info.control_allowed:
            client.send_command(SUBSCRIBE)
            cx, cy = (info.min_x + info.max_x) / 2, (info.min_y + info.max_y) / 2
            for i in range(3):
                a = 2 * math.pi * i / 3
                spawns[client.spawn(npc, cx + 4 * math.cos(a), cy + 4 * math.sin(a))] = None

        walked, last, events, refusals = 0.0, None, 0, []
        centre, radius, omega = None, 3.0, 1.0  # position mode: a circle 3 m round at 1 rad/s
        start = time.monotonic()
        next_print = start
        while True:
            now = time.monotonic()
            if now - start > seconds:
                break
            client.update(now)
            t = now - start
            if info.player_intents:
                # Intent mode: a direction turning at omega; the server moves the body, the library
                # predicts it.
                client.set_move(0.8 * math.cos(omega * t), 0.8 * math.sin(omega * t))
            elif last is not None:
                if centre is None:
                    centre = (last[0] - radius, last[1])
                client.set_player(centre[0] + radius * math.cos(omega * t), centre[1] + radius * math.sin(omega * t),
                                  -radius * omega * math.sin(omega * t), radius * omega * math.cos(omega * t))

            # Render time: every entity interpolated at `now`; the player's body among them.
            entities = client.entities(now)
            body = next((e for e in entities if e.id == info.player_entity), None)
            if body is not None:
                here = (body.x, body.y)
            else:
                p = client.predicted_player(now)
                here = (p.x, p.y) if p else None
            if here is not None:
                if last is not None:
                    walked += math.hypot(here[0] - last[0], here[1] - last[1])
                last = here

            for m in client.take_messages():
                if m.is_result and m.sequence in spawns:
                    spawns[m.sequence] = m.agent if m.ok else False
                    if m.ok:
                        client.move_to(m.agent, *(last or (0.0, 0.0)))  # come to the player
                    else:
                        refusals.append(m.error)
                elif m.is_event:
                    events += 1

            if now >= next_print:
                next_print += 1.0
                near = sorted(entities, key=lambda e: math.hypot(e.x - here[0], e.y - here[1]))[:3] if here else []
                print(f"python: t={t:4.1f}s {len(entities)} entities, player at "
                      f"{'(%.1f, %.1f)' % here if here else '?'}, nearest: "
                      + ", ".join(f"#{e.id} {names[e.archetype] if e.archetype < len(names) else e.archetype} "
                                  f"({e.x:.1f}, {e.y:.1f}) {math.hypot(e.vx, e.vy):.1f} m/s" for e in near),
                      file=sys.stderr)
            time.sleep(1 / 60)

        spawned = [a for a in spawns.values() if a]
        for agent in spawned:  # leave the server as it was
            client.despawn(agent)
        for _ in range(10):
            client.update()
            events += sum(1 for m in client.take_messages() if m.is_event)
            time.sleep(1 / 60)
        stats = client.stats()
        state = client.state
        if state == sc.State.CONNECTED:
            client.disconnect()

    if state != sc.State.CONNECTED:
        return fail(f"connection ended early: {state.name}")
    if stats.snapshots == 0:
        return fail("no snapshots")
    if walked < 1.0:
        return fail(f"walked only {walked:.2f} m")
    if not info.control_allowed:
        return fail("the server did not grant the control role (steerd --allow-control)")
    if not spawned:
        return fail(f"no NPC spawned ({len(spawns)} asked, refusals: {refusals or 'no result'})")
    print(f"python ok: {stats.snapshots} snapshots, walked {walked:.1f} m, spawned {len(spawned)} NPCs, "
          f"{events} events", flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except sc.SteerdError as e:
        sys.exit(fail(str(e)))
