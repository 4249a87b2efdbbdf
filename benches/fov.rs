//! FOV throughput: every algorithm on the shared workload (`workload.rs`): several map kinds and
//! sizes, 260 distinct origins over each whole map, radii 4, 8, 20 and 60.
//!
//! `cargo bench --bench fov` reports the time per call and, as throughput, the cells of a whole
//! view's disc per second (1 / ns per disc cell). Each iteration computes one view from the next
//! origin into a reused `VisibleSet`; an origin near an edge has a clipped view, so its call is
//! cheaper, as it is in a game.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sightline::core::fov::{self, Algorithm, FovParams, Opacity, VisibleSet};

mod workload;

fn bench_fov(c: &mut Criterion) {
    for map in workload::fov_maps() {
        let mut visible = VisibleSet::new(map.grid.width() as u32, map.grid.height() as u32);
        for radius in workload::RADII {
            let mut group = c.benchmark_group(format!("fov/{}/r{radius}", map.name));
            group.throughput(Throughput::Elements(cells_in_radius(i64::from(radius))));
            group.warm_up_time(Duration::from_millis(200));
            group.measurement_time(Duration::from_millis(700));
            group.sample_size(20);
            for algorithm in Algorithm::ALL {
                group.bench_function(BenchmarkId::from_parameter(algorithm.name()), |b| {
                    let mut i = 0;
                    b.iter(|| {
                        let params = FovParams::new(map.origins[i % map.origins.len()], Some(radius));
                        i += 1;
                        fov::compute(algorithm, black_box(&map.grid), params, &mut visible);
                        black_box(visible.contains(0, 0))
                    })
                });
            }
            group.finish();
        }
    }
}

/// Cells with dx² + dy² ≤ r²: a whole view's disc, the unit of "ns a cell".
pub fn cells_in_radius(r: i64) -> u64 {
    (-r..=r).map(|dy| (-r..=r).filter(|dx| dx * dx + dy * dy <= r * r).count() as u64).sum()
}

criterion_group!(benches, bench_fov);
criterion_main!(benches);
