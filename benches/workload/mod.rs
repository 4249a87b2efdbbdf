//! The FOV workload that `benches/fov.rs` and `peer-bench` share, so that both time the same
//! views: several map kinds and sizes, and many distinct origins drawn over the whole map.
//!
//! A game asks for views from wherever its actors stand, edges and corners included, so the
//! origins are not held to the centre: they are 256 transparent cells drawn uniformly from the
//! whole map, plus the transparent cell nearest each corner. A view near an edge is clipped, which
//! is part of what a game pays for.

use sightline::core::fov::{Opacity, OpacityGrid};
use sightline::core::rng::Rng;
use sightline::core::{Cell, format, generate};

/// The radii every map is timed at.
pub const RADII: [u32; 4] = [4, 8, 20, 60];

/// Origins drawn uniformly; the four corner origins come on top.
const UNIFORM_ORIGINS: usize = 256;

/// A MovingAI map from Dragon Age: Origins, in the corpus beside the project (absent: skipped).
const CORPUS_MAP: &str = "../shared/corpus/movingai/arena.map";

pub struct FovMap {
    /// `<kind>-<width>x<height>`, e.g. `caves-200x200`.
    pub name: String,
    pub grid: OpacityGrid,
    pub origins: Vec<Cell>,
}

/// The maps, in the order the tables show them. Generated maps use fixed seeds; the corpus map
/// is read from `../shared` when it is there and left out (said on stderr) when it is not.
pub fn fov_maps() -> Vec<FovMap> {
    let mut maps = vec![
        ("open", OpacityGrid::new(200, 200)),
        ("noise30", from(generate::noise(200, 200, 0.3, 7))),
        ("rooms", from(generate::dungeon(200, 200, 7))),
        ("caves", from(generate::caves(200, 200, 7))),
        ("caves", from(generate::caves(64, 64, 11))),
        ("rooms", from(generate::dungeon(1000, 1000, 13))),
    ];
    // From the project's root (the benches) or from `peer-bench/` (peer-bench).
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = if manifest.ends_with("peer-bench") { manifest.parent().unwrap_or(manifest) } else { manifest };
    match format::load(&root.join(CORPUS_MAP)) {
        Ok(loaded) => maps.push(("arena", OpacityGrid::from_map(&loaded.map))),
        Err(e) => eprintln!("workload: {e}; the corpus map is left out"),
    }
    maps.into_iter()
        .map(|(kind, grid)| FovMap {
            name: format!("{kind}-{}x{}", grid.width(), grid.height()),
            origins: origins(&grid),
            grid,
        })
        .collect()
}

fn from(map: Result<sightline::core::Map, sightline::core::MapError>) -> OpacityGrid {
    OpacityGrid::from_map(&map.expect("a generated bench map"))
}

/// 256 transparent cells drawn uniformly (with repeats allowed only when the map has fewer), then
/// the transparent cell nearest each corner, so that corner views are always in the set.
fn origins(grid: &OpacityGrid) -> Vec<Cell> {
    let (w, h) = (grid.width(), grid.height());
    let open: Vec<Cell> =
        (0..h).flat_map(|y| (0..w).map(move |x| Cell::new(x, y))).filter(|c| !grid.is_opaque(c.x, c.y)).collect();
    assert!(!open.is_empty(), "a bench map with no transparent cell");
    let mut rng = Rng::new(99);
    let mut out: Vec<Cell> = (0..UNIFORM_ORIGINS).map(|_| open[rng.below(open.len() as u32) as usize]).collect();
    for (cx, cy) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
        let nearest = open.iter().min_by_key(|c| (c.x - cx).abs().max((c.y - cy).abs())).copied();
        out.extend(nearest);
    }
    out
}
