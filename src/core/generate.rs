//! Seeded map generators, for sample maps, tests and benchmarks.

use super::error::MapError;
use super::geometry::Cell;
use super::map::Map;
use super::object::{DEFAULT_VISION_RADIUS, MapObject, ObjectKind};
use super::rng::Rng;
use super::tile::{STANDARD_CLOSED_DOOR, STANDARD_FLOOR, STANDARD_OPEN_DOOR, STANDARD_WALL};

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
/// the first room and a monster in some others.
pub fn dungeon(width: u32, height: u32, seed: u64) -> Result<Map, MapError> {
    let mut map = Map::new_standard(width, height, STANDARD_WALL)?;
    let mut rng = Rng::new(seed);
    let (w, h) = (width as i32, height as i32);
    let mut rooms: Vec<(i32, i32, i32, i32)> = Vec::new();
    let attempts = (width * height / 40).max(20);
    for _ in 0..attempts {
        if w < 8 || h < 8 {
            break;
        }
        let rw = rng.range(4, 12.min(w - 4));
        let rh = rng.range(3, 8.min(h - 4));
        let x = rng.range(1, w - rw - 2);
        let y = rng.range(1, h - rh - 2);
        let overlaps = rooms
            .iter()
            .any(|&(ox, oy, ow, oh)| x <= ox + ow + 1 && ox <= x + rw + 1 && y <= oy + oh + 1 && oy <= y + rh + 1);
        if !overlaps {
            rooms.push((x, y, rw, rh));
        }
    }
    let set = |map: &mut Map, x: i32, y: i32, t| {
        map.set_tile(0, Cell::new(x, y), t);
    };
    for &(x, y, rw, rh) in &rooms {
        for yy in y..y + rh {
            for xx in x..x + rw {
                set(&mut map, xx, yy, STANDARD_FLOOR);
            }
        }
    }
    let inside = |x: i32, y: i32, r: &(i32, i32, i32, i32)| x >= r.0 && x < r.0 + r.2 && y >= r.1 && y < r.1 + r.3;
    for pair in rooms.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (ax, ay) = (a.0 + a.2 / 2, a.1 + a.3 / 2);
        let (bx, by) = (b.0 + b.2 / 2, b.1 + b.3 / 2);
        let mut path = Vec::new();
        let horizontal_first = rng.chance(0.5);
        let (cx, cy) = if horizontal_first { (bx, ay) } else { (ax, by) };
        for (x0, y0, x1, y1) in [(ax, ay, cx, cy), (cx, cy, bx, by)] {
            let (mut x, mut y) = (x0, y0);
            loop {
                path.push((x, y));
                if (x, y) == (x1, y1) {
                    break;
                }
                x += (x1 - x).signum();
                y += (y1 - y).signum();
            }
        }
        for (i, &(x, y)) in path.iter().enumerate() {
            let in_room = rooms.iter().any(|r| inside(x, y, r));
            if in_room {
                continue;
            }
            // A doorway is a corridor cell next to a room along the path.
            let next_in_room = path.get(i + 1).is_some_and(|&(nx, ny)| rooms.iter().any(|r| inside(nx, ny, r)));
            let prev_in_room = i > 0 && rooms.iter().any(|r| inside(path[i - 1].0, path[i - 1].1, r));
            let tile = if (next_in_room || prev_in_room)
                && map.tile(0, Cell::new(x, y)) == Some(STANDARD_WALL)
                && rng.chance(0.5)
            {
                if rng.chance(0.7) { STANDARD_CLOSED_DOOR } else { STANDARD_OPEN_DOOR }
            } else {
                STANDARD_FLOOR
            };
            if map.tile(0, Cell::new(x, y)) == Some(STANDARD_WALL) {
                set(&mut map, x, y, tile);
            }
        }
    }
    let letters = ['g', 'o', 'r', 'k', 'j'];
    for (i, &(x, y, rw, rh)) in rooms.iter().enumerate() {
        let cell = Cell::new(x + rw / 2, y + rh / 2);
        if i == 0 {
            map.objects.push(MapObject::new(ObjectKind::PlayerStart, cell).named("player"));
        } else if rng.chance(0.4) {
            let glyph = letters[rng.below(letters.len() as u32) as usize];
            map.objects.push(
                MapObject::new(ObjectKind::Monster { glyph, vision_radius: DEFAULT_VISION_RADIUS }, cell)
                    .named(super::format::ascii::monster_name(glyph)),
            );
        }
    }
    // Reading order, as an ASCII map lists them.
    map.objects.sort_by_key(|o| (o.cell.y, o.cell.x));
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
