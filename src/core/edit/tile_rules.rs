//! Editing a tile type's rules (opaque, walkable, cost, door) and names, and adding tile types.

use crate::core::model::map::Map;
use crate::core::model::tile::TileId;

/// A tile type's rules and names, as the tile-set editor edits them.
#[derive(Clone, Debug, PartialEq)]
pub struct TileRules {
    pub name: String,
    /// Tiled's class of the tile (empty: none).
    pub class: String,
    pub glyph: crate::core::model::tile::Glyph,
    pub opaque: bool,
    pub walkable: bool,
    pub cost: f32,
    /// `Some((open, counterpart))`: a door, open or closed, toggling to `counterpart`.
    pub door: Option<(bool, TileId)>,
}

impl TileRules {
    pub fn of(kind: &crate::core::model::tile::TileKind) -> Self {
        Self {
            name: kind.name.clone(),
            class: kind.class.clone(),
            glyph: kind.glyph,
            opaque: kind.opaque,
            walkable: kind.walkable,
            cost: kind.cost,
            door: kind.door.map(|d| (d.open, d.toggles_to)),
        }
    }
}

#[derive(Debug, PartialEq, thiserror::Error)]
pub enum TileEditError {
    #[error("there is no tile type {0}")]
    NoSuchTile(TileId),
    #[error("tile type 0 is the empty tile; it cannot be edited")]
    EmptyTile,
    #[error("a cost must be a number from 0 to 1000, not {0}")]
    BadCost(f32),
    #[error("a door cannot toggle to itself")]
    DoorToItself,
    #[error("the map already has {0} tile types, the most it can hold")]
    TooManyTiles(usize),
}

/// Sets tile `id`'s rules. Doors are kept in pairs: the counterpart becomes the opposite door
/// toggling back to `id`, and a tile that stops being a door (or changes counterpart) releases
/// its old counterpart.
pub fn set_tile_rules(map: &mut Map, id: TileId, rules: TileRules) -> Result<(), TileEditError> {
    let n = map.tiles.len();
    if usize::from(id) >= n {
        return Err(TileEditError::NoSuchTile(id));
    }
    if id == crate::core::model::tile::EMPTY {
        return Err(TileEditError::EmptyTile);
    }
    if !(0.0..=1000.0).contains(&rules.cost) {
        return Err(TileEditError::BadCost(rules.cost));
    }
    if let Some((_, to)) = rules.door {
        if to == id {
            return Err(TileEditError::DoorToItself);
        }
        if usize::from(to) >= n || to == crate::core::model::tile::EMPTY {
            return Err(TileEditError::NoSuchTile(to));
        }
    }
    // The look rules of the tile and of its new counterpart door, before (see `follow_rules`).
    let before = [
        look_rules(&map.tiles[usize::from(id)]),
        rules.door.map_or((false, true, None), |(_, to)| look_rules(&map.tiles[usize::from(to)])),
    ];
    let old = map.tiles[usize::from(id)].door;
    let new_counterpart = rules.door.map(|(_, to)| to);
    // The doors released, with their look rules before: no door now, their implied glyphs
    // follow (an open door released shows `.`, as any floor).
    let mut released = Vec::new();
    let mut release = |map: &mut Map, door: TileId| {
        released.push((door, look_rules(&map.tiles[usize::from(door)])));
        map.tiles[usize::from(door)].door = None;
    };
    if let Some(old) = old
        && Some(old.toggles_to) != new_counterpart
        && map.tiles[usize::from(old.toggles_to)].door.is_some_and(|d| d.toggles_to == id)
    {
        release(map, old.toggles_to);
    }
    if let Some((open, to)) = rules.door {
        // The counterpart's own old partner, if another tile, is released too.
        if let Some(d) = map.tiles[usize::from(to)].door
            && d.toggles_to != id
            && map.tiles[usize::from(d.toggles_to)].door.is_some_and(|p| p.toggles_to == to)
        {
            release(map, d.toggles_to);
        }
        map.tiles[usize::from(to)].door = Some(crate::core::model::tile::Door { open: !open, toggles_to: id });
    }
    let kind = &mut map.tiles[usize::from(id)];
    let glyph_kept = rules.glyph == kind.glyph;
    kind.name = rules.name;
    kind.class = rules.class;
    kind.glyph = rules.glyph;
    kind.opaque = rules.opaque;
    kind.walkable = rules.walkable;
    kind.cost = rules.cost;
    kind.door = rules.door.map(|(open, toggles_to)| crate::core::model::tile::Door { open, toggles_to });
    if glyph_kept {
        follow_rules(map, id, before[0]);
    }
    if let Some((_, to)) = rules.door {
        follow_rules(map, to, before[1]);
    }
    for (door, before) in released {
        follow_rules(map, door, before);
    }
    Ok(())
}

/// The rules a tile's implied glyph goes by: opaque, walkable, and a door's open state.
pub(super) type LookRules = (bool, bool, Option<bool>);

pub(super) fn look_rules(kind: &crate::core::model::tile::TileKind) -> LookRules {
    (kind.opaque, kind.walkable, kind.door.map(|d| d.open))
}

/// A tile with an image draws its glyph only with tile images off, and a Tiled tileset without
/// look properties gives it the glyph its rules imply ([`Glyph::implied`](crate::core::model::tile::Glyph::implied)).
/// Such a glyph follows the rules when they change (`before`: as they were): a wall made
/// floor shows `.`, and a save writes no `glyph`, `fg` or `bg` into a tileset file shared with
/// others for a rule edit. A glyph of its own (not the implied one) stays.
pub(super) fn follow_rules(map: &mut Map, id: TileId, before: LookRules) {
    let kind = &mut map.tiles[usize::from(id)];
    let implied = |(opaque, walkable, door): LookRules| {
        crate::core::model::tile::Glyph::implied(opaque, walkable, door, kind.glyph.fg)
    };
    let was = implied(before);
    if kind.sprite.is_some() && (kind.glyph.ch, kind.glyph.bg) == (was.ch, was.bg) {
        let now = implied(look_rules(kind));
        (kind.glyph.ch, kind.glyph.bg) = (now.ch, now.bg);
    }
}

/// Adds a tile type (a plain floor-like tile to edit), returning its id.
pub fn add_tile(map: &mut Map, name: &str) -> Result<TileId, TileEditError> {
    let n = map.tiles.len();
    if n > usize::from(TileId::MAX) {
        return Err(TileEditError::TooManyTiles(n));
    }
    let glyph = crate::core::model::tile::Glyph {
        ch: '?',
        fg: crate::core::model::tile::Rgb(220, 220, 220),
        bg: crate::core::model::tile::Rgb(30, 30, 40),
    };
    map.tiles.push(crate::core::model::tile::TileKind::new(name, glyph.ch, glyph.fg, glyph.bg, false, true));
    Ok(n as TileId)
}
