//! What each fuzz target does with one input, shared by the cargo-fuzz binaries
//! (`fuzz/fuzz_targets/`) and the stable replay test (`tests/fuzz_replay.rs`), so that CI replays
//! exactly what the long campaign runs.
//!
//! A target may refuse its input with an error; it fails (panics) only on a panic inside
//! sightline, or, for `round_trip`, when a map sightline saved cannot be loaded back.
#![allow(dead_code)] // each fuzz binary runs one target; the seeds are for the replay test

use std::path::{Path, PathBuf};

use sightline::core::format::{self, Format, movingai};

/// The targets, by the names of their binaries and corpus folders.
pub const TARGETS: [&str; 7] = ["ron", "ascii", "tmx", "tmj", "movingai_map", "movingai_scen", "round_trip"];

/// Splits a Tiled input into the map and its side file: the map names its first tileset
/// `side.tsx`, and the side file's bytes (TSX or TSJ: sightline tells them by content, as
/// Tiled does) follow this line. Without the line there is no side file.
pub const SIDE_FILE: &[u8] = b"\n--- side.tsx ---\n";

/// The side file's name as a map refers to it.
pub const SIDE_NAME: &str = "side.tsx";

/// The images a tileset may name, copied into the scratch folder so that the loader reads
/// real PNGs (a name the fuzzer damaged is a missing image, which is a warning).
const IMAGES: [(&str, &[u8]); 2] = [
    ("tiny.png", include_bytes!("../tests/fixtures/tiny.png")),
    ("corners.png", include_bytes!("../tests/fixtures/corners.png")),
];

/// Maps larger than this are loaded but not saved again: a save of a 4096² map writes tens of
/// megabytes, and a small compressed input can ask for one; the round trip is about what a map
/// holds, not its size (tests/formats/round_trips.rs saves large maps).
const ROUND_TRIP_CELLS: usize = 1 << 18;

/// A folder of this process's own for the files a target writes (on tmpfs where there is one).
fn scratch() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let base = if Path::new("/dev/shm").is_dir() { PathBuf::from("/dev/shm") } else { std::env::temp_dir() };
        let dir = base.join(format!("sightline-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("the scratch folder can be made");
        for (name, bytes) in IMAGES {
            std::fs::write(dir.join(name), bytes).expect("the scratch folder can be written");
        }
        dir
    })
}

/// Runs target `name` on `data`.
pub fn run(name: &str, data: &[u8]) {
    match name {
        "ron" => load(data, Format::Ron),
        "ascii" => load(data, Format::Ascii),
        "tmx" => load(data, Format::Tmx),
        "tmj" => load(data, Format::Tmj),
        "movingai_map" => load(data, Format::MovingAi),
        "movingai_scen" => scen(data),
        "round_trip" => round_trip(data),
        _ => panic!("no fuzz target {name}"),
    }
}

fn extension(format: Format) -> &'static str {
    format.extensions()[0]
}

/// Loads `data` as a map of `format`, any side file written beside it first.
fn load_map(data: &[u8], format: Format) -> Option<format::Loaded> {
    let dir = scratch();
    let (map, side) = match data.windows(SIDE_FILE.len()).position(|w| w == SIDE_FILE) {
        Some(at) => (&data[..at], Some(&data[at + SIDE_FILE.len()..])),
        None => (data, None),
    };
    let side_path = dir.join(SIDE_NAME);
    match side {
        Some(bytes) => std::fs::write(&side_path, bytes).expect("the side file can be written"),
        None => {
            let _ = std::fs::remove_file(&side_path);
        }
    }
    let path = dir.join(format!("input.{}", extension(format)));
    match format::load_bytes(map, format, &path) {
        Ok(loaded) => Some(loaded),
        Err(e) => {
            // An error is an answer, as long as it says something.
            assert!(!e.to_string().is_empty(), "an empty error message");
            None
        }
    }
}

fn load(data: &[u8], format: Format) {
    load_map(data, format);
}

