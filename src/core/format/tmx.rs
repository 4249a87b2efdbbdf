//! Tiled TMX maps (and their external TSX tilesets), read through the `tiled` crate and written
//! as XML that Tiled opens. See [`super::tiled_common`] for the properties and rules.
//!
//! Before `tiled` parses a file, a pre-pass over its XML checks the sizes it declares (map and
//! chunk dimensions, tile counts), so a corrupt or hostile file is refused with a message instead of
//! making the parser allocate gigabytes. The pre-pass also reads each layer's `locked` flag, which
//! `tiled` does not expose.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use quick_xml::events::Event;

use super::tiled_common::{
    self, Doc, DocShape, Dropped, FrameDoc, ObjectDoc, TemplateDoc, TextAttribute, TileDoc, TileLayerDoc, TilesetDoc,
    Written,
};
use super::{Loaded, MAX_FILE_BYTES};
use crate::core::model::error::{MapError, MapErrorKind};
use crate::core::model::flip::Flip;
use crate::core::model::map::{self, DrawOrder, LayerGroup, LayerRef, MAX_MAP_SIDE, ObjectLayer, OutlineItem};
use crate::core::model::object::{HorizontalAlign, ObjectText, VerticalAlign};
use crate::core::model::sheet_drawing::{ObjectAlignment, SheetDrawing, TileTransformations};
use crate::core::model::tile::{EnumValue, Properties, PropertyValue, Rgb, Rgba};
use crate::core::model::tiled_settings::{LayerFormat, Orientation, RenderOrder, TiledEditorSettings, TiledSettings};
use crate::core::model::wang::{WangColor, WangKind, WangSet};

/// A tile layer's data, decoded by the pre-pass.
#[derive(Default)]
struct ScannedLayer {
    name: String,
    locked: bool,
    width: u32,
    height: u32,
    /// Finite maps: `width × height` GIDs.
    gids: Vec<u32>,
    /// Infinite maps: chunks as `(x, y, width, gids)`.
    chunks: Vec<(i64, i64, u32, Vec<u32>)>,
}

/// What the pre-pass learned.
#[derive(Default)]
struct Scan {
    /// Tile layers in document order (groups flattened), as `tiled` lists them.
    layers: Vec<ScannedLayer>,
    /// `firstgid` of each tileset of the map, in order.
    first_gids: Vec<u32>,
    /// The file with `tilecount`/`columns` added to image tilesets that lack them and sizes added
    /// to images that lack them (Tiled before 1.0 did not write them, and `tiled` requires them);
    /// `None` when nothing was missing.
    patched: Option<Vec<u8>>,
    /// The map's `nextobjectid` (0: none), which the `tiled` crate does not read.
    next_object_id: u32,
    /// Each object layer's `locked` flag, in document order (the `tiled` crate does not read
    /// it); a tile's collision shapes are not layers and do not count.
    object_layers_locked: Vec<bool>,
    /// Each map object's `template` attribute (`None`: not an instance), in document order, as
    /// `tiled` lists the objects; a tile's collision shapes are not map objects and do not count.
    /// `tiled` gives an instance its template's values and forgets the link.
    object_templates: Vec<Option<String>>,
    /// Each map object's class as Tiled reads it (`class`, else `type`; `None`: empty), in the
    /// same order: `tiled` prefers `type`, and gives an instance that names only a `class` its
    /// template's `type`.
    object_classes: Vec<Option<String>>,
    /// Each `<group>`'s `locked`, in document order (`tiled` does not read it).
    groups_locked: Vec<bool>,
    /// The map's `<editorsettings>`, which `tiled` does not read.
    editor: TiledEditorSettings,
    /// The tileset files the map names (its `<tileset source>` attributes).
    tileset_sources: Vec<String>,
    /// The map's `renderorder` and `compressionlevel`, and its layer format: the last tile
    /// layer's data's, as Tiled takes it.
    settings: TiledSettings,
}

/// A `<tileset>` start tag without `tilecount`, waiting for its `<image>` to size it.
struct UncountedTileset {
    insert_at: usize,
    tile_width: i64,
    tile_height: i64,
    spacing: i64,
    margin: i64,
}

/// A `<property>` or `<item>` start tag (not self-closed) holding an enum value, waiting for
/// its end tag to be patched whole (see [`enum_value_as_class`]).
struct OpenEnum {
    start: usize,
    tag: String,
    name: Option<String>,
    storage: String,
    enum_type: String,
    value: Option<String>,
    text: String,
}

/// The `<data>` (or `<chunk>`) being read.
struct OpenData {
    encoding: Option<String>,
    compression: Option<String>,
    text: String,
    /// `<tile gid=".."/>` children (XML encoding).
    tiles: Vec<u32>,
    /// The chunk being read: x, y, width, height.
    chunk: Option<(i64, i64, u32, u32)>,
    saw_chunks: bool,
}

impl OpenData {
    fn decode(&mut self, expected: usize) -> Result<Vec<u32>, MapError> {
        let text = std::mem::take(&mut self.text);
        let gids = match self.encoding.as_deref() {
            Some("csv") => tiled_common::decode_csv_gids(&text)?,
            Some("base64") => tiled_common::decode_base64_gids(&text, self.compression.as_deref(), expected)?,
            None => std::mem::take(&mut self.tiles),
            Some(other) => {
                return Err(MapError::invalid(format!("data encoding {other:?} is not supported (use csv or base64)")));
            }
        };
        if gids.len() != expected {
            return Err(MapErrorKind::DataLength { expected, found: gids.len() }.into());
        }
        Ok(gids)
    }
}

