//! sightline: a map editor and visual debugger for roguelike field of view and pathfinding.
//!
//! - [`core`]: the game core (map model, formats, algorithms), with no GUI dependency.
//! - [`cli`]: the command line on the same core.
//! - `app` (feature `gui`): the egui desktop app.

pub mod cli;
pub mod core;

#[cfg(feature = "gui")]
pub mod app;
