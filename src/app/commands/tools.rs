//! The drawing tools: choosing one, its options, and the strokes it draws on the canvas.
//!
//! Each command here is applied by `apply_tools` and named for the undo history by
//! `ToolCommand::step_name`; both match every variant, so a new command cannot miss either.

use super::Command;
use crate::app::editor::{EditorState, SelectionDrag, Tool};
use crate::app::{SightlineApp, selected_objects};
use crate::core::{Cell, LayerRef, Map};

#[derive(Clone, Debug, PartialEq)]
pub enum ToolCommand {
    SelectTool(crate::app::editor::Tool),
    /// The primary button went down on a cell: a stroke begins (or the picker picks).
    StrokeBegin(crate::core::Cell),
    /// The pointer moved to a cell during the stroke.
    StrokeMove(crate::core::Cell),
    /// The button went up: the stroke is one undo step.
    StrokeEnd,
    /// Takes the topmost tile at a cell as the brush's (right click, or the picker).
    PickAt(crate::core::Cell),
    SetBrushSize(u32),
    /// The next brush stroke is a straight line (Shift is held).
    SetLineStroke(bool),
    SetRectFilled(bool),
    SetFillEight(bool),
    /// The bucket fill lays the chosen terrain (fitting the region's rim) instead of a tile.
    SetFillTerrain(bool),
    /// The terrain brush paints whole tiles at size 1 (off: the nearest corner or edge).
    SetTerrainWholeTiles(bool),
    /// The corner or edge nearest the pointer (the canvas sends it as the pointer moves); a
    /// terrain stroke in progress paints it.
    TerrainSpot(Option<crate::core::edit::terrain::Part>),
    /// The terrain brush paints this terrain (and becomes the tool).
    SetTerrain(crate::core::edit::terrain::TerrainBrush),
    /// Random brush on or off, and its weighted tiles.
    SetRandomBrush(bool, crate::core::edit::RandomBrush),
    /// How the brush's tile is turned (the tools bar's reset).
    SetBrushFlip(crate::core::model::flip::Flip),
    /// X, Y, Z, Shift+Z: turn the stamp being pasted, else the brush's tile.
    TurnStamp(crate::core::model::flip::Turn),
}

impl ToolCommand {
    /// What the undo step this command makes is called ("Paint", "Rename layer …"); `None`
    /// when it makes no step of its own.
    pub(crate) fn step_name(&self, editor: &EditorState, _map: &Map) -> Option<String> {
        Some(match self {
            // A stroke's step is named at its start, a selection drag's at its end.
            ToolCommand::StrokeBegin(_) | ToolCommand::StrokeEnd if editor.pasting => "Paste".into(),
            ToolCommand::StrokeBegin(_) | ToolCommand::StrokeEnd => match editor.tool {
                Tool::Brush => "Paint",
                Tool::Eraser => "Erase",
                Tool::Rectangle => "Rectangle",
                Tool::Line => "Line",
                Tool::Fill => "Fill",
                Tool::Terrain => "Paint terrain",
                Tool::Select => "Select rectangle",
                Tool::MagicWand => "Magic wand",
                Tool::SameTile => "Select same tile",
                Tool::Object => "Move object",
                Tool::Picker | Tool::Probe => return None,
            }
            .into(),
            ToolCommand::SelectTool(..)
            | ToolCommand::StrokeMove(..)
            | ToolCommand::PickAt(..)
            | ToolCommand::SetBrushSize(..)
            | ToolCommand::SetLineStroke(..)
            | ToolCommand::SetRectFilled(..)
            | ToolCommand::SetFillEight(..)
            | ToolCommand::SetFillTerrain(..)
            | ToolCommand::SetTerrainWholeTiles(..)
            | ToolCommand::TerrainSpot(..)
            | ToolCommand::SetTerrain(..)
            | ToolCommand::SetRandomBrush(..)
            | ToolCommand::SetBrushFlip(..)
            | ToolCommand::TurnStamp(..) => return None,
        })
    }
}