fn scen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(scenarios) = movingai::parse_scenarios(text) {
        // What parses writes back and parses again to the same scenarios.
        let again = movingai::parse_scenarios(&movingai::scenarios_to_string(&scenarios))
            .unwrap_or_else(|e| panic!("written scenarios do not parse again: {e}"));
        assert_eq!(again.len(), scenarios.len());
    }
}

/// The first byte picks the format the rest is read in; what loads is saved in every format and
/// each file is loaded back, which must work: a save sightline cannot read again is lost work.
/// Saved once more, what was read back must give the same file: a save may leave out what its
/// format cannot hold (and says so), but what it writes it must read as written.
fn round_trip(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let from = Format::ALL[usize::from(pick) % Format::ALL.len()];
    let Some(loaded) = load_map(rest, from) else { return };
    let map = loaded.map;
    if map.len() > ROUND_TRIP_CELLS {
        return;
    }
    for to in Format::ALL {
        let path = scratch().join(format!("saved.{}", extension(to)));
        let rendered = match format::render(&map, &path) {
            Ok(r) => r,
            // A map some format cannot hold (too many tile kinds for ASCII's glyphs, say) is
            // refused with a message, before anything is written.
            Err(e) => {
                assert!(!e.to_string().is_empty());
                continue;
            }
        };
        // Loaded from the text, not the disk: the files a save writes beside it (a glyph
        // tileset's image) only change warnings, and disk writes would slow the campaign.
        let back = format::load_bytes(rendered.text().as_bytes(), to, &path).unwrap_or_else(|e| {
            panic!(
                "a map loaded from {} and saved as {} does not load again: {e}\nthe file:\n{}",
                from.name(),
                to.name(),
                rendered.text()
            )
        });
        assert_eq!(
            (back.map.width(), back.map.height()),
            (map.width(), map.height()),
            "a {} save changed the map's size",
            to.name()
        );
        // What was read back saves to the very same file: a save that changes what it does not
        // say (an object moved off the map, a number off by its last bit) shows as a change.
        let again = format::render(&back.map, &path)
            .unwrap_or_else(|e| panic!("a {} save, read back, cannot be saved again: {e}", to.name()));
        if again.text() != rendered.text() {
            let lines = rendered.text().lines().count().max(again.text().lines().count()) + 1;
            let (line, (first, second)) = rendered
                .text()
                .lines()
                .chain(std::iter::repeat(""))
                .zip(again.text().lines().chain(std::iter::repeat("")))
                .take(lines)
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .unwrap_or((lines - 1, ("(the line ends differ)", "")));
            panic!(
                "a map loaded from {} and saved as {}, read back and saved again, writes another file: line {}\n\
                 first:  {first}\nsecond: {second}\nthe first file:\n{}",
                from.name(),
                to.name(),
                line + 1,
                rendered.text()
            );
        }
    }
}

/// A seed input: which target it is for, a name for its corpus file, its bytes.
pub struct Seed {
    pub target: &'static str,
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Seeds larger than this are left out: a fuzzer's inputs stay small to run fast, and the
/// large maps hold nothing the small ones do not.
const SEED_BYTES: usize = 40_000;

/// The seed corpus: the bundled maps, the test fixtures, `../shared/corpus` when it is beside
/// `root` (the repository), and a few written here to reach what no file does (a TSJ tileset
/// beside a map of either kind). Tiled maps that name a tileset file carry it as their side
/// file. Every map is also a `round_trip` seed, its format's number first.
pub fn seeds(root: &Path) -> Vec<Seed> {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in
        ["maps", "tests/fixtures", "../shared/corpus/tiled", "../shared/corpus/tiled/rpg", "../shared/corpus/movingai"]
    {
        if let Ok(entries) = std::fs::read_dir(root.join(dir)) {
            files.extend(entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()));
        }
    }
    files.sort();
    let mut seeds = Vec::new();
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        if bytes.len() > SEED_BYTES {
            continue;
        }
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
        if ext == "scen" {
            seeds.push(Seed { target: "movingai_scen", name, bytes });
            continue;
        }
        let Some(format) = Format::ALL.into_iter().find(|f| f.extensions().contains(&ext.as_str())) else { continue };
        if format == Format::Ascii && path.file_name().is_some_and(|n| n == "readme.txt") {
            continue;
        }
        let bytes = with_side_file(&path, bytes);
        add_map(&mut seeds, format, name, bytes);
    }
    for (name, format, text) in WRITTEN {
        add_map(&mut seeds, *format, (*name).to_owned(), text.as_bytes().to_vec());
    }
    for (name, text) in SCENS {
        seeds.push(Seed { target: "movingai_scen", name: (*name).to_owned(), bytes: text.as_bytes().to_vec() });
    }
    seeds
}

