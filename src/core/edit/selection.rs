//! The selected area of a map: any set of its cells, as Tiled's selected area (a `QRegion`) is.
//! The editor's three selection tools make one (Tiled's Rectangular Select, Magic Wand and
//! Select Same Tile), each combining what it picks with what was selected before in one of four
//! ways (Tiled's replace, add, subtract and intersect). While a selection exists the painting
//! tools paint only inside it (Tiled's `TilePainter::paintableRegion`); copy and cut take its
//! cells, and Map › Crop to selection keeps its bounding rectangle.
//!
//! A selection belongs to the map area, not to a layer. It is a bitset over the map's cells,
//! row-major, so combining two is a pass over words and the largest map (4096²) costs 2 MiB.

use crate::core::model::flip::Flip;
use crate::core::model::geometry::Cell;
use crate::core::model::map::Map;
use crate::core::model::tile::TileId;

/// A tile as the selection tools compare cells: its id and how it is flipped. Two cells are
/// alike when both are equal, as Tiled's `Cell::operator==` has it (a mirrored wall is another
/// tile to the magic wand).
pub type TileLook = (TileId, Flip);

/// How a selection tool's pick combines with what was selected before (Tiled's
/// `AbstractTileSelectionTool::SelectionMode`). Held keys choose one for a drag: Shift adds,
/// Ctrl subtracts, Ctrl+Shift intersects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SelectionMode {
    /// The pick becomes the selection.
    #[default]
    Replace,
    /// The pick joins the selection.
    Add,
    /// The pick leaves the selection.
    Subtract,
    /// Only what is in both stays.
    Intersect,
}

impl SelectionMode {
    pub const ALL: [SelectionMode; 4] =
        [SelectionMode::Replace, SelectionMode::Add, SelectionMode::Subtract, SelectionMode::Intersect];

    pub fn label(self) -> &'static str {
        match self {
            SelectionMode::Replace => "replace",
            SelectionMode::Add => "add",
            SelectionMode::Subtract => "subtract",
            SelectionMode::Intersect => "intersect",
        }
    }

    /// The mode the held keys ask for, as in Tiled; `None` when they ask for none.
    pub fn from_keys(shift: bool, ctrl: bool) -> Option<SelectionMode> {
        match (shift, ctrl) {
            (true, true) => Some(SelectionMode::Intersect),
            (true, false) => Some(SelectionMode::Add),
            (false, true) => Some(SelectionMode::Subtract),
            (false, false) => None,
        }
    }
}

/// A set of cells of a `width × height` map.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Selection {
    width: u32,
    height: u32,
    /// Bit `y · width + x` is cell (x, y).
    words: Vec<u64>,
}

impl Selection {
    /// About how much memory it takes (an undo step keeps one).
    pub fn approx_bytes(&self) -> usize {
        std::mem::size_of::<Self>() + self.words.len() * 8
    }

    /// No cell of a `width × height` map.
    pub fn empty(width: u32, height: u32) -> Selection {
        let len = width as usize * height as usize;
        Selection { width, height, words: vec![0; len.div_ceil(64)] }
    }

    /// Every cell (Tiled's Select All).
    pub fn all(width: u32, height: u32) -> Selection {
        let mut s = Selection::empty(width, height);
        s.set_range(0, width as usize * height as usize);
        s
    }

    /// The cells of the rectangle with corners `a` and `b` (in either order) that lie on the map.
    pub fn rect(width: u32, height: u32, a: Cell, b: Cell) -> Selection {
        let mut s = Selection::empty(width, height);
        if let Some((min, max)) = crate::core::model::geometry::clipped_rect(a, b, width, height) {
            for y in min.y..=max.y {
                let row = y as usize * width as usize;
                s.set_range(row + min.x as usize, row + max.x as usize + 1);
            }
        }
        s
    }

    /// `cells`, those on the map.
    pub fn from_cells(width: u32, height: u32, cells: impl IntoIterator<Item = Cell>) -> Selection {
        let mut s = Selection::empty(width, height);
        for c in cells {
            s.insert(c);
        }
        s
    }

