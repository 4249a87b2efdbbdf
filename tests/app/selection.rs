//! Selections (select, magic wand, same tile) and what acts on them: copy, cut, paste (into
//! this map or the next), crop, fill.

use egui_kittest::kittest::{NodeT, Queryable};
use sightline::app::{
    Command, FileCommand, HistoryCommand, LayerCommand, MapCommand, SelectionCommand, TileCommand, ToolCommand,
};
use sightline::core::model::flip::{Flip, Turn};
use sightline::core::{LayerRef, StackItem};

use crate::common::{self, cell_centre, click_cell, click_menu_item, sample};
use crate::{drag_through, external_tileset_copy, h_notice, harness, open_ascii};

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
    assert!(h.state().prompts.error.is_none(), "{:?}", h.state().prompts.error);
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
