//! Tiles and tilesets: the tile types window, a tileset's image as the palette, tileset images,
//! and tilesets read from and saved to their own files.

use std::path::Path;

use egui_kittest::kittest::{NodeT, Queryable};
use sightline::app::{Command, FileCommand, HistoryCommand, TileCommand};

use crate::common::{self, click_cell, click_menu_item, sample};
use crate::{external_tileset_copy, harness};

#[test]
fn the_tile_types_window_edits_rules_undoably() {
    use sightline::core::model::tile::STANDARD_FLOOR;
    let mut h = harness();
    click_menu_item(&mut h, "Edit", "Tile types…");
    assert!(h.state().windows.tile_types);
    // A name is shown whole (the field was the grid's minimum column, 40 points: "floo").
    let name_width = h.get_by_label("name of tall grass").rect().width();
    assert!(name_width >= 120.0, "the name field is {name_width} points wide");
    assert!(!h.state().document.map.tiles[usize::from(STANDARD_FLOOR)].opaque);
    h.get_by_label("opaque floor").click();
    h.run();
    assert!(h.state().document.map.tiles[usize::from(STANDARD_FLOOR)].opaque, "floor blocks sight now");
    assert!(h.state().document.dirty);
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert!(!h.state().document.map.tiles[usize::from(STANDARD_FLOOR)].opaque);
    let before = h.state().document.map.tiles.len();
    h.get_by_label("Add a tile type").click();
    h.run();
    assert_eq!(h.state().document.map.tiles.len(), before + 1);
    assert_eq!(usize::from(h.state().editor.tile), before, "the new tile is the brush's");
}

#[test]
fn a_tilesets_image_is_the_palette_a_click_picks_a_tile_and_a_drag_picks_a_stamp() {
    use sightline::core::Cell;
    let dir = tempfile::tempdir().unwrap();
    for f in ["tiny.tsx", "tiny.png"] {
        std::fs::copy(Path::new("tests/fixtures").join(f), dir.path().join(f)).unwrap();
    }
    // tiny.tsx: four 8-pixel tiles, two a row; the map's ground layer unlocked.
    let tmx = std::fs::read_to_string("tests/fixtures/external_tileset.tmx").unwrap().replace(" locked=\"1\"", "");
    let path = dir.path().join("tiny.tmx");
    std::fs::write(&path, tmx).unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path)));
    h.run();
    h.run();
    let map = &h.state().document.map;
    let tile_of = |index: u32| {
        map.tiles.iter().position(|t| t.sprite.is_some_and(|s| s.index == index)).unwrap() as sightline::core::TileId
    };
    let tiles = [0, 1, 2, 3].map(tile_of);
    // The tileset is shown at twice its size, a point between tiles: tile i at column i % 2,
    // row i / 2, 17 points apart.
    let grid = h.get_by_label("tileset tiny").rect();
    let centre = |i: u32| grid.min + egui::vec2((i % 2) as f32 * 17.0 + 8.0, (i / 2) as f32 * 17.0 + 8.0);
    common::drag_between(&mut h, centre(3), centre(3));
    assert_eq!(h.state().editor.tile, tiles[3], "a click picks the tile");
    assert!(!h.state().editor.pasting);
    // A drag from the last tile back to the first takes all four, laid out as in the image.
    common::drag_between(&mut h, centre(3), centre(0));
    assert!(h.state().editor.pasting, "the stamp follows the pointer");
    let stamp = h.state().editor.clipboard.clone().unwrap();
    assert_eq!((stamp.width, stamp.height, stamp.cells.clone()), (2, 2, tiles.to_vec()));
    // A click on the map places it, another click places it again.
    click_cell(&mut h, Cell::new(1, 0));
    click_cell(&mut h, Cell::new(0, 1));
    let map = &h.state().document.map;
    let row = |y: i32| (0..4).map(|x| map.tile(0, Cell::new(x, y)).unwrap()).collect::<Vec<_>>();
    let (a, b, c, d) = (tiles[0], tiles[1], tiles[2], tiles[3]);
    assert_eq!([row(0), row(1), row(2)], [vec![b, a, b, b], vec![a, b, d, b], vec![c, d, d, b]]);
    assert_eq!(h.state().document.edits(), 2);
    // The list of tile types is a tab away.
    h.get_by_label("List").click();
    h.run();
    assert!(h.query_by_label("tileset tiny").is_none());
    assert_eq!(h.state().palette.sheet, None);
    // The tile types window shows each tile as drawn; a click there picks it too.
    h.state_mut().commands.push(Command::Tiles(TileCommand::ShowTileTypes(true)));
    h.run();
    let name = h.state().document.map.tiles[usize::from(tiles[1])].name.clone();
    h.get_by_label(&format!("pick {name}")).click();
    h.run();
    assert_eq!(h.state().editor.tile, tiles[1]);
}

