//! The Layers panel and the Layer menu, as in Tiled: tile and object layers in one list, top
//! first, each with visibility and lock; below them the actions on the current layer (new tile
//! or object layer, duplicate, remove, raise, lower, merge down) and its properties (name,
//! opacity, custom; a tile layer's collision flag, an object layer's colour). Every action is a [`Command`] and
//! one undo step; the edits themselves are [`crate::core::layers`].

use super::panels::name_widget;
use super::{Command, SightlineApp};
use crate::core::LayerRef;
use crate::core::map::LayerHeader;

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
/// Positions are places in the stack of tile and object layers, bottom first.
fn layer_actions(app: &SightlineApp) -> Vec<LayerAction> {
    let map = &app.document.map;
    let stack = map.stack();
    let current = app.editor.current_layer();
    let at = stack.iter().position(|&r| r == current);
    let has = at.is_some();
    let at = at.unwrap_or(stack.len());
    let above = (at + 1).min(stack.len());
    let same_kind_below = at > 0
        && at < stack.len()
        && matches!(
            (current, stack[at - 1]),
            (LayerRef::Tiles(_), LayerRef::Tiles(_)) | (LayerRef::Objects(_), LayerRef::Objects(_))
        );
    let removable = match current {
        LayerRef::Tiles(_) => has && map.layers.len() > 1,
        LayerRef::Objects(_) => has,
    };
    vec![
        LayerAction {
            short: "New",
            long: "New layer",
            shortcut: Some("Ctrl+Shift+N"),
            hover: "An empty tile layer above the current layer",
            enabled: true,
            command: Command::AddLayer { at: above, objects: false },
        },
        LayerAction {
            short: "New objects",
            long: "New object layer",
            shortcut: None,
            hover: "An empty object layer above the current layer: the object tool places objects on it",
            enabled: true,
            command: Command::AddLayer { at: above, objects: true },
        },
        LayerAction {
            short: "Duplicate",
            long: "Duplicate layer",
            shortcut: Some("Ctrl+Shift+D"),
            hover: "A copy of the current layer, above it (an object layer's copy has copies of its objects)",
            enabled: has,
            command: Command::DuplicateLayer(current),
        },
        LayerAction {
            short: "Remove",
            long: "Remove layer",
            shortcut: None,
            hover: "Removes the current layer, an object layer with its objects (Ctrl+Z brings it back); a map keeps \
                    at least one tile layer",
            enabled: removable,
            command: Command::RemoveLayer(current),
        },
        LayerAction {
            short: "Raise",
            long: "Raise layer",
            shortcut: Some("Ctrl+Shift+Up"),
            hover: "Moves the current layer up, over the layer above it",
            enabled: has && at + 1 < stack.len(),
            command: Command::MoveLayer { from: at, to: above },
        },
        LayerAction {
            short: "Lower",
            long: "Lower layer",
            shortcut: Some("Ctrl+Shift+Down"),
            hover: "Moves the current layer down, under the layer below it",
            enabled: has && at > 0,
            command: Command::MoveLayer { from: at, to: at.saturating_sub(1) },
        },
        LayerAction {
            short: "Merge down",
            long: "Merge layer down",
            shortcut: None,
            hover: "Merges the current layer into the layer below, if it is of the same kind, and removes it. Tile \
                    layers: a cell keeps only the upper tile, so its rules can change (the notice counts the cells). \
                    Object layers: the objects join the layer below.",
            enabled: same_kind_below,
            command: Command::MergeLayerDown(current),
        },
    ]
}

