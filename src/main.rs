//! The `sightline` binary: reads the command line, then starts the app or runs one headless
//! command. Argument parsing lives here so that neither the app nor the CLI imports the other.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "sightline",
    version,
    about = "Map editor and visual debugger for roguelike field of view and pathfinding",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    /// A map to open in the app (the built-in dungeon when absent).
    file: Option<PathBuf>,
    /// Draw this many frames, then exit (for smoke tests under Xvfb).
    #[arg(long, value_name = "N")]
    frames: Option<u64>,
    /// Start with an overlay on (repeat for several).
    #[arg(long, value_name = "NAME", value_parser = overlay_names())]
    overlay: Vec<String>,
    /// Start in play mode: the preview pane open, the keyboard driving the game.
    #[arg(long)]
    play: bool,
    /// With --frames: save the canvas with its overlays as a PNG halfway through, then exit.
    #[arg(long, value_name = "FILE", requires = "frames")]
    export_png: Option<PathBuf>,
    /// Register a program as an algorithm, NAME=COMMAND (repeatable), as the External algorithms
    /// window does (kept for next time): the pickers offer it (docs/protocol.md).
    #[arg(long = "ext", value_name = "NAME=COMMAND", value_parser = parse_ext)]
    ext: Vec<sightline::core::ext::ExtSpec>,
    #[command(subcommand)]
    command: Option<TopCommand>,
}

#[derive(Subcommand, Debug)]
enum TopCommand {
    /// Open a map in the app.
    Open {
        file: PathBuf,
        /// Draw this many frames, then exit.
        #[arg(long, value_name = "N")]
        frames: Option<u64>,
    },
    #[command(flatten)]
    Headless(sightline::cli::Command),
}

/// The names `--overlay` takes: the app's overlays, from its registry.
#[cfg(feature = "gui")]
fn overlay_names() -> clap::builder::PossibleValuesParser {
    sightline::app::OverlayKind::ALL.map(|k| k.cli_name()).into()
}

/// Without the GUI there are no overlays; the app refuses to start whatever the names.
#[cfg(not(feature = "gui"))]
fn overlay_names() -> clap::builder::NonEmptyStringValueParser {
    clap::builder::NonEmptyStringValueParser::new()
}

fn parse_ext(arg: &str) -> Result<sightline::core::ext::ExtSpec, String> {
    sightline::core::ext::ExtSpec::parse(arg)
}

/// What the app opens, as the command line asks.
#[cfg_attr(not(feature = "gui"), allow(dead_code))]
struct Launch {
    file: Option<PathBuf>,
    frames: Option<u64>,
    overlays: Vec<String>,
    export_png: Option<PathBuf>,
    play: bool,
    externals: Vec<sightline::core::ext::ExtSpec>,
}

/// Exit code 0 on success, 1 when the command failed, 2 for a usage error (clap's own, or the
/// app asked of a build without it).
fn main() -> ExitCode {
    let cli = Cli::parse();
    let (file, frames) = match cli.command {
        None => (cli.file, cli.frames),
        Some(TopCommand::Open { file, frames }) => (Some(file), frames.or(cli.frames)),
        Some(TopCommand::Headless(command)) => return sightline::cli::run(command),
    };
    run_app(Launch {
        file,
        frames,
        overlays: cli.overlay,
        export_png: cli.export_png,
        play: cli.play,
        externals: cli.ext,
    })
}

#[cfg(feature = "gui")]
fn run_app(launch: Launch) -> ExitCode {
    use sightline::app::{AppLaunch, OverlayKind};
    // clap took only the names `overlay_names` lists.
    let overlays = launch.overlays.iter().filter_map(|name| OverlayKind::from_cli_name(name)).collect();
    let launch = AppLaunch {
        file: launch.file,
        frames: launch.frames,
        overlays,
        export_png: launch.export_png,
        play: launch.play,
        externals: launch.externals,
    };
    match sightline::app::run(launch) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

#[cfg(not(feature = "gui"))]
fn run_app(_launch: Launch) -> ExitCode {
    eprintln!("error: this sightline was built without the GUI (feature `gui`); use a subcommand, see --help");
    ExitCode::from(2)
}
