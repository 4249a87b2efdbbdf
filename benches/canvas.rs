//! CPU time of one frame of the map canvas (building its shapes and tessellating them), on a
//! 512×512 and a 1024×1024 map at several zoom levels, headless: `cargo bench --bench canvas`.
//! The target is under 8 ms a frame at every zoom.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Context, RawInput, Rect, pos2, vec2};
use sightline::app::SightlineApp;
use sightline::core::generate;

fn bench_canvas(c: &mut Criterion) {
    let mut group = c.benchmark_group("canvas-frame/1280x800");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(3));
    for side in [512u32, 1024] {
        let map = generate::caves(side, side, 3).unwrap();
        for cell_px in [1.0f32, 4.0, 8.0, 16.0, 32.0] {
            let ctx = Context::default();
            let mut app = SightlineApp::new(None);
            app.document = sightline::app::Document::untitled(map.clone(), "bench");
            app.view.fit_pending = false;
            app.view.cell_px = cell_px;
            // The middle of the map in the middle of the window.
            app.view.offset = vec2(640.0, 400.0) - vec2(side as f32, side as f32) * cell_px / 2.0;
            let input = || RawInput {
                screen_rect: Some(Rect::from_min_size(pos2(0.0, 0.0), vec2(1280.0, 800.0))),
                ..Default::default()
            };
            // The first frame builds fonts and the zoomed-out texture.
            let _ = ctx.run_ui(input(), |ui| app.central_ui(ui));
            group.bench_function(format!("{side}x{side}/{cell_px}px"), |b| {
                b.iter(|| {
                    let out = ctx.run_ui(input(), |ui| app.central_ui(ui));
                    black_box(ctx.tessellate(out.shapes, out.pixels_per_point))
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_canvas);
criterion_main!(benches);
