//! Tilesets: image settings, drawing settings, animations, Wang sets, tile classes, and tileset
//! files (TSX, TSJ) referred to, named as dropping things, or written.

use std::path::Path;

use sightline::core::format;
use sightline::core::model::wang::WangKind;
use sightline::core::{Cell, Map};

use crate::{assert_same, dir_with_tiny_tileset, fixture, load, load_tmj_text, round_trip, save_in, save_text};

#[test]
fn a_tileset_images_transparent_colour_and_drawing_offset_are_read_and_written_in_tmx_tmj_and_ron() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let path = dir.path().join("keyed.tmx");
    std::fs::write(&path, include_str!("../fixtures/transparent_colour.tmx")).unwrap();
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
fn a_tiles_tiled_class_is_kept_as_its_class() {
    // Tile 0's class names it; tile 1 has a class and a name of its own.
    let text = include_str!("../fixtures/tile_classes.tmx");
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
    std::fs::write(&tmx, include_str!("../fixtures/tileset_properties.tmx")).unwrap();
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
const EXPECTED_TSX: &str = include_str!("../fixtures/tiny_written.tsx");

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
