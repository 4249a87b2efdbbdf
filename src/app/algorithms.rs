//! The FOV and pathfinding algorithms the app offers, listed once: the core's built-in ones and
//! the programs registered in the External algorithms window. Every picker (the FOV comparison's
//! A and B, symmetry, cache, lighting, the pathfinding sides) and the tables read these lists, so
//! an algorithm added here, or a program registered, appears in all of them at once.

use crate::app::external::{ExtId, Externals};
use crate::core::{fov, path};

/// An FOV algorithm a picker holds: built in, or a registered program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FovChoice {
    Builtin(fov::Algorithm),
    External(ExtId),
}

impl From<fov::Algorithm> for FovChoice {
    fn from(a: fov::Algorithm) -> Self {
        FovChoice::Builtin(a)
    }
}

/// A search a pathfinding side holds: built in, or a registered program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathChoice {
    Builtin(path::Algorithm),
    External(ExtId),
}

impl From<path::Algorithm> for PathChoice {
    fn from(a: path::Algorithm) -> Self {
        PathChoice::Builtin(a)
    }
}

/// The FOV algorithms, with the names the pickers show (the CLI's names), then the programs that
/// compute fields of view.
pub(crate) fn fov_choices(externals: &Externals) -> Vec<(FovChoice, String)> {
    let mut out: Vec<(FovChoice, String)> =
        fov::Algorithm::ALL.iter().map(|&a| (FovChoice::Builtin(a), a.name().to_string())).collect();
    out.extend(externals.offering(true).into_iter().map(|(id, name)| (FovChoice::External(id), name)));
    out
}

/// The pathfinding searches, with the names the pickers show, then the programs that find paths.
pub(crate) fn path_choices(externals: &Externals) -> Vec<(PathChoice, String)> {
    let mut out: Vec<(PathChoice, String)> =
        path::Algorithm::ALL.iter().map(|&a| (PathChoice::Builtin(a), path_label(a).to_string())).collect();
    out.extend(externals.offering(false).into_iter().map(|(id, name)| (PathChoice::External(id), name)));
    out
}

/// The built-in FOV algorithms alone (the tables that time every algorithm).
pub(crate) fn fov_algorithms() -> Vec<(fov::Algorithm, &'static str)> {
    fov::Algorithm::ALL.iter().map(|&a| (a, a.name())).collect()
}

/// An FOV choice's name as the overlays show it.
pub(crate) fn fov_name(choice: FovChoice, externals: &Externals) -> String {
    match choice {
        FovChoice::Builtin(a) => a.name().to_string(),
        FovChoice::External(id) => externals.name(id),
    }
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

/// A drop-down over choices whose names are owned strings (the programs' names).
pub(crate) fn choice_owned_ui<T: PartialEq + Copy>(
    ui: &mut egui::Ui,
    name: &str,
    value: &mut T,
    options: &[(T, String)],
) {
    let options: Vec<(T, &str)> = options.iter().map(|(v, t)| (*v, t.as_str())).collect();
    crate::app::overlays::choice_ui(ui, name, value, &options);
}
