//! sightline's native format: RON, versioned (`version: 1`).
//!
//! Layers are stored as rows of characters so a map reads (and diffs) like an ASCII map: every
//! tile type has a `key` character, unique within the file, and `' '` is the empty tile.
//!
//! ```text
//! (
//!     version: 1,
//!     width: 5,
//!     height: 3,
//!     tiles: [
//!         (key: '.', name: "floor", glyph: (ch: '.', fg: (110, 110, 120), bg: (20, 20, 28)),
//!          opaque: false, walkable: true, cost: 1.0),
//!         ...
//!     ],
//!     layers: [(name: "ground", rows: ["#####", "#...#", "#####"])],
//!     objects: [(kind: PlayerStart, cell: (x: 1, y: 1))],
//! )
//! ```
//!
//! Object layers, when a map has more than the one its objects would get without them, are
//! listed bottom to top, each over a number of tile layers, and objects name theirs by index:
//! `object_layers: [(name: "spawns", tile_layers_below: 1), (name: "zones", tile_layers_below: 2,
//! visible: false)]`, `(layer: 1, kind: Item, cell: (x: 3, y: 1))`.
//!
//! Layer groups (Tiled's group layers) are listed in outline order, each spanning places of the
//! stack of tile and object layers (bottom first), a nested one naming its parent by index:
//! `groups: [(name: "trees", start: 1, end: 3), (name: "canopy", parent: Some(0), start: 2, end: 3)]`.
//!
//! An animated tile (Tiled's tile animation) lists its frames by key:
//! `animation: [(key: 'a', ms: 200), (key: 'b', ms: 200)]`.
//!
//! A layer with flipped or turned tiles (Tiled's flip flags) has `flips`, rows like its `rows`:
//! `'.'` for a cell as drawn, else the flags as one hex digit, a GID's top digit in Tiled (`8`
//! flipped horizontally, `4` vertically, `2` anti-diagonally, `a` turned a quarter clockwise).

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::core::model::error::{MapError, MapErrorKind};
use crate::core::model::flip::Flip;
use crate::core::model::map::{self, Layer, LayerGroup, Map, ObjectLayer};
use crate::core::model::object::MapObject;
use crate::core::model::serde_defaults::{is_one, one, yes};
use crate::core::model::sheet::{SpriteSheet, TilesetFile};
use crate::core::model::tile::{Door, Frame, Glyph, Properties, Rgba, Sprite, TileId, TileKind};
use crate::core::model::tiled_settings::{TiledEditorSettings, TiledSettings};

pub(super) const VERSION: u32 = 1;

#[derive(Deserialize)]
struct VersionProbe {
    version: u32,
}

#[derive(Serialize, Deserialize)]
struct RonMap {
    version: u32,
    width: u32,
    height: u32,
    tiles: Vec<RonTile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sheets: Vec<SpriteSheet>,
    layers: Vec<RonLayer>,
    /// The object layers, written unless they are the one a map without them gets (see
    /// [`Map::from_parts`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    object_layers: Option<Vec<ObjectLayer>>,
    /// Layer groups, each spanning places `start..end` of the stack of tile and object layers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    groups: Vec<LayerGroup>,
    #[serde(default)]
    objects: Vec<MapObject>,
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    properties: Properties,
    /// The map's class (Tiled's).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    class: String,
    /// The colour behind the map's tiles (Tiled's background colour).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    background: Option<Rgba>,
    /// How a Tiled save writes the map (kept from a Tiled file it was converted from).
    #[serde(default, skip_serializing_if = "TiledSettings::is_default")]
    tiled: TiledSettings,
    /// What a Tiled file kept for Tiled itself (kept from a Tiled file it was converted from).
    #[serde(default, skip_serializing_if = "TiledEditorSettings::is_empty")]
    tiled_editor: TiledEditorSettings,
    #[serde(default = "default_tile_size")]
    tile_size: [u32; 2],
    /// The id the next new object gets, written only when it is not one past the largest (an
    /// object with a larger id was deleted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    next_object_id: Option<u32>,
}

fn default_tile_size() -> [u32; 2] {
    map::DEFAULT_TILE_SIZE
}

#[derive(Serialize, Deserialize)]
struct RonTile {
    key: char,
    name: String,
    /// Tiled's class of the tile.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    class: String,
    glyph: Glyph,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sprite: Option<Sprite>,
    opaque: bool,
    walkable: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    door: Option<RonDoor>,
    #[serde(default = "one")]
    cost: f32,
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    properties: Properties,
    /// Tiled's tile animation: the frames drawn in turn, by key.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    animation: Vec<RonFrame>,
    /// Tiled's tile probability (random brush, terrain fill).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    probability: f32,
}

