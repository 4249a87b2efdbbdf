//! The shapes the editor's tools paint, drawn.

use sightline::core::Cell;
use sightline::core::edit::{fill_cells, line_cells, paint, rect_cells};
use sightline::core::format::ascii;
use sightline::core::model::tile::STANDARD_WATER;

fn draw(w: i32, h: i32, cells: &[Cell]) -> Vec<String> {
    (0..h).map(|y| (0..w).map(|x| if cells.contains(&Cell::new(x, y)) { '*' } else { '.' }).collect()).collect()
}

#[test]
fn lines_step_one_cell_at_a_time_both_ways() {
    assert_eq!(draw(7, 3, &line_cells(Cell::new(0, 0), Cell::new(6, 2))), ["**.....", "..***..", ".....**"]);
    // The reverse line covers the same cells (halves round away from the start each way).
    let mut back = line_cells(Cell::new(6, 2), Cell::new(0, 0));
    back.reverse();
    assert_eq!(draw(7, 3, &back), draw(7, 3, &line_cells(Cell::new(0, 0), Cell::new(6, 2))));
    for pair in line_cells(Cell::new(5, 1), Cell::new(0, 4)).windows(2) {
        assert!(pair[0].chebyshev(pair[1]) == 1, "a gap between {} and {}", pair[0], pair[1]);
    }
}

#[test]
fn rectangles_filled_and_outlined() {
    assert_eq!(draw(5, 4, &rect_cells(Cell::new(3, 2), Cell::new(1, 0), true)), [".***.", ".***.", ".***.", "....."]);
    assert_eq!(draw(5, 4, &rect_cells(Cell::new(0, 0), Cell::new(4, 3), false)), ["*****", "*...*", "*...*", "*****"]);
}

#[test]
fn fill_stays_inside_its_region() {
    let mut map = ascii::parse("#####\n#..#.\n#.#..\n#####\n").unwrap();
    let region = fill_cells(&map, 0, Cell::new(1, 1), false);
    assert_eq!(draw(5, 4, &region), [".....", ".**..", ".*...", "....."]);
    // 8-connected, it slips through the diagonal gap between the walls at (3,1) and (2,2).
    let eight = fill_cells(&map, 0, Cell::new(1, 1), true);
    assert_eq!(draw(5, 4, &eight), [".....", ".**.*", ".*.**", "....."]);
    assert_eq!(paint(&mut map, 0, &region, STANDARD_WATER), 3);
    assert_eq!(paint(&mut map, 0, &region, STANDARD_WATER), 0, "painting the same tile again changes nothing");
}

#[test]
fn a_brush_stamp_is_a_square_centred_on_the_cell() {
    use sightline::core::edit::{square_around, stamp_along};
    assert_eq!(square_around(Cell::new(5, 5), 1), vec![Cell::new(5, 5)]);
    let three = square_around(Cell::new(5, 5), 3);
    assert_eq!(three.len(), 9);
    assert!(three.contains(&Cell::new(4, 4)) && three.contains(&Cell::new(6, 6)));
    // Even sizes grow right and down.
    let two = square_around(Cell::new(5, 5), 2);
    assert_eq!(two, vec![Cell::new(5, 5), Cell::new(6, 5), Cell::new(5, 6), Cell::new(6, 6)]);
    // Along a path each cell once.
    let path = [Cell::new(0, 0), Cell::new(1, 0), Cell::new(2, 0)];
    assert_eq!(stamp_along(&path, 3).len(), 5 * 3);
}

