//! Layer edits, as Tiled's Layer menu makes them: add (a tile layer, an object layer or a
//! group), group a layer, ungroup, duplicate, remove, rename, raise, lower, merge down. They work
//! on the map's outline of layers and groups ([`map::outline`]), bottom to top: tile and object
//! layers in one stack ([`Map::stack`]; a position is an index in it), groups spanning runs of it.
//! As in Tiled, a new layer goes just above the current layer, in its group (inside the current
//! group, at its top, when a group is current, as image editors do); raising a layer that
//! tops its group takes it out, above the group, and raising it under a group takes it in, at the
//! group's bottom (lowering likewise).
//!
//! The game rules read every layer, hidden ones included (see [`crate::core::model::rules`]), so an edit
//! that changes what the layers hold at a cell can change what the cell does. Adding an empty
//! layer, renaming, grouping and reordering never do (the rules of a cell do not depend on the
//! order of its layers, except which door is the topmost: [`raise`] and [`lower`] say when that
//! changes). Removing a layer or merging it down can, and [`merge_down`] counts the cells whose
//! rules it changed, so the editor can say so. Object layers hold no tiles: editing them changes
//! no cell's rules.

use crate::core::model::map::{self, Layer, LayerGroup, LayerRef, Map, ObjectLayer, OutlineItem, StackItem};
use crate::core::model::rules::CellRules;
use crate::core::model::tile::EMPTY;

#[derive(Debug, PartialEq, thiserror::Error)]
pub enum LayerEditError {
    #[error("there is no {0:?}")]
    NoSuchLayer(LayerRef),
    #[error("there is no layer group {0}")]
    NoSuchGroup(usize),
    #[error("layer {0:?} is the map's only tile layer; a map keeps at least one")]
    LastLayer(String),
    #[error("group {0:?} holds every tile layer of the map; a map keeps at least one")]
    HoldsEveryTileLayer(String),
    #[error("a layer needs a name")]
    EmptyName,
    #[error("layer {0:?} has no layer below it in its group to merge it into")]
    NothingBelow(String),
    #[error(
        "layer {upper:?} cannot be merged into {lower:?}: a tile layer merges into a tile layer, an object layer into an object layer"
    )]
    OtherKindBelow { upper: String, lower: String },
    #[error("{0:?} is already at the top of the map")]
    AtTop(String),
    #[error("{0:?} is already at the bottom of the map")]
    AtBottom(String),
    #[error("group {0:?} cannot go inside itself")]
    IntoItself(String),
    #[error(
        "one more layer would make {cells} cells in all; a map holds at most {max} (eight layers of {side}×{side})",
        max = map::MAX_LAYER_CELLS,
        side = crate::core::MAX_MAP_SIDE
    )]
    TooManyCells { cells: u64 },
}

/// A name no layer or group of `map` has: `base`, else `base 2`, `base 3`, …
pub fn unused_layer_name(map: &Map, base: &str) -> String {
    let taken = |name: &str| {
        map.layers.iter().any(|l| l.name == name)
            || map.object_layers.iter().any(|l| l.name == name)
            || map.groups.iter().any(|g| g.name == name)
    };
    if !taken(base) {
        return base.to_owned();
    }
    (2..).map(|n| format!("{base} {n}")).find(|name| !taken(name)).expect("some number is free")
}

fn check_room(map: &Map, more: usize) -> Result<(), LayerEditError> {
    let cells = (map.layers.len() + more) as u64 * map.len() as u64;
    if cells > map::MAX_LAYER_CELLS {
        return Err(LayerEditError::TooManyCells { cells });
    }
    Ok(())
}

fn check_name(name: &str) -> Result<&str, LayerEditError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(LayerEditError::EmptyName);
    }
    Ok(name)
}

/// An item's name: a layer's or a group's.
pub fn item_name(map: &Map, item: StackItem) -> Option<&str> {
    match item {
        StackItem::Layer(layer) => map.layer_name(layer),
        StackItem::Group(g) => map.groups.get(g).map(|g| g.name.as_str()),
    }
}

/// The Tiled class of a layer or group: `None` when there is no such one.
pub fn item_class(map: &Map, item: StackItem) -> Option<&str> {
    match item {
        StackItem::Layer(LayerRef::Tiles(i)) => map.layers.get(i).map(|l| l.class.as_str()),
        StackItem::Layer(LayerRef::Objects(j)) => map.object_layers.get(j).map(|l| l.class.as_str()),
        StackItem::Group(g) => map.groups.get(g).map(|g| g.class.as_str()),
    }
}

/// Sets the Tiled class of a layer or group (Tiled's Class field; empty: none), trimmed.
pub fn set_class(map: &mut Map, item: StackItem, class: &str) -> Result<(), LayerEditError> {
    let class = class.trim().to_owned();
    match item {
        StackItem::Layer(LayerRef::Tiles(i)) if i < map.layers.len() => map.layers[i].class = class,
        StackItem::Layer(LayerRef::Objects(j)) if j < map.object_layers.len() => map.object_layers[j].class = class,
        StackItem::Group(g) if g < map.groups.len() => map.groups[g].class = class,
        StackItem::Layer(layer) => return Err(LayerEditError::NoSuchLayer(layer)),
        StackItem::Group(g) => return Err(LayerEditError::NoSuchGroup(g)),
    }
    Ok(())
}

/// The outline with layers by reference, as the edits rearrange it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    Open(usize),
    Close(usize),
    Layer(LayerRef),
}

fn entries(map: &Map) -> Vec<Entry> {
    let stack = map.stack();
    map::outline(stack.len(), &map.groups)
        .into_iter()
        .map(|item| match item {
            OutlineItem::Open(g) => Entry::Open(g),
            OutlineItem::Close(g) => Entry::Close(g),
            OutlineItem::Layer(at) => Entry::Layer(stack[at]),
        })
        .collect()
}

/// Where `item` is in `entries`: its first and last entry (a layer's are one).
fn span(entries: &[Entry], item: StackItem) -> Option<(usize, usize)> {
    match item {
        StackItem::Layer(layer) => entries.iter().position(|&e| e == Entry::Layer(layer)).map(|e| (e, e)),
        StackItem::Group(g) => {
            let open = entries.iter().position(|&e| e == Entry::Open(g))?;
            let close = entries.iter().position(|&e| e == Entry::Close(g))?;
            Some((open, close))
        }
    }
}

fn find(entries: &[Entry], item: StackItem) -> Result<(usize, usize), LayerEditError> {
    span(entries, item).ok_or(match item {
        StackItem::Layer(layer) => LayerEditError::NoSuchLayer(layer),
        StackItem::Group(g) => LayerEditError::NoSuchGroup(g),
    })
}

