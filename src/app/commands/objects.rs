//! Objects: placing, drawing shapes, moving, resizing, editing and removing them.
//!
//! Each command here is applied by `apply_objects` and named for the undo history by
//! `ObjectCommand::step_name`; both match every variant, so a new command cannot miss either.

use super::{Names, on_off};
use crate::app::editor::{EditorState, ShapeDraft};
use crate::app::{ContinuedEdit, SightlineApp};
use crate::core::{Map, MapObject};

#[derive(Clone, Debug, PartialEq)]
pub enum ObjectCommand {
    PlaceObject(crate::core::Cell),
    /// Where the object tool's press is (map pixels) and the slack its pick allows there (sent
    /// before its `StrokeBegin`): a drag from inside a zone, on a path or a text moves it.
    GrabAt([f64; 2], f64),
    /// A drag of one of the focused object's handles begins (its moves send
    /// `SetObjectGeometry`, one undo step), and ends.
    BeginResize(crate::app::editor::Resize),
    EndResize,
    /// A click of the object tool on an object: the inspector edits it (Tiled selects it).
    FocusObject(u32),
    /// The shape the object tool is drawing, as the pointer moves (`None`: Esc drops it).
    SetShapeDraft(Option<crate::app::editor::ShapeDraft>),
    /// A click of the polygon tool: one more point (map pixels, snapped).
    AddShapePoint([f64; 2]),
    /// A click of the polygon tool on an end of the path in hand: the tool goes on from it
    /// (Tiled's extending of a polyline).
    ExtendPath(crate::app::editor::PathEnd),
    /// Backspace: the polygon being drawn loses its last point (and is dropped with its first).
    RemoveShapePoint,
    /// The drawn shape becomes an object (one undo step): a drag's box at its release, a
    /// polygon closed by a click on its first point, or a path ended by Enter or a right-click.
    FinishShape {
        closed: bool,
    },
    /// A click's shape (a cell's box, a point, a text at its own size), at this position in map
    /// pixels: an object on the cell under its centre (one undo step).
    AddShape(crate::core::model::object::ShapeKind, [f64; 2]),
    /// How drawn shapes snap (the tools bar).
    SetSnap(crate::core::model::geometry::Snap),
    /// The inspector: replace object `n` (its name, glyph, vision, radius).
    EditObject(usize, crate::core::MapObject),
    RemoveObject(usize),
    /// A field the inspector was editing was left (or its drag ended): the next edit is a new
    /// undo step.
    EndContinuedEdit,
    /// The inspector: object `id`'s class, which makes it what loading a map would (a monster,
    /// a light, …; see `MapObject::reclassed`); one undo step.
    ReclassObject {
        id: u32,
        class: String,
    },
    /// A polygon's or path's points (from its origin, which stays) become `points`: a drag
    /// of a point moves it, of a segment's middle adds one there (one undo step a drag), a
    /// right-click on a point takes it away. A polygon keeps three, a path two.
    SetObjectPoints {
        id: u32,
        points: Vec<[f64; 2]>,
    },
    /// The inspector: object `id`'s shape to `position` (map pixels, Tiled's `x`, `y`), its box
    /// to `size` (when it has one), turned `rotation` degrees; it stands on the cell under its
    /// new centre (a drag of the fields is one undo step).
    SetObjectGeometry {
        id: u32,
        position: [f64; 2],
        size: Option<[f64; 2]>,
        rotation: f64,
    },
    RemoveObjectsAt(crate::core::Cell),
    SetObjectChoice(crate::app::editor::ObjectChoice),
    SetMonster {
        glyph: char,
        vision: u32,
    },
    SetLightRadius(u32),
}

