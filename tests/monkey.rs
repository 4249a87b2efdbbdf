//! A monkey at the whole window (egui_kittest): random clicks on whatever buttons, checkboxes,
//! menu items and combo boxes the window shows, random drags on the canvas and random keys,
//! with overlays and play among them. Whatever it does, nothing panics, and undo takes the map
//! back to where it started. File dialogs are left alone (they would wait for a person).
#![cfg(feature = "gui")]

use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};
use sightline::app::Command;
use sightline::app::{FileCommand, HistoryCommand};
use sightline::core::rng::Rng;

mod common;
use common::{harness_sized, sample};

/// What the monkey may click: no file dialog ("…"), nothing that quits or replaces the map.
fn clickable(role: Role, label: &str) -> bool {
    matches!(role, Role::Button | Role::CheckBox | Role::RadioButton | Role::MenuItem | Role::ComboBox | Role::Tab)
        && !label.contains('…')
        && !["Quit", "New map", "Open recent", "Recover", "Discard", "Save", "Save As", "Don't save"]
            .iter()
            .any(|no| label.starts_with(no))
}

type App = egui_kittest::Harness<'static, sightline::app::SightlineApp>;

/// A drag and a click as a hand makes them: move there, press, (move,) release. While the button
/// is down on a window or a menu egui repaints every frame (it may be the start of a drag), so
/// the press runs a few frames rather than until the window settles.
fn drag_between(h: &mut App, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run_steps(2);
    for k in 1..=4 {
        h.hover_at(from + (to - from) * (k as f32 / 4.0));
        h.run_steps(2);
    }
    h.drop_at(to);
    h.run();
}

fn click_at(h: &mut App, p: egui::Pos2) {
    h.hover_at(p);
    h.run();
    h.drag_at(p);
    h.run_steps(2);
    h.drop_at(p);
    h.run();
}

/// The nodes the monkey may click, by label, with where they are.
fn clickable_nodes(h: &App) -> Vec<(String, egui::Rect)> {
    h.query_all_by(|n| clickable(n.role(), &n.label().unwrap_or_default()))
        .map(|n| (n.accesskit_node().label().unwrap_or_default(), n.rect()))
        .collect()
}

fn clickable_labels(h: &App) -> Vec<String> {
    clickable_nodes(h).into_iter().map(|(label, _)| label).collect()
}

