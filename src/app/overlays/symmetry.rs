//! The symmetry overlay: the whole-map audit of one algorithm as a heatmap of violations per
//! cell (computed off the UI thread, with progress and cancel), the violating partners of a
//! clicked cell, and every algorithm's error rate on this map. An external program's audit runs
//! on its worker (the audit lane), through the same core audit as a built-in's.

use std::sync::Arc;

use egui::{Color32, Painter, Stroke};

use super::job::Job;
use super::{Frame, LegendEntry, Overlay, OverlayCommand, heat_colour, legend_ui, with_alpha};
use crate::app::algorithms::{FovChoice, fov_choices};
use crate::app::canvas::VisibleCells;
use crate::app::external::{ExtCommand, ExtId, Externals, Lane};
use crate::app::{Command, View};
use crate::core::Cell;
use crate::core::Map;
use crate::core::analysis::symmetry::{self, AuditError, Failure, SymmetryReport, Views};
use crate::core::ext::ExtError;
use crate::core::fov::{Algorithm, Opacity, OpacityGrid};

#[derive(Clone, Debug, PartialEq)]
pub struct SymmetrySettings {
    pub algorithm: FovChoice,
    pub(crate) radius: u32,
    pub(crate) opacity: f32,
}

impl Default for SymmetrySettings {
    fn default() -> Self {
        Self { algorithm: Algorithm::Shadowcast.into(), radius: 8, opacity: 0.8 }
    }
}

/// The map's revision, the algorithm, the radius and the registry's epoch (a restarted program
/// is audited again).
type AuditKey = (u64, FovChoice, u32, u64);
type TableKey = (u64, u32);
type TableJob = Job<Result<Vec<SymmetryReport>, AuditError>>;
type AuditJob = Job<Result<SymmetryReport, AuditError>>;
type PartnersJob = Job<Result<Vec<(Cell, Failure)>, ExtError>>;

#[derive(Default)]
pub struct SymmetryOverlay {
    pub(crate) on: bool,
    pub settings: SymmetrySettings,
    /// The cell whose partners are drawn.
    pub selected: Option<Cell>,
    pub report: Option<SymmetryReport>,
    report_key: Option<AuditKey>,
    job: Option<(AuditKey, AuditJob)>,
    pub partners: Vec<(Cell, Failure)>,
    partners_key: Option<(AuditKey, Cell)>,
    /// An external program's partners of the selected cell, asked.
    partners_job: Option<((AuditKey, Cell), PartnersJob)>,
    /// Every algorithm's audit at the same radius.
    pub table: Vec<SymmetryReport>,
    table_key: Option<TableKey>,
    table_job: Option<(TableKey, TableJob)>,
    /// Each registered program's row of the table (after the built-ins'), and its audit running.
    pub external_rows: Vec<(ExtId, SymmetryReport)>,
    external_jobs: Vec<(ExtId, (TableKey, u64), AuditJob)>,
    external_keys: Vec<(ExtId, (TableKey, u64))>,
    /// The user cancelled: do not start again until something changes.
    cancelled: Option<AuditKey>,
    pub(crate) error: Option<String>,
}

const SEEN_BY_THIS_ONLY: Color32 = Color32::from_rgb(80, 220, 255);
const SEEN_BY_PARTNER_ONLY: Color32 = Color32::from_rgb(255, 80, 200);

impl SymmetryOverlay {
    /// The table's rows of the registered programs: each audited once per map, radius and
    /// registry epoch, after the built-ins (one at a time: they share the audit lane).
    fn update_external_rows(&mut self, frame: &mut Frame, table_key: TableKey) {
        let epoch = frame.externals.epoch();
        let mut finished = Vec::new();
        self.external_jobs.retain(|(id, key, job)| match job.poll() {
            Some(result) => {
                finished.push((*id, *key, result));
                false
            }
            None => true,
        });
        for (id, key, result) in finished {
            self.external_rows.retain(|(i, _)| *i != id);
            if let Ok(report) = result {
                self.external_rows.push((id, report));
            }
            self.external_keys.retain(|(i, _)| *i != id);
            self.external_keys.push((id, key));
        }
        let programs = frame.externals.offering(true);
        self.external_rows.retain(|(id, _)| programs.iter().any(|(p, _)| p == id));
        self.external_rows.sort_by_key(|(id, _)| *id);
        if self.table_job.is_some() {
            return;
        }
        let grid = frame.grid();
        for (id, _) in programs {
            let key = (table_key, epoch);
            let done = self.external_keys.iter().any(|(i, k)| *i == id && *k == key);
            let running = self.external_jobs.iter().any(|(i, k, _)| *i == id && *k == key);
            if !done && !running {
                self.external_jobs.retain(|(i, _, _)| *i != id);
                let cells = transparent_cells(&grid);
                let job = external_audit(frame, id, Arc::clone(&grid), table_key.1, cells);
                self.external_jobs.push((id, key, job));
            }
        }
    }
}

