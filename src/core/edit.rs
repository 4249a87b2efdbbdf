//! Map edits the editor's tools make: the cells a stroke, line or rectangle covers and the
//! cells a bucket fill reaches. The app turns pointer input into these; undo keeps whole-map
//! snapshots (the map is flat arrays, cheap to clone).

use std::collections::VecDeque;

use super::flip::Flip;
use super::geometry::Cell;
use super::map::Map;
use super::tile::TileId;

/// The cells of a straight line from `a` to `b`, both included (Bresenham, every step a king
/// move), for strokes that skip cells when the pointer moves fast and for the line tool.
pub fn line_cells(a: Cell, b: Cell) -> Vec<Cell> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let n = dx.abs().max(dy.abs());
    if n == 0 {
        return vec![a];
    }
    (0..=n)
        .map(|i| {
            // i·d/n rounded half away from zero.
            let round = |d: i32| d.signum() * ((2 * i * d.abs() + n) / (2 * n));
            Cell::new(a.x + round(dx), a.y + round(dy))
        })
        .collect()
}

/// The square stamp of a brush `size` cells wide centred on `c` (for even sizes the extra column
/// and row go right and down, as Tiled does).
pub fn square_around(c: Cell, size: u32) -> Vec<Cell> {
    let size = size.max(1) as i32;
    let lo = (size - 1) / 2;
    let mut out = Vec::with_capacity((size * size) as usize);
    for dy in -lo..size - lo {
        for dx in -lo..size - lo {
            out.push(Cell::new(c.x + dx, c.y + dy));
        }
    }
    out
}

/// Every cell of `path` stamped with a brush `size` cells wide, each cell once, in path order.
pub fn stamp_along(path: &[Cell], size: u32) -> Vec<Cell> {
    if size <= 1 {
        return path.to_vec();
    }
    let mut seen = std::collections::HashSet::new();
    path.iter().flat_map(|&c| square_around(c, size)).filter(|c| seen.insert(*c)).collect()
}

/// The cells of the rectangle with corners `a` and `b`: all of them, or its outline.
pub fn rect_cells(a: Cell, b: Cell, filled: bool) -> Vec<Cell> {
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
    let mut out = Vec::new();
    for y in y0..=y1 {
        for x in x0..=x1 {
            if filled || x == x0 || x == x1 || y == y0 || y == y1 {
                out.push(Cell::new(x, y));
            }
        }
    }
    out
}

/// The cells a bucket fill from `start` reaches on `layer`: connected (4 or 8 ways) cells
/// holding the same tile as `start`.
pub fn fill_cells(map: &Map, layer: usize, start: Cell, eight: bool) -> Vec<Cell> {
    let Some(target) = map.tile(layer, start) else { return Vec::new() };
    flood_cells(map, start, eight, |c| map.tile(layer, c) == Some(target))
}

/// The cells of the map joined to `start` through cells for which `joins` holds (`start`
/// included when it holds there), breadth first; edge-adjacent steps, or king moves when
/// `eight`. The bucket fill's region and the magic wand's selection.
pub fn flood_cells(map: &Map, start: Cell, eight: bool, joins: impl Fn(Cell) -> bool) -> Vec<Cell> {
    let Some(first) = map.index(start).filter(|_| joins(start)) else { return Vec::new() };
    let mut seen = vec![false; map.len()];
    let mut out = Vec::new();
    let mut queue = VecDeque::from([start]);
    seen[first] = true;
    let steps: &[(i32, i32)] = if eight {
        &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    } else {
        &[(1, 0), (-1, 0), (0, 1), (0, -1)]
    };
    while let Some(c) = queue.pop_front() {
        out.push(c);
        for &(dx, dy) in steps {
            let n = Cell::new(c.x + dx, c.y + dy);
            if let Some(i) = map.index(n)
                && !seen[i]
                && joins(n)
            {
                seen[i] = true;
                queue.push_back(n);
            }
        }
    }
    out
}

/// Sets `tile`, unflipped, on `layer` at every in-bounds cell; returns how many cells changed.
pub fn paint(map: &mut Map, layer: usize, cells: &[Cell], tile: TileId) -> usize {
    paint_flipped(map, layer, cells, tile, Flip::NONE)
}

/// Sets `tile` flipped by `flip` on `layer` at every in-bounds cell; returns how many changed.
pub fn paint_flipped(map: &mut Map, layer: usize, cells: &[Cell], tile: TileId, flip: Flip) -> usize {
    let mut changed = 0;
    for &c in cells {
        if map.flipped_tile(layer, c).is_some_and(|old| old != (tile, flip))
            && map.set_flipped_tile(layer, c, tile, flip)
        {
            changed += 1;
        }
    }
    changed
}

