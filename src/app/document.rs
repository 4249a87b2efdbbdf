//! The open map and what the app knows about it: its file and whether it has unsaved changes.

use std::path::PathBuf;

use crate::core::Map;

pub struct Document {
    pub map: Map,
    /// The file it was opened from or saved to; `None` for the built-in map and new maps.
    pub path: Option<PathBuf>,
    /// Name shown when there is no file.
    pub untitled_name: String,
    /// Unsaved changes.
    pub dirty: bool,
}

impl Document {
    pub fn untitled(map: Map, name: &str) -> Self {
        Self { map, path: None, untitled_name: name.to_owned(), dirty: false }
    }

    pub fn open(map: Map, path: PathBuf) -> Self {
        Self { map, path: Some(path), untitled_name: String::new(), dirty: false }
    }

    pub fn saved_as(&mut self, path: PathBuf) {
        self.path = Some(path);
        self.dirty = false;
    }

    pub fn file_name(&self) -> String {
        self.path
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.untitled_name.clone())
    }
}
