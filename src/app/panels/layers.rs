//! The Layers panel and the Layer menu, as in Tiled: tile and object layers and layer groups in
//! one list, top first, each with visibility and lock, a group over what it holds, indented; below
//! them the actions on the current item (new tile layer, object layer or group, group, ungroup,
//! duplicate, remove, raise, lower, merge down) and its properties (name, opacity, custom; a tile
//! layer's collision flag, an object layer's colour). Every action is a [`Command`] and one undo
//! step; the edits themselves are [`crate::core::model::layers`].

use crate::app::widgets::name_widget;
use crate::app::{Command, NewLayer, PropertiesOwner, SightlineApp};
use crate::app::{LayerCommand, MapCommand};
use crate::core::model::layers;
use crate::core::model::map::LayerHeader;
use crate::core::{LayerRef, StackItem};

/// One action on the current item, for the panel's buttons and the menu's entries alike.
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

/// What can be done to the current layer or group now (disabled actions are shown greyed, as
/// Tiled does).
fn layer_actions(app: &SightlineApp) -> Vec<LayerAction> {
    let map = &app.document.map;
    let current = app.editor.current_item();
    let has = layers::item_name(map, current).is_some();
    let above = has.then_some(current);
    let removable = has
        && match current {
            StackItem::Layer(LayerRef::Tiles(_)) => map.layers.len() > 1,
            StackItem::Layer(LayerRef::Objects(_)) => true,
            // A group holding every tile layer would leave none.
            StackItem::Group(g) => {
                let stack = map.stack();
                let group = &map.groups[g];
                stack[group.start..group.end].iter().filter(|r| matches!(r, LayerRef::Tiles(_))).count()
                    < map.layers.len()
            }
        };
    let same_kind_below = match current {
        StackItem::Layer(layer) => matches!(
            (layer, layers::layer_below(map, layer)),
            (LayerRef::Tiles(_), Some(LayerRef::Tiles(_))) | (LayerRef::Objects(_), Some(LayerRef::Objects(_)))
        ),
        StackItem::Group(_) => false,
    };
    let merge = match current {
        StackItem::Layer(layer) => layer,
        StackItem::Group(_) => LayerRef::Tiles(0),
    };
    let ungroup = match current {
        StackItem::Group(g) => Some(g),
        StackItem::Layer(_) => None,
    };
    vec![
        LayerAction {
            short: "New",
            long: "New layer",
            shortcut: Some("Ctrl+Shift+N"),
            hover: "An empty tile layer above the current layer (inside the current group, at its top)",
            enabled: true,
            command: Command::Layers(LayerCommand::AddLayer { above, kind: NewLayer::Tiles }),
        },
        LayerAction {
            short: "New objects",
            long: "New object layer",
            shortcut: None,
            hover: "An empty object layer above the current layer (inside the current group): the object tool places \
                    objects on it",
            enabled: true,
            command: Command::Layers(LayerCommand::AddLayer { above, kind: NewLayer::Objects }),
        },
        LayerAction {
            short: "New group",
            long: "New group",
            shortcut: None,
            hover: "An empty layer group above the current layer (inside the current group). Raise or lower a layer \
                    next to it to move it in.",
            enabled: true,
            command: Command::Layers(LayerCommand::AddLayer { above, kind: NewLayer::Group }),
        },
        LayerAction {
            short: "Group",
            long: "Group layer",
            shortcut: Some("Ctrl+G"),
            hover: "Puts the current layer (or group) into a new group, where it is. A group is shown, hidden, \
                    locked, faded and moved as one.",
            enabled: has,
            command: Command::Layers(LayerCommand::GroupLayer(current)),
        },
        LayerAction {
            short: "Ungroup",
            long: "Ungroup",
            shortcut: Some("Ctrl+Shift+G"),
            hover: "Removes the current group and leaves its layers where they are",
            enabled: has && ungroup.is_some(),
            command: Command::Layers(LayerCommand::Ungroup(ungroup.unwrap_or(0))),
        },
        LayerAction {
            short: "Duplicate",
            long: "Duplicate layer",
            shortcut: Some("Ctrl+Shift+D"),
            hover: "A copy of the current layer or group, above it (an object layer's copy has copies of its \
                    objects; a group's, copies of its layers)",
            enabled: has,
            command: Command::Layers(LayerCommand::DuplicateLayer(current)),
        },
        LayerAction {
            short: "Remove",
            long: "Remove layer",
            shortcut: None,
            hover: "Removes the current layer, an object layer with its objects, a group with its layers (Ctrl+Z \
                    brings it back); a map keeps at least one tile layer",
            enabled: removable,
            command: Command::Layers(LayerCommand::RemoveLayer(current)),
        },
        LayerAction {
            short: "Raise",
            long: "Raise layer",
            shortcut: Some("Ctrl+Shift+Up"),
            hover: "Moves the current layer or group up: over the layer above it, into the group above it (at its \
                    bottom), or out of its group at the top, as in Tiled",
            enabled: has && layers::can_step(map, current, true),
            command: Command::Layers(LayerCommand::MoveLayer { item: current, up: true }),
        },
        LayerAction {
            short: "Lower",
            long: "Lower layer",
            shortcut: Some("Ctrl+Shift+Down"),
            hover: "Moves the current layer or group down: under the layer below it, into the group below it (at \
                    its top), or out of its group at the bottom",
            enabled: has && layers::can_step(map, current, false),
            command: Command::Layers(LayerCommand::MoveLayer { item: current, up: false }),
        },
        LayerAction {
            short: "Merge down",
            long: "Merge layer down",
            shortcut: None,
            hover: "Merges the current layer into the layer below it in its group, if it is of the same kind, and \
                    removes it. Tile layers: a cell keeps only the upper tile, so its rules can change (the notice \
                    counts the cells). Object layers: the objects join the layer below.",
            enabled: same_kind_below,
            command: Command::Layers(LayerCommand::MergeLayerDown(merge)),
        },
    ]
}

