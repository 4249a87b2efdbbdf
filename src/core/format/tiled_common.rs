//! What the TMX and TMJ formats share: both readers produce a [`Doc`], one function turns a
//! [`Doc`] into our [`Map`], and one turns a [`Map`] into a [`Doc`] that both writers serialise.
//!
//! ## Tileset files
//! A sheet read from a tileset file (Tiled's external tileset) keeps the file's path and, taken
//! once the map is read, its tileset as a save would write it ([`remember_tileset_files`]). A
//! save compares the two: the same, it writes a reference to the file, as Tiled does, so an edit
//! of the file in Tiled still reaches the map and what sightline does not model in the file
//! stays there; changed here, it writes the tileset into the map and says so, unless the
//! tileset file is written first ([`super::tileset_file`], the palette's Save tileset), which
//! makes the file's content the new "as read". Comparing what a save would write, rather than
//! tracking edits, makes every kind of edit count and an undone one not.
//!
//! ## Tile properties the rules read
//! On a tile of a tileset: `opaque` (bool), `walkable` (bool), `cost` (number),
//! `door` (`"open"` or `"closed"`, or a bool meaning closed) with `toggles` (the counterpart: an
//! int, the local id in the same tileset, or a string `"Tileset name#id"`). sightline also
//! writes `name`, `glyph`, `fg` and `bg` (a character and two `#rrggbb` colours for its ASCII view)
//! where they differ from what it would derive. A tile without these is transparent, walkable, cost 1.
//! On a tile layer: `collision` (bool) makes every tile on it opaque and blocking.
//!
//! ## Fallback for maps made without these properties
//! When no tile carries `opaque` or `walkable`, no layer carries `collision` and the map is not one
//! sightline wrote, every tile layer whose name contains "wall", "collision", "collide",
//! "solid", "obstacle" or "block" (any case) becomes a collision layer, and a warning says so.
//!
//! ## Objects
//! An object's cell is the one holding its centre (for tile objects, whose anchor is the
//! bottom-left corner, the centre of the tile). Its kind comes from its class/type, else its name:
//! `player`/`start`/`player_start` → player start; `monster`/`enemy`/`npc` (properties `glyph`,
//! `vision`) → monster; `item`/`pickup` → item; `light` (property `radius`) → light; anything else
//! is kept as a marker with its type name.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use crate::core::model::error::{MapError, MapErrorKind};
use crate::core::model::flip::Flip;
use crate::core::model::geometry::Cell;
use crate::core::model::map::{self, Layer, LayerRef, Map, ObjectLayer};
use crate::core::model::object::{MapObject, ObjectKind, ObjectShape, ObjectTemplate, ShapeKind};
use crate::core::model::sheet::{FormatMemo, SpriteSheet, TilesetFile};
use crate::core::model::sheet_drawing::SheetDrawing;
use crate::core::model::tile::{
    Door, EnumValue, Frame, Glyph, Properties, PropertyValue, Rgb, Sprite, TileId, TileKind,
};
use crate::core::model::tiled_settings::LayerFormat;
use crate::core::model::wang::WangSet;

/// At most this many tiles over all tilesets of a map (our tile ids are 16-bit).
pub(super) const MAX_TILES: u64 = TileId::MAX as u64;

/// Tile properties that carry a tile's rules and look in a Tiled file (not custom properties).
pub const RULE_PROPERTIES: [&str; 5] = ["opaque", "walkable", "cost", "door", "toggles"];
pub const LOOK_PROPERTIES: [&str; 4] = ["name", "glyph", "fg", "bg"];
/// Map property that marks a file sightline wrote (so the fallback never applies to it).
pub const WRITER_PROPERTY: &str = "sightline_version";
/// Tileset property that marks the tileset of glyph tiles sightline writes.
const GLYPH_TILESET_PROPERTY: &str = "sightline_glyphs";
const GLYPH_TILESET_NAME: &str = "sightline glyphs";

#[derive(Clone, Debug, Default)]
pub(super) struct Doc {
    pub width: u32,
    pub height: u32,
    pub infinite: bool,
    pub tile_width: u32,
    pub tile_height: u32,
    pub tilesets: Vec<TilesetDoc>,
    pub layers: Vec<TileLayerDoc>,
    pub objects: Vec<ObjectDoc>,
    pub properties: Properties,
    /// Tiled 1.9's `class` of the map.
    pub class: String,
    /// Tiled's `backgroundcolor`.
    pub background: Option<crate::core::model::tile::Rgba>,
    /// Tiled's layer format (of the last tile layer read, as Tiled takes it), `renderorder`,
    /// `compressionlevel` and parallax origin.
    pub settings: crate::core::model::tiled_settings::TiledSettings,
    /// The map's `<editorsettings>` (its export target and chunk size).
    pub editor: crate::core::model::tiled_settings::TiledEditorSettings,
    pub warnings: Vec<String>,
    /// What the file has that sightline does not keep (a save drops it), named for the warning:
    /// see [`Dropped`].
    pub dropped: std::collections::BTreeSet<Dropped>,
    /// Object layers, bottom to top, each over the tile layers read before it.
    pub object_layers: Vec<ObjectLayer>,
    /// Tiled's `nextobjectid` (0: the file has none).
    pub next_object_id: u32,
    /// Layer groups, spanning places of [`Doc::stack`], as [`Map::groups`] keeps them.
    pub groups: Vec<map::LayerGroup>,
}

/// Tiled features sightline reads past without keeping them: a map saved back loses them, so
/// loading says so once, listing each kind met.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Dropped {
    WangSets,
    TileOffsets,
    RuleEnumTypes,
    TileShapes,
    CollectionImages,
    ImageLayers,
    BlendModes,
    TilesPastImage,
    /// Objects a map places off its tiles (Tiled allows it; a map here holds objects on its
    /// cells only). Found after the other kinds, as the objects are placed.
    ObjectsOffMap,
}

impl Dropped {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Dropped::WangSets => "Wang sets (terrains) of tilesets without one image",
            Dropped::TileOffsets => "drawing offsets of tilesets without one image",
            Dropped::TileShapes => "collision shapes of tiles (from Tiled's tile collision editor)",
            Dropped::CollectionImages => "images of image-collection tilesets (their tiles stay, as glyph tiles)",
            Dropped::ImageLayers => "image layers (neither drawn nor written)",
            Dropped::BlendModes => "blend modes of layers (a save blends them normally)",
            Dropped::ObjectsOffMap => "objects outside the map (left out when it opened)",
            Dropped::TilesPastImage => {
                "tiles listed past their tileset image's (their class, properties and animations)"
            }
            Dropped::RuleEnumTypes => {
                "the enum types of tile properties sightline reads (opaque, walkable, cost, door, toggles, name, \
                 glyph, fg, bg: their values stay, as plain ones)"
            }
        }
    }
}

/// Whether two paths name the same file: equal, or equal once resolved (`a/../b.tsx` and `b.tsx`).
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    a == b || a.canonicalize().ok().is_some_and(|a| b.canonicalize().ok() == Some(a))
}

/// The files a Tiled map names besides itself (tilesets and object templates), read in
/// whichever of Tiled's formats each is in. The map's reader is given one by
/// [`super::tiled_files`], so that neither format's reader calls the other's.
pub(crate) trait SideFiles {
    /// A tileset file (TSX or JSON), its first GID 1 and no `source` (the caller sets both).
    /// A file that is not there is [`MapErrorKind::MissingTileset`].
    fn tileset(&self, path: &Path) -> Result<TilesetDoc, MapError>;

    /// An object template file's object (TX or JSON), its tile numbered in `doc` through
    /// `tilesets`.
    fn template(&self, path: &Path, tilesets: &mut TemplateTilesets, doc: &mut Doc) -> Result<ObjectDoc, MapError>;
}

/// Fills an infinite layer's dense rectangle from its non-empty tiles `(x, y, gid)`.
pub(crate) fn fill_sparse(l: &mut TileLayerDoc, tiles: &[(i64, i64, u32)]) -> Result<(), MapError> {
    if tiles.is_empty() {
        return Ok(());
    }
    let x0 = tiles.iter().map(|t| t.0).min().unwrap_or(0);
    let y0 = tiles.iter().map(|t| t.1).min().unwrap_or(0);
    let x1 = tiles.iter().map(|t| t.0).max().unwrap_or(0) + 1;
    let y1 = tiles.iter().map(|t| t.1).max().unwrap_or(0) + 1;
    let (w, h) = map::check_dimensions(x1 - x0, y1 - y0).map_err(|e| e.in_layer(&l.name))?;
    let (ox, oy) = (
        i32::try_from(x0).map_err(|_| MapError::invalid("a chunk lies too far out").in_layer(&l.name))?,
        i32::try_from(y0).map_err(|_| MapError::invalid("a chunk lies too far out").in_layer(&l.name))?,
    );
    l.origin = (ox, oy);
    l.width = w;
    l.height = h;
    l.gids = vec![0; w as usize * h as usize];
    for &(x, y, gid) in tiles {
        l.gids[((y - y0) * i64::from(w) + (x - x0)) as usize] = gid;
    }
    Ok(())
}

/// Image pixel size of a sheet laid out as Tiled computes it. Its numbers come from a file,
/// bounded where they were read ([`Limit`](crate::core::model::limits::Limit): pixels ≤ 2¹⁶,
/// counts ≤ 2¹⁶), so the sum in u64 is exact; a side past u32 (no real image) is u32::MAX.
pub(crate) fn image_size(ts: &TilesetDoc) -> (u32, u32) {
    let columns = u64::from(ts.columns.max(1));
    let rows = u64::from(ts.tile_count.div_ceil(ts.columns.max(1)).max(1));
    let side = |count: u64, tile: u32| {
        let pixels = 2 * u64::from(ts.margin) + count * u64::from(tile) + (count - 1) * u64::from(ts.spacing);
        u32::try_from(pixels).unwrap_or(u32::MAX)
    };
    (side(columns, ts.tile_width), side(rows, ts.tile_height))
}

/// Where the tiles of object templates' tilesets are in a document: in the map's own tileset
/// when the template names the same file, or when the map embeds a copy of it (as sightline's
/// saves embed tilesets), else in that file added after the others, once, with a note (as Tiled
/// adds it when an instance is detached).
pub(super) struct TemplateTilesets {
    /// The files of the map's tilesets, in order (`None`: embedded in a JSON map; a TMX map's
    /// embedded tilesets have the map's file).
    map: Vec<Option<PathBuf>>,
    /// Tilesets added so far: the file, the index in the document.
    added: Vec<(PathBuf, usize)>,
}

