//! The app driven as a person would, through egui_kittest: labels are found by their text.
#![cfg(feature = "gui")]

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sightline::app::{Command, SightlineApp};

fn harness() -> Harness<'static, SightlineApp> {
    Harness::builder().with_size(egui::vec2(1200.0, 800.0)).build_ui_state(
        |ui, app: &mut SightlineApp| {
            // What eframe's `logic` does before each `ui`.
            app.apply_commands();
            app.ui_frame(ui);
        },
        SightlineApp::new(None),
    )
}

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("maps").join(name)
}

#[test]
fn starts_on_the_built_in_dungeon() {
    let mut h = harness();
    h.run();
    h.get_by_label("63 × 31");
    assert_eq!(h.state().document.file_name(), "dungeon.ron");
    assert!(!h.state().document.dirty);
}

#[test]
fn the_file_menu_offers_open_and_save() {
    let mut h = harness();
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open…");
    h.get_by_label("Save");
    h.get_by_label("Save As…");
}

#[test]
fn opening_a_map_shows_it() {
    let mut h = harness();
    h.state_mut().commands.push(Command::Open(sample("pillars.ron")));
    h.run();
    h.get_by_label("41 × 25");
    assert_eq!(h.state().document.file_name(), "pillars.ron");
}

#[test]
fn a_corrupt_file_shows_an_error_and_keeps_the_open_map() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("corrupt.tmx");
    std::fs::write(&bad, "<map width=\"3\" height=\"2\"><layer").unwrap();
    let mut h = harness();
    h.run();
    let before = h.state().document.map.clone();
    h.state_mut().commands.push(Command::Open(bad));
    h.run();
    h.get_by_label("Cannot open the map");
    let message = h.state().error.as_ref().unwrap().message.clone();
    assert!(message.contains("corrupt.tmx") && message.contains("XML"), "{message}");
    assert_eq!(h.state().document.map, before);
    h.get_by_label("63 × 31");
    h.get_by_label("OK").click();
    h.run();
    assert!(h.state().error.is_none());
    assert!(h.query_by_label("Cannot open the map").is_none());
}

#[test]
fn save_as_writes_the_file_and_it_reloads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("copy.tmj");
    let mut h = harness();
    h.run();
    h.state_mut().commands.push(Command::SaveAs(path.clone()));
    h.run();
    assert!(h.state().error.is_none(), "{:?}", h.state().error);
    assert_eq!(h.state().document.file_name(), "copy.tmj");
    let reloaded = sightline::core::format::load(&path).unwrap().map;
    assert_eq!(reloaded, h.state().document.map);
}
