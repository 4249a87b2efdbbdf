//! The app driven as a person would, through egui_kittest: labels are found by their text.
#![cfg(feature = "gui")]

use sightline::app::{
    FileCommand, HistoryCommand, LayerCommand, MapCommand, ObjectCommand, SelectionCommand, TileCommand, ToolCommand,
    ViewCommand,
};
use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sightline::app::{Command, SightlineApp};
use sightline::core::model::flip::Flip;
use sightline::core::model::flip::Turn;
use sightline::core::{LayerRef, StackItem};

mod common;
use common::{cell_centre, click_cell, click_menu_item, sample};

fn harness() -> Harness<'static, SightlineApp> {
    common::harness_sized(1200.0, 800.0)
}

#[test]
fn starts_on_the_built_in_dungeon() {
    let mut h = harness();
    h.run();
    h.get_by_label("63 × 31");
    assert_eq!(h.state().document.file_name(), "dungeon.ron");
    assert!(!h.state().document.dirty);
}

#[test]
fn the_file_menu_offers_open_and_save() {
    let mut h = harness();
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open…");
    h.get_by_label("Save");
    h.get_by_label("Save As…");
}

#[test]
fn opening_a_map_shows_it() {
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h.get_by_label("41 × 25");
    assert_eq!(h.state().document.file_name(), "pillars.ron");
}

#[test]
fn a_corrupt_file_shows_an_error_and_keeps_the_open_map() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("corrupt.tmx");
    std::fs::write(&bad, "<map width=\"3\" height=\"2\"><layer").unwrap();
    let mut h = harness();
    h.run();
    let before = h.state().document.map.clone();
    h.state_mut().commands.push(Command::File(FileCommand::Open(bad)));
    h.run();
    h.get_by_label("Cannot open the map");
    let message = h.state().error.as_ref().unwrap().message.clone();
    assert!(message.contains("corrupt.tmx") && message.contains("XML"), "{message}");
    assert_eq!(h.state().document.map, before);
    h.get_by_label("63 × 31");
    h.get_by_label("OK").click();
    h.run();
    assert!(h.state().error.is_none());
    assert!(h.query_by_label("Cannot open the map").is_none());
}

#[test]
fn save_as_writes_the_file_and_it_reloads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("copy.tmj");
    let mut h = harness();
    h.run();
    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(path.clone())));
    h.run();
    assert!(h.state().error.is_none(), "{:?}", h.state().error);
    assert_eq!(h.state().document.file_name(), "copy.tmj");
    let reloaded = sightline::core::format::load(&path).unwrap().map;
    assert_eq!(reloaded, h.state().document.map);
}

/// Save As in a format that holds less than the map (here ASCII, one layer) asks first, naming
/// what the file will not keep: Cancel writes nothing; Export a copy writes it and the map goes
/// on with its own file, unsaved; Save anyway makes it the map's file, and the same save again
/// asks no more. Without the question, the layer would be gone, unasked, once the window closed.
#[test]
fn a_save_that_drops_part_of_the_map_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flat.txt");
    let mut h = harness();
    h.run();
    h.get_by_label("New layer").click();
    h.run();
    assert_eq!(h.state().document.map.layers.len(), 2);
    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(path.clone())));
    h.run();
    h.get_by_label("Save as flat.txt?");
    h.get_by_label("• 2 layers are flattened into one (the topmost tile of each cell)");
    assert!(!path.exists(), "nothing written before the answer");
    h.get_by_label("Cancel").click();
    h.run();
    assert!(!path.exists() && h.query_by_label("Save as flat.txt?").is_none());
    assert!(h.state().document.dirty);

    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(path.clone())));
    h.run();
    h.get_by_label("Export a copy").click();
    h.run();
    assert!(path.exists(), "the copy is written");
    assert_eq!(h.state().document.file_name(), "dungeon.ron", "the map keeps its own file");
    assert!(h.state().document.dirty, "and its unsaved layer");
    std::fs::remove_file(&path).unwrap();

    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(path.clone())));
    h.run();
    h.get_by_label("Save anyway").click();
    h.run();
    assert!(path.exists());
    assert_eq!(h.state().document.file_name(), "flat.txt");
    assert!(!h.state().document.dirty);
    // The same save again (Ctrl+S) writes without asking; a save that loses more asks again.
    std::fs::remove_file(&path).unwrap();
    h.state_mut().commands.push(Command::File(FileCommand::Save));
    h.run();
    assert!(path.exists() && h.query_by_label("Save as flat.txt?").is_none());
    h.get_by_label("New layer").click();
    h.run();
    h.state_mut().commands.push(Command::File(FileCommand::Save));
    h.run();
    // Over the map's own file: Save As… instead of a copy.
    h.get_by_label("Save flat.txt?");
    h.get_by_label("• 3 layers are flattened into one (the topmost tile of each cell)");
    h.get_by_label("Save As…");
    assert!(h.query_by_label("Export a copy").is_none());
}

/// "Save" in the unsaved-changes prompt, over a file that will not keep all of the map: the
/// lossy-save question comes up, and the open (or quit) that asked goes on once the map is
/// saved, and only then.
#[test]
fn an_open_waits_for_the_lossy_save_its_prompt_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flat.txt");
    let other = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/pillars.ron");
    let mut h = harness();
    h.run();
    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(path.clone())));
    h.run();
    assert_eq!(h.state().document.file_name(), "flat.txt", "one layer: saved without a question");
    h.get_by_label("New layer").click();
    h.run();

    // Cancelled: the map stays, unsaved, and the open is forgotten.
    h.state_mut().commands.push(Command::File(FileCommand::Open(other.clone())));
    h.run();
    h.get_by_label("Unsaved changes");
    h.get_by_label("Save").click();
    h.run();
    h.get_by_label("Save flat.txt?");
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(h.state().document.file_name(), "flat.txt");
    assert!(h.state().document.dirty);
    // A later save of its own opens nothing.
    h.state_mut().commands.push(Command::File(FileCommand::Save));
    h.run();
    h.get_by_label("Save anyway").click();
    h.run();
    assert_eq!(h.state().document.file_name(), "flat.txt");
    assert!(!h.state().document.dirty);

    // Saved anyway: the open goes on.
    h.get_by_label("New layer").click();
    h.run();
    h.state_mut().commands.push(Command::File(FileCommand::Open(other.clone())));
    h.run();
    h.get_by_label("Save").click();
    h.run();
    assert!(h.query_by_label("Save flat.txt?").is_some(), "3 layers: a greater loss asks again");
    assert_eq!(h.state().document.file_name(), "flat.txt", "nothing opened before the answer");
    h.get_by_label("Save anyway").click();
    h.run();
    assert_eq!(h.state().document.file_name(), "pillars.ron");
    let saved = sightline::core::format::load(&path).unwrap();
    assert_eq!(saved.map.layers.len(), 1, "flat.txt was written, flattened");
}

/// A copy of fixture `name` (with the tileset image beside it) in a temporary folder, for a
/// test that saves over it.
/// Clears the text field labelled `label` and leaves it with Enter.
fn clear_field(h: &mut Harness<'static, SightlineApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.key_press(egui::Key::Backspace);
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
}

fn fixture_copy(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::copy(fixtures.join("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let path = dir.path().join(name);
    std::fs::copy(fixtures.join(name), &path).unwrap();
    (dir, path)
}

/// A copy of tests/fixtures/external_tileset.tmx (as tiny.tmx) beside copies of the tileset file
/// it names, tiny.tsx, and its image, so that tests may write any of them.
fn external_tileset_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, _) = fixture_copy("tiny.tsx");
    let path = dir.path().join("tiny.tmx");
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/external_tileset.tmx"), &path).unwrap();
    (dir, path)
}

/// Selects `cell` with the Select tool and moves the pointer off the canvas, so that the
/// inspector shows the selected cell for editing.
fn select_for_inspector(h: &mut Harness<'static, SightlineApp>, cell: sightline::core::Cell) {
    h.get_by_label("Select").click();
    h.run();
    drag_through(h, &[cell]);
    h.hover_at(egui::pos2(5.0, 790.0));
    h.run();
}

/// Drags the primary button across cells, as a hand would: press, move through each, release.
fn drag_through(h: &mut Harness<'static, SightlineApp>, cells: &[sightline::core::Cell]) {
    let first = cell_centre(h, cells[0]);
    h.hover_at(first);
    h.run();
    h.drag_at(first);
    h.run();
    for &c in &cells[1..] {
        let p = cell_centre(h, c);
        h.hover_at(p);
        h.run();
    }
    let last = cell_centre(h, *cells.last().unwrap());
    h.drop_at(last);
    h.run();
}

#[test]
fn paint_with_the_brush_then_undo_redo_save_and_reload() {
    use sightline::core::Cell;
    use sightline::core::model::tile::{STANDARD_FLOOR, STANDARD_WALL};
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h.get_by_label("Brush").click();
    h.run();
    h.get_by_label("#  wall").click();
    h.run();
    let row: Vec<Cell> = (4..=8).map(|x| Cell::new(x, 5)).collect();
    assert!(row.iter().all(|&c| h.state().document.map.tile(0, c) == Some(STANDARD_FLOOR)));
    drag_through(&mut h, &row);
    assert!(
        row.iter().all(|&c| h.state().document.map.tile(0, c) == Some(STANDARD_WALL)),
        "the stroke painted the row"
    );
    assert_eq!(h.state().document.edits(), 1, "one stroke, one undo step");
    assert!(h.state().document.dirty);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert!(row.iter().all(|&c| h.state().document.map.tile(0, c) == Some(STANDARD_FLOOR)), "undone");
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    h.run();
    assert!(row.iter().all(|&c| h.state().document.map.tile(0, c) == Some(STANDARD_WALL)), "redone");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("painted.ron");
    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(path.clone())));
    h.run();
    assert!(!h.state().document.dirty);
    let reloaded = sightline::core::format::load(&path).unwrap().map;
    assert_eq!(reloaded, h.state().document.map);
}

#[test]
fn rectangle_and_fill_tools() {
    use sightline::core::Cell;
    use sightline::core::model::tile::{STANDARD_FLOOR, STANDARD_WATER};
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h.get_by_label("~  water").click();
    h.run();
    h.get_by_label("Rectangle").click();
    h.run();
    // Drag from (1,1) to (2,2): a filled 2×2 rectangle of water, painted on release.
    drag_through(&mut h, &[Cell::new(1, 1), Cell::new(2, 1), Cell::new(2, 2)]);
    let map = &h.state().document.map;
    for c in [Cell::new(1, 1), Cell::new(2, 1), Cell::new(1, 2), Cell::new(2, 2)] {
        assert_eq!(map.tile(0, c), Some(STANDARD_WATER), "{c}");
    }
    assert_eq!(map.tile(0, Cell::new(3, 1)), Some(STANDARD_FLOOR));
    // Fill with floor from a water cell turns the whole water patch back.
    h.get_by_label(".  floor").click();
    h.run();
    h.get_by_label("Fill").click();
    h.run();
    click_cell(&mut h, Cell::new(1, 1));
    let map = &h.state().document.map;
    assert!([Cell::new(1, 1), Cell::new(2, 2)].iter().all(|&c| map.tile(0, c) == Some(STANDARD_FLOOR)));
    assert_eq!(h.state().document.edits(), 2);
}

#[test]
fn opening_over_unsaved_changes_asks_first() {
    use sightline::core::Cell;
    let dir = tempfile::tempdir().unwrap();
    let own = dir.path().join("own.ron");
    std::fs::copy(sample("pillars.ron"), &own).unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(own.clone())));
    h.run();
    h.get_by_label("Brush").click();
    h.run();
    drag_through(&mut h, &[Cell::new(4, 5), Cell::new(5, 5)]);
    assert!(h.state().document.dirty);
    let painted = h.state().document.map.clone();

    // Cancel: nothing happens.
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("caves.ron"))));
    h.run();
    h.get_by_label("Unsaved changes");
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.query_by_label("Unsaved changes").is_none());
    assert_eq!(h.state().document.map, painted);
    assert_eq!(h.state().document.file_name(), "own.ron");

    // Save: the edits are written, then the other map opens.
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("caves.ron"))));
    h.run();
    h.get_by_label("Save").click();
    h.run();
    assert_eq!(h.state().document.file_name(), "caves.ron");
    assert_eq!(sightline::core::format::load(&own).unwrap().map, painted);

    // Don't save: the edits are dropped.
    drag_through(&mut h, &[Cell::new(10, 10), Cell::new(11, 10)]);
    assert!(h.state().document.dirty);
    h.state_mut().commands.push(Command::File(FileCommand::Open(own.clone())));
    h.run();
    h.get_by_label("Don't save").click();
    h.run();
    assert_eq!(h.state().document.file_name(), "own.ron");
    assert!(!h.state().document.dirty);
}

#[test]
fn a_locked_layer_refuses_paint_and_hiding_a_layer_is_undoable() {
    use sightline::core::Cell;
    use sightline::core::model::tile::STANDARD_FLOOR;
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h.get_by_label("lock ground").click();
    h.run();
    assert!(h.state().document.map.layers[0].locked);
    h.get_by_label("ground (locked)");
    let cell = Cell::new(5, 5);
    click_cell(&mut h, cell);
    assert_eq!(h.state().document.map.tile(0, cell), Some(STANDARD_FLOOR), "nothing painted");
    h.get_by_label_contains("is locked: unlock it to paint");
    // Undo unlocks (the lock was an edit), then hiding the layer is one too.
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert!(!h.state().document.map.layers[0].locked);
    h.get_by_label("show ground").click();
    h.run();
    assert!(!h.state().document.map.layers[0].visible);
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert!(h.state().document.map.layers[0].visible);
}

#[test]
fn a_wider_brush_paints_a_square() {
    use sightline::core::Cell;
    use sightline::core::model::tile::STANDARD_WALL;
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h.get_by_label("Brush").click();
    h.run();
    h.get_by_label("#  wall").click();
    h.run();
    h.state_mut().commands.push(Command::Tools(ToolCommand::SetBrushSize(3)));
    h.run();
    let cell = Cell::new(20, 20);
    click_cell(&mut h, cell);
    for y in 19..=21 {
        for x in 19..=21 {
            assert_eq!(h.state().document.map.tile(0, Cell::new(x, y)), Some(STANDARD_WALL), "({x}, {y})");
        }
    }
    assert_eq!(h.state().document.edits(), 1, "one stroke, one undo step");
}

#[test]
fn the_tile_types_window_edits_rules_undoably() {
    use sightline::core::model::tile::STANDARD_FLOOR;
    let mut h = harness();
    click_menu_item(&mut h, "Edit", "Tile types…");
    assert!(h.state().tile_types_open);
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
fn new_map_asks_about_unsaved_changes_then_creates_the_map() {
    let mut h = harness();
    h.state_mut().document.touch(); // unsaved work
    click_menu_item(&mut h, "File", "New…");
    h.get_by_label("Create").click();
    h.run();
    // The prompt first; nothing replaced yet.
    h.get_by_label("Unsaved changes");
    assert_eq!(h.state().document.map.width(), 63);
    h.get_by_label("Don't save").click();
    h.run();
    h.get_by_label("48 × 32");
    let map = &h.state().document.map;
    assert!(map.rules_at(sightline::core::Cell::new(0, 0)).opaque, "a wall border");
    assert!(map.rules_at(sightline::core::Cell::new(5, 5)).walkable, "floor inside");
    assert_eq!(h.state().document.file_name(), "untitled.ron");
}

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
fn the_minimap_jumps_the_view() {
    let mut h = harness();
    h.state_mut().commands.push(Command::View(ViewCommand::ZoomBy(4.0)));
    h.run();
    let before = h.state().view.offset;
    // A click on the minimap's bottom-right part centres the canvas there.
    let r = h.get_by_label("minimap").rect();
    let p = r.min + (r.max - r.min) * 0.9;
    h.hover_at(p);
    h.run();
    h.drag_at(p);
    h.run();
    h.drop_at(p);
    h.run();
    assert_ne!(h.state().view.offset, before, "the view moved to the clicked part of the map");
    let view = &h.state().view;
    let centre = view.grid_from_screen(view.canvas.center());
    assert!((centre.x - 56).abs() <= 1 && (centre.y - 27).abs() <= 1, "centred near (56, 27): {centre:?}");
}

#[test]
fn unsaved_work_is_autosaved_and_offered_back_after_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recovery.ron");
    // A session paints, autosaves, and "crashes" (is dropped without a clean exit).
    {
        let mut h = harness();
        h.state_mut().use_recovery_file(file.clone());
        h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
        h.run();
        let cell = sightline::core::Cell::new(5, 5);
        sightline::core::edit::paint(
            &mut h.state_mut().document.map,
            0,
            &[cell],
            sightline::core::model::tile::STANDARD_WATER,
        );
        h.state_mut().document.touch();
        h.state_mut().autosave_now();
        assert!(file.exists());
    }
    // The next start offers it back.
    let mut h = harness();
    h.state_mut().use_recovery_file(file.clone());
    h.run();
    h.get_by_label("Recover unsaved work?");
    h.get_by_label("Recover").click();
    h.run();
    let doc = &h.state().document;
    assert_eq!(doc.map.tile(0, sightline::core::Cell::new(5, 5)), Some(sightline::core::model::tile::STANDARD_WATER));
    assert!(doc.dirty, "recovered work is unsaved until saved");
    assert_eq!(doc.path.as_deref().and_then(|p| p.file_name()), Some(std::ffi::OsStr::new("pillars.ron")));
    // Saving it puts the work in place and removes the recovery copy.
    let out = dir.path().join("saved.ron");
    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(out.clone())));
    h.run();
    assert!(out.exists() && !file.exists());
    assert_eq!(h.state().recent.first().and_then(|p| p.file_name()), Some(std::ffi::OsStr::new("saved.ron")));
}

#[test]
fn undoing_back_to_the_file_is_saved_again_and_drops_the_recovery_copy() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recovery.ron");
    let mut h = harness();
    h.state_mut().use_recovery_file(file.clone());
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h.get_by_label("Eraser").click();
    h.run();
    click_cell(&mut h, sightline::core::Cell::new(5, 5));
    assert!(h.state().document.dirty);
    h.state_mut().autosave_now();
    assert!(file.exists());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    // As in Tiled: back where the file is, nothing is unsaved, and the window says so.
    assert!(!h.state().document.dirty);
    h.state_mut().autosave_now();
    assert!(!file.exists(), "the copy of edits taken back is gone");
}

#[test]
fn select_copy_flip_and_paste_a_block() {
    use sightline::core::Cell;
    use sightline::core::model::tile::{STANDARD_FLOOR, STANDARD_WALL};
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    // The block (2, 2)–(3, 3): floor, floor / floor, pillar.
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(2, 2), Cell::new(3, 3)]);
    let selection = h.state().editor.selection.clone().unwrap();
    assert_eq!((selection.bounds(), selection.len()), (Some((Cell::new(2, 2), Cell::new(3, 3))), 4));
    assert!(!h.state().document.dirty, "selecting is not an edit");
    h.state_mut().commands.push(Command::Selection(SelectionCommand::Copy));
    h.run();
    let stamp = h.state().editor.clipboard.clone().unwrap();
    assert_eq!(stamp.cells, vec![STANDARD_FLOOR, STANDARD_FLOOR, STANDARD_FLOOR, STANDARD_WALL]);
    h.state_mut().commands.extend([
        Command::Selection(SelectionCommand::Paste),
        Command::Tools(ToolCommand::TurnStamp(Turn::FlipHorizontally)),
    ]);
    h.run();
    assert!(h.state().editor.pasting);
    // Placed with its corner on (20, 20): the pillar lands on the left now, itself mirrored.
    click_cell(&mut h, Cell::new(20, 20));
    let map = &h.state().document.map;
    assert_eq!(map.flipped_tile(0, Cell::new(20, 21)), Some((STANDARD_WALL, Flip::HORIZONTAL)));
    assert_eq!(map.tile(0, Cell::new(21, 21)), Some(STANDARD_FLOOR));
    assert_eq!(h.state().document.edits(), 1);
    // The paste dropped the selection (as in Tiled). Selected again, Cut erases it on the layer
    // and, as in Tiled, leaves nothing selected.
    assert!(h.state().editor.selection.is_none());
    h.state_mut().commands.push(Command::Selection(SelectionCommand::CancelSelection));
    h.run();
    drag_through(&mut h, &[Cell::new(2, 2), Cell::new(3, 3)]);
    h.state_mut().commands.push(Command::Selection(SelectionCommand::Cut));
    h.run();
    assert_eq!(h.state().document.map.tile(0, Cell::new(3, 3)), Some(0));
    assert!(h.state().editor.selection.is_none());
}

#[test]
fn a_drag_lays_the_stamp_side_by_side_and_a_shift_drag_lays_a_line_of_them() {
    use sightline::core::Cell;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("room.txt");
    std::fs::write(&path, "#+........\n.#........\n..........\n..........\n..........\n..........\n").unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path)));
    h.run();
    // Copy the 2×2 block in the corner and paste it; the select tool stays chosen.
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(1, 1)]);
    h.state_mut()
        .commands
        .extend([Command::Selection(SelectionCommand::Copy), Command::Selection(SelectionCommand::Paste)]);
    h.run();
    // As in Tiled, pasting drops the selection (which would keep the stamp inside it). A drag
    // along the third row lays a whole copy every second cell, not a smear, and does not select.
    assert!(h.state().editor.selection.is_none());
    drag_through(&mut h, &(0..8).map(|x| Cell::new(x, 2)).collect::<Vec<_>>());
    assert!(h.state().editor.selection.is_none());
    assert_eq!(
        common::glyph_rows(&h.state().document.map, 0),
        ["#+........", ".#........", "#+#+#+#+..", ".#.#.#.#..", "..........", ".........."]
    );
    assert_eq!(h.state().document.edits(), 1, "one drag, one undo step");
    // With Shift, the copies go along the line from press to release, laid at the release
    // whatever way the pointer went.
    let detour = [Cell::new(0, 4), Cell::new(3, 1), Cell::new(9, 4)];
    common::shift_drag_through(&mut h, &detour);
    assert_eq!(
        common::glyph_rows(&h.state().document.map, 0),
        ["#+........", ".#........", "#+#+#+#+..", ".#.#.#.#..", "#+#+#+#+#+", ".#.#.#.#.#"]
    );
    assert_eq!(h.state().document.edits(), 2);
    assert!(h.state().editor.pasting, "the stamp stays on the pointer until Esc");
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(!h.state().editor.pasting);
}

