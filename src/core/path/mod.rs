//! Pathfinding on the map's grid, with recorded exploration.
//!
//! - [`CostGrid`]: what a search needs of a map, the cost of entering each cell (`None`:
//!   impassable), built from the map's rules ([`CostGrid::from_map`]) or from what a player
//!   knows of it.
//! - [`MoveRules`]: 4 or 8 neighbours, the diagonal policy, the diagonal step length.
//! - [`find_path`]: A*, Dijkstra, BFS and greedy best-first over one engine
//!   ([`search`]), returning `None` when the goal cannot be reached.
//! - [`Trace`]: what a search did, step by step, so a viewer can show the state after any step.
//!
//! Costs: a step into cell `c` costs `len × cost(c)`, where `len` is 1 for an orthogonal step and
//! the diagonal length of the rules (√2 by default) for a diagonal one. With every passable cost
//! 1 this is the MovingAI convention (orthogonal 1, diagonal √2, no corner cutting).

pub mod dijkstra_map;
mod increment_queues;
pub mod jps;
pub(crate) mod neighbourhood;
mod open_entry;
pub mod search;
pub mod trace;
mod uniform;
mod uniform_flood;

pub use search::find_path;
pub use trace::{CellState, SearchState, Trace};

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::core::model::geometry::Cell;
use crate::core::model::map::Map;
use neighbourhood::PassableBits;

/// The cost of entering each cell; `f32::INFINITY` marks an impassable cell.
#[derive(Clone, Debug)]
pub struct CostGrid {
    width: i32,
    height: i32,
    costs: Vec<f32>,
    /// The smallest and the largest passable cost: the smallest scales the heuristics so they
    /// stay admissible. After [`CostGrid::set_cost`] the range may be wider than the costs'
    /// (still admissible). Empty after [`CostGrid::refresh_cell`], and computed again when next
    /// asked: a grid refreshed a cell at a time (doors in play) is only ever searched through
    /// windows, which have their own range, so the whole grid's is rarely wanted.
    range: OnceLock<(f32, f32)>,
    /// One bit a cell: passable. Searches test passability here: 1 bit a cell stays in cache where
    /// the 4-byte costs do not, and a cell's 3×3 block is three reads.
    passable_bits: PassableBits,
}

/// Grids are equal when their cells and their cost ranges are (a range not yet found again is
/// found to compare it).
impl PartialEq for CostGrid {
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height) == (other.width, other.height)
            && self.costs == other.costs
            && self.passable_bits == other.passable_bits
            && self.cost_range() == other.cost_range()
    }
}

/// What a closed door costs to walk through.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub enum DoorRule {
    /// Closed doors are walls.
    #[default]
    Impassable,
    /// A closed door can be opened: entering it costs this much more than the open door would.
    OpenAtCost(f32),
}

impl CostGrid {
    /// Every cell passable at cost 1.
    pub fn open(width: u32, height: u32) -> Self {
        Self {
            width: width as i32,
            height: height as i32,
            costs: vec![1.0; width as usize * height as usize],
            range: OnceLock::from((1.0, 1.0)),
            passable_bits: PassableBits::all_passable(width as i32, height as i32),
        }
    }

    /// From a map's rules: walkable cells cost their tile's cost; walls and closed doors are
    /// impassable unless `doors` says closed doors can be opened.
    pub fn from_map(map: &Map, doors: DoorRule) -> Self {
        let mut grid = Self::open(map.width(), map.height());
        for i in 0..map.len() {
            grid.costs[i] = Self::cost_on_map(map, map.cell_at(i), doors);
        }
        grid.update_min_cost();
        grid
    }

    /// Cell `cell` of `map` changed (a door opened or closed): its cost is what
    /// [`CostGrid::from_map`] would give it now, and the grid is what `from_map` would make
    /// (its cost range too, so that searches on it go as on a fresh one). O(1): the range is
    /// found again, over every cell, only when next asked.
    pub fn refresh_cell(&mut self, map: &Map, cell: Cell, doors: DoorRule) {
        if let Some(i) = self.index(cell.x, cell.y) {
            let cost = Self::cost_on_map(map, cell, doors);
            if cost != self.costs[i] {
                self.costs[i] = cost;
                self.passable_bits.set(cell.x, cell.y, cost.is_finite());
                self.range = OnceLock::new();
            }
        }
    }

