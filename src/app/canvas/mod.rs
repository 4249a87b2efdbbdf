//! The map canvas: draws the visible cells of a map and turns mouse and keys into pan and zoom.

pub(crate) mod input;
pub(crate) mod marks;
mod panel;

use std::path::PathBuf;

use egui::{Align2, Color32, FontId, Mesh, Pos2, Rect, Sense, Stroke, Vec2, pos2, vec2};

use super::far_colours::{GlyphColour, PictureKey, map_picture, picture_key};
use super::sprites::SheetTexture;
use crate::core::model::flip::Flip;
use crate::core::model::map::LayerLook;
use crate::core::model::object::{HorizontalAlign, ObjectShape, ObjectText, ShapeKind, VerticalAlign};
use crate::core::model::sheet::SpriteSheet;
use crate::core::model::tile::Rgb;
use crate::core::{Cell, LayerRef, Map, ObjectKind, TileId};

pub(crate) const MIN_CELL_PX: f32 = 1.0;
pub(crate) const MAX_CELL_PX: f32 = 96.0;
/// Below this many pixels a cell shows only its background colour.
const MIN_GLYPH_PX: f32 = 7.0;
/// Below this many pixels a cell, the map is drawn from a texture (one texel a cell) instead of
/// a rectangle per cell: a 1024×1024 map zoomed out is a million cells on screen.
pub(crate) const MIN_MESH_PX: f32 = 6.0;
/// Texture side limit: bigger maps are sampled (every n-th cell).
pub(crate) const MAX_TEXTURE_SIDE: u32 = 2048;

/// The canvas behind the map.
const CANVAS_GREY: u8 = 12;

/// What a cell shows when drawn as glyphs: its topmost visible tile, and that tile's background
/// and glyph colours. A translucent top layer (Tiled's layer opacity) is blended over the
/// background of the next visible tile down, or over the canvas (one level: a translucent layer
/// under a translucent layer shows as if the lower one were opaque).
fn cell_look(map: &Map, looks: &[LayerLook], i: usize) -> Option<(TileId, Color32, Color32)> {
    let mut tiles = map
        .layers
        .iter()
        .zip(looks)
        .rev()
        .filter(|(l, look)| look.shown && l.cells[i] != 0)
        .map(|(l, look)| (look.opacity, l.cells[i]));
    let (opacity, top) = tiles.next()?;
    let glyph = map.tiles[usize::from(top)].glyph;
    let (mut bg, mut fg) = (color(glyph.bg), color(glyph.fg));
    if opacity < 1.0 {
        let under =
            tiles.next().map_or(Color32::from_gray(CANVAS_GREY), |(_, t)| color(map.tiles[usize::from(t)].glyph.bg));
        bg = under.lerp_to_gamma(bg, opacity);
        fg = under.lerp_to_gamma(fg, opacity);
    }
    Some((top, bg, fg))
}

/// Where the map is on screen.
#[derive(Clone)]
pub struct View {
    /// Screen offset of the grid's top-left corner from the canvas' top-left corner.
    pub offset: Vec2,
    /// Size of one cell in points.
    pub cell_px: f32,
    pub(crate) show_grid: bool,
    /// Fit the map to the canvas on the next frame.
    pub fit_pending: bool,
    /// The canvas rectangle of the last frame.
    pub canvas: Rect,
    /// Arrow keys pan (off while play mode has the keyboard).
    pub(crate) keyboard: bool,
    /// The whole map as a texture (one texel a cell), for zoomed-out views, and which picture
    /// of the map it shows.
    pub(crate) texture: Option<(PictureKey, egui::TextureHandle)>,
    /// Draw tiles that have one as their tileset image (glyphs otherwise).
    pub(crate) show_sprites: bool,
    /// Play tile animations (Tiled's View > Show Tile Animations); off: each tile as itself.
    pub animate_tiles: bool,
}

impl Default for View {
    fn default() -> Self {
        Self {
            offset: Vec2::ZERO,
            cell_px: 16.0,
            show_grid: false,
            fit_pending: true,
            canvas: Rect::NOTHING,
            keyboard: true,
            texture: None,
            show_sprites: true,
            animate_tiles: true,
        }
    }
}

impl std::fmt::Debug for View {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("View")
            .field("offset", &self.offset)
            .field("cell_px", &self.cell_px)
            .field("show_grid", &self.show_grid)
            .field("canvas", &self.canvas)
            .finish_non_exhaustive()
    }
}

impl View {
    pub fn screen_from_grid(&self, cell: Cell) -> Pos2 {
        self.canvas.min + self.offset + vec2(cell.x as f32, cell.y as f32) * self.cell_px
    }

    pub fn grid_from_screen(&self, pos: Pos2) -> Cell {
        let g = (pos - self.canvas.min - self.offset) / self.cell_px;
        Cell::new(g.x.floor() as i32, g.y.floor() as i32)
    }

    /// A point in map pixels (Tiled's coordinates: `tile_size` pixels a cell) on screen.
    pub(crate) fn screen_from_pixels(&self, [x, y]: [f64; 2], tile_size: [u32; 2]) -> Pos2 {
        let [tw, th] = tile_size.map(|t| f64::from(t.max(1)));
        self.screen_from_grid(Cell::new(0, 0)) + vec2((x / tw) as f32, (y / th) as f32) * self.cell_px
    }

    /// A point in the map pixels of a layer drawn moved by `shift` (its offset, its groups'
    /// added) on screen.
    pub(crate) fn screen_from_layer_pixels(&self, p: [f64; 2], shift: [f64; 2], tile_size: [u32; 2]) -> Pos2 {
        self.screen_from_pixels([p[0] + shift[0], p[1] + shift[1]], tile_size)
    }

    /// A grid point (in cells from the map's top-left corner, between cells too) on screen.
    pub(crate) fn screen_from_grid_point(&self, g: Pos2) -> Pos2 {
        self.screen_from_grid(Cell::new(0, 0)) + g.to_vec2() * self.cell_px
    }

    pub fn cell_rect(&self, cell: Cell) -> Rect {
        Rect::from_min_size(self.screen_from_grid(cell), Vec2::splat(self.cell_px))
    }

    pub(crate) fn fit(&mut self, map: &Map) {
        let size = self.canvas.size();
        let (w, h) = (map.width() as f32, map.height() as f32);
        self.cell_px = (size.x / w).min(size.y / h).clamp(MIN_CELL_PX, MAX_CELL_PX);
        self.offset = (size - vec2(w, h) * self.cell_px) / 2.0;
    }

    /// Zooms by `factor`, keeping the grid point under `anchor` (a screen position) in place.
    pub(crate) fn zoom_about(&mut self, anchor: Pos2, factor: f32) {
        let new_px = (self.cell_px * factor).clamp(MIN_CELL_PX, MAX_CELL_PX);
        let local = anchor - self.canvas.min;
        self.offset = local - (local - self.offset) * (new_px / self.cell_px);
        self.cell_px = new_px;
    }

