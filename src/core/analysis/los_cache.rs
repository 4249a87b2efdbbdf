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
//! ## Why the candidate region is exact, for every algorithm
//! Every view is computed through a recording opacity grid that notes each cell the computation
//! **reads** (its read-set, kept beside the view, in the same window). An FOV computation is a
//! deterministic function of the opacities it reads: if it never read cell `c`, running it again
//! with `c` flipped reads the same cells, gets the same answers and produces the same view (by
//! induction over its reads). So the views that can change when `c` changes are exactly those
//! whose read-set contains `c`; they are the candidates, and the only views recomputed (their
//! read-sets are recomputed with them; every other read-set stays valid for the same reason).
//! Plus the cell itself when it becomes transparent, as it needs a view of its own.
//!
//! This needs no argument per algorithm. Where one can be made it tightens the region: `circle`
//! reads nothing (no view depends on opacity); `shadowcast`, `shadowline` and `permissive`
//! *examine* a cell (use its opacity) exactly when it is visible, so the views that saw `c` bound
//! the candidates too, and the cache takes both bounds together (a scan may fetch a cell's
//! opacity before finding it outside the radius disc: read, but not examined). Why they examine
//! exactly what they see: whether the scan reaches a cell depends only on cells nearer the origin;
//! `shadowcast` lights every cell inside a lit sector, wall or floor; `shadowline` reveals a tile
//! not wholly in shadow and skips one wholly in shadow before reading it; `permissive` reveals
//! every visited cell. The others
//! read cells they do not reveal (Ford's symmetric shadowcasting reads unrevealed floor for its
//! slopes, `diamond` passes shadows through obscured tiles, `milazzo` bevels walls by their
//! neighbours, `ray` and `mrpas` read along rays that stop short), and their read-sets say which.
//! Reads are recorded within one cell past the radius, because `milazzo` bevels a wall by its
//! neighbours and so reads one ring past DCSS's box: its candidates can include origins just
//! outside the box (their views never change: a bevel at the radius only shapes light beyond
//! it, and the differential test checks every change stays inside the box). A read farther out
//! would escape the record: such an origin is marked and always recomputed (no algorithm here
//! does it; a test checks).

use std::time::Instant;

use rayon::prelude::*;

use crate::core::ext::{ExtError, Program};
use crate::core::fov::{self, Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet};
use crate::core::path::CostGrid;

fn grid_cell(width: i32, i: usize) -> Cell {
    Cell::new(i as i32 % width, i as i32 / width)
}
use crate::core::model::geometry::Cell;

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
    /// Per cell, the cells its computation read, in windows of radius `R + 1` (`read_side`
    /// cells wide, `read_words` words): milazzo's bevels look one cell past the radius.
    reads: Vec<u64>,
    read_side: usize,
    read_words: usize,
    /// Cells whose computation read outside their window (always recomputed).
    overflowed: Vec<Cell>,
    scratch: VisibleSet,
}

/// An [`Opacity`] that notes every in-map cell a computation reads, as bits in the origin's window.
struct ReadRecorder<'a> {
    grid: &'a OpacityGrid,
    origin: Cell,
    radius: i32,
    side: usize,
    bits: &'a [std::cell::Cell<u64>],
    overflow: std::cell::Cell<bool>,
}

impl Opacity for ReadRecorder<'_> {
    fn width(&self) -> i32 {
        self.grid.width()
    }

    fn height(&self) -> i32 {
        self.grid.height()
    }

    #[inline]
    fn is_opaque(&self, x: i32, y: i32) -> bool {
        // Reads off the map need no record: nothing there ever changes.
        if self.grid.in_bounds(x, y) {
            let (dx, dy) = (x - self.origin.x + self.radius, y - self.origin.y + self.radius);
            if (dx as u32) < self.side as u32 && (dy as u32) < self.side as u32 {
                let b = dy as usize * self.side + dx as usize;
                let word = &self.bits[b / 64];
                word.set(word.get() | 1 << (b % 64));
            } else {
                self.overflow.set(true);
            }
        }
        self.grid.is_opaque(x, y)
    }
}

/// The most memory a cache may take (2 GiB): its windows grow with the map's cells times the radius'
/// square (a 4096 × 4096 map at radius 8 takes about 1.5 GB, at radius 20 about 7.5 GB).
pub const MAX_CACHE_BYTES: u64 = 2 << 30;

/// Why a cache was not built.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error(
        "a LOS cache of this {width}×{height} map at radius {radius} would take {:.1} GB, more than \
         the {:.1} GB allowed: give a smaller radius",
        *.bytes as f64 / 1e9,
        MAX_CACHE_BYTES as f64 / 1e9
    )]
    TooLarge { width: i32, height: i32, radius: u32, bytes: u64 },
}

