//! The object tool drawing Tiled's shapes: rectangles, ellipses, points, polygons, paths and
//! text, and their handles.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sightline::app::{Command, HistoryCommand, LayerCommand, ObjectCommand, SightlineApp};

use crate::common::{self, click_cell};
use crate::{drag_grid_holding, drag_through, grid_point, h_notice, harness, object_tool_on_floor, right_click_cell};

/// A click at grid point `x`, `y` (in cells from the map's top-left corner).
fn click_grid(h: &mut Harness<'static, SightlineApp>, x: f32, y: f32) {
    let p = grid_point(h, x, y);
    common::click_at(h, p);
}

/// The objects as `(cell, shape)`, newest last.
fn drawn_shapes(
    h: &Harness<'static, SightlineApp>,
) -> Vec<(sightline::core::Cell, Option<sightline::core::model::object::ShapeKind>)> {
    h.state().document.map.objects.iter().map(|o| (o.cell, o.shape.as_ref().map(|s| s.kind.clone()))).collect()
}

/// A turned box keeps its handles, turned with it (as in Tiled): its far corner's handle,
/// dragged, resizes it in its own frame, its top-left corner and its turn staying.
#[test]
fn a_turned_boxs_handles_turn_with_it_and_resize_it_in_its_own_frame() {
    use egui::Modifiers;
    use sightline::core::model::object::ShapeKind;
    let mut h = harness();
    let (_dir, [tw, th]) = object_tool_on_floor(&mut h, "rectangle");
    assert_eq!(tw, th, "the grid points below assume square cells");
    // 3 × 2 cells from grid point (4, 1), then turned a quarter clockwise about that corner:
    // its own x runs down the map, its own y to the left, its far corner at (2, 4).
    drag_grid_holding(&mut h, &[(4.0, 1.0), (5.5, 2.0), (7.0, 3.0)], Modifiers::NONE);
    let id = h.state().document.map.objects.last().unwrap().id;
    let position = [4.0 * tw, th];
    h.state_mut().commands.push(Command::Objects(ObjectCommand::SetObjectGeometry {
        id,
        position,
        size: None,
        rotation: 90.0,
    }));
    h.run();
    // Its far corner dragged one cell left and one down: one cell longer (own x), one wider.
    let undo = h.state().document.edits();
    drag_grid_holding(&mut h, &[(2.0, 4.0), (1.5, 4.5), (1.0, 5.0)], Modifiers::NONE);
    let map = &h.state().document.map;
    let o = map.objects.last().unwrap();
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.kind, ShapeKind::Rectangle { width: 4.0 * tw, height: 3.0 * th });
    assert_eq!((shape.position(o.cell, map.tile_size), shape.rotation), (position, 90.0));
    assert_eq!(h.state().document.edits(), undo + 1, "one undo step");
    // Turned 30°, its far corner (own 4, 3 cells) is at grid point (5.96, 5.60). Dragged to
    // (6.5, 5.9), own (4.62, 2.99) cells: snapped in its own frame, 5 × 3 cells, not a size
    // the map's grid would give a turned corner.
    h.state_mut().commands.push(Command::Objects(ObjectCommand::SetObjectGeometry {
        id,
        position,
        size: None,
        rotation: 30.0,
    }));
    h.run();
    drag_grid_holding(&mut h, &[(5.96, 5.6), (6.2, 5.7), (6.5, 5.9)], Modifiers::NONE);
    let o = h.state().document.map.objects.last().unwrap();
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.kind, ShapeKind::Rectangle { width: 5.0 * tw, height: 3.0 * th });
    assert_eq!(shape.rotation, 30.0);
}