#[test]
fn animated_tiles_say_so_in_the_inspector_and_the_view_menu_stops_them() {
    use sightline::core::Cell;
    let mut h = harness();
    h.state_mut()
        .commands
        .push(Command::File(FileCommand::Open(Path::new("tests/fixtures/animated.tmx").to_path_buf())));
    h.run();
    assert!(h.state().view.animate_tiles, "animations play by default, as in Tiled");
    // Cell (0, 0) holds the tile whose animation shows three tiles in 400 ms.
    h.hover_at(cell_centre(&h, Cell::new(0, 0)));
    h.run();
    h.get_by_label("  animated: 3 frames, 400 ms a loop");
    click_menu_item(&mut h, "View", "Tile animations");
    assert!(!h.state().view.animate_tiles);
    // The map is not edited by it.
    assert!(!h.state().document.dirty);
}

#[test]
fn a_tiled_objects_shape_is_named_in_the_inspector() {
    use sightline::core::Cell;
    let mut h = harness();
    h.state_mut()
        .commands
        .push(Command::File(FileCommand::Open(Path::new("tests/fixtures/objects.tmx").to_path_buf())));
    h.run();
    // The "camp" zone stands on cell (1, 1); the pond, turned, on (4, 0).
    h.hover_at(cell_centre(&h, Cell::new(1, 1)));
    h.run();
    h.get_by_label("  rectangle 20 × 12 px");
    h.hover_at(cell_centre(&h, Cell::new(4, 0)));
    h.run();
    h.get_by_label("  ellipse 16 × 10 px, turned 30°");
    // A monster placed on the zone's cell stands in it; the zone stays.
    h.get_by_label("Object").click();
    h.run();
    click_cell(&mut h, Cell::new(1, 1));
    let on_cell: Vec<&str> = h
        .state()
        .document
        .map
        .objects
        .iter()
        .filter(|o| o.cell == Cell::new(1, 1))
        .map(|o| o.kind.type_name())
        .collect();
    assert_eq!(on_cell, ["Zone", "monster"]);
}

#[test]
fn tiles_are_flipped_and_turned_with_tileds_keys_picked_edited_in_the_inspector_and_saved() {
    use egui::Key;
    use sightline::core::Cell;
    use sightline::core::model::tile::STANDARD_WALL;
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    // X mirrors the brush's tile and Z turns it a quarter clockwise: the tools bar says how.
    h.key_press(Key::X);
    h.run();
    h.key_press(Key::Z);
    h.run();
    let turned = Flip::HORIZONTAL.rotated_clockwise();
    assert_eq!(h.state().editor.flip, turned);
    assert_eq!(turned.describe(), "flipped across the other diagonal");
    h.get_by_label("flipped across the other diagonal ×");
    click_cell(&mut h, Cell::new(5, 5));
    assert_eq!(h.state().document.map.flipped_tile(0, Cell::new(5, 5)), Some((STANDARD_WALL, turned)));
    // Painting the same tile turned another way is an edit too.
    h.key_press_modifiers(egui::Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(h.state().editor.flip, Flip::HORIZONTAL);
    click_cell(&mut h, Cell::new(5, 5));
    assert_eq!(h.state().document.map.flipped_tile(0, Cell::new(5, 5)), Some((STANDARD_WALL, Flip::HORIZONTAL)));
    assert_eq!(h.state().document.edits(), 2);
    // The reset button paints it as drawn again; the picker takes a cell's flip back.
    h.get_by_label("flipped horizontally ×").click();
    h.run();
    assert_eq!(h.state().editor.flip, Flip::NONE);
    h.get_by_label("Picker").click();
    h.run();
    click_cell(&mut h, Cell::new(5, 5));
    assert_eq!((h.state().editor.tile, h.state().editor.flip), (STANDARD_WALL, Flip::HORIZONTAL));
    // The inspector says how the hovered cell's tile is turned.
    h.hover_at(cell_centre(&h, Cell::new(5, 5)));
    h.run();
    assert!(h.query_by_label_contains("wall '#', flipped horizontally").is_some());
    // A selected cell's turn is chosen there, one undo step.
    h.get_by_label("Select").click();
    h.run();
    click_cell(&mut h, Cell::new(5, 5));
    h.hover_at(egui::pos2(5.0, 5.0));
    h.run();
    h.get_by_label("flip on ground").click();
    h.run();
    h.get_by_label("rotated 180°").click();
    h.run();
    let rotated_180 = Flip::NONE.rotated_clockwise().rotated_clockwise();
    assert_eq!(h.state().document.map.flipped_tile(0, Cell::new(5, 5)), Some((STANDARD_WALL, rotated_180)));
    assert_eq!(h.state().document.edits(), 3);
    // Saved and read back, in sightline's format and Tiled's.
    let dir = tempfile::tempdir().unwrap();
    for name in ["flipped.ron", "flipped.tmx"] {
        let out = dir.path().join(name);
        h.state_mut().commands.push(Command::File(FileCommand::SaveAs(out.clone())));
        h.run();
        let back = sightline::core::format::load(&out).unwrap().map;
        assert_eq!(back.flipped_tile(0, Cell::new(5, 5)).map(|(_, f)| f), Some(rotated_180), "{name}");
    }
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
fn the_object_tool_places_moves_and_removes_objects() {
    use sightline::app::ObjectChoice;
    use sightline::core::{Cell, ObjectKind};
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h.get_by_label("Object").click();
    h.run();
    // A monster (a goblin by default).
    click_cell(&mut h, Cell::new(10, 10));
    let goblin = h.state().document.map.objects.iter().find(|o| o.cell == Cell::new(10, 10)).cloned().unwrap();
    assert_eq!(goblin.kind, ObjectKind::Monster { glyph: 'g', vision_radius: 8 });
    // The player start moves: still one of them.
    h.state_mut().commands.push(Command::Objects(ObjectCommand::SetObjectChoice(ObjectChoice::PlayerStart)));
    h.run();
    click_cell(&mut h, Cell::new(4, 4));
    let starts: Vec<_> =
        h.state().document.map.objects.iter().filter(|o| o.kind == ObjectKind::PlayerStart).map(|o| o.cell).collect();
    assert_eq!(starts, vec![Cell::new(4, 4)]);
    // A door is a closed-door tile.
    h.state_mut().commands.push(Command::Objects(ObjectCommand::SetObjectChoice(ObjectChoice::Door)));
    h.run();
    click_cell(&mut h, Cell::new(6, 4));
    assert_eq!(
        h.state().document.map.tile(0, Cell::new(6, 4)),
        Some(sightline::core::model::tile::STANDARD_CLOSED_DOOR)
    );
    // Right-click removes; undo brings it back.
    right_click_cell(&mut h, Cell::new(10, 10));
    assert!(h.state().document.map.objects.iter().all(|o| o.cell != Cell::new(10, 10)));
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert!(h.state().document.map.objects.iter().any(|o| o.cell == Cell::new(10, 10)));
}

#[test]
fn the_random_brush_paints_its_tiles_by_weight() {
    use sightline::core::Cell;
    use sightline::core::edit::RandomBrush;
    use sightline::core::model::tile::{STANDARD_GRASS, STANDARD_WATER};
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h.get_by_label("Brush").click();
    h.run();
    h.get_by_label("Random").click();
    h.run();
    let brush = RandomBrush { tiles: vec![(STANDARD_WATER, 1), (STANDARD_GRASS, 3)] };
    h.state_mut().commands.extend([
        Command::Tools(ToolCommand::SetRandomBrush(true, brush)),
        Command::Tools(ToolCommand::SetBrushSize(5)),
    ]);
    h.run();
    let centre = Cell::new(20, 13);
    click_cell(&mut h, centre);
    let map = &h.state().document.map;
    let painted: Vec<_> =
        sightline::core::edit::square_around(centre, 5).into_iter().filter_map(|c| map.tile(0, c)).collect();
    // Dragging paints random tiles all along the stroke, not only where it began.
    h.state_mut().commands.push(Command::Tools(ToolCommand::SetBrushSize(1)));
    h.run();
    drag_through(&mut h, &[Cell::new(4, 21), Cell::new(8, 21), Cell::new(12, 21)]);
    let row: Vec<_> = (4..=12).filter_map(|x| h.state().document.map.tile(0, Cell::new(x, 21))).collect();
    assert!(row.iter().all(|t| *t == STANDARD_WATER || *t == STANDARD_GRASS), "{row:?}");
    let water = painted.iter().filter(|&&t| t == STANDARD_WATER).count();
    let grass = painted.iter().filter(|&&t| t == STANDARD_GRASS).count();
    assert_eq!(water + grass, 25, "every cell got one of the brush's tiles");
    assert!(water > 0 && grass > water, "weights 1:3 — {water} water, {grass} grass");
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
    assert!(h.state().notice.as_deref().is_none_or(|n| !n.contains("tile images not shown")), "{:?}", h.state().notice);
}

#[test]
fn shift_drag_with_the_brush_draws_a_line_and_hovering_previews_the_brush() {
    use sightline::core::Cell;
    use sightline::core::model::tile::{STANDARD_FLOOR, STANDARD_WALL};
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h.get_by_label("Brush").click();
    h.run();
    h.get_by_label("#  wall").click();
    h.run();
    // Hovering shows the footprint of a click.
    let p = h.state().view.cell_rect(Cell::new(10, 13)).center();
    h.hover_at(p);
    h.run();
    h.run();
    assert_eq!(h.state().hovered, Some(Cell::new(10, 13)));
    // Shift held: the stroke paints only at the end, a straight line from press to release,
    // whatever path the pointer took.
    let (a, b) = (Cell::new(4, 13), Cell::new(16, 13));
    let pa = h.state().view.cell_rect(a).center();
    let pb = h.state().view.cell_rect(b).center();
    h.hover_at(pa);
    h.run();
    h.event_modifiers(
        egui::Event::PointerButton {
            pos: pa,
            button: egui::PointerButton::Primary,
            pressed: true,
            modifiers: egui::Modifiers::SHIFT,
        },
        egui::Modifiers::SHIFT,
    );
    h.run();
    let detour = h.state().view.cell_rect(Cell::new(10, 20)).center();
    h.event_modifiers(egui::Event::PointerMoved(detour), egui::Modifiers::SHIFT);
    h.run();
    assert_eq!(h.state().document.map.tile(0, Cell::new(10, 20)), Some(STANDARD_FLOOR), "nothing painted mid-stroke");
    h.event_modifiers(egui::Event::PointerMoved(pb), egui::Modifiers::SHIFT);
    h.run();
    h.event_modifiers(
        egui::Event::PointerButton {
            pos: pb,
            button: egui::PointerButton::Primary,
            pressed: false,
            modifiers: egui::Modifiers::SHIFT,
        },
        egui::Modifiers::SHIFT,
    );
    h.run();
    let map = &h.state().document.map;
    for x in 4..=16 {
        assert_eq!(map.tile(0, Cell::new(x, 13)), Some(STANDARD_WALL), "({x}, 13)");
    }
    assert_eq!(map.tile(0, Cell::new(10, 20)), Some(STANDARD_FLOOR), "the detour left no trace");
    assert!(!h.state().editor.line_stroke);
}

/// The window titles a frame sent.
fn titles_sent(h: &Harness<'static, SightlineApp>) -> Vec<String> {
    h.output()
        .viewport_output
        .values()
        .flat_map(|v| &v.commands)
        .filter_map(|c| match c {
            egui::ViewportCommand::Title(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_window_title_is_sent_when_it_changes_not_every_frame() {
    // Setting the title wakes the window, which drew a frame, which set the title again: the
    // app drew frames without end, two cores busy while nothing happened.
    let mut h = harness();
    h.run();
    let mut sent = Vec::new();
    for _ in 0..3 {
        h.step();
        sent.extend(titles_sent(&h));
    }
    assert_eq!(sent, Vec::<String>::new(), "idle frames send no title");
    // An edit makes the map unsaved: the title says so, once.
    let p = cell_centre(&h, sightline::core::Cell::new(2, 2));
    h.state_mut().commands.push(Command::Tools(ToolCommand::SelectTool(sightline::app::Tool::Eraser)));
    for event in [0, 1, 2, 3, 3, 3, 3] {
        match event {
            1 => h.hover_at(p),
            2 => h.drag_at(p),
            3 => h.drop_at(p),
            _ => {}
        }
        h.step();
        sent.extend(titles_sent(&h));
    }
    assert!(h.state().document.dirty);
    assert_eq!(sent, [format!("● {} — sightline", h.state().document.file_name())]);
}

#[test]
fn review_fixes_hold() {
    use sightline::core::Cell;
    use sightline::core::edit::TileRules;
    use sightline::core::model::tile::{STANDARD_FLOOR, STANDARD_WALL};
    let mut h = harness();
    // An edit that changes nothing keeps the redo history.
    let cell = Cell::new(2, 2);
    h.get_by_label("Brush").click();
    h.run();
    h.get_by_label("#  wall").click();
    h.run();
    click_cell(&mut h, cell);
    assert_eq!(h.state().document.map.tile(0, cell), Some(STANDARD_WALL));
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    h.state_mut().commands.push(Command::Tiles(TileCommand::SelectTile(STANDARD_FLOOR)));
    h.run();
    click_cell(&mut h, cell); // floor onto floor: nothing changes
    assert_eq!(h.state().document.redo.len(), 1, "the redo step survives a no-op stroke");
    // Dragging a tile's cost is one undo step, not one a frame.
    let undo_before = h.state().document.edits();
    for cost in [2.0, 3.0, 4.0] {
        let mut r = TileRules::of(&h.state().document.map.tiles[usize::from(STANDARD_FLOOR)]);
        r.cost = cost;
        h.state_mut().commands.push(Command::Tiles(TileCommand::SetTileRules(STANDARD_FLOOR, r)));
        h.run();
    }
    assert_eq!(h.state().document.edits(), undo_before + 1);
    assert_eq!(h.state().document.map.tiles[usize::from(STANDARD_FLOOR)].cost, 4.0);
    // The pathfinding overlay survives a switch to a much bigger map (searched in the background).
    h.state_mut()
        .commands
        .push(Command::Overlay(sightline::app::OverlayCommand::Show(sightline::app::OverlayKind::Pathfinding, true)));
    h.run();
    h.state_mut().commands.push(Command::File(FileCommand::ConfirmDiscard));
    h.state_mut().commands.push(Command::File(FileCommand::OpenNow(sample("large.ron"))));
    for _ in 0..3 {
        h.step();
    }
    h.state_mut().wait_for_overlays();
    h.run();
    let p = &h.state().overlays.path;
    assert!(p.start.is_some_and(|c| h.state().document.map.in_bounds(c)));
    assert!(p.sides.is_some());
}

#[test]
fn the_inspector_edits_the_selected_cell_and_its_objects() {
    use sightline::core::model::tile::STANDARD_WATER;
    use sightline::core::{Cell, ObjectKind};
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    // Select the goblin's cell (2, 2), then leave the canvas: the inspector shows the selection.
    select_for_inspector(&mut h, Cell::new(2, 2));
    h.get_by_label("Cell 2, 2 (selected)");
    // Its tile, through the layer's drop-down.
    h.get_by_label("tile on ground").click();
    h.run();
    h.get_by_label("~ water").click();
    h.run();
    assert_eq!(h.state().document.map.tile(0, Cell::new(2, 2)), Some(STANDARD_WATER));
    // The monster standing there: its vision radius, as one undo step.
    let undo = h.state().document.edits();
    let index = h.state().document.map.objects.iter().position(|o| o.cell == Cell::new(2, 2)).unwrap();
    let mut goblin = h.state().document.map.objects[index].clone();
    goblin.kind = ObjectKind::Monster { glyph: 'g', vision_radius: 3 };
    h.state_mut().commands.push(Command::Objects(ObjectCommand::EditObject(index, goblin.clone())));
    h.run();
    goblin.name = "grunt".into();
    h.state_mut().commands.push(Command::Objects(ObjectCommand::EditObject(index, goblin)));
    h.run();
    let o = &h.state().document.map.objects[index];
    assert_eq!((o.name.as_str(), &o.kind), ("grunt", &ObjectKind::Monster { glyph: 'g', vision_radius: 3 }));
    assert_eq!(h.state().document.edits(), undo + 1);
    h.get_by_label("Remove").click();
    h.run();
    assert!(h.state().document.map.objects.iter().all(|o| o.cell != Cell::new(2, 2)));
}

/// The inspector gives a monster, or the player start, a light it carries (its `light`
/// property, which play reads as a torch), and takes it away at 0.
#[test]
fn the_inspector_gives_a_monster_a_light_to_carry() {
    use sightline::core::Cell;
    use sightline::core::model::object::CARRIED_LIGHT;
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    select_for_inspector(&mut h, Cell::new(2, 2));
    let goblin = |h: &Harness<'static, SightlineApp>| {
        h.state().document.map.objects.iter().find(|o| o.cell == Cell::new(2, 2)).unwrap().clone()
    };
    assert_eq!(goblin(&h).carried_light(), None);
    let set_light = |h: &mut Harness<'static, SightlineApp>, text: &str| {
        h.get_by_label("light it carries").click();
        h.run();
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.get_by_label("light it carries").type_text(text);
        h.key_press(egui::Key::Enter);
        h.run();
    };
    set_light(&mut h, "3");
    assert_eq!(goblin(&h).carried_light(), Some(3));
    assert_eq!(goblin(&h).properties.get(CARRIED_LIGHT), Some(&sightline::core::PropertyValue::Int(3)));
    set_light(&mut h, "0");
    assert_eq!(goblin(&h).properties.get(CARRIED_LIGHT), None, "0: no light, no property");
}

/// Selecting an object shows its settings and changes nothing, whatever they are: a monster
/// that sees far, a light of radius 0, a torch and a vision beyond what the inspector's fields
/// were once limited to (a field used to clamp the value it showed, and the clamped object
/// went into the map as an edit).
#[test]
fn selecting_an_object_of_far_reaching_settings_leaves_it_as_it_is() {
    use sightline::core::Cell;
    let mut h = harness();
    let _dir = open_ascii(
        &mut h,
        "legend:\ng = monster name=goblin vision=100 light=200\nL = light radius=0\nb = monster name=bat vision=0\n\
         @ = player vision=300 light=120\n---\n#######\n#@gLb.#\n#######\n",
    );
    let before = h.state().document.map.clone();
    assert!(!h.state().document.dirty);
    for x in 1..=4 {
        select_for_inspector(&mut h, Cell::new(x, 1));
        h.run();
        assert!(h.state().document.map.objects == before.objects, "selecting {x}, 1 changed an object");
        assert!(!h.state().document.dirty, "selecting {x}, 1 made an edit");
    }
}

/// The player start's own vision: ticked, it is the `vision` property (from 8), typed to 0 the
/// player sees only what light lights; unticked, the property goes and the preset's applies.
#[test]
fn the_inspector_gives_the_player_a_vision_of_its_own() {
    use sightline::core::Cell;
    use sightline::core::PropertyValue;
    use sightline::core::model::object::PLAYER_VISION;
    let mut h = harness();
    let _dir = open_ascii(&mut h, "#####\n#@..#\n#####\n");
    select_for_inspector(&mut h, Cell::new(1, 1));
    let player = |h: &Harness<'static, SightlineApp>| {
        h.state().document.map.objects.iter().find(|o| o.cell == Cell::new(1, 1)).unwrap().clone()
    };
    assert_eq!(player(&h).player_vision(), None);
    h.get_by_label("player has a vision of its own").click();
    h.run();
    assert_eq!(player(&h).properties.get(PLAYER_VISION), Some(&PropertyValue::Int(8)));
    h.get_by_label("vision of the player").click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("vision of the player").type_text("0");
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(player(&h).player_vision(), Some(0), "blind in the dark");
    h.get_by_label("player has a vision of its own").click();
    h.run();
    assert_eq!(player(&h).properties.get(PLAYER_VISION), None, "the preset's vision again");
}

#[test]
fn the_inspector_edits_a_text_objects_text_and_layout() {
    use egui::{Key, Modifiers};
    use sightline::core::model::object::{HorizontalAlign, ObjectShape, ObjectText, ShapeKind};
    use sightline::core::{Cell, MapObject, ObjectKind};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sign.ron");
    let mut map = sightline::core::format::load(&sample("pillars.ron")).unwrap().map;
    let mut sign = MapObject::new(ObjectKind::Other(String::new()), Cell::new(1, 1)).named("sign");
    sign.shape = Some(ObjectShape {
        offset: [0.0, 0.0],
        rotation: 0.0,
        kind: ShapeKind::Text { width: 40.0, height: 16.0, text: Box::new(ObjectText::new("hello")) },
    });
    map.add_object(sign);
    sightline::core::format::save(&map, &path).unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    select_for_inspector(&mut h, Cell::new(1, 1));
    h.get_by_label("  text \"hello\" 40 × 16 px");
    // Its Tiled type is empty: the inspector calls it an object.
    assert_eq!(h.get_by_label("name of object").value().as_deref(), Some("sign"));
    let text = |h: &Harness<'static, SightlineApp>| {
        let o = h.state().document.map.objects.iter().find(|o| o.name == "sign").unwrap();
        match &o.shape.as_ref().unwrap().kind {
            ShapeKind::Text { text, .. } => (**text).clone(),
            other => panic!("{other:?}"),
        }
    };
    let undo = h.state().document.edits();
    h.get_by_label("text of the object").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("text of the object").type_text("Gate ahead");
    h.run();
    assert_eq!(text(&h).text, "Gate ahead");
    assert_eq!(h.state().document.edits(), undo + 1, "typing is one undo step");
    h.get_by_label("bold text").click();
    h.run();
    h.get_by_label("text alignment across").click();
    h.run();
    h.get_by_label("centre").click();
    h.run();
    let edited = text(&h);
    assert!(edited.bold && edited.halign == HorizontalAlign::Center, "{edited:?}");
    // Saved and read back; undone step by step.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let again = sightline::core::format::load(&path).unwrap().map;
    let kept = again.objects.iter().find(|o| o.name == "sign").unwrap();
    assert!(matches!(&kept.shape.as_ref().unwrap().kind, ShapeKind::Text { text, .. } if **text == edited));
    for _ in 0..3 {
        h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
        h.run();
    }
    assert_eq!(text(&h), ObjectText::new("hello"));
}

#[test]
fn each_instance_autosaves_to_its_own_file_and_only_left_overs_are_offered() {
    let dir = tempfile::tempdir().unwrap();
    let map = sightline::core::format::load(&sample("pillars.ron")).unwrap().map;
    // A running instance's file (this process) and a crashed one's (a pid that is not running).
    let mine = dir.path().join(format!("recovery-{}.ron", std::process::id()));
    let crashed = dir.path().join("recovery-4000000000.ron");
    sightline::core::format::save(&map, &mine).unwrap();
    let mut other = map.clone();
    sightline::core::edit::paint(
        &mut other,
        0,
        &[sightline::core::Cell::new(1, 1)],
        sightline::core::model::tile::STANDARD_WATER,
    );
    sightline::core::format::save(&other, &crashed).unwrap();
    let mut h = harness();
    h.state_mut().use_recovery_dir(dir.path());
    h.run();
    // The crashed session's work is offered; a live instance's is not touched.
    let offered = h.state().recovery_offer.as_ref().expect("the left-over file is offered");
    assert_eq!(
        offered.map.tile(0, sightline::core::Cell::new(1, 1)),
        Some(sightline::core::model::tile::STANDARD_WATER)
    );
    h.get_by_label("Discard").click();
    h.run();
    assert!(!crashed.exists(), "discarded");
    assert!(mine.exists(), "another instance's autosave is left alone");
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
fn layers_are_added_painted_renamed_reordered_merged_and_removed_each_one_undo_step() {
    use egui::{Key, Modifiers};
    use sightline::core::Cell;
    use sightline::core::model::tile::{EMPTY, STANDARD_FLOOR, STANDARD_WALL};
    let ctrl_shift = Modifiers::COMMAND | Modifiers::SHIFT;
    let names = |h: &Harness<'static, SightlineApp>| -> Vec<String> {
        h.state().document.map.layers.iter().map(|l| l.name.clone()).collect()
    };
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    let original = h.state().document.map.clone();

    // New: an empty layer above the current one, which it becomes.
    h.get_by_label("New layer").click();
    h.run();
    assert_eq!(names(&h), ["ground", "Layer"]);
    assert_eq!(h.state().editor.layer, 1);
    assert!(h.state().document.map.layers[1].cells.iter().all(|&t| t == EMPTY));
    // The brush paints on it, not on the ground.
    h.get_by_label("Brush").click();
    h.run();
    h.get_by_label("#  wall").click();
    h.run();
    let cell = Cell::new(5, 5);
    click_cell(&mut h, cell);
    assert_eq!(h.state().document.map.tile(1, cell), Some(STANDARD_WALL));
    assert_eq!(h.state().document.map.tile(0, cell), Some(STANDARD_FLOOR));

    // Rename: typing is a draft until Enter.
    h.get_by_label("layer name").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label("layer name").type_text("walls");
    h.run();
    assert_eq!(names(&h), ["ground", "Layer"], "not renamed while typing");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(names(&h), ["ground", "walls"]);
    // Esc drops a draft.
    h.get_by_label("layer name").click();
    h.run();
    h.get_by_label("layer name").type_text("zzz");
    h.run();
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(names(&h), ["ground", "walls"]);
    assert_eq!(h.get_by_label("layer name").value().as_deref(), Some("walls"), "the field shows the name again");
    // A cleared name is no name: refused, with the reason, and the map keeps its name.
    clear_field(&mut h, "layer name");
    assert_eq!(names(&h), ["ground", "walls"]);
    h.get_by_label_contains("a layer needs a name");

    h.get_by_label("Collision layer").click();
    h.run();
    assert!(h.state().document.map.layers[1].collision);
    h.get_by_label("walls (collision)");

    // Tiled's keys: Ctrl+Shift+D duplicates, Ctrl+Shift+Down lowers (not the map's Ctrl+N, not a pan).
    h.key_press_modifiers(ctrl_shift, Key::D);
    h.run();
    assert_eq!(names(&h), ["ground", "walls", "walls copy"]);
    assert_eq!(h.state().editor.layer, 2);
    // Ctrl+PgDown and Ctrl+PgUp select the layer below and above.
    h.key_press_modifiers(Modifiers::COMMAND, Key::PageDown);
    h.run();
    assert_eq!(h.state().editor.layer, 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::PageUp);
    h.run();
    assert_eq!(h.state().editor.layer, 2);
    let offset = h.state().view.offset;
    h.key_press_modifiers(ctrl_shift, Key::ArrowDown);
    h.run();
    assert_eq!(names(&h), ["ground", "walls copy", "walls"]);
    assert_eq!(h.state().editor.layer, 1, "the moved layer stays the current one");
    assert_eq!(h.state().view.offset, offset, "the canvas did not pan");
    h.key_press_modifiers(ctrl_shift, Key::N);
    h.run();
    assert!(h.state().dialogs.new_map.is_none(), "Ctrl+Shift+N is a new layer, not a new map");
    assert_eq!(names(&h), ["ground", "walls copy", "Layer", "walls"]);
    h.get_by_label("Remove layer").click();
    h.run();
    assert_eq!(names(&h), ["ground", "walls copy", "walls"]);
    assert_eq!(h.state().editor.layer, 1);

    // Merge down: the copy's wall lands on the ground.
    h.get_by_label("Merge layer down").click();
    h.run();
    assert_eq!(names(&h), ["ground", "walls"]);
    assert_eq!(h.state().editor.layer, 0);
    assert_eq!(h.state().document.map.tile(0, cell), Some(STANDARD_WALL));

    // What was done saves and reloads (Tiled JSON keeps the collision flag as a layer property).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("layers.tmj");
    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(path.clone())));
    h.run();
    let reloaded = sightline::core::format::load(&path).unwrap().map;
    assert_eq!(reloaded.layers, h.state().document.map.layers);

    // The last layer cannot be removed.
    h.get_by_label("Remove layer").click();
    h.run();
    assert_eq!(names(&h), ["walls"]);
    h.get_by_label("Remove layer").click();
    h.run();
    assert_eq!(names(&h), ["walls"], "a map keeps one layer");

    // Each action was one undo step: new, paint, rename, collision, duplicate, lower, new,
    // remove, merge, remove.
    assert_eq!(h.state().document.edits(), 10);
    for _ in 0..10 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
        assert!(h.state().editor.layer < h.state().document.map.layers.len());
    }
    assert_eq!(h.state().document.map, original);
}