#[test]
fn tile_rules_keep_doors_paired() {
    use sightline::core::edit::{TileEditError, TileRules, add_tile, set_tile_rules};
    use sightline::core::model::tile::{STANDARD_CLOSED_DOOR, STANDARD_OPEN_DOOR, STANDARD_WALL, STANDARD_WATER};
    let mut map = sightline::core::format::ascii::parse("#.+'~").unwrap();
    // Water becomes an open door whose closed counterpart is the wall.
    let mut water = TileRules::of(&map.tiles[usize::from(STANDARD_WATER)]);
    water.door = Some((true, STANDARD_WALL));
    set_tile_rules(&mut map, STANDARD_WATER, water.clone()).unwrap();
    let wall = map.tiles[usize::from(STANDARD_WALL)].door.unwrap();
    assert!(!wall.open && wall.toggles_to == STANDARD_WATER, "the wall is now the closed side");
    // Re-pairing water with the closed door releases the wall and the closed door's old partner.
    water.door = Some((true, STANDARD_CLOSED_DOOR));
    set_tile_rules(&mut map, STANDARD_WATER, water.clone()).unwrap();
    assert_eq!(map.tiles[usize::from(STANDARD_WALL)].door, None);
    assert_eq!(map.tiles[usize::from(STANDARD_OPEN_DOOR)].door, None, "the old open door is no door now");
    assert_eq!(map.tiles[usize::from(STANDARD_CLOSED_DOOR)].door.unwrap().toggles_to, STANDARD_WATER);
    map.validate().unwrap();
    // Bad input is refused and changes nothing.
    let before = map.clone();
    water.door = Some((true, STANDARD_WATER));
    assert_eq!(set_tile_rules(&mut map, STANDARD_WATER, water.clone()), Err(TileEditError::DoorToItself));
    water.door = None;
    water.cost = -1.0;
    assert_eq!(set_tile_rules(&mut map, STANDARD_WATER, water.clone()), Err(TileEditError::BadCost(-1.0)));
    assert_eq!(set_tile_rules(&mut map, 0, water.clone()), Err(TileEditError::EmptyTile));
    assert_eq!(set_tile_rules(&mut map, 99, water), Err(TileEditError::NoSuchTile(99)));
    assert_eq!(map, before);
    let id = add_tile(&mut map, "lava").unwrap();
    assert_eq!(map.tiles[usize::from(id)].name, "lava");
}

/// Tiled tiles whose glyphs their rules imply (an image, no look properties): a door released
/// from its pair is no door, and shows what its rules now imply, as a rule edit of its own
/// would (so a save writes no look property for it). Glyphs of the designer's own stay.
#[test]
fn a_released_door_of_a_tiled_tileset_shows_what_its_rules_imply() {
    use sightline::core::edit::{TileRules, set_tile_rules};
    use sightline::core::model::tile::{
        Glyph, STANDARD_CLOSED_DOOR, STANDARD_OPEN_DOOR, STANDARD_WALL, STANDARD_WATER, Sprite,
    };
    let tiled = |map: &mut sightline::core::Map| {
        for (index, kind) in map.tiles.iter_mut().enumerate().skip(1) {
            kind.sprite = Some(Sprite { sheet: 0, index: index as u32 });
            let door = kind.door.map(|d| d.open);
            kind.glyph = Glyph::implied(kind.opaque, kind.walkable, door, kind.glyph.fg);
        }
    };
    let glyphs = |map: &sightline::core::Map| {
        [STANDARD_WALL, STANDARD_CLOSED_DOOR, STANDARD_OPEN_DOOR, STANDARD_WATER]
            .map(|t| map.tiles[usize::from(t)].glyph.ch)
            .iter()
            .collect::<String>()
    };
    let mut map = sightline::core::format::ascii::parse("#.+'~").unwrap();
    tiled(&mut map);
    assert_eq!(glyphs(&map), "#+'.", "wall, closed door, open door, water (wadeable: a floor)");
    // Water becomes the open side of the closed door: the old open door is released.
    let mut water = TileRules::of(&map.tiles[usize::from(STANDARD_WATER)]);
    (water.opaque, water.walkable, water.door) = (false, true, Some((true, STANDARD_CLOSED_DOOR)));
    set_tile_rules(&mut map, STANDARD_WATER, water.clone()).unwrap();
    assert_eq!(glyphs(&map), "#+.'", "the released open door shows a floor, the water an open door");
    // The closed door is paired with the wall instead: water is released (an open floor now).
    let mut closed = TileRules::of(&map.tiles[usize::from(STANDARD_CLOSED_DOOR)]);
    closed.door = Some((false, STANDARD_WALL));
    set_tile_rules(&mut map, STANDARD_CLOSED_DOOR, closed).unwrap();
    assert_eq!(glyphs(&map), "'+..", "the wall the open side, the water released");
    // A glyph of the designer's own is kept when its door is released.
    let mut map = sightline::core::format::ascii::parse("#.+'~").unwrap();
    tiled(&mut map);
    map.tiles[usize::from(STANDARD_OPEN_DOOR)].glyph.ch = '/';
    set_tile_rules(&mut map, STANDARD_WATER, water).unwrap();
    assert_eq!(glyphs(&map), "#+/'");
}

