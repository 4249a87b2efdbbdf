#!/usr/bin/env node
// sightline external algorithm adapter (protocol version 1) backed by rot.js 2.2.1.
//
//   node sightline_rot.mjs --fov precise|recursive|discrete [--path astar|dijkstra]
//
// sightline writes one JSON request per line to stdin and reads exactly one JSON reply per
// line from stdout, in order. stdout carries replies only; diagnostics go to stderr, which
// sightline shows as a log. Copy this file as a model for adapters to other libraries.

import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import * as ROT from "rot-js";

const FOVS = {
  precise: ROT.FOV.PreciseShadowcasting,
  recursive: ROT.FOV.RecursiveShadowcasting,
  discrete: ROT.FOV.DiscreteShadowcasting,
};
const PATHS = { astar: ROT.Path.AStar, dijkstra: ROT.Path.Dijkstra };

const { values: args } = parseArgs({
  options: { fov: { type: "string" }, path: { type: "string", default: "astar" } },
});
const Fov = FOVS[args.fov];
const PathSearch = PATHS[args.path];
if (!Fov || !PathSearch) {
  console.error("usage: sightline_rot.mjs --fov precise|recursive|discrete [--path astar|dijkstra]");
  process.exit(2);
}
const NAME = `rot.js ${Fov.name}, ${PathSearch.name}`;

// The current map, replaced by every "map" request. Cells are indexed y * width + x.
let map = null;

function loadMap(req) {
  const { width, height, opaque, walkable, cost } = req;
  const grid = (rows) => {
    const g = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) g[y * width + x] = rows[y][x] === "1" ? 1 : 0;
    }
    return g;
  };
  const isWalkable = grid(walkable);
  // rot.js paths count steps, so all that matters is whether every walkable cell costs 1.
  let uniformCost = true;
  if (cost) {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (isWalkable[y * width + x] && cost[y][x] !== 1) uniformCost = false;
      }
    }
  }
  const inside = (x, y) => x >= 0 && y >= 0 && x < width && y < height;
  const isOpaque = grid(opaque);
  map = {
    width,
    height,
    isOpaque,
    isWalkable,
    uniformCost,
    inside,
    // Out of bounds counts as opaque and not walkable, as in sightline.
    lightPasses: (x, y) => inside(x, y) && !isOpaque[y * width + x],
    passable: (x, y) => inside(x, y) && isWalkable[y * width + x] === 1,
    // Dedupe buffer for FOV: seen[i] === stamp means cell i is already in the current view.
    seen: new Uint32Array(width * height),
    stamp: 0,
  };
  // One rot.js FOV object serves every origin; its callback reads the current map.
  map.fov = new Fov(map.lightPasses); // topology 8: rings are squares (Chebyshev distance)
  return { type: "ok" };
}

function fov(req) {
  const { width, height, isOpaque, inside, seen } = map;
  const r = req.radius; // null: unlimited
  // rot.js bounds its radius differently from sightline (Precise/Discrete scan square rings
  // out to Chebyshev distance R; Recursive keeps dx²+dy² < (R+1)²). Both reach at least every
  // cell with dx²+dy² ≤ r² when R = r, and nearer cells never depend on farther ones, so
  // compute with R = r and then keep exactly sightline's disc. Unlimited: a radius that reaches
  // every corner (width + height: Recursive's disc must cover the diagonal, not just a side).
  const R = r === null ? width + height : r;
  const off = req.origins.find(([x, y]) => !inside(x, y));
  if (off) return error(req.id, `origin ${off[0]},${off[1]} is off the map`);
  const views = req.origins.map(([ox, oy]) => {
    const stamp = ++map.stamp;
    const view = [[ox, oy]]; // the origin is always visible
    seen[oy * width + ox] = stamp;
    map.fov.compute(ox, oy, R, (x, y) => {
      if (!inside(x, y)) return; // rot.js reports out-of-bounds walls it "sees"
      const i = y * width + x;
      if (seen[i] === stamp) return; // rot.js may report a cell twice (octant edges)
      const dx = x - ox, dy = y - oy;
      if (r !== null && dx * dx + dy * dy > r * r) return;
      if (!req.light_walls && isOpaque[i]) return; // rot.js always lights the walls it sees
      seen[i] = stamp;
      view.push([x, y]);
    });
    return view;
  });
  return { type: "fov", id: req.id, views };
}

// rot.js AStar and Dijkstra take unit steps in topology 4 or 8, with no corner rule: every
// step, orthogonal or diagonal, costs 1. Refuse what they cannot answer exactly.
function topologyFor(req) {
  if (!map.uniformCost) return "rot.js paths count steps: it cannot use costs other than 1";
  if (req.moves === 4 || (req.moves === 8 && req.diagonal === "never")) return 4;
  if (req.moves !== 8) return `moves must be 4 or 8, not ${req.moves}`;
  if (req.diagonal !== "always") {
    return `rot.js has no "${req.diagonal}" rule: with 8 moves it supports only diagonal "always" (or "never", which is 4 moves)`;
  }
  if (req.diagonal_cost !== 1) {
    return `rot.js diagonal steps cost 1, not ${req.diagonal_cost}: with 8 moves and diagonal "always" it needs diagonal_cost 1`;
  }
  return 8;
}

function path(req) {
  const topology = topologyFor(req);
  if (typeof topology === "string") return error(req.id, topology);
  const [fx, fy] = req.from, [tx, ty] = req.to;
  for (const [name, [x, y]] of [["from", req.from], ["to", req.to]]) {
    if (!map.passable(x, y)) return error(req.id, `${name} ${x},${y} is not a walkable cell`);
  }
  // rot.js searches from its constructor's target back to the cell given to compute(). Give
  // it `from` as the target so that its search spreads out from `from` as sightline's does;
  // the path it reports then runs to -> from, so reverse it.
  const search = new PathSearch(fx, fy, map.passable, { topology });
  // Recover the expansion order: in rot-js 2.2.1 both AStar and Dijkstra call _getNeighbors
  // exactly once for each cell they take off their open list, except the last one, where the
  // search stops (the cell passed to compute(), i.e. `to`) — appended below.
  const expanded = [];
  const getNeighbors = search._getNeighbors.bind(search);
  search._getNeighbors = (x, y) => {
    expanded.push([x, y]);
    return getNeighbors(x, y);
  };
  const cells = [];
  search.compute(tx, ty, (x, y) => cells.push([x, y]));
  if (cells.length === 0) return { type: "path", id: req.id, path: null, expanded };
  expanded.push([tx, ty]);
  return { type: "path", id: req.id, path: cells.reverse(), expanded };
}

function error(id, message) {
  return { type: "error", id, message };
}

function handle(req) {
  switch (req.type) {
    case "hello":
      return { type: "hello", protocol: 1, name: NAME, provides: ["fov", "path"] };
    case "map":
      return loadMap(req);
    case "fov":
    case "path":
      if (!map) return error(req.id, "no map yet: send a map request first");
      return req.type === "fov" ? fov(req) : path(req);
    default:
      return error(req.id, `unknown request type ${JSON.stringify(req.type)}`);
  }
}

// One request at a time, strictly in order: everything above is synchronous, and stdout
// writes to a pipe are synchronous in Node on Linux and macOS.
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  let req = {};
  let reply;
  try {
    req = JSON.parse(line);
    reply = handle(req);
  } catch (e) {
    console.error(`sightline_rot: ${e.stack ?? e}`);
    reply = error(req.id ?? null, String(e.message ?? e));
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
}
