//! The preview pane and play mode: the game core ([`crate::core::sim`]) on the map being edited,
//! drawn as the player knows it (unknown cells black, remembered ones dim as last seen, visible
//! ones lit, monsters only in view), with Grass's smooth transitions: while the player steps, each
//! cell's brightness moves from the view of the cell left to the view of the cell entered.
//!
//! The game's FOV is the preset's, or one the pane picks: a built-in algorithm, or a registered
//! program. A program's views block, so with one every change to the game (a start, a turn, an
//! edit reaching it) runs on a `Job` over a copy of the world, swapped in when it is done; a
//! program that fails leaves the game as it was before the turn, with its message and a restart.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, Vec2};

use super::View;
use super::algorithms::{FovChoice, fov_choices};
use super::canvas::{
    SpriteBatch, add_flipped_quad, add_flipped_sprite, color, kind_colour, shown_frame, sprite_reach, sprite_rect,
    text_object_ui, tile_sprite,
};
use super::external::{ExtCommand, Externals, Lane, LaneSight};
use super::overlays::job::Job;
use super::sprites::SheetTexture;
use crate::core::ext::ExtError;
use crate::core::model::flip::Flip;
use crate::core::model::object::ShapeKind;
use crate::core::sim::{Action, Item, Knowledge, MemoryModel, Preset, SIGHT_RANGE, SightSource, SimConfig, World};
use crate::core::{Cell, Map, ObjectKind, TileId};

/// Brightness of a remembered cell (Grass: unknown 0, remembered 0.4, visible 1).
pub(crate) const REMEMBERED_ALPHA: f32 = 0.4;

/// The warm wash over a cell seen lit by the map's lights.
const LIGHT_WASH: Color32 = Color32::from_rgba_premultiplied(60, 44, 10, 60);

/// What the UI asks of the game.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayCommand {
    /// Show or hide the preview pane.
    ShowPane(bool),
    /// Play mode on or off: the keyboard drives the game (F5).
    SetActive(bool),
    Act(Action),
    /// Stop a travel or exploration in progress.
    StopWalking,
    Restart,
    SetPreset(Preset),
    SetMemory(MemoryModel),
    RevealMap,
    SetLiveEdits(bool),
    SetGhosts(bool),
    /// Mark the monsters that see the player, those out of the player's view too.
    SetWatchers(bool),
    /// Seeing by the map's lights on or off ([`crate::core::sim::SimConfig::lights`]).
    SetLights(bool),
    /// Length of the smooth transition, in seconds.
    SetTransition(f32),
    /// Look through an actor's eyes (0: the player): its view and its memory.
    SeeAs(usize),
    /// The game's FOV: the preset's (`None`), or another, built in or a program's.
    SetFov(Option<FovChoice>),
}

/// A change to a game whose views come from a program, running on its copy of the world: the
/// world after it, the program's error if it failed (then the copy is dropped), whether a turn
/// passed, and the knowledge before it (for the smooth transition).
type TurnJob = Job<(Option<World>, Option<ExtError>, bool)>;

/// The view from the cell the player left, fading into the view from the cell entered.
struct Transition {
    /// Every cell's knowledge before the turn (0 unknown, 1 remembered, 2 visible).
    from_knowledge: Vec<u8>,
    from_cell: Cell,
    /// Monster positions before the turn, by actor number (for fading and gliding).
    from_monsters: Vec<(Cell, bool)>,
    elapsed: f32,
}

pub struct PlayState {
    pub pane_open: bool,
    pub active: bool,
    pub preset: Preset,
    pub world: Option<World>,
    /// Edits in the editor apply to the running game at once (otherwise on Restart).
    pub(crate) live_edits: bool,
    /// Draw monsters out of view at their last known cell, greyed.
    pub(crate) ghosts: bool,
    /// Mark the monsters that see the player ([`World::watchers`]): a debugging view, as it
    /// shows where unseen monsters are.
    pub watchers: bool,
    /// Lit cells are seen from afar (kept across restarts and presets).
    pub(crate) lights: bool,
    /// Seconds a smooth transition takes.
    pub(crate) transition_seconds: f32,
    /// The map revision the game runs on.
    revision: u64,
    transition: Option<Transition>,
    walk_timer: f32,
    pub view: View,
    pub(crate) hovered: Option<Cell>,
    /// Whose eyes the pane shows (0: the player).
    pub(crate) perspective: usize,
    /// The editor's map as the game last took it (edits are applied as differences from it).
    edited: Option<Map>,
    /// The FOV the pane picked (`None`: the preset's).
    pub fov: Option<FovChoice>,
    /// A program's views: the game's change in progress, and the transition to start after it.
    turn: Option<(TurnJob, Option<Snapshot>)>,
    /// What the program did wrong, last (the game stays as it was before).
    pub error: Option<ExtError>,
}

/// The knowledge and positions before a turn, for the smooth transition.
type Snapshot = (Vec<u8>, Cell, Vec<(Cell, bool)>);

impl Default for PlayState {
    fn default() -> Self {
        Self {
            pane_open: false,
            active: false,
            preset: Preset::Grass,
            world: None,
            live_edits: true,
            ghosts: true,
            watchers: false,
            lights: true,
            transition_seconds: 0.15,
            revision: 0,
            transition: None,
            walk_timer: 0.0,
            view: View { cell_px: 18.0, ..View::default() },
            hovered: None,
            perspective: 0,
            edited: None,
            fov: None,
            turn: None,
            error: None,
        }
    }
}

impl PlayState {
    /// The game's sight: the preset's algorithm, the one picked, or a program's play lane.
    fn sight(&self, externals: &mut Externals) -> SightSource {
        match self.fov {
            None => SightSource::Builtin(self.preset.config().fov),
            Some(FovChoice::Builtin(a)) => SightSource::Builtin(a),
            Some(FovChoice::External(id)) => match externals.client(id, Lane::Play) {
                Some(client) => SightSource::external(std::sync::Arc::new(LaneSight::new(client))),
                None => SightSource::Builtin(self.preset.config().fov),
            },
        }
    }

    fn start(&mut self, map: &Map, revision: u64, externals: &mut Externals) {
        let config = SimConfig { lights: self.lights, ..self.preset.config() };
        let sight = self.sight(externals);
        self.turn = None;
        self.error = None;
        if sight.builtin().is_some() {
            self.world = World::with_sight(map, config, sight);
        } else {
            let map = map.clone();
            let job = Job::spawn(1, move |_| {
                let world = World::with_sight(&map, config, sight.clone());
                let error = sight.take_error();
                (world, error, false)
            });
            self.turn = Some((job, None));
        }
        self.edited = Some(map.clone());
        self.perspective = 0;
        self.revision = revision;
        self.transition = None;
        self.walk_timer = 0.0;
    }

