//! The map as a whole: resize, the map properties window, and grids other than the square one.

use egui_kittest::kittest::{NodeT, Queryable};
use sightline::app::{Command, FileCommand, HistoryCommand, MapCommand};

use crate::common::click_menu_item;
use crate::{fixture_copy, harness};

#[test]
fn resize_keeps_the_map_at_its_anchor_and_undoes() {
    use sightline::app::map_dialogs::ResizeSpec;
    use sightline::core::{Anchor, Cell};
    let mut h = harness();
    click_menu_item(&mut h, "Edit", "Resize map…");
    assert!(h.state().dialogs.resize.is_some());
    h.state_mut().dialogs.resize =
        Some(ResizeSpec { width: 70, height: 40, anchor: Anchor::BottomRight, fill_with_brush: false });
    h.run();
    h.get_by_label("Resize").click();
    h.run();
    h.get_by_label("70 × 40");
    let before = sightline::core::format::samples::default_map().unwrap();
    let after = &h.state().document.map;
    // The old top-left corner moved by (7, 9); new cells are void.
    assert_eq!(after.top_tile(Cell::new(7, 9)), before.top_tile(Cell::new(0, 0)));
    assert_eq!(after.top_tile(Cell::new(0, 0)), None);
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    h.get_by_label("63 × 31");
}

#[test]
fn the_map_properties_window_sets_the_maps_class_and_background_colour_in_one_undo_step_each() {
    use sightline::core::Rgba;
    let mut h = harness();
    click_menu_item(&mut h, "Edit", "Map properties…");
    h.get_by_label("map class").click();
    h.run();
    h.get_by_label("map class").type_text("level");
    h.run();
    assert_eq!(h.state().document.map.class, "level");
    assert_eq!(h.state().document.edits(), 1, "typed in one undo step");
    // Another edit between: the background is an undo step of its own.
    h.state_mut().commands.push(Command::Map(MapCommand::SetProperties(
        sightline::app::PropertiesOwner::Map,
        sightline::core::Properties::from([("a".to_owned(), sightline::core::PropertyValue::Int(1))]),
    )));
    h.run();
    assert!(h.query_by_label("map background colour").is_none(), "no colour until the box is ticked");
    h.get_by_label("map background").click();
    h.run();
    assert_eq!(h.state().document.map.background, Some(Rgba(0x20, 0x20, 0x20, 255)));
    h.get_by_label("map background colour");
    assert_eq!(h.state().document.edits(), 3);
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!((h.state().document.map.class.as_str(), h.state().document.map.background), ("level", None));
    h.get_by_label("map background").click();
    h.run();
    h.get_by_label("map background").click();
    h.run();
    assert_eq!(h.state().document.map.background, None, "unticked: no colour");
}

