//! The game core: map model, file formats and (in later modules) the algorithms the editor's
//! overlays draw and the play mode plays. Nothing here imports egui, eframe or rfd; CI builds this
//! with `--no-default-features` to keep it that way.

pub mod edit;
pub mod error;
pub mod flip;
pub mod format;
pub mod fov;
pub mod generate;
pub mod geometry;
pub mod layers;
pub mod los_cache;
pub mod map;
pub mod object;
pub mod path;
pub mod reach;
pub mod rng;
pub mod rules;
pub mod samples;
pub mod selection;
pub(crate) mod serde_defaults;
pub mod sheet_drawing;
pub mod sim;
pub mod symmetry;
pub mod terrain;
pub mod tile;
pub mod tile_transfer;
pub mod tiled_settings;
pub mod wang;

pub use error::{MapError, MapErrorKind};
pub use geometry::Cell;
pub use map::{Anchor, Layer, LayerGroup, LayerRef, MAX_MAP_SIDE, Map, ObjectLayer, StackItem};
pub use object::{MapObject, ObjectKind};
pub use rules::{CellRules, Passage, RulesGrid, RulesSummary};
pub use tile::{Door, EnumValue, Glyph, Properties, PropertyValue, Rgb, Rgba, Sprite, SpriteSheet, TileId, TileKind};
