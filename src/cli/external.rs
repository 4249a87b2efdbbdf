//! External algorithms on the command line. `--ext NAME=COMMAND` registers a program (started
//! when first asked, its stderr passed through prefixed by its name); `--algorithm NAME` then
//! picks it in `fov`, `path` and the audits as a built-in name would.

use std::time::Duration;

use anyhow::Context as _;

use crate::core::ext::{ExtSpec, Log, Program, StartOptions};
use crate::core::fov::{OpacityGrid, VisibleSet};
use crate::core::{Cell, Map, path};

#[derive(clap::Args, Debug, Clone)]
pub struct ExtArgs {
    /// Register a program as an algorithm, NAME=COMMAND (repeatable; COMMAND split as a shell
    /// would). `--algorithm NAME` then picks it. The protocol: docs/protocol.md.
    #[arg(long = "ext", value_name = "NAME=COMMAND", value_parser = parse_ext)]
    pub ext: Vec<ExtSpec>,
    /// The seconds an external program may take to answer one request before it is stopped.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub ext_timeout: f64,
}

fn parse_ext(arg: &str) -> Result<ExtSpec, String> {
    ExtSpec::parse(arg)
}

/// The programs registered, each started when first used.
pub(crate) struct Externals {
    entries: Vec<(ExtSpec, Option<Program>)>,
    options: StartOptions,
}

impl Externals {
    pub(crate) fn new(args: &ExtArgs) -> anyhow::Result<Self> {
        anyhow::ensure!(
            args.ext_timeout.is_finite() && args.ext_timeout > 0.0 && args.ext_timeout <= 1e6,
            "--ext-timeout takes a number of seconds above 0, not {}",
            args.ext_timeout
        );
        let mut entries: Vec<(ExtSpec, Option<Program>)> = Vec::new();
        for spec in &args.ext {
            anyhow::ensure!(
                !entries.iter().any(|(s, _)| s.name == spec.name),
                "--ext {} is registered twice",
                spec.name
            );
            entries.push((spec.clone(), None));
        }
        let options = StartOptions { timeout: Duration::from_secs_f64(args.ext_timeout), echo_stderr: true };
        Ok(Self { entries, options })
    }

    pub(crate) fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|(s, _)| s.name.as_str()).collect()
    }

    pub(crate) fn is_registered(&self, name: &str) -> bool {
        self.entries.iter().any(|(s, _)| s.name == name)
    }

    /// The program registered as `name`, started (and greeted) if it is not running; `None` when
    /// no program has that name.
    pub(crate) fn program(&mut self, name: &str) -> anyhow::Result<Option<&mut Program>> {
        let Some((spec, running)) = self.entries.iter_mut().find(|(s, _)| s.name == name) else {
            return Ok(None);
        };
        if running.is_none() {
            *running = Some(Program::start(spec, self.options.clone(), Log::default())?);
        }
        Ok(running.as_mut())
    }

    /// Every registered program, started.
    pub(crate) fn all(&mut self) -> anyhow::Result<Vec<&mut Program>> {
        for (spec, running) in &mut self.entries {
            if running.is_none() {
                *running = Some(Program::start(spec, self.options.clone(), Log::default())?);
            }
        }
        Ok(self.entries.iter_mut().filter_map(|(_, p)| p.as_mut()).collect())
    }
}

/// Sends `map` to `program`: its opacity, and what can be walked with closed doors as walls.
pub(crate) fn send_map(program: &mut Program, map: &Map) -> anyhow::Result<OpacityGrid> {
    let grid = OpacityGrid::from_map(map);
    program.set_map(&grid, &path::CostGrid::from_map(map, path::DoorRule::Impassable))?;
    Ok(grid)
}

/// A view from a program, as a set.
pub(crate) fn view_set(width: u32, height: u32, cells: &[Cell]) -> VisibleSet {
    let mut set = VisibleSet::new(width, height);
    for c in cells {
        set.insert(c.x, c.y);
    }
    set
}

/// The names `--algorithm` takes, for a message.
pub(crate) fn unknown_algorithm(name: &str, builtins: &[&str], externals: &Externals) -> anyhow::Error {
    let mut names: Vec<&str> = builtins.to_vec();
    names.extend(externals.names());
    anyhow::anyhow!(
        "unknown algorithm {name:?}: use one of {}{}",
        names.join(", "),
        if externals.names().is_empty() { " (or register a program with --ext NAME=COMMAND)" } else { "" }
    )
}

/// `program`'s view from `origin` of `map`.
pub(crate) fn view_of(
    program: &mut Program,
    map: &Map,
    origin: Cell,
    radius: Option<u32>,
    light_walls: bool,
) -> anyhow::Result<VisibleSet> {
    send_map(program, map)?;
    let views = program.fov(&[origin], radius, light_walls)?;
    let cells = views.into_iter().next().context("no view")?;
    Ok(view_set(map.width(), map.height(), &cells))
}

/// The `audit cache` report of an external algorithm: no cache kept, DCSS's box recomputed.
pub(crate) fn cache_report(
    map: &std::path::Path,
    name: &str,
    radius: u32,
    toggle: Cell,
    was_opaque: bool,
    update: &crate::core::analysis::los_cache::CacheUpdate,
    format: super::OutputFormat,
) -> String {
    match format {
        super::OutputFormat::Json => format!(
            "{}\n",
            serde_json::json!({
                "bytes": null, "conservative": update.conservative.len(),
                "candidates": update.candidates.len(), "changed": update.changed.len(),
                "update_us": update.micros, "reads_known": false,
            })
        ),
        super::OutputFormat::Text => {
            let state = |opaque: bool| if opaque { "opaque" } else { "transparent" };
            let mut out = format!("{}: {name} (external), radius {radius}\n", map.display());
            out += "cache         none: what an external view reads is unknown, so every view in\n";
            out += "              DCSS's conservative box is recomputed through the program\n";
            out += &format!("toggle        {toggle} from {} to {}\n", state(was_opaque), state(!was_opaque));
            out += &format!(
                "conservative  {} cells (every cached cell within {radius}, as DCSS invalidates)\n",
                update.conservative.len()
            );
            out +=
                &format!("candidates    {} cells (the same box: no read-sets to narrow it)\n", update.candidates.len());
            out += &format!("changed       {} cells\n", update.changed.len());
            out += &format!("update        {:.1} µs (through the program)\n", update.micros);
            out
        }
    }
}
