//! Pathfinding against an oracle of its own: a textbook Dijkstra (a binary heap, lazy deletion)
//! over an explicit graph, built here from the rules as they are stated (`MoveRules`' docs), with
//! its own neighbour and corner-cutting code and its own costs; it never reads a `CostGrid` or
//! calls the engine's move-rule code. Every algorithm, under every rule set, on random maps with
//! and without weights, origins on the edges too:
//! - A* with an admissible heuristic at weight 1, Dijkstra and JPS find a path of the optimal
//!   cost, and none exactly when there is none;
//! - BFS finds a path of the fewest steps;
//! - every path (greedy and weighted A* too) is a walk on the oracle's graph whose cost is the
//!   cost reported, and weighted A* with a consistent heuristic stays within its weight of optimal;
//! - each heuristic is checked against the true remaining cost (a Dijkstra from the goal over the
//!   reversed graph) everywhere: the ones the table below calls admissible never overestimate,
//!   and each the table calls inadmissible is caught overestimating somewhere, so the table is
//!   not just permissive.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use sightline::core::Cell;
use sightline::core::path::{
    Algorithm, CostGrid, DiagonalLength, DiagonalPolicy, Heuristic, MoveRules, Moves, SearchParams, find_path,
};
use sightline::core::rng::Rng;

/// A map as the oracle holds it: the cost of entering each cell, `None` for a wall.
struct Terrain {
    w: i32,
    h: i32,
    cost: Vec<Option<f64>>,
}

impl Terrain {
    fn at(&self, x: i32, y: i32) -> Option<f64> {
        if (0..self.w).contains(&x) && (0..self.h).contains(&y) { self.cost[(y * self.w + x) as usize] } else { None }
    }

    fn index(&self, c: Cell) -> usize {
        (c.y * self.w + c.x) as usize
    }

    /// The same map as the engine's grid.
    fn grid(&self) -> CostGrid {
        let mut grid = CostGrid::open(self.w as u32, self.h as u32);
        for y in 0..self.h {
            for x in 0..self.w {
                grid.set_cost(x, y, self.at(x, y).map_or(f32::INFINITY, |c| c as f32));
            }
        }
        grid
    }

    fn min_cost(&self) -> f64 {
        self.cost.iter().flatten().copied().fold(f64::INFINITY, f64::min)
    }
}

/// The rules, read as their documentation states them.
fn diagonal_length(rules: &MoveRules) -> f64 {
    match rules.diagonal_length {
        DiagonalLength::Euclidean => 2f64.sqrt(),
        DiagonalLength::Chebyshev => 1.0,
        DiagonalLength::ChebyshevTieBreak => 1.0625,
    }
}

/// The graph's edges out of `(x, y)`: `(to, cost)`. A step enters a passable cell; a diagonal one
/// needs eight moves and the policy's verdict on the two cells it passes between; it costs the
/// entered cell's cost times the step's length.
fn edges(t: &Terrain, rules: &MoveRules, x: i32, y: i32) -> Vec<((i32, i32), f64)> {
    let mut out = Vec::new();
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let Some(cost) = t.at(x + dx, y + dy) else { continue };
        let diagonal = dx != 0 && dy != 0;
        if diagonal {
            let (a, b) = (t.at(x + dx, y).is_some(), t.at(x, y + dy).is_some());
            let allowed = rules.moves == Moves::Eight
                && match rules.diagonal {
                    DiagonalPolicy::Always => true,
                    DiagonalPolicy::Never => false,
                    DiagonalPolicy::NoCornerCut => a && b,
                    DiagonalPolicy::OneBlocked => a || b,
                };
            if !allowed {
                continue;
            }
        }
        out.push(((x + dx, y + dy), if diagonal { cost * diagonal_length(rules) } else { cost }));
    }
    out
}

/// An explicit graph: each cell's edges, and the edges reversed (for the cost to the goal).
struct Graph {
    out: Vec<Vec<(usize, f64)>>,
    into: Vec<Vec<(usize, f64)>>,
}

