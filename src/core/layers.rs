//! Layer edits, as Tiled's Layer menu makes them: add, duplicate, remove, rename, move up or down,
//! merge down. Layers are listed bottom to top (`map.layers[0]` is drawn first).
//!
//! The game rules read every layer, hidden ones included (see [`crate::core::rules`]), so an edit
//! that changes what the layers hold at a cell can change what the cell does. Adding an empty
//! layer, renaming and reordering never do (the rules of a cell do not depend on the order of its
//! layers, except which door is the topmost: [`move_layer`] says when that changes). Removing a
//! layer or merging it down can, and [`merge_down`] counts the cells whose rules it changed, so
//! the editor can say so.

use super::map::{self, Layer, Map};
use super::rules::CellRules;
use super::tile::EMPTY;

#[derive(Debug, PartialEq, thiserror::Error)]
pub enum LayerEditError {
    #[error("there is no layer {0}")]
    NoSuchLayer(usize),
    #[error("layer {0:?} is the map's only tile layer; a map keeps at least one")]
    LastLayer(String),
    #[error("a layer needs a name")]
    EmptyName,
    #[error("layer {0:?} is the bottom layer: there is no layer below to merge it into")]
    NothingBelow(String),
    #[error(
        "one more layer would make {cells} cells in all; a map holds at most {max} (eight layers of {side}×{side})",
        max = map::MAX_LAYER_CELLS,
        side = crate::core::MAX_MAP_SIDE
    )]
    TooManyCells { cells: u64 },
}

/// A name no layer of `map` has: `base`, else `base 2`, `base 3`, …
pub fn unused_layer_name(map: &Map, base: &str) -> String {
    let taken = |name: &str| map.layers.iter().any(|l| l.name == name);
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

fn check_layer(map: &Map, layer: usize) -> Result<(), LayerEditError> {
    if layer >= map.layers.len() {
        return Err(LayerEditError::NoSuchLayer(layer));
    }
    Ok(())
}

/// Inserts an empty, visible, unlocked tile layer at index `at` (`0` is the bottom; `at` up to
/// the number of layers), named `name` (trimmed), and returns its index.
pub fn add_layer(map: &mut Map, at: usize, name: &str) -> Result<usize, LayerEditError> {
    if at > map.layers.len() {
        return Err(LayerEditError::NoSuchLayer(at));
    }
    let name = name.trim();
    if name.is_empty() {
        return Err(LayerEditError::EmptyName);
    }
    check_room(map)?;
    map.layers.insert(at, Layer::filled(name, map.len(), EMPTY));
    Ok(at)
}

/// Copies layer `layer` (its cells and flags) just above it, named "NAME copy" (or "NAME copy 2"
/// …, as Tiled names copies), and returns the copy's index.
pub fn duplicate_layer(map: &mut Map, layer: usize) -> Result<usize, LayerEditError> {
    check_layer(map, layer)?;
    check_room(map)?;
    let mut copy = map.layers[layer].clone();
    copy.name = unused_layer_name(map, &format!("{} copy", copy.name));
    map.layers.insert(layer + 1, copy);
    Ok(layer + 1)
}

/// Removes layer `layer` and returns it. The last tile layer stays: a map without one has nothing
/// to paint on.
pub fn remove_layer(map: &mut Map, layer: usize) -> Result<Layer, LayerEditError> {
    check_layer(map, layer)?;
    if map.layers.len() == 1 {
        return Err(LayerEditError::LastLayer(map.layers[0].name.clone()));
    }
    Ok(map.layers.remove(layer))
}

/// Renames layer `layer` to `name`, trimmed. Names need not be unique (Tiled's need not either).
pub fn rename_layer(map: &mut Map, layer: usize, name: &str) -> Result<(), LayerEditError> {
    check_layer(map, layer)?;
    let name = name.trim();
    if name.is_empty() {
        return Err(LayerEditError::EmptyName);
    }
    map.layers[layer].name = name.to_owned();
    Ok(())
}

/// Moves layer `from` to index `to` (the others keep their order). Returns how many cells changed
/// which door is their topmost one (the door the player opens there): the only rule the order of
/// layers decides.
pub fn move_layer(map: &mut Map, from: usize, to: usize) -> Result<usize, LayerEditError> {
    check_layer(map, from)?;
    check_layer(map, to)?;
    if from == to {
        return Ok(0);
    }
    // Only cells with a door on the moving layer can change their topmost door.
    let doors: Vec<usize> = (0..map.len())
        .filter(|&i| {
            let t = map.layers[from].cells[i];
            t != EMPTY && map.tiles[usize::from(t)].door.is_some()
        })
        .collect();
    let top_door = |map: &Map, i: usize| map.rules_at(map.cell_at(i)).door.map(|(_, tile)| tile);
    let before: Vec<_> = doors.iter().map(|&i| top_door(map, i)).collect();
    let layer = map.layers.remove(from);
    map.layers.insert(to, layer);
    Ok(doors.iter().zip(before).filter(|&(&i, b)| top_door(map, i) != b).count())
}

/// What a merge did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeReport {
    /// Index of the merged layer (the one that was below).
    pub layer: usize,
    /// Cells whose game rules (opaque, walkable, cost, door) are not what they were: the upper
    /// layer's tile replaced the lower's, or the two layers' collision flags differ.
    pub rules_changed: usize,
}

