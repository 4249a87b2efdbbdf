//! One best-first engine for A*, Dijkstra, greedy best-first, and a FIFO for breadth-first.
//!
//! Definitions (Hart, Nilsson & Raphael 1968 for A*; Dijkstra 1959): the open list is ordered by
//! `f = g + w·h` (A*), `g` (Dijkstra, `h = 0`) or `h` (greedy), ties broken towards the larger `g`
//! (the deeper node); a node is expanded once (closed set; stale open entries are skipped); the
//! search ends when the goal is taken off the open list. BFS expands cells in order of their
//! number of steps. With an admissible, consistent heuristic (octile, Chebyshev, Manhattan for 4
//! moves, all scaled by the grid's smallest cost) and `w = 1`, A* returns a least-cost path, as
//! Dijkstra does.

use std::cell::RefCell;
use std::collections::VecDeque;

use super::neighbourhood::NEIGHBOURS;
use super::trace::{NoRecord, Recorder};
use super::{Algorithm, CostGrid, PathResult, SearchParams};
use crate::core::model::geometry::Cell;

const NO_PARENT: u32 = u32::MAX;

/// The open list of A*, Dijkstra and greedy best-first: a 4-ary min-heap of 16-byte entries,
/// ordered by priority, then by the smaller heuristic (of two entries with equal `f = g + w·h`,
/// the deeper node, with the larger `g`). Both are non-negative floats, compared as their bit
/// patterns (which order non-negative IEEE floats exactly), so a comparison is two integer
/// compares. Four children a node halve the depth of a binary heap: fewer cache misses on the
/// way down, which is where a grid search spends its time.
#[derive(Default)]
struct OpenList {
    /// `(priority bits, heuristic bits, cell index)`.
    items: Vec<(u64, u32, u32)>,
}

impl OpenList {
    fn clear(&mut self) {
        self.items.clear();
    }

    #[inline(always)]
    fn less(a: &(u64, u32, u32), b: &(u64, u32, u32)) -> bool {
        (a.0, a.1) < (b.0, b.1)
    }

    #[inline]
    fn push(&mut self, priority: f64, h: f64, index: u32) {
        // Non-negative by construction (costs, weights and estimates are); max(0) keeps the bit
        // order valid whatever happens.
        let item = (priority.max(0.0).to_bits(), (h.max(0.0) as f32).to_bits(), index);
        let mut i = self.items.len();
        self.items.push(item);
        while i > 0 {
            let parent = (i - 1) / 4;
            if !Self::less(&item, &self.items[parent]) {
                break;
            }
            self.items[i] = self.items[parent];
            i = parent;
        }
        self.items[i] = item;
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        let top = *self.items.first()?;
        let last = self.items.pop().expect("not empty");
        let n = self.items.len();
        if n > 0 {
            let mut i = 0;
            loop {
                let first = 4 * i + 1;
                if first >= n {
                    break;
                }
                let mut best = first;
                for c in first + 1..(first + 4).min(n) {
                    if Self::less(&self.items[c], &self.items[best]) {
                        best = c;
                    }
                }
                if !Self::less(&self.items[best], &last) {
                    break;
                }
                self.items[i] = self.items[best];
                i = best;
            }
            self.items[i] = last;
        }
        Some(top.2)
    }
}

/// A cell's search state, packed so one cache line holds four of them.
#[derive(Clone, Copy, Default)]
struct Node {
    g: f64,
    parent: u32,
    /// `generation << 1` once opened in the current search, `| 1` once closed.
    mark: u32,
}

/// Reusable search buffers: a search on a grid of the same size allocates nothing.
#[derive(Default)]
pub struct Searcher {
    nodes: Vec<Node>,
    generation: u32,
    open: OpenList,
    fifo: VecDeque<u32>,
    jps: super::jps::JpsSearcher,
    uniform: super::uniform::UniformSearcher,
}

impl Searcher {
    pub fn new() -> Self {
        Self::default()
    }