#[test]
fn a_name_being_typed_goes_to_its_layer_when_a_button_then_moves_it() {
    use egui::{Key, Modifiers};
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h.get_by_label("New layer").click();
    h.run();
    h.get_by_label("layer name").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label("layer name").type_text("roof");
    h.run();
    // No Enter: the click on Lower takes the focus, which applies the name, then lowers.
    h.get_by_label("Lower layer").click();
    h.run();
    let names: Vec<&str> = h.state().document.map.layers.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["roof", "ground"]);
    assert_eq!(h.state().editor.layer, 0);
}

#[test]
fn a_layers_opacity_slider_drag_is_one_undo_step() {
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h.get_by_label("layer opacity");
    for opacity in [0.9, 0.7, 0.5] {
        h.state_mut()
            .commands
            .push(Command::Layers(LayerCommand::SetLayerOpacity(StackItem::Layer(LayerRef::Tiles(0)), opacity)));
        h.run();
    }
    assert_eq!(h.state().document.map.layers[0].opacity, 0.5);
    h.get_by_label("ground (50% opacity)");
    assert_eq!(h.state().document.edits(), 1, "a drag is one step");
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(h.state().document.map.layers[0].opacity, 1.0);
}

#[test]
fn saving_over_a_tiled_file_with_what_sightline_does_not_keep_asks_first() {
    use egui::{Key, Modifiers};
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::copy(fixtures.join("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let path = dir.path().join("offset.tmx");
    let original = r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="2" columns="2">
  <image source="tiny.png" width="16" height="8"/>
  <tile id="1"><properties><property name="cost" type="int" propertytype="Terrain" value="2"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">1,2</data></layer>
 <objectgroup id="2" name="o">
 </objectgroup>
</map>"#;
    std::fs::write(&path, original).unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    h.get_by_label_contains("the enum types of tile properties sightline reads");
    h.state_mut()
        .commands
        .push(Command::Layers(LayerCommand::SetLayerVisible(StackItem::Layer(LayerRef::Tiles(0)), false)));
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.get_by_label("Save over offset.tmx?");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original, "nothing written yet");
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.query_by_label("Save over offset.tmx?").is_none());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    assert!(h.state().document.dirty);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.get_by_label("Save anyway").click();
    h.run();
    assert!(!h.state().document.dirty);
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(!written.contains("<text") && written.contains("visible=\"0\""), "{written}");
    // The file is now what sightline holds: the next save does not ask.
    h.state_mut()
        .commands
        .push(Command::Layers(LayerCommand::SetLayerVisible(StackItem::Layer(LayerRef::Tiles(0)), true)));
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(h.query_by_label("Save over offset.tmx?").is_none());
    assert!(!h.state().document.dirty);
}

#[test]
fn a_layers_custom_properties_are_added_edited_removed_and_saved() {
    use sightline::core::PropertyValue;
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h.get_by_label("Custom properties (0)").click();
    h.run();
    // "collision" is the layer's flag, not a custom property: it cannot be added.
    h.get_by_label("new layer ground property name").click();
    h.run();
    h.get_by_label("new layer ground property name").type_text("collision");
    h.run();
    h.get_by_label("add layer ground property").click();
    h.run();
    assert!(h.state().document.map.layers[0].properties.is_empty());
    // A text property (the default type), added with Enter after its name.
    h.get_by_label("new layer ground property name").click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_label("new layer ground property name").type_text("note");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    h.get_by_label("layer ground property note").click();
    h.run();
    h.get_by_label("layer ground property note").type_text("cellar");
    h.run();
    let props = |h: &Harness<'static, SightlineApp>| h.state().document.map.layers[0].properties.clone();
    assert_eq!(props(&h).get("note"), Some(&PropertyValue::String("cellar".into())));
    let undo_steps = h.state().document.edits();
    assert_eq!(undo_steps, 2, "adding is one step and the typing another (one for all its keys)");
    // A bool, chosen in the type list, then ticked.
    h.get_by_label("new layer ground property name").click();
    h.run();
    h.get_by_label("new layer ground property name").type_text("dark");
    h.run();
    h.get_by_label("new layer ground property type").click();
    h.run();
    h.get_by_label("bool").click();
    h.run();
    h.get_by_label("add layer ground property").click();
    h.run();
    assert_eq!(props(&h).get("dark"), Some(&PropertyValue::Bool(false)));
    h.get_by_label("layer ground property dark").click();
    h.run();
    assert_eq!(props(&h).get("dark"), Some(&PropertyValue::Bool(true)));
    h.get_by_label("Custom properties (2)");
    // Saved and read back through Tiled JSON.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("props.tmj");
    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(path.clone())));
    h.run();
    let reloaded = sightline::core::format::load(&path).unwrap().map;
    assert_eq!(reloaded.layers[0].properties, props(&h));
    // Removed, and undone.
    h.get_by_label("remove layer ground property note").click();
    h.run();
    assert_eq!(props(&h).keys().collect::<Vec<_>>(), ["dark"]);
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert!(props(&h).contains_key("note"));
}

#[test]
fn the_map_and_tile_types_have_custom_properties_too() {
    use sightline::core::PropertyValue;
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    let add = |h: &mut Harness<'static, SightlineApp>, owner: &str, name: &str| {
        h.get_by_label(&format!("new {owner} property name")).click();
        h.run();
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.run();
        h.get_by_label(&format!("new {owner} property name")).type_text(name);
        h.run();
        h.get_by_label(&format!("add {owner} property")).click();
        h.run();
    };
    click_menu_item(&mut h, "Edit", "Map properties…");
    assert!(h.state().map_properties_open);
    add(&mut h, "map", "sightline_version");
    assert!(h.state().document.map.properties.is_empty(), "the writer's mark is not a custom property");
    add(&mut h, "map", "author");
    h.get_by_label("map property author").click();
    h.run();
    h.get_by_label("map property author").type_text("Ada");
    h.run();
    assert_eq!(h.state().document.map.properties.get("author"), Some(&PropertyValue::String("Ada".into())));
    let width = h.get_by_label("map property author").rect().width();
    assert!(width >= 130.0, "a text value shows whole, not the grid's minimum column ({width} points)");

    // The window leaves the menu bar free.
    click_menu_item(&mut h, "Edit", "Tile types…");
    let wall = h.state().document.map.tile_named("wall").unwrap();
    h.state_mut().commands.push(Command::Tiles(TileCommand::SelectTile(wall)));
    h.run();
    h.get_by_label("Class and custom properties of wall (the palette's tile)");
    // Its Tiled class, typed in one undo step.
    let undo = h.state().document.edits();
    h.get_by_label("class of wall").click();
    h.run();
    h.get_by_label("class of wall").type_text("Stone");
    h.run();
    assert_eq!(h.state().document.map.tiles[usize::from(wall)].class, "Stone");
    assert_eq!(h.state().document.edits(), undo + 1);
    add(&mut h, "tile wall", "opaque");
    assert!(h.state().document.map.tiles[usize::from(wall)].properties.is_empty(), "a rule is not a custom property");
    add(&mut h, "tile wall", "material");
    assert_eq!(
        h.state().document.map.tiles[usize::from(wall)].properties.get("material"),
        Some(&PropertyValue::String(String::new()))
    );
    // Both are kept in a save (RON, the app's own format) and in Tiled JSON.
    let dir = tempfile::tempdir().unwrap();
    for name in ["props.ron", "props.tmj"] {
        let path = dir.path().join(name);
        sightline::core::format::save(&h.state().document.map, &path).unwrap();
        let back = sightline::core::format::load(&path).unwrap().map;
        assert_eq!(back.properties, h.state().document.map.properties, "{name}");
        assert_eq!(
            back.tiles[usize::from(wall)].properties,
            h.state().document.map.tiles[usize::from(wall)].properties
        );
        assert_eq!(back.tiles[usize::from(wall)].class, "Stone", "{name}");
    }
}

#[test]
fn tiled_colour_file_object_and_class_properties_are_shown_edited_and_saved_with_their_types() {
    use sightline::core::{PropertyValue, Rgba};
    // A map with a property of each of Tiled's types (the same as the formats tests read).
    let (_dir, path) = fixture_copy("typed_properties.tmx");
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    click_menu_item(&mut h, "Edit", "Map properties…");
    // Each value has the editor of its type: a colour button, a path field, an object id.
    h.get_by_label("map property tint");
    h.get_by_label("map property script");
    h.get_by_label("map property target");
    // A class value unfolds into its members, which are edited in the same table.
    assert!(h.query_by_label("map property stats property hp").is_none(), "folded at first");
    h.get_by_label("map property stats").click();
    h.run();
    h.get_by_label("map property stats property hp");
    h.get_by_label("new map property stats property name").click();
    h.run();
    h.get_by_label("new map property stats property name").type_text("level");
    h.run();
    h.get_by_label("add map property stats property").click();
    h.run();
    let props = |h: &Harness<'static, SightlineApp>| h.state().document.map.properties.clone();
    assert_eq!(props(&h)["unset"], PropertyValue::Color(None));
    let PropertyValue::Class { class, members } = &props(&h)["stats"] else { panic!("{:?}", props(&h)) };
    assert_eq!(class, "Stats");
    assert_eq!(members.keys().collect::<Vec<_>>(), ["aura", "hp", "inner", "level"]);
    assert_eq!(h.state().document.edits(), 1, "adding a member is one undo step");
    // A new colour property, chosen in the type list.
    h.get_by_label("new map property name").click();
    h.run();
    h.get_by_label("new map property name").type_text("glow");
    h.run();
    h.get_by_label("new map property type").click();
    h.run();
    h.get_by_label("color").click();
    h.run();
    h.get_by_label("add map property").click();
    h.run();
    assert_eq!(props(&h)["glow"], PropertyValue::Color(Some(Rgba(255, 255, 255, 255))));
    // An unset colour is a button that gives it one.
    h.get_by_label("map property unset").click();
    h.run();
    assert_eq!(props(&h)["unset"], PropertyValue::Color(Some(Rgba(255, 255, 255, 255))));
    // Saved over the file, each keeps its Tiled type (and the colour its alpha).
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    assert!(!h.state().document.dirty, "nothing to ask about: every property is kept");
    let written = std::fs::read_to_string(&path).unwrap();
    for line in [
        r##"<property name="tint" type="color" value="#80ff2000"/>"##,
        r##"<property name="glow" type="color" value="#ffffffff"/>"##,
        r#"<property name="script" type="file" value="scripts/chest.lua"/>"#,
        r#"<property name="target" type="object" value="3"/>"#,
        r#"<property name="stats" type="class" propertytype="Stats">"#,
        r#"<property name="level" value=""/>"#,
    ] {
        assert!(written.contains(line), "{line} in\n{written}");
    }
}

#[test]
fn tiled_enum_and_list_properties_are_edited_in_place_and_saved_with_their_types() {
    use sightline::core::{EnumValue, PropertyValue};
    let (_dir, path) = fixture_copy("typed_properties.tmx");
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    click_menu_item(&mut h, "Edit", "Map properties…");
    let props = |h: &Harness<'static, SightlineApp>| h.state().document.map.properties.clone();
    let direction =
        |name: &str| PropertyValue::Enum { enum_type: "Direction".into(), value: EnumValue::String(name.into()) };
    // An enum value is edited as it is stored (here its name), its enum's name beside it.
    h.get_by_label("Direction");
    h.get_by_label("map property facing").click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_label("map property facing").type_text("south");
    h.run();
    assert_eq!(props(&h)["facing"], direction("south"), "it keeps its enum type");
    // A list unfolds into its items, each edited by its type.
    assert!(h.query_by_label("map property route item 1").is_none(), "folded at first");
    h.get_by_label("map property route").click();
    h.run();
    h.get_by_label("map property route item 1");
    h.get_by_label("map property route item 2");
    // An item of a chosen type is added at the end, moved up, and another removed.
    h.get_by_label("map property route new item type").click();
    h.run();
    h.get_by_label("bool").click();
    h.run();
    h.get_by_label("add map property route item").click();
    h.run();
    let route = |h: &Harness<'static, SightlineApp>| match props(h).remove("route") {
        Some(PropertyValue::List(items)) => items,
        other => panic!("{other:?}"),
    };
    assert_eq!(route(&h), [PropertyValue::Int(4), direction("east"), PropertyValue::Bool(false)]);
    h.get_by_label("map property route item 3").click();
    h.run();
    h.get_by_label("move up map property route item 3").click();
    h.run();
    assert_eq!(route(&h), [PropertyValue::Int(4), PropertyValue::Bool(true), direction("east")]);
    h.get_by_label("remove map property route item 1").click();
    h.run();
    assert_eq!(route(&h), [PropertyValue::Bool(true), direction("east")]);
    let first_up = h.get_by_label("move up map property route item 1");
    assert!(first_up.accesskit_node().is_disabled(), "the first item is first");
    // Each change is one undo step, and undo takes the list back.
    let steps = h.state().document.edits();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(route(&h), [PropertyValue::Int(4), PropertyValue::Bool(true), direction("east")]);
    assert_eq!(h.state().document.edits(), steps - 1);
    // Converting the enum drops its type, as Tiled's Convert To does.
    h.get_by_label("facing").click_secondary();
    h.run();
    h.get_by_label("Convert to").click();
    h.run();
    h.get_by_label("string").click();
    h.run();
    assert_eq!(props(&h)["facing"], PropertyValue::String("south".into()));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(props(&h)["facing"], direction("south"));
    // Saved over the file, as Tiled writes them.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    assert!(!h.state().document.dirty, "nothing to ask about: every property is kept");
    let written = std::fs::read_to_string(&path).unwrap();
    for line in [
        r#"<property name="facing" propertytype="Direction" value="south"/>"#,
        r#"<property name="route" type="list">"#,
        r#"<item type="int" value="4"/>"#,
        r#"<item type="bool" value="true"/>"#,
        r#"<item propertytype="Direction" value="east"/>"#,
    ] {
        assert!(written.contains(line), "{line} in\n{written}");
    }
}

#[test]
fn a_property_is_renamed_and_converted_from_its_names_context_menu() {
    use sightline::core::PropertyValue;
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    let mut properties = sightline::core::Properties::new();
    properties.insert("dark".into(), PropertyValue::Bool(true));
    properties.insert("note".into(), PropertyValue::String("2.6".into()));
    h.state_mut()
        .commands
        .push(Command::Map(MapCommand::SetProperties(sightline::app::PropertiesOwner::Layer(0), properties)));
    h.run();
    h.get_by_label("Custom properties (2)").click();
    h.run();
    let props = |h: &Harness<'static, SightlineApp>| h.state().document.map.layers[0].properties.clone();
    let steps = h.state().document.edits();
    // Rename "dark" to "lit": Enter applies.
    h.get_by_label("dark").click_secondary();
    h.run();
    h.get_by_label("Rename…").click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_label("rename layer ground property dark").type_text("lit");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(props(&h).keys().collect::<Vec<_>>(), ["lit", "note"]);
    assert_eq!(props(&h)["lit"], PropertyValue::Bool(true), "the value goes with the name");
    assert_eq!(h.state().document.edits(), steps + 1, "one undo step");
    // A name in use is refused: Enter keeps the field, Esc keeps the old name.
    h.get_by_label("lit").click_secondary();
    h.run();
    h.get_by_label("Rename…").click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_label("rename layer ground property lit").type_text("note");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    h.get_by_label("rename layer ground property lit");
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(h.query_by_label("rename layer ground property lit").is_none());
    assert_eq!(props(&h).keys().collect::<Vec<_>>(), ["lit", "note"]);
    // Convert the text "2.6" to an int, as Tiled's Convert To does.
    h.get_by_label("note").click_secondary();
    h.run();
    h.get_by_label("Convert to").click();
    h.run();
    h.get_by_label("int").click();
    h.run();
    assert_eq!(props(&h)["note"], PropertyValue::Int(3));
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(props(&h)["note"], PropertyValue::String("2.6".into()));
}

#[test]
fn objects_keep_their_ids_and_an_object_property_is_chosen_from_the_maps_objects() {
    use sightline::core::{Cell, ObjectKind, PropertyValue};
    // The player (id 3), a gate (8) and a lever (11) whose `opens` names the gate; Tiled's
    // next object id is 20.
    let (_dir, path) = fixture_copy("object_ids.tmx");
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    // The lever's cell, selected: its property names the gate; the list offers every object.
    select_for_inspector(&mut h, Cell::new(1, 3));
    h.get_by_label("Custom properties (1)");
    h.get_by_label("object lever property opens").click();
    h.run();
    h.get_by_label("#8 gate (Gate)");
    h.get_by_label("#3 start (player)").click();
    h.run();
    let opens = |h: &Harness<'static, SightlineApp>| {
        let lever = h.state().document.map.objects.iter().find(|o| o.name == "lever").unwrap();
        lever.properties["opens"].clone()
    };
    assert_eq!(opens(&h), PropertyValue::Object(3));
    // A placed object takes the next id; the player start moves and keeps its id.
    h.get_by_label("Object").click();
    h.run();
    click_cell(&mut h, Cell::new(5, 0));
    h.state_mut()
        .commands
        .push(Command::Objects(ObjectCommand::SetObjectChoice(sightline::app::ObjectChoice::PlayerStart)));
    h.run();
    click_cell(&mut h, Cell::new(2, 2));
    let ids: Vec<(u32, Cell)> = h.state().document.map.objects.iter().map(|o| (o.id, o.cell)).collect();
    // The start keeps its place in its layer's order, as a moved object does in Tiled.
    assert_eq!(ids, [(3, Cell::new(2, 2)), (8, Cell::new(4, 2)), (11, Cell::new(1, 3)), (20, Cell::new(5, 0))]);
    assert_eq!(h.state().document.map.objects[0].kind, ObjectKind::PlayerStart);
    // Saved over the file: the ids, the reference and the next id hold.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    let written = std::fs::read_to_string(&path).unwrap();
    for text in [r#"nextobjectid="21""#, r#"<object id="3" name="start""#, r#"name="opens" type="object" value="3""#] {
        assert!(written.contains(text), "{text} in\n{written}");
    }
}

