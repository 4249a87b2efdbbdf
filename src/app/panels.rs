//! The panels around the canvas: menu bar, status bar, inspector, error dialog, shortcuts.

use crate::app::{
    FileCommand, HistoryCommand, MapCommand, ObjectCommand, SelectionCommand, TileCommand, ToolCommand, ViewCommand,
};
use egui::RichText;

use super::play::PlayCommand;
use super::{Command, ObjectChoice, OverlayCommand, OverlayKind, SightlineApp};
use crate::core::MapObject;
use crate::core::model::flip::Flip;
use crate::core::model::object::MAX_RADIUS;
use crate::core::sim::Preset;

/// A vision or light radius, 0 to [`MAX_RADIUS`] cells: a radius read from a file is shown as it
/// is (a field that clamped what it shows would change the object just by showing it).
fn radius_field<'a>(radius: &'a mut u32, prefix: &str) -> egui::DragValue<'a> {
    egui::DragValue::new(radius).range(0..=MAX_RADIUS).clamp_existing_to_range(false).prefix(prefix)
}

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

pub fn menu_bar_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
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
                    let labels = super::recovery::recent_labels(&app.recent);
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
                let what =
                    |step: Option<&super::document::Step>| step.map_or_else(String::new, |s| format!(" {}", s.name()));
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
                let in_hand = super::object_focus(&app.editor, &app.document.map).is_some();
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
            super::layers_panel::layer_menu_ui(app, ui);
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

/// The brush's tile (as it will be painted, with a button that resets its turn) and the
/// current layer, at the status bar's left.
fn brush_and_layer_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let sheets = &app.sheets;
    let map = &app.document.map;
    if let Some(t) = map.tiles.get(usize::from(app.editor.tile)).filter(|_| !app.editor.pasting) {
        ui.label("tile:");
        // The brush's tile as it will be painted: its image turned as the brush has it.
        if let Some((_, texture, uv)) = super::canvas::tile_sprite(map, sheets, app.editor.tile) {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 18.0), egui::Sense::hover());
            let mut mesh = egui::Mesh::with_texture(texture.id);
            super::canvas::add_flipped_sprite(&mut mesh, rect, uv, app.editor.flip, egui::Color32::WHITE);
            ui.painter().add(egui::Shape::mesh(mesh));
            ui.label(&t.name);
        } else {
            ui.label(format!("{} '{}'", t.name, t.glyph.ch));
        }
        let flip = app.editor.flip;
        if !flip.is_none() {
            let r = ui.button(format!("{} ×", flip.describe())).on_hover_text(
                "The brush paints its tile turned this way (X, Y flip; Z, Shift+Z rotate). Click to paint it as \
                     drawn",
            );
            if r.clicked() {
                app.commands.push(Command::Tools(ToolCommand::SetBrushFlip(Flip::NONE)));
            }
        }
    }
    match app.editor.current_item() {
        crate::core::StackItem::Group(g) => {
            if let Some(group) = map.groups.get(g) {
                ui.label(format!("layer group: {}", group.name));
            }
        }
        crate::core::StackItem::Layer(crate::core::LayerRef::Objects(j)) => {
            if let Some(l) = map.object_layers.get(j) {
                ui.label(format!("object layer: {}", l.name));
            }
        }
        crate::core::StackItem::Layer(crate::core::LayerRef::Tiles(i)) => {
            if let Some(l) = map.layers.get(i) {
                ui.label(format!("layer: {}", l.name));
            }
        }
    }
}

pub fn status_bar_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    egui::Panel::bottom("status_bar").show(ui, |ui| {
        ui.horizontal(|ui| {
            brush_and_layer_ui(app, ui);
            ui.separator();
            let cursor = app.hovered.map_or_else(|| "–".to_owned(), |c| format!("{}, {}", c.x, c.y));
            ui.label(format!("cell {cursor}"));
            ui.separator();
            ui.label(format!("{} × {}", app.document.map.width(), app.document.map.height()));
            ui.separator();
            ui.label(format!("zoom {:.0}%", app.view.cell_px / 16.0 * 100.0));
            ui.separator();
            ui.label(format!("frame {:.1} ms", app.last_frame_time * 1000.0));
            if let Some(s) = &app.editor.selection
                && let Some((min, max)) = s.bounds()
            {
                let n = s.len();
                ui.separator();
                let (w, h) = (max.x - min.x + 1, max.y - min.y + 1);
                let cells = if n == 1 { "1 cell".to_owned() } else { format!("{n} cells") };
                ui.label(format!("selected {cells} in {w} × {h} from {}, {}", min.x, min.y))
                    .on_hover_text("The tools paint only inside the selection; Esc or Ctrl+Shift+A selects none");
            }
            if let Some(notice) = &app.notice {
                ui.separator();
                ui.label(RichText::new(notice).color(ui.visuals().warn_fg_color));
            }
        });
    });
}

/// The right panel: the inspector, then a section for each overlay that is on.
pub fn side_panel_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    egui::Panel::right("side_panel").default_size(300.0).show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::CollapsingHeader::new("Inspector").default_open(true).show(ui, |ui| inspector_ui(app, ui));
            let mut commands = Vec::new();
            app.overlays.panel_ui(ui, &mut commands);
            // The numbers are put together on a click, not every frame (a line a light, say).
            if !OverlayKind::ALL.iter().any(|k| app.overlays.is_on(*k)) {
                ui.separator();
                ui.weak("Overlays: see the Overlays menu.");
            } else if ui.button("Copy numbers").clicked() {
                ui.ctx().copy_text(app.overlays.numbers_text());
            }
            app.commands.extend(commands);
            // Below the overlays' panels, which a developer watches while probing the map.
            ui.separator();
            egui::CollapsingHeader::new(format!("Objects ({})", app.document.map.objects.len()))
                .id_salt("objects list header")
                .default_open(true)
                .show(ui, |ui| super::objects_panel::objects_ui(app, ui));
            let steps = app.document.undo.len() + app.document.redo.len();
            let reveal = std::mem::take(&mut app.reveal_history);
            let history = egui::CollapsingHeader::new(format!("History ({steps})"))
                .id_salt("history header")
                .open(reveal.then_some(true))
                .show(ui, |ui| super::history::history_ui(ui, &app.document, &mut app.commands));
            if reveal {
                history.header_response.scroll_to_me(Some(egui::Align::TOP));
            }
        });
    });
}

