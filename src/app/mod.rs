//! The egui desktop app. `ui` only draws and collects input as [`Command`]s; `logic` applies
//! them once per frame (each edit one undo step of the [`Document`]) and brings the overlays and
//! the play pane up to date. The rooms are described in ARCHITECTURE.md.

pub mod algorithms;
mod canvas;
mod commands;
mod dialogs;
mod document;
mod editor;
pub mod external;
mod far_colours;
mod keys;
pub mod map_dialogs;
pub mod overlays;
mod panels;
pub mod play;
mod preview;
pub mod recovery;
pub mod sprites;
mod widgets;

pub use canvas::{PointerAction, View};
pub use commands::{
    Command, DrawnLook, FileCommand, HistoryCommand, LayerCommand, MapCommand, NewLayer, ObjectCommand,
    PropertiesOwner, SelectionCommand, TileCommand, ToolCommand, ViewCommand,
};
pub use document::Document;
pub use editor::{
    DEFAULT_OBJECT_TEXT, EditorState, Grip, ObjectChoice, PathEnd, Resize, SelectionDrag, ShapeDraft, Tool,
};
pub use overlays::{OverlayCommand, OverlayKind, Overlays};

use std::path::PathBuf;

use canvas::marks::{ObjectInHand, object_focus, selected_objects};
use commands::{PasteReport, drawn_look};

use crate::core::edit::selection::Selection;
use crate::core::edit::tile_transfer::{TileSource, TileTransfer};
use crate::core::{Cell, TileId, format};

/// What the app opens, as the command line asks.
pub struct AppLaunch {
    /// The map to open (the built-in dungeon when absent).
    pub file: Option<PathBuf>,
    /// Draw this many frames, then close (smoke runs under Xvfb).
    pub frames: Option<u64>,
    /// Overlays to turn on.
    pub overlays: Vec<OverlayKind>,
    /// With `frames`: save the canvas with its overlays as a PNG, then close.
    pub export_png: Option<PathBuf>,
    /// Start in play mode.
    pub play: bool,
    /// Programs to register as algorithms (`--ext NAME=COMMAND`), as the window does; one of
    /// the same name as a saved one replaces it.
    pub externals: Vec<crate::core::ext::ExtSpec>,
}

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
        Box::new(move |cc| {
            let mut app = SightlineApp::new(launch.frames);
            if let Some(storage) = cc.storage {
                app.load_settings(storage);
            }
            for spec in &launch.externals {
                app.overlays.externals.register_for_run(spec);
            }
            // Smoke runs (`--frames`) leave the user's recovery file alone.
            if launch.frames.is_none()
                && let Some(dir) = eframe::storage_dir("sightline")
            {
                app.use_recovery_dir(&dir);
            }
            if let Some(file) = launch.file {
                app.commands.push(Command::File(FileCommand::Open(file)));
            }
            for kind in launch.overlays {
                app.commands.push(Command::Overlay(OverlayCommand::Show(kind, true)));
            }
            app.export_at_exit = launch.export_png;
            if launch.play {
                app.commands.push(Command::Play(play::PlayCommand::SetActive(true)));
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow::anyhow!("cannot start the window: {e}"))
}

/// What a fill preview was computed for: the hovered cell, the map revision, the layer, 8-way,
/// Shift (the whole selection) and the selection.
type FillPreviewKey = ((Cell, u64, usize, bool, bool), Option<Selection>);

/// What the terrain brush's preview was planned for: the hovered cell, the map's revision, the
/// layer, the terrain, the brush size and the random state a click would paint with.
type TerrainPreviewKey = (
    Cell,
    Option<crate::core::edit::terrain::Part>,
    u64,
    usize,
    crate::core::edit::terrain::TerrainBrush,
    u32,
    crate::core::rng::Rng,
);

/// A rectangle of cells: its top-left and bottom-right corners.
type CellSpan = (Cell, Cell);

/// How the stamp being pasted from another map maps into the open map, planned once per map
/// revision (`logic`), for drawing it.
#[derive(Default)]
struct StampTransferCache {
    /// The map's revision, the stamp's source and whether another map has been opened since
    /// the copy, it was planned for.
    key: Option<(u64, std::sync::Arc<TileSource>, bool)>,
    /// Whether the stamp's tile types must be carried over ([`SightlineApp::stamp_needs_transfer`]),
    /// and how (`None` when they cannot be).
    needed: bool,
    transfer: Option<TileTransfer>,
    /// The tile types and sheets the map would have after a paste (a map of one cell), which
    /// the paste's preview draws its tiles with, and their textures (`ui`).
    palette: Option<(std::sync::Arc<crate::core::Map>, Vec<Option<sprites::SheetTexture>>)>,
}

/// Edits that arrive a change a frame (dragging a cost, a radius or an opacity; typing a name or
/// a property's value): while one thing changes with no other edit between, the changes are one
/// undo step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ContinuedEdit {
    TileRules(TileId),
    Object(usize),
    ObjectGeometry(usize),
    Opacity(crate::core::StackItem),
    ObjectLayerColor(usize),
    Look(crate::core::StackItem),
    MapLook,
    /// A drag on the compression level (`true`) or the parallax origin (`false`).
    TiledNumber(bool),
    Properties(PropertiesOwner),
}

