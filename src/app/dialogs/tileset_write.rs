//! Asking before writing a tileset file would lose something.

use crate::app::{Command, SightlineApp, TileCommand};

/// "Writing this tileset file loses …": asked before a tileset file is written over changes
/// made to it since the map read it, or over what sightline does not keep in it.
pub(crate) fn tileset_write_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let Some(write) = &app.prompts.tileset_write else { return };
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
