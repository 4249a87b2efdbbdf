//! The layer stack: adding, removing, ordering, grouping layers and their look and flags.
//!
//! Each command here is applied by `apply_layers` and named for the undo history by
//! `LayerCommand::step_name`; both match every variant, so a new command cannot miss either.

use super::{Names, on_off};
use crate::app::editor::EditorState;
use crate::app::{ContinuedEdit, SightlineApp};
use crate::core::model::layers;
use crate::core::{LayerRef, Map, StackItem};

#[derive(Clone, Debug, PartialEq)]
pub enum LayerCommand {
    /// Make a layer (tile or object layer) or a group the current one.
    SelectLayer(crate::core::StackItem),
    /// Show or hide a layer or a group (an edit: Tiled saves it in the map).
    SetLayerVisible(crate::core::StackItem, bool),
    /// Lock or unlock a layer or a group against the tools.
    SetLayerLocked(crate::core::StackItem, bool),
    /// Make a layer a collision layer (its tiles block sight and movement) or not.
    SetLayerCollision(usize, bool),
    /// Set how opaque a layer or a group is drawn (0 to 1; drawing only). Successive changes of
    /// one, as a slider's drag sends them, are one undo step.
    SetLayerOpacity(crate::core::StackItem, f32),
    /// Set how a tile layer or a group is drawn, as Tiled sets it: tint colour, offset, parallax
    /// factor. Successive changes of one, as a drag sends them, are one undo step.
    SetLayerLook(crate::core::StackItem, DrawnLook),
    /// Set the colour an object layer's shapes are drawn in (Tiled's object layer colour), or
    /// none (each object in its kind's colour).
    SetObjectLayerColor(usize, Option<crate::core::Rgba>),
    /// Set the order an object layer's objects are drawn in (Tiled's Drawing Order).
    SetObjectLayerDrawOrder(usize, crate::core::model::map::DrawOrder),
    /// Layer edits (Tiled's Layer menu), one undo step each. Each names the layer or group it
    /// was asked on; the new, copied, moved or merged one becomes the current one.
    AddLayer {
        /// Just above this layer, in its group; inside this group, at its top; `None`: at the
        /// top of the map.
        above: Option<crate::core::StackItem>,
        kind: NewLayer,
    },
    DuplicateLayer(crate::core::StackItem),
    RemoveLayer(crate::core::StackItem),
    RenameLayer(crate::core::StackItem, String),
    /// Set a layer's or group's Tiled class (Tiled's Class field; empty: none).
    SetLayerClass(crate::core::StackItem, String),
    /// Raise (`up`) or lower a layer or group one step, into and out of groups as Tiled does.
    MoveLayer {
        item: crate::core::StackItem,
        up: bool,
    },
    /// Move a layer or group straight to a place (a drag in the Layers panel); dropped where it
    /// already is, nothing changes and no undo step is left.
    MoveLayerTo {
        item: crate::core::StackItem,
        place: crate::core::model::layers::Place,
    },
    MergeLayerDown(crate::core::LayerRef),
    /// Put a layer or group into a new group, where it is (Tiled's Group Layers).
    GroupLayer(crate::core::StackItem),
    /// Dissolve a group, leaving what it holds where it is (Tiled's Ungroup Layers).
    Ungroup(usize),
    /// Fold (true) or unfold a group in the Layers panel, by its path of names (not an edit).
    FoldGroup(String, bool),
}

/// What [`LayerCommand::AddLayer`] adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewLayer {
    Tiles,
    Objects,
    Group,
}

/// A layer's or group's own look, as the Layers panel edits it (Tiled's tint colour,
/// offset in map pixels, parallax factor).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawnLook {
    pub tint: Option<crate::core::Rgba>,
    pub offset: [f64; 2],
    pub parallax: [f64; 2],
}