    /// Tiled's Magic Wand: the cells of `layer` joined to `at` through edge-adjacent cells whose
    /// tile looks like one of `like` (`at`'s own look is what a click passes; a drag passes the
    /// looks of every cell it crossed, so it selects the region of all of them around the
    /// pointer, as Tiled's `MagicWandTool::tilePositionChanged` does). Empty when `at` is off the
    /// map or its tile is none of `like`.
    pub fn contiguous(map: &Map, layer: usize, at: Cell, like: &[TileLook]) -> Selection {
        let alike = |c: Cell| map.flipped_tile(layer, c).is_some_and(|t| like.contains(&t));
        Selection::from_cells(map.width(), map.height(), crate::core::edit::flood_cells(map, at, false, alike))
    }

    /// Tiled's Select Same Tile: every cell of `layer` whose tile looks like one of `like`, joined
    /// or not.
    pub fn same_tile(map: &Map, layer: usize, like: &[TileLook]) -> Selection {
        let mut s = Selection::empty(map.width(), map.height());
        let Some(l) = map.layers.get(layer) else { return s };
        for (i, &tile) in l.cells.iter().enumerate() {
            if like.contains(&(tile, l.flip(i))) {
                s.words[i / 64] |= 1 << (i % 64);
            }
        }
        s
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// The bit of `c`, when it is on the map this selection is of.
    fn bit(&self, c: Cell) -> Option<usize> {
        let on = c.x >= 0 && c.y >= 0 && (c.x as u32) < self.width && (c.y as u32) < self.height;
        on.then(|| c.y as usize * self.width as usize + c.x as usize)
    }

    /// Sets bits `start..end`.
    fn set_range(&mut self, start: usize, end: usize) {
        let mut i = start;
        while i < end {
            let (word, bit) = (i / 64, i % 64);
            let n = (64 - bit).min(end - i);
            let mask = if n == 64 { u64::MAX } else { ((1u64 << n) - 1) << bit };
            self.words[word] |= mask;
            i += n;
        }
    }

    /// Whether `c` is selected (never, off the map).
    pub fn contains(&self, c: Cell) -> bool {
        self.bit(c).is_some_and(|i| self.words[i / 64] >> (i % 64) & 1 == 1)
    }

    /// Selects `c`, if it is on the map.
    pub fn insert(&mut self, c: Cell) {
        if let Some(i) = self.bit(c) {
            self.words[i / 64] |= 1 << (i % 64);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// How many cells are selected.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The selected cells, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        let width = self.width.max(1) as usize;
        self.words.iter().enumerate().flat_map(move |(k, &word)| {
            let mut w = word;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let bit = w.trailing_zeros() as usize;
                w &= w - 1;
                let i = k * 64 + bit;
                Some(Cell::new((i % width) as i32, (i / width) as i32))
            })
        })
    }

    /// The top-left and bottom-right corners of the smallest rectangle holding every selected
    /// cell; `None` when nothing is. Word by word, and a row's first and last selected cells by
    /// scanning in from its ends (the status bar asks every frame, of up to 4096² cells).
    pub fn bounds(&self) -> Option<(Cell, Cell)> {
        let w = self.width as usize;
        let first = self.words.iter().position(|&x| x != 0)?;
        let last = self.words.iter().rposition(|&x| x != 0)?;
        let first_bit = first * 64 + self.words[first].trailing_zeros() as usize;
        let last_bit = last * 64 + 63 - self.words[last].leading_zeros() as usize;
        let (y0, y1) = (first_bit / w, last_bit / w);
        let (mut x0, mut x1) = (w, 0);
        for y in y0..=y1 {
            let (start, end) = (y * w, y * w + w);
            let left = self.next_with(start, end, true);
            if left < end {
                x0 = x0.min(left - start);
                x1 = x1.max(self.last_set_before(end, start) - start);
            }
        }
        Some((Cell::new(x0 as i32, y0 as i32), Cell::new(x1 as i32, y1 as i32)))
    }

    /// The last set bit before `end` (and from `start`), which must exist.
    fn last_set_before(&self, end: usize, start: usize) -> usize {
        let mut i = end;
        while i > start {
            let word = (i - 1) / 64;
            // The bits of this word below `i`.
            let below = i - word * 64;
            let mask = if below == 64 { u64::MAX } else { (1u64 << below) - 1 };
            let bits = self.words[word] & mask;
            if bits != 0 {
                return word * 64 + 63 - bits.leading_zeros() as usize;
            }
            i = word * 64;
        }
        start
    }

