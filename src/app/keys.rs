//! Keyboard shortcuts: keys turned into commands, once a frame, as Tiled binds them.

use crate::app::play::PlayCommand;
use crate::app::{
    Command, FileCommand, HistoryCommand, ObjectCommand, SelectionCommand, SightlineApp, ToolCommand, ViewCommand,
};

pub(crate) fn shortcuts(app: &mut SightlineApp, ui: &mut egui::Ui) {
    use egui::{Key, KeyboardShortcut, Modifiers};
    let open = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
    let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
    let redo = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    let redo_y = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
    let save = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
    let save_as = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    let new = KeyboardShortcut::new(Modifiers::COMMAND, Key::N);
    let copy = KeyboardShortcut::new(Modifiers::COMMAND, Key::C);
    let cut = KeyboardShortcut::new(Modifiers::COMMAND, Key::X);
    let paste = KeyboardShortcut::new(Modifiers::COMMAND, Key::V);
    let paste_in_place = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::V);
    let select_all = KeyboardShortcut::new(Modifiers::COMMAND, Key::A);
    let select_none = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::A);
    let invert_selection = KeyboardShortcut::new(Modifiers::COMMAND, Key::I);
    let typing = ui.ctx().egui_wants_keyboard_input();
    ui.input_mut(|i| {
        if !typing {
            crate::app::panels::layers::layer_shortcuts(app, i);
        }
        if i.consume_shortcut(&new) {
            app.commands.push(Command::File(FileCommand::ShowNewMap));
        }
        // egui turns Ctrl+C/X/V into clipboard events; they are the map's only when no text
        // field has the keyboard.
        let for_map = !typing;
        let copy_event = for_map && i.events.iter().any(|e| matches!(e, egui::Event::Copy));
        let cut_event = for_map && i.events.iter().any(|e| matches!(e, egui::Event::Cut));
        let paste_event = for_map && i.events.iter().any(|e| matches!(e, egui::Event::Paste(_)));
        if (for_map && i.consume_shortcut(&copy)) || copy_event {
            app.commands.push(Command::Selection(SelectionCommand::Copy));
        }
        if (for_map && i.consume_shortcut(&cut)) || cut_event {
            app.commands.push(Command::Selection(SelectionCommand::Cut));
        }
        // Before Ctrl+V, which Ctrl+Shift+V would match too.
        if for_map && i.consume_shortcut(&paste_in_place) {
            app.commands.push(Command::Selection(SelectionCommand::PasteInPlace));
        }
        if (for_map && i.consume_shortcut(&paste)) || paste_event {
            app.commands.push(Command::Selection(SelectionCommand::Paste));
        }
        // Ctrl+A in a text field selects its text.
        if for_map && i.consume_shortcut(&select_none) {
            app.commands.push(Command::Selection(SelectionCommand::SelectNone));
        }
        if for_map && i.consume_shortcut(&select_all) {
            app.commands.push(Command::Selection(SelectionCommand::SelectAll));
        }
        if for_map && i.consume_shortcut(&invert_selection) {
            app.commands.push(Command::Selection(SelectionCommand::InvertSelection));
        }
        if i.consume_shortcut(&save_as) {
            app.commands.push(Command::File(FileCommand::PickSaveAs));
        }
        if i.consume_shortcut(&save) {
            app.commands.push(Command::File(FileCommand::Save));
        }
        if i.consume_shortcut(&open) {
            app.commands.push(Command::File(FileCommand::PickOpen));
        }
        if i.consume_shortcut(&redo) || i.consume_shortcut(&redo_y) {
            app.commands.push(Command::History(HistoryCommand::Redo));
        }
        if i.consume_shortcut(&undo) {
            app.commands.push(Command::History(HistoryCommand::Undo));
        }
    });
    ui.input(|i| {
        if i.key_pressed(Key::F5) {
            app.commands.push(Command::Play(PlayCommand::SetActive(!app.play.active)));
        }
    });
    // In play mode the letters and digits belong to the game.
    if !app.play.active && !ui.ctx().egui_wants_keyboard_input() {
        ui.input(|i| {
            if i.key_pressed(Key::Plus) || i.key_pressed(Key::Equals) {
                app.commands.push(Command::View(ViewCommand::ZoomBy(1.25)));
            }
            if i.key_pressed(Key::Minus) {
                app.commands.push(Command::View(ViewCommand::ZoomBy(0.8)));
            }
            if i.key_pressed(Key::G) {
                app.commands.push(Command::View(ViewCommand::ToggleGrid));
            }
            if i.key_pressed(Key::Escape) {
                app.commands.push(Command::Selection(SelectionCommand::CancelSelection));
            }
            if i.key_pressed(Key::Delete) {
                app.commands.push(Command::Selection(SelectionCommand::DeleteSelection));
            }
            // The polygon being drawn: Enter ends it as a path, Backspace takes its last point
            // back (Tiled's Insert Polygon).
            if let Some(crate::app::ShapeDraft::Points { .. }) = app.editor.shape_draft {
                if i.key_pressed(Key::Enter) {
                    app.commands.push(Command::Objects(ObjectCommand::FinishShape { closed: false }));
                }
                if i.key_pressed(Key::Backspace) {
                    app.commands.push(Command::Objects(ObjectCommand::RemoveShapePoint));
                }
            }
            // Tiled's keys: X and Y flip, Z and Shift+Z turn the stamp being pasted, else the
            // brush's tile.
            use crate::core::model::flip::Turn;
            for (key, shift, turn) in [
                (Key::X, false, Turn::FlipHorizontally),
                (Key::Y, false, Turn::FlipVertically),
                (Key::Z, false, Turn::RotateClockwise),
                (Key::Z, true, Turn::RotateCounterclockwise),
            ] {
                let modifiers = if shift { i.modifiers.shift_only() } else { i.modifiers.is_none() };
                if modifiers && i.key_pressed(key) {
                    app.commands.push(Command::Tools(ToolCommand::TurnStamp(turn)));
                }
            }
            for tool in crate::app::editor::Tool::ALL {
                let shortcut = tool.shortcut();
                if i.modifiers.matches_exact(shortcut.modifiers) && i.key_pressed(shortcut.logical_key) {
                    app.commands.push(Command::Tools(ToolCommand::SelectTool(tool)));
                }
            }
        });
    }
}
