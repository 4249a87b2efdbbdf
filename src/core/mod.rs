//! The game core: what a roguelike would use as a library, with no GUI dependency. Nothing here
//! imports egui, eframe or rfd; CI builds it with `--no-default-features` to keep it that way.
//!
//! Rooms, each a folder, from the bottom up (a room imports only those above it in this list):
//! - [`model`]: the map and what it holds (tiles and their rules, layers, objects, Wang sets).
//!   It knows no file format.
//! - [`edit`]: changes a designer makes (strokes, fills, stamps, selections, terrain brushes).
//! - [`fov`]: the field-of-view algorithms, one file each, behind one dispatcher.
//! - [`path`]: grid searches (A*, Dijkstra, JPS, …) and Dijkstra maps.
//! - [`ext`]: algorithms from outside the process, over a JSON-lines protocol.
//! - [`sim`]: the game that play mode runs (turns, memory, monsters, lights).
//! - [`analysis`]: whole-map audits (FOV symmetry, the LOS cache's invalidation, reachability).
//! - [`format`](mod@format): reading and writing maps (RON, ASCII, Tiled TMX/TMJ, MovingAI).
//!
//! [`rng`] and [`generate`] are leaves any room may use for seeded randomness and sample maps.
//!
//! **The API.** What is `pub` here is the library a game uses: the types re-exported below
//! ([`Map`], [`Cell`], [`TileKind`], …), `fov::compute` with `fov::Algorithm`, `path::find_path`
//! and `path::dijkstra_map`, `ext::Program` (an algorithm from outside), `sim`'s world, the
//! analyses, and `format::load` / `save`. The tests use the same API plus a few pieces kept
//! public for them: `format::ascii` (the tests' map language), `format::write_atomic_with` (a
//! write that fails part-way, as on a full disk), and `generate` and `rng` (seeded maps). Each
//! room's inner modules (the FOV scans, the search engines, the Tiled document model and
//! readers) are private; `unreachable_pub` (in `lib.rs`) flags anything `pub` that the API does
//! not export.

pub mod analysis;
pub mod edit;
pub mod ext;
pub mod format;
pub mod fov;
pub mod generate;
pub mod model;
pub mod path;
pub mod rng;
pub mod sim;

pub use model::error::{MapError, MapErrorKind};
pub use model::geometry::Cell;
pub use model::map::{Anchor, Layer, LayerGroup, LayerRef, MAX_MAP_SIDE, Map, ObjectLayer, StackItem};
pub use model::object::{MapObject, ObjectKind};
pub use model::rules::{CellRules, Passage, RulesGrid, RulesSummary};
pub use model::sheet::SpriteSheet;
pub use model::tile::{Door, EnumValue, Glyph, Properties, PropertyValue, Rgb, Rgba, Sprite, TileId, TileKind};