#[test]
fn resizing_places_the_old_map_by_its_anchor() {
    use sightline::core::Anchor;
    use sightline::core::model::tile::STANDARD_FLOOR;
    let map = ascii::parse("##\n#@").unwrap();
    let drawn =
        |m: &sightline::core::Map| ascii::to_string(m).unwrap().0.lines().map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(drawn(&map.resized(4, 3, Anchor::BottomRight, STANDARD_FLOOR).unwrap()), ["....", "..##", "..#@"]);
    assert_eq!(drawn(&map.resized(4, 3, Anchor::TopLeft, STANDARD_FLOOR).unwrap()), ["##..", "#@..", "...."]);
    assert_eq!(drawn(&map.resized(4, 4, Anchor::Centre, STANDARD_FLOOR).unwrap()), ["....", ".##.", ".#@.", "...."]);
    // Shrinking drops what falls off, objects too.
    let small = map.resized(1, 1, Anchor::TopLeft, STANDARD_FLOOR).unwrap();
    assert_eq!(drawn(&small), ["#"]);
    assert!(small.objects.is_empty());
    assert!(map.resized(0, 3, Anchor::TopLeft, STANDARD_FLOOR).is_err());
}

/// A layer's flips as rows: '.' as drawn, else the flags' hex digit (as sightline's RON writes).
fn flip_art(map: &sightline::core::Map, layer: usize) -> Vec<String> {
    let w = map.width() as usize;
    (0..map.height() as usize)
        .map(|y| {
            (0..w)
                .map(|x| match map.layers[layer].flip(y * w + x).bits() {
                    0 => '.',
                    b => char::from_digit(u32::from(b), 16).unwrap(),
                })
                .collect()
        })
        .collect()
}

#[test]
fn flipped_tiles_stay_flipped_through_resizes_merges_and_door_toggles() {
    use sightline::core::model::flip::Flip;
    use sightline::core::model::layers;
    use sightline::core::{Anchor, Layer};
    let mut map = ascii::parse(
        "#####\n\
         #.+.#\n\
         #####\n",
    )
    .unwrap();
    let door = Cell::new(2, 1);
    let closed = map.tile(0, door).unwrap();
    assert!(map.set_flipped_tile(0, door, closed, Flip::HORIZONTAL));
    assert!(map.set_flipped_tile(0, Cell::new(0, 0), map.tile(0, Cell::new(0, 0)).unwrap(), Flip::VERTICAL));
    // Opening the door keeps it mirrored: the open door is the same door.
    let open = map.toggle_door(door).unwrap();
    assert_eq!(map.flipped_tile(0, door), Some((open, Flip::HORIZONTAL)));
    // Growing the map by one column on the left moves the flips with their tiles.
    let grown = map.resized(6, 3, Anchor::Right, sightline::core::model::tile::STANDARD_FLOOR).unwrap();
    assert_eq!(flip_art(&grown, 0), [".4....", "...8..", "......"]);
    // A layer merged down brings its flips, and covers the lower layer's.
    let mut two = grown.clone();
    let mut upper = Layer::filled("upper", two.len(), 0);
    upper.set(1, STANDARD_WATER, Flip::ANTI_DIAGONAL);
    upper.set(2, STANDARD_WATER, Flip::NONE);
    two.layers.push(upper);
    layers::merge_down(&mut two, sightline::core::LayerRef::Tiles(1)).unwrap();
    assert_eq!(flip_art(&two, 0), [".2....", "...8..", "......"]);
    // Painting over a flipped tile paints it as the brush has it.
    assert_eq!(paint(&mut two, 0, &[Cell::new(1, 0)], STANDARD_WATER), 1, "the same tile, now unflipped");
    assert_eq!(flip_art(&two, 0)[0], "......");
}

/// A map's ground layer as ASCII rows.
fn drawn(map: &sightline::core::Map) -> Vec<String> {
    ascii::to_string(map).unwrap().0.lines().map(str::to_owned).collect()
}

/// A selection drawn as the map is: `#` selected, `.` not.
fn selection_art(s: &sightline::core::edit::selection::Selection) -> Vec<String> {
    (0..s.height() as i32)
        .map(|y| (0..s.width() as i32).map(|x| if s.contains(Cell::new(x, y)) { '#' } else { '.' }).collect())
        .collect()
}

