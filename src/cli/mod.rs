//! The headless commands of `sightline` (`info`, `fov`, `path`, `audit` …) on the same core as
//! the app. `main.rs` parses the command line and hands a [`Command`] to [`run`].

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Subcommand, ValueEnum};

use crate::core::format::movingai;
use crate::core::format::{self, Loaded};
use crate::core::fov::{self, Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet};
use crate::core::{Cell, Map, ObjectKind, PropertyValue, generate, path};

mod check;
mod external;
mod play;

pub use check::CheckCommand;
pub use external::ExtArgs;
use external::Externals;

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print a map's size, tile types, layers and objects.
    Info {
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
    },
    /// Convert a map between formats (chosen by extension: .ron .txt .tmx .tmj .json .map).
    Convert { input: PathBuf, output: PathBuf },
    /// Field of view from a cell: the map with what is visible (ascii) or the visible cells (json).
    Fov {
        map: PathBuf,
        /// circle, ray, diamond, shadowcast, shadowline, symmetric, permissive, milazzo, mrpas, or all.
        #[arg(long, default_value = "symmetric")]
        algorithm: String,
        /// The viewer's cell (default: the map's player start).
        #[arg(long, value_name = "X,Y")]
        origin: Option<Cell>,
        /// Keep cells with dx² + dy² ≤ R² (default: unlimited).
        #[arg(long)]
        radius: Option<u32>,
        /// Report only transparent cells (walls bounding the view are not lit).
        #[arg(long)]
        no_light_walls: bool,
        /// A second cell: whether each sees the other (the algorithm's, or all of them), and
        /// whether a shot from the origin reaches it (Ford's two digital lines), the lines drawn.
        #[arg(long, value_name = "X,Y")]
        to: Option<Cell>,
        #[arg(long, value_enum, default_value_t = FovFormat::Ascii)]
        format: FovFormat,
        #[command(flatten)]
        ext: ExtArgs,
    },
    /// A path between two cells: the map with the path and the explored cells (ascii), or the
    /// numbers (json). With a MovingAI `.scen` file: every scenario, checked against its optimal length.
    Path {
        map: PathBuf,
        #[arg(long, value_name = "X,Y", required_unless_present = "scen")]
        from: Option<Cell>,
        #[arg(long, value_name = "X,Y", required_unless_present = "scen")]
        to: Option<Cell>,
        /// astar, dijkstra, bfs, greedy or jps.
        #[arg(long, default_value = "astar")]
        algorithm: String,
        #[arg(long, value_parser = ["4", "8"], default_value = "8")]
        moves: String,
        #[arg(long, value_enum, default_value_t = DiagonalArg::NoCornerCut)]
        diagonal: DiagonalArg,
        /// Closed doors can be opened, at this extra cost (default: they are walls).
        #[arg(long, value_name = "COST")]
        open_doors: Option<f32>,
        /// Run a MovingAI scenario file instead of one search.
        #[arg(long, value_name = "FILE.scen")]
        scen: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = FovFormat::Ascii)]
        format: FovFormat,
        #[command(flatten)]
        ext: ExtArgs,
    },
    /// What the map's lights light (ascii: the map with the lit cells; json: the cells), or,
    /// with --from, what a viewer there sees by the game's rule: its own view, and lit cells
    /// within 20 cells.
    Lights {
        map: PathBuf,
        /// The FOV algorithm light and sight go by.
        #[arg(long, default_value = "shadowcast")]
        algorithm: String,
        /// A viewer's cell: report what it sees instead.
        #[arg(long, value_name = "X,Y")]
        from: Option<Cell>,
        /// The viewer's own vision radius (the Grass preset's, 8, by default).
        #[arg(long, default_value_t = 8)]
        vision: u32,
        #[arg(long, value_enum, default_value_t = FovFormat::Ascii)]
        format: FovFormat,
    },
    /// Play the game the preview pane plays, headless: the keys (the pane's vi-keys: h j k l
    /// y u b n move or attack, . waits, o opens and c closes a door, x explores until it
    /// stops; >X,Y travels to a known cell, as a click does), then what the player knows
    /// (ascii: the map as believed and what is in view, the status and the message log; json:
    /// the same as data).
    Play {
        map: PathBuf,
        /// Grass, Terminus, jsrlt, Caves of Zircon or Picotron (the Play menu's presets).
        #[arg(long, default_value = "Grass")]
        preset: String,
        /// The game's random seed (monsters' wandering and blows): the same seed and keys give
        /// the same game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The keys, in order (spaces ignored), e.g. "lllj x >3,4".
        #[arg(long, default_value = "")]
        keys: String,
        /// Stop after this many turns at most.
        #[arg(long, default_value_t = play::DEFAULT_TURN_LIMIT)]
        turns: u64,
        #[arg(long, value_enum, default_value_t = FovFormat::Ascii)]
        format: FovFormat,
    },
    /// Whole-map analyses of an FOV algorithm.
    Audit {
        #[command(subcommand)]
        analysis: AuditCommand,
    },
    /// Check an external algorithm (a program, `--ext NAME=COMMAND`) against the built-in ones:
    /// exit 1 when it differs or breaks a rule.
    Check {
        #[command(subcommand)]
        what: CheckCommand,
    },
    /// Write a generated map.
    Generate {
        #[arg(value_enum)]
        kind: Generator,
        output: PathBuf,
        #[arg(long, default_value_t = 80)]
        width: u32,
        #[arg(long, default_value_t = 40)]
        height: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(Subcommand, Debug)]
