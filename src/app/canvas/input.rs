//! The canvas's pointer input: clicks and drags turned into commands for the current tool,
//! object handles and shape drafts.

use crate::app::canvas::{self, PointerAction};
use crate::app::overlays::OverlayCommand;
use crate::app::{
    Command, DEFAULT_OBJECT_TEXT, Grip, ObjectChoice, ObjectCommand, ObjectInHand, PathEnd, Resize, SelectionCommand,
    ShapeDraft, SightlineApp, Tool, ToolCommand,
};
use crate::core::Cell;

/// How near (screen pixels) a press must be to a path or a point to pick it for a move.
pub(crate) const GRAB_SLACK_PX: f32 = 5.0;

/// How near (screen pixels) the polygon tool's click must be to the first point to close it.
pub(crate) const POLYGON_CLOSE_PX: f32 = 8.0;

/// How near (screen pixels) a press must be to a handle of the focused object to resize it.
pub(crate) const HANDLE_PICK_PX: f32 = 6.0;

/// A box's eight handles (map pixels): its corners and its edges' middles, each with its place
/// as [`Resize::handle`] says it.
pub(crate) fn object_handles(top_left: [f64; 2], size: [f64; 2]) -> Vec<([i8; 2], [f64; 2])> {
    let mut handles = Vec::with_capacity(8);
    for hy in -1i8..=1 {
        for hx in -1i8..=1 {
            if [hx, hy] != [0, 0] {
                let along = |h: i8, axis: usize| top_left[axis] + size[axis] * f64::from(h + 1) / 2.0;
                handles.push(([hx, hy], [along(hx, 0), along(hy, 1)]));
            }
        }
    }
    handles
}

impl SightlineApp {
    /// The corner or edge of the chosen terrain's set nearest `point` (in cells), when the
    /// terrain brush is out and the point is over the map.
    pub(crate) fn terrain_spot_at(&self, point: Option<egui::Pos2>) -> Option<crate::core::edit::terrain::Part> {
        let brush = self.editor.terrain.filter(|_| self.editor.tool == Tool::Terrain)?;
        let set = self.document.map.sheets.get(brush.sheet)?.wang_sets.get(brush.set)?;
        let p = point?;
        let map = &self.document.map;
        let on_map = p.x >= 0.0 && p.y >= 0.0 && p.x <= map.width() as f32 && p.y <= map.height() as f32;
        on_map.then(|| crate::core::edit::terrain::Part::nearest(set.kind, p.x, p.y))
    }