impl ObjectCommand {
    /// What the undo step this command makes is called ("Paint", "Rename layer …"); `None`
    /// when it makes no step of its own.
    pub(crate) fn step_name(&self, editor: &EditorState, map: &Map) -> Option<String> {
        let names = Names(map);
        Some(match self {
            ObjectCommand::PlaceObject(_) => format!("Place {}", editor.object.label()),
            ObjectCommand::AddShape(..) | ObjectCommand::FinishShape { .. } => format!("Add {}", editor.object.label()),
            ObjectCommand::ExtendPath(_) => "Extend path".into(),
            // What changed, when it is one thing the objects list or the inspector changes alone.
            ObjectCommand::EditObject(index, new) => match map.objects.get(*index) {
                Some(old) if MapObject { visible: new.visible, ..old.clone() } == *new => {
                    on_off(new.visible, "Show object", "Hide object") + &names.object(*index)
                }
                Some(old) if MapObject { name: new.name.clone(), ..old.clone() } == *new => {
                    format!("Rename object{} to \"{}\"", names.object(*index), new.name)
                }
                // Its light, its vision, a custom property.
                Some(old) if MapObject { properties: new.properties.clone(), ..old.clone() } == *new => {
                    format!("Change properties of object{}", names.object(*index))
                }
                _ => format!("Edit object{}", names.object(*index)),
            },
            ObjectCommand::RemoveObject(index) => format!("Remove object{}", names.object(*index)),
            ObjectCommand::ReclassObject { id, .. } => format!("Change class of object #{id}"),
            ObjectCommand::SetObjectPoints { id, .. } => format!("Edit points of object #{id}"),
            ObjectCommand::SetObjectGeometry { id, .. } => format!("Move or resize object #{id}"),
            ObjectCommand::RemoveObjectsAt(cell) => format!("Remove objects at {},{}", cell.x, cell.y),
            ObjectCommand::GrabAt(..)
            | ObjectCommand::BeginResize(..)
            | ObjectCommand::EndResize
            | ObjectCommand::FocusObject(..)
            | ObjectCommand::SetShapeDraft(..)
            | ObjectCommand::AddShapePoint(..)
            | ObjectCommand::RemoveShapePoint
            | ObjectCommand::SetSnap(..)
            | ObjectCommand::EndContinuedEdit
            | ObjectCommand::SetObjectChoice(..)
            | ObjectCommand::SetMonster { .. }
            | ObjectCommand::SetLightRadius(..) => return None,
        })
    }
}

