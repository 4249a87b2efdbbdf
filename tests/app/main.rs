//! The app driven as a person would, through egui_kittest: labels are found by their text.
//!
//! One test crate (the GUI stack is linked once), a module for each feature area, much as
//! `src/app/commands/` groups the app's commands; the helpers here are the ones several areas use.
#![cfg(feature = "gui")]

mod file;
mod history;
mod inspector;
mod layers;
mod map;
mod objects;
mod properties;
mod selection;
mod shapes;
mod terrain;
mod tiles;
mod tools;
mod view;

#[path = "../common/mod.rs"]
mod common;

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sightline::app::{Command, FileCommand, SightlineApp};

use common::cell_centre;

fn harness() -> Harness<'static, SightlineApp> {
    common::harness_sized(1200.0, 800.0)
}

/// Clears the text field labelled `label` and leaves it with Enter.
fn clear_field(h: &mut Harness<'static, SightlineApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.key_press(egui::Key::Backspace);
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
}

/// A copy of fixture `name` (with the tileset image beside it) in a temporary folder, for a
/// test that saves over it.
fn fixture_copy(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::copy(fixtures.join("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let path = dir.path().join(name);
    std::fs::copy(fixtures.join(name), &path).unwrap();
    (dir, path)
}

/// A copy of tests/fixtures/external_tileset.tmx (as tiny.tmx) beside copies of the tileset file
/// it names, tiny.tsx, and its image, so that tests may write any of them.
fn external_tileset_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, _) = fixture_copy("tiny.tsx");
    let path = dir.path().join("tiny.tmx");
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/external_tileset.tmx"), &path).unwrap();
    (dir, path)
}

/// Selects `cell` with the Select tool and moves the pointer off the canvas, so that the
/// inspector shows the selected cell for editing.
fn select_for_inspector(h: &mut Harness<'static, SightlineApp>, cell: sightline::core::Cell) {
    h.get_by_label("Select").click();
    h.run();
    drag_through(h, &[cell]);
    h.hover_at(egui::pos2(5.0, 790.0));
    h.run();
}

/// Drags the primary button across cells, as a hand would: press, move through each, release.
fn drag_through(h: &mut Harness<'static, SightlineApp>, cells: &[sightline::core::Cell]) {
    let first = cell_centre(h, cells[0]);
    h.hover_at(first);
    h.run();
    h.drag_at(first);
    h.run();
    for &c in &cells[1..] {
        let p = cell_centre(h, c);
        h.hover_at(p);
        h.run();
    }
    let last = cell_centre(h, *cells.last().unwrap());
    h.drop_at(last);
    h.run();
}

/// Right-clicks a cell (the object tool removes what stands there).
fn right_click_cell(h: &mut Harness<'static, SightlineApp>, cell: sightline::core::Cell) {
    let p = cell_centre(h, cell);
    h.hover_at(p);
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: p,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.run();
    }
}

/// Opens an ASCII map written to a temporary folder (kept alive by the returned guard).
fn open_ascii(h: &mut Harness<'static, SightlineApp>, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rooms.txt");
    std::fs::write(&path, text).unwrap();
    h.state_mut().commands.push(Command::File(FileCommand::Open(path)));
    h.run();
    dir
}

/// A press at grid point `points[0]` (in cells from the map's top-left corner), moves through
/// the rest, a release at the last, with `modifiers` held throughout.
fn drag_grid_holding(h: &mut Harness<'static, SightlineApp>, points: &[(f32, f32)], modifiers: egui::Modifiers) {
    let points: Vec<egui::Pos2> = points.iter().map(|&(x, y)| grid_point(h, x, y)).collect();
    let button =
        |pos, pressed| egui::Event::PointerButton { pos, button: egui::PointerButton::Primary, pressed, modifiers };
    h.event_modifiers(egui::Event::PointerMoved(points[0]), modifiers);
    h.run();
    h.event_modifiers(button(points[0], true), modifiers);
    h.run();
    for &p in &points[1..] {
        h.event_modifiers(egui::Event::PointerMoved(p), modifiers);
        h.run();
    }
    h.event_modifiers(button(*points.last().unwrap(), false), modifiers);
    h.run();
}

/// A grid point on screen: `x`, `y` in cells from the map's top-left corner.
fn grid_point(h: &Harness<'static, SightlineApp>, x: f32, y: f32) -> egui::Pos2 {
    let view = &h.state().view;
    view.screen_from_grid(sightline::core::Cell::new(0, 0)) + egui::vec2(x, y) * view.cell_px
}

/// A 10 × 6 floor with no objects, the object tool out and `choice` (its drop-down's label)
/// chosen; the map's tile size.
fn object_tool_on_floor(h: &mut Harness<'static, SightlineApp>, choice: &str) -> (tempfile::TempDir, [f64; 2]) {
    let dir = open_ascii(h, &"..........\n".repeat(6));
    assert!(h.state().document.map.objects.is_empty());
    h.get_by_label("Object").click();
    h.run();
    h.get_by_label("what to place").click();
    h.run();
    h.get_by_label(choice).click();
    h.run();
    (dir, h.state().document.map.tile_size.map(f64::from))
}

fn h_notice(h: &Harness<'static, SightlineApp>) -> String {
    h.state().prompts.notice.clone().unwrap_or_default()
}
