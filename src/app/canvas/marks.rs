//! What the canvas draws over the map besides the overlays: the selection, the object in hand
//! and its handles, shape drafts, pasted objects, the split view's side labels.

use super::input::{POLYGON_CLOSE_PX, object_handles};
use crate::app::canvas::{self, View};
use crate::app::overlays::Overlays;
use crate::app::{DEFAULT_OBJECT_TEXT, EditorState, Grip, ObjectChoice, ShapeDraft, Tool, algorithms};
use crate::core::Cell;
use crate::core::edit::selection::Selection;

/// The light blue the selection is washed with.
pub(crate) const SELECTION_WASH: egui::Color32 = egui::Color32::from_rgba_premultiplied(14, 21, 30, 30);

/// The selection over the visible cells: a light wash over its cells and a line along its
/// outline, drawn a row of cells at a time (a run of selected cells is one rectangle). Zoomed
/// out, where a cell is a few pixels and a ragged selection would be millions of runs, it is
/// its `picture` instead, the wash without the outline, as the map is its texture there.
/// The object the object tool has in hand (see [`SightlineApp::focus`]).
#[derive(Clone)]
pub(crate) struct ObjectInHand<'a> {
    pub(crate) object: &'a crate::core::MapObject,
    /// Its grips and where they are (map pixels, the layer's offset left out): a box's eight
    /// handles, a polygon's or path's points, turned as it is; none when it may not change.
    pub(crate) grips: Vec<(Grip, [f64; 2])>,
    /// Its layer's offset (its groups' added): it is drawn moved by it.
    pub(crate) shift: [f64; 2],
}

/// [`SightlineApp::focus`], of `editor` on `map`.
pub(crate) fn object_focus<'a>(editor: &EditorState, map: &'a crate::core::Map) -> Option<ObjectInHand<'a>> {
    use crate::core::model::object::ShapeKind;
    let o = map.object_by_id(editor.focused_object.filter(|_| editor.tool == Tool::Object)?)?;
    // Not on a hidden layer (or in a hidden group): Tiled picks only what it shows.
    let look = map.object_looks().get(o.layer).copied().filter(|l| l.shown)?;
    let shape = o.shape.as_ref().filter(|_| !look.locked);
    let grips = match shape.map(|s| (s, s.position(o.cell, map.tile_size))) {
        Some((s, origin)) => match &s.kind {
            ShapeKind::Polygon(points) | ShapeKind::Polyline(points) => {
                // A point of the shape's own (unturned, from its origin) on the map.
                let at = |p: [f64; 2]| {
                    let [x, y] = crate::core::model::object::rotated(p, s.rotation);
                    [origin[0] + x, origin[1] + y]
                };
                let closed = matches!(s.kind, ShapeKind::Polygon(_));
                let segments = if closed { points.len() } else { points.len().saturating_sub(1) };
                let middles = (0..segments).map(|after| {
                    let (a, b) = (points[after], points[(after + 1) % points.len()]);
                    (Grip::Midpoint { after, origin }, at([(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]))
                });
                // The points after the middles: where they meet (a short segment), a point wins.
                middles
                    .chain(points.iter().enumerate().map(|(index, &p)| (Grip::Point { index, origin }, at(p))))
                    .collect()
            }
            ShapeKind::Tile { .. } => Vec::new(),
            // A turned box's handles turn with it, about its top-left corner (its origin).
            kind => match kind.size() {
                Some(size) => object_handles([0.0, 0.0], size)
                    .into_iter()
                    .map(|(handle, p)| {
                        let [x, y] = crate::core::model::object::rotated(p, s.rotation);
                        (Grip::Box { handle, top_left: origin, size }, [origin[0] + x, origin[1] + y])
                    })
                    .collect(),
                None => Vec::new(),
            },
        },
        None => Vec::new(),
    };
    Some(ObjectInHand { object: o, grips, shift: look.offset })
}

/// The objects standing on the selected cells of `editor`'s current object layer (when it is
/// shown): what Ctrl+C, Ctrl+X and Delete take there, ringed on the canvas.
pub(crate) fn selected_objects<'a>(editor: &EditorState, map: &'a crate::core::Map) -> Vec<&'a crate::core::MapObject> {
    let (Some(j), Some(selection)) = (editor.object_layer, &editor.selection) else { return Vec::new() };
    if !map.object_looks().get(j).is_some_and(|l| l.shown) {
        return Vec::new();
    }
    map.objects.iter().filter(|o| o.layer == j && selection.contains(o.cell)).collect()
}