impl TemplateTilesets {
    pub(super) fn new(map: Vec<Option<PathBuf>>) -> Self {
        Self { map, added: Vec::new() }
    }

    /// The index in `doc.tilesets` of the tileset in `file`; `load` reads it, given its first
    /// GID and the document's warnings, when neither the map has it nor a template added it.
    pub(super) fn index(
        &mut self,
        doc: &mut Doc,
        file: &Path,
        load: impl FnOnce(u32, &mut Vec<String>) -> Result<TilesetDoc, MapError>,
    ) -> Result<usize, MapError> {
        if let Some(i) = self.map.iter().position(|m| m.as_deref().is_some_and(|m| same_file(m, file))) {
            return Ok(i);
        }
        if let Some((_, i)) = self.added.iter().find(|(added, _)| same_file(added, file)) {
            return Ok(*i);
        }
        let first_gid = doc.tilesets.iter().map(TilesetDoc::next_gid).max().unwrap_or(1);
        let mut warnings = Vec::new();
        let tileset = load(first_gid, &mut warnings)?;
        if let Some(i) = (0..self.map.len()).find(|&i| doc.tilesets[i].is_copy_of(&tileset)) {
            self.added.push((file.to_owned(), i));
            return Ok(i);
        }
        doc.warnings.extend(warnings);
        doc.warnings.push(format!(
            "tileset {:?} ({}) of an object template is added to the map's tilesets, for the template's tile",
            tileset.name,
            normalize_path(file).display()
        ));
        doc.tilesets.push(tileset);
        self.added.push((file.to_owned(), doc.tilesets.len() - 1));
        Ok(doc.tilesets.len() - 1)
    }
}

impl Doc {
    /// The layers in the order a file lists them, bottom to top.
    pub(super) fn stack(&self) -> Vec<LayerRef> {
        map::stack_order(self.layers.len(), &self.object_layers)
    }

