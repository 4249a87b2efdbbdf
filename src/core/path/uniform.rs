//! A* and Dijkstra on grids where every passable cell costs the same: the common case (MovingAI
//! maps, dungeons whose floors all cost 1), made fast without giving up exactness.
//!
//! The definitions are those of [`super::search`] (A*: Hart, Nilsson & Raphael 1968, best first
//! by f = g + h, each cell expanded once; Dijkstra 1959: h = 0). What changes is arithmetic and
//! data structures:
//!
//! - **Fixed-point costs.** An orthogonal step is `ONE` = 2³⁶, a diagonal one `round(√2 · ONE)`
//!   (or `ONE`, or `ONE + ONE/16` for the Grass tie-break, both exact). A walk of `a` orthogonal
//!   and `b` diagonal steps costs `a + b√2` in reals; two walks of different real cost and at
//!   most N steps differ by at least about 1 / (2√2 · N) (Pell: |p − q√2| > 1 / (2√2 · q + 1)), while
//!   the rounding error of a walk is at most N · 2⁻³⁷, so for walks up to 150 000 steps the
//!   fixed-point order of walks is the real order: the least-cost path is the real one. (Longer
//!   walks are still within 1e-6 of the least cost.) The cost reported is summed in f64 from the
//!   path's step counts, not converted from the fixed point.
//! - **Integer heuristics that are consistent exactly** (octile, Chebyshev, Manhattan without
//!   diagonals). f never decreases along the search, and a step raises it by one of a few
//!   amounts (its cost plus the estimate's change), so the open list is [`IncrementQueues`]:
//!   one first-in first-out queue per amount, each sorted by construction; ties at the smallest
//!   f come out last in, first out, which expands the deeper node first (the tie-break the
//!   general engine gets by comparing g).
//! - **Allowed steps from one table look-up** a cell ([`StepTable`]), and node coordinates carried
//!   in the open list (no division to recover them).
//!
//! Weighted A*, Euclidean estimates (a square root is not exact in integers), greedy search,
//! BFS and grids with varied costs use the general engine.

use super::increment_queues::IncrementQueues;
use super::neighbourhood::NEIGHBOURS;
use super::neighbourhood::StepTable;
use super::trace::Recorder;
use super::{Algorithm, CostGrid, DiagonalLength, DiagonalPolicy, Heuristic, Moves, PathResult, SearchParams};
use crate::core::model::geometry::Cell;

/// The fixed-point cost of an orthogonal step.
const ONE: u64 = 1 << 36;
const NO_PARENT: u32 = u32::MAX;

/// The fixed-point cost of a diagonal step.
fn diagonal_step(length: DiagonalLength) -> u64 {
    match length {
        DiagonalLength::Euclidean => (std::f64::consts::SQRT_2 * ONE as f64).round() as u64,
        DiagonalLength::Chebyshev => ONE,
        DiagonalLength::ChebyshevTieBreak => ONE + ONE / 16,
    }
}

/// Whether this engine runs `params` on `grid`: A* with weight 1 and an estimate that is
/// consistent in integers, or Dijkstra, on a grid of uniform cost whose coordinates fit 16 bits
/// and whose longest walk cannot overflow the fixed-point costs.
pub(crate) fn applies(grid: &CostGrid, params: &SearchParams) -> bool {
    let no_diagonals = params.rules.moves == Moves::Four || params.rules.diagonal == DiagonalPolicy::Never;
    let consistent = match params.algorithm {
        Algorithm::Dijkstra => true,
        Algorithm::AStar => {
            params.weight == 1.0
                && match params.heuristic {
                    Heuristic::Zero | Heuristic::Octile | Heuristic::Chebyshev => true,
                    Heuristic::Manhattan => no_diagonals,
                    Heuristic::Euclidean => false,
                }
        }
        Algorithm::Bfs | Algorithm::Greedy | Algorithm::Jps => false,
    };
    consistent
        && grid.uniform_cost().is_some()
        && grid.width() < 1 << 16
        && grid.height() < 1 << 16
        && grid.len() < 1 << 26
}

/// A cell's search state, one byte: the search's generation (1 to 15) in the high four bits,
/// then bit 3 set once closed, then the direction (`NEIGHBOURS` index) of the step that reached
/// it (unused for the start). Testing "closed" (the commonest test) reads one byte a cell, 64
/// cells a cache line, a quarter of the lines and pages 4-byte stamps took (A* on a megacell
/// map: 10% faster in peer-bench's binary, within noise in criterion's; see BENCHMARKS.md). The
/// costs (8 bytes a cell) are read only for open cells. Every 15th search clears the stamps (a
/// `memset` of a byte a cell, under a millisecond for a megacell map).
type Stamp = u8;
const CLOSED: Stamp = 1 << 3;
const DIRECTION: Stamp = 7;

/// Reusable buffers of the uniform-cost engine.
#[derive(Default)]
pub(crate) struct UniformSearcher {
    stamps: Vec<Stamp>,
    /// g of the cells opened in this search (others hold stale values).
    costs: Vec<u64>,
    generation: u8,
    /// Entries: f, then the cell as `(x | y << 16, index)`.
    open: IncrementQueues<(u32, u32)>,
}

