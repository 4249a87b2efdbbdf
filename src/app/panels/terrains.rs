//! The Terrains panel (Tiled's Terrain Sets view): the map's Wang sets, and their terrains to
//! paint with the terrain brush (T). Choosing a terrain picks the brush; the painting itself is
//! `core::terrain`.

use crate::app::ToolCommand;
use std::collections::HashMap;

use crate::app::{Command, SightlineApp};
use crate::core::edit::terrain::TerrainBrush;
use crate::core::model::wang::WangSet;

/// The map's Wang sets, as (sheet, set index in the sheet, set).
fn sets(app: &SightlineApp) -> Vec<(usize, usize, &WangSet)> {
    let sheets = app.document.map.sheets.iter().enumerate();
    sheets.flat_map(|(s, sheet)| sheet.wang_sets.iter().enumerate().map(move |(i, set)| (s, i, set))).collect()
}

/// How a set is named in the list: its tileset's name when the map has several.
fn set_label(app: &SightlineApp, sheet: usize, set: &WangSet) -> String {
    let several = app.document.map.sheets.len() > 1;
    let kind = set.kind.tiled_name();
    if several {
        format!("{} / {} ({kind})", app.document.map.sheets[sheet].name, set.name)
    } else {
        format!("{} ({kind})", set.name)
    }
}

/// The brush's terrain and set ("sand (Desert)"), or `None` when no terrain of this map is chosen.
pub(crate) fn terrain_name(app: &SightlineApp) -> Option<String> {
    let brush = app.editor.terrain?;
    let set = app.document.map.sheets.get(brush.sheet)?.wang_sets.get(brush.set)?;
    let color = set.colors.get(usize::from(brush.color).checked_sub(1)?)?;
    Some(format!("{} ({})", color.name, set.name))
}

/// Lists the terrains of the chosen set; nothing when the map has no Wang sets.
pub(crate) fn terrains_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let sets = sets(app);
    if sets.is_empty() {
        return;
    }
    ui.separator();
    ui.heading("Terrains");
    // The set shown: the brush's, else the first.
    let brush = app.editor.terrain.filter(|b| sets.iter().any(|&(s, i, _)| (s, i) == (b.sheet, b.set)));
    let (sheet, set_index) = brush.map_or((sets[0].0, sets[0].1), |b| (b.sheet, b.set));
    let mut commands = Vec::new();
    if sets.len() > 1 {
        let (_, _, current) = sets.iter().find(|&&(s, i, _)| (s, i) == (sheet, set_index)).expect("listed");
        let shown = egui::ComboBox::from_id_salt("sightline terrain set")
            .selected_text(set_label(app, sheet, current))
            .width(180.0)
            .show_ui(ui, |ui| {
                for &(s, i, set) in &sets {
                    if ui.selectable_label((s, i) == (sheet, set_index), set_label(app, s, set)).clicked() {
                        // The set's first terrain, ready to paint.
                        commands.push(Command::Tools(ToolCommand::SetTerrain(TerrainBrush {
                            sheet: s,
                            set: i,
                            color: 1,
                        })));
                    }
                }
            });
        crate::app::widgets::name_widget(ui, &shown.response, "terrain set");
    } else {
        ui.weak(set_label(app, sheet, sets[0].2));
    }
    let set = &app.document.map.sheets[sheet].wang_sets[set_index];
    if set.colors.is_empty() {
        ui.weak("This set has no terrains.");
    }
    // The tile type standing for each terrain (one pass over the tiles, drawn every frame).
    let mut standing: HashMap<u32, usize> = set.colors.iter().filter_map(|c| c.tile).map(|t| (t, 0)).collect();
    for (id, t) in app.document.map.tiles.iter().enumerate().skip(1) {
        if let Some(s) = t.sprite.filter(|s| usize::from(s.sheet) == sheet)
            && let Some(slot) = standing.get_mut(&s.index).filter(|slot| **slot == 0)
        {
            *slot = id;
        }
    }
    for (k, color) in set.colors.iter().enumerate() {
        let brush = TerrainBrush { sheet, set: set_index, color: k as u8 + 1 };
        let chosen = app.editor.tool == crate::app::editor::Tool::Terrain && app.editor.terrain == Some(brush);
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            let c = color.color;
            ui.painter().rect_filled(rect, 2.0, egui::Color32::from_rgba_unmultiplied(c.0, c.1, c.2, c.3));
            // The tile standing for the terrain, when its tileset image is loaded.
            let tile = color.tile.and_then(|index| standing.get(&index).copied()).filter(|&t| t != 0);
            if let Some((_, texture, uv)) = tile
                .and_then(|t| crate::app::canvas::tile_sprite(&app.document.map, &app.sheets, t as crate::core::TileId))
            {
                ui.add(egui::Image::new((texture.id, egui::vec2(18.0, 18.0))).uv(uv));
            }
            let r = ui
                .selectable_label(chosen, &color.name)
                .on_hover_text(format!("Paint {} with the terrain brush (T); the tiles around join it", color.name));
            crate::app::widgets::name_widget(ui, &r, &format!("terrain {}", color.name));
            if r.clicked() {
                commands.push(Command::Tools(ToolCommand::SetTerrain(brush)));
            }
        });
    }
    app.commands.extend(commands);
}
