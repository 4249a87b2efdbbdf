//! ASCII maps (`.txt`): the roguelike's own notation, and our test language.
//!
//! Built-in glyphs (see [`standard_tiles`] for their properties):
//! `#` wall, `.` floor, `+` closed door, `'` open door, `~` water (cost 3), `"` tall grass
//! (opaque but walkable), `@` player start (on floor), `*` item and `!` light (on floor),
//! letters `a`–`z`, `A`–`Z` monsters (on floor), and space: void, no tile at all, which like the
//! outside of the map blocks sight and movement. Rows may be ragged; short rows are padded with void.
//!
//! An optional legend header redefines or adds glyphs, one per line, and ends at `---`:
//!
//! ```text
//! legend:
//! T = tile name="tree" opaque fg=#22aa22 bg=#103010
//! = = wall
//! ≈ = tile name="deep water" cost=5 fg=#2040ff
//! g = monster name=goblin vision=6
//! ---
//! #####
//! #@Tg#
//! #####
//! ```
//!
//! Kinds: a built-in tile name with spaces written as `-` (`floor`, `wall`, `closed-door`,
//! `open-door`, `water`, `tall-grass`); `tile` with `name=`, flags `opaque` and `walkable`,
//! `cost=`, `fg=`, `bg=`, `door=open|closed` and `toggles=C` (the counterpart's glyph; `\"` for
//! a `"`);
//! `monster` with `name=`, `vision=` and `light=` (the radius of a light it carries: its `light`
//! property); `player` with `name=`, `light=` (the player's torch) and `vision=` (how far the
//! player sees in the dark, over the play preset's); `item` with `name=`;
//! `light` with `radius=`.

use std::collections::HashMap;

use crate::core::model::error::MapError;
use crate::core::model::geometry::Cell;
use crate::core::model::map::{self, Layer, Map};
use crate::core::model::object::{CARRIED_LIGHT, DEFAULT_VISION_RADIUS, MapObject, ObjectKind, PLAYER_VISION};
use crate::core::model::tile::{self, Door, Properties, PropertyValue, Rgb, TileId, TileKind, standard_tiles};

const VOID: char = ' ';
const DEFAULT_LIGHT_RADIUS: u32 = 6;

/// What a glyph stands for.
#[derive(Clone, Debug)]
enum Meaning {
    Tile(TileId),
    /// An object standing on floor, with its name and properties.
    Object(ObjectKind, String, Properties),
}

fn standard_meaning(ch: char) -> Option<Meaning> {
    let tile = match ch {
        VOID => tile::EMPTY,
        '.' => tile::STANDARD_FLOOR,
        '#' => tile::STANDARD_WALL,
        '+' => tile::STANDARD_CLOSED_DOOR,
        '\'' => tile::STANDARD_OPEN_DOOR,
        '~' => tile::STANDARD_WATER,
        '"' => tile::STANDARD_GRASS,
        '@' => return Some(Meaning::Object(ObjectKind::PlayerStart, "player".into(), Properties::new())),
        '*' => return Some(Meaning::Object(ObjectKind::Item, "item".into(), Properties::new())),
        '!' => {
            let light = ObjectKind::Light { radius: DEFAULT_LIGHT_RADIUS };
            return Some(Meaning::Object(light, "light".into(), Properties::new()));
        }
        c if c.is_ascii_alphabetic() => {
            return Some(Meaning::Object(
                ObjectKind::Monster { glyph: c, vision_radius: DEFAULT_VISION_RADIUS },
                monster_name(c).to_owned(),
                Properties::new(),
            ));
        }
        _ => return None,
    };
    Some(Meaning::Tile(tile))
}

/// Traditional roguelike letters, so `g` reads as a goblin in the inspector.
pub fn monster_name(c: char) -> &'static str {
    match c {
        'a' => "ant",
        'b' => "bat",
        'c' => "cat",
        'd' => "dog",
        'g' => "goblin",
        'h' => "dwarf",
        'j' => "jackal",
        'k' => "kobold",
        'o' => "orc",
        'r' => "rat",
        's' => "spider",
        'w' => "worm",
        'z' => "zombie",
        'D' => "dragon",
        'O' => "ogre",
        'T' => "troll",
        _ => "monster",
    }
}

