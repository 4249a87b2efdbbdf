//! Bad input: every loader returns a typed error naming the file and the problem, never panics,
//! whatever the bytes (a few thousand random mutations of valid files per format).

use std::path::{Path, PathBuf};

use sightline::core::format::{self, Format};
use sightline::core::rng::Rng;

mod common;
use common::mutation::mutate;

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
        &[
            "unknown tile id (GID) 99: the tileset it would be in, tileset \"tiny\" (tiny.tsx), holds GIDs 1 to 4",
            "ground",
        ],
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
    assert_error("tiles.tmx", &tiles, &["tilecount=\"4000000000\" is out of range", "65535 tiles"]);
}

#[test]
fn a_missing_tileset_file_is_named() {
    let tmx = tmx_layer("<data encoding=\"csv\">1,1,1,1,1,1</data>").replace("tiny.tsx", "gone.tsx");
    assert_error("ts.tmx", &tmx, &["gone.tsx", "cannot be read"]);
    let tmj = r#"{"width":1,"height":1,"tilesets":[{"firstgid":1,"source":"gone.tsj"}],"layers":[]}"#;
    let message = load_text("ts.tmj", tmj.as_bytes()).unwrap_err();
    assert!(message.contains("gone.tsj") && message.contains("cannot be read"), "{message}");
}

/// A broken tileset file beside a sound map: the message names the map and the tileset file,
/// the one to mend, however the map reaches it (directly, or through an object template).
#[test]
fn a_broken_tileset_file_is_named_not_only_its_map() {
    let good = std::fs::read_to_string(fixture("tiny.tsx")).unwrap();
    let map = tmx_layer("<data encoding=\"csv\">1,2,3,4,1,2</data>");
    let cases: [(String, &[&str]); 3] = [
        (good[..good.len() / 2].to_owned(), &["ts.tmx", "tileset \"tiny.tsx\"", "not valid XML"]),
        (
            good.replacen(r#"value="closed""#, r#"value="ajar""#, 1),
            &["ts.tmx", r#"tileset "tiny" (tiny.tsx), tile 2: property `door` must be "open" or "closed""#],
        ),
        (
            good.replacen(r#"tilecount="4" columns="2""#, r#"tilecount="2" columns="2""#, 1),
            &[
                "ts.tmx",
                r#"unknown tile id (GID) 3: the tileset it would be in, tileset "tiny" (tiny.tsx), holds GIDs 1 to 2"#,
            ],
        ),
    ];
    for (tsx, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
        std::fs::write(dir.path().join("tiny.tsx"), tsx).unwrap();
        std::fs::write(dir.path().join("ts.tmx"), &map).unwrap();
        let message = format::load(&dir.path().join("ts.tmx")).map(|_| ()).unwrap_err().to_string();
        for e in expected {
            assert!(message.contains(e), "expected {e:?} in: {message}");
        }
    }
    // A template naming a tileset file that is not there, or is broken: the template and the
    // tileset named, from either kind of map.
    for (tileset, expected) in [
        ("gone.tsx", "gone.tsx cannot be read"),
        ("broken.tsx", "its tileset \"broken.tsx\": the file is not valid XML"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("broken.tsx"), &good[..good.len() / 2]).unwrap();
        std::fs::write(
            dir.path().join("t.tx"),
            format!(
                "<?xml version=\"1.0\"?>\n<template>\n <tileset firstgid=\"1\" source=\"{tileset}\"/>\n \
                 <object name=\"chest\" gid=\"1\" width=\"8\" height=\"8\"/>\n</template>\n"
            ),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("t.tj"),
            format!(
                r#"{{"type": "template", "tileset": {{"firstgid": 1, "source": "{tileset}"}}, "object": {{"gid": 1, "width": 8, "height": 8}}}}"#
            ),
        )
        .unwrap();
        for template in ["t.tx", "t.tj"] {
            let tmj = format!(
                r#"{{"width": 3, "height": 2, "tilewidth": 8, "tileheight": 8, "tilesets": [], "layers": [
                    {{"id": 1, "type": "objectgroup", "name": "things", "objects": [{{"id": 1, "template": "{template}", "x": 4, "y": 8}}]}}]}}"#
            );
            let tmx = format!(
                "<?xml version=\"1.0\"?>\n<map version=\"1.10\" orientation=\"orthogonal\" width=\"3\" height=\"2\" \
                 tilewidth=\"8\" tileheight=\"8\" infinite=\"0\">\n <objectgroup id=\"1\" name=\"things\">\
                 <object id=\"1\" template=\"{template}\" x=\"4\" y=\"8\"/></objectgroup>\n</map>\n"
            );
            for (name, text) in [("m.tmj", tmj), ("m.tmx", tmx)] {
                std::fs::write(dir.path().join(name), text).unwrap();
                let message = format::load(&dir.path().join(name)).map(|_| ()).unwrap_err().to_string();
                for e in [name, &format!("object template \"{template}\""), tileset, expected] {
                    assert!(message.contains(e), "{name} → {template}: expected {e:?} in: {message}");
                }
            }
        }
    }
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
/// `n` times `SIGHTLINE_SOAK` (1 unless set): how many mutations a fuzz tries. A soak, to hunt
/// with many more than CI tries: `SIGHTLINE_SOAK=50 cargo test --release --test bad_input`.
fn soaked(n: u32) -> u32 {
    let factor = std::env::var("SIGHTLINE_SOAK").ok().and_then(|s| s.parse::<u32>().ok());
    n * factor.unwrap_or(1).max(1)
}

/// Feeds `mutations` ([`soaked`]) mutated copies of `source` to the loader for its extension;
/// any result is fine but a panic. Returns whether some still loaded and some did not (so the
/// test shows the mutations bite, and that they leave files worth reading).
fn fuzz(source: &[u8], name: &str, mutations: u32, seed: u64) -> (bool, bool) {
    let mutations = soaked(mutations);
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
    (loaded > 0, loaded < mutations)
}

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("maps").join(name)).unwrap()
}

