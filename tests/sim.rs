//! The game core as scenarios: an ASCII map, a list of actions, the expected knowledge drawn as
//! ASCII (`v` visible, `r` remembered, blank unknown) or the believed map (glyphs as the player
//! believes them, blank unknown).

use sightline::core::format::ascii;
use sightline::core::fov::{Algorithm, OpacityGrid};
use sightline::core::sim::{Action, Event, Knowledge, Lighting, MemoryModel, Preset, SimConfig, TravelPolicy, World};
use sightline::core::{Cell, MapObject, ObjectKind};

#[allow(dead_code)]
#[path = "common/mutation.rs"]
mod mutation;

fn world(rows: &[&str], config: SimConfig) -> World {
    let map = ascii::parse(&rows.join("\n")).expect("scenario map");
    World::new(&map, config).expect("a player start")
}

fn config(fov: Algorithm, radius: Option<u32>, memory: MemoryModel) -> SimConfig {
    SimConfig { fov, radius, memory, smooth: false, seed: 7, lights: true }
}

/// `v` visible, `r` remembered, blank unknown.
fn knowledge(w: &World) -> Vec<String> {
    knowledge_of(w, 0)
}

/// The map as the player believes it: each known cell's believed tile glyph, `@` for the player,
/// visible monsters by their letter; blank unknown.
fn believed(w: &World) -> Vec<String> {
    (0..w.map.height() as i32)
        .map(|y| {
            (0..w.map.width() as i32)
                .map(|x| {
                    let c = Cell::new(x, y);
                    if w.player().cell == c {
                        return '@';
                    }
                    if let Some(m) = w.visible_monsters().find(|m| m.cell == c) {
                        return m.glyph;
                    }
                    w.believed_tile(c).map_or(' ', |t| w.map.tiles[usize::from(t)].glyph.ch)
                })
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect()
}

fn run(w: &mut World, actions: &[Action]) {
    for &a in actions {
        w.act(a);
    }
}

fn count(w: &World, pred: impl Fn(&Event) -> bool) -> usize {
    w.log.iter().filter(|(_, e)| pred(e)).count()
}

#[test]
fn a_room_is_seen_then_remembered_behind_a_closed_door() {
    let mut w = world(
        &["###########", "#@....#...#", "#.....+...#", "#.....#...#", "###########"],
        config(Algorithm::Shadowcast, None, MemoryModel::LastSeen),
    );
    // The closed door hides the east room; nothing is known of it.
    assert_eq!(knowledge(&w), ["vvvvvvv", "vvvvvvv", "vvvvvvv", "vvvvvvv", "vvvvvvv"]);
    w.act(Action::Travel(Cell::new(5, 2)));
    while w.walking() {
        w.act(Action::Continue);
    }
    assert_eq!(w.player().cell, Cell::new(5, 2));
    w.act(Action::Open);
    // Through the open door: the east room, but for the corners the door frame hides.
    assert_eq!(knowledge(&w), ["vvvvvvv  vv", "vvvvvvvvvvv", "vvvvvvvvvvv", "vvvvvvvvvvv", "vvvvvvv  vv"]);
    w.act(Action::Close);
    assert!(w.log.iter().any(|(_, e)| *e == Event::DoorClosed { at: Cell::new(6, 2) }));
    // Closed again: the east room is remembered, as it was seen.
    assert_eq!(knowledge(&w), ["vvvvvvv  rr", "vvvvvvvrrrr", "vvvvvvvrrrr", "vvvvvvvrrrr", "vvvvvvv  rr"]);
    assert_eq!(believed(&w), ["#######  ##", "#.....#...#", "#....@+...#", "#.....#...#", "#######  ##"]);
}

/// A door opened out of turn (a scenario's or the editor's hand) is seen through at once, not
/// at the next turn, as an edit is; the room beyond is then remembered as seen.
#[test]
fn a_door_opened_out_of_turn_is_seen_through_at_once() {
    let mut w = world(
        &["###########", "#@....#...#", "#.....+...#", "#.....#...#", "###########"],
        config(Algorithm::Shadowcast, None, MemoryModel::LastSeen),
    );
    assert_eq!(knowledge(&w), ["vvvvvvv", "vvvvvvv", "vvvvvvv", "vvvvvvv", "vvvvvvv"]);
    assert!(w.toggle_door(Cell::new(6, 2)));
    assert_eq!(w.turn, 0, "no turn passed");
    // From the corner, through the door: the lower part of the east room.
    assert_eq!(knowledge(&w), ["vvvvvvv", "vvvvvvv", "vvvvvvvvvvv", "vvvvvvvvvvv", "vvvvvvv   v"]);
    assert!(w.toggle_door(Cell::new(6, 2)));
    assert_eq!(knowledge(&w), ["vvvvvvv", "vvvvvvv", "vvvvvvvrrrr", "vvvvvvvrrrr", "vvvvvvv   r"]);
}

/// The memory models on one walk: the player sees an open door, walks out of its sight, and the
/// door is closed behind their back.
fn stale_door(memory: MemoryModel) -> World {
    let mut w = world(
        &[
            "#######", //
            "#@...'#", "#.#####", "#.#", "#.#", "###",
        ],
        config(Algorithm::Shadowcast, None, memory),
    );
    run(&mut w, &[Action::Move(0, 1), Action::Move(0, 1), Action::Move(0, 1)]);
    assert_eq!(w.player().cell, Cell::new(1, 4));
    assert_eq!(
        w.knowledge(Cell::new(5, 1)),
        if memory == MemoryModel::None { Knowledge::Unknown } else { Knowledge::Remembered }
    );
    assert!(w.toggle_door(Cell::new(5, 1)), "the door closes out of sight");
    w
}

#[test]
fn last_seen_memory_shows_the_door_as_it_was_seen() {
    let w = stale_door(MemoryModel::LastSeen);
    // The door out of sight still shows open: that is how it was last seen.
    assert_eq!(believed(&w), ["#######", "#....'#", "#.#####", "#.#", "#@#", "###"]);
}

#[test]
fn on_a_layered_map_a_remembered_door_is_drawn_as_seen_over_the_ground_as_it_is() {
    // The stale door's map in two layers, as Tiled maps are drawn: ground under everything,
    // walls and the door on a layer above.
    let rows = ["#######", "#@...'#", "#.#####", "#.#", "#.#", "###"];
    let mut map = ascii::parse(&rows.join("\n")).expect("scenario map");
    let floor = map.tile_named("floor").expect("a floor tile");
    let mut top = map.layers[0].clone();
    top.name = "walls".into();
    for t in &mut top.cells {
        if *t == floor {
            *t = 0;
        }
    }
    map.layers[0].cells.fill(floor);
    map.layers.push(top);
    let mut w = World::new(&map, config(Algorithm::Shadowcast, None, MemoryModel::LastSeen)).expect("a player start");
    let door = Cell::new(5, 1);
    let open = w.map.top_tile(door).expect("the door").1;
    assert_eq!(w.believed_layers_of(0, door), [(0, floor), (1, open)], "seen: the ground and the open door");
    run(&mut w, &[Action::Move(0, 1), Action::Move(0, 1), Action::Move(0, 1)]);
    assert!(w.toggle_door(door), "the door closes out of sight");
    let closed = w.map.top_tile(door).expect("the door").1;
    assert_ne!(open, closed);
    // Remembered: still the ground and the door as it was seen, open.
    assert_eq!(w.believed_layers_of(0, door), [(0, floor), (1, open)]);
    // A floor cell in view is the ground alone; a cell never seen is nothing.
    assert_eq!(w.believed_layers_of(0, Cell::new(1, 3)), [(0, floor)]);
    assert_eq!(w.knowledge(Cell::new(6, 4)), Knowledge::Unknown);
    assert_eq!(w.believed_layers_of(0, Cell::new(6, 4)), []);
}

#[test]
fn the_revealed_flag_shows_the_door_as_it_is_now() {
    let w = stale_door(MemoryModel::Revealed);
    // The flag knows the cell, and shows what is there now: the closed door leaks through.
    assert_eq!(believed(&w), ["#######", "#....+#", "#.#####", "#.#", "#@#", "###"]);
}

#[test]
fn without_memory_only_the_view_shows() {
    let w = stale_door(MemoryModel::None);
    // Up the corridor, the view reaches one cell past its corner.
    assert_eq!(believed(&w), ["###", "#..", "#.#", "#.#", "#@#", "###"]);
}

/// Two corridors to the goal `G` (a floor cell): the upper one shorter, a monster standing in it
/// where the player sees it only from the upper corridor's mouth.
const TWO_WAYS: [&str; 8] = [
    "#############",
    "#.....m.....#",
    "#.#########.#",
    "#@#########.#",
    "#.#########.#",
    "#.#########.#",
    "#...........#",
    "#############",
];
const GOAL: Cell = Cell::new(11, 3);

fn two_ways(policy: TravelPolicy) -> (World, Vec<Cell>) {
    let mut w = world(&TWO_WAYS, config(Algorithm::Shadowcast, None, MemoryModel::LastSeen));
    w.frozen_monsters = true;
    w.travel_policy = policy;
    // The player has explored the map before (monsters are never remembered).
    w.remember_everything();
    let mut cells = vec![w.player().cell];
    w.act(Action::Travel(GOAL));
    cells.push(w.player().cell);
    for _ in 0..60 {
        if !w.walking() {
            break;
        }
        w.act(Action::Continue);
        cells.push(w.player().cell);
    }
    (w, cells)
}

#[test]
fn the_scenario_flickers_the_monster_in_and_out_of_view() {
    // From the upper corridor's mouth the monster is in view; one step back it is not.
    let mut w = world(&TWO_WAYS, config(Algorithm::Shadowcast, None, MemoryModel::LastSeen));
    w.frozen_monsters = true;
    w.act(Action::Move(0, -1));
    assert_eq!(w.visible_monsters().count(), 0, "from (1, 2) the monster is hidden");
    w.act(Action::Move(0, -1));
    assert_eq!(w.visible_monsters().count(), 1, "from (1, 1) it is in view");
}

#[test]
fn replanning_every_turn_oscillates_when_a_monster_flickers() {
    let (w, cells) = two_ways(TravelPolicy::Replan);
    assert!(!w.log.iter().any(|(_, e)| *e == Event::Arrived), "the naive walk never arrives");
    // It ends up stepping back and forth between two cells.
    let tail = &cells[cells.len() - 6..];
    assert!(tail[0] == tail[2] && tail[1] == tail[3] && tail[0] != tail[1], "back and forth: {tail:?}");
}

#[test]
fn a_committed_route_does_not_oscillate() {
    let (w, cells) = two_ways(TravelPolicy::Commit);
    assert_eq!(w.player().cell, GOAL);
    assert!(w.log.iter().any(|(_, e)| *e == Event::Arrived));
    // It walks the short way, meets the monster in the corridor, re-plans once, and goes round.
    assert_eq!(count(&w, |e| matches!(e, Event::TravelReplanned { .. })), 1);
    // No cell is left and re-entered on consecutive turns (no a → b → a).
    for win in cells.windows(3) {
        assert!(!(win[0] == win[2] && win[0] != win[1]) || win[1] == Cell::new(5, 1), "oscillation at {win:?}");
    }
}

#[test]
fn autoexplore_walks_until_everything_reachable_is_known() {
    let mut w = world(
        &[
            "##########",
            "#@...#...#",
            "#....+...#",
            "#....#...#",
            "######+###",
            "     #...#",
            "     #...#",
            "     #####",
        ],
        config(Algorithm::Shadowcast, Some(6), MemoryModel::LastSeen),
    );
    w.act(Action::Explore);
    let mut turns = 0;
    while w.walking() && turns < 200 {
        w.act(Action::Continue);
        turns += 1;
    }
    assert!(w.log.iter().any(|(_, e)| *e == Event::ExploreDone), "{:?}", w.log.last());
    // Doors were opened on the way, and every cell of the three rooms is known.
    assert_eq!(count(&w, |e| matches!(e, Event::DoorOpened { .. })), 2);
    for y in 0..8 {
        for x in 0..10 {
            let c = Cell::new(x, y);
            if w.map.rules_at(c).walkable {
                assert_ne!(w.knowledge(c), Knowledge::Unknown, "{c:?} explored");
            }
        }
    }
}

#[test]
fn autoexplore_stops_when_a_monster_comes_into_view() {
    let mut w = world(
        &[
            "##########", //
            "#@.......#",
            "#####+####",
            "    #g#",
            "    ###",
        ],
        config(Algorithm::Shadowcast, None, MemoryModel::LastSeen),
    );
    w.frozen_monsters = true;
    w.act(Action::Explore);
    while w.walking() {
        w.act(Action::Continue);
    }
    // Behind the door: the explorer opens it, sees the goblin and stops.
    assert!(w.log.iter().any(|(_, e)| *e == Event::Spotted { monster: 1 }));
    assert!(w.log.iter().any(|(_, e)| *e == Event::ExploreInterrupted { monster: 1 }));
    assert_eq!(w.visible_monsters().count(), 1);
}

#[test]
fn a_monster_that_sees_the_player_chases_and_attacks() {
    let mut w = world(
        &[
            "###########", //
            "#@.......g#",
            "###########",
        ],
        config(Algorithm::Shadowcast, None, MemoryModel::LastSeen),
    );
    for _ in 0..10 {
        w.act(Action::Wait);
    }
    assert_eq!(count(&w, |e| *e == Event::Noticed { monster: 1 }), 1);
    assert_eq!(w.actors[1].cell, Cell::new(2, 1), "it came next to the player");
    assert!(count(&w, |e| matches!(e, Event::Attacked { attacker: 1, target: 0, .. })) > 0);
    assert!(w.player().hp < sightline::core::sim::PLAYER_HP);
}

/// Killed, the player dies once: the log says "you die" once, and the game is over.
#[test]
fn a_player_killed_by_a_monster_dies_once() {
    let mut w = world(
        &[
            "#####", //
            "#@g.#", "#####",
        ],
        config(Algorithm::Shadowcast, None, MemoryModel::LastSeen),
    );
    while !w.is_over() && w.turn < 1000 {
        w.act(Action::Wait);
    }
    assert!(w.is_over(), "the goblin kills a player who only waits");
    assert_eq!(count(&w, |e| *e == Event::Died { actor: 0 }), 1, "{:?}", &w.log[w.log.len() - 3..]);
    let last = w.log.last().map(|(_, e)| w.describe(e));
    assert_eq!(last.as_deref(), Some("you die"));
}

#[test]
fn a_hurt_monster_flees_down_the_flee_map() {
    let mut w = world(
        &[
            "legend:",
            "o = monster name=orc vision=8",
            "---",
            "##########",
            "#........#",
            "#...@o...#",
            "#........#",
            "##########",
        ],
        config(Algorithm::Shadowcast, None, MemoryModel::LastSeen),
    );
    // The player hits it once; then, as if after a fight, it is down to 2 of its 6 hit points.
    w.act(Action::Move(1, 0));
    assert!(w.log.iter().any(|(_, e)| matches!(e, Event::Attacked { attacker: 0, target: 1, .. })));
    w.actors[1].hp = 2;
    let before = w.actors[1].cell.chebyshev(w.player().cell);
    w.act(Action::Wait);
    w.act(Action::Wait);
    assert_eq!(count(&w, |e| *e == Event::Fled { monster: 1 }), 1);
    assert!(w.actors[1].cell.chebyshev(w.player().cell) > before, "it moved away");
}

/// The goblin sees the player through a glass wall. The way round is a corridor `depth` rows
/// deep: rows 1–3 are the rooms, the corridors go down from row 4 and meet on row `depth + 3`.
fn behind_glass(depth: usize) -> World {
    let mut rows = vec![
        "legend:".to_owned(),
        "G = tile name=\"glass\"".to_owned(),
        "g = monster name=goblin vision=40".to_owned(),
        "---".to_owned(),
        "#########".to_owned(),
        "#@.G..g.#".to_owned(),
        "#..G....#".to_owned(),
        "#..G....#".to_owned(),
    ];
    rows.extend((0..depth - 1).map(|_| "#.#####.#".to_owned()));
    rows.push("#.......#".to_owned());
    rows.push("#########".to_owned());
    world(
        &rows.iter().map(String::as_str).collect::<Vec<_>>(),
        config(Algorithm::Shadowcast, None, MemoryModel::LastSeen),
    )
}

/// A monster looks for its route near itself and its quarry (within 8 cells, and as far again as
/// the quarry is, of the box around both): round a short corridor it comes; round one that goes
/// far off, it does not set out, and waits where it sees the player.
#[test]
fn a_monster_chases_round_a_short_way_and_waits_before_a_long_one() {
    let mut near = behind_glass(4);
    let mut far = behind_glass(16);
    for w in [&mut near, &mut far] {
        assert_eq!(w.actors[1].cell, Cell::new(6, 1));
        for _ in 0..3 {
            w.act(Action::Wait);
        }
        assert_eq!(count(w, |e| *e == Event::Noticed { monster: 1 }), 1, "it sees the player through the glass");
    }
    assert!(near.actors[1].cell.y > 1, "round the short way: {}", near.actors[1].cell);
    assert_eq!(far.actors[1].cell, Cell::new(6, 1), "the long way is not taken");
}

/// Two hurt monsters flee the player down one corridor, one behind the other: both go (the flee
/// map leaves monsters out; the one behind is in the way only of a step into its cell).
#[test]
fn two_hurt_monsters_flee_down_one_corridor() {
    let mut w = world(
        &[
            "legend:",
            "o = monster name=orc vision=8",
            "r = monster name=rat vision=8",
            "---",
            "###############",
            "#@or..........#",
            "###############",
        ],
        config(Algorithm::Shadowcast, None, MemoryModel::LastSeen),
    );
    for m in [1, 2] {
        w.actors[m].hp = 1;
    }
    for _ in 0..4 {
        w.act(Action::Wait);
    }
    assert_eq!(count(&w, |e| matches!(e, Event::Fled { .. })), 2, "{:?}", w.log);
    let (orc, rat) = (w.actors[1].cell.x, w.actors[2].cell.x);
    assert!(orc > 2 && rat > orc, "both went down the corridor, in their order: orc {orc}, rat {rat}");
}

/// The message log folds a run of the same line into one, "(×N)" after it, as DCSS does; the
/// steps between are not news, so they do not part a run.
#[test]
fn the_log_folds_repeated_lines() {
    let mut w = world(
        &[
            "#####", //
            "#@..#", "#####",
        ],
        config(Algorithm::Shadowcast, None, MemoryModel::LastSeen),
    );
    run(&mut w, &[Action::Move(0, -1), Action::Move(0, -1), Action::Move(0, -1), Action::Wait, Action::Wait]);
    run(&mut w, &[Action::Move(1, 0), Action::Wait, Action::Move(0, 1)]);
    let lines: Vec<String> = w.messages(10).iter().map(|m| format!("{} {m}", m.turn)).collect();
    assert_eq!(lines, ["0 you bump into the wall at 1, 0 (×3)", "3 you wait (×3)", "4 you bump into the wall at 2, 2"]);
    // The last lines, whole: a limit of 2 keeps the last two, the first folded run dropped.
    assert_eq!(w.messages(2).len(), 2);
    assert_eq!(w.messages(2)[0].times, 3);
}

/// The corridor of `corridor_asymmetry` (tests/fov.rs) in play: under shadowcasting the goblin
/// down the side corridor sees the player, who does not see it; under symmetric shadowcasting
/// neither sees the other. Once it has stepped into the hall, each sees the other.
#[test]
fn a_monster_watches_the_player_from_the_dark_under_shadowcasting_only() {
    let rows = [
        "legend:",
        "g = monster name=goblin vision=10",
        "---",
        "##########",
        "#...@....#",
        "#####.####",
        "#####.####",
        "#####g####",
    ];
    let shadowcast = world(&rows, config(Algorithm::Shadowcast, None, MemoryModel::LastSeen));
    assert_eq!(shadowcast.watchers(), [(1, false)], "seen from the dark");
    assert_eq!(shadowcast.visible_monsters().count(), 0);
    let mut symmetric = world(&rows, config(Algorithm::Symmetric, None, MemoryModel::LastSeen));
    assert_eq!(symmetric.watchers(), []);
    // Frozen monsters: the player steps to the corridor's mouth, and the two see each other.
    symmetric.frozen_monsters = true;
    symmetric.act(Action::Move(1, 0));
    assert_eq!(symmetric.watchers(), [(1, true)]);
}

#[test]
fn the_same_seed_and_actions_give_the_same_game() {
    let map = sightline::core::format::samples::default_map().unwrap();
    let script = |seed: u64| {
        let mut w = World::new(&map, SimConfig { seed, ..Preset::Grass.config() }).unwrap();
        for turn in 0..150 {
            let action = match turn % 5 {
                0 => Action::Explore,
                1 | 2 => Action::Continue,
                3 => Action::Move(1, 0),
                _ => Action::Wait,
            };
            w.act(action);
        }
        (w.log.clone(), w.actors.clone())
    };
    assert_eq!(script(3), script(3));
    assert_ne!(script(3).1, script(4).1, "another seed, other wanderings");
}

#[test]
fn presets_choose_the_seeds_fov_and_memory() {
    let expect = [
        (Preset::Picotron, Algorithm::Circle, MemoryModel::Revealed),
        (Preset::CavesOfZircon, Algorithm::Ray, MemoryModel::None),
        (Preset::Terminus, Algorithm::Ray, MemoryModel::LastSeen),
        (Preset::Jsrlt, Algorithm::Shadowline, MemoryModel::Revealed),
        (Preset::Grass, Algorithm::Shadowcast, MemoryModel::LastSeen),
    ];
    for (preset, fov, memory) in expect {
        let c = preset.config();
        assert_eq!((c.fov, c.memory), (fov, memory), "{}", preset.name());
    }
    assert!(Preset::Grass.config().smooth);
}

#[test]
fn a_monster_out_of_view_is_not_shown_but_its_last_position_is_kept() {
    let mut w = world(
        &[
            "#########", //
            "#@..+..g#",
            "#########",
        ],
        config(Algorithm::Shadowcast, None, MemoryModel::LastSeen),
    );
    w.frozen_monsters = true;
    assert_eq!(w.visible_monsters().count(), 0);
    run(&mut w, &[Action::Move(1, 0), Action::Move(1, 0), Action::Move(1, 0)]);
    assert!(w.log.iter().any(|(_, e)| *e == Event::DoorOpened { actor: 0, at: Cell::new(4, 1) }));
    assert_eq!(w.visible_monsters().count(), 1);
    assert_eq!(believed(&w), ["#########", "#..@'..g#", "#########"]);
    w.act(Action::Close);
    assert_eq!(w.visible_monsters().count(), 0);
    // The goblin is not drawn from memory; its last known cell is kept for a ghost.
    assert_eq!(believed(&w), ["#########", "#..@+...#", "#########"]);
    assert_eq!(w.last_seen[1], Some(Cell::new(7, 1)));
}

/// Knowledge through actor `who`'s eyes.
fn knowledge_of(w: &World, who: usize) -> Vec<String> {
    (0..w.map.height() as i32)
        .map(|y| {
            (0..w.map.width() as i32)
                .map(|x| match w.knowledge_of(who, Cell::new(x, y)) {
                    Knowledge::Visible => 'v',
                    Knowledge::Remembered => 'r',
                    Knowledge::Unknown => ' ',
                })
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect()
}

#[test]
fn every_perspective_has_its_own_view_and_memory() {
    let mut w = world(
        &["legend:", "g = monster name=goblin vision=6", "---", "#########", "#@..#..g#", "#...+...#", "#########"],
        config(Algorithm::Shadowcast, None, MemoryModel::LastSeen),
    );
    w.frozen_monsters = true;
    // The goblin sees its own room, not the player's behind the closed door; the player, theirs.
    assert_eq!(knowledge_of(&w, 1), ["    vvvvv", "    vvvvv", "    vvvvv", "    vvvvv"]);
    assert_eq!(knowledge_of(&w, 0), ["vvvvv", "vvvvv", "vvvvv", "vvvvv"]);
    // The player opens the door: both rooms see each other through it.
    run(&mut w, &[Action::Move(1, 1), Action::Move(1, 0), Action::Open]);
    assert!(w.knowledge_of(1, Cell::new(3, 2)) == Knowledge::Visible, "the goblin sees the player's side");
    // Closed again: each remembers the other room as it last saw it.
    w.act(Action::Close);
    assert_eq!(w.knowledge_of(1, Cell::new(3, 2)), Knowledge::Remembered);
    assert_eq!(w.knowledge_of(0, Cell::new(6, 2)), Knowledge::Remembered);
}

#[test]
fn an_editor_edit_reaches_the_game_without_undoing_what_was_played() {
    let rows = ["#######", "#@.+..#", "#######"];
    let before = ascii::parse(&rows.join("\n")).unwrap();
    let mut w = World::new(&before, config(Algorithm::Shadowcast, None, MemoryModel::LastSeen)).unwrap();
    w.act(Action::Move(1, 0));
    w.act(Action::Open);
    assert!(!w.map.rules_at(Cell::new(3, 1)).opaque, "the door is open in the game");
    // The designer paints water at (5, 1).
    let mut after = before.clone();
    sightline::core::edit::paint(&mut after, 0, &[Cell::new(5, 1)], sightline::core::model::tile::STANDARD_WATER);
    // And mirrors the wall at (0, 0): the same tile, flipped.
    let flip = sightline::core::model::flip::Flip::HORIZONTAL;
    let wall = after.tile(0, Cell::new(0, 0)).unwrap();
    after.set_flipped_tile(0, Cell::new(0, 0), wall, flip);
    w.apply_edit(&before, &after);
    assert_eq!(w.map.top_tile(Cell::new(5, 1)).map(|t| t.1), Some(sightline::core::model::tile::STANDARD_WATER));
    assert_eq!(w.map.flipped_tile(0, Cell::new(0, 0)), Some((wall, flip)), "the flip reaches the game too");
    assert!(!w.map.rules_at(Cell::new(3, 1)).opaque, "the door opened in play stays open");
}

/// A guard in a lit hall, the player at the end of a dark corridor with a vision of 2.
const LIT_HALL: [&str; 9] = [
    "legend:",
    "! = light radius=5",
    "g = monster name=guard vision=3",
    "---",
    "#######",
    "#.....#########",
    "#..!..#########",
    "#..g...'......@",
    "#.....#########",
];

#[test]
fn a_lit_hall_and_the_guard_in_it_are_seen_from_the_dark_and_the_guard_sees_the_player_in_the_light() {
    let mut w = world(&LIT_HALL, config(Algorithm::Symmetric, Some(2), MemoryModel::LastSeen));
    w.frozen_monsters = true;
    // From the corridor's end the player sees down the corridor the hall's row in line with it,
    // the guard there, the hall's far wall and the door's frame (their lit faces turned to the
    // player), and the cells within 2; the guard, with a vision of 3, does not see the player in
    // the dark.
    assert_eq!(knowledge(&w), ["", "", "v     v      vv", "vvvvvvvv    vvv", "v     v      vv"]);
    assert_eq!(w.visible_monsters().count(), 1);
    assert!(w.log.iter().any(|(_, e)| *e == Event::Spotted { monster: 1 }));
    assert!(!w.visible_of(1).contains_cell(w.player().cell));
    // The lights off: only the player's own view.
    w.set_lights(false);
    assert_eq!(knowledge(&w), ["", "", "r     r      vv", "rrrrrrrr    vvv", "r     r      vv"]);
    assert_eq!(w.visible_monsters().count(), 0);
    w.set_lights(true);
    // The dark stretch of the corridor is unknown, so no travel crosses it: the player walks.
    w.act(Action::Travel(Cell::new(7, 3)));
    assert!(w.log.iter().any(|(_, e)| *e == Event::TravelBlocked));
    run(&mut w, &[Action::Move(-1, 0); 7]);
    // In the doorway, lit, the player is seen by the guard four cells away.
    assert_eq!(w.player().cell, Cell::new(7, 3));
    assert!(w.is_lit(w.player().cell));
    assert!(w.visible_of(1).contains_cell(w.player().cell));
    // One step back into the dark, it is not.
    w.act(Action::Move(1, 0));
    assert!(!w.is_lit(w.player().cell));
    assert!(!w.visible_of(1).contains_cell(w.player().cell));
}

#[test]
fn a_door_closed_in_front_of_a_light_darkens_what_it_lit_beyond() {
    let rows = ["legend:", "! = light radius=6", "---", "#########", "#!.'....#", "#########"];
    let mut w = world(&rows, config(Algorithm::Shadowcast, Some(1), MemoryModel::LastSeen));
    assert!(w.is_lit(Cell::new(6, 1)), "through the open door");
    assert!(w.toggle_door(Cell::new(3, 1)));
    assert!(!w.is_lit(Cell::new(6, 1)), "the closed door stops the light");
    assert!(w.is_lit(Cell::new(3, 1)), "and is lit itself, on its side");
}

#[test]
fn items_are_seen_remembered_where_seen_and_picked_up() {
    let rows = ["legend:", "p = item name=potion", "---", "############", "#...@..p...#", "############"];
    let mut w = world(&rows, config(Algorithm::Shadowcast, Some(3), MemoryModel::LastSeen));
    let potion = |w: &World| w.known_items_of(0).map(|(i, k)| (i.cell, k)).collect::<Vec<_>>();
    assert_eq!(potion(&w), [(Cell::new(7, 1), Knowledge::Visible)]);
    assert_eq!(w.describe(&w.log[0].1), "you see the potion at 7, 1");
    // Two steps away it is out of view, and remembered where it was seen.
    run(&mut w, &[Action::Move(-1, 0), Action::Move(-1, 0)]);
    assert_eq!(potion(&w), [(Cell::new(7, 1), Knowledge::Remembered)]);
    // Walked to, it is picked up.
    w.act(Action::Travel(Cell::new(7, 1)));
    while w.walking() {
        w.act(Action::Continue);
    }
    assert_eq!((w.carried(), potion(&w)), (1, vec![]));
    let picked = w.log.iter().find(|(_, e)| matches!(e, Event::PickedUp { .. })).expect("picked up");
    assert_eq!(w.describe(&picked.1), "you pick up the potion");
    // Without memory, an item out of view is not known.
    let mut w = world(&rows, config(Algorithm::Shadowcast, Some(3), MemoryModel::None));
    run(&mut w, &[Action::Move(-1, 0), Action::Move(-1, 0)]);
    assert_eq!(potion(&w), []);
}

#[test]
fn autoexplore_fetches_the_items_it_sees() {
    let mut w = world(
        &[
            "legend:",
            "p = item name=potion",
            "---",
            "##########",
            "#@...#...#",
            "#....+.p.#",
            "#.*..#...#",
            "##########",
        ],
        config(Algorithm::Shadowcast, None, MemoryModel::LastSeen),
    );
    w.act(Action::Explore);
    let mut turns = 0;
    while w.walking() && turns < 200 {
        w.act(Action::Continue);
        turns += 1;
    }
    assert!(w.log.iter().any(|(_, e)| *e == Event::ExploreDone));
    assert_eq!(w.carried(), 2, "the item in sight, then the potion behind the door");
    let order: Vec<String> =
        w.log.iter().filter(|(_, e)| matches!(e, Event::PickedUp { .. })).map(|(_, e)| w.describe(e)).collect();
    assert_eq!(order, ["you pick up the item", "you pick up the potion"]);
}

#[test]
fn an_edit_moves_a_light_and_adds_an_item_in_the_running_game() {
    let rows = ["legend:", "! = light radius=2", "---", "###########", "#@.......!#", "###########"];
    let before = ascii::parse(&rows.join("\n")).unwrap();
    let mut w = World::new(&before, config(Algorithm::Shadowcast, Some(1), MemoryModel::LastSeen)).unwrap();
    assert!(w.is_lit(Cell::new(8, 1)) && !w.is_lit(Cell::new(4, 1)));
    // The designer moves the light to (4, 1) and lays an item at (3, 1).
    let mut after = before.clone();
    let light = after.objects.iter_mut().find(|o| matches!(o.kind, ObjectKind::Light { .. })).unwrap();
    light.cell = Cell::new(4, 1);
    after.add_object(MapObject::new(ObjectKind::Item, Cell::new(3, 1)).named("coin"));
    w.apply_edit(&before, &after);
    assert!(w.is_lit(Cell::new(4, 1)) && !w.is_lit(Cell::new(8, 1)));
    let fresh = |map: &sightline::core::Map| {
        let lighting = Lighting::of_map(map, Algorithm::Shadowcast, &OpacityGrid::from_map(map));
        lighting.lit().iter().collect::<Vec<_>>()
    };
    assert_eq!(w.lighting().lit().iter().collect::<Vec<_>>(), fresh(&after));
    // The coin lies in the light, three cells away: seen.
    assert_eq!(w.known_items_of(0).map(|(i, _)| i.name.as_str()).collect::<Vec<_>>(), ["coin"]);
    // A wall painted beside the light shadows what lies behind it.
    let mut walled = after.clone();
    sightline::core::edit::paint(&mut walled, 0, &[Cell::new(5, 1)], sightline::core::model::tile::STANDARD_WALL);
    w.apply_edit(&after, &walled);
    assert!(!w.is_lit(Cell::new(6, 1)));
    assert_eq!(w.lighting().lit().iter().collect::<Vec<_>>(), fresh(&walled));
    // Taken off the map again, the coin is gone from the game; one laid under the player is
    // picked up.
    let mut under = before.clone();
    under.add_object(MapObject::new(ObjectKind::Item, w.player().cell).named("ring"));
    w.apply_edit(&walled, &under);
    assert_eq!(w.known_items_of(0).count(), 0);
    assert_eq!(w.carried(), 1);
    assert_eq!(w.describe(&w.log.last().unwrap().1), "you pick up the ring");
}

#[test]
fn a_monster_carrying_a_light_is_seen_in_the_dark_and_its_light_goes_with_it() {
    let mut w = world(
        &[
            "legend:",
            "o = monster name=orc vision=3 light=1",
            "---",
            "##################",
            "#@.............o.#",
            "##################",
        ],
        config(Algorithm::Symmetric, Some(2), MemoryModel::None),
    );
    w.frozen_monsters = true;
    // Thirteen cells down the dark corridor, beyond the player's vision of 2: the torch-bearer
    // and the cells its torch (radius 1) lights, the walls above and below it (lit on the side
    // facing the player).
    w.actors[1].cell = Cell::new(14, 1);
    w.act(Action::Wait);
    assert_eq!(knowledge(&w), ["vvv           v", "vvvv         vvv", "vvv           v"]);
    assert_eq!(w.visible_monsters().count(), 1);
    assert_eq!(w.lighting().lights().iter().map(|l| (l.cell, l.radius)).collect::<Vec<_>>(), [(Cell::new(14, 1), 1)]);
    // It steps nearer: the light comes with it, lit as a fresh lighting would light it.
    w.actors[1].cell = Cell::new(10, 1);
    w.act(Action::Wait);
    assert_eq!(knowledge(&w), ["vvv       v", "vvvv     vvv", "vvv       v"]);
    let torch = sightline::core::sim::Light { object: w.actors[1].object, cell: w.actors[1].cell, radius: 1 };
    let fresh = Lighting::new(vec![torch], Algorithm::Symmetric, &OpacityGrid::from_map(&w.map));
    assert_eq!(w.lighting().lit().iter().collect::<Vec<_>>(), fresh.lit().iter().collect::<Vec<_>>());
    // Killed, its light goes out.
    w.actors[1].hp = 0;
    w.act(Action::Wait);
    assert!(w.lighting().lights().is_empty());
    assert_eq!(knowledge(&w), ["vvv", "vvvv", "vvv"]);
}

/// The player start's `light` is the player's torch: it lights around the player wherever they
/// go, so a monster whose own vision (2) ends far short of the player sees them down a dark
/// corridor, and one without the torch does not. A torch given in the editor is lit at once.
#[test]
fn the_players_torch_shows_them_to_a_monster_down_a_dark_corridor() {
    fn corridor(player: &str) -> [&str; 7] {
        [
            "legend:",
            player,
            "o = monster name=orc vision=2",
            "---",
            "##################",
            "#@.............o.#",
            "##################",
        ]
    }
    let dark = config(Algorithm::Symmetric, Some(2), MemoryModel::None);
    let mut w = world(&corridor("@ = player light=1"), dark);
    assert_eq!(w.player().light, 1);
    w.act(Action::Wait);
    let player = w.player().cell;
    assert!(w.visible_of(1).contains_cell(player), "the orc sees the lit player, 14 cells away");
    assert_eq!(w.lighting().lights().iter().map(|l| (l.cell, l.radius)).collect::<Vec<_>>(), [(player, 1)]);
    // The torch goes with the player: two cells east was dark, and is lit once they step east.
    assert!(w.is_lit(player) && !w.is_lit(Cell::new(3, 1)));
    w.act(Action::Move(1, 0));
    assert_eq!(w.lighting().lights()[0].cell, Cell::new(2, 1));
    assert!(w.is_lit(Cell::new(3, 1)));

    // Without a torch the player stays unseen in the dark.
    let mut unlit = world(&corridor("@ = player"), dark);
    assert_eq!(unlit.player().light, 0);
    unlit.act(Action::Wait);
    assert!(!unlit.visible_of(1).contains_cell(unlit.player().cell));
    assert!(unlit.lighting().lights().is_empty());

    // A torch given to the player start in the editor is lit in the running game.
    let before = ascii::parse(&corridor("@ = player").join("\n")).unwrap();
    let mut after = before.clone();
    let start = after.objects.iter_mut().find(|o| o.kind == ObjectKind::PlayerStart).unwrap();
    start.properties.insert("light".into(), sightline::core::PropertyValue::Int(2));
    unlit.apply_edit(&before, &after);
    assert_eq!(unlit.player().light, 2);
    assert_eq!(unlit.lighting().lights().iter().map(|l| l.radius).collect::<Vec<_>>(), [2]);
}

/// Angband's play: a player start with `vision=0` and a torch sees, in the dark, only what the
/// torch lights, and a lit room beyond it; without its own vision the preset's (8 here) would
/// show the whole corridor.
#[test]
fn a_player_without_dark_vision_sees_what_their_torch_lights() {
    let rows = [
        "legend:",
        "@ = player light=1 vision=0",
        "! = light radius=2",
        "---",
        "###########",
        "#@.......!#",
        "###########",
    ];
    let grass = config(Algorithm::Symmetric, Some(8), MemoryModel::None);
    let mut w = world(&rows, grass);
    w.act(Action::Wait);
    // The torch's disc of radius 1 around the player (dx² + dy² ≤ 1: no corners), and the lit
    // end of the corridor (the lamp's radius 2), nothing between.
    assert_eq!(knowledge(&w), [" v      vvv", "vvv    vvvv", " v      vvv"]);
    // A vision given in the editor replaces it in the running game: the preset's back when the
    // property goes.
    let before = ascii::parse(&rows.join("\n")).unwrap();
    let mut after = before.clone();
    let start = after.objects.iter_mut().find(|o| o.kind == ObjectKind::PlayerStart).unwrap();
    start.properties.remove("vision");
    w.apply_edit(&before, &after);
    assert_eq!(w.player().vision, 8);
    assert_eq!(knowledge(&w), ["vvvvvvvvvvv", "vvvvvvvvvvv", "vvvvvvvvvvv"]);
}

/// One actor a cell: monsters placed on a taken cell (a duplicated layer's copies, a monster
/// painted on the player start) stand on the nearest free walkable cell, in reading order among
/// the nearest, without passing walls; one with no room near stays out; one off the map too.
#[test]
fn monsters_placed_on_a_taken_cell_stand_on_the_nearest_free_one() {
    let mut map = ascii::parse(
        &[
            "#######", //
            "#@..#o#", "#...###", "#######",
        ]
        .join("\n"),
    )
    .unwrap();
    let monster = |c: Cell, glyph: char| MapObject::new(ObjectKind::Monster { glyph, vision_radius: 4 }, c);
    // On the player: the nearest free cell in reading order is (2, 1).
    map.add_object(monster(Cell::new(1, 1), 'a'));
    // On the walled-in orc, whose closet has no other cell: left out.
    map.add_object(monster(Cell::new(5, 1), 'b'));
    // Twice more on the player: (1, 2), then (2, 2).
    map.add_object(monster(Cell::new(1, 1), 'c'));
    map.add_object(monster(Cell::new(1, 1), 'd'));
    // Off the map.
    map.add_object(monster(Cell::new(9, 9), 'e'));
    let w = World::new(&map, config(Algorithm::Shadowcast, None, MemoryModel::LastSeen)).unwrap();
    let drawn: Vec<String> = (0..4)
        .map(|y| {
            (0..7)
                .map(|x| {
                    let c = Cell::new(x, y);
                    w.actors
                        .iter()
                        .find(|a| a.cell == c)
                        .map_or(w.map.tiles[usize::from(w.map.top_tile(c).unwrap().1)].glyph.ch, |a| a.glyph)
                })
                .collect()
        })
        .collect();
    assert_eq!(
        drawn,
        [
            "#######", //
            "#@a.#o#", "#cd.###", "#######",
        ]
    );
    assert_eq!(w.actors.len(), 5, "the player, the orc, a, c and d");
}

/// Random games on the bundled dungeon and on generated dungeons and caves with monsters,
/// items and lights placed at random, under every preset, lights on and off, each turn a random
/// key, walk or click, and now and then a door opened or shut out of turn. After every turn:
/// - the player sees what their own view and the lights give them, worked out afresh from the
///   map as it stands (its doors as played) and the lights as they stand;
/// - a cell is visible, remembered or unknown as the memory model says: remembered only if it
///   was seen on an earlier turn (never, without memory), unknown only if it never was;
/// - with last-seen memory a remembered cell shows the tile it had when last seen, with the
///   revealed flag the tile it has now;
/// - a walk (travel or exploration) steps only onto cells the player knew;
/// - the player, and every monster that moved, stands on a walkable cell, and no two living
///   actors share one.
#[test]
fn random_games_know_only_what_was_seen() {
    use sightline::core::fov::{self, FovParams, VisibleSet};
    use sightline::core::rng::Rng;
    use sightline::core::sim::lighting::Lighting;
    use std::collections::HashMap;
    let mut turns = 0;
    for seed in 1..=36u64 {
        let mut rng = Rng::new(seed);
        let mut map = match seed % 3 {
            0 => {
                sightline::core::format::load(std::path::Path::new(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/maps/dungeon.ron"
                )))
                .unwrap()
                .map
            }
            1 => sightline::core::generate::dungeon(40, 24, seed).unwrap(),
            _ => sightline::core::generate::caves(40, 24, seed).unwrap(),
        };
        for _ in 0..rng.below(6) {
            let cell = Cell::new(rng.range(0, map.width() as i32 - 1), rng.range(0, map.height() as i32 - 1));
            let kind = match rng.below(3) {
                0 => ObjectKind::Monster { glyph: 'o', vision_radius: 3 + rng.below(6) },
                1 => ObjectKind::Item,
                _ => ObjectKind::Light { radius: 2 + rng.below(5) },
            };
            map.add_object(MapObject::new(kind, cell));
        }
        let preset = Preset::ALL[rng.below(5) as usize];
        let config = SimConfig { seed, lights: rng.chance(0.7), ..preset.config() };
        let Some(mut w) = World::new(&map, config) else { continue };
        let starts: Vec<Cell> = w.actors.iter().map(|a| a.cell).collect();
        // What the player saw, and the tile each cell had when last seen.
        let mut last_seen: HashMap<Cell, Option<u16>> = HashMap::new();
        let see = |w: &World, last_seen: &mut HashMap<Cell, Option<u16>>| {
            for c in w.visible().iter() {
                last_seen.insert(c, w.map.top_tile(c).map(|(_, t)| t));
            }
        };
        see(&w, &mut last_seen);
        let doors: Vec<Cell> =
            (0..map.len()).map(|i| map.cell_at(i)).filter(|&c| map.rules_at(c).door.is_some()).collect();
        for turn in 0..150 {
            let context = format!("seed {seed} ({}, lights {}), turn {turn}", preset.name(), config.lights);
            // Now and then a door no one stands in opens or shuts out of turn, in view or not
            // (a scenario's hand): what a memory shows of it then depends on the model.
            if !doors.is_empty() && rng.chance(0.3) {
                let door = doors[rng.below(doors.len() as u32) as usize];
                if w.actors.iter().all(|a| !a.alive() || a.cell != door) && w.toggle_door(door) {
                    // Seen at once, as it now is.
                    see(&w, &mut last_seen);
                }
            }
            let action = if w.walking() && rng.chance(0.8) {
                Action::Continue
            } else {
                match rng.below(10) {
                    0 => Action::Wait,
                    1 => Action::Open,
                    2 => Action::Close,
                    3 => Action::Explore,
                    4 => Action::Travel(Cell::new(
                        rng.range(0, w.map.width() as i32 - 1),
                        rng.range(0, w.map.height() as i32 - 1),
                    )),
                    _ => Action::Move(rng.range(-1, 1), rng.range(-1, 1)),
                }
            };
            let (before, knew) = (w.player().cell, |c: Cell| last_seen.contains_key(&c));
            let known_before: Vec<Cell> = (0..w.map.len()).map(|i| w.map.cell_at(i)).filter(|&c| knew(c)).collect();
            let took = w.act(action);
            turns += 1;
            let after = w.player().cell;
            if after != before && matches!(action, Action::Continue | Action::Explore | Action::Travel(_)) {
                assert!(known_before.contains(&after), "a walk stepped onto {after}, unknown before: {context}");
            }

            // The view, afresh: the player's own, and with lights the lit cells in view within
            // sight range, from a lighting made anew for the lights as they stand.
            let opacity = OpacityGrid::from_map(&w.map);
            let vision = (w.player().vision != u32::MAX).then_some(w.player().vision);
            let mut expected = VisibleSet::new(w.map.width(), w.map.height());
            if config.lights {
                let lighting = Lighting::new(w.lighting().lights().to_vec(), config.fov, &opacity);
                let mut far = VisibleSet::new(w.map.width(), w.map.height());
                lighting.sight(&opacity, after, vision, &mut expected, &mut far);
            } else {
                fov::compute(config.fov, &opacity, FovParams::new(after, vision), &mut expected);
            }
            let (got, want): (Vec<Cell>, Vec<Cell>) = (w.visible().iter().collect(), expected.iter().collect());
            if got != want {
                let only_got: Vec<&Cell> = got.iter().filter(|c| !want.contains(c)).collect();
                let only_want: Vec<&Cell> = want.iter().filter(|c| !got.contains(c)).collect();
                panic!(
                    "the view after {action:?} (a turn: {took}) from {after}: extra {only_got:?}, missing {only_want:?}: {context}"
                );
            }

            for i in 0..w.map.len() {
                let c = w.map.cell_at(i);
                let k = w.knowledge(c);
                assert_eq!(k == Knowledge::Visible, w.visible().contains_cell(c), "{c}: {context}");
                match (config.memory, k) {
                    (MemoryModel::None, Knowledge::Remembered) => panic!("{c} remembered without memory: {context}"),
                    (_, Knowledge::Remembered) => {
                        assert!(knew(c), "{c} remembered, never seen: {context}");
                        let believed = w.believed_tile(c);
                        let now = w.map.top_tile(c).map(|(_, t)| t);
                        if config.memory == MemoryModel::LastSeen {
                            assert_eq!(believed, Some(last_seen[&c].unwrap_or(0)), "{c} as last seen: {context}");
                        } else {
                            assert_eq!(believed, now, "{c} as it is now (revealed): {context}");
                        }
                    }
                    (MemoryModel::None, Knowledge::Unknown) => {}
                    (_, Knowledge::Unknown) => assert!(!knew(c), "{c} seen, then unknown: {context}"),
                    (_, Knowledge::Visible) => {}
                }
            }
            let mut standing = HashMap::new();
            for (n, a) in w.actors.iter().enumerate().filter(|(_, a)| a.alive()) {
                // A monster placed in a wall stays there (the Game rules audit names it); one that
                // moved, and the player, stand where one can stand.
                if a.cell != starts[n] || n == 0 {
                    assert!(
                        w.map.rules_at(a.cell).walkable,
                        "actor {n} on {} which is not walkable: {context}",
                        a.cell
                    );
                }
                assert!(standing.insert(a.cell, n).is_none(), "two actors on {}: {context}", a.cell);
            }
            see(&w, &mut last_seen);
            if w.is_over() {
                break;
            }
        }
    }
    assert!(turns > 3000, "only {turns} turns played");
}

/// Whatever a damaged file still loads as, the game core runs on it without a panic: every FOV
/// algorithm from corners, walls and the middle (with and without a radius), both searches
/// between random cells, the LOS cache and the symmetry audit, and a game under every preset.
/// (`SIGHTLINE_SOAK=N` multiplies the mutations.)
#[test]
fn the_core_runs_on_any_map_a_damaged_file_still_loads_as() {
    use sightline::core::analysis::los_cache::LosCache;
    use sightline::core::format::{self, Format};
    use sightline::core::fov::{self, FovParams, Opacity, VisibleSet};
    use sightline::core::path::search::Searcher;
    use sightline::core::path::{CostGrid, DoorRule, SearchParams};
    use sightline::core::rng::Rng;
    use std::sync::atomic::{AtomicBool, AtomicUsize};
    let soak = std::env::var("SIGHTLINE_SOAK").ok().and_then(|s| s.parse::<u64>().ok()).unwrap_or(1).max(1);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let sources = ["maps/pillars.ron", "maps/dungeon.txt", "maps/dungeon.tmj", "tests/fixtures/objects.tmx"];
    let mut seed = 0;
    let mut ran = 0;
    for source in sources {
        let path = root.join(source);
        let bytes = std::fs::read(&path).unwrap();
        let format = Format::from_path(&path).unwrap();
        for _ in 0..25 * soak {
            seed += 1;
            let mut rng = Rng::new(seed);
            let mutated = mutation::mutate(&bytes, &mut rng);
            let Ok(loaded) = format::load_bytes(&mutated, format, &path) else { continue };
            let map = loaded.map;
            // A map this test would take long over (a mutated size): its corner only matters.
            if map.len() > 200_000 {
                continue;
            }
            ran += 1;
            let context = format!("{source} mutated, seed {seed}");
            let (w, h) = (map.width() as i32, map.height() as i32);
            let random_cell = |rng: &mut Rng| Cell::new(rng.range(0, w - 1), rng.range(0, h - 1));
            let grid = OpacityGrid::from_map(&map);
            let mut visible = VisibleSet::new(map.width(), map.height());
            let origins = [Cell::new(0, 0), Cell::new(w - 1, h - 1), Cell::new(w / 2, h / 2), random_cell(&mut rng)];
            for algorithm in Algorithm::ALL {
                for origin in origins {
                    for radius in [None, Some(1), Some(7)] {
                        fov::compute(algorithm, &grid, FovParams::new(origin, radius), &mut visible);
                        assert!(visible.contains(origin.x, origin.y), "{context}: {algorithm:?} from {origin}");
                    }
                }
            }
            let costs =
                CostGrid::from_map(&map, if seed % 2 == 0 { DoorRule::Impassable } else { DoorRule::OpenAtCost(2.0) });
            let mut searcher = Searcher::new();
            for _ in 0..4 {
                let (a, b) = (random_cell(&mut rng), random_cell(&mut rng));
                for algorithm in [sightline::core::path::Algorithm::AStar, sightline::core::path::Algorithm::Dijkstra] {
                    let params = SearchParams { algorithm, ..SearchParams::default() };
                    std::hint::black_box(searcher.find_path(&costs, &params, a, b));
                }
            }
            if let Ok(mut cache) = LosCache::build(&grid, Algorithm::Shadowcast, 6) {
                let door = random_cell(&mut rng);
                let opaque = grid.is_opaque(door.x, door.y);
                std::hint::black_box(cache.set_opaque(door, !opaque));
            }
            let audit = sightline::core::analysis::symmetry::audit(
                &grid,
                Algorithm::Permissive,
                Some(5),
                &AtomicUsize::new(0),
                &AtomicBool::new(false),
            );
            assert!(audit.is_ok(), "{context}: the audit failed");
            for preset in Preset::ALL {
                let config = SimConfig { seed, ..preset.config() };
                let Some(mut world) = World::new(&map, config) else { continue };
                for _ in 0..30 {
                    let action = match rng.below(8) {
                        0 => Action::Wait,
                        1 => Action::Open,
                        2 => Action::Close,
                        3 => Action::Explore,
                        4 => Action::Travel(random_cell(&mut rng)),
                        5 => Action::Continue,
                        _ => Action::Move(rng.range(-1, 1), rng.range(-1, 1)),
                    };
                    world.act(action);
                }
            }
        }
    }
    assert!(ran > 10, "only {ran} mutated maps loaded");
}
