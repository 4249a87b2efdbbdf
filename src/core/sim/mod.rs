//! The game: a deterministic turn simulation on a map, the same core the overlays use.
//!
//! The player and the monsters come from the map's objects. Each turn the player acts (move,
//! wait, open or close a door, attack by moving into a monster, travel, explore), then every
//! monster acts by what it sees through the same FOV code the overlays draw:
//! - it **wanders** (a random step) until it sees the player;
//! - it **chases** a player it sees (A* to the player, attacking when adjacent), remembering
//!   where it last saw the player;
//! - it **investigates** that last known position when the player slips out of view;
//! - below 40% of its hit points it **flees** down a flee map (a Dijkstra map from the player
//!   scaled by −1.2 and relaxed again, "The Incredible Power of Dijkstra Maps").
//!
//! Then the player's view is recomputed and remembered by the [`Memory`] model. Everyone sees
//! by the same rule: its own view within its vision radius, and farther the cells the map's
//! lights light ([`lighting`]), so a lit hall is seen from its doorway, and a player standing in
//! it is seen by the monsters across it. The map's items lie where they were placed: the player
//! picks one up by stepping onto it, remembers where it saw the others, and autoexplore goes for
//! those too. Randomness comes
//! from one seeded [`Rng`], drawn in a fixed order: the same map, seed and actions give the same
//! events, always.
//!
//! Movement: 8 directions; a diagonal step needs only its target free; costs are Chebyshev with
//! the 1 + 1/16 diagonal tie-break, so walkers prefer the straighter of equally short routes.

pub mod lighting;
pub mod memory;
pub mod sight;
pub mod travel;

use crate::core::fov::{Algorithm as FovAlgorithm, FovParams, OpacityGrid, VisibleSet};
use crate::core::path::dijkstra_map::DijkstraMap;
use crate::core::path::{
    Algorithm as PathAlgorithm, CostGrid, DiagonalLength, DiagonalPolicy, DoorRule, Heuristic, MoveRules, Moves,
    SearchParams, find_path,
};
use crate::core::rng::Rng;
use crate::core::{Cell, Map, ObjectKind};

pub use lighting::{Light, Lighting, SIGHT_RANGE};
pub use memory::{CellStates, Knowledge, Memory, MemoryModel, Remembered};
pub use sight::{ExternalSight, SightSource};
pub use travel::TravelPolicy;

/// How everyone moves (see the module doc).
pub const MOVES: MoveRules = MoveRules {
    moves: Moves::Eight,
    diagonal: DiagonalPolicy::Always,
    diagonal_length: DiagonalLength::ChebyshevTieBreak,
};

/// The player's hit points.
pub const PLAYER_HP: i32 = 20;
/// A monster's hit points when its object has no `hp` property.
pub const MONSTER_HP: i32 = 6;

/// The rules of one game: how the player sees and remembers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimConfig {
    pub fov: FovAlgorithm,
    /// The player's vision radius (`None`: unlimited).
    pub radius: Option<u32>,
    pub memory: MemoryModel,
    /// Draw FOV changes as a smooth transition (read by the renderer).
    pub smooth: bool,
    pub seed: u64,
    /// Lit cells are seen from afar ([`lighting`]); off, everyone sees its own view alone.
    pub lights: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        Preset::Grass.config()
    }
}

/// The seeds' games, as configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// The Picotron tutorial: circle FOV (no occlusion), a seen flag.
    Picotron,
    /// Caves of Zircon: ray FOV, a shroud only (nothing remembered).
    CavesOfZircon,
    /// Terminus: ray FOV, last-seen memory.
    Terminus,
    /// The jsrlt tutorial: shadow-line FOV, `IsInFov`/`IsRevealed`.
    Jsrlt,
    /// Grass: recursive shadowcasting, last-seen memory, smooth transitions.
    Grass,
}

impl Preset {
    pub const ALL: [Preset; 5] =
        [Preset::Grass, Preset::Terminus, Preset::Jsrlt, Preset::CavesOfZircon, Preset::Picotron];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Picotron => "Picotron",
            Preset::CavesOfZircon => "Caves of Zircon",
            Preset::Terminus => "Terminus",
            Preset::Jsrlt => "jsrlt",
            Preset::Grass => "Grass",
        }
    }

    pub fn config(self) -> SimConfig {
        let (fov, memory, smooth, radius) = match self {
            Preset::Picotron => (FovAlgorithm::Circle, MemoryModel::Revealed, false, 6),
            Preset::CavesOfZircon => (FovAlgorithm::Ray, MemoryModel::None, false, 9),
            Preset::Terminus => (FovAlgorithm::Ray, MemoryModel::LastSeen, false, 9),
            Preset::Jsrlt => (FovAlgorithm::Shadowline, MemoryModel::Revealed, false, 8),
            Preset::Grass => (FovAlgorithm::Shadowcast, MemoryModel::LastSeen, true, 8),
        };
        SimConfig { fov, radius: Some(radius), memory, smooth, seed: 1, lights: true }
    }
}

/// What a monster is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mind {
    Wander,
    Chase,
    /// Going to where the player was last seen.
    Investigate(Cell),
    Flee,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Actor {
    pub name: String,
    pub glyph: char,
    pub cell: Cell,
    pub hp: i32,
    pub max_hp: i32,
    /// Its vision radius (the player's: `u32::MAX` when unlimited).
    pub vision: u32,
    pub mind: Mind,
    /// The map object it comes from (0: the player started on no object).
    pub object: u32,
    /// The radius of the light it carries (0: none), which lights around it wherever it goes.
    pub light: u32,
}

impl Actor {
    pub fn alive(&self) -> bool {
        self.hp > 0
    }
}

/// An item lying on the map (an item object), until the player picks it up.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// The map object it comes from.
    pub object: u32,
    /// Its object's name ("" when it has none).
    pub name: String,
    pub cell: Cell,
    /// Picked up by the player.
    pub taken: bool,
    /// The player has seen it (and so knows where it lies, as memory allows).
    pub seen: bool,
    /// Its object was taken off the map in the editor while the game ran.
    pub removed: bool,
}

impl Item {
    /// The glyph items are drawn with (the ASCII maps' `*`).
    pub const GLYPH: char = '*';

    fn of(object: &crate::core::MapObject) -> Item {
        Item {
            object: object.id,
            name: object.name.clone(),
            cell: object.cell,
            taken: false,
            seen: false,
            removed: false,
        }
    }

    /// Whether it lies on the map: neither picked up nor taken off the map.
    pub fn lying(&self) -> bool {
        !self.taken && !self.removed
    }

    /// What the messages call it.
    pub fn title(&self) -> String {
        if self.name.is_empty() { "an item".into() } else { format!("the {}", self.name) }
    }
}

/// What the player does this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// One step (each of `dx`, `dy` in −1..=1); into a monster it attacks, into a closed door it
    /// opens the door.
    Move(i32, i32),
    Wait,
    /// Open the first closed door next to the player.
    Open,
    /// Close the first open door next to the player (if nobody stands in it).
    Close,
    /// Walk to a known cell, one step per turn (see [`travel`]).
    Travel(Cell),
    /// Walk toward the nearest unexplored cell, one step per turn.
    Explore,
    /// The next step of the travel or exploration in progress.
    Continue,
}

