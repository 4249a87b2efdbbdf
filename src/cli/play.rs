//! `sightline play`: the game the preview pane plays, headless. A map, a preset and a line of
//! keys (the pane's vi-keys) go in; what the player then knows comes out, drawn as ASCII (the map
//! as believed and what is in view) or as JSON, with the message log. For CI and scripting: the
//! same core, the same seed, the same game.

use anyhow::Context as _;

use super::FovFormat;
use crate::core::sim::{Action, Knowledge, MemoryModel, Preset, World};
use crate::core::{Cell, Map};

/// Turns `x` (autoexplore) may take at most in one go, and a whole run at most: a game whose
/// walking never ends (a monster in view and out of it, say) still stops.
pub(crate) const DEFAULT_TURN_LIMIT: u64 = 10_000;

/// What one key does: the play pane's keys.
fn action_of(key: char) -> Option<Action> {
    Some(match key {
        'h' | '4' => Action::Move(-1, 0),
        'l' | '6' => Action::Move(1, 0),
        'k' | '8' => Action::Move(0, -1),
        'j' | '2' => Action::Move(0, 1),
        'y' | '7' => Action::Move(-1, -1),
        'u' | '9' => Action::Move(1, -1),
        'b' | '1' => Action::Move(-1, 1),
        'n' | '3' => Action::Move(1, 1),
        '.' | '5' => Action::Wait,
        'o' => Action::Open,
        'c' => Action::Close,
        'x' => Action::Explore,
        _ => return None,
    })
}

/// The actions `keys` stand for, in order: the pane's keys ([`action_of`]), and `>X,Y` for a
/// click on a known cell (travel there through what the player knows); spaces are ignored.
fn actions_of(keys: &str) -> anyhow::Result<Vec<Action>> {
    let mut actions = Vec::new();
    let mut chars = keys.chars().peekable();
    while let Some(k) = chars.next() {
        if k.is_whitespace() {
            continue;
        }
        if k == '>' {
            let mut target = String::new();
            while let Some(&c) = chars.peek().filter(|c| c.is_ascii_digit() || **c == ',' || **c == '-') {
                target.push(c);
                chars.next();
            }
            let cell: Cell =
                target.parse().map_err(|e| anyhow::anyhow!("\">{target}\" in --keys: {e} (travel is >X,Y)"))?;
            actions.push(Action::Travel(cell));
            continue;
        }
        actions.push(action_of(k).with_context(|| {
            format!("unknown key {k:?} in --keys: use h j k l y u b n (or 1-9), . o c x, or >X,Y to travel")
        })?);
    }
    Ok(actions)
}

/// A preset by its name as the Play menu shows it, in any case, spaces or not ("caves of
/// zircon", "cavesofzircon").
pub(crate) fn preset_named(name: &str) -> anyhow::Result<Preset> {
    let squash = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
    Preset::ALL.into_iter().find(|p| squash(p.name()) == squash(name)).with_context(|| {
        let names: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
        format!("unknown preset {name:?}: use one of {}", names.join(", "))
    })
}

/// Plays `keys` on `map` with `preset` (and `seed`), at most `turn_limit` turns, and reports
/// what the player knows then. Keys: `h j k l y u b n` (or the numpad's digits) step or
/// attack, `.` waits, `o` opens and `c` closes a door next to the player, `x` explores until
/// exploring stops (everything known, or a monster in view), `>X,Y` travels to a known cell
/// as a click in the pane does; spaces are ignored.
pub(crate) fn play_report(
    map: &Map,
    preset: Preset,
    seed: u64,
    keys: &str,
    turn_limit: u64,
    format: FovFormat,
) -> anyhow::Result<String> {
    let actions = actions_of(keys)?;
    let mut config = preset.config();
    config.seed = seed;
    let mut world = World::new(map, config).context("the map has no player start and no walkable cell to start on")?;
    for action in actions {
        if world.is_over() || world.turn >= turn_limit {
            break;
        }
        world.act(action);
        // A walk (autoexplore) goes on turn after turn, as the pane plays it (and stops where a
        // step takes no turn).
        while world.walking() && !world.is_over() && world.turn < turn_limit {
            if !world.act(Action::Continue) {
                break;
            }
        }
    }
    Ok(match format {
        FovFormat::Ascii => ascii_report(&world, preset),
        FovFormat::Json => format!("{}\n", json_report(&world, preset)),
    })
}