fn graph(t: &Terrain, rules: &MoveRules) -> Graph {
    let n = (t.w * t.h) as usize;
    let (mut out, mut into) = (vec![Vec::new(); n], vec![Vec::new(); n]);
    for y in 0..t.h {
        for x in 0..t.w {
            if t.at(x, y).is_none() {
                continue;
            }
            let from = (y * t.w + x) as usize;
            for ((tx, ty), cost) in edges(t, rules, x, y) {
                let to = (ty * t.w + tx) as usize;
                out[from].push((to, cost));
                into[to].push((from, cost));
            }
        }
    }
    Graph { out, into }
}

/// A heap entry, least distance first.
#[derive(PartialEq)]
struct Entry(f64, usize);

impl Eq for Entry {}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Textbook Dijkstra from `source` over `adjacency`: every node's distance (infinite: not
/// reached).
fn dijkstra(adjacency: &[Vec<(usize, f64)>], source: usize) -> Vec<f64> {
    let mut dist = vec![f64::INFINITY; adjacency.len()];
    let mut heap = BinaryHeap::new();
    dist[source] = 0.0;
    heap.push(Entry(0.0, source));
    while let Some(Entry(d, u)) = heap.pop() {
        if d > dist[u] {
            continue;
        }
        for &(v, cost) in &adjacency[u] {
            if d + cost < dist[v] {
                dist[v] = d + cost;
                heap.push(Entry(d + cost, v));
            }
        }
    }
    dist
}

/// Breadth-first steps from `source`.
fn steps(adjacency: &[Vec<(usize, f64)>], source: usize) -> Vec<Option<usize>> {
    let mut seen = vec![None; adjacency.len()];
    seen[source] = Some(0);
    let mut queue = std::collections::VecDeque::from([source]);
    while let Some(u) = queue.pop_front() {
        for &(v, _) in &adjacency[u] {
            if seen[v].is_none() {
                seen[v] = Some(seen[u].unwrap() + 1);
                queue.push_back(v);
            }
        }
    }
    seen
}

/// The cost of `path` on the graph, or why it is not a walk from `from` to `to` on it.
fn walk(g: &Graph, t: &Terrain, path: &[Cell], from: Cell, to: Cell) -> Result<f64, String> {
    if path.first() != Some(&from) || path.last() != Some(&to) {
        return Err(format!("the path runs {:?} to {:?}, not {from:?} to {to:?}", path.first(), path.last()));
    }
    let mut cost = 0.0;
    for pair in path.windows(2) {
        let (a, b) = (t.index(pair[0]), t.index(pair[1]));
        match g.out[a].iter().find(|(v, _)| *v == b) {
            Some((_, c)) => cost += c,
            None => return Err(format!("the step {:?} → {:?} is not one the rules allow", pair[0], pair[1])),
        }
    }
    Ok(cost)
}

/// The estimate each heuristic gives, written from its definition, scaled by the map's least
/// cost; octile is Manhattan's where there are no diagonal steps.
fn estimate(h: Heuristic, rules: &MoveRules, from: Cell, to: Cell, scale: f64) -> f64 {
    let (dx, dy) = (f64::from((to.x - from.x).abs()), f64::from((to.y - from.y).abs()));
    let no_diagonals = rules.moves == Moves::Four || rules.diagonal == DiagonalPolicy::Never;
    let raw = match h {
        Heuristic::Zero => 0.0,
        Heuristic::Manhattan => dx + dy,
        Heuristic::Chebyshev => dx.max(dy),
        Heuristic::Octile if no_diagonals => dx + dy,
        Heuristic::Octile => dx.max(dy) - dx.min(dy) + dx.min(dy) * diagonal_length(rules),
        Heuristic::Euclidean => (dx * dx + dy * dy).sqrt(),
    };
    raw * scale
}

/// Which heuristic never overestimates under which rules: Manhattan only without diagonal
/// steps; Euclidean only where a diagonal step is at least √2 long (or there are none); the
/// others always (a step changes the larger offset by at most 1, and costs at least the least
/// cost times its length ≥ 1).
fn admissible(h: Heuristic, rules: &MoveRules) -> bool {
    let no_diagonals = rules.moves == Moves::Four || rules.diagonal == DiagonalPolicy::Never;
    match h {
        Heuristic::Zero | Heuristic::Chebyshev | Heuristic::Octile => true,
        Heuristic::Manhattan => no_diagonals,
        Heuristic::Euclidean => no_diagonals || rules.diagonal_length == DiagonalLength::Euclidean,
    }
}

