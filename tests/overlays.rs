//! The overlays driven as a person would (egui_kittest): toggled from the Overlays menu, markers
//! dragged, the step slider stepped, cells probed, walls painted; the labels read back and checked
//! against the core computed directly.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sightline::app::overlays::Overlay;
use sightline::app::{Command, OverlayCommand, OverlayKind, SightlineApp};
use sightline::app::{FileCommand, HistoryCommand};
use sightline::core::Cell;
use sightline::core::fov::{self, FovParams, OpacityGrid, VisibleSet};
use sightline::core::path::{self, CostGrid, DoorRule, SearchParams};

mod common;
use common::{cell_centre, click_cell, click_menu_item, sample};

fn harness() -> Harness<'static, SightlineApp> {
    common::harness_sized(1400.0, 900.0)
}

fn open(h: &mut Harness<'static, SightlineApp>, name: &str) {
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample(name))));
    h.run();
}

/// Turns an overlay on through the Overlays menu, by its label.
fn show_from_menu(h: &mut Harness<'static, SightlineApp>, kind: OverlayKind) {
    click_menu_item(h, "Overlays", kind.label());
    // Close the menu.
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(h.state().overlays.is_on(kind), "{} is on", kind.label());
}

fn drag(h: &mut Harness<'static, SightlineApp>, from: Cell, to: Cell) {
    let (a, b) = (cell_centre(h, from), cell_centre(h, to));
    common::drag_between(h, a, b);
}

#[test]
fn each_overlay_toggles_from_the_menu_and_closes_from_its_panel() {
    let mut h = harness();
    open(&mut h, "pillars.ron");
    for kind in OverlayKind::ALL {
        show_from_menu(&mut h, kind);
        // Background work finished: the panel's layout no longer moves under the pointer.
        h.state_mut().wait_for_overlays();
        h.run();
        // Its section is in the side panel.
        h.get_by_label(&kind.heading());
        h.get_all_by_label("Close overlay").next().unwrap().click();
        h.run();
        assert!(!h.state().overlays.is_on(kind), "{} closed", kind.label());
        assert!(h.query_by_label(&kind.heading()).is_none());
    }
}

#[test]
fn pathfinding_compares_dijkstra_and_astar_and_shows_their_stats() {
    let mut h = harness();
    open(&mut h, "pillars.ron");
    show_from_menu(&mut h, OverlayKind::Pathfinding);
    let (start, goal) = {
        let p = &h.state().overlays.path;
        (p.start.unwrap(), p.goal.unwrap())
    };
    // The start marker is the map's player start; the goal the reachable cell farthest from it.
    assert_eq!(start, Cell::new(20, 12));
    let sides = h.state().overlays.path.sides.as_ref().expect("both searches ran");
    let (dijkstra, astar) = (&sides[0], &sides[1]);
    // What the labels say is what the core computes.
    let grid = CostGrid::from_map(&h.state().document.map, DoorRule::OpenAtCost(2.0));
    let expected = path::find_path(&grid, &SearchParams::default(), start, goal).unwrap();
    let a_cost = dijkstra.outcome.as_ref().unwrap().cost;
    let b_cost = astar.outcome.as_ref().unwrap().cost;
    assert!((a_cost - expected.cost).abs() < 1e-9 && (b_cost - expected.cost).abs() < 1e-9);
    assert!(astar.steps() < dijkstra.steps(), "A* expands fewer cells than Dijkstra");
    let (a_steps, b_steps) = (dijkstra.steps(), astar.steps());
    h.get_by_label(&format!("A expanded {a_steps}"));
    h.get_by_label(&format!("B expanded {b_steps}"));
    h.get_by_label(&format!("A cost {:.2}", expected.cost));
    h.get_by_label(&format!("B cost {:.2}", expected.cost));
    h.get_by_label(&format!("B length {}", expected.path.len() - 1));
    // The split view labels its two canvases.
    assert!(h.state().overlays.split());
}

