//! The live overlays: the core's results drawn over the map, recomputed when the map changes.
//!
//! Each overlay keeps its settings (changed only through [`OverlayCommand`]s, applied in
//! `logic`), the results of the core keyed on the map's revision and those settings (so nothing
//! is recomputed that did not change), and draws itself over the canvas. Long work (the
//! symmetry audits, building the LOS cache) runs on `job::Job` threads; the UI shows their
//! progress and never waits for them.

pub mod job;

use std::sync::Arc;

use egui::{Color32, Painter};

pub use cache::CacheSettings;
pub use fov::FovSettings;
pub use lighting::LightingSettings;
pub use path::{Marker, PathMode, PathSettings};
pub use rules::RulesSettings;
pub use symmetry::SymmetrySettings;

use super::canvas::VisibleCells;
use super::external::{ExtCommand, Externals};
use super::{Command, View};
use crate::core::fov::OpacityGrid;
use crate::core::path::{CostGrid, DoorRule};
use crate::core::{Cell, Map};

/// Declares the overlays from [the registry](overlays!) below: their modules, [`OverlayKind`]
/// with its names, and [`Overlays`], which holds one of each and reaches them in order.
macro_rules! overlays {
    ($($module:ident::$overlay:ident as $kind:ident in $field:ident,
        menu $label:literal, cli $cli:literal, layer $layer:literal;)*) => {
        $(pub mod $module;)*
        $(pub use $module::$overlay;)*

        /// The overlays, by kind.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum OverlayKind {
            $($kind,)*
        }

        /// How many overlays there are.
        const COUNT: usize = [$(stringify!($kind)),*].len();

        impl OverlayKind {
            /// Every overlay, in the Overlays menu's order.
            pub const ALL: [OverlayKind; COUNT] = [$(OverlayKind::$kind,)*];

            /// The name in the Overlays menu.
            pub fn label(self) -> &'static str {
                match self {
                    $(OverlayKind::$kind => $label,)*
                }
            }

            /// The name `--overlay` takes.
            pub fn cli_name(self) -> &'static str {
                match self {
                    $(OverlayKind::$kind => $cli,)*
                }
            }

            /// Its place when drawn: 0 at the bottom.
            fn layer(self) -> u8 {
                match self {
                    $(OverlayKind::$kind => $layer,)*
                }
            }
        }

        /// The overlays the app offers, one of each kind.
        #[derive(Default)]
        pub struct Overlays {
            $(pub $field: $overlay,)*
            /// The map's opacity, shared with the background jobs.
            grid: GridCache,
            /// The programs registered as algorithms, which the overlays' pickers offer.
            pub externals: Externals,
        }

        impl Overlays {
            /// Every overlay with its kind, in [`OverlayKind::ALL`]'s order.
            pub(crate) fn each(&self) -> [(OverlayKind, &dyn Overlay); COUNT] {
                [$((OverlayKind::$kind, &self.$field as &dyn Overlay),)*]
            }

            fn each_mut(&mut self) -> [(OverlayKind, &mut dyn Overlay); COUNT] {
                [$((OverlayKind::$kind, &mut self.$field as &mut dyn Overlay),)*]
            }
        }
    };
}

// The registry: each overlay once, in the Overlays menu's order. Adding an overlay is its file
// (a type that implements `Overlay`) and its line here; every menu, panel, command and the
// `--overlay` flag read this list.
overlays! {
    rules::RulesOverlay as Rules in rules, menu "Game rules", cli "rules", layer 0;
    path::PathOverlay as Pathfinding in path, menu "Pathfinding", cli "pathfinding", layer 5;
    fov::FovOverlay as Fov in fov, menu "FOV comparison", cli "fov", layer 4;
    symmetry::SymmetryOverlay as Symmetry in symmetry, menu "Symmetry violations", cli "symmetry", layer 3;
    cache::CacheOverlay as Cache in cache, menu "Cache invalidation", cli "cache", layer 2;
    lighting::LightingOverlay as Lighting in lighting, menu "Lighting", cli "lighting", layer 1;
}

