//! The Game rules overlay: every cell coloured by what the game's rules make of it
//! ([`crate::core::model::rules`]): walls, cells that hide but can be walked through (tall grass), cells
//! that can be seen across but not walked (water, a chasm), doors closed and open, and what
//! stepping on a cell costs where that is not 1. What a designer checks a map by, most of all a
//! Tiled map whose images say "wall" while its tiles' properties say otherwise.

use std::collections::HashMap;

use egui::{Color32, Painter, Stroke};

use super::job::Job;
use super::{Frame, LegendEntry, Overlay, OverlayCommand, legend_ui, with_alpha};
use crate::app::canvas::VisibleCells;
use crate::app::external::Externals;
use crate::app::{Command, View};
use crate::core::analysis::reach::Reach;
use crate::core::{Cell, Map, Passage, RulesSummary};

#[derive(Clone, Debug, PartialEq)]
pub struct RulesSettings {
    /// Colour the walls too (off: only what differs from wall and floor, and doors and costs).
    pub(crate) walls: bool,
    pub(crate) opacity: f32,
}

impl Default for RulesSettings {
    fn default() -> Self {
        Self { walls: true, opacity: 0.6 }
    }
}

#[derive(Default)]
pub struct RulesOverlay {
    pub(crate) on: bool,
    pub settings: RulesSettings,
    /// What is drawn: the map as last read.
    read: ReadRules,
    /// The revision `read` is of.
    key: Option<u64>,
    /// A big map being read off the UI thread, for a revision.
    job: Option<(u64, Job<ReadRules>)>,
}

/// The map's cells as the rules make them, read once per edit.
#[derive(Default)]
struct ReadRules {
    width: i32,
    /// Per cell, row-major: its [`Passage`] in the low two bits, then `CLOSED_DOOR`, `OPEN_DOOR`,
    /// `COSTLY`, `OUT_OF_REACH`.
    cells: Vec<u8>,
    /// The cost of each walkable cell whose cost is not 1, by index.
    costs: HashMap<usize, f32>,
    counts: RulesSummary,
    /// Walkable cells no way from where play starts leads to ([`Reach`]).
    out_of_reach: usize,
    /// What [`Reach`] finds: pockets out of reach, objects in walls or out of reach.
    findings: Vec<String>,
}

const CLOSED_DOOR: u8 = 4;
const OPEN_DOOR: u8 = 8;
/// Walkable at a cost other than 1 (in `costs`): the map is looked up only for these, not for
/// every cell drawn.
const COSTLY: u8 = 16;
/// Walkable, and out of reach of where play starts.
const OUT_OF_REACH: u8 = 32;

const BLOCKED: Color32 = Color32::from_rgb(150, 90, 200);
const SIGHT_BLOCKED: Color32 = Color32::from_rgb(70, 140, 255);
const MOVE_BLOCKED: Color32 = Color32::from_rgb(255, 80, 60);
const CLOSED: Color32 = Color32::from_rgb(255, 150, 40);
const OPEN: Color32 = Color32::from_rgb(90, 210, 120);
const COST: Color32 = Color32::from_rgb(250, 230, 90);
const OUT: Color32 = Color32::from_rgb(255, 90, 200);

fn passage_bits(p: Passage) -> u8 {
    match p {
        Passage::Open => 0,
        Passage::SightBlocked => 1,
        Passage::MoveBlocked => 2,
        Passage::Blocked => 3,
    }
}

impl RulesOverlay {}

impl ReadRules {
    /// Every cell of `map` as its rules make it, and what [`Reach`] finds. O(cells).
    fn of(map: &Map) -> Self {
        let mut read = ReadRules { width: map.width() as i32, ..Default::default() };
        read.cells.reserve(map.len());
        let reach = Reach::of(map);
        for i in 0..map.len() {
            let cell = map.cell_at(i);
            let rules = map.rules_at(cell);
            read.counts.count(map, &rules);
            let mut bits = passage_bits(rules.passage());
            if let Some((_, tile)) = rules.door {
                let open = map.tiles[usize::from(tile)].door.is_some_and(|d| d.open);
                bits |= if open { OPEN_DOOR } else { CLOSED_DOOR };
            }
            if rules.walkable && rules.cost != 1.0 {
                bits |= COSTLY;
                read.costs.insert(i, rules.cost);
            }
            if reach.out_of_reach(cell) {
                bits |= OUT_OF_REACH;
                read.out_of_reach += 1;
            }
            read.cells.push(bits);
        }
        read.findings = reach.findings.iter().map(ToString::to_string).collect();
        read
    }
}

