//! Tiled's terrain brush: painting a terrain (a colour of a [Wang set](crate::core::model::wang)) on cells,
//! each painted cell getting a tile of that terrain all over and the cells around it the
//! transition tiles that join it to what they were.
//!
//! Definition. The map's corners and edges (shared by the cells that meet there) carry colours;
//! a tile's `wangid` says the colour of each of its corners and edges. Painting a cell gives its
//! corners (a corner set), its edges (an edge set) or both (a mixed set) the brush's colour.
//! Going outward from the painted parts, a part of a cell next to a given one whose colour no
//! tile of the set has together with the given colour is given the next colour on the shortest
//! way between the two through colours that tiles do join (up to 8 parts out): water painted
//! beside dark dirt puts a rim of grass between them when the set joins water to grass and
//! grass to dark dirt but has no water-and-dark-dirt tile. Then every cell with a part given a
//! colour that belongs to the terrain (its tile is in the set), and every painted cell, gets the
//! tile that best matches what each of its parts should be: a given part its colour, any other
//! the colour its tile had there (a part of colour 0, or of a cell whose tile is not in the
//! set, matches anything). Best is
//! fewest mismatched painted parts, then fewest mismatched other parts; among equals, one is
//! drawn by the tiles' probabilities times their colours' (Tiled's random choice), and a cell
//! whose tile already matches keeps it. So with a complete set (a tile for every combination)
//! every shared corner and edge stays one colour, as in Tiled; with an incomplete one the
//! brush does the best the set allows.
//!
//! Source: Tiled's manual, "Using Terrains" (<https://doc.mapeditor.org/en/stable/manual/terrain/>),
//! and its `WangFiller`, which enlarges the region it changes in the same way when no tile fits
//! (its search differs; where no way joins two colours this brush takes the nearest fit).

use std::collections::{BTreeSet, HashMap, VecDeque};

use crate::core::model::flip::Flip;
use crate::core::model::geometry::Cell;
use crate::core::model::map::Map;
use crate::core::model::tile::TileId;
use crate::core::model::wang::WangKind;
use crate::core::rng::Rng;

/// Which terrain the brush paints: a colour (1-based, as in a `wangid`) of Wang set `set` of
/// sprite sheet `sheet`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TerrainBrush {
    pub sheet: usize,
    pub set: usize,
    pub color: u8,
}

/// A corner or an edge of the map's grid, shared by the cells that meet there: what a Wang
/// set colours, and what the terrain brush paints one at a time (Tiled's terrain brush paints
/// the corner or edge nearest the pointer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// The corner at the top-left of cell (x, y).
    Corner(i32, i32),
    /// The top edge of cell (x, y).
    TopEdge(i32, i32),
    /// The left edge of cell (x, y).
    LeftEdge(i32, i32),
}

impl Part {
    /// The part a set of `kind` colours that is nearest the grid point (`x`, `y`), in cells
    /// from the map's top-left corner: the nearest corner for a corner set, the nearest edge
    /// (by its middle) for an edge set, whichever of the two is nearer for a mixed set, as
    /// Tiled's terrain brush picks what it paints.
    pub fn nearest(kind: WangKind, x: f32, y: f32) -> Part {
        let (cx, cy) = (x.floor(), y.floor());
        let (fx, fy) = (x - cx, y - cy);
        let (cx, cy) = (cx as i32, cy as i32);
        let corner = || (Part::Corner(x.round() as i32, y.round() as i32), (fx.min(1.0 - fx)).hypot(fy.min(1.0 - fy)));
        let edge = || {
            // The four edges of the cell under the point, by the distance to their middles.
            let edges = [
                (Part::TopEdge(cx, cy), (fx - 0.5).hypot(fy)),
                (Part::TopEdge(cx, cy + 1), (fx - 0.5).hypot(1.0 - fy)),
                (Part::LeftEdge(cx, cy), fx.hypot(fy - 0.5)),
                (Part::LeftEdge(cx + 1, cy), (1.0 - fx).hypot(fy - 0.5)),
            ];
            edges.into_iter().min_by(|a, b| a.1.total_cmp(&b.1)).expect("four edges")
        };
        match kind {
            WangKind::Corner => corner().0,
            WangKind::Edge => edge().0,
            WangKind::Mixed => {
                let (c, e) = (corner(), edge());
                if c.1 <= e.1 { c.0 } else { e.0 }
            }
        }
    }

