//! Tiled's JSON maps (TMJ): tileset files, infinite maps, layer data in every encoding, and how
//! the data is laid out.

use sightline::core::format;
use sightline::core::model::flip::Flip;
use sightline::core::{Cell, Map};

use crate::{ascii, assert_same, dir_with_tiny_tileset, fixture, load, load_tmj_text, round_trip, save_text};

/// A Tiled JSON save names the class members that will read back as another type only where the
/// map's file holds them: a tileset referred to in its own file keeps its tiles' properties
/// there, typed, and the save neither writes them nor warns of them.
#[test]
fn tmj_member_warning_leaves_out_tilesets_kept_in_their_own_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    std::fs::copy(fixture("external_tileset.tmx"), dir.path().join("map.tmx")).unwrap();
    let tsx = std::fs::read_to_string(fixture("tiny.tsx")).unwrap().replacen(
        r#"<property name="walkable" type="bool" value="false"/>"#,
        r##"<property name="walkable" type="bool" value="false"/>
   <property name="stats" type="class" propertytype="Stats">
    <properties><property name="aura" type="color" value="#ff00ff00"/></properties>
   </property>"##,
        1,
    );
    std::fs::write(dir.path().join("tiny.tsx"), tsx).unwrap();
    let map = format::load(&dir.path().join("map.tmx")).unwrap().map;
    assert!(map.tiles.iter().any(|t| t.properties.contains_key("stats")), "the tile's class was read");

    let saved = format::save(&map, &dir.path().join("map.tmj")).unwrap();
    let text = std::fs::read_to_string(dir.path().join("map.tmj")).unwrap();
    assert!(text.contains(r#""source": "tiny.tsx""#), "the tileset is referred to:\n{text}");
    assert!(!text.contains("aura"), "its tiles' properties stay in tiny.tsx");
    assert!(saved.warnings.iter().all(|w| !w.contains("class members")), "{:?}", saved.warnings);

    // The same class on the map itself is written bare, and named.
    let mut own = map.clone();
    let stats = map.tiles.iter().find_map(|t| t.properties.get("stats")).unwrap().clone();
    own.properties.insert("stats".into(), stats);
    let saved = format::save(&own, &dir.path().join("own.tmj")).unwrap();
    assert!(
        saved.warnings.iter().any(|w| w.starts_with(r#"class members "aura" will read back as another type"#)),
        "{:?}",
        saved.warnings
    );
}

/// An infinite Tiled JSON map's objects stay where they were through a save (its cells are
/// numbered from the corner of its tiles here), and a resize that adds cells on the left keeps
/// every tile and object at its Tiled place.
#[test]
fn an_infinite_maps_objects_and_a_resize_keep_their_tiled_places() {
    use sightline::core::Anchor;
    let dir = dir_with_tiny_tileset();
    let path = dir.path().join("open.tmj");
    std::fs::write(&path, include_str!("../fixtures/infinite_objects.tmj")).unwrap();
    let map = load(&path);
    assert_eq!((map.width(), map.height(), map.tiled.infinite_origin), (2, 1, Some([-1, -1])));
    assert_eq!(map.objects[0].cell, Cell::new(0, 0));
    let written = |map: &Map, ext: &str| -> serde_json::Value {
        let text = save_text(map, ext).1;
        serde_json::from_str(&text).unwrap()
    };
    let json = written(&map, "out.tmj");
    assert_eq!(json["infinite"], serde_json::json!(true));
    let object = &json["layers"][1]["objects"][0];
    assert_eq!((object["x"].as_f64(), object["y"].as_f64()), (Some(-4.0), Some(-4.0)));
    let chunk_places: Vec<(i64, i64)> = json["layers"][0]["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["x"].as_i64().unwrap(), c["y"].as_i64().unwrap()))
        .collect();
    assert_eq!(chunk_places, [(-4, -4), (0, -4)], "chunks of the file's 4 × 4 size");
    // Two columns added on the left: the tiles and the chest move right here, not in Tiled.
    let wider = map.resized(4, 1, Anchor::Right, 0).unwrap();
    assert_eq!(wider.tiled.infinite_origin, Some([-3, -1]));
    let json = written(&wider, "wider.tmj");
    let object = &json["layers"][1]["objects"][0];
    assert_eq!((object["x"].as_f64(), object["y"].as_f64()), (Some(-4.0), Some(-4.0)));
    // An infinite map is the tiles it has: the empty columns are not written, and the map read
    // back is the rectangle its tiles cover again, everything where it was.
    let again = round_trip(&wider, "tmj");
    assert_eq!((again.width(), again.tiled.infinite_origin), (2, Some([-1, -1])));
    assert_eq!(again.objects[0].cell, Cell::new(0, 0));
    // An object beyond the tiles is on the map too (the rectangle takes it in), and stays
    // where it was; one too far out for any map is left out, with a warning.
    let text = std::fs::read_to_string(&path).unwrap().replace(
        r#""point": true}]}"#,
        r#""point": true},
            {"id": 2, "name": "flag", "x": 44, "y": -4, "point": true},
            {"id": 3, "name": "moon", "x": 1e7, "y": 0, "point": true}]}"#,
    );
    std::fs::write(&path, text).unwrap();
    let loaded = format::load(&path).unwrap();
    assert_eq!((loaded.map.width(), loaded.map.height()), (7, 1));
    assert_eq!(
        loaded.map.objects.iter().map(|o| (o.name.as_str(), o.cell)).collect::<Vec<_>>(),
        [("chest", Cell::new(0, 0)), ("flag", Cell::new(6, 0))]
    );
    assert!(
        loaded.warnings.iter().any(|w| w == r#"object "moon" lies outside the map and is left out"#),
        "{:?}",
        loaded.warnings
    );
    // A save over the file would drop it: asked first.
    assert_eq!(loaded.not_kept, ["objects outside the map (left out when it opened)"]);
    let json = written(&loaded.map, "flag.tmj");
    let flag = &json["layers"][1]["objects"][1];
    assert_eq!((flag["name"].as_str(), flag["x"].as_f64(), flag["y"].as_f64()), (Some("flag"), Some(44.0), Some(-4.0)));
}

/// A Tiled JSON map written by hand, with layer data encoded as given.
fn tmj_with_data(data: serde_json::Value, encoding: Option<&str>, compression: Option<&str>) -> String {
    let mut layer = serde_json::json!({
        "type": "tilelayer", "name": "ground", "width": 3, "height": 2, "x": 0, "y": 0,
        "visible": true, "opacity": 1, "data": data,
    });
    if let Some(e) = encoding {
        layer["encoding"] = e.into();
    }
    if let Some(c) = compression {
        layer["compression"] = c.into();
    }
    serde_json::json!({
        "type": "map", "orientation": "orthogonal", "width": 3, "height": 2, "tilewidth": 8, "tileheight": 8,
        "infinite": false,
        "tilesets": [{"firstgid": 1, "source": "tiny.tsx"}, {
            "firstgid": 10, "name": "second", "tilewidth": 8, "tileheight": 8, "tilecount": 2, "columns": 2,
            "image": "tiny.png", "imagewidth": 16, "imageheight": 8,
            "tiles": [{"id": 1, "properties": [{"name": "opaque", "type": "bool", "value": true}]}]
        }],
        "layers": [layer],
    })
    .to_string()
}

#[test]
fn tmj_reads_csv_and_base64_with_every_compression_and_keeps_flip_bits() {
    use base64::Engine;
    use std::io::Write;
    // GIDs: tile 0 and 1 of tiny.tsx, tile 1 of "second" flipped horizontally, empty, 4, 11.
    let gids: [u32; 6] = [1, 2, 11 | 0x8000_0000, 0, 4, 11];
    let raw: Vec<u8> = gids.iter().flat_map(|g| g.to_le_bytes()).collect();
    let b64 = |bytes: &[u8]| serde_json::Value::from(base64::engine::general_purpose::STANDARD.encode(bytes));
    let zlib = {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(&raw).unwrap();
        e.finish().unwrap()
    };
    let gzip = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(&raw).unwrap();
        e.finish().unwrap()
    };
    let zstd = zstd::encode_all(&raw[..], 3).unwrap();
    let variants = [
        tmj_with_data(serde_json::json!(gids), None, None),
        tmj_with_data(b64(&raw), Some("base64"), None),
        tmj_with_data(b64(&zlib), Some("base64"), Some("zlib")),
        tmj_with_data(b64(&gzip), Some("base64"), Some("gzip")),
        tmj_with_data(b64(&zstd), Some("base64"), Some("zstd")),
    ];
    let dir = dir_with_tiny_tileset();
    let first = load_tmj_text(dir.path(), &variants[0]).unwrap().map;
    // Two tilesets: 4 tiles of tiny.tsx, then 2 of "second".
    assert_eq!(first.tiles.len(), 1 + 4 + 2);
    assert_eq!(first.layers[0].cells, vec![1, 2, 6, 0, 4, 6], "the flipped GID is the same tile");
    let flips: Vec<Flip> = (0..6).map(|i| first.layers[0].flip(i)).collect();
    assert_eq!(flips, [Flip::NONE, Flip::NONE, Flip::HORIZONTAL, Flip::NONE, Flip::NONE, Flip::NONE]);
    assert!(first.rules_at(Cell::new(2, 0)).opaque);
    // Each reads as the same map, kept in the format it came in (Tiled's layer format).
    use sightline::core::model::tiled_settings::LayerFormat;
    assert_eq!(first.tiled.layer_format, LayerFormat::Csv);
    let formats = [LayerFormat::Base64, LayerFormat::Base64Zlib, LayerFormat::Base64Gzip, LayerFormat::Base64Zstd];
    for (v, format) in variants[1..].iter().zip(formats) {
        let mut map = load_tmj_text(dir.path(), v).unwrap().map;
        assert_eq!(map.tiled.layer_format, format);
        map.tiled.layer_format = LayerFormat::Csv;
        assert_same(&map, &first, "base64 variant");
    }
}

#[test]
fn tmj_writes_a_layers_data_a_map_row_a_line() {
    let map = ascii(
        "#.#.\n\
         ....\n\
         #..#\n",
    );
    let (_, text) = save_text(&map, "m.tmj");
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let gids: Vec<String> = value["layers"][0]["data"].as_array().unwrap().iter().map(|g| g.to_string()).collect();
    assert_eq!(gids.len(), 12);
    // `"data": [`, then one line a map row (Tiled's CSV layout), then the closing bracket.
    let lines: Vec<&str> = text.lines().skip_while(|l| l.trim() != "\"data\": [").take(5).collect();
    let rows: Vec<String> = gids.chunks(4).map(|row| row.join(",")).collect();
    assert_eq!(
        lines.iter().map(|l| l.trim()).collect::<Vec<_>>(),
        ["\"data\": [", &format!("{},", rows[0]), &format!("{},", rows[1]), &rows[2], "],"],
        "{text}"
    );
    assert_same(&round_trip(&map, "tmj"), &map, "through .tmj");
}

/// Tiled 1.0–1.1's JSON (still what Tiled's "JSON map files [Tiled 1.1]" export writes): custom
/// properties as an object with their types beside it, tile properties at the tileset's level,
/// tiles keyed by id. It loads as the same map written in Tiled 1.2's form, and a save writes
/// that form.
#[test]
fn tiled_1_1_json_loads_as_the_current_form_says_the_same() {
    let old = r##"{"width":3,"height":1,"tilewidth":8,"tileheight":8,"infinite":false,"version":1.1,
    "properties":{"difficulty":3,"tint":"#ff112233","title":"cave","speed":"2"},
    "propertytypes":{"difficulty":"int","tint":"color","title":"string","speed":"int"},
    "tilesets":[{"firstgid":1,"name":"b","tilewidth":8,"tileheight":8,"tilecount":4,"columns":2,
      "image":"tiny.png","imagewidth":16,"imageheight":16,
      "properties":{"kind":"dungeon"},"propertytypes":{"kind":"string"},
      "tiles":{"2":{"type":"water","animation":[{"tileid":2,"duration":100},{"tileid":3,"duration":100}]}},
      "tileproperties":{"1":{"opaque":true,"walkable":false,"cost":2},"2":{"walkable":true,"cost":3.5}},
      "tilepropertytypes":{"1":{"opaque":"bool","walkable":"bool","cost":"int"},"2":{"walkable":"bool","cost":"float"}}}],
    "layers":[{"type":"tilelayer","name":"g","width":3,"height":1,"data":[1,2,3],
      "properties":{"collision":false,"note":"ground"},"propertytypes":{"collision":"bool"}},
     {"type":"objectgroup","name":"o","properties":{"team":"red"},"propertytypes":{"team":"string"},
      "objects":[{"id":1,"name":"p","type":"player","x":4,"y":4,"point":true,
        "properties":{"speed":1.5,"alive":"true"},"propertytypes":{"speed":"float","alive":"bool"}}]}]}"##;
    let current = r##"{"width":3,"height":1,"tilewidth":8,"tileheight":8,"infinite":false,"version":"1.2",
    "properties":[{"name":"difficulty","type":"int","value":3},{"name":"tint","type":"color","value":"#ff112233"},
      {"name":"title","type":"string","value":"cave"},{"name":"speed","type":"int","value":2}],
    "tilesets":[{"firstgid":1,"name":"b","tilewidth":8,"tileheight":8,"tilecount":4,"columns":2,
      "image":"tiny.png","imagewidth":16,"imageheight":16,
      "properties":[{"name":"kind","type":"string","value":"dungeon"}],
      "tiles":[{"id":1,"properties":[{"name":"opaque","type":"bool","value":true},{"name":"walkable","type":"bool","value":false},{"name":"cost","type":"int","value":2}]},
        {"id":2,"type":"water","animation":[{"tileid":2,"duration":100},{"tileid":3,"duration":100}],
         "properties":[{"name":"walkable","type":"bool","value":true},{"name":"cost","type":"float","value":3.5}]}]}],
    "layers":[{"type":"tilelayer","name":"g","width":3,"height":1,"data":[1,2,3],
      "properties":[{"name":"collision","type":"bool","value":false},{"name":"note","type":"string","value":"ground"}]},
     {"type":"objectgroup","name":"o","properties":[{"name":"team","type":"string","value":"red"}],
      "objects":[{"id":1,"name":"p","type":"player","x":4,"y":4,"point":true,
        "properties":[{"name":"speed","type":"float","value":1.5},{"name":"alive","type":"bool","value":true}]}]}]}"##;
    let dir = dir_with_tiny_tileset();
    let old = load_tmj_text(dir.path(), old).unwrap_or_else(|e| panic!("{e}"));
    let current = load_tmj_text(dir.path(), current).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(old.warnings, current.warnings);
    assert_same(&old.map, &current.map, "Tiled 1.1's form against 1.2's");
    // The rules came through: tile 2 of the tileset (gid 2) is a wall, gid 3 water of cost 3.5.
    let kind = |gid: usize| &old.map.tiles[usize::from(old.map.layers[0].cells[gid])];
    assert!(kind(1).opaque && !kind(1).walkable, "{:?}", kind(1));
    assert_eq!((kind(2).walkable, kind(2).cost), (true, 3.5));

    let (_, text) = save_text(&old.map, "saved.tmj");
    assert!(!text.contains("propertytypes") && !text.contains("tileproperties"), "{text}");
    let saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(saved["properties"].is_array(), "{text}");
}

