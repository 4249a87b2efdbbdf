//! Objects: player start, monsters, items, light sources, with free-form properties. They sit
//! on object layers ([`crate::core::model::map::ObjectLayer`]).

use serde::{Deserialize, Serialize};

use crate::core::model::flip::{Flip, Turn};
use crate::core::model::geometry::Cell;
use crate::core::model::serde_defaults::{is_default, is_no, is_one, is_yes, one, yes};
use crate::core::model::sheet_drawing::SheetDrawing;
use crate::core::model::tile::{Properties, PropertyValue, Rgba, TileId};

/// Vision radius a monster gets when its file does not say.
pub const DEFAULT_VISION_RADIUS: u32 = 8;

/// Radius a light gets when its file does not say.
pub const DEFAULT_LIGHT_RADIUS: u32 = 6;

/// The property of a monster, or of the player start, that makes it carry a light of that radius
/// (a number of cells), which goes where it goes (Angband's light-carrying monsters, and the
/// player's torch).
pub const CARRIED_LIGHT: &str = "light";

/// The largest radius sightline gives a vision or a light: a monster's vision, a light's
/// radius, a carried light and the player's vision. A larger one in a file is read as this
/// (the largest map's side is 4096, so a radius of 1000 reaches far past any view that walls
/// leave, and its square stays far inside the FOV's integers).
pub const MAX_RADIUS: u32 = 1000;

/// The property of the player start that sets how far the player sees in the dark (a radius in
/// cells, 0 for not at all), over the play preset's vision: a short vision and a torch make
/// Angband's play, where you see what light lights.
pub const PLAYER_VISION: &str = "vision";

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

    /// What an object of Tiled class (or type) `class` is to the game, as a map is read: the
    /// player start (`player`, `start`, `player_start`), a monster (`monster`, `enemy`, `npc`;
    /// drawn with `name`'s first letter, else `m`, seeing [`DEFAULT_VISION_RADIUS`]), an item
    /// (`item`, `pickup`) or a light (`light`, radius [`DEFAULT_LIGHT_RADIUS`]), in any case;
    /// anything else is kept by its class as written.
    pub fn of_class(class: &str, name: &str) -> ObjectKind {
        match class.to_lowercase().as_str() {
            "player" | "start" | "player_start" | "playerstart" => ObjectKind::PlayerStart,
            "monster" | "enemy" | "npc" => ObjectKind::Monster {
                glyph: name.chars().find(|c| c.is_alphabetic()).unwrap_or('m'),
                vision_radius: DEFAULT_VISION_RADIUS,
            },
            "item" | "pickup" => ObjectKind::Item,
            "light" => ObjectKind::Light { radius: DEFAULT_LIGHT_RADIUS },
            _ => ObjectKind::Other(class.to_owned()),
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
    /// Drawn on the canvas (Tiled's object `visible`). A hidden object is still in the game:
    /// like a hidden layer, it only leaves the editor's view.
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub visible: bool,
    /// How opaque it is drawn, from 0 to 1 (Tiled's object `opacity`), times its layer's.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub opacity: f32,
    /// The Tiled template the object is an instance of, when a Tiled map made it one: a save
    /// writes the link and only the values the object sets itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<ObjectTemplate>,
}

/// A custom property a game object takes a field from (a monster's `glyph` or `vision`, a
/// light's `radius`) that does not hold what the field needs: see [`MapObject::reclassed`].
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub key: &'static str,
    /// "a number" or "a string".
    pub expected: &'static str,
    pub found: PropertyValue,
}

/// A Tiled object template (a `.tx` or `.tj` file) that an object is an instance of. Tiled
/// gives an instance the template's values wherever the instance sets none of its own, so an
/// edit of the template reaches every instance; the file stays as it is, sightline only reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObjectTemplate {
    /// The template's file: absolute once a map is read (a save writes it relative to the map).
    pub path: std::path::PathBuf,
    /// The template's object, as the instance would be with nothing of its own. Its id, layer,
    /// cell and shape offset mean nothing: a template has no place.
    pub object: Box<MapObject>,
}

impl ObjectTemplate {
    /// `instance` with the template's values again: its name, type, shape and properties; its
    /// id, layer and place stay (a shape keeps its position on the map).
    pub fn reset(&self, instance: &MapObject) -> MapObject {
        let base = &self.object;
        let shape = match (&base.shape, &instance.shape) {
            (Some(b), Some(s)) => Some(ObjectShape { offset: s.offset, ..b.clone() }),
            // A marker taking a point (the template's, turned or not) stays in its cell's middle.
            (Some(b), None) if b.kind == ShapeKind::Point && b.rotation == 0.0 => None,
            (b, _) => b.clone(),
        };
        MapObject {
            id: instance.id,
            layer: instance.layer,
            cell: instance.cell,
            shape,
            template: instance.template.clone(),
            ..(**base).clone()
        }
    }