    pub(crate) fn apply(&mut self, command: PlayCommand, map: &Map, revision: u64, externals: &mut Externals) {
        match command {
            PlayCommand::ShowPane(open) => {
                self.pane_open = open;
                if !open {
                    self.active = false;
                }
            }
            PlayCommand::SetActive(on) => {
                self.active = on;
                if on {
                    self.pane_open = true;
                }
            }
            PlayCommand::Act(action) => {
                if self.world.is_none() && self.turn.is_none() {
                    self.start(map, revision, externals);
                }
                self.act(action);
            }
            PlayCommand::StopWalking => {
                if let Some(w) = &mut self.world {
                    w.stop_walking();
                }
            }
            PlayCommand::Restart => self.start(map, revision, externals),
            PlayCommand::SetPreset(p) => {
                self.preset = p;
                self.start(map, revision, externals);
            }
            PlayCommand::SetFov(fov) => {
                self.fov = fov;
                self.start(map, revision, externals);
            }
            PlayCommand::SetMemory(m) => self.change(move |w| {
                w.set_memory_model(m);
                false
            }),
            PlayCommand::RevealMap => {
                if let Some(w) = &mut self.world {
                    w.remember_everything();
                }
            }
            PlayCommand::SetLiveEdits(on) => self.live_edits = on,
            PlayCommand::SetGhosts(on) => self.ghosts = on,
            PlayCommand::SetWatchers(on) => self.watchers = on,
            PlayCommand::SetLights(on) => {
                self.lights = on;
                self.change(move |w| {
                    w.set_lights(on);
                    false
                });
            }
            PlayCommand::SetTransition(s) => self.transition_seconds = s.clamp(0.0, 3.0),
            PlayCommand::SeeAs(who) => self.perspective = who,
        }
    }

    /// Applies `f` to the game: at once with a built-in FOV; with a program's, on a copy of the
    /// world on a job (one at a time: a change asked meanwhile is dropped, as a key pressed while
    /// the game thinks).
    fn change(&mut self, f: impl FnOnce(&mut World) -> bool + Send + 'static) {
        self.change_with(None, f);
    }

    fn change_with(&mut self, before: Option<Snapshot>, f: impl FnOnce(&mut World) -> bool + Send + 'static) {
        if self.turn.is_some() {
            return;
        }
        let Some(world) = &mut self.world else { return };
        if world.lighting().source().builtin().is_some() {
            if f(world)
                && let Some(before) = before
            {
                self.start_transition(before);
            }
            return;
        }
        let mut copy = world.clone();
        let job = Job::spawn(1, move |_| {
            let passed = f(&mut copy);
            let error = copy.lighting().source().take_error();
            (Some(copy), error, passed)
        });
        self.turn = Some((job, before));
    }

    /// Takes a program's finished change: the new world, or its error and the old world.
    fn take_turn(&mut self, answer: (Option<World>, Option<ExtError>, bool), before: Option<Snapshot>) {
        match answer {
            (_, Some(error), _) => self.error = Some(error),
            (world, None, passed) => {
                self.error = None;
                self.world = world;
                if passed && let Some(before) = before {
                    self.start_transition(before);
                }
            }
        }
    }

    fn start_transition(&mut self, (from_knowledge, from_cell, from_monsters): Snapshot) {
        self.transition = Some(Transition { from_knowledge, from_cell, from_monsters, elapsed: 0.0 });
    }

    /// A program's change to the game is in progress.
    pub fn thinking(&self) -> bool {
        self.turn.is_some()
    }

    /// Waits for a program's change in progress (tests, headless runs).
    pub fn wait_turn(&mut self) {
        if let Some((job, before)) = self.turn.take()
            && let Some(answer) = job.wait()
        {
            self.take_turn(answer, before);
        }
    }

    /// Takes the player's action; a turn that passed starts a transition (smooth presets).
    fn act(&mut self, action: Action) {
        let Some(world) = &mut self.world else { return };
        let smooth = world.config.smooth && self.transition_seconds > 0.0;
        let before = smooth.then(|| {
            let from_knowledge = (0..world.map.len())
                .map(|i| match world.knowledge(world.map.cell_at(i)) {
                    Knowledge::Unknown => 0,
                    Knowledge::Remembered => 1,
                    Knowledge::Visible => 2,
                })
                .collect();
            let from_monsters =
                world.actors.iter().map(|a| (a.cell, a.alive() && world.visible().contains_cell(a.cell))).collect();
            (from_knowledge, world.player().cell, from_monsters)
        });
        self.change_with(before, move |w| w.act(action));
    }

    /// Keeps the game on the map being edited, advances transitions and walks (`logic`).
    pub(crate) fn update(&mut self, map: &Map, revision: u64, dt: f32, externals: &mut Externals) {
        if !self.pane_open {
            return;
        }
        if let Some((job, _)) = &self.turn
            && let Some(answer) = job.poll()
        {
            let (_, before) = self.turn.take().expect("polled above");
            self.take_turn(answer, before);
        }
        if self.turn.is_some() {
            // The game thinks (a program answers): it takes the edit when it is done.
            return;
        }
        match &self.world {
            None if self.error.is_none() => self.start(map, revision, externals),
            Some(world) if revision != self.revision && self.live_edits => {
                let same_size = (world.map.width(), world.map.height()) == (map.width(), map.height());
                match self.edited.clone() {
                    // Only the cells the edit changed reach the game (doors opened in play stay).
                    Some(before) if same_size && (before.width(), before.height()) == (map.width(), map.height()) => {
                        let after = map.clone();
                        self.change(move |w| {
                            w.apply_edit(&before, &after);
                            false
                        });
                    }
                    // Resized (or no record of the map the game started on): start over.
                    _ => self.start(map, revision, externals),
                }
                self.revision = revision;
                self.edited = Some(map.clone());
            }
            _ => {}
        }
        if let Some(t) = &mut self.transition {
            t.elapsed += dt;
            if t.elapsed >= self.transition_seconds {
                self.transition = None;
            }
        }
        // A travel or an exploration takes a step each time the last transition has played.
        if self.world.as_ref().is_some_and(World::walking) {
            self.walk_timer += dt;
            let interval = self.step_interval();
            if self.walk_timer >= interval && self.transition.is_none() {
                self.walk_timer = 0.0;
                self.act(Action::Continue);
            }
        } else {
            self.walk_timer = 0.0;
        }
    }

    fn step_interval(&self) -> f32 {
        if self.world.as_ref().is_some_and(|w| w.config.smooth) { self.transition_seconds.max(0.05) } else { 0.06 }
    }

    /// Frames are needed: a transition or a walk is in progress.
    pub(crate) fn busy(&self) -> bool {
        self.pane_open
            && (self.transition.is_some() || self.turn.is_some() || self.world.as_ref().is_some_and(World::walking))
    }

    /// Progress of the transition, 0 to 1 (1: none).
    fn progress(&self) -> f32 {
        self.transition.as_ref().map_or(1.0, |t| smoothstep(t.elapsed / self.transition_seconds.max(1e-3)))
    }