    /// This selection combined with `pick` the way `mode` says. A pick of a map of another size
    /// is read cell by cell where the two overlap.
    pub fn combined(&self, mode: SelectionMode, pick: &Selection) -> Selection {
        let pick = pick.sized(self.width, self.height);
        let mut out = self.clone();
        for (w, p) in out.words.iter_mut().zip(&pick.words) {
            *w = match mode {
                SelectionMode::Replace => *p,
                SelectionMode::Add => *w | p,
                SelectionMode::Subtract => *w & !p,
                SelectionMode::Intersect => *w & p,
            };
        }
        out
    }

    /// Every cell this selection leaves out (Tiled's Invert Selection).
    pub fn inverted(&self) -> Selection {
        let mut out = Selection::all(self.width, self.height);
        for (w, s) in out.words.iter_mut().zip(&self.words) {
            *w &= !s;
        }
        out
    }

    /// The same cells, as a selection of a `width × height` map (those beyond it dropped).
    pub fn sized(&self, width: u32, height: u32) -> Selection {
        if (width, height) == (self.width, self.height) {
            return self.clone();
        }
        Selection::from_cells(width, height, self.cells())
    }

    /// Each cell moved by `(dx, dy)`, as a selection of a `width × height` map (those moved off
    /// it dropped): the selection after a resize or crop moved the map's cells so.
    pub fn moved(&self, (dx, dy): (i32, i32), width: u32, height: u32) -> Selection {
        Selection::from_cells(width, height, self.cells().map(|c| Cell::new(c.x + dx, c.y + dy)))
    }

    /// The runs of selected cells in row `y` from column `x0` to `x1` (both included, clipped to
    /// the map), each as its first and last column: the canvas draws a run as one rectangle.
    /// Word by word, so a wide row of the largest map is a few dozen steps.
    pub fn runs_in_row(&self, y: i32, x0: i32, x1: i32) -> Vec<(i32, i32)> {
        let mut runs = Vec::new();
        let (x0, x1) = (x0.max(0), x1.min(self.width as i32 - 1));
        if y < 0 || y >= self.height as i32 || x0 > x1 {
            return runs;
        }
        let row = y as usize * self.width as usize;
        let end = row + x1 as usize + 1;
        let mut i = row + x0 as usize;
        while i < end {
            let start = self.next_with(i, end, true);
            if start == end {
                break;
            }
            let stop = self.next_with(start, end, false);
            runs.push(((start - row) as i32, (stop - 1 - row) as i32));
            i = stop;
        }
        runs
    }

    /// The first bit from `i` (before `end`) that is set (`set`) or clear; `end` if none is.
    fn next_with(&self, mut i: usize, end: usize, set: bool) -> usize {
        while i < end {
            let word = if set { self.words[i / 64] } else { !self.words[i / 64] };
            let rest = word >> (i % 64);
            if rest != 0 {
                return (i + rest.trailing_zeros() as usize).min(end);
            }
            i = (i / 64 + 1) * 64;
        }
        end
    }
}