#[derive(Serialize, Deserialize)]
struct RonFrame {
    /// Key of the tile drawn.
    key: char,
    ms: u32,
}

#[derive(Serialize, Deserialize)]
struct RonDoor {
    open: bool,
    /// Key of the counterpart tile.
    toggles_to: char,
}

#[derive(Serialize, Deserialize)]
struct RonLayer {
    name: String,
    #[serde(default = "yes")]
    visible: bool,
    #[serde(default)]
    locked: bool,
    #[serde(default)]
    collision: bool,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    opacity: f32,
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    properties: Properties,
    rows: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    flips: Vec<String>,
    /// Tiled's layer offset (pixels), parallax factor and tint colour.
    #[serde(default, skip_serializing_if = "is_origin")]
    offset: [f64; 2],
    #[serde(default = "unit_parallax", skip_serializing_if = "is_unit_parallax")]
    parallax: [f64; 2],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tint: Option<Rgba>,
    /// Tiled's class of the layer.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    class: String,
}

fn is_origin(offset: &[f64; 2]) -> bool {
    *offset == [0.0, 0.0]
}

fn unit_parallax() -> [f64; 2] {
    [1.0, 1.0]
}

fn is_unit_parallax(parallax: &[f64; 2]) -> bool {
    *parallax == unit_parallax()
}

const EMPTY_KEY: char = ' ';

fn ron_error(e: ron::error::SpannedError) -> MapError {
    MapError::syntax("RON", e.code.to_string()).at_line(e.span.start.line, Some(e.span.start.col))
}

/// Parses a RON map; sprite sheet images are resolved against `path`'s folder.
pub(super) fn parse(text: &str, path: &Path) -> Result<Map, MapError> {
    let probe: VersionProbe = ron::from_str(text).map_err(ron_error)?;
    if probe.version != VERSION {
        return Err(MapErrorKind::UnsupportedVersion(probe.version).into());
    }
    let doc: RonMap = ron::from_str(text).map_err(ron_error)?;
    let (width, height) = map::check_dimensions(doc.width.into(), doc.height.into())?;

    let mut by_key: HashMap<char, TileId> = HashMap::new();
    by_key.insert(EMPTY_KEY, 0);
    if doc.tiles.len() > usize::from(TileId::MAX) {
        return Err(MapError::invalid(format!(
            "the map has {} tile types; at most {} are supported",
            doc.tiles.len(),
            TileId::MAX
        )));
    }
    for (i, t) in doc.tiles.iter().enumerate() {
        if by_key.insert(t.key, (i + 1) as TileId).is_some() {
            return Err(MapError::invalid(format!(
                "tile {:?} uses key {:?}, which another tile (or the empty tile) already uses",
                t.name, t.key
            )));
        }
    }
    let mut tiles = vec![TileKind::empty()];
    for t in doc.tiles {
        let door = match t.door {
            None => None,
            Some(d) => Some(Door {
                open: d.open,
                toggles_to: *by_key.get(&d.toggles_to).ok_or_else(|| {
                    MapError::invalid(format!(
                        "door tile {:?} toggles to key {:?}, which no tile has",
                        t.name, d.toggles_to
                    ))
                })?,
            }),
        };
        let mut animation = Vec::with_capacity(t.animation.len());
        for f in &t.animation {
            match by_key.get(&f.key) {
                Some(&tile) if tile != 0 => animation.push(Frame { tile, duration_ms: f.ms }),
                _ => {
                    return Err(MapError::invalid(format!(
                        "tile {:?} has an animation frame of key {:?}, which no tile has",
                        t.name, f.key
                    )));
                }
            }
        }
        tiles.push(TileKind {
            name: t.name,
            class: t.class,
            glyph: t.glyph,
            sprite: t.sprite,
            opaque: t.opaque,
            walkable: t.walkable,
            door,
            cost: t.cost,
            properties: t.properties,
            animation,
            probability: t.probability,
        });
    }

    map::count_layer_cells(&mut 0, doc.layers.len() as u64 * u64::from(width) * u64::from(height))?;
    let mut layers = Vec::with_capacity(doc.layers.len());
    for l in doc.layers {
        if l.rows.len() != height as usize {
            return Err(MapError::new(MapErrorKind::DataLength {
                expected: width as usize * height as usize,
                found: l.rows.iter().map(|r| r.chars().count()).sum(),
            })
            .in_layer(&l.name));
        }
        let mut cells = Vec::with_capacity(width as usize * height as usize);
        for (y, row) in l.rows.iter().enumerate() {
            let before = cells.len();
            for ch in row.chars() {
                let id = by_key.get(&ch).ok_or_else(|| {
                    MapError::invalid(format!("row {y} uses key {ch:?}, which no tile has")).in_layer(&l.name)
                })?;
                cells.push(*id);
            }
            if cells.len() - before != width as usize {
                return Err(MapError::invalid(format!(
                    "row {y} has {} cells; the map is {width} wide",
                    cells.len() - before
                ))
                .in_layer(&l.name));
            }
        }
        let mut layer = Layer {
            name: l.name,
            visible: l.visible,
            locked: l.locked,
            collision: l.collision,
            opacity: l.opacity,
            properties: l.properties,
            cells,
            flips: Default::default(),
            offset: l.offset,
            parallax: l.parallax,
            tint: l.tint,
            class: l.class,
        };
        read_flips(&mut layer, &l.flips, width as usize)?;
        layers.push(layer);
    }
    let dir = path.parent().unwrap_or(Path::new(""));
    let sheets = doc
        .sheets
        .into_iter()
        .map(|mut s| {
            s.image = super::resolve_path(dir, &s.image);
            if let Some(f) = &mut s.file {
                f.path = super::resolve_path(dir, &f.path);
            }
            s
        })
        .collect();
    let next_object_id = doc.next_object_id.unwrap_or(0);
    let object_layers = doc.object_layers.unwrap_or_default();
    let mut objects = doc.objects;
    for t in objects.iter_mut().filter_map(|o| o.template.as_mut()) {
        t.path = super::resolve_path(dir, &t.path);
    }
    let mut map = Map::from_parts(width, height, tiles, layers, object_layers, objects, sheets, next_object_id)?;
    if !doc.groups.is_empty() {
        map.groups = doc.groups;
        map.validate()?;
    }
    map.properties = doc.properties;
    map.class = doc.class;
    map.background = doc.background;
    if doc.tiled.parallax_origin.iter().any(|v| !v.is_finite()) {
        return Err(MapError::invalid("the parallax origin must be two finite numbers"));
    }
    map.tiled = doc.tiled;
    map.tiled_editor = doc.tiled_editor;
    map.tile_size = doc.tile_size;
    Ok(map)
}

