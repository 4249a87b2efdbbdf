//! The egui desktop app. It reads the core and sends [`Command`]s; `logic` applies them once per
//! frame (that is where undo will live), `ui` only draws and collects input.

mod algorithms;
mod canvas;
mod commands;
mod document;
mod editor;
mod far_colours;
mod history;
mod layers_panel;
pub mod map_dialogs;
mod minimap;
mod objects_panel;
pub mod overlays;
mod panels;
pub mod play;
mod properties_editor;
pub mod recovery;
pub mod sprites;
mod terrains_panel;
mod tile_types;
pub mod tileset_view;

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

use crate::core::edit::selection::Selection;
use crate::core::edit::tile_transfer::{TileSource, TileTransfer};
use crate::core::model::layers;
use crate::core::{Cell, LayerRef, StackItem, TileId, format};

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
                app.recent = eframe::get_value(storage, RECENT_KEY).unwrap_or_default();
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

/// What a paste's click, or its drag so far, laid and brought, for the status bar.
#[derive(Default)]
struct PasteReport {
    /// What it laid of the stamp's objects.
    objects: crate::core::edit::PastedObjects,
    /// The object layer they went on.
    layer: String,
    /// The tile types it brought from the map the stamp was copied from, but for those that
    /// came with a tileset (a sprite sheet, its name and how many types came with it).
    tiles: Vec<String>,
    sheets: Vec<(String, usize)>,
}

impl PasteReport {
    /// The notice: what a paste of objects laid and left out (`inside`: a selection kept
    /// them in), and what any paste brought; `None` for tiles that brought nothing.
    fn said(&self, objects: bool, inside: bool) -> Option<String> {
        let mut said = Vec::new();
        if objects {
            let (pasted, name) = (&self.objects, &self.layer);
            said.push(match pasted.ids.as_slice() {
                [] => "nothing pasted".to_owned(),
                [id] => format!("pasted object #{id} on \"{name}\""),
                ids => format!("pasted {} objects on \"{name}\"", ids.len()),
            });
            if pasted.outside > 0 {
                let place = if inside { "off the map or the selection" } else { "off the map" };
                said.push(format!("{} {place} left out", pasted.outside));
            }
            if pasted.player_start_left_out {
                said.push("the player start left out: the map has one".into());
            }
        }
        let types = |n: usize| if n == 1 { "1 tile type".to_owned() } else { format!("{n} tile types") };
        for (sheet, n) in &self.sheets {
            said.push(format!("added tileset {sheet} and its {}", types(*n)));
        }
        if !self.tiles.is_empty() {
            let shown: Vec<&str> = self.tiles.iter().take(4).map(String::as_str).collect();
            let more = self.tiles.len() - shown.len();
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            said.push(format!("added {} this map lacked ({}{more})", types(self.tiles.len()), shown.join(", ")));
        }
        (!said.is_empty()).then(|| said.join("; "))
    }
}

/// Where the stamp being pasted goes (see [`SightlineApp::stamp_target`]).
#[derive(Clone, Copy, Debug)]
enum StampTarget {
    Tiles(usize),
    Objects(Option<usize>),
}