/// Merges layer `layer` into the layer below it, as Tiled does: each cell the upper layer fills
/// takes its tile (flipped as it was), the others keep the lower layer's. The merged layer keeps the lower layer's
/// name and flags. Since the rules read every layer, a cell that had a tile on both (a floor
/// drawn over a wall, say) can change what it does: the report counts those cells.
pub fn merge_down(map: &mut Map, layer: usize) -> Result<MergeReport, LayerEditError> {
    check_layer(map, layer)?;
    if layer == 0 {
        return Err(LayerEditError::NothingBelow(map.layers[0].name.clone()));
    }
    let filled: Vec<usize> = (0..map.len()).filter(|&i| map.layers[layer].cells[i] != EMPTY).collect();
    let rules = |map: &Map, i: usize| -> CellRules { map.rules_at(map.cell_at(i)) };
    let before: Vec<CellRules> = filled.iter().map(|&i| rules(map, i)).collect();
    let upper = map.layers.remove(layer);
    let lower = &mut map.layers[layer - 1];
    for &i in &filled {
        lower.set(i, upper.cells[i], upper.flip(i));
    }
    let rules_changed = filled.iter().zip(before).filter(|&(&i, b)| !same_rules(rules(map, i), b)).count();
    Ok(MergeReport { layer: layer - 1, rules_changed })
}

/// The rules a player meets: the door's layer index does not count (it moves in a merge).
fn same_rules(a: CellRules, b: CellRules) -> bool {
    a.opaque == b.opaque && a.walkable == b.walkable && a.cost == b.cost && a.door.map(|d| d.1) == b.door.map(|d| d.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Cell;
    use crate::core::format::ascii;
    use crate::core::tile::{STANDARD_CLOSED_DOOR, STANDARD_OPEN_DOOR};

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

    #[test]
    fn add_duplicate_rename_remove() {
        let mut map = Map::new_standard(4, 3, 1).unwrap();
        let ground = map.layers[0].name.clone();
        assert_eq!(add_layer(&mut map, 1, "  decor "), Ok(1));
        assert_eq!(names(&map), [ground.as_str(), "decor"]);
        assert_eq!(art(&map, 1), "    \n    \n    \n", "a new layer is empty");
        assert_eq!(add_layer(&mut map, 3, "x"), Err(LayerEditError::NoSuchLayer(3)));
        assert_eq!(add_layer(&mut map, 0, " "), Err(LayerEditError::EmptyName));

        map.layers[0].locked = true;
        assert_eq!(duplicate_layer(&mut map, 0), Ok(1));
        assert_eq!(duplicate_layer(&mut map, 0), Ok(1));
        let copy = format!("{ground} copy");
        let copy2 = format!("{ground} copy 2");
        assert_eq!(names(&map), [ground.as_str(), &copy2, &copy, "decor"]);
        assert_eq!(art(&map, 1), "....\n....\n....\n");
        assert!(map.layers[1].locked, "a copy keeps the flags");

        assert_eq!(rename_layer(&mut map, 3, "walls"), Ok(()));
        assert_eq!(rename_layer(&mut map, 3, ""), Err(LayerEditError::EmptyName));
        assert_eq!(map.layers[3].name, "walls");

        assert_eq!(remove_layer(&mut map, 1).map(|l| l.name), Ok(copy2));
        assert_eq!(remove_layer(&mut map, 3).map(|l| l.name), Err(LayerEditError::NoSuchLayer(3)));
        remove_layer(&mut map, 2).unwrap();
        remove_layer(&mut map, 1).unwrap();
        assert_eq!(remove_layer(&mut map, 0).map(|l| l.name), Err(LayerEditError::LastLayer(ground)));
        map.validate().unwrap();
    }

    #[test]
    fn a_layer_past_the_cell_limit_is_refused() {
        let mut map = Map::new_standard(4096, 4096, 1).unwrap();
        for _ in 0..7 {
            map.layers.push(Layer::filled("x", map.len(), EMPTY));
        }
        assert_eq!(add_layer(&mut map, 0, "ninth"), Err(LayerEditError::TooManyCells { cells: 9 * 4096 * 4096 }));
        assert!(matches!(duplicate_layer(&mut map, 0), Err(LayerEditError::TooManyCells { .. })));
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
        assert_eq!(move_layer(&mut map, 1, 0), Ok(1));
        assert_eq!(names(&map), ["over", "ground"]);
        assert_eq!(map.rules_at(cell).door.map(|d| d.1), Some(STANDARD_OPEN_DOOR));
        assert_eq!(move_layer(&mut map, 0, 1), Ok(1));
        assert_eq!(move_layer(&mut map, 0, 0), Ok(0));
        assert_eq!(move_layer(&mut map, 0, 2), Err(LayerEditError::NoSuchLayer(2)));
        // Under a door on a layer above both, which of the two is higher does not matter.
        let mut top = Layer::filled("top", map.len(), EMPTY);
        top.cells[map.index(cell).unwrap()] = STANDARD_CLOSED_DOOR;
        map.layers.push(top);
        assert_eq!(move_layer(&mut map, 1, 0), Ok(0));
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
        let report = merge_down(&mut map, 1).unwrap();
        assert_eq!(report, MergeReport { layer: 0, rules_changed: 3 });
        assert_eq!(names(&map), ["ground"]);
        assert_eq!(art(&map, 0), ".###.\n#..\"#\n#####\n");
        assert_eq!(merge_down(&mut map, 0), Err(LayerEditError::NothingBelow("ground".into())));
    }
}