impl SightlineApp {
    pub(super) fn apply_objects(&mut self, command: ObjectCommand) {
        match command {
            ObjectCommand::PlaceObject(cell) => self.place_object(cell),
            ObjectCommand::GrabAt(at, slack) => self.editor.grab = Some((at, slack)),
            ObjectCommand::FocusObject(id) => self.editor.focused_object = Some(id),
            // Each resize is its own undo step, however many moves it has.
            ObjectCommand::BeginResize(resize) => {
                self.editor.resizing = Some(resize);
                self.continued = None;
            }
            ObjectCommand::EndResize => self.end_object_gesture(),
            ObjectCommand::SetShapeDraft(draft) => self.editor.shape_draft = draft,
            ObjectCommand::AddShapePoint(p) => match &mut self.editor.shape_draft {
                // A press where the last point is adds nothing (Tiled's `applySegment`).
                Some(ShapeDraft::Points { points, pointer, .. }) => {
                    if points.last() != Some(&p) {
                        points.push(p);
                    }
                    *pointer = p;
                }
                _ => self.editor.shape_draft = Some(ShapeDraft::Points { points: vec![p], pointer: p, extends: None }),
            },
            ObjectCommand::ExtendPath(end) => self.extend_path(end),
            ObjectCommand::RemoveShapePoint => {
                if let Some(ShapeDraft::Points { points, .. }) = &mut self.editor.shape_draft {
                    points.pop();
                    if points.is_empty() {
                        self.editor.shape_draft = None;
                    }
                }
            }
            ObjectCommand::FinishShape { closed } => self.finish_shape(closed),
            ObjectCommand::AddShape(kind, position) => self.add_shape(kind, position),
            ObjectCommand::SetSnap(snap) => self.editor.snap = snap,
            ObjectCommand::EditObject(index, object) => {
                if self.document.map.objects.get(index).is_none_or(|o| *o == object || o.cell != object.cell) {
                    return;
                }
                // Typing a name or dragging a radius: one undo step while it goes on.
                if !self.continues(ContinuedEdit::Object(index)) {
                    self.document.checkpoint(&self.editor.selection);
                }
                self.document.map.objects[index] = object;
                self.document.touch();
                self.continued = Some((ContinuedEdit::Object(index), self.document.revision()));
            }
            ObjectCommand::EndContinuedEdit => self.continued = None,
            ObjectCommand::ReclassObject { id, class } => {
                let Some(index) = self.changeable_object(id) else { return };
                let map = &self.document.map;
                match map.objects[index].reclassed(class.trim()) {
                    Ok(o) if o == map.objects[index] => {}
                    Ok(o) => {
                        self.document.checkpoint(&self.editor.selection);
                        self.document.map.objects[index] = o;
                        self.document.touch();
                    }
                    Err(e) => {
                        let what =
                            format!("its property {} is {}, where a {class} needs {}", e.key, e.found, e.expected);
                        self.notice = Some(format!("object #{id} keeps its class: {what}"));
                    }
                }
            }
            ObjectCommand::SetObjectPoints { id, points } => {
                use crate::core::model::object::ShapeKind;
                let Some(index) = self.changeable_object(id) else { return };
                let map = &self.document.map;
                let (now, fewest) = match map.objects[index].shape.as_ref().map(|s| &s.kind) {
                    Some(ShapeKind::Polygon(now)) => (now, 3),
                    Some(ShapeKind::Polyline(now)) => (now, 2),
                    _ => return,
                };
                if points.len() < fewest {
                    self.notice = Some(format!(
                        "a {} keeps {fewest} points at least",
                        if fewest == 3 { "polygon" } else { "path" }
                    ));
                    return;
                }
                if *now == points || points.iter().flatten().any(|v| !v.is_finite()) {
                    return;
                }
                if !self.continues(ContinuedEdit::ObjectGeometry(index)) {
                    self.document.checkpoint(&self.editor.selection);
                }
                if let Some(ShapeKind::Polygon(now) | ShapeKind::Polyline(now)) =
                    self.document.map.objects[index].shape.as_mut().map(|s| &mut s.kind)
                {
                    *now = points;
                }
                self.document.touch();
                self.continued = Some((ContinuedEdit::ObjectGeometry(index), self.document.revision()));
            }
            ObjectCommand::SetObjectGeometry { id, position, size, rotation } => {
                let Some(index) = self.changeable_object(id) else { return };
                let map = &self.document.map;
                let Some(shape) = &map.objects[index].shape else { return };
                let kind = match size {
                    Some(size) => shape.kind.clone().with_size(size.map(|v| v.max(0.0))),
                    None => shape.kind.clone(),
                };
                let Some((cell, shape)) = map.placed_shape(kind, position, rotation) else {
                    self.notice = Some(format!("object #{id} stays: its centre would be off the map"));
                    return;
                };
                // A point moved to the middle of its cell is a marker, as a load would read it.
                let shape = Some(shape).filter(|s| !s.is_marker(map.tile_size));
                let o = &map.objects[index];
                if o.cell == cell && o.shape == shape {
                    return;
                }
                // Dragging a field: one undo step while it goes on.
                if !self.continues(ContinuedEdit::ObjectGeometry(index)) {
                    self.document.checkpoint(&self.editor.selection);
                }
                let o = &mut self.document.map.objects[index];
                o.cell = cell;
                o.shape = shape;
                self.document.touch();
                self.continued = Some((ContinuedEdit::ObjectGeometry(index), self.document.revision()));
            }
            ObjectCommand::RemoveObject(index) => {
                if index < self.document.map.objects.len() {
                    self.document.checkpoint(&self.editor.selection);
                    self.document.map.objects.remove(index);
                    self.document.touch();
                }
            }
            ObjectCommand::RemoveObjectsAt(cell) => {
                // Objects the tools may change: on shown, unlocked object layers.
                let map = &self.document.map;
                let looks = map.object_looks();
                let open = |o: &crate::core::MapObject| looks.get(o.layer).is_some_and(|l| l.shown && !l.locked);
                let mut gone: Vec<u32> =
                    map.objects.iter().filter(|o| o.cell == cell && open(o)).map(|o| o.id).collect();
                // None stands on the cell: the zone, path or text under the right-click goes.
                if gone.is_empty()
                    && let Some(o) = self.movable_object_at(cell, self.editor.grab)
                {
                    gone.push(o.id);
                }
                self.editor.grab = None;
                if !gone.is_empty() {
                    // Not `remove_objects`: the object in hand stays in hand for an undo.
                    self.document.checkpoint(&self.editor.selection);
                    self.document.map.objects.retain(|o| !gone.contains(&o.id));
                    self.document.touch();
                } else if let Some(o) = map.objects.iter().find(|o| o.cell == cell) {
                    self.notice = self.object_layer_refusal(o.layer, "to remove its objects");
                }
            }
            ObjectCommand::SetObjectChoice(choice) => {
                self.editor.object = choice;
                self.editor.shape_draft = None;
            }
            ObjectCommand::SetMonster { glyph, vision } => {
                self.editor.monster_glyph = glyph;
                self.editor.monster_vision = vision.clamp(1, 64);
            }
            ObjectCommand::SetLightRadius(r) => self.editor.light_radius = r.clamp(1, 64),
        }
    }
}
