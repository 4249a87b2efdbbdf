//! libtcod and rot.js as real clients of the protocol, through the adapters in `adapters/`:
//! libtcod's modes must equal sightline's algorithms of the same name, view for view, and
//! audit to the same numbers; rot.js's are checked and their differences pinned down as
//! docs/algorithms.md reports them.
//!
//! They need the adapters' packages (`scripts/adapters-setup`, which `.ci/run` runs). Without
//! them each test says so and passes, except under CI (`CI` set), where it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The venv's Python with `tcod`, if installed.
fn tcod_python() -> Option<PathBuf> {
    let python = root().join("target/adapters/venv/bin/python");
    let ok =
        python.exists() && Command::new(&python).args(["-c", "import tcod"]).output().is_ok_and(|o| o.status.success());
    ok.then_some(python)
}

fn rot_installed() -> bool {
    root().join("adapters/rotjs/node_modules/rot-js").exists()
        && Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Whether to go on: missing packages pass with a note, except under CI.
fn available(what: &str, present: bool) -> bool {
    if !present {
        assert!(std::env::var_os("CI").is_none(), "{what} is not installed: .ci/run runs scripts/adapters-setup first");
        eprintln!("skipped: {what} is not installed (run scripts/adapters-setup)");
    }
    present
}

fn tcod(mode: &str) -> Option<String> {
    let python = tcod_python();
    available("Python's tcod", python.is_some())
        .then(|| format!("tcod={} adapters/libtcod/sightline_tcod.py --fov {mode}", python.unwrap().display()))
}

fn rot(mode: &str) -> Option<String> {
    available("rot-js", rot_installed()).then(|| format!("rot=node adapters/rotjs/sightline_rot.mjs --fov {mode}"))
}

fn sightline(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sightline")).args(args).current_dir(root()).output().expect("sightline runs")
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    })
}

/// `check fov` of a program against a built-in, as JSON, on the generated maps.
fn check_fov(ext: &str, against: &str) -> (Option<i32>, serde_json::Value) {
    let out = sightline(&["check", "fov", "--ext", ext, "--against", against, "--origins", "40", "--format", "json"]);
    (out.status.code(), json(&out))
}

#[test]
fn libtcod_modes_equal_the_algorithms_of_the_same_name() {
    for (mode, ours) in
        [("shadow", "shadowcast"), ("permissive8", "permissive"), ("basic", "ray"), ("diamond", "diamond")]
    {
        let Some(ext) = tcod(mode) else { return };
        let (code, report) = check_fov(&ext, ours);
        assert_eq!(report["differing"], 0, "libtcod {mode} against {ours}: {report:#}");
        // Six generated maps, four radii, 40 origins: every view compared.
        assert_eq!(report["views"], 6 * 4 * 40);
        assert_eq!(code, Some(0));
        // The same views audit to the same symmetry on every map and radius.
        for row in report["rows"].as_array().unwrap() {
            assert_eq!(row["symmetry_violations"], row["ours_symmetry_violations"], "{mode}: {row}");
        }
    }
}

#[test]
fn an_audit_through_libtcod_gives_the_built_in_audits_numbers() {
    let Some(ext) = tcod("shadow") else { return };
    let audit = |args: &[&str]| {
        let mut all = vec!["audit", "symmetry", "maps/pillars.ron", "--radius", "8", "--format", "json"];
        all.extend(args);
        let out = sightline(&all);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        json(&out)
    };
    let theirs = audit(&["--ext", &ext, "--algorithm", "tcod"]);
    let ours = audit(&["--algorithm", "shadowcast"]);
    for key in ["pairs", "violations", "rate", "error_per_cell", "worst"] {
        assert_eq!(theirs[key], ours[key], "{key}");
    }
    assert!(ours["violations"].as_u64().unwrap() > 0, "shadowcast is asymmetric around pillars");
    // And the door toggle's regions through the program (DCSS's box, recomputed) change the same
    // views as the built-in cache finds.
    let cache = |args: &[&str]| {
        let mut all =
            vec!["audit", "cache", "maps/dungeon.ron", "--radius", "8", "--toggle", "13,7", "--format", "json"];
        all.extend(args);
        json(&sightline(&all))
    };
    let theirs = cache(&["--ext", &ext, "--algorithm", "tcod"]);
    let ours = cache(&["--algorithm", "shadowcast"]);
    assert_eq!(theirs["changed"], ours["changed"]);
    assert_eq!(theirs["conservative"], ours["conservative"]);
    assert_eq!(theirs["candidates"], theirs["conservative"]);
}

#[test]
fn libtcod_paths_are_optimal_under_every_rule() {
    let Some(ext) = tcod("shadow") else { return };
    let out = sightline(&["check", "path", "--ext", &ext, "--pairs", "6", "--format", "json"]);
    let report = json(&out);
    assert_eq!(out.status.code(), Some(0), "{report:#}");
    // Seven maps (one with costs 1–4), six rule sets, none refused.
    assert_eq!(report["checked"], 7 * 6 * 6, "{report:#}");
    assert_eq!(report["findings"], 0);
}

#[test]
fn rot_js_views_differ_from_ours_as_documented() {
    // Precise shadowcasting sees everything symmetric sees, and more (narrower pillar shadows).
    let Some(ext) = rot("precise") else { return };
    let (code, report) = check_fov(&ext, "symmetric");
    assert_eq!(code, Some(1));
    assert!(report["differing"].as_u64().unwrap() > 100, "{report:#}");
    for row in report["rows"].as_array().unwrap() {
        assert_eq!(row["cells_only_ours"], 0, "precise sees a superset of symmetric: {row}");
    }
    // Recursive shadowcasting sees everything shadowcast sees, and more.
    let Some(ext) = rot("recursive") else { return };
    let (code, report) = check_fov(&ext, "shadowcast");
    assert_eq!(code, Some(1));
    for row in report["rows"].as_array().unwrap() {
        assert_eq!(row["cells_only_ours"], 0, "recursive sees a superset of shadowcast: {row}");
    }
    // Discrete shadowcasting differs both ways.
    let Some(ext) = rot("discrete") else { return };
    let (code, report) = check_fov(&ext, "symmetric");
    assert_eq!(code, Some(1));
    let sum = |key: &str| report["rows"].as_array().unwrap().iter().map(|r| r[key].as_u64().unwrap()).sum::<u64>();
    assert!(sum("cells_only_ours") > 0 && sum("cells_only_theirs") > 0, "{report:#}");
    // All three are asymmetric.
    assert!(sum("symmetry_violations") > 0);
}

#[test]
fn rot_js_paths_are_shortest_where_it_takes_the_rules_and_refuse_the_rest() {
    let Some(ext) = rot("precise") else { return };
    let out = sightline(&["check", "path", "--ext", &ext, "--pairs", "6", "--format", "json"]);
    let report = json(&out);
    assert_eq!(out.status.code(), Some(0), "{report:#}");
    assert_eq!(report["findings"], 0);
    let rows = report["rows"].as_array().unwrap();
    let refused = |rules: &str| rows.iter().filter(|r| r["rules"] == rules).all(|r| !r["refused"].is_null());
    // Steps cost 1: no √2 diagonals, no corner rules, no costs.
    assert!(refused("8 moves, no-corner-cut, diag 1.414"));
    assert!(refused("8 moves, always, diag 1.414"));
    assert!(!refused("4 moves") && !refused("8 moves, always, diag 1"));
    assert!(
        rows.iter().any(|r| r["map"] == "caves with costs 48×32" && r["rules"] == "4 moves" && !r["refused"].is_null())
    );
}
