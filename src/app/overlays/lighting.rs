//! The lighting overlay: what the map's lights light, by the game's own rule
//! ([`crate::core::sim::lighting`]), under one FOV algorithm. Lit cells are washed amber, deeper
//! where lights overlap, each light's radius ringed; and a viewer (the hovered cell, or one a
//! Probe click pins) with a vision radius shows what it would see in play: its own view, and the
//! cells it sees only because they are lit (within 20 cells, a wall only from its lit side).
//! Under an external program, the lights are lit and the viewer's sight computed on a job
//! whose views are requests to the program (again in full after an edit).

use egui::{Color32, Painter, Stroke};

use super::job::Job;
use super::{Frame, LegendEntry, Overlay, OverlayCommand, legend_ui, with_alpha};
use crate::app::algorithms::{FovChoice, fov_choices};
use crate::app::canvas::VisibleCells;
use crate::app::external::{ExtCommand, Externals, Lane, LaneSight};
use crate::app::{Command, View};
use crate::core::ext::ExtError;
use crate::core::fov::{Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet};
use crate::core::sim::{Lighting, SIGHT_RANGE, SightSource};
use crate::core::{Cell, Map};

#[derive(Clone, Debug, PartialEq)]
pub struct LightingSettings {
    /// The FOV algorithm light and sight go by (the Grass preset's by default).
    pub algorithm: FovChoice,
    /// Show a viewer's sight, from the hovered or pinned cell.
    pub(crate) sight: bool,
    /// The viewer's own vision radius.
    pub(crate) vision: u32,
    pub(crate) opacity: f32,
}

impl Default for LightingSettings {
    fn default() -> Self {
        Self { algorithm: Algorithm::Shadowcast.into(), sight: true, vision: 8, opacity: 0.7 }
    }
}

/// A viewer's sight: what it sees in its own view, and by light beyond it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SightCounts {
    pub(crate) own: usize,
    pub(crate) by_light: usize,
}

#[derive(Default)]
pub struct LightingOverlay {
    pub(crate) on: bool,
    pub settings: LightingSettings,
    /// The viewer a Probe click fixed; otherwise it follows the pointer.
    pub pinned: Option<Cell>,
    /// The viewer whose sight is shown.
    pub viewer: Option<Cell>,
    lighting: Option<Lighting>,
    /// How many lights light each cell (the wash's depth), row-major.
    overlap: Vec<u8>,
    width: i32,
    own: VisibleSet,
    seen: VisibleSet,
    far: VisibleSet,
    pub(crate) counts: SightCounts,
    /// The map revision and algorithm the lights were lit for, and the opacity then (an edit
    /// relights only the lights near the cells whose opacity it changed).
    key: Option<LightKey>,
    grid: Option<std::sync::Arc<OpacityGrid>>,
    sight_key: Option<SightKey>,
    /// Under a program: the lighting and the viewer's sight asked of it, and its error.
    lighting_job: Option<(LightKey, LightingJob)>,
    sight_job: Option<(SightKey, SightJob)>,
    pub error: Option<ExtError>,
}

/// The map revision, the algorithm and the registry's epoch the lights were lit for.
type LightKey = (u64, FovChoice, u64);
/// And the viewer and its vision.
type SightKey = (u64, FovChoice, u64, Cell, u32);
/// A program's lighting, and its first error.
type LightingJob = Job<(Lighting, Option<ExtError>)>;
/// A program's viewer: its own view, what it sees by light too, and the program's first error.
type SightJob = Job<(VisibleSet, VisibleSet, Option<ExtError>)>;

const LIT: Color32 = Color32::from_rgb(255, 176, 40);
const OWN: Color32 = Color32::from_rgb(90, 160, 255);
const BY_LIGHT: Color32 = Color32::from_rgb(255, 240, 120);

impl LightingOverlay {
    /// Lights the map with a built-in algorithm: after an edit, only the lights near the cells
    /// whose opacity changed.
    fn light_builtin(&mut self, map: &Map, grid: &std::sync::Arc<OpacityGrid>, algorithm: Algorithm, key: LightKey) {
        let same_size = self.grid.as_ref().is_some_and(|g| (g.width(), g.height()) == (grid.width(), grid.height()));
        let same_algorithm = self.lighting.as_ref().is_some_and(|l| l.source().builtin() == Some(algorithm));
        match self.grid.clone() {
            Some(before) if same_size && same_algorithm => {
                self.count_overlap(false);
                let lighting = self.lighting.as_mut().expect("lit before");
                lighting.opacity_changed(&before.changed_cells(grid), grid);
                lighting.set_lights(Lighting::lights_of(map), grid);
            }
            _ => {
                self.resize(grid);
                self.lighting = Some(Lighting::of_map(map, algorithm, grid));
            }
        }
        self.count_overlap(true);
        self.grid = Some(std::sync::Arc::clone(grid));
        self.key = Some(key);
        self.sight_key = None;
        self.lighting_job = None;
        self.error = None;
    }