    /// The objects of object layer `layer`, in their order.
    pub(super) fn objects_on(&self, layer: usize) -> impl Iterator<Item = &ObjectDoc> {
        self.objects.iter().filter(move |o| o.layer == layer)
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct TilesetDoc {
    pub name: String,
    /// Tiled 1.9's `class` of the tileset.
    pub class: String,
    pub first_gid: u32,
    /// The tileset file the map names (an external tileset): absolute when read; relative to
    /// the written map when a save refers to it, and then only it and `first_gid` are written.
    pub source: Option<PathBuf>,
    /// The image, resolved against the map's folder; `None` for an image-collection tileset.
    pub image: Option<PathBuf>,
    pub tile_width: u32,
    pub tile_height: u32,
    pub columns: u32,
    pub tile_count: u32,
    pub spacing: u32,
    pub margin: u32,
    /// The image's transparent colour (`trans`, `transparentcolor`).
    pub transparent: Option<Rgb>,
    /// Local id → the tile's class and properties (only tiles that have any).
    pub tiles: BTreeMap<u32, TileDoc>,
    pub properties: Properties,
    pub wang_sets: Vec<WangSet>,
    /// Tiled's `tileoffset`, in pixels.
    pub offset: [i32; 2],
    /// Tiled's `tilerendersize`, `fillmode`, `objectalignment` and `<transformations>`.
    pub drawing: SheetDrawing,
    /// Whether a tile has collision shapes (Tiled's tile collision editor), which sightline
    /// does not keep.
    pub tile_shapes: bool,
}

impl TilesetDoc {
    /// How messages name it: `tileset "name"`, with its file when it has one of its own, the
    /// file a designer would open to mend it (`tileset "tiny" (tiny.tsx)`).
    fn label(&self) -> String {
        match self.source.as_deref().and_then(Path::file_name) {
            Some(file) => format!("tileset {:?} ({})", self.name, file.to_string_lossy()),
            None => format!("tileset {:?}", self.name),
        }
    }

    /// Whether it is `other` embedded in a map (its tiles' properties may have been edited
    /// since): the same name, image and grid of tiles.
    fn is_copy_of(&self, other: &TilesetDoc) -> bool {
        let grid = |t: &TilesetDoc| (t.tile_width, t.tile_height, t.columns, t.tile_count, t.spacing, t.margin);
        self.name == other.name
            && self.image.as_deref().map(normalize_path) == other.image.as_deref().map(normalize_path)
            && grid(self) == grid(other)
            && (self.image.is_some() || self.local_ids() == other.local_ids())
    }

    fn is_glyph_tileset(&self) -> bool {
        self.properties.get(GLYPH_TILESET_PROPERTY) == Some(&PropertyValue::Bool(true))
    }

    /// Local ids of its tiles: all of an image tileset, the listed ones of a collection.
    /// The GID after this tileset's last tile.
    pub(super) fn next_gid(&self) -> u32 {
        self.first_gid.saturating_add(self.local_ids().last().map_or(1, |&l| l.saturating_add(1)))
    }

    /// How many tiles it lists past the tiles its image holds, with anything of their own (a
    /// class, properties, an animation): Tiled keeps them when an image shrinks; sightline has
    /// no tile for them.
    pub(crate) fn tiles_past_image(&self) -> usize {
        if self.image.is_none() && !self.is_glyph_tileset() {
            return 0;
        }
        self.tiles.range(self.tile_count..).filter(|(_, t)| **t != TileDoc::default()).count()
    }

    fn local_ids(&self) -> Vec<u32> {
        if self.image.is_some() || self.is_glyph_tileset() {
            (0..self.tile_count).collect()
        } else {
            self.tiles.keys().copied().collect()
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct TileDoc {
    pub class: String,
    pub properties: Properties,
    /// Tiled's tile animation, frames by local tile id.
    pub animation: Vec<FrameDoc>,
    /// Tiled's tile `probability` (`None`: not given, 1).
    pub probability: Option<f32>,
}

/// A frame of a tile animation as Tiled writes it: a local tile id of the same tileset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FrameDoc {
    pub tile: u32,
    pub duration_ms: u32,
}

/// A tile layer: a dense rectangle at `origin` (cells), GIDs with their flip bits (Tiled's top four), 0 = empty.
#[derive(Clone, Debug)]
pub(super) struct TileLayerDoc {
    pub name: String,
    pub visible: bool,
    pub locked: bool,
    /// `None`: not given (fully opaque).
    pub opacity: Option<f32>,
    pub properties: Properties,
    /// Tiled's class of the layer.
    pub class: String,
    pub origin: (i32, i32),
    pub width: u32,
    pub height: u32,
    pub gids: Vec<u32>,
    /// Tiled's `offsetx`, `offsety` (pixels), `parallaxx`, `parallaxy` and `tintcolor`.
    pub offset: [f64; 2],
    pub parallax: [f64; 2],
    pub tint: Option<crate::core::model::tile::Rgba>,
}

impl TileLayerDoc {
    /// The layer as an infinite Tiled map's chunks of `size` cells (at least 1 a side),
    /// aligned to multiples of it as Tiled aligns them, each as its top-left cell and its GIDs
    /// row by row; chunks with no tile are left out, as Tiled leaves them out.
    pub(super) fn chunks(&self, [cw, ch]: [u32; 2]) -> Vec<(i64, i64, Vec<u32>)> {
        let (cw, ch) = (i64::from(cw.max(1)), i64::from(ch.max(1)));
        let (x0, y0) = (i64::from(self.origin.0), i64::from(self.origin.1));
        let (x1, y1) = (x0 + i64::from(self.width), y0 + i64::from(self.height));
        let gid = |x: i64, y: i64| {
            let inside = (x0..x1).contains(&x) && (y0..y1).contains(&y);
            if inside { self.gids[((y - y0) * i64::from(self.width) + (x - x0)) as usize] } else { 0 }
        };
        let mut chunks = Vec::new();
        let mut cy = y0.div_euclid(ch) * ch;
        while cy < y1 {
            let mut cx = x0.div_euclid(cw) * cw;
            while cx < x1 {
                let gids: Vec<u32> =
                    (cy..cy + ch).flat_map(|y| (cx..cx + cw).map(move |x| (x, y))).map(|(x, y)| gid(x, y)).collect();
                if gids.iter().any(|&g| g != 0) {
                    chunks.push((cx, cy, gids));
                }
                cx += cw;
            }
            cy += ch;
        }
        chunks
    }
}

impl Default for TileLayerDoc {
    fn default() -> Self {
        TileLayerDoc {
            name: String::new(),
            visible: true,
            locked: false,
            opacity: None,
            properties: Properties::new(),
            class: String::new(),
            origin: (0, 0),
            width: 0,
            height: 0,
            gids: Vec::new(),
            offset: [0.0, 0.0],
            parallax: [1.0, 1.0],
            tint: None,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub(super) struct ObjectDoc {
    pub id: u32,
    /// Index of its layer in `Doc::object_layers`.
    pub layer: usize,
    pub name: String,
    pub class: String,
    /// Pixels.
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub rotation: f64,
    pub shape: DocShape,
    pub properties: Properties,
    /// Tiled's `visible` set to 0 (not drawn).
    pub hidden: bool,
    /// Tiled's object `opacity` (`None`: opaque, as a file that leaves it out says).
    pub opacity: Option<f32>,
    /// The template the object is an instance of.
    pub template: Option<TemplateDoc>,
}

/// Gives an instance its template's name, class and size where its own are empty, as Tiled
/// reads an instance (`mapreader.cpp` and `varianttomapconverter.cpp` mark them set only when
/// not empty); `class` is the instance's own (`class`, else `type`), `None` when empty.
pub(super) fn take_unset_from_template(instance: &mut ObjectDoc, template: &ObjectDoc, class: Option<String>) {
    if instance.name.is_empty() {
        instance.name = template.name.clone();
    }
    instance.class = class.unwrap_or_else(|| template.class.clone());
    // Qt's empty size: either side not above zero.
    if !(instance.width > 0.0 && instance.height > 0.0) {
        (instance.width, instance.height) = (template.width, template.height);
    }
}

/// An object's template, as a Tiled document holds it.
#[derive(Clone, Debug)]
pub(super) struct TemplateDoc {
    /// Read: the template's file resolved against the map's folder. To write: the path the
    /// map's file names it by (relative to the map's folder).
    pub path: PathBuf,
    /// The template's object: the instance's values where it sets none (its id, `x` and `y`
    /// mean nothing).
    pub object: Box<ObjectDoc>,
}

/// Which of an instance's values a Tiled file writes beside its `template` (its id and
/// position are always written): those that differ from the template's.
#[derive(Debug)]
pub(super) struct Overrides {
    pub name: bool,
    /// `visible` and `opacity`, each on its own.
    pub visible: bool,
    pub opacity: bool,
    pub class: bool,
    /// `width` and `height`.
    pub size: bool,
    pub rotation: bool,
    /// The shape's element or key: a tile object's `gid`, a polygon's points, a text.
    pub shape: bool,
    /// The properties the instance adds or changes.
    pub properties: Properties,
}

impl ObjectDoc {
    /// Its opacity, from 0 to 1.
    pub(super) fn opacity(&self) -> f32 {
        self.opacity.unwrap_or(1.0)
    }

    /// What the object writes beside its template link, such that Tiled (and sightline)
    /// reading the instance over its template get the object back: `None` when it has no link,
    /// `Err` (why) when a file cannot say how it differs, and the object is written whole,
    /// without its link. Tiled takes an instance's name, type and size only when they are not
    /// empty (its map readers' `setPropertyChanged(NameProperty, !name.isEmpty())`), adds and
    /// changes properties but cannot remove one, and takes a shape from the instance's own
    /// element or key, which a rectangle does not have (and in Tiled JSON, sightline's reader
    /// would still see the template's key, such as `"ellipse": true`, beside the instance's).
    pub(super) fn overrides(&self) -> Option<Result<Overrides, String>> {
        let base = &self.template.as_ref()?.object;
        Some(self.overrides_of(base))
    }

    fn overrides_of(&self, base: &ObjectDoc) -> Result<Overrides, String> {
        let lacks: Vec<&str> =
            base.properties.keys().filter(|k| !self.properties.contains_key(*k)).map(String::as_str).collect();
        if !lacks.is_empty() {
            let noun = if lacks.len() == 1 { "property" } else { "properties" };
            return Err(format!("it lacks its template's {noun} {}", super::listed_names(&lacks)));
        }
        if self.name.is_empty() && !base.name.is_empty() {
            return Err("its name is empty where its template's is not".into());
        }
        if self.class.is_empty() && !base.class.is_empty() {
            return Err("its type is empty where its template's is not".into());
        }
        let size = [self.width, self.height] != [base.width, base.height];
        let boxed = matches!(
            self.shape,
            DocShape::Rectangle | DocShape::Ellipse | DocShape::Capsule | DocShape::Text(_) | DocShape::Tile(_)
        );
        if size && boxed && (self.width <= 0.0 || self.height <= 0.0) {
            return Err("its width or height is 0 where its template's are not".into());
        }
        let shape = match (&self.shape, &base.shape) {
            (shape, base_shape) if shape == base_shape => false,
            // A GID makes a tile object of any shape, in both formats.
            (DocShape::Tile(_), _) => true,
            (shape, base_shape) if std::mem::discriminant(shape) == std::mem::discriminant(base_shape) => true,
            // Over a rectangle (which has no element or key), any other shape says itself.
            (_, DocShape::Rectangle) => true,
            _ => return Err("its shape is not of its template's kind".into()),
        };
        Ok(Overrides {
            name: self.name != base.name,
            visible: self.hidden != base.hidden,
            opacity: self.opacity() != base.opacity(),
            class: self.class != base.class,
            size,
            rotation: self.rotation != base.rotation,
            shape,
            properties: self
                .properties
                .iter()
                .filter(|(k, v)| base.properties.get(*k) != Some(*v))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        })
    }
}

/// An object's geometry as Tiled files hold it (its size is `ObjectDoc`'s `width`, `height`).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) enum DocShape {
    Point,
    /// A rectangle (Tiled's default shape).
    #[default]
    Rectangle,
    Ellipse,
    Capsule,
    Text(Box<crate::core::model::object::ObjectText>),
    Polygon(Vec<[f64; 2]>),
    Polyline(Vec<[f64; 2]>),
    /// A tile object: its GID with flip bits (anchored at its bottom-left corner).
    Tile(u32),
}

fn property_error(what: &str, key: &str, expected: &str, found: &PropertyValue) -> MapError {
    let shown = match found {
        PropertyValue::String(s) | PropertyValue::File(s) => format!("{s:?}"),
        other => other.to_string(),
    };
    MapError::invalid(format!("{what}: property `{key}` must be {expected}, found {} {shown}", found.type_name()))
}

// The rule readers take an enum value (a designer may type a rule property with an enum of
// their Tiled project) as the plain string or int it stores.

fn bool_property(props: &Properties, what: &str, key: &str) -> Result<Option<bool>, MapError> {
    match props.get(key).map(PropertyValue::without_enum_type).as_deref() {
        None => Ok(None),
        Some(PropertyValue::Bool(b)) => Ok(Some(*b)),
        Some(PropertyValue::String(s)) if s == "true" || s == "false" => Ok(Some(s == "true")),
        Some(other) => Err(property_error(what, key, "a bool", other)),
    }
}

fn number_property(props: &Properties, what: &str, key: &str) -> Result<Option<f64>, MapError> {
    props.get(key).map(|v| v.as_number().ok_or_else(|| property_error(what, key, "a number", v))).transpose()
}

fn string_property<'a>(props: &'a Properties, what: &str, key: &str) -> Result<Option<&'a str>, MapError> {
    props.get(key).map(|v| v.as_text().ok_or_else(|| property_error(what, key, "a string", v))).transpose()
}

/// A colour as text (`#rrggbb`) or as Tiled's colour type, whose alpha the glyph has no use for.
fn color_property(props: &Properties, what: &str, key: &str) -> Result<Option<Rgb>, MapError> {
    if let Some(PropertyValue::Color(Some(c))) = props.get(key) {
        return Ok(Some(Rgb(c.0, c.1, c.2)));
    }
    match string_property(props, what, key)? {
        None => Ok(None),
        Some(s) => Rgb::from_hex(s)
            .map(Some)
            .ok_or_else(|| property_error(what, key, "a colour #rrggbb", &PropertyValue::String(s.into()))),
    }
}

fn default_tile_name(tileset: &str, local: u32) -> String {
    format!("{tileset} {local}")
}

/// A colour of its own for each tile, so placeholder glyphs tell tiles apart.
fn placeholder_color(tileset: usize, local: u32) -> Rgb {
    let mut h = (tileset as u32).wrapping_mul(0x9E37_79B9) ^ local.wrapping_mul(0x85EB_CA6B);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    Rgb(96 + (h & 0x7f) as u8, 96 + ((h >> 8) & 0x7f) as u8, 96 + ((h >> 16) & 0x7f) as u8)
}

fn default_glyph(opaque: bool, walkable: bool, door: Option<bool>, fg: Rgb) -> Glyph {
    Glyph::implied(opaque, walkable, door, fg)
}

struct Resolved {
    /// Per tileset: local id → kind.
    kind_of: Vec<HashMap<u32, TileId>>,
}

impl Resolved {
    fn kind(&self, doc: &Doc, gid: u32) -> Result<TileId, MapError> {
        if gid == 0 {
            return Ok(0);
        }
        // The tileset with the largest first GID not above `gid`.
        let ts = doc
            .tilesets
            .iter()
            .enumerate()
            .filter(|(_, t)| t.first_gid <= gid)
            .max_by_key(|(_, t)| t.first_gid)
            .map(|(i, _)| i)
            .ok_or(MapErrorKind::UnknownGid(gid))?;
        let tileset = &doc.tilesets[ts];
        let local = gid - tileset.first_gid;
        self.kind_of[ts].get(&local).copied().ok_or_else(|| {
            let first = tileset.first_gid;
            let held = match self.kind_of[ts].len() {
                0 => "no tiles".to_owned(),
                // A collection of images numbers its tiles as it likes.
                _ if tileset.image.is_none() => format!("no tile {local}"),
                1 => format!("GID {first} only"),
                n => format!("GIDs {first} to {}", u64::from(first) + n as u64 - 1),
            };
            let why = format!("the tileset it would be in, {}, holds {held}", tileset.label());
            MapErrorKind::GidPastTileset { gid, why }.into()
        })
    }
}

/// Turns a Tiled document into a map (see the module doc for the rules it applies).
pub(super) fn build_map(mut doc: Doc) -> Result<super::Loaded, MapError> {
    let mut warnings = std::mem::take(&mut doc.warnings);
    for ts in &mut doc.tilesets {
        // Wang sets live with a tileset image (a sprite sheet); a glyph tileset or a collection
        // of images has no sheet to keep them.
        if !ts.wang_sets.is_empty() && (ts.image.is_none() || ts.is_glyph_tileset()) {
            ts.wang_sets.clear();
            doc.dropped.insert(Dropped::WangSets);
        }
        if ts.offset != [0, 0] && (ts.image.is_none() || ts.is_glyph_tileset()) {
            doc.dropped.insert(Dropped::TileOffsets);
        }
        let label = ts.label();
        for set in &mut ts.wang_sets {
            let dropped = set.keep_tiles_below(ts.tile_count);
            if dropped > 0 {
                warnings.push(format!(
                    "{label}, Wang set {:?}: {dropped} of its tiles are not tiles of the tileset; they are left out",
                    set.name
                ));
            }
        }
    }
    // The rules read an enum-typed rule property by its value (see `bool_property`), and a
    // save writes what the rules read, as a plain value (but for a sheet's tileset file, which
    // a save refers to while it is unchanged).
    let kept_in_file = |t: &TilesetDoc| t.source.is_some() && t.image.is_some() && !t.is_glyph_tileset();
    // Tiles past an image's: their class, properties and animation go.
    for ts in &doc.tilesets {
        let beyond = ts.tiles_past_image();
        if beyond > 0 {
            warnings.push(format!(
                "{}: {beyond} of its tiles lie past the {} its image holds; their class, properties and animations \
                 are left out",
                ts.label(),
                ts.tile_count
            ));
            if !kept_in_file(ts) {
                doc.dropped.insert(Dropped::TilesPastImage);
            }
        }
    }
    // Neither are a tile's collision shapes, nor a collection's images (its tiles become glyph
    // tiles), but in a tileset file a save refers to.
    if doc.tilesets.iter().any(|t| t.tile_shapes && !kept_in_file(t)) {
        doc.dropped.insert(Dropped::TileShapes);
    }
    if doc.tilesets.iter().any(|t| t.image.is_none() && !t.is_glyph_tileset() && !t.local_ids().is_empty()) {
        doc.dropped.insert(Dropped::CollectionImages);
    }
    if doc.tilesets.iter().filter(|t| !kept_in_file(t)).flat_map(|t| t.tiles.values()).any(|tile| {
        RULE_PROPERTIES
            .iter()
            .chain(LOOK_PROPERTIES.iter())
            .any(|k| matches!(tile.properties.get(*k), Some(PropertyValue::Enum { .. })))
    }) {
        doc.dropped.insert(Dropped::RuleEnumTypes);
    }
    let mut not_kept: Vec<&'static str> = doc.dropped.iter().map(|d| d.label()).collect();
    if !not_kept.is_empty() {
        warnings.push(format!("sightline does not keep this map's {}: saving the map drops them", not_kept.join(", ")));
    }
    let total: u64 = doc.tilesets.iter().map(|t| t.local_ids().len() as u64).sum();
    if total > MAX_TILES {
        return Err(MapError::invalid(format!(
            "the tilesets hold {total} tiles; sightline supports at most {MAX_TILES}"
        )));
    }
    let written_by_us = doc.properties.remove(WRITER_PROPERTY).is_some();
    // Doors and costs alone do not say where the walls are: only `opaque`/`walkable` do.
    let has_rule_properties = doc
        .tilesets
        .iter()
        .any(|t| t.tiles.values().any(|tile| ["opaque", "walkable"].iter().any(|k| tile.properties.contains_key(*k))));
    let has_collision_layers = doc.layers.iter().any(|l| l.properties.contains_key("collision"));

    // Tile kinds: every tile of every tileset, in tileset order.
    let mut tiles = vec![TileKind::empty()];
    let mut sheets = Vec::new();
    let mut kind_of = Vec::with_capacity(doc.tilesets.len());
    let mut pending_doors: Vec<(TileId, usize, PropertyValue, String)> = Vec::new();
    for (ti, ts) in doc.tilesets.iter().enumerate() {
        let glyph_tileset = ts.is_glyph_tileset();
        let sheet = match (&ts.image, glyph_tileset) {
            (Some(image), false) => {
                if !image.exists() {
                    warnings.push(format!(
                        "{}: image {} is missing; its tiles are drawn as glyphs",
                        ts.label(),
                        image.display()
                    ));
                }
                sheets.push(SpriteSheet {
                    name: ts.name.clone(),
                    class: ts.class.clone(),
                    image: image.clone(),
                    tile_width: ts.tile_width,
                    tile_height: ts.tile_height,
                    columns: ts.columns,
                    tile_count: ts.tile_count,
                    spacing: ts.spacing,
                    margin: ts.margin,
                    transparent: ts.transparent,
                    offset: ts.offset,
                    wang_sets: ts.wang_sets.clone(),
                    drawing: ts.drawing,
                    properties: ts.properties.clone(),
                    file: ts.source.as_deref().map(|p| TilesetFile { path: normalize_path(p), as_read: None }),
                });
                Some((sheets.len() - 1) as u16)
            }
            (None, false) => {
                warnings.push(format!("{} is a collection of images; its tiles are drawn as glyphs", ts.label()));
                None
            }
            _ => None,
        };
        let mut local_to_kind = HashMap::new();
        let empty_tile = TileDoc::default();
        for local in ts.local_ids() {
            let tile = ts.tiles.get(&local).unwrap_or(&empty_tile);
            let what = format!("{}, tile {local}", ts.label());
            let p = &tile.properties;
            let opaque = bool_property(p, &what, "opaque")?.unwrap_or(false);
            let door = match p.get("door").map(PropertyValue::without_enum_type).as_deref() {
                None => None,
                Some(PropertyValue::Bool(false)) => None,
                Some(PropertyValue::Bool(true)) => Some(false),
                Some(PropertyValue::String(s)) if s == "closed" || s == "true" => Some(false),
                Some(PropertyValue::String(s)) if s == "false" => None,
                Some(PropertyValue::String(s)) if s == "open" => Some(true),
                Some(other) => return Err(property_error(&what, "door", "\"open\" or \"closed\"", other)),
            };
            let walkable = bool_property(p, &what, "walkable")?.unwrap_or(door != Some(false));
            let cost = number_property(p, &what, "cost")?.unwrap_or(1.0);
            if !cost.is_finite() || cost < 0.0 || cost > f64::from(f32::MAX) {
                return Err(MapError::invalid(format!("{what}: property `cost` is {cost}; it must be a number ≥ 0")));
            }
            // Checked here too (the map checks it again), to name the tileset and its file.
            if let Some(chance) = tile.probability.filter(|p| !p.is_finite() || *p < 0.0) {
                return Err(MapError::invalid(format!(
                    "{what} has probability {chance}; it must be a finite number ≥ 0"
                )));
            }
            let name = match string_property(p, &what, "name")? {
                Some(n) => n.to_owned(),
                None if !tile.class.is_empty() => tile.class.clone(),
                None => default_tile_name(&ts.name, local),
            };
            let fallback = default_glyph(opaque, walkable, door, placeholder_color(ti, local));
            let ch = match string_property(p, &what, "glyph")? {
                None => fallback.ch,
                Some(s) => {
                    let mut chars = s.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) => c,
                        _ => {
                            return Err(property_error(
                                &what,
                                "glyph",
                                "one character",
                                &PropertyValue::String(s.into()),
                            ));
                        }
                    }
                }
            };
            let glyph = Glyph {
                ch,
                fg: color_property(p, &what, "fg")?.unwrap_or(fallback.fg),
                bg: color_property(p, &what, "bg")?.unwrap_or(fallback.bg),
            };
            let id = tiles.len() as TileId;
            if let (Some(_), Some(t)) = (door, p.get("toggles")) {
                pending_doors.push((id, ti, t.without_enum_type().into_owned(), what.clone()));
            }
            let mut properties = p.clone();
            for k in RULE_PROPERTIES.iter().chain(LOOK_PROPERTIES.iter()) {
                properties.remove(*k);
            }
            tiles.push(TileKind {
                name,
                class: tile.class.clone(),
                glyph,
                sprite: sheet.map(|s| Sprite { sheet: s, index: local }),
                opaque,
                walkable,
                // A door without a counterpart toggles to itself until resolved below.
                door: door.map(|open| Door { open, toggles_to: id }),
                cost: cost as f32,
                properties,
                animation: Vec::new(),
                probability: tile.probability.unwrap_or(1.0),
            });
            local_to_kind.insert(local, id);
        }
        kind_of.push(local_to_kind);
    }
    let resolved = Resolved { kind_of };
    for (id, ts, toggles, what) in pending_doors {
        let target = match &toggles {
            PropertyValue::Int(local) => u32::try_from(*local).ok().and_then(|l| resolved.kind_of[ts].get(&l).copied()),
            PropertyValue::String(s) => s.rsplit_once('#').and_then(|(name, local)| {
                let ti = doc.tilesets.iter().position(|t| t.name == name)?;
                resolved.kind_of[ti].get(&local.parse().ok()?).copied()
            }),
            _ => None,
        }
        .ok_or_else(|| {
            MapError::invalid(format!(
                "{what}: property `toggles` = {toggles:?} names no tile (write a local tile id, or \"Tileset#id\")"
            ))
        })?;
        if let Some(door) = &mut tiles[usize::from(id)].door {
            door.toggles_to = target;
        }
    }
    // Animations: frames are tiles of the animated tile's own tileset.
    for (ti, ts) in doc.tilesets.iter().enumerate() {
        for (local, tile) in ts.tiles.iter().filter(|(_, t)| !t.animation.is_empty()) {
            let Some(&id) = resolved.kind_of[ti].get(local) else { continue };
            let mut frames = Vec::with_capacity(tile.animation.len());
            for f in &tile.animation {
                match resolved.kind_of[ti].get(&f.tile) {
                    Some(&frame) => frames.push(Frame { tile: frame, duration_ms: f.duration_ms }),
                    None => warnings.push(format!(
                        "{}, tile {local}: an animation frame shows tile {}, which the tileset does not have; \
                         the frame is left out",
                        ts.label(),
                        f.tile
                    )),
                }
            }
            tiles[usize::from(id)].animation = frames;
        }
    }

    // The rectangle the map covers: the map size, or for an infinite map the layers' union.
    let (origin, width, height) = if doc.infinite {
        let mut bounds: Option<(i64, i64, i64, i64)> = None;
        for l in doc.layers.iter().filter(|l| l.width > 0 && l.height > 0) {
            let (x0, y0) = (i64::from(l.origin.0), i64::from(l.origin.1));
            let (x1, y1) = (x0 + i64::from(l.width), y0 + i64::from(l.height));
            bounds = Some(match bounds {
                None => (x0, y0, x1, y1),
                Some((a, b, c, d)) => (a.min(x0), b.min(y0), c.max(x1), d.max(y1)),
            });
        }
        // Its objects stand anywhere: the rectangle takes in theirs too, but for one so far out
        // that the map would be larger than a map can be (left out below, with a warning).
        for o in &doc.objects {
            let [cx, cy] = object_tiled_cell(&doc, o);
            if !(cx.is_finite() && cy.is_finite() && cx.abs() < 1e9 && cy.abs() < 1e9) {
                continue;
            }
            let (x, y) = (cx as i64, cy as i64);
            let (a, b, c, d) = bounds.unwrap_or((x, y, x + 1, y + 1));
            let grown = (a.min(x), b.min(y), c.max(x + 1), d.max(y + 1));
            let side = i64::from(map::MAX_MAP_SIDE);
            if grown.2 - grown.0 <= side && grown.3 - grown.1 <= side {
                bounds = Some(grown);
            }
        }
        let (x0, y0, x1, y1) = bounds.unwrap_or((0, 0, 1, 1));
        let (w, h) = map::check_dimensions(x1 - x0, y1 - y0)?;
        if (x0, y0) != (0, 0) {
            warnings.push(format!(
                "the map is infinite: its tiles and objects cover {w}×{h} cells from Tiled's cell {x0}, {y0}, which \
                 is cell 0, 0 here; a Tiled save writes it infinite again, each tile and object where it was"
            ));
        }
        ((x0, y0), w, h)
    } else {
        let (w, h) = map::check_dimensions(doc.width.into(), doc.height.into())?;
        ((0, 0), w, h)
    };
    let len = width as usize * height as usize;
    // An infinite map's layers each grow to the bounds of all of them.
    map::count_layer_cells(&mut 0, doc.layers.len() as u64 * len as u64)?;

    let fallback = !has_rule_properties && !has_collision_layers && !written_by_us;
    let mut layers = Vec::with_capacity(doc.layers.len());
    let mut fallback_collision = Vec::new();
    for l in &doc.layers {
        let collision = if fallback {
            let lower = l.name.to_lowercase();
            ["wall", "collision", "collide", "solid", "obstacle", "block"].iter().any(|k| lower.contains(k))
        } else {
            bool_property(&l.properties, &format!("layer {:?}", l.name), "collision")?.unwrap_or(false)
        };
        if fallback && collision {
            fallback_collision.push(l.name.as_str());
        }
        if !doc.infinite && (l.width != width || l.height != height || l.gids.len() != len) {
            return Err(
                MapError::new(MapErrorKind::DataLength { expected: len, found: l.gids.len() }).in_layer(&l.name)
            );
        }
        let mut layer = Layer::filled(&l.name, len, 0);
        for ly in 0..l.height as i64 {
            for lx in 0..l.width as i64 {
                let flagged = l.gids[(ly * i64::from(l.width) + lx) as usize];
                let gid = flagged & !Flip::GID_MASK;
                if gid == 0 {
                    continue;
                }
                let x = i64::from(l.origin.0) + lx - origin.0;
                let y = i64::from(l.origin.1) + ly - origin.1;
                let tile = resolved.kind(&doc, gid).map_err(|e| e.in_layer(&l.name))?;
                layer.set((y * i64::from(width) + x) as usize, tile, Flip::from_gid(flagged));
            }
        }
        layer.visible = l.visible;
        layer.locked = l.locked;
        layer.collision = collision;
        layer.opacity = l.opacity.unwrap_or(1.0);
        (layer.offset, layer.parallax, layer.tint) = (l.offset, l.parallax, l.tint);
        layer.properties = l.properties.clone();
        layer.properties.remove("collision");
        layer.class = l.class.clone();
        layers.push(layer);
    }
    match fallback_collision[..] {
        [] => {}
        [name] => warnings.push(format!(
            "no tile has opaque/walkable properties: layer {name:?} is taken as a collision layer (its tiles block \
             sight and movement)"
        )),
        _ => warnings.push(format!(
            "no tile has opaque/walkable properties: layers {} are taken as collision layers (their tiles block \
             sight and movement)",
            super::listed_names(&fallback_collision)
        )),
    }
    if fallback && !layers.iter().any(|l| l.collision) && !doc.layers.is_empty() {
        warnings.push(
            "no tile has opaque/walkable properties and no layer is named like walls or collision: \
             every tile is transparent and walkable"
                .into(),
        );
    }

    let (tw, th) = (f64::from(doc.tile_width.max(1)), f64::from(doc.tile_height.max(1)));
    let mut objects = Vec::new();
    // An object repeating an earlier one's id gets a new one (`Map::from_parts`); say so.
    let mut seen = std::collections::BTreeSet::new();
    let repeated: std::collections::BTreeSet<u32> =
        doc.objects.iter().map(|o| o.id).filter(|&id| id != 0 && !seen.insert(id)).collect();
    if !repeated.is_empty() {
        let ids: Vec<String> = repeated.iter().map(u32::to_string).collect();
        warnings.push(if let [id] = ids.as_slice() {
            format!(
                "object id {id} repeats: the later object gets a new id, and an `object` property naming {id} means the first"
            )
        } else {
            format!(
                "object ids {} repeat: the later objects get new ids, and an `object` property naming one means the first",
                ids.join(", ")
            )
        });
    }
    for o in &doc.objects {
        let [cx, cy] = object_tiled_cell(&doc, o);
        let (cell_x, cell_y) = (cx - origin.0 as f64, cy - origin.1 as f64);
        let label = if o.name.is_empty() { format!("object {}", o.id) } else { format!("object {:?}", o.name) };
        if !(cell_x.is_finite() && cell_y.is_finite() && cell_x >= 0.0 && cell_y >= 0.0)
            || cell_x >= f64::from(width)
            || cell_y >= f64::from(height)
        {
            warnings.push(format!("{label} lies outside the map and is left out"));
            // A save would drop it: asked first.
            let off_map = Dropped::ObjectsOffMap.label();
            if !not_kept.contains(&off_map) {
                not_kept.push(off_map);
            }
            continue;
        }
        let (kind, properties, kind_of_shape, top_left) = object_values(o, &doc, &resolved, &label, &mut warnings)?;
        // The shape hangs from the object's cell, as the file placed it.
        let cell_px = ((cell_x + origin.0 as f64) * tw, (cell_y + origin.1 as f64) * th);
        let offset = [top_left[0] - cell_px.0, top_left[1] - cell_px.1];
        let shape = ObjectShape { offset, rotation: o.rotation, kind: kind_of_shape };
        if !shape.is_finite() {
            warnings.push(format!("{label} has a shape with a number too large to hold and is left out"));
            continue;
        }
        let shape = Some(shape).filter(|s| !s.is_marker([doc.tile_width, doc.tile_height]));
        let template = match &o.template {
            Some(t) => {
                let label = format!("{label}'s template {}", t.path.display());
                let (kind, properties, kind_of_shape, top_left) =
                    object_values(&t.object, &doc, &resolved, &label, &mut warnings)?;
                // A template has no place: its shape hangs from the cell at the origin.
                let shape = ObjectShape { offset: top_left, rotation: t.object.rotation, kind: kind_of_shape };
                let object = MapObject {
                    name: t.object.name.clone(),
                    properties,
                    shape: Some(shape),
                    visible: !t.object.hidden,
                    opacity: t.object.opacity().clamp(0.0, 1.0),
                    ..MapObject::new(kind, Cell::new(0, 0))
                };
                Some(ObjectTemplate { path: t.path.clone(), object: Box::new(object) })
            }
            None => None,
        };
        objects.push(MapObject {
            id: o.id,
            layer: o.layer,
            kind,
            name: o.name.clone(),
            cell: Cell::new(cell_x as i32, cell_y as i32),
            properties,
            shape,
            visible: !o.hidden,
            opacity: o.opacity().clamp(0.0, 1.0),
            template,
        });
    }

    let mut map =
        Map::from_parts(width, height, tiles, layers, doc.object_layers, objects, sheets, doc.next_object_id)?;
    map.groups = doc.groups;
    map.validate()?;
    map.properties = doc.properties;
    map.class = doc.class;
    map.background = doc.background;
    map.tiled = doc.settings;
    map.tiled.infinite_origin = match (doc.infinite, i32::try_from(origin.0), i32::try_from(origin.1)) {
        (false, ..) => None,
        (true, Ok(x), Ok(y)) => Some([x, y]),
        (true, ..) => {
            return Err(MapError::invalid(format!(
                "the map's tiles start at cell {}, {}, too far out",
                origin.0, origin.1
            )));
        }
    };
    map.tiled_editor = doc.editor;
    map.tile_size = [doc.tile_width.max(1), doc.tile_height.max(1)];
    Ok(super::Loaded { map, warnings, not_kept })
}

/// A Tiled object's kind, properties (less those the kind holds) and shape as the map keeps
/// them, with the point its shape hangs from (its `x`, `y`, but for a tile object of no tile,
/// kept as a rectangle: its box's top-left corner); `label` names it in warnings and errors.
fn object_values(
    o: &ObjectDoc,
    doc: &Doc,
    resolved: &Resolved,
    label: &str,
    warnings: &mut Vec<String>,
) -> Result<(ObjectKind, Properties, ShapeKind, [f64; 2]), MapError> {
    // The kind, and its fields from the properties, by the editor's one rule.
    let named = MapObject {
        name: o.name.clone(),
        properties: o.properties.clone(),
        ..MapObject::new(ObjectKind::Other(String::new()), Cell::new(0, 0))
    };
    let read = named.reclassed(&o.class).map_err(|e| property_error(label, e.key, e.expected, &e.found))?;
    let (kind, properties) = (read.kind, read.properties);
    let (w, h) = (o.width, o.height);
    // A tile object hangs from its anchor (its bottom-left corner unless its tileset's alignment
    // says otherwise), a rectangle from its top-left corner.
    let mut top_left = [o.x, o.y];
    let kind_of_shape = match &o.shape {
        DocShape::Point => ShapeKind::Point,
        DocShape::Rectangle => ShapeKind::Rectangle { width: w, height: h },
        DocShape::Ellipse => ShapeKind::Ellipse { width: w, height: h },
        DocShape::Capsule => ShapeKind::Capsule { width: w, height: h },
        DocShape::Text(text) => ShapeKind::Text { width: w, height: h, text: text.clone() },
        DocShape::Polygon(points) => ShapeKind::Polygon(points.clone()),
        DocShape::Polyline(points) => ShapeKind::Polyline(points.clone()),
        DocShape::Tile(gid) => match resolved.kind(doc, gid & !Flip::GID_MASK) {
            Ok(tile) => ShapeKind::Tile { tile, flip: Flip::from_gid(*gid), width: w, height: h },
            Err(_) => {
                warnings.push(format!(
                    "{label} shows tile GID {}, which no tileset has; it is kept as a rectangle",
                    gid & !Flip::GID_MASK
                ));
                // The same box, so the same cell under its centre.
                let [ax, ay] = tile_object_anchor(doc, *gid);
                top_left = [o.x - ax * w, o.y - ay * h];
                ShapeKind::Rectangle { width: w, height: h }
            }
        },
    };
    Ok((kind, properties, kind_of_shape, top_left))
}

/// Where on its image a tile object of `gid` stands at its `x`, `y`, as a fraction of its box:
/// its tileset's object alignment (bottom left unless set). A GID past its tileset's tiles
/// takes that tileset's.
/// The Tiled cell object `o` stands on: the one under its unturned centre (a point's, polygon's
/// or path's position), in the file's cells, not yet moved by an infinite map's origin.
fn object_tiled_cell(doc: &Doc, o: &ObjectDoc) -> [f64; 2] {
    // A tile object's position is where its tileset's alignment says on its image (bottom
    // left unless set), a rectangle's its top-left corner.
    let [ax, ay] = match o.shape {
        DocShape::Tile(gid) => tile_object_anchor(doc, gid),
        _ => [0.0, 0.0],
    };
    // A point, polygon or path has no box (Tiled ignores a width or height one gives): it
    // stands where its `x`, `y` is.
    let size = match o.shape {
        DocShape::Point | DocShape::Polygon(_) | DocShape::Polyline(_) => [0.0, 0.0],
        _ => [o.width, o.height],
    };
    let [cx, cy] = crate::core::model::object::box_centre([o.x, o.y], size, [ax, ay]);
    let (tw, th) = (f64::from(doc.tile_width.max(1)), f64::from(doc.tile_height.max(1)));
    [(cx / tw).floor(), (cy / th).floor()]
}

fn tile_object_anchor(doc: &Doc, gid: u32) -> [f64; 2] {
    doc.tilesets
        .iter()
        .filter(|ts| ts.first_gid <= gid & !Flip::GID_MASK)
        .max_by_key(|ts| ts.first_gid)
        .map_or([0.0, 1.0], |ts| ts.drawing.object_alignment.anchor())
}

/// What a writer produces: the text, extra files to write beside it, and what it could not keep.
pub(super) struct Written {
    pub text: String,
    pub extra_files: Vec<(PathBuf, Vec<u8>)>,
    /// What the file does not keep of the map.
    pub warnings: Vec<String>,
    /// What the save says that loses nothing (see [`Placement::notes`]).
    pub notes: Vec<String>,
}

/// Where each kind goes on export: (tileset index in the doc, local id).
pub(super) struct Placement {
    pub doc: Doc,
    pub glyph_image: Option<(PathBuf, Result<Vec<u8>, MapError>)>,
    /// What a save says that loses nothing of the map: a tileset written into the map rather
    /// than referred to in its file ([`tileset_file_links`]).
    pub notes: Vec<String>,
}

/// A map's tile kinds as Tiled tilesets: each sheet's, then a glyph tileset for the kinds
/// without a sprite of their own.
struct TilesetsExport {
    tilesets: Vec<TilesetDoc>,
    /// Per tile kind: its tileset's index in `tilesets` and its local id there.
    placement: Vec<(usize, u32)>,
    /// Per sheet: its tileset's index in `tilesets`.
    tileset_of_sheet: Vec<usize>,
    glyph_image: Option<(PathBuf, Result<Vec<u8>, MapError>)>,
    warnings: Vec<String>,
}

/// Turns a map's tile kinds into tilesets, image paths relative to `dir`; the glyph tileset's
/// image is drawn when `glyph_image_path` says where it goes.
fn export_tilesets(map: &Map, dir: &Path, glyph_image_path: Option<&Path>) -> TilesetsExport {
    let mut tilesets: Vec<TilesetDoc> = Vec::new();
    let mut warnings = Vec::new();
    // Assign each kind a tileset: its sprite sheet, or the glyph tileset.
    enum Group {
        Sheet(u16),
        Glyphs,
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut group_of_sheet: HashMap<u16, usize> = HashMap::new();
    let mut glyph_group: Option<usize> = None;
    let mut placement = vec![(usize::MAX, 0u32); map.tiles.len()];
    let mut claimed: HashMap<(u16, u32), TileId> = HashMap::new();
    let mut glyph_kinds: Vec<usize> = Vec::new();
    for (id, t) in map.tiles.iter().enumerate().skip(1) {
        match t.sprite {
            Some(s)
                if claimed.insert((s.sheet, s.index), id as TileId).is_none()
                    && s.index < map.sheets[usize::from(s.sheet)].tile_count =>
            {
                let g = *group_of_sheet.entry(s.sheet).or_insert_with(|| {
                    groups.push(Group::Sheet(s.sheet));
                    groups.len() - 1
                });
                placement[id] = (g, s.index);
            }
            _ => {
                let g = *glyph_group.get_or_insert_with(|| {
                    groups.push(Group::Glyphs);
                    groups.len() - 1
                });
                placement[id] = (g, glyph_kinds.len() as u32);
                glyph_kinds.push(id);
                if t.sprite.is_some() {
                    warnings.push(format!(
                        "tile {:?} shares its sprite with another tile; it is written as a glyph tile",
                        t.name
                    ));
                }
            }
        }
    }
    // Sheets no kind uses still belong to the map.
    for s in 0..map.sheets.len() as u16 {
        group_of_sheet.entry(s).or_insert_with(|| {
            groups.push(Group::Sheet(s));
            groups.len() - 1
        });
    }
    let mut glyph_image = None;
    let mut first_gid = 1u32;
    for group in &groups {
        let mut ts = match group {
            Group::Sheet(s) => {
                let sheet = &map.sheets[usize::from(*s)];
                TilesetDoc {
                    name: sheet.name.clone(),
                    class: sheet.class.clone(),
                    image: Some(super::relative_path(&sheet.image, dir)),
                    tile_width: sheet.tile_width,
                    tile_height: sheet.tile_height,
                    columns: sheet.columns,
                    tile_count: sheet.tile_count,
                    spacing: sheet.spacing,
                    margin: sheet.margin,
                    transparent: sheet.transparent,
                    offset: sheet.offset,
                    wang_sets: sheet.wang_sets.clone(),
                    drawing: sheet.drawing,
                    properties: sheet.properties.clone(),
                    ..TilesetDoc::default()
                }
            }
            Group::Glyphs => {
                let [tw, th] = map.tile_size;
                let columns = (glyph_kinds.len() as u32).clamp(1, 16);
                if let Some(path) = glyph_image_path {
                    let colors: Vec<Glyph> = glyph_kinds.iter().map(|&k| map.tiles[k].glyph).collect();
                    glyph_image = Some((path.to_path_buf(), glyph_tileset_png(&colors, tw, th, columns)));
                }
                let mut properties = Properties::new();
                properties.insert(GLYPH_TILESET_PROPERTY.into(), PropertyValue::Bool(true));
                TilesetDoc {
                    name: GLYPH_TILESET_NAME.into(),
                    image: glyph_image_path.map(|p| PathBuf::from(p.file_name().unwrap_or_default())),
                    tile_width: tw,
                    tile_height: th,
                    columns,
                    tile_count: glyph_kinds.len() as u32,
                    properties,
                    ..TilesetDoc::default()
                }
            }
        };
        ts.first_gid = first_gid;
        first_gid += ts.tile_count.max(1);
        tilesets.push(ts);
    }
    // Tile properties: only what import would not derive by itself.
    for (id, t) in map.tiles.iter().enumerate().skip(1) {
        let (g, local) = placement[id];
        let ts_name = tilesets[g].name.clone();
        let mut p = t.properties.clone();
        if t.opaque {
            p.insert("opaque".into(), PropertyValue::Bool(true));
        }
        let walkable_default = t.door.is_none_or(|d| d.open);
        if t.walkable != walkable_default {
            p.insert("walkable".into(), PropertyValue::Bool(t.walkable));
        }
        if t.cost != 1.0 {
            p.insert("cost".into(), PropertyValue::Float(f64::from(t.cost)));
        }
        if let Some(d) = t.door {
            p.insert("door".into(), PropertyValue::String(if d.open { "open" } else { "closed" }.into()));
            let (tg, tl) = placement[usize::from(d.toggles_to)];
            let toggles = if tg == g {
                PropertyValue::Int(i64::from(tl))
            } else {
                PropertyValue::String(format!("{}#{tl}", tilesets[tg].name))
            };
            p.insert("toggles".into(), toggles);
        }
        // A tile without a `name` property is named after its class, else after its place.
        let implied_name = if t.class.is_empty() { default_tile_name(&ts_name, local) } else { t.class.clone() };
        if t.name != implied_name {
            p.insert("name".into(), PropertyValue::String(t.name.clone()));
        }
        let fallback = default_glyph(t.opaque, t.walkable, t.door.map(|d| d.open), placeholder_color(g, local));
        if t.glyph.ch != fallback.ch {
            p.insert("glyph".into(), PropertyValue::String(t.glyph.ch.to_string()));
        }
        if t.glyph.fg != fallback.fg {
            p.insert("fg".into(), PropertyValue::String(t.glyph.fg.to_hex()));
        }
        if t.glyph.bg != fallback.bg {
            p.insert("bg".into(), PropertyValue::String(t.glyph.bg.to_hex()));
        }
        // Tiled animates a tile with frames of its own tileset only.
        let animation: Vec<FrameDoc> = t
            .animation
            .iter()
            .filter_map(|f| {
                let &(fg, fl) = placement.get(usize::from(f.tile))?;
                (fg == g).then_some(FrameDoc { tile: fl, duration_ms: f.duration_ms })
            })
            .collect();
        if animation.len() != t.animation.len() {
            warnings.push(format!(
                "tile {:?}: {} of its animation frames are tiles of another tileset, which Tiled cannot animate; \
                 they are left out",
                t.name,
                t.animation.len() - animation.len()
            ));
        }
        let probability = (t.probability != 1.0).then_some(t.probability);
        if !p.is_empty() || !animation.is_empty() || probability.is_some() || !t.class.is_empty() {
            let tile = TileDoc { class: t.class.clone(), properties: p, animation, probability };
            tilesets[g].tiles.insert(local, tile);
        }
    }
    let tileset_of_sheet = (0..map.sheets.len() as u16).map(|s| group_of_sheet[&s]).collect();
    TilesetsExport { tilesets, placement, tileset_of_sheet, glyph_image, warnings }
}

/// A sheet's tileset as [`TilesetFile::as_read`] holds it: its image absolute, whatever file it
/// is written beside, and without the numbers a map gives it.
fn as_in_file(ts: &TilesetDoc, sheet: &SpriteSheet) -> TilesetDoc {
    TilesetDoc { first_gid: 0, source: None, image: Some(normalize_path(&sheet.image)), ..ts.clone() }
}

/// Notes what each sheet read from a tileset file holds as read, so that a save can tell
/// whether it still refers to the file (see [`TilesetFile`]). Called on every map loaded.
pub(super) fn remember_tileset_files(map: &mut Map) {
    if map.sheets.iter().all(|s| s.file.is_none()) {
        return;
    }
    let export = export_tilesets(map, Path::new(""), None);
    for (sheet, &t) in map.sheets.iter_mut().zip(&export.tileset_of_sheet) {
        let ts = as_in_file(&export.tilesets[t], sheet);
        if let Some(file) = &mut sheet.file {
            file.as_read = Some(FormatMemo::new(ts));
        }
    }
}

/// Sheet `sheet`'s tileset as its file would hold it, its image relative to `dir` (the file's
/// folder), and as [`TilesetFile::as_read`] holds it.
pub(crate) fn sheet_tileset(map: &Map, sheet: usize, dir: &Path) -> (TilesetDoc, TilesetDoc) {
    let export = export_tilesets(map, dir, None);
    let ts = &export.tilesets[export.tileset_of_sheet[sheet]];
    (TilesetDoc { first_gid: 0, source: None, ..ts.clone() }, as_in_file(ts, &map.sheets[sheet]))
}

/// A tileset file's tileset as [`TilesetFile::as_read`] would hold it, given `raw` as its reader
/// gives it (read as the only tileset of a map, then exported as a save would), so that it
/// compares with what a map read from it earlier. A door toggling to a tile of another tileset
/// (`"Other#3"`) cannot be read alone: an error.
pub(crate) fn tileset_as_read(path: &Path, raw: &TilesetDoc) -> Result<TilesetDoc, MapError> {
    let doc = Doc {
        width: 1,
        height: 1,
        tile_width: raw.tile_width.max(1),
        tile_height: raw.tile_height.max(1),
        tilesets: vec![TilesetDoc { first_gid: 1, source: Some(path.to_path_buf()), ..raw.clone() }],
        layers: vec![TileLayerDoc { width: 1, height: 1, gids: vec![0], ..TileLayerDoc::default() }],
        ..Doc::default()
    };
    let map = build_map(doc)?.map;
    if map.sheets.is_empty() {
        return Err(MapError::invalid("it is not a tileset of one image").in_file(path));
    }
    let export = export_tilesets(&map, Path::new(""), None);
    let now = as_in_file(&export.tilesets[export.tileset_of_sheet[0]], &map.sheets[0]);
    Ok(now)
}

/// Per sheet, whether a save may refer to its tileset file: it has one and is as read. A
/// warning for each sheet that has a file but was changed since.
fn tileset_file_links(map: &Map, export: &TilesetsExport, warnings: &mut Vec<String>) -> Vec<bool> {
    map.sheets
        .iter()
        .zip(&export.tileset_of_sheet)
        .map(|(sheet, &t)| {
            let Some(file) = &sheet.file else { return false };
            let name = file.path.file_name().unwrap_or_default().to_string_lossy();
            let why = if file.as_read.as_ref().and_then(FormatMemo::get::<TilesetDoc>)
                != Some(&as_in_file(&export.tilesets[t], sheet))
            {
                "it was changed here and the file was not saved (Save tileset, on its tab of the palette, writes it)"
            } else if !file.path.is_file() {
                // A reference to a file that is gone would lose the tileset.
                "the file is no longer there"
            } else {
                return true;
            };
            warnings
                .push(format!("tileset {:?} is written into the map, not as a reference to {name}: {why}", sheet.name));
            false
        })
        .collect()
}

/// Per sheet, whether a save may refer to its tileset file (see `tileset_file_links`), for a
/// writer that keeps each sheet whole (RON); with the warnings for those that may not.
pub fn sheets_as_read(map: &Map) -> (Vec<bool>, Vec<String>) {
    let export = export_tilesets(map, Path::new(""), None);
    let mut warnings = Vec::new();
    let links = tileset_file_links(map, &export, &mut warnings);
    (links, warnings)
}

/// Turns a map into a Tiled document to write at `target` (image paths are made relative to it).
/// A sheet read from a tileset file and unchanged since is written as a reference to the file.
pub(super) fn export_doc(map: &Map, target: &Path) -> Placement {
    let dir = target.parent().map(Path::to_path_buf).unwrap_or_default();
    let stem = target.file_stem().and_then(|s| s.to_str()).unwrap_or("map");
    let mut export = export_tilesets(map, &dir, Some(&dir.join(format!("{stem}-glyphs.png"))));
    let warnings = std::mem::take(&mut export.warnings);
    let mut notes = Vec::new();
    let links = tileset_file_links(map, &export, &mut notes);
    let TilesetsExport { tilesets, placement, tileset_of_sheet, glyph_image, .. } = export;
    // An infinite map is written infinite again, its cell (0, 0) at the Tiled cell it came from.
    let origin = map.tiled.infinite_origin.map_or((0, 0), |[x, y]| (x, y));
    let mut doc = Doc {
        width: map.width(),
        height: map.height(),
        infinite: map.tiled.infinite_origin.is_some(),
        tile_width: map.tile_size[0],
        tile_height: map.tile_size[1],
        tilesets,
        warnings,
        ..Doc::default()
    };
    for ((sheet, &t), link) in map.sheets.iter().zip(&tileset_of_sheet).zip(links) {
        if link && let Some(file) = &sheet.file {
            doc.tilesets[t].source = Some(super::relative_path(&file.path, &dir));
        }
    }
    for l in &map.layers {
        let mut properties = l.properties.clone();
        if l.collision {
            properties.insert("collision".into(), PropertyValue::Bool(true));
        }
        doc.layers.push(TileLayerDoc {
            name: l.name.clone(),
            visible: l.visible,
            locked: l.locked,
            opacity: (l.opacity != 1.0).then_some(l.opacity),
            offset: l.offset,
            parallax: l.parallax,
            tint: l.tint,
            properties,
            class: l.class.clone(),
            origin,
            width: map.width(),
            height: map.height(),
            gids: l
                .cells
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    if t == 0 {
                        0
                    } else {
                        let (g, local) = placement[usize::from(t)];
                        (doc.tilesets[g].first_gid + local) | l.flip(i).gid_bits()
                    }
                })
                .collect(),
        });
    }
    for o in &map.objects {
        let mut written = object_doc(o, &doc.tilesets, &placement, map.tile_size);
        written.x += f64::from(origin.0) * f64::from(map.tile_size[0]);
        written.y += f64::from(origin.1) * f64::from(map.tile_size[1]);
        if let Some(t) = &o.template {
            let base = object_doc(&t.object, &doc.tilesets, &placement, map.tile_size);
            let path = super::relative_path(&t.path, &dir);
            let shown = path.display().to_string();
            written.template = Some(TemplateDoc { path, object: Box::new(base) });
            if let Some(Err(why)) = written.overrides() {
                let label = if o.name.is_empty() { format!("object {}", o.id) } else { format!("object {:?}", o.name) };
                doc.warnings.push(format!(
                    "{label} is saved without its link to template {shown}: {why}, which a Tiled file cannot say \
                     (it keeps all its values)"
                ));
                written.template = None;
            }
        }
        doc.objects.push(written);
    }
    doc.object_layers = map.object_layers.clone();
    doc.groups = map.groups.clone();
    doc.next_object_id = map.next_object_id();
    doc.properties = map.properties.clone();
    doc.class = map.class.clone();
    doc.background = map.background;
    doc.settings = map.tiled;
    doc.editor = map.tiled_editor.clone();
    doc.properties.insert(WRITER_PROPERTY.into(), PropertyValue::Int(1));
    notes.extend(ints_beyond_tiled_note(&doc));
    Placement { doc, glyph_image, notes }
}

/// The property tables a Tiled save of `doc` writes into the map's file: the map's, its
/// layers', groups' and objects', and those of the tilesets written into it (a tileset
/// referred to in its own file keeps its tiles' properties there).
pub(super) fn written_property_tables(doc: &Doc) -> impl Iterator<Item = &Properties> {
    let written_tilesets = doc.tilesets.iter().filter(|ts| ts.source.is_none());
    std::iter::once(&doc.properties)
        .chain(doc.layers.iter().map(|l| &l.properties))
        .chain(doc.object_layers.iter().map(|l| &l.properties))
        .chain(doc.groups.iter().map(|g| &g.properties))
        .chain(written_tilesets.clone().map(|ts| &ts.properties))
        .chain(written_tilesets.flat_map(|ts| ts.tiles.values().map(|t| &t.properties)))
        .chain(doc.objects.iter().map(|o| &o.properties))
}

/// What a Tiled save says of int properties beyond ±2³¹: sightline holds 64-bit ints and reads
/// them back exactly, but Tiled holds an int property in 32 bits and converts the text with
/// Qt (`ExportContext::toPropertyValue` in Tiled's `properties.cpp`), so such a value does not
/// come back as it is when the file is opened in Tiled. `None` when there is none.
fn ints_beyond_tiled_note(doc: &Doc) -> Option<String> {
    fn visit<'a>(name: &'a str, v: &'a PropertyValue, out: &mut Vec<&'a str>) {
        match v {
            PropertyValue::Int(i) if i32::try_from(*i).is_err() => out.push(name),
            PropertyValue::Class { members, .. } => members.iter().for_each(|(n, m)| visit(n, m, out)),
            PropertyValue::List(items) => items.iter().for_each(|item| visit(name, item, out)),
            _ => {}
        }
    }
    let mut names = Vec::new();
    for (name, v) in written_property_tables(doc).flatten() {
        visit(name, v, &mut names);
    }
    names.sort_unstable();
    names.dedup();
    (!names.is_empty()).then(|| {
        format!(
            "ints beyond 32 bits in {}: Tiled holds an int property in 32 bits and will not read them as they \
             are (sightline reads them back exactly)",
            super::listed_names(&names)
        )
    })
}

