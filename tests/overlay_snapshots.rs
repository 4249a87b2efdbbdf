//! Snapshot images of each overlay on the pillars sample map, rendered headless (wgpu on Mesa's
//! software Vulkan) and compared with the committed `tests/snapshots/*.png`. Only the canvas is
//! drawn: the side panel shows timings, which differ from run to run.
//!
//! After an intended change of the drawing: `UPDATE_SNAPSHOTS=1 cargo test --test overlay_snapshots`,
//! look at the new images, commit them.
#![cfg(feature = "gui")]

use sightline::app::FileCommand;
use std::path::Path;

use egui_kittest::Harness;
use sightline::app::overlays::PathMode;
use sightline::app::{Command, OverlayCommand, OverlayKind, SightlineApp};
use sightline::core::Cell;
use sightline::core::fov::Algorithm;

/// The canvas alone, on pillars.ron, with one overlay on.
fn canvas(kind: OverlayKind) -> Harness<'static, SightlineApp> {
    canvas_on("pillars.ron", kind)
}

/// The canvas alone, on a bundled map, with one overlay on.
fn canvas_on(map: &str, kind: OverlayKind) -> Harness<'static, SightlineApp> {
    let mut app = SightlineApp::new(None);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps").join(map);
    app.commands.push(Command::File(FileCommand::Open(path)));
    app.commands.push(Command::Overlay(OverlayCommand::Show(kind, true)));
    let mut h = Harness::builder().with_size(egui::vec2(840.0, 520.0)).build_ui_state(
        |ui, app: &mut SightlineApp| {
            app.logic_frame(ui.input(|i| i.stable_dt));
            app.central_ui(ui);
        },
        app,
    );
    h.run();
    h
}

fn send(h: &mut Harness<'static, SightlineApp>, c: OverlayCommand) {
    h.state_mut().commands.push(Command::Overlay(c));
    h.run();
    h.state_mut().wait_for_overlays();
    h.run();
}

/// The dungeon by its rules: walls, tall grass (hides, walked through), water (costs 3), doors
/// closed and open.
#[test]
fn game_rules_on_the_dungeon() {
    let mut h = canvas_on("dungeon.ron", OverlayKind::Rules);
    h.state_mut().wait_for_overlays();
    h.run();
    h.snapshot("overlay_game_rules");
}

#[test]
fn pathfinding_side_by_side() {
    let mut h = canvas(OverlayKind::Pathfinding);
    send(&mut h, OverlayCommand::MoveMarker(sightline::app::overlays::Marker::Goal, Cell::new(37, 3)));
    h.snapshot("overlay_pathfinding_split");
}

#[test]
fn pathfinding_overlaid_at_step_120_with_the_cost_heatmap() {
    let mut h = canvas(OverlayKind::Pathfinding);
    let mut s = h.state().overlays.path.settings.clone();
    s.split = false;
    s.show_heat = true;
    send(&mut h, OverlayCommand::PathSettings(s));
    send(&mut h, OverlayCommand::SetStep(120));
    h.snapshot("overlay_pathfinding_step_120");
}

#[test]
fn dijkstra_flee_map() {
    let mut h = canvas(OverlayKind::Pathfinding);
    let mut s = h.state().overlays.path.settings.clone();
    s.mode = PathMode::DijkstraMap;
    s.flee = true;
    send(&mut h, OverlayCommand::PathSettings(s));
    send(&mut h, OverlayCommand::MoveMarker(sightline::app::overlays::Marker::Goal, Cell::new(24, 13)));
    h.snapshot("overlay_dijkstra_flee");
}

#[test]
fn fov_comparison_ray_against_symmetric() {
    let mut h = canvas(OverlayKind::Fov);
    let mut s = h.state().overlays.fov.settings.clone();
    s.a = Algorithm::Ray.into();
    s.b = Algorithm::Symmetric.into();
    send(&mut h, OverlayCommand::FovSettings(s));
    send(&mut h, OverlayCommand::PinFov(Cell::new(13, 10)));
    h.snapshot("overlay_fov_compare");
}

#[test]
fn symmetry_heatmap_and_partners() {
    let mut h = canvas(OverlayKind::Symmetry);
    send(&mut h, OverlayCommand::SelectSymmetryCell(Cell::new(14, 8)));
    h.snapshot("overlay_symmetry");
}

#[test]
fn cache_regions_of_an_opened_pillar() {
    let mut h = canvas(OverlayKind::Cache);
    send(&mut h, OverlayCommand::ToggleWhatIf(Cell::new(9, 9)));
    h.snapshot("overlay_cache");
}