/// What happened, in order. Actor numbers index [`World::actors`] (0 is the player).
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Moved {
        actor: usize,
        to: Cell,
    },
    Bumped {
        at: Cell,
    },
    Waited,
    DoorOpened {
        actor: usize,
        at: Cell,
    },
    DoorClosed {
        at: Cell,
    },
    Attacked {
        attacker: usize,
        target: usize,
        damage: i32,
        hp_left: i32,
    },
    Died {
        actor: usize,
    },
    /// A monster saw the player and gave chase.
    Noticed {
        monster: usize,
    },
    /// A monster lost sight of the player and goes to where it last saw them.
    LostSight {
        monster: usize,
    },
    Fled {
        monster: usize,
    },
    /// A monster came into the player's view.
    Spotted {
        monster: usize,
    },
    TravelStarted {
        to: Cell,
        steps: usize,
    },
    TravelReplanned {
        steps: usize,
    },
    TravelBlocked,
    Arrived,
    ExploreInterrupted {
        monster: usize,
    },
    ExploreDone,
    NothingHappens,
    /// The player saw an item for the first time (by index into [`World::items`]).
    ItemSeen {
        item: usize,
    },
    PickedUp {
        item: usize,
    },
}

impl Event {
    /// Whether the message log shows it: everything but steps, which are not news.
    pub fn is_news(&self) -> bool {
        !matches!(self, Event::Moved { .. })
    }
}

/// One line of the message log: an event as the log says it, and how many times in a row it
/// happened (a wall bumped into five times is one line, as DCSS and Brogue fold repeats).
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The turn of the last of them.
    pub turn: u64,
    pub text: String,
    pub times: usize,
}

impl std::fmt::Display for Message {
    /// The text, and `(×N)` after it for a repeat.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)?;
        if self.times > 1 {
            write!(f, " (×{})", self.times)?;
        }
        Ok(())
    }
}

impl World {
    /// The message log's last `limit` lines, oldest first: the events that are news
    /// ([`Event::is_news`]), said ([`World::describe`]), a run of the same line folded into one.
    pub fn messages(&self, limit: usize) -> Vec<Message> {
        let mut lines: Vec<Message> = Vec::new();
        for (turn, event) in self.log.iter().rev().filter(|(_, e)| e.is_news()) {
            let text = self.describe(event);
            if let Some(newer) = lines.last_mut()
                && newer.text == text
            {
                newer.times += 1;
                continue;
            }
            if lines.len() == limit {
                break;
            }
            lines.push(Message { turn: *turn, text, times: 1 });
        }
        lines.reverse();
        lines
    }

    /// An event as the message log says it.
    pub fn describe(&self, event: &Event) -> String {
        let name = |i: usize| if i == 0 { "you".to_owned() } else { self.actors[i].name.clone() };
        match *event {
            Event::Moved { actor: 0, to } => format!("you move to {}, {}", to.x, to.y),
            Event::Moved { actor, to } => format!("{} moves to {}, {}", name(actor), to.x, to.y),
            Event::Bumped { at } => format!("you bump into the wall at {}, {}", at.x, at.y),
            Event::Waited => "you wait".into(),
            Event::DoorOpened { actor: 0, at } => format!("you open the door at {}, {}", at.x, at.y),
            Event::DoorOpened { actor, at } => format!("{} opens the door at {}, {}", name(actor), at.x, at.y),
            Event::DoorClosed { at } => format!("you close the door at {}, {}", at.x, at.y),
            Event::Attacked { attacker: 0, target, damage, hp_left } => {
                format!("you hit {} for {damage} ({hp_left} hp left)", name(target))
            }
            Event::Attacked { attacker, damage, hp_left, .. } => {
                format!("{} hits you for {damage} ({hp_left} hp left)", name(attacker))
            }
            Event::Died { actor: 0 } => "you die".into(),
            Event::Died { actor } => format!("{} dies", name(actor)),
            Event::Noticed { monster } => format!("{} sees you", name(monster)),
            Event::LostSight { monster } => format!("{} lost sight of you and searches", name(monster)),
            Event::Fled { monster } => format!("{} flees", name(monster)),
            Event::Spotted { monster } => format!("you see {}", name(monster)),
            Event::TravelStarted { to, steps } => format!("travelling to {}, {} ({steps} steps)", to.x, to.y),
            Event::TravelReplanned { steps } => format!("the way is blocked: a new route ({steps} steps)"),
            Event::TravelBlocked => "no known way there".into(),
            Event::Arrived => "you arrive".into(),
            Event::ExploreInterrupted { monster } => format!("you stop exploring: {} is in view", name(monster)),
            Event::ExploreDone => "nothing left to explore".into(),
            Event::NothingHappens => "nothing happens".into(),
            Event::ItemSeen { item } => match self.items.get(item) {
                Some(i) => format!("you see {} at {}, {}", i.title(), i.cell.x, i.cell.y),
                None => "you see an item".into(),
            },
            Event::PickedUp { item } => {
                format!("you pick up {}", self.items.get(item).map_or("an item".into(), Item::title))
            }
        }
    }
}

/// What one monster sees and remembers.
#[derive(Clone, Debug)]
struct Perspective {
    visible: VisibleSet,
    memory: Memory,
    /// What `visible` was computed from; `None` once a change near it (a door, a light, an
    /// edit) may have changed it. A monster looks when it acts and again after everyone has
    /// moved; one that has not moved, with nothing changed near it, sees what it saw.
    basis: Option<ViewBasis>,
    /// The turn `memory` last recorded `visible` on; `None` when it has not recorded this view
    /// (computed since, or the memory model changed).
    recorded: Option<u64>,
}

impl Perspective {
    fn new(config: &SimConfig, (width, height): (u32, u32)) -> Self {
        Self {
            visible: VisibleSet::new(width, height),
            memory: Memory::new(config.memory, width, height),
            basis: None,
            recorded: None,
        }
    }
}

/// What a view is computed from, besides the map: the same basis and the same map around it
/// give the same view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ViewBasis {
    origin: Cell,
    vision: u32,
    fov: FovAlgorithm,
    lights: bool,
}

impl ViewBasis {
    /// How far from its origin (on each axis) a change of opacity can change this view or what
    /// its memory records: its own view's radius, or the range it sees lit cells at, and one
    /// more for the cells an FOV reads just past its radius.
    fn reach(self) -> u32 {
        let sight = if self.lights { self.vision.max(lighting::SIGHT_RANGE) } else { self.vision };
        sight.saturating_add(1)
    }

    /// Whether a change of `light`'s light (it moved, or was lit again) can change this view:
    /// the cells it lights are within its radius of it, and this view reads the lit cells
    /// within [`lighting::SIGHT_RANGE`] of its origin, and one step nearer.
    fn reads_light_of(self, light: &Light) -> bool {
        let reach = i64::from(light.radius) + i64::from(lighting::SIGHT_RANGE) + 1;
        self.lights && i64::from(light.cell.chebyshev(self.origin)) <= reach
    }
}

/// What the player is walking toward, turn after turn.
#[derive(Clone, Debug, PartialEq)]
enum Walk {
    Travel { goal: Cell, route: Vec<Cell> },
    Explore,
}

