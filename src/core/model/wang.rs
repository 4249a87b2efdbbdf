//! Tiled's Wang sets (its terrains since Tiled 1.5): which colour each corner and edge of a
//! tileset's tiles has, for the terrain brush ([`crate::core::edit::terrain`]). They are kept with their
//! tileset so that a Tiled map saved here loses none of a designer's terrain work (TMX, TMJ and
//! RON).
//!
//! Source: Tiled's manual, "Terrains" and the TMX format's `<wangset>`
//! (<https://doc.mapeditor.org/en/stable/reference/tmx-map-format/#wangset>).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::core::model::tile::{Properties, Rgba};

/// Which parts of a tile a Wang set's colours describe (Tiled's `type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WangKind {
    Corner,
    Edge,
    Mixed,
}

impl WangKind {
    /// Tiled's name, as TMX and TMJ write it.
    pub fn tiled_name(self) -> &'static str {
        match self {
            WangKind::Corner => "corner",
            WangKind::Edge => "edge",
            WangKind::Mixed => "mixed",
        }
    }

    pub fn from_tiled_name(name: &str) -> Option<WangKind> {
        match name {
            "corner" => Some(WangKind::Corner),
            "edge" => Some(WangKind::Edge),
            "mixed" => Some(WangKind::Mixed),
            _ => None,
        }
    }
}

/// One terrain of a Wang set (Tiled's `<wangcolor>`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WangColor {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub class: String,
    /// The colour Tiled marks the terrain with.
    pub color: Rgba,
    /// The tile that stands for the terrain (a local tile index of the tileset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<u32>,
    /// How often the terrain brush picks tiles of this colour, relative to the others.
    pub probability: f64,
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
}

/// A Wang set of a tileset (Tiled's `<wangset>`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WangSet {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub class: String,
    pub kind: WangKind,
    /// The tile that stands for the set (a local tile index of the tileset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<u32>,
    pub colors: Vec<WangColor>,
    /// Per local tile index, the colour (1-based; 0 none) of each of its eight parts, clockwise
    /// from the top edge: top, top-right corner, right, bottom-right, bottom, bottom-left, left,
    /// top-left (Tiled's `wangid`).
    pub tiles: BTreeMap<u32, [u8; 8]>,
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
}

/// A colour as Tiled writes one: `#rrggbb`, or `#aarrggbb` when it is not opaque.
pub fn tiled_color(c: Rgba) -> String {
    if c.3 == 255 { format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2) } else { c.to_hex() }
}

/// A `wangid` as Tiled writes it in TMX: eight numbers, comma-separated.
pub fn wang_id_text(id: &[u8; 8]) -> String {
    id.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

impl WangSet {
    /// The names of the colours tile `index` has, each once, in the order of its parts (top
    /// edge first, clockwise); empty when the set does not list the tile.
    pub fn color_names_of(&self, index: u32) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for &part in self.tiles.get(&index).into_iter().flatten() {
            let name = part.checked_sub(1).and_then(|c| self.colors.get(usize::from(c))).map(|c| c.name.as_str());
            if let Some(name) = name.filter(|n| !names.contains(n)) {
                names.push(name);
            }
        }
        names
    }

    /// One line for a listing: its name, kind, colours and tiles.
    pub fn summary(&self) -> String {
        let colors: Vec<&str> = self.colors.iter().map(|c| c.name.as_str()).collect();
        format!("{} ({}: {}; {} tiles)", self.name, self.kind.tiled_name(), colors.join(", "), self.tiles.len())
    }

    /// Drops the tiles and representative tiles that are not among a tileset's `tile_count`
    /// tiles; returns how many tiles it dropped (a file naming tiles its tileset lacks).
    pub fn keep_tiles_below(&mut self, tile_count: u32) -> usize {
        let before = self.tiles.len();
        self.tiles.retain(|&t, _| t < tile_count);
        self.tile = self.tile.filter(|&t| t < tile_count);
        for c in &mut self.colors {
            c.tile = c.tile.filter(|&t| t < tile_count);
        }
        before - self.tiles.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_wang_ids_are_written_as_tiled_writes_them() {
        assert_eq!(tiled_color(Rgba(255, 0, 16, 255)), "#ff0010");
        assert_eq!(tiled_color(Rgba(255, 0, 16, 128)), "#80ff0010");
        assert_eq!(wang_id_text(&[0, 1, 0, 2, 0, 1, 0, 3]), "0,1,0,2,0,1,0,3");
        for kind in [WangKind::Corner, WangKind::Edge, WangKind::Mixed] {
            assert_eq!(WangKind::from_tiled_name(kind.tiled_name()), Some(kind));
        }
        assert_eq!(WangKind::from_tiled_name("terrain"), None);
    }

    #[test]
    fn tiles_beyond_the_tileset_are_dropped_and_counted() {
        let mut set = WangSet {
            name: "ground".into(),
            class: String::new(),
            kind: WangKind::Corner,
            tile: Some(9),
            colors: vec![WangColor {
                name: "sand".into(),
                class: String::new(),
                color: Rgba(1, 2, 3, 255),
                tile: Some(2),
                probability: 1.0,
                properties: Properties::new(),
            }],
            tiles: [(0, [0, 1, 0, 1, 0, 1, 0, 1]), (3, [0; 8]), (4, [0; 8])].into(),
            properties: Properties::new(),
        };
        assert_eq!(set.color_names_of(0), ["sand"]);
        assert_eq!(set.color_names_of(3), Vec::<&str>::new(), "listed, no colour");
        assert_eq!(set.color_names_of(1), Vec::<&str>::new(), "not listed");
        assert_eq!(set.summary(), "ground (corner: sand; 3 tiles)");
        assert_eq!(set.keep_tiles_below(4), 1);
        assert_eq!(set.tiles.keys().copied().collect::<Vec<_>>(), [0, 3]);
        assert_eq!((set.tile, set.colors[0].tile), (None, Some(2)));
    }
}
