//! External algorithms in the app, driven by label as a developer drives them: registered in the
//! External algorithms window, then chosen in the FOV comparison, the symmetry overlay and the
//! pathfinding overlay; a program that hangs or misbehaves leaves the app responsive, the map
//! untouched, its message shown and a restart offered. The programs are the minimal adapter and
//! `tests/ext/misbehave.py` (python3).
#![cfg(feature = "gui")]

mod common;

use std::time::{Duration, Instant};

use common::{click_cell, click_menu_item, harness_sized, sample};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sightline::app::external::{ExtCommand, ExtId};
use sightline::app::{Command, FileCommand, OverlayCommand, OverlayKind, SightlineApp};
use sightline::core::analysis::symmetry::{self, Views};
use sightline::core::ext::{ExtSpec, Log, Program, StartOptions};
use sightline::core::fov::OpacityGrid;
use sightline::core::{Cell, path};

const MINIMAL: &str = "python3 adapters/minimal/minimal.py";

fn harness() -> Harness<'static, SightlineApp> {
    let mut h = harness_sized(1400.0, 900.0);
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h
}

/// Registers a program through the window, as a user types it.
fn register(h: &mut Harness<'static, SightlineApp>, name: &str, command: &str) -> ExtId {
    if !h.state().overlays.externals.window_open {
        click_menu_item(h, "Overlays", "External algorithms…");
    }
    h.get_by_label("new algorithm name").click();
    h.run();
    h.get_by_label("new algorithm name").type_text(name);
    h.run();
    h.get_by_label("new algorithm command").click();
    h.run();
    h.get_by_label("new algorithm command").type_text(command);
    h.run();
    h.get_by_label("Add").click();
    h.run();
    let entries = h.state().overlays.externals.entries();
    let entry = entries.iter().find(|e| e.1 == name).unwrap_or_else(|| panic!("{name} is registered: {entries:?}"));
    assert_eq!(entry.2, command);
    // Its name shows in the window; closed, the pickers' labels are the only ones.
    h.get_by_label(name);
    h.state_mut().commands.push(Command::Overlay(OverlayCommand::Ext(ExtCommand::ShowWindow(false))));
    h.run();
    entry.0
}

fn show(h: &mut Harness<'static, SightlineApp>, kind: OverlayKind) {
    h.state_mut().commands.push(Command::Overlay(OverlayCommand::Show(kind, true)));
    h.run();
}

/// Picks `option` in the drop-down named `picker`. Frames are stepped, not run to rest: a
/// program's answer keeps the app repainting until it is in.
fn pick(h: &mut Harness<'static, SightlineApp>, picker: &str, option: &str) {
    h.get_by_label(picker).click();
    h.run_steps(2);
    h.get_all_by_label(option).last().unwrap_or_else(|| panic!("{picker} offers {option}")).click();
    h.run_steps(2);
}

/// Pins the FOV comparison's origin with the Probe tool.
fn pin(h: &mut Harness<'static, SightlineApp>, cell: Cell) {
    h.get_by_label("Probe").click();
    h.run_steps(2);
    click_cell(h, cell);
}

/// The minimal adapter, started in the test, on the app's map.
fn minimal_program(h: &Harness<'static, SightlineApp>) -> (Program, OpacityGrid) {
    let map = &h.state().document.map;
    let grid = OpacityGrid::from_map(map);
    let spec = ExtSpec::new("mine", MINIMAL).unwrap();
    let mut program = Program::start(&spec, StartOptions::default(), Log::default()).unwrap();
    program.set_map(&grid, &path::CostGrid::from_map(map, path::DoorRule::Impassable)).unwrap();
    (program, grid)
}