#[test]
fn the_object_tool_draws_tileds_rectangles_ellipses_and_points_snapped_to_the_grid() {
    use egui::Modifiers;
    use sightline::core::model::object::ShapeKind;
    use sightline::core::{Cell, ObjectKind};
    let mut h = harness();
    let (_dir, [tw, th]) = object_tool_on_floor(&mut h, "rectangle");
    assert!(h.state().document.map.object_layers.is_empty());
    // A drag from near grid point (1, 1) to near (4, 3): snapped to the grid, the box of
    // 3 × 2 cells between them, standing on the cell under its centre (2.5, 2).
    drag_grid_holding(&mut h, &[(1.2, 0.9), (2.5, 2.0), (3.8, 3.1)], Modifiers::NONE);
    let map = &h.state().document.map;
    let o = map.objects.last().expect("a rectangle");
    assert_eq!((o.cell, &o.kind, o.name.as_str()), (Cell::new(2, 2), &ObjectKind::Other(String::new()), ""));
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.kind, ShapeKind::Rectangle { width: 3.0 * tw, height: 2.0 * th });
    assert_eq!(shape.position(o.cell, map.tile_size), [tw, th]);
    // It went on a new object layer, and the status bar says what was made.
    assert_eq!(map.object_layers.len(), 1);
    let added = format!("added rectangle {} × {} px as object #{}", 3.0 * tw, 2.0 * th, o.id);
    assert!(
        h.state().prompts.notice.as_deref().is_some_and(|n| n.starts_with(&added)),
        "{:?}",
        h.state().prompts.notice
    );
    // A drag from inside it moves it, by whole cells, as far as the pointer goes; one undo
    // step. With Alt held, the drag draws a box over it instead.
    let (id, undo) = (o.id, h.state().document.edits());
    drag_grid_holding(&mut h, &[(3.5, 1.5), (4.5, 2.0), (5.5, 2.5)], Modifiers::NONE);
    let map = &h.state().document.map;
    let o = map.objects.last().unwrap();
    assert_eq!((o.id, o.cell, map.objects.len()), (id, Cell::new(4, 3), 1));
    assert_eq!(o.shape.as_ref().unwrap().position(o.cell, map.tile_size), [3.0 * tw, 2.0 * th]);
    assert_eq!(h.state().document.edits(), undo + 1);
    drag_grid_holding(&mut h, &[(4.0, 3.0), (5.0, 4.0)], Modifiers::ALT);
    assert_eq!(
        drawn_shapes(&h).pop().unwrap(),
        (Cell::new(4, 3), Some(ShapeKind::Rectangle { width: tw, height: th }))
    );
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    // A click on it gives it to the inspector.
    h.state_mut().editor.focused_object = None;
    click_cell(&mut h, Cell::new(5, 3));
    assert_eq!(h.state().editor.focused_object, Some(id));
    assert_eq!(h.state().document.map.objects.len(), 1, "a click on it draws nothing");
    // A copy of it pasted over it (its layer is current: the selection copies its objects):
    // Esc drops the paste first, the object stays in hand.
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(4, 3), Cell::new(5, 3)]);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::C);
    h.get_by_label("Object").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::V);
    h.run();
    assert!(h.state().editor.pasting);
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(!h.state().editor.pasting);
    assert_eq!(h.state().editor.focused_object, Some(id));
    // A right-click inside it (not on its own cell, 4, 3) removes it; undo brings it back.
    right_click_cell(&mut h, Cell::new(5, 3));
    assert!(h.state().document.map.objects.is_empty());
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(h.state().document.map.objects.len(), 1);
    // In hand, it has handles: its bottom-right corner's, at grid point (6, 4), dragged to
    // (7, 5) makes it 4 × 3 cells, its top-left staying; an edge's moves that edge alone.
    let undo = h.state().document.edits();
    drag_grid_holding(&mut h, &[(6.0, 4.0), (6.5, 4.5), (7.1, 4.9)], Modifiers::NONE);
    let map = &h.state().document.map;
    let o = map.objects.last().unwrap();
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.kind, ShapeKind::Rectangle { width: 4.0 * tw, height: 3.0 * th });
    assert_eq!((shape.position(o.cell, map.tile_size), o.cell), ([3.0 * tw, 2.0 * th], Cell::new(5, 3)));
    assert_eq!(h.state().document.edits(), undo + 1, "a resize is one undo step");
    drag_grid_holding(&mut h, &[(3.0, 3.5), (2.0, 3.5), (1.0, 3.2)], Modifiers::NONE);
    let o = h.state().document.map.objects.last().unwrap();
    assert_eq!(o.shape.as_ref().unwrap().kind, ShapeKind::Rectangle { width: 6.0 * tw, height: 3.0 * th });
    // Esc lets it go (Delete then removes nothing), a click takes it again.
    h.key_press(egui::Key::Escape);
    h.run();
    assert_eq!(h.state().editor.focused_object, None);
    click_cell(&mut h, Cell::new(5, 3));
    // Delete removes the object in hand; undo brings it back.
    h.key_press(egui::Key::Delete);
    h.run();
    assert!(h.state().document.map.objects.is_empty());
    for _ in 0..3 {
        h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
        h.run();
    }
    assert_eq!(drawn_shapes(&h), [(Cell::new(4, 3), Some(ShapeKind::Rectangle { width: 3.0 * tw, height: 2.0 * th }))]);
    // A drag up and to the left with Shift held: a square, its side the longer drag.
    h.get_by_label("what to place").click();
    h.run();
    h.get_by_label("ellipse").click();
    h.run();
    drag_grid_holding(&mut h, &[(8.0, 5.0), (7.0, 4.0), (6.1, 4.2)], Modifiers::SHIFT);
    let (cell, kind) = drawn_shapes(&h).pop().unwrap();
    assert_eq!((cell, kind), (Cell::new(7, 4), Some(ShapeKind::Ellipse { width: 2.0 * tw, height: 2.0 * th })));
    // A click covers the cell (Tiled would make a box of no size).
    click_cell(&mut h, Cell::new(0, 5));
    assert_eq!(drawn_shapes(&h).pop().unwrap(), (Cell::new(0, 5), Some(ShapeKind::Ellipse { width: tw, height: th })));
    // A drag that snaps to one point draws nothing, and says so.
    let before = h.state().document.map.objects.len();
    drag_grid_holding(&mut h, &[(5.1, 1.1), (5.3, 1.3)], Modifiers::NONE);
    assert_eq!(h.state().document.map.objects.len(), before);
    assert!(h.state().prompts.notice.as_deref().is_some_and(|n| n.starts_with("nothing drawn")));
    // Ctrl turns snapping off while held: the box ends where the pointer does.
    drag_grid_holding(&mut h, &[(5.0, 1.0), (6.5, 1.75)], Modifiers::COMMAND);
    let Some(ShapeKind::Ellipse { width, height }) = drawn_shapes(&h).pop().unwrap().1 else { panic!("an ellipse") };
    assert!((width - 1.5 * tw).abs() < 0.01 && (height - 0.75 * th).abs() < 0.01, "{width} × {height}");
    // Esc in the middle of a drag drops the shape.
    let before = h.state().document.map.objects.len();
    h.hover_at(grid_point(&h, 1.0, 4.0));
    h.run();
    h.drag_at(grid_point(&h, 1.0, 4.0));
    h.run();
    h.hover_at(grid_point(&h, 3.0, 5.0));
    h.run();
    assert!(h.state().editor.shape_draft.is_some());
    h.key_press(egui::Key::Escape);
    h.run();
    h.drop_at(grid_point(&h, 3.0, 5.0));
    h.run();
    assert_eq!(h.state().document.map.objects.len(), before);
    // A point goes where the click is, snapped to the nearest grid point (the fine grid here).
    h.get_by_label("what to place").click();
    h.run();
    h.get_by_label("point").click();
    h.run();
    h.get_by_label("snap").click();
    h.run();
    h.get_by_label("snap to fine grid").click();
    h.run();
    click_grid(&mut h, 9.3, 0.2);
    assert_eq!(drawn_shapes(&h).pop().unwrap(), (Cell::new(9, 0), Some(ShapeKind::Point)));
    let map = &h.state().document.map;
    let point = map.objects.last().unwrap();
    assert_eq!(point.shape.as_ref().unwrap().position(point.cell, map.tile_size), [9.25 * tw, 0.25 * th]);
    // In the very middle of its cell, a point is a marker, as a save and a load make it.
    click_cell(&mut h, Cell::new(9, 5));
    assert_eq!(drawn_shapes(&h).pop().unwrap(), (Cell::new(9, 5), None));
    // Each is one undo step.
    let n = h.state().document.map.objects.len();
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(h.state().document.map.objects.len(), n - 1);
}

