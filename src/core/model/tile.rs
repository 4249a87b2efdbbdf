//! Tile types: how a tile looks (a glyph, or a sprite in an image tileset) and the properties the
//! game rules read (`opaque`, `walkable`, `door`, `cost`).

use std::collections::BTreeMap;

use crate::core::model::serde_defaults::{is_one, one};
use serde::{Deserialize, Serialize};

/// Index into [`crate::core::Map::tiles`]. `0` is the empty tile (nothing on this layer here).
pub type TileId = u16;

/// The empty tile: a layer cell with nothing on it.
pub const EMPTY: TileId = 0;

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub const BLACK: Rgb = Rgb(0, 0, 0);
    pub const WHITE: Rgb = Rgb(255, 255, 255);

    /// `#rrggbb`, as Tiled writes colours.
    pub fn to_hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// Parses `#rrggbb` or `rrggbb` (and Tiled's `#aarrggbb`, ignoring alpha).
    pub fn from_hex(s: &str) -> Option<Rgb> {
        Rgba::from_hex(s).map(|c| Rgb(c.0, c.1, c.2))
    }
}

/// How a tile is drawn as roguelike ASCII.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Glyph {
    pub ch: char,
    pub fg: Rgb,
    pub bg: Rgb,
}

impl Glyph {
    /// The glyph a tile's rules give it when nothing else does (a Tiled tile with no `glyph`,
    /// `fg` or `bg` property), in `fg`: `+` a closed door, `'` an open one, `#` a wall, `.` a
    /// floor, `"` what hides but lets through (tall grass), `~` what blocks but lets the eye
    /// pass (water); a darker ground under what is opaque.
    pub fn implied(opaque: bool, walkable: bool, door_open: Option<bool>, fg: Rgb) -> Glyph {
        let ch = match (door_open, opaque, walkable) {
            (Some(false), _, _) => '+',
            (Some(true), _, _) => '\'',
            (None, true, false) => '#',
            (None, false, true) => '.',
            (None, true, true) => '"',
            (None, false, false) => '~',
        };
        let bg = if opaque { Rgb(48, 48, 56) } else { Rgb(20, 20, 28) };
        Glyph { ch, fg, bg }
    }
}

/// A sprite: tile `index` (row-major, from 0) of sprite sheet `sheet` of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Sprite {
    pub sheet: u16,
    pub index: u32,
}

/// A door tile and the tile it turns into when opened or closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Door {
    pub open: bool,
    /// The counterpart: the closed tile of an open door, the open tile of a closed one.
    pub toggles_to: TileId,
}

/// A colour with alpha, as Tiled's `color` properties hold it (written `#aarrggbb`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

impl Rgba {
    /// `#aarrggbb`, as Tiled writes colour properties.
    pub fn to_hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}{:02x}", self.3, self.0, self.1, self.2)
    }

    /// Parses Tiled's `#aarrggbb`, or `#rrggbb` (opaque); the `#` is optional.
    pub fn from_hex(s: &str) -> Option<Rgba> {
        let h = s.trim().trim_start_matches('#');
        if !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let v = u32::from_str_radix(h, 16).ok()?;
        match h.len() {
            6 => Some(Rgba((v >> 16) as u8, (v >> 8) as u8, v as u8, 255)),
            8 => Some(Rgba((v >> 16) as u8, (v >> 8) as u8, v as u8, (v >> 24) as u8)),
            _ => None,
        }
    }
}

/// A free-form property value, as in Tiled's custom properties, with Tiled's types so that a
/// Tiled file round-trips: a colour stays a colour (with its alpha), a file path a file, an
/// object reference an object, a class value keeps its class name and members, an enum value its
/// enum's name, and a list its items.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PropertyValue {
    Bool(bool),
    Int(i64),
    Float(f64),
    String(String),
    /// Tiled's `color`; `None` is Tiled's unset colour (written as an empty value).
    Color(Option<Rgba>),
    /// Tiled's `file`: a path, relative to the map's folder as the file wrote it.
    File(String),
    /// Tiled's `object`: the id of an object of the map (0: none).
    Object(u32),
    /// Tiled's `class` (since Tiled 1.8): a value of a custom type defined in the designer's
    /// Tiled project, kept as its type's name and the members the file sets.
    Class {
        class: String,
        members: Properties,
    },
    /// A value of a custom enum type (since Tiled 1.8) defined in the designer's Tiled project,
    /// kept as its type's name and the value the file stores: the value's name (or, for an enum
    /// that allows several values, its names joined by commas) as a string, or its index (or
    /// bit flags) as an int.
    Enum {
        enum_type: String,
        value: EnumValue,
    },
    /// Tiled's `list` (since Tiled 1.12): values in order, each of any type, lists included.
    List(Vec<PropertyValue>),
}