#[derive(Clone)]
pub struct World {
    pub map: Map,
    pub config: SimConfig,
    /// The player first, then the monsters (dead ones stay, with 0 hit points).
    pub actors: Vec<Actor>,
    pub turn: u64,
    pub log: Vec<(u64, Event)>,
    pub memory: Memory,
    pub travel_policy: TravelPolicy,
    /// Per monster (by actor index), where the player last saw it.
    pub last_seen: Vec<Option<Cell>>,
    /// Monsters never act (for scenarios and tests).
    pub frozen_monsters: bool,
    /// Per monster, where it last saw the player.
    last_player_seen_by: Vec<Option<Cell>>,
    /// Per monster, whether the player saw it last turn.
    was_visible: Vec<bool>,
    /// Each monster's own perspective: its view this turn and its memory (index 0, the
    /// player, is unused: the player's are `visible` and `memory`).
    monster_views: Vec<Perspective>,
    /// The map's items, in the order of their objects (entries stay, so events can name them).
    pub items: Vec<Item>,
    /// The map's light objects (the lights monsters and the player carry are in [`World::actors`]).
    fixed_lights: Vec<Light>,
    rng: Rng,
    opacity: OpacityGrid,
    /// Every cell as a memory records it (kept with `opacity`, where the map changes).
    cell_states: CellStates,
    lighting: Lighting,
    visible: VisibleSet,
    /// Scratch space for the far view of [`Lighting::sight`].
    far: VisibleSet,
    walk: Option<Walk>,
    /// Monsters reuse their views while nothing they were computed from changed (always, but
    /// in the tests that compare it with computing every view every time).
    reuse_views: bool,
    /// What entering each cell costs a monster ([`MONSTER_DOORS`]), kept with `opacity`, where
    /// the map changes. A monster's search copies the part it needs ([`SearchWindow`]), rather
    /// than building a grid of the whole map from its layers.
    walk_costs: CostGrid,
    /// This turn's flee maps: one for every monster fleeing the same threat (Brogue's safety
    /// map). Dropped when the turn ends or a door changes.
    flee_maps: Vec<FleeMap>,
}

/// How monsters walk through closed doors: they open them, a turn's cost more.
const MONSTER_DOORS: DoorRule = DoorRule::OpenAtCost(1.0);

/// How far past the box around a monster and its goal its route may go, besides as far again
/// as the goal is (chebyshev): a route that must go further round is not taken, and the monster
/// waits. Searching the whole of a large map for a quarry that other monsters hide behind (a
/// pack in a corridor) took milliseconds a monster a turn.
const ROUTE_MARGIN: i32 = 8;

/// How far from what it flees a flee map reaches (on each axis): twice as far as a lit cell
/// is seen. A monster beyond it is out of harm's way, and stays.
const FLEE_RANGE: i32 = 2 * lighting::SIGHT_RANGE as i32;

/// A part of the walk costs, where a monster's search runs: the cells of a box around what the
/// search is about, in coordinates of their own.
#[derive(Clone, Debug)]
struct SearchWindow {
    /// The map cell of the window's cell (0, 0).
    origin: Cell,
    grid: CostGrid,
}

impl SearchWindow {
    /// The cells within `margin` (on each axis) of the box around `a` and `b`, cut to the map.
    fn around(costs: &CostGrid, a: Cell, b: Cell, margin: i32) -> Self {
        let x0 = (a.x.min(b.x) - margin).max(0);
        let y0 = (a.y.min(b.y) - margin).max(0);
        let x1 = (a.x.max(b.x) + margin).min(costs.width() - 1);
        let y1 = (a.y.max(b.y) + margin).min(costs.height() - 1);
        Self { origin: Cell::new(x0, y0), grid: costs.window(x0, y0, x1 - x0 + 1, y1 - y0 + 1) }
    }

    fn local(&self, c: Cell) -> Cell {
        Cell::new(c.x - self.origin.x, c.y - self.origin.y)
    }

    fn global(&self, c: Cell) -> Cell {
        Cell::new(c.x + self.origin.x, c.y + self.origin.y)
    }

    /// Runs `search` with every living monster of `actors` but `m` in the way, and takes them
    /// out of the way after.
    fn with_others_blocked<R>(&mut self, actors: &[Actor], m: usize, search: impl FnOnce(&Self) -> R) -> R {
        let mut blocked = Vec::new();
        for (i, a) in actors.iter().enumerate().skip(1) {
            let c = self.local(a.cell);
            if i != m && a.alive() && self.grid.index(c.x, c.y).is_some() {
                blocked.push((c, self.grid.cost(c.x, c.y)));
                self.grid.set_cost(c.x, c.y, f32::INFINITY);
            }
        }
        let result = search(self);
        // Last blocked first: two monsters on one cell (an edit can put them there) give it back
        // its own cost, not the other's infinity.
        for &(c, cost) in blocked.iter().rev() {
            self.grid.set_cost(c.x, c.y, cost);
        }
        result
    }
}

/// The flee map away from one threat, over the walk costs within [`FLEE_RANGE`] of it.
#[derive(Clone, Debug)]
struct FleeMap {
    threat: Cell,
    window: SearchWindow,
    away: DijkstraMap,
}

impl World {
    /// A game on `map`: the player at the map's player start (or the first walkable cell), a
    /// monster for each monster object.
    pub fn new(map: &Map, config: SimConfig) -> Option<World> {
        Self::with_sight(map, config, SightSource::Builtin(config.fov))
    }

    /// A game on `map` whose views come from `sight` rather than `config.fov` (an external
    /// algorithm's: then every call that computes a view blocks on it, so the world is run off
    /// any UI thread; [`SightSource::take_error`], on `lighting().source()`, says when it failed).
    pub fn with_sight(map: &Map, config: SimConfig, sight: SightSource) -> Option<World> {
        let placed = placed_start(map);
        let start = start_cell(map)?;
        let mut actors = vec![Actor {
            name: "you".into(),
            glyph: '@',
            cell: start,
            hp: PLAYER_HP,
            max_hp: PLAYER_HP,
            // The player start's `vision`, else the preset's (unlimited: `u32::MAX`).
            vision: placed.and_then(|o| o.player_vision()).or(config.radius).unwrap_or(u32::MAX),
            mind: Mind::Wander,
            object: placed.map_or(0, |o| o.id),
            // The player start's `light`: a torch that goes where the player goes.
            light: placed.and_then(|o| o.carried_light()).unwrap_or(0),
        }];
        for (o, cell) in monster_places(map, start) {
            if let (ObjectKind::Monster { glyph, vision_radius }, Some(cell)) = (&o.kind, cell) {
                let (glyph, vision_radius) = (*glyph, *vision_radius);
                let hp = match o.properties.get("hp") {
                    Some(crate::core::PropertyValue::Int(h)) => (*h).clamp(1, 10_000) as i32,
                    Some(crate::core::PropertyValue::Float(h)) if h.is_finite() => h.clamp(1.0, 10_000.0) as i32,
                    _ => MONSTER_HP,
                };
                let name = if o.name.is_empty() { format!("the {glyph}") } else { format!("the {}", o.name) };
                actors.push(Actor {
                    name,
                    glyph,
                    cell,
                    hp,
                    max_hp: hp,
                    vision: vision_radius,
                    mind: Mind::Wander,
                    object: o.id,
                    light: o.carried_light().unwrap_or(0),
                });
            }
        }
        let (w, h) = (map.width(), map.height());
        let opacity = OpacityGrid::from_map(map);
        let fixed_lights = Lighting::fixed_lights_of(map);
        let lighting = Lighting::with_source(lights_now(&fixed_lights, &actors), sight, &opacity);
        let items =
            map.objects.iter().filter(|o| o.kind == ObjectKind::Item && map.in_bounds(o.cell)).map(Item::of).collect();
        let mut world = World {
            map: map.clone(),
            config,
            last_seen: vec![None; actors.len()],
            last_player_seen_by: vec![None; actors.len()],
            was_visible: vec![false; actors.len()],
            monster_views: vec![Perspective::new(&config, (w, h)); actors.len()],
            actors,
            turn: 0,
            log: Vec::new(),
            memory: Memory::new(config.memory, w, h),
            travel_policy: TravelPolicy::Commit,
            frozen_monsters: false,
            items,
            fixed_lights,
            rng: Rng::new(config.seed),
            opacity,
            cell_states: CellStates::of(map),
            lighting,
            visible: VisibleSet::new(w, h),
            far: VisibleSet::new(w, h),
            walk: None,
            reuse_views: true,
            walk_costs: CostGrid::from_map(map, MONSTER_DOORS),
            flee_maps: Vec::new(),
        };
        // An item at the start is in hand before the first look.
        world.pick_up(start);
        world.look();
        Some(world)
    }