#[test]
fn the_polygon_tool_closes_on_its_first_point_and_ends_a_path_on_enter() {
    use sightline::app::ShapeDraft;
    use sightline::core::Cell;
    use sightline::core::model::object::ShapeKind;
    let mut h = harness();
    let (_dir, [tw, th]) = object_tool_on_floor(&mut h, "polygon or path");
    // Three points, then a click on the first: a triangle.
    click_grid(&mut h, 1.0, 1.0);
    click_grid(&mut h, 4.0, 1.0);
    click_grid(&mut h, 1.0, 4.0);
    assert!(h.state().document.map.objects.is_empty(), "not made before it is closed: {:?}", drawn_shapes(&h));
    click_grid(&mut h, 1.1, 0.9);
    let triangle = vec![[0.0, 0.0], [3.0 * tw, 0.0], [0.0, 3.0 * th]];
    // A polygon stands on the cell of its first point.
    assert_eq!(drawn_shapes(&h), [(Cell::new(1, 1), Some(ShapeKind::Polygon(triangle)))]);
    // In hand, its points are grips: the third dragged from (1, 4) to (2, 5) moves alone,
    // its origin (the first point) staying; one undo step.
    let undo = h.state().document.edits();
    drag_grid_holding(&mut h, &[(1.0, 4.0), (1.5, 4.5), (2.1, 4.9)], egui::Modifiers::NONE);
    let moved = vec![[0.0, 0.0], [3.0 * tw, 0.0], [tw, 4.0 * th]];
    assert_eq!(drawn_shapes(&h), [(Cell::new(1, 1), Some(ShapeKind::Polygon(moved.clone())))]);
    assert_eq!(h.state().document.edits(), undo + 1);
    // A drag of a segment's middle, (2.5, 1), lays a point there and moves it to (3, 0); one
    // undo step. A right-click on a point takes it away again, its own step; but a polygon
    // keeps three points, and says so.
    drag_grid_holding(&mut h, &[(2.5, 1.0), (2.7, 0.5), (2.9, 0.1)], egui::Modifiers::NONE);
    let four = vec![[0.0, 0.0], [2.0 * tw, -th], [3.0 * tw, 0.0], [tw, 4.0 * th]];
    assert_eq!(drawn_shapes(&h), [(Cell::new(1, 1), Some(ShapeKind::Polygon(four)))]);
    assert_eq!(h.state().document.edits(), undo + 2);
    let right_click_grid = |h: &mut Harness<'static, SightlineApp>, x: f32, y: f32| {
        let pos = grid_point(h, x, y);
        h.hover_at(pos);
        h.run();
        for pressed in [true, false] {
            let button = egui::PointerButton::Secondary;
            h.event(egui::Event::PointerButton { pos, button, pressed, modifiers: egui::Modifiers::NONE });
        }
        h.run();
    };
    right_click_grid(&mut h, 3.0, 0.0);
    assert_eq!(drawn_shapes(&h), [(Cell::new(1, 1), Some(ShapeKind::Polygon(moved.clone())))]);
    assert_eq!(h.state().document.edits(), undo + 3);
    right_click_grid(&mut h, 4.0, 1.0);
    assert_eq!(drawn_shapes(&h), [(Cell::new(1, 1), Some(ShapeKind::Polygon(moved.clone())))]);
    assert!(
        h.state().prompts.notice.as_deref().is_some_and(|n| n.contains("keeps 3 points")),
        "{:?}",
        h.state().prompts.notice
    );
    // A new polygon begun on the grip of the one in hand lays its first point there.
    click_grid(&mut h, 4.0, 1.0);
    assert!(matches!(&h.state().editor.shape_draft, Some(ShapeDraft::Points { points, .. }) if points.len() == 1));
    drag_grid_holding(&mut h, &[(1.0, 1.0), (1.5, 1.5)], egui::Modifiers::NONE);
    assert_eq!(
        drawn_shapes(&h),
        [(Cell::new(1, 1), Some(ShapeKind::Polygon(moved)))],
        "the drag near a grip laid a point, it did not reshape"
    );
    h.key_press(egui::Key::Escape);
    h.run();
    // Three points, one taken back with Backspace, then Enter: a path of two.
    click_grid(&mut h, 6.0, 5.0);
    click_grid(&mut h, 8.0, 5.0);
    click_grid(&mut h, 8.0, 2.0);
    h.key_press(egui::Key::Backspace);
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    let path = vec![[0.0, 0.0], [2.0 * tw, 0.0]];
    assert_eq!(drawn_shapes(&h).pop().unwrap(), (Cell::new(6, 5), Some(ShapeKind::Polyline(path))));
    // A right-click ends a path too; one point alone makes nothing.
    click_grid(&mut h, 2.0, 5.0);
    click_grid(&mut h, 3.0, 5.0);
    right_click_cell(&mut h, Cell::new(3, 5));
    assert_eq!(h.state().document.map.objects.len(), 3);
    let (cell, kind) = drawn_shapes(&h).pop().unwrap();
    assert_eq!((cell, kind), (Cell::new(2, 5), Some(ShapeKind::Polyline(vec![[0.0, 0.0], [tw, 0.0]]))));
    click_grid(&mut h, 2.0, 2.0);
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().document.map.objects.len(), 3);
    assert!(h.state().editor.shape_draft.is_none());
}

