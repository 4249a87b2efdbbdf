//! The map as a whole: its size, its Tiled settings and look, and custom properties of anything in it.
//!
//! Each command here is applied by `apply_map` and named for the undo history by
//! `MapCommand::step_name`; both match every variant, so a new command cannot miss either.

use super::Names;
use crate::app::editor::EditorState;
use crate::app::{ContinuedEdit, ErrorDialog, SightlineApp, map_dialogs};
use crate::core::{LayerRef, Map, StackItem};

#[derive(Clone, Debug, PartialEq)]
pub enum MapCommand {
    /// Set how a Tiled save writes the map and the order its tiles are drawn in (Tiled's tile
    /// layer format, render order and compression level); one undo step.
    SetTiledSettings(crate::core::model::tiled_settings::TiledSettings),
    /// Set the map's class and background colour (Tiled's); successive changes, as a drag in
    /// the colour picker sends them, are one undo step.
    SetMapLook {
        class: String,
        background: Option<crate::core::Rgba>,
    },
    /// Replace the custom properties of the map, a layer or a tile type (a properties table's
    /// edit).
    SetProperties(PropertiesOwner, crate::core::Properties),
    /// Show or hide the Map properties window.
    ShowMapProperties(bool),
    ShowResize,
    /// Resize the map (one undo step).
    ResizeMap(crate::app::map_dialogs::ResizeSpec),
}

/// Whose custom properties an edit changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertiesOwner {
    Map,
    Layer(usize),
    ObjectLayer(usize),
    Group(usize),
    Tile(crate::core::TileId),
    /// A tileset: the map's sprite sheet of that index.
    Tileset(usize),
}

impl MapCommand {
    /// What the undo step this command makes is called ("Paint", "Rename layer …"); `None`
    /// when it makes no step of its own.
    pub(crate) fn step_name(&self, _editor: &EditorState, map: &Map) -> Option<String> {
        let names = Names(map);
        Some(match self {
            MapCommand::SetTiledSettings(_) => "Change Tiled save settings".into(),
            MapCommand::SetMapLook { .. } => "Change map class and background".into(),
            MapCommand::SetProperties(owner, _) => format!(
                "Change properties of {}",
                match *owner {
                    PropertiesOwner::Map => "the map".to_owned(),
                    PropertiesOwner::Layer(l) => format!("layer{}", names.layer(l)),
                    PropertiesOwner::ObjectLayer(j) => {
                        format!("layer{}", names.item(StackItem::Layer(LayerRef::Objects(j))))
                    }
                    PropertiesOwner::Group(g) => format!("group{}", names.item(StackItem::Group(g))),
                    PropertiesOwner::Tile(id) => format!("tile{}", names.tile(id)),
                    PropertiesOwner::Tileset(s) => {
                        format!("tileset{}", map.sheets.get(s).map_or_else(String::new, |s| format!(" \"{}\"", s.name)))
                    }
                }
            ),
            MapCommand::ResizeMap(spec) => format!("Resize map to {}×{}", spec.width, spec.height),
            MapCommand::ShowMapProperties(..) | MapCommand::ShowResize => return None,
        })
    }
}

