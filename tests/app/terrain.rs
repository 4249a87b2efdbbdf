//! The terrain brush and the terrain fill, on tests/fixtures/corners.tmx.

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sightline::app::{Command, FileCommand, SightlineApp};

use crate::common::{cell_centre, click_cell};
use crate::{drag_through, harness};

/// Each cell of `layer` as the hex digit of its tile's index in its tileset, a row a line
/// (corners.png: bit 1 sand top-right, 2 bottom-right, 4 bottom-left, 8 top-left).
fn sprite_rows(map: &sightline::core::Map, layer: usize) -> String {
    let mut out = String::new();
    for y in 0..map.height() as i32 {
        for x in 0..map.width() as i32 {
            let t = map.tile(layer, sightline::core::Cell::new(x, y)).unwrap();
            let index = map.tiles[usize::from(t)].sprite.map_or(99, |s| s.index);
            out.push(char::from_digit(index, 16).unwrap_or('?'));
        }
        out.push('\n');
    }
    out
}

/// The app on corners.tmx (all grass; its Wang set has a tile for every mix of grass and sand
/// corners) with the terrain brush on sand, painting whole tiles at size 1 or not.
fn sand_on_corners_tmx(whole_tiles: bool) -> Harness<'static, SightlineApp> {
    let mut h = harness();
    h.state_mut()
        .commands
        .push(Command::File(FileCommand::Open(Path::new("tests/fixtures/corners.tmx").to_path_buf())));
    h.run();
    h.get_by_label("terrain sand").click();
    h.run();
    if whole_tiles {
        h.get_by_label("Whole tiles").click();
        h.run();
    }
    h
}

#[test]
fn the_terrain_brush_paints_a_terrain_and_the_tiles_around_join_it() {
    use sightline::app::Tool;
    use sightline::core::Cell;
    // Whole tiles at size 1 (Tiled's brush paints a corner: the next test).
    let mut h = sand_on_corners_tmx(true);
    assert_eq!(h.state().editor.tool, Tool::Terrain);
    h.get_by_label("terrain sand (ground)");
    let undo = h.state().document.edits();
    // Hovering shows the tiles a click puts, transitions included.
    h.hover_at(cell_centre(&h, Cell::new(2, 1)));
    h.run();
    let mut previewed = h.state().document.map.clone();
    assert_eq!(h.state().previewed_tiles().len(), 9);
    for (cell, tile, flip) in h.state().previewed_tiles() {
        previewed.set_flipped_tile(0, cell, tile, flip);
    }
    click_cell(&mut h, Cell::new(2, 1));
    assert_eq!(sprite_rows(&previewed, 0), sprite_rows(&h.state().document.map, 0));
    assert_eq!(
        sprite_rows(&h.state().document.map, 0),
        "026400\n\
         03fc00\n\
         019800\n\
         000000\n"
    );
    // A drag along the row widens the patch; the stroke is one undo step.
    drag_through(&mut h, &[Cell::new(3, 1), Cell::new(4, 1)]);
    assert_eq!(
        sprite_rows(&h.state().document.map, 0),
        "026664\n\
         03fffc\n\
         019998\n\
         000000\n"
    );
    assert_eq!(h.state().document.edits(), undo + 2);
    // Grass painted in the middle of the patch splits it in two.
    h.get_by_label("terrain grass").click();
    h.run();
    click_cell(&mut h, Cell::new(3, 1));
    assert_eq!(
        sprite_rows(&h.state().document.map, 0),
        "024024\n\
         03c03c\n\
         018018\n\
         000000\n"
    );
    for expected in ["03fffc", "03fc00"] {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        h.run();
        assert_eq!(sprite_rows(&h.state().document.map, 0).lines().nth(1), Some(expected));
    }
}

#[test]
fn the_terrain_brush_lays_its_transitions_only_inside_the_selection() {
    use sightline::core::Cell;
    let mut h = sand_on_corners_tmx(true);
    // Columns 1 and 2 selected; the brush's sand patch and its rim would reach column 3.
    h.get_by_label("Select").click();
    h.run();
    drag_through(&mut h, &[Cell::new(1, 0), Cell::new(2, 3)]);
    h.get_by_label("Terrain").click();
    h.run();
    h.hover_at(cell_centre(&h, Cell::new(2, 1)));
    h.run();
    assert_eq!(h.state().previewed_tiles().len(), 6, "the preview shows what lands: 9 tiles less column 3");
    click_cell(&mut h, Cell::new(2, 1));
    assert_eq!(
        sprite_rows(&h.state().document.map, 0),
        "026000\n\
         03f000\n\
         019000\n\
         000000\n"
    );
}

#[test]
fn the_terrain_brush_at_size_one_paints_the_corner_nearest_the_pointer_as_tileds_does() {
    use sightline::core::Cell;
    use sightline::core::edit::terrain::Part;
    let mut h = sand_on_corners_tmx(false);
    let undo = h.state().document.edits();
    // Just inside cell (3, 2), by its top-left corner: the corner the four cells share.
    let near_corner = |h: &Harness<'static, SightlineApp>, x, y| {
        h.state().view.screen_from_grid(Cell::new(x, y)) + egui::vec2(2.0, 2.0)
    };
    let p = near_corner(&h, 3, 2);
    h.hover_at(p);
    h.run();
    h.run();
    assert_eq!(h.state().editor.terrain_spot, Some(Part::Corner(3, 2)));
    assert_eq!(h.state().previewed_tiles().len(), 4, "the four cells that meet there");
    h.drag_at(p);
    h.run();
    h.drop_at(p);
    h.run();
    // corners.png: bit 1 sand top-right, 2 bottom-right, 4 bottom-left, 8 top-left.
    assert_eq!(
        sprite_rows(&h.state().document.map, 0),
        "000000\n\
         002400\n\
         001800\n\
         000000\n"
    );
    // A drag along the row of corners paints each corner it passes, as one undo step, the
    // corners it jumps over too.
    h.hover_at(p);
    h.run();
    h.drag_at(p);
    h.run();
    h.hover_at(near_corner(&h, 5, 2));
    h.run();
    h.run();
    h.drop_at(near_corner(&h, 5, 2));
    h.run();
    assert_eq!(
        sprite_rows(&h.state().document.map, 0),
        "000000\n\
         002664\n\
         001998\n\
         000000\n"
    );
    assert_eq!(h.state().document.edits(), undo + 2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(sprite_rows(&h.state().document.map, 0).lines().nth(1), Some("002400"));
}

#[test]
fn the_fill_lays_a_terrain_over_a_region_and_fits_its_rim() {
    use sightline::core::Cell;
    let mut h = sand_on_corners_tmx(true);
    // A column of sand splits the grass.
    drag_through(&mut h, &[Cell::new(3, 0), Cell::new(3, 1), Cell::new(3, 2), Cell::new(3, 3)]);
    assert_eq!(sprite_rows(&h.state().document.map, 0), "003fc0\n".repeat(4));
    // The fill, in terrain mode, lays sand on the grass left of it; the cells between join up.
    h.get_by_label("Fill").click();
    h.run();
    h.get_by_label("fill with terrain").click();
    h.run();
    click_cell(&mut h, Cell::new(0, 0));
    assert_eq!(sprite_rows(&h.state().document.map, 0), "ffffc0\n".repeat(4));
}
