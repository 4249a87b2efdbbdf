//! The FOV comparison overlay: two algorithms from one origin (the hovered cell, or a pinned
//! one), cell by cell; every algorithm's count and time at that origin; and visible cells against
//! the radius for the two chosen algorithms. Either side may be an external program: its view
//! is asked on the program's worker and drawn when the answer is in (the panel says meanwhile).

use std::time::Instant;

use egui::{Color32, Painter};

use super::job::Job;
use super::{Frame, LegendEntry, Overlay, OverlayCommand, legend_ui, with_alpha};
use crate::app::algorithms::{FovChoice, fov_choices, fov_name};
use crate::app::canvas::VisibleCells;
use crate::app::external::{ExtCommand, ExtId, Externals, Lane};
use crate::app::{Command, View};
use crate::core::ext::ExtError;
use crate::core::Cell;
use crate::core::Map;
use crate::core::fov::targeting::{PairSight, Shot, shot};
use crate::core::fov::{self, Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet};

#[derive(Clone, Debug, PartialEq)]
pub struct FovSettings {
    pub a: FovChoice,
    pub b: FovChoice,
    /// `None`: unlimited.
    pub(crate) radius: Option<u32>,
    pub(crate) light_walls: bool,
    pub(crate) opacity: f32,
}

impl Default for FovSettings {
    fn default() -> Self {
        Self {
            a: Algorithm::Shadowcast.into(),
            b: Algorithm::Symmetric.into(),
            radius: Some(10),
            light_walls: true,
            opacity: 0.7,
        }
    }
}

/// One algorithm at the current origin.
#[derive(Clone, Debug, PartialEq)]
pub struct AlgorithmRow {
    pub(crate) choice: FovChoice,
    pub name: String,
    pub visible: usize,
    /// Mean time per call, in µs.
    pub(crate) micros: f64,
}

/// A pinned origin and the cell under the pointer: whether each sees the other under A and B,
/// and whether a shot from the origin reaches it ([`crate::core::fov::targeting`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PairReport {
    pub(crate) target: Cell,
    /// For A and B; `None` for an external program (its views from the two cells are not asked).
    pub sights: [Option<PairSight>; 2],
    pub(crate) shot: Shot,
}

/// Cells seen by both algorithms, only by A, only by B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    pub both: usize,
    pub only_a: usize,
    pub only_b: usize,
}

#[derive(Default)]
pub struct FovOverlay {
    pub(crate) on: bool,
    pub settings: FovSettings,
    /// The origin a click fixed; otherwise the origin follows the pointer.
    pub pinned: Option<Cell>,
    /// The origin of the views shown.
    pub origin: Option<Cell>,
    views: [VisibleSet; 2],
    pub agreement: Agreement,
    pub table: Vec<AlgorithmRow>,
    /// Visible cells against the radius, for A and B.
    pub plot: [Vec<[f64; 2]>; 2],
    /// With the origin pinned, the cell under the pointer and the origin.
    pub pair: Option<PairReport>,
    key: Option<(u64, Cell, FovSettings)>,
    pair_key: Option<(u64, Cell, Cell, FovSettings)>,
    table_key: Option<(u64, Cell, Option<u32>, bool)>,
    /// Per side, what its view shows: the map revision, origin, radius, light_walls, choice and
    /// the registry's epoch (an external answer lands after the request).
    shown: [Option<ViewKey>; 2],
    /// Per side, the request in flight to an external program, and what it is for.
    asked: [Option<(ViewKey, ViewJob)>; 2],
    /// Per side, what went wrong with its program (the view is then empty).
    pub errors: [Option<ExtError>; 2],
    /// The sides' names, for the numbers.
    names: [String; 2],
    /// The registered programs' rows of the table (after the built-ins'), each with its round
    /// trip as its time; and the request in flight for each.
    pub external_rows: Vec<AlgorithmRow>,
    row_asks: Vec<(ExtId, ViewKey, RowJob)>,
    /// What each program's row shows.
    shown_rows: Vec<(ExtId, ViewKey)>,
}

/// A program's view and its round trip, in µs.
type RowJob = Job<(Result<Vec<Vec<Cell>>, ExtError>, f64)>;

type ViewKey = (u64, Cell, Option<u32>, bool, FovChoice, u64);
type ViewJob = Job<Result<Vec<Vec<Cell>>, ExtError>>;