impl SightlineApp {
    pub(super) fn apply_map(&mut self, command: MapCommand) {
        match command {
            MapCommand::SetTiledSettings(mut settings) => {
                let now = self.document.map.tiled;
                // "inf" or "nan" typed into a number field: no Tiled file can hold it, so it
                // leaves the value as it was.
                for (k, v) in settings.parallax_origin.iter_mut().enumerate() {
                    if !v.is_finite() {
                        *v = now.parallax_origin[k];
                    }
                }
                // A Tiled file records the layer format in its tile layers' data: a map read
                // without one (a file of object layers only) keeps the format it has.
                if self.document.map.layers.is_empty() {
                    settings.layer_format = now.layer_format;
                }
                if now == settings {
                    return;
                }
                // A drag on a number sends a change a frame: one undo step for the drag.
                let dragged = if (now.layer_format, now.render_order) != (settings.layer_format, settings.render_order)
                {
                    None
                } else if now.parallax_origin == settings.parallax_origin {
                    Some(ContinuedEdit::TiledNumber(true))
                } else {
                    Some(ContinuedEdit::TiledNumber(false))
                };
                if !dragged.is_some_and(|edit| self.continues(edit)) {
                    self.document.checkpoint(&self.editor.selection);
                }
                self.document.map.tiled = settings;
                self.document.touch();
                self.continued = dragged.map(|edit| (edit, self.document.revision()));
            }
            MapCommand::SetMapLook { class, background } => {
                let map = &self.document.map;
                if map.class == class && map.background == background {
                    return;
                }
                if !self.continues(ContinuedEdit::MapLook) {
                    self.document.checkpoint(&self.editor.selection);
                }
                self.document.map.class = class;
                self.document.map.background = background;
                self.document.touch();
                self.continued = Some((ContinuedEdit::MapLook, self.document.revision()));
            }
            MapCommand::ShowResize => {
                let map = &self.document.map;
                self.dialogs.resize = Some(map_dialogs::ResizeSpec {
                    width: map.width(),
                    height: map.height(),
                    anchor: crate::core::Anchor::TopLeft,
                    fill_with_brush: true,
                });
            }
            MapCommand::ResizeMap(spec) => {
                let fill = if spec.fill_with_brush { self.editor.tile } else { crate::core::model::tile::EMPTY };
                match self.document.map.resized(spec.width, spec.height, spec.anchor, fill) {
                    Ok(map) if map != self.document.map => {
                        // The selection moves with the cells it holds, as in Tiled.
                        let old = (self.document.map.width(), self.document.map.height());
                        let (dx, dy) = spec.anchor.offset(old, (spec.width, spec.height));
                        self.document.checkpoint(&self.editor.selection);
                        let moved = self.editor.selection.as_ref().map(|s| s.moved((dx, dy), spec.width, spec.height));
                        self.editor.selection = moved.filter(|s| !s.is_empty());
                        self.document.map = map;
                        self.document.touch();
                        self.view.fit_pending = true;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        self.prompts.error =
                            Some(ErrorDialog { title: "Cannot resize the map".into(), message: e.to_string() })
                    }
                }
            }
            MapCommand::SetProperties(owner, properties) => {
                let map = &self.document.map;
                let current = match owner {
                    PropertiesOwner::Map => Some(&map.properties),
                    PropertiesOwner::Layer(layer) => map.layers.get(layer).map(|l| &l.properties),
                    PropertiesOwner::ObjectLayer(layer) => map.object_layers.get(layer).map(|l| &l.properties),
                    PropertiesOwner::Group(g) => map.groups.get(g).map(|g| &g.properties),
                    // Tile 0 is the empty tile: it has no properties.
                    PropertiesOwner::Tile(0) => None,
                    PropertiesOwner::Tile(id) => map.tiles.get(usize::from(id)).map(|t| &t.properties),
                    PropertiesOwner::Tileset(s) => map.sheets.get(s).map(|s| &s.properties),
                };
                let Some(current) = current else { return };
                if *current == properties {
                    return;
                }
                // Typing in a text property sends a change a key: one undo step while it goes on.
                // Adding, removing or converting a property, a member or a list item is a step of
                // its own.
                let same_shape = crate::core::model::tile::same_shape(current, &properties);
                if !same_shape || !self.continues(ContinuedEdit::Properties(owner)) {
                    self.document.checkpoint(&self.editor.selection);
                }
                let map = &mut self.document.map;
                match owner {
                    PropertiesOwner::Map => map.properties = properties,
                    PropertiesOwner::Layer(layer) => map.layers[layer].properties = properties,
                    PropertiesOwner::ObjectLayer(layer) => map.object_layers[layer].properties = properties,
                    PropertiesOwner::Group(g) => map.groups[g].properties = properties,
                    PropertiesOwner::Tile(id) => map.tiles[usize::from(id)].properties = properties,
                    PropertiesOwner::Tileset(s) => map.sheets[s].properties = properties,
                }
                self.document.touch();
                self.continued = same_shape.then_some((ContinuedEdit::Properties(owner), self.document.revision()));
            }
            MapCommand::ShowMapProperties(open) => self.windows.map_properties = open,
        }
    }
}