fn line_of(bytes: &[u8], pos: usize) -> usize {
    bytes[..pos.min(bytes.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// Reads the whole file once with quick-xml before `tiled` does: checks every declared size,
/// decodes the layer data (so we see the real GIDs and their count), reads `locked` and `firstgid`,
/// and patches what old Tiled versions left out. `dir` is the file's folder, where images without
/// a declared size are looked up.
fn scan(bytes: &[u8], dir: &Path) -> Result<Scan, MapError> {
    count_declared_cells(bytes)?;
    let mut reader = quick_xml::Reader::from_reader(bytes);
    let mut buf = Vec::new();
    let mut scan = Scan::default();
    let mut total_tiles: u64 = 0;
    let mut uncounted: Option<UncountedTileset> = None;
    // Byte ranges of the file to replace (empty ones insert), and their text.
    let mut patches: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut depth_in_map = 0usize;
    let mut in_tileset = false;
    // Inside an `<imagelayer>`, whose image sightline neither draws nor writes.
    let mut in_image_layer = false;
    let mut layer_open = false;
    let mut data: Option<OpenData> = None;
    let mut infinite = false;
    // Cells of the layers (or, in an infinite map, of the chunks) met so far.
    let mut layer_cells = 0u64;
    let mut open_enum: Option<OpenEnum> = None;
    loop {
        let pos = reader.buffer_position();
        let event = reader.read_event_into(&mut buf).map_err(|e| {
            MapError::syntax("XML", e.to_string()).at_line(line_of(bytes, reader.buffer_position()), None)
        })?;
        let end = reader.buffer_position();
        let at = |m: MapError| m.at_line(line_of(bytes, pos), None);
        let layer_name = scan.layers.last().map(|l| l.name.clone()).unwrap_or_default();
        match &event {
            Event::Eof if depth_in_map > 0 => {
                return Err(MapError::syntax("XML", "the file ends before </map> (it is cut short)")
                    .at_line(line_of(bytes, bytes.len()), None));
            }
            Event::Eof => break,
            Event::Text(t) => {
                if let Some(d) = &mut data {
                    let text = t.unescape().map_err(|e| at(MapError::syntax("XML", e.to_string())))?;
                    d.text.push_str(&text);
                }
                if let Some(open) = &mut open_enum {
                    let text = t.unescape().map_err(|e| at(MapError::syntax("XML", e.to_string())))?;
                    open.text.push_str(&text);
                }
            }
            Event::CData(t) => {
                if let Some(d) = &mut data {
                    d.text.push_str(&String::from_utf8_lossy(t));
                }
                if let Some(open) = &mut open_enum {
                    open.text.push_str(&String::from_utf8_lossy(t));
                }
            }
            Event::End(e) => match e.name().as_ref() {
                b"property" | b"item" if open_enum.is_some() => {
                    if let Some(open) = open_enum.take() {
                        let value = open.value.unwrap_or(open.text);
                        let element = enum_value_as_class(
                            &open.tag,
                            open.name.as_deref(),
                            &open.storage,
                            &open.enum_type,
                            &value,
                        );
                        patches.push((open.start..end, element));
                    }
                }
                b"chunk" => {
                    if let Some(d) = &mut data
                        && let Some((x, y, w, h)) = d.chunk.take()
                    {
                        let gids = d.decode(w as usize * h as usize).map_err(|e| at(e.in_layer(&layer_name)))?;
                        if let Some(l) = scan.layers.last_mut() {
                            l.chunks.push((x, y, w, gids));
                        }
                    }
                }
                b"data" => {
                    // An infinite map's layer without chunks holds no tile (Tiled writes it as
                    // an empty `<data/>`; another writer may leave white space in it).
                    if let Some(mut d) = data.take()
                        && !d.saw_chunks
                        && !infinite
                        && let Some(l) = scan.layers.last_mut()
                    {
                        let expected = l.width as usize * l.height as usize;
                        l.gids = d.decode(expected).map_err(|e| at(e.in_layer(&layer_name)))?;
                    }
                }
                b"layer" => layer_open = false,
                b"tileset" => in_tileset = false,
                b"imagelayer" => in_image_layer = false,
                b"map" => depth_in_map = 0,
                _ => {}
            },
            Event::Start(e) | Event::Empty(e) => {
                let attr = |name: &str| -> Result<Option<String>, MapError> {
                    for a in e.attributes() {
                        let a = a.map_err(|err| at(MapError::syntax("XML", err.to_string())))?;
                        if a.key.as_ref() == name.as_bytes() {
                            let v = a.unescape_value().map_err(|err| at(MapError::syntax("XML", err.to_string())))?;
                            return Ok(Some(v.into_owned()));
                        }
                    }
                    Ok(None)
                };
                let number = |name: &str| -> Result<Option<i64>, MapError> {
                    match attr(name)? {
                        None => Ok(None),
                        Some(v) => v.trim().parse::<i64>().map(Some).map_err(|_| {
                            at(MapError::invalid(format!("attribute {name}={v:?} is not a whole number")))
                        }),
                    }
                };
                let is_start = matches!(event, Event::Start(_));
                match e.name().as_ref() {
                    b"map" => {
                        depth_in_map = 1;
                        // Tiled opens a map without a `version`; the `tiled` crate does not.
                        if attr("version")?.is_none() && bytes[pos..].starts_with(b"<map") {
                            patches.push((pos + "<map".len()..pos + "<map".len(), " version=\"1.0\"".into()));
                        }
                        infinite = number("infinite")?.unwrap_or(0) != 0;
                        scan.next_object_id = u32::try_from(number("nextobjectid")?.unwrap_or(0)).unwrap_or(0);
                        // Tiled reads an order it does not know as its default, and so do we.
                        let order = attr("renderorder")?.and_then(|o| RenderOrder::from_name(&o));
                        scan.settings.render_order = order.unwrap_or_default();
                        let level = number("compressionlevel")?.unwrap_or(-1);
                        scan.settings.compression_level = level.clamp(-1, 22) as i32;
                        // An orientation Tiled does not know is left to `tiled`, which refuses it.
                        let orientation = attr("orientation")?.unwrap_or_else(|| "orthogonal".into());
                        let grid = |name: &str| attr(name).ok().flatten();
                        scan.settings.orientation =
                            Orientation::from_attributes(&orientation, grid).unwrap_or_default();
                        for (k, name) in ["parallaxoriginx", "parallaxoriginy"].into_iter().enumerate() {
                            if let Some(v) = attr(name)? {
                                scan.settings.parallax_origin[k] =
                                    v.trim().parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| {
                                        at(MapError::invalid(format!("attribute {name}={v:?} is not a number")))
                                    })?;
                            }
                        }
                        if !infinite {
                            map::check_dimensions(number("width")?.unwrap_or(0), number("height")?.unwrap_or(0))
                                .map_err(at)?;
                        }
                    }
                    b"layer" => {
                        let (w, h) = (number("width")?.unwrap_or(0), number("height")?.unwrap_or(0));
                        let max = i64::from(MAX_MAP_SIDE);
                        if !(0..=max).contains(&w) || !(0..=max).contains(&h) {
                            return Err(at(MapErrorKind::Dimensions { width: w, height: h }.into()));
                        }
                        if !infinite {
                            map::count_layer_cells(&mut layer_cells, (w * h) as u64).map_err(at)?;
                        }
                        scan.layers.push(ScannedLayer {
                            name: attr("name")?.unwrap_or_default(),
                            locked: number("locked")?.unwrap_or(0) != 0,
                            width: w as u32,
                            height: h as u32,
                            ..ScannedLayer::default()
                        });
                        layer_open = is_start;
                    }
                    b"data" if layer_open => {
                        let (encoding, compression) = (attr("encoding")?, attr("compression")?);
                        if let Some(format) = LayerFormat::from_attributes(encoding.as_deref(), compression.as_deref())
                        {
                            scan.settings.layer_format = format;
                        }
                        if is_start {
                            data = Some(OpenData {
                                encoding,
                                compression,
                                text: String::new(),
                                tiles: Vec::new(),
                                chunk: None,
                                saw_chunks: false,
                            });
                        } else if let Some(l) = scan.layers.last_mut() {
                            // An empty <data/>: a layer with no tiles.
                            l.gids = vec![0; l.width as usize * l.height as usize];
                        }
                    }
                    b"chunk" => {
                        let (w, h) = (number("width")?.unwrap_or(0), number("height")?.unwrap_or(0));
                        let max = i64::from(MAX_MAP_SIDE);
                        if !(0..=max).contains(&w) || !(0..=max).contains(&h) {
                            return Err(at(MapErrorKind::Dimensions { width: w, height: h }.into()));
                        }
                        let (x, y) = (number("x")?.unwrap_or(0), number("y")?.unwrap_or(0));
                        map::count_layer_cells(&mut layer_cells, (w * h) as u64).map_err(at)?;
                        if let Some(d) = &mut data {
                            d.saw_chunks = true;
                            d.text.clear();
                            d.tiles.clear();
                            d.chunk = Some((x, y, w as u32, h as u32));
                            if !is_start {
                                let gids =
                                    d.decode(w as usize * h as usize).map_err(|e| at(e.in_layer(&layer_name)))?;
                                d.chunk = None;
                                if let Some(l) = scan.layers.last_mut() {
                                    l.chunks.push((x, y, w as u32, gids));
                                }
                            }
                        }
                    }
                    b"property" | b"item" => {
                        if let Some(open) = &open_enum {
                            // The enum's element is replaced whole: it cannot hold another.
                            let held = open.name.as_deref().map_or(String::new(), |n| format!("property {n:?}"));
                            return Err(at(MapError::invalid(format!(
                                "{} of enum type {:?} holds a <{}> element; an enum's value is text",
                                if held.is_empty() { "a list item" } else { &held },
                                open.enum_type,
                                String::from_utf8_lossy(e.name().as_ref())
                            ))));
                        }
                        // Checked here, where the line is known: the `tiled` crate's error names
                        // neither the property nor where it is.
                        if let (Some(kind), Some(value)) = (attr("type")?, attr("value")?)
                            && let Some(fix) = property_value_fix(&kind, &value)
                        {
                            let name = attr("name")?.unwrap_or_default();
                            return Err(at(MapError::invalid(format!(
                                "property {name:?} of type {kind:?} has value {value:?}: {fix}"
                            ))));
                        }
                        // The `tiled` crate would cut a number beyond an i32 or an f32; it reads
                        // our mark instead.
                        if !is_start
                            && bytes.get(pos) == Some(&b'<')
                            && attr("propertytype")?.is_none_or(|t| t.is_empty())
                            && let (Some(kind), Some(value)) = (attr("type")?, attr("value")?)
                            && number_needs_exact_read(&kind, &value)
                        {
                            let tag = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                            let element = exact_number_as_class(&tag, attr("name")?.as_deref(), &kind, &value);
                            patches.push((pos..end, element));
                        }
                        let storage = attr("type")?.unwrap_or_else(|| "string".to_owned());
                        if let Some(enum_type) = attr("propertytype")?.filter(|t| !t.is_empty())
                            && (storage == "string" || storage == "int")
                            && bytes.get(pos) == Some(&b'<')
                        {
                            let tag = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                            let (name, value) = (attr("name")?, attr("value")?);
                            if is_start {
                                open_enum = Some(OpenEnum {
                                    start: pos,
                                    tag,
                                    name,
                                    storage,
                                    enum_type,
                                    value,
                                    text: String::new(),
                                });
                            } else {
                                let element = enum_value_as_class(
                                    &tag,
                                    name.as_deref(),
                                    &storage,
                                    &enum_type,
                                    &value.unwrap_or_default(),
                                );
                                patches.push((pos..end, element));
                            }
                        }
                        // Tiled writes an unset colour as `value=""`, which the `tiled` crate
                        // refuses; it reads our mark as a string instead.
                        if attr("type")?.as_deref() == Some("color")
                            && attr("value")?.as_deref() == Some("")
                            && bytes.get(pos) == Some(&b'<')
                        {
                            let name = match attr("name")? {
                                Some(n) => format!(" name=\"{}\"", escape(&n)),
                                None => String::new(),
                            };
                            let tag = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                            let close = if is_start { ">" } else { "/>" };
                            patches.push((pos..end, format!("<{tag}{name} value=\"{UNSET_COLOUR}\"{close}")));
                        }
                    }
                    b"tile" if data.is_some() => {
                        let gid = number("gid")?.unwrap_or(0);
                        let gid = u32::try_from(gid)
                            .map_err(|_| at(MapError::invalid(format!("gid {gid} is out of range"))))?;
                        if let Some(d) = &mut data {
                            d.tiles.push(gid);
                        }
                    }
                    b"object" if !in_tileset => {
                        scan.object_templates.push(attr("template")?);
                        let class = attr("class")?.filter(|c| !c.is_empty());
                        scan.object_classes.push(class.or(attr("type")?).filter(|c| !c.is_empty()));
                    }
                    b"objectgroup" if !in_tileset => {
                        scan.object_layers_locked.push(number("locked")?.unwrap_or(0) != 0);
                    }
                    b"group" if !in_tileset => {
                        scan.groups_locked.push(number("locked")?.unwrap_or(0) != 0);
                    }
                    // The map's `<editorsettings>` (a tileset's are its own).
                    b"export" if !in_tileset => {
                        scan.editor.export_target = attr("target")?.unwrap_or_default();
                        scan.editor.export_format = attr("format")?.unwrap_or_default();
                    }
                    b"chunksize" if !in_tileset => {
                        let side = |name| -> Result<u32, MapError> {
                            Ok(number(name)?.and_then(|n| u32::try_from(n).ok()).unwrap_or(16))
                        };
                        scan.editor.chunk_size = Some([side("width")?, side("height")?]);
                    }
                    // `tiled` reads a tile's probability="0" as it reads a tile the file does
                    // not list, which a save would then drop: "-0" reads as 0 with its sign set,
                    // which `convert_tileset` takes for a 0 the file gives.
                    b"tile" if in_tileset && bytes.get(pos) == Some(&b'<') => {
                        let zero = attr("probability")?.and_then(|p| p.trim().parse::<f32>().ok()) == Some(0.0);
                        if zero {
                            let mut tag = String::from("<tile");
                            for a in e.attributes() {
                                let a = a.map_err(|err| at(MapError::syntax("XML", err.to_string())))?;
                                let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
                                let value = if key == "probability" {
                                    "-0".to_owned()
                                } else {
                                    let v = a
                                        .unescape_value()
                                        .map_err(|err| at(MapError::syntax("XML", err.to_string())))?;
                                    escape(&v)
                                };
                                tag.push_str(&format!(" {key}=\"{value}\""));
                            }
                            tag.push_str(if is_start { ">" } else { "/>" });
                            patches.push((pos..end, tag));
                        }
                    }
                    b"tileset" => {
                        in_tileset = is_start;
                        if depth_in_map == 2 {
                            let first = number("firstgid")?.unwrap_or(1);
                            let first = u32::try_from(first)
                                .ok()
                                .filter(|&g| g >= 1)
                                .ok_or_else(|| at(MapError::invalid(format!("firstgid {first} must be at least 1"))))?;
                            scan.first_gids.push(first);
                            scan.tileset_sources.extend(attr("source")?);
                        }
                        let declared = number("tilecount")?;
                        uncounted = None;
                        if declared.is_none() && is_start && bytes[pos..].starts_with(b"<tileset") {
                            uncounted = Some(UncountedTileset {
                                insert_at: pos + "<tileset".len(),
                                tile_width: number("tilewidth")?.unwrap_or(0),
                                tile_height: number("tileheight")?.unwrap_or(0),
                                spacing: number("spacing")?.unwrap_or(0),
                                margin: number("margin")?.unwrap_or(0),
                            });
                        }
                        let count = declared.unwrap_or(0);
                        if count < 0 {
                            return Err(at(MapError::invalid(format!("tileset tilecount {count} is negative"))));
                        }
                        total_tiles += count as u64;
                        if total_tiles > tiled_common::MAX_TILES {
                            return Err(at(MapError::invalid(format!(
                                "the tilesets declare {total_tiles} tiles; sightline supports at most {}",
                                tiled_common::MAX_TILES
                            ))));
                        }
                    }
                    b"imagelayer" => in_image_layer = is_start,
                    b"image" => {
                        let (mut w, mut h) = (number("width")?.unwrap_or(0), number("height")?.unwrap_or(0));
                        // Old Tiled wrote images without their size; `tiled` needs it, so read it from the file.
                        if (w == 0 || h == 0)
                            && bytes[pos..].starts_with(b"<image")
                            && let Some((iw, ih)) = attr("source")?.and_then(|src| image_size_from_file(&dir.join(src)))
                        {
                            w = i64::from(iw);
                            h = i64::from(ih);
                            let at = pos + "<image".len();
                            patches.push((at..at, format!(" width=\"{iw}\" height=\"{ih}\"")));
                        } else if in_image_layer && (w == 0 || h == 0) && bytes[pos..].starts_with(b"<image") {
                            // Tiled writes an image layer's image without a size when it could
                            // not read the image; its size matters to nothing sightline does.
                            let at = pos + "<image".len();
                            let missing = ["width", "height"].into_iter().filter(|a| matches!(attr(a), Ok(None)));
                            patches.push((at..at, missing.map(|a| format!(" {a}=\"0\"")).collect()));
                        }
                        if let Some(t) = uncounted.take() {
                            let fit = |size: i64, tile: i64| {
                                if tile <= 0 {
                                    0
                                } else {
                                    ((size - 2 * t.margin + t.spacing) / (tile + t.spacing)).max(0)
                                }
                            };
                            let (columns, rows) = (fit(w, t.tile_width), fit(h, t.tile_height));
                            let count = columns.saturating_mul(rows);
                            total_tiles += count as u64;
                            if total_tiles > tiled_common::MAX_TILES {
                                return Err(at(MapError::invalid(format!(
                                    "the tilesets hold {total_tiles} tiles; sightline supports at most {}",
                                    tiled_common::MAX_TILES
                                ))));
                            }
                            patches.push((
                                t.insert_at..t.insert_at,
                                format!(" tilecount=\"{count}\" columns=\"{columns}\""),
                            ));
                        }
                    }
                    _ => {}
                }
                if is_start && depth_in_map > 0 {
                    depth_in_map += 1;
                }
            }
            _ => {}
        }
        if let Event::End(_) = &event
            && depth_in_map > 1
        {
            depth_in_map -= 1;
        }
        buf.clear();
    }
    if !patches.is_empty() {
        patches.sort_by_key(|(range, _)| range.start);
        let mut patched = bytes.to_vec();
        for (range, text) in patches.iter().rev() {
            patched.splice(range.clone(), text.bytes());
        }
        scan.patched = Some(patched);
    }
    Ok(scan)
}

/// Refuses a file whose layers declare more cells than a map may hold, before any layer's data
/// is decoded: the scan below decodes each layer as it meets it, so without this a file of many
/// large compressed layers would take eight layers' worth of memory before the ninth refused it.
/// Counts `<layer>` sizes (or, in an infinite map, `<chunk>` sizes); XML errors are left to the
/// scan, which names them.
fn count_declared_cells(bytes: &[u8]) -> Result<(), MapError> {
    let mut reader = quick_xml::Reader::from_reader(bytes);
    let mut buf = Vec::new();
    let (mut infinite, mut cells) = (false, 0u64);
    loop {
        let pos = reader.buffer_position();
        let (Event::Start(e) | Event::Empty(e)) = (match reader.read_event_into(&mut buf) {
            Ok(Event::Eof) | Err(_) => return Ok(()),
            Ok(event) => event,
        }) else {
            buf.clear();
            continue;
        };
        let number = |name: &[u8]| -> u64 {
            e.attributes()
                .flatten()
                .find(|a| a.key.as_ref() == name)
                .and_then(|a| std::str::from_utf8(&a.value).ok()?.trim().parse::<u64>().ok())
                .unwrap_or(0)
        };
        match e.name().as_ref() {
            b"map" => infinite = number(b"infinite") != 0,
            b"layer" if !infinite => cells = cells.saturating_add(number(b"width").saturating_mul(number(b"height"))),
            b"chunk" if infinite => cells = cells.saturating_add(number(b"width").saturating_mul(number(b"height"))),
            _ => {}
        }
        if cells > map::MAX_LAYER_CELLS {
            return Err(MapError::new(MapErrorKind::TooManyCells { cells }).at_line(line_of(bytes, pos), None));
        }
        buf.clear();
    }
}

/// The member name that marks a class value patched in for an enum value (see
/// [`enum_value_as_class`]): a name no Tiled file holds (it starts and ends with a character of
/// Unicode's private use area).
const ENUM_VALUE_MEMBER: &str = "\u{f8ff}sightline: enum value\u{f8ff}";

/// An enum value's `<property>` (or list `<item>`) rewritten as a class value of the enum's name
/// whose one member, [`ENUM_VALUE_MEMBER`], holds the value as stored (`storage`: `string` or
/// `int`). The `tiled` crate drops a string's or int's `propertytype` but keeps a class's, and
/// the conversion turns this class back into the enum value.
fn enum_value_as_class(tag: &str, name: Option<&str>, storage: &str, enum_type: &str, value: &str) -> String {
    let name = name.map_or_else(String::new, |n| format!(" name=\"{}\"", escape(n)));
    format!(
        "<{tag}{name} type=\"class\" propertytype=\"{}\"><properties><property name=\"{ENUM_VALUE_MEMBER}\" \
         type=\"{storage}\" value=\"{}\"/></properties></{tag}>",
        escape(enum_type),
        escape(value)
    )
}

/// What an unset colour property reads as from the patched file: a string no Tiled file holds
/// (it starts and ends with a character of Unicode's private use area).
const UNSET_COLOUR: &str = "\u{f8ff}sightline: unset colour\u{f8ff}";

/// The class name that marks a number patched in for an int or float value the `tiled` crate
/// would cut (see [`exact_number_as_class`]): a name no Tiled file holds.
const EXACT_NUMBER: &str = "\u{f8ff}sightline: exact number\u{f8ff}";

/// Whether the `tiled` crate would read a plain `int` or `float` property's `value` as another
/// number: it reads an int as an `i32` and a float as an `f32`, so a whole number beyond ±2³¹ or
/// a float of more digits than an `f32` holds (123456.789) would change.
fn number_needs_exact_read(kind: &str, value: &str) -> bool {
    match kind {
        "int" => value.parse::<i32>().is_err() && value.parse::<i64>().is_ok(),
        "float" => match (value.parse::<f32>(), value.parse::<f64>()) {
            (Ok(single), Ok(double)) => single.to_string().parse::<f64>().ok() != Some(double) && !double.is_nan(),
            _ => false,
        },
        _ => false,
    }
}

/// An `int` or `float` `<property>` (or list `<item>`) rewritten as a class value of
/// [`EXACT_NUMBER`] whose one member, named after the type, holds the value as text: the
/// conversion reads that text as an `i64` or `f64`.
fn exact_number_as_class(tag: &str, name: Option<&str>, kind: &str, value: &str) -> String {
    let name = name.map_or_else(String::new, |n| format!(" name=\"{}\"", escape(n)));
    format!(
        "<{tag}{name} type=\"class\" propertytype=\"{EXACT_NUMBER}\"><properties><property name=\"{kind}\" \
         value=\"{}\"/></properties></{tag}>",
        escape(value)
    )
}

/// What a `<property>` value of type `kind` must be, when `value` is not that (as the `tiled`
/// crate reads it, or as [`exact_number_as_class`] lets it be read: a bool `true` or `false`, an
/// `i64`, an `f64`, an object id `u32`, a color of 6 or 8 hex digits after an optional `#`);
/// `None` when it reads, or the type is not one of these.
fn property_value_fix(kind: &str, value: &str) -> Option<&'static str> {
    let (reads, fix) = match kind {
        "bool" => (value.parse::<bool>().is_ok(), "use true or false"),
        "int" => (value.parse::<i64>().is_ok(), "use a whole number"),
        "float" => (value.parse::<f64>().is_ok(), "use a number"),
        "object" => (value.parse::<u32>().is_ok(), "use an object id (a whole number, 0 for none)"),
        "color" if value.len() > 1 => {
            let hex = value.strip_prefix('#').unwrap_or(value);
            (
                matches!(hex.len(), 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit()),
                "use a color as #RRGGBB or #AARRGGBB",
            )
        }
        _ => return None,
    };
    (!reads).then_some(fix)
}

/// Pixel size of a PNG or GIF image, read from its header.
fn image_size_from_file(path: &Path) -> Option<(u32, u32)> {
    use std::io::Read as _;
    let mut header = [0u8; 24];
    std::fs::File::open(path).ok()?.read_exact(&mut header).ok()?;
    if header.starts_with(b"\x89PNG\r\n\x1a\n") {
        let w = u32::from_be_bytes(header[16..20].try_into().ok()?);
        let h = u32::from_be_bytes(header[20..24].try_into().ok()?);
        return Some((w, h));
    }
    if header.starts_with(b"GIF8") {
        return Some((
            u32::from(u16::from_le_bytes([header[6], header[7]])),
            u32::from(u16::from_le_bytes([header[8], header[9]])),
        ));
    }
    None
}

/// Tiled's properties as ours.
fn convert_properties(props: &tiled::Properties) -> Properties {
    props.iter().map(|(k, v)| (k.clone(), convert_value(v))).collect()
}

fn convert_value(v: &tiled::PropertyValue) -> PropertyValue {
    match v {
        tiled::PropertyValue::BoolValue(b) => PropertyValue::Bool(*b),
        // The `tiled` crate reads floats as f32; going through the f32's shortest text gives
        // back the f64 the file wrote ("0.1" stays 0.1, not 0.10000000149011612).
        tiled::PropertyValue::FloatValue(f) => PropertyValue::Float(f.to_string().parse().unwrap_or(f64::from(*f))),
        tiled::PropertyValue::IntValue(i) => PropertyValue::Int(i64::from(*i)),
        tiled::PropertyValue::ObjectValue(i) => PropertyValue::Object(*i),
        tiled::PropertyValue::ColorValue(c) => PropertyValue::Color(Some(Rgba(c.red, c.green, c.blue, c.alpha))),
        tiled::PropertyValue::StringValue(s) if s == UNSET_COLOUR => PropertyValue::Color(None),
        tiled::PropertyValue::StringValue(s) => PropertyValue::String(s.clone()),
        tiled::PropertyValue::FileValue(s) => PropertyValue::File(s.clone()),
        // The scan's stand-in for a number the `tiled` crate would cut (see `exact_number_as_class`).
        tiled::PropertyValue::ClassValue { property_type, properties } if property_type == EXACT_NUMBER => {
            match properties.iter().next() {
                Some((kind, tiled::PropertyValue::StringValue(text))) if kind == "int" => {
                    PropertyValue::Int(text.parse().unwrap_or_default())
                }
                Some((_, tiled::PropertyValue::StringValue(text))) => {
                    PropertyValue::Float(text.parse().unwrap_or_default())
                }
                _ => PropertyValue::Int(0),
            }
        }
        tiled::PropertyValue::ClassValue { property_type, properties } => {
            // The scan's stand-in for an enum value (see `enum_value_as_class`).
            let stored = match (properties.len(), properties.get(ENUM_VALUE_MEMBER)) {
                (1, Some(tiled::PropertyValue::StringValue(s))) => Some(EnumValue::String(s.clone())),
                (1, Some(tiled::PropertyValue::IntValue(i))) => Some(EnumValue::Int(i64::from(*i))),
                _ => None,
            };
            match stored {
                Some(value) => PropertyValue::Enum { enum_type: property_type.clone(), value },
                None => PropertyValue::Class { class: property_type.clone(), members: convert_properties(properties) },
            }
        }
        tiled::PropertyValue::ListValue(items) => PropertyValue::List(items.iter().map(convert_value).collect()),
    }
}

/// Tiled's object alignment, as the `tiled` crate reads it.
fn object_alignment(a: tiled::ObjectAlignment) -> ObjectAlignment {
    match a {
        tiled::ObjectAlignment::Unspecified => ObjectAlignment::Unspecified,
        tiled::ObjectAlignment::TopLeft => ObjectAlignment::TopLeft,
        tiled::ObjectAlignment::Top => ObjectAlignment::Top,
        tiled::ObjectAlignment::TopRight => ObjectAlignment::TopRight,
        tiled::ObjectAlignment::Left => ObjectAlignment::Left,
        tiled::ObjectAlignment::Center => ObjectAlignment::Center,
        tiled::ObjectAlignment::Right => ObjectAlignment::Right,
        tiled::ObjectAlignment::BottomLeft => ObjectAlignment::BottomLeft,
        tiled::ObjectAlignment::Bottom => ObjectAlignment::Bottom,
        tiled::ObjectAlignment::BottomRight => ObjectAlignment::BottomRight,
    }
}

/// A tileset's `<transformations>`; `None` when it allows none (what a tileset without the
/// element means, and all the `tiled` crate can tell).
fn transformations_of(ts: &tiled::Tileset) -> Option<TileTransformations> {
    let t = &ts.transformations;
    let kept = TileTransformations {
        hflip: t.hflip,
        vflip: t.vflip,
        rotate: t.rotate,
        prefer_untransformed: t.prefer_untransformed,
    };
    (kept != TileTransformations::default()).then_some(kept)
}

/// A tileset's `objectalignment`, `tilerendersize` and `fillmode` attributes, each written only
/// when it is not Tiled's default (so a map that never set them saves as before).
fn drawing_attributes(d: &SheetDrawing) -> String {
    let mut out = String::new();
    if d.object_alignment != ObjectAlignment::Unspecified {
        out.push_str(&format!(" objectalignment=\"{}\"", d.object_alignment.name()));
    }
    if d.grid_size {
        out.push_str(&format!(" tilerendersize=\"{}\"", d.render_size_name()));
    }
    if d.preserve_aspect {
        out.push_str(&format!(" fillmode=\"{}\"", d.fill_mode_name()));
    }
    out
}

/// Converts a tileset the `tiled` crate parsed (used for TSX files referenced from TMJ maps too).
pub(crate) fn convert_tileset(ts: &tiled::Tileset, first_gid: u32) -> TilesetDoc {
    // `tiled` gives a tile the file does not list probability 0, as it gives one listed with
    // probability="0"; the scan wrote the second as "-0" (see `scan`), so a 0 with its sign
    // set is one the file gives, and one without is unlisted (1).
    let bare = |t: &tiled::Tile| {
        t.properties.is_empty() && t.user_type.is_empty() && t.image.is_none() && t.animation.is_none()
    };
    let probability = |t: &tiled::Tile| match t.probability {
        0.0 => t.probability.is_sign_negative().then_some(0.0),
        1.0 => None,
        p => Some(p),
    };
    let tiles = ts
        .tiles()
        .filter(|(_, t)| !bare(t) || probability(t).is_some())
        .map(|(id, t)| {
            let animation = t.animation.iter().flatten();
            let tile = TileDoc {
                class: t.user_type.clone(),
                properties: convert_properties(&t.properties),
                animation: animation.map(|f| FrameDoc { tile: f.tile_id, duration_ms: f.duration }).collect(),
                probability: probability(&t),
            };
            (id, tile)
        })
        .collect();
    let properties = convert_properties(&ts.properties);
    let wang_sets = ts.wang_sets.iter().map(convert_wang_set).collect();
    TilesetDoc {
        name: ts.name.clone(),
        class: ts.user_type.clone(),
        first_gid,
        // Set by the map's reader: `tiled` gives an embedded tileset the map's own file.
        source: None,
        image: ts.image.as_ref().map(|i| super::resolve_path(Path::new(""), &i.source)),
        tile_width: ts.tile_width,
        tile_height: ts.tile_height,
        columns: ts.columns,
        tile_count: ts.tilecount,
        spacing: ts.spacing,
        margin: ts.margin,
        transparent: ts.image.as_ref().and_then(|i| i.transparent_colour).map(|c| Rgb(c.red, c.green, c.blue)),
        tiles,
        properties,
        wang_sets,
        offset: [ts.offset_x, ts.offset_y],
        tile_shapes: ts.tiles().any(|(_, t)| t.collision.is_some()),
        drawing: SheetDrawing {
            grid_size: ts.tile_render_size == tiled::TileRenderSize::Grid,
            preserve_aspect: ts.fill_mode == tiled::FillMode::PreserveAspectFit,
            object_alignment: object_alignment(ts.object_alignment),
            transformations: transformations_of(ts),
        },
    }
}

fn convert_wang_set(w: &tiled::WangSet) -> WangSet {
    let colors = w.wang_colors.iter().map(|c| WangColor {
        name: c.name.clone(),
        class: c.user_type.clone(),
        color: Rgba(c.color.red, c.color.green, c.color.blue, c.color.alpha),
        tile: c.tile,
        // Tiled wrote a decimal; `tiled` read it as an f32, whose shortest text is that decimal.
        probability: super::shortest_f64(c.probability),
        properties: convert_properties(&c.properties),
    });
    WangSet {
        name: w.name.clone(),
        class: w.user_type.clone(),
        kind: match w.wang_set_type {
            tiled::WangSetType::Corner => WangKind::Corner,
            tiled::WangSetType::Edge => WangKind::Edge,
            tiled::WangSetType::Mixed => WangKind::Mixed,
        },
        tile: w.tile,
        colors: colors.collect(),
        tiles: w.wang_tiles.iter().map(|(&id, t)| (id, t.wang_id.0)).collect(),
        properties: convert_properties(&w.properties),
    }
}

/// Reads files for `tiled`: the map from memory, tilesets from disk after the size pre-pass
/// (patched as the map is).
fn resource_reader(
    map_path: PathBuf,
    map_bytes: Vec<u8>,
    read: FilesRead,
) -> impl Fn(&Path) -> std::io::Result<Cursor<Vec<u8>>> {
    move |path: &Path| {
        if path == map_path {
            return Ok(Cursor::new(map_bytes.clone()));
        }
        read.borrow_mut().push(path.to_owned());
        let meta = std::fs::metadata(path)?;
        if meta.len() > MAX_FILE_BYTES {
            return Err(std::io::Error::other(format!("{} is larger than {MAX_FILE_BYTES} bytes", path.display())));
        }
        let mut bytes = std::fs::read(path)?;
        // A JSON template (`.tj`) or tileset (`.tsj`), which Tiled lets a TMX map name, read as
        // the XML `tiled` knows.
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
            let dir = path.parent().unwrap_or(Path::new(""));
            let xml = super::tmj::template_as_tx(&bytes)
                .and_then(|template| template.map_or_else(|| super::tmj::tileset_as_tsx(&bytes, dir), |t| Ok(Some(t))))
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            if let Some(xml) = xml {
                bytes = xml.into_bytes();
            }
        }
        let scanned =
            scan(&bytes, path.parent().unwrap_or(Path::new(""))).map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(Cursor::new(scanned.patched.unwrap_or(bytes)))
    }
}