/// The Layers section of the left panel: layers and groups, top first, a group over what it
/// holds and what it holds indented. A layer that a hidden group hides is greyed.
pub(crate) fn layers_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    ui.heading("Layers");
    let map = &app.document.map;
    let current = app.editor.current_item();
    // Under a folded group, what is deeper than it is not listed.
    let mut folded_at: Option<usize> = None;
    // Each listed row, for dropping a dragged layer or group on it.
    let mut rows: Vec<ListedRow> = Vec::new();
    for (item, depth) in layers::listed(map) {
        if folded_at.is_some_and(|d| depth > d) {
            continue;
        }
        folded_at = None;
        let fold = match item {
            StackItem::Group(g) => {
                let path = group_path(map, g);
                let folded = app.editor.folded_groups.contains(&path);
                if folded {
                    folded_at = Some(depth);
                }
                Some((path, folded))
            }
            StackItem::Layer(_) => None,
        };
        let (name, visible, locked, opacity, shown) = match item {
            StackItem::Layer(layer) => {
                let Some(LayerHeader { name, visible, locked, opacity }) = map.layer_header(layer) else { continue };
                (name, visible, locked, opacity, map.look(layer).shown)
            }
            StackItem::Group(g) => {
                let group = &map.groups[g];
                (group.name.as_str(), group.visible, group.locked, group.opacity, map.group_shown(g))
            }
        };
        let row = ui.horizontal(|ui| {
            ui.add_space(14.0 * depth as f32);
            // A group's fold button; a layer's place for one, so that names line up.
            match &fold {
                Some((path, folded)) => {
                    let (sign, verb) = if *folded { ("+", "unfold") } else { ("-", "fold") };
                    let r = ui
                        .add(egui::Button::new(sign).small().min_size(egui::vec2(14.0, 0.0)))
                        .on_hover_text(if *folded { "Show what the group holds" } else { "Hide what the group holds" });
                    name_widget(ui, &r, &format!("{verb} {name}"));
                    if r.clicked() {
                        app.commands.push(Command::Layers(LayerCommand::FoldGroup(path.clone(), !folded)));
                    }
                }
                None => ui.add_space(14.0 + ui.spacing().item_spacing.x),
            }
            let mut on = visible;
            let r = ui.checkbox(&mut on, "").on_hover_text("Visible");
            name_widget(ui, &r, &format!("show {name}"));
            if r.changed() {
                app.commands.push(Command::Layers(LayerCommand::SetLayerVisible(item, on)));
            }
            let mut lock = locked;
            let r = ui.checkbox(&mut lock, "").on_hover_text("Locked: the tools do not change it");
            name_widget(ui, &r, &format!("lock {name}"));
            if r.changed() {
                app.commands.push(Command::Layers(LayerCommand::SetLayerLocked(item, lock)));
            }
            let percent = format!("{:.0}% opacity", opacity * 100.0);
            let count = match item {
                StackItem::Layer(LayerRef::Objects(j)) => {
                    let n = map.objects.iter().filter(|o| o.layer == j).count();
                    Some(format!("{n} object{}", if n == 1 { "" } else { "s" }))
                }
                StackItem::Group(g) => {
                    let n = map.groups[g].end - map.groups[g].start;
                    Some(format!("{n} layer{}", if n == 1 { "" } else { "s" }))
                }
                StackItem::Layer(LayerRef::Tiles(_)) => None,
            };
            let collision = matches!(item, StackItem::Layer(LayerRef::Tiles(i)) if map.layers[i].collision);
            let tags: Vec<&str> = [
                (count.is_some(), count.as_deref().unwrap_or_default()),
                (collision, "collision"),
                (locked, "locked"),
                (opacity < 1.0, percent.as_str()),
            ]
            .into_iter()
            .filter_map(|(on, tag)| on.then_some(tag))
            .collect();
            let label = if tags.is_empty() { name.to_owned() } else { format!("{name} ({})", tags.join(", ")) };
            // Object layers read apart from tile layers by their slant, groups by their weight.
            // A layer or group that a hidden group hides (or its own flag) is greyed; egui's
            // strong text would override the grey.
            let mut text = egui::RichText::new(label.clone());
            text = match item {
                StackItem::Layer(LayerRef::Objects(_)) => text.italics(),
                StackItem::Group(_) if shown => text.strong(),
                StackItem::Group(_) | StackItem::Layer(LayerRef::Tiles(_)) => text,
            };
            if !shown {
                text = text.weak();
            }
            // Dragged by its name, a row carries its item to where it is dropped.
            let r = ui.selectable_label(current == item, text).interact(egui::Sense::drag());
            r.dnd_set_drag_payload(item);
            name_widget(ui, &r, &label);
            if r.clicked() {
                app.commands.push(Command::Layers(LayerCommand::SelectLayer(item)));
            }
        });
        let folded = fold.as_ref().is_some_and(|(_, folded)| *folded);
        rows.push(ListedRow {
            item,
            depth,
            rect: row.response.rect,
            open_group: matches!(item, StackItem::Group(_)) && !folded,
        });
    }
    drop_layer_ui(app, ui, &rows);
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

