//! The object tool placing, moving and removing objects; objects copied, cut and pasted; the
//! objects list.

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sightline::app::{Command, FileCommand, HistoryCommand, LayerCommand, ObjectCommand, SightlineApp, TileCommand};
use sightline::core::model::flip::Flip;

use crate::common::{self, cell_centre, click_cell, sample};
use crate::{drag_grid_holding, drag_through, fixture_copy, h_notice, harness, object_tool_on_floor, right_click_cell};

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
    assert!(h.state().prompts.notice.as_deref().is_some_and(|n| n.starts_with("choose a tile")));
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