    /// The keys of play mode, as actions (arrows, vi-keys, numpad digits, `.`, `o`, `c`, `x`).
    pub(crate) fn keys_ui(&self, ui: &egui::Ui, commands: &mut Vec<super::Command>) {
        use egui::Key;
        if !self.active || ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        // A focused button (Play, say) would take the arrow keys for focus navigation.
        ui.ctx().memory_mut(|m| {
            if let Some(id) = m.focused() {
                m.surrender_focus(id);
            }
        });
        let moves = [
            (Key::ArrowLeft, (-1, 0)),
            (Key::ArrowRight, (1, 0)),
            (Key::ArrowUp, (0, -1)),
            (Key::ArrowDown, (0, 1)),
            (Key::H, (-1, 0)),
            (Key::L, (1, 0)),
            (Key::K, (0, -1)),
            (Key::J, (0, 1)),
            (Key::Y, (-1, -1)),
            (Key::U, (1, -1)),
            (Key::B, (-1, 1)),
            (Key::N, (1, 1)),
            (Key::Num4, (-1, 0)),
            (Key::Num6, (1, 0)),
            (Key::Num8, (0, -1)),
            (Key::Num2, (0, 1)),
            (Key::Num7, (-1, -1)),
            (Key::Num9, (1, -1)),
            (Key::Num1, (-1, 1)),
            (Key::Num3, (1, 1)),
        ];
        ui.input(|i| {
            if i.modifiers.command || i.modifiers.alt {
                return;
            }
            for (key, (dx, dy)) in moves {
                if i.key_pressed(key) {
                    commands.push(super::Command::Play(PlayCommand::Act(Action::Move(dx, dy))));
                }
            }
            let actions = [
                (Key::Period, Action::Wait),
                (Key::Num5, Action::Wait),
                (Key::O, Action::Open),
                (Key::C, Action::Close),
                (Key::X, Action::Explore),
            ];
            for (key, action) in actions {
                if i.key_pressed(key) {
                    commands.push(super::Command::Play(PlayCommand::Act(action)));
                }
            }
            if i.key_pressed(Key::Escape) {
                commands.push(super::Command::Play(PlayCommand::StopWalking));
            }
        });
    }

