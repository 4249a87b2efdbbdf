//! Tiles and tilesets: the palette, tile types and their rules, single cells, tileset files.
//!
//! Each command here is applied by `apply_tiles` and named for the undo history by
//! `TileCommand::step_name`; both match every variant, so a new command cannot miss either.

use super::Names;
use crate::app::editor::{EditorState, Tool};
use crate::app::{ContinuedEdit, ErrorDialog, SightlineApp};
use crate::core::{Map, format};

#[derive(Clone, Debug, PartialEq)]
pub enum TileCommand {
    SelectTile(crate::core::TileId),
    /// The palette shows a tileset's image (`Some(sheet)`) or the list of every tile type.
    ShowPaletteSheet(Option<usize>),
    SetPaletteZoom(f32),
    /// Tiles dragged over in a tileset become the stamp, placed by clicks (Tiled's stamp brush).
    StampFromTileset(crate::core::edit::Stamp),
    /// Set a tile type's glyph and rules (doors stay paired).
    SetTileRules(crate::core::TileId, crate::core::edit::TileRules),
    /// Add a tile type (and make it the brush's).
    AddTile,
    ShowTileTypes(bool),
    /// The inspector: set one cell's tile on one layer, and how it is flipped.
    SetCellTile {
        layer: usize,
        cell: crate::core::Cell,
        tile: crate::core::TileId,
        flip: crate::core::model::flip::Flip,
    },
    /// Write a tileset, as the map has it, to the tileset file it was read from (sheet index).
    /// When that loses something (changes made to the file since, or what sightline does not
    /// keep), this asks first.
    SaveTileset(usize),
    /// Answers to "writing this tileset file loses …".
    ConfirmTilesetWrite,
    CancelTilesetWrite,
}

impl TileCommand {
    /// What the undo step this command makes is called ("Paint", "Rename layer …"); `None`
    /// when it makes no step of its own.
    pub(crate) fn step_name(&self, _editor: &EditorState, map: &Map) -> Option<String> {
        let names = Names(map);
        Some(match self {
            TileCommand::SetTileRules(id, _) => format!("Change rules of tile{}", names.tile(*id)),
            TileCommand::AddTile => "Add tile type".into(),
            TileCommand::SetCellTile { cell, .. } => format!("Set tile at {},{}", cell.x, cell.y),
            TileCommand::SelectTile(..)
            | TileCommand::ShowPaletteSheet(..)
            | TileCommand::SetPaletteZoom(..)
            | TileCommand::StampFromTileset(..)
            | TileCommand::ShowTileTypes(..)
            | TileCommand::SaveTileset(..)
            | TileCommand::ConfirmTilesetWrite
            | TileCommand::CancelTilesetWrite => return None,
        })
    }
}

impl SightlineApp {
    pub(super) fn apply_tiles(&mut self, command: TileCommand) {
        match command {
            TileCommand::SaveTileset(sheet) => match format::tileset_file::prepare(&self.document.map, sheet) {
                Ok(write) if write.concerns.is_empty() => self.write_tileset_file(&write),
                Ok(write) => self.prompts.tileset_write = Some(write),
                Err(e) => {
                    self.prompts.error =
                        Some(ErrorDialog { title: "Cannot save the tileset".into(), message: e.to_string() })
                }
            },
            TileCommand::ConfirmTilesetWrite => {
                if let Some(write) = self.prompts.tileset_write.take() {
                    self.write_tileset_file(&write);
                }
            }
            TileCommand::CancelTilesetWrite => self.prompts.tileset_write = None,
            TileCommand::SelectTile(tile) => {
                if usize::from(tile) < self.document.map.tiles.len() {
                    self.editor.tile = tile;
                    self.editor.flip = crate::core::model::flip::Flip::NONE;
                    // A single tile is the brush again, not the stamp being placed.
                    self.editor.pasting = false;
                    if matches!(self.editor.tool, Tool::Eraser | Tool::Picker | Tool::Probe | Tool::Terrain) {
                        self.editor.tool = Tool::Brush;
                    }
                }
            }
            TileCommand::SetTileRules(id, rules) => {
                // Dragging a cost or a colour sends a change a frame: successive changes of one
                // tile, with no other edit between, are one undo step.
                let continuing = self.continues(ContinuedEdit::TileRules(id));
                if !continuing {
                    self.document.checkpoint(&self.editor.selection);
                }
                match crate::core::edit::set_tile_rules(&mut self.document.map, id, rules) {
                    // The rules it had already (a field left as it was): no undo step.
                    Ok(()) if !continuing && self.document.unchanged_since_checkpoint() => {
                        self.document.drop_checkpoint();
                    }
                    Ok(()) => {
                        self.document.touch();
                        self.continued = Some((ContinuedEdit::TileRules(id), self.document.revision()));
                    }
                    Err(e) => {
                        if !continuing {
                            self.document.drop_checkpoint();
                        }
                        self.prompts.notice = Some(e.to_string());
                    }
                }
            }
            TileCommand::AddTile => {
                self.document.checkpoint(&self.editor.selection);
                match crate::core::edit::add_tile(&mut self.document.map, "new tile") {
                    Ok(id) => {
                        self.document.touch();
                        self.editor.tile = id;
                    }
                    Err(e) => {
                        self.document.drop_checkpoint();
                        self.prompts.notice = Some(e.to_string());
                    }
                }
            }
            TileCommand::ShowTileTypes(open) => {
                self.windows.tile_types = open;
                self.windows.tile_types_shown = None;
            }
            TileCommand::ShowPaletteSheet(sheet) => {
                self.palette.sheet = sheet.filter(|&s| s < self.document.map.sheets.len());
            }
            TileCommand::SetPaletteZoom(zoom) => self.palette.zoom = zoom.clamp(0.5, 4.0),
            TileCommand::StampFromTileset(stamp) => {
                let from = self.tile_source();
                self.editor.hold(Some(stamp), None, from);
                self.editor.pasting = true;
                self.editor.shape_draft = None;
                self.end_object_gesture();
                if !matches!(self.editor.tool, Tool::Brush | Tool::Select) {
                    self.editor.tool = Tool::Brush;
                }
            }
            TileCommand::SetCellTile { layer, cell, tile, flip } => {
                if usize::from(tile) >= self.document.map.tiles.len() || self.layer_locked_at(layer) {
                    return;
                }
                self.document.checkpoint(&self.editor.selection);
                let flip =
                    if tile == crate::core::model::tile::EMPTY { crate::core::model::flip::Flip::NONE } else { flip };
                if crate::core::edit::paint_flipped(&mut self.document.map, layer, &[cell], tile, flip) > 0 {
                    self.document.touch();
                } else {
                    self.document.drop_checkpoint();
                }
            }
        }
    }
}