    /// The cells `x0 .. x0 + width`, `y0 .. y0 + height` (cut to the grid) as a grid of their
    /// own, its cell (0, 0) this one's (x0, y0) (or the cut's corner): a search that need not
    /// leave a neighbourhood runs on it, not on the whole map. Its cost range is its own cells'.
    pub fn window(&self, x0: i32, y0: i32, width: i32, height: i32) -> CostGrid {
        let (x1, y1) = ((x0 + width.max(0)).clamp(0, self.width), (y0 + height.max(0)).clamp(0, self.height));
        let (x0, y0) = (x0.clamp(0, x1), y0.clamp(0, y1));
        let mut window = Self::open((x1 - x0) as u32, (y1 - y0) as u32);
        let w = (x1 - x0) as usize;
        for y in y0..y1 {
            let row = (y * self.width + x0) as usize;
            let at = (y - y0) as usize * w;
            window.costs[at..at + w].copy_from_slice(&self.costs[row..row + w]);
        }
        window.update_min_cost();
        window
    }

    /// What entering `cell` of `map` costs under `doors`.
    fn cost_on_map(map: &Map, cell: Cell, doors: DoorRule) -> f32 {
        let rules = map.rules_at(cell);
        if rules.walkable {
            return rules.cost;
        }
        match (doors, rules.door) {
            (DoorRule::OpenAtCost(extra), Some((_, tile))) => {
                let kind = &map.tiles[usize::from(tile)];
                let open_cost = kind.door.map(|d| map.tiles[usize::from(d.toggles_to)].cost).unwrap_or(1.0);
                open_cost + extra
            }
            _ => f32::INFINITY,
        }
    }

    /// From rows of an ASCII picture: `#` (and `+`) impassable, `~` cost 3, anything else 1.
    pub fn from_ascii(rows: &[&str]) -> Self {
        let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        let mut grid = Self::open(width as u32, rows.len() as u32);
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let cost = match ch {
                    '#' | '+' => f32::INFINITY,
                    '~' => 3.0,
                    _ => 1.0,
                };
                grid.costs[y * width + x] = cost;
            }
        }
        grid.update_min_cost();
        grid
    }

    fn update_min_cost(&mut self) {
        for (i, &c) in self.costs.iter().enumerate() {
            let cell = Cell::new(i as i32 % self.width, i as i32 / self.width);
            self.passable_bits.set(cell.x, cell.y, c.is_finite());
        }
        self.update_cost_range();
    }

    /// The cost range from the costs.
    fn update_cost_range(&mut self) {
        self.range = OnceLock::from(Self::cost_range_of(&self.costs));
    }

    /// The smallest and largest finite cost; `(1, 1)` when there is none.
    fn cost_range_of(costs: &[f32]) -> (f32, f32) {
        let passable = costs.iter().copied().filter(|c| c.is_finite());
        let (min, max) = passable.fold((f32::INFINITY, 0.0f32), |(lo, hi), c| (lo.min(c), hi.max(c)));
        if min.is_finite() { (min, max) } else { (1.0, 1.0) }
    }

    /// The smallest and largest passable cost, found again if a cell changed since last asked.
    fn cost_range(&self) -> (f32, f32) {
        *self.range.get_or_init(|| Self::cost_range_of(&self.costs))
    }

    /// Whether every passable cell costs the same (as far as this grid knows: see `min_cost`).
    pub fn is_uniform(&self) -> bool {
        let (min, max) = self.cost_range();
        min == max && min > 0.0
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    pub fn len(&self) -> usize {
        self.costs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.costs.is_empty()
    }

    pub fn min_cost(&self) -> f32 {
        self.cost_range().0
    }

    /// The largest passable cost (at least: after [`CostGrid::set_cost`] it may be larger than
    /// the true maximum).
    pub fn max_cost(&self) -> f32 {
        self.cost_range().1
    }

    #[inline(always)]
    pub fn index(&self, x: i32, y: i32) -> Option<usize> {
        ((x as u32) < self.width as u32 && (y as u32) < self.height as u32).then(|| (y * self.width + x) as usize)
    }

    #[inline]
    pub fn cell_at(&self, index: usize) -> Cell {
        Cell::new(index as i32 % self.width, index as i32 / self.width)
    }

    /// The cost of entering `(x, y)`; infinite when impassable or off the grid.
    #[inline]
    pub fn cost(&self, x: i32, y: i32) -> f32 {
        match self.index(x, y) {
            Some(i) => self.costs[i],
            None => f32::INFINITY,
        }
    }

    #[inline(always)]
    pub fn passable(&self, x: i32, y: i32) -> bool {
        self.passable_bits.get(x, y)
    }

    pub(crate) fn passable_bits(&self) -> &PassableBits {
        &self.passable_bits
    }

    /// The cost every passable cell has, when they all have the same.
    pub(crate) fn uniform_cost(&self) -> Option<f32> {
        self.is_uniform().then(|| self.min_cost())
    }

    /// Sets a cell's cost (`f32::INFINITY`: impassable; negative costs count as 0). O(1): the
    /// cost range only widens.
    pub fn set_cost(&mut self, x: i32, y: i32, cost: f32) {
        if let Some(i) = self.index(x, y) {
            let cost = cost.max(0.0);
            self.costs[i] = cost;
            self.passable_bits.set(x, y, cost.is_finite());
            if cost.is_finite() {
                let (min, max) = self.cost_range();
                self.range = OnceLock::from((min.min(cost), max.max(cost)));
            }
        }
    }

    /// Blocks every cell `known` says is unknown: the grid as a player knows the map, for
    /// click-to-move through explored squares only. (The costs of the known cells come from what
    /// was built before: build the grid from the remembered map.)
    pub fn block_unknown(&mut self, known: impl Fn(usize) -> bool) {
        for (i, c) in self.costs.iter_mut().enumerate() {
            if !known(i) {
                *c = f32::INFINITY;
            }
        }
        self.update_min_cost();
    }
}

