//! The sample maps: each loads in every format it ships in and round-trips exactly through
//! each; the built-in map and the generator's are the samples they should be; saves are atomic.

use sightline::core::format;

use crate::{ascii, assert_same, fixture, load, maps_dir, round_trip, sample_paths};

#[test]
fn every_sample_map_loads_in_every_format_it_ships_in() {
    let paths = sample_paths();
    let names: Vec<_> = paths.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for required in ["dungeon.ron", "caves.ron", "outdoor.ron", "pillars.ron", "diagonal.ron", "large.ron"] {
        assert!(names.iter().any(|n| n == required), "maps/{required} is missing");
    }
    assert!(names.iter().any(|n| n.ends_with(".tmx")), "no sample ships as TMX");
    assert!(names.iter().any(|n| n.ends_with(".tmj")), "no sample ships as TMJ");
    for path in &paths {
        let loaded = format::load(path).unwrap_or_else(|e| panic!("{e}"));
        assert!(loaded.warnings.is_empty(), "{}: {:?}", path.display(), loaded.warnings);
    }
    let large = load(&maps_dir().join("large.ron"));
    assert!(large.width() >= 512 && large.height() >= 512);
}

#[test]
fn the_tiled_copies_of_samples_equal_their_ron_originals() {
    let dungeon = load(&maps_dir().join("dungeon.ron"));
    assert_eq!(load(&maps_dir().join("dungeon.tmj")), dungeon);
    assert_eq!(load(&maps_dir().join("dungeon.txt")), dungeon);
    assert_eq!(load(&maps_dir().join("outdoor.tmx")), load(&maps_dir().join("outdoor.ron")));
}

#[test]
fn the_built_in_map_is_the_dungeon_sample() {
    assert_eq!(sightline::core::format::samples::default_map().unwrap(), load(&maps_dir().join("dungeon.ron")));
}

#[test]
fn samples_round_trip_exactly_through_ron_tmx_tmj_and_ascii() {
    for path in sample_paths().iter().filter(|p| p.extension().unwrap() == "ron") {
        let map = load(path);
        for ext in ["ron", "tmx", "tmj", "txt"] {
            assert_same(&round_trip(&map, ext), &map, &format!("{} through .{ext}", path.display()));
        }
    }
}

#[test]
fn tiled_maps_with_layers_sprites_and_custom_tiles_round_trip() {
    let mut map = load(&fixture("external_tileset.tmx"));
    // Things only the editor makes: a second layer, a collision layer, a hidden layer, a glyph tile.
    map.layers.push(sightline::core::Layer::filled("walls", map.len(), 0));
    map.layers[1].collision = true;
    map.layers[1].visible = false;
    map.layers[1].cells[5] = 2;
    let mut lava = sightline::core::TileKind::new(
        "lava",
        '≈',
        sightline::core::Rgb(255, 80, 0),
        sightline::core::Rgb(90, 10, 0),
        false,
        true,
    );
    lava.cost = 9.5;
    lava.properties.insert("damage".into(), sightline::core::PropertyValue::Int(3));
    map.tiles.push(lava);
    map.layers[0].cells[0] = (map.tiles.len() - 1) as u16;
    map.validate().unwrap();
    for ext in ["ron", "tmx", "tmj"] {
        assert_same(&round_trip(&map, ext), &map, &format!("through .{ext}"));
    }
}

#[test]
fn saves_are_atomic_and_leave_no_temp_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.ron");
    let map = ascii("#.#\n");
    format::save(&map, &path).unwrap();
    std::fs::write(dir.path().join("keep.txt"), "x").unwrap();
    format::save(&ascii("...\n"), &path).unwrap();
    let mut names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["a.ron", "keep.txt"]);
    assert_eq!(load(&path), ascii("...\n"));
    // A save into a folder that does not exist fails with the file named, and writes nothing.
    let bad = dir.path().join("missing/b.ron");
    let err = format::save(&map, &bad).unwrap_err().to_string();
    assert!(err.contains("missing/b.ron"), "{err}");
}

#[test]
fn the_large_sample_is_the_dungeon_its_readme_says_and_the_generator_still_makes_it() {
    // maps/README.md: `sightline generate dungeon --width 512 --height 512 --seed 42`. The
    // benchmarks' "rooms" maps come from the same generator, so its output must not drift.
    let generated = sightline::core::generate::dungeon(512, 512, 42).unwrap();
    assert!(generated == load(&maps_dir().join("large.ron")), "the generator no longer makes maps/large.ron");
    // A small one drawn out: rooms in the order placed, each joined to the next by an L-shaped
    // corridor, doors (`+` closed, `'` open) where corridors meet rooms, the player in the first,
    // an item in a room's south-east corner.
    let small = sightline::core::generate::dungeon(30, 14, 2).unwrap();
    let drawn = format::ascii::to_string(&small).unwrap().0;
    let expected = [
        "##############################",
        "####.......#############....##",
        "####.......#############....##",
        "####.......#############....##",
        "####........'......+...#....##",
        "####........'...r..+...+...*##",
        "####.......##......###.#######",
        "####.......###########.#######",
        "######################+#######",
        "####################.....#####",
        "####################..@..#####",
        "####################.....#####",
        "##############################",
        "##############################",
    ];
    assert_eq!(drawn.lines().collect::<Vec<_>>(), expected);
}