/// The Layers section of the left panel: tile and object layers, top first.
pub fn layers_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    ui.heading("Layers");
    let map = &app.document.map;
    let current = app.editor.current_layer();
    for layer in map.stack().into_iter().rev() {
        let Some(LayerHeader { name, visible, locked, opacity }) = map.layer_header(layer) else { continue };
        ui.horizontal(|ui| {
            let mut shown = visible;
            let r = ui.checkbox(&mut shown, "").on_hover_text("Visible");
            name_widget(ui, &r, &format!("show {name}"));
            if r.changed() {
                app.commands.push(Command::SetLayerVisible(layer, shown));
            }
            let mut lock = locked;
            let r = ui.checkbox(&mut lock, "").on_hover_text("Locked: the tools do not change it");
            name_widget(ui, &r, &format!("lock {name}"));
            if r.changed() {
                app.commands.push(Command::SetLayerLocked(layer, lock));
            }
            let header_opacity = opacity;
            let opacity = format!("{:.0}% opacity", opacity * 100.0);
            let objects = match layer {
                LayerRef::Objects(j) => {
                    let n = map.objects.iter().filter(|o| o.layer == j).count();
                    Some(format!("{n} object{}", if n == 1 { "" } else { "s" }))
                }
                LayerRef::Tiles(_) => None,
            };
            let collision = matches!(layer, LayerRef::Tiles(i) if map.layers[i].collision);
            let tags: Vec<&str> = [
                (objects.is_some(), objects.as_deref().unwrap_or_default()),
                (collision, "collision"),
                (locked, "locked"),
                (header_opacity < 1.0, opacity.as_str()),
            ]
            .into_iter()
            .filter_map(|(on, tag)| on.then_some(tag))
            .collect();
            let label = if tags.is_empty() { name.to_owned() } else { format!("{name} ({})", tags.join(", ")) };
            // Object layers read apart from tile layers by their slant, and their object count.
            let text = match layer {
                LayerRef::Objects(_) => egui::RichText::new(label.clone()).italics(),
                LayerRef::Tiles(_) => egui::RichText::new(label.clone()),
            };
            let r = ui.selectable_label(current == layer, text);
            name_widget(ui, &r, &label);
            if r.clicked() {
                app.commands.push(Command::SelectLayer(layer));
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

/// The current layer's name, opacity and custom properties; a tile layer's collision flag and
/// look, an object layer's colour.
fn layer_properties_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let current = app.editor.current_layer();
    let map = &app.document.map;
    let Some(LayerHeader { name, opacity, .. }) = map.layer_header(current) else { return };
    ui.horizontal(|ui| {
        ui.label("Name");
        // The name is edited in a draft kept in egui's memory and applied when the field is left
        // (Enter or a click elsewhere; Esc drops it), so that clearing the field to retype it is
        // not an edit, and the whole rename is one undo step.
        let draft_id = egui::Id::unique(("sightline layer name draft", current));
        let mut text = ui.data(|d| d.get_temp::<String>(draft_id)).unwrap_or_else(|| name.to_owned());
        let r = ui.add(egui::TextEdit::singleline(&mut text).desired_width(ui.available_width()));
        name_widget(ui, &r, "layer name");
        if r.lost_focus() {
            ui.data_mut(|d| d.remove::<String>(draft_id));
            let escaped = ui.input(|i| i.key_pressed(egui::Key::Escape));
            if !escaped && text.trim() != name {
                app.commands.push(Command::RenameLayer(current, text));
            }
        } else if r.has_focus() {
            ui.data_mut(|d| d.insert_temp(draft_id, text));
        }
    });
    let mut percent = (opacity * 100.0).round();
    let r = ui
        .add(egui::Slider::new(&mut percent, 0.0..=100.0).step_by(1.0).fixed_decimals(0).suffix("%").text("Opacity"))
        .on_hover_text(
            "How opaque the layer is drawn (Tiled's layer opacity). Drawing only: the game rules read the layer whole.",
        );
    name_widget(ui, &r, "layer opacity");
    if r.changed() {
        app.commands.push(Command::SetLayerOpacity(current, percent / 100.0));
    }
    match current {
        LayerRef::Tiles(i) => tile_layer_properties_ui(app, ui, i),
        LayerRef::Objects(j) => object_layer_properties_ui(app, ui, j),
    }
}

fn tile_layer_properties_ui(app: &mut SightlineApp, ui: &mut egui::Ui, current: usize) {
    let layer = &app.document.map.layers[current];
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

fn object_layer_properties_ui(app: &mut SightlineApp, ui: &mut egui::Ui, current: usize) {
    let layer = &app.document.map.object_layers[current];
    ui.horizontal(|ui| {
        // Tiled's object layer colour: the layer's shapes are drawn in it.
        let mut own = layer.color.is_some();
        let r = ui.checkbox(&mut own, "Colour").on_hover_text(
            "Draw this layer's zones and paths in one colour (Tiled's object layer colour); off: each object in \
             its kind's colour",
        );
        name_widget(ui, &r, "object layer colour");
        if r.changed() {
            let color = own.then_some(crate::core::Rgba(160, 160, 164, 255));
            app.commands.push(Command::SetObjectLayerColor(current, color));
        }
        if let Some(c) = layer.color {
            let mut rgb = [c.0, c.1, c.2];
            let r = ui.color_edit_button_srgb(&mut rgb);
            name_widget(ui, &r, "object layer colour picker");
            if r.changed() {
                app.commands
                    .push(Command::SetObjectLayerColor(current, Some(crate::core::Rgba(rgb[0], rgb[1], rgb[2], c.3))));
            }
        }
    });
    egui::CollapsingHeader::new(format!("Custom properties ({})", layer.properties.len()))
        .id_salt("sightline object layer properties")
        .show(ui, |ui| {
            let owner = format!("object layer {}", layer.name);
            if let Some(edited) =
                super::properties_editor::properties_ui(ui, &owner, &layer.properties, &[], &app.document.map.objects)
            {
                app.commands.push(Command::SetProperties(super::PropertiesOwner::ObjectLayer(current), edited));
            }
        });
}

/// The layer above and below the current one in the stack, if any.
fn neighbours(app: &SightlineApp) -> (Option<LayerRef>, Option<LayerRef>) {
    let stack = app.document.map.stack();
    match stack.iter().position(|&r| r == app.editor.current_layer()) {
        Some(at) => (stack.get(at + 1).copied(), at.checked_sub(1).map(|b| stack[b])),
        None => (None, None),
    }
}

/// The menu bar's Layer menu: the same actions, with their shortcuts, and the current layer's
/// flags.
pub fn layer_menu_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    ui.menu_button("Layer", |ui| {
        let current = app.editor.current_layer();
        match app.document.map.layer_name(current) {
            Some(name) => ui.weak(format!("current: {name}")),
            None => ui.weak("no layer"),
        };
        for (k, action) in layer_actions(app).into_iter().enumerate() {
            if k == 4 || k == 6 {
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
        let (above, below) = neighbours(app);
        if ui.add_enabled(above.is_some(), egui::Button::new("Select layer above").shortcut_text("Ctrl+PgUp")).clicked()
            && let Some(layer) = above
        {
            app.commands.push(Command::SelectLayer(layer));
        }
        if ui
            .add_enabled(below.is_some(), egui::Button::new("Select layer below").shortcut_text("Ctrl+PgDown"))
            .clicked()
            && let Some(layer) = below
        {
            app.commands.push(Command::SelectLayer(layer));
        }
        let map = &app.document.map;
        if let Some(LayerHeader { visible, locked, .. }) = map.layer_header(current) {
            ui.separator();
            let mut value = visible;
            if ui.checkbox(&mut value, "Visible").changed() {
                app.commands.push(Command::SetLayerVisible(current, value));
            }
            let mut value = locked;
            if ui.checkbox(&mut value, "Locked").changed() {
                app.commands.push(Command::SetLayerLocked(current, value));
            }
            if let LayerRef::Tiles(i) = current {
                let mut value = map.layers[i].collision;
                if ui.checkbox(&mut value, "Collision layer").changed() {
                    app.commands.push(Command::SetLayerCollision(i, value));
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
    let (above, below) = neighbours(app);
    if input.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::PageUp))
        && let Some(layer) = above
    {
        app.commands.push(Command::SelectLayer(layer));
    }
    if input.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::PageDown))
        && let Some(layer) = below
    {
        app.commands.push(Command::SelectLayer(layer));
    }
}
