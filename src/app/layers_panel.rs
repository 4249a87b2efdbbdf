//! The Layers panel and the Layer menu, as in Tiled: the layers top first, each with visibility
//! and lock; below them the actions on the current layer (new, duplicate, remove, raise, lower,
//! merge down) and its properties (name, opacity, collision, custom). Every action is a [`Command`] and
//! one undo step; the edits themselves are [`crate::core::layers`].

use super::panels::name_widget;
use super::{Command, SightlineApp};

/// One action on the current layer, for the panel's buttons and the menu's entries alike.
struct LayerAction {
    /// The panel button's label.
    short: &'static str,
    /// The menu entry's label.
    long: &'static str,
    shortcut: Option<&'static str>,
    hover: &'static str,
    enabled: bool,
    command: Command,
}

/// What can be done to the current layer now (disabled actions are shown greyed, as Tiled does).
fn layer_actions(app: &SightlineApp) -> Vec<LayerAction> {
    let n = app.document.map.layers.len();
    let current = app.editor.layer;
    let has = current < n;
    vec![
        LayerAction {
            short: "New",
            long: "New layer",
            shortcut: Some("Ctrl+Shift+N"),
            hover: "An empty layer above the current one",
            enabled: true,
            command: Command::AddLayer { at: if has { current + 1 } else { n } },
        },
        LayerAction {
            short: "Duplicate",
            long: "Duplicate layer",
            shortcut: Some("Ctrl+Shift+D"),
            hover: "A copy of the current layer, above it",
            enabled: has,
            command: Command::DuplicateLayer(current),
        },
        LayerAction {
            short: "Remove",
            long: "Remove layer",
            shortcut: None,
            hover: "Removes the current layer (Ctrl+Z brings it back); a map keeps at least one",
            enabled: has && n > 1,
            command: Command::RemoveLayer(current),
        },
        LayerAction {
            short: "Raise",
            long: "Raise layer",
            shortcut: Some("Ctrl+Shift+Up"),
            hover: "Moves the current layer up, over the one above it",
            enabled: has && current + 1 < n,
            command: Command::MoveLayer { from: current, to: current + 1 },
        },
        LayerAction {
            short: "Lower",
            long: "Lower layer",
            shortcut: Some("Ctrl+Shift+Down"),
            hover: "Moves the current layer down, under the one below it",
            enabled: has && current > 0,
            command: Command::MoveLayer { from: current, to: current.saturating_sub(1) },
        },
        LayerAction {
            short: "Merge down",
            long: "Merge layer down",
            shortcut: None,
            hover: "Paints the current layer's tiles onto the layer below and removes it; a cell keeps only \
                    the upper tile, so its rules can change (the notice counts the cells)",
            enabled: has && current > 0,
            command: Command::MergeLayerDown(current),
        },
    ]
}

/// The Layers section of the left panel.
pub fn layers_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    ui.heading("Layers");
    for (i, l) in app.document.map.layers.iter().enumerate().rev() {
        ui.horizontal(|ui| {
            let mut visible = l.visible;
            let r = ui.checkbox(&mut visible, "").on_hover_text("Visible");
            name_widget(ui, &r, &format!("show {}", l.name));
            if r.changed() {
                app.commands.push(Command::SetLayerVisible(i, visible));
            }
            let mut locked = l.locked;
            let r = ui.checkbox(&mut locked, "").on_hover_text("Locked: the tools do not paint on it");
            name_widget(ui, &r, &format!("lock {}", l.name));
            if r.changed() {
                app.commands.push(Command::SetLayerLocked(i, locked));
            }
            let opacity = format!("{:.0}% opacity", l.opacity * 100.0);
            let tags: Vec<&str> =
                [(l.collision, "collision"), (l.locked, "locked"), (l.opacity < 1.0, opacity.as_str())]
                    .into_iter()
                    .filter_map(|(on, tag)| on.then_some(tag))
                    .collect();
            let label = if tags.is_empty() { l.name.clone() } else { format!("{} ({})", l.name, tags.join(", ")) };
            if ui.selectable_label(app.editor.layer == i, label).clicked() {
                app.commands.push(Command::SelectLayer(i));
            }
        });
    }
    // The buttons' commands go after the name field's: a click that takes the focus from the
    // field renames the layer it was editing before the button moves or removes it.
    let mut actions = Vec::new();
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        for action in layer_actions(app) {
            let hover = match action.shortcut {
                Some(keys) => format!("{} ({keys})", action.hover),
                None => action.hover.to_owned(),
            };
            let r = ui.add_enabled(action.enabled, egui::Button::new(action.short).small()).on_hover_text(hover);
            name_widget(ui, &r, action.long);
            if r.clicked() {
                actions.push(action.command);
            }
        }
    });
    layer_properties_ui(app, ui);
    app.commands.extend(actions);
}