    fn resize(&mut self, grid: &OpacityGrid) {
        let (w, h) = (grid.width() as u32, grid.height() as u32);
        self.width = grid.width();
        self.overlap = vec![0; w as usize * h as usize];
        (self.own, self.seen, self.far) = (VisibleSet::new(w, h), VisibleSet::new(w, h), VisibleSet::new(w, h));
    }

    /// Takes a program's answers that are in.
    fn take_answers(&mut self) {
        if let Some((key, job)) = &self.lighting_job
            && let Some(answer) = job.poll()
        {
            let key = *key;
            self.lighting_job = None;
            self.install_lighting(key, answer);
        }
        if let Some((key, job)) = &self.sight_job
            && let Some(answer) = job.poll()
        {
            let key = *key;
            self.sight_job = None;
            self.install_sight(key, answer);
        }
    }

    fn install_lighting(&mut self, key: LightKey, (lighting, error): (Lighting, Option<ExtError>)) {
        self.error = error;
        let opacity_size = lighting.lit().width() as usize * lighting.lit().height() as usize;
        if self.overlap.len() != opacity_size {
            self.width = lighting.lit().width();
            self.overlap = vec![0; opacity_size];
            let (w, h) = (lighting.lit().width() as u32, lighting.lit().height() as u32);
            (self.own, self.seen, self.far) = (VisibleSet::new(w, h), VisibleSet::new(w, h), VisibleSet::new(w, h));
        }
        self.overlap.fill(0);
        self.lighting = Some(lighting);
        self.count_overlap(true);
        // A program's lighting is made again in full after an edit: no grid to compare with.
        self.grid = None;
        self.key = Some(key);
        self.sight_key = None;
    }

    fn install_sight(&mut self, key: SightKey, (own, seen, error): (VisibleSet, VisibleSet, Option<ExtError>)) {
        if error.is_some() {
            self.error = error;
        }
        self.counts = SightCounts { own: own.count(), by_light: seen.count().saturating_sub(own.count()) };
        (self.own, self.seen) = (own, seen);
        self.sight_key = Some(key);
    }

    /// Adds the lights' cells to the overlap counts, or takes them away (what the lights lit
    /// before an edit), a cell at a time: the counts cost what the lights light, not the map.
    fn count_overlap(&mut self, add: bool) {
        let Some(lighting) = &self.lighting else { return };
        for k in 0..lighting.lights().len() {
            for c in lighting.view_of(k) {
                let n = &mut self.overlap[(c.y * self.width + c.x) as usize];
                *n = if add { n.saturating_add(1) } else { n.saturating_sub(1) };
            }
        }
    }

    /// The lighting shown (none before the overlay first ran).
    pub fn lighting(&self) -> Option<&Lighting> {
        self.lighting.as_ref()
    }

    fn sight_shown(&self) -> Option<Cell> {
        self.viewer.filter(|_| self.settings.sight && self.sight_key.is_some())
    }
}

impl Overlay for LightingOverlay {
    fn is_on(&self) -> bool {
        self.on
    }

    fn set_on(&mut self, on: bool) {
        self.on = on;
    }