/// Reads a layer's `flips` rows (none, or one a row of the layer, a character a cell).
fn read_flips(layer: &mut Layer, rows: &[String], width: usize) -> Result<(), MapError> {
    if rows.is_empty() {
        return Ok(());
    }
    if rows.len() * width != layer.cells.len() {
        return Err(MapError::invalid(format!(
            "flips has {} rows; the layer has {}",
            rows.len(),
            layer.cells.len() / width.max(1)
        ))
        .in_layer(&layer.name));
    }
    for (y, row) in rows.iter().enumerate() {
        if row.chars().count() != width {
            return Err(MapError::invalid(format!(
                "flips row {y} has {} cells; the map is {width} wide",
                row.chars().count()
            ))
            .in_layer(&layer.name));
        }
        for (x, ch) in row.chars().enumerate() {
            let flip = match ch {
                '.' => Flip::NONE,
                _ => ch.to_digit(16).and_then(|d| Flip::from_bits(d as u8)).ok_or_else(|| {
                    MapError::invalid(format!(
                        "flips row {y} has {ch:?}; a cell's flips are '.' or a hex digit (8 horizontal, 4 vertical, \
                         2 anti-diagonal)"
                    ))
                    .in_layer(&layer.name)
                })?,
            };
            let i = y * width + x;
            layer.set(i, layer.cells[i], flip);
        }
    }
    Ok(())
}

/// A layer's flips as rows of characters, or none when no cell is flipped.
fn flip_rows(layer: &Layer, width: usize) -> Vec<String> {
    if layer.flips.count() == 0 {
        return Vec::new();
    }
    (0..layer.cells.len() / width)
        .map(|y| {
            (0..width)
                .map(|x| match layer.flip(y * width + x).bits() {
                    0 => '.',
                    b => char::from_digit(u32::from(b), 16).unwrap_or('.'),
                })
                .collect()
        })
        .collect()
}