    fn reset(&mut self, len: usize) {
        if self.nodes.len() != len || self.generation >= u32::MAX >> 1 {
            self.nodes = vec![Node::default(); len];
            self.generation = 0;
        }
        self.generation += 1;
        self.open.clear();
        self.fifo.clear();
    }

    /// Searches from `start` to `goal`; `None` when the goal cannot be reached (or either end is
    /// impassable or off the grid).
    pub fn find_path(&mut self, grid: &CostGrid, params: &SearchParams, start: Cell, goal: Cell) -> Option<PathResult> {
        self.find_path_recorded(grid, params, start, goal, &mut NoRecord)
    }

    /// As [`Searcher::find_path`], telling `recorder` every open and close.
    pub fn find_path_recorded<R: Recorder>(
        &mut self,
        grid: &CostGrid,
        params: &SearchParams,
        start: Cell,
        goal: Cell,
        recorder: &mut R,
    ) -> Option<PathResult> {
        if params.algorithm == Algorithm::Jps {
            if params.rules == super::MoveRules::MOVINGAI && grid.is_uniform() {
                return self.jps.find_path(grid, start, goal, recorder);
            }
            let astar = SearchParams { algorithm: Algorithm::AStar, ..*params };
            return self.find_path_recorded(grid, &astar, start, goal, recorder);
        }
        if super::uniform::applies(grid, params) {
            return self.uniform.find_path(grid, params, start, goal, recorder);
        }
        self.find_path_general(grid, params, start, goal, recorder)
    }

    /// The general engine: any costs, weights, estimates; f64 arithmetic and a 4-ary heap.
    fn find_path_general<R: Recorder>(
        &mut self,
        grid: &CostGrid,
        params: &SearchParams,
        start: Cell,
        goal: Cell,
        recorder: &mut R,
    ) -> Option<PathResult> {
        let s = grid.index(start.x, start.y)?;
        let t = grid.index(goal.x, goal.y)?;
        if !grid.passable(start.x, start.y) || !grid.passable(goal.x, goal.y) {
            return None;
        }
        self.reset(grid.len());
        let generation = self.generation;
        let rules = params.rules;
        let diagonal = rules.diagonal_length.value();
        let uniform_cost = grid.is_uniform().then(|| f64::from(grid.min_cost()));
        let scale = f64::from(grid.min_cost());
        let h_weight = match params.algorithm {
            Algorithm::AStar => f64::from(params.weight),
            Algorithm::Greedy => 1.0,
            Algorithm::Dijkstra | Algorithm::Bfs => 0.0,
            Algorithm::Jps => unreachable!("handled above"),
        };
        let g_weight = if params.algorithm == Algorithm::Greedy { 0.0 } else { 1.0 };
        // Without diagonal steps the octile distance is the Manhattan distance.
        let no_diagonals = rules.moves == super::Moves::Four || rules.diagonal == super::DiagonalPolicy::Never;
        let kind = match params.heuristic {
            super::Heuristic::Octile if no_diagonals => super::Heuristic::Manhattan,
            other => other,
        };
        let heuristic = |c: Cell| -> f64 {
            if h_weight == 0.0 { 0.0 } else { kind.estimate(goal.x - c.x, goal.y - c.y, diagonal) * scale }
        };
        let neighbours = match rules.moves {
            super::Moves::Four => &NEIGHBOURS[..4],
            super::Moves::Eight => &NEIGHBOURS[..],
        };
        let opened = generation << 1;
        let closed = opened | 1;
        self.nodes[s] = Node { g: 0.0, parent: NO_PARENT, mark: opened };
        let mut step = 0u32;
        recorder.open(step, s as u32, NO_PARENT, 0.0);
        let bfs = params.algorithm == Algorithm::Bfs;
        if bfs {
            self.fifo.push_back(s as u32);
        } else {
            let h = heuristic(start);
            self.open.push(h_weight * h, h, s as u32);
        }
        let mut expanded = 0usize;
        loop {
            let current = if bfs {
                self.fifo.pop_front()?
            } else {
                let index = self.open.pop()?;
                // A cell reopened with a better g was pushed again with a smaller priority and
                // closed first: its older entries are stale.
                if self.nodes[index as usize].mark == closed {
                    continue;
                }
                index
            };
            let ci = current as usize;
            self.nodes[ci].mark = closed;
            step += 1;
            expanded += 1;
            recorder.close(step, current);
            if ci == t {
                break;
            }
            let c = grid.cell_at(ci);
            let gc = self.nodes[ci].g;
            for &(dx, dy) in neighbours {
                if !rules.can_step(grid, c.x, c.y, dx, dy) {
                    continue;
                }
                let (nx, ny) = (c.x + dx, c.y + dy);
                let ni = (ny * grid.width() + nx) as usize;
                let node = self.nodes[ni];
                if node.mark == closed {
                    continue;
                }
                let diagonal_step = dx != 0 && dy != 0;
                let step_cost = match uniform_cost {
                    // Every passable cell costs the same: no need to read the cost.
                    Some(unit) => {
                        if diagonal_step {
                            unit * diagonal
                        } else {
                            unit
                        }
                    }
                    None => rules.step_cost(grid, nx, ny, diagonal_step),
                };
                let ng = gc + step_cost;
                let seen = node.mark == opened;
                if bfs {
                    if seen {
                        continue;
                    }
                } else if seen && ng >= node.g {
                    continue;
                }
                self.nodes[ni] = Node { g: ng, parent: current, mark: opened };
                recorder.open(step, ni as u32, current, ng);
                if bfs {
                    self.fifo.push_back(ni as u32);
                } else {
                    let h = heuristic(Cell::new(nx, ny));
                    self.open.push(g_weight * ng + h_weight * h, h, ni as u32);
                }
            }
        }
        let mut path = vec![goal];
        let mut i = t;
        while self.nodes[i].parent != NO_PARENT {
            i = self.nodes[i].parent as usize;
            path.push(grid.cell_at(i));
        }
        path.reverse();
        Some(PathResult { path, cost: self.nodes[t].g, expanded })
    }
}

