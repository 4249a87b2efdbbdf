//! The cache-invalidation overlay: a DCSS-style LOS cache of the map, and for the last opacity
//! change (a Probe click's what-if toggle, or a wall painted, a door opened in the map) the
//! region DCSS would recompute, the exact candidate region and the views that really changed.

use std::time::Instant;

use egui::{Color32, Painter, Stroke};

use super::job::Job;
use super::{Frame, LegendEntry, Overlay, OverlayCommand, legend_ui, with_alpha};
use crate::app::canvas::VisibleCells;
use crate::app::algorithms::{FovChoice, fov_choices};
use crate::app::external::{ExtCommand, ExtId, Externals, Lane};
use crate::app::{Command, View};
use crate::core::ext::ExtError;
use crate::core::Cell;
use crate::core::Map;
use crate::core::analysis::los_cache::{self, CacheError, CacheUpdate, LosCache};
use crate::core::fov::{Algorithm, Opacity, OpacityGrid};

#[derive(Clone, Debug, PartialEq)]
pub struct CacheSettings {
    pub algorithm: FovChoice,
    pub radius: u32,
    pub(crate) opacity: f32,
}

impl Default for CacheSettings {
    fn default() -> Self {
        Self { algorithm: Algorithm::Shadowcast.into(), radius: 8, opacity: 0.75 }
    }
}

/// Above this many changed cells at once (a new map, a big fill) the cache is rebuilt instead.
const MAX_INCREMENTAL: usize = 256;

/// The regions of the last change, merged when one edit changed several cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LastChange {
    /// The cells whose opacity changed.
    pub cells: Vec<Cell>,
    /// Sizes of the three regions (of their union, for several cells).
    pub conservative: usize,
    pub candidates: usize,
    pub changed: usize,
    /// Time of the updates, in µs.
    pub(crate) micros: f64,
}

/// The settings a cache is built for: its algorithm and radius.
type CacheKey = (Algorithm, u32);

/// A refused build: its settings, the map's width and height, and why.
type Refusal = (CacheKey, (i32, i32), String);

pub struct CacheOverlay {
    pub(crate) on: bool,
    pub settings: CacheSettings,
    cache: Option<LosCache>,
    /// The map revision and what-if version the cache reflects.
    synced: Option<(u64, u64)>,
    build: Option<(CacheKey, Job<Result<LosCache, CacheError>>)>,
    /// A build refused (too large for the map at that radius): its settings, the map's size and
    /// why. Not tried again until the settings or the map's size change.
    refused: Option<Refusal>,
    pub(crate) build_millis: f64,
    build_started: Option<Instant>,
    /// Cells whose opacity the overlay flips, relative to the map (the map is not edited).
    pub what_if: Vec<Cell>,
    what_if_version: u64,
    pub last: Option<LastChange>,
    /// Per map cell, bits: 1 conservative, 2 candidate, 4 changed (for drawing).
    classes: Vec<u8>,
    /// Under a program, which keeps no cache (its reads are unknown): the opacity its views
    /// were last asked on, what it is for (map revision and what-ifs, program, radius, epoch),
    /// the toggles in progress, and its error.
    external: Option<(OpacityGrid, ExternalKey)>,
    external_job: Option<(ExternalKey, Vec<Cell>, ToggleJob)>,
    pub error: Option<ExtError>,
}

type ExternalKey = ((u64, u64), ExtId, u32, u64);
/// The opacity after the toggles, each toggle's regions, and the program's error.
type ToggleJob = Job<(OpacityGrid, Vec<CacheUpdate>, Option<ExtError>)>;

impl Default for CacheOverlay {
    fn default() -> Self {
        Self {
            on: false,
            settings: CacheSettings::default(),
            cache: None,
            synced: None,
            build: None,
            refused: None,
            build_millis: 0.0,
            build_started: None,
            what_if: Vec::new(),
            what_if_version: 0,
            last: None,
            classes: Vec::new(),
            external: None,
            external_job: None,
            error: None,
        }
    }
}

const CONSERVATIVE: Color32 = Color32::from_gray(230);
const CANDIDATE: Color32 = Color32::from_rgb(80, 150, 255);
const CHANGED: Color32 = Color32::from_rgb(255, 70, 70);
const TOGGLED: Color32 = Color32::from_rgb(255, 230, 60);

impl CacheOverlay {
    pub(crate) fn bytes(&self) -> Option<usize> {
        self.cache.as_ref().map(LosCache::bytes)
    }

