//! Whole-map symmetry audit of an FOV algorithm: every ordered pair of transparent cells (A, B)
//! within the radius where A sees B but B does not see A.
//!
//! Reported: the pairs checked (ordered pairs of distinct transparent cells within the radius of
//! each other), the violations, their ratio, Jice's "error per cell" (violations per transparent
//! cell, the figure his comparative study of FOV algorithms tabulates per algorithm, here for the
//! user's own map), and per cell the number of violations it takes part in (as A or as B), for a
//! heatmap. [`partners`] lists one cell's violating partners and which direction fails.
//!
//! Views are computed in parallel (rayon), one reusable [`VisibleSet`] per worker, and kept as
//! bit windows of (2R+1)² bits per cell; progress is counted and the audit can be cancelled.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use crate::core::ext::{ExtError, Program};
use crate::core::fov::{self, Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet};
use crate::core::model::geometry::Cell;

/// Views of more than this many bits in all are refused (give a radius).
pub const MAX_WINDOW_BITS: u64 = 8 * 1024 * 1024 * 1024;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SymmetryReport {
    /// The algorithm's name: a built-in's, or an external program's.
    pub algorithm: String,
    pub radius: Option<u32>,
    /// Ordered pairs of distinct transparent cells within the radius of each other.
    pub pairs: u64,
    /// Ordered pairs of them where A sees B: what the audit looked at (an algorithm that sees
    /// nothing is symmetric, and this says so).
    pub seen: u64,
    /// Ordered pairs (A, B) where A sees B and B does not see A.
    pub violations: u64,
    /// Transparent cells audited.
    pub cells: u64,
    /// Per cell (row-major), the violations it takes part in.
    pub per_cell: Vec<u32>,
    pub width: u32,
}

impl SymmetryReport {
    /// Violations per pair checked.
    pub fn rate(&self) -> f64 {
        if self.pairs == 0 { 0.0 } else { self.violations as f64 / self.pairs as f64 }
    }

    /// Violations per transparent cell.
    pub fn error_per_cell(&self) -> f64 {
        if self.cells == 0 { 0.0 } else { self.violations as f64 / self.cells as f64 }
    }

    /// The `n` cells with the most violations, most first: `(cell, count)`.
    pub fn worst(&self, n: usize) -> Vec<(Cell, u32)> {
        let mut cells: Vec<(Cell, u32)> = self
            .per_cell
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, &c)| (Cell::new((i % self.width as usize) as i32, (i / self.width as usize) as i32), c))
            .collect();
        cells.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.y.cmp(&b.0.y)).then(a.0.x.cmp(&b.0.x)));
        cells.truncate(n);
        cells
    }
}

/// Which way a pair fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Failure {
    /// The audited cell sees the partner; the partner does not see it.
    SeenByThisOnly,
    /// The partner sees the audited cell; the audited cell does not see it.
    SeenByPartnerOnly,
}

#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("the audit would keep {0} bits of views; give a radius (e.g. --radius 12)")]
    TooLarge(u64),
    #[error("cancelled")]
    Cancelled,
    #[error(transparent)]
    External(#[from] ExtError),
}

/// How many origins an external program is asked for at once: few round trips, and progress
/// still moves every fraction of a second.
const EXTERNAL_BATCH: usize = 256;

/// Where an audit's views come from.
pub enum Views<'a> {
    Builtin(Algorithm),
    /// A program, already sent this map.
    External(&'a mut Program),
}

/// How far a view reaches from its origin.
fn reach(grid: &OpacityGrid, radius: Option<u32>) -> i32 {
    let extent = grid.width().max(grid.height());
    radius.map_or(extent, |r| i32::try_from(r).unwrap_or(i32::MAX).min(extent))
}

fn in_radius(a: Cell, b: Cell, radius: Option<u32>) -> bool {
    radius.is_none_or(|r| a.distance_squared(b) <= crate::core::fov::radius_squared(r))
}

/// Audits `algorithm` at `radius` over every transparent cell of `grid`. `done` counts the
/// origins whose views are computed (then their pairs checked: 2 × cells in all); setting
/// `cancel` stops the audit.
pub fn audit(
    grid: &OpacityGrid,
    algorithm: Algorithm,
    radius: Option<u32>,
    done: &AtomicUsize,
    cancel: &AtomicBool,
) -> Result<SymmetryReport, AuditError> {
    audit_views(grid, Views::Builtin(algorithm), radius, done, cancel)
}

