//! A table of custom properties, as Tiled's Custom Properties panel edits them: each property's
//! name, value (a checkbox, a number or a text field, by its type) and a button to remove it,
//! then a row to add one by name and type; a name is renamed by double-click and its value converted
//! to another type from its context menu. The game rules do not read these; they are the
//! designer's data, kept in RON and Tiled files with Tiled's types (a colour keeps its alpha, a
//! class value its members and a list its items, which unfold beneath it; an enum value keeps
//! its enum's name, shown beside it). ASCII and MovingAI have no place for them, and a save
//! there says what it leaves out.

use crate::app::MapCommand;
use std::collections::BTreeSet;

use crate::app::widgets::name_widget;
use crate::app::{Command, PropertiesOwner, SightlineApp};
use crate::core::format::WRITER_PROPERTY;
use crate::core::{EnumValue, MapObject, Properties, PropertyValue, Rgba};

/// The types a new property or list item can have, as Tiled names them. A class or enum value
/// needs its type defined in the designer's Tiled project, so it comes only from a file (a
/// class's members can be added here, and an enum's value edited).
const TYPES: [&str; 8] = ["bool", "int", "float", "string", "color", "file", "object", "list"];

/// The type the add row starts with.
const STRING_TYPE: usize = 3;

fn default_value(kind: usize) -> PropertyValue {
    match kind {
        0 => PropertyValue::Bool(false),
        1 => PropertyValue::Int(0),
        2 => PropertyValue::Float(0.0),
        4 => PropertyValue::Color(Some(Rgba(255, 255, 255, 255))),
        5 => PropertyValue::File(String::new()),
        6 => PropertyValue::Object(0),
        7 => PropertyValue::List(Vec::new()),
        _ => PropertyValue::String(String::new()),
    }
}

/// Draws `properties` for editing and returns the new table when the user changed it. `owner`
/// names whose they are, in the widgets' accessible labels and ids ("layer ground"); a name in
/// `reserved` cannot be added (a layer's `collision` is its flag, not a property). `objects` are
/// the map's, which an `object` property is chosen from.
pub(crate) fn properties_ui(
    ui: &mut egui::Ui,
    owner: &str,
    properties: &Properties,
    reserved: &[&str],
    objects: &[MapObject],
) -> Option<Properties> {
    let mut edited = properties.clone();
    let mut changed = false;
    let mut remove = None;
    if edited.is_empty() {
        ui.weak("No custom properties.");
    } else {
        properties_grid_ui(ui, owner, reserved, objects, &mut edited, &mut changed, &mut remove);
    }
    if let Some(name) = remove {
        edited.remove(&name);
        changed = true;
    }
    // The add row's name and type live in egui's memory until added.
    let draft_id = egui::Id::unique(("sightline new property", owner));
    let (mut name, mut kind) =
        ui.data(|d| d.get_temp::<(String, usize)>(draft_id)).unwrap_or((String::new(), STRING_TYPE));
    ui.horizontal(|ui| {
        let r = ui.add(egui::TextEdit::singleline(&mut name).hint_text("name").desired_width(80.0));
        name_widget(ui, &r, &format!("new {owner} property name"));
        let entered = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        type_choice_ui(ui, &mut kind, &format!("new {owner} property type"));
        let trimmed = name.trim();
        let why_not = name_refused(trimmed, |n| edited.contains_key(n), reserved);
        let add = ui
            .add_enabled(why_not.is_none(), egui::Button::new("Add"))
            .on_hover_text("Adds a property of the chosen type")
            .on_disabled_hover_text(why_not.clone().unwrap_or_default());
        name_widget(ui, &add, &format!("add {owner} property"));
        if why_not.is_none() && (add.clicked() || entered) {
            edited.insert(trimmed.to_owned(), default_value(kind));
            changed = true;
            name.clear();
        }
    });
    ui.data_mut(|d| d.insert_temp(draft_id, (name, kind)));
    changed.then_some(edited)
}

/// The type of a value to add, an index into [`TYPES`], chosen from a list named `label`.
fn type_choice_ui(ui: &mut egui::Ui, kind: &mut usize, label: &str) {
    let types = egui::ComboBox::from_id_salt(("sightline type choice", label))
        .selected_text(TYPES[(*kind).min(TYPES.len() - 1)])
        .width(60.0)
        .show_ui(ui, |ui| {
            for (k, t) in TYPES.iter().enumerate() {
                ui.selectable_value(kind, k, *t);
            }
        });
    name_widget(ui, &types.response, label);
}