/// A weighted set of tiles for the random brush (Tiled's random mode): each painted cell gets
/// one of them, chosen with probability proportional to its weight.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RandomBrush {
    pub tiles: Vec<(TileId, u32)>,
}

impl RandomBrush {
    /// A tile drawn from the set by weight (`None` if every weight is 0 or the set is empty).
    pub fn pick(&self, rng: &mut super::rng::Rng) -> Option<TileId> {
        let total: u32 = self.tiles.iter().map(|t| t.1).sum();
        if total == 0 {
            return None;
        }
        let mut k = rng.below(total);
        for &(tile, weight) in &self.tiles {
            if k < weight {
                return Some(tile);
            }
            k -= weight;
        }
        None
    }

    /// Paints each cell with a tile drawn from the set. Returns how many cells changed.
    pub fn paint(&self, map: &mut Map, layer: usize, cells: &[Cell], rng: &mut super::rng::Rng) -> usize {
        let mut changed = 0;
        for &c in cells {
            let Some(tile) = self.pick(rng) else { return changed };
            if map.flipped_tile(layer, c).is_some_and(|old| old != (tile, Flip::NONE)) && map.set_tile(layer, c, tile) {
                changed += 1;
            }
        }
        changed
    }
}

/// A tile type's rules and names, as the tile-set editor edits them.
#[derive(Clone, Debug, PartialEq)]
pub struct TileRules {
    pub name: String,
    /// Tiled's class of the tile (empty: none).
    pub class: String,
    pub glyph: super::tile::Glyph,
    pub opaque: bool,
    pub walkable: bool,
    pub cost: f32,
    /// `Some((open, counterpart))`: a door, open or closed, toggling to `counterpart`.
    pub door: Option<(bool, TileId)>,
}

impl TileRules {
    pub fn of(kind: &super::tile::TileKind) -> Self {
        Self {
            name: kind.name.clone(),
            class: kind.class.clone(),
            glyph: kind.glyph,
            opaque: kind.opaque,
            walkable: kind.walkable,
            cost: kind.cost,
            door: kind.door.map(|d| (d.open, d.toggles_to)),
        }
    }
}

#[derive(Debug, PartialEq, thiserror::Error)]
pub enum TileEditError {
    #[error("there is no tile type {0}")]
    NoSuchTile(TileId),
    #[error("tile type 0 is the empty tile; it cannot be edited")]
    EmptyTile,
    #[error("a cost must be a number from 0 to 1000, not {0}")]
    BadCost(f32),
    #[error("a door cannot toggle to itself")]
    DoorToItself,
    #[error("the map already has {0} tile types, the most it can hold")]
    TooManyTiles(usize),
}

/// Sets tile `id`'s rules. Doors are kept in pairs: the counterpart becomes the opposite door
/// toggling back to `id`, and a tile that stops being a door (or changes counterpart) releases
/// its old counterpart.
pub fn set_tile_rules(map: &mut Map, id: TileId, rules: TileRules) -> Result<(), TileEditError> {
    let n = map.tiles.len();
    if usize::from(id) >= n {
        return Err(TileEditError::NoSuchTile(id));
    }
    if id == super::tile::EMPTY {
        return Err(TileEditError::EmptyTile);
    }
    if !(0.0..=1000.0).contains(&rules.cost) {
        return Err(TileEditError::BadCost(rules.cost));
    }
    if let Some((_, to)) = rules.door {
        if to == id {
            return Err(TileEditError::DoorToItself);
        }
        if usize::from(to) >= n || to == super::tile::EMPTY {
            return Err(TileEditError::NoSuchTile(to));
        }
    }
    let old = map.tiles[usize::from(id)].door;
    let new_counterpart = rules.door.map(|(_, to)| to);
    if let Some(old) = old
        && Some(old.toggles_to) != new_counterpart
        && map.tiles[usize::from(old.toggles_to)].door.is_some_and(|d| d.toggles_to == id)
    {
        map.tiles[usize::from(old.toggles_to)].door = None;
    }
    if let Some((open, to)) = rules.door {
        // The counterpart's own old partner, if another tile, is released too.
        if let Some(d) = map.tiles[usize::from(to)].door
            && d.toggles_to != id
            && map.tiles[usize::from(d.toggles_to)].door.is_some_and(|p| p.toggles_to == to)
        {
            map.tiles[usize::from(d.toggles_to)].door = None;
        }
        map.tiles[usize::from(to)].door = Some(super::tile::Door { open: !open, toggles_to: id });
    }
    let kind = &mut map.tiles[usize::from(id)];
    kind.name = rules.name;
    kind.class = rules.class;
    kind.glyph = rules.glyph;
    kind.opaque = rules.opaque;
    kind.walkable = rules.walkable;
    kind.cost = rules.cost;
    kind.door = rules.door.map(|(open, toggles_to)| super::tile::Door { open, toggles_to });
    Ok(())
}