/// Each cell of `layer` as the hex digit of its tile's index in its tileset, a row a line
/// (corners.png: bit 1 sand top-right, 2 bottom-right, 4 bottom-left, 8 top-left).
fn sprite_rows(map: &sightline::core::Map, layer: usize) -> String {
    let mut out = String::new();
    for y in 0..map.height() as i32 {
        for x in 0..map.width() as i32 {
            let t = map.tile(layer, sightline::core::Cell::new(x, y)).unwrap();
            let index = map.tiles[usize::from(t)].sprite.map_or(99, |s| s.index);
            out.push(char::from_digit(index, 16).unwrap_or('?'));
        }
        out.push('\n');
    }
    out
}

/// The app on corners.tmx (all grass; its Wang set has a tile for every mix of grass and sand
/// corners) with the terrain brush on sand, painting whole tiles at size 1 or not.
fn sand_on_corners_tmx(whole_tiles: bool) -> Harness<'static, SightlineApp> {
    let mut h = harness();
    h.state_mut()
        .commands
        .push(Command::File(FileCommand::Open(Path::new("tests/fixtures/corners.tmx").to_path_buf())));
    h.run();
    h.get_by_label("terrain sand").click();
    h.run();
    if whole_tiles {
        h.get_by_label("Whole tiles").click();
        h.run();
    }
    h
}

#[test]
fn the_terrain_brush_paints_a_terrain_and_the_tiles_around_join_it() {
    use sightline::app::Tool;
    use sightline::core::Cell;
    // Whole tiles at size 1 (Tiled's brush paints a corner: the next test).
    let mut h = sand_on_corners_tmx(true);
    assert_eq!(h.state().editor.tool, Tool::Terrain);
    h.get_by_label("terrain sand (ground)");
    let undo = h.state().document.edits();
    // Hovering shows the tiles a click puts, transitions included.
    h.hover_at(cell_centre(&h, Cell::new(2, 1)));
    h.run();
    let mut previewed = h.state().document.map.clone();
    assert_eq!(h.state().previewed_tiles().len(), 9);
    for (cell, tile, flip) in h.state().previewed_tiles() {
        previewed.set_flipped_tile(0, cell, tile, flip);
    }
    click_cell(&mut h, Cell::new(2, 1));
    assert_eq!(sprite_rows(&previewed, 0), sprite_rows(&h.state().document.map, 0));
    assert_eq!(
        sprite_rows(&h.state().document.map, 0),
        "026400\n\
         03fc00\n\
         019800\n\
         000000\n"
    );
    // A drag along the row widens the patch; the stroke is one undo step.
    drag_through(&mut h, &[Cell::new(3, 1), Cell::new(4, 1)]);
    assert_eq!(
        sprite_rows(&h.state().document.map, 0),
        "026664\n\
         03fffc\n\
         019998\n\
         000000\n"
    );
    assert_eq!(h.state().document.edits(), undo + 2);
    // Grass painted in the middle of the patch splits it in two.
    h.get_by_label("terrain grass").click();
    h.run();
    click_cell(&mut h, Cell::new(3, 1));
    assert_eq!(
        sprite_rows(&h.state().document.map, 0),
        "024024\n\
         03c03c\n\
         018018\n\
         000000\n"
    );
    for expected in ["03fffc", "03fc00"] {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        h.run();
        assert_eq!(sprite_rows(&h.state().document.map, 0).lines().nth(1), Some(expected));
    }
}

#[test]
fn the_terrain_brush_lays_its_transitions_only_inside_the_selection() {
    use sightline::core::Cell;
    let mut h = sand_on_corners_tmx(true);
    // Columns 1 and 2 selected; the brush's sand patch and its rim would reach column 3.
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(1, 0), Cell::new(2, 3)]);
    h.get_by_label("Terrain").click();
    h.run();
    h.hover_at(cell_centre(&h, Cell::new(2, 1)));
    h.run();
    assert_eq!(h.state().previewed_tiles().len(), 6, "the preview shows what lands: 9 tiles less column 3");
    click_cell(&mut h, Cell::new(2, 1));
    assert_eq!(
        sprite_rows(&h.state().document.map, 0),
        "026000\n\
         03f000\n\
         019000\n\
         000000\n"
    );
}

#[test]
fn the_terrain_brush_at_size_one_paints_the_corner_nearest_the_pointer_as_tileds_does() {
    use sightline::core::Cell;
    use sightline::core::edit::terrain::Part;
    let mut h = sand_on_corners_tmx(false);
    let undo = h.state().document.edits();
    // Just inside cell (3, 2), by its top-left corner: the corner the four cells share.
    let near_corner = |h: &Harness<'static, SightlineApp>, x, y| {
        h.state().view.screen_from_grid(Cell::new(x, y)) + egui::vec2(2.0, 2.0)
    };
    let p = near_corner(&h, 3, 2);
    h.hover_at(p);
    h.run();
    h.run();
    assert_eq!(h.state().editor.terrain_spot, Some(Part::Corner(3, 2)));
    assert_eq!(h.state().previewed_tiles().len(), 4, "the four cells that meet there");
    h.drag_at(p);
    h.run();
    h.drop_at(p);
    h.run();
    // corners.png: bit 1 sand top-right, 2 bottom-right, 4 bottom-left, 8 top-left.
    assert_eq!(
        sprite_rows(&h.state().document.map, 0),
        "000000\n\
         002400\n\
         001800\n\
         000000\n"
    );
    // A drag along the row of corners paints each corner it passes, as one undo step, the
    // corners it jumps over too.
    h.hover_at(p);
    h.run();
    h.drag_at(p);
    h.run();
    h.hover_at(near_corner(&h, 5, 2));
    h.run();
    h.run();
    h.drop_at(near_corner(&h, 5, 2));
    h.run();
    assert_eq!(
        sprite_rows(&h.state().document.map, 0),
        "000000\n\
         002664\n\
         001998\n\
         000000\n"
    );
    assert_eq!(h.state().document.edits(), undo + 2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(sprite_rows(&h.state().document.map, 0).lines().nth(1), Some("002400"));
}

#[test]
fn the_fill_lays_a_terrain_over_a_region_and_fits_its_rim() {
    use sightline::core::Cell;
    let mut h = sand_on_corners_tmx(true);
    // A column of sand splits the grass.
    drag_through(&mut h, &[Cell::new(3, 0), Cell::new(3, 1), Cell::new(3, 2), Cell::new(3, 3)]);
    assert_eq!(sprite_rows(&h.state().document.map, 0), "003fc0\n".repeat(4));
    // The fill, in terrain mode, lays sand on the grass left of it; the cells between join up.
    h.get_by_label("Fill").click();
    h.run();
    h.get_by_label("fill with terrain").click();
    h.run();
    click_cell(&mut h, Cell::new(0, 0));
    assert_eq!(sprite_rows(&h.state().document.map, 0), "ffffc0\n".repeat(4));
}

/// Right-clicks a cell (the object tool removes what stands there).
fn right_click_cell(h: &mut Harness<'static, SightlineApp>, cell: sightline::core::Cell) {
    let p = cell_centre(h, cell);
    h.hover_at(p);
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: p,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.run();
    }
}

/// The Layers panel's list, top first, as its rows read.
fn layer_rows(h: &Harness<'static, SightlineApp>) -> Vec<String> {
    let map = &h.state().document.map;
    map.stack()
        .into_iter()
        .rev()
        .map(|r| match r {
            LayerRef::Tiles(i) => map.layers[i].name.clone(),
            LayerRef::Objects(j) => {
                let n = map.objects.iter().filter(|o| o.layer == j).count();
                format!("{} ({n})", map.object_layers[j].name)
            }
        })
        .collect()
}

#[test]
fn object_layers_are_listed_among_the_tile_layers_and_the_object_tool_places_on_the_current_one() {
    use sightline::core::Cell;
    let (_dir, path) = fixture_copy("object_layers.tmx");
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    // The panel lists both kinds, top first, object layers with their object count and flags.
    for label in [
        "zones (1 object)",
        "notes (0 objects)",
        "roofs",
        "spawns (2 objects, locked, 50% opacity)",
        "ground",
        "under (1 object)",
    ] {
        h.get_by_label(label);
    }
    assert_eq!(layer_rows(&h), ["zones (1)", "notes (0)", "roofs", "spawns (2)", "ground", "under (1)"]);

    // On an object layer the brush paints nothing, and says why.
    h.get_by_label("notes (0 objects)").click();
    h.run();
    h.get_by_label("object layer: notes");
    h.get_by_label("Brush").click();
    h.run();
    let before = h.state().document.map.clone();
    click_cell(&mut h, Cell::new(2, 2));
    assert_eq!(h.state().document.map, before);
    let notice = h.state().notice.clone().unwrap_or_default();
    assert!(notice.contains("\"notes\" is an object layer"), "{notice}");

    // The object tool places on the current object layer, and not on a locked one.
    h.get_by_label("Object").click();
    h.run();
    click_cell(&mut h, Cell::new(2, 2));
    assert_eq!(layer_rows(&h), ["zones (1)", "notes (1)", "roofs", "spawns (2)", "ground", "under (1)"]);
    h.get_by_label("spawns (2 objects, locked, 50% opacity)").click();
    h.run();
    click_cell(&mut h, Cell::new(3, 2));
    assert_eq!(layer_rows(&h)[3], "spawns (2)");
    let notice = h.state().notice.clone().unwrap_or_default();
    assert!(notice.contains("\"spawns\" is locked"), "{notice}");
    // Right-click removes only what the tools may change: the hidden, locked layer's goblin stays.
    right_click_cell(&mut h, Cell::new(2, 1));
    assert_eq!(layer_rows(&h)[3], "spawns (2)");

    // Raise goes over one layer at a time; undo puts it back.
    h.get_by_label("notes (1 object)").click();
    h.run();
    h.get_by_label("Raise layer").click();
    h.run();
    assert_eq!(layer_rows(&h), ["notes (1)", "zones (1)", "roofs", "spawns (2)", "ground", "under (1)"]);
    h.get_by_label("Lower layer").click();
    h.run();
    h.get_by_label("Lower layer").click();
    h.run();
    assert_eq!(layer_rows(&h), ["zones (1)", "roofs", "notes (1)", "spawns (2)", "ground", "under (1)"]);
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(layer_rows(&h)[1], "notes (1)");

    // A new object layer goes above the current one; removing it takes its objects, undo brings
    // them back.
    h.get_by_label("New object layer").click();
    h.run();
    assert_eq!(layer_rows(&h)[1], "Objects (0)");
    click_cell(&mut h, Cell::new(4, 3));
    assert_eq!(layer_rows(&h)[1], "Objects (1)");
    let objects = h.state().document.map.objects.len();
    h.get_by_label("Remove layer").click();
    h.run();
    assert_eq!(layer_rows(&h)[1], "notes (1)");
    assert_eq!(h.state().document.map.objects.len(), objects - 1);
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(layer_rows(&h)[1], "Objects (1)");

    // A hidden layer's objects are not drawn, nor removed by a right-click.
    h.get_by_label("show zones").click();
    h.run();
    assert!(!h.state().document.map.object_layers.iter().find(|l| l.name == "zones").unwrap().visible);
    right_click_cell(&mut h, Cell::new(5, 3));
    assert_eq!(layer_rows(&h)[0], "zones (1)");

    // An object layer's colour (Tiled's default grey when first ticked), one undo step.
    h.get_by_label("zones (1 object)").click();
    h.run();
    h.get_by_label("object layer colour").click();
    h.run();
    let zones = |h: &Harness<'static, SightlineApp>| {
        h.state().document.map.object_layers.iter().find(|l| l.name == "zones").unwrap().color
    };
    assert_eq!(zones(&h), Some(sightline::core::Rgba(160, 160, 164, 255)));
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(zones(&h), None);
    h.state_mut().commands.push(Command::History(HistoryCommand::Redo));
    h.run();
    // Its drawing order (Tiled's Top Down by default), Manual chosen in one step.
    use sightline::core::model::map::DrawOrder;
    let order = |h: &Harness<'static, SightlineApp>| {
        h.state().document.map.object_layers.iter().find(|l| l.name == "zones").unwrap().draw_order
    };
    assert_eq!(order(&h), DrawOrder::TopDown);
    h.get_by_label("object layer drawing order").click();
    h.run();
    h.get_by_label("Manual").click();
    h.run();
    assert_eq!(order(&h), DrawOrder::Index);
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(order(&h), DrawOrder::TopDown);
    h.state_mut().commands.push(Command::History(HistoryCommand::Redo));
    h.run();

    // Saved and opened again, the stack is the same.
    let stack = layer_rows(&h);
    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(path.clone())));
    h.run();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    assert_eq!(layer_rows(&h), stack);
    assert_eq!(zones(&h), Some(sightline::core::Rgba(160, 160, 164, 255)));
    assert_eq!(order(&h), DrawOrder::Index);
}

#[test]
fn the_object_tool_drags_an_object_to_another_cell_keeping_its_id_in_one_undo_step() {
    use sightline::core::Cell;
    let (_dir, path) = fixture_copy("object_ids.tmx");
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path)));
    h.run();
    h.get_by_label("Object").click();
    h.run();
    let gate = |h: &Harness<'static, SightlineApp>| {
        let o = h.state().document.map.objects.iter().find(|o| o.name == "gate").unwrap().clone();
        (o.id, o.cell)
    };
    assert_eq!(gate(&h), (8, Cell::new(4, 2)));
    let objects = h.state().document.map.objects.len();
    let steps = h.state().document.edits();
    drag_through(&mut h, &[Cell::new(4, 2), Cell::new(5, 2), Cell::new(5, 3)]);
    // Moved, not copied: the lever's `opens` still names it.
    assert_eq!(gate(&h), (8, Cell::new(5, 3)));
    assert_eq!(h.state().document.map.objects.len(), objects);
    assert_eq!(h.state().document.edits(), steps + 1, "one undo step");
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(gate(&h), (8, Cell::new(4, 2)));
    // A drag from a cell with no object moves nothing and leaves no step.
    let before = h.state().document.map.clone();
    let steps = h.state().document.edits();
    drag_through(&mut h, &[Cell::new(2, 1), Cell::new(3, 1)]);
    assert_eq!(h.state().document.map, before);
    assert_eq!(h.state().document.edits(), steps);
    // An undo in the middle of a drag ends the move: a brush stroke after it paints and moves
    // no object.
    let p = cell_centre(&h, Cell::new(4, 2));
    h.hover_at(p);
    h.run();
    h.drag_at(p);
    h.run();
    let q = cell_centre(&h, Cell::new(5, 2));
    h.hover_at(q);
    h.run();
    assert_eq!(gate(&h).1, Cell::new(5, 2));
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    h.drop_at(q);
    h.run();
    assert_eq!(gate(&h).1, Cell::new(4, 2));
    // The pointer on the map: the inspector shows the cell under it, not the moved object's
    // layers (whose names the layers panel shows too).
    h.hover_at(p);
    h.run();
    h.get_by_label("ground").click();
    h.get_by_label("Brush").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 3), Cell::new(1, 3)]);
    assert_eq!(gate(&h).1, Cell::new(4, 2));
    assert_eq!(h.state().document.map.layers[0].cells[3 * 6 + 1], h.state().editor.tile);
}

/// groups.tmx in the Layers panel: groups over what they hold, indented; a hidden group greys
/// and hides its layers; a locked group refuses paint, saying which group; a group is current
/// like a layer and the tools then paint nothing; Group, Ungroup and Raise work on groups as in
/// Tiled, each one undo step.
#[test]
fn the_layers_panel_lists_groups_and_edits_them_as_tiled_does() {
    use egui::{Key, Modifiers};
    use sightline::core::Cell;
    let (dir, path) = fixture_copy("groups.tmx");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::copy(fixtures.join("tiny.tsx"), dir.path().join("tiny.tsx")).unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    let tree = |h: &Harness<'static, SightlineApp>| -> Vec<String> {
        let map = &h.state().document.map;
        sightline::core::model::layers::listed(map)
            .into_iter()
            .map(|(item, depth)| {
                let name = sightline::core::model::layers::item_name(map, item).unwrap_or_default();
                let name = if matches!(item, StackItem::Group(_)) { format!("{name}/") } else { name.to_owned() };
                format!("{}{name}", "  ".repeat(depth))
            })
            .collect()
    };
    assert_eq!(tree(&h), ["roof", "forest/", "  empty/", "  canopy/", "    birds", "    leaves", "  trunks", "ground"]);
    for label in [
        "forest (3 layers, locked, 50% opacity)",
        "canopy (2 layers)",
        "empty (0 layers)",
        "birds (1 object)",
        "leaves (50% opacity)",
    ] {
        h.get_by_label(label);
    }
    let x_of = |h: &Harness<'static, SightlineApp>, label: &str| h.get_by_label(label).rect().min.x;
    assert!(x_of(&h, "leaves (50% opacity)") > x_of(&h, "canopy (2 layers)"), "indented under its group");
    assert!(x_of(&h, "canopy (2 layers)") > x_of(&h, "roof"));
    // Folding a group leaves out what it holds, until it is unfolded.
    h.get_by_label("fold forest").click();
    h.run();
    assert!(h.query_by_label("trunks").is_none() && h.query_by_label("canopy (2 layers)").is_none());
    h.get_by_label("roof");
    h.get_by_label("ground");
    h.get_by_label("unfold forest").click();
    h.run();
    h.get_by_label("trunks");

    // The trunks are in the locked forest: the brush refuses them and names the group.
    h.get_by_label("trunks").click();
    h.run();
    h.get_by_label("Brush").click();
    h.run();
    let before = h.state().document.map.clone();
    click_cell(&mut h, Cell::new(0, 0));
    assert_eq!(h.state().document.map, before);
    let notice = h.state().notice.clone().unwrap_or_default();
    assert!(notice.contains("in group \"forest\", which is locked"), "{notice}");
    h.get_by_label("lock forest").click();
    h.run();
    assert!(!h.state().document.map.groups[0].locked);
    click_cell(&mut h, Cell::new(0, 0));
    assert_ne!(h.state().document.map.layers[1].cells, before.layers[1].cells, "painted once unlocked");

    // A group is current like a layer; the brush then paints nothing, and says why.
    h.get_by_label("canopy (2 layers)").click();
    h.run();
    h.get_by_label("layer group: canopy");
    let before = h.state().document.map.clone();
    click_cell(&mut h, Cell::new(1, 1));
    assert_eq!(h.state().document.map, before);
    assert!(h.state().notice.clone().unwrap_or_default().contains("\"canopy\" is a layer group"));
    // Showing it shows its layers; a group's opacity is its own.
    assert!(!h.state().document.map.look(LayerRef::Tiles(2)).shown);
    h.get_by_label("show canopy").click();
    h.run();
    assert!(h.state().document.map.look(LayerRef::Tiles(2)).shown);

    // Ctrl+Shift+G ungroups the canopy: its layers stay, in the forest.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::G);
    h.run();
    assert_eq!(tree(&h), ["roof", "forest/", "  empty/", "  birds", "  leaves", "  trunks", "ground"]);
    // Raising the birds takes them into the empty group above them, at its bottom; raising
    // them again, out of it; then out of the forest.
    h.get_by_label("birds (1 object)").click();
    h.run();
    h.get_by_label("Raise layer").click();
    h.run();
    assert_eq!(tree(&h), ["roof", "forest/", "  empty/", "    birds", "  leaves", "  trunks", "ground"]);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::ArrowUp);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::ArrowUp);
    h.run();
    assert_eq!(tree(&h), ["roof", "birds", "forest/", "  empty/", "  leaves", "  trunks", "ground"]);
    // Ctrl+G puts the current layer in a new group, which becomes current.
    h.key_press_modifiers(Modifiers::COMMAND, Key::G);
    h.run();
    assert_eq!(tree(&h)[..3], ["roof", "Group/", "  birds"]);
    h.get_by_label("layer group: Group");
    // Each was one undo step: five undos take the map back to before the ungrouping, with the
    // canopy shown; a sixth hides it again.
    for _ in 0..5 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
    }
    assert_eq!(tree(&h), ["roof", "forest/", "  empty/", "  canopy/", "    birds", "    leaves", "  trunks", "ground"]);
    assert!(h.state().document.map.groups[1].visible);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(!h.state().document.map.groups[1].visible, "the canopy hidden again");

    // Saved and opened again, the groups are as they were.
    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(dir.path().join("again.tmx"))));
    h.run();
    let again = sightline::core::format::load(&dir.path().join("again.tmx")).unwrap().map;
    assert_eq!(again.groups, h.state().document.map.groups);
}