    /// Pans so that `cell`'s centre is in the middle of the canvas.
    pub(crate) fn centre_on(&mut self, cell: Cell) {
        let c = vec2(cell.x as f32 + 0.5, cell.y as f32 + 0.5) * self.cell_px;
        self.offset = self.canvas.size() / 2.0 - c;
    }

    pub(crate) fn zoom_about_centre(&mut self, factor: f32) {
        self.zoom_about(self.canvas.center(), factor);
    }
}

pub(crate) fn color(c: Rgb) -> Color32 {
    Color32::from_rgb(c.0, c.1, c.2)
}

/// A point in cells (as [`CanvasResponse::grid_point`] gives it) in map pixels, on a map of
/// `tile_size` pixels a cell, less `shift` (a layer's offset: the point on that layer's grid).
pub(crate) fn pixels_from_grid(g: Pos2, tile_size: [u32; 2], shift: [f64; 2]) -> [f64; 2] {
    let [tw, th] = tile_size.map(|t| f64::from(t.max(1)));
    [f64::from(g.x) * tw - shift[0], f64::from(g.y) * th - shift[1]]
}

/// What the primary and secondary buttons did on the canvas this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerAction {
    /// A drag began: where the button went down, and where the pointer is now.
    Pressed {
        origin: Cell,
        current: Cell,
    },
    Dragged(Cell),
    Released,
    /// A single click: pressed and released in place.
    Clicked(Cell),
    SecondaryClicked(Cell),
}

/// The map cells on screen: `x0..x1` × `y0..y1`, clipped to the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VisibleCells {
    pub(crate) x0: i32,
    pub(crate) y0: i32,
    pub(crate) x1: i32,
    pub(crate) y1: i32,
    pub(crate) map_width: i32,
    pub(crate) map_height: i32,
}

impl VisibleCells {
    pub(crate) fn iter(self) -> impl Iterator<Item = Cell> {
        (self.y0..self.y1).flat_map(move |y| (self.x0..self.x1).map(move |x| Cell::new(x, y)))
    }
}

/// Where tile `index` of `sheet` sits in its texture. Half a texel in from each edge: sampling
/// exactly on the edge would pick up the tileset's spacing (seams between tiles).
pub(crate) fn sprite_uv(sheet: &SpriteSheet, index: u32, texture: &SheetTexture) -> Rect {
    let (sx, sy, sw, sh) = sheet.source_rect(index);
    let size = texture.size;
    Rect::from_min_max(
        pos2((sx as f32 + 0.5) / size[0], (sy as f32 + 0.5) / size[1]),
        pos2(((sx + sw) as f32 - 0.5) / size[0], ((sy + sh) as f32 - 0.5) / size[1]),
    )
}

/// Tile `tile`'s image, when its tileset's texture is loaded: the sheet's index, its texture,
/// and where the tile sits in it.
pub(crate) fn tile_sprite<'a>(
    map: &Map,
    sheets: &'a [Option<SheetTexture>],
    tile: TileId,
) -> Option<(usize, &'a SheetTexture, Rect)> {
    let sprite = map.tiles.get(usize::from(tile))?.sprite?;
    let sheet = usize::from(sprite.sheet);
    let texture = sheets.get(sheet)?.as_ref()?;
    Some((sheet, texture, sprite_uv(map.sheets.get(sheet)?, sprite.index, texture)))
}

/// The tile drawn for `tile` at `clock_ms` into the tile animations (`None`: animations off,
/// each tile as itself), as Tiled plays them; lowers `next_frame_in` to the milliseconds until
/// this one changes frame.
pub(crate) fn shown_frame(map: &Map, tile: TileId, clock_ms: Option<u64>, next_frame_in: &mut Option<u64>) -> TileId {
    let Some(clock) = clock_ms else { return tile };
    let Some(kind) = map.tiles.get(usize::from(tile)).filter(|k| !k.animation.is_empty()) else { return tile };
    if let Some(wait) = kind.next_frame_in(clock) {
        *next_frame_in = Some(next_frame_in.map_or(wait, |w| w.min(wait)));
    }
    kind.frame_at(clock).unwrap_or(tile)
}

/// What a click or the stroke in progress would paint, drawn over the map: its cells tinted,
/// and the tiles it would put there (the brush's tile turned as it is, or a stamp's tiles).
#[derive(Clone, Debug, Default)]
pub(crate) struct Preview {
    pub(crate) cells: Vec<Cell>,
    pub(crate) tiles: Vec<(Cell, TileId, Flip)>,
    /// The corner or edge the terrain brush paints, marked over the tiles.
    pub(crate) spot: Option<crate::core::edit::terrain::Part>,
    /// The tile types and sheets (with their textures) `tiles` are drawn with, when not the
    /// map's: a paste from another map brings some (see `StampTransferCache`).
    pub(crate) palette: Option<(std::sync::Arc<Map>, Vec<Option<SheetTexture>>)>,
}

/// Image tiles waiting to be drawn, in meshes of one texture each (a mesh has one). Tiles that
/// stay inside their cells never overlap, so one mesh a tileset will do. Tiles that reach beyond
/// their cells (larger than the grid, or offset) overlap, and then Tiled's order must hold
/// across tilesets: `in_order` starts a new mesh whenever the tileset changes.
pub(crate) struct SpriteBatch<'a> {
    sheets: &'a [Option<SheetTexture>],
    in_order: bool,
    /// By sheet index, in the order they are drawn.
    meshes: Vec<(usize, Mesh)>,
}

impl<'a> SpriteBatch<'a> {
    pub(crate) fn new(sheets: &'a [Option<SheetTexture>], in_order: bool) -> Self {
        Self { sheets, in_order, meshes: Vec::new() }
    }

    /// The mesh the next tile of sheet `sheet` goes into (`sheet` must have a texture).
    pub(crate) fn mesh(&mut self, sheet: usize) -> &mut Mesh {
        let at = if self.in_order {
            self.meshes.last().filter(|(s, _)| *s == sheet).map(|_| self.meshes.len() - 1)
        } else {
            self.meshes.iter().position(|(s, _)| *s == sheet)
        };
        let at = at.unwrap_or_else(|| {
            let texture = self.sheets.get(sheet).and_then(Option::as_ref).map_or(egui::TextureId::default(), |t| t.id);
            self.meshes.push((sheet, Mesh::with_texture(texture)));
            self.meshes.len() - 1
        });
        &mut self.meshes[at].1
    }

    pub(crate) fn paint(self, painter: &egui::Painter) {
        for (_, m) in self.meshes.into_iter().filter(|(_, m)| !m.is_empty()) {
            painter.add(egui::Shape::mesh(m));
        }
    }
}

