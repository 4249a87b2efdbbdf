//! A DCSS-style per-cell line-of-sight cache, with exact invalidation where the algorithm allows.
//!
//! Per transparent cell, its field of view within radius `R`, packed as a (2R+1)² bit window
//! around it. When one cell's opacity changes (a door opens or closes, a wall is painted:
//! [`LosCache::set_opaque`], the named invalidation event), three regions are computed:
//!
//! - **conservative**: what DCSS invalidates, every cached cell within Chebyshev distance `R`;
//! - **candidates**: the cells whose view can change, which are the only ones recomputed;
//! - **changed**: the cells, transparent before and after, whose view did change.
//!
//! ## Why the candidate region is exact
//! A view depends on a cell's opacity only if the scan *examines* that cell, and whether the scan
//! reaches a cell depends only on cells nearer the origin, never on the cell itself. For
//! `shadowcast` (every cell inside a lit sector is lit, wall or floor), `shadowline` (a tile not
//! wholly in shadow is visible; one wholly in shadow is skipped before its opacity is read) and
//! `permissive` (every visited cell is revealed) a cell is examined exactly when it is visible,
//! in either state. Walls beyond the radius only shadow cells farther away still. So the views
//! that can change are exactly those that contained the changed cell before the change: the
//! candidates are the cells that saw it (plus the cell itself when it becomes transparent, as it
//! needs a view of its own). For `circle` no view depends on opacity at all. For the other
//! algorithms an unseen cell can matter (Ford's symmetric shadowcasting reads unrevealed floor
//! for its slopes, `diamond` passes shadows through obscured tiles, `milazzo` bevels walls by
//! their unseen neighbours, `ray` and `mrpas` can come to see the cell only after the change), so
//! no smaller region is claimed: the candidates are the conservative region.

use std::time::Instant;

use rayon::prelude::*;

use super::fov::{self, Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet};
use super::geometry::Cell;

/// The regions of one opacity change.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CacheUpdate {
    pub conservative: Vec<Cell>,
    pub candidates: Vec<Cell>,
    pub changed: Vec<Cell>,
    /// Time to compute the regions and recompute the candidates, in µs.
    pub micros: f64,
}

pub struct LosCache {
    algorithm: Algorithm,
    radius: u32,
    grid: OpacityGrid,
    side: usize,
    words: usize,
    /// Per cell (row-major) a window of `words` words; all zero for an opaque cell.
    views: Vec<u64>,
    scratch: VisibleSet,
}

impl LosCache {
    /// Builds the cache for every transparent cell, in parallel.
    pub fn build(grid: &OpacityGrid, algorithm: Algorithm, radius: u32) -> Self {
        let side = 2 * radius as usize + 1;
        let words = (side * side).div_ceil(64);
        let (w, h) = (grid.width(), grid.height());
        let mut cache = Self {
            algorithm,
            radius,
            grid: grid.clone(),
            side,
            words,
            views: vec![0; (w * h) as usize * words],
            scratch: VisibleSet::new(w as u32, h as u32),
        };
        // Every view straight into its window, in parallel, one reusable visible set per worker.
        let mut views = std::mem::take(&mut cache.views);
        views.par_chunks_mut(words).enumerate().for_each_init(
            || VisibleSet::new(w as u32, h as u32),
            |visible, (i, window)| cache.compute_into(Cell::new(i as i32 % w, i as i32 / w), visible, window),
        );
        cache.views = views;
        cache
    }

    /// The view of `origin` into `window` (cleared first; left empty for an opaque origin).
    fn compute_into(&self, origin: Cell, visible: &mut VisibleSet, window: &mut [u64]) {
        window.fill(0);
        if self.grid.is_opaque(origin.x, origin.y) {
            return;
        }
        fov::compute(self.algorithm, &self.grid, FovParams::new(origin, Some(self.radius)), visible);
        for c in visible.iter() {
            let b = self.bit(origin, c);
            window[b / 64] |= 1 << (b % 64);
        }
    }

    #[inline]
    fn bit(&self, origin: Cell, c: Cell) -> usize {
        let r = self.radius as i32;
        ((c.y - origin.y + r) as usize) * self.side + (c.x - origin.x + r) as usize
    }

    fn index(&self, c: Cell) -> usize {
        (c.y * self.grid.width() + c.x) as usize
    }

    /// Bytes the views take.
    pub fn bytes(&self) -> usize {
        self.views.len() * 8
    }

    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    pub fn radius(&self) -> u32 {
        self.radius
    }

    pub fn grid(&self) -> &OpacityGrid {
        &self.grid
    }

    /// Whether the cached view of `a` contains `b`.
    pub fn sees(&self, a: Cell, b: Cell) -> bool {
        if !self.grid.in_bounds(a.x, a.y) || a.chebyshev(b) > self.radius as i32 {
            return false;
        }
        let bit = self.bit(a, b);
        self.views[self.index(a) * self.words + bit / 64] & (1 << (bit % 64)) != 0
    }

    /// The cached view of `a`.
    pub fn view(&self, a: Cell) -> Vec<Cell> {
        let r = self.radius as i32;
        let mut out = Vec::new();
        for y in a.y - r..=a.y + r {
            for x in a.x - r..=a.x + r {
                if self.sees(a, Cell::new(x, y)) {
                    out.push(Cell::new(x, y));
                }
            }
        }
        out
    }

    /// The cells with a cached view (transparent) within Chebyshev `R` of `c`, `c` included.
    fn box_around(&self, c: Cell) -> Vec<Cell> {
        let r = self.radius as i32;
        let mut out = Vec::new();
        for y in (c.y - r).max(0)..=(c.y + r).min(self.grid.height() - 1) {
            for x in (c.x - r).max(0)..=(c.x + r).min(self.grid.width() - 1) {
                if !self.grid.is_opaque(x, y) {
                    out.push(Cell::new(x, y));
                }
            }
        }
        out
    }

    /// Sets a cell's opacity and brings the cache up to date, recomputing only the candidates.
    /// Nothing is recomputed when the opacity does not change.
    pub fn set_opaque(&mut self, c: Cell, opaque: bool) -> CacheUpdate {
        let started = Instant::now();
        if !self.grid.in_bounds(c.x, c.y) || self.grid.is_opaque(c.x, c.y) == opaque {
            return CacheUpdate::default();
        }
        let before_box = self.box_around(c);
        let saw_before: Vec<Cell> = before_box.iter().copied().filter(|&a| a != c && self.sees(a, c)).collect();
        self.grid.set(c.x, c.y, opaque);
        let conservative = self.box_around(c);
        let mut candidates = match self.algorithm {
            Algorithm::Circle => Vec::new(),
            Algorithm::Shadowcast | Algorithm::Shadowline | Algorithm::Permissive => saw_before,
            _ => conservative.iter().copied().filter(|&a| a != c).collect(),
        };
        if !opaque {
            candidates.push(c);
        }
        let mut changed = Vec::new();
        let mut window = vec![0u64; self.words];
        let mut scratch = std::mem::take(&mut self.scratch);
        for &a in &candidates {
            self.compute_into(a, &mut scratch, &mut window);
            let i = self.index(a) * self.words;
            if self.views[i..i + self.words] != window[..] {
                if a != c {
                    changed.push(a);
                }
                self.views[i..i + self.words].copy_from_slice(&window);
            }
        }
        self.scratch = scratch;
        if opaque {
            let i = self.index(c) * self.words;
            self.views[i..i + self.words].fill(0);
        }
        CacheUpdate { conservative, candidates, changed, micros: started.elapsed().as_secs_f64() * 1e6 }
    }
}
