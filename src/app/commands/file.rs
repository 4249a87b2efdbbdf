//! Opening, saving, exporting and recovering maps, and the prompts they raise.
//!
//! Each command here is applied by `apply_file` and named for the undo history by
//! `FileCommand::step_name`; both match every variant, so a new command cannot miss either.

use std::path::PathBuf;

use super::Command;
use crate::app::editor::EditorState;
use crate::app::{ErrorDialog, PendingAction, SightlineApp, document::Document, map_dialogs, recovery};
use crate::core::{Map, format};

#[derive(Clone, Debug, PartialEq)]
pub enum FileCommand {
    /// Open a file (asking first about unsaved changes; the open map stays if it fails).
    Open(PathBuf),
    /// Open a file now, whatever is unsaved (after the prompt).
    OpenNow(PathBuf),
    /// Close the window (asking first about unsaved changes).
    Quit,
    /// Answers to the unsaved-changes prompt.
    ConfirmSave,
    ConfirmDiscard,
    ConfirmCancel,
    /// Show the open dialog, then open.
    PickOpen,
    /// Save to the document's file (asks for one if it has none).
    Save,
    /// Save to a file, which becomes the document's file. Over the file the map came from, when
    /// that file holds what sightline does not keep, this asks first.
    SaveAs(PathBuf),
    /// Answers to "saving over this file drops …": save anyway, or not.
    ConfirmOverwrite,
    CancelOverwrite,
    /// Answers to "this file will not keep …" (a save in a format that holds less than the
    /// map: ASCII, MovingAI, a Tiled JSON class's member types): save anyway, which makes the
    /// file the map's own; export a copy there, the map keeping its own file and unsaved state;
    /// or neither.
    ConfirmLossySave,
    ExportLossyCopy,
    CancelLossySave,
    /// Show the save dialog, then save.
    PickSaveAs,
    /// Write a copy (any format, by extension: Tiled TMX/TMJ, ASCII, MovingAI, RON); the document
    /// keeps its file.
    ExportCopy(PathBuf),
    PickExport,
    /// Take the work the last session left in the recovery file.
    Recover,
    DiscardRecovery,
    ShowNewMap,
    /// Replace the map with a new one (asking first about unsaved changes).
    NewMap(crate::app::map_dialogs::NewMapSpec),
    /// Save the canvas as it is on screen, overlays included, as a PNG.
    ExportPng(PathBuf),
    /// Show the save dialog, then export.
    PickExportPng,
    DismissError,
}

impl FileCommand {
    /// What the undo step this command makes is called ("Paint", "Rename layer …"); `None`
    /// when it makes no step of its own.
    pub(crate) fn step_name(&self, _editor: &EditorState, _map: &Map) -> Option<String> {
        match self {
            FileCommand::Open(..)
            | FileCommand::OpenNow(..)
            | FileCommand::Quit
            | FileCommand::ConfirmSave
            | FileCommand::ConfirmDiscard
            | FileCommand::ConfirmCancel
            | FileCommand::PickOpen
            | FileCommand::Save
            | FileCommand::SaveAs(..)
            | FileCommand::ConfirmOverwrite
            | FileCommand::CancelOverwrite
            | FileCommand::ConfirmLossySave
            | FileCommand::ExportLossyCopy
            | FileCommand::CancelLossySave
            | FileCommand::PickSaveAs
            | FileCommand::ExportCopy(..)
            | FileCommand::PickExport
            | FileCommand::Recover
            | FileCommand::DiscardRecovery
            | FileCommand::ShowNewMap
            | FileCommand::NewMap(..)
            | FileCommand::ExportPng(..)
            | FileCommand::PickExportPng
            | FileCommand::DismissError => None,
        }
    }
}

