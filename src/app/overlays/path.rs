//! The pathfinding overlay: two searches on the same map, side by side or overlaid, replayed
//! step by step from their [`Trace`]s; or a Dijkstra map (several sources, optionally a flee map)
//! as a heatmap with the downhill route from the goal marker.

use std::time::Instant;

use egui::{Color32, Painter, Stroke, Vec2};

use super::job::Job;
use super::{Frame, LegendEntry, Overlay, OverlayCommand, choice_ui, heat_colour, legend_ui, with_alpha};
use crate::app::algorithms::{PathChoice, path_choices};
use crate::app::canvas::VisibleCells;
use crate::app::external::{ExtCommand, ExtId, Externals, Lane, MapData};
use crate::app::{Command, View};
use crate::core::ext::{ExtError, ExtPath};
use crate::core::path::trace::Recorder as _;
use crate::core::path::dijkstra_map::DijkstraMap;
use crate::core::path::search::Searcher;
use crate::core::path::{
    Algorithm, CellState, CostGrid, DiagonalLength, DiagonalPolicy, DoorRule, Heuristic, Moves, PathResult,
    SearchParams, SearchState, Trace,
};
use crate::core::{Cell, Map};

/// What the overlay shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathMode {
    /// Two searches from the start marker to the goal marker.
    Compare,
    /// The cost to the nearest source from every cell.
    DijkstraMap,
}

/// The two markers the user drags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Start,
    Goal,
}

/// Everything the user sets in the overlay's panel.
#[derive(Clone, Debug, PartialEq)]
pub struct PathSettings {
    pub mode: PathMode,
    /// Side A and side B.
    pub(crate) sides: [SearchParams; 2],
    /// A side that is an external program's search (its moves and diagonals are still `sides`').
    pub(crate) external: [Option<ExtId>; 2],
    pub(crate) doors: DoorRule,
    /// Two canvases with synchronised pan and zoom, or both searches over one map.
    pub split: bool,
    pub(crate) show_closed: bool,
    pub(crate) show_frontier: bool,
    pub(crate) show_arrows: bool,
    /// Colour explored cells by their cost from the start instead of by state.
    pub show_heat: bool,
    /// Dijkstra-map mode: turn the map into a flee map (× −1.2, relaxed again).
    pub flee: bool,
    pub(crate) opacity: f32,
}

impl Default for PathSettings {
    fn default() -> Self {
        let astar = SearchParams::default();
        Self {
            mode: PathMode::Compare,
            sides: [SearchParams { algorithm: Algorithm::Dijkstra, ..astar }, astar],
            external: [None, None],
            // Closed doors open (at a cost) by default: on a dungeon of closed rooms, a search that
            // stops at every door shows little.
            doors: DoorRule::OpenAtCost(2.0),
            split: true,
            show_closed: true,
            show_frontier: true,
            show_arrows: true,
            show_heat: false,
            flee: false,
            opacity: 0.8,
        }
    }
}

impl PathSettings {
    /// The settings the searches depend on (not how they are drawn).
    fn search_key(&self) -> SearchKey {
        (self.mode, self.sides, self.doors, self.flee, self.external)
    }

    /// What side `k` runs.
    pub(crate) fn choice(&self, k: usize) -> PathChoice {
        self.external[k].map_or(PathChoice::Builtin(self.sides[k].algorithm), PathChoice::External)
    }
}

/// A program's path and the round trip's time, in µs.
type PathJob = Job<(Result<ExtPath, ExtError>, f64)>;

type SearchKey = (PathMode, [SearchParams; 2], DoorRule, bool, [Option<ExtId>; 2]);

/// One search, replayable.
pub struct SideResult {
    pub params: SearchParams,
    /// The search's name (a program's, for an external side).
    pub(crate) name: String,
    /// An external side: waiting for its answer, or what went wrong.
    pub(crate) external: Option<ExternalSide>,
    /// `None`: no path.
    pub outcome: Option<PathResult>,
    /// Time of the same search without recording, in µs.
    pub(crate) micros: f64,
    trace: Trace,
    /// The state after the overlay's current step.
    state: SearchState,
    /// Largest finite g in the final state (scales the heatmap).
    max_g: f64,
}

impl SideResult {
    pub fn steps(&self) -> u32 {
        self.trace.steps()
    }

    pub fn state(&self) -> &SearchState {
        &self.state
    }
}

/// What an external side is at.
pub(crate) enum ExternalSide {
    Waiting,
    Answered { expanded_told: bool },
    Failed(ExtError),
}

/// A Dijkstra map and the downhill walk from the goal marker.
pub struct DijkstraView {
    pub values: DijkstraMap,
    pub route: Vec<Cell>,
    pub(crate) micros: f64,
    pub(crate) reachable: usize,
    range: (f64, f64),
}