impl LayerCommand {
    /// What the undo step this command makes is called ("Paint", "Rename layer …"); `None`
    /// when it makes no step of its own.
    pub(crate) fn step_name(&self, _editor: &EditorState, map: &Map) -> Option<String> {
        let names = Names(map);
        Some(match self {
            LayerCommand::SetLayerVisible(i, on) => on_off(*on, "Show layer", "Hide layer") + &names.item(*i),
            LayerCommand::SetLayerLocked(i, on) => on_off(*on, "Lock layer", "Unlock layer") + &names.item(*i),
            LayerCommand::SetLayerCollision(l, on) => {
                on_off(*on, "Mark collision layer", "Unmark collision layer") + &names.layer(*l)
            }
            LayerCommand::SetLayerOpacity(i, _) => format!("Change opacity of{}", names.item(*i)),
            LayerCommand::SetLayerLook(i, _) => format!("Change tint and offset of{}", names.item(*i)),
            LayerCommand::SetObjectLayerColor(j, _) => {
                format!("Change colour of{}", names.item(StackItem::Layer(LayerRef::Objects(*j))))
            }
            LayerCommand::SetObjectLayerDrawOrder(j, order) => {
                format!("Draw{} {}", names.item(StackItem::Layer(LayerRef::Objects(*j))), order.label().to_lowercase())
            }
            LayerCommand::AddLayer { kind, .. } => match kind {
                NewLayer::Tiles => "Add tile layer",
                NewLayer::Objects => "Add object layer",
                NewLayer::Group => "Add group",
            }
            .into(),
            LayerCommand::GroupLayer(i) => format!("Group{}", names.item(*i)),
            LayerCommand::Ungroup(g) => format!("Ungroup{}", names.item(StackItem::Group(*g))),
            LayerCommand::DuplicateLayer(i) => format!("Duplicate{}", names.item(*i)),
            LayerCommand::RemoveLayer(i) => format!("Remove{}", names.item(*i)),
            LayerCommand::RenameLayer(i, to) => format!("Rename{} to \"{}\"", names.item(*i), to.trim()),
            LayerCommand::SetLayerClass(i, class) => match class.trim() {
                "" => format!("Clear the class of{}", names.item(*i)),
                class => format!("Set the class of{} to \"{class}\"", names.item(*i)),
            },
            LayerCommand::MoveLayer { item: i, up } => on_off(*up, "Raise", "Lower") + &names.item(*i),
            LayerCommand::MoveLayerTo { item: i, .. } => format!("Move{}", names.item(*i)),
            LayerCommand::MergeLayerDown(l) => format!("Merge{} down", names.item(StackItem::Layer(*l))),
            LayerCommand::SelectLayer(..) | LayerCommand::FoldGroup(..) => return None,
        })
    }
}

