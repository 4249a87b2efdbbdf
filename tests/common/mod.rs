//! What the app's egui_kittest tests share: a harness that runs frames as eframe does, the
//! sample maps, and clicks on cells as a hand makes them.
// Each test file uses its own part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub mod mutation;

// The app's helpers, for the tests of the GUI build (the core's tests share `sample`,
// `glyph_rows` and `mutation` without it).
#[cfg(feature = "gui")]
mod gui;
#[cfg(feature = "gui")]
#[allow(unused_imports)]
pub use gui::*;

/// A map of `maps/`.
pub fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("maps").join(name)
}

/// The tiles of `layer` drawn by their glyphs, one string a row.
pub fn glyph_rows(map: &sightline::core::Map, layer: usize) -> Vec<String> {
    (0..map.height() as i32)
        .map(|y| {
            (0..map.width() as i32)
                .map(|x| map.tiles[usize::from(map.tile(layer, sightline::core::Cell::new(x, y)).unwrap())].glyph.ch)
                .collect()
        })
        .collect()
}
