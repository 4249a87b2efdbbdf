//! The whole-map symmetry audit of a 256×256 map (30% random walls) at radius 12, on all cores:
//! `cargo bench --bench analysis`.

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use sightline::core::fov::{Algorithm, OpacityGrid};
use sightline::core::{generate, symmetry};

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

criterion_group!(benches, bench_audit);
criterion_main!(benches);