/// The Layers panel edits a tile layer's and a group's tint, offset and parallax, as Tiled's
/// properties do; a drag's many changes are one undo step, and the edits are saved.
#[test]
fn a_layers_and_a_groups_tint_offset_and_parallax_are_edited_in_the_panel() {
    use egui::{Key, Modifiers};
    use sightline::app::DrawnLook;
    use sightline::core::Rgba;
    let (dir, path) = fixture_copy("groups.tmx");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::copy(fixtures.join("tiny.tsx"), dir.path().join("tiny.tsx")).unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    // The roof (tile layer 3): tint on, white to start with.
    h.get_by_label("roof").click();
    h.run();
    h.get_by_label("layer tint").click();
    h.run();
    assert_eq!(h.state().document.map.layers[3].tint, Some(Rgba(255, 255, 255, 255)));
    h.get_by_label("layer tint colour");
    // Typed into the offset's x.
    h.get_by_label("layer offset x").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("layer offset x").type_text("12");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().document.map.layers[3].offset, [12.0, 0.0]);
    // An object layer has the same editors: the birds' offset y typed.
    h.get_by_label("birds (1 object)").click();
    h.run();
    h.get_by_label("layer offset y").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("layer offset y").type_text("-8");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().document.map.object_layers[0].offset, [0.0, -8.0]);
    // The forest group: its parallax dragged in three steps is one undo step.
    h.get_by_label("forest (3 layers, locked, 50% opacity)").click();
    h.run();
    h.get_by_label("layer parallax y");
    let forest = StackItem::Group(0);
    for y in [0.9, 0.8, 0.7] {
        let look = DrawnLook { tint: Some(Rgba(255, 128, 0, 255)), offset: [4.0, -2.0], parallax: [1.0, y] };
        h.state_mut().commands.push(Command::Layers(LayerCommand::SetLayerLook(forest, look)));
        h.run();
    }
    assert_eq!(h.state().document.map.groups[0].parallax, [1.0, 0.7]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().document.map.groups[0].parallax, [1.0, 1.0], "the drag undone at once");
    assert_eq!(h.state().document.map.layers[3].offset, [12.0, 0.0], "the roof's edit is another step");
    // Saved and read back.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let again = sightline::core::format::load(&path).unwrap().map;
    assert_eq!((again.layers[3].tint, again.layers[3].offset), (Some(Rgba(255, 255, 255, 255)), [12.0, 0.0]));
    assert_eq!(again.object_layers[0].offset, [0.0, -8.0]);
}

/// pillars.ron with two new tile layers over its ground, made in the Layers panel: top first,
/// objects, roof, trees, ground.
fn pillars_with_trees_and_roof() -> Harness<'static, SightlineApp> {
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    for name in ["trees", "roof"] {
        h.get_by_label("New layer").click();
        h.run();
        let current = h.state().editor.current_item();
        h.state_mut().commands.push(Command::Layers(LayerCommand::RenameLayer(current, name.into())));
        h.run();
    }
    h
}

/// Layers are numbered in stack order, so undoing a move, or moving a group, renumbers them:
/// the tools must stay on the layer the user chose, or the next stroke lands on another.
#[test]
fn the_current_layer_stays_itself_when_undo_or_a_group_moving_renumbers_the_layers() {
    use sightline::core::Cell;
    let mut h = pillars_with_trees_and_roof();
    let current_name = |h: &Harness<'static, SightlineApp>| {
        let state = h.state();
        state.document.map.layers[state.editor.layer].name.clone()
    };
    h.get_by_label("trees").click();
    h.run();
    assert_eq!(layer_rows(&h), ["objects (3)", "roof", "trees", "ground"]);

    // Raised, then the raise undone: trees is back under roof, and still the current layer;
    // redone and undone again, the same.
    h.get_by_label("Raise layer").click();
    h.run();
    assert_eq!(layer_rows(&h), ["objects (3)", "trees", "roof", "ground"]);
    for (command, rows) in [
        (Command::History(HistoryCommand::Undo), ["objects (3)", "roof", "trees", "ground"]),
        (Command::History(HistoryCommand::Redo), ["objects (3)", "trees", "roof", "ground"]),
        (Command::History(HistoryCommand::Undo), ["objects (3)", "roof", "trees", "ground"]),
    ] {
        h.state_mut().commands.push(command);
        h.run();
        assert_eq!(layer_rows(&h), rows);
        assert_eq!(current_name(&h), "trees");
        h.get_by_label("layer: trees");
    }
    // So the brush paints trees, not roof.
    h.get_by_label("Brush").click();
    h.run();
    let at = 2 * h.state().document.map.width() as usize + 2;
    let roof_before = h.state().document.map.layers[2].cells[at];
    drag_through(&mut h, &[Cell::new(2, 2)]);
    let map = &h.state().document.map;
    assert_eq!((map.layers[1].cells[at], map.layers[2].cells[at]), (h.state().editor.tile, roof_before));

    // A group raised over roof renumbers trees inside it: the tools keep trees.
    h.state_mut().commands.push(Command::Layers(LayerCommand::GroupLayer(StackItem::Layer(LayerRef::Tiles(1)))));
    h.run();
    h.get_by_label("layer group: Group");
    assert_eq!(current_name(&h), "trees");
    h.get_by_label("Raise layer").click();
    h.run();
    let map = &h.state().document.map;
    assert_eq!(map.layers.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), ["ground", "roof", "trees"]);
    assert_eq!(current_name(&h), "trees");
    // Undone: the group is the current item still, and trees the layer its tools go back to.
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    h.get_by_label("layer group: Group");
    assert_eq!(current_name(&h), "trees");
    assert_eq!(h.state().document.map.layers[1].name, "trees");
}

/// Drags a Layers panel row by its name to `to`, as a hand would.
fn drag_row(h: &mut Harness<'static, SightlineApp>, name: &str, to: egui::Pos2) {
    let from = h.get_by_label(name).rect().center();
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    h.hover_at(egui::pos2(from.x, (from.y + to.y) / 2.0));
    h.run();
    h.hover_at(to);
    h.run();
    h.drop_at(to);
    h.run();
}

#[test]
fn a_layer_dragged_by_its_name_drops_above_below_or_into_a_group_in_one_undo_step() {
    let mut h = pillars_with_trees_and_roof();
    assert_eq!(layer_rows(&h), ["objects (3)", "roof", "trees", "ground"]);
    let upper_half = |h: &Harness<'static, SightlineApp>, name: &str| {
        let r = h.get_by_label(name).rect();
        egui::pos2(r.center().x, r.top() + 2.0)
    };
    let lower_half = |h: &Harness<'static, SightlineApp>, name: &str| {
        let r = h.get_by_label(name).rect();
        egui::pos2(r.center().x, r.bottom() - 2.0)
    };

    // Ground, dropped on roof's upper half, goes just above roof: one step, and it is current.
    let steps = h.state().document.edits();
    let to = upper_half(&h, "roof");
    drag_row(&mut h, "ground", to);
    assert_eq!(layer_rows(&h), ["objects (3)", "ground", "roof", "trees"]);
    assert_eq!(h.state().document.edits(), steps + 1);
    h.get_by_label("layer: ground");
    // On the lower half of the object layer's row: just below it, where it is. Nothing changes.
    let to = lower_half(&h, "objects (3 objects)");
    drag_row(&mut h, "ground", to);
    assert_eq!(layer_rows(&h), ["objects (3)", "ground", "roof", "trees"]);
    assert_eq!(h.state().document.edits(), steps + 1, "a drop where it was is no step");

    // Into an open group, on its row's lower half: at its top. The group cannot go into itself.
    h.state_mut().commands.push(Command::Layers(LayerCommand::GroupLayer(StackItem::Layer(LayerRef::Tiles(0)))));
    h.run();
    let to = lower_half(&h, "Group (1 layer)");
    drag_row(&mut h, "roof", to);
    let map = &h.state().document.map;
    let group = &map.groups[0];
    let held: Vec<&str> = map.stack()[group.start..group.end]
        .iter()
        .map(|r| match *r {
            LayerRef::Tiles(i) => map.layers[i].name.as_str(),
            LayerRef::Objects(j) => map.object_layers[j].name.as_str(),
        })
        .collect();
    assert_eq!(held, ["trees", "roof"], "bottom to top");
    let before = h.state().document.map.clone();
    let to = lower_half(&h, "roof");
    drag_row(&mut h, "Group (2 layers)", to);
    assert_eq!(h.state().document.map, before);
    // Undo takes the drops back one at a time.
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(h.state().document.map.groups[0].end - h.state().document.map.groups[0].start, 1);

    // Just under the list, below the open group's last layer: at the bottom, outside the group
    // (its last row's lower half would keep it inside).
    assert_eq!(layer_rows(&h), ["objects (3)", "ground", "roof", "trees"]);
    let last = h.get_by_label("trees").rect();
    let to = egui::pos2(last.center().x, last.bottom() + last.height() / 2.0);
    drag_row(&mut h, "roof", to);
    assert_eq!(layer_rows(&h), ["objects (3)", "ground", "trees", "roof"]);
    let map = &h.state().document.map;
    assert_eq!(map.groups[0].end - map.groups[0].start, 1, "the group still holds only trees");
    assert_eq!(map.groups_around(StackItem::Layer(map.stack()[0])), Vec::<usize>::new(), "roof is in no group");
}

#[test]
fn a_template_instance_says_what_it_sets_itself_and_is_reset_or_detached_in_the_inspector() {
    use egui::{Key, Modifiers};
    use sightline::core::Cell;
    let (dir, path) = fixture_copy("tiny.tsx");
    std::fs::create_dir(dir.path().join("templates")).unwrap();
    std::fs::write(
        dir.path().join("templates/marker.tx"),
        r#"<?xml version="1.0" encoding="UTF-8"?>
<template>
 <object name="marker" type="Spawn">
  <properties><property name="wave" type="int" value="1"/></properties>
  <point/>
 </object>
</template>
"#,
    )
    .unwrap();
    let path = path.with_file_name("templated.tmx");
    std::fs::write(
        &path,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="3" height="3" tilewidth="8" tileheight="8" infinite="0" nextobjectid="2">
 <tileset firstgid="1" source="tiny.tsx"/>
 <layer id="1" name="ground" width="3" height="3"><data encoding="csv">1,1,1,1,1,1,1,1,1</data></layer>
 <objectgroup id="2" name="things">
  <object id="1" template="templates/marker.tx" x="12" y="12"/>
 </objectgroup>
</map>
"#,
    )
    .unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    select_for_inspector(&mut h, Cell::new(1, 1));
    // The instance names its template, and has all of its values.
    h.get_by_label("instance of marker.tx");
    h.get_by_label_contains("all the template's values");
    assert!(h.get_by_label("Reset to template").accesskit_node().is_disabled(), "nothing to reset");
    // Renamed, it says so, and a save writes the name beside the link, and nothing else.
    h.get_by_label("name of Spawn").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("name of Spawn").type_text("wave two");
    h.run();
    h.get_by_label_contains("its own: name");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(
        written.contains(r#"<object id="1" template="templates/marker.tx" name="wave two" x="12" y="12"/>"#),
        "{written}"
    );
    let object = |h: &Harness<'static, SightlineApp>| h.state().document.map.objects[0].clone();
    // Hidden, it is not drawn, and that is its own too.
    h.get_by_label("visible Spawn").click();
    h.run();
    assert!(!object(&h).visible);
    h.get_by_label_contains("its own: name, visible");
    // Reset takes the template's name and visibility back; Detach cuts the link, and undo
    // restores it.
    h.get_by_label("Reset to template").click();
    h.run();
    assert_eq!((object(&h).name.as_str(), object(&h).visible), ("marker", true));
    h.get_by_label_contains("all the template's values");
    h.get_by_label("Detach from template").click();
    h.run();
    assert!(object(&h).template.is_none());
    assert!(h.query_by_label("instance of marker.tx").is_none());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(object(&h).template.is_some(), "undone");
    h.get_by_label("Detach from template").click();
    h.run();
    // Detached, the object is written whole: its values are its own now.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(!written.contains("template="), "{written}");
    assert!(written.contains(r#"<object id="1" name="marker" type="Spawn" x="12" y="12">"#), "{written}");
    assert!(written.contains(r#"<property name="wave" type="int" value="1"/>"#), "{written}");
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
    assert_eq!(h.state().notice, None);
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
    let notice = h.state().notice.clone().unwrap_or_default();
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
    let notice = h.state().notice.clone().unwrap_or_default();
    assert!(notice.starts_with("saved tileset file ") && notice.contains("tiny.tsx"), "{notice}");
    assert!(h.get_by_label("Save tileset").accesskit_node().is_disabled(), "the file holds it now");
    // The map's save refers to the file, which has the change.
    h.state_mut().commands.push(Command::File(FileCommand::Save));
    h.run();
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains(r#"<tileset firstgid="1" source="tiny.tsx"/>"#), "{saved}");
    assert_eq!(h.state().notice, None);
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

/// Opens an ASCII map written to a temporary folder (kept alive by the returned guard).
fn open_ascii(h: &mut Harness<'static, SightlineApp>, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rooms.txt");
    std::fs::write(&path, text).unwrap();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path)));
    h.run();
    dir
}

#[test]
fn the_magic_wand_selects_like_tiles_keys_combine_picks_and_painting_stays_inside() {
    use common::{drag_through_holding, glyph_rows, selection_rows};
    use egui::Modifiers;
    use sightline::core::Cell;
    let mut h = harness();
    let _dir = open_ascii(&mut h, "...#...\n...#...\n####...\n.......\n");
    // A click with the magic wand: the floor joined to the cell, not the floor past the walls.
    h.get_by_label("Magic wand").click();
    h.run();
    click_cell(&mut h, Cell::new(0, 0));
    assert_eq!(selection_rows(h.state()), ["###....", "###....", ".......", "......."]);
    h.get_by_label("selected 6 cells in 3 × 2 from 0, 0");
    assert!(!h.state().document.dirty, "selecting is not an edit");
    // The brush paints water across the row, but only inside the selection.
    h.get_by_label("~  water").click();
    h.get_by_label("Brush").click();
    h.run();
    drag_through(&mut h, &(0..7).map(|x| Cell::new(x, 1)).collect::<Vec<_>>());
    assert_eq!(glyph_rows(&h.state().document.map, 0), ["...#...", "~~~#...", "####...", "......."]);
    // Shift adds the floor beyond; Ctrl takes the bottom row's region away again.
    h.get_by_label("Magic wand").click();
    h.run();
    drag_through_holding(&mut h, &[Cell::new(4, 0)], Modifiers::SHIFT);
    assert_eq!(selection_rows(h.state()), ["###.###", "###.###", "....###", "#######"]);
    drag_through_holding(&mut h, &[Cell::new(0, 3)], Modifiers::COMMAND);
    assert_eq!(selection_rows(h.state()), ["###....", "###....", ".......", "......."]);
    // A drag from floor onto wall takes both tiles in: everything but the water joins up.
    h.get_by_label("selection mode").click();
    h.run();
    h.get_by_label("replace").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(0, 2)]);
    assert_eq!(selection_rows(h.state()), ["#######", "...####", "#######", "#######"]);
    // Esc drops it: the tools paint anywhere again.
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(h.state().editor.selection.is_none());
    assert!(h.query_by_label_contains("selected 6 cells").is_none());
}

#[test]
fn same_tile_invert_copy_and_crop_to_selection() {
    use common::selection_rows;
    use sightline::core::Cell;
    use sightline::core::model::tile::{EMPTY, STANDARD_FLOOR};
    let mut h = harness();
    let _dir = open_ascii(&mut h, "#######\n#..#..#\n#..#..#\n#######\n");
    // Same tile: every wall, joined or not.
    h.get_by_label("Same tile").click();
    h.run();
    click_cell(&mut h, Cell::new(3, 1));
    assert_eq!(selection_rows(h.state()), ["#######", "#..#..#", "#..#..#", "#######"]);
    // Ctrl+I: every floor cell instead. Ctrl+C copies their shape: the wall between is empty.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::I);
    h.run();
    assert_eq!(selection_rows(h.state()), [".......", ".##.##.", ".##.##.", "......."]);
    h.state_mut().commands.push(Command::Selection(SelectionCommand::Copy));
    h.run();
    let stamp = h.state().editor.clipboard.clone().unwrap();
    let (f, e) = (STANDARD_FLOOR, EMPTY);
    assert_eq!((stamp.width, stamp.height), (5, 2));
    assert_eq!(stamp.cells, [f, f, e, f, f, f, f, e, f, f]);
    // Crop to selection: the map is the selection's bounds, the selection moves with it.
    click_menu_item(&mut h, "Edit", "Crop to selection");
    h.get_by_label("5 × 2");
    assert_eq!(common::glyph_rows(&h.state().document.map, 0), ["..#..", "..#.."]);
    assert_eq!(selection_rows(h.state()), ["##.##", "##.##"]);
    // One undo step brings the whole map back.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    h.get_by_label("7 × 4");
    // Select all and none by the menu and by their keys; a right-click with a selection tool
    // selects none too, as in Tiled.
    click_menu_item(&mut h, "Edit", "Select all  (Ctrl+A)");
    assert_eq!(h.state().editor.selection.as_ref().map(|s| s.len()), Some(28));
    click_menu_item(&mut h, "Edit", "Select none  (Ctrl+Shift+A)");
    assert!(h.state().editor.selection.is_none());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    assert_eq!(h.state().editor.selection.as_ref().map(|s| s.len()), Some(28));
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::A);
    h.run();
    assert!(h.state().editor.selection.is_none());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    let p = cell_centre(&h, Cell::new(1, 1));
    h.hover_at(p);
    h.run();
    h.event(egui::Event::PointerButton {
        pos: p,
        button: egui::PointerButton::Secondary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.event(egui::Event::PointerButton {
        pos: p,
        button: egui::PointerButton::Secondary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run();
    assert!(h.state().editor.selection.is_none());
}

#[test]
fn a_shift_fill_fills_the_selection_and_a_plain_fill_stops_at_its_edge() {
    use common::{drag_through_holding, glyph_rows};
    use sightline::core::Cell;
    let mut h = harness();
    let _dir = open_ascii(&mut h, "......\n..##..\n......\n");
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(1, 0), Cell::new(3, 2)]);
    h.get_by_label("~  water").click();
    h.get_by_label("Fill").click();
    h.run();
    // A fill from a floor cell: the floor region, cut to the selection.
    click_cell(&mut h, Cell::new(1, 1));
    assert_eq!(glyph_rows(&h.state().document.map, 0), [".~~~..", ".~##..", ".~~~.."]);
    // Shift: the whole selection, walls too (Tiled's Fill Selection).
    drag_through_holding(&mut h, &[Cell::new(2, 1)], egui::Modifiers::SHIFT);
    assert_eq!(glyph_rows(&h.state().document.map, 0), [".~~~..", ".~~~..", ".~~~.."]);
    assert_eq!(h.state().document.edits(), 2);
    // Delete erases the selection only.
    h.key_press(egui::Key::Delete);
    h.run();
    let map = &h.state().document.map;
    let cells = (0..3).flat_map(|y| (0..6).map(move |x| Cell::new(x, y)));
    let empty: Vec<Cell> = cells.filter(|&c| map.tile(0, c) == Some(0)).collect();
    assert_eq!(empty, sightline::core::edit::rect_cells(Cell::new(1, 0), Cell::new(3, 2), true));
}

#[test]
fn the_tools_keys_are_tileds_and_shift_s_is_same_tile() {
    use sightline::app::Tool;
    let mut h = harness();
    h.run();
    for (modifiers, key, tool) in [
        (egui::Modifiers::NONE, egui::Key::W, Tool::MagicWand),
        (egui::Modifiers::SHIFT, egui::Key::S, Tool::SameTile),
        (egui::Modifiers::NONE, egui::Key::S, Tool::Select),
        (egui::Modifiers::NONE, egui::Key::B, Tool::Brush),
        (egui::Modifiers::NONE, egui::Key::F, Tool::Fill),
    ] {
        h.key_press_modifiers(modifiers, key);
        h.run();
        assert_eq!(h.state().editor.tool, tool, "{modifiers:?} {key:?}");
    }
}

#[test]
fn paste_in_place_lays_the_copy_where_it_came_from_on_another_layer() {
    use common::glyph_rows;
    use sightline::core::Cell;
    let mut h = harness();
    let _dir = open_ascii(&mut h, "#~#.\n~#~.\n....\n");
    // The wand's pick of the water, copied on the ground.
    h.get_by_label("Magic wand").click();
    h.run();
    click_cell(&mut h, Cell::new(1, 0));
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::V);
    h.run();
    assert_eq!(h.state().document.edits(), 0, "nothing copied yet: nothing to paste");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::C);
    h.run();
    // On a new layer, Ctrl+Shift+V lays it on the cell it came from, as one undo step; it does
    // not start a paste that follows the pointer.
    h.get_by_label("New layer").click();
    h.run();
    let undo = h.state().document.edits();
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::V);
    h.run();
    assert_eq!(glyph_rows(&h.state().document.map, 1), [" ~  ", "    ", "    "]);
    assert_eq!(h.state().document.edits(), undo + 1);
    assert!(!h.state().editor.pasting);
    // A stamp picked in a tileset has no place it came from: the menu item is off.
    h.state_mut()
        .commands
        .push(Command::Tiles(TileCommand::StampFromTileset(sightline::core::edit::Stamp::new(1, vec![1]))));
    h.run();
    h.get_by_label("Edit").click();
    h.run();
    assert!(h.get_by_label("Paste in place  (Ctrl+Shift+V)").accesskit_node().is_disabled());
}

/// The History panel lists every step by name, as Tiled's History view does; a click on one
/// makes the map what it was just after it (on "Start", what it was when opened), the steps
/// after it greyed and still there to click, and the Edit menu names what Undo takes back.
#[test]
fn the_history_panel_names_each_step_and_a_click_goes_back_to_it() {
    use common::{glyph_rows, selection_rows};
    use sightline::core::Cell;
    let mut h = harness();
    let _dir = open_ascii(&mut h, "....\n....\n");
    h.get_by_label("#  wall").click();
    h.get_by_label("Brush").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(1, 0)]);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_label("~  water").click();
    h.get_by_label("Fill").click();
    h.run();
    click_cell(&mut h, Cell::new(3, 1));
    assert_eq!(glyph_rows(&h.state().document.map, 0), ["##~~", "~~~~"]);
    // Edit › History… opens the panel's section.
    h.get_by_label("History (3)");
    assert!(h.query_by_label("Start").is_none(), "closed at first");
    h.get_by_label("Edit").click();
    h.run();
    h.get_by_label("History…").click();
    h.run();
    // "Fill" is also the tool's button, drawn before the panel.
    let fill_step = |h: &Harness<'static, SightlineApp>| h.get_all_by_label("Fill").count();
    assert_eq!(fill_step(&h), 2);
    for name in ["Start", "Paint", "Select all"] {
        h.get_by_label(name);
    }
    // Back to just after the brush stroke: the fill undone, nothing selected yet.
    h.get_by_label("Paint").click();
    h.run();
    assert_eq!(glyph_rows(&h.state().document.map, 0), ["##..", "...."]);
    assert_eq!(selection_rows(h.state()), ["....", "...."]);
    assert!(h.state().document.dirty);
    h.get_by_label("Edit").click();
    h.run();
    h.get_by_label("Undo Paint  (Ctrl+Z)");
    h.get_by_label("Redo Select all  (Ctrl+Shift+Z)");
    h.key_press(egui::Key::Escape);
    h.run();
    // "Start": the map as opened, so saved again.
    h.get_by_label("Start").click();
    h.run();
    assert_eq!(glyph_rows(&h.state().document.map, 0), ["....", "...."]);
    assert!(!h.state().document.dirty, "back to the map as it was opened");
    // Forward again, to the end, over the selection step.
    h.get_all_by_label("Fill").last().unwrap().click();
    h.run();
    assert_eq!(glyph_rows(&h.state().document.map, 0), ["##~~", "~~~~"]);
    assert_eq!(selection_rows(h.state()), ["####", "####"]);
}

