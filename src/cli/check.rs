//! `sightline check fov|path`: an external algorithm run against the exact built-in ones, on the
//! user's maps or on generated ones of every kind, and each difference reported as what it is.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize};

use anyhow::Context as _;
use clap::Subcommand;

use super::external::{ExtArgs, Externals};
use super::{OutputFormat, load_for_command};
use crate::core::analysis::symmetry::{self, Views};
use crate::core::ext::{ExtErrorKind, Program};
use crate::core::fov::{self, Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet};
use crate::core::rng::Rng;
use crate::core::{Cell, Map, format, generate, path};

#[derive(Subcommand, Debug)]
pub enum CheckCommand {
    /// Run the program's field of view from many origins (spread over each map, corners and
    /// edges included) at several radii, against a built-in algorithm: the views that differ, the
    /// first few drawn, its symmetry violation rate, and whether it sees through diagonal gaps.
    /// Without maps, on generated ones (rooms, caves, pillars, noise of three densities).
    /// Exit 1 when any view differs.
    Fov {
        /// Maps to check on (default: generated ones).
        maps: Vec<PathBuf>,
        /// Which registered program to check (default: the only one).
        #[arg(long)]
        algorithm: Option<String>,
        /// The built-in algorithm to compare with (symmetric is exact: see docs/algorithms.md).
        #[arg(long, default_value = "symmetric")]
        against: String,
        /// The radii, comma-separated; `unlimited` for no radius.
        #[arg(long, default_value = "4,8,16,unlimited", value_delimiter = ',')]
        radii: Vec<String>,
        /// Origins per map and radius.
        #[arg(long, default_value_t = 200)]
        origins: usize,
        /// How many differing views to draw.
        #[arg(long, default_value_t = 3)]
        show: usize,
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
        #[command(flatten)]
        ext: ExtArgs,
    },
    /// Ask the program for paths between many pairs of cells under every move rule, and check
    /// each: a walk the rules allow, as cheap as the optimal path (Dijkstra's), and none missed
    /// or made up. Rules the program refuses (an error reply) are reported and skipped. Without
    /// maps, on generated ones (rooms, caves, noise, and caves with costs 1–4).
    /// Exit 1 on any finding.
    Path {
        maps: Vec<PathBuf>,
        #[arg(long)]
        algorithm: Option<String>,
        /// Pairs per map and rule set.
        #[arg(long, default_value_t = 50)]
        pairs: usize,
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
        #[command(flatten)]
        ext: ExtArgs,
    },
}

