//! Where the game's views come from: one of the built-in FOV algorithms, or an algorithm from
//! outside the process (an external program), so that play mode shows what a developer's own
//! FOV makes of their game: the player's view, the monsters', and what the lights light.

use std::sync::{Arc, Mutex};

use crate::core::ext::ExtError;
use crate::core::fov::{self, Algorithm, FovParams, OpacityGrid, VisibleSet};
use crate::core::model::geometry::Cell;

/// Views from outside the process, one request at a time. A world that uses one blocks on it,
/// so it is run off any UI thread.
pub trait ExternalSight: Send + Sync {
    /// Its name, for the pane and for messages.
    fn name(&self) -> String;
    /// The view from `origin` over `opacity` within `radius` (walls lit).
    fn view(&self, opacity: &OpacityGrid, origin: Cell, radius: Option<u32>) -> Result<Vec<Cell>, ExtError>;
}

/// A built-in algorithm, or an external one with the first error it gave (a view it could not
/// give is the origin alone, and the error is kept for whoever runs the world to show).
#[derive(Clone)]
pub enum SightSource {
    Builtin(Algorithm),
    External(Arc<dyn ExternalSight>, Arc<Mutex<Option<ExtError>>>),
}

impl std::fmt::Debug for SightSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SightSource::Builtin(a) => write!(f, "Builtin({a})"),
            SightSource::External(s, _) => write!(f, "External({})", s.name()),
        }
    }
}

impl SightSource {
    pub fn external(sight: Arc<dyn ExternalSight>) -> Self {
        SightSource::External(sight, Arc::default())
    }

    /// The algorithm's name.
    pub fn name(&self) -> String {
        match self {
            SightSource::Builtin(a) => a.name().to_string(),
            SightSource::External(s, _) => s.name(),
        }
    }

    /// The built-in algorithm, if it is one.
    pub fn builtin(&self) -> Option<Algorithm> {
        match self {
            SightSource::Builtin(a) => Some(*a),
            SightSource::External(..) => None,
        }
    }

    /// The view of `params` into `out` (walls lit, as the game sees).
    pub fn compute(&self, opacity: &OpacityGrid, params: FovParams, out: &mut VisibleSet) {
        match self {
            SightSource::Builtin(a) => fov::compute(*a, opacity, params, out),
            SightSource::External(sight, error) => {
                out.clear();
                let latched = error.lock().unwrap_or_else(|e| e.into_inner()).is_some();
                // After a failure the program is not asked again: the turn is thrown away anyway.
                let view = if latched { Ok(Vec::new()) } else { sight.view(opacity, params.origin, params.radius) };
                match view {
                    Ok(cells) => cells.iter().for_each(|c| out.insert(c.x, c.y)),
                    Err(e) => *error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e),
                }
                out.insert(params.origin.x, params.origin.y);
            }
        }
    }

    /// The first error an external algorithm gave, taken (`None` for a built-in one).
    pub fn take_error(&self) -> Option<ExtError> {
        match self {
            SightSource::Builtin(_) => None,
            SightSource::External(_, error) => error.lock().unwrap_or_else(|e| e.into_inner()).take(),
        }
    }
}
