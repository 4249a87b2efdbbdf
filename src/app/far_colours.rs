//! The map from afar: one colour a cell, for the zoomed-out canvas (one texel a cell) and the
//! minimap. An image tile shows the average colour of its pixels, so a Tiled map looks like a
//! small picture of itself (grass green, water blue) instead of its tiles' derived glyph colours.
//! A cell's colour is every visible layer's tile laid over the one below, as the canvas draws
//! them: a tree on the fringe layer covers part of the grass under it, a layer at half opacity
//! lets half of what is below through.

use egui::{Color32, ColorImage};

use super::canvas::color;
use super::sprites::SheetTexture;
use crate::core::model::map::LayerLook;
use crate::core::model::sheet::SpriteSheet;
use crate::core::model::tile::Glyph;
use crate::core::{Cell, Map};

/// Which picture of the map a texture shows: the map's revision, whether tile images are shown,
/// and how many tileset images are loaded (an image that loads later changes the picture).
pub(crate) type PictureKey = (u64, bool, usize);

/// The key of the picture `sheets` and `show_sprites` give of the map at `revision`.
pub(crate) fn picture_key(revision: u64, show_sprites: bool, sheets: &[Option<SheetTexture>]) -> PictureKey {
    (revision, show_sprites, sheets.iter().flatten().count())
}

/// A colour with premultiplied alpha, each channel 0 to 1 (gamma space, as egui blends).
type Premultiplied = [f32; 4];

fn premultiplied(c: Color32) -> Premultiplied {
    [c.r(), c.g(), c.b(), c.a()].map(|v| f32::from(v) / 255.0)
}

/// `top` laid over `under` (Porter and Duff's "over", premultiplied).
fn over(top: Premultiplied, under: Premultiplied) -> Premultiplied {
    let keep = 1.0 - top[3];
    [0, 1, 2, 3].map(|k| top[k] + under[k] * keep)
}

/// The average colour of each tile of `sheet` in its image, by tile index, alpha included: a
/// tile whose pixels are half transparent has half the alpha. Each pixel counts by its alpha,
/// so a transparent pixel's colour (often black or magenta) does not darken the tile. Tiles
/// outside the image (a sheet whose tile count is wrong) are transparent.
pub(crate) fn tile_average_colours(image: &ColorImage, sheet: &SpriteSheet) -> Vec<Color32> {
    let [width, height] = image.size;
    (0..sheet.tile_count)
        .map(|index| {
            let (x, y, w, h) = sheet.source_rect(index);
            let (x0, y0) = (x as usize, y as usize);
            let (x1, y1) = ((x0 + w as usize).min(width), (y0 + h as usize).min(height));
            if x0 >= x1 || y0 >= y1 {
                return Color32::TRANSPARENT;
            }
            // egui's pixels are premultiplied: summing them weighs each colour by its alpha.
            let mut sum = [0u64; 4];
            for row in y0..y1 {
                for p in &image.pixels[row * width + x0..row * width + x1] {
                    for (s, v) in sum.iter_mut().zip([p.r(), p.g(), p.b(), p.a()]) {
                        *s += u64::from(v);
                    }
                }
            }
            let n = ((x1 - x0) * (y1 - y0)) as u64;
            let [r, g, b, a] = sum.map(|s| ((s + n / 2) / n) as u8);
            Color32::from_rgba_premultiplied(r, g, b, a)
        })
        .collect()
}

/// The colour a glyph tile shows from afar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GlyphColour {
    /// Its background, as the canvas fills its cell.
    Background,
    /// Its background, or its glyph's colour dimmed where the background is dark, so that walls
    /// drawn as `#` on black still show on the minimap.
    Legible,
}

