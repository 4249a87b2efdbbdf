//! Files: open, save and save as (asking first when a save would lose something), new map, the
//! unsaved-changes question, autosave and recovery, recent files, and the window title.

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sightline::app::{Command, FileCommand, LayerCommand, SightlineApp, ToolCommand};
use sightline::core::{LayerRef, StackItem};

use crate::common::{cell_centre, click_cell, click_menu_item, sample};
use crate::{drag_through, harness};

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
    let message = h.state().prompts.error.as_ref().unwrap().message.clone();
    assert!(message.contains("corrupt.tmx") && message.contains("XML"), "{message}");
    assert_eq!(h.state().document.map, before);
    h.get_by_label("63 × 31");
    h.get_by_label("OK").click();
    h.run();
    assert!(h.state().prompts.error.is_none());
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
    assert!(h.state().prompts.error.is_none(), "{:?}", h.state().prompts.error);
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
    let offered = h.state().prompts.recovery.as_ref().expect("the left-over file is offered");
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
fn saving_over_a_tiled_file_with_what_sightline_does_not_keep_asks_first() {
    use egui::{Key, Modifiers};
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::copy(fixtures.join("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let path = dir.path().join("offset.tmx");
    let original = include_str!("../fixtures/enum_cost.tmx");
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

/// A save that fails (the map's folder read-only) shows the file and the cause; the map stays
/// unsaved under its own name and the old file stays as it was. Save As elsewhere works
/// meanwhile, and once the folder can be written again a save there works.
#[test]
fn a_failed_save_loses_nothing_and_save_as_or_a_retry_works() {
    // On the clone's disk, where `chattr` works (see `read_only_folder`).
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let path = dir.path().join("pillars.ron");
    std::fs::copy(sample("pillars.ron"), &path).unwrap();
    let old = std::fs::read(&path).unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
    h.run();
    h.get_by_label("New layer").click();
    h.run();
    assert!(h.state().document.dirty);
    let edited = h.state().document.map.clone();

    let Some(read_only) = crate::common::read_only_folder(dir.path()) else { return };
    h.state_mut().commands.push(Command::File(FileCommand::Save));
    h.run();
    h.get_by_label("Cannot save the map");
    let message = h.state().prompts.error.as_ref().unwrap().message.clone();
    assert!(message.contains(&path.display().to_string()), "names the file: {message}");
    assert!(message.contains("Permission denied") || message.contains("Operation not permitted"), "{message}");
    h.get_by_label(&message);
    assert!(h.state().document.dirty, "still unsaved");
    assert_eq!(h.state().document.file_name(), "pillars.ron");
    assert_eq!(h.state().document.map, edited, "the edit is still there");
    assert_eq!(std::fs::read(&path).unwrap(), old, "the old file is as it was");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
    h.get_by_label("OK").click();
    h.run();
    assert!(h.query_by_label("Cannot save the map").is_none());

    // Save As into another folder works while this one stays read-only.
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("copy.ron");
    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(copy.clone())));
    h.run();
    assert!(h.state().prompts.error.is_none(), "{:?}", h.state().prompts.error);
    assert!(!h.state().document.dirty);
    assert_eq!(sightline::core::format::load(&copy).unwrap().map, edited);

    // The folder writable again: a save there (the retry) writes the edit.
    drop(read_only);
    h.state_mut().commands.push(Command::File(FileCommand::SaveAs(path.clone())));
    h.run();
    assert!(h.state().prompts.error.is_none(), "{:?}", h.state().prompts.error);
    assert_eq!(h.state().document.file_name(), "pillars.ron");
    assert_eq!(sightline::core::format::load(&path).unwrap().map, edited);
}
