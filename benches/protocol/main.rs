//! The external algorithm protocol's cost (`cargo bench --bench protocol`):
//!
//! 1. **sightline's share**: views through a peer that computes nothing
//!    (`benches/protocol/do_nothing.py` answers every origin with the same canned 317-cell view),
//!    at 1, 16 and 256 origins a request, on a 128 × 128 caves map. Reported: views a second,
//!    and the part of each round trip spent in sightline (writing the request, parsing and
//!    checking the reply, from [`Program::timings`]). Target: under 10%.
//! 2. **A whole-map symmetry audit of a 128 × 128 map at radius 10 through the libtcod adapter**
//!    (FOV_SHADOW; needs `scripts/adapters-setup`). Target: under 20 s.
//!
//! Not criterion: each figure is a round trip to another process, timed over enough requests
//! (at least 2 s a row) for a stable mean.

use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::time::{Duration, Instant};

use sightline::core::analysis::symmetry::{self, Views};
use sightline::core::ext::{ExtSpec, Log, Program, StartOptions};
use sightline::core::fov::{Opacity, OpacityGrid};
use sightline::core::rng::Rng;
use sightline::core::{Cell, generate, path};

fn start(name: &str, command: &str) -> Program {
    let spec = ExtSpec::new(name, command).expect("a valid spec");
    let options = StartOptions { timeout: Duration::from_secs(120), echo_stderr: true };
    Program::start(&spec, options, Log::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    let map = generate::caves(128, 128, 3).expect("a 128² map");
    let grid = OpacityGrid::from_map(&map);
    let costs = path::CostGrid::from_map(&map, path::DoorRule::Impassable);
    let open: Vec<Cell> =
        (0..128).flat_map(|y| (0..128).map(move |x| Cell::new(x, y))).filter(|c| !grid.is_opaque(c.x, c.y)).collect();
    let mut rng = Rng::new(1);

    println!("## sightline's share of a round trip (do-nothing peer, 128² caves, 317-cell views)");
    println!("{:>8} {:>12} {:>14} {:>16}", "origins", "requests/s", "views/s", "sightline's share");
    let mut peer = start("do-nothing", &format!("python3 {root}/benches/protocol/do_nothing.py"));
    peer.set_map(&grid, &costs).unwrap_or_else(|e| panic!("{e}"));
    for batch in [1usize, 16, 256] {
        let origins: Vec<Cell> = (0..batch).map(|_| open[rng.below(open.len() as u32) as usize]).collect();
        peer.fov(&origins, Some(10), true).unwrap_or_else(|e| panic!("{e}"));
        let before = peer.timings();
        let started = Instant::now();
        let mut requests = 0u32;
        while started.elapsed() < Duration::from_secs(2) || requests < 20 {
            peer.fov(&origins, Some(10), true).unwrap_or_else(|e| panic!("{e}"));
            requests += 1;
        }
        let secs = started.elapsed().as_secs_f64();
        let after = peer.timings();
        let share = (after.ours - before.ours).as_secs_f64() / (after.total - before.total).as_secs_f64();
        println!(
            "{batch:>8} {:>12.0} {:>14.0} {:>15.1}%",
            f64::from(requests) / secs,
            f64::from(requests) * batch as f64 / secs,
            share * 100.0
        );
    }

    println!();
    println!("## Symmetry audit of a 128² caves map at radius 10 through libtcod (FOV_SHADOW)");
    let python = format!("{root}/target/adapters/venv/bin/python");
    if !std::path::Path::new(&python).exists() {
        println!("skipped: the libtcod adapter is not installed (scripts/adapters-setup)");
        return;
    }
    let mut tcod = start("tcod", &format!("{python} {root}/adapters/libtcod/sightline_tcod.py --fov shadow"));
    tcod.set_map(&grid, &costs).unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
    let report = symmetry::audit_views(&grid, Views::External(&mut tcod), Some(10), &done, &cancel)
        .unwrap_or_else(|e| panic!("{e}"));
    let secs = started.elapsed().as_secs_f64();
    let timings = tcod.timings();
    println!(
        "{} origins, {} pairs, {} violations: {secs:.2} s ({:.1}% of it in sightline's protocol code)",
        report.cells,
        report.pairs,
        report.violations,
        timings.ours.as_secs_f64() / secs * 100.0
    );
    let built_in = Instant::now();
    let ours = symmetry::audit(&grid, sightline::core::fov::Algorithm::Shadowcast, Some(10), &done, &cancel)
        .expect("the built-in audit");
    println!(
        "the built-in shadowcast's audit of the same map: {:.3} s, {} violations (the same: {})",
        built_in.elapsed().as_secs_f64(),
        ours.violations,
        ours.violations == report.violations
    );
}