#[test]
fn the_step_controls_replay_the_search() {
    let mut h = harness();
    open(&mut h, "pillars.ron");
    show_from_menu(&mut h, OverlayKind::Pathfinding);
    let max = h.state().overlays.path.max_step();
    assert_eq!(h.state().overlays.path.step, max, "a new search shows its result");
    h.get_by_label("First").click();
    h.run();
    assert_eq!(h.state().overlays.path.step, 0);
    h.get_by_label("Next").click();
    h.run();
    h.get_by_label("Next").click();
    h.run();
    let p = &h.state().overlays.path;
    assert_eq!(p.step, 2);
    // After two expansions: two cells closed on each side, and the start is one of them.
    for side in p.sides.as_ref().unwrap() {
        let state = side.state();
        assert_eq!(state.step, 2);
        let closed = state.cells.iter().filter(|c| **c == path::CellState::Closed).count();
        assert_eq!(closed, 2);
        assert_eq!(state.cells[state.index(p.start.unwrap())], path::CellState::Closed);
    }
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().overlays.path.step, 1);
    // Play runs forward on its own, frame by frame, until paused.
    h.get_by_label("Play steps").click();
    for _ in 0..10 {
        h.step();
    }
    let playing_step = h.state().overlays.path.step;
    assert!(playing_step > 1 && playing_step <= max, "playing advanced to {playing_step}");
    h.get_by_label("Pause steps").click();
    h.run();
    let paused = h.state().overlays.path.step;
    for _ in 0..5 {
        h.step();
    }
    assert_eq!(h.state().overlays.path.step, paused);
    h.get_by_label("Last").click();
    h.run();
    assert_eq!(h.state().overlays.path.step, max);
}

#[test]
fn dragging_a_marker_moves_it_without_painting() {
    let mut h = harness();
    open(&mut h, "pillars.ron");
    show_from_menu(&mut h, OverlayKind::Pathfinding);
    // One canvas makes the cell positions simple.
    let mut settings = h.state().overlays.path.settings.clone();
    settings.split = false;
    h.state_mut().commands.push(Command::Overlay(OverlayCommand::PathSettings(settings)));
    h.run();
    let start = h.state().overlays.path.start.unwrap();
    let target = Cell::new(5, 4);
    drag(&mut h, start, target);
    assert_eq!(h.state().overlays.path.start, Some(target));
    assert_eq!(h.state().overlays.path.dragging, None);
    assert!(!h.state().document.dirty, "moving a marker is not an edit");
    let goal = h.state().overlays.path.goal.unwrap();
    let result = h.state().overlays.path.sides.as_ref().unwrap()[1].outcome.clone().unwrap();
    assert_eq!(result.path.first(), Some(&target));
    assert_eq!(result.path.last(), Some(&goal));
}

#[test]
fn painting_a_wall_on_the_path_reroutes_both_searches() {
    let mut h = harness();
    open(&mut h, "pillars.ron");
    show_from_menu(&mut h, OverlayKind::Pathfinding);
    let mut settings = h.state().overlays.path.settings.clone();
    settings.split = false;
    h.state_mut().commands.push(Command::Overlay(OverlayCommand::PathSettings(settings)));
    h.run();
    let before = h.state().overlays.path.sides.as_ref().unwrap()[1].outcome.clone().unwrap();
    let blocked = before.path[before.path.len() / 2];
    h.get_by_label("Brush").click();
    h.run();
    h.get_by_label("#  wall").click();
    h.run();
    click_cell(&mut h, blocked);
    assert!(h.state().document.dirty);
    for side in h.state().overlays.path.sides.as_ref().unwrap() {
        let after = side.outcome.as_ref().unwrap();
        assert!(!after.path.contains(&blocked), "{} avoids the new wall", side.params.algorithm.name());
        assert!(after.cost >= before.cost - 1e-9);
    }
    // Undo brings the old path back.
    h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
    h.run();
    assert_eq!(h.state().overlays.path.sides.as_ref().unwrap()[1].outcome.as_ref().unwrap().cost, before.cost);
}