/// An object as a Tiled document holds it, its tiles numbered by `placement` in `tilesets`
/// (its template link is set apart).
fn object_doc(o: &MapObject, tilesets: &[TilesetDoc], placement: &[(usize, u32)], [tw, th]: [u32; 2]) -> ObjectDoc {
    let mut properties = o.properties.clone();
    match o.kind {
        ObjectKind::Monster { glyph, vision_radius } => {
            properties.insert("glyph".into(), PropertyValue::String(glyph.to_string()));
            properties.insert("vision".into(), PropertyValue::Int(i64::from(vision_radius)));
        }
        ObjectKind::Light { radius } => {
            properties.insert("radius".into(), PropertyValue::Int(i64::from(radius)));
        }
        _ => {}
    }
    // An object placed here is a point in the middle of its cell; one from a Tiled map keeps
    // its geometry, hanging from its cell.
    let (x, y, width, height, rotation, shape) = match &o.shape {
        None => (
            (f64::from(o.cell.x) + 0.5) * f64::from(tw),
            (f64::from(o.cell.y) + 0.5) * f64::from(th),
            0.0,
            0.0,
            0.0,
            DocShape::Point,
        ),
        Some(s) => {
            // To the millionth of a pixel (Tiled writes fewer digits): the sum does not drift
            // by a last bit from what was read.
            let tidy = |x: f64| (x * 1e6).round() / 1e6;
            let x = tidy(f64::from(o.cell.x) * f64::from(tw) + s.offset[0]);
            let mut y = tidy(f64::from(o.cell.y) * f64::from(th) + s.offset[1]);
            let (width, height, shape) = match &s.kind {
                ShapeKind::Point => (0.0, 0.0, DocShape::Point),
                ShapeKind::Rectangle { width, height } => (*width, *height, DocShape::Rectangle),
                ShapeKind::Ellipse { width, height } => (*width, *height, DocShape::Ellipse),
                ShapeKind::Capsule { width, height } => (*width, *height, DocShape::Capsule),
                ShapeKind::Text { width, height, text } => (*width, *height, DocShape::Text(text.clone())),
                ShapeKind::Polygon(points) => (0.0, 0.0, DocShape::Polygon(points.clone())),
                ShapeKind::Polyline(points) => (0.0, 0.0, DocShape::Polyline(points.clone())),
                ShapeKind::Tile { tile, flip, width, height } => {
                    let gid = match placement.get(usize::from(*tile)) {
                        Some(&(g, local)) if g != usize::MAX => (tilesets[g].first_gid + local) | flip.gid_bits(),
                        _ => 0,
                    };
                    if gid == 0 {
                        // No tile to show (the empty tile): Tiled reads an object without one
                        // as a rectangle from its top-left corner, so the same box is written
                        // from there. It stood at its bottom left, as a tile of no tileset does.
                        y = tidy(y - height);
                        (*width, *height, DocShape::Rectangle)
                    } else {
                        (*width, *height, DocShape::Tile(gid))
                    }
                }
            };
            (x, y, width, height, s.rotation, shape)
        }
    };
    ObjectDoc {
        id: o.id,
        layer: o.layer,
        name: o.name.clone(),
        class: o.kind.type_name().to_owned(),
        x,
        y,
        width,
        height,
        rotation,
        shape,
        properties,
        hidden: !o.visible,
        opacity: (o.opacity != 1.0).then_some(o.opacity),
        template: None,
    }
}