    /// What `instance` sets itself instead of taking it from the template, in the words of the
    /// inspector: "name", "visible", "opacity", "type", "glyph", "vision", "radius", "size",
    /// "rotation", "tile",
    /// "shape", then each property it adds or changes, and "no X" for each of the template's
    /// properties it lacks (which a Tiled file cannot say: a save then detaches the object).
    pub fn own_values(&self, instance: &MapObject) -> Vec<String> {
        let base = &self.object;
        let mut own = Vec::new();
        let mut say = |differs: bool, what: &str| {
            if differs {
                own.push(what.to_owned());
            }
        };
        say(instance.name != base.name, "name");
        say(instance.visible != base.visible, "visible");
        say(instance.opacity != base.opacity, "opacity");
        match (&instance.kind, &base.kind) {
            (
                ObjectKind::Monster { glyph: g, vision_radius: v },
                ObjectKind::Monster { glyph: bg, vision_radius: bv },
            ) => {
                say(g != bg, "glyph");
                say(v != bv, "vision");
            }
            (ObjectKind::Light { radius: r }, ObjectKind::Light { radius: br }) => say(r != br, "radius"),
            (kind, base_kind) => say(kind != base_kind, "type"),
        }
        let shape = |o: &MapObject| o.shape.as_ref().map(|s| (s.rotation, s.kind.clone()));
        match (shape(instance), shape(base)) {
            (Some((rotation, kind)), Some((base_rotation, base_kind))) => {
                say(rotation != base_rotation, "rotation");
                match (kind, base_kind) {
                    (
                        ShapeKind::Tile { tile, flip, width, height },
                        ShapeKind::Tile { tile: bt, flip: bf, width: bw, height: bh },
                    ) => {
                        say((tile, flip) != (bt, bf), "tile");
                        say((width, height) != (bw, bh), "size");
                    }
                    (kind, base_kind) if std::mem::discriminant(&kind) == std::mem::discriminant(&base_kind) => {
                        say(kind.size() != base_kind.size(), "size");
                        say(kind.with_size([0.0; 2]) != base_kind.with_size([0.0; 2]), "shape");
                    }
                    _ => say(true, "shape"),
                }
            }
            // A marker (no shape) is a point.
            (None, None) => {}
            (Some((r, ShapeKind::Point)), None) | (None, Some((r, ShapeKind::Point))) => say(r != 0.0, "rotation"),
            _ => say(true, "shape"),
        }
        for (key, value) in &instance.properties {
            say(base.properties.get(key) != Some(value), key);
        }
        for key in self.lacking(instance) {
            say(true, &format!("no {key}"));
        }
        own
    }

    /// The template's properties that `instance` lacks: a Tiled file cannot say so, and a save
    /// writes such an object without its link.
    pub fn lacking(&self, instance: &MapObject) -> Vec<&str> {
        self.object.properties.keys().filter(|k| !instance.properties.contains_key(*k)).map(String::as_str).collect()
    }

    /// The template file's name (its whole path when it has none), as the inspector and
    /// `sightline info` show it.
    pub fn file_name(&self) -> String {
        self.path.file_name().map_or_else(|| self.path.display().to_string(), |n| n.to_string_lossy().into_owned())
    }
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
    /// A stadium filling its `width` × `height` box: a rectangle with half-discs on its short
    /// sides (Tiled 1.12's capsule).
    Capsule {
        width: f64,
        height: f64,
    },
    /// Text laid out in its `width` × `height` box (Tiled's text object).
    Text {
        width: f64,
        height: f64,
        text: Box<ObjectText>,
    },
}

/// A text object's text and how Tiled lays it out. The defaults are Tiled's (its TMX reference,
/// `<text>`): sans-serif, 16 px, black, no wrap, kerning on, top left.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObjectText {
    pub text: String,
    #[serde(default = "default_font_family", skip_serializing_if = "is_default_font_family")]
    pub font_family: String,
    /// The font's size in map pixels.
    #[serde(default = "default_pixel_size", skip_serializing_if = "is_default_pixel_size")]
    pub pixel_size: u32,
    /// Lines break at the box's width (else only at line breaks in the text).
    #[serde(default, skip_serializing_if = "is_no")]
    pub wrap: bool,
    #[serde(default = "black", skip_serializing_if = "is_black")]
    pub color: Rgba,
    #[serde(default, skip_serializing_if = "is_no")]
    pub bold: bool,
    #[serde(default, skip_serializing_if = "is_no")]
    pub italic: bool,
    #[serde(default, skip_serializing_if = "is_no")]
    pub underline: bool,
    #[serde(default, skip_serializing_if = "is_no")]
    pub strikeout: bool,
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub kerning: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    pub halign: HorizontalAlign,
    #[serde(default, skip_serializing_if = "is_default")]
    pub valign: VerticalAlign,
}

impl ObjectText {
    /// `text` with Tiled's defaults.
    pub fn new(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            font_family: default_font_family(),
            pixel_size: default_pixel_size(),
            wrap: false,
            color: black(),
            bold: false,
            italic: false,
            underline: false,
            strikeout: false,
            kerning: true,
            halign: HorizontalAlign::Left,
            valign: VerticalAlign::Top,
        }
    }
}

/// Where a text object's lines sit across its box (Tiled's `halign`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum HorizontalAlign {
    #[default]
    Left,
    Center,
    Right,
    /// Wrapped lines stretched to the box's width, the last one left.
    Justify,
}

impl HorizontalAlign {
    /// Tiled's name for it.
    pub fn tiled_name(self) -> &'static str {
        match self {
            Self::Left => "left",
            Self::Center => "center",
            Self::Right => "right",
            Self::Justify => "justify",
        }
    }

    pub fn from_tiled_name(name: &str) -> Option<Self> {
        [Self::Left, Self::Center, Self::Right, Self::Justify].into_iter().find(|a| a.tiled_name() == name)
    }
}

/// Where a text object's lines sit down its box (Tiled's `valign`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum VerticalAlign {
    #[default]
    Top,
    Center,
    Bottom,
}

impl VerticalAlign {
    /// Tiled's name for it.
    pub fn tiled_name(self) -> &'static str {
        match self {
            Self::Top => "top",
            Self::Center => "center",
            Self::Bottom => "bottom",
        }
    }

    pub fn from_tiled_name(name: &str) -> Option<Self> {
        [Self::Top, Self::Center, Self::Bottom].into_iter().find(|a| a.tiled_name() == name)
    }
}

fn default_font_family() -> String {
    "sans-serif".to_owned()
}

fn is_default_font_family(family: &String) -> bool {
    family == "sans-serif"
}

fn default_pixel_size() -> u32 {
    16
}

fn is_default_pixel_size(size: &u32) -> bool {
    *size == 16
}

fn black() -> Rgba {
    Rgba(0, 0, 0, 255)
}

