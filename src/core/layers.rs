//! Layer edits, as Tiled's Layer menu makes them: add (a tile or an object layer), duplicate,
//! remove, rename, move up or down, merge down. They work on the map's whole stack of layers,
//! tile and object layers together, bottom to top ([`Map::stack`]); a position is an index in
//! that stack.
//!
//! The game rules read every layer, hidden ones included (see [`crate::core::rules`]), so an edit
//! that changes what the layers hold at a cell can change what the cell does. Adding an empty
//! layer, renaming and reordering never do (the rules of a cell do not depend on the order of its
//! layers, except which door is the topmost: [`move_layer`] says when that changes). Removing a
//! layer or merging it down can, and [`merge_down`] counts the cells whose rules it changed, so
//! the editor can say so. Object layers hold no tiles: editing them changes no cell's rules.

use super::map::{self, Layer, LayerRef, Map, ObjectLayer};
use super::rules::CellRules;
use super::tile::EMPTY;

#[derive(Debug, PartialEq, thiserror::Error)]
pub enum LayerEditError {
    #[error("there is no {0:?}")]
    NoSuchLayer(LayerRef),
    #[error("there is no place {at} in a stack of {len} layers")]
    NoSuchPlace { at: usize, len: usize },
    #[error("layer {0:?} is the map's only tile layer; a map keeps at least one")]
    LastLayer(String),
    #[error("a layer needs a name")]
    EmptyName,
    #[error("layer {0:?} is the bottom layer: there is no layer below to merge it into")]
    NothingBelow(String),
    #[error(
        "layer {upper:?} cannot be merged into {lower:?}: a tile layer merges into a tile layer, an object layer into an object layer"
    )]
    OtherKindBelow { upper: String, lower: String },
    #[error(
        "one more layer would make {cells} cells in all; a map holds at most {max} (eight layers of {side}×{side})",
        max = map::MAX_LAYER_CELLS,
        side = crate::core::MAX_MAP_SIDE
    )]
    TooManyCells { cells: u64 },
}

/// A name no layer of `map` (tile or object layer) has: `base`, else `base 2`, `base 3`, …
pub fn unused_layer_name(map: &Map, base: &str) -> String {
    let taken =
        |name: &str| map.layers.iter().any(|l| l.name == name) || map.object_layers.iter().any(|l| l.name == name);
    if !taken(base) {
        return base.to_owned();
    }
    (2..).map(|n| format!("{base} {n}")).find(|name| !taken(name)).expect("some number is free")
}

fn check_room(map: &Map) -> Result<(), LayerEditError> {
    let cells = (map.layers.len() as u64 + 1) * map.len() as u64;
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

/// Where `layer` is in the map's stack.
pub fn position(map: &Map, layer: LayerRef) -> Result<usize, LayerEditError> {
    map.stack().iter().position(|&r| r == layer).ok_or(LayerEditError::NoSuchLayer(layer))
}

/// Rebuilds the map's layers in the order `order` gives, bottom to top, keeping only the layers
/// it names (each at most once); the objects of an object layer left out go with it. Returns the
/// new stack, so that `order[k]` is now the layer at `stack[k]`.
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
    map.stack()
}

/// Inserts `layer` (just pushed onto its list) at place `at` of the stack.
fn insert_at(map: &mut Map, at: usize, layer: LayerRef) -> LayerRef {
    let mut order = map.stack();
    order.retain(|&r| r != layer);
    order.insert(at, layer);
    restack(map, &order)[at]
}

fn check_place(map: &Map, at: usize) -> Result<(), LayerEditError> {
    let len = map.layers.len() + map.object_layers.len();
    if at > len {
        return Err(LayerEditError::NoSuchPlace { at, len });
    }
    Ok(())
}

/// Inserts an empty, visible, unlocked tile layer at place `at` of the stack (`0` is the
/// bottom), named `name` (trimmed), and returns it.
pub fn add_layer(map: &mut Map, at: usize, name: &str) -> Result<LayerRef, LayerEditError> {
    check_place(map, at)?;
    let name = check_name(name)?;
    check_room(map)?;
    map.layers.push(Layer::filled(name, map.len(), EMPTY));
    Ok(insert_at(map, at, LayerRef::Tiles(map.layers.len() - 1)))
}

/// Inserts an empty, visible, unlocked object layer at place `at` of the stack, named `name`
/// (trimmed), and returns it.
pub fn add_object_layer(map: &mut Map, at: usize, name: &str) -> Result<LayerRef, LayerEditError> {
    check_place(map, at)?;
    let name = check_name(name)?;
    map.object_layers.push(ObjectLayer::new(name, map.layers.len()));
    Ok(insert_at(map, at, LayerRef::Objects(map.object_layers.len() - 1)))
}