/// A row of the Layers panel's list, as laid out this frame.
#[derive(Clone, Copy)]
struct ListedRow {
    item: StackItem,
    depth: usize,
    rect: egui::Rect,
    /// A group showing what it holds: a drop on its lower half goes inside, at its top.
    open_group: bool,
}

/// Where a layer or group dragged by its name would land (a line between rows, as Tiled draws
/// it), and the move when it is dropped there: over a row's upper half, just above that row;
/// over its lower half, just below it, or into an open group at its top; just under the list,
/// at the bottom of the stack, outside every group (where the last row's lower half, inside an
/// open group, cannot put it).
fn drop_layer_ui(app: &mut SightlineApp, ui: &mut egui::Ui, rows: &[ListedRow]) {
    let Some(dragged) = egui::DragAndDrop::payload::<StackItem>(ui.ctx()) else { return };
    let Some(pointer) = ui.ctx().pointer_latest_pos() else { return };
    let Some(last) = rows.last() else { return };
    let under_list = egui::Rect::from_min_size(last.rect.left_bottom(), last.rect.size());
    let row = if under_list.contains(pointer) {
        // The stack's bottom item outside every group: the last row of depth 0.
        let Some(bottom) = rows.iter().rev().find(|row| row.depth == 0) else { return };
        ListedRow { item: bottom.item, depth: 0, rect: last.rect, open_group: false }
    } else {
        let Some(row) =
            rows.iter().find(|row| row.rect.y_range().contains(pointer.y) && row.rect.x_range().contains(pointer.x))
        else {
            return;
        };
        *row
    };
    let map = &app.document.map;
    let upper = pointer.y < row.rect.center().y;
    let (place, y, depth) = match (upper, row.item) {
        (true, _) => (layers::Place::Above(row.item), row.rect.top(), row.depth),
        (false, StackItem::Group(g)) if row.open_group => (layers::Place::IntoTop(g), row.rect.bottom(), row.depth + 1),
        (false, _) => (layers::Place::Below(row.item), row.rect.bottom(), row.depth),
    };
    // A group cannot go inside itself: no line there.
    if let StackItem::Group(g) = *dragged
        && (row.item == *dragged && matches!(place, layers::Place::IntoTop(_))
            || map.groups_around(row.item).contains(&g))
    {
        ui.ctx().set_cursor_icon(egui::CursorIcon::NoDrop);
        return;
    }
    let x = row.rect.left() + 14.0 * depth as f32 + 14.0;
    let stroke = egui::Stroke::new(2.0, ui.visuals().selection.stroke.color);
    ui.painter().hline(x..=row.rect.right(), y, stroke);
    ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
    if ui.input(|i| i.pointer.any_released()) {
        egui::DragAndDrop::clear_payload(ui.ctx());
        app.commands.push(Command::Layers(LayerCommand::MoveLayerTo { item: *dragged, place }));
    }
}

