//! Objects: player start, monsters, items, light sources, with free-form properties. They sit
//! on object layers ([`crate::core::map::ObjectLayer`]).

use serde::{Deserialize, Serialize};

use super::flip::Flip;
use super::geometry::Cell;
use super::sheet_drawing::SheetDrawing;
use super::tile::{Properties, TileId};

/// Vision radius a monster gets when its file does not say.
pub const DEFAULT_VISION_RADIUS: u32 = 8;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ObjectKind {
    PlayerStart,
    /// A monster; `glyph` is the letter it is drawn with.
    Monster {
        glyph: char,
        vision_radius: u32,
    },
    Item,
    Light {
        radius: u32,
    },
    /// Anything else a Tiled map carries (kept by its type name so it round-trips).
    Other(String),
}

impl ObjectKind {
    /// The Tiled object `type`/class for this kind.
    pub fn type_name(&self) -> &str {
        match self {
            ObjectKind::PlayerStart => "player",
            ObjectKind::Monster { .. } => "monster",
            ObjectKind::Item => "item",
            ObjectKind::Light { .. } => "light",
            ObjectKind::Other(name) => name,
        }
    }

    /// The glyph an object is drawn with on an ASCII map.
    pub fn glyph(&self) -> char {
        match self {
            ObjectKind::PlayerStart => '@',
            ObjectKind::Monster { glyph, .. } => *glyph,
            ObjectKind::Item => '*',
            ObjectKind::Light { .. } => '!',
            ObjectKind::Other(_) => '?',
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapObject {
    /// The object's id in its map, unique and never reused (Tiled's object id, which `object`
    /// properties name). 0: not numbered yet; [`Map::from_parts`](crate::core::Map::from_parts)
    /// and [`Map::add_object`](crate::core::Map::add_object) number it.
    #[serde(default)]
    pub id: u32,
    /// The object layer it is on: an index into [`Map::object_layers`](crate::core::Map::object_layers).
    #[serde(default, skip_serializing_if = "is_first_layer")]
    pub layer: usize,
    pub kind: ObjectKind,
    #[serde(default)]
    pub name: String,
    pub cell: Cell,
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
    /// The object's own geometry when a Tiled map gave it one (a zone, a path, a tile object);
    /// `None`: a marker on its cell, as objects placed here are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<ObjectShape>,
}

/// A Tiled object's geometry, in map pixels, kept so that a Tiled map round-trips and drawn as
/// Tiled draws it. The game places the object on `MapObject::cell` (the cell under its centre);
/// the shape is anchored to that cell, so it moves with the object (and with a resize).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObjectShape {
    /// Tiled's `x`, `y` of the object (a rectangle's top-left corner, a tile object's
    /// bottom-left, a polygon's origin), from its cell's top-left corner.
    pub offset: [f64; 2],
    /// Degrees clockwise about (`x`, `y`), as Tiled turns objects.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotation: f64,
    pub kind: ShapeKind,
}

fn is_first_layer(layer: &usize) -> bool {
    *layer == 0
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// The kinds of Tiled object geometry sightline keeps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ShapeKind {
    Point,
    Rectangle {
        width: f64,
        height: f64,
    },
    Ellipse {
        width: f64,
        height: f64,
    },
    /// Points relative to the object's `x`, `y`; a polygon is closed, a polyline open.
    Polygon(Vec<[f64; 2]>),
    Polyline(Vec<[f64; 2]>),
    /// A tile drawn as an object (Tiled's tile object), `width` × `height` pixels from its
    /// bottom-left corner.
    Tile {
        tile: TileId,
        flip: Flip,
        width: f64,
        height: f64,
    },
}

impl ObjectShape {
    /// What it is, for the inspector: "rectangle 155 × 99 px", "path of 5 points", ….
    pub fn describe(&self) -> String {
        let what = match &self.kind {
            ShapeKind::Point => "point".to_owned(),
            ShapeKind::Rectangle { width, height } => format!("rectangle {width} × {height} px"),
            ShapeKind::Ellipse { width, height } => format!("ellipse {width} × {height} px"),
            ShapeKind::Polygon(points) => format!("polygon of {} points", points.len()),
            ShapeKind::Polyline(points) => format!("path of {} points", points.len()),
            ShapeKind::Tile { width, height, .. } => format!("tile object {width} × {height} px"),
        };
        if self.rotation == 0.0 { what } else { format!("{what}, turned {}°", self.rotation) }
    }

    /// The outline as Tiled draws it, in map pixels from the object's cell's top-left corner,
    /// turned by its rotation; `true` when closed. `None` for a point or a tile object, which
    /// have no outline. An ellipse is drawn as 32 segments.
    pub fn outline(&self) -> Option<(Vec<[f64; 2]>, bool)> {
        let (points, closed): (Vec<[f64; 2]>, bool) = match &self.kind {
            ShapeKind::Point | ShapeKind::Tile { .. } => return None,
            ShapeKind::Rectangle { width: w, height: h } => (vec![[0.0, 0.0], [*w, 0.0], [*w, *h], [0.0, *h]], true),
            ShapeKind::Ellipse { width: w, height: h } => {
                let steps = 32;
                let point = |k: usize| {
                    let a = std::f64::consts::TAU * k as f64 / steps as f64;
                    [w / 2.0 * (1.0 + a.cos()), h / 2.0 * (1.0 + a.sin())]
                };
                ((0..steps).map(point).collect(), true)
            }
            ShapeKind::Polygon(points) => (points.clone(), true),
            ShapeKind::Polyline(points) => (points.clone(), false),
        };
        Some((points.iter().map(|&p| self.placed(p)).collect(), closed))
    }

    /// Where a tile object's image goes, in map pixels from the object's cell's top-left
    /// corner: its top-left, top-right, bottom-left and bottom-right corners. As Tiled draws a
    /// tile object: its box (`width` × `height`) has the object's position (`x`, `y`) where
    /// its tileset's alignment says (bottom left unless set); the image, `image` pixels big,
    /// fills the box or fits in it as the tileset says, moved by the tileset's `tile_offset`;
    /// then all of it turns about the position. `None` for the other kinds.
    pub fn tile_corners(
        &self,
        drawing: &SheetDrawing,
        image: [f64; 2],
        tile_offset: [f64; 2],
    ) -> Option<[[f64; 2]; 4]> {
        let ShapeKind::Tile { width: w, height: h, .. } = self.kind else { return None };
        let [ax, ay] = drawing.object_alignment.anchor();
        let [[x, y], [dw, dh]] = drawing.place_in_box(image, [-ax * w, -ay * h], [w, h], tile_offset);
        Some([[x, y], [x + dw, y], [x, y + dh], [x + dw, y + dh]].map(|p| self.placed(p)))
    }

    /// Point `p` of the shape (relative to the object's `x`, `y`, unturned) on the map.
    fn placed(&self, [x, y]: [f64; 2]) -> [f64; 2] {
        let (sin, cos) = self.rotation.to_radians().sin_cos();
        [self.offset[0] + x * cos - y * sin, self.offset[1] + x * sin + y * cos]
    }
}

impl MapObject {
    pub fn new(kind: ObjectKind, cell: Cell) -> Self {
        Self { id: 0, layer: 0, kind, name: String::new(), cell, properties: Properties::new(), shape: None }
    }

    pub fn named(mut self, name: &str) -> Self {
        self.name = name.to_owned();
        self
    }

    /// On object layer `layer` (an index into [`Map::object_layers`](crate::core::Map::object_layers)).
    pub fn on_layer(mut self, layer: usize) -> Self {
        self.layer = layer;
        self
    }
}

/// How an `object` property's value reads: the object it names, by id, name and type ("#8
/// gate (Gate)"), "none" for 0, or that no object has the id.
pub fn reference_text(id: u32, objects: &[MapObject]) -> String {
    if id == 0 {
        return "none".to_owned();
    }
    match objects.iter().find(|o| o.id == id) {
        Some(o) if o.name.is_empty() => format!("#{id} ({})", o.kind.type_name()),
        Some(o) => format!("#{id} {} ({})", o.name, o.kind.type_name()),
        None => format!("#{id} (no such object)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sheet_drawing::ObjectAlignment;

    #[test]
    fn an_outline_hangs_from_the_cell_and_turns_about_the_objects_position() {
        let rect =
            ObjectShape { offset: [4.0, 2.0], rotation: 0.0, kind: ShapeKind::Rectangle { width: 10.0, height: 6.0 } };
        assert_eq!(rect.outline(), Some((vec![[4.0, 2.0], [14.0, 2.0], [14.0, 8.0], [4.0, 8.0]], true)));
        // A quarter turn clockwise (y down): the far corner goes below-left of the position.
        let turned = ObjectShape { rotation: 90.0, ..rect.clone() };
        let (points, _) = turned.outline().unwrap();
        let rounded: Vec<[f64; 2]> = points.iter().map(|p| p.map(|v| (v * 1e9).round() / 1e9)).collect();
        assert_eq!(rounded, [[4.0, 2.0], [4.0, 12.0], [-2.0, 12.0], [-2.0, 2.0]]);
        let line =
            ObjectShape { offset: [0.0, 0.0], rotation: 0.0, kind: ShapeKind::Polyline(vec![[0.0, 0.0], [3.0, 4.0]]) };
        assert_eq!(line.outline(), Some((vec![[0.0, 0.0], [3.0, 4.0]], false)));
        let ellipse =
            ObjectShape { offset: [0.0, 0.0], rotation: 0.0, kind: ShapeKind::Ellipse { width: 8.0, height: 4.0 } };
        let (points, closed) = ellipse.outline().unwrap();
        assert!(closed && points.len() == 32);
        assert!(points.iter().all(|&[x, y]| ((x - 4.0) / 4.0).powi(2) + ((y - 2.0) / 2.0).powi(2) - 1.0 < 1e-9));
        let point = ObjectShape { offset: [1.0, 1.0], rotation: 0.0, kind: ShapeKind::Point };
        assert_eq!(point.outline(), None);
        assert_eq!(rect.describe(), "rectangle 10 × 6 px");
        assert_eq!(turned.describe(), "rectangle 10 × 6 px, turned 90°");
        assert_eq!(line.describe(), "path of 2 points");
    }

    #[test]
    fn a_tile_object_stands_on_its_position_and_turns_about_it() {
        let tile = |rotation| ObjectShape {
            offset: [4.0, 16.0],
            rotation,
            kind: ShapeKind::Tile { tile: 1, flip: Flip::default(), width: 16.0, height: 8.0 },
        };
        let plain = SheetDrawing::default();
        let corners = |shape: ObjectShape, drawing: &SheetDrawing, image: [f64; 2], offset: [f64; 2]| {
            shape.tile_corners(drawing, image, offset).unwrap().map(|p| p.map(|v| (v * 1e9).round() / 1e9))
        };
        // Unturned: the image's bottom-left corner on the position, the image above it.
        assert_eq!(
            corners(tile(0.0), &plain, [16.0, 8.0], [0.0, 0.0]),
            [[4.0, 8.0], [20.0, 8.0], [4.0, 16.0], [20.0, 16.0]]
        );
        // A quarter turn clockwise: the image lies to the right of the position, its top edge
        // down the right, its bottom edge down from the position.
        assert_eq!(
            corners(tile(90.0), &plain, [16.0, 8.0], [0.0, 0.0]),
            [[12.0, 16.0], [12.0, 32.0], [4.0, 16.0], [4.0, 32.0]]
        );
        // Centred on its position (objectalignment="center"), and the tileset's offset.
        let centred = SheetDrawing { object_alignment: ObjectAlignment::Center, ..plain };
        assert_eq!(
            corners(tile(0.0), &centred, [16.0, 8.0], [1.0, -2.0]),
            [[-3.0, 10.0], [13.0, 10.0], [-3.0, 18.0], [13.0, 18.0]]
        );
        // A square 8×8 image in the 16×8 box: stretched, or fitted and centred across.
        assert_eq!(corners(tile(0.0), &plain, [8.0, 8.0], [0.0, 0.0])[1], [20.0, 8.0]);
        let fitted = SheetDrawing { preserve_aspect: true, ..plain };
        assert_eq!(
            corners(tile(0.0), &fitted, [8.0, 8.0], [0.0, 0.0]),
            [[8.0, 8.0], [16.0, 8.0], [8.0, 16.0], [16.0, 16.0]]
        );
        assert_eq!(tile(0.0).outline(), None);
        let point = ObjectShape { offset: [1.0, 1.0], rotation: 0.0, kind: ShapeKind::Point };
        assert_eq!(point.tile_corners(&plain, [16.0, 8.0], [0.0, 0.0]), None);
    }
}
