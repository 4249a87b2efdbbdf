//! Image tiles: the map's tileset PNGs as textures, loaded once per image file, so the canvas can
//! draw tiles as their Tiled artists drew them (View › Tile images; glyphs otherwise).

use std::collections::HashMap;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use egui::{ColorImage, TextureHandle, TextureId, TextureOptions};

use crate::core::Map;

/// Biggest tileset image accepted (pixels a side): a corrupt or hostile PNG header cannot make us
/// allocate gigabytes.
const MAX_IMAGE_SIDE: u32 = 16_384;

/// A loaded sheet: its texture and its size in pixels.
#[derive(Clone)]
pub struct SheetTexture {
    pub id: TextureId,
    pub size: [f32; 2],
}

#[derive(Default)]
pub struct SpriteTextures {
    /// By absolute image path: the texture, or why it could not be loaded.
    loaded: HashMap<PathBuf, Result<(TextureHandle, [f32; 2]), String>>,
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
    pub fn sheets(
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
                let entry = self.loaded.entry(path.clone()).or_insert_with(|| {
                    let loaded = decode_png(&path).map(|image| {
                        let size = [image.size[0] as f32, image.size[1] as f32];
                        (ctx.load_texture(path.display().to_string(), image, TextureOptions::NEAREST), size)
                    });
                    if let Err(e) = &loaded {
                        errors.push(e.clone());
                    }
                    loaded
                });
                entry.as_ref().ok().map(|(handle, size)| SheetTexture { id: handle.id(), size: *size })
            })
            .collect();
        (sheets, errors)
    }
}