#[test]
fn a_text_click_makes_hello_world_and_the_inspector_edits_the_new_object() {
    use sightline::core::model::object::ShapeKind;
    use sightline::core::{Cell, ObjectKind};
    let mut h = harness();
    let (_dir, [tw, _]) = object_tool_on_floor(&mut h, "text");
    click_cell(&mut h, Cell::new(4, 2));
    let map = &h.state().document.map;
    let o = map.objects.last().expect("a text object");
    let Some(ShapeKind::Text { width, height, text }) = o.shape.as_ref().map(|s| &s.kind) else {
        panic!("a text: {o:?}")
    };
    assert_eq!(text.text, "Hello World");
    assert!(*width > 40.0 && *height >= 16.0, "its own size: {width} × {height}");
    let cell = o.cell;
    // Off the canvas, the inspector edits it: its text is a field to type in.
    h.hover_at(egui::pos2(1190.0, 790.0));
    h.run();
    h.get_by_label(&format!("Cell {}, {} (the object tool's)", cell.x, cell.y));
    assert_eq!(h.get_by_label("text of the object").value().as_deref(), Some("Hello World"));
    h.get_by_label("text of the object").click();
    h.run();
    h.key_press(egui::Key::End);
    h.get_by_label("text of the object").type_text("!");
    h.run();
    let o = h.state().document.map.objects.last().unwrap();
    let Some(ShapeKind::Text { text, .. }) = o.shape.as_ref().map(|s| &s.kind) else { panic!("a text") };
    assert_eq!(text.text, "Hello World!");
    // Its place and size typed in map pixels, as in Tiled's Properties: it moves to the cell
    // under its new centre, and the inspector follows it.
    let undo = h.state().document.edits();
    for (field, value) in [("x of the object", "0"), ("y of the object", "0"), ("width of the object", "1")] {
        h.get_by_label(field).click();
        h.run();
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.get_by_label(field).type_text(&format!("{}", value.parse::<f64>().unwrap() * tw));
        h.key_press(egui::Key::Enter);
        h.run();
    }
    let map = &h.state().document.map;
    let o = map.objects.last().unwrap();
    let shape = o.shape.as_ref().unwrap();
    assert_eq!((o.cell, shape.position(o.cell, map.tile_size)), (Cell::new(0, 0), [0.0, 0.0]));
    assert_eq!(shape.kind.size().map(|s| s[0]), Some(tw));
    h.get_by_label("Cell 0, 0 (the object tool's)");
    // Past the map's edge it stays where it is.
    h.get_by_label("x of the object").click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("x of the object").type_text(&format!("{}", 20.0 * tw));
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().document.map.objects.last().unwrap().cell, Cell::new(0, 0));
    assert!(
        h.state().prompts.notice.as_deref().is_some_and(|n| n.contains("off the map")),
        "{:?}",
        h.state().prompts.notice
    );
    // Its class typed: the designer's own, kept as written; one the game knows makes it that.
    let id = h.state().document.map.objects.last().unwrap().id;
    let class_field = format!("class of object #{id}");
    h.get_by_label(&class_field).click();
    h.run();
    h.get_by_label(&class_field).type_text("Trigger");
    h.run();
    assert_eq!(h.state().document.map.objects.last().unwrap().kind, ObjectKind::Other(String::new()), "not yet");
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().document.map.objects.last().unwrap().kind, ObjectKind::Other("Trigger".into()));
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    // Each field typed is its own undo step (x, y, width; the class was undone).
    assert_eq!(h.state().document.edits(), undo + 3);
    for _ in 0..3 {
        h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
        h.run();
    }
    let o = h.state().document.map.objects.last().unwrap();
    assert_eq!(o.cell, cell, "back where the click put it");
}

