//! What an edit changed of a map, for the undo history: the changed runs of cells of each tile
//! layer, and whichever other parts of the map changed (its tile types, objects, layers' looks…),
//! holding the values of the side it was taken from. Memory is proportional to what changed,
//! not to the map: one brush stroke on a 4096 × 4096 map keeps a few kilobytes, not 32 MiB.
//!
//! A diff is its own inverse: [`MapDiff::swap`] puts the values it holds into a map and keeps the
//! ones they replace, so the same diff undoes, then redoes, then undoes.

use crate::core::model::flip::{Flip, Flips};
use crate::core::model::map::{Layer, Map};
use crate::core::model::sheet::SpriteSheet;
use crate::core::model::tile::TileId;

/// Cells compared and kept a run at a time: a changed cell keeps its run (512 bytes of tile ids),
/// so a stroke's diff stays small while a run compares as one `memcmp`.
const RUN: usize = 256;

/// The cells of a run that changed, from cell `start` of its layer.
#[derive(Clone, Debug, PartialEq)]
struct Run<T> {
    start: usize,
    values: Vec<T>,
}

/// What changed of one tile layer.
#[derive(Clone, Debug, PartialEq)]
enum LayerChange {
    /// Its cells' tiles and flips changed in runs; nothing else of it.
    Runs { tiles: Vec<Run<TileId>>, flips: Vec<Run<Flip>> },
    /// Its flip plane changed shape (the first flip on the layer, or the last taken off): the
    /// plane whole, with runs of tiles.
    Flips { tiles: Vec<Run<TileId>>, flips: Flips },
    /// Something else (its size, name, look): the layer whole.
    Whole(Box<Layer>),
}

/// The tile layers' changes.
#[derive(Clone, Debug, Default, PartialEq)]
enum Layers {
    #[default]
    Same,
    /// The same layers, some changed: `(index, change)`.
    Changed(Vec<(usize, LayerChange)>),
    /// Layers added, removed or reordered: the list whole.
    List(Vec<Layer>),
}

/// One edit's change of a map (see the module's docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapDiff {
    layers: Layers,
    // Each of the map's other fields, when it changed.
    size: Option<(u32, u32)>,
    tiles: Option<Vec<crate::core::model::tile::TileKind>>,
    object_layers: Option<Vec<crate::core::model::map::ObjectLayer>>,
    groups: Option<Vec<crate::core::model::map::LayerGroup>>,
    objects: Option<Vec<crate::core::model::object::MapObject>>,
    sheets: Option<Vec<SpriteSheet>>,
    properties: Option<crate::core::model::tile::Properties>,
    class: Option<String>,
    background: Option<Option<crate::core::model::tile::Rgba>>,
    tile_size: Option<[u32; 2]>,
    tiled: Option<crate::core::model::tiled_settings::TiledSettings>,
    tiled_editor: Option<crate::core::model::tiled_settings::TiledEditorSettings>,
    next_object_id: Option<u32>,
}

/// `old`'s values where it differs from `new`, a run at a time.
fn runs<T: Copy + PartialEq>(old: &[T], new: &[T]) -> Vec<Run<T>> {
    let mut out: Vec<Run<T>> = Vec::new();
    for (k, (a, b)) in old.chunks(RUN).zip(new.chunks(RUN)).enumerate() {
        if a != b {
            let start = k * RUN;
            match out.last_mut() {
                // Next to the last run: one longer run.
                Some(last) if last.start + last.values.len() == start => last.values.extend_from_slice(a),
                _ => out.push(Run { start, values: a.to_vec() }),
            }
        }
    }
    out
}

/// Swaps each run's values with the cells they stand for. (A run off the cells, of a map
/// changed outside the history, is left: never a panic.)
fn swap_runs<T>(runs: &mut [Run<T>], cells: &mut [T]) {
    for run in runs {
        if let Some(cells) = cells.get_mut(run.start..run.start + run.values.len()) {
            cells.swap_with_slice(&mut run.values);
        }
    }
}

/// Copies `from`'s cells under each run into `to`.
fn copy_runs<T: Copy>(runs: &[Run<T>], to: &mut [T], from: &[T]) {
    for run in runs {
        let range = run.start..run.start + run.values.len();
        if let (Some(to), Some(from)) = (to.get_mut(range.clone()), from.get(range)) {
            to.copy_from_slice(from);
        }
    }
}

fn runs_bytes<T>(runs: &[Run<T>]) -> usize {
    runs.iter().map(|r| r.values.len() * std::mem::size_of::<T>() + std::mem::size_of::<Run<T>>()).sum()
}

