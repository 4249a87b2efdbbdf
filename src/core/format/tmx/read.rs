//! Reading TMX maps, TSX tilesets and TX templates: each file is parsed once into an element
//! tree ([`super::xml`]) and read from it into the document model both Tiled formats share
//! ([`super::super::tiled_common`]), as Tiled's own `mapreader.cpp` reads them. Files a map names in
//! the other format (a `.tsj` tileset, a `.tj` template) are read through [`SideFiles`].
//!
//! Every size and coordinate is checked where it is read, with the element, the attribute and
//! the value in the message, before any arithmetic on it.

use std::collections::BTreeMap;
use std::path::Path;

use super::super::tiled_common::{
    self, Doc, DocShape, Dropped, FrameDoc, ObjectDoc, SideFiles, TemplateDoc, TemplateTilesets, TileDoc, TileLayerDoc,
    TilesetDoc,
};
use super::xml::{self, Element};
use crate::core::model::error::{MapError, MapErrorKind};
use crate::core::model::flip::Flip;
use crate::core::model::limits::Limit;
use crate::core::model::map::{self, DrawOrder, LayerGroup, MAX_MAP_SIDE, ObjectLayer};
use crate::core::model::object::{HorizontalAlign, ObjectText, VerticalAlign};
use crate::core::model::sheet_drawing::{ObjectAlignment, SheetDrawing, TileTransformations};
use crate::core::model::tile::{Properties, PropertyValue, Rgb, Rgba};
use crate::core::model::tiled_settings::{LayerFormat, Orientation, RenderOrder};
use crate::core::model::wang::{WangColor, WangKind, WangSet};

/// A TMX map, read into the document model; `path` is the map's file (its folder resolves the
/// files it names).
pub(crate) fn read_map(bytes: &[u8], path: &Path, files: &dyn SideFiles) -> Result<Doc, MapError> {
    let root = xml::parse(bytes)?;
    if root.name != "map" {
        return Err(root.error(format!("the file's root element is <{}>: a Tiled map's is <map>", root.name)));
    }
    let dir = path.parent().unwrap_or(Path::new(""));
    let infinite = root.flag_or("infinite", false)?;
    let (width, height) = (root.int_or("width", 0i64, Limit::CELLS)?, root.int_or("height", 0i64, Limit::CELLS)?);
    let (width, height) = if infinite {
        (u32::try_from(width).unwrap_or(0), u32::try_from(height).unwrap_or(0))
    } else {
        map::check_dimensions(width, height).map_err(|e| e.at_line(root.line, None))?
    };
    let mut doc = Doc {
        width,
        height,
        infinite,
        tile_width: root.int_or("tilewidth", 0u32, Limit::PIXELS)?,
        tile_height: root.int_or("tileheight", 0u32, Limit::PIXELS)?,
        next_object_id: root.int_or("nextobjectid", 0u32, Limit::ID)?,
        properties: properties(&root)?,
        class: class_of(&root),
        background: colour(&root, "backgroundcolor")?,
        ..Doc::default()
    };
    // Tiled reads an order it does not know as its default, and so do we.
    doc.settings.render_order = root.attr("renderorder").and_then(RenderOrder::from_name).unwrap_or_default();
    doc.settings.compression_level = root.int_or("compressionlevel", -1i64, Limit::FLAG)?.clamp(-1, 22) as i32;
    for (k, name) in ["parallaxoriginx", "parallaxoriginy"].into_iter().enumerate() {
        if let Some(v) = root.float(name)? {
            if !v.is_finite() {
                return Err(
                    root.error(format!("<map> attribute {name}: the parallax origin must be two finite numbers"))
                );
            }
            doc.settings.parallax_origin[k] = v;
        }
    }
    let grid = |name: &str| root.attr(name).map(str::to_owned);
    match Orientation::from_attributes(root.attr("orientation").unwrap_or("orthogonal"), grid) {
        Ok(orientation) => {
            doc.settings.orientation = orientation;
            doc.warnings.extend(orientation.load_warning());
        }
        Err(warning) => doc.warnings.push(warning),
    }
    if let Some(editor) = root.child("editorsettings") {
        if let Some(export) = editor.child("export") {
            doc.editor.export_target = export.string("target");
            doc.editor.export_format = export.string("format");
        }
        if let Some(chunk) = editor.child("chunksize") {
            doc.editor.chunk_size =
                Some([chunk.int_or("width", 16u32, Limit::CELLS)?, chunk.int_or("height", 16u32, Limit::CELLS)?]);
        }
    }

    // The tilesets, and the file each came from (an embedded one, the map's own), by which an
    // object template's tile finds its tileset among the map's.
    let mut sources = Vec::new();
    let mut total_tiles = 0u64;
    for element in root.children_named("tileset") {
        let first_gid = element.int_or("firstgid", 1i64, Limit::FIRST_GID)?;
        let first_gid = u32::try_from(first_gid)
            .ok()
            .filter(|&g| g >= 1)
            .ok_or_else(|| element.error(format!("firstgid {first_gid} must be at least 1")))?;
        let ts = match element.attr("source") {
            Some(source) => {
                // As the map names it (joined to its folder), as messages and `info` show it.
                let file = dir.join(source);
                let ts = files.tileset(&file).map_err(|e| match e.kind {
                    MapErrorKind::MissingTileset(_) => MapError::new(MapErrorKind::MissingTileset(file.clone())),
                    _ => MapError { file: None, ..e }.in_tileset(source),
                })?;
                sources.push(Some(file.clone()));
                TilesetDoc { first_gid, source: Some(file), ..ts }
            }
            None => {
                sources.push(Some(path.to_owned()));
                read_tileset(element, first_gid, dir)?
            }
        };
        total_tiles += u64::from(ts.tile_count);
        if total_tiles > tiled_common::MAX_TILES {
            return Err(element.error(format!(
                "the tilesets hold {total_tiles} tiles; sightline supports at most {}",
                tiled_common::MAX_TILES
            )));
        }
        doc.tilesets.push(ts);
    }

    // Every tile layer's declared size is counted before any layer's data is decoded, so a
    // file of many large compressed layers is refused before it takes their memory.
    let mut cells = 0u64;
    count_cells(&root, infinite, &mut cells)?;
    let mut reader = LayerReader { dir, files, templates: Vec::new(), tilesets: TemplateTilesets::new(sources) };
    reader.layers(&root, None, &mut doc)?;
    Ok(doc)
}

