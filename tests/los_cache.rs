//! The LOS cache against fresh FOV computations after thousands of random opacity edits, and
//! the relation changed ⊆ candidates ⊆ conservative on every edit.

use std::collections::HashSet;

use sightline::core::Cell;
use sightline::core::analysis::los_cache::LosCache;
use sightline::core::fov::{self, Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet};
use sightline::core::rng::Rng;

fn fresh_view(grid: &OpacityGrid, algorithm: Algorithm, radius: u32, a: Cell) -> Vec<Cell> {
    if grid.is_opaque(a.x, a.y) {
        return Vec::new();
    }
    let mut v = VisibleSet::new(grid.width() as u32, grid.height() as u32);
    fov::compute(algorithm, grid, FovParams::new(a, Some(radius)), &mut v);
    v.iter().collect()
}

fn assert_cache_fresh(cache: &LosCache, what: &str) {
    let grid = cache.grid();
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let a = Cell::new(x, y);
            assert_eq!(
                cache.view(a),
                fresh_view(grid, cache.algorithm(), cache.radius(), a),
                "{what}: the view of {a}"
            );
        }
    }
}

#[test]
fn the_cache_matches_fresh_fov_after_random_edits() {
    for algorithm in Algorithm::ALL {
        let mut rng = Rng::new(31);
        let mut grid = OpacityGrid::new(24, 18);
        for y in 0..18 {
            for x in 0..24 {
                grid.set(x, y, rng.chance(0.25));
            }
        }
        let radius = 5;
        let mut cache = LosCache::build(&grid, algorithm, radius).unwrap();
        assert_cache_fresh(&cache, &format!("{algorithm} after build"));
        let mut reductions = 0;
        for edit in 0..400 {
            let c = Cell::new(rng.below(24) as i32, rng.below(18) as i32);
            let opaque = !cache.grid().is_opaque(c.x, c.y);
            let before: Vec<Vec<Cell>> = (0..18 * 24).map(|i| cache.view(Cell::new(i % 24, i / 24))).collect();
            let update = cache.set_opaque(c, opaque);
            let conservative: HashSet<Cell> = update.conservative.iter().copied().collect();
            let candidates: HashSet<Cell> = update.candidates.iter().copied().collect();
            // Candidates stay inside DCSS's box (milazzo's may reach one ring past it, where its
            // bevels read); the views that change always do.
            let ring = |a: &Cell| a.chebyshev(c) <= radius as i32 + i32::from(algorithm == Algorithm::Milazzo);
            assert!(candidates.iter().all(ring), "{algorithm} edit {edit}: candidates outside the box");
            assert!(
                update.changed.iter().all(|a| conservative.contains(a)),
                "{algorithm} edit {edit}: a change outside DCSS's box"
            );
            for a in &update.changed {
                assert!(candidates.contains(a), "{algorithm} edit {edit}: {a} changed but was no candidate");
            }
            // `changed` is exactly the cells transparent before and after whose view differs.
            let grid = cache.grid();
            for i in 0..18 * 24 {
                let a = Cell::new(i % 24, i / 24);
                let differs = cache.view(a) != before[i as usize];
                let stayed_transparent = a != c && !grid.is_opaque(a.x, a.y);
                assert_eq!(differs && stayed_transparent, update.changed.contains(&a), "{algorithm} edit {edit}: {a}");
            }
            reductions += usize::from(candidates.len() < conservative.len());
            if edit % 50 == 49 {
                assert_cache_fresh(&cache, &format!("{algorithm} after {} edits", edit + 1));
            }
        }
        assert_cache_fresh(&cache, &format!("{algorithm} at the end"));
        // Recording what each view read keeps the recomputed region well inside DCSS's box, for
        // every algorithm.
        assert!(reductions > 300, "{algorithm}: the exact region was smaller than the box on only {reductions} edits");
        assert!(cache.overflowed().is_empty(), "{algorithm}: a view read outside its radius window");
    }
}

#[test]
fn a_door_toggle_in_a_room_touches_only_the_cells_that_see_it() {
    // Two rooms joined by a door, and a corridor below them behind a solid wall: within DCSS's
    // box around the door, but unable to see it.
    let rows = [
        "#################",
        "#.......#.......#",
        "#.......+.......#",
        "#.......#.......#",
        "#################",
        "#...............#",
        "#################",
    ];
    let grid = OpacityGrid::from_ascii(&rows);
    let mut cache = LosCache::build(&grid, Algorithm::Shadowcast, 8).unwrap();
    let door = Cell::new(8, 2);
    // Opening the door: the cells that saw the closed door, and the door cell itself.
    let open = cache.set_opaque(door, false);
    assert!(open.candidates.len() < open.conservative.len());
    assert!(open.conservative.contains(&Cell::new(8, 5)) && !open.candidates.contains(&Cell::new(8, 5)));
    assert!(open.changed.iter().all(|c| c.y < 4), "nothing in the corridor changes");
    assert!(open.changed.contains(&Cell::new(7, 2)), "the cell next to the door now sees the other room");
    assert!(cache.sees(Cell::new(7, 2), Cell::new(10, 2)));
    // Closing it again restores every view.
    let close = cache.set_opaque(door, true);
    assert_eq!(close.changed.len(), open.changed.len());
    assert!(!cache.sees(Cell::new(7, 2), Cell::new(10, 2)));
    // Per cell: a 17×17 view window and a 19×19 read-set window, in 64-bit words.
    assert_eq!(cache.bytes(), 17 * 7 * ((17 * 17usize).div_ceil(64) + (19 * 19usize).div_ceil(64)) * 8);
    assert_eq!(LosCache::memory_needed(17, 7, 8), cache.bytes() as u64);
}

/// A cache that would not fit in memory is refused before anything is allocated, with a typed
/// error that says how much it would take and what to do.
#[test]
fn a_cache_too_large_for_memory_is_refused() {
    let grid = OpacityGrid::new(4096, 4096);
    let needed = LosCache::memory_needed(4096, 4096, 20);
    assert!(needed > sightline::core::analysis::los_cache::MAX_CACHE_BYTES);
    match LosCache::build(&grid, Algorithm::Shadowcast, 20) {
        Err(e @ sightline::core::analysis::los_cache::CacheError::TooLarge { bytes, .. }) => {
            assert_eq!(bytes, needed);
            let message = e.to_string();
            assert!(
                message.contains("4096×4096 map at radius 20") && message.contains("give a smaller radius"),
                "{message}"
            );
        }
        Ok(_) => panic!("a 4096×4096 cache at radius 20 was built"),
    }
    // The largest radius saturates rather than wraps.
    assert_eq!(LosCache::memory_needed(4096, 4096, u32::MAX), u64::MAX);
}
