//! Whole-map analyses the overlays and `sightline audit` show: FOV symmetry, which views a
//! DCSS-style LOS cache must recompute when a cell changes, and what the player can reach.

pub mod los_cache;
pub mod reach;
pub mod symmetry;