#[test]
fn dijkstra_map_mode_probes_sources_and_walks_downhill() {
    let mut h = harness();
    open(&mut h, "pillars.ron");
    show_from_menu(&mut h, OverlayKind::Pathfinding);
    h.get_by_label("Dijkstra map").click();
    h.run();
    h.get_by_label("Probe").click();
    h.run();
    // The player start is the first source; probe-click a second one.
    click_cell(&mut h, Cell::new(38, 22));
    let p = &h.state().overlays.path;
    assert_eq!(p.sources, vec![Cell::new(20, 12), Cell::new(38, 22)]);
    let d = p.dijkstra.as_ref().unwrap();
    assert_eq!(d.values.value(Cell::new(38, 22)), Some(0.0));
    assert_eq!(d.values.value(Cell::new(20, 12)), Some(0.0));
    // The walker (G) walks downhill to a source.
    let end = *d.route.last().unwrap();
    assert!(p.sources.contains(&end), "the route ends on a source, not at {end:?}");
    h.get_by_label("2 sources: click cells with the Probe tool (P) to add or remove");
    // A flee map turns the walk away from the sources.
    h.get_by_label("Flee map (× −1.2)").click();
    h.run();
    let d = h.state().overlays.path.dijkstra.as_ref().unwrap();
    assert!(d.values.value(Cell::new(20, 12)).unwrap() < 0.0);
}

#[test]
fn fov_comparison_follows_the_pointer_and_pins_on_a_probe_click() {
    let mut h = harness();
    open(&mut h, "pillars.ron");
    show_from_menu(&mut h, OverlayKind::Fov);
    let origin = Cell::new(10, 10);
    let p = cell_centre(&h, origin);
    h.hover_at(p);
    h.run();
    h.run();
    assert_eq!(h.state().overlays.fov.origin, Some(origin));
    // The counts shown are the core's: shadowcast (A) and symmetric (B) at radius 10.
    let grid = OpacityGrid::from_map(&h.state().document.map);
    let view = |a: fov::Algorithm| {
        let mut v = VisibleSet::new(41, 25);
        fov::compute(a, &grid, FovParams::new(origin, Some(10)), &mut v);
        v
    };
    let (va, vb) = (view(fov::Algorithm::Shadowcast), view(fov::Algorithm::Symmetric));
    let both = va.iter().filter(|c| vb.contains_cell(*c)).count();
    h.get_by_label(&format!("both see: {both}"));
    h.get_by_label(&format!("only A (shadowcast): {}", va.count() - both));
    h.get_by_label(&format!("only B (symmetric): {}", vb.count() - both));
    // Every algorithm is in the table.
    assert_eq!(h.state().overlays.fov.table.len(), fov::Algorithm::ALL.len());
    assert_eq!(h.state().overlays.fov.plot[0].len(), 30);
    // Painting a wall next to the origin updates the views at once.
    h.get_by_label("Brush").click();
    h.run();
    h.get_by_label("#  wall").click();
    h.run();
    click_cell(&mut h, Cell::new(11, 10));
    h.hover_at(p);
    h.run();
    let grid = OpacityGrid::from_map(&h.state().document.map);
    let mut v = VisibleSet::new(41, 25);
    fov::compute(fov::Algorithm::Shadowcast, &grid, FovParams::new(origin, Some(10)), &mut v);
    assert_ne!(v.count(), va.count(), "the wall shadows cells");
    assert_eq!(
        h.state().overlays.fov.agreement.both + h.state().overlays.fov.agreement.only_a,
        v.count(),
        "A's count is the edited map's"
    );
    // Pin with the probe, then move the pointer away: the origin stays.
    h.get_by_label("Probe").click();
    h.run();
    click_cell(&mut h, origin);
    h.hover_at(cell_centre(&h, Cell::new(30, 20)));
    h.run();
    assert_eq!(h.state().overlays.fov.origin, Some(origin));
    h.get_by_label("origin 10, 10 (pinned)");
    h.get_by_label("Unpin").click();
    h.hover_at(cell_centre(&h, Cell::new(30, 20)));
    h.run();
    h.run();
    assert_eq!(h.state().overlays.fov.origin, Some(Cell::new(30, 20)));
}