/// A selection lost to a stray Select None (or a click, or Select All) comes back with Ctrl+Z,
/// as in Tiled: each change of the selection is an undo step, which leaves the map saved.
#[test]
fn undo_brings_back_a_selection_dropped_by_mistake() {
    use common::selection_rows;
    use sightline::core::Cell;
    let mut h = harness();
    let _dir = open_ascii(&mut h, "...\n.#.\n");
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(1, 1)]);
    assert_eq!(selection_rows(h.state()), ["##.", "##."]);
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::A);
    h.run();
    assert_eq!(selection_rows(h.state()), ["...", "..."]);
    assert!(!h.state().document.dirty, "selecting changes nothing to save");
    // The Edit menu says what its Undo takes back.
    h.get_by_label("Edit").click();
    h.run();
    h.get_by_label("Undo Select none  (Ctrl+Z)").click();
    h.run();
    assert_eq!(selection_rows(h.state()), ["##.", "##."]);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(selection_rows(h.state()), ["...", "..."], "and before it, nothing selected");
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    h.run();
    assert_eq!(selection_rows(h.state()), ["##.", "##."]);
    // Select All, undone and redone.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    assert_eq!(selection_rows(h.state()), ["###", "###"]);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(selection_rows(h.state()), ["##.", "##."]);
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    h.run();
    assert_eq!(selection_rows(h.state()), ["###", "###"]);
    // Undone back to the start: nothing selected, nothing edited, nothing unsaved.
    while !h.state().document.undo.is_empty() {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        h.run();
    }
    assert_eq!(selection_rows(h.state()), ["...", "..."]);
    assert!(!h.state().document.dirty);
}

#[test]
fn a_resize_moves_the_selection_with_its_cells_and_esc_in_a_drag_restores_it() {
    use common::selection_rows;
    use sightline::app::map_dialogs::ResizeSpec;
    use sightline::core::{Anchor, Cell};
    let mut h = harness();
    let _dir = open_ascii(&mut h, "..~\n.#.\n");
    // The wand's drag goes floor, wall, floor again: both tiles, everything joined to the last
    // cell through them, not the water.
    h.get_by_label("Magic wand").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(1, 1), Cell::new(1, 0)]);
    assert_eq!(selection_rows(h.state()), ["##.", "###"]);
    // Grown by a column on the left and a row on top: the selection moves with its cells.
    let spec = ResizeSpec { width: 4, height: 3, anchor: Anchor::BottomRight, fill_with_brush: false };
    h.state_mut().commands.push(Command::Map(MapCommand::ResizeMap(spec)));
    h.run();
    assert_eq!(selection_rows(h.state()), ["....", ".##.", ".###"]);
    // Undone, the map is 3 × 2 again and the selection what it was before the resize (the
    // undo step keeps it).
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(selection_rows(h.state()), ["##.", "###"]);
    // Esc in the middle of a drag: what was selected before it.
    h.get_by_label("Select").click();
    h.run();
    let (from, to) = (cell_centre(&h, Cell::new(0, 0)), cell_centre(&h, Cell::new(2, 1)));
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    h.hover_at(to);
    h.run();
    assert_eq!(selection_rows(h.state()), ["###", "###"]);
    h.key_press(egui::Key::Escape);
    h.run();
    h.drop_at(to);
    h.run();
    assert_eq!(selection_rows(h.state()), ["##.", "###"]);
}

/// A press at grid point `points[0]` (in cells from the map's top-left corner), moves through
/// the rest, a release at the last, with `modifiers` held throughout.
fn drag_grid_holding(h: &mut Harness<'static, SightlineApp>, points: &[(f32, f32)], modifiers: egui::Modifiers) {
    let points: Vec<egui::Pos2> = points.iter().map(|&(x, y)| grid_point(h, x, y)).collect();
    let button =
        |pos, pressed| egui::Event::PointerButton { pos, button: egui::PointerButton::Primary, pressed, modifiers };
    h.event_modifiers(egui::Event::PointerMoved(points[0]), modifiers);
    h.run();
    h.event_modifiers(button(points[0], true), modifiers);
    h.run();
    for &p in &points[1..] {
        h.event_modifiers(egui::Event::PointerMoved(p), modifiers);
        h.run();
    }
    h.event_modifiers(button(*points.last().unwrap(), false), modifiers);
    h.run();
}

/// A grid point on screen: `x`, `y` in cells from the map's top-left corner.
fn grid_point(h: &Harness<'static, SightlineApp>, x: f32, y: f32) -> egui::Pos2 {
    let view = &h.state().view;
    view.screen_from_grid(sightline::core::Cell::new(0, 0)) + egui::vec2(x, y) * view.cell_px
}

/// A click at grid point `x`, `y` (in cells from the map's top-left corner).
fn click_grid(h: &mut Harness<'static, SightlineApp>, x: f32, y: f32) {
    let p = grid_point(h, x, y);
    common::click_at(h, p);
}

/// A 10 × 6 floor with no objects, the object tool out and `choice` (its drop-down's label)
/// chosen; the map's tile size.
fn object_tool_on_floor(h: &mut Harness<'static, SightlineApp>, choice: &str) -> (tempfile::TempDir, [f64; 2]) {
    let dir = open_ascii(h, &"..........\n".repeat(6));
    assert!(h.state().document.map.objects.is_empty());
    h.get_by_label("Object").click();
    h.run();
    h.get_by_label("what to place").click();
    h.run();
    h.get_by_label(choice).click();
    h.run();
    (dir, h.state().document.map.tile_size.map(f64::from))
}

/// The objects as `(cell, shape)`, newest last.
fn drawn_shapes(
    h: &Harness<'static, SightlineApp>,
) -> Vec<(sightline::core::Cell, Option<sightline::core::model::object::ShapeKind>)> {
    h.state().document.map.objects.iter().map(|o| (o.cell, o.shape.as_ref().map(|s| s.kind.clone()))).collect()
}

/// A turned box keeps its handles, turned with it (as in Tiled): its far corner's handle,
/// dragged, resizes it in its own frame, its top-left corner and its turn staying.
#[test]
fn a_turned_boxs_handles_turn_with_it_and_resize_it_in_its_own_frame() {
    use egui::Modifiers;
    use sightline::core::model::object::ShapeKind;
    let mut h = harness();
    let (_dir, [tw, th]) = object_tool_on_floor(&mut h, "rectangle");
    assert_eq!(tw, th, "the grid points below assume square cells");
    // 3 × 2 cells from grid point (4, 1), then turned a quarter clockwise about that corner:
    // its own x runs down the map, its own y to the left, its far corner at (2, 4).
    drag_grid_holding(&mut h, &[(4.0, 1.0), (5.5, 2.0), (7.0, 3.0)], Modifiers::NONE);
    let id = h.state().document.map.objects.last().unwrap().id;
    let position = [4.0 * tw, th];
    h.state_mut().commands.push(Command::Objects(ObjectCommand::SetObjectGeometry {
        id,
        position,
        size: None,
        rotation: 90.0,
    }));
    h.run();
    // Its far corner dragged one cell left and one down: one cell longer (own x), one wider.
    let undo = h.state().document.edits();
    drag_grid_holding(&mut h, &[(2.0, 4.0), (1.5, 4.5), (1.0, 5.0)], Modifiers::NONE);
    let map = &h.state().document.map;
    let o = map.objects.last().unwrap();
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.kind, ShapeKind::Rectangle { width: 4.0 * tw, height: 3.0 * th });
    assert_eq!((shape.position(o.cell, map.tile_size), shape.rotation), (position, 90.0));
    assert_eq!(h.state().document.edits(), undo + 1, "one undo step");
    // Turned 30°, its far corner (own 4, 3 cells) is at grid point (5.96, 5.60). Dragged to
    // (6.5, 5.9), own (4.62, 2.99) cells: snapped in its own frame, 5 × 3 cells, not a size
    // the map's grid would give a turned corner.
    h.state_mut().commands.push(Command::Objects(ObjectCommand::SetObjectGeometry {
        id,
        position,
        size: None,
        rotation: 30.0,
    }));
    h.run();
    drag_grid_holding(&mut h, &[(5.96, 5.6), (6.2, 5.7), (6.5, 5.9)], Modifiers::NONE);
    let o = h.state().document.map.objects.last().unwrap();
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.kind, ShapeKind::Rectangle { width: 5.0 * tw, height: 3.0 * th });
    assert_eq!(shape.rotation, 30.0);
}

#[test]
fn the_object_tool_draws_tileds_rectangles_ellipses_and_points_snapped_to_the_grid() {
    use egui::Modifiers;
    use sightline::core::model::object::ShapeKind;
    use sightline::core::{Cell, ObjectKind};
    let mut h = harness();
    let (_dir, [tw, th]) = object_tool_on_floor(&mut h, "rectangle");
    assert!(h.state().document.map.object_layers.is_empty());
    // A drag from near grid point (1, 1) to near (4, 3): snapped to the grid, the box of
    // 3 × 2 cells between them, standing on the cell under its centre (2.5, 2).
    drag_grid_holding(&mut h, &[(1.2, 0.9), (2.5, 2.0), (3.8, 3.1)], Modifiers::NONE);
    let map = &h.state().document.map;
    let o = map.objects.last().expect("a rectangle");
    assert_eq!((o.cell, &o.kind, o.name.as_str()), (Cell::new(2, 2), &ObjectKind::Other(String::new()), ""));
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.kind, ShapeKind::Rectangle { width: 3.0 * tw, height: 2.0 * th });
    assert_eq!(shape.position(o.cell, map.tile_size), [tw, th]);
    // It went on a new object layer, and the status bar says what was made.
    assert_eq!(map.object_layers.len(), 1);
    let added = format!("added rectangle {} × {} px as object #{}", 3.0 * tw, 2.0 * th, o.id);
    assert!(h.state().notice.as_deref().is_some_and(|n| n.starts_with(&added)), "{:?}", h.state().notice);
    // A drag from inside it moves it, by whole cells, as far as the pointer goes; one undo
    // step. With Alt held, the drag draws a box over it instead.
    let (id, undo) = (o.id, h.state().document.edits());
    drag_grid_holding(&mut h, &[(3.5, 1.5), (4.5, 2.0), (5.5, 2.5)], Modifiers::NONE);
    let map = &h.state().document.map;
    let o = map.objects.last().unwrap();
    assert_eq!((o.id, o.cell, map.objects.len()), (id, Cell::new(4, 3), 1));
    assert_eq!(o.shape.as_ref().unwrap().position(o.cell, map.tile_size), [3.0 * tw, 2.0 * th]);
    assert_eq!(h.state().document.edits(), undo + 1);
    drag_grid_holding(&mut h, &[(4.0, 3.0), (5.0, 4.0)], Modifiers::ALT);
    assert_eq!(
        drawn_shapes(&h).pop().unwrap(),
        (Cell::new(4, 3), Some(ShapeKind::Rectangle { width: tw, height: th }))
    );
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    // A click on it gives it to the inspector.
    h.state_mut().editor.focused_object = None;
    click_cell(&mut h, Cell::new(5, 3));
    assert_eq!(h.state().editor.focused_object, Some(id));
    assert_eq!(h.state().document.map.objects.len(), 1, "a click on it draws nothing");
    // A copy of it pasted over it (its layer is current: the selection copies its objects):
    // Esc drops the paste first, the object stays in hand.
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(4, 3), Cell::new(5, 3)]);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::C);
    h.get_by_label("Object").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::V);
    h.run();
    assert!(h.state().editor.pasting);
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(!h.state().editor.pasting);
    assert_eq!(h.state().editor.focused_object, Some(id));
    // A right-click inside it (not on its own cell, 4, 3) removes it; undo brings it back.
    right_click_cell(&mut h, Cell::new(5, 3));
    assert!(h.state().document.map.objects.is_empty());
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(h.state().document.map.objects.len(), 1);
    // In hand, it has handles: its bottom-right corner's, at grid point (6, 4), dragged to
    // (7, 5) makes it 4 × 3 cells, its top-left staying; an edge's moves that edge alone.
    let undo = h.state().document.edits();
    drag_grid_holding(&mut h, &[(6.0, 4.0), (6.5, 4.5), (7.1, 4.9)], Modifiers::NONE);
    let map = &h.state().document.map;
    let o = map.objects.last().unwrap();
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.kind, ShapeKind::Rectangle { width: 4.0 * tw, height: 3.0 * th });
    assert_eq!((shape.position(o.cell, map.tile_size), o.cell), ([3.0 * tw, 2.0 * th], Cell::new(5, 3)));
    assert_eq!(h.state().document.edits(), undo + 1, "a resize is one undo step");
    drag_grid_holding(&mut h, &[(3.0, 3.5), (2.0, 3.5), (1.0, 3.2)], Modifiers::NONE);
    let o = h.state().document.map.objects.last().unwrap();
    assert_eq!(o.shape.as_ref().unwrap().kind, ShapeKind::Rectangle { width: 6.0 * tw, height: 3.0 * th });
    // Esc lets it go (Delete then removes nothing), a click takes it again.
    h.key_press(egui::Key::Escape);
    h.run();
    assert_eq!(h.state().editor.focused_object, None);
    click_cell(&mut h, Cell::new(5, 3));
    // Delete removes the object in hand; undo brings it back.
    h.key_press(egui::Key::Delete);
    h.run();
    assert!(h.state().document.map.objects.is_empty());
    for _ in 0..3 {
        h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
        h.run();
    }
    assert_eq!(drawn_shapes(&h), [(Cell::new(4, 3), Some(ShapeKind::Rectangle { width: 3.0 * tw, height: 2.0 * th }))]);
    // A drag up and to the left with Shift held: a square, its side the longer drag.
    h.get_by_label("what to place").click();
    h.run();
    h.get_by_label("ellipse").click();
    h.run();
    drag_grid_holding(&mut h, &[(8.0, 5.0), (7.0, 4.0), (6.1, 4.2)], Modifiers::SHIFT);
    let (cell, kind) = drawn_shapes(&h).pop().unwrap();
    assert_eq!((cell, kind), (Cell::new(7, 4), Some(ShapeKind::Ellipse { width: 2.0 * tw, height: 2.0 * th })));
    // A click covers the cell (Tiled would make a box of no size).
    click_cell(&mut h, Cell::new(0, 5));
    assert_eq!(drawn_shapes(&h).pop().unwrap(), (Cell::new(0, 5), Some(ShapeKind::Ellipse { width: tw, height: th })));
    // A drag that snaps to one point draws nothing, and says so.
    let before = h.state().document.map.objects.len();
    drag_grid_holding(&mut h, &[(5.1, 1.1), (5.3, 1.3)], Modifiers::NONE);
    assert_eq!(h.state().document.map.objects.len(), before);
    assert!(h.state().notice.as_deref().is_some_and(|n| n.starts_with("nothing drawn")));
    // Ctrl turns snapping off while held: the box ends where the pointer does.
    drag_grid_holding(&mut h, &[(5.0, 1.0), (6.5, 1.75)], Modifiers::COMMAND);
    let Some(ShapeKind::Ellipse { width, height }) = drawn_shapes(&h).pop().unwrap().1 else { panic!("an ellipse") };
    assert!((width - 1.5 * tw).abs() < 0.01 && (height - 0.75 * th).abs() < 0.01, "{width} × {height}");
    // Esc in the middle of a drag drops the shape.
    let before = h.state().document.map.objects.len();
    h.hover_at(grid_point(&h, 1.0, 4.0));
    h.run();
    h.drag_at(grid_point(&h, 1.0, 4.0));
    h.run();
    h.hover_at(grid_point(&h, 3.0, 5.0));
    h.run();
    assert!(h.state().editor.shape_draft.is_some());
    h.key_press(egui::Key::Escape);
    h.run();
    h.drop_at(grid_point(&h, 3.0, 5.0));
    h.run();
    assert_eq!(h.state().document.map.objects.len(), before);
    // A point goes where the click is, snapped to the nearest grid point (the fine grid here).
    h.get_by_label("what to place").click();
    h.run();
    h.get_by_label("point").click();
    h.run();
    h.get_by_label("snap").click();
    h.run();
    h.get_by_label("snap to fine grid").click();
    h.run();
    click_grid(&mut h, 9.3, 0.2);
    assert_eq!(drawn_shapes(&h).pop().unwrap(), (Cell::new(9, 0), Some(ShapeKind::Point)));
    let map = &h.state().document.map;
    let point = map.objects.last().unwrap();
    assert_eq!(point.shape.as_ref().unwrap().position(point.cell, map.tile_size), [9.25 * tw, 0.25 * th]);
    // In the very middle of its cell, a point is a marker, as a save and a load make it.
    click_cell(&mut h, Cell::new(9, 5));
    assert_eq!(drawn_shapes(&h).pop().unwrap(), (Cell::new(9, 5), None));
    // Each is one undo step.
    let n = h.state().document.map.objects.len();
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(h.state().document.map.objects.len(), n - 1);
}

#[test]
fn the_polygon_tool_closes_on_its_first_point_and_ends_a_path_on_enter() {
    use sightline::app::ShapeDraft;
    use sightline::core::Cell;
    use sightline::core::model::object::ShapeKind;
    let mut h = harness();
    let (_dir, [tw, th]) = object_tool_on_floor(&mut h, "polygon or path");
    // Three points, then a click on the first: a triangle.
    click_grid(&mut h, 1.0, 1.0);
    click_grid(&mut h, 4.0, 1.0);
    click_grid(&mut h, 1.0, 4.0);
    assert!(h.state().document.map.objects.is_empty(), "not made before it is closed: {:?}", drawn_shapes(&h));
    click_grid(&mut h, 1.1, 0.9);
    let triangle = vec![[0.0, 0.0], [3.0 * tw, 0.0], [0.0, 3.0 * th]];
    // A polygon stands on the cell of its first point.
    assert_eq!(drawn_shapes(&h), [(Cell::new(1, 1), Some(ShapeKind::Polygon(triangle)))]);
    // In hand, its points are grips: the third dragged from (1, 4) to (2, 5) moves alone,
    // its origin (the first point) staying; one undo step.
    let undo = h.state().document.edits();
    drag_grid_holding(&mut h, &[(1.0, 4.0), (1.5, 4.5), (2.1, 4.9)], egui::Modifiers::NONE);
    let moved = vec![[0.0, 0.0], [3.0 * tw, 0.0], [tw, 4.0 * th]];
    assert_eq!(drawn_shapes(&h), [(Cell::new(1, 1), Some(ShapeKind::Polygon(moved.clone())))]);
    assert_eq!(h.state().document.edits(), undo + 1);
    // A drag of a segment's middle, (2.5, 1), lays a point there and moves it to (3, 0); one
    // undo step. A right-click on a point takes it away again, its own step; but a polygon
    // keeps three points, and says so.
    drag_grid_holding(&mut h, &[(2.5, 1.0), (2.7, 0.5), (2.9, 0.1)], egui::Modifiers::NONE);
    let four = vec![[0.0, 0.0], [2.0 * tw, -th], [3.0 * tw, 0.0], [tw, 4.0 * th]];
    assert_eq!(drawn_shapes(&h), [(Cell::new(1, 1), Some(ShapeKind::Polygon(four)))]);
    assert_eq!(h.state().document.edits(), undo + 2);
    let right_click_grid = |h: &mut Harness<'static, SightlineApp>, x: f32, y: f32| {
        let pos = grid_point(h, x, y);
        h.hover_at(pos);
        h.run();
        for pressed in [true, false] {
            let button = egui::PointerButton::Secondary;
            h.event(egui::Event::PointerButton { pos, button, pressed, modifiers: egui::Modifiers::NONE });
        }
        h.run();
    };
    right_click_grid(&mut h, 3.0, 0.0);
    assert_eq!(drawn_shapes(&h), [(Cell::new(1, 1), Some(ShapeKind::Polygon(moved.clone())))]);
    assert_eq!(h.state().document.edits(), undo + 3);
    right_click_grid(&mut h, 4.0, 1.0);
    assert_eq!(drawn_shapes(&h), [(Cell::new(1, 1), Some(ShapeKind::Polygon(moved.clone())))]);
    assert!(h.state().notice.as_deref().is_some_and(|n| n.contains("keeps 3 points")), "{:?}", h.state().notice);
    // A new polygon begun on the grip of the one in hand lays its first point there.
    click_grid(&mut h, 4.0, 1.0);
    assert!(matches!(&h.state().editor.shape_draft, Some(ShapeDraft::Points { points, .. }) if points.len() == 1));
    drag_grid_holding(&mut h, &[(1.0, 1.0), (1.5, 1.5)], egui::Modifiers::NONE);
    assert_eq!(
        drawn_shapes(&h),
        [(Cell::new(1, 1), Some(ShapeKind::Polygon(moved)))],
        "the drag near a grip laid a point, it did not reshape"
    );
    h.key_press(egui::Key::Escape);
    h.run();
    // Three points, one taken back with Backspace, then Enter: a path of two.
    click_grid(&mut h, 6.0, 5.0);
    click_grid(&mut h, 8.0, 5.0);
    click_grid(&mut h, 8.0, 2.0);
    h.key_press(egui::Key::Backspace);
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    let path = vec![[0.0, 0.0], [2.0 * tw, 0.0]];
    assert_eq!(drawn_shapes(&h).pop().unwrap(), (Cell::new(6, 5), Some(ShapeKind::Polyline(path))));
    // A right-click ends a path too; one point alone makes nothing.
    click_grid(&mut h, 2.0, 5.0);
    click_grid(&mut h, 3.0, 5.0);
    right_click_cell(&mut h, Cell::new(3, 5));
    assert_eq!(h.state().document.map.objects.len(), 3);
    let (cell, kind) = drawn_shapes(&h).pop().unwrap();
    assert_eq!((cell, kind), (Cell::new(2, 5), Some(ShapeKind::Polyline(vec![[0.0, 0.0], [tw, 0.0]]))));
    click_grid(&mut h, 2.0, 2.0);
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().document.map.objects.len(), 3);
    assert!(h.state().editor.shape_draft.is_none());
}

