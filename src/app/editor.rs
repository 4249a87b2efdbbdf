//! The editing tools and the state of the stroke in progress. Tools turn pointer input into
//! cells (via `core::edit`); the document applies them and keeps undo snapshots.

use crate::core::edit;
use crate::core::edit::selection::{Selection, SelectionMode, TileLook};
use crate::core::edit::tile_transfer::TileSource;
use crate::core::model::flip::Flip;
use crate::core::model::object::{ObjectText, ShapeKind, dragged_box};
use crate::core::{Cell, LayerRef, Map, StackItem, TileId};

/// The painting tools, with Tiled's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Stamp brush (B).
    Brush,
    /// Eraser (E): the empty tile.
    Eraser,
    /// Rectangle (R), filled.
    Rectangle,
    /// Line (L).
    Line,
    /// Bucket fill (F), 4-connected.
    Fill,
    /// Terrain brush (T): paints a terrain of a Tiled Wang set, fitting the tiles around.
    Terrain,
    /// Picker (I): the tile under the cursor becomes the brush's.
    Picker,
    /// Rectangular selection (S): drag to select; Ctrl+C, Ctrl+X, Ctrl+V, Delete.
    Select,
    /// Magic wand (W): a click selects the region of like tiles around the cell on the current
    /// layer; a drag takes in the tiles of every cell it crosses.
    MagicWand,
    /// Select same tile (Shift+S): every cell of the current layer with the clicked cell's tile.
    SameTile,
    /// Object placement (O): click places the chosen object, a drag from an object moves it,
    /// right-click removes objects.
    Object,
    /// Probe (P): clicks go to the overlays (pin the FOV origin, pick a cell's symmetry partners,
    /// toggle a cell for the LOS cache, move the path goal); the map is not painted.
    Probe,
}

impl Tool {
    pub(crate) const ALL: [Tool; 12] = [
        Tool::Brush,
        Tool::Eraser,
        Tool::Rectangle,
        Tool::Line,
        Tool::Fill,
        Tool::Terrain,
        Tool::Picker,
        Tool::Select,
        Tool::MagicWand,
        Tool::SameTile,
        Tool::Object,
        Tool::Probe,
    ];

    pub(crate) fn label(self) -> &'static str {
        match self {
            Tool::Brush => "Brush",
            Tool::Eraser => "Eraser",
            Tool::Rectangle => "Rectangle",
            Tool::Line => "Line",
            Tool::Fill => "Fill",
            Tool::Terrain => "Terrain",
            Tool::Picker => "Picker",
            Tool::Select => "Select",
            Tool::MagicWand => "Magic wand",
            Tool::SameTile => "Same tile",
            Tool::Object => "Object",
            Tool::Probe => "Probe",
        }
    }

    /// The key that chooses the tool, as Tiled's (Select Same Tile takes Shift+S here: S is the
    /// rectangular selection's, as in sightline before).
    pub(crate) fn shortcut(self) -> egui::KeyboardShortcut {
        let shift = if self == Tool::SameTile { egui::Modifiers::SHIFT } else { egui::Modifiers::NONE };
        egui::KeyboardShortcut::new(shift, self.key())
    }

    fn key(self) -> egui::Key {
        match self {
            Tool::Brush => egui::Key::B,
            Tool::Eraser => egui::Key::E,
            Tool::Rectangle => egui::Key::R,
            Tool::Line => egui::Key::L,
            Tool::Fill => egui::Key::F,
            Tool::Terrain => egui::Key::T,
            Tool::Picker => egui::Key::I,
            Tool::Select | Tool::SameTile => egui::Key::S,
            Tool::MagicWand => egui::Key::W,
            Tool::Object => egui::Key::O,
            Tool::Probe => egui::Key::P,
        }
    }

    /// The tool makes a selection (rectangle, magic wand, same tile).
    pub(crate) fn selects(self) -> bool {
        matches!(self, Tool::Select | Tool::MagicWand | Tool::SameTile)
    }
}

