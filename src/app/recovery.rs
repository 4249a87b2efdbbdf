//! Never lose work: a periodic autosave of unsaved changes to a recovery file, offered back on
//! the next start after a crash; and the recent-files list. Both live in eframe's storage folder
//! (`~/.local/share/sightline` on Linux); tests point them at a temporary folder.

use crate::app::SightlineApp;
use std::path::{Path, PathBuf};

use crate::core::{Map, format};

/// Seconds between autosaves of unsaved changes.
pub(crate) const AUTOSAVE_SECONDS: f32 = 30.0;
/// Files in File › Open recent.
pub(crate) const RECENT_LIMIT: usize = 10;

/// This process's recovery file in a storage folder: one per running instance, so two
/// instances never overwrite or delete each other's autosave.
pub(crate) fn session_file(storage: &Path) -> PathBuf {
    storage.join(format!("recovery-{}.ron", std::process::id()))
}

/// Whether the process that wrote a recovery file is still running (then its file is not left
/// over from a crash). Linux answers through `/proc`; elsewhere every other instance's file
/// counts as left over.
fn writer_alive(file: &Path) -> bool {
    let pid = file
        .file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| s.strip_prefix("recovery-"))
        .and_then(|p| p.parse::<u32>().ok());
    match pid {
        Some(pid) if pid == std::process::id() => true,
        Some(pid) => Path::new("/proc").join(pid.to_string()).exists(),
        None => false,
    }
}

/// The newest recovery file in `storage` whose writer is gone (a crashed session's work).
pub(crate) fn left_over(storage: &Path) -> Option<PathBuf> {
    let entries = std::fs::read_dir(storage).ok()?;
    entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("recovery") && name.ends_with(".ron")
        })
        .filter(|p| !writer_alive(p))
        .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
}

/// The file the recovered work was opened from (written beside the recovery file).
fn source_file(recovery: &Path) -> PathBuf {
    recovery.with_extension("source")
}

/// Writes the unsaved map to the recovery file (atomically), noting the file it came from.
pub(crate) fn autosave(recovery: &Path, map: &Map, source: Option<&Path>) -> Result<(), crate::core::MapError> {
    if let Some(dir) = recovery.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    format::save(map, recovery)?;
    let source = source.map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
    format::write_atomic(&source_file(recovery), source.as_bytes())
}

/// Work left by a session that did not close cleanly: the map and the file it came from.
pub struct Recovered {
    pub map: Map,
    pub(crate) source: Option<PathBuf>,
    /// When it was saved.
    pub(crate) modified: Option<std::time::SystemTime>,
}

pub(crate) fn load(recovery: &Path) -> Option<Result<Recovered, crate::core::MapError>> {
    if !recovery.exists() {
        return None;
    }
    let modified = std::fs::metadata(recovery).and_then(|m| m.modified()).ok();
    let source = std::fs::read_to_string(source_file(recovery))
        .ok()
        .filter(|s| !s.trim().is_empty())
        .map(|s| PathBuf::from(s.trim()));
    Some(format::load(recovery).map(|loaded| Recovered { map: loaded.map, source, modified }))
}

/// The work is safe (saved, discarded or recovered): the recovery file goes.
pub(crate) fn clear(recovery: &Path) {
    let _ = std::fs::remove_file(recovery);
    let _ = std::fs::remove_file(source_file(recovery));
}

/// Puts `path` first in the recent list.
pub(crate) fn remember_recent(recent: &mut Vec<PathBuf>, path: &Path) {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    recent.retain(|p| *p != path);
    recent.insert(0, path);
    recent.truncate(RECENT_LIMIT);
}

/// What File › Open recent calls each of `recent`: its file name, and as many of its folders
/// as tell it from another of the same name (`desert.tmx — shot`, `desert.tmx — s34`), as
/// editors label same-named tabs.
pub(crate) fn recent_labels(recent: &[PathBuf]) -> Vec<String> {
    let parts: Vec<Vec<String>> = recent
        .iter()
        .map(|p| {
            // Folder and file names only: a root or drive prefix tells nothing apart.
            let names = p.components().filter(|c| matches!(c, std::path::Component::Normal(_)));
            names.rev().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect()
        })
        .collect();
    // Each path's label is its last `depth` parts; raise it while another label is the same.
    let mut depth = vec![1usize; recent.len()];
    let label = |i: usize, d: usize| parts[i].iter().take(d).cloned().collect::<Vec<_>>();
    loop {
        // All that clash are raised together, so that each sees the others as they were.
        let raise: Vec<usize> = (0..recent.len())
            .filter(|&i| depth[i] < parts[i].len())
            .filter(|&i| (0..recent.len()).any(|j| j != i && label(j, depth[j]) == label(i, depth[i])))
            .collect();
        if raise.is_empty() {
            break;
        }
        for i in raise {
            depth[i] += 1;
        }
    }
    (0..recent.len())
        .map(|i| {
            let l = label(i, depth[i]);
            match l.split_first() {
                Some((name, [])) => name.clone(),
                Some((name, folders)) => {
                    let folders: Vec<&str> = folders.iter().rev().map(String::as_str).collect();
                    format!("{name} — {}", folders.join("/"))
                }
                None => recent[i].display().to_string(),
            }
        })
        .collect()
}

impl SightlineApp {
    /// Autosaves to this instance's own file in `dir` from now on, and offers back the newest
    /// file a crashed session left there.
    pub fn use_recovery_dir(&mut self, dir: &std::path::Path) {
        if let Some(found) = left_over(dir) {
            self.offer_recovery(found);
        }
        self.recovery_file = Some(session_file(dir));
    }

    /// Autosaves to `file` from now on, and offers back what is in it (tests; one instance).
    pub fn use_recovery_file(&mut self, file: PathBuf) {
        self.offer_recovery(file.clone());
        self.recovery_file = Some(file);
    }

    pub(crate) fn offer_recovery(&mut self, file: PathBuf) {
        match load(&file) {
            Some(Ok(found)) => {
                self.prompts.recovery = Some(found);
                self.prompts.recovery_file = Some(file);
            }
            Some(Err(e)) => {
                self.prompts.notice = Some(format!("the recovery file could not be read and was set aside: {e}"));
                let _ = std::fs::rename(&file, file.with_extension("ron.unreadable"));
            }
            None => {}
        }
    }

    /// Writes unsaved work to the recovery file now.
    pub fn autosave_now(&mut self) {
        self.autosave_timer = 0.0;
        let Some(file) = &self.recovery_file else { return };
        // Never over the work being offered back (one file for both, as in tests).
        if self.prompts.recovery.is_some() && self.prompts.recovery_file.as_ref() == Some(file) {
            return;
        }
        // Nothing unsaved (saved, or undone back to the file): no copy to keep, and an older
        // one would offer back edits the user took back.
        if !self.document.dirty {
            clear(file);
            return;
        }
        if let Err(e) = autosave(file, &self.document.map, self.document.path.as_deref()) {
            self.prompts.notice = Some(format!("autosave failed: {e}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_named_recent_files_are_told_apart_by_their_folders() {
        let recent: Vec<PathBuf> =
            ["/maps/dungeon.ron", "/tmp/shot/desert.tmx", "/tmp/s34/desert.tmx", "/a/x/cave.tmx", "/b/x/cave.tmx"]
                .iter()
                .map(PathBuf::from)
                .collect();
        assert_eq!(
            recent_labels(&recent),
            ["dungeon.ron", "desert.tmx — shot", "desert.tmx — s34", "cave.tmx — a/x", "cave.tmx — b/x"]
        );
    }
}