/// With the origin pinned, the pointer is a target: the panel says whether each algorithm has
/// the origin see it and it see the origin, naming a one-sided pair, and whether a shot from the
/// origin reaches it; the core says the same. The corridor of `corridor_asymmetry` (tests/fov.rs):
/// under shadowcasting the monster's cell sees the player's unseen; under symmetric neither sees.
#[test]
fn a_pinned_origin_and_the_pointer_are_checked_as_a_pair() {
    use sightline::core::fov::targeting::{PairSight, shot};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corridor.txt");
    std::fs::write(&path, "##########\n#........#\n#####.####\n#####.####\n#####.####\n").unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path)));
    h.run();
    show_from_menu(&mut h, OverlayKind::Fov);
    h.get_by_label("Probe").click();
    h.run();
    let (player, monster) = (Cell::new(4, 1), Cell::new(5, 4));
    click_cell(&mut h, player);
    h.get_by_label("Hover a cell: whether it and the origin see each other, and a shot between them.");
    h.hover_at(cell_centre(&h, monster));
    h.run();
    h.run();
    h.get_by_label("target 5, 4 (the pointer)");
    h.get_by_label("shadowcast: origin sees it no, it sees the origin yes — one-sided: it sees you unseen");
    h.get_by_label("symmetric: origin sees it no, it sees the origin no");
    h.get_by_label("shot from 4, 1: does not reach it (blocked at 4, 2)");
    // The core's verdicts, directly.
    let grid = OpacityGrid::from_map(&h.state().document.map);
    let mut scratch = VisibleSet::new(10, 5);
    let sight = PairSight::of(fov::Algorithm::Shadowcast, &grid, (player, monster), (Some(10), true), &mut scratch);
    assert!(!sight.sees && sight.seen_back);
    assert_eq!(shot(&grid, player, monster).blocked_at, [Some(Cell::new(4, 2)); 2]);
    assert_eq!(h.state().overlays.fov.pair.as_ref().and_then(|p| p.sights[0]), Some(sight));
    // Along the corridor the shot is clear and both see each other.
    h.hover_at(cell_centre(&h, Cell::new(8, 1)));
    h.run();
    h.run();
    h.get_by_label("symmetric: origin sees it yes, it sees the origin yes");
    h.get_by_label("shot from 4, 1: reaches it (clear)");
    // On the origin itself, no pair.
    h.hover_at(cell_centre(&h, player));
    h.run();
    assert_eq!(h.state().overlays.fov.pair, None);
}

/// Game rules colours the map by what its rules make of each cell, and its legend counts them as
/// the core's rules say: on the dungeon, its tall grass hides but is walked through, its water
/// costs 3, its doors are closed or open. Painting a wall over grass changes the counts.
#[test]
fn game_rules_counts_the_cells_by_what_the_rules_make_of_them() {
    use sightline::core::Passage;
    let mut h = harness();
    open(&mut h, "dungeon.ron");
    show_from_menu(&mut h, OverlayKind::Rules);
    let count = |map: &sightline::core::Map, p: Passage| {
        (0..map.len()).filter(|&i| map.rules_at(map.cell_at(i)).passage() == p).count()
    };
    let map = h.state().document.map.clone();
    let grass = count(&map, Passage::SightBlocked);
    assert_eq!(grass, 25, "the dungeon's tall grass");
    h.get_by_label(&format!("blocks sight and movement: {}", count(&map, Passage::Blocked)));
    h.get_by_label("blocks sight only: 25");
    h.get_by_label(&format!("blocks movement only: {}", count(&map, Passage::MoveBlocked)));
    h.get_by_label("closed doors: 8");
    h.get_by_label("open doors: 11");
    h.get_by_label("cost 3: 44");
    // A cell of grass, as drawn.
    let at =
        (0..map.len()).map(|i| map.cell_at(i)).find(|&c| map.rules_at(c).passage() == Passage::SightBlocked).unwrap();
    assert_eq!(h.state().overlays.rules.passage_at(at), Some(Passage::SightBlocked));
    // A wall painted over it: one grass cell fewer, at once.
    h.get_by_label("Brush").click();
    h.run();
    h.get_by_label("#  wall").click();
    h.run();
    click_cell(&mut h, at);
    h.run();
    h.get_by_label("blocks sight only: 24");
    assert_eq!(h.state().overlays.rules.passage_at(at), Some(Passage::Blocked));
    h.get_by_label("out of reach of the start (crossed): 0");
    // A room walled off from the start: its cells crossed out and counted, its orc named.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pocket.txt");
    std::fs::write(&path, "############\n#@.+.#.##..#\n#...#.#.#o.#\n############\n").unwrap();
    let mut h = harness();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path)));
    h.run();
    show_from_menu(&mut h, OverlayKind::Rules);
    h.get_by_label("out of reach of the start (crossed): 4");
    h.get_by_label("monster 'orc' (#2) at 9,2 cannot be reached from the start");
}