/// The inspector: the hovered cell, or (when the pointer is off the canvas) the selected one,
/// which can then be edited: the tile on each layer, and the objects standing there.
fn inspector_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    // The cell where the selection began, while it is selected.
    let selected =
        app.editor.selection_origin.filter(|&c| app.editor.selection.as_ref().is_some_and(|s| s.contains(c)));
    // With the object tool out, the object it last drew, placed or moved (Tiled selects it).
    let focused = super::object_focus(&app.editor, &app.document.map).map(|hand| hand.object);
    let (cell, editable, why) = match (app.hovered, focused, selected) {
        (Some(c), ..) => (c, false, ""),
        (None, Some(o), _) => (o.cell, true, " (the object tool's)"),
        (None, None, Some(c)) if app.document.map.in_bounds(c) => (c, true, " (selected)"),
        _ => {
            ui.label("Hover a cell to see it; select one (S) to edit it here.");
            return;
        }
    };
    let map = &app.document.map;
    ui.label(format!("Cell {}, {}{why}", cell.x, cell.y));
    let rules = map.rules_at(cell);
    egui::Grid::new("cell_rules").num_columns(2).show(ui, |ui| {
        ui.label("opaque");
        ui.label(rules.opaque.to_string());
        ui.end_row();
        ui.label("walkable");
        ui.label(rules.walkable.to_string());
        ui.end_row();
        ui.label("cost");
        ui.label(format!("{}", rules.cost));
        ui.end_row();
    });
    ui.separator();
    let tile_options: Vec<(crate::core::TileId, String)> = map
        .tiles
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (i as crate::core::TileId, if i == 0 { "(empty)".to_owned() } else { format!("{} {}", t.glyph.ch, t.name) })
        })
        .collect();
    let mut commands = Vec::new();
    for (li, layer) in map.layers.iter().enumerate() {
        let Some((t, flip)) = map.flipped_tile(li, cell) else { continue };
        if editable {
            ui.horizontal(|ui| {
                ui.label(&layer.name);
                let mut tile = t;
                let options: Vec<_> = tile_options.iter().map(|(i, n)| (*i, n.as_str())).collect();
                super::overlays::choice_with_id_ui(
                    ui,
                    ("tile on layer", li),
                    &format!("tile on {}", layer.name),
                    &mut tile,
                    &options,
                );
                if tile != t {
                    commands.push(Command::Tiles(TileCommand::SetCellTile { layer: li, cell, tile, flip }));
                }
            });
            if t != 0 {
                // The eight ways to turn a square; a hexagonal map's 120° bit stays as it is.
                let hex = flip.bits() & Flip::HEXAGONAL_120.bits();
                let options: Vec<(Flip, &str)> = (0..8u8)
                    .filter_map(|k| Flip::from_bits(k << 1 | hex))
                    .map(|f| (f, if f.describe().is_empty() { "as drawn" } else { f.describe() }))
                    .collect();
                let mut turned = flip;
                ui.horizontal(|ui| {
                    ui.label("  turned");
                    super::overlays::choice_with_id_ui(
                        ui,
                        ("flip on layer", li),
                        &format!("flip on {}", layer.name),
                        &mut turned,
                        &options,
                    );
                });
                if turned != flip {
                    commands.push(Command::Tiles(TileCommand::SetCellTile { layer: li, cell, tile: t, flip: turned }));
                }
            }
        } else if t != 0 {
            let kind = &map.tiles[usize::from(t)];
            let turned = if flip.describe().is_empty() { String::new() } else { format!(", {}", flip.describe()) };
            ui.label(format!("{}: {} '{}'{turned}", layer.name, kind.name, kind.glyph.ch));
        }
        if let Some(d) = map.tiles.get(usize::from(t)).and_then(|k| k.door) {
            ui.label(format!("  door, {}", if d.open { "open" } else { "closed" }));
        }
        if let Some(frames) = map.tiles.get(usize::from(t)).map(|k| &k.animation).filter(|a| !a.is_empty()) {
            let ms: u64 = frames.iter().map(|f| u64::from(f.duration_ms)).sum();
            let n = frames.len();
            ui.label(format!("  animated: {n} frame{}, {ms} ms a loop", if n == 1 { "" } else { "s" }));
        }
    }
    for (index, o) in map.objects.iter().enumerate().filter(|(_, o)| o.cell == cell) {
        ui.separator();
        // An `object` property reads as the object it names.
        let value_text = |v: &crate::core::PropertyValue| match v {
            crate::core::PropertyValue::Object(id) => crate::core::model::object::reference_text(*id, &map.objects),
            other => other.to_string(),
        };
        let layer = map.object_layers.get(o.layer).map_or(String::new(), |l| {
            let hidden = if map.object_layer_visible(o.layer) { "" } else { ", hidden" };
            format!("  on {}{hidden}", l.name)
        });
        // An object whose Tiled type is empty is called what it is.
        let kind_name = match o.kind.type_name() {
            "" => "object",
            name => name,
        };
        if !editable {
            let hidden = if o.visible { "" } else { " (hidden)" };
            ui.label(format!("{kind_name} #{} {:?}{hidden}{layer}", o.id, o.name));
            if let Some(t) = &o.template {
                ui.label(format!("  instance of {}", t.file_name()));
            }
            if let Some(shape) = &o.shape {
                ui.label(format!("  {}", shape.describe()));
            }
            for (k, v) in &o.properties {
                ui.label(format!("  {k} = {}", value_text(v)));
            }
            continue;
        }
        let mut edited = o.clone();
        ui.horizontal(|ui| {
            ui.label(kind_name);
            let r = ui.add(egui::TextEdit::singleline(&mut edited.name).desired_width(120.0));
            name_widget(ui, &r, &format!("name of {kind_name}"));
            ui.weak(format!("#{}", o.id)).on_hover_text("The object's id, which `object` properties name");
        });
        if let crate::core::ObjectKind::Other(class) = &o.kind {
            // The class the designer's game reads (Tiled's class), edited in a draft applied
            // when the field is left (Esc drops it), as a layer's name is: a class the game
            // knows ("monster", "light", …) makes it that object, as loading a map would, and
            // must not do so halfway through typing "lighthouse".
            ui.horizontal(|ui| {
                ui.label("class");
                let draft_id = egui::Id::unique(("sightline object class draft", o.id));
                let mut text = ui.data(|d| d.get_temp::<String>(draft_id)).unwrap_or_else(|| class.clone());
                let r = ui.add(egui::TextEdit::singleline(&mut text).desired_width(120.0)).on_hover_text(
                    "Tiled's class: what the game takes the object for. player, monster, item and light are \
                     sightline's own objects; any other class is the designer's (a zone, a trigger)",
                );
                name_widget(ui, &r, &format!("class of object #{}", o.id));
                if r.lost_focus() {
                    ui.data_mut(|d| d.remove::<String>(draft_id));
                    if !ui.input(|i| i.key_pressed(egui::Key::Escape)) && text.trim() != class {
                        commands.push(Command::Objects(ObjectCommand::ReclassObject {
                            id: o.id,
                            class: text.trim().to_owned(),
                        }));
                    }
                } else if r.has_focus() {
                    ui.data_mut(|d| d.insert_temp(draft_id, text));
                }
            });
            // With no class, loading a map reads the kind from the name (a Tiled map's
            // objects named "player" are the player's start): say so before it surprises.
            if let Ok(read) = o.reclassed("").map(|r| r.kind)
                && class.is_empty()
                && !matches!(read, crate::core::ObjectKind::Other(_))
            {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!("named as a {}: loading makes it one; a class keeps it as it is", read.type_name()),
                );
            }
        }
        if map.object_layers.len() > 1 || !layer.is_empty() {
            ui.weak(layer.trim_start()).on_hover_text("The object layer it is on");
        }
        ui.horizontal(|ui| {
            let r = ui
                .checkbox(&mut edited.visible, "Visible")
                .on_hover_text("Drawn on the canvas; a hidden object is still in the game (Tiled's object visibility)");
            name_widget(ui, &r, &format!("visible {kind_name}"));
            let r = ui.add(
                egui::Slider::new(&mut edited.opacity, 0.0..=1.0)
                    .clamping(egui::SliderClamping::Edits)
                    .text("opacity")
                    .fixed_decimals(2),
            );
            name_widget(ui, &r, &format!("opacity of {kind_name}"));
        });
        if let Some(template) = &o.template {
            template_link_ui(ui, o, template, &mut edited);
        }
        if let Some(shape) = &o.shape {
            ui.label(format!("  {}", shape.describe()));
            ui.push_id(("object geometry", o.id), |ui| {
                commands.extend(object_geometry_ui(ui, o.id, o.cell, shape, map.tile_size));
            });
        }
        if let Some(crate::core::model::object::ShapeKind::Text { text, .. }) =
            edited.shape.as_mut().map(|s| &mut s.kind)
        {
            // Two text objects may stand on one cell: their combo boxes apart.
            ui.push_id(o.id, |ui| object_text_ui(ui, text));
        }
        match &mut edited.kind {
            crate::core::ObjectKind::Monster { glyph, vision_radius } => {
                ui.horizontal(|ui| {
                    let mut text = glyph.to_string();
                    let r = ui.add(egui::TextEdit::singleline(&mut text).desired_width(26.0));
                    name_widget(ui, &r, "glyph of the monster");
                    if let Some(ch) = text.chars().find(|c| c != glyph && c.is_alphabetic()) {
                        *glyph = ch;
                    }
                    let r = ui.add(radius_field(vision_radius, "vision "));
                    name_widget(ui, &r, "vision of the monster");
                });
            }
            crate::core::ObjectKind::Light { radius } => {
                let r = ui.add(radius_field(radius, "radius "));
                name_widget(ui, &r, "radius of the light");
            }
            _ => {}
        }
        if matches!(o.kind, crate::core::ObjectKind::Monster { .. } | crate::core::ObjectKind::PlayerStart) {
            // Its `light` property (also in the table below), which play reads as a torch.
            let mut light = o.carried_light().unwrap_or(0);
            let r = ui.add(radius_field(&mut light, "carries a light ")).on_hover_text(
                "The radius of a light it carries wherever it goes in play (0: none): its 'light' property",
            );
            name_widget(ui, &r, "light it carries");
            if r.changed() {
                let key = crate::core::model::object::CARRIED_LIGHT;
                if light == 0 {
                    edited.properties.remove(key);
                } else {
                    edited.properties.insert(key.into(), crate::core::PropertyValue::Int(i64::from(light)));
                }
            }
        }
        if o.kind == crate::core::ObjectKind::PlayerStart {
            // Its `vision` property (also in the table below): absent, the play preset's
            // vision; 0, blind in the dark (only what light lights).
            ui.horizontal(|ui| {
                let mut own = o.player_vision().is_some();
                let r = ui.checkbox(&mut own, "own vision").on_hover_text(
                    "How far the player sees in the dark, over the play preset's: its 'vision' property. \
                     0 sees only what light lights, as in Angband.",
                );
                name_widget(ui, &r, "player has a vision of its own");
                let mut vision = o.player_vision().unwrap_or(crate::core::model::object::DEFAULT_VISION_RADIUS);
                let v = ui.add_enabled(own, radius_field(&mut vision, "vision "));
                name_widget(ui, &v, "vision of the player");
                if r.changed() || v.changed() {
                    let key = crate::core::model::object::PLAYER_VISION;
                    if own {
                        edited.properties.insert(key.into(), crate::core::PropertyValue::Int(i64::from(vision)));
                    } else {
                        edited.properties.remove(key);
                    }
                }
            });
        }
        egui::CollapsingHeader::new(format!("Custom properties ({})", o.properties.len()))
            .id_salt(("sightline object properties", o.id))
            .default_open(true)
            .show(ui, |ui| {
                let owner = if o.name.is_empty() { format!("object #{}", o.id) } else { format!("object {}", o.name) };
                // What a Tiled file holds the kind's own fields in (edited above).
                let reserved: &[&str] = match o.kind {
                    crate::core::ObjectKind::Monster { .. } => &["glyph", "vision"],
                    crate::core::ObjectKind::Light { .. } => &["radius"],
                    _ => &[],
                };
                if let Some(properties) =
                    super::properties_editor::properties_ui(ui, &owner, &o.properties, reserved, &map.objects)
                {
                    edited.properties = properties;
                }
            });
        if ui.button("Remove").on_hover_text("Remove this object").clicked() {
            commands.push(Command::Objects(ObjectCommand::RemoveObject(index)));
        } else if edited != *o {
            commands.push(Command::Objects(ObjectCommand::EditObject(index, edited)));
        }
    }
    app.commands.extend(commands);
}