pub(crate) fn run(command: CheckCommand, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    match command {
        CheckCommand::Fov { maps, algorithm, against, radii, origins, show, format, ext } => {
            let against = Algorithm::from_name(&against).with_context(|| {
                let names: Vec<_> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                format!("--against {against:?} is not a built-in algorithm: use one of {}", names.join(", "))
            })?;
            let radii = radii
                .iter()
                .map(|r| match r.trim() {
                    "unlimited" | "none" => Ok(None),
                    r => r
                        .parse::<u32>()
                        .map(Some)
                        .map_err(|_| anyhow::anyhow!("--radii takes numbers or unlimited, not {r:?}")),
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            let mut externals = Externals::new(&ext)?;
            let name = which(&externals, algorithm)?;
            let maps = maps_to_check(&maps, false)?;
            let program = externals.program(&name)?.expect("registered");
            let report = check_fov(program, &maps, against, &radii, origins, show)?;
            write!(out, "{}", report.render(format, &name, against))?;
            anyhow::ensure!(
                report.differing() == 0,
                "{name}: {} of {} views differ from {against}",
                report.differing(),
                report.views()
            );
            Ok(())
        }
        CheckCommand::Path { maps, algorithm, pairs, format, ext } => {
            let mut externals = Externals::new(&ext)?;
            let name = which(&externals, algorithm)?;
            let maps = maps_to_check(&maps, true)?;
            let program = externals.program(&name)?.expect("registered");
            let report = check_path(program, &maps, pairs)?;
            write!(out, "{}", report.render(format, &name))?;
            let findings = report.findings();
            anyhow::ensure!(report.checked() > 0, "{name}: no path was checked (it refused every rule set)");
            anyhow::ensure!(findings == 0, "{name}: {findings} of {} paths are wrong", report.checked());
            Ok(())
        }
    }
}

/// The program to check: the one named, or the only one registered.
fn which(externals: &Externals, algorithm: Option<String>) -> anyhow::Result<String> {
    let names = externals.names();
    match algorithm {
        Some(name) if externals.is_registered(&name) => Ok(name),
        Some(name) => anyhow::bail!("--algorithm {name:?} is not registered: give --ext {name}=COMMAND"),
        None if names.len() == 1 => Ok(names[0].to_string()),
        None if names.is_empty() => anyhow::bail!("nothing to check: register a program with --ext NAME=COMMAND"),
        None => anyhow::bail!("several programs are registered ({}): pick one with --algorithm", names.join(", ")),
    }
}

/// A map to check on, by name.
struct Subject {
    name: String,
    opacity: OpacityGrid,
    costs: path::CostGrid,
}

/// The given maps, or generated ones of each kind (with `costs`, a caves map with costs 1–4 too).
fn maps_to_check(paths: &[PathBuf], costs: bool) -> anyhow::Result<Vec<Subject>> {
    let subject = |name: String, map: &Map| Subject {
        name,
        opacity: OpacityGrid::from_map(map),
        costs: path::CostGrid::from_map(map, path::DoorRule::Impassable),
    };
    if !paths.is_empty() {
        return paths.iter().map(|p| Ok(subject(p.display().to_string(), &load_for_command(p)?))).collect();
    }
    let (w, h) = (48, 32);
    let mut out = vec![
        subject("rooms 48×32".into(), &generate::dungeon(w, h, 7)?),
        subject("caves 48×32".into(), &generate::caves(w, h, 7)?),
        subject("pillars 48×32".into(), &format::ascii::parse(&pillars(w as usize, h as usize))?),
    ];
    for density in [0.1, 0.3, 0.45] {
        out.push(subject(format!("noise {:.0}% 48×32", density * 100.0), &generate::noise(w, h, density, 7)?));
    }
    if costs {
        let mut rough = subject("caves with costs 48×32".into(), &generate::caves(w, h, 11)?);
        let mut rng = Rng::new(11);
        for y in 0..rough.costs.height() {
            for x in 0..rough.costs.width() {
                if rough.costs.passable(x, y) {
                    rough.costs.set_cost(x, y, (1 + rng.below(4)) as f32);
                }
            }
        }
        out.push(rough);
    }
    Ok(out)
}

/// A room of pillars every third cell, walled round: many corners and gaps between them.
fn pillars(w: usize, h: usize) -> String {
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    let edge = x == 0 || y == 0 || x == w - 1 || y == h - 1;
                    if edge || (x % 3 == 0 && y % 3 == 0) { '#' } else { '.' }
                })
                .collect::<String>()
                + "\n"
        })
        .collect()
}

/// `n` origins on the map's transparent cells: the one nearest each corner, then cells drawn
/// uniformly (so edges are drawn as often as they occur), without repeats.
fn spread_origins(grid: &OpacityGrid, n: usize, seed: u64) -> Vec<Cell> {
    let (w, h) = (grid.width(), grid.height());
    let open: Vec<Cell> =
        (0..h).flat_map(|y| (0..w).map(move |x| Cell::new(x, y))).filter(|c| !grid.is_opaque(c.x, c.y)).collect();
    let mut out: Vec<Cell> = Vec::new();
    for corner in [Cell::new(0, 0), Cell::new(w - 1, 0), Cell::new(0, h - 1), Cell::new(w - 1, h - 1)] {
        if let Some(&c) = open.iter().min_by_key(|c| c.distance_squared(corner))
            && !out.contains(&c)
        {
            out.push(c);
        }
    }
    let mut rng = Rng::new(seed);
    let mut rest: Vec<Cell> = open.into_iter().filter(|c| !out.contains(c)).collect();
    while out.len() < n && !rest.is_empty() {
        let k = rng.below(rest.len() as u32) as usize;
        out.push(rest.swap_remove(k));
    }
    out
}

