//! What the game rules read from a map: per cell, whether it blocks sight, can be walked on, what
//! stepping on it costs and whether it holds a door.
//!
//! Layers combine as follows (documented for designers in docs/formats.md):
//! - **void** (no tile on any layer) is like the outside of the map: opaque and impassable;
//! - **opaque** if any layer's tile there is opaque, or any collision layer has a tile there
//!   (other than a door: a door on a collision layer is opaque or not as the door is);
//! - **walkable** if some layer has a tile there, every tile there is walkable, and no collision
//!   layer has a tile there;
//! - **cost** is the largest cost of the tiles there;
//! - **door**: the topmost door tile there, if any (that is the one a player opens or closes).

use crate::core::model::geometry::Cell;
use crate::core::model::map::Map;
use crate::core::model::tile::{self, TileId};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellRules {
    pub opaque: bool,
    pub walkable: bool,
    pub cost: f32,
    /// `(layer, tile)` of the topmost door tile.
    pub door: Option<(usize, TileId)>,
}

impl CellRules {
    /// Outside the map: opaque and impassable.
    pub const OUTSIDE: CellRules = CellRules { opaque: true, walkable: false, cost: 1.0, door: None };

    /// How sight and movement pass this cell.
    pub fn passage(&self) -> Passage {
        match (self.opaque, self.walkable) {
            (false, true) => Passage::Open,
            (true, true) => Passage::SightBlocked,
            (false, false) => Passage::MoveBlocked,
            (true, false) => Passage::Blocked,
        }
    }
}

/// A map's cells counted by what the rules make of them: what the Game rules overlay's legend
/// and `sightline audit rules` give.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RulesSummary {
    pub open: usize,
    pub sight_blocked: usize,
    pub move_blocked: usize,
    pub blocked: usize,
    pub closed_doors: usize,
    pub open_doors: usize,
    /// Walkable cells whose cost is not 1, and the range of their costs.
    pub costly: usize,
    pub cost_range: Option<(f32, f32)>,
}

impl RulesSummary {
    pub fn of(map: &Map) -> Self {
        let mut summary = Self::default();
        for i in 0..map.len() {
            summary.count(map, &map.rules_at(map.cell_at(i)));
        }
        summary
    }

    /// Counts a cell of `map` whose rules are `rules` (for a caller that reads each cell's rules
    /// for more than this).
    pub fn count(&mut self, map: &Map, rules: &CellRules) {
        *match rules.passage() {
            Passage::Open => &mut self.open,
            Passage::SightBlocked => &mut self.sight_blocked,
            Passage::MoveBlocked => &mut self.move_blocked,
            Passage::Blocked => &mut self.blocked,
        } += 1;
        if let Some((_, tile)) = rules.door {
            let open = map.tiles[usize::from(tile)].door.is_some_and(|d| d.open);
            *(if open { &mut self.open_doors } else { &mut self.closed_doors }) += 1;
        }
        if rules.walkable && rules.cost != 1.0 {
            self.costly += 1;
            let (lo, hi) = self.cost_range.unwrap_or((rules.cost, rules.cost));
            self.cost_range = Some((lo.min(rules.cost), hi.max(rules.cost)));
        }
    }
}

/// How sight and movement pass a cell: the four ways a map's cells are to the game (the Game
/// rules overlay colours a map by them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Passage {
    /// Seen through and walked on: a floor.
    Open,
    /// Walked on, not seen through: tall grass, a curtain.
    SightBlocked,
    /// Seen through, not walked on: deep water, a chasm, a window.
    MoveBlocked,
    /// Neither: a wall, a closed door, the void.
    Blocked,
}

impl Map {
    /// The rules at one cell (see the module doc for how layers combine).
    pub fn rules_at(&self, cell: Cell) -> CellRules {
        let Some(i) = self.index(cell) else { return CellRules::OUTSIDE };
        let mut rules = CellRules { opaque: false, walkable: false, cost: 0.0, door: None };
        let mut any = false;
        let mut all_walkable = true;
        for (li, layer) in self.layers.iter().enumerate() {
            let t = layer.cells[i];
            if t == tile::EMPTY {
                continue;
            }
            any = true;
            let kind = &self.tiles[usize::from(t)];
            // A door on a collision layer is still a door: open, it lets sight and walkers through.
            let blocked_by_layer = layer.collision && kind.door.is_none();
            rules.opaque |= kind.opaque || blocked_by_layer;
            all_walkable &= kind.walkable && !blocked_by_layer;
            rules.cost = rules.cost.max(kind.cost);
            if kind.door.is_some() {
                rules.door = Some((li, t));
            }
        }
        if !any {
            // Void (no tile on any layer) is like the outside of the map.
            return CellRules::OUTSIDE;
        }
        rules.walkable = all_walkable;
        rules
    }

    /// The rules of every cell, as flat arrays.
    pub fn rules_grid(&self) -> RulesGrid {
        let len = self.len();
        let mut grid = RulesGrid {
            width: self.width(),
            height: self.height(),
            opaque: Vec::with_capacity(len),
            walkable: Vec::with_capacity(len),
            cost: Vec::with_capacity(len),
        };
        for i in 0..len {
            let r = self.rules_at(self.cell_at(i));
            grid.opaque.push(r.opaque);
            grid.walkable.push(r.walkable);
            grid.cost.push(r.cost);
        }
        grid
    }

    /// Opens a closed door or closes an open one at `cell` (the topmost door tile there), flipped
    /// as the door was. Returns the new tile, or `None` when there is no door.
    pub fn toggle_door(&mut self, cell: Cell) -> Option<TileId> {
        let (layer, t) = self.rules_at(cell).door?;
        let to = self.tiles[usize::from(t)].door?.toggles_to;
        let (_, flip) = self.flipped_tile(layer, cell)?;
        self.set_flipped_tile(layer, cell, to, flip).then_some(to)
    }
}

/// [`CellRules`] of a whole map, one flat array per property (index `y * width + x`).
#[derive(Clone, Debug, PartialEq)]
pub struct RulesGrid {
    pub width: u32,
    pub height: u32,
    pub opaque: Vec<bool>,
    pub walkable: Vec<bool>,
    pub cost: Vec<f32>,
}
