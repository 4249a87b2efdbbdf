//! Map edits the editor's tools make, one file a kind: the cells a stroke or fill covers
//! (`cells`), painting tiles (`paint`), tile types' rules (`tile_rules`), stamps for copy and
//! paste (`stamp`), selections, terrain brushes, and tiles moved between maps
//! (`tile_transfer`). The app turns pointer input into these.

pub mod selection;
pub mod terrain;
pub mod tile_transfer;

mod cells;
mod paint;
mod stamp;
mod tile_rules;

pub use cells::*;
pub use paint::*;
pub use stamp::*;
pub use tile_rules::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::flip::{Flip, Turn};
    use crate::core::model::geometry::Cell;
    use crate::core::model::map::Map;
    use crate::core::model::object::{MapObject, ObjectKind, ObjectShape, cell_under};
    use crate::core::model::tile::{PropertyValue, TileId};

    /// A stamp from rows of letters ('.' empty), each tile's id its letter's place in the
    /// alphabet, flipped by `flip`.
    fn stamp(rows: &[&str], flip: Flip) -> Stamp {
        let cells: Vec<TileId> =
            rows.concat().chars().map(|c| if c == '.' { 0 } else { c as TileId - 'a' as TileId + 1 }).collect();
        let mut s = Stamp::new(rows[0].len() as u32, cells);
        for (f, &t) in s.flips.iter_mut().zip(&s.cells) {
            if t != 0 {
                *f = flip;
            }
        }
        s
    }

    fn rows(s: &Stamp) -> Vec<String> {
        s.cells
            .chunks(s.width as usize)
            .map(|r| r.iter().map(|&t| if t == 0 { '.' } else { (b'a' + t as u8 - 1) as char }).collect())
            .collect()
    }

    #[test]
    fn a_stamp_turns_and_mirrors_its_layout_and_each_tile_with_it() {
        let s = stamp(&["ab.", "c.d"], Flip::NONE);
        let cw = s.rotated_clockwise();
        assert_eq!(rows(&cw), ["ca", ".b", "d."]);
        assert_eq!((cw.width, cw.height), (2, 3));
        let turned = Flip::NONE.rotated_clockwise();
        assert_eq!(cw.flips, [turned, turned, Flip::NONE, turned, turned, Flip::NONE]);
        assert_eq!(s.rotated_counterclockwise().rotated_clockwise(), s);
        assert_eq!(cw.rotated_clockwise().rotated_clockwise().rotated_clockwise(), s);
        assert_eq!(rows(&s.rotated_counterclockwise()), [".d", "b.", "ac"]);
        let h = s.flipped_horizontally();
        assert_eq!(rows(&h), [".ba", "d.c"]);
        assert_eq!(h.flips[1], Flip::HORIZONTAL);
        assert_eq!(h.flips[0], Flip::NONE, "an empty cell stays unflipped");
        assert_eq!(rows(&s.flipped_vertically()), ["c.d", "ab."]);
        assert_eq!(s.flipped_vertically().flips[0], Flip::VERTICAL);
        assert_eq!(s.flipped_horizontally().flipped_vertically(), s.rotated_clockwise().rotated_clockwise());
    }

    /// Lays `s` along `path` with one stroke and draws the copies on a `width`×`height` grid of
    /// letters ('.' nothing laid).
    fn laid_along(s: &Stamp, path: &[Cell], width: usize, height: usize) -> Vec<String> {
        let mut grid = vec![vec!['.'; width]; height];
        for at in StampStroke::new(s).extend(path) {
            for (c, t, _) in s.placed(at) {
                grid[c.y as usize][c.x as usize] = (b'a' + t as u8 - 1) as char;
            }
        }
        grid.into_iter().map(String::from_iter).collect()
    }

    #[test]
    fn a_stroke_lays_whole_stamps_side_by_side_not_a_smear() {
        let tree = stamp(&["ab", "cd"], Flip::NONE);
        // A drag along the top row, one cell at a time: a copy every second cell.
        let row: Vec<Cell> = (0..6).map(|x| Cell::new(x, 0)).collect();
        assert_eq!(laid_along(&tree, &row, 8, 2), ["ababab..", "cdcdcd.."]);
        // A diagonal drag: each copy starts where the last one ends.
        let diagonal = line_cells(Cell::new(0, 0), Cell::new(5, 5));
        assert_eq!(laid_along(&tree, &diagonal, 6, 6), ["ab....", "cd....", "..ab..", "..cd..", "....ab", "....cd"]);
        // A shallow line: the copies at (1, 0), (3, 1) and (5, 2) would overlap; each
        // laid copy steps down a row with the line.
        let shallow = line_cells(Cell::new(0, 0), Cell::new(5, 2));
        assert_eq!(laid_along(&tree, &shallow, 8, 4), ["ab......", "cdab....", "..cdab..", "....cd.."]);
    }

    #[test]
    fn a_stroke_coming_back_over_its_copies_lays_nothing_there() {
        let wide = stamp(&["abc"], Flip::NONE);
        let mut stroke = StampStroke::new(&wide);
        let out: Vec<Cell> = (0..6).map(|x| Cell::new(x, 0)).collect();
        assert_eq!(stroke.extend(&out), [Cell::new(0, 0), Cell::new(3, 0)]);
        let back: Vec<Cell> = (0..6).rev().map(|x| Cell::new(x, 0)).collect();
        assert_eq!(stroke.extend(&back), []);
        // One row down, the copies fit again.
        assert_eq!(stroke.extend(&[Cell::new(1, 1)]), [Cell::new(1, 1)]);
        // A 1×1 stamp lays a copy on every cell once, as the brush paints.
        let dot = stamp(&["a"], Flip::NONE);
        let mut stroke = StampStroke::new(&dot);
        assert_eq!(stroke.extend(&out).len(), 6);
        assert_eq!(stroke.extend(&back), []);
    }

    /// The empty tile painted with a flipped brush erases: the cell keeps no flip (a Tiled save
    /// could not hold one, and the map read back would differ), and an empty cell painted so
    /// is no change.
    #[test]
    fn the_empty_tile_painted_flipped_leaves_no_flip() {
        let mut map = Map::new_standard(3, 1, 1).unwrap();
        let cells = [Cell::new(0, 0), Cell::new(1, 0)];
        assert_eq!(paint_flipped(&mut map, 0, &cells, 2, Flip::HORIZONTAL), 2);
        assert_eq!(paint_flipped(&mut map, 0, &cells[..1], crate::core::model::tile::EMPTY, Flip::HORIZONTAL), 1);
        assert_eq!(map.flipped_tile(0, cells[0]), Some((crate::core::model::tile::EMPTY, Flip::NONE)));
        assert_eq!(map.flipped_tile(0, cells[1]), Some((2, Flip::HORIZONTAL)));
        assert_eq!(
            paint_flipped(&mut map, 0, &cells[..1], crate::core::model::tile::EMPTY, Flip::VERTICAL),
            0,
            "no change"
        );
    }

    /// A stamp object of `kind` on `cell` of a stamp, with shape `shape` (`None`: a marker).
    fn stamp_object(name: &str, cell: Cell, shape: Option<ObjectShape>, anchor: [f64; 2]) -> StampObject {
        let object = MapObject { name: name.into(), shape, ..MapObject::new(ObjectKind::Other(String::new()), cell) };
        StampObject { object, anchor }
    }

    /// Where a stamp's object is, in the stamp's pixels: a box's four corners, a polygon's or
    /// path's points, a point, a marker's cell middle; in millionths of a pixel, sorted.
    fn footprint(s: &Stamp, o: &StampObject) -> Vec<[i64; 2]> {
        use crate::core::model::object::ShapeKind;
        let [tw, th] = s.grid;
        let cell = [f64::from(o.object.cell.x) * tw, f64::from(o.object.cell.y) * th];
        let mut points = match &o.object.shape {
            None => vec![[cell[0] + tw / 2.0, cell[1] + th / 2.0]],
            Some(shape) => {
                let local: Vec<[f64; 2]> = match (&shape.kind, shape.kind.size()) {
                    (ShapeKind::Polygon(p) | ShapeKind::Polyline(p), _) => p.clone(),
                    (kind, Some([w, h])) => {
                        let [ax, ay] = if matches!(kind, ShapeKind::Tile { .. }) { o.anchor } else { [0.0, 0.0] };
                        let (us, vs) = ([-ax * w, (1.0 - ax) * w], [-ay * h, (1.0 - ay) * h]);
                        us.iter().flat_map(|&u| vs.iter().map(move |&v| [u, v])).collect()
                    }
                    _ => vec![[0.0, 0.0]],
                };
                let origin = [cell[0] + shape.offset[0], cell[1] + shape.offset[1]];
                let turned = local.iter().map(|&p| crate::core::model::object::rotated(p, shape.rotation));
                turned.map(|[u, v]| [origin[0] + u, origin[1] + v]).collect()
            }
        };
        points.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let mut out: Vec<[i64; 2]> = points.iter().map(|p| p.map(|x| (x * 1e6).round() as i64)).collect();
        out.sort();
        out
    }

    #[test]
    fn a_stamps_objects_turn_and_mirror_with_it_each_covering_its_image() {
        use crate::core::model::object::{ObjectText, ShapeKind};
        let shape = |offset: [f64; 2], rotation: f64, kind: ShapeKind| Some(ObjectShape { offset, rotation, kind });
        let tile = ShapeKind::Tile { tile: 1, flip: Flip::NONE, width: 16.0, height: 16.0 };
        let text = ShapeKind::Text { width: 30.0, height: 12.0, text: Box::new(ObjectText::new("Hello")) };
        let mut s = Stamp::new(3, vec![0; 6]);
        s.grid = [16.0, 16.0];
        s.objects = vec![
            stamp_object(
                "zone",
                Cell::new(0, 0),
                shape([2.0, 3.0], 0.0, ShapeKind::Rectangle { width: 20.0, height: 10.0 }),
                [0.0, 0.0],
            ),
            stamp_object(
                "turned",
                Cell::new(2, 1),
                shape([1.0, 1.0], 30.0, ShapeKind::Ellipse { width: 10.0, height: 6.0 }),
                [0.0, 0.0],
            ),
            stamp_object(
                "poly",
                Cell::new(1, 0),
                shape([8.0, 8.0], 0.0, ShapeKind::Polygon(vec![[0.0, 0.0], [12.0, 0.0], [0.0, 9.0]])),
                [0.0, 0.0],
            ),
            stamp_object(
                "path",
                Cell::new(1, 1),
                shape([4.0, 4.0], 45.0, ShapeKind::Polyline(vec![[0.0, 0.0], [5.0, 7.0]])),
                [0.0, 0.0],
            ),
            stamp_object("tile", Cell::new(0, 1), shape([0.0, 16.0], 0.0, tile.clone()), [0.0, 1.0]),
            stamp_object("centred tile", Cell::new(2, 0), shape([8.0, 8.0], 0.0, tile), [0.5, 0.5]),
            stamp_object("text", Cell::new(1, 0), shape([0.0, 2.0], 0.0, text), [0.0, 0.0]),
            stamp_object("point", Cell::new(2, 0), shape([3.0, 5.0], 0.0, ShapeKind::Point), [0.0, 0.0]),
            stamp_object("monster", Cell::new(0, 1), None, [0.0, 0.0]),
        ];
        let (w, h) = (48.0, 32.0);
        // Each turn as a map of the stamp's pixels, written out on their own.
        /// A turn as a map of the stamp's pixels, given the stamp's width and height.
        type PixelMap = fn([f64; 2], f64, f64) -> [f64; 2];
        let turns: [(Turn, PixelMap); 4] = [
            (Turn::FlipHorizontally, |[x, y], w, _| [w - x, y]),
            (Turn::FlipVertically, |[x, y], _, h| [x, h - y]),
            (Turn::RotateClockwise, |[x, y], _, h| [h - y, x]),
            (Turn::RotateCounterclockwise, |[x, y], w, _| [y, w - x]),
        ];
        for (turn, image) in turns {
            let turned = s.turned(turn);
            for (before, after) in s.objects.iter().zip(&turned.objects) {
                let mut expected: Vec<[i64; 2]> = footprint(&s, before)
                    .iter()
                    .map(|p| image(p.map(|x| x as f64 / 1e6), w, h).map(|x| (x * 1e6).round() as i64))
                    .collect();
                expected.sort();
                let found = footprint(&turned, after);
                let near =
                    expected.iter().zip(&found).all(|(a, b)| (a[0] - b[0]).abs() <= 2 && (a[1] - b[1]).abs() <= 2);
                assert!(
                    near && expected.len() == found.len(),
                    "{} {turn:?}: {found:?}, not {expected:?}",
                    before.object.name
                );
                // It stands on the cell under its centre, as a load would put it.
                if let Some(shape) = &after.object.shape {
                    let position = [
                        f64::from(after.object.cell.x) * 16.0 + shape.offset[0],
                        f64::from(after.object.cell.y) * 16.0 + shape.offset[1],
                    ];
                    assert_eq!(cell_under(&shape.kind, position, after.anchor, turned.grid), after.object.cell);
                }
            }
        }
        // A mirror mirrors a tile object's image; a text keeps its letters.
        let mirrored = s.flipped_horizontally();
        let flip_of = |st: &Stamp, name: &str| match st
            .objects
            .iter()
            .find(|o| o.object.name == name)
            .and_then(|o| o.object.shape.clone())
        {
            Some(ObjectShape { kind: ShapeKind::Tile { flip, .. }, .. }) => flip,
            _ => panic!("no tile object {name}"),
        };
        assert_eq!(flip_of(&mirrored, "tile"), Flip::HORIZONTAL);
        assert_eq!(flip_of(&s.flipped_vertically(), "centred tile"), Flip::VERTICAL);
        // Four quarter turns, or two mirrors, bring every object back.
        let back = s.rotated_clockwise().rotated_clockwise().rotated_clockwise().rotated_clockwise();
        let twice = mirrored.flipped_horizontally();
        for other in [back, twice] {
            for (a, b) in s.objects.iter().zip(&other.objects) {
                assert_eq!(a.object.cell, b.object.cell, "{}", a.object.name);
                assert_eq!(footprint(&s, a).len(), footprint(&other, b).len());
                let (fa, fb) = (footprint(&s, a), footprint(&other, b));
                assert!(
                    fa.iter().zip(&fb).all(|(p, q)| (p[0] - q[0]).abs() <= 2 && (p[1] - q[1]).abs() <= 2),
                    "{}",
                    a.object.name
                );
            }
        }
        // A marker goes where a tile on its cell goes.
        let mut marked = Stamp::new(3, vec![0, 0, 0, 1, 0, 0]);
        marked.objects = vec![stamp_object("monster", Cell::new(0, 1), None, [0.0, 0.0])];
        for (turn, _) in turns {
            let t = marked.turned(turn);
            let at = t.cells.iter().position(|&c| c == 1).unwrap() as i32;
            assert_eq!(t.objects[0].object.cell, Cell::new(at % t.width as i32, at / t.width as i32), "{turn:?}");
        }
    }

    /// Copied on 31-pixel cells (Tiled's perspective_walls) and pasted on 16-pixel ones: each
    /// shape is scaled with the cells, covers the same cells, stands on its cell (the one under
    /// its centre, where a save and a load put it), and a marker stays a marker.
    #[test]
    fn objects_pasted_into_a_map_of_other_cells_cover_the_same_cells() {
        use crate::core::model::object::{ObjectText, ShapeKind};
        let shape = |offset: [f64; 2], rotation: f64, kind: ShapeKind| Some(ObjectShape { offset, rotation, kind });
        let mut s = Stamp::new(3, vec![0; 6]);
        s.grid = [31.0, 31.0];
        s.objects = vec![
            stamp_object(
                "zone",
                Cell::new(0, 0),
                shape([0.0, 0.0], 0.0, ShapeKind::Rectangle { width: 46.0, height: 31.0 }),
                [0.0, 0.0],
            ),
            stamp_object("marker", Cell::new(2, 1), shape([15.5, 15.5], 0.0, ShapeKind::Point), [0.0, 0.0]),
            stamp_object("point", Cell::new(1, 0), shape([24.5, 26.25], 0.0, ShapeKind::Point), [0.0, 0.0]),
            stamp_object(
                "path",
                Cell::new(1, 1),
                shape([4.0, 4.0], 45.0, ShapeKind::Polyline(vec![[0.0, 0.0], [40.0, 7.0]])),
                [0.0, 0.0],
            ),
            stamp_object(
                "tile",
                Cell::new(0, 1),
                shape([0.0, 31.0], 0.0, ShapeKind::Tile { tile: 1, flip: Flip::NONE, width: 31.0, height: 31.0 }),
                [0.0, 1.0],
            ),
            stamp_object(
                "text",
                Cell::new(1, 1),
                shape(
                    [2.0, 3.0],
                    0.0,
                    ShapeKind::Text { width: 50.0, height: 20.0, text: Box::new(ObjectText::new("Hi")) },
                ),
                [0.0, 0.0],
            ),
            stamp_object("monster", Cell::new(0, 1), None, [0.0, 0.0]),
        ];
        for o in &s.objects {
            if let Some(shape) = &o.object.shape {
                let position = shape.position(o.object.cell, [31, 31]);
                assert_eq!(cell_under(&shape.kind, position, o.anchor, s.grid), o.object.cell, "{}", o.object.name);
            }
        }
        let mut map = Map::new_standard(8, 4, 1).unwrap();
        map.tile_size = [16, 16];
        let at = Cell::new(3, 1);
        let pasted = s.paste_objects(&mut map, 0, at, None);
        assert_eq!(pasted.ids.len(), s.objects.len());
        let laid = Stamp {
            grid: [16.0, 16.0],
            objects: s
                .objects
                .iter()
                .zip(&pasted.ids)
                .map(|(from, id)| {
                    let o = map.objects.iter().find(|o| o.id == *id).unwrap();
                    let object = MapObject { cell: Cell::new(o.cell.x - at.x, o.cell.y - at.y), ..o.clone() };
                    StampObject { object, anchor: from.anchor }
                })
                .collect(),
            ..s.clone()
        };
        for (from, to) in s.objects.iter().zip(&laid.objects) {
            let name = &from.object.name;
            assert_eq!(to.object.cell, from.object.cell, "{name} stands where it stood in the stamp");
            // In cells, its corners and points are where they were.
            let in_cells = |st: &Stamp, o: &StampObject| -> Vec<[f64; 2]> {
                footprint(st, o)
                    .iter()
                    .map(|p| [p[0] as f64 / 1e6 / st.grid[0], p[1] as f64 / 1e6 / st.grid[1]])
                    .collect()
            };
            let (a, b) = (in_cells(&s, from), in_cells(&laid, to));
            assert!(
                a.len() == b.len()
                    && a.iter().zip(&b).all(|(p, q)| (p[0] - q[0]).abs() < 1e-6 && (p[1] - q[1]).abs() < 1e-6),
                "{name}: {b:?}, not {a:?} (in cells)"
            );
            if let Some(shape) = &to.object.shape {
                let cell = Cell::new(to.object.cell.x + at.x, to.object.cell.y + at.y);
                let position = shape.position(cell, map.tile_size);
                assert_eq!(cell_under(&shape.kind, position, to.anchor, laid.grid), cell, "{name} is on its cell");
            }
        }
        let laid_named =
            |name: &str| laid.objects.iter().find(|o| o.object.name == name).unwrap().object.shape.clone().unwrap();
        assert!(laid_named("marker").is_marker(map.tile_size), "a marker stays a marker");
        assert_eq!(laid_named("point").offset, [24.5 * 16.0 / 31.0, 26.25 * 16.0 / 31.0]);
        match laid_named("text").kind {
            ShapeKind::Text { text, .. } => {
                assert_eq!(text.pixel_size, 8, "the font scaled with the cells (16 × 16/31)")
            }
            kind => panic!("{kind:?}"),
        }
        assert_eq!(laid_named("path").rotation, 45.0);
        // On cells of the same size, nothing is scaled.
        let mut same = Map::new_standard(8, 4, 1).unwrap();
        same.tile_size = [31, 31];
        s.paste_objects(&mut same, 0, at, None);
        for (from, o) in s.objects.iter().zip(&same.objects) {
            assert_eq!(o.shape, from.object.shape, "{}", from.object.name);
        }
    }

    /// The objects of object layer 0, each drawn as its name's first letter on its cell.
    fn objects_picture(map: &Map) -> Vec<String> {
        let mut rows = vec![vec!['.'; map.width() as usize]; map.height() as usize];
        for o in map.objects.iter().filter(|o| o.layer == 0) {
            rows[o.cell.y as usize][o.cell.x as usize] = o.name.chars().next().unwrap_or('?');
        }
        rows.into_iter().map(String::from_iter).collect()
    }

    #[test]
    fn objects_copied_from_a_selection_paste_where_they_stood_in_it_with_their_references() {
        use crate::core::edit::selection::Selection;
        let mut map = Map::new_standard(8, 4, 1).unwrap();
        let add = |map: &mut Map, name: &str, kind: ObjectKind, cell: Cell| {
            map.add_object(MapObject { name: name.into(), ..MapObject::new(kind, cell) }.on_layer(0))
        };
        add(&mut map, "player", ObjectKind::PlayerStart, Cell::new(0, 0));
        add(&mut map, "goblin", ObjectKind::Monster { glyph: 'g', vision_radius: 6 }, Cell::new(1, 1));
        let door = add(&mut map, "door", ObjectKind::Other("gate".into()), Cell::new(1, 2));
        let key = add(&mut map, "key", ObjectKind::Item, Cell::new(2, 2));
        let elsewhere = add(&mut map, "xtra", ObjectKind::Item, Cell::new(4, 0));
        let key_object = map.objects.iter_mut().find(|o| o.id == key).unwrap();
        key_object.properties.insert("opens".into(), PropertyValue::Object(door));
        key_object.properties.insert("far".into(), PropertyValue::Object(elsewhere));
        assert_eq!(objects_picture(&map), ["p...x...", ".g......", ".dk.....", "........"]);

        let selection = Selection::rect(8, 4, Cell::new(0, 0), Cell::new(2, 2));
        let standing = map.objects.iter().filter(|o| selection.contains(o.cell));
        let stamp = Stamp::of_objects(&map, Cell::new(0, 0), Cell::new(2, 2), standing);
        assert_eq!((stamp.width, stamp.height, stamp.objects.len()), (3, 3, 4));
        let pasted = stamp.paste_objects(&mut map, 0, Cell::new(5, 1), None);
        // The player start is left out: the map has one.
        assert_eq!(objects_picture(&map), ["p...x...", ".g......", ".dk...g.", "......dk"]);
        assert!(pasted.player_start_left_out);
        assert_eq!((pasted.ids.len(), pasted.outside), (3, 0));
        let copy = |name: &str| map.objects.iter().find(|o| o.name == name && pasted.ids.contains(&o.id)).unwrap();
        // The key's copy opens the door's copy; what it named outside the copy it still names.
        assert_eq!(copy("key").properties["opens"], PropertyValue::Object(copy("door").id));
        assert_eq!(copy("key").properties["far"], PropertyValue::Object(elsewhere));
        assert!(pasted.ids.iter().all(|&id| id > elsewhere), "new ids");

        // Off the map, or outside the selection given, an object is left out.
        let mut map2 = Map::new_standard(8, 4, 1).unwrap();
        let pasted = stamp.paste_objects(&mut map2, 0, Cell::new(6, 2), None);
        assert_eq!(objects_picture(&map2), ["........", "........", "......p.", ".......g"]);
        assert_eq!((pasted.ids.len(), pasted.outside, pasted.player_start_left_out), (2, 2, false));
        let only = Selection::from_cells(8, 4, [Cell::new(1, 2)]);
        let mut map3 = Map::new_standard(8, 4, 1).unwrap();
        stamp.paste_objects(&mut map3, 0, Cell::new(0, 0), Some(&only));
        assert_eq!(objects_picture(&map3), ["........", "........", ".d......", "........"]);

        // Its text: the grid with the game objects' glyphs, then a line an object.
        let text = stamp.as_text(&map);
        assert_eq!(text.lines().take(3).collect::<Vec<_>>(), ["@  ", " g ", " ?*"]);
        assert!(text.contains("g goblin (monster) on 1, 1\n"), "{text}");
    }
}
