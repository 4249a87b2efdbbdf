//! The symmetry audit: zero for the symmetric algorithms, violations where the asymmetric ones
//! have them, and counts equal to a brute-force count from individual FOV calls.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize};

use sightline::core::Cell;
use sightline::core::analysis::symmetry::{self, AuditError, Failure};
use sightline::core::fov::{self, Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet};

fn audit(grid: &OpacityGrid, algorithm: Algorithm, radius: Option<u32>) -> symmetry::SymmetryReport {
    symmetry::audit(grid, algorithm, radius, &AtomicUsize::new(0), &AtomicBool::new(false)).unwrap()
}

/// A map with walls at random (`generate::noise`), as opacity.
fn random_grid(width: u32, height: u32, density: f64, seed: u64) -> OpacityGrid {
    OpacityGrid::from_map(&sightline::core::generate::noise(width, height, density, seed).unwrap())
}

fn sample(name: &str) -> OpacityGrid {
    let map =
        sightline::core::format::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("maps").join(name)).unwrap().map;
    OpacityGrid::from_map(&map)
}

/// Symmetric, and seeing: no one-sided pair, and many pairs seen (an algorithm that sees
/// nothing has no one-sided pair either).
fn assert_symmetric_and_seeing(r: &symmetry::SymmetryReport, what: &str) {
    assert_eq!(r.violations, 0, "{what}");
    assert!(r.pairs > 10_000, "{what}: {} pairs", r.pairs);
    assert!(r.seen * 100 > r.pairs, "{what} sees {} of {} pairs", r.seen, r.pairs);
}

#[test]
fn symmetric_algorithms_have_no_violations() {
    for seed in 1..=4 {
        let grid = random_grid(40, 30, [0.1, 0.3, 0.45, 0.3][seed as usize - 1], seed);
        for algorithm in [Algorithm::Symmetric, Algorithm::Permissive, Algorithm::Circle] {
            for radius in [None, Some(9)] {
                assert_symmetric_and_seeing(
                    &audit(&grid, algorithm, radius),
                    &format!("{algorithm} radius {radius:?}"),
                );
            }
        }
    }
}

/// The check above fails a blind algorithm, which only sees its own cell (a program that
/// answers so, through the protocol): symmetric, and no pair seen.
#[test]
fn a_blind_algorithm_is_symmetric_and_fails_the_check() {
    use sightline::core::ext::{ExtSpec, Log, Program, StartOptions};
    let grid = random_grid(40, 30, 0.1, 1);
    let spec =
        ExtSpec::new("blind", &format!("python3 {}/tests/ext/misbehave.py blind", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut program = Program::start(&spec, StartOptions::default(), Log::default()).unwrap();
    let costs = sightline::core::path::CostGrid::open(40, 30);
    program.set_map(&grid, &costs).unwrap();
    let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
    let blind = symmetry::audit_views(&grid, symmetry::Views::External(&mut program), Some(9), &done, &cancel).unwrap();
    assert_eq!((blind.violations, blind.seen), (0, 0));
    assert!(blind.pairs > 10_000);
    let check = std::panic::catch_unwind(|| assert_symmetric_and_seeing(&blind, "blind"));
    assert!(check.is_err(), "the check fails a blind algorithm");
}

#[test]
fn shadowcast_and_ray_break_symmetry_on_the_pillar_and_diagonal_maps() {
    for map in ["pillars.ron", "diagonal.ron"] {
        let grid = sample(map);
        for algorithm in [Algorithm::Shadowcast, Algorithm::Ray] {
            let r = audit(&grid, algorithm, Some(12));
            assert!(r.violations > 0, "{algorithm} on {map}");
            assert!(r.rate() > 0.0 && r.rate() < 1.0);
            assert_eq!(r.per_cell.iter().map(|&c| u64::from(c)).sum::<u64>(), 2 * r.violations);
        }
    }
}

#[test]
fn counts_agree_with_brute_force_on_small_maps() {
    for seed in 10..14 {
        let grid = random_grid(14, 11, 0.3, seed);
        for algorithm in Algorithm::ALL {
            for radius in [None, Some(5)] {
                let report = audit(&grid, algorithm, radius);
                // Brute force: a view per transparent cell, then every ordered pair.
                let (w, h) = (grid.width(), grid.height());
                let cells: Vec<Cell> = (0..h)
                    .flat_map(|y| (0..w).map(move |x| Cell::new(x, y)))
                    .filter(|c| !grid.is_opaque(c.x, c.y))
                    .collect();
                let views: Vec<VisibleSet> = cells
                    .iter()
                    .map(|&c| {
                        let mut v = VisibleSet::new(w as u32, h as u32);
                        fov::compute(algorithm, &grid, FovParams::new(c, radius), &mut v);
                        v
                    })
                    .collect();
                let (mut pairs, mut seen, mut violations) = (0u64, 0u64, 0u64);
                let mut per_cell = vec![0u32; (w * h) as usize];
                for (i, &a) in cells.iter().enumerate() {
                    for (j, &b) in cells.iter().enumerate() {
                        if i == j || radius.is_some_and(|r| a.distance_squared(b) > i64::from(r * r)) {
                            continue;
                        }
                        pairs += 1;
                        seen += u64::from(views[i].contains_cell(b));
                        if views[i].contains_cell(b) && !views[j].contains_cell(a) {
                            violations += 1;
                            per_cell[(a.y * w + a.x) as usize] += 1;
                            per_cell[(b.y * w + b.x) as usize] += 1;
                        }
                    }
                }
                assert_eq!(
                    (report.pairs, report.seen, report.violations),
                    (pairs, seen, violations),
                    "{algorithm} {radius:?} seed {seed}"
                );
                assert_eq!(report.per_cell, per_cell);
                // And one cell's partners account for its count.
                if let Some((worst, count)) = report.worst(1).first().copied() {
                    let partners = symmetry::partners(&grid, algorithm, radius, worst);
                    assert_eq!(partners.len() as u32, count, "{algorithm}: partners of {worst}");
                    for (b, failure) in partners {
                        let mut va = VisibleSet::new(w as u32, h as u32);
                        fov::compute(algorithm, &grid, FovParams::new(worst, radius), &mut va);
                        assert_eq!(va.contains_cell(b), failure == Failure::SeenByThisOnly);
                    }
                }
            }
        }
    }
}

#[test]
fn an_audit_can_be_cancelled_and_reports_progress() {
    let grid = random_grid(30, 30, 0.2, 3);
    let done = AtomicUsize::new(0);
    let cancel = AtomicBool::new(true);
    assert!(matches!(
        symmetry::audit(&grid, Algorithm::Shadowcast, Some(8), &done, &cancel),
        Err(AuditError::Cancelled)
    ));
    let report = symmetry::audit(&grid, Algorithm::Shadowcast, Some(8), &done, &AtomicBool::new(false)).unwrap();
    assert_eq!(done.into_inner() as u64, 2 * report.cells);
}
