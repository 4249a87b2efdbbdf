//! Objects: Tiled's shapes, text and tile objects, hidden and faded ones, ids, where a drawn
//! shape stands, their order, and radii.

use sightline::core::format;
use sightline::core::model::flip::Flip;
use sightline::core::model::tile::{STANDARD_FLOOR, STANDARD_WALL};
use sightline::core::{Cell, Map, ObjectKind};

use crate::{ascii, assert_same, fixture, load, maps_dir, round_trip, save_text};

#[test]
fn tiled_object_shapes_and_tile_objects_are_read_and_written_in_tmx_tmj_and_ron() {
    use sightline::core::model::object::ShapeKind;
    // objects.tmx: a rectangle, a turned ellipse, a polygon, a polyline, a point off its cell's
    // middle, a point in its middle (a plain marker) and a mirrored tile object, on 8-pixel cells.
    let loaded = format::load(&fixture("objects.tmx")).unwrap();
    assert!(!loaded.warnings.iter().any(|w| w.contains("does not keep")), "{:?}", loaded.warnings);
    let map = loaded.map;
    let by_name = |name: &str| map.objects.iter().find(|o| o.name == name).unwrap();
    let camp = by_name("camp");
    // Its centre (14, 12) is on cell (1, 1); the rectangle hangs from that cell's corner.
    assert_eq!(camp.cell, Cell::new(1, 1));
    let shape = camp.shape.as_ref().unwrap();
    assert_eq!((shape.offset, &shape.kind), ([-4.0, -2.0], &ShapeKind::Rectangle { width: 20.0, height: 12.0 }));
    assert_eq!(by_name("pond").shape.as_ref().unwrap().rotation, 30.0);
    assert_eq!(by_name("wall").shape.as_ref().unwrap().describe(), "polygon of 4 points");
    assert!(matches!(by_name("guard").kind, ObjectKind::Monster { .. }));
    assert_eq!(by_name("spawn").shape.as_ref().unwrap().offset, [5.25, 3.5]);
    assert_eq!(by_name("start").shape, None, "a point in the middle of its cell is a marker");
    let flower = by_name("flower").shape.as_ref().unwrap();
    match flower.kind {
        ShapeKind::Tile { tile, flip, .. } => {
            assert_eq!(map.tiles[usize::from(tile)].sprite.map(|s| s.index), Some(3));
            assert_eq!(flip, Flip::HORIZONTAL);
        }
        ref other => panic!("{other:?}"),
    }
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&map, &round_trip(&map, ext), ext);
    }
    // Moved a cell right, a shape moves with its object.
    let mut moved = map.clone();
    moved.objects.iter_mut().find(|o| o.name == "camp").unwrap().cell.x += 1;
    let (_, text) = save_text(&moved, "out.tmx");
    for written in [
        r#"name="camp" type="Zone" x="12" y="6" width="20" height="12""#,
        r#"<polygon points="0,0 12.5,-6 20,8 4,12"/>"#,
        r#"<polyline points="0,0 8,8 16,0"/>"#,
        r#"gid="2147483652" x="40" y="48" width="8" height="8"/>"#,
        r#"rotation="30""#,
        "<ellipse/>",
    ] {
        assert!(text.contains(written), "{written} in\n{text}");
    }
}