/// One view that differs.
struct Difference {
    map: String,
    radius: Option<u32>,
    origin: Cell,
    theirs_only: Vec<Cell>,
    ours_only: Vec<Cell>,
    drawing: String,
}

/// Per map and radius: views compared, views that differ, and the symmetry audit's figures.
struct FovRow {
    map: String,
    radius: Option<u32>,
    views: usize,
    differing: usize,
    theirs_only: usize,
    ours_only: usize,
    /// The program's violations and pairs, and the built-in's violations.
    violations: u64,
    pairs: u64,
    ours_violations: u64,
}

struct FovReport {
    rows: Vec<FovRow>,
    shown: Vec<Difference>,
    /// Cells seen beyond a diagonal line of walls (theirs, the built-in's).
    diagonal_gaps: (usize, usize),
}

impl FovReport {
    fn views(&self) -> usize {
        self.rows.iter().map(|r| r.views).sum()
    }

    fn differing(&self) -> usize {
        self.rows.iter().map(|r| r.differing).sum()
    }

    fn render(&self, format: OutputFormat, name: &str, against: Algorithm) -> String {
        let radius = |r: Option<u32>| r.map_or("unlimited".to_string(), |r| r.to_string());
        let rate = |v: u64, p: u64| if p == 0 { 0.0 } else { v as f64 / p as f64 };
        match format {
            OutputFormat::Json => {
                let rows: Vec<_> = self
                    .rows
                    .iter()
                    .map(|r| {
                        serde_json::json!({
                            "map": r.map, "radius": r.radius, "views": r.views, "differing": r.differing,
                            "cells_only_theirs": r.theirs_only, "cells_only_ours": r.ours_only,
                            "symmetry_violations": r.violations, "symmetry_pairs": r.pairs,
                            "symmetry_rate": rate(r.violations, r.pairs), "ours_symmetry_violations": r.ours_violations,
                        })
                    })
                    .collect();
                let shown: Vec<_> = self
                    .shown
                    .iter()
                    .map(|d| {
                        let cells = |v: &[Cell]| v.iter().map(|c| [c.x, c.y]).collect::<Vec<_>>();
                        serde_json::json!({"map": d.map, "radius": d.radius, "origin": [d.origin.x, d.origin.y],
                            "only_theirs": cells(&d.theirs_only), "only_ours": cells(&d.ours_only)})
                    })
                    .collect();
                format!(
                    "{}\n",
                    serde_json::to_string_pretty(&serde_json::json!({
                        "algorithm": name, "against": against.name(), "views": self.views(),
                        "differing": self.differing(), "rows": rows, "differences": shown,
                        "sees_through_diagonal_gaps": self.diagonal_gaps.0 > 0,
                        "against_sees_through_diagonal_gaps": self.diagonal_gaps.1 > 0,
                    }))
                    .unwrap_or_default()
                )
            }
            OutputFormat::Text => {
                let mut out = format!("check fov: {name} against {against}\n");
                out += &format!(
                    "{:<24}{:>10}{:>7}{:>10}{:>13}{:>12}{:>14}{:>13}\n",
                    "map",
                    "radius",
                    "views",
                    "differ",
                    "only theirs",
                    "only ours",
                    "asymmetric",
                    against.name()
                );
                for r in &self.rows {
                    out += &format!(
                        "{:<24}{:>10}{:>7}{:>10}{:>13}{:>12}{:>13.3}%{:>12.3}%\n",
                        r.map,
                        radius(r.radius),
                        r.views,
                        r.differing,
                        r.theirs_only,
                        r.ours_only,
                        rate(r.violations, r.pairs) * 100.0,
                        rate(r.ours_violations, r.pairs) * 100.0
                    );
                }
                let (v, p): (u64, u64) = self.rows.iter().fold((0, 0), |(v, p), r| (v + r.violations, p + r.pairs));
                out += &format!(
                    "{} of {} views differ; symmetry: {} of {} pairs one-sided ({:.3}%)\n",
                    self.differing(),
                    self.views(),
                    v,
                    p,
                    rate(v, p) * 100.0
                );
                let cells = |n: usize| if n == 1 { "1 cell".to_string() } else { format!("{n} cells") };
                let yes =
                    |n: usize| if n > 0 { format!("yes ({n} cells beyond a diagonal wall)") } else { "no".into() };
                out += &format!(
                    "sees through diagonal gaps: {} ({against}: {})\n",
                    yes(self.diagonal_gaps.0),
                    yes(self.diagonal_gaps.1)
                );
                for d in &self.shown {
                    out += &format!(
                        "\n{} radius {}, from {}: {} only {name} sees (T), {} only {against} sees (O)\n",
                        d.map,
                        radius(d.radius),
                        d.origin,
                        cells(d.theirs_only.len()),
                        cells(d.ours_only.len())
                    );
                    out += &d.drawing;
                }
                out
            }
        }
    }
}