/// The map as the player believes it: each known cell as its believed tile's glyph, the player
/// `@`, monsters in view by their letter, items known (seen, or remembered where seen) `*`;
/// blank where nothing is known.
fn believed_rows(world: &World) -> Vec<String> {
    let map = &world.map;
    // Found once, not per cell (a large map has hundreds of each).
    let monsters: std::collections::HashMap<Cell, char> = world.visible_monsters().map(|m| (m.cell, m.glyph)).collect();
    let items: std::collections::HashSet<Cell> = world.known_items_of(0).map(|(item, _)| item.cell).collect();
    (0..map.height() as i32)
        .map(|y| {
            let row: String = (0..map.width() as i32)
                .map(|x| {
                    let c = Cell::new(x, y);
                    if world.player().cell == c {
                        '@'
                    } else if let Some(&glyph) = monsters.get(&c) {
                        glyph
                    } else if items.contains(&c) {
                        crate::core::sim::Item::GLYPH
                    } else {
                        world.believed_tile(c).map_or(' ', |t| map.tiles[usize::from(t)].glyph.ch)
                    }
                })
                .collect();
            row.trim_end().to_owned()
        })
        .collect()
}

/// What the player knows of each cell: `v` in view, `r` remembered, blank unknown.
fn knowledge_rows(world: &World) -> Vec<String> {
    let map = &world.map;
    (0..map.height() as i32)
        .map(|y| {
            let row: String = (0..map.width() as i32)
                .map(|x| match world.knowledge(Cell::new(x, y)) {
                    Knowledge::Visible => 'v',
                    Knowledge::Remembered => 'r',
                    Knowledge::Unknown => ' ',
                })
                .collect();
            row.trim_end().to_owned()
        })
        .collect()
}

fn status(world: &World, preset: Preset) -> String {
    let p = world.player();
    let state = if p.alive() { "" } else { " · dead" };
    let memory = match world.config.memory {
        MemoryModel::LastSeen => "last seen",
        MemoryModel::Revealed => "revealed",
        MemoryModel::None => "none",
    };
    format!(
        "turn {} · at {}, {} · hp {}/{}{state} · {} carried · {}: {} FOV, memory {memory}",
        world.turn,
        p.cell.x,
        p.cell.y,
        p.hp,
        p.max_hp,
        world.carried(),
        preset.name(),
        world.config.fov.name(),
    )
}

fn ascii_report(world: &World, preset: Preset) -> String {
    let mut out = String::from("as believed:\n");
    for row in without_blank_bottom(believed_rows(world)) {
        out += &row;
        out.push('\n');
    }
    out += "known (v in view, r remembered):\n";
    for row in without_blank_bottom(knowledge_rows(world)) {
        out += &row;
        out.push('\n');
    }
    out += &status(world, preset);
    out.push('\n');
    // The message log, as the pane shows it.
    for message in world.messages(usize::MAX) {
        out += &format!("{:>4}  {message}\n", message.turn);
    }
    out
}

/// `rows` without the blank rows at the bottom (the top ones stay: rows are the map's y).
fn without_blank_bottom(mut rows: Vec<String>) -> Vec<String> {
    while rows.last().is_some_and(String::is_empty) {
        rows.pop();
    }
    rows
}

fn json_report(world: &World, preset: Preset) -> serde_json::Value {
    let map = &world.map;
    let cells = |k: Knowledge| -> Vec<[i32; 2]> {
        (0..map.len()).map(|i| map.cell_at(i)).filter(|&c| world.knowledge(c) == k).map(|c| [c.x, c.y]).collect()
    };
    let p = world.player();
    let monsters: Vec<serde_json::Value> = world
        .visible_monsters()
        .map(|m| serde_json::json!({"name": m.name, "glyph": m.glyph.to_string(), "cell": [m.cell.x, m.cell.y], "hp": m.hp}))
        .collect();
    // The monsters that see the player, those it does not see too: what the pane's Watchers shows.
    let watchers: Vec<serde_json::Value> = world
        .watchers()
        .into_iter()
        .map(|(m, seen)| {
            let a = &world.actors[m];
            serde_json::json!({"name": a.name, "cell": [a.cell.x, a.cell.y], "seen": seen})
        })
        .collect();
    let log: Vec<serde_json::Value> = world
        .messages(usize::MAX)
        .into_iter()
        .map(|m| serde_json::json!({"turn": m.turn, "message": m.text, "times": m.times}))
        .collect();
    serde_json::json!({
        "preset": preset.name(),
        "turn": world.turn,
        "player": {"cell": [p.cell.x, p.cell.y], "hp": p.hp, "max_hp": p.max_hp, "alive": p.alive()},
        "carried": world.carried(),
        "believed": believed_rows(world),
        "visible": cells(Knowledge::Visible),
        "remembered": cells(Knowledge::Remembered),
        "monsters_in_view": monsters,
        "watchers": watchers,
        "log": log,
    })
}