    pub fn player(&self) -> &Actor {
        &self.actors[0]
    }

    pub fn is_over(&self) -> bool {
        !self.player().alive()
    }

    /// The player's view this turn.
    pub fn visible(&self) -> &VisibleSet {
        &self.visible
    }

    pub fn knowledge(&self, c: Cell) -> Knowledge {
        self.knowledge_of(0, c)
    }

    /// The lights and what they light (the map's light objects, and the lights monsters and the player carry).
    pub fn lighting(&self) -> &Lighting {
        &self.lighting
    }

    /// The map's light objects: the lights that stay where they are (scenery, known as the cells
    /// they stand on are; a light a monster carries is not one of them).
    pub fn fixed_lights(&self) -> &[Light] {
        &self.fixed_lights
    }

    /// Whether `c` is lit and the game's lights are on.
    pub fn is_lit(&self, c: Cell) -> bool {
        self.config.lights && self.lighting.is_lit(c)
    }

    /// Whether actor `who` sees `c` lit, by the rule of [`Lighting::sight`] (a wall only on its
    /// lit side), with the game's lights on.
    pub fn lit_for(&self, who: usize, c: Cell) -> bool {
        let Some(actor) = self.actors.get(who) else { return false };
        self.config.lights && self.lighting.lit_as_seen_from(c, actor.cell, &self.opacity)
    }

    /// Turns seeing by light on or off ([`SimConfig::lights`]), and looks again.
    pub fn set_lights(&mut self, on: bool) {
        self.config.lights = on;
        self.look();
    }