const HEURISTICS: [Heuristic; 5] =
    [Heuristic::Zero, Heuristic::Manhattan, Heuristic::Chebyshev, Heuristic::Octile, Heuristic::Euclidean];

fn all_rules() -> Vec<MoveRules> {
    let mut out = Vec::new();
    for moves in [Moves::Four, Moves::Eight] {
        for diagonal in DiagonalPolicy::ALL {
            for diagonal_length in DiagonalLength::ALL {
                out.push(MoveRules { moves, diagonal, diagonal_length });
            }
        }
    }
    out
}

/// A random map: 1-wide to 30 × 20, walls from none to many, weighted cells (costs 0.5 to 4)
/// on every other map.
fn terrain(rng: &mut Rng, round: usize) -> Terrain {
    let (w, h) = match round % 8 {
        0 => (1, 1 + rng.below(20) as i32),
        1 => (1 + rng.below(30) as i32, 1),
        _ => (2 + rng.below(29) as i32, 2 + rng.below(19) as i32),
    };
    let walls = [0.0, 0.1, 0.25, 0.4][round % 4];
    let weighted = round % 2 == 1;
    let cost = (0..w * h)
        .map(|_| {
            if rng.chance(walls) {
                None
            } else if weighted && rng.chance(0.4) {
                Some([0.5, 2.0, 3.0, 4.0][rng.below(4) as usize])
            } else {
                Some(1.0)
            }
        })
        .collect();
    Terrain { w, h, cost }
}