/// An `object` property's value, chosen from the map's objects (Tiled's object picker).
fn object_choice_ui(ui: &mut egui::Ui, label: &str, id: &mut u32, objects: &[MapObject]) -> egui::Response {
    let before = *id;
    let mut shown = egui::ComboBox::from_id_salt(("sightline object property", label))
        .selected_text(crate::core::model::object::reference_text(*id, objects))
        .width(140.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(id, 0, "none");
            for o in objects {
                ui.selectable_value(id, o.id, crate::core::model::object::reference_text(o.id, objects));
            }
        })
        .response
        .on_hover_text("An object of the map (Tiled's object type), named by its id");
    if *id != before {
        shown.mark_changed();
    }
    shown
}

/// Why `name` cannot be given to a property, or `None` when it can; `taken` says whether a
/// property has that name already.
fn name_refused(name: &str, taken: impl Fn(&str) -> bool, reserved: &[&str]) -> Option<String> {
    if name.is_empty() {
        Some("Type the property's name first".to_owned())
    } else if taken(name) {
        Some(format!("There is a property {name:?} already"))
    } else if reserved.contains(&name) {
        Some(format!("{name:?} is sightline's own (a rule, a flag or its mark), not a custom property"))
    } else {
        None
    }
}

/// A property being renamed: its name, and the new name typed so far.
#[derive(Clone)]
struct Renaming {
    name: String,
    draft: String,
}

/// The table's rows: name (double-click renames it; right-click renames, converts or removes),
/// value editor, remove button.
fn properties_grid_ui(
    ui: &mut egui::Ui,
    owner: &str,
    reserved: &[&str],
    objects: &[MapObject],
    edited: &mut Properties,
    changed: &mut bool,
    remove: &mut Option<String>,
) {
    let renaming_id = egui::Id::unique(("sightline renaming property", owner));
    let field_id = egui::Id::unique(("sightline rename field", owner));
    let mut renaming: Option<Renaming> = ui.data(|d| d.get_temp(renaming_id));
    let mut renamed: Option<(String, String)> = None;
    let mut convert: Option<(String, PropertyValue)> = None;
    // The names in use, for a rename to check against (only while one is typed).
    let names: BTreeSet<String> = if renaming.is_some() { edited.keys().cloned().collect() } else { BTreeSet::new() };
    egui::Grid::new(("sightline properties", owner)).num_columns(3).show(ui, |ui| {
        for (name, value) in edited.iter_mut() {
            match renaming.as_mut().filter(|r| &r.name == name) {
                Some(r) => {
                    let new_name = r.draft.trim().to_owned();
                    let refused =
                        (new_name != *name).then(|| name_refused(&new_name, |n| names.contains(n), reserved)).flatten();
                    let mut field = egui::TextEdit::singleline(&mut r.draft).id(field_id).desired_width(80.0);
                    if refused.is_some() {
                        field = field.text_color(ui.visuals().error_fg_color);
                    }
                    // A size of its own: in a grid a text field gets only the column's width so far.
                    let response = ui.add_sized([100.0, ui.spacing().interact_size.y], field).on_hover_text(
                        refused.clone().unwrap_or_else(|| "Enter renames; Esc keeps the old name".to_owned()),
                    );
                    name_widget(ui, &response, &format!("rename {owner} property {name}"));
                    if response.lost_focus() {
                        let entered = ui.input(|i| i.key_pressed(egui::Key::Enter));
                        if entered && refused.is_some() {
                            ui.memory_mut(|m| m.request_focus(field_id));
                        } else {
                            if entered && new_name != *name {
                                renamed = Some((name.clone(), new_name));
                            }
                            renaming = None;
                        }
                    }
                }
                None => {
                    let response = ui
                        .add(egui::Label::new(name.as_str()).sense(egui::Sense::click()))
                        .on_hover_text(format!("{}: double-click to rename; right-click for more", type_text(value)));
                    let mut start_renaming = response.double_clicked();
                    response.context_menu(|ui| {
                        if ui.button("Rename…").clicked() {
                            start_renaming = true;
                        }
                        let convertible = !matches!(value, PropertyValue::Class { .. } | PropertyValue::List(_));
                        ui.add_enabled_ui(convertible, |ui| {
                            ui.menu_button("Convert to", |ui| {
                                // An enum value converts to its own storage type too: that
                                // drops its enum type.
                                let enum_value = matches!(value, PropertyValue::Enum { .. });
                                let types = TYPES.iter().filter(|t| **t != "list");
                                for t in types.filter(|t| enum_value || **t != value.type_name()) {
                                    if ui.button(*t).clicked()
                                        && let Some(v) = value.converted_to(t)
                                    {
                                        convert = Some((name.clone(), v));
                                    }
                                }
                            })
                        })
                        .response
                        .on_disabled_hover_text(
                            "A class's members are defined in the Tiled project, and a list holds values of any type: \
                             neither converts",
                        );
                        if ui.button("Remove").clicked() {
                            *remove = Some(name.clone());
                        }
                    });
                    if start_renaming {
                        renaming = Some(Renaming { name: name.clone(), draft: name.clone() });
                        ui.memory_mut(|m| m.request_focus(field_id));
                    }
                }
            }
            let label = format!("{owner} property {name}");
            let r = value_ui(ui, &label, value, objects);
            name_widget(ui, &r, &label);
            *changed |= r.changed();
            let r = ui.small_button("x").on_hover_text("Remove this property");
            name_widget(ui, &r, &format!("remove {owner} property {name}"));
            if r.clicked() {
                *remove = Some(name.clone());
            }
            ui.end_row();
        }
    });
    ui.data_mut(|d| match renaming {
        Some(r) => {
            d.insert_temp(renaming_id, r);
        }
        None => d.remove::<Renaming>(renaming_id),
    });
    if let Some((old, new)) = renamed
        && let Some(value) = edited.remove(&old)
    {
        edited.insert(new, value);
        *changed = true;
    }
    if let Some((name, value)) = convert {
        edited.insert(name, value);
        *changed = true;
    }
}