    /// The grips of the object in hand (Tiled's Select Objects handles, Edit Polygons points):
    /// a press on one begins a reshape, whose drag moves that corner, edge or point to the
    /// pointer (snapped as the tools bar says) and whose release ends it. True when the
    /// pointer went to a reshape.
    pub(crate) fn resize_pointer_action(
        &mut self,
        response: &canvas::CanvasResponse,
        modifiers: egui::Modifiers,
    ) -> bool {
        let map = &self.document.map;
        let snap = self.editor.snap.toggled(modifiers.command || modifiers.ctrl, modifiers.shift);
        if let Some(resize) = self.editor.resizing {
            match response.pointer {
                Some(PointerAction::Dragged(_)) => {
                    let Some(ObjectInHand { object: o, shift, .. }) = self.focus() else { return true };
                    let Some(g) = response.grid_point else { return true };
                    // The pointer on the layer's own grid (it is drawn moved by its offset).
                    let pointer = canvas::pixels_from_grid(g, map.tile_size, shift);
                    let to = snap.point(pointer, map.tile_size);
                    let Some(shape) = &o.shape else { return true };
                    let rotation = shape.rotation;
                    // A turned shape's grip goes where the pointer is in the shape's own frame
                    // (unturned, from its `origin`), snapped there, so its sizes and points stay
                    // whole cells or pixels of its own.
                    let own = |origin: [f64; 2]| {
                        let from = [pointer[0] - origin[0], pointer[1] - origin[1]];
                        snap.point(crate::core::model::object::rotated(from, -rotation), map.tile_size)
                    };
                    let id = resize.id;
                    match resize.grip {
                        Grip::Box { handle, top_left, size } => {
                            let (position, size) = if rotation == 0.0 {
                                crate::core::model::object::resized_box(top_left, size, handle, to)
                            } else {
                                crate::core::model::object::resized_turned_box(
                                    top_left,
                                    size,
                                    rotation,
                                    handle,
                                    own(top_left),
                                )
                            };
                            if (shape.position(o.cell, map.tile_size), shape.kind.size()) != (position, Some(size)) {
                                let size = Some(size);
                                self.commands.push(Command::Objects(ObjectCommand::SetObjectGeometry {
                                    id,
                                    position,
                                    size,
                                    rotation,
                                }));
                            }
                        }
                        // A middle's press became a point's (below).
                        Grip::Midpoint { .. } => {}
                        Grip::Point { index, origin } => {
                            use crate::core::model::object::ShapeKind;
                            let (ShapeKind::Polygon(now) | ShapeKind::Polyline(now)) = &shape.kind else {
                                return true;
                            };
                            let moved =
                                if rotation == 0.0 { [to[0] - origin[0], to[1] - origin[1]] } else { own(origin) };
                            if now.get(index).is_some_and(|p| *p != moved) {
                                let mut points = now.clone();
                                points[index] = moved;
                                self.commands.push(Command::Objects(ObjectCommand::SetObjectPoints { id, points }));
                            }
                        }
                    }
                }
                Some(PointerAction::Released) => self.commands.push(Command::Objects(ObjectCommand::EndResize)),
                // A press while a resize is on: its release was lost (Space held, say). It
                // ends, and the press goes on to the tool.
                Some(_) => {
                    self.commands.push(Command::Objects(ObjectCommand::EndResize));
                    return false;
                }
                None => {}
            }
            return true;
        }
        let (right, press) = match response.pointer {
            Some(PointerAction::Pressed { .. }) => (false, response.press_point),
            Some(PointerAction::SecondaryClicked(_)) => (true, response.grid_point),
            _ => return false,
        };
        let Some(press) = press else { return false };
        // A press while a shape is being drawn goes on drawing it, near a grip or not.
        if self.editor.shape_draft.is_some() {
            return false;
        }
        let Some(ObjectInHand { object: o, grips, shift }) = self.focus() else { return false };
        let screen = |p: [f64; 2]| self.view.screen_from_layer_pixels(p, shift, map.tile_size);
        let pressed = self.view.screen_from_grid_point(press);
        // The nearest grip within reach (a path's points may lie close together).
        let grip = grips
            .iter()
            .map(|&(grip, p)| (grip, (screen(p) - pressed).length()))
            .filter(|&(_, d)| d <= HANDLE_PICK_PX)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(grip, _)| grip);
        let Some(grip) = grip else { return false };
        let points = match o.shape.as_ref().map(|s| &s.kind) {
            Some(
                crate::core::model::object::ShapeKind::Polygon(p) | crate::core::model::object::ShapeKind::Polyline(p),
            ) => p.clone(),
            _ => Vec::new(),
        };
        let id = o.id;
        match (right, grip) {
            // A right-click on a point takes it away (Tiled's Delete Nodes), its own undo step.
            (true, Grip::Point { index, .. }) => {
                let mut points = points;
                points.remove(index);
                self.commands.extend([
                    Command::Objects(ObjectCommand::SetObjectPoints { id, points }),
                    Command::Objects(ObjectCommand::EndContinuedEdit),
                ]);
            }
            (true, _) => return false,
            // A middle's drag lays a point there, then moves it: one undo step.
            (false, Grip::Midpoint { after, origin }) => {
                let (a, b) = (points[after], points[(after + 1) % points.len()]);
                let mut points = points;
                points.insert(after + 1, [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]);
                let grip = Grip::Point { index: after + 1, origin };
                self.commands.extend([
                    Command::Objects(ObjectCommand::BeginResize(Resize { id, grip })),
                    Command::Objects(ObjectCommand::SetObjectPoints { id, points }),
                ]);
            }
            (false, grip) => self.commands.push(Command::Objects(ObjectCommand::BeginResize(Resize { id, grip }))),
        }
        true
    }

    /// Turns the canvas' pointer into commands for the object tool drawing Tiled shapes, as
    /// Tiled's insert tools do: a box drags from press to release (Shift: a square or a
    /// circle), a click covers the cell (Tiled makes a box of no size), places a point, or a
    /// text at its own size; the polygon tool's clicks lay points, a click on the first point
    /// closes it, a right-click ends it as a path. Points snap as the tools bar says, Ctrl and
    /// Ctrl+Shift toggling it (Tiled's `SnapHelper`). A right-click with no shape being
    /// drawn removes the objects on the cell, as with the other objects.
    pub(crate) fn shape_pointer_action(
        &mut self,
        response: &canvas::CanvasResponse,
        modifiers: egui::Modifiers,
        text_size: [f64; 2],
    ) {
        use crate::core::model::object::ShapeKind;
        let map = &self.document.map;
        let [tw, th] = map.tile_size.map(|t| f64::from(t.max(1)));
        let snap = self.editor.snap.toggled(modifiers.command || modifiers.ctrl, modifiers.shift);
        // The pointer on the new object's layer, which is drawn moved by its offset: the shape
        // lands where it is drawn, and snaps to that layer's grid.
        let shift = self.new_object_shift();
        let local = |g: egui::Pos2| canvas::pixels_from_grid(g, map.tile_size, shift);
        let snapped = |g: egui::Pos2| snap.point(local(g), map.tile_size);
        let choice = self.editor.object;
        let draft = self.editor.shape_draft.as_ref();
        let Some(pointer) = response.grid_point.map(snapped) else { return };
        if choice == ObjectChoice::Polygon {
            // Within a few screen pixels of the first point, a click closes (three points down).
            let (on_first, count) = match draft {
                Some(ShapeDraft::Points { points, .. }) => {
                    let screen = |p: [f64; 2]| self.view.screen_from_pixels(p, map.tile_size);
                    ((screen(points[0]) - screen(pointer)).length() <= POLYGON_CLOSE_PX, points.len())
                }
                _ => (false, 0),
            };
            let closes = on_first && count >= 3;
            match response.pointer {
                // Two points and a click on the first: no polygon yet, and no path that doubles
                // back on itself either.
                Some(PointerAction::Clicked(_) | PointerAction::Pressed { .. }) if on_first && count == 2 => {
                    self.prompts.notice = Some("a polygon needs three points: lay one more before closing it".into());
                }
                // A click on either end of the path in hand goes on from it.
                Some(PointerAction::Clicked(_))
                    if let Some(end) = draft.is_none().then(|| self.path_end_at(response, pointer)).flatten() =>
                {
                    self.commands.push(Command::Objects(ObjectCommand::ExtendPath(end)));
                }
                Some(PointerAction::Clicked(_) | PointerAction::Pressed { .. }) if closes => {
                    self.commands.push(Command::Objects(ObjectCommand::FinishShape { closed: true }));
                }
                Some(PointerAction::Clicked(_) | PointerAction::Pressed { .. }) => {
                    self.commands.push(Command::Objects(ObjectCommand::AddShapePoint(pointer)));
                }
                Some(PointerAction::SecondaryClicked(_)) if draft.is_some() => {
                    self.commands.push(Command::Objects(ObjectCommand::FinishShape { closed: false }));
                }
                Some(PointerAction::SecondaryClicked(c)) => {
                    self.commands.push(Command::Objects(ObjectCommand::RemoveObjectsAt(c)))
                }
                _ => {
                    // The rubber band follows the pointer (onto the first point when it would close).
                    if let Some(ShapeDraft::Points { points, pointer: shown, extends }) = draft {
                        let to = if closes { points[0] } else { pointer };
                        if *shown != to {
                            let (points, extends) = (points.clone(), *extends);
                            let draft = ShapeDraft::Points { points, pointer: to, extends };
                            self.commands.push(Command::Objects(ObjectCommand::SetShapeDraft(Some(draft))));
                        }
                    }
                }
            }
            return;
        }
        let square = modifiers.shift;
        // A press on an object picks it, as LDtk's entity layers do: a drag moves it, a click
        // gives it to the inspector; Alt draws over it instead.
        let raw = |g: egui::Pos2| canvas::pixels_from_grid(g, map.tile_size, [0.0, 0.0]);
        let slack = f64::from(GRAB_SLACK_PX / self.view.cell_px) * tw;
        let pick = |at: Option<egui::Pos2>, cell: Cell| {
            let grab = at.map(|g| (raw(g), slack));
            self.movable_object_at(cell, grab).filter(|_| !modifiers.alt).map(|o| o.id)
        };
        let picked = match response.pointer {
            Some(PointerAction::Pressed { origin, .. }) => pick(response.press_point, origin),
            Some(PointerAction::Clicked(c)) => pick(response.grid_point, c),
            _ => None,
        };
        if self.editor.moving_object.is_some() {
            match response.pointer {
                Some(PointerAction::Dragged(c)) => {
                    return self.commands.push(Command::Tools(ToolCommand::StrokeMove(c)));
                }
                Some(PointerAction::Released) => return self.commands.push(Command::Tools(ToolCommand::StrokeEnd)),
                None => return,
                // A press while a move is on: its release was lost. It ends, and the press
                // goes on.
                Some(_) => self.commands.push(Command::Tools(ToolCommand::StrokeEnd)),
            }
        }
        match response.pointer {
            Some(PointerAction::Pressed { origin, current }) if draft.is_none() && picked.is_some() => {
                // `GrabAt` is sent: `StrokeBegin` picks the same object.
                self.commands.extend([
                    Command::Tools(ToolCommand::StrokeBegin(origin)),
                    Command::Tools(ToolCommand::StrokeMove(current)),
                ]);
            }
            Some(PointerAction::Clicked(_)) if let Some(id) = picked => {
                self.commands.push(Command::Objects(ObjectCommand::FocusObject(id)));
            }
            // A tile object is placed by a click; a drag places nothing.
            Some(PointerAction::Pressed { .. } | PointerAction::Dragged(_) | PointerAction::Released)
                if choice == ObjectChoice::TileObject => {}
            Some(PointerAction::Pressed { .. }) => {
                let start = response.press_point.map_or(pointer, snapped);
                let draft = ShapeDraft::Box { start, end: pointer, square };
                self.commands.push(Command::Objects(ObjectCommand::SetShapeDraft(Some(draft))));
            }
            Some(PointerAction::Dragged(_)) => {
                if let Some(&ShapeDraft::Box { start, end, square: was }) = draft
                    && (end != pointer || was != square)
                {
                    self.commands.push(Command::Objects(ObjectCommand::SetShapeDraft(Some(ShapeDraft::Box {
                        start,
                        end: pointer,
                        square,
                    }))));
                }
            }
            Some(PointerAction::Released) => {
                self.commands.push(Command::Objects(ObjectCommand::FinishShape { closed: false }))
            }
            Some(PointerAction::Clicked(_)) => {
                // The layer's cell under the pointer.
                let at = response.grid_point.map_or([0.0, 0.0], local);
                let cell_box = [(at[0] / tw).floor() * tw, (at[1] / th).floor() * th];
                let (kind, position) = match choice {
                    ObjectChoice::Point => (ShapeKind::Point, pointer),
                    ObjectChoice::Ellipse => (ShapeKind::Ellipse { width: tw, height: th }, cell_box),
                    ObjectChoice::Capsule => (ShapeKind::Capsule { width: tw, height: th }, cell_box),
                    ObjectChoice::Text => {
                        // Centred on the pointer, its corner snapped (Tiled's Insert Text).
                        let [w, h] = text_size;
                        let corner = snap.point([at[0] - w / 2.0, at[1] - h / 2.0], map.tile_size);
                        let text = Box::new(crate::core::model::object::ObjectText::new(DEFAULT_OBJECT_TEXT));
                        (ShapeKind::Text { width: w, height: h, text }, corner)
                    }
                    ObjectChoice::TileObject => {
                        // The brush's tile at its image's size, centred on the pointer, its
                        // corner snapped (Tiled's Insert Tile); its position is where its
                        // tileset's alignment says on its box.
                        let (tile, flip) = (self.editor.tile, self.editor.flip);
                        let ([ax, ay], [w, h]) = map.tile_object_anchor(tile);
                        let corner = snap.point([at[0] - w / 2.0, at[1] - h / 2.0], map.tile_size);
                        (ShapeKind::Tile { tile, flip, width: w, height: h }, [corner[0] + ax * w, corner[1] + ay * h])
                    }
                    _ => (ShapeKind::Rectangle { width: tw, height: th }, cell_box),
                };
                self.commands.push(Command::Objects(ObjectCommand::AddShape(kind, position)));
            }
            Some(PointerAction::SecondaryClicked(c)) => {
                if draft.is_some() {
                    // Tiled: a right-click in the middle of a drag drops the shape.
                    self.commands.push(Command::Objects(ObjectCommand::SetShapeDraft(None)));
                } else {
                    self.commands.push(Command::Objects(ObjectCommand::RemoveObjectsAt(c)));
                }
            }
            None => {}
        }
    }

    /// Turns the canvas' pointer action into commands: marker drags for the pathfinding overlay,
    /// probe clicks for the overlays, strokes for the painting tools.
    pub(crate) fn pointer_action(&mut self, pointer: Option<PointerAction>, modifiers: egui::Modifiers) {
        let probe = self.editor.tool == Tool::Probe;
        let shift = modifiers.shift;
        // The keys held as a press or click begins: Shift draws a brush line or fills the whole
        // selection; with a selection tool, Shift, Ctrl or both choose how the pick combines.
        if matches!(pointer, Some(PointerAction::Pressed { .. } | PointerAction::Clicked(_))) {
            if self.editor.tool == Tool::Fill {
                self.commands.push(Command::Selection(SelectionCommand::SetFillSelection(shift)));
            }
            if self.editor.tool.selects() {
                let held =
                    crate::core::edit::selection::SelectionMode::from_keys(shift, modifiers.command || modifiers.ctrl);
                self.commands.push(Command::Selection(SelectionCommand::HoldSelectionMode(held)));
            }
        }
        match pointer {
            Some(PointerAction::Pressed { origin, current }) => {
                if self.editor.tool == Tool::Brush || self.editor.pasting {
                    self.commands.push(Command::Tools(ToolCommand::SetLineStroke(shift)));
                }
                if self.editor.pasting {
                    // The stamp follows the pointer whatever the tool: a drag lays it.
                    self.commands.extend([
                        Command::Tools(ToolCommand::StrokeBegin(origin)),
                        Command::Tools(ToolCommand::StrokeMove(current)),
                    ]);
                } else if let Some(marker) = self.overlays.path.marker_at(origin) {
                    self.overlays.path.dragging = Some(marker);
                    self.commands.push(Command::Overlay(OverlayCommand::MoveMarker(marker, current)));
                } else if !probe {
                    self.commands.extend([
                        Command::Tools(ToolCommand::StrokeBegin(origin)),
                        Command::Tools(ToolCommand::StrokeMove(current)),
                    ]);
                }
            }
            Some(PointerAction::Dragged(c)) => match self.overlays.path.dragging {
                Some(marker) => self.commands.push(Command::Overlay(OverlayCommand::MoveMarker(marker, c))),
                None if !probe || self.editor.stamp_stroke.is_some() => {
                    self.commands.push(Command::Tools(ToolCommand::StrokeMove(c)))
                }
                None => {}
            },
            Some(PointerAction::Released) => {
                let moved_marker = self.overlays.path.dragging.take().is_some();
                if !moved_marker && (!probe || self.editor.stamp_stroke.is_some()) {
                    self.commands.push(Command::Tools(ToolCommand::StrokeEnd));
                }
            }
            Some(PointerAction::Clicked(c)) => {
                if self.editor.pasting {
                    self.commands.push(Command::Selection(SelectionCommand::PasteAt(c)));
                } else if probe {
                    self.commands.push(Command::Overlay(OverlayCommand::Probe(c)));
                } else if self.editor.tool == Tool::Object {
                    self.commands.push(Command::Objects(ObjectCommand::PlaceObject(c)));
                } else {
                    self.commands
                        .extend([Command::Tools(ToolCommand::StrokeBegin(c)), Command::Tools(ToolCommand::StrokeEnd)]);
                }
            }
            Some(PointerAction::SecondaryClicked(c)) => {
                if self.editor.pasting {
                    self.commands.push(Command::Selection(SelectionCommand::CancelSelection));
                } else if self.editor.tool == Tool::Object {
                    self.commands.push(Command::Objects(ObjectCommand::RemoveObjectsAt(c)));
                } else if self.editor.tool.selects() {
                    // As in Tiled, a right-click with a selection tool selects nothing.
                    self.commands.push(Command::Selection(SelectionCommand::SelectNone));
                } else {
                    self.commands.push(Command::Tools(ToolCommand::PickAt(c)));
                }
            }
            None => {}
        }
    }

    /// The end of the path in hand (its first or last point) under the pointer, or where the
    /// pointer snaps (`snapped`, on the layer's own grid), when there is such a path and it may
    /// change.
    pub(crate) fn path_end_at(&self, response: &canvas::CanvasResponse, snapped: [f64; 2]) -> Option<PathEnd> {
        let map = &self.document.map;
        let at = response.grid_point?;
        let ObjectInHand { object: o, grips, shift } = self.focus()?;
        let crate::core::model::object::ShapeKind::Polyline(points) = &o.shape.as_ref()?.kind else { return None };
        let last = points.len().checked_sub(1)?;
        let screen = |p: [f64; 2]| self.view.screen_from_layer_pixels(p, shift, map.tile_size);
        let pointer = self.view.screen_from_grid_point(at);
        grips.iter().find_map(|&(grip, p)| match grip {
            Grip::Point { index, .. }
                if (index == 0 || index == last)
                    && (p == snapped || (screen(p) - pointer).length() <= HANDLE_PICK_PX) =>
            {
                Some(PathEnd { id: o.id, from_start: index == 0 && last > 0 })
            }
            _ => None,
        })
    }
}