/// What waits for an answer to "save the unsaved changes?".
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum PendingAction {
    Open(PathBuf),
    New(map_dialogs::NewMapSpec),
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
    /// Text for the system clipboard, put there in the next frame (`logic` has no context).
    pub(crate) system_clipboard: Option<String>,
    /// What the paste's click, or its drag so far, laid and brought.
    pasted: PasteReport,
    pub overlays: Overlays,
    /// The preview pane and play mode.
    pub play: play::PlayState,
    /// The New map and Resize map dialogs.
    pub dialogs: map_dialogs::MapDialogs,
    minimap: panels::minimap::Minimap,
    sprites: sprites::SpriteTextures,
    /// The map's tileset textures for the frame being drawn (by sheet index).
    sheets: Vec<Option<sprites::SheetTexture>>,
    /// The palette: the tile list or a tileset's image.
    pub palette: panels::tileset::PaletteState,
    /// Files opened or saved lately, newest first (persisted by eframe).
    pub recent: Vec<PathBuf>,
    /// Where unsaved work is autosaved (`None`: no autosave, as in tests that do not set it).
    pub(crate) recovery_file: Option<PathBuf>,
    autosave_timer: f32,
    /// What the last edit that later ones may continue changed, and the revision it left (see
    /// [`ContinuedEdit`]).
    continued: Option<(ContinuedEdit, u64)>,
    /// Commands the UI issued this frame, applied in `logic`.
    pub commands: Vec<Command>,
    /// What the Objects list is filtered by (typed in its field).
    pub object_filter: String,
    pub hovered: Option<crate::core::Cell>,
    /// Shift was held over the canvas last frame (a Shift fill's preview is the selection).
    shift_held: bool,
    /// A PNG export asked for: the screenshot is requested in the next `ui`.
    export_requested: Option<PathBuf>,
    /// A PNG export waiting for its screenshot.
    export_waiting: Option<(PathBuf, std::sync::mpsc::Receiver<std::sync::Arc<egui::ColorImage>>)>,
    /// `--export-png`: exported halfway through the `--frames` run.
    pub(crate) export_at_exit: Option<PathBuf>,
    /// Where the canvas (or the two split canvases) were drawn last frame.
    central_rect: egui::Rect,
    /// Closing was confirmed (or nothing was unsaved): let the window close.
    close_allowed: bool,
    /// Send the close command on the next frame.
    close_now: bool,
    /// `--frames N`: close after N frames (smoke tests).
    exit_after_frames: Option<u64>,
    frames: u64,
    /// The window title last sent (sent again only when it changes: setting it wakes the
    /// window up, which drew the next frame, which set it again).
    window_title: String,
    last_frame_time: f32,
    /// Questions for the user and what the app tells them.
    pub prompts: Prompts,
    /// What is kept from one frame to the next until its key changes.
    caches: Caches,
    /// Which windows are open.
    pub windows: Windows,
}

