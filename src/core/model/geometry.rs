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

/// Where a point drawn on the map (an object's corner, a polygon's point) lands, as Tiled's View ›
/// Snapping chooses: nowhere else (`Off`), on whole map pixels, on the grid's corners, or on a
/// finer grid of [`Snap::FINE_DIVISIONS`] steps a cell. Tiled rounds to the nearest such point
/// (`MapRenderer::snapToGrid`), and so does [`Snap::point`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Snap {
    Off,
    Pixels,
    /// sightline's default, unlike Tiled's (`Off`): a roguelike's zones cover whole cells.
    #[default]
    Grid,
    FineGrid,
}

impl Snap {
    pub const ALL: [Snap; 4] = [Snap::Grid, Snap::FineGrid, Snap::Pixels, Snap::Off];

    /// Steps a cell of the fine grid (Tiled's default "fine grid divisions").
    pub const FINE_DIVISIONS: u32 = 4;

    /// What the tools bar calls it.
    pub fn label(self) -> &'static str {
        match self {
            Snap::Off => "snap off",
            Snap::Pixels => "snap to pixels",
            Snap::Grid => "snap to grid",
            Snap::FineGrid => "snap to fine grid",
        }
    }

    /// `p` (map pixels) snapped, on a map whose cells are `tile_size` pixels.
    pub fn point(self, p: [f64; 2], tile_size: [u32; 2]) -> [f64; 2] {
        let step = |divisions: u32| tile_size.map(|t| f64::from(t.max(1)) / f64::from(divisions));
        let steps = match self {
            Snap::Off => return p,
            Snap::Pixels => [1.0, 1.0],
            Snap::Grid => step(1),
            Snap::FineGrid => step(Self::FINE_DIVISIONS),
        };
        [(p[0] / steps[0]).round() * steps[0], (p[1] / steps[1]).round() * steps[1]]
    }

    /// The snapping while Ctrl (and Shift) are held, as Tiled's `SnapHelper` toggles it: Ctrl
    /// turns grid snapping on when it is off (or on pixels) and off when it is on; Ctrl+Shift
    /// turns the fine grid on, or back to the grid when it is on.
    pub fn toggled(self, ctrl: bool, shift: bool) -> Snap {
        match (ctrl, shift, self) {
            (false, _, s) => s,
            (true, false, Snap::Off | Snap::Pixels) => Snap::Grid,
            (true, false, Snap::Grid | Snap::FineGrid) => Snap::Off,
            (true, true, Snap::FineGrid) => Snap::Grid,
            (true, true, _) => Snap::FineGrid,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapping_rounds_to_the_nearest_grid_fine_grid_or_pixel_point() {
        let tile = [16, 8];
        assert_eq!(Snap::Grid.point([23.9, 11.9], tile), [16.0, 8.0]);
        assert_eq!(Snap::Grid.point([24.1, 12.1], tile), [32.0, 16.0]);
        assert_eq!(Snap::FineGrid.point([5.0, 2.9], tile), [4.0, 2.0]);
        assert_eq!(Snap::FineGrid.point([6.1, 3.1], tile), [8.0, 4.0]);
        assert_eq!(Snap::Pixels.point([6.4, 3.6], tile), [6.0, 4.0]);
        assert_eq!(Snap::Off.point([6.4, 3.6], tile), [6.4, 3.6]);
        // Off the map's top-left too: the grid goes on.
        assert_eq!(Snap::Grid.point([-9.0, -3.0], tile), [-16.0, -0.0]);
    }

    #[test]
    fn ctrl_and_ctrl_shift_toggle_snapping_as_tileds_snap_helper() {
        use Snap::*;
        let ctrl = [(Off, Grid), (Pixels, Grid), (Grid, Off), (FineGrid, Off)];
        for (from, to) in ctrl {
            assert_eq!(from.toggled(true, false), to, "Ctrl from {from:?}");
            assert_eq!(from.toggled(false, false), from);
            assert_eq!(from.toggled(false, true), from, "Shift alone keeps {from:?}");
        }
        let ctrl_shift = [(Off, FineGrid), (Pixels, FineGrid), (Grid, FineGrid), (FineGrid, Grid)];
        for (from, to) in ctrl_shift {
            assert_eq!(from.toggled(true, true), to, "Ctrl+Shift from {from:?}");
        }
    }
}