/// The glyph tileset's image: each tile its background colour with a block of its foreground
/// colour in the middle, so the map reads in Tiled too.
fn glyph_tileset_png(glyphs: &[Glyph], tw: u32, th: u32, columns: u32) -> Result<Vec<u8>, MapError> {
    let rows = (glyphs.len() as u32).div_ceil(columns).max(1);
    // The tile size is the map's, which a file may make anything: the image's size is checked
    // before it is allocated.
    let too_large = || {
        MapError::invalid(format!(
            "the glyph tileset's image would be {columns} × {rows} tiles of {tw} × {th} pixels, larger than \
             sightline writes ({MAX_GLYPH_IMAGE_PIXELS} pixels)"
        ))
    };
    let (w, h) = (tw.checked_mul(columns).ok_or_else(too_large)?, th.checked_mul(rows).ok_or_else(too_large)?);
    if u64::from(w) * u64::from(h) > MAX_GLYPH_IMAGE_PIXELS {
        return Err(too_large());
    }
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    for (i, g) in glyphs.iter().enumerate() {
        let (col, row) = (i as u32 % columns, i as u32 / columns);
        for y in 0..th {
            for x in 0..tw {
                let inner = x >= tw / 3 && x < tw - tw / 3 && y >= th / 3 && y < th - th / 3;
                let c = if inner { g.fg } else { g.bg };
                let p = ((row * th + y) as usize * w as usize + (col * tw + x) as usize) * 3;
                rgb[p..p + 3].copy_from_slice(&[c.0, c.1, c.2]);
            }
        }
    }
    encode_png_rgb(w, h, &rgb)
}

