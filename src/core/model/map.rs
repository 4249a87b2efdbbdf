//! The map model: a W×H grid of tile ids on one or more tile layers, the tile table, image
//! tilesets, and object layers between the tile layers. Flat arrays, so a map compares and copies
//! as whole slices (the undo history keeps what an edit changed: [`MapDiff`]).

use serde::{Deserialize, Serialize};

use crate::core::model::error::{MapError, MapErrorKind};
use crate::core::model::flip::{Flip, Flips};
use crate::core::model::geometry::Cell;
use crate::core::model::object::{MapObject, ObjectShape, ShapeKind};
use crate::core::model::serde_defaults::{is_no, is_one, is_yes, one, yes};
use crate::core::model::sheet::SpriteSheet;
use crate::core::model::tile::{self, Properties, Rgba, TileId, TileKind};

use crate::core::model::limits::{Limit, MAX_TILES};

// A child module, to read the map's private fields when it takes a diff.
#[path = "diff.rs"]
mod diff;
pub use crate::core::model::limits::{MAX_LAYER_CELLS, MAX_MAP_SIDE};
pub use diff::MapDiff;

/// A tile layer. `cells[y * width + x]` is a [`TileId`]; `0` is empty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Layer {
    pub name: String,
    pub visible: bool,
    pub locked: bool,
    /// A collision layer: every non-empty cell on it blocks sight and movement, whatever its tile
    /// says (how many Tiled maps mark walls: a layer named "walls" or "collision").
    pub collision: bool,
    /// How opaque the layer is drawn, 0 to 1 (Tiled's layer opacity; 1 unless a file says less).
    /// Drawing only: the game rules read the layer whole.
    pub opacity: f32,
    /// The layer's custom properties (Tiled's), kept so that a map round-trips. `collision` is
    /// not among them: it is the flag above.
    pub properties: Properties,
    pub cells: Vec<TileId>,
    /// How each cell's tile is flipped or turned (Tiled's flip flags); empty when none is.
    #[serde(default)]
    pub flips: Flips,
    /// Where the layer is drawn, in map pixels from where its cells are (Tiled's layer offset).
    /// Drawing only, like the two below.
    #[serde(default)]
    pub offset: [f64; 2],
    /// How fast the layer scrolls against the view, 1 the map's pace (Tiled's parallax factor;
    /// kept for Tiled, not applied in the editor's view).
    #[serde(default = "unit_parallax")]
    pub parallax: [f64; 2],
    /// A colour the layer's tile images are multiplied by (Tiled's tint colour).
    #[serde(default)]
    pub tint: Option<Rgba>,
    /// Tiled's class of the layer (its custom type), kept for the game that reads it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub class: String,
}

fn unit_parallax() -> [f64; 2] {
    [1.0, 1.0]
}

impl Layer {
    /// About how many bytes its cells hold (the undo history's memory bound counts them).
    pub fn approx_bytes(&self) -> usize {
        self.cells.len() * std::mem::size_of::<TileId>() + self.flips.bytes()
    }

    pub fn filled(name: &str, len: usize, tile: TileId) -> Self {
        Self::with_cells(name, vec![tile; len])
    }

    /// A visible, unlocked, non-collision layer holding `cells`.
    pub fn with_cells(name: &str, cells: Vec<TileId>) -> Self {
        Self {
            name: name.to_owned(),
            visible: true,
            locked: false,
            collision: false,
            opacity: 1.0,
            properties: Properties::new(),
            cells,
            flips: Flips::default(),
            offset: [0.0, 0.0],
            parallax: unit_parallax(),
            tint: None,
            class: String::new(),
        }
    }

    /// How the tile at cell index `i` is flipped.
    pub fn flip(&self, i: usize) -> Flip {
        self.flips.get(i)
    }

    /// Puts `tile` at cell index `i`, flipped by `flip`. An empty cell is never flipped: there
    /// is nothing to turn, and a Tiled file cannot keep a flip without a tile.
    pub fn set(&mut self, i: usize, tile: TileId, flip: Flip) {
        self.cells[i] = tile;
        self.flips.set(i, if tile == tile::EMPTY { Flip::NONE } else { flip }, self.cells.len());
    }
}

/// An object layer (Tiled's object group): a named set of the map's objects, drawn among the tile
/// layers. The objects themselves are in [`Map::objects`], each naming its layer. As with tile
/// layers, the game rules read every object, whatever layer it is on and whether that is shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObjectLayer {
    pub name: String,
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub visible: bool,
    /// The tools neither place, move nor remove its objects.
    #[serde(default, skip_serializing_if = "is_no")]
    pub locked: bool,
    /// How opaque its objects are drawn, 0 to 1 (drawing only).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub opacity: f32,
    /// Tiled's object layer colour: its shapes are drawn in it. `None`: each object in its kind's
    /// colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Rgba>,
    /// A colour its tile objects' images are multiplied by (Tiled's tint colour; its shapes keep
    /// their colour, as in Tiled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tint: Option<Rgba>,
    /// Where its shapes and tile objects are drawn, in map pixels from where the objects are
    /// (Tiled's layer offset). The game's objects stay on their cells.
    #[serde(default, skip_serializing_if = "is_no_offset")]
    pub offset: [f64; 2],
    /// Tiled's parallax factor, kept for Tiled (the editor's view does not scroll it).
    #[serde(default = "unit_parallax", skip_serializing_if = "is_unit_parallax")]
    pub parallax: [f64; 2],
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
    /// Tiled's class of the layer (its custom type), kept for the game that reads it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub class: String,
    /// The order its objects are drawn in (Tiled's Drawing Order).
    #[serde(default, skip_serializing_if = "DrawOrder::is_top_down")]
    pub draw_order: DrawOrder,
    /// Where it is drawn: over this many tile layers (the bottom ones) and under the rest.
    pub tile_layers_below: usize,
}

/// The order an object layer's objects are drawn in (Tiled's `draworder`), which decides which
/// of two overlapping objects is on top.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum DrawOrder {
    /// By their `y` in map pixels, lower on the map drawn later (Tiled's Top Down, its default);
    /// objects at the same `y` in the layer's order.
    #[default]
    TopDown,
    /// In the layer's order, first drawn first (Tiled's Manual).
    Index,
}

impl DrawOrder {
    pub fn is_top_down(&self) -> bool {
        *self == DrawOrder::TopDown
    }

    /// As a Tiled file writes it.
    pub fn name(self) -> &'static str {
        match self {
            DrawOrder::TopDown => "topdown",
            DrawOrder::Index => "index",
        }
    }

    /// As Tiled's layer properties name it.
    pub fn label(self) -> &'static str {
        match self {
            DrawOrder::TopDown => "Top Down",
            DrawOrder::Index => "Manual",
        }
    }
}

