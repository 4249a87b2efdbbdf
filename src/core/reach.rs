//! What the player can reach, and what a map puts out of reach: the walkable cells joined to
//! where play starts ([`crate::core::sim::start_cell`]), moving as everyone moves in play
//! ([`crate::core::sim::MOVES`]) and opening closed doors on the way; the pockets of walkable
//! cells no way leads to; and the map's objects that stand on a cell no one can stand on, or out
//! of reach. What `sightline audit rules` reports and the Game rules overlay shades: a Tiled map
//! whose tiles' properties wall off a room, or a monster placed in a wall, shows at once.

use std::collections::VecDeque;

use super::path::{CostGrid, DoorRule};
use super::sim::{MOVES, start_cell};
use super::{Cell, Map, ObjectKind};

/// A group of walkable cells joined to one another and not to the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pocket {
    pub cells: usize,
    /// Its first cell in reading order.
    pub first: Cell,
}

/// Something a designer would want to know about a map's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// No cell is walkable: there is no game to play.
    NothingWalkable,
    /// The map has no player start (or it stands where no one can stand): play starts at `at`.
    NoPlayerStart { at: Cell },
    /// Walkable cells that no way from the start leads to.
    OutOfReach { cells: usize, pockets: usize, largest: Pocket },
    /// An object of the game's on a cell no one can stand on (a wall, deep water, the void).
    ObjectOnBlockedCell { id: u32, kind: String, name: String, at: Cell },
    /// An object of the game's on a walkable cell the start has no way to.
    ObjectOutOfReach { id: u32, kind: String, name: String, at: Cell },
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let object = |kind: &str, name: &str, id: u32| {
            if name.is_empty() { format!("{kind} #{id}") } else { format!("{kind} '{name}' (#{id})") }
        };
        match self {
            Finding::NothingWalkable => write!(f, "no cell is walkable: there is nowhere to start"),
            Finding::NoPlayerStart { at } => write!(f, "no player start on a walkable cell: play starts at {at}"),
            Finding::OutOfReach { cells, pockets, largest } => write!(
                f,
                "{cells} walkable cells in {pockets} pocket{} cannot be reached from the start (the largest, {} cells, from {})",
                if *pockets == 1 { "" } else { "s" },
                largest.cells,
                largest.first
            ),
            Finding::ObjectOnBlockedCell { id, kind, name, at } => {
                write!(f, "{} at {at} stands where no one can stand", object(kind, name, *id))
            }
            Finding::ObjectOutOfReach { id, kind, name, at } => {
                write!(f, "{} at {at} cannot be reached from the start", object(kind, name, *id))
            }
        }
    }
}

/// The walkable cells the start reaches, and what is out of reach.
#[derive(Clone, Debug, PartialEq)]
pub struct Reach {
    width: i32,
    /// Where play starts; `None` when no cell is walkable.
    pub start: Option<Cell>,
    /// Per cell, row-major: reached from the start.
    reached: Vec<bool>,
    /// Per cell, row-major: walkable (a closed door too) and not reached: in a pocket.
    pocketed: Vec<bool>,
    /// The walkable cells out of reach, in pockets, largest first.
    pub pockets: Vec<Pocket>,
    pub findings: Vec<Finding>,
}

impl Reach {
    /// What `map` reaches from where play starts, and what it puts out of reach: a breadth-first
    /// walk on its walk costs (closed doors opened at a cost), then one more from each walkable
    /// cell left, for the pockets. O(cells).
    pub fn of(map: &Map) -> Reach {
        let grid = CostGrid::from_map(map, DoorRule::OpenAtCost(1.0));
        let w = map.width() as i32;
        let mut reached = vec![false; map.len()];
        let start = start_cell(map);
        let mut findings = Vec::new();
        let Some(start) = start else {
            findings.push(Finding::NothingWalkable);
            let pocketed = reached.clone();
            return Reach { width: w, start, reached, pocketed, pockets: Vec::new(), findings };
        };
        if !map.objects.iter().any(|o| o.kind == ObjectKind::PlayerStart && o.cell == start) {
            findings.push(Finding::NoPlayerStart { at: start });
        }
        flood(&grid, start, &mut reached);
        // The pockets: what is walkable (doors included) and not reached, flooded one by one.
        let mut seen = reached.clone();
        let mut pockets = Vec::new();
        for i in 0..map.len() {
            let c = map.cell_at(i);
            if !seen[i] && grid.passable(c.x, c.y) {
                pockets.push(Pocket { cells: flood(&grid, c, &mut seen), first: c });
            }
        }
        pockets.sort_by_key(|p| std::cmp::Reverse(p.cells));
        if let Some(&largest) = pockets.first() {
            let cells = pockets.iter().map(|p| p.cells).sum();
            findings.push(Finding::OutOfReach { cells, pockets: pockets.len(), largest });
        }
        for o in &map.objects {
            if !matches!(o.kind, ObjectKind::PlayerStart | ObjectKind::Monster { .. } | ObjectKind::Item) {
                continue;
            }
            let (id, kind, name, at) = (o.id, o.kind.type_name().to_owned(), o.name.clone(), o.cell);
            if !map.in_bounds(at) {
                continue;
            }
            if !map.rules_at(at).walkable {
                findings.push(Finding::ObjectOnBlockedCell { id, kind, name, at });
            } else if !reached[(at.y * w + at.x) as usize] {
                findings.push(Finding::ObjectOutOfReach { id, kind, name, at });
            }
        }
        let pocketed = seen.iter().zip(&reached).map(|(&s, &r)| s && !r).collect();
        Reach { width: w, start: Some(start), reached, pocketed, pockets, findings }
    }