/// An instance's link to its Tiled template: the template, what the object sets itself (the
/// rest is the template's, and follows it when the template is edited in Tiled), and buttons to
/// take the template's values back or to cut the link (`edited` takes either).
fn template_link_ui(
    ui: &mut egui::Ui,
    object: &MapObject,
    template: &crate::core::model::object::ObjectTemplate,
    edited: &mut MapObject,
) {
    let own = template.own_values(object);
    ui.horizontal(|ui| {
        ui.label(format!("instance of {}", template.file_name()))
            .on_hover_text(format!("Tiled object template {}", template.path.display()));
        let reset = ui
            .add_enabled(!own.is_empty(), egui::Button::new("Reset"))
            .on_hover_text("Take the template's values back: name, type, shape and properties (it stays where it is)")
            .on_disabled_hover_text("It has all the template's values");
        name_widget(ui, &reset, "Reset to template");
        if reset.clicked() {
            *edited = template.reset(object);
        }
        let detach =
            ui.button("Detach").on_hover_text("Keep its values as its own, without the link: a save writes them all");
        name_widget(ui, &detach, "Detach from template");
        if detach.clicked() {
            edited.template = None;
        }
    });
    let own_text =
        if own.is_empty() { "all the template's values".to_owned() } else { format!("its own: {}", own.join(", ")) };
    let lacks = !template.lacking(object).is_empty();
    let r = ui.weak(format!("  {own_text}"));
    if lacks {
        r.on_hover_text("A Tiled file cannot say that an instance lacks a property of its template: a save writes this object without its link");
    } else {
        r.on_hover_text(
            "What the object sets itself; the rest is the template's, and follows it when the template changes",
        );
    }
}