/// The map rebuilt from `entries`: its layers in their order (those left out go, an object
/// layer's objects with it), its groups as they nest there (those left out go). Returns what
/// the item whose entry was at `e` now is.
fn rebuild(map: &mut Map, entries: &[Entry], e: usize) -> StackItem {
    let order: Vec<LayerRef> = entries
        .iter()
        .filter_map(|&e| match e {
            Entry::Layer(r) => Some(r),
            _ => None,
        })
        .collect();
    let stack = restack(map, &order);
    let old = std::mem::take(&mut map.groups);
    let mut new_index = vec![None; old.len()];
    let mut open: Vec<usize> = Vec::new();
    let mut at = 0;
    for &entry in entries {
        match entry {
            Entry::Open(g) => {
                let mut group = old[g].clone();
                group.parent = open.last().copied();
                group.start = at;
                new_index[g] = Some(map.groups.len());
                open.push(map.groups.len());
                map.groups.push(group);
            }
            Entry::Close(_) => {
                let g = open.pop().expect("a group closes after it opens");
                map.groups[g].end = at;
            }
            Entry::Layer(_) => at += 1,
        }
    }
    match entries[e] {
        Entry::Layer(_) => {
            StackItem::Layer(stack[entries[..e].iter().filter(|e| matches!(e, Entry::Layer(_))).count()])
        }
        Entry::Open(g) | Entry::Close(g) => StackItem::Group(new_index[g].expect("the item is kept")),
    }
}

/// Rebuilds the map's layers in the order `order` gives, bottom to top, keeping only the layers
/// it names (each at most once); the objects of an object layer left out go with it. Returns the
/// new stack, so that `order[k]` is now the layer at `stack[k]`. Groups are left to the caller.
fn restack(map: &mut Map, order: &[LayerRef]) -> Vec<LayerRef> {
    let mut tiles: Vec<Option<Layer>> = std::mem::take(&mut map.layers).into_iter().map(Some).collect();
    let mut objects: Vec<Option<ObjectLayer>> = std::mem::take(&mut map.object_layers).into_iter().map(Some).collect();
    let mut new_index = vec![None; objects.len()];
    for &layer in order {
        match layer {
            LayerRef::Tiles(i) => map.layers.extend(tiles.get_mut(i).and_then(Option::take)),
            LayerRef::Objects(j) => {
                if let Some(mut l) = objects.get_mut(j).and_then(Option::take) {
                    l.tile_layers_below = map.layers.len();
                    new_index[j] = Some(map.object_layers.len());
                    map.object_layers.push(l);
                }
            }
        }
    }
    map.objects.retain_mut(|o| match new_index.get(o.layer).copied().flatten() {
        Some(k) => {
            o.layer = k;
            true
        }
        None => false,
    });
    map.order_objects_by_layer();
    map.stack()
}

/// Where a new item goes: just above the layer `at` in its group, at the top inside the group
/// `at`, or at the top of the map for `None`.
fn place_above(entries: &[Entry], at: Option<StackItem>) -> Result<usize, LayerEditError> {
    match at {
        Some(StackItem::Group(g)) => find(entries, StackItem::Group(g)).map(|(_, close)| close),
        Some(layer) => find(entries, layer).map(|(_, last)| last + 1),
        None => Ok(entries.len()),
    }
}

/// Inserts an empty, visible, unlocked tile layer named `name` (trimmed) just above the layer
/// `above`, in its group; at the top inside `above` if it is a group; at the top of the map for
/// `None`. Returns the new layer.
pub fn add_layer(map: &mut Map, above: Option<StackItem>, name: &str) -> Result<LayerRef, LayerEditError> {
    let mut entries = entries(map);
    let at = place_above(&entries, above)?;
    let name = check_name(name)?;
    check_room(map, 1)?;
    map.layers.push(Layer::filled(name, map.len(), EMPTY));
    entries.insert(at, Entry::Layer(LayerRef::Tiles(map.layers.len() - 1)));
    Ok(layer_of(rebuild(map, &entries, at)))
}

/// Inserts an empty, visible, unlocked object layer named `name` (trimmed) where [`add_layer`]
/// puts a tile layer, and returns it.
pub fn add_object_layer(map: &mut Map, above: Option<StackItem>, name: &str) -> Result<LayerRef, LayerEditError> {
    let mut entries = entries(map);
    let at = place_above(&entries, above)?;
    let name = check_name(name)?;
    map.object_layers.push(ObjectLayer::new(name, map.layers.len()));
    entries.insert(at, Entry::Layer(LayerRef::Objects(map.object_layers.len() - 1)));
    Ok(layer_of(rebuild(map, &entries, at)))
}

/// Inserts an empty, visible, unlocked group named `name` (trimmed) where [`add_layer`] puts a
/// layer, and returns it (Tiled's New Group Layer).
pub fn add_group(map: &mut Map, above: Option<StackItem>, name: &str) -> Result<usize, LayerEditError> {
    let mut entries = entries(map);
    let at = place_above(&entries, above)?;
    let name = check_name(name)?;
    map.groups.push(LayerGroup::new(name, None, 0));
    let g = map.groups.len() - 1;
    entries.splice(at..at, [Entry::Open(g), Entry::Close(g)]);
    Ok(group_of(rebuild(map, &entries, at)))
}

/// Puts `item` into a new group named `name` (trimmed), where it was (Tiled's Group Layers), and
/// returns the group.
pub fn group_item(map: &mut Map, item: StackItem, name: &str) -> Result<usize, LayerEditError> {
    let mut entries = entries(map);
    let (first, last) = find(&entries, item)?;
    let name = check_name(name)?;
    map.groups.push(LayerGroup::new(name, None, 0));
    let g = map.groups.len() - 1;
    entries.insert(last + 1, Entry::Close(g));
    entries.insert(first, Entry::Open(g));
    Ok(group_of(rebuild(map, &entries, first)))
}

/// Removes group `g` and leaves what it held where it was, in the group around it (Tiled's
/// Ungroup Layers). Its look goes with it: its layers are drawn as their own say.
pub fn ungroup(map: &mut Map, g: usize) -> Result<(), LayerEditError> {
    let mut entries = entries(map);
    let (open, close) = find(&entries, StackItem::Group(g))?;
    entries.remove(close);
    entries.remove(open);
    // A map keeps a tile layer, so some entry is left.
    rebuild(map, &entries, 0);
    Ok(())
}

fn layer_of(item: StackItem) -> LayerRef {
    match item {
        StackItem::Layer(layer) => layer,
        StackItem::Group(_) => unreachable!("the entry is a layer's"),
    }
}

fn group_of(item: StackItem) -> usize {
    match item {
        StackItem::Group(g) => g,
        StackItem::Layer(_) => unreachable!("the entry is a group's"),
    }
}