fn is_black(c: &Rgba) -> bool {
    *c == black()
}

impl ShapeKind {
    /// Its points (a polygon's or path's), else its box's size: the numbers it is drawn from.
    fn numbers(&self) -> impl Iterator<Item = f64> + '_ {
        let points = match self {
            ShapeKind::Polygon(points) | ShapeKind::Polyline(points) => points.as_slice(),
            _ => &[],
        };
        points.iter().flatten().copied().chain(self.size().into_iter().flatten())
    }

    /// The box's width and height of a shape that has one (not a point, polygon or path).
    pub fn size(&self) -> Option<[f64; 2]> {
        match *self {
            ShapeKind::Rectangle { width, height }
            | ShapeKind::Ellipse { width, height }
            | ShapeKind::Capsule { width, height }
            | ShapeKind::Text { width, height, .. }
            | ShapeKind::Tile { width, height, .. } => Some([width, height]),
            ShapeKind::Point | ShapeKind::Polygon(_) | ShapeKind::Polyline(_) => None,
        }
    }

    /// The shape with its box `size` (unchanged when it has none).
    pub fn with_size(mut self, size: [f64; 2]) -> Self {
        if let ShapeKind::Rectangle { width, height }
        | ShapeKind::Ellipse { width, height }
        | ShapeKind::Capsule { width, height }
        | ShapeKind::Text { width, height, .. }
        | ShapeKind::Tile { width, height, .. } = &mut self
        {
            [*width, *height] = size;
        }
        self
    }
}

impl ObjectShape {
    /// Whether every number of it (its offset, turn, size and points) is finite: a file may
    /// hold a number too large for an `f64`, which reads as infinity and no file writes back.
    pub fn is_finite(&self) -> bool {
        self.offset.iter().copied().chain([self.rotation]).chain(self.kind.numbers()).all(f64::is_finite)
    }

    /// What it is, for the inspector: "rectangle 155 × 99 px", "path of 5 points", ….
    pub fn describe(&self) -> String {
        let size = |w: f64, h: f64| format!("{} × {} px", short_number(w), short_number(h));
        let what = match &self.kind {
            ShapeKind::Point => "point".to_owned(),
            ShapeKind::Rectangle { width, height } => format!("rectangle {}", size(*width, *height)),
            ShapeKind::Ellipse { width, height } => format!("ellipse {}", size(*width, *height)),
            ShapeKind::Polygon(points) => format!("polygon of {} points", points.len()),
            ShapeKind::Polyline(points) => format!("path of {} points", points.len()),
            ShapeKind::Tile { width, height, .. } => format!("tile object {}", size(*width, *height)),
            ShapeKind::Capsule { width, height } => format!("capsule {}", size(*width, *height)),
            ShapeKind::Text { width, height, text } => {
                let first: String = text.text.lines().next().unwrap_or("").chars().take(24).collect();
                let more = if first.len() < text.text.len() { "…" } else { "" };
                format!("text \"{first}{more}\" {}", size(*width, *height))
            }
        };
        if self.rotation == 0.0 { what } else { format!("{what}, turned {}°", short_number(self.rotation)) }
    }

    /// The outline as Tiled draws it, in map pixels from the object's cell's top-left corner,
    /// turned by its rotation; `true` when closed. `None` for a point, a tile object or a
    /// text, which have no outline. An ellipse is drawn as 32 segments, a capsule's ends as 16
    /// each.
    pub fn outline(&self) -> Option<(Vec<[f64; 2]>, bool)> {
        let (points, closed): (Vec<[f64; 2]>, bool) = match &self.kind {
            ShapeKind::Point | ShapeKind::Tile { .. } | ShapeKind::Text { .. } => return None,
            ShapeKind::Capsule { width: w, height: h } => (capsule_outline(*w, *h), true),
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

    /// The box a text object is laid out in, as [`ObjectShape::tile_corners`] gives a tile's:
    /// its top-left, top-right, bottom-left and bottom-right corners, turned. `None` for the
    /// other kinds.
    pub fn text_corners(&self) -> Option<[[f64; 2]; 4]> {
        let ShapeKind::Text { width: w, height: h, .. } = self.kind else { return None };
        Some([[0.0, 0.0], [w, 0.0], [0.0, h], [w, h]].map(|p| self.placed(p)))
    }

    /// Whether a press at `p` (map pixels from its object's cell's top-left corner) picks the
    /// shape, as Tiled's object selection does: inside a closed outline (a rectangle, an
    /// ellipse, a capsule, a polygon) or a text's box, or within `slack` pixels of a path or
    /// a point. A tile object is picked by its cell (its image's size is its tileset's).
    pub fn covers(&self, p: [f64; 2], slack: f64) -> bool {
        let near_segment = |a: [f64; 2], b: [f64; 2]| {
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            let length = dx * dx + dy * dy;
            let t =
                if length > 0.0 { (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length).clamp(0.0, 1.0) } else { 0.0 };
            let (ex, ey) = (a[0] + t * dx - p[0], a[1] + t * dy - p[1]);
            ex * ex + ey * ey <= slack * slack
        };
        // Even-odd: a ray to the right crosses the outline an odd number of times.
        let inside = |points: &[[f64; 2]]| {
            let mut inside = false;
            for (k, &a) in points.iter().enumerate() {
                let b = points[(k + 1) % points.len()];
                if (a[1] > p[1]) != (b[1] > p[1]) && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]) {
                    inside = !inside;
                }
            }
            inside
        };
        match &self.kind {
            ShapeKind::Point => near_segment(self.offset, self.offset),
            ShapeKind::Tile { .. } => false,
            ShapeKind::Text { .. } => self.text_corners().is_some_and(|[a, b, c, d]| inside(&[a, b, d, c])),
            _ => match self.outline() {
                Some((points, true)) => {
                    inside(&points)
                        || points.iter().zip(points.iter().cycle().skip(1)).any(|(&a, &b)| near_segment(a, b))
                }
                Some((points, false)) => points.windows(2).any(|w| near_segment(w[0], w[1])),
                None => false,
            },
        }
    }

