//! The panels around the canvas, one file each: the menu bar, the tools bar, the status bar, the
//! side panel (inspector, layers, objects, tilesets and palette, terrains, minimap, history,
//! the overlays' sections) and the windows for properties and tile types. Panels draw and push
//! [`Command`](super::Command)s; they change nothing themselves.

pub(crate) mod history;
pub(crate) mod inspector;
pub(crate) mod layers;
pub(crate) mod menu_bar;
pub(crate) mod minimap;
pub(crate) mod objects;
pub(crate) mod palette;
pub(crate) mod properties;
pub(crate) mod side_panel;
pub(crate) mod status_bar;
pub(crate) mod terrains;
pub(crate) mod tile_types;
pub(crate) mod tileset;
pub(crate) mod tools_bar;