#[test]
fn a_registered_program_is_shown_in_the_fov_comparison_and_the_pathfinding_overlay() {
    let mut h = harness();
    register(&mut h, "mine", MINIMAL);
    show(&mut h, OverlayKind::Fov);
    pick(&mut h, "algorithm B", "mine");
    let origin = Cell::new(6, 5);
    pin(&mut h, origin);
    h.state_mut().wait_for_overlays();
    h.run();
    // B's cells are the program's view from the pinned origin, as it answers directly.
    let (mut program, _) = minimal_program(&h);
    let theirs = program.fov(&[origin], Some(10), true).unwrap().remove(0);
    let fov = &h.state().overlays.fov;
    assert_eq!(fov.origin, Some(origin));
    assert!(fov.errors.iter().all(Option::is_none), "{:?}", fov.errors);
    assert_eq!(fov.agreement.both + fov.agreement.only_b, theirs.len());
    h.get_by_label(&format!("only B (mine): {}", fov.agreement.only_b));
    // Its row in the table of every algorithm at this origin, after the built-ins'.
    let rows = &h.state().overlays.fov.external_rows;
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].name.as_str(), rows[0].visible), ("mine", theirs.len()));

    // Side B of the pathfinding overlay: the program's path, its cost the optimal one (the
    // minimal adapter is Dijkstra), and its exploration replayed a cell a step.
    // (The FOV table's row names it too: closed, "mine" is the picker's alone.)
    h.state_mut().commands.push(Command::Overlay(OverlayCommand::Show(OverlayKind::Fov, false)));
    h.run();
    show(&mut h, OverlayKind::Pathfinding);
    pick(&mut h, "side B algorithm", "mine");
    h.state_mut().wait_for_overlays();
    h.run();
    let overlay = &h.state().overlays.path;
    let sides = overlay.sides.as_ref().expect("both sides searched");
    let (a, b) = (&sides[0], &sides[1]);
    let (a_cost, b_cost) = (a.outcome.as_ref().unwrap().cost, b.outcome.as_ref().unwrap().cost);
    assert!((a_cost - b_cost).abs() < 1e-9, "Dijkstra {a_cost} against the program's {b_cost}");
    let (start, goal) = (overlay.start.unwrap(), overlay.goal.unwrap());
    let rules = b.params.rules;
    let found = program.path(start, goal, &rules);
    // The program here was sent closed doors as walls; pillars.ron has no door.
    let found = found.unwrap();
    assert_eq!(b.steps() as usize, found.expanded.unwrap().len());
    h.get_by_label(&format!("B expanded {}", b.steps()));
    h.get_by_label("B: mine");
}

#[test]
fn the_symmetry_overlay_audits_a_program_and_lists_it_in_its_table() {
    let mut h = harness();
    register(&mut h, "mine", MINIMAL);
    show(&mut h, OverlayKind::Symmetry);
    pick(&mut h, "symmetry algorithm", "mine");
    h.state_mut().wait_for_overlays();
    h.run();
    let (mut program, grid) = minimal_program(&h);
    let (done, cancel) = Default::default();
    let direct = symmetry::audit_views(&grid, Views::External(&mut program), Some(8), &done, &cancel).unwrap();
    let overlay = &h.state().overlays.symmetry;
    let report = overlay.report.as_ref().expect("the program's audit");
    assert_eq!(report.algorithm, "mine");
    assert_eq!((report.pairs, report.violations), (direct.pairs, direct.violations));
    assert!(direct.violations > 0, "Bresenham line of sight is not symmetric");
    // Its row after the nine built-ins'.
    assert_eq!(overlay.external_rows.len(), 1);
    assert_eq!(overlay.external_rows[0].1.violations, direct.violations);
    h.get_by_label(&format!("violations {}", direct.violations));
}