    /// The map's opacity with the what-if cells flipped.
    fn target(&self, map_grid: &OpacityGrid) -> OpacityGrid {
        let mut grid = map_grid.clone();
        for c in &self.what_if {
            grid.set(c.x, c.y, !map_grid.is_opaque(c.x, c.y));
        }
        grid
    }

    /// Under a program: each cell whose opacity changed since its views were last asked is
    /// toggled through `los_cache::external_update` (DCSS's box, recomputed by the program), on
    /// the program's audit lane; a change of more than `MAX_INCREMENTAL` cells starts afresh.
    fn update_external(&mut self, frame: &mut Frame, id: ExtId) {
        let map_grid = frame.grid();
        let radius = self.settings.radius;
        let version = (frame.revision, self.what_if_version);
        let key = (version, id, radius, frame.externals.epoch());
        if let Some((_, _, job)) = &self.external_job
            && let Some(answer) = job.poll()
        {
            let (job_key, cells, _) = self.external_job.take().expect("polled above");
            self.take_toggles(answer, cells, job_key);
        }
        if self.external_job.is_some() || self.external.as_ref().is_some_and(|(_, k)| *k == key) {
            return;
        }
        self.cache = None;
        let target = self.target(&map_grid);
        let Some((grid, _)) = self.external.take().filter(|(g, k)| {
            (g.width(), g.height()) == (target.width(), target.height()) && (k.1, k.2, k.3) == (id, radius, key.3)
        }) else {
            // First use, another program or radius: the program's views start from the target.
            self.last = None;
            self.external = Some((target, key));
            return;
        };
        let differing = grid.changed_cells(&target);
        if differing.is_empty() || differing.len() > MAX_INCREMENTAL {
            self.last = None;
            self.external = Some((target, key));
            return;
        }
        let costs = frame.fov_map().costs;
        let toggled = differing.clone();
        let job = frame.externals.run(
            id,
            Lane::Audit,
            None,
            differing.len(),
            |e| (OpacityGrid::new(1, 1), Vec::new(), Some(e)),
            move |program, progress| {
                let mut grid = grid;
                let mut updates = Vec::new();
                for c in differing {
                    let opaque = target.is_opaque(c.x, c.y);
                    match los_cache::external_update(program, &mut grid, &costs, radius, c, opaque) {
                        Ok(u) => updates.push(u),
                        Err(e) => return (grid, updates, Some(e)),
                    }
                    progress.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                (grid, updates, None)
            },
        );
        self.external_job = Some((key, toggled, job));
    }

    /// A program's toggles done: their regions shown, as a built-in cache's are.
    fn take_toggles(
        &mut self,
        (grid, updates, error): (OpacityGrid, Vec<CacheUpdate>, Option<ExtError>),
        cells: Vec<Cell>,
        key: ExternalKey,
    ) {
        self.error = error;
        if self.error.is_some() {
            // The program's views are unknown now: start from the map again once it answers.
            self.external = None;
            return;
        }
        let (w, h) = (grid.width(), grid.height());
        let mut classes = vec![0u8; (w * h) as usize];
        let mut micros = 0.0;
        for u in &updates {
            mark(&mut classes, w, u);
            micros += u.micros;
        }
        let count = |bit: u8| classes.iter().filter(|&&k| k & bit != 0).count();
        self.last = Some(LastChange { conservative: count(1), candidates: count(2), changed: count(4), cells, micros });
        self.classes = classes;
        self.external = Some((grid, key));
    }

    fn start_build(&mut self, map_grid: &OpacityGrid, (algorithm, radius): (Algorithm, u32)) {
        let target = self.target(map_grid);
        let cells = (target.width() * target.height()) as usize;
        self.build_started = Some(Instant::now());
        self.build =
            Some(((algorithm, radius), Job::spawn(cells, move |_| LosCache::build(&target, algorithm, radius))));
    }

    /// The cache as built and brought up to date (`None` while it is built, or refused).
    pub fn los_cache(&self) -> Option<&LosCache> {
        self.cache.as_ref()
    }

    /// Takes the result of the build for the current settings: the cache, or why it was refused.
    fn take_built(&mut self, built: Result<LosCache, CacheError>, map_grid: &OpacityGrid) {
        match built {
            Ok(cache) => {
                self.cache = Some(cache);
                self.synced = None;
                self.build_millis = self.build_started.map_or(0.0, |t| t.elapsed().as_secs_f64() * 1e3);
            }
            Err(e) => {
                if let FovChoice::Builtin(a) = self.settings.algorithm {
                    self.refused = Some(((a, self.settings.radius), (map_grid.width(), map_grid.height()), e.to_string()));
                }
            }
        }
    }

    /// Why the cache for the current settings on a map of this size was refused, if it was.
    pub(crate) fn refusal(&self, map_grid: &OpacityGrid) -> Option<&str> {
        let (key, size, why) = self.refused.as_ref()?;
        (FovChoice::Builtin(key.0) == self.settings.algorithm
            && key.1 == self.settings.radius
            && *size == (map_grid.width(), map_grid.height()))
        .then_some(why.as_str())
    }
}

/// Marks one update's regions in `classes` (bits 1, 2, 4).
fn mark(classes: &mut [u8], width: i32, u: &CacheUpdate) {
    for (set, bit) in [(&u.conservative, 1u8), (&u.candidates, 2), (&u.changed, 4)] {
        for c in set {
            classes[(c.y * width + c.x) as usize] |= bit;
        }
    }
}

pub(crate) fn human_bytes(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / f64::from(1 << 20)),
        b if b >= 1 << 10 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{b} B"),
    }
}