/// A text object's text and layout, as Tiled's properties panel edits them: the text (several
/// lines), font size, colour, wrap, alignment across and down its box, bold, italic, underline
/// and strike-out. The font family is kept as the file gave it.
fn object_text_ui(ui: &mut egui::Ui, text: &mut crate::core::model::object::ObjectText) {
    use crate::core::model::object::{HorizontalAlign, VerticalAlign};
    let r = ui.add(egui::TextEdit::multiline(&mut text.text).desired_rows(2).desired_width(f32::INFINITY));
    name_widget(ui, &r, "text of the object");
    ui.horizontal(|ui| {
        let r = ui.add(
            egui::DragValue::new(&mut text.pixel_size).range(1..=512).clamp_existing_to_range(false).suffix(" px"),
        );
        name_widget(ui, &r, "font size of the text");
        let c = text.color;
        let mut rgba = [c.0, c.1, c.2, c.3];
        let r = ui.color_edit_button_srgba_unmultiplied(&mut rgba);
        name_widget(ui, &r, "colour of the text");
        text.color = crate::core::Rgba(rgba[0], rgba[1], rgba[2], rgba[3]);
        let r = ui.checkbox(&mut text.wrap, "Wrap").on_hover_text("Break lines at the box's width");
        name_widget(ui, &r, "wrap the text");
    });
    ui.horizontal(|ui| {
        let across = [
            (HorizontalAlign::Left, "left"),
            (HorizontalAlign::Center, "centre"),
            (HorizontalAlign::Right, "right"),
            (HorizontalAlign::Justify, "justify"),
        ];
        super::overlays::choice_ui(ui, "text alignment across", &mut text.halign, &across);
        let down = [(VerticalAlign::Top, "top"), (VerticalAlign::Center, "middle"), (VerticalAlign::Bottom, "bottom")];
        super::overlays::choice_ui(ui, "text alignment down", &mut text.valign, &down);
    });
    ui.horizontal(|ui| {
        for (flag, label) in [
            (&mut text.bold, "Bold"),
            (&mut text.italic, "Italic"),
            (&mut text.underline, "Underline"),
            (&mut text.strikeout, "Strike"),
        ] {
            let r = ui.checkbox(flag, label);
            name_widget(ui, &r, &format!("{} text", label.to_lowercase()));
        }
    });
}

/// A shaped object's place, size and turn in map pixels and degrees, as Tiled's Properties
/// panel shows them (X, Y, Width, Height, Rotation); the command that applies an edit.
fn object_geometry_ui(
    ui: &mut egui::Ui,
    id: u32,
    cell: crate::core::Cell,
    shape: &crate::core::model::object::ObjectShape,
    tile_size: [u32; 2],
) -> Vec<Command> {
    let mut position = shape.position(cell, tile_size);
    let mut size = shape.kind.size();
    let mut rotation = shape.rotation;
    let (mut changed, mut left) = (false, false);
    let mut field = |ui: &mut egui::Ui, value: &mut f64, label: &str, name: &str, range| {
        let r = ui.add(
            egui::DragValue::new(value)
                .speed(1.0)
                .range(range)
                .clamp_existing_to_range(false)
                .prefix(label)
                .max_decimals(2),
        );
        name_widget(ui, &r, name);
        changed |= r.changed();
        left |= r.lost_focus() || r.drag_stopped();
    };
    let far = 1.0e7;
    ui.horizontal(|ui| {
        field(ui, &mut position[0], "x ", "x of the object", -far..=far);
        field(ui, &mut position[1], "y ", "y of the object", -far..=far);
        if let Some([w, h]) = &mut size {
            field(ui, w, "w ", "width of the object", 0.0..=far);
            field(ui, h, "h ", "height of the object", 0.0..=far);
        }
    });
    ui.horizontal(|ui| {
        field(ui, &mut rotation, "turned ", "rotation of the object", -360.0..=360.0);
        ui.weak("° · map pixels").on_hover_text(
            "Tiled's X, Y (a box's top-left corner, a tile object's bottom-left, a path's first point), \
             width, height and rotation. The object stands on the cell under its centre.",
        );
    });
    // A drag of a field, or typing in one, is one undo step; the next field's is another.
    let mut commands: Vec<Command> = changed
        .then_some(Command::Objects(ObjectCommand::SetObjectGeometry { id, position, size, rotation }))
        .into_iter()
        .collect();
    if left {
        commands.push(Command::Objects(ObjectCommand::EndContinuedEdit));
    }
    commands
}

pub fn error_dialog_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let Some(error) = app.error.clone() else { return };
    let modal = egui::Modal::new(egui::Id::unique("sightline error dialog")).show(ui.ctx(), |ui| {
        ui.set_max_width(480.0);
        ui.heading(&error.title);
        ui.label(&error.message);
        ui.add_space(8.0);
        ui.button("OK").clicked()
    });
    if modal.inner || modal.should_close() {
        app.commands.push(Command::File(FileCommand::DismissError));
    }
}