/// What the tools need to know between frames.
#[derive(Clone, Debug)]
pub struct EditorState {
    pub tool: Tool,
    /// The brush's tile.
    pub tile: TileId,
    /// How the brush's tile is flipped or turned (X, Y, Z; the picker takes a cell's).
    pub flip: Flip,
    /// The tile layer the tile tools paint on.
    pub layer: usize,
    /// The current layer is this object layer rather than tile layer `layer` (as in Tiled, the
    /// tile tools then paint nothing; the object tool places objects on it).
    pub object_layer: Option<usize>,
    /// The current item is this group rather than a layer (as in Tiled, the tools then change
    /// nothing; the layers panel edits the group). The two fields above keep the layer the
    /// tools go back to.
    pub(crate) group: Option<usize>,
    /// The stroke in progress: where it started and the last cell it reached.
    pub(crate) stroke: Option<(Cell, Cell)>,
    /// Width of the brush, eraser and line stamp, in cells.
    pub(crate) brush_size: u32,
    /// The rectangle tool fills (or draws the outline).
    pub(crate) rect_filled: bool,
    /// The bucket fill spreads diagonally too.
    pub(crate) fill_eight: bool,
    /// The fill in progress fills the whole selection, or the whole layer when there is none
    /// (Shift held as it began: Tiled's Fill Selection).
    pub(crate) fill_selection: bool,
    /// Groups folded in the Layers panel (what they hold is not listed), by their path of
    /// names ("forest/canopy"), so that the fold survives edits that renumber the groups.
    pub(crate) folded_groups: std::collections::BTreeSet<String>,
    /// The selected cells, never empty (no selection is `None`). While one exists the tools
    /// paint only inside it.
    pub selection: Option<Selection>,
    /// Where the last selection gesture began: the inspector edits this cell while it is
    /// selected and the pointer is off the canvas.
    pub(crate) selection_origin: Option<Cell>,
    /// How the selection tools combine their pick with the selection (the tools bar's choice).
    pub(crate) selection_mode: SelectionMode,
    /// The mode the keys held when the drag in progress began ask for (Shift adds, Ctrl
    /// subtracts, both intersect), over `selection_mode`.
    pub(crate) held_selection_mode: Option<SelectionMode>,
    /// The selection drag in progress.
    pub(crate) selection_drag: Option<SelectionDrag>,
    /// What Ctrl+C or Ctrl+X took.
    pub clipboard: Option<edit::Stamp>,
    /// Where the clipboard's stamp was copied from (its top-left cell), for Paste in place;
    /// `None` for a stamp picked in a tileset.
    pub clipboard_origin: Option<Cell>,
    /// The tile types of the map the clipboard was copied from, as they were then: a paste in
    /// another map brings over those it lacks, and a paste here those an undo took away since.
    pub(crate) clipboard_from: Option<std::sync::Arc<TileSource>>,
    /// Another map has been opened since the copy.
    pub clipboard_elsewhere: bool,
    /// Ctrl+V (or a drag over a tileset): the clipboard follows the pointer, and clicks and
    /// drags lay it down, until Esc (X, Y flip, Z turns).
    pub pasting: bool,
    /// The copies of the stamp the drag in progress has laid (Shift: along a line, at release).
    pub(crate) stamp_stroke: Option<edit::StampStroke>,
    /// What the object tool places.
    pub(crate) object: ObjectChoice,
    /// The object the object tool's drag is moving: its id, and its cell when the drag began
    /// (it moves as far as the pointer has from the stroke's start).
    pub moving_object: Option<(u32, Cell)>,
    /// When the object moved is one of those standing on the selected cells of its layer, the
    /// others, each with its cell when the drag began, and the selection as it was then: they
    /// all move with it, the selection too.
    pub(crate) moving_along: Vec<(u32, Cell)>,
    pub(crate) moving_selection: Option<Selection>,
    /// Where (map pixels) and how loosely (pixels) the object tool's press in progress picks a
    /// zone, path or text to move, besides the objects on the pressed cell.
    pub(crate) grab: Option<([f64; 2], f64)>,
    /// The reshape the object tool's drag of a grip (a handle, a polygon's point) is making.
    pub(crate) resizing: Option<Resize>,
    /// The shape being drawn (a drag in progress, or a polygon's points so far).
    pub shape_draft: Option<ShapeDraft>,
    /// How drawn shapes snap (the tools bar's choice; Ctrl and Ctrl+Shift toggle it while held).
    pub(crate) snap: crate::core::model::geometry::Snap,
    /// The object last drawn, placed or moved with the object tool, by id: with the pointer off
    /// the canvas, the inspector edits it (Tiled selects a new object).
    pub focused_object: Option<u32>,
    pub(crate) monster_glyph: char,
    pub(crate) monster_vision: u32,
    pub(crate) light_radius: u32,
    /// The brush stroke in progress is a straight line (Shift held when it began, as in Tiled).
    pub line_stroke: bool,
    /// The brush paints a random tile of this set (when `random` is on).
    pub(crate) random: bool,
    pub(crate) random_brush: edit::RandomBrush,
    /// Seeded, so a stroke can be replayed in tests.
    pub(crate) rng: crate::core::rng::Rng,
    /// The terrain the terrain brush paints (chosen in the Terrains panel).
    pub(crate) terrain: Option<crate::core::edit::terrain::TerrainBrush>,
    /// The bucket fill lays `terrain` (Tiled's terrain fill mode).
    pub(crate) fill_terrain: bool,
    /// The terrain brush paints whole tiles at size 1 too; off, size 1 paints the corner or
    /// edge nearest the pointer, as Tiled's terrain brush does.
    pub(crate) terrain_whole_tiles: bool,
    /// The corner or edge nearest the pointer, for the terrain brush.
    pub terrain_spot: Option<crate::core::edit::terrain::Part>,
    /// The last corner or edge the terrain stroke in progress painted (painted once per visit).
    pub(crate) terrain_spot_painted: Option<crate::core::edit::terrain::Part>,
}