#[test]
fn mutated_ron_never_panics() {
    let (_, refused) = fuzz(&sample("pillars.ron"), "m.ron", 3000, 1);
    assert!(refused);
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
    // Eight such layers pass the count (and fail on the first one's data instead).
    assert_error(
        "corrupt.tmx",
        &corrupt_first.replace(r#"<layer id="9" name="l9" width="4096" height="4096"/>"#, ""),
        &["layer \"l1\"", "base64"],
    );

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
    let tmx = TMX_HEAD.replace("infinite=\"0\"", "infinite=\"0\" parallaxoriginx=\"1e999\"") + "</map>";
    assert_error("origin.tmx", &tmx, &["parallaxoriginx", "parallax origin must be two finite numbers", "line 2"]);
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

/// Feeds `mutations` mutated copies of `source`, written as the side file `side` (a tileset or
/// template file) beside the map `main` (`main_text`) that names it, to the map's loader; any
/// result is fine but a panic, and an error names the map and the side file. Returns whether some still loaded and
/// some did not, as [`fuzz`] does.
fn fuzz_side_file(main: &str, main_text: &str, side: &str, source: &[u8], mutations: u32, seed: u64) -> (bool, bool) {
    let mutations = soaked(mutations);
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    if side != "tiny.tsx" {
        std::fs::copy(fixture("tiny.tsx"), dir.path().join("tiny.tsx")).unwrap();
    }
    let path = dir.path().join(main);
    std::fs::write(&path, main_text).unwrap();
    let mut rng = Rng::new(seed);
    let mut loaded = 0;
    for i in 0..mutations {
        let bytes = mutate(source, &mut rng);
        std::fs::write(dir.path().join(side), &bytes).unwrap();
        match std::panic::catch_unwind(|| format::load(&path)) {
            Ok(Ok(_)) => loaded += 1,
            // The map is sound: the message names it and the file that is not.
            Ok(Err(e)) => assert!(e.to_string().contains(main) && e.to_string().contains(side), "{side}: {e}"),
            Err(_) => panic!(
                "{side} beside {main}: mutation {i} (seed {seed}) panicked; input:\n{}",
                String::from_utf8_lossy(&bytes)
            ),
        }
    }
    (loaded > 0, loaded < mutations)
}

#[test]
fn mutated_tileset_and_template_files_never_panic() {
    // TMX_HEAD names tiny.tsx.
    let tmx_with = |object: &str| {
        format!(
            r#"{TMX_HEAD}
 <layer id="1" name="ground" width="3" height="2"><data encoding="csv">1,2,3,4,1,2</data></layer>
 <objectgroup id="2" name="things">{object}</objectgroup>
</map>"#
        )
    };
    let tsx_map = tmx_with("");
    assert_eq!(
        fuzz_side_file("m.tmx", &tsx_map, "tiny.tsx", &std::fs::read(fixture("rich.tsx")).unwrap(), 2000, 21),
        (true, true)
    );

    let tmj_map = r#"{"width": 3, "height": 2, "tilewidth": 8, "tileheight": 8, "infinite": false,
        "tilesets": [{"firstgid": 1, "source": "tiny.tsj"}],
        "layers": [{"id": 1, "type": "tilelayer", "name": "g", "width": 3, "height": 2, "data": [1, 2, 3, 4, 1, 2]}]}"#;
    let tsj = br##"{"type": "tileset", "name": "tiny", "tilewidth": 8, "tileheight": 8, "tilecount": 4, "columns": 2,
        "image": "tiny.png", "imagewidth": 16, "imageheight": 16,
        "properties": [{"name": "biome", "type": "string", "value": "cave"}],
        "tiles": [{"id": 1, "type": "wall", "properties": [{"name": "opaque", "type": "bool", "value": true},
                    {"name": "stats", "type": "class", "propertytype": "Stats", "value": {"hp": 5}}]},
                  {"id": 2, "properties": [{"name": "door", "type": "string", "value": "closed"}, {"name": "toggles", "type": "int", "value": 3}],
                   "animation": [{"tileid": 2, "duration": 200}, {"tileid": 3, "duration": 200}]}],
        "wangsets": [{"name": "ground", "type": "corner", "tile": -1,
            "colors": [{"name": "grass", "color": "#00ff00", "tile": 0, "probability": 1}],
            "wangtiles": [{"tileid": 0, "wangid": [0, 1, 0, 1, 0, 1, 0, 1]}]}]}"##;
    assert_eq!(fuzz_side_file("m.tmj", tmj_map, "tiny.tsj", tsj, 2000, 22), (true, true));

    let tx = br#"<?xml version="1.0" encoding="UTF-8"?>
<template>
 <tileset firstgid="1" source="tiny.tsx"/>
 <object name="chest" type="item" gid="2147483652" width="8" height="8">
  <properties><property name="loot" value="gold"/><property name="count" type="int" value="3"/></properties>
 </object>
</template>
"#;
    let object =
        r#"<object id="1" template="t.tx" x="4" y="8"/><object id="2" template="t.tx" name="other" x="12" y="8"/>"#;
    let tx_map = tmx_with(object);
    assert_eq!(fuzz_side_file("m.tmx", &tx_map, "t.tx", tx, 1500, 23), (true, true));

    let tj = br#"{"type": "template", "tileset": {"firstgid": 1, "source": "tiny.tsx"},
        "object": {"name": "chest", "type": "item", "gid": 4, "width": 8, "height": 8, "rotation": 0, "visible": true,
                   "properties": [{"name": "loot", "type": "string", "value": "gold"}]}}"#;
    let tj_map = r#"{"width": 3, "height": 2, "tilewidth": 8, "tileheight": 8, "tilesets": [], "layers": [
        {"id": 1, "type": "objectgroup", "name": "things", "objects": [{"id": 1, "template": "t.tj", "x": 4, "y": 8}]}]}"#;
    assert_eq!(fuzz_side_file("m.tmj", tj_map, "t.tj", tj, 1500, 24), (true, true));
}

