//! What the canvas shows and where: zoom, centre, grid, sprites, animation, panels.
//!
//! Each command here is applied by `apply_view` and named for the undo history by
//! `ViewCommand::step_name`; both match every variant, so a new command cannot miss either.

use crate::app::SightlineApp;
use crate::app::editor::EditorState;
use crate::core::Map;

#[derive(Clone, Debug, PartialEq)]
pub enum ViewCommand {
    FitView,
    /// Pan so that `cell` is in the middle of the canvas (the minimap).
    CentreOn(crate::core::Cell),
    ToggleGrid,
    /// Draw image tiles from their tileset PNGs (or as glyphs).
    ShowSprites(bool),
    /// Play tile animations (or draw each tile as itself).
    AnimateTiles(bool),
    ZoomBy(f32),
    /// Open the History panel's section and scroll it into view (Edit › History).
    ShowHistory,
}

impl ViewCommand {
    /// What the undo step this command makes is called ("Paint", "Rename layer …"); `None`
    /// when it makes no step of its own.
    pub(crate) fn step_name(&self, _editor: &EditorState, _map: &Map) -> Option<String> {
        match self {
            ViewCommand::FitView
            | ViewCommand::CentreOn(..)
            | ViewCommand::ToggleGrid
            | ViewCommand::ShowSprites(..)
            | ViewCommand::AnimateTiles(..)
            | ViewCommand::ZoomBy(..)
            | ViewCommand::ShowHistory => None,
        }
    }
}

impl SightlineApp {
    pub(super) fn apply_view(&mut self, command: ViewCommand) {
        match command {
            ViewCommand::FitView => self.view.fit_pending = true,
            ViewCommand::CentreOn(cell) => self.view.centre_on(cell),
            ViewCommand::ToggleGrid => self.view.show_grid = !self.view.show_grid,
            ViewCommand::ShowSprites(on) => self.view.show_sprites = on,
            ViewCommand::AnimateTiles(on) => self.view.animate_tiles = on,
            ViewCommand::ZoomBy(factor) => self.view.zoom_about_centre(factor),
            ViewCommand::ShowHistory => self.windows.reveal_history = true,
        }
    }
}