    /// A point in the middle of its cell, not turned: a marker, as sightline writes its own
    /// objects, and as loading reads it back (with no shape), on `tile_size` cells.
    pub fn is_marker(&self, tile_size: [u32; 2]) -> bool {
        let middle = tile_size.map(|t| f64::from(t.max(1)) / 2.0);
        self.kind == ShapeKind::Point && self.offset == middle && self.rotation == 0.0
    }

    /// Tiled's `x`, `y` of the shape (map pixels; see [`Map::placed_shape`](crate::core::Map::placed_shape)) when its object
    /// stands on `cell`.
    pub fn position(&self, cell: Cell, tile_size: [u32; 2]) -> [f64; 2] {
        let [tw, th] = tile_size.map(|t| f64::from(t.max(1)));
        [f64::from(cell.x) * tw + self.offset[0], f64::from(cell.y) * th + self.offset[1]]
    }

    /// The shape carried from cells of `from` pixels to cells of `to` pixels (a paste into a
    /// map of another tile size), scaled with the cells along each axis: its place in its cell,
    /// its box, its points and a text's font, so that it covers the same cells and its centre
    /// stays in its cell (the cell an object stands on is the one under its unturned centre,
    /// [`cell_under`]). A turned shape on cells scaled unevenly keeps its turn, and so is
    /// sheared a little: Tiled has no shape for a sheared one.
    pub fn rescaled(&self, from: [f64; 2], to: [f64; 2]) -> ObjectShape {
        // Multiplied first, then divided: a marker's 15.5 on 31-pixel cells is 8 on 16, exactly.
        let along = |v: f64, k: usize| v * to[k] / from[k];
        let point = |[x, y]: [f64; 2]| [along(x, 0), along(y, 1)];
        let kind = match &self.kind {
            ShapeKind::Polygon(points) => ShapeKind::Polygon(points.iter().copied().map(point).collect()),
            ShapeKind::Polyline(points) => ShapeKind::Polyline(points.iter().copied().map(point).collect()),
            ShapeKind::Text { width, height, text } => {
                let pixel_size = along(f64::from(text.pixel_size), 1).round().clamp(1.0, f64::from(u32::MAX)) as u32;
                ShapeKind::Text {
                    width: *width,
                    height: *height,
                    text: Box::new(ObjectText { pixel_size, ..(**text).clone() }),
                }
            }
            kind => kind.clone(),
        };
        let kind = match kind.size() {
            Some(size) => kind.with_size(point(size)),
            None => kind,
        };
        ObjectShape { offset: point(self.offset), rotation: self.rotation, kind }
    }

    /// Point `p` of the shape (relative to the object's `x`, `y`, unturned) on the map.
    fn placed(&self, p: [f64; 2]) -> [f64; 2] {
        let [x, y] = rotated(p, self.rotation);
        [self.offset[0] + x, self.offset[1] + y]
    }
}

/// `v` for a person to read: at most two decimals, none trailing (22.588457 → "22.59", 16 →
/// "16", 6.5 → "6.5").
fn short_number(v: f64) -> String {
    let text = format!("{v:.2}");
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { &text };
    if text == "-0" { "0".to_owned() } else { text.to_owned() }
}

/// Point `p` turned `degrees` clockwise about the origin (y down, as Tiled turns objects).
pub fn rotated([x, y]: [f64; 2], degrees: f64) -> [f64; 2] {
    // Quarter turns exactly: the sine and cosine of 90° in floating point are not quite 1 and
    // 0, which would leave a turned box's resized size 48.00000000000001.
    let quarter = degrees.rem_euclid(360.0) / 90.0;
    let (sin, cos) = if quarter.fract() == 0.0 {
        [(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)][quarter as usize % 4]
    } else {
        degrees.to_radians().sin_cos()
    };
    [x * cos - y * sin, x * sin + y * cos]
}

/// The middle of a box of `size` hung at `position` from its point `anchor` (fractions of its
/// size: (0, 0) its top-left corner, a tile object's alignment): what decides the cell an object
/// stands on ([`cell_under`]; the Tiled loader's rule).
pub fn box_centre(position: [f64; 2], size: [f64; 2], anchor: [f64; 2]) -> [f64; 2] {
    [position[0] + (0.5 - anchor[0]) * size[0], position[1] + (0.5 - anchor[1]) * size[1]]
}

/// The cell an object of shape `kind` with its position (Tiled's `x`, `y`) at `position`
/// stands on, on a grid of `grid` pixels a cell (off the map too): the one under its box's
/// centre, unturned, or under a point's, polygon's or path's position. `anchor` is where it
/// hangs on its box, as fractions of its size ([`Map::object_anchor`](crate::core::Map::object_anchor):
/// a tile object's tileset's object alignment, else its top-left corner). This is the rule a
/// Tiled map's objects are read by (see [`Map::placed_shape`](crate::core::Map::placed_shape)).
pub fn cell_under(kind: &ShapeKind, position: [f64; 2], anchor: [f64; 2], grid: [f64; 2]) -> Cell {
    let centre = box_centre(position, kind.size().unwrap_or([0.0, 0.0]), anchor);
    let column = (centre[0] / grid[0]).floor().clamp(f64::from(i32::MIN), f64::from(i32::MAX));
    let row = (centre[1] / grid[1]).floor().clamp(f64::from(i32::MIN), f64::from(i32::MAX));
    Cell::new(column as i32, row as i32)
}

