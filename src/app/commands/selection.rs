//! The selection and the clipboard: selecting cells, copying, cutting, pasting, deleting.
//!
//! Each command here is applied by `apply_selection` and named for the undo history by
//! `SelectionCommand::step_name`; both match every variant, so a new command cannot miss either.

use super::Command;
use crate::app::editor::EditorState;
use crate::app::{ErrorDialog, SightlineApp};
use crate::core::Cell;
use crate::core::Map;
use crate::core::edit::selection::Selection;

#[derive(Clone, Debug, PartialEq)]
pub enum SelectionCommand {
    /// The selection tool: copy, cut (the current layer), start pasting, flip the stamp, place it.
    Copy,
    Cut,
    Paste,
    /// Lay the clipboard's stamp where it was copied from, on the current layer (Tiled's Paste
    /// in Place, Ctrl+Shift+V; one undo step).
    PasteInPlace,
    PasteAt(crate::core::Cell),
    /// Esc: stop pasting, or drop the selection.
    CancelSelection,
    /// Erase the selection on the current layer.
    DeleteSelection,
    /// Select every cell (Ctrl+A), none (Ctrl+Shift+A), or every cell not selected (Ctrl+I).
    SelectAll,
    SelectNone,
    InvertSelection,
    /// Cut the map down to the selection's bounding rectangle (one undo step).
    CropToSelection,
    /// How the selection tools combine their pick with the selection (the tools bar).
    SetSelectionMode(crate::core::edit::selection::SelectionMode),
    /// The mode the keys held as a selection drag begins ask for (sent before its
    /// `StrokeBegin`).
    HoldSelectionMode(Option<crate::core::edit::selection::SelectionMode>),
    /// Shift held as a fill begins: it fills the whole selection (Tiled's Fill Selection).
    SetFillSelection(bool),
}

impl SelectionCommand {
    /// What the undo step this command makes is called ("Paint", "Rename layer …"); `None`
    /// when it makes no step of its own.
    pub(crate) fn step_name(&self, editor: &EditorState, map: &Map) -> Option<String> {
        Some(match self {
            SelectionCommand::Cut => "Cut".into(),
            // As the Edit menu says it: the objects in hand or on the selected cells of an object
            // layer, else the selected cells.
            SelectionCommand::DeleteSelection
                if editor.object_layer.is_some() || crate::app::object_focus(editor, map).is_some() =>
            {
                "Delete objects".into()
            }
            SelectionCommand::DeleteSelection => "Erase selection".into(),
            // The step is the selection the paste drops.
            SelectionCommand::Paste => "Deselect to paste".into(),
            SelectionCommand::PasteAt(_) | SelectionCommand::PasteInPlace => "Paste".into(),
            SelectionCommand::CancelSelection | SelectionCommand::SelectNone => "Select none".into(),
            SelectionCommand::SelectAll => "Select all".into(),
            SelectionCommand::InvertSelection => "Invert selection".into(),
            SelectionCommand::CropToSelection => "Crop to selection".into(),
            SelectionCommand::Copy
            | SelectionCommand::SetSelectionMode(..)
            | SelectionCommand::HoldSelectionMode(..)
            | SelectionCommand::SetFillSelection(..) => return None,
        })
    }
}