/// Copies `item` just above it, named "NAME copy" (or "NAME copy 2" …, as Tiled names copies),
/// and returns the copy. A tile layer's copy has its cells and flags; an object layer's has
/// copies of its objects, with new ids; a group's has copies of its layers and groups (under
/// their own names).
pub fn duplicate(map: &mut Map, item: StackItem) -> Result<StackItem, LayerEditError> {
    let mut entries = entries(map);
    let (first, last) = find(&entries, item)?;
    let copied = &entries[first..=last];
    let tile_layers = copied.iter().filter(|e| matches!(e, Entry::Layer(LayerRef::Tiles(_)))).count();
    check_room(map, tile_layers)?;
    let mut copy = Vec::with_capacity(copied.len());
    for &entry in copied {
        copy.push(match entry {
            Entry::Layer(LayerRef::Tiles(i)) => {
                map.layers.push(map.layers[i].clone());
                Entry::Layer(LayerRef::Tiles(map.layers.len() - 1))
            }
            Entry::Layer(LayerRef::Objects(j)) => {
                map.object_layers.push(map.object_layers[j].clone());
                let k = map.object_layers.len() - 1;
                let objects: Vec<_> = map.objects.iter().filter(|o| o.layer == j).cloned().collect();
                for mut o in objects {
                    o.layer = k;
                    map.add_object(o);
                }
                Entry::Layer(LayerRef::Objects(k))
            }
            Entry::Open(g) => {
                map.groups.push(map.groups[g].clone());
                Entry::Open(map.groups.len() - 1)
            }
            Entry::Close(_) => {
                // The group this closes is the innermost copied group still open.
                let mut depth = 0;
                let open = copy.iter().rev().find_map(|e| match e {
                    Entry::Close(_) => {
                        depth += 1;
                        None
                    }
                    Entry::Open(g) if depth == 0 => Some(*g),
                    Entry::Open(_) => {
                        depth -= 1;
                        None
                    }
                    Entry::Layer(_) => None,
                });
                Entry::Close(open.expect("a copied group opens before it closes"))
            }
        });
    }
    let base = format!("{} copy", item_name(map, item).unwrap_or_default());
    let name = unused_layer_name(map, &base);
    match copy[0] {
        Entry::Layer(LayerRef::Tiles(i)) => map.layers[i].name = name,
        Entry::Layer(LayerRef::Objects(j)) => map.object_layers[j].name = name,
        Entry::Open(g) | Entry::Close(g) => map.groups[g].name = name,
    }
    entries.splice(last + 1..last + 1, copy);
    Ok(rebuild(map, &entries, last + 1))
}

/// Copies `layer` just above it (see [`duplicate`]).
pub fn duplicate_layer(map: &mut Map, layer: LayerRef) -> Result<LayerRef, LayerEditError> {
    duplicate(map, StackItem::Layer(layer)).map(layer_of)
}

/// Removes `item` (an object layer with its objects, a group with everything in it) and
/// returns its name. The last tile layer stays: a map without one has nothing to paint on.
pub fn remove(map: &mut Map, item: StackItem) -> Result<String, LayerEditError> {
    let mut entries = entries(map);
    let (first, last) = find(&entries, item)?;
    let name = item_name(map, item).unwrap_or_default().to_owned();
    let removed_tiles = entries[first..=last].iter().filter(|e| matches!(e, Entry::Layer(LayerRef::Tiles(_)))).count();
    if removed_tiles == map.layers.len() {
        return Err(match item {
            StackItem::Layer(_) => LayerEditError::LastLayer(name),
            StackItem::Group(_) => LayerEditError::HoldsEveryTileLayer(name),
        });
    }
    entries.drain(first..=last);
    rebuild(map, &entries, 0);
    Ok(name)
}

/// Removes `layer` (see [`remove`]).
pub fn remove_layer(map: &mut Map, layer: LayerRef) -> Result<String, LayerEditError> {
    remove(map, StackItem::Layer(layer))
}

/// Renames `item` to `name`, trimmed. Names need not be unique (Tiled's need not either).
pub fn rename(map: &mut Map, item: StackItem, name: &str) -> Result<(), LayerEditError> {
    let name = check_name(name)?.to_owned();
    match item {
        StackItem::Layer(LayerRef::Tiles(i)) if i < map.layers.len() => map.layers[i].name = name,
        StackItem::Layer(LayerRef::Objects(j)) if j < map.object_layers.len() => map.object_layers[j].name = name,
        StackItem::Group(g) if g < map.groups.len() => map.groups[g].name = name,
        StackItem::Layer(layer) => return Err(LayerEditError::NoSuchLayer(layer)),
        StackItem::Group(g) => return Err(LayerEditError::NoSuchGroup(g)),
    }
    Ok(())
}

/// Renames `layer` (see [`rename`]).
pub fn rename_layer(map: &mut Map, layer: LayerRef, name: &str) -> Result<(), LayerEditError> {
    rename(map, StackItem::Layer(layer), name)
}

/// Raises `item` one step, as Tiled does: over the layer above it in its group; into the group
/// above it, at that group's bottom; or, at the top of its group, out of it, just above it.
/// Returns what it is now, how many cells changed which door is their topmost one (the door the
/// player opens there: the only rule the order of layers decides), and where every layer went.
pub fn raise(map: &mut Map, item: StackItem) -> Result<Stepped, LayerEditError> {
    step(map, item, true)
}

/// Lowers `item` one step: under the layer below it in its group; into the group below it, at
/// that group's top; or, at the bottom of its group, out of it, just below it. See [`raise`].
pub fn lower(map: &mut Map, item: StackItem) -> Result<Stepped, LayerEditError> {
    step(map, item, false)
}

/// What [`raise`] or [`lower`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stepped {
    /// What the moved item is now.
    pub item: StackItem,
    /// How many cells changed which door is their topmost one.
    pub doors: usize,
    /// The new index of each tile layer, by its index before (layers are numbered in stack
    /// order, so a group stepping over a layer renumbers every layer it holds).
    pub tile_layer: Vec<usize>,
    /// The same for object layers.
    pub object_layer: Vec<usize>,
}

fn step(map: &mut Map, item: StackItem, up: bool) -> Result<Stepped, LayerEditError> {
    let mut entries = entries(map);
    let (first, last) = find(&entries, item)?;
    let name = || item_name(map, item).unwrap_or_default().to_owned();
    // Past the neighbouring entry: a layer is stepped over, a group's end or start stepped out
    // of, a group's start or end stepped into.
    let at = if up {
        if last + 1 == entries.len() {
            return Err(LayerEditError::AtTop(name()));
        }
        first + 1
    } else {
        if first == 0 {
            return Err(LayerEditError::AtBottom(name()));
        }
        first - 1
    };
    let moving: Vec<Entry> = entries.drain(first..=last).collect();
    Ok(put(map, entries, moving, at))
}

/// Where [`move_item`] puts an item, as the Layers panel's drop shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Just above this layer or group, beside it in its group.
    Above(StackItem),
    /// Just below it, beside it in its group.
    Below(StackItem),
    /// Inside this group, at its top.
    IntoTop(usize),
}

