//! Custom properties of the map, layers, tile types and objects, with Tiled's types.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sightline::app::{Command, FileCommand, HistoryCommand, MapCommand, ObjectCommand, SightlineApp, TileCommand};

use crate::common::{click_cell, click_menu_item, sample};
use crate::{fixture_copy, harness, select_for_inspector};

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
    assert!(h.state().windows.map_properties);
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
