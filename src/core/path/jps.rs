//! Jump point search (Harabor & Grastien, "Online Graph Pruning for Pathfinding on Grid Maps",
//! AAAI 2011), in its variant for 8-connected grids without corner cutting (a diagonal step needs
//! both orthogonal cells free, MovingAI's rule), as PathFinding.js's
//! `JPFMoveDiagonallyIfNoObstacles` runs it.
//!
//! A* over jump points: from a node reached by a move (dx, dy), only its natural and forced
//! neighbours are explored, and each direction is followed ("jumped") until the goal, a node with
//! a forced neighbour, or (for a diagonal) a node from which a straight jump succeeds. Between
//! two jump points the path is straight or diagonal, so the cost is the octile distance. Valid
//! for uniform costs only: [`super::search::Searcher::find_path`] runs A* instead on a grid whose
//! passable cells do not all cost the same, or with other movement rules.

use std::collections::BinaryHeap;

use super::open_entry::OpenEntry;
use super::trace::Recorder;
use super::{CostGrid, PathResult};
use crate::core::model::geometry::Cell;

const SQRT_2: f64 = std::f64::consts::SQRT_2;

/// The octile distance: the exact cost of an open-grid walk with diagonal √2.
#[inline]
fn octile(dx: i32, dy: i32) -> f64 {
    super::Heuristic::Octile.estimate(dx, dy, SQRT_2)
}

struct Jumper<'a> {
    grid: &'a CostGrid,
    goal: Cell,
}

impl Jumper<'_> {
    #[inline]
    fn open(&self, x: i32, y: i32) -> bool {
        self.grid.passable(x, y)
    }

    /// Follows (dx, dy) from `(x, y)` (the cell after the parent); the jump point, if any.
    fn jump(&self, mut x: i32, mut y: i32, dx: i32, dy: i32) -> Option<(i32, i32)> {
        loop {
            if !self.open(x, y) {
                return None;
            }
            if (x, y) == (self.goal.x, self.goal.y) {
                return Some((x, y));
            }
            if dx != 0 && dy != 0 {
                if self.jump(x + dx, y, dx, 0).is_some() || self.jump(x, y + dy, 0, dy).is_some() {
                    return Some((x, y));
                }
                // Diagonal steps need both orthogonal cells free.
                if !(self.open(x + dx, y) && self.open(x, y + dy)) {
                    return None;
                }
            } else if dx != 0 {
                // Along a row: 64 cells at a time on the passability bitset.
                let goal_x = (self.goal.y == y).then_some(self.goal.x);
                return self.grid.passable_bits().jump_along_row(x, y, dx, goal_x).map(|x| (x, y));
            } else if (self.open(x - 1, y) && !self.open(x - 1, y - dy))
                || (self.open(x + 1, y) && !self.open(x + 1, y - dy))
            {
                return Some((x, y));
            }
            x += dx;
            y += dy;
        }
    }

    /// The directions to explore from `(x, y)` reached from `parent` (all, at the start).
    fn directions(&self, x: i32, y: i32, parent: Option<(i32, i32)>, out: &mut Vec<(i32, i32)>) {
        out.clear();
        let Some((px, py)) = parent else {
            for (dx, dy) in super::neighbourhood::NEIGHBOURS {
                let diagonal_ok = dx == 0 || dy == 0 || (self.open(x + dx, y) && self.open(x, y + dy));
                if self.open(x + dx, y + dy) && diagonal_ok {
                    out.push((dx, dy));
                }
            }
            return;
        };
        let (dx, dy) = ((x - px).signum(), (y - py).signum());
        if dx != 0 && dy != 0 {
            let vertical = self.open(x, y + dy);
            let horizontal = self.open(x + dx, y);
            if vertical {
                out.push((0, dy));
            }
            if horizontal {
                out.push((dx, 0));
            }
            if vertical && horizontal && self.open(x + dx, y + dy) {
                out.push((dx, dy));
            }
        } else if dx != 0 {
            let next = self.open(x + dx, y);
            let (up, down) = (self.open(x, y - 1), self.open(x, y + 1));
            if next {
                out.push((dx, 0));
                if up && self.open(x + dx, y - 1) {
                    out.push((dx, -1));
                }
                if down && self.open(x + dx, y + 1) {
                    out.push((dx, 1));
                }
            }
            if up {
                out.push((0, -1));
            }
            if down {
                out.push((0, 1));
            }
        } else {
            let next = self.open(x, y + dy);
            let (left, right) = (self.open(x - 1, y), self.open(x + 1, y));
            if next {
                out.push((0, dy));
                if left && self.open(x - 1, y + dy) {
                    out.push((-1, dy));
                }
                if right && self.open(x + 1, y + dy) {
                    out.push((1, dy));
                }
            }
            if left {
                out.push((-1, 0));
            }
            if right {
                out.push((1, 0));
            }
        }
    }
}

