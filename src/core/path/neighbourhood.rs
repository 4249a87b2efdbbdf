//! Which of a cell's eight neighbours a walker may step to, as one byte.
//!
//! The grid keeps passability as a bitset with a one-cell impassable border and word-aligned
//! rows ([`PassableBits`]), so the 3×3 block around any cell is three 3-bit reads with no bounds
//! test. A table per move rule ([`StepTable`]) maps those nine bits to the allowed steps: bit `d`
//! of the result allows the step by `NEIGHBOURS[d]`. This replaces up to three passability tests
//! a neighbour, each with its own bounds check, by one table look-up a cell.

use super::{DiagonalPolicy, MoveRules, Moves};

/// The eight neighbour offsets, orthogonal first.
pub(crate) const NEIGHBOURS: [(i32, i32); 8] = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)];

/// Passability, one bit a cell, with a border of impassable cells all round. Row `y + 1` holds
/// grid row `y`, bit `x + 1` grid column `x`; every row has one spare word at its end so that a
/// read of three bits never needs a second bounds check.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PassableBits {
    width: i32,
    height: i32,
    /// Words a padded row.
    stride: usize,
    words: Vec<u64>,
}

impl PassableBits {
    /// Every cell passable (the border is not).
    pub(crate) fn all_passable(width: i32, height: i32) -> Self {
        let stride = (width as usize + 2).div_ceil(64) + 1;
        // One padded row: bits 1 ..= width set; copied to every grid row.
        let mut row = vec![0u64; stride];
        for bit in 1..=width.max(0) as usize {
            row[bit / 64] |= 1 << (bit % 64);
        }
        let mut words = vec![0; stride * (height as usize + 2)];
        for y in 1..=height.max(0) as usize {
            words[y * stride..(y + 1) * stride].copy_from_slice(&row);
        }
        Self { width, height, stride, words }
    }

    /// Whether `(x, y)` is passable; cells off the grid are not.
    #[inline(always)]
    pub(crate) fn get(&self, x: i32, y: i32) -> bool {
        if (x as u32) >= self.width as u32 || (y as u32) >= self.height as u32 {
            return false;
        }
        let bit = x as usize + 1;
        self.words[(y as usize + 1) * self.stride + bit / 64] >> (bit % 64) & 1 != 0
    }

    /// Sets `(x, y)`, which must be on the grid.
    pub(crate) fn set(&mut self, x: i32, y: i32, passable: bool) {
        debug_assert!((x as u32) < self.width as u32 && (y as u32) < self.height as u32);
        let bit = x as usize + 1;
        let word = &mut self.words[(y as usize + 1) * self.stride + bit / 64];
        if passable {
            *word |= 1 << (bit % 64);
        } else {
            *word &= !(1 << (bit % 64));
        }
    }

    /// The 3×3 block around `(x, y)` (on the grid): bit `row · 3 + column`, row 0 above, column 0
    /// to the left; off-grid cells read as impassable.
    #[inline(always)]
    pub(crate) fn block(&self, x: i32, y: i32) -> usize {
        debug_assert!((x as u32) < self.width as u32 && (y as u32) < self.height as u32);
        // Padded columns x .. x + 2 are grid columns x − 1 .. x + 1; padded rows y .. y + 2 are
        // grid rows y − 1 .. y + 1.
        let shift = x as u32 % 64;
        let first = y as usize * self.stride + x as usize / 64;
        let three = |i: usize| -> usize {
            let pair = u128::from(self.words[i]) | u128::from(self.words[i + 1]) << 64;
            (pair >> shift) as usize & 7
        };
        three(first) | three(first + self.stride) << 3 | three(first + 2 * self.stride) << 6
    }

    /// Grid row `y`'s words, border bits included: bit `x + 1` is column `x`.
    pub(crate) fn row(&self, y: usize) -> &[u64] {
        &self.words[(y + 1) * self.stride..(y + 2) * self.stride]
    }