    /// The pane: controls, the game as the player knows it, the message log.
    pub(crate) fn pane_ui(
        &mut self,
        ui: &mut egui::Ui,
        commands: &mut Vec<super::Command>,
        images: &TileImages,
        externals: &Externals,
    ) {
        let send = |commands: &mut Vec<super::Command>, c: PlayCommand| commands.push(super::Command::Play(c));
        ui.horizontal_wrapped(|ui| {
            if self.active {
                ui.strong("Playing: the keys move you (F5 stops)");
            } else {
                ui.weak("Preview: F5 or Play (F5) to play");
            }
        });
        ui.horizontal_wrapped(|ui| {
            if ui.button("Restart").clicked() {
                send(commands, PlayCommand::Restart);
            }
            let mut preset = self.preset;
            let options: Vec<(Preset, &str)> = Preset::ALL.iter().map(|&p| (p, p.name())).collect();
            super::overlays::choice_ui(ui, "preset", &mut preset, &options);
            if preset != self.preset {
                send(commands, PlayCommand::SetPreset(preset));
            }
            // The game's FOV: the preset's, or any algorithm, a program's too.
            let mut fov = self.fov;
            let mut options: Vec<(Option<FovChoice>, String)> = vec![(None, "preset's FOV".to_owned())];
            options.extend(fov_choices(externals).into_iter().map(|(c, name)| (Some(c), name)));
            super::algorithms::choice_owned_ui(ui, "play fov", &mut fov, &options);
            if fov != self.fov {
                send(commands, PlayCommand::SetFov(fov));
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, format!("{e} (the game is as it was before)"));
            if let Some(FovChoice::External(id)) = self.fov {
                ui.horizontal(|ui| {
                    if ui.button(format!("Restart {}", externals.name(id))).clicked() {
                        commands.push(super::Command::Overlay(super::OverlayCommand::Ext(ExtCommand::Restart(id))));
                        send(commands, PlayCommand::Restart);
                    }
                    if ui.button("Use the preset's FOV").clicked() {
                        send(commands, PlayCommand::SetFov(None));
                    }
                });
            }
        } else if self.turn.is_some() {
            ui.weak(format!(
                "{} is looking…",
                self.fov.map_or(String::new(), |c| super::algorithms::fov_name(c, externals))
            ));
        }
        let Some(world) = &self.world else {
            ui.label("This map has no walkable cell to start on.");
            return;
        };
        ui.horizontal_wrapped(|ui| {
            let mut memory = world.config.memory;
            let options: Vec<(MemoryModel, &str)> = MemoryModel::ALL.iter().map(|&m| (m, m.label())).collect();
            super::overlays::choice_ui(ui, "memory", &mut memory, &options);
            if memory != world.config.memory {
                send(commands, PlayCommand::SetMemory(memory));
            }
            let mut live = self.live_edits;
            if ui.checkbox(&mut live, "Live edits").on_hover_text("Edits apply to the game at once").changed() {
                send(commands, PlayCommand::SetLiveEdits(live));
            }
            let mut ghosts = self.ghosts;
            if ui
                .checkbox(&mut ghosts, "Ghosts")
                .on_hover_text("Monsters out of view at their last known cell")
                .changed()
            {
                send(commands, PlayCommand::SetGhosts(ghosts));
            }
            let mut watchers = self.watchers;
            if ui
                .checkbox(&mut watchers, "Watchers")
                .on_hover_text(
                    "Ring the monsters that see you, red where you do not see them (seen from the dark, as an \
                     asymmetric FOV allows)",
                )
                .changed()
            {
                send(commands, PlayCommand::SetWatchers(watchers));
            }
            let mut lights = self.lights;
            let lit_hint = if world.lighting().lights().is_empty() {
                "This map has no lights (place one with the object tool)".to_owned()
            } else {
                format!(
                    "Lit cells are seen from up to {SIGHT_RANGE} cells away, by you and by the monsters; off, \
                     everyone sees its own view alone"
                )
            };
            if ui.checkbox(&mut lights, "Lights").on_hover_text(lit_hint).changed() {
                send(commands, PlayCommand::SetLights(lights));
            }
            if ui.button("Reveal map").clicked() {
                send(commands, PlayCommand::RevealMap);
            }
            let mut who = self.perspective;
            let names: Vec<(usize, String)> = world
                .actors
                .iter()
                .enumerate()
                .map(|(i, a)| (i, if i == 0 { "you".to_owned() } else { format!("{} ({})", a.name, a.glyph) }))
                .collect();
            let options: Vec<(usize, &str)> = names.iter().map(|(i, n)| (*i, n.as_str())).collect();
            super::overlays::choice_ui(ui, "see as", &mut who, &options);
            if who != self.perspective {
                send(commands, PlayCommand::SeeAs(who));
            }
        });
        if world.config.smooth {
            let mut seconds = self.transition_seconds;
            if ui.add(egui::Slider::new(&mut seconds, 0.0..=2.0).text("transition s")).changed() {
                send(commands, PlayCommand::SetTransition(seconds));
            }
        }
        let p = world.player();
        ui.horizontal(|ui| {
            ui.strong(format!("turn {}", world.turn));
            ui.separator();
            ui.label(format!("hp {}/{}", p.hp.max(0), p.max_hp));
            ui.separator();
            if !world.items.is_empty() {
                ui.label(format!("items {}", world.carried()));
                ui.separator();
            }
            if p.light > 0 {
                ui.label(format!("torch {}", p.light)).on_hover_text(
                    "The light you carry (the player start's 'light'): it lights around you, and shows you to \
                     monsters that see it",
                );
                ui.separator();
            }
            if self.watchers {
                let watchers = world.watchers();
                let unseen = watchers.iter().filter(|(_, seen)| !seen).count();
                ui.label(format!("seen by {} ({unseen} unseen)", watchers.len()));
                ui.separator();
            }
            ui.label(format!("{} · {} FOV", self.preset.name(), world.lighting().source().name()));
            if world.is_over() {
                ui.separator();
                ui.colored_label(ui.visuals().error_fg_color, "you died: Restart");
            }
        });
        // The message log, newest last.
        let log_height = 6.0 * ui.text_style_height(&egui::TextStyle::Body);
        let canvas_size = ui.available_size() - Vec2::new(0.0, log_height + 8.0);
        let (rect, response) = ui.allocate_exact_size(canvas_size.max(Vec2::splat(50.0)), Sense::click());
        self.canvas_ui(ui, rect, &response, commands, images);
        ui.add_space(4.0);
        egui::ScrollArea::vertical()
            .max_height(log_height)
            .min_scrolled_height(log_height)
            .auto_shrink([false, false])
            .stick_to_bottom(true)
            .show(ui, |ui| {
                let Some(world) = &self.world else { return };
                // The last 50 lines.
                for message in world.messages(50) {
                    ui.label(format!("{:>4}  {message}", message.turn));
                }
            });
    }

    fn canvas_ui(
        &mut self,
        ui: &egui::Ui,
        rect: Rect,
        response: &egui::Response,
        commands: &mut Vec<super::Command>,
        images: &TileImages,
    ) {
        let Some(world) = &self.world else { return };
        let who = if self.perspective < world.actors.len() { self.perspective } else { 0 };
        // Transitions are the player's (a monster's view is shown as it is).
        let transition = self.transition.as_ref().filter(|_| who == 0);
        let t = if transition.is_some() { self.progress() } else { 1.0 };
        // The camera follows whoever we look through, gliding with the player.
        let me = world.actors[who].cell;
        let focus = match transition {
            Some(tr) => lerp_cell(tr.from_cell, me, t),
            None => Vec2::new(me.x as f32, me.y as f32),
        };
        if response.hover_pos().is_some() {
            let zoom = ui.input(|i| i.zoom_delta() * (i.smooth_scroll_delta.y / 200.0).exp());
            if zoom != 1.0 {
                self.view.cell_px = (self.view.cell_px * zoom).clamp(6.0, 64.0);
            }
        }
        self.view.canvas = rect;
        let px = self.view.cell_px;
        self.view.offset = rect.size() / 2.0 - (focus + Vec2::splat(0.5)) * px;
        let view = &self.view;
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, Color32::BLACK);
        let top_left = view.grid_from_screen(rect.min);
        let bottom_right = view.grid_from_screen(rect.max);
        let map = &world.map;
        let mut mesh = egui::Mesh::default();
        let font = FontId::monospace(px * 0.8);
        let mut glyphs = Vec::new();
        // Cells whose believed top tile has an image: drawn layer by layer below, as the canvas
        // draws them, each at its brightness.
        let mut image_cells: Vec<ShownCell> = Vec::new();
        // How bright a cell is drawn, moving from its knowledge before the turn to its knowledge
        // now (`known`).
        let alpha_from = |c: Cell, known: Knowledge| {
            let now = alpha_of(known);
            let before =
                transition.map_or(now, |tr| match tr.from_knowledge.get((c.y * map.width() as i32 + c.x) as usize) {
                    Some(2) => 1.0,
                    Some(1) => REMEMBERED_ALPHA,
                    _ => 0.0,
                });
            before + (now - before) * t
        };
        let alpha_at = |c: Cell| alpha_from(c, world.knowledge_of(who, c));
        // Cells seen lit by the map's lights, washed warm over their tiles.
        let mut light_wash = egui::Mesh::default();
        for y in top_left.y.max(0)..=bottom_right.y.min(map.height() as i32 - 1) {
            for x in top_left.x.max(0)..=bottom_right.x.min(map.width() as i32 - 1) {
                let c = Cell::new(x, y);
                let known = world.knowledge_of(who, c);
                let alpha = alpha_from(c, known);
                if alpha <= 0.01 {
                    continue;
                }
                let Some(top) = world.believed_tile_of(who, c) else { continue };
                if known == Knowledge::Visible && world.lit_for(who, c) {
                    light_wash.add_colored_rect(view.cell_rect(c), LIGHT_WASH.gamma_multiply(alpha));
                }
                if images.shown && tile_sprite(map, images.sheets, top).is_some() {
                    image_cells.push((c, alpha, world.believed_layers_of(who, c)));
                    continue;
                }
                let Some(kind) = map.tiles.get(usize::from(top)) else { continue };
                let r = view.cell_rect(c);
                mesh.add_colored_rect(r, color(kind.glyph.bg).gamma_multiply(alpha));
                if px >= 7.0 && kind.glyph.ch != ' ' {
                    glyphs.push((r.center(), kind.glyph.ch, color(kind.glyph.fg).gamma_multiply(alpha)));
                }
            }
        }
        painter.add(egui::Shape::mesh(mesh));
        if !image_cells.is_empty() {
            let clock_ms = images.animate.then(|| (ui.input(|i| i.time) * 1000.0) as u64);
            if let Some(wait) = tile_images_ui(&painter, map, images.sheets, view, &image_cells, clock_ms) {
                ui.ctx().request_repaint_after(std::time::Duration::from_millis(wait));
            }
        }
        painter.add(egui::Shape::mesh(light_wash));
        for (pos, ch, fg) in glyphs {
            painter.text(pos, Align2::CENTER_CENTER, ch, font.clone(), fg);
        }
        // The map's lights themselves (their tile image, when a tile object), where their cell
        // is known (scenery, remembered as the cell is; a torch shows only as the light around
        // its bearer), then the items known to lie there: in view, or dim where they were seen.
        let on_screen =
            |c: Cell| (top_left.x..=bottom_right.x).contains(&c.x) && (top_left.y..=bottom_right.y).contains(&c.y);
        // An object drawn as a tile in Tiled (a tile object) shows that tile's image, as on the
        // canvas, at its size there, when tile images are shown; any other as its glyph. (Found
        // by id once a frame.)
        let tile_objects: std::collections::HashMap<u32, &crate::core::MapObject> = if images.shown {
            map.objects
                .iter()
                .filter(|o| matches!(o.shape.as_ref().map(|s| &s.kind), Some(ShapeKind::Tile { .. })))
                .map(|o| (o.id, o))
                .collect()
        } else {
            Default::default()
        };
        let image_of = |id: u32| tile_objects.get(&id).and_then(|o| object_image(map, images.sheets, o));
        // The top-left corner of the cell whose centre is `centre`: where an image is placed from.
        let corner_of = |centre: Pos2| centre - Vec2::splat(px / 2.0);
        for light in world.fixed_lights().iter().filter(|l| on_screen(l.cell)) {
            let a = alpha_at(light.cell);
            if a > 0.01 {
                let centre = view.cell_rect(light.cell).center();
                match image_of(light.object) {
                    Some(image) => {
                        draw_image(&painter, map, corner_of(centre), px, &image, Color32::WHITE.gamma_multiply(a))
                    }
                    None => {
                        let colour = kind_colour(&ObjectKind::Light { radius: light.radius });
                        draw_actor(&painter, centre, px, '!', colour.gamma_multiply(a));
                    }
                }
            }
        }
        // Scenery: a tile object that is none of the game's (a statue, a tree), and a text object
        // (a sign, a room's name), drawn as on the canvas and in the map's order, as it draws
        // them. It stays where it is and is known as the cells under it are: drawn as brightly
        // as the brightest of them, so that seeing part of a large one shows it.
        let looks = map.object_looks();
        let [tw, th] = map.tile_size.map(|t| t.max(1) as f32);
        for o in map.objects.iter().filter(|o| o.visible && looks.get(o.layer).is_some_and(|l| l.shown)) {
            let Some(shape) = &o.shape else { continue };
            // How brightly it is drawn (`corners`: where it lies from its cell), if it is known.
            let brightness = |corners: &[[f64; 2]; 4]| {
                let under = cells_under(corners, o.cell, map.tile_size).filter(|&c| map.in_bounds(c));
                let a = under.map(alpha_at).fold(0.0, f32::max);
                (a > 0.01).then(|| a * looks.get(o.layer).map_or(1.0, |l| l.opacity) * o.opacity)
            };
            let corner = view.screen_from_grid(o.cell);
            match &shape.kind {
                ShapeKind::Text { width, text, .. } => {
                    let Some(corners) = shape.text_corners() else { continue };
                    let screen = |[x, y]: [f64; 2]| corner + Vec2::new(x as f32 * px / tw, y as f32 * px / th);
                    let on_screen = corners.map(screen);
                    // Laid out only when it shows (a large map has many).
                    if !Rect::from_points(&on_screen).intersects(rect) {
                        continue;
                    }
                    if let Some(b) = brightness(&corners) {
                        let (degrees, box_width) = (shape.rotation as f32, *width as f32 * px / tw);
                        let alpha = (255.0 * b).round() as u8;
                        text_object_ui(&painter, on_screen, degrees, box_width, px / th, text, alpha);
                    }
                }
                ShapeKind::Tile { .. } if matches!(o.kind, ObjectKind::Other(_)) => {
                    let Some(image) = image_of(o.id) else { continue };
                    if let Some(b) = brightness(&image.corners) {
                        draw_image(&painter, map, corner, px, &image, Color32::WHITE.gamma_multiply(b));
                    }
                }
                _ => {}
            }
        }
        for item in world.items.iter().filter(|i| on_screen(i.cell) && world.item_knowledge(who, i).is_some()) {
            let a = alpha_at(item.cell);
            if a > 0.01 {
                let centre = view.cell_rect(item.cell).center();
                if let Some(image) = image_of(item.object) {
                    draw_image(&painter, map, corner_of(centre), px, &image, Color32::WHITE.gamma_multiply(a));
                } else {
                    let colour = kind_colour(&ObjectKind::Item).gamma_multiply(a);
                    draw_actor(&painter, centre, px, Item::GLYPH, colour);
                }
            }
        }
        // The route of a travel in progress.
        if who == 0 {
            for &c in world.route() {
                painter.circle_filled(
                    view.cell_rect(c).center(),
                    (px * 0.1).max(1.5),
                    Color32::from_rgb(255, 230, 120),
                );
            }
        }
        let screen = |v: Vec2| Pos2::ZERO + (v + Vec2::splat(0.5)) * px + view.canvas.min.to_vec2() + view.offset;
        let sees = |c: Cell| world.visible_of(who).contains_cell(c);
        // Monsters: only in view, fading in and out; ghosts at their last known cell.
        for (i, m) in world.actors.iter().enumerate().skip(1) {
            let seen_now = m.alive() && (i == who || sees(m.cell));
            let (from_cell, seen_before) =
                transition.and_then(|tr| tr.from_monsters.get(i).copied()).unwrap_or((m.cell, seen_now));
            let a = f32::from(u8::from(seen_before)) * (1.0 - t) + f32::from(u8::from(seen_now)) * t;
            let colour = if i == who { Color32::from_rgb(255, 140, 60) } else { Color32::from_rgb(240, 80, 70) };
            if a > 0.01 {
                let centre = screen(lerp_cell(from_cell, m.cell, t));
                match image_of(m.object) {
                    Some(image) => {
                        draw_image(&painter, map, corner_of(centre), px, &image, Color32::WHITE.gamma_multiply(a))
                    }
                    None => draw_actor(&painter, centre, px, m.glyph, colour.gamma_multiply(a)),
                }
            } else if who == 0
                && self.ghosts
                && m.alive()
                && let Some(last) = world.last_seen[i]
            {
                let (centre, grey) = (view.cell_rect(last).center(), Color32::from_gray(120).gamma_multiply(0.6));
                match image_of(m.object) {
                    Some(image) => draw_image(&painter, map, corner_of(centre), px, &image, grey),
                    None => draw_actor(&painter, centre, px, m.glyph, grey),
                }
            }
        }
        // Watchers: a ring round each monster that sees the player, red where the player does
        // not see it.
        if who == 0 && self.watchers {
            for (m, seen) in world.watchers() {
                let centre = view.cell_rect(world.actors[m].cell).center();
                let colour = if seen { Color32::from_rgb(255, 200, 90) } else { Color32::from_rgb(255, 60, 60) };
                painter.circle_stroke(centre, px * 0.62, Stroke::new(2.0, colour));
                if !seen {
                    painter.text(
                        centre,
                        egui::Align2::CENTER_CENTER,
                        "?",
                        egui::FontId::proportional(px * 0.8),
                        colour,
                    );
                }
            }
        }
        // The player: always from their own eyes; from a monster's, only when it sees them.
        let player_at = if who == 0 {
            Some(screen(focus))
        } else {
            sees(world.player().cell).then(|| view.cell_rect(world.player().cell).center())
        };
        if let Some(centre) = player_at {
            match image_of(world.player().object) {
                Some(image) => draw_image(&painter, map, corner_of(centre), px, &image, Color32::WHITE),
                None => draw_actor(&painter, centre, px, '@', Color32::from_rgb(255, 230, 90)),
            }
        }
        if self.active {
            painter.rect_stroke(rect, 0.0, Stroke::new(2.0, Color32::from_rgb(255, 230, 90)), egui::StrokeKind::Inside);
        }
        // Hover: what this perspective knows of the cell, and no more.
        self.hovered = response.hover_pos().map(|p| view.grid_from_screen(p)).filter(|c| map.in_bounds(*c));
        if let Some(c) = self.hovered {
            painter.rect_stroke(view.cell_rect(c), 0.0, Stroke::new(1.0, Color32::WHITE), egui::StrokeKind::Inside);
            response.clone().on_hover_text_at_pointer(knowledge_text(world, who, c));
        }
        if response.clicked()
            && who == 0
            && let Some(c) = self.hovered
        {
            commands.push(super::Command::Play(PlayCommand::Act(Action::Travel(c))));
        }
    }
}