pub struct PathOverlay {
    pub(crate) on: bool,
    pub settings: PathSettings,
    pub start: Option<Cell>,
    pub goal: Option<Cell>,
    /// Dijkstra-map sources.
    pub sources: Vec<Cell>,
    /// The step both sides are shown after (each side stops at its own last step).
    pub step: u32,
    pub(crate) playing: bool,
    /// Playback speed, in steps per second.
    pub(crate) speed: f32,
    step_fraction: f32,
    /// The marker a drag is moving (UI state between frames).
    pub dragging: Option<Marker>,
    pub sides: Option<[SideResult; 2]>,
    pub dijkstra: Option<DijkstraView>,
    key: Option<PathKey>,
    job: Option<(PathKey, Job<Computed>)>,
    /// The external sides' requests, for the result of `key`.
    asked: [Option<PathJob>; 2],
    /// The registry's epoch the external sides were asked in (a restart asks again).
    epoch: u64,
}

/// What a result depends on: the map's revision, the search settings, the markers.
type PathKey = (u64, SearchKey, Placement);

/// The markers.
#[derive(Clone, Debug, PartialEq)]
struct Placement {
    start: Option<Cell>,
    goal: Option<Cell>,
    sources: Vec<Cell>,
}

/// One computation's results.
pub(crate) struct Computed {
    placement: Placement,
    sides: Option<[SideResult; 2]>,
    dijkstra: Option<DijkstraView>,
}

/// Everything the overlay shows, from the map's cost grid: missing markers placed, then the two
/// searches or the Dijkstra map.
fn compute(grid: &CostGrid, player_start: Option<Cell>, settings: &PathSettings, placement: Placement) -> Computed {
    let placement = place(grid, player_start, settings, placement);
    let mut searcher = Searcher::new();
    match settings.mode {
        PathMode::Compare => {
            let sides = placement
                .start
                .zip(placement.goal)
                .map(|(s, g)| settings.sides.map(|params| search(&mut searcher, grid, params, s, g)));
            Computed { placement, sides, dijkstra: None }
        }
        PathMode::DijkstraMap => {
            let dijkstra = Some(dijkstra_map(grid, settings, &placement));
            Computed { placement, sides: None, dijkstra }
        }
    }
}

/// Places missing markers (the player start, or the first passable cell; the goal on the
/// reachable cell farthest from it) and makes the start the first Dijkstra-map source.
fn place(grid: &CostGrid, player_start: Option<Cell>, settings: &PathSettings, mut p: Placement) -> Placement {
    let valid = |c: Option<Cell>| c.is_some_and(|c| grid.index(c.x, c.y).is_some());
    if !valid(p.start) || !valid(p.goal) {
        let first_passable = (0..grid.len()).map(|i| grid.cell_at(i)).find(|c| grid.passable(c.x, c.y));
        let start = player_start.filter(|c| grid.passable(c.x, c.y)).or(first_passable);
        if let Some(start) = start {
            let distances = DijkstraMap::new(grid, &settings.sides[0].rules, &[(start, 0.0)]);
            let farthest = (0..grid.len())
                .filter(|&i| distances.values()[i].is_finite())
                .max_by(|&a, &b| distances.values()[a].total_cmp(&distances.values()[b]))
                .map(|i| grid.cell_at(i))
                .unwrap_or(start);
            p.start = Some(start);
            p.goal = Some(farthest);
        }
    }
    p.sources.retain(|c| grid.index(c.x, c.y).is_some());
    if p.sources.is_empty()
        && settings.mode == PathMode::DijkstraMap
        && let Some(start) = p.start
    {
        p.sources.push(start);
    }
    p
}

fn search(searcher: &mut Searcher, grid: &CostGrid, params: SearchParams, start: Cell, goal: Cell) -> SideResult {
    let started = Instant::now();
    searcher.find_path(grid, &params, start, goal);
    let micros = started.elapsed().as_secs_f64() * 1e6;
    let mut trace = Trace::new(grid);
    let outcome = searcher.find_path_recorded(grid, &params, start, goal, &mut trace);
    let state = trace.state_at(u32::MAX);
    let max_g = state.g.iter().copied().filter(|g| g.is_finite()).fold(0.0, f64::max);
    let name = crate::app::algorithms::path_label(params.algorithm).to_string();
    SideResult { params, name, external: None, outcome, micros, trace, state, max_g }
}

/// An external side's result from the program's answer: its path, and its expanded cells as a
/// trace of one cell closed a step, so it replays like a built-in search (no frontier, no
/// parents: the protocol tells only the order).
fn external_side(grid: &CostGrid, params: SearchParams, name: String, answer: Result<ExtPath, ExtError>, micros: f64) -> SideResult {
    let mut trace = Trace::new(grid);
    let (outcome, external) = match answer {
        Ok(found) => {
            let told = found.expanded.is_some();
            for (k, c) in found.expanded.iter().flatten().enumerate() {
                if let Some(i) = grid.index(c.x, c.y) {
                    trace.close(k as u32 + 1, i as u32);
                }
            }
            let expanded = found.expanded.as_ref().map_or(0, Vec::len);
            let outcome = found.path.zip(found.cost).map(|(path, cost)| PathResult { path, cost, expanded });
            (outcome, ExternalSide::Answered { expanded_told: told })
        }
        Err(e) => (None, ExternalSide::Failed(e)),
    };
    let state = trace.state_at(u32::MAX);
    SideResult { params, name, external: Some(external), outcome, micros, trace, state, max_g: 0.0 }
}

