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

/// Makes `dir` read-only until the guard is dropped: by its mode bits, or, where they do not
/// bind (a test run as root), by the immutable attribute (`chattr +i`, on ext4 and most Linux
/// file systems). `None` when neither can be set here: under CI that fails the test, elsewhere
/// the caller skips with a note.
pub fn read_only_folder(dir: &Path) -> Option<ReadOnly> {
    use std::os::unix::fs::PermissionsExt;
    let writable = |dir: &Path| {
        let probe = dir.join(".probe");
        let ok = std::fs::write(&probe, b"").is_ok();
        let _ = std::fs::remove_file(&probe);
        ok
    };
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).ok()?;
    let mut guard = ReadOnly { dir: dir.to_owned(), immutable: false };
    if !writable(dir) {
        return Some(guard);
    }
    let chattr = std::process::Command::new("chattr").arg("+i").arg(dir).status();
    guard.immutable = chattr.is_ok_and(|s| s.success());
    if guard.immutable && !writable(dir) {
        return Some(guard);
    }
    assert!(std::env::var_os("CI").is_none(), "no way to make {} read-only on this machine", dir.display());
    eprintln!("note: {} cannot be made read-only here (root, no chattr): the read-only case is skipped", dir.display());
    None
}

/// A folder made read-only by [`read_only_folder`]; writable again when dropped.
pub struct ReadOnly {
    dir: PathBuf,
    immutable: bool,
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        if self.immutable {
            let _ = std::process::Command::new("chattr").arg("-i").arg(&self.dir).status();
        }
        let _ = std::fs::set_permissions(&self.dir, std::fs::Permissions::from_mode(0o755));
    }
}
