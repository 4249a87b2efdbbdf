//! Every format loads every sample map that ships in it; round trips are exact; real Tiled maps
//! (from ../shared/corpus) load; ASCII maps mean what docs/formats.md says.

use std::path::{Path, PathBuf};

use sightline::core::format::{self, Format};
use sightline::core::model::flip::Flip;
use sightline::core::model::tile::{STANDARD_CLOSED_DOOR, STANDARD_FLOOR, STANDARD_WALL};
use sightline::core::model::wang::WangKind;
use sightline::core::{Cell, Map, ObjectKind};

fn maps_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("maps")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// `../shared/corpus`, or `None` (and a note on stderr) when this checkout has no `../shared`.
fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: ../shared/corpus is absent (it holds the real Tiled and MovingAI maps)");
        None
    }
}

fn load(path: &Path) -> Map {
    match format::load(path) {
        Ok(l) => l.map,
        Err(e) => panic!("{e}"),
    }
}

fn ascii(text: &str) -> Map {
    format::ascii::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Saves `map` as `ext` in a temp dir and loads it back.
fn round_trip(map: &Map, ext: &str) -> Map {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("map.{ext}"));
    format::save(map, &path).unwrap_or_else(|e| panic!("{e}"));
    load(&path)
}

#[track_caller]
fn assert_same(a: &Map, b: &Map, what: &str) {
    if let Some(d) = a.first_difference(b) {
        panic!("{what}: {d}");
    }
}

fn sample_paths() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(maps_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| Format::from_path(p).is_ok())
        .collect();
    paths.sort();
    paths
}

#[test]
fn every_sample_map_loads_in_every_format_it_ships_in() {
    let paths = sample_paths();
    let names: Vec<_> = paths.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for required in ["dungeon.ron", "caves.ron", "outdoor.ron", "pillars.ron", "diagonal.ron", "large.ron"] {
        assert!(names.iter().any(|n| n == required), "maps/{required} is missing");
    }
    assert!(names.iter().any(|n| n.ends_with(".tmx")), "no sample ships as TMX");
    assert!(names.iter().any(|n| n.ends_with(".tmj")), "no sample ships as TMJ");
    for path in &paths {
        let loaded = format::load(path).unwrap_or_else(|e| panic!("{e}"));
        assert!(loaded.warnings.is_empty(), "{}: {:?}", path.display(), loaded.warnings);
    }
    let large = load(&maps_dir().join("large.ron"));
    assert!(large.width() >= 512 && large.height() >= 512);
}

#[test]
fn the_tiled_copies_of_samples_equal_their_ron_originals() {
    let dungeon = load(&maps_dir().join("dungeon.ron"));
    assert_eq!(load(&maps_dir().join("dungeon.tmj")), dungeon);
    assert_eq!(load(&maps_dir().join("dungeon.txt")), dungeon);
    assert_eq!(load(&maps_dir().join("outdoor.tmx")), load(&maps_dir().join("outdoor.ron")));
}

#[test]
fn the_built_in_map_is_the_dungeon_sample() {
    assert_eq!(sightline::core::format::samples::default_map().unwrap(), load(&maps_dir().join("dungeon.ron")));
}

#[test]
fn samples_round_trip_exactly_through_ron_tmx_tmj_and_ascii() {
    for path in sample_paths().iter().filter(|p| p.extension().unwrap() == "ron") {
        let map = load(path);
        for ext in ["ron", "tmx", "tmj", "txt"] {
            assert_same(&round_trip(&map, ext), &map, &format!("{} through .{ext}", path.display()));
        }
    }
}

/// A map whose every cell is void (all erased) is lines of spaces in ASCII, which on their own
/// read as an empty file; the save marks it as a map with an empty legend.
#[test]
fn a_map_of_void_saves_as_ascii_and_reads_back() {
    let mut map = ascii("#####\n#...#\n#####\n");
    map.layers[0].cells.fill(sightline::core::model::tile::EMPTY);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("void.txt");
    format::save(&map, &path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "legend:\n---\n     \n \n \n");
    assert_same(&load(&path), &map, "void through .txt");
    // A map with a tile needs no legend.
    map.layers[0].cells[0] = STANDARD_WALL;
    format::save(&map, &path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "#    \n \n \n");
}

#[test]
fn tiled_maps_with_layers_sprites_and_custom_tiles_round_trip() {
    let mut map = load(&fixture("external_tileset.tmx"));
    // Things only the editor makes: a second layer, a collision layer, a hidden layer, a glyph tile.
    map.layers.push(sightline::core::Layer::filled("walls", map.len(), 0));
    map.layers[1].collision = true;
    map.layers[1].visible = false;
    map.layers[1].cells[5] = 2;
    let mut lava = sightline::core::TileKind::new(
        "lava",
        '≈',
        sightline::core::Rgb(255, 80, 0),
        sightline::core::Rgb(90, 10, 0),
        false,
        true,
    );
    lava.cost = 9.5;
    lava.properties.insert("damage".into(), sightline::core::PropertyValue::Int(3));
    map.tiles.push(lava);
    map.layers[0].cells[0] = (map.tiles.len() - 1) as u16;
    map.validate().unwrap();
    for ext in ["ron", "tmx", "tmj"] {
        assert_same(&round_trip(&map, ext), &map, &format!("through .{ext}"));
    }
}

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

#[test]
fn tmx_with_external_tileset_reads_properties_objects_and_lock() {
    let loaded = format::load(&fixture("external_tileset.tmx")).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let map = loaded.map;
    assert_eq!((map.width(), map.height()), (4, 3));
    assert!(map.layers[0].locked);
    assert_eq!(map.sheets.len(), 1);
    assert_eq!(map.sheets[0].columns, 2);
    // GID 2 is tile 1 of tiny.tsx: opaque and blocking.
    let wall = map.rules_at(Cell::new(0, 0));
    assert!(wall.opaque && !wall.walkable);
    // GID 1 is tile 0: no properties, so transparent and walkable.
    let floor = map.rules_at(Cell::new(1, 1));
    assert!(!floor.opaque && floor.walkable);
    // GID 3 is a closed door that toggles to GID 4.
    let door = map.rules_at(Cell::new(2, 1));
    assert!(door.opaque && !door.walkable && door.door.is_some());
    let open = map.rules_at(Cell::new(2, 2));
    assert!(!open.opaque && open.walkable && open.cost == 2.5);
    let mut toggled = map.clone();
    toggled.toggle_door(Cell::new(2, 1)).unwrap();
    assert_eq!(toggled.tile(0, Cell::new(2, 1)), map.tile(0, Cell::new(2, 2)));
    // Objects: a point at the centre of cell (1,1); a rectangle whose centre is in cell (2,1).
    assert_eq!(map.objects[0].kind, ObjectKind::PlayerStart);
    assert_eq!(map.objects[0].cell, Cell::new(1, 1));
    assert_eq!(map.objects[1].kind, ObjectKind::Monster { glyph: 'g', vision_radius: 5 });
    assert_eq!(map.objects[1].cell, Cell::new(2, 1));
}

