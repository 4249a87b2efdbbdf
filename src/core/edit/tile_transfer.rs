//! Carrying tile types from one map into another: what a paste between maps does.
//!
//! A stamp's cells are tile ids, and an id means a slot of the tile types of the map it was
//! copied from. Pasted into another map, each id must become the id of the same tile type
//! there, and a tile type that map lacks must be added to it, with the sprite sheet its image
//! comes from. This is Tiled's behaviour: its clipboard carries the tilesets the copied tiles
//! belong to, and a paste adds to the map those it does not use yet
//! (`ClipboardManager::pasteMap` → `MapDocument::unifyTilesets` in Tiled's source).
//!
//! **Definition.** Two tile types are *the same* when everything the game rules and the look
//! read of them is equal (name, class, glyph, sprite, opaque, walkable, door, cost, properties,
//! animation, probability), where a sprite's sheet and the tile ids a type names (a door's
//! counterpart, an animation's frames) are compared by what they mean, not by their number:
//! - two sheets are the same sheet when they are the same image file (its absolute, normalised
//!   path) cut and drawn the same way, with the same name, terrains and properties;
//! - a tile id named by a type matches when the type it names in the source maps to the type
//!   it names in the map.
//!
//! The map keeps every type it has. A type of the source with a same type in the map becomes
//! that one (the one with the same id first, so that a map pasted into itself, or into a copy
//! of itself, is left as it is, trying the next same type when what one names does not match);
//! the others are added at the end, in the source's order. A sheet the map lacks is added
//! whole, with all its source tile types, as Tiled adds a whole tileset; so is a sheet the map
//! has when a needed type of it differs from the map's (two types on one image is more than a
//! Tiled file can hold). Door pairs and animations stay closed: the counterpart or frames of a
//! type carried over are carried over too.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use crate::core::model::map::Map;
use crate::core::model::sheet::SpriteSheet;
use crate::core::model::tile::{EMPTY, TileId, TileKind};

/// The tile types and sprite sheets of the map a stamp was copied from, kept when another map
/// is opened so that the stamp can still be pasted (see the module's doc).
#[derive(Clone, Debug, PartialEq)]
pub struct TileSource {
    pub tiles: Vec<TileKind>,
    pub sheets: Vec<SpriteSheet>,
    /// The folder the source map's relative image paths start from (its file's folder); `None`
    /// when it had no file (they are then taken as they are).
    pub folder: Option<PathBuf>,
    /// What to call the source map in notices (its file name).
    pub name: String,
}

impl TileSource {
    /// The tile types of `map`, whose file (if any) is in `folder`, called `name`.
    pub fn of(map: &Map, folder: Option<&Path>, name: &str) -> TileSource {
        TileSource {
            tiles: map.tiles.clone(),
            sheets: map.sheets.clone(),
            folder: folder.map(Path::to_path_buf),
            name: name.to_owned(),
        }
    }
}

/// Why a stamp's tile types cannot be carried into a map.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TransferError {
    #[error("the map would have {0} tile types; at most {max} fit", max = usize::from(TileId::MAX) + 1)]
    TooManyTiles(usize),
    #[error("the map would have {0} tilesets; at most {max} fit", max = usize::from(u16::MAX) + 1)]
    TooManySheets(usize),
    #[error("tile id {0} is not one of the copied map's tile types")]
    UnknownTile(TileId),
    #[error("a copied tile type names sprite sheet {0}, which the copied map does not have")]
    UnknownSheet(u16),
}

/// How the tile ids of a stamp from a [`TileSource`] translate into one map, and what must be
/// added to it for that ([`TileTransfer::plan`], then [`TileTransfer::apply`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TileTransfer {
    /// Source id → the map's id; ids from the map's tile count on are those `apply` adds.
    ids: HashMap<TileId, TileId>,
    /// The tile types to add, their ids translated, in order.
    new_tiles: Vec<TileKind>,
    /// The sheets to add, their images absolute where the source's folder is known.
    new_sheets: Vec<SpriteSheet>,
    /// How many tile types and sheets the map had when planned.
    base: (usize, usize),
}

