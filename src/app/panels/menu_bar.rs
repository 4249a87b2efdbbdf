//! The menu bar: File, Edit, View, Layer, Tools, Overlays, Play and Help, and the brush and layer it names.

use crate::app::play::PlayCommand;
use crate::app::{
    Command, FileCommand, HistoryCommand, MapCommand, OverlayCommand, OverlayKind, SelectionCommand, SightlineApp,
    TileCommand, ToolCommand, ViewCommand,
};
use crate::core::sim::Preset;

/// The Help menu: every key.
const HELP: &[&str] = &[
    "Canvas: wheel zooms, middle-drag or Space+drag pans, arrows pan, +/- zoom, G grid",
    "Tools: B brush, E eraser, R rectangle, L line, F fill (Shift: the whole selection), T terrain (at size 1 the nearest corner or edge), I picker (or right-click), O object (drag one to move it), P probe",
    "Select: S rectangle, W magic wand, Shift+S same tile; Shift adds, Ctrl subtracts, Ctrl+Shift intersects; the tools paint only inside a selection",
    "Selection: Ctrl+A all, Ctrl+Shift+A or Esc none, Ctrl+I invert; Ctrl+C copy, Ctrl+X cut, Ctrl+V paste (click or drag lays it, Shift+drag a line, Esc drops it), Ctrl+Shift+V paste in place, Delete erases; on an object layer these take the objects on the selected cells (or the object in hand), and the object tool drags them together; the clipboard stays when another map is opened, and a paste there brings the tile types and tilesets it lacks; Ctrl+N new map",
    "Objects: O, then a game object (click places, drag one moves it, right-click removes) or a Tiled shape: rectangle, ellipse, capsule (drag; Shift square), point (click), text (click or drag), tile (click; the brush's tile), polygon or path (clicks; the first point closes, Enter or right-click ends a path, Backspace takes one back); Ctrl, Ctrl+Shift toggle snapping; Alt draws over an object; Esc drops the shape; the object in hand (ringed): drag a handle to resize it, a polygon's point to move it or a segment's middle to add one, right-click a point to take it away, click an end of a path (polygon or path chosen) to go on from it, Delete removes it, Esc lets it go",
    "Turn: X, Y flip, Z, Shift+Z rotate the stamp being placed, else the brush's tile",
    "Edit: Ctrl+Z undo, Ctrl+Shift+Z or Ctrl+Y redo; Ctrl+O open, Ctrl+S save, Ctrl+Shift+S save as",
    "Layers: Ctrl+Shift+N new, Ctrl+Shift+D duplicate, Ctrl+Shift+Up/Down raise/lower, Ctrl+G group, Ctrl+Shift+G ungroup, Ctrl+PgUp/PgDown select",
    "Overlays: Overlays menu; the Probe tool clicks cells for them; drag S and G",
    "Play: F5 plays; arrows, hjklyubn or 1-9 move; . or 5 waits; o opens, c closes doors",
    "Play: x explores, a click travels through known cells, Esc stops walking",
];

