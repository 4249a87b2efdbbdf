//! Pathfinding: A* against Dijkstra on random maps under every movement rule, valid paths,
//! MovingAI's optimal lengths, traces that replay to the result, and drawn cases.

use std::path::Path;

use sightline::core::Cell;
use sightline::core::format::movingai;
use sightline::core::path::search::Searcher;
use sightline::core::path::{
    Algorithm, CellState, CostGrid, DiagonalLength, DiagonalPolicy, DoorRule, Heuristic, MoveRules, Moves,
    SearchParams, Trace, find_path,
};
use sightline::core::rng::Rng;

fn all_rules() -> Vec<MoveRules> {
    let mut out = vec![MoveRules::FOUR];
    for diagonal in
        [DiagonalPolicy::Always, DiagonalPolicy::Never, DiagonalPolicy::NoCornerCut, DiagonalPolicy::OneBlocked]
    {
        for diagonal_length in [DiagonalLength::Euclidean, DiagonalLength::Chebyshev, DiagonalLength::ChebyshevTieBreak]
        {
            out.push(MoveRules { moves: Moves::Eight, diagonal, diagonal_length });
        }
    }
    out
}

fn random_grid(rng: &mut Rng, w: u32, h: u32, walls: f64, weighted: bool) -> CostGrid {
    let mut grid = CostGrid::open(w, h);
    for y in 0..h as i32 {
        for x in 0..w as i32 {
            if rng.chance(walls) {
                grid.set_cost(x, y, f32::INFINITY);
            } else if weighted && rng.chance(0.3) {
                grid.set_cost(x, y, [0.5, 2.0, 3.0][rng.below(3) as usize]);
            }
        }
    }
    grid
}

/// A random passable cell.
fn random_cell(rng: &mut Rng, grid: &CostGrid) -> Cell {
    loop {
        let c = Cell::new(rng.below(grid.width() as u32) as i32, rng.below(grid.height() as u32) as i32);
        if grid.passable(c.x, c.y) {
            return c;
        }
    }
}

#[test]
fn astar_costs_equal_dijkstra_costs_and_every_path_is_a_valid_walk() {
    let mut rng = Rng::new(5);
    let mut searcher = Searcher::new();
    let mut compared = 0;
    let mut unreachable = 0;
    for round in 0..300 {
        let weighted = round % 3 == 0;
        let grid = random_grid(&mut rng, 24, 18, [0.1, 0.25, 0.4][round % 3], weighted);
        for rules in all_rules() {
            let (a, b) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
            let astar = SearchParams { algorithm: Algorithm::AStar, rules, heuristic: Heuristic::Octile, weight: 1.0 };
            let dijkstra = SearchParams { algorithm: Algorithm::Dijkstra, ..astar };
            let ra = searcher.find_path(&grid, &astar, a, b);
            let rd = searcher.find_path(&grid, &dijkstra, a, b);
            match (&ra, &rd) {
                (Some(ra), Some(rd)) => {
                    assert!(
                        (ra.cost - rd.cost).abs() < 1e-6,
                        "{rules:?} {a}->{b}: A* {} vs Dijkstra {}",
                        ra.cost,
                        rd.cost
                    );
                    assert!(ra.expanded <= rd.expanded, "A* expanded more than Dijkstra");
                    for r in [ra, rd] {
                        assert_eq!((r.path[0], *r.path.last().unwrap()), (a, b));
                        let walked = rules.walk_cost(&grid, &r.path).expect("an invalid step");
                        assert!((walked - r.cost).abs() < 1e-6);
                    }
                    compared += 1;
                }
                (None, None) => unreachable += 1,
                _ => panic!("{rules:?} {a}->{b}: A* {ra:?} vs Dijkstra {rd:?}"),
            }
            for algorithm in [Algorithm::Bfs, Algorithm::Greedy] {
                let r = searcher.find_path(&grid, &SearchParams { algorithm, ..astar }, a, b);
                assert_eq!(r.is_some(), ra.is_some(), "{algorithm:?} disagrees on reachability");
                if let (Some(r), Some(ra)) = (r, &ra) {
                    let walked = rules.walk_cost(&grid, &r.path).expect("an invalid step");
                    assert!((walked - r.cost).abs() < 1e-6);
                    assert!(r.cost >= ra.cost - 1e-6, "{algorithm:?} beat the optimum");
                    if algorithm == Algorithm::Bfs {
                        assert!(r.path.len() <= ra.path.len(), "BFS took more steps than A*");
                    }
                }
            }
        }
    }
    assert!(compared > 3000 && unreachable > 20, "{compared} compared, {unreachable} unreachable");
}