fn dijkstra_map(grid: &CostGrid, settings: &PathSettings, placement: &Placement) -> DijkstraView {
    let rules = settings.sides[0].rules;
    let started = Instant::now();
    let sources: Vec<(Cell, f64)> = placement.sources.iter().map(|&c| (c, 0.0)).collect();
    let mut values = DijkstraMap::new(grid, &rules, &sources);
    if settings.flee {
        values = values.flee(grid, &rules, -1.2);
    }
    let micros = started.elapsed().as_secs_f64() * 1e6;
    // Downhill from the goal marker: where a monster standing there walks.
    let mut route = Vec::new();
    if let Some(mut at) = placement.goal.filter(|g| values.value(*g).is_some_and(f64::is_finite)) {
        route.push(at);
        while let Some(next) = values.downhill(grid, &rules, at) {
            if route.len() > grid.len() {
                break;
            }
            route.push(next);
            at = next;
        }
    }
    let finite = values.values().iter().copied().filter(|v| v.is_finite());
    let range = finite.clone().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let reachable = finite.count();
    DijkstraView { values, route, micros, reachable, range }
}

impl Default for PathOverlay {
    fn default() -> Self {
        Self {
            on: false,
            settings: PathSettings::default(),
            start: None,
            goal: None,
            sources: Vec::new(),
            step: 0,
            playing: false,
            speed: 60.0,
            step_fraction: 0.0,
            dragging: None,
            sides: None,
            dijkstra: None,
            key: None,
            job: None,
            asked: [None, None],
            epoch: 0,
        }
    }
}

const SIDE_NAMES: [&str; 2] = ["A", "B"];
/// Side A's and side B's colours (closed set, path).
const SIDE_CLOSED: [Color32; 2] = [Color32::from_rgb(70, 130, 240), Color32::from_rgb(240, 140, 50)];
const SIDE_PATH: [Color32; 2] = [Color32::from_rgb(255, 235, 80), Color32::from_rgb(255, 90, 220)];
const FRONTIER: Color32 = Color32::from_rgb(80, 225, 120);
const START: Color32 = Color32::from_rgb(60, 220, 90);
const GOAL: Color32 = Color32::from_rgb(240, 70, 70);

impl PathOverlay {
    /// The largest step of either side.
    pub fn max_step(&self) -> u32 {
        self.sides.as_ref().map_or(0, |s| s[0].steps().max(s[1].steps()))
    }

    /// Advances playback by `dt` seconds.
    pub(crate) fn advance(&mut self, dt: f32) {
        if !self.playing {
            return;
        }
        self.step_fraction += self.speed * dt;
        let whole = self.step_fraction.floor();
        self.step_fraction -= whole;
        self.step = self.step.saturating_add(whole as u32);
        if self.step >= self.max_step() {
            self.step = self.max_step();
            self.playing = false;
        }
    }

    /// Asks each external side's program for the path between the markers, once the result it
    /// belongs to is installed (its built-in placeholder says "waiting").
    fn ask_externals(&mut self, frame: &mut Frame) {
        let (Some(key), Some(sides)) = (&self.key, &mut self.sides) else { return };
        for (k, side) in sides.iter_mut().enumerate() {
            let Some(id) = self.settings.external[k] else { continue };
            if side.external.is_some() || self.asked[k].is_some() {
                continue;
            }
            let (Some(start), Some(goal)) = (key.2.start, key.2.goal) else { continue };
            let doors = self.settings.doors;
            let costs = std::sync::Arc::new(CostGrid::from_map(frame.map, doors));
            let door_key = match doors {
                DoorRule::Impassable => 0,
                DoorRule::OpenAtCost(c) => 1 + u64::from(c.to_bits()),
            };
            let map = MapData { key: (frame.revision, door_key), opacity: frame.grid(), costs };
            let rules = side.params.rules;
            side.name = frame.externals.name(id);
            side.external = Some(ExternalSide::Waiting);
            self.asked[k] = Some(frame.externals.run(id, Lane::Interactive, Some(map), 1, |e| (Err(e), 0.0), move |program, _| {
                // The round trip is the side's time.
                let started = Instant::now();
                let found = program.path(start, goal, &rules);
                (found, started.elapsed().as_secs_f64() * 1e6)
            }));
        }
    }

    /// Takes the external sides' answers that are in.
    fn take_external_answers(&mut self, frame: &mut Frame) {
        for k in 0..2 {
            let Some(job) = &self.asked[k] else { continue };
            let Some((answer, micros)) = job.poll() else { continue };
            self.asked[k] = None;
            self.install_external(frame, k, answer, micros);
        }
    }

    fn install_external(&mut self, frame: &mut Frame, k: usize, answer: Result<ExtPath, ExtError>, micros: f64) {
        let Some(sides) = &mut self.sides else { return };
        let grid = CostGrid::from_map(frame.map, self.settings.doors);
        let name = std::mem::take(&mut sides[k].name);
        sides[k] = external_side(&grid, sides[k].params, name, answer, micros);
        let was_final = self.step >= self.max_step();
        if was_final || !self.playing {
            self.step = self.max_step();
        }
    }

