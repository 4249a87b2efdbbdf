//! The palette's tileset view: a map's tileset image laid out as Tiled's Tilesets panel shows
//! it, a tile a cell. A click chooses the brush's tile; a drag over several tiles takes them as a
//! stamp (Tiled's stamp brush), placed by clicks on the map until Esc.

use crate::app::{MapCommand, TileCommand};
use std::collections::HashMap;

use egui::{Color32, Rect, Sense, Stroke, StrokeKind, vec2};

use crate::app::sprites::SheetTexture;
use crate::app::{Command, PropertiesOwner, SightlineApp};
use crate::core::edit::Stamp;
use crate::core::model::sheet::{SpriteSheet, TilesetFile};
use crate::core::model::tile::EMPTY;
use crate::core::{Map, TileId};

/// What the palette shows, and the drag in progress over a tileset.
#[derive(Clone, Debug, PartialEq)]
pub struct PaletteState {
    /// The tileset shown as its image, by sheet index; `None`: the list of every tile type.
    /// Starts on the first tileset of a map that has one.
    pub sheet: Option<usize>,
    /// The tileset's zoom (1 = the image's own pixels).
    pub(crate) zoom: f32,
    /// The tile a drag over the tileset started on.
    drag_from: Option<u32>,
    /// The tiles (sheet, corner, corner) last dragged over: marked while that stamp is placed.
    stamp: Option<(usize, u32, u32)>,
}

impl Default for PaletteState {
    fn default() -> Self {
        Self { sheet: None, zoom: 2.0, drag_from: None, stamp: None }
    }
}

impl PaletteState {
    /// A map just opened shows its first tileset, as Tiled does (or the list, without one).
    pub(crate) fn show_first_tileset(&mut self, map: &Map) {
        self.sheet = (!map.sheets.is_empty()).then_some(0);
        self.drag_from = None;
        // Small tiles (16 pixels and less, most pixel-art tilesets) at twice their size.
        if let Some(sheet) = map.sheets.first() {
            self.zoom = if sheet.tile_width.max(sheet.tile_height) <= 16 { 2.0 } else { 1.0 };
        }
    }
}

/// Gap between tiles on screen, in points (the image's own spacing is not drawn).
const GAP: f32 = 1.0;

/// The tile types drawn from `sheet`, by their index in it.
fn tiles_of_sheet(map: &Map, sheet: usize) -> HashMap<u32, TileId> {
    map.tiles
        .iter()
        .enumerate()
        .filter_map(|(id, t)| t.sprite.filter(|s| usize::from(s.sheet) == sheet).map(|s| (s.index, id as TileId)))
        .collect()
}

/// Where tile `index` of a sheet sits in the grid that starts at `origin`.
fn tile_rect(sheet: &SpriteSheet, origin: egui::Pos2, zoom: f32, index: u32) -> Rect {
    let columns = sheet.columns.max(1);
    let size = vec2(sheet.tile_width as f32, sheet.tile_height as f32) * zoom;
    let at = vec2((index % columns) as f32, (index / columns) as f32) * (size + vec2(GAP, GAP));
    Rect::from_min_size(origin + at, size)
}

/// The grid cell (column, row) under `p`, if it is one of the sheet's tiles.
fn index_at(sheet: &SpriteSheet, origin: egui::Pos2, zoom: f32, p: egui::Pos2) -> Option<u32> {
    let step = vec2(sheet.tile_width as f32, sheet.tile_height as f32) * zoom + vec2(GAP, GAP);
    let d = p - origin;
    if d.x < 0.0 || d.y < 0.0 {
        return None;
    }
    let (col, row) = ((d.x / step.x) as u32, (d.y / step.y) as u32);
    let index = row * sheet.columns.max(1) + col;
    (col < sheet.columns.max(1) && index < sheet.tile_count).then_some(index)
}