const BOTH: Color32 = Color32::from_rgb(90, 210, 120);
const ONLY_A: Color32 = Color32::from_rgb(70, 140, 255);
const ONLY_B: Color32 = Color32::from_rgb(255, 150, 40);
const ORIGIN: Color32 = Color32::from_rgb(255, 240, 120);
const SHOT: Color32 = Color32::from_rgb(235, 235, 235);
const STOPPED: Color32 = Color32::from_rgb(255, 70, 70);
/// The plot's radii: 1 to this.
const PLOT_MAX_RADIUS: u32 = 30;

impl FovOverlay {
    /// Brings each side's view up to date: a built-in computes it now; an external program is
    /// asked (one request in flight a side: a pointer sweeping the map never queues them) and its
    /// answer taken when it is in. Whether a view changed.
    fn update_sides(&mut self, frame: &mut Frame, origin: Cell) -> bool {
        let grid = frame.grid();
        let (w, h) = (grid.width() as u32, grid.height() as u32);
        let s = self.settings.clone();
        let epoch = frame.externals.epoch();
        let mut changed = false;
        for (k, choice) in [s.a, s.b].into_iter().enumerate() {
            if self.views[k].width() != w as i32 || self.views[k].height() != h as i32 {
                self.views[k] = VisibleSet::new(w, h);
                self.shown[k] = None;
            }
            let want = (frame.revision, origin, s.radius, s.light_walls, choice, epoch);
            // An answer in: shown if it is still for these settings and this map.
            if let Some((key, job)) = &self.asked[k]
                && let Some(result) = job.poll()
            {
                let key = *key;
                self.asked[k] = None;
                // From an older origin too: the pointer moved on, and the newer view is asked next.
                if (key.0, key.2, key.3, key.4, key.5) == (want.0, want.2, want.3, want.4, want.5) {
                    self.install(k, key, result);
                    changed = true;
                }
            }
            if self.shown[k] == Some(want) {
                continue;
            }
            match choice {
                FovChoice::Builtin(algorithm) => {
                    let params = FovParams { origin, radius: s.radius, light_walls: s.light_walls };
                    fov::compute(algorithm, &*grid, params, &mut self.views[k]);
                    self.asked[k] = None;
                    self.errors[k] = None;
                    self.shown[k] = Some(want);
                    changed = true;
                }
                FovChoice::External(id) if self.asked[k].is_none() => {
                    let map = frame.fov_map();
                    let (radius, light_walls) = (s.radius, s.light_walls);
                    let job = frame.externals.run(id, Lane::Interactive, Some(map), 1, Err, move |program, _| {
                        program.fov(&[origin], radius, light_walls)
                    });
                    self.asked[k] = Some((want, job));
                    // A restart, or other settings: the old error no longer stands.
                    if self.shown[k].is_none_or(|shown| shown.4 != choice || shown.5 != epoch) {
                        self.errors[k] = None;
                    }
                }
                FovChoice::External(_) => {}
            }
        }
        changed
    }

    /// The table's rows of the registered programs at the current origin: each asked once per
    /// origin and settings, one request in flight a program (a row shows its last answer
    /// meanwhile).
    fn update_external_rows(&mut self, frame: &mut Frame, origin: Cell) {
        let s = self.settings.clone();
        let epoch = frame.externals.epoch();
        let mut answers = Vec::new();
        self.row_asks.retain(|(id, key, job)| match job.poll() {
            Some(answer) => {
                answers.push((*id, *key, answer));
                false
            }
            None => true,
        });
        for (id, key, answer) in answers {
            self.install_row(frame.externals, id, key, answer);
        }
        let programs = frame.externals.offering(true);
        self.external_rows.retain(|r| programs.iter().any(|(id, _)| r.choice == FovChoice::External(*id)));
        self.external_rows.sort_by_key(|r| match r.choice {
            FovChoice::External(id) => id,
            FovChoice::Builtin(_) => ExtId(0),
        });
        for (id, _) in programs {
            let want = (frame.revision, origin, s.radius, s.light_walls, FovChoice::External(id), epoch);
            let asked = self.row_asks.iter().any(|(i, _, _)| *i == id);
            if asked || self.shown_rows.contains(&(id, want)) {
                continue;
            }
            let map = frame.fov_map();
            let (radius, light_walls) = (s.radius, s.light_walls);
            let job = frame.externals.run(id, Lane::Interactive, Some(map), 1, |e| (Err(e), 0.0), move |program, _| {
                let started = Instant::now();
                let views = program.fov(&[origin], radius, light_walls);
                (views, started.elapsed().as_secs_f64() * 1e6)
            });
            self.row_asks.push((id, want, job));
        }
    }

