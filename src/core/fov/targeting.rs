//! Targeting: whether a straight shot from one cell reaches another, and whether each of two
//! views sees the other cell, so that a pair of cells can be checked for what players meet as
//! being "shot from the dark" (a monster that fires at you from a cell you do not see).
//!
//! Definition (Albert Ford, "Symmetric Shadowcasting", 2021, on targeting): a projectile from
//! `a` to `b` follows a digital line, one cell a step along the longer axis, the other coordinate
//! the line's exact value rounded. A step that falls exactly halfway between two cells can be
//! rounded either way, so there are two lines: every tie rounded up (toward +∞) and every tie
//! rounded down. The shot is clear when one of them has no opaque cell strictly between `a` and
//! `b`. Ford shows that his symmetric shadowcasting sees a floor cell exactly when a shot at it
//! is clear (`tests/fov.rs` checks it on random maps), so under that algorithm what you can see
//! you can shoot, and what can shoot you you can see.

use super::{Algorithm, FovParams, Opacity, VisibleSet, compute};
use crate::core::Cell;

/// The two digital lines from `a` to `b`, both ends included: every tie rounded up, then every
/// tie rounded down. They are the same line when no step ties (any line along an axis or a
/// diagonal, and every line whose longer side is odd).
pub fn digital_lines(a: Cell, b: Cell) -> [Vec<Cell>; 2] {
    let (dx, dy) = (i64::from(b.x) - i64::from(a.x), i64::from(b.y) - i64::from(a.y));
    let n = dx.abs().max(dy.abs());
    if n == 0 {
        return [vec![a], vec![a]];
    }
    // round(v / n), ties toward +∞ or toward −∞, for n > 0.
    let round = |v: i64, up: bool| if up { (2 * v + n).div_euclid(2 * n) } else { -((n - 2 * v).div_euclid(2 * n)) };
    [true, false].map(|up| {
        (0..=n)
            .map(|i| {
                Cell::new((i64::from(a.x) + round(dx * i, up)) as i32, (i64::from(a.y) + round(dy * i, up)) as i32)
            })
            .collect()
    })
}

/// A shot from one cell at another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shot {
    /// The two digital lines ([`digital_lines`]).
    pub lines: [Vec<Cell>; 2],
    /// For each line, its first opaque cell strictly between the ends (`None`: clear).
    pub blocked_at: [Option<Cell>; 2],
}

impl Shot {
    /// Whether one of the lines is clear.
    pub fn is_clear(&self) -> bool {
        self.blocked_at.iter().any(Option::is_none)
    }

    /// In words, cells written by `cell`: "reaches it (clear)", "does not reach it (blocked at
    /// 4,2)", or each line's when ties part them ("reaches it (ties rounded up clear, ties rounded
    /// down blocked at 15,12)").
    pub fn describe(&self, cell: impl Fn(Cell) -> String) -> String {
        let line = |k: usize| self.blocked_at[k].map_or("clear".to_owned(), |c| format!("blocked at {}", cell(c)));
        let lines = if self.lines[0] == self.lines[1] {
            line(0)
        } else {
            format!("ties rounded up {}, ties rounded down {}", line(0), line(1))
        };
        format!("{} ({lines})", if self.is_clear() { "reaches it" } else { "does not reach it" })
    }
}

/// A shot from `a` at `b` on `grid`.
pub fn shot<O: Opacity>(grid: &O, a: Cell, b: Cell) -> Shot {
    let lines = digital_lines(a, b);
    let blocked_at = [0, 1].map(|k| {
        // Strictly between the ends: none on a line of one or two cells.
        let between = lines[k].get(1..lines[k].len().saturating_sub(1)).unwrap_or_default();
        between.iter().copied().find(|c| grid.is_opaque(c.x, c.y))
    });
    Shot { lines, blocked_at }
}

/// What one algorithm makes of a pair of cells: whether each sees the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairSight {
    pub algorithm: Algorithm,
    /// The first cell's view holds the second.
    pub sees: bool,
    /// The second cell's view holds the first.
    pub seen_back: bool,
}

