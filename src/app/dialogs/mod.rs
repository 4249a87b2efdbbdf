//! The modal dialogs, one file each: errors, the prompts before work could be lost (unsaved
//! changes, saving over a file or in a format that keeps less, writing a tileset file), and
//! the offer of recovered work. Each draws while its question is pending in the app's state and
//! answers with a [`Command`](super::Command).

pub(crate) mod error;
pub(crate) mod lossy_save;
pub(crate) mod overwrite;
pub(crate) mod recovery;
pub(crate) mod tileset_write;
pub(crate) mod unsaved_changes;