#[test]
fn movingai_arena_scenarios_all_match_their_optimal_lengths() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/movingai");
    if !dir.is_dir() {
        eprintln!("skipped: ../shared/corpus/movingai is absent");
        return;
    }
    let map = sightline::core::format::load(&dir.join("arena.map")).unwrap().map;
    let grid = CostGrid::from_map(&map, DoorRule::Impassable);
    let scenarios = movingai::parse_scenarios(&std::fs::read_to_string(dir.join("arena.map.scen")).unwrap()).unwrap();
    assert_eq!(scenarios.len(), 160);
    let mut searcher = Searcher::new();
    for s in &scenarios {
        for algorithm in [Algorithm::AStar, Algorithm::Dijkstra] {
            let params = SearchParams { algorithm, ..SearchParams::default() };
            let r = searcher.find_path(&grid, &params, s.start, s.goal).expect("a scenario without a path");
            assert!((r.cost - s.optimal_length).abs() <= 1e-4, "{algorithm:?} {s:?}: found {}", r.cost);
        }
    }
}

#[test]
fn our_own_scenarios_generated_and_verified_with_dijkstra() {
    // A scenario file of our own: random pairs on a generated cave, optimal lengths from Dijkstra,
    // written and read back in MovingAI's format, then matched by A*.
    let map = sightline::core::generate::caves(64, 48, 21).unwrap();
    let grid = CostGrid::from_map(&map, DoorRule::Impassable);
    let mut rng = Rng::new(3);
    let mut searcher = Searcher::new();
    let mut scenarios = Vec::new();
    while scenarios.len() < 100 {
        let (a, b) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
        let dijkstra = SearchParams { algorithm: Algorithm::Dijkstra, ..SearchParams::default() };
        if let Some(r) = searcher.find_path(&grid, &dijkstra, a, b) {
            scenarios.push(movingai::Scenario {
                bucket: (r.cost / 10.0) as u32,
                map: "caves.map".into(),
                map_width: 64,
                map_height: 48,
                start: a,
                goal: b,
                optimal_length: r.cost,
            });
        }
    }
    let read = movingai::parse_scenarios(&movingai::scenarios_to_string(&scenarios)).unwrap();
    assert_eq!(read.len(), 100);
    for s in &read {
        let r = searcher.find_path(&grid, &SearchParams::default(), s.start, s.goal).unwrap();
        assert!((r.cost - s.optimal_length).abs() <= 1e-4);
    }
}

#[test]
fn the_trace_replays_to_the_result() {
    let mut rng = Rng::new(8);
    for round in 0..40 {
        let grid = random_grid(&mut rng, 20, 15, 0.25, round % 2 == 0);
        let (a, b) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
        for algorithm in Algorithm::ALL {
            let params = SearchParams { algorithm, ..SearchParams::default() };
            let mut trace = Trace::new(&grid);
            let result = Searcher::new().find_path_recorded(&grid, &params, a, b, &mut trace);
            let last = trace.state_at(trace.steps());
            let Some(result) = result else {
                assert!(
                    last.cells.iter().all(|c| *c != CellState::Open),
                    "an unreachable search ends with an empty frontier"
                );
                continue;
            };
            assert_eq!(trace.steps() as usize, result.expanded);
            assert_eq!(last.cells[last.index(b)], CellState::Closed);
            assert_eq!(last.last_closed, Some(last.index(b) as u32));
            if algorithm == Algorithm::Jps {
                // JPS's parents are jump points: the corners of the path, in order.
                let corners = last.path_to(b);
                let mut rest = result.path.iter();
                assert!(corners.iter().all(|c| rest.any(|p| p == c)), "jump points off the path");
            } else {
                assert_eq!(last.path_to(b), result.path);
            }
            assert!((last.g[last.index(b)] - result.cost).abs() < 1e-9);
            // Step by step, the closed set grows by one cell a step.
            for k in 0..=trace.steps() {
                let closed = trace.state_at(k).cells.iter().filter(|c| **c == CellState::Closed).count();
                assert_eq!(closed as u32, k);
            }
        }
    }
}