/// The files a [`resource_reader`] was asked for (tilesets and object templates), in order.
type FilesRead = std::rc::Rc<std::cell::RefCell<Vec<PathBuf>>>;

/// Loads an external TSX tileset (one a Tiled JSON map names) as a TMX map's tilesets are loaded:
/// size-checked, scanned and patched before the `tiled` crate reads it.
pub(crate) fn load_tsx(path: &Path, first_gid: u32) -> Result<TilesetDoc, MapError> {
    let mut loader = tiled::Loader::with_reader(resource_reader(PathBuf::new(), Vec::new(), FilesRead::default()));
    // `tiled` is third-party code fed untrusted input: a panic in it becomes an error here.
    let loaded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| loader.load_tsx_tileset(path)))
        .map_err(|_| MapError::invalid("the Tiled parser failed on this tileset (it is corrupt)"))?;
    Ok(convert_tileset(&loaded.map_err(tiled_error)?, first_gid))
}

/// Reads an object template in TMX's form (a `.tx` file, which a Tiled JSON map may name): its
/// object, its tile placed as [`object_doc`] places a template's.
pub(crate) fn load_tx(
    path: &Path,
    template_tilesets: &mut tiled_common::TemplateTilesets,
    doc: &mut Doc,
) -> Result<ObjectDoc, MapError> {
    let dir = path.parent().unwrap_or(Path::new(""));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // `tiled` reads a template only for a map's object: a map of one object, in memory, names it.
    let host = dir.join("\u{f8ff}sightline: template host.tmx");
    let xml = format!(
        "<?xml version=\"1.0\"?>\n<map version=\"1.10\" orientation=\"orthogonal\" width=\"1\" height=\"1\" \
         tilewidth=\"1\" tileheight=\"1\" infinite=\"0\">\n <objectgroup id=\"1\" name=\"template\">\n  \
         <object id=\"1\" template=\"{}\"/>\n </objectgroup>\n</map>\n",
        escape(&name)
    );
    let read = FilesRead::default();
    let mut loader = tiled::Loader::with_reader(resource_reader(host.clone(), xml.into_bytes(), read.clone()));
    // `tiled` is third-party code fed untrusted input: a panic in it becomes an error here.
    let loaded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| loader.load_tmx_map(&host)))
        .map_err(|_| MapError::invalid("the Tiled parser failed on this template (it is corrupt)"))
        .and_then(|loaded| loaded.map_err(tiled_error));
    if let Err(e) = loaded {
        // The tileset the template names may be what failed (`tiled` does not say which file).
        let tilesets: Vec<String> = read
            .borrow()
            .iter()
            .filter(|p| p.extension().is_some_and(|e| !e.eq_ignore_ascii_case("tx") && !e.eq_ignore_ascii_case("tj")))
            .map(|p| p.strip_prefix(dir).unwrap_or(p).display().to_string())
            .collect();
        return Err(failing_tileset(&tilesets, dir).unwrap_or(e));
    }
    let template = tiled::ResourceCache::get_template(loader.cache(), dir.join(&name))
        .ok_or_else(|| MapError::invalid("the template could not be read"))?;
    object_doc(&template.object, 0, &[], template_tilesets, doc)
}