fn add_map(seeds: &mut Vec<Seed>, format: Format, name: String, bytes: Vec<u8>) {
    let target = match format {
        Format::Ron => "ron",
        Format::Ascii => "ascii",
        Format::Tmx => "tmx",
        Format::Tmj => "tmj",
        Format::MovingAi => "movingai_map",
    };
    let pick = Format::ALL.iter().position(|f| *f == format).unwrap_or(0) as u8;
    seeds.push(Seed { target: "round_trip", name: name.clone(), bytes: [&[pick][..], &bytes].concat() });
    seeds.push(Seed { target, name, bytes });
}

/// A Tiled map with its first tileset file (`source="….tsx"` or `.tsj`, beside it) renamed
/// `side.tsx` and appended as the side file; other maps as they are.
fn with_side_file(path: &Path, bytes: Vec<u8>) -> Vec<u8> {
    let Ok(text) = String::from_utf8(bytes.clone()) else { return bytes };
    for quote in ["source=\"", "\"source\":\""] {
        let mut from = 0;
        while let Some(at) = text[from..].find(quote).map(|i| i + from + quote.len()) {
            from = at;
            let Some(end) = text[at..].find('"').map(|i| i + at) else { break };
            let named = &text[at..end];
            if !(named.ends_with(".tsx") || named.ends_with(".tsj") || named.ends_with(".json")) {
                continue;
            }
            let Ok(side) = std::fs::read(path.with_file_name(named)) else { break };
            let mut out = format!("{}{SIDE_NAME}{}", &text[..at], &text[end..]).into_bytes();
            out.extend_from_slice(SIDE_FILE);
            out.extend_from_slice(&side);
            return out;
        }
    }
    bytes
}

