//! What one perspective knows of the map: every cell unknown, remembered or visible.
//!
//! Three models, as the seeds' games have them:
//! - [`MemoryModel::LastSeen`] (Terminus, Grass, DCSS): a remembered cell keeps the terrain **as it
//!   was last seen**: a door closed since you saw it still shows open, and walking plans use what
//!   was seen, not what is;
//! - [`MemoryModel::Revealed`] (jsrlt's `IsRevealed`, Picotron's seen flag): one boolean per cell;
//!   a remembered cell shows the terrain as it is now, so changes out of view leak through;
//! - [`MemoryModel::None`] (Caves of Zircon's shroud): nothing is remembered; only what is in view
//!   shows.
//!
//! No model remembers monsters: they are shown only while visible (their last known position is
//! kept by the world, for drawing a ghost).

use crate::core::fov::VisibleSet;
use crate::core::tile::TileId;
use crate::core::{Cell, Map};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum MemoryModel {
    #[default]
    LastSeen,
    Revealed,
    None,
}

impl MemoryModel {
    pub const ALL: [MemoryModel; 3] = [MemoryModel::LastSeen, MemoryModel::Revealed, MemoryModel::None];

    pub fn label(self) -> &'static str {
        match self {
            MemoryModel::LastSeen => "last seen (memory)",
            MemoryModel::Revealed => "revealed flag",
            MemoryModel::None => "none (shroud)",
        }
    }
}

/// What a perspective knows of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knowledge {
    Unknown,
    Remembered,
    Visible,
}

/// A cell as it was last seen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Remembered {
    /// The topmost tile then (0: none).
    pub tile: TileId,
    pub walkable: bool,
    pub opaque: bool,
    pub cost: f32,
    /// Whether it held a closed door (which a walker can open).
    pub closed_door: bool,
    /// The turn it was last seen.
    pub turn: u64,
}

impl Remembered {
    /// The cell as it is in `map` now.
    pub fn of(map: &Map, cell: Cell, turn: u64) -> Self {
        let rules = map.rules_at(cell);
        let closed_door = rules.door.is_some_and(|(_, t)| map.tiles[usize::from(t)].door.is_some_and(|d| !d.open));
        Self {
            tile: map.top_tile(cell).map_or(0, |(_, t)| t),
            walkable: rules.walkable,
            opaque: rules.opaque,
            cost: rules.cost,
            closed_door,
            turn,
        }
    }
}

/// One perspective's memory of a map.
#[derive(Clone, Debug)]
pub struct Memory {
    pub model: MemoryModel,
    width: i32,
    height: i32,
    /// Per cell, what was last seen there (`None`: never seen, or the model forgets).
    cells: Vec<Option<Remembered>>,
}

impl Memory {
    pub fn new(model: MemoryModel, width: u32, height: u32) -> Self {
        Self { model, width: width as i32, height: height as i32, cells: vec![None; width as usize * height as usize] }
    }

    fn index(&self, c: Cell) -> Option<usize> {
        ((c.x as u32) < self.width as u32 && (c.y as u32) < self.height as u32)
            .then(|| (c.y * self.width + c.x) as usize)
    }

    /// Records what is visible now.
    pub fn see(&mut self, map: &Map, visible: &VisibleSet, turn: u64) {
        if self.model == MemoryModel::None {
            return;
        }
        for c in visible.iter() {
            if let Some(i) = self.index(c) {
                self.cells[i] = Some(Remembered::of(map, c, turn));
            }
        }
    }

    /// What was last seen at `c` (`None` if never seen or not remembered).
    pub fn recall(&self, c: Cell) -> Option<&Remembered> {
        self.index(c).and_then(|i| self.cells[i].as_ref())
    }

    /// Whether the cell was ever seen (and is remembered).
    pub fn knows(&self, c: Cell) -> bool {
        self.recall(c).is_some()
    }

    /// Forgets cells remembered as a tile id the map no longer has (its tile table shrank).
    pub fn forget_tiles_from(&mut self, tile_count: usize) {
        for cell in &mut self.cells {
            if cell.is_some_and(|r| usize::from(r.tile) >= tile_count) {
                *cell = None;
            }
        }
    }
}