/// How many neighbours a cell has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Moves {
    Four,
    #[default]
    Eight,
}

/// When a diagonal step is allowed, by the two orthogonal cells it passes between.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum DiagonalPolicy {
    /// Always (squeezing between two walls too).
    Always,
    /// Never (4-way movement even with 8 moves).
    Never,
    /// Only when both orthogonal cells are passable (MovingAI's rule).
    #[default]
    NoCornerCut,
    /// When at most one of them is blocked.
    OneBlocked,
}

impl DiagonalPolicy {
    pub const ALL: [DiagonalPolicy; 4] =
        [DiagonalPolicy::Always, DiagonalPolicy::Never, DiagonalPolicy::NoCornerCut, DiagonalPolicy::OneBlocked];
}

/// The length of a diagonal step.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub enum DiagonalLength {
    /// √2: true distances (MovingAI's octile convention).
    #[default]
    Euclidean,
    /// 1: king moves, every step the same.
    Chebyshev,
    /// 1 + 1/16: king moves where, of two equally short paths, the one with fewer diagonals wins
    /// (the tie-break of the Grass devlog, which stops paths from wobbling).
    ChebyshevTieBreak,
}

impl DiagonalLength {
    pub const ALL: [DiagonalLength; 3] =
        [DiagonalLength::Euclidean, DiagonalLength::Chebyshev, DiagonalLength::ChebyshevTieBreak];

    /// In f64: step costs are summed in f64, so long paths keep MovingAI's 1e-4 precision.
    pub fn value(self) -> f64 {
        match self {
            DiagonalLength::Euclidean => std::f64::consts::SQRT_2,
            DiagonalLength::Chebyshev => 1.0,
            DiagonalLength::ChebyshevTieBreak => 1.0 + 1.0 / 16.0,
        }
    }
}

/// The rules a walker moves by.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct MoveRules {
    pub moves: Moves,
    pub diagonal: DiagonalPolicy,
    pub diagonal_length: DiagonalLength,
}

impl MoveRules {
    /// MovingAI's: 8 moves, no corner cutting, diagonal √2.
    pub const MOVINGAI: MoveRules = MoveRules {
        moves: Moves::Eight,
        diagonal: DiagonalPolicy::NoCornerCut,
        diagonal_length: DiagonalLength::Euclidean,
    };

    pub const FOUR: MoveRules =
        MoveRules { moves: Moves::Four, diagonal: DiagonalPolicy::Never, diagonal_length: DiagonalLength::Euclidean };

