#!/usr/bin/env python3
"""A sightline adapter (protocol 1) that answers FOV and path requests with libtcod.

sightline starts this program, writes one JSON request per line to stdin and reads one
JSON reply per line from stdout, in order. stdout carries replies only; diagnostics go to
stderr, which sightline shows as a log.

    python3 sightline_tcod.py --fov shadow [--path astar|dijkstra]

FOV: tcod.map.compute_fov with the chosen FOV_* constant, kept to sightline's radius disc.
Paths: tcod.path.Pathfinder over a tcod.path.CustomGraph. libtcod's pathfinder adds
integers, so a step costs round(len * scale) * cost(cell): cell costs must be whole
numbers, and a diagonal of length √2 is 14142 / 10000 (see README.md).
"""

import argparse
import json
import sys

import numpy as np
import tcod.constants
import tcod.map
import tcod.path

# --fov MODE -> the name of libtcod's constant
FOV_MODES = {
    "basic": "FOV_BASIC",
    "diamond": "FOV_DIAMOND",
    "shadow": "FOV_SHADOW",
    **{f"permissive{n}": f"FOV_PERMISSIVE_{n}" for n in range(9)},
    "restrictive": "FOV_RESTRICTIVE",
    "symmetric_shadowcast": "FOV_SYMMETRIC_SHADOWCAST",
}

# Step lengths are multiplied by a scale and rounded, because libtcod's Pathfinder only
# adds integers: 10000 keeps √2 within 1e-5 of its value. Its distances are int32.
MAX_SCALE = 10000
INT32_MAX = 2**31 - 1