/// Assigns every tile type a distinct printable key: its glyph when free, else the next free
/// character from a pool that starts with ASCII and continues through Latin-1 and beyond: more
/// than 80 000 characters, so every table `TileId` can number has keys (a Tiled tileset can
/// hold tens of thousands of tiles; the pool once ended at 21 000 and saving such a map panicked).
pub(crate) fn assign_keys(tiles: &[TileKind]) -> Vec<char> {
    let mut used: std::collections::HashSet<char> = [EMPTY_KEY].into();
    let mut keys = vec![EMPTY_KEY; tiles.len()];
    let mut pending = Vec::new();
    for (i, t) in tiles.iter().enumerate().skip(1) {
        let ch = t.glyph.ch;
        if !ch.is_control() && !ch.is_whitespace() && ch != '"' && ch != '\\' && used.insert(ch) {
            keys[i] = ch;
        } else {
            pending.push(i);
        }
    }
    let mut pool = ('!'..='~')
        .chain('\u{00c0}'..='\u{024f}')
        .chain('\u{0400}'..='\u{04ff}')
        .chain('\u{4e00}'..='\u{9fff}')
        .chain('\u{3400}'..='\u{4dbf}')
        .chain('\u{ac00}'..='\u{d7a3}')
        .chain('\u{20000}'..='\u{2a6df}')
        .filter(|c| *c != '"' && *c != '\\');
    for i in pending {
        let key = pool.find(|c| !used.contains(c)).expect("the key pool holds more keys than TileId has values");
        used.insert(key);
        keys[i] = key;
    }
    keys
}

/// Writes a map as RON for `path` (sprite sheet images are written relative to its folder).
/// The map as RON text, with what the save should tell (a sheet that keeps no link to its
/// tileset file).
pub(super) fn to_string(map: &Map, path: &Path) -> Result<(String, Vec<String>), MapError> {
    let dir = path.parent().unwrap_or(Path::new(""));
    // A sheet keeps its tileset file only while it is as read, as in a Tiled save; its tiles
    // are written whole either way.
    let (links, warnings) = super::tiled_common::sheets_as_read(map);
    let keys = assign_keys(&map.tiles);
    let tiles = map
        .tiles
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, t)| RonTile {
            key: keys[i],
            name: t.name.clone(),
            class: t.class.clone(),
            glyph: t.glyph,
            sprite: t.sprite,
            opaque: t.opaque,
            walkable: t.walkable,
            door: t.door.map(|d| RonDoor { open: d.open, toggles_to: keys[usize::from(d.toggles_to)] }),
            cost: t.cost,
            properties: t.properties.clone(),
            animation: t
                .animation
                .iter()
                .map(|f| RonFrame { key: keys[usize::from(f.tile)], ms: f.duration_ms })
                .collect(),
            probability: t.probability,
        })
        .collect();
    let w = map.width() as usize;
    let layers = map
        .layers
        .iter()
        .map(|l| RonLayer {
            name: l.name.clone(),
            visible: l.visible,
            locked: l.locked,
            collision: l.collision,
            opacity: l.opacity,
            properties: l.properties.clone(),
            rows: l.cells.chunks(w).map(|row| row.iter().map(|&t| keys[usize::from(t)]).collect()).collect(),
            flips: flip_rows(l, w),
            offset: l.offset,
            parallax: l.parallax,
            tint: l.tint,
            class: l.class.clone(),
        })
        .collect();
    let doc = RonMap {
        version: VERSION,
        width: map.width(),
        height: map.height(),
        tiles,
        sheets: map
            .sheets
            .iter()
            .zip(links)
            .map(|(s, link)| SpriteSheet {
                image: super::relative_path(&s.image, dir),
                file: s
                    .file
                    .as_ref()
                    .filter(|_| link)
                    .map(|f| TilesetFile { path: super::relative_path(&f.path, dir), as_read: None }),
                ..s.clone()
            })
            .collect(),
        layers,
        object_layers: {
            let implied = ObjectLayer::new(map::DEFAULT_OBJECT_LAYER, map.layers.len());
            let implied = !map.objects.is_empty() && map.object_layers == [implied];
            (!implied && !map.object_layers.is_empty()).then(|| map.object_layers.clone())
        },
        groups: map.groups.clone(),
        objects: {
            // Templates, as images, relative to the map.
            let mut objects = map.objects.clone();
            for t in objects.iter_mut().filter_map(|o| o.template.as_mut()) {
                t.path = super::relative_path(&t.path, dir);
            }
            objects
        },
        properties: map.properties.clone(),
        class: map.class.clone(),
        background: map.background,
        tiled: map.tiled,
        tiled_editor: map.tiled_editor.clone(),
        tile_size: map.tile_size,
        next_object_id: {
            let past_largest = map.objects.iter().map(|o| o.id).max().unwrap_or(0) + 1;
            (map.next_object_id() != past_largest).then_some(map.next_object_id())
        },
    };
    let config = ron::ser::PrettyConfig::new().struct_names(false).depth_limit(3);
    let mut text =
        ron::ser::to_string_pretty(&doc, config).map_err(|e| MapError::invalid(format!("cannot write RON: {e}")))?;
    text.push('\n');
    Ok((text, warnings))
}