/// Whether two layers differ in anything but their cells' tiles and flips. (Every field is
/// named: a field added to `Layer` fails to compile here until the diff knows of it.)
fn same_but_cells(a: &Layer, b: &Layer) -> bool {
    let Layer { name, visible, locked, collision, opacity, properties, cells, flips: _, offset, parallax, tint, class } =
        a;
    *name == b.name
        && *visible == b.visible
        && *locked == b.locked
        && *collision == b.collision
        && opacity.to_bits() == b.opacity.to_bits()
        && *properties == b.properties
        && cells.len() == b.cells.len()
        && offset.map(f64::to_bits) == b.offset.map(f64::to_bits)
        && parallax.map(f64::to_bits) == b.parallax.map(f64::to_bits)
        && *tint == b.tint
        && *class == b.class
}

fn layer_change(old: &Layer, new: &Layer) -> Option<LayerChange> {
    if !same_but_cells(old, new) {
        return Some(LayerChange::Whole(Box::new(old.clone())));
    }
    let tiles = runs(&old.cells, &new.cells);
    let (old_flips, new_flips) = (old.flips.raw(), new.flips.raw());
    if old_flips.len() != new_flips.len() {
        return Some(LayerChange::Flips { tiles, flips: old.flips.clone() });
    }
    let flips = runs(old_flips, new_flips);
    (!tiles.is_empty() || !flips.is_empty()).then_some(LayerChange::Runs { tiles, flips })
}

impl MapDiff {
    /// What changed from `old` to `new`, holding `old`'s values: swapped into `new`, it gives
    /// `old` back. O(cells) to find (compares of whole runs), O(change) to keep.
    pub fn between(old: &Map, new: &Map) -> MapDiff {
        // Every field is named, so that a field added to the map fails to compile here until
        // the diff keeps it.
        let Map {
            width,
            height,
            tiles,
            layers,
            object_layers,
            groups,
            objects,
            sheets,
            properties,
            class,
            background,
            tile_size,
            tiled,
            tiled_editor,
            next_object_id,
        } = old;
        let layers = if layers.len() != new.layers.len() {
            Layers::List(layers.clone())
        } else {
            let changes: Vec<(usize, LayerChange)> = layers
                .iter()
                .zip(&new.layers)
                .enumerate()
                .filter_map(|(i, (a, b))| Some((i, layer_change(a, b)?)))
                .collect();
            if changes.is_empty() { Layers::Same } else { Layers::Changed(changes) }
        };
        MapDiff {
            layers,
            size: ((*width, *height) != (new.width, new.height)).then_some((*width, *height)),
            tiles: (*tiles != new.tiles).then(|| tiles.clone()),
            object_layers: (*object_layers != new.object_layers).then(|| object_layers.clone()),
            groups: (*groups != new.groups).then(|| groups.clone()),
            objects: (*objects != new.objects).then(|| objects.clone()),
            sheets: (*sheets != new.sheets).then(|| sheets.clone()),
            properties: (*properties != new.properties).then(|| properties.clone()),
            class: (*class != new.class).then(|| class.clone()),
            background: (*background != new.background).then_some(*background),
            tile_size: (*tile_size != new.tile_size).then_some(*tile_size),
            tiled: (*tiled != new.tiled).then_some(*tiled),
            tiled_editor: (*tiled_editor != new.tiled_editor).then(|| tiled_editor.clone()),
            next_object_id: (*next_object_id != new.next_object_id).then_some(*next_object_id),
        }
    }

    /// Whether the edit changed nothing.
    pub fn is_empty(&self) -> bool {
        *self == MapDiff::default()
    }

    /// Puts the values this diff holds into `map` and keeps the ones they replace: `map` becomes
    /// the other side of the edit, and the diff the way back.
    pub fn swap(&mut self, map: &mut Map) {
        fn swap_some<T>(slot: &mut Option<T>, field: &mut T) {
            if let Some(value) = slot {
                std::mem::swap(value, field);
            }
        }
        match &mut self.layers {
            Layers::Same => {}
            Layers::List(list) => std::mem::swap(list, &mut map.layers),
            Layers::Changed(changes) => {
                for (i, change) in changes {
                    let Some(layer) = map.layers.get_mut(*i) else { continue };
                    match change {
                        LayerChange::Runs { tiles, flips } => {
                            swap_runs(tiles, &mut layer.cells);
                            swap_runs(flips, layer.flips.raw_mut());
                        }
                        LayerChange::Flips { tiles, flips } => {
                            swap_runs(tiles, &mut layer.cells);
                            std::mem::swap(flips, &mut layer.flips);
                        }
                        LayerChange::Whole(whole) => std::mem::swap(&mut **whole, layer),
                    }
                }
            }
        }
        if let Some((w, h)) = &mut self.size {
            std::mem::swap(w, &mut map.width);
            std::mem::swap(h, &mut map.height);
        }
        swap_some(&mut self.tiles, &mut map.tiles);
        swap_some(&mut self.object_layers, &mut map.object_layers);
        swap_some(&mut self.groups, &mut map.groups);
        swap_some(&mut self.objects, &mut map.objects);
        swap_some(&mut self.sheets, &mut map.sheets);
        swap_some(&mut self.properties, &mut map.properties);
        swap_some(&mut self.class, &mut map.class);
        swap_some(&mut self.background, &mut map.background);
        swap_some(&mut self.tile_size, &mut map.tile_size);
        swap_some(&mut self.tiled, &mut map.tiled);
        swap_some(&mut self.tiled_editor, &mut map.tiled_editor);
        swap_some(&mut self.next_object_id, &mut map.next_object_id);
    }

