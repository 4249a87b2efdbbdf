//! The egui desktop app. It reads the core and sends [`Command`]s; `logic` applies them once per
//! frame (that is where undo will live), `ui` only draws and collects input.

mod canvas;
mod command;
mod document;
mod editor;
mod panels;

pub use canvas::{PointerAction, View};
pub use command::Command;
pub use document::Document;
pub use editor::{EditorState, Tool};

use std::path::PathBuf;

use crate::cli::AppLaunch;
use crate::core::{Cell, format};

/// Starts the native window.
pub fn run(launch: AppLaunch) -> anyhow::Result<()> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("sightline")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 400.0])
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native(
        "sightline",
        options,
        Box::new(move |_cc| {
            let mut app = SightlineApp::new(launch.frames);
            if let Some(file) = launch.file {
                app.commands.push(Command::Open(file));
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow::anyhow!("cannot start the window: {e}"))
}

/// What waits for an answer to "save the unsaved changes?".
#[derive(Clone, Debug, PartialEq)]
pub enum PendingAction {
    Open(PathBuf),
    PickOpen,
    Quit,
}

/// A message shown in a dialog until dismissed.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorDialog {
    pub title: String,
    pub message: String,
}

pub struct SightlineApp {
    pub document: Document,
    pub view: View,
    pub editor: EditorState,
    /// Commands the UI issued this frame, applied in `logic`.
    pub commands: Vec<Command>,
    pub error: Option<ErrorDialog>,
    /// Warnings of the last load, shown in the status bar.
    pub notice: Option<String>,
    pub hovered: Option<crate::core::Cell>,
    /// An action held back until the user answers the unsaved-changes prompt.
    pub confirm: Option<PendingAction>,
    /// Closing was confirmed (or nothing was unsaved): let the window close.
    close_allowed: bool,
    /// Send the close command on the next frame.
    close_now: bool,
    /// `--frames N`: close after N frames (smoke tests).
    exit_after_frames: Option<u64>,
    frames: u64,
    last_frame_time: f32,
}

impl SightlineApp {
    /// The app on the built-in default map.
    pub fn new(exit_after_frames: Option<u64>) -> Self {
        Self {
            document: Document::untitled(crate::cli::default_map(), crate::core::samples::DEFAULT_MAP_NAME),
            view: View::default(),
            editor: EditorState::default(),
            commands: Vec::new(),
            error: None,
            notice: None,
            hovered: None,
            confirm: None,
            close_allowed: false,
            close_now: false,
            exit_after_frames,
            frames: 0,
            last_frame_time: 0.0,
        }
    }

    /// Applies the commands queued by the last `ui` pass.
    pub fn apply_commands(&mut self) {
        for command in std::mem::take(&mut self.commands) {
            self.apply(command);
        }
    }

    fn apply(&mut self, command: Command) {
        match command {
            Command::Open(path) => self.request(PendingAction::Open(path)),
            Command::PickOpen => self.request(PendingAction::PickOpen),
            Command::Quit => self.request(PendingAction::Quit),
            Command::ConfirmSave => {
                let Some(action) = self.confirm.take() else { return };
                match self.document.path.clone() {
                    Some(path) => self.apply(Command::SaveAs(path)),
                    None => self.apply(Command::PickSaveAs),
                }
                // Go on only if the save happened (a failed or cancelled save keeps the work).
                if !self.document.dirty {
                    self.proceed(action);
                }
            }
            Command::ConfirmDiscard => {
                if let Some(action) = self.confirm.take() {
                    self.proceed(action);
                }
            }
            Command::ConfirmCancel => self.confirm = None,
            Command::OpenNow(path) => match format::load(&path) {
                Ok(loaded) => {
                    self.notice = (!loaded.warnings.is_empty()).then(|| loaded.warnings.join("; "));
                    self.document = Document::open(loaded.map, path);
                    self.editor = EditorState::default();
                    self.view.fit_pending = true;
                }
                Err(e) => {
                    // The open map stays as it was.
                    self.error = Some(ErrorDialog { title: "Cannot open the map".into(), message: e.to_string() });
                }
            },
            Command::SaveAs(path) => match format::save(&self.document.map, &path) {
                Ok(saved) => {
                    self.notice = (!saved.warnings.is_empty()).then(|| saved.warnings.join("; "));
                    self.document.saved_as(path);
                }
                Err(e) => {
                    self.error = Some(ErrorDialog { title: "Cannot save the map".into(), message: e.to_string() })
                }
            },
            Command::Save => match self.document.path.clone() {
                Some(path) => self.apply(Command::SaveAs(path)),
                None => self.commands.push(Command::PickSaveAs),
            },
            Command::PickSaveAs => {
                if let Some(path) = file_dialog().set_file_name(self.document.file_name()).save_file() {
                    self.apply(Command::SaveAs(path));
                }
            }
            Command::FitView => self.view.fit_pending = true,
            Command::ToggleGrid => self.view.show_grid = !self.view.show_grid,
            Command::ZoomBy(factor) => self.view.zoom_about_centre(factor),
            Command::DismissError => self.error = None,
            Command::SelectTool(tool) => self.editor.tool = tool,
            Command::SelectTile(tile) => {
                if usize::from(tile) < self.document.map.tiles.len() {
                    self.editor.tile = tile;
                    if self.editor.tool == Tool::Eraser || self.editor.tool == Tool::Picker {
                        self.editor.tool = Tool::Brush;
                    }
                }
            }
            Command::SelectLayer(layer) => {
                if layer < self.document.map.layers.len() {
                    self.editor.layer = layer;
                }
            }
            Command::PickAt(cell) => {
                if let Some((_, tile)) = self.document.map.top_tile(cell) {
                    self.editor.tile = tile;
                }
            }
            Command::StrokeBegin(cell) => {
                if self.editor.tool == Tool::Picker {
                    self.apply(Command::PickAt(cell));
                    return;
                }
                self.document.checkpoint();
                self.editor.stroke = Some((cell, cell));
                if matches!(self.editor.tool, Tool::Brush | Tool::Eraser | Tool::Fill) {
                    self.paint_shape(cell, cell);
                }
            }
            Command::StrokeMove(cell) => {
                let Some((start, last)) = self.editor.stroke else { return };
                if cell == last {
                    return;
                }
                if matches!(self.editor.tool, Tool::Brush | Tool::Eraser) {
                    // Every cell between the last one and this: a fast pointer leaves no gaps.
                    let cells = crate::core::edit::line_cells(last, cell);
                    let tile = self.editor.paint_tile();
                    if crate::core::edit::paint(&mut self.document.map, self.editor.layer, &cells, tile) > 0 {
                        self.document.dirty = true;
                    }
                }
                self.editor.stroke = Some((start, cell));
            }
            Command::StrokeEnd => {
                let Some((start, last)) = self.editor.stroke.take() else { return };
                if matches!(self.editor.tool, Tool::Rectangle | Tool::Line) {
                    self.paint_shape(start, last);
                }
                // A stroke that changed nothing leaves no undo step.
                if self.document.undo.last() == Some(&self.document.map) {
                    self.document.drop_checkpoint();
                }
            }
            Command::Undo => {
                self.editor.stroke = None;
                self.document.undo();
            }
            Command::Redo => {
                self.editor.stroke = None;
                self.document.redo();
            }
        }
    }

    /// Runs `action` at once, or holds it for the unsaved-changes prompt.
    fn request(&mut self, action: PendingAction) {
        if self.document.dirty {
            self.confirm = Some(action);
        } else {
            self.proceed(action);
        }
    }

    fn proceed(&mut self, action: PendingAction) {
        match action {
            PendingAction::Open(path) => self.apply(Command::OpenNow(path)),
            PendingAction::PickOpen => {
                if let Some(path) = file_dialog().pick_file() {
                    self.apply(Command::OpenNow(path));
                }
            }
            PendingAction::Quit => {
                self.close_allowed = true;
                self.close_now = true;
            }
        }
    }

    /// Paints the current tool's shape from `start` to `end` with its tile.
    fn paint_shape(&mut self, start: Cell, end: Cell) {
        let cells = self.editor.shape(&self.document.map, start, end);
        let tile = self.editor.paint_tile();
        if crate::core::edit::paint(&mut self.document.map, self.editor.layer, &cells, tile) > 0 {
            self.document.dirty = true;
        }
    }

    /// The cells the stroke in progress would paint, drawn over the canvas.
    fn preview(&self) -> Vec<Cell> {
        match self.editor.stroke {
            Some((start, last)) if matches!(self.editor.tool, Tool::Rectangle | Tool::Line) => {
                self.editor.shape(&self.document.map, start, last)
            }
            _ => Vec::new(),
        }
    }

    /// Draws the whole window into `ui`.
    pub fn ui_frame(&mut self, ui: &mut egui::Ui) {
        let started = std::time::Instant::now();
        panels::menu_bar_ui(self, ui);
        panels::tools_bar_ui(self, ui);
        panels::status_bar_ui(self, ui);
        panels::palette_ui(self, ui);
        panels::inspector_ui(self, ui);
        let preview = self.preview();
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
            let response = canvas::canvas_ui(ui, &self.document.map, &mut self.view, &preview);
            self.hovered = response.hovered;
            if let Some(path) = response.dropped_file {
                self.commands.push(Command::Open(path));
            }
            match response.pointer {
                Some(PointerAction::Pressed { origin, current }) => {
                    self.commands.extend([Command::StrokeBegin(origin), Command::StrokeMove(current)]);
                }
                Some(PointerAction::Dragged(c)) => self.commands.push(Command::StrokeMove(c)),
                Some(PointerAction::Released) => self.commands.push(Command::StrokeEnd),
                Some(PointerAction::Clicked(c)) => {
                    self.commands.extend([Command::StrokeBegin(c), Command::StrokeEnd]);
                }
                Some(PointerAction::SecondaryClicked(c)) => self.commands.push(Command::PickAt(c)),
                None => {}
            }
        });
        panels::error_dialog_ui(self, ui);
        panels::unsaved_changes_ui(self, ui);
        panels::shortcuts(self, ui);
        self.last_frame_time = started.elapsed().as_secs_f32();
    }
}

