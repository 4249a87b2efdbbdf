//! The map model: the map, its layers and objects, its tiles and the rules they carry. No file
//! format lives here; what only Tiled needs to round-trip is kept as settings the format layer
//! reads and writes ([`tiled_settings`], [`sheet_drawing`]) or as an opaque memo it owns.

pub mod error;
pub mod flip;
pub mod geometry;
pub mod layers;
pub mod limits;
pub mod map;
pub mod object;
pub mod rules;
pub(crate) mod serde_defaults;
pub mod sheet;
pub mod sheet_drawing;
pub mod tile;
pub mod tiled_settings;
pub mod wang;
