//! MovingAI grid benchmark maps (`.map`) and scenario files (`.scen`), as published with
//! Sturtevant's "Benchmarks for Grid-Based Pathfinding" (2012).
//!
//! Terrain characters: `.` and `G` ground, `S` swamp (both passable); `@` and `O` out of bounds,
//! `T` trees (impassable); `W` water (passable only from water; we treat it as impassable).
//! Trees and out-of-bounds also block sight here; the benchmark itself only defines passability.

use crate::core::model::error::{MapError, MapErrorKind};
use crate::core::model::geometry::Cell;
use crate::core::model::map::{self, Layer, Map};
use crate::core::model::tile::{Rgb, TileId, TileKind};

/// The terrain characters, in tile-id order (id = position + 1).
const TERRAIN: [char; 7] = ['.', 'G', '@', 'O', 'T', 'S', 'W'];

fn terrain_tiles() -> Vec<TileKind> {
    let ground_bg = Rgb(24, 24, 20);
    let mut tiles = vec![TileKind::empty()];
    tiles.push(TileKind::new("ground", '.', Rgb(120, 120, 100), ground_bg, false, true));
    tiles.push(TileKind::new("ground (G)", 'G', Rgb(120, 120, 100), ground_bg, false, true));
    tiles.push(TileKind::new("out of bounds", '@', Rgb(90, 90, 90), Rgb(50, 50, 50), true, false));
    tiles.push(TileKind::new("out of bounds (O)", 'O', Rgb(90, 90, 90), Rgb(50, 50, 50), true, false));
    tiles.push(TileKind::new("trees", 'T', Rgb(60, 170, 60), Rgb(16, 48, 16), true, false));
    tiles.push(TileKind::new("swamp", 'S', Rgb(120, 150, 90), Rgb(30, 44, 24), false, true));
    tiles.push(TileKind::new("water", 'W', Rgb(90, 150, 255), Rgb(20, 40, 90), false, false));
    tiles
}

fn header_value<'a>(line: Option<(usize, &'a str)>, key: &str) -> Result<(usize, &'a str), MapError> {
    let (n, l) = line.ok_or_else(|| MapError::syntax("MovingAI map", format!("the header ends before `{key}`")))?;
    let mut parts = l.split_whitespace();
    match (parts.next(), parts.next(), parts.next()) {
        (Some(k), Some(v), None) if k == key => Ok((n, v)),
        _ => Err(MapError::syntax("MovingAI map", format!("expected `{key} VALUE`, found {l:?}")).at_line(n + 1, None)),
    }
}

pub fn parse_map(text: &str) -> Result<Map, MapError> {
    let mut lines = text.lines().map(|l| l.strip_suffix('\r').unwrap_or(l)).enumerate();
    header_value(lines.next(), "type")?;
    let mut dims = [0i64; 2];
    for (slot, key) in [(0, "height"), (1, "width")] {
        let (n, v) = header_value(lines.next(), key)?;
        dims[slot] = v.parse().map_err(|_| {
            MapError::syntax("MovingAI map", format!("{key} {v:?} is not a whole number")).at_line(n + 1, None)
        })?;
    }
    let (width, height) = map::check_dimensions(dims[1], dims[0])?;
    match lines.next() {
        Some((_, "map")) => {}
        Some((n, l)) => {
            return Err(MapError::syntax("MovingAI map", format!("expected `map`, found {l:?}")).at_line(n + 1, None));
        }
        None => return Err(MapError::syntax("MovingAI map", "the header ends before `map`")),
    }
    let mut cells = Vec::with_capacity(width as usize * height as usize);
    let mut rows = 0;
    for (n, line) in lines {
        if rows == height as usize {
            if line.trim().is_empty() {
                continue;
            }
            return Err(MapError::syntax("MovingAI map", format!("more than the {height} rows the header gives"))
                .at_line(n + 1, None));
        }
        let before = cells.len();
        for (x, ch) in line.chars().enumerate() {
            let id = TERRAIN
                .iter()
                .position(|&c| c == ch)
                .ok_or_else(|| MapError::new(MapErrorKind::UnknownGlyph(ch)).at_line(n + 1, Some(x + 1)))?;
            cells.push((id + 1) as TileId);
        }
        if cells.len() - before != width as usize {
            return Err(MapError::new(MapErrorKind::DataLength {
                expected: width as usize,
                found: cells.len() - before,
            })
            .at_line(n + 1, None));
        }
        rows += 1;
    }
    if rows != height as usize {
        return Err(MapError::new(MapErrorKind::DataLength {
            expected: width as usize * height as usize,
            found: cells.len(),
        }));
    }
    let ground = Layer::with_cells("terrain", cells);
    Map::from_parts(width, height, terrain_tiles(), vec![ground], Vec::new(), Vec::new(), Vec::new(), 0)
}