thread_local! {
    static SEARCHER: RefCell<Searcher> = RefCell::new(Searcher::new());
}

/// Finds a path with a thread-local [`Searcher`] (no allocation once warm on a given grid size).
///
/// ```
/// use sightline::core::Cell;
/// use sightline::core::path::{CostGrid, SearchParams, find_path};
///
/// let grid = CostGrid::from_ascii(&["....", ".##.", "...."]);
/// let result = find_path(&grid, &SearchParams::default(), Cell::new(0, 1), Cell::new(3, 1)).unwrap();
/// assert_eq!(result.path.first(), Some(&Cell::new(0, 1)));
/// // No corner cutting past the walls: round them orthogonally, 5 steps.
/// assert_eq!(result.cost, 5.0);
/// let walled = CostGrid::from_ascii(&[".#."]);
/// assert!(find_path(&walled, &SearchParams::default(), Cell::new(0, 0), Cell::new(2, 0)).is_none());
/// ```
pub fn find_path(grid: &CostGrid, params: &SearchParams, start: Cell, goal: Cell) -> Option<PathResult> {
    SEARCHER.with(|s| s.borrow_mut().find_path(grid, params, start, goal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::path::{DiagonalLength, DiagonalPolicy, Heuristic, MoveRules, Moves};
    use crate::core::rng::Rng;

    /// A long diagonal: the reported cost is the real one to f64 precision, not the fixed
    /// point's (which drifts by 3.4e-12 a diagonal step).
    #[test]
    fn uniform_engine_costs_are_real_costs() {
        let grid = CostGrid::open(1000, 1000);
        let result = find_path(&grid, &SearchParams::default(), Cell::new(0, 0), Cell::new(999, 999)).unwrap();
        assert!((result.cost - 999.0 * std::f64::consts::SQRT_2).abs() < 1e-11, "{}", result.cost);
        let walked = MoveRules::MOVINGAI.walk_cost(&grid, &result.path).unwrap();
        assert!((walked - result.cost).abs() < 1e-9);
    }

    /// One searcher run many times on one grid (past the 15 generations its cell stamps count
    /// before they are cleared) finds what a fresh searcher finds, each time.
    #[test]
    fn a_reused_searcher_agrees_with_a_fresh_one() {
        let mut rng = Rng::new(17);
        let mut grid = CostGrid::open(30, 20);
        for y in 0..20 {
            for x in 0..30 {
                if rng.chance(0.3) {
                    grid.set_cost(x, y, f32::INFINITY);
                }
            }
        }
        let params = SearchParams::default();
        assert!(crate::core::path::uniform::applies(&grid, &params));
        let mut reused = Searcher::new();
        let mut found = 0;
        for _ in 0..100 {
            let a = Cell::new(rng.below(30) as i32, rng.below(20) as i32);
            let b = Cell::new(rng.below(30) as i32, rng.below(20) as i32);
            let fresh = Searcher::new().find_path(&grid, &params, a, b);
            assert_eq!(reused.find_path(&grid, &params, a, b), fresh, "{a:?}→{b:?}");
            found += usize::from(fresh.is_some());
        }
        assert!(found > 20, "only {found} paths found");
    }

    /// The uniform-cost engine (fixed point, increment queues) finds paths of the same cost as the
    /// general engine (f64, 4-ary heap), valid under the rules, on random uniform grids, for
    /// every rule, diagonal length and consistent estimate; and says "unreachable" when it does.
    #[test]
    fn uniform_engine_agrees_with_the_general_engine() {
        let mut rng = Rng::new(99);
        let mut searcher = Searcher::new();
        let mut compared = 0;
        for round in 0..600 {
            let (w, h) = (1 + rng.below(40), 1 + rng.below(30));
            let mut grid = CostGrid::open(w, h);
            let unit = [1.0f32, 2.5, 0.5][round % 3];
            let walls = [0.1, 0.25, 0.4][round % 3];
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    grid.set_cost(x, y, if rng.chance(walls) { f32::INFINITY } else { unit });
                }
            }
            grid.update_min_cost();
            let moves = if rng.chance(0.5) { Moves::Four } else { Moves::Eight };
            let diagonal = DiagonalPolicy::ALL[rng.below(4) as usize];
            let diagonal_length = DiagonalLength::ALL[rng.below(3) as usize];
            let rules = MoveRules { moves, diagonal, diagonal_length };
            for (algorithm, heuristic) in [
                (Algorithm::AStar, Heuristic::Octile),
                (Algorithm::AStar, Heuristic::Chebyshev),
                (Algorithm::AStar, Heuristic::Zero),
                (Algorithm::Dijkstra, Heuristic::Octile),
            ] {
                let params = SearchParams { algorithm, rules, heuristic, weight: 1.0 };
                let a = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
                let b = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
                assert!(crate::core::path::uniform::applies(&grid, &params));
                let fast = searcher.find_path(&grid, &params, a, b);
                let general = searcher.find_path_general(&grid, &params, a, b, &mut NoRecord);
                match (&fast, &general) {
                    (Some(f), Some(g)) => {
                        assert!((f.cost - g.cost).abs() < 1e-9, "{params:?} {a:?}→{b:?}: {} vs {}", f.cost, g.cost);
                        let walked = rules.walk_cost(&grid, &f.path).expect("a valid walk");
                        assert!((walked - f.cost).abs() < 1e-9);
                        assert_eq!((f.path.first(), f.path.last()), (Some(&a), Some(&b)));
                        compared += 1;
                    }
                    (None, None) => {}
                    _ => panic!("{params:?} {a:?}→{b:?}: fast {fast:?}, general {general:?}"),
                }
            }
        }
        assert!(compared > 1000, "only {compared} paths compared");
    }
}