/// The current layer's name, opacity, collision flag and custom properties.
fn layer_properties_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let current = app.editor.layer;
    let Some(layer) = app.document.map.layers.get(current) else { return };
    ui.horizontal(|ui| {
        ui.label("Name");
        // The name is edited in a draft kept in egui's memory and applied when the field is left
        // (Enter or a click elsewhere; Esc drops it), so that clearing the field to retype it is
        // not an edit, and the whole rename is one undo step.
        let draft_id = egui::Id::unique(("sightline layer name draft", current));
        let mut text = ui.data(|d| d.get_temp::<String>(draft_id)).unwrap_or_else(|| layer.name.clone());
        let r = ui.add(egui::TextEdit::singleline(&mut text).desired_width(ui.available_width()));
        name_widget(ui, &r, "layer name");
        if r.lost_focus() {
            ui.data_mut(|d| d.remove::<String>(draft_id));
            let escaped = ui.input(|i| i.key_pressed(egui::Key::Escape));
            if !escaped && text.trim() != layer.name {
                app.commands.push(Command::RenameLayer(current, text));
            }
        } else if r.has_focus() {
            ui.data_mut(|d| d.insert_temp(draft_id, text));
        }
    });
    let mut percent = (layer.opacity * 100.0).round();
    let r = ui
        .add(egui::Slider::new(&mut percent, 0.0..=100.0).step_by(1.0).fixed_decimals(0).suffix("%").text("Opacity"))
        .on_hover_text(
            "How opaque the layer is drawn (Tiled's layer opacity). Drawing only: the game rules read the layer whole.",
        );
    name_widget(ui, &r, "layer opacity");
    if r.changed() {
        app.commands.push(Command::SetLayerOpacity(current, percent / 100.0));
    }
    // Tiled's look of the layer, kept and drawn (the tint and the offset) but not edited here.
    let mut look = Vec::new();
    if layer.offset != [0.0, 0.0] {
        look.push(format!("offset {}, {} px", layer.offset[0], layer.offset[1]));
    }
    if let Some(tint) = layer.tint {
        look.push(format!("tint {}", crate::core::wang::tiled_color(tint)));
    }
    if layer.parallax != [1.0, 1.0] {
        look.push(format!("parallax {} × {}", layer.parallax[0], layer.parallax[1]));
    }
    if !look.is_empty() {
        ui.weak(look.join(" · ")).on_hover_text("Set in Tiled; kept when the map is saved");
    }
    let mut collision = layer.collision;
    let r = ui.checkbox(&mut collision, "Collision layer").on_hover_text(
        "Every tile on this layer blocks sight and movement, whatever its type says (doors on it still open \
         and close). Tiled maps mark walls this way; sightline saves it as the layer's collision property.",
    );
    if r.changed() {
        app.commands.push(Command::SetLayerCollision(current, collision));
    }
    egui::CollapsingHeader::new(format!("Custom properties ({})", layer.properties.len()))
        .id_salt("sightline layer properties")
        .show(ui, |ui| {
            let owner = format!("layer {}", layer.name);
            if let Some(edited) = super::properties_editor::properties_ui(
                ui,
                &owner,
                &layer.properties,
                &["collision"],
                &app.document.map.objects,
            ) {
                app.commands.push(Command::SetProperties(super::PropertiesOwner::Layer(current), edited));
            }
        });
}

