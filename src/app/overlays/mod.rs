//! The live overlays: the core's results drawn over the map, recomputed when the map changes.
//!
//! Each overlay keeps its settings (changed only through [`OverlayCommand`]s, applied in
//! `logic`), the results of the core keyed on the map's revision and those settings (so nothing
//! is recomputed that did not change), and draws itself over the canvas. Long work (the
//! symmetry audits, building the LOS cache) runs on [`job::Job`] threads; the UI shows their
//! progress and never waits for them.

pub mod cache_view;
pub mod fov_compare;
pub mod job;
pub mod lighting_view;
pub mod pathfinding;
pub mod rules_view;
pub mod symmetry_view;

use std::sync::Arc;

use egui::{Color32, Painter};

pub use cache_view::{CacheSettings, CacheView};
pub use fov_compare::{FovCompare, FovSettings};
pub use lighting_view::{LightingSettings, LightingView};
pub use pathfinding::{Marker, PathMode, PathOverlay, PathSettings};
pub use rules_view::{RulesSettings, RulesView};
pub use symmetry_view::{SymmetrySettings, SymmetryView};

use super::canvas::VisibleCells;
use super::{Command, View};
use crate::core::fov::OpacityGrid;
use crate::core::{Cell, Map};

/// The six overlays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OverlayKind {
    Rules,
    Pathfinding,
    FovCompare,
    Symmetry,
    Cache,
    Lighting,
}

impl OverlayKind {
    pub const ALL: [OverlayKind; 6] = [
        OverlayKind::Rules,
        OverlayKind::Pathfinding,
        OverlayKind::FovCompare,
        OverlayKind::Symmetry,
        OverlayKind::Cache,
        OverlayKind::Lighting,
    ];

    /// The name in the Overlays menu.
    pub fn label(self) -> &'static str {
        match self {
            OverlayKind::Rules => "Game rules",
            OverlayKind::Pathfinding => "Pathfinding",
            OverlayKind::FovCompare => "FOV comparison",
            OverlayKind::Symmetry => "Symmetry violations",
            OverlayKind::Cache => "Cache invalidation",
            OverlayKind::Lighting => "Lighting",
        }
    }

    /// The heading of its section in the side panel.
    pub fn heading(self) -> String {
        format!("{} overlay", self.label())
    }
}

/// What the UI asks of the overlays.
#[derive(Clone, Debug, PartialEq)]
pub enum OverlayCommand {
    Show(OverlayKind, bool),
    /// A click with the Probe tool: every overlay that is on takes it (pathfinding moves the goal
    /// or toggles a Dijkstra-map source, FOV pins its origin, symmetry selects the cell, the cache
    /// toggles the cell's opacity).
    Probe(Cell),
    PathSettings(PathSettings),
    MoveMarker(Marker, Cell),
    ToggleSource(Cell),
    ClearSources,
    SetStep(u32),
    Play(bool),
    SetSpeed(f32),
    FovSettings(FovSettings),
    PinFov(Cell),
    UnpinFov,
    SymmetrySettings(SymmetrySettings),
    SelectSymmetryCell(Cell),
    CancelAudit,
    RestartAudit,
    CacheSettings(CacheSettings),
    ToggleWhatIf(Cell),
    ClearWhatIf,
    LightingSettings(LightingSettings),
    RulesSettings(RulesSettings),
    /// Pin the lighting overlay's viewer to a cell (again: unpin).
    PinViewer(Cell),
    UnpinViewer,
}

/// Maps with more cells than this are searched and read off the UI thread (pathfinding, game
/// rules): the old result shows until the new one is in.
const BACKGROUND_CELLS: usize = 100_000;

#[derive(Default)]
pub struct Overlays {
    pub rules: RulesView,
    pub path: PathOverlay,
    pub fov: FovCompare,
    pub symmetry: SymmetryView,
    pub cache: CacheView,
    pub lighting: LightingView,
    /// The map's opacity, shared with the background jobs.
    grid: Option<(u64, Arc<OpacityGrid>)>,
}

