//! The History panel, where a click on a step goes back (or forward) to the map as it was just
//! after it, as Tiled's History view does. Each step's name comes from its command
//! ([`crate::app::commands::step_name`]).

use crate::app::commands::{Command, HistoryCommand};

/// The History panel: where the map started, every step in the undo history (oldest first)
/// and those undone, greyed, below the current one. A click on a step makes the map what it
/// was just after it; on the first row, what it was before every step remembered.
pub(crate) fn history_ui(ui: &mut egui::Ui, document: &crate::app::document::Document, commands: &mut Vec<Command>) {
    let done = document.undo.len();
    let start = match document.forgotten() {
        0 => "Start".to_owned(),
        n => format!("Start ({n} older {} forgotten)", if n == 1 { "step" } else { "steps" }),
    };
    // Row k is the map after k of the remembered steps: the undo steps, then the redo steps
    // from the next to be redone.
    let names = std::iter::once(start)
        .chain(document.undo.iter().map(|s| s.name().to_owned()))
        .chain(document.redo.iter().rev().map(|s| s.name().to_owned()));
    // The current step is scrolled to when the history changes, not every frame (the list
    // can then be scrolled away from it).
    let shown = (done, document.redo.len(), document.revision());
    let id = ui.scope_id().with("history shown");
    let changed = ui.data(|d| d.get_temp::<(usize, usize, u64)>(id)) != Some(shown);
    ui.data_mut(|d| d.insert_temp(id, shown));
    egui::ScrollArea::vertical().id_salt("history rows").max_height(240.0).show(ui, |ui| {
        // Rows the panel's width, their names at the left, as a menu's (easier to hit).
        ui.with_layout(egui::Layout::top_down_justified(egui::Align::LEFT), |ui| {
            rows_ui(ui, names, done, changed, commands)
        });
    });
}

/// The History panel's rows: `names` from the start, the current one (`done` steps in)
/// selected and scrolled to when the history `changed`.
fn rows_ui(
    ui: &mut egui::Ui,
    names: impl Iterator<Item = String>,
    done: usize,
    changed: bool,
    commands: &mut Vec<Command>,
) {
    for (k, name) in names.enumerate() {
        let current = k == done;
        let text = if k > done { egui::RichText::new(name).weak() } else { egui::RichText::new(name) };
        let response = ui.selectable_label(current, text);
        if current && changed {
            response.scroll_to_me(None);
        }
        if response.clicked() && !current {
            commands.push(Command::History(HistoryCommand::UndoTo(k)));
        }
    }
}
