//! sightline: a map editor and visual debugger for roguelike field of view and pathfinding.
//!
//! - [`core`]: the game core (map model, formats, algorithms), with no GUI dependency.
//! - [`cli`]: the command line on the same core.
//! - `app` (feature `gui`): the egui desktop app.

// The CLI and the app are programs, not libraries: `pub` only where tests or main.rs reach in,
// so that the compiler reports what nothing uses. The core is the library: its `pub` items are
// the API a game uses (and the tests), and anything `pub` it does not export is flagged.
#[warn(unreachable_pub)]
pub mod cli;
#[warn(unreachable_pub)]
pub mod core;

#[cfg(feature = "gui")]
#[warn(unreachable_pub)]
pub mod app;