/// White over a dark rim: a ring seen on any tile.
pub(crate) const RING_STROKES: [egui::Stroke; 2] = [
    egui::Stroke { width: 4.0, color: egui::Color32::from_rgba_premultiplied(0, 0, 0, 160) },
    egui::Stroke { width: 1.5, color: egui::Color32::WHITE },
];

/// The object the object tool has in hand, ringed: its outline (or its text's box, its tile's
/// image, its cell), and the handles that resize its box. `shift`: its layer's offset.
pub(crate) fn draw_object_focus(painter: &egui::Painter, view: &View, map: &crate::core::Map, hand: &ObjectInHand) {
    let ObjectInHand { object: o, grips, shift } = hand;
    draw_object_ring(painter, view, map, o, *shift, &RING_STROKES);
    let shift = *shift;
    let screen = |p: [f64; 2]| view.screen_from_layer_pixels(p, shift, map.tile_size);
    let rim = egui::Stroke::new(1.0, egui::Color32::BLACK);
    for &(grip, p) in grips {
        match grip {
            // A box's handles are squares, a polygon's points discs, as in Tiled.
            Grip::Box { .. } => {
                let rect = egui::Rect::from_center_size(screen(p), egui::vec2(7.0, 7.0));
                painter.rect(rect, 0.0, egui::Color32::WHITE, rim, egui::StrokeKind::Outside);
            }
            Grip::Point { .. } => {
                painter.circle(screen(p), 4.0, egui::Color32::WHITE, rim);
            }
            // A segment's middle: a hollow ring, to drag a new point out of.
            Grip::Midpoint { .. } => {
                painter.circle(
                    screen(p),
                    3.0,
                    egui::Color32::from_black_alpha(120),
                    egui::Stroke::new(1.0, egui::Color32::WHITE),
                );
            }
        }
    }
}

/// The colour of what a click would add: a shape being drawn, the objects a paste would lay.
pub(crate) const TO_BE_ADDED: egui::Color32 = egui::Color32::from_rgb(255, 200, 60);

/// The objects a click of the paste would lay, where they would stand: each one's outline (its
/// text's box, its tile's image) or, for a game object, its cell and its glyph. `shift`: the
/// offset of the layer they would go on.
pub(crate) fn draw_pasted_objects(
    painter: &egui::Painter,
    view: &View,
    map: &crate::core::Map,
    objects: &[crate::core::MapObject],
    shift: [f64; 2],
) {
    let strokes = [egui::Stroke::new(3.0, egui::Color32::from_black_alpha(120)), egui::Stroke::new(1.5, TO_BE_ADDED)];
    for o in objects {
        draw_object_ring(painter, view, map, o, shift, &strokes);
        if o.shape.is_none() {
            let font = egui::FontId::monospace((view.cell_px * 0.8).clamp(6.0, 40.0));
            painter.text(
                view.cell_rect(o.cell).center(),
                egui::Align2::CENTER_CENTER,
                o.kind.glyph(),
                font,
                TO_BE_ADDED,
            );
        }
    }
}

