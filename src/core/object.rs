//! The object layer: player start, monsters, items, light sources, with free-form properties.

use serde::{Deserialize, Serialize};

use super::geometry::Cell;
use super::tile::Properties;

/// Vision radius a monster gets when its file does not say.
pub const DEFAULT_VISION_RADIUS: u32 = 8;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ObjectKind {
    PlayerStart,
    /// A monster; `glyph` is the letter it is drawn with.
    Monster {
        glyph: char,
        vision_radius: u32,
    },
    Item,
    Light {
        radius: u32,
    },
    /// Anything else a Tiled map carries (kept by its type name so it round-trips).
    Other(String),
}

impl ObjectKind {
    /// The Tiled object `type`/class for this kind.
    pub fn type_name(&self) -> &str {
        match self {
            ObjectKind::PlayerStart => "player",
            ObjectKind::Monster { .. } => "monster",
            ObjectKind::Item => "item",
            ObjectKind::Light { .. } => "light",
            ObjectKind::Other(name) => name,
        }
    }

    /// The glyph an object is drawn with on an ASCII map.
    pub fn glyph(&self) -> char {
        match self {
            ObjectKind::PlayerStart => '@',
            ObjectKind::Monster { glyph, .. } => *glyph,
            ObjectKind::Item => '*',
            ObjectKind::Light { .. } => '!',
            ObjectKind::Other(_) => '?',
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapObject {
    pub kind: ObjectKind,
    #[serde(default)]
    pub name: String,
    pub cell: Cell,
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
}

impl MapObject {
    pub fn new(kind: ObjectKind, cell: Cell) -> Self {
        Self { kind, name: String::new(), cell, properties: Properties::new() }
    }

    pub fn named(mut self, name: &str) -> Self {
        self.name = name.to_owned();
        self
    }
}
