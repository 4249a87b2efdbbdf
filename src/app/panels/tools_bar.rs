//! The tools bar: the drawing tools and the current tool's options.

use crate::app::panels::palette::random_brush_ui;
use crate::app::play::PlayCommand;
use crate::app::widgets::{name_widget, radius_field};
use crate::app::{Command, ObjectChoice, ObjectCommand, SelectionCommand, SightlineApp, ToolCommand};

/// The tools, as Tiled lays them out: one button each, with its key.
pub(crate) fn tools_bar_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    use crate::app::editor::Tool;
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
                            let brings = app.caches.stamp_transfer.transfer.as_ref().map_or(0, |t| t.new_tiles().len());
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
                        Tool::Terrain => match crate::app::panels::terrains::terrain_name(app) {
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
                    if let Some(name) = crate::app::panels::terrains::terrain_name(app) {
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
                    crate::app::overlays::choice_ui(ui, "selection mode", &mut mode, &options);
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
                    crate::app::overlays::choice_ui(ui, "what to place", &mut choice, &options);
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
                        crate::app::overlays::choice_ui(ui, "snap", &mut snap, &options);
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