/// A program's whole-map audit, on its audit lane.
fn external_audit(frame: &mut Frame, id: ExtId, grid: Arc<OpacityGrid>, radius: u32, cells: usize) -> AuditJob {
    let map = frame.fov_map();
    frame.externals.run(id, Lane::Audit, Some(map), 2 * cells, |e| Err(AuditError::External(e)), move |program, p| {
        symmetry::audit_views(&grid, Views::External(program), Some(radius), &p.done, &p.cancel)
    })
}

fn transparent_cells(grid: &OpacityGrid) -> usize {
    let (w, h) = (grid.width(), grid.height());
    (0..h).map(|y| (0..w).filter(|&x| !grid.is_opaque(x, y)).count()).sum()
}

impl Overlay for SymmetryOverlay {
    fn is_on(&self) -> bool {
        self.on
    }

    fn set_on(&mut self, on: bool) {
        self.on = on;
    }

    /// Starts the audits the map or the settings need, and collects finished ones.
    fn update(&mut self, frame: &mut Frame) {
        if !self.on {
            return;
        }
        let (grid, revision, epoch) = (&frame.grid(), frame.revision, frame.externals.epoch());
        let key = (revision, self.settings.algorithm, self.settings.radius, epoch);
        if let Some((job_key, job)) = &self.job
            && let Some(result) = job.poll()
        {
            match result {
                Ok(report) => {
                    self.report = Some(report);
                    self.report_key = Some(*job_key);
                    self.error = None;
                }
                Err(AuditError::Cancelled) => {}
                Err(e) => self.error = Some(e.to_string()),
            }
            self.job = None;
        }
        let running = self.job.as_ref().map(|(k, _)| *k);
        if self.report_key != Some(key) && running != Some(key) && self.cancelled != Some(key) {
            // A stale audit is replaced (dropping it cancels it); the old heatmap stays until the
            // new one is ready.
            let shared = Arc::clone(grid);
            let radius = key.2;
            let cells = transparent_cells(grid);
            let job = match key.1 {
                FovChoice::Builtin(algorithm) => {
                    Job::spawn(2 * cells, move |p| symmetry::audit(&shared, algorithm, Some(radius), &p.done, &p.cancel))
                }
                FovChoice::External(id) => external_audit(frame, id, shared, radius, cells),
            };
            self.job = Some((key, job));
        }
        // The table of every algorithm.
        let table_key = (revision, self.settings.radius);
        if let Some((job_key, job)) = &self.table_job
            && let Some(result) = job.poll()
        {
            if let Ok(table) = result {
                self.table = table;
                self.table_key = Some(*job_key);
            }
            self.table_job = None;
        }
        let table_running = self.table_job.as_ref().map(|(k, _)| *k);
        if self.table_key != Some(table_key) && table_running != Some(table_key) && self.cancelled != Some(key) {
            let grid = Arc::clone(grid);
            let radius = table_key.1;
            let cells = transparent_cells(&grid);
            let algorithms = crate::app::algorithms::fov_algorithms();
            self.table_job = Some((
                table_key,
                Job::spawn(2 * cells * algorithms.len(), move |p| {
                    algorithms
                        .into_iter()
                        .map(|(a, _)| symmetry::audit(&grid, a, Some(radius), &p.done, &p.cancel))
                        .collect()
                }),
            ));
        }
        self.update_external_rows(frame, table_key);
        // The clicked cell's partners, on the current map.
        if let Some((pkey, job)) = &self.partners_job
            && let Some(result) = job.poll()
        {
            self.partners = result.unwrap_or_default();
            self.partners_key = Some(*pkey);
            self.partners_job = None;
        }
        if let Some(cell) = self.selected {
            let pkey = (key, cell);
            let asked = self.partners_job.as_ref().map(|(k, _)| *k);
            if self.partners_key != Some(pkey) && asked != Some(pkey) {
                match key.1 {
                    FovChoice::Builtin(a) => {
                        self.partners = symmetry::partners(grid, a, Some(key.2), cell);
                        self.partners_key = Some(pkey);
                    }
                    FovChoice::External(id) => {
                        let (shared, radius) = (Arc::clone(grid), key.2);
                        let map = frame.fov_map();
                        let job = frame.externals.run(id, Lane::Interactive, Some(map), 1, Err, move |program, _| {
                            symmetry::partners_external(&shared, program, Some(radius), cell)
                        });
                        self.partners_job = Some((pkey, job));
                    }
                }
            }
        } else {
            self.partners.clear();
            self.partners_key = None;
            self.partners_job = None;
        }
    }

