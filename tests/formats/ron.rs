//! sightline's own RON format: tile tables as large as tile ids go, and maps written before
//! object layers.

use crate::{ascii, assert_same, load, round_trip, sample_paths, save_text};

#[test]
fn ron_keeps_a_tile_table_as_large_as_tile_ids_go() {
    use sightline::core::model::tile::{Rgb, TileKind};
    // As many tile types as a TileId can number (a few large Tiled tilesets), all asking for the
    // same glyph: every one needs a key of its own.
    let mut map = ascii("...\n");
    let extra = usize::from(sightline::core::TileId::MAX) + 1 - map.tiles.len();
    map.tiles.extend((0..extra).map(|i| TileKind::new(&format!("t{i}"), 'x', Rgb(1, 2, 3), Rgb(0, 0, 0), false, true)));
    map.layers[0].cells[1] = sightline::core::TileId::MAX;
    map.validate().unwrap();
    let back = round_trip(&map, "ron");
    assert_same(&back, &map, "through .ron");
    assert_eq!(back.tiles.len(), 65_536);
}

#[test]
fn a_ron_map_without_object_layers_gets_one_and_saves_as_it_was() {
    // Every bundled RON map with objects was written before object layers: each loads with one
    // layer over the tiles, and saves to the same text.
    let mut checked = 0;
    for path in sample_paths().into_iter().filter(|p| p.extension().is_some_and(|e| e == "ron")) {
        let text = std::fs::read_to_string(&path).unwrap();
        let map = load(&path);
        if map.objects.is_empty() || text.contains("object_layers") {
            continue;
        }
        assert_eq!(map.object_layers.len(), 1, "{}", path.display());
        assert_eq!(map.object_layers[0].name, "objects");
        assert_eq!(map.object_layers[0].tile_layers_below, map.layers.len());
        let (_, saved) = save_text(&map, "out.ron");
        assert!(!saved.contains("object_layers"), "{}:\n{saved}", path.display());
        checked += 1;
    }
    assert!(checked > 0, "no bundled RON map with objects");
}