/// A selection drag in progress: what was selected when it began, how its pick combines with
/// that, and (for the magic wand and same tile) the tiles of the cells it has crossed.
#[derive(Clone, Debug)]
pub struct SelectionDrag {
    pub(crate) before: Option<Selection>,
    pub(crate) mode: SelectionMode,
    pub(crate) like: Vec<TileLook>,
    /// The drag's last pick. A magic wand or same tile drag keeps it while the pointer crosses
    /// no new tile (and, for the wand, stays inside it): it would be the same cells again, and
    /// same tile reads the whole layer.
    pick: Option<Selection>,
}

impl SelectionDrag {
    pub(crate) fn new(before: Option<Selection>, mode: SelectionMode) -> Self {
        Self { before, mode, like: Vec::new(), pick: None }
    }

    /// The selection with the drag's pick from `start` to `end` on `layer` combined in.
    pub(crate) fn selection(
        &mut self,
        tool: Tool,
        map: &Map,
        layer: usize,
        start: Cell,
        end: Cell,
    ) -> Option<Selection> {
        let mut crossed_new_tile = false;
        if let Some(look) = map.flipped_tile(layer, end).filter(|t| !self.like.contains(t)) {
            self.like.push(look);
            crossed_new_tile = true;
        }
        let (w, h) = (map.width(), map.height());
        let kept = tool != Tool::Select
            && !crossed_new_tile
            && self.pick.as_ref().is_some_and(|p| tool == Tool::SameTile || p.contains(end));
        if !kept {
            self.pick = None;
        }
        let like = &self.like;
        let pick = self.pick.get_or_insert_with(|| match tool {
            Tool::MagicWand => Selection::contiguous(map, layer, end, like),
            Tool::SameTile => Selection::same_tile(map, layer, like),
            _ => Selection::rect(w, h, start, end),
        });
        let before = self.before.as_ref().map_or_else(|| Selection::empty(w, h), |s| s.sized(w, h));
        Some(before.combined(self.mode, pick)).filter(|s| !s.is_empty())
    }
}

