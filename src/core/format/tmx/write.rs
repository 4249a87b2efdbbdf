//! Writing TMX maps and TSX tilesets as Tiled writes them: only what is not Tiled's default,
//! in Tiled's order, so that a map saved here and opened in Tiled (or diffed) reads as Tiled's own.

use std::path::Path;

use super::super::tiled_common::{self, Doc, DocShape, ObjectDoc, TextAttribute, TileLayerDoc, TilesetDoc, Written};
use crate::core::model::error::MapError;
use crate::core::model::map::{self, LayerGroup, LayerRef, OutlineItem};
use crate::core::model::object::ObjectText;
use crate::core::model::sheet_drawing::{ObjectAlignment, SheetDrawing};
use crate::core::model::tile::{EnumValue, Properties, PropertyValue, Rgba};
use crate::core::model::tiled_settings::{LayerFormat, TiledEditorSettings, TiledSettings};
use crate::core::model::wang::WangSet;

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

/// ` name="value"`, escaped, or nothing for an empty value (as Tiled leaves out an unset class).
fn text_attribute(name: &str, value: &str) -> String {
    if value.is_empty() { String::new() } else { format!(" {name}=\"{}\"", escape(value)) }
}

fn escape(s: &str) -> String {
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
fn write_object(out: &mut String, o: &ObjectDoc) {
    let (template, own) = match (&o.template, o.overrides().and_then(Result::ok)) {
        (Some(t), Some(own)) => {
            (format!(" template=\"{}\"", escape(&super::super::file_reference(&t.path))), Some(own))
        }
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
        if g.opacity == 1.0 {
            String::new()
        } else {
            format!(" opacity=\"{}\"", super::super::shortest_f64(g.opacity))
        },
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
        let (w, h) = tiled_common::image_size(ts);
        out.push_str(&format!(
            "  <image source=\"{}\"{} width=\"{w}\" height=\"{h}\"/>\n",
            escape(&super::super::file_reference(image)),
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

pub(crate) fn to_string(map: &crate::core::Map, path: &Path) -> Result<Written, MapError> {
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
                escape(&super::super::file_reference(source))
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
        extra_files: tiled_common::extra_files(placement.glyph_image)?,
        warnings: doc.warnings,
        notes: placement.notes,
    })
}
