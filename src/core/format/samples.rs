//! Sample maps built into the binary, so `sightline` opens one from any directory.

use std::path::Path;

use crate::core::format;
use crate::core::model::error::MapError;
use crate::core::model::map::Map;

/// The default dungeon (`maps/dungeon.ron`): rooms, corridors, doors, monsters, a player start.
pub const DEFAULT_MAP_RON: &str = include_str!("../../../maps/dungeon.ron");
pub const DEFAULT_MAP_NAME: &str = "dungeon.ron";

/// The default map, parsed.
pub fn default_map() -> Result<Map, MapError> {
    format::ron_map::parse(DEFAULT_MAP_RON, Path::new(DEFAULT_MAP_NAME))
}