/// The error of the first of a map's tileset files (`source` attributes, resolved against `dir`)
/// that fails when read on its own, naming it: when `tiled` fails in a tileset file, its error
/// (not valid XML at such a position) does not say which file it was reading.
fn failing_tileset(sources: &[String], dir: &Path) -> Option<MapError> {
    sources.iter().find_map(|source| load_tsx(&dir.join(source), 1).err().map(|e| e.in_tileset(source)))
}

/// The error of the first of a map's object templates (`template` attributes, resolved against
/// `dir`) that fails when read on its own, naming it: when `tiled` fails on a map, it does not
/// say whether the problem was in the map or in a template it read.
fn failing_template(templates: &[Option<String>], dir: &Path) -> Option<MapError> {
    let mut tried: Vec<&String> = Vec::new();
    for attr in templates.iter().flatten() {
        if tried.contains(&attr) {
            continue;
        }
        tried.push(attr);
        let mut tilesets = tiled_common::TemplateTilesets::new(Vec::new());
        if let Err(e) = load_tx(&dir.join(attr), &mut tilesets, &mut Doc::default()) {
            // Named as the map names it, not as `tiled` found it.
            use crate::core::model::error::Location;
            let e = match e.location {
                Some(Location::Template(_)) => MapError { location: None, ..e },
                Some(Location::TemplateTileset(names)) => MapError { location: Some(Location::Tileset(names.1)), ..e },
                _ => e,
            };
            return Some(e.in_template(attr));
        }
    }
    None
}