pub fn shortcuts(app: &mut SightlineApp, ui: &mut egui::Ui) {
    use egui::{Key, KeyboardShortcut, Modifiers};
    let open = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
    let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
    let redo = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    let redo_y = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
    let save = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
    let save_as = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    let new = KeyboardShortcut::new(Modifiers::COMMAND, Key::N);
    let copy = KeyboardShortcut::new(Modifiers::COMMAND, Key::C);
    let cut = KeyboardShortcut::new(Modifiers::COMMAND, Key::X);
    let paste = KeyboardShortcut::new(Modifiers::COMMAND, Key::V);
    let paste_in_place = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::V);
    let select_all = KeyboardShortcut::new(Modifiers::COMMAND, Key::A);
    let select_none = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::A);
    let invert_selection = KeyboardShortcut::new(Modifiers::COMMAND, Key::I);
    let typing = ui.ctx().egui_wants_keyboard_input();
    ui.input_mut(|i| {
        if !typing {
            super::layers_panel::layer_shortcuts(app, i);
        }
        if i.consume_shortcut(&new) {
            app.commands.push(Command::File(FileCommand::ShowNewMap));
        }
        // egui turns Ctrl+C/X/V into clipboard events; they are the map's only when no text
        // field has the keyboard.
        let for_map = !typing;
        let copy_event = for_map && i.events.iter().any(|e| matches!(e, egui::Event::Copy));
        let cut_event = for_map && i.events.iter().any(|e| matches!(e, egui::Event::Cut));
        let paste_event = for_map && i.events.iter().any(|e| matches!(e, egui::Event::Paste(_)));
        if (for_map && i.consume_shortcut(&copy)) || copy_event {
            app.commands.push(Command::Selection(SelectionCommand::Copy));
        }
        if (for_map && i.consume_shortcut(&cut)) || cut_event {
            app.commands.push(Command::Selection(SelectionCommand::Cut));
        }
        // Before Ctrl+V, which Ctrl+Shift+V would match too.
        if for_map && i.consume_shortcut(&paste_in_place) {
            app.commands.push(Command::Selection(SelectionCommand::PasteInPlace));
        }
        if (for_map && i.consume_shortcut(&paste)) || paste_event {
            app.commands.push(Command::Selection(SelectionCommand::Paste));
        }
        // Ctrl+A in a text field selects its text.
        if for_map && i.consume_shortcut(&select_none) {
            app.commands.push(Command::Selection(SelectionCommand::SelectNone));
        }
        if for_map && i.consume_shortcut(&select_all) {
            app.commands.push(Command::Selection(SelectionCommand::SelectAll));
        }
        if for_map && i.consume_shortcut(&invert_selection) {
            app.commands.push(Command::Selection(SelectionCommand::InvertSelection));
        }
        if i.consume_shortcut(&save_as) {
            app.commands.push(Command::File(FileCommand::PickSaveAs));
        }
        if i.consume_shortcut(&save) {
            app.commands.push(Command::File(FileCommand::Save));
        }
        if i.consume_shortcut(&open) {
            app.commands.push(Command::File(FileCommand::PickOpen));
        }
        if i.consume_shortcut(&redo) || i.consume_shortcut(&redo_y) {
            app.commands.push(Command::History(HistoryCommand::Redo));
        }
        if i.consume_shortcut(&undo) {
            app.commands.push(Command::History(HistoryCommand::Undo));
        }
    });
    ui.input(|i| {
        if i.key_pressed(Key::F5) {
            app.commands.push(Command::Play(PlayCommand::SetActive(!app.play.active)));
        }
    });
    // In play mode the letters and digits belong to the game.
    if !app.play.active && !ui.ctx().egui_wants_keyboard_input() {
        ui.input(|i| {
            if i.key_pressed(Key::Plus) || i.key_pressed(Key::Equals) {
                app.commands.push(Command::View(ViewCommand::ZoomBy(1.25)));
            }
            if i.key_pressed(Key::Minus) {
                app.commands.push(Command::View(ViewCommand::ZoomBy(0.8)));
            }
            if i.key_pressed(Key::G) {
                app.commands.push(Command::View(ViewCommand::ToggleGrid));
            }
            if i.key_pressed(Key::Escape) {
                app.commands.push(Command::Selection(SelectionCommand::CancelSelection));
            }
            if i.key_pressed(Key::Delete) {
                app.commands.push(Command::Selection(SelectionCommand::DeleteSelection));
            }
            // The polygon being drawn: Enter ends it as a path, Backspace takes its last point
            // back (Tiled's Insert Polygon).
            if let Some(super::ShapeDraft::Points { .. }) = app.editor.shape_draft {
                if i.key_pressed(Key::Enter) {
                    app.commands.push(Command::Objects(ObjectCommand::FinishShape { closed: false }));
                }
                if i.key_pressed(Key::Backspace) {
                    app.commands.push(Command::Objects(ObjectCommand::RemoveShapePoint));
                }
            }
            // Tiled's keys: X and Y flip, Z and Shift+Z turn the stamp being pasted, else the
            // brush's tile.
            use crate::core::model::flip::Turn;
            for (key, shift, turn) in [
                (Key::X, false, Turn::FlipHorizontally),
                (Key::Y, false, Turn::FlipVertically),
                (Key::Z, false, Turn::RotateClockwise),
                (Key::Z, true, Turn::RotateCounterclockwise),
            ] {
                let modifiers = if shift { i.modifiers.shift_only() } else { i.modifiers.is_none() };
                if modifiers && i.key_pressed(key) {
                    app.commands.push(Command::Tools(ToolCommand::TurnStamp(turn)));
                }
            }
            for tool in super::editor::Tool::ALL {
                let shortcut = tool.shortcut();
                if i.modifiers.matches_exact(shortcut.modifiers) && i.key_pressed(shortcut.logical_key) {
                    app.commands.push(Command::Tools(ToolCommand::SelectTool(tool)));
                }
            }
        });
    }
}

