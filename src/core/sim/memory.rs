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
use crate::core::model::tile::TileId;
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

/// Every cell of a map as a memory would record it now (its [`Remembered`] but for the turn),
/// kept by the world and refreshed where the map changes (a door, an edit): what hundreds of
/// perspectives record every turn is then a copy, not the rules of each cell worked out again
/// from its layers.
#[derive(Clone, Debug)]
pub struct CellStates {
    width: i32,
    height: i32,
    /// 8 bytes a cell (a [`Remembered`] takes 24): these are read all over a large map every
    /// turn, so their size is what they cost.
    cells: Vec<CellState>,
}

/// A cell's [`Remembered`] but for the turn, packed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct CellState {
    cost: f32,
    tile: TileId,
    /// `WALKABLE | OPAQUE | CLOSED_DOOR`, and `KNOWN` in a memory's record.
    flags: u8,
}

const WALKABLE: u8 = 1;
const OPAQUE: u8 = 2;
const CLOSED_DOOR: u8 = 4;
/// In a [`Record`]: the cell was seen (a record of zeros is a cell never seen).
const KNOWN: u8 = 8;

impl CellState {
    fn of(map: &Map, c: Cell) -> Self {
        let r = Remembered::of(map, c, 0);
        let flag = |on: bool, bit: u8| if on { bit } else { 0 };
        let flags = flag(r.walkable, WALKABLE) | flag(r.opaque, OPAQUE) | flag(r.closed_door, CLOSED_DOOR);
        Self { cost: r.cost, tile: r.tile, flags }
    }
}

impl CellStates {
    pub fn of(map: &Map) -> Self {
        let cells = (0..map.len()).map(|i| CellState::of(map, map.cell_at(i))).collect();
        Self { width: map.width() as i32, height: map.height() as i32, cells }
    }

    /// Cell `c` changed on `map` (a door opened or closed).
    pub fn refresh(&mut self, map: &Map, c: Cell) {
        if let Some(i) = self.index(c) {
            self.cells[i] = CellState::of(map, c);
        }
    }

    fn index(&self, c: Cell) -> Option<usize> {
        ((c.x as u32) < self.width as u32 && (c.y as u32) < self.height as u32)
            .then(|| (c.y * self.width + c.x) as usize)
    }

    /// Cell `c` as a memory records it on `turn`.
    fn record(&self, c: Cell, turn: u32) -> Option<Record> {
        let state = self.cells[self.index(c)?];
        Some(Record { state: CellState { flags: state.flags | KNOWN, ..state }, turn })
    }
}

/// How a memory keeps a cell: its [`Remembered`] packed in 12 bytes (a `Remembered` takes 24),
/// as every perspective writes those of its whole view every turn.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Record {
    state: CellState,
    /// The turn it was last seen (turns past `u32::MAX`, some 136 years at a turn a second, are
    /// recorded as `u32::MAX`).
    turn: u32,
}

impl Record {
    fn remembered(self) -> Option<Remembered> {
        let Record { state, turn } = self;
        (state.flags & KNOWN != 0).then(|| Remembered {
            tile: state.tile,
            walkable: state.flags & WALKABLE != 0,
            opaque: state.flags & OPAQUE != 0,
            cost: state.cost,
            closed_door: state.flags & CLOSED_DOOR != 0,
            turn: u64::from(turn),
        })
    }
}

/// The side of the square blocks [`Memory`] keeps cells in.
const CHUNK: i32 = 16;
/// Cells a block holds.
const CHUNK_CELLS: usize = (CHUNK * CHUNK) as usize;

/// One block of remembered cells, row by row.
type Chunk = Box<[Record; CHUNK_CELLS]>;

/// One perspective's memory of a map.
///
/// Cells are kept in 16 × 16 blocks, each made when a cell of it is first seen: a monster
/// remembers the few blocks around where it went, not a whole map of nothing. (Dense, the
/// memories of the bundled 512 × 512 map's 626 monsters took 3.9 GB, and pressing Play on it
/// took seconds.)
#[derive(Clone, Debug, PartialEq)]
pub struct Memory {
    pub model: MemoryModel,
    width: i32,
    height: i32,
    /// Blocks across the map.
    chunks_wide: i32,
    /// Per block, row by row, what was last seen in its cells (`None`: no cell of it seen).
    chunks: Vec<Option<Chunk>>,
}

impl Memory {
    pub fn new(model: MemoryModel, width: u32, height: u32) -> Self {
        let (width, height) = (width as i32, height as i32);
        let chunks_wide = (width + CHUNK - 1) / CHUNK;
        let chunks_high = (height + CHUNK - 1) / CHUNK;
        let chunks = (0..chunks_wide as usize * chunks_high as usize).map(|_| None).collect();
        Self { model, width, height, chunks_wide, chunks }
    }

    /// Where cell `c` is kept: its block, and its place in the block.
    fn slot(&self, c: Cell) -> Option<(usize, usize)> {
        ((c.x as u32) < self.width as u32 && (c.y as u32) < self.height as u32).then(|| {
            let chunk = (c.y / CHUNK) * self.chunks_wide + c.x / CHUNK;
            let within = (c.y % CHUNK) * CHUNK + c.x % CHUNK;
            (chunk as usize, within as usize)
        })
    }

