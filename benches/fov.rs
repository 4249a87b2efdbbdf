//! FOV throughput: every algorithm on four 200×200 maps at radii 4, 8, 20 and 60.
//!
//! `cargo bench --bench fov` reports the time per call and, as throughput, the in-radius cells per
//! second (1 / ns per in-radius cell). Each iteration computes one view from the next of 64 fixed
//! transparent origins in the map's centre (so no view at radius 60 is clipped by the map edge).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sightline::core::fov::{self, Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet};
use sightline::core::rng::Rng;
use sightline::core::{Cell, generate};

pub const SIZE: u32 = 200;

/// The benchmark maps, by name.
fn maps() -> Vec<(&'static str, OpacityGrid)> {
    let open = OpacityGrid::new(SIZE, SIZE);
    let noise = OpacityGrid::from_map(&generate::noise(SIZE, SIZE, 0.3, 7).unwrap());
    let rooms = OpacityGrid::from_map(&generate::dungeon(SIZE, SIZE, 7).unwrap());
    let caves = OpacityGrid::from_map(&generate::caves(SIZE, SIZE, 7).unwrap());
    vec![("open", open), ("noise30", noise), ("rooms", rooms), ("caves", caves)]
}

/// 64 transparent cells in the map's central square [60, 140)².
fn origins(grid: &OpacityGrid) -> Vec<Cell> {
    let mut rng = Rng::new(99);
    let mut out = Vec::new();
    while out.len() < 64 {
        let c = Cell::new(60 + rng.below(80) as i32, 60 + rng.below(80) as i32);
        if !grid.is_opaque(c.x, c.y) {
            out.push(c);
        }
    }
    out
}

/// Cells with dx² + dy² ≤ r².
fn cells_in_radius(r: i64) -> u64 {
    (-r..=r).map(|dy| (-r..=r).filter(|dx| dx * dx + dy * dy <= r * r).count() as u64).sum()
}

fn bench_fov(c: &mut Criterion) {
    for (name, grid) in maps() {
        let origins = origins(&grid);
        let mut visible = VisibleSet::new(SIZE, SIZE);
        for radius in [4u32, 8, 20, 60] {
            let mut group = c.benchmark_group(format!("fov/{name}/r{radius}"));
            group.throughput(Throughput::Elements(cells_in_radius(i64::from(radius))));
            group.warm_up_time(Duration::from_millis(200));
            group.measurement_time(Duration::from_millis(700));
            group.sample_size(20);
            for algorithm in Algorithm::ALL {
                group.bench_function(BenchmarkId::from_parameter(algorithm.name()), |b| {
                    let mut i = 0;
                    b.iter(|| {
                        let params = FovParams::new(origins[i % origins.len()], Some(radius));
                        i += 1;
                        fov::compute(algorithm, black_box(&grid), params, &mut visible);
                        black_box(visible.contains(0, 0))
                    })
                });
            }
            group.finish();
        }
    }
}

criterion_group!(benches, bench_fov);
criterion_main!(benches);
