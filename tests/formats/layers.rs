//! Layers: their rules combined, opacity, tint, offset and parallax, object layers among the tile
//! layers, groups, image layers and blend modes.

use sightline::core::format;
use sightline::core::model::tile::{STANDARD_CLOSED_DOOR, STANDARD_FLOOR};
use sightline::core::{Cell, Map};

use crate::{ascii, assert_same, fixture, load, maps_dir, round_trip, save_text};

#[test]
fn rules_combine_layers() {
    let mut map = ascii("...\n");
    map.layers.push(sightline::core::Layer::filled("doors", 3, 0));
    map.layers[1].cells[1] = STANDARD_CLOSED_DOOR;
    map.layers.push(sightline::core::Layer::filled("collision", 3, 0));
    map.layers[2].collision = true;
    map.layers[2].cells[2] = STANDARD_FLOOR;
    let r = |x| map.rules_at(Cell::new(x, 0));
    assert!(!r(0).opaque && r(0).walkable);
    assert!(r(1).opaque && !r(1).walkable && r(1).door == Some((1, STANDARD_CLOSED_DOOR)));
    assert!(r(2).opaque && !r(2).walkable, "a tile on a collision layer blocks whatever it is");
}

#[test]
fn a_layers_opacity_and_custom_properties_survive_every_tiled_and_ron_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["tiny.tsx", "tiny.png"] {
        std::fs::copy(fixture(f), dir.path().join(f)).unwrap();
    }
    let path = dir.path().join("translucent.tmx");
    std::fs::write(&path, include_str!("../fixtures/layer_opacity.tmx")).unwrap();
    let map = load(&path);
    let top = &map.layers[1];
    assert_eq!(top.opacity, 0.49);
    assert!(top.collision);
    assert_eq!(top.properties.keys().collect::<Vec<_>>(), ["depth"], "collision is the flag, not a property");
    assert_eq!(map.layers[0].opacity, 1.0);
    for ext in ["tmx", "tmj", "ron"] {
        let back = round_trip(&map, ext);
        assert_eq!(back.layers, map.layers, "{ext}");
    }
    // Written as Tiled writes it: 0.49, not the f32's 0.49000000953674316.
    let tmj = dir.path().join("translucent.tmj");
    format::save(&map, &tmj).unwrap();
    let text = std::fs::read_to_string(&tmj).unwrap();
    assert!(text.contains("\"opacity\": 0.49,"), "{text}");
    // Out of range is refused, naming the layer.
    std::fs::write(&path, std::fs::read_to_string(&path).unwrap().replace("0.49", "1.5")).unwrap();
    let error = format::load(&path).unwrap_err().to_string();
    assert!(error.contains("opacity 1.5") && error.contains("Top"), "{error}");
}

#[test]
fn a_layers_tint_offset_and_parallax_survive_every_tiled_and_ron_round_trip() {
    use sightline::core::Rgba;
    let mut map = load(&maps_dir().join("pillars.ron"));
    map.layers[0].tint = Some(Rgba(255, 0, 0, 128));
    map.layers[0].offset = [4.0, -2.5];
    map.layers[0].parallax = [0.5, 1.0];
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&map, &round_trip(&map, ext), ext);
    }
    let (_, text) = save_text(&map, "out.tmx");
    let written = r##"tintcolor="#80ff0000" offsetx="4" offsety="-2.5" parallaxx="0.5" parallaxy="1""##;
    assert!(text.contains(written), "{text}");
}

