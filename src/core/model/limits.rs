//! The largest maps sightline holds: limits every loader and editor checks sizes against, kept
//! in a leaf module so that the map and its errors both name them.

/// Largest side a map may have (4096×4096 cells, 32 MiB a layer). Larger maps are refused with
/// [`MapErrorKind::Dimensions`](crate::core::model::error::MapErrorKind::Dimensions) instead of exhausting memory.
pub const MAX_MAP_SIDE: u32 = 4096;

/// Most tile cells a map holds over all its layers: eight layers of the largest side (256 MiB of
/// tile ids; the editor's undo history keeps copies of them). Loaders count the cells as they
/// meet each layer and refuse a map past this before decoding more, so that a small compressed
/// file (a layer of 4096×4096 zeros packs into 87 KB) cannot ask for gigabytes.
pub const MAX_LAYER_CELLS: u64 = 8 * (MAX_MAP_SIDE as u64) * (MAX_MAP_SIDE as u64);
