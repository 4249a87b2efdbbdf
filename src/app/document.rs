//! The open map and what the app knows about it: its file and whether it has unsaved changes.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::core::Map;

/// A number no map state had before: documents and edits draw from one counter, so a revision
/// never repeats even across documents (overlays key their results on it).
fn next_revision() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(1);
    COUNTER.fetch_add(1, Ordering::Relaxed)
}

/// How many edits undo remembers.
pub const UNDO_LIMIT: usize = 200;

/// How much memory the undo history may take, about (each step is a copy of the whole map). On a
/// 4096×4096 map of one layer, 32 MiB a copy, that is 32 steps; small maps reach [`UNDO_LIMIT`]
/// first. The last edit can always be undone, however large the map.
pub const UNDO_BYTES: usize = 1 << 30;

pub struct Document {
    pub map: Map,
    /// Snapshots before each edit, oldest first (at most `UNDO_LIMIT`).
    pub undo: Vec<Map>,
    /// Snapshots undone, most recent last.
    pub redo: Vec<Map>,
    /// The file it was opened from or saved to; `None` for the built-in map and new maps.
    pub path: Option<PathBuf>,
    /// Name shown when there is no file.
    pub untitled_name: String,
    /// Unsaved changes.
    pub dirty: bool,
    /// How many undo steps the saved (or opened) state is from the start of the history, while
    /// undo or redo can still reach it: undoing back to it clears `dirty`, as in Tiled. `None`
    /// once an edit replaced it (an edit after undoing past it, or the history's trimming).
    clean_depth: Option<usize>,
    /// Changes whenever the map does (see [`Document::touch`]).
    revision: u64,
    /// What the file on disk holds that a save over it drops (see `format::Loaded::not_kept`);
    /// emptied once the user has agreed to it or saved elsewhere.
    pub not_kept: Vec<&'static str>,
    /// The undo history's memory budget ([`UNDO_BYTES`]; tests set less).
    pub undo_budget: usize,
}

impl Document {
    pub fn untitled(map: Map, name: &str) -> Self {
        Self {
            map,
            undo: Vec::new(),
            redo: Vec::new(),
            path: None,
            untitled_name: name.to_owned(),
            dirty: false,
            clean_depth: Some(0),
            revision: next_revision(),
            not_kept: Vec::new(),
            undo_budget: UNDO_BYTES,
        }
    }

    pub fn open(map: Map, path: PathBuf) -> Self {
        Self {
            map,
            undo: Vec::new(),
            redo: Vec::new(),
            path: Some(path),
            untitled_name: String::new(),
            dirty: false,
            clean_depth: Some(0),
            revision: next_revision(),
            not_kept: Vec::new(),
            undo_budget: UNDO_BYTES,
        }
    }

    /// Remembers the map as it is, before an edit. (The redo history goes only when the edit
    /// does change the map: see [`Document::touch`].)
    pub fn checkpoint(&mut self) {
        self.undo.push(self.map.clone());
    }

    /// Forgets the last checkpoint (an edit that changed nothing).
    pub fn drop_checkpoint(&mut self) {
        self.undo.pop();
    }

    pub fn undo(&mut self) -> bool {
        let Some(previous) = self.undo.pop() else { return false };
        self.redo.push(std::mem::replace(&mut self.map, previous));
        self.changed();
        true
    }

    pub fn redo(&mut self) -> bool {
        let Some(next) = self.redo.pop() else { return false };
        self.undo.push(std::mem::replace(&mut self.map, next));
        self.changed();
        true
    }

    /// Records an edit: the map changed, so it is unsaved, everything computed from it is stale,
    /// and what was undone can no longer be redone.
    pub fn touch(&mut self) {
        // The new state sits at the history's current depth: a clean state there or in the
        // redo history (now dropped) can no longer be reached.
        if self.clean_depth.is_some_and(|d| d >= self.undo.len()) {
            self.clean_depth = None;
        }
        self.redo.clear();
        // The history is bounded in steps and in memory; the oldest steps go (only now, so an
        // edit that changed nothing and dropped its checkpoint cost no history).
        let mut bytes = 0usize;
        let keep = self
            .undo
            .iter()
            .rev()
            .take(UNDO_LIMIT)
            .take_while(|m| {
                bytes = bytes.saturating_add(m.approx_bytes());
                bytes <= self.undo_budget
            })
            .count()
            .max(1);
        let excess = self.undo.len().saturating_sub(keep);
        self.undo.drain(..excess);
        self.clean_depth = self.clean_depth.and_then(|d| d.checked_sub(excess));
        self.changed();
    }

    /// The map changed (an edit, an undo, a redo): unsaved, unless undo or redo came back to
    /// the saved state.
    fn changed(&mut self) {
        self.dirty = self.clean_depth != Some(self.undo.len());
        self.revision = next_revision();
    }