impl Overlays {
    pub fn is_on(&self, kind: OverlayKind) -> bool {
        match kind {
            OverlayKind::Rules => self.rules.on,
            OverlayKind::Pathfinding => self.path.on,
            OverlayKind::FovCompare => self.fov.on,
            OverlayKind::Symmetry => self.symmetry.on,
            OverlayKind::Cache => self.cache.on,
            OverlayKind::Lighting => self.lighting.on,
        }
    }

    /// Whether the overlay splits the canvas in two (pathfinding, side by side).
    pub fn split(&self) -> bool {
        self.path.on && self.path.settings.mode == PathMode::Compare && self.path.settings.split
    }

    /// Work in progress that needs frames: a running job or the step playback.
    pub fn busy(&self) -> bool {
        self.symmetry.busy() || self.cache.busy() || self.path.busy() || self.rules.busy()
    }

    pub fn apply(&mut self, command: OverlayCommand, map: &Map) {
        match command {
            OverlayCommand::Show(kind, on) => match kind {
                OverlayKind::Rules => self.rules.on = on,
                OverlayKind::Pathfinding => self.path.on = on,
                OverlayKind::FovCompare => self.fov.on = on,
                OverlayKind::Symmetry => self.symmetry.on = on,
                OverlayKind::Cache => self.cache.on = on,
                OverlayKind::Lighting => self.lighting.on = on,
            },
            OverlayCommand::Probe(cell) => {
                if !map.in_bounds(cell) {
                    return;
                }
                if self.path.on {
                    let c = match self.path.settings.mode {
                        PathMode::Compare => OverlayCommand::MoveMarker(Marker::Goal, cell),
                        PathMode::DijkstraMap => OverlayCommand::ToggleSource(cell),
                    };
                    self.path.apply(c, map);
                }
                if self.fov.on {
                    self.fov.apply(OverlayCommand::PinFov(cell));
                }
                if self.symmetry.on {
                    self.symmetry.apply(OverlayCommand::SelectSymmetryCell(cell));
                }
                if self.cache.on {
                    self.cache.apply(OverlayCommand::ToggleWhatIf(cell));
                }
                if self.lighting.on {
                    self.lighting.apply(OverlayCommand::PinViewer(cell));
                }
            }
            c @ (OverlayCommand::PathSettings(_)
            | OverlayCommand::MoveMarker(..)
            | OverlayCommand::ToggleSource(_)
            | OverlayCommand::ClearSources
            | OverlayCommand::SetStep(_)
            | OverlayCommand::Play(_)
            | OverlayCommand::SetSpeed(_)) => self.path.apply(c, map),
            c @ (OverlayCommand::FovSettings(_) | OverlayCommand::PinFov(_) | OverlayCommand::UnpinFov) => {
                self.fov.apply(c)
            }
            c @ (OverlayCommand::SymmetrySettings(_)
            | OverlayCommand::SelectSymmetryCell(_)
            | OverlayCommand::CancelAudit
            | OverlayCommand::RestartAudit) => self.symmetry.apply(c),
            c @ (OverlayCommand::CacheSettings(_) | OverlayCommand::ToggleWhatIf(_) | OverlayCommand::ClearWhatIf) => {
                self.cache.apply(c)
            }
            c @ (OverlayCommand::LightingSettings(_) | OverlayCommand::PinViewer(_) | OverlayCommand::UnpinViewer) => {
                self.lighting.apply(c)
            }
            c @ OverlayCommand::RulesSettings(_) => self.rules.apply(c),
        }
    }

    /// A different map was opened: what was placed on the old one goes.
    pub fn map_replaced(&mut self) {
        self.path.start = None;
        self.path.goal = None;
        self.path.sources.clear();
        self.fov.pinned = None;
        self.symmetry.selected = None;
        self.cache.apply(OverlayCommand::ClearWhatIf);
        self.lighting.pinned = None;
    }

