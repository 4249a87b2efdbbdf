//! Tiled JSON maps (`.tmj`, `.json`), read and written with serde_json. Layer data may be a JSON
//! array or base64 (plain, zlib, gzip or zstd); infinite maps use chunks. External tilesets and
//! templates may be in either of Tiled's formats: they are read through
//! [`super::tiled_common::SideFiles`].
//! See [`super::tiled_common`] for the properties and rules.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Map as JsonObject, Value, json};

use super::Loaded;
use super::tiled_common::{
    self, Doc, DocShape, Dropped, FrameDoc, ObjectDoc, SideFiles, TemplateDoc, TemplateTilesets, TextAttribute,
    TileDoc, TileLayerDoc, TilesetDoc, Written,
};
use super::tmj_legacy;
use crate::core::model::error::{MapError, MapErrorKind};
use crate::core::model::flip::Flip;
use crate::core::model::limits::Limit;
use crate::core::model::map::{self, DrawOrder, LayerGroup, LayerRef, MAX_MAP_SIDE, ObjectLayer, OutlineItem};
use crate::core::model::object::{HorizontalAlign, ObjectText, VerticalAlign};
use crate::core::model::sheet_drawing::{ObjectAlignment, SheetDrawing, TileTransformations};
use crate::core::model::tile::{EnumValue, Properties, PropertyValue, Rgb, Rgba};
use crate::core::model::tiled_settings::{LayerFormat, Orientation, RenderOrder, TiledSettings};
use crate::core::model::wang::{WangColor, WangKind, WangSet};

fn json_error(e: serde_json::Error) -> MapError {
    MapError::syntax("JSON", e.to_string()).at_line(e.line(), Some(e.column()))
}

/// Typed access to a JSON object, with messages that say what is wrong where.
struct Obj<'a> {
    what: String,
    o: &'a JsonObject<String, Value>,
}

impl<'a> Obj<'a> {
    fn new(v: &'a Value, what: impl Into<String>) -> Result<Self, MapError> {
        let what = what.into();
        match v.as_object() {
            Some(o) => Ok(Self { what, o }),
            None => Err(MapError::invalid(format!("{what} must be a JSON object"))),
        }
    }

    fn bad(&self, key: &str, expected: &str) -> MapError {
        MapError::invalid(format!("{}: `{key}` must be {expected}", self.what))
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.o.get(key).filter(|v| !v.is_null())
    }

    /// A whole number (`None`: absent), refused with its key and value when it is not one or is
    /// outside `limit` (see [`Limit`]: the only way this reader takes a whole number).
    fn int(&self, key: &str, limit: Limit) -> Result<Option<i64>, MapError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => {
                let n = v.as_i64().ok_or_else(|| self.bad(key, "a whole number"))?;
                limit
                    .check(n)
                    .map(Some)
                    .map_err(|why| MapError::invalid(format!("{}: `{key}` is {n}, out of range: {why}", self.what)))
            }
        }
    }

    fn u32_or(&self, key: &str, default: u32, limit: Limit) -> Result<u32, MapError> {
        match self.int(key, limit)? {
            None => Ok(default),
            Some(v) => u32::try_from(v).map_err(|_| self.bad(key, "a whole number ≥ 0")),
        }
    }

    fn float(&self, key: &str) -> Result<f64, MapError> {
        match self.get(key) {
            None => Ok(0.0),
            Some(v) => v.as_f64().ok_or_else(|| self.bad(key, "a number")),
        }
    }

    fn string(&self, key: &str) -> Result<Option<&'a str>, MapError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v.as_str().map(Some).ok_or_else(|| self.bad(key, "a string")),
        }
    }

    fn bool_or(&self, key: &str, default: bool) -> Result<bool, MapError> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(Value::Number(n)) => Ok(n.as_i64() != Some(0)),
            Some(_) => Err(self.bad(key, "a bool")),
        }
    }

    fn array(&self, key: &str) -> Result<&'a [Value], MapError> {
        match self.get(key) {
            None => Ok(&[]),
            Some(v) => v.as_array().map(Vec::as_slice).ok_or_else(|| self.bad(key, "an array")),
        }
    }

    /// The object's `properties`, each with its Tiled type; an enum's or class's type name
    /// (`propertytype`) is kept with its value.
    fn properties(&self) -> Result<Properties, MapError> {
        let mut out = Properties::new();
        for (i, p) in self.array("properties")?.iter().enumerate() {
            let p = Obj::new(p, format!("{}, property {i}", self.what))?;
            let name = p.string("name")?.ok_or_else(|| p.bad("name", "a string"))?.to_owned();
            let Some(value) = p.get("value") else { continue };
            out.insert(name.clone(), p.typed_value(&format!("property {name:?}"), value)?);
        }
        Ok(out)
    }

    /// The value of a property or list item (this object, whose `type` and `propertytype` say
    /// what `value` is); `called` names it in messages.
    fn typed_value(&self, called: &str, value: &Value) -> Result<PropertyValue, MapError> {
        let ty = self.string("type")?.unwrap_or("string");
        let custom_type = self.string("propertytype")?.unwrap_or("");
        let plain = match (ty, value) {
            ("bool", Value::Bool(b)) => PropertyValue::Bool(*b),
            ("int", Value::Number(n)) if n.is_i64() => PropertyValue::Int(n.as_i64().unwrap_or(0)),
            ("float" | "int", Value::Number(n)) => PropertyValue::Float(n.as_f64().unwrap_or(0.0)),
            ("object", Value::Number(n)) if n.as_u64().is_some_and(|id| id <= u64::from(u32::MAX)) => {
                PropertyValue::Object(n.as_u64().unwrap_or(0) as u32)
            }
            ("color", Value::String(s)) => match Rgba::from_hex(s) {
                Some(c) => PropertyValue::Color(Some(c)),
                // Tiled writes an unset colour as "".
                None if s.is_empty() => PropertyValue::Color(None),
                None => {
                    return Err(MapError::invalid(format!(
                        "{}: {called} of type \"color\" has value {s:?}: use #aarrggbb or #rrggbb",
                        self.what
                    )));
                }
            },
            ("string", Value::String(s)) => PropertyValue::String(s.clone()),
            ("file", Value::String(s)) => PropertyValue::File(s.clone()),
            ("class", Value::Object(members)) => {
                PropertyValue::Class { class: custom_type.to_owned(), members: self.class_members(called, members)? }
            }
            ("list", Value::Array(items)) => PropertyValue::List(self.list_items(called, items)?),
            (ty, v) => {
                return Err(MapError::invalid(format!("{}: {called} of type {ty:?} has value {v}", self.what)));
            }
        };
        Ok(tiled_common::typed_as_enum(plain, custom_type))
    }

    /// A class value's members. Tiled's JSON writes them untyped (the types are in the
    /// designer's project file), so each takes the type its JSON value has: a whole number is an
    /// int, an object a class of no name, an array a list (whose items carry their types, as in
    /// a list property).
    fn class_members(&self, called: &str, members: &JsonObject<String, Value>) -> Result<Properties, MapError> {
        let mut out = Properties::new();
        for (name, v) in members {
            let called = format!("{called}, member {name:?}");
            let value = match v {
                Value::Bool(b) => PropertyValue::Bool(*b),
                Value::Number(n) => match n.as_i64() {
                    Some(i) => PropertyValue::Int(i),
                    None => PropertyValue::Float(n.as_f64().unwrap_or(0.0)),
                },
                Value::String(s) => PropertyValue::String(s.clone()),
                Value::Object(inner) => {
                    PropertyValue::Class { class: String::new(), members: self.class_members(&called, inner)? }
                }
                Value::Array(items) => PropertyValue::List(self.list_items(&called, items)?),
                Value::Null => continue,
            };
            out.insert(name.clone(), value);
        }
        Ok(out)
    }

    /// A list's items, each an object `{type, value, propertytype}` like a property without a
    /// name; an item without a value (Tiled writes none for an empty class) is its type's empty
    /// value.
    fn list_items(&self, called: &str, items: &[Value]) -> Result<Vec<PropertyValue>, MapError> {
        items
            .iter()
            .enumerate()
            .map(|(k, item)| {
                let item = Obj::new(item, format!("{}, {called}, item {k}", self.what))?;
                let empty = match item.string("type")?.unwrap_or("string") {
                    "class" => Value::Object(JsonObject::new()),
                    "list" => Value::Array(Vec::new()),
                    "bool" => Value::Bool(false),
                    "int" | "float" | "object" => json!(0),
                    _ => json!(""),
                };
                item.typed_value("its value", item.get("value").unwrap_or(&empty))
            })
            .collect()
    }
}

