//! Objects: placing, drawing shapes, moving, resizing, editing and removing them.
//!
//! Each command here is applied by `apply_objects` and named for the undo history by
//! `ObjectCommand::step_name`; both match every variant, so a new command cannot miss either.

use super::{Names, on_off};
use crate::app::editor::{EditorState, ShapeDraft};
use crate::app::{
    Cell, CellSpan, ContinuedEdit, ObjectChoice, ObjectInHand, PathEnd, SightlineApp, TileId, object_focus,
    selected_objects,
};
use crate::core::LayerRef;
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
                        self.prompts.notice = Some(format!("object #{id} keeps its class: {what}"));
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
                    self.prompts.notice = Some(format!(
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
                    self.prompts.notice = Some(format!("object #{id} stays: its centre would be off the map"));
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
                    self.prompts.notice = self.object_layer_refusal(o.layer, "to remove its objects");
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

impl SightlineApp {
    /// Places the object tool's object at `cell` (one undo step): the player start moves there,
    /// other objects replace what stood on the cell, a door is a closed-door tile.
    pub(crate) fn place_object(&mut self, cell: Cell) {
        use crate::core::{MapObject, ObjectKind};
        let map = &self.document.map;
        if !map.in_bounds(cell) {
            return;
        }
        let e = &self.editor;
        let object = match e.object {
            ObjectChoice::PlayerStart => MapObject::new(ObjectKind::PlayerStart, cell).named("player"),
            ObjectChoice::Monster => {
                MapObject::new(ObjectKind::Monster { glyph: e.monster_glyph, vision_radius: e.monster_vision }, cell)
                    .named(crate::core::format::ascii::monster_name(e.monster_glyph))
            }
            ObjectChoice::Item => MapObject::new(ObjectKind::Item, cell).named("item"),
            ObjectChoice::Light => MapObject::new(ObjectKind::Light { radius: e.light_radius }, cell).named("light"),
            ObjectChoice::Door => {
                let door = map.tiles.iter().position(|t| t.door.is_some_and(|d| !d.open));
                match door {
                    Some(t) if !self.layer_locked() => {
                        self.document.checkpoint(&self.editor.selection);
                        if crate::core::edit::paint(&mut self.document.map, self.editor.layer, &[cell], t as TileId) > 0
                        {
                            self.document.touch();
                        } else {
                            self.document.drop_checkpoint();
                        }
                    }
                    Some(_) => {}
                    None => {
                        self.prompts.notice = Some("this map has no closed-door tile: add one in Tile types…".into())
                    }
                }
                return;
            }
            // Drawn in map pixels, not placed on a cell (`shape_pointer_action`).
            ObjectChoice::Rectangle
            | ObjectChoice::Ellipse
            | ObjectChoice::Capsule
            | ObjectChoice::Point
            | ObjectChoice::Polygon
            | ObjectChoice::Text
            | ObjectChoice::TileObject => return,
        };
        let map = &self.document.map;
        // The object goes on the current object layer, else on the topmost (a new one if the
        // map has none); the player start stays on its own.
        let start = map.objects.iter().position(|o| o.kind == ObjectKind::PlayerStart);
        let moving_start = start.filter(|_| e.object == ObjectChoice::PlayerStart);
        let target = match moving_start {
            Some(i) => Some(map.objects[i].layer),
            None => e.object_layer.or(map.object_layers.len().checked_sub(1)),
        };
        if let Some(refusal) = target.and_then(|j| self.object_layer_refusal(j, "to place objects")) {
            self.prompts.notice = Some(refusal);
            return;
        }
        // What stands on the cell on that layer is replaced; a Tiled zone, path or tile object
        // that merely hangs from it is not.
        let marker =
            |o: &MapObject| o.shape.as_ref().is_none_or(|s| s.kind == crate::core::model::object::ShapeKind::Point);
        let replaced = |o: &MapObject| o.cell == cell && marker(o) && Some(o.layer) == target;
        // The player start moves, keeping its id, name, layer and properties (an `object`
        // property may name it); the same object placed again where it stands is no edit.
        let unchanged = match moving_start {
            Some(i) => map.objects[i].cell == cell,
            None => {
                let mut standing = map.objects.iter().filter(|o| replaced(o));
                match (standing.next(), standing.next()) {
                    (Some(o), None) => MapObject { id: o.id, layer: o.layer, ..object.clone() } == *o,
                    _ => false,
                }
            }
        };
        if unchanged {
            return;
        }
        self.document.checkpoint(&self.editor.selection);
        let map = &mut self.document.map;
        match moving_start {
            Some(i) => {
                // Where it is in its layer's order stays (as a drag in Tiled keeps it).
                let id = map.objects[i].id;
                map.objects[i].cell = cell;
                self.editor.focused_object = Some(id);
                map.objects.retain(|o| o.id == id || !replaced(o));
            }
            None => {
                map.objects.retain(|o| !replaced(o));
                let layer = target.unwrap_or_else(|| map.default_object_layer());
                self.editor.focused_object = Some(map.add_object(object.on_layer(layer)));
            }
        }
        self.document.touch();
    }

    /// The object the object tool last made, moved or clicked (on a shown layer), with its
    /// grips when it may change: a rectangle's, ellipse's, capsule's or text's eight handles,
    /// a polygon's or path's points (turned as it is), when its layer is not locked. And
    /// its layer's offset (its groups' added), which it is drawn moved by.
    pub(crate) fn focus(&self) -> Option<ObjectInHand<'_>> {
        object_focus(&self.editor, &self.document.map)
    }

    /// The offset (map pixels, its groups' added) of the object layer a new object goes on:
    /// the current one, else the topmost; none for a new one.
    pub(crate) fn new_object_shift(&self) -> [f64; 2] {
        let map = &self.document.map;
        let target = self.editor.object_layer.or(map.object_layers.len().checked_sub(1));
        target.and_then(|j| map.object_looks().get(j).map(|l| l.offset)).unwrap_or([0.0, 0.0])
    }

    /// Ends a move or resize of the object tool's (a release, a tool change, an undo): later
    /// moves change nothing, and a resize that came back to where it began leaves no undo
    /// step.
    pub(crate) fn end_object_gesture(&mut self) {
        self.editor.end_move();
        self.editor.grab = None;
        if self.editor.resizing.take().is_some() {
            if self.continued.is_some_and(|(edit, _)| matches!(edit, ContinuedEdit::ObjectGeometry(_)))
                && self.document.unchanged_since_checkpoint()
            {
                self.document.drop_checkpoint();
            }
            self.continued = None;
        }
    }

    /// Where object `id` is in the map's list, when its layer lets it change (else the notice
    /// says why, and `None`).
    pub(crate) fn changeable_object(&mut self, id: u32) -> Option<usize> {
        let index = self.document.map.objects.iter().position(|o| o.id == id)?;
        let refusal = self.object_layer_refusal(self.document.map.objects[index].layer, "to change its objects");
        match refusal {
            Some(refusal) => {
                self.prompts.notice = Some(refusal);
                None
            }
            None => Some(index),
        }
    }

    /// Why new objects cannot go on object layer `j`: it is hidden or locked (or in such a
    /// group), as Tiled's object tools refuse it.
    pub(crate) fn object_layer_refusal(&self, j: usize, doing: &str) -> Option<String> {
        let map = &self.document.map;
        let layer = map.object_layers.get(j)?;
        let look = map.look(LayerRef::Objects(j));
        let why = if look.locked {
            "locked (or in a locked group): unlock it"
        } else if !look.shown {
            "hidden (or in a hidden group): show it"
        } else {
            return None;
        };
        Some(format!("object layer \"{}\" is {why} {doing}", layer.name))
    }

    /// The polygon tool goes on from an end of path `end.id`: its points become the shape being
    /// drawn (in reverse from its first point), its layer the current one; Enter or a
    /// right-click ends it (the path changed in one undo step), a click on its other end closes
    /// it into a polygon, Esc leaves it as it was.
    pub(crate) fn extend_path(&mut self, end: PathEnd) {
        let Some(index) = self.changeable_object(end.id) else { return };
        let map = &self.document.map;
        let o = &map.objects[index];
        let Some(shape) = o.shape.as_ref() else { return };
        let crate::core::model::object::ShapeKind::Polyline(relative) = &shape.kind else { return };
        let origin = shape.position(o.cell, map.tile_size);
        // On the map, turned as the path is (the draft is drawn unturned).
        let on_map = |p: &[f64; 2]| {
            let [x, y] = crate::core::model::object::rotated(*p, shape.rotation);
            [origin[0] + x, origin[1] + y]
        };
        let mut points: Vec<[f64; 2]> = relative.iter().map(on_map).collect();
        if end.from_start {
            points.reverse();
        }
        let Some(&pointer) = points.last() else { return };
        let layer = o.layer;
        self.editor.set_current_layer(LayerRef::Objects(layer));
        self.editor.shape_draft = Some(ShapeDraft::Points { points, pointer, extends: Some(end) });
        let which = if end.from_start { "first" } else { "last" };
        self.prompts.notice = Some(format!(
            "path #{} goes on from its {which} point: clicks add points, Enter or a right-click ends it, a click \
             on its other end closes it, Esc leaves it as it was",
            end.id
        ));
    }

    /// The path a polygon draft went on from takes the draft's points (in their order again),
    /// as a polygon when `closed`: one undo step.
    pub(crate) fn finish_extension(&mut self, mut points: Vec<[f64; 2]>, end: PathEnd, closed: bool) {
        use crate::core::model::object::ShapeKind;
        let Some(index) = self.changeable_object(end.id) else { return };
        if end.from_start {
            points.reverse();
        }
        let map = &self.document.map;
        let o = &map.objects[index];
        let Some(shape) = &o.shape else { return };
        let origin = shape.position(o.cell, map.tile_size);
        // Back into the path's own frame (unturned, from its origin): it keeps its turn. Its own
        // points come back as they were, not as the turn there and back left them (8 stays 8,
        // not 7.999999999999999, in the file).
        let before: &[[f64; 2]] = match &shape.kind {
            ShapeKind::Polyline(points) | ShapeKind::Polygon(points) => points,
            _ => &[],
        };
        let own = |p: [f64; 2]| before.iter().copied().find(|q| (q[0] - p[0]).abs() + (q[1] - p[1]).abs() < 1e-6);
        let relative: Vec<[f64; 2]> = points
            .iter()
            .map(|p| crate::core::model::object::rotated([p[0] - origin[0], p[1] - origin[1]], -shape.rotation))
            .map(|p| own(p).unwrap_or(p))
            .collect();
        let kind = match relative.len() {
            n if closed && n >= 3 => ShapeKind::Polygon(relative),
            n if n >= 2 => ShapeKind::Polyline(relative),
            _ => {
                self.prompts.notice = Some("the path keeps its points: a path needs two".into());
                return;
            }
        };
        if kind == shape.kind {
            return;
        }
        self.document.checkpoint(&self.editor.selection);
        let shape = self.document.map.objects[index].shape.as_mut().expect("checked above");
        shape.kind = kind;
        let what = shape.describe();
        self.document.touch();
        self.editor.focused_object = Some(end.id);
        self.prompts.notice = Some(format!("object #{} is now a {what}", end.id));
    }

    /// The shape being drawn becomes an object: a drag's box (or point) as the object tool's
    /// choice says; clicked points as a polygon when `closed` (three at least), else as a path
    /// (two at least; fewer are dropped, as in Tiled).
    pub(crate) fn finish_shape(&mut self, closed: bool) {
        let Some(draft) = self.editor.shape_draft.take() else { return };
        if let ShapeDraft::Points { points, extends: Some(end), .. } = draft {
            return self.finish_extension(points, end, closed);
        }
        match draft.shape(self.editor.object, closed) {
            Ok((kind, position)) => self.add_shape(kind, position),
            Err(why) => self.prompts.notice = Some(why.into()),
        }
    }

    /// Adds an object of shape `kind` at `position` (map pixels: its box's top-left corner, a
    /// point's, polygon's or path's origin), with an empty name and class as Tiled's insert
    /// tools make it, on the current object layer (else the topmost, or a new one): one undo
    /// step. It stands on the cell under its centre; the inspector then edits it.
    pub(crate) fn add_shape(&mut self, kind: crate::core::model::object::ShapeKind, position: [f64; 2]) {
        use crate::core::{MapObject, ObjectKind};
        let map = &self.document.map;
        if let crate::core::model::object::ShapeKind::Tile { tile, .. } = kind
            && (tile == crate::core::model::tile::EMPTY || usize::from(tile) >= map.tiles.len())
        {
            self.prompts.notice = Some("choose a tile in the palette to lay it as a tile object".into());
            return;
        }
        let target = self.editor.object_layer.or(map.object_layers.len().checked_sub(1));
        if let Some(refusal) = target.and_then(|j| self.object_layer_refusal(j, "to place objects")) {
            self.prompts.notice = Some(refusal);
            return;
        }
        let Some((cell, shape)) = map.placed_shape(kind, position, 0.0) else {
            self.prompts.notice = Some("nothing drawn: the shape's centre is off the map".into());
            return;
        };
        let what = shape.describe();
        // A point in the middle of its cell is a marker, as a save and a load would make it.
        let shape = Some(shape).filter(|s| !s.is_marker(map.tile_size));
        self.document.checkpoint(&self.editor.selection);
        let map = &mut self.document.map;
        let layer = target.unwrap_or_else(|| map.default_object_layer());
        let object = MapObject { shape, ..MapObject::new(ObjectKind::Other(String::new()), cell) };
        let id = map.add_object(object.on_layer(layer));
        self.document.touch();
        self.editor.focused_object = Some(id);
        let map = &self.document.map;
        let layer_name = map.object_by_id(id).and_then(|o| map.object_layers.get(o.layer)).map_or("", |l| &l.name);
        self.prompts.notice = Some(format!("added {what} as object #{id} on \"{layer_name}\" at {cell}"));
    }

    /// The objects Ctrl+C, Ctrl+X and Delete take, and the rectangle a copy of them spans (the
    /// selection's bounds, when they are the selection's): the object tool's object in hand
    /// alone, unless it is one of those standing on the selected cells of the current object
    /// layer (ringed), which then go together; else those. `None` when neither applies (the
    /// selected cells of a tile layer are what they take); no ids when nothing stands there or
    /// the layer is hidden (the notice says so).
    pub(crate) fn objects_taken(&mut self) -> Option<(Vec<u32>, Option<CellSpan>)> {
        let map = &self.document.map;
        let hand = self.focus().map(|hand| hand.object.id);
        let selected: Vec<u32> = selected_objects(&self.editor, map).iter().map(|o| o.id).collect();
        if let Some(id) = hand.filter(|id| !selected.contains(id)) {
            return Some((vec![id], None));
        }
        let (Some(j), Some(selection)) = (self.editor.object_layer, &self.editor.selection) else { return None };
        if selected.is_empty() {
            let name = map.object_layers.get(j).map_or("", |l| l.name.as_str());
            let shown = map.object_looks().get(j).is_some_and(|l| l.shown);
            self.prompts.notice = Some(if shown {
                format!("no object of \"{name}\" stands on the selected cells")
            } else {
                format!("object layer \"{name}\" is hidden (or in a hidden group): show it to take its objects")
            });
        }
        Some((selected, selection.bounds()))
    }

    /// Copies objects `ids` to the clipboard, as a stamp over `frame` (the selection's
    /// bounding rectangle, when they are the ones standing in the selection) or else the
    /// cells they stand on; with `cut` it removes them too (one undo step; refused whole when
    /// a layer of theirs is locked or hidden). A paste then lays them where they stood in it.
    pub(crate) fn copy_objects(&mut self, ids: &[u32], frame: Option<CellSpan>, cut: bool) {
        let map = &self.document.map;
        let wanted: std::collections::HashSet<u32> = ids.iter().copied().collect();
        let objects: Vec<&crate::core::MapObject> = map.objects.iter().filter(|o| wanted.contains(&o.id)).collect();
        let cells = || objects.iter().map(|o| o.cell);
        let (a, b) = match frame {
            Some(bounds) => bounds,
            None => {
                let (Some(x0), Some(y0)) = (cells().map(|c| c.x).min(), cells().map(|c| c.y).min()) else { return };
                let (x1, y1) = (cells().map(|c| c.x).max().unwrap_or(x0), cells().map(|c| c.y).max().unwrap_or(y0));
                (Cell::new(x0, y0), Cell::new(x1, y1))
            }
        };
        if cut
            && let Some(refusal) = objects.iter().find_map(|o| self.object_layer_refusal(o.layer, "to cut its objects"))
        {
            self.prompts.notice = Some(refusal);
            return;
        }
        let stamp = crate::core::edit::Stamp::of_objects(map, a, b, objects.iter().copied());
        let what = match ids {
            [id] => format!("object #{id}"),
            _ => format!("{} objects", ids.len()),
        };
        self.system_clipboard = Some(stamp.as_text(map));
        let from = self.tile_source();
        self.editor.hold(Some(stamp), Some(a), from);
        if cut {
            self.remove_objects(ids);
            // As in Tiled, a cut leaves nothing selected, so the paste can go anywhere.
            self.editor.selection = None;
            self.prompts.notice = Some(format!("cut {what}: Ctrl+V pastes it"));
        } else {
            self.prompts.notice = Some(format!("copied {what}: Ctrl+V pastes it"));
        }
    }

    /// Removes objects `ids`, one undo step; refused whole (the notice says why) when a layer
    /// of theirs is locked or hidden.
    pub(crate) fn remove_objects(&mut self, ids: &[u32]) {
        let map = &self.document.map;
        let wanted: std::collections::HashSet<u32> = ids.iter().copied().collect();
        let layers = map.objects.iter().filter(|o| wanted.contains(&o.id)).map(|o| o.layer);
        let layers: std::collections::BTreeSet<usize> = layers.collect();
        if let Some(refusal) = layers.iter().find_map(|&j| self.object_layer_refusal(j, "to remove its objects")) {
            self.prompts.notice = Some(refusal);
            return;
        }
        if layers.is_empty() {
            return;
        }
        self.document.checkpoint(&self.editor.selection);
        self.document.map.objects.retain(|o| !wanted.contains(&o.id));
        self.document.touch();
        if self.editor.focused_object.is_some_and(|id| wanted.contains(&id)) {
            self.editor.focused_object = None;
        }
    }

    /// The object a drag from `cell` would move, of those on shown, unlocked object layers:
    /// one standing on the cell, else a zone, path or text whose shape the press at `grab`
    /// (map pixels, and the slack allowed) picks; the one drawn on top (the highest layer, the
    /// last on it).
    pub(crate) fn movable_object_at(
        &self,
        cell: Cell,
        grab: Option<([f64; 2], f64)>,
    ) -> Option<&crate::core::MapObject> {
        let map = &self.document.map;
        let stack = map.stack();
        let height = |layer: usize| stack.iter().position(|&r| r == LayerRef::Objects(layer));
        let looks = map.object_looks();
        let open = |o: &crate::core::MapObject| looks.get(o.layer).is_some_and(|l| l.shown && !l.locked);
        let topmost = |found: &dyn Fn(&crate::core::MapObject) -> bool| {
            map.objects
                .iter()
                .enumerate()
                .filter(|(_, o)| open(o) && found(o))
                .max_by_key(|&(k, o)| (height(o.layer), k))
                .map(|(_, o)| o)
        };
        // The objects standing on the cell first; then a zone, path or text under the press,
        // by its shape (in map pixels from its own cell), as Tiled picks objects.
        let [tw, th] = map.tile_size.map(|t| f64::from(t.max(1)));
        let covers = |o: &crate::core::MapObject| {
            let (Some(shape), Some((at, slack))) = (&o.shape, grab) else { return false };
            // Drawn moved by its layer's offset (and its groups').
            let shift = looks[o.layer].offset;
            let local = [at[0] - f64::from(o.cell.x) * tw - shift[0], at[1] - f64::from(o.cell.y) * th - shift[1]];
            o.visible && shape.covers(local, slack)
        };
        topmost(&|o| o.cell == cell).or_else(|| topmost(&covers))
    }
}