/// [`audit`] with the views of a built-in algorithm or of an external program (asked for
/// 256 origins at a time; cells it reports beyond the radius are no pair's).
pub fn audit_views(
    grid: &OpacityGrid,
    views: Views<'_>,
    radius: Option<u32>,
    done: &AtomicUsize,
    cancel: &AtomicBool,
) -> Result<SymmetryReport, AuditError> {
    let (w, h) = (grid.width(), grid.height());
    let r = reach(grid, radius);
    let side = (2 * r + 1) as usize;
    let words = (side * side).div_ceil(64);
    let cells: Vec<usize> = (0..(w * h) as usize).filter(|&i| !grid.is_opaque(i as i32 % w, i as i32 / w)).collect();
    let total_bits = cells.len() as u64 * words as u64 * 64;
    if total_bits > MAX_WINDOW_BITS {
        return Err(AuditError::TooLarge(total_bits));
    }
    // Slot of each transparent cell in `windows`.
    let mut slot = vec![u32::MAX; (w * h) as usize];
    for (k, &i) in cells.iter().enumerate() {
        slot[i] = k as u32;
    }
    let window_bit =
        |origin: Cell, c: Cell| -> usize { ((c.y - origin.y + r) as usize) * side + (c.x - origin.x + r) as usize };
    // Pass 1: every view, as a bit window around its origin.
    let mut windows = vec![0u64; cells.len() * words];
    let name = match &views {
        Views::Builtin(a) => a.name().to_string(),
        Views::External(p) => p.spec().name.clone(),
    };
    match views {
        Views::Builtin(algorithm) => windows.par_chunks_mut(words).zip(cells.par_iter()).try_for_each_init(
            || VisibleSet::new(w as u32, h as u32),
            |visible, (window, &i)| {
                if cancel.load(Ordering::Relaxed) {
                    return Err(AuditError::Cancelled);
                }
                let origin = Cell::new(i as i32 % w, i as i32 / w);
                fov::compute(algorithm, grid, FovParams::new(origin, radius), visible);
                for c in visible.iter() {
                    let b = window_bit(origin, c);
                    window[b / 64] |= 1 << (b % 64);
                }
                done.fetch_add(1, Ordering::Relaxed);
                Ok(())
            },
        )?,
        Views::External(program) => {
            for (batch, batch_windows) in cells.chunks(EXTERNAL_BATCH).zip(windows.chunks_mut(EXTERNAL_BATCH * words)) {
                if cancel.load(Ordering::Relaxed) {
                    return Err(AuditError::Cancelled);
                }
                let origins: Vec<Cell> = batch.iter().map(|&i| Cell::new(i as i32 % w, i as i32 / w)).collect();
                let views = program.fov(&origins, radius, true)?;
                for ((origin, view), window) in origins.iter().zip(views).zip(batch_windows.chunks_mut(words)) {
                    for c in view.into_iter().filter(|c| (c.x - origin.x).abs() <= r && (c.y - origin.y).abs() <= r) {
                        let b = window_bit(*origin, c);
                        window[b / 64] |= 1 << (b % 64);
                    }
                }
                done.fetch_add(batch.len(), Ordering::Relaxed);
            }
        }
    }
    // Pass 2: for each A and each transparent B it sees, does B see A?
    let sees = |a: usize, b: Cell| -> bool {
        let origin = Cell::new(a as i32 % w, a as i32 / w);
        let bit = window_bit(origin, b);
        windows[slot[a] as usize * words + bit / 64] & (1 << (bit % 64)) != 0
    };
    let (pairs, seen, violations, per_cell) = cells
        .par_iter()
        .try_fold(
            || (0u64, 0u64, 0u64, Vec::<(u32, u32)>::new()),
            |(mut pairs, mut seen, mut violations, mut hits), &a| {
                if cancel.load(Ordering::Relaxed) {
                    return Err(AuditError::Cancelled);
                }
                let ca = Cell::new(a as i32 % w, a as i32 / w);
                for y in (ca.y - r).max(0)..=(ca.y + r).min(h - 1) {
                    for x in (ca.x - r).max(0)..=(ca.x + r).min(w - 1) {
                        let cb = Cell::new(x, y);
                        let b = (y * w + x) as usize;
                        if b == a || slot[b] == u32::MAX || !in_radius(ca, cb, radius) {
                            continue;
                        }
                        pairs += 1;
                        if sees(a, cb) {
                            seen += 1;
                            if !sees(b, ca) {
                                violations += 1;
                                hits.push((a as u32, b as u32));
                            }
                        }
                    }
                }
                done.fetch_add(1, Ordering::Relaxed);
                Ok((pairs, seen, violations, hits))
            },
        )
        .try_reduce(
            || (0, 0, 0, Vec::new()),
            |(p1, s1, v1, mut h1), (p2, s2, v2, h2)| {
                h1.extend(h2);
                Ok((p1 + p2, s1 + s2, v1 + v2, h1))
            },
        )?;
    let mut counts = vec![0u32; (w * h) as usize];
    for (a, b) in per_cell {
        counts[a as usize] += 1;
        counts[b as usize] += 1;
    }
    Ok(SymmetryReport {
        algorithm: name,
        radius,
        pairs,
        seen,
        violations,
        cells: cells.len() as u64,
        per_cell: counts,
        width: w as u32,
    })
}