impl SightlineApp {
    pub(super) fn apply_selection(&mut self, command: SelectionCommand) {
        match command {
            SelectionCommand::Copy | SelectionCommand::Cut => {
                let cut = matches!(command, SelectionCommand::Cut);
                // Objects, as Tiled's copy of selected objects takes them (see `objects_taken`).
                if let Some((ids, frame)) = self.objects_taken() {
                    if !ids.is_empty() {
                        self.copy_objects(&ids, frame, cut);
                    }
                    return;
                }
                // A cut of a layer that cannot be erased is no cut (nor a copy): it says why.
                if self.editor.selection.is_none() || cut && self.layer_locked() {
                    return;
                }
                let Some(selection) = &self.editor.selection else { return };
                let layer = self.editor.layer;
                let origin = selection.bounds().map(|(corner, _)| corner);
                let stamp = crate::core::edit::Stamp::copy_selection(&self.document.map, layer, selection);
                self.system_clipboard = stamp.as_ref().map(|s| s.as_text(&self.document.map));
                let from = self.tile_source();
                self.editor.hold(stamp, origin, from);
                // As in Tiled, a cut leaves nothing selected, so the paste can go anywhere.
                if matches!(command, SelectionCommand::Cut) && self.erase_selection() {
                    self.editor.selection = None;
                }
            }
            SelectionCommand::Paste => {
                self.editor.pasting = self.editor.clipboard.is_some();
                // As in Tiled: pasting drops the selection, which would otherwise keep the stamp
                // inside the cells it was copied from.
                if self.editor.pasting {
                    let before = self.editor.selection.take();
                    self.document.selection_changed(before, &None);
                    // The stamp takes the pointer: a shape being drawn is dropped.
                    self.editor.shape_draft = None;
                    self.end_object_gesture();
                }
            }
            SelectionCommand::PasteInPlace => {
                if let Some(origin) = self.editor.clipboard_origin.filter(|_| self.editor.clipboard.is_some()) {
                    self.apply(Command::Selection(SelectionCommand::PasteAt(origin)));
                }
            }
            SelectionCommand::PasteAt(cell) => {
                let Some(target) = self.stamp_target() else { return };
                self.pasted = Default::default();
                self.document.checkpoint(&self.editor.selection);
                if self.lay_stamp(target, cell) > 0 {
                    self.document.touch();
                } else {
                    self.document.drop_checkpoint();
                }
            }
            SelectionCommand::CancelSelection => {
                if self.editor.shape_draft.is_some() {
                    // Esc drops the shape being drawn (Tiled's `cancelNewMapObject`).
                    self.editor.shape_draft = None;
                } else if self.editor.pasting {
                    self.editor.pasting = false;
                } else if self.focus().is_some() {
                    // Then the object in hand, as Tiled's Esc clears the object selection.
                    self.editor.focused_object = None;
                } else if let Some(drag) = self.editor.selection_drag.take() {
                    // Esc in the middle of a selection drag: what was selected before.
                    self.editor.selection = drag.before;
                    self.editor.stroke = None;
                } else {
                    self.select(None);
                }
            }
            SelectionCommand::DeleteSelection => {
                // Objects, as Tiled's Delete of selected objects (see `objects_taken`); else the
                // selected cells are erased.
                match self.objects_taken() {
                    Some((ids, _)) => self.remove_objects(&ids),
                    None => {
                        self.erase_selection();
                    }
                }
            }
            SelectionCommand::SelectAll => {
                let map = &self.document.map;
                self.select(Some(Selection::all(map.width(), map.height())));
            }
            SelectionCommand::SelectNone => self.select(None),
            SelectionCommand::InvertSelection => {
                let map = &self.document.map;
                let inverted = match &self.editor.selection {
                    Some(s) => s.sized(map.width(), map.height()).inverted(),
                    None => Selection::all(map.width(), map.height()),
                };
                self.select(Some(inverted).filter(|s| !s.is_empty()));
            }
            SelectionCommand::CropToSelection => self.crop_to_selection(),
            SelectionCommand::SetSelectionMode(mode) => self.editor.selection_mode = mode,
            SelectionCommand::HoldSelectionMode(mode) => self.editor.held_selection_mode = mode,
            SelectionCommand::SetFillSelection(on) => self.editor.fill_selection = on,
        }
    }
}

impl SightlineApp {
    /// Makes `selection` the selection, as one undo step (none when it is the same).
    pub(crate) fn select(&mut self, selection: Option<Selection>) {
        let before = std::mem::replace(&mut self.editor.selection, selection);
        self.document.selection_changed(before, &self.editor.selection);
    }

    /// Erases the selection on the current layer (one undo step); false when the layer is
    /// locked (or nothing is selected), so nothing could be erased.
    pub(crate) fn erase_selection(&mut self) -> bool {
        let Some(selection) = &self.editor.selection else { return false };
        let cells: Vec<Cell> = selection.cells().collect();
        if self.layer_locked() {
            return false;
        }
        self.document.checkpoint(&self.editor.selection);
        if crate::core::edit::paint(&mut self.document.map, self.editor.layer, &cells, crate::core::model::tile::EMPTY)
            > 0
        {
            self.document.touch();
        } else {
            self.document.drop_checkpoint();
        }
        true
    }

    /// Cuts the map down to the selection's bounding rectangle (Tiled's Crop to Selection; one
    /// undo step); the selection moves with the cells it holds.
    pub(crate) fn crop_to_selection(&mut self) {
        let Some((a, b)) = self.editor.selection.as_ref().and_then(|s| s.bounds()) else { return };
        match self.document.map.cropped(a, b) {
            Ok(map) if map != self.document.map => {
                let moved = self.editor.selection.as_ref().map(|s| s.moved((-a.x, -a.y), map.width(), map.height()));
                self.document.checkpoint(&self.editor.selection);
                self.document.map = map;
                self.document.touch();
                self.editor.selection = moved;
                self.editor.selection_origin = None;
                self.view.fit_pending = true;
            }
            Ok(_) => {}
            Err(e) => {
                self.prompts.error = Some(ErrorDialog { title: "Cannot crop the map".into(), message: e.to_string() })
            }
        }
    }
}