/// The object tool's gestures end with it: on a layer drawn moved by its offset, a shape lands
/// where it is drawn; a tool change drops a polygon half laid; an undo in the middle of a move
/// leaves the tool drawing again; a resize's handle, dragged out and back, leaves no step.
#[test]
fn shapes_land_where_drawn_on_an_offset_layer_and_gestures_end_with_a_tool_change_or_an_undo() {
    use egui::Modifiers;
    use sightline::app::DrawnLook;
    use sightline::core::model::object::ShapeKind;
    use sightline::core::{Cell, LayerRef, StackItem};
    let mut h = harness();
    let (_dir, [tw, th]) = object_tool_on_floor(&mut h, "rectangle");
    // An object layer drawn half a cell right and down.
    // The Layers panel's button (its menu item has the same name).
    h.get_all_by_label("New object layer").next().unwrap().click();
    h.run();
    assert_eq!(h.state().editor.object_layer, Some(0));
    let look = DrawnLook { tint: None, offset: [tw / 2.0, th / 2.0], parallax: [1.0, 1.0] };
    h.state_mut()
        .commands
        .push(Command::Layers(LayerCommand::SetLayerLook(StackItem::Layer(LayerRef::Objects(0)), look)));
    h.run();
    // A drag between the grid points (1.5, 1.5) and (3.5, 2.5) of the screen: the layer's
    // (1, 1) and (3, 2), snapped to the layer's own grid.
    drag_grid_holding(&mut h, &[(1.6, 1.4), (2.5, 2.0), (3.4, 2.6)], Modifiers::NONE);
    let map = &h.state().document.map;
    let o = map.objects.last().expect("a rectangle");
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.position(o.cell, map.tile_size), [tw, th]);
    assert_eq!(shape.kind, ShapeKind::Rectangle { width: 2.0 * tw, height: th });
    // Three points of a polygon, then the eraser: nothing is left half laid, and Enter makes
    // nothing.
    h.get_by_label("what to place").click();
    h.run();
    h.get_by_label("polygon or path").click();
    h.run();
    for (x, y) in [(6.0, 1.0), (8.0, 1.0), (8.0, 3.0)] {
        click_grid(&mut h, x, y);
    }
    assert!(h.state().editor.shape_draft.is_some());
    h.get_by_label("Eraser").click();
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(h.state().editor.shape_draft.is_none());
    assert_eq!(h.state().document.map.objects.len(), 1);
    // An undo in the middle of a move of the rectangle; then the tool draws again.
    h.get_by_label("Object").click();
    h.run();
    h.get_by_label("what to place").click();
    h.run();
    h.get_by_label("rectangle").click();
    h.run();
    h.hover_at(grid_point(&h, 2.0, 2.0));
    h.run();
    h.drag_at(grid_point(&h, 2.0, 2.0));
    h.run();
    h.hover_at(grid_point(&h, 4.0, 3.0));
    h.run();
    assert!(h.state().editor.moving_object.is_some());
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    h.drop_at(grid_point(&h, 4.0, 3.0));
    h.run();
    assert!(h.state().editor.moving_object.is_none());
    let before = h.state().document.map.objects.len();
    drag_grid_holding(&mut h, &[(6.5, 4.5), (8.5, 5.5)], Modifiers::NONE);
    assert_eq!(h.state().document.map.objects.len(), before + 1, "the tool draws again");
    // The new one's bottom-right handle, at screen grid point (8.5, 5.5), out and back: no step.
    let undo = h.state().document.edits();
    drag_grid_holding(&mut h, &[(8.5, 5.5), (9.5, 5.5), (8.5, 5.5)], Modifiers::NONE);
    assert_eq!(h.state().document.edits(), undo);
    assert_eq!(drawn_shapes(&h).pop().unwrap().1, Some(ShapeKind::Rectangle { width: 2.0 * tw, height: th }));
    // The layer locked: nothing is drawn on it, and its objects are neither reshaped, moved,
    // reclassed nor removed; each refusal says why.
    let objects = StackItem::Layer(LayerRef::Objects(0));
    h.state_mut().commands.push(Command::Layers(LayerCommand::SetLayerLocked(objects, true)));
    h.run();
    let before = h.state().document.map.clone();
    let id = before.objects.last().unwrap().id;
    drag_grid_holding(&mut h, &[(1.5, 4.5), (3.5, 5.5)], Modifiers::NONE);
    assert!(
        h.state().prompts.notice.as_deref().is_some_and(|n| n.contains("is locked")),
        "{:?}",
        h.state().prompts.notice
    );
    drag_grid_holding(&mut h, &[(8.5, 5.5), (9.5, 5.5)], Modifiers::NONE);
    drag_grid_holding(&mut h, &[(7.5, 5.0), (5.5, 3.0)], Modifiers::NONE);
    h.state_mut().commands.extend([
        Command::Objects(ObjectCommand::SetObjectGeometry { id, position: [0.0, 0.0], size: None, rotation: 0.0 }),
        Command::Objects(ObjectCommand::ReclassObject { id, class: "trigger".into() }),
    ]);
    h.run();
    right_click_cell(&mut h, Cell::new(7, 5));
    h.key_press(egui::Key::Delete);
    h.run();
    assert_eq!(h.state().document.map, before);
}