/// How an enum value is stored, as the enum's definition in the Tiled project chooses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum EnumValue {
    String(String),
    Int(i64),
}

impl PropertyValue {
    /// Tiled's name for the value's type.
    pub fn type_name(&self) -> &'static str {
        match self {
            PropertyValue::Bool(_) => "bool",
            PropertyValue::Int(_) => "int",
            PropertyValue::Float(_) => "float",
            PropertyValue::String(_) => "string",
            PropertyValue::Color(_) => "color",
            PropertyValue::File(_) => "file",
            PropertyValue::Object(_) => "object",
            PropertyValue::Class { .. } => "class",
            PropertyValue::Enum { value: EnumValue::String(_), .. } => "string",
            PropertyValue::Enum { value: EnumValue::Int(_), .. } => "int",
            PropertyValue::List(_) => "list",
        }
    }

    /// The name of the custom type from the designer's Tiled project that the value belongs to
    /// (Tiled's `propertytype`): a class's or an enum's; `None` for the other values.
    pub fn custom_type(&self) -> Option<&str> {
        match self {
            PropertyValue::Class { class, .. } => Some(class),
            PropertyValue::Enum { enum_type, .. } => Some(enum_type),
            _ => None,
        }
    }

    /// Whether `other` differs from this value only in what a value editor edits in place: the
    /// same type (and custom type), and for a class the same members, for a list as many items,
    /// each of the same shape. (The app makes one undo step of a run of such edits.)
    pub fn same_shape(&self, other: &PropertyValue) -> bool {
        match (self, other) {
            (PropertyValue::Class { class: a, members: m }, PropertyValue::Class { class: b, members: n }) => {
                a == b && same_shape(m, n)
            }
            (PropertyValue::List(a), PropertyValue::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_shape(y))
            }
            (a, b) => a.type_name() == b.type_name() && a.custom_type() == b.custom_type(),
        }
    }

    /// The value without its enum type: an enum's stored string or int, as a plain one; any
    /// other value as it is. What the game rules read, since a designer may give a rule
    /// property (a door's `open`/`closed`, say) an enum type of their project.
    pub fn without_enum_type(&self) -> std::borrow::Cow<'_, PropertyValue> {
        match self {
            PropertyValue::Enum { value: EnumValue::String(s), .. } => {
                std::borrow::Cow::Owned(PropertyValue::String(s.clone()))
            }
            PropertyValue::Enum { value: EnumValue::Int(i), .. } => std::borrow::Cow::Owned(PropertyValue::Int(*i)),
            other => std::borrow::Cow::Borrowed(other),
        }
    }

    /// The value as a number, as the game's fields (a monster's `vision`, a light's `radius`)
    /// are read: an int, a float, or a string holding one, with or without an enum type.
    pub fn as_number(&self) -> Option<f64> {
        match self.without_enum_type().as_ref() {
            PropertyValue::Int(v) => Some(*v as f64),
            PropertyValue::Float(v) => Some(*v),
            PropertyValue::String(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    /// The value as text (a monster's `glyph`): a string, or an enum's stored name.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            PropertyValue::String(s) | PropertyValue::Enum { value: EnumValue::String(s), .. } => Some(s),
            _ => None,
        }
    }
}

impl PropertyValue {
    /// The value converted to Tiled's type `type_name`, as Tiled's "Convert To" does: numbers
    /// and text carry over where they read as the new type (`"3"` → 3, 2.6 → 3, `"#ff0000"` → a
    /// colour), and the new type's empty value stands in otherwise; an enum value converts as the
    /// string or int it is stored as, and loses its enum type. `None` to or from a class (whose
    /// members are defined in the designer's Tiled project) or a list, or for an unknown type
    /// name.
    pub fn converted_to(&self, type_name: &str) -> Option<PropertyValue> {
        if let PropertyValue::Enum { .. } = self {
            // As Tiled does: the value loses its enum type and converts as the string or int
            // it was stored as.
            return self.without_enum_type().converted_to(type_name);
        }
        let as_text = match self {
            PropertyValue::Class { .. } | PropertyValue::List(_) => return None,
            PropertyValue::Color(None) => String::new(),
            PropertyValue::Object(id) => id.to_string(),
            other => other.to_string(),
        };
        let text = match self {
            PropertyValue::String(s) | PropertyValue::File(s) => Some(s.trim()),
            _ => None,
        };
        let number = match self {
            PropertyValue::Bool(b) => Some(f64::from(u8::from(*b))),
            PropertyValue::Int(i) => Some(*i as f64),
            PropertyValue::Float(x) => Some(*x),
            PropertyValue::Object(id) => Some(f64::from(*id)),
            _ => text.and_then(|t| t.parse::<f64>().ok()),
        }
        .filter(|x| x.is_finite());
        Some(match type_name {
            "bool" => PropertyValue::Bool(match text {
                Some(t) if t.eq_ignore_ascii_case("true") => true,
                _ => number.is_some_and(|x| x != 0.0),
            }),
            "int" => PropertyValue::Int(match self {
                PropertyValue::Int(i) => *i,
                _ => number.map_or(0, |x| x.round() as i64),
            }),
            "float" => PropertyValue::Float(number.unwrap_or(0.0)),
            "string" => PropertyValue::String(as_text),
            "file" => PropertyValue::File(as_text),
            "color" => PropertyValue::Color(match self {
                PropertyValue::Color(c) => *c,
                _ => text.and_then(Rgba::from_hex),
            }),
            "object" => PropertyValue::Object(number.map_or(0, |x| x.round().clamp(0.0, f64::from(u32::MAX)) as u32)),
            _ => return None,
        })
    }
}

