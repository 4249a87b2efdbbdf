//! What the canvas shows before a click: the tiles a tool would paint, the stamp under the
//! pointer, a fill's reach, a terrain brush's change, and the selection's picture; each kept
//! up to date once a frame.

use crate::app::canvas;
use crate::app::canvas::marks::selection_image;
use crate::app::{SightlineApp, StampTransferCache, Tool};
use crate::core::edit::tile_transfer::TileSource;
use crate::core::{Cell, TileId};

impl SightlineApp {
    /// The tiles the canvas shows under the pointer: what a click (or the stroke in progress)
    /// would put.
    pub fn previewed_tiles(&self) -> Vec<(Cell, TileId, crate::core::model::flip::Flip)> {
        self.preview().tiles
    }

    /// What the stroke in progress, a click, or the stamp being pasted would paint, drawn over
    /// the canvas: inside the selection only, as the paint is.
    pub(crate) fn preview(&self) -> canvas::Preview {
        let mut preview = self.unmasked_preview();
        let e = &self.editor;
        if e.selection.is_some() && (e.paints_tiles() || e.pasting) {
            preview.cells.retain(|&c| e.paints_at(c));
            preview.tiles.retain(|&(c, _, _)| e.paints_at(c));
        }
        preview
    }

    /// What [`Self::preview`] shows before the selection masks it.
    pub(crate) fn unmasked_preview(&self) -> canvas::Preview {
        // On an object layer the tile tools paint nothing, so they show nothing either.
        if (self.editor.object_layer.is_some() || self.editor.group.is_some())
            && (self.editor.paints_tiles() || self.editor.pasting)
        {
            return canvas::Preview::default();
        }
        if let Some(stamp) = &self.editor.clipboard {
            let corners = self.stamp_corners();
            if !corners.is_empty() {
                let placed: Vec<_> = corners.into_iter().flat_map(|at| stamp.placed(at)).collect();
                let tiles = placed.iter().filter_map(|&(c, t, f)| Some((c, self.stamp_tile_here(t)?, f))).collect();
                return canvas::Preview {
                    cells: placed.iter().map(|&(c, _, _)| c).collect(),
                    tiles,
                    spot: None,
                    palette: self.caches.stamp_transfer.palette.clone(),
                };
            }
        }
        let cells = self.preview_cells();
        // The terrain brush: the tiles a click would put, transitions included.
        if let Some((_, planned)) = &self.caches.terrain_preview {
            let tiles = planned.iter().map(|&(c, t)| (c, t, crate::core::model::flip::Flip::NONE)).collect();
            // A corner or edge is marked itself, not the cell it is on.
            return match self.editor.terrain_part() {
                Some(spot) => canvas::Preview { cells: Vec::new(), tiles, spot: Some(spot), palette: None },
                None => canvas::Preview { cells, tiles, spot: None, palette: None },
            };
        }
        // The brush's tile where it would go, turned as it is (a random brush's tiles are not
        // known before they are drawn; the eraser and the fill show their cells only).
        let paints_tile =
            matches!(self.editor.tool, Tool::Brush | Tool::Line | Tool::Rectangle) && !self.editor.paints_random();
        let tiles = if paints_tile {
            let (tile, flip) = self.editor.paint_tile();
            cells.iter().map(|&c| (c, tile, flip)).collect()
        } else {
            Vec::new()
        };
        canvas::Preview { cells, tiles, spot: None, palette: None }
    }

    /// Where the stamp being pasted would go (its top-left corners): the line of copies a
    /// Shift drag will lay, else the copy a click would lay.
    pub(crate) fn stamp_corners(&self) -> Vec<Cell> {
        let Some(stamp) = &self.editor.clipboard else { return Vec::new() };
        match (self.editor.stroke, self.hovered) {
            (Some((start, last)), _) if self.editor.stamp_stroke.is_some() && self.editor.line_stroke => {
                crate::core::edit::StampStroke::new(stamp).extend(&crate::core::edit::line_cells(start, last))
            }
            (_, Some(at)) if self.editor.pasting => vec![at],
            _ => Vec::new(),
        }
    }

    /// The objects the paste would lay where the pointer is (or along a Shift drag), as they
    /// would stand, inside the selection when there is one.
    pub(crate) fn pasted_objects_preview(&self) -> Vec<crate::core::MapObject> {
        let Some(stamp) = self.editor.clipboard.as_ref().filter(|s| !s.objects.is_empty()) else { return Vec::new() };
        let map = &self.document.map;
        let inside = |c: Cell| map.in_bounds(c) && self.editor.selection.as_ref().is_none_or(|s| s.contains(c));
        // A paste leaves a second player start out (`Stamp::paste_objects`).
        let mut has_player = map.objects.iter().any(|o| o.kind == crate::core::ObjectKind::PlayerStart);
        let mut objects = Vec::new();
        for at in self.stamp_corners() {
            for s in &stamp.objects {
                let cell = Cell::new(at.x + s.object.cell.x, at.y + s.object.cell.y);
                let player = s.object.kind == crate::core::ObjectKind::PlayerStart;
                if inside(cell) && !(has_player && player) {
                    has_player |= player;
                    let mut object = stamp.laid_object(&s.object, cell, map.tile_size);
                    // In this map's tile ids (the preview's palette has those a paste adds).
                    if let Some(crate::core::model::object::ShapeKind::Tile { tile, .. }) =
                        object.shape.as_mut().map(|s| &mut s.kind)
                    {
                        *tile = self.stamp_tile_here(*tile).unwrap_or(crate::core::model::tile::EMPTY);
                    }
                    objects.push(object);
                }
            }
        }
        objects
    }