    /// Takes a computed result: markers it placed (only where none were), the searches, and the
    /// step to show.
    fn install(&mut self, computed: Computed, mut key: PathKey) {
        let Computed { placement, sides, dijkstra } = computed;
        self.start = self.start.or(placement.start);
        self.goal = self.goal.or(placement.goal);
        if self.sources.is_empty() {
            self.sources = placement.sources.clone();
        }
        // The result belongs to the placement it was computed for.
        key.2 = placement;
        let was_final = self.step >= self.max_step();
        self.sides = sides;
        self.dijkstra = dijkstra;
        // The external sides are asked again for this result (`ask_externals`).
        self.asked = [None, None];
        if let Some(sides) = &mut self.sides {
            for (k, side) in sides.iter_mut().enumerate() {
                if self.settings.external[k].is_some() {
                    side.outcome = None;
                    side.trace = Trace::new(&CostGrid::open(1, 1));
                    side.state = side.trace.state_at(u32::MAX);
                }
            }
        }
        // A new search shows its result; a replay in progress goes on at its step.
        if was_final || !self.playing {
            self.step = self.max_step();
        }
        self.step = self.step.min(self.max_step());
        self.key = Some(key);
    }

    /// Which marker (if any) sits on `cell`.
    pub(crate) fn marker_at(&self, cell: Cell) -> Option<Marker> {
        if !self.on {
            None
        } else if self.start == Some(cell) {
            Some(Marker::Start)
        } else if self.goal == Some(cell) {
            Some(Marker::Goal)
        } else {
            None
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn draw_side(
        &self,
        painter: &Painter,
        view: &View,
        cells: VisibleCells,
        side: &SideResult,
        k: usize,
        overlaid: bool,
        alpha: f32,
    ) {
        let s = &self.settings;
        let state = &side.state;
        let mut mesh = egui::Mesh::default();
        // Overlaid sides share the cells: each takes a lighter fill, so both show through.
        let fill_alpha = if overlaid { alpha * 0.45 } else { alpha * 0.6 };
        for cell in cells.iter() {
            let i = state.index(cell);
            let r = view.cell_rect(cell);
            match state.cells[i] {
                CellState::Closed if s.show_closed || s.show_heat => {
                    let c = if s.show_heat {
                        heat_colour((state.g[i] / side.max_g.max(1e-9)) as f32)
                    } else {
                        SIDE_CLOSED[k]
                    };
                    mesh.add_colored_rect(r, with_alpha(c, fill_alpha));
                }
                CellState::Open if s.show_frontier => {
                    if overlaid {
                        painter.rect_stroke(
                            r.shrink(1.0 + k as f32 * 2.0),
                            0.0,
                            Stroke::new(1.5, with_alpha(SIDE_CLOSED[k], alpha)),
                            egui::StrokeKind::Inside,
                        );
                    } else {
                        let c = if s.show_heat {
                            heat_colour((state.g[i] / side.max_g.max(1e-9)) as f32)
                        } else {
                            FRONTIER
                        };
                        mesh.add_colored_rect(r, with_alpha(c, fill_alpha));
                        if s.show_heat {
                            painter.rect_stroke(r, 0.0, Stroke::new(1.0, FRONTIER), egui::StrokeKind::Inside);
                        }
                    }
                }
                _ => {}
            }
        }
        painter.add(egui::Shape::mesh(mesh));
        if let Some(last) = state.last_closed {
            let r = view.cell_rect(state.cell(last as usize));
            painter.rect_stroke(r, 0.0, Stroke::new(2.0, Color32::WHITE), egui::StrokeKind::Inside);
        }
        // Came-from arrows and costs, once cells are big enough to read them.
        if s.show_arrows && view.cell_px >= 12.0 {
            let stroke = Stroke::new((view.cell_px / 14.0).clamp(1.0, 2.0), with_alpha(Color32::from_gray(235), alpha));
            for cell in cells.iter() {
                let i = state.index(cell);
                let p = state.parent[i];
                if state.cells[i] == CellState::Unseen || p == u32::MAX {
                    continue;
                }
                let from = view.cell_rect(cell).center();
                let to = view.cell_rect(state.cell(p as usize)).center();
                let dir = (to - from).normalized();
                arrow(painter, from - dir * view.cell_px * 0.2, dir * view.cell_px * 0.55, stroke);
            }
        }
        if view.cell_px >= 28.0 && !overlaid {
            let font = egui::FontId::proportional(view.cell_px * 0.26);
            for cell in cells.iter() {
                let i = state.index(cell);
                if state.cells[i] != CellState::Unseen {
                    let r = view.cell_rect(cell);
                    painter.text(
                        r.left_top() + Vec2::splat(2.0),
                        egui::Align2::LEFT_TOP,
                        format!("{:.1}", state.g[i]),
                        font.clone(),
                        Color32::WHITE,
                    );
                }
            }
        }
    }

    fn draw_markers(&self, painter: &Painter, view: &View) {
        for (cell, colour, label) in [(self.start, START, "S"), (self.goal, GOAL, "G")] {
            let Some(cell) = cell else { continue };
            draw_marker(painter, view, cell, colour, label);
        }
    }

    fn draw_dijkstra(&self, painter: &Painter, view: &View, cells: VisibleCells, alpha: f32) {
        let Some(d) = &self.dijkstra else { return };
        let (lo, hi) = d.range;
        let span = (hi - lo).max(1e-9);
        let mut mesh = egui::Mesh::default();
        let numbers = view.cell_px >= 26.0;
        let font = egui::FontId::proportional(view.cell_px * 0.28);
        let mut texts = Vec::new();
        for cell in cells.iter() {
            let Some(v) = d.values.value(cell).filter(|v| v.is_finite()) else { continue };
            let r = view.cell_rect(cell);
            mesh.add_colored_rect(r, with_alpha(heat_colour(((v - lo) / span) as f32), alpha * 0.7));
            if numbers {
                texts.push((r.center(), format!("{v:.1}")));
            }
        }
        painter.add(egui::Shape::mesh(mesh));
        for (p, t) in texts {
            painter.text(p, egui::Align2::CENTER_CENTER, t, font.clone(), Color32::WHITE);
        }
        draw_route(painter, view, &d.route, SIDE_PATH[0], alpha);
        for &s in &self.sources {
            draw_marker(painter, view, s, START, "S");
        }
        if let Some(g) = self.goal {
            draw_marker(painter, view, g, GOAL, "G");
        }
    }

    fn playback_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let max = self.max_step();
        let mut step = self.step;
        if ui.add(egui::Slider::new(&mut step, 0..=max).text("step")).changed() {
            commands.push(Command::Overlay(OverlayCommand::SetStep(step)));
        }
        ui.horizontal(|ui| {
            if ui.button("First").on_hover_text("Step 0").clicked() {
                commands.push(Command::Overlay(OverlayCommand::SetStep(0)));
            }
            if ui.button("Back").on_hover_text("One step back").clicked() {
                commands.push(Command::Overlay(OverlayCommand::SetStep(self.step.saturating_sub(1))));
            }
            let (label, playing) = if self.playing { ("Pause steps", false) } else { ("Play steps", true) };
            if ui.button(label).clicked() {
                commands.push(Command::Overlay(OverlayCommand::Play(playing)));
            }
            if ui.button("Next").on_hover_text("One step forward").clicked() {
                commands.push(Command::Overlay(OverlayCommand::SetStep(self.step.saturating_add(1))));
            }
            if ui.button("Last").on_hover_text("The final state").clicked() {
                commands.push(Command::Overlay(OverlayCommand::SetStep(max)));
            }
        });
        let mut speed = self.speed;
        if ui.add(egui::Slider::new(&mut speed, 1.0..=5000.0).logarithmic(true).text("steps/s")).changed() {
            commands.push(Command::Overlay(OverlayCommand::SetSpeed(speed)));
        }
        let Some(sides) = &self.sides else {
            ui.label("Place the start and goal on the map.");
            return;
        };
        egui::Grid::new("path_stats").num_columns(3).striped(true).show(ui, |ui| {
            ui.label("");
            for (k, side) in sides.iter().enumerate() {
                ui.label(
                    egui::RichText::new(format!(
                        "{}: {}",
                        SIDE_NAMES[k],
                        side.name
                    ))
                    .color(SIDE_CLOSED[k]),
                );
            }
            ui.end_row();
            ui.label("expanded");
            for (k, side) in sides.iter().enumerate() {
                ui.label(format!("{} expanded {}", SIDE_NAMES[k], side.steps()));
            }
            ui.end_row();
            ui.label("cost");
            for (k, side) in sides.iter().enumerate() {
                let text = side.outcome.as_ref().map_or("no path".into(), |r| format!("{:.2}", r.cost));
                ui.label(format!("{} cost {text}", SIDE_NAMES[k]));
            }
            ui.end_row();
            ui.label("length");
            for (k, side) in sides.iter().enumerate() {
                let text =
                    side.outcome.as_ref().map_or("–".into(), |r| format!("{}", r.path.len().saturating_sub(1)));
                ui.label(format!("{} length {text}", SIDE_NAMES[k]));
            }
            ui.end_row();
            ui.label("time");
            for (k, side) in sides.iter().enumerate() {
                let round_trip = if side.external.is_some() { " (round trip)" } else { "" };
                ui.label(format!("{} {:.0} µs{round_trip}", SIDE_NAMES[k], side.micros));
            }
            ui.end_row();
        });
        for (k, side) in sides.iter().enumerate() {
            match &side.external {
                Some(ExternalSide::Waiting) => {
                    ui.weak(format!("{}: waiting for {}…", SIDE_NAMES[k], side.name));
                }
                Some(ExternalSide::Answered { expanded_told: false }) => {
                    ui.weak(format!("{}: {} does not tell its expanded cells", SIDE_NAMES[k], side.name));
                }
                Some(ExternalSide::Failed(e)) => {
                    ui.colored_label(ui.visuals().error_fg_color, format!("{}: {e}", SIDE_NAMES[k]));
                    if let Some(id) = self.settings.external[k]
                        && e.is_fatal()
                        && ui.button(format!("Restart {}", side.name)).clicked()
                    {
                        commands.push(Command::Overlay(OverlayCommand::Ext(ExtCommand::Restart(id))));
                    }
                }
                _ => {}
            }
        }
        legend_ui(
            ui,
            &[
                LegendEntry::new(SIDE_CLOSED[0], "A: closed"),
                LegendEntry::new(SIDE_CLOSED[1], "B: closed"),
                LegendEntry::new(FRONTIER, "frontier (open)"),
                LegendEntry::new(SIDE_PATH[0], "A: path (so far)"),
                LegendEntry::new(SIDE_PATH[1], "B: path (so far)"),
                LegendEntry::new(Color32::WHITE, "last expanded; arrows point to the parent"),
            ],
        );
    }
}

fn rules_combo_ui(ui: &mut egui::Ui, side: &str, policy: &mut DiagonalPolicy, length: &mut DiagonalLength) {
    ui.vertical(|ui| {
        choice_ui(
            ui,
            &format!("side {side} diagonal policy"),
            policy,
            &[
                (DiagonalPolicy::NoCornerCut, "no corner cutting"),
                (DiagonalPolicy::OneBlocked, "one side blocked"),
                (DiagonalPolicy::Always, "always"),
                (DiagonalPolicy::Never, "never"),
            ],
        );
        choice_ui(
            ui,
            &format!("side {side} diagonal length"),
            length,
            &[
                (DiagonalLength::Euclidean, "diagonal √2"),
                (DiagonalLength::Chebyshev, "diagonal 1"),
                (DiagonalLength::ChebyshevTieBreak, "diagonal 1 + 1/16"),
            ],
        );
    });
}

/// The path to draw at the side's current step: the final path, or the came-from chain of the
/// cell just expanded.
fn route_of(side: &SideResult) -> Vec<Cell> {
    let state = &side.state;
    if state.step >= side.steps() {
        return side.outcome.as_ref().map_or_else(Vec::new, |r| r.path.clone());
    }
    state.last_closed.map_or_else(Vec::new, |c| state.path_to(state.cell(c as usize)))
}

fn draw_route(painter: &Painter, view: &View, route: &[Cell], colour: Color32, alpha: f32) {
    if route.len() < 2 {
        return;
    }
    let points: Vec<_> = route.iter().map(|&c| view.cell_rect(c).center()).collect();
    let width = (view.cell_px * 0.18).clamp(1.5, 5.0);
    painter.add(egui::Shape::line(points, Stroke::new(width, with_alpha(colour, alpha.max(0.5)))));
}

pub(super) fn draw_marker(painter: &Painter, view: &View, cell: Cell, colour: Color32, label: &str) {
    let r = view.cell_rect(cell);
    let radius = (view.cell_px * 0.45).max(4.0);
    painter.circle(r.center(), radius, colour, Stroke::new(1.5, Color32::BLACK));
    if view.cell_px >= 10.0 {
        painter.text(
            r.center(),
            egui::Align2::CENTER_CENTER,
            label,
            egui::FontId::proportional(view.cell_px * 0.6),
            Color32::BLACK,
        );
    }
}

/// A short arrow from `from` along `delta`, with a head at its end.
fn arrow(painter: &Painter, from: egui::Pos2, delta: Vec2, stroke: Stroke) {
    let to = from + delta;
    painter.line_segment([from, to], stroke);
    let back = -delta.normalized() * delta.length().min(8.0) * 0.45;
    let side = back.rot90() * 0.6;
    painter.line_segment([to, to + back + side], stroke);
    painter.line_segment([to, to + back - side], stroke);
}

impl Overlay for PathOverlay {
    fn is_on(&self) -> bool {
        self.on
    }