/// Origins per request: an audit's worth of views in few round trips.
const BATCH: usize = 256;

fn check_fov(
    program: &mut Program,
    maps: &[Subject],
    against: Algorithm,
    radii: &[Option<u32>],
    n: usize,
    show: usize,
) -> anyhow::Result<FovReport> {
    let mut rows = Vec::new();
    let mut shown = Vec::new();
    for (k, subject) in maps.iter().enumerate() {
        let grid = &subject.opacity;
        program.set_map(grid, &subject.costs)?;
        let (w, h) = (grid.width() as u32, grid.height() as u32);
        let mut ours = VisibleSet::new(w, h);
        for &radius in radii {
            let origins = spread_origins(grid, n, k as u64 + 1);
            let mut row = FovRow {
                map: subject.name.clone(),
                radius,
                views: 0,
                differing: 0,
                theirs_only: 0,
                ours_only: 0,
                violations: 0,
                pairs: 0,
                ours_violations: 0,
            };
            for batch in origins.chunks(BATCH) {
                let views = program.fov(batch, radius, true)?;
                for (&origin, view) in batch.iter().zip(views) {
                    fov::compute(against, grid, FovParams::new(origin, radius), &mut ours);
                    let theirs = super::external::view_set(w, h, &view);
                    let theirs_only: Vec<Cell> = view.iter().copied().filter(|c| !ours.contains_cell(*c)).collect();
                    let ours_only: Vec<Cell> = ours.iter().filter(|c| !theirs.contains_cell(*c)).collect();
                    row.views += 1;
                    if theirs_only.is_empty() && ours_only.is_empty() {
                        continue;
                    }
                    row.differing += 1;
                    row.theirs_only += theirs_only.len();
                    row.ours_only += ours_only.len();
                    if shown.len() < show {
                        let drawing = draw_difference(grid, origin, radius, &ours, &theirs);
                        shown.push(Difference {
                            map: subject.name.clone(),
                            radius,
                            origin,
                            theirs_only,
                            ours_only,
                            drawing,
                        });
                    }
                }
            }
            // The whole map's symmetry, theirs and ours (an unlimited audit of a big map is refused
            // by its size: then the row says nothing of symmetry).
            let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
            match symmetry::audit_views(grid, Views::External(program), radius, &done, &cancel) {
                Ok(theirs) => {
                    let ours = symmetry::audit(grid, against, radius, &done, &cancel)?;
                    (row.violations, row.pairs, row.ours_violations) =
                        (theirs.violations, theirs.pairs, ours.violations);
                }
                Err(symmetry::AuditError::TooLarge(_)) => {}
                Err(e) => return Err(e.into()),
            }
            rows.push(row);
        }
    }
    let gaps = diagonal_gaps(program, against)?;
    Ok(FovReport { rows, shown, diagonal_gaps: gaps })
}

