//! How Tiled draws a tileset's tiles: at their own size or the map's grid size, stretched or
//! fitted, and where a tile object's image sits around its position (the tileset's
//! `tilerendersize`, `fillmode` and `objectalignment`, Tiled 1.9 on). Also the flips its editor
//! may give tiles (`<transformations>`), kept so that a tileset round-trips.
//!
//! The geometry follows Tiled's `CellRenderer::render` (src/libtiled/maprenderer.cpp): a tile
//! is drawn into a target box (its own size, the grid's, or a tile object's size); stretched, it
//! fills the box; fitted, it is scaled by the lesser of the two ratios and centred in the box;
//! its tileset's offset is scaled with it.

use serde::{Deserialize, Serialize};

/// Where the image of a tile object sits around the object's position (Tiled's
/// `objectalignment`). `Unspecified` is what Tiled did before it had the setting: bottom left on
/// an orthogonal map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ObjectAlignment {
    #[default]
    Unspecified,
    TopLeft,
    Top,
    TopRight,
    Left,
    Center,
    Right,
    BottomLeft,
    Bottom,
    BottomRight,
}

impl ObjectAlignment {
    pub const ALL: [ObjectAlignment; 10] = [
        ObjectAlignment::Unspecified,
        ObjectAlignment::TopLeft,
        ObjectAlignment::Top,
        ObjectAlignment::TopRight,
        ObjectAlignment::Left,
        ObjectAlignment::Center,
        ObjectAlignment::Right,
        ObjectAlignment::BottomLeft,
        ObjectAlignment::Bottom,
        ObjectAlignment::BottomRight,
    ];

    /// Tiled's name for it, as `objectalignment` holds it.
    pub fn name(self) -> &'static str {
        match self {
            ObjectAlignment::Unspecified => "unspecified",
            ObjectAlignment::TopLeft => "topleft",
            ObjectAlignment::Top => "top",
            ObjectAlignment::TopRight => "topright",
            ObjectAlignment::Left => "left",
            ObjectAlignment::Center => "center",
            ObjectAlignment::Right => "right",
            ObjectAlignment::BottomLeft => "bottomleft",
            ObjectAlignment::Bottom => "bottom",
            ObjectAlignment::BottomRight => "bottomright",
        }
    }

    /// The alignment Tiled names `name`.
    pub fn from_name(name: &str) -> Option<ObjectAlignment> {
        Self::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Where the object's position is on its image, as fractions of its width and height from
    /// its top-left corner (an orthogonal map's: `Unspecified` is bottom left).
    pub fn anchor(self) -> [f64; 2] {
        match self {
            ObjectAlignment::TopLeft => [0.0, 0.0],
            ObjectAlignment::Top => [0.5, 0.0],
            ObjectAlignment::TopRight => [1.0, 0.0],
            ObjectAlignment::Left => [0.0, 0.5],
            ObjectAlignment::Center => [0.5, 0.5],
            ObjectAlignment::Right => [1.0, 0.5],
            ObjectAlignment::Unspecified | ObjectAlignment::BottomLeft => [0.0, 1.0],
            ObjectAlignment::Bottom => [0.5, 1.0],
            ObjectAlignment::BottomRight => [1.0, 1.0],
        }
    }
}

/// Which flips Tiled's editor may apply to a tileset's tiles when it varies them (its
/// `<transformations>`); sightline keeps them for Tiled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TileTransformations {
    pub hflip: bool,
    pub vflip: bool,
    pub rotate: bool,
    pub prefer_untransformed: bool,
}

/// How a tileset's tiles are drawn, Tiled's defaults when `Default`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SheetDrawing {
    /// Tiles are drawn at the map's grid size (`tilerendersize="grid"`), not at their own.
    #[serde(default)]
    pub grid_size: bool,
    /// A tile drawn at another size than its own keeps its aspect ratio, centred in its box
    /// (`fillmode="preserve-aspect-fit"`); otherwise it is stretched to fill it.
    #[serde(default)]
    pub preserve_aspect: bool,
    #[serde(default)]
    pub object_alignment: ObjectAlignment,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transformations: Option<TileTransformations>,
}

impl SheetDrawing {
    pub fn is_default(&self) -> bool {
        *self == SheetDrawing::default()
    }