/// Adds a tile type (a plain floor-like tile to edit), returning its id.
pub fn add_tile(map: &mut Map, name: &str) -> Result<TileId, TileEditError> {
    let n = map.tiles.len();
    if n > usize::from(TileId::MAX) {
        return Err(TileEditError::TooManyTiles(n));
    }
    let glyph = super::tile::Glyph { ch: '?', fg: super::tile::Rgb(220, 220, 220), bg: super::tile::Rgb(30, 30, 40) };
    map.tiles.push(super::tile::TileKind::new(name, glyph.ch, glyph.fg, glyph.bg, false, true));
    Ok(n as TileId)
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

/// A rectangle of tiles from one layer, flipped as they were, for copy, cut and paste.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub width: u32,
    pub height: u32,
    /// Row-major; the empty tile (0) pastes as nothing.
    pub cells: Vec<TileId>,
    /// How each cell's tile is flipped, row-major like `cells`.
    pub flips: Vec<Flip>,
}

impl Stamp {
    /// Unflipped tiles, `width` a row.
    pub fn new(width: u32, cells: Vec<TileId>) -> Stamp {
        let height = (cells.len() / width.max(1) as usize) as u32;
        Stamp { width, height, flips: vec![Flip::NONE; cells.len()], cells }
    }

    /// The tiles of `layer` in the rectangle with corners `a` and `b` (clipped to the map);
    /// `None` if the rectangle misses the map.
    pub fn copy(map: &Map, layer: usize, a: Cell, b: Cell) -> Option<Stamp> {
        let (min, max) = super::geometry::clipped_rect(a, b, map.width(), map.height())?;
        if layer >= map.layers.len() {
            return None;
        }
        let (x0, y0, x1, y1) = (min.x, min.y, max.x, max.y);
        let (mut cells, mut flips) = (Vec::new(), Vec::new());
        for y in y0..=y1 {
            for x in x0..=x1 {
                let (tile, flip) = map.flipped_tile(layer, Cell::new(x, y)).unwrap_or_default();
                cells.push(tile);
                flips.push(flip);
            }
        }
        Some(Stamp { width: (x1 - x0 + 1) as u32, height: (y1 - y0 + 1) as u32, cells, flips })
    }

    /// The tiles of `layer` in `selection`, over its bounding rectangle; the cells around that
    /// are not selected are empty in the stamp, so it pastes the selection's shape (Tiled's copy
    /// of a selected area). `None` when nothing is selected.
    pub fn copy_selection(map: &Map, layer: usize, selection: &super::selection::Selection) -> Option<Stamp> {
        let (a, b) = selection.bounds()?;
        let mut stamp = Stamp::copy(map, layer, a, b)?;
        let width = stamp.width as i32;
        for (i, (tile, flip)) in stamp.cells.iter_mut().zip(&mut stamp.flips).enumerate() {
            if !selection.contains(Cell::new(a.x + i as i32 % width, a.y + i as i32 / width)) {
                *tile = super::tile::EMPTY;
                *flip = Flip::NONE;
            }
        }
        Some(stamp)
    }

    /// This stamp laid out again: cell (x, y) of the result is cell `from(x, y)` of this one,
    /// its tile flipped by `turn`. `width` and `height` are the result's.
    fn rearranged(
        &self,
        width: u32,
        height: u32,
        from: impl Fn(u32, u32) -> (u32, u32),
        turn: fn(Flip) -> Flip,
    ) -> Stamp {
        let mut out = Stamp { width, height, cells: Vec::new(), flips: Vec::new() };
        for y in 0..height {
            for x in 0..width {
                let (fx, fy) = from(x, y);
                let i = (fy * self.width + fx) as usize;
                out.cells.push(self.cells[i]);
                out.flips.push(if self.cells[i] == super::tile::EMPTY { Flip::NONE } else { turn(self.flips[i]) });
            }
        }
        out
    }

    /// Mirrored left to right, each tile with it (Tiled's X).
    pub fn flipped_horizontally(&self) -> Stamp {
        let (w, h) = (self.width, self.height);
        self.rearranged(w, h, |x, y| (w - 1 - x, y), Flip::mirrored_horizontally)
    }