impl OverlayKind {
    /// The overlay `--overlay NAME` names.
    pub fn from_cli_name(name: &str) -> Option<OverlayKind> {
        OverlayKind::ALL.into_iter().find(|k| k.cli_name() == name)
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
    /// The External algorithms window's: register, restart, remove a program.
    Ext(ExtCommand),
}

/// Maps with more cells than this are searched and read off the UI thread (pathfinding, game
/// rules): the old result shows until the new one is in.
const BACKGROUND_CELLS: usize = 100_000;

/// What every overlay is: the core's results for the map, kept up to date and drawn over it.
/// The app holds them in [`Overlays`] and reaches each through this trait alone.
pub trait Overlay {
    fn is_on(&self) -> bool;
    fn set_on(&mut self, on: bool);
    /// Brings its results up to date with the map and its settings (`logic`, once a frame; an
    /// overlay that is off does nothing). Long work goes to a `job::Job`.
    fn update(&mut self, frame: &mut Frame);
    /// Waits for its background work and takes the results (tests, headless runs).
    fn wait(&mut self, _frame: &mut Frame) {}
    /// Work in progress that needs frames.
    fn busy(&self) -> bool {
        false
    }
    /// Takes the [`OverlayCommand`]s that are its own and ignores the others.
    fn apply(&mut self, command: OverlayCommand, map: &Map);
    /// A click with the Probe tool on a cell of the map.
    fn probe(&mut self, _cell: Cell, _map: &Map) {}
    /// A different map was opened: what was placed on the old one goes.
    fn map_replaced(&mut self) {}
    /// Draws over the canvas; `side` is the pathfinding side of a split canvas.
    fn draw(&self, painter: &Painter, view: &View, cells: VisibleCells, side: Option<usize>);
    /// Its section of the side panel; `externals` lists the programs its pickers offer.
    fn settings_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>, externals: &Externals);
    /// Its numbers as text (Copy numbers).
    fn numbers_text(&self) -> String;
}

/// What an overlay's update reads: the map, its revision, the cell under the pointer, the time
/// since the last frame, and the map's opacity, built once a revision for those that ask.
pub struct Frame<'a> {
    pub(crate) map: &'a Map,
    pub(crate) revision: u64,
    pub(crate) hovered: Option<Cell>,
    pub(crate) dt: f32,
    grid: &'a mut GridCache,
    /// The registered programs, to send requests to.
    pub(crate) externals: &'a mut Externals,
}

/// The map's opacity and its costs with closed doors as walls (what an external FOV program is
/// sent), as last built, and the revision each was built for.
#[derive(Default)]
pub struct GridCache(Option<(u64, Arc<OpacityGrid>)>, Option<(u64, Arc<CostGrid>)>);

impl<'a> Frame<'a> {
    pub fn new(
        map: &'a Map,
        revision: u64,
        hovered: Option<Cell>,
        dt: f32,
        grid: &'a mut GridCache,
        externals: &'a mut Externals,
    ) -> Self {
        Self { map, revision, hovered, dt, grid, externals }
    }

    /// What an external program is sent with an FOV request: the opacity and the walkable cells
    /// with closed doors as walls, built once a revision.
    pub(crate) fn fov_map(&mut self) -> super::external::MapData {
        let opacity = self.grid();
        let costs = match &self.grid.1 {
            Some((r, costs)) if *r == self.revision => Arc::clone(costs),
            _ => {
                let costs = Arc::new(CostGrid::from_map(self.map, DoorRule::Impassable));
                self.grid.1 = Some((self.revision, Arc::clone(&costs)));
                costs
            }
        };
        super::external::MapData { key: (self.revision, 0), opacity, costs }
    }

    /// The map's opacity, shared with the background jobs: built once a revision.
    pub(crate) fn grid(&mut self) -> Arc<OpacityGrid> {
        match &self.grid.0 {
            Some((r, grid)) if *r == self.revision => Arc::clone(grid),
            _ => {
                let grid = Arc::new(OpacityGrid::from_map(self.map));
                self.grid.0 = Some((self.revision, Arc::clone(&grid)));
                grid
            }
        }
    }
}

impl Overlays {
    pub(crate) fn get(&self, kind: OverlayKind) -> &dyn Overlay {
        let (_, overlay) = self.each().into_iter().find(|(k, _)| *k == kind).expect("every kind has its overlay");
        overlay
    }

    pub fn is_on(&self, kind: OverlayKind) -> bool {
        self.get(kind).is_on()
    }

    /// Whether the overlay splits the canvas in two (pathfinding, side by side).
    pub fn split(&self) -> bool {
        self.path.on && self.path.settings.mode == PathMode::Compare && self.path.settings.split
    }

    /// Work in progress that needs frames: a running job or the step playback.
    pub(crate) fn busy(&self) -> bool {
        self.each().iter().any(|(_, o)| o.busy()) || self.externals.busy()
    }

