//! Real Tiled maps from ../shared/corpus load and round-trip (skipped when it is absent).

use sightline::core::Cell;
use sightline::core::format;
use sightline::core::model::flip::Flip;
use sightline::core::model::wang::WangKind;

use crate::{assert_same, corpus, load, round_trip, save_text};

#[test]
fn real_tiled_maps_from_the_corpus_load() {
    let Some(corpus) = corpus() else { return };
    let tiled = corpus.join("tiled");
    // desert.tmx: base64+zlib data, an external TSX tileset with spacing and margin.
    let desert = format::load(&tiled.join("desert.tmx")).unwrap();
    assert_eq!((desert.map.width(), desert.map.height()), (40, 40));
    assert_eq!(desert.map.sheets.len(), 1);
    assert_eq!((desert.map.sheets[0].spacing, desert.map.sheets[0].margin), (1, 1));
    assert!(desert.map.layers[0].cells.iter().all(|&t| t != 0));
    for name in ["sewers.tmx", "orthogonal-outside.tmx", "perspective_walls.tmx", "rpg/island.tmx"] {
        let loaded = format::load(&tiled.join(name)).unwrap_or_else(|e| panic!("{e}"));
        let map = &loaded.map;
        assert!(map.width() > 0 && !map.layers.is_empty(), "{name}");
        assert!(!map.sheets.is_empty(), "{name}: no tileset images");
        eprintln!(
            "{name}: {}×{}, {} layers, {} tilesets, {} tile types, {} objects, warnings {:?}",
            map.width(),
            map.height(),
            map.layers.len(),
            map.sheets.len(),
            map.tiles.len() - 1,
            map.objects.len(),
            loaded.warnings
        );
        // And they round-trip through our TMX and TMJ writers.
        for ext in ["tmx", "tmj", "ron"] {
            assert_same(&round_trip(map, ext), map, &format!("{name} through .{ext}"));
        }
    }
    let several = load(&tiled.join("rpg/island.tmx"));
    assert!(several.layers.len() >= 2);
    // Flipped tiles (Tiled's X, Y and Z): orthogonal-outside mirrors 51 tiles, the island turns 4.
    let outside = load(&tiled.join("orthogonal-outside.tmx"));
    let flipped: Vec<(&str, usize)> = outside.layers.iter().map(|l| (l.name.as_str(), l.flips.count())).collect();
    assert_eq!(flipped, [("Ground", 3), ("Fringe", 48)]);
    assert_eq!(outside.flipped_tile(0, Cell::new(10, 10)).map(|(_, f)| f), Some(Flip::HORIZONTAL));
    let (_, turned) = several.flipped_tile(0, Cell::new(22, 18)).unwrap();
    assert_eq!(turned.describe(), "rotated 90° counterclockwise");
    // The island's beach tileset animates its water and surf: 33 tiles (kept by the round trips
    // above, which compare the tile tables).
    assert_eq!(several.tiles.iter().filter(|t| !t.animation.is_empty()).count(), 33);
    // Terrains: desert's TSX and orthogonal-outside each have a corner Wang set of 4 colours
    // (kept by the round trips above, which compare the sheets).
    for (map, name, tiles) in [(&desert.map, "Desert", 48), (&outside, "Terrains", 185)] {
        let sets = &map.sheets[0].wang_sets;
        assert_eq!(sets.len(), 1);
        assert_eq!((sets[0].name.as_str(), sets[0].kind, sets[0].colors.len()), (name, WangKind::Corner, 4));
        assert_eq!(sets[0].tiles.len(), tiles, "{name}");
    }
    assert!(!desert.warnings.iter().any(|w| w.contains("Wang")), "{:?}", desert.warnings);
    // desert's TSX makes seven tiles rare for Tiled's random brush, and tile 45 never picked
    // (probability="0", which the `tiled` crate alone reads as a tile the file does not list).
    let rare: Vec<f32> = desert.map.tiles.iter().map(|t| t.probability).filter(|&p| p != 1.0).collect();
    assert_eq!(rare, [0.01, 0.01, 0.01, 0.01, 0.01, 0.0, 0.01, 0.01]);
    assert_eq!(desert.map.tiles[1 + 45].probability, 0.0);
    // perspective_walls: 64-pixel tiles on a 31-pixel grid, moved 32 pixels left (Tiled's
    // tileoffset), kept by the round trips above.
    let walls = format::load(&tiled.join("perspective_walls.tmx")).unwrap();
    assert_eq!(
        (walls.map.tile_size, walls.map.sheets[0].tile_width, walls.map.sheets[0].offset),
        ([31, 31], 64, [-32, 0])
    );
    assert!(!walls.warnings.iter().any(|w| w.contains("does not keep")), "{:?}", walls.warnings);
}

#[test]
fn a_real_zlib_compressed_tiled_map_saves_zlib_compressed() {
    use sightline::core::model::tiled_settings::{LayerFormat, RenderOrder};
    let Some(corpus) = corpus() else { return };
    let desert = load(&corpus.join("tiled/desert.tmx"));
    assert_eq!(
        (desert.tiled.layer_format, desert.tiled.render_order),
        (LayerFormat::Base64Zlib, RenderOrder::RightDown)
    );
    let (_, text) = save_text(&desert, "desert.tmx");
    assert!(text.contains(r#"<data encoding="base64" compression="zlib">"#), "{}", &text[..text.len().min(2000)]);
    assert_same(&round_trip(&desert, "tmx"), &desert, "desert.tmx saved");
}