impl PairSight {
    /// Whether `algorithm`, with `radius` and `light_walls`, has `a` see `b` and `b` see `a`.
    /// `scratch` is a set of the grid's size.
    pub fn of<O: Opacity>(
        algorithm: Algorithm,
        grid: &O,
        (a, b): (Cell, Cell),
        (radius, light_walls): (Option<u32>, bool),
        scratch: &mut VisibleSet,
    ) -> Self {
        let mut sees_from = |from: Cell, to: Cell| {
            compute(algorithm, grid, FovParams { origin: from, radius, light_walls }, scratch);
            scratch.contains_cell(to)
        };
        let sees = sees_from(a, b);
        let seen_back = sees_from(b, a);
        Self { algorithm, sees, seen_back }
    }

    /// The two see each other, or neither sees the other.
    pub fn is_symmetric(&self) -> bool {
        self.sees == self.seen_back
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fov::OpacityGrid;

    fn drawn(rows: &[&str], line: &[Cell]) -> Vec<String> {
        rows.iter()
            .enumerate()
            .map(|(y, row)| {
                row.chars()
                    .enumerate()
                    .map(|(x, ch)| if line.contains(&Cell::new(x as i32, y as i32)) { '*' } else { ch })
                    .collect()
            })
            .collect()
    }

    /// From (0, 0) to (4, 1) the line is at y = 0.5 at x = 2, halfway between two cells: the
    /// lines part there, one below (y = 1), one above.
    #[test]
    fn a_tie_gives_two_lines() {
        let rows = [".....", "....."];
        let [up, down] = digital_lines(Cell::new(0, 0), Cell::new(4, 1));
        assert_eq!(drawn(&rows, &up), ["**...", "..***"], "ties rounded up (toward larger y)");
        assert_eq!(drawn(&rows, &down), ["***..", "...**"], "ties rounded down");
        // No tie: one line, drawn twice.
        let [a, b] = digital_lines(Cell::new(0, 0), Cell::new(3, 1));
        assert_eq!(a, b);
        assert_eq!(drawn(&rows, &a), ["**..", "..**"].map(|r| format!("{r}.")));
        // Backwards, the same cells the other way round (the rounding is toward ±∞, not toward
        // the start).
        let [back_up, back_down] = digital_lines(Cell::new(4, 1), Cell::new(0, 0));
        assert_eq!(back_up.iter().rev().copied().collect::<Vec<_>>(), up);
        assert_eq!(back_down.iter().rev().copied().collect::<Vec<_>>(), down);
        assert_eq!(digital_lines(Cell::new(2, 2), Cell::new(2, 2)), [vec![Cell::new(2, 2)], vec![Cell::new(2, 2)]]);
    }

    /// A wall on one of the two lines leaves the shot clear along the other; on both, it is
    /// blocked, and each line names its wall. The ends' own opacity does not count.
    #[test]
    fn a_shot_is_clear_while_one_line_is() {
        let grid = OpacityGrid::from_ascii(&[
            "..#..", //
            ".....",
        ]);
        let s = shot(&grid, Cell::new(0, 0), Cell::new(4, 1));
        assert_eq!(s.blocked_at, [None, Some(Cell::new(2, 0))]);
        assert!(s.is_clear());
        let grid = OpacityGrid::from_ascii(&[
            "..#..", //
            "..#..",
        ]);
        let s = shot(&grid, Cell::new(0, 0), Cell::new(4, 1));
        assert_eq!(s.blocked_at, [Some(Cell::new(2, 1)), Some(Cell::new(2, 0))]);
        assert!(!s.is_clear());
        let ends = OpacityGrid::from_ascii(&["#...#"]);
        assert!(shot(&ends, Cell::new(0, 0), Cell::new(4, 0)).is_clear());
        // A shot at its own cell, or at the next one, has nothing between to stop it.
        assert!(shot(&ends, Cell::new(0, 0), Cell::new(0, 0)).is_clear());
        assert!(shot(&ends, Cell::new(0, 0), Cell::new(1, 0)).is_clear());
    }
}
