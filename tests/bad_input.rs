//! Bad input: every loader returns a typed error naming the file and the problem, never panics,
//! whatever the bytes (a few thousand random mutations of valid files per format).

use std::path::{Path, PathBuf};

use sightline::core::format::{self, Format};
use sightline::core::rng::Rng;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// Writes `text` as `name` in a folder that also holds the `tiny` tileset, and loads it.
fn load_text(name: &str, text: &[u8]) -> Result<format::Loaded, String> {
    let dir = tempfile::tempdir().unwrap();
    for f in ["tiny.tsx", "tiny.png"] {
        std::fs::copy(fixture(f), dir.path().join(f)).unwrap();
    }
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    format::load(&path).map_err(|e| e.to_string())
}

#[track_caller]
fn assert_error(name: &str, text: &str, expected: &[&str]) {
    match load_text(name, text.as_bytes()) {
        Ok(_) => panic!("{name} loaded but should not have:\n{text}"),
        Err(message) => {
            assert!(message.contains(name), "the message does not name the file: {message}");
            for e in expected {
                assert!(message.contains(e), "expected {e:?} in: {message}");
            }
        }
    }
}

const TMX_HEAD: &str = r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="3" height="2" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" source="tiny.tsx"/>"#;

fn tmx_layer(data: &str) -> String {
    format!("{TMX_HEAD}\n <layer id=\"1\" name=\"ground\" width=\"3\" height=\"2\">\n  {data}\n </layer>\n</map>\n")
}

#[test]
fn empty_files_are_refused_in_every_format() {
    for ext in ["ron", "txt", "tmx", "tmj", "map"] {
        assert_error(&format!("empty.{ext}"), "", &["the file is empty"]);
        assert_error(&format!("blank.{ext}"), "  \n\n", &["the file is empty"]);
    }
}

#[test]
fn truncated_files_say_where_they_break() {
    let ron = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/pillars.ron")).unwrap();
    assert_error("cut.ron", &ron[..ron.len() / 2], &["not valid RON", "line "]);
    let tmj = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/dungeon.tmj")).unwrap();
    assert_error("cut.tmj", &tmj[..tmj.len() / 2], &["not valid JSON", "line "]);
    let tmx = tmx_layer("<data encoding=\"csv\">1,1,1,1,1,1</data>");
    let cut = &tmx[..tmx.len() - 30];
    let message = load_text("cut.tmx", cut.as_bytes()).unwrap_err();
    assert!(
        message.contains("cut.tmx") && (message.contains("XML") || message.contains("ends too early")),
        "{message}"
    );
}

#[test]
fn corrupt_tile_data_is_named() {
    assert_error("b64.tmx", &tmx_layer("<data encoding=\"base64\">@@@not base64@@@</data>"), &["base64", "layer"]);
    assert_error(
        "zlib.tmx",
        &tmx_layer("<data encoding=\"base64\" compression=\"zlib\">AAAAAAAAAAAAAAAAAAAAAAAAAAAA</data>"),
        &["zlib", "cannot be decoded"],
    );
    assert_error("csv.tmx", &tmx_layer("<data encoding=\"csv\">1,1,x,1,1,1</data>"), &["CSV", "\"x\""]);
    assert_error("short.tmx", &tmx_layer("<data encoding=\"csv\">1,1,1</data>"), &["has 3 tiles", "needs 6"]);
    assert_error("long.tmx", &tmx_layer("<data encoding=\"csv\">1,1,1,1,1,1,1</data>"), &["has 7 tiles", "needs 6"]);
}

