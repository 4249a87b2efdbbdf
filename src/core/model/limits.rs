//! The largest maps sightline holds: limits every loader and editor checks sizes against, kept
//! in a leaf module so that the map and its errors both name them.

/// Largest side a map may have (4096×4096 cells, 32 MiB a layer). Larger maps are refused with
/// [`MapErrorKind::Dimensions`](crate::core::model::error::MapErrorKind::Dimensions) instead of exhausting memory.
pub const MAX_MAP_SIDE: u32 = 4096;

/// Most tile cells a map holds over all its layers: eight layers of the largest side (256 MiB of
/// tile ids, and as much again for the undo history's copy of the map). Loaders count the cells
/// as they meet each layer and refuse a map past this before decoding more, so that a small compressed
/// file (a layer of 4096×4096 zeros packs into 87 KB) cannot ask for gigabytes.
pub const MAX_LAYER_CELLS: u64 = 8 * (MAX_MAP_SIDE as u64) * (MAX_MAP_SIDE as u64);

/// Most tiles the tilesets of one map hold, and so the largest tile count, column count or
/// local tile id a file may give (a tile id is 16 bits: [`TileId`](crate::core::model::tile::TileId)).
pub const MAX_TILES: u32 = u16::MAX as u32;

/// Largest tile size, spacing, margin, tile offset or text size, in pixels, that a file may
/// give. Real tilesets use tens of pixels; the bound keeps every sheet's arithmetic exact.
pub const MAX_TILE_PIXELS: u32 = 1 << 16;

/// Largest side of a tileset's image, in pixels, as given or as its tiles lay it out (2²⁴:
/// exact in the f32 texture coordinates it is drawn with).
pub const MAX_SHEET_SIDE: u64 = 1 << 24;

/// Farthest cell position (an infinite map's chunk, its origin) a file may place, either way
/// from 0. Times a cell's pixels (at most 2²³) it stays exact in an f64.
pub const MAX_CELL_COORD: i64 = 1 << 30;

/// The range of a whole number read from a file, by what the number is. Every loader reads
/// integers through a reader that takes one of these, so a number out of its range is refused
/// where it is read, naming the file's element, the attribute and the value; what the loaders and
/// savers compute from the numbers then cannot overflow. Every range but [`Limit::ID`] (ids are
/// compared, never computed with) is within ±2³¹, so a product of two such numbers, or a sum
/// of a few, fits an `i64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub min: i64,
    pub max: i64,
    /// What the number counts, for the message ("pixels", "tiles").
    pub unit: &'static str,
}

impl Limit {
    /// A tile's width or height, spacing, margin, a text's pixel size.
    pub const PIXELS: Limit = Limit { min: 0, max: MAX_TILE_PIXELS as i64, unit: "pixels" };
    /// A tile offset, either way.
    pub const OFFSET: Limit = Limit { min: -(MAX_TILE_PIXELS as i64), max: MAX_TILE_PIXELS as i64, unit: "pixels" };
    /// A tileset image's declared width or height.
    pub const IMAGE: Limit = Limit { min: 0, max: MAX_SHEET_SIDE as i64, unit: "pixels" };
    /// A tile count, a column count, a local tile id.
    pub const TILES: Limit = Limit { min: 0, max: MAX_TILES as i64, unit: "tiles" };
    /// A tileset's first global tile id (Tiled's ids are 28 bits; the top four are flip flags).
    pub const FIRST_GID: Limit = Limit { min: 1, max: (1 << 28) - 1, unit: "" };
    /// A map's, layer's or chunk's side in cells (sightline's own limit, [`MAX_MAP_SIDE`], is
    /// applied after, with its own message; this only keeps the number sane until then).
    pub const CELLS: Limit = Limit { min: -MAX_CELL_COORD, max: MAX_CELL_COORD, unit: "cells" };
    /// An animation frame's duration.
    pub const MILLISECONDS: Limit = Limit { min: 0, max: i32::MAX as i64, unit: "milliseconds" };
    /// An object's id, the next object id, a global tile id with its flags: compared and
    /// looked up, never computed with.
    pub const ID: Limit = Limit { min: 0, max: u32::MAX as i64, unit: "" };
    /// A 0/1 flag: any whole number, read as on or off only.
    pub const FLAG: Limit = Limit { min: i64::MIN, max: i64::MAX, unit: "" };

    /// `value` when it is in range, else the range, to say with where the value is
    /// ("sightline reads 0 to 65536 pixels").
    pub fn check(self, value: i64) -> Result<i64, String> {
        if (self.min..=self.max).contains(&value) {
            Ok(value)
        } else {
            let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
            Err(format!("sightline reads {} to {}{unit}", self.min, self.max))
        }
    }
}

// The construction's premise: every range but ids and flags is within ±2³¹.
const _: () = {
    let ranges =
        [Limit::PIXELS, Limit::OFFSET, Limit::IMAGE, Limit::TILES, Limit::FIRST_GID, Limit::CELLS, Limit::MILLISECONDS];
    let mut i = 0;
    while i < ranges.len() {
        assert!(ranges[i].min >= -(1 << 31) && ranges[i].max <= 1 << 31);
        i += 1;
    }
};
