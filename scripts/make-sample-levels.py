#!/usr/bin/env python3
"""Writes the sample levels in scenarios/levels/ (docs/LEVELS.md), made here from code:

  town.gltf      glTF 2.0: a town square, a road up a 10 % slope to a terrace 3 m higher, a river
                 crossed by a bridge, houses (blocking by node name "house*"), a lamp post marked
                 blocking by its glTF extras
  building.obj   Wavefront OBJ: a one-storey building of six rooms off a corridor, doors 1.6 m wide
  yard.tmx       Tiled (XML, CSV data, an external .tsx tileset): a fenced yard whose wall tiles block
                 through their collision shapes, with spawn points and waypoints as objects
  yard.tsx       the yard's tileset

  scripts/make-sample-levels.py [OUT_DIR]      (default scenarios/levels)
Run again after changing it; the files are committed, so nobody needs to.
"""
import base64
import json
import os
import struct
import sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "scenarios", "levels")
os.makedirs(out, exist_ok=True)


class Mesh:
    """Triangles with y up (glTF's and OBJ's default)."""

    def __init__(self):
        self.v, self.f = [], []

    def quad(self, a, b, c, d):
        n = len(self.v)
        self.v += [a, b, c, d]
        self.f += [(n, n + 1, n + 2), (n, n + 2, n + 3)]

    def box(self, x0, y0, z0, x1, y1, z1):
        n = len(self.v)
        for x in (x0, x1):
            for y in (y0, y1):
                for z in (z0, z1):
                    self.v.append((x, y, z))
        for q in ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)):
            self.f += [(n + q[0], n + q[1], n + q[2]), (n + q[0], n + q[2], n + q[3])]