#[test]
fn unknown_gids_and_glyphs_are_named() {
    // tiny.tsx holds GIDs 1 to 4.
    assert_error(
        "gid.tmx",
        &tmx_layer("<data encoding=\"csv\">1,1,1,1,1,99</data>"),
        &["unknown tile id (GID) 99", "ground"],
    );
    let tmj = r#"{"width":2,"height":1,"tilewidth":8,"tileheight":8,"tilesets":[{"firstgid":1,"source":"tiny.tsx"}],
        "layers":[{"type":"tilelayer","name":"floor","width":2,"height":1,"data":[1,7]}]}"#;
    assert_error("gid.tmj", tmj, &["GID) 7", "floor"]);
    assert_error("glyph.txt", "###\n#?#\n###\n", &["unknown glyph '?'", "line 2, column 2"]);
    assert_error("glyph.map", "type octile\nheight 1\nwidth 2\nmap\n.Q\n", &["unknown glyph 'Q'", "line 5, column 2"]);
}

#[test]
fn bad_dimensions_are_refused_before_allocating() {
    let huge = TMX_HEAD.replace("width=\"3\" height=\"2\"", "width=\"100000\" height=\"100000\"") + "</map>";
    assert_error("huge.tmx", &huge, &["100000×100000", "not allowed"]);
    let negative = TMX_HEAD.replace("width=\"3\"", "width=\"-3\"") + "</map>";
    assert_error("negative.tmx", &negative, &["-3×2"]);
    assert_error("huge.tmj", r#"{"width":5000,"height":5000,"tilesets":[],"layers":[]}"#, &["5000×5000"]);
    assert_error("negative.tmj", r#"{"width":-1,"height":5,"tilesets":[],"layers":[]}"#, &["`width`", "≥ 0"]);
    assert_error("huge.map", "type octile\nheight 9999999\nwidth 2\nmap\n", &["2×9999999"]);
    assert_error(
        "huge.ron",
        "(version: 1, width: 10000, height: 2, tiles: [], layers: [])",
        &["10000×2", "not allowed"],
    );
    // A tileset declaring billions of tiles is refused too.
    let tiles = format!("{TMX_HEAD}</map>").replace(
        "<tileset firstgid=\"1\" source=\"tiny.tsx\"/>",
        "<tileset firstgid=\"1\" name=\"x\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"4000000000\" columns=\"2\"/>",
    );
    assert_error("tiles.tmx", &tiles, &["4000000000 tiles"]);
}

#[test]
fn a_missing_tileset_file_is_named() {
    let tmx = tmx_layer("<data encoding=\"csv\">1,1,1,1,1,1</data>").replace("tiny.tsx", "gone.tsx");
    assert_error("ts.tmx", &tmx, &["gone.tsx", "cannot be read"]);
    let tmj = r#"{"width":1,"height":1,"tilesets":[{"firstgid":1,"source":"gone.tsj"}],"layers":[]}"#;
    let message = load_text("ts.tmj", tmj.as_bytes()).unwrap_err();
    assert!(message.contains("gone.tsj") && message.contains("cannot be read"), "{message}");
}

#[test]
fn a_missing_or_broken_object_template_is_named_from_either_kind_of_map() {
    // Each broken template, named by a TMX and by a Tiled JSON map: the message names the map,
    // the template and what is wrong with it.
    let cases: [(&str, &[u8], &[&str]); 4] = [
        ("gone.tx", b"", &["No such file"]),
        ("truncated.tx", b"<?xml version=\"1.0\"?>\n<template>\n <object name=\"x\" width=\"8\"", &["not valid XML"]),
        ("truncated.tj", b"{\"type\": \"template\", \"object\": {\"name\"", &["not valid JSON"]),
        ("objectless.tj", b"{\"type\": \"template\"}", &["no object"]),
    ];
    for (template, bytes, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        if !bytes.is_empty() {
            std::fs::write(dir.path().join(template), bytes).unwrap();
        }
        let tmx = format!(
            r#"{TMX_HEAD}
 <layer id="1" name="ground" width="3" height="2"><data encoding="csv">1,1,1,1,1,1</data></layer>
 <objectgroup id="2" name="things"><object id="1" template="{template}" x="4" y="4"/></objectgroup>
</map>"#
        );
        let tmj = format!(
            r#"{{"width": 3, "height": 2, "tilewidth": 8, "tileheight": 8, "tilesets": [], "layers": [
                {{"id": 1, "type": "objectgroup", "name": "things", "objects": [{{"id": 1, "template": "{template}", "x": 4, "y": 4}}]}}]}}"#
        );
        for (name, text) in [("m.tmx", tmx), ("m.tmj", tmj)] {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            for f in ["tiny.tsx", "tiny.png"] {
                std::fs::copy(fixture(f), dir.path().join(f)).unwrap();
            }
            let message = format::load(&path).map(|_| ()).unwrap_err().to_string();
            assert!(message.contains(name), "{message}");
            assert!(message.contains(&format!("object template \"{template}\"")), "{message}");
            for e in expected {
                assert!(message.contains(e), "{name}, {template}: expected {e:?} in: {message}");
            }
        }
    }
}