/// Adds up the cells the tile layers under `parent` declare (an infinite map's chunks').
fn count_cells(parent: &Element, infinite: bool, cells: &mut u64) -> Result<(), MapError> {
    for element in &parent.children {
        match element.name.as_str() {
            "group" => count_cells(element, infinite, cells)?,
            "layer" if !infinite => {
                let (w, h) = layer_size(element)?;
                map::count_layer_cells(cells, u64::from(w) * u64::from(h))
                    .map_err(|e| e.at_line(element.line, None))?;
            }
            "layer" => {
                for chunk in element.child("data").into_iter().flat_map(|d| d.children_named("chunk")) {
                    let (w, h) = layer_size(chunk)?;
                    map::count_layer_cells(cells, u64::from(w) * u64::from(h))
                        .map_err(|e| e.at_line(chunk.line, None))?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// A `<layer>`'s or `<chunk>`'s `width` and `height`, each at most [`MAX_MAP_SIDE`].
fn layer_size(element: &Element) -> Result<(u32, u32), MapError> {
    let (w, h) = (element.int_or("width", 0i64, Limit::CELLS)?, element.int_or("height", 0i64, Limit::CELLS)?);
    let max = i64::from(MAX_MAP_SIDE);
    if !(0..=max).contains(&w) || !(0..=max).contains(&h) {
        return Err(MapError::new(MapErrorKind::Dimensions { width: w, height: h }).at_line(element.line, None));
    }
    Ok((w as u32, h as u32))
}

/// What reading the layers needs besides the document.
struct LayerReader<'a> {
    dir: &'a Path,
    files: &'a dyn SideFiles,
    /// Templates read so far: the `template` attribute as written, and the template.
    templates: Vec<(String, TemplateDoc)>,
    tilesets: TemplateTilesets,
}

impl LayerReader<'_> {
    /// The layers under `parent` (the map or a group), in the order the file lists them.
    fn layers(&mut self, parent: &Element, group: Option<usize>, doc: &mut Doc) -> Result<(), MapError> {
        for element in &parent.children {
            let kind = element.name.as_str();
            if !matches!(kind, "layer" | "objectgroup" | "imagelayer" | "group") {
                continue;
            }
            let name = element.string("name");
            let look = Look::of(element)?;
            if element.attr("mode").is_some_and(|m| m != "normal") {
                doc.dropped.insert(Dropped::BlendModes);
            }
            let in_layer = |e: MapError| e.in_layer(&name);
            match kind {
                "layer" => {
                    let layer = self.tile_layer(element, doc, look).map_err(in_layer)?;
                    doc.layers.push(layer);
                }
                "objectgroup" => {
                    let layer_index = doc.object_layers.len();
                    doc.object_layers.push(ObjectLayer {
                        name: name.clone(),
                        visible: look.visible,
                        locked: look.locked,
                        opacity: look.opacity,
                        color: colour(element, "color").map_err(in_layer)?,
                        tint: look.tint,
                        offset: look.offset,
                        parallax: look.parallax,
                        properties: look.properties,
                        class: look.class,
                        draw_order: if element.attr("draworder") == Some("index") {
                            DrawOrder::Index
                        } else {
                            DrawOrder::TopDown
                        },
                        tile_layers_below: doc.layers.len(),
                    });
                    for object in element.children_named("object") {
                        let object = self.map_object(object, layer_index, doc).map_err(in_layer)?;
                        doc.objects.push(object);
                    }
                }
                "imagelayer" => {
                    doc.warnings
                        .push(format!("image layer {name:?} is not shown (sightline draws tile and object layers)"));
                    doc.dropped.insert(Dropped::ImageLayers);
                }
                _ => {
                    let at = doc.layers.len() + doc.object_layers.len();
                    let g = doc.groups.len();
                    doc.groups.push(LayerGroup {
                        visible: look.visible,
                        locked: look.locked,
                        opacity: look.opacity,
                        tint: look.tint,
                        offset: look.offset,
                        parallax: look.parallax,
                        properties: look.properties,
                        class: look.class,
                        ..LayerGroup::new(&name, group, at)
                    });
                    self.layers(element, Some(g), doc)?;
                    doc.groups[g].end = doc.layers.len() + doc.object_layers.len();
                }
            }
        }
        Ok(())
    }

    fn tile_layer(&self, element: &Element, doc: &mut Doc, look: Look) -> Result<TileLayerDoc, MapError> {
        let (width, height) = layer_size(element)?;
        let mut layer = TileLayerDoc {
            name: element.string("name"),
            visible: look.visible,
            locked: look.locked,
            opacity: Some(look.opacity),
            properties: look.properties,
            class: look.class,
            offset: look.offset,
            parallax: look.parallax,
            tint: look.tint,
            ..TileLayerDoc::default()
        };
        let Some(data) = element.child("data") else {
            if !doc.infinite {
                (layer.width, layer.height) = (width, height);
                layer.gids = vec![0; width as usize * height as usize];
            }
            return Ok(layer);
        };
        let (encoding, compression) = (data.attr("encoding"), data.attr("compression"));
        // The map's layer format is its last tile layer's, as Tiled takes it.
        if let Some(format) = LayerFormat::from_attributes(encoding, compression) {
            doc.settings.layer_format = format;
        }
        if !doc.infinite {
            (layer.width, layer.height) = (width, height);
            let expected = width as usize * height as usize;
            // An empty <data/>: a layer with no tiles.
            let empty = data.text.trim().is_empty() && data.gids.is_empty();
            layer.gids = if empty { vec![0; expected] } else { decode(data, encoding, compression, expected)? };
            return Ok(layer);
        }
        // An infinite map's layer: its chunks' non-empty tiles, placed in one dense rectangle.
        let mut tiles = Vec::new();
        for chunk in data.children_named("chunk") {
            let (w, h) = layer_size(chunk)?;
            // Chunk positions are cells; within i32 (as Tiled keeps them), so that a cell's
            // position within its chunk adds without overflow.
            let (x, y) = (chunk.int_or("x", 0i32, Limit::CELLS)?, chunk.int_or("y", 0i32, Limit::CELLS)?);
            let gids = decode(chunk, encoding, compression, w as usize * h as usize)?;
            for (k, &gid) in gids.iter().enumerate() {
                if gid & !Flip::GID_MASK != 0 {
                    tiles.push((i64::from(x) + (k % w as usize) as i64, i64::from(y) + (k / w as usize) as i64, gid));
                }
            }
        }
        tiled_common::fill_sparse(&mut layer, &tiles)?;
        Ok(layer)
    }

    /// A map object; an instance of a template is read over it, as Tiled reads one.
    fn map_object(&mut self, element: &Element, layer: usize, doc: &mut Doc) -> Result<ObjectDoc, MapError> {
        let Some(attr) = element.attr("template") else {
            return object(element, layer, Ok);
        };
        let template = self.template(attr, doc)?;
        let mut instance = object(element, layer, Ok)?;
        instance_over_template(&mut instance, element, &template.object);
        let class = Some(instance.class.clone()).filter(|c| !c.is_empty());
        tiled_common::take_unset_from_template(&mut instance, &template.object, class);
        instance.template = Some(template);
        Ok(instance)
    }

    /// The template `attr` names (read the first time), its tile numbered as in the map.
    fn template(&mut self, attr: &str, doc: &mut Doc) -> Result<TemplateDoc, MapError> {
        if let Some((_, t)) = self.templates.iter().find(|(a, _)| a == attr) {
            return Ok(t.clone());
        }
        let path = super::super::resolve_path(self.dir, Path::new(attr));
        let object = self.files.template(&path, &mut self.tilesets, doc).map_err(|e| {
            // Named as the map names it.
            use crate::core::model::error::Location;
            let e = match e.location {
                Some(Location::Template(_)) => MapError { location: None, ..e },
                Some(Location::TemplateTileset(names)) => MapError { location: Some(Location::Tileset(names.1)), ..e },
                _ => e,
            };
            MapError { file: None, ..e }.in_template(attr)
        })?;
        let template = TemplateDoc { path, object: Box::new(object) };
        self.templates.push((attr.to_owned(), template.clone()));
        Ok(template)
    }
}

/// What every kind of layer has: whether it shows and is locked, its opacity, tint, offset and
/// parallax, its properties and class.
struct Look {
    visible: bool,
    locked: bool,
    opacity: f32,
    tint: Option<Rgba>,
    offset: [f64; 2],
    parallax: [f64; 2],
    properties: Properties,
    class: String,
}

impl Look {
    fn of(element: &Element) -> Result<Look, MapError> {
        Ok(Look {
            visible: element.flag_or("visible", true)?,
            locked: element.flag_or("locked", false)?,
            opacity: element.float_or("opacity", 1.0)? as f32,
            tint: colour(element, "tintcolor")?,
            offset: [element.float_or("offsetx", 0.0)?, element.float_or("offsety", 0.0)?],
            parallax: [element.float_or("parallaxx", 1.0)?, element.float_or("parallaxy", 1.0)?],
            properties: properties(element)?,
            class: class_of(element),
        })
    }
}

/// An element's class: Tiled 1.9's `class`, else the `type` older and newer versions write.
fn class_of(element: &Element) -> String {
    element.attr("class").filter(|c| !c.is_empty()).or(element.attr("type")).unwrap_or_default().to_owned()
}

/// A colour attribute (`#RRGGBB` or `#AARRGGBB`; `None`: absent or empty, as Tiled writes an
/// unset one).
fn colour(element: &Element, name: &str) -> Result<Option<Rgba>, MapError> {
    match element.attr(name) {
        None | Some("") => Ok(None),
        Some(text) => Rgba::from_hex(text).map(Some).ok_or_else(|| {
            element
                .error(format!("<{}> attribute {name}={text:?} is not a colour (#RRGGBB or #AARRGGBB)", element.name))
        }),
    }
}

/// A `<data>`'s or `<chunk>`'s GIDs: CSV, base64 (compressed or not) or `<tile>` elements.
fn decode(
    data: &Element,
    encoding: Option<&str>,
    compression: Option<&str>,
    expected: usize,
) -> Result<Vec<u32>, MapError> {
    let at = |e: MapError| e.at_line(data.line, None);
    let gids = match encoding {
        Some("csv") => tiled_common::decode_csv_gids(&data.text).map_err(at)?,
        Some("base64") => tiled_common::decode_base64_gids(&data.text, compression, expected).map_err(at)?,
        None => data.gids.clone(),
        Some(other) => {
            return Err(data.error(format!("data encoding {other:?} is not supported (use csv or base64)")));
        }
    };
    if gids.len() != expected {
        return Err(at(MapErrorKind::DataLength { expected, found: gids.len() }.into()));
    }
    Ok(gids)
}

/// The `<properties>` of an element (a class value's members, when it is one).
fn properties(element: &Element) -> Result<Properties, MapError> {
    let mut out = Properties::new();
    for list in element.children_named("properties") {
        for p in list.children_named("property") {
            let name = p.string("name");
            out.insert(name.clone(), value(p, &format!("property {name:?}"))?);
        }
    }
    Ok(out)
}

/// A `<property>`'s or list `<item>`'s value, by its `type` and `propertytype` (`called`
/// names it in messages): its `value` attribute, else its text (a string of several lines), a
/// class's members or a list's items.
fn value(p: &Element, called: &str) -> Result<PropertyValue, MapError> {
    let kind = p.attr("type").unwrap_or("string");
    let custom_type = p.attr("propertytype").unwrap_or("");
    let text = p.attr("value").map_or_else(|| p.text.clone(), str::to_owned);
    let bad = |fix: &str| p.error(format!("{called} of type {kind:?} has value {text:?}: {fix}"));
    // Only a class holds elements (its members) and a list (its items).
    if let Some(child) = p.children.first().filter(|_| !matches!(kind, "class" | "list")) {
        let what = if custom_type.is_empty() { format!("type {kind:?}") } else { format!("enum type {custom_type:?}") };
        return Err(child.error(format!("{called} of {what} holds a <{}> element; its value is text", child.name)));
    }
    let plain = match kind {
        "bool" => PropertyValue::Bool(text.trim().parse().map_err(|_| bad("use true or false"))?),
        "int" => PropertyValue::Int(text.trim().parse().map_err(|_| bad("use a whole number"))?),
        "float" => PropertyValue::Float(
            text.trim().parse::<f64>().ok().filter(|f| f.is_finite()).ok_or_else(|| bad("use a number"))?,
        ),
        "object" => PropertyValue::Object(
            text.trim().parse().map_err(|_| bad("use an object id (a whole number, 0 for none)"))?,
        ),
        // Tiled writes an unset colour as "".
        "color" if text.is_empty() => PropertyValue::Color(None),
        "color" => {
            let hex = text.strip_prefix('#').unwrap_or(&text);
            if !(matches!(hex.len(), 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit())) {
                return Err(bad("use a color as #RRGGBB or #AARRGGBB"));
            }
            PropertyValue::Color(Rgba::from_hex(&text))
        }
        "file" => PropertyValue::File(text),
        "class" => PropertyValue::Class { class: custom_type.to_owned(), members: properties(p)? },
        "list" => PropertyValue::List(
            p.children_named("item")
                .map(|item| value(item, &format!("{called}, an item")))
                .collect::<Result<_, _>>()?,
        ),
        "string" => PropertyValue::String(text),
        other => return Err(p.error(format!("{called} has type {other:?}, which Tiled does not have"))),
    };
    Ok(tiled_common::typed_as_enum(plain, custom_type))
}

/// A `<tileset>` element (embedded in a map, or a TSX file's root), its image resolved against
/// `dir` (the folder of the file that holds it).
fn read_tileset(element: &Element, first_gid: u32, dir: &Path) -> Result<TilesetDoc, MapError> {
    let name = element.string("name");
    let in_tileset = |e: MapError| e.in_tileset(&name);
    read_tileset_body(element, first_gid, dir).map_err(in_tileset)
}

fn read_tileset_body(element: &Element, first_gid: u32, dir: &Path) -> Result<TilesetDoc, MapError> {
    let tile_width = element.int_or("tilewidth", 0u32, Limit::PIXELS)?;
    let tile_height = element.int_or("tileheight", 0u32, Limit::PIXELS)?;
    let spacing = element.int_or("spacing", 0u32, Limit::PIXELS)?;
    let margin = element.int_or("margin", 0u32, Limit::PIXELS)?;
    let image = element.child("image");
    // Tiled before 1.0 wrote neither `tilecount` nor `columns`, nor an image's size: they are
    // worked out from the image, as Tiled does (in u64: no declared size can overflow it).
    let fit = |size: u32, tile: u32| -> u32 {
        if tile == 0 {
            return 0;
        }
        let room = (u64::from(size) + u64::from(spacing)).saturating_sub(2 * u64::from(margin));
        u32::try_from(room / (u64::from(tile) + u64::from(spacing))).unwrap_or(u32::MAX)
    };
    let image_size = match image {
        None => None,
        Some(image) => {
            let (w, h) = (image.int_or("width", 0u32, Limit::IMAGE)?, image.int_or("height", 0u32, Limit::IMAGE)?);
            if w > 0 && h > 0 {
                Some((w, h))
            } else {
                image.attr("source").and_then(|source| image_size_from_file(&dir.join(source)))
            }
        }
    };
    let columns = match (element.int::<u32>("columns", Limit::TILES)?, image_size) {
        (Some(c), _) => c,
        (None, Some((w, _))) => fit(w, tile_width),
        (None, None) => 0,
    };
    let tile_count = match (element.int::<u32>("tilecount", Limit::TILES)?, image_size) {
        (Some(count), _) => count,
        (None, Some((w, h))) => {
            let count = u64::from(fit(w, tile_width)) * u64::from(fit(h, tile_height));
            u32::try_from(count).ok().filter(|&c| u64::from(c) <= tiled_common::MAX_TILES).ok_or_else(|| {
                element.error(format!(
                    "its image holds {count} tiles; sightline supports at most {}",
                    tiled_common::MAX_TILES
                ))
            })?
        }
        (None, None) => 0,
    };
    let mut tiles = BTreeMap::new();
    let mut tile_shapes = false;
    for tile in element.children_named("tile") {
        let id = tile.int_or("id", 0u32, Limit::TILES)?;
        if u64::from(id) > tiled_common::MAX_TILES {
            return Err(tile.error(format!("tile id {id} is beyond any tileset sightline reads")));
        }
        tile_shapes |= tile.child("objectgroup").is_some();
        let animation = tile
            .child("animation")
            .into_iter()
            .flat_map(|a| a.children_named("frame"))
            .map(|f| {
                Ok(FrameDoc {
                    tile: f.int_or("tileid", 0u32, Limit::TILES)?,
                    duration_ms: f.int_or("duration", 0u32, Limit::MILLISECONDS)?,
                })
            })
            .collect::<Result<Vec<_>, MapError>>()?;
        let probability = tile.float("probability")?.map(|p| p as f32).filter(|&p| p != 1.0);
        let doc = TileDoc { class: class_of(tile), properties: properties(tile)?, animation, probability };
        // Tiled lists a tile with nothing of its own only for a collection's image.
        if doc != TileDoc::default() || tile.child("image").is_some() || probability.is_some() {
            tiles.insert(id, doc);
        }
    }
    let drawing = SheetDrawing {
        grid_size: match element.attr("tilerendersize").unwrap_or("tile") {
            "tile" => false,
            "grid" => true,
            other => return Err(element.error(format!("tilerendersize {other:?} is not \"tile\" or \"grid\""))),
        },
        preserve_aspect: match element.attr("fillmode").unwrap_or("stretch") {
            "stretch" => false,
            "preserve-aspect-fit" => true,
            other => {
                return Err(element.error(format!("fillmode {other:?} is not \"stretch\" or \"preserve-aspect-fit\"")));
            }
        },
        object_alignment: match element.attr("objectalignment") {
            None => ObjectAlignment::Unspecified,
            Some(name) => ObjectAlignment::from_name(name).ok_or_else(|| {
                element.error(format!("objectalignment {name:?} is not an alignment like \"bottomleft\""))
            })?,
        },
        transformations: match element.child("transformations") {
            None => None,
            Some(t) => Some(TileTransformations {
                hflip: t.flag_or("hflip", false)?,
                vflip: t.flag_or("vflip", false)?,
                rotate: t.flag_or("rotate", false)?,
                prefer_untransformed: t.flag_or("preferuntransformed", false)?,
            })
            .filter(|t| *t != TileTransformations::default()),
        },
    };
    let offset = match element.child("tileoffset") {
        None => [0, 0],
        Some(o) => [o.int_or("x", 0i32, Limit::OFFSET)?, o.int_or("y", 0i32, Limit::OFFSET)?],
    };
    let wang_sets = element
        .child("wangsets")
        .into_iter()
        .flat_map(|w| w.children_named("wangset"))
        .map(wang_set)
        .collect::<Result<_, _>>()?;
    Ok(TilesetDoc {
        name: element.string("name"),
        class: element.string("class"),
        first_gid,
        source: None,
        image: image.and_then(|i| i.attr("source")).map(|s| super::super::resolve_path(dir, Path::new(s))),
        tile_width,
        tile_height,
        columns,
        tile_count,
        spacing,
        margin,
        transparent: match image.and_then(|i| i.attr("trans")).filter(|t| !t.is_empty()) {
            None => None,
            Some(t) => Some(Rgb::from_hex(t).ok_or_else(|| element.error(format!("trans={t:?} is not a colour")))?),
        },
        tiles,
        properties: properties(element)?,
        wang_sets,
        offset,
        drawing,
        tile_shapes,
    })
}

fn wang_set(w: &Element) -> Result<WangSet, MapError> {
    // Tiled writes -1 for "no tile".
    let tile = |e: &Element| -> Result<Option<u32>, MapError> {
        Ok(e.int::<i64>("tile", Limit::FLAG)?.and_then(|t| u32::try_from(t).ok()))
    };
    let kind = w.attr("type").unwrap_or("mixed");
    let kind = WangKind::from_tiled_name(kind)
        .ok_or_else(|| w.error(format!("Wang set type {kind:?} is not \"corner\", \"edge\" or \"mixed\"")))?;
    let mut colors = Vec::new();
    for c in w.children_named("wangcolor") {
        colors.push(WangColor {
            name: c.string("name"),
            class: c.string("class"),
            color: colour(c, "color")?.unwrap_or(Rgba(0, 0, 0, 255)),
            tile: tile(c)?,
            probability: c.float_or("probability", 1.0)?,
            properties: properties(c)?,
        });
    }
    let mut tiles = BTreeMap::new();
    for t in w.children_named("wangtile") {
        let text = t.string("wangid");
        let parts: Vec<Option<u8>> = text.split(',').map(|p| p.trim().parse().ok()).collect();
        let wang_id: [u8; 8] = parts
            .into_iter()
            .collect::<Option<Vec<u8>>>()
            .and_then(|v| v.try_into().ok())
            .ok_or_else(|| t.error(format!("wangid {text:?} is not eight colour numbers")))?;
        tiles.insert(t.int_or("tileid", 0u32, Limit::TILES)?, wang_id);
    }
    Ok(WangSet {
        name: w.string("name"),
        // (A Wang set's `type` is its kind.)
        class: w.string("class"),
        kind,
        tile: tile(w)?,
        colors,
        tiles,
        properties: properties(w)?,
    })
}

/// An object's `gid`, when it names a tile. Tiled reads a `gid` of tile 0 as none (`if (gid)`
/// in its reader): the object is a rectangle, or an instance takes its template's tile.
fn tile_gid(o: &Element) -> Result<Option<u32>, MapError> {
    Ok(o.int::<u32>("gid", Limit::ID)?.filter(|g| g & !Flip::GID_MASK != 0))
}

/// An `<object>` as it is written (an instance: its own values only), on object layer
/// `layer`; `gid` numbers its tile as the document does.
fn object(o: &Element, layer: usize, mut gid: impl FnMut(u32) -> Result<u32, MapError>) -> Result<ObjectDoc, MapError> {
    let shape = if let Some(g) = tile_gid(o)? {
        // Tiled's hexagonal 120° rotation bit means nothing on an orthogonal map.
        DocShape::Tile(gid(g & !(Flip::GID_MASK & !0xE000_0000))?)
    } else if o.child("ellipse").is_some() {
        DocShape::Ellipse
    } else if o.child("point").is_some() {
        DocShape::Point
    } else if o.child("capsule").is_some() {
        DocShape::Capsule
    } else if let Some(p) = o.child("polygon") {
        DocShape::Polygon(points(p)?)
    } else if let Some(p) = o.child("polyline") {
        DocShape::Polyline(points(p)?)
    } else if let Some(t) = o.child("text") {
        DocShape::Text(Box::new(text(t)?))
    } else {
        DocShape::Rectangle
    };
    let opacity = o.float("opacity")?.map(|v| v as f32).filter(|&v| v != 1.0);
    Ok(ObjectDoc {
        id: o.int_or("id", 0u32, Limit::ID)?,
        layer,
        name: o.string("name"),
        class: class_of(o),
        x: o.float_or("x", 0.0)?,
        y: o.float_or("y", 0.0)?,
        width: o.float_or("width", 0.0)?,
        height: o.float_or("height", 0.0)?,
        rotation: o.float_or("rotation", 0.0)?,
        shape,
        properties: properties(o)?,
        hidden: !o.flag_or("visible", true)?,
        opacity,
        template: None,
    })
}

/// Gives an instance (read on its own from `element`) its template's values where the element
/// sets none, as Tiled reads an instance: each attribute, the shape's element and each property
/// by name. Its name, class and size, which Tiled takes only when not empty, are left to
/// [`tiled_common::take_unset_from_template`].
fn instance_over_template(instance: &mut ObjectDoc, element: &Element, template: &ObjectDoc) {
    let set = |name: &str| element.has(name);
    if !set("rotation") {
        instance.rotation = template.rotation;
    }
    if !set("visible") {
        instance.hidden = template.hidden;
    }
    if !set("opacity") {
        instance.opacity = template.opacity;
    }
    let own_shape = matches!(tile_gid(element), Ok(Some(_)))
        || ["ellipse", "point", "capsule", "polygon", "polyline", "text"].iter().any(|s| element.child(s).is_some());
    if !own_shape {
        instance.shape = template.shape.clone();
    }
    for (k, v) in &template.properties {
        instance.properties.entry(k.clone()).or_insert_with(|| v.clone());
    }
}

/// A polygon's or polyline's `points` ("x,y x,y …").
fn points(p: &Element) -> Result<Vec<[f64; 2]>, MapError> {
    let text = p.string("points");
    text.split_whitespace()
        .map(|pair| {
            let (x, y) = pair.split_once(',')?;
            // As [`Element::float`]: infinity passes, for the map to name.
            let (x, y) = (x.trim().parse::<f64>().ok()?, y.trim().parse::<f64>().ok()?);
            (!x.is_nan() && !y.is_nan()).then_some([x, y])
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| p.error(format!("points={text:?} is not a list of x,y pairs")))
}

fn text(t: &Element) -> Result<ObjectText, MapError> {
    let defaults = ObjectText::new("");
    Ok(ObjectText {
        text: t.text.clone(),
        font_family: t.attr("fontfamily").map_or(defaults.font_family, str::to_owned),
        pixel_size: t.int_or("pixelsize", defaults.pixel_size, Limit::PIXELS)?,
        wrap: t.flag_or("wrap", false)?,
        color: colour(t, "color")?.unwrap_or(defaults.color),
        bold: t.flag_or("bold", false)?,
        italic: t.flag_or("italic", false)?,
        underline: t.flag_or("underline", false)?,
        strikeout: t.flag_or("strikeout", false)?,
        kerning: t.flag_or("kerning", true)?,
        halign: match t.attr("halign") {
            None => defaults.halign,
            Some(a) => HorizontalAlign::from_tiled_name(a).ok_or_else(|| {
                t.error(format!("halign {a:?} is not \"left\", \"center\", \"right\" or \"justify\""))
            })?,
        },
        valign: match t.attr("valign") {
            None => defaults.valign,
            Some(a) => VerticalAlign::from_tiled_name(a)
                .ok_or_else(|| t.error(format!("valign {a:?} is not \"top\", \"center\" or \"bottom\"")))?,
        },
    })
}

/// A TSX tileset file, its first GID 1 and no `source` (the caller sets both).
pub(crate) fn read_tsx(path: &Path) -> Result<TilesetDoc, MapError> {
    let bytes = super::super::read_file(path)?;
    let root = xml::parse(&bytes)?;
    if root.name != "tileset" {
        return Err(root.error(format!("the file's root element is <{}>: a Tiled tileset's is <tileset>", root.name)));
    }
    read_tileset_body(&root, 1, path.parent().unwrap_or(Path::new("")))
}

/// A TX template file's object, its tile (if it has one) numbered in `doc`: in the map's own
/// tileset of the same file, else in that file added to the document.
pub(crate) fn read_tx(
    path: &Path,
    tilesets: &mut TemplateTilesets,
    doc: &mut Doc,
    files: &dyn SideFiles,
) -> Result<ObjectDoc, MapError> {
    let bytes = super::super::read_file(path)?;
    let root = xml::parse(&bytes)?;
    if root.name != "template" {
        return Err(root.error(format!("the file's root element is <{}>: a Tiled template's is <template>", root.name)));
    }
    let object_element = root.child("object").ok_or_else(|| root.error("the template has no <object>"))?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let tileset = root.child("tileset");
    object(object_element, 0, |gid| {
        let Some(tileset) = tileset else {
            return Err(object_element.error("its tile object names no tileset"));
        };
        let source = tileset.attr("source").ok_or_else(|| tileset.error("the template's tileset names no file"))?;
        let first_gid = tileset.int_or("firstgid", 1u32, Limit::FIRST_GID)?;
        let local = (gid & !Flip::GID_MASK)
            .checked_sub(first_gid)
            .ok_or_else(|| object_element.error(format!("gid {gid} is before its tileset's first, {first_gid}")))?;
        let file = super::super::resolve_path(dir, Path::new(source));
        let index = tilesets.index(doc, &file, |first, _| {
            let ts = files.tileset(&file).map_err(|e| MapError { file: None, ..e }.in_tileset(source))?;
            Ok(TilesetDoc { first_gid: first, source: Some(file.clone()), ..ts })
        })?;
        let tile = doc.tilesets[index].first_gid.checked_add(local).filter(|g| g & Flip::GID_MASK == 0);
        let tile =
            tile.ok_or_else(|| object_element.error(format!("gid {gid} is beyond the tiles a map can number")))?;
        Ok(tile | (gid & Flip::GID_MASK))
    })
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