    fn opacity_grid(&mut self, map: &Map, revision: u64) -> Arc<OpacityGrid> {
        match &self.grid {
            Some((r, grid)) if *r == revision => Arc::clone(grid),
            _ => {
                let grid = Arc::new(OpacityGrid::from_map(map));
                self.grid = Some((revision, Arc::clone(&grid)));
                grid
            }
        }
    }

    /// Brings every overlay that is on up to date with the map (`logic`, once a frame).
    pub fn update(&mut self, map: &Map, revision: u64, hovered: Option<Cell>, dt: f32) {
        self.rules.update(map, revision);
        self.path.advance(dt);
        self.path.update(map, revision);
        if self.fov.on || self.symmetry.on || self.cache.on || self.lighting.on {
            let grid = self.opacity_grid(map, revision);
            self.fov.update(&grid, revision, hovered);
            self.symmetry.update(&grid, revision);
            self.cache.update(&grid, revision);
            self.lighting.update(map, &grid, revision, hovered);
        }
    }

    /// Waits for the background jobs and takes their results (tests and headless runs).
    pub fn wait_for_jobs(&mut self, map: &Map, revision: u64) {
        self.update(map, revision, None, 0.0);
        if self.rules.on {
            self.rules.wait(map, revision);
        }
        if self.path.on {
            self.path.wait(map, revision);
        }
        let grid = self.opacity_grid(map, revision);
        if self.symmetry.on {
            self.symmetry.wait(&grid, revision);
        }
        if self.cache.on {
            self.cache.wait(&grid, revision);
        }
    }

    /// Draws the overlays that are on; `side` picks one pathfinding side in a split view.
    pub fn draw(&self, painter: &Painter, view: &View, cells: VisibleCells, side: Option<usize>) {
        if self.rules.on {
            self.rules.draw(painter, view, cells);
        }
        if self.lighting.on {
            self.lighting.draw(painter, view, cells);
        }
        if self.cache.on {
            self.cache.draw(painter, view, cells);
        }
        if self.symmetry.on {
            self.symmetry.draw(painter, view, cells);
        }
        if self.fov.on {
            self.fov.draw(painter, view, cells);
        }
        if self.path.on {
            self.path.draw(painter, view, cells, side);
        }
    }

    /// Every overlay's numbers, as text.
    pub fn numbers_text(&self) -> String {
        let mut out = String::new();
        if self.rules.on {
            out += &self.rules.numbers_text();
        }
        if self.path.on {
            out += &self.path.numbers_text();
        }
        if self.fov.on {
            out += &self.fov.numbers_text();
        }
        if self.symmetry.on {
            out += &self.symmetry.numbers_text();
        }
        if self.cache.on {
            out += &self.cache.numbers_text();
        }
        if self.lighting.on {
            out += &self.lighting.numbers_text();
        }
        out
    }

    /// The sections of the overlays that are on, for the side panel.
    pub fn panel_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        for kind in OverlayKind::ALL {
            if !self.is_on(kind) {
                continue;
            }
            egui::CollapsingHeader::new(kind.heading()).default_open(true).show(ui, |ui| {
                match kind {
                    OverlayKind::Rules => self.rules.settings_ui(ui, commands),
                    OverlayKind::Pathfinding => self.path.settings_ui(ui, commands),
                    OverlayKind::FovCompare => self.fov.settings_ui(ui, commands),
                    OverlayKind::Symmetry => self.symmetry.settings_ui(ui, commands),
                    OverlayKind::Cache => self.cache.settings_ui(ui, commands),
                    OverlayKind::Lighting => self.lighting.settings_ui(ui, commands),
                }
                if ui.button("Close overlay").on_hover_text(kind.label()).clicked() {
                    commands.push(Command::Overlay(OverlayCommand::Show(kind, false)));
                }
            });
        }
    }
}