/// Seeds no bundled file gives: JSON tilesets beside maps of both kinds, Tiled 1.1's old JSON
/// properties, a scenario file, odd ASCII legends.
const WRITTEN: &[(&str, Format, &str)] = &[
    (
        "tsj-beside-tmj.tmj",
        Format::Tmj,
        r#"{"width":3,"height":2,"tilewidth":8,"tileheight":8,"infinite":false,"orientation":"orthogonal",
"tilesets":[{"firstgid":1,"source":"side.tsx"}],
"layers":[{"type":"tilelayer","name":"g","width":3,"height":2,"data":[1,2,0,2147483650,1,3]},
{"type":"objectgroup","name":"o","objects":[{"id":1,"name":"p","type":"player","x":4,"y":4,"point":true},{"id":2,"gid":2,"x":8,"y":16,"width":8,"height":8}]}]}
--- side.tsx ---
{"name":"t","tilewidth":8,"tileheight":8,"tilecount":4,"columns":2,"image":"tiny.png","imagewidth":16,"imageheight":16,"margin":0,"spacing":0,
"tiles":[{"id":1,"properties":[{"name":"opaque","type":"bool","value":true},{"name":"cost","type":"int","value":3}],"animation":[{"tileid":0,"duration":100},{"tileid":1,"duration":100}]}]}"#,
    ),
    (
        "tsj-beside-tmx.tmx",
        Format::Tmx,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="3" height="2" tilewidth="8" tileheight="8" infinite="0" nextlayerid="3" nextobjectid="2">
 <tileset firstgid="1" source="side.tsx"/>
 <layer id="1" name="g" width="3" height="2"><data encoding="csv">1,2,0,4,3,1</data></layer>
 <objectgroup id="2" name="o"><object id="1" name="p" type="player" x="4" y="4"><point/></object></objectgroup>
</map>
--- side.tsx ---
{"name":"t","tilewidth":8,"tileheight":8,"tilecount":4,"columns":2,"image":"tiny.png","imagewidth":16,"imageheight":16,
"tiles":[{"id":0,"type":"wall","properties":[{"name":"opaque","type":"bool","value":true}]}]}"#,
    ),
    (
        "infinite.tmj",
        Format::Tmj,
        r#"{"width":4,"height":4,"tilewidth":8,"tileheight":8,"infinite":true,"editorsettings":{"chunksize":{"width":4,"height":4}},
"tilesets":[{"firstgid":1,"name":"b","tilewidth":8,"tileheight":8,"tilecount":4,"columns":2,"image":"tiny.png","imagewidth":16,"imageheight":16,"spacing":1,"margin":1}],
"layers":[{"type":"tilelayer","name":"g","startx":-4,"starty":0,"width":8,"height":4,"chunks":[{"x":-4,"y":0,"width":4,"height":4,"data":[1,2,3,4,0,0,0,0,1,1,1,1,2,2,2,2]},{"x":0,"y":0,"width":4,"height":4,"encoding":"base64","compression":"zlib","data":"eJxjZGBgYAQAAA0AAw=="}]}]}"#,
    ),
    (
        "old-properties.tmj",
        Format::Tmj,
        r##"{"width":2,"height":1,"tilewidth":8,"tileheight":8,"infinite":false,"version":1.1,
"properties":{"difficulty":3,"tint":"#ff112233"},"propertytypes":{"difficulty":"int","tint":"color"},
"tilesets":[{"firstgid":1,"name":"b","tilewidth":8,"tileheight":8,"tilecount":4,"columns":2,"image":"tiny.png","imagewidth":16,"imageheight":16,
"properties":{"kind":"dungeon"},"propertytypes":{"kind":"string"},
"tileproperties":{"1":{"opaque":true,"cost":2}},"tilepropertytypes":{"1":{"opaque":"bool","cost":"int"}}}],
"layers":[{"type":"tilelayer","name":"g","width":2,"height":1,"data":[1,2],"properties":{"collision":false},"propertytypes":{"collision":"bool"}},
{"type":"objectgroup","name":"o","objects":[{"id":1,"name":"p","type":"player","x":4,"y":4,"point":true,"properties":{"speed":1.5},"propertytypes":{"speed":"float"}}]}]}"##,
    ),
    (
        "rules.txt",
        Format::Ascii,
        "legend:\nT = tile name=\"tree\" opaque fg=#22aa22\nD = tile opaque door=closed toggles=d\nd = tile walkable door=open toggles=D\n~ = tile walkable cost=3\n---\n#####\n#@T.#\n#~\"g#\n#D.d#\n#####\n",
    ),
    ("small.map", Format::MovingAi, "type octile\nheight 3\nwidth 4\nmap\n@@@@\n@.TS\n@W.@\n"),
    (
        "rooms.map",
        Format::MovingAi,
        "type octile\nheight 5\nwidth 7\nmap\n@@@@@@@\n@..T..@\n@.@@@.@\n@..S..W\n@@@@@@@\n",
    ),
];

/// Scenario files no bundled file gives (`../shared/corpus` has a real one).
const SCENS: &[(&str, &str)] = &[
    ("small.scen", "version 1\n0\tsmall.map\t4\t3\t1\t1\t2\t2\t1.41421356\n1\tsmall.map\t4\t3\t1\t1\t3\t1\t2\n"),
    (
        "rooms.scen",
        "version 1\n0\trooms.map\t7\t5\t1\t1\t5\t3\t4.82842712\n0\trooms.map\t7\t5\t5\t1\t1\t3\t4.82842712\n1\trooms.map\t7\t5\t1\t3\t5\t3\t4.00000000\n",
    ),
];