    /// Identifies the map's current state.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    pub fn saved_as(&mut self, path: PathBuf) {
        // The file written is the map as sightline holds it: nothing more to drop there.
        self.not_kept.clear();
        self.path = Some(path);
        self.dirty = false;
        self.clean_depth = Some(self.undo.len());
    }

    /// A tileset file was written with `as_read`: every sheet read from that file, in the map
    /// and in every state undo and redo reach, now compares with what the file holds. (Undo
    /// changes the map, not files on disk: a state undone to still differs from the file in
    /// what it differs, and a save then writes its tileset into the map.) Not an edit of the
    /// map, but what a save of it writes changes, so views of it are stale.
    pub fn tileset_file_written(
        &mut self,
        path: &std::path::Path,
        as_read: &std::sync::Arc<crate::core::format::tiled_common::TilesetDoc>,
    ) {
        let states = std::iter::once(&mut self.map).chain(self.undo.iter_mut()).chain(self.redo.iter_mut());
        for map in states {
            for sheet in &mut map.sheets {
                if let Some(file) = sheet.file.as_mut().filter(|f| f.path == path) {
                    file.as_read = Some(as_read.clone());
                }
            }
        }
        self.revision = next_revision();
    }

    /// The folder of its file, where the map's relative paths start (`None` without a file).
    pub fn folder(&self) -> Option<&std::path::Path> {
        self.path.as_deref().and_then(|p| p.parent())
    }

    pub fn file_name(&self) -> String {
        self.path
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.untitled_name.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Cell;

    /// Paints `n` edits, one cell each, as the app does (checkpoint, change, touch).
    fn edit(doc: &mut Document, n: usize) {
        for i in 0..n {
            doc.checkpoint();
            doc.map.set_tile(0, Cell::new((i % 8) as i32, 0), 1 + (i % 2) as crate::core::TileId);
            doc.touch();
        }
    }

    #[test]
    fn undoing_back_to_the_saved_state_is_not_unsaved_but_an_edit_past_it_is() {
        let mut doc = Document::open(Map::new_standard(8, 2, 1).unwrap(), "m.ron".into());
        edit(&mut doc, 2);
        assert!(doc.dirty);
        doc.undo();
        doc.undo();
        assert!(!doc.dirty, "back where the file is");
        doc.redo();
        assert!(doc.dirty);
        doc.saved_as("m.ron".into());
        doc.undo();
        assert!(doc.dirty, "one step before the save");
        doc.redo();
        assert!(!doc.dirty, "redone to the saved state");
        // Undo past the save, then edit: the saved state is gone from the history.
        doc.undo();
        edit(&mut doc, 1);
        assert!(doc.dirty);
        doc.undo();
        assert!(doc.dirty, "the state one step before the save was never saved");
        while doc.redo() {}
        assert!(doc.dirty, "and the saved state cannot be redone to");
        // An edit with no checkpoint of its own (a name being typed) changes the saved state.
        doc.saved_as("m.ron".into());
        doc.map.set_tile(0, Cell::new(0, 1), 2);
        doc.touch();
        assert!(doc.dirty);
        doc.undo();
        assert!(doc.dirty, "the state before was not saved either");
        // The history trimmed past the saved state: it is gone too.
        let mut doc = Document::open(Map::new_standard(8, 2, 1).unwrap(), "m.ron".into());
        doc.undo_budget = doc.map.approx_bytes() * 3;
        edit(&mut doc, 5);
        while doc.undo() {}
        assert!(doc.dirty, "the opened state fell out of the history");
    }

    #[test]
    fn the_undo_history_is_bounded_in_steps_and_in_memory() {
        let map = Map::new_standard(64, 64, 1).unwrap();
        let step = map.approx_bytes();
        let mut doc = Document::untitled(map.clone(), "t");
        edit(&mut doc, UNDO_LIMIT + 5);
        assert_eq!(doc.undo.len(), UNDO_LIMIT, "small maps keep the step limit");

        let mut doc = Document::untitled(map.clone(), "t");
        doc.undo_budget = 10 * step + step / 2;
        edit(&mut doc, 25);
        assert_eq!(doc.undo.len(), 10, "ten copies fit in the budget");
        // Undo and redo move copies between the two histories, so the whole stays bounded.
        while doc.undo() {}
        edit(&mut doc, 1);
        assert_eq!(doc.undo.len(), 1);
        assert!(doc.redo.is_empty());

        let mut doc = Document::untitled(map, "t");
        doc.undo_budget = step / 2;
        edit(&mut doc, 3);
        assert_eq!(doc.undo.len(), 1, "the last edit can be undone, whatever the budget");
        let before = doc.undo[0].clone();
        assert!(doc.undo());
        assert_eq!(doc.map, before);
    }
}