/// Draws `preview`'s tiles, see-through, then tints its cells.
fn preview_ui(
    painter: &egui::Painter,
    map: &Map,
    sheets: &[Option<SheetTexture>],
    view: &View,
    visible: VisibleCells,
    preview: &Preview,
) {
    let shown = |c: Cell| c.x >= visible.x0 && c.x < visible.x1 && c.y >= visible.y0 && c.y < visible.y1;
    let see_through = 0.7;
    let mut plain = Mesh::default();
    let mut sprite_meshes = SpriteBatch::new(sheets, sprite_reach(map) > 0);
    let mut glyphs = Vec::new();
    for &(c, t, flip) in preview.tiles.iter().filter(|(c, _, _)| shown(*c)) {
        let Some(kind) = map.tiles.get(usize::from(t)) else { continue };
        let r = view.cell_rect(c);
        match tile_sprite(map, sheets, t).filter(|_| view.show_sprites) {
            Some((sheet, _, uv)) => {
                let r = sprite_rect(map, &map.sheets[sheet], view, c);
                add_flipped_sprite(sprite_meshes.mesh(sheet), r, uv, flip, Color32::WHITE.gamma_multiply(see_through));
            }
            None => {
                plain.add_colored_rect(r, color(kind.glyph.bg).gamma_multiply(see_through));
                if view.cell_px >= MIN_GLYPH_PX && kind.glyph.ch != ' ' {
                    glyphs.push((r.center(), kind.glyph.ch, color(kind.glyph.fg).gamma_multiply(see_through)));
                }
            }
        }
    }
    painter.add(egui::Shape::mesh(plain));
    sprite_meshes.paint(painter);
    let font = FontId::monospace(view.cell_px * 0.8);
    for (pos, ch, fg) in glyphs {
        painter.text(pos, Align2::CENTER_CENTER, ch, font.clone(), fg);
    }
    // Lighter over tiles drawn above, so that they show.
    let tint = if preview.tiles.is_empty() { 70 } else { 35 };
    for &c in preview.cells.iter().filter(|c| shown(**c)) {
        painter.rect_filled(view.cell_rect(c), 0.0, Color32::from_rgba_unmultiplied(255, 220, 90, tint));
    }
    terrain_spot_ui(painter, view, preview.spot);
}

/// Marks the corner (a dot) or edge (a bar) the terrain brush paints.
fn terrain_spot_ui(painter: &egui::Painter, view: &View, spot: Option<crate::core::edit::terrain::Part>) {
    use crate::core::edit::terrain::Part;
    let colour = Color32::from_rgb(255, 230, 90);
    let width = (view.cell_px * 0.15).clamp(2.0, 6.0);
    let (from, to) = match spot {
        Some(Part::Corner(x, y)) => {
            painter.circle_filled(view.screen_from_grid(Cell::new(x, y)), width, colour);
            return;
        }
        Some(Part::TopEdge(x, y)) => (Cell::new(x, y), Cell::new(x + 1, y)),
        Some(Part::LeftEdge(x, y)) => (Cell::new(x, y), Cell::new(x, y + 1)),
        None => return,
    };
    painter.line_segment([view.screen_from_grid(from), view.screen_from_grid(to)], Stroke::new(width, colour));
}

/// Adds a rectangle showing the texture's `uv` part turned by `flip` (Tiled's flags): each
/// corner of `rect` takes the texture corner the flip draws there.
pub(crate) fn add_flipped_sprite(mesh: &mut Mesh, rect: Rect, uv: Rect, flip: Flip, tint: Color32) {
    if flip.is_none() {
        mesh.add_rect_with_uv(rect, uv, tint);
        return;
    }
    add_flipped_quad(
        mesh,
        [rect.left_top(), rect.right_top(), rect.left_bottom(), rect.right_bottom()],
        uv,
        flip,
        tint,
    );
}

/// Adds the texture's `uv` part turned by `flip` on the four points `corners` (top left, top
/// right, bottom left, bottom right of the image as drawn unflipped; any quadrilateral, so a
/// turned tile object too).
pub(crate) fn add_flipped_quad(mesh: &mut Mesh, corners: [Pos2; 4], uv: Rect, flip: Flip, tint: Color32) {
    // A texture corner from centred coordinates (±1).
    let corner =
        |r: Rect, p: [i8; 2]| pos2(if p[0] < 0 { r.min.x } else { r.max.x }, if p[1] < 0 { r.min.y } else { r.max.y });
    let first = mesh.vertices.len() as u32;
    // Top left, top right, bottom left, bottom right: the order `add_rect_with_uv` uses.
    for (pos, p) in corners.into_iter().zip([[-1, -1], [1, -1], [-1, 1], [1, 1]]) {
        mesh.vertices.push(egui::epaint::Vertex { pos, uv: corner(uv, flip.source_of(p)), color: tint });
    }
    mesh.add_triangle(first, first + 1, first + 2);
    mesh.add_triangle(first + 2, first + 1, first + 3);
}

pub(crate) struct CanvasResponse {
    pub(crate) hovered: Option<Cell>,
    /// Where the pointer is, in cells from the map's top-left corner (fractional).
    pub(crate) grid_point: Option<Pos2>,
    /// Where the button went down, likewise, when a drag begins this frame.
    pub(crate) press_point: Option<Pos2>,
    pub(crate) dropped_file: Option<PathBuf>,
    pub(crate) pointer: Option<PointerAction>,
}

/// Where a tile of `sheet` on `cell` is drawn, as Tiled draws an orthogonal map: into a box of
/// the tile's own size, or the grid's when its tileset says `tilerendersize="grid"` (in map
/// pixels, scaled as the grid is), the box's bottom-left corner on the cell's; the image fills
/// the box or fits in it (`fillmode`), then moves by the tileset's offset. A tile the grid's
/// size with no offset fills its cell.
pub(crate) fn sprite_rect(map: &Map, sheet: &SpriteSheet, view: &View, cell: Cell) -> Rect {
    let r = view.cell_rect(cell);
    let [tw, th] = map.tile_size;
    if [sheet.tile_width, sheet.tile_height] == [tw, th] && sheet.offset == [0, 0] || tw == 0 || th == 0 {
        return r;
    }
    let grid = [f64::from(tw), f64::from(th)];
    let image = [f64::from(sheet.tile_width), f64::from(sheet.tile_height)];
    let size = if sheet.drawing.grid_size { grid } else { image };
    let offset = sheet.offset.map(f64::from);
    let [[x, y], [w, h]] = sheet.drawing.place_in_box(image, [0.0, grid[1] - size[1]], size, offset);
    let (sx, sy) = (view.cell_px / tw as f32, view.cell_px / th as f32);
    Rect::from_min_size(r.min + vec2(x as f32 * sx, y as f32 * sy), vec2(w as f32 * sx, h as f32 * sy))
}

