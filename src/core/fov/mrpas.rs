//! `mrpas`: restrictive precise angle shadowcasting, mingos' MRPAS (libtcod FOV_RESTRICTIVE).
//!
//! Source: mingos, "Restrictive Precise Ratio Shadowcasting" (RogueBasin) and its code as
//! libtcod `src/libtcod/fov_restrictive.c` (v1.2) and doryen-fov 0.1 run it. Quadrants
//! (1,1), (1,−1), (−1,1), (−1,−1), each as a vertical-edge octant then a horizontal-edge one.
//! Line `n` (distance along the octant's main axis) has cells `k = 0..=n`; cell `k` covers the
//! angles `[(k − ½)/n, (k + ½)/n]` around its centre `k/n`. Obstacles seen on earlier lines are
//! kept as angle ranges. A transparent cell is hidden when its centre lies strictly inside an
//! obstacle; an opaque one when a single obstacle contains its whole range, else it extends the
//! obstacles it overlaps or becomes a new one. Once any obstacle exists, a cell also needs the cell
//! behind it or diagonally behind it to be visible and transparent. A run of visible walls from
//! the axis side raises the octant's minimum angle instead of adding obstacles.
//!
//! Angles are exact rationals here (libtcod and doryen-fov use `f64`, which can differ on exact
//! ties). libtcod's horizontal octant skips one obstacle after each overlap (an extra `++idx`
//! since v1.2, a bug doryen-fov does not have); we follow doryen-fov. Both limit the view to a
//! square; we run the square of the radius and keep `dx² + dy² ≤ r²`. Cells off the map count as
//! neither visible nor transparent.
//!
//! How it runs: views of radius 1 to 4 whose square lies on the map take [`table_view`]: each
//! octant's view looked up in a table made by running [`short_view`]'s octant on every pattern of
//! its cells. Other views of a reach up to 30 (radius 30 and less) take [`short_view`]: the radius'
//! square as rows of bits, which hold which cells were seen, and a line's candidates (below) found
//! as words. Longer views: a line with no obstacle known yet is read and lit as words. Once
//! obstacles exist, the "behind" test of a whole line is a word operation on the previous line's
//! visible and transparent cells, so hidden stretches cost nothing; only the candidates are tested
//! against the obstacles, in order. Lines shorter than `SHORT_LINE` are tested cell by cell. Every
//! line keeps its bits, and another octant's "behind" test asks only about the cells on and beside
//! the axis and the diagonal: those of obstructed lines go into the computation's record of seen
//! cells, and an open line stands for its own (all of its range was seen) as its first and last
//! cell in the octant's list of open lines. In both, each octant's lines before its first wall
//! (whole lines: it scans the radius' square) are found and lit for all eight octants at once
//! (`open_rows.rs`), and the octant starts after them.
//!
//! Properties: not symmetric; restrictive (pillars cast full shadows, little is seen around
//! corners); sees through diagonal lines of walls.

use std::cell::RefCell;

use super::open_rows::{RowExtent, light_open_rows};
use super::{Axis, FovContext, OctantLines, Opacity, RadiusCols, Ratio, with_radius_cols};

mod short_view;
mod table_view;

/// In long views, obstructed lines of fewer cells than this are tested cell by cell.
const SHORT_LINE: i64 = 12;

#[derive(Default)]
struct Scratch {
    /// Cells seen so far in this computation, over the radius' box: those of obstructed lines
    /// that another octant may ask about, walls included (see [`Run::mark_shared`];
    /// `open_lines` stands for the open lines' cells).
    seen: Vec<bool>,
    starts: Vec<Ratio>,
    ends: Vec<Ratio>,
    /// Each octant's open lines (see [`octant_index`]): entry `i` holds line `i + 1`'s first and
    /// last cells, every one of them seen. They stand for those lines' cells in `seen` (see
    /// [`Run::seen_in_open_line`]).
    open_lines: [Vec<(i32, i32)>; 8],
    /// This octant's previous line and the line under way: bit `k` set when cell `k` is visible
    /// and transparent (the "behind" test of the next line reads these as words).
    previous: Vec<u64>,
    current: Vec<u64>,
    /// Short views' square (see [`short_view`]).
    short: short_view::ShortBox,
}

/// The 64 bits of `line` from bit `low` on (bits past its end read 0).
#[inline]
fn bits_from(line: &[u64], low: i64) -> u64 {
    let (w, shift) = ((low / 64) as usize, (low % 64) as u32);
    let first = line.get(w).copied().unwrap_or(0) >> shift;
    if shift == 0 { first } else { first | line.get(w + 1).copied().unwrap_or(0) << (64 - shift) }
}

#[inline]
fn set_bit(line: &mut [u64], k: i64) {
    line[(k / 64) as usize] |= 1 << (k % 64);
}