/// Numbers a map cannot hold as they are: one too large for the float it is read into (`1e309`
/// reads as an infinite f64, `1e39` as an infinite f32 probability), which no file writes back, and cells too large for a Tiled
/// file's positions. Each is named, or (an object's shape) the object is left out with a warning.
#[test]
fn numbers_no_file_writes_back_are_named() {
    let layer = r#"<layer id="1" name="ground" width="3" height="2"><data encoding="csv">1,1,1,1,1,1</data></layer>"#;
    let tmx = |layer: &str, objects: &str| {
        format!("{TMX_HEAD}\n {layer}\n <objectgroup id=\"2\" name=\"things\">{objects}</objectgroup>\n</map>\n")
    };
    let far_point = r#"<object id="1" name="patrol" x="4" y="4"><polyline points="0,0 1e309,0"/></object>"#;
    let loaded = load_text("inf.tmx", tmx(layer, far_point).as_bytes()).unwrap();
    assert!(loaded.map.objects.is_empty());
    assert!(
        loaded
            .warnings
            .iter()
            .any(|w| w == r#"object "patrol" has a shape with a number too large to hold and is left out"#),
        "{:?}",
        loaded.warnings
    );
    let offset = layer.replace(r#"height="2">"#, r#"height="2" offsetx="1e309">"#);
    assert_error("offset.tmx", &tmx(&offset, ""), &[r#"layer "ground": it has offset inf, not a finite number"#]);
    let animated = std::fs::read_to_string(fixture("animated.tmx")).unwrap();
    assert_error(
        "chance.tmx",
        &animated.replace(r#"probability="0.25""#, r#"probability="1e39""#),
        &[r#"tileset "water", tile 2 has probability inf; it must be a finite number ≥ 0"#],
    );
    let corners = std::fs::read_to_string(fixture("corners.tmx")).unwrap();
    assert_error(
        "terrain.tmx",
        &corners.replacen(r#"tile="0" probability="1""#, r#"tile="0" probability="-2""#, 1),
        &[r#"terrain "grass" has probability -2; it must be a finite number ≥ 0"#],
    );
    let ron = |tile_size: &str| {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/pillars.ron"))
            .unwrap()
            .replace("tile_size: (16, 16)", tile_size)
    };
    assert_error(
        "tall.ron",
        &ron("tile_size: (16, 1000000)"),
        &["cells of 16×1000000 pixels make the map", "pixels high", "at most 8388608 pixels"],
    );
    assert_error("flat.ron", &ron("tile_size: (0, 16)"), &["cells of 0×16 pixels", "a cell is at least 1 pixel"]);
}

/// A tile object showing a tile no tileset has is kept as a rectangle over the same box (its
/// tileset's alignment says where the box is), so it stays on its cell, and in a save.
#[test]
fn a_tile_object_of_no_tile_is_kept_as_a_rectangle_over_its_box() {
    // Its tileset centres its tile objects: the lamp at 12, 4 covers 8..16 × 0..8, cell 1, 0.
    let text = std::fs::read_to_string(fixture("tile_drawing.tmx")).unwrap().replace(r#"gid="2""#, r#"gid="20""#);
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let path = dir.path().join("lamp.tmx");
    std::fs::write(&path, text).unwrap();
    let loaded = format::load(&path).unwrap();
    assert!(
        loaded.warnings.iter().any(|w| w.contains("shows tile GID 20, which no tileset has")),
        "{:?}",
        loaded.warnings
    );
    let lamp = &loaded.map.objects[0];
    assert_eq!(lamp.cell, sightline::core::Cell::new(1, 0));
    let shape = lamp.shape.as_ref().unwrap();
    assert_eq!(shape.offset, [0.0, 0.0], "the box's top-left corner, from its cell's");
    for ext in ["tmx", "tmj", "ron"] {
        let again = dir.path().join(format!("again.{ext}"));
        format::save(&loaded.map, &again).unwrap();
        assert_eq!(format::load(&again).unwrap().map.objects, loaded.map.objects, "{ext}");
    }
}

/// A glyph given two meanings in an ASCII legend is refused, naming both lines: the second
/// used to replace the first, whose tile type stayed in the map, drawn nowhere.
#[test]
fn a_glyph_defined_twice_in_a_legend_is_named() {
    assert_error(
        "twice.txt",
        "legend:\nT = tile name=\"tree\" opaque\nT = tile name=\"tower\" opaque\n---\n#T#\n",
        &["line 3", "glyph 'T' is defined already, on line 2"],
    );
}

/// Chunk positions past what a cell position holds are refused where they are read, naming the
/// value: a cell's place in its chunk added to one used to overflow (a wrong map in a release
/// build, a panic in a debug one).
#[test]
fn chunks_placed_beyond_any_cell_position_are_refused() {
    let far = "9223372036854775000";
    let tmx = std::fs::read_to_string(fixture("infinite.tmx")).unwrap().replacen(
        r#"<chunk x="-16" y="0""#,
        &format!(r#"<chunk x="{far}" y="0""#),
        1,
    );
    assert_error("far.tmx", &tmx, &[&format!("x=\"{far}\""), "line 6"]);
    let tmj = format!(
        r#"{{"width":2,"height":1,"infinite":true,"tilewidth":8,"tileheight":8,"tilesets":[{{"firstgid":1,"source":"tiny.tsx"}}],
        "layers":[{{"type":"tilelayer","name":"ground","width":2,"height":1,"chunks":[
        {{"x":{far},"y":0,"width":2,"height":1,"data":[1,1]}}]}}]}}"#
    );
    assert_error("far.tmj", &tmj, &["layer \"ground\", chunk 0", &format!("`x` is {far}, out of range")]);
}

/// Every whole number a file gives is read within its range (`limits::Limit`), so that nothing
/// computed from it overflows: the numbers a fuzzer found overflowing (a tileset's layout, an
/// infinite map's origin, a RON sheet's tile count) are refused where they are read, naming the
/// file, the element and the value.
#[test]
fn numbers_past_their_range_are_refused_where_read() {
    let big = "4294967295";
    let tileset = |attrs: &str| {
        format!(
            r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="1" height="1" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" name="t" {attrs}><image source="tiny.png" width="16" height="16"/></tileset>
 <layer id="1" name="g" width="1" height="1"><data encoding="csv">1</data></layer>
</map>"#
        )
    };
    let sane = r#"tilewidth="8" tileheight="8" tilecount="4" columns="2""#;
    for (attr, value) in
        [("tilewidth", big), ("spacing", big), ("margin", "65537"), ("columns", "65536"), ("tilecount", big)]
    {
        let attrs = format!(
            "{} {attr}=\"{value}\"",
            sane.replace(&format!("{attr}=\"8\""), "")
                .replace(&format!("{attr}=\"2\""), "")
                .replace(&format!("{attr}=\"4\""), "")
        );
        assert_error(
            "big.tmx",
            &tileset(&attrs),
            &[&format!("<tileset> attribute {attr}=\"{value}\" is out of range"), "sightline reads 0 to", "line 3"],
        );
    }
    // In range each, laid out too large together: named with the tileset.
    let wide = tileset(r#"tilewidth="65536" tileheight="8" tilecount="4" columns="4000" spacing="65536""#);
    assert_error("wide.tmx", &wide, &["tileset \"t\"", "lay out an image of", "up to 16777216 pixels a side"]);

    let tmj = |tileset: &str| {
        format!(
            r#"{{"width":1,"height":1,"tilewidth":8,"tileheight":8,"infinite":false,
            "tilesets":[{{"firstgid":1,"name":"t","image":"tiny.png","imagewidth":16,"imageheight":16,{tileset}}}],
            "layers":[{{"type":"tilelayer","name":"g","width":1,"height":1,"data":[1]}}]}}"#
        )
    };
    assert_error(
        "big.tmj",
        &tmj(r#""tilewidth":8,"tileheight":8,"tilecount":4,"columns":2,"spacing":4294967295"#),
        &["`spacing` is 4294967295, out of range: sightline reads 0 to 65536 pixels"],
    );
    assert_error(
        "big.tmj",
        &tmj(r#""tilewidth":8,"tileheight":8,"tilecount":4,"columns":2,"tileoffset":{"x":-99999999,"y":0}"#),
        &["tileoffset", "`x` is -99999999, out of range"],
    );

    // RON gives a sheet's numbers as they are: the map's checks bound them alike.
    let dir = tempfile::tempdir().unwrap();
    let map = format::load(&fixture("corners.tmx")).unwrap().map;
    format::save(&map, &dir.path().join("sheet.ron")).unwrap();
    let ron = std::fs::read_to_string(dir.path().join("sheet.ron")).unwrap();
    let count = ron.find("tile_count: ").expect("the RON save has a sheet");
    let end = count + ron[count..].find(',').unwrap();
    let huge = format!("{}tile_count: 4294967295{}", &ron[..count], &ron[end..]);
    assert_error("huge.ron", &huge, &["tile_count is 4294967295, out of range: sightline reads 0 to 65535 tiles"]);
}