    /// The cells it belongs to that lie on a `width` × `height` map.
    pub fn cells_on_map(self, width: u32, height: u32) -> impl Iterator<Item = Cell> {
        let on_map = move |c: &Cell| c.x >= 0 && c.y >= 0 && (c.x as u32) < width && (c.y as u32) < height;
        cells_touching(self).into_iter().map(|(c, _)| c).filter(on_map)
    }
}

/// The part at `wangid` index `i` of cell `c` (top, top-right, right, bottom-right, bottom,
/// bottom-left, left, top-left).
fn part_of(c: Cell, i: usize) -> Part {
    let (x, y) = (c.x, c.y);
    match i {
        0 => Part::TopEdge(x, y),
        1 => Part::Corner(x + 1, y),
        2 => Part::LeftEdge(x + 1, y),
        3 => Part::Corner(x + 1, y + 1),
        4 => Part::TopEdge(x, y + 1),
        5 => Part::Corner(x, y + 1),
        6 => Part::LeftEdge(x, y),
        _ => Part::Corner(x, y),
    }
}

/// The `wangid` indices a kind of set colours.
fn indices(kind: WangKind) -> &'static [usize] {
    match kind {
        WangKind::Corner => &[1, 3, 5, 7],
        WangKind::Edge => &[0, 2, 4, 6],
        WangKind::Mixed => &[0, 1, 2, 3, 4, 5, 6, 7],
    }
}

/// Why a terrain cannot be painted.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum TerrainError {
    #[error("there is no Wang set {set} in tileset {sheet}")]
    NoSuchSet { sheet: usize, set: usize },
    #[error("the Wang set has no colour {0}")]
    NoSuchColor(u8),
    #[error("no tile of the Wang set is a tile type of this map")]
    NoTiles,
    #[error("the region has {0} cells; a terrain is laid on at most {MAX_TERRAIN_CELLS} at once")]
    TooManyCells(usize),
}

/// Most cells a terrain is laid on at once (a 1024 × 1024 region): the plan keeps an entry for
/// each painted corner and edge, and a whole map of the largest size would take gigabytes.
pub const MAX_TERRAIN_CELLS: usize = 1 << 20;

/// Paints `brush`'s terrain on `cells` of `layer` (out-of-bounds cells are skipped) and fits
/// the cells around them; returns how many cells changed.
pub fn paint_terrain(
    map: &mut Map,
    layer: usize,
    brush: TerrainBrush,
    cells: &[Cell],
    rng: &mut Rng,
) -> Result<usize, TerrainError> {
    let planned = plan_terrain(map, layer, brush, cells, rng)?;
    Ok(planned.into_iter().filter(|&(cell, tile)| map.set_flipped_tile(layer, cell, tile, Flip::NONE)).count())
}

/// The tiles [`paint_terrain`] would put, cell by cell (only cells that would change), without
/// painting them: the editor previews them under the pointer. With the same `rng` state, it
/// plans what the paint then does.
pub fn plan_terrain(
    map: &Map,
    layer: usize,
    brush: TerrainBrush,
    cells: &[Cell],
    rng: &mut Rng,
) -> Result<Vec<(Cell, TileId)>, TerrainError> {
    if cells.len() > MAX_TERRAIN_CELLS {
        return Err(TerrainError::TooManyCells(cells.len()));
    }
    let kind = terrain_set(map, brush)?.kind;
    let painted_cells: BTreeSet<Cell> = cells.iter().copied().filter(|&c| map.in_bounds(c)).collect();
    let painted: Vec<Part> =
        painted_cells.iter().flat_map(|&c| indices(kind).iter().map(move |&i| part_of(c, i))).collect();
    plan(map, layer, brush, &painted, &painted_cells, rng)
}

/// Paints `brush`'s terrain on the corners and edges `parts` of `layer` (those the set does not
/// colour, or off the map, are skipped) and fits the cells around them, as Tiled's terrain brush
/// paints the corner or edge nearest the pointer; returns how many cells changed. The cells a
/// painted part belongs to take terrain tiles whatever they held.
pub fn paint_terrain_parts(
    map: &mut Map,
    layer: usize,
    brush: TerrainBrush,
    parts: &[Part],
    rng: &mut Rng,
) -> Result<usize, TerrainError> {
    let planned = plan_terrain_parts(map, layer, brush, parts, rng)?;
    Ok(planned.into_iter().filter(|&(cell, tile)| map.set_flipped_tile(layer, cell, tile, Flip::NONE)).count())
}