/// A value's type as the table's hover says it: Tiled's name, and an enum's name with it.
fn type_text(value: &PropertyValue) -> String {
    match value {
        PropertyValue::Enum { enum_type, .. } => format!("{enum_type} (an enum, stored as {})", value.type_name()),
        other => other.type_name().to_owned(),
    }
}

/// The editor of one value, by its type; `label` names it (the widget's accessible label, and
/// the owner of a class's members or a list's items). The response says whether it changed.
fn value_ui(ui: &mut egui::Ui, label: &str, value: &mut PropertyValue, objects: &[MapObject]) -> egui::Response {
    // A size of its own: in a grid a text field gets only the column's width so far.
    let text_size = [140.0, ui.spacing().interact_size.y];
    match value {
        PropertyValue::Bool(on) => ui.checkbox(on, ""),
        PropertyValue::Int(n) => ui.add(egui::DragValue::new(n)),
        PropertyValue::Float(x) => ui.add(egui::DragValue::new(x).speed(0.05)),
        PropertyValue::String(text) => ui.add_sized(text_size, egui::TextEdit::singleline(text)),
        PropertyValue::File(path) => ui
            .add_sized(text_size, egui::TextEdit::singleline(path).hint_text("path from the map's folder"))
            .on_hover_text("A file path (Tiled's file type), relative to the map's folder"),
        PropertyValue::Color(Some(c)) => {
            let mut rgba = [c.0, c.1, c.2, c.3];
            let r = ui.color_edit_button_srgba_unmultiplied(&mut rgba).on_hover_text(c.to_hex());
            *c = Rgba(rgba[0], rgba[1], rgba[2], rgba[3]);
            r
        }
        // Tiled's unset colour: a click gives it one to edit.
        PropertyValue::Color(None) => {
            let mut r = ui.button("unset").on_hover_text("No colour is set; click to set one");
            if r.clicked() {
                *value = PropertyValue::Color(Some(Rgba(255, 255, 255, 255)));
                r.mark_changed();
            }
            r
        }
        PropertyValue::Object(id) => object_choice_ui(ui, label, id, objects),
        PropertyValue::Class { class, members } => {
            let title = if class.is_empty() { "class".to_owned() } else { class.clone() };
            let mut member_edit = None;
            let shown = egui::CollapsingHeader::new(format!("{title} ({})", members.len()))
                .id_salt(("sightline class property", label))
                .show(ui, |ui| member_edit = properties_ui(ui, label, members, &[], objects));
            let mut r = shown.header_response.on_hover_text(
                "A value of a custom class from the designer's Tiled project: its members, as the file sets them",
            );
            if let Some(new_members) = member_edit {
                *members = new_members;
                r.mark_changed();
            }
            r
        }
        // The enum's values are defined in the designer's Tiled project, which the map does not
        // name: the stored value is edited as it is stored, with the enum's name beside it.
        PropertyValue::Enum { enum_type, value } => {
            let hover = format!(
                "A value of the enum {enum_type} from the designer's Tiled project, stored as {}",
                match value {
                    EnumValue::String(_) => "its name (several joined by commas)",
                    EnumValue::Int(_) => "its index (or bit flags)",
                }
            );
            ui.horizontal(|ui| {
                let r = match value {
                    EnumValue::String(text) => ui.add_sized([100.0, text_size[1]], egui::TextEdit::singleline(text)),
                    EnumValue::Int(n) => ui.add(egui::DragValue::new(n)),
                };
                ui.weak(enum_type.as_str()).on_hover_text(&hover);
                r.on_hover_text(&hover)
            })
            .inner
        }
        PropertyValue::List(items) => {
            let mut items_edit = None;
            let count = match items.len() {
                1 => "1 item".to_owned(),
                n => format!("{n} items"),
            };
            let shown = egui::CollapsingHeader::new(format!("list ({count})"))
                .id_salt(("sightline list property", label))
                .show(ui, |ui| items_edit = list_items_ui(ui, label, items, objects));
            let mut r = shown.header_response.on_hover_text("A list of values, each of its own type (Tiled 1.12)");
            if let Some(new_items) = items_edit {
                *items = new_items;
                r.mark_changed();
            }
            r
        }
    }
}