    /// Blocks until the running audits finish (tests, headless runs).
    fn wait(&mut self, frame: &mut Frame) {
        for _ in 0..3 {
            for (id, key, job) in std::mem::take(&mut self.external_jobs) {
                if let Some(result) = job.wait() {
                    self.external_rows.retain(|(i, _)| *i != id);
                    if let Ok(report) = result {
                        self.external_rows.push((id, report));
                    }
                    self.external_keys.retain(|(i, _)| *i != id);
                    self.external_keys.push((id, key));
                }
            }
            if let Some((key, job)) = self.partners_job.take()
                && let Some(result) = job.wait()
            {
                self.partners = result.unwrap_or_default();
                self.partners_key = Some(key);
            }
            if let Some((key, job)) = self.job.take()
                && let Some(Ok(report)) = job.wait()
            {
                self.report = Some(report);
                self.report_key = Some(key);
            }
            if let Some((key, job)) = self.table_job.take()
                && let Some(Ok(table)) = job.wait()
            {
                self.table = table;
                self.table_key = Some(key);
            }
            self.update(frame);
        }
    }

    fn apply(&mut self, command: OverlayCommand, _map: &Map) {
        match command {
            OverlayCommand::SymmetrySettings(s) => self.settings = s,
            OverlayCommand::SelectSymmetryCell(cell) => {
                self.selected = if self.selected == Some(cell) { None } else { Some(cell) }
            }
            OverlayCommand::CancelAudit => {
                if let Some((key, job)) = self.job.take() {
                    job.cancel();
                    self.cancelled = Some(key);
                }
                if let Some((_, job)) = self.table_job.take() {
                    job.cancel();
                }
            }
            OverlayCommand::RestartAudit => self.cancelled = None,
            _ => {}
        }
    }

    /// Whether an audit is running (the UI keeps repainting to show its progress).
    fn busy(&self) -> bool {
        self.job.is_some() || self.table_job.is_some() || !self.external_jobs.is_empty() || self.partners_job.is_some()
    }

    fn draw(&self, painter: &Painter, view: &View, cells: VisibleCells, _side: Option<usize>) {
        let alpha = self.settings.opacity;
        if let Some(report) = &self.report
            && report.per_cell.len() == (cells.map_width * cells.map_height) as usize
        {
            let max = report.per_cell.iter().copied().max().unwrap_or(0).max(1) as f32;
            let mut mesh = egui::Mesh::default();
            let numbers = view.cell_px >= 22.0;
            let font = egui::FontId::proportional(view.cell_px * 0.35);
            let mut texts = Vec::new();
            for cell in cells.iter() {
                let n = report.per_cell[(cell.y * cells.map_width + cell.x) as usize];
                if n == 0 {
                    continue;
                }
                let r = view.cell_rect(cell);
                // Square root: a few violations still show beside the worst cells; they are also
                // the most transparent, so the map stays readable under the heatmap.
                let t = (n as f32 / max).sqrt();
                mesh.add_colored_rect(r, with_alpha(heat_colour(t), alpha * (0.35 + 0.55 * t)));
                if numbers {
                    texts.push((r.center(), n.to_string()));
                }
            }
            painter.add(egui::Shape::mesh(mesh));
            for (p, t) in texts {
                painter.text(p, egui::Align2::CENTER_CENTER, t, font.clone(), Color32::WHITE);
            }
        }
        if let Some(cell) = self.selected {
            let centre = view.cell_rect(cell).center();
            for &(partner, failure) in &self.partners {
                let colour = match failure {
                    Failure::SeenByThisOnly => SEEN_BY_THIS_ONLY,
                    Failure::SeenByPartnerOnly => SEEN_BY_PARTNER_ONLY,
                };
                let p = view.cell_rect(partner).center();
                painter.line_segment([centre, p], Stroke::new(1.5, colour));
                painter.circle_filled(p, (view.cell_px * 0.18).max(2.0), colour);
            }
            painter.rect_stroke(view.cell_rect(cell), 0.0, Stroke::new(2.5, Color32::WHITE), egui::StrokeKind::Inside);
        }
    }

