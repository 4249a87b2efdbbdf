//! Tiled's map settings that say how its file is written and in what order its tiles are drawn
//! (Tiled's Map Properties: Tile Layer Format, Tile Render Order, Compression Level, Parallax
//! Origin). A map
//! keeps those of the file it was read from, so that a save writes it back as it came: a game
//! whose loader reads only zlib-compressed layers, or a repository that diffs CSV, is not
//! surprised by a save from sightline.

use serde::{Deserialize, Serialize};

/// How a Tiled save writes the map (see the module's doc). The default is Tiled's for a new map.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TiledSettings {
    #[serde(default)]
    pub layer_format: LayerFormat,
    #[serde(default)]
    pub render_order: RenderOrder,
    /// The compressor's level; -1 is its default (Tiled's `compressionlevel`).
    #[serde(default = "default_level")]
    pub compression_level: i32,
    /// The point, in map pixels, that parallax layers scroll about (Tiled's
    /// `parallaxoriginx`, `parallaxoriginy`); kept for the game that scrolls them.
    #[serde(default)]
    pub parallax_origin: [f64; 2],
}

fn default_level() -> i32 {
    -1
}

impl Default for TiledSettings {
    fn default() -> Self {
        TiledSettings {
            layer_format: LayerFormat::Csv,
            render_order: RenderOrder::RightDown,
            compression_level: -1,
            parallax_origin: [0.0, 0.0],
        }
    }
}

impl TiledSettings {
    pub fn is_default(&self) -> bool {
        *self == TiledSettings::default()
    }
}

/// How a tile layer's tile ids are written (Tiled's Tile Layer Format, `encoding` and
/// `compression` of a layer's data). Tiled's deprecated XML format is read, and written as CSV.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LayerFormat {
    /// Comma-separated ids: a TMX `<data encoding="csv">`, a TMJ array.
    #[default]
    Csv,
    /// Little-endian 32-bit ids in base64.
    Base64,
    Base64Gzip,
    Base64Zlib,
    Base64Zstd,
}

impl LayerFormat {
    pub const ALL: [LayerFormat; 5] = [
        LayerFormat::Csv,
        LayerFormat::Base64,
        LayerFormat::Base64Gzip,
        LayerFormat::Base64Zlib,
        LayerFormat::Base64Zstd,
    ];

    /// The format a layer's `encoding` and `compression` attributes say (`None` for neither
    /// attribute: XML in a TMX file, an array in a TMJ one, both written as CSV); `None` for a
    /// pair no Tiled writes.
    pub fn from_attributes(encoding: Option<&str>, compression: Option<&str>) -> Option<LayerFormat> {
        match (encoding, compression.filter(|c| !c.is_empty())) {
            (None | Some("csv"), None) => Some(LayerFormat::Csv),
            (Some("base64"), None) => Some(LayerFormat::Base64),
            (Some("base64"), Some("gzip")) => Some(LayerFormat::Base64Gzip),
            (Some("base64"), Some("zlib")) => Some(LayerFormat::Base64Zlib),
            (Some("base64"), Some("zstd")) => Some(LayerFormat::Base64Zstd),
            _ => None,
        }
    }

    /// Its `encoding` and `compression` attributes.
    pub fn attributes(self) -> (&'static str, Option<&'static str>) {
        match self {
            LayerFormat::Csv => ("csv", None),
            LayerFormat::Base64 => ("base64", None),
            LayerFormat::Base64Gzip => ("base64", Some("gzip")),
            LayerFormat::Base64Zlib => ("base64", Some("zlib")),
            LayerFormat::Base64Zstd => ("base64", Some("zstd")),
        }
    }

    /// Whether it is compressed (the compression level applies).
    pub fn compressed(self) -> bool {
        self.attributes().1.is_some()
    }

    /// As Tiled's Map Properties name it.
    pub fn label(self) -> &'static str {
        match self {
            LayerFormat::Csv => "CSV",
            LayerFormat::Base64 => "Base64 (uncompressed)",
            LayerFormat::Base64Gzip => "Base64 (gzip compressed)",
            LayerFormat::Base64Zlib => "Base64 (zlib compressed)",
            LayerFormat::Base64Zstd => "Base64 (Zstandard compressed)",
        }
    }
}

/// The order Tiled draws a layer's tiles in (its `renderorder`), which decides which of two
/// overlapping tiles (larger than the grid, or moved by their tileset's offset) is on top.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RenderOrder {
    /// Rows top to bottom, each left to right.
    #[default]
    RightDown,
    /// Rows bottom to top, each left to right.
    RightUp,
    /// Rows top to bottom, each right to left.
    LeftDown,
    /// Rows bottom to top, each right to left.
    LeftUp,
}

impl RenderOrder {
    pub const ALL: [RenderOrder; 4] =
        [RenderOrder::RightDown, RenderOrder::RightUp, RenderOrder::LeftDown, RenderOrder::LeftUp];

    /// As a Tiled file writes it.
    pub fn name(self) -> &'static str {
        match self {
            RenderOrder::RightDown => "right-down",
            RenderOrder::RightUp => "right-up",
            RenderOrder::LeftDown => "left-down",
            RenderOrder::LeftUp => "left-up",
        }
    }

    pub fn from_name(name: &str) -> Option<RenderOrder> {
        RenderOrder::ALL.into_iter().find(|o| o.name() == name)
    }

    /// The cells of the rectangle `xs` × `ys` in this order.
    pub fn cells(
        self,
        xs: std::ops::Range<i32>,
        ys: std::ops::Range<i32>,
    ) -> impl Iterator<Item = super::Cell> + 'static {
        let (left, up) = (
            matches!(self, RenderOrder::LeftDown | RenderOrder::LeftUp),
            matches!(self, RenderOrder::RightUp | RenderOrder::LeftUp),
        );
        let rows: Vec<i32> = if up { ys.rev().collect() } else { ys.collect() };
        rows.into_iter().flat_map(move |y| {
            let columns: Vec<i32> = if left { xs.clone().rev().collect() } else { xs.clone().collect() };
            columns.into_iter().map(move |x| super::Cell::new(x, y))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Cell;

    #[test]
    fn each_render_order_goes_its_way() {
        let order = |o: RenderOrder| o.cells(0..2, 0..2).map(|c| (c.x, c.y)).collect::<Vec<_>>();
        assert_eq!(order(RenderOrder::RightDown), [(0, 0), (1, 0), (0, 1), (1, 1)]);
        assert_eq!(order(RenderOrder::RightUp), [(0, 1), (1, 1), (0, 0), (1, 0)]);
        assert_eq!(order(RenderOrder::LeftDown), [(1, 0), (0, 0), (1, 1), (0, 1)]);
        assert_eq!(order(RenderOrder::LeftUp), [(1, 1), (0, 1), (1, 0), (0, 0)]);
        assert_eq!(RenderOrder::from_name("left-up"), Some(RenderOrder::LeftUp));
        assert_eq!(RenderOrder::LeftUp.cells(3..3, 0..5).next(), None::<Cell>);
    }

    #[test]
    fn a_layer_format_reads_back_from_its_attributes() {
        for f in LayerFormat::ALL {
            let (encoding, compression) = f.attributes();
            assert_eq!(LayerFormat::from_attributes(Some(encoding), compression), Some(f));
        }
        assert_eq!(LayerFormat::from_attributes(None, None), Some(LayerFormat::Csv));
        assert_eq!(LayerFormat::from_attributes(Some("base64"), Some("")), Some(LayerFormat::Base64));
        assert_eq!(LayerFormat::from_attributes(Some("csv"), Some("zlib")), None);
    }
}