/// What actor `who` knows of a cell, in words: the tile, a light there, an item known to lie
/// there, whether it is lit (in view), a monster there (in view).
pub(crate) fn knowledge_text(world: &World, who: usize, c: Cell) -> String {
    let mut text = tile_knowledge_text(world, who, c);
    if world.knowledge_of(who, c) == Knowledge::Unknown {
        return text;
    }
    if let Some(light) = world.fixed_lights().iter().find(|l| l.cell == c) {
        text += &format!(", a light (radius {})", light.radius);
    }
    for (item, _) in world.known_items_of(who).filter(|(i, _)| i.cell == c) {
        text += &format!(", {}", item.title());
    }
    // Scenery standing there (drawn in play: a tile object of no game class, a text).
    let looks = world.map.object_looks();
    let shown = |o: &&crate::core::MapObject| o.visible && looks.get(o.layer).is_some_and(|l| l.shown);
    for o in world.map.objects.iter().filter(|o| o.cell == c && matches!(o.kind, ObjectKind::Other(_))).filter(shown) {
        match o.shape.as_ref().map(|s| &s.kind) {
            Some(ShapeKind::Text { text: t, .. }) => text += &format!(", a text \"{}\"", t.text.trim()),
            Some(ShapeKind::Tile { tile, .. }) => {
                let tile_name = world.map.tiles.get(usize::from(*tile)).map_or("", |t| t.name.as_str());
                let name = if o.name.is_empty() { tile_name } else { o.name.as_str() };
                text += &format!(", {}", if name.is_empty() { "scenery" } else { name });
            }
            _ => {}
        }
    }
    if world.knowledge_of(who, c) == Knowledge::Visible && world.lit_for(who, c) {
        text += ", lit";
    }
    text
}