/// Draws a Tiled object's geometry: a zone's or path's outline, see-through inside, in the
/// object's colour; a tile object's tile into `tile_objects` (one mesh a sheet).
#[allow(clippy::too_many_arguments)]
fn object_shape_ui(
    painter: &egui::Painter,
    map: &Map,
    sheets: &[Option<SheetTexture>],
    view: &View,
    corner: Pos2,
    shape: &ObjectShape,
    colour: Color32,
    tint: Color32,
    tile_objects: &mut SpriteBatch,
) {
    let [tw, th] = map.tile_size.map(|t| t.max(1) as f32);
    let screen = |[x, y]: [f64; 2]| corner + vec2(x as f32 * view.cell_px / tw, y as f32 * view.cell_px / th);
    if let ShapeKind::Tile { tile, flip, .. } = &shape.kind {
        let Some((s, _, uv)) = tile_sprite(map, sheets, *tile).filter(|_| view.show_sprites) else { return };
        let sheet = &map.sheets[s];
        let image = [f64::from(sheet.tile_width), f64::from(sheet.tile_height)];
        let Some(corners) = shape.tile_corners(&sheet.drawing, image, sheet.offset.map(f64::from)) else { return };
        let corners = corners.map(screen);
        if Rect::from_points(&corners).intersects(view.canvas) {
            add_flipped_quad(tile_objects.mesh(s), corners, uv, *flip, tint);
        }
        return;
    }
    if let ShapeKind::Text { width, text, .. } = &shape.kind {
        let Some(corners) = shape.text_corners() else { return };
        let corners = corners.map(screen);
        if Rect::from_points(&corners).intersects(view.canvas) {
            let scale = vec2(view.cell_px / tw, view.cell_px / th);
            text_object_ui(painter, corners, shape.rotation as f32, *width as f32 * scale.x, scale.y, text, colour.a());
        }
        return;
    }
    let Some((points, closed)) = shape.outline() else { return };
    let points: Vec<Pos2> = points.into_iter().map(screen).collect();
    if !Rect::from_points(&points).intersects(view.canvas) {
        return;
    }
    let stroke = Stroke::new(1.5, colour);
    if closed {
        // Filled see-through where the fill is convex (egui fills convex shapes only).
        if matches!(shape.kind, ShapeKind::Rectangle { .. } | ShapeKind::Ellipse { .. } | ShapeKind::Capsule { .. }) {
            painter.add(egui::Shape::convex_polygon(points.clone(), colour.gamma_multiply(0.12), Stroke::NONE));
        }
        painter.add(egui::Shape::closed_line(points, stroke));
    } else {
        painter.add(egui::Shape::line(points, stroke));
    }
}

/// Draws a text object's text as Tiled lays it out in its box (`corners`: top-left, top-right,
/// bottom-left, bottom-right on screen; `box_width` on screen, `px` screen pixels a map pixel
/// down): its font size, colour, italics, underline and strike-out, wrapped at the box's width
/// when it wraps, aligned across and down the box, turned by `degrees`, cut at the box when not
/// turned (as Tiled clips it). `alpha`: the layer's opacity, as an alpha. Bold is drawn twice a
/// little apart (egui's fonts have no bold face), and the family is egui's proportional font
/// unless it names a monospace one.
pub(crate) fn text_object_ui(
    painter: &egui::Painter,
    corners: [Pos2; 4],
    degrees: f32,
    box_width: f32,
    px: f32,
    text: &ObjectText,
    alpha: u8,
) {
    let size = text.pixel_size as f32 * px;
    if size < 2.0 {
        return;
    }
    let crate::core::Rgba(r, g, b, a) = text.color;
    let color = Color32::from_rgba_unmultiplied(r, g, b, a).gamma_multiply(f32::from(alpha) / 255.0);
    let family = text.font_family.to_lowercase();
    let monospace = ["mono", "courier", "consol", "fixed"].iter().any(|m| family.contains(m));
    let family = if monospace { egui::FontFamily::Monospace } else { egui::FontFamily::Proportional };
    let line = |on: bool| if on { Stroke::new((size / 14.0).max(1.0), color) } else { Stroke::NONE };
    let mut job = egui::text::LayoutJob::default();
    job.append(
        &text.text,
        0.0,
        egui::TextFormat {
            font_id: FontId::new(size, family),
            color,
            italics: text.italic,
            underline: line(text.underline),
            strikethrough: line(text.strikeout),
            ..Default::default()
        },
    );
    job.wrap.max_width = if text.wrap { box_width.max(1.0) } else { f32::INFINITY };
    job.justify = text.wrap && text.halign == HorizontalAlign::Justify;
    // egui aligns each row about x = 0: the galley's anchor goes at the box's left, middle or
    // right, `across` the box's width from its left.
    let across;
    (job.halign, across) = match text.halign {
        HorizontalAlign::Left | HorizontalAlign::Justify => (egui::Align::LEFT, 0.0),
        HorizontalAlign::Center => (egui::Align::Center, 0.5),
        HorizontalAlign::Right => (egui::Align::RIGHT, 1.0),
    };
    let galley = painter.layout_job(job);
    let [top_left, top_right, bottom_left, _] = corners;
    let (along, down) = (top_right - top_left, bottom_left - top_left);
    let box_height = down.length();
    let lowered = match text.valign {
        VerticalAlign::Top => 0.0,
        VerticalAlign::Center => (box_height - galley.size().y) / 2.0,
        VerticalAlign::Bottom => box_height - galley.size().y,
    };
    // The anchor in the box's own (turned) axes.
    let unit = |v: Vec2| if v.length() > 0.0 { v / v.length() } else { Vec2::ZERO };
    let (along, down) = if degrees == 0.0 { (Vec2::X, Vec2::Y) } else { (unit(along), unit(down)) };
    let anchor = top_left + along * (across * box_width) + down * lowered;
    let clip = if degrees == 0.0 {
        // egui slants its upright glyphs for italics, past the right of the box's last column.
        let slant = if text.italic { size * 0.3 } else { 0.0 };
        painter.clip_rect().intersect(Rect::from_two_pos(top_left, corners[3]).expand2(vec2(slant, 0.0)))
    } else {
        painter.clip_rect()
    };
    let painter = painter.with_clip_rect(clip);
    let angle = degrees.to_radians();
    let shapes = if text.bold { [Vec2::ZERO, along * (size / 18.0).max(0.5)].to_vec() } else { vec![Vec2::ZERO] };
    // A rim of the contrasting shade, a pixel around the letters: Tiled's default black text
    // is lost on a dark canvas (and light text on light tiles) without it.
    let luminance = 0.2126 * f32::from(r) + 0.7152 * f32::from(g) + 0.0722 * f32::from(b);
    let rim = if luminance < 110.0 { Color32::from_gray(225) } else { Color32::from_gray(15) };
    let rim = rim.gamma_multiply(0.6 * f32::from(a) / 255.0 * f32::from(alpha) / 255.0);
    for offset in [vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0)] {
        for &shift in &shapes {
            let shape = egui::epaint::TextShape::new(anchor + shift + offset, galley.clone(), rim);
            painter.add(shape.with_override_text_color(rim).with_angle(angle));
        }
    }
    for shift in shapes {
        painter.add(egui::epaint::TextShape::new(anchor + shift, galley.clone(), color).with_angle(angle));
    }
}

/// The colour an object's marker and shape are drawn in, by its kind.
fn object_colour(o: &crate::core::MapObject) -> Color32 {
    kind_colour(&o.kind)
}

/// The colour the objects of a kind are drawn in (on the canvas and in the play pane).
pub(crate) fn kind_colour(kind: &ObjectKind) -> Color32 {
    match kind {
        ObjectKind::PlayerStart => Color32::from_rgb(255, 230, 90),
        ObjectKind::Monster { .. } => Color32::from_rgb(240, 80, 70),
        ObjectKind::Item => Color32::from_rgb(120, 220, 255),
        ObjectKind::Light { .. } => Color32::from_rgb(255, 200, 120),
        ObjectKind::Other(_) => Color32::from_rgb(200, 120, 255),
    }
}