impl ObjectShape {
    /// The shape as a stamp's `turn` leaves it (a mirror, or a quarter turn of the plane):
    /// its kind, its new rotation, and how far its position must slide from where the turn
    /// takes it. A quarter turn adds ±90° to the rotation (Tiled's objects turn about their
    /// position). A mirror negates the rotation, mirrors a polygon's or path's points and a
    /// tile object's image, and, since a box hangs from one point of it (`anchor`, as
    /// [`Map::object_anchor`](crate::core::Map::object_anchor) gives it: a corner, or a tile
    /// object's alignment), slides the position across the box along its own axis so that the
    /// box covers its mirror image; a text's letters are not mirrored, as in Tiled.
    pub fn turned(&self, turn: Turn, anchor: [f64; 2]) -> (ShapeKind, f64, [f64; 2]) {
        let quarter = |degrees: f64| (self.rotation + degrees).rem_euclid(360.0);
        let mut kind = self.kind.clone();
        let horizontal = match turn {
            Turn::RotateClockwise => return (kind, quarter(90.0), [0.0, 0.0]),
            Turn::RotateCounterclockwise => return (kind, quarter(-90.0), [0.0, 0.0]),
            Turn::FlipHorizontally => true,
            Turn::FlipVertically => false,
        };
        let axis = if horizontal { 0 } else { 1 };
        let rotation = (-self.rotation).rem_euclid(360.0);
        match &mut kind {
            ShapeKind::Polygon(points) | ShapeKind::Polyline(points) => {
                for p in points {
                    p[axis] = -p[axis];
                }
            }
            ShapeKind::Tile { flip, .. } => {
                *flip = if horizontal { flip.mirrored_horizontally() } else { flip.mirrored_vertically() }
            }
            _ => {}
        }
        // The box spans [-a·size, (1 - a)·size] along the axis from its position; mirrored it
        // spans [-(1 - a)·size, a·size], so the position moves by (2a - 1)·size.
        let slide = match kind.size() {
            Some(size) => {
                let mut local = [0.0, 0.0];
                local[axis] = (2.0 * anchor[axis] - 1.0) * size[axis];
                rotated(local, rotation)
            }
            None => [0.0, 0.0],
        };
        (kind, rotation, slide)
    }
}

/// The box a drag from `start` to `end` (map pixels) draws: its top-left corner and its size.
/// With `square`, both sides take the longer one's length, each still reaching toward the
/// pointer (Tiled's Shift while inserting a rectangle or an ellipse).
pub fn dragged_box(start: [f64; 2], end: [f64; 2], square: bool) -> ([f64; 2], [f64; 2]) {
    let [mut w, mut h] = [end[0] - start[0], end[1] - start[1]];
    if square {
        let side = w.abs().max(h.abs());
        [w, h] = [side.copysign(w), side.copysign(h)];
    }
    let top_left = [start[0].min(start[0] + w), start[1].min(start[1] + h)];
    (top_left, [w.abs(), h.abs()])
}

/// The box `top_left`, `size` (map pixels) after its handle `handle` is dragged to `to`, as
/// Tiled's Select Objects tool resizes: the handle is a corner or an edge's middle, each
/// coordinate −1 (left or top), 0 (middle) or 1 (right or bottom); the opposite handle stays
/// put, an edge's handle moves that edge alone, and a handle dragged past the opposite side
/// turns the box over (its size stays positive).
pub fn resized_box(top_left: [f64; 2], size: [f64; 2], handle: [i8; 2], to: [f64; 2]) -> ([f64; 2], [f64; 2]) {
    let mut min = top_left;
    let mut max = [top_left[0] + size[0], top_left[1] + size[1]];
    for axis in 0..2 {
        match handle[axis] {
            -1 => min[axis] = to[axis],
            1 => max[axis] = to[axis],
            _ => {}
        }
    }
    let corner = [min[0].min(max[0]), min[1].min(max[1])];
    (corner, [(max[0] - min[0]).abs(), (max[1] - min[1]).abs()])
}

/// [`resized_box`] for a box turned `degrees` clockwise about its position (its top-left
/// corner, Tiled's `x`, `y`): the handle moves to `own`, a point in the box's own frame
/// (unturned, from its position), where the opposite handle stays put; the new position is
/// where the new top-left corner lands once turned. (The pointer is taken into the box's frame
/// by [`rotated`] by `-degrees`, and snapped there, so that sizes stay whole.)
pub fn resized_turned_box(
    position: [f64; 2],
    size: [f64; 2],
    degrees: f64,
    handle: [i8; 2],
    own: [f64; 2],
) -> ([f64; 2], [f64; 2]) {
    let (corner, size) = resized_box([0.0, 0.0], size, handle, own);
    let [x, y] = rotated(corner, degrees);
    ([position[0] + x, position[1] + y], size)
}

/// A stadium filling `w` × `h` from its top-left corner, clockwise from the start of its top
/// straight edge (a wide one's; a tall one's right half-disc comes first). A square's is a circle.
fn capsule_outline(w: f64, h: f64) -> Vec<[f64; 2]> {
    let r = w.min(h) / 2.0;
    // The two half-discs' centres: at either end of the long axis.
    let (a, b) = if w >= h { ([r, r], [w - r, r]) } else { ([r, r], [r, h - r]) };
    let steps = 16;
    let arc = |centre: [f64; 2], from: f64| {
        (0..=steps).map(move |k| {
            let t = from + std::f64::consts::PI * k as f64 / steps as f64;
            [centre[0] + r * t.cos(), centre[1] + r * t.sin()]
        })
    };
    use std::f64::consts::FRAC_PI_2;
    if w >= h {
        // The right end's half-disc from the top (−90°) round to the bottom, then the left's.
        arc(b, -FRAC_PI_2).chain(arc(a, FRAC_PI_2)).collect()
    } else {
        // The top end's half-disc from the left (180°) over to the right, then the bottom's.
        arc(a, std::f64::consts::PI).chain(arc(b, 0.0)).collect()
    }
}