/// A plain value read with its `propertytype`: a string or int that names a type is a value of
/// that enum (Tiled gives no other plain value one); any other value is as read.
pub(super) fn typed_as_enum(plain: PropertyValue, custom_type: &str) -> PropertyValue {
    match plain {
        PropertyValue::String(s) if !custom_type.is_empty() => {
            PropertyValue::Enum { enum_type: custom_type.to_owned(), value: EnumValue::String(s) }
        }
        PropertyValue::Int(i) if !custom_type.is_empty() => {
            PropertyValue::Enum { enum_type: custom_type.to_owned(), value: EnumValue::Int(i) }
        }
        other => other,
    }
}

/// The files a save writes beside the map (a [`Placement`]'s glyph tileset image), or the error
/// that kept one from being made.
pub(super) fn extra_files(
    glyph_image: Option<(PathBuf, Result<Vec<u8>, MapError>)>,
) -> Result<Vec<(PathBuf, Vec<u8>)>, MapError> {
    let image = glyph_image.map(|(path, png)| Ok::<_, MapError>((path, png?)));
    Ok(image.transpose()?.into_iter().collect())
}

/// The largest glyph tileset image a save writes: 16 columns of 64-pixel tiles, 4 096 rows.
const MAX_GLYPH_IMAGE_PIXELS: u64 = 1 << 28;