# --- town.gltf -------------------------------------------------------------------------------
def town():
    parts = {}
    ground = Mesh()
    # Lower town, 0 <= x <= 60, 0 <= z <= 40, at height 0, with a river 4 m wide at 28 <= x <= 32
    # (left out of the ground: nothing to walk on) crossed by a bridge deck at z 18..22.
    ground.quad((0, 0, 0), (0, 0, 40), (28, 0, 40), (28, 0, 0))
    ground.quad((32, 0, 0), (32, 0, 40), (60, 0, 40), (60, 0, 0))
    # The road up: z 0..-30 rising 3 m (10 %), 8 m wide, from the lower town's south edge.
    ground.quad((6, 0, 0), (14, 0, 0), (14, 3, -30), (6, 3, -30))
    # The terrace at 3 m: x 0..30, z -30..-50.
    ground.quad((0, 3, -30), (30, 3, -30), (30, 3, -50), (0, 3, -50))
    parts["ground"] = ground
    bridge = Mesh()
    bridge.quad((27, 0, 18), (27, 0, 22), (33, 0, 22), (33, 0, 18))
    bridge.box(27, 0, 17.6, 33, 1.0, 18)   # parapets
    bridge.box(27, 0, 22, 33, 1.0, 22.4)
    parts["bridge"] = bridge
    houses = Mesh()
    for (x, z, w, d) in ((4, 6, 8, 6), (40, 4, 10, 8), (44, 26, 8, 8), (16, 28, 8, 8), (4, -44, 10, 8), (18, -40, 8, 6)):
        y = 3 if z < 0 else 0
        houses.box(x, y, z, x + w, y + 5, z + d)
    parts["house_block"] = houses
    lamp = Mesh()
    lamp.box(20, 0, 14, 21, 4, 15)
    parts["lamp"] = lamp

    blob, views, accessors, meshes, nodes = b"", [], [], [], []
    for name, m in parts.items():
        pos = b"".join(struct.pack("<3f", *p) for p in m.v)
        idx = b"".join(struct.pack("<3I", *t) for t in m.f)
        lo = [min(p[i] for p in m.v) for i in range(3)]
        hi = [max(p[i] for p in m.v) for i in range(3)]
        views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(pos)})
        blob += pos
        views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(idx)})
        blob += idx
        accessors.append({"bufferView": len(views) - 2, "componentType": 5126, "count": len(m.v), "type": "VEC3",
                          "min": lo, "max": hi})
        accessors.append({"bufferView": len(views) - 1, "componentType": 5125, "count": 3 * len(m.f), "type": "SCALAR"})
        meshes.append({"name": name, "primitives": [{"attributes": {"POSITION": len(accessors) - 2},
                                                     "indices": len(accessors) - 1, "mode": 4}]})
        node = {"name": name, "mesh": len(meshes) - 1}
        if name == "lamp":
            node["extras"] = {"steerd": "blocking"}
        if name == "house_block":
            node["name"] = "houses"
        nodes.append(node)
    # The whole town sits under one node that moves it 10 m east: transforms are applied.
    nodes.append({"name": "town", "children": list(range(len(nodes))), "translation": [10, 0, 60]})
    doc = {"asset": {"version": "2.0", "generator": "steerd scripts/make-sample-levels.py"},
           "scene": 0, "scenes": [{"name": "town", "nodes": [len(nodes) - 1]}], "nodes": nodes, "meshes": meshes,
           "accessors": accessors, "bufferViews": views,
           "buffers": [{"byteLength": len(blob),
                        "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
    with open(os.path.join(out, "town.gltf"), "w") as f:
        json.dump(doc, f, indent=1)


# --- building.obj ----------------------------------------------------------------------------
def building():
    m = Mesh()
    W, D, H, t = 36.0, 24.0, 3.0, 0.3
    m.quad((0, 0, 0), (0, 0, D), (W, 0, D), (W, 0, 0))                    # floor
    walls = [(-t, 0, -t, W + t, H, 0), (-t, 0, D, W + t, H, D + t), (-t, 0, 0, 0, H, D), (W, 0, 0, W + t, H, D)]
    # A corridor along z 10..14; rooms 12 m wide north and south, a 1.6 m door into each.
    for zc in (10.0, 14.0):
        x = 0.0
        for room in range(3):
            door = x + 5.2
            walls.append((x, 0, zc - t / 2, door, H, zc + t / 2))
            walls.append((door + 1.6, 0, zc - t / 2, x + 12, H, zc + t / 2))
            x += 12
    for xw in (12.0, 24.0):                                                # walls between rooms
        walls.append((xw - t / 2, 0, 0, xw + t / 2, H, 10 - t / 2))
        walls.append((xw - t / 2, 0, 14 + t / 2, xw + t / 2, H, D))
    with open(os.path.join(out, "building.obj"), "w") as f:
        f.write("# steerd sample level: six rooms off a corridor (scripts/make-sample-levels.py)\n")
        f.write("o floor\n")
        for p in m.v:
            f.write("v %g %g %g\n" % p)
        for tri in m.f:
            f.write("f %d %d %d\n" % tuple(i + 1 for i in tri))
        base = len(m.v)
        f.write("o walls\n")
        for w in walls:
            b = Mesh()
            b.box(*w)
            for p in b.v:
                f.write("v %g %g %g\n" % p)
            for tri in b.f:
                f.write("f %d %d %d\n" % tuple(base + i + 1 for i in tri))
            base += len(b.v)


# --- yard.tmx + yard.tsx ---------------------------------------------------------------------
def yard():
    W, H = 48, 32
    rows = []
    for y in range(H):
        row = []
        for x in range(W):
            wall = x in (0, W - 1) or y in (0, H - 1)
            wall = wall or (x == 24 and not 14 <= y <= 17)           # a fence with a gate
            wall = wall or (8 <= x <= 14 and y == 8)                 # a shed wall
            row.append(2 if wall else 1)
        rows.append(",".join(map(str, row)))
    tsx = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="yard" tilewidth="16" tileheight="16" tilecount="2" columns="2">
 <image source="yard.png" width="32" height="16"/>
 <tile id="1">
  <objectgroup draworder="index">
   <object id="1" x="0" y="0" width="16" height="16"/>
  </objectgroup>
 </tile>
</tileset>
"""
    objects = [
        '<object id="1" name="west" type="spawn" x="64" y="256"><properties>'
        '<property name="archetype" value="walker"/><property name="count" type="int" value="40"/></properties>'
        '<point/></object>',
        '<object id="2" name="east" class="spawn" x="576" y="96" width="96" height="320"><properties>'
        '<property name="archetype" value="walker"/><property name="count" type="int" value="40"/></properties>'
        '</object>',
        '<object id="3" name="gate" class="waypoint" x="384" y="256"><point/></object>',
        '<object id="4" name="well" class="obstacle" x="160" y="384" width="48" height="48"><ellipse/></object>',
        # Where a viewer's player appears (not in the gate, the middle of the map, where it would
        # stand in everyone's way).
        '<object id="5" name="player_start" class="waypoint" x="48" y="48"><point/></object>',
    ]
    tmx = f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{W}" height="{H}" tilewidth="16" tileheight="16" infinite="0" nextlayerid="3" nextobjectid="6">
 <tileset firstgid="1" source="yard.tsx"/>
 <layer id="1" name="ground" width="{W}" height="{H}">
  <data encoding="csv">
{(","+chr(10)).join(rows)}
</data>
 </layer>
 <objectgroup id="2" name="npcs">
  {chr(10).join("  " + o for o in objects)}
 </objectgroup>
</map>
"""
    with open(os.path.join(out, "yard.tsx"), "w") as f:
        f.write(tsx)
    with open(os.path.join(out, "yard.tmx"), "w") as f:
        f.write(tmx)


town()
building()
yard()
print("wrote", ", ".join(sorted(os.listdir(out))), "in", os.path.normpath(out))