#[test]
fn hidden_and_faded_tiled_objects_stay_so_through_tmx_tmj_and_ron() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    std::fs::copy(fixture("tiny.tsx"), dir.path().join("tiny.tsx")).unwrap();
    let path = dir.path().join("faded.tmx");
    std::fs::write(&path, include_str!("../fixtures/hidden_objects.tmx")).unwrap();
    let map = load(&path);
    let look = |map: &Map, name: &str| {
        let o = map.objects.iter().find(|o| o.name == name).unwrap();
        (o.visible, o.opacity)
    };
    assert_eq!(
        [look(&map, "secret"), look(&map, "ghost"), look(&map, "plain")],
        [(false, 1.0), (true, 0.25), (true, 1.0)]
    );
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&map, &round_trip(&map, ext), ext);
    }
    let (_, text) = save_text(&map, "out.tmx");
    assert!(
        text.contains(r#"<object id="1" name="secret" type="" x="0" y="0" width="8" height="8" visible="0"/>"#),
        "{text}"
    );
    assert!(
        text.contains(r#"<object id="2" name="ghost" type="" x="8" y="0" width="8" height="8" opacity="0.25"/>"#),
        "{text}"
    );
    assert!(text.contains(r#"<object id="3" name="plain" type="" x="16" y="0" width="8" height="8"/>"#), "{text}");
    let (_, text) = save_text(&map, "out.tmj");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let objects = &json["layers"][1]["objects"];
    assert_eq!((&objects[0]["visible"], &objects[0].get("opacity")), (&serde_json::json!(false), &None));
    assert_eq!((&objects[1]["visible"], &objects[1]["opacity"]), (&serde_json::json!(true), &serde_json::json!(0.25)));
    let (_, text) = save_text(&map, "out.ron");
    assert!(text.contains("visible: false") && text.contains("opacity: 0.25"), "{text}");
}

#[test]
fn text_and_capsule_objects_are_kept_with_their_layout_through_tmx_tmj_and_ron() {
    use sightline::core::Rgba;
    use sightline::core::model::object::{HorizontalAlign, ObjectText, ShapeKind, VerticalAlign};
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let tmx = dir.path().join("text.tmx");
    std::fs::write(&tmx, include_str!("../fixtures/text_objects.tmx")).unwrap();
    let loaded = format::load(&tmx).unwrap();
    assert!(!loaded.warnings.iter().any(|w| w.contains("does not keep")), "{:?}", loaded.warnings);
    let shapes = |map: &sightline::core::Map| -> Vec<(String, ShapeKind)> {
        map.objects.iter().map(|o| (o.name.clone(), o.shape.clone().unwrap().kind)).collect()
    };
    let sign = ObjectText {
        text: "Hello & <you>\n  second line".into(),
        font_family: "Courier New".into(),
        pixel_size: 12,
        wrap: true,
        color: Rgba(255, 0, 0, 128),
        bold: true,
        italic: true,
        underline: true,
        strikeout: true,
        kerning: false,
        halign: HorizontalAlign::Center,
        valign: VerticalAlign::Bottom,
    };
    let expected = vec![
        ("sign".to_owned(), ShapeKind::Text { width: 40.0, height: 20.0, text: Box::new(sign) }),
        (String::new(), ShapeKind::Text { width: 30.0, height: 10.0, text: Box::new(ObjectText::new("plain")) }),
        ("pill".to_owned(), ShapeKind::Capsule { width: 24.0, height: 8.0 }),
    ];
    assert_eq!(shapes(&loaded.map), expected);
    assert_eq!(
        loaded.map.objects[0].shape.as_ref().unwrap().describe(),
        "text \"Hello & <you>…\" 40 × 20 px, turned 15°"
    );
    assert_eq!(loaded.map.objects[2].shape.as_ref().unwrap().describe(), "capsule 24 × 8 px");
    for ext in ["tmx", "tmj", "ron"] {
        let path = dir.path().join(format!("again.{ext}"));
        format::save(&loaded.map, &path).unwrap();
        let again = format::load(&path).unwrap();
        assert_eq!(shapes(&again.map), expected, "through {ext}");
        assert!(!again.warnings.iter().any(|w| w.contains("does not keep")), "{ext}: {:?}", again.warnings);
    }
    // Written as Tiled writes them: only what is not the default.
    let written = std::fs::read_to_string(dir.path().join("again.tmx")).unwrap();
    for part in [
        r##"<text fontfamily="Courier New" pixelsize="12" wrap="1" bold="1" italic="1" underline="1" strikeout="1" kerning="0" color="#80ff0000" halign="center" valign="bottom">Hello &amp; &lt;you&gt;&#10;  second line</text>"##,
        "<text>plain</text>",
        "<capsule/>",
    ] {
        assert!(written.contains(part), "{part} in\n{written}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("again.tmj")).unwrap()).unwrap();
    let objects = &json["layers"][1]["objects"];
    assert_eq!(objects[1]["text"], serde_json::json!({"text": "plain"}));
    assert_eq!(objects[2]["capsule"], true);
    assert_eq!((&objects[0]["text"]["halign"], &objects[0]["text"]["wrap"]), (&"center".into(), &true.into()));
    // A wrong alignment names the object and the key.
    let mut bad = json.clone();
    bad["layers"][1]["objects"][0]["text"]["valign"] = "middle".into();
    let bad_path = dir.path().join("bad.tmj");
    std::fs::write(&bad_path, bad.to_string()).unwrap();
    let err = format::load(&bad_path).unwrap_err().to_string();
    assert!(err.contains("bad.tmj") && err.contains("`valign` must be \"top\", \"center\" or \"bottom\""), "{err}");
}

#[test]
fn tiled_object_ids_survive_a_save_so_object_properties_still_name_their_objects() {
    use sightline::core::model::tile::PropertyValue;
    // object_ids.tmx: the player (id 3), a gate (8) and a lever (11) whose `opens` property
    // names the gate; objects 1–19 but these three were deleted in Tiled (`nextobjectid` 20).
    let map = load(&fixture("object_ids.tmx"));
    let ids: Vec<u32> = map.objects.iter().map(|o| o.id).collect();
    assert_eq!(ids, [3, 8, 11]);
    assert_eq!(map.next_object_id(), 20);
    let opened = |map: &Map| {
        let lever = map.objects.iter().find(|o| o.name == "lever").unwrap();
        let Some(&PropertyValue::Object(id)) = lever.properties.get("opens") else { panic!("{lever:?}") };
        map.object_by_id(id).map(|o| o.name.clone())
    };
    assert_eq!(opened(&map).as_deref(), Some("gate"));
    for ext in ["tmx", "tmj", "ron"] {
        let back = round_trip(&map, ext);
        assert_same(&map, &back, ext);
        assert_eq!(opened(&back).as_deref(), Some("gate"), "{ext}");
    }
    let (_, text) = save_text(&map, "out.tmx");
    assert!(text.contains(r#"nextobjectid="20""#) && text.contains(r#"<object id="8" name="gate""#), "{text}");
    let (_, text) = save_text(&map, "out.ron");
    assert!(text.contains("next_object_id: Some(20)"), "{text}");

    // A new object takes the next id, never a deleted object's.
    let mut edited = map.clone();
    assert_eq!(edited.add_object(sightline::core::MapObject::new(ObjectKind::Item, Cell::new(1, 1))), 20);
    assert_eq!(edited.next_object_id(), 21);
    let (_, text) = save_text(&edited, "out.ron");
    assert!(!text.contains("next_object_id"), "one past the largest id goes without saying: {text}");
    assert_eq!(round_trip(&edited, "ron").next_object_id(), 21);
}

#[test]
fn repeated_tiled_object_ids_are_renumbered_with_a_warning() {
    let text = std::fs::read_to_string(fixture("object_ids.tmx")).unwrap().replace(r#"id="11""#, r#"id="8""#);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("repeated.tmx");
    std::fs::write(&path, text).unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let loaded = format::load(&path).unwrap();
    let repeats: Vec<&String> = loaded.warnings.iter().filter(|w| w.contains("repeat")).collect();
    assert_eq!(
        repeats,
        ["object id 8 repeats: the later object gets a new id, and an `object` property naming 8 means the first"]
    );
    let ids: Vec<(&str, u32)> = loaded.map.objects.iter().map(|o| (o.name.as_str(), o.id)).collect();
    assert_eq!(ids, [("start", 3), ("gate", 8), ("lever", 20)]);
    assert_eq!(loaded.map.next_object_id(), 21);
}

#[test]
fn maps_without_object_ids_number_their_objects_in_order() {
    // ASCII maps, and RON maps written before ids, number objects as they list them.
    let map = ascii(
        "#####\n\
         #@.g#\n\
         #.o.#\n\
         #####\n",
    );
    let ids: Vec<(char, u32)> = map.objects.iter().map(|o| (o.kind.glyph(), o.id)).collect();
    assert_eq!(ids, [('@', 1), ('g', 2), ('o', 3)]);
    assert_eq!(map.next_object_id(), 4);
    let (_, text) = save_text(&map, "m.ron");
    let without_ids = text.replace("id: 1,", "").replace("id: 2,", "").replace("id: 3,", "");
    assert_ne!(text, without_ids, "RON writes the ids");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.ron"), without_ids).unwrap();
    assert_same(&map, &load(&dir.path().join("old.ron")), "a RON map without ids");
}

/// The object tool draws Tiled geometry: each shape stands on the cell under its centre (a
/// point's, polygon's or path's position), and a save and a load in every Tiled format and in
/// RON give the same cell and the same pixels back, as a file written by Tiled would.
#[test]
fn a_drawn_shape_stands_on_the_cell_under_its_centre_and_survives_every_format() {
    use sightline::core::MapObject;
    use sightline::core::model::object::{ObjectText, ShapeKind, dragged_box};
    let mut map = Map::new_standard(10, 6, STANDARD_FLOOR).unwrap();
    map.tile_size = [16, 16];
    // A drag up and to the left from (80, 48) to (32, 16): the box 48 × 32 from (32, 16).
    let (top_left, size) = dragged_box([80.0, 48.0], [32.0, 16.0], false);
    assert_eq!((top_left, size), ([32.0, 16.0], [48.0, 32.0]));
    // Shift: a square, its side the longer one, still reaching toward the pointer.
    assert_eq!(dragged_box([80.0, 48.0], [72.0, 16.0], true), ([48.0, 16.0], [32.0, 32.0]));
    let rectangle = ShapeKind::Rectangle { width: size[0], height: size[1] };
    let drawn = [
        // Centre (56, 32): the corner of four cells, so the cell below and right of it.
        (rectangle, top_left, Cell::new(3, 2)),
        (ShapeKind::Ellipse { width: 16.0, height: 16.0 }, [0.0, 80.0], Cell::new(0, 5)),
        (ShapeKind::Point, [159.0, 0.0], Cell::new(9, 0)),
        (ShapeKind::Polygon(vec![[0.0, 0.0], [32.0, 0.0], [0.0, 32.0]]), [100.0, 40.0], Cell::new(6, 2)),
        (ShapeKind::Polyline(vec![[0.0, 0.0], [-40.0, 8.0]]), [40.0, 90.0], Cell::new(2, 5)),
        (
            ShapeKind::Text { width: 90.0, height: 20.0, text: Box::new(ObjectText::new("Hello World")) },
            [4.0, 4.0],
            Cell::new(3, 0),
        ),
        // A tile object hangs from its bottom-left corner (its tileset's alignment unless set):
        // centre (40, 40).
        (
            ShapeKind::Tile { tile: STANDARD_WALL, flip: Flip::NONE, width: 16.0, height: 16.0 },
            [32.0, 48.0],
            Cell::new(2, 2),
        ),
    ];
    for (kind, position, cell) in drawn {
        let (on, shape) = map.placed_shape(kind, position, 0.0).expect("on the map");
        assert_eq!(on, cell, "{}", shape.describe());
        assert_eq!(shape.position(on, map.tile_size), position, "{}", shape.describe());
        let object = MapObject { shape: Some(shape), ..MapObject::new(ObjectKind::Other(String::new()), on) };
        map.add_object(object);
    }
    // A centre off the map is refused: the object would be dropped on loading.
    assert!(map.placed_shape(ShapeKind::Point, [160.0, 0.0], 0.0).is_none());
    assert!(map.placed_shape(ShapeKind::Point, [-0.5, 0.0], 0.0).is_none());
    for ext in ["tmx", "tmj", "ron"] {
        let back = round_trip(&map, ext);
        let placed = |m: &Map| -> Vec<_> {
            m.objects.iter().map(|o| (o.id, o.cell, o.kind.clone(), o.name.clone(), o.shape.clone())).collect()
        };
        assert_eq!(placed(&back), placed(&map), "{ext}");
    }
}

/// A map keeps its objects layer by layer, in the layers' order, which is the only order a
/// Tiled file can hold: two player starts on two object layers, the upper lowered under the
/// other, and the game starts at the same one before a TMX save and after it is read back.
#[test]
fn objects_keep_the_layers_order_so_a_tiled_save_starts_the_game_in_the_same_place() {
    use sightline::core::model::layers;
    use sightline::core::sim::start_cell;
    use sightline::core::{LayerRef, MapObject, StackItem};
    let mut map = format::ascii::parse("#####\n#@..#\n#####\n").unwrap();
    let upper = layers::add_object_layer(&mut map, None, "upper").unwrap();
    let LayerRef::Objects(upper) = upper else { panic!("an object layer") };
    map.add_object(MapObject::new(ObjectKind::PlayerStart, Cell::new(3, 1)).on_layer(upper));
    assert_eq!(start_cell(&map), Some(Cell::new(1, 1)), "the lower layer's start comes first");
    layers::lower(&mut map, StackItem::Layer(LayerRef::Objects(upper))).unwrap();
    let order: Vec<(usize, Cell)> = map.objects.iter().map(|o| (o.layer, o.cell)).collect();
    assert_eq!(order, [(0, Cell::new(3, 1)), (1, Cell::new(1, 1))], "layer by layer, the lowered one first");
    assert_eq!(start_cell(&map), Some(Cell::new(3, 1)));
    let dir = tempfile::tempdir().unwrap();
    for name in ["m.tmx", "m.tmj", "m.ron"] {
        let path = dir.path().join(name);
        format::save(&map, &path).unwrap();
        let read = format::load(&path).unwrap().map;
        assert_eq!(start_cell(&read), Some(Cell::new(3, 1)), "{name}");
        assert!(read.objects == map.objects, "{name}");
    }
}

/// A monster's vision and a light's radius are at most `MAX_RADIUS` (1000) in every format: a
/// Tiled map's number is read so, and a RON or ASCII file's larger one too, with a warning, so
/// that a map reads the same whichever format it was saved in.
#[test]
fn radii_beyond_the_most_are_read_as_it_in_every_format() {
    use sightline::core::ObjectKind;
    use sightline::core::model::object::MAX_RADIUS;
    let dir = tempfile::tempdir().unwrap();
    let ron = std::fs::read_to_string(maps_dir().join("pillars.ron"))
        .unwrap()
        .replacen("vision_radius: 8", "vision_radius: 40968", 1)
        .replacen("vision_radius: 8", "vision_radius: 4294967295", 1);
    let ascii = "legend:\ng = monster name=goblin vision=5000\nL = light radius=1001\n---\n#####\n#gL.#\n#####\n";
    for (name, text, changed) in [("far.ron", ron.as_str(), 2), ("far.txt", ascii, 2)] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let loaded = format::load(&path).unwrap();
        let radii: Vec<u32> = loaded
            .map
            .objects
            .iter()
            .filter_map(|o| match o.kind {
                ObjectKind::Monster { vision_radius: r, .. } | ObjectKind::Light { radius: r } => Some(r),
                _ => None,
            })
            .collect();
        assert_eq!(radii.iter().filter(|&&r| r == MAX_RADIUS).count(), changed, "{name}: {radii:?}");
        assert!(radii.iter().all(|&r| r <= MAX_RADIUS), "{name}: {radii:?}");
        let warning = loaded.warnings.iter().find(|w| w.contains("are given a radius of 1000"));
        assert!(warning.is_some(), "{name}: {:?}", loaded.warnings);
        // Saved in any format, it reads back the same.
        for ext in ["ron", "tmx", "tmj"] {
            assert_eq!(round_trip(&loaded.map, ext).objects, loaded.map.objects, "{name} as {ext}");
        }
    }
}

/// Where an object stands, and how it is turned, read the same from every Tiled file: a point
/// has no box (a width a file gives it is ignored, as Tiled ignores it), and a turn of more
/// than a whole one is read within one (the same shape, which a TMX file's 32-bit float then
/// holds).
#[test]
fn a_point_stands_at_its_point_and_a_turn_is_read_within_one() {
    use sightline::core::Cell;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("points.tmj");
    std::fs::write(
        &path,
        r#"{"width": 8, "height": 4, "tilewidth": 16, "tileheight": 16, "tilesets": [], "layers": [
            {"id": 1, "type": "objectgroup", "name": "things", "objects": [
              {"id": 1, "name": "hero", "type": "player", "point": true, "x": 56, "y": 40, "width": 80, "height": 0},
              {"id": 2, "name": "sign", "x": 16, "y": 16, "width": 16, "height": 16, "rotation": 21474836490}]}]}"#,
    )
    .unwrap();
    let map = format::load(&path).unwrap().map;
    assert_eq!(map.objects[0].cell, Cell::new(3, 2), "the point's own cell, not its box's");
    let turn = map.objects[1].shape.as_ref().unwrap().rotation;
    assert_eq!(turn, 21474836490.0 % 360.0);
    assert!(turn.abs() < 360.0);
    for ext in ["tmx", "tmj", "ron"] {
        assert_eq!(round_trip(&map, ext).objects, map.objects, "{ext}");
    }
}

/// An object whose `gid` is 0 shows no tile, and Tiled reads it as a rectangle (`if (gid)` in
/// its readers): it stands on the cell under the centre of the box hung from its top-left
/// corner, in TMX and in JSON alike. It was read as a tile object of the empty tile, hung from
/// its bottom-left corner, then saved as a rectangle from the same point: read back, it stood
/// on another cell, or off the map and was dropped (the fuzzer's round trip found it).
#[test]
fn an_object_of_gid_0_is_a_rectangle_and_stays_on_its_cell() {
    use sightline::core::MapObject;
    use sightline::core::model::object::{ObjectShape, ShapeKind};
    let tmx = r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="4" height="4" tilewidth="8" tileheight="8" infinite="0">
 <layer id="1" name="ground" width="4" height="4"><data encoding="csv">0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0</data></layer>
 <objectgroup id="2" name="objects">
  <object id="1" name="lamp" gid="0" x="12" y="4" width="8" height="8"/>
 </objectgroup>
</map>"#;
    let tmj = r#"{"type": "map", "version": "1.10", "orientation": "orthogonal", "width": 4, "height": 4,
        "tilewidth": 8, "tileheight": 8, "infinite": false, "tilesets": [], "layers": [
        {"type": "tilelayer", "id": 1, "name": "ground", "width": 4, "height": 4, "data": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]},
        {"type": "objectgroup", "id": 2, "name": "objects", "objects": [
            {"id": 1, "name": "lamp", "gid": 0, "x": 12, "y": 4, "width": 8, "height": 8}]}]}"#;
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("gid0.tmx", tmx), ("gid0.tmj", tmj)] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let map = load(&path);
        let lamp = &map.objects[0];
        // The box from (12, 4), 8 × 8: its centre (16, 8) is on cell (2, 1).
        assert_eq!(lamp.cell, Cell::new(2, 1), "{name}");
        let shape = lamp.shape.as_ref().unwrap();
        assert_eq!(shape.kind, ShapeKind::Rectangle { width: 8.0, height: 8.0 }, "{name}");
        for ext in ["tmx", "tmj", "ron"] {
            assert_same(&map, &round_trip(&map, ext), &format!("{name} through {ext}"));
        }
    }

    // A tile object of the empty tile (a RON map may hold one) is written as a rectangle of the
    // same box, so it is read back on its cell.
    let mut map = Map::new_standard(4, 4, STANDARD_FLOOR).unwrap();
    map.tile_size = [8, 8];
    let empty = ShapeKind::Tile { tile: 0, flip: Flip::NONE, width: 8.0, height: 8.0 };
    // Hung from its bottom-left corner (16, 24): the box from (16, 16), centre (20, 20).
    let (cell, shape) = map.placed_shape(empty, [16.0, 24.0], 0.0).unwrap();
    assert_eq!(cell, Cell::new(2, 2));
    map.add_object(MapObject { shape: Some(shape), ..MapObject::new(ObjectKind::Item, cell) });
    for ext in ["tmx", "tmj"] {
        let back = round_trip(&map, ext);
        let [item] = &back.objects[..] else { panic!("{ext}: {:?}", back.objects) };
        assert_eq!(item.cell, cell, "{ext}");
        let ObjectShape { kind, .. } = item.shape.as_ref().unwrap();
        assert_eq!(*kind, ShapeKind::Rectangle { width: 8.0, height: 8.0 }, "{ext}");
        assert_eq!(item.shape.as_ref().unwrap().position(item.cell, back.tile_size), [16.0, 16.0], "{ext}");
    }
}