/// Questions waiting for the user's answer, and what the app has to tell them; each dialog in
/// `dialogs/` draws while its question is here.
#[derive(Default)]
pub struct Prompts {
    /// Work found in a recovery file at start, offered back, and that file.
    pub recovery: Option<recovery::Recovered>,
    recovery_file: Option<PathBuf>,
    /// A save over the map's own file waiting for "drop what sightline does not keep?".
    pub(crate) overwrite: Option<PathBuf>,
    /// A save in a format that holds less than the map, made ready and waiting for "this file
    /// will not keep …" (its warnings).
    pub(crate) lossy_save: Option<format::Rendered>,
    /// The last lossy save the user agreed to, its file and what it did not keep: saving the
    /// same again to the same file asks no more.
    lossy_save_accepted: Option<(PathBuf, Vec<String>)>,
    /// A tileset file write waiting for "writing it loses …" (its concerns).
    pub(crate) tileset_write: Option<format::tileset_file::TilesetFileWrite>,
    pub error: Option<ErrorDialog>,
    /// Warnings of the last load, shown in the status bar.
    pub notice: Option<String>,
    /// An action held back until the user answers the unsaved-changes prompt.
    pub(crate) unsaved: Option<PendingAction>,
    /// The action whose prompt was answered Save, while a question about that save (saving
    /// over what sightline does not keep, a format that holds less) waits: it goes on once
    /// the map is saved, and is dropped when the save is not made.
    after_save: Option<PendingAction>,
}

/// What is derived from the map or the tools and kept until its key (the map's revision, the
/// pointer, the settings) changes.
#[derive(Default)]
pub(crate) struct Caches {
    /// Per sheet, whether a save of the map refers to its tileset file (it is as the file
    /// holds it), for the palette's Save tileset, and the map revision it was worked out for.
    sheets_as_read: (u64, Vec<bool>),
    /// The fill tool's hover preview and what it was computed for.
    fill_preview: Option<(FillPreviewKey, Vec<Cell>)>,
    /// How the stamp being pasted, copied from another map, maps into this one, for drawing
    /// it (see [`StampTransferCache`]).
    stamp_transfer: StampTransferCache,
    /// The terrain brush's hover preview (the tiles a click would put) and its key.
    terrain_preview: Option<(TerrainPreviewKey, Vec<(Cell, TileId)>)>,
    /// The selection as a texture (one texel a cell, or a block of cells on maps wider than a
    /// texture), for the zoomed-out canvas, and the selection it shows.
    selection_picture: Option<(Selection, egui::TextureHandle)>,
}

/// Which windows and panel sections are open.
#[derive(Default)]
pub struct Windows {
    /// The tile-types window is open.
    pub tile_types: bool,
    /// The palette's tile the tile-types window last scrolled to (`None`: it scrolls when next
    /// shown).
    tile_types_shown: Option<crate::core::TileId>,
    /// The Map properties window is open.
    pub map_properties: bool,
    /// The History section is to be opened and scrolled to on the next frame (Edit › History).
    pub(crate) reveal_history: bool,
}

impl SightlineApp {
    /// The app on the built-in default map.
    pub fn new(exit_after_frames: Option<u64>) -> Self {
        Self {
            document: Document::untitled(
                crate::core::format::samples::default_map().expect("the built-in map is valid (tested)"),
                crate::core::format::samples::DEFAULT_MAP_NAME,
            ),
            view: View::default(),
            editor: EditorState::default(),
            system_clipboard: None,
            pasted: Default::default(),
            overlays: Overlays::default(),
            play: play::PlayState::default(),
            dialogs: map_dialogs::MapDialogs::default(),
            minimap: panels::minimap::Minimap::default(),
            sprites: sprites::SpriteTextures::default(),
            sheets: Vec::new(),
            palette: panels::tileset::PaletteState::default(),
            recent: Vec::new(),
            recovery_file: None,
            autosave_timer: 0.0,
            continued: None,
            commands: Vec::new(),
            object_filter: String::new(),
            hovered: None,
            shift_held: false,
            export_requested: None,
            export_waiting: None,
            central_rect: egui::Rect::NOTHING,
            export_at_exit: None,
            close_allowed: false,
            close_now: false,
            exit_after_frames,
            frames: 0,
            window_title: String::new(),
            last_frame_time: 0.0,
            prompts: Prompts::default(),
            caches: Caches::default(),
            windows: Windows::default(),
        }
    }

    /// Applies the commands queued by the last `ui` pass.
    pub(crate) fn apply_commands(&mut self) {
        for command in std::mem::take(&mut self.commands) {
            self.apply(command);
        }
        self.settle_after_save();
        // A resize, or an undo of one, leaves the selection the cells the map still has.
        let map = &self.document.map;
        if let Some(s) = &self.editor.selection
            && (s.width(), s.height()) != (map.width(), map.height())
        {
            self.editor.selection = Some(s.sized(map.width(), map.height())).filter(|s| !s.is_empty());
        }
    }