    /// The number of passable cells.
    pub(crate) fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

impl PassableBits {
    /// Jump point search's straight jump along row `y` from `x` (the first cell after the
    /// parent) in direction `dx` (±1), 64 cells a step: the first cell that is the goal
    /// (`goal_x`, when the goal is on this row) or has a forced neighbour (a free cell above or
    /// below whose predecessor along the jump is blocked) is the jump point, unless a blocked
    /// cell comes first (then `None`). The border stops every jump.
    pub(crate) fn jump_along_row(&self, x: i32, y: i32, dx: i32, goal_x: Option<i32>) -> Option<i32> {
        debug_assert!((y as u32) < self.height as u32 && dx.abs() == 1);
        let s = self.stride;
        let row = |r: usize| &self.words[r * s..(r + 1) * s];
        // Padded rows y, y + 1, y + 2 are grid rows y − 1, y, y + 1; padded bit x + 1 is grid x.
        let (up, mid, down) = (row(y as usize), row(y as usize + 1), row(y as usize + 2));
        let goal = |w: usize| -> u64 {
            match goal_x {
                Some(g) if (g as usize + 1) / 64 == w => 1 << ((g as usize + 1) % 64),
                _ => 0,
            }
        };
        let start = x as usize + 1;
        if dx > 0 {
            let mut w = start / 64;
            let mut from = u64::MAX << (start % 64);
            while w < s {
                // Bit q of `before`: the cell at q − 1 (the predecessor going east).
                let before = |line: &[u64]| line[w] << 1 | if w > 0 { line[w - 1] >> 63 } else { 0 };
                let forced = (up[w] & !before(up)) | (down[w] & !before(down));
                let stop = (!mid[w] | forced | goal(w)) & from;
                if stop != 0 {
                    let q = w * 64 + stop.trailing_zeros() as usize;
                    return (mid[q / 64] >> (q % 64) & 1 != 0).then(|| q as i32 - 1);
                }
                w += 1;
                from = u64::MAX;
            }
        } else {
            let mut w = start / 64;
            let mut from = u64::MAX >> (63 - start % 64);
            loop {
                // Bit q of `after`: the cell at q + 1 (the predecessor going west).
                let after = |line: &[u64]| line[w] >> 1 | if w + 1 < s { line[w + 1] << 63 } else { 0 };
                let forced = (up[w] & !after(up)) | (down[w] & !after(down));
                let stop = (!mid[w] | forced | goal(w)) & from;
                if stop != 0 {
                    let q = w * 64 + 63 - stop.leading_zeros() as usize;
                    return (mid[q / 64] >> (q % 64) & 1 != 0).then(|| q as i32 - 1);
                }
                if w == 0 {
                    break;
                }
                w -= 1;
                from = u64::MAX;
            }
        }
        None
    }
}

/// Allowed steps by 3×3 passability block, for one move rule.
pub(crate) struct StepTable([u8; 512]);

/// The block bit of the cell at offset `(dx, dy)`.
const fn block_bit(dx: i32, dy: i32) -> usize {
    ((1 + dy) * 3 + (1 + dx)) as usize
}

const fn open(block: usize, dx: i32, dy: i32) -> bool {
    block >> block_bit(dx, dy) & 1 != 0
}

/// 0: orthogonal steps only; 1: diagonals always; 2: no corner cutting; 3: at most one of the
/// two orthogonal cells blocked.
const fn build(policy: u8) -> StepTable {
    let mut table = [0u8; 512];
    let mut block = 0;
    while block < 512 {
        let mut mask = 0u8;
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = NEIGHBOURS[d];
            let allowed = if !open(block, dx, dy) {
                false
            } else if dx == 0 || dy == 0 {
                true
            } else {
                match policy {
                    0 => false,
                    1 => true,
                    2 => open(block, dx, 0) && open(block, 0, dy),
                    _ => open(block, dx, 0) || open(block, 0, dy),
                }
            };
            if allowed {
                mask |= 1 << d;
            }
            d += 1;
        }
        table[block] = mask;
        block += 1;
    }
    StepTable(table)
}