/// Object `o` ringed with `strokes` (drawn in turn): its outline, its text's box or its tile's
/// image, else its cell. `shift`: its layer's offset.
pub(crate) fn draw_object_ring(
    painter: &egui::Painter,
    view: &View,
    map: &crate::core::Map,
    o: &crate::core::MapObject,
    shift: [f64; 2],
    strokes: &[egui::Stroke],
) {
    let screen = |p: [f64; 2]| view.screen_from_layer_pixels(p, shift, map.tile_size);
    let cell_px = canvas::pixels_from_grid(egui::pos2(o.cell.x as f32, o.cell.y as f32), map.tile_size, [0.0, 0.0]);
    let placed = |p: [f64; 2]| screen([p[0] + cell_px[0], p[1] + cell_px[1]]);
    let sheet_corners = |s: &crate::core::model::object::ObjectShape| {
        let crate::core::model::object::ShapeKind::Tile { tile, .. } = s.kind else { return None };
        let sprite = map.tiles.get(usize::from(tile))?.sprite?;
        let sheet = map.sheets.get(usize::from(sprite.sheet))?;
        let image = [f64::from(sheet.tile_width), f64::from(sheet.tile_height)];
        s.tile_corners(&sheet.drawing, image, sheet.offset.map(f64::from))
    };
    let outline: Option<(Vec<egui::Pos2>, bool)> = o.shape.as_ref().and_then(|s| {
        if let Some((points, closed)) = s.outline() {
            return Some((points.into_iter().map(placed).collect(), closed));
        }
        let [a, b, c, d] = s.text_corners().or_else(|| sheet_corners(s))?;
        Some(([a, b, d, c].into_iter().map(placed).collect(), true))
    });
    for &stroke in strokes {
        match &outline {
            Some((points, true)) => {
                painter.add(egui::Shape::closed_line(points.clone(), stroke));
            }
            Some((points, false)) => {
                painter.add(egui::Shape::line(points.clone(), stroke));
            }
            // A point or a game object: its cell (a marker stays on its cell, whatever its
            // layer's offset).
            None => {
                painter.rect_stroke(view.cell_rect(o.cell), 0.0, stroke, egui::StrokeKind::Outside);
            }
        }
    }
}

/// The shape the object tool is drawing, as it will be made (`draft` as `choice`): its outline
/// (a text's box, a point's ring), and a polygon's points with the rubber band to the pointer.
pub(crate) fn draw_shape_draft(
    painter: &egui::Painter,
    view: &View,
    tile_size: [u32; 2],
    draft: Option<(&ShapeDraft, ObjectChoice)>,
    shift: [f64; 2],
) {
    use crate::core::model::object::{ObjectShape, ShapeKind};
    let Some((draft, choice)) = draft else { return };
    let screen = |p: [f64; 2]| view.screen_from_layer_pixels(p, shift, tile_size);
    let stroke = egui::Stroke::new(1.5, TO_BE_ADDED);
    let handle = |p: egui::Pos2| {
        painter.circle(p, 3.5, egui::Color32::BLACK, stroke);
    };
    if let ShapeDraft::Points { points, pointer, .. } = draft {
        let mut line: Vec<egui::Pos2> = points.iter().map(|&p| screen(p)).collect();
        line.push(screen(*pointer));
        painter.add(egui::Shape::line(line, stroke));
        for &p in points {
            handle(screen(p));
        }
        // The first point, ringed once a click there would close the polygon.
        if points.len() >= 3 {
            painter.circle_stroke(screen(points[0]), POLYGON_CLOSE_PX, stroke);
        }
        return;
    }
    let Ok((kind, position)) = draft.shape(choice, false) else {
        // A box of no area yet: its corner.
        if let ShapeDraft::Box { start, .. } = draft {
            handle(screen(*start));
        }
        return;
    };
    let shape = ObjectShape { offset: position, rotation: 0.0, kind };
    match (&shape.kind, shape.outline(), shape.text_corners()) {
        (_, Some((points, closed)), _) => {
            let points: Vec<egui::Pos2> = points.into_iter().map(screen).collect();
            painter.add(if closed {
                egui::Shape::closed_line(points, stroke)
            } else {
                egui::Shape::line(points, stroke)
            });
        }
        (_, None, Some([top_left, _, _, bottom_right])) => {
            let rect = egui::Rect::from_two_pos(screen(top_left), screen(bottom_right));
            painter.rect_stroke(rect, 0.0, stroke, egui::StrokeKind::Middle);
            painter.text(
                rect.left_top(),
                egui::Align2::LEFT_TOP,
                DEFAULT_OBJECT_TEXT,
                egui::FontId::proportional(12.0),
                TO_BE_ADDED,
            );
        }
        (ShapeKind::Point, ..) => handle(screen(position)),
        _ => {}
    }
}