/// A value of a text object's layout, as TMX and TMJ write it in their own syntax.
pub(super) enum TextAttribute {
    Text(String),
    Number(u32),
    Flag(bool),
}

/// A text object's layout as Tiled writes it (`<text>` in TMX, `text` in TMJ): each attribute
/// that is not Tiled's default, by its Tiled name, in Tiled's order. The text itself is not
/// among them.
pub(super) fn text_attributes(t: &crate::core::model::object::ObjectText) -> Vec<(&'static str, TextAttribute)> {
    let defaults = crate::core::model::object::ObjectText::new("");
    let mut attributes = Vec::new();
    if t.font_family != defaults.font_family {
        attributes.push(("fontfamily", TextAttribute::Text(t.font_family.clone())));
    }
    if t.pixel_size != defaults.pixel_size {
        attributes.push(("pixelsize", TextAttribute::Number(t.pixel_size)));
    }
    for (on, name) in [
        (t.wrap, "wrap"),
        (t.bold, "bold"),
        (t.italic, "italic"),
        (t.underline, "underline"),
        (t.strikeout, "strikeout"),
    ] {
        if on {
            attributes.push((name, TextAttribute::Flag(true)));
        }
    }
    if !t.kerning {
        attributes.push(("kerning", TextAttribute::Flag(false)));
    }
    if t.color != defaults.color {
        attributes.push(("color", TextAttribute::Text(crate::core::model::wang::tiled_color(t.color))));
    }
    if t.halign != defaults.halign {
        attributes.push(("halign", TextAttribute::Text(t.halign.tiled_name().to_owned())));
    }
    if t.valign != defaults.valign {
        attributes.push(("valign", TextAttribute::Text(t.valign.tiled_name().to_owned())));
    }
    attributes
}