/// The name of the object layer a map gets when an object is placed and it has none.
pub const DEFAULT_OBJECT_LAYER: &str = "objects";

impl ObjectLayer {
    /// A visible, unlocked object layer over `tile_layers_below` tile layers.
    pub fn new(name: &str, tile_layers_below: usize) -> Self {
        Self {
            name: name.to_owned(),
            visible: true,
            locked: false,
            opacity: 1.0,
            color: None,
            tint: None,
            offset: [0.0, 0.0],
            parallax: unit_parallax(),
            properties: Properties::new(),
            class: String::new(),
            draw_order: DrawOrder::TopDown,
            tile_layers_below,
        }
    }
}

/// A layer group (Tiled's group layer): neighbouring layers of the stack, and groups, that are
/// shown, locked, faded, tinted and moved as one. A layer's look is its own composed with its
/// groups' ([`Map::look`]): hidden or locked if any of them is, opacity and tint multiplied,
/// offsets added, parallax factors multiplied, as Tiled composes them. Drawing and editing only:
/// the game rules read every layer, grouped or not.
///
/// Groups hold no layers themselves: a group is a span of the stack, so that every place that
/// knows layers by their place in the stack goes on working. [`Map::groups`] lists them in
/// outline order (a group before the groups in it, and groups side by side bottom first), each
/// naming the group it is in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerGroup {
    pub name: String,
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub visible: bool,
    #[serde(default, skip_serializing_if = "is_no")]
    pub locked: bool,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub opacity: f32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tint: Option<Rgba>,
    #[serde(default, skip_serializing_if = "is_no_offset")]
    pub offset: [f64; 2],
    #[serde(default = "unit_parallax", skip_serializing_if = "is_unit_parallax")]
    pub parallax: [f64; 2],
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
    /// Tiled's class of the group (its custom type), kept for the game that reads it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub class: String,
    /// The group it is in, an earlier one in [`Map::groups`]; `None` at the top.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<usize>,
    /// The layers in it, its groups' too: places `start..end` of [`Map::stack`] (an empty group
    /// has `start == end`, and sits between the layers either side of that place).
    pub start: usize,
    pub end: usize,
}

fn is_no_offset(offset: &[f64; 2]) -> bool {
    *offset == [0.0, 0.0]
}

fn is_unit_parallax(parallax: &[f64; 2]) -> bool {
    *parallax == [1.0, 1.0]
}

impl LayerGroup {
    /// A visible, unlocked, empty group at place `at` of the stack, in `parent`.
    pub fn new(name: &str, parent: Option<usize>, at: usize) -> Self {
        Self {
            name: name.to_owned(),
            visible: true,
            locked: false,
            opacity: 1.0,
            tint: None,
            offset: [0.0, 0.0],
            parallax: unit_parallax(),
            properties: Properties::new(),
            class: String::new(),
            parent,
            start: at,
            end: at,
        }
    }
}

/// One entry of the layers' outline, bottom to top: a group's start, its end, or a layer (by its
/// place in the stack). See [`outline`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutlineItem {
    Open(usize),
    Close(usize),
    Layer(usize),
}

/// A layer or a group: what the Layers panel lists, selects and moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StackItem {
    Layer(LayerRef),
    Group(usize),
}

/// The outline of a stack of `stack_len` layers and its `groups` (as [`Map::groups`] keeps them),
/// bottom to top: each group's layers and groups between its `Open` and its `Close`.
pub fn outline(stack_len: usize, groups: &[LayerGroup]) -> Vec<OutlineItem> {
    // Each group's groups, in order (slot 0 the top level's, slot g + 1 group g's); walked
    // without recursion, so that a file's deep nesting cannot exhaust the stack.
    let mut children = vec![Vec::new(); groups.len() + 1];
    for (g, group) in groups.iter().enumerate() {
        children[group.parent.map_or(0, |p| p + 1)].push(g);
    }
    let mut out = Vec::with_capacity(stack_len + 2 * groups.len());
    // (slot, its next child, the next place to list, where the slot's span ends)
    let mut open = vec![(0, 0, 0, stack_len)];
    while let Some(frame) = open.last_mut() {
        let (slot, k, at, to) = *frame;
        match children[slot].get(k) {
            Some(&g) => {
                let group = &groups[g];
                out.extend((at..group.start).map(OutlineItem::Layer));
                frame.1 += 1;
                frame.2 = group.end.max(at);
                out.push(OutlineItem::Open(g));
                open.push((g + 1, 0, group.start, group.end));
            }
            None => {
                out.extend((at..to).map(OutlineItem::Layer));
                open.pop();
                if slot > 0 {
                    out.push(OutlineItem::Close(slot - 1));
                }
            }
        }
    }
    out
}

/// Checks that `groups` nest in a stack of `stack_len` layers: each in its parent (an earlier
/// group), side by side in order, within the stack, opacity from 0 to 1.
pub fn check_groups(stack_len: usize, groups: &[LayerGroup]) -> Result<(), MapError> {
    // The end of the last group seen in each parent (None: the top level).
    let mut last_end: std::collections::HashMap<Option<usize>, usize> = std::collections::HashMap::new();
    for (g, group) in groups.iter().enumerate() {
        let bad = |why: &str| Err(MapError::invalid(format!("layer group {:?} {why}", group.name)));
        let (from, to) = match group.parent {
            None => (0, stack_len),
            Some(p) if p < g => (groups[p].start, groups[p].end),
            Some(_) => return bad("is in a group listed after it"),
        };
        if group.start > group.end || group.start < from || group.end > to {
            return bad(&format!(
                "spans layers {}..{}, outside its place {from}..{to} (a stack of {stack_len} layers)",
                group.start, group.end
            ));
        }
        let after = last_end.entry(group.parent).or_insert(from);
        if group.start < *after {
            return bad("overlaps the group before it");
        }
        *after = group.end;
        if !(0.0..=1.0).contains(&group.opacity) {
            return bad(&format!("has opacity {}, not from 0 to 1", group.opacity));
        }
        if let Some(why) = unplaceable(group.offset, group.parallax) {
            return bad(&format!("has {why}"));
        }
    }
    Ok(())
}

/// What is wrong with a layer's or group's offset and parallax factor, when a number of them is
/// not finite (a file's number too large for the float it is read into): no file writes it
/// back, and no drawing can place it.
fn unplaceable(offset: [f64; 2], parallax: [f64; 2]) -> Option<String> {
    if let Some(x) = offset.into_iter().find(|x| !x.is_finite()) {
        return Some(format!("offset {x}, not a finite number"));
    }
    parallax.into_iter().find(|x| !x.is_finite()).map(|x| format!("parallax factor {x}, not a finite number"))
}