/// Decodes a layer's or chunk's `data`: an array of GIDs, or base64 with optional compression.
fn decode_data(
    o: &Obj,
    encoding: Option<&str>,
    compression: Option<&str>,
    expected: usize,
) -> Result<Vec<u32>, MapError> {
    let Some(data) = o.get("data") else { return Ok(vec![0; expected]) };
    let gids: Vec<u32> = match (encoding.unwrap_or("csv"), data) {
        ("csv", Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_u64()
                    .and_then(|g| u32::try_from(g).ok())
                    .ok_or_else(|| o.bad("data", "an array of GIDs (0 to 4294967295)"))
            })
            .collect::<Result<_, _>>()?,
        ("base64", Value::String(s)) => tiled_common::decode_base64_gids(s, compression, expected)?,
        (enc, _) => return Err(o.bad("data", &format!("an array (csv) or a base64 string, matching encoding {enc:?}"))),
    };
    if gids.len() != expected {
        return Err(MapErrorKind::DataLength { expected, found: gids.len() }.into());
    }
    Ok(gids)
}

fn parse_tileset(
    v: &Value,
    index: usize,
    dir: &Path,
    doc_warnings: &mut Vec<String>,
    files: &dyn SideFiles,
) -> Result<TilesetDoc, MapError> {
    let o = Obj::new(v, format!("tileset {index}"))?;
    let first_gid = o.u32_or("firstgid", 1, Limit::FIRST_GID)?;
    if first_gid == 0 {
        return Err(o.bad("firstgid", "at least 1"));
    }
    if let Some(source) = o.string("source")? {
        let path = dir.join(source);
        let is_xml = path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("tsx"));
        let mut ts = if is_xml {
            files.tileset(&path).map_err(|e| match e.kind {
                MapErrorKind::MissingTileset(_) => MapError::new(MapErrorKind::MissingTileset(path.clone())),
                _ => MapError { file: None, ..e }.in_tileset(source),
            })?
        } else {
            load_tsj(&path, source).map_err(|e| match e.kind {
                MapErrorKind::Io(_) => MapError::new(MapErrorKind::MissingTileset(path.clone())),
                // Reading's own refusal (a file too large) names the file: named as the tileset here.
                _ if e.file.is_some() => MapError { file: None, ..e }.in_tileset(source),
                _ => e,
            })?
        };
        ts.first_gid = first_gid;
        ts.source = Some(path);
        if ts.tile_count as u64 > tiled_common::MAX_TILES {
            doc_warnings.push(format!("tileset {source:?} is very large"));
        }
        return Ok(ts);
    }
    parse_tileset_body(&o, first_gid, dir)
}

/// Reads a JSON tileset file (`.tsj`), named `called` in errors; its image resolved against its
/// own folder.
pub(crate) fn load_tsj(path: &Path, called: &str) -> Result<TilesetDoc, MapError> {
    let bytes = super::read_file(path)?;
    let mut value: Value = serde_json::from_slice(&bytes).map_err(|e| json_error(e).in_tileset(called))?;
    tmj_legacy::upgrade_tileset(&mut value);
    let dir = path.parent().unwrap_or(Path::new(""));
    parse_tileset_body(&Obj::new(&value, format!("tileset {called:?}"))?, 1, dir)
}

fn parse_tileset_body(o: &Obj, first_gid: u32, dir: &Path) -> Result<TilesetDoc, MapError> {
    let tile_count = o.u32_or("tilecount", 0, Limit::TILES)?;
    if u64::from(tile_count) > tiled_common::MAX_TILES {
        return Err(o.bad("tilecount", &format!("at most {}", tiled_common::MAX_TILES)));
    }
    let mut tiles = std::collections::BTreeMap::new();
    let mut tile_shapes = false;
    for (i, t) in o.array("tiles")?.iter().enumerate() {
        let t = Obj::new(t, format!("{}, tile entry {i}", o.what))?;
        tile_shapes |= t.get("objectgroup").is_some();
        let id = t.u32_or("id", 0, Limit::TILES)?;
        if u64::from(id) > tiled_common::MAX_TILES {
            return Err(t.bad("id", "a tile id within the tileset"));
        }
        let class = t.string("class")?.or(t.string("type")?).unwrap_or("").to_owned();
        let mut animation = Vec::new();
        for (k, f) in t.array("animation")?.iter().enumerate() {
            let f = Obj::new(f, format!("{}, animation frame {k}", t.what))?;
            animation.push(FrameDoc {
                tile: f.u32_or("tileid", 0, Limit::TILES)?,
                duration_ms: f.u32_or("duration", 0, Limit::MILLISECONDS)?,
            });
        }
        let probability = match t.get("probability") {
            None => None,
            Some(_) => Some(t.float("probability")? as f32),
        };
        tiles.insert(id, TileDoc { class, properties: t.properties()?, animation, probability });
    }
    let properties = o.properties()?;
    let offset = match o.get("tileoffset") {
        None => [0, 0],
        Some(t) => {
            let t = Obj::new(t, format!("{}, tileoffset", o.what))?;
            let coordinate = |key| -> Result<i32, MapError> {
                t.int(key, Limit::OFFSET)?.unwrap_or(0).try_into().map_err(|_| t.bad(key, "a whole number of pixels"))
            };
            [coordinate("x")?, coordinate("y")?]
        }
    };
    let drawing = SheetDrawing {
        grid_size: match o.string("tilerendersize")?.unwrap_or("tile") {
            "tile" => false,
            "grid" => true,
            _ => return Err(o.bad("tilerendersize", "\"tile\" or \"grid\"")),
        },
        preserve_aspect: match o.string("fillmode")?.unwrap_or("stretch") {
            "stretch" => false,
            "preserve-aspect-fit" => true,
            _ => return Err(o.bad("fillmode", "\"stretch\" or \"preserve-aspect-fit\"")),
        },
        object_alignment: match o.string("objectalignment")? {
            None => ObjectAlignment::Unspecified,
            Some(name) => ObjectAlignment::from_name(name)
                .ok_or_else(|| o.bad("objectalignment", "an alignment like \"bottomleft\" or \"center\""))?,
        },
        transformations: match o.get("transformations") {
            None => None,
            Some(t) => {
                let t = Obj::new(t, format!("{}, transformations", o.what))?;
                Some(TileTransformations {
                    hflip: t.bool_or("hflip", false)?,
                    vflip: t.bool_or("vflip", false)?,
                    rotate: t.bool_or("rotate", false)?,
                    prefer_untransformed: t.bool_or("preferuntransformed", false)?,
                })
            }
        },
    };
    let mut wang_sets = Vec::new();
    for (i, w) in o.array("wangsets")?.iter().enumerate() {
        wang_sets.push(parse_wang_set(&Obj::new(w, format!("{}, Wang set {i}", o.what))?)?);
    }
    Ok(TilesetDoc {
        name: o.string("name")?.unwrap_or("").to_owned(),
        // Tiled 1.9's class; a tileset file's `type` says what the file is ("tileset").
        class: o.string("class")?.unwrap_or("").to_owned(),
        first_gid,
        source: None,
        image: o.string("image")?.map(|i| super::resolve_path(dir, Path::new(i))),
        tile_width: o.u32_or("tilewidth", 0, Limit::PIXELS)?,
        tile_height: o.u32_or("tileheight", 0, Limit::PIXELS)?,
        columns: o.u32_or("columns", 0, Limit::TILES)?,
        tile_count,
        spacing: o.u32_or("spacing", 0, Limit::PIXELS)?,
        margin: o.u32_or("margin", 0, Limit::PIXELS)?,
        transparent: match o.string("transparentcolor")? {
            None => None,
            Some(c) => Some(Rgb::from_hex(c).ok_or_else(|| o.bad("transparentcolor", "a colour like \"#ff00ff\""))?),
        },
        tiles,
        properties,
        wang_sets,
        offset,
        drawing,
        tile_shapes,
    })
}