    /// Mirrored top to bottom, each tile with it (Tiled's Y).
    pub fn flipped_vertically(&self) -> Stamp {
        let (w, h) = (self.width, self.height);
        self.rearranged(w, h, |x, y| (x, h - 1 - y), Flip::mirrored_vertically)
    }

    /// Turned a quarter clockwise, each tile with it (Tiled's Z).
    pub fn rotated_clockwise(&self) -> Stamp {
        let h = self.height;
        // The result's row y is this stamp's column y, read bottom to top.
        self.rearranged(h, self.width, |x, y| (y, h - 1 - x), Flip::rotated_clockwise)
    }

    /// Turned a quarter counterclockwise, each tile with it (Tiled's Shift+Z).
    pub fn rotated_counterclockwise(&self) -> Stamp {
        let w = self.width;
        self.rearranged(self.height, w, |x, y| (w - 1 - y, x), Flip::rotated_counterclockwise)
    }

    /// This stamp turned `turn`'s way.
    pub fn turned(&self, turn: Turn) -> Stamp {
        match turn {
            Turn::FlipHorizontally => self.flipped_horizontally(),
            Turn::FlipVertically => self.flipped_vertically(),
            Turn::RotateClockwise => self.rotated_clockwise(),
            Turn::RotateCounterclockwise => self.rotated_counterclockwise(),
        }
    }

    /// The cells the stamp covers with its top-left corner at `at`, and their tiles and flips
    /// (empty ones left out).
    pub fn placed(&self, at: Cell) -> Vec<(Cell, TileId, Flip)> {
        let w = self.width as i32;
        self.cells
            .iter()
            .zip(&self.flips)
            .enumerate()
            .filter(|(_, (t, _))| **t != super::tile::EMPTY)
            .map(|(i, (&t, &f))| (Cell::new(at.x + i as i32 % w, at.y + i as i32 / w), t, f))
            .collect()
    }

    /// Pastes onto `layer` with the top-left corner at `at`; cells off the map are dropped, and
    /// so are cells outside `inside` when it is given (painting stays inside a selection).
    /// Returns how many cells changed.
    pub fn paste(&self, map: &mut Map, layer: usize, at: Cell, inside: Option<&super::selection::Selection>) -> usize {
        self.placed(at)
            .into_iter()
            .filter(|&(c, t, f)| {
                inside.is_none_or(|s| s.contains(c))
                    && map.flipped_tile(layer, c).is_some_and(|old| old != (t, f))
                    && map.set_flipped_tile(layer, c, t, f)
            })
            .count()
    }
}

/// The copies of a stamp that one stroke lays down. A copy goes at each cell the stroke passes
/// (its top-left corner there) unless its rectangle would overlap a copy the stroke already
/// laid, so dragging a 2×2 tree lays whole trees side by side rather than a smear of partial
/// ones, and a Shift line of them is evenly spaced. This is how Tiled lays a stamp along a
/// Shift line (`StampBrush::drawPreviewLayer`); Tiled's free drag overlaps its copies, which is
/// why its users reach for eishiya's "Large Tile Stamp Tool"; here both do the same. A 1×1
/// stamp lays a copy on every cell the stroke passes, as the brush does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StampStroke {
    width: i32,
    height: i32,
    /// The top-left corners of the copies laid so far, in order.
    laid: Vec<Cell>,
}

impl StampStroke {
    pub fn new(stamp: &Stamp) -> StampStroke {
        StampStroke { width: stamp.width.max(1) as i32, height: stamp.height.max(1) as i32, laid: Vec::new() }
    }

    /// Whether a copy with its corner at `at` overlaps none laid so far.
    fn fits(&self, at: Cell) -> bool {
        self.laid.iter().all(|c| (c.x - at.x).abs() >= self.width || (c.y - at.y).abs() >= self.height)
    }

