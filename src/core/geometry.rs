//! Grid coordinates.

use serde::{Deserialize, Serialize};

/// A cell of the grid: column `x` (to the right) and row `y` (downwards), as in Tiled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    pub x: i32,
    pub y: i32,
}

impl Cell {
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// Chebyshev distance (king moves).
    pub fn chebyshev(self, other: Cell) -> i32 {
        (self.x - other.x).abs().max((self.y - other.y).abs())
    }

    /// Squared Euclidean distance; the FOV radius test is `dx² + dy² ≤ r²`.
    pub fn distance_squared(self, other: Cell) -> i64 {
        let dx = i64::from(self.x - other.x);
        let dy = i64::from(self.y - other.y);
        dx * dx + dy * dy
    }
}

/// The rectangle with corners `a` and `b` (in either order) cut to a `width × height` map, as
/// its top-left and bottom-right cells; `None` when it misses the map. The rectangle a copy,
/// a rectangular selection and a crop take.
pub fn clipped_rect(a: Cell, b: Cell, width: u32, height: u32) -> Option<(Cell, Cell)> {
    let min = Cell::new(a.x.min(b.x).max(0), a.y.min(b.y).max(0));
    let max = Cell::new(a.x.max(b.x).min(width as i32 - 1), a.y.max(b.y).min(height as i32 - 1));
    (min.x <= max.x && min.y <= max.y).then_some((min, max))
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl std::str::FromStr for Cell {
    type Err = String;

    /// Parses `X,Y` (as the CLI takes it).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (x, y) = s.split_once(',').ok_or_else(|| format!("expected X,Y but found {s:?}"))?;
        let parse = |v: &str| v.trim().parse::<i32>().map_err(|_| format!("{v:?} is not a whole number in {s:?}"));
        Ok(Cell::new(parse(x)?, parse(y)?))
    }
}