/// A tileset's Wang set, as Tiled writes it in JSON.
fn parse_wang_set(o: &Obj) -> Result<WangSet, MapError> {
    let kind = o.string("type")?.unwrap_or("mixed");
    let kind = WangKind::from_tiled_name(kind).ok_or_else(|| o.bad("type", "\"corner\", \"edge\" or \"mixed\""))?;
    // Tiled writes -1 for "no tile".
    let tile_of = |o: &Obj| -> Result<Option<u32>, MapError> {
        Ok(o.int("tile", Limit::FLAG)?.and_then(|t| u32::try_from(t).ok()))
    };
    let mut colors = Vec::new();
    for (k, c) in o.array("colors")?.iter().enumerate() {
        let c = Obj::new(c, format!("{}, colour {k}", o.what))?;
        let color = c.string("color")?.unwrap_or("#000000");
        colors.push(WangColor {
            name: c.string("name")?.unwrap_or("").to_owned(),
            class: c.string("class")?.unwrap_or("").to_owned(),
            color: Rgba::from_hex(color).ok_or_else(|| c.bad("color", "a colour like \"#ff0000\""))?,
            tile: tile_of(&c)?,
            probability: if c.get("probability").is_some() { c.float("probability")? } else { 1.0 },
            properties: c.properties()?,
        });
    }
    let mut tiles = std::collections::BTreeMap::new();
    for (k, t) in o.array("wangtiles")?.iter().enumerate() {
        let t = Obj::new(t, format!("{}, Wang tile {k}", o.what))?;
        let parts = t.array("wangid")?;
        let mut wang_id = [0u8; 8];
        if parts.len() != 8 {
            return Err(t.bad("wangid", "eight colour numbers"));
        }
        for (part, v) in wang_id.iter_mut().zip(parts) {
            *part =
                v.as_u64().and_then(|v| u8::try_from(v).ok()).ok_or_else(|| t.bad("wangid", "eight colour numbers"))?;
        }
        tiles.insert(t.u32_or("tileid", 0, Limit::TILES)?, wang_id);
    }
    Ok(WangSet {
        name: o.string("name")?.unwrap_or("").to_owned(),
        class: o.string("class")?.unwrap_or("").to_owned(),
        kind,
        tile: tile_of(o)?,
        colors,
        tiles,
        properties: o.properties()?,
    })
}

/// A tileset's Wang sets, as Tiled writes them in JSON.
fn wang_sets_json(sets: &[WangSet]) -> Value {
    let tile = |t: Option<u32>| t.map_or(-1, i64::from);
    sets.iter()
        .map(|set| {
            let colors: Vec<Value> = set
                .colors
                .iter()
                .map(|c| {
                    let mut v = json!({
                        "name": c.name, "color": crate::core::model::wang::tiled_color(c.color),
                        "tile": tile(c.tile), "probability": c.probability,
                    });
                    if !c.class.is_empty() {
                        v["class"] = json!(c.class);
                    }
                    if !c.properties.is_empty() {
                        v["properties"] = properties_json(&c.properties);
                    }
                    v
                })
                .collect();
            let tiles: Vec<Value> =
                set.tiles.iter().map(|(id, wang_id)| json!({ "tileid": id, "wangid": wang_id })).collect();
            let mut v = json!({
                "name": set.name, "type": set.kind.tiled_name(), "tile": tile(set.tile),
                "colors": colors, "wangtiles": tiles,
            });
            if !set.class.is_empty() {
                v["class"] = json!(set.class);
            }
            if !set.properties.is_empty() {
                v["properties"] = properties_json(&set.properties);
            }
            v
        })
        .collect::<Vec<_>>()
        .into()
}

/// Reads `values` into `doc`, in `parent` (a group of `doc.groups`, `None` at the top).
fn parse_layers(
    values: &[Value],
    parent: Option<usize>,
    infinite: bool,
    doc: &mut Doc,
    templates: &[TemplateDoc],
    depth: usize,
) -> Result<(), MapError> {
    if depth > 64 {
        return Err(MapError::invalid("layer groups are nested more than 64 deep"));
    }
    for (i, v) in values.iter().enumerate() {
        let o = Obj::new(v, format!("layer {i}"))?;
        let name = o.string("name")?.unwrap_or("").to_owned();
        let o = Obj { what: format!("layer {name:?}"), o: o.o };
        let class = o.string("class")?.unwrap_or("").to_owned();
        if o.string("mode")?.is_some_and(|m| m != "normal") {
            doc.dropped.insert(Dropped::BlendModes);
        }
        let number = |key: &str, default: f64| o.get(key).and_then(Value::as_f64).unwrap_or(default);
        // Every kind of layer keeps its look.
        let tint = match o.string("tintcolor")? {
            None => None,
            Some(c) => Some(Rgba::from_hex(c).ok_or_else(|| o.bad("tintcolor", "a colour like \"#ff0000\""))?),
        };
        let offset = [number("offsetx", 0.0), number("offsety", 0.0)];
        let parallax = [number("parallaxx", 1.0), number("parallaxy", 1.0)];
        match o.string("type")?.unwrap_or("") {
            "tilelayer" => {
                let mut l = TileLayerDoc {
                    name: name.clone(),
                    visible: o.bool_or("visible", true)?,
                    locked: o.bool_or("locked", false)?,
                    opacity: match o.get("opacity") {
                        None => None,
                        Some(_) => Some(o.float("opacity")? as f32),
                    },
                    properties: o.properties()?,
                    class: class.clone(),
                    offset,
                    parallax,
                    tint,
                    ..TileLayerDoc::default()
                };
                let encoding = o.string("encoding")?;
                let compression = o.string("compression")?;
                // The last tile layer's format is the map's, as Tiled takes it.
                if let Some(format) = LayerFormat::from_attributes(encoding, compression) {
                    doc.settings.layer_format = format;
                }
                if infinite {
                    let mut tiles = Vec::new();
                    for (ci, c) in o.array("chunks")?.iter().enumerate() {
                        let c = Obj::new(c, format!("layer {name:?}, chunk {ci}"))?;
                        let (cw, ch) = (c.u32_or("width", 0, Limit::CELLS)?, c.u32_or("height", 0, Limit::CELLS)?);
                        if cw > MAX_MAP_SIDE || ch > MAX_MAP_SIDE {
                            return Err(MapError::new(MapErrorKind::Dimensions {
                                width: cw.into(),
                                height: ch.into(),
                            })
                            .in_layer(&name));
                        }
                        // Chunk positions are cells, within i32 as Tiled keeps them, so that a
                        // cell's place in its chunk adds without overflow.
                        let coordinate = |key: &str| -> Result<i64, MapError> {
                            let v = c.int(key, Limit::CELLS)?.unwrap_or(0);
                            i32::try_from(v)
                                .map(i64::from)
                                .map_err(|_| c.bad(key, "a cell position within ±2147483647"))
                        };
                        let (cx, cy) = (coordinate("x")?, coordinate("y")?);
                        let gids = decode_data(&c, encoding, compression, cw as usize * ch as usize)
                            .map_err(|e| e.in_layer(&name))?;
                        for (k, &g) in gids.iter().enumerate() {
                            if g & !Flip::GID_MASK != 0 {
                                tiles.push((cx + (k % cw as usize) as i64, cy + (k / cw as usize) as i64, g));
                            }
                        }
                    }
                    tiled_common::fill_sparse(&mut l, &tiles)?;
                } else {
                    let (w, h) = (o.u32_or("width", 0, Limit::CELLS)?, o.u32_or("height", 0, Limit::CELLS)?);
                    let (w, h) = map::check_dimensions(w.into(), h.into()).map_err(|e| e.in_layer(&name))?;
                    l.width = w;
                    l.height = h;
                    l.gids = decode_data(&o, encoding, compression, w as usize * h as usize)
                        .map_err(|e| e.in_layer(&name))?;
                }
                doc.layers.push(l);
            }
            "objectgroup" => {
                let layer = doc.object_layers.len();
                doc.object_layers.push(ObjectLayer {
                    name: name.clone(),
                    visible: o.bool_or("visible", true)?,
                    locked: o.bool_or("locked", false)?,
                    opacity: match o.get("opacity") {
                        None => 1.0,
                        Some(_) => o.float("opacity")? as f32,
                    },
                    color: match o.string("color")? {
                        None => None,
                        Some(c) => Some(Rgba::from_hex(c).ok_or_else(|| o.bad("color", "a colour like \"#a0a0a4\""))?),
                    },
                    tint,
                    offset,
                    parallax,
                    properties: o.properties()?,
                    class: class.clone(),
                    // Tiled reads an order it does not know as its default.
                    draw_order: if o.string("draworder")? == Some("index") {
                        DrawOrder::Index
                    } else {
                        DrawOrder::TopDown
                    },
                    tile_layers_below: doc.layers.len(),
                });
                for (oi, ov) in o.array("objects")?.iter().enumerate() {
                    let ob = Obj::new(ov, format!("layer {name:?}, object {oi}"))?;
                    let mut object = object_doc(&ob, layer)?;
                    if let Some(template) = ov.get(TEMPLATE_KEY).and_then(|i| templates.get(i.as_u64()? as usize)) {
                        // (`merged` kept the template's class unless the instance has one.)
                        let class = Some(object.class.clone()).filter(|c| !c.is_empty());
                        tiled_common::take_unset_from_template(&mut object, &template.object, class);
                        object.template = Some(template.clone());
                    }
                    doc.objects.push(object);
                }
            }
            "group" => {
                let g = doc.groups.len();
                doc.groups.push(LayerGroup {
                    visible: o.bool_or("visible", true)?,
                    locked: o.bool_or("locked", false)?,
                    opacity: match o.get("opacity") {
                        None => 1.0,
                        Some(_) => o.float("opacity")? as f32,
                    },
                    tint,
                    offset,
                    parallax,
                    properties: o.properties()?,
                    class: class.clone(),
                    ..LayerGroup::new(&name, parent, doc.layers.len() + doc.object_layers.len())
                });
                // A group may leave its layers out (Tiled writes none for an empty one).
                let inner = match o.get("layers") {
                    None => &[][..],
                    Some(_) => o.array("layers")?,
                };
                parse_layers(inner, Some(g), infinite, doc, templates, depth + 1)?;
                doc.groups[g].end = doc.layers.len() + doc.object_layers.len();
            }
            "imagelayer" => {
                doc.warnings
                    .push(format!("image layer {name:?} is not shown (sightline draws tile and object layers)"));
                doc.dropped.insert(Dropped::ImageLayers);
            }
            other => return Err(o.bad("type", &format!("tilelayer, objectgroup, group or imagelayer, not {other:?}"))),
        }
    }
    Ok(())
}

