//! The view: the minimap, and the View menu's switch for animated tiles.

use std::path::Path;

use egui_kittest::kittest::Queryable;
use sightline::app::{Command, FileCommand, ViewCommand};

use crate::common::{cell_centre, click_at, click_menu_item};
use crate::harness;

#[test]
fn the_minimap_jumps_the_view() {
    let mut h = harness();
    h.state_mut().commands.push(Command::View(ViewCommand::ZoomBy(4.0)));
    h.run();
    let before = h.state().view.offset;
    // A click on the minimap's bottom-right part centres the canvas there.
    let r = h.get_by_label("minimap").rect();
    let p = r.min + (r.max - r.min) * 0.9;
    click_at(&mut h, p);
    assert_ne!(h.state().view.offset, before, "the view moved to the clicked part of the map");
    let view = &h.state().view;
    let centre = view.grid_from_screen(view.canvas.center());
    assert!((centre.x - 56).abs() <= 1 && (centre.y - 27).abs() <= 1, "centred near (56, 27): {centre:?}");
}

#[test]
fn animated_tiles_say_so_in_the_inspector_and_the_view_menu_stops_them() {
    use sightline::core::Cell;
    let mut h = harness();
    h.state_mut()
        .commands
        .push(Command::File(FileCommand::Open(Path::new("tests/fixtures/animated.tmx").to_path_buf())));
    h.run();
    assert!(h.state().view.animate_tiles, "animations play by default, as in Tiled");
    // Cell (0, 0) holds the tile whose animation shows three tiles in 400 ms.
    h.hover_at(cell_centre(&h, Cell::new(0, 0)));
    h.run();
    h.get_by_label("  animated: 3 frames, 400 ms a loop");
    click_menu_item(&mut h, "View", "Tile animations");
    assert!(!h.state().view.animate_tiles);
    // The map is not edited by it.
    assert!(!h.state().document.dirty);
}