/// The tools, as Tiled lays them out: one button each, with its key.
pub fn tools_bar_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    use super::editor::Tool;
    egui::Panel::top("tools_bar").show(ui, |ui| {
        ui.horizontal(|ui| {
            for tool in Tool::ALL {
                let selected = app.editor.tool == tool;
                let key = ui.ctx().format_shortcut(&tool.shortcut());
                if ui.selectable_label(selected, tool.label()).on_hover_text(key).clicked() {
                    app.commands.push(Command::Tools(ToolCommand::SelectTool(tool)));
                }
            }
            ui.separator();
            // The current tool's options.
            match app.editor.tool {
                // The stamp on the pointer is what any tool lays until Esc.
                _ if app.editor.pasting => {
                    if let Some(stamp) = &app.editor.clipboard {
                        let mut what = match stamp.objects.len() {
                            0 => format!("stamp {} × {}", stamp.width, stamp.height),
                            1 => "1 object".to_owned(),
                            n => format!("{n} objects"),
                        };
                        // From another map: where from, and what a paste adds to this one.
                        if let Some(from) =
                            app.editor.clipboard_from.as_ref().filter(|_| app.editor.clipboard_elsewhere)
                        {
                            what += &format!(" from {}", from.name);
                            let brings = app.stamp_transfer.transfer.as_ref().map_or(0, |t| t.new_tiles().len());
                            if brings > 0 {
                                let types = if brings == 1 { "tile type" } else { "tile types" };
                                what += &format!(", bringing {brings} {types} this map lacks");
                            }
                        }
                        ui.label(what);
                    }
                    ui.weak(
                        "click or drag lays it · Shift+drag lays a line · X, Y flip · Z, Shift+Z rotate · Esc drops it",
                    );
                }
                Tool::Brush | Tool::Eraser | Tool::Line | Tool::Terrain => {
                    let mut size = app.editor.brush_size;
                    let r = ui.add(egui::DragValue::new(&mut size).range(1..=16).prefix("size "));
                    name_widget(ui, &r, "brush size");
                    if r.changed() {
                        app.commands.push(Command::Tools(ToolCommand::SetBrushSize(size)));
                    }
                    match app.editor.tool {
                        Tool::Eraser => {}
                        Tool::Terrain => match super::terrains_panel::terrain_name(app) {
                            Some(name) => {
                                ui.label(format!("terrain {name}"));
                                let mut whole = app.editor.terrain_whole_tiles;
                                let r = ui.checkbox(&mut whole, "Whole tiles").on_hover_text(
                                    "Paint whole tiles at size 1 too. Off, size 1 paints the corner or edge \
                                     nearest the pointer, as Tiled's terrain brush; larger sizes paint whole tiles",
                                );
                                if r.changed() {
                                    app.commands.push(Command::Tools(ToolCommand::SetTerrainWholeTiles(whole)));
                                }
                                ui.weak(if app.editor.paints_terrain_parts() {
                                    "click or drag paints the nearest corner or edge"
                                } else {
                                    "click or drag paints it"
                                });
                            }
                            None => {
                                ui.weak("choose a terrain in the Terrains panel");
                            }
                        },
                        _ => random_brush_ui(app, ui),
                    }
                }
                Tool::Rectangle => {
                    let mut filled = app.editor.rect_filled;
                    if ui.checkbox(&mut filled, "Filled").changed() {
                        app.commands.push(Command::Tools(ToolCommand::SetRectFilled(filled)));
                    }
                }
                Tool::Fill => {
                    let mut eight = app.editor.fill_eight;
                    if ui.checkbox(&mut eight, "8-connected").changed() {
                        app.commands.push(Command::Tools(ToolCommand::SetFillEight(eight)));
                    }
                    // Tiled's terrain fill mode, once a terrain is chosen.
                    if let Some(name) = super::terrains_panel::terrain_name(app) {
                        let mut terrain = app.editor.fill_terrain;
                        let r = ui
                            .checkbox(&mut terrain, format!("with terrain {name}"))
                            .on_hover_text("Fill the region with the terrain, fitting its rim to what is around");
                        name_widget(ui, &r, "fill with terrain");
                        if r.changed() {
                            app.commands.push(Command::Tools(ToolCommand::SetFillTerrain(terrain)));
                        }
                    }
                }
                tool @ (Tool::Select | Tool::MagicWand | Tool::SameTile) => {
                    use crate::core::edit::selection::SelectionMode;
                    let mut mode = app.editor.selection_mode;
                    let options: Vec<_> = SelectionMode::ALL.iter().map(|&m| (m, m.label())).collect();
                    super::overlays::choice_ui(ui, "selection mode", &mut mode, &options);
                    if mode != app.editor.selection_mode {
                        app.commands.push(Command::Selection(SelectionCommand::SetSelectionMode(mode)));
                    }
                    let pick = match tool {
                        Tool::MagicWand => "Click a cell: the cells joined to it with its tile are picked.",
                        Tool::SameTile => "Click a cell: every cell of the layer with its tile is picked.",
                        _ => "Drag: the rectangle is picked.",
                    };
                    ui.weak("Shift + · Ctrl −").on_hover_text(format!(
                        "{pick} Shift adds to the selection, Ctrl takes away, Ctrl+Shift keeps what both have; a drag \
                         over several tiles takes them all. While cells are selected, the tools paint only there. \
                         Ctrl+C, Ctrl+X copy and cut them, Delete erases them (with an object layer current: the \
                         objects standing on them); Ctrl+A selects all, Ctrl+I \
                         inverts, Esc or a right-click selects none."
                    ));
                }
                Tool::Object => {
                    let mut choice = app.editor.object;
                    let options: Vec<_> = ObjectChoice::ALL.iter().map(|&o| (o, o.label())).collect();
                    super::overlays::choice_ui(ui, "what to place", &mut choice, &options);
                    if choice != app.editor.object {
                        app.commands.push(Command::Objects(ObjectCommand::SetObjectChoice(choice)));
                    }
                    match app.editor.object {
                        ObjectChoice::Monster => {
                            let mut glyph = app.editor.monster_glyph.to_string();
                            let r = ui.add(egui::TextEdit::singleline(&mut glyph).desired_width(26.0));
                            name_widget(ui, &r, "monster glyph");
                            let mut vision = app.editor.monster_vision;
                            let v = ui.add(radius_field(&mut vision, "vision "));
                            name_widget(ui, &v, "monster vision");
                            let ch = glyph.chars().find(|c| *c != app.editor.monster_glyph && c.is_alphabetic());
                            if ch.is_some() || v.changed() {
                                app.commands.push(Command::Objects(ObjectCommand::SetMonster {
                                    glyph: ch.unwrap_or(app.editor.monster_glyph),
                                    vision,
                                }));
                            }
                        }
                        ObjectChoice::Light => {
                            let mut radius = app.editor.light_radius;
                            let r = ui.add(radius_field(&mut radius, "radius "));
                            name_widget(ui, &r, "light radius");
                            if r.changed() {
                                app.commands.push(Command::Objects(ObjectCommand::SetLightRadius(radius)));
                            }
                        }
                        _ => {}
                    }
                    if app.editor.object.draws_shape() {
                        let mut snap = app.editor.snap;
                        let options: Vec<_> =
                            crate::core::model::geometry::Snap::ALL.iter().map(|&s| (s, s.label())).collect();
                        super::overlays::choice_ui(ui, "snap", &mut snap, &options);
                        if snap != app.editor.snap {
                            app.commands.push(Command::Objects(ObjectCommand::SetSnap(snap)));
                        }
                        // Short, for the bar to fit 1280 pixels; the whole of it on hover.
                        let (how, more) = match app.editor.object {
                            ObjectChoice::Polygon => (
                                "first point closes · Enter ends",
                                "Each click lays a point; a click on the first point closes a polygon, Enter or a \
                                 right-click ends a path there, Backspace takes the last point back.",
                            ),
                            ObjectChoice::Point => ("click", "A click places a point."),
                            ObjectChoice::TileObject => (
                                "click · X Y Z turn",
                                "A click places the brush's tile (chosen in the palette) as a tile object at its \
                                 image's size, centred on the pointer; X, Y flip it and Z turns it first.",
                            ),
                            ObjectChoice::Text => {
                                ("click or drag", "A click places \"Hello World\" at its size; a drag draws its box.")
                            }
                            _ => (
                                "drag · Shift square",
                                "A drag draws it, Shift making a square (a circle); a click covers the cell. A press \
                                 on an object picks it instead: a drag moves it, a click shows it in the \
                                 inspector; hold Alt to draw over it.",
                            ),
                        };
                        ui.weak(how).on_hover_text(format!(
                            "{more} Ctrl toggles snapping to the grid while held, Ctrl+Shift the fine grid (a \
                             quarter cell). Esc drops the shape being drawn; a right-click with none removes the \
                             objects on the cell. The new object stands on the cell under its centre; with the \
                             pointer off the map, the inspector edits it (its class, place, size)."
                        ));
                    } else {
                        ui.weak("drag moves · right-click removes");
                    }
                }
                Tool::Picker | Tool::Probe => {}
            }
            ui.separator();
            if ui
                .selectable_label(app.play.active, "Play (F5)")
                .on_hover_text("Play the map in the preview pane")
                .clicked()
            {
                app.commands.push(Command::Play(PlayCommand::SetActive(!app.play.active)));
            }
        });
    });
}

