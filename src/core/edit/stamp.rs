//! Stamps: a rectangle of tiles, or the objects standing in it, copied, turned and laid down again.

use crate::core::model::flip::{Flip, Turn};
use crate::core::model::geometry::Cell;
use crate::core::model::map::Map;
use crate::core::model::object::{MapObject, ObjectKind, ObjectShape, cell_under};
use crate::core::model::tile::{PropertyValue, TileId};

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