/// A drop-down of `options` (value, text), named `name` for screen readers and for tests
/// (`get_by_label(name)`); the name shows as its tooltip.
pub fn choice_ui<T: PartialEq + Copy>(ui: &mut egui::Ui, name: &str, value: &mut T, options: &[(T, &str)]) {
    choice_with_id_ui(ui, name, name, value, options);
}

/// [`choice_ui`] whose widget id comes from `id_salt`, not from its name: for a name the user
/// chose (a layer's, a tile's), which two of them may share.
pub fn choice_with_id_ui<T: PartialEq + Copy>(
    ui: &mut egui::Ui,
    id_salt: impl egui::AsIdSalt,
    name: &str,
    value: &mut T,
    options: &[(T, &str)],
) {
    let selected = options.iter().find(|(v, _)| v == value).map_or("", |(_, t)| t);
    let response = egui::ComboBox::from_id_salt(id_salt)
        .selected_text(selected)
        // Every option in view (egui's default height scrolls past about ten).
        .height(480.0)
        .show_ui(ui, |ui| {
            for (v, t) in options {
                ui.selectable_value(value, *v, *t);
            }
        })
        .response;
    ui.ctx().accesskit_node_builder(response.id, |node| node.set_label(name.to_owned()));
    response.on_hover_text(name);
}

/// The FOV algorithms as drop-down options.
pub fn fov_options() -> Vec<(crate::core::fov::Algorithm, &'static str)> {
    crate::core::fov::Algorithm::ALL.iter().map(|&a| (a, a.name())).collect()
}

/// A colour swatch and what it means.
pub struct LegendEntry {
    colour: Option<Color32>,
    text: String,
}

impl LegendEntry {
    pub fn new(colour: Color32, text: &str) -> Self {
        Self { colour: Some(colour), text: text.to_owned() }
    }

    /// The heatmap's colour ramp.
    pub fn ramp(text: &str) -> Self {
        Self { colour: None, text: text.to_owned() }
    }
}

pub fn legend_ui(ui: &mut egui::Ui, entries: &[LegendEntry]) {
    for e in entries {
        ui.horizontal(|ui| {
            let width = if e.colour.is_some() { 14.0 } else { 56.0 };
            let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 14.0), egui::Sense::hover());
            match e.colour {
                Some(c) => {
                    ui.painter().rect_filled(rect, 2.0, c);
                }
                None => {
                    let steps = 8;
                    for k in 0..steps {
                        let t = k as f32 / (steps - 1) as f32;
                        let x0 = rect.left() + rect.width() * k as f32 / steps as f32;
                        let r = egui::Rect::from_min_max(
                            egui::pos2(x0, rect.top()),
                            egui::pos2(x0 + rect.width() / steps as f32, rect.bottom()),
                        );
                        ui.painter().rect_filled(r, 0.0, heat_colour(t));
                    }
                }
            }
            ui.label(&e.text);
        });
    }
}

/// A perceptually ordered ramp for heatmaps (dark blue, purple, red, orange, yellow), `t` in 0..=1.
pub fn heat_colour(t: f32) -> Color32 {
    const STOPS: [(f32, [u8; 3]); 5] = [
        (0.0, [40, 30, 120]),
        (0.3, [130, 40, 160]),
        (0.55, [220, 60, 80]),
        (0.8, [250, 150, 40]),
        (1.0, [250, 240, 120]),
    ];
    let t = if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.0 };
    for pair in STOPS.windows(2) {
        let ((t0, c0), (t1, c1)) = (pair[0], pair[1]);
        if t <= t1 {
            let f = (t - t0) / (t1 - t0);
            let mix = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * f).round() as u8;
            return Color32::from_rgb(mix(c0[0], c1[0]), mix(c0[1], c1[1]), mix(c0[2], c1[2]));
        }
    }
    Color32::from_rgb(250, 240, 120)
}

pub fn with_alpha(c: Color32, alpha: f32) -> Color32 {
    Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), (alpha.clamp(0.0, 1.0) * 255.0).round() as u8)
}