    /// Copies into `to` the parts of `from` this diff covers: `to`, equal to `from` outside
    /// them, becomes equal to it. O(change): how the undo history keeps its copy of the last
    /// state up to date without copying the map.
    pub fn copy_covered(&self, to: &mut Map, from: &Map) {
        fn copy<T: Clone>(slot: &Option<T>, to: &mut T, from: &T) {
            if slot.is_some() {
                to.clone_from(from);
            }
        }
        match &self.layers {
            Layers::Same => {}
            Layers::List(_) => to.layers.clone_from(&from.layers),
            Layers::Changed(changes) => {
                for (i, change) in changes {
                    let (Some(to), Some(from)) = (to.layers.get_mut(*i), from.layers.get(*i)) else { continue };
                    match change {
                        LayerChange::Runs { tiles, flips } => {
                            copy_runs(tiles, &mut to.cells, &from.cells);
                            copy_runs(flips, to.flips.raw_mut(), from.flips.raw());
                        }
                        LayerChange::Flips { tiles, .. } => {
                            copy_runs(tiles, &mut to.cells, &from.cells);
                            to.flips.clone_from(&from.flips);
                        }
                        LayerChange::Whole(_) => to.clone_from(from),
                    }
                }
            }
        }
        if self.size.is_some() {
            (to.width, to.height) = (from.width, from.height);
        }
        copy(&self.tiles, &mut to.tiles, &from.tiles);
        copy(&self.object_layers, &mut to.object_layers, &from.object_layers);
        copy(&self.groups, &mut to.groups, &from.groups);
        copy(&self.objects, &mut to.objects, &from.objects);
        copy(&self.sheets, &mut to.sheets, &from.sheets);
        copy(&self.properties, &mut to.properties, &from.properties);
        copy(&self.class, &mut to.class, &from.class);
        copy(&self.background, &mut to.background, &from.background);
        copy(&self.tile_size, &mut to.tile_size, &from.tile_size);
        copy(&self.tiled, &mut to.tiled, &from.tiled);
        copy(&self.tiled_editor, &mut to.tiled_editor, &from.tiled_editor);
        copy(&self.next_object_id, &mut to.next_object_id, &from.next_object_id);
    }

    /// The tilesets the diff holds (when the edit changed them), for a change made to every
    /// state the history reaches (a tileset file written).
    pub fn sheets_mut(&mut self) -> Option<&mut Vec<SpriteSheet>> {
        self.sheets.as_mut()
    }

    /// About how many bytes the diff holds beyond its own size (the history's memory bound
    /// counts it; an edit that changed nothing holds none).
    pub fn approx_bytes(&self) -> usize {
        let layers = match &self.layers {
            Layers::Same => 0,
            Layers::List(list) => list.iter().map(Layer::approx_bytes).sum(),
            Layers::Changed(changes) => changes
                .iter()
                .map(|(_, c)| match c {
                    LayerChange::Runs { tiles, flips } => runs_bytes(tiles) + runs_bytes(flips),
                    LayerChange::Flips { tiles, flips } => runs_bytes(tiles) + flips.bytes(),
                    LayerChange::Whole(layer) => layer.approx_bytes(),
                })
                .sum(),
        };
        let each = |n: usize, size: usize| n * size;
        layers
            + self
                .tiles
                .as_ref()
                .map_or(0, |t| each(t.len(), std::mem::size_of::<crate::core::model::tile::TileKind>()))
            + self
                .objects
                .as_ref()
                .map_or(0, |o| each(o.len(), std::mem::size_of::<crate::core::model::object::MapObject>()))
            + self.sheets.as_ref().map_or(0, |s| each(s.len(), std::mem::size_of::<SpriteSheet>()))
    }
}
