//! Tiled's map settings that say how its file is written and in what order its tiles are drawn
//! (Tiled's Map Properties: Orientation, Tile Layer Format, Tile Render Order, Compression
//! Level, Parallax Origin). A map
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
    /// The grid Tiled draws the map on. sightline draws every map as orthogonal; the map keeps
    /// its orientation so that a save does not turn an isometric or hexagonal map orthogonal.
    #[serde(default, skip_serializing_if = "Orientation::is_orthogonal")]
    pub orientation: Orientation,
    /// For a map read from an infinite Tiled map: the Tiled cell that is cell (0, 0) here (the
    /// top-left corner of the rectangle its tiles cover). A Tiled save writes the map infinite
    /// again, in chunks, each tile and object where it was. `None`: a map of fixed size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub infinite_origin: Option<[i32; 2]>,
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
            orientation: Orientation::Orthogonal,
            infinite_origin: None,
        }
    }
}

impl TiledSettings {
    pub fn is_default(&self) -> bool {
        *self == TiledSettings::default()
    }
}

/// The grid Tiled draws a map on (its `orientation`, with `staggeraxis`, `staggerindex`,
/// `hexsidelength`, `skewx` and `skewy` where they apply; Tiled's defaults where a file leaves
/// them out).
///
/// sightline draws and plays every map as a square grid of cells, each with its eight
/// neighbours. An isometric map is such a grid drawn turned by 45°, an oblique one such a grid
/// sheared, so their rules, views and paths are the map's own. A staggered or hexagonal map
/// shifts every other row (or column) by half a cell, so its cells have other neighbours than
/// the square grid gives them: views and paths here are not that grid's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Orientation {
    #[default]
    Orthogonal,
    Isometric,
    /// Isometric (staggered): diamond tiles in shifted rows or columns.
    Staggered {
        axis: StaggerAxis,
        index: StaggerIndex,
    },
    /// Hexagons in shifted rows or columns; `side_length` is the length in pixels of a
    /// hexagon's flat sides along the stagger axis (Tiled's `hexsidelength`).
    Hexagonal {
        side_length: i32,
        axis: StaggerAxis,
        index: StaggerIndex,
    },
    /// A square grid sheared (Tiled 1.12's oblique maps) by `skew_x` pixels across a row's
    /// height and `skew_y` pixels down a column's width (Tiled's `skewx`, `skewy`).
    Oblique {
        skew_x: i32,
        skew_y: i32,
    },
}

/// Which rows a staggered or hexagonal map shifts: every other row (`Y`) or column (`X`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum StaggerAxis {
    X,
    /// Tiled's default.
    #[default]
    Y,
}

/// Whether the odd or the even rows (or columns) of a staggered or hexagonal map are the shifted
/// ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum StaggerIndex {
    /// Tiled's default.
    #[default]
    Odd,
    Even,
}

impl Orientation {
    pub fn is_orthogonal(&self) -> bool {
        *self == Orientation::Orthogonal
    }

