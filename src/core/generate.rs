//! Seeded map generators, for sample maps, tests and benchmarks.

use super::rng::Rng;
use crate::core::model::error::MapError;
use crate::core::model::geometry::Cell;
use crate::core::model::map::Map;
use crate::core::model::object::{DEFAULT_VISION_RADIUS, MapObject, ObjectKind};
use crate::core::model::tile::{STANDARD_CLOSED_DOOR, STANDARD_FLOOR, STANDARD_OPEN_DOOR, STANDARD_WALL};

/// Random walls: each cell is a wall with probability `density`.
pub fn noise(width: u32, height: u32, density: f64, seed: u64) -> Result<Map, MapError> {
    let mut map = Map::new_standard(width, height, STANDARD_FLOOR)?;
    let mut rng = Rng::new(seed);
    for c in map.layers[0].cells.iter_mut() {
        if rng.chance(density) {
            *c = STANDARD_WALL;
        }
    }
    Ok(map)
}

/// Rooms joined by L-shaped corridors, with doors where corridors enter rooms, a player start in
/// the first room and a monster in some others; some rooms are lit, as Angband lights some of
/// its rooms (a light on the middle of the room's west side, reaching the whole room), and some
/// have an item in their south-east corner.
pub fn dungeon(width: u32, height: u32, seed: u64) -> Result<Map, MapError> {
    let mut map = Map::new_standard(width, height, STANDARD_WALL)?;
    let mut rng = Rng::new(seed);
    let (w, h) = (width as i32, height as i32);
    let mut rooms: Vec<(i32, i32, i32, i32)> = Vec::new();
    // Each room with its margin of one cell, as cells: a new room (with its own margin) may not
    // touch one, which is a look at the few cells it would take. (A test of every attempt against
    // every room so far, and of every corridor cell against every room, took 2.8 s for a 512²
    // map and over ten minutes for 2048².)
    let index = |x: i32, y: i32| (y * w + x) as usize;
    let mut taken = vec![false; map.len()];
    let attempts = (width * height / 40).max(20);
    for _ in 0..attempts {
        if w < 8 || h < 8 {
            break;
        }
        let rw = rng.range(4, 12.min(w - 4));
        let rh = rng.range(3, 8.min(h - 4));
        let x = rng.range(1, w - rw - 2);
        let y = rng.range(1, h - rh - 2);
        // The room and its margin, `x ..= x + rw + 1` by `y ..= y + rh + 1`, lie on the map.
        let overlaps = (y..=y + rh + 1).any(|yy| taken[index(x, yy)..=index(x + rw + 1, yy)].contains(&true));
        if !overlaps {
            rooms.push((x, y, rw, rh));
            for yy in y..=y + rh + 1 {
                taken[index(x, yy)..=index(x + rw + 1, yy)].fill(true);
            }
        }
    }
    // Cells inside a room (margins excluded), floored.
    let cells = &mut map.layers[0].cells;
    let mut in_room = vec![false; cells.len()];
    for &(x, y, rw, rh) in &rooms {
        for yy in y..y + rh {
            in_room[index(x, yy)..index(x + rw, yy)].fill(true);
            cells[index(x, yy)..index(x + rw, yy)].fill(STANDARD_FLOOR);
        }
    }
    // Corridors join each room to the next one placed, wherever it lies, so their length grows
    // as the cube of the map's side: about 0.5 s for 2048², 4–6 s for 4096² (MAX_MAP_SIDE), mostly
    // cache misses down the vertical legs.
    let mut path: Vec<usize> = Vec::new();
    for pair in rooms.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (ax, ay) = (a.0 + a.2 / 2, a.1 + a.3 / 2);
        let (bx, by) = (b.0 + b.2 / 2, b.1 + b.3 / 2);
        path.clear();
        let horizontal_first = rng.chance(0.5);
        let (cx, cy) = if horizontal_first { (bx, ay) } else { (ax, by) };
        // Two straight legs; the corner is on both.
        for (x0, y0, x1, y1) in [(ax, ay, cx, cy), (cx, cy, bx, by)] {
            let step = (x1 - x0).signum() + (y1 - y0).signum() * w;
            let steps = (x1 - x0).abs() + (y1 - y0).abs();
            let start = index(x0, y0) as isize;
            path.extend((0..=steps as isize).map(|i| (start + i * step as isize) as usize));
        }
        let room_at = |i: usize| path.get(i).is_some_and(|&c| in_room[c]);
        for (i, &c) in path.iter().enumerate() {
            if in_room[c] || cells[c] != STANDARD_WALL {
                continue;
            }
            // A doorway is a corridor cell next to a room along the path.
            let next_in_room = room_at(i + 1);
            let prev_in_room = i > 0 && room_at(i - 1);
            cells[c] = if (next_in_room || prev_in_room) && rng.chance(0.5) {
                if rng.chance(0.7) { STANDARD_CLOSED_DOOR } else { STANDARD_OPEN_DOOR }
            } else {
                STANDARD_FLOOR
            };
        }
    }
    let letters = ['g', 'o', 'r', 'k', 'j'];
    let mut objects = Vec::new();
    for (i, &(x, y, rw, rh)) in rooms.iter().enumerate() {
        let cell = Cell::new(x + rw / 2, y + rh / 2);
        if i == 0 {
            objects.push(MapObject::new(ObjectKind::PlayerStart, cell).named("player"));
        } else if rng.chance(0.4) {
            let glyph = letters[rng.below(letters.len() as u32) as usize];
            objects.push(
                MapObject::new(ObjectKind::Monster { glyph, vision_radius: DEFAULT_VISION_RADIUS }, cell)
                    .named(super::format::ascii::monster_name(glyph)),
            );
        }
    }
    // Drawn after everything above, so that the rooms, corridors and monsters of a seed are what
    // they were before rooms had lights and items (the benchmarks' maps come from here).
    for &(x, y, rw, rh) in &rooms {
        if rng.chance(0.3) {
            let cell = Cell::new(x, y + rh / 2);
            // From the west side to the farthest corner of the room.
            let far = f64::from(rw - 1).hypot(f64::from((rh / 2).max(rh - 1 - rh / 2)));
            objects.push(MapObject::new(ObjectKind::Light { radius: far.ceil() as u32 }, cell).named("light"));
        }
        if rng.chance(0.3) {
            objects.push(MapObject::new(ObjectKind::Item, Cell::new(x + rw - 1, y + rh - 1)).named("item"));
        }
    }
    // Reading order, as an ASCII map lists them, numbered in that order.
    objects.sort_by_key(|o| (o.cell.y, o.cell.x));
    for object in objects {
        map.add_object(object);
    }
    Ok(map)
}

/// Caves by cellular automaton: 45% random walls, then four rounds of "a cell is a wall when at
/// least 5 of the 9 cells around it (itself included) are walls" (the 4-5 rule).
pub fn caves(width: u32, height: u32, seed: u64) -> Result<Map, MapError> {
    let mut map = noise(width, height, 0.45, seed)?;
    let (w, h) = (width as i32, height as i32);
    for _ in 0..4 {
        let before = map.layers[0].cells.clone();
        for y in 0..h {
            for x in 0..w {
                let mut walls = 0;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let (nx, ny) = (x + dx, y + dy);
                        let wall =
                            nx < 0 || ny < 0 || nx >= w || ny >= h || before[(ny * w + nx) as usize] == STANDARD_WALL;
                        walls += i32::from(wall);
                    }
                }
                let t = if walls >= 5 { STANDARD_WALL } else { STANDARD_FLOOR };
                map.layers[0].cells[(y * w + x) as usize] = t;
            }
        }
    }
    Ok(map)
}