/// The objects the object tool places: the game's own, on a cell, and Tiled's shapes, drawn
/// (zones, paths, points, text; an empty name and class, as Tiled's insert tools make them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectChoice {
    PlayerStart,
    Monster,
    Item,
    Light,
    /// A closed door tile, painted on the current layer.
    Door,
    /// Tiled's Insert Rectangle: a drag draws it, a click covers the cell.
    Rectangle,
    /// Tiled's Insert Ellipse.
    Ellipse,
    /// Tiled's Insert Capsule.
    Capsule,
    /// Tiled's Insert Point: where a click (or a drag's release) is.
    Point,
    /// Tiled's Insert Polygon: clicks lay its points; a click on the first point closes it as
    /// a polygon, Enter or a right-click ends it as a path (a polyline).
    Polygon,
    /// Tiled's Insert Text: "Hello World" at its size where a click is, or filling a dragged box.
    Text,
    /// Tiled's Insert Tile: the brush's tile (flipped as it is) as a tile object at its
    /// image's size, centred where a click is.
    TileObject,
}

impl ObjectChoice {
    pub const ALL: [ObjectChoice; 12] = [
        ObjectChoice::PlayerStart,
        ObjectChoice::Monster,
        ObjectChoice::Item,
        ObjectChoice::Light,
        ObjectChoice::Door,
        ObjectChoice::Rectangle,
        ObjectChoice::Ellipse,
        ObjectChoice::Capsule,
        ObjectChoice::Point,
        ObjectChoice::Polygon,
        ObjectChoice::Text,
        ObjectChoice::TileObject,
    ];

    pub(crate) fn label(self) -> &'static str {
        match self {
            ObjectChoice::PlayerStart => "player start",
            ObjectChoice::Monster => "monster",
            ObjectChoice::Item => "item",
            ObjectChoice::Light => "light",
            ObjectChoice::Door => "door",
            ObjectChoice::Rectangle => "rectangle",
            ObjectChoice::Ellipse => "ellipse",
            ObjectChoice::Capsule => "capsule",
            ObjectChoice::Point => "point",
            ObjectChoice::Polygon => "polygon or path",
            ObjectChoice::Text => "text",
            ObjectChoice::TileObject => "tile",
        }
    }

    /// It is a Tiled shape drawn in map pixels, not a game object placed on a cell.
    pub(crate) fn draws_shape(self) -> bool {
        !matches!(
            self,
            ObjectChoice::PlayerStart
                | ObjectChoice::Monster
                | ObjectChoice::Item
                | ObjectChoice::Light
                | ObjectChoice::Door
        )
    }
}

/// The object in hand being reshaped by one of its grips (Tiled's Select Objects and Edit
/// Polygons), from the drag of that grip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resize {
    pub(crate) id: u32,
    pub(crate) grip: Grip,
}

/// What a grip of the object in hand changes, as it was when its drag began (map pixels, the
/// layer's offset left out).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Grip {
    /// One of a box's eight handles, each coordinate −1, 0 or 1 (see
    /// [`crate::core::model::object::resized_box`]), and the box.
    Box { handle: [i8; 2], top_left: [f64; 2], size: [f64; 2] },
    /// Point `index` of a polygon or path, and the shape's origin (Tiled's `x`, `y`), which
    /// stays: the point moves alone.
    Point { index: usize, origin: [f64; 2] },
    /// The middle of the segment from point `after` to the next (a polygon's last to its
    /// first): a drag of it lays a new point there and moves it.
    Midpoint { after: usize, origin: [f64; 2] },
}

/// The text Tiled's Insert Text gives a new text object.
pub const DEFAULT_OBJECT_TEXT: &str = "Hello World";