/// A passable cell, on an edge half the time.
fn cell(rng: &mut Rng, t: &Terrain) -> Option<Cell> {
    for _ in 0..200 {
        let (mut x, mut y) = (rng.below(t.w as u32) as i32, rng.below(t.h as u32) as i32);
        if rng.chance(0.5) {
            if rng.chance(0.5) {
                x = if rng.chance(0.5) { 0 } else { t.w - 1 };
            } else {
                y = if rng.chance(0.5) { 0 } else { t.h - 1 };
            }
        }
        if t.at(x, y).is_some() {
            return Some(Cell::new(x, y));
        }
    }
    None
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn every_search_agrees_with_a_textbook_dijkstra_over_the_rules_graph() {
    let mut rng = Rng::new(0xD1_5C0);
    let (mut optimal_checked, mut unreachable, mut suboptimal_seen) = (0, 0, 0);
    for round in 0..160 {
        let t = terrain(&mut rng, round);
        let grid = t.grid();
        for rules in all_rules() {
            let g = graph(&t, &rules);
            let (Some(from), Some(to)) = (cell(&mut rng, &t), cell(&mut rng, &t)) else { continue };
            let best = dijkstra(&g.out, t.index(from))[t.index(to)];
            let fewest = steps(&g.out, t.index(from))[t.index(to)];
            let what = |p: &SearchParams| format!("round {round}, {rules:?}, {p:?}, {from:?} → {to:?}");
            let mut searches = vec![
                SearchParams { algorithm: Algorithm::Dijkstra, rules, heuristic: Heuristic::Zero, weight: 1.0 },
                SearchParams { algorithm: Algorithm::Jps, rules, heuristic: Heuristic::Octile, weight: 1.0 },
                SearchParams { algorithm: Algorithm::Bfs, rules, heuristic: Heuristic::Zero, weight: 1.0 },
                SearchParams { algorithm: Algorithm::Greedy, rules, heuristic: Heuristic::Octile, weight: 1.0 },
            ];
            for heuristic in HEURISTICS {
                for weight in [1.0, 1.5, 3.0] {
                    searches.push(SearchParams { algorithm: Algorithm::AStar, rules, heuristic, weight });
                }
            }
            for params in searches {
                let found = find_path(&grid, &params, from, to);
                let Some(found) = found else {
                    assert!(best.is_infinite(), "{}: no path, the oracle's costs {best}", what(&params));
                    unreachable += 1;
                    continue;
                };
                assert!(best.is_finite(), "{}: a path where the oracle has none", what(&params));
                let cost = walk(&g, &t, &found.path, from, to).unwrap_or_else(|e| panic!("{}: {e}", what(&params)));
                assert!(close(cost, found.cost), "{}: reported {}, the walk costs {cost}", what(&params), found.cost);
                let optimal = match params.algorithm {
                    Algorithm::Dijkstra | Algorithm::Jps => true,
                    Algorithm::AStar => params.weight == 1.0 && admissible(params.heuristic, &rules),
                    Algorithm::Bfs | Algorithm::Greedy => false,
                };
                if optimal {
                    assert!(close(cost, best), "{}: cost {cost}, the optimum {best}", what(&params));
                    optimal_checked += 1;
                } else {
                    assert!(cost >= best - 1e-9, "{}: cost {cost} below the optimum {best}", what(&params));
                    suboptimal_seen += usize::from(!close(cost, best));
                }
                if params.algorithm == Algorithm::Bfs {
                    assert_eq!(Some(found.path.len() - 1), fewest, "{}: not the fewest steps", what(&params));
                }
                // Weighted A* with a consistent heuristic (octile, Chebyshev) is within its weight.
                if params.algorithm == Algorithm::AStar
                    && matches!(params.heuristic, Heuristic::Octile | Heuristic::Chebyshev)
                {
                    let bound = f64::from(params.weight) * best;
                    assert!(cost <= bound + 1e-9, "{}: cost {cost} past {bound}", what(&params));
                }
            }
        }
    }
    assert!(optimal_checked > 10_000 && unreachable > 100, "{optimal_checked} optimal, {unreachable} unreachable");
    // The bounded checks bit: greedy and heavy weights do find longer paths sometimes.
    assert!(suboptimal_seen > 100, "only {suboptimal_seen} suboptimal paths");
}

#[test]
fn admissible_heuristics_never_overestimate_and_the_others_are_caught() {
    let mut rng = Rng::new(0xAD_0155);
    let mut caught = std::collections::BTreeSet::new();
    for round in 0..60 {
        let t = terrain(&mut rng, round);
        let scale = t.min_cost();
        for rules in all_rules() {
            let g = graph(&t, &rules);
            let Some(goal) = cell(&mut rng, &t) else { continue };
            // The true cost from every cell to the goal: Dijkstra from it on the reversed graph.
            let remaining = dijkstra(&g.into, t.index(goal));
            for y in 0..t.h {
                for x in 0..t.w {
                    let left = remaining[(y * t.w + x) as usize];
                    if left.is_infinite() {
                        continue;
                    }
                    for h in HEURISTICS {
                        let e = estimate(h, &rules, Cell::new(x, y), goal, scale);
                        if e > left + 1e-9 {
                            assert!(
                                !admissible(h, &rules),
                                "{h:?} under {rules:?} estimates {e} from ({x}, {y}) to {goal:?}, which costs {left}"
                            );
                            caught.insert(format!("{h:?} {rules:?}"));
                        }
                    }
                }
            }
        }
    }
    // Every pair the table calls inadmissible (and that has diagonals to overestimate) was caught.
    for rules in all_rules() {
        for h in HEURISTICS {
            if !admissible(h, &rules) {
                assert!(caught.contains(&format!("{h:?} {rules:?}")), "{h:?} under {rules:?} never overestimated");
            }
        }
    }
}

/// The engine's heuristics are the definitions above: on an open map A* with each admissible
/// heuristic expands no more than Dijkstra, and the informed ones fewer.
#[test]
fn informed_heuristics_expand_fewer_cells_than_dijkstra_on_an_open_map() {
    let t = Terrain { w: 40, h: 30, cost: vec![Some(1.0); 1200] };
    let grid = t.grid();
    let (from, to) = (Cell::new(2, 3), Cell::new(37, 25));
    for rules in all_rules().into_iter().filter(|r| r.moves == Moves::Eight && r.diagonal != DiagonalPolicy::Never) {
        let dijkstra = SearchParams { algorithm: Algorithm::Dijkstra, rules, heuristic: Heuristic::Zero, weight: 1.0 };
        let all = find_path(&grid, &dijkstra, from, to).unwrap().expanded;
        for heuristic in [Heuristic::Chebyshev, Heuristic::Octile] {
            let params = SearchParams { algorithm: Algorithm::AStar, rules, heuristic, weight: 1.0 };
            let informed = find_path(&grid, &params, from, to).unwrap().expanded;
            assert!(informed < all, "{heuristic:?} under {rules:?}: {informed} expanded, Dijkstra {all}");
        }
    }
}