/// The part of the map around `origin` (the radius, or 12 cells), each cell as both see it: a
/// glyph (`#` opaque, `.` transparent) where both see it, `T` where only theirs does, `O` where
/// only ours does, blank where neither; `@` the origin.
fn draw_difference(
    grid: &OpacityGrid,
    origin: Cell,
    radius: Option<u32>,
    ours: &VisibleSet,
    theirs: &VisibleSet,
) -> String {
    let r = radius.map_or(12, |r| r.min(12) as i32);
    let mut out = String::new();
    for y in (origin.y - r).max(0)..=(origin.y + r).min(grid.height() - 1) {
        let mut row = String::new();
        for x in (origin.x - r).max(0)..=(origin.x + r).min(grid.width() - 1) {
            row.push(match (Cell::new(x, y) == origin, theirs.contains(x, y), ours.contains(x, y)) {
                (true, _, _) => '@',
                (_, true, true) if grid.is_opaque(x, y) => '#',
                (_, true, true) => '.',
                (_, true, false) => 'T',
                (_, false, true) => 'O',
                (_, false, false) => ' ',
            });
        }
        out += row.trim_end();
        out.push('\n');
    }
    // Rows that neither sees say nothing.
    format!("{}\n", out.trim_matches('\n'))
}

/// How many cells beyond a diagonal line of walls (walls touching only at their corners) the
/// program sees, and how many the built-in does: 0 when sight does not pass such gaps.
fn diagonal_gaps(program: &mut Program, against: Algorithm) -> anyhow::Result<(usize, usize)> {
    // Walls on the diagonal x = y of a 15 × 15 room; the viewer is above it.
    let n = 15;
    let rows: Vec<String> = (0..n).map(|y| (0..n).map(|x| if x == y { '#' } else { '.' }).collect()).collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = OpacityGrid::from_ascii(&refs);
    program.set_map(&grid, &path::CostGrid::from_ascii(&refs))?;
    let origins = [Cell::new(9, 4), Cell::new(12, 2), Cell::new(5, 3)];
    let views = program.fov(&origins, None, true)?;
    let beyond = |c: &Cell| c.x < c.y;
    let theirs = views.iter().map(|v| v.iter().filter(|c| beyond(c)).count()).sum();
    let mut ours = VisibleSet::new(n as u32, n as u32);
    let mut built_in = 0;
    for &o in &origins {
        fov::compute(against, &grid, FovParams::new(o, None), &mut ours);
        built_in += ours.iter().filter(beyond).count();
    }
    Ok((theirs, built_in))
}

/// Per rule set: what was checked and found.
struct PathRow {
    map: String,
    rules: String,
    checked: usize,
    /// Paths that were not walks under the rules (the program's answer, in its words).
    invalid: usize,
    /// Paths costlier than the optimal one.
    not_optimal: usize,
    /// No path said where one exists.
    missed: usize,
    /// A refusal of the rule set (an error reply), which skips the rest of it.
    refused: Option<String>,
}

struct PathReport {
    rows: Vec<PathRow>,
    examples: Vec<String>,
}

impl PathReport {
    fn checked(&self) -> usize {
        self.rows.iter().map(|r| r.checked).sum()
    }

    fn findings(&self) -> usize {
        self.rows.iter().map(|r| r.invalid + r.not_optimal + r.missed).sum()
    }

    fn render(&self, format: OutputFormat, name: &str) -> String {
        match format {
            OutputFormat::Json => {
                let rows: Vec<_> = self
                    .rows
                    .iter()
                    .map(|r| {
                        serde_json::json!({"map": r.map, "rules": r.rules, "checked": r.checked, "invalid": r.invalid,
                            "not_optimal": r.not_optimal, "missed": r.missed, "refused": r.refused})
                    })
                    .collect();
                format!(
                    "{}\n",
                    serde_json::to_string_pretty(&serde_json::json!({
                        "algorithm": name, "checked": self.checked(), "findings": self.findings(),
                        "rows": rows, "examples": self.examples,
                    }))
                    .unwrap_or_default()
                )
            }
            OutputFormat::Text => {
                let mut out = format!("check path: {name} against Dijkstra\n");
                out += &format!(
                    "{:<24}{:<36}{:>8}{:>9}{:>13}{:>8}\n",
                    "map", "rules", "checked", "invalid", "not optimal", "missed"
                );
                for r in &self.rows {
                    match &r.refused {
                        Some(why) if r.checked == 0 => out += &format!("{:<24}{:<36}refused: {why}\n", r.map, r.rules),
                        _ => {
                            out += &format!(
                                "{:<24}{:<36}{:>8}{:>9}{:>13}{:>8}\n",
                                r.map, r.rules, r.checked, r.invalid, r.not_optimal, r.missed
                            )
                        }
                    }
                }
                out += &format!("{} of {} paths wrong\n", self.findings(), self.checked());
                for e in &self.examples {
                    out += &format!("  {e}\n");
                }
                out
            }
        }
    }
}