/// A Tiled JSON object (or a template's object) as a document holds it, on object layer `layer`.
fn object_doc(ob: &Obj, layer: usize) -> Result<ObjectDoc, MapError> {
    let points = |key: &str| -> Result<Vec<[f64; 2]>, MapError> {
        let mut out = Vec::new();
        for (k, p) in ob.array(key)?.iter().enumerate() {
            let p = Obj::new(p, format!("{}, {key} point {k}", ob.what))?;
            out.push([p.float("x")?, p.float("y")?]);
        }
        Ok(out)
    };
    // Tiled reads a `gid` of tile 0 as none (`if (gid)` in its reader): a rectangle.
    let gid =
        ob.int("gid", Limit::ID)?.map(|g| u32::try_from(g).map_err(|_| ob.bad("gid", "a tile GID"))).transpose()?;
    let shape = if let Some(gid) = gid.filter(|g| g & !Flip::GID_MASK != 0) {
        DocShape::Tile(gid)
    } else if ob.get("polygon").is_some() {
        DocShape::Polygon(points("polygon")?)
    } else if ob.get("polyline").is_some() {
        DocShape::Polyline(points("polyline")?)
    } else if ob.bool_or("ellipse", false)? {
        DocShape::Ellipse
    } else if ob.bool_or("point", false)? {
        DocShape::Point
    } else if ob.bool_or("capsule", false)? {
        DocShape::Capsule
    } else if let Some(text) = ob.get("text") {
        DocShape::Text(Box::new(object_text(&Obj::new(text, format!("{}, text", ob.what))?)?))
    } else {
        DocShape::Rectangle
    };
    Ok(ObjectDoc {
        id: ob.u32_or("id", 0, Limit::ID)?,
        layer,
        name: ob.string("name")?.unwrap_or("").to_owned(),
        // As Tiled reads it: `class`, else (an empty one too) `type`.
        class: ob.string("class")?.filter(|c| !c.is_empty()).or(ob.string("type")?).unwrap_or("").to_owned(),
        x: ob.float("x")?,
        y: ob.float("y")?,
        width: ob.float("width")?,
        height: ob.float("height")?,
        rotation: ob.float("rotation")?,
        shape,
        properties: ob.properties()?,
        hidden: !ob.bool_or("visible", true)?,
        opacity: match ob.get("opacity") {
            None => None,
            Some(_) => Some(ob.float("opacity")? as f32),
        },
        template: None,
    })
}

pub(crate) fn parse(text: &str, path: &Path, files: &dyn SideFiles) -> Result<Loaded, MapError> {
    let mut value: Value = serde_json::from_str(text).map_err(json_error)?;
    tmj_legacy::upgrade_map(&mut value);
    let dir = path.parent().unwrap_or(Path::new(""));
    let (mut doc, sources) = {
        let o = Obj::new(&value, "the map")?;
        let infinite = o.bool_or("infinite", false)?;
        let mut doc = Doc {
            width: o.u32_or("width", 0, Limit::CELLS)?,
            height: o.u32_or("height", 0, Limit::CELLS)?,
            infinite,
            tile_width: o.u32_or("tilewidth", 16, Limit::PIXELS)?,
            tile_height: o.u32_or("tileheight", 16, Limit::PIXELS)?,
            next_object_id: o.u32_or("nextobjectid", 0, Limit::ID)?,
            properties: o.properties()?,
            class: o.string("class")?.unwrap_or("").to_owned(),
            background: match o.string("backgroundcolor")? {
                None => None,
                Some(c) => {
                    Some(Rgba::from_hex(c).ok_or_else(|| o.bad("backgroundcolor", "a colour like \"#202020\""))?)
                }
            },
            ..Doc::default()
        };
        if !infinite {
            map::check_dimensions(doc.width.into(), doc.height.into())?;
        }
        // An order Tiled does not know reads as its default, as Tiled reads it.
        doc.settings.render_order = o.string("renderorder")?.and_then(RenderOrder::from_name).unwrap_or_default();
        let level = o.get("compressionlevel").and_then(Value::as_i64).unwrap_or(-1);
        doc.settings.compression_level = level.clamp(-1, 22) as i32;
        for (k, name) in ["parallaxoriginx", "parallaxoriginy"].into_iter().enumerate() {
            if let Some(v) = o.get(name) {
                doc.settings.parallax_origin[k] =
                    v.as_f64().filter(|v| v.is_finite()).ok_or_else(|| o.bad(name, "a number"))?;
            }
        }
        if let Some(editor) = o.get("editorsettings") {
            let editor = Obj::new(editor, "the map's editorsettings")?;
            if let Some(export) = editor.get("export") {
                let export = Obj::new(export, "the map's editorsettings.export")?;
                doc.editor.export_target = export.string("target")?.unwrap_or("").to_owned();
                doc.editor.export_format = export.string("format")?.unwrap_or("").to_owned();
            }
            if let Some(chunk) = editor.get("chunksize") {
                let chunk = Obj::new(chunk, "the map's editorsettings.chunksize")?;
                doc.editor.chunk_size =
                    Some([chunk.u32_or("width", 16, Limit::CELLS)?, chunk.u32_or("height", 16, Limit::CELLS)?]);
            }
        }
        let grid = |name: &str| match o.get(name)? {
            Value::String(v) => Some(v.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        };
        match Orientation::from_attributes(o.string("orientation")?.unwrap_or("orthogonal"), grid) {
            Ok(orientation) => {
                doc.settings.orientation = orientation;
                doc.warnings.extend(orientation.load_warning());
            }
            Err(warning) => doc.warnings.push(warning),
        }
        let mut warnings = Vec::new();
        let mut sources = Vec::new();
        for (i, t) in o.array("tilesets")?.iter().enumerate() {
            let ts = parse_tileset(t, i, dir, &mut warnings, files)?;
            doc.tilesets.push(ts);
            sources.push(t.get("source").and_then(Value::as_str).map(|s| dir.join(s)));
        }
        doc.warnings.extend(warnings);
        (doc, sources)
    };
    let mut templates =
        Templates { map_dir: dir, read: Vec::new(), tilesets: tiled_common::TemplateTilesets::new(sources), files };
    if let Some(layers) = value.get_mut("layers") {
        templates.instantiate(layers, &mut doc, 0)?;
    }
    let o = Obj::new(&value, "the map")?;
    let layers = o.array("layers")?;
    map::count_layer_cells(&mut 0, declared_cells(layers, doc.infinite, 0))?;
    let templates: Vec<TemplateDoc> = templates.read.into_iter().map(|(_, t)| t).collect();
    parse_layers(layers, None, doc.infinite, &mut doc, &templates, 0)?;
    tiled_common::build_map(doc)
}

/// Tiled's object templates, for a JSON map: each instance (an object with a `template`) is
/// given its template's values where it sets none of its own, as Tiled does, before the layers
/// are read, and keeps its link: [`TEMPLATE_KEY`] numbers its template in `read`. A template is
/// JSON (`.tj`) or, as Tiled lets a JSON map name one, TMX's XML (`.tx`).
struct Templates<'a> {
    map_dir: &'a Path,
    files: &'a dyn SideFiles,
    /// Templates read so far: their object as JSON, its tile numbered as in the map, and as
    /// the document keeps it.
    read: Vec<(Value, TemplateDoc)>,
    tilesets: tiled_common::TemplateTilesets,
}