    /// The items actor `who` knows to lie on the map, with how: in its view now, or, for the
    /// player, remembered where it saw them (as its memory model keeps cells). Monsters take no
    /// items, so where the player saw one is where it lies.
    pub fn known_items_of(&self, who: usize) -> impl Iterator<Item = (&Item, Knowledge)> + '_ {
        self.items.iter().filter_map(move |i| Some((i, self.item_knowledge(who, i)?)))
    }

    /// How actor `who` knows of `item` lying on the map (see [`World::known_items_of`]); `None`
    /// when it does not, or the item no longer lies there.
    pub fn item_knowledge(&self, who: usize, item: &Item) -> Option<Knowledge> {
        if !item.lying() {
            return None;
        }
        match self.knowledge_of(who, item.cell) {
            Knowledge::Visible => Some(Knowledge::Visible),
            Knowledge::Remembered if who == 0 && item.seen => Some(Knowledge::Remembered),
            _ => None,
        }
    }

    /// How many items the player carries.
    pub fn carried(&self) -> usize {
        self.items.iter().filter(|i| i.taken).count()
    }

    /// What actor `who` knows of a cell: every actor has its own view and memory (the player's
    /// drives the game's display; a monster's can be looked through in the play pane).
    pub fn knowledge_of(&self, who: usize, c: Cell) -> Knowledge {
        let (visible, memory) = self.perspective(who);
        if visible.contains_cell(c) {
            Knowledge::Visible
        } else if memory.knows(c) {
            Knowledge::Remembered
        } else {
            Knowledge::Unknown
        }
    }

    fn perspective(&self, who: usize) -> (&VisibleSet, &Memory) {
        match self.monster_views.get(who) {
            Some(p) if who != 0 => (&p.visible, &p.memory),
            _ => (&self.visible, &self.memory),
        }
    }

    /// The cells actor `who` sees this turn.
    pub fn visible_of(&self, who: usize) -> &VisibleSet {
        self.perspective(who).0
    }

    /// What actor `who` remembers.
    pub fn memory_of(&self, who: usize) -> &Memory {
        self.perspective(who).1
    }

    /// The tile the player believes is at `c`: as it is (visible, or remembered under the
    /// revealed-flag model), as it was last seen (last-seen memory), or nothing (unknown).
    pub fn believed_tile(&self, c: Cell) -> Option<crate::core::TileId> {
        self.believed_tile_of(0, c)
    }

    /// The tile actor `who` believes is at `c` (see [`World::believed_tile`]).
    pub fn believed_tile_of(&self, who: usize, c: Cell) -> Option<crate::core::TileId> {
        match self.knowledge_of(who, c) {
            Knowledge::Unknown => None,
            Knowledge::Visible => self.map.top_tile(c).map(|(_, t)| t),
            Knowledge::Remembered => match self.config.memory {
                MemoryModel::LastSeen => self.memory_of(who).recall(c).map(|r| r.tile),
                MemoryModel::Revealed => self.map.top_tile(c).map(|(_, t)| t),
                MemoryModel::None => None,
            },
        }
    }

    /// What actor `who` believes each layer holds at `c`, bottom to top, as (layer, tile) pairs
    /// of its non-empty cells, for drawing a layered map in play: the tiles there now, except the
    /// topmost, which is [`World::believed_tile_of`] (a door remembered open stays open over the
    /// ground under it). Memory keeps one tile a cell, the one the rules read, so the layers under
    /// it are as they are now: in play only doors change, and a door is its cell's top tile.
    /// Empty when `who` knows nothing of `c`.
    pub fn believed_layers_of(&self, who: usize, c: Cell) -> Vec<(usize, crate::core::TileId)> {
        let (Some(top), Some(i)) = (self.believed_tile_of(who, c), self.map.index(c)) else { return Vec::new() };
        let top_layer = self.map.top_tile(c).map_or(0, |(layer, _)| layer);
        let mut layers: Vec<_> = self.map.layers[..top_layer]
            .iter()
            .enumerate()
            .filter(|(_, l)| l.cells[i] != crate::core::model::tile::EMPTY)
            .map(|(k, l)| (k, l.cells[i]))
            .collect();
        if top != crate::core::model::tile::EMPTY {
            layers.push((top_layer, top));
        }
        layers
    }

    /// Living monsters the player sees now, with their actor numbers.
    pub fn visible_monsters(&self) -> impl Iterator<Item = &Actor> {
        self.actors[1..].iter().filter(|m| m.alive() && self.visible.contains_cell(m.cell))
    }

    /// The living monsters that see the player now (in their views of the last look), by actor
    /// number, each with whether the player sees it back. One the player does not see is a
    /// monster that could attack from the dark: under an asymmetric FOV (shadowcasting) a
    /// monster down a side corridor sees a player who cannot see it.
    pub fn watchers(&self) -> Vec<(usize, bool)> {
        let player = self.player().cell;
        (1..self.actors.len())
            .filter(|&m| self.actors[m].alive() && self.monster_views[m].visible.contains_cell(player))
            .map(|m| (m, self.visible.contains_cell(self.actors[m].cell)))
            .collect()
    }

    /// The living monster standing on `c`, if any (seen or not).
    pub fn monster_at(&self, c: Cell) -> Option<usize> {
        (1..self.actors.len()).find(|&i| self.actors[i].alive() && self.actors[i].cell == c)
    }

    /// Whether the player is travelling or exploring (the UI keeps sending [`Action::Continue`]).
    pub fn walking(&self) -> bool {
        self.walk.is_some()
    }

    /// Stops a travel or exploration in progress.
    pub fn stop_walking(&mut self) {
        self.walk = None;
    }

    /// The remaining route of the travel in progress.
    pub fn route(&self) -> &[Cell] {
        match &self.walk {
            Some(Walk::Travel { route, .. }) => route,
            _ => &[],
        }
    }

    pub fn is_closed_door(&self, c: Cell) -> bool {
        self.map.rules_at(c).door.is_some_and(|(_, t)| self.map.tiles[usize::from(t)].door.is_some_and(|d| !d.open))
    }

    fn is_open_door(&self, c: Cell) -> bool {
        self.map.rules_at(c).door.is_some_and(|(_, t)| self.map.tiles[usize::from(t)].door.is_some_and(|d| d.open))
    }

    fn free(&self, c: Cell) -> bool {
        self.map.rules_at(c).walkable && self.actors.iter().all(|a| !a.alive() || a.cell != c)
    }

    fn emit(&mut self, event: Event) {
        self.log.push((self.turn, event));
    }

    /// The map was edited in the editor, from `before` to `after` (same size): the game goes on
    /// with the cells the edit changed, and keeps its own state elsewhere (doors opened in play
    /// stay open). Actors stay where they are; memory keeps what was seen, which may now be
    /// stale, as memory is (tile ids that no longer exist are forgotten). A map of another size
    /// cannot be carried over: the caller restarts the game.
    pub fn apply_edit(&mut self, before: &Map, after: &Map) {
        debug_assert_eq!((before.width(), before.height()), (after.width(), after.height()));
        if (self.map.width(), self.map.height()) != (after.width(), after.height()) {
            return;
        }
        self.map.tiles = after.tiles.clone();
        if self.map.layers.len() != after.layers.len() || before.layers.len() != after.layers.len() {
            self.map.layers = after.layers.clone();
        } else {
            for (li, layer) in after.layers.iter().enumerate() {
                let old = &before.layers[li];
                let mine = &mut self.map.layers[li];
                mine.visible = layer.visible;
                mine.collision = layer.collision;
                for (i, (&a, &b)) in old.cells.iter().zip(&layer.cells).enumerate() {
                    if a != b || old.flip(i) != layer.flip(i) {
                        mine.set(i, b, layer.flip(i));
                    }
                }
            }
        }
        // A tile id from a tile table that was shortened (an undone "Add a tile type").
        let n = self.map.tiles.len();
        for layer in &mut self.map.layers {
            for t in &mut layer.cells {
                if usize::from(*t) >= n {
                    *t = crate::core::model::tile::EMPTY;
                }
            }
        }
        self.memory.forget_tiles_from(n);
        for p in &mut self.monster_views {
            p.memory.forget_tiles_from(n);
            // Anything may have changed: tiles, rules, visions, lights.
            p.basis = None;
        }
        self.cell_states = CellStates::of(&self.map);
        self.walk_costs = CostGrid::from_map(&self.map, MONSTER_DOORS);
        self.flee_maps.clear();
        let before = std::mem::replace(&mut self.opacity, OpacityGrid::from_map(&self.map));
        // The lights near the cells whose opacity changed are lit again, then the lights follow
        // the edit's objects (a light moved, added or taken away); the others keep their views.
        self.lighting.opacity_changed(&before.changed_cells(&self.opacity), &self.opacity);
        self.fixed_lights = Lighting::fixed_lights_of(after);
        // A light given to (or taken from) a monster or the player start in the editor goes
        // with its actor from now on.
        for actor in &mut self.actors {
            if let Some(o) = after.object_by_id(actor.object).filter(|_| actor.object != 0) {
                actor.light = o.carried_light().unwrap_or(0);
            }
        }
        // And so does a vision given to the player start (or taken back: the preset's).
        if let Some(start) = after.object_by_id(self.actors[0].object).filter(|_| self.actors[0].object != 0) {
            self.actors[0].vision = start.player_vision().or(self.config.radius).unwrap_or(u32::MAX);
        }
        self.relight();
        self.sync_items(after);
        // An item laid under the player is picked up, as stepping there would.
        if !self.is_over() {
            self.pick_up(self.player().cell);
        }
        self.look();
    }

    /// The items after an edit of the map to `after`: each keeps its entry (events name it),
    /// moved where its object now is; those whose object is gone are off the map, new objects
    /// are new items. What the player picked up stays picked up.
    fn sync_items(&mut self, after: &Map) {
        let objects: std::collections::HashMap<u32, &crate::core::MapObject> = after
            .objects
            .iter()
            .filter(|o| o.kind == ObjectKind::Item && after.in_bounds(o.cell))
            .map(|o| (o.id, o))
            .collect();
        for item in &mut self.items {
            match objects.get(&item.object) {
                Some(o) if !item.taken => {
                    if item.cell != o.cell {
                        // Moved by the editor: where the player saw it no longer holds.
                        item.seen = false;
                    }
                    (item.cell, item.name, item.removed) = (o.cell, o.name.clone(), false);
                }
                Some(_) => {}
                None => item.removed = true,
            }
        }
        let known: std::collections::HashSet<u32> = self.items.iter().map(|i| i.object).collect();
        for o in after.objects.iter().filter(|o| objects.contains_key(&o.id) && !known.contains(&o.id)) {
            self.items.push(Item::of(o));
        }
    }

    /// Remembers every cell of the map as it is now, as if explored before (scenarios, and the
    /// play mode's "reveal map").
    pub fn remember_everything(&mut self) {
        let mut all = VisibleSet::new(self.map.width(), self.map.height());
        for i in 0..self.map.len() {
            let c = self.map.cell_at(i);
            all.insert(c.x, c.y);
        }
        self.memory.see(&self.cell_states, &all, self.turn);
        for item in &mut self.items {
            item.seen = true;
        }
    }

    /// Changes how the player remembers, keeping what the game knows so far where it can.
    pub fn set_memory_model(&mut self, model: MemoryModel) {
        self.config.memory = model;
        self.memory.model = model;
        for p in &mut self.monster_views {
            p.memory.model = model;
            p.recorded = None;
        }
        self.look();
    }

    /// Opens or closes a door out of turn (a scenario's or the editor's hand). Everyone sees the
    /// door as it now is at once, as after an edit ([`World::apply_edit`]), not at the next turn.
    pub fn toggle_door(&mut self, c: Cell) -> bool {
        let changed = self.swing_door(c);
        if changed {
            self.look();
        }
        changed
    }

    /// Opens or closes a door within a turn (an actor's hand): the map, its opacity, walk costs,
    /// lights and the views that read it follow; everyone looks again at the turn's end.
    fn swing_door(&mut self, c: Cell) -> bool {
        let changed = self.map.toggle_door(c).is_some();
        if changed {
            // One cell changed: its opacity, by the same rules `OpacityGrid::from_map` reads,
            // and what a memory records of it.
            self.opacity.set(c.x, c.y, self.map.rules_at(c).opaque);
            self.cell_states.refresh(&self.map, c);
            self.walk_costs.refresh_cell(&self.map, c, MONSTER_DOORS);
            self.flee_maps.clear();
            let relit = self.lighting.opacity_changed(&[c], &self.opacity);
            self.views_changed_near(&[c], &relit);
        }
        changed
    }

    /// The player acts; then, if that took a turn, the monsters do. Returns whether a turn passed.
    pub fn act(&mut self, action: Action) -> bool {
        if self.is_over() {
            return false;
        }
        let took_turn = match action {
            Action::Move(dx, dy) => {
                self.walk = None;
                self.step_player(dx.signum(), dy.signum())
            }
            Action::Wait => {
                self.walk = None;
                self.emit(Event::Waited);
                true
            }
            Action::Open => {
                self.walk = None;
                self.door_next_to_player(true)
            }
            Action::Close => {
                self.walk = None;
                self.door_next_to_player(false)
            }
            Action::Travel(goal) => match travel::plan(self, goal) {
                Some(route) if !route.is_empty() => {
                    self.emit(Event::TravelStarted { to: goal, steps: route.len() });
                    self.walk = Some(Walk::Travel { goal, route });
                    self.continue_walk()
                }
                _ => {
                    self.walk = None;
                    self.emit(Event::TravelBlocked);
                    false
                }
            },
            Action::Explore => {
                if self.config.memory == MemoryModel::None {
                    // Without memory nothing stays explored.
                    self.emit(Event::NothingHappens);
                    return false;
                }
                self.walk = Some(Walk::Explore);
                self.continue_walk()
            }
            Action::Continue => self.continue_walk(),
        };
        if took_turn {
            self.end_turn();
        }
        took_turn
    }

    /// One step of the walk in progress.
    fn continue_walk(&mut self) -> bool {
        match self.walk.clone() {
            None => false,
            Some(Walk::Explore) => match travel::explore_step(self) {
                Some(next) => {
                    let (dx, dy) = (next.x - self.player().cell.x, next.y - self.player().cell.y);
                    self.step_player(dx, dy)
                }
                None => {
                    self.walk = None;
                    self.emit(Event::ExploreDone);
                    false
                }
            },
            Some(Walk::Travel { goal, mut route }) => {
                let blocked = |w: &World, c: Cell| {
                    w.monster_at(c).is_some_and(|m| w.visible.contains_cell(w.actors[m].cell) && c != goal)
                        || (w.knowledge(c) == Knowledge::Visible && !w.map.rules_at(c).walkable && !w.is_closed_door(c))
                };
                let must_replan = match self.travel_policy {
                    TravelPolicy::Replan => true,
                    TravelPolicy::Commit => route.first().is_none_or(|&c| blocked(self, c)),
                };
                if must_replan {
                    match travel::plan(self, goal) {
                        Some(r) if !r.is_empty() => {
                            if self.travel_policy == TravelPolicy::Commit || r != route {
                                self.emit(Event::TravelReplanned { steps: r.len() });
                            }
                            route = r;
                        }
                        _ => {
                            self.walk = None;
                            self.emit(Event::TravelBlocked);
                            return false;
                        }
                    }
                }
                let next = route[0];
                let (dx, dy) = (next.x - self.player().cell.x, next.y - self.player().cell.y);
                let before = self.player().cell;
                let took = self.step_player(dx, dy);
                if self.player().cell != before {
                    route.remove(0);
                }
                if route.is_empty() || self.player().cell == goal {
                    self.walk = None;
                    self.emit(Event::Arrived);
                } else if took {
                    self.walk = Some(Walk::Travel { goal, route });
                } else {
                    self.walk = None;
                }
                took
            }
        }
    }

    /// Moves, attacks or opens a door, by what is in the target cell.
    fn step_player(&mut self, dx: i32, dy: i32) -> bool {
        if (dx, dy) == (0, 0) {
            return false;
        }
        let to = Cell::new(self.player().cell.x + dx, self.player().cell.y + dy);
        if let Some(m) = self.monster_at(to) {
            self.attack(0, m);
            return true;
        }
        if self.is_closed_door(to) {
            self.swing_door(to);
            self.emit(Event::DoorOpened { actor: 0, at: to });
            return true;
        }
        if !self.free(to) {
            self.emit(Event::Bumped { at: to });
            return false;
        }
        self.actors[0].cell = to;
        self.emit(Event::Moved { actor: 0, to });
        self.pick_up(to);
        true
    }

    /// The player picks up what lies at `at`.
    fn pick_up(&mut self, at: Cell) {
        for i in 0..self.items.len() {
            if self.items[i].lying() && self.items[i].cell == at {
                (self.items[i].taken, self.items[i].seen) = (true, true);
                self.emit(Event::PickedUp { item: i });
            }
        }
    }

    fn door_next_to_player(&mut self, open: bool) -> bool {
        let p = self.player().cell;
        let around = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)];
        for (dx, dy) in around {
            let c = Cell::new(p.x + dx, p.y + dy);
            if open && self.is_closed_door(c) {
                self.swing_door(c);
                self.emit(Event::DoorOpened { actor: 0, at: c });
                return true;
            }
            if !open && self.is_open_door(c) && self.actors.iter().all(|a| !a.alive() || a.cell != c) {
                self.swing_door(c);
                self.emit(Event::DoorClosed { at: c });
                return true;
            }
        }
        self.emit(Event::NothingHappens);
        false
    }

    fn attack(&mut self, attacker: usize, target: usize) {
        let damage = if attacker == 0 { 2 + self.rng.below(3) as i32 } else { 1 + self.rng.below(2) as i32 };
        let t = &mut self.actors[target];
        t.hp = (t.hp - damage).max(0);
        let hp_left = t.hp;
        self.emit(Event::Attacked { attacker, target, damage, hp_left });
        if hp_left == 0 {
            self.emit(Event::Died { actor: target });
        }
    }

    /// The monsters act, the lights they carry go with them (and go out with them), then the
    /// player looks.
    fn end_turn(&mut self) {
        self.turn += 1;
        self.flee_maps.clear();
        // A carrier the player has just killed is dark before the others look.
        self.relight();
        if !self.frozen_monsters {
            for m in 1..self.actors.len() {
                if self.actors[m].alive() && self.player().alive() {
                    self.monster_turn(m);
                    // The monsters after it see by its light where it now is.
                    if self.actors[m].light > 0 {
                        self.relight();
                    }
                }
            }
        }
        // And those killed this turn are dark.
        self.relight();
        self.look();
    }

    /// The lights carried follow their carriers (the lights that did not move keep their views).
    fn relight(&mut self) {
        let changed = self.lighting.set_lights(lights_now(&self.fixed_lights, &self.actors), &self.opacity);
        self.views_changed_near(&[], &changed);
    }

    /// The cells `cells` changed (their opacity, or what a memory records of them), and the
    /// light of `lights` changed: the monsters' views that can have read them are stale.
    /// (Hauberk's named invalidation events; the player's view is computed every turn.)
    fn views_changed_near(&mut self, cells: &[Cell], lights: &[Light]) {
        if cells.is_empty() && lights.is_empty() {
            return;
        }
        for view in &mut self.monster_views {
            if let Some(basis) = view.basis {
                let reach = i64::from(basis.reach());
                let near = |c: &Cell| i64::from(c.chebyshev(basis.origin)) <= reach;
                if cells.iter().any(near) || lights.iter().any(|l| basis.reads_light_of(l)) {
                    view.basis = None;
                }
            }
        }
    }

    /// Monster `m` looks from where it stands: its view, computed again only when what it was
    /// computed from changed ([`Perspective::basis`]), and recorded in its memory once a turn.
    fn monster_looks(&mut self, m: usize) {
        let actor = &self.actors[m];
        let basis =
            ViewBasis { origin: actor.cell, vision: actor.vision, fov: self.config.fov, lights: self.config.lights };
        let view = &mut self.monster_views[m];
        if !self.reuse_views || view.basis != Some(basis) {
            sight(
                &self.config,
                &self.lighting,
                &self.opacity,
                basis.origin,
                Some(basis.vision),
                &mut view.visible,
                &mut self.far,
            );
            view.basis = Some(basis);
            view.recorded = None;
        }
        match view.recorded {
            Some(turn) if turn == self.turn => {}
            // Recorded on an earlier turn and not computed again since: nothing in it changed.
            Some(_) => view.memory.see_again(&view.visible, self.turn),
            None => view.memory.see(&self.cell_states, &view.visible, self.turn),
        }
        view.recorded = Some(self.turn);
    }

    fn monster_turn(&mut self, m: usize) {
        let here = self.actors[m].cell;
        let player = self.player().cell;
        self.monster_looks(m);
        let sees_player = self.monster_views[m].visible.contains_cell(player);
        let hurt = self.actors[m].hp * 100 < self.actors[m].max_hp * 40;
        let mind = self.actors[m].mind;
        let next_mind = match (sees_player, hurt, mind) {
            (true, true, _) | (false, true, Mind::Flee) => Mind::Flee,
            (true, false, _) => Mind::Chase,
            (false, true, Mind::Chase) => Mind::Flee,
            (false, false, Mind::Chase) => Mind::Investigate(player_last_known(self, m)),
            (false, _, other) => other,
        };
        match (mind, next_mind) {
            (Mind::Flee, Mind::Flee) => {}
            (_, Mind::Flee) => self.emit(Event::Fled { monster: m }),
            (Mind::Chase, Mind::Chase) => {}
            (_, Mind::Chase) => self.emit(Event::Noticed { monster: m }),
            (Mind::Chase, Mind::Investigate(_)) => self.emit(Event::LostSight { monster: m }),
            _ => {}
        }
        self.actors[m].mind = next_mind;
        if sees_player {
            // Where it last saw the player, for when the player slips away.
            self.last_player_seen_by[m] = Some(player);
        }
        match self.actors[m].mind {
            Mind::Chase => {
                if here.chebyshev(player) == 1 {
                    self.attack(m, 0);
                } else if let Some(next) = self.monster_route(m, player) {
                    self.monster_step(m, next);
                }
            }
            Mind::Investigate(target) => {
                if here == target {
                    self.actors[m].mind = Mind::Wander;
                } else if let Some(next) = self.monster_route(m, target) {
                    self.monster_step(m, next);
                } else {
                    self.actors[m].mind = Mind::Wander;
                }
            }
            Mind::Flee => {
                // Away from where it knows the player to be.
                let threat = if sees_player { player } else { player_last_known(self, m) };
                let k = self.flee_map(threat);
                let FleeMap { window, away, .. } = &mut self.flee_maps[k];
                let next = window.with_others_blocked(&self.actors, m, |w| {
                    away.downhill(&w.grid, &MOVES, w.local(here)).map(|c| w.global(c))
                });
                if let Some(next) = next {
                    self.monster_step(m, next);
                }
            }
            Mind::Wander => {
                let dir = self.rng.below(9) as i32;
                let (dx, dy) = (dir % 3 - 1, dir / 3 - 1);
                let to = Cell::new(here.x + dx, here.y + dy);
                if (dx, dy) != (0, 0) && self.free(to) {
                    self.monster_step(m, to);
                }
            }
        }
    }

    /// The first step of a monster's route to `target`: A* on the walk costs around them
    /// ([`ROUTE_MARGIN`]), the other monsters in the way.
    fn monster_route(&self, m: usize, target: Cell) -> Option<Cell> {
        let params =
            SearchParams { algorithm: PathAlgorithm::AStar, rules: MOVES, heuristic: Heuristic::Octile, weight: 1.0 };
        let from = self.actors[m].cell;
        let mut window = SearchWindow::around(&self.walk_costs, from, target, ROUTE_MARGIN + from.chebyshev(target));
        window.with_others_blocked(&self.actors, m, |w| {
            let found = find_path(&w.grid, &params, w.local(from), w.local(target))?;
            found.path.get(1).map(|&c| w.global(c))
        })
    }

    /// The index in [`World::flee_maps`] of the flee map away from `threat`, made if this turn
    /// has none yet: the Dijkstra map of the walk costs within [`FLEE_RANGE`] of `threat`, from
    /// it, times −1.2, relaxed again (Brogue's and Walker's flee map: downhill leads away, around
    /// corners rather than into them). It leaves the monsters out, as Brogue's safety map does;
    /// they are in the way only of the step taken down it.
    fn flee_map(&mut self, threat: Cell) -> usize {
        if let Some(k) = self.flee_maps.iter().position(|f| f.threat == threat) {
            return k;
        }
        let window = SearchWindow::around(&self.walk_costs, threat, threat, FLEE_RANGE);
        let from = window.local(threat);
        let away = DijkstraMap::new(&window.grid, &MOVES, &[(from, 0.0)]).flee(&window.grid, &MOVES, -1.2);
        self.flee_maps.push(FleeMap { threat, window, away });
        self.flee_maps.len() - 1
    }

    fn monster_step(&mut self, m: usize, to: Cell) {
        if self.is_closed_door(to) {
            self.swing_door(to);
            self.emit(Event::DoorOpened { actor: m, at: to });
        } else if self.free(to) {
            self.actors[m].cell = to;
            self.emit(Event::Moved { actor: m, to });
        }
    }

    /// Every perspective's view, recomputed and remembered; monsters coming into the player's
    /// view noticed.
    fn look(&mut self) {
        for m in 1..self.actors.len() {
            if self.actors[m].alive() {
                self.monster_looks(m);
            }
        }
        let (origin, vision) = (self.player().cell, self.player().vision);
        let vision = (vision != u32::MAX).then_some(vision);
        sight(&self.config, &self.lighting, &self.opacity, origin, vision, &mut self.visible, &mut self.far);
        self.memory.see(&self.cell_states, &self.visible, self.turn);
        for i in 0..self.items.len() {
            if self.items[i].lying() && !self.items[i].seen && self.visible.contains_cell(self.items[i].cell) {
                self.items[i].seen = true;
                self.emit(Event::ItemSeen { item: i });
            }
        }
        for m in 1..self.actors.len() {
            let a = &self.actors[m];
            if a.alive() && self.visible.contains_cell(a.cell) {
                self.last_seen[m] = Some(a.cell);
                if !self.was_visible[m] {
                    self.was_visible[m] = true;
                    self.emit(Event::Spotted { monster: m });
                    if matches!(self.walk, Some(Walk::Explore)) {
                        self.walk = None;
                        self.emit(Event::ExploreInterrupted { monster: m });
                    }
                }
            } else {
                self.was_visible[m] = false;
            }
        }
    }
}