/// What actor `who` knows of a cell's tile (and a monster in view there), in words.
fn tile_knowledge_text(world: &World, who: usize, c: Cell) -> String {
    let tile_name = |t: crate::core::TileId| world.map.tiles.get(usize::from(t)).map_or("?".into(), |k| k.name.clone());
    match world.knowledge_of(who, c) {
        Knowledge::Unknown => format!("{}, {}: unknown", c.x, c.y),
        Knowledge::Remembered => {
            let seen = world.memory_of(who).recall(c).map(|r| r.turn);
            let name = world.believed_tile_of(who, c).map_or("nothing".into(), tile_name);
            match (world.config.memory, seen) {
                (MemoryModel::LastSeen, Some(turn)) => {
                    format!("{}, {}: {name}, remembered as last seen on turn {turn}", c.x, c.y)
                }
                _ => format!("{}, {}: {name}, explored", c.x, c.y),
            }
        }
        Knowledge::Visible => {
            let name = world.believed_tile_of(who, c).map_or("nothing".into(), tile_name);
            let seen = world.visible_of(who);
            let actor = world
                .actors
                .iter()
                .enumerate()
                .find(|(i, a)| a.alive() && a.cell == c && *i != who && seen.contains_cell(a.cell));
            match actor {
                Some((_, a)) => {
                    let light =
                        if a.light > 0 { format!(", carrying a light (radius {})", a.light) } else { String::new() };
                    format!("{}, {}: {name}, {} ({} hp){light}", c.x, c.y, a.name, a.hp)
                }
                None if c == world.actors[who].cell && world.actors[who].light > 0 => {
                    format!("{}, {}: {name}, carrying a light (radius {})", c.x, c.y, world.actors[who].light)
                }
                None => format!("{}, {}: {name}, in view", c.x, c.y),
            }
        }
    }
}

fn alpha_of(k: Knowledge) -> f32 {
    match k {
        Knowledge::Unknown => 0.0,
        Knowledge::Remembered => REMEMBERED_ALPHA,
        Knowledge::Visible => 1.0,
    }
}

fn smoothstep(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

fn lerp_cell(a: Cell, b: Cell, t: f32) -> Vec2 {
    Vec2::new(a.x as f32 + (b.x - a.x) as f32 * t, a.y as f32 + (b.y - a.y) as f32 * t)
}

/// A cell of the game drawn with images: where, how bright (1 in view, dimmer remembered), and
/// the tiles its layers are believed to hold, as (layer, tile).
type ShownCell = (Cell, f32, Vec<(usize, TileId)>);

/// The map's tile images as the canvas has them, so the game is drawn as the map looks.
pub(crate) struct TileImages<'a> {
    /// The tileset images' textures, by sheet (`None`: not loaded).
    pub(crate) sheets: &'a [Option<SheetTexture>],
    /// View › Tile images: when off, every tile shows as its glyph, as on the canvas.
    pub(crate) shown: bool,
    /// View › Tile animations.
    pub(crate) animate: bool,
}

