//! The painting tools: the brush (wider, random, in lines, flipped and turned), the rectangle,
//! the fill, and the tools' keys.

use egui_kittest::kittest::Queryable;
use sightline::app::{Command, FileCommand, ToolCommand};
use sightline::core::model::flip::Flip;

use crate::common::{cell_centre, click_cell, sample};
use crate::{drag_through, harness};

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