/// The lights as they stand: the map's fixed lights, then those the living actors carry, where
/// they are.
fn lights_now(fixed: &[Light], actors: &[Actor]) -> Vec<Light> {
    let carried = actors.iter().filter(|a| a.alive() && a.light > 0);
    fixed.iter().copied().chain(carried.map(|a| Light { object: a.object, cell: a.cell, radius: a.light })).collect()
}

/// What an actor at `origin` with vision radius `vision` sees, into `seen`: by light when the
/// game's lights are on ([`Lighting::sight`]), else its own view. `far` is scratch space.
fn sight(
    config: &SimConfig,
    lighting: &Lighting,
    opacity: &OpacityGrid,
    origin: Cell,
    vision: Option<u32>,
    seen: &mut VisibleSet,
    far: &mut VisibleSet,
) {
    if config.lights {
        lighting.sight(opacity, origin, vision, seen, far);
    } else {
        lighting.source().compute(opacity, FovParams::new(origin, vision), seen);
    }
}

/// The map's player start, when it stands on a walkable cell.
fn placed_start(map: &Map) -> Option<&crate::core::MapObject> {
    map.objects.iter().find(|o| o.kind == ObjectKind::PlayerStart).filter(|o| map.rules_at(o.cell).walkable)
}

/// Where a game on `map` starts the player: its player start, on a walkable cell; else the first
/// walkable cell in reading order; `None` when no cell is walkable.
pub fn start_cell(map: &Map) -> Option<Cell> {
    placed_start(map)
        .map(|o| o.cell)
        .or_else(|| (0..map.len()).map(|i| map.cell_at(i)).find(|&c| map.rules_at(c).walkable))
}