    /// A program's row from its answer (a failed one shows 0 cells: its error is the side's, or
    /// the window's).
    fn install_row(
        &mut self,
        externals: &Externals,
        id: ExtId,
        key: ViewKey,
        (result, micros): (Result<Vec<Vec<Cell>>, ExtError>, f64),
    ) {
        let row = AlgorithmRow {
            choice: FovChoice::External(id),
            name: externals.name(id),
            visible: result.map_or(0, |views| views.first().map_or(0, Vec::len)),
            micros,
        };
        self.external_rows.retain(|r| r.choice != row.choice);
        self.external_rows.push(row);
        self.shown_rows.retain(|(i, _)| *i != id);
        self.shown_rows.push((id, key));
    }

    /// An external side's answer: its view, or its error and no view.
    fn install(&mut self, k: usize, key: ViewKey, result: Result<Vec<Vec<Cell>>, ExtError>) {
        self.views[k].clear();
        match result {
            Ok(views) => {
                for c in views.into_iter().next().unwrap_or_default() {
                    self.views[k].insert(c.x, c.y);
                }
                self.errors[k] = None;
            }
            Err(e) => self.errors[k] = Some(e),
        }
        self.shown[k] = Some(key);
    }

    /// The pair report, while the origin is pinned and the pointer is on another cell of the map.
    fn update_pair(&mut self, grid: &OpacityGrid, revision: u64, hovered: Option<Cell>) {
        let target = hovered.filter(|c| grid.in_bounds(c.x, c.y));
        let (Some(origin), Some(target)) = (self.pinned.filter(|_| self.pinned == self.origin), target) else {
            self.pair = None;
            self.pair_key = None;
            return;
        };
        if target == origin {
            self.pair = None;
            self.pair_key = None;
            return;
        }
        let key = (revision, origin, target, self.settings.clone());
        if self.pair_key.as_ref() == Some(&key) {
            return;
        }
        let s = &self.settings;
        let mut scratch = VisibleSet::new(grid.width() as u32, grid.height() as u32);
        let sights = [s.a, s.b].map(|choice| match choice {
            FovChoice::Builtin(a) => {
                Some(PairSight::of(a, grid, (origin, target), (s.radius, s.light_walls), &mut scratch))
            }
            FovChoice::External(_) => None,
        });
        self.pair = Some(PairReport { target, sights, shot: shot(grid, origin, target) });
        self.pair_key = Some(key);
    }
}

/// Every algorithm's visible count and mean time at `origin`. Each is repeated until about
/// 200 µs have passed (at most 50 calls), so small views are timed above the clock's noise.
fn timed_table(grid: &OpacityGrid, origin: Cell, radius: Option<u32>, light_walls: bool) -> Vec<AlgorithmRow> {
    let mut visible = VisibleSet::new(grid.width() as u32, grid.height() as u32);
    let params = FovParams { origin, radius, light_walls };
    crate::app::algorithms::fov_algorithms()
        .into_iter()
        .map(|(algorithm, _)| {
            let started = Instant::now();
            fov::compute(algorithm, grid, params, &mut visible);
            let once = started.elapsed().as_secs_f64();
            let reps = ((200e-6 / once.max(1e-9)) as usize).clamp(1, 50);
            let started = Instant::now();
            for _ in 0..reps {
                fov::compute(algorithm, grid, params, &mut visible);
            }
            let micros = started.elapsed().as_secs_f64() * 1e6 / reps as f64;
            AlgorithmRow {
                choice: FovChoice::Builtin(algorithm),
                name: algorithm.name().to_string(),
                visible: visible.count(),
                micros,
            }
        })
        .collect()
}

fn origin_label(origin: Option<Cell>) -> String {
    origin.map_or_else(String::new, |o| format!("{}, {}", o.x, o.y))
}