/// Splits a legend line's right-hand side into words, keeping `key="quoted words"` together.
/// `\"` is a quote that belongs to the word (`toggles=\"`: a door whose counterpart's glyph is
/// `"`; `name="a \"b\""`), `\\` a backslash (a name that ends in one); any other backslash is
/// itself.
fn words(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = s.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' if matches!(chars.peek(), Some('"' | '\\')) => {
                cur.extend(chars.next());
            }
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if quoted {
        return Err("a quote is not closed".into());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

fn parse_color(v: &str) -> Result<Rgb, String> {
    Rgb::from_hex(v).ok_or_else(|| format!("{v:?} is not a colour (write #rrggbb)"))
}

fn parse_number<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("{key}={v:?} is not a valid number"))
}

/// The properties of a monster or player whose legend says `light=` (`light`), or none.
fn carried(light: Option<&str>) -> Result<Properties, String> {
    let mut properties = Properties::new();
    if let Some(light) = light {
        let radius: u32 = parse_number("light", light)?;
        properties.insert(CARRIED_LIGHT.into(), PropertyValue::Int(i64::from(radius)));
    }
    Ok(properties)
}

struct Legend {
    /// Each glyph the legend defines: what it means, and the line that says so.
    meanings: HashMap<char, (Meaning, usize)>,
    tiles: Vec<TileKind>,
    /// Door counterparts named by glyph, resolved once the whole legend is read.
    pending_toggles: Vec<(TileId, char, usize)>,
}

impl Legend {
    fn lookup(&self, ch: char) -> Option<Meaning> {
        self.meanings.get(&ch).map(|(m, _)| m.clone()).or_else(|| standard_meaning(ch))
    }