/// The tiles of the rectangle with corners `a` and `b` (sheet indices) as a stamp.
pub(crate) fn stamp_of(map: &Map, sheet: usize, a: u32, b: u32) -> Option<Stamp> {
    let s = map.sheets.get(sheet)?;
    let columns = s.columns.max(1);
    let (x0, x1) = ((a % columns).min(b % columns), (a % columns).max(b % columns));
    let (y0, y1) = ((a / columns).min(b / columns), (a / columns).max(b / columns));
    let tiles = tiles_of_sheet(map, sheet);
    let cells = (y0..=y1)
        .flat_map(|y| (x0..=x1).map(move |x| y * columns + x))
        .map(|i| tiles.get(&i).copied().unwrap_or(EMPTY))
        .collect();
    Some(Stamp::new(x1 - x0 + 1, cells))
}

/// The tabs (the list, then each tileset) and, on a tileset's tab, its tiles.
pub(crate) fn palette_tabs_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let map = &app.document.map;
    if map.sheets.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        if ui.selectable_label(app.palette.sheet.is_none(), "List").on_hover_text("Every tile type by name").clicked() {
            app.commands.push(Command::Tiles(TileCommand::ShowPaletteSheet(None)));
        }
        for (i, sheet) in map.sheets.iter().enumerate() {
            let name = if sheet.name.is_empty() { format!("tileset {}", i + 1) } else { sheet.name.clone() };
            if ui.selectable_label(app.palette.sheet == Some(i), name).clicked() {
                app.commands.push(Command::Tiles(TileCommand::ShowPaletteSheet(Some(i))));
            }
        }
    });
}

/// The tileset file a sheet was read from, whether a save of the map refers to it (`as_read`:
/// the sheet is as the file held it when last read or written) and, when not, Save tileset,
/// which writes it.
fn tileset_file_ui(ui: &mut egui::Ui, index: usize, file: &TilesetFile, as_read: bool, commands: &mut Vec<Command>) {
    let name = file.path.file_name().unwrap_or_default().to_string_lossy().into_owned();
    // Looked at each frame (one `stat`), not once per revision: files go without the map changing.
    let gone = !file.path.is_file();
    let as_read = as_read && !gone;
    ui.weak(format!("file {name}")).on_hover_ui(|ui| {
        ui.label(file.path.display().to_string());
        if as_read {
            ui.label("A save refers to this file: the tileset is as the file holds it.");
        } else if gone {
            ui.label("The file is no longer there: a save writes this tileset into the map. Save tileset writes the file again.");
        } else {
            ui.label(
                "Changed here: a save writes this tileset into the map instead of referring to the file. \
                 Save tileset writes the file (every map that uses it then has the change); undoing the change \
                 refers to it again.",
            );
        }
    });
    let hover = if as_read {
        format!("{name} holds this tileset as it is here")
    } else {
        format!("Write this tileset, as it is here, to {name}")
    };
    let r = ui
        .add_enabled(!as_read, egui::Button::new("Save tileset"))
        .on_hover_text(hover.clone())
        .on_disabled_hover_text(hover);
    if r.clicked() {
        commands.push(Command::Tiles(TileCommand::SaveTileset(index)));
    }
}