impl Overlay for CacheOverlay {
    fn is_on(&self) -> bool {
        self.on
    }

    fn set_on(&mut self, on: bool) {
        self.on = on;
    }

    fn update(&mut self, frame: &mut Frame) {
        if !self.on {
            return;
        }
        let (map_grid, revision) = (&frame.grid(), frame.revision);
        self.what_if.retain(|c| map_grid.in_bounds(c.x, c.y));
        let algorithm = match self.settings.algorithm {
            FovChoice::Builtin(a) => a,
            FovChoice::External(id) => return self.update_external(frame, id),
        };
        self.external = None;
        self.external_job = None;
        self.error = None;
        let wanted = (algorithm, self.settings.radius);
        if let Some((key, job)) = &self.build
            && let Some(built) = job.poll()
        {
            if *key == wanted {
                self.take_built(built, map_grid);
            }
            self.build = None;
        }
        let stale = |c: &LosCache| {
            (c.algorithm(), c.radius()) != wanted
                || c.grid().width() != map_grid.width()
                || c.grid().height() != map_grid.height()
        };
        if self.cache.as_ref().is_none_or(stale) {
            self.cache = None;
            self.last = None;
            // One build at a time (a build cannot be cancelled): a stale one finishes, is
            // dropped above, and the wanted one starts next.
            if self.build.is_none() && self.refusal(map_grid).is_none() {
                self.start_build(map_grid, wanted);
            }
            return;
        }
        let version = (revision, self.what_if_version);
        if self.synced == Some(version) {
            return;
        }
        // Bring the cache to the target opacity one cell at a time: each change is one
        // invalidation event, as a game would send them.
        let target = self.target(map_grid);
        let cache = self.cache.as_mut().expect("checked above");
        let (w, h) = (target.width(), target.height());
        let differing: Vec<Cell> = (0..h)
            .flat_map(|y| (0..w).map(move |x| Cell::new(x, y)))
            .filter(|c| target.is_opaque(c.x, c.y) != cache.grid().is_opaque(c.x, c.y))
            .collect();
        if differing.len() > MAX_INCREMENTAL {
            self.cache = None;
            self.last = None;
            if self.build.is_none() {
                self.start_build(map_grid, wanted);
            }
            return;
        }
        if !differing.is_empty() {
            let mut classes = vec![0u8; (w * h) as usize];
            let mut micros = 0.0;
            for &c in &differing {
                let u = cache.set_opaque(c, target.is_opaque(c.x, c.y));
                mark(&mut classes, w, &u);
                micros += u.micros;
            }
            let count = |bit: u8| classes.iter().filter(|&&k| k & bit != 0).count();
            self.last = Some(LastChange {
                conservative: count(1),
                candidates: count(2),
                changed: count(4),
                cells: differing,
                micros,
            });
            self.classes = classes;
        }
        self.synced = Some(version);
    }

    /// Blocks until the cache is up to date with the map (tests, headless runs): a build in
    /// flight for an older map is followed by the build it leads to.
    fn wait(&mut self, frame: &mut Frame) {
        let map_grid = frame.grid();
        loop {
            if let Some((key, job)) = self.build.take()
                && let Some(built) = job.wait()
                && FovChoice::Builtin(key.0) == self.settings.algorithm
                && key.1 == self.settings.radius
            {
                self.take_built(built, &map_grid);
            }
            if let Some((key, cells, job)) = self.external_job.take()
                && let Some(answer) = job.wait()
            {
                self.take_toggles(answer, cells, key);
            }
            self.update(frame);
            if self.build.is_none() && self.external_job.is_none() {
                return;
            }
        }
    }