impl GlyphColour {
    fn of(self, glyph: Glyph) -> Color32 {
        let lum = |c: crate::core::Rgb| u32::from(c.0) + u32::from(c.1) + u32::from(c.2);
        match self {
            GlyphColour::Legible if lum(glyph.bg) < 90 => {
                let dim = |v: u8| (f32::from(v) * 0.55).round() as u8;
                Color32::from_rgb(dim(glyph.fg.0), dim(glyph.fg.1), dim(glyph.fg.2))
            }
            _ => color(glyph.bg),
        }
    }
}

/// The colour of cell `i` from afar: its visible layers' tiles laid bottom to top, each at its
/// layer's opacity, image tiles as their average colour times the layer's tint, glyph tiles as
/// `glyphs` says. Transparent where no visible layer has a tile. Image tiles whose tileset image
/// is not loaded, or all of them when `show_sprites` is off, show as glyphs, as on the canvas.
pub(crate) fn cell_colour(
    map: &Map,
    looks: &[LayerLook],
    sheets: &[Option<SheetTexture>],
    show_sprites: bool,
    glyphs: GlyphColour,
    i: usize,
) -> Color32 {
    let mut colour: Premultiplied = [0.0; 4];
    for (layer, look) in map.layers.iter().zip(looks).filter(|(_, look)| look.shown && look.opacity > 0.0) {
        let tile = layer.cells[i];
        if tile == 0 {
            continue;
        }
        let Some(kind) = map.tiles.get(usize::from(tile)) else { continue };
        let image = kind
            .sprite
            .filter(|_| show_sprites)
            .and_then(|s| sheets.get(usize::from(s.sheet))?.as_ref()?.tile_colours.get(s.index as usize).copied());
        let mut top = match image {
            Some(average) => {
                let tint = look.tint.map_or([1.0; 4], |t| [t.0, t.1, t.2, t.3].map(|v| f32::from(v) / 255.0));
                let average = premultiplied(average);
                [0, 1, 2, 3].map(|k| average[k] * tint[k])
            }
            None => premultiplied(glyphs.of(kind.glyph)),
        };
        for v in &mut top {
            *v *= look.opacity;
        }
        colour = over(top, colour);
    }
    let [r, g, b, a] = colour.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8);
    Color32::from_rgba_premultiplied(r, g, b, a)
}

