//! Undo and redo.
//!
//! Each command here is applied by `apply_history` and named for the undo history by
//! `HistoryCommand::step_name`; both match every variant, so a new command cannot miss either.

use super::Command;
use crate::app::editor::{EditorState, ShapeDraft};
use crate::app::{SightlineApp, editor};
use crate::core::Map;

#[derive(Clone, Debug, PartialEq)]
pub enum HistoryCommand {
    Undo,
    Redo,
    /// Undo or redo until `n` steps are done (the History panel's click on a step: the map as
    /// it was just after that step; 0, before every step remembered).
    UndoTo(usize),
}

impl HistoryCommand {
    /// What the undo step this command makes is called ("Paint", "Rename layer …"); `None`
    /// when it makes no step of its own.
    pub(crate) fn step_name(&self, _editor: &EditorState, _map: &Map) -> Option<String> {
        match self {
            HistoryCommand::Undo | HistoryCommand::Redo | HistoryCommand::UndoTo(..) => None,
        }
    }
}

impl SightlineApp {
    pub(super) fn apply_history(&mut self, command: HistoryCommand) {
        match command {
            HistoryCommand::Undo | HistoryCommand::Redo => {
                self.editor.stroke = None;
                // A selection drag cut short selects nothing.
                if let Some(drag) = self.editor.selection_drag.take() {
                    self.editor.selection = drag.before;
                }
                // A move or resize cut short moves nothing more.
                self.end_object_gesture();
                // A path being extended was measured from the path as it was.
                if matches!(self.editor.shape_draft, Some(ShapeDraft::Points { extends: Some(_), .. })) {
                    self.editor.shape_draft = None;
                }
                let current = editor::CurrentByName::of(&self.editor, &self.document.map);
                let undo = matches!(command, HistoryCommand::Undo);
                if undo {
                    self.document.undo(&mut self.editor.selection)
                } else {
                    self.document.redo(&mut self.editor.selection)
                };
                current.restore(&mut self.editor, &self.document.map);
                self.clamp_layer();
            }
            HistoryCommand::UndoTo(n) => {
                while self.document.undo.len() > n {
                    self.apply(Command::History(HistoryCommand::Undo));
                }
                while self.document.undo.len() < n && !self.document.redo.is_empty() {
                    self.apply(Command::History(HistoryCommand::Redo));
                }
            }
        }
    }
}