#[test]
fn a_click_on_an_end_of_the_path_in_hand_goes_on_from_it_and_its_other_end_closes_it() {
    use egui::Key;
    use sightline::core::Cell;
    use sightline::core::model::object::ShapeKind;
    let mut h = harness();
    let (_dir, [tw, th]) = object_tool_on_floor(&mut h, "polygon or path");
    click_grid(&mut h, 1.0, 1.0);
    click_grid(&mut h, 3.0, 1.0);
    h.key_press(Key::Enter);
    h.run();
    let id = h.state().editor.focused_object.expect("the new path in hand");
    let path = |points: Vec<[f64; 2]>| vec![(Cell::new(1, 1), Some(ShapeKind::Polyline(points)))];
    assert_eq!(drawn_shapes(&h), path(vec![[0.0, 0.0], [2.0 * tw, 0.0]]));
    // Gone on from its last point, a click on its first cannot close two points: it says so
    // and lays nothing (no path doubling back).
    click_grid(&mut h, 3.0, 1.0);
    click_grid(&mut h, 1.0, 1.0);
    assert!(h_notice(&h).contains("needs three points"), "{}", h_notice(&h));
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(drawn_shapes(&h), path(vec![[0.0, 0.0], [2.0 * tw, 0.0]]));
    // A click on its last point (or where it snaps there) goes on from there: the same
    // object, one undo step.
    let undo = h.state().document.edits();
    click_grid(&mut h, 3.4, 1.3);
    assert!(h_notice(&h).contains("goes on from its last point"), "{}", h_notice(&h));
    click_grid(&mut h, 3.0, 3.0);
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(drawn_shapes(&h), path(vec![[0.0, 0.0], [2.0 * tw, 0.0], [2.0 * tw, 2.0 * th]]));
    assert_eq!((h.state().document.map.objects[0].id, h.state().document.edits()), (id, undo + 1));
    // From its first point: the new points go before it, the path keeps its direction and
    // its cell (the cell of its position).
    click_grid(&mut h, 1.0, 1.0);
    click_grid(&mut h, 1.0, 3.0);
    h.key_press(Key::Enter);
    h.run();
    let four = vec![[0.0, 2.0 * th], [0.0, 0.0], [2.0 * tw, 0.0], [2.0 * tw, 2.0 * th]];
    assert_eq!(drawn_shapes(&h), path(four.clone()));
    // Esc leaves it as it was, with no undo step.
    let undo = h.state().document.edits();
    click_grid(&mut h, 3.0, 3.0);
    click_grid(&mut h, 5.0, 5.0);
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(drawn_shapes(&h), path(four.clone()));
    assert_eq!(h.state().document.edits(), undo);
    // From one end, a click on the other closes it into a polygon; undo makes it a path again.
    click_grid(&mut h, 3.0, 3.0);
    click_grid(&mut h, 1.0, 3.0);
    assert_eq!(drawn_shapes(&h), vec![(Cell::new(1, 1), Some(ShapeKind::Polygon(four.clone())))]);
    assert_eq!(h.state().document.edits(), undo + 1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(drawn_shapes(&h), path(four));
}

/// A turned path goes on from its ends where they are drawn, and keeps its turn: the new points
/// are kept in its own frame.
#[test]
fn a_turned_path_goes_on_from_its_ends_as_drawn() {
    use egui::Key;
    use sightline::core::Cell;
    use sightline::core::model::object::ShapeKind;
    let mut h = harness();
    let (_dir, [tw, th]) = object_tool_on_floor(&mut h, "polygon or path");
    assert_eq!(tw, th, "the grid points below assume square cells");
    click_grid(&mut h, 1.0, 1.0);
    click_grid(&mut h, 3.0, 1.0);
    h.key_press(Key::Enter);
    h.run();
    let id = h.state().editor.focused_object.unwrap();
    // Turned a quarter clockwise about its first point: its last is drawn at (1, 3).
    let position = [tw, th];
    h.state_mut().commands.push(Command::Objects(ObjectCommand::SetObjectGeometry {
        id,
        position,
        size: None,
        rotation: 90.0,
    }));
    h.run();
    click_grid(&mut h, 1.0, 3.0);
    assert!(h_notice(&h).contains("goes on from its last point"), "{}", h_notice(&h));
    click_grid(&mut h, 3.0, 3.0);
    h.key_press(Key::Enter);
    h.run();
    // The new point, (3, 3) on the map, is two cells along the path's own y, back up its x.
    let o = h.state().document.map.objects.last().unwrap();
    let shape = o.shape.as_ref().unwrap();
    assert_eq!(shape.kind, ShapeKind::Polyline(vec![[0.0, 0.0], [2.0 * tw, 0.0], [2.0 * tw, -2.0 * th]]));
    assert_eq!((shape.rotation, o.cell), (90.0, Cell::new(1, 1)));
    // Turned 30°, its own points stay as they were through the turn there and back (exactly,
    // in the file too); the new one is where the click was, in its frame.
    h.state_mut().commands.push(Command::Objects(ObjectCommand::SetObjectGeometry {
        id,
        position,
        size: None,
        rotation: 30.0,
    }));
    h.run();
    let at = |p: [f64; 2]| {
        let [x, y] = sightline::core::model::object::rotated(p, 30.0);
        ((position[0] + x) / tw, (position[1] + y) / th)
    };
    let (x, y) = at([2.0 * tw, -2.0 * th]);
    click_grid(&mut h, x as f32, y as f32);
    assert!(h_notice(&h).contains("goes on from its last point"), "{}", h_notice(&h));
    click_grid(&mut h, 5.0, 1.0);
    h.key_press(Key::Enter);
    h.run();
    let shape = h.state().document.map.objects.last().unwrap().shape.clone().unwrap();
    let ShapeKind::Polyline(points) = &shape.kind else { panic!("a path") };
    assert_eq!(points[..3], [[0.0, 0.0], [2.0 * tw, 0.0], [2.0 * tw, -2.0 * th]]);
    let (x, y) = at(points[3]);
    assert!((x - 5.0).abs() < 1e-9 && (y - 1.0).abs() < 1e-9, "{x}, {y}");
}