/// A list's items for editing, as Tiled's list editor has them: each item's value (by its
/// type), buttons to move it up or remove it, then a row to add an item of a chosen type.
/// Returns the new items when the user changed them. `label` names the list ("map property
/// waypoints"); its items are "… item 1", "… item 2" and so on.
fn list_items_ui(
    ui: &mut egui::Ui,
    label: &str,
    items: &[PropertyValue],
    objects: &[MapObject],
) -> Option<Vec<PropertyValue>> {
    let mut edited = items.to_vec();
    let mut changed = false;
    let (mut remove, mut raise) = (None, None);
    if edited.is_empty() {
        ui.weak("No items.");
    } else {
        egui::Grid::new(("sightline list items", label)).num_columns(3).show(ui, |ui| {
            for (k, item) in edited.iter_mut().enumerate() {
                let item_label = format!("{label} item {}", k + 1);
                ui.weak(format!("{}", k + 1)).on_hover_text(type_text(item));
                let r = value_ui(ui, &item_label, item, objects);
                name_widget(ui, &r, &item_label);
                changed |= r.changed();
                ui.horizontal(|ui| {
                    let up = ui.add_enabled(k > 0, egui::Button::new("up").small()).on_hover_text("Move this item up");
                    name_widget(ui, &up, &format!("move up {item_label}"));
                    if up.clicked() {
                        raise = Some(k);
                    }
                    // Spelled out: the property's own "x" stands at the end of the same row.
                    let x = ui.small_button("remove").on_hover_text("Remove this item");
                    name_widget(ui, &x, &format!("remove {item_label}"));
                    if x.clicked() {
                        remove = Some(k);
                    }
                });
                ui.end_row();
            }
        });
    }
    if let Some(k) = raise {
        edited.swap(k - 1, k);
        changed = true;
    }
    if let Some(k) = remove {
        edited.remove(k);
        changed = true;
    }
    // The add row's type lives in egui's memory.
    let kind_id = egui::Id::unique(("sightline new list item type", label));
    let mut kind = ui.data(|d| d.get_temp::<usize>(kind_id)).unwrap_or(STRING_TYPE);
    ui.horizontal(|ui| {
        type_choice_ui(ui, &mut kind, &format!("{label} new item type"));
        let add = ui.button("Add item").on_hover_text("Adds an item of the chosen type at the end");
        name_widget(ui, &add, &format!("add {label} item"));
        if add.clicked() {
            edited.push(default_value(kind));
            changed = true;
        }
    });
    ui.data_mut(|d| d.insert_temp(kind_id, kind));
    changed.then_some(edited)
}