/// Draws `cells` (each with its brightness and the tiles its layers are believed to hold) layer
/// by layer, bottom to top, as the canvas draws a map: image tiles from their tileset, glyph
/// tiles as their background; a dim cell is its images darkened, not see-through, so the layers
/// stay solid. Hidden layers are left out; a layer's opacity and tint apply. Returns in how
/// many milliseconds an animated tile shown changes frame, when one does.
fn tile_images_ui(
    painter: &egui::Painter,
    map: &Map,
    sheets: &[Option<SheetTexture>],
    view: &View,
    cells: &[ShownCell],
    clock_ms: Option<u64>,
) -> Option<u64> {
    let mut next_frame_in: Option<u64> = None;
    let overlap = sprite_reach(map) > 0;
    for (li, (layer, look)) in map.layers.iter().zip(map.tile_looks()).enumerate() {
        if !look.shown {
            continue;
        }
        let mut plain = egui::Mesh::default();
        let mut sprites = SpriteBatch::new(sheets, overlap);
        let tint = look.tint.map_or([1.0; 4], |t| [t.0, t.1, t.2, t.3].map(|v| f32::from(v) / 255.0));
        // The layer's offset (its groups' added) moves its images, as on the canvas.
        let shift = super::canvas::look_shift(map, view, &look);
        for (c, alpha, layers) in cells {
            let Some(&(_, tile)) = layers.iter().find(|(l, _)| *l == li) else { continue };
            let tile = shown_frame(map, tile, clock_ms, &mut next_frame_in);
            let Some((s, _, uv)) = tile_sprite(map, sheets, tile) else {
                let bg = map.tiles.get(usize::from(tile)).map_or(Color32::BLACK, |k| color(k.glyph.bg));
                plain.add_colored_rect(view.cell_rect(*c).translate(shift), bg.gamma_multiply(alpha * look.opacity));
                continue;
            };
            // Darkened by the brightness (colour only), see-through by the layer's opacity.
            let (v, a) = (alpha * look.opacity, look.opacity * tint[3]);
            let channel = |k: usize| (255.0 * v * tint[k] * tint[3]).round() as u8;
            let shade = Color32::from_rgba_premultiplied(channel(0), channel(1), channel(2), (255.0 * a).round() as u8);
            let r = sprite_rect(map, &map.sheets[s], view, *c).translate(shift);
            let flip = map.index(*c).map_or(Flip::default(), |i| layer.flip(i));
            add_flipped_sprite(sprites.mesh(s), r, uv, flip, shade);
        }
        painter.add(egui::Shape::mesh(plain));
        sprites.paint(painter);
    }
    next_frame_in
}

/// A tile object's image: its texture, where in it, how the object flips it, and its corners
/// (top left, top right, bottom left, bottom right) in map pixels from its cell's top-left
/// corner, as the canvas places them (`ObjectShape::tile_corners`: its size in Tiled, its
/// tileset's alignment and offset, its rotation).
#[derive(Clone, Copy, Debug, PartialEq)]
struct ObjectImage {
    texture: egui::TextureId,
    uv: Rect,
    flip: Flip,
    corners: [[f64; 2]; 4],
}

/// The image of `object` when it is a tile object whose tile has one (loaded).
fn object_image(map: &Map, sheets: &[Option<SheetTexture>], object: &crate::core::MapObject) -> Option<ObjectImage> {
    let shape = object.shape.as_ref()?;
    let ShapeKind::Tile { tile, flip, .. } = &shape.kind else { return None };
    let (s, texture, uv) = tile_sprite(map, sheets, *tile)?;
    let sheet = &map.sheets[s];
    let image = [f64::from(sheet.tile_width), f64::from(sheet.tile_height)];
    let corners = shape.tile_corners(&sheet.drawing, image, sheet.offset.map(f64::from))?;
    Some(ObjectImage { texture: texture.id, uv, flip: *flip, corners })
}

/// The cells that `corners` (map pixels from `cell`'s top-left corner: a tile object's image, a
/// text's box) cover: their bounding box's, an edge on a cell's border taking in no more;
/// `tile_size` map pixels a cell.
fn cells_under(corners: &[[f64; 2]; 4], cell: Cell, tile_size: [u32; 2]) -> impl Iterator<Item = Cell> {
    let [tw, th] = tile_size.map(|t| f64::from(t.max(1)));
    let span = |along: [f64; 4], from: i32| {
        let (lo, hi) = along.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        let first = lo.floor() as i32;
        (from + first)..=(from + (hi.ceil() as i32 - 1).max(first))
    };
    let xs = span(corners.map(|p| p[0] / tw), cell.x);
    span(corners.map(|p| p[1] / th), cell.y).flat_map(move |y| xs.clone().map(move |x| Cell::new(x, y)))
}

/// An object's tile image placed from its cell's top-left corner at `corner` on screen, at
/// `px` screen pixels a cell, tinted (`tint`'s alpha: how bright).
fn draw_image(painter: &egui::Painter, map: &Map, corner: Pos2, px: f32, image: &ObjectImage, tint: Color32) {
    let [tw, th] = map.tile_size.map(|t| t.max(1) as f32);
    let screen = |[x, y]: [f64; 2]| corner + Vec2::new(x as f32 * px / tw, y as f32 * px / th);
    let mut mesh = egui::Mesh::with_texture(image.texture);
    add_flipped_quad(&mut mesh, image.corners.map(screen), image.uv, image.flip, tint);
    painter.add(egui::Shape::mesh(mesh));
}

