//! FOV: every algorithm on every wall pattern of a small map, symmetry on random maps, and the
//! classic cases drawn as ASCII with the expected view drawn beside them.

use sightline::core::Cell;
use sightline::core::fov::{self, Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet};

fn view(algorithm: Algorithm, grid: &OpacityGrid, origin: Cell, radius: Option<u32>) -> VisibleSet {
    let mut visible = VisibleSet::new(grid.width() as u32, grid.height() as u32);
    fov::compute(algorithm, grid, FovParams::new(origin, radius), &mut visible);
    visible
}

/// Every wall pattern of a 4×4 map (2¹⁶), every origin, unlimited and radius 2, walls lit and not:
/// no panic, the origin is visible, nothing lies beyond the radius or off the map, unlit walls are
/// never reported, and `circle` contains every other algorithm's view.
#[test]
fn exhaustive_4x4_every_pattern_every_origin() {
    const W: i32 = 4;
    let mut sets: Vec<VisibleSet> = Algorithm::ALL.iter().map(|_| VisibleSet::new(4, 4)).collect();
    let mut grid = OpacityGrid::new(4, 4);
    for pattern in 0u32..1 << 16 {
        for i in 0..16 {
            grid.set(i % W, i / W, pattern & (1 << i) != 0);
        }
        for origin_index in 0..16 {
            let origin = Cell::new(origin_index % W, origin_index / W);
            for radius in [None, Some(2)] {
                let light_walls = pattern % 3 != 0;
                let params = FovParams { origin, radius, light_walls };
                for (a, set) in Algorithm::ALL.iter().zip(sets.iter_mut()) {
                    fov::compute(*a, &grid, params, set);
                }
                let circle = &sets[0];
                for (a, set) in Algorithm::ALL.iter().zip(&sets) {
                    assert!(set.contains_cell(origin), "{a}: origin {origin} not visible, pattern {pattern:#06x}");
                    for c in set.iter() {
                        assert!(grid.in_bounds(c.x, c.y));
                        if let Some(r) = radius {
                            assert!(c.distance_squared(origin) <= i64::from(r * r), "{a}: {c} beyond radius {r}");
                        }
                        if !light_walls && c != origin {
                            assert!(!grid.is_opaque(c.x, c.y), "{a}: unlit wall {c} reported, pattern {pattern:#06x}");
                        }
                        assert!(circle.contains_cell(c), "{a}: {c} outside circle, pattern {pattern:#06x}");
                    }
                }
            }
        }
    }
}

/// A map with walls at random (`generate::noise`), as opacity.
fn random_grid(width: u32, height: u32, density: f64, seed: u64) -> OpacityGrid {
    OpacityGrid::from_map(&sightline::core::generate::noise(width, height, density, seed).unwrap())
}

/// For every transparent cell, its view; returns (cells, views) with views[i] the view from cells[i].
fn all_views(algorithm: Algorithm, grid: &OpacityGrid, radius: Option<u32>) -> Vec<(Cell, VisibleSet)> {
    let mut out = Vec::new();
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            if !grid.is_opaque(x, y) {
                out.push((Cell::new(x, y), view(algorithm, grid, Cell::new(x, y), radius)));
            }
        }
    }
    out
}

/// Counts ordered pairs of transparent cells (A, B) where A sees B but B does not see A.
fn asymmetric_pairs(views: &[(Cell, VisibleSet)]) -> usize {
    let mut count = 0;
    for (a, va) in views {
        for (b, vb) in views {
            if a != b && va.contains_cell(*b) && !vb.contains_cell(*a) {
                count += 1;
            }
        }
    }
    count
}