/// On a big map Game rules reads the map off the UI thread: after an edit the last read is
/// drawn until the new one is in, and then the edit shows.
#[test]
fn game_rules_reads_a_big_map_off_the_ui_thread() {
    use sightline::app::Overlays;
    use sightline::core::Passage;
    use sightline::core::format::load;
    let mut map = load(&sample("large.ron")).unwrap().map;
    assert!(map.len() > 100_000, "big enough to be read in the background");
    let mut overlays = Overlays::default();
    overlays.apply(OverlayCommand::Show(OverlayKind::Rules, true), &map);
    overlays.update(&map, 1, None, 0.0);
    assert!(overlays.rules.busy(), "the first read runs in the background");
    assert_eq!(overlays.rules.passage_at(Cell::new(0, 0)), None, "nothing read yet");
    overlays.wait_for_jobs(&map, 1);
    assert!(!overlays.rules.busy());
    let floor = (0..map.len()).map(|i| map.cell_at(i)).find(|&c| map.rules_at(c).passage() == Passage::Open).unwrap();
    assert_eq!(overlays.rules.passage_at(floor), Some(Passage::Open));
    // A wall painted on that floor: the old read shows while the new one runs.
    let wall = map.tiles.iter().position(|t| t.opaque && !t.walkable).unwrap() as u16;
    assert!(map.set_tile(0, floor, wall));
    overlays.update(&map, 2, None, 0.0);
    assert!(overlays.rules.busy());
    assert_eq!(overlays.rules.passage_at(floor), Some(Passage::Open), "the last read, until the new one is in");
    overlays.wait_for_jobs(&map, 2);
    assert_eq!(overlays.rules.passage_at(floor), Some(Passage::Blocked));
    assert!(overlays.rules.numbers_text().contains("blocks sight and movement"));
}