    fn define(&mut self, line_no: usize, line: &str) -> Result<(), MapError> {
        let err = |msg: String| MapError::syntax("ASCII legend", msg).at_line(line_no, None);
        let mut chars = line.chars();
        let ch = chars.next().ok_or_else(|| err("empty legend line".into()))?;
        // A second meaning would leave the first's tile type in the map, drawn nowhere.
        if let Some((_, first)) = self.meanings.get(&ch) {
            return Err(err(format!("glyph {ch:?} is defined already, on line {first}")));
        }
        let rest = chars.as_str().trim_start();
        let rest = rest
            .strip_prefix('=')
            .ok_or_else(|| err(format!("expected `{ch} = KIND ...` (a glyph, `=`, then what it is)")))?;
        let words = words(rest).map_err(err)?;
        let (kind, args) = words.split_first().ok_or_else(|| err(format!("glyph {ch:?} is given no kind")))?;
        let mut name: Option<String> = None;
        let mut flags = Vec::new();
        let mut values = HashMap::new();
        for a in args {
            match a.split_once('=') {
                Some(("name", v)) => name = Some(v.to_owned()),
                Some((k, v)) => {
                    values.insert(k.to_owned(), v.to_owned());
                }
                None => flags.push(a.as_str()),
            }
        }
        let value = |k: &str| values.get(k).map(String::as_str);
        let meaning = match kind.as_str() {
            "tile" => {
                let name = name.unwrap_or_else(|| ch.to_string());
                let mut t = TileKind::new(
                    &name,
                    ch,
                    value("fg").map(parse_color).transpose().map_err(err)?.unwrap_or(Rgb::WHITE),
                    value("bg").map(parse_color).transpose().map_err(err)?.unwrap_or(Rgb::BLACK),
                    flags.contains(&"opaque"),
                    flags.contains(&"walkable"),
                );
                if let Some(c) = value("cost") {
                    t.cost = parse_number::<f32>("cost", c).map_err(err)?;
                    if !t.cost.is_finite() || t.cost < 0.0 {
                        return Err(err(format!("cost={c} must be a number ≥ 0")));
                    }
                }
                for f in &flags {
                    if !matches!(*f, "opaque" | "walkable") {
                        return Err(err(format!("unknown flag {f:?} (known: opaque, walkable)")));
                    }
                }
                let id = self.tiles.len() as TileId;
                match value("door") {
                    None => {}
                    Some(state @ ("open" | "closed")) => {
                        let toggles = value("toggles")
                            .and_then(|s| s.chars().next())
                            .ok_or_else(|| err("a door needs toggles=C, the glyph of its counterpart".into()))?;
                        t.door = Some(Door { open: state == "open", toggles_to: 0 });
                        self.pending_toggles.push((id, toggles, line_no));
                    }
                    Some(other) => return Err(err(format!("door={other:?}: write door=open or door=closed"))),
                }
                if self.tiles.len() > usize::from(TileId::MAX) {
                    return Err(err("too many tile types".into()));
                }
                self.tiles.push(t);
                Meaning::Tile(id)
            }
            "monster" => {
                let properties = carried(value("light")).map_err(err)?;
                Meaning::Object(
                    ObjectKind::Monster {
                        glyph: ch,
                        vision_radius: value("vision")
                            .map(|v| parse_number("vision", v))
                            .transpose()
                            .map_err(err)?
                            .unwrap_or(DEFAULT_VISION_RADIUS),
                    },
                    name.unwrap_or_else(|| monster_name(ch).to_owned()),
                    properties,
                )
            }
            "item" => Meaning::Object(ObjectKind::Item, name.unwrap_or_else(|| "item".into()), Properties::new()),
            "player" => {
                let mut properties = carried(value("light")).map_err(err)?;
                if let Some(vision) = value("vision") {
                    let radius: u32 = parse_number("vision", vision).map_err(err)?;
                    properties.insert(PLAYER_VISION.into(), PropertyValue::Int(i64::from(radius)));
                }
                Meaning::Object(ObjectKind::PlayerStart, name.unwrap_or_else(|| "player".into()), properties)
            }
            "light" => Meaning::Object(
                ObjectKind::Light {
                    radius: value("radius")
                        .map(|v| parse_number("radius", v))
                        .transpose()
                        .map_err(err)?
                        .unwrap_or(DEFAULT_LIGHT_RADIUS),
                },
                name.unwrap_or_else(|| "light".into()),
                Properties::new(),
            ),
            builtin => {
                let wanted = builtin.replace('-', " ");
                let id =
                    standard_tiles().iter().position(|t| t.name == wanted).filter(|&i| i != 0).ok_or_else(|| {
                        err(format!(
                            "unknown kind {builtin:?} (tile, monster, item, player, light, or a built-in tile: \
                             floor, wall, closed-door, open-door, water, tall-grass)"
                        ))
                    })?;
                Meaning::Tile(id as TileId)
            }
        };
        self.meanings.insert(ch, (meaning, line_no));
        Ok(())
    }

    fn resolve_toggles(&mut self) -> Result<(), MapError> {
        for &(id, ch, line_no) in &self.pending_toggles {
            let target = match self.lookup(ch) {
                Some(Meaning::Tile(t)) if t != tile::EMPTY => t,
                _ => {
                    return Err(MapError::syntax("ASCII legend", format!("toggles={ch:?} is not a tile glyph"))
                        .at_line(line_no, None));
                }
            };
            if let Some(door) = &mut self.tiles[usize::from(id)].door {
                door.toggles_to = target;
            }
        }
        Ok(())
    }
}