fn file_dialog() -> rfd::FileDialog {
    let mut dialog = rfd::FileDialog::new().add_filter(
        "Maps",
        &format::Format::ALL.iter().flat_map(|f| f.extensions().iter().copied()).collect::<Vec<_>>(),
    );
    for f in format::Format::ALL {
        dialog = dialog.add_filter(f.name(), f.extensions());
    }
    dialog
}

impl eframe::App for SightlineApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.apply_commands();
        let title = format!("{}{} — sightline", if self.document.dirty { "● " } else { "" }, self.document.file_name());
        ctx.send_viewport_cmd(egui::ViewportCommand::Title(title));
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        // Closing the window over unsaved changes asks first.
        if ui.ctx().input(|i| i.viewport().close_requested()) && !self.close_allowed && self.document.dirty {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.confirm = Some(PendingAction::Quit);
        }
        if std::mem::take(&mut self.close_now) {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.ui_frame(ui);
        self.frames += 1;
        if let Some(n) = self.exit_after_frames {
            if self.frames == n {
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            } else {
                ui.ctx().request_repaint();
            }
        }
    }
}

/// Paths dropped onto the window, first one only.
pub(crate) fn dropped_path(ctx: &egui::Context) -> Option<PathBuf> {
    ctx.input(|i| i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).find(|p| !p.as_os_str().is_empty()))
}
