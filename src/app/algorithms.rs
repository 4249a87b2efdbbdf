//! The FOV and pathfinding algorithms the app offers, listed once. Every picker (the FOV
//! comparison's A and B, symmetry, cache, lighting, the pathfinding sides), the FOV comparison's
//! table and the symmetry audit's table read these lists, so an algorithm added here appears in
//! all of them at once. The core's own lists (`fov::Algorithm::ALL`, `path::Algorithm::ALL`) are
//! what it can run; this is what the app shows, and where algorithms from outside the process
//! will join them.

use crate::core::{fov, path};

/// The FOV algorithms, with the names the pickers show (the CLI's names).
pub(crate) fn fov_algorithms() -> Vec<(fov::Algorithm, &'static str)> {
    fov::Algorithm::ALL.iter().map(|&a| (a, a.name())).collect()
}

/// The pathfinding searches, with the names the pickers show.
pub(crate) fn path_algorithms() -> Vec<(path::Algorithm, &'static str)> {
    path::Algorithm::ALL.iter().map(|&a| (a, path_label(a))).collect()
}

/// A search's name as the pathfinding overlay shows it.
pub(crate) fn path_label(a: path::Algorithm) -> &'static str {
    match a {
        path::Algorithm::AStar => "A*",
        path::Algorithm::Dijkstra => "Dijkstra",
        path::Algorithm::Bfs => "BFS",
        path::Algorithm::Greedy => "Greedy best-first",
        path::Algorithm::Jps => "JPS",
    }
}