/// The tiles [`paint_terrain_parts`] would put, without painting them.
pub fn plan_terrain_parts(
    map: &Map,
    layer: usize,
    brush: TerrainBrush,
    parts: &[Part],
    rng: &mut Rng,
) -> Result<Vec<(Cell, TileId)>, TerrainError> {
    if parts.len() > MAX_TERRAIN_CELLS {
        return Err(TerrainError::TooManyCells(parts.len()));
    }
    let kind = terrain_set(map, brush)?.kind;
    let coloured = |p: &Part| match p {
        Part::Corner(..) => kind != WangKind::Edge,
        Part::TopEdge(..) | Part::LeftEdge(..) => kind != WangKind::Corner,
    };
    let painted: Vec<Part> = parts
        .iter()
        .copied()
        .filter(coloured)
        .filter(|p| p.cells_on_map(map.width(), map.height()).next().is_some())
        .collect();
    let painted_cells = painted.iter().flat_map(|p| p.cells_on_map(map.width(), map.height())).collect();
    plan(map, layer, brush, &painted, &painted_cells, rng)
}

/// Brush `brush`'s Wang set.
fn terrain_set(map: &Map, brush: TerrainBrush) -> Result<&crate::core::model::wang::WangSet, TerrainError> {
    map.sheets
        .get(brush.sheet)
        .and_then(|s| s.wang_sets.get(brush.set))
        .ok_or(TerrainError::NoSuchSet { sheet: brush.sheet, set: brush.set })
}

/// The plan: `painted` parts take the brush's colour, and the cells they belong to
/// (`painted_cells`, which take terrain tiles whatever they held) and the terrain's cells around
/// are fitted (the module's definition).
fn plan(
    map: &Map,
    layer: usize,
    brush: TerrainBrush,
    painted: &[Part],
    painted_cells: &BTreeSet<Cell>,
    rng: &mut Rng,
) -> Result<Vec<(Cell, TileId)>, TerrainError> {
    let set = terrain_set(map, brush)?;
    if brush.color == 0 || usize::from(brush.color) > set.colors.len() {
        return Err(TerrainError::NoSuchColor(brush.color));
    }
    let parts = indices(set.kind);
    // The map's tile type for each of the set's tiles, with the weight of its random choice.
    let mut kind_of_index: HashMap<u32, TileId> = HashMap::new();
    for (id, t) in map.tiles.iter().enumerate().skip(1) {
        if let Some(s) = t.sprite.filter(|s| usize::from(s.sheet) == brush.sheet) {
            kind_of_index.entry(s.index).or_insert(id as TileId);
        }
    }
    let color_weight =
        |c: u8| c.checked_sub(1).and_then(|c| set.colors.get(usize::from(c))).map_or(1.0, |c| c.probability);
    let candidates: Vec<(TileId, [u8; 8], f64)> = set
        .tiles
        .iter()
        .filter_map(|(index, id)| {
            let tile = *kind_of_index.get(index)?;
            let weight = f64::from(map.tiles[usize::from(tile)].probability)
                * parts.iter().map(|&i| color_weight(id[i])).product::<f64>();
            Some((tile, *id, weight))
        })
        .collect();
    if candidates.is_empty() {
        return Err(TerrainError::NoTiles);
    }
    let wang_id_of: HashMap<TileId, [u8; 8]> = candidates.iter().map(|&(t, id, _)| (t, id)).collect();

    // The colour each part is given: the painted ones the brush's, then, outward from them,
    // any part whose colour no tile of the set joins to its neighbour's gets the next colour
    // on the way to it (water beside dark dirt becomes grass, if the set joins water to grass
    // and grass to dark dirt), as far as `MAX_BRIDGE` parts out.
    let mut given: HashMap<Part, u8> = HashMap::new();
    let mut queue = VecDeque::new();
    for &p in painted {
        if given.insert(p, brush.color).is_none() {
            queue.push_back((p, 0));
        }
    }
    let colors = set.colors.len();
    let next_step = bridges(colors, &candidates, parts);
    let color_now = |q: Part| -> u8 {
        cells_touching(q)
            .into_iter()
            .filter_map(|(c, i)| wang_id_of.get(&map.tile(layer, c)?).map(|id| id[i]))
            .find(|&color| color != 0)
            .unwrap_or(0)
    };
    while let Some((p, depth)) = queue.pop_front() {
        if depth >= MAX_BRIDGE {
            continue;
        }
        let cp = given[&p];
        for (cell, _) in cells_touching(p) {
            if !map.in_bounds(cell) {
                continue;
            }
            for &j in parts {
                let q = part_of(cell, j);
                if given.contains_key(&q) {
                    continue;
                }
                let cq = color_now(q);
                if cq == 0 || cq == cp {
                    continue;
                }
                if let Some(step) = next_step[usize::from(cp)][usize::from(cq)].filter(|&s| s != cq) {
                    given.insert(q, step);
                    queue.push_back((q, depth + 1));
                }
            }
        }
    }
    // Every cell with a part given a colour.
    let mut affected = BTreeSet::new();
    for &q in given.keys() {
        affected.extend(cells_touching(q).into_iter().map(|(c, _)| c).filter(|&c| map.in_bounds(c)));
    }

    let mut planned = Vec::new();
    for cell in affected {
        let Some((tile, flip)) = map.flipped_tile(layer, cell) else { continue };
        let current = wang_id_of.get(&tile).copied();
        // A cell around the painted ones joins in only if it is part of the terrain.
        if current.is_none() && !painted_cells.contains(&cell) {
            continue;
        }
        let mut wanted = [0u8; 8];
        let mut hard = [false; 8];
        for &i in parts {
            if let Some(&color) = given.get(&part_of(cell, i)) {
                (wanted[i], hard[i]) = (color, true);
            } else if let Some(id) = current {
                wanted[i] = id[i];
            }
        }
        let misfit = |id: &[u8; 8]| -> (usize, usize) {
            let wrong = |i: &&usize| wanted[**i] != 0 && id[**i] != wanted[**i];
            let hard_misses = parts.iter().filter(|i| hard[**i]).filter(wrong).count();
            (hard_misses, parts.iter().filter(|i| !hard[**i]).filter(wrong).count())
        };
        if current.is_some_and(|id| misfit(&id) == (0, 0)) && flip == Flip::NONE {
            continue;
        }
        let best = candidates.iter().map(|(_, id, _)| misfit(id)).min().expect("candidates is not empty");
        let fits: Vec<&(TileId, [u8; 8], f64)> = candidates.iter().filter(|(_, id, _)| misfit(id) == best).collect();
        let chosen = pick_weighted(&fits, rng);
        if (tile, flip) != (chosen, Flip::NONE) {
            planned.push((cell, chosen));
        }
    }
    Ok(planned)
}

