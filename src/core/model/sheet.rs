//! Sprite sheets: the image tilesets a map's tiles draw from, as Tiled describes them, with the
//! Wang sets (terrains) drawn on them and the tileset file each was read from.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::core::model::limits::{Limit, MAX_SHEET_SIDE};
use crate::core::model::sheet_drawing::SheetDrawing;
use crate::core::model::tile::{Properties, Rgb};

/// An image tileset, as Tiled describes one (tile size, spacing, margin, columns).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpriteSheet {
    pub name: String,
    /// The tileset's class (Tiled 1.9's `class`: the designer's type for it).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub class: String,
    /// The image, relative to the map file's folder (or absolute).
    pub image: PathBuf,
    pub tile_width: u32,
    pub tile_height: u32,
    pub columns: u32,
    pub tile_count: u32,
    #[serde(default)]
    pub spacing: u32,
    #[serde(default)]
    pub margin: u32,
    /// Pixels of this colour in the image are transparent (Tiled's `trans`, for images without
    /// an alpha channel; often magenta).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transparent: Option<Rgb>,
    /// Where its tiles are drawn relative to their cell, in pixels (Tiled's `tileoffset`; a tile
    /// is drawn at its own size with its bottom-left corner on the cell's, then moved by this).
    #[serde(default, skip_serializing_if = "is_origin")]
    pub offset: [i32; 2],
    /// Tiled's terrains (its Wang sets), which the terrain brush paints with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wang_sets: Vec<crate::core::model::wang::WangSet>,
    /// How its tiles are drawn: at their size or the grid's, stretched or fitted, and where a
    /// tile object's image sits (Tiled's `tilerendersize`, `fillmode`, `objectalignment`).
    #[serde(default, skip_serializing_if = "SheetDrawing::is_default")]
    pub drawing: SheetDrawing,
    /// The tileset's own custom properties (the designer's, as Tiled keeps them).
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
    /// The tileset file it was read from (Tiled's external `.tsx`/`.tsj` tileset), which a
    /// save refers to instead of copying the tileset into the map, while the sheet is as read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<TilesetFile>,
}

/// A Tiled tileset file a sheet was read from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TilesetFile {
    /// The file, absolute (a RON map stores it relative to the map).
    pub path: PathBuf,
    /// The sheet and its tiles as a Tiled file would hold them, taken when the map was read
    /// or when the file was last written: a save refers to the file only while they are still
    /// so. The format layer makes and reads it; the model only carries it.
    #[serde(skip)]
    pub as_read: Option<FormatMemo>,
}

/// A value a file format keeps on the model to read back later (what a tileset file held when
/// it was read), opaque to the model so that the model depends on no format. Two memos are
/// equal when they hold equal values of the same type.
#[derive(Clone)]
pub struct FormatMemo {
    value: std::sync::Arc<dyn std::any::Any + Send + Sync>,
    eq: fn(&dyn std::any::Any, &dyn std::any::Any) -> bool,
}

impl FormatMemo {
    pub fn new<T: std::any::Any + Send + Sync + PartialEq>(value: T) -> Self {
        Self {
            value: std::sync::Arc::new(value),
            eq: |a, b| matches!((a.downcast_ref::<T>(), b.downcast_ref::<T>()), (Some(a), Some(b)) if a == b),
        }
    }

    /// The value, when it is a `T`.
    pub fn get<T: std::any::Any>(&self) -> Option<&T> {
        self.value.downcast_ref()
    }
}

impl PartialEq for FormatMemo {
    fn eq(&self, other: &Self) -> bool {
        (self.eq)(&*self.value, &*other.value)
    }
}

impl std::fmt::Debug for FormatMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FormatMemo(..)")
    }
}

fn is_origin(offset: &[i32; 2]) -> bool {
    *offset == [0, 0]
}

