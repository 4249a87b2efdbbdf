//! The undo history as the designer reads it: what each step is called ("Paint", "Rename layer
//! "Walls"", "Select all"), and the History panel, where a click on a step goes back (or
//! forward) to the map as it was just after it, as Tiled's History view does.

use super::command::{Command, NewLayer, PropertiesOwner};
use super::editor::{EditorState, Tool};
use crate::core::model::layers;
use crate::core::{LayerRef, Map, MapObject, StackItem};

/// What an undo step made by `command` is called, in the Edit menu ("Undo Paint") and the
/// History panel; `None` for commands that make no step of their own (a stroke's moves, the
/// view, the overlays).
pub fn step_name(command: &Command, editor: &EditorState, map: &Map) -> Option<String> {
    let item = |item: StackItem| layers::item_name(map, item).map_or_else(String::new, |n| format!(" \"{n}\""));
    let layer = |layer: usize| item(StackItem::Layer(LayerRef::Tiles(layer)));
    let object = |index: usize| map.objects.get(index).map_or_else(String::new, |o| format!(" #{}", o.id));
    let tile = |id: crate::core::TileId| {
        map.tiles.get(usize::from(id)).map_or_else(String::new, |t| format!(" \"{}\"", t.name))
    };
    let on_off = |on: bool, yes: &str, no: &str| if on { yes.to_owned() } else { no.to_owned() };
    Some(match command {
        Command::SetLayerVisible(i, on) => on_off(*on, "Show layer", "Hide layer") + &item(*i),
        Command::SetLayerLocked(i, on) => on_off(*on, "Lock layer", "Unlock layer") + &item(*i),
        Command::SetLayerCollision(l, on) => on_off(*on, "Mark collision layer", "Unmark collision layer") + &layer(*l),
        Command::SetLayerOpacity(i, _) => format!("Change opacity of{}", item(*i)),
        Command::SetLayerLook(i, _) => format!("Change tint and offset of{}", item(*i)),
        Command::SetObjectLayerColor(j, _) => {
            format!("Change colour of{}", item(StackItem::Layer(LayerRef::Objects(*j))))
        }
        Command::SetObjectLayerDrawOrder(j, order) => {
            format!("Draw{} {}", item(StackItem::Layer(LayerRef::Objects(*j))), order.label().to_lowercase())
        }
        Command::SetTiledSettings(_) => "Change Tiled save settings".into(),
        Command::SetMapLook { .. } => "Change map class and background".into(),
        Command::SetProperties(owner, _) => format!(
            "Change properties of {}",
            match *owner {
                PropertiesOwner::Map => "the map".to_owned(),
                PropertiesOwner::Layer(l) => format!("layer{}", layer(l)),
                PropertiesOwner::ObjectLayer(j) => {
                    format!("layer{}", item(StackItem::Layer(LayerRef::Objects(j))))
                }
                PropertiesOwner::Group(g) => format!("group{}", item(StackItem::Group(g))),
                PropertiesOwner::Tile(id) => format!("tile{}", tile(id)),
                PropertiesOwner::Tileset(s) => {
                    format!("tileset{}", map.sheets.get(s).map_or_else(String::new, |s| format!(" \"{}\"", s.name)))
                }
            }
        ),
        Command::SetTileRules(id, _) => format!("Change rules of tile{}", tile(*id)),
        Command::AddTile => "Add tile type".into(),
        Command::ResizeMap(spec) => format!("Resize map to {}×{}", spec.width, spec.height),
        Command::AddLayer { kind, .. } => match kind {
            NewLayer::Tiles => "Add tile layer",
            NewLayer::Objects => "Add object layer",
            NewLayer::Group => "Add group",
        }
        .into(),
        Command::GroupLayer(i) => format!("Group{}", item(*i)),
        Command::Ungroup(g) => format!("Ungroup{}", item(StackItem::Group(*g))),
        Command::DuplicateLayer(i) => format!("Duplicate{}", item(*i)),
        Command::RemoveLayer(i) => format!("Remove{}", item(*i)),
        Command::RenameLayer(i, to) => format!("Rename{} to \"{}\"", item(*i), to.trim()),
        Command::SetLayerClass(i, class) => match class.trim() {
            "" => format!("Clear the class of{}", item(*i)),
            class => format!("Set the class of{} to \"{class}\"", item(*i)),
        },
        Command::MoveLayer { item: i, up } => on_off(*up, "Raise", "Lower") + &item(*i),
        Command::MoveLayerTo { item: i, .. } => format!("Move{}", item(*i)),
        Command::MergeLayerDown(l) => format!("Merge{} down", item(StackItem::Layer(*l))),
        Command::Cut => "Cut".into(),
        // As the Edit menu says it: the objects in hand or on the selected cells of an object
        // layer, else the selected cells.
        Command::DeleteSelection if editor.object_layer.is_some() || super::object_focus(editor, map).is_some() => {
            "Delete objects".into()
        }
        Command::DeleteSelection => "Erase selection".into(),
        // The step is the selection the paste drops.
        Command::Paste => "Deselect to paste".into(),
        Command::PasteAt(_) | Command::PasteInPlace => "Paste".into(),
        Command::CancelSelection | Command::SelectNone => "Select none".into(),
        Command::SelectAll => "Select all".into(),
        Command::InvertSelection => "Invert selection".into(),
        Command::CropToSelection => "Crop to selection".into(),
        Command::PlaceObject(_) => format!("Place {}", editor.object.label()),
        Command::AddShape(..) | Command::FinishShape { .. } => format!("Add {}", editor.object.label()),
        Command::ExtendPath(_) => "Extend path".into(),
        Command::SetCellTile { cell, .. } => format!("Set tile at {},{}", cell.x, cell.y),
        // What changed, when it is one thing the objects list or the inspector changes alone.
        Command::EditObject(index, new) => match map.objects.get(*index) {
            Some(old) if MapObject { visible: new.visible, ..old.clone() } == *new => {
                on_off(new.visible, "Show object", "Hide object") + &object(*index)
            }
            Some(old) if MapObject { name: new.name.clone(), ..old.clone() } == *new => {
                format!("Rename object{} to \"{}\"", object(*index), new.name)
            }
            // Its light, its vision, a custom property.
            Some(old) if MapObject { properties: new.properties.clone(), ..old.clone() } == *new => {
                format!("Change properties of object{}", object(*index))
            }
            _ => format!("Edit object{}", object(*index)),
        },
        Command::RemoveObject(index) => format!("Remove object{}", object(*index)),
        Command::ReclassObject { id, .. } => format!("Change class of object #{id}"),
        Command::SetObjectPoints { id, .. } => format!("Edit points of object #{id}"),
        Command::SetObjectGeometry { id, .. } => format!("Move or resize object #{id}"),
        Command::RemoveObjectsAt(cell) => format!("Remove objects at {},{}", cell.x, cell.y),
        // A stroke's step is named at its start, a selection drag's at its end.
        Command::StrokeBegin(_) | Command::StrokeEnd if editor.pasting => "Paste".into(),
        Command::StrokeBegin(_) | Command::StrokeEnd => match editor.tool {
            Tool::Brush => "Paint",
            Tool::Eraser => "Erase",
            Tool::Rectangle => "Rectangle",
            Tool::Line => "Line",
            Tool::Fill => "Fill",
            Tool::Terrain => "Paint terrain",
            Tool::Select => "Select rectangle",
            Tool::MagicWand => "Magic wand",
            Tool::SameTile => "Select same tile",
            Tool::Object => "Move object",
            Tool::Picker | Tool::Probe => return None,
        }
        .into(),
        _ => return None,
    })
}