    /// The lights (when the map or the algorithm changed: after an edit, only the lights near
    /// what it changed) and the viewer's sight (again when it moved, or its vision changed).
    fn update(&mut self, frame: &mut Frame) {
        if !self.on {
            return;
        }
        let (grid, revision, hovered) = (&frame.grid(), frame.revision, frame.hovered);
        let choice = self.settings.algorithm;
        let key = (revision, choice, frame.externals.epoch());
        self.take_answers();
        if self.key != Some(key) {
            match choice {
                FovChoice::Builtin(algorithm) => self.light_builtin(frame.map, grid, algorithm, key),
                FovChoice::External(id) => {
                    let asked = self.lighting_job.as_ref().map(|(k, _)| *k);
                    if asked != Some(key) && self.lighting_job.is_none() {
                        let sight = frame.externals.client(id, Lane::Interactive).map(LaneSight::new);
                        let (map, grid) = (frame.map.clone(), std::sync::Arc::clone(grid));
                        self.lighting_job = sight.map(|sight| {
                            let job = Job::spawn(1, move |_| {
                                let source = SightSource::external(std::sync::Arc::new(sight));
                                let lighting = Lighting::with_source(Lighting::lights_of(&map), source.clone(), &grid);
                                (lighting, source.take_error())
                            });
                            (key, job)
                        });
                    }
                    return;
                }
            }
        }
        let in_bounds = |c: &Cell| grid.in_bounds(c.x, c.y);
        self.viewer = self.pinned.filter(in_bounds).or(hovered.filter(in_bounds)).or(self.viewer.filter(in_bounds));
        let (Some(viewer), Some(lighting), true) = (self.viewer, &self.lighting, self.settings.sight) else { return };
        let vision = self.settings.vision;
        let sight_key = (key.0, key.1, key.2, viewer, vision);
        if self.sight_key == Some(sight_key) || self.sight_job.is_some() {
            return;
        }
        let source = lighting.source().clone();
        if source.builtin().is_some() {
            source.compute(grid, FovParams::new(viewer, Some(vision)), &mut self.own);
            lighting.sight(grid, viewer, Some(vision), &mut self.seen, &mut self.far);
            let own = self.own.count();
            self.counts = SightCounts { own, by_light: self.seen.count() - own };
            self.sight_key = Some(sight_key);
        } else {
            let (lighting, grid) = (lighting.clone(), std::sync::Arc::clone(grid));
            let (w, h) = (grid.width() as u32, grid.height() as u32);
            let job = Job::spawn(1, move |_| {
                let (mut own, mut seen, mut far) = (VisibleSet::new(w, h), VisibleSet::new(w, h), VisibleSet::new(w, h));
                source.compute(&grid, FovParams::new(viewer, Some(vision)), &mut own);
                lighting.sight(&grid, viewer, Some(vision), &mut seen, &mut far);
                (own, seen, source.take_error())
            });
            self.sight_job = Some((sight_key, job));
        }
    }

    fn wait(&mut self, frame: &mut Frame) {
        for _ in 0..3 {
            if let Some((key, job)) = self.lighting_job.take()
                && let Some(answer) = job.wait()
            {
                self.install_lighting(key, answer);
            }
            if let Some((key, job)) = self.sight_job.take()
                && let Some(answer) = job.wait()
            {
                self.install_sight(key, answer);
            }
            self.update(frame);
        }
    }

    fn busy(&self) -> bool {
        self.lighting_job.is_some() || self.sight_job.is_some()
    }

    fn apply(&mut self, command: OverlayCommand, _map: &Map) {
        match command {
            OverlayCommand::LightingSettings(s) => self.settings = s,
            OverlayCommand::PinViewer(cell) => {
                self.pinned = if self.pinned == Some(cell) { None } else { Some(cell) };
            }
            OverlayCommand::UnpinViewer => self.pinned = None,
            _ => {}
        }
    }

    fn draw(&self, painter: &Painter, view: &View, cells: VisibleCells, _side: Option<usize>) {
        let Some(lighting) = &self.lighting else { return };
        let alpha = self.settings.opacity;
        let sight = self.sight_shown();
        let mut mesh = egui::Mesh::default();
        for c in cells.iter() {
            let r = view.cell_rect(c);
            let overlap = self.overlap.get((c.y * self.width + c.x) as usize).copied().unwrap_or(0);
            if overlap > 0 {
                // Deeper where more lights reach, up to three.
                let depth = 0.3 + 0.15 * f32::from(overlap.min(3));
                mesh.add_colored_rect(r, with_alpha(LIT, alpha * depth));
            }
            if sight.is_some() && self.seen.contains_cell(c) {
                let (colour, a) = if self.own.contains_cell(c) { (OWN, 0.35) } else { (BY_LIGHT, 0.6) };
                mesh.add_colored_rect(r.shrink(view.cell_px * 0.25), with_alpha(colour, alpha * a));
            }
        }
        painter.add(egui::Shape::mesh(mesh));
        for light in lighting.lights() {
            let centre = view.cell_rect(light.cell).center();
            // At most the map's size: a radius past it lights no more, and draws no wider.
            let radius = light.radius.min(2 * cells.map_width.max(cells.map_height) as u32);
            let r = (radius as f32 + 0.5) * view.cell_px;
            if !view.canvas.intersects(egui::Rect::from_center_size(centre, egui::Vec2::splat(2.0 * r))) {
                continue;
            }
            painter.circle_stroke(centre, r, Stroke::new(1.0, with_alpha(LIT, 0.8)));
            painter.circle_filled(centre, (view.cell_px * 0.18).max(2.0), LIT);
        }
        if let Some(viewer) = sight {
            let r = view.cell_rect(viewer);
            painter.rect_stroke(r, 0.0, Stroke::new(2.5, BY_LIGHT), egui::StrokeKind::Inside);
            let ring = Stroke::new(1.0, with_alpha(OWN, 0.6));
            painter.circle_stroke(r.center(), (self.settings.vision as f32 + 0.5) * view.cell_px, ring);
        }
    }

