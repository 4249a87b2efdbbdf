//! What a search did, step by step.
//!
//! A [`Trace`] is the search's log: every time a cell is opened (or reopened with a better cost)
//! and every time one is closed, with the step (expansion count) it happened at. The state after
//! step `k` — which cells are open, which closed, their costs and came-from parents, the path
//! found so far — is rebuilt from the log in one pass, without searching again: O(log length),
//! which is at most nine entries a cell.

use super::CostGrid;
use crate::core::model::geometry::Cell;

/// Told about a search as it runs. [`NoRecord`] ignores everything, so a search without a
/// trace pays nothing for the hooks.
pub trait Recorder {
    fn open(&mut self, step: u32, cell: u32, parent: u32, g: f64);
    fn close(&mut self, step: u32, cell: u32);
}

/// The recorder that records nothing.
pub struct NoRecord;

impl Recorder for NoRecord {
    #[inline(always)]
    fn open(&mut self, _: u32, _: u32, _: u32, _: f64) {}
    #[inline(always)]
    fn close(&mut self, _: u32, _: u32) {}
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Event {
    Open { step: u32, cell: u32, parent: u32, g: f64 },
    Close { step: u32, cell: u32 },
}

/// The log of one search on a grid of `width × height` cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    width: i32,
    height: i32,
    events: Vec<Event>,
    steps: u32,
}

impl Trace {
    pub fn new(grid: &CostGrid) -> Self {
        Self { width: grid.width(), height: grid.height(), events: Vec::new(), steps: 0 }
    }

    /// Number of expansions the search made.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// The state after `step` expansions (`step` ≥ [`Trace::steps`]: the final state).
    pub fn state_at(&self, step: u32) -> SearchState {
        let len = (self.width * self.height) as usize;
        let mut state = SearchState {
            width: self.width,
            step: step.min(self.steps),
            cells: vec![CellState::Unseen; len],
            g: vec![f64::INFINITY; len],
            parent: vec![u32::MAX; len],
            last_closed: None,
        };
        for event in &self.events {
            match *event {
                Event::Open { step: s, cell, parent, g } if s <= step => {
                    let i = cell as usize;
                    state.cells[i] = CellState::Open;
                    state.g[i] = g;
                    state.parent[i] = parent;
                }
                Event::Close { step: s, cell } if s <= step => {
                    state.cells[cell as usize] = CellState::Closed;
                    state.last_closed = Some(cell);
                }
                _ => {}
            }
        }
        state
    }
}

impl Recorder for Trace {
    fn open(&mut self, step: u32, cell: u32, parent: u32, g: f64) {
        self.events.push(Event::Open { step, cell, parent, g });
    }

    fn close(&mut self, step: u32, cell: u32) {
        self.steps = self.steps.max(step);
        self.events.push(Event::Close { step, cell });
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellState {
    Unseen,
    /// On the frontier.
    Open,
    /// Expanded.
    Closed,
}

/// The search's state after some step.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchState {
    width: i32,
    pub step: u32,
    pub cells: Vec<CellState>,
    /// Best known cost from the start (∞ when unseen).
    pub g: Vec<f64>,
    /// Came-from cell index (`u32::MAX`: none).
    pub parent: Vec<u32>,
    /// The cell expanded at this step.
    pub last_closed: Option<u32>,
}

impl SearchState {
    pub fn cell(&self, index: usize) -> Cell {
        Cell::new(index as i32 % self.width, index as i32 / self.width)
    }

    pub fn index(&self, cell: Cell) -> usize {
        (cell.y * self.width + cell.x) as usize
    }

    /// The came-from chain from `cell` back to the start.
    pub fn path_to(&self, cell: Cell) -> Vec<Cell> {
        let mut path = vec![cell];
        let mut i = self.index(cell);
        let mut guard = self.cells.len();
        while self.parent[i] != u32::MAX && guard > 0 {
            i = self.parent[i] as usize;
            path.push(self.cell(i));
            guard -= 1;
        }
        path.reverse();
        path
    }
}