    /// Whether the start reaches `c`.
    pub fn reaches(&self, c: Cell) -> bool {
        self.at(&self.reached, c)
    }

    /// Whether `c` is walkable (or a closed door) and the start does not reach it.
    pub fn out_of_reach(&self, c: Cell) -> bool {
        self.at(&self.pocketed, c)
    }

    fn at(&self, cells: &[bool], c: Cell) -> bool {
        (0..self.width).contains(&c.x)
            && usize::try_from(c.y * self.width + c.x).ok().and_then(|i| cells.get(i)).copied().unwrap_or(false)
    }
}

/// Marks in `seen` every cell a walk from `from` reaches on `grid` (as everyone moves in play),
/// and returns how many it marked.
fn flood(grid: &CostGrid, from: Cell, seen: &mut [bool]) -> usize {
    let w = grid.width();
    let index = |c: Cell| (c.y * w + c.x) as usize;
    seen[index(from)] = true;
    let mut marked = 1;
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)] {
            let n = Cell::new(c.x + dx, c.y + dy);
            if MOVES.can_step(grid, c.x, c.y, dx, dy) && !seen[index(n)] {
                seen[index(n)] = true;
                marked += 1;
                queue.push_back(n);
            }
        }
    }
    marked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::ascii;
    use crate::core::{MapObject, ObjectKind};

    /// `r` reached, `x` walkable and out of reach, the map's glyph elsewhere.
    fn drawn(map: &Map, reach: &Reach) -> Vec<String> {
        (0..map.height() as i32)
            .map(|y| {
                (0..map.width() as i32)
                    .map(|x| {
                        let c = Cell::new(x, y);
                        match (reach.reaches(c), reach.out_of_reach(c)) {
                            (true, _) => 'r',
                            (false, true) => 'x',
                            (false, false) => map.top_tile(c).map_or(' ', |(_, t)| map.tiles[usize::from(t)].glyph.ch),
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// A room walled off from the start, its monster out of reach; a closed door is no wall (the
    /// player opens it); diagonal steps pass between two walls, as in play (the zigzag at 5–7).
    #[test]
    fn a_walled_off_room_and_what_stands_in_it_are_out_of_reach() {
        let map = ascii::parse(
            &[
                "############", //
                "#@.+.#.##..#",
                "#...#.#.#o.#",
                "############",
            ]
            .join("\n"),
        )
        .unwrap();
        let reach = Reach::of(&map);
        assert_eq!(
            drawn(&map, &reach),
            [
                "############", //
                "#rrrr#r##xx#",
                "#rrr#r#r#xx#",
                "############",
            ]
        );
        let orc = map.objects.iter().find(|o| matches!(o.kind, ObjectKind::Monster { .. })).unwrap();
        assert_eq!(
            reach.findings,
            [
                Finding::OutOfReach { cells: 4, pockets: 1, largest: Pocket { cells: 4, first: Cell::new(9, 1) } },
                Finding::ObjectOutOfReach {
                    id: orc.id,
                    kind: "monster".into(),
                    name: orc.name.clone(),
                    at: Cell::new(9, 2)
                },
            ]
        );
        assert_eq!(
            reach.findings[0].to_string(),
            "4 walkable cells in 1 pocket cannot be reached from the start (the largest, 4 cells, from 9,1)"
        );
    }

    /// An item in a wall stands where no one can stand; a map without a player start starts on
    /// its first walkable cell, and says so; a map with no walkable cell has nowhere to start.
    #[test]
    fn objects_in_walls_and_maps_without_a_start_are_found() {
        let mut map = ascii::parse("#####\n#..##\n#####").unwrap();
        let item = map.add_object(MapObject::new(ObjectKind::Item, Cell::new(3, 1)));
        let reach = Reach::of(&map);
        assert_eq!(
            reach.findings,
            [
                Finding::NoPlayerStart { at: Cell::new(1, 1) },
                Finding::ObjectOnBlockedCell {
                    id: item,
                    kind: "item".into(),
                    name: String::new(),
                    at: Cell::new(3, 1)
                },
            ]
        );
        assert_eq!(reach.findings[1].to_string(), format!("item #{item} at 3,1 stands where no one can stand"));
        let walls = ascii::parse("###\n###").unwrap();
        assert_eq!(Reach::of(&walls).findings, [Finding::NothingWalkable]);
        assert_eq!(Reach::of(&walls).start, None);
    }
}