pub fn parse(text: &str) -> Result<Map, MapError> {
    let lines: Vec<&str> = text.lines().map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let mut legend = Legend { meanings: HashMap::new(), tiles: standard_tiles(), pending_toggles: Vec::new() };
    let mut first_row = 0;
    if lines.first().map(|l| l.trim_end()) == Some("legend:") {
        let end = lines
            .iter()
            .position(|l| l.trim_end() == "---")
            .ok_or_else(|| MapError::syntax("ASCII map", "the legend has no closing `---` line").at_line(1, None))?;
        for (i, line) in lines.iter().enumerate().take(end).skip(1) {
            if !line.trim().is_empty() {
                legend.define(i + 1, line)?;
            }
        }
        legend.resolve_toggles()?;
        first_row = end + 1;
    }
    // Empty lines around the map are not part of it (a line of spaces is a row of void).
    let mut rows: &[&str] = &lines[first_row..];
    let row_offset = first_row + rows.iter().take_while(|l| l.is_empty()).count();
    rows = &lines[row_offset..];
    while rows.last().is_some_and(|l| l.is_empty()) {
        rows = &rows[..rows.len() - 1];
    }
    if rows.is_empty() {
        return Err(MapError::syntax("ASCII map", "there are no map rows"));
    }
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let (width, height) = map::check_dimensions(width as i64, rows.len() as i64)?;
    let mut cells = vec![tile::EMPTY; width as usize * height as usize];
    let mut objects = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let meaning = legend.lookup(ch).ok_or_else(|| {
                MapError::new(crate::core::MapErrorKind::UnknownGlyph(ch)).at_line(row_offset + y + 1, Some(x + 1))
            })?;
            let i = y * width as usize + x;
            match meaning {
                Meaning::Tile(t) => cells[i] = t,
                Meaning::Object(kind, name, properties) => {
                    cells[i] = tile::STANDARD_FLOOR;
                    objects.push(MapObject {
                        id: 0,
                        layer: 0,
                        kind,
                        name,
                        cell: Cell::new(x as i32, y as i32),
                        properties,
                        shape: None,
                        visible: true,
                        opacity: 1.0,
                        template: None,
                    });
                }
            }
        }
    }
    let ground = Layer::with_cells("ground", cells);
    Map::from_parts(width, height, legend.tiles, vec![ground], Vec::new(), objects, Vec::new(), 0)
}

fn is_object_glyph(ch: char) -> bool {
    matches!(ch, '@' | '*' | '!') || ch.is_ascii_alphabetic()
}

/// Glyphs a custom tile may not take: the built-in tile glyphs, the legend's `=`, the quote, and
/// the glyphs of the objects on this map (other letters are free: the legend redefines them).
fn reserved_for_tiles(map: &Map) -> std::collections::HashSet<char> {
    let mut reserved: std::collections::HashSet<char> =
        ['.', '#', '+', '\'', '~', '"', '@', '*', '!', '=', VOID].into();
    reserved.extend(map.objects.iter().map(|o| o.kind.glyph()));
    reserved
}

/// A glyph for each of the tiles `custom`, in order: the tile's own when free, else the next free
/// one of the pool. `None` when the pool runs out.
fn assign_glyphs(map: &Map, custom: &[usize], mut used: std::collections::HashSet<char>) -> Option<Vec<char>> {
    let mut pool = ('!'..='~').chain('\u{00c0}'..='\u{024f}').chain('\u{4e00}'..='\u{9fff}');
    custom
        .iter()
        .map(|&id| {
            let want = map.tiles[id].glyph.ch;
            if !want.is_control() && !want.is_whitespace() && used.insert(want) {
                Some(want)
            } else {
                let c = pool.find(|c| !used.contains(c) && !is_object_glyph(*c))?;
                used.insert(c);
                Some(c)
            }
        })
        .collect()
}