    fn numbers_text(&self) -> String {
        let mut out = String::new();
        if let Some(r) = &self.report {
            out += &format!(
                "symmetry audit: {} radius {}: {} pairs, {} violations, rate {:.6}, error per cell {:.4}\n",
                r.algorithm,
                self.settings.radius,
                r.pairs,
                r.violations,
                r.rate(),
                r.error_per_cell()
            );
            for (c, n) in r.worst(10) {
                out += &format!("  {},{}\t{n}\n", c.x, c.y);
            }
        }
        if !self.table.is_empty() {
            out += "algorithm\tpairs\tviolations\trate\terror_per_cell\n";
            for r in self.table.iter().chain(self.external_rows.iter().map(|(_, r)| r)) {
                out += &format!(
                    "{}\t{}\t{}\t{:.6}\t{:.4}\n",
                    r.algorithm,
                    r.pairs,
                    r.violations,
                    r.rate(),
                    r.error_per_cell()
                );
            }
        }
        out
    }

    fn settings_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>, externals: &Externals) {
        let mut s = self.settings.clone();
        ui.horizontal(|ui| {
            ui.label("algorithm");
            crate::app::algorithms::choice_owned_ui(ui, "symmetry algorithm", &mut s.algorithm, &fov_choices(externals));
        });
        ui.add(egui::Slider::new(&mut s.radius, 1..=30).text("radius"));
        ui.add(egui::Slider::new(&mut s.opacity, 0.0..=1.0).text("opacity"));
        if s != self.settings {
            commands.push(Command::Overlay(OverlayCommand::SymmetrySettings(s)));
        }
        if let Some((_, job)) = &self.job {
            ui.horizontal(|ui| {
                ui.add(egui::ProgressBar::new(job.fraction()).show_percentage().desired_width(160.0));
                if ui.button("Cancel").clicked() {
                    commands.push(Command::Overlay(OverlayCommand::CancelAudit));
                }
            });
        } else if self.cancelled.is_some() && self.report_key != self.cancelled {
            ui.horizontal(|ui| {
                ui.label("Audit cancelled.");
                if ui.button("Run again").clicked() {
                    commands.push(Command::Overlay(OverlayCommand::RestartAudit));
                }
            });
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
            if let FovChoice::External(id) = self.settings.algorithm
                && ui.button(format!("Restart {}", externals.name(id))).clicked()
            {
                commands.push(Command::Overlay(OverlayCommand::Ext(ExtCommand::Restart(id))));
            }
        }
        if let Some(r) = &self.report {
            let stale = self.job.is_some();
            ui.label(format!("pairs checked {}", r.pairs));
            ui.label(format!("violations {}", r.violations));
            ui.label(format!("rate {:.4}%  ·  error per cell {:.3}", r.rate() * 100.0, r.error_per_cell()));
            if stale {
                ui.weak("(the map changed: recomputing)");
            }
        }
        match self.selected {
            Some(c) => {
                let this_only = self.partners.iter().filter(|p| p.1 == Failure::SeenByThisOnly).count();
                ui.label(format!("cell {}, {}: {} one-sided partners", c.x, c.y, self.partners.len()));
                legend_ui(
                    ui,
                    &[
                        LegendEntry::new(SEEN_BY_THIS_ONLY, &format!("it sees them, they do not see it: {this_only}")),
                        LegendEntry::new(
                            SEEN_BY_PARTNER_ONLY,
                            &format!("they see it, it does not see them: {}", self.partners.len() - this_only),
                        ),
                    ],
                );
            }
            None => {
                ui.label("Probe-click a cell to see its one-sided partners.");
            }
        }
        legend_ui(ui, &[LegendEntry::ramp("violations per cell, few to many")]);
        ui.separator();
        ui.label(format!("Every algorithm on this map, radius {}", self.settings.radius));
        if let Some((_, job)) = &self.table_job {
            ui.add(egui::ProgressBar::new(job.fraction()).show_percentage().desired_width(160.0));
        }
        egui::Grid::new("symmetry_table").num_columns(4).striped(true).show(ui, |ui| {
            ui.strong("algorithm");
            ui.strong("violations");
            ui.strong("rate");
            ui.strong("per cell");
            ui.end_row();
            for r in self.table.iter().chain(self.external_rows.iter().map(|(_, r)| r)) {
                ui.label(r.algorithm.as_str());
                ui.label(r.violations.to_string());
                ui.label(format!("{:.3}%", r.rate() * 100.0));
                ui.label(format!("{:.3}", r.error_per_cell()));
                ui.end_row();
            }
        });
    }

    fn probe(&mut self, cell: Cell, map: &Map) {
        self.apply(OverlayCommand::SelectSymmetryCell(cell), map);
    }

    fn map_replaced(&mut self) {
        self.selected = None;
    }
}
