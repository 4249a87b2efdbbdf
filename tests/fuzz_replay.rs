//! The fuzz targets (`fuzz/`, run for hours with cargo-fuzz: see docs/development.md), replayed
//! quickly on stable Rust: every seed, every input a campaign found and kept in
//! `fuzz/regressions/`, and a fixed, seeded set of mutations of each seed. A loader that panics,
//! or a save that does not load again, fails here as it fails the campaign.

mod common;

#[path = "../fuzz/targets.rs"]
mod targets;

use std::path::Path;

use common::mutation::mutate;
use sightline::core::rng::Rng;

/// Mutations a seed gets: enough that each target sees a few thousand inputs.
const MUTATIONS_PER_SEED: usize = 150;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `target` on `bytes`, naming the input in the failure.
fn run(target: &str, what: &str, bytes: &[u8]) {
    if std::panic::catch_unwind(|| targets::run(target, bytes)).is_err() {
        let kept = std::env::temp_dir().join(format!("sightline-fuzz-failure-{target}"));
        let _ = std::fs::write(&kept, bytes);
        panic!("fuzz target {target} failed on {what} (the input is in {})", kept.display());
    }
}

#[test]
fn every_target_has_seeds() {
    let seeds = targets::seeds(root());
    for target in targets::TARGETS {
        let n = seeds.iter().filter(|s| s.target == target).count();
        assert!(n >= 2, "{target} has {n} seeds");
    }
}

#[test]
fn seeds_and_their_mutations_pass_every_target() {
    let seeds = targets::seeds(root());
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for (i, seed) in seeds.iter().enumerate() {
        run(seed.target, &format!("the seed {}", seed.name), &seed.bytes);
        let mut rng = Rng::new(0x5EED_0000 + i as u64);
        for m in 0..MUTATIONS_PER_SEED {
            let bytes = mutate(&seed.bytes, &mut rng);
            run(seed.target, &format!("mutation {m} of the seed {} (seed {i})", seed.name), &bytes);
        }
        *counts.entry(seed.target).or_default() += 1 + MUTATIONS_PER_SEED;
    }
    for target in targets::TARGETS {
        assert!(counts.get(target).copied().unwrap_or(0) >= 300, "{target}: {counts:?}");
    }
}

#[test]
fn inputs_a_campaign_found_still_pass() {
    let dir = root().join("fuzz/regressions");
    let mut replayed = 0;
    for target in targets::TARGETS {
        let Ok(entries) = std::fs::read_dir(dir.join(target)) else { continue };
        for entry in entries.filter_map(Result::ok) {
            let bytes = std::fs::read(entry.path()).unwrap();
            run(target, &entry.path().display().to_string(), &bytes);
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no inputs in {}", dir.display());
}

/// Writes the seed corpus into `fuzz/corpus/<target>/` for a campaign (`scripts/fuzz` runs it).
#[test]
#[ignore = "writes the fuzz corpus; run by scripts/fuzz"]
fn write_seed_corpus() {
    for seed in targets::seeds(root()) {
        let dir = root().join("fuzz/corpus").join(seed.target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("seed-{}", seed.name)), &seed.bytes).unwrap();
    }
}