/// A group's names from the top level down, "forest/canopy": how the panel remembers its fold.
fn group_path(map: &crate::core::Map, g: usize) -> String {
    let mut names: Vec<&str> =
        std::iter::successors(Some(g), |&p| map.groups[p].parent).map(|p| map.groups[p].name.as_str()).collect();
    names.reverse();
    names.join("/")
}

/// A one-line text field named `label` showing `value`, edited in a draft kept in egui's memory
/// (under `salt`) and applied when the field is left (Enter or a click elsewhere; Esc drops it),
/// so that clearing the field to retype it is not an edit, and the whole change is one undo
/// step. Returns the text when it was left changed (trimmed text differing from `value`).
fn drafted_text_ui(
    ui: &mut egui::Ui,
    salt: impl std::hash::Hash + std::fmt::Debug,
    value: &str,
    label: &str,
    hint: &str,
) -> Option<String> {
    let draft_id = egui::Id::unique(salt);
    let mut text = ui.data(|d| d.get_temp::<String>(draft_id)).unwrap_or_else(|| value.to_owned());
    let r = ui.add(egui::TextEdit::singleline(&mut text).hint_text(hint).desired_width(ui.available_width()));
    name_widget(ui, &r, label);
    if r.lost_focus() {
        ui.data_mut(|d| d.remove::<String>(draft_id));
        let escaped = ui.input(|i| i.key_pressed(egui::Key::Escape));
        return (!escaped && text.trim() != value).then_some(text);
    }
    if r.has_focus() {
        ui.data_mut(|d| d.insert_temp(draft_id, text));
    }
    None
}