#[test]
fn wrong_properties_are_named() {
    let tmj = |props: &str| {
        format!(
            r#"{{"width":1,"height":1,"tilewidth":8,"tileheight":8,"tilesets":[{{"firstgid":1,"name":"t","tilewidth":8,"tileheight":8,
            "tilecount":1,"columns":1,"image":"tiny.png","tiles":[{{"id":0,"properties":[{props}]}}]}}],
            "layers":[{{"type":"tilelayer","name":"g","width":1,"height":1,"data":[1]}}]}}"#
        )
    };
    assert_error(
        "p1.tmj",
        &tmj(r#"{"name":"cost","type":"string","value":"lots"}"#),
        &["tile 0", "`cost` must be a number"],
    );
    assert_error("p2.tmj", &tmj(r#"{"name":"opaque","type":"int","value":3}"#), &["`opaque` must be a bool"]);
    assert_error("p3.tmj", &tmj(r#"{"name":"cost","type":"float","value":-2}"#), &["`cost` is -2"]);
    assert_error("p4.tmj", &tmj(r#"{"name":"door","type":"string","value":"ajar"}"#), &["`door` must be"]);
    assert_error(
        "p5.tmj",
        &tmj(r#"{"name":"door","type":"string","value":"closed"},{"name":"toggles","type":"int","value":42}"#),
        &["`toggles`", "names no tile"],
    );
    // A TMX property whose value is not of its type: named, with its line and what to write.
    let tmx = |kind: &str, value: &str| {
        format!(
            "{TMX_HEAD}\n <tileset firstgid=\"5\" name=\"t\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"1\" columns=\"1\">\n  \
             <image source=\"tiny.png\" width=\"8\" height=\"8\"/>\n  <tile id=\"0\">\n   <properties>\n    \
             <property name=\"p\" type=\"{kind}\" value=\"{value}\"/>\n   </properties>\n  </tile>\n </tileset>\n \
             <layer id=\"1\" name=\"g\" width=\"3\" height=\"2\">\n  <data encoding=\"csv\">1,1,1,1,1,1</data>\n \
             </layer>\n</map>\n"
        )
    };
    assert!(load_text("ok.tmx", tmx("bool", "true").as_bytes()).is_ok());
    for (kind, value, fix) in [
        ("bool", "maybe", "use true or false"),
        ("int", "4.5", "use a whole number"),
        ("float", "abc", "use a number"),
        ("object", "-1", "use an object id"),
        ("color", "#12345", "use a color as #RRGGBB or #AARRGGBB"),
    ] {
        let what = format!("property \"p\" of type \"{kind}\" has value \"{value}\"");
        assert_error("p6.tmx", &tmx(kind, value), &["line 8", &what, fix]);
    }
    assert_error("legend.txt", "legend:\nX = tile cost=abc\n---\nX\n", &["line 2", "cost=\"abc\""]);
    assert_error("version.ron", "(version: 7, width: 1, height: 1, tiles: [], layers: [])", &["version 7"]);
}

#[test]
fn an_unknown_extension_is_named() {
    let message = load_text("map.xyz", b"whatever").unwrap_err();
    assert!(message.contains("map.xyz") && message.contains("unknown map format"), "{message}");
}

/// One random change to `bytes`: flip a byte, delete or duplicate a run, insert digits or
/// punctuation that parsers care about, or truncate.
fn mutate(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for _ in 0..1 + rng.below(3) {
        if out.is_empty() {
            out.push(b'0');
        }
        let len = out.len() as u32;
        let at = rng.below(len) as usize;
        match rng.below(7) {
            0 => out[at] = rng.below(256) as u8,
            1 => {
                let n = (rng.below(16) as usize).min(out.len() - at);
                out.drain(at..at + n);
            }
            2 => {
                let n = (rng.below(32) as usize).min(out.len() - at);
                let run: Vec<u8> = out[at..at + n].to_vec();
                out.splice(at..at, run);
            }
            3 => {
                let digits = ["9999999999", "-1", "0", "4096", "65536", "2147483648", "1e308", "NaN"];
                let d = digits[rng.below(digits.len() as u32) as usize];
                out.splice(at..at, d.bytes());
            }
            4 => {
                let tokens = ["<", ">", "\"", ",", "[", "]", "{", "}", "(", ")", "=", "\n", "'", "/>", "</data>"];
                let t = tokens[rng.below(tokens.len() as u32) as usize];
                out.splice(at..at, t.bytes());
            }
            5 => out.truncate(at),
            _ => out[at] ^= 1 << rng.below(8),
        }
    }
    out
}

/// Feeds `mutations` mutated copies of `source` to the loader for its extension; any result is
/// fine but a panic. Returns how many still loaded (so the test shows the mutations bite).
fn fuzz(source: &[u8], name: &str, mutations: u32, seed: u64) -> u32 {
    let dir = tempfile::tempdir().unwrap();
    for f in ["tiny.tsx", "tiny.png"] {
        std::fs::copy(fixture(f), dir.path().join(f)).unwrap();
    }
    let path = dir.path().join(name);
    let format = Format::from_path(&path).unwrap();
    let mut rng = Rng::new(seed);
    let mut loaded = 0;
    for i in 0..mutations {
        let bytes = mutate(source, &mut rng);
        let result = std::panic::catch_unwind(|| format::load_bytes(&bytes, format, &path));
        match result {
            Ok(Ok(_)) => loaded += 1,
            Ok(Err(e)) => assert!(!e.to_string().is_empty()),
            Err(_) => {
                std::fs::write(dir.path().join("crash"), &bytes).unwrap();
                panic!("{name}: mutation {i} (seed {seed}) panicked; input:\n{}", String::from_utf8_lossy(&bytes));
            }
        }
    }
    loaded
}

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("maps").join(name)).unwrap()
}

#[test]
fn mutated_ron_never_panics() {
    let loaded = fuzz(&sample("pillars.ron"), "m.ron", 3000, 1);
    assert!(loaded < 3000);
}

#[test]
fn mutated_ascii_never_panics() {
    let source = b"legend:\nT = tile name=\"tree\" opaque fg=#22aa22\nD = tile opaque door=closed toggles=d\nd = tile walkable door=open toggles=D\n---\n#####\n#@T.#\n#~\"g#\n#D.d#\n#####\n";
    fuzz(source, "m.txt", 3000, 2);
    fuzz(&sample("dungeon.txt"), "m.txt", 1000, 3);
}

#[test]
fn mutated_tmx_never_panics() {
    let tmx = std::fs::read(fixture("external_tileset.tmx")).unwrap();
    fuzz(&tmx, "m.tmx", 2000, 4);
    let b64 = tmx_layer("<data encoding=\"base64\" compression=\"zlib\">eJxjZGBgYAQAAA0AAw==</data>");
    fuzz(b64.as_bytes(), "m.tmx", 1000, 5);
    fuzz(&std::fs::read(fixture("infinite.tmx")).unwrap(), "m.tmx", 1000, 6);
    fuzz(&sample("outdoor.tmx"), "m.tmx", 500, 7);
}

#[test]
fn mutated_tmj_never_panics() {
    fuzz(&sample("dungeon.tmj"), "m.tmj", 1500, 8);
    let tmj = br#"{"width":2,"height":1,"tilewidth":8,"tileheight":8,"infinite":false,
        "tilesets":[{"firstgid":1,"source":"tiny.tsx"},{"firstgid":5,"name":"b","tilewidth":8,"tileheight":8,"tilecount":2,"columns":2,"image":"tiny.png",
        "tiles":[{"id":1,"properties":[{"name":"door","type":"string","value":"closed"},{"name":"toggles","type":"int","value":0}]}]}],
        "layers":[{"type":"tilelayer","name":"g","width":2,"height":1,"encoding":"base64","data":"AQAAAAYAAAA="},
        {"type":"objectgroup","name":"o","objects":[{"id":1,"name":"p","type":"player","x":4,"y":4,"point":true}]}]}"#;
    fuzz(tmj, "m.tmj", 1500, 9);
}

#[test]
fn mutated_movingai_never_panics() {
    let source = b"type octile\nheight 3\nwidth 4\nmap\n@@@@\n@.T@\n@@@@\n";
    fuzz(source, "m.map", 2000, 10);
}

#[test]
fn maps_of_too_many_layer_cells_are_refused_before_decoding() {
    // Nine layers of 4096×4096: one past the eight that sightline holds. Compressed, such a file
    // is under a megabyte; the layers here carry no data, so the test shows that the count comes
    // before any layer is decoded (and the TMX scan stops at the ninth layer).
    let layers: String =
        (1..=9).map(|i| format!(r#"<layer id="{i}" name="l{i}" width="4096" height="4096"/>"#)).collect();
    let tmx = format!("{TMX_HEAD}{layers}</map>").replace("width=\"3\" height=\"2\"", "width=\"4096\" height=\"4096\"");
    assert_error("layers.tmx", &tmx, &["150994944 cells or more", "at most 134217728", "eight layers of 4096×4096"]);
    // The whole file is counted before the first layer's data is decoded: a corrupt first layer
    // is not what is reported (the scan used to decode eight layers, 512 MB, before the ninth).
    let corrupt_first =
        tmx.replacen("height=\"4096\"/>", "height=\"4096\"><data encoding=\"base64\">!!</data></layer>", 1);
    assert_error("corrupt.tmx", &corrupt_first, &["150994944 cells or more", "line 3"]);
    assert_error(
        "corrupt.tmx",
        &corrupt_first.replace(r#"<layer id="9" name="l9" width="4096" height="4096"/>"#, ""),
        &["base64"],
    );
    // Eight such layers pass the count (and fail on their missing data instead).
    let eight = tmx.replace(r#"<layer id="9" name="l9" width="4096" height="4096"/>"#, "");
    assert_error("eight.tmx", &eight, &["layer \"l1\""]);

    let layer = r#"{"type":"tilelayer","name":"l","width":4096,"height":4096,"data":[]}"#;
    let group = format!(r#"{{"type":"group","name":"g","layers":[{layer},{layer},{layer},{layer},{layer}]}}"#);
    let tmj =
        format!(r#"{{"width":4096,"height":4096,"tilesets":[],"layers":[{layer},{layer},{layer},{layer},{group}]}}"#);
    assert_error("layers.tmj", &tmj, &["150994944 cells or more", "at most 134217728"]);
    let chunk = r#"{"x":0,"y":0,"width":4096,"height":4096,"data":[]}"#;
    let chunks = [chunk; 9].join(",");
    let infinite = format!(
        r#"{{"infinite":true,"width":1,"height":1,"tilesets":[],"layers":[{{"type":"tilelayer","name":"l","chunks":[{chunks}]}}]}}"#
    );
    assert_error("chunks.tmj", &infinite, &["150994944 cells or more"]);
}

#[test]
fn bad_flips_are_named() {
    // A flipped GID of a tile that does not exist is named by its tile, not its flagged number.
    let flipped = 99u32 | 0x8000_0000;
    assert_error(
        "flipped.tmx",
        &tmx_layer(&format!("<data encoding=\"csv\">1,1,1,1,1,{flipped}</data>")),
        &["unknown tile id (GID) 99", "ground"],
    );
    // sightline's RON: a flip is '.' or one hex digit, a row a map row.
    let ron = |flips: &str| {
        format!(
            "(version: 1, width: 2, height: 1, tiles: [(key: '#', name: \"wall\", glyph: (ch: '#', fg: (1, 1, 1), \
             bg: (0, 0, 0)), opaque: true, walkable: false)], layers: [(name: \"ground\", rows: [\"##\"], flips: \
             {flips})])"
        )
    };
    assert!(load_text("ok.ron", ron("[\"8.\"]").as_bytes()).is_ok());
    assert_error("letter.ron", &ron("[\"x.\"]"), &["flips row 0 has 'x'", "hex digit", "ground"]);
    assert_error("short.ron", &ron("[\"8\"]"), &["flips row 0 has 1 cells; the map is 2 wide", "ground"]);
    assert_error("rows.ron", &ron("[\"8.\", \"..\"]"), &["flips has 2 rows; the layer has 1", "ground"]);
}

#[test]
fn a_parallax_origin_no_tiled_file_can_hold_is_named() {
    let ron = |origin: &str| {
        format!(
            "(version: 1, width: 1, height: 1, tiles: [(key: '.', name: \"floor\", glyph: (ch: '.', fg: (1, 1, 1), \
             bg: (0, 0, 0)), opaque: false, walkable: true)], layers: [(name: \"ground\", rows: [\".\"])], \
             tiled: (parallax_origin: {origin}))"
        )
    };
    assert!(load_text("ok.ron", ron("(8.0, -2.5)").as_bytes()).is_ok());
    for origin in ["(inf, 0.0)", "(0.0, NaN)"] {
        assert_error("origin.ron", &ron(origin), &["origin.ron", "parallax origin must be two finite numbers"]);
    }
}

#[test]
fn an_animation_frame_of_no_tile_is_named() {
    // sightline's RON names frames by key; a key no tile has is refused, naming the tile.
    let ron = |frames: &str| {
        format!(
            "(version: 1, width: 1, height: 1, tiles: [(key: '~', name: \"water\", glyph: (ch: '~', fg: (1, 1, 1), \
             bg: (0, 0, 0)), opaque: false, walkable: false, animation: {frames})], layers: [(name: \"ground\", \
             rows: [\"~\"])])"
        )
    };
    assert!(load_text("ok.ron", ron("[(key: '~', ms: 100)]").as_bytes()).is_ok());
    for (name, frames) in [("unknown.ron", "[(key: 'x', ms: 100)]"), ("empty.ron", "[(key: ' ', ms: 100)]")] {
        assert_error(name, &ron(frames), &["tile \"water\" has an animation frame of key", "which no tile has"]);
    }
    // Tiled's JSON: a frame's fields are numbers.
    let tmj = r#"{"type": "map", "width": 1, "height": 1, "tilewidth": 8, "tileheight": 8, "orientation": "orthogonal",
        "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 8, "tileheight": 8, "tilecount": 1, "columns": 1,
          "tiles": [{"id": 0, "animation": [{"tileid": "zero", "duration": 100}]}]}],
        "layers": [{"type": "tilelayer", "name": "ground", "width": 1, "height": 1, "data": [1]}]}"#;
    assert_error("frame.tmj", tmj, &["tile entry 0, animation frame 0", "tileid"]);
}