#[test]
fn tileset_images_are_decoded_and_a_broken_one_is_reported() {
    use sightline::app::sprites::decode_png;
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let image = decode_png(&fixtures.join("tiny.png")).unwrap();
    assert!(image.size[0] > 0 && image.size[1] > 0);
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.png");
    std::fs::write(&broken, b"\x89PNG\r\n\x1a\nnot really").unwrap();
    let e = decode_png(&broken).unwrap_err();
    assert!(e.contains("broken.png"), "{e}");
    // A Tiled map with an image tileset opens with its images (no complaint in the status bar).
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("outdoor.tmx"))));
    h.run();
    assert!(
        h.state().prompts.notice.as_deref().is_none_or(|n| !n.contains("tile images not shown")),
        "{:?}",
        h.state().prompts.notice
    );
}

#[test]
fn a_tileset_of_thousands_of_tiles_is_laid_out_a_screenful_at_a_time() {
    use sightline::core::model::tile::{Rgb, STANDARD_WALL, TileKind};
    let mut h = harness();
    h.run();
    // A Tiled tileset of 5 000 tiles: laying out every row of the palette and of the tile types
    // window each frame took 140 ms a frame at 30 000.
    let mut map = h.state().document.map.clone();
    map.tiles.extend(
        (0..5_000).map(|i| TileKind::new(&format!("sand {i}"), 's', Rgb(200, 180, 90), Rgb(0, 0, 0), false, true)),
    );
    h.state_mut().document.map = map;
    click_menu_item(&mut h, "Edit", "Tile types…");
    h.run();
    // The first rows are there and work as before ...
    h.get_by_label("#  wall").click();
    h.run();
    assert_eq!(h.state().editor.tile, STANDARD_WALL);
    h.get_by_label("opaque floor");
    h.get_by_label("s  sand 0");
    // ... and the rows far below the fold are not laid out at all.
    assert!(h.query_by_label("s  sand 4999").is_none());
    assert!(h.query_by_label("opaque sand 4999").is_none());
    // Until the palette's tile is one of them: the window scrolls to its row.
    let far = h.state().document.map.tile_named("sand 4000").unwrap();
    h.state_mut().commands.push(Command::Tiles(TileCommand::SelectTile(far)));
    for _ in 0..3 {
        h.run();
    }
    assert!(h.query_by_label("pick sand 4000").is_some());
    assert!(h.query_by_label("pick sand 0").is_none(), "the first rows scrolled away");
}