    /// Sends the window's title (the file's name, marked while unsaved) when it changes, and
    /// only then: setting it wakes the window, so sending it every frame drew frames without end,
    /// two cores busy while nothing happened.
    pub fn window_title_frame(&mut self, ctx: &egui::Context) {
        let title = format!("{}{} — sightline", if self.document.dirty { "● " } else { "" }, self.document.file_name());
        if title != self.window_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.window_title = title;
        }
    }

    /// What eframe's `logic` does each frame: apply the commands, then bring the overlays up to
    /// date with the map (`dt`: seconds since the last frame, for the step playback).
    pub fn logic_frame(&mut self, dt: f32) {
        self.apply_commands();
        self.update_fill_preview();
        self.update_terrain_preview();
        self.update_stamp_transfer();
        self.autosave_timer += dt;
        if self.autosave_timer >= recovery::AUTOSAVE_SECONDS {
            self.autosave_now();
        }
        self.overlays.update(&self.document.map, self.document.revision(), self.hovered, dt);
        self.play.update(&self.document.map, self.document.revision(), dt, &mut self.overlays.externals);
    }

    /// Waits for the overlays' background work and takes its results (tests, headless runs).
    pub fn wait_for_overlays(&mut self) {
        self.overlays.wait_for_jobs(&self.document.map, self.document.revision());
    }

    /// Per sheet, whether a save of the map refers to its tileset file (see
    /// [`format::sheets_as_read`]), worked out once per map revision.
    pub(crate) fn sheets_as_read(&mut self) -> &[bool] {
        let revision = self.document.revision();
        if self.caches.sheets_as_read.0 != revision {
            let (links, _) = format::sheets_as_read(&self.document.map);
            self.caches.sheets_as_read = (revision, links);
        }
        &self.caches.sheets_as_read.1
    }

    /// Finds this frame's textures of the map's tileset images (`None` where one could not be
    /// loaded; the status bar says why, once), for every panel that draws tiles.
    fn refresh_sheet_textures(&mut self, ctx: &egui::Context) {
        // Tileset images are found beside the map file (or the working folder for a new map).
        let folder = self.document.path.as_deref().and_then(|p| p.parent()).unwrap_or(std::path::Path::new("."));
        let (sheets, mut errors) = self.sprites.sheets(ctx, &self.document.map, folder);
        // Those of a paste from another map too (loaded once each, as the map's are).
        if let Some((palette, textures)) = &mut self.caches.stamp_transfer.palette {
            let (loaded, more) = self.sprites.sheets(ctx, palette, folder);
            (*textures, errors) = (loaded, [errors, more].concat());
        }
        if !errors.is_empty() {
            self.prompts.notice = Some(format!("tile images not shown: {}", errors.join("; ")));
        }
        self.sheets = sheets;
    }

    /// Asks for a screenshot when an export is requested, and saves the canvas part of it when it
    /// arrives (a frame or two later).
    fn export_ui(&mut self, ui: &mut egui::Ui) {
        if let Some(path) = self.export_requested.take() {
            let (sender, receiver) = std::sync::mpsc::channel();
            let ctx = ui.ctx().clone();
            ui.ctx().request_screenshot(move |image| {
                let _ = sender.send(image);
                ctx.request_repaint();
            });
            self.export_waiting = Some((path, receiver));
        }
        let Some((_, receiver)) = &self.export_waiting else { return };
        let Ok(image) = receiver.try_recv() else { return };
        let (path, _) = self.export_waiting.take().expect("checked above");
        let canvas = image.region(&self.central_rect, Some(ui.ctx().pixels_per_point()));
        let rgb: Vec<u8> = canvas.pixels.iter().flat_map(|p| [p.r(), p.g(), p.b()]).collect();
        let png = format::encode_png_rgb(canvas.size[0] as u32, canvas.size[1] as u32, &rgb);
        match png.and_then(|png| format::write_atomic(&path, &png)) {
            Ok(()) => self.prompts.notice = Some(format!("exported {}", path.display())),
            Err(e) => {
                self.prompts.error = Some(ErrorDialog { title: "Cannot export the PNG".into(), message: e.to_string() })
            }
        }
    }

    /// Draws the whole window into `ui`.
    pub fn ui_frame(&mut self, ui: &mut egui::Ui) {
        let started = std::time::Instant::now();
        // What a copy took goes on the system clipboard too, as text. Besides being readable
        // elsewhere, this keeps Ctrl+V working: egui-winit sends no key for Ctrl+V, only a
        // paste event, and that only when the system clipboard holds something.
        if let Some(text) = self.system_clipboard.take() {
            ui.ctx().copy_text(text);
        }
        // The map does not change while the frame is drawn: commands apply in `logic`.
        self.refresh_sheet_textures(ui.ctx());
        panels::menu_bar::menu_bar_ui(self, ui);
        panels::tools_bar::tools_bar_ui(self, ui);
        panels::status_bar::status_bar_ui(self, ui);
        panels::palette::palette_ui(self, ui);
        panels::side_panel::side_panel_ui(self, ui);
        if self.play.pane_open {
            let mut commands = Vec::new();
            let images = play::TileImages {
                sheets: &self.sheets,
                shown: self.view.show_sprites,
                animate: self.view.animate_tiles,
            };
            egui::Panel::right("play_pane")
                .default_size(460.0)
                .show(ui, |ui| self.play.pane_ui(ui, &mut commands, &images, &self.overlays.externals));
            self.commands.extend(commands);
        }
        // In play mode the keyboard drives the game, not the canvas or the tools.
        self.view.keyboard = !self.play.active;
        let mut commands = Vec::new();
        self.play.keys_ui(ui, &mut commands);
        self.commands.extend(commands);
        self.central_ui(ui);
        self.export_ui(ui);
        panels::tile_types::tile_types_window_ui(self, ui);
        panels::properties::map_properties_window_ui(self, ui);
        external::external_window_ui(self, ui);
        map_dialogs::map_dialogs_ui(self, ui);
        dialogs::error::error_dialog_ui(self, ui);
        dialogs::unsaved_changes::unsaved_changes_ui(self, ui);
        dialogs::overwrite::overwrite_ui(self, ui);
        dialogs::lossy_save::lossy_save_ui(self, ui);
        dialogs::tileset_write::tileset_write_ui(self, ui);
        dialogs::recovery::recovery_ui(self, ui);
        keys::shortcuts(self, ui);
        self.last_frame_time = started.elapsed().as_secs_f32();
    }
}