/// Where each monster of `map` stands when play starts with the player at `start`, in the
/// map's order: its cell, or, when that is taken (by the player, or by a monster before it: a
/// duplicated layer's copies, a paste over a monster), the nearest free cell it could walk to;
/// `None` when there is none near, or when it is off the map (as an item there is not in the
/// game either). One actor a cell.
pub fn monster_places(map: &Map, start: Cell) -> Vec<(&crate::core::MapObject, Option<Cell>)> {
    let mut taken = std::collections::HashSet::from([start]);
    let monsters = map.objects.iter().filter(|o| matches!(o.kind, ObjectKind::Monster { .. }));
    monsters
        .map(|o| {
            let cell = if !map.in_bounds(o.cell) {
                None
            } else if taken.contains(&o.cell) {
                nearest_free_cell(map, o.cell, &taken)
            } else {
                Some(o.cell)
            };
            taken.extend(cell);
            (o, cell)
        })
        .collect()
}

/// How far [`nearest_free_cell`] looks, in steps.
const MAKE_ROOM_STEPS: usize = 8;

/// The walkable cell nearest `from` (in steps, as everyone moves; then in reading order) that
/// is not `taken`, within [`MAKE_ROOM_STEPS`]: where a monster placed on a taken cell stands.
fn nearest_free_cell(map: &Map, from: Cell, taken: &std::collections::HashSet<Cell>) -> Option<Cell> {
    let mut seen = std::collections::HashSet::from([from]);
    let mut ring = vec![from];
    for _ in 0..MAKE_ROOM_STEPS {
        let mut next = Vec::new();
        for c in &ring {
            for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)] {
                let n = Cell::new(c.x + dx, c.y + dy);
                if map.in_bounds(n) && map.rules_at(n).walkable && seen.insert(n) {
                    next.push(n);
                }
            }
        }
        next.sort_by_key(|c| (c.y, c.x));
        if let Some(&free) = next.iter().find(|c| !taken.contains(c)) {
            return Some(free);
        }
        ring = next;
    }
    None
}