impl std::fmt::Display for PropertyValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PropertyValue::Bool(v) => write!(f, "{v}"),
            PropertyValue::Int(v) => write!(f, "{v}"),
            PropertyValue::Float(v) => write!(f, "{v}"),
            PropertyValue::String(v) | PropertyValue::File(v) => write!(f, "{v}"),
            PropertyValue::Color(Some(c)) => write!(f, "{}", c.to_hex()),
            PropertyValue::Color(None) => write!(f, "unset"),
            PropertyValue::Object(id) => write!(f, "object {id}"),
            PropertyValue::Class { class, members } if members.is_empty() => write!(f, "{class} {{}}"),
            PropertyValue::Class { class, members } => {
                write!(f, "{class} {{")?;
                for (i, (name, value)) in members.iter().enumerate() {
                    write!(f, "{}{name}: {value}", if i == 0 { " " } else { ", " })?;
                }
                write!(f, " }}")
            }
            // The value as Tiled shows it; its enum's name is in `custom_type`.
            PropertyValue::Enum { value: EnumValue::String(s), .. } => write!(f, "{s}"),
            PropertyValue::Enum { value: EnumValue::Int(i), .. } => write!(f, "{i}"),
            PropertyValue::List(items) => {
                write!(f, "[")?;
                for (i, item) in items.iter().enumerate() {
                    write!(f, "{}{item}", if i == 0 { "" } else { ", " })?;
                }
                write!(f, "]")
            }
        }
    }
}

pub type Properties = BTreeMap<String, PropertyValue>;

/// Whether two property tables have the same names, each value of the same shape
/// ([`PropertyValue::same_shape`]).
pub fn same_shape(a: &Properties, b: &Properties) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|((k, v), (l, w))| k == l && v.same_shape(w))
}

/// One tile type of a map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TileKind {
    pub name: String,
    /// Tiled's class of the tile (its custom type, since Tiled 1.9; `type` before), kept for
    /// the designer's Tiled project; empty: none. A tile without a `name` property is named
    /// after it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub class: String,
    pub glyph: Glyph,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprite: Option<Sprite>,
    /// Blocks sight.
    pub opaque: bool,
    /// Can be stood on.
    pub walkable: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub door: Option<Door>,
    /// Cost of stepping onto this tile (orthogonal step; a diagonal step costs √2 times it).
    pub cost: f32,
    /// Other custom properties, kept so a Tiled map round-trips.
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
    /// How the tile is drawn over time (Tiled's tile animation); empty: as itself. Only the look
    /// changes: the game rules read this tile's properties whichever frame shows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub animation: Vec<Frame>,
    /// How often Tiled's random brush and terrain fill pick this tile against the others (1
    /// unless the file says otherwise); kept for Tiled.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub probability: f32,
}

/// One frame of a tile animation (Tiled's `<frame tileid duration>`): the tile drawn, and for
/// how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame {
    pub tile: TileId,
    pub duration_ms: u32,
}

impl TileKind {
    pub fn new(name: &str, ch: char, fg: Rgb, bg: Rgb, opaque: bool, walkable: bool) -> Self {
        Self {
            name: name.to_owned(),
            class: String::new(),
            glyph: Glyph { ch, fg, bg },
            sprite: None,
            opaque,
            walkable,
            door: None,
            cost: 1.0,
            properties: Properties::new(),
            animation: Vec::new(),
            probability: 1.0,
        }
    }

    /// The tile drawn for this one `clock_ms` into its animation, as Tiled plays them: the frames
    /// loop, each shown for its duration, all animations on one clock. `None` when the tile is
    /// not animated (or its frames last 0 ms in all).
    pub fn frame_at(&self, clock_ms: u64) -> Option<TileId> {
        let (frame, _) = self.frame_and_time_left(clock_ms)?;
        Some(frame.tile)
    }