/// Turns every object's shape (and its template's) less than a whole turn either way: the same
/// shape, whose angle a Tiled file's 32-bit float then holds to a millionth of a degree, as
/// it would not hold 21474836480° (one a file may give).
pub fn turns_within_one(objects: &mut [MapObject]) {
    for o in objects {
        let template = o.template.as_mut().and_then(|t| t.object.shape.as_mut());
        for shape in o.shape.as_mut().into_iter().chain(template) {
            if shape.rotation.abs() >= 360.0 {
                shape.rotation %= 360.0;
            }
        }
    }
}

/// Gives every monster's vision and light's radius in `objects` at most [`MAX_RADIUS`], as a
/// Tiled map's are read (a RON or ASCII file can hold any `u32`); names those it changed, with
/// the radius each had (`"goblin" (vision 40968)`).
pub fn radii_within_limits(objects: &mut [MapObject]) -> Vec<String> {
    let mut changed = Vec::new();
    for o in objects {
        let (what, radius) = match &mut o.kind {
            ObjectKind::Monster { vision_radius, .. } => ("vision", vision_radius),
            ObjectKind::Light { radius } => ("radius", radius),
            _ => continue,
        };
        if *radius > MAX_RADIUS {
            let name = if o.name.is_empty() { format!("#{}", o.id) } else { format!("{:?}", o.name) };
            changed.push(format!("{name} ({what} {radius})"));
            *radius = MAX_RADIUS;
        }
    }
    changed
}

impl MapObject {
    /// The radius of the light a monster or the player carries: its [`CARRIED_LIGHT`] property
    /// (on the player start for the player), a number of at least one cell (at most
    /// [`MAX_RADIUS`]); `None` for any other object.
    pub fn carried_light(&self) -> Option<u32> {
        if !matches!(self.kind, ObjectKind::Monster { .. } | ObjectKind::PlayerStart) {
            return None;
        }
        let radius = self.properties.get(CARRIED_LIGHT)?.as_number()?;
        (radius >= 1.0).then(|| radius.min(f64::from(MAX_RADIUS)) as u32)
    }

    /// The player's vision radius the player start sets: its [`PLAYER_VISION`] property, a
    /// number of cells from 0 (at most [`MAX_RADIUS`]); `None` for any other object, or
    /// without the property (the play preset's vision).
    pub fn player_vision(&self) -> Option<u32> {
        if self.kind != ObjectKind::PlayerStart {
            return None;
        }
        let radius = self.properties.get(PLAYER_VISION)?.as_number()?;
        (radius >= 0.0).then(|| radius.min(f64::from(MAX_RADIUS)) as u32)
    }

    pub fn new(kind: ObjectKind, cell: Cell) -> Self {
        Self {
            id: 0,
            layer: 0,
            kind,
            name: String::new(),
            cell,
            properties: Properties::new(),
            shape: None,
            visible: true,
            opacity: 1.0,
            template: None,
        }
    }

    pub fn named(mut self, name: &str) -> Self {
        self.name = name.to_owned();
        self
    }

    /// The object as loading a map would make it were its Tiled class `class`: its kind by
    /// [`ObjectKind::of_class`] (by its name when `class` is empty), a monster's glyph and
    /// vision and a light's radius taken from its custom properties of those names (which
    /// then leave them). This is the rule `format::tiled_common` reads a Tiled object by. The
    /// error names the property a load refuses (a light's `radius` that is not a number, say).
    pub fn reclassed(&self, class: &str) -> Result<MapObject, FieldError> {
        let mut o = self.clone();
        let name_or_class = if class.is_empty() { self.name.as_str() } else { class };
        let mut take = |key: &'static str, number: bool| -> Result<Option<PropertyValue>, FieldError> {
            let Some(value) = o.properties.get(key) else { return Ok(None) };
            let readable = if number { value.as_number().is_some() } else { value.as_text().is_some() };
            if !readable {
                let expected = if number { "a number" } else { "a string" };
                return Err(FieldError { key, expected, found: value.clone() });
            }
            Ok(o.properties.remove(key))
        };
        o.kind = match ObjectKind::of_class(name_or_class, &self.name) {
            ObjectKind::Monster { glyph, vision_radius } => {
                let glyph = match take("glyph", false)? {
                    Some(v) => v.as_text().and_then(|t| t.chars().next()).unwrap_or('m'),
                    None => glyph,
                };
                let vision = take("vision", true)?.and_then(|v| v.as_number()).unwrap_or(f64::from(vision_radius));
                ObjectKind::Monster { glyph, vision_radius: vision.clamp(0.0, f64::from(MAX_RADIUS)) as u32 }
            }
            ObjectKind::Light { radius } => {
                let radius = take("radius", true)?.and_then(|v| v.as_number()).unwrap_or(f64::from(radius));
                ObjectKind::Light { radius: radius.clamp(0.0, f64::from(MAX_RADIUS)) as u32 }
            }
            ObjectKind::Other(_) => ObjectKind::Other(class.to_owned()),
            kind => kind,
        };
        Ok(o)
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

