//! The shapes the editor's tools paint, drawn.

use sightline::core::Cell;
use sightline::core::edit::{fill_cells, line_cells, paint, rect_cells};
use sightline::core::format::ascii;
use sightline::core::tile::STANDARD_WATER;

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
