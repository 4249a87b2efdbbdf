//! Asking before a save in a format that holds less than the map.

use crate::app::{Command, FileCommand, SightlineApp};

/// "This file will not keep …": asked before a save in a format that holds less than the map
/// (ASCII's one layer, MovingAI's terrain, a Tiled JSON class's member types), so that what
/// the file drops is not lost unawares when the window closes.
pub(crate) fn lossy_save_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let Some(rendered) = &app.prompts.lossy_save else { return };
    let name = rendered.path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let warnings = rendered.warnings.clone();
    let mine = app.document.file_name();
    // Saving over the map's own file (Ctrl+S), or writing another.
    let own = app.document.path.as_deref() == Some(rendered.path.as_path());
    egui::Modal::new(egui::Id::unique("sightline lossy save")).show(ui.ctx(), |ui| {
        ui.set_max_width(520.0);
        ui.heading(if own { format!("Save {name}?") } else { format!("Save as {name}?") });
        ui.label(format!("{name} will not keep all of the map:"));
        egui::ScrollArea::vertical().max_height(220.0).show(ui, |ui| {
            for w in &warnings {
                ui.label(format!("• {w}"));
            }
        });
        ui.label(if own {
            format!(
                "Save anyway writes {name}: what it does not keep is gone once the window closes. Save As… writes \
                 another file (RON, TMX and TMJ keep everything)."
            )
        } else {
            format!(
                "Save anyway makes {name} the map's file: what it does not keep is gone once the window closes. \
                 Export a copy writes {name} and goes on with {mine}."
            )
        });
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Save anyway").clicked() {
                app.commands.push(Command::File(FileCommand::ConfirmLossySave));
            }
            if own {
                if ui.button("Save As…").clicked() {
                    app.commands.push(Command::File(FileCommand::CancelLossySave));
                    app.commands.push(Command::File(FileCommand::PickSaveAs));
                }
            } else if ui.button("Export a copy").clicked() {
                app.commands.push(Command::File(FileCommand::ExportLossyCopy));
            }
            if ui.button("Cancel").clicked() {
                app.commands.push(Command::File(FileCommand::CancelLossySave));
            }
        });
    });
}