pub enum AuditCommand {
    /// What the game's rules make of the map's cells, and what they put out of reach: walkable
    /// pockets no way from the start leads to, and monsters, items or the player start on a cell
    /// no one can stand on or out of reach. Exit 1 when there is such a finding (a map check for CI).
    Rules {
        map: PathBuf,
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
    },
    /// Every ordered pair of transparent cells (A, B) within the radius where A sees B but B does
    /// not see A.
    Symmetry {
        map: PathBuf,
        /// An FOV algorithm, or all (one row each).
        #[arg(long, default_value = "all")]
        algorithm: String,
        #[arg(long)]
        radius: Option<u32>,
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
        #[command(flatten)]
        ext: ExtArgs,
    },
    /// Build the per-cell LOS cache, toggle one cell's opacity (a door, say) and report the cache
    /// size, the conservative, candidate and changed regions and the update time.
    Cache {
        map: PathBuf,
        #[arg(long, default_value = "shadowcast")]
        algorithm: String,
        #[arg(long, default_value_t = 8)]
        radius: u32,
        #[arg(long, value_name = "X,Y")]
        toggle: Cell,
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
        #[command(flatten)]
        ext: ExtArgs,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FovFormat {
    Ascii,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiagonalArg {
    Always,
    Never,
    NoCornerCut,
    OneBlocked,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Generator {
    /// Rooms, corridors and doors.
    Dungeon,
    /// Cellular-automaton caves.
    Caves,
    /// 30% random walls.
    Noise,
}

/// Runs one headless command. Exit code 0 on success, 1 when the command failed (one line on
/// stderr names the file and the problem).
pub fn run(command: Command) -> ExitCode {
    match run_command(command) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader has all it wanted (`| head`): nothing went wrong here.
        Err(e) if e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// Loads a map for a command, printing the loader's warnings to stderr.
pub(crate) fn load_for_command(path: &Path) -> anyhow::Result<Map> {
    let Loaded { map, warnings, .. } = format::load(path)?;
    for w in warnings {
        eprintln!("warning: {}: {w}", path.display());
    }
    Ok(map)
}

fn run_command(command: Command) -> anyhow::Result<()> {
    // Written through a handle that reports failures (`print!` panics on them): a reader that
    // stops early, `sightline fov … | head`, closes the pipe, and `run` then ends quietly.
    let mut out = std::io::stdout().lock();
    match command {
        Command::Info { file, format } => {
            let map = load_for_command(&file)?;
            write!(out, "{}", info(&map, &file, format))?;
            Ok(())
        }
        Command::Convert { input, output } => {
            let map = load_for_command(&input)?;
            let saved = format::save(&map, &output)?;
            for w in &saved.warnings {
                eprintln!("warning: {}: {w}", output.display());
            }
            for f in &saved.files {
                writeln!(out, "wrote {}", f.display())?;
            }
            Ok(())
        }
        Command::Fov { map, algorithm, origin, radius, no_light_walls, to, format, ext } => {
            let mut externals = Externals::new(&ext)?;
            let loaded = load_for_command(&map)?;
            let origin = match origin {
                Some(o) => o,
                None => loaded
                    .objects
                    .iter()
                    .find(|o| o.kind == ObjectKind::PlayerStart)
                    .map(|o| o.cell)
                    .context("the map has no player start: give --origin X,Y")?,
            };
            anyhow::ensure!(
                loaded.in_bounds(origin),
                "origin {origin} is outside the {}×{} map",
                loaded.width(),
                loaded.height()
            );
            let params = FovParams { origin, radius, light_walls: !no_light_walls };
            if let Some(to) = to {
                anyhow::ensure!(
                    loaded.in_bounds(to),
                    "--to {to} is outside the {}×{} map",
                    loaded.width(),
                    loaded.height()
                );
                write!(out, "{}", pair_report(&loaded, &algorithm, params, to, format, &mut externals)?)?;
                return Ok(());
            }
            write!(out, "{}", fov_report(&loaded, &algorithm, params, format, &mut externals)?)?;
            Ok(())
        }
        Command::Path { map, from, to, algorithm: name, moves, diagonal, open_doors, scen, format, ext } => {
            let mut externals = Externals::new(&ext)?;
            let loaded = load_for_command(&map)?;
            let algorithm = match path::Algorithm::from_name(&name) {
                Some(a) => a,
                None if externals.is_registered(&name) => path::Algorithm::AStar,
                None => {
                    let names: Vec<&str> = path::Algorithm::ALL.iter().map(|a| a.name()).collect();
                    return Err(external::unknown_algorithm(&name, &names, &externals));
                }
            };
            let rules = path::MoveRules {
                moves: if moves == "4" { path::Moves::Four } else { path::Moves::Eight },
                diagonal: match diagonal {
                    DiagonalArg::Always => path::DiagonalPolicy::Always,
                    DiagonalArg::Never => path::DiagonalPolicy::Never,
                    DiagonalArg::NoCornerCut => path::DiagonalPolicy::NoCornerCut,
                    DiagonalArg::OneBlocked => path::DiagonalPolicy::OneBlocked,
                },
                diagonal_length: path::DiagonalLength::Euclidean,
            };
            let params = path::SearchParams { algorithm, rules, ..path::SearchParams::default() };
            let doors = match open_doors {
                Some(cost) => {
                    anyhow::ensure!(cost.is_finite() && cost >= 0.0, "--open-doors takes a cost ≥ 0");
                    path::DoorRule::OpenAtCost(cost)
                }
                None => path::DoorRule::Impassable,
            };
            let grid = path::CostGrid::from_map(&loaded, doors);
            if let Some(scen) = scen {
                anyhow::ensure!(
                    !externals.is_registered(&name),
                    "--scen runs the built-in searches; check {name} with `sightline check path`"
                );
                let (report, all_match) = scenario_report(&grid, &params, &scen)?;
                write!(out, "{report}")?;
                anyhow::ensure!(all_match, "some scenario costs do not match their optimal lengths");
                return Ok(());
            }
            let (from, to) = (from.context("--from is required")?, to.context("--to is required")?);
            for (what, c) in [("--from", from), ("--to", to)] {
                anyhow::ensure!(
                    loaded.in_bounds(c),
                    "{what} {c} is outside the {}×{} map",
                    loaded.width(),
                    loaded.height()
                );
                anyhow::ensure!(
                    grid.passable(c.x, c.y),
                    "{what} {c} cannot be walked on (a wall, a closed door or void)"
                );
            }
            if let Some(program) = externals.program(&name)? {
                program.set_map(&OpacityGrid::from_map(&loaded), &grid)?;
                let found = program.path(from, to, &rules)?;
                write!(out, "{}", external_path_report(&loaded, &name, &found, format))?;
                anyhow::ensure!(found.path.is_some(), "{name} found no path from {from} to {to}");
                return Ok(());
            }
            let mut trace = path::Trace::new(&grid);
            let mut searcher = path::search::Searcher::new();
            let Some(result) = searcher.find_path_recorded(&grid, &params, from, to, &mut trace) else {
                anyhow::bail!("no path from {from} to {to} ({} cells explored)", trace.steps());
            };
            match format {
                FovFormat::Json => {
                    let cells: Vec<[i32; 2]> = result.path.iter().map(|c| [c.x, c.y]).collect();
                    writeln!(
                        out,
                        "{}",
                        serde_json::json!({"cost": result.cost, "length": result.path.len() - 1, "expanded": result.expanded, "path": cells})
                    )?;
                }
                FovFormat::Ascii => {
                    write!(out, "{}", render_path(&loaded, &trace, &result))?;
                    writeln!(
                        out,
                        "{}: cost {:.4}, {} steps, {} cells expanded",
                        params.algorithm.name(),
                        result.cost,
                        result.path.len() - 1,
                        result.expanded
                    )?;
                }
            }
            Ok(())
        }
        Command::Audit { analysis: AuditCommand::Rules { map, format } } => {
            let loaded = load_for_command(&map)?;
            let (report, findings) = rules_report(&loaded, format);
            write!(out, "{report}")?;
            anyhow::ensure!(
                findings == 0,
                "{}: {findings} finding{}",
                map.display(),
                if findings == 1 { "" } else { "s" }
            );
            Ok(())
        }
        Command::Audit { analysis: AuditCommand::Symmetry { map, algorithm, radius, format, ext } } => {
            let mut externals = Externals::new(&ext)?;
            let loaded = load_for_command(&map)?;
            let grid = OpacityGrid::from_map(&loaded);
            let builtins = match algorithm.as_str() {
                "all" => Algorithm::ALL.to_vec(),
                name if externals.is_registered(name) => Vec::new(),
                name => vec![builtin_or_unknown(name, &externals)?],
            };
            let mut rows = symmetry_rows(&grid, &builtins, radius)?;
            let programs = match algorithm.as_str() {
                "all" => externals.all()?,
                name => externals.program(name)?.into_iter().collect(),
            };
            for program in programs {
                external::send_map(program, &loaded)?;
                let started = std::time::Instant::now();
                let report = crate::core::analysis::symmetry::audit_views(
                    &grid,
                    crate::core::analysis::symmetry::Views::External(program),
                    radius,
                    &std::sync::atomic::AtomicUsize::new(0),
                    &std::sync::atomic::AtomicBool::new(false),
                )?;
                rows.push((report, started.elapsed().as_secs_f64() * 1e3));
            }
            write!(out, "{}", symmetry_report(&rows, radius, format, &map)?)?;
            Ok(())
        }
        Command::Lights { map, algorithm, from, vision, format } => {
            let loaded = load_for_command(&map)?;
            if let Some(c) = from {
                anyhow::ensure!(
                    loaded.in_bounds(c),
                    "--from {c} is outside the {}×{} map",
                    loaded.width(),
                    loaded.height()
                );
            }
            write!(out, "{}", lights_report(&loaded, &algorithm, from, vision, format)?)?;
            Ok(())
        }
        Command::Play { map, preset, seed, keys, turns, format } => {
            let loaded = load_for_command(&map)?;
            let preset = play::preset_named(&preset)?;
            write!(out, "{}", play::play_report(&loaded, preset, seed, &keys, turns, format)?)?;
            Ok(())
        }
        Command::Audit { analysis: AuditCommand::Cache { map, algorithm, radius, toggle, format, ext } } => {
            let mut externals = Externals::new(&ext)?;
            let loaded = load_for_command(&map)?;
            anyhow::ensure!(
                loaded.in_bounds(toggle),
                "--toggle {toggle} is outside the {}×{} map",
                loaded.width(),
                loaded.height()
            );
            if let Some(program) = externals.program(&algorithm)? {
                let mut grid = OpacityGrid::from_map(&loaded);
                let costs = path::CostGrid::from_map(&loaded, path::DoorRule::Impassable);
                let was_opaque = grid.is_opaque(toggle.x, toggle.y);
                let update = crate::core::analysis::los_cache::external_update(
                    program,
                    &mut grid,
                    &costs,
                    radius,
                    toggle,
                    !was_opaque,
                )?;
                write!(
                    out,
                    "{}",
                    external::cache_report(&map, &algorithm, radius, toggle, was_opaque, &update, format)
                )?;
                return Ok(());
            }
            let algorithm = builtin_or_unknown(&algorithm, &externals)?;
            let grid = OpacityGrid::from_map(&loaded);
            let started = std::time::Instant::now();
            let mut cache = crate::core::analysis::los_cache::LosCache::build(&grid, algorithm, radius)?;
            let build_ms = started.elapsed().as_secs_f64() * 1e3;
            let was_opaque = grid.is_opaque(toggle.x, toggle.y);
            let update = cache.set_opaque(toggle, !was_opaque);
            match format {
                OutputFormat::Json => writeln!(
                    out,
                    "{}",
                    serde_json::json!({
                        "bytes": cache.bytes(), "conservative": update.conservative.len(),
                        "candidates": update.candidates.len(), "changed": update.changed.len(),
                        "update_us": update.micros, "build_ms": build_ms,
                    })
                )?,
                OutputFormat::Text => {
                    writeln!(out, "{}: {} LOS cache, radius {radius}", map.display(), algorithm.name())?;
                    writeln!(out, "cache         {} bytes, built in {build_ms:.1} ms", cache.bytes())?;
                    writeln!(
                        out,
                        "toggle        {toggle} from {} to {}",
                        if was_opaque { "opaque" } else { "transparent" },
                        if was_opaque { "transparent" } else { "opaque" }
                    )?;
                    writeln!(
                        out,
                        "conservative  {} cells (every cached cell within {radius}, as DCSS invalidates)",
                        update.conservative.len()
                    )?;
                    writeln!(
                        out,
                        "candidates    {} cells (the views that can change: recomputed)",
                        update.candidates.len()
                    )?;
                    writeln!(out, "changed       {} cells", update.changed.len())?;
                    writeln!(out, "update        {:.1} µs", update.micros)?;
                }
            }
            Ok(())
        }
        Command::Check { what } => check::run(what, &mut out),
        Command::Generate { kind, output, width, height, seed } => {
            let map = match kind {
                Generator::Dungeon => generate::dungeon(width, height, seed),
                Generator::Caves => generate::caves(width, height, seed),
                Generator::Noise => generate::noise(width, height, 0.3, seed),
            }
            .with_context(|| format!("cannot generate a {width}×{height} map"))?;
            let saved = format::save(&map, &output)?;
            for f in &saved.files {
                writeln!(out, "wrote {}", f.display())?;
            }
            Ok(())
        }
    }
}

/// The `info` report.
pub(crate) fn info(map: &Map, path: &Path, format: OutputFormat) -> String {
    let counts = map.tile_counts();
    let rules = map.rules_grid();
    let opaque = rules.opaque.iter().filter(|&&o| o).count();
    let walkable = rules.walkable.iter().filter(|&&w| w).count();
    let doors = (0..map.len()).filter(|&i| map.rules_at(map.cell_at(i)).door.is_some()).count();
    match format {
        OutputFormat::Json => {
            let tiles: Vec<_> = map
                .tiles
                .iter()
                .enumerate()
                .skip(1)
                .map(|(id, t)| {
                    serde_json::json!({
                        "id": id, "name": t.name, "class": t.class, "glyph": t.glyph.ch.to_string(), "opaque": t.opaque,
                        "walkable": t.walkable, "door": t.door.map(|d| if d.open { "open" } else { "closed" }),
                        "cost": t.cost, "cells": counts[id],
                        "animation": t.animation.iter()
                            .map(|f| serde_json::json!({"tile": f.tile, "ms": f.duration_ms}))
                            .collect::<Vec<_>>(),
                    })
                })
                .collect();
            let objects: Vec<_> = map
                .objects
                .iter()
                .map(|o| {
                    let mut v = serde_json::json!({
                        "id": o.id, "layer": o.layer, "kind": o.kind.type_name(), "name": o.name,
                        "x": o.cell.x, "y": o.cell.y, "properties": format::properties_json(&o.properties),
                    });
                    // The Tiled template it is an instance of, and what it sets itself.
                    if let Some(t) = &o.template {
                        v["template"] = serde_json::json!({"path": t.path, "own": t.own_values(o)});
                    }
                    v
                })
                .collect();
            let layers: Vec<_> = map
                .layers
                .iter()
                .map(|l| {
                    serde_json::json!({
                        "name": l.name,
                        "visible": l.visible,
                        "locked": l.locked,
                        "collision": l.collision,
                        "opacity": format::shortest_f64(l.opacity),
                        "flipped": l.flips.count(),
                        "tint": l.tint.map(crate::core::model::wang::tiled_color), "offset": l.offset,
                        "parallax": l.parallax,
                        "properties": format::properties_json(&l.properties), "class": l.class,
                    })
                })
                .collect();
            let object_layers: Vec<_> = map
                .object_layers
                .iter()
                .map(|l| {
                    serde_json::json!({
                        "name": l.name,
                        "visible": l.visible,
                        "locked": l.locked,
                        "opacity": format::shortest_f64(l.opacity),
                        "color": l.color.map(crate::core::model::wang::tiled_color),
                        "tint": l.tint.map(crate::core::model::wang::tiled_color), "offset": l.offset,
                        "parallax": l.parallax,
                        "tile_layers_below": l.tile_layers_below,
                        "properties": format::properties_json(&l.properties), "class": l.class,
                    })
                })
                .collect();
            // Each group spans places `start..end` of the stack, bottom first (tile and object
            // layers as `layers` and `object_layers` place them).
            let groups: Vec<_> = map
                .groups
                .iter()
                .map(|g| {
                    serde_json::json!({
                        "name": g.name, "parent": g.parent, "start": g.start, "end": g.end,
                        "visible": g.visible, "locked": g.locked, "opacity": format::shortest_f64(g.opacity),
                        "tint": g.tint.map(crate::core::model::wang::tiled_color), "offset": g.offset,
                        "parallax": g.parallax, "properties": format::properties_json(&g.properties), "class": g.class,
                    })
                })
                .collect();
            let v = serde_json::json!({
                "file": path.display().to_string(), "width": map.width(), "height": map.height(),
                "cells": map.len(), "opaque": opaque, "walkable": walkable, "doors": doors,
                "layers": layers, "object_layers": object_layers, "groups": groups, "tiles": tiles, "objects": objects,
                "properties": format::properties_json(&map.properties),
                "class": map.class, "background": map.background.map(crate::core::model::wang::tiled_color),
                "orientation": map.tiled.orientation.name(),
            });
            format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
        }
        OutputFormat::Text => {
            let mut out = String::new();
            out.push_str(&format!("{}\n", path.display()));
            out.push_str(&format!(
                "size      {}×{} ({} cells: {} opaque, {} walkable, {} doors)\n",
                map.width(),
                map.height(),
                map.len(),
                opaque,
                walkable,
                doors
            ));
            if !map.class.is_empty() {
                out.push_str(&format!("class     {}\n", map.class));
            }
            if let Some(c) = map.background {
                out.push_str(&format!("background {}\n", crate::core::model::wang::tiled_color(c)));
            }
            if !map.tiled.orientation.is_orthogonal() {
                out.push_str(&format!(
                    "grid      {} in Tiled (drawn and played here as a square grid)\n",
                    map.tiled.orientation.name()
                ));
            }
            match map.object_layers.len() {
                0 => out.push_str(&format!("layers    {}\n", map.layers.len())),
                n => out.push_str(&format!(
                    "layers    {} ({} tile, {n} object), bottom first\n",
                    map.layers.len() + n,
                    map.layers.len()
                )),
            }
            // The groups a layer is in, outermost first: "trees/canopy".
            let group_path = |at: usize| {
                let mut names: Vec<&str> = map.groups_at(at).iter().map(|&g| map.groups[g].name.as_str()).collect();
                names.reverse();
                (!names.is_empty()).then(|| format!("in {}", names.join("/")))
            };
            for (at, layer) in map.stack().into_iter().enumerate() {
                let l = match layer {
                    crate::core::LayerRef::Tiles(i) => &map.layers[i],
                    crate::core::LayerRef::Objects(j) => {
                        let l = &map.object_layers[j];
                        let n = map.objects.iter().filter(|o| o.layer == j).count();
                        let mut flags = vec![format!("object layer, {n} object{}", if n == 1 { "" } else { "s" })];
                        flags.extend(group_path(at));
                        if !l.visible {
                            flags.push("hidden".to_owned());
                        }
                        if l.locked {
                            flags.push("locked".to_owned());
                        }
                        if l.opacity < 1.0 {
                            flags.push(format!("opacity {:.0}%", l.opacity * 100.0));
                        }
                        if let Some(c) = l.color {
                            flags.push(format!("colour {}", crate::core::model::wang::tiled_color(c)));
                        }
                        flags.extend(look_flags(l.tint, l.offset, l.parallax));
                        for (name, value) in &l.properties {
                            flags.push(format!("{name} = {value} ({})", value.type_name()));
                        }
                        out.push_str(&format!("  {:<24}{}\n", l.name, flags.join(", ")));
                        continue;
                    }
                };
                let mut flags: Vec<String> = group_path(at).into_iter().collect();
                if !l.visible {
                    flags.push("hidden".to_owned());
                }
                if l.locked {
                    flags.push("locked".to_owned());
                }
                if l.collision {
                    flags.push("collision".to_owned());
                }
                if l.opacity < 1.0 {
                    flags.push(format!("opacity {:.0}%", l.opacity * 100.0));
                }
                match l.flips.count() {
                    0 => {}
                    1 => flags.push("1 tile flipped or turned".to_owned()),
                    n => flags.push(format!("{n} tiles flipped or turned")),
                }
                flags.extend(look_flags(l.tint, l.offset, l.parallax));
                for (name, value) in &l.properties {
                    flags.push(format!("{name} = {value} ({})", value.type_name()));
                }
                out.push_str(format!("  {:<24}{}", l.name, flags.join(", ")).trim_end());
                out.push('\n');
            }
            if !map.groups.is_empty() {
                out.push_str(&format!("groups    {}, outermost first\n", map.groups.len()));
                for g in &map.groups {
                    let mut flags = vec![match g.end - g.start {
                        1 => "1 layer".to_owned(),
                        n => format!("{n} layers"),
                    }];
                    if let Some(p) = g.parent {
                        flags.push(format!("in {}", map.groups[p].name));
                    }
                    if !g.visible {
                        flags.push("hidden".to_owned());
                    }
                    if g.locked {
                        flags.push("locked".to_owned());
                    }
                    if g.opacity < 1.0 {
                        flags.push(format!("opacity {:.0}%", g.opacity * 100.0));
                    }
                    flags.extend(look_flags(g.tint, g.offset, g.parallax));
                    for (name, value) in &g.properties {
                        flags.push(format!("{name} = {value} ({})", value.type_name()));
                    }
                    out.push_str(&format!("  {:<24}{}\n", g.name, flags.join(", ")));
                }
            }
            if !map.properties.is_empty() {
                out.push_str(&format!("properties {}\n", map.properties.len()));
                for (name, value) in &map.properties {
                    out.push_str(&format!("  {name:<24}{value} ({})\n", value.type_name()));
                }
            }
            let used: Vec<_> = map.tiles.iter().enumerate().skip(1).filter(|(id, _)| counts[*id] > 0).collect();
            out.push_str(&format!("tiles     {} types, {} used\n", map.tiles.len() - 1, used.len()));
            for (id, t) in used {
                let mut props = Vec::new();
                // Tiled's class, when the name does not already say it.
                if !t.class.is_empty() && t.class != t.name {
                    props.push(format!("class {}", t.class));
                }
                if t.opaque {
                    props.push("opaque".to_owned());
                }
                if t.walkable {
                    props.push("walkable".to_owned());
                }
                if let Some(d) = t.door {
                    props.push(if d.open { "open door" } else { "closed door" }.to_owned());
                }
                if t.cost != 1.0 {
                    props.push(format!("cost {}", t.cost));
                }
                if !t.animation.is_empty() {
                    let ms: u64 = t.animation.iter().map(|f| u64::from(f.duration_ms)).sum();
                    let n = t.animation.len();
                    props.push(format!("animated ({n} frame{}, {ms} ms)", if n == 1 { "" } else { "s" }));
                }
                out.push_str(&format!(
                    "  {:>5}  {}  {:<24}{:>8} cells  {}\n",
                    id,
                    t.glyph.ch,
                    t.name,
                    counts[id],
                    props.join(", ")
                ));
            }
            out.push_str(&format!("objects   {}\n", map.objects.len()));
            for o in &map.objects {
                let properties: Vec<String> = o
                    .properties
                    .iter()
                    .map(|(name, value)| match value {
                        PropertyValue::Object(id) => {
                            format!("{name} → {}", crate::core::model::object::reference_text(*id, &map.objects))
                        }
                        PropertyValue::Enum { enum_type, .. } => format!("{name} = {value} ({enum_type})"),
                        _ => format!("{name} = {value} ({})", value.type_name()),
                    })
                    .collect();
                let id = format!("#{}", o.id);
                // Which layer, when there is a choice.
                let mut on = match map.object_layers.get(o.layer) {
                    Some(l) if map.object_layers.len() > 1 => format!(" on {}", l.name),
                    _ => String::new(),
                };
                if let Some(t) = &o.template {
                    on.push_str(&format!(" (template {})", t.file_name()));
                }
                out.push_str(
                    format!(
                        "  {id:<5} {:<8} {:<16} at {:<8}{on} {}",
                        o.kind.type_name(),
                        o.name,
                        o.cell.to_string(),
                        properties.join(", ")
                    )
                    .trim_end(),
                );
                out.push('\n');
            }
            if !map.sheets.is_empty() {
                out.push_str(&format!("tilesets  {}\n", map.sheets.len()));
                for s in &map.sheets {
                    out.push_str(&format!("  {:<24}{} tiles  {}\n", s.name, s.tile_count, s.image.display()));
                    if let Some(file) = &s.file {
                        out.push_str(&format!("  {:<24}file {}\n", "", file.path.display()));
                    }
                    if !s.drawing.is_default() {
                        out.push_str(&format!("  {:<24}{}\n", "", s.drawing.summary()));
                    }
                    for set in &s.wang_sets {
                        out.push_str(&format!("  {:<24}Wang set {}\n", "", set.summary()));
                    }
                }
            }
            out
        }
    }
}

/// How `info` names a layer's or group's drawing look, each only when not Tiled's default.
fn look_flags(tint: Option<crate::core::Rgba>, offset: [f64; 2], parallax: [f64; 2]) -> Vec<String> {
    let mut flags = Vec::new();
    if let Some(c) = tint {
        flags.push(format!("tint {}", crate::core::model::wang::tiled_color(c)));
    }
    if offset != [0.0, 0.0] {
        flags.push(format!("offset {}, {} px", offset[0], offset[1]));
    }
    if parallax != [1.0, 1.0] {
        flags.push(format!("parallax {} × {}", parallax[0], parallax[1]));
    }
    flags
}

/// A built-in FOV algorithm by name, or an error listing the built-in and registered names.
fn builtin_or_unknown(name: &str, externals: &Externals) -> anyhow::Result<Algorithm> {
    Algorithm::from_name(name).ok_or_else(|| {
        let mut names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        names.push("all");
        external::unknown_algorithm(name, &names, externals)
    })
}

/// The `fov` report: one algorithm (built in or registered with `--ext`) as ASCII or JSON, or
/// `all` as a table (the registered programs last, timed by their round trip).
pub(crate) fn fov_report(
    map: &Map,
    algorithm: &str,
    params: FovParams,
    format: FovFormat,
    externals: &mut Externals,
) -> anyhow::Result<String> {
    let grid = OpacityGrid::from_map(map);
    let mut visible = VisibleSet::new(map.width(), map.height());
    if algorithm == "all" {
        let mut out = String::new();
        let mut rows = Vec::new();
        for a in Algorithm::ALL {
            // Enough repetitions for a stable figure on small views; a time, not a benchmark.
            // One call first, untimed: an algorithm may make its tables on its first view
            // (MRPAS's radius-4 table takes about 20 ms to make, once).
            fov::compute(a, &grid, params, &mut visible);
            let started = std::time::Instant::now();
            let mut runs = 0u32;
            while runs < 10 || (started.elapsed().as_millis() < 20 && runs < 100_000) {
                fov::compute(a, &grid, params, &mut visible);
                runs += 1;
            }
            let micros = started.elapsed().as_secs_f64() * 1e6 / f64::from(runs);
            rows.push((a.name().to_string(), visible.count(), micros));
        }
        for program in externals.all()? {
            external::send_map(program, map)?;
            let started = std::time::Instant::now();
            let views = program.fov(&[params.origin], params.radius, params.light_walls)?;
            let micros = started.elapsed().as_secs_f64() * 1e6;
            rows.push((program.spec().name.clone(), views.first().map_or(0, Vec::len), micros));
        }
        match format {
            FovFormat::Ascii => {
                out.push_str(&format!("{:<12}{:>9}{:>14}\n", "algorithm", "visible", "µs per call"));
                for (a, count, micros) in rows {
                    out.push_str(&format!("{a:<12}{count:>9}{micros:>14.2}\n"));
                }
            }
            FovFormat::Json => {
                let v: Vec<_> = rows
                    .iter()
                    .map(|(a, count, micros)| serde_json::json!({"algorithm": a, "visible": count, "us_per_call": micros}))
                    .collect();
                out = format!("{}\n", serde_json::to_string_pretty(&v)?);
            }
        }
        return Ok(out);
    }
    if let Some(program) = externals.program(algorithm)? {
        visible = external::view_of(program, map, params.origin, params.radius, params.light_walls)?;
    } else {
        fov::compute(builtin_or_unknown(algorithm, externals)?, &grid, params, &mut visible);
    }
    Ok(match format {
        FovFormat::Json => {
            let cells: Vec<[i32; 2]> = visible.iter().map(|c| [c.x, c.y]).collect();
            format!("{}\n", serde_json::json!({ "visible": cells }))
        }
        FovFormat::Ascii => render_visible(map, &visible, params.origin),
    })
}

/// The `fov --to` report: whether the origin and `to` see each other under `algorithm` (or every
/// algorithm, for `all`), and the shot from the origin at `to`
/// ([`crate::core::fov::targeting`]): the map with the shot's lines (`*`, `X` where a line is
/// blocked, `@` the origin, `T` the target), then the verdicts.
pub(crate) fn pair_report(
    map: &Map,
    algorithm: &str,
    params: FovParams,
    to: Cell,
    format: FovFormat,
    externals: &mut Externals,
) -> anyhow::Result<String> {
    use crate::core::fov::targeting::{PairSight, shot};
    let grid = OpacityGrid::from_map(map);
    let mut scratch = VisibleSet::new(map.width(), map.height());
    let from = params.origin;
    // (name, from sees to, to sees from)
    let mut sights: Vec<(String, bool, bool)> = Vec::new();
    let builtins = match algorithm {
        "all" => Algorithm::ALL.to_vec(),
        name if externals.is_registered(name) => Vec::new(),
        name => vec![builtin_or_unknown(name, externals)?],
    };
    for a in builtins {
        let s = PairSight::of(a, &grid, (from, to), (params.radius, params.light_walls), &mut scratch);
        sights.push((a.name().to_string(), s.sees, s.seen_back));
    }
    let programs = match algorithm {
        "all" => externals.all()?,
        name => externals.program(name)?.into_iter().collect(),
    };
    for program in programs {
        external::send_map(program, map)?;
        let views = program.fov(&[from, to], params.radius, params.light_walls)?;
        sights.push((program.spec().name.clone(), views[0].contains(&to), views[1].contains(&from)));
    }
    let shot = shot(&grid, from, to);
    let cell_json = |c: &Cell| serde_json::json!([c.x, c.y]);
    Ok(match format {
        FovFormat::Json => {
            let sight: Vec<_> = sights
                .iter()
                .map(|(name, sees, seen_back)| serde_json::json!({"algorithm": name, "sees": sees, "seen_back": seen_back}))
                .collect();
            let lines: Vec<Vec<_>> = shot.lines.iter().map(|l| l.iter().map(cell_json).collect()).collect();
            let blocked: Vec<_> = shot.blocked_at.iter().map(|b| b.as_ref().map(cell_json)).collect();
            format!(
                "{}\n",
                serde_json::json!({
                    "from": cell_json(&from),
                    "to": cell_json(&to),
                    "shot": {"clear": shot.is_clear(), "lines": lines, "blocked_at": blocked},
                    "sight": sight,
                })
            )
        }
        FovFormat::Ascii => {
            let mut rows = glyph_grid(map);
            let mut put = |c: Cell, ch: char| rows[c.y as usize][c.x as usize] = ch;
            for line in &shot.lines {
                for &c in line.iter().filter(|c| map.in_bounds(**c)) {
                    put(c, '*');
                }
            }
            for &c in shot.blocked_at.iter().flatten() {
                put(c, 'X');
            }
            put(from, '@');
            put(to, 'T');
            let mut out: String =
                rows.iter().map(|r| format!("{}\n", r.iter().collect::<String>().trim_end())).collect();
            out += &format!("shot from {from} at {to}: {}\n", shot.describe(|c| c.to_string()));
            out += &format!("{:<12}{:>6}{:>11}\n", "algorithm", "sees", "seen back");
            let yes = |b: bool| if b { "yes" } else { "no" };
            for (name, sees, seen_back) in &sights {
                let note = match (sees, seen_back) {
                    (false, true) => format!("  one-sided: {to} sees {from} unseen"),
                    (true, false) => format!("  one-sided: {from} sees {to} unseen"),
                    _ => String::new(),
                };
                out += &format!("{name:<12}{:>6}{:>11}{note}\n", yes(*sees), yes(*seen_back));
            }
            out
        }
    })
}

/// The `audit rules` report: the cells by what the rules make of them ([`crate::core::Passage`]),
/// the doors, the costs, what the start reaches, and the findings ([`crate::core::analysis::reach`]); with
/// how many findings there are.
pub(crate) fn rules_report(map: &Map, format: OutputFormat) -> (String, usize) {
    use crate::core::RulesSummary;
    use crate::core::analysis::reach::Reach;
    let RulesSummary {
        open: open_cells, sight_blocked, move_blocked, blocked, closed_doors, open_doors, costly, ..
    } = RulesSummary::of(map);
    let reach = Reach::of(map);
    let reached = (0..map.len()).filter(|&i| reach.reaches(map.cell_at(i))).count();
    let findings: Vec<String> = reach.findings.iter().map(ToString::to_string).collect();
    let text = match format {
        OutputFormat::Json => format!(
            "{}\n",
            serde_json::json!({
                "open": open_cells, "blocks_sight": sight_blocked, "blocks_movement": move_blocked,
                "blocks_both": blocked, "closed_doors": closed_doors, "open_doors": open_doors, "cost_not_1": costly,
                "start": reach.start.map(|c| [c.x, c.y]), "reached": reached,
                "pockets": reach.pockets.iter().map(|p| serde_json::json!({"cells": p.cells, "first": [p.first.x, p.first.y]})).collect::<Vec<_>>(),
                "findings": findings,
            })
        ),
        OutputFormat::Text => {
            let mut out = format!(
                "cells     {open_cells} open, {sight_blocked} block sight only, {move_blocked} block movement only, \
                 {blocked} block both\n\
                 doors     {closed_doors} closed, {open_doors} open\n\
                 costs     {costly} walkable cells cost other than 1\n"
            );
            match reach.start {
                Some(s) => out += &format!("reach     {reached} cells reached from the start at {s}\n"),
                None => out += "reach     no start\n",
            }
            if findings.is_empty() {
                out += "findings  none\n";
            }
            for f in &findings {
                out += &format!("finding   {f}\n");
            }
            out
        }
    };
    (text, findings.len())
}

/// The `lights` report: what the map's lights light, or (`from`) what a viewer there with a
/// vision of `vision` sees by the game's rule ([`crate::core::sim::lighting`]).
pub(crate) fn lights_report(
    map: &Map,
    algorithm: &str,
    from: Option<Cell>,
    vision: u32,
    format: FovFormat,
) -> anyhow::Result<String> {
    use crate::core::sim::Lighting;
    let algorithm = Algorithm::from_name(algorithm).with_context(|| {
        let names: Vec<_> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        format!("unknown algorithm {algorithm:?}: use one of {}", names.join(", "))
    })?;
    let grid = OpacityGrid::from_map(map);
    let lighting = Lighting::of_map(map, algorithm, &grid);
    if let Some(origin) = from {
        let (mut seen, mut far) =
            (VisibleSet::new(map.width(), map.height()), VisibleSet::new(map.width(), map.height()));
        let mut own = VisibleSet::new(map.width(), map.height());
        fov::compute(algorithm, &grid, FovParams::new(origin, Some(vision)), &mut own);
        lighting.sight(&grid, origin, Some(vision), &mut seen, &mut far);
        let (all, own) = (seen.count(), own.count());
        return Ok(match format {
            FovFormat::Json => {
                let cells: Vec<[i32; 2]> = seen.iter().map(|c| [c.x, c.y]).collect();
                format!("{}\n", serde_json::json!({"visible": cells, "own_view": own, "by_light": all - own}))
            }
            FovFormat::Ascii => format!(
                "{}{algorithm} from {origin}, vision {vision}: {all} cells seen, {own} in its own view, {} by light\n",
                render_visible(map, &seen, origin),
                all - own
            ),
        });
    }
    let lights: Vec<serde_json::Value> = lighting
        .lights()
        .iter()
        .enumerate()
        .map(|(k, l)| {
            serde_json::json!({"object": l.object, "cell": [l.cell.x, l.cell.y], "radius": l.radius, "lit": lighting.lit_by(k)})
        })
        .collect();
    Ok(match format {
        FovFormat::Json => {
            let cells: Vec<[i32; 2]> = lighting.lit().iter().map(|c| [c.x, c.y]).collect();
            format!("{}\n", serde_json::json!({"lights": lights, "lit": cells}))
        }
        FovFormat::Ascii => {
            let mut out = render_lit(map, &lighting);
            for (k, l) in lighting.lights().iter().enumerate() {
                // A light carried by a monster or the player is named after its carrier.
                let what = match map.objects.iter().find(|o| o.id == l.object).map(|o| &o.kind) {
                    Some(ObjectKind::Monster { glyph, .. }) => format!("light carried by monster '{glyph}'"),
                    Some(ObjectKind::PlayerStart) => "light carried by the player".to_owned(),
                    _ => "light".to_owned(),
                };
                out += &format!(
                    "{what} #{} at {} (radius {}): {} cells lit\n",
                    l.object,
                    l.cell,
                    l.radius,
                    lighting.lit_by(k)
                );
            }
            let n = lighting.lights().len();
            let plural = if n == 1 { "" } else { "s" };
            out += &format!("{n} light{plural} ({algorithm}): {} cells lit\n", lighting.lit().count());
            out
        }
    })
}

/// The map with its lit cells as their glyphs, the others blank; a light's own cell is its
/// object's glyph (`!` a light standing there, a monster's letter or `@` for one carried).
fn render_lit(map: &Map, lighting: &crate::core::sim::Lighting) -> String {
    let glyph = |id: u32| map.objects.iter().find(|o| o.id == id).map_or('!', |o| o.kind.glyph());
    let lights: std::collections::HashMap<Cell, char> =
        lighting.lights().iter().map(|l| (l.cell, glyph(l.object))).collect();
    let mut out = String::new();
    for y in 0..map.height() as i32 {
        let row: String = (0..map.width() as i32)
            .map(|x| {
                let cell = Cell::new(x, y);
                if let Some(&glyph) = lights.get(&cell) {
                    glyph
                } else if lighting.is_lit(cell) {
                    map.top_tile(cell).map_or(' ', |(_, t)| map.tiles[usize::from(t)].glyph.ch)
                } else {
                    ' '
                }
            })
            .collect();
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// The map as the viewer sees it: visible cells show their glyph (the origin `@`), others a space.
pub(crate) fn render_visible(map: &Map, visible: &VisibleSet, origin: Cell) -> String {
    let mut out = String::new();
    for y in 0..map.height() as i32 {
        let mut row = String::new();
        for x in 0..map.width() as i32 {
            let cell = Cell::new(x, y);
            let ch = if cell == origin {
                '@'
            } else if visible.contains(x, y) {
                map.top_tile(cell).map_or(' ', |(_, t)| map.tiles[usize::from(t)].glyph.ch)
            } else {
                ' '
            };
            row.push(ch);
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// The `path` report of an external search: the map with its path over the cells it says it
/// expanded (`:`), and its cost as checked.
fn external_path_report(map: &Map, name: &str, found: &crate::core::ext::ExtPath, format: FovFormat) -> String {
    let path = found.path.as_deref().unwrap_or_default();
    let expanded = found.expanded.as_ref().map(Vec::len);
    match format {
        FovFormat::Json => {
            let cells: Vec<[i32; 2]> = path.iter().map(|c| [c.x, c.y]).collect();
            let length = path.len().checked_sub(1);
            format!(
                "{}\n",
                serde_json::json!({"cost": found.cost, "length": length, "expanded": expanded, "path": found.path.as_ref().map(|_| cells)})
            )
        }
        FovFormat::Ascii => {
            let mut grid = glyph_grid(map);
            for c in found.expanded.iter().flatten() {
                grid[c.y as usize][c.x as usize] = ':';
            }
            for c in path {
                grid[c.y as usize][c.x as usize] = '*';
            }
            if let (Some(s), Some(g)) = (path.first(), path.last()) {
                grid[s.y as usize][s.x as usize] = 'S';
                grid[g.y as usize][g.x as usize] = 'G';
            }
            let mut out: String =
                grid.into_iter().map(|row| row.into_iter().collect::<String>().trim_end().to_owned() + "\n").collect();
            let expanded = expanded.map_or("expanded cells not told".to_string(), |n| format!("{n} cells expanded"));
            match found.cost {
                Some(cost) => out += &format!("{name}: cost {cost:.4}, {} steps, {expanded}\n", path.len() - 1),
                None => out += &format!("{name}: no path, {expanded}\n"),
            }
            out
        }
    }
}

/// The map's top glyph at each cell, row by row (a space where no tile is).
fn glyph_grid(map: &Map) -> Vec<Vec<char>> {
    (0..map.height() as i32)
        .map(|y| {
            (0..map.width() as i32)
                .map(|x| map.top_tile(Cell::new(x, y)).map_or(' ', |(_, t)| map.tiles[usize::from(t)].glyph.ch))
                .collect()
        })
        .collect()
}

/// The map with the path (`*`, ends `S` and `G`) over the explored cells (closed `:`, open `o`).
pub(crate) fn render_path(map: &Map, trace: &path::Trace, result: &path::PathResult) -> String {
    let state = trace.state_at(u32::MAX);
    let mut grid: Vec<Vec<char>> = (0..map.height() as i32)
        .map(|y| {
            (0..map.width() as i32)
                .map(|x| {
                    let cell = Cell::new(x, y);
                    match state.cells[state.index(cell)] {
                        path::CellState::Closed => ':',
                        path::CellState::Open => 'o',
                        path::CellState::Unseen => {
                            map.top_tile(cell).map_or(' ', |(_, t)| map.tiles[usize::from(t)].glyph.ch)
                        }
                    }
                })
                .collect()
        })
        .collect();
    for c in &result.path {
        grid[c.y as usize][c.x as usize] = '*';
    }
    if let (Some(s), Some(g)) = (result.path.first(), result.path.last()) {
        grid[s.y as usize][s.x as usize] = 'S';
        grid[g.y as usize][g.x as usize] = 'G';
    }
    grid.into_iter().map(|row| row.into_iter().collect::<String>().trim_end().to_owned() + "\n").collect()
}

/// Runs every scenario of a MovingAI `.scen` file; returns the per-bucket report and whether all
/// costs matched the optimal lengths (to 1e-4).
pub(crate) fn scenario_report(
    grid: &path::CostGrid,
    params: &path::SearchParams,
    scen: &Path,
) -> anyhow::Result<(String, bool)> {
    let text = std::fs::read_to_string(scen).with_context(|| format!("cannot read {}", scen.display()))?;
    let scenarios =
        movingai::parse_scenarios_for(&text, grid.width() as u32, grid.height() as u32).map_err(|e| e.in_file(scen))?;
    let mut buckets: std::collections::BTreeMap<u32, (usize, usize, f64)> = Default::default();
    let mut searcher = path::search::Searcher::new();
    let mut mismatches = Vec::new();
    let started = std::time::Instant::now();
    for s in &scenarios {
        let t = std::time::Instant::now();
        let cost = searcher.find_path(grid, params, s.start, s.goal).map(|r| r.cost);
        let elapsed = t.elapsed().as_secs_f64();
        let matched = cost.is_some_and(|c| (c - s.optimal_length).abs() <= 1e-4);
        let b = buckets.entry(s.bucket).or_default();
        b.0 += 1;
        b.1 += usize::from(matched);
        b.2 += elapsed;
        if !matched {
            mismatches.push(format!(
                "  bucket {} {} -> {}: expected {:.5}, found {}",
                s.bucket,
                s.start,
                s.goal,
                s.optimal_length,
                cost.map_or("no path".into(), |c| format!("{c:.5}"))
            ));
        }
    }
    let mut out = format!("{:>6} {:>9} {:>8} {:>10}\n", "bucket", "scenarios", "optimal", "ms");
    for (bucket, (n, ok, secs)) in &buckets {
        out.push_str(&format!("{bucket:>6} {n:>9} {ok:>8} {:>10.3}\n", secs * 1e3));
    }
    let total_ok: usize = buckets.values().map(|b| b.1).sum();
    out.push_str(&format!(
        "{} of {} scenarios match their optimal length; {:.1} ms in all\n",
        total_ok,
        scenarios.len(),
        started.elapsed().as_secs_f64() * 1e3
    ));
    for m in &mismatches {
        out.push_str(m);
        out.push('\n');
    }
    Ok((out, mismatches.is_empty()))
}

/// The symmetry audits of built-in algorithms, each with its time in ms.
pub(crate) fn symmetry_rows(
    grid: &OpacityGrid,
    algorithms: &[Algorithm],
    radius: Option<u32>,
) -> anyhow::Result<Vec<(crate::core::analysis::symmetry::SymmetryReport, f64)>> {
    use std::sync::atomic::{AtomicBool, AtomicUsize};
    let mut rows = Vec::new();
    for &a in algorithms {
        let started = std::time::Instant::now();
        let report =
            crate::core::analysis::symmetry::audit(grid, a, radius, &AtomicUsize::new(0), &AtomicBool::new(false))?;
        rows.push((report, started.elapsed().as_secs_f64() * 1e3));
    }
    Ok(rows)
}

/// The `audit symmetry` report of audits made (each with its time in ms).
pub(crate) fn symmetry_report(
    rows: &[(crate::core::analysis::symmetry::SymmetryReport, f64)],
    radius: Option<u32>,
    format: OutputFormat,
    map: &Path,
) -> anyhow::Result<String> {
    let radius_text = radius.map_or("unlimited".to_owned(), |r| r.to_string());
    Ok(match format {
        OutputFormat::Json => {
            let v: Vec<_> = rows
                .iter()
                .map(|(r, ms)| {
                    let worst: Vec<[i64; 3]> =
                        r.worst(10).iter().map(|(c, n)| [i64::from(c.x), i64::from(c.y), i64::from(*n)]).collect();
                    serde_json::json!({
                        "algorithm": r.algorithm, "radius": r.radius, "pairs": r.pairs, "seen": r.seen,
                        "violations": r.violations, "rate": r.rate(), "error_per_cell": r.error_per_cell(),
                        "worst": worst, "ms": ms,
                    })
                })
                .collect();
            let v = if v.len() == 1 { v[0].clone() } else { serde_json::Value::Array(v) };
            format!("{}\n", serde_json::to_string_pretty(&v)?)
        }
        OutputFormat::Text => {
            let mut out = format!("{}: symmetry audit, radius {radius_text}\n", map.display());
            out.push_str(&format!(
                "{:<12}{:>12}{:>12}{:>10}{:>12}{:>10}  {}\n",
                "algorithm", "pairs", "violations", "rate", "error/cell", "ms", "worst cells (x,y: count)"
            ));
            for (r, ms) in rows {
                let worst: Vec<String> = r.worst(3).iter().map(|(c, n)| format!("{c}: {n}")).collect();
                out.push_str(&format!(
                    "{:<12}{:>12}{:>12}{:>9.3}%{:>12.4}{:>10.1}  {}\n",
                    r.algorithm,
                    r.pairs,
                    r.violations,
                    r.rate() * 100.0,
                    r.error_per_cell(),
                    ms,
                    worst.join(", ")
                ));
            }
            out
        }
    })
}