static ORTHOGONAL: StepTable = build(0);
static ALWAYS: StepTable = build(1);
static NO_CORNER_CUT: StepTable = build(2);
static ONE_BLOCKED: StepTable = build(3);

impl StepTable {
    /// The table of `rules`.
    pub(crate) fn of(rules: &MoveRules) -> &'static StepTable {
        match (rules.moves, rules.diagonal) {
            (Moves::Four, _) | (_, DiagonalPolicy::Never) => &ORTHOGONAL,
            (Moves::Eight, DiagonalPolicy::Always) => &ALWAYS,
            (Moves::Eight, DiagonalPolicy::NoCornerCut) => &NO_CORNER_CUT,
            (Moves::Eight, DiagonalPolicy::OneBlocked) => &ONE_BLOCKED,
        }
    }

    /// The steps allowed from a cell whose 3×3 block is `block` (see [`PassableBits::block`]).
    #[inline(always)]
    pub(crate) fn allowed(&self, block: usize) -> u8 {
        self.0[block & 511]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::path::{CostGrid, DiagonalLength};
    use crate::core::rng::Rng;

    /// The word-at-a-time row jump stops where a cell-by-cell jump stops: at the first blocked
    /// cell (none), the goal, or a cell with a forced neighbour; across word boundaries, both
    /// ways, from every cell.
    #[test]
    fn row_jumps_equal_cell_by_cell_jumps() {
        let mut rng = Rng::new(8);
        for round in 0..200 {
            let width = [1u32, 5, 63, 64, 65, 127, 200][round % 7];
            let mut grid = CostGrid::open(width, 3);
            let walls = [0.02, 0.1, 0.3][round % 3];
            for y in 0..3 {
                for x in 0..width as i32 {
                    if rng.chance(walls) {
                        grid.set_cost(x, y, f32::INFINITY);
                    }
                }
            }
            let goal_x = (round % 2 == 0).then(|| rng.below(width) as i32);
            let open = |x: i32, y: i32| grid.passable(x, y);
            for dx in [1, -1] {
                for x in 0..width as i32 {
                    let mut at = x;
                    let expected = loop {
                        if !open(at, 1) {
                            break None;
                        }
                        if Some(at) == goal_x
                            || (open(at, 0) && !open(at - dx, 0))
                            || (open(at, 2) && !open(at - dx, 2))
                        {
                            break Some(at);
                        }
                        at += dx;
                    };
                    assert_eq!(
                        grid.passable_bits().jump_along_row(x, 1, dx, goal_x),
                        expected,
                        "width {width}, from {x} by {dx}, goal {goal_x:?}"
                    );
                }
            }
        }
    }

    /// On random grids, for every cell and every rule, the table allows exactly the steps
    /// `MoveRules::can_step` allows — at the border too.
    #[test]
    fn table_allows_what_can_step_allows() {
        let mut rng = Rng::new(3);
        for size in [1u32, 2, 3, 63, 64, 65, 130] {
            let mut grid = CostGrid::open(size, 3);
            for y in 0..3 {
                for x in 0..size as i32 {
                    if rng.chance(0.4) {
                        grid.set_cost(x, y, f32::INFINITY);
                    }
                }
            }
            for moves in [Moves::Four, Moves::Eight] {
                for diagonal in DiagonalPolicy::ALL {
                    let rules = MoveRules { moves, diagonal, diagonal_length: DiagonalLength::Euclidean };
                    let table = StepTable::of(&rules);
                    for y in 0..3 {
                        for x in 0..size as i32 {
                            let allowed = table.allowed(grid.passable_bits().block(x, y));
                            for (d, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
                                assert_eq!(
                                    allowed >> d & 1 != 0,
                                    rules.can_step(&grid, x, y, dx, dy),
                                    "{size} wide, ({x}, {y}) by ({dx}, {dy}), {rules:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