/// How a layer is drawn and edited: its own look composed with its groups'.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayerLook {
    /// It and every group it is in are visible.
    pub shown: bool,
    /// It or a group it is in is locked.
    pub locked: bool,
    pub opacity: f32,
    pub tint: Option<Rgba>,
    /// In map pixels.
    pub offset: [f64; 2],
    pub parallax: [f64; 2],
}

impl LayerLook {
    /// A layer the map does not have: hidden and locked.
    const MISSING: Self =
        Self { shown: false, locked: true, opacity: 0.0, tint: None, offset: [0.0, 0.0], parallax: [1.0, 1.0] };

    fn within(mut self, group: &LayerGroup) -> Self {
        self.shown &= group.visible;
        self.locked |= group.locked;
        self.opacity *= group.opacity;
        self.tint = match (self.tint, group.tint) {
            (Some(a), Some(b)) => Some(multiply(a, b)),
            (a, b) => a.or(b),
        };
        self.offset = [self.offset[0] + group.offset[0], self.offset[1] + group.offset[1]];
        self.parallax = [self.parallax[0] * group.parallax[0], self.parallax[1] * group.parallax[1]];
        self
    }
}

/// Two colours multiplied channel by channel, as Tiled multiplies nested tints.
fn multiply(a: Rgba, b: Rgba) -> Rgba {
    let m = |x: u8, y: u8| ((u16::from(x) * u16::from(y) + 127) / 255) as u8;
    Rgba(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2), m(a.3, b.3))
}

/// The most pixels a map is wide or high (its cells times its cells' pixel size): 2²³, as far as
/// an `f32` (as Tiled's own readers and many games hold an object's position) holds every half
/// pixel, so that an object at a cell's centre reads back there.
pub const MAX_MAP_PIXELS: u64 = 1 << 23;

/// What tile and object layers have alike: name, visibility, lock and opacity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayerHeader<'a> {
    pub name: &'a str,
    pub visible: bool,
    pub locked: bool,
    pub opacity: f32,
}

/// One layer of a map's stack, tile or object layer, by its index in [`Map::layers`] or
/// [`Map::object_layers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LayerRef {
    Tiles(usize),
    Objects(usize),
}

/// The stack of `tile_layers` tile layers and `object_layers`, bottom to top: the object layers
/// over `k` tile layers come after tile layer `k - 1`, in their own order (see [`Map::stack`]).
pub fn stack_order(tile_layers: usize, object_layers: &[ObjectLayer]) -> Vec<LayerRef> {
    let mut out = Vec::with_capacity(tile_layers + object_layers.len());
    let mut objects = object_layers.iter().enumerate().peekable();
    for k in 0..=tile_layers {
        while let Some((j, _)) = objects.next_if(|(_, l)| l.tile_layers_below <= k) {
            out.push(LayerRef::Objects(j));
        }
        if k < tile_layers {
            out.push(LayerRef::Tiles(k));
        }
    }
    // Only an invalid map has object layers over more tile layers than it has.
    out.extend(objects.map(|(j, _)| LayerRef::Objects(j)));
    out
}

#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    width: u32,
    height: u32,
    /// Tile types; slot 0 is the empty tile.
    pub tiles: Vec<TileKind>,
    /// Tile layers, bottom to top.
    pub layers: Vec<Layer>,
    /// Object layers, bottom to top; each says which tile layers it is drawn between (see
    /// [`Map::stack`]).
    pub object_layers: Vec<ObjectLayer>,
    /// Layer groups, in outline order (see [`LayerGroup`]).
    pub groups: Vec<LayerGroup>,
    /// The objects of every object layer, layer by layer in the layers' order (as a Tiled file
    /// holds them: see [`Map::order_objects_by_layer`]); those of one layer in its drawing order.
    pub objects: Vec<MapObject>,
    pub sheets: Vec<SpriteSheet>,
    pub properties: Properties,
    /// The map's class (Tiled 1.9's `class`: the designer's type for it).
    pub class: String,
    /// The colour behind the map's tiles (Tiled's `backgroundcolor`; `None`: the editor's own).
    pub background: Option<Rgba>,
    /// Pixel size of a grid cell in Tiled (`tilewidth`, `tileheight`); kept for export.
    pub tile_size: [u32; 2],
    /// How a Tiled save writes it and the order its tiles are drawn in (Tiled's map settings).
    pub tiled: crate::core::model::tiled_settings::TiledSettings,
    /// What the Tiled file kept for Tiled itself (its export target and chunk size).
    pub tiled_editor: crate::core::model::tiled_settings::TiledEditorSettings,
    /// The id the next new object gets (Tiled's `nextobjectid`): above every object's, and
    /// never lowered, so that a deleted object's id is not given again while an `object`
    /// property may still name it.
    next_object_id: u32,
}

/// Adds `cells` to a running count of layer cells, refusing a total past [`MAX_LAYER_CELLS`].
pub fn count_layer_cells(total: &mut u64, cells: u64) -> Result<(), MapError> {
    *total = total.saturating_add(cells);
    if *total > MAX_LAYER_CELLS {
        return Err(MapErrorKind::TooManyCells { cells: *total }.into());
    }
    Ok(())
}

/// Where the old content sits when a map is resized (Tiled's "offset" picker).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    TopLeft,
    Top,
    TopRight,
    Left,
    Centre,
    Right,
    BottomLeft,
    Bottom,
    BottomRight,
}

impl Anchor {
    pub const ALL: [Anchor; 9] = [
        Anchor::TopLeft,
        Anchor::Top,
        Anchor::TopRight,
        Anchor::Left,
        Anchor::Centre,
        Anchor::Right,
        Anchor::BottomLeft,
        Anchor::Bottom,
        Anchor::BottomRight,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Anchor::TopLeft => "top left",
            Anchor::Top => "top",
            Anchor::TopRight => "top right",
            Anchor::Left => "left",
            Anchor::Centre => "centre",
            Anchor::Right => "right",
            Anchor::BottomLeft => "bottom left",
            Anchor::Bottom => "bottom",
            Anchor::BottomRight => "bottom right",
        }
    }

    /// Where the old map's top-left cell lands in the new one.
    pub fn offset(self, old: (u32, u32), new: (u32, u32)) -> (i32, i32) {
        let i = Anchor::ALL.iter().position(|&a| a == self).unwrap_or(0) as i64;
        let place = |k: i64, o: u32, n: u32| -> i32 {
            let free = i64::from(n) - i64::from(o);
            (match k {
                0 => 0,
                1 => free / 2,
                _ => free,
            }) as i32
        };
        (place(i % 3, old.0, new.0), place(i / 3, old.1, new.1))
    }
}