impl RulesOverlay {
    /// How sight and movement pass cell `c`, as the overlay draws it (`None` off the map, or
    /// before the overlay has read the map).
    pub fn passage_at(&self, c: Cell) -> Option<Passage> {
        if !(0..self.read.width).contains(&c.x) {
            return None;
        }
        let i = usize::try_from(c.y * self.read.width + c.x).ok()?;
        let bits = *self.read.cells.get(i)?;
        Some(match bits & 3 {
            0 => Passage::Open,
            1 => Passage::SightBlocked,
            2 => Passage::MoveBlocked,
            _ => Passage::Blocked,
        })
    }
}

impl Overlay for RulesOverlay {
    fn is_on(&self) -> bool {
        self.on
    }

    fn set_on(&mut self, on: bool) {
        self.on = on;
    }

    /// The cells' rules, read again when the map changed: on big maps off the UI thread (a
    /// whole read of a 2048² map takes about 0.15 s), one read at a time, the last read showing
    /// until the next is in.
    fn update(&mut self, frame: &mut Frame) {
        let (map, revision) = (frame.map, frame.revision);
        if !self.on {
            return;
        }
        if let Some((_, job)) = &self.job
            && let Some(read) = job.poll()
        {
            let (key, _) = self.job.take().expect("polled above");
            (self.read, self.key) = (read, Some(key));
        }
        if self.key == Some(revision) || self.job.is_some() {
            return;
        }
        if map.len() > super::BACKGROUND_CELLS {
            let map = map.clone();
            self.job = Some((revision, Job::spawn(1, move |_| ReadRules::of(&map))));
        } else {
            (self.read, self.key) = (ReadRules::of(map), Some(revision));
        }
    }

    /// Blocks until a read in progress is in, and brings the view up to date (tests, headless
    /// runs).
    fn wait(&mut self, frame: &mut Frame) {
        loop {
            if let Some((key, job)) = self.job.take()
                && let Some(read) = job.wait()
            {
                (self.read, self.key) = (read, Some(key));
            }
            self.update(frame);
            if self.job.is_none() {
                return;
            }
        }
    }

    fn apply(&mut self, command: OverlayCommand, _map: &Map) {
        if let OverlayCommand::RulesSettings(s) = command {
            self.settings = s;
        }
    }

    /// Whether a read is in progress (the UI asks for frames until it is in).
    fn busy(&self) -> bool {
        self.job.is_some()
    }