impl LosCache {
    /// The bytes of the view and read-set windows of a `width × height` map at `radius` (one
    /// of each per cell), saturating.
    pub fn memory_needed(width: i32, height: i32, radius: u32) -> u64 {
        let side = 2 * u64::from(radius) + 1;
        let words = |side: u64| side.saturating_mul(side).div_ceil(64);
        let per_cell = words(side).saturating_add(words(side + 2)).saturating_mul(8);
        (width.max(0) as u64 * height.max(0) as u64).saturating_mul(per_cell)
    }

    /// Builds the cache for every transparent cell, in parallel; refused, before anything is
    /// allocated, when it would take more than [`MAX_CACHE_BYTES`].
    pub fn build(grid: &OpacityGrid, algorithm: Algorithm, radius: u32) -> Result<Self, CacheError> {
        let (width, height) = (grid.width(), grid.height());
        let bytes = Self::memory_needed(width, height, radius);
        if bytes > MAX_CACHE_BYTES {
            return Err(CacheError::TooLarge { width, height, radius, bytes });
        }
        let side = 2 * radius as usize + 1;
        let words = (side * side).div_ceil(64);
        let read_side = side + 2;
        let read_words = (read_side * read_side).div_ceil(64);
        let (w, h) = (grid.width(), grid.height());
        let mut cache = Self {
            algorithm,
            radius,
            grid: grid.clone(),
            side,
            words,
            views: vec![0; (w * h) as usize * words],
            reads: vec![0; (w * h) as usize * read_words],
            read_side,
            read_words,
            overflowed: Vec::new(),
            scratch: VisibleSet::new(w as u32, h as u32),
        };
        // Every view and read-set straight into its windows, in parallel, one reusable visible set
        // per worker.
        let mut views = std::mem::take(&mut cache.views);
        let mut reads = std::mem::take(&mut cache.reads);
        let mut overflow = vec![false; (w * h) as usize];
        views
            .par_chunks_mut(words)
            .zip(reads.par_chunks_mut(read_words))
            .zip(overflow.par_iter_mut())
            .enumerate()
            .for_each_init(
                || VisibleSet::new(w as u32, h as u32),
                |visible, (i, ((window, read), overflowed))| {
                    *overflowed = cache.compute_into(Cell::new(i as i32 % w, i as i32 / w), visible, window, read);
                },
            );
        cache.views = views;
        cache.reads = reads;
        cache.overflowed = overflow.iter().enumerate().filter(|(_, o)| **o).map(|(i, _)| grid_cell(w, i)).collect();
        Ok(cache)
    }

    /// The view of `origin` into `window` and the cells it read into `read` (both cleared first;
    /// left empty for an opaque origin). Returns whether a read fell outside the window.
    fn compute_into(&self, origin: Cell, visible: &mut VisibleSet, window: &mut [u64], read: &mut [u64]) -> bool {
        window.fill(0);
        read.fill(0);
        if self.grid.is_opaque(origin.x, origin.y) {
            return false;
        }
        let recorder = ReadRecorder {
            grid: &self.grid,
            origin,
            radius: self.radius as i32 + 1,
            side: self.read_side,
            bits: std::cell::Cell::from_mut(read).as_slice_of_cells(),
            overflow: std::cell::Cell::new(false),
        };
        fov::compute(self.algorithm, &recorder, FovParams::new(origin, Some(self.radius)), visible);
        for c in visible.iter() {
            let b = self.bit(origin, c);
            window[b / 64] |= 1 << (b % 64);
        }
        recorder.overflow.get()
    }

    #[inline]
    fn bit(&self, origin: Cell, c: Cell) -> usize {
        let r = self.radius as i32;
        ((c.y - origin.y + r) as usize) * self.side + (c.x - origin.x + r) as usize
    }

    fn index(&self, c: Cell) -> usize {
        (c.y * self.grid.width() + c.x) as usize
    }

    /// Bytes the views and their read-sets take.
    pub fn bytes(&self) -> usize {
        (self.views.len() + self.reads.len()) * 8
    }

    /// Cells whose computation read outside their radius window (recomputed on every change).
    pub fn overflowed(&self) -> &[Cell] {
        &self.overflowed
    }