    /// The cells the stroke in progress (or a click, when hovering) would paint.
    pub(crate) fn preview_cells(&self) -> Vec<Cell> {
        match (self.editor.stroke, self.hovered) {
            (Some((start, last)), _) if self.editor.paints_at_end() => {
                self.editor.shape(&self.document.map, start, last)
            }
            (Some(_), _) => Vec::new(),
            // Hovering: what a click would paint.
            (None, Some(at)) => match self.editor.tool {
                Tool::Brush | Tool::Eraser | Tool::Line | Tool::Terrain => {
                    crate::core::edit::square_around(at, self.editor.brush_size)
                }
                Tool::Rectangle => vec![at],
                Tool::Fill => self
                    .caches
                    .fill_preview
                    .as_ref()
                    .filter(|(k, _)| k.0.0 == at)
                    .map_or_else(Vec::new, |(_, c)| c.clone()),
                _ => Vec::new(),
            },
            (None, None) => Vec::new(),
        }
    }

    /// Keeps the selection's picture (for the zoomed-out canvas) up to date: made again only
    /// when the selection changes while zoomed out, and let go when there is none.
    pub(crate) fn update_selection_picture(&mut self, ctx: &egui::Context) {
        let Some(selection) = &self.editor.selection else {
            self.caches.selection_picture = None;
            return;
        };
        let stale = self.caches.selection_picture.as_ref().is_none_or(|(shown, _)| shown != selection);
        if self.view.cell_px < canvas::MIN_MESH_PX && stale {
            let texture = ctx.load_texture("selection", selection_image(selection), egui::TextureOptions::NEAREST);
            self.caches.selection_picture = Some((selection.clone(), texture));
        }
    }

    /// The cells a fill would reach from the hovered cell, recomputed only when the hovered
    /// cell, the map, the layer or the connectivity change (`logic`).
    pub(crate) fn update_fill_preview(&mut self) {
        let (Tool::Fill, Some(at)) = (self.editor.tool, self.hovered) else {
            self.caches.fill_preview = None;
            return;
        };
        let e = &self.editor;
        let key = (at, self.document.revision(), e.layer, e.fill_eight, self.shift_held);
        // The selection is compared where it is, not copied into a key every frame.
        let fresh =
            self.caches.fill_preview.as_ref().is_some_and(|((k, selection), _)| *k == key && *selection == e.selection);
        if fresh || !self.document.map.in_bounds(at) {
            return;
        }
        let cells = e.fill_region(&self.document.map, at, self.shift_held);
        self.caches.fill_preview = Some(((key, e.selection.clone()), cells));
    }

    /// Plans how the stamp being pasted from another map maps into this one, when the map or
    /// the stamp's source changed (`logic`).
    pub(crate) fn update_stamp_transfer(&mut self) {
        let from = self.editor.clipboard_from.as_ref().filter(|_| self.editor.pasting);
        let key = from.map(|f| (self.document.revision(), std::sync::Arc::clone(f), self.editor.clipboard_elsewhere));
        // The source compares by identity (the cache holds it, so its address is not reused).
        let same = |a: &(u64, std::sync::Arc<TileSource>, bool), b: &(u64, std::sync::Arc<TileSource>, bool)| {
            a.0 == b.0 && std::sync::Arc::ptr_eq(&a.1, &b.1) && a.2 == b.2
        };
        let fresh = match (&key, &self.caches.stamp_transfer.key) {
            (Some(a), Some(b)) => same(a, b),
            (None, None) => true,
            _ => false,
        };
        if fresh {
            return;
        }
        let needed = key.is_some() && self.stamp_needs_transfer();
        let transfer = if needed { self.stamp_transfer_plan().and_then(Result::ok) } else { None };
        let palette = transfer.as_ref().filter(|t| !t.adds_nothing()).and_then(|t| {
            let map = &self.document.map;
            let mut palette = crate::core::Map::new(1, 1, vec![crate::core::TileKind::empty()], 0).ok()?;
            (palette.tiles, palette.sheets, palette.tile_size) = (map.tiles.clone(), map.sheets.clone(), map.tile_size);
            t.apply(&mut palette).then(|| (std::sync::Arc::new(palette), Vec::new()))
        });
        self.caches.stamp_transfer = StampTransferCache { key, needed, transfer, palette };
    }

    /// Plans what a click of the terrain brush on the hovered cell would paint, again only when
    /// what it depends on changes (`logic`).
    pub(crate) fn update_terrain_preview(&mut self) {
        let e = &self.editor;
        let (Tool::Terrain, Some(at), Some(brush), None) = (e.tool, self.hovered, e.terrain, e.stroke) else {
            self.caches.terrain_preview = None;
            return;
        };
        let part = e.terrain_part();
        let key = (at, part, self.document.revision(), e.layer, brush, e.brush_size, e.rng.clone());
        if self.caches.terrain_preview.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        let map = &self.document.map;
        let planned = match part {
            Some(part) => {
                crate::core::edit::terrain::plan_terrain_parts(map, e.layer, brush, &[part], &mut e.rng.clone())
            }
            None => {
                let cells = crate::core::edit::square_around(at, e.brush_size);
                crate::core::edit::terrain::plan_terrain(map, e.layer, brush, &cells, &mut e.rng.clone())
            }
        };
        self.caches.terrain_preview = Some((key, planned.unwrap_or_default()));
    }
}
