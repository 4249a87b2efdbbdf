//! The error dialog: a file that could not be read or written, named with its problem.

use crate::app::{Command, FileCommand, SightlineApp};

pub(crate) fn error_dialog_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let Some(error) = app.prompts.error.clone() else { return };
    let modal = egui::Modal::new(egui::Id::unique("sightline error dialog")).show(ui.ctx(), |ui| {
        ui.set_max_width(480.0);
        ui.heading(&error.title);
        ui.label(&error.message);
        ui.add_space(8.0);
        ui.button("OK").clicked()
    });
    if modal.inner || modal.should_close() {
        app.commands.push(Command::File(FileCommand::DismissError));
    }
}