/// Edit › Map properties…: the map's own custom properties (Tiled's Map Properties).
/// The map's class and background colour, as Tiled's map properties have them.
fn map_look_ui(ui: &mut egui::Ui, map: &crate::core::Map, commands: &mut Vec<Command>) {
    let (mut class, mut background) = (map.class.clone(), map.background);
    ui.horizontal(|ui| {
        ui.label("Class");
        let r = ui
            .add(egui::TextEdit::singleline(&mut class).hint_text("none").desired_width(160.0))
            .on_hover_text("The map's class (Tiled's custom type), kept for the designer's Tiled project");
        crate::app::widgets::name_widget(ui, &r, "map class");
    });
    ui.horizontal(|ui| {
        let mut coloured = background.is_some();
        let r = ui
            .checkbox(&mut coloured, "Background colour")
            .on_hover_text("The colour behind the map's tiles, where no tile covers it (Tiled's background colour)");
        crate::app::widgets::name_widget(ui, &r, "map background");
        if r.changed() {
            background = coloured.then_some(crate::core::Rgba(0x20, 0x20, 0x20, 255));
        }
        if let Some(c) = background {
            let mut rgba = [c.0, c.1, c.2, c.3];
            let r = ui.color_edit_button_srgba_unmultiplied(&mut rgba);
            crate::app::widgets::name_widget(ui, &r, "map background colour");
            if r.changed() {
                background = Some(crate::core::Rgba(rgba[0], rgba[1], rgba[2], rgba[3]));
            }
        }
    });
    if class != map.class || background != map.background {
        commands.push(Command::Map(MapCommand::SetMapLook { class, background }));
    }
}

/// Tiled's map settings a Tiled save writes (Tiled's Map Properties): how tile layers are
/// encoded and compressed, and the order tiles are drawn in.
fn tiled_settings_ui(ui: &mut egui::Ui, map: &crate::core::Map, commands: &mut Vec<Command>) {
    use crate::core::model::tiled_settings::{LayerFormat, RenderOrder};
    let mut settings = map.tiled;
    egui::Grid::new("tiled settings").num_columns(2).show(ui, |ui| {
        ui.label("Orientation").on_hover_text(
            "The grid Tiled draws the map on, kept from the file read: sightline draws every map as orthogonal, \
             and a save as TMX or TMJ writes the map's own orientation back",
        );
        ui.label(orientation_text(settings.orientation));
        ui.end_row();
        ui.label("Tile layer format").on_hover_text(
            "How a save as TMX or TMJ writes the tile layers (Tiled's Tile Layer Format): kept from the file read",
        );
        // A Tiled file records the format in its tile layers' data: without one, nothing would.
        let r = ui
            .add_enabled_ui(!map.layers.is_empty(), |ui| {
                egui::ComboBox::from_id_salt("tile layer format")
                    .selected_text(settings.layer_format.label())
                    .show_ui(ui, |ui| {
                        for format in LayerFormat::ALL {
                            ui.selectable_value(&mut settings.layer_format, format, format.label());
                        }
                    })
                    .response
            })
            .inner
            .on_disabled_hover_text("The map has no tile layer, whose data a Tiled file would write in this format");
        crate::app::widgets::name_widget(ui, &r, "tile layer format");
        ui.end_row();
        ui.label("Compression level").on_hover_text(
            "How hard a compressed format compresses (zlib and gzip 0–9, Zstandard 1–22); -1: the compressor's default",
        );
        ui.add_enabled_ui(settings.layer_format.compressed(), |ui| {
            // The range bounds a drag; a level read from a file is shown as it is.
            let r = ui.add(
                egui::DragValue::new(&mut settings.compression_level)
                    .range(-1..=most_level(settings.layer_format))
                    .clamp_existing_to_range(false)
                    .custom_formatter(|v, _| if v < 0.0 { "default".into() } else { format!("{v}") }),
            );
            crate::app::widgets::name_widget(ui, &r, "compression level");
        });
        ui.end_row();
        ui.label("Tile render order").on_hover_text(
            "The order tiles are drawn in, which decides which of two overlapping tiles is on top (tiles larger \
             than the grid, or moved by their tileset's offset)",
        );
        let r = egui::ComboBox::from_id_salt("tile render order")
            .selected_text(settings.render_order.name())
            .show_ui(ui, |ui| {
                for order in RenderOrder::ALL {
                    ui.selectable_value(&mut settings.render_order, order, order.name());
                }
            })
            .response;
        crate::app::widgets::name_widget(ui, &r, "tile render order");
        ui.end_row();
        ui.label("Parallax origin").on_hover_text(
            "The point, in map pixels, that layers with a parallax factor scroll about (Tiled's parallax origin), \
             kept for the game that scrolls them",
        );
        ui.horizontal(|ui| {
            for (k, axis) in ["x", "y"].into_iter().enumerate() {
                let r = ui.add(
                    egui::DragValue::new(&mut settings.parallax_origin[k])
                        .range(-1e9..=1e9)
                        .clamp_existing_to_range(false)
                        .prefix(format!("{axis} ")),
                );
                crate::app::widgets::name_widget(ui, &r, &format!("parallax origin {axis}"));
            }
        });
        ui.end_row();
    });
    // A format whose compressor stops lower takes the level down with it, in the same step.
    if settings.layer_format != map.tiled.layer_format {
        settings.compression_level = settings.compression_level.min(most_level(settings.layer_format));
    }
    if settings != map.tiled {
        commands.push(Command::Map(MapCommand::SetTiledSettings(settings)));
    }
}