    pub fn apply(&mut self, command: OverlayCommand, map: &Map) {
        match command {
            OverlayCommand::Show(kind, on) => {
                self.each_mut().into_iter().filter(|(k, _)| *k == kind).for_each(|(_, o)| o.set_on(on))
            }
            OverlayCommand::Probe(cell) => {
                if map.in_bounds(cell) {
                    self.each_mut().into_iter().filter(|(_, o)| o.is_on()).for_each(|(_, o)| o.probe(cell, map));
                }
            }
            OverlayCommand::Ext(command) => self.externals.apply(command),
            command => self.each_mut().into_iter().for_each(|(_, o)| o.apply(command.clone(), map)),
        }
    }

    /// A different map was opened: what was placed on the old one goes.
    pub(crate) fn map_replaced(&mut self) {
        self.each_mut().into_iter().for_each(|(_, o)| o.map_replaced());
    }

    /// Brings every overlay that is on up to date with the map (`logic`, once a frame).
    pub fn update(&mut self, map: &Map, revision: u64, hovered: Option<Cell>, dt: f32) {
        let (mut grid, mut externals) = (std::mem::take(&mut self.grid), std::mem::take(&mut self.externals));
        let mut frame = Frame::new(map, revision, hovered, dt, &mut grid, &mut externals);
        self.each_mut().into_iter().for_each(|(_, o)| o.update(&mut frame));
        (self.grid, self.externals) = (grid, externals);
    }

    /// Waits for the background jobs and takes their results (tests and headless runs).
    pub fn wait_for_jobs(&mut self, map: &Map, revision: u64) {
        self.update(map, revision, None, 0.0);
        let (mut grid, mut externals) = (std::mem::take(&mut self.grid), std::mem::take(&mut self.externals));
        let mut frame = Frame::new(map, revision, None, 0.0, &mut grid, &mut externals);
        self.each_mut().into_iter().filter(|(_, o)| o.is_on()).for_each(|(_, o)| o.wait(&mut frame));
        (self.grid, self.externals) = (grid, externals);
    }

    /// Draws the overlays that are on; `side` picks one pathfinding side in a split view.
    pub(crate) fn draw(&self, painter: &Painter, view: &View, cells: VisibleCells, side: Option<usize>) {
        // Bottom first: the path on top, where it is read.
        let mut overlays = self.each();
        overlays.sort_by_key(|(kind, _)| kind.layer());
        for (_, overlay) in overlays {
            if overlay.is_on() {
                overlay.draw(painter, view, cells, side);
            }
        }
    }

    /// Every overlay's numbers, as text.
    pub fn numbers_text(&self) -> String {
        self.each().iter().filter(|(_, o)| o.is_on()).map(|(_, o)| o.numbers_text()).collect()
    }

    /// The sections of the overlays that are on, for the side panel.
    pub(crate) fn panel_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        for (kind, overlay) in self.each() {
            if !overlay.is_on() {
                continue;
            }
            egui::CollapsingHeader::new(kind.heading()).default_open(true).show(ui, |ui| {
                overlay.settings_ui(ui, commands, &self.externals);
                if ui.button("Close overlay").on_hover_text(kind.label()).clicked() {
                    commands.push(Command::Overlay(OverlayCommand::Show(kind, false)));
                }
            });
        }
    }
}

/// A drop-down of `options` (value, text), named `name` for screen readers and for tests
/// (`get_by_label(name)`); the name shows as its tooltip.
pub(crate) fn choice_ui<T: PartialEq + Copy>(ui: &mut egui::Ui, name: &str, value: &mut T, options: &[(T, &str)]) {
    choice_with_id_ui(ui, name, name, value, options);
}

/// [`choice_ui`] whose widget id comes from `id_salt`, not from its name: for a name the user
/// chose (a layer's, a tile's), which two of them may share.
pub(crate) fn choice_with_id_ui<T: PartialEq + Copy>(
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

/// A colour swatch and what it means.
pub(crate) struct LegendEntry {
    colour: Option<Color32>,
    text: String,
}

impl LegendEntry {
    pub(crate) fn new(colour: Color32, text: &str) -> Self {
        Self { colour: Some(colour), text: text.to_owned() }
    }

    /// The heatmap's colour ramp.
    pub(crate) fn ramp(text: &str) -> Self {
        Self { colour: None, text: text.to_owned() }
    }
}

pub(crate) fn legend_ui(ui: &mut egui::Ui, entries: &[LegendEntry]) {
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
pub(crate) fn heat_colour(t: f32) -> Color32 {
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

pub(crate) fn with_alpha(c: Color32, alpha: f32) -> Color32 {
    Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), (alpha.clamp(0.0, 1.0) * 255.0).round() as u8)
}
