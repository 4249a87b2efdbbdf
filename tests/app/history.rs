//! Undo and redo: the history panel, and what makes one undo step.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sightline::app::{Command, FileCommand, HistoryCommand, SightlineApp, TileCommand};

use crate::common::{self, click_cell, sample};
use crate::{drag_through, harness, open_ascii};

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
