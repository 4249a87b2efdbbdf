//! The tile-set editor: every tile type's glyph, colours and the rules the game reads (opaque,
//! walkable, cost, door and its counterpart), edited in place. Each change is a command, applied
//! through `core::edit::set_tile_rules` (which keeps doors paired) and undoable.

use crate::app::{Command, PropertiesOwner, SightlineApp};
use crate::app::{MapCommand, TileCommand};
use crate::core::TileId;
use crate::core::edit::TileRules;
use crate::core::format::{LOOK_PROPERTIES, RULE_PROPERTIES};
use crate::core::model::tile::Rgb;

/// The door setting of a tile, as the editor offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DoorChoice {
    None,
    Open,
    Closed,
}

/// The "Tile types" window (Edit › Tile types…).
pub(crate) fn tile_types_window_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    if !app.windows.tile_types {
        return;
    }
    let mut open = true;
    let mut commands = Vec::new();
    let sheets = &app.sheets;
    // Show the palette's tile when the window opens and whenever another is picked.
    let scroll_to = (app.windows.tile_types_shown != Some(app.editor.tile)).then_some(app.editor.tile);
    app.windows.tile_types_shown = Some(app.editor.tile);
    let palette_tile = app.editor.tile;
    let map = &app.document.map;
    // Over the canvas, not the palette: a tile is picked there while its rules are edited here.
    let corner = app.central_rect.left_top() + egui::vec2(16.0, 16.0);
    let window = egui::Window::new("Tile types").open(&mut open).default_width(760.0);
    let window = if app.central_rect.is_positive() { window.default_pos(corner) } else { window };
    window.show(ui.ctx(), |ui| {
        ui.label("The rules the game reads: opaque blocks sight, walkable can be stood on, cost is the price of a step; a door toggles between two tiles (o/c in play).");
        // Row 0 is the header, row `id` the tile `id`.
        let mut row_ui = |ui: &mut egui::Ui, row: usize| {
            if row == 0 {
                for h in ["tile", "glyph", "name", "fg", "bg", "opaque", "walkable", "cost", "door", "toggles to"] {
                    ui.strong(h);
                }
                ui.end_row();
                return;
            }
            let (id, kind) = (row as TileId, &map.tiles[row]);
            // The tile as the map draws it (its image, else its glyph), marked when it is the
            // palette's; a click makes it so.
            let button = match crate::app::canvas::tile_sprite(map, sheets, id) {
                Some((_, texture, uv)) => egui::Button::image(egui::Image::new((texture.id, egui::vec2(18.0, 18.0))).uv(uv)),
                None => egui::Button::new(kind.glyph.ch.to_string()),
            };
            let pick = ui.add(button.selected(id == palette_tile)).on_hover_text("Make it the palette's tile");
            crate::app::widgets::name_widget(ui, &pick, &format!("pick {}", kind.name));
            if pick.clicked() {
                commands.push(Command::Tiles(TileCommand::SelectTile(id)));
            }
            if scroll_to == Some(id) {
                pick.scroll_to_me(Some(egui::Align::Center));
                // The scroll is animated: frames must follow without waiting for input.
                ui.ctx().request_repaint();
            }
            let before = TileRules::of(kind);
            let mut r = before.clone();
            let mut glyph = r.glyph.ch.to_string();
            let g = ui.add(egui::TextEdit::singleline(&mut glyph).desired_width(22.0));
            crate::app::widgets::name_widget(ui, &g, &format!("glyph of {}", kind.name));
            if let Some(ch) = glyph.chars().find(|c| *c != r.glyph.ch).or(glyph.chars().next()) {
                r.glyph.ch = ch;
            }
            // A size of its own: a grid cell offers a text edit only the column's width so far,
            // which starts at the grid's minimum, and the names showed four letters ("floo").
            let n = ui.add_sized([130.0, ui.spacing().interact_size.y], egui::TextEdit::singleline(&mut r.name));
            crate::app::widgets::name_widget(ui, &n, &format!("name of {}", kind.name));
            colour_ui(ui, &mut r.glyph.fg, &format!("foreground of {}", kind.name));
            colour_ui(ui, &mut r.glyph.bg, &format!("background of {}", kind.name));
            let o = ui.checkbox(&mut r.opaque, "");
            crate::app::widgets::name_widget(ui, &o, &format!("opaque {}", kind.name));
            let w = ui.checkbox(&mut r.walkable, "");
            crate::app::widgets::name_widget(ui, &w, &format!("walkable {}", kind.name));
            let c = ui.add(egui::DragValue::new(&mut r.cost).range(0.0..=1000.0).clamp_existing_to_range(false).speed(0.1));
            crate::app::widgets::name_widget(ui, &c, &format!("cost of {}", kind.name));
            let mut door = match r.door {
                None => DoorChoice::None,
                Some((true, _)) => DoorChoice::Open,
                Some((false, _)) => DoorChoice::Closed,
            };
            crate::app::overlays::choice_with_id_ui(
                ui,
                ("door kind of tile", id),
                &format!("door kind of {}", kind.name),
                &mut door,
                &[(DoorChoice::None, "no door"), (DoorChoice::Open, "open door"), (DoorChoice::Closed, "closed door")],
            );
            // A new door toggles to the first other tile until the user picks one.
            let others = || (1..map.tiles.len()).map(|t| t as TileId).filter(move |&t| t != id);
            let mut to = r.door.map(|d| d.1).unwrap_or_else(|| others().next().unwrap_or(id));
            if door == DoorChoice::None {
                ui.label("");
            } else {
                // (Built for the door rows on screen only: a table can hold tens of thousands.)
                let options: Vec<(TileId, &str)> =
                    others().map(|t| (t, map.tiles[usize::from(t)].name.as_str())).collect();
                crate::app::overlays::choice_with_id_ui(
                    ui,
                    ("counterpart of tile", id),
                    &format!("counterpart of {}", kind.name),
                    &mut to,
                    &options,
                );
            }
            r.door = match door {
                DoorChoice::None => None,
                DoorChoice::Open => Some((true, to)),
                DoorChoice::Closed => Some((false, to)),
            };
            if r != before {
                commands.push(Command::Tiles(TileCommand::SetTileRules(id, r)));
            }
            ui.end_row();
        };
        let mut scroll = egui::ScrollArea::vertical().max_height(420.0);
        let grid = egui::Grid::new("tile_types").num_columns(10).striped(true);
        if map.tiles.len() > crate::app::panels::palette::LONG_TILE_TABLE {
            let row_height = ui.spacing().interact_size.y.max(ui.text_style_height(&egui::TextStyle::Body) + 4.0);
            // Only the rows in view are laid out, so the palette's row is scrolled to by its place.
            if let Some(id) = scroll_to {
                let offset = (f32::from(id) - 5.0).max(0.0) * (row_height + ui.spacing().item_spacing.y);
                scroll = scroll.vertical_scroll_offset(offset);
            }
            scroll.show_rows(ui, row_height, map.tiles.len(), |ui, rows| {
                grid.show(ui, |ui| rows.for_each(|row| row_ui(ui, row)));
            });
        } else {
            scroll.show(ui, |ui| grid.show(ui, |ui| (0..map.tiles.len()).for_each(|row| row_ui(ui, row))));
        }
        if ui.button("Add a tile type").clicked() {
            commands.push(Command::Tiles(TileCommand::AddTile));
        }
        // The palette's tile's custom properties (the rules above are not among them).
        let id = app.editor.tile;
        if let Some(kind) = map.tiles.get(usize::from(id)).filter(|_| id != 0) {
            ui.separator();
            ui.strong(format!("Class and custom properties of {} (the palette's tile)", kind.name));
            // Tiled's class: the tile's custom type in the designer's Tiled project.
            ui.horizontal(|ui| {
                let mut rules = TileRules::of(kind);
                ui.label("Class");
                let r = ui
                    .add(egui::TextEdit::singleline(&mut rules.class).hint_text("none").desired_width(140.0))
                    .on_hover_text("The tile's class (Tiled's custom type), kept for the designer's Tiled project");
                crate::app::widgets::name_widget(ui, &r, &format!("class of {}", kind.name));
                if rules.class != kind.class {
                    commands.push(Command::Tiles(TileCommand::SetTileRules(id, rules)));
                }
            });
            let reserved: Vec<&str> = RULE_PROPERTIES.iter().chain(LOOK_PROPERTIES.iter()).copied().collect();
            let owner = format!("tile {}", kind.name);
            if let Some(edited) = crate::app::panels::properties::properties_ui(ui, &owner, &kind.properties, &reserved, &map.objects)
            {
                commands.push(Command::Map(MapCommand::SetProperties(PropertiesOwner::Tile(id), edited)));
            }
        }
    });
    app.windows.tile_types = open;
    app.commands.extend(commands);
}

fn colour_ui(ui: &mut egui::Ui, colour: &mut Rgb, name: &str) {
    let mut rgb = [colour.0, colour.1, colour.2];
    let r = egui::color_picker::color_edit_button_srgb(ui, &mut rgb);
    crate::app::widgets::name_widget(ui, &r, name);
    *colour = Rgb(rgb[0], rgb[1], rgb[2]);
}