/// What a layer's images are multiplied by: its tint (Tiled's tint colour), faded by its opacity,
/// its groups' composed in.
fn look_tint(look: &LayerLook) -> Color32 {
    look.tint
        .map_or(Color32::WHITE, |t| Color32::from_rgba_unmultiplied(t.0, t.1, t.2, t.3))
        .gamma_multiply(look.opacity)
}

/// How far on screen a layer is drawn from its cells: its offset in map pixels (its groups'
/// added), at the view's scale.
pub(crate) fn look_shift(map: &Map, view: &View, look: &LayerLook) -> Vec2 {
    let [tw, th] = map.tile_size.map(|t| t.max(1) as f32);
    vec2(look.offset[0] as f32 / tw, look.offset[1] as f32 / th) * view.cell_px
}

/// Draws the Tiled geometry of object layer `j`'s objects (zones, paths, tile objects), in the
/// layer's colour if it has one (else each in its kind's colour), as `look` says (the layer's
/// opacity and its groups' look: opacity, tile objects' tint, offset). The game's own markers
/// stay on their cells.
fn object_layer_shapes_ui(
    painter: &egui::Painter,
    map: &Map,
    sheets: &[Option<SheetTexture>],
    view: &View,
    j: usize,
    look: &LayerLook,
) {
    let Some(layer) = map.object_layers.get(j) else { return };
    // Tile objects are drawn in the layer's order: they may overlap whatever their size.
    let mut tile_objects = SpriteBatch::new(sheets, true);
    let tint = look_tint(look);
    let shift = look_shift(map, view, look);
    // A hidden object is not drawn, as in Tiled; shapes are drawn in the layer's draw order.
    for o in map.objects_in_draw_order(j).into_iter().filter(|o| o.visible) {
        if let Some(shape) = &o.shape {
            let colour = layer.color.map_or_else(|| object_colour(o), |c| Color32::from_rgb(c.0, c.1, c.2));
            let colour = colour.gamma_multiply(look.opacity * o.opacity);
            let corner = view.screen_from_grid(o.cell) + shift;
            let tint = tint.gamma_multiply(o.opacity);
            object_shape_ui(painter, map, sheets, view, corner, shape, colour, tint, &mut tile_objects);
        }
    }
    tile_objects.paint(painter);
}

/// How many cells beyond its own a tile image can reach (tiles larger than the grid, tileset
/// and layer offsets), at most, over all of the map's sheets and layers.
pub(crate) fn sprite_reach(map: &Map) -> i32 {
    let [tw, th] = map.tile_size.map(|t| t.max(1) as i64);
    // The offsets the layers are drawn at, their groups' added.
    let layers = map
        .tile_looks()
        .iter()
        .map(|l| {
            let cells = |px: f64, side: i64| (px.abs() / side as f64).ceil().min(64.0) as i64;
            cells(l.offset[0], tw).max(cells(l.offset[1], th))
        })
        .max()
        .unwrap_or(0);
    let sheets = map
        .sheets
        .iter()
        .map(|s| {
            let (mut w, mut h) = (i64::from(s.tile_width), i64::from(s.tile_height));
            let (mut ox, mut oy) = (i64::from(s.offset[0]), i64::from(s.offset[1]));
            if s.drawing.grid_size {
                // Drawn in the cell, the offset scaled as the image is (at most by the
                // stretch's ratio on each axis).
                (ox, oy) = ((ox * tw).div_euclid(w.max(1)), (oy * th).div_euclid(h.max(1)));
                (w, h) = (tw, th);
            }
            let cells = |px: i64, side: i64| (px.max(0) + side - 1) / side;
            cells(w - tw + ox, tw).max(cells(-ox, tw)).max(cells(h - th - oy, th)).max(cells(oy, th))
        })
        .max()
        .unwrap_or(0);
    (sheets + layers).min(64) as i32
}