    /// Whether the computation of `a`'s view read `b`.
    pub fn read(&self, a: Cell, b: Cell) -> bool {
        let r = self.radius as i32 + 1;
        if !self.grid.in_bounds(a.x, a.y) || a.chebyshev(b) > r {
            return false;
        }
        let bit = ((b.y - a.y + r) as usize) * self.read_side + (b.x - a.x + r) as usize;
        self.reads[self.index(a) * self.read_words + bit / 64] & (1 << (bit % 64)) != 0
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
        self.box_of(c, self.radius as i32)
    }

    /// The transparent cells within Chebyshev `r` of `c`.
    fn box_of(&self, c: Cell, r: i32) -> Vec<Cell> {
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
        // The candidates: every view whose computation read `c` (see the module doc), which is
        // within one cell of DCSS's box.
        // For the three algorithms that examine exactly the cells they reveal, the views that saw
        // `c` are a second sound bound (the module doc); a few cells are read without being
        // examined (opacity fetched before the radius test), so the two together are tighter.
        let examines_what_it_sees =
            matches!(self.algorithm, Algorithm::Shadowcast | Algorithm::Shadowline | Algorithm::Permissive);
        let mut candidates: Vec<Cell> = self
            .box_of(c, self.radius as i32 + 1)
            .into_iter()
            .filter(|&a| a != c && self.read(a, c) && (!examines_what_it_sees || self.sees(a, c)))
            .collect();
        for &a in &self.overflowed {
            if a != c && !candidates.contains(&a) && !self.grid.is_opaque(a.x, a.y) {
                candidates.push(a);
            }
        }
        self.grid.set(c.x, c.y, opaque);
        let conservative = self.box_around(c);
        if !opaque {
            candidates.push(c);
        }
        let mut changed = Vec::new();
        let mut window = vec![0u64; self.words];
        let mut read = vec![0u64; self.read_words];
        let mut scratch = std::mem::take(&mut self.scratch);
        for &a in &candidates {
            let overflow = self.compute_into(a, &mut scratch, &mut window, &mut read);
            if overflow && !self.overflowed.contains(&a) {
                self.overflowed.push(a);
            }
            let r = self.index(a) * self.read_words;
            self.reads[r..r + self.read_words].copy_from_slice(&read);
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
            let r = self.index(c) * self.read_words;
            self.reads[r..r + self.read_words].fill(0);
        }
        CacheUpdate { conservative, candidates, changed, micros: started.elapsed().as_secs_f64() * 1e6 }
    }
}

/// One opacity change for an algorithm whose reads are unknown (an external program): nothing
/// bounds its candidates but DCSS's conservative box, so every view in the box is recomputed,
/// through the program, and compared with the one before. `costs` is what the program is sent
/// with each map (the walkable cells; they do not change here). `grid` is left changed, and the
/// program with the changed map.
pub fn external_update(
    program: &mut Program,
    grid: &mut OpacityGrid,
    costs: &CostGrid,
    radius: u32,
    c: Cell,
    opaque: bool,
) -> Result<CacheUpdate, ExtError> {
    let started = Instant::now();
    if !grid.in_bounds(c.x, c.y) || grid.is_opaque(c.x, c.y) == opaque {
        return Ok(CacheUpdate::default());
    }
    let r = i32::try_from(radius).unwrap_or(i32::MAX);
    let transparent_box = |grid: &OpacityGrid| -> Vec<Cell> {
        let mut out = Vec::new();
        for y in c.y.saturating_sub(r).max(0)..=c.y.saturating_add(r).min(grid.height() - 1) {
            for x in c.x.saturating_sub(r).max(0)..=c.x.saturating_add(r).min(grid.width() - 1) {
                if !grid.is_opaque(x, y) {
                    out.push(Cell::new(x, y));
                }
            }
        }
        out
    };
    // The views that stay cached across the change (the cell's own appears or goes).
    let kept: Vec<Cell> = transparent_box(grid).into_iter().filter(|&a| a != c).collect();
    program.set_map(grid, costs)?;
    let before = program.fov(&kept, Some(radius), true)?;
    grid.set(c.x, c.y, opaque);
    let conservative = transparent_box(grid);
    program.set_map(grid, costs)?;
    let after = program.fov(&kept, Some(radius), true)?;
    if !opaque {
        program.fov(&[c], Some(radius), true)?;
    }
    let sorted = |mut v: Vec<Cell>| {
        v.sort_by_key(|c| (c.y, c.x));
        v
    };
    let changed = kept
        .iter()
        .zip(before.into_iter().zip(after))
        .filter(|(_, (b, a))| sorted(b.clone()) != sorted(a.clone()))
        .map(|(&cell, _)| cell)
        .collect();
    Ok(CacheUpdate {
        candidates: conservative.clone(),
        conservative,
        changed,
        micros: started.elapsed().as_secs_f64() * 1e6,
    })
}
