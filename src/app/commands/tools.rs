//! The drawing tools: choosing one, its options, and the strokes it draws on the canvas.
//!
//! Each command here is applied by `apply_tools` and named for the undo history by
//! `ToolCommand::step_name`; both match every variant, so a new command cannot miss either.

use super::Command;
use crate::app::editor::{EditorState, SelectionDrag, Tool};
use crate::app::{SightlineApp, selected_objects};
use crate::core::TileId;
use crate::core::edit::tile_transfer::{TileSource, TileTransfer};
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
                        self.prompts.notice = Some(format!(
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

/// What a paste's click, or its drag so far, laid and brought, for the status bar.
#[derive(Default)]
pub(crate) struct PasteReport {
    /// What it laid of the stamp's objects.
    objects: crate::core::edit::PastedObjects,
    /// The object layer they went on.
    layer: String,
    /// The tile types it brought from the map the stamp was copied from, but for those that
    /// came with a tileset (a sprite sheet, its name and how many types came with it).
    tiles: Vec<String>,
    sheets: Vec<(String, usize)>,
}

impl PasteReport {
    /// The notice: what a paste of objects laid and left out (`inside`: a selection kept
    /// them in), and what any paste brought; `None` for tiles that brought nothing.
    fn said(&self, objects: bool, inside: bool) -> Option<String> {
        let mut said = Vec::new();
        if objects {
            let (pasted, name) = (&self.objects, &self.layer);
            said.push(match pasted.ids.as_slice() {
                [] => "nothing pasted".to_owned(),
                [id] => format!("pasted object #{id} on \"{name}\""),
                ids => format!("pasted {} objects on \"{name}\"", ids.len()),
            });
            if pasted.outside > 0 {
                let place = if inside { "off the map or the selection" } else { "off the map" };
                said.push(format!("{} {place} left out", pasted.outside));
            }
            if pasted.player_start_left_out {
                said.push("the player start left out: the map has one".into());
            }
        }
        let types = |n: usize| if n == 1 { "1 tile type".to_owned() } else { format!("{n} tile types") };
        for (sheet, n) in &self.sheets {
            said.push(format!("added tileset {sheet} and its {}", types(*n)));
        }
        if !self.tiles.is_empty() {
            let shown: Vec<&str> = self.tiles.iter().take(4).map(String::as_str).collect();
            let more = self.tiles.len() - shown.len();
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            said.push(format!("added {} this map lacked ({}{more})", types(self.tiles.len()), shown.join(", ")));
        }
        (!said.is_empty()).then(|| said.join("; "))
    }
}

/// Where the stamp being pasted goes (see [`SightlineApp::stamp_target`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum StampTarget {
    Tiles(usize),
    Objects(Option<usize>),
}

impl SightlineApp {
    /// Paints the current tool's shape from `start` to `end` with its tile.
    pub(crate) fn paint_shape(&mut self, start: Cell, end: Cell) {
        let cells = self.editor.shape(&self.document.map, start, end);
        self.paint_cells(&cells);
    }

    /// Starts a drag that lays the stamp being pasted: a copy where it starts (or, with Shift,
    /// a line of copies when it ends), more as it goes; one undo step.
    pub(crate) fn begin_stamp_stroke(&mut self, cell: Cell) {
        let Some(stamp) = &self.editor.clipboard else { return };
        let stroke = crate::core::edit::StampStroke::new(stamp);
        if self.stamp_target().is_none() {
            return;
        }
        self.pasted = Default::default();
        self.document.checkpoint(&self.editor.selection);
        self.editor.stroke = Some((cell, cell));
        self.editor.stamp_stroke = Some(stroke);
        if !self.editor.line_stroke {
            self.lay_stamps(&[cell]);
        }
    }

    /// Lays copies of the stamp along `path` where they overlap none the stroke laid before.
    pub(crate) fn lay_stamps(&mut self, path: &[Cell]) {
        let Some(stroke) = &mut self.editor.stamp_stroke else { return };
        let corners = stroke.extend(path);
        let Some(target) = self.stamp_target() else { return };
        let changed: usize = corners.into_iter().map(|at| self.lay_stamp(target, at)).sum();
        if changed > 0 {
            self.document.touch();
        }
    }

    /// Where the clipboard's stamp goes: its tiles on the current tile layer, its objects on
    /// the current object layer (else the topmost, or a new one: `Objects(None)`), as placing
    /// an object does. `None` when there is no stamp or that layer refuses it (the notice
    /// says why).
    pub(crate) fn stamp_target(&mut self) -> Option<StampTarget> {
        let objects = !self.editor.clipboard.as_ref()?.objects.is_empty();
        if !objects {
            return (!self.layer_locked()).then_some(StampTarget::Tiles(self.editor.layer));
        }
        let target = self.editor.object_layer.or(self.document.map.object_layers.len().checked_sub(1));
        if let Some(refusal) = target.and_then(|j| self.object_layer_refusal(j, "to paste objects")) {
            self.prompts.notice = Some(refusal);
            return None;
        }
        Some(StampTarget::Objects(target))
    }

    /// The open map's tile types, as a copy's clipboard keeps them.
    pub(crate) fn tile_source(&self) -> std::sync::Arc<TileSource> {
        let d = &self.document;
        std::sync::Arc::new(TileSource::of(&d.map, d.folder(), &d.file_name()))
    }

    /// Whether the clipboard's stamp must have its tile types carried into the open map: it
    /// was copied in another, or this one no longer has some of them at their ids (an undo took
    /// them away, and perhaps another type took the slot since). A type is told by its name: one
    /// whose look or rules were edited since the copy is still the same type, and the paste lays
    /// it as it is now, as Tiled's paste lays the tileset's tile as it is now; one renamed since
    /// counts as another, and the paste brings the copied one back beside it.
    pub(crate) fn stamp_needs_transfer(&self) -> bool {
        let e = &self.editor;
        let (Some(from), Some(stamp)) = (e.clipboard_from.as_ref(), e.clipboard.as_ref()) else { return false };
        let map = &self.document.map;
        let gone = |t: TileId| {
            let name = |tiles: &[crate::core::TileKind]| tiles.get(usize::from(t)).map(|k| k.name.clone());
            name(&map.tiles) != name(&from.tiles)
        };
        e.clipboard_elsewhere || stamp.used_tiles().into_iter().any(gone)
    }

    /// How the clipboard's stamp's tile types carry into the open map
    /// ([`crate::core::edit::tile_transfer`]), when they must; `Err` says why they cannot.
    pub(crate) fn stamp_transfer_plan(&self) -> Option<Result<TileTransfer, String>> {
        if !self.stamp_needs_transfer() {
            return None;
        }
        let (stamp, from) = (self.editor.clipboard.as_ref()?, self.editor.clipboard_from.as_ref()?);
        let map = &self.document.map;
        let planned = if self.editor.clipboard_elsewhere {
            TileTransfer::plan(from, stamp.used_tiles(), map, self.document.folder())
        } else {
            // Copied in this map: a type still in its slot under its name is the same type, as
            // edited since (`stamp_needs_transfer`); only the others are carried over.
            let mut here = (**from).clone();
            for (t, kind) in here.tiles.iter_mut().enumerate() {
                if let Some(now) = map.tiles.get(t).filter(|now| now.name == kind.name) {
                    kind.clone_from(now);
                }
            }
            TileTransfer::plan(&here, stamp.used_tiles(), map, self.document.folder())
        };
        Some(planned.map_err(|e| format!("cannot paste what was copied from {}: {e}", from.name)))
    }

    /// Lays the clipboard's stamp with its top-left corner at `at` on `target`, inside the
    /// selection when there is one (no undo step of its own): how many cells it painted or
    /// objects it added. The notice says what a paste of objects left out, and the tile types
    /// a paste from another map brought.
    pub(crate) fn lay_stamp(&mut self, target: StampTarget, at: Cell) -> usize {
        let transfer = match self.stamp_transfer_plan() {
            None => None,
            Some(Ok(transfer)) => Some(transfer),
            Some(Err(refusal)) => {
                self.prompts.notice = Some(refusal);
                return 0;
            }
        };
        // The stamp in this map's tile ids: as it is, unless its types are carried over.
        let translated = match (&transfer, &self.editor.clipboard) {
            (Some(transfer), Some(stamp)) => Some(stamp.with_tile_ids(|t| transfer.id(t))),
            _ => None,
        };
        let Some(stamp) = translated.as_ref().or(self.editor.clipboard.as_ref()) else { return 0 };
        let map = &mut self.document.map;
        if let Some(transfer) = &transfer {
            transfer.apply(map);
        }
        let inside = self.editor.selection.as_ref();
        let created = matches!(target, StampTarget::Objects(None)) && map.object_layers.is_empty();
        let laid = match target {
            StampTarget::Tiles(layer) => stamp.paste(map, layer, at, inside),
            StampTarget::Objects(layer) => {
                let layer = layer.unwrap_or_else(|| map.default_object_layer());
                let now = stamp.paste_objects(map, layer, at, inside);
                // A layer made for objects that all fell outside is no layer.
                if created && now.ids.is_empty() {
                    map.object_layers.pop();
                }
                self.pasted.layer = map.object_layers.get(layer).map_or_else(String::new, |l| l.name.clone());
                self.pasted.objects.ids.extend(&now.ids);
                self.pasted.objects.outside += now.outside;
                self.pasted.objects.player_start_left_out |= now.player_start_left_out;
                now.ids.len()
            }
        };
        // What the paste brought over from another map stays only if it laid something.
        if let Some(transfer) = transfer {
            if laid == 0 {
                transfer.undo(map);
            } else {
                // Those that came with a whole tileset are counted with it.
                let first_new_sheet = map.sheets.len() - transfer.new_sheets().len();
                let mut sheets: Vec<(String, usize)> =
                    transfer.new_sheets().iter().map(|s| (s.name.clone(), 0)).collect();
                for t in transfer.new_tiles() {
                    match t.sprite.and_then(|s| usize::from(s.sheet).checked_sub(first_new_sheet)) {
                        Some(sheet) => sheets[sheet].1 += 1,
                        None => self.pasted.tiles.push(t.name.clone()),
                    }
                }
                self.pasted.sheets.extend(sheets);
            }
        }
        let objects = matches!(target, StampTarget::Objects(_));
        if let Some(said) = self.pasted.said(objects, inside.is_some()) {
            self.prompts.notice = Some(said);
        }
        // One pasted object is in hand, as Tiled selects what it pastes.
        if let [id] = self.pasted.objects.ids[..] {
            self.editor.focused_object = Some(id);
        }
        laid
    }

    /// Paints cells with the tool's tile, or the random brush's tiles; the terrain brush at
    /// size 1 paints the corner or edge nearest the pointer instead, once per visit.
    pub(crate) fn paint_cells(&mut self, cells: &[Cell]) {
        let layer = self.editor.layer;
        // While a selection exists, painting stays inside it.
        let inside: Vec<Cell>;
        let cells = if self.editor.selection.is_some() {
            inside = cells.iter().copied().filter(|&c| self.editor.paints_at(c)).collect();
            &inside[..]
        } else {
            cells
        };
        let changed = if self.editor.paints_terrain() {
            let e = &mut self.editor;
            let Some(brush) = e.terrain else {
                self.prompts.notice = Some("choose a terrain to paint in the Terrains panel".into());
                return;
            };
            let painted = match e.terrain_part() {
                Some(part) if e.terrain_spot_painted == Some(part) => return,
                Some(part) => {
                    use crate::core::edit::terrain::Part;
                    // A drag faster than the corners paints the corners between, as the brush
                    // paints the cells between.
                    let parts = match (e.terrain_spot_painted, part) {
                        (Some(Part::Corner(x0, y0)), Part::Corner(x1, y1)) => {
                            crate::core::edit::line_cells(Cell::new(x0, y0), Cell::new(x1, y1))[1..]
                                .iter()
                                .map(|c| Part::Corner(c.x, c.y))
                                .collect()
                        }
                        _ => vec![part],
                    };
                    e.terrain_spot_painted = Some(part);
                    crate::core::edit::terrain::plan_terrain_parts(&self.document.map, layer, brush, &parts, &mut e.rng)
                }
                None => crate::core::edit::terrain::plan_terrain(&self.document.map, layer, brush, cells, &mut e.rng),
            };
            match painted {
                // The transitions too stay inside the selection.
                Ok(planned) => planned
                    .into_iter()
                    .filter(|&(c, tile)| {
                        self.editor.paints_at(c)
                            && self.document.map.set_flipped_tile(layer, c, tile, crate::core::model::flip::Flip::NONE)
                    })
                    .count(),
                Err(error) => {
                    self.prompts.notice = Some(format!("cannot paint the terrain: {error}"));
                    return;
                }
            }
        } else if self.editor.paints_random() {
            let e = &mut self.editor;
            e.random_brush.paint(&mut self.document.map, layer, cells, &mut e.rng)
        } else {
            let (tile, flip) = self.editor.paint_tile();
            crate::core::edit::paint_flipped(&mut self.document.map, layer, cells, tile, flip)
        };
        if changed > 0 {
            self.document.touch();
        }
    }

    /// A tile id of the clipboard's stamp as this map's, for drawing the paste (an id past the
    /// map's for a tile type from another map that a paste would add: the preview's palette
    /// has it).
    pub(crate) fn stamp_tile_here(&self, tile: TileId) -> Option<TileId> {
        if !self.caches.stamp_transfer.needed {
            return Some(tile);
        }
        self.caches.stamp_transfer.transfer.as_ref().map(|t| t.id(tile))
    }
}