/// An 8-bit RGB image (`rgb`: `width × height` pixels, row by row) as PNG; an image with no
/// pixel is an error.
pub fn encode_png_rgb(width: u32, height: u32, rgb: &[u8]) -> Result<Vec<u8>, MapError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let failed = |e: png::EncodingError| MapError::invalid(format!("the {width} × {height} PNG cannot be made: {e}"));
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(rgb).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(out)
}

/// Normalises a path lexically (`a/b/../c` → `a/c`), so image paths compare equal after a
/// round trip through another folder.
pub(super) fn normalize_path(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A layer's GIDs as Tiled writes them in a base64 `format` (little-endian 32-bit, then
/// compressed at `level`, -1 being the compressor's default, as Tiled's `compressionlevel`);
/// the text of its data. For CSV it gives the ids comma-separated, a row of `width` a line.
pub(super) fn encode_gids(gids: &[u32], width: u32, format: LayerFormat, level: i32) -> Result<String, MapError> {
    use base64::Engine;
    use std::io::Write;
    if format == LayerFormat::Csv {
        let rows: Vec<String> = gids
            .chunks(width.max(1) as usize)
            .map(|row| row.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
            .collect();
        return Ok(rows.join(",\n"));
    }
    let raw: Vec<u8> = gids.iter().flat_map(|g| g.to_le_bytes()).collect();
    let failed = |e: std::io::Error| MapError::invalid(format!("cannot compress a layer: {e}"));
    // flate2 levels are 0 to 9 (Tiled's -1 is zlib's default, 6); zstd's 1 to 22 (-1 and 0:
    // its default, 3).
    let flate = || flate2::Compression::new(if level < 0 { 6 } else { level.min(9) as u32 });
    let packed = match format {
        LayerFormat::Csv | LayerFormat::Base64 => raw,
        LayerFormat::Base64Zlib => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate());
            e.write_all(&raw).and_then(|()| e.finish()).map_err(failed)?
        }
        LayerFormat::Base64Gzip => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate());
            e.write_all(&raw).and_then(|()| e.finish()).map_err(failed)?
        }
        LayerFormat::Base64Zstd => {
            // (zstd's 0 is its default level too.)
            zstd::encode_all(&raw[..], level.clamp(0, 22)).map_err(failed)?
        }
    };
    Ok(base64::engine::general_purpose::STANDARD.encode(packed))
}

/// Decodes Tiled's base64 layer data (optionally zlib, gzip or zstd compressed) into GIDs.
/// Decompression stops past what `expected` GIDs need: a small file cannot expand into gigabytes.
pub(super) fn decode_base64_gids(text: &str, compression: Option<&str>, expected: usize) -> Result<Vec<u32>, MapError> {
    use base64::Engine;
    let cleaned: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let raw = base64::engine::general_purpose::STANDARD
        .decode(cleaned.as_bytes())
        .map_err(|e| MapErrorKind::Decode(format!("base64: {e}")))?;
    let limit = (expected as u64 + 1) * 4;
    let bytes = match compression.unwrap_or("") {
        "" => raw,
        "zlib" => inflate(flate2::read::ZlibDecoder::new(&raw[..]), limit, "zlib")?,
        "gzip" => inflate(flate2::read::GzDecoder::new(&raw[..]), limit, "gzip")?,
        "zstd" => {
            let decoder =
                zstd::stream::read::Decoder::new(&raw[..]).map_err(|e| MapErrorKind::Decode(format!("zstd: {e}")))?;
            inflate(decoder, limit, "zstd")?
        }
        other => {
            return Err(MapError::invalid(format!("compression {other:?} is not supported (use zlib, gzip or zstd)")));
        }
    };
    if bytes.len() % 4 != 0 {
        return Err(
            MapErrorKind::Decode(format!("{} bytes of tile data is not a whole number of GIDs", bytes.len())).into()
        );
    }
    Ok(bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
}

/// Decodes CSV layer data into GIDs.
pub(super) fn decode_csv_gids(text: &str) -> Result<Vec<u32>, MapError> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<u32>().map_err(|_| MapErrorKind::Decode(format!("CSV: {t:?} is not a tile id")).into()))
        .collect()
}

fn inflate(reader: impl std::io::Read, limit: u64, what: &str) -> Result<Vec<u8>, MapError> {
    use std::io::Read;
    let mut out = Vec::new();
    reader.take(limit).read_to_end(&mut out).map_err(|e| MapErrorKind::Decode(format!("{what}: {e}")))?;
    Ok(out)
}