class Adapter:
    def __init__(self, fov_mode, path_mode):
        self.fov_name = FOV_MODES[fov_mode]
        self.fov_algorithm = getattr(tcod.constants, self.fov_name)
        self.path_mode = path_mode
        self.transparent = None  # bool array [y, x], as all arrays here
        self.walkable = None  # bool array [y, x]
        self.cost = None  # float array [y, x]

    # --- requests -------------------------------------------------------------------

    def hello(self, request):
        path_name = "A*" if self.path_mode == "astar" else "Dijkstra"
        return {
            "type": "hello",
            "protocol": 1,
            "name": f"libtcod {self.fov_name}, {path_name}",
            "provides": ["fov", "path"],
        }

    def set_map(self, request):
        width, height = request["width"], request["height"]
        opaque = rows_to_array(request["opaque"], width, height)
        self.walkable = rows_to_array(request["walkable"], width, height)
        if request.get("cost") is not None:
            self.cost = np.array(request["cost"], dtype=np.float64).reshape(height, width)
        else:
            self.cost = np.ones((height, width))
        self.transparent = ~opaque
        return {"type": "ok"}

    def fov(self, request):
        self.require_map()
        height, width = self.transparent.shape
        radius = request.get("radius")
        light_walls = request.get("light_walls", True)
        # Cells outside the radius' square are never kept, so only that window is read.
        reach = radius if radius is not None else max(width, height)
        views = []
        for x, y in request["origins"]:
            if not (0 <= x < width and 0 <= y < height):
                views.append([])  # an origin off the map sees nothing
            elif radius == 0:
                views.append([[x, y]])  # libtcod reads radius 0 as "unlimited"
            else:
                # sightline's null radius (unlimited) is libtcod's 0.
                visible = tcod.map.compute_fov(self.transparent, (y, x), radius or 0, light_walls, self.fov_algorithm)
                top, left = max(0, y - reach), max(0, x - reach)
                window = visible[top : y + reach + 1, left : x + reach + 1]
                cells = np.argwhere(window) + (top, left)  # rows of [y, x]
                if radius is not None:
                    # sightline's radius keeps dx² + dy² <= r². Some libtcod modes reach
                    # further (their radius is a square, or walls are lit past it).
                    dy, dx = cells[:, 0] - y, cells[:, 1] - x
                    cells = cells[dx * dx + dy * dy <= radius * radius]
                views.append(cells[:, ::-1].tolist())  # [y, x] -> [x, y]
        return {"type": "fov", "id": request["id"], "views": views}

    def path(self, request):
        self.require_map()
        (x0, y0), (x1, y1) = request["from"], request["to"]
        height, width = self.walkable.shape
        for x, y in (request["from"], request["to"]):
            if not (0 <= x < width and 0 <= y < height):
                raise ValueError(f"cell {x},{y} is off the map")
        reply = {"type": "path", "id": request["id"], "path": None}
        if not (self.walkable[y0, x0] and self.walkable[y1, x1]):
            return reply
        pathfinder = tcod.path.Pathfinder(self.graph(request))
        pathfinder.add_root((y0, x0))
        steps = pathfinder.path_to((y1, x1))  # [y, x] rows, both ends included
        # path_to answers just the goal when the goal cannot be reached.
        if len(steps) > 0 and tuple(steps[0]) == (y0, x0):
            reply["path"] = steps[:, ::-1].tolist()
        # No "expanded": the Pathfinder does not tell the order it expanded cells in.
        return reply

    # --- helpers --------------------------------------------------------------------

    def require_map(self):
        if self.transparent is None:
            raise ValueError("no map yet: a map request must come first")

    def graph(self, request):
        """A CustomGraph whose edges follow the request's move and diagonal rules."""
        walkable, cost = self.walkable, self.cost
        costs = cost[walkable]
        if not np.all((costs == np.round(costs)) & (costs >= 1)):
            raise ValueError("libtcod's Pathfinder needs whole-number cell costs (1, 2, 3, ...); this map has others")
        moves, policy = request.get("moves", 8), request.get("diagonal", "no-corner-cut")
        if moves not in (4, 8):
            raise ValueError(f"moves must be 4 or 8, not {moves}")
        if policy not in ("always", "never", "no-corner-cut", "one-blocked"):
            raise ValueError(f"unknown diagonal policy {policy!r}")
        use_diagonals = moves == 8 and policy != "never"
        diagonal_cost = request.get("diagonal_cost", 2**0.5)
        # A path enters each walkable cell at most once, so no distance (nor distance plus
        # heuristic, hence the 2) can exceed this; a big map gets a smaller scale.
        worst = 2 * len(costs) * costs.max(initial=1) * max(1.0, diagonal_cost)
        scale = min(MAX_SCALE, int(INT32_MAX // worst))
        if scale < 100:
            raise ValueError("map too large for libtcod's int32 path distances")
        straight, diagonal = scale, round(diagonal_cost * scale)

        # A cost of 0 blocks: libtcod never enters such a cell.
        cell_cost = np.where(walkable, cost, 0).astype(np.int32)
        graph = tcod.path.CustomGraph(walkable.shape)  # indexed [y, x]
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            graph.add_edge((dy, dx), straight, cost=cell_cost)
        if use_diagonals:
            # A diagonal step's rule depends on the two orthogonal cells beside it, so each
            # direction gets a condition array saying from which cells it may be taken.
            padded = np.pad(walkable, 1, constant_values=False)  # off the map: blocked
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                side_x = shifted(padded, dx, 0)  # is (x+dx, y) walkable?
                side_y = shifted(padded, 0, dy)  # is (x, y+dy) walkable?
                if policy == "always":
                    condition = None
                elif policy == "no-corner-cut":
                    condition = side_x & side_y
                else:  # one-blocked
                    condition = side_x | side_y
                graph.add_edge((dy, dx), diagonal, cost=cell_cost, condition=condition)
        if self.path_mode == "astar":
            # A lower bound on the remaining cost, so A* stays optimal: octile distance (or
            # Manhattan, as a diagonal of 2 straight steps, without diagonals), at the
            # cheapest cell cost. tcod charges min(dx, dy) diagonals and the rest straight.
            cheapest = int(costs.min(initial=1))
            if use_diagonals:
                h_straight, h_diagonal = min(straight, diagonal), min(diagonal, 2 * straight)
            else:
                h_straight, h_diagonal = straight, 2 * straight
            graph.set_heuristic(cardinal=h_straight * cheapest, diagonal=h_diagonal * cheapest)
        return graph


def shifted(padded, dx, dy):
    """The padded array's cell (x+dx, y+dy), for every (x, y) of the unpadded map."""
    height, width = padded.shape[0] - 2, padded.shape[1] - 2
    return padded[1 + dy : 1 + dy + height, 1 + dx : 1 + dx + width]


def rows_to_array(rows, width, height):
    """["0110", ...] -> bool array [y, x] with True where the character is '1'."""
    array = np.array([[c == "1" for c in row] for row in rows], dtype=bool)
    if array.shape != (height, width):
        raise ValueError(f"rows are {array.shape[1]}x{array.shape[0]}, expected {width}x{height}")
    return array


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fov", required=True, choices=FOV_MODES)
    parser.add_argument("--path", default="astar", choices=("astar", "dijkstra"))
    args = parser.parse_args()
    adapter = Adapter(args.fov, args.path)
    handlers = {"hello": adapter.hello, "map": adapter.set_map, "fov": adapter.fov, "path": adapter.path}

    for line in sys.stdin:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            handler = handlers.get(request.get("type"))
            if handler is None:
                raise ValueError(f"unknown request type {request.get('type')!r}")
            reply = handler(request)
        except Exception as error:  # one bad request must not end the session
            print(f"sightline_tcod: {error!r}", file=sys.stderr, flush=True)
            reply = {"type": "error", "message": str(error)}
            if request_id is not None:
                reply["id"] = request_id
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