/// Jump point search, with buffers reused from one search to the next ([`JpsSearcher::find_path`]).
#[derive(Default)]
pub struct JpsSearcher {
    g: Vec<f64>,
    parent: Vec<u32>,
    opened: Vec<u32>,
    closed: Vec<u32>,
    generation: u32,
    heap: BinaryHeap<OpenEntry>,
    directions: Vec<(i32, i32)>,
}

impl JpsSearcher {
    /// JPS from `start` to `goal` on a grid whose passable cells all cost the same (the cost of
    /// a step is its length times that cost). `expanded` counts jump points expanded.
    pub fn find_path<R: Recorder>(
        &mut self,
        grid: &CostGrid,
        start: Cell,
        goal: Cell,
        recorder: &mut R,
    ) -> Option<PathResult> {
        let s = grid.index(start.x, start.y)?;
        let t = grid.index(goal.x, goal.y)?;
        if !grid.passable(start.x, start.y) || !grid.passable(goal.x, goal.y) {
            return None;
        }
        let len = grid.len();
        if self.g.len() != len || self.generation == u32::MAX {
            self.g = vec![0.0; len];
            self.parent = vec![u32::MAX; len];
            self.opened = vec![0; len];
            self.closed = vec![0; len];
            self.generation = 0;
        }
        self.generation += 1;
        let generation = self.generation;
        self.heap.clear();
        let unit = f64::from(grid.min_cost());
        let jumper = Jumper { grid, goal };
        self.g[s] = 0.0;
        self.parent[s] = u32::MAX;
        self.opened[s] = generation;
        let mut step = 0;
        recorder.open(step, s as u32, u32::MAX, 0.0);
        self.heap.push(OpenEntry {
            priority: octile(goal.x - start.x, goal.y - start.y) * unit,
            g: 0.0,
            index: s as u32,
        });
        let mut expanded = 0;
        let mut directions = std::mem::take(&mut self.directions);
        let found = loop {
            let Some(entry) = self.heap.pop() else { break false };
            let ci = entry.index as usize;
            if self.closed[ci] == generation || entry.g > self.g[ci] {
                continue;
            }
            self.closed[ci] = generation;
            step += 1;
            expanded += 1;
            recorder.close(step, entry.index);
            if ci == t {
                break true;
            }
            let c = grid.cell_at(ci);
            let parent = (self.parent[ci] != u32::MAX).then(|| {
                let p = grid.cell_at(self.parent[ci] as usize);
                (p.x, p.y)
            });
            jumper.directions(c.x, c.y, parent, &mut directions);
            for &(dx, dy) in &directions {
                let Some((jx, jy)) = jumper.jump(c.x + dx, c.y + dy, dx, dy) else { continue };
                let ji = (jy * grid.width() + jx) as usize;
                if self.closed[ji] == generation {
                    continue;
                }
                let ng = self.g[ci] + octile(jx - c.x, jy - c.y) * unit;
                if self.opened[ji] == generation && ng >= self.g[ji] {
                    continue;
                }
                self.g[ji] = ng;
                self.parent[ji] = ci as u32;
                self.opened[ji] = generation;
                recorder.open(step, ji as u32, ci as u32, ng);
                self.heap.push(OpenEntry {
                    priority: ng + octile(goal.x - jx, goal.y - jy) * unit,
                    g: ng,
                    index: ji as u32,
                });
            }
        };
        self.directions = directions;
        if !found {
            return None;
        }
        // Jump points back to the start, then the cells between them.
        let mut points = vec![goal];
        let mut i = t;
        while self.parent[i] != u32::MAX {
            i = self.parent[i] as usize;
            points.push(grid.cell_at(i));
        }
        points.reverse();
        let mut path = vec![start];
        for pair in points.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (dx, dy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
            let mut c = a;
            while c != b {
                c = Cell::new(c.x + dx, c.y + dy);
                path.push(c);
            }
        }
        Some(PathResult { path, cost: self.g[t], expanded })
    }
}