/// The History panel: where the map started, every step in the undo history (oldest first)
/// and those undone, greyed, below the current one. A click on a step makes the map what it
/// was just after it; on the first row, what it was before every step remembered.
pub fn history_ui(ui: &mut egui::Ui, document: &super::document::Document, commands: &mut Vec<Command>) {
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
            commands.push(Command::UndoTo(k));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Cell;

    /// Steps are named by what they did, with the names of what they did it to, as they were
    /// before it (a rename names both).
    #[test]
    fn steps_are_named_after_what_they_did_to_what() {
        let map = crate::core::format::ascii::parse("#.#\n").unwrap();
        let mut editor = EditorState::default();
        let ground = StackItem::Layer(LayerRef::Tiles(0));
        let name = |command: Command, editor: &EditorState| step_name(&command, editor, &map);
        let layer = layers::item_name(&map, ground).unwrap().to_owned();
        assert_eq!(
            name(Command::RenameLayer(ground, " stone ".into()), &editor),
            Some(format!("Rename \"{layer}\" to \"stone\""))
        );
        assert_eq!(name(Command::SetLayerVisible(ground, false), &editor), Some(format!("Hide layer \"{layer}\"")));
        assert_eq!(name(Command::StrokeBegin(Cell::new(0, 0)), &editor), Some("Paint".into()));
        editor.tool = Tool::Fill;
        assert_eq!(name(Command::StrokeBegin(Cell::new(0, 0)), &editor), Some("Fill".into()));
        editor.tool = Tool::Picker;
        assert_eq!(name(Command::StrokeBegin(Cell::new(0, 0)), &editor), None, "the picker makes no step");
        assert_eq!(name(Command::DeleteSelection, &editor), Some("Erase selection".into()));
        editor.object_layer = Some(0);
        assert_eq!(name(Command::DeleteSelection, &editor), Some("Delete objects".into()));
        assert_eq!(name(Command::ZoomBy(2.0), &editor), None);
        // An object's edit says what changed when it is its visibility or its name alone.
        let mut map = map.clone();
        let id = map.add_object(MapObject::new(crate::core::ObjectKind::Item, Cell::new(1, 0)));
        let item = map.objects[0].clone();
        let edit = |o: MapObject| step_name(&Command::EditObject(0, o), &editor, &map);
        assert_eq!(edit(MapObject { visible: false, ..item.clone() }), Some(format!("Hide object #{id}")));
        assert_eq!(edit(item.clone().named("gold")), Some(format!("Rename object #{id} to \"gold\"")));
        let mut lit = item.clone();
        lit.properties.insert("light".into(), crate::core::PropertyValue::Int(3));
        assert_eq!(edit(lit), Some(format!("Change properties of object #{id}")));
        assert_eq!(edit(MapObject { visible: false, ..item.named("gold") }), Some(format!("Edit object #{id}")));
    }
}