/// A JSON tileset file in Tiled 1.1's form reads as its 1.2 form does, and a value of the wrong
/// type for its declared type is named as in the current form.
#[test]
fn a_tiled_1_1_tileset_file_loads_and_bad_old_values_are_named() {
    let dir = dir_with_tiny_tileset();
    let map = r#"{"width":2,"height":1,"tilewidth":8,"tileheight":8,"infinite":false,
        "tilesets":[{"firstgid":1,"source":"old.tsj"}],
        "layers":[{"type":"tilelayer","name":"g","width":2,"height":1,"data":[1,2]}]}"#;
    let tileset = |tile_properties: &str| {
        format!(
            r#"{{"name":"t","tilewidth":8,"tileheight":8,"tilecount":4,"columns":2,"image":"tiny.png",
            "imagewidth":16,"imageheight":16,"tileproperties":{{"0":{tile_properties}}},
            "tilepropertytypes":{{"0":{{"opaque":"bool","cost":"int"}}}}}}"#
        )
    };
    std::fs::write(dir.path().join("old.tsj"), tileset(r#"{"opaque":"true","cost":4}"#)).unwrap();
    let loaded = load_tmj_text(dir.path(), map).unwrap_or_else(|e| panic!("{e}"));
    let wall = &loaded.map.tiles[usize::from(loaded.map.layers[0].cells[0])];
    assert!(wall.opaque && wall.cost == 4.0, "{wall:?}");

    std::fs::write(dir.path().join("old.tsj"), tileset(r#"{"opaque":true,"cost":"many"}"#)).unwrap();
    let message = load_tmj_text(dir.path(), map).unwrap_err().to_string();
    assert!(
        message.contains("old.tsj") && message.contains(r#"property "cost" of type "int" has value "many""#),
        "{message}"
    );
}