    /// Tiled's `tilerendersize` value.
    pub fn render_size_name(&self) -> &'static str {
        if self.grid_size { "grid" } else { "tile" }
    }

    /// Tiled's `fillmode` value.
    pub fn fill_mode_name(&self) -> &'static str {
        if self.preserve_aspect { "preserve-aspect-fit" } else { "stretch" }
    }

    /// The settings that differ from Tiled's defaults, in words, for `sightline info`:
    /// "drawn at the grid's size, fitted, tile objects aligned center".
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if self.grid_size {
            parts.push("drawn at the grid's size".to_owned());
        }
        if self.preserve_aspect {
            parts.push("fitted keeping their aspect".to_owned());
        }
        if self.object_alignment != ObjectAlignment::Unspecified {
            parts.push(format!("tile objects aligned {}", self.object_alignment.name()));
        }
        if let Some(t) = self.transformations {
            let allowed: Vec<&str> = [(t.hflip, "flip across"), (t.vflip, "flip down"), (t.rotate, "turn")]
                .into_iter()
                .filter_map(|(on, name)| on.then_some(name))
                .collect();
            let allowed = if allowed.is_empty() { "none".to_owned() } else { allowed.join(", ") };
            let prefer = if t.prefer_untransformed { ", preferring none" } else { "" };
            parts.push(format!("editor transformations {allowed}{prefer}"));
        }
        parts.join(", ")
    }

    /// Where a tile of `image` pixels goes in a box `size` pixels big whose top-left corner is
    /// `origin` (all in map pixels): the image's top-left corner and size. Stretched, the image
    /// is the box; fitted, it is scaled by the lesser ratio and centred. `offset` (the tileset's
    /// drawing offset) moves it, scaled as the image is.
    pub fn place_in_box(&self, image: [f64; 2], origin: [f64; 2], size: [f64; 2], offset: [f64; 2]) -> [[f64; 2]; 2] {
        let mut scale = [size[0] / image[0].max(1.0), size[1] / image[1].max(1.0)];
        if self.preserve_aspect {
            let least = scale[0].min(scale[1]);
            scale = [least; 2];
        }
        let drawn = [image[0] * scale[0], image[1] * scale[1]];
        let top_left = [0, 1].map(|k| origin[k] + (size[k] - drawn[k]) / 2.0 + offset[k] * scale[k]);
        [top_left, drawn]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_stretches_to_its_box_or_fits_centred_in_it() {
        let stretch = SheetDrawing::default();
        let fit = SheetDrawing { preserve_aspect: true, ..SheetDrawing::default() };
        // A 32×64 image in a 16×16 box at (100, 200).
        assert_eq!(
            stretch.place_in_box([32.0, 64.0], [100.0, 200.0], [16.0, 16.0], [0.0, 0.0]),
            [[100.0, 200.0], [16.0, 16.0]]
        );
        // Fitted: scaled by a quarter (the lesser of 1/2 and 1/4), 8×16, centred across.
        assert_eq!(
            fit.place_in_box([32.0, 64.0], [100.0, 200.0], [16.0, 16.0], [0.0, 0.0]),
            [[104.0, 200.0], [8.0, 16.0]]
        );
        // The tileset's offset is scaled with the image: 8 pixels right become 2.
        assert_eq!(
            fit.place_in_box([32.0, 64.0], [100.0, 200.0], [16.0, 16.0], [8.0, -4.0]),
            [[106.0, 199.0], [8.0, 16.0]]
        );
        // At its own size, either way, the image is the box.
        assert_eq!(fit.place_in_box([16.0, 16.0], [0.0, 0.0], [16.0, 16.0], [0.0, 0.0]), [[0.0, 0.0], [16.0, 16.0]]);
    }

    #[test]
    fn alignments_have_tiled_names_and_anchors() {
        for a in ObjectAlignment::ALL {
            assert_eq!(ObjectAlignment::from_name(a.name()), Some(a));
        }
        assert_eq!(ObjectAlignment::from_name("middle"), None);
        assert_eq!(ObjectAlignment::Unspecified.anchor(), ObjectAlignment::BottomLeft.anchor());
        assert_eq!(ObjectAlignment::Center.anchor(), [0.5, 0.5]);
        assert_eq!(ObjectAlignment::TopRight.anchor(), [1.0, 0.0]);
    }

    #[test]
    fn the_summary_names_what_differs_from_tileds_defaults() {
        assert_eq!(SheetDrawing::default().summary(), "");
        let set = SheetDrawing {
            grid_size: true,
            preserve_aspect: false,
            object_alignment: ObjectAlignment::Bottom,
            transformations: Some(TileTransformations {
                hflip: true,
                rotate: true,
                prefer_untransformed: true,
                vflip: false,
            }),
        };
        assert_eq!(
            set.summary(),
            "drawn at the grid's size, tile objects aligned bottom, editor transformations flip across, turn, preferring none"
        );
    }
}