impl SightlineApp {
    pub(super) fn apply_layers(&mut self, command: LayerCommand) {
        match command {
            LayerCommand::SelectLayer(item) => {
                if layers::item_name(&self.document.map, item).is_some() {
                    self.editor.set_current_item(item);
                }
            }
            LayerCommand::SetLayerVisible(
                item @ (StackItem::Group(_) | StackItem::Layer(LayerRef::Objects(_))),
                on,
            )
            | LayerCommand::SetLayerLocked(item @ (StackItem::Group(_) | StackItem::Layer(LayerRef::Objects(_))), on) =>
            {
                let visible = matches!(command, LayerCommand::SetLayerVisible(..));
                if layer_flag(&mut self.document.map, item, visible).is_none_or(|flag| *flag == on) {
                    return;
                }
                self.document.checkpoint(&self.editor.selection);
                if let Some(flag) = layer_flag(&mut self.document.map, item, visible) {
                    *flag = on;
                }
                self.document.touch();
            }
            LayerCommand::SetLayerLook(item, look) => {
                let finite = look.offset.iter().chain(&look.parallax).all(|v| v.is_finite());
                if !finite || drawn_look(&self.document.map, item).is_none_or(|now| now == look) {
                    return;
                }
                if !self.continues(ContinuedEdit::Look(item)) {
                    self.document.checkpoint(&self.editor.selection);
                }
                let map = &mut self.document.map;
                let (tint, offset, parallax) = match item {
                    StackItem::Layer(LayerRef::Tiles(i)) => {
                        let l = &mut map.layers[i];
                        (&mut l.tint, &mut l.offset, &mut l.parallax)
                    }
                    StackItem::Group(g) => {
                        let g = &mut map.groups[g];
                        (&mut g.tint, &mut g.offset, &mut g.parallax)
                    }
                    StackItem::Layer(LayerRef::Objects(j)) => {
                        let l = &mut map.object_layers[j];
                        (&mut l.tint, &mut l.offset, &mut l.parallax)
                    }
                };
                (*tint, *offset, *parallax) = (look.tint, look.offset, look.parallax);
                self.document.touch();
                self.continued = Some((ContinuedEdit::Look(item), self.document.revision()));
            }
            LayerCommand::SetObjectLayerColor(j, color) => {
                if self.document.map.object_layers.get(j).is_none_or(|l| l.color == color) {
                    return;
                }
                // Dragging in the colour picker sends a colour a frame: one undo step.
                if !self.continues(ContinuedEdit::ObjectLayerColor(j)) {
                    self.document.checkpoint(&self.editor.selection);
                }
                self.document.map.object_layers[j].color = color;
                self.document.touch();
                self.continued = Some((ContinuedEdit::ObjectLayerColor(j), self.document.revision()));
            }
            LayerCommand::SetObjectLayerDrawOrder(j, order) => {
                if self.document.map.object_layers.get(j).is_none_or(|l| l.draw_order == order) {
                    return;
                }
                self.document.checkpoint(&self.editor.selection);
                self.document.map.object_layers[j].draw_order = order;
                self.document.touch();
            }
            LayerCommand::SetLayerVisible(StackItem::Layer(LayerRef::Tiles(layer)), on)
            | LayerCommand::SetLayerLocked(StackItem::Layer(LayerRef::Tiles(layer)), on)
            | LayerCommand::SetLayerCollision(layer, on) => {
                let Some(l) = self.document.map.layers.get(layer) else { return };
                let flag = |l: &crate::core::Layer| match command {
                    LayerCommand::SetLayerVisible(..) => l.visible,
                    LayerCommand::SetLayerLocked(..) => l.locked,
                    _ => l.collision,
                };
                if flag(l) == on {
                    return;
                }
                self.document.checkpoint(&self.editor.selection);
                let l = &mut self.document.map.layers[layer];
                match command {
                    LayerCommand::SetLayerVisible(..) => l.visible = on,
                    LayerCommand::SetLayerLocked(..) => l.locked = on,
                    _ => l.collision = on,
                }
                self.document.touch();
            }
            LayerCommand::FoldGroup(path, folded) => {
                if folded {
                    self.editor.folded_groups.insert(path);
                } else {
                    self.editor.folded_groups.remove(&path);
                }
            }
            LayerCommand::SetLayerOpacity(layer, opacity) => {
                let opacity = if opacity.is_finite() { opacity.clamp(0.0, 1.0) } else { 1.0 };
                let map = &self.document.map;
                let now = match layer {
                    StackItem::Layer(l) => map.layer_header(l).map(|h| h.opacity),
                    StackItem::Group(g) => map.groups.get(g).map(|g| g.opacity),
                };
                if now.is_none_or(|now| now == opacity) {
                    return;
                }
                if !self.continues(ContinuedEdit::Opacity(layer)) {
                    self.document.checkpoint(&self.editor.selection);
                }
                let map = &mut self.document.map;
                match layer {
                    StackItem::Layer(LayerRef::Tiles(i)) => map.layers[i].opacity = opacity,
                    StackItem::Layer(LayerRef::Objects(j)) => map.object_layers[j].opacity = opacity,
                    StackItem::Group(g) => map.groups[g].opacity = opacity,
                }
                self.document.touch();
                self.continued = Some((ContinuedEdit::Opacity(layer), self.document.revision()));
            }
            LayerCommand::AddLayer { above, kind } => {
                let base = match kind {
                    NewLayer::Tiles => "Layer",
                    NewLayer::Objects => "Objects",
                    NewLayer::Group => "Group",
                };
                let name = layers::unused_layer_name(&self.document.map, base);
                let added = self.layer_edit(|map| match kind {
                    NewLayer::Tiles => layers::add_layer(map, above, &name).map(StackItem::Layer),
                    NewLayer::Objects => layers::add_object_layer(map, above, &name).map(StackItem::Layer),
                    NewLayer::Group => layers::add_group(map, above, &name).map(StackItem::Group),
                });
                if let Some(item) = added {
                    self.editor.set_current_item(item);
                }
            }
            LayerCommand::GroupLayer(item) => {
                let name = layers::unused_layer_name(&self.document.map, "Group");
                if let Some(g) = self.layer_edit(|map| layers::group_item(map, item, &name)) {
                    self.editor.set_current_item(StackItem::Group(g));
                }
            }
            LayerCommand::Ungroup(g) => {
                // What the group held stays where it was; its bottom layer (or the layer under
                // it) becomes current.
                let map = &self.document.map;
                let below = map.groups.get(g).map(|group| group.start.min(map.stack().len().saturating_sub(1)));
                if self.layer_edit(|map| layers::ungroup(map, g)).is_some() {
                    self.editor.group = None;
                    if let Some(layer) = below.and_then(|at| self.document.map.stack().get(at).copied()) {
                        self.editor.set_current_layer(layer);
                    }
                }
                self.clamp_layer();
            }
            LayerCommand::DuplicateLayer(item) => {
                if let Some(copy) = self.layer_edit(|map| layers::duplicate(map, item)) {
                    self.editor.set_current_item(copy);
                }
            }
            LayerCommand::RemoveLayer(item) => {
                // As in an image editor: removing the current layer selects the one under it.
                let map = &self.document.map;
                let stack = map.stack();
                let at = match item {
                    StackItem::Layer(layer) => stack.iter().position(|&r| r == layer),
                    StackItem::Group(g) => map.groups.get(g).map(|group| group.start),
                };
                let Some(at) = at else { return };
                if self.layer_edit(|map| layers::remove(map, item)).is_some() {
                    let stack = self.document.map.stack();
                    // The tile tools paint on the nearest tile layer under the removed one.
                    let tile_below = stack[..at.clamp(1, stack.len())].iter().rev().find_map(|r| match r {
                        LayerRef::Tiles(i) => Some(*i),
                        LayerRef::Objects(_) => None,
                    });
                    if let Some(i) = tile_below {
                        self.editor.layer = i;
                    }
                    self.editor.set_current_layer(stack[at.saturating_sub(1).min(stack.len() - 1)]);
                }
                self.clamp_layer();
            }
            LayerCommand::RenameLayer(item, name) => {
                if layers::item_name(&self.document.map, item).is_some_and(|n| n != name.trim()) {
                    self.layer_edit(|map| layers::rename(map, item, &name));
                }
            }
            LayerCommand::SetLayerClass(item, class) => {
                if layers::item_class(&self.document.map, item).is_some_and(|c| c != class.trim()) {
                    self.layer_edit(|map| layers::set_class(map, item, &class));
                }
            }
            LayerCommand::MoveLayer { item, up } => {
                let step = if up { layers::raise } else { layers::lower };
                self.move_layer(|map| step(map, item));
            }
            LayerCommand::MoveLayerTo { item, place } => self.move_layer(|map| layers::move_item(map, item, place)),
            LayerCommand::MergeLayerDown(layer) => {
                let map = &self.document.map;
                let names = layers::layer_below(map, layer).map(|below| {
                    (
                        map.layer_name(layer).unwrap_or_default().to_owned(),
                        map.layer_name(below).unwrap_or_default().to_owned(),
                    )
                });
                if let Some(report) = self.layer_edit(|map| layers::merge_down(map, layer)) {
                    self.editor.set_current_layer(report.layer);
                    if let (Some((upper, lower)), n @ 1..) = (names, report.rules_changed) {
                        self.prompts.notice = Some(format!(
                            "merged \"{upper}\" into \"{lower}\": {n} {} different rules now (opaque, walkable, \
                             cost or door), since a cell keeps only the upper tile",
                            if n == 1 { "cell follows" } else { "cells follow" }
                        ));
                    }
                }
            }
        }
    }
}