/// The key an instance's merged JSON holds the index of its template in [`Templates::read`]
/// under (no Tiled key begins with a private-use character).
const TEMPLATE_KEY: &str = "\u{f8ff}sightline: template";

impl Templates<'_> {
    /// Gives every instance among `layers` (a map's or a group's) its template's values.
    fn instantiate(&mut self, layers: &mut Value, doc: &mut Doc, depth: usize) -> Result<(), MapError> {
        let Some(layers) = layers.as_array_mut() else { return Ok(()) };
        for layer in layers.iter_mut() {
            // A group too deep is refused when the layers are read.
            if depth < 64
                && let Some(inner) = layer.get_mut("layers")
            {
                self.instantiate(inner, doc, depth + 1)?;
            }
            let Some(objects) = layer.get_mut("objects").and_then(Value::as_array_mut) else { continue };
            for object in objects {
                let Some(instance) = object.as_object_mut() else { continue };
                let Some(source) = instance.get("template").and_then(Value::as_str).map(str::to_owned) else {
                    continue;
                };
                let index = self.template(&source, doc)?;
                *instance = merged(instance, &self.read[index].0);
                instance.insert(TEMPLATE_KEY.into(), json!(index));
            }
        }
        Ok(())
    }

    /// The index in `read` of the template `source` names (read the first time).
    fn template(&mut self, source: &str, doc: &mut Doc) -> Result<usize, MapError> {
        let path = super::resolve_path(self.map_dir, Path::new(source));
        if let Some(i) = self.read.iter().position(|(_, t)| t.path == path) {
            return Ok(i);
        }
        let in_template = |e: MapError| MapError { file: None, ..e }.in_template(source);
        let bytes = super::read_file(&path).map_err(in_template)?;
        let object = if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
            let mut value: Value = serde_json::from_slice(&bytes).map_err(|e| in_template(json_error(e)))?;
            tmj_legacy::upgrade_template(&mut value);
            let what = format!("template {source:?}");
            template_object(&value, &path, &what, &mut self.tilesets, doc, self.files).map_err(in_template)?
        } else {
            let object = self.files.template(&path, &mut self.tilesets, doc).map_err(in_template)?;
            object_json(&object)
        };
        let what = format!("template {source:?}, its object");
        let template = TemplateDoc { path, object: Box::new(object_doc(&Obj::new(&object, what)?, 0)?) };
        self.read.push((object, template));
        Ok(self.read.len() - 1)
    }
}

/// A template's tile GID (flip bits and all) as the map numbers it: in the map's tileset
/// when it is the template's file, else in that file added to the map's tilesets (once,
/// with a note, as Tiled adds it when an instance is detached).
fn map_gid(
    gid: u64,
    template: &Value,
    path: &Path,
    what: &str,
    tilesets: &mut TemplateTilesets,
    doc: &mut Doc,
    files: &dyn SideFiles,
) -> Result<u32, MapError> {
    let gid = u32::try_from(gid).map_err(|_| MapError::invalid(format!("{what}: gid {gid} is out of range")))?;
    let tileset = template.get("tileset");
    let first_gid = tileset.and_then(|t| t.get("firstgid")).and_then(Value::as_u64).unwrap_or(1);
    let Some(source) = tileset.and_then(|t| t.get("source")).and_then(Value::as_str) else {
        return Err(MapError::invalid(format!("{what}: its tile object names no tileset")));
    };
    let local = u64::from(gid & !Flip::GID_MASK)
        .checked_sub(first_gid)
        .ok_or_else(|| MapError::invalid(format!("{what}: gid {gid} is before its tileset's first")))?;
    let template_dir = path.parent().unwrap_or(Path::new(""));
    let file = template_dir.join(source);
    let count = doc.tilesets.len();
    let index = tilesets.index(doc, &file, |first, warnings| {
        // Named in errors as the template names it.
        let entry = json!({ "firstgid": first, "source": source });
        parse_tileset(&entry, count, template_dir, warnings, files)
    })?;
    let local = u32::try_from(local).map_err(|_| MapError::invalid(format!("{what}: gid {gid} is out of range")))?;
    let tile = doc.tilesets[index].first_gid.checked_add(local).filter(|g| g & Flip::GID_MASK == 0);
    let tile =
        tile.ok_or_else(|| MapError::invalid(format!("{what}: gid {gid} is beyond the tiles a map can number")))?;
    Ok(tile | (gid & Flip::GID_MASK))
}

/// A JSON template's object (`value` is the whole template), its tile numbered as in the map.
fn template_object(
    value: &Value,
    path: &Path,
    what: &str,
    tilesets: &mut TemplateTilesets,
    doc: &mut Doc,
    files: &dyn SideFiles,
) -> Result<Value, MapError> {
    let Some(mut object) = value.get("object").and_then(Value::as_object).cloned() else {
        return Err(MapError::invalid("the template has no object"));
    };
    // A `gid` of tile 0 is none, as in Tiled.
    if let Some(gid) = object.get("gid").and_then(Value::as_u64).filter(|g| g & u64::from(!Flip::GID_MASK) != 0) {
        let gid = map_gid(gid, value, path, what, tilesets, doc, files)?;
        object.insert("gid".into(), json!(gid));
    }
    Ok(Value::Object(object))
}

/// A JSON template file's object (`.tj`), for a TMX map that names one: its tile numbered in
/// `doc` through `tilesets`.
pub(crate) fn read_tj(
    path: &Path,
    tilesets: &mut TemplateTilesets,
    doc: &mut Doc,
    files: &dyn SideFiles,
) -> Result<ObjectDoc, MapError> {
    let bytes = super::read_file(path)?;
    let mut value: Value = serde_json::from_slice(&bytes).map_err(json_error)?;
    tmj_legacy::upgrade_template(&mut value);
    let object = template_object(&value, path, "the template", tilesets, doc, files)?;
    object_doc(&Obj::new(&object, "the template's object")?, 0)
}