#[test]
fn a_program_that_hangs_leaves_the_app_responsive_and_the_map_untouched() {
    let mut h = harness();
    let id = register(&mut h, "bad", "python3 tests/ext/misbehave.py hang-on-fov");
    h.state_mut().commands.push(Command::Overlay(OverlayCommand::Ext(ExtCommand::SetTimeout(id, 1.5))));
    h.run();
    let map_before = h.state().document.map.clone();
    let revision = h.state().document.revision();
    show(&mut h, OverlayKind::Fov);
    pick(&mut h, "algorithm B", "bad");
    pin(&mut h, Cell::new(3, 3));
    // Frames keep coming, quickly, while the program hangs.
    let started = Instant::now();
    let mut slowest = Duration::ZERO;
    while h.state().overlays.fov.errors[1].is_none() {
        assert!(started.elapsed() < Duration::from_secs(20), "the time limit stops it");
        let t = Instant::now();
        h.run_steps(1);
        slowest = slowest.max(t.elapsed());
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(slowest < Duration::from_millis(500), "a frame took {slowest:?}");
    let error = h.state().overlays.fov.errors[1].clone().unwrap();
    assert!(error.message.contains("did not answer the fov request 1 within 1.5 s"), "{error}");
    assert!(error.to_string().contains("external algorithm `bad`"));
    h.run_steps(2);
    h.get_by_label(&format!("B: {error}"));
    assert!(h.state().document.map == map_before && h.state().document.revision() == revision);
    // Restart: the program is started again and asked again (and hangs again).
    h.get_by_label("Restart bad").click();
    h.run_steps(2);
    assert!(h.state().overlays.fov.errors[1].is_none(), "asked again after the restart");
}

#[test]
fn each_failure_of_a_program_shows_its_message_in_the_overlay() {
    for (mode, expected) in [
        ("exit-on-fov", "exited with status 3 before answering the fov request 1"),
        ("not-json", "printed a line that is not JSON"),
        ("wrong-id", "answered the fov request (id 1) with id 2"),
        ("off-map", "off the 41×25 map"),
        ("duplicates", "twice in the view"),
        ("error-on-fov", "answered the fov request with an error: radius too large for my tables"),
        ("exit-at-start", "exited with status 1 before answering the hello request"),
    ] {
        let mut h = harness();
        register(&mut h, "bad", &format!("python3 tests/ext/misbehave.py {mode}"));
        show(&mut h, OverlayKind::Fov);
        pick(&mut h, "algorithm B", "bad");
        pin(&mut h, Cell::new(3, 3));
        h.state_mut().wait_for_overlays();
        h.run_steps(2);
        let error = h.state().overlays.fov.errors[1].clone().unwrap_or_else(|| panic!("{mode}: an error"));
        assert!(
            error.to_string().contains("external algorithm `bad`") && error.message.contains(expected),
            "{mode}: {error}"
        );
        h.get_by_label(&format!("B: {error}"));
        // A stopped program is offered a restart; one that refused or answered wrongly runs on.
        assert_eq!(h.query_by_label("Restart bad").is_some(), error.is_fatal(), "{mode}");
    }
}

/// The registered programs are kept between runs, and a stored value that cannot be read
/// leaves the list empty.
#[test]
fn registered_programs_persist() {
    #[derive(Default)]
    struct Memory(std::collections::HashMap<String, String>);
    impl eframe::Storage for Memory {
        fn get_string(&self, key: &str) -> Option<String> {
            self.0.get(key).cloned()
        }
        fn set_string(&mut self, key: &str, value: String) {
            self.0.insert(key.to_string(), value);
        }
        fn remove_string(&mut self, key: &str) {
            self.0.remove(key);
        }
        fn flush(&mut self) {}
    }
    let mut h = harness();
    register(&mut h, "mine", MINIMAL);
    register(&mut h, "rot", "node adapters/rotjs/sightline_rot.mjs --fov precise");
    let mut storage = Memory::default();
    eframe::App::save(h.state_mut(), &mut storage);
    let mut next = SightlineApp::new(None);
    next.load_settings(&storage);
    let names: Vec<(String, String)> = next.overlays.externals.entries().into_iter().map(|e| (e.1, e.2)).collect();
    assert_eq!(
        names,
        [
            ("mine".to_string(), MINIMAL.to_string()),
            ("rot".to_string(), "node adapters/rotjs/sightline_rot.mjs --fov precise".to_string())
        ]
    );
    let key = storage.0.keys().find(|k| k.contains("externals")).unwrap().clone();
    storage.0.insert(key, "not ron at all (".into());
    let mut next = SightlineApp::new(None);
    next.load_settings(&storage);
    assert!(next.overlays.externals.entries().is_empty());
}

/// Play mode sees with the program: the player's view is the program's view from the player's
/// cell, at the start and after a step (the game runs off the UI thread while it asks).
#[test]
fn play_mode_sees_with_a_program() {
    use sightline::app::play::PlayCommand;
    use sightline::core::sim::Action;
    let mut h = harness();
    register(&mut h, "mine", MINIMAL);
    h.state_mut().commands.push(Command::Play(PlayCommand::ShowPane(true)));
    h.run();
    pick(&mut h, "play fov", "mine");
    h.state_mut().play.wait_turn();
    h.run_steps(2);
    let (mut program, _) = minimal_program(&h);
    for step in 0..2 {
        let world = h.state().play.world.as_ref().expect("the game started");
        assert_eq!(world.lighting().source().name(), "mine");
        let (cell, vision) = (world.player().cell, world.player().vision);
        let radius = (vision != u32::MAX).then_some(vision);
        let mut theirs = program.fov(&[cell], radius, true).unwrap().remove(0);
        theirs.sort_by_key(|c| (c.y, c.x));
        let ours: Vec<Cell> = world.visible().iter().collect();
        assert_eq!(ours, theirs, "step {step}: the player's view from {cell}");
        if step == 0 {
            h.state_mut().commands.push(Command::Play(PlayCommand::Act(Action::Move(-1, 0))));
            h.run_steps(1);
            assert!(h.state().play.thinking(), "the turn runs on a job");
            h.state_mut().play.wait_turn();
            h.run_steps(2);
            assert_eq!(h.state().play.world.as_ref().unwrap().player().cell, Cell::new(cell.x - 1, cell.y));
        }
    }
    h.get_by_label_contains("mine FOV");
}

/// A program that hangs in play mode: frames keep coming, the game stays as it was, and the
/// pane says why and offers a restart.
#[test]
fn play_mode_survives_a_program_that_hangs() {
    use sightline::app::play::PlayCommand;
    let mut h = harness();
    let id = register(&mut h, "bad", "python3 tests/ext/misbehave.py hang-on-fov");
    h.state_mut().commands.push(Command::Overlay(OverlayCommand::Ext(ExtCommand::SetTimeout(id, 1.0))));
    h.state_mut().commands.push(Command::Play(PlayCommand::ShowPane(true)));
    h.run();
    let before = h.state().play.world.as_ref().map(|w| (w.player().cell, w.turn));
    assert!(before.is_some(), "the preset's game runs first");
    pick(&mut h, "play fov", "bad");
    let started = Instant::now();
    while h.state().play.error.is_none() {
        assert!(started.elapsed() < Duration::from_secs(20));
        let t = Instant::now();
        h.run_steps(1);
        assert!(t.elapsed() < Duration::from_millis(500), "a frame took {:?}", t.elapsed());
        std::thread::sleep(Duration::from_millis(20));
    }
    let error = h.state().play.error.clone().unwrap();
    assert!(error.message.contains("did not answer the fov request 1 within 1 s"), "{error}");
    assert_eq!(h.state().play.world.as_ref().map(|w| (w.player().cell, w.turn)), before);
    h.run_steps(2);
    h.get_by_label("Restart bad");
    h.get_by_label("Use the preset's FOV");
}

/// The lighting overlay lights the map by the program: the lit cells are those of the core's
/// lighting with the program's views, asked directly.
#[test]
fn the_lighting_overlay_lights_by_a_program() {
    use sightline::core::ext::ExtError;
    use sightline::core::sim::{ExternalSight, Lighting, SightSource};
    struct Direct(std::sync::Mutex<Program>);
    impl ExternalSight for Direct {
        fn name(&self) -> String {
            "mine".into()
        }
        fn view(&self, opacity: &OpacityGrid, origin: Cell, radius: Option<u32>) -> Result<Vec<Cell>, ExtError> {
            use sightline::core::fov::Opacity as _;
            let mut costs = path::CostGrid::open(opacity.width() as u32, opacity.height() as u32);
            for y in 0..opacity.height() {
                for x in 0..opacity.width() {
                    if opacity.is_opaque(x, y) {
                        costs.set_cost(x, y, f32::INFINITY);
                    }
                }
            }
            let mut program = self.0.lock().unwrap();
            program.set_map(opacity, &costs)?;
            Ok(program.fov(&[origin], radius, true)?.remove(0))
        }
    }
    let mut h = harness_sized(1400.0, 900.0);
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("dungeon.ron"))));
    h.run();
    register(&mut h, "mine", MINIMAL);
    show(&mut h, OverlayKind::Lighting);
    pick(&mut h, "lighting algorithm", "mine");
    h.state_mut().wait_for_overlays();
    h.run_steps(2);
    let overlay = &h.state().overlays.lighting;
    assert!(overlay.error.is_none(), "{:?}", overlay.error);
    let shown = overlay.lighting().expect("lit by the program");
    assert_eq!(shown.source().name(), "mine");
    let (program, grid) = minimal_program(&h);
    let source = SightSource::external(std::sync::Arc::new(Direct(std::sync::Mutex::new(program))));
    let direct = Lighting::with_source(Lighting::lights_of(&h.state().document.map), source, &grid);
    assert!(direct.lit().count() > 0);
    assert_eq!(shown.lit().iter().collect::<Vec<_>>(), direct.lit().iter().collect::<Vec<_>>());
    h.get_by_label(&format!("lit: {} cells (deeper where lights overlap)", direct.lit().count()));
}