/// The current layer's or group's name, opacity and custom properties; a tile layer's collision
/// flag and look, an object layer's colour, a group's look.
fn layer_properties_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let current = app.editor.current_item();
    let map = &app.document.map;
    let (name, opacity) = match current {
        StackItem::Layer(layer) => {
            let Some(LayerHeader { name, opacity, .. }) = map.layer_header(layer) else { return };
            (name, opacity)
        }
        StackItem::Group(g) => {
            let Some(group) = map.groups.get(g) else { return };
            (group.name.as_str(), group.opacity)
        }
    };
    let class = layers::item_class(map, current).unwrap_or_default().to_owned();
    // Name and class in a grid, so that their fields line up.
    egui::Grid::new(("sightline layer name and class", current)).num_columns(2).show(ui, |ui| {
        ui.label("Name");
        if let Some(text) = drafted_text_ui(ui, ("sightline layer name draft", current), name, "layer name", "") {
            app.commands.push(Command::Layers(LayerCommand::RenameLayer(current, text)));
        }
        ui.end_row();
        ui.label("Class").on_hover_text(
            "The layer's class (Tiled's Class: a custom type for the game that reads the map), kept in TMX, TMJ \
             and RON",
        );
        if let Some(text) = drafted_text_ui(ui, ("sightline layer class draft", current), &class, "layer class", "none")
        {
            app.commands.push(Command::Layers(LayerCommand::SetLayerClass(current, text)));
        }
        ui.end_row();
    });
    let mut percent = (opacity * 100.0).round();
    let r = ui
        .add(egui::Slider::new(&mut percent, 0.0..=100.0).step_by(1.0).fixed_decimals(0).suffix("%").text("Opacity"))
        .on_hover_text(
            "How opaque the layer (or every layer of the group) is drawn (Tiled's opacity; a group's multiplies its \
             layers'). Drawing only: the game rules read the layer whole.",
        );
    name_widget(ui, &r, "layer opacity");
    if r.changed() {
        app.commands.push(Command::Layers(LayerCommand::SetLayerOpacity(current, percent / 100.0)));
    }
    match current {
        StackItem::Layer(LayerRef::Tiles(i)) => tile_layer_properties_ui(app, ui, i),
        StackItem::Layer(LayerRef::Objects(j)) => object_layer_properties_ui(app, ui, j),
        StackItem::Group(g) => group_properties_ui(app, ui, g),
    }
}

/// A tile layer's or group's look as Tiled sets it, edited in place: its tint colour (with
/// alpha), its offset in map pixels and its parallax factor (kept for Tiled; the editor's view
/// does not scroll it). Each drag is one undo step.
fn look_ui(app: &mut SightlineApp, ui: &mut egui::Ui, item: StackItem) {
    let Some(look) = crate::app::drawn_look(&app.document.map, item) else { return };
    let mut edited = look;
    ui.horizontal(|ui| {
        let mut tinted = look.tint.is_some();
        let r = ui.checkbox(&mut tinted, "Tint").on_hover_text(
            "Multiply the layer's tile images (an object layer's: its tile objects) by a colour (Tiled's tint \
             colour); a group's tints its layers'",
        );
        name_widget(ui, &r, "layer tint");
        if r.changed() {
            edited.tint = tinted.then_some(crate::core::Rgba(255, 255, 255, 255));
        }
        if let Some(c) = look.tint {
            let mut rgba = [c.0, c.1, c.2, c.3];
            let r = ui.color_edit_button_srgba_unmultiplied(&mut rgba);
            name_widget(ui, &r, "layer tint colour");
            if r.changed() {
                edited.tint = Some(crate::core::Rgba(rgba[0], rgba[1], rgba[2], rgba[3]));
            }
        }
    });
    ui.horizontal(|ui| {
        ui.label("Offset").on_hover_text(
            "Where the layer is drawn, in map pixels from its cells (Tiled's offset); an object layer's zones, paths \
             and tile objects move, the game's markers stay on their cells",
        );
        for (k, axis) in ["x", "y"].into_iter().enumerate() {
            let r = ui.add(egui::DragValue::new(&mut edited.offset[k]).speed(1.0).prefix(format!("{axis} ")));
            name_widget(ui, &r, &format!("layer offset {axis}"));
        }
    });
    ui.horizontal(|ui| {
        ui.label("Parallax")
            .on_hover_text("How fast the layer scrolls against the view in Tiled, 1 the map's pace (kept for Tiled)");
        for (k, axis) in ["x", "y"].into_iter().enumerate() {
            let r = ui.add(egui::DragValue::new(&mut edited.parallax[k]).speed(0.01).prefix(format!("{axis} ")));
            name_widget(ui, &r, &format!("layer parallax {axis}"));
        }
    });
    if edited != look {
        app.commands.push(Command::Layers(LayerCommand::SetLayerLook(item, edited)));
    }
}

fn group_properties_ui(app: &mut SightlineApp, ui: &mut egui::Ui, g: usize) {
    look_ui(app, ui, StackItem::Group(g));
    let group = &app.document.map.groups[g];
    let owner = (PropertiesOwner::Group(g), format!("group {}", group.name));
    custom_properties_ui(ui, &mut app.commands, &app.document.map.objects, owner, &group.properties, &[]);
}