    #[test]
    fn a_press_picks_a_shape_inside_its_outline_or_near_its_path_or_point() {
        let shape = |kind| ObjectShape { offset: [10.0, 10.0], rotation: 0.0, kind };
        let rectangle = shape(ShapeKind::Rectangle { width: 20.0, height: 10.0 });
        assert!(rectangle.covers([15.0, 15.0], 0.0) && rectangle.covers([29.0, 19.0], 0.0));
        assert!(!rectangle.covers([31.0, 15.0], 0.0) && rectangle.covers([31.0, 15.0], 2.0), "its edge, with slack");
        // Turned a quarter clockwise about (10, 10): it hangs down and to the left.
        let turned = ObjectShape { rotation: 90.0, ..rectangle.clone() };
        assert!(turned.covers([5.0, 25.0], 0.0) && !turned.covers([15.0, 15.0], 0.0));
        let ellipse = shape(ShapeKind::Ellipse { width: 20.0, height: 20.0 });
        assert!(ellipse.covers([20.0, 20.0], 0.0) && !ellipse.covers([11.0, 11.0], 0.0), "not its box's corner");
        // A concave polygon (an L): not in the notch.
        let l =
            shape(ShapeKind::Polygon(vec![[0.0, 0.0], [20.0, 0.0], [20.0, 5.0], [5.0, 5.0], [5.0, 20.0], [0.0, 20.0]]));
        assert!(l.covers([12.0, 25.0], 0.0) && l.covers([25.0, 12.0], 0.0) && !l.covers([25.0, 25.0], 0.0));
        let path = shape(ShapeKind::Polyline(vec![[0.0, 0.0], [20.0, 0.0]]));
        assert!(path.covers([20.0, 12.0], 3.0) && !path.covers([20.0, 14.0], 3.0) && !path.covers([35.0, 10.0], 3.0));
        let point = shape(ShapeKind::Point);
        assert!(point.covers([12.0, 10.0], 3.0) && !point.covers([14.0, 10.0], 3.0));
        let text = shape(ShapeKind::Text { width: 30.0, height: 8.0, text: Box::new(ObjectText::new("sign")) });
        assert!(text.covers([39.0, 17.0], 0.0) && !text.covers([41.0, 17.0], 0.0));
    }

    #[test]
    fn a_handle_moves_its_corner_or_edge_and_the_opposite_stays() {
        let (at, size) = ([10.0, 20.0], [30.0, 40.0]);
        // The bottom-right corner: the top-left stays.
        assert_eq!(resized_box(at, size, [1, 1], [50.0, 70.0]), ([10.0, 20.0], [40.0, 50.0]));
        // The top edge's middle: only the top moves, whatever the pointer's x.
        assert_eq!(resized_box(at, size, [0, -1], [999.0, 10.0]), ([10.0, 10.0], [30.0, 50.0]));
        // The left edge dragged past the right one: the box turns over.
        assert_eq!(resized_box(at, size, [-1, 0], [60.0, 0.0]), ([40.0, 20.0], [20.0, 40.0]));
    }

    /// A box turned a quarter clockwise about its top-left corner (10, 20): its own x runs
    /// down the map, its own y to the left.
    #[test]
    fn a_turned_boxs_handle_moves_in_the_boxs_own_frame() {
        let (at, size) = ([10.0, 20.0], [30.0, 40.0]);
        // Its far corner (own 30, 40) taken to own (40, 45): 10 longer, 5 wider, its top-left
        // corner staying.
        assert_eq!(resized_turned_box(at, size, 90.0, [1, 1], [40.0, 45.0]), (at, [40.0, 45.0]));
        // Its own top edge (the map's right side) taken to own y −10: the box's own top moves
        // up its y by 10, so its corner moves 10 right on the map.
        assert_eq!(resized_turned_box(at, size, 90.0, [0, -1], [999.0, -10.0]), ([20.0, 20.0], [30.0, 50.0]));
        // The pointer into the box's frame: from the map's (−35, 60), own (40, 45).
        assert_eq!(rotated([-35.0 - at[0], 60.0 - at[1]], -90.0), [40.0, 45.0]);
        // Not turned: `resized_box`, from the box's position.
        assert_eq!(
            resized_turned_box(at, size, 0.0, [1, 1], [40.0, 50.0]),
            resized_box(at, size, [1, 1], [50.0, 70.0])
        );
    }

    #[test]
    fn a_monster_or_the_player_carries_the_light_its_light_property_says() {
        let monster = MapObject::new(ObjectKind::Monster { glyph: 'o', vision_radius: 8 }, Cell::new(0, 0));
        let with = |value: PropertyValue| {
            let mut o = monster.clone();
            o.properties.insert(CARRIED_LIGHT.into(), value);
            o.carried_light()
        };
        assert_eq!(monster.carried_light(), None);
        assert_eq!(with(PropertyValue::Int(3)), Some(3));
        assert_eq!(with(PropertyValue::Float(2.5)), Some(2));
        assert_eq!(with(PropertyValue::String(" 4 ".into())), Some(4));
        assert_eq!(with(PropertyValue::Int(0)), None, "no light");
        assert_eq!(with(PropertyValue::Int(-5)), None);
        assert_eq!(with(PropertyValue::Float(f64::NAN)), None);
        assert_eq!(with(PropertyValue::Int(i64::MAX)), Some(MAX_RADIUS));
        assert_eq!(with(PropertyValue::Bool(true)), None);
        // Monsters and the player carry lights; an item does not.
        let mut player = MapObject::new(ObjectKind::PlayerStart, Cell::new(0, 0));
        player.properties.insert(CARRIED_LIGHT.into(), PropertyValue::Int(2));
        assert_eq!(player.carried_light(), Some(2));
        let mut item = MapObject::new(ObjectKind::Item, Cell::new(0, 0));
        item.properties.insert(CARRIED_LIGHT.into(), PropertyValue::Int(3));
        assert_eq!(item.carried_light(), None);
    }

    #[test]
    fn the_player_start_sets_the_players_vision_from_zero_up() {
        let mut player = MapObject::new(ObjectKind::PlayerStart, Cell::new(0, 0));
        assert_eq!(player.player_vision(), None, "the preset's");
        let mut with = |value: PropertyValue| {
            player.properties.insert(PLAYER_VISION.into(), value);
            player.player_vision()
        };
        assert_eq!(with(PropertyValue::Int(0)), Some(0), "blind in the dark");
        assert_eq!(with(PropertyValue::Float(3.7)), Some(3));
        assert_eq!(with(PropertyValue::Int(-1)), None);
        assert_eq!(with(PropertyValue::String("far".into())), None);
        // A monster's vision is its kind's field, not this.
        let mut monster = MapObject::new(ObjectKind::Monster { glyph: 'o', vision_radius: 8 }, Cell::new(0, 0));
        monster.properties.insert(PLAYER_VISION.into(), PropertyValue::Int(2));
        assert_eq!(monster.player_vision(), None);
    }

