//! Asking before unsaved changes would be lost (open, new map, quit).

use crate::app::{Command, FileCommand, SightlineApp};

/// "Save the changes?" before opening, or closing, over unsaved work.
pub(crate) fn unsaved_changes_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    if app.prompts.unsaved.is_none() {
        return;
    }
    let name = app.document.file_name();
    egui::Modal::new(egui::Id::unique("sightline unsaved changes")).show(ui.ctx(), |ui| {
        ui.set_max_width(420.0);
        ui.heading("Unsaved changes");
        ui.label(format!("{name} has changes that are not saved."));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Save").clicked() {
                app.commands.push(Command::File(FileCommand::ConfirmSave));
            }
            if ui.button("Don't save").clicked() {
                app.commands.push(Command::File(FileCommand::ConfirmDiscard));
            }
            if ui.button("Cancel").clicked() {
                app.commands.push(Command::File(FileCommand::ConfirmCancel));
            }
        });
    });
}