/// `text` as a legend word holds it: a quote and a backslash escaped (`\"`, `\\`), which
/// [`words`] reads back.
fn escaped(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `name` as a legend line can hold it, escaped: a line break or another control character as
/// a space (the change named in `warnings`).
fn legend_name(name: &str, warnings: &mut Vec<String>) -> String {
    let written: String = name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    if written != name {
        warnings
            .push(format!("name {name:?} is written as {written:?}: an ASCII legend holds no line breaks in a name"));
    }
    escaped(&written)
}

/// How many cells the game would read otherwise from the ASCII text than from `map`, and the
/// first of them, said as a warning; `None` when none. The game reads a cell from all its
/// layers (opaque if any tile is, walkable if all are, the highest cost, a door on any layer)
/// and from the collision flag ([`Map::rules_at`]); ASCII keeps only the topmost tile, as it is.
/// The layer and collision warnings say that; this says what it does to the game.
fn cells_played_otherwise(map: &Map) -> Option<String> {
    if map.layers.len() < 2 && !map.layers.iter().any(|l| l.collision) {
        return None;
    }
    let mut changed = (0usize, None);
    for i in 0..map.len() {
        let cell = map.cell_at(i);
        let now = map.rules_at(cell);
        let top = map.top_tile(cell).map(|(_, t)| &map.tiles[usize::from(t)]);
        let kept = top.map_or(crate::core::CellRules::OUTSIDE, |t| crate::core::CellRules {
            opaque: t.opaque,
            walkable: t.walkable,
            cost: t.cost,
            door: None,
        });
        let top_is_door = top.is_some_and(|t| t.door.is_some());
        // A cost counts only where the cell can be walked.
        let cost = |r: &crate::core::CellRules| if r.walkable { r.cost } else { 0.0 };
        if (now.opaque, now.walkable, cost(&now), now.door.is_some())
            != (kept.opaque, kept.walkable, cost(&kept), top_is_door)
        {
            changed.0 += 1;
            changed.1.get_or_insert(cell);
        }
    }
    let (count, first) = changed;
    let first = first?;
    let cells = if count == 1 { "1 cell".to_owned() } else { format!("{count} cells") };
    Some(format!(
        "{cells} will play otherwise when read back (from {first}): the game reads every layer and the collision \
         flag, ASCII keeps only the topmost tile"
    ))
}

/// Writes a map as ASCII. Returns the text and what it could not keep (ASCII holds one tile and
/// at most one object per cell, and objects only on floor), or why it cannot be written (a map
/// that uses more tile types than there are glyphs).
pub fn to_string(map: &Map) -> Result<(String, Vec<String>), MapError> {
    let mut warnings = Vec::new();
    let standard = standard_tiles();
    // Glyph for every tile id.
    let mut glyph_of = vec![VOID; map.tiles.len()];
    let mut used: std::collections::HashSet<char> = [VOID].into();
    let mut legend_lines = Vec::new();
    let mut custom = Vec::new();
    for (id, t) in map.tiles.iter().enumerate().skip(1) {
        if id < standard.len() && *t == standard[id] {
            glyph_of[id] = t.glyph.ch;
            used.insert(t.glyph.ch);
        } else {
            custom.push(id);
        }
    }
    // Standard glyphs and object glyphs stay reserved even when a custom tile would like one.
    let reserved = reserved_for_tiles(map);
    used.extend(reserved.iter().copied());
    // Every custom tile gets a glyph when there are enough (about 21 000); a larger table (a
    // Tiled tileset can hold tens of thousands of tiles) keeps the tiles the cells use and the
    // doors they turn into.
    let glyphs = match assign_glyphs(map, &custom, used.clone()) {
        Some(glyphs) => glyphs,
        None => {
            let mut on_map = vec![false; map.tiles.len()];
            for &t in map.layers.iter().flat_map(|l| &l.cells) {
                on_map[usize::from(t)] = true;
            }
            for &id in &custom {
                if let Some(d) = map.tiles[id].door.filter(|_| on_map[id]) {
                    on_map[usize::from(d.toggles_to)] = true;
                }
            }
            let kept: Vec<usize> = custom.iter().copied().filter(|&id| on_map[id]).collect();
            let glyphs = assign_glyphs(map, &kept, used.clone()).ok_or_else(|| {
                MapError::invalid(format!(
                    "the map uses {} tile types, more than ASCII has glyphs for: save it as .ron, .tmx or .tmj",
                    kept.len()
                ))
            })?;
            warnings.push(format!(
                "{} tile types that no cell uses are not kept: ASCII has too few glyphs for all {}",
                custom.len() - kept.len(),
                custom.len()
            ));
            custom = kept;
            glyphs
        }
    };
    for (&id, ch) in custom.iter().zip(glyphs) {
        glyph_of[id] = ch;
    }
    // A legend line's glyph is the tile's glyph when read back.
    let moved: Vec<String> = custom
        .iter()
        .filter(|&&id| glyph_of[id] != map.tiles[id].glyph.ch)
        .map(|&id| format!("{:?} as {:?}", map.tiles[id].name, glyph_of[id]))
        .collect();
    if !moved.is_empty() {
        warnings.push(format!(
            "{} tile types are written with other glyphs than their own, which a tile or an object before them has, \
             and read back so: {}",
            moved.len(),
            super::listed(&moved)
        ));
    }
    let mut lossy_tiles = Vec::new();
    for &id in &custom {
        let t = &map.tiles[id];
        let mut line = format!("{} = tile name=\"{}\"", glyph_of[id], legend_name(&t.name, &mut warnings));
        if t.opaque {
            line.push_str(" opaque");
        }
        if t.walkable {
            line.push_str(" walkable");
        }
        if t.cost != 1.0 {
            line.push_str(&format!(" cost={}", t.cost));
        }
        line.push_str(&format!(" fg={} bg={}", t.glyph.fg.to_hex(), t.glyph.bg.to_hex()));
        if let Some(d) = t.door {
            // A counterpart drawn `"` (tall grass's glyph, say) is escaped, or it would open a
            // quote that the line never closes.
            let counterpart = escaped(&glyph_of[usize::from(d.toggles_to)].to_string());
            line.push_str(&format!(" door={} toggles={counterpart}", if d.open { "open" } else { "closed" }));
        }
        if t.sprite.is_some() || !t.properties.is_empty() || !t.animation.is_empty() {
            lossy_tiles.push(t.name.as_str());
        }
        legend_lines.push(line);
    }
    match lossy_tiles[..] {
        [] => {}
        [name] => {
            warnings.push(format!("tile {name:?}: its sprite, animation and custom properties are not kept in ASCII"))
        }
        _ => warnings.push(format!(
            "{} tiles ({}): their sprites, animations and custom properties are not kept in ASCII",
            lossy_tiles.len(),
            super::listed_names(&lossy_tiles)
        )),
    }
    if map.layers.len() > 1 {
        warnings.push(format!("{} layers are flattened into one (the topmost tile of each cell)", map.layers.len()));
    }
    if map.layers.iter().any(|l| l.collision) {
        warnings.push("collision layers are written as their tiles; the collision flag is lost".into());
    }
    if let Some(warning) = cells_played_otherwise(map) {
        warnings.push(warning);
    }
    // The object layer a map without one gets, over every tile layer, is what loading gives back.
    let implied = crate::core::ObjectLayer::new(crate::core::model::map::DEFAULT_OBJECT_LAYER, map.layers.len());
    if map.object_layers.len() > 1 || map.object_layers.first().is_some_and(|l| *l != implied) {
        let names: Vec<&str> = map.object_layers.iter().map(|l| l.name.as_str()).collect();
        warnings.push(format!(
            "object layers ({}) are not kept in ASCII: their objects are written on the one grid",
            super::listed_names(&names)
        ));
    }
    warnings.extend(super::custom_data_warnings(map, "ASCII"));
    let shaped = map.objects.iter().filter(|o| o.shape.is_some()).count();
    if shaped > 0 {
        warnings.push(format!(
            "{shaped} object{} from Tiled (zones, paths, tile objects) {} written as {} glyph on {} cell",
            if shaped == 1 { "" } else { "s" },
            if shaped == 1 { "is" } else { "are" },
            if shaped == 1 { "a" } else { "their" },
            if shaped == 1 { "its" } else { "each one's" },
        ));
    }
    let w = map.width() as usize;
    let mut grid: Vec<char> =
        (0..map.len()).map(|i| map.top_tile(map.cell_at(i)).map_or(VOID, |(_, t)| glyph_of[usize::from(t)])).collect();
    // Lights and items whose settings are not their built-in glyph's (a radius of 8, a name)
    // get a glyph of their own, one for each kind and name, defined in the legend; from the
    // glyphs no tile and no built-in meaning has.
    // The glyphs this file gives a meaning besides monsters: the tiles its cells draw, its
    // legend's tiles and their doors' counterparts, and the built-in objects' glyphs.
    // (A run of one glyph is inserted once: the grid is every cell, and hashing each would
    // cost more than writing it.)
    let mut meant: std::collections::HashSet<char> = std::collections::HashSet::new();
    let mut last = None;
    for &c in &grid {
        if last != Some(c) {
            meant.insert(c);
            last = Some(c);
        }
    }
    for &id in &custom {
        meant.insert(glyph_of[id]);
        if let Some(d) = map.tiles[id].door {
            meant.insert(glyph_of[usize::from(d.toggles_to)]);
        }
    }
    meant.extend(
        map.objects
            .iter()
            .filter(|o| !matches!(o.kind, ObjectKind::Monster { .. } | ObjectKind::Other(_)))
            .map(|o| o.kind.glyph()),
    );
    let mut taken = used.clone();
    taken.extend(glyph_of.iter().copied());
    let mut free = ('!'..='~')
        .chain('\u{00c0}'..='\u{024f}')
        .chain('\u{4e00}'..='\u{9fff}')
        .filter(move |c| !taken.contains(c) && !is_object_glyph(*c));
    let mut object_glyphs: Vec<((ObjectKind, String), char)> = Vec::new();
    // Each monster glyph met: the first monster's settings (name, vision, carried light), and
    // the glyph it is written with.
    type Settings = (String, u32, Option<u32>);
    let mut letters: HashMap<char, (Settings, char)> = HashMap::new();
    // The first player start's name, light and vision (`@` means one player start; others are
    // written as it).
    let mut player: Option<(String, Option<u32>, Option<u32>)> = None;
    let mut has_object = vec![false; map.len()];
    for o in &map.objects {
        let Some(i) = map.index(o.cell) else { continue };
        let on_floor = map.top_tile(o.cell).map(|(_, t)| t) == Some(tile::STANDARD_FLOOR)
            && map.tiles.get(usize::from(tile::STANDARD_FLOOR)) == standard.get(usize::from(tile::STANDARD_FLOOR));
        if !on_floor || has_object[i] {
            warnings.push(format!(
                "object {:?} at {} is not kept: ASCII holds one object per cell, on floor",
                o.name, o.cell
            ));
            continue;
        }
        if let ObjectKind::Other(type_name) = &o.kind {
            warnings.push(format!("object {:?} of type {type_name:?} is not kept: ASCII has no glyph for it", o.name));
            continue;
        }
        let mut ch = o.kind.glyph();
        let default_name = match standard_meaning(ch) {
            Some(Meaning::Object(kind, name, _)) if kind == o.kind => Some(name),
            _ => None,
        };
        // A monster's or the player's carried light, and the player's vision, are legend
        // settings; other properties are not kept.
        let carried = o.carried_light();
        if let ObjectKind::Monster { glyph, vision_radius } = o.kind {
            // The first monster of a letter settles what the letter means (the built-in monster
            // when its settings are the built-in ones); another of other settings is written as
            // that one, and says so.
            let settings = (o.name.clone(), vision_radius, carried);
            match letters.get(&glyph) {
                Some((first, written)) => {
                    if *first != settings {
                        warnings.push(format!(
                            "monster {:?} shares glyph {glyph:?} with another of other settings (name, vision, \
                             light): it is written as that one",
                            o.name
                        ));
                    }
                    ch = *written;
                }
                None => {
                    // A glyph this file draws a tile or a built-in object with cannot name a
                    // monster too: its legend line would turn those cells into monsters (a RON
                    // monster drawn `'` among open doors). Such a monster takes a free glyph.
                    let clashes = glyph.is_control() || glyph.is_whitespace() || meant.contains(&glyph);
                    if clashes {
                        let Some(g) = free.next() else {
                            warnings.push(format!(
                                "monster {:?} is not kept: its glyph {glyph:?} is a tile's in ASCII, and no glyph \
                                 is left for it",
                                o.name
                            ));
                            continue;
                        };
                        warnings.push(format!(
                            "monster {:?} is written with glyph {g:?}, and read back so: its own, {glyph:?}, \
                             stands for a tile or a built-in object in ASCII",
                            o.name
                        ));
                        ch = g;
                    }
                    // Written bare only where the reader takes the glyph for this very monster:
                    // a letter with the built-in settings. Another glyph (a `-` a legend made a
                    // monster) needs its legend line, or the save cannot be read back.
                    let built_in = !clashes && default_name.as_deref() == Some(o.name.as_str()) && carried.is_none();
                    if !built_in {
                        let light = carried.map_or(String::new(), |r| format!(" light={r}"));
                        let name = legend_name(&o.name, &mut warnings);
                        legend_lines.push(format!("{ch} = monster name=\"{name}\" vision={vision_radius}{light}"));
                    }
                    letters.insert(glyph, (settings, ch));
                }
            }
        } else if o.kind == ObjectKind::PlayerStart {
            // As a monster's letter: the first player start settles what `@` means.
            let settings = (o.name.clone(), carried, o.player_vision());
            match &player {
                Some(first) if *first != settings => warnings.push(format!(
                    "player start {:?} has other settings (name, light, vision) than the first: it is written as \
                     that one",
                    o.name
                )),
                Some(_) => {}
                None => {
                    if settings != ("player".to_owned(), None, None) {
                        let light = carried.map_or(String::new(), |r| format!(" light={r}"));
                        let vision = o.player_vision().map_or(String::new(), |r| format!(" vision={r}"));
                        let name = legend_name(&o.name, &mut warnings);
                        legend_lines.push(format!("@ = player name=\"{name}\"{light}{vision}"));
                    }
                    player = Some(settings);
                }
            }
        } else if default_name.as_deref() != Some(o.name.as_str()) {
            match &o.kind {
                ObjectKind::Light { .. } | ObjectKind::Item => {
                    let key = (o.kind.clone(), o.name.clone());
                    if let Some(&(_, g)) = object_glyphs.iter().find(|(k, _)| *k == key) {
                        ch = g;
                    } else if let Some(g) = free.next() {
                        let name = legend_name(&o.name, &mut warnings);
                        legend_lines.push(match o.kind {
                            ObjectKind::Light { radius } => format!("{g} = light name=\"{name}\" radius={radius}"),
                            _ => format!("{g} = item name=\"{name}\""),
                        });
                        object_glyphs.push((key, g));
                        ch = g;
                    } else {
                        warnings.push(format!("object {:?}: its name and settings are not kept in ASCII", o.name));
                    }
                }
                _ => warnings.push(format!("object {:?}: its name and settings are not kept in ASCII", o.name)),
            }
        }
        // The light and vision are written as whole cells: another value (a Float, a string)
        // reads back as another property, so it says what it became.
        let written = [(CARRIED_LIGHT, carried), (PLAYER_VISION, o.player_vision())];
        for (key, as_written) in written {
            if let (Some(value), Some(r)) = (o.properties.get(key), as_written)
                && value.as_number() != Some(f64::from(r))
            {
                warnings.push(format!(
                    "object {:?}: its {key} {value} is written as {r} (ASCII's settings are whole cells)",
                    o.name
                ));
            }
        }
        let kept = |k: &str| written.iter().any(|&(key, as_written)| k == key && as_written.is_some());
        if o.properties.keys().any(|k| !kept(k)) {
            warnings.push(format!("object {:?}: its properties are not kept in ASCII", o.name));
        }
        grid[i] = ch;
        has_object[i] = true;
    }
    if !map.objects.windows(2).all(|w| (w[0].cell.y, w[0].cell.x) <= (w[1].cell.y, w[1].cell.x)) {
        warnings.push("objects are listed in reading order (ASCII keeps no other order)".into());
    }
    let mut out = String::new();
    // A map of void alone would be lines of spaces, which reads as an empty file: an empty
    // legend marks it as a map.
    if !legend_lines.is_empty() || grid.iter().all(|&c| c == VOID) {
        out.push_str("legend:\n");
        for l in &legend_lines {
            out.push_str(l);
            out.push('\n');
        }
        out.push_str("---\n");
    }
    // Rows lose their trailing void, as a hand-written map would; the first row keeps it when
    // needed to carry the width, and an all-void row keeps one space so it is not a blank line.
    let mut rows: Vec<String> =
        grid.chunks(w).map(|row| row.iter().collect::<String>().trim_end_matches(VOID).to_owned()).collect();
    if rows.iter().all(|r| r.chars().count() < w)
        && let Some(first) = rows.first_mut()
    {
        *first = grid[..w].iter().collect();
    }
    for row in &rows {
        out.push_str(if row.is_empty() { " " } else { row });
        out.push('\n');
    }
    Ok((out, warnings))
}