/// The stack of a map, bottom first: tile layers by name, object layers in brackets with their
/// flags and their objects' names.
fn stack_text(map: &Map) -> String {
    use sightline::core::LayerRef;
    map.stack()
        .into_iter()
        .map(|r| match r {
            LayerRef::Tiles(i) => map.layers[i].name.clone(),
            LayerRef::Objects(j) => {
                let l = &map.object_layers[j];
                let mut flags = Vec::new();
                if !l.visible {
                    flags.push("hidden".to_owned());
                }
                if l.locked {
                    flags.push("locked".to_owned());
                }
                if l.opacity != 1.0 {
                    flags.push(format!("opacity {}", l.opacity));
                }
                if let Some(c) = l.color {
                    flags.push(format!("colour {}", c.to_hex()));
                }
                let on: Vec<&str> = map.objects.iter().filter(|o| o.layer == j).map(|o| o.name.as_str()).collect();
                format!("[{} {{{}}}: {}]", l.name, flags.join(" "), on.join(" "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn object_layers_keep_their_place_among_the_tile_layers_their_flags_and_their_objects() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["object_layers.tmx", "tiny.png"] {
        std::fs::copy(fixture(name), dir.path().join(name)).unwrap();
    }
    let loaded = format::load(&dir.path().join("object_layers.tmx")).unwrap();
    // Nothing of the object layers is dropped; only the tile's collision shapes (below).
    let dropped: Vec<&String> = loaded.warnings.iter().filter(|w| w.contains("does not keep")).collect();
    assert_eq!(
        dropped,
        ["sightline does not keep this map's collision shapes of tiles (from Tiled's tile collision editor): \
          saving the map drops them"]
    );
    let map = loaded.map;
    // A tile's collision shapes (an object group inside the tileset, locked) are not a layer.
    assert_eq!(
        stack_text(&map),
        "[under {colour #ffff0000}: pit], ground, [spawns {hidden locked opacity 0.5}: start goblin], roofs, \
         [notes {}: ], [zones {}: exit]"
    );
    assert_eq!(map.object_layers[1].properties.get("wave"), Some(&sightline::core::PropertyValue::Int(2)));
    for ext in ["tmx", "tmj", "ron"] {
        let back = round_trip(&map, ext);
        assert_same(&map, &back, ext);
        assert_eq!(stack_text(&back), stack_text(&map), "{ext}");
    }
    // Tiled reads the layers in this order, numbered in it.
    let (_, text) = save_text(&map, "out.tmx");
    let tags: Vec<&str> = text
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("<layer ") || l.starts_with("<objectgroup "))
        .map(|l| &l[..l.find(" name").unwrap()])
        .collect();
    assert_eq!(
        tags,
        [
            r#"<objectgroup id="1""#,
            r#"<layer id="2""#,
            r#"<objectgroup id="3""#,
            r#"<layer id="4""#,
            r#"<objectgroup id="5""#,
            r#"<objectgroup id="6""#
        ]
    );
    for written in [
        r##"<objectgroup id="1" name="under" color="#ff0000">"##,
        r#"<objectgroup id="3" name="spawns" visible="0" locked="1" opacity="0.5">"#,
        r#"nextlayerid="7""#,
    ] {
        assert!(text.contains(written), "{written} in\n{text}");
    }
    let (_, json) = save_text(&map, "out.tmj");
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let kinds: Vec<(&str, &str)> = value["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["type"].as_str().unwrap(), l["name"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("objectgroup", "under"),
            ("tilelayer", "ground"),
            ("objectgroup", "spawns"),
            ("tilelayer", "roofs"),
            ("objectgroup", "notes"),
            ("objectgroup", "zones")
        ]
    );
}

/// groups.tmx: Tiled's group layers, nested, one empty, with their look (opacity, tint, offset,
/// parallax, hidden, locked) and properties, holding tile and object layers. They are kept in
/// every format that can hold them, and a layer is drawn as its groups make it.
#[test]
fn layer_groups_are_kept_nested_with_their_look_and_compose_their_layers_look() {
    use sightline::core::{LayerRef, Rgba, StackItem};
    let path = fixture("groups.tmx");
    let loaded = format::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(!loaded.warnings.iter().any(|w| w.contains("does not keep")), "{:?}", loaded.warnings);
    let map = loaded.map;
    // Bottom to top: ground, trunks, leaves, birds, roof.
    let names: Vec<_> = map.stack().into_iter().map(|r| map.layer_name(r).unwrap().to_owned()).collect();
    assert_eq!(names, ["ground", "trunks", "leaves", "birds", "roof"]);
    let spans: Vec<_> = map.groups.iter().map(|g| (g.name.as_str(), g.parent, g.start, g.end)).collect();
    assert_eq!(spans, [("forest", None, 1, 4), ("canopy", Some(0), 2, 4), ("empty", Some(0), 4, 4)]);
    let forest = &map.groups[0];
    assert_eq!(
        (forest.opacity, forest.tint, forest.offset, forest.locked, forest.visible),
        (0.5, Some(Rgba(255, 128, 0, 255)), [4.0, -2.0], true, true)
    );
    assert_eq!(forest.properties.get("season").map(|v| v.to_string()), Some("autumn".into()));
    assert_eq!((map.groups[1].visible, map.groups[1].parallax), (false, [0.5, 0.5]));
    // The leaves: half opaque in a half-opaque group, hidden by the canopy, locked by the forest.
    let leaves = map.look(LayerRef::Tiles(2));
    assert_eq!((leaves.opacity, leaves.shown, leaves.locked, leaves.offset), (0.25, false, true, [4.0, -2.0]));
    assert!(!map.object_layer_visible(0), "the birds are in the hidden canopy");
    assert!(map.look(LayerRef::Tiles(3)).shown && !map.look(LayerRef::Tiles(3)).locked, "the roof is outside");
    assert_eq!(map.groups_around(StackItem::Layer(LayerRef::Objects(0))), [1, 0]);
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&map, &round_trip(&map, ext), ext);
    }
    let (_, tmx) = save_text(&map, "out.tmx");
    for written in [
        r##"<group id="6" name="forest" locked="1" opacity="0.5" tintcolor="#ff8000" offsetx="4" offsety="-2">"##,
        r#"<group id="7" name="canopy" visible="0" parallaxx="0.5" parallaxy="0.5">"#,
        r#"<group id="8" name="empty">"#,
        r#"nextlayerid="9""#,
    ] {
        assert!(tmx.contains(written), "{written} in\n{tmx}");
    }
    let (_, tmj) = save_text(&map, "out.tmj");
    let json: serde_json::Value = serde_json::from_str(&tmj).unwrap();
    assert_eq!(json["layers"][1]["type"], "group");
    assert_eq!(json["nextlayerid"], 9, "past the groups' ids too");
    assert_eq!(json["layers"][1]["layers"][1]["layers"][1]["name"], "birds");
    assert_eq!(json["layers"][1]["layers"][2]["layers"], serde_json::json!([]));
    // ASCII and MovingAI cannot hold them, and a save says so.
    let (warnings, _) = save_text(&map, "out.txt");
    assert!(warnings.iter().any(|w| w.contains(r#"layer groups ("forest", "canopy", "empty")"#)), "{warnings:?}");
}

/// A RON map whose groups nest 20 000 deep (each in the one before, all holding the one layer)
/// loads, lists and saves without running out of stack; groups that overlap or name a later
/// parent are refused with the group's name.
#[test]
fn deeply_nested_or_tangled_groups_load_or_are_refused_without_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.ron");
    let mut map = load(&maps_dir().join("pillars.ron"));
    map.object_layers.clear();
    map.objects.clear();
    map.groups = (0..20_000_usize)
        .map(|g| sightline::core::LayerGroup::new(&format!("g{g}"), g.checked_sub(1), 0))
        .map(|mut group| {
            group.end = 1;
            group
        })
        .collect();
    map.validate().unwrap();
    format::save(&map, &path).unwrap();
    let again = load(&path);
    assert_eq!(again.groups.len(), 20_000);
    assert_eq!(sightline::core::model::layers::listed(&again).len(), 20_001);
    assert_eq!(again.groups_at(0).len(), 20_000);
    // Tangled: the second group overlaps the first, side by side at the top.
    let text = std::fs::read_to_string(&path).unwrap();
    let tangled = text.replacen("parent: Some(0),", "", 1);
    std::fs::write(&path, tangled).unwrap();
    let err = format::load(&path).unwrap_err().to_string();
    assert!(err.contains("deep.ron") && err.contains("layer group \"g1\" overlaps the group before it"), "{err}");
}

/// What a Tiled map holds that a save would not write back is named when it opens, and a save
/// over its file asks first: its image layers and layers' blend modes (Tiled 1.12), in TMX and
/// in Tiled JSON. A map without them names none. Layers' classes and an object layer's manual
/// draw order are kept, through every Tiled and RON save. (The TMX image layer's image has no size, as Tiled writes an image it
/// could not read: the map opens all the same.)
#[test]
fn image_layers_and_blend_modes_are_named_as_not_kept_and_layer_classes_and_draw_orders_are_kept() {
    let image = "image layers (neither drawn nor written)";
    let tmx = |layers: &str| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 <layer id="1" name="ground" class="terrain" width="2" height="1"><data encoding="csv">0,0</data></layer>
 {layers}
</map>"#
        )
    };
    let tmj = |layers: &str| {
        format!(
            r#"{{"type": "map", "orientation": "orthogonal", "width": 2, "height": 1, "tilewidth": 8, "tileheight": 8,
                "infinite": false, "tilesets": [], "layers": [
                {{"id": 1, "type": "tilelayer", "name": "ground", "class": "terrain", "width": 2, "height": 1, "data": [0, 0]}}{layers}]}}"#
        )
    };
    let blend = "blend modes of layers (a save blends them normally)";
    let cases: [(&str, String, Vec<&str>); 10] = [
        (
            "plain.tmx",
            tmx(r#"<objectgroup id="2" name="things" class="spawns"/><group id="3" name="decor" class="props"/>"#),
            vec![],
        ),
        ("image.tmx", tmx(r#"<imagelayer id="2" name="sky"><image source="sky.png"/></imagelayer>"#), vec![image]),
        ("order.tmx", tmx(r#"<objectgroup id="2" name="things" draworder="index"/>"#), vec![]),
        (
            "plain.tmj",
            tmj(
                r#", {"id": 2, "type": "objectgroup", "name": "things", "class": "spawns", "draworder": "topdown", "objects": []},
                               {"id": 3, "type": "group", "name": "decor", "class": "props", "layers": []}"#,
            ),
            vec![],
        ),
        ("image.tmj", tmj(r#", {"id": 2, "type": "imagelayer", "name": "sky", "image": "sky.png"}"#), vec![image]),
        (
            "order.tmj",
            tmj(r#", {"id": 2, "type": "objectgroup", "name": "things", "draworder": "index", "objects": []}"#),
            vec![],
        ),
        (
            "all.tmj",
            tmj(r#", {"id": 2, "type": "objectgroup", "name": "things", "draworder": "index", "objects": []},
                   {"id": 3, "type": "imagelayer", "name": "sky", "image": "sky.png"}"#),
            vec![image],
        ),
        (
            "all.tmx",
            tmx(r#"<objectgroup id="2" name="things" draworder="index"/><imagelayer id="3" name="sky"/>"#),
            vec![image],
        ),
        ("blend.tmx", tmx(r#"<group id="2" name="fx" mode="multiply"/>"#), vec![blend]),
        (
            "blend.tmj",
            tmj(r#", {"id": 2, "type": "group", "name": "fx", "mode": "multiply", "layers": []}"#),
            vec![blend],
        ),
    ];
    for (name, text, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let loaded = format::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded.not_kept, expected, "{name}");
        let said = loaded.warnings.iter().any(|w| w.starts_with("sightline does not keep this map's "));
        assert_eq!(said, !expected.is_empty(), "{name}: {:?}", loaded.warnings);
        let map = &loaded.map;
        assert_eq!(map.layers[0].class, "terrain", "{name}");
        if name.starts_with("order") {
            use sightline::core::model::map::DrawOrder;
            assert_eq!(map.object_layers[0].draw_order, DrawOrder::Index);
            for ext in ["tmx", "tmj", "ron"] {
                assert_same(&round_trip(map, ext), map, &format!("{name} as {ext}"));
            }
            assert!(save_text(map, "out.tmx").1.contains(r#" name="things" draworder="index""#));
        }
        if name.starts_with("plain") {
            assert_eq!((map.object_layers[0].class.as_str(), map.groups[0].class.as_str()), ("spawns", "props"));
            for ext in ["tmx", "tmj", "ron"] {
                assert_same(&round_trip(map, ext), map, &format!("{name} as {ext}"));
            }
            // Where Tiled writes a class: after the name.
            let (_, tmx) = save_text(map, "out.tmx");
            for tag in [
                r#"<layer id="1" name="ground" class="terrain" "#,
                r#" name="things" class="spawns""#,
                r#" name="decor" class="props""#,
            ] {
                assert!(tmx.contains(tag), "{tag}: {tmx}");
            }
        }
    }
}