/// When `tiled` fails on a map that the scan found sound: the first of the files it names
/// (tilesets, then object templates) that fails on its own, with its error.
fn failing_side_file(scan: &Scan, dir: &Path) -> Option<MapError> {
    failing_tileset(&scan.tileset_sources, dir).or_else(|| failing_template(&scan.object_templates, dir))
}

fn tiled_error(e: tiled::Error) -> MapError {
    match e {
        tiled::Error::ResourceLoadingError { path, err } => {
            let message = err.to_string();
            let path = tiled_common::normalize_path(&path);
            // `tiled` reads tilesets and object templates (`.tx`, or `.tj` read as one).
            let template =
                path.extension().is_some_and(|e| e.eq_ignore_ascii_case("tx") || e.eq_ignore_ascii_case("tj"));
            if template {
                MapError::invalid(message).in_template(&path.display().to_string())
            } else if message.contains("No such file") {
                MapError::new(MapErrorKind::MissingTileset(path))
            } else {
                MapError::invalid(message).in_tileset(&path.display().to_string())
            }
        }
        tiled::Error::Base64DecodingError(e) => MapErrorKind::Decode(format!("base64: {e}")).into(),
        tiled::Error::DecompressingError(e) => MapErrorKind::Decode(format!("decompression: {e}")).into(),
        tiled::Error::CsvDecodingError(e) => MapErrorKind::Decode(format!("CSV: {e}")).into(),
        tiled::Error::XmlDecodingError(e) => MapError::syntax("XML", e.to_string()),
        tiled::Error::PrematureEnd(m) => MapError::syntax("XML", format!("the file ends too early: {m}")),
        tiled::Error::InvalidTileFound => MapError::invalid("a tile id (GID) belongs to no tileset of the map"),
        other => MapError::invalid(other.to_string()),
    }
}