/// A layer's or group's own tint, offset and parallax; `None` for one the map does not have.
pub(crate) fn drawn_look(map: &crate::core::Map, item: StackItem) -> Option<DrawnLook> {
    match item {
        StackItem::Layer(LayerRef::Tiles(i)) => {
            map.layers.get(i).map(|l| DrawnLook { tint: l.tint, offset: l.offset, parallax: l.parallax })
        }
        StackItem::Group(g) => {
            map.groups.get(g).map(|g| DrawnLook { tint: g.tint, offset: g.offset, parallax: g.parallax })
        }
        StackItem::Layer(LayerRef::Objects(j)) => {
            map.object_layers.get(j).map(|l| DrawnLook { tint: l.tint, offset: l.offset, parallax: l.parallax })
        }
    }
}

/// The visibility (`visible`) or lock flag of a layer or group.
pub(crate) fn layer_flag(map: &mut crate::core::Map, item: StackItem, visible: bool) -> Option<&mut bool> {
    match item {
        StackItem::Group(g) => map.groups.get_mut(g).map(|g| if visible { &mut g.visible } else { &mut g.locked }),
        StackItem::Layer(LayerRef::Objects(j)) => {
            map.object_layers.get_mut(j).map(|l| if visible { &mut l.visible } else { &mut l.locked })
        }
        StackItem::Layer(LayerRef::Tiles(i)) => {
            map.layers.get_mut(i).map(|l| if visible { &mut l.visible } else { &mut l.locked })
        }
    }
}