/// The map as a picture, one pixel a cell, or a cell of every block of cells (its top left)
/// when the map is more than `max_side` cells wide or high.
pub(crate) fn map_picture(
    map: &Map,
    sheets: &[Option<SheetTexture>],
    show_sprites: bool,
    glyphs: GlyphColour,
    max_side: u32,
) -> ColorImage {
    let step = map.width().max(map.height()).div_ceil(max_side.max(1)).max(1);
    let (w, h) = (map.width().div_ceil(step), map.height().div_ceil(step));
    let mut pixels = Vec::with_capacity((w * h) as usize);
    let looks = map.tile_looks();
    for y in 0..h {
        for x in 0..w {
            let i = map.index(Cell::new((x * step) as i32, (y * step) as i32)).expect("inside the map");
            pixels.push(cell_colour(map, &looks, sheets, show_sprites, glyphs, i));
        }
    }
    ColorImage::new([w as usize, h as usize], pixels)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::core::model::tile::{Rgb, Sprite, TileKind};
    use crate::core::{Layer, Map};

    /// A 2×1 tile sheet: tile 0 half green, half transparent; tile 1 all blue.
    fn sheet_and_image() -> (SpriteSheet, ColorImage) {
        let sheet = SpriteSheet::new("t", "t.png", [2, 1], 2, 3);
        let (g, b, clear) = (Color32::from_rgb(0, 200, 0), Color32::from_rgb(0, 0, 255), Color32::TRANSPARENT);
        (sheet, ColorImage::new([4, 1], vec![g, clear, b, b]))
    }

    #[test]
    fn a_tile_averages_its_pixels_by_their_alpha() {
        let (sheet, image) = sheet_and_image();
        let colours = tile_average_colours(&image, &sheet);
        // Half the pixels green, half transparent: green at half alpha, not a darker green.
        assert_eq!(colours[0], Color32::from_rgba_premultiplied(0, 100, 0, 128));
        assert_eq!(colours[1], Color32::from_rgb(0, 0, 255));
        // The sheet says three tiles, the image holds two.
        assert_eq!(colours[2], Color32::TRANSPARENT);
    }

    #[test]
    fn a_cell_lays_its_visible_layers_over_one_another() {
        let (sheet, image) = sheet_and_image();
        let black = Rgb(0, 0, 0);
        let half_green = TileKind::new("half green", '"', Rgb(90, 90, 90), Rgb(10, 60, 10), false, true);
        let blue = TileKind::new("blue", '~', black, Rgb(20, 20, 90), false, true);
        let red = TileKind::new("red", '.', black, Rgb(200, 0, 0), false, true);
        let empty = TileKind::new("empty", ' ', black, black, false, true);
        let (half_green_id, blue_id, red_id) = (1, 2, 3);
        let mut map = Map::new(4, 1, vec![empty, half_green, blue, red], 0).unwrap();
        map.sheets.push(sheet.clone());
        map.tiles[1].sprite = Some(Sprite { sheet: 0, index: 0 });
        map.tiles[2].sprite = Some(Sprite { sheet: 0, index: 1 });
        // Cell 0: blue under half green. Cell 1: half green alone. Cell 2: red under blue at
        // half opacity. Cell 3: a hidden layer's tile only.
        map.layers[0].cells = vec![blue_id, 0, red_id, 0];
        map.layers.push(Layer::with_cells("over", vec![half_green_id, half_green_id, 0, 0]));
        let mut glass = Layer::with_cells("glass", vec![0, 0, blue_id, 0]);
        glass.opacity = 0.5;
        map.layers.push(glass);
        let mut hidden = Layer::with_cells("hidden", vec![0, 0, 0, blue_id]);
        hidden.visible = false;
        map.layers.push(hidden);
        let loaded = [Some(SheetTexture {
            id: egui::TextureId::Managed(1),
            size: [4.0, 1.0],
            tile_colours: Arc::new(tile_average_colours(&image, &sheet)),
        })];
        let colours: Vec<_> =
            (0..4).map(|i| cell_colour(&map, &map.tile_looks(), &loaded, true, GlyphColour::Background, i)).collect();
        assert_eq!(colours[0], Color32::from_rgb(0, 100, 127), "half green (alpha 128 of 255) over blue");
        assert_eq!(colours[1], Color32::from_rgba_premultiplied(0, 100, 0, 128), "half green alone");
        assert_eq!(colours[2], Color32::from_rgb(100, 0, 128), "blue at half opacity over red");
        assert_eq!(colours[3], Color32::TRANSPARENT, "a hidden layer shows nothing");
        // A tint multiplies the image's colour.
        map.layers[2].tint = Some(crate::core::model::tile::Rgba(255, 0, 0, 255));
        assert_eq!(
            cell_colour(&map, &map.tile_looks(), &loaded, true, GlyphColour::Background, 2),
            Color32::from_rgb(100, 0, 0)
        );
        // Tile images off, or the sheet not loaded: image tiles show their glyph backgrounds
        // (opaque, so the top tile's), as the canvas draws them.
        let glyph_green = Color32::from_rgb(10, 60, 10);
        assert_eq!(cell_colour(&map, &map.tile_looks(), &loaded, false, GlyphColour::Background, 0), glyph_green);
        assert_eq!(cell_colour(&map, &map.tile_looks(), &[None], true, GlyphColour::Background, 1), glyph_green);
        // The minimap's legible glyphs: a dark background shows its glyph colour, dimmed.
        let legible = cell_colour(&map, &map.tile_looks(), &loaded, false, GlyphColour::Legible, 1);
        assert_eq!(legible, Color32::from_rgb(50, 50, 50));
    }
}
