//! The layers panel: tile, object and group layers added, edited, reordered, dragged, locked and
//! hidden, each change one undo step.

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sightline::app::{Command, FileCommand, HistoryCommand, LayerCommand, SightlineApp};
use sightline::core::{LayerRef, StackItem};

use crate::common::{click_cell, sample};
use crate::{clear_field, drag_through, fixture_copy, harness, right_click_cell};

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
    let notice = h.state().prompts.notice.clone().unwrap_or_default();
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
    let notice = h.state().prompts.notice.clone().unwrap_or_default();
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
    let notice = h.state().prompts.notice.clone().unwrap_or_default();
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
    assert!(h.state().prompts.notice.clone().unwrap_or_default().contains("\"canopy\" is a layer group"));
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
