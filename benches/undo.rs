//! The undo history's cost of one brush stroke: the time to record its step and undo it, and
//! the bytes the step keeps, on a 512 × 512 and a 4096 × 4096 map; beside it, the whole-map copy
//! each step used to be. `cargo bench --bench undo`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use sightline::app::Document;
use sightline::core::{Cell, Map, generate};

/// One stroke as the brush lays it: 40 moves along a diagonal, a 3 × 3 brush, each move a
/// frame that changes the map (`touch`).
fn stroke(doc: &mut Document, from: Cell, tile: u16) {
    doc.checkpoint(&None);
    for k in 0..40 {
        for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
            doc.map.set_tile(0, Cell::new(from.x + k + dx, from.y + k + dy), tile);
        }
        doc.touch();
    }
}

/// The bytes one stroke's step keeps, and a history of 200 strokes spread over the map.
fn report(map: &Map, side: u32) {
    let mut doc = Document::untitled(map.clone(), "bench");
    for i in 0..200u32 {
        let at = Cell::new((i * 97 % (side - 50)) as i32 + 2, (i * 61 % (side - 50)) as i32 + 2);
        stroke(&mut doc, at, 2 + (i % 2) as u16);
    }
    doc.checkpoint(&None);
    let steps = doc.undo.len() - 1;
    let bytes: usize = doc.undo[..steps].iter().map(|s| s.approx_bytes()).sum();
    eprintln!(
        "undo/{side}: {steps} strokes kept, {bytes} bytes in all ({} a stroke); a copy of the map is {} bytes",
        bytes / steps,
        map.approx_bytes()
    );
}

fn bench_undo(c: &mut Criterion) {
    let mut group = c.benchmark_group("undo");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(4));
    for side in [512u32, 4096] {
        let map = generate::caves(side, side, 7).unwrap();
        report(&map, side);
        let mut doc = Document::untitled(map.clone(), "bench");
        let at = Cell::new(side as i32 / 3, side as i32 / 3);
        let mut tile = 2;
        group.bench_function(format!("stroke-and-undo/{side}x{side}"), |b| {
            b.iter(|| {
                tile = if tile == 2 { 3 } else { 2 };
                stroke(&mut doc, at, tile);
                black_box(doc.undo(&mut None))
            })
        });
        group.bench_function(format!("map-copy/{side}x{side}"), |b| b.iter(|| black_box(map.clone())));
    }
    group.finish();
}

criterion_group!(benches, bench_undo);
criterion_main!(benches);