#[test]
fn infinite_tmx_loads_as_its_bounding_rectangle() {
    let map = load(&fixture("infinite.tmx"));
    // Tiles at x = -1 (y 2) and x = 0..=1 (y 0): the rectangle is 3 wide, 3 high.
    assert_eq!((map.width(), map.height()), (3, 3));
    assert_eq!(map.tile(0, Cell::new(0, 2)), Some(2));
    assert_eq!(map.tile(0, Cell::new(1, 0)), Some(1));
    assert_eq!(map.tile(0, Cell::new(2, 0)), Some(1));
    assert_eq!(map.tile(0, Cell::new(1, 1)), Some(0));
    // The load says where its tiles are; a Tiled save writes it infinite again, in Tiled's
    // chunks, each tile where it was, and RON keeps where that is.
    let loaded = format::load(&fixture("infinite.tmx")).unwrap();
    assert!(loaded.not_kept.is_empty(), "{:?}", loaded.not_kept);
    assert!(
        loaded.warnings.iter().any(|w| w
            == "the map is infinite: its tiles and objects cover 3×3 cells from Tiled's cell -1, 0, which is cell 0, 0 \
                here; a Tiled save writes it infinite again, each tile and object where it was"),
        "{:?}",
        loaded.warnings
    );
    assert_eq!(map.tiled.infinite_origin, Some([-1, 0]));
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&round_trip(&map, ext), &map, ext);
    }
    let (_, tmx) = save_text(&map, "out.tmx");
    assert!(tmx.contains(r#" infinite="1" "#), "{tmx}");
    // Tiled's two chunks, the door at Tiled's -1, 2 (chunk -16, 0: column 15, row 2).
    let chunks: Vec<&str> = tmx.lines().filter(|l| l.contains("<chunk ")).map(str::trim).collect();
    assert_eq!(
        chunks,
        [r#"<chunk x="-16" y="0" width="16" height="16">"#, r#"<chunk x="0" y="0" width="16" height="16">"#]
    );
    let after_first = &tmx[tmx.find("<chunk ").unwrap()..];
    assert_eq!(after_first.lines().nth(3), Some("0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,"));
    // A layer with no tile has no chunk: read with white space in its data (it was refused, as
    // a layer short of its tiles), written as Tiled writes it, an empty `<data/>`.
    let text = std::fs::read_to_string(fixture("infinite.tmx")).unwrap().replace(
        "</map>",
        " <layer id=\"2\" name=\"empty\" width=\"30\" height=\"20\">\n  <data encoding=\"csv\">\n  </data>\n </layer>\n</map>",
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.tsx"), dir.path().join("tiny.tsx")).unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let path = dir.path().join("two.tmx");
    std::fs::write(&path, text).unwrap();
    let two = load(&path);
    assert_eq!(two.layers.len(), 2);
    assert!(
        save_text(&two, "out.tmx").1.contains(
            "<layer id=\"2\" name=\"empty\" width=\"3\" height=\"3\">\n  <data encoding=\"csv\"/>\n </layer>"
        )
    );
    for ext in ["tmx", "tmj"] {
        assert_same(&round_trip(&two, ext), &two, &format!("two layers as {ext}"));
    }
    // A chunk size no save can use (0, or so large a chunk would hold billions of cells) is
    // kept as the file gave it, and the chunks written are of 1 to 256 cells a side.
    let mut odd = map.clone();
    odd.tiled_editor.chunk_size = Some([0, 100_000]);
    let tmx = save_text(&odd, "odd.tmx").1;
    assert!(tmx.contains(r#"<chunksize width="0" height="100000"/>"#), "{tmx}");
    assert!(tmx.contains(r#"<chunk x="-1" y="0" width="1" height="256">"#), "{tmx}");
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&round_trip(&odd, ext), &odd, &format!("odd chunks as {ext}"));
    }
}

/// An infinite Tiled JSON map's objects stay where they were through a save (its cells are
/// numbered from the corner of its tiles here), and a resize that adds cells on the left keeps
/// every tile and object at its Tiled place.
#[test]
fn an_infinite_maps_objects_and_a_resize_keep_their_tiled_places() {
    use sightline::core::Anchor;
    let dir = dir_with_tiny_tileset();
    let path = dir.path().join("open.tmj");
    std::fs::write(
        &path,
        r#"{"type": "map", "orientation": "orthogonal", "infinite": true, "width": 30, "height": 20,
            "tilewidth": 8, "tileheight": 8, "tilesets": [{"firstgid": 1, "source": "tiny.tsx"}],
            "editorsettings": {"chunksize": {"width": 4, "height": 4}},
            "layers": [
              {"id": 1, "type": "tilelayer", "name": "ground", "startx": -4, "starty": -4, "width": 8, "height": 4,
               "chunks": [{"x": -4, "y": -4, "width": 4, "height": 4, "data": [0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,2]},
                          {"x": 0, "y": -4, "width": 4, "height": 4, "data": [0,0,0,0, 0,0,0,0, 0,0,0,0, 1,0,0,0]}]},
              {"id": 2, "type": "objectgroup", "name": "things", "objects": [
                {"id": 1, "name": "chest", "type": "item", "x": -4, "y": -4, "width": 0, "height": 0, "point": true}]}]}"#,
    )
    .unwrap();
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

/// A temp folder holding the `tiny` tileset, for hand-written maps that reference it.
fn dir_with_tiny_tileset() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in ["tiny.tsx", "tiny.png"] {
        std::fs::copy(fixture(f), dir.path().join(f)).unwrap();
    }
    dir
}

fn load_tmj_text(dir: &Path, text: &str) -> Result<format::Loaded, sightline::core::MapError> {
    let path = dir.join("m.tmj");
    std::fs::write(&path, text).unwrap();
    format::load(&path)
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
fn maps_without_rule_properties_fall_back_to_layer_names() {
    let text = r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="3" height="1" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" name="plain" tilewidth="8" tileheight="8" tilecount="4" columns="2">
  <image source="tiny.png" width="16" height="16"/>
 </tileset>
 <layer id="1" name="Ground" width="3" height="1"><data encoding="csv">1,1,1</data></layer>
 <layer id="2" name="Walls" width="3" height="1"><data encoding="csv">0,2,0</data></layer>
 <layer id="3" name="Solid rocks" width="3" height="1"><data encoding="csv">0,0,2</data></layer>
</map>"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let path = dir.path().join("plain.tmx");
    std::fs::write(&path, text).unwrap();
    let loaded = format::load(&path).unwrap();
    // One warning for both layers taken as collision layers.
    assert_eq!(
        loaded.warnings,
        ["no tile has opaque/walkable properties: layers \"Walls\", \"Solid rocks\" are taken as collision layers \
          (their tiles block sight and movement)"]
    );
    let map = loaded.map;
    assert!(map.layers[1].collision && map.layers[2].collision && !map.layers[0].collision);
    assert!(!map.rules_at(Cell::new(0, 0)).opaque);
    assert!(map.rules_at(Cell::new(1, 0)).opaque);
    assert!(!map.rules_at(Cell::new(1, 0)).walkable);
}

#[test]
fn a_missing_tileset_image_is_a_warning_and_the_map_still_loads() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["external_tileset.tmx", "tiny.tsx"] {
        std::fs::copy(fixture(f), dir.path().join(f)).unwrap();
    }
    let loaded = format::load(&dir.path().join("external_tileset.tmx")).unwrap();
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert!(loaded.warnings[0].contains("tiny.png") && loaded.warnings[0].contains("missing"));
    // Placeholder glyphs derive from the rules: the wall tile shows '#'.
    let wall = loaded.map.tile(0, Cell::new(0, 0)).unwrap();
    assert_eq!(loaded.map.tiles[usize::from(wall)].glyph.ch, '#');
}

#[test]
fn real_tiled_maps_from_the_corpus_load() {
    let Some(corpus) = corpus() else { return };
    let tiled = corpus.join("tiled");
    // desert.tmx: base64+zlib data, an external TSX tileset with spacing and margin.
    let desert = format::load(&tiled.join("desert.tmx")).unwrap();
    assert_eq!((desert.map.width(), desert.map.height()), (40, 40));
    assert_eq!(desert.map.sheets.len(), 1);
    assert_eq!((desert.map.sheets[0].spacing, desert.map.sheets[0].margin), (1, 1));
    assert!(desert.map.layers[0].cells.iter().all(|&t| t != 0));
    for name in ["sewers.tmx", "orthogonal-outside.tmx", "perspective_walls.tmx", "rpg/island.tmx"] {
        let loaded = format::load(&tiled.join(name)).unwrap_or_else(|e| panic!("{e}"));
        let map = &loaded.map;
        assert!(map.width() > 0 && !map.layers.is_empty(), "{name}");
        assert!(!map.sheets.is_empty(), "{name}: no tileset images");
        eprintln!(
            "{name}: {}×{}, {} layers, {} tilesets, {} tile types, {} objects, warnings {:?}",
            map.width(),
            map.height(),
            map.layers.len(),
            map.sheets.len(),
            map.tiles.len() - 1,
            map.objects.len(),
            loaded.warnings
        );
        // And they round-trip through our TMX and TMJ writers.
        for ext in ["tmx", "tmj", "ron"] {
            assert_same(&round_trip(map, ext), map, &format!("{name} through .{ext}"));
        }
    }
    let several = load(&tiled.join("rpg/island.tmx"));
    assert!(several.layers.len() >= 2);
    // Flipped tiles (Tiled's X, Y and Z): orthogonal-outside mirrors 51 tiles, the island turns 4.
    let outside = load(&tiled.join("orthogonal-outside.tmx"));
    let flipped: Vec<(&str, usize)> = outside.layers.iter().map(|l| (l.name.as_str(), l.flips.count())).collect();
    assert_eq!(flipped, [("Ground", 3), ("Fringe", 48)]);
    assert_eq!(outside.flipped_tile(0, Cell::new(10, 10)).map(|(_, f)| f), Some(Flip::HORIZONTAL));
    let (_, turned) = several.flipped_tile(0, Cell::new(22, 18)).unwrap();
    assert_eq!(turned.describe(), "rotated 90° counterclockwise");
    // The island's beach tileset animates its water and surf: 33 tiles (kept by the round trips
    // above, which compare the tile tables).
    assert_eq!(several.tiles.iter().filter(|t| !t.animation.is_empty()).count(), 33);
    // Terrains: desert's TSX and orthogonal-outside each have a corner Wang set of 4 colours
    // (kept by the round trips above, which compare the sheets).
    for (map, name, tiles) in [(&desert.map, "Desert", 48), (&outside, "Terrains", 185)] {
        let sets = &map.sheets[0].wang_sets;
        assert_eq!(sets.len(), 1);
        assert_eq!((sets[0].name.as_str(), sets[0].kind, sets[0].colors.len()), (name, WangKind::Corner, 4));
        assert_eq!(sets[0].tiles.len(), tiles, "{name}");
    }
    assert!(!desert.warnings.iter().any(|w| w.contains("Wang")), "{:?}", desert.warnings);
    // desert's TSX makes seven tiles rare for Tiled's random brush, and tile 45 never picked
    // (probability="0", which the `tiled` crate alone reads as a tile the file does not list).
    let rare: Vec<f32> = desert.map.tiles.iter().map(|t| t.probability).filter(|&p| p != 1.0).collect();
    assert_eq!(rare, [0.01, 0.01, 0.01, 0.01, 0.01, 0.0, 0.01, 0.01]);
    assert_eq!(desert.map.tiles[1 + 45].probability, 0.0);
    // perspective_walls: 64-pixel tiles on a 31-pixel grid, moved 32 pixels left (Tiled's
    // tileoffset), kept by the round trips above.
    let walls = format::load(&tiled.join("perspective_walls.tmx")).unwrap();
    assert_eq!(
        (walls.map.tile_size, walls.map.sheets[0].tile_width, walls.map.sheets[0].offset),
        ([31, 31], 64, [-32, 0])
    );
    assert!(!walls.warnings.iter().any(|w| w.contains("does not keep")), "{:?}", walls.warnings);
}

#[test]
fn movingai_arena_and_its_scenarios_load() {
    let Some(corpus) = corpus() else { return };
    let dir = corpus.join("movingai");
    let map = load(&dir.join("arena.map"));
    assert_eq!((map.width(), map.height()), (49, 49));
    assert!(!map.rules_at(Cell::new(0, 0)).walkable, "T is impassable");
    assert!(map.rules_at(Cell::new(3, 1)).walkable, ". is passable");
    let scen =
        format::movingai::parse_scenarios(&std::fs::read_to_string(dir.join("arena.map.scen")).unwrap()).unwrap();
    assert_eq!(scen.len(), 160);
    assert_eq!(scen[2].start, Cell::new(1, 13));
    assert!((scen[2].optimal_length - 3.41421).abs() < 1e-9);
    assert_same(&round_trip(&map, "map"), &map, "arena through .map");
    assert_same(&round_trip(&map, "ron"), &map, "arena through .ron");
}

#[test]
fn ascii_builtin_glyphs_mean_what_the_readme_says() {
    let map = ascii(
        "#####\n\
         #@+'#\n\
         #~\"g#\n\
         #*! #\n\
         #####\n",
    );
    let r = |x, y| map.rules_at(Cell::new(x, y));
    assert!(r(0, 0).opaque && !r(0, 0).walkable);
    assert!(!r(1, 1).opaque && r(1, 1).walkable, "the player stands on floor");
    assert!(r(2, 1).opaque && !r(2, 1).walkable && r(2, 1).door.is_some());
    assert!(!r(3, 1).opaque && r(3, 1).walkable && r(3, 1).door.is_some());
    assert!(r(1, 2).walkable && r(1, 2).cost == 3.0, "water costs 3");
    assert!(r(2, 2).opaque && r(2, 2).walkable, "tall grass hides but can be walked through");
    assert!(r(3, 3).opaque && !r(3, 3).walkable, "void is like the outside");
    assert!(r(-1, 0).opaque && !r(-1, 0).walkable, "out of bounds is opaque");
    let kinds: Vec<_> = map.objects.iter().map(|o| (o.cell, o.kind.clone())).collect();
    assert_eq!(
        kinds,
        vec![
            (Cell::new(1, 1), ObjectKind::PlayerStart),
            (Cell::new(3, 2), ObjectKind::Monster { glyph: 'g', vision_radius: 8 }),
            (Cell::new(1, 3), ObjectKind::Item),
            (Cell::new(2, 3), ObjectKind::Light { radius: 6 }),
        ]
    );
    assert_eq!(map.objects[1].name, "goblin");
}

#[test]
fn ascii_legend_redefines_and_adds_glyphs() {
    let map = ascii(
        "legend:\n\
         T = tile name=\"old tree\" opaque fg=#22aa22\n\
         = = wall\n\
         D = tile name=\"portcullis\" opaque door=closed toggles=d\n\
         d = tile name=\"raised portcullis\" walkable door=open toggles=D\n\
         g = monster name=\"grey goblin\" vision=3\n\
         ---\n\
         ==D==\n\
         =T.g=\n\
         ==d==\n",
    );
    assert_eq!(map.tile(0, Cell::new(0, 0)), Some(STANDARD_WALL));
    let tree = &map.tiles[usize::from(map.tile(0, Cell::new(1, 1)).unwrap())];
    assert_eq!((tree.name.as_str(), tree.opaque, tree.walkable), ("old tree", true, false));
    assert_eq!(tree.glyph.fg, sightline::core::Rgb(0x22, 0xaa, 0x22));
    let mut m = map.clone();
    let raised = m.tile(0, Cell::new(2, 2));
    assert_eq!(m.toggle_door(Cell::new(2, 0)), raised);
    assert_eq!(map.objects[0].name, "grey goblin");
    assert_eq!(map.objects[0].kind, ObjectKind::Monster { glyph: 'g', vision_radius: 3 });
    assert_same(&round_trip(&map, "txt"), &map, "legend map through .txt");
}

#[test]
fn ascii_keeps_lights_and_items_of_other_settings_under_glyphs_of_their_own() {
    let map = ascii(
        "legend:\nL = light name=torch radius=3\np = item name=potion\no = monster name=orc vision=8 light=2\n---\n\
         ########\n#!L.Lpo#\n########\n",
    );
    assert_eq!(map.objects.last().unwrap().carried_light(), Some(2), "the orc carries a light");
    let (text, warnings) = format::ascii::to_string(&map).unwrap();
    assert_eq!(warnings, Vec::<String>::new());
    // The built-in light keeps '!'; the torches share one new glyph, the potion another; the
    // orc's light is a setting of its glyph.
    assert_eq!(
        text,
        "legend:\n$ = light name=\"torch\" radius=3\n% = item name=\"potion\"\no = monster name=\"orc\" vision=8 light=2\n\
         ---\n########\n#!$.$%o#\n########\n"
    );
    assert_same(&round_trip(&map, "txt"), &map, "lights and items through .txt");
    // A second orc without the first one's light shares its letter: it says so, rather than
    // come back carrying a light; a name with a quote or a line break is written without them.
    let mut two = map.clone();
    let orc = two.objects.last().unwrap().clone();
    let mut plain = sightline::core::MapObject::new(orc.kind.clone(), Cell::new(3, 1)).named("orc");
    plain.properties.clear();
    two.add_object(plain);
    two.objects[0].name = "a \"lamp\"\nhere".into();
    let (text, warnings) = format::ascii::to_string(&two).unwrap();
    assert!(text.contains("o = monster name=\"orc\" vision=8 light=2\n"), "{text}");
    assert!(text.contains("= light name=\"a 'lamp' here\" radius=6\n"), "{text}");
    assert_eq!(
        warnings,
        [
            "name \"a \\\"lamp\\\"\\nhere\" is written as \"a 'lamp' here\": an ASCII legend holds no quotes or line breaks in a name",
            "monster \"orc\" shares glyph 'o' with another of other settings (name, vision, light): it is written as that one",
            "objects are listed in reading order (ASCII keeps no other order)",
        ]
    );
    assert!(format::ascii::parse(&text).is_ok(), "it reads back");
}

/// The player's torch (the player start's `light`), vision and name are legend settings of `@`; a
/// second player start of other settings is written as the first, and says so.
#[test]
fn ascii_keeps_the_players_torch_and_name() {
    let map = ascii("legend:\n@ = player name=hero light=3 vision=0\n---\n#####\n#@..#\n#####\n");
    let start = map.objects.iter().find(|o| o.kind == sightline::core::ObjectKind::PlayerStart).unwrap();
    assert_eq!((start.name.as_str(), start.carried_light(), start.player_vision()), ("hero", Some(3), Some(0)));
    let (text, warnings) = format::ascii::to_string(&map).unwrap();
    assert_eq!(warnings, Vec::<String>::new());
    assert_eq!(text, "legend:\n@ = player name=\"hero\" light=3 vision=0\n---\n#####\n#@..#\n#####\n");
    assert_same(&round_trip(&map, "txt"), &map, "the player's torch through .txt");
    // A plain player start writes no legend line.
    let (plain, _) = format::ascii::to_string(&ascii("#@#\n")).unwrap();
    assert_eq!(plain, "#@#\n");
    let mut two = map.clone();
    two.add_object(
        sightline::core::MapObject::new(sightline::core::ObjectKind::PlayerStart, Cell::new(3, 1)).named("player"),
    );
    let (_, warnings) = format::ascii::to_string(&two).unwrap();
    assert_eq!(
        warnings,
        ["player start \"player\" has other settings (name, light, vision) than the first: it is written as that one"]
    );
    let err = format::ascii::parse("legend:\n@ = player light=bright\n---\n@\n").unwrap_err().to_string();
    assert!(err.contains("light=\"bright\" is not a valid number"), "{err}");
    // A torch of 3.5 (a Float from Tiled) is written as 3, and it says so; 2.0 is just 2.
    let mut half = map.clone();
    let start = half.objects.iter_mut().find(|o| o.kind == sightline::core::ObjectKind::PlayerStart).unwrap();
    start.properties.insert("light".into(), sightline::core::PropertyValue::Float(3.5));
    start.properties.insert("vision".into(), sightline::core::PropertyValue::Float(2.0));
    let (text, warnings) = format::ascii::to_string(&half).unwrap();
    assert!(text.starts_with("legend:\n@ = player name=\"hero\" light=3 vision=2\n"), "{text}");
    assert_eq!(warnings, ["object \"hero\": its light 3.5 is written as 3 (ASCII's settings are whole cells)"]);
}

#[test]
fn ragged_ascii_rows_are_padded_with_void() {
    let map = ascii("###\n#.\n###\n");
    assert_eq!(map.width(), 3);
    assert_eq!(map.tile(0, Cell::new(2, 1)), Some(0));
    assert_eq!(map.tile(0, Cell::new(1, 1)), Some(STANDARD_FLOOR));
}

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
fn saves_are_atomic_and_leave_no_temp_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.ron");
    let map = ascii("#.#\n");
    format::save(&map, &path).unwrap();
    std::fs::write(dir.path().join("keep.txt"), "x").unwrap();
    format::save(&ascii("...\n"), &path).unwrap();
    let mut names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["a.ron", "keep.txt"]);
    assert_eq!(load(&path), ascii("...\n"));
    // A save into a folder that does not exist fails with the file named, and writes nothing.
    let bad = dir.path().join("missing/b.ron");
    let err = format::save(&map, &bad).unwrap_err().to_string();
    assert!(err.contains("missing/b.ron"), "{err}");
}

/// A TMX written by hand: two tilesets (one embedded, one external), layer data as base64 with
/// gzip in one layer and zstd in another, GIDs with flip bits, and a group layer.
#[test]
fn tmx_with_several_tilesets_compressions_flips_and_groups() {
    use base64::Engine;
    use std::io::Write;
    let encode = |gids: &[u32], compression: &str| -> String {
        let raw: Vec<u8> = gids.iter().flat_map(|g| g.to_le_bytes()).collect();
        let packed = match compression {
            "gzip" => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                e.write_all(&raw).unwrap();
                e.finish().unwrap()
            }
            "zstd" => zstd::encode_all(&raw[..], 3).unwrap(),
            _ => unreachable!(),
        };
        base64::engine::general_purpose::STANDARD.encode(packed)
    };
    // GIDs 1..=4: tiny.tsx; 5..=6: the embedded "second" tileset (tile 1 opaque).
    let ground = encode(&[1, 2, 1, 6 | 0x4000_0000], "gzip");
    let upper = encode(&[0, 0, 3 | 0x8000_0000, 0], "zstd");
    let text = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="2" height="2" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" source="tiny.tsx"/>
 <tileset firstgid="5" name="second" tilewidth="8" tileheight="8" tilecount="2" columns="2">
  <image source="tiny.png" width="16" height="8"/>
  <tile id="1"><properties><property name="opaque" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="2" height="2"><data encoding="base64" compression="gzip">{ground}</data></layer>
 <group id="2" name="details">
  <layer id="3" name="upper" width="2" height="2"><data encoding="base64" compression="zstd">{upper}</data></layer>
 </group>
</map>"#
    );
    let dir = dir_with_tiny_tileset();
    let path = dir.path().join("several.tmx");
    std::fs::write(&path, text).unwrap();
    let loaded = format::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let map = loaded.map;
    assert_eq!(map.sheets.len(), 2);
    assert_eq!(map.tiles.len(), 1 + 4 + 2);
    assert_eq!(map.layers.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), ["ground", "upper"]);
    assert_eq!((map.groups[0].name.as_str(), map.groups[0].start, map.groups[0].end), ("details", 1, 2));
    assert_eq!(map.layers[0].cells, vec![1, 2, 1, 6], "the flipped GID 6 is the same tile");
    assert_eq!(map.layers[1].cells, vec![0, 0, 3, 0]);
    assert_eq!((map.layers[0].flip(3), map.layers[1].flip(2)), (Flip::VERTICAL, Flip::HORIZONTAL));
    assert_eq!(map.layers[0].flips.count() + map.layers[1].flips.count(), 2);
    assert!(map.rules_at(Cell::new(1, 1)).opaque, "tile 1 of the second tileset is opaque");
    assert!(
        map.rules_at(Cell::new(0, 1)).opaque && map.rules_at(Cell::new(0, 1)).door.is_some(),
        "the closed door on the upper layer"
    );
    assert!(!map.rules_at(Cell::new(0, 0)).opaque);
    assert_same(&round_trip(&map, "tmx"), &map, "several tilesets through .tmx");
    // The map's layer format is its last layer's, as Tiled takes it; written as CSV, the flips
    // are written back as Tiled writes them: in the GIDs' top bits.
    use sightline::core::model::tiled_settings::LayerFormat;
    assert_eq!(map.tiled.layer_format, LayerFormat::Base64Zstd);
    let mut map = map;
    map.tiled.layer_format = LayerFormat::Csv;
    let (_, tmj) = save_text(&map, "several.tmj");
    let json: serde_json::Value = serde_json::from_str(&tmj).unwrap();
    assert_eq!(json["layers"][0]["data"], serde_json::json!([1, 2, 1, 6 | 0x4000_0000_u32]));
    assert_eq!(json["layers"][1]["layers"][0]["data"], serde_json::json!([0, 0, 3 | 0x8000_0000_u32, 0]));
    assert_same(&round_trip(&map, "tmj"), &map, "flips through .tmj");
    // And in sightline's RON, as rows of hex digits beside the tiles.
    let (_, ron) = save_text(&map, "several.ron");
    assert!(ron.contains(r#"flips: [".4", ".."]"#) || ron.contains(r#"flips: ["..", ".4"]"#), "{ron}");
    assert!(ron.contains(r#"flips: ["..", "8."]"#), "{ron}");
    assert_same(&round_trip(&map, "ron"), &map, "flips through .ron");
    // ASCII cannot hold them, and says so.
    let (warnings, _) = save_text(&map, "several.txt");
    assert!(
        warnings.contains(&"2 tiles flipped or turned (Tiled's flip flags) are written unflipped in ASCII".to_string()),
        "{warnings:?}"
    );
}

/// Saves `map` as `name` in a temp dir; returns the warnings and the text written.
fn save_text(map: &Map, name: &str) -> (Vec<String>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    let saved = format::save(map, &path).unwrap_or_else(|e| panic!("{e}"));
    (saved.warnings, std::fs::read_to_string(&path).unwrap())
}

#[test]
fn movingai_says_which_cells_it_cannot_hold_as_they_are() {
    // A closed door, an open door, and tall grass (walkable, but it blocks sight).
    let map = ascii(
        "#####\n\
         #+.\"#\n\
         #'..#\n\
         #####\n",
    );
    let (warnings, text) = save_text(&map, "m.map");
    assert_eq!(
        warnings,
        [
            "2 doors are written as they stand, closed as `@` and open as `.`: MovingAI maps have no doors",
            "1 cell that blocks sight but can be walked through becomes ground `.`, which does not block sight: \
             MovingAI has no such terrain",
        ]
    );
    assert_eq!(
        text,
        "type octile\nheight 4\nwidth 5\nmap\n\
         @@@@@\n\
         @@..@\n\
         @...@\n\
         @@@@@\n"
    );
    // Plain floors and walls lose nothing that matters: no warning.
    assert_eq!(save_text(&ascii("###\n#.#\n###\n"), "plain.map").0, Vec::<String>::new());
}

#[test]
fn ascii_names_the_tiles_it_cannot_keep_in_one_warning() {
    let map = ascii("...\n");
    let tile = |i: usize| {
        let mut t = sightline::core::TileKind::new(
            &format!("sand {i}"),
            'x',
            sightline::core::Rgb(200, 180, 90),
            sightline::core::Rgb(0, 0, 0),
            false,
            true,
        );
        t.properties.insert("dune".into(), sightline::core::PropertyValue::Int(i as i64));
        t
    };
    for n in [1, 4, 40] {
        let mut many = map.clone();
        let first = many.tiles.len();
        many.tiles.extend((0..n).map(tile));
        many.layers[0].cells[0] = first as u16;
        many.validate().unwrap();
        let warnings = save_text(&many, "m.txt").0;
        let expected = match n {
            1 => "tile \"sand 0\": its sprite, animation and custom properties are not kept in ASCII".to_owned(),
            4 => "4 tiles (\"sand 0\", \"sand 1\", \"sand 2\", \"sand 3\"): their sprites, animations and custom properties are \
                  not kept in ASCII"
                .to_owned(),
            _ => "40 tiles (\"sand 0\", \"sand 1\", \"sand 2\" and 37 more): their sprites, animations and custom properties are \
                  not kept in ASCII"
                .to_owned(),
        };
        // All but the first sand give up their glyph 'x', which the first has.
        let moved = (n > 1).then(|| format!("{} tile types are written with other glyphs than their own", n - 1));
        assert_eq!(warnings.len(), 1 + usize::from(moved.is_some()), "{n} tiles: {warnings:?}");
        assert!(warnings.contains(&expected), "{n} tiles: {warnings:?}");
        if let Some(moved) = moved {
            assert!(warnings.iter().any(|w| w.starts_with(&moved) && w.contains(r#""sand 1" as "#)), "{warnings:?}");
        }
    }
}

#[test]
fn the_large_sample_is_the_dungeon_its_readme_says_and_the_generator_still_makes_it() {
    // maps/README.md: `sightline generate dungeon --width 512 --height 512 --seed 42`. The
    // benchmarks' "rooms" maps come from the same generator, so its output must not drift.
    let generated = sightline::core::generate::dungeon(512, 512, 42).unwrap();
    assert!(generated == load(&maps_dir().join("large.ron")), "the generator no longer makes maps/large.ron");
    // A small one drawn out: rooms in the order placed, each joined to the next by an L-shaped
    // corridor, doors (`+` closed, `'` open) where corridors meet rooms, the player in the first,
    // an item in a room's south-east corner.
    let small = sightline::core::generate::dungeon(30, 14, 2).unwrap();
    let drawn = format::ascii::to_string(&small).unwrap().0;
    let expected = [
        "##############################",
        "####.......#############....##",
        "####.......#############....##",
        "####.......#############....##",
        "####........'......+...#....##",
        "####........'...r..+...+...*##",
        "####.......##......###.#######",
        "####.......###########.#######",
        "######################+#######",
        "####################.....#####",
        "####################..@..#####",
        "####################.....#####",
        "##############################",
        "##############################",
    ];
    assert_eq!(drawn.lines().collect::<Vec<_>>(), expected);
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

#[test]
fn ascii_keeps_the_tiles_in_use_when_a_tileset_has_more_types_than_glyphs() {
    use sightline::core::model::tile::{Door, Rgb, TileKind};
    // A 25 000-tile tileset (more than ASCII's ~21 000 glyphs), of which the map uses two: a plain
    // tile and a closed door whose open counterpart no cell uses yet.
    let mut map = ascii("....\n");
    let first = map.tiles.len();
    for i in 0..25_000 {
        map.tiles.push(TileKind::new(&format!("tile {i}"), 'x', Rgb(1, 2, 3), Rgb(0, 0, 0), false, true));
    }
    let (closed, open) = (first + 7, first + 24_000);
    map.tiles[closed] = TileKind::new("gate", 'x', Rgb(9, 9, 9), Rgb(0, 0, 0), true, false);
    map.tiles[closed].door = Some(Door { open: false, toggles_to: open as u16 });
    map.tiles[open] = TileKind::new("open gate", 'x', Rgb(9, 9, 9), Rgb(0, 0, 0), false, true);
    map.tiles[open].door = Some(Door { open: true, toggles_to: closed as u16 });
    map.layers[0].cells[0] = (first + 3) as u16;
    map.layers[0].cells[1] = closed as u16;
    map.validate().unwrap();
    let (warnings, _) = save_text(&map, "big.txt");
    assert_eq!(warnings[0], "24997 tile types that no cell uses are not kept: ASCII has too few glyphs for all 25000");
    // The three kept share glyph 'x': two are written with others.
    assert!(warnings[1].starts_with("2 tile types are written with other glyphs than their own"), "{warnings:?}");
    assert_eq!(warnings.len(), 2);
    let back = round_trip(&map, "txt");
    let name = |m: &Map, x: i32| m.tiles[usize::from(m.top_tile(Cell::new(x, 0)).unwrap().1)].name.clone();
    assert_eq!((name(&back, 0), name(&back, 1), name(&back, 2)), ("tile 3".into(), "gate".into(), "floor".into()));
    // The gate still opens into its counterpart, kept though no cell uses it.
    let gate = &back.tiles[usize::from(back.top_tile(Cell::new(1, 0)).unwrap().1)];
    assert_eq!(back.tiles[usize::from(gate.door.unwrap().toggles_to)].name, "open gate");

    // A map whose cells use more types than there are glyphs cannot be written: an error, no file.
    let mut every = sightline::core::Map::new_standard(200, 125, STANDARD_FLOOR).unwrap();
    let first = every.tiles.len();
    every
        .tiles
        .extend((0..25_000).map(|i| TileKind::new(&format!("t{i}"), 'x', Rgb(1, 2, 3), Rgb(0, 0, 0), false, true)));
    for (i, c) in every.layers[0].cells.iter_mut().enumerate() {
        *c = (first + i) as u16;
    }
    every.validate().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let err = format::save(&every, &dir.path().join("every.txt")).unwrap_err().to_string();
    assert!(err.contains("uses 25000 tile types, more than ASCII has glyphs for"), "{err}");
    assert!(!dir.path().join("every.txt").exists());
}

#[test]
fn ron_keeps_a_tile_table_as_large_as_tile_ids_go() {
    use sightline::core::model::tile::{Rgb, TileKind};
    // As many tile types as a TileId can number (a few large Tiled tilesets), all asking for the
    // same glyph: every one needs a key of its own.
    let mut map = ascii("...\n");
    let extra = usize::from(sightline::core::TileId::MAX) + 1 - map.tiles.len();
    map.tiles.extend((0..extra).map(|i| TileKind::new(&format!("t{i}"), 'x', Rgb(1, 2, 3), Rgb(0, 0, 0), false, true)));
    map.layers[0].cells[1] = sightline::core::TileId::MAX;
    map.validate().unwrap();
    let back = round_trip(&map, "ron");
    assert_same(&back, &map, "through .ron");
    assert_eq!(back.tiles.len(), 65_536);
}

#[test]
fn a_layers_opacity_and_custom_properties_survive_every_tiled_and_ron_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["tiny.tsx", "tiny.png"] {
        std::fs::copy(fixture(f), dir.path().join(f)).unwrap();
    }
    let path = dir.path().join("translucent.tmx");
    std::fs::write(
        &path,
        r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="3" height="2" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" source="tiny.tsx"/>
 <layer id="1" name="Bottom" width="3" height="2"><data encoding="csv">1,1,1,1,2,1</data></layer>
 <layer id="2" name="Top" width="3" height="2" opacity="0.49">
  <properties>
   <property name="collision" type="bool" value="true"/>
   <property name="depth" type="int" value="3"/>
  </properties>
  <data encoding="csv">0,2,0,0,0,0</data>
 </layer>
</map>"#,
    )
    .unwrap();
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
fn a_tileset_images_transparent_colour_and_drawing_offset_are_read_and_written_in_tmx_tmj_and_ron() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let path = dir.path().join("keyed.tmx");
    std::fs::write(
        &path,
        r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" name="keyed" tilewidth="8" tileheight="8" tilecount="2" columns="2">
  <tileoffset x="-4" y="2"/>
  <image source="tiny.png" trans="ff00ff" width="16" height="8"/>
 </tileset>
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">1,2</data></layer>
</map>"#,
    )
    .unwrap();
    let map = load(&path);
    assert_eq!(map.sheets[0].transparent, Some(sightline::core::Rgb(255, 0, 255)));
    assert_eq!(map.sheets[0].offset, [-4, 2]);
    for ext in ["tmx", "tmj", "ron"] {
        let back = round_trip(&map, ext);
        assert_eq!((back.sheets[0].transparent, back.sheets[0].offset), (map.sheets[0].transparent, [-4, 2]), "{ext}");
    }
    let tmx = dir.path().join("out.tmx");
    format::save(&map, &tmx).unwrap();
    let text = std::fs::read_to_string(&tmx).unwrap();
    assert!(text.contains("trans=\"ff00ff\"") && text.contains("<tileoffset x=\"-4\" y=\"2\"/>"), "as Tiled writes it");
}

#[test]
fn a_tilesets_render_size_fill_mode_object_alignment_and_transformations_are_kept() {
    use sightline::core::model::sheet_drawing::{ObjectAlignment, SheetDrawing, TileTransformations};
    // tile_drawing.tmx: Tiled 1.9's tileset settings; the tile object's position is its
    // image's centre.
    let path = fixture("tile_drawing.tmx");
    let dir = tempfile::tempdir().unwrap();
    let map = load(&path);
    let expected = SheetDrawing {
        grid_size: true,
        preserve_aspect: true,
        object_alignment: ObjectAlignment::Center,
        transformations: Some(TileTransformations {
            hflip: true,
            vflip: false,
            rotate: true,
            prefer_untransformed: true,
        }),
    };
    assert_eq!(map.sheets[0].drawing, expected);
    // Centred on (12, 4), the lamp is on cell (1, 0); taken as bottom-left it would be on (2, 0).
    assert_eq!(map.objects[0].cell, Cell::new(1, 0));
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&map, &round_trip(&map, ext), ext);
    }
    let (_, tmx) = save_text(&map, "out.tmx");
    for written in [
        r#"objectalignment="center" tilerendersize="grid" fillmode="preserve-aspect-fit">"#,
        r#"<transformations hflip="1" vflip="0" rotate="1" preferuntransformed="1"/>"#,
        r#"gid="2" x="12" y="4" width="8" height="8""#,
    ] {
        assert!(tmx.contains(written), "{written} in\n{tmx}");
    }
    let (_, tmj) = save_text(&map, "out.tmj");
    for written in [r#""objectalignment": "center""#, r#""tilerendersize": "grid""#, r#""preferuntransformed": true"#] {
        assert!(tmj.contains(written), "{written} in\n{tmj}");
    }
    // A tileset that sets none of them writes none of them.
    let (_, plain) = save_text(&load(&fixture("objects.tmx")), "plain.tmx");
    assert!(!plain.contains("tilerendersize") && !plain.contains("<transformations"), "{plain}");
    // A value Tiled does not know is an error naming the key, not a silent default.
    let bad = tmj.replace(r#""tilerendersize": "grid""#, r#""tilerendersize": "huge""#);
    let Err(err) = load_tmj_text(dir.path(), &bad) else { panic!("an unknown tilerendersize is refused") };
    assert!(err.to_string().contains("tilerendersize"), "{err}");
}

#[test]
fn tile_animations_are_read_and_written_in_tmx_tmj_and_ron() {
    use sightline::core::model::tile::Frame;
    // animated.tmx: tile 0 shows tiles 0, 1 and 3 in turn; tile 2's second frame names a tile
    // the tileset does not have.
    let path = fixture("animated.tmx");
    let loaded = format::load(&path).unwrap();
    assert!(
        loaded.warnings.iter().any(|w| w.contains("tile 2: an animation frame shows tile 9")),
        "{:?}",
        loaded.warnings
    );
    assert!(!loaded.warnings.iter().any(|w| w.contains("does not keep")), "{:?}", loaded.warnings);
    let map = loaded.map;
    let tile = |local: u32| map.tiles.iter().position(|t| t.sprite.is_some_and(|s| s.index == local)).unwrap() as u16;
    let frame = |local, ms| Frame { tile: tile(local), duration_ms: ms };
    let water = &map.tiles[usize::from(tile(0))];
    assert_eq!(water.animation, [frame(0, 100), frame(1, 250), frame(3, 50)]);
    assert_eq!(map.tiles[usize::from(tile(2))].animation, [frame(2, 80)]);
    assert_eq!(map.tiles[usize::from(tile(2))].probability, 0.25, "Tiled's tile probability is kept too");
    // The frames loop: 0–99 ms the first, 100–349 the second, 350–399 the third.
    let shown: Vec<u16> = [0, 99, 100, 349, 350, 399, 400, 4_000_000_099].map(|ms| water.frame_at(ms).unwrap()).into();
    assert_eq!(shown, [tile(0), tile(0), tile(1), tile(1), tile(3), tile(3), tile(0), tile(0)]);
    assert_eq!(water.next_frame_in(120), Some(230));
    assert_eq!(map.tiles[usize::from(tile(1))].frame_at(0), None, "not animated");
    assert_eq!(map.tiles[usize::from(tile(2))].next_frame_in(0), None, "one frame never changes");
    for ext in ["tmx", "tmj", "ron"] {
        let back = round_trip(&map, ext);
        assert_same(&map, &back, ext);
        assert_eq!(back.tiles[usize::from(tile(0))].animation, water.animation, "{ext}");
    }
    let (_, text) = save_text(&map, "out.tmx");
    assert!(text.contains(r#"<frame tileid="1" duration="250"/>"#), "written as Tiled writes it:\n{text}");
    assert!(text.contains(r#"<tile id="2" probability="0.25">"#), "{text}");
}

#[test]
fn wang_sets_are_read_and_written_in_tmx_tmj_and_ron() {
    use sightline::core::model::tile::Rgba;
    // terrain.tmx has everything a Wang set holds: a class, properties on the set and on a
    // colour, a colour with alpha, "no tile" (-1), and a tile the tileset does not have (left
    // out, with a warning).
    let path = fixture("terrain.tmx");
    let loaded = format::load(&path).unwrap();
    assert!(
        loaded.warnings.iter().any(|w| w.contains("Wang set \"paths\": 1 of its tiles are not tiles of the tileset")),
        "{:?}",
        loaded.warnings
    );
    let map = loaded.map;
    let set = &map.sheets[0].wang_sets[0];
    assert_eq!((set.name.as_str(), set.class.as_str(), set.kind, set.tile), ("paths", "Path", WangKind::Edge, None));
    assert_eq!(set.tiles.keys().copied().collect::<Vec<_>>(), [0, 3]);
    assert_eq!(set.tiles[&3], [2, 0, 0, 0, 2, 0, 0, 0]);
    assert_eq!((set.colors[0].tile, set.colors[0].probability), (Some(2), 0.3));
    assert_eq!(set.colors[1].color, Rgba(0, 0, 255, 128));
    assert_eq!(set.colors[1].properties.len(), 1);
    assert_eq!(set.properties.len(), 1);
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&map, &round_trip(&map, ext), ext);
    }
    let (_, text) = save_text(&map, "out.tmx");
    for written in [
        r##"<wangset name="paths" class="Path" type="edge" tile="-1">"##,
        r##"<wangcolor name="road" color="#ff0000" tile="2" probability="0.3"/>"##,
        r##"<wangtile tileid="3" wangid="2,0,0,0,2,0,0,0"/>"##,
    ] {
        assert!(text.contains(written), "{written} in\n{text}");
    }
}

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
    std::fs::write(
        &path,
        r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="4" height="2" tilewidth="8" tileheight="8" infinite="0" nextobjectid="4">
 <tileset firstgid="1" source="tiny.tsx"/>
 <layer id="1" name="ground" width="4" height="2"><data encoding="csv">1,1,1,1,1,1,1,1</data></layer>
 <objectgroup id="2" name="things">
  <object id="1" name="secret" x="0" y="0" width="8" height="8" visible="0"/>
  <object id="2" name="ghost" x="8" y="0" width="8" height="8" opacity="0.25"/>
  <object id="3" name="plain" x="16" y="0" width="8" height="8"/>
 </objectgroup>
</map>"#,
    )
    .unwrap();
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
    std::fs::write(
        &tmx,
        r##"<?xml version="1.0"?>
<map version="1.12" orientation="orthogonal" width="8" height="4" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="2" columns="2">
  <image source="tiny.png" width="16" height="8"/>
 </tileset>
 <layer id="1" name="ground" width="8" height="4"><data encoding="csv">1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1</data></layer>
 <objectgroup id="2" name="labels">
  <object id="1" name="sign" x="2" y="3" width="40" height="20" rotation="15">
   <text fontfamily="Courier New" pixelsize="12" wrap="1" color="#80ff0000" bold="1" italic="1" underline="1" strikeout="1" kerning="0" halign="center" valign="bottom">Hello &amp; &lt;you&gt;
  second line</text>
  </object>
  <object id="2" x="8" y="16" width="30" height="10"><text>plain</text></object>
  <object id="3" name="pill" x="32" y="8" width="24" height="8"><capsule/></object>
 </objectgroup>
</map>"##,
    )
    .unwrap();
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

#[test]
fn loading_says_once_which_tiled_features_a_save_would_drop() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let tmx = r##"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="2" columns="2">
  <image source="tiny.png" width="16" height="8"/>
  <tile id="0"><animation><frame tileid="0" duration="100"/><frame tileid="1" duration="100"/></animation></tile>
  <tile id="1"><properties><property name="cost" type="int" propertytype="Terrain" value="2"/></properties></tile>
  <wangsets><wangset name="ground" type="corner" tile="-1"/></wangsets>
 </tileset>
 <group id="3" name="g" offsetx="4" parallaxx="0.5">
  <layer id="1" name="ground" width="2" height="1" tintcolor="#ff0000" offsety="2"><data encoding="csv">1,2</data></layer>
 </group>
 <objectgroup id="2" name="a"><object id="1" x="0" y="0" width="40" height="10"><text>hi</text></object></objectgroup>
 <objectgroup id="4" name="b">
  <properties><property name="spawns" type="list"><item type="int" value="1"/></property></properties>
 </objectgroup>
</map>"##;
    let path = dir.path().join("features.tmx");
    std::fs::write(&path, tmx).unwrap();
    let warnings = format::load(&path).unwrap().warnings;
    let dropped: Vec<&String> = warnings.iter().filter(|w| w.contains("does not keep")).collect();
    assert_eq!(dropped.len(), 1, "one warning: {warnings:?}");
    assert!(dropped[0].contains("the enum types of tile properties sightline reads"), "{}", dropped[0]);
    // Groups are kept, with their offsets and parallax factors; text objects are kept.
    for kept in ["tint", "animation", "Wang", "object layers", "groups", "offsets", "parallax", "text", "list"] {
        assert!(!dropped[0].contains(kept), "{kept} in {}", dropped[0]);
    }
    // Both object layers are kept, the empty one too.
    let names: Vec<String> = load(&path).object_layers.into_iter().map(|l| l.name).collect();
    assert_eq!(names, ["a", "b"]);
    // A tile layer's own tint and offset are kept, and its group's.
    let map = load(&path);
    assert_eq!((map.layers[0].tint, map.layers[0].offset), (Some(sightline::core::Rgba(255, 0, 0, 255)), [0.0, 2.0]));
    assert_eq!((map.groups[0].offset, map.groups[0].parallax), ([4.0, 0.0], [0.5, 1.0]));
    // The same map as Tiled JSON says the same; a plain map says nothing.
    let json = dir.path().join("plain.tmj");
    format::save(&map, &json).unwrap();
    assert!(!format::load(&json).unwrap().warnings.iter().any(|w| w.contains("does not keep")));
    let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    // An object layer's tint, offset and parallax are kept too, through TMJ, TMX and RON.
    assert_eq!(value["layers"][1]["type"], "objectgroup");
    value["layers"][1]["tintcolor"] = serde_json::json!("#ff0000");
    value["layers"][1]["offsetx"] = serde_json::json!(4);
    value["layers"][1]["offsety"] = serde_json::json!(-2.5);
    value["layers"][1]["parallaxy"] = serde_json::json!(0.25);
    std::fs::write(&json, value.to_string()).unwrap();
    let loaded = format::load(&json).unwrap();
    assert!(!loaded.warnings.iter().any(|w| w.contains("does not keep")), "{:?}", loaded.warnings);
    let look = |map: &sightline::core::Map| {
        let l = &map.object_layers[0];
        (l.name.clone(), l.tint, l.offset, l.parallax)
    };
    let expected = ("a".to_owned(), Some(sightline::core::Rgba(255, 0, 0, 255)), [4.0, -2.5], [1.0, 0.25]);
    assert_eq!(look(&loaded.map), expected);
    for ext in ["tmx", "tmj", "ron"] {
        let path = dir.path().join(format!("again.{ext}"));
        format::save(&loaded.map, &path).unwrap();
        assert_eq!(look(&load(&path)), expected, "through {ext}");
    }
    let tmx = std::fs::read_to_string(dir.path().join("again.tmx")).unwrap();
    assert!(
        tmx.contains(r##"<objectgroup id="2" name="a" tintcolor="#ff0000" offsetx="4" offsety="-2.5" parallaxx="1" parallaxy="0.25">"##),
        "{tmx}"
    );
}

#[test]
fn ascii_and_movingai_saves_name_the_custom_data_they_leave_out() {
    use sightline::core::PropertyValue;
    let mut map = load(&maps_dir().join("pillars.ron"));
    map.properties.insert("author".into(), PropertyValue::String("Ada".into()));
    map.layers[0].opacity = 0.5;
    let wall = map.tile_named("wall").unwrap();
    map.tiles[usize::from(wall)].properties.insert("material".into(), PropertyValue::String("stone".into()));
    let dir = tempfile::tempdir().unwrap();
    let ascii = format::save(&map, &dir.path().join("m.txt")).unwrap().warnings;
    assert!(ascii.contains(&"the map's custom properties (\"author\") are not kept in ASCII".to_owned()), "{ascii:?}");
    assert!(
        ascii.contains(
            &"layer opacity, tint, offset, parallax and custom properties (layer \"ground\") are not kept in ASCII"
                .to_owned()
        ),
        "{ascii:?}"
    );
    let movingai = format::save(&map, &dir.path().join("m.map")).unwrap().warnings;
    assert!(movingai.iter().any(|w| w.contains("\"author\") are not kept in MovingAI")), "{movingai:?}");
    assert!(
        movingai.contains(&"the custom properties of tile \"wall\" are not kept in MovingAI".to_owned()),
        "{movingai:?}"
    );
    // A map without any says nothing of them, nor of its one object layer.
    let mut plain = load(&maps_dir().join("pillars.ron"));
    assert_eq!(plain.object_layers.len(), 1);
    let warnings = format::save(&plain, &dir.path().join("p.txt")).unwrap().warnings;
    assert!(!warnings.iter().any(|w| w.contains("custom properties") || w.contains("object layers")), "{warnings:?}");
    // A second object layer is named.
    sightline::core::model::layers::add_object_layer(&mut plain, None, "zones").unwrap();
    let warnings = format::save(&plain, &dir.path().join("p.txt")).unwrap().warnings;
    let expected =
        "object layers (\"objects\", \"zones\") are not kept in ASCII: their objects are written on the one grid";
    assert!(warnings.contains(&expected.to_owned()), "{warnings:?}");
}

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
    std::fs::write(
        dir.path().join("enum.tsx"),
        r#"<?xml version="1.0"?>
<tileset version="1.10" name="t" tilewidth="8" tileheight="8" tilecount="2" columns="2">
 <image source="tiny.png" width="16" height="8"/>
 <tile id="1"><properties>
  <property name="facing" propertytype="Direction" value="north"/>
  <property name="flags" type="int" propertytype="Elements" value="5"/>
  <property name="note" propertytype="Mood">calm &amp;
steady</property>
  <property name="glow" type="color" value=""/>
 </properties></tile>
</tileset>"#,
    )
    .unwrap();
    let tmj = dir.path().join("enum.tmj");
    std::fs::write(
        &tmj,
        r#"{"width": 2, "height": 1, "tilewidth": 8, "tileheight": 8, "orientation": "orthogonal",
            "tilesets": [{"firstgid": 1, "source": "enum.tsx"}],
            "layers": [{"type": "tilelayer", "name": "ground", "width": 2, "height": 1, "data": [1, 2]}]}"#,
    )
    .unwrap();
    let tmx = dir.path().join("enum.tmx");
    std::fs::write(
        &tmx,
        r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" source="enum.tsx"/>
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">1,2</data></layer>
</map>"#,
    )
    .unwrap();
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
    assert!(error.contains("property \"mood\" of enum type \"Mood\" holds a <property> element"), "{error}");
    assert!(error.contains("line 4"), "{error}");
}

#[test]
fn a_rule_property_with_an_enum_type_is_read_by_its_value_and_the_type_named_in_the_load_warning() {
    use sightline::core::PropertyValue;
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    // A designer's project types the door's state and the cost with enums of its own.
    let tmx = r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="2" columns="2">
  <image source="tiny.png" width="16" height="8"/>
  <tile id="0"><properties><property name="walkable" type="bool" value="true"/></properties></tile>
  <tile id="1"><properties>
   <property name="door" propertytype="DoorState" value="open"/>
   <property name="cost" type="int" propertytype="Terrain" value="3"/>
   <property name="facing" propertytype="Direction" value="north"/>
  </properties></tile>
 </tileset>
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">1,2</data></layer>
</map>"#;
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

/// The part of a TMX file from its first `<objectgroup` to the end of the last.
fn object_groups(text: &str) -> &str {
    let start = text.find(" <objectgroup").unwrap_or_else(|| panic!("no object layer: {text}"));
    let end = text.rfind("</objectgroup>\n").unwrap() + "</objectgroup>\n".len();
    &text[start..end]
}

/// The map with no object linked to a template (each keeps its values).
fn without_links(map: &Map) -> Map {
    let mut map = map.clone();
    for o in &mut map.objects {
        o.template = None;
    }
    map
}

#[test]
fn tiled_template_instances_keep_their_links_and_a_save_writes_only_what_each_sets_itself() {
    use sightline::core::PropertyValue;
    use sightline::core::model::object::ShapeKind;
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let tsx = std::fs::read_to_string(fixture("tiny.tsx")).unwrap();
    std::fs::write(dir.path().join("tiny.tsx"), &tsx).unwrap();
    std::fs::write(dir.path().join("statues.tsx"), tsx.replace("name=\"tiny\"", "name=\"statues\"")).unwrap();
    // Templates in a folder of their own, as Tiled projects keep them: a chest tile from the
    // map's own tileset, a statue tile from a tileset the map does not use, and a plain marker
    // with a property.
    std::fs::create_dir(dir.path().join("templates")).unwrap();
    let template = |name: &str, body: &str| {
        let text = format!("<?xml version=\"1.0\"?>\n<template>\n{body}\n</template>\n");
        std::fs::write(dir.path().join("templates").join(name), text).unwrap();
    };
    template(
        "chest.tx",
        r#" <tileset firstgid="1" source="../tiny.tsx"/>
 <object name="chest" gid="4" width="8" height="8">
  <properties><property name="loot" value="gold"/></properties>
 </object>"#,
    );
    template(
        "statue.tx",
        r#" <tileset firstgid="1" source="../statues.tsx"/>
 <object name="statue" gid="2147483650" width="8" height="8"/>"#,
    );
    template(
        "marker.tx",
        r#" <object name="marker" type="Spawn" width="16" height="8">
  <properties><property name="wave" type="int" value="1"/><property name="side" value="left"/></properties>
 </object>"#,
    );
    let objects = r#" <objectgroup id="2" name="things">
  <object id="1" template="templates/chest.tx" x="0" y="16"/>
  <object id="2" template="templates/statue.tx" x="8" y="16"/>
  <object id="3" template="templates/statue.tx" x="16" y="16"/>
  <object id="4" template="templates/marker.tx" name="wave three" x="0" y="0">
   <properties>
    <property name="wave" type="int" value="3"/>
   </properties>
  </object>
 </objectgroup>
"#;
    let tmx = |objects: &str| {
        format!(
            r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="4" height="2" tilewidth="8" tileheight="8" infinite="0" nextobjectid="5">
 <tileset firstgid="1" source="tiny.tsx"/>
 <layer id="1" name="ground" width="4" height="2"><data encoding="csv">1,1,1,1,1,1,1,1</data></layer>
{objects}</map>"#
        )
    };
    let path = dir.path().join("templated.tmx");
    std::fs::write(&path, tmx(objects)).unwrap();
    let loaded = format::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(!loaded.warnings.iter().any(|w| w.contains("does not keep")), "{:?}", loaded.warnings);
    let added: Vec<&String> = loaded.warnings.iter().filter(|w| w.contains("of an object template")).collect();
    assert_eq!(added.len(), 1, "the statues' tileset is added once: {:?}", loaded.warnings);
    let statues = dir.path().join("statues.tsx").canonicalize().unwrap();
    assert!(added[0].contains(&format!("\"statues\" ({})", statues.display())), "a tidy path: {}", added[0]);
    let map = loaded.map;
    // Each instance has its template's tile (from the tileset the template names) and values.
    let tile_of = |id: u32| {
        let o = map.objects.iter().find(|o| o.id == id).unwrap();
        match o.shape.as_ref().map(|s| &s.kind) {
            Some(ShapeKind::Tile { tile, flip, .. }) => {
                let kind = &map.tiles[usize::from(*tile)];
                let sheet = &map.sheets[usize::from(kind.sprite.unwrap().sheet)];
                (sheet.name.clone(), kind.sprite.unwrap().index, *flip)
            }
            other => panic!("object {id}: {other:?}"),
        }
    };
    assert_eq!(tile_of(1), ("tiny".to_owned(), 3, Flip::NONE));
    assert_eq!(tile_of(2), ("statues".to_owned(), 1, Flip::HORIZONTAL));
    assert_eq!(tile_of(3), tile_of(2));
    let by_id = |map: &Map, id: u32| map.objects.iter().find(|o| o.id == id).unwrap().clone();
    assert_eq!(by_id(&map, 1).name, "chest");
    assert_eq!(by_id(&map, 1).properties["loot"], PropertyValue::String("gold".into()));
    let marker = by_id(&map, 4);
    assert_eq!((marker.name.as_str(), &marker.kind), ("wave three", &ObjectKind::Other("Spawn".into())));
    assert_eq!(marker.properties["wave"], PropertyValue::Int(3), "the instance's own value");
    assert_eq!(marker.properties["side"], PropertyValue::String("left".into()), "the template's");
    // ... and its link: the template's file, and what the instance sets itself.
    let link = marker.template.as_ref().expect("object 4 keeps its template");
    assert_eq!(link.path, dir.path().join("templates/marker.tx").canonicalize().unwrap());
    assert_eq!(link.own_values(&marker), ["name", "wave"]);
    assert_eq!(by_id(&map, 1).template.as_ref().unwrap().own_values(&by_id(&map, 1)), [] as [String; 0]);

    // Saved beside the templates, each instance writes its link and what it sets itself: the
    // file's object layer comes back as it was.
    let saved = dir.path().join("saved.tmx");
    let written = format::save(&map, &saved).unwrap_or_else(|e| panic!("{e}"));
    assert!(written.warnings.is_empty(), "{:?}", written.warnings);
    let text = std::fs::read_to_string(&saved).unwrap();
    assert_eq!(object_groups(&text), objects);
    assert_same(&map, &load(&saved), "saved tmx");
    // Saved elsewhere, the links lead to the same files; in every format.
    std::fs::create_dir(dir.path().join("out")).unwrap();
    let text = save_in(&map, &dir.path().join("out/saved.tmx"));
    assert!(text.contains(r#"<object id="1" template="../templates/chest.tx" x="0" y="16"/>"#), "{text}");
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&map, &round_trip(&map, ext), ext);
    }
    let text = save_in(&map, &dir.path().join("saved.ron"));
    assert!(text.contains(r#"path: "templates/marker.tx""#), "{text}");

    // Edited: the chest renamed and moved, the marker's side changed, a statue hidden. Only what differs from
    // the template is written; the statue lost its flip, which its GID (in the map's numbering) says.
    let mut edited = map.clone();
    let index = |id: u32| edited.objects.iter().position(|o| o.id == id).unwrap();
    let (chest, statue, other_statue, marker) = (index(1), index(2), index(3), index(4));
    edited.objects[chest].name = "big chest".into();
    edited.objects[chest].cell = Cell::new(2, 1);
    edited.objects[marker].properties.insert("side".into(), PropertyValue::String("right".into()));
    if let Some(ShapeKind::Tile { flip, .. }) = edited.objects[statue].shape.as_mut().map(|s| &mut s.kind) {
        *flip = Flip::NONE;
    }
    edited.objects[other_statue].visible = false;
    let text = save_in(&edited, &saved);
    assert_eq!(
        object_groups(&text),
        r#" <objectgroup id="2" name="things">
  <object id="1" template="templates/chest.tx" name="big chest" x="16" y="16"/>
  <object id="2" template="templates/statue.tx" gid="6" x="8" y="16"/>
  <object id="3" template="templates/statue.tx" x="16" y="16" visible="0"/>
  <object id="4" template="templates/marker.tx" name="wave three" x="0" y="0">
   <properties>
    <property name="side" value="right"/>
    <property name="wave" type="int" value="3"/>
   </properties>
  </object>
 </objectgroup>
"#
    );
    assert_same(&edited, &load(&saved), "edited, saved");
    // An instance without a property of its template cannot say so: it is saved whole, without
    // its link, and the save says why.
    let mut lacking = map.clone();
    let chest = lacking.objects.iter_mut().find(|o| o.id == 1).unwrap();
    chest.properties.remove("loot");
    assert_eq!(chest.template.as_ref().unwrap().own_values(chest), ["no loot"]);
    assert_eq!(chest.template.as_ref().unwrap().lacking(chest), ["loot"]);
    let written = format::save(&lacking, &saved).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        written.warnings,
        ["object \"chest\" is saved without its link to template templates/chest.tx: it lacks its template's \
             property \"loot\", which a Tiled file cannot say (it keeps all its values)"]
    );
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        text.contains(r#"<object id="1" name="chest" type="" gid="4" x="0" y="16" width="8" height="8"/>"#),
        "{text}"
    );
    let back = load(&saved);
    assert_same(&without_links(&lacking), &without_links(&back), "saved without the link");
    assert!(by_id(&back, 1).template.is_none() && by_id(&back, 4).template.is_some());
    // Nor can it say that its name is empty (Tiled then takes the template's).
    let mut nameless = map.clone();
    nameless.objects.iter_mut().find(|o| o.id == 1).unwrap().name.clear();
    let written = format::save(&nameless, &saved).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        written.warnings,
        ["object 1 is saved without its link to template templates/chest.tx: its name is empty where its \
             template's is not, which a Tiled file cannot say (it keeps all its values)"]
    );
    assert_same(&without_links(&nameless), &without_links(&load(&saved)), "nameless, saved without the link");
    // Nor that it is a rectangle over a template of another shape (a rectangle has no element).
    let mut boxed = map.clone();
    let chest = boxed.objects.iter_mut().find(|o| o.id == 1).unwrap();
    let shape = chest.shape.as_mut().unwrap();
    shape.kind = ShapeKind::Rectangle { width: 8.0, height: 8.0 };
    shape.offset[1] -= 8.0;
    let written = format::save(&boxed, &saved).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        written.warnings,
        ["object \"chest\" is saved without its link to template templates/chest.tx: its shape is not of its \
             template's kind, which a Tiled file cannot say (it keeps all its values)"]
    );
    assert_same(&without_links(&boxed), &without_links(&load(&saved)), "a rectangle, saved without the link");

    // The same map in Tiled JSON, with JSON templates, reads the same, linked to those.
    let json_template = |name: &str, tileset: &str, object: serde_json::Value| {
        let mut t = serde_json::json!({"type": "template", "object": object});
        if !tileset.is_empty() {
            t["tileset"] = serde_json::json!({"firstgid": 1, "source": tileset});
        }
        std::fs::write(dir.path().join("templates").join(name), t.to_string()).unwrap();
    };
    json_template(
        "chest.tj",
        "../tiny.tsx",
        serde_json::json!({"name": "chest", "gid": 4, "width": 8, "height": 8,
            "properties": [{"name": "loot", "type": "string", "value": "gold"}]}),
    );
    json_template(
        "statue.tj",
        "../statues.tsx",
        serde_json::json!({"name": "statue", "gid": 2147483650u32, "width": 8, "height": 8}),
    );
    json_template(
        "marker.tj",
        "",
        serde_json::json!({"name": "marker", "type": "Spawn", "width": 16, "height": 8, "properties": [
            {"name": "wave", "type": "int", "value": 1}, {"name": "side", "type": "string", "value": "left"}]}),
    );
    let tmj = |objects: serde_json::Value| {
        serde_json::json!({"width": 4, "height": 2, "tilewidth": 8, "tileheight": 8, "orientation": "orthogonal",
            "nextobjectid": 5, "tilesets": [{"firstgid": 1, "source": "tiny.tsx"}],
            "layers": [
                {"id": 1, "type": "tilelayer", "name": "ground", "width": 4, "height": 2, "data": [1, 1, 1, 1, 1, 1, 1, 1]},
                {"id": 2, "type": "objectgroup", "name": "things", "objects": objects}]})
        .to_string()
    };
    let json_objects = serde_json::json!([
        {"id": 1, "template": "templates/chest.tj", "x": 0.0, "y": 16.0},
        {"id": 2, "template": "templates/statue.tj", "x": 8.0, "y": 16.0},
        {"id": 3, "template": "templates/statue.tj", "x": 16.0, "y": 16.0},
        {"id": 4, "template": "templates/marker.tj", "name": "wave three", "x": 0.0, "y": 0.0,
         "properties": [{"name": "wave", "type": "int", "value": 3}]}]);
    let json_path = dir.path().join("templated.tmj");
    std::fs::write(&json_path, tmj(json_objects.clone())).unwrap();
    let from_json = format::load(&json_path).unwrap_or_else(|e| panic!("{e}"));
    assert_same(&without_links(&map), &without_links(&from_json.map), "tmj with .tj templates");
    let said = |w: &[String], what: &str| w.iter().filter(|w| w.contains(what)).count();
    assert_eq!(said(&from_json.warnings, "does not keep"), 0, "{:?}", from_json.warnings);
    assert_eq!(said(&from_json.warnings, "of an object template is added"), 1, "{:?}", from_json.warnings);
    let link = by_id(&from_json.map, 4).template.unwrap();
    assert_eq!(link.path, dir.path().join("templates/marker.tj").canonicalize().unwrap());
    // Saved as Tiled JSON beside them, its objects are the file's.
    let text = save_in(&from_json.map, &dir.path().join("saved.tmj"));
    let saved_json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved_json["layers"][1]["objects"], json_objects, "{text}");
    // Tiled lets either kind of map name either kind of template: a JSON map an XML template,
    // an XML map a JSON template.
    std::fs::write(&json_path, tmj(serde_json::json!([{"id": 1, "template": "templates/chest.tx", "x": 0, "y": 16}])))
        .unwrap();
    let crossed = format::load(&json_path).unwrap_or_else(|e| panic!("{e}")).map;
    assert_eq!(crossed.objects, [by_id(&map, 1)], "a JSON map naming an XML template");
    let crossed_path = dir.path().join("crossed.tmx");
    std::fs::write(&crossed_path, tmx(&objects.replace(".tx\"", ".tj\""))).unwrap();
    let crossed = format::load(&crossed_path).unwrap_or_else(|e| panic!("{e}")).map;
    assert_same(&without_links(&map), &without_links(&crossed), "an XML map naming JSON templates");
    assert_eq!(
        by_id(&crossed, 2).template.unwrap().path,
        dir.path().join("templates/statue.tj").canonicalize().unwrap()
    );
    // A missing template is an error that names it, from either kind of map.
    std::fs::write(&json_path, tmj(serde_json::json!([{"id": 1, "template": "templates/gone.tj", "x": 0, "y": 0}])))
        .unwrap();
    let error = format::load(&json_path).unwrap_err().to_string();
    assert!(error.contains("templates/gone.tj"), "{error}");
    std::fs::write(&crossed_path, tmx(&objects.replace("chest.tx", "gone.tx"))).unwrap();
    let error = format::load(&crossed_path).unwrap_err().to_string();
    assert!(error.contains("gone.tx"), "{error}");
}

/// Saves `map` at `path` and gives the file's text.
fn save_in(map: &Map, path: &Path) -> String {
    format::save(map, path).unwrap_or_else(|e| panic!("{e}"));
    std::fs::read_to_string(path).unwrap()
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

#[test]
fn a_tiles_tiled_class_is_kept_as_its_class() {
    // Tile 0's class names it; tile 1 has a class and a name of its own.
    let text = r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" name="tiny" tilewidth="8" tileheight="8" tilecount="4" columns="2">
  <image source="tiny.png" width="16" height="16"/>
  <tile id="0" type="Water"/>
  <tile id="1" type="Wall"><properties><property name="name" value="granite"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">1,2</data></layer>
</map>
"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    std::fs::write(dir.path().join("classes.tmx"), text).unwrap();
    let map = load(&dir.path().join("classes.tmx"));
    let tile = |map: &Map, x| map.tiles[usize::from(map.tile(0, Cell::new(x, 0)).unwrap())].clone();
    assert_eq!((tile(&map, 0).name, tile(&map, 0).class), ("Water".to_owned(), "Water".to_owned()));
    assert_eq!((tile(&map, 1).name, tile(&map, 1).class), ("granite".to_owned(), "Wall".to_owned()));
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&map, &round_trip(&map, ext), ext);
    }
    // Written as Tiled 1.10 writes it, the name only where the class does not give it.
    let (_, written) = save_text(&map, "out.tmx");
    assert!(written.contains(r#"<tile id="0" type="Water"/>"#), "{written}");
    assert!(!written.contains(r#"value="Water""#), "no `name` property repeats the class: {written}");
    assert!(written.contains(r#"<tile id="1" type="Wall">"#) && written.contains(r#"value="granite""#), "{written}");
    // `info` names a class the name does not give.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["info", &dir.path().join("classes.tmx").to_string_lossy()])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(out.contains("granite") && out.contains("class Wall"), "{out}");
    assert!(!out.contains("class Water"), "the name says it: {out}");
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

#[test]
fn a_ron_map_without_object_layers_gets_one_and_saves_as_it_was() {
    // Every bundled RON map with objects was written before object layers: each loads with one
    // layer over the tiles, and saves to the same text.
    let mut checked = 0;
    for path in sample_paths().into_iter().filter(|p| p.extension().is_some_and(|e| e == "ron")) {
        let text = std::fs::read_to_string(&path).unwrap();
        let map = load(&path);
        if map.objects.is_empty() || text.contains("object_layers") {
            continue;
        }
        assert_eq!(map.object_layers.len(), 1, "{}", path.display());
        assert_eq!(map.object_layers[0].name, "objects");
        assert_eq!(map.object_layers[0].tile_layers_below, map.layers.len());
        let (_, saved) = save_text(&map, "out.ron");
        assert!(!saved.contains("object_layers"), "{}:\n{saved}", path.display());
        checked += 1;
    }
    assert!(checked > 0, "no bundled RON map with objects");
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

#[test]
fn a_tileset_file_is_written_as_a_reference_while_the_tileset_is_unchanged_here() {
    let dir = tempfile::tempdir().unwrap();
    let (art, maps, out) = (dir.path().join("art"), dir.path().join("maps"), dir.path().join("out"));
    for d in [&art, &maps, &out] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::copy(fixture("tiny.tsx"), art.join("tiny.tsx")).unwrap();
    std::fs::copy(fixture("tiny.png"), art.join("tiny.png")).unwrap();
    let level = |tileset: &str| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="2" height="2" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" source="../art/{tileset}"/>
 <layer id="1" name="ground" width="2" height="2"><data encoding="csv">1,2,3,4</data></layer>
</map>"#
        )
    };
    std::fs::write(maps.join("level.tmx"), level("tiny.tsx")).unwrap();
    let map = load(&maps.join("level.tmx"));
    assert_eq!(map.sheets[0].file.as_ref().map(|f| f.path.clone()), Some(art.join("tiny.tsx")));
    let save = |map: &Map, path: &Path| {
        let saved = format::save(map, path).unwrap_or_else(|e| panic!("{e}"));
        (std::fs::read_to_string(path).unwrap(), saved.warnings)
    };

    // Saved elsewhere as it was read: the reference alone, relative to the saved file, in
    // either Tiled format; RON keeps the file beside its copy of the tileset.
    let (text, warnings) = save(&map, &out.join("level.tmx"));
    assert_eq!(warnings, Vec::<String>::new());
    let tilesets: Vec<&str> = text.lines().filter(|l| l.contains("<tileset")).collect();
    assert_eq!(tilesets, [r#" <tileset firstgid="1" source="../art/tiny.tsx"/>"#], "{text}");
    assert_same(&map, &load(&out.join("level.tmx")), "tmx");
    let (text, warnings) = save(&map, &out.join("level.tmj"));
    assert_eq!(warnings, Vec::<String>::new());
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["tilesets"], serde_json::json!([{"firstgid": 1, "source": "../art/tiny.tsx"}]));
    assert_same(&map, &load(&out.join("level.tmj")), "tmj");
    let (_, warnings) = save(&map, &out.join("level.ron"));
    assert_eq!(warnings, Vec::<String>::new());
    let from_ron = load(&out.join("level.ron"));
    assert_same(&map, &from_ron, "ron");
    let (text, _) = save(&from_ron, &out.join("from-ron.tmx"));
    assert!(text.contains(r#"<tileset firstgid="1" source="../art/tiny.tsx"/>"#), "{text}");

    // Changed here (a tile made opaque, or the sheet's drawing offset): the tileset is written
    // into the map, and the save says why; the tileset file is left as it was.
    let floor = map.tiles.iter().position(|t| t.sprite.is_some_and(|s| s.index == 0)).unwrap();
    let mut changed = map.clone();
    changed.tiles[floor].opaque = true;
    let why = r#"tileset "tiny" is written into the map, not as a reference to tiny.tsx: it was changed here and the file was not saved (Save tileset, on its tab of the palette, writes it)"#;
    for ext in ["tmx", "tmj", "ron"] {
        let path = out.join(format!("changed.{ext}"));
        let (text, warnings) = save(&changed, &path);
        assert_eq!(warnings, [why], "{ext}");
        assert!(!text.contains("tiny.tsx"), "{ext}: {text}");
        let reloaded = load(&path);
        assert!(reloaded.tiles[floor].opaque, "{ext}");
        assert_eq!(reloaded.sheets[0].file, None, "{ext}");
    }
    let (text, _) = save(&changed, &out.join("changed.tmx"));
    assert!(
        text.contains(r#"<tileset firstgid="1" name="tiny""#) && text.contains(r#"<image source="../art/tiny.png""#)
    );
    assert_eq!(std::fs::read(art.join("tiny.tsx")).unwrap(), std::fs::read(fixture("tiny.tsx")).unwrap());
    let mut moved = map.clone();
    moved.sheets[0].offset = [0, 4];
    assert_eq!(save(&moved, &out.join("moved.tmx")).1, [why]);
    // Changed back: the reference again.
    changed.tiles[floor].opaque = false;
    let (text, warnings) = save(&changed, &out.join("changed.tmx"));
    assert_eq!(warnings, Vec::<String>::new());
    assert!(text.contains(r#"<tileset firstgid="1" source="../art/tiny.tsx"/>"#), "{text}");
    // A file gone since the map was read: the tileset is written into the map rather than lost.
    std::fs::rename(art.join("tiny.tsx"), art.join("old.tsx")).unwrap();
    let (text, warnings) = save(&map, &out.join("gone.tmx"));
    assert_eq!(
        warnings,
        [r#"tileset "tiny" is written into the map, not as a reference to tiny.tsx: the file is no longer there"#]
    );
    let gone = load(&out.join("gone.tmx"));
    assert_eq!((&gone.tiles, &gone.sheets[0].file), (&map.tiles, &None));
    assert!(text.contains(r#"<tileset firstgid="1" name="tiny""#), "{text}");
    std::fs::rename(art.join("old.tsx"), art.join("tiny.tsx")).unwrap();

    // A TMX map may name a JSON tileset, as Tiled allows: the same tiles as from the TSX, and
    // a save refers to it.
    let property = |name: &str, kind: &str, value: serde_json::Value| serde_json::json!({"name": name, "type": kind, "value": value});
    let tsj = serde_json::json!({
        "type": "tileset", "name": "tiny", "tilewidth": 8, "tileheight": 8, "tilecount": 4, "columns": 2,
        "image": "tiny.png", "imagewidth": 16, "imageheight": 16,
        "tiles": [
            {"id": 1, "properties": [property("opaque", "bool", true.into()), property("walkable", "bool", false.into())]},
            {"id": 2, "properties": [property("door", "string", "closed".into()), property("toggles", "int", 3.into()),
                                     property("opaque", "bool", true.into())]},
            {"id": 3, "properties": [property("door", "string", "open".into()), property("toggles", "int", 2.into()),
                                     property("cost", "float", 2.5.into())]}]});
    std::fs::write(art.join("tiny.tsj"), tsj.to_string()).unwrap();
    std::fs::write(maps.join("json-tileset.tmx"), level("tiny.tsj")).unwrap();
    let from_tsj = load(&maps.join("json-tileset.tmx"));
    assert_eq!(from_tsj.tiles, map.tiles);
    assert_eq!(from_tsj.layers[0].cells, map.layers[0].cells);
    assert_eq!(from_tsj.sheets[0].file.as_ref().map(|f| f.path.clone()), Some(art.join("tiny.tsj")));
    let (text, warnings) = save(&from_tsj, &out.join("json-tileset.tmx"));
    assert_eq!(warnings, Vec::<String>::new());
    assert!(text.contains(r#"<tileset firstgid="1" source="../art/tiny.tsj"/>"#), "{text}");
    assert_same(&from_tsj, &load(&out.join("json-tileset.tmx")), "tmx naming a tsj");
    // A broken one is named.
    std::fs::write(art.join("tiny.tsj"), r#"{"type": "tileset", "name": "tiny", "tilewidth": "eight"}"#).unwrap();
    let error = format::load(&maps.join("json-tileset.tmx")).unwrap_err().to_string();
    assert!(error.contains("json-tileset.tmx") && error.contains("tiny.tsj") && error.contains("tilewidth"), "{error}");
}

#[test]
fn a_tilesets_own_properties_and_class_are_kept_and_changing_them_is_a_change_of_the_tileset() {
    use sightline::core::PropertyValue;
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let tmx = dir.path().join("embedded.tmx");
    std::fs::write(
        &tmx,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" name="tiny" class="terrain" tilewidth="8" tileheight="8" tilecount="4" columns="2">
  <properties>
   <property name="biome" value="swamp"/>
   <property name="danger" type="int" value="3"/>
  </properties>
  <image source="tiny.png" width="16" height="16"/>
 </tileset>
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">1,2</data></layer>
</map>"#,
    )
    .unwrap();
    let map = load(&tmx);
    let expected = sightline::core::Properties::from([
        ("biome".to_owned(), PropertyValue::String("swamp".into())),
        ("danger".to_owned(), PropertyValue::Int(3)),
    ]);
    assert_eq!(map.sheets[0].properties, expected);
    assert_eq!(map.sheets[0].class, "terrain");
    for ext in ["tmx", "tmj", "ron"] {
        let again = round_trip(&map, ext);
        assert_eq!(again.sheets[0].class, "terrain", "{ext}");
        assert_same(&map, &again, ext);
    }
    let text = save_in(&map, &dir.path().join("out.tmx"));
    let written: Vec<&str> = text.lines().skip_while(|l| !l.contains("<tileset")).take(5).collect();
    assert_eq!(
        written[0],
        r#" <tileset firstgid="1" name="tiny" class="terrain" tilewidth="8" tileheight="8" spacing="0" margin="0" tilecount="4" columns="2">"#
    );
    assert_eq!(
        written[1..],
        [
            r#"  <properties>"#,
            r#"   <property name="biome" value="swamp"/>"#,
            r#"   <property name="danger" type="int" value="3"/>"#,
            r#"  </properties>"#,
        ],
        "{text}"
    );
    // From a tileset file, a property set here is a change of the tileset: it is written into
    // the map, with its properties.
    for f in ["tiny.tsx", "external_tileset.tmx"] {
        std::fs::copy(fixture(f), dir.path().join(f)).unwrap();
    }
    let mut from_file = load(&dir.path().join("external_tileset.tmx"));
    assert!(save_in(&from_file, &dir.path().join("plain.tmx")).contains(r#"source="tiny.tsx""#));
    from_file.sheets[0].properties.insert("biome".into(), PropertyValue::String("crypt".into()));
    let saved = format::save(&from_file, &dir.path().join("crypt.tmx")).unwrap();
    assert_eq!(saved.warnings.len(), 1, "{:?}", saved.warnings);
    assert_eq!(
        load(&dir.path().join("crypt.tmx")).sheets[0].properties["biome"],
        PropertyValue::String("crypt".into())
    );
}

#[test]
fn tile_collision_shapes_and_collection_images_are_named_as_dropped_unless_a_tileset_file_keeps_them() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let shaped = r#"<tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="2" columns="2">
  <image source="tiny.png" width="16" height="8"/>
  <tile id="0"><objectgroup draworder="index" id="2"><object id="1" x="0" y="0" width="8" height="4"/></objectgroup></tile>
 </tileset>"#;
    let map = |tilesets: &str| {
        format!(
            r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 {tilesets}
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">1,2</data></layer>
</map>"#
        )
    };
    let dropped = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let warnings = format::load(&path).unwrap_or_else(|e| panic!("{e}")).warnings;
        warnings.into_iter().filter(|w| w.contains("does not keep")).collect::<Vec<_>>()
    };
    let shapes = "sightline does not keep this map's collision shapes of tiles (from Tiled's tile collision \
                  editor): saving the map drops them";
    assert_eq!(dropped("shaped.tmx", &map(shaped)), [shapes]);
    // The same in a tileset file, which a save refers to: nothing dropped.
    std::fs::write(
        dir.path().join("shaped.tsx"),
        format!("<?xml version=\"1.0\"?>\n{}", shaped.replace(r#"firstgid="1" "#, "")),
    )
    .unwrap();
    assert_eq!(dropped("shaped-file.tmx", &map(r#"<tileset firstgid="1" source="shaped.tsx"/>"#)), [""; 0]);
    // Tiled JSON says the same.
    let json = serde_json::json!({"width": 2, "height": 1, "tilewidth": 8, "tileheight": 8, "orientation": "orthogonal",
        "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 8, "tileheight": 8, "tilecount": 2, "columns": 2,
                      "image": "tiny.png", "imagewidth": 16, "imageheight": 8,
                      "tiles": [{"id": 0, "objectgroup": {"type": "objectgroup", "objects": []}}]}],
        "layers": [{"type": "tilelayer", "name": "ground", "width": 2, "height": 1, "data": [1, 2]}]});
    assert_eq!(dropped("shaped.tmj", &json.to_string()), [shapes]);
    // A collection of images: its tiles are kept as glyph tiles, its images are not.
    let collection = r#"<tileset firstgid="1" name="c" tilewidth="8" tileheight="8" tilecount="2" columns="0">
  <tile id="0"><image source="tiny.png" width="16" height="16"/></tile>
  <tile id="1"><image source="tiny.png" width="16" height="16"/></tile>
 </tileset>"#;
    assert_eq!(
        dropped("collection.tmx", &map(collection)),
        ["sightline does not keep this map's images of image-collection tilesets (their tiles stay, as glyph tiles): \
          saving the map drops them"]
    );
}

#[test]
fn an_instance_takes_its_templates_name_class_and_size_where_its_own_are_empty_as_tiled_reads_it() {
    use sightline::core::ObjectKind;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("crate.tx"),
        r#"<?xml version="1.0" encoding="UTF-8"?>
<template>
 <object name="crate" type="loot" width="16" height="8"/>
</template>"#,
    )
    .unwrap();
    // Name, class (Tiled 1.9's `class`, else `type`) and size of each instance, as Tiled reads
    // them: an empty one (or a size with a side of 0) is the template's.
    let instances = [
        (r#"class="mimic""#, ("crate", "mimic", [16.0, 8.0])),
        (r#"name="" type="""#, ("crate", "loot", [16.0, 8.0])),
        (r#"name="big crate" class="" type="cache" width="32" height="16""#, ("big crate", "cache", [32.0, 16.0])),
        (r#"width="0" height="16""#, ("crate", "loot", [16.0, 8.0])),
    ];
    let expected: Vec<(String, String, [f64; 2])> =
        instances.iter().map(|(_, (n, c, s))| (n.to_string(), c.to_string(), *s)).collect();
    let read = |map: &Map| -> Vec<(String, String, [f64; 2])> {
        map.objects
            .iter()
            .map(|o| {
                let ObjectKind::Other(class) = &o.kind else { panic!("{:?}", o.kind) };
                (o.name.clone(), class.clone(), o.shape.as_ref().and_then(|s| s.kind.size()).unwrap())
            })
            .collect()
    };
    let tmx_objects: String = instances
        .iter()
        .enumerate()
        .map(|(i, (attrs, _))| format!("  <object id=\"{}\" template=\"crate.tx\" {attrs} x=\"0\" y=\"0\"/>\n", i + 1))
        .collect();
    let tmx = dir.path().join("instances.tmx");
    std::fs::write(
        &tmx,
        format!(
            r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="4" height="2" tilewidth="8" tileheight="8" infinite="0">
 <objectgroup id="1" name="things">
{tmx_objects} </objectgroup>
</map>"#
        ),
    )
    .unwrap();
    assert_eq!(read(&load(&tmx)), expected, "tmx");
    // The same instances in Tiled JSON, attribute for key.
    let json_objects: Vec<serde_json::Value> = instances
        .iter()
        .enumerate()
        .map(|(i, (attrs, _))| {
            let mut o = serde_json::json!({"id": i + 1, "template": "crate.tx", "x": 0, "y": 0});
            for pair in attrs.split("\" ") {
                let (key, value) = pair.split_once("=\"").unwrap();
                let value = value.trim_end_matches('"');
                o[key] = match value.parse::<f64>() {
                    Ok(n) => n.into(),
                    Err(_) => value.into(),
                };
            }
            o
        })
        .collect();
    let tmj = dir.path().join("instances.tmj");
    let map = serde_json::json!({"width": 4, "height": 2, "tilewidth": 8, "tileheight": 8, "orientation": "orthogonal",
        "tilesets": [], "layers": [{"type": "objectgroup", "name": "things", "objects": json_objects}]});
    std::fs::write(&tmj, map.to_string()).unwrap();
    assert_eq!(read(&load(&tmj)), expected, "tmj");
}

#[test]
fn a_tileset_saved_to_its_file_is_what_every_map_using_it_reads_and_a_save_refers_to_it_again() {
    use sightline::core::format::tileset_file;
    let dir = tempfile::tempdir().unwrap();
    let (art, maps) = (dir.path().join("art"), dir.path().join("maps"));
    for d in [&art, &maps] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::copy(fixture("tiny.tsx"), art.join("tiny.tsx")).unwrap();
    std::fs::copy(fixture("tiny.png"), art.join("tiny.png")).unwrap();
    let level = |tileset: &str| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="2" height="2" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" source="../art/{tileset}"/>
 <layer id="1" name="ground" width="2" height="2"><data encoding="csv">1,2,3,4</data></layer>
</map>"#
        )
    };
    for name in ["level.tmx", "other.tmx"] {
        std::fs::write(maps.join(name), level("tiny.tsx")).unwrap();
    }
    let mut map = load(&maps.join("level.tmx"));
    // Tile 0 (kind 1), a floor, made a wall; the tileset given a class.
    assert!(!map.tiles[1].opaque && map.tiles[1].walkable);
    map.tiles[1].opaque = true;
    map.tiles[1].walkable = false;
    map.sheets[0].class = "dungeon".into();
    let write = tileset_file::prepare(&map, 0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(write.concerns, Vec::<String>::new());
    write.write().unwrap();
    assert_eq!(
        std::fs::read_to_string(art.join("tiny.tsx")).unwrap(),
        EXPECTED_TSX,
        "the image stays relative to the tileset's folder"
    );
    // Every map that uses the file reads the tile as a wall now.
    let other = load(&maps.join("other.tmx"));
    assert!(other.tiles[1].opaque && !other.tiles[1].walkable);
    assert_eq!(other.sheets[0].class, "dungeon");
    // This map, told what the file now holds (as the app does), refers to it again on save,
    // and writing it again would change nothing nor ask anything.
    map.sheets[0].file.as_mut().unwrap().as_read = Some(write.as_read.clone());
    let saved = format::save(&map, &maps.join("level.tmx")).unwrap();
    assert_eq!(saved.warnings, Vec::<String>::new());
    let text = std::fs::read_to_string(maps.join("level.tmx")).unwrap();
    assert!(text.contains(r#"<tileset firstgid="1" source="../art/tiny.tsx"/>"#), "{text}");
    let again = tileset_file::prepare(&map, 0).unwrap();
    assert_eq!((again.concerns.len(), again.as_read), (0, write.as_read.clone()));

    // Changed in Tiled since: a tile's rule, collision shapes, an enum type on a rule, the grid,
    // background colour and export settings, all named before anything is written.
    let edited = std::fs::read_to_string(art.join("tiny.tsx"))
        .unwrap()
        .replace(r#"<property name="cost" type="float" value="2.5"/>"#, r#"<property name="cost" type="float" value="4"/>"#)
        .replace(
            " <image ",
            " <editorsettings><export target=\"tiny.lua\" format=\"lua\"/></editorsettings>\n \
             <grid orientation=\"orthogonal\" width=\"8\" height=\"8\"/>\n <image ",
        )
        .replace(r#"columns="2">"#, r##"columns="2" backgroundcolor="#102030">"##)
        .replace(r#"<property name="door" value="open"/>"#, r#"<property name="door" propertytype="DoorState" value="open"/>"#)
        .replace(
            "  <properties>\n   <property name=\"door\" value=\"closed\"/>",
            "  <objectgroup draworder=\"index\"><object id=\"1\" x=\"0\" y=\"0\" width=\"8\" height=\"8\"/></objectgroup>\n  <properties>\n   <property name=\"door\" value=\"closed\"/>",
        )
        .replace("</tileset>", " <tile id=\"9\" type=\"ghost\"/>\n</tileset>");
    std::fs::write(art.join("tiny.tsx"), &edited).unwrap();
    assert_eq!(
        tileset_file::prepare(&map, 0).unwrap().concerns,
        [
            "tiny.tsx was changed since this map read it (in Tiled, perhaps): writing it replaces those changes",
            "tiny.tsx has collision shapes of tiles (from Tiled's tile collision editor), tiles listed past their \
             tileset image's (their class, properties and animations), the enum types of tile \
             properties sightline reads (opaque, walkable, cost, door, toggles, name, glyph, fg, bg: their values \
             stay, as plain ones), its grid settings (orientation and cell size, for isometric tiles), its \
             background colour, its editor settings (export target and format), which sightline does not keep: \
             writing it drops them",
        ]
    );
    // A file that no longer reads is said to be replaced; one that is gone is written again,
    // with nothing to ask.
    std::fs::write(art.join("tiny.tsx"), "<tileset").unwrap();
    let concerns = tileset_file::prepare(&map, 0).unwrap().concerns;
    assert!(concerns.len() == 1 && concerns[0].starts_with("tiny.tsx cannot be read now ("), "{concerns:?}");
    std::fs::remove_file(art.join("tiny.tsx")).unwrap();
    let write = tileset_file::prepare(&map, 0).unwrap();
    assert_eq!(write.concerns, Vec::<String>::new());
    write.write().unwrap();
    assert_eq!(std::fs::read_to_string(art.join("tiny.tsx")).unwrap(), EXPECTED_TSX);

    // A JSON tileset file is written as JSON, read back the same.
    let tsj = serde_json::json!({
        "type": "tileset", "name": "tiny", "tilewidth": 8, "tileheight": 8, "tilecount": 4, "columns": 2,
        "image": "tiny.png", "imagewidth": 16, "imageheight": 16,
    });
    std::fs::write(art.join("tiny.tsj"), tsj.to_string()).unwrap();
    std::fs::write(maps.join("json.tmx"), level("tiny.tsj")).unwrap();
    let mut map = load(&maps.join("json.tmx"));
    map.tiles[2].cost = 3.0;
    let write = tileset_file::prepare(&map, 0).unwrap();
    assert_eq!(write.concerns, Vec::<String>::new());
    write.write().unwrap();
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(art.join("tiny.tsj")).unwrap()).unwrap();
    assert_eq!(
        (&written["type"], &written["image"], &written["tiles"]),
        (
            &serde_json::json!("tileset"),
            &serde_json::json!("tiny.png"),
            &serde_json::json!([{"id": 1, "properties": [{"name": "cost", "type": "float", "value": 3.0}]}])
        )
    );
    assert_eq!(load(&maps.join("json.tmx")).tiles[2].cost, 3.0);
    // What a JSON file holds that sightline does not keep is looked for among its keys.
    let mut edited = written.clone();
    edited["backgroundcolor"] = serde_json::json!("#102030");
    std::fs::write(art.join("tiny.tsj"), edited.to_string()).unwrap();
    map.sheets[0].file.as_mut().unwrap().as_read = Some(write.as_read.clone());
    assert_eq!(
        tileset_file::prepare(&map, 0).unwrap().concerns,
        ["tiny.tsj has its background colour, which sightline does not keep: writing it drops them"]
    );
    // A tileset not read from a file has none to write.
    map.sheets[0].file = None;
    let err = tileset_file::prepare(&map, 0).map(|_| ()).unwrap_err();
    assert_eq!(err.to_string(), r#"tileset "tiny" was not read from a tileset file"#);
}

/// tests/fixtures/tiny.tsx with its tile 0 made a wall (keeping its floor glyph) and the
/// tileset's class set, as sightline writes it.
const EXPECTED_TSX: &str = r##"<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="tiny" class="dungeon" tilewidth="8" tileheight="8" spacing="0" margin="0" tilecount="4" columns="2">
 <image source="tiny.png" width="16" height="16"/>
 <tile id="0">
  <properties>
   <property name="bg" value="#14141c"/>
   <property name="glyph" value="."/>
   <property name="opaque" type="bool" value="true"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="opaque" type="bool" value="true"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="door" value="closed"/>
   <property name="opaque" type="bool" value="true"/>
   <property name="toggles" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="cost" type="float" value="2.5"/>
   <property name="door" value="open"/>
   <property name="toggles" type="int" value="2"/>
  </properties>
 </tile>
</tileset>
"##;

#[test]
fn a_maps_class_and_background_colour_are_kept_and_an_ascii_save_says_it_drops_them() {
    use sightline::core::Rgba;
    let dir = tempfile::tempdir().unwrap();
    let tmx = dir.path().join("level.tmx");
    std::fs::write(
        &tmx,
        r##"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" class="level" orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8" infinite="0" backgroundcolor="#80203040">
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">0,0</data></layer>
</map>"##,
    )
    .unwrap();
    let map = load(&tmx);
    assert_eq!((map.class.as_str(), map.background), ("level", Some(Rgba(0x20, 0x30, 0x40, 0x80))));
    for ext in ["tmx", "tmj", "ron"] {
        let again = round_trip(&map, ext);
        assert_eq!((again.class.as_str(), again.background), ("level", map.background), "{ext}");
        assert_same(&map, &again, ext);
    }
    let (_, text) = save_text(&map, "out.tmx");
    let map_line = text.lines().find(|l| l.starts_with("<map ")).unwrap();
    assert!(
        map_line.contains(r#" class="level" "#) && map_line.contains(r##" backgroundcolor="#80203040" "##),
        "{map_line}"
    );
    let (_, text) = save_text(&map, "out.tmj");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (&json["class"], &json["backgroundcolor"]),
        (&serde_json::json!("level"), &serde_json::json!("#80203040"))
    );
    let (warnings, _) = save_text(&map, "out.txt");
    assert!(
        warnings.contains(&"the map's class and background colour are not kept in ASCII".to_owned()),
        "{warnings:?}"
    );
    // An opaque colour is written as Tiled writes it, without the alpha.
    let mut opaque = map.clone();
    opaque.background = Some(Rgba(0x20, 0x30, 0x40, 255));
    assert!(save_text(&opaque, "out.tmx").1.contains(r##" backgroundcolor="#203040" "##));
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

#[test]
fn a_tiled_maps_layer_format_render_order_compression_level_and_parallax_origin_are_written_as_they_came() {
    use sightline::core::model::tiled_settings::{LayerFormat, RenderOrder, TiledSettings};
    let mut map = ascii(
        "#+'.\n\
         .~\"#\n",
    );
    map.layers[0].set(1, STANDARD_CLOSED_DOOR, Flip::HORIZONTAL);
    for layer_format in LayerFormat::ALL {
        let compression_level = if layer_format.compressed() { 5 } else { -1 };
        let parallax_origin = [12.5, -3.0];
        map.tiled = TiledSettings {
            layer_format,
            render_order: RenderOrder::LeftUp,
            compression_level,
            parallax_origin,
            ..TiledSettings::default()
        };
        let (encoding, compression) = layer_format.attributes();
        // As Tiled writes them: the order and level on the map, the format on each layer.
        let (_, tmx) = save_text(&map, "m.tmx");
        let data = match compression {
            Some(c) => format!(r#"<data encoding="{encoding}" compression="{c}">"#),
            None => format!(r#"<data encoding="{encoding}">"#),
        };
        assert!(tmx.contains(&data), "{layer_format:?}: {tmx}");
        assert!(tmx.contains(r#" renderorder="left-up" "#), "{tmx}");
        assert_eq!(tmx.contains(r#" compressionlevel="5" "#), layer_format.compressed(), "{tmx}");
        assert!(tmx.contains(r#" parallaxoriginx="12.5" parallaxoriginy="-3" "#), "{tmx}");
        let (_, tmj) = save_text(&map, "m.tmj");
        let json: serde_json::Value = serde_json::from_str(&tmj).unwrap();
        let layer = &json["layers"][0];
        assert_eq!(layer["data"].is_string(), layer_format != LayerFormat::Csv, "{layer_format:?}");
        assert_eq!(layer["encoding"].as_str(), (layer_format != LayerFormat::Csv).then_some(encoding));
        assert_eq!(layer["compression"].as_str(), compression);
        assert_eq!(
            (json["renderorder"].as_str(), json["compressionlevel"].as_i64()),
            (Some("left-up"), Some(compression_level.into()))
        );
        assert_eq!((json["parallaxoriginx"].as_f64(), json["parallaxoriginy"].as_f64()), (Some(12.5), Some(-3.0)));
        // Each reads back the same, settings and flipped door included, and so does RON.
        for ext in ["tmx", "tmj", "ron"] {
            assert_same(&round_trip(&map, ext), &map, &format!("{layer_format:?} as {ext}"));
        }
    }
}

/// An isometric, staggered, hexagonal or oblique Tiled map is drawn and played here as a square grid, and
/// keeps its grid: a save as TMX or TMJ writes it as Tiled does (where Tiled puts each attribute),
/// RON keeps it, and an ASCII save says it does not. The load says what the grid means here.
#[test]
fn a_tiled_maps_isometric_staggered_hexagonal_or_oblique_grid_is_kept_by_every_tiled_and_ron_save() {
    use sightline::core::model::tiled_settings::{Orientation, StaggerAxis, StaggerIndex};
    let cases = [
        (r#"orientation="isometric""#, Orientation::Isometric, ""),
        // Tiled's defaults where the file leaves the stagger out.
        (
            r#"orientation="staggered""#,
            Orientation::Staggered { axis: StaggerAxis::Y, index: StaggerIndex::Odd },
            r#" staggeraxis="y" staggerindex="odd""#,
        ),
        (
            r#"orientation="staggered" staggeraxis="x" staggerindex="even""#,
            Orientation::Staggered { axis: StaggerAxis::X, index: StaggerIndex::Even },
            r#" staggeraxis="x" staggerindex="even""#,
        ),
        (
            r#"orientation="hexagonal" hexsidelength="12" staggeraxis="x" staggerindex="odd""#,
            Orientation::Hexagonal { side_length: 12, axis: StaggerAxis::X, index: StaggerIndex::Odd },
            r#" hexsidelength="12" staggeraxis="x" staggerindex="odd""#,
        ),
        (
            r#"orientation="oblique" skewx="8" skewy="-4""#,
            Orientation::Oblique { skew_x: 8, skew_y: -4 },
            r#" skewx="8" skewy="-4""#,
        ),
    ];
    for (attributes, orientation, written) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grid.tmx");
        let text = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" {attributes} renderorder="right-down" width="3" height="2" tilewidth="32" tileheight="16" infinite="0">
 <layer id="1" name="ground" width="3" height="2"><data encoding="csv">0,0,0,0,0,0</data></layer>
</map>"#
        );
        std::fs::write(&path, text).unwrap();
        let loaded = format::load(&path).unwrap();
        assert_eq!(loaded.map.tiled.orientation, orientation, "{attributes}");
        let name = orientation.name();
        let said = loaded.warnings.iter().find(|w| w.starts_with(&format!("the map is {name}:")));
        let said = said.unwrap_or_else(|| panic!("{attributes}: {:?}", loaded.warnings));
        assert!(said.ends_with(&format!("a save keeps it {name}")), "{said}");
        // An isometric or oblique map's cells have the square grid's neighbours, no other's do.
        let square = matches!(orientation, Orientation::Isometric | Orientation::Oblique { .. });
        assert_eq!(said.contains("views and paths here are not that grid's"), !square, "{said}");
        assert!(loaded.not_kept.is_empty(), "{:?}", loaded.not_kept);

        let (warnings, tmx) = save_text(&loaded.map, "out.tmx");
        assert!(warnings.is_empty(), "{warnings:?}");
        let map_line = tmx.lines().find(|l| l.starts_with("<map ")).unwrap();
        assert!(map_line.contains(&format!(r#" orientation="{name}" "#)), "{map_line}");
        assert!(map_line.contains(&format!(r#" infinite="0"{written} "#)), "{map_line}");
        let (_, tmj) = save_text(&loaded.map, "out.tmj");
        let json: serde_json::Value = serde_json::from_str(&tmj).unwrap();
        assert_eq!(json["orientation"], serde_json::json!(name));
        let keys = ["hexsidelength", "staggeraxis", "staggerindex", "skewx", "skewy"];
        let written_keys: Vec<&str> = keys.into_iter().filter(|k| json.get(*k).is_some()).collect();
        let expected_keys: Vec<&str> = keys.into_iter().filter(|k| written.contains(&format!(" {k}="))).collect();
        assert_eq!(written_keys, expected_keys, "{tmj}");
        if let Orientation::Hexagonal { side_length, .. } = orientation {
            assert_eq!(json["hexsidelength"], serde_json::json!(side_length));
        }
        for ext in ["tmx", "tmj", "ron"] {
            let again = round_trip(&loaded.map, ext);
            assert_eq!(again.tiled.orientation, orientation, "{attributes} as {ext}");
            assert_same(&again, &loaded.map, &format!("{attributes} as {ext}"));
        }
        let (warnings, _) = save_text(&loaded.map, "out.txt");
        let dropped = format!("the map's {name} orientation is not kept in ASCII: the file reads back as orthogonal");
        assert!(warnings.contains(&dropped), "{warnings:?}");
    }
    // An orthogonal map says nothing of its grid, and writes none.
    let (warnings, tmx) = save_text(&ascii("#."), "plain.tmx");
    assert!(warnings.is_empty() && !tmx.contains("stagger") && tmx.contains(r#" orientation="orthogonal" "#));
    // A Tiled JSON map reads its grid the same way, numbers and all.
    let hex = Orientation::Hexagonal { side_length: 7, axis: StaggerAxis::Y, index: StaggerIndex::Even };
    assert_eq!(load(&fixture("hexagonal.tmj")).tiled.orientation, hex);
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

/// What a Tiled map keeps for Tiled itself (`<editorsettings>`: where File › Export As last
/// wrote it, and the chunk size of an infinite map) survives every Tiled and RON save, written
/// where Tiled writes it; an ASCII save names the export target it drops.
#[test]
fn a_tiled_maps_export_target_and_chunk_size_are_kept() {
    use sightline::core::model::tiled_settings::TiledEditorSettings;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("level.tmx");
    std::fs::write(
        &path,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 <editorsettings>
  <chunksize width="32" height="8"/>
  <export target="../game/level &amp; 1.json" format="json"/>
 </editorsettings>
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">0,0</data></layer>
</map>"#,
    )
    .unwrap();
    let map = load(&path);
    let expected = TiledEditorSettings {
        export_target: "../game/level & 1.json".into(),
        export_format: "json".into(),
        chunk_size: Some([32, 8]),
    };
    assert_eq!(map.tiled_editor, expected);
    for ext in ["tmx", "tmj", "ron"] {
        let again = round_trip(&map, ext);
        assert_eq!(again.tiled_editor, expected, "{ext}");
        assert_same(&again, &map, ext);
    }
    let (_, tmx) = save_text(&map, "out.tmx");
    let settings = " <editorsettings>\n  <chunksize width=\"32\" height=\"8\"/>\n  \
                    <export target=\"../game/level &amp; 1.json\" format=\"json\"/>\n </editorsettings>\n";
    // Right after the map's own line, before its properties, as Tiled writes them.
    let map_line = tmx.find("<map ").unwrap();
    let after = &tmx[map_line + tmx[map_line..].find('\n').unwrap() + 1..];
    assert!(after.starts_with(settings), "{tmx}");
    let (_, tmj) = save_text(&map, "out.tmj");
    let json: serde_json::Value = serde_json::from_str(&tmj).unwrap();
    assert_eq!(
        json["editorsettings"],
        serde_json::json!({"chunksize": {"width": 32, "height": 8}, "export": {"target": "../game/level & 1.json", "format": "json"}})
    );
    let (warnings, _) = save_text(&map, "out.txt");
    assert!(
        warnings.contains(&"the map's Tiled export target (../game/level & 1.json) is not kept in ASCII".to_owned()),
        "{warnings:?}"
    );
    // A map without them writes none.
    assert!(!save_text(&ascii("#."), "plain.tmx").1.contains("editorsettings"));
}

/// Tiles an image tileset lists past its image's (Tiled keeps them when an image shrinks) have
/// no tile here: the load names them, and a save over the map asks first when it would drop
/// them (an embedded tileset), not when it refers to the tileset's unchanged file.
#[test]
fn tiles_listed_past_a_tileset_image_are_named() {
    let dir = dir_with_tiny_tileset();
    let tileset = r#"<tileset firstgid="1" name="small" tilewidth="8" tileheight="8" tilecount="4" columns="2">
  <image source="tiny.png" width="16" height="16"/>
  <tile id="6" type="ghost"><properties><property name="loot" value="gold"/></properties></tile>
 </tileset>"#;
    let map = |tileset: &str| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 {tileset}
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">1,2</data></layer>
</map>"#
        )
    };
    let path = dir.path().join("embedded.tmx");
    std::fs::write(&path, map(tileset)).unwrap();
    let loaded = format::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let said = r#"tileset "small": 1 of its tiles lie past the 4 its image holds; their class, properties and animations are left out"#;
    assert!(loaded.warnings.iter().any(|w| w == said), "{:?}", loaded.warnings);
    assert_eq!(loaded.not_kept, ["tiles listed past their tileset image's (their class, properties and animations)"]);
    // The same tileset in its own file, which a save refers to: named, but nothing to ask.
    let tsx = tileset.replace(
        r#"<tileset firstgid="1" "#,
        r#"<?xml version="1.0"?>
<tileset "#,
    );
    std::fs::write(dir.path().join("small.tsx"), tsx).unwrap();
    let path = dir.path().join("external.tmx");
    std::fs::write(&path, map(r#"<tileset firstgid="1" source="small.tsx"/>"#)).unwrap();
    let loaded = format::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        loaded.warnings.iter().any(|w| w.contains("1 of its tiles lie past the 4 its image holds")),
        "{:?}",
        loaded.warnings
    );
    assert!(loaded.not_kept.is_empty(), "{:?}", loaded.not_kept);
}

#[test]
fn a_real_zlib_compressed_tiled_map_saves_zlib_compressed() {
    use sightline::core::model::tiled_settings::{LayerFormat, RenderOrder};
    let Some(corpus) = corpus() else { return };
    let desert = load(&corpus.join("tiled/desert.tmx"));
    assert_eq!(
        (desert.tiled.layer_format, desert.tiled.render_order),
        (LayerFormat::Base64Zlib, RenderOrder::RightDown)
    );
    let (_, text) = save_text(&desert, "desert.tmx");
    assert!(text.contains(r#"<data encoding="base64" compression="zlib">"#), "{}", &text[..text.len().min(2000)]);
    assert_same(&round_trip(&desert, "tmx"), &desert, "desert.tmx saved");
}

#[test]
fn a_tmx_map_without_a_version_opens_as_tiled_opens_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.tmx");
    std::fs::write(
        &path,
        r#"<?xml version="1.0"?>
<map orientation="orthogonal" width="3" height="1" tilewidth="8" tileheight="8">
 <tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="2" columns="2">
  <image source="t.png" width="16" height="8"/>
  <tile id="1"><properties><property name="opaque" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer name="walls" width="3" height="1"><data encoding="csv">1,2,0</data></layer>
</map>
"#,
    )
    .unwrap();
    let map = load(&path);
    assert_eq!((map.width(), map.height()), (3, 1));
    assert!(!map.rules_at(Cell::new(0, 0)).opaque && map.rules_at(Cell::new(1, 0)).opaque);
}

/// A rule edit of a Tiled tile whose look its rules imply (no `glyph`, `fg` or `bg` in its
/// tileset) writes rules, not a look: the glyph follows the rules (the floor made a wall shows
/// `#`), so the saved tileset gains `opaque` and `walkable` and nothing else. A glyph of the
/// designer's own stays, and is written.
#[test]
fn a_rule_edit_of_a_tiled_tile_writes_no_look_properties() {
    use sightline::core::edit::{TileRules, set_tile_rules};
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.tsx"), dir.path().join("tiny.tsx")).unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let level = r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="2" height="2" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" source="tiny.tsx"/>
 <layer id="1" name="ground" width="2" height="2"><data encoding="csv">1,2,3,4</data></layer>
</map>"#;
    std::fs::write(dir.path().join("level.tmx"), level).unwrap();
    let mut map = load(&dir.path().join("level.tmx"));
    let floor = map.tiles.iter().position(|t| t.sprite.is_some_and(|s| s.index == 0)).unwrap() as u16;
    assert_eq!(map.tiles[usize::from(floor)].glyph.ch, '.');
    let mut rules = TileRules::of(&map.tiles[usize::from(floor)]);
    (rules.opaque, rules.walkable) = (true, false);
    set_tile_rules(&mut map, floor, rules).unwrap();
    assert_eq!(map.tiles[usize::from(floor)].glyph.ch, '#', "the implied glyph follows the rules");
    let path = dir.path().join("out.tmx");
    format::save(&map, &path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let tile0: String = text.split("<tile id=\"0\">").nth(1).unwrap().split("</tile>").next().unwrap().to_owned();
    assert!(tile0.contains(r#"name="opaque""#) && tile0.contains(r#"name="walkable""#), "{tile0}");
    for look in ["glyph", "\"fg\"", "\"bg\""] {
        assert!(!tile0.contains(look), "{look} written: {tile0}");
    }
    // Read back, the tiles are as edited (the tileset now lives in the map, as it changed).
    assert_eq!(load(&path).tiles, map.tiles, "the edited tile through TMX");
    // A glyph of the designer's own does not follow the rules.
    let mut rules = TileRules::of(&map.tiles[usize::from(floor)]);
    rules.glyph.ch = 'T';
    set_tile_rules(&mut map, floor, rules).unwrap();
    let mut rules = TileRules::of(&map.tiles[usize::from(floor)]);
    (rules.opaque, rules.walkable) = (false, true);
    set_tile_rules(&mut map, floor, rules).unwrap();
    assert_eq!(map.tiles[usize::from(floor)].glyph.ch, 'T');
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

/// On systems where a backslash is no separator, a file name that holds one is written as it
/// is (turning it into `/` would name another file).
#[cfg(unix)]
#[test]
fn a_backslash_in_a_file_name_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join(r"a\b.png")).unwrap();
    let text = std::fs::read_to_string(fixture("animated.tmx"))
        .unwrap()
        .replace(r#"source="tiny.png""#, r#"source="a\b.png""#);
    let path = dir.path().join("slash.tmx");
    std::fs::write(&path, text).unwrap();
    let loaded = format::load(&path).unwrap();
    assert!(loaded.warnings.iter().all(|w| !w.contains("is missing")), "{:?}", loaded.warnings);
    for ext in ["tmx", "tmj"] {
        let out = dir.path().join(format!("out.{ext}"));
        let saved = format::save(&loaded.map, &out).unwrap();
        // As written: XML holds a backslash as it is, JSON escapes it.
        let written = if ext == "tmx" { r#""a\b.png""# } else { r#""a\\b.png""# };
        assert!(std::fs::read_to_string(&out).unwrap().contains(written), "{ext}");
        let back = format::load(&out).unwrap();
        assert!(
            back.warnings.iter().all(|w| !w.contains("is missing")),
            "{ext}: {:?} {:?}",
            back.warnings,
            saved.warnings
        );
        assert_eq!(back.map.sheets[0].image, loaded.map.sheets[0].image, "{ext}");
    }
}