    fn draw(&self, painter: &Painter, view: &View, cells: VisibleCells, _side: Option<usize>) {
        if self.read.cells.is_empty() {
            return;
        }
        let alpha = self.settings.opacity;
        let px = view.cell_px;
        let max_cost = self.read.counts.cost_range.map_or(1.0, |(_, hi)| hi.max(1.0));
        let mut mesh = egui::Mesh::default();
        let mut doors = Vec::new();
        let mut numbers = Vec::new();
        let mut unreachable = Vec::new();
        for cell in cells.iter() {
            let i = (cell.y * self.read.width + cell.x) as usize;
            let Some(&bits) = self.read.cells.get(i) else { continue };
            let rect = view.cell_rect(cell);
            let fill = match bits & 3 {
                1 => Some(SIGHT_BLOCKED),
                2 => Some(MOVE_BLOCKED),
                3 if self.settings.walls => Some(BLOCKED),
                _ => None,
            };
            if let Some(colour) = fill {
                mesh.add_colored_rect(rect, with_alpha(colour, alpha));
            }
            if let Some(&cost) = (bits & COSTLY != 0).then(|| self.read.costs.get(&i)).flatten() {
                // Deeper the dearer; a cost below 1 (a road) faint.
                let depth = (cost / max_cost).clamp(0.15, 1.0);
                mesh.add_colored_rect(rect, with_alpha(COST, alpha * 0.8 * depth));
                if px >= 16.0 {
                    // In the corner, clear of the cell's glyph.
                    numbers.push((rect.right_bottom() - egui::vec2(px * 0.06, 0.0), cost));
                }
            }
            if bits & (CLOSED_DOOR | OPEN_DOOR) != 0 {
                doors.push((rect, bits & CLOSED_DOOR != 0));
            }
            if bits & OUT_OF_REACH != 0 {
                unreachable.push(rect);
            }
        }
        painter.add(egui::Shape::mesh(mesh));
        for (rect, closed) in doors {
            let colour = if closed { CLOSED } else { OPEN };
            painter.rect_stroke(rect.shrink(1.0), 0.0, Stroke::new(2.0, colour), egui::StrokeKind::Inside);
        }
        // Out of reach: crossed out, corner to corner.
        let stroke = Stroke::new((px * 0.08).clamp(1.0, 2.0), with_alpha(OUT, alpha.max(0.4)));
        for rect in unreachable {
            let r = rect.shrink(px * 0.2);
            painter.line_segment([r.left_top(), r.right_bottom()], stroke);
            painter.line_segment([r.right_top(), r.left_bottom()], stroke);
        }
        for (corner, cost) in numbers {
            let text = crate::core::format::shortest_f64(cost).to_string();
            let galley = painter.layout_no_wrap(text, egui::FontId::monospace((px * 0.36).min(12.0)), Color32::BLACK);
            let at = egui::Align2::RIGHT_BOTTOM.anchor_size(corner, galley.size());
            painter.rect_filled(at.expand(1.0), 2.0, with_alpha(COST, 0.85));
            painter.galley(at.min, galley, Color32::BLACK);
        }
    }

    fn numbers_text(&self) -> String {
        let c = &self.read.counts;
        let range = c.cost_range.map_or(String::new(), |(lo, hi)| format!("\t{lo}\t{hi}"));
        format!(
            "game rules\nblocks sight and movement\t{}\nblocks sight only\t{}\nblocks movement only\t{}\nclosed doors\t{}\nopen doors\t{}\ncost not 1\t{}{range}\nout of reach\t{}\n{}",
            c.blocked,
            c.sight_blocked,
            c.move_blocked,
            c.closed_doors,
            c.open_doors,
            c.costly,
            self.read.out_of_reach,
            self.read.findings.iter().map(|f| format!("finding\t{f}\n")).collect::<String>()
        )
    }

    fn settings_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>, _externals: &Externals) {
        let mut s = self.settings.clone();
        ui.checkbox(&mut s.walls, "Walls").on_hover_text("Colour the cells that block both sight and movement");
        ui.add(egui::Slider::new(&mut s.opacity, 0.0..=1.0).text("opacity"));
        if s != self.settings {
            commands.push(Command::Overlay(OverlayCommand::RulesSettings(s)));
        }
        let c = &self.read.counts;
        let costs = match c.cost_range {
            Some((lo, hi)) if lo == hi => format!("cost {lo}: {}", c.costly),
            Some((lo, hi)) => format!("cost {lo} to {hi}: {}", c.costly),
            None => "every walkable cell costs 1".to_owned(),
        };
        legend_ui(
            ui,
            &[
                LegendEntry::new(BLOCKED, &format!("blocks sight and movement: {}", c.blocked)),
                LegendEntry::new(SIGHT_BLOCKED, &format!("blocks sight only: {}", c.sight_blocked)),
                LegendEntry::new(MOVE_BLOCKED, &format!("blocks movement only: {}", c.move_blocked)),
                LegendEntry::new(CLOSED, &format!("closed doors: {}", c.closed_doors)),
                LegendEntry::new(OPEN, &format!("open doors: {}", c.open_doors)),
                LegendEntry::new(COST, &costs),
                LegendEntry::new(OUT, &format!("out of reach of the start (crossed): {}", self.read.out_of_reach)),
            ],
        );
        for finding in &self.read.findings {
            ui.colored_label(ui.visuals().warn_fg_color, finding);
        }
        ui.weak("The inspector gives the rules of the cell under the pointer, and which tiles make them.");
    }
}
