//! sightline: a map editor and visual debugger for roguelike field of view and pathfinding.
//!
//! - [`core`]: the game core (map model, formats, algorithms), with no GUI dependency.
//! - [`cli`]: the command line on the same core.
//! - `app` (feature `gui`): the egui desktop app.

// The CLI and the app are programs, not libraries: `pub` only where tests or main.rs reach in,
// so that the compiler reports what nothing uses.
#[warn(unreachable_pub)]
pub mod cli;
pub mod core;

#[cfg(feature = "gui")]
#[warn(unreachable_pub)]
pub mod app;
