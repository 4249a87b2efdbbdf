//! A table of custom properties, as Tiled's Custom Properties panel edits them: each property's
//! name, value (a checkbox, a number or a text field, by its type) and a button to remove it,
//! then a row to add one by name and type. The game rules do not read these; they are the
//! designer's data, kept in RON and Tiled files (Tiled's colour and file types as text). ASCII
//! and MovingAI have no place for them, and a save there says what it leaves out.

use super::panels::name_widget;
use super::{Command, PropertiesOwner, SightlineApp};
use crate::core::format::tiled_common::WRITER_PROPERTY;
use crate::core::{Properties, PropertyValue};

/// The types a new property can have, as Tiled names them.
const TYPES: [&str; 4] = ["bool", "int", "float", "string"];

fn type_name(value: &PropertyValue) -> &'static str {
    match value {
        PropertyValue::Bool(_) => "bool",
        PropertyValue::Int(_) => "int",
        PropertyValue::Float(_) => "float",
        PropertyValue::String(_) => "string",
    }
}

fn default_value(kind: usize) -> PropertyValue {
    match kind {
        0 => PropertyValue::Bool(false),
        1 => PropertyValue::Int(0),
        2 => PropertyValue::Float(0.0),
        _ => PropertyValue::String(String::new()),
    }
}

/// Draws `properties` for editing and returns the new table when the user changed it. `owner`
/// names whose they are, in the widgets' accessible labels and ids ("layer ground"); a name in
/// `reserved` cannot be added (a layer's `collision` is its flag, not a property).
pub fn properties_ui(ui: &mut egui::Ui, owner: &str, properties: &Properties, reserved: &[&str]) -> Option<Properties> {
    let mut edited = properties.clone();
    let mut changed = false;
    let mut remove = None;
    if edited.is_empty() {
        ui.weak("No custom properties.");
    } else {
        properties_grid_ui(ui, owner, &mut edited, &mut changed, &mut remove);
    }
    if let Some(name) = remove {
        edited.remove(&name);
        changed = true;
    }
    // The add row's name and type live in egui's memory until added.
    let draft_id = egui::Id::unique(("sightline new property", owner));
    let (mut name, mut kind) = ui.data(|d| d.get_temp::<(String, usize)>(draft_id)).unwrap_or((String::new(), 3));
    ui.horizontal(|ui| {
        let r = ui.add(egui::TextEdit::singleline(&mut name).hint_text("name").desired_width(80.0));
        name_widget(ui, &r, &format!("new {owner} property name"));
        let entered = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let types = egui::ComboBox::from_id_salt(("sightline new property type", owner))
            .selected_text(TYPES[kind.min(TYPES.len() - 1)])
            .width(60.0)
            .show_ui(ui, |ui| {
                for (k, t) in TYPES.iter().enumerate() {
                    ui.selectable_value(&mut kind, k, *t);
                }
            });
        name_widget(ui, &types.response, &format!("new {owner} property type"));
        let trimmed = name.trim();
        let why_not = if trimmed.is_empty() {
            Some("Type the new property's name first".to_owned())
        } else if edited.contains_key(trimmed) {
            Some(format!("There is a property {trimmed:?} already"))
        } else if reserved.contains(&trimmed) {
            Some(format!("{trimmed:?} is sightline's own (a rule, a flag or its mark), not a custom property"))
        } else {
            None
        };
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

/// The table's rows: name, value editor, remove button.
fn properties_grid_ui(
    ui: &mut egui::Ui,
    owner: &str,
    edited: &mut Properties,
    changed: &mut bool,
    remove: &mut Option<String>,
) {
    egui::Grid::new(("sightline properties", owner)).num_columns(3).show(ui, |ui| {
        for (name, value) in edited.iter_mut() {
            ui.label(name).on_hover_text(type_name(value));
            let r = match value {
                PropertyValue::Bool(on) => ui.checkbox(on, ""),
                PropertyValue::Int(n) => ui.add(egui::DragValue::new(n)),
                PropertyValue::Float(x) => ui.add(egui::DragValue::new(x).speed(0.05)),
                // A size of its own: in a grid a text field gets only the column's width so far.
                PropertyValue::String(text) => {
                    ui.add_sized([140.0, ui.spacing().interact_size.y], egui::TextEdit::singleline(text))
                }
            };
            name_widget(ui, &r, &format!("{owner} property {name}"));
            *changed |= r.changed();
            let r = ui.small_button("x").on_hover_text("Remove this property");
            name_widget(ui, &r, &format!("remove {owner} property {name}"));
            if r.clicked() {
                *remove = Some(name.clone());
            }
            ui.end_row();
        }
    });
}

/// Edit › Map properties…: the map's own custom properties (Tiled's Map Properties).
pub fn map_properties_window_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    if !app.map_properties_open {
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
            edited = properties_ui(ui, "map", &app.document.map.properties, &[WRITER_PROPERTY]);
        },
    );
    if let Some(properties) = edited {
        app.commands.push(Command::SetProperties(PropertiesOwner::Map, properties));
    }
    if !open {
        app.commands.push(Command::ShowMapProperties(false));
    }
}