    fn apply(&mut self, command: OverlayCommand, _map: &Map) {
        match command {
            OverlayCommand::CacheSettings(s) => self.settings = s,
            OverlayCommand::ToggleWhatIf(cell) => {
                if let Some(i) = self.what_if.iter().position(|&c| c == cell) {
                    self.what_if.remove(i);
                } else {
                    self.what_if.push(cell);
                }
                self.what_if_version += 1;
            }
            OverlayCommand::ClearWhatIf => {
                self.what_if.clear();
                self.what_if_version += 1;
            }
            _ => {}
        }
    }

    fn busy(&self) -> bool {
        self.build.is_some() || self.external_job.is_some()
    }

    fn draw(&self, painter: &Painter, view: &View, cells: VisibleCells, _side: Option<usize>) {
        let alpha = self.settings.opacity;
        if let Some(last) = &self.last
            && self.classes.len() == (cells.map_width * cells.map_height) as usize
        {
            let mut mesh = egui::Mesh::default();
            for cell in cells.iter() {
                let k = self.classes[(cell.y * cells.map_width + cell.x) as usize];
                let (colour, a) = if k & 4 != 0 {
                    (CHANGED, 0.75)
                } else if k & 2 != 0 {
                    (CANDIDATE, 0.55)
                } else if k & 1 != 0 {
                    (CONSERVATIVE, 0.22)
                } else {
                    continue;
                };
                mesh.add_colored_rect(view.cell_rect(cell), with_alpha(colour, alpha * a));
            }
            painter.add(egui::Shape::mesh(mesh));
            // DCSS's box around each changed cell.
            let r = self.settings.radius as i32;
            for &c in &last.cells {
                let min = view.cell_rect(Cell::new((c.x - r).max(0), (c.y - r).max(0))).min;
                let max = view
                    .cell_rect(Cell::new((c.x + r).min(cells.map_width - 1), (c.y + r).min(cells.map_height - 1)))
                    .max;
                painter.rect_stroke(
                    egui::Rect::from_min_max(min, max),
                    0.0,
                    Stroke::new(1.0, with_alpha(CONSERVATIVE, alpha)),
                    egui::StrokeKind::Inside,
                );
                painter.rect_stroke(view.cell_rect(c), 0.0, Stroke::new(2.5, TOGGLED), egui::StrokeKind::Inside);
            }
        }
        // What-if cells: flipped for the cache only, crossed so they are not taken for map edits.
        for &c in &self.what_if {
            let r = view.cell_rect(c).shrink(view.cell_px * 0.15);
            let stroke = Stroke::new(2.0, TOGGLED);
            painter.line_segment([r.left_top(), r.right_bottom()], stroke);
            painter.line_segment([r.right_top(), r.left_bottom()], stroke);
        }
    }

    fn numbers_text(&self) -> String {
        let s = &self.settings;
        let name = match s.algorithm {
            FovChoice::Builtin(a) => a.name().to_string(),
            FovChoice::External(_) => "an external program (no cache: DCSS's box)".to_string(),
        };
        let mut out = format!("los cache: {name} radius {}", s.radius);
        if let Some(b) = self.bytes() {
            out += &format!(", {b} bytes, built in {:.1} ms", self.build_millis);
        }
        out.push('\n');
        if let Some(last) = &self.last {
            let cells: Vec<String> = last.cells.iter().map(|c| format!("{},{}", c.x, c.y)).collect();
            out += &format!(
                "toggled {}: conservative {}, candidates {}, changed {}, update {:.1} us\n",
                cells.join(" "),
                last.conservative,
                last.candidates,
                last.changed,
                last.micros
            );
        }
        out
    }