impl ShapeDraft {
    /// The shape it makes as `choice`, and where (map pixels: a box's top-left corner, a
    /// point's or polygon's origin): a drag's box, or its end for a point; clicked points as a
    /// polygon when `closed` (three at least), else as a path (two at least; fewer make
    /// nothing, as in Tiled). The error says why nothing is made.
    pub(crate) fn shape(&self, choice: ObjectChoice, closed: bool) -> Result<(ShapeKind, [f64; 2]), &'static str> {
        match self {
            ShapeDraft::Box { end, .. } if choice == ObjectChoice::Point => Ok((ShapeKind::Point, *end)),
            ShapeDraft::Box { start, end, square } => {
                let (top_left, [width, height]) = dragged_box(*start, *end, *square);
                if width == 0.0 || height == 0.0 {
                    // A box of no area could be neither seen nor picked (Tiled keeps it).
                    return Err("nothing drawn: drag across at least one snapping step");
                }
                let kind = match choice {
                    ObjectChoice::Ellipse => ShapeKind::Ellipse { width, height },
                    ObjectChoice::Capsule => ShapeKind::Capsule { width, height },
                    // A dragged box: its text wraps at the box's width.
                    ObjectChoice::Text => ShapeKind::Text {
                        width,
                        height,
                        text: Box::new(ObjectText { wrap: true, ..ObjectText::new(DEFAULT_OBJECT_TEXT) }),
                    },
                    _ => ShapeKind::Rectangle { width, height },
                };
                Ok((kind, top_left))
            }
            ShapeDraft::Points { points, .. } => {
                let &first = points.first().ok_or("nothing drawn")?;
                let relative = points.iter().map(|p| [p[0] - first[0], p[1] - first[1]]).collect();
                match points.len() {
                    n if closed && n >= 3 => Ok((ShapeKind::Polygon(relative), first)),
                    n if n >= 2 => Ok((ShapeKind::Polyline(relative), first)),
                    _ => Err("nothing drawn: a path needs two points, a polygon three"),
                }
            }
        }
    }
}

/// A shape the object tool is drawing, in map pixels (snapped), before it becomes an object.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeDraft {
    /// A box (or a point) being dragged: where the drag began and where the pointer is; with
    /// `square`, a square or a circle (Shift held).
    Box { start: [f64; 2], end: [f64; 2], square: bool },
    /// A polygon or path being clicked out: its points so far, and where the pointer is (the
    /// rubber band's end); `extends`: the path in hand it goes on from, when it does.
    Points { points: Vec<[f64; 2]>, pointer: [f64; 2], extends: Option<PathEnd> },
}

/// The end of a path that a click of the polygon tool goes on from (Tiled's extending of a
/// polyline): the path's id, and whether it is its first point (the draft then holds the
/// path's points in reverse, the new ones going before its first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathEnd {
    pub(crate) id: u32,
    pub(crate) from_start: bool,
}

impl Default for EditorState {
    fn default() -> Self {
        Self {
            tool: Tool::Brush,
            tile: crate::core::model::tile::STANDARD_WALL,
            flip: Flip::NONE,
            layer: 0,
            object_layer: None,
            group: None,
            stroke: None,
            brush_size: 1,
            rect_filled: true,
            fill_eight: false,
            fill_selection: false,
            folded_groups: std::collections::BTreeSet::new(),
            selection: None,
            selection_origin: None,
            selection_mode: SelectionMode::Replace,
            held_selection_mode: None,
            selection_drag: None,
            clipboard: None,
            clipboard_origin: None,
            clipboard_from: None,
            clipboard_elsewhere: false,
            pasting: false,
            stamp_stroke: None,
            object: ObjectChoice::Monster,
            moving_object: None,
            moving_along: Vec::new(),
            moving_selection: None,
            grab: None,
            resizing: None,
            shape_draft: None,
            snap: crate::core::model::geometry::Snap::default(),
            focused_object: None,
            monster_glyph: 'g',
            monster_vision: crate::core::model::object::DEFAULT_VISION_RADIUS,
            light_radius: 6,
            line_stroke: false,
            random: false,
            random_brush: edit::RandomBrush::default(),
            rng: crate::core::rng::Rng::new(1),
            terrain: None,
            fill_terrain: false,
            terrain_whole_tiles: false,
            terrain_spot: None,
            terrain_spot_painted: None,
        }
    }
}

