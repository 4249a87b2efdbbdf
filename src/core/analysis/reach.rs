//! What the player can reach, and what a map puts out of reach: the walkable cells joined to
//! where play starts ([`crate::core::sim::start_cell`]), moving as everyone moves in play
//! ([`crate::core::sim::MOVES`]) and opening closed doors on the way; the pockets of walkable
//! cells no way leads to; and the map's objects that stand on a cell no one can stand on, or out
//! of reach. What `sightline audit rules` reports and the Game rules overlay shades: a Tiled map
//! whose tiles' properties wall off a room, or a monster placed in a wall, shows at once.

use std::collections::VecDeque;

use crate::core::path::{CostGrid, DoorRule};
use crate::core::sim::{MOVES, monster_places, start_cell};
use crate::core::{Cell, Map, ObjectKind};

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
    /// An object of the game's placed off the map: it is not in the game.
    ObjectOffMap { id: u32, kind: String, name: String, at: Cell },
    /// A player start after the first (`first`, its id): play uses the first.
    ExtraPlayerStart { id: u32, name: String, at: Cell, first: u32 },
    /// A monster on a cell the player or another monster takes: play puts it at `to`, the
    /// nearest free cell (see [`crate::core::sim::monster_places`]), or leaves it out (`None`).
    MonsterOnTakenCell { id: u32, name: String, at: Cell, to: Option<Cell> },
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let object = |kind: &str, name: &str, id: u32| {
            if name.is_empty() { format!("{kind} #{id}") } else { format!("{kind} '{name}' (#{id})") }
        };
        match self {
            Finding::NothingWalkable => write!(f, "no cell is walkable: there is nowhere to start"),
            Finding::NoPlayerStart { at } => write!(f, "no player start on a walkable cell: play starts at {at}"),
            Finding::OutOfReach { cells, pockets, largest } => {
                let s = |n: usize| if n == 1 { "" } else { "s" };
                write!(
                    f,
                    "{cells} walkable cell{} in {pockets} pocket{} cannot be reached from the start",
                    s(*cells),
                    s(*pockets)
                )?;
                if *pockets == 1 {
                    write!(f, " (from {})", largest.first)
                } else {
                    write!(f, " (the largest, {} cell{}, from {})", largest.cells, s(largest.cells), largest.first)
                }
            }
            Finding::ObjectOnBlockedCell { id, kind, name, at } => {
                write!(f, "{} at {at} stands where no one can stand", object(kind, name, *id))
            }
            Finding::ObjectOutOfReach { id, kind, name, at } => {
                write!(f, "{} at {at} cannot be reached from the start", object(kind, name, *id))
            }
            Finding::ObjectOffMap { id, kind, name, at } => {
                write!(f, "{} at {at} is off the map: it is not in the game", object(kind, name, *id))
            }
            Finding::ExtraPlayerStart { id, name, at, first } => {
                write!(
                    f,
                    "{} at {at} is a second one: play uses the first (#{first})",
                    object("player start", name, *id)
                )
            }
            Finding::MonsterOnTakenCell { id, name, at, to } => match to {
                Some(to) => {
                    write!(f, "{} at {at} stands on a taken cell: play puts it at {to}", object("monster", name, *id))
                }
                None => write!(
                    f,
                    "{} at {at} stands on a taken cell with no free cell near: it is not in the game",
                    object("monster", name, *id)
                ),
            },
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
        // Where play puts each monster: on its cell, or, that taken, near it.
        let places: std::collections::HashMap<u32, Option<Cell>> =
            monster_places(map, start).into_iter().map(|(o, cell)| (o.id, cell)).collect();
        let first_start = map.objects.iter().find(|o| o.kind == ObjectKind::PlayerStart).map(|o| o.id);
        for o in &map.objects {
            if !matches!(o.kind, ObjectKind::PlayerStart | ObjectKind::Monster { .. } | ObjectKind::Item) {
                continue;
            }
            let (id, kind, name, mut at) = (o.id, o.kind.type_name().to_owned(), o.name.clone(), o.cell);
            if !map.in_bounds(at) {
                findings.push(Finding::ObjectOffMap { id, kind, name, at });
                continue;
            }
            if o.kind == ObjectKind::PlayerStart
                && let Some(first) = first_start.filter(|&first| first != id)
            {
                findings.push(Finding::ExtraPlayerStart { id, name, at, first });
                continue;
            }
            if let Some(&to) = places.get(&id)
                && to != Some(at)
            {
                findings.push(Finding::MonsterOnTakenCell { id, name: name.clone(), at, to });
                match to {
                    Some(to) => at = to,
                    None => continue,
                }
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
            "4 walkable cells in 1 pocket cannot be reached from the start (from 9,1)"
        );
    }

    /// What play does with objects that cannot all be where they were placed: a monster on the
    /// player's cell stands next to it, one on another's cell in a closet is left out, a second
    /// player start is not used, and an item off the map is not in the game.
    #[test]
    fn objects_that_play_moves_or_leaves_out_are_found() {
        let mut map = ascii::parse("#######\n#@..#o#\n#...###\n#######").unwrap();
        let orc = map.objects.iter().find(|o| matches!(o.kind, ObjectKind::Monster { .. })).unwrap().id;
        let monster = |c: Cell| MapObject::new(ObjectKind::Monster { glyph: 'k', vision_radius: 4 }, c).named("kobold");
        let on_player = map.add_object(monster(Cell::new(1, 1)));
        let on_orc = map.add_object(monster(Cell::new(5, 1)));
        let second = map.add_object(MapObject::new(ObjectKind::PlayerStart, Cell::new(3, 2)));
        let off = map.add_object(MapObject::new(ObjectKind::Item, Cell::new(-2, 1)));
        let messages: Vec<String> = Reach::of(&map).findings.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "1 walkable cell in 1 pocket cannot be reached from the start (from 5,1)".to_owned(),
                format!("monster 'orc' (#{orc}) at 5,1 cannot be reached from the start"),
                format!("monster 'kobold' (#{on_player}) at 1,1 stands on a taken cell: play puts it at 2,1"),
                format!(
                    "monster 'kobold' (#{on_orc}) at 5,1 stands on a taken cell with no free cell near: it is not in the game"
                ),
                format!("player start #{second} at 3,2 is a second one: play uses the first (#1)"),
                format!("item #{off} at -2,1 is off the map: it is not in the game"),
            ]
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