/// The eframe storage key of the recent-files list.
const RECENT_KEY: &str = "sightline.recent";
/// The eframe storage key of the programs registered as algorithms.
const EXTERNALS_KEY: &str = "sightline.externals";

impl SightlineApp {
    /// What the app keeps between runs: the recent files and the registered programs. A value
    /// that cannot be read (a file edited by hand, an older sightline's) is left out.
    pub fn load_settings(&mut self, storage: &dyn eframe::Storage) {
        self.recent = eframe::get_value(storage, RECENT_KEY).unwrap_or_default();
        let records: Vec<external::ExtRecord> = eframe::get_value(storage, EXTERNALS_KEY).unwrap_or_default();
        self.overlays.externals = external::Externals::from_records(&records);
    }
}

impl eframe::App for SightlineApp {
    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, RECENT_KEY, &self.recent);
        eframe::set_value(storage, EXTERNALS_KEY, &self.overlays.externals.records());
    }

    fn on_exit(&mut self) {
        // A clean exit: nothing unsaved was kept without the user saying so. (A left-over file
        // not answered yet stays for next time.)
        if let Some(file) = &self.recovery_file
            && Some(file) != self.prompts.recovery_file.as_ref()
        {
            recovery::clear(file);
        }
    }

    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.logic_frame(ctx.input(|i| i.stable_dt).min(0.25));
        if self.overlays.busy() || self.play.busy() {
            ctx.request_repaint();
        } else if self.document.dirty && self.recovery_file.is_some() {
            // Unsaved work is autosaved even when nothing else draws a frame.
            ctx.request_repaint_after(std::time::Duration::from_secs_f32(recovery::AUTOSAVE_SECONDS));
        }
        self.window_title_frame(ctx);
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        // Closing the window over unsaved changes asks first.
        if ui.ctx().input(|i| i.viewport().close_requested()) && !self.close_allowed && self.document.dirty {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.prompts.unsaved = Some(PendingAction::Quit);
        }
        if std::mem::take(&mut self.close_now) {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.ui_frame(ui);
        self.frames += 1;
        if let Some(n) = self.exit_after_frames {
            if self.frames == n / 2
                && let Some(path) = self.export_at_exit.take()
            {
                self.commands.push(Command::File(FileCommand::ExportPng(path)));
            }
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