/// Sets the bits of `line` from bit `low` on that are set in `bits` (those past its end are
/// dropped).
#[inline]
fn or_bits_from(line: &mut [u64], low: i64, bits: u64) {
    let (w, shift) = ((low / 64) as usize, (low % 64) as u32);
    line[w] |= bits << shift;
    if shift != 0
        && let Some(next) = line.get_mut(w + 1)
    {
        *next |= bits >> (64 - shift);
    }
}

/// `line` with its first `words` words zero (grown if shorter).
#[inline]
fn zero_words(line: &mut Vec<u64>, words: usize) {
    if line.len() < words {
        line.resize(words, 0);
    }
    line[..words].fill(0);
}

/// The index of the octant whose lines run along `y` (`vertical`) or `x`, `dm` a step along
/// them and `dc` a step across (each ±1).
#[inline(always)]
fn octant_index(vertical: bool, dm: i32, dc: i32) -> usize {
    usize::from(vertical) * 4 + usize::from(dm > 0) * 2 + usize::from(dc > 0)
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

struct Run<'c, 'a, O: Opacity> {
    ctx: &'c mut FovContext<'a, O>,
    s: &'c mut Scratch,
    radius_cols: &'c mut RadiusCols,
    /// The box `seen` covers.
    bx0: i32,
    by0: i32,
    bw: i32,
    bh: i32,
}

/// Where a line's cells lie in [`Scratch::seen`] (see [`Run::seen_line`]).
#[derive(Clone, Copy)]
struct SeenLine {
    first: isize,
    step: isize,
}

impl SeenLine {
    #[inline(always)]
    fn at(self, c: i64) -> usize {
        (self.first + c as isize * self.step) as usize
    }
}

impl<O: Opacity> Run<'_, '_, O> {
    #[inline]
    fn seen_index(&self, x: i32, y: i32) -> Option<usize> {
        let (ax, ay) = (x - self.bx0, y - self.by0);
        ((0..self.bw).contains(&ax) && (0..self.bh).contains(&ay)).then(|| (ay * self.bw + ax) as usize)
    }

    fn mark(&mut self, x: i32, y: i32) {
        if let Some(i) = self.seen_index(x, y) {
            self.s.seen[i] = true;
        }
    }

    /// Where line `j`'s cells lie in `seen`: column `c` at `first + c · step`. Only for columns
    /// on the map (the line's own range): every one of them lies in the box, since the line and
    /// its columns are within the reach.
    #[inline(always)]
    fn seen_line(&self, lines: &OctantLines, j: i32) -> SeenLine {
        let (x, y) = lines.cell(j, 0);
        let first = ((y - self.by0) * self.bw + (x - self.bx0)) as isize;
        let step = if lines.axis == Axis::Row { lines.sign } else { lines.sign * self.bw } as isize;
        SeenLine { first, step }
    }

    /// Cells `k ..= last_k` of line `n` when no obstacle is known: all visible; each wall
    /// raises the minimum angle (when it starts within it) or becomes an obstacle. Returns the
    /// octant's `done` (the line's last cell was a wall at the diagonal that met the minimum).
    /// The line's cells are not recorded in `seen`: the octant's list of open lines stands for
    /// them.
    fn open_line(&mut self, lines: &OctantLines, n: i64, k: i64, last_k: i64, min_angle: &mut Ratio) -> bool {
        let j = n as i32;
        let radius_cols = i64::from(self.radius_cols.get(j));
        let mut done = false;
        let mut low = k;
        while low <= last_k {
            let high = (low + 63).min(last_k);
            let bits = lines.read_forward(self.ctx.grid, j, low as i32, high as i32);
            // Visible within the radius.
            let lit = high.min(radius_cols);
            if low <= lit {
                if self.ctx.light_walls {
                    lines.mark(self.ctx, j, low as i32, lit as i32);
                } else {
                    lines.mark_clear(self.ctx, j, bits, low as i32, low as i32, lit as i32);
                }
            }
            let mut walls = bits;
            while walls != 0 {
                let k = low + i64::from(walls.trailing_zeros());
                walls &= walls - 1;
                let (start, end) = (Ratio::new(2 * k - 1, 2 * n), Ratio::new(2 * k + 1, 2 * n));
                if start.le(*min_angle) {
                    *min_angle = end;
                    done = k == n;
                } else {
                    self.s.starts.push(start);
                    self.s.ends.push(end);
                    done = false;
                }
            }
            // A clear last cell leaves the octant going.
            if bits >> (high - low) & 1 == 0 {
                done = false;
            }
            low = high + 1;
        }
        done
    }

    /// Records cell `k` of obstructed line `n`, just seen, for the other octants if they can ask
    /// about it: the cells on and beside the axis (`k` = 0, 1: the neighbouring octant's `k` = 0,
    /// −1) and on and beside the diagonal (`k` = n − 1, n: the quadrant's other octant's `k` = n,
    /// n + 1 of its previous line). Every other cell is asked about only by this octant's next
    /// line, which reads it in `previous`.
    #[inline(always)]
    fn mark_shared(&mut self, seen: SeenLine, n: i64, k: i64) {
        if k <= 1 || k >= n - 1 {
            self.s.seen[seen.at(k)] = true;
        }
    }

    /// Adds to `previous` (the bits of line `n − 1`) the cells of line `n − 1` this octant shares
    /// with others (the axis, the diagonal and the cell past it), which an octant that ran before
    /// may have seen, and returns the bit of the cell before the axis (`k` = −1, the
    /// neighbouring octant's).
    fn add_shared_to_previous(&mut self, lines: &OctantLines, n: i64) -> u64 {
        let j = n as i32;
        let cell_before = |k: i64| lines.cell(j - 1, k as i32);
        if n <= 2 {
            // Line 0 (the origin, and the cells beside it on the cross axis, which the octants
            // across it hold) and line 1 (whose k = −1 is a diagonal cell, held by two other
            // octants): each cell asks every octant that holds it.
            for shared in [0, n - 1, n] {
                let (x, y) = cell_before(shared);
                if self.lit_and_clear_shared(x, y) {
                    set_bit(&mut self.s.previous, shared);
                }
            }
            let (x, y) = cell_before(-1);
            return u64::from(self.lit_and_clear_shared(x, y));
        }
        // From line 2 on, one other octant holds each cell asked about: the octant across the
        // axis (its columns mirrored) holds k = 0 and k = −1 (its k = 1); the quadrant's other
        // octant (lines and columns swapped) holds k = n − 1 and k = n (its line n, column n − 1).
        let (vertical, dm, dc) = (lines.axis == Axis::Row, lines.line_step, lines.sign);
        let asking = octant_index(vertical, dm, dc);
        let (across_axis, across_diagonal) = (octant_index(vertical, dm, -dc), octant_index(!vertical, dc, dm));
        let m = n as i32;
        for (shared, octant, line, col) in
            [(0, across_axis, m - 1, 0), (n - 1, across_diagonal, m - 1, m - 1), (n, across_diagonal, m, m - 1)]
        {
            let (x, y) = cell_before(shared);
            if self.lit_and_clear_in(x, y, octant, line, col, asking) {
                set_bit(&mut self.s.previous, shared);
            }
        }
        let (x, y) = cell_before(-1);
        u64::from(self.lit_and_clear_in(x, y, across_axis, m - 1, 1, asking))
    }

    /// [`Run::lit_and_clear_shared`] for a cell that `octant` holds at `line`, `col`, and no
    /// other octant but `asking`.
    #[inline(always)]
    fn lit_and_clear_in(&self, x: i32, y: i32, octant: usize, line: i32, col: i32, asking: usize) -> bool {
        let on_open_line = || {
            self.s.open_lines[octant].get(line as usize - 1).is_some_and(|&(first, last)| (first..=last).contains(&col))
        };
        // The tests check the one octant named here against every octant that holds the cell.
        debug_assert_eq!(on_open_line(), self.seen_in_open_line(x, y, Some(asking)), "({x}, {y})");
        (self.seen_index(x, y).is_some_and(|i| self.s.seen[i]) || on_open_line()) && !self.ctx.is_opaque(x, y)
    }

    /// Seen and transparent (cells off the map or the box are neither), in a view whose lines
    /// keep bits: seen as `seen` records it, or on an octant's open line.
    #[inline]
    fn lit_and_clear_shared(&self, x: i32, y: i32) -> bool {
        (self.seen_index(x, y).is_some_and(|i| self.s.seen[i]) || self.seen_in_open_line(x, y, None))
            && !self.ctx.is_opaque(x, y)
    }

    /// Whether `(x, y)` lies on an open line of an octant that holds it (two hold a cell on an
    /// axis or a diagonal): the open lines are not marked in `seen` cell by cell (the four cells
    /// of each that other octants ask about cost a quarter of a view on the open map).
    /// `except`: an octant not to ask (the one asking, which knows its own lines).
    fn seen_in_open_line(&self, x: i32, y: i32, except: Option<usize>) -> bool {
        let (dx, dy) = (x - self.ctx.ox, y - self.ctx.oy);
        let (ax, ay) = (dx.abs(), dy.abs());
        let on = |vertical: bool, main: i32, cross: i32, dc: i32| {
            let octant = octant_index(vertical, main.signum(), dc);
            let lines = &self.s.open_lines[octant];
            let (line, col) = (main.abs(), cross.abs());
            except != Some(octant)
                && line >= 1
                && lines.get(line as usize - 1).is_some_and(|&(first, last)| (first..=last).contains(&col))
        };
        let either = |vertical: bool, main: i32, cross: i32| {
            if cross != 0 {
                on(vertical, main, cross, cross.signum())
            } else {
                on(vertical, main, 0, 1) || on(vertical, main, 0, -1)
            }
        };
        (ay >= ax && ay > 0 && either(true, dy, dx)) || (ax >= ay && ax > 0 && either(false, dx, dy))
    }

    /// Makes `previous` the bits of open line `n`, whose cells `from ..= to` were all visible:
    /// its clear cells among them.
    fn open_line_bits(&mut self, lines: &OctantLines, n: i64, from: i64, to: i64, words: usize) {
        zero_words(&mut self.s.previous, words);
        let mut low = from;
        while low <= to {
            let high = (low + 63).min(to);
            let mask = u64::MAX >> (63 - (high - low));
            let clear = !lines.read_forward(self.ctx.grid, n as i32, low as i32, high as i32) & mask;
            or_bits_from(&mut self.s.previous, low, clear);
            low = high + 1;
        }
    }

    /// Cells `k ..= last_k` of line `n` once obstacles are known (`in_last` of them from the
    /// earlier lines). A cell is a candidate only if the cell behind it or diagonally behind it
    /// is visible and transparent: a word of the previous line's bits, so hidden stretches cost
    /// nothing. Candidates are then tested against the obstacles one by one, in order (an
    /// opaque cell may widen an obstacle that later cells of the line are tested against).
    /// Returns the octant's `done`.
    fn obstructed_line(
        &mut self,
        lines: &OctantLines,
        n: i64,
        k: i64,
        last_k: i64,
        min_angle: &mut Ratio,
        in_last: usize,
    ) -> bool {
        let j = n as i32;
        let before_axis = self.add_shared_to_previous(lines, n);
        let radius_cols = i64::from(self.radius_cols.get(j));
        let mut done = true;
        let mut low = k;
        while low <= last_k {
            let high = (low + 63).min(last_k);
            let mask = u64::MAX >> (63 - (high - low));
            let opaque = lines.read_forward(self.ctx.grid, j, low as i32, high as i32);
            // Bit i: cell low + i has the cell behind (k) or diagonally behind (k − 1) lit.
            let diagonal_behind = if low == 0 {
                bits_from(&self.s.previous, 0) << 1 | before_axis
            } else {
                bits_from(&self.s.previous, low - 1)
            };
            let mut candidates = (bits_from(&self.s.previous, low) | diagonal_behind) & mask;
            let mut visible = 0u64;
            while candidates != 0 {
                let i = candidates.trailing_zeros();
                candidates &= candidates - 1;
                let k = low + i64::from(i);
                let is_opaque = opaque >> i & 1 != 0;
                if let Some(ends_octant) = self.obstacle_test(n, k, is_opaque, min_angle, in_last) {
                    done = ends_octant;
                    visible |= 1 << i;
                }
            }
            if visible != 0 {
                let seen = self.seen_line(lines, j);
                for shared in [0, 1, n - 1, n] {
                    if (low..=high).contains(&shared) && visible >> (shared - low) & 1 != 0 {
                        self.s.seen[seen.at(shared)] = true;
                    }
                }
                let clear = visible & !opaque;
                or_bits_from(&mut self.s.current, low, clear);
                // Within the radius: lit (only the clear ones when walls are not lit).
                let lit = if self.ctx.light_walls { visible } else { clear };
                if low <= radius_cols {
                    lines.mark_clear(self.ctx, j, !lit, low as i32, low as i32, high.min(radius_cols) as i32);
                }
            }
            low = high + 1;
        }
        done
    }

    /// Cell `k` of line `n` (its cell behind or diagonally behind lit and clear) against the
    /// `in_last` obstacles of the earlier lines: a clear cell is hidden when its centre lies
    /// strictly inside one, an opaque one when one holds its whole range, else it widens those it
    /// overlaps, or raises the minimum angle, or becomes an obstacle itself. `None`: hidden;
    /// else whether the octant ends (a wall on the diagonal meeting the minimum angle).
    #[inline(always)]
    fn obstacle_test(
        &mut self,
        n: i64,
        k: i64,
        is_opaque: bool,
        min_angle: &mut Ratio,
        in_last: usize,
    ) -> Option<bool> {
        let centre = Ratio::new(k, n);
        if !is_opaque {
            // A clear cell only asks whether its centre lies strictly inside an obstacle (which
            // then overlaps its range too), and changes nothing: two comparisons an obstacle
            // instead of the overlap's two and then these (caves and rooms at r = 20 and 60
            // about 12% faster).
            let inside = |(sa, ea): (&Ratio, &Ratio)| sa.lt(centre) && centre.lt(*ea);
            let hidden = self.s.starts[..in_last].iter().zip(&self.s.ends[..in_last]).any(inside);
            return (!hidden).then_some(false);
        }
        let start = Ratio::new(2 * k - 1, 2 * n);
        let end = Ratio::new(2 * k + 1, 2 * n);
        let mut extended = false;
        for idx in 0..in_last {
            let (sa, ea) = (self.s.starts[idx], self.s.ends[idx]);
            if start.le(ea) && sa.le(end) {
                if !is_opaque {
                    if sa.lt(centre) && centre.lt(ea) {
                        return None;
                    }
                } else if sa.le(start) && end.le(ea) {
                    return None;
                } else {
                    self.s.starts[idx] = sa.min(start);
                    self.s.ends[idx] = ea.max(end);
                    extended = true;
                }
            }
        }
        let mut ends_octant = false;
        if is_opaque {
            if start.le(*min_angle) {
                *min_angle = end;
                ends_octant = k == n;
            } else if !extended {
                self.s.starts.push(start);
                self.s.ends.push(end);
            }
        }
        Some(ends_octant)
    }

    /// [`Run::obstructed_line`] cell by cell, for short lines (a small radius), where reading
    /// each cell's opacity and lighting it alone costs less than making words.
    fn obstructed_line_by_cell(
        &mut self,
        lines: &OctantLines,
        n: i64,
        k: i64,
        last_k: i64,
        min_angle: &mut Ratio,
        in_last: usize,
    ) -> bool {
        let j = n as i32;
        let before_axis = self.add_shared_to_previous(lines, n);
        let radius_cols = i64::from(self.radius_cols.get(j));
        // Bit i: cell k − 1 + i of the previous line lit and clear (the line is shorter than a
        // word, so one word holds what all its cells ask).
        let behind =
            if k == 0 { bits_from(&self.s.previous, 0) << 1 | before_axis } else { bits_from(&self.s.previous, k - 1) };
        let mut clear = 0u64;
        let mut done = true;
        let seen = self.seen_line(lines, j);
        for i in 0..=last_k - k {
            // The cell diagonally behind (bit i) or behind (bit i + 1) lit and clear.
            if behind >> i & 3 == 0 {
                continue;
            }
            let k = k + i;
            let (x, y) = lines.cell(j, k as i32);
            let is_opaque = self.ctx.is_opaque(x, y);
            let Some(ends_octant) = self.obstacle_test(n, k, is_opaque, min_angle, in_last) else { continue };
            done = ends_octant;
            self.mark_shared(seen, n, k);
            clear |= u64::from(!is_opaque) << i;
            if k <= radius_cols {
                self.ctx.reveal(x, y);
            }
        }
        or_bits_from(&mut self.s.current, k, clear);
        done
    }

    /// One octant. `vertical`: the main axis is y (lines are rows), else x. `dm` and `dc` are the
    /// steps along the main and cross axes.
    ///
    /// `first`: the octant's first line that is not open (see `open_rows.rs`), its lines before
    /// already lit. Each of them would leave the octant as it found it: no obstacle, the minimum
    /// angle 0, every cell `0 ..= n` seen.
    fn octant(&mut self, vertical: bool, dm: i32, dc: i32, first: i32) {
        let octant = octant_index(vertical, dm, dc);
        let (pov_main, pov_cross) = if vertical { (self.ctx.oy, self.ctx.ox) } else { (self.ctx.ox, self.ctx.oy) };
        let (size_main, size_cross) = if vertical {
            (self.ctx.grid.height(), self.ctx.grid.width())
        } else {
            (self.ctx.grid.width(), self.ctx.grid.height())
        };
        self.s.starts.clear();
        self.s.ends.clear();
        let mut in_last = 0;
        let mut min_angle = Ratio::new(0, 1);
        let mut line = pov_main + dm * first;
        let mut n = i64::from(first);
        let mut done = !(0..size_main).contains(&line) || first > self.ctx.reach;
        let lines = OctantLines {
            axis: if vertical { Axis::Row } else { Axis::Column },
            base: pov_cross,
            sign: dc,
            line0: pov_main,
            line_step: dm,
        };
        // While no obstacle is known the lines are open, and the visible range of the last one
        // is all the obstructed lines need of it (its bits are made when the first comes); once
        // an obstacle is known every later line is obstructed (obstacles are never dropped).
        let mut open_before: Option<(i64, i64)> = None;
        if first > 1 {
            self.s.open_lines[octant].extend((1..first).map(|n| (0, n)));
            open_before = Some((0, i64::from(first) - 1));
        }
        while !done {
            // First cell: trunc(min_angle · n + ½).
            let k = super::floor_div(2 * min_angle.num * n + min_angle.den, 2 * min_angle.den);
            let cmin = (pov_cross - n as i32).max(0);
            let cmax = (pov_cross + n as i32).min(size_cross - 1);
            let last_k = i64::from(if dc > 0 { cmax - pov_cross } else { pov_cross - cmin });
            done = true;
            if in_last == 0 {
                // No obstacle yet: every cell of the line is visible, and only its walls change
                // anything. The line is read as words and marked as spans.
                if k <= last_k {
                    done = self.open_line(&lines, n, k, last_k, &mut min_angle);
                }
                self.s.open_lines[octant].push((k as i32, last_k as i32));
                open_before = Some((k, last_k));
            } else {
                // Bits 0 ..= n + 1 (the next line marks bit n + 1 from the other octant's cells).
                let words = (n as usize + 2) / 64 + 1;
                zero_words(&mut self.s.current, words);
                if let Some((from, to)) = open_before.take() {
                    self.open_line_bits(&lines, n - 1, from, to, words);
                }
                if k <= last_k {
                    done = if last_k - k < SHORT_LINE {
                        self.obstructed_line_by_cell(&lines, n, k, last_k, &mut min_angle, in_last)
                    } else {
                        self.obstructed_line(&lines, n, k, last_k, &mut min_angle, in_last)
                    };
                }
                std::mem::swap(&mut self.s.previous, &mut self.s.current);
            }
            if n as i32 >= self.ctx.reach {
                done = true;
            }
            n += 1;
            in_last = self.s.starts.len();
            line += dm;
            if !(0..size_main).contains(&line) {
                done = true;
            }
        }
    }
}

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    if table_view::takes(ctx) && table_view::view(ctx) {
        return;
    }
    scan(ctx, true);
}