#[test]
fn symmetry_audit_runs_in_the_background_and_shows_partners() {
    let mut h = harness();
    open(&mut h, "pillars.ron");
    show_from_menu(&mut h, OverlayKind::Symmetry);
    h.state_mut().wait_for_overlays();
    h.run();
    let report = h.state().overlays.symmetry.report.clone().expect("the audit finished");
    let grid = OpacityGrid::from_map(&h.state().document.map);
    let direct = sightline::core::analysis::symmetry::audit(
        &grid,
        fov::Algorithm::Shadowcast,
        Some(8),
        &Default::default(),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(report.violations, direct.violations);
    assert!(report.violations > 0, "shadowcast is not symmetric around pillars");
    h.get_by_label(&format!("violations {}", report.violations));
    // Every algorithm's row: the symmetric ones have none.
    let table = &h.state().overlays.symmetry.table;
    assert_eq!(table.len(), fov::Algorithm::ALL.len());
    for r in table {
        if fov::Algorithm::from_name(&r.algorithm).unwrap().is_symmetric() {
            assert_eq!(r.violations, 0, "{}", r.algorithm);
        }
    }
    // Probe the worst cell: its partners are drawn and counted.
    let (worst, count) = report.worst(1)[0];
    h.get_by_label("Probe").click();
    h.run();
    click_cell(&mut h, worst);
    assert_eq!(h.state().overlays.symmetry.selected, Some(worst));
    assert_eq!(h.state().overlays.symmetry.partners.len(), count as usize);
    h.get_by_label(&format!("cell {}, {}: {count} one-sided partners", worst.x, worst.y));
    // Painting a wall re-audits the map: the report is the core's on the edited map.
    h.get_by_label("Brush").click();
    h.run();
    h.get_by_label("#  wall").click();
    h.run();
    click_cell(&mut h, Cell::new(20, 20));
    h.state_mut().wait_for_overlays();
    h.run();
    let edited = OpacityGrid::from_map(&h.state().document.map);
    let direct = sightline::core::analysis::symmetry::audit(
        &edited,
        fov::Algorithm::Shadowcast,
        Some(8),
        &Default::default(),
        &Default::default(),
    )
    .unwrap();
    assert_ne!(direct.violations, report.violations, "the wall changes the audit");
    assert_eq!(h.state().overlays.symmetry.report.as_ref().unwrap().violations, direct.violations);
    // Switching to a symmetric algorithm clears the heatmap once its audit is in.
    let mut s = h.state().overlays.symmetry.settings.clone();
    s.algorithm = fov::Algorithm::Symmetric.into();
    h.state_mut().commands.push(Command::Overlay(OverlayCommand::SymmetrySettings(s)));
    h.run();
    h.state_mut().wait_for_overlays();
    h.run();
    assert_eq!(h.state().overlays.symmetry.report.as_ref().unwrap().violations, 0);
    assert!(h.state().overlays.symmetry.partners.is_empty());
}

#[test]
fn symmetry_audit_can_be_cancelled_and_restarted() {
    let mut h = harness();
    open(&mut h, "pillars.ron");
    // The audit is held before it starts: it is still running when Cancel is clicked, however
    // fast the machine (it used to race a large map's audit).
    let hold = sightline::app::overlays::job::hold_jobs();
    show_from_menu(&mut h, OverlayKind::Symmetry);
    assert!(h.state().overlays.symmetry.busy());
    h.get_by_label("Cancel").click();
    h.run();
    assert!(!h.state().overlays.symmetry.busy());
    h.get_by_label("Audit cancelled.");
    assert!(h.state().overlays.symmetry.report.is_none(), "a cancelled audit reports nothing");
    h.get_by_label("Run again").click();
    h.run();
    assert!(h.state().overlays.symmetry.busy());
    // Let go, the audit runs to its report.
    drop(hold);
    h.state_mut().wait_for_overlays();
    h.run();
    assert!(!h.state().overlays.symmetry.busy());
    assert!(h.state().overlays.symmetry.report.is_some(), "the audit run again finished");
}

#[test]
fn cache_overlay_shows_the_three_regions_of_a_toggle_and_of_a_painted_wall() {
    let mut h = harness();
    open(&mut h, "pillars.ron");
    show_from_menu(&mut h, OverlayKind::Cache);
    h.state_mut().wait_for_overlays();
    h.run();
    h.get_by_label_contains("cache memory");
    h.get_by_label("Probe").click();
    h.run();
    // Toggle a pillar (opaque → transparent) for the cache only.
    let pillar = Cell::new(9, 9);
    click_cell(&mut h, pillar);
    let last = h.state().overlays.cache.last.clone().expect("the toggle was applied");
    assert_eq!(last.cells, vec![pillar]);
    assert!(last.changed <= last.candidates && last.candidates <= last.conservative);
    assert!(last.changed > 0, "opening a pillar changes views");
    assert_eq!(last.conservative, 17 * 17 - 24, "the box of radius 8 minus the 24 other pillars in it");
    h.get_by_label(&format!("conservative (DCSS box): {}", last.conservative));
    h.get_by_label(&format!("exact candidates: {}", last.candidates));
    h.get_by_label(&format!("views changed: {}", last.changed));
    assert!(!h.state().document.dirty, "a what-if toggle does not edit the map");
    // Painting a wall in the map is an invalidation event too.
    h.get_by_label("Brush").click();
    h.run();
    h.get_by_label("#  wall").click();
    h.run();
    let wall = Cell::new(20, 20);
    click_cell(&mut h, wall);
    let last = h.state().overlays.cache.last.clone().unwrap();
    assert_eq!(last.cells, vec![wall]);
    assert!(last.changed > 0);
}

#[test]
fn lighting_shows_what_the_lights_light_and_what_a_viewer_sees_by_them() {
    use sightline::core::sim::Lighting;
    use sightline::core::{MapObject, ObjectKind};
    let mut h = harness();
    open(&mut h, "dungeon.ron");
    show_from_menu(&mut h, OverlayKind::Lighting);
    let lit = |h: &Harness<'static, SightlineApp>, algorithm: fov::Algorithm| {
        let map = &h.state().document.map;
        Lighting::of_map(map, algorithm, &OpacityGrid::from_map(map))
    };
    // The dungeon's light in the grass room, and the torch its kobold carries, where it stands:
    // what the core lights is what the panel says.
    let lighting = lit(&h, fov::Algorithm::Shadowcast);
    h.get_by_label(&format!("lit: {} cells (deeper where lights overlap)", lighting.lit().count()));
    h.get_by_label("2 lights, by id:");
    h.get_by_label(&format!("#6 at 10, 16: radius 6, {} lit", lighting.lit_by(0)));
    h.get_by_label(&format!("#8 at 51, 24: radius 3, {} lit", lighting.lit_by(1)));
    // A viewer in the middle room, west of its centre, sees the lit room through two doors
    // beyond its own vision of 8: the counts are the core's.
    let viewer = Cell::new(26, 15);
    h.hover_at(cell_centre(&h, viewer));
    h.run();
    h.run();
    assert_eq!(h.state().overlays.lighting.viewer, Some(viewer));
    let grid = OpacityGrid::from_map(&h.state().document.map);
    let (mut own, mut seen, mut far) = (VisibleSet::new(63, 31), VisibleSet::new(63, 31), VisibleSet::new(63, 31));
    fov::compute(fov::Algorithm::Shadowcast, &grid, FovParams::new(viewer, Some(8)), &mut own);
    lighting.sight(&grid, viewer, Some(8), &mut seen, &mut far);
    let by_light = seen.count() - own.count();
    assert!(by_light > 0, "the lit room is seen from afar");
    h.get_by_label(&format!("its own view: {}", own.count()));
    h.get_by_label(&format!("seen only by light: {by_light}"));
    // Pinned with the probe, it stays when the pointer moves on.
    h.get_by_label("Probe").click();
    h.run();
    click_cell(&mut h, viewer);
    h.hover_at(cell_centre(&h, Cell::new(50, 25)));
    h.run();
    h.get_by_label("viewer 26, 15 (pinned)");
    // The overlay's lit cells, against a fresh lighting of the map as it is.
    let shown = |h: &Harness<'static, SightlineApp>| {
        h.state().overlays.lighting.lighting().expect("lit").lit().iter().collect::<Vec<_>>()
    };
    // A second light, placed in the editor, is lit at once.
    h.state_mut().document.checkpoint(&None);
    h.state_mut().document.map.add_object(MapObject::new(ObjectKind::Light { radius: 4 }, Cell::new(28, 13)));
    h.state_mut().document.touch();
    h.run();
    h.run();
    let lighting = lit(&h, fov::Algorithm::Shadowcast);
    assert_eq!(lighting.lights().len(), 3);
    assert_eq!(shown(&h), lighting.lit().iter().collect::<Vec<_>>());
    h.get_by_label(&format!("lit: {} cells (deeper where lights overlap)", lighting.lit().count()));
    h.get_by_label(&format!("#10 at 28, 13: radius 4, {} lit", lighting.lit_by(2)));
    // A wall painted in the grass room shadows part of it: only the lights near it are lit
    // again, and what the overlay shows is what a fresh lighting gives.
    h.state_mut().document.checkpoint(&None);
    sightline::core::edit::paint(
        &mut h.state_mut().document.map,
        0,
        &[Cell::new(8, 16)],
        sightline::core::model::tile::STANDARD_WALL,
    );
    h.state_mut().document.touch();
    h.run();
    h.run();
    let walled = lit(&h, fov::Algorithm::Shadowcast);
    assert_ne!(walled.lit().count(), lighting.lit().count(), "the wall changed what is lit");
    assert_eq!(shown(&h), walled.lit().iter().collect::<Vec<_>>());
    // Another algorithm, which lights this map otherwise: its lighting.
    let symmetric = lit(&h, fov::Algorithm::Symmetric);
    assert_ne!(symmetric.lit().iter().collect::<Vec<_>>(), shown(&h));
    let mut settings = h.state().overlays.lighting.settings.clone();
    settings.algorithm = fov::Algorithm::Symmetric.into();
    h.state_mut().commands.push(Command::Overlay(OverlayCommand::LightingSettings(settings)));
    h.run();
    h.run();
    assert_eq!(shown(&h), symmetric.lit().iter().collect::<Vec<_>>());
    h.get_by_label(&format!("lit: {} cells (deeper where lights overlap)", symmetric.lit().count()));
}