/// The editor's layers and group by what they are called rather than by index: an undo or a
/// redo brings back a whole earlier map, whose layers may be numbered otherwise (undoing a
/// move, an addition or a removal), and the current layer must stay the one the user was on
/// wherever it still is, or a stroke lands on another layer. Each is its name and how many of
/// its kind before it have the same name, so that layers called alike are told apart too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CurrentByName {
    tile_layer: Option<(String, usize)>,
    object_layer: Option<(String, usize)>,
    group: Option<(String, usize)>,
}

impl CurrentByName {
    pub(crate) fn of(editor: &EditorState, map: &Map) -> Self {
        Self {
            tile_layer: name_key(map.layers.iter().map(|l| l.name.as_str()), editor.layer),
            object_layer: editor
                .object_layer
                .and_then(|j| name_key(map.object_layers.iter().map(|l| l.name.as_str()), j)),
            group: editor.group.and_then(|g| name_key(map.groups.iter().map(|g| g.name.as_str()), g)),
        }
    }

    /// Points `editor` at the same layers and group in `map`, where they are there. A tile or
    /// object layer not found keeps its index (the caller clamps it); a group not found is no
    /// longer current, its layer is.
    pub(crate) fn restore(&self, editor: &mut EditorState, map: &Map) {
        if let Some(i) =
            self.tile_layer.as_ref().and_then(|key| find_key(map.layers.iter().map(|l| l.name.as_str()), key))
        {
            editor.layer = i;
        }
        if let Some(j) =
            self.object_layer.as_ref().and_then(|key| find_key(map.object_layers.iter().map(|l| l.name.as_str()), key))
        {
            editor.object_layer = Some(j);
        }
        if editor.group.is_some() {
            editor.group =
                self.group.as_ref().and_then(|key| find_key(map.groups.iter().map(|g| g.name.as_str()), key));
        }
    }
}

fn name_key<'a>(names: impl Iterator<Item = &'a str>, index: usize) -> Option<(String, usize)> {
    let names: Vec<&str> = names.collect();
    let name = *names.get(index)?;
    Some((name.to_owned(), names[..index].iter().filter(|&&n| n == name).count()))
}

fn find_key<'a>(mut names: impl Iterator<Item = &'a str>, (name, nth): &(String, usize)) -> Option<usize> {
    names.by_ref().enumerate().filter(|(_, n)| n == name).nth(*nth).map(|(i, _)| i)
}

impl EditorState {
    /// The object tool's move ends: later pointer moves move nothing.
    pub(crate) fn end_move(&mut self) {
        self.moving_object = None;
        self.moving_along.clear();
        self.moving_selection = None;
    }

    /// Puts `stamp`, taken from this map, whose tile types are `from`, on the clipboard
    /// (`origin`: where it was copied from, for Paste in place).
    pub(crate) fn hold(&mut self, stamp: Option<edit::Stamp>, origin: Option<Cell>, from: std::sync::Arc<TileSource>) {
        self.clipboard = stamp;
        self.clipboard_origin = origin;
        self.clipboard_from = Some(from);
        self.clipboard_elsewhere = false;
    }

    /// The current layer (the Layers panel's highlighted one).
    pub(crate) fn current_layer(&self) -> LayerRef {
        match self.object_layer {
            Some(j) => LayerRef::Objects(j),
            None => LayerRef::Tiles(self.layer),
        }
    }

    /// The current item: a group, when one is selected, else the current layer.
    pub fn current_item(&self) -> StackItem {
        match self.group {
            Some(g) => StackItem::Group(g),
            None => StackItem::Layer(self.current_layer()),
        }
    }

    /// Makes `item` the current layer or group.
    pub(crate) fn set_current_item(&mut self, item: StackItem) {
        match item {
            StackItem::Layer(layer) => self.set_current_layer(layer),
            StackItem::Group(g) => self.group = Some(g),
        }
    }

    /// Makes `layer` the current layer.
    pub(crate) fn set_current_layer(&mut self, layer: LayerRef) {
        self.group = None;
        match layer {
            LayerRef::Tiles(i) => {
                self.layer = i;
                self.object_layer = None;
            }
            LayerRef::Objects(j) => self.object_layer = Some(j),
        }
    }