/// A radius past every cell of the map, up to the largest a `u32` holds (whose square passes
/// `i64`), sees what no radius sees, for every algorithm.
#[test]
fn a_radius_past_the_map_is_no_radius() {
    for (seed, density) in [(1, 0.0), (2, 0.1), (3, 0.3)] {
        let grid = random_grid(23, 17, density, seed);
        for a in Algorithm::ALL {
            for origin in [Cell::new(0, 0), Cell::new(11, 8), Cell::new(22, 3)] {
                if grid.is_opaque(origin.x, origin.y) {
                    continue;
                }
                let unlimited: Vec<Cell> = view(a, &grid, origin, None).iter().collect();
                for radius in [29, 1 << 20, 3_000_000_000, u32::MAX] {
                    let limited: Vec<Cell> = view(a, &grid, origin, Some(radius)).iter().collect();
                    assert_eq!(limited, unlimited, "{a} from {origin}, radius {radius}, density {density}");
                }
            }
        }
    }
}

#[test]
fn symmetric_and_permissive_are_symmetric_on_random_maps() {
    for (seed, density) in [(1, 0.10), (2, 0.30), (3, 0.45), (4, 0.30)] {
        let grid = random_grid(24, 20, density, seed);
        for algorithm in [Algorithm::Symmetric, Algorithm::Permissive, Algorithm::Circle] {
            for radius in [None, Some(7)] {
                let views = all_views(algorithm, &grid, radius);
                assert_eq!(asymmetric_pairs(&views), 0, "{algorithm}, density {density}, radius {radius:?}");
            }
        }
    }
}

#[test]
fn the_asymmetric_algorithms_do_show_asymmetry_on_random_maps() {
    // A check that the symmetry test can fail: these algorithms are known to be asymmetric.
    let grid = random_grid(24, 20, 0.30, 2);
    for algorithm in [Algorithm::Ray, Algorithm::Shadowcast] {
        let views = all_views(algorithm, &grid, None);
        assert!(asymmetric_pairs(&views) > 0, "{algorithm} showed no asymmetry");
    }
}

/// Draws a view: `.` lit floor, `#` lit wall, `_` unlit floor, `+` unlit wall, `@` the origin.
fn picture(grid: &OpacityGrid, visible: &VisibleSet, origin: Cell) -> Vec<String> {
    (0..grid.height())
        .map(|y| {
            (0..grid.width())
                .map(|x| match (Cell::new(x, y) == origin, grid.is_opaque(x, y), visible.contains(x, y)) {
                    (true, _, _) => '@',
                    (false, false, true) => '.',
                    (false, true, true) => '#',
                    (false, false, false) => '_',
                    (false, true, false) => '+',
                })
                .collect()
        })
        .collect()
}

/// Parses a picture back into a grid and an origin (`#` and `+` are walls, `@` the origin).
fn parse_picture(rows: &[&str]) -> (OpacityGrid, Cell) {
    let mut grid = OpacityGrid::new(rows[0].len() as u32, rows.len() as u32);
    let mut origin = Cell::new(0, 0);
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            grid.set(x as i32, y as i32, matches!(ch, '#' | '+'));
            if ch == '@' {
                origin = Cell::new(x as i32, y as i32);
            }
        }
    }
    (grid, origin)
}

#[track_caller]
fn assert_view(algorithm: Algorithm, radius: Option<u32>, expected: &[&str]) {
    let (grid, origin) = parse_picture(expected);
    let visible = view(algorithm, &grid, origin, radius);
    let got = picture(&grid, &visible, origin);
    assert_eq!(got, expected, "{algorithm}, radius {radius:?}:\n{}", got.join("\n"));
}

/// libtcod's FOV_BASIC, FOV_DIAMOND and FOV_SHADOW on one 11×11 map, unlimited radius, as a
/// line-by-line transliteration of libtcod's C (fov_circular_raycasting.c,
/// fov_diamond_raycasting.c, fov_recursive_shadowcasting.c at libtcod 06a1eba) draws them.
#[test]
fn ray_diamond_and_shadowcast_match_libtcod_on_a_reference_map() {
    assert_view(
        Algorithm::Ray,
        None,
        &[
            "_._____....",
            "._.____....",
            "..#.__.....",
            "....##.....",
            ".........__",
            ".....@.#___",
            ".........__",
            "...#.......",
            ".__.....#..",
            "___......_.",
            "__........_",
        ],
    );
    assert_view(
        Algorithm::Diamond,
        None,
        &[
            "______.....",
            "._____.....",
            "..#.__.....",
            "....##.....",
            "...........",
            ".....@.#___",
            "...........",
            "...#.......",
            ".._.....#..",
            "._......._.",
            "_........._",
        ],
    );
    assert_view(
        Algorithm::Shadowcast,
        None,
        &[
            "______.....",
            "._____.....",
            "..#.__.....",
            "....##.....",
            "...........",
            ".....@.#___",
            "...........",
            "...#.......",
            ".._.....#..",
            "__......._.",
            "__........_",
        ],
    );
}