#[test]
fn the_magic_wand_takes_the_like_tiles_joined_to_a_cell_and_same_tile_takes_them_all() {
    use sightline::core::edit::selection::Selection;
    use sightline::core::model::flip::Flip;
    use sightline::core::model::tile::{STANDARD_FLOOR, STANDARD_WALL};
    let mut map = ascii::parse(
        "..#~~\n\
         ..#..\n\
         ###..\n\
         .~~..\n",
    )
    .unwrap();
    let floor = (STANDARD_FLOOR, Flip::NONE);
    // Edge-joined floor only: the top-left room, not the floor beyond the wall's corner.
    let wand = Selection::contiguous(&map, 0, Cell::new(0, 0), &[floor]);
    assert_eq!(selection_art(&wand), ["##...", "##...", ".....", "....."]);
    // A drag that crossed water too joins through it.
    let water = (STANDARD_WATER, Flip::NONE);
    let wider = Selection::contiguous(&map, 0, Cell::new(4, 3), &[floor, water]);
    assert_eq!(selection_art(&wider), ["...##", "...##", "...##", "#####"]);
    // Same tile: every floor cell, joined or not.
    let same = Selection::same_tile(&map, 0, &[floor]);
    assert_eq!(selection_art(&same), ["##...", "##.##", "...##", "#..##"]);
    // A mirrored floor is another tile to both, as in Tiled.
    assert!(map.set_flipped_tile(0, Cell::new(1, 1), STANDARD_FLOOR, Flip::HORIZONTAL));
    let wand = Selection::contiguous(&map, 0, Cell::new(0, 0), &[floor]);
    assert_eq!(selection_art(&wand), ["##...", "#....", ".....", "....."]);
    assert!(!Selection::same_tile(&map, 0, &[floor]).contains(Cell::new(1, 1)));
    // A cell of none of the tiles, or off the map, selects nothing.
    assert!(Selection::contiguous(&map, 0, Cell::new(2, 0), &[floor]).is_empty());
    assert!(Selection::contiguous(&map, 0, Cell::new(9, 0), &[floor]).is_empty());
    assert!(Selection::same_tile(&map, 0, &[(STANDARD_WALL, Flip::VERTICAL)]).is_empty());
}

#[test]
fn a_copied_selection_pastes_its_shape_and_a_paste_stays_inside_a_selection() {
    use sightline::core::edit::Stamp;
    use sightline::core::edit::selection::Selection;
    let map = ascii::parse(
        "#~#..\n\
         ~#~..\n\
         .....\n",
    )
    .unwrap();
    // An L of three cells: its stamp is the 2 × 2 bounds with the fourth cell empty.
    let l = Selection::from_cells(5, 3, [Cell::new(0, 0), Cell::new(0, 1), Cell::new(1, 1)]);
    let stamp = Stamp::copy_selection(&map, 0, &l).unwrap();
    assert_eq!((stamp.width, stamp.height), (2, 2));
    let mut pasted = map.clone();
    assert_eq!(stamp.paste(&mut pasted, 0, Cell::new(3, 1), None), 3);
    assert_eq!(drawn(&pasted), ["#~#..", "~#~#.", "...~#"]);
    // Inside a selection of the right column only, one cell of the three lands.
    let mut masked = map.clone();
    let column = Selection::rect(5, 3, Cell::new(4, 0), Cell::new(4, 2));
    assert_eq!(stamp.paste(&mut masked, 0, Cell::new(3, 1), Some(&column)), 1);
    assert_eq!(drawn(&masked), ["#~#..", "~#~..", "....#"]);
    assert_eq!(Stamp::copy_selection(&map, 0, &Selection::empty(5, 3)), None);
}

#[test]
fn cropping_keeps_a_rectangle_and_the_objects_inside_it() {
    let map = ascii::parse(
        "######\n\
         #.@..#\n\
         #..g.#\n\
         ######\n",
    )
    .unwrap();
    // Corners in either order; the goblin outside is dropped, the player moves with its cell.
    let cropped = map.cropped(Cell::new(2, 3), Cell::new(1, 1)).unwrap();
    assert_eq!(drawn(&cropped), [".@", "..", "##"]);
    assert_eq!(cropped.objects.len(), 1);
    assert_eq!(cropped.objects[0].cell, Cell::new(1, 0));
    // Clipped to the map; a rectangle off it is refused.
    assert_eq!(drawn(&map.cropped(Cell::new(4, 2), Cell::new(9, 9)).unwrap()), [".#", "##"]);
    assert!(map.cropped(Cell::new(7, 0), Cell::new(9, 2)).is_err());
}
