//! Map edits the editor's tools make: the cells a stroke, line or rectangle covers and the
//! cells a bucket fill reaches. The app turns pointer input into these; undo keeps whole-map
//! snapshots (the map is flat arrays, cheap to clone).

use std::collections::VecDeque;

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
    let mut seen = vec![false; map.len()];
    let mut out = Vec::new();
    let mut queue = VecDeque::from([start]);
    seen[map.index(start).expect("in bounds")] = true;
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
                && map.tile(layer, n) == Some(target)
            {
                seen[i] = true;
                queue.push_back(n);
            }
        }
    }
    out
}

/// Sets `tile` on `layer` at every in-bounds cell; returns how many cells changed.
pub fn paint(map: &mut Map, layer: usize, cells: &[Cell], tile: TileId) -> usize {
    let mut changed = 0;
    for &c in cells {
        if map.tile(layer, c).is_some_and(|t| t != tile) && map.set_tile(layer, c, tile) {
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
            if map.tile(layer, c).is_some_and(|t| t != tile) && map.set_tile(layer, c, tile) {
                changed += 1;
            }
        }
        changed
    }
}

/// A tile type's rules, as the tile-set editor edits them.
#[derive(Clone, Debug, PartialEq)]
pub struct TileRules {
    pub name: String,
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

/// A rectangle of tiles from one layer, for copy, cut and paste.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub width: u32,
    pub height: u32,
    /// Row-major; the empty tile (0) pastes as nothing.
    pub cells: Vec<TileId>,
}

impl Stamp {
    /// The tiles of `layer` in the rectangle with corners `a` and `b` (clipped to the map);
    /// `None` if the rectangle misses the map.
    pub fn copy(map: &Map, layer: usize, a: Cell, b: Cell) -> Option<Stamp> {
        let x0 = a.x.min(b.x).max(0);
        let y0 = a.y.min(b.y).max(0);
        let x1 = a.x.max(b.x).min(map.width() as i32 - 1);
        let y1 = a.y.max(b.y).min(map.height() as i32 - 1);
        if x0 > x1 || y0 > y1 || layer >= map.layers.len() {
            return None;
        }
        let mut cells = Vec::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                cells.push(map.tile(layer, Cell::new(x, y)).unwrap_or(0));
            }
        }
        Some(Stamp { width: (x1 - x0 + 1) as u32, height: (y1 - y0 + 1) as u32, cells })
    }

    /// Mirrored left to right (Tiled's X).
    pub fn flipped_horizontally(&self) -> Stamp {
        let w = self.width as usize;
        let cells = self.cells.chunks(w).flat_map(|row| row.iter().rev().copied()).collect();
        Stamp { cells, ..*self }
    }

    /// Mirrored top to bottom (Tiled's Y).
    pub fn flipped_vertically(&self) -> Stamp {
        let w = self.width as usize;
        let cells = self.cells.chunks(w).rev().flatten().copied().collect();
        Stamp { cells, ..*self }
    }

    /// The cells the stamp covers with its top-left corner at `at`, and their tiles (empty ones
    /// left out).
    pub fn placed(&self, at: Cell) -> Vec<(Cell, TileId)> {
        let w = self.width as i32;
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, t)| **t != super::tile::EMPTY)
            .map(|(i, &t)| (Cell::new(at.x + i as i32 % w, at.y + i as i32 / w), t))
            .collect()
    }

    /// Pastes onto `layer` with the top-left corner at `at`; cells off the map are dropped.
    /// Returns how many cells changed.
    pub fn paste(&self, map: &mut Map, layer: usize, at: Cell) -> usize {
        self.placed(at)
            .into_iter()
            .filter(|&(c, t)| map.tile(layer, c).is_some_and(|old| old != t) && map.set_tile(layer, c, t))
            .count()
    }
}