/// A tileset's tiles as its image shows them; `false` when it cannot be shown (the list is
/// shown instead).
pub(crate) fn tileset_ui(
    app: &mut SightlineApp,
    ui: &mut egui::Ui,
    sheets: &[Option<SheetTexture>],
    height: f32,
) -> bool {
    let Some(index) = app.palette.sheet else { return false };
    // Worked out (once a revision) only for a sheet with a file: it exports every tile type.
    let has_file = app.document.map.sheets.get(index).is_some_and(|s| s.file.is_some());
    let as_read = has_file && app.sheets_as_read().get(index).copied().unwrap_or(false);
    let map = &app.document.map;
    let Some(sheet) = map.sheets.get(index) else { return false };
    let Some(Some(texture)) = sheets.get(index) else {
        ui.weak(format!("{}: its image is not loaded (see the status bar); the list shows its tiles", sheet.name));
        return false;
    };
    let mut zoom = app.palette.zoom;
    ui.horizontal(|ui| {
        let r = ui.add(egui::Slider::new(&mut zoom, 0.5..=4.0).step_by(0.25).text("zoom"));
        crate::app::widgets::name_widget(ui, &r, "tileset zoom");
        if r.changed() {
            app.commands.push(Command::Tiles(TileCommand::SetPaletteZoom(zoom)));
        }
        if let Some(file) = &sheet.file {
            let mut commands = Vec::new();
            tileset_file_ui(ui, index, file, as_read, &mut commands);
            app.commands.extend(commands);
        }
    });
    let tiles = tiles_of_sheet(map, index);
    let columns = sheet.columns.max(1);
    let rows = sheet.tile_count.div_ceil(columns);
    let step = vec2(sheet.tile_width as f32, sheet.tile_height as f32) * zoom + vec2(GAP, GAP);
    let size = vec2(columns as f32 * step.x, rows as f32 * step.y);
    let selected = map.tiles.get(usize::from(app.editor.tile)).and_then(|t| t.sprite);
    let mut commands = Vec::new();
    let mut drag_from = app.palette.drag_from;
    let mut stamp = app.palette.stamp;
    let pasting = app.editor.pasting;
    egui::ScrollArea::both().id_salt("tileset").max_height(height).show_viewport(ui, |ui, viewport| {
        let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
        crate::app::widgets::name_widget(ui, &response, &format!("tileset {}", sheet.name));
        let origin = rect.min;
        let painter = ui.painter_at(rect);
        // Only the rows in view: a tileset can hold thousands of tiles.
        let first_row = (viewport.min.y / step.y).floor().max(0.0) as u32;
        let last_row = ((viewport.max.y / step.y).ceil() as u32).min(rows);
        let mut mesh = egui::Mesh::with_texture(texture.id);
        for i in first_row * columns..(last_row * columns).min(sheet.tile_count) {
            let uv = crate::app::canvas::sprite_uv(sheet, i, texture);
            mesh.add_rect_with_uv(tile_rect(sheet, origin, zoom, i), uv, Color32::WHITE);
        }
        painter.add(egui::Shape::mesh(mesh));
        let hovered = response.hover_pos().and_then(|p| index_at(sheet, origin, zoom, p));
        let pointer = response.interact_pointer_pos().and_then(|p| index_at(sheet, origin, zoom, p));
        if response.drag_started() {
            // Where the button went down: the drag is only noticed a few points later.
            let origin_pos = ui.input(|i| i.pointer.press_origin());
            drag_from = origin_pos.and_then(|p| index_at(sheet, origin, zoom, p)).or(pointer);
        }
        // The rectangle being dragged, or the brush's tile.
        let outline = |a: u32, b: u32| tile_rect(sheet, origin, zoom, a).union(tile_rect(sheet, origin, zoom, b));
        let marked = match (drag_from, pointer, stamp) {
            (Some(a), Some(b), _) if response.dragged() => Some(outline(a, b)),
            (_, _, Some((sheet, a, b))) if pasting && sheet == index => Some(outline(a, b)),
            _ if pasting => None,
            _ => selected.filter(|s| usize::from(s.sheet) == index).map(|s| outline(s.index, s.index)),
        };
        if let Some(r) = marked {
            painter.rect_stroke(
                r.expand(1.0),
                0.0,
                Stroke::new(2.0, Color32::from_rgb(255, 220, 90)),
                StrokeKind::Outside,
            );
        }
        if let Some(i) = hovered {
            painter.rect_stroke(
                tile_rect(sheet, origin, zoom, i),
                0.0,
                Stroke::new(1.0, Color32::WHITE),
                StrokeKind::Inside,
            );
            let text = match tiles.get(&i).and_then(|&id| map.tiles.get(usize::from(id))) {
                Some(t) => {
                    let mut rules = vec![if t.walkable { "walkable" } else { "blocks movement" }];
                    if t.opaque {
                        rules.push("opaque");
                    }
                    if t.door.is_some() {
                        rules.push("door");
                    }
                    format!("{}: {}, cost {}", t.name, rules.join(", "), t.cost)
                }
                None => format!("tile {i} (no tile type)"),
            };
            // Its terrains (Tiled's Wang sets), as Tiled's terrain brush sees it.
            let terrains = sheet.wang_sets.iter().filter_map(|set| {
                let names = set.color_names_of(i);
                (!names.is_empty()).then(|| format!("\nterrain {}: {}", set.name, names.join(", ")))
            });
            let text: String = std::iter::once(text).chain(terrains).collect();
            response.clone().on_hover_text_at_pointer(text);
        }
        if response.clicked()
            && let Some(&id) = pointer.and_then(|i| tiles.get(&i))
        {
            commands.push(Command::Tiles(TileCommand::SelectTile(id)));
        }
        if response.drag_stopped() {
            match (drag_from.take(), pointer) {
                (Some(a), Some(b)) if a == b => {
                    if let Some(&id) = tiles.get(&a) {
                        commands.push(Command::Tiles(TileCommand::SelectTile(id)));
                    }
                }
                (Some(a), Some(b)) => {
                    if let Some(tiles) = stamp_of(map, index, a, b) {
                        commands.push(Command::Tiles(TileCommand::StampFromTileset(tiles)));
                        stamp = Some((index, a, b));
                    }
                }
                _ => {}
            }
        }
    });
    // The tileset's own properties, as Tiled's Tileset Properties show them (one fold for every
    // tileset, as the tab changes).
    egui::CollapsingHeader::new(format!("Tileset properties ({})", sheet.properties.len()))
        .id_salt("sightline tileset properties")
        .show(ui, |ui| {
            let owner = format!("tileset {}", sheet.name);
            if let Some(edited) =
                crate::app::panels::properties::properties_ui(ui, &owner, &sheet.properties, &[], &map.objects)
            {
                commands.push(Command::Map(MapCommand::SetProperties(PropertiesOwner::Tileset(index), edited)));
            }
        });
    app.palette.drag_from = drag_from;
    app.palette.stamp = stamp;
    app.commands.extend(commands);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::tile::{Glyph, Rgb, Sprite, TileKind};
    use egui::pos2;

    /// A map whose tiles are the first `n` of a 4-column sheet of 8 tiles (the rest have no type).
    fn map_with_sheet(n: u32) -> Map {
        let mut map = Map::new_standard(4, 4, 1).unwrap();
        map.sheets.push(SpriteSheet { spacing: 2, margin: 1, ..SpriteSheet::new("s", "s.png", [16, 8], 4, 8) });
        for index in 0..n {
            let glyph = Glyph { ch: '.', fg: Rgb(0, 0, 0), bg: Rgb(0, 0, 0) };
            let mut kind = TileKind::new(&format!("s {index}"), glyph.ch, glyph.fg, glyph.bg, false, true);
            kind.sprite = Some(Sprite { sheet: 0, index });
            map.tiles.push(kind);
        }
        map
    }

    #[test]
    fn the_grid_places_and_finds_tiles_without_the_images_spacing() {
        let map = map_with_sheet(8);
        let sheet = &map.sheets[0];
        let origin = pos2(10.0, 20.0);
        let r = tile_rect(sheet, origin, 2.0, 6);
        assert_eq!(r, Rect::from_min_size(pos2(10.0 + 2.0 * 33.0, 20.0 + 17.0), vec2(32.0, 16.0)));
        assert_eq!(index_at(sheet, origin, 2.0, r.center()), Some(6));
        assert_eq!(index_at(sheet, origin, 2.0, pos2(9.0, 25.0)), None, "left of the grid");
        assert_eq!(index_at(sheet, origin, 2.0, pos2(10.0 + 4.0 * 33.0 + 1.0, 25.0)), None, "right of it");
        assert_eq!(index_at(sheet, origin, 2.0, pos2(11.0, 20.0 + 2.0 * 17.0 + 1.0)), None, "below the last row");
    }

    #[test]
    fn a_dragged_rectangle_of_tiles_is_a_stamp_in_either_direction() {
        let map = map_with_sheet(6);
        let first = map.tiles.len() as TileId - 6;
        // Tiles 1, 2 / 5, 6 of the sheet; tile 6 has no type, so it stamps nothing.
        let stamp = stamp_of(&map, 0, 6, 1).unwrap();
        assert_eq!((stamp.width, stamp.height), (2, 2));
        assert_eq!(stamp.cells, [first + 1, first + 2, first + 5, EMPTY]);
        assert_eq!(stamp_of(&map, 0, 1, 6), Some(stamp));
        assert_eq!(stamp_of(&map, 1, 0, 0), None, "no such sheet");
    }
}
