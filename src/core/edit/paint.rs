//! Painting tiles on cells, flipped or not, and the random brush that picks among several.

use crate::core::model::flip::Flip;
use crate::core::model::geometry::Cell;
use crate::core::model::map::Map;
use crate::core::model::tile::TileId;

/// Sets `tile`, unflipped, on `layer` at every in-bounds cell; returns how many cells changed.
pub fn paint(map: &mut Map, layer: usize, cells: &[Cell], tile: TileId) -> usize {
    paint_flipped(map, layer, cells, tile, Flip::NONE)
}

/// Sets `tile` flipped by `flip` on `layer` at every in-bounds cell; returns how many changed.
pub fn paint_flipped(map: &mut Map, layer: usize, cells: &[Cell], tile: TileId, flip: Flip) -> usize {
    // The empty tile is never flipped (`Layer::set`): painting it flipped is erasing.
    let flip = if tile == crate::core::model::tile::EMPTY { Flip::NONE } else { flip };
    let mut changed = 0;
    for &c in cells {
        if map.flipped_tile(layer, c).is_some_and(|old| old != (tile, flip))
            && map.set_flipped_tile(layer, c, tile, flip)
        {
            changed += 1;
        }
    }
    changed
}

/// A weighted set of tiles for the random brush (Tiled's random mode): each painted cell gets
/// one of them, chosen with probability proportional to its weight.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RandomBrush {
    pub tiles: Vec<(TileId, u32)>,
}

impl RandomBrush {
    /// A tile drawn from the set by weight (`None` if every weight is 0 or the set is empty).
    pub fn pick(&self, rng: &mut crate::core::rng::Rng) -> Option<TileId> {
        let total: u32 = self.tiles.iter().map(|t| t.1).sum();
        if total == 0 {
            return None;
        }
        let mut k = rng.below(total);
        for &(tile, weight) in &self.tiles {
            if k < weight {
                return Some(tile);
            }
            k -= weight;
        }
        None
    }

    /// Paints each cell with a tile drawn from the set. Returns how many cells changed.
    pub fn paint(&self, map: &mut Map, layer: usize, cells: &[Cell], rng: &mut crate::core::rng::Rng) -> usize {
        let mut changed = 0;
        for &c in cells {
            let Some(tile) = self.pick(rng) else { return changed };
            if map.flipped_tile(layer, c).is_some_and(|old| old != (tile, Flip::NONE)) && map.set_tile(layer, c, tile) {
                changed += 1;
            }
        }
        changed
    }
}