pub(crate) fn menu_bar_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    egui::Panel::top("menu_bar").show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("New…").clicked() {
                    app.commands.push(Command::File(FileCommand::ShowNewMap));
                }
                if ui.button("Open…").clicked() {
                    app.commands.push(Command::File(FileCommand::PickOpen));
                }
                ui.menu_button("Open recent", |ui| {
                    if app.recent.is_empty() {
                        ui.weak("(none yet)");
                    }
                    let labels = crate::app::recovery::recent_labels(&app.recent);
                    // A file moved or deleted since is shown, greyed, for what it was. The disk is
                    // asked again every two seconds while the menu is open, not every frame.
                    let id = ui.scope_id().with("recent files found");
                    let now = ui.input(|i| i.time);
                    // Kept with the paths it is about: a reopened file reorders the list.
                    type Checked = (f64, Vec<std::path::PathBuf>, Vec<bool>);
                    let checked = ui.data(|d| d.get_temp::<Checked>(id));
                    let found = match checked {
                        Some((at, paths, found)) if now - at < 2.0 && paths == app.recent => found,
                        _ => {
                            let found: Vec<bool> = app.recent.iter().map(|p| p.exists()).collect();
                            ui.data_mut(|d| d.insert_temp(id, (now, app.recent.clone(), found.clone())));
                            found
                        }
                    };
                    for ((path, label), found) in app.recent.clone().into_iter().zip(labels).zip(found) {
                        if ui
                            .add_enabled(found, egui::Button::new(label))
                            .on_hover_text(path.display().to_string())
                            .on_disabled_hover_text(format!("not found: {}", path.display()))
                            .clicked()
                        {
                            app.commands.push(Command::File(FileCommand::Open(path)));
                        }
                    }
                });
                if ui.button("Save").clicked() {
                    app.commands.push(Command::File(FileCommand::Save));
                }
                if ui.button("Save As…").clicked() {
                    app.commands.push(Command::File(FileCommand::PickSaveAs));
                }
                if ui
                    .button("Export a copy…")
                    .on_hover_text("Tiled TMX/TMJ, ASCII, MovingAI or RON, by extension")
                    .clicked()
                {
                    app.commands.push(Command::File(FileCommand::PickExport));
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    app.commands.push(Command::File(FileCommand::Quit));
                }
            });
            ui.menu_button("Edit", |ui| {
                // What the next undo and redo take back, by name ("Undo Paint"), as Tiled's.
                let what = |step: Option<&crate::app::document::Step>| {
                    step.map_or_else(String::new, |s| format!(" {}", s.name()))
                };
                let undo = format!("Undo{}  (Ctrl+Z)", what(app.document.undo.last()));
                if ui.add_enabled(!app.document.undo.is_empty(), egui::Button::new(undo)).clicked() {
                    app.commands.push(Command::History(HistoryCommand::Undo));
                }
                let redo = format!("Redo{}  (Ctrl+Shift+Z)", what(app.document.redo.last()));
                if ui.add_enabled(!app.document.redo.is_empty(), egui::Button::new(redo)).clicked() {
                    app.commands.push(Command::History(HistoryCommand::Redo));
                }
                if ui.button("History…").on_hover_text("Every step, to go back or forward to any").clicked() {
                    app.commands.push(Command::View(ViewCommand::ShowHistory));
                }
                ui.separator();
                let selected = app.editor.selection.is_some();
                // The object in hand is copied, cut and deleted as a selection is.
                let in_hand = crate::app::object_focus(&app.editor, &app.document.map).is_some();
                let stamp = app.editor.clipboard.is_some();
                let erase = if in_hand || app.editor.object_layer.is_some() {
                    "Delete objects  (Delete)"
                } else {
                    "Erase selection  (Delete)"
                };
                for (label, enabled, command) in [
                    ("Cut  (Ctrl+X)", selected || in_hand, Command::Selection(SelectionCommand::Cut)),
                    ("Copy  (Ctrl+C)", selected || in_hand, Command::Selection(SelectionCommand::Copy)),
                    ("Paste  (Ctrl+V)", stamp, Command::Selection(SelectionCommand::Paste)),
                    (
                        "Paste in place  (Ctrl+Shift+V)",
                        app.editor.clipboard_origin.is_some() && stamp,
                        Command::Selection(SelectionCommand::PasteInPlace),
                    ),
                    (erase, selected || in_hand, Command::Selection(SelectionCommand::DeleteSelection)),
                    ("Select all  (Ctrl+A)", true, Command::Selection(SelectionCommand::SelectAll)),
                    ("Select none  (Ctrl+Shift+A)", selected, Command::Selection(SelectionCommand::SelectNone)),
                    ("Invert selection  (Ctrl+I)", true, Command::Selection(SelectionCommand::InvertSelection)),
                ] {
                    if ui.add_enabled(enabled, egui::Button::new(label)).clicked() {
                        app.commands.push(command);
                    }
                }
                ui.separator();
                let what = if app.editor.pasting { "the stamp being pasted" } else { "the brush's tile" };
                for turn in crate::core::model::flip::Turn::ALL {
                    if ui.button(turn.label()).on_hover_text(format!("Turns {what}")).clicked() {
                        app.commands.push(Command::Tools(ToolCommand::TurnStamp(turn)));
                    }
                }
                ui.separator();
                if ui.button("Tile types…").clicked() {
                    app.commands.push(Command::Tiles(TileCommand::ShowTileTypes(true)));
                }
                if ui.button("Resize map…").clicked() {
                    app.commands.push(Command::Map(MapCommand::ShowResize));
                }
                let crop = ui
                    .add_enabled(selected, egui::Button::new("Crop to selection"))
                    .on_hover_text("Cut the map down to the selection's bounding rectangle")
                    .on_disabled_hover_text("Select cells first (S, W or Shift+S)");
                if crop.clicked() {
                    app.commands.push(Command::Selection(SelectionCommand::CropToSelection));
                }
                if ui.button("Map properties…").clicked() {
                    app.commands.push(Command::Map(MapCommand::ShowMapProperties(true)));
                }
            });
            crate::app::panels::layers::layer_menu_ui(app, ui);
            ui.menu_button("View", |ui| {
                if ui.button("Fit to window").clicked() {
                    app.commands.push(Command::View(ViewCommand::FitView));
                }
                let mut grid = app.view.show_grid;
                if ui.checkbox(&mut grid, "Grid").changed() {
                    app.commands.push(Command::View(ViewCommand::ToggleGrid));
                }
                let mut sprites = app.view.show_sprites;
                if ui
                    .checkbox(&mut sprites, "Tile images")
                    .on_hover_text("Tiles with a tileset image drawn as the image; glyphs otherwise")
                    .changed()
                {
                    app.commands.push(Command::View(ViewCommand::ShowSprites(sprites)));
                }
                let mut animate = app.view.animate_tiles;
                if ui
                    .checkbox(&mut animate, "Tile animations")
                    .on_hover_text("Animated tiles (Tiled's tile animations) play their frames; off: each shows itself")
                    .changed()
                {
                    app.commands.push(Command::View(ViewCommand::AnimateTiles(animate)));
                }
                if ui.button("Zoom in").clicked() {
                    app.commands.push(Command::View(ViewCommand::ZoomBy(1.25)));
                }
                if ui.button("Zoom out").clicked() {
                    app.commands.push(Command::View(ViewCommand::ZoomBy(0.8)));
                }
            });
            ui.menu_button("Overlays", |ui| {
                for kind in OverlayKind::ALL {
                    let mut on = app.overlays.is_on(kind);
                    if ui.checkbox(&mut on, kind.label()).changed() {
                        app.commands.push(Command::Overlay(OverlayCommand::Show(kind, on)));
                    }
                }
                ui.separator();
                if ui.button("External algorithms…").clicked() {
                    app.commands.push(Command::Overlay(OverlayCommand::Ext(
                        crate::app::external::ExtCommand::ShowWindow(true),
                    )));
                }
                if ui.button("Export view as PNG…").clicked() {
                    app.commands.push(Command::File(FileCommand::PickExportPng));
                }
                if ui.button("Copy overlay numbers").clicked() {
                    ui.ctx().copy_text(app.overlays.numbers_text());
                }
            });
            ui.menu_button("Play", |ui| {
                let mut pane = app.play.pane_open;
                if ui.checkbox(&mut pane, "Preview pane").changed() {
                    app.commands.push(Command::Play(PlayCommand::ShowPane(pane)));
                }
                let mut active = app.play.active;
                if ui.checkbox(&mut active, "Play mode (F5)").changed() {
                    app.commands.push(Command::Play(PlayCommand::SetActive(active)));
                }
                if ui.button("Restart game").clicked() {
                    app.commands.push(Command::Play(PlayCommand::Restart));
                }
                ui.separator();
                for preset in Preset::ALL {
                    if ui.radio(app.play.preset == preset, preset.name()).clicked() {
                        app.commands.push(Command::Play(PlayCommand::SetPreset(preset)));
                    }
                }
            });
            ui.menu_button("Help", |ui| {
                ui.set_min_width(360.0);
                // One line each: a wrapped line is stretched across the menu's justified width.
                for line in HELP {
                    ui.add(egui::Label::new(*line).wrap_mode(egui::TextWrapMode::Extend));
                }
            });
        });
    });
}