/// Moves `item` (a layer, or a group with all it holds) to `place` at once, as a drag in
/// Tiled's Layers panel does: the same map as the [`raise`] or [`lower`] steps that lead there,
/// and the same report. A group cannot go inside itself; a place where the item already is
/// moves nothing and reports so (its own index for every layer).
pub fn move_item(map: &mut Map, item: StackItem, place: Place) -> Result<Stepped, LayerEditError> {
    let mut entries = entries(map);
    let (first, last) = find(&entries, item)?;
    // The place as a gap between entries (bottom to top): the moving entries go in before the
    // entry at `gap`.
    let gap = match place {
        Place::Above(target) => find(&entries, target)?.1 + 1,
        Place::Below(target) => find(&entries, target)?.0,
        Place::IntoTop(g) => find(&entries, StackItem::Group(g))?.1,
    };
    if gap > first && gap <= last {
        return Err(LayerEditError::IntoItself(item_name(map, item).unwrap_or_default().to_owned()));
    }
    let moving: Vec<Entry> = entries.drain(first..=last).collect();
    let at = if gap > last { gap - moving.len() } else { gap };
    Ok(put(map, entries, moving, at))
}

/// Puts `moving` back into `entries` (which it was taken from) at `at`, rebuilds the map, and
/// reports what the move did.
fn put(map: &mut Map, mut entries: Vec<Entry>, moving: Vec<Entry>, at: usize) -> Stepped {
    // Only cells with a door on a moving tile layer can change their topmost door.
    let doors: Vec<usize> = (0..map.len())
        .filter(|&c| {
            moving.iter().any(|e| match *e {
                Entry::Layer(LayerRef::Tiles(i)) => {
                    let t = map.layers[i].cells[c];
                    t != EMPTY && map.tiles[usize::from(t)].door.is_some()
                }
                _ => false,
            })
        })
        .collect();
    let top_door = |map: &Map, i: usize| map.rules_at(map.cell_at(i)).door.map(|(_, tile)| tile);
    let before: Vec<_> = doors.iter().map(|&i| top_door(map, i)).collect();
    entries.splice(at..at, moving);
    // `rebuild` numbers each kind of layer in the new order of the entries.
    let (mut tile_layer, mut object_layer) = (vec![0; map.layers.len()], vec![0; map.object_layers.len()]);
    let (mut tiles, mut objects) = (0, 0);
    for entry in &entries {
        match *entry {
            Entry::Layer(LayerRef::Tiles(i)) => {
                tile_layer[i] = tiles;
                tiles += 1;
            }
            Entry::Layer(LayerRef::Objects(j)) => {
                object_layer[j] = objects;
                objects += 1;
            }
            Entry::Open(_) | Entry::Close(_) => {}
        }
    }
    let moved = rebuild(map, &entries, at);
    let doors = doors.iter().zip(before).filter(|&(&i, b)| top_door(map, i) != b).count();
    Stepped { item: moved, doors, tile_layer, object_layer }
}

/// Whether `item` can be raised (`up`) or lowered: it is not already at the top (bottom) of
/// the map.
pub fn can_step(map: &Map, item: StackItem, up: bool) -> bool {
    let entries = entries(map);
    span(&entries, item).is_some_and(|(first, last)| if up { last + 1 < entries.len() } else { first > 0 })
}

/// The layers and groups top first, as the Layers panel lists them, each with how many groups
/// it is in: a group comes just over what it holds.
pub fn listed(map: &Map) -> Vec<(StackItem, usize)> {
    let mut out = Vec::new();
    let mut depth = 0;
    for entry in entries(map).into_iter().rev() {
        match entry {
            Entry::Close(g) => {
                out.push((StackItem::Group(g), depth));
                depth += 1;
            }
            Entry::Open(_) => depth -= 1,
            Entry::Layer(layer) => out.push((StackItem::Layer(layer), depth)),
        }
    }
    out
}

/// What a merge did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeReport {
    /// The merged layer (the one that was below).
    pub layer: LayerRef,
    /// Cells whose game rules (opaque, walkable, cost, door) are not what they were: the upper
    /// layer's tile replaced the lower's, or the two layers' collision flags differ.
    pub rules_changed: usize,
}

/// The layer `layer` would merge into: the one just under it in its group.
pub fn layer_below(map: &Map, layer: LayerRef) -> Option<LayerRef> {
    let entries = entries(map);
    let (first, _) = span(&entries, StackItem::Layer(layer))?;
    match entries.get(first.checked_sub(1)?) {
        Some(&Entry::Layer(below)) => Some(below),
        _ => None,
    }
}

/// Merges `layer` into the layer under it in its group, which must be of its kind, as Tiled
/// does. Tile layers: each cell the upper layer fills takes its tile (flipped as it was), the
/// others keep the lower layer's; the merged layer keeps the lower layer's name and flags.
/// Since the rules read every layer, a cell that had a tile on both (a floor drawn over a wall,
/// say) can change what it does: the report counts those cells. Object layers: the upper one's
/// objects join the lower one, drawn over its own.
pub fn merge_down(map: &mut Map, layer: LayerRef) -> Result<MergeReport, LayerEditError> {
    let mut entries = entries(map);
    let (at, _) = find(&entries, StackItem::Layer(layer))?;
    let name = map.layer_name(layer).unwrap_or_default().to_owned();
    let Some(below) = layer_below(map, layer) else {
        return Err(LayerEditError::NothingBelow(name));
    };
    entries.remove(at);
    match (layer, below) {
        (LayerRef::Tiles(upper), LayerRef::Tiles(lower)) => {
            let filled: Vec<usize> = (0..map.len()).filter(|&i| map.layers[upper].cells[i] != EMPTY).collect();
            let rules = |map: &Map, i: usize| -> CellRules { map.rules_at(map.cell_at(i)) };
            let before: Vec<CellRules> = filled.iter().map(|&i| rules(map, i)).collect();
            let (cells, flips): (Vec<_>, Vec<_>) =
                filled.iter().map(|&i| (map.layers[upper].cells[i], map.layers[upper].flip(i))).unzip();
            for ((&i, &t), &f) in filled.iter().zip(&cells).zip(&flips) {
                map.layers[lower].set(i, t, f);
            }
            let merged = layer_of(rebuild(map, &entries, at - 1));
            let rules_changed = filled.iter().zip(before).filter(|&(&i, b)| !same_rules(rules(map, i), b)).count();
            Ok(MergeReport { layer: merged, rules_changed })
        }
        (LayerRef::Objects(upper), LayerRef::Objects(lower)) => {
            // The upper layer's objects go last, so that they are drawn over the lower's.
            let (mut moved, kept): (Vec<_>, Vec<_>) =
                std::mem::take(&mut map.objects).into_iter().partition(|o| o.layer == upper);
            moved.iter_mut().for_each(|o| o.layer = lower);
            map.objects = kept;
            map.objects.extend(moved);
            let merged = layer_of(rebuild(map, &entries, at - 1));
            Ok(MergeReport { layer: merged, rules_changed: 0 })
        }
        _ => Err(LayerEditError::OtherKindBelow {
            upper: name,
            lower: map.layer_name(below).unwrap_or_default().to_owned(),
        }),
    }
}