/// `instance` over its template's `object` (its tile numbered as in the map): the instance's
/// own values, then the template's for what it leaves out (properties by name).
fn merged(instance: &JsonObject<String, Value>, object: &Value) -> JsonObject<String, Value> {
    let mut merged = object.as_object().cloned().unwrap_or_default();
    let inherited = merged.remove("properties");
    // Tiled 1.9 wrote `class` where other versions write `type`: the instance's either
    // replaces the template's either, unless empty (Tiled then takes the template's).
    let named = |key: &str| instance.get(key).and_then(Value::as_str).is_some_and(|c| !c.is_empty());
    if named("type") || named("class") {
        merged.remove("type");
        merged.remove("class");
    }
    // An instance's `gid` of tile 0 is none, so the template's tile stays (as in Tiled).
    let no_tile = |v: &Value| v.as_u64().is_some_and(|g| g & u64::from(!Flip::GID_MASK) == 0);
    for (key, value) in instance {
        if key != "template" && !(key == "gid" && no_tile(value)) {
            merged.insert(key.clone(), value.clone());
        }
    }
    if let Some(Value::Array(inherited)) = inherited {
        let own = merged.entry("properties").or_insert_with(|| json!([]));
        if let Some(own) = own.as_array_mut() {
            let named = |p: &Value| p.get("name").cloned();
            let kept: Vec<Value> =
                inherited.into_iter().filter(|p| !own.iter().any(|o| named(o) == named(p))).collect();
            own.extend(kept);
        }
    }
    merged
}

/// The cells the tile layers declare (their chunks' in an infinite map), groups included, so that
/// a map past [`map::MAX_LAYER_CELLS`] is refused before any data is decoded. Sizes that are
/// missing or not numbers count as 0 here: reading the layers reports them.
fn declared_cells(values: &[Value], infinite: bool, depth: usize) -> u64 {
    let size = |v: &Value| {
        let side = |key: &str| v.get(key).and_then(Value::as_u64).unwrap_or(0);
        side("width").saturating_mul(side("height"))
    };
    let mut cells = 0u64;
    for v in values {
        let add = match v.get("type").and_then(Value::as_str) {
            Some("tilelayer") if infinite => {
                v.get("chunks").and_then(Value::as_array).map_or(0, |c| c.iter().map(size).fold(0, u64::saturating_add))
            }
            Some("tilelayer") => size(v),
            // Deeper nesting is refused when the layers are read.
            Some("group") if depth <= 64 => {
                v.get("layers").and_then(Value::as_array).map_or(0, |l| declared_cells(l, infinite, depth + 1))
            }
            _ => 0,
        };
        cells = cells.saturating_add(add);
    }
    cells
}

/// Properties as Tiled's JSON writes them: an array of `{name, type, value}`, with
/// `propertytype` for a class or an enum value.
pub fn properties_json(props: &Properties) -> Value {
    Value::Array(
        props
            .iter()
            .map(|(k, v)| {
                let mut property = typed_json(v);
                property["name"] = json!(k);
                property
            })
            .collect(),
    )
}

/// A value with its type, as Tiled's JSON writes a property (without its name) or a list item:
/// `{type, value}`, and `propertytype` when the value has a custom type.
fn typed_json(v: &PropertyValue) -> Value {
    let mut typed = json!({ "type": v.type_name(), "value": json_value(v) });
    if let Some(custom_type) = v.custom_type() {
        typed["propertytype"] = json!(custom_type);
    }
    typed
}

/// What a Tiled JSON save says of class values whose members will read back as another type:
/// Tiled's JSON writes a class value's members bare (their types are in the designer's Tiled
/// project, which a map file does not hold), and a bare value is read as what JSON makes of it
/// (see `Obj::class_members`). An object, file, colour or enum member comes back as a number or
/// text, and a class member without its class name; a bool, int, float, string or list comes
/// back as it was. Only what the map's file holds counts: a tileset referred to in its own file
/// keeps its tiles' properties there. `None` when no member changes.
fn untyped_members_warning(doc: &Doc) -> Option<String> {
    fn comes_back_otherwise(v: &PropertyValue) -> bool {
        match v {
            PropertyValue::Bool(_)
            | PropertyValue::Int(_)
            | PropertyValue::Float(_)
            | PropertyValue::String(_)
            | PropertyValue::List(_) => false,
            PropertyValue::Class { class, .. } => !class.is_empty(),
            PropertyValue::Object(_)
            | PropertyValue::File(_)
            | PropertyValue::Color(_)
            | PropertyValue::Enum { .. } => true,
        }
    }
    fn visit<'a>(v: &'a PropertyValue, out: &mut Vec<&'a str>) {
        match v {
            PropertyValue::Class { members, .. } => {
                for (name, m) in members {
                    if comes_back_otherwise(m) {
                        out.push(name);
                    }
                    visit(m, out);
                }
            }
            PropertyValue::List(items) => items.iter().for_each(|i| visit(i, out)),
            _ => {}
        }
    }
    let mut changed = Vec::new();
    for v in tiled_common::written_property_tables(doc).flat_map(|t| t.values()) {
        visit(v, &mut changed);
    }
    changed.sort_unstable();
    changed.dedup();
    (!changed.is_empty()).then(|| {
        format!(
            "class members {} will read back as another type: Tiled JSON writes a class value's members bare, \
             their types being in the Tiled project (an object, file, colour or enum member comes back as a number \
             or text, a class member without its class name); TMX keeps them",
            super::listed_names(&changed)
        )
    })
}

/// A property's `value` as Tiled's JSON writes it: a class value is an object of its members'
/// bare values, a list an array of typed items.
fn json_value(v: &PropertyValue) -> Value {
    match v {
        PropertyValue::Bool(b) => json!(b),
        PropertyValue::Int(i) | PropertyValue::Enum { value: EnumValue::Int(i), .. } => json!(i),
        PropertyValue::Float(f) => json!(f),
        PropertyValue::String(s) | PropertyValue::File(s) | PropertyValue::Enum { value: EnumValue::String(s), .. } => {
            json!(s)
        }
        PropertyValue::Color(c) => json!(c.map_or_else(String::new, Rgba::to_hex)),
        PropertyValue::Object(id) => json!(id),
        PropertyValue::Class { members, .. } => {
            Value::Object(members.iter().map(|(name, m)| (name.clone(), json_value(m))).collect())
        }
        PropertyValue::List(items) => Value::Array(items.iter().map(typed_json).collect()),
    }
}

/// Tile layer `i` of a document as Tiled JSON, with layer id `id`: its data in the map's layer
/// format (CSV as a mark that [`write_data_rows`] replaces with rows), in chunks of `chunk`
/// cells for an infinite map.
fn tile_layer_json(
    l: &TileLayerDoc,
    i: usize,
    id: usize,
    settings: TiledSettings,
    chunk: Option<[u32; 2]>,
) -> Result<Value, MapError> {
    // CSV is an array, written in rows in place of the mark; base64 a string, written here.
    let (encoding, compression) = settings.layer_format.attributes();
    let encoded = |gids: &[u32], width: u32| -> Result<Value, MapError> {
        Ok(match settings.layer_format {
            LayerFormat::Csv => json!(gids),
            format => json!(tiled_common::encode_gids(gids, width, format, settings.compression_level)?),
        })
    };
    let mut v = json!({
        "id": id,
        "name": l.name,
        "type": "tilelayer",
        "x": 0,
        "y": 0,
        "width": l.width,
        "height": l.height,
        "opacity": l.opacity.map_or(json!(1), |o| json!(super::shortest_f64(o))),
        "visible": l.visible,
    });
    match chunk {
        // An infinite map's chunks, and the rectangle they span (Tiled's `startx`, `starty`).
        Some([w, h]) => {
            let chunks = l.chunks([w, h]);
            let mut written = Vec::with_capacity(chunks.len());
            for (x, y, gids) in &chunks {
                written.push(json!({"data": encoded(gids, w)?, "x": x, "y": y, "width": w, "height": h}));
            }
            let (xs, ys) = (chunks.iter().map(|c| c.0), chunks.iter().map(|c| c.1));
            let (x0, y0) = (xs.clone().min().unwrap_or(0), ys.clone().min().unwrap_or(0));
            let (x1, y1) = (xs.max().map_or(0, |x| x + i64::from(w)), ys.max().map_or(0, |y| y + i64::from(h)));
            v["chunks"] = json!(written);
            (v["startx"], v["starty"], v["width"], v["height"]) =
                (json!(x0), json!(y0), json!(x1 - x0), json!(y1 - y0));
        }
        None if settings.layer_format == LayerFormat::Csv => v["data"] = json!(data_mark(i)),
        None => v["data"] = encoded(&l.gids, l.width)?,
    }
    if settings.layer_format != LayerFormat::Csv {
        v["encoding"] = json!(encoding);
    }
    if let Some(c) = compression {
        v["compression"] = json!(c);
    }
    add_look_json(&mut v, l.locked, l.tint, l.offset, l.parallax, &l.properties, &l.class);
    Ok(v)
}