pub(crate) fn draw_selection(
    painter: &egui::Painter,
    view: &View,
    visible: canvas::VisibleCells,
    selection: Option<&Selection>,
    picture: Option<egui::TextureId>,
) {
    use crate::core::edit::selection::runs_minus;
    let Some(s) = selection else { return };
    if view.cell_px < canvas::MIN_MESH_PX
        && let Some(texture) = picture
    {
        let step = selection_picture_step(s);
        let covered = egui::vec2(s.width().div_ceil(step) as f32, s.height().div_ceil(step) as f32) * step as f32;
        let rect = egui::Rect::from_min_size(view.screen_from_grid(Cell::new(0, 0)), covered * view.cell_px);
        let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
        // The texels are opaque; the tint makes them the wash.
        painter.image(texture, rect, uv, egui::Color32::from_white_alpha(90));
        return;
    }
    // The wash is one mesh of plain quads: rectangles painted one by one are each feathered
    // at their edges, which showed a seam between rows.
    let mut wash = egui::Mesh::default();
    // Under the outline, which is painted as the rows go.
    let wash_slot = painter.add(egui::Shape::Noop);
    let stroke = egui::Stroke::new(1.5, egui::Color32::from_rgb(120, 180, 255));
    let (x0, x1) = (visible.x0, visible.x1 - 1);
    let span = |y: i32, (a, b): (i32, i32)| {
        egui::Rect::from_min_max(view.cell_rect(Cell::new(a, y)).min, view.cell_rect(Cell::new(b, y)).max)
    };
    let mut above = s.runs_in_row(visible.y0 - 1, x0, x1);
    let mut row = s.runs_in_row(visible.y0, x0, x1);
    for y in visible.y0..visible.y1 {
        let below = s.runs_in_row(y + 1, x0, x1);
        for &run in &row {
            let r = span(y, run);
            wash.add_colored_rect(r, SELECTION_WASH);
            // A run's ends are the outline, unless the view cuts the run.
            if !s.contains(Cell::new(run.0 - 1, y)) {
                painter.line_segment([r.left_top(), r.left_bottom()], stroke);
            }
            if !s.contains(Cell::new(run.1 + 1, y)) {
                painter.line_segment([r.right_top(), r.right_bottom()], stroke);
            }
        }
        for run in runs_minus(&row, &above) {
            let r = span(y, run);
            painter.line_segment([r.left_top(), r.right_top()], stroke);
        }
        for run in runs_minus(&row, &below) {
            let r = span(y, run);
            painter.line_segment([r.left_bottom(), r.right_bottom()], stroke);
        }
        above = std::mem::replace(&mut row, below);
    }
    painter.set(wash_slot, egui::Shape::mesh(wash));
}

/// How many cells a side of one texel of the selection's picture covers.
pub(crate) fn selection_picture_step(s: &Selection) -> u32 {
    s.width().max(s.height()).div_ceil(canvas::MAX_TEXTURE_SIDE).max(1)
}

/// The selection's picture: a light blue texel where any cell of its block is selected,
/// transparent elsewhere.
pub(crate) fn selection_image(s: &Selection) -> egui::ColorImage {
    let step = selection_picture_step(s);
    let (w, h) = (s.width().div_ceil(step) as usize, s.height().div_ceil(step) as usize);
    let mut pixels = vec![egui::Color32::TRANSPARENT; w * h];
    for c in s.cells() {
        pixels[(c.y as usize / step as usize) * w + c.x as usize / step as usize] =
            egui::Color32::from_rgb(120, 180, 255);
    }
    egui::ColorImage::new([w, h], pixels)
}

/// "A: Dijkstra" in the corner of a split canvas.
pub(crate) fn side_label(painter: &egui::Painter, view: &View, side: usize, overlays: &Overlays) {
    let name = match &overlays.path.sides {
        Some(sides) => sides[side].name.clone(),
        None => algorithms::path_label(overlays.path.settings.sides[side].algorithm).to_string(),
    };
    let text = format!("{}: {name}", ["A", "B"][side]);
    let pos = view.canvas.left_top() + egui::vec2(8.0, 6.0);
    let galley = painter.layout_no_wrap(text, egui::FontId::proportional(15.0), egui::Color32::WHITE);
    painter.rect_filled(
        egui::Rect::from_min_size(pos, galley.size()).expand(4.0),
        3.0,
        egui::Color32::from_black_alpha(180),
    );
    painter.galley(pos, galley, egui::Color32::WHITE);
}