pub fn parse(bytes: &[u8], path: &Path) -> Result<Loaded, MapError> {
    let mut scan = scan(bytes, path.parent().unwrap_or(Path::new("")))?;
    let map_path = path.to_owned();
    let map_bytes = scan.patched.take().unwrap_or_else(|| bytes.to_vec());
    let mut loader = tiled::Loader::with_reader(resource_reader(map_path.clone(), map_bytes, FilesRead::default()));
    // `tiled` is third-party code fed untrusted input: a panic in it becomes an error here.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| loader.load_tmx_map(&map_path)));
    let dir = path.parent().unwrap_or(Path::new(""));
    let tmap = match result {
        Ok(Ok(tmap)) => tmap,
        Ok(Err(e)) => {
            let error = tiled_error(e);
            return Err(failing_side_file(&scan, dir).unwrap_or(error));
        }
        Err(_) => {
            let error = MapError::invalid("the Tiled parser failed on this file (it is corrupt)");
            return Err(failing_side_file(&scan, dir).unwrap_or(error));
        }
    };
    let mut doc = Doc {
        width: tmap.width,
        height: tmap.height,
        infinite: tmap.infinite(),
        tile_width: tmap.tile_width,
        tile_height: tmap.tile_height,
        next_object_id: scan.next_object_id,
        properties: convert_properties(&tmap.properties),
        class: tmap.user_type.clone(),
        background: tmap.background_color.map(|c| Rgba(c.red, c.green, c.blue, c.alpha)),
        settings: scan.settings,
        editor: scan.editor.clone(),
        ..Doc::default()
    };
    doc.warnings.extend(doc.settings.orientation.load_warning());
    let tilesets = tmap.tilesets();
    if scan.first_gids.len() != tilesets.len() {
        return Err(MapError::invalid(format!(
            "the map lists {} tilesets but {} firstgid attributes",
            tilesets.len(),
            scan.first_gids.len()
        )));
    }
    for (ts, &first_gid) in tilesets.iter().zip(&scan.first_gids) {
        let mut converted = convert_tileset(ts, first_gid);
        converted.source = (ts.source != map_path).then(|| ts.source.clone());
        doc.tilesets.push(converted);
    }
    let mut template_tilesets =
        tiled_common::TemplateTilesets::new(tilesets.iter().map(|t| Some(t.source.clone())).collect());
    // Tile data comes from our own scan, in the same (document) order as `tiled`'s layers.
    let mut scanned = scan.layers.into_iter();
    let mut object_templates = scan.object_templates.into_iter();
    let mut object_classes = scan.object_classes.into_iter();
    let mut object_layers_locked = scan.object_layers_locked.into_iter();
    let mut groups_locked = scan.groups_locked.into_iter();
    // Depth first, in document order; a group's end is met after what it holds.
    enum Pending<'a> {
        Layer(Option<usize>, tiled::Layer<'a>),
        Close(usize),
    }
    let mut stack: Vec<Pending> = tmap.layers().map(|l| Pending::Layer(None, l)).collect();
    stack.reverse();
    while let Some(pending) = stack.pop() {
        let (parent, layer) = match pending {
            Pending::Layer(parent, layer) => (parent, layer),
            Pending::Close(g) => {
                doc.groups[g].end = doc.layers.len() + doc.object_layers.len();
                continue;
            }
        };
        let name = layer.name.clone();
        let class = layer.user_type.clone();
        if layer.blend_mode != "normal" {
            doc.dropped.insert(Dropped::BlendModes);
        }
        // Every kind of layer keeps its look: `tiled` reads the file's decimals as f32s, whose
        // shortest text is what Tiled wrote.
        let offset = [super::shortest_f64(layer.offset_x), super::shortest_f64(layer.offset_y)];
        let parallax = [super::shortest_f64(layer.parallax_x), super::shortest_f64(layer.parallax_y)];
        let tint = layer.tint_color.map(|c| Rgba(c.red, c.green, c.blue, c.alpha));
        match layer.layer_type() {
            tiled::LayerType::Tiles(_) => {
                let data = scanned.next().unwrap_or_default();
                let mut l = TileLayerDoc {
                    name: name.clone(),
                    visible: layer.visible,
                    locked: data.locked,
                    opacity: Some(layer.opacity),
                    properties: convert_properties(&layer.properties),
                    class: class.clone(),
                    offset,
                    parallax,
                    tint,
                    ..TileLayerDoc::default()
                };
                if doc.infinite {
                    let mut tiles = Vec::new();
                    for (cx, cy, cw, gids) in &data.chunks {
                        for (k, &gid) in gids.iter().enumerate() {
                            if gid & !Flip::GID_MASK != 0 {
                                tiles.push((cx + (k % *cw as usize) as i64, cy + (k / *cw as usize) as i64, gid));
                            }
                        }
                    }
                    fill_sparse(&mut l, &tiles)?;
                } else {
                    l.width = data.width;
                    l.height = data.height;
                    l.gids = data.gids;
                }
                doc.layers.push(l);
            }
            tiled::LayerType::Objects(objects) => {
                let layer_index = doc.object_layers.len();
                doc.object_layers.push(ObjectLayer {
                    name: name.clone(),
                    visible: layer.visible,
                    locked: object_layers_locked.next().unwrap_or(false),
                    opacity: layer.opacity,
                    color: objects.colour.map(|c| Rgba(c.red, c.green, c.blue, c.alpha)),
                    tint,
                    offset,
                    parallax,
                    properties: convert_properties(&layer.properties),
                    class: class.clone(),
                    draw_order: match objects.draw_order {
                        tiled::DrawOrder::TopDown => DrawOrder::TopDown,
                        tiled::DrawOrder::Index => DrawOrder::Index,
                    },
                    tile_layers_below: doc.layers.len(),
                });
                for o in objects.objects() {
                    let mut object = object_doc(&o, layer_index, &scan.first_gids, &mut template_tilesets, &mut doc)?;
                    let attr = object_templates.next().flatten();
                    let class = object_classes.next().flatten();
                    // (`tiled` prefers `type` to `class`; Tiled, a non-empty `class`.)
                    if let Some(class) = &class {
                        object.class = class.clone();
                    }
                    let template =
                        attr.as_ref().and_then(|a| tiled::ResourceCache::get_template(loader.cache(), dir.join(a)));
                    match (attr, template) {
                        (Some(attr), Some(template)) => {
                            let base = object_doc(
                                &template.object,
                                layer_index,
                                &scan.first_gids,
                                &mut template_tilesets,
                                &mut doc,
                            )?;
                            let path = super::resolve_path(dir, Path::new(&attr));
                            tiled_common::take_unset_from_template(&mut object, &base, class);
                            object.template = Some(TemplateDoc { path, object: Box::new(base) });
                        }
                        // `tiled` read the template under another path: the values stay, the link goes.
                        (Some(_), None) => {
                            doc.dropped.insert(Dropped::TemplateLinks);
                        }
                        _ => {}
                    }
                    doc.objects.push(object);
                }
            }
            tiled::LayerType::Image(_) => {
                doc.warnings
                    .push(format!("image layer {name:?} is not shown (sightline draws tile and object layers)"));
                doc.dropped.insert(Dropped::ImageLayers);
            }
            tiled::LayerType::Group(group) => {
                let at = doc.layers.len() + doc.object_layers.len();
                let g = doc.groups.len();
                doc.groups.push(LayerGroup {
                    visible: layer.visible,
                    locked: groups_locked.next().unwrap_or(false),
                    opacity: layer.opacity,
                    tint,
                    offset,
                    parallax,
                    properties: convert_properties(&layer.properties),
                    class,
                    ..LayerGroup::new(&name, parent, at)
                });
                stack.push(Pending::Close(g));
                let mut inner: Vec<_> = group.layers().map(|l| Pending::Layer(Some(g), l)).collect();
                inner.reverse();
                stack.extend(inner);
            }
        }
    }
    tiled_common::build_map(doc)
}

/// A map object (or a template's object) as a Tiled document holds it, on object layer
/// `layer`; a tile of a template's tileset is placed in the map's tileset of the same file, or
/// in that tileset added to the document.
fn object_doc(
    o: &tiled::ObjectData,
    layer: usize,
    first_gids: &[u32],
    template_tilesets: &mut tiled_common::TemplateTilesets,
    doc: &mut Doc,
) -> Result<ObjectDoc, MapError> {
    // `tiled` reads the file's decimals as f32s: their shortest text is what Tiled wrote.
    let exact = super::shortest_f64;
    let points = |p: &[(f32, f32)]| p.iter().map(|&(x, y)| [exact(x), exact(y)]).collect();
    let shape = match (&o.shape, o.tile_data()) {
        (_, Some(t)) => {
            let bits = u8::from(t.flip_h) << 3 | u8::from(t.flip_v) << 2 | u8::from(t.flip_d) << 1;
            let flip = Flip::from_bits(bits).unwrap_or(Flip::NONE);
            let first_gid = match t.tileset_location() {
                tiled::TilesetLocation::Map(i) => first_gids.get(*i).copied().unwrap_or(1),
                // The template's tile, in the template's tileset.
                tiled::TilesetLocation::Template(ts) => {
                    // (A template names its tileset's file: Tiled writes no tileset into one.)
                    let load = |first, _: &mut Vec<String>| {
                        Ok(TilesetDoc { source: Some(ts.source.clone()), ..convert_tileset(ts, first) })
                    };
                    let i = template_tilesets.index(doc, &ts.source, load)?;
                    doc.tilesets[i].first_gid
                }
            };
            DocShape::Tile((first_gid + t.id()) | flip.gid_bits())
        }
        (tiled::ObjectShape::Rect { .. }, None) => DocShape::Rectangle,
        (tiled::ObjectShape::Ellipse { .. }, None) => DocShape::Ellipse,
        (tiled::ObjectShape::Polygon { points: p }, None) => DocShape::Polygon(points(p)),
        (tiled::ObjectShape::Polyline { points: p }, None) => DocShape::Polyline(points(p)),
        (tiled::ObjectShape::Point(..), None) => DocShape::Point,
        (tiled::ObjectShape::Capsule { .. }, None) => DocShape::Capsule,
        (shape @ tiled::ObjectShape::Text { .. }, None) => DocShape::Text(Box::new(object_text(shape))),
    };
    let (width, height) = match o.shape {
        tiled::ObjectShape::Rect { width, height }
        | tiled::ObjectShape::Ellipse { width, height }
        | tiled::ObjectShape::Capsule { width, height }
        | tiled::ObjectShape::Text { width, height, .. } => (exact(width), exact(height)),
        _ => (0.0, 0.0),
    };
    Ok(ObjectDoc {
        id: o.id(),
        layer,
        name: o.name.clone(),
        class: o.user_type.clone(),
        x: exact(o.x),
        y: exact(o.y),
        width,
        height,
        rotation: exact(o.rotation),
        shape,
        properties: convert_properties(&o.properties),
        hidden: !o.visible,
        opacity: (o.opacity != 1.0).then_some(o.opacity),
        template: None,
    })
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

/// ` name="value"`, escaped, or nothing for an empty value (as Tiled leaves out an unset class).
fn text_attribute(name: &str, value: &str) -> String {
    if value.is_empty() { String::new() } else { format!(" {name}=\"{}\"", escape(value)) }
}

pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Escaped so that the XML reader's attribute normalisation keeps them.
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
    out
}

/// The map's `<editorsettings>`, as Tiled writes them (nothing when there are none).
fn write_editor_settings(out: &mut String, editor: &TiledEditorSettings) {
    if editor.is_empty() {
        return;
    }
    out.push_str(" <editorsettings>\n");
    if let Some([w, h]) = editor.chunk_size {
        out.push_str(&format!("  <chunksize width=\"{w}\" height=\"{h}\"/>\n"));
    }
    if !(editor.export_target.is_empty() && editor.export_format.is_empty()) {
        out.push_str(&format!(
            "  <export target=\"{}\" format=\"{}\"/>\n",
            escape(&editor.export_target),
            escape(&editor.export_format)
        ));
    }
    out.push_str(" </editorsettings>\n");
}

/// Writes a tile layer as a `<layer>` with layer id `id`, its data in the map's layer format:
/// in chunks of `chunk` cells for an infinite map.
fn write_tile_layer(
    out: &mut String,
    l: &TileLayerDoc,
    id: usize,
    settings: TiledSettings,
    chunk: Option<[u32; 2]>,
) -> Result<(), MapError> {
    out.push_str(&format!(
        " <layer id=\"{}\" name=\"{}\"{} width=\"{}\" height=\"{}\"{}{}{}>\n",
        id,
        escape(&l.name),
        text_attribute("class", &l.class),
        l.width,
        l.height,
        if l.visible { "" } else { " visible=\"0\"" },
        if l.locked { " locked=\"1\"" } else { "" },
        l.opacity.map(|o| format!(" opacity=\"{o}\"")).unwrap_or_default()
            + &layer_look_attributes(l.tint, l.offset, l.parallax)
    ));
    write_properties(out, "  ", &l.properties);
    let format = settings.layer_format;
    let (encoding, compression) = format.attributes();
    let compression = compression.map(|c| format!(" compression=\"{c}\"")).unwrap_or_default();
    if let Some(size) = chunk {
        let chunks = l.chunks(size);
        // A layer with no tile has no chunk: an empty element, as Tiled writes it.
        if chunks.is_empty() {
            out.push_str(&format!("  <data encoding=\"{encoding}\"{compression}/>\n </layer>\n"));
            return Ok(());
        }
        out.push_str(&format!("  <data encoding=\"{encoding}\"{compression}>\n"));
        for (x, y, gids) in chunks {
            let text = tiled_common::encode_gids(&gids, size[0], format, settings.compression_level)?;
            let [w, h] = size;
            out.push_str(&format!("   <chunk x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\">\n"));
            if format == LayerFormat::Csv {
                out.push_str(&format!("{text}\n</chunk>\n"));
            } else {
                out.push_str(&format!("    {text}\n   </chunk>\n"));
            }
        }
        out.push_str("  </data>\n </layer>\n");
        return Ok(());
    }
    let text = tiled_common::encode_gids(&l.gids, l.width, format, settings.compression_level)?;
    // As Tiled lays them out: CSV rows on lines of their own, base64 indented on one.
    if format == LayerFormat::Csv {
        out.push_str(&format!("  <data encoding=\"{encoding}\"{compression}>\n{text}\n</data>\n </layer>\n"));
    } else {
        out.push_str(&format!("  <data encoding=\"{encoding}\"{compression}>\n   {text}\n  </data>\n </layer>\n"));
    }
    Ok(())
}

