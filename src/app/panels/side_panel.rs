//! The side panel: the inspector, the overlays' sections, the history and the panels beside them.

use crate::app::panels::inspector::inspector_ui;
use crate::app::{OverlayKind, SightlineApp};

/// The right panel: the inspector, then a section for each overlay that is on.
pub(crate) fn side_panel_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
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
                .show(ui, |ui| crate::app::panels::objects::objects_ui(app, ui));
            let steps = app.document.undo.len() + app.document.redo.len();
            let reveal = std::mem::take(&mut app.windows.reveal_history);
            let history = egui::CollapsingHeader::new(format!("History ({steps})"))
                .id_salt("history header")
                .open(reveal.then_some(true))
                .show(ui, |ui| crate::app::panels::history::history_ui(ui, &app.document, &mut app.commands));
            if reveal {
                history.header_response.scroll_to_me(Some(egui::Align::TOP));
            }
        });
    });
}