/// The pair's verdicts: for A and B, whether the origin sees the target and the target the
/// origin, one-sided pairs named; and the shot.
fn pair_ui(ui: &mut egui::Ui, origin: String, pair: &PairReport, names: &[String; 2]) {
    let t = pair.target;
    ui.strong(format!("target {}, {} (the pointer)", t.x, t.y));
    for ((sight, colour), name) in pair.sights.iter().zip([ONLY_A, ONLY_B]).zip(names) {
        let Some(sight) = sight else {
            ui.label(egui::RichText::new(format!("{name}: an external program (the pair is for built-in algorithms)")).color(colour));
            continue;
        };
        let yes = |b: bool| if b { "yes" } else { "no" };
        let mut text = format!(
            "{}: origin sees it {}, it sees the origin {}",
            sight.algorithm,
            yes(sight.sees),
            yes(sight.seen_back)
        );
        match (sight.sees, sight.seen_back) {
            (false, true) => text += " — one-sided: it sees you unseen",
            (true, false) => text += " — one-sided: you see it unseen",
            _ => {}
        }
        ui.label(egui::RichText::new(text).color(colour));
    }
    ui.label(format!("shot from {origin}: {}", pair.shot.describe(|c| format!("{}, {}", c.x, c.y))));
}

/// The shot's digital lines from the origin to the target, through the centres of their cells
/// (the two lines where ties part them), and a cross on each cell that stops one.
fn draw_shot(painter: &Painter, view: &View, pair: &PairReport) {
    let centre = |c: Cell| view.cell_rect(c).center();
    for (k, line) in pair.shot.lines.iter().enumerate() {
        if k == 1 && pair.shot.lines[0] == pair.shot.lines[1] {
            break;
        }
        let points: Vec<egui::Pos2> = line.iter().map(|&c| centre(c)).collect();
        painter.add(egui::Shape::line(points, egui::Stroke::new(2.0, with_alpha(SHOT, 0.9))));
    }
    for &c in pair.shot.blocked_at.iter().flatten() {
        let r = view.cell_rect(c).shrink(view.cell_px * 0.15);
        let stroke = egui::Stroke::new(2.5, STOPPED);
        painter.line_segment([r.left_top(), r.right_bottom()], stroke);
        painter.line_segment([r.right_top(), r.left_bottom()], stroke);
    }
    let target = view.cell_rect(pair.target);
    painter.rect_stroke(target, 0.0, egui::Stroke::new(2.0, SHOT), egui::StrokeKind::Inside);
}

impl Overlay for FovOverlay {
    fn is_on(&self) -> bool {
        self.on
    }

    fn set_on(&mut self, on: bool) {
        self.on = on;
    }

    /// Recomputes what changed: the two views (origin, settings, map), the table (origin, radius,
    /// map) and the plot.
    fn update(&mut self, frame: &mut Frame) {
        if !self.on {
            return;
        }
        let (revision, hovered) = (frame.revision, frame.hovered);
        {
            let grid = &*frame.grid();
            let in_bounds = |c: &Cell| grid.in_bounds(c.x, c.y);
            self.origin =
                self.pinned.filter(in_bounds).or(hovered.filter(in_bounds)).or(self.origin.filter(in_bounds));
        }
        let Some(origin) = self.origin else { return };
        self.update_pair(&frame.grid(), revision, hovered);
        self.names = [self.settings.a, self.settings.b].map(|c| fov_name(c, frame.externals));
        let sides_changed = self.update_sides(frame, origin);
        self.update_external_rows(frame, origin);
        let grid = &*frame.grid();
        let key = (revision, origin, self.settings.clone());
        if self.key.as_ref() == Some(&key) && !sides_changed {
            return;
        }
        let s = &self.settings;
        let (w, h) = (grid.width() as u32, grid.height() as u32);
        let [va, vb] = &self.views;
        let only_a = va.iter().filter(|c| !vb.contains_cell(*c)).count();
        let both = va.count() - only_a;
        self.agreement = Agreement { both, only_a, only_b: vb.count() - both };
        if self.key.as_ref() == Some(&key) {
            return;
        }
        let table_key = (revision, origin, s.radius, s.light_walls);
        if self.table_key != Some(table_key) {
            self.table = timed_table(grid, origin, s.radius, s.light_walls);
            self.table_key = Some(table_key);
        }
        let mut scratch = VisibleSet::new(w, h);
        // The plot is the built-in sides' (an external one would be thirty round trips a cell).
        self.plot = [s.a, s.b].map(|choice| {
            let FovChoice::Builtin(algorithm) = choice else { return Vec::new() };
            (1..=PLOT_MAX_RADIUS)
                .map(|r| {
                    let params = FovParams { origin, radius: Some(r), light_walls: s.light_walls };
                    fov::compute(algorithm, grid, params, &mut scratch);
                    [f64::from(r), scratch.count() as f64]
                })
                .collect()
        });
        self.key = Some(key);
    }