/// How many parts out from the painted ones a bridging colour may be given.
const MAX_BRIDGE: u32 = 8;

/// The cells a part belongs to, with its `wangid` index in each (some may be off the map).
fn cells_touching(q: Part) -> Vec<(Cell, usize)> {
    match q {
        Part::Corner(x, y) => {
            vec![(Cell::new(x - 1, y - 1), 3), (Cell::new(x, y - 1), 5), (Cell::new(x - 1, y), 1), (Cell::new(x, y), 7)]
        }
        Part::TopEdge(x, y) => vec![(Cell::new(x, y - 1), 4), (Cell::new(x, y), 0)],
        Part::LeftEdge(x, y) => vec![(Cell::new(x - 1, y), 2), (Cell::new(x, y), 6)],
    }
}

/// For colours `a` and `b` (1-based), the first colour after `a` on the shortest way from `a`
/// to `b`, each step between two colours that some tile of the set has together; `None` when
/// there is no way, `Some(b)` when a tile joins them.
fn bridges(colors: usize, candidates: &[(TileId, [u8; 8], f64)], parts: &[usize]) -> Vec<Vec<Option<u8>>> {
    let n = colors + 1;
    let mut joined = vec![vec![false; n]; n];
    for (_, id, _) in candidates {
        for &i in parts {
            for &j in parts {
                let (a, b) = (usize::from(id[i]), usize::from(id[j]));
                if a != 0 && b != 0 && a < n && b < n {
                    joined[a][b] = true;
                }
            }
        }
    }
    let mut next = vec![vec![None; n]; n];
    for from in 1..n {
        // Breadth-first from `from`, remembering each colour's first step.
        let mut first: Vec<Option<u8>> = vec![None; n];
        let mut queue = VecDeque::new();
        for b in 1..n {
            if b != from && joined[from][b] {
                first[b] = Some(b as u8);
                queue.push_back(b);
            }
        }
        while let Some(c) = queue.pop_front() {
            for b in 1..n {
                if b != from && first[b].is_none() && joined[c][b] {
                    first[b] = first[c];
                    queue.push_back(b);
                }
            }
        }
        next[from] = first;
    }
    next
}