    fn settings_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>, externals: &Externals) {
        let mut s = self.settings.clone();
        ui.horizontal(|ui| {
            ui.label("algorithm");
            crate::app::algorithms::choice_owned_ui(ui, "cache algorithm", &mut s.algorithm, &fov_choices(externals));
        });
        if let FovChoice::External(id) = s.algorithm {
            ui.label(
                "A program's views read cells no one knows: no cache is kept, and every view in DCSS's box is \
                 recomputed by the program (the candidates are the box).",
            );
            if let Some(e) = &self.error {
                ui.colored_label(ui.visuals().error_fg_color, e.to_string());
                if ui.button(format!("Restart {}", externals.name(id))).clicked() {
                    commands.push(Command::Overlay(OverlayCommand::Ext(ExtCommand::Restart(id))));
                }
            } else if let Some((_, _, job)) = &self.external_job {
                ui.add(egui::ProgressBar::new(job.fraction()).text("the program recomputes the box"));
            }
        }
        ui.add(egui::Slider::new(&mut s.radius, 1..=20).text("radius"));
        ui.add(egui::Slider::new(&mut s.opacity, 0.0..=1.0).text("opacity"));
        if s != self.settings {
            commands.push(Command::Overlay(OverlayCommand::CacheSettings(s)));
        }
        if self.build.is_some() {
            ui.label("building the cache…");
        }
        if let Some((key, _, why)) = &self.refused
            && FovChoice::Builtin(key.0) == self.settings.algorithm
            && key.1 == self.settings.radius
        {
            ui.colored_label(ui.visuals().error_fg_color, why);
        }
        if let Some(bytes) = self.bytes() {
            ui.label(format!("cache memory {}", human_bytes(bytes)));
            ui.label(format!("built in {:.1} ms", self.build_millis));
        }
        ui.label("Probe-click a cell to toggle its opacity for the cache (what-if, the map is not edited); painting walls and opening doors update it too.");
        if !self.what_if.is_empty() {
            ui.horizontal(|ui| {
                ui.label(format!("{} what-if cells", self.what_if.len()));
                if ui.button("Clear what-ifs").clicked() {
                    commands.push(Command::Overlay(OverlayCommand::ClearWhatIf));
                }
            });
        }
        let (n1, n2, n3, us) =
            self.last.as_ref().map_or((0, 0, 0, 0.0), |l| (l.conservative, l.candidates, l.changed, l.micros));
        legend_ui(
            ui,
            &[
                LegendEntry::new(CONSERVATIVE, &format!("conservative (DCSS box): {n1}")),
                LegendEntry::new(CANDIDATE, &format!("exact candidates: {n2}")),
                LegendEntry::new(CHANGED, &format!("views changed: {n3}")),
                LegendEntry::new(TOGGLED, "the toggled cell"),
            ],
        );
        if self.last.is_some() {
            ui.label(format!("update {us:.0} µs"));
        }
    }

    fn probe(&mut self, cell: Cell, map: &Map) {
        self.apply(OverlayCommand::ToggleWhatIf(cell), map);
    }

    fn map_replaced(&mut self) {
        self.what_if.clear();
        self.what_if_version += 1;
    }
}

#[cfg(test)]
mod tests {
    use egui_kittest::kittest::Queryable;

    use std::sync::Arc;

    use super::*;
    use crate::app::overlays::GridCache;

    /// The overlay's frame for `grid` at `revision`: the grid stands in for the map's, which the
    /// cache overlay does not read.
    fn frame<'a>(
        map: &'a Map,
        (slot, externals): (&'a mut GridCache, &'a mut Externals),
        grid: &Arc<OpacityGrid>,
        revision: u64,
    ) -> Frame<'a> {
        slot.0 = Some((revision, Arc::clone(grid)));
        Frame::new(map, revision, None, 0.0, slot, externals)
    }

    /// A cache too large for memory is refused with the reason shown, and not tried again on
    /// every frame; a smaller radius builds.
    #[test]
    fn a_cache_too_large_is_refused_once_and_a_smaller_radius_builds() {
        let map = crate::core::format::ascii::parse(".\n").unwrap();
        let (mut slot, mut externals) = (GridCache::default(), Externals::default());
        let big = Arc::new(OpacityGrid::new(4096, 4096));
        let mut view = CacheOverlay { on: true, ..CacheOverlay::default() };
        view.settings.radius = 20;
        view.update(&mut frame(&map, (&mut slot, &mut externals), &big, 0));
        view.wait(&mut frame(&map, (&mut slot, &mut externals), &big, 0));
        let why = view.refusal(&big).expect("refused").to_owned();
        assert!(why.contains("4096×4096") && why.contains("radius 20") && why.contains("smaller radius"), "{why}");
        assert!(view.cache.is_none());
        view.update(&mut frame(&map, (&mut slot, &mut externals), &big, 1));
        assert!(view.build.is_none(), "a refused build is not started again");
        // The settings panel says why.
        let mut harness = egui_kittest::Harness::new_ui_state(
            |ui, view: &mut CacheOverlay| view.settings_ui(ui, &mut Vec::new(), &Externals::default()),
            std::mem::take(&mut view),
        );
        harness.run();
        harness.get_by_label_contains("give a smaller radius");
        let mut view = std::mem::take(harness.state_mut());
        let small = Arc::new(OpacityGrid::new(40, 30));
        assert!(view.refusal(&small).is_none(), "another map size may build");
        view.update(&mut frame(&map, (&mut slot, &mut externals), &small, 2));
        view.wait(&mut frame(&map, (&mut slot, &mut externals), &small, 2));
        assert!(view.bytes().is_some());
    }
}