/// What every layer and group writes alike, each only when it is not Tiled's default: the
/// lock, tint colour, offset, parallax factor and properties.
fn add_look_json(
    v: &mut Value,
    locked: bool,
    tint: Option<Rgba>,
    offset: [f64; 2],
    parallax: [f64; 2],
    properties: &Properties,
    class: &str,
) {
    if !class.is_empty() {
        v["class"] = json!(class);
    }
    if locked {
        v["locked"] = json!(true);
    }
    if let Some(tint) = tint {
        v["tintcolor"] = json!(crate::core::model::wang::tiled_color(tint));
    }
    if offset != [0.0, 0.0] {
        (v["offsetx"], v["offsety"]) = (json!(offset[0]), json!(offset[1]));
    }
    if parallax != [1.0, 1.0] {
        (v["parallaxx"], v["parallaxy"]) = (json!(parallax[0]), json!(parallax[1]));
    }
    if !properties.is_empty() {
        v["properties"] = properties_json(properties);
    }
}

/// A text object's `text` (Tiled's text object: its text and layout; what is left out is Tiled's
/// default).
fn object_text(o: &Obj) -> Result<ObjectText, MapError> {
    let defaults = ObjectText::new("");
    Ok(ObjectText {
        text: o.string("text")?.unwrap_or("").to_owned(),
        font_family: o.string("fontfamily")?.map_or(defaults.font_family, str::to_owned),
        pixel_size: o.u32_or("pixelsize", defaults.pixel_size, Limit::PIXELS)?,
        wrap: o.bool_or("wrap", false)?,
        color: match o.string("color")? {
            None => defaults.color,
            Some(c) => Rgba::from_hex(c).ok_or_else(|| o.bad("color", "a colour like \"#000000\""))?,
        },
        bold: o.bool_or("bold", false)?,
        italic: o.bool_or("italic", false)?,
        underline: o.bool_or("underline", false)?,
        strikeout: o.bool_or("strikeout", false)?,
        kerning: o.bool_or("kerning", true)?,
        halign: match o.string("halign")? {
            None => defaults.halign,
            Some(a) => HorizontalAlign::from_tiled_name(a)
                .ok_or_else(|| o.bad("halign", "\"left\", \"center\", \"right\" or \"justify\""))?,
        },
        valign: match o.string("valign")? {
            None => defaults.valign,
            Some(a) => {
                VerticalAlign::from_tiled_name(a).ok_or_else(|| o.bad("valign", "\"top\", \"center\" or \"bottom\""))?
            }
        },
    })
}

/// A text object's `text` as Tiled writes it: the text, and what of its layout is not Tiled's
/// default.
fn text_json(t: &ObjectText) -> Value {
    let mut v = json!({ "text": t.text });
    for (name, value) in tiled_common::text_attributes(t) {
        v[name] = match value {
            TextAttribute::Text(text) => json!(text),
            TextAttribute::Number(n) => json!(n),
            TextAttribute::Flag(on) => json!(on),
        };
    }
    v
}

/// A layer group as Tiled JSON, with layer id `id`, holding `layers`.
fn group_json(g: &LayerGroup, id: usize, layers: Vec<Value>) -> Value {
    let mut v = json!({
        "id": id,
        "name": g.name,
        "type": "group",
        "x": 0,
        "y": 0,
        "opacity": super::shortest_f64(g.opacity),
        "visible": g.visible,
        "layers": layers,
    });
    add_look_json(&mut v, g.locked, g.tint, g.offset, g.parallax, &g.properties, &g.class);
    v
}

/// An object as Tiled JSON writes it: an instance (see [`ObjectDoc::overrides`]) its template and
/// what it sets itself, any other object everything.
fn object_json(o: &ObjectDoc) -> Value {
    let mut v = json!({"id": o.id});
    let own = o.overrides().and_then(Result::ok);
    if let Some(t) = &o.template
        && own.is_some()
    {
        v["template"] = json!(super::file_reference(&t.path));
    }
    // An instance writes what it overrides; any other object, what is not Tiled's default
    // (`not_default`: always, for what Tiled always writes).
    let writes = |overridden: fn(&tiled_common::Overrides) -> bool, not_default: bool| {
        own.as_ref().map_or(not_default, overridden)
    };
    if writes(|w| w.name, true) {
        v["name"] = json!(o.name);
    }
    if writes(|w| w.class, true) {
        v["type"] = json!(o.class);
    }
    v["x"] = json!(o.x);
    v["y"] = json!(o.y);
    if writes(|w| w.size, true) {
        v["width"] = json!(o.width);
        v["height"] = json!(o.height);
    }
    if writes(|w| w.rotation, true) {
        v["rotation"] = json!(o.rotation);
    }
    if writes(|w| w.visible, true) {
        v["visible"] = json!(!o.hidden);
    }
    if writes(|w| w.opacity, o.opacity() != 1.0) {
        v["opacity"] = json!(super::shortest_f64(o.opacity()));
    }
    let points = |p: &[[f64; 2]]| p.iter().map(|[x, y]| json!({"x": x, "y": y})).collect::<Vec<_>>();
    match &o.shape {
        _ if !writes(|w| w.shape, true) => {}
        DocShape::Point => v["point"] = json!(true),
        DocShape::Ellipse => v["ellipse"] = json!(true),
        DocShape::Capsule => v["capsule"] = json!(true),
        DocShape::Text(t) => v["text"] = text_json(t),
        DocShape::Polygon(p) => v["polygon"] = json!(points(p)),
        DocShape::Polyline(p) => v["polyline"] = json!(points(p)),
        DocShape::Tile(gid) => v["gid"] = json!(gid),
        DocShape::Rectangle => {}
    }
    let properties = own.as_ref().map_or(&o.properties, |w| &w.properties);
    if !properties.is_empty() {
        v["properties"] = properties_json(properties);
    }
    v
}

/// Object layer `j` of a document, with its objects, as Tiled JSON, with layer id `id`.
fn object_layer_json(doc: &Doc, j: usize, id: usize) -> Value {
    let layer = &doc.object_layers[j];
    let objects: Vec<Value> = doc.objects_on(j).map(object_json).collect();
    let mut v = json!({
        "id": id,
        "name": layer.name,
        "type": "objectgroup",
        "draworder": layer.draw_order.name(),
        "opacity": super::shortest_f64(layer.opacity),
        "visible": layer.visible,
        "x": 0,
        "y": 0,
        "objects": objects,
    });
    if let Some(c) = layer.color {
        v["color"] = json!(crate::core::model::wang::tiled_color(c));
    }
    add_look_json(&mut v, layer.locked, layer.tint, layer.offset, layer.parallax, &layer.properties, &layer.class);
    v
}

/// What stands for layer `i`'s data in the document until [`write_data_rows`] writes it: a string
/// no map holds (it starts and ends with a control character, escaped in the JSON text).
fn data_mark(i: usize) -> String {
    format!("\u{1}sightline layer {i} data\u{1}")
}

/// The document `text` with each layer's data mark replaced by its GIDs, a map row a line, as
/// Tiled's CSV is written. (serde_json's pretty printer puts each number of an array on a line of
/// its own: a 2048 × 2048 layer was 4.4 million lines, and building the array as JSON values took
/// 1.6 GB for 4096 × 4096.)
fn write_data_rows(text: &str, layers: &[TileLayerDoc]) -> Result<String, MapError> {
    let mut places = Vec::with_capacity(layers.len());
    for (i, layer) in layers.iter().enumerate() {
        let mark = serde_json::to_string(&data_mark(i)).map_err(json_error)?;
        let mut found = text.match_indices(&mark);
        let (Some((at, _)), None) = (found.next(), found.next()) else {
            return Err(MapError::invalid(format!(
                "cannot write JSON: layer {:?}: its data's place in the document is not unique",
                layer.name
            )));
        };
        places.push((at, mark.len(), layer));
    }
    places.sort_by_key(|&(at, ..)| at);
    let cells: usize = layers.iter().map(|l| l.gids.len()).sum();
    let mut out = String::with_capacity(text.len() + cells * 5);
    let mut copied = 0;
    for (at, mark_len, layer) in places {
        out.push_str(&text[copied..at]);
        copied = at + mark_len;
        // The mark's line: `<indent>"data": "<mark>",`; the rows go two spaces deeper.
        let line = &text[text[..at].rfind('\n').map_or(0, |n| n + 1)..];
        let indent = line.len() - line.trim_start().len();
        out.push('[');
        for (r, row) in layer.gids.chunks((layer.width as usize).max(1)).enumerate() {
            out.push_str(if r == 0 { "\n" } else { ",\n" });
            out.extend(std::iter::repeat_n(' ', indent + 2));
            for (c, gid) in row.iter().enumerate() {
                if c > 0 {
                    out.push(',');
                }
                // (Writing into a String cannot fail.)
                let _ = write!(out, "{gid}");
            }
        }
        if !layer.gids.is_empty() {
            out.push('\n');
            out.extend(std::iter::repeat_n(' ', indent));
        }
        out.push(']');
    }
    out.push_str(&text[copied..]);
    Ok(out)
}

