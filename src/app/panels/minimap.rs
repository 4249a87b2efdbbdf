//! The minimap: the whole map at a glance, the canvas' view drawn on it, a click or drag jumps
//! there. Sampled to at most a few hundred pixels a side and cached as a texture per map revision,
//! so a 1024×1024 map costs nothing per frame.

use crate::app::ViewCommand;
use egui::{Color32, Rect, Sense, Stroke, TextureHandle, TextureOptions, Vec2};

use crate::app::far_colours::{GlyphColour, PictureKey, map_picture, picture_key};
use crate::app::{Command, SightlineApp};
use crate::core::Cell;

/// Samples per side, at most.
const MAX_SAMPLES: u32 = 256;

#[derive(Default)]
pub(crate) struct Minimap {
    texture: Option<(PictureKey, TextureHandle)>,
}

pub(crate) fn minimap_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let map = &app.document.map;
    let key = picture_key(app.document.revision(), app.view.show_sprites, &app.sheets);
    if app.minimap.texture.as_ref().is_none_or(|(k, _)| *k != key) {
        let image = map_picture(map, &app.sheets, app.view.show_sprites, GlyphColour::Legible, MAX_SAMPLES);
        app.minimap.texture = Some((key, ui.ctx().load_texture("minimap", image, TextureOptions::NEAREST)));
    }
    let Some((_, texture)) = &app.minimap.texture else { return };
    let avail = ui.available_width().max(40.0);
    let aspect = map.height() as f32 / map.width() as f32;
    let size = Vec2::new(avail, (avail * aspect).min(220.0));
    let size = Vec2::new(size.y / aspect, size.y);
    let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
    let response = response.on_hover_text("Click or drag to jump there");
    crate::app::widgets::name_widget(ui, &response, "minimap");
    let painter = ui.painter_at(rect);
    painter.image(texture.id(), rect, Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)), Color32::WHITE);
    // The part of the map the canvas shows.
    let view = &app.view;
    let scale = rect.width() / map.width() as f32;
    if view.canvas.is_positive() {
        // The grid point at the canvas' top-left corner.
        let tl = -view.offset / view.cell_px;
        let br = tl + view.canvas.size() / view.cell_px;
        let shown = Rect::from_min_max(rect.min + tl * scale, rect.min + br * scale).intersect(rect);
        painter.rect_stroke(shown, 0.0, Stroke::new(1.5, Color32::from_rgb(255, 230, 90)), egui::StrokeKind::Inside);
    }
    if let Some(p) = response.interact_pointer_pos()
        && (response.clicked() || response.dragged())
    {
        let g = (p - rect.min) / scale;
        app.commands.push(Command::View(ViewCommand::CentreOn(Cell::new(g.x as i32, g.y as i32))));
    }
}