#[test]
fn unreachable_goals_and_blocked_ends_give_none() {
    let grid = CostGrid::from_ascii(&["..#..", "..#..", "..#.."]);
    let p = SearchParams::default();
    assert!(find_path(&grid, &p, Cell::new(0, 0), Cell::new(4, 2)).is_none());
    assert!(find_path(&grid, &p, Cell::new(2, 0), Cell::new(0, 0)).is_none(), "the start is a wall");
    assert!(find_path(&grid, &p, Cell::new(0, 0), Cell::new(9, 9)).is_none(), "the goal is off the grid");
    let same = find_path(&grid, &p, Cell::new(1, 1), Cell::new(1, 1)).unwrap();
    assert_eq!((same.path.len(), same.cost), (1, 0.0));
}

/// Draws a path over its map: `*` path, `S`/`G` ends.
fn draw(rows: &[&str], path: &[Cell]) -> Vec<String> {
    let mut grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    for c in path {
        grid[c.y as usize][c.x as usize] = '*';
    }
    let (s, g) = (path[0], path[path.len() - 1]);
    grid[s.y as usize][s.x as usize] = 'S';
    grid[g.y as usize][g.x as usize] = 'G';
    grid.into_iter().map(|r| r.into_iter().collect()).collect()
}

#[test]
fn corner_cutting_rules_change_the_path() {
    let rows = ["....#", "...#.", "....."];
    let grid = CostGrid::from_ascii(&rows);
    let (a, b) = (Cell::new(2, 0), Cell::new(4, 1));
    let with = |diagonal| {
        let rules = MoveRules { diagonal, ..MoveRules::MOVINGAI };
        find_path(&grid, &SearchParams { rules, ..SearchParams::default() }, a, b).unwrap()
    };
    // Squeezing between the two walls only when corners may be cut; past one wall with OneBlocked.
    let always = with(DiagonalPolicy::Always);
    assert_eq!(draw(&rows, &always.path), ["..S*#", "...#G", "....."]);
    assert!((always.cost - (1.0 + std::f64::consts::SQRT_2)).abs() < 1e-6);
    let one = with(DiagonalPolicy::OneBlocked);
    assert_eq!(draw(&rows, &one.path), ["..S.#", "..*#G", "...*."]);
    assert!((one.cost - (1.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-6);
    let no_cut = with(DiagonalPolicy::NoCornerCut);
    assert_eq!(draw(&rows, &no_cut.path), ["..S.#", "..*#G", "..***"]);
    assert!((no_cut.cost - 5.0).abs() < 1e-6);
}

#[test]
fn weighted_cells_are_walked_around_and_doors_can_be_opened() {
    let rows = ["S~~~G", ".....", "....."];
    let grid = CostGrid::from_ascii(&rows);
    let r = find_path(&grid, &SearchParams::default(), Cell::new(0, 0), Cell::new(4, 0)).unwrap();
    // Water costs 3: going round below (√2 + 1 + 1 + √2 = 4.83) beats wading (3 + 3 + 3 + 1 = 10).
    assert_eq!(draw(&rows, &r.path), ["S~~~G", ".***.", "....."]);
    let map = sightline::core::format::ascii::parse("#####\n#.+.#\n#####\n").unwrap();
    let closed = CostGrid::from_map(&map, DoorRule::Impassable);
    assert!(find_path(&closed, &SearchParams::default(), Cell::new(1, 1), Cell::new(3, 1)).is_none());
    let openable = CostGrid::from_map(&map, DoorRule::OpenAtCost(2.0));
    let r = find_path(&openable, &SearchParams::default(), Cell::new(1, 1), Cell::new(3, 1)).unwrap();
    assert!((r.cost - 4.0).abs() < 1e-6, "1 + 2 to open the door, then 1: {}", r.cost);
}

#[test]
fn jps_costs_equal_astar_costs_on_uniform_maps() {
    let mut rng = Rng::new(17);
    let mut searcher = Searcher::new();
    let mut compared = 0;
    for round in 0..400 {
        let grid = random_grid(&mut rng, 30, 22, [0.05, 0.2, 0.35, 0.45][round % 4], false);
        let (a, b) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
        let astar = searcher.find_path(&grid, &SearchParams::default(), a, b);
        let jps =
            searcher.find_path(&grid, &SearchParams { algorithm: Algorithm::Jps, ..SearchParams::default() }, a, b);
        match (&astar, &jps) {
            (Some(x), Some(j)) => {
                assert!((x.cost - j.cost).abs() < 1e-6, "{a}->{b}: A* {} JPS {}", x.cost, j.cost);
                let walked = MoveRules::MOVINGAI.walk_cost(&grid, &j.path).expect("JPS returned an invalid walk");
                assert!((walked - j.cost).abs() < 1e-6);
                assert!(j.expanded <= x.expanded, "JPS expanded more nodes than A*");
                compared += 1;
            }
            (None, None) => {}
            _ => panic!("{a}->{b}: A* {astar:?} vs JPS {jps:?}"),
        }
    }
    assert!(compared > 250, "{compared}");
}

#[test]
fn jps_on_weighted_grids_runs_astar() {
    let grid = CostGrid::from_ascii(&["S~~~G", ".....", "....."]);
    let jps = SearchParams { algorithm: Algorithm::Jps, ..SearchParams::default() };
    let r = find_path(&grid, &jps, Cell::new(0, 0), Cell::new(4, 0)).unwrap();
    assert!((r.cost - (2.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-6);
}

#[test]
fn dijkstra_maps_hold_the_cost_to_the_nearest_source() {
    use sightline::core::path::dijkstra_map::DijkstraMap;
    let mut rng = Rng::new(23);
    let mut searcher = Searcher::new();
    for _ in 0..30 {
        let grid = random_grid(&mut rng, 16, 12, 0.25, true);
        let sources: Vec<(Cell, f64)> = (0..3).map(|i| (random_cell(&mut rng, &grid), [0.0, 0.0, 5.0][i])).collect();
        for rules in [MoveRules::MOVINGAI, MoveRules::FOUR] {
            let map = DijkstraMap::new(&grid, &rules, &sources);
            let dijkstra = SearchParams { algorithm: Algorithm::Dijkstra, rules, ..SearchParams::default() };
            for y in 0..grid.height() {
                for x in 0..grid.width() {
                    let c = Cell::new(x, y);
                    if !grid.passable(x, y) {
                        assert_eq!(map.value(c), None);
                        continue;
                    }
                    // The least over sources of (start value + cheapest walk from c to the source).
                    let expected = sources
                        .iter()
                        .filter_map(|&(s, v)| searcher.find_path(&grid, &dijkstra, c, s).map(|r| r.cost + v))
                        .fold(f64::INFINITY, f64::min);
                    let got = map.value(c).unwrap_or(f64::INFINITY);
                    assert!(
                        (got - expected).abs() < 1e-6 || (got.is_infinite() && expected.is_infinite()),
                        "{c}: {got} vs {expected}"
                    );
                    // Walking downhill from any reachable cell ends at a source.
                    if got.is_finite() {
                        let mut at = c;
                        for _ in 0..grid.len() {
                            match map.downhill(&grid, &rules, at) {
                                Some(n) => at = n,
                                None => break,
                            }
                        }
                        assert!(sources.iter().any(|&(s, _)| s == at), "downhill from {c} stopped at {at}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_flee_map_is_relaxed_and_leads_away() {
    use sightline::core::path::dijkstra_map::DijkstraMap;
    let rows = [
        "###############",
        "#.............#",
        "#.............#",
        "#.............#",
        "#######.#######",
        "#.............#",
        "###############",
    ];
    let grid = CostGrid::from_ascii(&rows);
    let rules = MoveRules::MOVINGAI;
    let player = Cell::new(4, 5);
    let toward = DijkstraMap::new(&grid, &rules, &[(player, 0.0)]);
    let flee = toward.flee(&grid, &rules, -1.2);
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let c = Cell::new(x, y);
            let Some(v) = flee.value(c) else { continue };
            // Relaxed: no allowed step leads to a cell whose value plus the step's cost is lower.
            for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)] {
                if rules.can_step(&grid, x, y, dx, dy) {
                    let n = flee.value(Cell::new(x + dx, y + dy)).unwrap();
                    let step = rules.step_cost(&grid, x + dx, y + dy, dx != 0 && dy != 0);
                    assert!(v <= n + step + 1e-9, "{c} is {v}, its neighbour {n} + {step}");
                }
            }
            // Scaled: never above −1.2 × the distance to the player.
            assert!(v <= -1.2 * toward.value(c).unwrap() + 1e-9);
        }
    }
    // The monster next to the player in the corridor does not run to the corridor's dead end
    // (5 steps away), but up into the room, where cells are farther from the player.
    let mut at = Cell::new(6, 5);
    for _ in 0..40 {
        match flee.downhill(&grid, &rules, at) {
            Some(n) => at = n,
            None => break,
        }
    }
    assert!(at.y <= 3, "the flee walk ended in the corridor at {at}");
    assert!(toward.value(at).unwrap() > 9.0, "it ended only {} from the player", toward.value(at).unwrap());
}

#[test]
fn knowledge_aware_search_uses_known_cells_only() {
    let rows = ["S...G", ".###.", "....."];
    let mut grid = CostGrid::from_ascii(&rows);
    // The player has not seen the top row between S and G: the path must go round below.
    let unknown = [1usize, 2, 3];
    grid.block_unknown(|i| !unknown.contains(&i));
    let r = find_path(&grid, &SearchParams::default(), Cell::new(0, 0), Cell::new(4, 0)).unwrap();
    // No corner cutting past the wall ends: down, along the bottom row, up.
    assert_eq!(draw(&rows, &r.path), ["S...G", "*###*", "*****"]);
}

/// A window of a grid is its cells in a box, cut to the grid, with the cost range of its own
/// cells; a search on it goes as on the grid where the grid's best path stays inside it.
#[test]
fn a_window_is_the_grids_cells_in_a_box() {
    let grid = CostGrid::from_ascii(&[
        "#......", //
        ".~~#...", "...#..~", ".......",
    ]);
    let window = grid.window(1, 1, 3, 2);
    assert_eq!((window.width(), window.height()), (3, 2));
    for (x, y) in [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)] {
        assert_eq!(window.cost(x, y), grid.cost(x + 1, y + 1), "({x}, {y})");
        assert_eq!(window.passable(x, y), grid.passable(x + 1, y + 1));
    }
    assert!(!window.is_uniform(), "1 and 3 in it");
    assert!(grid.window(4, 0, 3, 2).is_uniform(), "only 1s there");
    // Cut to the grid: a box from (-2, 2) of 4 × 9 is cells 0..2 of rows 2..4.
    let cut = grid.window(-2, 2, 4, 9);
    assert_eq!((cut.width(), cut.height()), (2, 2));
    assert_eq!(cut.cost(0, 0), grid.cost(0, 2));
    assert_eq!((grid.window(9, 9, 3, 3).width(), grid.window(1, 1, -4, 2).width()), (0, 0));
    // The grid's best path from (4, 0) to (4, 3) stays in columns 4..7: the window finds it.
    let params = SearchParams::default();
    let whole = find_path(&grid, &params, Cell::new(4, 0), Cell::new(4, 3)).unwrap();
    let part = find_path(&grid.window(4, 0, 3, 4), &params, Cell::new(0, 0), Cell::new(0, 3)).unwrap();
    assert_eq!(part.cost, whole.cost);
}

/// A grid refreshed cell by cell as doors open and close is the grid built from the map again,
/// its cost range included: the range follows when the only cell at the top of it closes.
#[test]
fn a_grid_refreshed_at_doors_is_the_grid_built_again() {
    use sightline::core::format::ascii;
    // The water costs 3 and the open door 1; the door is the only cell that changes.
    let mut map = ascii::parse("#.'~#\n#...#\n").unwrap();
    let door = Cell::new(2, 0);
    let rules = DoorRule::Impassable;
    let mut grid = CostGrid::from_map(&map, rules);
    assert_eq!((grid.min_cost(), grid.max_cost()), (1.0, 3.0));
    map.toggle_door(door).unwrap();
    grid.refresh_cell(&map, door, rules);
    assert!(!grid.passable(2, 0), "a closed door is a wall under this rule");
    assert_eq!(grid, CostGrid::from_map(&map, rules));
    // Under OpenAtCost(5) the closed door costs its open door's 1 + 5: the top of the range.
    let costly = DoorRule::OpenAtCost(5.0);
    let mut grid = CostGrid::from_map(&map, costly);
    assert_eq!(grid.max_cost(), 6.0);
    map.toggle_door(door).unwrap();
    grid.refresh_cell(&map, door, costly);
    assert_eq!(grid.max_cost(), 3.0, "opened, it costs 1: the water is the top again");
    assert_eq!(grid, CostGrid::from_map(&map, costly));
}
