//! What the UI asks for. Panels, the canvas and keys push a [`Command`] during `ui`; `logic`
//! applies them once per frame, in order, and each that changes the map becomes one undo step.
//!
//! Commands are grouped by what they act on, one file an area: the area's enum, its
//! `step_name` (what the undo step is called) and its `apply_*` side by side, both matching
//! every variant with no wildcard, so a command added without an undo label does not compile.
//! Overlays and the play pane keep their commands beside their state ([`OverlayCommand`],
//! [`PlayCommand`]).

mod file;
mod history;
mod layers;
mod map;
mod objects;
mod selection;
mod tiles;
mod tools;
mod view;

pub use file::FileCommand;
pub use history::HistoryCommand;
pub(crate) use layers::drawn_look;
pub use layers::{DrawnLook, LayerCommand, NewLayer};
pub use map::{MapCommand, PropertiesOwner};
pub use objects::ObjectCommand;
pub use selection::SelectionCommand;
pub use tiles::TileCommand;
pub(crate) use tools::PasteReport;
pub use tools::ToolCommand;
pub use view::ViewCommand;

use super::SightlineApp;
use super::editor::EditorState;
use super::overlays::OverlayCommand;
use super::play::PlayCommand;
use crate::core::model::layers::item_name;
use crate::core::{LayerRef, Map, StackItem, TileId};

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    File(FileCommand),
    Map(MapCommand),
    View(ViewCommand),
    Tools(ToolCommand),
    Tiles(TileCommand),
    Layers(LayerCommand),
    Selection(SelectionCommand),
    Objects(ObjectCommand),
    History(HistoryCommand),
    Overlay(OverlayCommand),
    Play(PlayCommand),
}

/// What the undo step `command` makes is called, in the Edit menu ("Undo Paint") and the
/// History panel; `None` for commands that make no step of their own (a stroke's moves, the
/// view, the overlays).
pub(crate) fn step_name(command: &Command, editor: &EditorState, map: &Map) -> Option<String> {
    match command {
        Command::File(c) => c.step_name(editor, map),
        Command::Map(c) => c.step_name(editor, map),
        Command::View(c) => c.step_name(editor, map),
        Command::Tools(c) => c.step_name(editor, map),
        Command::Tiles(c) => c.step_name(editor, map),
        Command::Layers(c) => c.step_name(editor, map),
        Command::Selection(c) => c.step_name(editor, map),
        Command::Objects(c) => c.step_name(editor, map),
        Command::History(c) => c.step_name(editor, map),
        Command::Overlay(_) | Command::Play(_) => None,
    }
}

impl SightlineApp {
    /// Applies one command; the undo step it makes (if any) is named first, from the map as it
    /// was before.
    pub(super) fn apply(&mut self, command: Command) {
        self.document.name_next_step(step_name(&command, &self.editor, &self.document.map));
        match command {
            Command::File(c) => self.apply_file(c),
            Command::Map(c) => self.apply_map(c),
            Command::View(c) => self.apply_view(c),
            Command::Tools(c) => self.apply_tools(c),
            Command::Tiles(c) => self.apply_tiles(c),
            Command::Layers(c) => self.apply_layers(c),
            Command::Selection(c) => self.apply_selection(c),
            Command::Objects(c) => self.apply_objects(c),
            Command::History(c) => self.apply_history(c),
            Command::Overlay(c) => {
                let was_split = self.overlays.split();
                self.overlays.apply(c, &self.document.map);
                // One canvas or two: the map is fitted to the new canvas size.
                if was_split != self.overlays.split() {
                    self.view.fit_pending = true;
                }
            }
            Command::Play(c) => {
                self.play.apply(c, &self.document.map, self.document.revision(), &mut self.overlays.externals)
            }
        }
    }
}

/// The names an undo step gives what it acted on, as they were before it: ` "Walls"`, ` #12`
/// (empty when there is nothing to name).
struct Names<'a>(&'a Map);

impl Names<'_> {
    fn item(&self, item: StackItem) -> String {
        item_name(self.0, item).map_or_else(String::new, |n| format!(" \"{n}\""))
    }

    fn layer(&self, layer: usize) -> String {
        self.item(StackItem::Layer(LayerRef::Tiles(layer)))
    }

    fn object(&self, index: usize) -> String {
        self.0.objects.get(index).map_or_else(String::new, |o| format!(" #{}", o.id))
    }

    fn tile(&self, id: TileId) -> String {
        self.0.tiles.get(usize::from(id)).map_or_else(String::new, |t| format!(" \"{}\"", t.name))
    }
}

/// `yes` or `no`, by `on`: "Show layer" or "Hide layer".
fn on_off(on: bool, yes: &str, no: &str) -> String {
    if on { yes.to_owned() } else { no.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::editor::Tool;
    use crate::core::Cell;
    use crate::core::MapObject;
    use crate::core::model::layers;

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
            name(Command::Layers(LayerCommand::RenameLayer(ground, " stone ".into())), &editor),
            Some(format!("Rename \"{layer}\" to \"stone\""))
        );
        assert_eq!(
            name(Command::Layers(LayerCommand::SetLayerVisible(ground, false)), &editor),
            Some(format!("Hide layer \"{layer}\""))
        );
        assert_eq!(name(Command::Tools(ToolCommand::StrokeBegin(Cell::new(0, 0))), &editor), Some("Paint".into()));
        editor.tool = Tool::Fill;
        assert_eq!(name(Command::Tools(ToolCommand::StrokeBegin(Cell::new(0, 0))), &editor), Some("Fill".into()));
        editor.tool = Tool::Picker;
        assert_eq!(
            name(Command::Tools(ToolCommand::StrokeBegin(Cell::new(0, 0))), &editor),
            None,
            "the picker makes no step"
        );
        assert_eq!(
            name(Command::Selection(SelectionCommand::DeleteSelection), &editor),
            Some("Erase selection".into())
        );
        editor.object_layer = Some(0);
        assert_eq!(name(Command::Selection(SelectionCommand::DeleteSelection), &editor), Some("Delete objects".into()));
        assert_eq!(name(Command::View(ViewCommand::ZoomBy(2.0)), &editor), None);
        // An object's edit says what changed when it is its visibility or its name alone.
        let mut map = map.clone();
        let id = map.add_object(MapObject::new(crate::core::ObjectKind::Item, Cell::new(1, 0)));
        let item = map.objects[0].clone();
        let edit = |o: MapObject| step_name(&Command::Objects(ObjectCommand::EditObject(0, o)), &editor, &map);
        assert_eq!(edit(MapObject { visible: false, ..item.clone() }), Some(format!("Hide object #{id}")));
        assert_eq!(edit(item.clone().named("gold")), Some(format!("Rename object #{id} to \"gold\"")));
        let mut lit = item.clone();
        lit.properties.insert("light".into(), crate::core::PropertyValue::Int(3));
        assert_eq!(edit(lit), Some(format!("Change properties of object #{id}")));
        assert_eq!(edit(MapObject { visible: false, ..item.named("gold") }), Some(format!("Edit object #{id}")));
    }
}
