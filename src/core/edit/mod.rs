//! Map edits the editor's tools make: the cells a stroke, line or rectangle covers and the
//! cells a bucket fill reaches. The app turns pointer input into these; undo keeps whole-map
//! snapshots (the map is flat arrays, cheap to clone).

pub mod selection;
pub mod terrain;
pub mod tile_transfer;

use std::collections::VecDeque;

use crate::core::model::flip::{Flip, Turn};
use crate::core::model::geometry::Cell;
use crate::core::model::map::Map;
use crate::core::model::object::{MapObject, ObjectKind, ObjectShape, cell_under};
use crate::core::model::tile::{PropertyValue, TileId};

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
    // The empty tile is never flipped (`Layer::set`): painting it flipped is erasing.
    let flip = if tile == crate::core::model::tile::EMPTY { Flip::NONE } else { flip };
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
    pub fn pick(&self, rng: &mut crate::core::rng::Rng) -> Option<TileId> {
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
    pub fn paint(&self, map: &mut Map, layer: usize, cells: &[Cell], rng: &mut crate::core::rng::Rng) -> usize {
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
    pub glyph: crate::core::model::tile::Glyph,
    pub opaque: bool,
    pub walkable: bool,
    pub cost: f32,
    /// `Some((open, counterpart))`: a door, open or closed, toggling to `counterpart`.
    pub door: Option<(bool, TileId)>,
}

impl TileRules {
    pub fn of(kind: &crate::core::model::tile::TileKind) -> Self {
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
    if id == crate::core::model::tile::EMPTY {
        return Err(TileEditError::EmptyTile);
    }
    if !(0.0..=1000.0).contains(&rules.cost) {
        return Err(TileEditError::BadCost(rules.cost));
    }
    if let Some((_, to)) = rules.door {
        if to == id {
            return Err(TileEditError::DoorToItself);
        }
        if usize::from(to) >= n || to == crate::core::model::tile::EMPTY {
            return Err(TileEditError::NoSuchTile(to));
        }
    }
    // The look rules of the tile and of its new counterpart door, before (see `follow_rules`).
    let before = [
        look_rules(&map.tiles[usize::from(id)]),
        rules.door.map_or((false, true, None), |(_, to)| look_rules(&map.tiles[usize::from(to)])),
    ];
    let old = map.tiles[usize::from(id)].door;
    let new_counterpart = rules.door.map(|(_, to)| to);
    // The doors released, with their look rules before: no door now, their implied glyphs
    // follow (an open door released shows `.`, as any floor).
    let mut released = Vec::new();
    let mut release = |map: &mut Map, door: TileId| {
        released.push((door, look_rules(&map.tiles[usize::from(door)])));
        map.tiles[usize::from(door)].door = None;
    };
    if let Some(old) = old
        && Some(old.toggles_to) != new_counterpart
        && map.tiles[usize::from(old.toggles_to)].door.is_some_and(|d| d.toggles_to == id)
    {
        release(map, old.toggles_to);
    }
    if let Some((open, to)) = rules.door {
        // The counterpart's own old partner, if another tile, is released too.
        if let Some(d) = map.tiles[usize::from(to)].door
            && d.toggles_to != id
            && map.tiles[usize::from(d.toggles_to)].door.is_some_and(|p| p.toggles_to == to)
        {
            release(map, d.toggles_to);
        }
        map.tiles[usize::from(to)].door = Some(crate::core::model::tile::Door { open: !open, toggles_to: id });
    }
    let kind = &mut map.tiles[usize::from(id)];
    let glyph_kept = rules.glyph == kind.glyph;
    kind.name = rules.name;
    kind.class = rules.class;
    kind.glyph = rules.glyph;
    kind.opaque = rules.opaque;
    kind.walkable = rules.walkable;
    kind.cost = rules.cost;
    kind.door = rules.door.map(|(open, toggles_to)| crate::core::model::tile::Door { open, toggles_to });
    if glyph_kept {
        follow_rules(map, id, before[0]);
    }
    if let Some((_, to)) = rules.door {
        follow_rules(map, to, before[1]);
    }
    for (door, before) in released {
        follow_rules(map, door, before);
    }
    Ok(())
}

/// The rules a tile's implied glyph goes by: opaque, walkable, and a door's open state.
type LookRules = (bool, bool, Option<bool>);

fn look_rules(kind: &crate::core::model::tile::TileKind) -> LookRules {
    (kind.opaque, kind.walkable, kind.door.map(|d| d.open))
}

/// A tile with an image draws its glyph only with tile images off, and a Tiled tileset without
/// look properties gives it the glyph its rules imply ([`Glyph::implied`](crate::core::model::tile::Glyph::implied)).
/// Such a glyph follows the rules when they change (`before`: as they were): a wall made
/// floor shows `.`, and a save writes no `glyph`, `fg` or `bg` into a tileset file shared with
/// others for a rule edit. A glyph of its own (not the implied one) stays.
fn follow_rules(map: &mut Map, id: TileId, before: LookRules) {
    let kind = &mut map.tiles[usize::from(id)];
    let implied = |(opaque, walkable, door): LookRules| {
        crate::core::model::tile::Glyph::implied(opaque, walkable, door, kind.glyph.fg)
    };
    let was = implied(before);
    if kind.sprite.is_some() && (kind.glyph.ch, kind.glyph.bg) == (was.ch, was.bg) {
        let now = implied(look_rules(kind));
        (kind.glyph.ch, kind.glyph.bg) = (now.ch, now.bg);
    }
}

/// Adds a tile type (a plain floor-like tile to edit), returning its id.
pub fn add_tile(map: &mut Map, name: &str) -> Result<TileId, TileEditError> {
    let n = map.tiles.len();
    if n > usize::from(TileId::MAX) {
        return Err(TileEditError::TooManyTiles(n));
    }
    let glyph = crate::core::model::tile::Glyph {
        ch: '?',
        fg: crate::core::model::tile::Rgb(220, 220, 220),
        bg: crate::core::model::tile::Rgb(30, 30, 40),
    };
    map.tiles.push(crate::core::model::tile::TileKind::new(name, glyph.ch, glyph.fg, glyph.bg, false, true));
    Ok(n as TileId)
}

/// A rectangle of tiles from one layer, flipped as they were, or the objects of an object
/// layer standing in such a rectangle, for copy, cut and paste.
#[derive(Clone, Debug, PartialEq)]
pub struct Stamp {
    pub width: u32,
    pub height: u32,
    /// Row-major; the empty tile (0) pastes as nothing.
    pub cells: Vec<TileId>,
    /// How each cell's tile is flipped, row-major like `cells`.
    pub flips: Vec<Flip>,
    /// The objects copied from an object layer (its tiles are then empty); none for tiles.
    pub objects: Vec<StampObject>,
    /// The pixels of a cell of the map the objects were copied from, for turning them.
    pub grid: [f64; 2],
}

/// An object a [`Stamp`] carries.
#[derive(Clone, Debug, PartialEq)]
pub struct StampObject {
    /// The object, its cell counted from the stamp's top-left corner and its id the one it had
    /// where it was copied (a paste numbers the copies anew and points the `object` properties
    /// between them at each other).
    pub object: MapObject,
    /// Where it hangs on its box ([`Map::object_anchor`]), for turning it.
    pub anchor: [f64; 2],
}

/// What [`Stamp::paste_objects`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PastedObjects {
    /// The copies' ids, in the stamp's order.
    pub ids: Vec<u32>,
    /// Objects left out because their cell was off the map or outside the selection.
    pub outside: usize,
    /// A player start was left out: the map has one already.
    pub player_start_left_out: bool,
}

impl Stamp {
    /// Unflipped tiles, `width` a row.
    pub fn new(width: u32, cells: Vec<TileId>) -> Stamp {
        let height = (cells.len() / width.max(1) as usize) as u32;
        Stamp { width, height, flips: vec![Flip::NONE; cells.len()], cells, objects: Vec::new(), grid: [1.0, 1.0] }
    }

    /// `objects` of `map` in a stamp over the rectangle with corners `a` (top left) and `b`
    /// (the selection's bounds, say, so that they paste where they stood in it): each on its
    /// cell counted from `a`. It has no tiles (`cells` is empty).
    pub fn of_objects<'a>(map: &Map, a: Cell, b: Cell, objects: impl IntoIterator<Item = &'a MapObject>) -> Stamp {
        let span = |from: i32, to: i32| (i64::from(to) - i64::from(from) + 1).clamp(1, i64::from(u32::MAX)) as u32;
        let mut stamp = Stamp::new(span(a.x, b.x), Vec::new());
        stamp.height = span(a.y, b.y);
        stamp.grid = map.tile_size.map(|t| f64::from(t.max(1)));
        stamp.objects = objects
            .into_iter()
            .map(|o| StampObject {
                object: MapObject { cell: Cell::new(o.cell.x - a.x, o.cell.y - a.y), ..o.clone() },
                anchor: o.shape.as_ref().map_or([0.0, 0.0], |s| map.object_anchor(&s.kind)),
            })
            .collect();
        stamp
    }

    /// The tile ids the stamp lays: its cells' and its tile objects' (not the empty tile).
    pub fn used_tiles(&self) -> std::collections::BTreeSet<TileId> {
        let objects = self.objects.iter().filter_map(|s| match s.object.shape.as_ref()?.kind {
            crate::core::model::object::ShapeKind::Tile { tile, .. } => Some(tile),
            _ => None,
        });
        self.cells.iter().copied().chain(objects).filter(|&t| t != crate::core::model::tile::EMPTY).collect()
    }

    /// The stamp with each tile id `t` (of cells and tile objects) made `to(t)`: a stamp from
    /// another map, in this map's ids (see [`crate::core::edit::tile_transfer::TileTransfer`]).
    pub fn with_tile_ids(&self, to: impl Fn(TileId) -> TileId) -> Stamp {
        let mut stamp = self.clone();
        for t in stamp.cells.iter_mut().filter(|t| **t != crate::core::model::tile::EMPTY) {
            *t = to(*t);
        }
        for s in &mut stamp.objects {
            if let Some(crate::core::model::object::ShapeKind::Tile { tile, .. }) =
                s.object.shape.as_mut().map(|s| &mut s.kind)
            {
                *tile = to(*tile);
            }
        }
        stamp
    }

    /// The stamp as ASCII, as sightline's tests draw maps: a row of glyphs a line (`map`'s
    /// tiles' glyphs, a space for an empty cell), each game object's glyph over its cell, then
    /// a line for each object. It goes on the system clipboard with a copy, for a bug report
    /// or a test.
    ///
    /// ```
    /// use sightline::core::{Cell, Map, MapObject, ObjectKind, edit::Stamp};
    /// let mut map = Map::new_standard(3, 2, 1).unwrap(); // floor
    /// map.add_object(MapObject::new(ObjectKind::PlayerStart, Cell::new(1, 1)).named("hero"));
    /// let stamp = Stamp::of_objects(&map, Cell::new(0, 0), Cell::new(2, 1), &map.objects);
    /// assert_eq!(stamp.as_text(&map), "   \n @ \n@ hero (player) on 1, 1\n");
    /// ```
    pub fn as_text(&self, map: &Map) -> String {
        let w = self.width.max(1) as usize;
        // A stamp of objects is drawn on a grid of its size (not a huge one: its lines say it).
        let blank = if self.cells.is_empty() && u64::from(self.width) * u64::from(self.height) <= 256 * 256 {
            vec![crate::core::model::tile::EMPTY; (self.width * self.height) as usize]
        } else {
            Vec::new()
        };
        let cells = if self.cells.is_empty() { &blank } else { &self.cells };
        let mut rows: Vec<Vec<char>> = cells
            .chunks(w)
            .map(|row| {
                row.iter()
                    .map(|&t| match map.tiles.get(usize::from(t)) {
                        Some(kind) if t != crate::core::model::tile::EMPTY => kind.glyph.ch,
                        _ => ' ',
                    })
                    .collect()
            })
            .collect();
        for StampObject { object, .. } in &self.objects {
            let (x, y) = (object.cell.x, object.cell.y);
            if object.shape.is_none()
                && let Some(c) =
                    usize::try_from(y).ok().and_then(|y| rows.get_mut(y)).and_then(|r| r.get_mut(x as usize))
            {
                *c = object.kind.glyph();
            }
        }
        let mut text: String = rows.into_iter().map(|r| String::from_iter(r) + "\n").collect();
        for StampObject { object, .. } in &self.objects {
            let what = object.shape.as_ref().map_or_else(String::new, |s| format!(", {}", s.describe()));
            text += &format!(
                "{} {} ({}) on {}, {}{what}\n",
                object.kind.glyph(),
                object.name,
                object.kind.type_name(),
                object.cell.x,
                object.cell.y
            );
        }
        text
    }

    /// Adds copies of the stamp's objects to object layer `layer` of `map`, the stamp's
    /// top-left corner at `at`. Each copy has a new id, and an `object` property of one that
    /// named another of the copied objects names that one's copy (as Tiled's paste does).
    /// Objects whose cell is off the map, or outside `inside` when it is given, are left out;
    /// so is a player start when the map has one (a game has one player).
    pub fn paste_objects(
        &self,
        map: &mut Map,
        layer: usize,
        at: Cell,
        inside: Option<&crate::core::edit::selection::Selection>,
    ) -> PastedObjects {
        let mut pasted = PastedObjects::default();
        let mut has_player = map.objects.iter().any(|o| o.kind == ObjectKind::PlayerStart);
        let mut renumbered = std::collections::HashMap::new();
        for StampObject { object, .. } in &self.objects {
            let cell = Cell::new(at.x.saturating_add(object.cell.x), at.y.saturating_add(object.cell.y));
            if !map.in_bounds(cell) || inside.is_some_and(|s| !s.contains(cell)) {
                pasted.outside += 1;
                continue;
            }
            if object.kind == ObjectKind::PlayerStart {
                if has_player {
                    pasted.player_start_left_out = true;
                    continue;
                }
                has_player = true;
            }
            let id = map.add_object(self.laid_object(object, cell, map.tile_size).on_layer(layer));
            renumbered.insert(object.id, id);
            pasted.ids.push(id);
        }
        fn renumber(properties: &mut crate::core::model::tile::Properties, to: &std::collections::HashMap<u32, u32>) {
            for value in properties.values_mut() {
                match value {
                    PropertyValue::Object(id) => {
                        if let Some(&new) = to.get(id) {
                            *id = new;
                        }
                    }
                    PropertyValue::Class { members, .. } => renumber(members, to),
                    _ => {}
                }
            }
        }
        let copies: std::collections::HashSet<u32> = renumbered.values().copied().collect();
        for o in map.objects.iter_mut().filter(|o| copies.contains(&o.id)) {
            renumber(&mut o.properties, &renumbered);
        }
        pasted
    }

    /// `object` of this stamp as a paste lays it on `cell` of a map of `tile_size` cells: on
    /// cells of another size than those it was copied from, its shape is scaled with them
    /// ([`ObjectShape::rescaled`]), so that it covers the same cells and stands on `cell`, as
    /// a game object without a shape does.
    pub fn laid_object(&self, object: &MapObject, cell: Cell, tile_size: [u32; 2]) -> MapObject {
        let grid = tile_size.map(|t| f64::from(t.max(1)));
        let shape = match &object.shape {
            Some(shape) if grid != self.grid => Some(shape.rescaled(self.grid, grid)),
            shape => shape.clone(),
        };
        MapObject { cell, shape, ..object.clone() }
    }

    /// The tiles of `layer` in the rectangle with corners `a` and `b` (clipped to the map);
    /// `None` if the rectangle misses the map.
    pub fn copy(map: &Map, layer: usize, a: Cell, b: Cell) -> Option<Stamp> {
        let (min, max) = crate::core::model::geometry::clipped_rect(a, b, map.width(), map.height())?;
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
        let mut stamp = Stamp::new((x1 - x0 + 1) as u32, cells);
        stamp.flips = flips;
        Some(stamp)
    }

    /// The tiles of `layer` in `selection`, over its bounding rectangle; the cells around that
    /// are not selected are empty in the stamp, so it pastes the selection's shape (Tiled's copy
    /// of a selected area). `None` when nothing is selected.
    pub fn copy_selection(
        map: &Map,
        layer: usize,
        selection: &crate::core::edit::selection::Selection,
    ) -> Option<Stamp> {
        let (a, b) = selection.bounds()?;
        let mut stamp = Stamp::copy(map, layer, a, b)?;
        let width = stamp.width as i32;
        for (i, (tile, flip)) in stamp.cells.iter_mut().zip(&mut stamp.flips).enumerate() {
            if !selection.contains(Cell::new(a.x + i as i32 % width, a.y + i as i32 / width)) {
                *tile = crate::core::model::tile::EMPTY;
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
        let mut out = Stamp::new(width, Vec::new());
        out.height = height;
        // A stamp of objects has no tiles to lay out.
        if self.cells.is_empty() {
            return out;
        }
        for y in 0..height {
            for x in 0..width {
                let (fx, fy) = from(x, y);
                let i = (fy * self.width + fx) as usize;
                out.cells.push(self.cells[i]);
                out.flips.push(if self.cells[i] == crate::core::model::tile::EMPTY {
                    Flip::NONE
                } else {
                    turn(self.flips[i])
                });
            }
        }
        out
    }

    /// Mirrored left to right, each tile and object with it (Tiled's X).
    pub fn flipped_horizontally(&self) -> Stamp {
        self.turned(Turn::FlipHorizontally)
    }

    /// Mirrored top to bottom, each tile and object with it (Tiled's Y).
    pub fn flipped_vertically(&self) -> Stamp {
        self.turned(Turn::FlipVertically)
    }

    /// Turned a quarter clockwise, each tile and object with it (Tiled's Z).
    pub fn rotated_clockwise(&self) -> Stamp {
        self.turned(Turn::RotateClockwise)
    }

    /// Turned a quarter counterclockwise, each tile and object with it (Tiled's Shift+Z).
    pub fn rotated_counterclockwise(&self) -> Stamp {
        self.turned(Turn::RotateCounterclockwise)
    }

    /// This stamp turned `turn`'s way: its cells rearranged, each tile flipped with them, and
    /// each object moved and turned ([`ObjectShape::turned`]) to stand where the turn takes it.
    pub fn turned(&self, turn: Turn) -> Stamp {
        let (w, h) = (self.width, self.height);
        let mut out = match turn {
            Turn::FlipHorizontally => self.rearranged(w, h, |x, y| (w - 1 - x, y), Flip::mirrored_horizontally),
            Turn::FlipVertically => self.rearranged(w, h, |x, y| (x, h - 1 - y), Flip::mirrored_vertically),
            // The result's row y is this stamp's column y, read bottom to top.
            Turn::RotateClockwise => self.rearranged(h, w, |x, y| (y, h - 1 - x), Flip::rotated_clockwise),
            Turn::RotateCounterclockwise => {
                self.rearranged(h, w, |x, y| (w - 1 - y, x), Flip::rotated_counterclockwise)
            }
        };
        out.grid = self.grid;
        out.objects = self.objects.iter().map(|o| self.turned_object(o, turn)).collect();
        out
    }

    /// Object `o` of this stamp as [`Stamp::turned`] leaves it. A game object with no shape
    /// goes to the cell its cell goes to, as a tile would. A shape's position moves with the
    /// stamp's pixels (a mirror of them, or a quarter turn about the stamp's middle onto the
    /// turned stamp's middle: on square cells, every cell's middle onto its new cell's); it
    /// then stands on the cell under its centre, as every shape does ([`cell_under`]).
    fn turned_object(&self, o: &StampObject, turn: Turn) -> StampObject {
        let object = &o.object;
        let (w, h) = (self.width as i32, self.height as i32);
        let Some(shape) = &object.shape else {
            let Cell { x, y } = object.cell;
            let back = |side: i32, at: i32| side.saturating_sub(1).saturating_sub(at);
            let cell = match turn {
                Turn::FlipHorizontally => Cell::new(back(w, x), y),
                Turn::FlipVertically => Cell::new(x, back(h, y)),
                Turn::RotateClockwise => Cell::new(back(h, y), x),
                Turn::RotateCounterclockwise => Cell::new(y, back(w, x)),
            };
            return StampObject { object: MapObject { cell, ..object.clone() }, anchor: o.anchor };
        };
        let [tw, th] = self.grid;
        let (width, height) = (f64::from(self.width) * tw, f64::from(self.height) * th);
        let (turned_width, turned_height) = (f64::from(self.height) * tw, f64::from(self.width) * th);
        let [x, y] = [f64::from(object.cell.x) * tw + shape.offset[0], f64::from(object.cell.y) * th + shape.offset[1]];
        let moved = match turn {
            Turn::FlipHorizontally => [width - x, y],
            Turn::FlipVertically => [x, height - y],
            Turn::RotateClockwise => [turned_width / 2.0 - (y - height / 2.0), turned_height / 2.0 + (x - width / 2.0)],
            Turn::RotateCounterclockwise => {
                [turned_width / 2.0 + (y - height / 2.0), turned_height / 2.0 - (x - width / 2.0)]
            }
        };
        let (kind, rotation, slide) = shape.turned(turn, o.anchor);
        let position = [moved[0] + slide[0], moved[1] + slide[1]];
        let cell = cell_under(&kind, position, o.anchor, self.grid);
        let offset = [position[0] - f64::from(cell.x) * tw, position[1] - f64::from(cell.y) * th];
        let shape = Some(ObjectShape { offset, rotation, kind });
        StampObject { object: MapObject { cell, shape, ..object.clone() }, anchor: o.anchor }
    }

    /// The cells the stamp covers with its top-left corner at `at`, and their tiles and flips
    /// (empty ones left out).
    pub fn placed(&self, at: Cell) -> Vec<(Cell, TileId, Flip)> {
        let w = self.width as i32;
        self.cells
            .iter()
            .zip(&self.flips)
            .enumerate()
            .filter(|(_, (t, _))| **t != crate::core::model::tile::EMPTY)
            .map(|(i, (&t, &f))| (Cell::new(at.x + i as i32 % w, at.y + i as i32 / w), t, f))
            .collect()
    }

    /// Pastes onto `layer` with the top-left corner at `at`; cells off the map are dropped, and
    /// so are cells outside `inside` when it is given (painting stays inside a selection).
    /// Returns how many cells changed.
    pub fn paste(
        &self,
        map: &mut Map,
        layer: usize,
        at: Cell,
        inside: Option<&crate::core::edit::selection::Selection>,
    ) -> usize {
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

    /// The empty tile painted with a flipped brush erases: the cell keeps no flip (a Tiled save
    /// could not hold one, and the map read back would differ), and an empty cell painted so
    /// is no change.
    #[test]
    fn the_empty_tile_painted_flipped_leaves_no_flip() {
        let mut map = Map::new_standard(3, 1, 1).unwrap();
        let cells = [Cell::new(0, 0), Cell::new(1, 0)];
        assert_eq!(paint_flipped(&mut map, 0, &cells, 2, Flip::HORIZONTAL), 2);
        assert_eq!(paint_flipped(&mut map, 0, &cells[..1], crate::core::model::tile::EMPTY, Flip::HORIZONTAL), 1);
        assert_eq!(map.flipped_tile(0, cells[0]), Some((crate::core::model::tile::EMPTY, Flip::NONE)));
        assert_eq!(map.flipped_tile(0, cells[1]), Some((2, Flip::HORIZONTAL)));
        assert_eq!(
            paint_flipped(&mut map, 0, &cells[..1], crate::core::model::tile::EMPTY, Flip::VERTICAL),
            0,
            "no change"
        );
    }

    /// A stamp object of `kind` on `cell` of a stamp, with shape `shape` (`None`: a marker).
    fn stamp_object(name: &str, cell: Cell, shape: Option<ObjectShape>, anchor: [f64; 2]) -> StampObject {
        let object = MapObject { name: name.into(), shape, ..MapObject::new(ObjectKind::Other(String::new()), cell) };
        StampObject { object, anchor }
    }

    /// Where a stamp's object is, in the stamp's pixels: a box's four corners, a polygon's or
    /// path's points, a point, a marker's cell middle; in millionths of a pixel, sorted.
    fn footprint(s: &Stamp, o: &StampObject) -> Vec<[i64; 2]> {
        use crate::core::model::object::ShapeKind;
        let [tw, th] = s.grid;
        let cell = [f64::from(o.object.cell.x) * tw, f64::from(o.object.cell.y) * th];
        let mut points = match &o.object.shape {
            None => vec![[cell[0] + tw / 2.0, cell[1] + th / 2.0]],
            Some(shape) => {
                let local: Vec<[f64; 2]> = match (&shape.kind, shape.kind.size()) {
                    (ShapeKind::Polygon(p) | ShapeKind::Polyline(p), _) => p.clone(),
                    (kind, Some([w, h])) => {
                        let [ax, ay] = if matches!(kind, ShapeKind::Tile { .. }) { o.anchor } else { [0.0, 0.0] };
                        let (us, vs) = ([-ax * w, (1.0 - ax) * w], [-ay * h, (1.0 - ay) * h]);
                        us.iter().flat_map(|&u| vs.iter().map(move |&v| [u, v])).collect()
                    }
                    _ => vec![[0.0, 0.0]],
                };
                let origin = [cell[0] + shape.offset[0], cell[1] + shape.offset[1]];
                let turned = local.iter().map(|&p| crate::core::model::object::rotated(p, shape.rotation));
                turned.map(|[u, v]| [origin[0] + u, origin[1] + v]).collect()
            }
        };
        points.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let mut out: Vec<[i64; 2]> = points.iter().map(|p| p.map(|x| (x * 1e6).round() as i64)).collect();
        out.sort();
        out
    }

    #[test]
    fn a_stamps_objects_turn_and_mirror_with_it_each_covering_its_image() {
        use crate::core::model::object::{ObjectText, ShapeKind};
        let shape = |offset: [f64; 2], rotation: f64, kind: ShapeKind| Some(ObjectShape { offset, rotation, kind });
        let tile = ShapeKind::Tile { tile: 1, flip: Flip::NONE, width: 16.0, height: 16.0 };
        let text = ShapeKind::Text { width: 30.0, height: 12.0, text: Box::new(ObjectText::new("Hello")) };
        let mut s = Stamp::new(3, vec![0; 6]);
        s.grid = [16.0, 16.0];
        s.objects = vec![
            stamp_object(
                "zone",
                Cell::new(0, 0),
                shape([2.0, 3.0], 0.0, ShapeKind::Rectangle { width: 20.0, height: 10.0 }),
                [0.0, 0.0],
            ),
            stamp_object(
                "turned",
                Cell::new(2, 1),
                shape([1.0, 1.0], 30.0, ShapeKind::Ellipse { width: 10.0, height: 6.0 }),
                [0.0, 0.0],
            ),
            stamp_object(
                "poly",
                Cell::new(1, 0),
                shape([8.0, 8.0], 0.0, ShapeKind::Polygon(vec![[0.0, 0.0], [12.0, 0.0], [0.0, 9.0]])),
                [0.0, 0.0],
            ),
            stamp_object(
                "path",
                Cell::new(1, 1),
                shape([4.0, 4.0], 45.0, ShapeKind::Polyline(vec![[0.0, 0.0], [5.0, 7.0]])),
                [0.0, 0.0],
            ),
            stamp_object("tile", Cell::new(0, 1), shape([0.0, 16.0], 0.0, tile.clone()), [0.0, 1.0]),
            stamp_object("centred tile", Cell::new(2, 0), shape([8.0, 8.0], 0.0, tile), [0.5, 0.5]),
            stamp_object("text", Cell::new(1, 0), shape([0.0, 2.0], 0.0, text), [0.0, 0.0]),
            stamp_object("point", Cell::new(2, 0), shape([3.0, 5.0], 0.0, ShapeKind::Point), [0.0, 0.0]),
            stamp_object("monster", Cell::new(0, 1), None, [0.0, 0.0]),
        ];
        let (w, h) = (48.0, 32.0);
        // Each turn as a map of the stamp's pixels, written out on their own.
        /// A turn as a map of the stamp's pixels, given the stamp's width and height.
        type PixelMap = fn([f64; 2], f64, f64) -> [f64; 2];
        let turns: [(Turn, PixelMap); 4] = [
            (Turn::FlipHorizontally, |[x, y], w, _| [w - x, y]),
            (Turn::FlipVertically, |[x, y], _, h| [x, h - y]),
            (Turn::RotateClockwise, |[x, y], _, h| [h - y, x]),
            (Turn::RotateCounterclockwise, |[x, y], w, _| [y, w - x]),
        ];
        for (turn, image) in turns {
            let turned = s.turned(turn);
            for (before, after) in s.objects.iter().zip(&turned.objects) {
                let mut expected: Vec<[i64; 2]> = footprint(&s, before)
                    .iter()
                    .map(|p| image(p.map(|x| x as f64 / 1e6), w, h).map(|x| (x * 1e6).round() as i64))
                    .collect();
                expected.sort();
                let found = footprint(&turned, after);
                let near =
                    expected.iter().zip(&found).all(|(a, b)| (a[0] - b[0]).abs() <= 2 && (a[1] - b[1]).abs() <= 2);
                assert!(
                    near && expected.len() == found.len(),
                    "{} {turn:?}: {found:?}, not {expected:?}",
                    before.object.name
                );
                // It stands on the cell under its centre, as a load would put it.
                if let Some(shape) = &after.object.shape {
                    let position = [
                        f64::from(after.object.cell.x) * 16.0 + shape.offset[0],
                        f64::from(after.object.cell.y) * 16.0 + shape.offset[1],
                    ];
                    assert_eq!(cell_under(&shape.kind, position, after.anchor, turned.grid), after.object.cell);
                }
            }
        }
        // A mirror mirrors a tile object's image; a text keeps its letters.
        let mirrored = s.flipped_horizontally();
        let flip_of = |st: &Stamp, name: &str| match st
            .objects
            .iter()
            .find(|o| o.object.name == name)
            .and_then(|o| o.object.shape.clone())
        {
            Some(ObjectShape { kind: ShapeKind::Tile { flip, .. }, .. }) => flip,
            _ => panic!("no tile object {name}"),
        };
        assert_eq!(flip_of(&mirrored, "tile"), Flip::HORIZONTAL);
        assert_eq!(flip_of(&s.flipped_vertically(), "centred tile"), Flip::VERTICAL);
        // Four quarter turns, or two mirrors, bring every object back.
        let back = s.rotated_clockwise().rotated_clockwise().rotated_clockwise().rotated_clockwise();
        let twice = mirrored.flipped_horizontally();
        for other in [back, twice] {
            for (a, b) in s.objects.iter().zip(&other.objects) {
                assert_eq!(a.object.cell, b.object.cell, "{}", a.object.name);
                assert_eq!(footprint(&s, a).len(), footprint(&other, b).len());
                let (fa, fb) = (footprint(&s, a), footprint(&other, b));
                assert!(
                    fa.iter().zip(&fb).all(|(p, q)| (p[0] - q[0]).abs() <= 2 && (p[1] - q[1]).abs() <= 2),
                    "{}",
                    a.object.name
                );
            }
        }
        // A marker goes where a tile on its cell goes.
        let mut marked = Stamp::new(3, vec![0, 0, 0, 1, 0, 0]);
        marked.objects = vec![stamp_object("monster", Cell::new(0, 1), None, [0.0, 0.0])];
        for (turn, _) in turns {
            let t = marked.turned(turn);
            let at = t.cells.iter().position(|&c| c == 1).unwrap() as i32;
            assert_eq!(t.objects[0].object.cell, Cell::new(at % t.width as i32, at / t.width as i32), "{turn:?}");
        }
    }

    /// Copied on 31-pixel cells (Tiled's perspective_walls) and pasted on 16-pixel ones: each
    /// shape is scaled with the cells, covers the same cells, stands on its cell (the one under
    /// its centre, where a save and a load put it), and a marker stays a marker.
    #[test]
    fn objects_pasted_into_a_map_of_other_cells_cover_the_same_cells() {
        use crate::core::model::object::{ObjectText, ShapeKind};
        let shape = |offset: [f64; 2], rotation: f64, kind: ShapeKind| Some(ObjectShape { offset, rotation, kind });
        let mut s = Stamp::new(3, vec![0; 6]);
        s.grid = [31.0, 31.0];
        s.objects = vec![
            stamp_object(
                "zone",
                Cell::new(0, 0),
                shape([0.0, 0.0], 0.0, ShapeKind::Rectangle { width: 46.0, height: 31.0 }),
                [0.0, 0.0],
            ),
            stamp_object("marker", Cell::new(2, 1), shape([15.5, 15.5], 0.0, ShapeKind::Point), [0.0, 0.0]),
            stamp_object("point", Cell::new(1, 0), shape([24.5, 26.25], 0.0, ShapeKind::Point), [0.0, 0.0]),
            stamp_object(
                "path",
                Cell::new(1, 1),
                shape([4.0, 4.0], 45.0, ShapeKind::Polyline(vec![[0.0, 0.0], [40.0, 7.0]])),
                [0.0, 0.0],
            ),
            stamp_object(
                "tile",
                Cell::new(0, 1),
                shape([0.0, 31.0], 0.0, ShapeKind::Tile { tile: 1, flip: Flip::NONE, width: 31.0, height: 31.0 }),
                [0.0, 1.0],
            ),
            stamp_object(
                "text",
                Cell::new(1, 1),
                shape(
                    [2.0, 3.0],
                    0.0,
                    ShapeKind::Text { width: 50.0, height: 20.0, text: Box::new(ObjectText::new("Hi")) },
                ),
                [0.0, 0.0],
            ),
            stamp_object("monster", Cell::new(0, 1), None, [0.0, 0.0]),
        ];
        for o in &s.objects {
            if let Some(shape) = &o.object.shape {
                let position = shape.position(o.object.cell, [31, 31]);
                assert_eq!(cell_under(&shape.kind, position, o.anchor, s.grid), o.object.cell, "{}", o.object.name);
            }
        }
        let mut map = Map::new_standard(8, 4, 1).unwrap();
        map.tile_size = [16, 16];
        let at = Cell::new(3, 1);
        let pasted = s.paste_objects(&mut map, 0, at, None);
        assert_eq!(pasted.ids.len(), s.objects.len());
        let laid = Stamp {
            grid: [16.0, 16.0],
            objects: s
                .objects
                .iter()
                .zip(&pasted.ids)
                .map(|(from, id)| {
                    let o = map.objects.iter().find(|o| o.id == *id).unwrap();
                    let object = MapObject { cell: Cell::new(o.cell.x - at.x, o.cell.y - at.y), ..o.clone() };
                    StampObject { object, anchor: from.anchor }
                })
                .collect(),
            ..s.clone()
        };
        for (from, to) in s.objects.iter().zip(&laid.objects) {
            let name = &from.object.name;
            assert_eq!(to.object.cell, from.object.cell, "{name} stands where it stood in the stamp");
            // In cells, its corners and points are where they were.
            let in_cells = |st: &Stamp, o: &StampObject| -> Vec<[f64; 2]> {
                footprint(st, o)
                    .iter()
                    .map(|p| [p[0] as f64 / 1e6 / st.grid[0], p[1] as f64 / 1e6 / st.grid[1]])
                    .collect()
            };
            let (a, b) = (in_cells(&s, from), in_cells(&laid, to));
            assert!(
                a.len() == b.len()
                    && a.iter().zip(&b).all(|(p, q)| (p[0] - q[0]).abs() < 1e-6 && (p[1] - q[1]).abs() < 1e-6),
                "{name}: {b:?}, not {a:?} (in cells)"
            );
            if let Some(shape) = &to.object.shape {
                let cell = Cell::new(to.object.cell.x + at.x, to.object.cell.y + at.y);
                let position = shape.position(cell, map.tile_size);
                assert_eq!(cell_under(&shape.kind, position, to.anchor, laid.grid), cell, "{name} is on its cell");
            }
        }
        let laid_named =
            |name: &str| laid.objects.iter().find(|o| o.object.name == name).unwrap().object.shape.clone().unwrap();
        assert!(laid_named("marker").is_marker(map.tile_size), "a marker stays a marker");
        assert_eq!(laid_named("point").offset, [24.5 * 16.0 / 31.0, 26.25 * 16.0 / 31.0]);
        match laid_named("text").kind {
            ShapeKind::Text { text, .. } => {
                assert_eq!(text.pixel_size, 8, "the font scaled with the cells (16 × 16/31)")
            }
            kind => panic!("{kind:?}"),
        }
        assert_eq!(laid_named("path").rotation, 45.0);
        // On cells of the same size, nothing is scaled.
        let mut same = Map::new_standard(8, 4, 1).unwrap();
        same.tile_size = [31, 31];
        s.paste_objects(&mut same, 0, at, None);
        for (from, o) in s.objects.iter().zip(&same.objects) {
            assert_eq!(o.shape, from.object.shape, "{}", from.object.name);
        }
    }

    /// The objects of object layer 0, each drawn as its name's first letter on its cell.
    fn objects_picture(map: &Map) -> Vec<String> {
        let mut rows = vec![vec!['.'; map.width() as usize]; map.height() as usize];
        for o in map.objects.iter().filter(|o| o.layer == 0) {
            rows[o.cell.y as usize][o.cell.x as usize] = o.name.chars().next().unwrap_or('?');
        }
        rows.into_iter().map(String::from_iter).collect()
    }

    #[test]
    fn objects_copied_from_a_selection_paste_where_they_stood_in_it_with_their_references() {
        use crate::core::edit::selection::Selection;
        let mut map = Map::new_standard(8, 4, 1).unwrap();
        let add = |map: &mut Map, name: &str, kind: ObjectKind, cell: Cell| {
            map.add_object(MapObject { name: name.into(), ..MapObject::new(kind, cell) }.on_layer(0))
        };
        add(&mut map, "player", ObjectKind::PlayerStart, Cell::new(0, 0));
        add(&mut map, "goblin", ObjectKind::Monster { glyph: 'g', vision_radius: 6 }, Cell::new(1, 1));
        let door = add(&mut map, "door", ObjectKind::Other("gate".into()), Cell::new(1, 2));
        let key = add(&mut map, "key", ObjectKind::Item, Cell::new(2, 2));
        let elsewhere = add(&mut map, "xtra", ObjectKind::Item, Cell::new(4, 0));
        let key_object = map.objects.iter_mut().find(|o| o.id == key).unwrap();
        key_object.properties.insert("opens".into(), PropertyValue::Object(door));
        key_object.properties.insert("far".into(), PropertyValue::Object(elsewhere));
        assert_eq!(objects_picture(&map), ["p...x...", ".g......", ".dk.....", "........"]);

        let selection = Selection::rect(8, 4, Cell::new(0, 0), Cell::new(2, 2));
        let standing = map.objects.iter().filter(|o| selection.contains(o.cell));
        let stamp = Stamp::of_objects(&map, Cell::new(0, 0), Cell::new(2, 2), standing);
        assert_eq!((stamp.width, stamp.height, stamp.objects.len()), (3, 3, 4));
        let pasted = stamp.paste_objects(&mut map, 0, Cell::new(5, 1), None);
        // The player start is left out: the map has one.
        assert_eq!(objects_picture(&map), ["p...x...", ".g......", ".dk...g.", "......dk"]);
        assert!(pasted.player_start_left_out);
        assert_eq!((pasted.ids.len(), pasted.outside), (3, 0));
        let copy = |name: &str| map.objects.iter().find(|o| o.name == name && pasted.ids.contains(&o.id)).unwrap();
        // The key's copy opens the door's copy; what it named outside the copy it still names.
        assert_eq!(copy("key").properties["opens"], PropertyValue::Object(copy("door").id));
        assert_eq!(copy("key").properties["far"], PropertyValue::Object(elsewhere));
        assert!(pasted.ids.iter().all(|&id| id > elsewhere), "new ids");

        // Off the map, or outside the selection given, an object is left out.
        let mut map2 = Map::new_standard(8, 4, 1).unwrap();
        let pasted = stamp.paste_objects(&mut map2, 0, Cell::new(6, 2), None);
        assert_eq!(objects_picture(&map2), ["........", "........", "......p.", ".......g"]);
        assert_eq!((pasted.ids.len(), pasted.outside, pasted.player_start_left_out), (2, 2, false));
        let only = Selection::from_cells(8, 4, [Cell::new(1, 2)]);
        let mut map3 = Map::new_standard(8, 4, 1).unwrap();
        stamp.paste_objects(&mut map3, 0, Cell::new(0, 0), Some(&only));
        assert_eq!(objects_picture(&map3), ["........", "........", ".d......", "........"]);

        // Its text: the grid with the game objects' glyphs, then a line an object.
        let text = stamp.as_text(&map);
        assert_eq!(text.lines().take(3).collect::<Vec<_>>(), ["@  ", " g ", " ?*"]);
        assert!(text.contains("g goblin (monster) on 1, 1\n"), "{text}");
    }
}