/// The parts of runs `a` not covered by runs `b` (both sorted, as [`Selection::runs_in_row`]
/// gives them): the stretches of a row's selected cells whose neighbours in the next row are
/// not selected, where the canvas draws the selection's outline.
pub fn runs_minus(a: &[(i32, i32)], b: &[(i32, i32)]) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for &(mut start, end) in a {
        for &(b0, b1) in b {
            if b1 < start || b0 > end {
                continue;
            }
            if b0 > start {
                out.push((start, b0 - 1));
            }
            start = b1 + 1;
        }
        if start <= end {
            out.push((start, end));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 7 × 4 selection drawn in rows: `#` selected.
    fn drawn(rows: &[&str]) -> Selection {
        let cells = rows.iter().enumerate().flat_map(|(y, row)| {
            row.chars().enumerate().filter(|&(_, ch)| ch == '#').map(move |(x, _)| Cell::new(x as i32, y as i32))
        });
        Selection::from_cells(rows[0].len() as u32, rows.len() as u32, cells)
    }

    fn rows(s: &Selection) -> Vec<String> {
        (0..s.height() as i32)
            .map(|y| (0..s.width() as i32).map(|x| if s.contains(Cell::new(x, y)) { '#' } else { '.' }).collect())
            .collect()
    }

    #[test]
    fn a_rectangle_is_clipped_to_the_map_and_its_corners_come_in_either_order() {
        let s = Selection::rect(7, 4, Cell::new(5, 2), Cell::new(2, -3));
        assert_eq!(rows(&s), ["..####.", "..####.", "..####.", "......."]);
        assert_eq!(s.len(), 12);
        assert_eq!(s.bounds(), Some((Cell::new(2, 0), Cell::new(5, 2))));
        assert!(Selection::rect(7, 4, Cell::new(8, 0), Cell::new(9, 3)).is_empty());
        assert_eq!(Selection::rect(7, 4, Cell::new(8, 0), Cell::new(9, 3)).bounds(), None);
    }

    #[test]
    fn the_four_modes_combine_as_tileds_do() {
        let before = drawn(&["###....", "###....", ".......", "......."]);
        let pick = drawn(&[".......", ".####..", ".####..", "......."]);
        let combined = |mode| rows(&before.combined(mode, &pick));
        assert_eq!(combined(SelectionMode::Replace), rows(&pick));
        assert_eq!(combined(SelectionMode::Add), ["###....", "#####..", ".####..", "......."]);
        assert_eq!(combined(SelectionMode::Subtract), ["###....", "#......", ".......", "......."]);
        assert_eq!(combined(SelectionMode::Intersect), [".......", ".##....", ".......", "......."]);
        assert_eq!(rows(&before.inverted()), ["...####", "...####", "#######", "#######"]);
        assert_eq!(SelectionMode::from_keys(true, false), Some(SelectionMode::Add));
        assert_eq!(SelectionMode::from_keys(false, true), Some(SelectionMode::Subtract));
        assert_eq!(SelectionMode::from_keys(true, true), Some(SelectionMode::Intersect));
        assert_eq!(SelectionMode::from_keys(false, false), None);
    }

    #[test]
    fn bits_across_word_boundaries_are_kept_apart() {
        // 100 columns: rows straddle the 64-bit words.
        let s = Selection::rect(100, 3, Cell::new(60, 0), Cell::new(70, 2));
        assert_eq!(s.len(), 33);
        assert!(s.contains(Cell::new(63, 1)) && s.contains(Cell::new(64, 1)) && !s.contains(Cell::new(71, 1)));
        assert_eq!(s.cells().count(), 33);
        assert_eq!(s.inverted().len(), 300 - 33);
        assert_eq!(Selection::all(100, 3).len(), 300);
        assert_eq!(s.runs_in_row(1, 0, 99), [(60, 70)]);
        assert_eq!(s.runs_in_row(1, 65, 99), [(65, 70)]);
        assert_eq!(s.runs_in_row(1, 0, 62), [(60, 62)]);
        assert_eq!(s.runs_in_row(3, 0, 99), []);
        assert_eq!(s.bounds(), Some((Cell::new(60, 0), Cell::new(70, 2))));
        let corners = Selection::from_cells(100, 3, [Cell::new(99, 0), Cell::new(1, 2), Cell::new(64, 1)]);
        assert_eq!(corners.bounds(), Some((Cell::new(1, 0), Cell::new(99, 2))));
        let ragged = drawn(&["##.#..##"]);
        assert_eq!(ragged.runs_in_row(0, 0, 7), [(0, 1), (3, 3), (6, 7)]);
        assert_eq!(ragged.runs_in_row(0, 1, 6), [(1, 1), (3, 3), (6, 6)]);
    }

    #[test]
    fn the_outline_is_where_a_rows_runs_have_no_selected_neighbour() {
        assert_eq!(runs_minus(&[(0, 9)], &[(2, 3), (6, 6)]), [(0, 1), (4, 5), (7, 9)]);
        assert_eq!(runs_minus(&[(0, 3), (6, 9)], &[(0, 9)]), []);
        assert_eq!(runs_minus(&[(2, 5)], &[]), [(2, 5)]);
        assert_eq!(runs_minus(&[(2, 5), (8, 9)], &[(0, 2), (5, 8)]), [(3, 4), (9, 9)]);
    }

    #[test]
    fn a_selection_of_another_size_keeps_the_cells_both_maps_have() {
        let s = drawn(&["#.....#", ".......", ".......", "#.....#"]);
        assert_eq!(rows(&s.sized(3, 2)), ["#..", "..."]);
        assert!(!s.contains(Cell::new(7, 0)) && !s.contains(Cell::new(-1, 0)));
        assert_eq!(rows(&s.moved((-1, -3), 7, 2)), [".....#.", "......."]);
    }
}