#[test]
fn a_tileset_read_from_its_own_file_says_so_and_a_save_refers_to_it_until_it_is_changed_here() {
    let (dir, path) = external_tileset_copy();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    h.get_by_label("tiny").click();
    h.run();
    let hover_file = |h: &mut egui_kittest::Harness<'_, sightline::app::SightlineApp>| {
        h.get_by_label("file tiny.tsx").hover();
        for _ in 0..20 {
            h.step();
        }
    };
    hover_file(&mut h);
    assert!(h.query_by_label_contains("A save refers to this file").is_some());
    let saved = || std::fs::read_to_string(dir.path().join("tiny.tmx")).unwrap();
    h.state_mut().commands.push(Command::File(FileCommand::Save));
    h.run();
    assert!(saved().contains(r#"<tileset firstgid="1" source="tiny.tsx"/>"#), "{}", saved());
    assert_eq!(h.state().prompts.notice, None);
    // A tile type of the tileset made opaque in the tile types window.
    h.state_mut().commands.push(Command::Tiles(TileCommand::ShowTileTypes(true)));
    h.run();
    h.get_by_label("opaque tiny 0").click();
    h.run();
    hover_file(&mut h);
    assert!(h.query_by_label_contains("Changed here: a save writes this tileset into the map").is_some());
    h.state_mut().commands.push(Command::File(FileCommand::Save));
    h.run();
    assert!(saved().contains(r#"<tileset firstgid="1" name="tiny""#), "{}", saved());
    let notice = h.state().prompts.notice.clone().unwrap_or_default();
    assert!(notice.contains(r#"tileset "tiny" is written into the map, not as a reference to tiny.tsx"#), "{notice}");
    // Undone: a reference again; the tileset file was never written.
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    h.state_mut().commands.push(Command::File(FileCommand::Save));
    h.run();
    assert!(saved().contains(r#"<tileset firstgid="1" source="tiny.tsx"/>"#), "{}", saved());
    assert_eq!(std::fs::read(dir.path().join("tiny.tsx")).unwrap(), std::fs::read("tests/fixtures/tiny.tsx").unwrap());
    // A file gone since the map was read: said on hover too.
    std::fs::rename(dir.path().join("tiny.tsx"), dir.path().join("old.tsx")).unwrap();
    hover_file(&mut h);
    assert!(h.query_by_label_contains("The file is no longer there").is_some());
    assert!(!h.get_by_label("Save tileset").accesskit_node().is_disabled(), "it writes the file again");
    std::fs::rename(dir.path().join("old.tsx"), dir.path().join("tiny.tsx")).unwrap();
    // The tileset's own properties, under its tiles: one added is a change of the tileset too.
    h.get_by_label("Tileset properties (0)").click();
    h.run();
    h.get_by_label("new tileset tiny property name").click();
    h.run();
    h.get_by_label("new tileset tiny property name").type_text("biome");
    h.run();
    h.get_by_label("add tileset tiny property").click();
    h.run();
    let sheet = &h.state().document.map.sheets[0];
    assert_eq!(sheet.properties.keys().collect::<Vec<_>>(), ["biome"]);
    h.state_mut().commands.push(Command::File(FileCommand::Save));
    h.run();
    assert!(saved().contains(r#"<property name="biome" value=""/>"#), "{}", saved());
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert!(h.state().document.map.sheets[0].properties.is_empty());
}

#[test]
fn save_tileset_writes_the_tileset_file_and_asks_first_when_the_file_was_changed_since() {
    let (dir, path) = external_tileset_copy();
    let tsx = dir.path().join("tiny.tsx");
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    h.get_by_label("tiny").click();
    h.run();
    assert!(h.get_by_label("Save tileset").accesskit_node().is_disabled(), "the file holds the tileset as it is");
    // Tile 0 made opaque in the tile types window: the tileset differs from its file.
    h.state_mut().commands.push(Command::Tiles(TileCommand::ShowTileTypes(true)));
    h.run();
    h.get_by_label("opaque tiny 0").click();
    h.run();
    h.state_mut().commands.push(Command::Tiles(TileCommand::ShowTileTypes(false)));
    h.run();
    assert!(!h.get_by_label("Save tileset").accesskit_node().is_disabled());
    h.get_by_label("Save tileset").click();
    h.run();
    let written = std::fs::read_to_string(&tsx).unwrap();
    // The rule alone: the glyph its rules imply followed them, so no look is written.
    assert!(
        written.contains(" <tile id=\"0\">\n  <properties>\n   <property name=\"opaque\" type=\"bool\" value=\"true\"/>\n  </properties>"),
        "{written}"
    );
    let notice = h.state().prompts.notice.clone().unwrap_or_default();
    assert!(notice.starts_with("saved tileset file ") && notice.contains("tiny.tsx"), "{notice}");
    assert!(h.get_by_label("Save tileset").accesskit_node().is_disabled(), "the file holds it now");
    // The map's save refers to the file, which has the change.
    h.state_mut().commands.push(Command::File(FileCommand::Save));
    h.run();
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains(r#"<tileset firstgid="1" source="tiny.tsx"/>"#), "{saved}");
    assert_eq!(h.state().prompts.notice, None);
    // Undo brings the tile back as it was, which the file no longer holds: Save tileset again.
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert!(!h.state().document.map.tiles[1].opaque);
    assert!(!h.get_by_label("Save tileset").accesskit_node().is_disabled());
    // Meanwhile the file was edited elsewhere: writing it asks first, and Cancel keeps it.
    let elsewhere = written.replace(r#"value="2.5""#, r#"value="4""#);
    std::fs::write(&tsx, &elsewhere).unwrap();
    h.get_by_label("Save tileset").click();
    h.run();
    assert!(
        h.query_by_label_contains("tiny.tsx was changed since this map read it (in Tiled, perhaps)").is_some(),
        "asked"
    );
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(std::fs::read_to_string(&tsx).unwrap(), elsewhere);
    h.get_by_label("Save tileset").click();
    h.run();
    h.get_by_label("Save tileset anyway").click();
    h.run();
    let rewritten = std::fs::read_to_string(&tsx).unwrap();
    assert!(!rewritten.contains(r#"<tile id="0">"#) && rewritten.contains(r#"value="2.5""#), "{rewritten}");
}