    /// Whether the step from `(x, y)` by `(dx, dy)` (each −1, 0 or 1, not both 0) is allowed.
    #[inline(always)]
    pub fn can_step(&self, grid: &CostGrid, x: i32, y: i32, dx: i32, dy: i32) -> bool {
        if !grid.passable(x + dx, y + dy) {
            return false;
        }
        if dx == 0 || dy == 0 {
            return true;
        }
        if self.moves == Moves::Four {
            return false;
        }
        match self.diagonal {
            DiagonalPolicy::Always => true,
            DiagonalPolicy::Never => false,
            DiagonalPolicy::NoCornerCut => grid.passable(x + dx, y) && grid.passable(x, y + dy),
            DiagonalPolicy::OneBlocked => grid.passable(x + dx, y) || grid.passable(x, y + dy),
        }
    }

    /// The cost of stepping into `(x, y)` orthogonally or diagonally.
    #[inline]
    pub fn step_cost(&self, grid: &CostGrid, x: i32, y: i32, diagonal: bool) -> f64 {
        let c = f64::from(grid.cost(x, y));
        if diagonal { c * self.diagonal_length.value() } else { c }
    }

    /// Whether a path (a sequence of cells) is a valid walk under these rules on `grid`: each step
    /// to a neighbour that the rules allow. Returns the walk's cost.
    pub fn walk_cost(&self, grid: &CostGrid, path: &[Cell]) -> Option<f64> {
        let mut cost = 0.0f64;
        for pair in path.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) || !self.can_step(grid, a.x, a.y, dx, dy) {
                return None;
            }
            cost += self.step_cost(grid, b.x, b.y, dx != 0 && dy != 0);
        }
        Some(cost)
    }
}

/// Estimates of the remaining cost, scaled by the grid's smallest cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Heuristic {
    Zero,
    Manhattan,
    Chebyshev,
    /// The distance on an open grid under the move rules: straight and diagonal steps of the
    /// rules' lengths, or Manhattan when there are no diagonal steps.
    #[default]
    Octile,
    Euclidean,
}

impl Heuristic {
    /// The estimate between two cells for a walker with the given diagonal length (before scaling).
    #[inline]
    pub fn estimate(self, dx: i32, dy: i32, diagonal: f64) -> f64 {
        let (dx, dy) = (f64::from(dx.unsigned_abs()), f64::from(dy.unsigned_abs()));
        match self {
            Heuristic::Zero => 0.0,
            Heuristic::Manhattan => dx + dy,
            Heuristic::Chebyshev => dx.max(dy),
            Heuristic::Octile => {
                let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
                hi - lo + lo * diagonal
            }
            Heuristic::Euclidean => (dx * dx + dy * dy).sqrt(),
        }
    }
}

/// The search algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Algorithm {
    /// A*: best first by g + w·h (optimal with an admissible heuristic and w = 1).
    AStar,
    /// Dijkstra: best first by g.
    Dijkstra,
    /// Breadth-first: fewest steps, whatever they cost.
    Bfs,
    /// Greedy best-first: by h alone (fast, not optimal).
    Greedy,
    /// Jump point search: A* that skips symmetric paths (uniform costs, MovingAI's rules; on other
    /// grids or rules it runs A*).
    Jps,
}

impl Algorithm {
    pub const ALL: [Algorithm; 5] =
        [Algorithm::AStar, Algorithm::Dijkstra, Algorithm::Bfs, Algorithm::Greedy, Algorithm::Jps];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::Dijkstra => "dijkstra",
            Algorithm::Bfs => "bfs",
            Algorithm::Greedy => "greedy",
            Algorithm::Jps => "jps",
        }
    }

    pub fn from_name(name: &str) -> Option<Algorithm> {
        Self::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// A search's settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchParams {
    pub algorithm: Algorithm,
    pub rules: MoveRules,
    pub heuristic: Heuristic,
    /// Weight of the heuristic in A* (1: optimal).
    pub weight: f32,
}

impl Default for SearchParams {
    fn default() -> Self {
        Self { algorithm: Algorithm::AStar, rules: MoveRules::MOVINGAI, heuristic: Heuristic::Octile, weight: 1.0 }
    }
}

/// A found path.
#[derive(Clone, Debug, PartialEq)]
pub struct PathResult {
    /// From the start to the goal, both included.
    pub path: Vec<Cell>,
    /// The sum of the step costs.
    pub cost: f64,
    /// Cells taken off the open list and expanded.
    pub expanded: usize,
}