/// A layer's or group's custom properties, folded under their count; an edit becomes a
/// [`MapCommand::SetProperties`] for `owner` (the owner and its label, as the table names its
/// rows). `hidden`: keys the panel edits elsewhere (a tile layer's `collision`).
fn custom_properties_ui(
    ui: &mut egui::Ui,
    commands: &mut Vec<Command>,
    objects: &[crate::core::MapObject],
    (owner, label): (PropertiesOwner, String),
    properties: &crate::core::Properties,
    hidden: &[&str],
) {
    // One fold for every layer of a kind, as the panel keeps it while the current layer changes.
    let salt = match owner {
        PropertiesOwner::ObjectLayer(_) => "sightline object layer properties",
        PropertiesOwner::Group(_) => "sightline group properties",
        _ => "sightline layer properties",
    };
    egui::CollapsingHeader::new(format!("Custom properties ({})", properties.len())).id_salt(salt).show(ui, |ui| {
        if let Some(edited) = crate::app::panels::properties::properties_ui(ui, &label, properties, hidden, objects) {
            commands.push(Command::Map(MapCommand::SetProperties(owner, edited)));
        }
    });
}

fn tile_layer_properties_ui(app: &mut SightlineApp, ui: &mut egui::Ui, current: usize) {
    look_ui(app, ui, StackItem::Layer(LayerRef::Tiles(current)));
    let layer = &app.document.map.layers[current];
    let mut collision = layer.collision;
    let r = ui.checkbox(&mut collision, "Collision layer").on_hover_text(
        "Every tile on this layer blocks sight and movement, whatever its type says (doors on it still open \
         and close). Tiled maps mark walls this way; sightline saves it as the layer's collision property.",
    );
    if r.changed() {
        app.commands.push(Command::Layers(LayerCommand::SetLayerCollision(current, collision)));
    }
    let owner = (PropertiesOwner::Layer(current), format!("layer {}", layer.name));
    custom_properties_ui(ui, &mut app.commands, &app.document.map.objects, owner, &layer.properties, &["collision"]);
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
            app.commands.push(Command::Layers(LayerCommand::SetObjectLayerColor(current, color)));
        }
        if let Some(c) = layer.color {
            let mut rgb = [c.0, c.1, c.2];
            let r = ui.color_edit_button_srgb(&mut rgb);
            name_widget(ui, &r, "object layer colour picker");
            if r.changed() {
                app.commands.push(Command::Layers(LayerCommand::SetObjectLayerColor(
                    current,
                    Some(crate::core::Rgba(rgb[0], rgb[1], rgb[2], c.3)),
                )));
            }
        }
    });
    ui.horizontal(|ui| {
        use crate::core::model::map::DrawOrder;
        ui.label("Drawing order").on_hover_text(
            "Which of two overlapping objects is drawn on top (Tiled's Drawing Order): Top Down, the lower one on \
             the map; Manual, the later one in the layer",
        );
        let mut order = layer.draw_order;
        let r = egui::ComboBox::from_id_salt(("sightline draw order", current))
            .selected_text(order.label())
            .show_ui(ui, |ui| {
                for o in [DrawOrder::TopDown, DrawOrder::Index] {
                    ui.selectable_value(&mut order, o, o.label());
                }
            })
            .response;
        name_widget(ui, &r, "object layer drawing order");
        if order != layer.draw_order {
            app.commands.push(Command::Layers(LayerCommand::SetObjectLayerDrawOrder(current, order)));
        }
    });
    look_ui(app, ui, StackItem::Layer(LayerRef::Objects(current)));
    let layer = &app.document.map.object_layers[current];
    let owner = (PropertiesOwner::ObjectLayer(current), format!("object layer {}", layer.name));
    custom_properties_ui(ui, &mut app.commands, &app.document.map.objects, owner, &layer.properties, &[]);
}

/// The items listed above and below the current one in the Layers panel, if any.
fn neighbours(app: &SightlineApp) -> (Option<StackItem>, Option<StackItem>) {
    let listed = layers::listed(&app.document.map);
    match listed.iter().position(|&(item, _)| item == app.editor.current_item()) {
        Some(at) => (at.checked_sub(1).map(|a| listed[a].0), listed.get(at + 1).map(|&(item, _)| item)),
        None => (None, None),
    }
}