/// One of `fits` drawn by weight (uniformly when no weight is above 0).
fn pick_weighted(fits: &[&(TileId, [u8; 8], f64)], rng: &mut Rng) -> TileId {
    let total: f64 = fits.iter().map(|f| f.2.max(0.0)).sum();
    if total <= 0.0 {
        return fits[rng.below(fits.len() as u32) as usize].0;
    }
    let mut at = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for f in fits {
        at -= f.2.max(0.0);
        if at < 0.0 {
            return f.0;
        }
    }
    fits.iter().rev().find(|f| f.2 > 0.0).expect("a weight is above 0").0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::sheet::SpriteSheet;
    use crate::core::model::tile::{Properties, Rgb, Rgba, Sprite, TileKind};
    use crate::core::model::wang::{WangColor, WangSet};
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    const GRASS: u8 = 1;
    const SAND: u8 = 2;

    /// A `width × height` map of one tileset whose Wang set of `kind` has grass and sand and a
    /// tile for every combination of its parts (local index = the combination's bits), all
    /// grass at first. `keep` filters the combinations the set lists.
    fn terrain_map(kind: WangKind, width: u32, height: u32, keep: impl Fn(&[u8; 8]) -> bool) -> Map {
        let parts = indices(kind);
        let mut tiles = vec![TileKind::new("empty", ' ', Rgb(0, 0, 0), Rgb(0, 0, 0), false, true)];
        let mut wang_tiles = BTreeMap::new();
        for bits in 0..1u32 << parts.len() {
            let mut id = [0u8; 8];
            for (k, &i) in parts.iter().enumerate() {
                id[i] = if bits >> k & 1 == 1 { SAND } else { GRASS };
            }
            if !keep(&id) {
                continue;
            }
            wang_tiles.insert(bits, id);
            let mut t = TileKind::new(&format!("t{bits}"), '.', Rgb(0, 0, 0), Rgb(0, 0, 0), false, true);
            t.sprite = Some(Sprite { sheet: 0, index: bits });
            tiles.push(t);
        }
        let color = |name: &str| WangColor {
            name: name.into(),
            class: String::new(),
            color: Rgba(0, 0, 0, 255),
            tile: None,
            probability: 1.0,
            properties: Properties::new(),
        };
        let set = WangSet {
            name: "ground".into(),
            class: String::new(),
            kind,
            tile: None,
            colors: vec![color("grass"), color("sand")],
            tiles: wang_tiles,
            properties: Properties::new(),
        };
        let sheet = SpriteSheet {
            name: "ground".into(),
            class: String::new(),
            image: PathBuf::from("ground.png"),
            tile_width: 8,
            tile_height: 8,
            columns: 4,
            tile_count: 1 << parts.len(),
            spacing: 0,
            margin: 0,
            transparent: None,
            offset: [0, 0],
            wang_sets: vec![set],
            drawing: Default::default(),
            properties: Properties::new(),
            file: None,
        };
        let grass = tiles.iter().position(|t| t.sprite.is_some_and(|s| s.index == 0)).unwrap() as TileId;
        let ground = crate::core::Layer::filled("ground", (width * height) as usize, grass);
        Map::from_parts(width, height, tiles, vec![ground], Vec::new(), Vec::new(), vec![sheet], 0).unwrap()
    }

    fn wang_id(map: &Map, c: Cell) -> [u8; 8] {
        let t = map.tile(0, c).unwrap();
        let index = map.tiles[usize::from(t)].sprite.unwrap().index;
        map.sheets[0].wang_sets[0].tiles[&index]
    }

    /// The colour of every corner of a corner-set map ('g' grass, 's' sand), one row of
    /// corners a line; panics if two cells meeting at a corner disagree on it.
    fn corners(map: &Map) -> String {
        let (w, h) = (map.width() as i32, map.height() as i32);
        let mut out = String::new();
        for y in 0..=h {
            for x in 0..=w {
                let mut seen = BTreeSet::new();
                for (cx, cy, i) in [(x - 1, y - 1, 3), (x, y - 1, 5), (x - 1, y, 1), (x, y, 7)] {
                    if (0..w).contains(&cx) && (0..h).contains(&cy) {
                        seen.insert(wang_id(map, Cell::new(cx, cy))[i]);
                    }
                }
                assert_eq!(seen.len(), 1, "cells meeting at corner ({x}, {y}) disagree: {seen:?}");
                out.push(if seen.contains(&SAND) { 's' } else { 'g' });
            }
            out.push('\n');
        }
        out
    }

    #[test]
    fn sand_painted_on_grass_gets_transitions_all_around() {
        let mut map = terrain_map(WangKind::Corner, 5, 4, |_| true);
        let brush = TerrainBrush { sheet: 0, set: 0, color: SAND };
        let changed = paint_terrain(&mut map, 0, brush, &[Cell::new(2, 1)], &mut Rng::new(1)).unwrap();
        assert_eq!(changed, 9, "the cell and its eight neighbours");
        assert_eq!(
            corners(&map),
            "gggggg\n\
             ggssgg\n\
             ggssgg\n\
             gggggg\n\
             gggggg\n"
        );
        // A second cell beside it: the two make one patch, still joined to the grass.
        paint_terrain(&mut map, 0, brush, &[Cell::new(3, 1), Cell::new(3, 2)], &mut Rng::new(1)).unwrap();
        assert_eq!(
            corners(&map),
            "gggggg\n\
             ggsssg\n\
             ggsssg\n\
             gggssg\n\
             gggggg\n"
        );
        // Painted back, the grass is whole again.
        let grass = TerrainBrush { color: GRASS, ..brush };
        let cells: Vec<Cell> = (0..4).flat_map(|y| (0..5).map(move |x| Cell::new(x, y))).collect();
        paint_terrain(&mut map, 0, grass, &cells, &mut Rng::new(1)).unwrap();
        assert!(corners(&map).chars().all(|c| c != 's'));
        assert_eq!(paint_terrain(&mut map, 0, grass, &cells, &mut Rng::new(1)), Ok(0), "nothing left to change");
    }

    #[test]
    fn one_corner_painted_changes_the_four_cells_that_meet_there() {
        let mut map = terrain_map(WangKind::Corner, 5, 4, |_| true);
        let brush = TerrainBrush { sheet: 0, set: 0, color: SAND };
        let changed = paint_terrain_parts(&mut map, 0, brush, &[Part::Corner(2, 2)], &mut Rng::new(1)).unwrap();
        assert_eq!(changed, 4);
        assert_eq!(
            corners(&map),
            "gggggg\n\
             gggggg\n\
             ggsggg\n\
             gggggg\n\
             gggggg\n"
        );
        // The corner beside it: the two make a patch one corner high.
        paint_terrain_parts(&mut map, 0, brush, &[Part::Corner(3, 2)], &mut Rng::new(1)).unwrap();
        assert_eq!(
            corners(&map),
            "gggggg\n\
             gggggg\n\
             ggssgg\n\
             gggggg\n\
             gggggg\n"
        );
        // A corner on the map's edge belongs to two cells, the map's corner to one; an edge is
        // not what a corner set colours, and a corner off the map is nothing.
        assert_eq!(paint_terrain_parts(&mut map, 0, brush, &[Part::Corner(0, 2)], &mut Rng::new(1)), Ok(2));
        assert_eq!(paint_terrain_parts(&mut map, 0, brush, &[Part::Corner(5, 4)], &mut Rng::new(1)), Ok(1));
        let none = [Part::TopEdge(1, 1), Part::Corner(7, 1), Part::Corner(-1, 0)];
        assert_eq!(paint_terrain_parts(&mut map, 0, brush, &none, &mut Rng::new(1)), Ok(0));
        assert_eq!(
            corners(&map),
            "gggggg\n\
             gggggg\n\
             sgssgg\n\
             gggggg\n\
             gggggs\n"
        );
    }

    #[test]
    fn the_brush_paints_the_part_nearest_the_pointer_that_its_set_colours() {
        // The pointer a little up and left of cell (2, 3)'s middle-left.
        let (x, y) = (2.1, 3.4);
        assert_eq!(Part::nearest(WangKind::Corner, x, y), Part::Corner(2, 3));
        assert_eq!(Part::nearest(WangKind::Edge, x, y), Part::LeftEdge(2, 3));
        assert_eq!(Part::nearest(WangKind::Mixed, x, y), Part::LeftEdge(2, 3));
        // Near a corner, a mixed set paints the corner; near a bottom edge's middle, the edge.
        assert_eq!(Part::nearest(WangKind::Mixed, 2.95, 3.9), Part::Corner(3, 4));
        assert_eq!(Part::nearest(WangKind::Mixed, 2.5, 3.9), Part::TopEdge(2, 4));
        assert_eq!(Part::nearest(WangKind::Edge, 2.5, 3.9), Part::TopEdge(2, 4));
        assert_eq!(Part::nearest(WangKind::Corner, 2.5, 3.9), Part::Corner(3, 4), "ties round up");
        assert_eq!(Part::LeftEdge(2, 3).cells_on_map(3, 4).collect::<Vec<_>>(), [Cell::new(1, 3), Cell::new(2, 3)]);
        assert_eq!(Part::Corner(0, 0).cells_on_map(3, 4).collect::<Vec<_>>(), [Cell::new(0, 0)]);
    }

    #[test]
    fn edge_sets_paint_edges_and_touch_only_the_four_neighbours() {
        let mut map = terrain_map(WangKind::Edge, 3, 3, |_| true);
        let brush = TerrainBrush { sheet: 0, set: 0, color: SAND };
        assert_eq!(paint_terrain(&mut map, 0, brush, &[Cell::new(1, 1)], &mut Rng::new(1)), Ok(5));
        assert_eq!(wang_id(&map, Cell::new(1, 1)), [SAND, 0, SAND, 0, SAND, 0, SAND, 0]);
        // The cell above has sand on its bottom edge only; the corner cells are untouched.
        assert_eq!(wang_id(&map, Cell::new(1, 0)), [GRASS, 0, GRASS, 0, SAND, 0, GRASS, 0]);
        assert_eq!(wang_id(&map, Cell::new(0, 0)), [GRASS, 0, GRASS, 0, GRASS, 0, GRASS, 0]);
    }

    #[test]
    fn random_strokes_on_a_complete_set_keep_every_corner_one_colour() {
        let mut map = terrain_map(WangKind::Corner, 12, 9, |_| true);
        let mut rng = Rng::new(7);
        for _ in 0..300 {
            let cell = Cell::new(rng.range(0, 11), rng.range(0, 8));
            let color = if rng.chance(0.5) { SAND } else { GRASS };
            paint_terrain(&mut map, 0, TerrainBrush { sheet: 0, set: 0, color }, &[cell], &mut rng).unwrap();
            corners(&map);
        }
    }

    #[test]
    fn an_incomplete_set_still_gives_the_painted_cell_its_terrain() {
        // No tile has sand on exactly one corner: the neighbours fit as well as they can.
        let mut map = terrain_map(WangKind::Corner, 3, 3, |id| id.iter().filter(|&&c| c == SAND).count() != 1);
        let brush = TerrainBrush { sheet: 0, set: 0, color: SAND };
        paint_terrain(&mut map, 0, brush, &[Cell::new(1, 1)], &mut Rng::new(1)).unwrap();
        assert_eq!(wang_id(&map, Cell::new(1, 1)), [0, SAND, 0, SAND, 0, SAND, 0, SAND]);
        // The cell above shares two sand corners, which its tile has.
        assert_eq!(wang_id(&map, Cell::new(1, 0)), [0, GRASS, 0, SAND, 0, SAND, 0, GRASS]);
        // A bad brush is an error, not a panic.
        let bad = TerrainBrush { color: 3, ..brush };
        assert_eq!(
            paint_terrain(&mut map, 0, bad, &[Cell::new(0, 0)], &mut Rng::new(1)),
            Err(TerrainError::NoSuchColor(3))
        );
        let too_many = vec![Cell::new(0, 0); MAX_TERRAIN_CELLS + 1];
        assert_eq!(
            paint_terrain(&mut map, 0, brush, &too_many, &mut Rng::new(1)),
            Err(TerrainError::TooManyCells(MAX_TERRAIN_CELLS + 1))
        );
        let bad = TerrainBrush { set: 1, ..brush };
        assert!(matches!(paint_terrain(&mut map, 0, bad, &[], &mut Rng::new(1)), Err(TerrainError::NoSuchSet { .. })));
    }

    #[test]
    fn a_rim_of_the_colour_between_joins_two_terrains_no_tile_joins() {
        // Colours 1, 2, 3: a tile for every mix of 1 and 2 corners and of 2 and 3 corners, none
        // mixing 1 and 3. The map is all 3; 1 painted in the middle gets a rim of 2.
        const ONE: u8 = 1;
        let mut map = terrain_map(WangKind::Corner, 5, 5, |_| true);
        let set = &mut map.sheets[0].wang_sets[0];
        set.colors.push(set.colors[1].clone());
        // Indices 0..16 mix 1 and 2; 16..32 mix 2 and 3 (`terrain_map` made 1/2 tiles).
        let mixes_2_and_3: Vec<(u32, [u8; 8])> =
            set.tiles.iter().map(|(&k, id)| (k + 16, id.map(|c| if c == 0 { 0 } else { c + 1 }))).collect();
        set.tiles.extend(mixes_2_and_3.iter().copied());
        map.sheets[0].tile_count = 32;
        for (index, _) in &mixes_2_and_3 {
            let mut t = TileKind::new(&format!("t{index}"), '.', Rgb(0, 0, 0), Rgb(0, 0, 0), false, true);
            t.sprite = Some(Sprite { sheet: 0, index: *index });
            map.tiles.push(t);
        }
        let all_three = map.tiles.iter().position(|t| t.sprite.is_some_and(|s| s.index == 31)).unwrap() as TileId;
        let cells: Vec<Cell> = (0..5).flat_map(|y| (0..5).map(move |x| Cell::new(x, y))).collect();
        crate::core::edit::paint(&mut map, 0, &cells, all_three);
        paint_terrain(&mut map, 0, TerrainBrush { sheet: 0, set: 0, color: ONE }, &[Cell::new(2, 2)], &mut Rng::new(1))
            .unwrap();
        let corner_digits = |map: &Map| -> String {
            (0..=5)
                .map(|y| {
                    (0..=5)
                        .map(|x| {
                            let colors: BTreeSet<u8> = cells_touching(Part::Corner(x, y))
                                .into_iter()
                                .filter(|(c, _)| map.in_bounds(*c))
                                .map(|(c, i)| wang_id(map, c)[i])
                                .collect();
                            assert_eq!(colors.len(), 1, "cells meeting at corner ({x}, {y}) disagree: {colors:?}");
                            char::from(b'0' + colors.first().unwrap())
                        })
                        .collect::<String>()
                        + "\n"
                })
                .collect()
        };
        assert_eq!(
            corner_digits(&map),
            "333333\n\
             322223\n\
             321123\n\
             321123\n\
             322223\n\
             333333\n"
        );
    }

    #[test]
    fn equally_fitting_tiles_are_drawn_by_their_probability() {
        // Two more all-grass tiles: one never drawn (probability 0), one as often as the first.
        let mut map = terrain_map(WangKind::Corner, 8, 8, |_| true);
        for (index, probability) in [(100, 0.0), (101, 1.0)] {
            map.sheets[0].wang_sets[0].tiles.insert(index, [0, GRASS, 0, GRASS, 0, GRASS, 0, GRASS]);
            let mut t = TileKind::new("grass variant", '.', Rgb(0, 0, 0), Rgb(0, 0, 0), false, true);
            (t.sprite, t.probability) = (Some(Sprite { sheet: 0, index }), probability);
            map.tiles.push(t);
        }
        let cells: Vec<Cell> = (0..8).flat_map(|y| (0..8).map(move |x| Cell::new(x, y))).collect();
        let mut rng = Rng::new(3);
        paint_terrain(&mut map, 0, TerrainBrush { sheet: 0, set: 0, color: SAND }, &cells, &mut rng).unwrap();
        paint_terrain(&mut map, 0, TerrainBrush { sheet: 0, set: 0, color: GRASS }, &cells, &mut rng).unwrap();
        let index_at = |c: Cell| map.tiles[usize::from(map.tile(0, c).unwrap())].sprite.unwrap().index;
        let drawn: BTreeSet<u32> = cells.iter().map(|&c| index_at(c)).collect();
        assert_eq!(drawn, [0, 101].into(), "all grass, by both variants drawn, never the one of probability 0");
    }

    #[test]
    fn cells_outside_the_terrain_are_left_alone_and_painted_ones_join_it() {
        let mut map = terrain_map(WangKind::Corner, 3, 1, |_| true);
        // The right-hand cell is empty (not in the set): painting the middle leaves it.
        map.set_tile(0, Cell::new(2, 0), 0);
        let brush = TerrainBrush { sheet: 0, set: 0, color: SAND };
        assert_eq!(paint_terrain(&mut map, 0, brush, &[Cell::new(1, 0)], &mut Rng::new(1)), Ok(2));
        assert_eq!(map.tile(0, Cell::new(2, 0)), Some(0));
        assert_eq!(wang_id(&map, Cell::new(0, 0)), [0, SAND, 0, SAND, 0, GRASS, 0, GRASS]);
        // Painting the empty cell puts terrain there.
        paint_terrain(&mut map, 0, brush, &[Cell::new(2, 0)], &mut Rng::new(1)).unwrap();
        assert_eq!(wang_id(&map, Cell::new(2, 0)), [0, SAND, 0, SAND, 0, SAND, 0, SAND]);
    }
}