/// 150 steps on each map (the samples, two of extreme shapes, and a real Tiled map when
/// `../shared` is here); `SIGHTLINE_MONKEY=SEEDS,STEPS` runs longer (a soak run:
/// each seed on each map).
#[test]
fn a_monkey_at_the_window_breaks_nothing() {
    let (seeds, steps) = std::env::var("SIGHTLINE_MONKEY")
        .ok()
        .and_then(|v| v.split_once(',').and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<usize>().ok()?))))
        .unwrap_or((1, 150));
    // A soak run says each step as it goes, for the steps that led to a failure.
    let soak = std::env::var("SIGHTLINE_MONKEY").is_ok();
    // The bundled maps, and a real Tiled map with its tileset images when ../shared is here.
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/tiled/orthogonal-outside.tmx");
    let mut maps = vec![sample("dungeon.ron"), sample("outdoor.tmx"), sample("pillars.ron")];
    // Maps of extreme shapes, where the canvas's, the minimap's and the overlays' arithmetic
    // meets its edges: one cell, and a column one cell wide.
    let extreme = tempfile::tempdir().unwrap();
    for (name, text) in [("one.txt", "@\n".to_owned()), ("column.txt", format!("@\n{}+\n", ".\n".repeat(298)))] {
        std::fs::write(extreme.path().join(name), text).unwrap();
        maps.push(extreme.path().join(name));
    }
    if corpus.is_file() {
        maps.push(corpus);
    } else {
        eprintln!("the corpus map is left out: ../shared/corpus is absent");
    }
    let runs: Vec<(u64, std::path::PathBuf)> =
        (0..seeds).flat_map(|k| maps.iter().enumerate().map(move |(i, m)| (k * 8 + i as u64 + 1, m.clone()))).collect();
    for (seed, path) in runs {
        let map = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut h = harness_sized(1400.0, 900.0);
        h.state_mut().commands.push(Command::File(FileCommand::Open(path.clone())));
        h.run();
        let start = h.state().document.map.clone();
        let mut rng = Rng::new(seed);
        let mut done = Vec::new();
        for step in 0..steps {
            match rng.below(12) {
                10 | 11 => {
                    // A menu of the menu bar, and one of its items (those that were not there
                    // before it opened).
                    let menu = ["File", "Edit", "Layer", "View", "Overlays", "Play"][rng.below(6) as usize];
                    let before = clickable_labels(&h);
                    // The menu bar's (a layer may have the same name): the topmost.
                    let bar = h
                        .get_all_by_label(menu)
                        .map(|n| n.rect())
                        .min_by(|a, b| a.min.y.total_cmp(&b.min.y))
                        .expect("the menu bar");
                    click_at(&mut h, bar.center());
                    let items: Vec<(String, egui::Rect)> =
                        clickable_nodes(&h).into_iter().filter(|(l, _)| !before.contains(l)).collect();
                    if items.is_empty() {
                        h.key_press(egui::Key::Escape);
                        h.run();
                        continue;
                    }
                    let (label, rect) = items[rng.below(items.len() as u32) as usize].clone();
                    done.push(format!("{step}: {menu} › {label:?}"));
                    click_at(&mut h, rect.center());
                    h.key_press(egui::Key::Escape);
                    h.run();
                }
                0..=5 => {
                    let nodes = clickable_nodes(&h);
                    if nodes.is_empty() {
                        continue;
                    }
                    let (label, rect) = nodes[rng.below(nodes.len() as u32) as usize].clone();
                    done.push(format!("{step}: click {label:?}"));
                    click_at(&mut h, rect.center());
                }
                6 | 7 => {
                    let canvas = h.state().view.canvas;
                    let at = |rng: &mut Rng| {
                        canvas.min
                            + egui::vec2(
                                rng.below(canvas.width().max(1.0) as u32) as f32,
                                rng.below(canvas.height().max(1.0) as u32) as f32,
                            )
                    };
                    let (a, b) = (at(&mut rng), at(&mut rng));
                    done.push(format!("{step}: drag {a:?} to {b:?}"));
                    drag_between(&mut h, a, b);
                }
                _ => {
                    let keys = [
                        egui::Key::B,
                        egui::Key::E,
                        egui::Key::R,
                        egui::Key::L,
                        egui::Key::F,
                        egui::Key::S,
                        egui::Key::W,
                        egui::Key::O,
                        egui::Key::P,
                        egui::Key::X,
                        egui::Key::Z,
                        egui::Key::G,
                        egui::Key::Escape,
                        egui::Key::Delete,
                        egui::Key::F5,
                        egui::Key::H,
                        egui::Key::J,
                        egui::Key::Period,
                    ];
                    let key = keys[rng.below(keys.len() as u32) as usize];
                    if rng.chance(0.3) {
                        let key = [egui::Key::Z, egui::Key::Y, egui::Key::C, egui::Key::V, egui::Key::A, egui::Key::I]
                            [rng.below(6) as usize];
                        done.push(format!("{step}: Ctrl+{key:?}"));
                        h.key_press_modifiers(egui::Modifiers::COMMAND, key);
                    } else {
                        done.push(format!("{step}: {key:?}"));
                        h.key_press(key);
                    }
                    h.run();
                }
            }
            if soak && let Some(last) = done.last() {
                eprintln!("{map} seed {seed} {last}");
            }
            // A dialog the monkey opened stays open until it clicks its way out. No click of its
            // opens an error dialog (it opens no file): one here is a failure, shown with the
            // steps that led to it.
            if let Some(error) = &h.state().prompts.error {
                panic!("{map} seed {seed}: {}: {}\nsteps: {}", error.title, error.message, done.join(", "));
            }
            // Background work done, so that the next step sees the same window on every run.
            h.state_mut().wait_for_overlays();
            h.run();
        }
        h.state_mut().wait_for_overlays();
        h.run();
        // Undo all the way back: the map it started from.
        for _ in 0..h.state().document.undo.len() {
            h.state_mut().commands.push(Command::History(HistoryCommand::Undo));
        }
        h.run();
        if h.state().document.forgotten() == 0 {
            assert!(h.state().document.map == start, "{map}: undo goes back to the start after\n{}", done.join("\n"));
        }
    }
}
