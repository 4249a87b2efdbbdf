//! How a tile is turned in its cell: Tiled's flip flags, the top four bits of a tile layer's
//! GIDs (<https://doc.mapeditor.org/en/stable/reference/global-tile-ids/>).
//!
//! Tiled draws a tile flipped anti-diagonally first (its x and y swapped), then horizontally,
//! then vertically. Those three flags make the eight ways a square can be turned and mirrored,
//! so turning a stamp by 90° turns each of its tiles by changing only their flags (Tiled's Z).
//! The fourth bit, a 120° turn, is for hexagonal maps: kept so that a map round-trips, not drawn.
//!
//! ```
//! use sightline::core::model::flip::Flip;
//! let gid = 0xA000_0007; // tile 7, flipped horizontally and anti-diagonally
//! let flip = Flip::from_gid(gid);
//! assert_eq!(flip.describe(), "rotated 90° clockwise");
//! assert_eq!(flip.rotated_counterclockwise(), Flip::NONE);
//! assert_eq!(flip.gid_bits() | 7, gid);
//! ```

use serde::{Deserialize, Serialize};

/// Tiled's flip flags of one cell (bit 3 horizontal, 2 vertical, 1 anti-diagonal, 0 the
/// hexagonal 120° turn: a GID's top four bits, in order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Flip(u8);

/// A 2×2 matrix on coordinates centred in the cell, x right and y down: `[[a, b], [c, d]]`
/// sends (x, y) to (a·x + b·y, c·x + d·y).
type Matrix = [[i8; 2]; 2];

impl Flip {
    pub const NONE: Flip = Flip(0);
    pub const HORIZONTAL: Flip = Flip(0b1000);
    pub const VERTICAL: Flip = Flip(0b0100);
    pub const ANTI_DIAGONAL: Flip = Flip(0b0010);
    pub const HEXAGONAL_120: Flip = Flip(0b0001);
    /// The bits of a GID the flags take (Tiled's `FLIPPED_*_FLAG`s); the tile is the rest.
    pub const GID_MASK: u32 = 0xF000_0000;

    /// The flags of a GID.
    pub fn from_gid(gid: u32) -> Flip {
        Flip((gid >> 28) as u8)
    }

    /// The flags as a GID's top bits, to be or-ed with the tile's GID.
    pub fn gid_bits(self) -> u32 {
        u32::from(self.0) << 28
    }

    /// The flags from their four bits (a GID's top hex digit); `None` past 15.
    pub fn from_bits(bits: u8) -> Option<Flip> {
        (bits < 16).then_some(Flip(bits))
    }

    pub fn bits(self) -> u8 {
        self.0
    }

    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    pub fn contains(self, flags: Flip) -> bool {
        self.0 & flags.0 == flags.0
    }

    /// How the tile is drawn: anti-diagonal flip first, then horizontal, then vertical.
    pub fn matrix(self) -> Matrix {
        let mut m = if self.contains(Flip::ANTI_DIAGONAL) { [[0, 1], [1, 0]] } else { [[1, 0], [0, 1]] };
        if self.contains(Flip::HORIZONTAL) {
            m[0] = [-m[0][0], -m[0][1]];
        }
        if self.contains(Flip::VERTICAL) {
            m[1] = [-m[1][0], -m[1][1]];
        }
        m
    }

    /// The flags drawn as `m`, keeping this one's hexagonal bit. Every turn or mirror of the
    /// square is the matrix of exactly one of the eight combinations.
    fn with_matrix(self, m: Matrix) -> Flip {
        let hex = self.0 & Flip::HEXAGONAL_120.0;
        (0..8u8)
            .map(|k| Flip(k << 1 | hex))
            .find(|f| f.matrix() == m)
            .expect("the eight flag combinations draw the eight turns and mirrors of a square")
    }

    /// The tile as it looks mirrored left to right. The horizontal flip is drawn after the
    /// anti-diagonal one, and it commutes with the vertical one, so this toggles one flag.
    pub fn mirrored_horizontally(self) -> Flip {
        Flip(self.0 ^ Flip::HORIZONTAL.0)
    }

    /// The tile as it looks mirrored top to bottom.
    pub fn mirrored_vertically(self) -> Flip {
        Flip(self.0 ^ Flip::VERTICAL.0)
    }

    /// The tile as it looks turned a quarter clockwise on screen: (x, y) → (−y, x), y down.
    pub fn rotated_clockwise(self) -> Flip {
        self.with_matrix(multiply([[0, -1], [1, 0]], self.matrix()))
    }

    /// The tile as it looks turned a quarter counterclockwise on screen.
    pub fn rotated_counterclockwise(self) -> Flip {
        self.with_matrix(multiply([[0, 1], [-1, 0]], self.matrix()))
    }