    /// Lays copies at the cells of `path` in turn where they fit; returns their corners.
    pub fn extend(&mut self, path: &[Cell]) -> Vec<Cell> {
        let before = self.laid.len();
        for &at in path {
            if self.fits(at) {
                self.laid.push(at);
            }
        }
        self.laid[before..].to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stamp from rows of letters ('.' empty), each tile's id its letter's place in the
    /// alphabet, flipped by `flip`.
    fn stamp(rows: &[&str], flip: Flip) -> Stamp {
        let cells: Vec<TileId> =
            rows.concat().chars().map(|c| if c == '.' { 0 } else { c as TileId - 'a' as TileId + 1 }).collect();
        let mut s = Stamp::new(rows[0].len() as u32, cells);
        for (f, &t) in s.flips.iter_mut().zip(&s.cells) {
            if t != 0 {
                *f = flip;
            }
        }
        s
    }

    fn rows(s: &Stamp) -> Vec<String> {
        s.cells
            .chunks(s.width as usize)
            .map(|r| r.iter().map(|&t| if t == 0 { '.' } else { (b'a' + t as u8 - 1) as char }).collect())
            .collect()
    }

    #[test]
    fn a_stamp_turns_and_mirrors_its_layout_and_each_tile_with_it() {
        let s = stamp(&["ab.", "c.d"], Flip::NONE);
        let cw = s.rotated_clockwise();
        assert_eq!(rows(&cw), ["ca", ".b", "d."]);
        assert_eq!((cw.width, cw.height), (2, 3));
        let turned = Flip::NONE.rotated_clockwise();
        assert_eq!(cw.flips, [turned, turned, Flip::NONE, turned, turned, Flip::NONE]);
        assert_eq!(s.rotated_counterclockwise().rotated_clockwise(), s);
        assert_eq!(cw.rotated_clockwise().rotated_clockwise().rotated_clockwise(), s);
        assert_eq!(rows(&s.rotated_counterclockwise()), [".d", "b.", "ac"]);
        let h = s.flipped_horizontally();
        assert_eq!(rows(&h), [".ba", "d.c"]);
        assert_eq!(h.flips[1], Flip::HORIZONTAL);
        assert_eq!(h.flips[0], Flip::NONE, "an empty cell stays unflipped");
        assert_eq!(rows(&s.flipped_vertically()), ["c.d", "ab."]);
        assert_eq!(s.flipped_vertically().flips[0], Flip::VERTICAL);
        assert_eq!(s.flipped_horizontally().flipped_vertically(), s.rotated_clockwise().rotated_clockwise());
    }

    /// Lays `s` along `path` with one stroke and draws the copies on a `width`×`height` grid of
    /// letters ('.' nothing laid).
    fn laid_along(s: &Stamp, path: &[Cell], width: usize, height: usize) -> Vec<String> {
        let mut grid = vec![vec!['.'; width]; height];
        for at in StampStroke::new(s).extend(path) {
            for (c, t, _) in s.placed(at) {
                grid[c.y as usize][c.x as usize] = (b'a' + t as u8 - 1) as char;
            }
        }
        grid.into_iter().map(String::from_iter).collect()
    }

    #[test]
    fn a_stroke_lays_whole_stamps_side_by_side_not_a_smear() {
        let tree = stamp(&["ab", "cd"], Flip::NONE);
        // A drag along the top row, one cell at a time: a copy every second cell.
        let row: Vec<Cell> = (0..6).map(|x| Cell::new(x, 0)).collect();
        assert_eq!(laid_along(&tree, &row, 8, 2), ["ababab..", "cdcdcd.."]);
        // A diagonal drag: each copy starts where the last one ends.
        let diagonal = line_cells(Cell::new(0, 0), Cell::new(5, 5));
        assert_eq!(laid_along(&tree, &diagonal, 6, 6), ["ab....", "cd....", "..ab..", "..cd..", "....ab", "....cd"]);
        // A shallow line: the copies at (1, 0), (3, 1) and (5, 2) would overlap; each
        // laid copy steps down a row with the line.
        let shallow = line_cells(Cell::new(0, 0), Cell::new(5, 2));
        assert_eq!(laid_along(&tree, &shallow, 8, 4), ["ab......", "cdab....", "..cdab..", "....cd.."]);
    }

    #[test]
    fn a_stroke_coming_back_over_its_copies_lays_nothing_there() {
        let wide = stamp(&["abc"], Flip::NONE);
        let mut stroke = StampStroke::new(&wide);
        let out: Vec<Cell> = (0..6).map(|x| Cell::new(x, 0)).collect();
        assert_eq!(stroke.extend(&out), [Cell::new(0, 0), Cell::new(3, 0)]);
        let back: Vec<Cell> = (0..6).rev().map(|x| Cell::new(x, 0)).collect();
        assert_eq!(stroke.extend(&back), []);
        // One row down, the copies fit again.
        assert_eq!(stroke.extend(&[Cell::new(1, 1)]), [Cell::new(1, 1)]);
        // A 1×1 stamp lays a copy on every cell once, as the brush paints.
        let dot = stamp(&["a"], Flip::NONE);
        let mut stroke = StampStroke::new(&dot);
        assert_eq!(stroke.extend(&out).len(), 6);
        assert_eq!(stroke.extend(&back), []);
    }
}
