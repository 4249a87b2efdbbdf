//! External algorithms through the protocol, driven as a user drives them: the `sightline`
//! binary with `--ext NAME=COMMAND`, against the minimal adapter (`adapters/minimal/minimal.py`)
//! and a program that misbehaves on purpose (`tests/ext/misbehave.py MODE`). Every failure must
//! end in exit code 1 and one message naming the program and what it did; never a panic (101).

use std::process::{Command, Output};

const MINIMAL: &str = "mine=python3 adapters/minimal/minimal.py";

fn sightline(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("sightline runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `sightline ARGS` with the misbehaving program in `mode` registered as `bad`, and returns
/// the error line: the exit code must be 1.
fn failure(mode: &str, args: &[&str]) -> String {
    let ext = format!("bad=python3 tests/ext/misbehave.py {mode}");
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--ext", &ext, "--ext-timeout", "2"]);
    let out = sightline(&all);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{mode}: {stderr}");
    let error = stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("{mode}: no error line in {stderr}"));
    assert!(error.contains("external algorithm `bad`"), "{mode}: the message names the program: {error}");
    error.to_string()
}

const FOV: &[&str] = &["fov", "maps/pillars.ron", "--algorithm", "bad", "--origin", "3,3", "--radius", "5"];

#[test]
fn a_program_that_does_not_start_is_named_with_the_cause() {
    let out = sightline(&["fov", "maps/pillars.ron", "--algorithm", "x", "--ext", "x=/no/such/program --fov"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("external algorithm `x`") && stderr.contains("cannot start \"/no/such/program\""),
        "{stderr}"
    );
}

#[test]
fn a_program_that_exits_is_reported_with_its_status_and_stderr() {
    let e = failure("exit-at-start", FOV);
    assert!(e.contains("exited with status 1 before answering the hello request"), "{e}");
    assert!(e.contains("No module named 'tcod'"), "its stderr is quoted: {e}");
    let e = failure("exit-on-fov", FOV);
    assert!(e.contains("exited with status 3 before answering the fov request 1"), "{e}");
    assert!(e.contains("KeyError"), "{e}");
}

#[test]
fn a_program_that_hangs_is_stopped_at_the_time_limit() {
    let started = std::time::Instant::now();
    let e = failure("hang-on-fov", FOV);
    assert!(e.contains("did not answer the fov request 1 within 2 s"), "{e}");
    let e = failure("hang-at-hello", FOV);
    assert!(e.contains("did not answer the hello request within 2 s"), "{e}");
    // Two limits of 2 s, not the programs' 60 s sleeps.
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}

#[test]
fn replies_that_break_the_protocol_are_quoted() {
    let e = failure("not-json", FOV);
    assert!(e.contains("not JSON") && e.contains("computing views..."), "{e}");
    let e = failure("wrong-id", FOV);
    assert!(e.contains("answered the fov request (id 1) with id 2"), "{e}");
    let e = failure("protocol-2", FOV);
    assert!(e.contains("its hello says protocol 2; this sightline speaks protocol 1"), "{e}");
    let e = failure("error-on-fov", FOV);
    assert!(e.contains("answered the fov request with an error: radius too large for my tables"), "{e}");
}

#[test]
fn views_with_cells_off_the_map_or_twice_are_refused() {
    let e = failure("off-map", FOV);
    assert!(e.contains("lists [43, 0] in the view from 3,3") && e.contains("off the 41×25 map"), "{e}");
    let e = failure("duplicates", FOV);
    assert!(e.contains("lists 3,3 twice in the view from 3,3"), "{e}");
}

#[test]
fn a_path_through_a_wall_is_refused_with_the_step() {
    // pillars.ron: a pillar at 3,6 lies on the straight line from 3,4 to 3,8.
    let e = failure("good", &["path", "maps/pillars.ron", "--algorithm", "bad", "--from", "3,4", "--to", "3,8"]);
    assert!(e.contains("goes through 3,6 at step 2, which cannot be walked on"), "{e}");
}

#[test]
fn an_external_view_is_drawn_and_audited_like_a_built_in_one() {
    let out = sightline(&[
        "fov",
        "maps/pillars.ron",
        "--ext",
        MINIMAL,
        "--algorithm",
        "mine",
        "--origin",
        "3,3",
        "--radius",
        "4",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let view = text(&out.stdout);
    assert!(view.lines().nth(3).unwrap().starts_with("#..@"), "{view}");
    // The same audit of the same views: a program that sees what `circle` sees (everything in
    // the radius) is symmetric, as `circle` is, over the same number of pairs.
    let audit = |ext: &[&str], algorithm: &str| {
        let mut args = vec![
            "audit",
            "symmetry",
            "maps/pillars.ron",
            "--radius",
            "5",
            "--format",
            "json",
            "--algorithm",
            algorithm,
        ];
        args.extend(ext);
        let out = sightline(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let ours = audit(&[], "circle");
    let theirs = audit(&["--ext", "bad=python3 tests/ext/misbehave.py good"], "bad");
    assert_eq!(theirs["pairs"], ours["pairs"]);
    assert!(ours["pairs"].as_u64().unwrap() > 1000);
    assert_eq!(theirs["violations"], 0);
    // The minimal adapter's Bresenham line of sight is not symmetric.
    assert!(audit(&["--ext", MINIMAL], "mine")["violations"].as_u64().unwrap() > 0);
}

#[test]
fn check_fov_passes_an_equal_algorithm_and_fails_a_different_one() {
    let good = "bad=python3 tests/ext/misbehave.py good";
    let out = sightline(&["check", "fov", "--ext", good, "--against", "circle", "--origins", "30", "--radii", "3,7"]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}{}", text(&out.stderr));
    assert!(report.contains("0 of 360 views differ"), "{report}");
    let out = sightline(&["check", "fov", "--ext", good, "--origins", "30", "--radii", "3,7", "--show", "1"]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    // Seeing through every wall: cells only it sees, drawn `T`, and no cell only symmetric sees.
    assert!(report.contains("cells only bad sees (T), 0 cells only symmetric sees (O)"), "{report}");
    assert!(report.lines().any(|l| l.contains('T')), "{report}");
    assert!(text(&out.stderr).contains("views differ from symmetric"));
}

#[test]
fn check_path_passes_an_optimal_search_and_fails_one_through_walls() {
    let out = sightline(&["check", "path", "--ext", MINIMAL, "--pairs", "4"]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}{}", text(&out.stderr));
    // Six rule sets on seven maps, four pairs each; the caves with costs among them.
    assert!(report.contains("0 of 168 paths wrong"), "{report}");
    assert!(report.contains("caves with costs"), "{report}");
    let out = sightline(&["check", "path", "--ext", "bad=python3 tests/ext/misbehave.py good", "--pairs", "4"]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.contains("which cannot be walked on"), "{report}");
}

#[test]
fn a_bad_registration_is_a_usage_error_naming_the_problem() {
    for (arg, problem) in
        [("symmetric=python3 x.py", "built-in"), ("mine", "NAME=COMMAND"), ("mine=python3 'x", "unclosed '")]
    {
        // The app's own --ext and a command's are checked alike, before anything starts.
        for args in [vec!["--ext", arg, "--frames", "1"], vec!["fov", "maps/pillars.ron", "--ext", arg]] {
            let out = sightline(&args);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains(problem), "{args:?}: {stderr}");
        }
    }
}