/// Edits that arrive a change a frame (dragging a cost, a radius or an opacity; typing a name or
/// a property's value): while one thing changes with no other edit between, the changes are one
/// undo step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ContinuedEdit {
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
pub enum PendingAction {
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
    pub system_clipboard: Option<String>,
    /// What the paste's click, or its drag so far, laid and brought.
    pasted: PasteReport,
    pub overlays: Overlays,
    /// The preview pane and play mode.
    pub play: play::PlayState,
    /// The tile-types window is open.
    pub tile_types_open: bool,
    /// The palette's tile the tile-types window last scrolled to (`None`: it scrolls when next
    /// shown).
    tile_types_shown: Option<crate::core::TileId>,
    /// The New map and Resize map dialogs.
    pub dialogs: map_dialogs::MapDialogs,
    minimap: minimap::Minimap,
    sprites: sprites::SpriteTextures,
    /// The map's tileset textures for the frame being drawn (by sheet index).
    sheets: Vec<Option<sprites::SheetTexture>>,
    /// The palette: the tile list or a tileset's image.
    pub palette: tileset_view::PaletteState,
    /// Files opened or saved lately, newest first (persisted by eframe).
    pub recent: Vec<PathBuf>,
    /// Where unsaved work is autosaved (`None`: no autosave, as in tests that do not set it).
    pub recovery_file: Option<PathBuf>,
    /// Work found in a recovery file at start, offered back, and that file.
    pub recovery_offer: Option<recovery::Recovered>,
    recovery_offer_file: Option<PathBuf>,
    autosave_timer: f32,
    /// What the last edit that later ones may continue changed, and the revision it left (see
    /// [`ContinuedEdit`]).
    continued: Option<(ContinuedEdit, u64)>,
    /// A save over the map's own file waiting for "drop what sightline does not keep?".
    pub confirm_overwrite: Option<PathBuf>,
    /// A save in a format that holds less than the map, made ready and waiting for "this file
    /// will not keep …" (its warnings).
    pub confirm_lossy_save: Option<format::Rendered>,
    /// The last lossy save the user agreed to, its file and what it did not keep: saving the
    /// same again to the same file asks no more.
    lossy_save_accepted: Option<(PathBuf, Vec<String>)>,
    /// A tileset file write waiting for "writing it loses …" (its concerns).
    pub confirm_tileset_write: Option<format::tileset_file::TilesetFileWrite>,
    /// Per sheet, whether a save of the map refers to its tileset file (it is as the file
    /// holds it), for the palette's Save tileset, and the map revision it was worked out for.
    sheets_as_read: (u64, Vec<bool>),
    /// The Map properties window is open.
    pub map_properties_open: bool,
    /// The History section is to be opened and scrolled to on the next frame (Edit › History).
    pub reveal_history: bool,
    /// The fill tool's hover preview and what it was computed for.
    fill_preview: Option<(FillPreviewKey, Vec<Cell>)>,
    /// How the stamp being pasted, copied from another map, maps into this one, for drawing
    /// it (see [`StampTransferCache`]).
    stamp_transfer: StampTransferCache,
    /// The terrain brush's hover preview (the tiles a click would put) and its key.
    terrain_preview: Option<(TerrainPreviewKey, Vec<(Cell, TileId)>)>,
    /// Commands the UI issued this frame, applied in `logic`.
    pub commands: Vec<Command>,
    pub error: Option<ErrorDialog>,
    /// Warnings of the last load, shown in the status bar.
    pub notice: Option<String>,
    /// What the Objects list is filtered by (typed in its field).
    pub object_filter: String,
    pub hovered: Option<crate::core::Cell>,
    /// The selection as a texture (one texel a cell, or a block of cells on maps wider than a
    /// texture), for the zoomed-out canvas, and the selection it shows.
    selection_picture: Option<(Selection, egui::TextureHandle)>,
    /// Shift was held over the canvas last frame (a Shift fill's preview is the selection).
    shift_held: bool,
    /// An action held back until the user answers the unsaved-changes prompt.
    pub confirm: Option<PendingAction>,
    /// The action whose prompt was answered Save, while a question about that save (saving
    /// over what sightline does not keep, a format that holds less) waits: it goes on once
    /// the map is saved, and is dropped when the save is not made.
    after_save: Option<PendingAction>,
    /// A PNG export asked for: the screenshot is requested in the next `ui`.
    export_requested: Option<PathBuf>,
    /// A PNG export waiting for its screenshot.
    export_waiting: Option<(PathBuf, std::sync::mpsc::Receiver<std::sync::Arc<egui::ColorImage>>)>,
    /// `--export-png`: exported halfway through the `--frames` run.
    pub export_at_exit: Option<PathBuf>,
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
            tile_types_open: false,
            tile_types_shown: None,
            dialogs: map_dialogs::MapDialogs::default(),
            minimap: minimap::Minimap::default(),
            sprites: sprites::SpriteTextures::default(),
            sheets: Vec::new(),
            palette: tileset_view::PaletteState::default(),
            recent: Vec::new(),
            recovery_file: None,
            recovery_offer: None,
            recovery_offer_file: None,
            autosave_timer: 0.0,
            fill_preview: None,
            stamp_transfer: StampTransferCache::default(),
            terrain_preview: None,
            continued: None,
            map_properties_open: false,
            reveal_history: false,
            confirm_overwrite: None,
            confirm_lossy_save: None,
            lossy_save_accepted: None,
            after_save: None,
            confirm_tileset_write: None,
            sheets_as_read: (0, Vec::new()),
            commands: Vec::new(),
            error: None,
            notice: None,
            object_filter: String::new(),
            hovered: None,
            shift_held: false,
            selection_picture: None,
            confirm: None,
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
        }
    }

    /// Makes `selection` the selection, as one undo step (none when it is the same).
    fn select(&mut self, selection: Option<Selection>) {
        let before = std::mem::replace(&mut self.editor.selection, selection);
        self.document.selection_changed(before, &self.editor.selection);
    }

    /// Applies the commands queued by the last `ui` pass.
    pub fn apply_commands(&mut self) {
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

    /// Autosaves to this instance's own file in `dir` from now on, and offers back the newest
    /// file a crashed session left there.
    pub fn use_recovery_dir(&mut self, dir: &std::path::Path) {
        if let Some(found) = recovery::left_over(dir) {
            self.offer_recovery(found);
        }
        self.recovery_file = Some(recovery::session_file(dir));
    }

    /// Autosaves to `file` from now on, and offers back what is in it (tests; one instance).
    pub fn use_recovery_file(&mut self, file: PathBuf) {
        self.offer_recovery(file.clone());
        self.recovery_file = Some(file);
    }

    fn offer_recovery(&mut self, file: PathBuf) {
        match recovery::load(&file) {
            Some(Ok(found)) => {
                self.recovery_offer = Some(found);
                self.recovery_offer_file = Some(file);
            }
            Some(Err(e)) => {
                self.notice = Some(format!("the recovery file could not be read and was set aside: {e}"));
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
        if self.recovery_offer.is_some() && self.recovery_offer_file.as_ref() == Some(file) {
            return;
        }
        // Nothing unsaved (saved, or undone back to the file): no copy to keep, and an older
        // one would offer back edits the user took back.
        if !self.document.dirty {
            recovery::clear(file);
            return;
        }
        if let Err(e) = recovery::autosave(file, &self.document.map, self.document.path.as_deref()) {
            self.notice = Some(format!("autosave failed: {e}"));
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
        self.play.update(&self.document.map, self.document.revision(), dt);
    }

    /// Waits for the overlays' background work and takes its results (tests, headless runs).
    pub fn wait_for_overlays(&mut self) {
        self.overlays.wait_for_jobs(&self.document.map, self.document.revision());
    }

    /// Writes a tileset file; the map's sheets read from it then compare with what it holds.
    fn write_tileset_file(&mut self, write: &format::tileset_file::TilesetFileWrite) {
        match write.write() {
            Ok(()) => {
                self.document.tileset_file_written(&write.path, &write.as_read);
                self.notice = Some(format!(
                    "saved tileset file {}: every map that uses it reads its tiles as they are here, and a save \
                     of this map refers to it",
                    write.path.display()
                ));
            }
            Err(e) => {
                self.error = Some(ErrorDialog { title: "Cannot save the tileset".into(), message: e.to_string() })
            }
        }
    }

    /// Per sheet, whether a save of the map refers to its tileset file (see
    /// [`format::tiled_common::sheets_as_read`]), worked out once per map revision.
    pub fn sheets_as_read(&mut self) -> &[bool] {
        let revision = self.document.revision();
        if self.sheets_as_read.0 != revision {
            let (links, _) = format::tiled_common::sheets_as_read(&self.document.map);
            self.sheets_as_read = (revision, links);
        }
        &self.sheets_as_read.1
    }

    /// Finds this frame's textures of the map's tileset images (`None` where one could not be
    /// loaded; the status bar says why, once), for every panel that draws tiles.
    fn refresh_sheet_textures(&mut self, ctx: &egui::Context) {
        // Tileset images are found beside the map file (or the working folder for a new map).
        let folder = self.document.path.as_deref().and_then(|p| p.parent()).unwrap_or(std::path::Path::new("."));
        let (sheets, mut errors) = self.sprites.sheets(ctx, &self.document.map, folder);
        // Those of a paste from another map too (loaded once each, as the map's are).
        if let Some((palette, textures)) = &mut self.stamp_transfer.palette {
            let (loaded, more) = self.sprites.sheets(ctx, palette, folder);
            (*textures, errors) = (loaded, [errors, more].concat());
        }
        if !errors.is_empty() {
            self.notice = Some(format!("tile images not shown: {}", errors.join("; ")));
        }
        self.sheets = sheets;
    }

    /// The map canvas (two, side by side, when the pathfinding overlay splits it) with the
    /// overlays; the rest of the window is drawn around it by [`SightlineApp::ui_frame`].
    pub fn central_ui(&mut self, ui: &mut egui::Ui) {
        let preview = self.preview();
        self.update_selection_picture(ui.ctx());
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
            self.central_rect = ui.max_rect();
            let revision = self.document.revision();
            let draft_shift = self.new_object_shift();
            let pasted = self.pasted_objects_preview();
            let sheets = &self.sheets;
            let map = &self.document.map;
            let overlays = &self.overlays;
            let view = &mut self.view;
            let selection = self.editor.selection.as_ref();
            let draft = self.editor.shape_draft.as_ref().map(|d| (d, self.editor.object));
            let focus = object_focus(&self.editor, map);
            let selected = selected_objects(&self.editor, map);
            let selected_shift = self.editor.object_layer.and_then(|j| map.object_looks().get(j).map(|l| l.offset));
            let selected_shift = selected_shift.unwrap_or([0.0, 0.0]);
            let draw_objects = |p: &egui::Painter, v: &View| {
                for o in &selected {
                    draw_object_ring(p, v, map, o, selected_shift, &RING_STROKES);
                }
                // Drawn with the tile types they bring from another map, if any.
                let palette = preview.palette.as_ref().map_or(map, |(palette, _)| palette);
                draw_pasted_objects(p, v, palette, &pasted, draft_shift);
            };
            // Only a picture of this selection (one made before it changed is not shown).
            let picture = self
                .selection_picture
                .as_ref()
                .filter(|(shown, _)| Some(shown) == selection)
                .map(|(_, texture)| texture.id());
            let response = if overlays.split() {
                // Side A left, side B right: one View, so pan and zoom stay in step.
                let size = ui.available_size();
                let half = egui::vec2((size.x - 2.0) / 2.0, size.y);
                let mut responses = Vec::new();
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 2.0;
                    for side in 0..2 {
                        ui.allocate_ui(half, |ui| {
                            let mut draw = |p: &egui::Painter, v: &View, c: canvas::VisibleCells| {
                                overlays.draw(p, v, c, Some(side));
                                // The selection keeps the paint inside it on both sides.
                                draw_selection(p, v, c, selection, picture);
                                draw_shape_draft(p, v, map.tile_size, draft, draft_shift);
                                draw_objects(p, v);
                                if let Some(hand) = &focus {
                                    draw_object_focus(p, v, map, hand);
                                }
                                side_label(p, v, side, overlays);
                            };
                            responses.push(canvas::canvas_ui(ui, map, revision, sheets, view, &preview, &mut draw));
                        });
                    }
                });
                let mut right = responses.pop().expect("two canvases");
                let left = responses.pop().expect("two canvases");
                // The canvas under the pointer answers.
                if left.hovered.is_some() || left.pointer.is_some() {
                    right.hovered = left.hovered;
                    right.pointer = left.pointer;
                    right.grid_point = left.grid_point;
                    right.press_point = left.press_point;
                }
                right.dropped_file = right.dropped_file.or(left.dropped_file);
                right
            } else {
                let mut draw = |p: &egui::Painter, v: &View, c: canvas::VisibleCells| {
                    overlays.draw(p, v, c, None);
                    draw_selection(p, v, c, selection, picture);
                    draw_shape_draft(p, v, map.tile_size, draft, draft_shift);
                    draw_objects(p, v);
                    if let Some(hand) = &focus {
                        draw_object_focus(p, v, map, hand);
                    }
                };
                canvas::canvas_ui(ui, map, revision, sheets, view, &preview, &mut draw)
            };
            self.hovered = response.hovered;
            // The terrain brush's corner or edge under the pointer. A drag begun this frame
            // starts from the one where the button went down, then goes on to the one now.
            let spot = self.terrain_spot_at(response.grid_point);
            let press_spot = response.press_point.and_then(|p| self.terrain_spot_at(Some(p)));
            if press_spot.is_some() {
                self.commands.push(Command::Tools(ToolCommand::TerrainSpot(press_spot)));
            } else if spot != self.editor.terrain_spot {
                self.commands.push(Command::Tools(ToolCommand::TerrainSpot(spot)));
            }
            if let Some(path) = response.dropped_file.clone() {
                self.commands.push(Command::File(FileCommand::Open(path)));
            }
            let modifiers = ui.input(|i| i.modifiers);
            self.shift_held = modifiers.shift;
            if self.editor.tool == Tool::Object
                && !self.editor.pasting
                && self.resize_pointer_action(&response, modifiers)
            {
                return;
            }
            // Where the object tool's press or right-click is, for picking a zone, path or
            // text by its shape: the slack is a few screen pixels.
            let grab_point = match response.pointer {
                Some(PointerAction::Pressed { .. }) => response.press_point,
                Some(PointerAction::SecondaryClicked(_)) => response.grid_point,
                _ => None,
            };
            if self.editor.tool == Tool::Object
                && let Some(g) = grab_point
            {
                let tile_size = self.document.map.tile_size;
                let at = canvas::pixels_from_grid(g, tile_size, [0.0, 0.0]);
                let slack = f64::from(GRAB_SLACK_PX / self.view.cell_px) * f64::from(tile_size[0].max(1));
                self.commands.push(Command::Objects(ObjectCommand::GrabAt(at, slack)));
            }
            if self.editor.tool == Tool::Object && self.editor.object.draws_shape() && !self.editor.pasting {
                // "Hello World" at Tiled's 16 px: a text object's own size, in map pixels (laid
                // out for the click that places one, not every frame).
                let text_size = if self.editor.object == ObjectChoice::Text
                    && matches!(response.pointer, Some(PointerAction::Clicked(_)))
                {
                    let font =
                        egui::FontId::proportional(crate::core::model::object::ObjectText::new("").pixel_size as f32);
                    let text = ui.painter().layout_no_wrap(DEFAULT_OBJECT_TEXT.into(), font, egui::Color32::BLACK);
                    [f64::from(text.size().x.ceil()), f64::from(text.size().y.ceil())]
                } else {
                    [0.0, 0.0]
                };
                self.shape_pointer_action(&response, modifiers, text_size);
            } else {
                self.pointer_action(response.pointer, modifiers);
            }
            if press_spot.is_some() && press_spot != spot {
                self.commands.push(Command::Tools(ToolCommand::TerrainSpot(spot)));
            }
        });
    }

    /// The corner or edge of the chosen terrain's set nearest `point` (in cells), when the
    /// terrain brush is out and the point is over the map.
    fn terrain_spot_at(&self, point: Option<egui::Pos2>) -> Option<crate::core::edit::terrain::Part> {
        let brush = self.editor.terrain.filter(|_| self.editor.tool == Tool::Terrain)?;
        let set = self.document.map.sheets.get(brush.sheet)?.wang_sets.get(brush.set)?;
        let p = point?;
        let map = &self.document.map;
        let on_map = p.x >= 0.0 && p.y >= 0.0 && p.x <= map.width() as f32 && p.y <= map.height() as f32;
        on_map.then(|| crate::core::edit::terrain::Part::nearest(set.kind, p.x, p.y))
    }

    /// The grips of the object in hand (Tiled's Select Objects handles, Edit Polygons points):
    /// a press on one begins a reshape, whose drag moves that corner, edge or point to the
    /// pointer (snapped as the tools bar says) and whose release ends it. True when the
    /// pointer went to a reshape.
    fn resize_pointer_action(&mut self, response: &canvas::CanvasResponse, modifiers: egui::Modifiers) -> bool {
        let map = &self.document.map;
        let snap = self.editor.snap.toggled(modifiers.command || modifiers.ctrl, modifiers.shift);
        if let Some(resize) = self.editor.resizing {
            match response.pointer {
                Some(PointerAction::Dragged(_)) => {
                    let Some(ObjectInHand { object: o, shift, .. }) = self.focus() else { return true };
                    let Some(g) = response.grid_point else { return true };
                    // The pointer on the layer's own grid (it is drawn moved by its offset).
                    let pointer = canvas::pixels_from_grid(g, map.tile_size, shift);
                    let to = snap.point(pointer, map.tile_size);
                    let Some(shape) = &o.shape else { return true };
                    let rotation = shape.rotation;
                    // A turned shape's grip goes where the pointer is in the shape's own frame
                    // (unturned, from its `origin`), snapped there, so its sizes and points stay
                    // whole cells or pixels of its own.
                    let own = |origin: [f64; 2]| {
                        let from = [pointer[0] - origin[0], pointer[1] - origin[1]];
                        snap.point(crate::core::model::object::rotated(from, -rotation), map.tile_size)
                    };
                    let id = resize.id;
                    match resize.grip {
                        Grip::Box { handle, top_left, size } => {
                            let (position, size) = if rotation == 0.0 {
                                crate::core::model::object::resized_box(top_left, size, handle, to)
                            } else {
                                crate::core::model::object::resized_turned_box(
                                    top_left,
                                    size,
                                    rotation,
                                    handle,
                                    own(top_left),
                                )
                            };
                            if (shape.position(o.cell, map.tile_size), shape.kind.size()) != (position, Some(size)) {
                                let size = Some(size);
                                self.commands.push(Command::Objects(ObjectCommand::SetObjectGeometry {
                                    id,
                                    position,
                                    size,
                                    rotation,
                                }));
                            }
                        }
                        // A middle's press became a point's (below).
                        Grip::Midpoint { .. } => {}
                        Grip::Point { index, origin } => {
                            use crate::core::model::object::ShapeKind;
                            let (ShapeKind::Polygon(now) | ShapeKind::Polyline(now)) = &shape.kind else {
                                return true;
                            };
                            let moved =
                                if rotation == 0.0 { [to[0] - origin[0], to[1] - origin[1]] } else { own(origin) };
                            if now.get(index).is_some_and(|p| *p != moved) {
                                let mut points = now.clone();
                                points[index] = moved;
                                self.commands.push(Command::Objects(ObjectCommand::SetObjectPoints { id, points }));
                            }
                        }
                    }
                }
                Some(PointerAction::Released) => self.commands.push(Command::Objects(ObjectCommand::EndResize)),
                // A press while a resize is on: its release was lost (Space held, say). It
                // ends, and the press goes on to the tool.
                Some(_) => {
                    self.commands.push(Command::Objects(ObjectCommand::EndResize));
                    return false;
                }
                None => {}
            }
            return true;
        }
        let (right, press) = match response.pointer {
            Some(PointerAction::Pressed { .. }) => (false, response.press_point),
            Some(PointerAction::SecondaryClicked(_)) => (true, response.grid_point),
            _ => return false,
        };
        let Some(press) = press else { return false };
        // A press while a shape is being drawn goes on drawing it, near a grip or not.
        if self.editor.shape_draft.is_some() {
            return false;
        }
        let Some(ObjectInHand { object: o, grips, shift }) = self.focus() else { return false };
        let screen = |p: [f64; 2]| self.view.screen_from_layer_pixels(p, shift, map.tile_size);
        let pressed = self.view.screen_from_grid_point(press);
        // The nearest grip within reach (a path's points may lie close together).
        let grip = grips
            .iter()
            .map(|&(grip, p)| (grip, (screen(p) - pressed).length()))
            .filter(|&(_, d)| d <= HANDLE_PICK_PX)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(grip, _)| grip);
        let Some(grip) = grip else { return false };
        let points = match o.shape.as_ref().map(|s| &s.kind) {
            Some(
                crate::core::model::object::ShapeKind::Polygon(p) | crate::core::model::object::ShapeKind::Polyline(p),
            ) => p.clone(),
            _ => Vec::new(),
        };
        let id = o.id;
        match (right, grip) {
            // A right-click on a point takes it away (Tiled's Delete Nodes), its own undo step.
            (true, Grip::Point { index, .. }) => {
                let mut points = points;
                points.remove(index);
                self.commands.extend([
                    Command::Objects(ObjectCommand::SetObjectPoints { id, points }),
                    Command::Objects(ObjectCommand::EndContinuedEdit),
                ]);
            }
            (true, _) => return false,
            // A middle's drag lays a point there, then moves it: one undo step.
            (false, Grip::Midpoint { after, origin }) => {
                let (a, b) = (points[after], points[(after + 1) % points.len()]);
                let mut points = points;
                points.insert(after + 1, [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]);
                let grip = Grip::Point { index: after + 1, origin };
                self.commands.extend([
                    Command::Objects(ObjectCommand::BeginResize(Resize { id, grip })),
                    Command::Objects(ObjectCommand::SetObjectPoints { id, points }),
                ]);
            }
            (false, grip) => self.commands.push(Command::Objects(ObjectCommand::BeginResize(Resize { id, grip }))),
        }
        true
    }

    /// Turns the canvas' pointer into commands for the object tool drawing Tiled shapes, as
    /// Tiled's insert tools do: a box drags from press to release (Shift: a square or a
    /// circle), a click covers the cell (Tiled makes a box of no size), places a point, or a
    /// text at its own size; the polygon tool's clicks lay points, a click on the first point
    /// closes it, a right-click ends it as a path. Points snap as the tools bar says, Ctrl and
    /// Ctrl+Shift toggling it (Tiled's `SnapHelper`). A right-click with no shape being
    /// drawn removes the objects on the cell, as with the other objects.
    fn shape_pointer_action(
        &mut self,
        response: &canvas::CanvasResponse,
        modifiers: egui::Modifiers,
        text_size: [f64; 2],
    ) {
        use crate::core::model::object::ShapeKind;
        let map = &self.document.map;
        let [tw, th] = map.tile_size.map(|t| f64::from(t.max(1)));
        let snap = self.editor.snap.toggled(modifiers.command || modifiers.ctrl, modifiers.shift);
        // The pointer on the new object's layer, which is drawn moved by its offset: the shape
        // lands where it is drawn, and snaps to that layer's grid.
        let shift = self.new_object_shift();
        let local = |g: egui::Pos2| canvas::pixels_from_grid(g, map.tile_size, shift);
        let snapped = |g: egui::Pos2| snap.point(local(g), map.tile_size);
        let choice = self.editor.object;
        let draft = self.editor.shape_draft.as_ref();
        let Some(pointer) = response.grid_point.map(snapped) else { return };
        if choice == ObjectChoice::Polygon {
            // Within a few screen pixels of the first point, a click closes (three points down).
            let (on_first, count) = match draft {
                Some(ShapeDraft::Points { points, .. }) => {
                    let screen = |p: [f64; 2]| self.view.screen_from_pixels(p, map.tile_size);
                    ((screen(points[0]) - screen(pointer)).length() <= POLYGON_CLOSE_PX, points.len())
                }
                _ => (false, 0),
            };
            let closes = on_first && count >= 3;
            match response.pointer {
                // Two points and a click on the first: no polygon yet, and no path that doubles
                // back on itself either.
                Some(PointerAction::Clicked(_) | PointerAction::Pressed { .. }) if on_first && count == 2 => {
                    self.notice = Some("a polygon needs three points: lay one more before closing it".into());
                }
                // A click on either end of the path in hand goes on from it.
                Some(PointerAction::Clicked(_))
                    if let Some(end) = draft.is_none().then(|| self.path_end_at(response, pointer)).flatten() =>
                {
                    self.commands.push(Command::Objects(ObjectCommand::ExtendPath(end)));
                }
                Some(PointerAction::Clicked(_) | PointerAction::Pressed { .. }) if closes => {
                    self.commands.push(Command::Objects(ObjectCommand::FinishShape { closed: true }));
                }
                Some(PointerAction::Clicked(_) | PointerAction::Pressed { .. }) => {
                    self.commands.push(Command::Objects(ObjectCommand::AddShapePoint(pointer)));
                }
                Some(PointerAction::SecondaryClicked(_)) if draft.is_some() => {
                    self.commands.push(Command::Objects(ObjectCommand::FinishShape { closed: false }));
                }
                Some(PointerAction::SecondaryClicked(c)) => {
                    self.commands.push(Command::Objects(ObjectCommand::RemoveObjectsAt(c)))
                }
                _ => {
                    // The rubber band follows the pointer (onto the first point when it would close).
                    if let Some(ShapeDraft::Points { points, pointer: shown, extends }) = draft {
                        let to = if closes { points[0] } else { pointer };
                        if *shown != to {
                            let (points, extends) = (points.clone(), *extends);
                            let draft = ShapeDraft::Points { points, pointer: to, extends };
                            self.commands.push(Command::Objects(ObjectCommand::SetShapeDraft(Some(draft))));
                        }
                    }
                }
            }
            return;
        }
        let square = modifiers.shift;
        // A press on an object picks it, as LDtk's entity layers do: a drag moves it, a click
        // gives it to the inspector; Alt draws over it instead.
        let raw = |g: egui::Pos2| canvas::pixels_from_grid(g, map.tile_size, [0.0, 0.0]);
        let slack = f64::from(GRAB_SLACK_PX / self.view.cell_px) * tw;
        let pick = |at: Option<egui::Pos2>, cell: Cell| {
            let grab = at.map(|g| (raw(g), slack));
            self.movable_object_at(cell, grab).filter(|_| !modifiers.alt).map(|o| o.id)
        };
        let picked = match response.pointer {
            Some(PointerAction::Pressed { origin, .. }) => pick(response.press_point, origin),
            Some(PointerAction::Clicked(c)) => pick(response.grid_point, c),
            _ => None,
        };
        if self.editor.moving_object.is_some() {
            match response.pointer {
                Some(PointerAction::Dragged(c)) => {
                    return self.commands.push(Command::Tools(ToolCommand::StrokeMove(c)));
                }
                Some(PointerAction::Released) => return self.commands.push(Command::Tools(ToolCommand::StrokeEnd)),
                None => return,
                // A press while a move is on: its release was lost. It ends, and the press
                // goes on.
                Some(_) => self.commands.push(Command::Tools(ToolCommand::StrokeEnd)),
            }
        }
        match response.pointer {
            Some(PointerAction::Pressed { origin, current }) if draft.is_none() && picked.is_some() => {
                // `GrabAt` is sent: `StrokeBegin` picks the same object.
                self.commands.extend([
                    Command::Tools(ToolCommand::StrokeBegin(origin)),
                    Command::Tools(ToolCommand::StrokeMove(current)),
                ]);
            }
            Some(PointerAction::Clicked(_)) if let Some(id) = picked => {
                self.commands.push(Command::Objects(ObjectCommand::FocusObject(id)));
            }
            // A tile object is placed by a click; a drag places nothing.
            Some(PointerAction::Pressed { .. } | PointerAction::Dragged(_) | PointerAction::Released)
                if choice == ObjectChoice::TileObject => {}
            Some(PointerAction::Pressed { .. }) => {
                let start = response.press_point.map_or(pointer, snapped);
                let draft = ShapeDraft::Box { start, end: pointer, square };
                self.commands.push(Command::Objects(ObjectCommand::SetShapeDraft(Some(draft))));
            }
            Some(PointerAction::Dragged(_)) => {
                if let Some(&ShapeDraft::Box { start, end, square: was }) = draft
                    && (end != pointer || was != square)
                {
                    self.commands.push(Command::Objects(ObjectCommand::SetShapeDraft(Some(ShapeDraft::Box {
                        start,
                        end: pointer,
                        square,
                    }))));
                }
            }
            Some(PointerAction::Released) => {
                self.commands.push(Command::Objects(ObjectCommand::FinishShape { closed: false }))
            }
            Some(PointerAction::Clicked(_)) => {
                // The layer's cell under the pointer.
                let at = response.grid_point.map_or([0.0, 0.0], local);
                let cell_box = [(at[0] / tw).floor() * tw, (at[1] / th).floor() * th];
                let (kind, position) = match choice {
                    ObjectChoice::Point => (ShapeKind::Point, pointer),
                    ObjectChoice::Ellipse => (ShapeKind::Ellipse { width: tw, height: th }, cell_box),
                    ObjectChoice::Capsule => (ShapeKind::Capsule { width: tw, height: th }, cell_box),
                    ObjectChoice::Text => {
                        // Centred on the pointer, its corner snapped (Tiled's Insert Text).
                        let [w, h] = text_size;
                        let corner = snap.point([at[0] - w / 2.0, at[1] - h / 2.0], map.tile_size);
                        let text = Box::new(crate::core::model::object::ObjectText::new(DEFAULT_OBJECT_TEXT));
                        (ShapeKind::Text { width: w, height: h, text }, corner)
                    }
                    ObjectChoice::TileObject => {
                        // The brush's tile at its image's size, centred on the pointer, its
                        // corner snapped (Tiled's Insert Tile); its position is where its
                        // tileset's alignment says on its box.
                        let (tile, flip) = (self.editor.tile, self.editor.flip);
                        let ([ax, ay], [w, h]) = map.tile_object_anchor(tile);
                        let corner = snap.point([at[0] - w / 2.0, at[1] - h / 2.0], map.tile_size);
                        (ShapeKind::Tile { tile, flip, width: w, height: h }, [corner[0] + ax * w, corner[1] + ay * h])
                    }
                    _ => (ShapeKind::Rectangle { width: tw, height: th }, cell_box),
                };
                self.commands.push(Command::Objects(ObjectCommand::AddShape(kind, position)));
            }
            Some(PointerAction::SecondaryClicked(c)) => {
                if draft.is_some() {
                    // Tiled: a right-click in the middle of a drag drops the shape.
                    self.commands.push(Command::Objects(ObjectCommand::SetShapeDraft(None)));
                } else {
                    self.commands.push(Command::Objects(ObjectCommand::RemoveObjectsAt(c)));
                }
            }
            None => {}
        }
    }

    /// Turns the canvas' pointer action into commands: marker drags for the pathfinding overlay,
    /// probe clicks for the overlays, strokes for the painting tools.
    fn pointer_action(&mut self, pointer: Option<PointerAction>, modifiers: egui::Modifiers) {
        let probe = self.editor.tool == Tool::Probe;
        let shift = modifiers.shift;
        // The keys held as a press or click begins: Shift draws a brush line or fills the whole
        // selection; with a selection tool, Shift, Ctrl or both choose how the pick combines.
        if matches!(pointer, Some(PointerAction::Pressed { .. } | PointerAction::Clicked(_))) {
            if self.editor.tool == Tool::Fill {
                self.commands.push(Command::Selection(SelectionCommand::SetFillSelection(shift)));
            }
            if self.editor.tool.selects() {
                let held =
                    crate::core::edit::selection::SelectionMode::from_keys(shift, modifiers.command || modifiers.ctrl);
                self.commands.push(Command::Selection(SelectionCommand::HoldSelectionMode(held)));
            }
        }
        match pointer {
            Some(PointerAction::Pressed { origin, current }) => {
                if self.editor.tool == Tool::Brush || self.editor.pasting {
                    self.commands.push(Command::Tools(ToolCommand::SetLineStroke(shift)));
                }
                if self.editor.pasting {
                    // The stamp follows the pointer whatever the tool: a drag lays it.
                    self.commands.extend([
                        Command::Tools(ToolCommand::StrokeBegin(origin)),
                        Command::Tools(ToolCommand::StrokeMove(current)),
                    ]);
                } else if let Some(marker) = self.overlays.path.marker_at(origin) {
                    self.overlays.path.dragging = Some(marker);
                    self.commands.push(Command::Overlay(OverlayCommand::MoveMarker(marker, current)));
                } else if !probe {
                    self.commands.extend([
                        Command::Tools(ToolCommand::StrokeBegin(origin)),
                        Command::Tools(ToolCommand::StrokeMove(current)),
                    ]);
                }
            }
            Some(PointerAction::Dragged(c)) => match self.overlays.path.dragging {
                Some(marker) => self.commands.push(Command::Overlay(OverlayCommand::MoveMarker(marker, c))),
                None if !probe || self.editor.stamp_stroke.is_some() => {
                    self.commands.push(Command::Tools(ToolCommand::StrokeMove(c)))
                }
                None => {}
            },
            Some(PointerAction::Released) => {
                let moved_marker = self.overlays.path.dragging.take().is_some();
                if !moved_marker && (!probe || self.editor.stamp_stroke.is_some()) {
                    self.commands.push(Command::Tools(ToolCommand::StrokeEnd));
                }
            }
            Some(PointerAction::Clicked(c)) => {
                if self.editor.pasting {
                    self.commands.push(Command::Selection(SelectionCommand::PasteAt(c)));
                } else if probe {
                    self.commands.push(Command::Overlay(OverlayCommand::Probe(c)));
                } else if self.editor.tool == Tool::Object {
                    self.commands.push(Command::Objects(ObjectCommand::PlaceObject(c)));
                } else {
                    self.commands
                        .extend([Command::Tools(ToolCommand::StrokeBegin(c)), Command::Tools(ToolCommand::StrokeEnd)]);
                }
            }
            Some(PointerAction::SecondaryClicked(c)) => {
                if self.editor.pasting {
                    self.commands.push(Command::Selection(SelectionCommand::CancelSelection));
                } else if self.editor.tool == Tool::Object {
                    self.commands.push(Command::Objects(ObjectCommand::RemoveObjectsAt(c)));
                } else if self.editor.tool.selects() {
                    // As in Tiled, a right-click with a selection tool selects nothing.
                    self.commands.push(Command::Selection(SelectionCommand::SelectNone));
                } else {
                    self.commands.push(Command::Tools(ToolCommand::PickAt(c)));
                }
            }
            None => {}
        }
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
        let png = format::tiled_common::encode_png_rgb(canvas.size[0] as u32, canvas.size[1] as u32, &rgb);
        match format::write_atomic(&path, &png) {
            Ok(()) => self.notice = Some(format!("exported {}", path.display())),
            Err(e) => self.error = Some(ErrorDialog { title: "Cannot export the PNG".into(), message: e.to_string() }),
        }
    }

    /// Goes on with the action held for a save, once no question about the save waits: when
    /// the save was made; otherwise (cancelled, failed, a copy exported instead) the work is
    /// unsaved and the action is dropped, to be asked for again.
    fn settle_after_save(&mut self) {
        if self.confirm_overwrite.is_some() || self.confirm_lossy_save.is_some() {
            return;
        }
        if let Some(action) = self.after_save.take()
            && !self.document.dirty
        {
            self.proceed(action);
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

    /// Puts `document` in place of the open map: the editor starts afresh on it, but for the
    /// clipboard, which a paste can lay in the new map (Tiled's copy between maps). It then
    /// holds the old map's tile types, to bring those the new map lacks
    /// ([`crate::core::edit::tile_transfer`]).
    fn replace_document(&mut self, document: Document) {
        self.document = document;
        // A loss agreed to was for the map that was open.
        self.lossy_save_accepted = None;
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

    fn proceed(&mut self, action: PendingAction) {
        match action {
            PendingAction::Open(path) => self.apply(Command::File(FileCommand::OpenNow(path))),
            PendingAction::New(spec) => match spec.build() {
                Ok(map) => {
                    self.replace_document(Document::untitled(map, "untitled.ron"));
                }
                Err(e) => {
                    self.error = Some(ErrorDialog { title: "Cannot create the map".into(), message: e.to_string() })
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

    /// Whether an edit of `edit` continues the last one (the same thing, nothing edited since).
    fn continues(&self, edit: ContinuedEdit) -> bool {
        self.continued == Some((edit, self.document.revision()))
    }

    /// Applies a layer edit as one undo step (none, and `None`, when it changed nothing); on
    /// refusal the map is untouched and the notice says why.
    fn layer_edit<T>(
        &mut self,
        edit: impl FnOnce(&mut crate::core::Map) -> Result<T, layers::LayerEditError>,
    ) -> Option<T> {
        self.document.checkpoint(&self.editor.selection);
        match edit(&mut self.document.map) {
            Ok(value) if !self.document.unchanged_since_checkpoint() => {
                self.document.touch();
                Some(value)
            }
            // Done, but nothing changed (a layer dropped where it was): no undo step.
            Ok(_) => {
                self.document.drop_checkpoint();
                None
            }
            Err(e) => {
                self.document.drop_checkpoint();
                self.notice = Some(e.to_string());
                None
            }
        }
    }

    /// Raises, lowers or drops a layer or group (one undo step, none if it stayed where it was).
    fn move_layer(
        &mut self,
        edit: impl FnOnce(&mut crate::core::Map) -> Result<layers::Stepped, layers::LayerEditError>,
    ) {
        let Some(stepped) = self.layer_edit(edit) else { return };
        let layers::Stepped { item: moved, doors, tile_layer, object_layer } = stepped;
        // Layers are numbered in stack order, so a move renumbers them (a group's every
        // layer): the tools keep the layers they had, wherever they went.
        self.editor.layer = tile_layer.get(self.editor.layer).copied().unwrap_or(self.editor.layer);
        self.editor.object_layer = self.editor.object_layer.map(|j| object_layer.get(j).copied().unwrap_or(j));
        self.editor.set_current_item(moved);
        if doors > 0 {
            self.notice = Some(format!(
                "{doors} {} now a different door on top (the one a player opens)",
                if doors == 1 { "cell has" } else { "cells have" }
            ));
        }
    }

    /// Keeps the current layer one the map has (after an undo or a removal).
    fn clamp_layer(&mut self) {
        if self.editor.group.is_some_and(|g| g >= self.document.map.groups.len()) {
            self.editor.group = None;
        }
        self.editor.layer = self.editor.layer.min(self.document.map.layers.len().saturating_sub(1));
        if self.editor.object_layer.is_some_and(|j| j >= self.document.map.object_layers.len()) {
            self.editor.object_layer = None;
        }
    }

    /// Whether the tile tools cannot paint now, and says why: an object layer is the current
    /// layer, or the current tile layer is locked.
    fn layer_locked(&mut self) -> bool {
        if let Some(g) = self.editor.group {
            let name = self.document.map.groups.get(g).map_or("", |g| g.name.as_str());
            self.notice = Some(format!("\"{name}\" is a layer group: select a tile layer to paint tiles"));
            return true;
        }
        if let Some(j) = self.editor.object_layer {
            let name = self.document.map.object_layers.get(j).map_or("", |l| l.name.as_str());
            self.notice = Some(format!("\"{name}\" is an object layer: select a tile layer to paint tiles"));
            return true;
        }
        self.layer_locked_at(self.editor.layer)
    }

    /// Whether `layer`, or a group it is in, is locked (and says so).
    fn layer_locked_at(&mut self, layer: usize) -> bool {
        let map = &self.document.map;
        let Some(l) = map.layers.get(layer) else { return false };
        if l.locked {
            self.notice = Some(format!("layer \"{}\" is locked: unlock it to paint", l.name));
            return true;
        }
        let groups = map.groups_around(StackItem::Layer(LayerRef::Tiles(layer)));
        if let Some(&g) = groups.iter().find(|&&g| map.groups[g].locked) {
            self.notice = Some(format!(
                "layer \"{}\" is in group \"{}\", which is locked: unlock it to paint",
                l.name, map.groups[g].name
            ));
            return true;
        }
        false
    }

    /// The object a drag from `cell` would move, of those on shown, unlocked object layers:
    /// one standing on the cell, else a zone, path or text whose shape the press at `grab`
    /// (map pixels, and the slack allowed) picks; the one drawn on top (the highest layer, the
    /// last on it).
    fn movable_object_at(&self, cell: Cell, grab: Option<([f64; 2], f64)>) -> Option<&crate::core::MapObject> {
        let map = &self.document.map;
        let stack = map.stack();
        let height = |layer: usize| stack.iter().position(|&r| r == LayerRef::Objects(layer));
        let looks = map.object_looks();
        let open = |o: &crate::core::MapObject| looks.get(o.layer).is_some_and(|l| l.shown && !l.locked);
        let topmost = |found: &dyn Fn(&crate::core::MapObject) -> bool| {
            map.objects
                .iter()
                .enumerate()
                .filter(|(_, o)| open(o) && found(o))
                .max_by_key(|&(k, o)| (height(o.layer), k))
                .map(|(_, o)| o)
        };
        // The objects standing on the cell first; then a zone, path or text under the press,
        // by its shape (in map pixels from its own cell), as Tiled picks objects.
        let [tw, th] = map.tile_size.map(|t| f64::from(t.max(1)));
        let covers = |o: &crate::core::MapObject| {
            let (Some(shape), Some((at, slack))) = (&o.shape, grab) else { return false };
            // Drawn moved by its layer's offset (and its groups').
            let shift = looks[o.layer].offset;
            let local = [at[0] - f64::from(o.cell.x) * tw - shift[0], at[1] - f64::from(o.cell.y) * th - shift[1]];
            o.visible && shape.covers(local, slack)
        };
        topmost(&|o| o.cell == cell).or_else(|| topmost(&covers))
    }

    /// Erases the selection on the current layer (one undo step); false when the layer is
    /// locked (or nothing is selected), so nothing could be erased.
    fn erase_selection(&mut self) -> bool {
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
    fn crop_to_selection(&mut self) {
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
            Err(e) => self.error = Some(ErrorDialog { title: "Cannot crop the map".into(), message: e.to_string() }),
        }
    }

    /// Places the object tool's object at `cell` (one undo step): the player start moves there,
    /// other objects replace what stood on the cell, a door is a closed-door tile.
    fn place_object(&mut self, cell: Cell) {
        use crate::core::{MapObject, ObjectKind};
        let map = &self.document.map;
        if !map.in_bounds(cell) {
            return;
        }
        let e = &self.editor;
        let object = match e.object {
            ObjectChoice::PlayerStart => MapObject::new(ObjectKind::PlayerStart, cell).named("player"),
            ObjectChoice::Monster => {
                MapObject::new(ObjectKind::Monster { glyph: e.monster_glyph, vision_radius: e.monster_vision }, cell)
                    .named(crate::core::format::ascii::monster_name(e.monster_glyph))
            }
            ObjectChoice::Item => MapObject::new(ObjectKind::Item, cell).named("item"),
            ObjectChoice::Light => MapObject::new(ObjectKind::Light { radius: e.light_radius }, cell).named("light"),
            ObjectChoice::Door => {
                let door = map.tiles.iter().position(|t| t.door.is_some_and(|d| !d.open));
                match door {
                    Some(t) if !self.layer_locked() => {
                        self.document.checkpoint(&self.editor.selection);
                        if crate::core::edit::paint(&mut self.document.map, self.editor.layer, &[cell], t as TileId) > 0
                        {
                            self.document.touch();
                        } else {
                            self.document.drop_checkpoint();
                        }
                    }
                    Some(_) => {}
                    None => self.notice = Some("this map has no closed-door tile: add one in Tile types…".into()),
                }
                return;
            }
            // Drawn in map pixels, not placed on a cell (`shape_pointer_action`).
            ObjectChoice::Rectangle
            | ObjectChoice::Ellipse
            | ObjectChoice::Capsule
            | ObjectChoice::Point
            | ObjectChoice::Polygon
            | ObjectChoice::Text
            | ObjectChoice::TileObject => return,
        };
        let map = &self.document.map;
        // The object goes on the current object layer, else on the topmost (a new one if the
        // map has none); the player start stays on its own.
        let start = map.objects.iter().position(|o| o.kind == ObjectKind::PlayerStart);
        let moving_start = start.filter(|_| e.object == ObjectChoice::PlayerStart);
        let target = match moving_start {
            Some(i) => Some(map.objects[i].layer),
            None => e.object_layer.or(map.object_layers.len().checked_sub(1)),
        };
        if let Some(refusal) = target.and_then(|j| self.object_layer_refusal(j, "to place objects")) {
            self.notice = Some(refusal);
            return;
        }
        // What stands on the cell on that layer is replaced; a Tiled zone, path or tile object
        // that merely hangs from it is not.
        let marker =
            |o: &MapObject| o.shape.as_ref().is_none_or(|s| s.kind == crate::core::model::object::ShapeKind::Point);
        let replaced = |o: &MapObject| o.cell == cell && marker(o) && Some(o.layer) == target;
        // The player start moves, keeping its id, name, layer and properties (an `object`
        // property may name it); the same object placed again where it stands is no edit.
        let unchanged = match moving_start {
            Some(i) => map.objects[i].cell == cell,
            None => {
                let mut standing = map.objects.iter().filter(|o| replaced(o));
                match (standing.next(), standing.next()) {
                    (Some(o), None) => MapObject { id: o.id, layer: o.layer, ..object.clone() } == *o,
                    _ => false,
                }
            }
        };
        if unchanged {
            return;
        }
        self.document.checkpoint(&self.editor.selection);
        let map = &mut self.document.map;
        match moving_start {
            Some(i) => {
                // Where it is in its layer's order stays (as a drag in Tiled keeps it).
                let id = map.objects[i].id;
                map.objects[i].cell = cell;
                self.editor.focused_object = Some(id);
                map.objects.retain(|o| o.id == id || !replaced(o));
            }
            None => {
                map.objects.retain(|o| !replaced(o));
                let layer = target.unwrap_or_else(|| map.default_object_layer());
                self.editor.focused_object = Some(map.add_object(object.on_layer(layer)));
            }
        }
        self.document.touch();
    }

    /// The object the object tool last made, moved or clicked (on a shown layer), with its
    /// grips when it may change: a rectangle's, ellipse's, capsule's or text's eight handles,
    /// a polygon's or path's points (turned as it is), when its layer is not locked. And
    /// its layer's offset (its groups' added), which it is drawn moved by.
    fn focus(&self) -> Option<ObjectInHand<'_>> {
        object_focus(&self.editor, &self.document.map)
    }

    /// The offset (map pixels, its groups' added) of the object layer a new object goes on:
    /// the current one, else the topmost; none for a new one.
    fn new_object_shift(&self) -> [f64; 2] {
        let map = &self.document.map;
        let target = self.editor.object_layer.or(map.object_layers.len().checked_sub(1));
        target.and_then(|j| map.object_looks().get(j).map(|l| l.offset)).unwrap_or([0.0, 0.0])
    }

    /// Ends a move or resize of the object tool's (a release, a tool change, an undo): later
    /// moves change nothing, and a resize that came back to where it began leaves no undo
    /// step.
    fn end_object_gesture(&mut self) {
        self.editor.end_move();
        self.editor.grab = None;
        if self.editor.resizing.take().is_some() {
            if self.continued.is_some_and(|(edit, _)| matches!(edit, ContinuedEdit::ObjectGeometry(_)))
                && self.document.unchanged_since_checkpoint()
            {
                self.document.drop_checkpoint();
            }
            self.continued = None;
        }
    }

    /// Where object `id` is in the map's list, when its layer lets it change (else the notice
    /// says why, and `None`).
    fn changeable_object(&mut self, id: u32) -> Option<usize> {
        let index = self.document.map.objects.iter().position(|o| o.id == id)?;
        let refusal = self.object_layer_refusal(self.document.map.objects[index].layer, "to change its objects");
        match refusal {
            Some(refusal) => {
                self.notice = Some(refusal);
                None
            }
            None => Some(index),
        }
    }

    /// Why new objects cannot go on object layer `j`: it is hidden or locked (or in such a
    /// group), as Tiled's object tools refuse it.
    fn object_layer_refusal(&self, j: usize, doing: &str) -> Option<String> {
        let map = &self.document.map;
        let layer = map.object_layers.get(j)?;
        let look = map.look(LayerRef::Objects(j));
        let why = if look.locked {
            "locked (or in a locked group): unlock it"
        } else if !look.shown {
            "hidden (or in a hidden group): show it"
        } else {
            return None;
        };
        Some(format!("object layer \"{}\" is {why} {doing}", layer.name))
    }

    /// The end of the path in hand (its first or last point) under the pointer, or where the
    /// pointer snaps (`snapped`, on the layer's own grid), when there is such a path and it may
    /// change.
    fn path_end_at(&self, response: &canvas::CanvasResponse, snapped: [f64; 2]) -> Option<PathEnd> {
        let map = &self.document.map;
        let at = response.grid_point?;
        let ObjectInHand { object: o, grips, shift } = self.focus()?;
        let crate::core::model::object::ShapeKind::Polyline(points) = &o.shape.as_ref()?.kind else { return None };
        let last = points.len().checked_sub(1)?;
        let screen = |p: [f64; 2]| self.view.screen_from_layer_pixels(p, shift, map.tile_size);
        let pointer = self.view.screen_from_grid_point(at);
        grips.iter().find_map(|&(grip, p)| match grip {
            Grip::Point { index, .. }
                if (index == 0 || index == last)
                    && (p == snapped || (screen(p) - pointer).length() <= HANDLE_PICK_PX) =>
            {
                Some(PathEnd { id: o.id, from_start: index == 0 && last > 0 })
            }
            _ => None,
        })
    }

    /// The polygon tool goes on from an end of path `end.id`: its points become the shape being
    /// drawn (in reverse from its first point), its layer the current one; Enter or a
    /// right-click ends it (the path changed in one undo step), a click on its other end closes
    /// it into a polygon, Esc leaves it as it was.
    fn extend_path(&mut self, end: PathEnd) {
        let Some(index) = self.changeable_object(end.id) else { return };
        let map = &self.document.map;
        let o = &map.objects[index];
        let Some(shape) = o.shape.as_ref() else { return };
        let crate::core::model::object::ShapeKind::Polyline(relative) = &shape.kind else { return };
        let origin = shape.position(o.cell, map.tile_size);
        // On the map, turned as the path is (the draft is drawn unturned).
        let on_map = |p: &[f64; 2]| {
            let [x, y] = crate::core::model::object::rotated(*p, shape.rotation);
            [origin[0] + x, origin[1] + y]
        };
        let mut points: Vec<[f64; 2]> = relative.iter().map(on_map).collect();
        if end.from_start {
            points.reverse();
        }
        let Some(&pointer) = points.last() else { return };
        let layer = o.layer;
        self.editor.set_current_layer(LayerRef::Objects(layer));
        self.editor.shape_draft = Some(ShapeDraft::Points { points, pointer, extends: Some(end) });
        let which = if end.from_start { "first" } else { "last" };
        self.notice = Some(format!(
            "path #{} goes on from its {which} point: clicks add points, Enter or a right-click ends it, a click \
             on its other end closes it, Esc leaves it as it was",
            end.id
        ));
    }

    /// The path a polygon draft went on from takes the draft's points (in their order again),
    /// as a polygon when `closed`: one undo step.
    fn finish_extension(&mut self, mut points: Vec<[f64; 2]>, end: PathEnd, closed: bool) {
        use crate::core::model::object::ShapeKind;
        let Some(index) = self.changeable_object(end.id) else { return };
        if end.from_start {
            points.reverse();
        }
        let map = &self.document.map;
        let o = &map.objects[index];
        let Some(shape) = &o.shape else { return };
        let origin = shape.position(o.cell, map.tile_size);
        // Back into the path's own frame (unturned, from its origin): it keeps its turn. Its own
        // points come back as they were, not as the turn there and back left them (8 stays 8,
        // not 7.999999999999999, in the file).
        let before: &[[f64; 2]] = match &shape.kind {
            ShapeKind::Polyline(points) | ShapeKind::Polygon(points) => points,
            _ => &[],
        };
        let own = |p: [f64; 2]| before.iter().copied().find(|q| (q[0] - p[0]).abs() + (q[1] - p[1]).abs() < 1e-6);
        let relative: Vec<[f64; 2]> = points
            .iter()
            .map(|p| crate::core::model::object::rotated([p[0] - origin[0], p[1] - origin[1]], -shape.rotation))
            .map(|p| own(p).unwrap_or(p))
            .collect();
        let kind = match relative.len() {
            n if closed && n >= 3 => ShapeKind::Polygon(relative),
            n if n >= 2 => ShapeKind::Polyline(relative),
            _ => {
                self.notice = Some("the path keeps its points: a path needs two".into());
                return;
            }
        };
        if kind == shape.kind {
            return;
        }
        self.document.checkpoint(&self.editor.selection);
        let shape = self.document.map.objects[index].shape.as_mut().expect("checked above");
        shape.kind = kind;
        let what = shape.describe();
        self.document.touch();
        self.editor.focused_object = Some(end.id);
        self.notice = Some(format!("object #{} is now a {what}", end.id));
    }

    /// The shape being drawn becomes an object: a drag's box (or point) as the object tool's
    /// choice says; clicked points as a polygon when `closed` (three at least), else as a path
    /// (two at least; fewer are dropped, as in Tiled).
    fn finish_shape(&mut self, closed: bool) {
        let Some(draft) = self.editor.shape_draft.take() else { return };
        if let ShapeDraft::Points { points, extends: Some(end), .. } = draft {
            return self.finish_extension(points, end, closed);
        }
        match draft.shape(self.editor.object, closed) {
            Ok((kind, position)) => self.add_shape(kind, position),
            Err(why) => self.notice = Some(why.into()),
        }
    }

    /// Adds an object of shape `kind` at `position` (map pixels: its box's top-left corner, a
    /// point's, polygon's or path's origin), with an empty name and class as Tiled's insert
    /// tools make it, on the current object layer (else the topmost, or a new one): one undo
    /// step. It stands on the cell under its centre; the inspector then edits it.
    fn add_shape(&mut self, kind: crate::core::model::object::ShapeKind, position: [f64; 2]) {
        use crate::core::{MapObject, ObjectKind};
        let map = &self.document.map;
        if let crate::core::model::object::ShapeKind::Tile { tile, .. } = kind
            && (tile == crate::core::model::tile::EMPTY || usize::from(tile) >= map.tiles.len())
        {
            self.notice = Some("choose a tile in the palette to lay it as a tile object".into());
            return;
        }
        let target = self.editor.object_layer.or(map.object_layers.len().checked_sub(1));
        if let Some(refusal) = target.and_then(|j| self.object_layer_refusal(j, "to place objects")) {
            self.notice = Some(refusal);
            return;
        }
        let Some((cell, shape)) = map.placed_shape(kind, position, 0.0) else {
            self.notice = Some("nothing drawn: the shape's centre is off the map".into());
            return;
        };
        let what = shape.describe();
        // A point in the middle of its cell is a marker, as a save and a load would make it.
        let shape = Some(shape).filter(|s| !s.is_marker(map.tile_size));
        self.document.checkpoint(&self.editor.selection);
        let map = &mut self.document.map;
        let layer = target.unwrap_or_else(|| map.default_object_layer());
        let object = MapObject { shape, ..MapObject::new(ObjectKind::Other(String::new()), cell) };
        let id = map.add_object(object.on_layer(layer));
        self.document.touch();
        self.editor.focused_object = Some(id);
        let map = &self.document.map;
        let layer_name = map.object_by_id(id).and_then(|o| map.object_layers.get(o.layer)).map_or("", |l| &l.name);
        self.notice = Some(format!("added {what} as object #{id} on \"{layer_name}\" at {cell}"));
    }

    /// Paints the current tool's shape from `start` to `end` with its tile.
    fn paint_shape(&mut self, start: Cell, end: Cell) {
        let cells = self.editor.shape(&self.document.map, start, end);
        self.paint_cells(&cells);
    }

    /// Starts a drag that lays the stamp being pasted: a copy where it starts (or, with Shift,
    /// a line of copies when it ends), more as it goes; one undo step.
    fn begin_stamp_stroke(&mut self, cell: Cell) {
        let Some(stamp) = &self.editor.clipboard else { return };
        let stroke = crate::core::edit::StampStroke::new(stamp);
        if self.stamp_target().is_none() {
            return;
        }
        self.pasted = Default::default();
        self.document.checkpoint(&self.editor.selection);
        self.editor.stroke = Some((cell, cell));
        self.editor.stamp_stroke = Some(stroke);
        if !self.editor.line_stroke {
            self.lay_stamps(&[cell]);
        }
    }

    /// Lays copies of the stamp along `path` where they overlap none the stroke laid before.
    fn lay_stamps(&mut self, path: &[Cell]) {
        let Some(stroke) = &mut self.editor.stamp_stroke else { return };
        let corners = stroke.extend(path);
        let Some(target) = self.stamp_target() else { return };
        let changed: usize = corners.into_iter().map(|at| self.lay_stamp(target, at)).sum();
        if changed > 0 {
            self.document.touch();
        }
    }

    /// Writes a save made ready: the file becomes the map's own (its name, its saved state).
    fn write_save(&mut self, rendered: &format::Rendered) {
        match rendered.write() {
            Ok(saved) => {
                self.notice = (!saved.warnings.is_empty()).then(|| saved.warnings.join("; "));
                recovery::remember_recent(&mut self.recent, &rendered.path);
                self.document.saved_as(rendered.path.clone());
                // Saved: the recovery copy is not needed any more.
                if let Some(file) = &self.recovery_file {
                    recovery::clear(file);
                }
            }
            Err(e) => self.error = Some(ErrorDialog { title: "Cannot save the map".into(), message: e.to_string() }),
        }
    }

    /// Writes a copy made ready: a copy in another format, the map keeping its own file and
    /// unsaved state.
    fn write_export(&mut self, rendered: &format::Rendered) {
        match rendered.write() {
            Ok(saved) => {
                let mut notice = format!("exported a copy to {}", rendered.path.display());
                for w in saved.warnings {
                    notice += &format!("; {w}");
                }
                self.notice = Some(notice);
            }
            Err(e) => self.error = Some(ErrorDialog { title: "Cannot export the map".into(), message: e.to_string() }),
        }
    }

    /// Where the clipboard's stamp goes: its tiles on the current tile layer, its objects on
    /// the current object layer (else the topmost, or a new one: `Objects(None)`), as placing
    /// an object does. `None` when there is no stamp or that layer refuses it (the notice
    /// says why).
    fn stamp_target(&mut self) -> Option<StampTarget> {
        let objects = !self.editor.clipboard.as_ref()?.objects.is_empty();
        if !objects {
            return (!self.layer_locked()).then_some(StampTarget::Tiles(self.editor.layer));
        }
        let target = self.editor.object_layer.or(self.document.map.object_layers.len().checked_sub(1));
        if let Some(refusal) = target.and_then(|j| self.object_layer_refusal(j, "to paste objects")) {
            self.notice = Some(refusal);
            return None;
        }
        Some(StampTarget::Objects(target))
    }

    /// The open map's tile types, as a copy's clipboard keeps them.
    fn tile_source(&self) -> std::sync::Arc<TileSource> {
        let d = &self.document;
        std::sync::Arc::new(TileSource::of(&d.map, d.folder(), &d.file_name()))
    }

    /// Whether the clipboard's stamp must have its tile types carried into the open map: it
    /// was copied in another, or this one no longer has some of them at their ids (an undo took
    /// them away, and perhaps another type took the slot since). A type is told by its name: one
    /// whose look or rules were edited since the copy is still the same type, and the paste lays
    /// it as it is now, as Tiled's paste lays the tileset's tile as it is now; one renamed since
    /// counts as another, and the paste brings the copied one back beside it.
    fn stamp_needs_transfer(&self) -> bool {
        let e = &self.editor;
        let (Some(from), Some(stamp)) = (e.clipboard_from.as_ref(), e.clipboard.as_ref()) else { return false };
        let map = &self.document.map;
        let gone = |t: TileId| {
            let name = |tiles: &[crate::core::TileKind]| tiles.get(usize::from(t)).map(|k| k.name.clone());
            name(&map.tiles) != name(&from.tiles)
        };
        e.clipboard_elsewhere || stamp.used_tiles().into_iter().any(gone)
    }

    /// How the clipboard's stamp's tile types carry into the open map
    /// ([`crate::core::edit::tile_transfer`]), when they must; `Err` says why they cannot.
    fn stamp_transfer_plan(&self) -> Option<Result<TileTransfer, String>> {
        if !self.stamp_needs_transfer() {
            return None;
        }
        let (stamp, from) = (self.editor.clipboard.as_ref()?, self.editor.clipboard_from.as_ref()?);
        let map = &self.document.map;
        let planned = if self.editor.clipboard_elsewhere {
            TileTransfer::plan(from, stamp.used_tiles(), map, self.document.folder())
        } else {
            // Copied in this map: a type still in its slot under its name is the same type, as
            // edited since (`stamp_needs_transfer`); only the others are carried over.
            let mut here = (**from).clone();
            for (t, kind) in here.tiles.iter_mut().enumerate() {
                if let Some(now) = map.tiles.get(t).filter(|now| now.name == kind.name) {
                    kind.clone_from(now);
                }
            }
            TileTransfer::plan(&here, stamp.used_tiles(), map, self.document.folder())
        };
        Some(planned.map_err(|e| format!("cannot paste what was copied from {}: {e}", from.name)))
    }

    /// Lays the clipboard's stamp with its top-left corner at `at` on `target`, inside the
    /// selection when there is one (no undo step of its own): how many cells it painted or
    /// objects it added. The notice says what a paste of objects left out, and the tile types
    /// a paste from another map brought.
    fn lay_stamp(&mut self, target: StampTarget, at: Cell) -> usize {
        let transfer = match self.stamp_transfer_plan() {
            None => None,
            Some(Ok(transfer)) => Some(transfer),
            Some(Err(refusal)) => {
                self.notice = Some(refusal);
                return 0;
            }
        };
        // The stamp in this map's tile ids: as it is, unless its types are carried over.
        let translated = match (&transfer, &self.editor.clipboard) {
            (Some(transfer), Some(stamp)) => Some(stamp.with_tile_ids(|t| transfer.id(t))),
            _ => None,
        };
        let Some(stamp) = translated.as_ref().or(self.editor.clipboard.as_ref()) else { return 0 };
        let map = &mut self.document.map;
        if let Some(transfer) = &transfer {
            transfer.apply(map);
        }
        let inside = self.editor.selection.as_ref();
        let created = matches!(target, StampTarget::Objects(None)) && map.object_layers.is_empty();
        let laid = match target {
            StampTarget::Tiles(layer) => stamp.paste(map, layer, at, inside),
            StampTarget::Objects(layer) => {
                let layer = layer.unwrap_or_else(|| map.default_object_layer());
                let now = stamp.paste_objects(map, layer, at, inside);
                // A layer made for objects that all fell outside is no layer.
                if created && now.ids.is_empty() {
                    map.object_layers.pop();
                }
                self.pasted.layer = map.object_layers.get(layer).map_or_else(String::new, |l| l.name.clone());
                self.pasted.objects.ids.extend(&now.ids);
                self.pasted.objects.outside += now.outside;
                self.pasted.objects.player_start_left_out |= now.player_start_left_out;
                now.ids.len()
            }
        };
        // What the paste brought over from another map stays only if it laid something.
        if let Some(transfer) = transfer {
            if laid == 0 {
                transfer.undo(map);
            } else {
                // Those that came with a whole tileset are counted with it.
                let first_new_sheet = map.sheets.len() - transfer.new_sheets().len();
                let mut sheets: Vec<(String, usize)> =
                    transfer.new_sheets().iter().map(|s| (s.name.clone(), 0)).collect();
                for t in transfer.new_tiles() {
                    match t.sprite.and_then(|s| usize::from(s.sheet).checked_sub(first_new_sheet)) {
                        Some(sheet) => sheets[sheet].1 += 1,
                        None => self.pasted.tiles.push(t.name.clone()),
                    }
                }
                self.pasted.sheets.extend(sheets);
            }
        }
        let objects = matches!(target, StampTarget::Objects(_));
        if let Some(said) = self.pasted.said(objects, inside.is_some()) {
            self.notice = Some(said);
        }
        // One pasted object is in hand, as Tiled selects what it pastes.
        if let [id] = self.pasted.objects.ids[..] {
            self.editor.focused_object = Some(id);
        }
        laid
    }

    /// The objects Ctrl+C, Ctrl+X and Delete take, and the rectangle a copy of them spans (the
    /// selection's bounds, when they are the selection's): the object tool's object in hand
    /// alone, unless it is one of those standing on the selected cells of the current object
    /// layer (ringed), which then go together; else those. `None` when neither applies (the
    /// selected cells of a tile layer are what they take); no ids when nothing stands there or
    /// the layer is hidden (the notice says so).
    fn objects_taken(&mut self) -> Option<(Vec<u32>, Option<CellSpan>)> {
        let map = &self.document.map;
        let hand = self.focus().map(|hand| hand.object.id);
        let selected: Vec<u32> = selected_objects(&self.editor, map).iter().map(|o| o.id).collect();
        if let Some(id) = hand.filter(|id| !selected.contains(id)) {
            return Some((vec![id], None));
        }
        let (Some(j), Some(selection)) = (self.editor.object_layer, &self.editor.selection) else { return None };
        if selected.is_empty() {
            let name = map.object_layers.get(j).map_or("", |l| l.name.as_str());
            let shown = map.object_looks().get(j).is_some_and(|l| l.shown);
            self.notice = Some(if shown {
                format!("no object of \"{name}\" stands on the selected cells")
            } else {
                format!("object layer \"{name}\" is hidden (or in a hidden group): show it to take its objects")
            });
        }
        Some((selected, selection.bounds()))
    }

    /// Copies objects `ids` to the clipboard, as a stamp over `frame` (the selection's
    /// bounding rectangle, when they are the ones standing in the selection) or else the
    /// cells they stand on; with `cut` it removes them too (one undo step; refused whole when
    /// a layer of theirs is locked or hidden). A paste then lays them where they stood in it.
    fn copy_objects(&mut self, ids: &[u32], frame: Option<CellSpan>, cut: bool) {
        let map = &self.document.map;
        let wanted: std::collections::HashSet<u32> = ids.iter().copied().collect();
        let objects: Vec<&crate::core::MapObject> = map.objects.iter().filter(|o| wanted.contains(&o.id)).collect();
        let cells = || objects.iter().map(|o| o.cell);
        let (a, b) = match frame {
            Some(bounds) => bounds,
            None => {
                let (Some(x0), Some(y0)) = (cells().map(|c| c.x).min(), cells().map(|c| c.y).min()) else { return };
                let (x1, y1) = (cells().map(|c| c.x).max().unwrap_or(x0), cells().map(|c| c.y).max().unwrap_or(y0));
                (Cell::new(x0, y0), Cell::new(x1, y1))
            }
        };
        if cut
            && let Some(refusal) = objects.iter().find_map(|o| self.object_layer_refusal(o.layer, "to cut its objects"))
        {
            self.notice = Some(refusal);
            return;
        }
        let stamp = crate::core::edit::Stamp::of_objects(map, a, b, objects.iter().copied());
        let what = match ids {
            [id] => format!("object #{id}"),
            _ => format!("{} objects", ids.len()),
        };
        self.system_clipboard = Some(stamp.as_text(map));
        let from = self.tile_source();
        self.editor.hold(Some(stamp), Some(a), from);
        if cut {
            self.remove_objects(ids);
            // As in Tiled, a cut leaves nothing selected, so the paste can go anywhere.
            self.editor.selection = None;
            self.notice = Some(format!("cut {what}: Ctrl+V pastes it"));
        } else {
            self.notice = Some(format!("copied {what}: Ctrl+V pastes it"));
        }
    }

    /// Removes objects `ids`, one undo step; refused whole (the notice says why) when a layer
    /// of theirs is locked or hidden.
    fn remove_objects(&mut self, ids: &[u32]) {
        let map = &self.document.map;
        let wanted: std::collections::HashSet<u32> = ids.iter().copied().collect();
        let layers = map.objects.iter().filter(|o| wanted.contains(&o.id)).map(|o| o.layer);
        let layers: std::collections::BTreeSet<usize> = layers.collect();
        if let Some(refusal) = layers.iter().find_map(|&j| self.object_layer_refusal(j, "to remove its objects")) {
            self.notice = Some(refusal);
            return;
        }
        if layers.is_empty() {
            return;
        }
        self.document.checkpoint(&self.editor.selection);
        self.document.map.objects.retain(|o| !wanted.contains(&o.id));
        self.document.touch();
        if self.editor.focused_object.is_some_and(|id| wanted.contains(&id)) {
            self.editor.focused_object = None;
        }
    }

    /// Paints cells with the tool's tile, or the random brush's tiles; the terrain brush at
    /// size 1 paints the corner or edge nearest the pointer instead, once per visit.
    fn paint_cells(&mut self, cells: &[Cell]) {
        let layer = self.editor.layer;
        // While a selection exists, painting stays inside it.
        let inside: Vec<Cell>;
        let cells = if self.editor.selection.is_some() {
            inside = cells.iter().copied().filter(|&c| self.editor.paints_at(c)).collect();
            &inside[..]
        } else {
            cells
        };
        let changed = if self.editor.paints_terrain() {
            let e = &mut self.editor;
            let Some(brush) = e.terrain else {
                self.notice = Some("choose a terrain to paint in the Terrains panel".into());
                return;
            };
            let painted = match e.terrain_part() {
                Some(part) if e.terrain_spot_painted == Some(part) => return,
                Some(part) => {
                    use crate::core::edit::terrain::Part;
                    // A drag faster than the corners paints the corners between, as the brush
                    // paints the cells between.
                    let parts = match (e.terrain_spot_painted, part) {
                        (Some(Part::Corner(x0, y0)), Part::Corner(x1, y1)) => {
                            crate::core::edit::line_cells(Cell::new(x0, y0), Cell::new(x1, y1))[1..]
                                .iter()
                                .map(|c| Part::Corner(c.x, c.y))
                                .collect()
                        }
                        _ => vec![part],
                    };
                    e.terrain_spot_painted = Some(part);
                    crate::core::edit::terrain::plan_terrain_parts(&self.document.map, layer, brush, &parts, &mut e.rng)
                }
                None => crate::core::edit::terrain::plan_terrain(&self.document.map, layer, brush, cells, &mut e.rng),
            };
            match painted {
                // The transitions too stay inside the selection.
                Ok(planned) => planned
                    .into_iter()
                    .filter(|&(c, tile)| {
                        self.editor.paints_at(c)
                            && self.document.map.set_flipped_tile(layer, c, tile, crate::core::model::flip::Flip::NONE)
                    })
                    .count(),
                Err(error) => {
                    self.notice = Some(format!("cannot paint the terrain: {error}"));
                    return;
                }
            }
        } else if self.editor.paints_random() {
            let e = &mut self.editor;
            e.random_brush.paint(&mut self.document.map, layer, cells, &mut e.rng)
        } else {
            let (tile, flip) = self.editor.paint_tile();
            crate::core::edit::paint_flipped(&mut self.document.map, layer, cells, tile, flip)
        };
        if changed > 0 {
            self.document.touch();
        }
    }

    /// The tiles the canvas shows under the pointer: what a click (or the stroke in progress)
    /// would put.
    pub fn previewed_tiles(&self) -> Vec<(Cell, TileId, crate::core::model::flip::Flip)> {
        self.preview().tiles
    }

    /// What the stroke in progress, a click, or the stamp being pasted would paint, drawn over
    /// the canvas: inside the selection only, as the paint is.
    fn preview(&self) -> canvas::Preview {
        let mut preview = self.unmasked_preview();
        let e = &self.editor;
        if e.selection.is_some() && (e.paints_tiles() || e.pasting) {
            preview.cells.retain(|&c| e.paints_at(c));
            preview.tiles.retain(|&(c, _, _)| e.paints_at(c));
        }
        preview
    }

    /// What [`Self::preview`] shows before the selection masks it.
    fn unmasked_preview(&self) -> canvas::Preview {
        // On an object layer the tile tools paint nothing, so they show nothing either.
        if (self.editor.object_layer.is_some() || self.editor.group.is_some())
            && (self.editor.paints_tiles() || self.editor.pasting)
        {
            return canvas::Preview::default();
        }
        if let Some(stamp) = &self.editor.clipboard {
            let corners = self.stamp_corners();
            if !corners.is_empty() {
                let placed: Vec<_> = corners.into_iter().flat_map(|at| stamp.placed(at)).collect();
                let tiles = placed.iter().filter_map(|&(c, t, f)| Some((c, self.stamp_tile_here(t)?, f))).collect();
                return canvas::Preview {
                    cells: placed.iter().map(|&(c, _, _)| c).collect(),
                    tiles,
                    spot: None,
                    palette: self.stamp_transfer.palette.clone(),
                };
            }
        }
        let cells = self.preview_cells();
        // The terrain brush: the tiles a click would put, transitions included.
        if let Some((_, planned)) = &self.terrain_preview {
            let tiles = planned.iter().map(|&(c, t)| (c, t, crate::core::model::flip::Flip::NONE)).collect();
            // A corner or edge is marked itself, not the cell it is on.
            return match self.editor.terrain_part() {
                Some(spot) => canvas::Preview { cells: Vec::new(), tiles, spot: Some(spot), palette: None },
                None => canvas::Preview { cells, tiles, spot: None, palette: None },
            };
        }
        // The brush's tile where it would go, turned as it is (a random brush's tiles are not
        // known before they are drawn; the eraser and the fill show their cells only).
        let paints_tile =
            matches!(self.editor.tool, Tool::Brush | Tool::Line | Tool::Rectangle) && !self.editor.paints_random();
        let tiles = if paints_tile {
            let (tile, flip) = self.editor.paint_tile();
            cells.iter().map(|&c| (c, tile, flip)).collect()
        } else {
            Vec::new()
        };
        canvas::Preview { cells, tiles, spot: None, palette: None }
    }

    /// Where the stamp being pasted would go (its top-left corners): the line of copies a
    /// Shift drag will lay, else the copy a click would lay.
    fn stamp_corners(&self) -> Vec<Cell> {
        let Some(stamp) = &self.editor.clipboard else { return Vec::new() };
        match (self.editor.stroke, self.hovered) {
            (Some((start, last)), _) if self.editor.stamp_stroke.is_some() && self.editor.line_stroke => {
                crate::core::edit::StampStroke::new(stamp).extend(&crate::core::edit::line_cells(start, last))
            }
            (_, Some(at)) if self.editor.pasting => vec![at],
            _ => Vec::new(),
        }
    }

    /// The objects the paste would lay where the pointer is (or along a Shift drag), as they
    /// would stand, inside the selection when there is one.
    fn pasted_objects_preview(&self) -> Vec<crate::core::MapObject> {
        let Some(stamp) = self.editor.clipboard.as_ref().filter(|s| !s.objects.is_empty()) else { return Vec::new() };
        let map = &self.document.map;
        let inside = |c: Cell| map.in_bounds(c) && self.editor.selection.as_ref().is_none_or(|s| s.contains(c));
        // A paste leaves a second player start out (`Stamp::paste_objects`).
        let mut has_player = map.objects.iter().any(|o| o.kind == crate::core::ObjectKind::PlayerStart);
        let mut objects = Vec::new();
        for at in self.stamp_corners() {
            for s in &stamp.objects {
                let cell = Cell::new(at.x + s.object.cell.x, at.y + s.object.cell.y);
                let player = s.object.kind == crate::core::ObjectKind::PlayerStart;
                if inside(cell) && !(has_player && player) {
                    has_player |= player;
                    let mut object = stamp.laid_object(&s.object, cell, map.tile_size);
                    // In this map's tile ids (the preview's palette has those a paste adds).
                    if let Some(crate::core::model::object::ShapeKind::Tile { tile, .. }) =
                        object.shape.as_mut().map(|s| &mut s.kind)
                    {
                        *tile = self.stamp_tile_here(*tile).unwrap_or(crate::core::model::tile::EMPTY);
                    }
                    objects.push(object);
                }
            }
        }
        objects
    }

    /// The cells the stroke in progress (or a click, when hovering) would paint.
    fn preview_cells(&self) -> Vec<Cell> {
        match (self.editor.stroke, self.hovered) {
            (Some((start, last)), _) if self.editor.paints_at_end() => {
                self.editor.shape(&self.document.map, start, last)
            }
            (Some(_), _) => Vec::new(),
            // Hovering: what a click would paint.
            (None, Some(at)) => match self.editor.tool {
                Tool::Brush | Tool::Eraser | Tool::Line | Tool::Terrain => {
                    crate::core::edit::square_around(at, self.editor.brush_size)
                }
                Tool::Rectangle => vec![at],
                Tool::Fill => {
                    self.fill_preview.as_ref().filter(|(k, _)| k.0.0 == at).map_or_else(Vec::new, |(_, c)| c.clone())
                }
                _ => Vec::new(),
            },
            (None, None) => Vec::new(),
        }
    }

    /// Keeps the selection's picture (for the zoomed-out canvas) up to date: made again only
    /// when the selection changes while zoomed out, and let go when there is none.
    fn update_selection_picture(&mut self, ctx: &egui::Context) {
        let Some(selection) = &self.editor.selection else {
            self.selection_picture = None;
            return;
        };
        let stale = self.selection_picture.as_ref().is_none_or(|(shown, _)| shown != selection);
        if self.view.cell_px < canvas::MIN_MESH_PX && stale {
            let texture = ctx.load_texture("selection", selection_image(selection), egui::TextureOptions::NEAREST);
            self.selection_picture = Some((selection.clone(), texture));
        }
    }

    /// The cells a fill would reach from the hovered cell, recomputed only when the hovered
    /// cell, the map, the layer or the connectivity change (`logic`).
    fn update_fill_preview(&mut self) {
        let (Tool::Fill, Some(at)) = (self.editor.tool, self.hovered) else {
            self.fill_preview = None;
            return;
        };
        let e = &self.editor;
        let key = (at, self.document.revision(), e.layer, e.fill_eight, self.shift_held);
        // The selection is compared where it is, not copied into a key every frame.
        let fresh =
            self.fill_preview.as_ref().is_some_and(|((k, selection), _)| *k == key && *selection == e.selection);
        if fresh || !self.document.map.in_bounds(at) {
            return;
        }
        let cells = e.fill_region(&self.document.map, at, self.shift_held);
        self.fill_preview = Some(((key, e.selection.clone()), cells));
    }

    /// Plans how the stamp being pasted from another map maps into this one, when the map or
    /// the stamp's source changed (`logic`).
    fn update_stamp_transfer(&mut self) {
        let from = self.editor.clipboard_from.as_ref().filter(|_| self.editor.pasting);
        let key = from.map(|f| (self.document.revision(), std::sync::Arc::clone(f), self.editor.clipboard_elsewhere));
        // The source compares by identity (the cache holds it, so its address is not reused).
        let same = |a: &(u64, std::sync::Arc<TileSource>, bool), b: &(u64, std::sync::Arc<TileSource>, bool)| {
            a.0 == b.0 && std::sync::Arc::ptr_eq(&a.1, &b.1) && a.2 == b.2
        };
        let fresh = match (&key, &self.stamp_transfer.key) {
            (Some(a), Some(b)) => same(a, b),
            (None, None) => true,
            _ => false,
        };
        if fresh {
            return;
        }
        let needed = key.is_some() && self.stamp_needs_transfer();
        let transfer = if needed { self.stamp_transfer_plan().and_then(Result::ok) } else { None };
        let palette = transfer.as_ref().filter(|t| !t.adds_nothing()).and_then(|t| {
            let map = &self.document.map;
            let mut palette = crate::core::Map::new(1, 1, vec![crate::core::TileKind::empty()], 0).ok()?;
            (palette.tiles, palette.sheets, palette.tile_size) = (map.tiles.clone(), map.sheets.clone(), map.tile_size);
            t.apply(&mut palette).then(|| (std::sync::Arc::new(palette), Vec::new()))
        });
        self.stamp_transfer = StampTransferCache { key, needed, transfer, palette };
    }

    /// A tile id of the clipboard's stamp as this map's, for drawing the paste (an id past the
    /// map's for a tile type from another map that a paste would add: the preview's palette
    /// has it).
    fn stamp_tile_here(&self, tile: TileId) -> Option<TileId> {
        if !self.stamp_transfer.needed {
            return Some(tile);
        }
        self.stamp_transfer.transfer.as_ref().map(|t| t.id(tile))
    }

    /// Plans what a click of the terrain brush on the hovered cell would paint, again only when
    /// what it depends on changes (`logic`).
    fn update_terrain_preview(&mut self) {
        let e = &self.editor;
        let (Tool::Terrain, Some(at), Some(brush), None) = (e.tool, self.hovered, e.terrain, e.stroke) else {
            self.terrain_preview = None;
            return;
        };
        let part = e.terrain_part();
        let key = (at, part, self.document.revision(), e.layer, brush, e.brush_size, e.rng.clone());
        if self.terrain_preview.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        let map = &self.document.map;
        let planned = match part {
            Some(part) => {
                crate::core::edit::terrain::plan_terrain_parts(map, e.layer, brush, &[part], &mut e.rng.clone())
            }
            None => {
                let cells = crate::core::edit::square_around(at, e.brush_size);
                crate::core::edit::terrain::plan_terrain(map, e.layer, brush, &cells, &mut e.rng.clone())
            }
        };
        self.terrain_preview = Some((key, planned.unwrap_or_default()));
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
        panels::menu_bar_ui(self, ui);
        panels::tools_bar_ui(self, ui);
        panels::status_bar_ui(self, ui);
        panels::palette_ui(self, ui);
        panels::side_panel_ui(self, ui);
        if self.play.pane_open {
            let mut commands = Vec::new();
            let images = play::TileImages {
                sheets: &self.sheets,
                shown: self.view.show_sprites,
                animate: self.view.animate_tiles,
            };
            egui::Panel::right("play_pane")
                .default_size(460.0)
                .show(ui, |ui| self.play.pane_ui(ui, &mut commands, &images));
            self.commands.extend(commands);
        }
        // In play mode the keyboard drives the game, not the canvas or the tools.
        self.view.keyboard = !self.play.active;
        let mut commands = Vec::new();
        self.play.keys_ui(ui, &mut commands);
        self.commands.extend(commands);
        self.central_ui(ui);
        self.export_ui(ui);
        tile_types::tile_types_window_ui(self, ui);
        properties_editor::map_properties_window_ui(self, ui);
        map_dialogs::map_dialogs_ui(self, ui);
        panels::error_dialog_ui(self, ui);
        panels::unsaved_changes_ui(self, ui);
        panels::overwrite_ui(self, ui);
        panels::lossy_save_ui(self, ui);
        panels::tileset_write_ui(self, ui);
        panels::recovery_ui(self, ui);
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

/// The eframe storage key of the recent-files list.
const RECENT_KEY: &str = "sightline.recent";

impl eframe::App for SightlineApp {
    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, RECENT_KEY, &self.recent);
    }

    fn on_exit(&mut self) {
        // A clean exit: nothing unsaved was kept without the user saying so. (A left-over file
        // not answered yet stays for next time.)
        if let Some(file) = &self.recovery_file
            && Some(file) != self.recovery_offer_file.as_ref()
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
            self.confirm = Some(PendingAction::Quit);
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

/// The light blue the selection is washed with.
const SELECTION_WASH: egui::Color32 = egui::Color32::from_rgba_premultiplied(14, 21, 30, 30);

/// The selection over the visible cells: a light wash over its cells and a line along its
/// outline, drawn a row of cells at a time (a run of selected cells is one rectangle). Zoomed
/// out, where a cell is a few pixels and a ragged selection would be millions of runs, it is
/// its `picture` instead, the wash without the outline, as the map is its texture there.
/// The object the object tool has in hand (see [`SightlineApp::focus`]).
#[derive(Clone)]
pub(super) struct ObjectInHand<'a> {
    pub object: &'a crate::core::MapObject,
    /// Its grips and where they are (map pixels, the layer's offset left out): a box's eight
    /// handles, a polygon's or path's points, turned as it is; none when it may not change.
    grips: Vec<(Grip, [f64; 2])>,
    /// Its layer's offset (its groups' added): it is drawn moved by it.
    shift: [f64; 2],
}

/// [`SightlineApp::focus`], of `editor` on `map`.
pub(super) fn object_focus<'a>(editor: &EditorState, map: &'a crate::core::Map) -> Option<ObjectInHand<'a>> {
    use crate::core::model::object::ShapeKind;
    let o = map.object_by_id(editor.focused_object.filter(|_| editor.tool == Tool::Object)?)?;
    // Not on a hidden layer (or in a hidden group): Tiled picks only what it shows.
    let look = map.object_looks().get(o.layer).copied().filter(|l| l.shown)?;
    let shape = o.shape.as_ref().filter(|_| !look.locked);
    let grips = match shape.map(|s| (s, s.position(o.cell, map.tile_size))) {
        Some((s, origin)) => match &s.kind {
            ShapeKind::Polygon(points) | ShapeKind::Polyline(points) => {
                // A point of the shape's own (unturned, from its origin) on the map.
                let at = |p: [f64; 2]| {
                    let [x, y] = crate::core::model::object::rotated(p, s.rotation);
                    [origin[0] + x, origin[1] + y]
                };
                let closed = matches!(s.kind, ShapeKind::Polygon(_));
                let segments = if closed { points.len() } else { points.len().saturating_sub(1) };
                let middles = (0..segments).map(|after| {
                    let (a, b) = (points[after], points[(after + 1) % points.len()]);
                    (Grip::Midpoint { after, origin }, at([(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]))
                });
                // The points after the middles: where they meet (a short segment), a point wins.
                middles
                    .chain(points.iter().enumerate().map(|(index, &p)| (Grip::Point { index, origin }, at(p))))
                    .collect()
            }
            ShapeKind::Tile { .. } => Vec::new(),
            // A turned box's handles turn with it, about its top-left corner (its origin).
            kind => match kind.size() {
                Some(size) => object_handles([0.0, 0.0], size)
                    .into_iter()
                    .map(|(handle, p)| {
                        let [x, y] = crate::core::model::object::rotated(p, s.rotation);
                        (Grip::Box { handle, top_left: origin, size }, [origin[0] + x, origin[1] + y])
                    })
                    .collect(),
                None => Vec::new(),
            },
        },
        None => Vec::new(),
    };
    Some(ObjectInHand { object: o, grips, shift: look.offset })
}

/// How near (screen pixels) a press must be to a handle of the focused object to resize it.
const HANDLE_PICK_PX: f32 = 6.0;

/// A box's eight handles (map pixels): its corners and its edges' middles, each with its place
/// as [`Resize::handle`] says it.
fn object_handles(top_left: [f64; 2], size: [f64; 2]) -> Vec<([i8; 2], [f64; 2])> {
    let mut handles = Vec::with_capacity(8);
    for hy in -1i8..=1 {
        for hx in -1i8..=1 {
            if [hx, hy] != [0, 0] {
                let along = |h: i8, axis: usize| top_left[axis] + size[axis] * f64::from(h + 1) / 2.0;
                handles.push(([hx, hy], [along(hx, 0), along(hy, 1)]));
            }
        }
    }
    handles
}

/// The objects standing on the selected cells of `editor`'s current object layer (when it is
/// shown): what Ctrl+C, Ctrl+X and Delete take there, ringed on the canvas.
fn selected_objects<'a>(editor: &EditorState, map: &'a crate::core::Map) -> Vec<&'a crate::core::MapObject> {
    let (Some(j), Some(selection)) = (editor.object_layer, &editor.selection) else { return Vec::new() };
    if !map.object_looks().get(j).is_some_and(|l| l.shown) {
        return Vec::new();
    }
    map.objects.iter().filter(|o| o.layer == j && selection.contains(o.cell)).collect()
}

/// White over a dark rim: a ring seen on any tile.
const RING_STROKES: [egui::Stroke; 2] = [
    egui::Stroke { width: 4.0, color: egui::Color32::from_rgba_premultiplied(0, 0, 0, 160) },
    egui::Stroke { width: 1.5, color: egui::Color32::WHITE },
];

/// The object the object tool has in hand, ringed: its outline (or its text's box, its tile's
/// image, its cell), and the handles that resize its box. `shift`: its layer's offset.
fn draw_object_focus(painter: &egui::Painter, view: &View, map: &crate::core::Map, hand: &ObjectInHand) {
    let ObjectInHand { object: o, grips, shift } = hand;
    draw_object_ring(painter, view, map, o, *shift, &RING_STROKES);
    let shift = *shift;
    let screen = |p: [f64; 2]| view.screen_from_layer_pixels(p, shift, map.tile_size);
    let rim = egui::Stroke::new(1.0, egui::Color32::BLACK);
    for &(grip, p) in grips {
        match grip {
            // A box's handles are squares, a polygon's points discs, as in Tiled.
            Grip::Box { .. } => {
                let rect = egui::Rect::from_center_size(screen(p), egui::vec2(7.0, 7.0));
                painter.rect(rect, 0.0, egui::Color32::WHITE, rim, egui::StrokeKind::Outside);
            }
            Grip::Point { .. } => {
                painter.circle(screen(p), 4.0, egui::Color32::WHITE, rim);
            }
            // A segment's middle: a hollow ring, to drag a new point out of.
            Grip::Midpoint { .. } => {
                painter.circle(
                    screen(p),
                    3.0,
                    egui::Color32::from_black_alpha(120),
                    egui::Stroke::new(1.0, egui::Color32::WHITE),
                );
            }
        }
    }
}

/// The colour of what a click would add: a shape being drawn, the objects a paste would lay.
const TO_BE_ADDED: egui::Color32 = egui::Color32::from_rgb(255, 200, 60);

/// The objects a click of the paste would lay, where they would stand: each one's outline (its
/// text's box, its tile's image) or, for a game object, its cell and its glyph. `shift`: the
/// offset of the layer they would go on.
fn draw_pasted_objects(
    painter: &egui::Painter,
    view: &View,
    map: &crate::core::Map,
    objects: &[crate::core::MapObject],
    shift: [f64; 2],
) {
    let strokes = [egui::Stroke::new(3.0, egui::Color32::from_black_alpha(120)), egui::Stroke::new(1.5, TO_BE_ADDED)];
    for o in objects {
        draw_object_ring(painter, view, map, o, shift, &strokes);
        if o.shape.is_none() {
            let font = egui::FontId::monospace((view.cell_px * 0.8).clamp(6.0, 40.0));
            painter.text(
                view.cell_rect(o.cell).center(),
                egui::Align2::CENTER_CENTER,
                o.kind.glyph(),
                font,
                TO_BE_ADDED,
            );
        }
    }
}

/// Object `o` ringed with `strokes` (drawn in turn): its outline, its text's box or its tile's
/// image, else its cell. `shift`: its layer's offset.
fn draw_object_ring(
    painter: &egui::Painter,
    view: &View,
    map: &crate::core::Map,
    o: &crate::core::MapObject,
    shift: [f64; 2],
    strokes: &[egui::Stroke],
) {
    let screen = |p: [f64; 2]| view.screen_from_layer_pixels(p, shift, map.tile_size);
    let cell_px = canvas::pixels_from_grid(egui::pos2(o.cell.x as f32, o.cell.y as f32), map.tile_size, [0.0, 0.0]);
    let placed = |p: [f64; 2]| screen([p[0] + cell_px[0], p[1] + cell_px[1]]);
    let sheet_corners = |s: &crate::core::model::object::ObjectShape| {
        let crate::core::model::object::ShapeKind::Tile { tile, .. } = s.kind else { return None };
        let sprite = map.tiles.get(usize::from(tile))?.sprite?;
        let sheet = map.sheets.get(usize::from(sprite.sheet))?;
        let image = [f64::from(sheet.tile_width), f64::from(sheet.tile_height)];
        s.tile_corners(&sheet.drawing, image, sheet.offset.map(f64::from))
    };
    let outline: Option<(Vec<egui::Pos2>, bool)> = o.shape.as_ref().and_then(|s| {
        if let Some((points, closed)) = s.outline() {
            return Some((points.into_iter().map(placed).collect(), closed));
        }
        let [a, b, c, d] = s.text_corners().or_else(|| sheet_corners(s))?;
        Some(([a, b, d, c].into_iter().map(placed).collect(), true))
    });
    for &stroke in strokes {
        match &outline {
            Some((points, true)) => {
                painter.add(egui::Shape::closed_line(points.clone(), stroke));
            }
            Some((points, false)) => {
                painter.add(egui::Shape::line(points.clone(), stroke));
            }
            // A point or a game object: its cell (a marker stays on its cell, whatever its
            // layer's offset).
            None => {
                painter.rect_stroke(view.cell_rect(o.cell), 0.0, stroke, egui::StrokeKind::Outside);
            }
        }
    }
}

/// How near (screen pixels) a press must be to a path or a point to pick it for a move.
const GRAB_SLACK_PX: f32 = 5.0;

/// How near (screen pixels) the polygon tool's click must be to the first point to close it.
const POLYGON_CLOSE_PX: f32 = 8.0;

/// The shape the object tool is drawing, as it will be made (`draft` as `choice`): its outline
/// (a text's box, a point's ring), and a polygon's points with the rubber band to the pointer.
fn draw_shape_draft(
    painter: &egui::Painter,
    view: &View,
    tile_size: [u32; 2],
    draft: Option<(&ShapeDraft, ObjectChoice)>,
    shift: [f64; 2],
) {
    use crate::core::model::object::{ObjectShape, ShapeKind};
    let Some((draft, choice)) = draft else { return };
    let screen = |p: [f64; 2]| view.screen_from_layer_pixels(p, shift, tile_size);
    let stroke = egui::Stroke::new(1.5, TO_BE_ADDED);
    let handle = |p: egui::Pos2| {
        painter.circle(p, 3.5, egui::Color32::BLACK, stroke);
    };
    if let ShapeDraft::Points { points, pointer, .. } = draft {
        let mut line: Vec<egui::Pos2> = points.iter().map(|&p| screen(p)).collect();
        line.push(screen(*pointer));
        painter.add(egui::Shape::line(line, stroke));
        for &p in points {
            handle(screen(p));
        }
        // The first point, ringed once a click there would close the polygon.
        if points.len() >= 3 {
            painter.circle_stroke(screen(points[0]), POLYGON_CLOSE_PX, stroke);
        }
        return;
    }
    let Ok((kind, position)) = draft.shape(choice, false) else {
        // A box of no area yet: its corner.
        if let ShapeDraft::Box { start, .. } = draft {
            handle(screen(*start));
        }
        return;
    };
    let shape = ObjectShape { offset: position, rotation: 0.0, kind };
    match (&shape.kind, shape.outline(), shape.text_corners()) {
        (_, Some((points, closed)), _) => {
            let points: Vec<egui::Pos2> = points.into_iter().map(screen).collect();
            painter.add(if closed {
                egui::Shape::closed_line(points, stroke)
            } else {
                egui::Shape::line(points, stroke)
            });
        }
        (_, None, Some([top_left, _, _, bottom_right])) => {
            let rect = egui::Rect::from_two_pos(screen(top_left), screen(bottom_right));
            painter.rect_stroke(rect, 0.0, stroke, egui::StrokeKind::Middle);
            painter.text(
                rect.left_top(),
                egui::Align2::LEFT_TOP,
                DEFAULT_OBJECT_TEXT,
                egui::FontId::proportional(12.0),
                TO_BE_ADDED,
            );
        }
        (ShapeKind::Point, ..) => handle(screen(position)),
        _ => {}
    }
}

fn draw_selection(
    painter: &egui::Painter,
    view: &View,
    visible: canvas::VisibleCells,
    selection: Option<&Selection>,
    picture: Option<egui::TextureId>,
) {
    use crate::core::edit::selection::runs_minus;
    let Some(s) = selection else { return };
    if view.cell_px < canvas::MIN_MESH_PX
        && let Some(texture) = picture
    {
        let step = selection_picture_step(s);
        let covered = egui::vec2(s.width().div_ceil(step) as f32, s.height().div_ceil(step) as f32) * step as f32;
        let rect = egui::Rect::from_min_size(view.screen_from_grid(Cell::new(0, 0)), covered * view.cell_px);
        let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
        // The texels are opaque; the tint makes them the wash.
        painter.image(texture, rect, uv, egui::Color32::from_white_alpha(90));
        return;
    }
    // The wash is one mesh of plain quads: rectangles painted one by one are each feathered
    // at their edges, which showed a seam between rows.
    let mut wash = egui::Mesh::default();
    // Under the outline, which is painted as the rows go.
    let wash_slot = painter.add(egui::Shape::Noop);
    let stroke = egui::Stroke::new(1.5, egui::Color32::from_rgb(120, 180, 255));
    let (x0, x1) = (visible.x0, visible.x1 - 1);
    let span = |y: i32, (a, b): (i32, i32)| {
        egui::Rect::from_min_max(view.cell_rect(Cell::new(a, y)).min, view.cell_rect(Cell::new(b, y)).max)
    };
    let mut above = s.runs_in_row(visible.y0 - 1, x0, x1);
    let mut row = s.runs_in_row(visible.y0, x0, x1);
    for y in visible.y0..visible.y1 {
        let below = s.runs_in_row(y + 1, x0, x1);
        for &run in &row {
            let r = span(y, run);
            wash.add_colored_rect(r, SELECTION_WASH);
            // A run's ends are the outline, unless the view cuts the run.
            if !s.contains(Cell::new(run.0 - 1, y)) {
                painter.line_segment([r.left_top(), r.left_bottom()], stroke);
            }
            if !s.contains(Cell::new(run.1 + 1, y)) {
                painter.line_segment([r.right_top(), r.right_bottom()], stroke);
            }
        }
        for run in runs_minus(&row, &above) {
            let r = span(y, run);
            painter.line_segment([r.left_top(), r.right_top()], stroke);
        }
        for run in runs_minus(&row, &below) {
            let r = span(y, run);
            painter.line_segment([r.left_bottom(), r.right_bottom()], stroke);
        }
        above = std::mem::replace(&mut row, below);
    }
    painter.set(wash_slot, egui::Shape::mesh(wash));
}

/// How many cells a side of one texel of the selection's picture covers.
fn selection_picture_step(s: &Selection) -> u32 {
    s.width().max(s.height()).div_ceil(canvas::MAX_TEXTURE_SIDE).max(1)
}

/// The selection's picture: a light blue texel where any cell of its block is selected,
/// transparent elsewhere.
fn selection_image(s: &Selection) -> egui::ColorImage {
    let step = selection_picture_step(s);
    let (w, h) = (s.width().div_ceil(step) as usize, s.height().div_ceil(step) as usize);
    let mut pixels = vec![egui::Color32::TRANSPARENT; w * h];
    for c in s.cells() {
        pixels[(c.y as usize / step as usize) * w + c.x as usize / step as usize] =
            egui::Color32::from_rgb(120, 180, 255);
    }
    egui::ColorImage::new([w, h], pixels)
}

/// "A: Dijkstra" in the corner of a split canvas.
fn side_label(painter: &egui::Painter, view: &View, side: usize, overlays: &Overlays) {
    let algorithm = overlays.path.settings.sides[side].algorithm;
    let text = format!("{}: {}", ["A", "B"][side], algorithms::path_label(algorithm));
    let pos = view.canvas.left_top() + egui::vec2(8.0, 6.0);
    let galley = painter.layout_no_wrap(text, egui::FontId::proportional(15.0), egui::Color32::WHITE);
    painter.rect_filled(
        egui::Rect::from_min_size(pos, galley.size()).expand(4.0),
        3.0,
        egui::Color32::from_black_alpha(180),
    );
    painter.galley(pos, galley, egui::Color32::WHITE);
}

/// Paths dropped onto the window, first one only.
pub(crate) fn dropped_path(ctx: &egui::Context) -> Option<PathBuf> {
    ctx.input(|i| i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).find(|p| !p.as_os_str().is_empty()))
}

/// A layer's or group's own tint, offset and parallax; `None` for one the map does not have.
pub fn drawn_look(map: &crate::core::Map, item: StackItem) -> Option<DrawnLook> {
    match item {
        StackItem::Layer(LayerRef::Tiles(i)) => {
            map.layers.get(i).map(|l| DrawnLook { tint: l.tint, offset: l.offset, parallax: l.parallax })
        }
        StackItem::Group(g) => {
            map.groups.get(g).map(|g| DrawnLook { tint: g.tint, offset: g.offset, parallax: g.parallax })
        }
        StackItem::Layer(LayerRef::Objects(j)) => {
            map.object_layers.get(j).map(|l| DrawnLook { tint: l.tint, offset: l.offset, parallax: l.parallax })
        }
    }
}

/// The visibility (`visible`) or lock flag of a layer or group.
fn layer_flag(map: &mut crate::core::Map, item: StackItem, visible: bool) -> Option<&mut bool> {
    match item {
        StackItem::Group(g) => map.groups.get_mut(g).map(|g| if visible { &mut g.visible } else { &mut g.locked }),
        StackItem::Layer(LayerRef::Objects(j)) => {
            map.object_layers.get_mut(j).map(|l| if visible { &mut l.visible } else { &mut l.locked })
        }
        StackItem::Layer(LayerRef::Tiles(i)) => {
            map.layers.get_mut(i).map(|l| if visible { &mut l.visible } else { &mut l.locked })
        }
    }
}