    /// Where the point drawn at `p` (centred coordinates, corners at ±1) is read from in the
    /// unflipped tile: the inverse of [`Flip::matrix`], its transpose.
    pub fn source_of(self, p: [i8; 2]) -> [i8; 2] {
        let m = self.matrix();
        [m[0][0] * p[0] + m[1][0] * p[1], m[0][1] * p[0] + m[1][1] * p[1]]
    }

    /// How the tile is turned, in words (for the inspector): "" when it is not.
    pub fn describe(self) -> &'static str {
        match self.matrix() {
            [[1, 0], [0, 1]] => "",
            [[-1, 0], [0, 1]] => "flipped horizontally",
            [[1, 0], [0, -1]] => "flipped vertically",
            [[-1, 0], [0, -1]] => "rotated 180°",
            [[0, -1], [1, 0]] => "rotated 90° clockwise",
            [[0, 1], [-1, 0]] => "rotated 90° counterclockwise",
            [[0, 1], [1, 0]] => "flipped diagonally (x and y swapped)",
            _ => "flipped across the other diagonal",
        }
    }
}

fn multiply(a: Matrix, b: Matrix) -> Matrix {
    let cell = |r: usize, c: usize| a[r][0] * b[0][c] + a[r][1] * b[1][c];
    [[cell(0, 0), cell(0, 1)], [cell(1, 0), cell(1, 1)]]
}

/// The flips of a layer's cells: empty while no cell is flipped (most maps never hold one),
/// else one a cell, row-major like the layer's tiles. Empty equals all [`Flip::NONE`].
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Flips(Vec<Flip>);

impl Flips {
    /// The flip of cell `i` (none when nothing on the layer is flipped).
    pub fn get(&self, i: usize) -> Flip {
        self.0.get(i).copied().unwrap_or_default()
    }

    /// Sets cell `i`'s flip on a layer of `len` cells, making room on the first flipped cell.
    pub fn set(&mut self, i: usize, flip: Flip, len: usize) {
        if self.0.is_empty() {
            if flip.is_none() {
                return;
            }
            self.0 = vec![Flip::NONE; len];
        }
        self.0[i] = flip;
    }

    /// How many cells are flipped.
    pub fn count(&self) -> usize {
        self.0.iter().filter(|f| !f.is_none()).count()
    }

    /// True when the plane holds one flip a cell for a layer of `len` cells, or none at all.
    pub fn fits(&self, len: usize) -> bool {
        self.0.is_empty() || self.0.len() == len
    }

    /// The plane as held: one flip a cell, or empty when none was ever set (the undo history's
    /// diffs compare and copy it as it is).
    pub(crate) fn raw(&self) -> &[Flip] {
        &self.0
    }

    pub(crate) fn raw_mut(&mut self) -> &mut [Flip] {
        &mut self.0
    }

    /// Bytes held (for bounding the undo history).
    pub fn bytes(&self) -> usize {
        self.0.len() * std::mem::size_of::<Flip>()
    }
}

impl PartialEq for Flips {
    fn eq(&self, other: &Flips) -> bool {
        match (self.0.is_empty(), other.0.is_empty()) {
            (true, true) => true,
            (false, false) => self.0 == other.0,
            (true, false) => other.count() == 0,
            (false, true) => self.count() == 0,
        }
    }
}

/// A way to turn a stamp or a brush tile, with Tiled's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// X: mirrored left to right.
    FlipHorizontally,
    /// Y: mirrored top to bottom.
    FlipVertically,
    /// Z: a quarter turn clockwise.
    RotateClockwise,
    /// Shift+Z: a quarter turn counterclockwise.
    RotateCounterclockwise,
}

impl Turn {
    pub const ALL: [Turn; 4] =
        [Turn::FlipHorizontally, Turn::FlipVertically, Turn::RotateClockwise, Turn::RotateCounterclockwise];

    /// `flip` turned this way.
    pub fn of(self, flip: Flip) -> Flip {
        match self {
            Turn::FlipHorizontally => flip.mirrored_horizontally(),
            Turn::FlipVertically => flip.mirrored_vertically(),
            Turn::RotateClockwise => flip.rotated_clockwise(),
            Turn::RotateCounterclockwise => flip.rotated_counterclockwise(),
        }
    }