    fn set_on(&mut self, on: bool) {
        self.on = on;
    }

    /// Brings the searches up to date with the map and the settings (only what changed). On big
    /// maps the searches run on a `Job` thread, the old result showing until the new one is in.
    fn update(&mut self, frame: &mut Frame) {
        self.advance(frame.dt);
        let (map, revision) = (frame.map, frame.revision);
        if !self.on {
            return;
        }
        // Markers and sources off the map (after a resize, an undo) are placed again.
        let on_map = |c: &Cell| map.in_bounds(*c);
        self.start = self.start.filter(on_map);
        self.goal = self.goal.filter(on_map);
        self.sources.retain(on_map);
        if let Some((_, job)) = &self.job
            && let Some(computed) = job.poll()
        {
            let (key, _) = self.job.take().expect("polled above");
            self.install(computed, key);
        }
        let placement = Placement { start: self.start, goal: self.goal, sources: self.sources.clone() };
        let key: PathKey = (revision, self.settings.search_key(), placement.clone());
        // One search job at a time: while a marker is dragged, the job in flight finishes and
        // the next starts from wherever the marker is then (no pile of stale threads).
        self.take_external_answers(frame);
        if self.settings.external.iter().any(Option::is_some) && self.epoch != frame.externals.epoch() {
            self.epoch = frame.externals.epoch();
            self.key = None;
        }
        if self.key.as_ref() != Some(&key) && self.job.is_none() {
            let grid = CostGrid::from_map(map, self.settings.doors);
            let player_start =
                map.objects.iter().find(|o| o.kind == crate::core::ObjectKind::PlayerStart).map(|o| o.cell);
            let settings = self.settings.clone();
            if grid.len() > super::BACKGROUND_CELLS {
                self.job = Some((key, Job::spawn(1, move |_| compute(&grid, player_start, &settings, placement))));
            } else {
                let computed = compute(&grid, player_start, &settings, placement);
                self.install(computed, key);
            }
        }
        self.ask_externals(frame);
        let step = self.step;
        if let Some(sides) = &mut self.sides {
            for side in sides {
                if side.state.step != step.min(side.steps()) {
                    side.state = side.trace.state_at(step);
                }
            }
        }
    }