/// Copies `layer` just above it, named "NAME copy" (or "NAME copy 2" …, as Tiled names copies),
/// and returns the copy. A tile layer's copy has its cells and flags; an object layer's has
/// copies of its objects, with new ids.
pub fn duplicate_layer(map: &mut Map, layer: LayerRef) -> Result<LayerRef, LayerEditError> {
    let at = position(map, layer)?;
    let copy = match layer {
        LayerRef::Tiles(i) => {
            check_room(map)?;
            let mut copy = map.layers[i].clone();
            copy.name = unused_layer_name(map, &format!("{} copy", copy.name));
            map.layers.push(copy);
            LayerRef::Tiles(map.layers.len() - 1)
        }
        LayerRef::Objects(j) => {
            let mut copy = map.object_layers[j].clone();
            copy.name = unused_layer_name(map, &format!("{} copy", copy.name));
            map.object_layers.push(copy);
            let k = map.object_layers.len() - 1;
            let objects: Vec<_> = map.objects.iter().filter(|o| o.layer == j).cloned().collect();
            for mut o in objects {
                o.layer = k;
                map.add_object(o);
            }
            LayerRef::Objects(k)
        }
    };
    Ok(insert_at(map, at + 1, copy))
}

/// Removes `layer` (an object layer with its objects) and returns its name. The last tile layer
/// stays: a map without one has nothing to paint on.
pub fn remove_layer(map: &mut Map, layer: LayerRef) -> Result<String, LayerEditError> {
    let at = position(map, layer)?;
    let name = map.layer_name(layer).unwrap_or_default().to_owned();
    if let LayerRef::Tiles(_) = layer
        && map.layers.len() == 1
    {
        return Err(LayerEditError::LastLayer(name));
    }
    let mut order = map.stack();
    order.remove(at);
    restack(map, &order);
    Ok(name)
}

/// Renames `layer` to `name`, trimmed. Names need not be unique (Tiled's need not either).
pub fn rename_layer(map: &mut Map, layer: LayerRef, name: &str) -> Result<(), LayerEditError> {
    position(map, layer)?;
    let name = check_name(name)?.to_owned();
    match layer {
        LayerRef::Tiles(i) => map.layers[i].name = name,
        LayerRef::Objects(j) => map.object_layers[j].name = name,
    }
    Ok(())
}

