//! Every format loads every sample map that ships in it; round trips are exact; real Tiled maps
//! (from ../shared/corpus) load; ASCII maps mean what docs/formats.md says.
//!
//! One test crate, a module for each format or concern; the helpers here are the ones several
//! modules use.

mod ascii;
mod corpus;
mod layers;
mod map_settings;
mod movingai;
mod objects;
mod properties;
mod ron;
mod round_trips;
mod templates;
mod tilesets;
mod tmj;
mod tmx;

use std::path::{Path, PathBuf};

use sightline::core::Map;
use sightline::core::format::{self, Format};

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

/// Saves `map` as `name` in a temp dir; returns the warnings and the text written.
fn save_text(map: &Map, name: &str) -> (Vec<String>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    let saved = format::save(map, &path).unwrap_or_else(|e| panic!("{e}"));
    (saved.warnings, std::fs::read_to_string(&path).unwrap())
}

/// Saves `map` at `path` and gives the file's text.
fn save_in(map: &Map, path: &Path) -> String {
    format::save(map, path).unwrap_or_else(|e| panic!("{e}"));
    std::fs::read_to_string(path).unwrap()
}