/// The rules a player meets: the door's layer index does not count (it moves in a merge).
fn same_rules(a: CellRules, b: CellRules) -> bool {
    a.opaque == b.opaque && a.walkable == b.walkable && a.cost == b.cost && a.door.map(|d| d.1) == b.door.map(|d| d.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::ascii;
    use crate::core::model::tile::{STANDARD_CLOSED_DOOR, STANDARD_OPEN_DOOR};
    use crate::core::{Cell, MapObject, ObjectKind, Rgba};

    /// A map from ASCII art, with a second layer "over" drawn on it by glyph (' ' is empty).
    fn two_layers(lower: &str, upper: &str) -> Map {
        let mut map = ascii::parse(lower).unwrap();
        let cells = upper
            .lines()
            .flat_map(|row| row.chars())
            .map(|ch| match ch {
                ' ' => EMPTY,
                _ => map.tiles.iter().position(|t| t.glyph.ch == ch).unwrap() as crate::core::TileId,
            })
            .collect();
        map.layers.push(Layer::with_cells("over", cells));
        map.validate().unwrap();
        map
    }

    fn names(map: &Map) -> Vec<&str> {
        map.layers.iter().map(|l| l.name.as_str()).collect()
    }

    /// A layer as ASCII art, a row a line (' ' for empty).
    fn art(map: &Map, layer: usize) -> String {
        let glyph = |&t: &crate::core::TileId| if t == EMPTY { ' ' } else { map.tiles[usize::from(t)].glyph.ch };
        map.layers[layer]
            .cells
            .chunks(map.width() as usize)
            .map(|row| row.iter().map(glyph).collect::<String>() + "\n")
            .collect()
    }

    /// The stack bottom to top, object layers in brackets with their objects' names.
    fn stack(map: &Map) -> String {
        map.stack()
            .into_iter()
            .map(|r| match r {
                LayerRef::Tiles(i) => map.layers[i].name.clone(),
                LayerRef::Objects(j) => {
                    let on: Vec<&str> = map.objects.iter().filter(|o| o.layer == j).map(|o| o.name.as_str()).collect();
                    format!("[{}: {}]", map.object_layers[j].name, on.join(" "))
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The outline top first, as the Layers panel lists it: a group as "name/" over its layers
    /// and groups, indented; object layers in brackets.
    fn tree(map: &Map) -> String {
        listed(map)
            .into_iter()
            .map(|(item, depth)| {
                let text = match item {
                    StackItem::Group(g) => format!("{}/", map.groups[g].name),
                    StackItem::Layer(LayerRef::Tiles(i)) => map.layers[i].name.clone(),
                    StackItem::Layer(LayerRef::Objects(j)) => format!("[{}]", map.object_layers[j].name),
                };
                format!("{}{text}\n", "  ".repeat(depth))
            })
            .collect()
    }

    #[test]
    fn groups_hold_layers_and_layers_step_in_and_out_of_them_as_in_tiled() {
        let mut map = Map::new_standard(3, 2, 1).unwrap();
        map.layers[0].name = "ground".into();
        let ground = Some(StackItem::Layer(LayerRef::Tiles(0)));
        let trees = add_group(&mut map, ground, "trees").unwrap();
        // With a group current, a new layer goes inside it, at its top.
        let trunks = add_layer(&mut map, Some(StackItem::Group(trees)), "trunks").unwrap();
        let canopy = add_layer(&mut map, Some(StackItem::Layer(trunks)), "canopy").unwrap();
        add_object_layer(&mut map, None, "spawns").unwrap();
        assert_eq!(
            tree(&map),
            "[spawns]\n\
             trees/\n\
             \x20 canopy\n\
             \x20 trunks\n\
             ground\n"
        );
        map.validate().unwrap();

        // Raising the group's top layer takes it out, above the group; lowering it again takes
        // it back in, at the group's top.
        let out = raise(&mut map, StackItem::Layer(canopy)).unwrap().item;
        assert_eq!(tree(&map), "[spawns]\ncanopy\ntrees/\n  trunks\nground\n");
        lower(&mut map, out).unwrap();
        assert_eq!(tree(&map), "[spawns]\ntrees/\n  canopy\n  trunks\nground\n");
        // Lowering the group's bottom layer takes it out below; raising the layer under a
        // group takes it in at the bottom.
        let trunks = lower(&mut map, StackItem::Layer(trunks)).unwrap().item;
        assert_eq!(tree(&map), "[spawns]\ntrees/\n  canopy\ntrunks\nground\n");
        raise(&mut map, trunks).unwrap();
        assert_eq!(tree(&map), "[spawns]\ntrees/\n  canopy\n  trunks\nground\n");

        // A group moves whole, and steps into a group beside it.
        let trees = StackItem::Group(trees);
        let trees = lower(&mut map, trees).unwrap().item;
        assert_eq!(tree(&map), "[spawns]\nground\ntrees/\n  canopy\n  trunks\n");
        assert_eq!(lower(&mut map, trees), Err(LayerEditError::AtBottom("trees".into())));
        let rocks = add_group(&mut map, Some(StackItem::Layer(LayerRef::Tiles(2))), "rocks").unwrap();
        assert_eq!(tree(&map), "[spawns]\nrocks/\nground\ntrees/\n  canopy\n  trunks\n");
        let rocks = lower(&mut map, StackItem::Group(rocks)).unwrap().item;
        lower(&mut map, rocks).unwrap();
        assert_eq!(tree(&map), "[spawns]\nground\ntrees/\n  rocks/\n  canopy\n  trunks\n");
        map.validate().unwrap();

        // A copy of a group copies what it holds; ungrouping leaves the layers where they were.
        let copy = duplicate(&mut map, trees).unwrap();
        assert_eq!(
            tree(&map),
            "[spawns]\nground\n\
             trees copy/\n  rocks/\n  canopy\n  trunks\n\
             trees/\n  rocks/\n  canopy\n  trunks\n"
        );
        let StackItem::Group(copy) = copy else { panic!("a group's copy is a group") };
        ungroup(&mut map, copy).unwrap();
        assert_eq!(tree(&map), "[spawns]\nground\nrocks/\ncanopy\ntrunks\ntrees/\n  rocks/\n  canopy\n  trunks\n");
        map.validate().unwrap();

        // Grouping a layer wraps it where it is; removing a group removes what it holds, and
        // merging down stays within a group.
        let spawns = StackItem::Layer(LayerRef::Objects(0));
        let wrap = group_item(&mut map, spawns, "actors").unwrap();
        assert!(tree(&map).starts_with("actors/\n  [spawns]\nground\n"), "{}", tree(&map));
        let lowest = map.stack()[0];
        // Bottom to top: trees' trunks and canopy (0, 1), the ungrouped copies (2, 3), ground (4).
        assert_eq!(layer_below(&map, LayerRef::Tiles(3)), Some(LayerRef::Tiles(2)));
        assert_eq!(layer_below(&map, LayerRef::Tiles(2)), None, "a group is under it");
        assert_eq!(layer_below(&map, LayerRef::Tiles(0)), None, "the bottom of its group");
        assert_eq!(layer_below(&map, LayerRef::Tiles(4)), None, "an empty group is under it");
        assert_eq!(merge_down(&mut map, LayerRef::Tiles(0)), Err(LayerEditError::NothingBelow("trunks".into())));
        assert_eq!(remove(&mut map, StackItem::Group(wrap)), Ok("actors".into()));
        assert_eq!(map.object_layers.len(), 0);
        let first = map.groups.iter().position(|g| g.name == "trees").unwrap();
        remove(&mut map, StackItem::Group(first)).unwrap();
        assert_eq!(tree(&map), "ground\nrocks/\ncanopy\ntrunks\n");
        assert_eq!(map.stack()[0], lowest);
        map.validate().unwrap();
    }

    #[test]
    fn a_dragged_layer_or_group_lands_above_below_or_inside_what_it_is_dropped_on() {
        let mut map = Map::new_standard(3, 2, 1).unwrap();
        map.layers[0].name = "ground".into();
        let trees = add_group(&mut map, Some(StackItem::Layer(LayerRef::Tiles(0))), "trees").unwrap();
        let trunks = add_layer(&mut map, Some(StackItem::Group(trees)), "trunks").unwrap();
        add_layer(&mut map, Some(StackItem::Layer(trunks)), "canopy").unwrap();
        add_object_layer(&mut map, None, "spawns").unwrap();
        let start = map.clone();
        assert_eq!(tree(&map), "[spawns]\ntrees/\n  canopy\n  trunks\nground\n");
        let find = |map: &Map, name: &str| {
            listed(map).into_iter().map(|(item, _)| item).find(|&i| item_name(map, i) == Some(name)).unwrap()
        };

        // Out of the group, over the object layer: what two raises do, in one move.
        let canopy = find(&map, "canopy");
        let mut stepped = map.clone();
        let once = raise(&mut stepped, canopy).unwrap();
        let twice = raise(&mut stepped, once.item).unwrap();
        let moved = {
            let (item, target) = (canopy, find(&map, "spawns"));
            move_item(&mut map, item, Place::Above(target))
        }
        .unwrap();
        assert_eq!(tree(&map), "canopy\n[spawns]\ntrees/\n  trunks\nground\n");
        assert_eq!((map.clone(), moved.item), (stepped, twice.item));

        // The bottom layer into the group, at its top; the object layer below a layer in it.
        {
            let item = find(&map, "ground");
            move_item(&mut map, item, Place::IntoTop(trees))
        }
        .unwrap();
        assert_eq!(tree(&map), "canopy\n[spawns]\ntrees/\n  ground\n  trunks\n");
        {
            let (item, target) = (find(&map, "spawns"), find(&map, "trunks"));
            move_item(&mut map, item, Place::Below(target))
        }
        .unwrap();
        assert_eq!(tree(&map), "canopy\ntrees/\n  ground\n  trunks\n  [spawns]\n");
        // The group, with what it holds, above the layer that was over it.
        let (g, canopy) = (find(&map, "trees"), find(&map, "canopy"));
        let moved = move_item(&mut map, g, Place::Above(canopy)).unwrap();
        assert_eq!(tree(&map), "trees/\n  ground\n  trunks\n  [spawns]\ncanopy\n");
        // Bottom to top, trunks and ground were 0 and 1 and canopy 2; now canopy is 0.
        assert_eq!(moved.tile_layer, [1, 2, 0]);
        map.validate().unwrap();

        // Not into itself, nor beside what it holds; dropped where it is, it stays.
        let g = find(&map, "trees");
        let before = map.clone();
        let into_itself = Err(LayerEditError::IntoItself("trees".into()));
        let StackItem::Group(gi) = g else { unreachable!() };
        assert_eq!(move_item(&mut map, g, Place::IntoTop(gi)), into_itself);
        let trunks = find(&map, "trunks");
        assert_eq!(move_item(&mut map, g, Place::Below(trunks)), into_itself);
        assert_eq!(move_item(&mut map, g, Place::Above(g)).map(|s| s.item), Ok(g));
        assert_eq!(move_item(&mut map, g, Place::Below(g)).map(|s| s.item), Ok(g));
        assert_eq!(map, before);
        assert_ne!(map, start);
    }

    /// Random runs of every edit on random items keep the map valid (groups nested in their
    /// parents, side by side, within the stack), keep each layer once in the outline, and keep
    /// the objects with their layers; an edit that fails leaves the map as it was.
    #[test]
    fn random_layer_and_group_edits_keep_the_outline_whole() {
        let mut rng = crate::core::rng::Rng::new(29);
        for run in 0..40 {
            let mut map = Map::new_standard(3, 2, 1).unwrap();
            for step in 0..60 {
                let items: Vec<StackItem> = listed(&map).into_iter().map(|(item, _)| item).collect();
                let item = items[rng.below(items.len() as u32) as usize];
                let before = map.clone();
                let objects_before: Vec<(u32, String)> =
                    map.objects.iter().map(|o| (o.id, map.object_layers[o.layer].name.clone())).collect();
                let op = rng.below(12);
                let target = items[rng.below(items.len() as u32) as usize];
                let result = match op {
                    0 => add_layer(&mut map, Some(item), &format!("t{step}")).map(|_| ()),
                    1 => add_object_layer(&mut map, Some(item), &format!("o{step}")).map(|_| ()),
                    2 => add_group(&mut map, Some(item), &format!("g{step}")).map(|_| ()),
                    3 => group_item(&mut map, item, &format!("w{step}")).map(|_| ()),
                    4 => match item {
                        StackItem::Group(g) => ungroup(&mut map, g),
                        StackItem::Layer(_) => Ok(()),
                    },
                    5 => duplicate(&mut map, item).map(|_| ()),
                    6 => remove(&mut map, item).map(|_| ()),
                    7 | 8 | 11 => match op {
                        7 => raise(&mut map, item),
                        8 => lower(&mut map, item),
                        _ => move_item(
                            &mut map,
                            item,
                            match (rng.below(3), target) {
                                (0, _) => Place::Above(target),
                                (1, _) | (_, StackItem::Layer(_)) => Place::Below(target),
                                (_, StackItem::Group(g)) => Place::IntoTop(g),
                            },
                        ),
                    }
                    .map(|stepped| {
                        // Each layer is found where the step says it went.
                        for (i, &to) in stepped.tile_layer.iter().enumerate() {
                            assert_eq!(map.layers[to], before.layers[i], "run {run}, step {step}: tile layer {i}");
                        }
                        for (j, &to) in stepped.object_layer.iter().enumerate() {
                            assert_eq!(map.object_layers[to].name, before.object_layers[j].name);
                        }
                    }),
                    9 => match item {
                        StackItem::Layer(layer) => merge_down(&mut map, layer).map(|_| ()),
                        StackItem::Group(_) => Ok(()),
                    },
                    _ => {
                        // An object on a random object layer.
                        if !map.object_layers.is_empty() {
                            let j = rng.below(map.object_layers.len() as u32) as usize;
                            map.add_object(MapObject::new(ObjectKind::Item, Cell::new(1, 1)).on_layer(j));
                        }
                        Ok(())
                    }
                };
                let what = format!("run {run}, step {step}, op {op} on {item:?}");
                map.validate().unwrap_or_else(|e| panic!("{what}: {e}\n{}", tree(&map)));
                if result.is_err() {
                    assert_eq!(map.first_difference(&before), None, "{what}: a refused edit changes nothing");
                }
                let stack = map.stack();
                let outline = map::outline(stack.len(), &map.groups);
                let layers = outline.iter().filter(|i| matches!(i, OutlineItem::Layer(_))).count();
                assert_eq!(layers, stack.len(), "{what}: each layer once");
                assert_eq!(outline.len(), stack.len() + 2 * map.groups.len(), "{what}: each group opens and closes");
                // Moving, grouping and adding keep every object on the layer it was on.
                if matches!(op, 0..=5 | 7 | 8 | 11) && result.is_ok() {
                    for (id, layer) in &objects_before {
                        let o = map.object_by_id(*id).unwrap_or_else(|| panic!("{what}: object {id} kept"));
                        assert_eq!(&map.object_layers[o.layer].name, layer, "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_layer_looks_as_its_groups_make_it() {
        let mut map = Map::new_standard(3, 2, 1).unwrap();
        let ground = StackItem::Layer(LayerRef::Tiles(0));
        let outer = group_item(&mut map, ground, "outer").unwrap();
        let inner = group_item(&mut map, ground, "inner").unwrap();
        assert_eq!(map.groups_around(ground), [inner, outer]);
        map.layers[0].opacity = 0.5;
        map.layers[0].offset = [1.0, 2.0];
        map.layers[0].tint = Some(Rgba(255, 128, 0, 255));
        map.groups[outer].opacity = 0.5;
        map.groups[outer].offset = [10.0, 20.0];
        map.groups[outer].parallax = [0.5, 1.0];
        map.groups[inner].tint = Some(Rgba(128, 255, 255, 255));
        let look = map.look(LayerRef::Tiles(0));
        assert_eq!(
            look,
            map::LayerLook {
                shown: true,
                locked: false,
                opacity: 0.25,
                tint: Some(Rgba(128, 128, 0, 255)),
                offset: [11.0, 22.0],
                parallax: [0.5, 1.0],
            }
        );
        // An object layer in the inner group composes its own look with its groups' the same way.
        let objects = add_object_layer(&mut map, Some(ground), "marks").unwrap();
        assert_eq!(map.groups_around(StackItem::Layer(objects)), [inner, outer]);
        let LayerRef::Objects(j) = objects else { unreachable!() };
        map.object_layers[j].offset = [-3.0, 0.5];
        map.object_layers[j].parallax = [2.0, 4.0];
        map.object_layers[j].tint = Some(Rgba(255, 255, 0, 255));
        map.object_layers[j].opacity = 0.5;
        let look = map.look(objects);
        assert_eq!(
            (look.opacity, look.tint, look.offset, look.parallax),
            (0.25, Some(Rgba(128, 255, 0, 255)), [7.0, 20.5], [1.0, 4.0])
        );
        assert_eq!(map.object_looks()[j], look);
        map.groups[outer].visible = false;
        map.groups[inner].locked = true;
        let look = map.look(LayerRef::Tiles(0));
        assert!(!look.shown && look.locked);
        assert!(!map.group_shown(inner) && !map.group_shown(outer));
        assert!(map.group_locked(inner) && !map.group_locked(outer));
        // A group holding the only tile layer cannot go.
        assert_eq!(remove(&mut map, StackItem::Group(outer)), Err(LayerEditError::HoldsEveryTileLayer("outer".into())));
    }

    #[test]
    fn add_duplicate_rename_remove() {
        let mut map = Map::new_standard(4, 3, 1).unwrap();
        let ground = map.layers[0].name.clone();
        assert_eq!(add_layer(&mut map, Some(StackItem::Layer(LayerRef::Tiles(0))), "  decor "), Ok(LayerRef::Tiles(1)));
        assert_eq!(names(&map), [ground.as_str(), "decor"]);
        assert_eq!(art(&map, 1), "    \n    \n    \n", "a new layer is empty");
        assert_eq!(
            add_layer(&mut map, Some(StackItem::Layer(LayerRef::Tiles(5))), "x"),
            Err(LayerEditError::NoSuchLayer(LayerRef::Tiles(5)))
        );
        assert_eq!(add_layer(&mut map, None, " "), Err(LayerEditError::EmptyName));

        map.layers[0].locked = true;
        assert_eq!(duplicate_layer(&mut map, LayerRef::Tiles(0)), Ok(LayerRef::Tiles(1)));
        assert_eq!(duplicate_layer(&mut map, LayerRef::Tiles(0)), Ok(LayerRef::Tiles(1)));
        let copy = format!("{ground} copy");
        let copy2 = format!("{ground} copy 2");
        assert_eq!(names(&map), [ground.as_str(), &copy2, &copy, "decor"]);
        assert_eq!(art(&map, 1), "....\n....\n....\n");
        assert!(map.layers[1].locked, "a copy keeps the flags");

        assert_eq!(rename_layer(&mut map, LayerRef::Tiles(3), "walls"), Ok(()));
        assert_eq!(rename_layer(&mut map, LayerRef::Tiles(3), ""), Err(LayerEditError::EmptyName));
        assert_eq!(map.layers[3].name, "walls");

        assert_eq!(remove_layer(&mut map, LayerRef::Tiles(1)), Ok(copy2));
        assert_eq!(remove_layer(&mut map, LayerRef::Tiles(3)), Err(LayerEditError::NoSuchLayer(LayerRef::Tiles(3))));
        remove_layer(&mut map, LayerRef::Tiles(2)).unwrap();
        remove_layer(&mut map, LayerRef::Tiles(1)).unwrap();
        assert_eq!(remove_layer(&mut map, LayerRef::Tiles(0)), Err(LayerEditError::LastLayer(ground)));
        map.validate().unwrap();
    }

    #[test]
    fn object_layers_sit_among_the_tile_layers_and_move_one_place_at_a_time() {
        let mut map = two_layers("....\n....\n", "    \n    \n");
        let spawns = add_object_layer(&mut map, Some(StackItem::Layer(LayerRef::Tiles(0))), "spawns").unwrap();
        assert_eq!(spawns, LayerRef::Objects(0));
        for (name, x) in [("goblin", 0), ("orc", 1)] {
            map.add_object(MapObject::new(ObjectKind::Item, Cell::new(x, 0)).named(name).on_layer(0));
        }
        assert_eq!(stack(&map), "ground, [spawns: goblin orc], over");
        assert_eq!(add_object_layer(&mut map, None, "zones"), Ok(LayerRef::Objects(1)));
        map.add_object(MapObject::new(ObjectKind::Item, Cell::new(2, 0)).named("exit").on_layer(1));
        assert_eq!(stack(&map), "ground, [spawns: goblin orc], over, [zones: exit]");
        map.validate().unwrap();

        // Raising goes over one layer, tile or object layer, at a time.
        let objects = |j| StackItem::Layer(LayerRef::Objects(j));
        let tiles = |i| StackItem::Layer(LayerRef::Tiles(i));
        assert_eq!(raise(&mut map, objects(0)).map(|s| (s.item, s.doors)), Ok((objects(0), 0)));
        assert_eq!(stack(&map), "ground, over, [spawns: goblin orc], [zones: exit]");
        assert_eq!(raise(&mut map, objects(0)).map(|s| (s.item, s.doors)), Ok((objects(1), 0)));
        assert_eq!(stack(&map), "ground, over, [zones: exit], [spawns: goblin orc]");
        assert_eq!(raise(&mut map, objects(1)), Err(LayerEditError::AtTop("spawns".into())));
        let mut spawns = objects(1);
        for _ in 0..3 {
            spawns = lower(&mut map, spawns).unwrap().item;
        }
        assert_eq!(stack(&map), "[spawns: goblin orc], ground, over, [zones: exit]");
        assert_eq!(lower(&mut map, objects(0)), Err(LayerEditError::AtBottom("spawns".into())));
        assert_eq!(lower(&mut map, tiles(1)).map(|s| (s.item, s.doors)), Ok((tiles(0), 0)));
        assert_eq!(lower(&mut map, tiles(0)).map(|s| (s.item, s.doors)), Ok((tiles(0), 0)));
        assert_eq!(stack(&map), "over, [spawns: goblin orc], ground, [zones: exit]");
        map.validate().unwrap();

        // A new tile layer goes where it is asked, even between two object layers.
        assert_eq!(add_layer(&mut map, None, "roof"), Ok(LayerRef::Tiles(2)));
        assert_eq!(stack(&map), "over, [spawns: goblin orc], ground, [zones: exit], roof");

        // A copy of an object layer copies its objects, with new ids.
        let before = map.next_object_id();
        assert_eq!(duplicate_layer(&mut map, LayerRef::Objects(0)), Ok(LayerRef::Objects(1)));
        assert_eq!(stack(&map), "over, [spawns: goblin orc], [spawns copy: goblin orc], ground, [zones: exit], roof");
        let copies: Vec<u32> = map.objects.iter().filter(|o| o.layer == 1).map(|o| o.id).collect();
        assert_eq!(copies, [before, before + 1]);
        map.validate().unwrap();

        // Object layers merge into object layers, tile layers into tile layers.
        assert_eq!(
            merge_down(&mut map, LayerRef::Tiles(1)),
            Err(LayerEditError::OtherKindBelow { upper: "ground".into(), lower: "spawns copy".into() })
        );
        assert_eq!(
            merge_down(&mut map, LayerRef::Objects(1)),
            Ok(MergeReport { layer: LayerRef::Objects(0), rules_changed: 0 })
        );
        assert_eq!(stack(&map), "over, [spawns: goblin orc goblin orc], ground, [zones: exit], roof");

        // Removing an object layer removes its objects; the ids they had are not given again.
        assert_eq!(remove_layer(&mut map, LayerRef::Objects(0)), Ok("spawns".into()));
        assert_eq!(stack(&map), "over, ground, [zones: exit], roof");
        assert_eq!(map.objects.len(), 1);
        assert_eq!(map.objects[0].layer, 0);
        assert!(map.next_object_id() > before + 1);
        assert_eq!(rename_layer(&mut map, LayerRef::Objects(0), " areas "), Ok(()));
        assert_eq!(stack(&map), "over, ground, [areas: exit], roof");
        map.validate().unwrap();
    }

    #[test]
    fn a_layer_past_the_cell_limit_is_refused() {
        let mut map = Map::new_standard(4096, 4096, 1).unwrap();
        for _ in 0..7 {
            map.layers.push(Layer::filled("x", map.len(), EMPTY));
        }
        assert_eq!(add_layer(&mut map, None, "ninth"), Err(LayerEditError::TooManyCells { cells: 9 * 4096 * 4096 }));
        assert!(matches!(duplicate_layer(&mut map, LayerRef::Tiles(0)), Err(LayerEditError::TooManyCells { .. })));
        assert_eq!(map.layers.len(), 8);
    }

    #[test]
    fn moving_a_layer_reports_cells_whose_topmost_door_changes() {
        // An open door under a closed one at (1, 1): the top one is what the player opens.
        // Lowering the upper layer swaps them there; the door at (3, 1) has no door under it.
        let mut map = two_layers(
            "#####\n\
             #'..#\n\
             #####\n",
            concat!(
                "     \n", //
                " + + \n", //
                "     \n",
            ),
        );
        let cell = Cell::new(1, 1);
        assert_eq!(map.rules_at(cell).door.map(|d| d.1), Some(STANDARD_CLOSED_DOOR));
        let tiles = |i| StackItem::Layer(LayerRef::Tiles(i));
        assert_eq!(lower(&mut map, tiles(1)).map(|s| (s.item, s.doors)), Ok((tiles(0), 1)));
        assert_eq!(names(&map), ["over", "ground"]);
        assert_eq!(map.rules_at(cell).door.map(|d| d.1), Some(STANDARD_OPEN_DOOR));
        assert_eq!(raise(&mut map, tiles(0)).map(|s| (s.item, s.doors)), Ok((tiles(1), 1)));
        assert_eq!(raise(&mut map, tiles(1)), Err(LayerEditError::AtTop("over".into())));
        // A group moving with its door layer counts the same.
        let g = group_item(&mut map, tiles(1), "g").unwrap();
        let Stepped { item: moved, doors, .. } = lower(&mut map, StackItem::Group(g)).unwrap();
        assert_eq!((names(&map), doors), (vec!["over", "ground"], 1));
        assert_eq!(raise(&mut map, moved).map(|s| s.doors), Ok(1));
        ungroup(&mut map, 0).unwrap();
        assert_eq!(names(&map), ["ground", "over"]);
        // Under a door on a layer above both, which of the two is higher does not matter.
        let mut top = Layer::filled("top", map.len(), EMPTY);
        top.cells[map.index(cell).unwrap()] = STANDARD_CLOSED_DOOR;
        map.layers.push(top);
        assert_eq!(lower(&mut map, tiles(1)).map(|s| (s.item, s.doors)), Ok((tiles(0), 0)));
        assert_eq!(names(&map), ["over", "ground", "top"]);
    }

    #[test]
    fn merging_down_counts_the_cells_whose_rules_change() {
        // Over the lower layer: floor on two walls (they open up), a wall on a wall (no change),
        // floor on water (the cost drops from 3 to 1), tall grass on floor (no change: the grass
        // already blocked sight, and both are walkable at cost 1).
        let mut map = two_layers(
            "#####\n\
             #~..#\n\
             #####\n",
            concat!(
                ". # .\n",  //
                " . \" \n", //
                "     \n",
            ),
        );
        let report = merge_down(&mut map, LayerRef::Tiles(1)).unwrap();
        assert_eq!(report, MergeReport { layer: LayerRef::Tiles(0), rules_changed: 3 });
        assert_eq!(names(&map), ["ground"]);
        assert_eq!(art(&map, 0), ".###.\n#..\"#\n#####\n");
        assert_eq!(merge_down(&mut map, LayerRef::Tiles(0)), Err(LayerEditError::NothingBelow("ground".into())));
    }
}
