//! Asking before saving over a file that holds what sightline does not keep.

use crate::app::{Command, FileCommand, SightlineApp};

/// "Saving over this file drops …": asked before a save over a Tiled file whose Wang sets,
/// animations or other features sightline does not keep, so that they are not lost unawares.
pub(crate) fn overwrite_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    if app.prompts.overwrite.is_none() {
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