/// A text object's text and layout as the `tiled` crate read them.
fn object_text(shape: &tiled::ObjectShape) -> ObjectText {
    let tiled::ObjectShape::Text {
        font_family,
        pixel_size,
        wrap,
        color,
        bold,
        italic,
        underline,
        strikeout,
        kerning,
        halign,
        valign,
        text,
        ..
    } = shape
    else {
        return ObjectText::new("");
    };
    ObjectText {
        text: text.clone(),
        font_family: font_family.clone(),
        pixel_size: u32::try_from(*pixel_size).unwrap_or(u32::MAX),
        wrap: *wrap,
        color: Rgba(color.red, color.green, color.blue, color.alpha),
        bold: *bold,
        italic: *italic,
        underline: *underline,
        strikeout: *strikeout,
        kerning: *kerning,
        halign: match halign {
            tiled::HorizontalAlignment::Left => HorizontalAlign::Left,
            tiled::HorizontalAlignment::Center => HorizontalAlign::Center,
            tiled::HorizontalAlignment::Right => HorizontalAlign::Right,
            tiled::HorizontalAlignment::Justify => HorizontalAlign::Justify,
        },
        valign: match valign {
            tiled::VerticalAlignment::Top => VerticalAlign::Top,
            tiled::VerticalAlignment::Center => VerticalAlign::Center,
            tiled::VerticalAlignment::Bottom => VerticalAlign::Bottom,
        },
    }
}

/// A text object's `<text>` element as Tiled writes it: only what is not Tiled's default.
fn text_element(t: &ObjectText) -> String {
    let attributes: String = tiled_common::text_attributes(t)
        .into_iter()
        .map(|(name, value)| {
            let value = match value {
                TextAttribute::Text(text) => escape(&text),
                TextAttribute::Number(n) => n.to_string(),
                TextAttribute::Flag(on) => u8::from(on).to_string(),
            };
            format!(" {name}=\"{value}\"")
        })
        .collect();
    format!("<text{attributes}>{}</text>", escape(&t.text))
}

/// Writes object layer `j` of `doc` as an `<objectgroup>` with layer id `id`.
fn write_object_layer(out: &mut String, doc: &Doc, j: usize, id: usize) {
    let layer = &doc.object_layers[j];
    let color =
        layer.color.map(|c| format!(" color=\"{}\"", crate::core::model::wang::tiled_color(c))).unwrap_or_default();
    out.push_str(&format!(
        " <objectgroup id=\"{id}\" name=\"{}\"{}{color}{}{}{}{}{}>\n",
        escape(&layer.name),
        text_attribute("class", &layer.class),
        // Tiled writes the order only when it is not its default.
        if layer.draw_order.is_top_down() {
            String::new()
        } else {
            format!(" draworder=\"{}\"", layer.draw_order.name())
        },
        if layer.visible { "" } else { " visible=\"0\"" },
        if layer.locked { " locked=\"1\"" } else { "" },
        if layer.opacity == 1.0 { String::new() } else { format!(" opacity=\"{}\"", layer.opacity) },
        layer_look_attributes(layer.tint, layer.offset, layer.parallax),
    ));
    write_properties(out, "  ", &layer.properties);
    for o in doc.objects_on(j) {
        write_object(out, o);
    }
    out.push_str(" </objectgroup>\n");
}

/// An object's element: an instance (see [`ObjectDoc::overrides`]) its template and what it sets
/// itself, any other object everything.
pub(crate) fn write_object(out: &mut String, o: &ObjectDoc) {
    let (template, own) = match (&o.template, o.overrides().and_then(Result::ok)) {
        (Some(t), Some(own)) => (format!(" template=\"{}\"", escape(&super::file_reference(&t.path))), Some(own)),
        _ => (String::new(), None),
    };
    // An instance writes what it overrides; any other object, what is not Tiled's default
    // (`not_default`: always, for what Tiled always writes).
    let writes = |overridden: fn(&tiled_common::Overrides) -> bool, not_default: bool| {
        own.as_ref().map_or(not_default, overridden)
    };
    let gid = match o.shape {
        DocShape::Tile(gid) if writes(|w| w.shape, true) => format!(" gid=\"{gid}\""),
        _ => String::new(),
    };
    let size = match o.shape {
        DocShape::Rectangle | DocShape::Ellipse | DocShape::Capsule | DocShape::Text(_) | DocShape::Tile(_)
            if writes(|w| w.size, true) =>
        {
            format!(" width=\"{}\" height=\"{}\"", o.width, o.height)
        }
        _ => String::new(),
    };
    let rotation =
        if writes(|w| w.rotation, o.rotation != 0.0) { format!(" rotation=\"{}\"", o.rotation) } else { String::new() };
    let name = if writes(|w| w.name, true) { format!(" name=\"{}\"", escape(&o.name)) } else { String::new() };
    let visible =
        if writes(|w| w.visible, o.hidden) { format!(" visible=\"{}\"", u8::from(!o.hidden)) } else { String::new() };
    let opacity =
        if writes(|w| w.opacity, o.opacity() != 1.0) { format!(" opacity=\"{}\"", o.opacity()) } else { String::new() };
    let class = if writes(|w| w.class, true) { format!(" type=\"{}\"", escape(&o.class)) } else { String::new() };
    let mut inner = String::new();
    write_properties(&mut inner, "   ", own.as_ref().map_or(&o.properties, |w| &w.properties));
    let points = |p: &[[f64; 2]]| p.iter().map(|[x, y]| format!("{x},{y}")).collect::<Vec<_>>().join(" ");
    match &o.shape {
        _ if !writes(|w| w.shape, true) => {}
        DocShape::Point => inner.push_str("   <point/>\n"),
        DocShape::Ellipse => inner.push_str("   <ellipse/>\n"),
        DocShape::Capsule => inner.push_str("   <capsule/>\n"),
        DocShape::Text(t) => inner.push_str(&format!("   {}\n", text_element(t))),
        DocShape::Polygon(p) => inner.push_str(&format!("   <polygon points=\"{}\"/>\n", points(p))),
        DocShape::Polyline(p) => inner.push_str(&format!("   <polyline points=\"{}\"/>\n", points(p))),
        DocShape::Rectangle | DocShape::Tile(_) => {}
    }
    let start = format!(
        "  <object id=\"{}\"{template}{name}{class}{gid} x=\"{}\" y=\"{}\"{size}{rotation}{visible}{opacity}",
        o.id, o.x, o.y
    );
    if inner.is_empty() {
        out.push_str(&format!("{start}/>\n"));
    } else {
        out.push_str(&format!("{start}>\n{inner}  </object>\n"));
    }
}

fn write_properties(out: &mut String, indent: &str, props: &Properties) {
    if props.is_empty() {
        return;
    }
    out.push_str(&format!("{indent}<properties>\n"));
    for (name, v) in props {
        write_typed_value(out, &format!("{indent} "), "property", Some(name), v);
    }
    out.push_str(&format!("{indent}</properties>\n"));
}

/// One value as Tiled writes it: a `<property>` (`tag`, with its `name`) or a list's `<item>`
/// (no name), with its `type` (left out for a string), `propertytype` for a class or enum value,
/// and its value: an attribute, a class's members as a nested `<properties>` (left out when the
/// file sets none), or a list's items as nested `<item>`s.
fn write_typed_value(out: &mut String, indent: &str, tag: &str, name: Option<&str>, v: &PropertyValue) {
    let mut open = format!("{indent}<{tag}");
    if let Some(name) = name {
        open += &format!(" name=\"{}\"", escape(name));
    }
    if v.type_name() != "string" {
        open += &format!(" type=\"{}\"", v.type_name());
    }
    if let Some(custom_type) = v.custom_type() {
        open += &format!(" propertytype=\"{}\"", escape(custom_type));
    }
    let value = match v {
        PropertyValue::Bool(b) => b.to_string(),
        PropertyValue::Int(i) | PropertyValue::Enum { value: EnumValue::Int(i), .. } => i.to_string(),
        PropertyValue::Float(f) => f.to_string(),
        PropertyValue::String(s) | PropertyValue::File(s) | PropertyValue::Enum { value: EnumValue::String(s), .. } => {
            s.clone()
        }
        PropertyValue::Color(c) => c.map_or_else(String::new, Rgba::to_hex),
        PropertyValue::Object(id) => id.to_string(),
        PropertyValue::Class { members, .. } if !members.is_empty() => {
            out.push_str(&format!("{open}>\n"));
            write_properties(out, &format!("{indent} "), members);
            out.push_str(&format!("{indent}</{tag}>\n"));
            return;
        }
        PropertyValue::List(items) if !items.is_empty() => {
            out.push_str(&format!("{open}>\n"));
            for item in items {
                write_typed_value(out, &format!("{indent} "), "item", None, item);
            }
            out.push_str(&format!("{indent}</{tag}>\n"));
            return;
        }
        PropertyValue::Class { .. } | PropertyValue::List(_) => {
            out.push_str(&format!("{open}/>\n"));
            return;
        }
    };
    out.push_str(&format!("{open} value=\"{}\"/>\n", escape(&value)));
}