    /// Records what is visible now: the cells as `states` has them (the map as it is).
    pub fn see(&mut self, states: &CellStates, visible: &VisibleSet, turn: u64) {
        if self.model == MemoryModel::None {
            return;
        }
        let turn = u32::try_from(turn).unwrap_or(u32::MAX);
        for c in visible.iter() {
            if let (Some((chunk, within)), Some(record)) = (self.slot(c), states.record(c, turn)) {
                let block = self.chunks[chunk].get_or_insert_with(|| Box::new([Record::default(); CHUNK_CELLS]));
                block[within] = record;
            }
        }
    }

    /// Records on `turn` the view it recorded last, seen again: the same cells, none of them
    /// changed since (a monster that has not moved, with no door or light changed near it). Only
    /// their turn changes, so the map's states are not read again.
    pub fn see_again(&mut self, visible: &VisibleSet, turn: u64) {
        if self.model == MemoryModel::None {
            return;
        }
        let turn = u32::try_from(turn).unwrap_or(u32::MAX);
        for c in visible.iter() {
            if let Some((chunk, within)) = self.slot(c)
                && let Some(block) = self.chunks[chunk].as_mut()
            {
                debug_assert!(block[within].state.flags & KNOWN != 0, "{c} was recorded");
                block[within].turn = turn;
            }
        }
    }

    /// What was last seen at `c` (`None` if never seen or not remembered).
    pub fn recall(&self, c: Cell) -> Option<Remembered> {
        let (chunk, within) = self.slot(c)?;
        self.chunks[chunk].as_ref()?[within].remembered()
    }

    /// Whether the cell was ever seen (and is remembered).
    pub fn knows(&self, c: Cell) -> bool {
        self.recall(c).is_some()
    }

    /// Forgets cells remembered as a tile id the map no longer has (its tile table shrank).
    pub fn forget_tiles_from(&mut self, tile_count: usize) {
        for record in self.chunks.iter_mut().flatten().flat_map(|block| block.iter_mut()) {
            if record.state.flags & KNOWN != 0 && usize::from(record.state.tile) >= tile_count {
                *record = Record::default();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells are remembered in blocks made as they are first seen, on maps whose sides are not
    /// whole blocks too: each cell seen is recalled, no other, and none off the map.
    #[test]
    fn cells_are_remembered_in_blocks_made_when_first_seen() {
        let map = Map::new_standard(37, 21, 1).unwrap();
        let mut memory = Memory::new(MemoryModel::LastSeen, 37, 21);
        assert!(memory.chunks.iter().all(Option::is_none), "nothing seen, no block made");
        let seen = [Cell::new(0, 0), Cell::new(15, 15), Cell::new(16, 15), Cell::new(36, 20), Cell::new(17, 3)];
        let mut visible = VisibleSet::new(37, 21);
        for c in seen {
            visible.insert(c.x, c.y);
        }
        memory.see(&CellStates::of(&map), &visible, 4);
        for y in -1..22 {
            for x in -1..38 {
                let c = Cell::new(x, y);
                assert_eq!(memory.knows(c), seen.contains(&c), "{c}");
            }
        }
        assert_eq!(memory.recall(Cell::new(36, 20)).map(|r| r.turn), Some(4));
        // Blocks (0, 0), (1, 0) and (2, 1): three of the 3 × 2.
        assert_eq!(memory.chunks.iter().filter(|c| c.is_some()).count(), 3);
        // A tile table cut below the remembered tile forgets the cells that showed it.
        memory.forget_tiles_from(0);
        assert!(seen.iter().all(|&c| !memory.knows(c)));
    }

    /// A record is half a `Remembered`: what a large map's perspectives write every turn.
    #[test]
    fn a_cell_is_recorded_in_12_bytes() {
        assert_eq!(std::mem::size_of::<Record>(), 12);
        assert_eq!(std::mem::size_of::<Remembered>(), 24);
    }

    /// A record gives back the cell as it was seen, its turn included, and a turn past `u32`
    /// is kept as the last one a record holds.
    #[test]
    fn a_record_gives_back_what_was_seen() {
        let mut map = Map::new_standard(3, 1, crate::core::model::tile::STANDARD_FLOOR).unwrap();
        map.layers[0].set(1, crate::core::model::tile::STANDARD_CLOSED_DOOR, crate::core::model::flip::Flip::NONE);
        let states = CellStates::of(&map);
        let mut visible = VisibleSet::new(3, 1);
        visible.insert(1, 0);
        visible.insert(2, 0);
        let mut memory = Memory::new(MemoryModel::LastSeen, 3, 1);
        memory.see(&states, &visible, 7);
        let door = Cell::new(1, 0);
        assert_eq!(memory.recall(door), Some(Remembered::of(&map, door, 7)));
        assert!(memory.recall(door).is_some_and(|r| r.closed_door && r.opaque && !r.walkable));
        assert_eq!(memory.recall(Cell::new(0, 0)), None);
        memory.see(&states, &visible, u64::MAX);
        assert_eq!(memory.recall(Cell::new(2, 0)).map(|r| r.turn), Some(u64::from(u32::MAX)));
    }
}