/// Writes a map as a MovingAI `.map`. Tiles that came from one keep their character; others
/// become `.` when walkable, `@` when opaque, `W` otherwise.
pub fn map_to_string(map: &Map) -> (String, Vec<String>) {
    let mut warnings = Vec::new();
    let mut out = format!("type octile\nheight {}\nwidth {}\nmap\n", map.height(), map.width());
    let reference = terrain_tiles();
    let mut lossy_cost = false;
    // Cells whose meaning MovingAI's terrains cannot hold: doors, and cells that hide what is
    // behind them but can be walked through.
    let (mut doors, mut opaque_walkable) = (0, 0);
    for y in 0..map.height() as i32 {
        for x in 0..map.width() as i32 {
            let cell = Cell::new(x, y);
            let top = map.top_tile(cell).map(|(_, t)| &map.tiles[usize::from(t)]);
            let ch = match top {
                Some(t) if map.layers.len() == 1 && reference.contains(t) => t.glyph.ch,
                _ => {
                    let r = map.rules_at(cell);
                    lossy_cost |= r.walkable && r.cost != 1.0;
                    doors += usize::from(r.door.is_some());
                    opaque_walkable += usize::from(r.opaque && r.walkable && r.door.is_none());
                    if r.walkable {
                        '.'
                    } else if r.opaque {
                        '@'
                    } else {
                        'W'
                    }
                }
            };
            out.push(ch);
        }
        out.push('\n');
    }
    if doors > 0 {
        let (are, they) = if doors == 1 { ("door is", "it stands") } else { ("doors are", "they stand") };
        warnings.push(format!(
            "{doors} {are} written as {they}, closed as `@` and open as `.`: MovingAI maps have no doors"
        ));
    }
    if opaque_walkable > 0 {
        let (cells, block, turn) =
            if opaque_walkable == 1 { ("cell", "blocks", "becomes") } else { ("cells", "block", "become") };
        warnings.push(format!(
            "{opaque_walkable} {cells} that {block} sight but can be walked through {turn} ground `.`, which does \
             not block sight: MovingAI has no such terrain"
        ));
    }
    if lossy_cost {
        warnings.push("move costs other than 1 are not kept: MovingAI maps have unit costs".into());
    }
    if !map.objects.is_empty() {
        warnings.push(format!("{} objects are not kept: MovingAI maps have none", map.objects.len()));
    }
    warnings.extend(super::custom_data_warnings(map, "MovingAI"));
    let tiles: Vec<&str> = map.tiles.iter().filter(|t| !t.properties.is_empty()).map(|t| t.name.as_str()).collect();
    if !tiles.is_empty() {
        warnings.push(format!(
            "the custom properties of tile{} {} are not kept in MovingAI",
            if tiles.len() == 1 { "" } else { "s" },
            super::listed_names(&tiles)
        ));
    }
    (out, warnings)
}

/// One MovingAI scenario: a start, a goal and the optimal octile path length between them.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub bucket: u32,
    pub map: String,
    pub map_width: u32,
    pub map_height: u32,
    pub start: Cell,
    pub goal: Cell,
    pub optimal_length: f64,
}

/// Parses a `.scen` file (`version 1` header, then tab-separated rows).
pub fn parse_scenarios(text: &str) -> Result<Vec<Scenario>, MapError> {
    Ok(parse_rows(text)?.into_iter().map(|(_, scenario)| scenario).collect())
}

/// [`parse_scenarios`] for the map of `width × height` cells the scenarios are to run on: a row
/// written for a map of another size, or whose start or goal lies off this map, is an error that
/// names its line (a scenario file of another map, not a path to report missing).
pub fn parse_scenarios_for(text: &str, width: u32, height: u32) -> Result<Vec<Scenario>, MapError> {
    let rows = parse_rows(text)?;
    for (line, s) in &rows {
        let err = |m: String| MapError::invalid(m).at_line(*line, None);
        if (s.map_width, s.map_height) != (width, height) {
            return Err(err(format!(
                "the scenario is for a {}×{} map ({}), and this map is {width}×{height}",
                s.map_width, s.map_height, s.map
            )));
        }
        for (what, cell) in [("start", s.start), ("goal", s.goal)] {
            if !(0..width as i32).contains(&cell.x) || !(0..height as i32).contains(&cell.y) {
                return Err(err(format!("the {what} {cell} lies outside the {width}×{height} map")));
            }
        }
    }
    Ok(rows.into_iter().map(|(_, scenario)| scenario).collect())
}

/// The rows of a `.scen` file, each with its 1-based line number.
fn parse_rows(text: &str) -> Result<Vec<(usize, Scenario)>, MapError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || (n == 0 && line.starts_with("version")) {
            continue;
        }
        let err = |m: String| MapError::syntax("MovingAI scenario", m).at_line(n + 1, None);
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 9 {
            return Err(err(format!("expected 9 tab-separated fields, found {}", f.len())));
        }
        let int = |i: usize, what: &str| -> Result<i64, MapError> {
            f[i].trim().parse::<i64>().map_err(|_| err(format!("{what} {:?} is not a whole number", f[i])))
        };
        let small = |v: i64, what: &str| -> Result<i32, MapError> {
            i32::try_from(v).map_err(|_| err(format!("{what} {v} is out of range")))
        };
        let optimal: f64 =
            f[8].trim().parse().map_err(|_| err(format!("optimal length {:?} is not a number", f[8])))?;
        if !optimal.is_finite() || optimal < 0.0 {
            return Err(err(format!("optimal length {optimal} must be a number ≥ 0")));
        }
        out.push((
            n + 1,
            Scenario {
                bucket: u32::try_from(int(0, "bucket")?).map_err(|_| err("bucket must be ≥ 0".into()))?,
                map: f[1].to_owned(),
                map_width: u32::try_from(int(2, "map width")?).map_err(|_| err("map width must be ≥ 0".into()))?,
                map_height: u32::try_from(int(3, "map height")?).map_err(|_| err("map height must be ≥ 0".into()))?,
                start: Cell::new(small(int(4, "start x")?, "start x")?, small(int(5, "start y")?, "start y")?),
                goal: Cell::new(small(int(6, "goal x")?, "goal x")?, small(int(7, "goal y")?, "goal y")?),
                optimal_length: optimal,
            },
        ));
    }
    Ok(out)
}

/// Writes scenarios in the `.scen` format.
pub fn scenarios_to_string(scenarios: &[Scenario]) -> String {
    let mut out = String::from("version 1\n");
    for s in scenarios {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.8}\n",
            s.bucket, s.map, s.map_width, s.map_height, s.start.x, s.start.y, s.goal.x, s.goal.y, s.optimal_length
        ));
    }
    out
}