/// The menu bar's Layer menu: the same actions, with their shortcuts, and the current layer's
/// flags.
pub fn layer_menu_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    ui.menu_button("Layer", |ui| {
        let name = app.document.map.layers.get(app.editor.layer).map(|l| l.name.clone());
        match &name {
            Some(name) => ui.weak(format!("current: {name}")),
            None => ui.weak("no tile layer"),
        };
        for (k, action) in layer_actions(app).into_iter().enumerate() {
            if k == 3 || k == 5 {
                ui.separator();
            }
            let mut button = egui::Button::new(action.long);
            if let Some(keys) = action.shortcut {
                button = button.shortcut_text(keys);
            }
            if ui.add_enabled(action.enabled, button).on_hover_text(action.hover).clicked() {
                app.commands.push(action.command);
            }
        }
        ui.separator();
        let n = app.document.map.layers.len();
        let current = app.editor.layer;
        if ui.add_enabled(current + 1 < n, egui::Button::new("Select layer above").shortcut_text("Ctrl+PgUp")).clicked()
        {
            app.commands.push(Command::SelectLayer(current + 1));
        }
        if ui.add_enabled(current > 0, egui::Button::new("Select layer below").shortcut_text("Ctrl+PgDown")).clicked() {
            app.commands.push(Command::SelectLayer(current.saturating_sub(1)));
        }
        if let Some(layer) = app.document.map.layers.get(current) {
            ui.separator();
            for (label, on, command) in [
                ("Visible", layer.visible, Command::SetLayerVisible as fn(usize, bool) -> Command),
                ("Locked", layer.locked, Command::SetLayerLocked),
                ("Collision layer", layer.collision, Command::SetLayerCollision),
            ] {
                let mut value = on;
                if ui.checkbox(&mut value, label).changed() {
                    app.commands.push(command(current, value));
                }
            }
        }
    });
}

/// The layer shortcuts (Tiled's): Ctrl+Shift+N new, Ctrl+Shift+D duplicate, Ctrl+Shift+Up/Down
/// raise and lower, Ctrl+PgUp/PgDown select the layer above or below. Run before Ctrl+N takes
/// the map's "new" (a shortcut matches with more modifiers held) and before the canvas pans on
/// the arrows.
pub fn layer_shortcuts(app: &mut SightlineApp, input: &mut egui::InputState) {
    use egui::{Key, KeyboardShortcut, Modifiers};
    let ctrl_shift = Modifiers::COMMAND | Modifiers::SHIFT;
    let actions = layer_actions(app);
    let by_label =
        |label: &str| actions.iter().find(|a| a.long == label).filter(|a| a.enabled).map(|a| a.command.clone());
    for (shortcut, label) in [
        (KeyboardShortcut::new(ctrl_shift, Key::N), "New layer"),
        (KeyboardShortcut::new(ctrl_shift, Key::D), "Duplicate layer"),
        (KeyboardShortcut::new(ctrl_shift, Key::ArrowUp), "Raise layer"),
        (KeyboardShortcut::new(ctrl_shift, Key::ArrowDown), "Lower layer"),
    ] {
        if input.consume_shortcut(&shortcut)
            && let Some(command) = by_label(label)
        {
            app.commands.push(command);
        }
    }
    let n = app.document.map.layers.len();
    let current = app.editor.layer;
    if input.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::PageUp)) && current + 1 < n {
        app.commands.push(Command::SelectLayer(current + 1));
    }
    if input.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::PageDown)) && current > 0 {
        app.commands.push(Command::SelectLayer(current - 1));
    }
}