/// The same map at radius 3. libtcod's wall pass also lights (2,2) and (8,8), outside the circle
/// (dx² + dy² = 18 > 9); ours keeps to the radius, as every algorithm here does.
#[test]
fn the_wall_lighting_pass_stays_within_the_radius() {
    let expected = [
        "___________",
        "___________",
        "__+________",
        "___.##..___",
        "___.....___",
        "__...@.#___",
        "___.....___",
        "___#....___",
        "_____.__+__",
        "___________",
        "___________",
    ];
    assert_view(Algorithm::Ray, Some(3), &expected);
    assert_view(Algorithm::Diamond, Some(3), &expected);
    assert_view(Algorithm::Shadowcast, Some(3), &expected);
}

/// Ford: symmetric shadowcasting "maps exactly to line of sight with Bresenham's algorithm": a
/// floor tile B is visible from a floor tile A exactly when one of the two digital lines from A to
/// B (every tie rounded up, or every tie rounded down) has only floor strictly between them
/// ([`fov::targeting::shot`]).
fn bresenham_line_of_sight(grid: &OpacityGrid, a: Cell, b: Cell) -> bool {
    fov::targeting::shot(grid, a, b).is_clear()
}

#[test]
fn symmetric_matches_bresenham_targeting_as_ford_claims() {
    for (seed, density) in [(11, 0.1), (12, 0.3), (13, 0.45)] {
        let grid = random_grid(22, 18, density, seed);
        let mut checked = 0;
        for (a, va) in all_views(Algorithm::Symmetric, &grid, None) {
            for y in 0..grid.height() {
                for x in 0..grid.width() {
                    let b = Cell::new(x, y);
                    if b != a && !grid.is_opaque(x, y) {
                        assert_eq!(
                            va.contains_cell(b),
                            bresenham_line_of_sight(&grid, a, b),
                            "from {a} to {b}, density {density}, seed {seed}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }
}

// The classic cases. Pictures: `@` the viewer, `.` seen floor, `#` seen wall, `_` unseen floor,
// `+` unseen wall.

/// A pillar two steps away. Symmetric shadowcasting's shadow widens with distance (Ford's
/// "expanding pillar shadows": (+4, −1) is seen past the pillar's corner, (+5, −1) is not, and
/// (+8, −2) is, (+9, −2) is not, exactly as the two Bresenham lines say); permissive FOV hides only
/// the row straight behind it; Milazzo's beveled pillar casts a narrower, expanding shadow.
#[test]
fn pillar_shadows() {
    assert_view(
        Algorithm::Symmetric,
        None,
        &[
            "#############",
            "#...........#",
            "#.........._+",
            "#......_____+",
            "#.@.#_______+",
            "#......_____+",
            "#.........._+",
            "#...........#",
            "#############",
        ],
    );
    assert_view(
        Algorithm::Shadowcast,
        None,
        &[
            "#############",
            "#...........#",
            "#.........._+",
            "#.......____+",
            "#.@.#_______+",
            "#.......____+",
            "#.........._+",
            "#...........#",
            "#############",
        ],
    );
    assert_view(
        Algorithm::Permissive,
        None,
        &[
            "#############",
            "#...........#",
            "#...........#",
            "#...........#",
            "#.@.#_______+",
            "#...........#",
            "#...........#",
            "#...........#",
            "#############",
        ],
    );
    assert_view(
        Algorithm::Milazzo,
        None,
        &[
            "#############",
            "#...........#",
            "#...........#",
            "#.......____+",
            "#.@.#_______+",
            "#.......____+",
            "#...........#",
            "#...........#",
            "#############",
        ],
    );
}

/// Corner peeking: at the end of a corridor, recursive shadowcasting shows the first cell of the
/// corridor that turns away, (9, 2); symmetric shadowcasting does not (both Bresenham lines to it
/// run through the wall below the corridor).
#[test]
fn corner_peeking() {
    assert_view(
        Algorithm::Shadowcast,
        None,
        &["###########", "#@........#", "#########.#", "________+_+", "________+_+"],
    );
    assert_view(
        Algorithm::Symmetric,
        None,
        &["###########", "#@........#", "#########_#", "________+_+", "________+_+"],
    );
}

/// A map one cell high, and one cell wide: every algorithm that occludes sees along it up to the
/// first wall each way, and the wall. (permissive saw only the origin here until session 51, as
/// libtcod's does: Duerig's quadrants have no width on such a map.) With a radius of 2, the
/// cells 2 away, no further.
#[test]
fn a_map_one_cell_high_or_wide_is_seen_along_to_its_first_walls() {
    for algorithm in Algorithm::ALL.into_iter().filter(|&a| a != Algorithm::Circle) {
        assert_view(algorithm, None, &["+_#..@....#__"]);
        assert_view(algorithm, None, &["_", "#", ".", ".", "@", ".", "#", "+"]);
        assert_view(algorithm, Some(2), &["__..@..___"]);
        assert_view(algorithm, Some(2), &["_", ".", ".", "@", "#", "_"]);
    }
}

/// A diagonal gap: two walls that touch only at a corner, on the viewer's diagonal. Symmetric
/// shadowcasting sees through it along the diagonal (the line passes the corner point exactly);
/// permissive FOV sees through it widely; diamond walls close it.
#[test]
fn diagonal_gap() {
    assert_view(Algorithm::Symmetric, None, &["###+###", "#.__..+", "#.#.__+", "#..#_.#", "#@....#", "#######"]);
    assert_view(Algorithm::Permissive, None, &["###+###", "#.....#", "#.#.._+", "#..#..#", "#@....#", "#######"]);
    assert_view(Algorithm::Diamond, None, &["###++++", "#.____+", "#.#___#", "#..#_.#", "#@....#", "#######"]);
}

/// Shot from the dark: with recursive shadowcasting a monster in a side corridor at (5, 4) sees
/// the player at (4, 1) while the player does not see it. Symmetric shadowcasting: neither sees
/// the other.
#[test]
fn corridor_asymmetry() {
    let from_player = ["##########", "#...@....#", "#####.####", "____+.#___", "____+_+___"];
    let from_monster = ["++++###+++", "+___...__+", "++++#.#+++", "____#.#___", "____#@#___"];
    assert_view(Algorithm::Shadowcast, None, &from_player);
    assert_view(Algorithm::Shadowcast, None, &from_monster);
    assert_view(Algorithm::Symmetric, None, &["##########", "#...@....#", "#####.####", "____+.#___", "____+_#___"]);
    assert_view(Algorithm::Symmetric, None, &["++++###+++", "+____.___+", "++++#.#+++", "____#.#___", "____#@#___"]);
}

/// Shadowline: a wall's shadow joins the line at once, and can hide the next tile of the same
/// row. The wall at (6, 2) merges with the shadow of (6, 4) into one that holds the whole
/// projection of (7, 2), so (7, 2) is dark; the shadow of (6, 4) alone does not hold it (it
/// starts at 2/3, the tile at 5/8), so a scan that added a row's shadows only once the row was
/// done would light it.
#[test]
fn shadowline_hides_behind_a_shadow_added_on_the_same_row() {
    assert_view(
        Algorithm::Shadowline,
        None,
        &[
            "#######+++",
            "#......__+",
            "#.....#__+",
            "#......_.#",
            "#.....#..#",
            "#........#",
            "#........#",
            "#........#",
            "#.@......#",
            "##########",
        ],
    );
}