    /// How many milliseconds after `clock_ms` the drawn frame changes (`None`: never).
    pub fn next_frame_in(&self, clock_ms: u64) -> Option<u64> {
        let (_, left) = self.frame_and_time_left(clock_ms)?;
        Some(left).filter(|_| self.animation.len() > 1)
    }

    fn frame_and_time_left(&self, clock_ms: u64) -> Option<(Frame, u64)> {
        let total: u64 = self.animation.iter().map(|f| u64::from(f.duration_ms)).sum();
        if total == 0 {
            return None;
        }
        let mut t = clock_ms % total;
        for f in &self.animation {
            let d = u64::from(f.duration_ms);
            if t < d {
                return Some((*f, d - t));
            }
            t -= d;
        }
        None
    }

    /// The placeholder in slot 0 of every tile table: nothing there.
    pub fn empty() -> Self {
        Self::new("empty", ' ', Rgb::WHITE, Rgb::BLACK, false, false)
    }

    pub fn with_cost(mut self, cost: f32) -> Self {
        self.cost = cost;
        self
    }
}

/// The dungeon tiles every ASCII map starts from, by glyph:
///
/// | glyph | name        | opaque | walkable | cost | notes                          |
/// |-------|-------------|--------|----------|------|--------------------------------|
/// | `.`   | floor       | no     | yes      | 1    |                                |
/// | `#`   | wall        | yes    | no       | –    |                                |
/// | `+`   | closed door | yes    | no       | –    | opens into `'`                 |
/// | `'`   | open door   | no     | yes      | 1    | closes into `+`                |
/// | `~`   | water       | no     | yes      | 3    | wading is slow                 |
/// | `"`   | tall grass  | yes    | yes      | 1    | hides what is behind it (Brogue's grass, Grass's trees): you see into the first grass cell, not through it |
///
/// Returned with the empty tile in slot 0, so index = [`TileId`].
pub fn standard_tiles() -> Vec<TileKind> {
    let floor_bg = Rgb(20, 20, 28);
    let mut closed = TileKind::new("closed door", '+', Rgb(200, 140, 60), floor_bg, true, false);
    closed.door = Some(Door { open: false, toggles_to: STANDARD_OPEN_DOOR });
    let mut open = TileKind::new("open door", '\'', Rgb(200, 140, 60), floor_bg, false, true);
    open.door = Some(Door { open: true, toggles_to: STANDARD_CLOSED_DOOR });
    vec![
        TileKind::empty(),
        TileKind::new("floor", '.', Rgb(110, 110, 120), floor_bg, false, true),
        TileKind::new("wall", '#', Rgb(170, 170, 180), Rgb(60, 60, 72), true, false),
        closed,
        open,
        TileKind::new("water", '~', Rgb(90, 150, 255), Rgb(20, 40, 90), false, true).with_cost(3.0),
        TileKind::new("tall grass", '"', Rgb(80, 190, 70), Rgb(16, 40, 16), true, true),
    ]
}

pub const STANDARD_FLOOR: TileId = 1;
pub const STANDARD_WALL: TileId = 2;
pub const STANDARD_CLOSED_DOOR: TileId = 3;
pub const STANDARD_OPEN_DOOR: TileId = 4;
pub const STANDARD_WATER: TileId = 5;
pub const STANDARD_GRASS: TileId = 6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn property_values_convert_as_tileds_convert_to_does() {
        use PropertyValue::*;
        let cases: &[(PropertyValue, &str, PropertyValue)] = &[
            (String(" 3 ".into()), "int", Int(3)),
            (String("2.6".into()), "int", Int(3)),
            (String("north".into()), "int", Int(0)),
            (String("TRUE".into()), "bool", Bool(true)),
            (String("0".into()), "bool", Bool(false)),
            (Float(0.25), "bool", Bool(true)),
            (Int(7), "float", Float(7.0)),
            (Bool(true), "int", Int(1)),
            (Float(-1.5), "object", Object(0)),
            (Int(12), "object", Object(12)),
            (Object(12), "string", String("12".into())),
            (Float(0.1), "string", String("0.1".into())),
            (String("#80ff2000".into()), "color", Color(Some(Rgba(255, 32, 0, 128)))),
            (String("red".into()), "color", Color(None)),
            (Color(Some(Rgba(255, 32, 0, 128))), "string", String("#80ff2000".into())),
            (Color(None), "file", File(std::string::String::new())),
            (File("a.lua".into()), "string", String("a.lua".into())),
            (String("1e400".into()), "float", Float(0.0)),
        ];
        for (from, to, expected) in cases {
            assert_eq!(from.converted_to(to).as_ref(), Some(expected), "{from:?} to {to}");
        }
        let class = Class { class: "Stats".into(), members: Properties::new() };
        assert_eq!(class.converted_to("string"), None);
        assert_eq!(Int(1).converted_to("class"), None);
        assert_eq!(Int(1).converted_to("list"), None);
    }
}