impl SightlineApp {
    pub(super) fn apply_file(&mut self, command: FileCommand) {
        match command {
            FileCommand::Open(path) => self.request(PendingAction::Open(path)),
            FileCommand::PickOpen => self.request(PendingAction::PickOpen),
            FileCommand::Quit => self.request(PendingAction::Quit),
            FileCommand::ConfirmSave => {
                let Some(action) = self.prompts.unsaved.take() else { return };
                // Goes on once the save is made (`settle_after_save`), which a question about
                // the save may hold up.
                self.prompts.after_save = Some(action);
                match self.document.path.clone() {
                    Some(path) => self.apply(Command::File(FileCommand::SaveAs(path))),
                    None => self.apply(Command::File(FileCommand::PickSaveAs)),
                }
            }
            FileCommand::ConfirmDiscard => {
                if let Some(action) = self.prompts.unsaved.take() {
                    self.proceed(action);
                }
            }
            FileCommand::ConfirmCancel => self.prompts.unsaved = None,
            FileCommand::OpenNow(path) => match format::load(&path) {
                Ok(loaded) => {
                    self.prompts.notice = (!loaded.warnings.is_empty()).then(|| loaded.warnings.join("; "));
                    recovery::remember_recent(&mut self.recent, &path);
                    let mut document = Document::open(loaded.map, path);
                    document.not_kept = loaded.not_kept;
                    self.replace_document(document);
                }
                Err(e) => {
                    // The open map stays as it was.
                    self.prompts.error =
                        Some(ErrorDialog { title: "Cannot open the map".into(), message: e.to_string() });
                }
            },
            FileCommand::SaveAs(path)
                if !self.document.not_kept.is_empty() && self.document.path.as_ref() == Some(&path) =>
            {
                self.prompts.overwrite = Some(path);
            }
            FileCommand::ConfirmOverwrite => {
                if let Some(path) = self.prompts.overwrite.take() {
                    self.document.not_kept.clear();
                    self.apply(Command::File(FileCommand::SaveAs(path)));
                }
            }
            FileCommand::CancelOverwrite => self.prompts.overwrite = None,
            FileCommand::SaveAs(path) => match format::render(&self.document.map, &path) {
                // A file that will not keep all of the map: asked first, unless this very loss
                // to this very file was agreed to already.
                Ok(rendered)
                    if !rendered.warnings.is_empty()
                        && self.prompts.lossy_save_accepted.as_ref()
                            != Some(&(path.clone(), rendered.warnings.clone())) =>
                {
                    self.prompts.lossy_save = Some(rendered);
                }
                Ok(rendered) => self.write_save(&rendered),
                Err(e) => {
                    self.prompts.error =
                        Some(ErrorDialog { title: "Cannot save the map".into(), message: e.to_string() })
                }
            },
            FileCommand::ConfirmLossySave => {
                if let Some(rendered) = self.prompts.lossy_save.take() {
                    self.prompts.lossy_save_accepted = Some((rendered.path.clone(), rendered.warnings.clone()));
                    self.write_save(&rendered);
                }
            }
            FileCommand::ExportLossyCopy => {
                if let Some(rendered) = self.prompts.lossy_save.take() {
                    self.write_export(&rendered);
                }
            }
            FileCommand::CancelLossySave => self.prompts.lossy_save = None,
            FileCommand::Save => match self.document.path.clone() {
                Some(path) => self.apply(Command::File(FileCommand::SaveAs(path))),
                None => self.commands.push(Command::File(FileCommand::PickSaveAs)),
            },
            FileCommand::ExportCopy(path) => match format::render(&self.document.map, &path) {
                Ok(rendered) => self.write_export(&rendered),
                Err(e) => {
                    self.prompts.error =
                        Some(ErrorDialog { title: "Cannot export the map".into(), message: e.to_string() })
                }
            },
            FileCommand::PickExport => {
                if let Some(path) = file_dialog().set_file_name(self.document.file_name()).save_file() {
                    self.apply(Command::File(FileCommand::ExportCopy(path)));
                }
            }
            FileCommand::PickSaveAs => {
                if let Some(path) = file_dialog().set_file_name(self.document.file_name()).save_file() {
                    self.apply(Command::File(FileCommand::SaveAs(path)));
                }
            }
            FileCommand::DismissError => self.prompts.error = None,
            FileCommand::Recover => {
                if let Some(found) = self.prompts.recovery.take() {
                    // The work now lives in this session (and its own autosave): the left-over
                    // file goes.
                    if let Some(file) = self.prompts.recovery_file.take()
                        && Some(&file) != self.recovery_file.as_ref()
                    {
                        recovery::clear(&file);
                    }
                    let name = found
                        .source
                        .as_ref()
                        .and_then(|p| p.file_name())
                        .map_or_else(|| "recovered.ron".to_owned(), |n| n.to_string_lossy().into_owned());
                    let mut document = Document::untitled(found.map, &name);
                    document.path = found.source;
                    self.replace_document(document);
                    self.document.touch();
                    self.prompts.notice = Some("recovered the unsaved work of the last session: save it".into());
                }
            }
            FileCommand::DiscardRecovery => {
                self.prompts.recovery = None;
                if let Some(file) = self.prompts.recovery_file.take() {
                    recovery::clear(&file);
                }
            }
            FileCommand::ShowNewMap => self.dialogs.new_map = Some(map_dialogs::NewMapSpec::default()),
            FileCommand::NewMap(spec) => self.request(PendingAction::New(spec)),
            FileCommand::ExportPng(path) => self.export_requested = Some(path),
            FileCommand::PickExportPng => {
                let name = format!("{}.png", self.document.file_name());
                if let Some(path) = rfd::FileDialog::new().add_filter("PNG", &["png"]).set_file_name(name).save_file() {
                    self.export_requested = Some(path);
                }
            }
        }
    }
}

