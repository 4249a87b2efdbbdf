//! The palette: the tiles to paint with, by tileset, and the random brush.

use egui::RichText;

use crate::app::widgets::name_widget;
use crate::app::{Command, SightlineApp, TileCommand, ToolCommand};

/// Tile tables longer than this are laid out a screenful at a time, in the palette and the tile
/// types window: a Tiled tileset can hold tens of thousands of tiles, and laying out 30 000
/// rows took 140 ms a frame. (Shorter ones are laid out whole, every row in the accessibility
/// tree.)
pub(crate) const LONG_TILE_TABLE: usize = 300;

/// The tile palette and the layers.
pub(crate) fn palette_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    // A copy: the tileset view takes the whole app to send its commands.
    let sheets = app.sheets.clone();
    egui::Panel::left("palette").default_size(200.0).show(ui, |ui| {
        ui.heading("Tiles");
        crate::app::panels::tileset::palette_tabs_ui(app, ui);
        if crate::app::panels::tileset::tileset_ui(app, ui, &sheets, ui.available_height() * 0.55) {
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
        crate::app::panels::terrains::terrains_ui(app, ui);
        ui.separator();
        crate::app::panels::layers::layers_ui(app, ui);
        ui.separator();
        ui.heading("Minimap");
        crate::app::panels::minimap::minimap_ui(app, ui);
    });
}

/// The random brush: on/off, and its tiles with their weights (the palette's tile is added
/// with "+").
pub(crate) fn random_brush_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
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
