//! The Objects list (Tiled's Objects view, LDtk's entity list): the map's objects by layer, top
//! layer first, filtered by name, class or id. A click puts one in the object tool's hand (the
//! inspector then edits it) and centres the view on it; a checkbox shows or hides it (Tiled's
//! object visibility, an edit).

use crate::app::widgets::name_widget;
use crate::app::{Command, SightlineApp, Tool};
use crate::app::{ObjectCommand, ToolCommand, ViewCommand};
use crate::core::{LayerRef, MapObject};

/// One line of the list.
enum Row {
    /// An object layer's heading: its index and how many of its objects are listed.
    Layer(usize, usize),
    /// An object, by its index in the map's list.
    Object(usize),
}

/// Whether `o` matches the filter `needle` (lower case): in its name, its class or "#id".
fn matches(o: &MapObject, needle: &str) -> bool {
    needle.is_empty()
        || o.name.to_lowercase().contains(needle)
        || o.kind.type_name().to_lowercase().contains(needle)
        || format!("#{}", o.id).contains(needle)
}

/// What a row says of an object: its glyph, id, name, class (when it is not the name) and cell.
fn object_line(o: &MapObject) -> String {
    let name = if o.name.is_empty() { "(no name)" } else { o.name.as_str() };
    let class = o.kind.type_name();
    let class =
        if class.is_empty() || class.eq_ignore_ascii_case(name) { String::new() } else { format!(" · {class}") };
    let shape = o.shape.as_ref().filter(|s| !matches!(s.kind, crate::core::model::object::ShapeKind::Point));
    let shape = shape.map_or_else(String::new, |s| format!(" · {}", s.describe()));
    format!("{} #{} {name}{class} · {}, {}{shape}", o.kind.glyph(), o.id, o.cell.x, o.cell.y)
}

/// The list, with its filter field.
pub(crate) fn objects_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let map = &app.document.map;
    if map.objects.is_empty() {
        ui.weak("No objects: place some with the object tool (O).");
        return;
    }
    let r = ui.add(egui::TextEdit::singleline(&mut app.object_filter).hint_text("filter: name, class or #id"));
    name_widget(ui, &r, "filter objects");
    let needle = app.object_filter.trim().to_lowercase();
    let focused = crate::app::object_focus(&app.editor, map).map(|hand| hand.object.id);
    // Top layer first, as the Layers panel lists them.
    let mut by_layer = vec![Vec::new(); map.object_layers.len()];
    for (i, o) in map.objects.iter().enumerate() {
        if let Some(listed) = by_layer.get_mut(o.layer).filter(|_| matches(o, &needle)) {
            listed.push(i);
        }
    }
    let mut rows = Vec::new();
    for layer in map.stack().into_iter().rev() {
        let LayerRef::Objects(j) = layer else { continue };
        let listed = by_layer.get_mut(j).map(std::mem::take).unwrap_or_default();
        if !listed.is_empty() {
            rows.push(Row::Layer(j, listed.len()));
            rows.extend(listed.into_iter().map(Row::Object));
        }
    }
    if rows.is_empty() {
        ui.weak(format!("No object matches \"{}\".", app.object_filter.trim()));
        return;
    }
    let mut commands = Vec::new();
    let row_height = ui.spacing().interact_size.y;
    egui::ScrollArea::vertical().id_salt("objects list").max_height(260.0).auto_shrink([false, true]).show_rows(
        ui,
        row_height,
        rows.len(),
        |ui, range| {
            for row in &rows[range] {
                match *row {
                    Row::Layer(j, n) => {
                        let name = map.object_layers.get(j).map_or("", |l| l.name.as_str());
                        ui.strong(format!("{name} ({n})"));
                    }
                    Row::Object(i) => {
                        let o = &map.objects[i];
                        ui.horizontal(|ui| {
                            let mut shown = o.visible;
                            let r = ui
                                .checkbox(&mut shown, "")
                                .on_hover_text("Shown on the canvas (Tiled's object visibility)");
                            name_widget(ui, &r, &format!("show object #{}", o.id));
                            if r.changed() {
                                // Each click its own undo step (EditObject joins a run of edits).
                                commands.extend([
                                    Command::Objects(ObjectCommand::EditObject(
                                        i,
                                        MapObject { visible: shown, ..o.clone() },
                                    )),
                                    Command::Objects(ObjectCommand::EndContinuedEdit),
                                ]);
                            }
                            let line = object_line(o);
                            let r = ui.selectable_label(focused == Some(o.id), &line).on_hover_text(
                                "Click: the object tool holds it (the inspector edits it) and the view centres on it",
                            );
                            if r.clicked() {
                                if app.editor.tool != Tool::Object {
                                    commands.push(Command::Tools(ToolCommand::SelectTool(Tool::Object)));
                                }
                                commands.extend([
                                    Command::Objects(ObjectCommand::FocusObject(o.id)),
                                    Command::View(ViewCommand::CentreOn(o.cell)),
                                ]);
                            }
                        });
                    }
                }
            }
        },
    );
    app.commands.extend(commands);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Cell, ObjectKind};

    #[test]
    fn an_object_line_names_it_and_the_filter_reads_name_class_and_id() {
        let goblin = MapObject {
            id: 7,
            ..MapObject::new(ObjectKind::Monster { glyph: 'g', vision_radius: 6 }, Cell::new(3, 4))
        }
        .named("Grub");
        assert_eq!(object_line(&goblin), "g #7 Grub · monster · 3, 4");
        let light =
            MapObject { id: 2, ..MapObject::new(ObjectKind::Light { radius: 4 }, Cell::new(0, 1)) }.named("Light");
        assert_eq!(object_line(&light), "! #2 Light · 0, 1", "a class the same as the name is said once");
        let zone = MapObject { id: 12, ..MapObject::new(ObjectKind::Other(String::new()), Cell::new(5, 5)) };
        assert_eq!(object_line(&zone), "? #12 (no name) · 5, 5");
        for (needle, hit) in [("", true), ("grub", true), ("monst", true), ("#7", true), ("#70", false), ("orc", false)]
        {
            assert_eq!(matches(&goblin, needle), hit, "{needle:?}");
        }
    }
}
