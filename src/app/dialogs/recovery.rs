//! Offering back the work a crashed session left in the recovery file.

use crate::app::{Command, FileCommand, SightlineApp};

/// "Recover the unsaved work of the last session?" at start.
pub(crate) fn recovery_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let Some(found) = &app.prompts.recovery else { return };
    let from = found.source.as_ref().map_or_else(|| "an untitled map".to_owned(), |p| p.display().to_string());
    let age = found
        .modified
        .and_then(|t| t.elapsed().ok())
        .map_or_else(String::new, |d| format!(" ({} minutes ago)", d.as_secs() / 60));
    egui::Modal::new(egui::Id::unique("sightline recovery")).show(ui.ctx(), |ui| {
        ui.set_max_width(460.0);
        ui.heading("Recover unsaved work?");
        ui.label(format!("The last session did not close cleanly. Unsaved changes to {from} were kept{age}."));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Recover").clicked() {
                app.commands.push(Command::File(FileCommand::Recover));
            }
            if ui.button("Discard").clicked() {
                app.commands.push(Command::File(FileCommand::DiscardRecovery));
            }
        });
    });
}