#[test]
fn the_map_properties_window_sets_how_a_tiled_save_writes_the_layers_each_change_one_undo_step() {
    use sightline::core::model::tiled_settings::{LayerFormat, RenderOrder};
    let (_dir, path) = fixture_copy("tile_drawing.tmx");
    // A level above zlib's 9, as a file once written with Zstandard may carry.
    let text =
        std::fs::read_to_string(&path).unwrap().replace("infinite=\"0\"", "infinite=\"0\" compressionlevel=\"15\"");
    std::fs::write(&path, text).unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    click_menu_item(&mut h, "Edit", "Map properties…");
    // The file's layer is CSV: so is the choice, and a level has nothing to compress. Showing
    // the level changes nothing.
    assert_eq!(h.state().document.map.tiled.layer_format, LayerFormat::Csv);
    assert!(h.get_by_label("compression level").accesskit_node().is_disabled());
    assert_eq!(h.state().document.map.tiled.compression_level, 15);
    assert!(!h.state().document.dirty && h.state().document.undo.is_empty());
    // Zlib compresses up to 9: the level comes down with the choice, in its one undo step.
    h.get_by_label("tile layer format").click();
    h.run();
    h.get_by_label("Base64 (zlib compressed)").click();
    h.run();
    assert_eq!(h.state().document.map.tiled.layer_format, LayerFormat::Base64Zlib);
    assert_eq!(h.state().document.map.tiled.compression_level, 9);
    assert_eq!(h.state().document.edits(), 1);
    assert!(!h.get_by_label("compression level").accesskit_node().is_disabled());
    h.get_by_label("tile render order").click();
    h.run();
    h.get_by_label("left-up").click();
    h.run();
    assert_eq!(h.state().document.map.tiled.render_order, RenderOrder::LeftUp);
    assert_eq!(h.state().document.edits(), 2);
    // A drag on the parallax origin, a change a frame, is one undo step.
    for x in [1.0, 2.0, 3.0] {
        let mut settings = h.state().document.map.tiled;
        settings.parallax_origin[0] = x;
        h.state_mut().commands.push(Command::Map(MapCommand::SetTiledSettings(settings)));
        h.run();
    }
    assert_eq!(h.state().document.edits(), 3);
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(h.state().document.map.tiled.parallax_origin, [0.0, 0.0]);
    // Saved, the file is written so; an undo takes the order back.
    h.state_mut().commands.push(Command::File(FileCommand::Save));
    h.run();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(r#"renderorder="left-up""#) && text.contains(r#"compression="zlib""#), "{text}");
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(h.state().document.map.tiled.render_order, RenderOrder::RightDown);
    assert_eq!(h.state().document.map.tiled.layer_format, LayerFormat::Base64Zlib);
}

/// A hexagonal Tiled map opens with a notice of what its grid means here, its map properties
/// show the grid it keeps, and a save over it writes that grid back, asking nothing: nothing
/// is lost.
#[test]
fn a_hexagonal_map_says_what_its_grid_means_here_and_saves_it_back() {
    let (_dir, path) = fixture_copy("hexagonal.tmj");
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    let notice = h.state().prompts.notice.clone().unwrap_or_default();
    assert!(notice.contains("the map is hexagonal: sightline draws and plays it as a square grid"), "{notice}");
    h.state_mut().windows.map_properties = true;
    h.run();
    h.get_by_label("Hexagonal (Staggered), sides of 7 px, even rows shifted (drawn here as orthogonal)");
    // The save writes the file anew (removed first, so the file read back is the save's).
    std::fs::remove_file(&path).unwrap();
    h.state_mut().commands.push(Command::File(FileCommand::Save));
    h.run();
    assert!(h.query_by_label("Save hexagonal.tmj?").is_none());
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        [&json["orientation"], &json["hexsidelength"], &json["staggeraxis"], &json["staggerindex"]],
        [&serde_json::json!("hexagonal"), &serde_json::json!(7), &serde_json::json!("y"), &serde_json::json!("even")]
    );
}

/// A map read without a tile layer (a Tiled file of object layers only) keeps the default tile
/// layer format: a Tiled file records the format in its tile layers' data, so a format chosen
/// would not come back. The choice is disabled, and a command to change it leaves it.
#[test]
fn a_map_without_tile_layers_keeps_its_layer_format() {
    use sightline::core::model::tiled_settings::{LayerFormat, TiledSettings};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("objects-only.tmj");
    std::fs::write(
        &path,
        r#"{"width": 4, "height": 3, "tilewidth": 8, "tileheight": 8, "tilesets": [], "layers": [
            {"id": 1, "type": "objectgroup", "name": "things", "objects": [
              {"id": 1, "name": "hero", "type": "player", "point": true, "x": 4, "y": 4}]}]}"#,
    )
    .unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path)));
    h.run();
    assert!(h.state().document.map.layers.is_empty());
    let settings = h.state().document.map.tiled;
    assert_eq!(settings.layer_format, LayerFormat::Csv);
    h.state_mut().commands.push(Command::Map(MapCommand::SetTiledSettings(TiledSettings {
        layer_format: LayerFormat::Base64Zlib,
        ..settings
    })));
    h.run();
    assert_eq!(h.state().document.map.tiled.layer_format, LayerFormat::Csv);
    assert!(!h.state().document.dirty, "nothing changed");
    h.state_mut().windows.map_properties = true;
    h.run();
    assert!(h.get_by_label("tile layer format").accesskit_node().is_disabled());
}