/// Where monster `m` last saw the player.
fn player_last_known(world: &World, m: usize) -> Cell {
    world.last_player_seen_by[m].unwrap_or(world.player().cell)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::generate;
    use crate::core::model::object::CARRIED_LIGHT;
    use crate::core::model::tile::PropertyValue;
    use crate::core::{MapObject, ObjectKind};

    /// A generated dungeon (doors, lit rooms, items, a few monsters) with more monsters, half of
    /// them carrying torches, of visions short and long (past [`SIGHT_RANGE`]).
    fn crowded_dungeon(seed: u64) -> Map {
        let mut map = generate::dungeon(48, 32, seed).expect("a dungeon");
        let mut rng = Rng::new(seed);
        let floor: Vec<Cell> = (0..map.len()).map(|i| map.cell_at(i)).filter(|&c| map.rules_at(c).walkable).collect();
        for k in 0..12 {
            let cell = floor[rng.below(floor.len() as u32) as usize];
            let vision_radius = [3, 6, 25][k % 3];
            let mut monster = MapObject::new(ObjectKind::Monster { glyph: 'k', vision_radius }, cell);
            if k % 2 == 0 {
                monster.properties.insert(CARRIED_LIGHT.into(), PropertyValue::Int(1 + (k as i64 % 4)));
            }
            map.add_object(monster);
        }
        map
    }

    /// Everything a turn leaves that play shows or the next turn reads (the log compared
    /// separately, as it grows).
    #[derive(PartialEq, Debug)]
    struct State<'w> {
        turn: u64,
        actors: &'w [Actor],
        visible: Vec<Cell>,
        memory: &'w Memory,
        last_player_seen_by: &'w [Option<Cell>],
        lit: Vec<Cell>,
        views: Vec<(Vec<Cell>, &'w Memory)>,
    }

    fn state(w: &World) -> State<'_> {
        State {
            turn: w.turn,
            actors: &w.actors,
            visible: w.visible.iter().collect(),
            memory: &w.memory,
            last_player_seen_by: &w.last_player_seen_by,
            lit: w.lighting.lit().iter().collect(),
            views: w.monster_views.iter().map(|p| (p.visible.iter().collect(), &p.memory)).collect(),
        }
    }

    /// Monsters reusing their views (a view computed again only when a door or a light near it
    /// changed, or the monster moved) play exactly the game of monsters computing every view
    /// every time: random walks, doors opened and closed by everyone and out of turn, torches
    /// carried about, the lights and the memory model switched.
    #[test]
    fn reused_views_play_the_game_fresh_views_play() {
        for seed in 0..6 {
            let map = crowded_dungeon(seed);
            let doors: Vec<Cell> =
                (0..map.len()).map(|i| map.cell_at(i)).filter(|&c| map.rules_at(c).door.is_some()).collect();
            assert!(!doors.is_empty(), "seed {seed}: the dungeon has doors");
            for preset in [Preset::Grass, Preset::Terminus] {
                let config = SimConfig { seed, ..preset.config() };
                let mut reused = World::new(&map, config).expect("a player start");
                let mut fresh = World::new(&map, config).expect("a player start");
                fresh.reuse_views = false;
                // Monsters that live long enough to wander and meet doors.
                for w in [&mut reused, &mut fresh] {
                    w.actors[0].hp = 100_000;
                }
                let mut rng = Rng::new(seed * 31 + 5);
                for step in 0..200 {
                    let roll = rng.below(100);
                    let action = match roll {
                        0..=54 => {
                            let d = rng.below(9) as i32;
                            Action::Move(d % 3 - 1, d / 3 - 1)
                        }
                        55..=64 => Action::Open,
                        65..=72 => Action::Close,
                        73..=79 => Action::Explore,
                        _ => Action::Wait,
                    };
                    for w in [&mut reused, &mut fresh] {
                        match roll {
                            // Out of turn: the editor's hand opens or closes a door anywhere.
                            80..=89 => {
                                w.toggle_door(doors[step % doors.len()]);
                            }
                            90 => w.set_lights(!w.config.lights),
                            91 => w.set_memory_model(MemoryModel::ALL[step % 3]),
                            _ => {
                                w.act(action);
                                while w.walking() && w.turn < 400 {
                                    w.act(Action::Continue);
                                }
                            }
                        }
                    }
                    let at = format!("seed {seed}, {preset:?}, step {step}: {action:?}");
                    assert_eq!(reused.log, fresh.log, "{at}");
                    assert!(state(&reused) == state(&fresh), "{at}");
                    // The monsters' walk costs are kept as the map's would be made now.
                    assert_eq!(reused.walk_costs, CostGrid::from_map(&reused.map, MONSTER_DOORS), "step {step}");
                }
                assert!(reused.turn > 80, "seed {seed}: the game went on ({} turns)", reused.turn);
            }
        }
    }
}
