#!/usr/bin/env python3
"""A program that answers sightline's protocol well until it misbehaves the way MODE says, for
the tests of how sightline takes each failure (tests/external.rs).

Usage: misbehave.py MODE. Each mode breaks one thing; otherwise the program sees everything in
the radius (no occlusion) and walks straight lines. `blind` sees only its origin: symmetric, and
useless.
"""
import json
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
width = height = 0
opaque = []


def send(obj):
    print(json.dumps(obj), flush=True)


def fov(request):
    if mode == "exit-on-fov":
        print("Traceback (most recent call last):\nKeyError: 'radius'", file=sys.stderr, flush=True)
        sys.exit(3)
    if mode == "hang-on-fov":
        time.sleep(60)
    if mode == "not-json":
        print("computing views...", flush=True)
        return
    if mode == "wrong-id":
        return send({"type": "fov", "id": request["id"] + 1, "views": [[] for _ in request["origins"]]})
    if mode == "error-on-fov":
        return send({"type": "error", "id": request["id"], "message": "radius too large for my tables"})
    if mode == "blind":
        return send({"type": "fov", "id": request["id"], "views": [[o] for o in request["origins"]]})
    views = []
    for ox, oy in request["origins"]:
        r = request["radius"] if request["radius"] is not None else width + height
        view = [[x, y] for y in range(height) for x in range(width) if (x - ox) ** 2 + (y - oy) ** 2 <= r * r]
        if mode == "off-map":
            view.append([width + 2, 0])
        if mode == "duplicates":
            view.append([ox, oy])
        views.append(view)
    send({"type": "fov", "id": request["id"], "views": views})


def path(request):
    (x, y), (tx, ty) = request["from"], request["to"]
    cells = [[x, y]]
    while (x, y) != (tx, ty):  # straight through anything: a path through walls
        x += (tx > x) - (tx < x)
        y += (ty > y) - (ty < y)
        cells.append([x, y])
    send({"type": "path", "id": request["id"], "path": cells, "expanded": cells})


if mode == "exit-at-start":
    print("ModuleNotFoundError: No module named 'tcod'", file=sys.stderr, flush=True)
    sys.exit(1)
for text in sys.stdin:
    request = json.loads(text)
    kind = request["type"]
    if kind == "hello":
        if mode == "hang-at-hello":
            time.sleep(60)
        send({"type": "hello", "protocol": 2 if mode == "protocol-2" else 1, "name": f"misbehave {mode}",
              "provides": ["fov", "path"]})
    elif kind == "map":
        width, height = request["width"], request["height"]
        opaque = request["opaque"]
        send({"type": "ok"})
    elif kind == "fov":
        fov(request)
    elif kind == "path":
        path(request)