/// The menu bar's Layer menu: the same actions, with their shortcuts, and the current item's
/// flags.
pub(crate) fn layer_menu_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    ui.menu_button("Layer", |ui| {
        let current = app.editor.current_item();
        match layers::item_name(&app.document.map, current) {
            Some(name) => ui.weak(format!("current: {name}")),
            None => ui.weak("no layer"),
        };
        for (k, action) in layer_actions(app).into_iter().enumerate() {
            if k == 3 || k == 5 || k == 7 {
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
            && let Some(item) = above
        {
            app.commands.push(Command::Layers(LayerCommand::SelectLayer(item)));
        }
        if ui
            .add_enabled(below.is_some(), egui::Button::new("Select layer below").shortcut_text("Ctrl+PgDown"))
            .clicked()
            && let Some(item) = below
        {
            app.commands.push(Command::Layers(LayerCommand::SelectLayer(item)));
        }
        let map = &app.document.map;
        let flags = match current {
            StackItem::Layer(layer) => map.layer_header(layer).map(|h| (h.visible, h.locked)),
            StackItem::Group(g) => map.groups.get(g).map(|g| (g.visible, g.locked)),
        };
        if let Some((visible, locked)) = flags {
            ui.separator();
            let mut value = visible;
            if ui.checkbox(&mut value, "Visible").changed() {
                app.commands.push(Command::Layers(LayerCommand::SetLayerVisible(current, value)));
            }
            let mut value = locked;
            if ui.checkbox(&mut value, "Locked").changed() {
                app.commands.push(Command::Layers(LayerCommand::SetLayerLocked(current, value)));
            }
            if let StackItem::Layer(LayerRef::Tiles(i)) = current {
                let mut value = map.layers[i].collision;
                if ui.checkbox(&mut value, "Collision layer").changed() {
                    app.commands.push(Command::Layers(LayerCommand::SetLayerCollision(i, value)));
                }
            }
        }
    });
}

/// The layer shortcuts (Tiled's): Ctrl+Shift+N new, Ctrl+Shift+D duplicate, Ctrl+Shift+Up/Down
/// raise and lower, Ctrl+G group, Ctrl+Shift+G ungroup, Ctrl+PgUp/PgDown select the item above
/// or below. Run before Ctrl+N takes the map's "new" (a shortcut matches with more modifiers
/// held), before G toggles the grid, and before the canvas pans on the arrows.
pub(crate) fn layer_shortcuts(app: &mut SightlineApp, input: &mut egui::InputState) {
    use egui::{Key, KeyboardShortcut, Modifiers};
    let ctrl_shift = Modifiers::COMMAND | Modifiers::SHIFT;
    let actions = layer_actions(app);
    let by_label =
        |label: &str| actions.iter().find(|a| a.long == label).filter(|a| a.enabled).map(|a| a.command.clone());
    // Ctrl+Shift+G before Ctrl+G, which would match it too.
    for (shortcut, label) in [
        (KeyboardShortcut::new(ctrl_shift, Key::N), "New layer"),
        (KeyboardShortcut::new(ctrl_shift, Key::D), "Duplicate layer"),
        (KeyboardShortcut::new(ctrl_shift, Key::ArrowUp), "Raise layer"),
        (KeyboardShortcut::new(ctrl_shift, Key::ArrowDown), "Lower layer"),
        (KeyboardShortcut::new(ctrl_shift, Key::G), "Ungroup"),
        (KeyboardShortcut::new(Modifiers::COMMAND, Key::G), "Group layer"),
    ] {
        if input.consume_shortcut(&shortcut)
            && let Some(command) = by_label(label)
        {
            app.commands.push(command);
        }
    }
    let (above, below) = neighbours(app);
    if input.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::PageUp))
        && let Some(item) = above
    {
        app.commands.push(Command::Layers(LayerCommand::SelectLayer(item)));
    }
    if input.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::PageDown))
        && let Some(item) = below
    {
        app.commands.push(Command::Layers(LayerCommand::SelectLayer(item)));
    }
}