    /// As a Tiled file writes it (`orientation`).
    pub fn name(self) -> &'static str {
        match self {
            Orientation::Orthogonal => "orthogonal",
            Orientation::Isometric => "isometric",
            Orientation::Staggered { .. } => "staggered",
            Orientation::Hexagonal { .. } => "hexagonal",
            Orientation::Oblique { .. } => "oblique",
        }
    }

    /// As Tiled's Map Properties name it.
    pub fn label(self) -> &'static str {
        match self {
            Orientation::Orthogonal => "Orthogonal",
            Orientation::Isometric => "Isometric",
            Orientation::Staggered { .. } => "Isometric (Staggered)",
            Orientation::Hexagonal { .. } => "Hexagonal (Staggered)",
            Orientation::Oblique { .. } => "Oblique",
        }
    }

    /// From a Tiled file's attributes: `orientation`, then `staggeraxis`, `staggerindex`,
    /// `hexsidelength`, `skewx` and `skewy` as `attribute` gives them (`None` where absent).
    /// Read as Tiled reads them: a stagger value it does not know, or a length that is not a
    /// whole number, is its default. An orientation Tiled does not know is `Err`, with what to
    /// say of it.
    pub fn from_attributes(
        orientation: &str,
        attribute: impl Fn(&str) -> Option<String>,
    ) -> Result<Orientation, String> {
        let axis = if attribute("staggeraxis").as_deref() == Some("x") { StaggerAxis::X } else { StaggerAxis::Y };
        let index =
            if attribute("staggerindex").as_deref() == Some("even") { StaggerIndex::Even } else { StaggerIndex::Odd };
        let number = |name: &str| attribute(name).and_then(|v| v.trim().parse().ok()).unwrap_or(0);
        match orientation {
            "orthogonal" => Ok(Orientation::Orthogonal),
            "isometric" => Ok(Orientation::Isometric),
            "staggered" => Ok(Orientation::Staggered { axis, index }),
            "hexagonal" => Ok(Orientation::Hexagonal { side_length: number("hexsidelength"), axis, index }),
            "oblique" => Ok(Orientation::Oblique { skew_x: number("skewx"), skew_y: number("skewy") }),
            other => Err(format!(
                "the map's orientation {other:?} is none of Tiled's (orthogonal, isometric, staggered, hexagonal, \
                 oblique): it is read, and saved, as orthogonal"
            )),
        }
    }

    /// The attributes a Tiled file writes for it after `orientation`, in Tiled's order:
    /// `hexsidelength` (hexagonal), `staggeraxis` and `staggerindex` (staggered and hexagonal),
    /// `skewx` and `skewy` (oblique).
    pub fn grid_attributes(self) -> Vec<(&'static str, String)> {
        let stagger = |axis: StaggerAxis, index: StaggerIndex| {
            [
                ("staggeraxis", if axis == StaggerAxis::X { "x" } else { "y" }.to_owned()),
                ("staggerindex", if index == StaggerIndex::Odd { "odd" } else { "even" }.to_owned()),
            ]
        };
        match self {
            Orientation::Orthogonal | Orientation::Isometric => Vec::new(),
            Orientation::Staggered { axis, index } => stagger(axis, index).to_vec(),
            Orientation::Hexagonal { side_length, axis, index } => {
                let mut attributes = vec![("hexsidelength", side_length.to_string())];
                attributes.extend(stagger(axis, index));
                attributes
            }
            Orientation::Oblique { skew_x, skew_y } => {
                vec![("skewx", skew_x.to_string()), ("skewy", skew_y.to_string())]
            }
        }
    }

    /// What a load says of a map of this orientation; `None` for an orthogonal one.
    pub fn load_warning(self) -> Option<String> {
        let name = self.name();
        match self {
            Orientation::Orthogonal => None,
            Orientation::Isometric | Orientation::Oblique { .. } => Some(format!(
                "the map is {name}: sightline draws it as orthogonal, on the same cells (its rules, views and paths \
                 are the map's own), and a save keeps it {name}"
            )),
            Orientation::Staggered { .. } | Orientation::Hexagonal { .. } => Some(format!(
                "the map is {name}: sightline draws and plays it as a square grid, whose cells have other neighbours \
                 than the map's shifted rows give them (views and paths here are not that grid's), and a save keeps \
                 it {name}"
            )),
        }
    }
}

/// What a Tiled map file keeps for Tiled itself (its `<editorsettings>`): where File › Export As
/// last wrote the map and in what format (Tiled's Repeat Last Export reads them), and the size
/// of the chunks Tiled gives an infinite map. sightline has no use for them; a map keeps them so
/// that a save does not make Tiled forget them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TiledEditorSettings {
    /// The file Tiled last exported the map to (`export target`; empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub export_target: String,
    /// The format it exported it in (`export format`, the name of a Tiled export plugin).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub export_format: String,
    /// The chunk size of an infinite map (`chunksize`); `None`: Tiled's default, 16 × 16.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk_size: Option<[u32; 2]>,
}

impl TiledEditorSettings {
    pub fn is_empty(&self) -> bool {
        *self == TiledEditorSettings::default()
    }

    /// The chunks a save writes an infinite map's layers in: the file's chunk size (Tiled's
    /// 16 × 16 when it gives none), within 1 to 256 cells a side, so that a chunk size a file
    /// holds by mistake (0, or 100 000) neither writes a chunk Tiled cannot read nor makes a save
    /// allocate billions of cells. Tiled reads chunks of any size; the file keeps its own.
    pub fn chunk_cells(&self) -> [u32; 2] {
        self.chunk_size.unwrap_or([16, 16]).map(|side| side.clamp(1, 256))
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
    ) -> impl Iterator<Item = crate::core::Cell> + 'static {
        let (left, up) = (
            matches!(self, RenderOrder::LeftDown | RenderOrder::LeftUp),
            matches!(self, RenderOrder::RightUp | RenderOrder::LeftUp),
        );
        let rows: Vec<i32> = if up { ys.rev().collect() } else { ys.collect() };
        rows.into_iter().flat_map(move |y| {
            let columns: Vec<i32> = if left { xs.clone().rev().collect() } else { xs.clone().collect() };
            columns.into_iter().map(move |x| crate::core::Cell::new(x, y))
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