    /// Blocks until the searches are up to date with the map (tests, headless runs): a search
    /// in flight for an older map is followed by the one it leads to.
    fn wait(&mut self, frame: &mut Frame) {
        loop {
            if let Some((key, job)) = self.job.take()
                && let Some(computed) = job.wait()
            {
                self.install(computed, key);
            }
            self.update(frame);
            for k in 0..2 {
                if let Some(job) = self.asked[k].take()
                    && let Some((answer, micros)) = job.wait()
                {
                    self.install_external(frame, k, answer, micros);
                }
            }
            if self.job.is_none() && self.asked.iter().all(Option::is_none) {
                return;
            }
        }
    }

    fn apply(&mut self, command: OverlayCommand, map: &Map) {
        match command {
            OverlayCommand::PathSettings(s) => self.settings = s,
            OverlayCommand::MoveMarker(marker, cell) if map.in_bounds(cell) => match marker {
                Marker::Start => self.start = Some(cell),
                Marker::Goal => self.goal = Some(cell),
            },
            OverlayCommand::ToggleSource(cell) if map.in_bounds(cell) => {
                if let Some(i) = self.sources.iter().position(|&c| c == cell) {
                    self.sources.remove(i);
                } else {
                    self.sources.push(cell);
                }
            }
            OverlayCommand::ClearSources => self.sources.clear(),
            OverlayCommand::SetStep(step) => {
                self.step = step.min(self.max_step());
                self.playing = false;
            }
            OverlayCommand::Play(playing) => {
                if playing && self.step >= self.max_step() {
                    self.step = 0;
                }
                self.playing = playing;
            }
            OverlayCommand::SetSpeed(speed) => self.speed = speed.clamp(1.0, 100_000.0),
            _ => {}
        }
    }