    /// Waits for the external sides' answers (tests, headless runs).
    fn wait(&mut self, frame: &mut Frame) {
        for _ in 0..4 {
            if !self.busy() {
                return;
            }
            for (id, key, job) in std::mem::take(&mut self.row_asks) {
                if let Some(answer) = job.wait() {
                    self.install_row(frame.externals, id, key, answer);
                }
            }
            for k in 0..2 {
                if let Some((key, job)) = self.asked[k].take()
                    && let Some(result) = job.wait()
                {
                    self.install(k, key, result);
                }
            }
            // Counted again, and asked again if the answer was for an older origin.
            self.key = None;
            self.update(frame);
        }
    }

    fn busy(&self) -> bool {
        self.asked.iter().any(Option::is_some) || !self.row_asks.is_empty()
    }

    fn apply(&mut self, command: OverlayCommand, _map: &Map) {
        match command {
            OverlayCommand::FovSettings(s) => self.settings = s,
            OverlayCommand::PinFov(cell) => self.pinned = if self.pinned == Some(cell) { None } else { Some(cell) },
            OverlayCommand::UnpinFov => self.pinned = None,
            _ => {}
        }
    }

    fn draw(&self, painter: &Painter, view: &View, cells: VisibleCells, _side: Option<usize>) {
        let Some(origin) = self.origin else { return };
        let [va, vb] = &self.views;
        if va.width() <= 0 {
            return;
        }
        let alpha = self.settings.opacity;
        let mut mesh = egui::Mesh::default();
        for cell in cells.iter() {
            let colour = match (va.contains_cell(cell), vb.contains_cell(cell)) {
                (true, true) => BOTH,
                (true, false) => ONLY_A,
                (false, true) => ONLY_B,
                (false, false) => continue,
            };
            // Differences are what the user looks for: they get the stronger fill.
            let a = if colour == BOTH { alpha * 0.45 } else { alpha * 0.85 };
            mesh.add_colored_rect(view.cell_rect(cell), with_alpha(colour, a));
        }
        painter.add(egui::Shape::mesh(mesh));
        let r = view.cell_rect(origin);
        painter.rect_stroke(r, 0.0, egui::Stroke::new(2.5, ORIGIN), egui::StrokeKind::Inside);
        if let Some(radius) = self.settings.radius {
            painter.circle_stroke(
                r.center(),
                (radius as f32 + 0.5) * view.cell_px,
                egui::Stroke::new(1.0, with_alpha(ORIGIN, 0.5)),
            );
        }
        if let Some(pair) = &self.pair {
            draw_shot(painter, view, pair);
        }
    }

    fn numbers_text(&self) -> String {
        let Some(o) = self.origin else { return String::new() };
        let s = &self.settings;
        let radius = s.radius.map_or("unlimited".into(), |r| r.to_string());
        let mut out = format!(
            "fov at {},{} radius {radius} light_walls {}\nA {} vs B {}: both {}, only A {}, only B {}\nalgorithm\tvisible\ttime_us\n",
            o.x, o.y, s.light_walls, self.names[0], self.names[1], self.agreement.both, self.agreement.only_a, self.agreement.only_b
        );
        for row in self.table.iter().chain(&self.external_rows) {
            out += &format!("{}\t{}\t{:.2}\n", row.name, row.visible, row.micros);
        }
        if let Some(pair) = &self.pair {
            let t = pair.target;
            out += &format!("target {},{}\nalgorithm\tsees\tseen_back\n", t.x, t.y);
            for sight in pair.sights.iter().flatten() {
                out += &format!("{}\t{}\t{}\n", sight.algorithm, sight.sees, sight.seen_back);
            }
            let stops: Vec<String> =
                pair.shot.blocked_at.iter().map(|b| b.map_or("clear".into(), |c| format!("{},{}", c.x, c.y))).collect();
            out += &format!("shot\t{}\t{}\n", if pair.shot.is_clear() { "clear" } else { "blocked" }, stops.join("\t"));
        }
        out
    }

