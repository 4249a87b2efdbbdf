#!/usr/bin/env python3
"""The smallest complete sightline adapter: protocol version 1 and nothing else.

sightline starts this program, writes one JSON request per line on its stdin and reads one JSON
reply per line from its stdout, in order. Copy it, and replace `visible_from` and `find_path`
with calls into your own game's code. See docs/protocol.md.

    sightline fov maps/dungeon.ron --ext 'mine=python3 adapters/minimal/minimal.py' --algorithm mine

Its field of view is plain line of sight: a cell within the radius is visible when the
Bresenham line from the origin reaches it with no opaque cell strictly between (so walls that
bound the view are lit). Its search is Dijkstra under the rules in the request. Both are slow
and simple on purpose.
"""
import heapq
import json
import sys

opaque = []     # opaque[y][x]: True where sight stops
walkable = []   # walkable[y][x]
cost = []       # cost[y][x]: the cost of entering (x, y)
width = height = 0


def line(x0, y0, x1, y1):
    """The cells of a Bresenham line from (x0, y0) to (x1, y1), both ends included."""
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err, cells = dx + dy, []
    while True:
        cells.append((x0, y0))
        if (x0, y0) == (x1, y1):
            return cells
        e2 = 2 * err
        if e2 >= dy:
            err, x0 = err + dy, x0 + sx
        if e2 <= dx:
            err, y0 = err + dx, y0 + sy


def visible_from(ox, oy, radius, light_walls):
    reach = radius if radius is not None else max(width, height)
    seen = []
    for y in range(max(0, oy - reach), min(height, oy + reach + 1)):
        for x in range(max(0, ox - reach), min(width, ox + reach + 1)):
            if radius is not None and (x - ox) ** 2 + (y - oy) ** 2 > radius * radius:
                continue
            between = line(ox, oy, x, y)[1:-1]
            if any(opaque[cy][cx] for cx, cy in between):
                continue
            if (x, y) == (ox, oy) or light_walls or not opaque[y][x]:
                seen.append([x, y])
    return seen


def can_step(x, y, dx, dy, moves, diagonal):
    nx, ny = x + dx, y + dy
    if not (0 <= nx < width and 0 <= ny < height and walkable[ny][nx]):
        return False
    if dx == 0 or dy == 0:
        return True
    if moves == 4 or diagonal == "never":
        return False
    side_a = 0 <= nx < width and walkable[y][nx]
    side_b = 0 <= ny < height and walkable[ny][x]
    return {"always": True, "no-corner-cut": side_a and side_b, "one-blocked": side_a or side_b}[diagonal]


def find_path(start, goal, moves, diagonal, diagonal_cost):
    """Dijkstra: the path (or None) and the cells in the order they left the open list."""
    start, goal = tuple(start), tuple(goal)
    best, came_from, expanded = {start: 0.0}, {}, []
    open_list = [(0.0, start)]
    while open_list:
        d, (x, y) = heapq.heappop(open_list)
        if d > best[(x, y)]:
            continue  # a stale entry: the cell was reached more cheaply since
        expanded.append([x, y])
        if (x, y) == goal:
            path = [goal]
            while path[-1] != start:
                path.append(came_from[path[-1]])
            return [list(c) for c in reversed(path)], expanded
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx, dy) != (0, 0) and can_step(x, y, dx, dy, moves, diagonal):
                    n = (x + dx, y + dy)
                    step = cost[n[1]][n[0]] * (diagonal_cost if dx and dy else 1.0)
                    if d + step < best.get(n, float("inf")):
                        best[n], came_from[n] = d + step, (x, y)
                        heapq.heappush(open_list, (d + step, n))
    return None, expanded


def answer(request):
    global opaque, walkable, cost, width, height
    kind = request.get("type")
    if kind == "hello":
        return {"type": "hello", "protocol": 1, "name": "minimal (line of sight, Dijkstra)",
                "provides": ["fov", "path"]}
    if kind == "map":
        width, height = request["width"], request["height"]
        opaque = [[c == "1" for c in row] for row in request["opaque"]]
        walkable = [[c == "1" for c in row] for row in request["walkable"]]
        cost = request.get("cost") or [[1.0] * width for _ in range(height)]
        return {"type": "ok"}
    if kind == "fov":
        views = [visible_from(x, y, request["radius"], request["light_walls"]) for x, y in request["origins"]]
        return {"type": "fov", "id": request["id"], "views": views}
    if kind == "path":
        path, expanded = find_path(request["from"], request["to"], request["moves"],
                                   request["diagonal"], request["diagonal_cost"])
        return {"type": "path", "id": request["id"], "path": path, "expanded": expanded}
    return {"type": "error", "id": request.get("id"), "message": f"unknown request type {kind!r}"}


for text in sys.stdin:
    request = json.loads(text)
    try:
        reply = answer(request)
    except Exception as e:  # say what went wrong rather than dying mid-session
        reply = {"type": "error", "id": request.get("id"), "message": f"{type(e).__name__}: {e}"}
    print(json.dumps(reply, separators=(",", ":")), flush=True)
