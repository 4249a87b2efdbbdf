//! The inspector: what it says of a cell and its objects, and what it edits there.

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sightline::app::{Command, FileCommand, HistoryCommand, LayerCommand, ObjectCommand, SightlineApp, TileCommand};

use crate::common::{cell_centre, click_cell, sample};
use crate::{fixture_copy, harness, open_ascii, select_for_inspector};

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
fn a_template_instance_says_what_it_sets_itself_and_is_reset_or_detached_in_the_inspector() {
    use egui::{Key, Modifiers};
    use sightline::core::Cell;
    let (dir, path) = fixture_copy("tiny.tsx");
    std::fs::create_dir(dir.path().join("templates")).unwrap();
    std::fs::write(dir.path().join("templates/marker.tx"), include_str!("../fixtures/templates/marker.tx")).unwrap();
    let path = path.with_file_name("templated.tmx");
    std::fs::write(&path, include_str!("../fixtures/templated.tmx")).unwrap();
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
