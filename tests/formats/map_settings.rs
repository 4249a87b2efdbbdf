//! A Tiled map's own settings: class and background colour, layer format, render order and
//! compression level, grid orientation, export target and chunk size.

use sightline::core::format;
use sightline::core::model::flip::Flip;
use sightline::core::model::tile::STANDARD_CLOSED_DOOR;

use crate::{ascii, assert_same, fixture, load, round_trip, save_text};

#[test]
fn a_maps_class_and_background_colour_are_kept_and_an_ascii_save_says_it_drops_them() {
    use sightline::core::Rgba;
    let dir = tempfile::tempdir().unwrap();
    let tmx = dir.path().join("level.tmx");
    std::fs::write(
        &tmx,
        r##"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" class="level" orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8" infinite="0" backgroundcolor="#80203040">
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">0,0</data></layer>
</map>"##,
    )
    .unwrap();
    let map = load(&tmx);
    assert_eq!((map.class.as_str(), map.background), ("level", Some(Rgba(0x20, 0x30, 0x40, 0x80))));
    for ext in ["tmx", "tmj", "ron"] {
        let again = round_trip(&map, ext);
        assert_eq!((again.class.as_str(), again.background), ("level", map.background), "{ext}");
        assert_same(&map, &again, ext);
    }
    let (_, text) = save_text(&map, "out.tmx");
    let map_line = text.lines().find(|l| l.starts_with("<map ")).unwrap();
    assert!(
        map_line.contains(r#" class="level" "#) && map_line.contains(r##" backgroundcolor="#80203040" "##),
        "{map_line}"
    );
    let (_, text) = save_text(&map, "out.tmj");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (&json["class"], &json["backgroundcolor"]),
        (&serde_json::json!("level"), &serde_json::json!("#80203040"))
    );
    let (warnings, _) = save_text(&map, "out.txt");
    assert!(
        warnings.contains(&"the map's class and background colour are not kept in ASCII".to_owned()),
        "{warnings:?}"
    );
    // An opaque colour is written as Tiled writes it, without the alpha.
    let mut opaque = map.clone();
    opaque.background = Some(Rgba(0x20, 0x30, 0x40, 255));
    assert!(save_text(&opaque, "out.tmx").1.contains(r##" backgroundcolor="#203040" "##));
}

#[test]
fn a_tiled_maps_layer_format_render_order_compression_level_and_parallax_origin_are_written_as_they_came() {
    use sightline::core::model::tiled_settings::{LayerFormat, RenderOrder, TiledSettings};
    let mut map = ascii(
        "#+'.\n\
         .~\"#\n",
    );
    map.layers[0].set(1, STANDARD_CLOSED_DOOR, Flip::HORIZONTAL);
    for layer_format in LayerFormat::ALL {
        let compression_level = if layer_format.compressed() { 5 } else { -1 };
        let parallax_origin = [12.5, -3.0];
        map.tiled = TiledSettings {
            layer_format,
            render_order: RenderOrder::LeftUp,
            compression_level,
            parallax_origin,
            ..TiledSettings::default()
        };
        let (encoding, compression) = layer_format.attributes();
        // As Tiled writes them: the order and level on the map, the format on each layer.
        let (_, tmx) = save_text(&map, "m.tmx");
        let data = match compression {
            Some(c) => format!(r#"<data encoding="{encoding}" compression="{c}">"#),
            None => format!(r#"<data encoding="{encoding}">"#),
        };
        assert!(tmx.contains(&data), "{layer_format:?}: {tmx}");
        assert!(tmx.contains(r#" renderorder="left-up" "#), "{tmx}");
        assert_eq!(tmx.contains(r#" compressionlevel="5" "#), layer_format.compressed(), "{tmx}");
        assert!(tmx.contains(r#" parallaxoriginx="12.5" parallaxoriginy="-3" "#), "{tmx}");
        let (_, tmj) = save_text(&map, "m.tmj");
        let json: serde_json::Value = serde_json::from_str(&tmj).unwrap();
        let layer = &json["layers"][0];
        assert_eq!(layer["data"].is_string(), layer_format != LayerFormat::Csv, "{layer_format:?}");
        assert_eq!(layer["encoding"].as_str(), (layer_format != LayerFormat::Csv).then_some(encoding));
        assert_eq!(layer["compression"].as_str(), compression);
        assert_eq!(
            (json["renderorder"].as_str(), json["compressionlevel"].as_i64()),
            (Some("left-up"), Some(compression_level.into()))
        );
        assert_eq!((json["parallaxoriginx"].as_f64(), json["parallaxoriginy"].as_f64()), (Some(12.5), Some(-3.0)));
        // Each reads back the same, settings and flipped door included, and so does RON.
        for ext in ["tmx", "tmj", "ron"] {
            assert_same(&round_trip(&map, ext), &map, &format!("{layer_format:?} as {ext}"));
        }
    }
}

/// An isometric, staggered, hexagonal or oblique Tiled map is drawn and played here as a square grid, and
/// keeps its grid: a save as TMX or TMJ writes it as Tiled does (where Tiled puts each attribute),
/// RON keeps it, and an ASCII save says it does not. The load says what the grid means here.
#[test]
fn a_tiled_maps_isometric_staggered_hexagonal_or_oblique_grid_is_kept_by_every_tiled_and_ron_save() {
    use sightline::core::model::tiled_settings::{Orientation, StaggerAxis, StaggerIndex};
    let cases = [
        (r#"orientation="isometric""#, Orientation::Isometric, ""),
        // Tiled's defaults where the file leaves the stagger out.
        (
            r#"orientation="staggered""#,
            Orientation::Staggered { axis: StaggerAxis::Y, index: StaggerIndex::Odd },
            r#" staggeraxis="y" staggerindex="odd""#,
        ),
        (
            r#"orientation="staggered" staggeraxis="x" staggerindex="even""#,
            Orientation::Staggered { axis: StaggerAxis::X, index: StaggerIndex::Even },
            r#" staggeraxis="x" staggerindex="even""#,
        ),
        (
            r#"orientation="hexagonal" hexsidelength="12" staggeraxis="x" staggerindex="odd""#,
            Orientation::Hexagonal { side_length: 12, axis: StaggerAxis::X, index: StaggerIndex::Odd },
            r#" hexsidelength="12" staggeraxis="x" staggerindex="odd""#,
        ),
        (
            r#"orientation="oblique" skewx="8" skewy="-4""#,
            Orientation::Oblique { skew_x: 8, skew_y: -4 },
            r#" skewx="8" skewy="-4""#,
        ),
    ];
    for (attributes, orientation, written) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grid.tmx");
        let text = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" {attributes} renderorder="right-down" width="3" height="2" tilewidth="32" tileheight="16" infinite="0">
 <layer id="1" name="ground" width="3" height="2"><data encoding="csv">0,0,0,0,0,0</data></layer>
</map>"#
        );
        std::fs::write(&path, text).unwrap();
        let loaded = format::load(&path).unwrap();
        assert_eq!(loaded.map.tiled.orientation, orientation, "{attributes}");
        let name = orientation.name();
        let said = loaded.warnings.iter().find(|w| w.starts_with(&format!("the map is {name}:")));
        let said = said.unwrap_or_else(|| panic!("{attributes}: {:?}", loaded.warnings));
        assert!(said.ends_with(&format!("a save keeps it {name}")), "{said}");
        // An isometric or oblique map's cells have the square grid's neighbours, no other's do.
        let square = matches!(orientation, Orientation::Isometric | Orientation::Oblique { .. });
        assert_eq!(said.contains("views and paths here are not that grid's"), !square, "{said}");
        assert!(loaded.not_kept.is_empty(), "{:?}", loaded.not_kept);

        let (warnings, tmx) = save_text(&loaded.map, "out.tmx");
        assert!(warnings.is_empty(), "{warnings:?}");
        let map_line = tmx.lines().find(|l| l.starts_with("<map ")).unwrap();
        assert!(map_line.contains(&format!(r#" orientation="{name}" "#)), "{map_line}");
        assert!(map_line.contains(&format!(r#" infinite="0"{written} "#)), "{map_line}");
        let (_, tmj) = save_text(&loaded.map, "out.tmj");
        let json: serde_json::Value = serde_json::from_str(&tmj).unwrap();
        assert_eq!(json["orientation"], serde_json::json!(name));
        let keys = ["hexsidelength", "staggeraxis", "staggerindex", "skewx", "skewy"];
        let written_keys: Vec<&str> = keys.into_iter().filter(|k| json.get(*k).is_some()).collect();
        let expected_keys: Vec<&str> = keys.into_iter().filter(|k| written.contains(&format!(" {k}="))).collect();
        assert_eq!(written_keys, expected_keys, "{tmj}");
        if let Orientation::Hexagonal { side_length, .. } = orientation {
            assert_eq!(json["hexsidelength"], serde_json::json!(side_length));
        }
        for ext in ["tmx", "tmj", "ron"] {
            let again = round_trip(&loaded.map, ext);
            assert_eq!(again.tiled.orientation, orientation, "{attributes} as {ext}");
            assert_same(&again, &loaded.map, &format!("{attributes} as {ext}"));
        }
        let (warnings, _) = save_text(&loaded.map, "out.txt");
        let dropped = format!("the map's {name} orientation is not kept in ASCII: the file reads back as orthogonal");
        assert!(warnings.contains(&dropped), "{warnings:?}");
    }
    // An orthogonal map says nothing of its grid, and writes none.
    let (warnings, tmx) = save_text(&ascii("#."), "plain.tmx");
    assert!(warnings.is_empty() && !tmx.contains("stagger") && tmx.contains(r#" orientation="orthogonal" "#));
    // A Tiled JSON map reads its grid the same way, numbers and all.
    let hex = Orientation::Hexagonal { side_length: 7, axis: StaggerAxis::Y, index: StaggerIndex::Even };
    assert_eq!(load(&fixture("hexagonal.tmj")).tiled.orientation, hex);
}

/// What a Tiled map keeps for Tiled itself (`<editorsettings>`: where File › Export As last
/// wrote it, and the chunk size of an infinite map) survives every Tiled and RON save, written
/// where Tiled writes it; an ASCII save names the export target it drops.
#[test]
fn a_tiled_maps_export_target_and_chunk_size_are_kept() {
    use sightline::core::model::tiled_settings::TiledEditorSettings;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("level.tmx");
    std::fs::write(&path, include_str!("../fixtures/editor_settings.tmx")).unwrap();
    let map = load(&path);
    let expected = TiledEditorSettings {
        export_target: "../game/level & 1.json".into(),
        export_format: "json".into(),
        chunk_size: Some([32, 8]),
    };
    assert_eq!(map.tiled_editor, expected);
    for ext in ["tmx", "tmj", "ron"] {
        let again = round_trip(&map, ext);
        assert_eq!(again.tiled_editor, expected, "{ext}");
        assert_same(&again, &map, ext);
    }
    let (_, tmx) = save_text(&map, "out.tmx");
    let settings = " <editorsettings>\n  <chunksize width=\"32\" height=\"8\"/>\n  \
                    <export target=\"../game/level &amp; 1.json\" format=\"json\"/>\n </editorsettings>\n";
    // Right after the map's own line, before its properties, as Tiled writes them.
    let map_line = tmx.find("<map ").unwrap();
    let after = &tmx[map_line + tmx[map_line..].find('\n').unwrap() + 1..];
    assert!(after.starts_with(settings), "{tmx}");
    let (_, tmj) = save_text(&map, "out.tmj");
    let json: serde_json::Value = serde_json::from_str(&tmj).unwrap();
    assert_eq!(
        json["editorsettings"],
        serde_json::json!({"chunksize": {"width": 32, "height": 8}, "export": {"target": "../game/level & 1.json", "format": "json"}})
    );
    let (warnings, _) = save_text(&map, "out.txt");
    assert!(
        warnings.contains(&"the map's Tiled export target (../game/level & 1.json) is not kept in ASCII".to_owned()),
        "{warnings:?}"
    );
    // A map without them writes none.
    assert!(!save_text(&ascii("#."), "plain.tmx").1.contains("editorsettings"));
}