/// A map's Tiled orientation as the map properties show it: "Hexagonal (Staggered), sides of
/// 16 px, odd rows shifted".
fn orientation_text(orientation: crate::core::model::tiled_settings::Orientation) -> String {
    use crate::core::model::tiled_settings::{Orientation, StaggerAxis, StaggerIndex};
    let shifted = |axis: StaggerAxis, index: StaggerIndex| {
        format!(
            "{} {} shifted",
            if index == StaggerIndex::Odd { "odd" } else { "even" },
            if axis == StaggerAxis::X { "columns" } else { "rows" }
        )
    };
    match orientation {
        Orientation::Orthogonal => "Orthogonal".into(),
        Orientation::Isometric => "Isometric (drawn here as orthogonal)".into(),
        Orientation::Oblique { skew_x, skew_y } => {
            format!("Oblique, skewed {skew_x} px across and {skew_y} px down (drawn here as orthogonal)")
        }
        Orientation::Staggered { axis, index } => {
            format!("{}, {} (drawn here as orthogonal)", orientation.label(), shifted(axis, index))
        }
        Orientation::Hexagonal { side_length, axis, index } => format!(
            "{}, sides of {side_length} px, {} (drawn here as orthogonal)",
            orientation.label(),
            shifted(axis, index)
        ),
    }
}

/// The highest compression level of `format`'s compressor (Zstandard's 22, zlib's and gzip's 9).
fn most_level(format: crate::core::model::tiled_settings::LayerFormat) -> i32 {
    if format == crate::core::model::tiled_settings::LayerFormat::Base64Zstd { 22 } else { 9 }
}

pub(crate) fn map_properties_window_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    if !app.windows.map_properties {
        return;
    }
    let mut open = true;
    let mut edited = None;
    // Below the menu bar and beside the palette, clear of both.
    egui::Window::new("Map properties").open(&mut open).default_width(320.0).default_pos([260.0, 80.0]).show(
        ui.ctx(),
        |ui| {
            ui.label(format!(
                "{}: the designer's own data, kept in RON and Tiled files (not in ASCII or MovingAI).",
                app.document.file_name()
            ));
            let map = &app.document.map;
            map_look_ui(ui, map, &mut app.commands);
            tiled_settings_ui(ui, map, &mut app.commands);
            ui.separator();
            edited = properties_ui(ui, "map", &map.properties, &[WRITER_PROPERTY], &map.objects);
        },
    );
    if let Some(properties) = edited {
        app.commands.push(Command::Map(MapCommand::SetProperties(PropertiesOwner::Map, properties)));
    }
    if !open {
        app.commands.push(Command::Map(MapCommand::ShowMapProperties(false)));
    }
}