/// A layer's tint, offset and parallax attributes, as Tiled writes them (none when unset).
fn layer_look_attributes(tint: Option<Rgba>, offset: [f64; 2], parallax: [f64; 2]) -> String {
    let mut out = String::new();
    if let Some(tint) = tint {
        out += &format!(" tintcolor=\"{}\"", crate::core::model::wang::tiled_color(tint));
    }
    if offset != [0.0, 0.0] {
        out += &format!(" offsetx=\"{}\" offsety=\"{}\"", offset[0], offset[1]);
    }
    if parallax != [1.0, 1.0] {
        out += &format!(" parallaxx=\"{}\" parallaxy=\"{}\"", parallax[0], parallax[1]);
    }
    out
}

/// Writes a layer group's start tag, with layer id `id`, and its properties.
fn write_group_start(out: &mut String, g: &LayerGroup, id: usize) {
    out.push_str(&format!(
        " <group id=\"{id}\" name=\"{}\"{}{}{}{}{}>\n",
        escape(&g.name),
        text_attribute("class", &g.class),
        if g.visible { "" } else { " visible=\"0\"" },
        if g.locked { " locked=\"1\"" } else { "" },
        if g.opacity == 1.0 { String::new() } else { format!(" opacity=\"{}\"", super::shortest_f64(g.opacity)) },
        layer_look_attributes(g.tint, g.offset, g.parallax)
    ));
    write_properties(out, "  ", &g.properties);
}

/// A tileset's `<wangsets>`, as Tiled writes them.
fn write_wang_sets(out: &mut String, sets: &[WangSet]) {
    if sets.is_empty() {
        return;
    }
    out.push_str("  <wangsets>\n");
    for set in sets {
        let class = text_attribute("class", &set.class);
        out.push_str(&format!(
            "   <wangset name=\"{}\"{class} type=\"{}\" tile=\"{}\">\n",
            escape(&set.name),
            set.kind.tiled_name(),
            set.tile.map_or(-1, i64::from)
        ));
        write_properties(out, "    ", &set.properties);
        for c in &set.colors {
            let class = text_attribute("class", &c.class);
            let attributes = format!(
                "name=\"{}\"{class} color=\"{}\" tile=\"{}\" probability=\"{}\"",
                escape(&c.name),
                crate::core::model::wang::tiled_color(c.color),
                c.tile.map_or(-1, i64::from),
                c.probability
            );
            if c.properties.is_empty() {
                out.push_str(&format!("    <wangcolor {attributes}/>\n"));
            } else {
                out.push_str(&format!("    <wangcolor {attributes}>\n"));
                write_properties(out, "     ", &c.properties);
                out.push_str("    </wangcolor>\n");
            }
        }
        for (id, wang_id) in &set.tiles {
            out.push_str(&format!(
                "    <wangtile tileid=\"{id}\" wangid=\"{}\"/>\n",
                crate::core::model::wang::wang_id_text(wang_id)
            ));
        }
        out.push_str("   </wangset>\n");
    }
    out.push_str("  </wangsets>\n");
}

/// Image pixel size of a sheet laid out as Tiled computes it.
pub(crate) fn image_size(ts: &TilesetDoc) -> (u32, u32) {
    let columns = ts.columns.max(1);
    let rows = ts.tile_count.div_ceil(columns).max(1);
    (
        2 * ts.margin + columns * ts.tile_width + (columns - 1) * ts.spacing,
        2 * ts.margin + rows * ts.tile_height + (rows - 1) * ts.spacing,
    )
}

/// A tileset's element, whole (`first_gid`: its `firstgid` attribute and a space, in a map).
fn write_tileset(out: &mut String, ts: &TilesetDoc, first_gid: &str) {
    let class = text_attribute("class", &ts.class);
    out.push_str(&format!(
        " <tileset {first_gid}name=\"{}\"{class} tilewidth=\"{}\" tileheight=\"{}\" spacing=\"{}\" margin=\"{}\" tilecount=\"{}\" columns=\"{}\"{}>\n",
        escape(&ts.name),
        ts.tile_width,
        ts.tile_height,
        ts.spacing,
        ts.margin,
        ts.tile_count,
        ts.columns,
        drawing_attributes(&ts.drawing)
    ));
    if ts.offset != [0, 0] {
        out.push_str(&format!("  <tileoffset x=\"{}\" y=\"{}\"/>\n", ts.offset[0], ts.offset[1]));
    }
    write_properties(out, "  ", &ts.properties);
    if let Some(t) = ts.drawing.transformations {
        out.push_str(&format!(
            "  <transformations hflip=\"{}\" vflip=\"{}\" rotate=\"{}\" preferuntransformed=\"{}\"/>\n",
            u8::from(t.hflip),
            u8::from(t.vflip),
            u8::from(t.rotate),
            u8::from(t.prefer_untransformed)
        ));
    }
    if let Some(image) = &ts.image {
        let (w, h) = image_size(ts);
        out.push_str(&format!(
            "  <image source=\"{}\"{} width=\"{w}\" height=\"{h}\"/>\n",
            escape(&super::file_reference(image)),
            // Tiled writes `trans` without the '#'.
            ts.transparent.map(|c| format!(" trans=\"{}\"", &c.to_hex()[1..])).unwrap_or_default()
        ));
    }
    for (id, tile) in &ts.tiles {
        let probability = tile.probability.map(|p| format!(" probability=\"{p}\"")).unwrap_or_default();
        // Tiled 1.10 writes a tile's class as `type` again, as 1.8 did.
        let class = text_attribute("type", &tile.class);
        if tile.properties.is_empty() && tile.animation.is_empty() {
            out.push_str(&format!("  <tile id=\"{id}\"{class}{probability}/>\n"));
            continue;
        }
        out.push_str(&format!("  <tile id=\"{id}\"{class}{probability}>\n"));
        write_properties(out, "   ", &tile.properties);
        if !tile.animation.is_empty() {
            out.push_str("   <animation>\n");
            for f in &tile.animation {
                out.push_str(&format!("    <frame tileid=\"{}\" duration=\"{}\"/>\n", f.tile, f.duration_ms));
            }
            out.push_str("   </animation>\n");
        }
        out.push_str("  </tile>\n");
    }
    write_wang_sets(out, &ts.wang_sets);
    out.push_str(" </tileset>\n");
}

/// A tileset as a TSX file holds it (its image path as the document has it): the element a map
/// embeds, one level out.
pub(crate) fn tileset_file(ts: &TilesetDoc) -> String {
    let mut element = String::new();
    write_tileset(&mut element, ts, "version=\"1.10\" tiledversion=\"1.10.2\" ");
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    for line in element.lines() {
        out.push_str(line.strip_prefix(' ').unwrap_or(line));
        out.push('\n');
    }
    out
}

pub fn to_string(map: &crate::core::Map, path: &Path) -> Result<Written, MapError> {
    let placement = tiled_common::export_doc(map, path);
    let doc = placement.doc;
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    // Where Tiled writes them: the class after the version, the colour after the ids.
    let class = text_attribute("class", &doc.class);
    let background = doc
        .background
        .map(|c| format!(" backgroundcolor=\"{}\"", crate::core::model::wang::tiled_color(c)))
        .unwrap_or_default();
    let order = doc.settings.render_order.name();
    // Tiled writes the level only when it is not the default.
    let level = match doc.settings.compression_level {
        -1 => String::new(),
        level => format!(" compressionlevel=\"{level}\""),
    };
    // And the parallax origin only when it is not the map's corner.
    let [ox, oy] = doc.settings.parallax_origin;
    let origin = [("parallaxoriginx", ox), ("parallaxoriginy", oy)]
        .iter()
        .filter(|(_, v)| *v != 0.0)
        .map(|(name, v)| format!(" {name}=\"{v}\""))
        .collect::<String>();
    let orientation = doc.settings.orientation.name();
    // Tiled writes a hexagonal or staggered map's grid after `infinite`.
    let grid: String =
        doc.settings.orientation.grid_attributes().iter().map(|(name, v)| format!(" {name}=\"{v}\"")).collect();
    out.push_str(&format!(
        "<map version=\"1.10\" tiledversion=\"1.10.2\"{class} orientation=\"{orientation}\" renderorder=\"{order}\"{level} \
         width=\"{}\" height=\"{}\" tilewidth=\"{}\" tileheight=\"{}\" infinite=\"{}\"{grid}{origin}{background} nextlayerid=\"{}\" nextobjectid=\"{}\">\n",
        doc.width,
        doc.height,
        doc.tile_width,
        doc.tile_height,
        u8::from(doc.infinite),
        doc.layers.len() + doc.object_layers.len() + doc.groups.len() + 1,
        doc.next_object_id
    ));
    write_editor_settings(&mut out, &doc.editor);
    write_properties(&mut out, " ", &doc.properties);
    for ts in &doc.tilesets {
        if let Some(source) = &ts.source {
            out.push_str(&format!(
                " <tileset firstgid=\"{}\" source=\"{}\"/>\n",
                ts.first_gid,
                escape(&super::file_reference(source))
            ));
        } else {
            write_tileset(&mut out, ts, &format!("firstgid=\"{}\" ", ts.first_gid));
        }
    }
    // An infinite map's layers in chunks ([`TiledEditorSettings::chunk_cells`]).
    let chunk = doc.infinite.then(|| doc.editor.chunk_cells());
    // Layers in stack order, numbered from 1 in it (Tiled's layer ids), then the groups.
    let stack = doc.stack();
    for item in map::outline(stack.len(), &doc.groups) {
        match item {
            OutlineItem::Open(g) => write_group_start(&mut out, &doc.groups[g], stack.len() + g + 1),
            OutlineItem::Close(_) => out.push_str(" </group>\n"),
            OutlineItem::Layer(k) => match stack[k] {
                LayerRef::Tiles(i) => write_tile_layer(&mut out, &doc.layers[i], k + 1, doc.settings, chunk)?,
                LayerRef::Objects(j) => write_object_layer(&mut out, &doc, j, k + 1),
            },
        }
    }
    out.push_str("</map>\n");
    Ok(Written {
        text: out,
        extra_files: placement.glyph_image.into_iter().collect(),
        warnings: doc.warnings,
        notes: placement.notes,
    })
}