#[test]
fn a_text_click_makes_hello_world_and_the_inspector_edits_the_new_object() {
    use sightline::core::model::object::ShapeKind;
    use sightline::core::{Cell, ObjectKind};
    let mut h = harness();
    let (_dir, [tw, _]) = object_tool_on_floor(&mut h, "text");
    click_cell(&mut h, Cell::new(4, 2));
    let map = &h.state().document.map;
    let o = map.objects.last().expect("a text object");
    let Some(ShapeKind::Text { width, height, text }) = o.shape.as_ref().map(|s| &s.kind) else {
        panic!("a text: {o:?}")
    };
    assert_eq!(text.text, "Hello World");
    assert!(*width > 40.0 && *height >= 16.0, "its own size: {width} × {height}");
    let cell = o.cell;
    // Off the canvas, the inspector edits it: its text is a field to type in.
    h.hover_at(egui::pos2(1190.0, 790.0));
    h.run();
    h.get_by_label(&format!("Cell {}, {} (the object tool's)", cell.x, cell.y));
    assert_eq!(h.get_by_label("text of the object").value().as_deref(), Some("Hello World"));
    h.get_by_label("text of the object").click();
    h.run();
    h.key_press(egui::Key::End);
    h.get_by_label("text of the object").type_text("!");
    h.run();
    let o = h.state().document.map.objects.last().unwrap();
    let Some(ShapeKind::Text { text, .. }) = o.shape.as_ref().map(|s| &s.kind) else { panic!("a text") };
    assert_eq!(text.text, "Hello World!");
    // Its place and size typed in map pixels, as in Tiled's Properties: it moves to the cell
    // under its new centre, and the inspector follows it.
    let undo = h.state().document.edits();
    for (field, value) in [("x of the object", "0"), ("y of the object", "0"), ("width of the object", "1")] {
        h.get_by_label(field).click();
        h.run();
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.get_by_label(field).type_text(&format!("{}", value.parse::<f64>().unwrap() * tw));
        h.key_press(egui::Key::Enter);
        h.run();
    }
    let map = &h.state().document.map;
    let o = map.objects.last().unwrap();
    let shape = o.shape.as_ref().unwrap();
    assert_eq!((o.cell, shape.position(o.cell, map.tile_size)), (Cell::new(0, 0), [0.0, 0.0]));
    assert_eq!(shape.kind.size().map(|s| s[0]), Some(tw));
    h.get_by_label("Cell 0, 0 (the object tool's)");
    // Past the map's edge it stays where it is.
    h.get_by_label("x of the object").click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("x of the object").type_text(&format!("{}", 20.0 * tw));
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().document.map.objects.last().unwrap().cell, Cell::new(0, 0));
    assert!(h.state().notice.as_deref().is_some_and(|n| n.contains("off the map")), "{:?}", h.state().notice);
    // Its class typed: the designer's own, kept as written; one the game knows makes it that.
    let id = h.state().document.map.objects.last().unwrap().id;
    let class_field = format!("class of object #{id}");
    h.get_by_label(&class_field).click();
    h.run();
    h.get_by_label(&class_field).type_text("Trigger");
    h.run();
    assert_eq!(h.state().document.map.objects.last().unwrap().kind, ObjectKind::Other(String::new()), "not yet");
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().document.map.objects.last().unwrap().kind, ObjectKind::Other("Trigger".into()));
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    // Each field typed is its own undo step (x, y, width; the class was undone).
    assert_eq!(h.state().document.edits(), undo + 3);
    for _ in 0..3 {
        h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
        h.run();
    }
    let o = h.state().document.map.objects.last().unwrap();
    assert_eq!(o.cell, cell, "back where the click put it");
}

/// The object tool's gestures end with it: on a layer drawn moved by its offset, a shape lands
/// where it is drawn; a tool change drops a polygon half laid; an undo in the middle of a move
/// leaves the tool drawing again; a resize's handle, dragged out and back, leaves no step.
#[test]
fn shapes_land_where_drawn_on_an_offset_layer_and_gestures_end_with_a_tool_change_or_an_undo() {
    use egui::Modifiers;
    use sightline::app::DrawnLook;
    use sightline::core::model::object::ShapeKind;
    use sightline::core::{Cell, LayerRef, StackItem};
    let mut h = harness();
    let (_dir, [tw, th]) = object_tool_on_floor(&mut h, "rectangle");
    // An object layer drawn half a cell right and down.
    // The Layers panel's button (its menu item has the same name).
    h.get_all_by_label("New object layer").next().unwrap().click();
    h.run();
    assert_eq!(h.state().editor.object_layer, Some(0));
    let look = DrawnLook { tint: None, offset: [tw / 2.0, th / 2.0], parallax: [1.0, 1.0] };
    h.state_mut()
        .commands
        .push(Command::Layers(LayerCommand::SetLayerLook(StackItem::Layer(LayerRef::Objects(0)), look)));
    h.run();
    // A drag between the grid points (1.5, 1.5) and (3.5, 2.5) of the screen: the layer's
    // (1, 1) and (3, 2), snapped to the layer's own grid.
    drag_grid_holding(&mut h, &[(1.6, 1.4), (2.5, 2.0), (3.4, 2.6)], Modifiers::NONE);
    let map = &h.state().document.map;
    let o = map.objects.last().expect("a rectangle");
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.position(o.cell, map.tile_size), [tw, th]);
    assert_eq!(shape.kind, ShapeKind::Rectangle { width: 2.0 * tw, height: th });
    // Three points of a polygon, then the eraser: nothing is left half laid, and Enter makes
    // nothing.
    h.get_by_label("what to place").click();
    h.run();
    h.get_by_label("polygon or path").click();
    h.run();
    for (x, y) in [(6.0, 1.0), (8.0, 1.0), (8.0, 3.0)] {
        click_grid(&mut h, x, y);
    }
    assert!(h.state().editor.shape_draft.is_some());
    h.get_by_label("Eraser").click();
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(h.state().editor.shape_draft.is_none());
    assert_eq!(h.state().document.map.objects.len(), 1);
    // An undo in the middle of a move of the rectangle; then the tool draws again.
    h.get_by_label("Object").click();
    h.run();
    h.get_by_label("what to place").click();
    h.run();
    h.get_by_label("rectangle").click();
    h.run();
    h.hover_at(grid_point(&h, 2.0, 2.0));
    h.run();
    h.drag_at(grid_point(&h, 2.0, 2.0));
    h.run();
    h.hover_at(grid_point(&h, 4.0, 3.0));
    h.run();
    assert!(h.state().editor.moving_object.is_some());
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    h.drop_at(grid_point(&h, 4.0, 3.0));
    h.run();
    assert!(h.state().editor.moving_object.is_none());
    let before = h.state().document.map.objects.len();
    drag_grid_holding(&mut h, &[(6.5, 4.5), (8.5, 5.5)], Modifiers::NONE);
    assert_eq!(h.state().document.map.objects.len(), before + 1, "the tool draws again");
    // The new one's bottom-right handle, at screen grid point (8.5, 5.5), out and back: no step.
    let undo = h.state().document.edits();
    drag_grid_holding(&mut h, &[(8.5, 5.5), (9.5, 5.5), (8.5, 5.5)], Modifiers::NONE);
    assert_eq!(h.state().document.edits(), undo);
    assert_eq!(drawn_shapes(&h).pop().unwrap().1, Some(ShapeKind::Rectangle { width: 2.0 * tw, height: th }));
    // The layer locked: nothing is drawn on it, and its objects are neither reshaped, moved,
    // reclassed nor removed; each refusal says why.
    let objects = StackItem::Layer(LayerRef::Objects(0));
    h.state_mut().commands.push(Command::Layers(LayerCommand::SetLayerLocked(objects, true)));
    h.run();
    let before = h.state().document.map.clone();
    let id = before.objects.last().unwrap().id;
    drag_grid_holding(&mut h, &[(1.5, 4.5), (3.5, 5.5)], Modifiers::NONE);
    assert!(h.state().notice.as_deref().is_some_and(|n| n.contains("is locked")), "{:?}", h.state().notice);
    drag_grid_holding(&mut h, &[(8.5, 5.5), (9.5, 5.5)], Modifiers::NONE);
    drag_grid_holding(&mut h, &[(7.5, 5.0), (5.5, 3.0)], Modifiers::NONE);
    h.state_mut().commands.extend([
        Command::Objects(ObjectCommand::SetObjectGeometry { id, position: [0.0, 0.0], size: None, rotation: 0.0 }),
        Command::Objects(ObjectCommand::ReclassObject { id, class: "trigger".into() }),
    ]);
    h.run();
    right_click_cell(&mut h, Cell::new(7, 5));
    h.key_press(egui::Key::Delete);
    h.run();
    assert_eq!(h.state().document.map, before);
}

/// A cut of a locked layer cuts nothing and copies nothing (it says why), as the wand and
/// same tile pick nothing while an object layer is current.
#[test]
fn a_cut_of_a_locked_layer_is_refused_whole_and_the_wand_needs_a_tile_layer() {
    use common::selection_rows;
    use egui::{Key, Modifiers};
    use sightline::core::Cell;
    let mut h = harness();
    let _dir = open_ascii(&mut h, "..#\n..#\n");
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(1, 1)]);
    h.get_by_label("lock ground").click();
    h.run();
    let before = h.state().document.map.clone();
    h.key_press_modifiers(Modifiers::COMMAND, Key::X);
    h.run();
    assert_eq!(h.state().document.map, before);
    assert!(h.state().editor.clipboard.is_none(), "nothing copied either");
    assert_eq!(selection_rows(h.state()), ["##.", "##."], "the selection stays");
    h.get_by_label_contains("is locked: unlock it to paint");
    // Copy still copies a locked layer.
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    h.run();
    assert!(h.state().editor.clipboard.is_some());
    // An object layer current: the magic wand picks nothing, and says why.
    h.get_all_by_label("New object layer").next().unwrap().click();
    h.run();
    h.get_by_label("Magic wand").click();
    h.run();
    click_cell(&mut h, Cell::new(2, 0));
    assert_eq!(selection_rows(h.state()), ["##.", "##."]);
    h.get_by_label_contains("picks by a tile layer's tiles");
}

/// Tiled's Insert Tile: a click lays the brush's tile, turned as the brush is, as a tile
/// object at its image's size, centred on the pointer and snapped: on a grid of the tile's
/// size, over the clicked cell.
#[test]
fn a_tile_object_is_the_brushs_tile_turned_as_it_is_over_the_clicked_cell() {
    use sightline::core::Cell;
    use sightline::core::model::object::ShapeKind;
    let mut h = harness();
    h.state_mut()
        .commands
        .push(Command::File(FileCommand::Open(Path::new("tests/fixtures/corners.tmx").to_path_buf())));
    h.run();
    let map = &h.state().document.map;
    let tile = (1..map.tiles.len()).find(|&t| map.tiles[t].sprite.is_some()).expect("a tile with an image") as u16;
    let sheet = &map.sheets[usize::from(map.tiles[usize::from(tile)].sprite.unwrap().sheet)];
    let (w, h_px) = (f64::from(sheet.tile_width), f64::from(sheet.tile_height));
    assert_eq!([w, h_px], map.tile_size.map(f64::from), "this sample's tiles fill a cell");
    let objects = map.objects.len();
    h.state_mut().commands.push(Command::Tiles(TileCommand::SelectTile(tile)));
    h.run();
    h.get_by_label("Object").click();
    h.run();
    h.get_by_label("what to place").click();
    h.run();
    h.get_by_label("tile").click();
    h.run();
    h.key_press(egui::Key::X);
    h.run();
    click_cell(&mut h, Cell::new(3, 2));
    let map = &h.state().document.map;
    assert_eq!(map.objects.len(), objects + 1);
    let o = map.objects.last().unwrap();
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.kind, ShapeKind::Tile { tile, flip: Flip::HORIZONTAL, width: w, height: h_px });
    // Its position is its bottom-left corner (the tileset's alignment): the cell's.
    assert_eq!((o.cell, shape.position(o.cell, map.tile_size)), (Cell::new(3, 2), [3.0 * w, 3.0 * h_px]));
    // The empty tile is no tile object.
    h.state_mut().commands.push(Command::Tiles(TileCommand::SelectTile(sightline::core::model::tile::EMPTY)));
    h.run();
    click_cell(&mut h, Cell::new(1, 1));
    assert_eq!(h.state().document.map.objects.len(), objects + 1);
    assert!(h.state().notice.as_deref().is_some_and(|n| n.starts_with("choose a tile")));
}

/// Chooses what the object tool places, by its drop-down's label.
fn choose_object(h: &mut Harness<'static, SightlineApp>, choice: &str) {
    h.get_by_label("what to place").click();
    h.run();
    h.get_by_label(choice).click();
    h.run();
}

/// The map's objects, each drawn as its glyph on its cell (a later one over an earlier one).
fn object_picture(h: &Harness<'static, SightlineApp>) -> Vec<String> {
    let map = &h.state().document.map;
    let mut rows = vec![vec!['.'; map.width() as usize]; map.height() as usize];
    for o in &map.objects {
        rows[o.cell.y as usize][o.cell.x as usize] = o.kind.glyph();
    }
    rows.into_iter().map(String::from_iter).collect()
}

#[test]
fn the_objects_on_the_selected_cells_of_an_object_layer_copy_cut_paste_turn_and_delete() {
    use egui::{Key, Modifiers};
    use sightline::core::Cell;
    let mut h = harness();
    let (_dir, _) = object_tool_on_floor(&mut h, "monster");
    click_cell(&mut h, Cell::new(1, 1));
    choose_object(&mut h, "item");
    click_cell(&mut h, Cell::new(2, 2));
    choose_object(&mut h, "rectangle");
    drag_grid_holding(&mut h, &[(3.1, 0.1), (3.6, 0.6), (4.0, 1.0)], Modifiers::NONE);
    choose_object(&mut h, "player start");
    click_cell(&mut h, Cell::new(0, 0));
    let start = ["@..?......", ".g........", "..*.......", "..........", "..........", ".........."];
    assert_eq!(object_picture(&h), start);

    // The selection of 4 × 3 cells on the object layer: Ctrl+C copies the objects on it.
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(3, 2)]);
    h.get_by_label("objects (4 objects)").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    h.run();
    assert!(h_notice(&h).starts_with("copied 4 objects"), "{}", h_notice(&h));
    let stamp = h.state().editor.clipboard.clone().unwrap();
    assert_eq!((stamp.width, stamp.height, stamp.objects.len()), (4, 3, 4));
    // Ctrl+V: a click lays them where they stood in the selection, one undo step, the player
    // start left out (the map has one).
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run();
    h.get_by_label("4 objects");
    let undo = h.state().document.edits();
    click_cell(&mut h, Cell::new(5, 2));
    assert_eq!(
        object_picture(&h),
        ["@..?......", ".g........", "..*.....?.", "......g...", ".......*..", ".........."]
    );
    assert_eq!(h.state().document.edits(), undo + 1);
    assert_eq!(h_notice(&h), "pasted 3 objects on \"objects\"; the player start left out: the map has one");
    // Undone; X mirrors the stamp, its objects with it: the box goes to the other side.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(object_picture(&h), start);
    h.key_press(Key::X);
    h.run();
    click_cell(&mut h, Cell::new(5, 2));
    assert_eq!(
        object_picture(&h),
        ["@..?......", ".g........", "..*..?....", ".......g..", "......*...", ".........."]
    );
    h.key_press(Key::Escape);
    h.run();
    assert!(!h.state().editor.pasting);

    // Ctrl+X: the objects on the selection go (one undo step) and the selection with them;
    // Ctrl+Shift+V lays them back where they were.
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(3, 2)]);
    let undo = h.state().document.edits();
    h.key_press_modifiers(Modifiers::COMMAND, Key::X);
    h.run();
    let pasted_only = ["..........", "..........", ".....?....", ".......g..", "......*...", ".........."];
    assert_eq!(object_picture(&h), pasted_only);
    assert_eq!(h.state().document.edits(), undo + 1);
    assert!(h.state().editor.selection.is_none());
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::V);
    h.run();
    assert_eq!(
        object_picture(&h),
        ["@..?......", ".g........", "..*..?....", ".......g..", "......*...", ".........."]
    );
    // Delete: the objects on the selected cells of the object layer.
    h.get_by_label("Edit").click();
    h.run();
    h.get_by_label("Delete objects  (Delete)");
    h.key_press(Key::Escape);
    h.run();
    drag_through(&mut h, &[Cell::new(5, 2), Cell::new(9, 5)]);
    h.key_press(Key::Delete);
    h.run();
    assert_eq!(object_picture(&h), start);
    // Nothing there: it says so.
    h.key_press(Key::Delete);
    h.run();
    assert_eq!(h_notice(&h), "no object of \"objects\" stands on the selected cells");

    // The object tool's drag of one of the selected objects moves them all, and the selection
    // with them, one undo step; only as far as keeps them all on the map.
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(2, 2)]);
    h.get_by_label("Object").click();
    h.run();
    choose_object(&mut h, "rectangle");
    let undo = h.state().document.edits();
    drag_through(&mut h, &[Cell::new(1, 1), Cell::new(2, 2), Cell::new(4, 3)]);
    assert_eq!(
        object_picture(&h),
        ["...?......", "..........", "...@......", "....g.....", ".....*....", ".........."]
    );
    assert_eq!(
        common::selection_rows(h.state()),
        ["..........", "..........", "...###....", "...###....", "...###....", ".........."]
    );
    assert_eq!(h.state().document.edits(), undo + 1);
    // The goblin is in hand now, but it is one of the ringed: Delete takes them all (one step).
    assert!(h.state().editor.focused_object.is_some());
    h.key_press(Key::Delete);
    h.run();
    assert_eq!(object_picture(&h)[2..5], ["..........", "..........", ".........."]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    drag_through(&mut h, &[Cell::new(4, 3), Cell::new(8, 3), Cell::new(9, 3)]);
    assert_eq!(
        object_picture(&h),
        ["...?......", "..........", ".......@..", "........g.", ".........*", ".........."]
    );
    // An object outside the selection moves alone.
    drag_through(&mut h, &[Cell::new(3, 0), Cell::new(3, 1)]);
    assert_eq!(object_picture(&h)[..2], ["..........", "...?......"]);
    // Undone, the ringed ones go back, and the selection with them (the move's undo step keeps
    // the selection as it was); redone, it goes with them again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    let moved_once = ["..........", "..........", "...###....", "...###....", "...###....", ".........."];
    assert_eq!(common::selection_rows(h.state()), moved_once);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(common::selection_rows(h.state())[2], ".......###");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(object_picture(&h), start);
    assert_eq!(
        common::selection_rows(h.state()),
        ["###.......", "###.......", "###.......", "..........", "..........", ".........."]
    );
    h.get_by_label("Select").click();
    h.run();

    // With nothing selected, the object in hand copies alone; a pasted one is in hand.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::A);
    h.run();
    h.get_by_label("Object").click();
    h.run();
    choose_object(&mut h, "rectangle");
    click_cell(&mut h, Cell::new(1, 1));
    let goblin = h.state().editor.focused_object.unwrap();
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    h.run();
    assert_eq!(h_notice(&h), format!("copied object #{goblin}: Ctrl+V pastes it"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run();
    click_cell(&mut h, Cell::new(9, 5));
    h.key_press(Key::Escape);
    h.run();
    let rows = object_picture(&h);
    assert_eq!(rows[5], ".........g", "{}", h_notice(&h));
    let copy = h.state().document.map.objects.last().unwrap().id;
    assert!(copy > goblin);
    assert_eq!(h.state().editor.focused_object, Some(copy));

    // A hidden layer: nothing is ringed, and nothing is taken.
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(9, 5)]);
    h.get_by_label("show objects").click();
    h.run();
    let clipboard = h.state().editor.clipboard.clone();
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    h.run();
    assert!(h_notice(&h).contains("\"objects\" is hidden"), "{}", h_notice(&h));
    assert_eq!(h.state().editor.clipboard, clipboard);
    h.get_by_label("show objects").click();
    h.run();
    // A locked layer: a cut, a delete and a paste are refused whole.
    h.key_press(Key::Escape);
    h.run();
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(9, 5)]);
    h.get_by_label("lock objects").click();
    h.run();
    let before = h.state().document.map.clone();
    h.key_press_modifiers(Modifiers::COMMAND, Key::X);
    h.run();
    assert!(h_notice(&h).contains("\"objects\" is locked"), "{}", h_notice(&h));
    assert!(h.state().editor.selection.is_some(), "a refused cut keeps the selection");
    h.key_press(Key::Delete);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run();
    click_cell(&mut h, Cell::new(4, 4));
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().document.map.objects, before.objects);
    // Unlocked, with the tile layer current: the objects go on the object layer.
    h.get_by_label("lock objects").click();
    h.run();
    h.get_by_label("ground").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run();
    click_cell(&mut h, Cell::new(4, 4));
    assert_eq!(object_picture(&h)[4], "....g.....");
    assert!(h.state().document.map.objects.iter().all(|o| o.layer == 0));
}

fn h_notice(h: &Harness<'static, SightlineApp>) -> String {
    h.state().notice.clone().unwrap_or_default()
}

