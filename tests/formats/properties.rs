//! Custom properties of every Tiled type (colour, file, object, class, enum, list), and numbers
//! beyond an i32 or an f32.

use std::path::Path;

use sightline::core::Map;
use sightline::core::format;

use crate::{fixture, load, round_trip};

#[test]
fn tiled_property_types_survive_every_tiled_and_ron_round_trip() {
    use sightline::core::{Properties, PropertyValue, Rgba};
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    // A map with a property of each of Tiled's types.
    let path = dir.path().join("typed.tmx");
    std::fs::copy(fixture("typed_properties.tmx"), &path).unwrap();
    let loaded = format::load(&path).unwrap();
    assert!(!loaded.warnings.iter().any(|w| w.contains("does not keep")), "{:?}", loaded.warnings);
    let map = loaded.map;
    let p = &map.properties;
    // 0.1, not the 0.10000000149011612 the `tiled` crate's f32 widens to.
    assert_eq!(p["speed"], PropertyValue::Float(0.1));
    assert_eq!(p["tint"], PropertyValue::Color(Some(Rgba(255, 32, 0, 128))), "alpha kept");
    // Tiled writes a colour never set as value="" (the `tiled` crate refuses it: the whole map was).
    assert_eq!(p["unset"], PropertyValue::Color(None));
    assert_eq!(p["script"], PropertyValue::File("scripts/chest.lua".into()));
    assert_eq!(p["target"], PropertyValue::Object(3));
    let members: Properties = [
        ("hp".to_owned(), PropertyValue::Int(5)),
        ("aura".to_owned(), PropertyValue::Color(Some(Rgba(0, 255, 0, 255)))),
        ("inner".to_owned(), PropertyValue::Class { class: "Resist".into(), members: Properties::new() }),
    ]
    .into();
    assert_eq!(p["stats"], PropertyValue::Class { class: "Stats".into(), members });
    // A colour-typed `fg` is the tile's glyph colour, as a text one is.
    let tile = map.tiles.iter().find(|t| t.sprite.is_some_and(|s| s.index == 1)).expect("tile 1");
    assert_eq!(tile.glyph.fg, sightline::core::Rgb(0xaa, 0, 0));

    for ext in ["tmx", "ron"] {
        let back = round_trip(&map, ext);
        assert_eq!(back.properties, map.properties, "{ext}");
    }
    // Tiled's JSON writes a class's members as bare values (their types are in the designer's
    // Tiled project), so read back they take their JSON types; from there on they round-trip.
    let from_json = round_trip(&map, "tmj");
    let mut expected = map.properties.clone();
    let members: Properties = [
        ("hp".to_owned(), PropertyValue::Int(5)),
        ("aura".to_owned(), PropertyValue::String("#ff00ff00".into())),
        ("inner".to_owned(), PropertyValue::Class { class: String::new(), members: Properties::new() }),
    ]
    .into();
    expected.insert("stats".into(), PropertyValue::Class { class: "Stats".into(), members });
    assert_eq!(from_json.properties, expected);
    assert_eq!(round_trip(&from_json, "tmj").properties, expected);
    // The save says so, naming the members; TMX keeps their types and says nothing.
    let saved = format::save(&map, &dir.path().join("said.tmj")).unwrap();
    assert!(
        saved.warnings.iter().any(|w| w.starts_with(r#"class members "aura", "inner" will read back as another type"#)),
        "{:?}",
        saved.warnings
    );
    let saved = format::save(&map, &dir.path().join("said.tmx")).unwrap();
    assert!(!saved.warnings.iter().any(|w| w.contains("class members")), "{:?}", saved.warnings);
    // Written as Tiled writes them.
    let out = dir.path().join("out.tmx");
    format::save(&map, &out).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    for line in [
        r##"<property name="tint" type="color" value="#80ff2000"/>"##,
        r#"<property name="unset" type="color" value=""/>"#,
        r#"<property name="script" type="file" value="scripts/chest.lua"/>"#,
        r#"<property name="target" type="object" value="3"/>"#,
        r#"<property name="stats" type="class" propertytype="Stats">"#,
        r#"<property name="inner" type="class" propertytype="Resist"/>"#,
        r#"<property name="speed" type="float" value="0.1"/>"#,
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
    let out = dir.path().join("out.tmj");
    format::save(&map, &out).unwrap();
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let property = |name: &str| json["properties"].as_array().unwrap().iter().find(|p| p["name"] == name).cloned();
    assert_eq!(property("unset"), Some(serde_json::json!({"name": "unset", "type": "color", "value": ""})));
    let stats = property("stats").unwrap();
    assert_eq!(
        stats,
        serde_json::json!({"name": "stats", "type": "class", "propertytype": "Stats",
            "value": {"hp": 5, "aura": "#ff00ff00", "inner": {}}})
    );
}

/// A map with one `properties` element in the middle of its tile layer, in a Tiled file `ext`
/// (tmx or tmj, the properties given in that format), loaded without a word about what a save
/// would drop.
fn load_with_layer_properties(dir: &Path, ext: &str, properties: &str) -> Map {
    std::fs::copy(fixture("tiny.png"), dir.join("tiny.png")).unwrap();
    let path = dir.join(format!("properties.{ext}"));
    let text = match ext {
        "tmx" => format!(
            r#"<?xml version="1.0"?>
<map version="1.12" orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="2" columns="2">
  <image source="tiny.png" width="16" height="8"/>
 </tileset>
 <layer id="1" name="ground" width="2" height="1">
  {properties}
  <data encoding="csv">1,2</data>
 </layer>
</map>"#
        ),
        _ => format!(
            r#"{{"width": 2, "height": 1, "tilewidth": 8, "tileheight": 8, "orientation": "orthogonal",
                "tilesets": [{{"firstgid": 1, "name": "t", "tilewidth": 8, "tileheight": 8, "tilecount": 2,
                    "columns": 2, "image": "tiny.png", "imagewidth": 16, "imageheight": 8}}],
                "layers": [{{"type": "tilelayer", "name": "ground", "width": 2, "height": 1, "data": [1, 2],
                    "properties": {properties}}}]}}"#
        ),
    };
    std::fs::write(&path, text).unwrap();
    let loaded = format::load(&path).unwrap_or_else(|e| panic!("{ext}: {e}"));
    assert!(!loaded.warnings.iter().any(|w| w.contains("does not keep")), "{ext}: {:?}", loaded.warnings);
    loaded.map
}

/// The `tiled` crate reads a TMX int as an `i32` and a float as an `f32`; whole numbers beyond
/// ±2³¹ and floats of more digits than an `f32` holds come back as written all the same (Tiled's
/// JSON, and RON, hold them as they are), as properties, list items and class members.
#[test]
fn tmx_numbers_beyond_an_i32_or_an_f32_read_back_exactly() {
    use sightline::core::PropertyValue;
    let dir = tempfile::tempdir().unwrap();
    let map = load_with_layer_properties(
        dir.path(),
        "tmx",
        r#"<properties>
   <property name="big" type="int" value="-1099511627776"/>
   <property name="precise" type="float" value="123456.789"/>
   <property name="tiny" type="float" value="1e-300"/>
   <property name="plain" type="float" value="0.1"/>
   <property name="list" type="list">
    <item type="int" value="9007199254740993"/>
   </property>
   <property name="stats" type="class" propertytype="Stats">
    <properties><property name="gold" type="int" value="5000000000"/></properties>
   </property>
  </properties>"#,
    );
    let p = &map.layers[0].properties;
    assert_eq!(p["big"], PropertyValue::Int(-1_099_511_627_776));
    assert_eq!(p["precise"], PropertyValue::Float(123_456.789));
    assert_eq!(p["tiny"], PropertyValue::Float(1e-300));
    assert_eq!(p["plain"], PropertyValue::Float(0.1));
    assert_eq!(p["list"], PropertyValue::List(vec![PropertyValue::Int(9_007_199_254_740_993)]));
    let PropertyValue::Class { members, .. } = &p["stats"] else { panic!("{:?}", p["stats"]) };
    assert_eq!(members["gold"], PropertyValue::Int(5_000_000_000));
    for ext in ["tmx", "tmj", "ron"] {
        assert_eq!(round_trip(&map, ext).layers[0].properties, *p, "{ext}");
    }
    // Tiled itself holds an int property in 32 bits: a Tiled save says which will not open
    // there as they are (a note: sightline loses nothing, so the save does not ask).
    for ext in ["tmx", "tmj"] {
        let rendered = format::render(&map, &dir.path().join(format!("said.{ext}"))).unwrap();
        assert!(
            rendered.notes.iter().any(|n| n.starts_with(r#"ints beyond 32 bits in "big", "gold", "list": Tiled"#)),
            "{ext}: {:?}",
            rendered.notes
        );
        assert!(rendered.warnings.iter().all(|w| !w.contains("32 bits")), "{ext}: {:?}", rendered.warnings);
    }
    let mut small = map.clone();
    small.layers[0].properties.retain(|name, _| !["big", "list", "stats"].contains(&name.as_str()));
    small.layers[0].properties.insert("edge".into(), PropertyValue::Int(i64::from(i32::MIN)));
    let rendered = format::render(&small, &dir.path().join("small.tmx")).unwrap();
    assert!(rendered.notes.iter().all(|n| !n.contains("32 bits")), "{:?}", rendered.notes);
    // Past an i64 it is no whole number sightline holds: refused, naming the property and line.
    let bad = dir.path().join("bad.tmx");
    let text = std::fs::read_to_string(dir.path().join("properties.tmx")).unwrap();
    std::fs::write(&bad, text.replace("-1099511627776", "99999999999999999999")).unwrap();
    let e = format::load(&bad).unwrap_err().to_string();
    assert!(e.contains(r#"property "big" of type "int" has value "99999999999999999999": use a whole number"#), "{e}");
}

/// A float property reads back to its very bits through every format, whatever its exponent:
/// 2000 finite doubles of random bits, and a few by hand. serde_json's default reading of
/// floats may miss by a last bit (2.1111111111111113e+65 came back as 2.111111111111111e+65, so
/// each JSON save changed it: the fuzzer's round trip found it); its exact reading is on.
#[test]
fn float_properties_read_back_to_the_bit_in_every_format() {
    use sightline::core::PropertyValue;
    use sightline::core::rng::Rng;
    let mut map = Map::new_standard(2, 1, sightline::core::model::tile::STANDARD_FLOOR).unwrap();
    let mut rng = Rng::new(0xF10A7);
    let mut floats = vec![2.1111111111111113e+65, 5e-324, f64::MAX, f64::MIN_POSITIVE, -0.0, 0.1, 1e23];
    while floats.len() < 2000 {
        let f = f64::from_bits(rng.next_u64());
        if f.is_finite() {
            floats.push(f);
        }
    }
    for (i, f) in floats.iter().enumerate() {
        map.layers[0].properties.insert(format!("f{i:04}"), PropertyValue::Float(*f));
    }
    for ext in ["tmx", "tmj", "ron"] {
        let back = round_trip(&map, ext);
        for (i, f) in floats.iter().enumerate() {
            let read = &back.layers[0].properties[&format!("f{i:04}")];
            let PropertyValue::Float(r) = read else { panic!("{ext}: f{i:04} = {f:e} read as {read:?}") };
            assert_eq!(r.to_bits(), f.to_bits(), "{ext}: {f:e} read back as {r:e}");
        }
    }
}

#[test]
fn tiled_list_properties_are_kept_with_their_items_types_through_every_format() {
    use sightline::core::{EnumValue, Properties, PropertyValue};
    let dir = tempfile::tempdir().unwrap();
    // Tiled 1.12's example of a nested list, and items of every kind a list can hold: an enum
    // (by name and by index), a class with members, an unset colour, an empty class, an empty
    // list, and a string over two lines (which Tiled writes as the item's text).
    let tmx = load_with_layer_properties(
        dir.path(),
        "tmx",
        r##"<properties>
   <property name="list property" type="list">
    <item type="int" value="10"/>
    <item value="text"/>
    <item type="list">
     <item type="bool" value="true"/>
    </item>
   </property>
   <property name="waypoints" type="list">
    <item propertytype="Direction" value="north"/>
    <item type="int" propertytype="Speed" value="2"/>
    <item type="class" propertytype="Spawn">
     <properties><property name="hp" type="int" value="5"/><property name="kind" value="orc"/></properties>
    </item>
    <item type="color" value=""/>
    <item type="class" propertytype="Marker"/>
    <item type="list"/>
    <item>two
lines</item>
   </property>
   <property name="empty" type="list"/>
  </properties>"##,
    );
    let spawn: Properties =
        [("hp".to_owned(), PropertyValue::Int(5)), ("kind".to_owned(), PropertyValue::String("orc".into()))].into();
    let expected: Properties = [
        (
            "list property".to_owned(),
            PropertyValue::List(vec![
                PropertyValue::Int(10),
                PropertyValue::String("text".into()),
                PropertyValue::List(vec![PropertyValue::Bool(true)]),
            ]),
        ),
        (
            "waypoints".to_owned(),
            PropertyValue::List(vec![
                PropertyValue::Enum { enum_type: "Direction".into(), value: EnumValue::String("north".into()) },
                PropertyValue::Enum { enum_type: "Speed".into(), value: EnumValue::Int(2) },
                PropertyValue::Class { class: "Spawn".into(), members: spawn },
                PropertyValue::Color(None),
                PropertyValue::Class { class: "Marker".into(), members: Properties::new() },
                PropertyValue::List(Vec::new()),
                PropertyValue::String("two\nlines".into()),
            ]),
        ),
        ("empty".to_owned(), PropertyValue::List(Vec::new())),
    ]
    .into();
    assert_eq!(tmx.layers[0].properties, expected);
    // Saved in every format that keeps properties, and read back, they are the same (the class
    // item's members are an int and a string: Tiled JSON writes members without their types).
    for ext in ["tmx", "tmj", "ron"] {
        assert_eq!(round_trip(&tmx, ext).layers[0].properties, expected, "{ext}");
    }
    // Written as Tiled writes them.
    let out = dir.path().join("out.tmx");
    format::save(&tmx, &out).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    for line in [
        r#"<property name="list property" type="list">"#,
        r#"<item type="int" value="10"/>"#,
        r#"<item value="text"/>"#,
        r#"<item propertytype="Direction" value="north"/>"#,
        r#"<item type="int" propertytype="Speed" value="2"/>"#,
        r#"<item type="class" propertytype="Spawn">"#,
        r#"<item type="color" value=""/>"#,
        r#"<item type="class" propertytype="Marker"/>"#,
        r#"<item type="list"/>"#,
        r#"<item value="two&#10;lines"/>"#,
        r#"<property name="empty" type="list"/>"#,
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
    let out = dir.path().join("out.tmj");
    format::save(&tmx, &out).unwrap();
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let properties = json["layers"][0]["properties"].as_array().unwrap();
    let property = |name: &str| properties.iter().find(|p| p["name"] == name).cloned();
    assert_eq!(
        property("list property"),
        Some(serde_json::json!({"name": "list property", "type": "list", "value": [
            {"type": "int", "value": 10},
            {"type": "string", "value": "text"},
            {"type": "list", "value": [{"type": "bool", "value": true}]},
        ]}))
    );
    assert_eq!(
        property("waypoints").unwrap()["value"].as_array().unwrap()[0..3],
        serde_json::json!([
            {"type": "string", "propertytype": "Direction", "value": "north"},
            {"type": "int", "propertytype": "Speed", "value": 2},
            {"type": "class", "propertytype": "Spawn", "value": {"hp": 5, "kind": "orc"}},
        ])
        .as_array()
        .unwrap()[..]
    );
    // Tiled JSON's own lists: the same example, a list member of a class (whose items carry
    // their types, though the members do not), and an item without a value.
    let tmj = load_with_layer_properties(
        dir.path(),
        "tmj",
        r#"[{"name": "list property", "type": "list", "value": [
                {"type": "int", "value": 10}, {"type": "string", "value": "text"},
                {"type": "list", "value": [{"type": "bool", "value": true}]}]},
            {"name": "spawn", "type": "class", "propertytype": "Spawn",
             "value": {"route": [{"type": "string", "propertytype": "Direction", "value": "east"}]}},
            {"name": "marks", "type": "list", "value": [{"type": "class", "propertytype": "Marker"}]}]"#,
    );
    let p = &tmj.layers[0].properties;
    assert_eq!(p["list property"], expected["list property"]);
    let route = PropertyValue::List(vec![PropertyValue::Enum {
        enum_type: "Direction".into(),
        value: EnumValue::String("east".into()),
    }]);
    assert_eq!(
        p["spawn"],
        PropertyValue::Class { class: "Spawn".into(), members: [("route".to_owned(), route)].into() }
    );
    assert_eq!(
        p["marks"],
        PropertyValue::List(vec![PropertyValue::Class { class: "Marker".into(), members: Properties::new() }])
    );
    // A wrong item says where it is.
    std::fs::write(
        dir.path().join("bad.tmj"),
        std::fs::read_to_string(dir.path().join("properties.tmj"))
            .unwrap()
            .replace(r#""value": 10"#, r#""value": "ten""#),
    )
    .unwrap();
    let error = format::load(&dir.path().join("bad.tmj")).unwrap_err().to_string();
    assert!(error.contains("property \"list property\", item 0") && error.contains("\"ten\""), "{error}");
}

#[test]
fn enum_values_keep_their_type_names_and_a_tsx_of_a_json_map_is_read_as_a_tmx_maps() {
    use sightline::core::{EnumValue, PropertyValue};
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    // A TSX with enum-typed tile properties (a name, bit flags, and a name over two lines, which
    // Tiled writes as the element's text) and an unset colour (which the `tiled` crate alone
    // refuses), named by a Tiled JSON map and by a TMX map.
    std::fs::write(dir.path().join("enum.tsx"), include_str!("../fixtures/enum.tsx")).unwrap();
    let tmj = dir.path().join("enum.tmj");
    std::fs::write(&tmj, include_str!("../fixtures/enum.tmj")).unwrap();
    let tmx = dir.path().join("enum.tmx");
    std::fs::write(&tmx, include_str!("../fixtures/enum.tmx")).unwrap();
    let an_enum = |enum_type: &str, value: EnumValue| PropertyValue::Enum { enum_type: enum_type.into(), value };
    let tile_properties = |map: &Map| {
        let tile = map.tiles.iter().find(|t| t.sprite.is_some_and(|s| s.index == 1)).unwrap();
        tile.properties.clone()
    };
    for path in [&tmj, &tmx] {
        let loaded = format::load(path).unwrap_or_else(|e| panic!("{e}"));
        assert!(!loaded.warnings.iter().any(|w| w.contains("does not keep")), "{:?}", loaded.warnings);
        let p = tile_properties(&loaded.map);
        assert_eq!(p["facing"], an_enum("Direction", EnumValue::String("north".into())));
        assert_eq!(p["flags"], an_enum("Elements", EnumValue::Int(5)));
        assert_eq!(p["note"], an_enum("Mood", EnumValue::String("calm &\nsteady".into())));
        assert_eq!(p["glow"], PropertyValue::Color(None));
        for ext in ["tmx", "tmj", "ron"] {
            assert_eq!(tile_properties(&round_trip(&loaded.map, ext)), p, "{ext}");
        }
    }
    // Written as Tiled writes them, in a tileset written into the map (a save of the map as
    // read refers to enum.tsx, which keeps them).
    let mut map = load(&tmx);
    map.sheets[0].file = None;
    let out = dir.path().join("out.tmx");
    format::save(&map, &out).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    for line in [
        r#"<property name="facing" propertytype="Direction" value="north"/>"#,
        r#"<property name="flags" type="int" propertytype="Elements" value="5"/>"#,
        r#"<property name="note" propertytype="Mood" value="calm &amp;&#10;steady"/>"#,
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
    // In the map's own properties, TMX and JSON, and written back to JSON as Tiled does.
    let text = std::fs::read_to_string(&tmx).unwrap().replace(
        " <tileset",
        " <properties><property name=\"level\" type=\"int\" propertytype=\"Difficulty\" value=\"2\"/></properties>\n <tileset",
    );
    std::fs::write(&tmx, text).unwrap();
    let level = an_enum("Difficulty", EnumValue::Int(2));
    assert_eq!(load(&tmx).properties["level"], level);
    let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&tmj).unwrap()).unwrap();
    value["properties"] =
        serde_json::json!([{"name": "level", "type": "int", "propertytype": "Difficulty", "value": 2}]);
    std::fs::write(&tmj, value.to_string()).unwrap();
    assert_eq!(load(&tmj).properties["level"], level);
    let out = dir.path().join("out.tmj");
    format::save(&load(&tmj), &out).unwrap();
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let level = json["properties"].as_array().unwrap().iter().find(|p| p["name"] == "level").cloned();
    assert_eq!(
        level,
        Some(serde_json::json!({"name": "level", "type": "int", "propertytype": "Difficulty", "value": 2}))
    );
    // An enum's element that holds another is refused, saying where.
    let text = std::fs::read_to_string(&tmx).unwrap().replace(
        "<properties>",
        "<properties>\n  <property name=\"mood\" propertytype=\"Mood\"><property name=\"inner\"/></property>",
    );
    std::fs::write(&tmx, text).unwrap();
    let error = format::load(&tmx).unwrap_err().to_string();
    assert!(
        error.contains("property \"mood\" of enum type \"Mood\" holds a <property> element; its value is text"),
        "{error}"
    );
    assert!(error.contains("line 4"), "{error}");
}

#[test]
fn a_rule_property_with_an_enum_type_is_read_by_its_value_and_the_type_named_in_the_load_warning() {
    use sightline::core::PropertyValue;
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    // A designer's project types the door's state and the cost with enums of its own.
    let tmx = include_str!("../fixtures/enum_rules.tmx");
    let path = dir.path().join("doors.tmx");
    std::fs::write(&path, tmx).unwrap();
    let loaded = format::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let door = loaded.map.tiles.iter().find(|t| t.sprite.is_some_and(|s| s.index == 1)).unwrap();
    assert_eq!((door.door.map(|d| d.open), door.walkable, door.cost), (Some(true), true, 3.0));
    // The rules' properties are the rules' (a save writes them plain); the others keep theirs.
    assert!(!door.properties.contains_key("door"));
    assert!(matches!(door.properties["facing"], PropertyValue::Enum { .. }));
    let dropped: Vec<&String> = loaded.warnings.iter().filter(|w| w.contains("does not keep")).collect();
    assert_eq!(dropped.len(), 1, "{:?}", loaded.warnings);
    assert!(dropped[0].contains("the enum types of tile properties sightline reads"), "{}", dropped[0]);
}