/// The cell size of maps that do not say.
pub const DEFAULT_TILE_SIZE: [u32; 2] = [16, 16];

/// Checks a requested size against [`MAX_MAP_SIDE`].
pub fn check_dimensions(width: i64, height: i64) -> Result<(u32, u32), MapError> {
    let max = i64::from(MAX_MAP_SIDE);
    if !(1..=max).contains(&width) || !(1..=max).contains(&height) {
        return Err(MapErrorKind::Dimensions { width, height }.into());
    }
    Ok((width as u32, height as u32))
}

impl Map {
    /// A map with the [standard tiles](tile::standard_tiles) and one layer filled with `fill`.
    pub fn new_standard(width: u32, height: u32, fill: TileId) -> Result<Self, MapError> {
        Self::new(width, height, tile::standard_tiles(), fill)
    }

    /// A map with one layer named "ground" filled with `fill`.
    pub fn new(width: u32, height: u32, tiles: Vec<TileKind>, fill: TileId) -> Result<Self, MapError> {
        check_dimensions(width.into(), height.into())?;
        let len = width as usize * height as usize;
        let map = Self {
            width,
            height,
            tiles,
            layers: vec![Layer::filled("ground", len, fill)],
            object_layers: Vec::new(),
            groups: Vec::new(),
            objects: Vec::new(),
            sheets: Vec::new(),
            properties: Properties::new(),
            class: String::new(),
            background: None,
            tiled: Default::default(),
            tiled_editor: Default::default(),
            tile_size: DEFAULT_TILE_SIZE,
            next_object_id: 1,
        };
        map.validate()?;
        Ok(map)
    }