impl SightlineApp {
    pub(super) fn apply_tools(&mut self, command: ToolCommand) {
        match command {
            ToolCommand::SelectTool(tool) => {
                // What the object tool was in the middle of ends with it.
                if tool != self.editor.tool {
                    self.editor.shape_draft = None;
                    self.end_object_gesture();
                }
                self.editor.tool = tool;
            }
            ToolCommand::SetBrushFlip(flip) => self.editor.flip = flip,
            ToolCommand::TurnStamp(turn) => match &self.editor.clipboard {
                Some(stamp) if self.editor.pasting => self.editor.clipboard = Some(stamp.turned(turn)),
                _ => self.editor.flip = turn.of(self.editor.flip),
            },
            ToolCommand::SetRandomBrush(on, mut brush) => {
                let n = self.document.map.tiles.len();
                brush.tiles.retain(|(t, _)| usize::from(*t) < n);
                self.editor.random = on;
                self.editor.random_brush = brush;
            }
            ToolCommand::SetLineStroke(on) => self.editor.line_stroke = on,
            ToolCommand::SetTerrain(brush) => {
                self.editor.terrain = Some(brush);
                self.editor.tool = Tool::Terrain;
                self.editor.pasting = false;
            }
            ToolCommand::SetBrushSize(size) => self.editor.brush_size = size.clamp(1, 16),
            ToolCommand::SetRectFilled(on) => self.editor.rect_filled = on,
            ToolCommand::SetFillEight(on) => self.editor.fill_eight = on,
            ToolCommand::SetFillTerrain(on) => self.editor.fill_terrain = on,
            ToolCommand::SetTerrainWholeTiles(on) => self.editor.terrain_whole_tiles = on,
            ToolCommand::TerrainSpot(spot) => {
                self.editor.terrain_spot = spot;
                // A terrain stroke paints each corner or edge the pointer comes nearest to.
                if self.editor.stroke.is_some() && self.editor.terrain_part().is_some() {
                    self.paint_cells(&[]);
                }
            }
            ToolCommand::PickAt(cell) => {
                let map = &self.document.map;
                if let Some((layer, tile)) = map.top_tile(cell) {
                    self.editor.tile = tile;
                    self.editor.flip = map.flipped_tile(layer, cell).map_or_else(Default::default, |(_, f)| f);
                }
            }
            ToolCommand::StrokeBegin(cell) => {
                // A move cut short (an undo in the middle of the drag) moves nothing more.
                self.editor.end_move();
                self.editor.terrain_spot_painted = None;
                if self.editor.pasting {
                    self.begin_stamp_stroke(cell);
                    return;
                }
                if self.editor.tool == Tool::Picker {
                    self.apply(Command::Tools(ToolCommand::PickAt(cell)));
                    return;
                }
                if self.editor.tool == Tool::Object {
                    // A drag from an object moves it (Tiled's object dragging), keeping its id,
                    // layer and properties; its layer becomes the current one.
                    let grab = self.editor.grab.take();
                    if let Some(o) = self.movable_object_at(cell, grab) {
                        let (id, layer) = (o.id, o.layer);
                        self.editor.moving_object = Some((id, o.cell));
                        // One of the objects on the selected cells of the current object
                        // layer: they all move, and the selection with them (Tiled moves the
                        // selected objects together).
                        let selected = selected_objects(&self.editor, &self.document.map);
                        if selected.iter().any(|s| s.id == id) {
                            self.editor.moving_along =
                                selected.iter().filter(|s| s.id != id).map(|s| (s.id, s.cell)).collect();
                            self.editor.moving_selection = self.editor.selection.clone();
                        }
                        self.document.checkpoint(&self.editor.selection);
                        self.editor.focused_object = Some(id);
                        self.editor.stroke = Some((cell, cell));
                        self.editor.set_current_layer(LayerRef::Objects(layer));
                    }
                    return;
                }
                if self.editor.tool == Tool::Probe {
                    return;
                }
                if self.editor.tool.selects() {
                    // The magic wand and same tile pick by a tile layer's tiles: with an object
                    // layer or a group current, they pick nothing (Tiled disables them there).
                    if matches!(self.editor.tool, Tool::MagicWand | Tool::SameTile)
                        && (self.editor.object_layer.is_some() || self.editor.group.is_some())
                    {
                        self.editor.held_selection_mode = None;
                        self.notice = Some(format!(
                            "the {} picks by a tile layer's tiles: select a tile layer",
                            self.editor.tool.label().to_lowercase()
                        ));
                        return;
                    }
                    let e = &mut self.editor;
                    let mode = e.held_selection_mode.take().unwrap_or(e.selection_mode);
                    let mut drag = SelectionDrag::new(e.selection.take(), mode);
                    e.selection = drag.selection(e.tool, &self.document.map, e.layer, cell, cell);
                    e.selection_drag = Some(drag);
                    e.selection_origin = Some(cell);
                    e.stroke = Some((cell, cell));
                    return;
                }
                if self.layer_locked() {
                    return;
                }
                self.document.checkpoint(&self.editor.selection);
                self.editor.stroke = Some((cell, cell));
                if matches!(self.editor.tool, Tool::Brush | Tool::Eraser | Tool::Fill | Tool::Terrain)
                    && !self.editor.paints_at_end()
                {
                    self.paint_shape(cell, cell);
                }
            }
            ToolCommand::StrokeMove(cell) => {
                let Some((start, last)) = self.editor.stroke else { return };
                if cell == last {
                    return;
                }
                self.editor.stroke = Some((start, cell));
                if self.editor.stamp_stroke.is_some() {
                    if !self.editor.line_stroke {
                        // Every cell between the last one and this, as the brush does.
                        self.lay_stamps(&crate::core::edit::line_cells(last, cell)[1..]);
                    }
                    return;
                }
                let e = &mut self.editor;
                if let Some(drag) = &mut e.selection_drag {
                    e.selection = drag.selection(e.tool, &self.document.map, e.layer, start, cell);
                    return;
                }
                if let Some(first) = self.editor.moving_object {
                    // As far as the pointer has gone from where the drag began; with objects
                    // moving along, only as far as keeps every one of them on the map.
                    let (dx, dy) = (cell.x - start.x, cell.y - start.y);
                    let moves: std::collections::HashMap<u32, Cell> = std::iter::once(first)
                        .chain(self.editor.moving_along.iter().copied())
                        .map(|(id, from)| (id, Cell::new(from.x + dx, from.y + dy)))
                        .collect();
                    let map = &mut self.document.map;
                    if !moves.values().all(|&to| map.in_bounds(to)) {
                        return;
                    }
                    let mut moved = false;
                    for o in map.objects.iter_mut() {
                        if let Some(&to) = moves.get(&o.id)
                            && o.cell != to
                        {
                            o.cell = to;
                            moved = true;
                        }
                    }
                    if moved {
                        let (w, h) = (map.width(), map.height());
                        self.document.touch();
                        if let Some(before) = &self.editor.moving_selection {
                            self.editor.selection = Some(before.moved((dx, dy), w, h)).filter(|s| !s.is_empty());
                        }
                    }
                    return;
                }
                if matches!(self.editor.tool, Tool::Brush | Tool::Eraser | Tool::Terrain)
                    && !self.editor.paints_at_end()
                {
                    // Every cell between the last one and this: a fast pointer leaves no gaps.
                    let cells = crate::core::edit::stamp_along(
                        &crate::core::edit::line_cells(last, cell),
                        self.editor.brush_size,
                    );
                    // The cell the last step painted is not painted again (a random brush would
                    // re-roll it).
                    let cells: Vec<Cell> = cells.into_iter().filter(|&c| c != last).collect();
                    self.paint_cells(&cells);
                }
            }
            ToolCommand::StrokeEnd => {
                // A move's changes are in; the step is kept below if it changed anything.
                self.editor.end_move();
                let Some((start, last)) = self.editor.stroke.take() else { return };
                if self.editor.stamp_stroke.is_some() {
                    if self.editor.line_stroke {
                        self.lay_stamps(&crate::core::edit::line_cells(start, last));
                    }
                    self.editor.stamp_stroke = None;
                } else if let Some(drag) = self.editor.selection_drag.take() {
                    // The drag's pick, whatever it combined, is one undo step.
                    self.document.selection_changed(drag.before, &self.editor.selection);
                    return;
                } else if self.editor.paints_at_end() {
                    self.paint_shape(start, last);
                }
                self.editor.line_stroke = false;
                self.editor.fill_selection = false;
                // A stroke that changed nothing leaves no undo step.
                if self.document.unchanged_since_checkpoint() {
                    self.document.drop_checkpoint();
                }
            }
        }
    }
}
