//! Image tiles: the map's tileset PNGs as textures, loaded once per image file, so the canvas can
//! draw tiles as their Tiled artists drew them (View › Tile images; glyphs otherwise).

use std::collections::HashMap;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::{ColorImage, TextureHandle, TextureId, TextureOptions};

use super::far_colours::tile_average_colours;
use crate::core::Map;
use crate::core::model::tile::Rgb;

/// Biggest tileset image accepted (pixels a side): a corrupt or hostile PNG header cannot make us
/// allocate gigabytes.
const MAX_IMAGE_SIDE: u32 = 16_384;

/// A loaded sheet: its texture, its size in pixels, and each tile's average colour (by tile
/// index; premultiplied alpha), which the map shows from afar.
#[derive(Clone, Debug)]
pub(crate) struct SheetTexture {
    pub(crate) id: TextureId,
    pub(crate) size: [f32; 2],
    pub(crate) tile_colours: Arc<Vec<egui::Color32>>,
}

/// A tileset image as a texture, its size in pixels, and its tiles' average colours.
type LoadedImage = (TextureHandle, [f32; 2], Arc<Vec<egui::Color32>>);

/// What a loaded image is cached by: its absolute path, its transparent colour, and how the
/// sheet cuts it into tiles (tile size, spacing, margin, columns, count), which the average
/// colours depend on.
type ImageKey = (PathBuf, Option<Rgb>, [u32; 6]);

#[derive(Default)]
pub(crate) struct SpriteTextures {
    /// The texture, or why the image could not be loaded.
    loaded: HashMap<ImageKey, Result<LoadedImage, String>>,
}

/// Makes every pixel of colour `key` transparent (Tiled's `trans`: a colour-keyed image).
pub(crate) fn key_out(image: &mut ColorImage, key: Rgb) {
    for p in &mut image.pixels {
        if (p.r(), p.g(), p.b(), p.a()) == (key.0, key.1, key.2, 255) {
            *p = egui::Color32::TRANSPARENT;
        }
    }
}

/// Decodes a PNG file into an RGBA image.
pub fn decode_png(path: &Path) -> Result<ColorImage, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut decoder = png::Decoder::new(BufReader::new(file));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|e| format!("{}: not a PNG the app can read: {e}", path.display()))?;
    let (w, h) = (reader.info().width, reader.info().height);
    if w > MAX_IMAGE_SIDE || h > MAX_IMAGE_SIDE {
        return Err(format!("{}: the image is {w}×{h} pixels; at most {MAX_IMAGE_SIDE} a side", path.display()));
    }
    let size = reader.output_buffer_size().ok_or_else(|| format!("{}: the image is too big", path.display()))?;
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(|e| format!("{}: {e}", path.display()))?;
    let bytes = &buf[..info.buffer_size()];
    let rgba: Vec<u8> = match info.color_type {
        png::ColorType::Rgba => bytes.to_vec(),
        png::ColorType::Rgb => bytes.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        png::ColorType::GrayscaleAlpha => bytes.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        png::ColorType::Grayscale => bytes.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => return Err(format!("{}: an indexed PNG left unexpanded", path.display())),
    };
    Ok(ColorImage::from_rgba_unmultiplied([w as usize, h as usize], &rgba))
}

impl SpriteTextures {
    /// The textures of `map`'s sheets (by sheet index; `None` where an image could not be
    /// loaded), loading what is new. `folder` is where relative image paths start. Load errors
    /// are returned once each, for the status bar.
    pub(crate) fn sheets(
        &mut self,
        ctx: &egui::Context,
        map: &Map,
        folder: &Path,
    ) -> (Vec<Option<SheetTexture>>, Vec<String>) {
        let mut errors = Vec::new();
        let sheets = map
            .sheets
            .iter()
            .map(|sheet| {
                let path = if sheet.image.is_absolute() { sheet.image.clone() } else { folder.join(&sheet.image) };
                let cut =
                    [sheet.tile_width, sheet.tile_height, sheet.spacing, sheet.margin, sheet.columns, sheet.tile_count];
                let entry = self.loaded.entry((path.clone(), sheet.transparent, cut)).or_insert_with(|| {
                    let loaded = decode_png(&path).map(|mut image| {
                        if let Some(key) = sheet.transparent {
                            key_out(&mut image, key);
                        }
                        let size = [image.size[0] as f32, image.size[1] as f32];
                        let colours = Arc::new(tile_average_colours(&image, sheet));
                        (ctx.load_texture(path.display().to_string(), image, TextureOptions::NEAREST), size, colours)
                    });
                    if let Err(e) = &loaded {
                        errors.push(e.clone());
                    }
                    loaded
                });
                entry.as_ref().ok().map(|(handle, size, colours)| SheetTexture {
                    id: handle.id(),
                    size: *size,
                    tile_colours: Arc::clone(colours),
                })
            })
            .collect();
        (sheets, errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transparent_colour_is_keyed_out_and_nothing_else() {
        let magenta = egui::Color32::from_rgb(255, 0, 255);
        let near = egui::Color32::from_rgb(255, 1, 255);
        let mut image = ColorImage::new([3, 1], vec![magenta, near, egui::Color32::WHITE]);
        key_out(&mut image, Rgb(255, 0, 255));
        assert_eq!(image.pixels, [egui::Color32::TRANSPARENT, near, egui::Color32::WHITE]);
    }
}
