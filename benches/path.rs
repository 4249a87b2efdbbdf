//! Pathfinding throughput on a 1000×1000 map with 20% random walls.
//!
//! `cargo bench --bench path`: A*, JPS and Dijkstra searches between 16 fixed reachable pairs
//! (throughput: expanded nodes per second, so 1/throughput is ns per expansion), and a full
//! Dijkstra-map flood from one source (throughput: cells per second).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sightline::core::Cell;
use sightline::core::path::dijkstra_map::DijkstraMap;
use sightline::core::path::search::Searcher;
use sightline::core::path::{Algorithm, CostGrid, MoveRules, SearchParams};
use sightline::core::rng::Rng;

const SIZE: u32 = 1000;

pub fn grid() -> CostGrid {
    random_grid(SIZE)
}

fn random_grid(size: u32) -> CostGrid {
    let mut rng = Rng::new(2024);
    let mut grid = CostGrid::open(size, size);
    for y in 0..size as i32 {
        for x in 0..size as i32 {
            if rng.chance(0.2) {
                grid.set_cost(x, y, f32::INFINITY);
            }
        }
    }
    grid
}

/// 16 pairs at least 300 cells apart, reachable under `rules`.
fn pairs(grid: &CostGrid, rules: MoveRules) -> Vec<(Cell, Cell)> {
    let mut rng = Rng::new(7);
    let mut searcher = Searcher::new();
    let mut out = Vec::new();
    while out.len() < 16 {
        let a = Cell::new(rng.below(SIZE) as i32, rng.below(SIZE) as i32);
        let b = Cell::new(rng.below(SIZE) as i32, rng.below(SIZE) as i32);
        if a.chebyshev(b) < 300 {
            continue;
        }
        let params = SearchParams { rules, ..SearchParams::default() };
        if searcher.find_path(grid, &params, a, b).is_some() {
            out.push((a, b));
        }
    }
    out
}

fn bench_path(c: &mut Criterion) {
    let grid = grid();
    let mut searcher = Searcher::new();
    for (label, rules) in [("8", MoveRules::MOVINGAI), ("4", MoveRules::FOUR)] {
        let pairs = pairs(&grid, rules);
        for algorithm in [Algorithm::AStar, Algorithm::Jps, Algorithm::Dijkstra] {
            if algorithm == Algorithm::Jps && label == "4" {
                continue;
            }
            let params = SearchParams { algorithm, rules, ..SearchParams::default() };
            let expanded: usize =
                pairs.iter().map(|&(a, b)| searcher.find_path(&grid, &params, a, b).unwrap().expanded).sum();
            let mut group = c.benchmark_group(format!("path/1000x1000-20%/{label}-neighbour"));
            group.throughput(Throughput::Elements(expanded as u64));
            group.sample_size(10);
            group.warm_up_time(Duration::from_millis(500));
            group.measurement_time(Duration::from_secs(3));
            group.bench_function(algorithm.name(), |bench| {
                bench.iter(|| {
                    for &(a, b) in &pairs {
                        black_box(searcher.find_path(&grid, &params, a, b));
                    }
                })
            });
            group.finish();
        }
    }
    // Floods from the centre, on this map and on a roguelike-sized one (whose values fit in the
    // second-level cache).
    for size in [SIZE, 256] {
        let grid = if size == SIZE { grid.clone() } else { random_grid(size) };
        let mut centre = [(Cell::new(size as i32 / 2, size as i32 / 2), 0.0)];
        while !grid.passable(centre[0].0.x, centre[0].0.y) {
            centre[0].0.x += 1;
        }
        let mut group = c.benchmark_group(format!("dijkstra-map/{size}x{size}-20%"));
        for (label, rules) in [("8", MoveRules::MOVINGAI), ("4", MoveRules::FOUR)] {
            let reachable = DijkstraMap::new(&grid, &rules, &centre).values().iter().filter(|v| v.is_finite()).count();
            group.throughput(Throughput::Elements(reachable as u64));
            group.sample_size(10);
            group.measurement_time(Duration::from_secs(3));
            group.bench_function(format!("flood-{label}-neighbour"), |bench| {
                bench.iter(|| black_box(DijkstraMap::new(&grid, &rules, &centre)))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_path);
criterion_main!(benches);
