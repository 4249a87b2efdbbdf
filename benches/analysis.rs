//! The whole-map symmetry audit of a 256×256 map (30% random walls) at radius 12, on all cores;
//! and the LOS cache of a 256×256 dungeon at radius 8: building it (all cores), and one door
//! toggle (open then close again, so every iteration starts from the same cache):
//! `cargo bench --bench analysis`.

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use sightline::core::analysis::los_cache::LosCache;
use sightline::core::analysis::symmetry;
use sightline::core::fov::{Algorithm, OpacityGrid};
use sightline::core::generate;

fn bench_audit(c: &mut Criterion) {
    let grid = OpacityGrid::from_map(&generate::noise(256, 256, 0.3, 5).unwrap());
    let mut group = c.benchmark_group("symmetry-audit/256x256-30%/r12");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(4));
    for algorithm in [Algorithm::Symmetric, Algorithm::Shadowcast, Algorithm::Permissive] {
        group.bench_function(algorithm.name(), |b| {
            b.iter(|| {
                black_box(
                    symmetry::audit(&grid, algorithm, Some(12), &AtomicUsize::new(0), &AtomicBool::new(false)).unwrap(),
                )
            })
        });
    }
    group.finish();
}

fn bench_cache(c: &mut Criterion) {
    let map = generate::dungeon(256, 256, 5).unwrap();
    let grid = OpacityGrid::from_map(&map);
    // A door: the first closed door of the generated dungeon.
    let door = (0..map.len())
        .map(|i| map.cell_at(i))
        .find(|&c| map.rules_at(c).door.is_some() && map.rules_at(c).opaque)
        .expect("the dungeon has a closed door");
    let mut group = c.benchmark_group("los-cache/dungeon-256x256/r8");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(4));
    for algorithm in [Algorithm::Shadowcast, Algorithm::Symmetric, Algorithm::Milazzo] {
        group.bench_function(format!("build/{}", algorithm.name()), |b| {
            b.iter(|| black_box(LosCache::build(&grid, algorithm, 8).unwrap()))
        });
        let mut cache = LosCache::build(&grid, algorithm, 8).unwrap();
        group.bench_function(format!("door-open-and-close/{}", algorithm.name()), |b| {
            b.iter(|| {
                black_box(cache.set_opaque(door, false));
                black_box(cache.set_opaque(door, true));
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_audit, bench_cache);
criterion_main!(benches);
