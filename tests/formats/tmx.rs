//! Tiled's XML maps (TMX): tileset files, infinite maps, several tilesets and encodings, rules
//! from layer names, and what a load says a save would drop.

use sightline::core::format;
use sightline::core::model::flip::Flip;
use sightline::core::{Cell, ObjectKind};

use crate::{assert_same, dir_with_tiny_tileset, fixture, load, round_trip, save_text};

#[test]
fn tmx_with_external_tileset_reads_properties_objects_and_lock() {
    let loaded = format::load(&fixture("external_tileset.tmx")).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let map = loaded.map;
    assert_eq!((map.width(), map.height()), (4, 3));
    assert!(map.layers[0].locked);
    assert_eq!(map.sheets.len(), 1);
    assert_eq!(map.sheets[0].columns, 2);
    // GID 2 is tile 1 of tiny.tsx: opaque and blocking.
    let wall = map.rules_at(Cell::new(0, 0));
    assert!(wall.opaque && !wall.walkable);
    // GID 1 is tile 0: no properties, so transparent and walkable.
    let floor = map.rules_at(Cell::new(1, 1));
    assert!(!floor.opaque && floor.walkable);
    // GID 3 is a closed door that toggles to GID 4.
    let door = map.rules_at(Cell::new(2, 1));
    assert!(door.opaque && !door.walkable && door.door.is_some());
    let open = map.rules_at(Cell::new(2, 2));
    assert!(!open.opaque && open.walkable && open.cost == 2.5);
    let mut toggled = map.clone();
    toggled.toggle_door(Cell::new(2, 1)).unwrap();
    assert_eq!(toggled.tile(0, Cell::new(2, 1)), map.tile(0, Cell::new(2, 2)));
    // Objects: a point at the centre of cell (1,1); a rectangle whose centre is in cell (2,1).
    assert_eq!(map.objects[0].kind, ObjectKind::PlayerStart);
    assert_eq!(map.objects[0].cell, Cell::new(1, 1));
    assert_eq!(map.objects[1].kind, ObjectKind::Monster { glyph: 'g', vision_radius: 5 });
    assert_eq!(map.objects[1].cell, Cell::new(2, 1));
}