    /// Whether the tool paints tiles (and so needs a tile layer).
    pub(crate) fn paints_tiles(&self) -> bool {
        !matches!(self.tool, Tool::Picker | Tool::Object | Tool::Probe) && !self.tool.selects()
    }
    /// The cells the stroke from `start` to `end` covers with the current tool (for drawing the
    /// preview and for applying it).
    pub(crate) fn shape(&self, map: &Map, start: Cell, end: Cell) -> Vec<Cell> {
        match self.tool {
            Tool::Rectangle => edit::rect_cells(start, end, self.rect_filled),
            Tool::Line => edit::stamp_along(&edit::line_cells(start, end), self.brush_size),
            Tool::Brush if self.line_stroke => edit::stamp_along(&edit::line_cells(start, end), self.brush_size),
            Tool::Fill => self.fill_region(map, end, self.fill_selection),
            Tool::Brush | Tool::Eraser | Tool::Terrain => edit::square_around(end, self.brush_size),
            Tool::Picker => vec![end],
            Tool::Probe | Tool::Select | Tool::MagicWand | Tool::SameTile | Tool::Object => Vec::new(),
        }
    }

    /// The cells a fill from `at` reaches: the region of its tile (inside the selection, if
    /// any), or with `whole_selection` (Shift) the whole selection it is in, or the whole layer
    /// when nothing is selected (Tiled's Fill Selection).
    pub(crate) fn fill_region(&self, map: &Map, at: Cell, whole_selection: bool) -> Vec<Cell> {
        if !map.in_bounds(at) {
            return Vec::new();
        }
        match &self.selection {
            Some(s) if whole_selection => {
                if s.contains(at) {
                    s.cells().collect()
                } else {
                    Vec::new()
                }
            }
            None if whole_selection => {
                edit::rect_cells(Cell::new(0, 0), Cell::new(map.width() as i32 - 1, map.height() as i32 - 1), true)
            }
            _ => edit::fill_cells(map, self.layer, at, self.fill_eight)
                .into_iter()
                .filter(|&c| self.paints_at(c))
                .collect(),
        }
    }

    /// Whether painting may change `cell`: while a selection exists, only its cells (Tiled's
    /// `TilePainter::paintableRegion`).
    pub(crate) fn paints_at(&self, cell: Cell) -> bool {
        self.selection.as_ref().is_none_or(|s| s.contains(cell))
    }

    /// Whether the tool paints its shape when the stroke ends (rectangle, line, Shift+brush)
    /// rather than as the pointer moves.
    pub(crate) fn paints_at_end(&self) -> bool {
        matches!(self.tool, Tool::Rectangle | Tool::Line) || (self.tool == Tool::Brush && self.line_stroke)
    }

    /// The tool lays the chosen terrain: the terrain brush, or the fill in terrain mode.
    pub(crate) fn paints_terrain(&self) -> bool {
        self.tool == Tool::Terrain || (self.tool == Tool::Fill && self.fill_terrain && self.terrain.is_some())
    }

    /// The corner or edge the terrain brush paints instead of cells: at size 1, unless whole
    /// tiles are asked for, the one nearest the pointer.
    pub(crate) fn terrain_part(&self) -> Option<crate::core::edit::terrain::Part> {
        self.paints_terrain_parts().then_some(self.terrain_spot).flatten()
    }

    /// The terrain brush paints corners and edges, not tiles (size 1, whole tiles off).
    pub(crate) fn paints_terrain_parts(&self) -> bool {
        self.tool == Tool::Terrain && self.brush_size == 1 && !self.terrain_whole_tiles
    }

    /// The tool paints tiles drawn from the random brush's set.
    pub(crate) fn paints_random(&self) -> bool {
        self.random && self.tool != Tool::Eraser && !self.random_brush.tiles.is_empty()
    }

    /// The tile the tool paints, and how it is flipped.
    pub(crate) fn paint_tile(&self) -> (TileId, Flip) {
        if self.tool == Tool::Eraser { (0, Flip::NONE) } else { (self.tile, self.flip) }
    }
}