    /// For menus: what it does and its key.
    pub fn label(self) -> &'static str {
        match self {
            Turn::FlipHorizontally => "Flip horizontally  (X)",
            Turn::FlipVertically => "Flip vertically  (Y)",
            Turn::RotateClockwise => "Rotate clockwise  (Z)",
            Turn::RotateCounterclockwise => "Rotate counterclockwise  (Shift+Z)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where each pixel of a 3×3 image lands when drawn with `m`, as the image drawn.
    fn drawn(image: [[char; 3]; 3], m: Matrix) -> [[char; 3]; 3] {
        let mut out = [[' '; 3]; 3];
        for (y, row) in image.iter().enumerate() {
            for (x, &ch) in row.iter().enumerate() {
                let (cx, cy) = (x as i8 - 1, y as i8 - 1);
                let (dx, dy) = (m[0][0] * cx + m[0][1] * cy, m[1][0] * cx + m[1][1] * cy);
                out[(dy + 1) as usize][(dx + 1) as usize] = ch;
            }
        }
        out
    }

    fn rows(s: [&str; 3]) -> [[char; 3]; 3] {
        s.map(|r| r.chars().collect::<Vec<_>>().try_into().unwrap())
    }

    /// A tile with no symmetry (an "F" in a 3×3 square) drawn under each of Tiled's flags, as
    /// Tiled's documentation describes them: swap x and y first, then mirror.
    #[test]
    fn each_flag_combination_draws_the_tile_as_tiled_does() {
        let f = rows(["ab.", "c..", "d.."]);
        let cases = [
            (Flip::NONE, ["ab.", "c..", "d.."]),
            (Flip::HORIZONTAL, [".ba", "..c", "..d"]),
            (Flip::VERTICAL, ["d..", "c..", "ab."]),
            (Flip::ANTI_DIAGONAL, ["acd", "b..", "..."]),
            (Flip(0b1010), ["dca", "..b", "..."]),
            (Flip(0b0110), ["...", "b..", "acd"]),
            (Flip(0b1100), ["..d", "..c", ".ba"]),
            (Flip(0b1110), ["...", "..b", "dca"]),
        ];
        for (flip, expected) in cases {
            assert_eq!(drawn(f, flip.matrix()), rows(expected), "{flip:?}");
            // The drawing's inverse reads each pixel back from where it was.
            for p in [[-1, -1], [1, -1], [-1, 1], [1, 1], [0, 1]] {
                let m = flip.matrix();
                let q = [m[0][0] * p[0] + m[0][1] * p[1], m[1][0] * p[0] + m[1][1] * p[1]];
                assert_eq!(flip.source_of(q), p, "{flip:?}");
            }
        }
    }

    #[test]
    fn turns_and_mirrors_are_what_they_say_on_every_orientation() {
        let f = rows(["ab.", "c..", "d.."]);
        let turn = |img: [[char; 3]; 3]| drawn(img, [[0, -1], [1, 0]]);
        let mirror = |img: [[char; 3]; 3]| drawn(img, [[-1, 0], [0, 1]]);
        let flop = |img: [[char; 3]; 3]| drawn(img, [[1, 0], [0, -1]]);
        for bits in 0..16 {
            let flip = Flip(bits);
            let now = drawn(f, flip.matrix());
            assert_eq!(drawn(f, flip.rotated_clockwise().matrix()), turn(now), "{flip:?}");
            assert_eq!(drawn(f, flip.rotated_counterclockwise().matrix()), turn(turn(turn(now))), "{flip:?}");
            assert_eq!(drawn(f, flip.mirrored_horizontally().matrix()), mirror(now), "{flip:?}");
            assert_eq!(drawn(f, flip.mirrored_vertically().matrix()), flop(now), "{flip:?}");
            assert_eq!(flip.rotated_clockwise().rotated_counterclockwise(), flip);
            assert_eq!(flip.rotated_clockwise().bits() & 1, bits & 1, "the hexagonal bit stays");
        }
        let names: std::collections::HashSet<_> = (0..8).map(|k| Flip(k << 1).describe()).collect();
        assert_eq!(names.len(), 8, "each orientation has its own words");
    }

    /// Tiled's editor turns a cell's flags by a table (`TileLayer::rotate` in libtiled, with the
    /// flags as H·4 + V·2 + D): the same flags as the turns derived here from the drawing.
    #[test]
    fn turns_agree_with_the_table_tileds_editor_uses() {
        let right = [5, 4, 1, 0, 7, 6, 3, 2];
        let left = [3, 2, 7, 6, 1, 0, 5, 4];
        for mask in 0..8u8 {
            let flip = Flip(mask << 1);
            assert_eq!(flip.rotated_clockwise().bits() >> 1, right[usize::from(mask)], "{flip:?}");
            assert_eq!(flip.rotated_counterclockwise().bits() >> 1, left[usize::from(mask)], "{flip:?}");
        }
    }

    #[test]
    fn an_empty_plane_equals_one_of_no_flips() {
        let mut a = Flips::default();
        let mut b = Flips::default();
        b.set(2, Flip::VERTICAL, 4);
        assert_ne!(a, b);
        b.set(2, Flip::NONE, 4);
        assert_eq!(a, b);
        a.set(1, Flip::NONE, 4);
        assert!(a.0.is_empty(), "setting no flip on an empty plane allocates nothing");
        assert_eq!((b.get(2), a.get(3), b.fits(4), b.fits(5), a.fits(5)), (Flip::NONE, Flip::NONE, true, false, true));
    }
}
