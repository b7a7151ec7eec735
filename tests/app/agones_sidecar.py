#!/usr/bin/env python3
"""A recording Agones SDK sidecar for steerd's lifecycle tests (Agones 1.x REST SDK).

Records every call as "METHOD PATH BODY" lines in CALLS, keeps a GameServer whose state follows
the calls (Scheduled -> Ready -> Allocated -> Shutdown), answers GET /gameserver with it, and
streams it on GET /watch/gameserver, one {"result": ...} line per change. The test allocates the
server (as a GameServerAllocation would) by writing the allocation's annotations, as JSON, to the
file ALLOCATE: once the server is Ready, the sidecar moves it to Allocated with them.
Usage: agones_sidecar.py CALLS PORTFILE ALLOCATE
"""
import http.server
import json
import os
import sys
import threading
import time

calls_path, port_path, allocate_path = sys.argv[1:4]
lock = threading.Condition()
state = {"name": "steerd-test", "state": "Scheduled", "annotations": {}, "labels": {}}
version = 0


def record(line):
    with open(calls_path, "a") as f:
        f.write(line + "\n")


def game_server():
    return {"object_meta": {"name": state["name"], "annotations": dict(state["annotations"]),
                            "labels": dict(state["labels"])},
            "status": {"state": state["state"]}}


def move_to(new_state, annotations=None):
    global version
    with lock:
        state["state"] = new_state
        if annotations:
            state["annotations"].update(annotations)
        version += 1
        lock.notify_all()


def allocator():
    # The test's GameServerAllocation: once Ready and the file is there, Allocated with its metadata.
    while True:
        time.sleep(0.05)
        if state["state"] == "Ready" and os.path.exists(allocate_path):
            with open(allocate_path) as f:
                text = f.read().strip() or "{}"
            record("ALLOCATED " + text)
            move_to("Allocated", json.loads(text))


class Sidecar(http.server.BaseHTTPRequestHandler):
    def reply(self, body=b"{}"):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n).decode()
        record(f"{self.command} {self.path} {body}")
        if self.path == "/ready" and state["state"] == "Scheduled":
            move_to("Ready")
        elif self.path == "/allocate":
            move_to("Allocated")
        elif self.path == "/shutdown":
            move_to("Shutdown")
        self.reply()

    do_PUT = do_POST

    def do_GET(self):
        record(f"GET {self.path}")
        if self.path == "/gameserver":
            with lock:
                self.reply(json.dumps(game_server()).encode())
        elif self.path == "/watch/gameserver":
            # Streams until the client goes: HTTP/1.0, no length, one JSON line per change.
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            seen = -1
            try:
                while True:
                    with lock:
                        while version == seen:
                            lock.wait(1.0)
                        seen = version
                        line = json.dumps({"result": game_server()}) + "\n"
                    self.wfile.write(line.encode())
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return
        else:
            self.send_response(404)
            self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sidecar)
server.daemon_threads = True
threading.Thread(target=allocator, daemon=True).start()
with open(port_path + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_path + ".tmp", port_path)
server.serve_forever()
