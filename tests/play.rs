//! Play mode driven as a person would (egui_kittest): F5 or the Play button, keys, the turn counter.
#![cfg(feature = "gui")]

mod common;

use common::{click_menu_item, harness_sized, sample};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sightline::app::FileCommand;
use sightline::app::play::PlayCommand;
use sightline::app::{Command, SightlineApp};
use sightline::core::Cell;
use sightline::core::sim::{Knowledge, Preset};

fn harness() -> Harness<'static, SightlineApp> {
    let mut h = harness_sized(1500.0, 900.0);
    h.state_mut().commands.push(Command::File(FileCommand::Open(sample("pillars.ron"))));
    h.run();
    h
}

#[test]
fn the_play_button_starts_play_mode_and_keys_move_the_player() {
    let mut h = harness();
    h.get_by_label("Play (F5)").click();
    h.run();
    assert!(h.state().play.active && h.state().play.pane_open);
    h.get_by_label("turn 0");
    let start = h.state().play.world.as_ref().unwrap().player().cell;
    assert_eq!(start, Cell::new(20, 12), "the map's player start");
    // East is a pillar: bumping into it takes no turn.
    h.key_press(egui::Key::ArrowRight);
    h.run();
    h.get_by_label("turn 0");
    h.key_press(egui::Key::ArrowDown);
    h.run();
    h.get_by_label("turn 1");
    assert_eq!(h.state().play.world.as_ref().unwrap().player().cell, Cell::new(20, 13));
    // Vi-keys, a digit and `.` (wait) are turns too; the tool keys do nothing to the editor.
    let tool = h.state().editor.tool;
    for key in [egui::Key::L, egui::Key::J, egui::Key::Num7, egui::Key::Period] {
        h.key_press(key);
        h.run();
    }
    h.get_by_label("turn 5");
    assert_eq!(
        h.state().play.world.as_ref().unwrap().player().cell,
        Cell::new(20, 13),
        "east, south, north-west, wait"
    );
    assert_eq!(h.state().editor.tool, tool, "L and J went to the game, not to the tools");
    // F5 gives the keyboard back to the editor.
    h.key_press(egui::Key::F5);
    h.run();
    assert!(!h.state().play.active);
    h.key_press(egui::Key::ArrowDown);
    h.run();
    h.get_by_label("turn 5");
}

#[test]
fn edits_reach_the_running_game_and_restart_starts_over() {
    let mut h = harness();
    h.state_mut().commands.push(Command::Play(PlayCommand::SetActive(true)));
    h.run();
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    h.get_by_label("turn 1");
    // A wall painted next to the player shows in the game at once (live edits).
    let wall = Cell::new(18, 12);
    h.state_mut().document.checkpoint(&None);
    sightline::core::edit::paint(
        &mut h.state_mut().document.map,
        0,
        &[wall],
        sightline::core::model::tile::STANDARD_WALL,
    );
    h.state_mut().document.touch();
    h.run();
    let world = h.state().play.world.as_ref().unwrap();
    assert!(world.map.rules_at(wall).opaque);
    assert_eq!(world.knowledge(wall), Knowledge::Visible);
    h.get_by_label("Restart").click();
    h.run();
    h.get_by_label("turn 0");
}

#[test]
fn presets_switch_the_game_from_the_play_menu() {
    let mut h = harness();
    h.state_mut().commands.push(Command::Play(PlayCommand::ShowPane(true)));
    h.run();
    click_menu_item(&mut h, "Play", "Caves of Zircon");
    let world = h.state().play.world.as_ref().unwrap();
    assert_eq!(h.state().play.preset, Preset::CavesOfZircon);
    assert_eq!(world.config, Preset::CavesOfZircon.config());
    h.get_by_label_contains("ray FOV");
}

#[test]
fn the_player_picks_items_up_and_the_lights_checkbox_turns_seeing_by_light_off() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hall.txt");
    // A lit hall at the west end of a corridor, the player at its east end with the Grass
    // preset's vision of 8, a potion two steps west.
    std::fs::write(
        &path,
        "legend:\n! = light radius=4\np = item name=potion\n---\n#######\n#.....#############\n#..!..'.........p.@#\n\
         #.....#############\n#######\n",
    )
    .unwrap();
    let mut h = harness_sized(1500.0, 900.0);
    h.state_mut().commands.push(Command::File(FileCommand::Open(path)));
    h.run();
    h.get_by_label("Play (F5)").click();
    h.run();
    h.get_by_label("items 0");
    let hall = Cell::new(2, 2);
    let world = |h: &Harness<'static, SightlineApp>| h.state().play.world.as_ref().unwrap().knowledge(hall);
    assert_eq!(world(&h), Knowledge::Visible, "the lit hall, 16 cells away, is seen by its light");
    h.get_by_label_contains("you see the potion at 16, 2");
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    h.get_by_label("items 1");
    h.get_by_label_contains("you pick up the potion");
    // Lights off: the hall, out of the player's own view, is only remembered.
    h.get_by_label("Lights").click();
    h.run();
    assert!(!h.state().play.world.as_ref().unwrap().config.lights);
    assert_eq!(world(&h), Knowledge::Remembered);
    // And it stays off across a restart.
    h.get_by_label("Restart").click();
    h.run();
    assert!(!h.state().play.world.as_ref().unwrap().config.lights);
    assert_eq!(world(&h), Knowledge::Unknown);
}

/// A player start with a `light` gives the player a torch: the bar says so, the hover on the
/// player's cell too, and its light goes where the player goes.
#[test]
fn the_player_carries_the_player_starts_torch() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("torch.txt");
    std::fs::write(&path, "legend:\n@ = player light=2\n---\n#######\n#@....#\n#######\n").unwrap();
    let mut h = harness_sized(1500.0, 900.0);
    h.state_mut().commands.push(Command::File(FileCommand::Open(path)));
    h.run();
    h.get_by_label("Play (F5)").click();
    h.run();
    h.get_by_label("torch 2");
    let lights = |h: &Harness<'static, SightlineApp>| {
        h.state().play.world.as_ref().unwrap().lighting().lights().iter().map(|l| l.cell).collect::<Vec<_>>()
    };
    assert_eq!(lights(&h), [Cell::new(1, 1)]);
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert_eq!(lights(&h), [Cell::new(2, 1)]);
    // The pointer over the player, in the play pane.
    let at = h.state().play.view.cell_rect(Cell::new(2, 1)).center();
    h.hover_at(at);
    h.run();
    assert!(h.query_all_by_label_contains("1: floor, carrying a light (radius 2)").next().is_some());
}

/// The Watchers box rings the monsters that see the player and counts those the player does not
/// see: the goblin down the side corridor sees the player under Grass's shadowcasting, unseen.
#[test]
fn watchers_counts_the_monsters_that_see_the_player_unseen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corridor.txt");
    let rows =
        "legend:\ng = monster name=goblin vision=10\n---\n##########\n#...@....#\n#####.####\n#####.####\n#####g####\n";
    std::fs::write(&path, rows).unwrap();
    let mut h = harness_sized(1500.0, 900.0);
    h.state_mut().commands.push(Command::File(FileCommand::Open(path)));
    h.run();
    h.get_by_label("Play (F5)").click();
    h.run();
    assert!(h.query_by_label("seen by 1 (1 unseen)").is_none(), "off at first");
    h.get_by_label("Watchers").click();
    h.run();
    h.get_by_label("seen by 1 (1 unseen)");
    assert!(h.state().play.watchers);
    assert_eq!(h.state().play.world.as_ref().unwrap().watchers(), [(1, false)]);
}