impl UniformSearcher {
    /// Runs a search that [`applies`]. `None`: the goal cannot be reached, or an end is
    /// impassable or off the grid.
    pub(crate) fn find_path<R: Recorder>(
        &mut self,
        grid: &CostGrid,
        params: &SearchParams,
        start: Cell,
        goal: Cell,
        recorder: &mut R,
    ) -> Option<PathResult> {
        debug_assert!(applies(grid, params));
        let s = grid.index(start.x, start.y)?;
        let t = grid.index(goal.x, goal.y)?;
        if !grid.passable(start.x, start.y) || !grid.passable(goal.x, goal.y) {
            return None;
        }
        let rules = params.rules;
        let diagonal = diagonal_step(rules.diagonal_length);
        let no_diagonals = rules.moves == Moves::Four || rules.diagonal == DiagonalPolicy::Never;
        let (gx, gy) = (goal.x as u32, goal.y as u32);
        let heuristic = if params.algorithm == Algorithm::Dijkstra { Heuristic::Zero } else { params.heuristic };
        // How f can change a step: the step's cost plus the estimate's change, which moves each
        // of the estimate's terms (a count of `ONE`s, and of `diagonal − ONE`s for the octile)
        // by −1, 0 or 1 (see `IncrementQueues`).
        let steps: &[u64] = if no_diagonals { &[ONE] } else { &[ONE, diagonal] };
        let terms: &[u64] = match heuristic {
            Heuristic::Zero => &[],
            Heuristic::Octile if !no_diagonals => &[ONE, diagonal - ONE],
            _ => &[ONE],
        };
        let mut increments: Vec<i128> = steps.iter().map(|&c| i128::from(c)).collect();
        for &term in terms {
            let term = i128::from(term);
            increments = increments.iter().flat_map(|&i| [i - term, i, i + term]).collect();
        }
        // (f never goes down: the negative ones never come.)
        let increments = increments.into_iter().filter_map(|i| u64::try_from(i).ok()).collect();
        let search = Search { grid, table: StepTable::of(&rules), diagonal, start, s, t, increments };
        let (g, expanded) = match heuristic {
            Heuristic::Zero => self.run(&search, recorder, |_, _| 0),
            Heuristic::Manhattan => self.run(&search, recorder, |x, y| (x.abs_diff(gx) + y.abs_diff(gy)) as u64 * ONE),
            Heuristic::Octile if no_diagonals => {
                self.run(&search, recorder, |x, y| (x.abs_diff(gx) + y.abs_diff(gy)) as u64 * ONE)
            }
            Heuristic::Octile => self.run(&search, recorder, |x, y| {
                let (dx, dy) = (x.abs_diff(gx) as u64, y.abs_diff(gy) as u64);
                let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
                hi * ONE + lo * (diagonal - ONE)
            }),
            Heuristic::Chebyshev => self.run(&search, recorder, |x, y| x.abs_diff(gx).max(y.abs_diff(gy)) as u64 * ONE),
            Heuristic::Euclidean => unreachable!("not consistent in integers: the general engine runs it"),
        }?;
        let unit = f64::from(grid.uniform_cost().expect("uniform"));
        let mut path = vec![goal];
        let mut cell = goal;
        // The cost from the path's step counts, in f64 (the fixed-point g is off by up to
        // 3.4e-12 a diagonal step: it orders walks exactly but would drift on long paths).
        let (mut straight, mut diagonal_steps) = (0u64, 0u64);
        while grid.index(cell.x, cell.y) != Some(s) {
            let d = (self.stamps[grid.index(cell.x, cell.y).expect("on the grid")] & DIRECTION) as usize;
            let (dx, dy) = NEIGHBOURS[d];
            if d < 4 {
                straight += 1;
            } else {
                diagonal_steps += 1;
            }
            cell = Cell::new(cell.x - dx, cell.y - dy);
            path.push(cell);
        }
        path.reverse();
        debug_assert_eq!(straight * ONE + diagonal_steps * diagonal, g);
        let cost = (straight as f64 + diagonal_steps as f64 * rules.diagonal_length.value()) * unit;
        Some(PathResult { path, cost, expanded })
    }