/// Draws `map` and handles pan (middle drag, Space+drag, arrow keys) and zoom (wheel about the
/// cursor). Only the cells in view are drawn; backgrounds go into one mesh. `overlay` draws over
/// the map (below the stroke preview and the hover outline).
#[allow(clippy::too_many_arguments)]
pub(crate) fn canvas_ui(
    ui: &mut egui::Ui,
    map: &Map,
    revision: u64,
    sheets: &[Option<SheetTexture>],
    view: &mut View,
    preview: &Preview,
    overlay: &mut dyn FnMut(&egui::Painter, &View, VisibleCells),
) -> CanvasResponse {
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    view.canvas = rect;
    if view.fit_pending && rect.width() > 0.0 {
        view.fit(map);
        view.fit_pending = false;
    }
    let space_down = ui.input(|i| i.key_down(egui::Key::Space));
    if response.dragged_by(egui::PointerButton::Middle)
        || (space_down && response.dragged_by(egui::PointerButton::Primary))
    {
        view.offset += response.drag_delta();
    }
    if let Some(hover) = response.hover_pos() {
        let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = zoom * (scroll / 200.0).exp();
        if factor != 1.0 {
            view.zoom_about(hover, factor);
        }
    }
    if view.keyboard && !ui.ctx().egui_wants_keyboard_input() {
        let step = 12.0;
        ui.input(|i| {
            // Ctrl with an arrow is a shortcut (Ctrl+Shift+Up raises the layer), not a pan.
            if i.modifiers.command {
                return;
            }
            let mut pan = Vec2::ZERO;
            if i.key_down(egui::Key::ArrowLeft) {
                pan.x += step;
            }
            if i.key_down(egui::Key::ArrowRight) {
                pan.x -= step;
            }
            if i.key_down(egui::Key::ArrowUp) {
                pan.y += step;
            }
            if i.key_down(egui::Key::ArrowDown) {
                pan.y -= step;
            }
            view.offset += pan;
        });
    }

    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::from_gray(CANVAS_GREY));
    // Tiled's background colour, where no tile covers the map.
    if let Some(c) = map.background {
        let whole = Rect::from_min_size(
            view.screen_from_grid(Cell::new(0, 0)),
            vec2(map.width() as f32, map.height() as f32) * view.cell_px,
        );
        painter.rect_filled(whole, 0.0, Color32::from_rgba_unmultiplied(c.0, c.1, c.2, c.3));
    }
    // The visible range of cells.
    let top_left = view.grid_from_screen(rect.min);
    let bottom_right = view.grid_from_screen(rect.max);
    let x0 = top_left.x.max(0);
    let y0 = top_left.y.max(0);
    let x1 = (bottom_right.x + 1).min(map.width() as i32);
    let y1 = (bottom_right.y + 1).min(map.height() as i32);

    let draw_glyphs = view.cell_px >= MIN_GLYPH_PX;
    // Whether the object layers' shapes were drawn among the tile layers' images.
    let mut shapes_drawn = false;
    // Each object layer's look, its groups' composed in.
    let object_looks = map.object_looks();
    if view.cell_px < MIN_MESH_PX {
        // Zoomed out: the whole map is one textured rectangle (rebuilt when the map changes).
        let key = picture_key(revision, view.show_sprites, sheets);
        if view.texture.as_ref().is_none_or(|(k, _)| *k != key) {
            let image = map_picture(map, sheets, view.show_sprites, GlyphColour::Background, MAX_TEXTURE_SIDE);
            view.texture = Some((key, ui.ctx().load_texture("map", image, egui::TextureOptions::NEAREST)));
        }
        if let Some((_, texture)) = &view.texture {
            let whole = Rect::from_min_size(
                view.screen_from_grid(Cell::new(0, 0)),
                vec2(map.width() as f32, map.height() as f32) * view.cell_px,
            );
            painter.image(texture.id(), whole, Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)), Color32::WHITE);
        }
    } else {
        // Cells whose top tile is drawn as glyphs: one rectangle each, its background (lower
        // layers are hidden under it), all in one mesh; then the glyphs. Cells whose top tile
        // has an image: every visible layer's tile, layer by layer, below.
        let drawn_as_sprite = |t: TileId| {
            view.show_sprites
                && map.tiles[usize::from(t)]
                    .sprite
                    .is_some_and(|sp| matches!(sheets.get(usize::from(sp.sheet)), Some(Some(_))))
        };
        let mut mesh = Mesh::default();
        let font = FontId::monospace(view.cell_px * 0.8);
        let mut glyphs = Vec::new();
        // Each tile layer's look, its groups' composed in.
        let looks = map.tile_looks();
        for y in y0..y1 {
            for x in x0..x1 {
                let cell = Cell::new(x, y);
                let Some(i) = map.index(cell) else { continue };
                let Some((t, bg, fg)) = cell_look(map, &looks, i) else { continue };
                if drawn_as_sprite(t) {
                    continue;
                }
                let r = view.cell_rect(cell);
                mesh.add_colored_rect(r, bg);
                let g = map.tiles[usize::from(t)].glyph;
                if draw_glyphs && g.ch != ' ' {
                    glyphs.push((r.center(), g.ch, fg));
                }
            }
        }
        painter.add(egui::Shape::mesh(mesh));
        // Tile animations run on the app's clock; the frame is drawn again when a visible one
        // changes.
        let clock_ms = view.animate_tiles.then(|| (ui.input(|i| i.time) * 1000.0) as u64);
        let mut next_frame_in: Option<u64> = None;
        if view.show_sprites && sheets.iter().any(Option::is_some) {
            // A tile larger than the grid, or moved by its tileset's offset, reaches into the
            // cells around its own: look that far beyond the visible ones.
            let reach = sprite_reach(map);
            let (ex0, ey0) = ((x0 - reach).max(0), (y0 - reach).max(0));
            let (ex1, ey1) = ((x1 + reach).min(map.width() as i32), (y1 + reach).min(map.height() as i32));
            let in_sprite_cell: Vec<bool> = (ey0..ey1)
                .flat_map(|y| (ex0..ex1).map(move |x| Cell::new(x, y)))
                .map(|c| {
                    map.index(c).and_then(|i| cell_look(map, &looks, i)).is_some_and(|(t, _, _)| drawn_as_sprite(t))
                })
                .collect();
            // Tiled's order: layer by layer, bottom to top (object layers' shapes among them);
            // within a layer, as its render order says (rows top to bottom by default).
            shapes_drawn = true;
            for entry in map.stack() {
                let (layer, look) = match entry {
                    LayerRef::Tiles(i) => (&map.layers[i], looks[i]),
                    LayerRef::Objects(j) => {
                        if object_looks[j].shown {
                            object_layer_shapes_ui(&painter, map, sheets, view, j, &object_looks[j]);
                        }
                        continue;
                    }
                };
                if !look.shown {
                    continue;
                }
                let mut plain = Mesh::default();
                let mut sprite_meshes = SpriteBatch::new(sheets, reach > 0);
                // Tiled's layer tint multiplies the images; its offset moves the whole layer.
                let tint = look_tint(&look);
                let shift = look_shift(map, view, &look);
                // In the map's render order (Tiled's), which decides which overlapping tile
                // is on top.
                let row = (ex1 - ex0).max(0) as usize;
                for cell in map.tiled.render_order.cells(ex0..ex1, ey0..ey1) {
                    let k = (cell.y - ey0) as usize * row + (cell.x - ex0) as usize;
                    if !in_sprite_cell[k] {
                        continue;
                    }
                    let Some(i) = map.index(cell) else { continue };
                    let lt = shown_frame(map, layer.cells[i], clock_ms, &mut next_frame_in);
                    let Some(sprite) = map.tiles.get(usize::from(lt)).and_then(|k| k.sprite) else {
                        // A glyph tile under or over image tiles: its background colour.
                        if lt != 0 {
                            let bg = color(map.tiles[usize::from(lt)].glyph.bg);
                            plain.add_colored_rect(
                                view.cell_rect(cell).translate(shift),
                                bg.gamma_multiply(look.opacity),
                            );
                        }
                        continue;
                    };
                    let s = usize::from(sprite.sheet);
                    let Some(Some(texture)) = sheets.get(s) else { continue };
                    let sheet = &map.sheets[s];
                    let uv = sprite_uv(sheet, sprite.index, texture);
                    let r = sprite_rect(map, sheet, view, cell).translate(shift);
                    add_flipped_sprite(sprite_meshes.mesh(s), r, uv, layer.flip(i), tint);
                }
                painter.add(egui::Shape::mesh(plain));
                sprite_meshes.paint(&painter);
            }
        }
        for (pos, ch, fg) in glyphs {
            painter.text(pos, Align2::CENTER_CENTER, ch, font.clone(), fg);
        }
        if let Some(wait) = next_frame_in {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(wait));
        }
    }
    let font = FontId::monospace(view.cell_px * 0.8);
    // Tiled's object geometry (zones, paths, tile objects), over the tiles when the images did
    // not draw it among them; then each object's marker, over everything. Objects of hidden
    // object layers are not drawn.
    if !shapes_drawn {
        for j in (0..map.object_layers.len()).filter(|&j| object_looks[j].shown) {
            object_layer_shapes_ui(&painter, map, sheets, view, j, &object_looks[j]);
        }
    }
    for o in &map.objects {
        if o.cell.x < x0
            || o.cell.x >= x1
            || o.cell.y < y0
            || o.cell.y >= y1
            || !object_looks[o.layer].shown
            || !o.visible
        {
            continue;
        }
        // A tile object drawn as its tile has no marker (as in Tiled); without its image (tile
        // images off, or not found) the marker shows where it is.
        let drawn_as_itself = |s: &ObjectShape| match s.kind {
            ShapeKind::Tile { tile, .. } => view.show_sprites && tile_sprite(map, sheets, tile).is_some(),
            // A text object is its text, as in Tiled.
            ShapeKind::Text { .. } => true,
            // A designer's zone or path is its outline, as in Tiled (a drag from inside it
            // moves it); the game's own objects keep their marker on their cell.
            ShapeKind::Point => false,
            _ => matches!(o.kind, ObjectKind::Other(_)),
        };
        if o.shape.as_ref().is_some_and(drawn_as_itself) {
            continue;
        }
        let r = view.cell_rect(o.cell);
        let opacity = object_looks[o.layer].opacity * o.opacity;
        let c = object_colour(o).gamma_multiply(opacity);
        if draw_glyphs {
            let backing = Color32::from_black_alpha(160).gamma_multiply(opacity);
            painter.rect_filled(r.shrink(view.cell_px * 0.05), view.cell_px * 0.2, backing);
            painter.text(r.center(), Align2::CENTER_CENTER, o.kind.glyph(), font.clone(), c);
        } else {
            painter.rect_filled(r, 0.0, c);
        }
    }
    if view.show_grid && view.cell_px >= 6.0 {
        let stroke = Stroke::new(1.0, Color32::from_white_alpha(24));
        for x in x0..=x1 {
            let p = view.screen_from_grid(Cell::new(x, y0));
            painter.line_segment([p, pos2(p.x, view.screen_from_grid(Cell::new(x, y1)).y)], stroke);
        }
        for y in y0..=y1 {
            let p = view.screen_from_grid(Cell::new(x0, y));
            painter.line_segment([p, pos2(view.screen_from_grid(Cell::new(x1, y)).x, p.y)], stroke);
        }
    }
    let visible = VisibleCells { x0, y0, x1, y1, map_width: map.width() as i32, map_height: map.height() as i32 };
    overlay(&painter, view, visible);
    match &preview.palette {
        Some((palette, textures)) => preview_ui(&painter, palette, textures, view, visible, preview),
        None => preview_ui(&painter, map, sheets, view, visible, preview),
    }
    let hovered = response.hover_pos().map(|p| view.grid_from_screen(p)).filter(|c| map.in_bounds(*c));
    if let Some(cell) = hovered {
        painter.rect_stroke(view.cell_rect(cell), 0.0, Stroke::new(1.5, Color32::WHITE), egui::StrokeKind::Inside);
    }
    // Painting: the primary button, unless Space turns it into panning.
    let pointer_cell = response.interact_pointer_pos().or(response.hover_pos()).map(|p| view.grid_from_screen(p));
    let pointer = if space_down {
        None
    } else if let Some(c) = pointer_cell {
        if response.clicked_by(egui::PointerButton::Primary) {
            Some(PointerAction::Clicked(c))
        } else if response.secondary_clicked() {
            Some(PointerAction::SecondaryClicked(c))
        } else if response.drag_started_by(egui::PointerButton::Primary) {
            let origin = ui.input(|i| i.pointer.press_origin()).map_or(c, |p| view.grid_from_screen(p));
            Some(PointerAction::Pressed { origin, current: c })
        } else if response.drag_stopped_by(egui::PointerButton::Primary) {
            Some(PointerAction::Released)
        } else if response.dragged_by(egui::PointerButton::Primary) {
            Some(PointerAction::Dragged(c))
        } else {
            None
        }
    } else {
        None
    };
    let grid_of = |p: Pos2| ((p - view.canvas.min - view.offset) / view.cell_px).to_pos2();
    let grid_point = response.interact_pointer_pos().or(response.hover_pos()).map(grid_of);
    let press_point = matches!(pointer, Some(PointerAction::Pressed { .. }))
        .then(|| ui.input(|i| i.pointer.press_origin()).map(grid_of))
        .flatten();
    CanvasResponse { hovered, grid_point, press_point, dropped_file: super::dropped_path(ui.ctx()), pointer }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Layer;
    use crate::core::model::sheet_drawing::SheetDrawing;
    use crate::core::model::tile::{STANDARD_FLOOR, STANDARD_WATER};

    #[test]
    fn a_tile_larger_than_the_grid_is_drawn_at_its_size_from_the_cells_bottom_left_then_offset() {
        // Tiled's perspective_walls: 64-pixel tiles on a 31-pixel grid, moved 32 pixels left.
        let mut map = Map::new_standard(8, 8, STANDARD_FLOOR).unwrap();
        map.tile_size = [31, 31];
        map.sheets.push(SpriteSheet { offset: [-32, 0], ..SpriteSheet::new("walls", "walls.png", [64, 64], 4, 16) });
        // One screen point a map pixel, the canvas at the screen's corner.
        let canvas = Rect::from_min_size(Pos2::ZERO, vec2(800.0, 600.0));
        let view = View { cell_px: 31.0, canvas, ..View::default() };
        let cell = view.cell_rect(Cell::new(2, 3));
        assert_eq!((cell.min, cell.max), (pos2(62.0, 93.0), pos2(93.0, 124.0)));
        let r = sprite_rect(&map, &map.sheets[0], &view, Cell::new(2, 3));
        assert_eq!((r.min, r.max), (pos2(30.0, 60.0), pos2(94.0, 124.0)));
        // It reaches 2 cells left (32 pixels) and up (33), 1 right (64 - 31 - 32 = 1 pixel).
        assert_eq!(sprite_reach(&map), 2);
        // At twice the size, everything doubles.
        let zoomed = View { cell_px: 62.0, canvas, ..View::default() };
        let r2 = sprite_rect(&map, &map.sheets[0], &zoomed, Cell::new(2, 3));
        assert_eq!((r2.min, r2.max), (pos2(60.0, 120.0), pos2(188.0, 248.0)));
        // A tile the grid's size, not offset, fills its cell, and reaches nowhere else.
        map.tile_size = [64, 64];
        map.sheets[0].offset = [0, 0];
        let view = View { cell_px: 64.0, canvas, ..View::default() };
        assert_eq!(sprite_rect(&map, &map.sheets[0], &view, Cell::new(2, 3)), view.cell_rect(Cell::new(2, 3)));
        assert_eq!(sprite_reach(&map), 0);
        // A layer moved 70 pixels (Tiled's layer offset) reaches 2 cells of 64; in a group moved
        // 70 more, 3.
        map.layers[0].offset = [-70.0, 10.0];
        assert_eq!(sprite_reach(&map), 2);
        crate::core::model::layers::group_item(&mut map, crate::core::StackItem::Layer(LayerRef::Tiles(0)), "g")
            .unwrap();
        map.groups[0].offset = [-70.0, 0.0];
        assert_eq!(sprite_reach(&map), 3);
    }

    #[test]
    fn a_tileset_drawn_at_grid_size_fills_its_cell_or_fits_centred_in_it() {
        // 32×64 tiles on a 16-pixel grid, drawn at the grid's size (tilerendersize="grid").
        let mut map = Map::new_standard(8, 8, STANDARD_FLOOR).unwrap();
        map.tile_size = [16, 16];
        map.sheets.push(SpriteSheet {
            drawing: SheetDrawing { grid_size: true, ..SheetDrawing::default() },
            ..SpriteSheet::new("tall", "tall.png", [32, 64], 1, 1)
        });
        let canvas = Rect::from_min_size(Pos2::ZERO, vec2(800.0, 600.0));
        let view = View { cell_px: 32.0, canvas, ..View::default() };
        let cell = view.cell_rect(Cell::new(1, 2));
        // Stretched: the cell exactly, and no reach beyond it.
        assert_eq!(sprite_rect(&map, &map.sheets[0], &view, Cell::new(1, 2)), cell);
        assert_eq!(sprite_reach(&map), 0);
        // Fitted: scaled by a quarter, 8×16 map pixels (16×32 points), centred across the cell.
        map.sheets[0].drawing.preserve_aspect = true;
        let r = sprite_rect(&map, &map.sheets[0], &view, Cell::new(1, 2));
        assert_eq!((r.min, r.max), (pos2(40.0, 64.0), pos2(56.0, 96.0)));
        // The tileset's offset is scaled with the image: 8 pixels left become 2 (4 points).
        map.sheets[0].offset = [-8, 0];
        let r = sprite_rect(&map, &map.sheets[0], &view, Cell::new(1, 2));
        assert_eq!((r.min, r.max), (pos2(36.0, 64.0), pos2(52.0, 96.0)));
        // At the tile's own size (Tiled's default) it stands 4 cells high on its cell.
        map.sheets[0].drawing = SheetDrawing::default();
        map.sheets[0].offset = [0, 0];
        let r = sprite_rect(&map, &map.sheets[0], &view, Cell::new(1, 2));
        assert_eq!((r.min, r.max), (pos2(32.0, -32.0), pos2(96.0, 96.0)));
    }

    #[test]
    fn overlapping_tiles_keep_their_order_across_tilesets() {
        let texture = |n| {
            Some(SheetTexture { id: egui::TextureId::Managed(n), size: [8.0, 8.0], tile_colours: Default::default() })
        };
        let sheets = [texture(1), texture(2)];
        let order = |in_order: bool| {
            let mut batch = SpriteBatch::new(&sheets, in_order);
            for sheet in [0, 1, 1, 0] {
                add_flipped_sprite(batch.mesh(sheet), Rect::ZERO, Rect::ZERO, Flip::default(), Color32::WHITE);
            }
            batch.meshes.iter().map(|(s, m)| (*s, m.texture_id, m.vertices.len() / 4)).collect::<Vec<_>>()
        };
        let (one, two) = (egui::TextureId::Managed(1), egui::TextureId::Managed(2));
        // Tiles in their cells: one mesh a tileset.
        assert_eq!(order(false), [(0, one, 2), (1, two, 2)]);
        // Tiles that overlap: the last tile of the first tileset is drawn last, over the others.
        assert_eq!(order(true), [(0, one, 1), (1, two, 2), (0, one, 1)]);
    }

    #[test]
    fn an_object_layers_shapes_move_and_fade_with_its_group() {
        use crate::core::model::object::{ObjectShape, ShapeKind};
        use crate::core::{MapObject, ObjectKind, StackItem};
        let mut map = Map::new_standard(8, 8, STANDARD_FLOOR).unwrap();
        map.tile_size = [16, 16];
        let mut zone = MapObject::new(ObjectKind::Other("zone".into()), Cell::new(2, 1));
        zone.shape = Some(ObjectShape {
            offset: [0.0, 0.0],
            rotation: 0.0,
            kind: ShapeKind::Rectangle { width: 16.0, height: 16.0 },
        });
        map.add_object(zone);
        let group =
            crate::core::model::layers::group_item(&mut map, StackItem::Layer(LayerRef::Objects(0)), "g").unwrap();
        map.groups[group].offset = [32.0, -16.0];
        map.groups[group].opacity = 0.5;
        // One screen point a map pixel.
        let view =
            View { cell_px: 16.0, canvas: Rect::from_min_size(Pos2::ZERO, vec2(400.0, 400.0)), ..View::default() };
        let ctx = egui::Context::default();
        let look = map.look(LayerRef::Objects(0));
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            object_layer_shapes_ui(ui.painter(), &map, &[], &view, 0, &look);
        });
        // No renderer here to take the font atlas.
        output.textures_delta.clear();
        // The outline (not its see-through fill): the cell (2, 1) at (32, 16), moved 32 right
        // and 16 up.
        let outline = output.shapes.iter().find_map(|s| match &s.shape {
            egui::Shape::Path(p) if p.closed && p.stroke.width > 0.0 => {
                Some((p.points.clone(), p.stroke.color.clone()))
            }
            _ => None,
        });
        let (points, colour) = outline.expect("the rectangle's outline");
        assert_eq!(Rect::from_points(&points), Rect::from_min_max(pos2(64.0, 0.0), pos2(80.0, 16.0)));
        let full = object_colour(&map.objects[0]);
        assert_eq!(colour, egui::epaint::ColorMode::Solid(full.gamma_multiply(0.5)), "faded by the group's opacity");
        // The object's own opacity fades it further; hidden, it is not drawn at all.
        let shapes = |map: &Map| {
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                object_layer_shapes_ui(ui.painter(), map, &[], &view, 0, &look);
            });
            output.textures_delta.clear();
            output.shapes.into_iter().map(|s| s.shape).collect::<Vec<_>>()
        };
        map.objects[0].opacity = 0.5;
        let faded = shapes(&map).into_iter().find_map(|s| match s {
            egui::Shape::Path(p) if p.closed && p.stroke.width > 0.0 => Some(p.stroke.color),
            _ => None,
        });
        assert_eq!(faded, Some(egui::epaint::ColorMode::Solid(full.gamma_multiply(0.25))));
        map.objects[0].visible = false;
        assert_eq!(shapes(&map), [], "a hidden object");
    }

    #[test]
    fn a_translucent_layer_is_blended_over_the_tile_under_it() {
        let mut map = Map::new_standard(2, 1, STANDARD_FLOOR).unwrap();
        let mut top = Layer::filled("top", 2, 0);
        top.cells[0] = STANDARD_WATER;
        top.opacity = 0.5;
        map.layers.push(top);
        let bg = |t: TileId| color(map.tiles[usize::from(t)].glyph.bg);
        let (floor, water) = (bg(STANDARD_FLOOR), bg(STANDARD_WATER));
        let blended = floor.lerp_to_gamma(water, 0.5);
        assert!(blended != floor && blended != water);
        assert_eq!(cell_look(&map, &map.tile_looks(), 0).map(|(t, bg, _)| (t, bg)), Some((STANDARD_WATER, blended)));
        assert_eq!(
            cell_look(&map, &map.tile_looks(), 1).map(|(t, bg, _)| (t, bg)),
            Some((STANDARD_FLOOR, floor)),
            "no water there"
        );
        map.layers[0].visible = false;
        let over_canvas = Color32::from_gray(CANVAS_GREY).lerp_to_gamma(water, 0.5);
        assert_eq!(
            cell_look(&map, &map.tile_looks(), 0).map(|(_, bg, _)| bg),
            Some(over_canvas),
            "a hidden layer is not under it"
        );
        map.layers[1].opacity = 1.0;
        assert_eq!(cell_look(&map, &map.tile_looks(), 0).map(|(_, bg, _)| bg), Some(water));
    }
}
