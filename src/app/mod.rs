//! The egui desktop app. It reads the core and sends [`Command`]s; `logic` applies them once per
//! frame (that is where undo will live), `ui` only draws and collects input.

mod canvas;
mod command;
mod document;
mod panels;

pub use canvas::View;
pub use command::Command;
pub use document::Document;

use std::path::PathBuf;

use crate::cli::AppLaunch;
use crate::core::format;

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

/// A message shown in a dialog until dismissed.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorDialog {
    pub title: String,
    pub message: String,
}

pub struct SightlineApp {
    pub document: Document,
    pub view: View,
    /// Commands the UI issued this frame, applied in `logic`.
    pub commands: Vec<Command>,
    pub error: Option<ErrorDialog>,
    /// Warnings of the last load, shown in the status bar.
    pub notice: Option<String>,
    pub hovered: Option<crate::core::Cell>,
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
            commands: Vec::new(),
            error: None,
            notice: None,
            hovered: None,
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
            Command::Open(path) => match format::load(&path) {
                Ok(loaded) => {
                    self.notice = (!loaded.warnings.is_empty()).then(|| loaded.warnings.join("; "));
                    self.document = Document::open(loaded.map, path);
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
            Command::PickOpen => {
                if let Some(path) = file_dialog().pick_file() {
                    self.apply(Command::Open(path));
                }
            }
            Command::PickSaveAs => {
                if let Some(path) = file_dialog().set_file_name(self.document.file_name()).save_file() {
                    self.apply(Command::SaveAs(path));
                }
            }
            Command::FitView => self.view.fit_pending = true,
            Command::ToggleGrid => self.view.show_grid = !self.view.show_grid,
            Command::ZoomBy(factor) => self.view.zoom_about_centre(factor),
            Command::DismissError => self.error = None,
        }
    }

    /// Draws the whole window into `ui`.
    pub fn ui_frame(&mut self, ui: &mut egui::Ui) {
        let started = std::time::Instant::now();
        panels::menu_bar_ui(self, ui);
        panels::status_bar_ui(self, ui);
        panels::inspector_ui(self, ui);
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
            let response = canvas::canvas_ui(ui, &self.document.map, &mut self.view);
            self.hovered = response.hovered;
            if let Some(path) = response.dropped_file {
                self.commands.push(Command::Open(path));
            }
        });
        panels::error_dialog_ui(self, ui);
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