/// The cells whose visibility with `cell` is one-sided, and which side fails (empty for an
/// opaque `cell`).
pub fn partners(grid: &OpacityGrid, algorithm: Algorithm, radius: Option<u32>, cell: Cell) -> Vec<(Cell, Failure)> {
    if !grid.in_bounds(cell.x, cell.y) || grid.is_opaque(cell.x, cell.y) {
        return Vec::new();
    }
    let (w, h) = (grid.width() as u32, grid.height() as u32);
    let mut own = VisibleSet::new(w, h);
    let mut other = VisibleSet::new(w, h);
    fov::compute(algorithm, grid, FovParams::new(cell, radius), &mut own);
    let r = reach(grid, radius);
    let mut out = Vec::new();
    for y in (cell.y - r).max(0)..=(cell.y + r).min(grid.height() - 1) {
        for x in (cell.x - r).max(0)..=(cell.x + r).min(grid.width() - 1) {
            let b = Cell::new(x, y);
            if b == cell || grid.is_opaque(x, y) || !in_radius(cell, b, radius) {
                continue;
            }
            fov::compute(algorithm, grid, FovParams::new(b, radius), &mut other);
            match (own.contains_cell(b), other.contains_cell(cell)) {
                (true, false) => out.push((b, Failure::SeenByThisOnly)),
                (false, true) => out.push((b, Failure::SeenByPartnerOnly)),
                _ => {}
            }
        }
    }
    out
}

/// [`partners`] of an external program's views: one request for the cell and every transparent
/// cell within the radius (the program has been sent this map).
pub fn partners_external(
    grid: &OpacityGrid,
    program: &mut Program,
    radius: Option<u32>,
    cell: Cell,
) -> Result<Vec<(Cell, Failure)>, ExtError> {
    if !grid.in_bounds(cell.x, cell.y) || grid.is_opaque(cell.x, cell.y) {
        return Ok(Vec::new());
    }
    let r = reach(grid, radius);
    let mut others = Vec::new();
    for y in (cell.y - r).max(0)..=(cell.y + r).min(grid.height() - 1) {
        for x in (cell.x - r).max(0)..=(cell.x + r).min(grid.width() - 1) {
            let b = Cell::new(x, y);
            if b != cell && !grid.is_opaque(x, y) && in_radius(cell, b, radius) {
                others.push(b);
            }
        }
    }
    let mut origins = vec![cell];
    origins.extend(&others);
    let views = program.fov(&origins, radius, true)?;
    let own = &views[0];
    Ok(others
        .iter()
        .zip(&views[1..])
        .filter_map(|(&b, view)| match (own.contains(&b), view.contains(&cell)) {
            (true, false) => Some((b, Failure::SeenByThisOnly)),
            (false, true) => Some((b, Failure::SeenByPartnerOnly)),
            _ => None,
        })
        .collect())
}