impl SightlineApp {
    /// Applies a layer edit as one undo step (none, and `None`, when it changed nothing); on
    /// refusal the map is untouched and the notice says why.
    pub(crate) fn layer_edit<T>(
        &mut self,
        edit: impl FnOnce(&mut crate::core::Map) -> Result<T, layers::LayerEditError>,
    ) -> Option<T> {
        self.document.checkpoint(&self.editor.selection);
        match edit(&mut self.document.map) {
            Ok(value) if !self.document.unchanged_since_checkpoint() => {
                self.document.touch();
                Some(value)
            }
            // Done, but nothing changed (a layer dropped where it was): no undo step.
            Ok(_) => {
                self.document.drop_checkpoint();
                None
            }
            Err(e) => {
                self.document.drop_checkpoint();
                self.prompts.notice = Some(e.to_string());
                None
            }
        }
    }

    /// Raises, lowers or drops a layer or group (one undo step, none if it stayed where it was).
    pub(crate) fn move_layer(
        &mut self,
        edit: impl FnOnce(&mut crate::core::Map) -> Result<layers::Stepped, layers::LayerEditError>,
    ) {
        let Some(stepped) = self.layer_edit(edit) else { return };
        let layers::Stepped { item: moved, doors, tile_layer, object_layer } = stepped;
        // Layers are numbered in stack order, so a move renumbers them (a group's every
        // layer): the tools keep the layers they had, wherever they went.
        self.editor.layer = tile_layer.get(self.editor.layer).copied().unwrap_or(self.editor.layer);
        self.editor.object_layer = self.editor.object_layer.map(|j| object_layer.get(j).copied().unwrap_or(j));
        self.editor.set_current_item(moved);
        if doors > 0 {
            self.prompts.notice = Some(format!(
                "{doors} {} now a different door on top (the one a player opens)",
                if doors == 1 { "cell has" } else { "cells have" }
            ));
        }
    }

    /// Keeps the current layer one the map has (after an undo or a removal).
    pub(crate) fn clamp_layer(&mut self) {
        if self.editor.group.is_some_and(|g| g >= self.document.map.groups.len()) {
            self.editor.group = None;
        }
        self.editor.layer = self.editor.layer.min(self.document.map.layers.len().saturating_sub(1));
        if self.editor.object_layer.is_some_and(|j| j >= self.document.map.object_layers.len()) {
            self.editor.object_layer = None;
        }
    }

    /// Whether the tile tools cannot paint now, and says why: an object layer is the current
    /// layer, or the current tile layer is locked.
    pub(crate) fn layer_locked(&mut self) -> bool {
        if let Some(g) = self.editor.group {
            let name = self.document.map.groups.get(g).map_or("", |g| g.name.as_str());
            self.prompts.notice = Some(format!("\"{name}\" is a layer group: select a tile layer to paint tiles"));
            return true;
        }
        if let Some(j) = self.editor.object_layer {
            let name = self.document.map.object_layers.get(j).map_or("", |l| l.name.as_str());
            self.prompts.notice = Some(format!("\"{name}\" is an object layer: select a tile layer to paint tiles"));
            return true;
        }
        self.layer_locked_at(self.editor.layer)
    }

    /// Whether `layer`, or a group it is in, is locked (and says so).
    pub(crate) fn layer_locked_at(&mut self, layer: usize) -> bool {
        let map = &self.document.map;
        let Some(l) = map.layers.get(layer) else { return false };
        if l.locked {
            self.prompts.notice = Some(format!("layer \"{}\" is locked: unlock it to paint", l.name));
            return true;
        }
        let groups = map.groups_around(StackItem::Layer(LayerRef::Tiles(layer)));
        if let Some(&g) = groups.iter().find(|&&g| map.groups[g].locked) {
            self.prompts.notice = Some(format!(
                "layer \"{}\" is in group \"{}\", which is locked: unlock it to paint",
                l.name, map.groups[g].name
            ));
            return true;
        }
        false
    }

    /// Whether an edit of `edit` continues the last one (the same thing, nothing edited since).
    pub(crate) fn continues(&self, edit: ContinuedEdit) -> bool {
        self.continued == Some((edit, self.document.revision()))
    }
}