    /// The search loop, for one estimate `h(x, y)`. Returns the goal's g and the expansions.
    #[inline(always)]
    fn run<R: Recorder, H: Fn(u32, u32) -> u64>(
        &mut self,
        search: &Search,
        recorder: &mut R,
        h: H,
    ) -> Option<(u64, usize)> {
        let grid = search.grid;
        let unit = f64::from(grid.uniform_cost().expect("uniform"));
        if self.stamps.len() != grid.len() {
            self.stamps = vec![0; grid.len()];
            self.costs = vec![0; grid.len()];
            self.generation = 0;
        } else if self.generation == 15 {
            self.stamps.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
        let opened = self.generation << 4;
        let width = grid.width() as isize;
        let offsets: [isize; 8] = std::array::from_fn(|d| NEIGHBOURS[d].1 as isize * width + NEIGHBOURS[d].0 as isize);
        // The packed coordinate change: dx + dy·2¹⁶ (wrapping; a step never leaves the grid).
        let moves: [u32; 8] = std::array::from_fn(|d| (NEIGHBOURS[d].0 + (NEIGHBOURS[d].1 << 16)) as u32);
        let step_costs: [u64; 8] = std::array::from_fn(|d| if d < 4 { ONE } else { search.diagonal });

        let stamps = &mut self.stamps[..];
        let costs = &mut self.costs[..];
        let (sx, sy) = (search.start.x as u32, search.start.y as u32);
        stamps[search.s] = opened | DIRECTION;
        costs[search.s] = 0;
        let mut step = 0u32;
        recorder.open(step, search.s as u32, NO_PARENT, 0.0);
        self.open.reset(&search.increments, h(sx, sy), (sx | sy << 16, search.s as u32));
        let mut expanded = 0usize;
        while let Some((_, (xy, index))) = self.open.pop() {
            let ci = index as usize;
            // A cell reopened with a better g was pushed again with a smaller f and closed
            // first: its older entries are stale.
            // (Every entry was opened in this search.)
            if stamps[ci] & CLOSED != 0 {
                continue;
            }
            stamps[ci] |= CLOSED;
            let g = costs[ci];
            step += 1;
            expanded += 1;
            recorder.close(step, index);
            if ci == search.t {
                return Some((g, expanded));
            }
            let (x, y) = (xy & 0xffff, xy >> 16);
            let mut allowed = search.table.allowed(grid.passable_bits().block(x as i32, y as i32));

            while allowed != 0 {
                let d = allowed.trailing_zeros() as usize;
                allowed &= allowed - 1;
                let ni = (ci as isize + offsets[d]) as usize;
                let stamp = stamps[ni];
                let seen = stamp >> 4 == self.generation;
                if seen && stamp & CLOSED != 0 {
                    continue;
                }
                let ng = g + step_costs[d];
                if seen && ng >= costs[ni] {
                    continue;
                }
                stamps[ni] = opened | d as u8;
                costs[ni] = ng;
                recorder.open(step, ni as u32, index, to_cost(ng, unit));
                let nxy = xy.wrapping_add(moves[d]);
                self.open.push(ng + h(nxy & 0xffff, nxy >> 16), (nxy, ni as u32));
            }
        }
        None
    }
}

/// What one search needs besides the estimate.
struct Search<'a> {
    grid: &'a CostGrid,
    table: &'static StepTable,
    diagonal: u64,
    start: Cell,
    s: usize,
    t: usize,
    /// Every amount f can go up by in one step.
    increments: Vec<u64>,
}

/// A fixed-point cost in the grid's units.
#[inline(always)]
fn to_cost(fixed: u64, unit: f64) -> f64 {
    fixed as f64 / ONE as f64 * unit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::path::trace::NoRecord;
    use crate::core::path::{DiagonalLength, MoveRules};
    use crate::core::rng::Rng;

    /// Every key a search pushes is the last popped one plus one of the increments `find_path`
    /// lists for its rule and estimate, so none goes to the queues' fallback heap: under every
    /// rule, diagonal length and estimate this engine takes, on random grids. (A missing
    /// increment would still give the right paths, more slowly; the engine's costs are checked
    /// against the general engine in `search`'s tests.)
    #[test]
    fn every_step_raises_f_by_a_listed_increment() {
        let mut rng = Rng::new(41);
        let mut searcher = UniformSearcher::default();
        let mut searched = 0;
        for round in 0..300 {
            let (w, h) = (2 + rng.below(40), 2 + rng.below(30));
            let mut grid = CostGrid::open(w, h);
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    if rng.chance([0.1, 0.25, 0.4][round % 3]) {
                        grid.set_cost(x, y, f32::INFINITY);
                    }
                }
            }
            let moves = if round % 2 == 0 { Moves::Four } else { Moves::Eight };
            let diagonal = DiagonalPolicy::ALL[(round / 2) % 4];
            let diagonal_length = DiagonalLength::ALL[(round / 8) % 3];
            let rules = MoveRules { moves, diagonal, diagonal_length };
            for (algorithm, heuristic) in [
                (Algorithm::AStar, Heuristic::Octile),
                (Algorithm::AStar, Heuristic::Chebyshev),
                (Algorithm::AStar, Heuristic::Manhattan),
                (Algorithm::AStar, Heuristic::Zero),
                (Algorithm::Dijkstra, Heuristic::Octile),
            ] {
                let params = SearchParams { algorithm, rules, heuristic, weight: 1.0 };
                if !applies(&grid, &params) {
                    continue;
                }
                let a = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
                let b = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
                if searcher.find_path(&grid, &params, a, b, &mut NoRecord).is_some() {
                    assert_eq!(searcher.open.unlisted, 0, "{params:?} {a:?}→{b:?}");
                    searched += 1;
                }
            }
        }
        assert!(searched > 500, "only {searched} searches");
    }
}