/// Tile tables longer than this are laid out a screenful at a time, in the palette and the tile
/// types window: a Tiled tileset can hold tens of thousands of tiles, and laying out 30 000
/// rows took 140 ms a frame. (Shorter ones are laid out whole, every row in the accessibility
/// tree.)
pub(super) const LONG_TILE_TABLE: usize = 300;

/// The tile palette and the layers.
pub fn palette_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    // A copy: the tileset view takes the whole app to send its commands.
    let sheets = app.sheets.clone();
    egui::Panel::left("palette").default_size(200.0).show(ui, |ui| {
        ui.heading("Tiles");
        super::tileset_view::palette_tabs_ui(app, ui);
        if super::tileset_view::tileset_ui(app, ui, &sheets, ui.available_height() * 0.55) {
            palette_footer_ui(app, ui);
            return;
        }
        let tiles = &app.document.map.tiles;
        let mut picked = None;
        let mut tile_ui = |ui: &mut egui::Ui, id: usize| {
            let t = &tiles[id];
            let selected = usize::from(app.editor.tile) == id;
            let text = RichText::new(format!("{}  {}", t.glyph.ch, t.name)).color(egui::Color32::from_rgb(
                t.glyph.fg.0,
                t.glyph.fg.1,
                t.glyph.fg.2,
            ));
            if ui.selectable_label(selected, text).clicked() {
                picked = Some(id as crate::core::TileId);
            }
        };
        let scroll = egui::ScrollArea::vertical().max_height(ui.available_height() * 0.6);
        if tiles.len() > LONG_TILE_TABLE {
            scroll.show_rows(ui, ui.spacing().interact_size.y, tiles.len() - 1, |ui, rows| {
                rows.for_each(|row| tile_ui(ui, row + 1));
            });
        } else {
            scroll.show(ui, |ui| (1..tiles.len()).for_each(|id| tile_ui(ui, id)));
        }
        if let Some(id) = picked {
            app.commands.push(Command::Tiles(TileCommand::SelectTile(id)));
        }
        palette_footer_ui(app, ui);
    });
}

/// Under the tiles: the tile types button, the terrains, the layers and the minimap, scrolled
/// when they are taller than the window has room for (a map with many terrains and layers).
fn palette_footer_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    egui::ScrollArea::vertical().id_salt("sightline palette footer").show(ui, |ui| {
        if ui.button("Edit tile types…").clicked() {
            app.commands.push(Command::Tiles(TileCommand::ShowTileTypes(true)));
        }
        super::terrains_panel::terrains_ui(app, ui);
        ui.separator();
        super::layers_panel::layers_ui(app, ui);
        ui.separator();
        ui.heading("Minimap");
        super::minimap::minimap_ui(app, ui);
    });
}

/// Gives a widget its accessible name (for screen readers and `get_by_label`).
pub(super) fn name_widget(ui: &egui::Ui, response: &egui::Response, name: &str) {
    ui.ctx().accesskit_node_builder(response.id, |node| node.set_label(name.to_owned()));
}

/// The random brush: on/off, and its tiles with their weights (the palette's tile is added
/// with "+").
fn random_brush_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let mut on = app.editor.random;
    let mut brush = app.editor.random_brush.clone();
    ui.checkbox(&mut on, "Random");
    if on {
        let map = &app.document.map;
        let mut remove = None;
        for (k, (tile, weight)) in brush.tiles.iter_mut().enumerate() {
            let name =
                map.tiles.get(usize::from(*tile)).map_or("?".to_owned(), |t| format!("{} {}", t.glyph.ch, t.name));
            let r = ui.add(egui::DragValue::new(weight).range(0..=100).prefix(format!("{name} ×")));
            name_widget(ui, &r, &format!("weight of {name}"));
            if ui.small_button("x").on_hover_text("Remove from the random brush").clicked() {
                remove = Some(k);
            }
        }
        if let Some(k) = remove {
            brush.tiles.remove(k);
        }
        let selected = app.editor.tile;
        if !brush.tiles.iter().any(|(t, _)| *t == selected)
            && ui.small_button("+").on_hover_text("Add the palette's tile").clicked()
        {
            brush.tiles.push((selected, 1));
        }
    }
    if on != app.editor.random || brush != app.editor.random_brush {
        app.commands.push(Command::Tools(ToolCommand::SetRandomBrush(on, brush)));
    }
}