/// The rule sets a path check runs: 4 moves, then 8 under each diagonal policy (√2 diagonals),
/// then king moves (8, always, diagonals of 1).
fn rule_sets() -> Vec<path::MoveRules> {
    use path::{DiagonalLength, DiagonalPolicy, MoveRules, Moves};
    let mut out = vec![MoveRules::FOUR];
    for diagonal in DiagonalPolicy::ALL {
        out.push(MoveRules { moves: Moves::Eight, diagonal, diagonal_length: DiagonalLength::Euclidean });
    }
    out.push(MoveRules {
        moves: Moves::Eight,
        diagonal: DiagonalPolicy::Always,
        diagonal_length: DiagonalLength::Chebyshev,
    });
    out
}

fn describe(rules: &path::MoveRules) -> String {
    match rules.moves {
        path::Moves::Four => "4 moves".into(),
        path::Moves::Eight => format!(
            "8 moves, {}, diag {}",
            crate::core::ext::diagonal_name(rules.diagonal),
            if rules.diagonal_length.value() == 1.0 {
                "1".to_string()
            } else {
                format!("{:.3}", rules.diagonal_length.value())
            }
        ),
    }
}

fn check_path(program: &mut Program, maps: &[Subject], pairs: usize) -> anyhow::Result<PathReport> {
    let mut rows = Vec::new();
    let mut examples = Vec::new();
    let mut searcher = path::search::Searcher::new();
    for (k, subject) in maps.iter().enumerate() {
        program.set_map(&subject.opacity, &subject.costs)?;
        let grid = &subject.costs;
        let walkable: Vec<Cell> = (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
            .filter(|c| grid.passable(c.x, c.y))
            .collect();
        if walkable.is_empty() {
            continue;
        }
        for rules in rule_sets() {
            let mut row = PathRow {
                map: subject.name.clone(),
                rules: describe(&rules),
                checked: 0,
                invalid: 0,
                not_optimal: 0,
                missed: 0,
                refused: None,
            };
            let rules_name = row.rules.clone();
            let mut rng = Rng::new(k as u64 * 31 + 5);
            let params =
                path::SearchParams { algorithm: path::Algorithm::Dijkstra, rules, ..path::SearchParams::default() };
            for _ in 0..pairs {
                let from = walkable[rng.below(walkable.len() as u32) as usize];
                let to = walkable[rng.below(walkable.len() as u32) as usize];
                let optimal = searcher.find_path(grid, &params, from, to).map(|r| r.cost);
                let mut example = |e: String| {
                    if examples.len() < 8 {
                        examples.push(format!("{}, {rules_name}: {from} → {to}: {e}", subject.name));
                    }
                };
                match program.path(from, to, &rules) {
                    Err(e) if e.kind == ExtErrorKind::Refused => {
                        row.refused = Some(e.message.clone());
                        break;
                    }
                    Err(e) if e.kind == ExtErrorKind::Invalid => {
                        row.invalid += 1;
                        example(e.message);
                    }
                    Err(e) => return Err(e.into()),
                    Ok(found) => match (found.cost, optimal) {
                        (None, Some(best)) => {
                            row.missed += 1;
                            example(format!("no path, but one of cost {best:.4} exists"));
                        }
                        (Some(cost), Some(best)) if cost > best + 1e-6 * best.max(1.0) => {
                            row.not_optimal += 1;
                            example(format!("cost {cost:.4}, the optimal is {best:.4}"));
                        }
                        // A path where Dijkstra finds none cannot be a valid walk: the walk check
                        // above would have refused it.
                        _ => {}
                    },
                }
                row.checked += 1;
            }
            rows.push(row);
        }
    }
    Ok(PathReport { rows, examples })
}