#[test]
fn infinite_tmx_loads_as_its_bounding_rectangle() {
    let map = load(&fixture("infinite.tmx"));
    // Tiles at x = -1 (y 2) and x = 0..=1 (y 0): the rectangle is 3 wide, 3 high.
    assert_eq!((map.width(), map.height()), (3, 3));
    assert_eq!(map.tile(0, Cell::new(0, 2)), Some(2));
    assert_eq!(map.tile(0, Cell::new(1, 0)), Some(1));
    assert_eq!(map.tile(0, Cell::new(2, 0)), Some(1));
    assert_eq!(map.tile(0, Cell::new(1, 1)), Some(0));
    // The load says where its tiles are; a Tiled save writes it infinite again, in Tiled's
    // chunks, each tile where it was, and RON keeps where that is.
    let loaded = format::load(&fixture("infinite.tmx")).unwrap();
    assert!(loaded.not_kept.is_empty(), "{:?}", loaded.not_kept);
    assert!(
        loaded.warnings.iter().any(|w| w
            == "the map is infinite: its tiles and objects cover 3×3 cells from Tiled's cell -1, 0, which is cell 0, 0 \
                here; a Tiled save writes it infinite again, each tile and object where it was"),
        "{:?}",
        loaded.warnings
    );
    assert_eq!(map.tiled.infinite_origin, Some([-1, 0]));
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&round_trip(&map, ext), &map, ext);
    }
    let (_, tmx) = save_text(&map, "out.tmx");
    assert!(tmx.contains(r#" infinite="1" "#), "{tmx}");
    // Tiled's two chunks, the door at Tiled's -1, 2 (chunk -16, 0: column 15, row 2).
    let chunks: Vec<&str> = tmx.lines().filter(|l| l.contains("<chunk ")).map(str::trim).collect();
    assert_eq!(
        chunks,
        [r#"<chunk x="-16" y="0" width="16" height="16">"#, r#"<chunk x="0" y="0" width="16" height="16">"#]
    );
    let after_first = &tmx[tmx.find("<chunk ").unwrap()..];
    assert_eq!(after_first.lines().nth(3), Some("0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,"));
    // A layer with no tile has no chunk: read with white space in its data (it was refused, as
    // a layer short of its tiles), written as Tiled writes it, an empty `<data/>`.
    let text = std::fs::read_to_string(fixture("infinite.tmx")).unwrap().replace(
        "</map>",
        " <layer id=\"2\" name=\"empty\" width=\"30\" height=\"20\">\n  <data encoding=\"csv\">\n  </data>\n </layer>\n</map>",
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.tsx"), dir.path().join("tiny.tsx")).unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let path = dir.path().join("two.tmx");
    std::fs::write(&path, text).unwrap();
    let two = load(&path);
    assert_eq!(two.layers.len(), 2);
    assert!(
        save_text(&two, "out.tmx").1.contains(
            "<layer id=\"2\" name=\"empty\" width=\"3\" height=\"3\">\n  <data encoding=\"csv\"/>\n </layer>"
        )
    );
    for ext in ["tmx", "tmj"] {
        assert_same(&round_trip(&two, ext), &two, &format!("two layers as {ext}"));
    }
    // A chunk size no save can use (0, or so large a chunk would hold billions of cells) is
    // kept as the file gave it, and the chunks written are of 1 to 256 cells a side.
    let mut odd = map.clone();
    odd.tiled_editor.chunk_size = Some([0, 100_000]);
    let tmx = save_text(&odd, "odd.tmx").1;
    assert!(tmx.contains(r#"<chunksize width="0" height="100000"/>"#), "{tmx}");
    assert!(tmx.contains(r#"<chunk x="-1" y="0" width="1" height="256">"#), "{tmx}");
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&round_trip(&odd, ext), &odd, &format!("odd chunks as {ext}"));
    }
}

#[test]
fn maps_without_rule_properties_fall_back_to_layer_names() {
    let text = include_str!("../fixtures/no_rule_properties.tmx");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let path = dir.path().join("plain.tmx");
    std::fs::write(&path, text).unwrap();
    let loaded = format::load(&path).unwrap();
    // One warning for both layers taken as collision layers.
    assert_eq!(
        loaded.warnings,
        ["no tile has opaque/walkable properties: layers \"Walls\", \"Solid rocks\" are taken as collision layers \
          (their tiles block sight and movement)"]
    );
    let map = loaded.map;
    assert!(map.layers[1].collision && map.layers[2].collision && !map.layers[0].collision);
    assert!(!map.rules_at(Cell::new(0, 0)).opaque);
    assert!(map.rules_at(Cell::new(1, 0)).opaque);
    assert!(!map.rules_at(Cell::new(1, 0)).walkable);
}

#[test]
fn a_missing_tileset_image_is_a_warning_and_the_map_still_loads() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["external_tileset.tmx", "tiny.tsx"] {
        std::fs::copy(fixture(f), dir.path().join(f)).unwrap();
    }
    let loaded = format::load(&dir.path().join("external_tileset.tmx")).unwrap();
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert!(loaded.warnings[0].contains("tiny.png") && loaded.warnings[0].contains("missing"));
    // Placeholder glyphs derive from the rules: the wall tile shows '#'.
    let wall = loaded.map.tile(0, Cell::new(0, 0)).unwrap();
    assert_eq!(loaded.map.tiles[usize::from(wall)].glyph.ch, '#');
}

/// A TMX written by hand: two tilesets (one embedded, one external), layer data as base64 with
/// gzip in one layer and zstd in another, GIDs with flip bits, and a group layer.
#[test]
fn tmx_with_several_tilesets_compressions_flips_and_groups() {
    use base64::Engine;
    use std::io::Write;
    let encode = |gids: &[u32], compression: &str| -> String {
        let raw: Vec<u8> = gids.iter().flat_map(|g| g.to_le_bytes()).collect();
        let packed = match compression {
            "gzip" => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                e.write_all(&raw).unwrap();
                e.finish().unwrap()
            }
            "zstd" => zstd::encode_all(&raw[..], 3).unwrap(),
            _ => unreachable!(),
        };
        base64::engine::general_purpose::STANDARD.encode(packed)
    };
    // GIDs 1..=4: tiny.tsx; 5..=6: the embedded "second" tileset (tile 1 opaque).
    let ground = encode(&[1, 2, 1, 6 | 0x4000_0000], "gzip");
    let upper = encode(&[0, 0, 3 | 0x8000_0000, 0], "zstd");
    let text = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="2" height="2" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" source="tiny.tsx"/>
 <tileset firstgid="5" name="second" tilewidth="8" tileheight="8" tilecount="2" columns="2">
  <image source="tiny.png" width="16" height="8"/>
  <tile id="1"><properties><property name="opaque" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="2" height="2"><data encoding="base64" compression="gzip">{ground}</data></layer>
 <group id="2" name="details">
  <layer id="3" name="upper" width="2" height="2"><data encoding="base64" compression="zstd">{upper}</data></layer>
 </group>
</map>"#
    );
    let dir = dir_with_tiny_tileset();
    let path = dir.path().join("several.tmx");
    std::fs::write(&path, text).unwrap();
    let loaded = format::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let map = loaded.map;
    assert_eq!(map.sheets.len(), 2);
    assert_eq!(map.tiles.len(), 1 + 4 + 2);
    assert_eq!(map.layers.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), ["ground", "upper"]);
    assert_eq!((map.groups[0].name.as_str(), map.groups[0].start, map.groups[0].end), ("details", 1, 2));
    assert_eq!(map.layers[0].cells, vec![1, 2, 1, 6], "the flipped GID 6 is the same tile");
    assert_eq!(map.layers[1].cells, vec![0, 0, 3, 0]);
    assert_eq!((map.layers[0].flip(3), map.layers[1].flip(2)), (Flip::VERTICAL, Flip::HORIZONTAL));
    assert_eq!(map.layers[0].flips.count() + map.layers[1].flips.count(), 2);
    assert!(map.rules_at(Cell::new(1, 1)).opaque, "tile 1 of the second tileset is opaque");
    assert!(
        map.rules_at(Cell::new(0, 1)).opaque && map.rules_at(Cell::new(0, 1)).door.is_some(),
        "the closed door on the upper layer"
    );
    assert!(!map.rules_at(Cell::new(0, 0)).opaque);
    assert_same(&round_trip(&map, "tmx"), &map, "several tilesets through .tmx");
    // The map's layer format is its last layer's, as Tiled takes it; written as CSV, the flips
    // are written back as Tiled writes them: in the GIDs' top bits.
    use sightline::core::model::tiled_settings::LayerFormat;
    assert_eq!(map.tiled.layer_format, LayerFormat::Base64Zstd);
    let mut map = map;
    map.tiled.layer_format = LayerFormat::Csv;
    let (_, tmj) = save_text(&map, "several.tmj");
    let json: serde_json::Value = serde_json::from_str(&tmj).unwrap();
    assert_eq!(json["layers"][0]["data"], serde_json::json!([1, 2, 1, 6 | 0x4000_0000_u32]));
    assert_eq!(json["layers"][1]["layers"][0]["data"], serde_json::json!([0, 0, 3 | 0x8000_0000_u32, 0]));
    assert_same(&round_trip(&map, "tmj"), &map, "flips through .tmj");
    // And in sightline's RON, as rows of hex digits beside the tiles.
    let (_, ron) = save_text(&map, "several.ron");
    assert!(ron.contains(r#"flips: [".4", ".."]"#) || ron.contains(r#"flips: ["..", ".4"]"#), "{ron}");
    assert!(ron.contains(r#"flips: ["..", "8."]"#), "{ron}");
    assert_same(&round_trip(&map, "ron"), &map, "flips through .ron");
    // ASCII cannot hold them, and says so.
    let (warnings, _) = save_text(&map, "several.txt");
    assert!(
        warnings.contains(&"2 tiles flipped or turned (Tiled's flip flags) are written unflipped in ASCII".to_string()),
        "{warnings:?}"
    );
}

#[test]
fn loading_says_once_which_tiled_features_a_save_would_drop() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let tmx = include_str!("../fixtures/unkept_features.tmx");
    let path = dir.path().join("features.tmx");
    std::fs::write(&path, tmx).unwrap();
    let warnings = format::load(&path).unwrap().warnings;
    let dropped: Vec<&String> = warnings.iter().filter(|w| w.contains("does not keep")).collect();
    assert_eq!(dropped.len(), 1, "one warning: {warnings:?}");
    assert!(dropped[0].contains("the enum types of tile properties sightline reads"), "{}", dropped[0]);
    // Groups are kept, with their offsets and parallax factors; text objects are kept.
    for kept in ["tint", "animation", "Wang", "object layers", "groups", "offsets", "parallax", "text", "list"] {
        assert!(!dropped[0].contains(kept), "{kept} in {}", dropped[0]);
    }
    // Both object layers are kept, the empty one too.
    let names: Vec<String> = load(&path).object_layers.into_iter().map(|l| l.name).collect();
    assert_eq!(names, ["a", "b"]);
    // A tile layer's own tint and offset are kept, and its group's.
    let map = load(&path);
    assert_eq!((map.layers[0].tint, map.layers[0].offset), (Some(sightline::core::Rgba(255, 0, 0, 255)), [0.0, 2.0]));
    assert_eq!((map.groups[0].offset, map.groups[0].parallax), ([4.0, 0.0], [0.5, 1.0]));
    // The same map as Tiled JSON says the same; a plain map says nothing.
    let json = dir.path().join("plain.tmj");
    format::save(&map, &json).unwrap();
    assert!(!format::load(&json).unwrap().warnings.iter().any(|w| w.contains("does not keep")));
    let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    // An object layer's tint, offset and parallax are kept too, through TMJ, TMX and RON.
    assert_eq!(value["layers"][1]["type"], "objectgroup");
    value["layers"][1]["tintcolor"] = serde_json::json!("#ff0000");
    value["layers"][1]["offsetx"] = serde_json::json!(4);
    value["layers"][1]["offsety"] = serde_json::json!(-2.5);
    value["layers"][1]["parallaxy"] = serde_json::json!(0.25);
    std::fs::write(&json, value.to_string()).unwrap();
    let loaded = format::load(&json).unwrap();
    assert!(!loaded.warnings.iter().any(|w| w.contains("does not keep")), "{:?}", loaded.warnings);
    let look = |map: &sightline::core::Map| {
        let l = &map.object_layers[0];
        (l.name.clone(), l.tint, l.offset, l.parallax)
    };
    let expected = ("a".to_owned(), Some(sightline::core::Rgba(255, 0, 0, 255)), [4.0, -2.5], [1.0, 0.25]);
    assert_eq!(look(&loaded.map), expected);
    for ext in ["tmx", "tmj", "ron"] {
        let path = dir.path().join(format!("again.{ext}"));
        format::save(&loaded.map, &path).unwrap();
        assert_eq!(look(&load(&path)), expected, "through {ext}");
    }
    let tmx = std::fs::read_to_string(dir.path().join("again.tmx")).unwrap();
    assert!(
        tmx.contains(r##"<objectgroup id="2" name="a" tintcolor="#ff0000" offsetx="4" offsety="-2.5" parallaxx="1" parallaxy="0.25">"##),
        "{tmx}"
    );
}

#[test]
fn a_tmx_map_without_a_version_opens_as_tiled_opens_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.tmx");
    std::fs::write(&path, include_str!("../fixtures/no_version.tmx")).unwrap();
    let map = load(&path);
    assert_eq!((map.width(), map.height()), (3, 1));
    assert!(!map.rules_at(Cell::new(0, 0)).opaque && map.rules_at(Cell::new(1, 0)).opaque);
}