#[test]
fn a_click_on_an_end_of_the_path_in_hand_goes_on_from_it_and_its_other_end_closes_it() {
    use egui::Key;
    use sightline::core::Cell;
    use sightline::core::model::object::ShapeKind;
    let mut h = harness();
    let (_dir, [tw, th]) = object_tool_on_floor(&mut h, "polygon or path");
    click_grid(&mut h, 1.0, 1.0);
    click_grid(&mut h, 3.0, 1.0);
    h.key_press(Key::Enter);
    h.run();
    let id = h.state().editor.focused_object.expect("the new path in hand");
    let path = |points: Vec<[f64; 2]>| vec![(Cell::new(1, 1), Some(ShapeKind::Polyline(points)))];
    assert_eq!(drawn_shapes(&h), path(vec![[0.0, 0.0], [2.0 * tw, 0.0]]));
    // Gone on from its last point, a click on its first cannot close two points: it says so
    // and lays nothing (no path doubling back).
    click_grid(&mut h, 3.0, 1.0);
    click_grid(&mut h, 1.0, 1.0);
    assert!(h_notice(&h).contains("needs three points"), "{}", h_notice(&h));
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(drawn_shapes(&h), path(vec![[0.0, 0.0], [2.0 * tw, 0.0]]));
    // A click on its last point (or where it snaps there) goes on from there: the same
    // object, one undo step.
    let undo = h.state().document.edits();
    click_grid(&mut h, 3.4, 1.3);
    assert!(h_notice(&h).contains("goes on from its last point"), "{}", h_notice(&h));
    click_grid(&mut h, 3.0, 3.0);
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(drawn_shapes(&h), path(vec![[0.0, 0.0], [2.0 * tw, 0.0], [2.0 * tw, 2.0 * th]]));
    assert_eq!((h.state().document.map.objects[0].id, h.state().document.edits()), (id, undo + 1));
    // From its first point: the new points go before it, the path keeps its direction and
    // its cell (the cell of its position).
    click_grid(&mut h, 1.0, 1.0);
    click_grid(&mut h, 1.0, 3.0);
    h.key_press(Key::Enter);
    h.run();
    let four = vec![[0.0, 2.0 * th], [0.0, 0.0], [2.0 * tw, 0.0], [2.0 * tw, 2.0 * th]];
    assert_eq!(drawn_shapes(&h), path(four.clone()));
    // Esc leaves it as it was, with no undo step.
    let undo = h.state().document.edits();
    click_grid(&mut h, 3.0, 3.0);
    click_grid(&mut h, 5.0, 5.0);
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(drawn_shapes(&h), path(four.clone()));
    assert_eq!(h.state().document.edits(), undo);
    // From one end, a click on the other closes it into a polygon; undo makes it a path again.
    click_grid(&mut h, 3.0, 3.0);
    click_grid(&mut h, 1.0, 3.0);
    assert_eq!(drawn_shapes(&h), vec![(Cell::new(1, 1), Some(ShapeKind::Polygon(four.clone())))]);
    assert_eq!(h.state().document.edits(), undo + 1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(drawn_shapes(&h), path(four));
}

/// A turned path goes on from its ends where they are drawn, and keeps its turn: the new points
/// are kept in its own frame.
#[test]
fn a_turned_path_goes_on_from_its_ends_as_drawn() {
    use egui::Key;
    use sightline::core::Cell;
    use sightline::core::model::object::ShapeKind;
    let mut h = harness();
    let (_dir, [tw, th]) = object_tool_on_floor(&mut h, "polygon or path");
    assert_eq!(tw, th, "the grid points below assume square cells");
    click_grid(&mut h, 1.0, 1.0);
    click_grid(&mut h, 3.0, 1.0);
    h.key_press(Key::Enter);
    h.run();
    let id = h.state().editor.focused_object.unwrap();
    // Turned a quarter clockwise about its first point: its last is drawn at (1, 3).
    let position = [tw, th];
    h.state_mut().commands.push(Command::Objects(ObjectCommand::SetObjectGeometry {
        id,
        position,
        size: None,
        rotation: 90.0,
    }));
    h.run();
    click_grid(&mut h, 1.0, 3.0);
    assert!(h_notice(&h).contains("goes on from its last point"), "{}", h_notice(&h));
    click_grid(&mut h, 3.0, 3.0);
    h.key_press(Key::Enter);
    h.run();
    // The new point, (3, 3) on the map, is two cells along the path's own y, back up its x.
    let o = h.state().document.map.objects.last().unwrap();
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.kind, ShapeKind::Polyline(vec![[0.0, 0.0], [2.0 * tw, 0.0], [2.0 * tw, -2.0 * th]]));
    assert_eq!((shape.rotation, o.cell), (90.0, Cell::new(1, 1)));
    // Turned 30°, its own points stay as they were through the turn there and back (exactly,
    // in the file too); the new one is where the click was, in its frame.
    h.state_mut().commands.push(Command::Objects(ObjectCommand::SetObjectGeometry {
        id,
        position,
        size: None,
        rotation: 30.0,
    }));
    h.run();
    let at = |p: [f64; 2]| {
        let [x, y] = sightline::core::model::object::rotated(p, 30.0);
        ((position[0] + x) / tw, (position[1] + y) / th)
    };
    let (x, y) = at([2.0 * tw, -2.0 * th]);
    click_grid(&mut h, x as f32, y as f32);
    assert!(h_notice(&h).contains("goes on from its last point"), "{}", h_notice(&h));
    click_grid(&mut h, 5.0, 1.0);
    h.key_press(Key::Enter);
    h.run();
    let shape = h.state().document.map.objects.last().unwrap().shape.clone().unwrap();
    let ShapeKind::Polyline(points) = &shape.kind else { panic!("a path") };
    assert_eq!(points[..3], [[0.0, 0.0], [2.0 * tw, 0.0], [2.0 * tw, -2.0 * th]]);
    let (x, y) = at(points[3]);
    assert!((x - 5.0).abs() < 1e-9 && (y - 1.0).abs() < 1e-9, "{x}, {y}");
}

#[test]
fn the_objects_list_filters_by_name_class_or_id_and_a_click_holds_and_centres_an_object() {
    let (_dir, path) = fixture_copy("object_layers.tmx");
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path)));
    h.run();
    h.get_by_label("Objects (4)");
    // Every object, its layer's heading above it, top layer first.
    for label in ["zones (1)", "spawns (2)", "under (1)"] {
        h.get_by_label(label);
    }
    h.get_by_label_contains("#8 exit · 5, 3 · rectangle 8 × 8 px");
    h.get_by_label_contains("#5 goblin · monster");
    // Typed into the filter: only what matches, by class here, then by id.
    h.get_by_label("filter objects").click();
    h.run();
    h.get_by_label("filter objects").type_text("monst");
    h.run();
    assert!(h.query_by_label_contains("#8 exit").is_none());
    h.get_by_label_contains("#5 goblin");
    h.get_by_label("spawns (1)");
    h.state_mut().object_filter = "#8".into();
    h.run();
    assert!(h.query_by_label_contains("#5 goblin").is_none());
    // A click: the object tool holds it, and the view centres on its cell.
    let exit = h.state().document.map.object_by_id(8).unwrap().cell;
    h.get_by_label_contains("#8 exit").click();
    h.run();
    h.run();
    assert_eq!(h.state().editor.tool, sightline::app::Tool::Object);
    assert_eq!(h.state().editor.focused_object, Some(8));
    let view = &h.state().view;
    let centre = view.screen_from_grid(exit) + egui::vec2(0.5, 0.5) * view.cell_px;
    // The canvas's middle is on its cell (the tools bar may have grown a little since).
    let off = centre - view.canvas.center();
    assert!(off.x.abs().max(off.y.abs()) < view.cell_px / 2.0, "{centre:?} {:?}", view.canvas.center());
    // Its checkbox hides it (an edit, undone as one).
    let undo = h.state().document.edits();
    h.get_by_label("show object #8").click();
    h.run();
    assert!(!h.state().document.map.object_by_id(8).unwrap().visible);
    // Shown again: each click is its own undo step.
    h.get_by_label("show object #8").click();
    h.run();
    assert!(h.state().document.map.object_by_id(8).unwrap().visible);
    assert_eq!(h.state().document.edits(), undo + 2);
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert!(!h.state().document.map.object_by_id(8).unwrap().visible);
    // Nothing matches: it says so.
    h.state_mut().object_filter = "dragon".into();
    h.run();
    h.get_by_label("No object matches \"dragon\".");
}

#[test]
fn a_drag_of_a_paste_lays_objects_in_one_step_and_a_paste_off_the_map_adds_no_layer() {
    use egui::{Key, Modifiers};
    use sightline::core::{Cell, LayerRef, StackItem};
    let mut h = harness();
    let (_dir, _) = object_tool_on_floor(&mut h, "monster");
    click_cell(&mut h, Cell::new(3, 3));
    // The 4 × 4 cells from the corner, the goblin in their far corner, copied.
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(3, 3)]);
    h.get_by_label("objects (1 object)").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    h.run();
    // A drag lays a copy at each step that fits (one undo step); the notice counts them all.
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run();
    let undo = h.state().document.edits();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(2, 0), Cell::new(4, 0), Cell::new(6, 0)]);
    assert_eq!(object_picture(&h)[3], "...g...g..");
    assert_eq!(h.state().document.edits(), undo + 1);
    assert_eq!(h_notice(&h), "pasted 2 objects on \"objects\"");
    h.key_press(Key::Escape);
    h.run();
    // With no object layer left, a paste whose objects all fall off the map makes none.
    h.state_mut().commands.push(Command::Layers(LayerCommand::RemoveLayer(StackItem::Layer(LayerRef::Objects(0)))));
    h.run();
    assert!(h.state().document.map.object_layers.is_empty());
    let undo = h.state().document.edits();
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run();
    click_cell(&mut h, Cell::new(8, 4));
    assert!(h.state().document.map.object_layers.is_empty(), "no layer for nothing");
    assert_eq!(h.state().document.edits(), undo, "no undo step for nothing");
    assert!(h_notice(&h).contains("1 off the map left out"), "{}", h_notice(&h));
    // Where it fits, the layer is made and the object laid, one step.
    click_cell(&mut h, Cell::new(0, 0));
    assert_eq!(object_picture(&h)[3], "...g......");
    assert_eq!(h.state().document.map.object_layers.len(), 1);
    assert_eq!(h.state().document.edits(), undo + 1);
}

/// Each cell of `layer` as its sprite's index in its sheet (a hex digit), or its glyph for a
/// tile with no sprite: one string a row.
fn look_rows(map: &sightline::core::Map, layer: usize) -> Vec<String> {
    let look = |t: sightline::core::TileId| {
        let kind = &map.tiles[usize::from(t)];
        kind.sprite.map_or(kind.glyph.ch, |s| char::from_digit(s.index, 16).unwrap_or('?'))
    };
    (0..map.height() as i32)
        .map(|y| {
            (0..map.width() as i32).map(|x| look(map.tile(layer, sightline::core::Cell::new(x, y)).unwrap())).collect()
        })
        .collect()
}

#[test]
fn a_stamp_copied_in_one_map_pastes_into_the_next_bringing_the_tile_types_it_lacks() {
    use sightline::core::Cell;
    let (dir, tiny) = external_tileset_copy();
    let room = dir.path().join("room.txt");
    std::fs::write(&room, "##########\n#........#\n#........#\n#........#\n##########\n").unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(tiny.clone())));
    h.run();
    assert_eq!(look_rows(&h.state().document.map, 0), ["1111", "1021", "1131"]);
    let source_tiles = h.state().document.map.tiles.clone();
    // The tileset's doors and the floor beside them, copied; then another map is opened.
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(1, 1), Cell::new(2, 2)]);
    h.state_mut().commands.push(Command::Selection(SelectionCommand::Copy));
    h.run();
    h.state_mut().commands.push(Command::File(FileCommand::Open(room.clone())));
    h.run();
    assert_eq!(h.state().document.file_name(), "room.txt");
    assert_eq!((h.state().document.map.tiles.len(), h.state().document.map.sheets.len()), (7, 0));

    // The stamp is still there: it says where it is from and what a paste brings.
    h.state_mut().commands.push(Command::Selection(SelectionCommand::Paste));
    h.run();
    h.get_by_label("stamp 2 × 2 from tiny.tmx, bringing 4 tile types this map lacks");
    assert!(!h.state().document.dirty, "holding the stamp is no edit");
    click_cell(&mut h, Cell::new(5, 1));
    let map = &h.state().document.map;
    assert_eq!(
        look_rows(map, 0),
        [
            "##########", //
            "#....02..#",
            "#....13..#",
            "#........#",
            "##########",
        ]
    );
    // The tileset came whole, its four tile types after the room's seven, the same as in
    // tiny.tmx: the doors still open into each other.
    assert_eq!(h_notice(&h), "added tileset tiny and its 4 tile types");
    assert_eq!(map.sheets.len(), 1);
    assert_eq!(map.sheets[0].image, dir.path().join("tiny.png"));
    let doorless = |t: &[sightline::core::TileKind]| {
        t.iter().map(|k| sightline::core::TileKind { door: None, ..k.clone() }).collect::<Vec<_>>()
    };
    assert_eq!(doorless(&map.tiles[7..]), doorless(&source_tiles[1..]));
    assert_eq!(map.tiles[9].door.map(|d| d.toggles_to), Some(10));
    assert_eq!(map.tiles[10].door.map(|d| d.toggles_to), Some(9));
    // A second copy finds them there: nothing more is added.
    click_cell(&mut h, Cell::new(1, 2));
    let map = &h.state().document.map;
    assert_eq!(
        look_rows(map, 0),
        [
            "##########", //
            "#....02..#",
            "#02..13..#",
            "#13......#",
            "##########",
        ]
    );
    assert_eq!((map.tiles.len(), map.sheets.len()), (11, 1));
    assert_eq!(h.state().document.edits(), 2, "each paste one undo step");
    h.get_by_label("stamp 2 × 2 from tiny.tmx");

    // Undone, the room is as it was, types and tileset gone; redone and saved elsewhere, the
    // map reads back with the tileset's image found.
    h.state_mut().commands.extend([Command::History(HistoryCommand::Undo), Command::History(HistoryCommand::Undo)]);
    h.run();
    assert_eq!((h.state().document.map.tiles.len(), h.state().document.map.sheets.len()), (7, 0));
    assert!(!h.state().document.dirty);
    h.state_mut().commands.extend([Command::History(HistoryCommand::Redo), Command::History(HistoryCommand::Redo)]);
    h.run();
    let elsewhere = tempfile::tempdir().unwrap();
    let saved = elsewhere.path().join("room.tmx");
    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(saved.clone())));
    h.run();
    assert!(h.state().error.is_none(), "{:?}", h.state().error);
    let reloaded = sightline::core::format::load(&saved).unwrap().map;
    assert_eq!(look_rows(&reloaded, 0), look_rows(&h.state().document.map, 0));
    assert!(std::path::absolute(&reloaded.sheets[0].image).unwrap().exists());

    // Back in tiny.tmx, the stamp is its own again: it lays the very ids it was copied as.
    h.state_mut().commands.push(Command::File(FileCommand::Open(tiny)));
    h.run();
    let ids = h.state().document.map.layers[0].cells.clone();
    // (Its ground layer is locked in the file.)
    h.state_mut().commands.extend([
        Command::Layers(LayerCommand::SetLayerLocked(StackItem::Layer(LayerRef::Tiles(0)), false)),
        Command::Selection(SelectionCommand::PasteAt(Cell::new(2, 0))),
    ]);
    h.run();
    let map = &h.state().document.map;
    assert_eq!(map.tiles.len(), 5, "nothing added");
    assert_eq!(look_rows(map, 0), ["1102", "1013", "1131"]);
    assert_eq!(map.tile(0, Cell::new(2, 0)), Some(ids[5]));
    // A copy made here is this map's: it no longer says where it is from.
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(1, 1)]);
    h.state_mut()
        .commands
        .extend([Command::Selection(SelectionCommand::Copy), Command::Selection(SelectionCommand::Paste)]);
    h.run();
    h.get_by_label("stamp 2 × 2");
    assert!(!h.state().editor.clipboard_elsewhere);

    // The room's own walls and floor, pasted into tiny.tmx, are not its tileset's walls and
    // floor (tiles with no image): they come in by themselves.
    h.state_mut()
        .commands
        .extend([Command::Selection(SelectionCommand::CancelSelection), Command::File(FileCommand::OpenNow(saved))]);
    h.run();
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(0, 0), Cell::new(1, 1)]);
    h.state_mut().commands.push(Command::Selection(SelectionCommand::Copy));
    h.run();
    h.state_mut().commands.push(Command::File(FileCommand::OpenNow(dir.path().join("tiny.tmx"))));
    h.run();
    h.state_mut().commands.extend([
        Command::Layers(LayerCommand::SetLayerLocked(StackItem::Layer(LayerRef::Tiles(0)), false)),
        Command::Selection(SelectionCommand::PasteAt(Cell::new(2, 1))),
    ]);
    h.run();
    assert_eq!(h_notice(&h), "added 2 tile types this map lacked (floor, wall)");
    assert_eq!(look_rows(&h.state().document.map, 0), ["1111", "10##", "11#."]);
}

#[test]
fn open_recent_tells_same_named_files_apart_and_greys_out_one_that_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["east", "west"] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
    }
    let east = dir.path().join("east/room.txt");
    std::fs::write(&east, "#####\n#...#\n#####\n").unwrap();
    let west = dir.path().join("west/room.txt");
    let mut h = harness();
    h.state_mut().recent = vec![east.clone(), west.clone()];
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open recent").hover();
    h.run();
    // The west room was never written: it is listed, but cannot be chosen.
    assert!(h.get_by_label("room.txt — west").accesskit_node().is_disabled());
    assert!(!h.get_by_label("room.txt — east").accesskit_node().is_disabled());
    h.get_by_label("room.txt — east").click();
    h.run();
    assert_eq!(h.state().document.path.as_deref(), Some(east.as_path()));
    h.get_by_label("5 × 3");
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

#[test]
fn a_stamp_whose_tile_type_an_undo_took_away_brings_it_back_when_pasted() {
    use sightline::core::Cell;
    let mut h = harness();
    h.run();
    // A new tile type, painted, then copied.
    h.state_mut().commands.push(Command::Tiles(TileCommand::AddTile));
    h.run();
    let added = h.state().editor.tile;
    assert_eq!(usize::from(added), h.state().document.map.tiles.len() - 1);
    click_cell(&mut h, Cell::new(5, 3));
    assert_eq!(h.state().document.map.tile(0, Cell::new(5, 3)), Some(added));
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(4, 3), Cell::new(5, 3)]);
    h.state_mut().commands.push(Command::Selection(SelectionCommand::Copy));
    h.run();
    // The selection and both edits undone: the map no longer has the type the stamp lays.
    h.state_mut().commands.extend([
        Command::History(HistoryCommand::Undo),
        Command::History(HistoryCommand::Undo),
        Command::History(HistoryCommand::Undo),
    ]);
    h.run();
    let types = h.state().document.map.tiles.len();
    assert_eq!(types, usize::from(added));
    assert_eq!(h.state().editor.clipboard.as_ref().map(|s| s.cells.clone()), Some(vec![1, added]));
    h.state_mut().commands.extend([
        Command::Selection(SelectionCommand::CancelSelection),
        Command::Selection(SelectionCommand::PasteAt(Cell::new(10, 3))),
    ]);
    h.run();
    let map = &h.state().document.map;
    assert_eq!(map.tiles.len(), types + 1, "the type came back");
    assert_eq!(map.tiles[usize::from(added)].name, "new tile");
    assert_eq!(map.tile(0, Cell::new(11, 3)), Some(added));
    assert_eq!(h_notice(&h), "added 1 tile type this map lacked (new tile)");

    // Undone again, and another type takes the slot ("ice"): the paste brings the copied type
    // back after it, and lays that, not ice.
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    h.state_mut().commands.push(Command::Tiles(TileCommand::AddTile));
    h.run();
    let mut ice = sightline::core::edit::TileRules::of(&h.state().document.map.tiles[usize::from(added)]);
    ice.name = "ice".into();
    h.state_mut().commands.push(Command::Tiles(TileCommand::SetTileRules(added, ice)));
    h.run();
    h.state_mut().commands.push(Command::Selection(SelectionCommand::PasteAt(Cell::new(10, 5))));
    h.run();
    let map = &h.state().document.map;
    assert_eq!(map.tiles[usize::from(added)].name, "ice");
    let laid = map.tile(0, Cell::new(11, 5)).expect("a tile laid");
    assert_eq!((usize::from(laid), map.tiles[usize::from(laid)].name.as_str()), (types + 1, "new tile"));

    // A type only edited since the copy (its look) is the same type: laid as it is now.
    let mut red = sightline::core::edit::TileRules::of(&map.tiles[1]);
    red.glyph.fg = sightline::core::Rgb(200, 0, 0);
    h.state_mut().commands.push(Command::Tiles(TileCommand::SetTileRules(1, red)));
    h.run();
    let types = h.state().document.map.tiles.len();
    h.state_mut().commands.push(Command::Selection(SelectionCommand::PasteAt(Cell::new(10, 7))));
    h.run();
    let map = &h.state().document.map;
    assert_eq!(map.tiles.len(), types, "nothing came in");
    assert_eq!(map.tile(0, Cell::new(10, 7)), Some(1));
}

/// Two layers, and two tile types, of one name: the inspector's tile drop-downs and the tile
/// types window's door drop-downs are told apart by layer and tile, not by name (egui found
/// their ids clashing, which a debug build paints in red and a test panics on; the monkey of
/// tests/monkey.rs found it).
#[test]
fn layers_and_tiles_of_one_name_have_their_own_drop_downs() {
    use sightline::core::{Cell, LayerRef, StackItem};
    let mut h = harness();
    h.state_mut().commands.push(Command::Layers(LayerCommand::DuplicateLayer(StackItem::Layer(LayerRef::Tiles(0)))));
    h.run();
    let name = h.state().document.map.layers[0].name.clone();
    h.state_mut()
        .commands
        .push(Command::Layers(LayerCommand::RenameLayer(StackItem::Layer(LayerRef::Tiles(1)), name.clone())));
    h.run();
    assert_eq!(h.state().document.map.layers[1].name, name);
    select_for_inspector(&mut h, Cell::new(3, 2));
    assert_eq!(h.get_all_by_label(&format!("tile on {name}")).count(), 2);
    // Two tile types named alike, both doors.
    let mut door = sightline::core::edit::TileRules::of(&h.state().document.map.tiles[3]);
    h.state_mut().commands.push(Command::Tiles(TileCommand::AddTile));
    h.run();
    let added = (h.state().document.map.tiles.len() - 1) as sightline::core::TileId;
    door.door = Some((false, 4));
    h.state_mut().commands.push(Command::Tiles(TileCommand::SetTileRules(added, door.clone())));
    h.state_mut().commands.push(Command::Tiles(TileCommand::ShowTileTypes(true)));
    h.run();
    assert_eq!(h.get_all_by_label(&format!("door kind of {}", door.name)).count(), 2);
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
    let notice = h.state().notice.clone().unwrap_or_default();
    assert!(notice.contains("the map is hexagonal: sightline draws and plays it as a square grid"), "{notice}");
    h.state_mut().map_properties_open = true;
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

/// A layer's class (Tiled's Class field) is typed under its name: applied when the field is
/// left, one undo step, and cleared the same way.
#[test]
fn a_layers_class_is_typed_under_its_name_in_one_undo_step() {
    use egui::Key;
    let mut h = harness();
    let current = h.state().editor.current_item();
    let class = |h: &Harness<'static, SightlineApp>| {
        sightline::core::model::layers::item_class(&h.state().document.map, current).unwrap().to_owned()
    };
    assert_eq!(class(&h), "");
    h.get_by_label("layer class").click();
    h.run();
    h.get_by_label("layer class").type_text(" terrain ");
    h.run();
    assert_eq!(class(&h), "", "not set while typing");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(class(&h), "terrain");
    assert_eq!(h.get_by_label("layer class").value().as_deref(), Some("terrain"));
    let name = h.state().document.map.layers[0].name.clone();
    let steps = &h.state().document.undo;
    assert_eq!(steps.last().map(|s| s.name()), Some(format!("Set the class of \"{name}\" to \"terrain\"").as_str()));
    let before = steps.len();
    // Cleared: no class.
    clear_field(&mut h, "layer class");
    assert_eq!(class(&h), "");
    assert_eq!(h.state().document.undo.len(), before + 1, "one step");
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(class(&h), "terrain");
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
    h.state_mut().map_properties_open = true;
    h.run();
    assert!(h.get_by_label("tile layer format").accesskit_node().is_disabled());
}