/// "Recover the unsaved work of the last session?" at start.
pub fn recovery_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let Some(found) = &app.recovery_offer else { return };
    let from = found.source.as_ref().map_or_else(|| "an untitled map".to_owned(), |p| p.display().to_string());
    let age = found
        .modified
        .and_then(|t| t.elapsed().ok())
        .map_or_else(String::new, |d| format!(" ({} minutes ago)", d.as_secs() / 60));
    egui::Modal::new(egui::Id::unique("sightline recovery")).show(ui.ctx(), |ui| {
        ui.set_max_width(460.0);
        ui.heading("Recover unsaved work?");
        ui.label(format!("The last session did not close cleanly. Unsaved changes to {from} were kept{age}."));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Recover").clicked() {
                app.commands.push(Command::File(FileCommand::Recover));
            }
            if ui.button("Discard").clicked() {
                app.commands.push(Command::File(FileCommand::DiscardRecovery));
            }
        });
    });
}

/// "Save the changes?" before opening, or closing, over unsaved work.
pub fn unsaved_changes_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    if app.confirm.is_none() {
        return;
    }
    let name = app.document.file_name();
    egui::Modal::new(egui::Id::unique("sightline unsaved changes")).show(ui.ctx(), |ui| {
        ui.set_max_width(420.0);
        ui.heading("Unsaved changes");
        ui.label(format!("{name} has changes that are not saved."));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Save").clicked() {
                app.commands.push(Command::File(FileCommand::ConfirmSave));
            }
            if ui.button("Don't save").clicked() {
                app.commands.push(Command::File(FileCommand::ConfirmDiscard));
            }
            if ui.button("Cancel").clicked() {
                app.commands.push(Command::File(FileCommand::ConfirmCancel));
            }
        });
    });
}

/// "Saving over this file drops …": asked before a save over a Tiled file whose Wang sets,
/// animations or other features sightline does not keep, so that they are not lost unawares.
pub fn overwrite_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    if app.confirm_overwrite.is_none() {
        return;
    }
    let name = app.document.file_name();
    let kinds = app.document.not_kept.join(", ");
    egui::Modal::new(egui::Id::unique("sightline overwrite")).show(ui.ctx(), |ui| {
        ui.set_max_width(460.0);
        ui.heading(format!("Save over {name}?"));
        ui.label(format!(
            "{name} has {kinds}, which sightline does not keep. Saving over it drops them from the file. \
             Save As… writes another file and leaves {name} as it is."
        ));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Save anyway").clicked() {
                app.commands.push(Command::File(FileCommand::ConfirmOverwrite));
            }
            if ui.button("Save As…").clicked() {
                app.commands.push(Command::File(FileCommand::CancelOverwrite));
                app.commands.push(Command::File(FileCommand::PickSaveAs));
            }
            if ui.button("Cancel").clicked() {
                app.commands.push(Command::File(FileCommand::CancelOverwrite));
            }
        });
    });
}

/// "This file will not keep …": asked before a save in a format that holds less than the map
/// (ASCII's one layer, MovingAI's terrain, a Tiled JSON class's member types), so that what
/// the file drops is not lost unawares when the window closes.
pub fn lossy_save_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let Some(rendered) = &app.confirm_lossy_save else { return };
    let name = rendered.path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let warnings = rendered.warnings.clone();
    let mine = app.document.file_name();
    // Saving over the map's own file (Ctrl+S), or writing another.
    let own = app.document.path.as_deref() == Some(rendered.path.as_path());
    egui::Modal::new(egui::Id::unique("sightline lossy save")).show(ui.ctx(), |ui| {
        ui.set_max_width(520.0);
        ui.heading(if own { format!("Save {name}?") } else { format!("Save as {name}?") });
        ui.label(format!("{name} will not keep all of the map:"));
        egui::ScrollArea::vertical().max_height(220.0).show(ui, |ui| {
            for w in &warnings {
                ui.label(format!("• {w}"));
            }
        });
        ui.label(if own {
            format!(
                "Save anyway writes {name}: what it does not keep is gone once the window closes. Save As… writes \
                 another file (RON, TMX and TMJ keep everything)."
            )
        } else {
            format!(
                "Save anyway makes {name} the map's file: what it does not keep is gone once the window closes. \
                 Export a copy writes {name} and goes on with {mine}."
            )
        });
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Save anyway").clicked() {
                app.commands.push(Command::File(FileCommand::ConfirmLossySave));
            }
            if own {
                if ui.button("Save As…").clicked() {
                    app.commands.push(Command::File(FileCommand::CancelLossySave));
                    app.commands.push(Command::File(FileCommand::PickSaveAs));
                }
            } else if ui.button("Export a copy").clicked() {
                app.commands.push(Command::File(FileCommand::ExportLossyCopy));
            }
            if ui.button("Cancel").clicked() {
                app.commands.push(Command::File(FileCommand::CancelLossySave));
            }
        });
    });
}

/// "Writing this tileset file loses …": asked before a tileset file is written over changes
/// made to it since the map read it, or over what sightline does not keep in it.
pub fn tileset_write_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let Some(write) = &app.confirm_tileset_write else { return };
    let name = write.file_name();
    let concerns = write.concerns.clone();
    egui::Modal::new(egui::Id::unique("sightline tileset write")).show(ui.ctx(), |ui| {
        ui.set_max_width(460.0);
        ui.heading(format!("Save tileset file {name}?"));
        for concern in &concerns {
            ui.label(format!("{concern}."));
        }
        ui.label("Cancel leaves the file as it is; a save of the map then writes this tileset into the map.");
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Save tileset anyway").clicked() {
                app.commands.push(Command::Tiles(TileCommand::ConfirmTilesetWrite));
            }
            if ui.button("Cancel").clicked() {
                app.commands.push(Command::Tiles(TileCommand::CancelTilesetWrite));
            }
        });
    });
}