impl SpriteSheet {
    /// A sheet of `tile_count` tiles of `tile_width` × `tile_height` pixels, `columns` a row, in
    /// `image`, with no spacing, margin, transparent colour, offset or Wang sets, drawn as Tiled
    /// draws by default.
    pub fn new(name: &str, image: &str, [tile_width, tile_height]: [u32; 2], columns: u32, tile_count: u32) -> Self {
        Self {
            name: name.to_owned(),
            class: String::new(),
            image: PathBuf::from(image),
            tile_width,
            tile_height,
            columns,
            tile_count,
            spacing: 0,
            margin: 0,
            transparent: None,
            offset: [0, 0],
            wang_sets: Vec::new(),
            drawing: SheetDrawing::default(),
            properties: Properties::new(),
            file: None,
        }
    }

    /// Pixel rectangle `(x, y, w, h)` of tile `index` in the image. (A sheet [`check`]ed lays
    /// out within 2²⁴ pixels a side; an index past its tiles is outside the image, saturating.)
    ///
    /// [`check`]: SpriteSheet::check
    pub fn source_rect(&self, index: u32) -> (u32, u32, u32, u32) {
        let columns = self.columns.max(1);
        let (col, row) = (u64::from(index % columns), u64::from(index / columns));
        let at = |n: u64, tile: u32| {
            let pixels = u64::from(self.margin) + n * (u64::from(tile) + u64::from(self.spacing));
            u32::try_from(pixels).unwrap_or(u32::MAX)
        };
        (at(col, self.tile_width), at(row, self.tile_height), self.tile_width, self.tile_height)
    }

    /// The image's size as its tiles lay it out (margins, tiles and the spacing between them),
    /// as Tiled computes it.
    pub fn laid_out_size(&self) -> (u64, u64) {
        let columns = u64::from(self.columns.max(1));
        let rows = u64::from(self.tile_count.div_ceil(self.columns.max(1)).max(1));
        let side = |count: u64, tile: u32| {
            2 * u64::from(self.margin) + count * u64::from(tile) + (count - 1) * u64::from(self.spacing)
        };
        (side(columns, self.tile_width), side(rows, self.tile_height))
    }

    /// Whether the sheet's numbers are within what sightline reads from a file ([`Limit`]):
    /// a map's own format (RON) gives them as they are, Tiled's readers bound them as they
    /// read. Says which number is out of range, and how.
    pub fn check(&self) -> Result<(), String> {
        let numbers = [
            ("tile_width", i64::from(self.tile_width), Limit::PIXELS),
            ("tile_height", i64::from(self.tile_height), Limit::PIXELS),
            ("spacing", i64::from(self.spacing), Limit::PIXELS),
            ("margin", i64::from(self.margin), Limit::PIXELS),
            ("columns", i64::from(self.columns), Limit::TILES),
            ("tile_count", i64::from(self.tile_count), Limit::TILES),
            ("offset x", i64::from(self.offset[0]), Limit::OFFSET),
            ("offset y", i64::from(self.offset[1]), Limit::OFFSET),
        ];
        for (name, value, limit) in numbers {
            limit.check(value).map_err(|why| format!("{name} is {value}, out of range: {why}"))?;
        }
        let (w, h) = self.laid_out_size();
        if w > MAX_SHEET_SIDE || h > MAX_SHEET_SIDE {
            return Err(format!(
                "its tiles lay out an image of {w}×{h} pixels; sightline reads images up to {MAX_SHEET_SIDE} pixels a side"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A format's memo compares by value and type: the model can tell "still as read" without
    /// knowing what the format kept.
    #[test]
    fn format_memos_are_equal_when_they_hold_equal_values_of_one_type() {
        let a = FormatMemo::new(vec![1u8, 2, 3]);
        assert_eq!(a, FormatMemo::new(vec![1u8, 2, 3]));
        assert_ne!(a, FormatMemo::new(vec![1u8, 2]));
        assert_ne!(a, FormatMemo::new(String::from("123")), "another type is never equal");
        assert_eq!(a.get::<Vec<u8>>(), Some(&vec![1, 2, 3]));
        assert_eq!(a.get::<String>(), None);
    }
}