    fn numbers_text(&self) -> String {
        let Some(lighting) = &self.lighting else { return String::new() };
        let s = &self.settings;
        let mut out = format!(
            "lighting {}: {} lights, {} cells lit\nlight\tcell\tradius\tlit\n",
            lighting.source().name(),
            lighting.lights().len(),
            lighting.lit().count()
        );
        for (k, l) in lighting.lights().iter().enumerate() {
            out += &format!("#{}\t{}\t{}\t{}\n", l.object, l.cell, l.radius, lighting.lit_by(k));
        }
        if let Some(v) = self.sight_shown() {
            out += &format!(
                "viewer {v} vision {}: own view {}, by light {}\n",
                s.vision, self.counts.own, self.counts.by_light
            );
        }
        out
    }

    fn settings_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>, externals: &Externals) {
        let mut s = self.settings.clone();
        ui.horizontal(|ui| {
            ui.label("FOV");
            crate::app::algorithms::choice_owned_ui(ui, "lighting algorithm", &mut s.algorithm, &fov_choices(externals));
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e.to_string());
            if let FovChoice::External(id) = s.algorithm
                && ui.button(format!("Restart {}", externals.name(id))).clicked()
            {
                commands.push(Command::Overlay(OverlayCommand::Ext(ExtCommand::Restart(id))));
            }
        } else if self.lighting_job.is_some() || self.sight_job.is_some() {
            ui.weak("waiting for the program…");
        }
        ui.checkbox(&mut s.sight, "A viewer's sight").on_hover_text(format!(
            "What a viewer at the hovered cell (a Probe click pins it) sees in play: its own view, and lit cells \
             up to {SIGHT_RANGE} away"
        ));
        ui.add_enabled(s.sight, egui::Slider::new(&mut s.vision, 0..=30).text("vision"));
        ui.add(egui::Slider::new(&mut s.opacity, 0.0..=1.0).text("opacity"));
        if s != self.settings {
            commands.push(Command::Overlay(OverlayCommand::LightingSettings(s)));
        }
        let Some(lighting) = &self.lighting else { return };
        if lighting.lights().is_empty() {
            ui.label("This map has no lights: place one with the object tool (O, light).");
            return;
        }
        let mut legend = vec![LegendEntry::new(
            LIT,
            &format!("lit: {} cells (deeper where lights overlap)", lighting.lit().count()),
        )];
        if let Some(v) = self.sight_shown() {
            match self.pinned {
                Some(_) => {
                    ui.horizontal(|ui| {
                        ui.label(format!("viewer {}, {} (pinned)", v.x, v.y));
                        if ui.button("Unpin").clicked() {
                            commands.push(Command::Overlay(OverlayCommand::UnpinViewer));
                        }
                    });
                }
                None => {
                    ui.label(format!("viewer {}, {} (follows the pointer; Probe-click pins it)", v.x, v.y));
                }
            }
            legend.push(LegendEntry::new(OWN, &format!("its own view: {}", self.counts.own)));
            legend.push(LegendEntry::new(BY_LIGHT, &format!("seen only by light: {}", self.counts.by_light)));
        }
        legend_ui(ui, &legend);
        ui.separator();
        let n = lighting.lights().len();
        ui.label(format!("{n} light{}, by id:", if n == 1 { "" } else { "s" }));
        // Only the rows in view are laid out: a generated dungeon has hundreds of lights.
        let row_height = ui.text_style_height(&egui::TextStyle::Body);
        egui::ScrollArea::vertical().id_salt("lights_table").max_height(160.0).show_rows(
            ui,
            row_height,
            lighting.lights().len(),
            |ui, rows| {
                for k in rows {
                    let l = &lighting.lights()[k];
                    ui.label(format!(
                        "#{} at {}, {}: radius {}, {} lit",
                        l.object,
                        l.cell.x,
                        l.cell.y,
                        l.radius,
                        lighting.lit_by(k)
                    ));
                }
            },
        );
    }

    fn probe(&mut self, cell: Cell, map: &Map) {
        self.apply(OverlayCommand::PinViewer(cell), map);
    }

    fn map_replaced(&mut self) {
        self.pinned = None;
    }
}