/// The view, with each octant's open lines found and lit at once (`open_rows`) or scanned one
/// by one (to test that both leave the same record).
fn scan<O: Opacity>(ctx: &mut FovContext<'_, O>, open_rows: bool) {
    let (bx0, by0, bx1, by1) = super::ray::ray_box(ctx);
    let (bw, bh) = (bx1 - bx0 + 1, by1 - by0 + 1);
    SCRATCH.with(|scratch| {
        with_radius_cols(ctx.radius_squared, |radius_cols| {
            if ctx.reach == 0 {
                // Only the origin: no line lies in the box (the octants would scan line 1).
                return;
            }
            // MRPAS scans the radius' square, so an open line is open whole.
            let octants = if open_rows { u8::MAX } else { 0 };
            let open = light_open_rows(ctx, radius_cols, octants, 1, RowExtent::Whole);
            if open.all_open_to(ctx.reach) {
                // Every line of every octant is lit, and the record of seen cells is read only
                // by octants scanning obstructed lines: there are none.
                return;
            }
            let first = |vertical: bool, dm: i32, dc: i32| {
                open.first_closed_along(if vertical { Axis::Row } else { Axis::Column }, dm, dc)
            };
            let mut s = scratch.borrow_mut();
            if ctx.reach <= short_view::MAX_REACH {
                short_view::scan(ctx, radius_cols, &mut s.short, first);
                return;
            }
            // Longer views keep bits, list their open lines and record only the shared cells
            // of obstructed lines.
            s.seen.clear();
            s.seen.resize((bw * bh) as usize, false);
            s.open_lines.iter_mut().for_each(Vec::clear);
            let mut run = Run { ctx, s: &mut s, radius_cols, bx0, by0, bw, bh };
            let (ox, oy) = (run.ctx.ox, run.ctx.oy);
            // (Never asked about: an octant's line 1 is open, with no behind test.)
            run.mark(ox, oy);
            for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                run.octant(true, dy, dx, first(true, dy, dx));
                run.octant(false, dx, dy, first(false, dx, dy));
            }
        })
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Cell;
    use crate::core::fov::reference::{assert_same_views, random_grid, view_of};
    use crate::core::fov::{Algorithm, FovParams, OpacityGrid, VisibleSet, compute};
    use crate::core::rng::Rng;

    // MRPAS cell by cell (the implementation before the open-line spans): the definition the
    // faster one must reproduce.
    struct Reference<'c, 'a, O: Opacity> {
        ctx: &'c mut FovContext<'a, O>,
        s: &'c mut Scratch,
        /// The box `seen` covers.
        bx0: i32,
        by0: i32,
        bw: i32,
        bh: i32,
    }

    impl<O: Opacity> Reference<'_, '_, O> {
        #[inline]
        fn seen_index(&self, x: i32, y: i32) -> Option<usize> {
            let (ax, ay) = (x - self.bx0, y - self.by0);
            ((0..self.bw).contains(&ax) && (0..self.bh).contains(&ay)).then(|| (ay * self.bw + ax) as usize)
        }

        /// Seen and transparent (cells off the map or the box are neither).
        #[inline]
        fn lit_and_clear(&self, x: i32, y: i32) -> bool {
            self.seen_index(x, y).is_some_and(|i| self.s.seen[i]) && !self.ctx.is_opaque(x, y)
        }

        fn mark(&mut self, x: i32, y: i32) {
            if let Some(i) = self.seen_index(x, y) {
                self.s.seen[i] = true;
            }
        }

        /// One octant. `vertical`: the main axis is y (lines are rows), else x. `dm` and `dc` are the
        /// steps along the main and cross axes.
        fn octant(&mut self, vertical: bool, dm: i32, dc: i32) {
            let (pov_main, pov_cross) = if vertical { (self.ctx.oy, self.ctx.ox) } else { (self.ctx.ox, self.ctx.oy) };
            let (size_main, size_cross) = if vertical {
                (self.ctx.grid.height(), self.ctx.grid.width())
            } else {
                (self.ctx.grid.width(), self.ctx.grid.height())
            };
            let cell = |c: i32, line: i32| if vertical { (c, line) } else { (line, c) };
            self.s.starts.clear();
            self.s.ends.clear();
            let mut in_last = 0;
            let mut min_angle = Ratio::new(0, 1);
            let mut line = pov_main + dm;
            let mut n: i64 = 1;
            let mut done = !(0..size_main).contains(&line);
            while !done {
                // First cell: trunc(min_angle · n + ½).
                let mut k = (2 * min_angle.num * n + min_angle.den).div_euclid(2 * min_angle.den);
                let cmin = (pov_cross - n as i32).max(0);
                let cmax = (pov_cross + n as i32).min(size_cross - 1);
                done = true;
                let mut c = pov_cross + k as i32 * dc;
                while c >= cmin && c <= cmax {
                    let (x, y) = cell(c, line);
                    let mut visible = true;
                    let mut extended = false;
                    let centre = Ratio::new(k, n);
                    let start = Ratio::new(2 * k - 1, 2 * n);
                    let end = Ratio::new(2 * k + 1, 2 * n);
                    let opaque = self.ctx.is_opaque(x, y);
                    if in_last > 0 {
                        let (bx, by) = cell(c, line - dm);
                        let (gx, gy) = cell(c - dc, line - dm);
                        if !self.lit_and_clear(bx, by) && !self.lit_and_clear(gx, gy) {
                            visible = false;
                        } else {
                            let mut idx = 0;
                            while idx < in_last && visible {
                                let (sa, ea) = (self.s.starts[idx], self.s.ends[idx]);
                                if start.le(ea) && sa.le(end) {
                                    if !opaque {
                                        if sa.lt(centre) && centre.lt(ea) {
                                            visible = false;
                                        }
                                    } else if sa.le(start) && end.le(ea) {
                                        visible = false;
                                    } else {
                                        self.s.starts[idx] = sa.min(start);
                                        self.s.ends[idx] = ea.max(end);
                                        extended = true;
                                    }
                                }
                                idx += 1;
                            }
                        }
                    }
                    if visible {
                        done = false;
                        self.mark(x, y);
                        let (rx, ry) = (x - self.ctx.ox, y - self.ctx.oy);
                        if self.ctx.in_radius(rx, ry) {
                            self.ctx.reveal(x, y);
                        }
                        if opaque {
                            if start.le(min_angle) {
                                min_angle = end;
                                if k == n {
                                    done = true;
                                }
                            } else if !extended {
                                self.s.starts.push(start);
                                self.s.ends.push(end);
                            }
                        }
                    }
                    k += 1;
                    c += dc;
                }
                if n as i32 >= self.ctx.reach {
                    done = true;
                }
                n += 1;
                in_last = self.s.starts.len();
                line += dm;
                if !(0..size_main).contains(&line) {
                    done = true;
                }
            }
        }
    }

    fn reference<O: Opacity>(ctx: &mut FovContext<'_, O>) {
        let (bx0, by0, bx1, by1) = crate::core::fov::ray::ray_box(ctx);
        let (bw, bh) = (bx1 - bx0 + 1, by1 - by0 + 1);
        SCRATCH.with(|scratch| {
            let mut s = scratch.borrow_mut();
            s.seen.clear();
            s.seen.resize((bw * bh) as usize, false);
            let mut run = Reference { ctx, s: &mut s, bx0, by0, bw, bh };
            let (ox, oy) = (run.ctx.ox, run.ctx.oy);
            run.mark(ox, oy);
            for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                run.octant(true, dy, dx);
                run.octant(false, dx, dy);
            }
        });
    }

    /// Long views (a reach over 30: those whose open lines stand for their cells in the record
    /// other octants ask) on 10 000 small maps, where lines of many octants end at the
    /// map's edges and obstacles come early: the cell-by-cell view. Also checks, in debug
    /// builds, that each cell an octant asks about is found in the one octant it names.
    #[test]
    fn long_views_on_small_maps_give_the_cell_by_cell_view() {
        let mut rng = Rng::new(99);
        for round in 0..10_000 {
            let (w, h) = (1 + rng.below(80), 1 + rng.below(80));
            let grid = random_grid(&mut rng, w, h, [0.02, 0.08, 0.15, 0.3][round % 4]);
            let origin = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
            let radius = [None, Some(31 + rng.below(40))][round % 2];
            let params = FovParams { origin, radius, light_walls: round % 5 != 0 };
            assert_cell_by_cell_view(&grid, params, round);
        }
    }

    /// MRPAS's view of `grid` is the cell-by-cell reference's.
    fn assert_cell_by_cell_view(grid: &OpacityGrid, params: FovParams, round: usize) {
        let mut visible = VisibleSet::new(grid.width() as u32, grid.height() as u32);
        compute(Algorithm::Mrpas, grid, params, &mut visible);
        let ours: Vec<(i32, i32)> = visible.iter().map(|c| (c.x, c.y)).collect();
        let (w, h) = (grid.width(), grid.height());
        assert_eq!(ours, view_of(grid, params, reference), "round {round}: {w}×{h}, {params:?}");
    }

    /// The faster version gives the earlier one's view.
    #[test]
    fn spans_give_the_cell_by_cell_view() {
        assert_same_views(Algorithm::Mrpas, 37, [0.0, 0.05, 0.2, 0.4], |grid, params| view_of(grid, params, reference));
    }

    /// A clear disc around the origin and walls beyond it: every octant has open lines, then
    /// obstructed ones, whose behind tests ask the other octants about the cells of their open
    /// lines on the axes and diagonals (`open_lines`).
    #[test]
    fn open_lines_then_walls_give_the_cell_by_cell_view() {
        let mut rng = Rng::new(57);
        for round in 0..3_000 {
            let (w, h) = (20 + rng.below(70), 20 + rng.below(70));
            let origin = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
            let clear = 2 + rng.below(14) as i32;
            let density = [0.1, 0.25, 0.4][round % 3];
            let mut grid = OpacityGrid::new(w, h);
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    let (dx, dy) = (x - origin.x, y - origin.y);
                    grid.set(x, y, dx * dx + dy * dy > clear * clear && rng.chance(density));
                }
            }
            // Short views (up to 30: `short_view`) too.
            let radius = [None, Some(31 + rng.below(40)), Some(2 + rng.below(29))][round % 3];
            let params = FovParams { origin, radius, light_walls: round % 5 != 0 };
            assert_cell_by_cell_view(&grid, params, round);
        }
    }

    /// Whether every line of every octant, up to the radius, is on the map and clear whole: the
    /// radius' square lies on the map and holds no wall but perhaps the origin.
    fn every_octant_open(grid: &OpacityGrid, params: FovParams) -> bool {
        let r = params.radius.expect("a radius") as i32;
        let Cell { x, y } = params.origin;
        (y - r..=y + r).all(|cy| (x - r..=x + r).all(|cx| (cx, cy) == (x, y) || !grid.is_opaque(cx, cy)))
    }

    /// In short views (up to 30: `short_view`), the open lines found at once leave the square's
    /// record of every cell seen as the scan of each open line does.
    #[test]
    fn open_lines_at_once_leave_the_short_views_record() {
        let mut rng = Rng::new(63);
        for round in 0..2_000 {
            let (w, h) = (10 + rng.below(60), 10 + rng.below(60));
            let grid = random_grid(&mut rng, w, h, [0.0, 0.02, 0.08, 0.2][round % 4]);
            let origin = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
            let params = FovParams { origin, radius: Some(1 + rng.below(30)), light_walls: true };
            let record = |open_rows: bool| {
                view_of(&grid, params, |ctx| scan(ctx, open_rows));
                SCRATCH.with(|s| s.borrow().short.seen)
            };
            // (With every octant open to the radius no octant scans, and none reads the record.)
            if !every_octant_open(&grid, params) {
                assert_eq!(record(true), record(false), "round {round}: {w}×{h}, {params:?}");
            }
        }
    }

    /// The open lines found at once leave the record other octants ask (each octant's list of
    /// open lines) as the scan of each open line does: the views rarely show a difference in it,
    /// since an obstacle hides most cells whose behind test it decides.
    #[test]
    fn open_lines_at_once_leave_the_scans_record() {
        let mut rng = Rng::new(61);
        for round in 0..400 {
            let (w, h) = (30 + rng.below(60), 30 + rng.below(60));
            let grid = random_grid(&mut rng, w, h, [0.0, 0.003, 0.01, 0.03][round % 4]);
            let origin = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
            let params = FovParams { origin, radius: Some(31 + rng.below(40)), light_walls: true };
            let record = |open_rows: bool| {
                view_of(&grid, params, |ctx| scan(ctx, open_rows));
                SCRATCH.with(|s| s.borrow().open_lines.clone())
            };
            // (With every octant open to the radius no octant scans, and none reads the record.)
            if !every_octant_open(&grid, params) {
                assert_eq!(record(true), record(false), "round {round}: {w}×{h}, {params:?}");
            }
        }
    }

    /// On maps with a few walls far apart, octants open for tens of lines end at a lone wall,
    /// which may lie beyond the radius in its square: the open lines found and lit at once
    /// (`open_rows.rs`) give the cell-by-cell view.
    #[test]
    fn open_lines_up_to_a_lone_wall_give_the_cell_by_cell_view() {
        assert_same_views(Algorithm::Mrpas, 39, [0.0005, 0.001, 0.002, 0.004], |grid, params| {
            view_of(grid, params, reference)
        });
    }
}