    fn busy(&self) -> bool {
        self.job.is_some() || self.playing || self.asked.iter().any(Option::is_some)
    }

    /// Draws the overlay for `side` (`None`: both sides, overlaid).
    fn draw(&self, painter: &Painter, view: &View, cells: VisibleCells, side: Option<usize>) {
        let alpha = self.settings.opacity;
        // Results of a map of another size (a search of the new one still running) are not drawn.
        let len = (cells.map_width * cells.map_height) as usize;
        let fits_sides = self.sides.as_ref().is_none_or(|s| s.iter().all(|side| side.state.cells.len() == len));
        let fits_dijkstra = self.dijkstra.as_ref().is_none_or(|d| d.values.values().len() == len);
        if !fits_sides || !fits_dijkstra {
            self.draw_markers(painter, view);
            return;
        }
        match self.settings.mode {
            PathMode::DijkstraMap => self.draw_dijkstra(painter, view, cells, alpha),
            PathMode::Compare => {
                if let Some(sides) = &self.sides {
                    let shown: Vec<usize> = side.map_or(vec![0, 1], |s| vec![s]);
                    let overlaid = shown.len() == 2;
                    for &k in &shown {
                        self.draw_side(painter, view, cells, &sides[k], k, overlaid, alpha);
                    }
                    for &k in &shown {
                        draw_route(painter, view, &route_of(&sides[k]), SIDE_PATH[k], alpha);
                    }
                }
                self.draw_markers(painter, view);
            }
        }
    }

    /// The overlay's numbers, as text (for the clipboard and bug reports).
    fn numbers_text(&self) -> String {
        let mut out = String::new();
        let cell = |c: Option<Cell>| c.map_or("–".into(), |c| format!("{},{}", c.x, c.y));
        match (&self.sides, &self.dijkstra) {
            (Some(sides), _) => {
                out += &format!("pathfinding from {} to {}\n", cell(self.start), cell(self.goal));
                out += "side\talgorithm\texpanded\tcost\tlength\ttime_us\n";
                for (k, side) in sides.iter().enumerate() {
                    let (cost, len) = side.outcome.as_ref().map_or(("none".into(), "none".into()), |r| {
                        (format!("{:.4}", r.cost), r.path.len().to_string())
                    });
                    out += &format!(
                        "{}\t{}\t{}\t{cost}\t{len}\t{:.1}\n",
                        SIDE_NAMES[k],
                        side.name,
                        side.steps(),
                        side.micros
                    );
                }
            }
            (None, Some(d)) => {
                out += &format!(
                    "dijkstra map: {} sources, flee {}, {} reachable cells, values {:.2}..{:.2}, {:.1} us\n",
                    self.sources.len(),
                    self.settings.flee,
                    d.reachable,
                    d.range.0,
                    d.range.1,
                    d.micros
                );
            }
            _ => {}
        }
        out
    }

