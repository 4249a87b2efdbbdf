#!/usr/bin/env python3
"""A protocol peer that computes nothing, for benches/protocol.rs: every view it returns is the
same canned list of cells (the disc of radius 10 round the map's centre, 317 cells: an ordinary
view's size), so the round trip measures the protocol, not an algorithm."""
import json
import sys

canned = "[]"
for line in sys.stdin:
    request = json.loads(line)
    kind = request["type"]
    if kind == "hello":
        reply = '{"type":"hello","protocol":1,"name":"do nothing","provides":["fov"]}'
    elif kind == "map":
        cx, cy = request["width"] // 2, request["height"] // 2
        cells = [f"[{x},{y}]" for y in range(cy - 10, cy + 11) for x in range(cx - 10, cx + 11)
                 if (x - cx) ** 2 + (y - cy) ** 2 <= 100]
        canned = "[" + ",".join(cells) + "]"
        reply = '{"type":"ok"}'
    else:
        views = ",".join([canned] * len(request["origins"]))
        reply = f'{{"type":"fov","id":{request["id"]},"views":[{views}]}}'
    sys.stdout.write(reply + "\n")
    sys.stdout.flush()