impl TileTransfer {
    /// What carrying the source's tile types `used` (and those they name: see the module's doc)
    /// into `map`, whose file is in `folder`, takes. The empty tile stays empty.
    ///
    /// ```
    /// use sightline::core::edit::tile_transfer::{TileSource, TileTransfer};
    /// use sightline::core::{Map, Rgb, TileKind};
    ///
    /// let floor = TileKind::new("floor", '.', Rgb(90, 90, 90), Rgb::BLACK, false, true);
    /// let lava = TileKind::new("lava", '~', Rgb(255, 80, 0), Rgb::BLACK, false, false);
    /// let source = Map::new(4, 4, vec![TileKind::empty(), floor.clone(), lava.clone()], 1).unwrap();
    /// let mut target = Map::new(4, 4, vec![TileKind::empty(), lava.clone()], 1).unwrap();
    ///
    /// let from = TileSource::of(&source, None, "cave.ron");
    /// let transfer = TileTransfer::plan(&from, [1, 2], &target, None).unwrap();
    /// assert_eq!(transfer.id(2), 1); // lava is there already
    /// assert_eq!(transfer.id(1), 2); // floor comes in after it
    /// transfer.apply(&mut target);
    /// assert_eq!(target.tiles[2], floor);
    /// ```
    pub fn plan(
        source: &TileSource,
        used: impl IntoIterator<Item = TileId>,
        map: &Map,
        folder: Option<&Path>,
    ) -> Result<TileTransfer, TransferError> {
        let used: Vec<TileId> = used.into_iter().filter(|&t| t != EMPTY).collect();
        // The map's sheets by their image, for finding the source's among them.
        let mut here: HashMap<PathBuf, Vec<usize>> = HashMap::new();
        for (i, s) in map.sheets.iter().enumerate() {
            here.entry(image_path(&s.image, folder)).or_default().push(i);
        }
        // A source sheet the map has, but with a tile type the map's differs on, comes in whole
        // as another tileset, as Tiled adds a tileset that differs: were its types added on the
        // map's sheet, two types would share an image, which a Tiled file cannot hold.
        // Refused as (source sheet, map sheet): the next same sheet of the map is tried (one a
        // paste brought in before, say) before the sheet comes in whole.
        let mut refused: BTreeSet<(u16, u16)> = BTreeSet::new();
        loop {
            let sheet_here: Vec<Option<u16>> = source
                .sheets
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let candidates = here.get(&image_path(&s.image, source.folder.as_deref()))?;
                    candidates
                        .iter()
                        .map(|&j| j as u16)
                        .find(|&j| !refused.contains(&(i as u16, j)) && same_sheet(s, &map.sheets[usize::from(j)]))
                })
                .collect();
            let plan = Self::plan_with_sheets(source, &used, map, &sheet_here)?;
            // The source sheets the map has whose needed types did not all match.
            let unmatched: BTreeSet<(u16, u16)> = plan
                .1
                .iter()
                .filter_map(|&id| source.tiles[usize::from(id)].sprite.map(|s| s.sheet))
                .filter_map(|sheet| Some((sheet, (*sheet_here.get(usize::from(sheet))?)?)))
                .collect();
            if unmatched.is_empty() {
                return Ok(plan.0);
            }
            refused.extend(unmatched);
        }
    }

    /// [`TileTransfer::plan`] with the source's sheets the map has (by source sheet, its
    /// index in the map) settled, and the source types that had no match.
    fn plan_with_sheets(
        source: &TileSource,
        used: &[TileId],
        map: &Map,
        sheet_here: &[Option<u16>],
    ) -> Result<(TileTransfer, Vec<TileId>), TransferError> {
        let kind = |id: TileId| source.tiles.get(usize::from(id)).ok_or(TransferError::UnknownTile(id));
        let sheet_of = |k: &TileKind| match k.sprite {
            Some(s) if usize::from(s.sheet) >= source.sheets.len() => Err(TransferError::UnknownSheet(s.sheet)),
            sprite => Ok(sprite.map(|s| s.sheet)),
        };
        // The source types to carry: those used, those they name, and every type of a sheet
        // that comes in whole.
        let mut needed: BTreeSet<TileId> = BTreeSet::new();
        let mut queue: Vec<TileId> = used.to_vec();
        let mut sheets_in: BTreeSet<u16> = BTreeSet::new();
        while let Some(id) = queue.pop() {
            if !needed.insert(id) {
                continue;
            }
            let k = kind(id)?;
            queue.extend(named_ids(k).filter(|&t| t != EMPTY));
            if let Some(sheet) = sheet_of(k)?
                && sheet_here[usize::from(sheet)].is_none()
                && sheets_in.insert(sheet)
            {
                queue.extend(
                    (0..source.tiles.len())
                        .filter(|&i| source.tiles[i].sprite.is_some_and(|s| s.sheet == sheet))
                        .map(|i| i as TileId),
                );
            }
        }

        // Sheets that come in, numbered after the map's.
        let mut sheet_ids: HashMap<u16, u16> = HashMap::new();
        let mut new_sheets = Vec::new();
        for (i, s) in source.sheets.iter().enumerate() {
            if let Some(j) = sheet_here[i] {
                sheet_ids.insert(i as u16, j);
            } else if sheets_in.contains(&(i as u16)) {
                let n = map.sheets.len() + new_sheets.len();
                if n > usize::from(u16::MAX) {
                    return Err(TransferError::TooManySheets(n + 1));
                }
                sheet_ids.insert(i as u16, n as u16);
                new_sheets.push(SpriteSheet { image: image_path(&s.image, source.folder.as_deref()), ..s.clone() });
            }
        }

        // Each needed type's candidates in the map: the types equal to it but for the ids they
        // name (the one in the same slot first).
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, t) in map.tiles.iter().enumerate().skip(1) {
            by_name.entry(t.name.as_str()).or_default().push(i);
        }
        let mut candidates: HashMap<TileId, Vec<usize>> = HashMap::new();
        for &id in &needed {
            let k = kind(id)?;
            // A type on a sheet that comes in has no match: the map has none of its tiles.
            let sheet = sheet_of(k)?.map(|s| sheet_here[usize::from(s)]);
            if sheet == Some(None) {
                continue;
            }
            let bare = unnamed(k, sheet.flatten());
            let alike = |i: &usize| unnamed(&map.tiles[*i], None) == bare;
            let same_slot = Some(usize::from(id)).filter(|&i| i != 0 && i < map.tiles.len());
            let named = by_name.get(k.name.as_str()).into_iter().flatten().copied().filter(|&i| Some(i) != same_slot);
            let found: Vec<usize> = same_slot.into_iter().chain(named).filter(alike).collect();
            if !found.is_empty() {
                candidates.insert(id, found);
            }
        }
        // A candidate stays while every id the type names has, among its own candidates, the
        // one the candidate names (repeated until none goes: the largest such matching).
        let holds = |candidates: &HashMap<TileId, Vec<usize>>, a: TileId, b: usize| {
            named_ids(&source.tiles[usize::from(a)])
                .zip(named_ids(&map.tiles[b]))
                .all(|(x, y)| x == EMPTY || candidates.get(&x).is_some_and(|c| c.contains(&usize::from(y))))
        };
        loop {
            let before: usize = candidates.values().map(Vec::len).sum();
            let kept: HashMap<TileId, Vec<usize>> = candidates
                .iter()
                .map(|(&a, c)| (a, c.iter().copied().filter(|&b| holds(&candidates, a, b)).collect::<Vec<_>>()))
                .filter(|(_, c)| !c.is_empty())
                .collect();
            let after: usize = kept.values().map(Vec::len).sum();
            candidates = kept;
            if after == before {
                break;
            }
        }
        // Each takes its first candidate, and what it names takes what that names. Types that
        // name others choose first, so that what they name follows their choice (an animation's
        // frames become the frames of the animation it matched) instead of taking the first
        // look-alike before it.
        let mut order: Vec<TileId> = needed.iter().copied().collect();
        order.sort_by_key(|&id| named_ids(&source.tiles[usize::from(id)]).next().is_none());
        let mut ids: HashMap<TileId, TileId> = HashMap::new();
        for &a in &order {
            let Some(&b) = candidates.get(&a).and_then(|c| c.first()) else { continue };
            let mut follow = vec![(a, b)];
            while let Some((x, y)) = follow.pop() {
                if ids.contains_key(&x) {
                    continue;
                }
                ids.insert(x, y as TileId);
                let named = named_ids(&source.tiles[usize::from(x)]).zip(named_ids(&map.tiles[y]));
                follow.extend(named.filter(|&(n, _)| n != EMPTY).map(|(n, m)| (n, usize::from(m))));
            }
        }
        // Two types naming one another's differently can still disagree: those go.
        loop {
            let broken: Vec<TileId> = ids
                .iter()
                .filter(|&(&from, &to)| {
                    let (k, m) = (&source.tiles[usize::from(from)], &map.tiles[usize::from(to)]);
                    named_ids(k).zip(named_ids(m)).any(|(a, b)| a != EMPTY && ids.get(&a) != Some(&b))
                })
                .map(|(&from, _)| from)
                .collect();
            if broken.is_empty() {
                break;
            }
            for id in broken {
                ids.remove(&id);
            }
        }

        // The rest come in after the map's types, in the source's order.
        let coming: Vec<TileId> = needed.iter().copied().filter(|id| !ids.contains_key(id)).collect();
        let total = map.tiles.len() + coming.len();
        if total > usize::from(TileId::MAX) + 1 {
            return Err(TransferError::TooManyTiles(total));
        }
        for (n, &id) in coming.iter().enumerate() {
            ids.insert(id, (map.tiles.len() + n) as TileId);
        }
        // Every id named by a needed type is needed, so it has a place now.
        let to = |t: TileId| if t == EMPTY { EMPTY } else { ids[&t] };
        let new_tiles = coming
            .iter()
            .map(|&id| {
                let mut k = source.tiles[usize::from(id)].clone();
                if let Some(sprite) = &mut k.sprite {
                    sprite.sheet = sheet_ids[&sprite.sheet];
                }
                if let Some(door) = &mut k.door {
                    door.toggles_to = to(door.toggles_to);
                }
                for frame in &mut k.animation {
                    frame.tile = to(frame.tile);
                }
                k
            })
            .collect();
        // Those that came in on a sheet the map has: the caller brings that sheet in whole.
        let unmatched = coming
            .iter()
            .copied()
            .filter(|&id| {
                source.tiles[usize::from(id)].sprite.is_some_and(|s| sheet_here[usize::from(s.sheet)].is_some())
            })
            .collect();
        let base = (map.tiles.len(), map.sheets.len());
        Ok((TileTransfer { ids, new_tiles, new_sheets, base }, unmatched))
    }

    /// The map's id for source id `id` (the empty tile for the empty tile and for an id not
    /// planned).
    pub fn id(&self, id: TileId) -> TileId {
        self.ids.get(&id).copied().unwrap_or(EMPTY)
    }

    /// The tile types [`TileTransfer::apply`] adds, in order.
    pub fn new_tiles(&self) -> &[TileKind] {
        &self.new_tiles
    }

    /// The sprite sheets [`TileTransfer::apply`] adds, in order.
    pub fn new_sheets(&self) -> &[SpriteSheet] {
        &self.new_sheets
    }

    /// Whether the map has every type already: ids translate and nothing is added.
    pub fn adds_nothing(&self) -> bool {
        self.new_tiles.is_empty() && self.new_sheets.is_empty()
    }

    /// Adds the new sheets and tile types to `map`, which must be as planned (the same counts of
    /// tile types and sheets; else nothing is added and it says `false`).
    pub fn apply(&self, map: &mut Map) -> bool {
        if (map.tiles.len(), map.sheets.len()) != self.base {
            return false;
        }
        map.sheets.extend(self.new_sheets.iter().cloned());
        map.tiles.extend(self.new_tiles.iter().cloned());
        true
    }

    /// Takes back what [`TileTransfer::apply`] added to `map` (when nothing else was added
    /// since): for a paste that laid nothing.
    pub fn undo(&self, map: &mut Map) {
        if (map.tiles.len(), map.sheets.len())
            == (self.base.0 + self.new_tiles.len(), self.base.1 + self.new_sheets.len())
        {
            map.tiles.truncate(self.base.0);
            map.sheets.truncate(self.base.1);
        }
    }
}