pub(crate) fn file_dialog() -> rfd::FileDialog {
    let mut dialog = rfd::FileDialog::new().add_filter(
        "Maps",
        &format::Format::ALL.iter().flat_map(|f| f.extensions().iter().copied()).collect::<Vec<_>>(),
    );
    for f in format::Format::ALL {
        dialog = dialog.add_filter(f.name(), f.extensions());
    }
    dialog
}

impl SightlineApp {
    /// Runs `action` at once, or holds it for the unsaved-changes prompt.
    pub(crate) fn request(&mut self, action: PendingAction) {
        if self.document.dirty {
            self.prompts.unsaved = Some(action);
        } else {
            self.proceed(action);
        }
    }

    pub(crate) fn proceed(&mut self, action: PendingAction) {
        match action {
            PendingAction::Open(path) => self.apply(Command::File(FileCommand::OpenNow(path))),
            PendingAction::New(spec) => match spec.build() {
                Ok(map) => {
                    self.replace_document(Document::untitled(map, "untitled.ron"));
                }
                Err(e) => {
                    self.prompts.error =
                        Some(ErrorDialog { title: "Cannot create the map".into(), message: e.to_string() })
                }
            },
            PendingAction::PickOpen => {
                if let Some(path) = file_dialog().pick_file() {
                    self.apply(Command::File(FileCommand::OpenNow(path)));
                }
            }
            PendingAction::Quit => {
                self.close_allowed = true;
                self.close_now = true;
            }
        }
    }

    /// Puts `document` in place of the open map: the editor starts afresh on it, but for the
    /// clipboard, which a paste can lay in the new map (Tiled's copy between maps). It then
    /// holds the old map's tile types, to bring those the new map lacks
    /// ([`crate::core::edit::tile_transfer`]).
    pub(crate) fn replace_document(&mut self, document: Document) {
        self.document = document;
        // A loss agreed to was for the map that was open.
        self.prompts.lossy_save_accepted = None;
        let editor = std::mem::take(&mut self.editor);
        if editor.clipboard.is_some() {
            self.editor.clipboard_from = editor.clipboard_from;
            self.editor.clipboard_elsewhere = true;
            self.editor.clipboard = editor.clipboard;
            self.editor.clipboard_origin = editor.clipboard_origin;
        }
        self.palette.show_first_tileset(&self.document.map);
        self.overlays.map_replaced();
        // A new map: the game restarts on it (if the pane is open).
        self.play.world = None;
        self.view.fit_pending = true;
    }

    /// Goes on with the action held for a save, once no question about the save waits: when
    /// the save was made; otherwise (cancelled, failed, a copy exported instead) the work is
    /// unsaved and the action is dropped, to be asked for again.
    pub(crate) fn settle_after_save(&mut self) {
        if self.prompts.overwrite.is_some() || self.prompts.lossy_save.is_some() {
            return;
        }
        if let Some(action) = self.prompts.after_save.take()
            && !self.document.dirty
        {
            self.proceed(action);
        }
    }

    /// Writes a save made ready: the file becomes the map's own (its name, its saved state).
    pub(crate) fn write_save(&mut self, rendered: &format::Rendered) {
        match rendered.write() {
            Ok(saved) => {
                self.prompts.notice = (!saved.warnings.is_empty()).then(|| saved.warnings.join("; "));
                recovery::remember_recent(&mut self.recent, &rendered.path);
                self.document.saved_as(rendered.path.clone());
                // Saved: the recovery copy is not needed any more.
                if let Some(file) = &self.recovery_file {
                    recovery::clear(file);
                }
            }
            Err(e) => {
                self.prompts.error = Some(ErrorDialog { title: "Cannot save the map".into(), message: e.to_string() })
            }
        }
    }

    /// Writes a copy made ready: a copy in another format, the map keeping its own file and
    /// unsaved state.
    pub(crate) fn write_export(&mut self, rendered: &format::Rendered) {
        match rendered.write() {
            Ok(saved) => {
                let mut notice = format!("exported a copy to {}", rendered.path.display());
                for w in saved.warnings {
                    notice += &format!("; {w}");
                }
                self.prompts.notice = Some(notice);
            }
            Err(e) => {
                self.prompts.error = Some(ErrorDialog { title: "Cannot export the map".into(), message: e.to_string() })
            }
        }
    }

    /// Writes a tileset file; the map's sheets read from it then compare with what it holds.
    pub(crate) fn write_tileset_file(&mut self, write: &format::tileset_file::TilesetFileWrite) {
        match write.write() {
            Ok(()) => {
                self.document.tileset_file_written(&write.path, &write.as_read);
                self.prompts.notice = Some(format!(
                    "saved tileset file {}: every map that uses it reads its tiles as they are here, and a save \
                     of this map refers to it",
                    write.path.display()
                ));
            }
            Err(e) => {
                self.prompts.error =
                    Some(ErrorDialog { title: "Cannot save the tileset".into(), message: e.to_string() })
            }
        }
    }
}