fn draw_actor(painter: &egui::Painter, centre: Pos2, px: f32, glyph: char, colour: Color32) {
    let r = Rect::from_center_size(centre, Vec2::splat(px));
    painter.rect_filled(
        r.shrink(px * 0.05),
        px * 0.2,
        Color32::from_black_alpha((200.0 * colour.a() as f32 / 255.0) as u8),
    );
    painter.text(centre, Align2::CENTER_CENTER, glyph, FontId::monospace(px * 0.8), colour);
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::core::Layer;
    use crate::core::model::sheet::SpriteSheet;
    use crate::core::model::tile::{Rgb, Sprite, TileKind};

    /// A monster, item or player start placed as a tile object in Tiled is drawn in play as its
    /// tile's image, flipped as the object is; any other object (or a tile without an image)
    /// keeps its glyph.
    #[test]
    fn a_tile_object_shows_its_tiles_image_in_play() {
        use crate::core::MapObject;
        use crate::core::model::object::ObjectShape;
        let black = Rgb(0, 0, 0);
        let kinds = vec![
            TileKind::new("floor", '.', black, black, false, true),
            TileKind::new("orc", 'o', black, black, false, true),
            TileKind::new("plain", 'p', black, black, false, true),
        ];
        let mut map = Map::new(3, 1, kinds, 1).unwrap();
        map.sheets.push(SpriteSheet::new("monsters", "monsters.png", [8, 8], 2, 1));
        map.tiles[1].sprite = Some(Sprite { sheet: 0, index: 1 });
        let texture = egui::TextureId::Managed(9);
        let sheets = [Some(SheetTexture { id: texture, size: [16.0, 8.0], tile_colours: Arc::new(Vec::new()) })];
        let tile_object = |tile: TileId, flip: Flip| {
            let mut o = MapObject::new(ObjectKind::Monster { glyph: 'o', vision_radius: 4 }, Cell::new(0, 0));
            let kind = ShapeKind::Tile { tile, flip, width: 8.0, height: 8.0 };
            o.shape = Some(ObjectShape { offset: [0.0, 8.0], rotation: 0.0, kind });
            o
        };
        let flip = Flip::HORIZONTAL;
        let orc = map.add_object(tile_object(1, flip));
        let plain = map.add_object(tile_object(2, Flip::default()));
        let marker = map.add_object(MapObject::new(ObjectKind::Item, Cell::new(2, 0)));
        let object = |id: u32| map.object_by_id(id).unwrap();
        let image = object_image(&map, &sheets, object(orc)).expect("the orc's tile has an image");
        assert_eq!((image.texture, image.flip), (texture, flip));
        assert_eq!(image.uv, tile_sprite(&map, &sheets, 1).unwrap().2, "as the canvas draws the tile");
        assert!(image.uv.min.x >= 0.5, "the sheet's second tile");
        assert_eq!(image.corners, [[0.0, 0.0], [8.0, 0.0], [0.0, 8.0], [8.0, 8.0]], "its cell, from the bottom left");
        assert_eq!(cells_under(&image.corners, Cell::new(0, 0), [8, 8]).collect::<Vec<_>>(), [Cell::new(0, 0)]);
        // At its size in Tiled: twice the cell's, up and right from its cell's bottom left.
        let mut big = tile_object(1, Flip::default());
        big.cell = Cell::new(1, 1);
        big.shape = Some(ObjectShape {
            offset: [0.0, 8.0],
            rotation: 0.0,
            kind: ShapeKind::Tile { tile: 1, flip: Flip::default(), width: 16.0, height: 16.0 },
        });
        let image = object_image(&map, &sheets, &big).unwrap();
        assert_eq!(image.corners, [[0.0, -8.0], [16.0, -8.0], [0.0, 8.0], [16.0, 8.0]]);
        let under: Vec<Cell> = cells_under(&image.corners, big.cell, [8, 8]).collect();
        assert_eq!(under, [Cell::new(1, 0), Cell::new(2, 0), Cell::new(1, 1), Cell::new(2, 1)]);
        assert!(object_image(&map, &sheets, object(plain)).is_none(), "a tile without an image");
        assert!(object_image(&map, &sheets, object(marker)).is_none(), "a marker, not a tile object");
        assert!(object_image(&map, &[None], object(orc)).is_none(), "its sheet not loaded");
    }

    /// The hover names the scenery on a known cell (a sign's text, a tile object's name or its
    /// tile's), not on an unknown one.
    #[test]
    fn the_hover_names_the_scenery_on_a_known_cell() {
        use crate::core::model::object::{ObjectShape, ObjectText};
        use crate::core::{MapObject, format::ascii};
        let mut map = ascii::parse("#####\n#@..#\n#####\n#...#\n#####\n").unwrap();
        let mut sign = MapObject::new(ObjectKind::Other(String::new()), Cell::new(3, 1));
        let text = Box::new(ObjectText::new("Camp"));
        sign.shape = Some(ObjectShape {
            offset: [0.0, 0.0],
            rotation: 0.0,
            kind: ShapeKind::Text { width: 20.0, height: 8.0, text },
        });
        map.add_object(sign.clone());
        let mut statue = sign.clone().named("statue");
        statue.shape = Some(ObjectShape {
            offset: [0.0, 8.0],
            rotation: 0.0,
            kind: ShapeKind::Tile { tile: 1, flip: Flip::default(), width: 8.0, height: 8.0 },
        });
        statue.cell = Cell::new(2, 1);
        map.add_object(statue.clone());
        // Behind the wall, never seen.
        sign.cell = Cell::new(2, 3);
        map.add_object(sign);
        let world = World::new(&map, Preset::Grass.config()).unwrap();
        assert!(knowledge_text(&world, 0, Cell::new(3, 1)).ends_with(", a text \"Camp\""));
        assert!(knowledge_text(&world, 0, Cell::new(2, 1)).ends_with(", statue"));
        assert_eq!(knowledge_text(&world, 0, Cell::new(2, 3)), "2, 3: unknown");
    }

    #[test]
    fn image_tiles_are_drawn_layer_by_layer_and_a_dim_cell_is_darkened_not_see_through() {
        let black = Rgb(0, 0, 0);
        let kinds = vec![
            TileKind::new("empty", ' ', black, black, false, true),
            TileKind::new("grass", '.', black, Rgb(20, 90, 20), false, true),
            TileKind::new("tree", 'T', black, Rgb(10, 60, 10), true, false),
        ];
        let mut map = Map::new(2, 1, kinds, 1).unwrap();
        map.tile_size = [8, 8];
        map.sheets.push(SpriteSheet::new("outdoor", "outdoor.png", [8, 8], 2, 2));
        map.tiles[1].sprite = Some(Sprite { sheet: 0, index: 0 });
        map.tiles[2].sprite = Some(Sprite { sheet: 0, index: 1 });
        map.layers.push(Layer::with_cells("trees", vec![2, 0]));
        let mut hidden = Layer::with_cells("hidden", vec![2, 2]);
        hidden.visible = false;
        map.layers.push(hidden);
        let texture = egui::TextureId::Managed(7);
        let sheets = [Some(SheetTexture { id: texture, size: [16.0, 8.0], tile_colours: Arc::new(Vec::new()) })];
        let view =
            View { cell_px: 8.0, canvas: Rect::from_min_size(Pos2::ZERO, Vec2::splat(100.0)), ..View::default() };
        // Cell 0 in view: grass under a tree. Cell 1 remembered: grass. The hidden layer's trees
        // are on both, and drawn on neither.
        let cells = vec![
            (Cell::new(0, 0), 1.0, vec![(0, 1), (1, 2), (2, 2)]),
            (Cell::new(1, 0), REMEMBERED_ALPHA, vec![(0, 1), (2, 2)]),
        ];
        let draw = |map: &Map| {
            let ctx = egui::Context::default();
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                tile_images_ui(ui.painter(), map, &sheets, &view, &cells, None);
            });
            // No renderer here to take the font atlas.
            output.textures_delta.clear();
            // One mesh a layer with images, in layer order; each quad's first vertex tells its
            // place and shade.
            output
                .shapes
                .iter()
                .filter_map(|s| match &s.shape {
                    egui::Shape::Mesh(m) if m.texture_id == texture => {
                        Some(m.vertices.chunks(4).map(|q| (q[0].pos.x, q[0].color)).collect::<Vec<_>>())
                    }
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        let dim = (255.0 * REMEMBERED_ALPHA).round() as u8;
        assert_eq!(
            draw(&map),
            [
                vec![(0.0, Color32::WHITE), (8.0, Color32::from_rgba_premultiplied(dim, dim, dim, 255))],
                vec![(0.0, Color32::WHITE)],
            ]
        );
        // The trees in a group moved 4 pixels right (half a cell) are drawn there.
        crate::core::model::layers::group_item(
            &mut map,
            crate::core::StackItem::Layer(crate::core::LayerRef::Tiles(1)),
            "g",
        )
        .unwrap();
        map.groups[0].offset = [4.0, 0.0];
        assert_eq!(draw(&map)[1], [(4.0, Color32::WHITE)]);
    }
}