/// The cache overlay under a program keeps no cache: a toggled cell's box is recomputed by the
/// program, the candidates are the box, and the views that changed are those the core finds
/// asking the program directly.
#[test]
fn the_cache_overlay_recomputes_dcss_box_through_a_program() {
    use sightline::core::analysis::los_cache;
    let mut h = harness();
    register(&mut h, "mine", MINIMAL);
    show(&mut h, OverlayKind::Cache);
    pick(&mut h, "cache algorithm", "mine");
    h.state_mut().wait_for_overlays();
    h.run_steps(2);
    let toggled = Cell::new(9, 9);
    h.state_mut().commands.push(Command::Overlay(OverlayCommand::ToggleWhatIf(toggled)));
    h.run_steps(1);
    h.state_mut().wait_for_overlays();
    h.run_steps(2);
    let overlay = &h.state().overlays.cache;
    assert!(overlay.error.is_none(), "{:?}", overlay.error);
    let last = overlay.last.clone().expect("the toggle's regions");
    assert_eq!(last.cells, [toggled]);
    assert_eq!(last.candidates, last.conservative);
    let (mut program, mut grid) = minimal_program(&h);
    let costs = path::CostGrid::from_map(&h.state().document.map, path::DoorRule::Impassable);
    let opaque = !sightline::core::fov::Opacity::is_opaque(&grid, toggled.x, toggled.y);
    let direct = los_cache::external_update(&mut program, &mut grid, &costs, 8, toggled, opaque).unwrap();
    assert_eq!((last.conservative, last.changed), (direct.conservative.len(), direct.changed.len()));
    assert!(!direct.changed.is_empty());
    h.get_by_label(&format!("views changed: {}", direct.changed.len()));
}
