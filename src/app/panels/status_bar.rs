//! The status bar under the canvas: the cell under the pointer, the tool, notices.

use egui::RichText;

use crate::app::{Command, SightlineApp, ToolCommand};
use crate::core::model::flip::Flip;

pub(crate) fn status_bar_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
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
            if let Some(notice) = &app.prompts.notice {
                ui.separator();
                ui.label(RichText::new(notice).color(ui.visuals().warn_fg_color));
            }
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
        if let Some((_, texture, uv)) = crate::app::canvas::tile_sprite(map, sheets, app.editor.tile) {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 18.0), egui::Sense::hover());
            let mut mesh = egui::Mesh::with_texture(texture.id);
            crate::app::canvas::add_flipped_sprite(&mut mesh, rect, uv, app.editor.flip, egui::Color32::WHITE);
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