/// A tileset's JSON object, whole, as a map embeds it (without its `firstgid`) or a `.tsj` file
/// holds it (image path as the document has it).
fn tileset_json(ts: &TilesetDoc) -> Value {
    let mut t = json!({
        "name": ts.name,
        "tilewidth": ts.tile_width,
        "tileheight": ts.tile_height,
        "tilecount": ts.tile_count,
        "columns": ts.columns,
        "spacing": ts.spacing,
        "margin": ts.margin,
    });
    if !ts.class.is_empty() {
        t["class"] = json!(ts.class);
    }
    if let Some(image) = &ts.image {
        let (w, h) = tiled_common::image_size(ts);
        t["image"] = json!(super::file_reference(image));
        t["imagewidth"] = json!(w);
        t["imageheight"] = json!(h);
        if let Some(c) = ts.transparent {
            t["transparentcolor"] = json!(c.to_hex());
        }
    }
    if !ts.properties.is_empty() {
        t["properties"] = properties_json(&ts.properties);
    }
    let d = &ts.drawing;
    if d.object_alignment != ObjectAlignment::Unspecified {
        t["objectalignment"] = json!(d.object_alignment.name());
    }
    if d.grid_size {
        t["tilerendersize"] = json!(d.render_size_name());
    }
    if d.preserve_aspect {
        t["fillmode"] = json!(d.fill_mode_name());
    }
    if let Some(x) = d.transformations {
        t["transformations"] = json!({
            "hflip": x.hflip,
            "vflip": x.vflip,
            "rotate": x.rotate,
            "preferuntransformed": x.prefer_untransformed,
        });
    }
    if !ts.tiles.is_empty() {
        t["tiles"] = Value::Array(
            ts.tiles
                .iter()
                .map(|(id, tile)| {
                    let mut v = json!({ "id": id });
                    if !tile.class.is_empty() {
                        v["type"] = json!(tile.class);
                    }
                    if let Some(p) = tile.probability {
                        v["probability"] = json!(super::shortest_f64(p));
                    }
                    if !tile.properties.is_empty() {
                        v["properties"] = properties_json(&tile.properties);
                    }
                    if !tile.animation.is_empty() {
                        let frames = tile.animation.iter();
                        v["animation"] = frames
                            .map(|f| json!({ "tileid": f.tile, "duration": f.duration_ms }))
                            .collect::<Vec<_>>()
                            .into();
                    }
                    v
                })
                .collect(),
        );
    }
    if !ts.wang_sets.is_empty() {
        t["wangsets"] = wang_sets_json(&ts.wang_sets);
    }
    if ts.offset != [0, 0] {
        t["tileoffset"] = json!({ "x": ts.offset[0], "y": ts.offset[1] });
    }
    t
}

/// A tileset as a `.tsj` file holds it.
pub(crate) fn tileset_file(ts: &TilesetDoc) -> String {
    let mut t = tileset_json(ts);
    t["type"] = json!("tileset");
    t["version"] = json!("1.10");
    t["tiledversion"] = json!("1.10.2");
    let mut text = serde_json::to_string_pretty(&t).unwrap_or_default();
    text.push('\n');
    text
}

pub(super) fn to_string(map: &crate::core::Map, path: &Path) -> Result<Written, MapError> {
    let placement = tiled_common::export_doc(map, path);
    let doc = placement.doc;
    let tilesets: Vec<Value> = doc
        .tilesets
        .iter()
        .map(|ts| {
            if let Some(source) = &ts.source {
                return json!({ "firstgid": ts.first_gid, "source": super::file_reference(source) });
            }
            let mut t = tileset_json(ts);
            t["firstgid"] = json!(ts.first_gid);
            t
        })
        .collect();
    // Layers in stack order, numbered from 1 in it (Tiled's layer ids), then the groups.
    // An infinite map's layers in chunks ([`TiledEditorSettings::chunk_cells`]).
    let chunk = doc.infinite.then(|| doc.editor.chunk_cells());
    let stack = doc.stack();
    // The layers of the groups open so far, innermost last; the map's own first.
    let mut open: Vec<Vec<Value>> = vec![Vec::new()];
    for item in map::outline(stack.len(), &doc.groups) {
        match item {
            OutlineItem::Open(_) => open.push(Vec::new()),
            OutlineItem::Close(g) => {
                let inner = open.pop().unwrap_or_default();
                let group = group_json(&doc.groups[g], stack.len() + g + 1, inner);
                open.last_mut().expect("the map's own layers stay open").push(group);
            }
            OutlineItem::Layer(k) => {
                let layer = match stack[k] {
                    LayerRef::Tiles(i) => tile_layer_json(&doc.layers[i], i, k + 1, doc.settings, chunk)?,
                    LayerRef::Objects(j) => object_layer_json(&doc, j, k + 1),
                };
                open.last_mut().expect("the map's own layers stay open").push(layer);
            }
        }
    }
    let layers = open.pop().unwrap_or_default();
    let mut root = json!({
        "type": "map",
        "version": "1.10",
        "tiledversion": "1.10.2",
        "orientation": "orthogonal",
        "renderorder": doc.settings.render_order.name(),
        "infinite": doc.infinite,
        "width": doc.width,
        "height": doc.height,
        "tilewidth": doc.tile_width,
        "tileheight": doc.tile_height,
        "nextlayerid": stack.len() + doc.groups.len() + 1,
        "nextobjectid": doc.next_object_id,
        "compressionlevel": doc.settings.compression_level,
        "tilesets": tilesets,
        "layers": layers,
    });
    if !doc.properties.is_empty() {
        root["properties"] = properties_json(&doc.properties);
    }
    if !doc.class.is_empty() {
        root["class"] = json!(doc.class);
    }
    if let Some(c) = doc.background {
        root["backgroundcolor"] = json!(crate::core::model::wang::tiled_color(c));
    }
    if !doc.editor.is_empty() {
        let mut editor = json!({});
        if let Some([w, h]) = doc.editor.chunk_size {
            editor["chunksize"] = json!({"width": w, "height": h});
        }
        if !(doc.editor.export_target.is_empty() && doc.editor.export_format.is_empty()) {
            editor["export"] = json!({"target": doc.editor.export_target, "format": doc.editor.export_format});
        }
        root["editorsettings"] = editor;
    }
    root["orientation"] = json!(doc.settings.orientation.name());
    for (name, v) in doc.settings.orientation.grid_attributes() {
        root[name] = match v.parse::<i64>() {
            Ok(length) => json!(length),
            Err(_) => json!(v),
        };
    }
    for (name, v) in ["parallaxoriginx", "parallaxoriginy"].into_iter().zip(doc.settings.parallax_origin) {
        if v != 0.0 {
            root[name] = json!(v);
        }
    }
    let mut text =
        serde_json::to_string_pretty(&root).map_err(|e| MapError::invalid(format!("cannot write JSON: {e}")))?;
    if doc.settings.layer_format == LayerFormat::Csv && !doc.infinite {
        text = write_data_rows(&text, &doc.layers)?;
    }
    text.push('\n');
    let members_warning = untyped_members_warning(&doc);
    let mut warnings = doc.warnings;
    warnings.extend(members_warning);
    Ok(Written {
        text,
        extra_files: tiled_common::extra_files(placement.glyph_image)?,
        warnings,
        notes: placement.notes,
    })
}