    #[test]
    fn reclassing_reads_the_kinds_fields_from_the_properties_as_loading_does() {
        let mut zone = MapObject::new(ObjectKind::Other(String::new()), Cell::new(2, 3)).named("lamp");
        zone.properties.insert("radius".into(), PropertyValue::String("3".into()));
        zone.properties.insert("note".into(), PropertyValue::String("by the door".into()));
        let light = zone.reclassed("Light").unwrap();
        assert_eq!(light.kind, ObjectKind::Light { radius: 3 });
        assert_eq!(light.properties.keys().collect::<Vec<_>>(), ["note"], "radius is the light's own now");
        // Another class keeps the properties, and its case.
        let trigger = zone.reclassed("Trigger").unwrap();
        assert_eq!((trigger.kind, trigger.properties.len()), (ObjectKind::Other("Trigger".into()), 2));
        // A radius that is no number: a load would refuse it, so the class is refused too.
        zone.properties.insert("radius".into(), PropertyValue::Bool(true));
        assert_eq!(zone.reclassed("light").unwrap_err().key, "radius");
        // No class: the name says, as loading reads it.
        let orc = MapObject::new(ObjectKind::Other("x".into()), Cell::new(0, 0)).named("enemy");
        assert_eq!(orc.reclassed("").unwrap().kind, ObjectKind::Monster { glyph: 'e', vision_radius: 8 });
    }

    #[test]
    fn a_class_the_game_knows_makes_its_object_in_any_case_and_any_other_is_kept_as_written() {
        assert_eq!(ObjectKind::of_class("Player", ""), ObjectKind::PlayerStart);
        assert_eq!(ObjectKind::of_class("enemy", "orc chief"), ObjectKind::Monster { glyph: 'o', vision_radius: 8 });
        assert_eq!(ObjectKind::of_class("NPC", ""), ObjectKind::Monster { glyph: 'm', vision_radius: 8 });
        assert_eq!(ObjectKind::of_class("pickup", ""), ObjectKind::Item);
        assert_eq!(ObjectKind::of_class("light", ""), ObjectKind::Light { radius: DEFAULT_LIGHT_RADIUS });
        assert_eq!(ObjectKind::of_class("Lighthouse", ""), ObjectKind::Other("Lighthouse".into()));
        assert_eq!(ObjectKind::of_class("", "player"), ObjectKind::Other(String::new()));
    }
    use crate::core::model::sheet_drawing::ObjectAlignment;

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
        // A size a turned resize left: two decimals at most, none trailing.
        let odd = ObjectShape {
            offset: [0.0, 0.0],
            rotation: 12.5,
            kind: ShapeKind::Ellipse { width: 22.588457268119896, height: 6.5 },
        };
        assert_eq!(odd.describe(), "ellipse 22.59 × 6.5 px, turned 12.5°");
    }

    #[test]
    fn a_capsule_is_a_stadium_in_its_box_and_a_text_has_its_box_but_no_outline() {
        let bounds = |points: &[[f64; 2]]| {
            let round = |v: f64| (v * 1e9).round() / 1e9;
            let (xs, ys): (Vec<f64>, Vec<f64>) = points.iter().map(|&[x, y]| (round(x), round(y))).unzip();
            [
                xs.iter().copied().fold(f64::MAX, f64::min),
                xs.iter().copied().fold(f64::MIN, f64::max),
                ys.iter().copied().fold(f64::MAX, f64::min),
                ys.iter().copied().fold(f64::MIN, f64::max),
            ]
        };
        for (w, h) in [(24.0, 8.0), (8.0, 24.0), (10.0, 10.0)] {
            let capsule =
                ObjectShape { offset: [0.0, 0.0], rotation: 0.0, kind: ShapeKind::Capsule { width: w, height: h } };
            let (points, closed) = capsule.outline().unwrap();
            assert!(closed);
            assert_eq!(bounds(&points), [0.0, w, 0.0, h], "{w} × {h}");
            // Every point is on the stadium: at the radius from the segment joining the centres.
            let r = f64::min(w, h) / 2.0;
            for &[x, y] in &points {
                let (cx, cy) = if w >= h { (x.clamp(r, w - r), r) } else { (r, y.clamp(r, h - r)) };
                assert!(((x - cx).hypot(y - cy) - r).abs() < 1e-9, "({x}, {y}) in {w} × {h}");
            }
            // The straight sides are there: the middle of the long side is on the outline's path
            // (between two consecutive points).
            let on_path = points.iter().zip(points.iter().cycle().skip(1)).any(|(a, b)| {
                let (m, n) = if w >= h { ([w / 2.0, 0.0], [w / 2.0, h]) } else { ([0.0, h / 2.0], [w, h / 2.0]) };
                [m, n].iter().any(|p| {
                    let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
                    cross.abs() < 1e-9 && (p[0] - a[0]) * (p[0] - b[0]) + (p[1] - a[1]) * (p[1] - b[1]) <= 1e-9
                })
            });
            assert!(on_path || w == h, "{w} × {h}");
        }
        let text = ObjectShape {
            offset: [4.0, 2.0],
            rotation: 90.0,
            kind: ShapeKind::Text { width: 10.0, height: 6.0, text: Box::new(ObjectText::new("hi")) },
        };
        assert_eq!(text.outline(), None);
        let corners = text.text_corners().unwrap().map(|p| p.map(|v| (v * 1e9).round() / 1e9));
        assert_eq!(corners, [[4.0, 2.0], [4.0, 12.0], [-2.0, 2.0], [-2.0, 12.0]]);
        assert_eq!(text.describe(), "text \"hi\" 10 × 6 px, turned 90°");
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
