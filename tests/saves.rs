//! Saves that cannot lose work: whatever fails (a read-only folder, a target that is a folder, a
//! disk full part-way through the write, two saves at once), the file on disk is the old one or
//! the new one whole, no temporary file is left, and the error names the file and the cause.

mod common;

use std::io::Write as _;
use std::path::Path;

use sightline::core::format;

fn map() -> sightline::core::Map {
    format::ascii::parse("legend:\n---\n#####\n#...#\n#####\n").unwrap()
}

/// The names in `dir` other than `keep`: a failed write leaves none.
fn leftovers(dir: &Path, keep: &str) -> Vec<String> {
    let names = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
    names.filter(|n| n != keep).collect()
}

/// A folder holding `map.ron` with the text "old" (under the build's folder, on the disk the
/// clone is on, where `chattr` works even if the system's temporary folder is tmpfs).
fn folder_with_old_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let path = dir.path().join("map.ron");
    std::fs::write(&path, "old").unwrap();
    (dir, path)
}

#[track_caller]
fn assert_untouched(dir: &Path, path: &Path) {
    assert_eq!(std::fs::read_to_string(path).unwrap(), "old", "the old file is as it was");
    assert_eq!(leftovers(dir, "map.ron"), Vec::<String>::new(), "no temporary file is left");
}

#[test]
fn a_save_into_a_read_only_folder_names_the_file_and_keeps_the_old_one() {
    let (dir, path) = folder_with_old_file();
    let Some(_read_only) = common::read_only_folder(dir.path()) else { return };
    let message = format::save(&map(), &path).unwrap_err().to_string();
    assert!(message.contains("map.ron"), "{message}");
    assert!(message.contains("Permission denied") || message.contains("Operation not permitted"), "{message}");
    assert_untouched(dir.path(), &path);
}

#[test]
fn a_save_over_a_folder_names_it_and_leaves_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("map.ron");
    std::fs::create_dir(&path).unwrap();
    std::fs::write(path.join("inside.txt"), "kept").unwrap();
    let message = format::save(&map(), &path).unwrap_err().to_string();
    assert!(message.contains("map.ron") && message.contains("folder"), "{message}");
    assert_eq!(std::fs::read_to_string(path.join("inside.txt")).unwrap(), "kept");
    assert_eq!(leftovers(dir.path(), "map.ron"), Vec::<String>::new());
    // Past the format check (a name that is not a map's): the rename fails, after the write.
    let err = format::write_atomic(&path, b"new").unwrap_err().to_string();
    assert!(err.contains("directory") || err.contains("folder"), "{err}");
    assert_eq!(leftovers(dir.path(), "map.ron"), Vec::<String>::new());
}

/// A full disk: the write stops part-way with "no space left". What was written of the new
/// file goes with its temporary file; the old file stays whole.
#[test]
fn a_disk_full_part_way_through_keeps_the_old_file() {
    let (dir, path) = folder_with_old_file();
    let full = |file: &mut std::fs::File| {
        file.write_all(b"the first half of the new ma")?;
        Err(std::io::Error::from(std::io::ErrorKind::StorageFull))
    };
    let message = format::write_atomic_with(&path, full).unwrap_err().in_file(&path).to_string();
    assert!(message.contains("map.ron") && message.to_lowercase().contains("no storage space"), "{message}");
    assert_untouched(dir.path(), &path);
    // A retry once there is room writes the new file whole.
    format::save(&map(), &path).unwrap();
    assert_eq!(format::load(&path).unwrap().map, map());
    assert_eq!(leftovers(dir.path(), "map.ron"), Vec::<String>::new());
}

/// A save and an autosave at once (two threads, one file): each writes its own temporary file,
/// so the file is always one whole save, never a mix.
#[test]
fn saves_at_once_never_mix() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("map.ron");
    let (a, b) = (vec![b'a'; 200_000], vec![b'b'; 200_000]);
    let (a, b) = (&a, &b);
    std::thread::scope(|s| {
        for bytes in [a, b] {
            let path = &path;
            s.spawn(move || (0..40).for_each(|_| format::write_atomic(path, bytes).unwrap()));
        }
        // A reader meanwhile only ever sees a whole file.
        let path = &path;
        s.spawn(move || {
            for _ in 0..200 {
                if let Ok(seen) = std::fs::read(path) {
                    assert!(seen == *a || seen == *b, "a reader saw a partial or mixed file ({} bytes)", seen.len());
                }
            }
        });
    });
    assert_eq!(leftovers(dir.path(), "map.ron"), Vec::<String>::new());
}