    /// Assembles a map from parts a loader read, checking that they agree. Objects keep their
    /// ids; one without an id (0), or repeating an earlier object's, is numbered from
    /// `next_object_id` (the file's, as Tiled does; 0 when it has none) or after the largest id,
    /// whichever is higher, in list order. Objects given without object layers (a format that
    /// has none) go on one named [`DEFAULT_OBJECT_LAYER`], over every tile layer.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        width: u32,
        height: u32,
        tiles: Vec<TileKind>,
        layers: Vec<Layer>,
        mut object_layers: Vec<ObjectLayer>,
        objects: Vec<MapObject>,
        sheets: Vec<SpriteSheet>,
        next_object_id: u32,
    ) -> Result<Self, MapError> {
        check_dimensions(width.into(), height.into())?;
        if object_layers.is_empty() && !objects.is_empty() {
            object_layers.push(ObjectLayer::new(DEFAULT_OBJECT_LAYER, layers.len()));
        }
        let mut map = Self {
            width,
            height,
            tiles,
            layers,
            object_layers,
            groups: Vec::new(),
            objects,
            sheets,
            properties: Properties::new(),
            class: String::new(),
            background: None,
            tiled: Default::default(),
            tiled_editor: Default::default(),
            tile_size: DEFAULT_TILE_SIZE,
            next_object_id: next_object_id.max(1),
        };
        map.number_objects();
        map.order_objects_by_layer();
        map.validate()?;
        Ok(map)
    }

    /// Gives an id to each object without one or repeating an earlier one's, after the largest.
    fn number_objects(&mut self) {
        let largest = self.objects.iter().map(|o| o.id).max().unwrap_or(0);
        self.next_object_id = self.next_object_id.max(largest.saturating_add(1));
        let mut seen = std::collections::HashSet::new();
        for i in 0..self.objects.len() {
            let id = self.objects[i].id;
            if id == 0 || !seen.insert(id) {
                let fresh = self.allocate_object_id();
                self.objects[i].id = fresh;
                seen.insert(fresh);
            }
        }
    }

    /// The id the next new object gets.
    pub fn next_object_id(&self) -> u32 {
        self.next_object_id
    }

    /// Takes a fresh object id.
    pub fn allocate_object_id(&mut self) -> u32 {
        let id = self.next_object_id;
        self.next_object_id = self.next_object_id.saturating_add(1);
        id
    }

    /// The object layer new objects go on when no other is chosen: the topmost, or when the map
    /// has none, a new one named [`DEFAULT_OBJECT_LAYER`] over every tile layer.
    pub fn default_object_layer(&mut self) -> usize {
        if self.object_layers.is_empty() {
            self.object_layers.push(ObjectLayer::new(DEFAULT_OBJECT_LAYER, self.layers.len()));
        }
        self.object_layers.len() - 1
    }

    /// Adds `object` with a fresh id, which it returns. It goes on its `layer`, or on the
    /// [default object layer](Map::default_object_layer) when the map has no such layer.
    pub fn add_object(&mut self, mut object: MapObject) -> u32 {
        if object.layer >= self.object_layers.len() {
            object.layer = self.default_object_layer();
        }
        object.id = self.allocate_object_id();
        let id = object.id;
        // Last of its layer: drawn over the others there.
        let at = self.objects.partition_point(|o| o.layer <= object.layer);
        self.objects.insert(at, object);
        id
    }

    /// Puts the objects layer by layer, in the layers' order, each layer's in the order they
    /// had. The game takes its objects in this order (the first player start, the monsters'
    /// turns), and a Tiled file can keep no other: a map saved as TMX or TMJ and read back is
    /// the same map. Edits that renumber object layers call it.
    pub fn order_objects_by_layer(&mut self) {
        if !self.objects.is_sorted_by_key(|o| o.layer) {
            self.objects.sort_by_key(|o| o.layer);
        }
    }

    /// Where a tile object of `tile` has its position on its box, as fractions of its width
    /// and height (its tileset's object alignment; bottom-left unless set), and the size of
    /// its box as Tiled gives a new one: its tileset's tile size, else the map's grid.
    pub fn tile_object_anchor(&self, tile: TileId) -> ([f64; 2], [f64; 2]) {
        let sheet = self
            .tiles
            .get(usize::from(tile))
            .and_then(|t| t.sprite)
            .and_then(|s| self.sheets.get(usize::from(s.sheet)));
        match sheet {
            Some(sheet) => {
                (sheet.drawing.object_alignment.anchor(), [f64::from(sheet.tile_width), f64::from(sheet.tile_height)])
            }
            None => ([0.0, 1.0], self.tile_size.map(|t| f64::from(t.max(1)))),
        }
    }

    /// `kind` turned `rotation` degrees about `position` (map pixels: Tiled's `x`, `y`, a box's
    /// top-left corner, a point's, polygon's or path's origin, a tile object's point where its
    /// tileset's object alignment says, bottom-left unless set): the cell an object of that
    /// shape stands on, and the shape hung from it. The cell is the one under the shape's
    /// centre (unturned; a point's, polygon's or path's position), as a Tiled map's objects
    /// are read (`format::tiled_common`), so a shape drawn or moved here is where a save and
    /// a load put it. `None` when that centre is off the map.
    pub fn placed_shape(&self, kind: ShapeKind, position: [f64; 2], rotation: f64) -> Option<(Cell, ObjectShape)> {
        if !position.iter().chain(kind.size().iter().flatten()).all(|x| x.is_finite()) {
            return None;
        }
        let grid = self.tile_size.map(|t| f64::from(t.max(1)));
        let cell = crate::core::model::object::cell_under(&kind, position, self.object_anchor(&kind), grid);
        if !self.in_bounds(cell) {
            return None;
        }
        let offset = [position[0] - f64::from(cell.x) * grid[0], position[1] - f64::from(cell.y) * grid[1]];
        Some((cell, ObjectShape { offset, rotation, kind }))
    }

    /// The objects of object layer `j` in the order its draw order draws them, first drawn first:
    /// Top Down by their Tiled `y` (a shape's position; a marker's cell centre), ties in the
    /// layer's order; Manual in the layer's order.
    pub fn objects_in_draw_order(&self, j: usize) -> Vec<&MapObject> {
        let mut objects: Vec<&MapObject> = self.objects.iter().filter(|o| o.layer == j).collect();
        if self.object_layers.get(j).is_some_and(|l| l.draw_order == DrawOrder::TopDown) {
            let y = |o: &MapObject| match &o.shape {
                Some(shape) => shape.position(o.cell, self.tile_size)[1],
                None => (f64::from(o.cell.y) + 0.5) * f64::from(self.tile_size[1].max(1)),
            };
            // A stable sort: the layer's order among objects at one height.
            objects.sort_by(|a, b| y(a).total_cmp(&y(b)));
        }
        objects
    }

    /// Where an object of shape `kind` hangs on its box, as fractions of its size: a tile
    /// object's tileset's object alignment ([`Map::tile_object_anchor`]); the top-left corner
    /// (0, 0) for every other kind.
    pub fn object_anchor(&self, kind: &ShapeKind) -> [f64; 2] {
        match kind {
            ShapeKind::Tile { tile, .. } => self.tile_object_anchor(*tile).0,
            _ => [0.0, 0.0],
        }
    }

    /// The object whose id is `id`.
    pub fn object_by_id(&self, id: u32) -> Option<&MapObject> {
        self.objects.iter().find(|o| o.id == id)
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    /// Every layer, tile and object layers together, bottom to top (the order they are drawn
    /// in and the Layers panel lists them in): the object layers over `k` tile layers come
    /// after tile layer `k - 1`, in their own order.
    pub fn stack(&self) -> Vec<LayerRef> {
        stack_order(self.layers.len(), &self.object_layers)
    }

    /// What a layer, tile or object layer, has that the other kind has too.
    pub fn layer_header(&self, layer: LayerRef) -> Option<LayerHeader<'_>> {
        match layer {
            LayerRef::Tiles(i) => self.layers.get(i).map(|l| LayerHeader {
                name: &l.name,
                visible: l.visible,
                locked: l.locked,
                opacity: l.opacity,
            }),
            LayerRef::Objects(j) => self.object_layers.get(j).map(|l| LayerHeader {
                name: &l.name,
                visible: l.visible,
                locked: l.locked,
                opacity: l.opacity,
            }),
        }
    }

    /// The groups holding place `at` of the stack, innermost first.
    pub fn groups_at(&self, at: usize) -> Vec<usize> {
        // In outline order the innermost group holding a place is the last one that does.
        let innermost = self.groups.iter().rposition(|g| (g.start..g.end).contains(&at));
        std::iter::successors(innermost, |&g| self.groups[g].parent).collect()
    }

    /// The groups `item` is in, innermost first (a group is not in itself).
    pub fn groups_around(&self, item: StackItem) -> Vec<usize> {
        match item {
            StackItem::Layer(layer) => {
                self.stack().iter().position(|&r| r == layer).map(|at| self.groups_at(at)).unwrap_or_default()
            }
            StackItem::Group(g) => {
                std::iter::successors(self.groups.get(g).and_then(|g| g.parent), |&p| self.groups[p].parent).collect()
            }
        }
    }

    /// How `layer` is drawn and edited: its own visibility, lock, opacity, tint, offset and
    /// parallax composed with those of the groups it is in. A layer the map does not have is
    /// hidden and locked.
    pub fn look(&self, layer: LayerRef) -> LayerLook {
        match self.stack().iter().position(|&r| r == layer) {
            Some(at) => self.look_at(layer, at),
            None => LayerLook::MISSING,
        }
    }

    /// [`Map::look`] of `layer`, which is at place `at` of the stack.
    fn look_at(&self, layer: LayerRef, at: usize) -> LayerLook {
        let own = match layer {
            LayerRef::Tiles(i) => {
                let l = &self.layers[i];
                LayerLook {
                    shown: l.visible,
                    locked: l.locked,
                    opacity: l.opacity,
                    tint: l.tint,
                    offset: l.offset,
                    parallax: l.parallax,
                }
            }
            LayerRef::Objects(j) => {
                let l = &self.object_layers[j];
                LayerLook {
                    shown: l.visible,
                    locked: l.locked,
                    opacity: l.opacity,
                    tint: l.tint,
                    offset: l.offset,
                    parallax: l.parallax,
                }
            }
        };
        self.groups_at(at).into_iter().fold(own, |look, g| look.within(&self.groups[g]))
    }

    /// The look of every tile layer and every object layer, by index, as [`Map::look`] gives
    /// them (for drawing a frame: the stack is walked once).
    fn looks(&self) -> (Vec<LayerLook>, Vec<LayerLook>) {
        let missing = LayerLook::MISSING;
        let (mut tiles, mut objects) = (vec![missing; self.layers.len()], vec![missing; self.object_layers.len()]);
        for (at, layer) in self.stack().into_iter().enumerate() {
            let look = self.look_at(layer, at);
            match layer {
                LayerRef::Tiles(i) => tiles[i] = look,
                LayerRef::Objects(j) => objects[j] = look,
            }
        }
        (tiles, objects)
    }

    /// The look of every tile layer, by index, as [`Map::look`] gives it.
    pub fn tile_looks(&self) -> Vec<LayerLook> {
        self.looks().0
    }

    /// The look of every object layer, by index.
    pub fn object_looks(&self) -> Vec<LayerLook> {
        self.looks().1
    }

    /// Whether a group is shown: it and every group it is in are visible.
    pub fn group_shown(&self, g: usize) -> bool {
        self.groups.get(g).is_some_and(|group| group.visible)
            && self.groups_around(StackItem::Group(g)).into_iter().all(|p| self.groups[p].visible)
    }

    /// Whether a group is locked, or a group it is in.
    pub fn group_locked(&self, g: usize) -> bool {
        self.groups.get(g).is_none_or(|group| group.locked)
            || self.groups_around(StackItem::Group(g)).into_iter().any(|p| self.groups[p].locked)
    }

    /// A layer's name.
    pub fn layer_name(&self, layer: LayerRef) -> Option<&str> {
        self.layer_header(layer).map(|h| h.name)
    }

    /// Whether objects on object layer `layer` are shown: it and its groups are visible.
    pub fn object_layer_visible(&self, layer: usize) -> bool {
        self.look(LayerRef::Objects(layer)).shown
    }

    /// This map resized to `width × height`, its content placed by `anchor`. New cells get `fill`
    /// on the bottom layer and nothing above; content and objects that fall off are dropped.
    pub fn resized(&self, width: u32, height: u32, anchor: Anchor, fill: TileId) -> Result<Map, MapError> {
        let (dx, dy) = anchor.offset((self.width, self.height), (width, height));
        self.resized_by(width, height, (dx, dy), fill)
    }

    /// The rectangle with corners `a` and `b` (in either order, clipped to the map) as a map of
    /// its own, its top-left cell now (0, 0): what Tiled's Map › Crop to Selection makes of the
    /// selection's bounding rectangle. Objects outside it are dropped.
    pub fn cropped(&self, a: Cell, b: Cell) -> Result<Map, MapError> {
        // A rectangle off the map would crop it to no cells: a map cannot be 0 × 0.
        let Some((min, max)) = crate::core::model::geometry::clipped_rect(a, b, self.width, self.height) else {
            return Err(MapErrorKind::Dimensions { width: 0, height: 0 }.into());
        };
        let (width, height) = ((max.x - min.x + 1) as u32, (max.y - min.y + 1) as u32);
        self.resized_by(width, height, (-min.x, -min.y), tile::EMPTY)
    }

    /// This map resized to `width × height`, its cell (x, y) moved to (x + dx, y + dy).
    fn resized_by(&self, width: u32, height: u32, (dx, dy): (i32, i32), fill: TileId) -> Result<Map, MapError> {
        check_dimensions(width.into(), height.into())?;
        let len = width as usize * height as usize;
        let mut out = self.clone();
        out.width = width;
        out.height = height;
        for (li, layer) in out.layers.iter_mut().enumerate() {
            let old = &self.layers[li];
            let mut resized = Layer::filled("", len, if li == 0 { fill } else { tile::EMPTY });
            for y in 0..self.height as i32 {
                for x in 0..self.width as i32 {
                    let (nx, ny) = (x + dx, y + dy);
                    if (0..width as i32).contains(&nx) && (0..height as i32).contains(&ny) {
                        let i = (y as u32 * self.width + x as u32) as usize;
                        resized.set((ny as u32 * width + nx as u32) as usize, old.cells[i], old.flip(i));
                    }
                }
            }
            layer.cells = resized.cells;
            layer.flips = resized.flips;
        }
        // An infinite Tiled map's cells keep their Tiled places: its origin moves with them.
        if let Some([x, y]) = &mut out.tiled.infinite_origin {
            (*x, *y) = (x.saturating_sub(dx), y.saturating_sub(dy));
        }
        out.objects = self
            .objects
            .iter()
            .cloned()
            .map(|mut o| {
                o.cell = Cell::new(o.cell.x + dx, o.cell.y + dy);
                o
            })
            .filter(|o| (0..width as i32).contains(&o.cell.x) && (0..height as i32).contains(&o.cell.y))
            .collect();
        out.validate()?;
        Ok(out)
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn len(&self) -> usize {
        self.width as usize * self.height as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn in_bounds(&self, cell: Cell) -> bool {
        cell.x >= 0 && cell.y >= 0 && (cell.x as u32) < self.width && (cell.y as u32) < self.height
    }

    /// Flat index of an in-bounds cell.
    pub fn index(&self, cell: Cell) -> Option<usize> {
        self.in_bounds(cell).then(|| cell.y as usize * self.width as usize + cell.x as usize)
    }

    pub fn cell_at(&self, index: usize) -> Cell {
        Cell::new((index % self.width as usize) as i32, (index / self.width as usize) as i32)
    }

    pub fn tile(&self, layer: usize, cell: Cell) -> Option<TileId> {
        let i = self.index(cell)?;
        self.layers.get(layer).map(|l| l.cells[i])
    }

    /// The tile at a cell and how it is flipped.
    pub fn flipped_tile(&self, layer: usize, cell: Cell) -> Option<(TileId, Flip)> {
        let i = self.index(cell)?;
        self.layers.get(layer).map(|l| (l.cells[i], l.flip(i)))
    }

    /// Sets a tile, unflipped; returns false (and changes nothing) out of bounds or for an
    /// unknown layer/tile.
    pub fn set_tile(&mut self, layer: usize, cell: Cell, tile: TileId) -> bool {
        self.set_flipped_tile(layer, cell, tile, Flip::NONE)
    }

    /// Sets a tile flipped by `flip` (see [`Map::set_tile`]).
    pub fn set_flipped_tile(&mut self, layer: usize, cell: Cell, tile: TileId, flip: Flip) -> bool {
        let Some(i) = self.index(cell) else { return false };
        if usize::from(tile) >= self.tiles.len() {
            return false;
        }
        match self.layers.get_mut(layer) {
            Some(l) => {
                l.set(i, tile, flip);
                true
            }
            None => false,
        }
    }

    /// The topmost non-empty tile at a cell, with its layer.
    pub fn top_tile(&self, cell: Cell) -> Option<(usize, TileId)> {
        let i = self.index(cell)?;
        self.layers.iter().enumerate().rev().find(|(_, l)| l.cells[i] != tile::EMPTY).map(|(li, l)| (li, l.cells[i]))
    }

    /// Finds a tile type by name.
    pub fn tile_named(&self, name: &str) -> Option<TileId> {
        self.tiles.iter().position(|t| t.name == name).map(|i| i as TileId)
    }

    /// Objects standing on a cell.
    pub fn objects_at(&self, cell: Cell) -> impl Iterator<Item = &MapObject> {
        self.objects.iter().filter(move |o| o.cell == cell)
    }

    /// Roughly the memory this map holds: its layers' cells and its tile table's records (names
    /// and properties not counted). For bounding what copies of it may take (the undo history).
    pub fn approx_bytes(&self) -> usize {
        let cells: usize = self.layers.iter().map(Layer::approx_bytes).sum();
        cells
            + self.tiles.len() * std::mem::size_of::<TileKind>()
            + self.objects.len() * std::mem::size_of::<MapObject>()
    }

    /// Counts of each tile id over all layers (index = tile id).
    pub fn tile_counts(&self) -> Vec<usize> {
        let mut counts = vec![0usize; self.tiles.len()];
        for layer in &self.layers {
            for &t in &layer.cells {
                counts[usize::from(t)] += 1;
            }
        }
        counts
    }

    /// Checks the invariants every loader relies on: layer sizes, tile ids, door counterparts,
    /// sprite references, object positions.
    pub fn validate(&self) -> Result<(), MapError> {
        check_dimensions(self.width.into(), self.height.into())?;
        for (cells, pixels, side) in [(self.width, self.tile_size[0], "wide"), (self.height, self.tile_size[1], "high")]
        {
            let extent = u64::from(cells) * u64::from(pixels);
            if pixels == 0 || extent > MAX_MAP_PIXELS {
                return Err(MapError::invalid(format!(
                    "cells of {}×{} pixels make the map {extent} pixels {side}; a cell is at least 1 pixel, and \
                     a map at most {MAX_MAP_PIXELS} pixels (as far as a Tiled file's object positions, 32-bit \
                     floats, hold half pixels exactly)",
                    self.tile_size[0], self.tile_size[1]
                )));
            }
        }
        if let Some(origin) = self.tiled.infinite_origin {
            for (axis, v) in ["x", "y"].into_iter().zip(origin) {
                Limit::CELLS.check(v.into()).map_err(|why| {
                    MapError::invalid(format!("the infinite map's origin {axis} is {v}, out of range: {why}"))
                })?;
            }
        }
        if self.tiles.is_empty() {
            return Err(MapError::invalid("the tile table is empty (slot 0 must be the empty tile)"));
        }
        if self.tiles.len() > usize::from(TileId::MAX) + 1 {
            return Err(MapError::invalid(format!(
                "the map uses {} tile types; at most {} are supported",
                self.tiles.len() - 1,
                TileId::MAX
            )));
        }
        for (id, t) in self.tiles.iter().enumerate() {
            if let Some(door) = t.door
                && usize::from(door.toggles_to) >= self.tiles.len()
            {
                return Err(MapError::invalid(format!(
                    "tile {id} ({:?}) is a door that toggles to tile {}, which does not exist",
                    t.name, door.toggles_to
                )));
            }
            if let Some(sprite) = t.sprite
                && usize::from(sprite.sheet) >= self.sheets.len()
            {
                return Err(MapError::invalid(format!(
                    "tile {id} ({:?}) uses sprite sheet {}, which does not exist",
                    t.name, sprite.sheet
                )));
            }
            if !t.cost.is_finite() || t.cost < 0.0 {
                return Err(MapError::invalid(format!(
                    "tile {id} ({:?}) has move cost {}; it must be a finite number ≥ 0",
                    t.name, t.cost
                )));
            }
            if !t.probability.is_finite() || t.probability < 0.0 {
                return Err(MapError::invalid(format!(
                    "tile {id} ({:?}) has probability {}; it must be a finite number ≥ 0",
                    t.name, t.probability
                )));
            }
        }
        let mut sheet_tiles = 0u64;
        for sheet in &self.sheets {
            // Named with its file when it has one: the file to mend.
            let file = sheet.file.as_ref().and_then(|f| f.path.file_name());
            let file = file.map_or(String::new(), |f| format!(" ({})", f.to_string_lossy()));
            sheet.check().map_err(|why| MapError::invalid(format!("tileset {:?}{file}: {why}", sheet.name)))?;
            sheet_tiles += u64::from(sheet.tile_count);
            if sheet_tiles > u64::from(MAX_TILES) {
                return Err(MapError::invalid(format!(
                    "the tilesets hold {sheet_tiles} tiles or more; sightline supports at most {MAX_TILES}"
                )));
            }
            let mut terrains = sheet.wang_sets.iter().flat_map(|set| set.colors.iter().map(move |c| (set, c)));
            if let Some((set, colour)) = terrains.find(|(_, c)| !c.probability.is_finite() || c.probability < 0.0) {
                return Err(MapError::invalid(format!(
                    "tileset {:?}{file}, terrain set {:?}: terrain {:?} has probability {}; it must be a finite number ≥ 0",
                    sheet.name, set.name, colour.name, colour.probability
                )));
            }
        }
        let mut cells = 0;
        for layer in &self.layers {
            count_layer_cells(&mut cells, layer.cells.len() as u64)?;
        }
        for layer in &self.layers {
            if !(0.0..=1.0).contains(&layer.opacity) {
                return Err(
                    MapError::invalid(format!("opacity {} is not from 0 to 1", layer.opacity)).in_layer(&layer.name)
                );
            }
            if let Some(why) = unplaceable(layer.offset, layer.parallax) {
                return Err(MapError::invalid(format!("it has {why}")).in_layer(&layer.name));
            }
            if layer.cells.len() != self.len() {
                return Err(MapError::new(MapErrorKind::DataLength { expected: self.len(), found: layer.cells.len() })
                    .in_layer(&layer.name));
            }
            if !layer.flips.fits(layer.cells.len()) {
                return Err(MapError::invalid("the flips do not match the cells one for one").in_layer(&layer.name));
            }
            if let Some(&bad) = layer.cells.iter().find(|&&t| usize::from(t) >= self.tiles.len()) {
                return Err(MapError::invalid(format!(
                    "tile id {bad} is used but the map has only {} tile types",
                    self.tiles.len()
                ))
                .in_layer(&layer.name));
            }
        }
        let mut below = 0;
        for layer in &self.object_layers {
            if layer.tile_layers_below < below || layer.tile_layers_below > self.layers.len() {
                return Err(MapError::invalid(format!(
                    "object layer {:?} is over {} tile layers: object layers must be listed bottom to top, \
                     over at most the map's {} tile layers",
                    layer.name,
                    layer.tile_layers_below,
                    self.layers.len()
                )));
            }
            below = layer.tile_layers_below;
            if !(0.0..=1.0).contains(&layer.opacity) {
                return Err(MapError::invalid(format!(
                    "object layer {:?}: opacity {} is not from 0 to 1",
                    layer.name, layer.opacity
                )));
            }
            if let Some(why) = unplaceable(layer.offset, layer.parallax) {
                return Err(MapError::invalid(format!("object layer {:?} has {why}", layer.name)));
            }
        }
        check_groups(self.layers.len() + self.object_layers.len(), &self.groups)?;
        let mut ids = std::collections::HashSet::new();
        for object in &self.objects {
            if object.layer >= self.object_layers.len() {
                return Err(MapError::invalid(format!(
                    "object {:?} is on object layer {}, but the map has {}",
                    object.name,
                    object.layer,
                    self.object_layers.len()
                )));
            }
            if object.id == 0 || object.id >= self.next_object_id || !ids.insert(object.id) {
                return Err(MapError::invalid(format!(
                    "object {:?} has id {}, which is 0, repeated, or not below the next id {}",
                    object.name, object.id, self.next_object_id
                )));
            }
            if object.shape.as_ref().is_some_and(|s| !s.is_finite()) {
                return Err(MapError::invalid(format!(
                    "object {:?} (#{}) has a shape with a number that is not finite",
                    object.name, object.id
                )));
            }
            if !self.in_bounds(object.cell) {
                return Err(MapError::invalid(format!(
                    "object {:?} ({}) stands at {}, outside the {}×{} map",
                    object.name,
                    object.kind.type_name(),
                    object.cell,
                    self.width,
                    self.height
                )));
            }
        }
        Ok(())
    }
}

impl Map {
    /// Describes the first difference between two maps, or `None` when they are equal. Tests use
    /// it to say what a round trip changed without printing whole maps.
    pub fn first_difference(&self, other: &Map) -> Option<String> {
        if (self.width, self.height) != (other.width, other.height) {
            return Some(format!("size {}×{} vs {}×{}", self.width, self.height, other.width, other.height));
        }
        if self.tiles.len() != other.tiles.len() {
            return Some(format!("{} tile types vs {}", self.tiles.len(), other.tiles.len()));
        }
        if let Some((i, (a, b))) = self.tiles.iter().zip(&other.tiles).enumerate().find(|(_, (a, b))| a != b) {
            return Some(format!("tile {i}: {a:?} vs {b:?}"));
        }
        if self.layers.len() != other.layers.len() {
            return Some(format!("{} layers vs {}", self.layers.len(), other.layers.len()));
        }
        for (a, b) in self.layers.iter().zip(&other.layers) {
            if (&a.name, a.visible, a.locked, a.collision) != (&b.name, b.visible, b.locked, b.collision) {
                return Some(format!(
                    "layer {:?} (visible {}, locked {}, collision {}) vs {:?} ({}, {}, {})",
                    a.name, a.visible, a.locked, a.collision, b.name, b.visible, b.locked, b.collision
                ));
            }
            if (a.offset, a.parallax, a.tint) != (b.offset, b.parallax, b.tint) {
                return Some(format!(
                    "layer {:?}: offset {:?}, parallax {:?}, tint {:?} vs {:?}, {:?}, {:?}",
                    a.name, a.offset, a.parallax, a.tint, b.offset, b.parallax, b.tint
                ));
            }
            if (a.opacity, &a.properties) != (b.opacity, &b.properties) {
                return Some(format!(
                    "layer {:?}: opacity {} and properties {:?} vs {} and {:?}",
                    a.name, a.opacity, a.properties, b.opacity, b.properties
                ));
            }
            if a.class != b.class {
                return Some(format!("layer {:?}: class {:?} vs {:?}", a.name, a.class, b.class));
            }
            if let Some(i) = (0..a.cells.len()).find(|&i| a.cells[i] != b.cells[i]) {
                return Some(format!(
                    "layer {:?} at {}: tile {} vs {}",
                    a.name,
                    self.cell_at(i),
                    a.cells[i],
                    b.cells[i]
                ));
            }
            if let Some(i) = (0..a.cells.len()).find(|&i| a.flip(i) != b.flip(i)) {
                return Some(format!(
                    "layer {:?} at {}: flip {:?} vs {:?}",
                    a.name,
                    self.cell_at(i),
                    a.flip(i),
                    b.flip(i)
                ));
            }
        }
        if self.groups != other.groups {
            return Some(format!("layer groups {:?} vs {:?}", self.groups, other.groups));
        }
        if self.object_layers != other.object_layers {
            return Some(format!("object layers {:?} vs {:?}", self.object_layers, other.object_layers));
        }
        if self.objects.len() != other.objects.len() {
            return Some(format!("{} objects vs {}", self.objects.len(), other.objects.len()));
        }
        if let Some((a, b)) = self.objects.iter().zip(&other.objects).find(|(a, b)| a != b) {
            return Some(format!("object {a:?} vs {b:?}"));
        }
        if self.sheets != other.sheets {
            return Some(format!("sprite sheets {:?} vs {:?}", self.sheets, other.sheets));
        }
        if self.properties != other.properties {
            return Some(format!("properties {:?} vs {:?}", self.properties, other.properties));
        }
        if self.tile_size != other.tile_size {
            return Some(format!("tile size {:?} vs {:?}", self.tile_size, other.tile_size));
        }
        if self.tiled != other.tiled {
            return Some(format!("Tiled settings {:?} vs {:?}", self.tiled, other.tiled));
        }
        if self.tiled_editor != other.tiled_editor {
            return Some(format!("Tiled editor settings {:?} vs {:?}", self.tiled_editor, other.tiled_editor));
        }
        if self.next_object_id != other.next_object_id {
            return Some(format!("next object id {} vs {}", self.next_object_id, other.next_object_id));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::object::{ObjectKind, ObjectShape, ShapeKind};

    /// Top Down draws by Tiled's `y` (a shape's position, a marker's cell centre), ties in the
    /// layer's order; Manual in the layer's order; other layers' objects are not drawn here.
    #[test]
    fn objects_are_drawn_top_down_by_their_y_or_in_the_layers_order() {
        let mut map = crate::core::format::ascii::parse("....\n....\n....\n").unwrap();
        map.tile_size = [8, 8];
        map.object_layers = vec![ObjectLayer::new("things", 1), ObjectLayer::new("other", 1)];
        let rect = |x: f64, y: f64| ObjectShape {
            offset: [x, y],
            rotation: 0.0,
            kind: ShapeKind::Rectangle { width: 4.0, height: 4.0 },
        };
        // Names by where they stand: "low" at y = 18, "marker" at 12 (its cell's centre),
        // "high" and "tie" at 2, "away" on the other layer.
        let objects = [
            ("low", Cell::new(0, 2), Some(rect(0.0, 2.0)), 0),
            ("high", Cell::new(1, 0), Some(rect(0.0, 2.0)), 0),
            ("away", Cell::new(2, 0), None, 1),
            ("marker", Cell::new(3, 1), None, 0),
            ("tie", Cell::new(2, 0), Some(rect(1.0, 2.0)), 0),
        ];
        for (name, cell, shape, layer) in objects {
            map.objects.push(
                MapObject { shape, ..MapObject::new(ObjectKind::Other(String::new()), cell) }
                    .named(name)
                    .on_layer(layer),
            );
        }
        let names = |map: &Map| map.objects_in_draw_order(0).iter().map(|o| o.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&map), ["high", "tie", "marker", "low"]);
        map.object_layers[0].draw_order = DrawOrder::Index;
        assert_eq!(names(&map), ["low", "high", "marker", "tie"]);
    }
}
