//! Walking by knowledge: click-to-move (travel) and autoexplore, over what the player knows.
//!
//! ## The oscillation problem, and the fix
//! The Grass devlog left this open: a click-to-move that re-plans every turn around the monsters
//! in view walks back and forth when a monster flickers in and out of view, because each new plan
//! takes the other way around it. Here a travel **commits** to its route: the route is planned
//! once, over known cells, with the monsters then in view as obstacles and unseen monsters
//! ignored (the player does not know them); it is re-planned only when its next step is actually
//! blocked (a monster standing on it, or a cell found to be a wall). A monster appearing or
//! disappearing elsewhere changes nothing, so the walk cannot oscillate. [`TravelPolicy::Replan`]
//! keeps the naive behaviour to show the difference.
//!
//! Autoexplore walks a Dijkstra map whose sources are the frontier, known passable cells next to
//! an unknown cell, and the items the player knows of (Brogue's and DCSS's `x`, which go to pick
//! up what they see). It stops when a monster comes into view, or when neither is reachable.

use super::World;
use super::memory::{Knowledge, MemoryModel};
use crate::core::Cell;
use crate::core::path::dijkstra_map::DijkstraMap;
use crate::core::path::{Algorithm, CostGrid, Heuristic, SearchParams, find_path};

/// How a travel reacts to what it sees on the way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TravelPolicy {
    /// Plan once, re-plan only when the next step is blocked (no oscillation).
    #[default]
    Commit,
    /// Re-plan every turn around the monsters in view (oscillates; for comparison).
    Replan,
}

/// Entering a known closed door costs this much more: the walker opens it first.
const DOOR_EXTRA_COST: f32 = 1.0;

/// What the player knows, as a cost grid: unknown cells impassable; remembered cells as last seen
/// (or as they are now, with the revealed-flag model); visible cells as they are. Closed doors are
/// passable at an extra cost. With `block_monsters`, cells with a monster in view are blocked.
pub fn knowledge_grid(world: &World, block_monsters: bool) -> CostGrid {
    let map = &world.map;
    let mut grid = CostGrid::open(map.width(), map.height());
    for y in 0..map.height() as i32 {
        for x in 0..map.width() as i32 {
            let c = Cell::new(x, y);
            let cost = match world.knowledge(c) {
                Knowledge::Unknown => f32::INFINITY,
                Knowledge::Visible => live_cost(world, c),
                Knowledge::Remembered => match world.memory.model {
                    MemoryModel::LastSeen => world.memory.recall(c).map_or(f32::INFINITY, |r| {
                        if r.walkable {
                            r.cost
                        } else if r.closed_door {
                            r.cost + DOOR_EXTRA_COST
                        } else {
                            f32::INFINITY
                        }
                    }),
                    MemoryModel::Revealed | MemoryModel::None => live_cost(world, c),
                },
            };
            grid.set_cost(x, y, cost);
        }
    }
    if block_monsters {
        for m in world.visible_monsters() {
            grid.set_cost(m.cell.x, m.cell.y, f32::INFINITY);
        }
    }
    grid
}

fn live_cost(world: &World, c: Cell) -> f32 {
    let rules = world.map.rules_at(c);
    if rules.walkable {
        rules.cost
    } else if world.is_closed_door(c) {
        rules.cost + DOOR_EXTRA_COST
    } else {
        f32::INFINITY
    }
}

/// The route from the player to `goal` over what the player knows (the player's cell excluded),
/// or `None` when the goal is unknown or cannot be reached.
pub fn plan(world: &World, goal: Cell) -> Option<Vec<Cell>> {
    let mut grid = knowledge_grid(world, true);
    // The goal itself may hold a visible monster: walk up to it (and attack).
    let cost = live_cost(world, goal);
    if world.knowledge(goal) != Knowledge::Unknown && cost.is_finite() {
        grid.set_cost(goal.x, goal.y, cost);
    }
    let params =
        SearchParams { algorithm: Algorithm::AStar, rules: super::MOVES, heuristic: Heuristic::Octile, weight: 1.0 };
    let found = find_path(&grid, &params, world.player().cell, goal)?;
    Some(found.path[1..].to_vec())
}

/// The frontier: known passable cells with an unknown neighbour (never the player's own cell).
pub fn frontier(world: &World, grid: &CostGrid) -> Vec<Cell> {
    let player = world.player().cell;
    let mut out = Vec::new();
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let c = Cell::new(x, y);
            if c == player || !grid.passable(x, y) {
                continue;
            }
            let unknown_next = (-1..=1).any(|dy| {
                (-1..=1).any(|dx| {
                    let n = Cell::new(x + dx, y + dy);
                    world.map.in_bounds(n) && world.knowledge(n) == Knowledge::Unknown
                })
            });
            if unknown_next {
                out.push(c);
            }
        }
    }
    out
}

/// The next step of autoexplore, or `None` when no frontier cell and no known item can be
/// reached.
pub fn explore_step(world: &World) -> Option<Cell> {
    let grid = knowledge_grid(world, true);
    let player = world.player().cell;
    let items = world.known_items_of(0).map(|(item, _)| item.cell).filter(|&c| c != player && grid.passable(c.x, c.y));
    let sources: Vec<(Cell, f64)> = frontier(world, &grid).into_iter().chain(items).map(|c| (c, 0.0)).collect();
    if sources.is_empty() {
        return None;
    }
    let distances = DijkstraMap::new(&grid, &super::MOVES, &sources);
    distances.downhill(&grid, &super::MOVES, world.player().cell)
}