/// Moves the layer at place `from` of the stack to place `to` (the others keep their order).
/// Returns where it is now and how many cells changed which door is their topmost one (the door
/// the player opens there): the only rule the order of layers decides.
pub fn move_layer(map: &mut Map, from: usize, to: usize) -> Result<(LayerRef, usize), LayerEditError> {
    let mut order = map.stack();
    for at in [from, to] {
        if at >= order.len() {
            return Err(LayerEditError::NoSuchPlace { at, len: order.len() });
        }
    }
    let moving = order.remove(from);
    order.insert(to, moving);
    // Only cells with a door on a moving tile layer can change their topmost door.
    let doors: Vec<usize> = match moving {
        LayerRef::Tiles(i) if from != to => (0..map.len())
            .filter(|&c| {
                let t = map.layers[i].cells[c];
                t != EMPTY && map.tiles[usize::from(t)].door.is_some()
            })
            .collect(),
        _ => Vec::new(),
    };
    let top_door = |map: &Map, i: usize| map.rules_at(map.cell_at(i)).door.map(|(_, tile)| tile);
    let before: Vec<_> = doors.iter().map(|&i| top_door(map, i)).collect();
    let moved = restack(map, &order)[to];
    Ok((moved, doors.iter().zip(before).filter(|&(&i, b)| top_door(map, i) != b).count()))
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

/// Merges `layer` into the layer under it in the stack, which must be of its kind, as Tiled
/// does. Tile layers: each cell the upper layer fills takes its tile (flipped as it was), the
/// others keep the lower layer's; the merged layer keeps the lower layer's name and flags.
/// Since the rules read every layer, a cell that had a tile on both (a floor drawn over a wall,
/// say) can change what it does: the report counts those cells. Object layers: the upper one's
/// objects join the lower one, drawn over its own.
pub fn merge_down(map: &mut Map, layer: LayerRef) -> Result<MergeReport, LayerEditError> {
    let at = position(map, layer)?;
    let name = map.layer_name(layer).unwrap_or_default().to_owned();
    if at == 0 {
        return Err(LayerEditError::NothingBelow(name));
    }
    let mut order = map.stack();
    let below = order[at - 1];
    order.remove(at);
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
            let stack = restack(map, &order);
            let rules_changed = filled.iter().zip(before).filter(|&(&i, b)| !same_rules(rules(map, i), b)).count();
            Ok(MergeReport { layer: stack[at - 1], rules_changed })
        }
        (LayerRef::Objects(upper), LayerRef::Objects(lower)) => {
            // The upper layer's objects go last, so that they are drawn over the lower's.
            let (mut moved, kept): (Vec<_>, Vec<_>) =
                std::mem::take(&mut map.objects).into_iter().partition(|o| o.layer == upper);
            moved.iter_mut().for_each(|o| o.layer = lower);
            map.objects = kept;
            map.objects.extend(moved);
            let stack = restack(map, &order);
            Ok(MergeReport { layer: stack[at - 1], rules_changed: 0 })
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
    use crate::core::tile::{STANDARD_CLOSED_DOOR, STANDARD_OPEN_DOOR};
    use crate::core::{Cell, MapObject, ObjectKind};

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

    #[test]
    fn add_duplicate_rename_remove() {
        let mut map = Map::new_standard(4, 3, 1).unwrap();
        let ground = map.layers[0].name.clone();
        assert_eq!(add_layer(&mut map, 1, "  decor "), Ok(LayerRef::Tiles(1)));
        assert_eq!(names(&map), [ground.as_str(), "decor"]);
        assert_eq!(art(&map, 1), "    \n    \n    \n", "a new layer is empty");
        assert_eq!(add_layer(&mut map, 3, "x"), Err(LayerEditError::NoSuchPlace { at: 3, len: 2 }));
        assert_eq!(add_layer(&mut map, 0, " "), Err(LayerEditError::EmptyName));

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
        let spawns = add_object_layer(&mut map, 1, "spawns").unwrap();
        assert_eq!(spawns, LayerRef::Objects(0));
        for (name, x) in [("goblin", 0), ("orc", 1)] {
            map.add_object(MapObject::new(ObjectKind::Item, Cell::new(x, 0)).named(name).on_layer(0));
        }
        assert_eq!(stack(&map), "ground, [spawns: goblin orc], over");
        assert_eq!(add_object_layer(&mut map, 3, "zones"), Ok(LayerRef::Objects(1)));
        map.add_object(MapObject::new(ObjectKind::Item, Cell::new(2, 0)).named("exit").on_layer(1));
        assert_eq!(stack(&map), "ground, [spawns: goblin orc], over, [zones: exit]");
        map.validate().unwrap();

        // Raising goes over one layer, tile or object layer, at a time.
        assert_eq!(move_layer(&mut map, 1, 2), Ok((LayerRef::Objects(0), 0)));
        assert_eq!(stack(&map), "ground, over, [spawns: goblin orc], [zones: exit]");
        assert_eq!(move_layer(&mut map, 2, 3), Ok((LayerRef::Objects(1), 0)));
        assert_eq!(stack(&map), "ground, over, [zones: exit], [spawns: goblin orc]");
        assert_eq!(move_layer(&mut map, 3, 0), Ok((LayerRef::Objects(0), 0)));
        assert_eq!(stack(&map), "[spawns: goblin orc], ground, over, [zones: exit]");
        assert_eq!(move_layer(&mut map, 2, 0), Ok((LayerRef::Tiles(0), 0)));
        assert_eq!(stack(&map), "over, [spawns: goblin orc], ground, [zones: exit]");
        map.validate().unwrap();

        // A new tile layer goes where it is asked, even between two object layers.
        assert_eq!(add_layer(&mut map, 4, "roof"), Ok(LayerRef::Tiles(2)));
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
        assert_eq!(add_layer(&mut map, 0, "ninth"), Err(LayerEditError::TooManyCells { cells: 9 * 4096 * 4096 }));
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
        assert_eq!(move_layer(&mut map, 1, 0), Ok((LayerRef::Tiles(0), 1)));
        assert_eq!(names(&map), ["over", "ground"]);
        assert_eq!(map.rules_at(cell).door.map(|d| d.1), Some(STANDARD_OPEN_DOOR));
        assert_eq!(move_layer(&mut map, 0, 1), Ok((LayerRef::Tiles(1), 1)));
        assert_eq!(move_layer(&mut map, 0, 0), Ok((LayerRef::Tiles(0), 0)));
        assert_eq!(move_layer(&mut map, 0, 2), Err(LayerEditError::NoSuchPlace { at: 2, len: 2 }));
        // Under a door on a layer above both, which of the two is higher does not matter.
        let mut top = Layer::filled("top", map.len(), EMPTY);
        top.cells[map.index(cell).unwrap()] = STANDARD_CLOSED_DOOR;
        map.layers.push(top);
        assert_eq!(move_layer(&mut map, 1, 0), Ok((LayerRef::Tiles(0), 0)));
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