/// The tile ids `kind` names: its door's counterpart, then its animation's frames.
fn named_ids(kind: &TileKind) -> impl Iterator<Item = TileId> + '_ {
    kind.door.map(|d| d.toggles_to).into_iter().chain(kind.animation.iter().map(|f| f.tile))
}

/// `kind` without the ids it names (zeroed), its sprite moved to sheet `sheet` when given: what
/// two types must share to be the same before what they name is compared.
fn unnamed(kind: &TileKind, sheet: Option<u16>) -> TileKind {
    let mut k = kind.clone();
    if let (Some(sprite), Some(sheet)) = (&mut k.sprite, sheet) {
        sprite.sheet = sheet;
    }
    if let Some(door) = &mut k.door {
        door.toggles_to = EMPTY;
    }
    for frame in &mut k.animation {
        frame.tile = EMPTY;
    }
    k
}

/// A sheet's image as an absolute, normalised path (relative ones start from `folder`, or from
/// the working folder when the map has no file).
fn image_path(image: &Path, folder: Option<&Path>) -> PathBuf {
    // A map with no file finds its images from the working folder, as the app loads them.
    crate::core::format::resolve_path(folder.unwrap_or(Path::new(".")), image)
}

/// Whether two sheets are the same tileset but for how their image's path is written (the
/// caller compares the images' absolute paths) and the file they were read from: the same
/// cutting, drawing, offset, terrains and properties.
fn same_sheet(a: &SpriteSheet, b: &SpriteSheet) -> bool {
    let bare = |s: &SpriteSheet| SpriteSheet { image: PathBuf::new(), file: None, ..s.clone() };
    bare(a) == bare(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::edit::Stamp;
    use crate::core::model::tile::{self, Door, Frame, Rgb, Sprite};
    use crate::core::rng::Rng;
    use crate::core::{Cell, Map};

    /// A map from rows of glyphs, each its tile of `tiles` by glyph.
    fn drawn(tiles: Vec<TileKind>, rows: &[&str]) -> Map {
        let mut map = Map::new(rows[0].chars().count() as u32, rows.len() as u32, tiles, 0).unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let id = map.tiles.iter().position(|t| t.glyph.ch == ch).expect("a tile drawn so") as TileId;
                map.set_tile(0, Cell::new(x as i32, y as i32), id);
            }
        }
        map
    }

    /// The map's ground layer as rows of glyphs.
    fn picture(map: &Map) -> Vec<String> {
        let w = map.width() as usize;
        map.layers[0].cells.chunks(w).map(|r| r.iter().map(|&t| map.tiles[usize::from(t)].glyph.ch).collect()).collect()
    }

    /// Pastes all of `from` onto `into` at its top-left corner, carrying its tile types.
    fn paste_all(from: &Map, into: &mut Map) -> TileTransfer {
        let stamp = Stamp::new(from.width(), from.layers[0].cells.clone());
        let transfer =
            TileTransfer::plan(&TileSource::of(from, None, "a.ron"), stamp.used_tiles(), into, None).unwrap();
        assert!(transfer.apply(into));
        stamp.with_tile_ids(|t| transfer.id(t)).paste(into, 0, Cell::new(0, 0), None);
        transfer
    }

    fn lava() -> TileKind {
        TileKind::new("lava", '=', Rgb(255, 80, 0), Rgb::BLACK, false, false)
    }

    #[test]
    fn a_stamp_pasted_into_another_map_lays_the_same_tiles_and_brings_the_types_it_lacks() {
        // The source has lava; the target has no lava, its own walls differ (they cost 2 to
        // dig, say) and its doors sit in other slots.
        let source = drawn(
            [tile::standard_tiles(), vec![lava()]].concat(),
            &[
                "#+#", //
                "=.'",
            ],
        );
        let mut standard = tile::standard_tiles();
        let (closed, open) = (standard.remove(3), standard.remove(3));
        let mut door_pair = vec![open, closed];
        door_pair[0].door = Some(Door { open: true, toggles_to: 6 });
        door_pair[1].door = Some(Door { open: false, toggles_to: 5 });
        standard[2] = standard[2].clone().with_cost(2.0);
        standard[2].glyph.ch = 'W';
        let mut target = drawn(
            [standard, door_pair].concat(),
            &[
                "WWWW", //
                "W..W",
            ],
        );
        let transfer = paste_all(&source, &mut target);
        assert_eq!(
            picture(&target),
            [
                "#+#W", //
                "=.'W",
            ]
        );
        // Floor and both doors were there (the doors where they are in the target); the
        // source's wall is not the target's, so it came in, and lava did.
        assert_eq!(transfer.id(tile::STANDARD_FLOOR), 1);
        assert_eq!(transfer.id(tile::STANDARD_OPEN_DOOR), 5);
        assert_eq!(transfer.id(tile::STANDARD_CLOSED_DOOR), 6);
        let added: Vec<&str> = transfer.new_tiles().iter().map(|t| t.name.as_str()).collect();
        assert_eq!(added, ["wall", "lava"]);
        assert_eq!(target.tiles.len(), 9);
        assert_eq!(target.tiles[7], source.tiles[2]);
        // A second paste finds them all: nothing more comes in.
        let again =
            TileTransfer::plan(&TileSource::of(&source, None, "a.ron"), [1, 2, 3, 4, 7], &target, None).unwrap();
        assert!(again.adds_nothing());
    }

    #[test]
    fn a_stamps_tile_objects_bring_their_tile_types_too() {
        use crate::core::model::object::{ObjectShape, ShapeKind};
        use crate::core::{MapObject, ObjectKind};
        let mut source = drawn([tile::standard_tiles(), vec![lava()]].concat(), &["..", ".."]);
        let kind = ShapeKind::Tile { tile: 7, flip: crate::core::model::flip::Flip::NONE, width: 8.0, height: 8.0 };
        let mut lamp = MapObject::new(ObjectKind::Item, Cell::new(1, 1)).named("lava lamp");
        lamp.shape = Some(ObjectShape { offset: [0.0, 8.0], rotation: 0.0, kind });
        source.add_object(lamp);
        let stamp = Stamp::of_objects(&source, Cell::new(0, 0), Cell::new(1, 1), &source.objects);
        assert_eq!(stamp.used_tiles().into_iter().collect::<Vec<_>>(), [7]);
        let mut target =
            drawn([vec![TileKind::empty(), lava()], tile::standard_tiles()[1..].to_vec()].concat(), &["..", ".."]);
        let transfer =
            TileTransfer::plan(&TileSource::of(&source, None, "a.ron"), stamp.used_tiles(), &target, None).unwrap();
        assert!(transfer.adds_nothing(), "the target has lava, in slot 1");
        let here = stamp.with_tile_ids(|t| transfer.id(t));
        assert!(matches!(here.objects[0].object.shape.as_ref().unwrap().kind, ShapeKind::Tile { tile: 1, .. }));
        here.paste_objects(&mut target, 0, Cell::new(0, 0), None);
        let pasted = target.objects.last().unwrap();
        assert!(matches!(pasted.shape.as_ref().unwrap().kind, ShapeKind::Tile { tile: 1, .. }));
    }

    #[test]
    fn a_map_pasted_into_itself_or_a_copy_of_itself_keeps_its_ids_and_adds_nothing() {
        let map = drawn(tile::standard_tiles(), &["#+'.~\""]);
        let mut copy = map.clone();
        let transfer = paste_all(&map, &mut copy);
        assert!(transfer.adds_nothing());
        for id in 1..map.tiles.len() as TileId {
            assert_eq!(transfer.id(id), id);
        }
        assert_eq!(copy, map);
    }

    #[test]
    fn a_door_whose_counterpart_differs_comes_in_with_its_counterpart() {
        // The target's closed door opens into a different open door: both of the source's come
        // in, still a pair, though only the closed one was copied.
        let source = drawn(tile::standard_tiles(), &["+"]);
        let mut tiles = tile::standard_tiles();
        tiles[4].glyph.fg = Rgb(255, 255, 255); // the target's open door looks otherwise
        let mut target = drawn(tiles, &["."]);
        let transfer = paste_all(&source, &mut target);
        assert_eq!(picture(&target), ["+"]);
        let (closed, open) = (transfer.id(tile::STANDARD_CLOSED_DOOR), transfer.id(tile::STANDARD_OPEN_DOOR));
        assert_eq!((closed, open), (7, 8));
        assert_eq!(target.tiles[7].door, Some(Door { open: false, toggles_to: 8 }));
        assert_eq!(target.tiles[8].door, Some(Door { open: true, toggles_to: 7 }));
    }

    #[test]
    fn an_animated_tile_brings_its_frames() {
        let mut tiles = [tile::standard_tiles(), vec![lava(), lava()]].concat();
        tiles[8].glyph.ch = '%';
        tiles[7].animation = vec![Frame { tile: 7, duration_ms: 100 }, Frame { tile: 8, duration_ms: 100 }];
        let source = drawn(tiles, &["="]);
        let mut target = drawn(tile::standard_tiles(), &["."]);
        let transfer = paste_all(&source, &mut target);
        assert_eq!(transfer.new_tiles().len(), 2);
        assert_eq!(
            target.tiles[7].animation,
            [Frame { tile: 7, duration_ms: 100 }, Frame { tile: 8, duration_ms: 100 }]
        );
        assert_eq!(target.tiles[8].glyph.ch, '%');
    }

    #[test]
    fn an_animation_matches_the_same_animation_whose_frames_are_another_look_alike() {
        let frames = |tile| vec![Frame { tile, duration_ms: 100 }];
        let mut flow = lava();
        (flow.name, flow.glyph.ch) = ("lava flow".into(), '%');
        let mut tiles = [tile::standard_tiles(), vec![lava(), flow.clone()]].concat();
        tiles[8].animation = frames(7);
        let source = drawn(tiles, &["%"]);
        // The target has lava twice, in slots 7 and 9, and its flow animates the second.
        let mut tiles = [tile::standard_tiles(), vec![lava(), flow, lava()]].concat();
        tiles[8].animation = frames(9);
        let target = drawn(tiles, &["."]);
        let transfer = TileTransfer::plan(&TileSource::of(&source, None, "a.ron"), [8], &target, None).unwrap();
        assert!(transfer.adds_nothing(), "{:?}", transfer.new_tiles());
        assert_eq!((transfer.id(8), transfer.id(7)), (8, 9));
    }

    /// Three tile types cut from `image`, 16 pixels a side, 2 a row.
    fn sheet_tiles(sheet: u16) -> Vec<TileKind> {
        (0..3)
            .map(|i| TileKind {
                sprite: Some(Sprite { sheet, index: i }),
                ..TileKind::new(&format!("tile {i}"), 'a', Rgb::WHITE, Rgb::BLACK, false, true)
            })
            .collect()
    }

    #[test]
    fn a_sprite_sheet_is_the_same_by_its_images_absolute_path_and_a_missing_one_comes_in_whole() {
        let mut source = Map::new(2, 1, vec![TileKind::empty()], 0).unwrap();
        source.sheets.push(SpriteSheet::new("dungeon", "art/dungeon.png", [16, 16], 2, 3));
        source.tiles.extend(sheet_tiles(0));
        source.set_tile(0, Cell::new(0, 0), 2);
        let from = TileSource::of(&source, Some(Path::new("/game/levels")), "one.tmx");

        // The target reaches the same image by another path: the sheet is there; the copied
        // type maps to the target's, on its sheet 1.
        let mut target = Map::new(2, 1, vec![TileKind::empty()], 0).unwrap();
        target.sheets.push(SpriteSheet::new("other", "/elsewhere/other.png", [16, 16], 2, 3));
        target.sheets.push(SpriteSheet::new("dungeon", "../levels/./art/dungeon.png", [16, 16], 2, 3));
        target.tiles.extend(sheet_tiles(1));
        let transfer = TileTransfer::plan(&from, [2], &target, Some(Path::new("/game/maps"))).unwrap();
        assert!(transfer.adds_nothing());
        assert_eq!(transfer.id(2), 2);

        // Cut otherwise, it is another sheet: it comes in with all three of its types, its image
        // absolute.
        target.sheets[1].tile_width = 32;
        let transfer = TileTransfer::plan(&from, [2], &target, Some(Path::new("/game/maps"))).unwrap();
        assert_eq!(transfer.new_sheets().len(), 1);
        assert_eq!(transfer.new_sheets()[0].image, Path::new("/game/levels/art/dungeon.png"));
        assert_eq!(transfer.new_tiles().len(), 3);
        assert!(transfer.new_tiles().iter().all(|t| t.sprite.is_some_and(|s| s.sheet == 2)));
        assert_eq!(transfer.id(2), 5);
        assert!(transfer.apply(&mut target));
        assert_eq!(target.tiles[5].sprite, Some(Sprite { sheet: 2, index: 1 }));
        // A paste that laid nothing takes them back.
        transfer.undo(&mut target);
        assert_eq!((target.tiles.len(), target.sheets.len()), (4, 2));
    }

    #[test]
    fn a_sheet_the_map_has_with_a_tile_type_that_differs_comes_in_whole_as_another_tileset() {
        let mut source = Map::new(2, 1, vec![TileKind::empty()], 0).unwrap();
        source.sheets.push(SpriteSheet::new("dungeon", "/art/dungeon.png", [16, 16], 2, 3));
        source.tiles.extend(sheet_tiles(0));
        source.tiles[2].opaque = true; // the source's tile 1 is a wall
        let mut target = Map::new(2, 1, vec![TileKind::empty()], 0).unwrap();
        target.sheets.push(SpriteSheet::new("dungeon", "/art/dungeon.png", [16, 16], 2, 3));
        target.tiles.extend(sheet_tiles(0));
        let from = TileSource::of(&source, None, "a.tmx");
        // Tile 0 is the same in both: it maps, nothing comes in.
        assert!(TileTransfer::plan(&from, [1], &target, None).unwrap().adds_nothing());
        // Tile 1 differs: the source's sheet comes in as a second tileset with its three types,
        // rather than a second type on the target's image.
        let transfer = TileTransfer::plan(&from, [2], &target, None).unwrap();
        assert_eq!(transfer.new_sheets().len(), 1);
        assert_eq!(transfer.new_tiles().len(), 3);
        assert_eq!(transfer.id(2), 5);
        assert_eq!(transfer.new_tiles()[1].sprite, Some(Sprite { sheet: 1, index: 1 }));
        assert!(transfer.new_tiles()[1].opaque);
        // Once it is in, the next paste finds it there (the second sheet of that image), and
        // adds nothing more.
        let mut pasted = target.clone();
        assert!(transfer.apply(&mut pasted));
        let again = TileTransfer::plan(&from, [1, 2], &pasted, None).unwrap();
        assert!(again.adds_nothing(), "{:?}", again.new_sheets());
        assert_eq!((again.id(1), again.id(2)), (4, 5), "the whole sheet maps to the one that came in");
        // So does a sheet the map has drawn otherwise.
        target.sheets[0].offset = [0, 4];
        let transfer = TileTransfer::plan(&from, [1], &target, None).unwrap();
        assert_eq!((transfer.new_sheets().len(), transfer.id(1)), (1, 4));
    }

    #[test]
    fn a_door_matches_the_same_door_whose_counterpart_matches_too() {
        // The target has the closed door twice: in slot 3 opening into a look-alike open door
        // that differs (slot 7), in slot 8 into the standard one (slot 4).
        let source = drawn(tile::standard_tiles(), &["+"]);
        let mut tiles =
            [tile::standard_tiles(), vec![tile::standard_tiles()[4].clone(), tile::standard_tiles()[3].clone()]]
                .concat();
        tiles[7].cost = 2.0;
        tiles[7].door = Some(Door { open: true, toggles_to: 3 });
        tiles[3].door = Some(Door { open: false, toggles_to: 7 });
        tiles[8].door = Some(Door { open: false, toggles_to: 4 });
        tiles[4].door = Some(Door { open: true, toggles_to: 8 });
        let target = drawn(tiles, &["."]);
        let transfer =
            TileTransfer::plan(&TileSource::of(&source, None, "a.ron"), [tile::STANDARD_CLOSED_DOOR], &target, None)
                .unwrap();
        assert!(transfer.adds_nothing());
        assert_eq!((transfer.id(tile::STANDARD_CLOSED_DOOR), transfer.id(tile::STANDARD_OPEN_DOOR)), (8, 4));
    }

    #[test]
    fn what_does_not_fit_or_is_not_there_is_refused() {
        let source = drawn([tile::standard_tiles(), vec![lava()]].concat(), &["="]);
        let from = TileSource::of(&source, None, "a.ron");
        let mut full = drawn(tile::standard_tiles(), &["."]);
        full.tiles.resize(usize::from(TileId::MAX) + 1, tile::standard_tiles()[1].clone());
        assert_eq!(TileTransfer::plan(&from, [7], &full, None), Err(TransferError::TooManyTiles(65537)));
        assert_eq!(TileTransfer::plan(&from, [8], &full, None), Err(TransferError::UnknownTile(8)));
        let mut broken = from.clone();
        broken.tiles[7].sprite = Some(Sprite { sheet: 3, index: 0 });
        assert_eq!(TileTransfer::plan(&broken, [7], &full, None), Err(TransferError::UnknownSheet(3)));
        // A map changed since the plan is not added to.
        let mut target = drawn(tile::standard_tiles(), &["."]);
        let transfer = TileTransfer::plan(&from, [7], &target, None).unwrap();
        target.tiles.push(lava());
        assert!(!transfer.apply(&mut target));
        assert_eq!(target.tiles.len(), 8);
    }

    /// A random tile set: some of a pool of types (two door pairs among them), some of them
    /// changed, in a random order.
    fn random_tiles(rng: &mut Rng) -> Vec<TileKind> {
        let mut pool = tile::standard_tiles();
        pool.extend([lava(), TileKind::new("ice", '_', Rgb::WHITE, Rgb::BLACK, false, true)]);
        let mut gate = pool[3].clone();
        gate.name = "gate".into();
        let mut open_gate = pool[4].clone();
        open_gate.name = "open gate".into();
        pool.extend([gate, open_gate]);
        // Door pairs by name, so that they can be linked again after shuffling.
        let partner = |name: &str| match name {
            "closed door" => "open door",
            "open door" => "closed door",
            "gate" => "open gate",
            "open gate" => "gate",
            _ => "",
        };
        let mut chosen: Vec<TileKind> = pool.drain(1..).filter(|t| t.door.is_some() || rng.chance(0.7)).collect();
        for k in &mut chosen {
            if rng.chance(0.2) {
                k.cost += 1.0;
            }
        }
        for i in (1..chosen.len()).rev() {
            chosen.swap(i, rng.below(i as u32 + 1) as usize);
        }
        let mut tiles = [vec![TileKind::empty()], chosen].concat();
        let names: Vec<String> = tiles.iter().map(|t| t.name.clone()).collect();
        for k in &mut tiles {
            if let Some(door) = &mut k.door {
                door.toggles_to = names.iter().position(|n| n == partner(&k.name)).unwrap() as TileId;
            }
        }
        tiles
    }

    #[test]
    fn on_random_tile_sets_every_pasted_cell_is_the_same_type_as_copied_and_door_pairs_stay_pairs() {
        let mut rng = Rng::new(7);
        for round in 0..300 {
            let source_tiles = random_tiles(&mut rng);
            let n = source_tiles.len() as u32;
            let mut source = Map::new(6, 4, source_tiles, 0).unwrap();
            for c in &mut source.layers[0].cells {
                *c = rng.below(n) as TileId;
            }
            let mut target = Map::new(6, 4, random_tiles(&mut rng), 1).unwrap();
            let before = target.tiles.clone();
            let transfer = paste_all(&source, &mut target);
            assert_eq!(target.tiles[..before.len()], before[..], "round {round}: the target's types stay");
            for (i, &t) in source.layers[0].cells.iter().enumerate().filter(|(_, t)| **t != EMPTY) {
                let (copied, pasted) =
                    (&source.tiles[usize::from(t)], &target.tiles[usize::from(target.layers[0].cells[i])]);
                assert_eq!(unnamed(copied, None), unnamed(pasted, None), "round {round}, cell {i}");
                let counterpart =
                    |m: &Map, k: &TileKind| k.door.map(|d| m.tiles[usize::from(d.toggles_to)].name.clone());
                assert_eq!(counterpart(&source, copied), counterpart(&target, pasted), "round {round}, cell {i}");
            }
            // Every door of the target is half of a pair.
            for (id, k) in target.tiles.iter().enumerate() {
                if let Some(d) = k.door {
                    assert_eq!(target.tiles[usize::from(d.toggles_to)].door.map(|e| e.toggles_to), Some(id as TileId));
                }
            }
            // Nothing added twice: each added type has no same type before it.
            for k in transfer.new_tiles() {
                assert_eq!(target.tiles.iter().filter(|t| *t == k).count(), 1, "round {round}: {} twice", k.name);
            }
        }
    }
}