    fn settings_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>, externals: &Externals) {
        let mut s = self.settings.clone();
        ui.horizontal(|ui| {
            ui.radio_value(&mut s.mode, PathMode::Compare, "Compare two searches");
            ui.radio_value(&mut s.mode, PathMode::DijkstraMap, "Dijkstra map");
        });
        match s.mode {
            PathMode::Compare => {
                egui::Grid::new("path_sides").num_columns(3).show(ui, |ui| {
                    ui.label("");
                    ui.label("side A");
                    ui.label("side B");
                    ui.end_row();
                    let algorithms = path_choices(externals);
                    let heuristics = [
                        (Heuristic::Octile, "Octile"),
                        (Heuristic::Manhattan, "Manhattan"),
                        (Heuristic::Chebyshev, "Chebyshev"),
                        (Heuristic::Euclidean, "Euclidean"),
                        (Heuristic::Zero, "Zero"),
                    ];
                    ui.label("algorithm");
                    for (k, side) in SIDE_NAMES.iter().enumerate() {
                        let mut choice = s.choice(k);
                        crate::app::algorithms::choice_owned_ui(ui, &format!("side {side} algorithm"), &mut choice, &algorithms);
                        match choice {
                            PathChoice::Builtin(a) => (s.sides[k].algorithm, s.external[k]) = (a, None),
                            PathChoice::External(id) => s.external[k] = Some(id),
                        }
                    }
                    ui.end_row();
                    ui.label("heuristic");
                    for (k, side) in SIDE_NAMES.iter().enumerate() {
                        choice_ui(ui, &format!("side {side} heuristic"), &mut s.sides[k].heuristic, &heuristics);
                    }
                    ui.end_row();
                    ui.label("weight");
                    for (k, side) in SIDE_NAMES.iter().enumerate() {
                        ui.add(egui::DragValue::new(&mut s.sides[k].weight).range(0.0..=10.0).speed(0.05))
                            .on_hover_text(format!("side {side} heuristic weight"));
                    }
                    ui.end_row();
                    ui.label("moves");
                    for (k, side) in SIDE_NAMES.iter().enumerate() {
                        choice_ui(
                            ui,
                            &format!("side {side} moves"),
                            &mut s.sides[k].rules.moves,
                            &[(Moves::Eight, "8 neighbours"), (Moves::Four, "4 neighbours")],
                        );
                    }
                    ui.end_row();
                    ui.label("diagonals");
                    for (k, side) in SIDE_NAMES.iter().enumerate() {
                        rules_combo_ui(ui, side, &mut s.sides[k].rules.diagonal, &mut s.sides[k].rules.diagonal_length);
                    }
                    ui.end_row();
                });
                ui.checkbox(&mut s.split, "Side by side");
            }
            PathMode::DijkstraMap => {
                ui.label(format!(
                    "{} source{}: click cells with the Probe tool (P) to add or remove",
                    self.sources.len(),
                    if self.sources.len() == 1 { "" } else { "s" }
                ));
                ui.horizontal(|ui| {
                    ui.checkbox(&mut s.flee, "Flee map (× −1.2)");
                    if ui.button("Clear sources").clicked() {
                        commands.push(Command::Overlay(OverlayCommand::ClearSources));
                    }
                });
                ui.horizontal(|ui| {
                    ui.label("moves");
                    rules_combo_ui(ui, "map", &mut s.sides[0].rules.diagonal, &mut s.sides[0].rules.diagonal_length);
                });
            }
        }
        let mut doors_open = matches!(s.doors, DoorRule::OpenAtCost(_));
        if ui.checkbox(&mut doors_open, "Closed doors can be opened (+2)").changed() {
            s.doors = if doors_open { DoorRule::OpenAtCost(2.0) } else { DoorRule::Impassable };
        }
        if s.mode == PathMode::Compare {
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut s.show_closed, "Closed");
                ui.checkbox(&mut s.show_frontier, "Frontier");
                ui.checkbox(&mut s.show_arrows, "Came-from arrows");
                ui.checkbox(&mut s.show_heat, "Cost heatmap");
            });
        }
        ui.add(egui::Slider::new(&mut s.opacity, 0.0..=1.0).text("opacity"));
        if s != self.settings {
            commands.push(Command::Overlay(OverlayCommand::PathSettings(s)));
        }
        ui.separator();
        if self.job.is_some() {
            ui.weak("searching… (the last result shows until then)");
        }
        match self.settings.mode {
            PathMode::Compare => self.playback_ui(ui, commands),
            PathMode::DijkstraMap => {
                if let Some(d) = &self.dijkstra {
                    ui.label(format!("reachable cells {}", d.reachable));
                    ui.label(format!("values {:.1} to {:.1}", d.range.0, d.range.1));
                    ui.label(format!("route from G: {} steps", d.route.len().saturating_sub(1)));
                    ui.label(format!("time {:.0} µs", d.micros));
                }
                legend_ui(
                    ui,
                    &[
                        LegendEntry::ramp("value, low to high"),
                        LegendEntry::new(START, "S: source"),
                        LegendEntry::new(GOAL, "G: walker (drag it)"),
                        LegendEntry::new(SIDE_PATH[0], "downhill route"),
                    ],
                );
            }
        }
    }

    fn probe(&mut self, cell: Cell, map: &Map) {
        let command = match self.settings.mode {
            PathMode::Compare => OverlayCommand::MoveMarker(Marker::Goal, cell),
            PathMode::DijkstraMap => OverlayCommand::ToggleSource(cell),
        };
        self.apply(command, map);
    }

    fn map_replaced(&mut self) {
        self.start = None;
        self.goal = None;
        self.sources.clear();
    }
}