    fn settings_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>, externals: &Externals) {
        let mut s = self.settings.clone();
        let choices = fov_choices(externals);
        egui::Grid::new("fov_settings").num_columns(2).show(ui, |ui| {
            for (label, value) in [("A", &mut s.a), ("B", &mut s.b)] {
                ui.label(label);
                crate::app::algorithms::choice_owned_ui(ui, &format!("algorithm {label}"), value, &choices);
                ui.end_row();
            }
        });
        for (k, label) in ["A", "B"].into_iter().enumerate() {
            let FovChoice::External(id) = [s.a, s.b][k] else { continue };
            let name = fov_name([s.a, s.b][k], externals);
            if let Some(e) = &self.errors[k] {
                ui.colored_label(ui.visuals().error_fg_color, format!("{label}: {e}"));
                // A refusal or a wrong answer leaves the program running: no restart to offer.
                if e.is_fatal() && ui.button(format!("Restart {name}")).clicked() {
                    commands.push(Command::Overlay(OverlayCommand::Ext(ExtCommand::Restart(id))));
                }
            } else if self.asked[k].is_some() {
                ui.weak(format!("{label}: waiting for {name}…"));
            }
        }
        ui.horizontal(|ui| {
            let mut unlimited = s.radius.is_none();
            let mut r = s.radius.unwrap_or(10);
            ui.add_enabled(!unlimited, egui::Slider::new(&mut r, 1..=60).text("radius"));
            ui.checkbox(&mut unlimited, "unlimited");
            s.radius = (!unlimited).then_some(r);
        });
        ui.checkbox(&mut s.light_walls, "Light walls");
        ui.add(egui::Slider::new(&mut s.opacity, 0.0..=1.0).text("opacity"));
        if s != self.settings {
            commands.push(Command::Overlay(OverlayCommand::FovSettings(s)));
        }
        match (self.pinned, self.origin) {
            (Some(p), _) => {
                ui.horizontal(|ui| {
                    ui.label(format!("origin {}, {} (pinned)", p.x, p.y));
                    if ui.button("Unpin").clicked() {
                        commands.push(Command::Overlay(OverlayCommand::UnpinFov));
                    }
                });
            }
            (None, Some(o)) => {
                ui.label(format!("origin {}, {} (follows the pointer; Probe-click pins it)", o.x, o.y));
            }
            (None, None) => {
                ui.label("Hover the map to place the origin.");
            }
        }
        if let Some(pair) = &self.pair {
            pair_ui(ui, origin_label(self.origin), pair, &self.names);
        } else if self.pinned.is_some() {
            ui.weak("Hover a cell: whether it and the origin see each other, and a shot between them.");
        }
        let a = &self.agreement;
        legend_ui(
            ui,
            &[
                LegendEntry::new(BOTH, &format!("both see: {}", a.both)),
                LegendEntry::new(ONLY_A, &format!("only A ({}): {}", self.names[0], a.only_a)),
                LegendEntry::new(ONLY_B, &format!("only B ({}): {}", self.names[1], a.only_b)),
            ],
        );
        ui.separator();
        egui::Grid::new("fov_table").num_columns(3).striped(true).show(ui, |ui| {
            ui.strong("algorithm");
            ui.strong("visible");
            ui.strong("µs/call").on_hover_text("a program's: its round trip");
            ui.end_row();
            for row in self.table.iter().chain(&self.external_rows) {
                let name = egui::RichText::new(&row.name);
                let name = if row.choice == self.settings.a {
                    name.color(ONLY_A)
                } else if row.choice == self.settings.b {
                    name.color(ONLY_B)
                } else {
                    name
                };
                ui.label(name);
                ui.label(row.visible.to_string());
                ui.label(format!("{:.2}", row.micros));
                ui.end_row();
            }
        });
        egui_plot::Plot::new("fov_radius_plot")
            .height(150.0)
            .legend(egui_plot::Legend::default())
            .x_axis_label("radius")
            .y_axis_label("visible cells")
            .allow_scroll(false)
            .allow_zoom(false)
            .allow_drag(false)
            .show(ui, |plot| {
                for (k, colour) in [ONLY_A, ONLY_B].into_iter().enumerate() {
                    let name = format!("{} {}", ["A", "B"][k], self.names[k]);
                    plot.line(egui_plot::Line::new(name, self.plot[k].clone()).color(colour));
                }
            });
    }

    fn probe(&mut self, cell: Cell, map: &Map) {
        self.apply(OverlayCommand::PinFov(cell), map);
    }

    fn map_replaced(&mut self) {
        self.pinned = None;
    }
}
