//! MovingAI maps and scenarios, and what a MovingAI (or ASCII) save leaves out.

use sightline::core::Cell;
use sightline::core::format;

use crate::{ascii, assert_same, corpus, load, maps_dir, round_trip, save_text};

#[test]
fn movingai_arena_and_its_scenarios_load() {
    let Some(corpus) = corpus() else { return };
    let dir = corpus.join("movingai");
    let map = load(&dir.join("arena.map"));
    assert_eq!((map.width(), map.height()), (49, 49));
    assert!(!map.rules_at(Cell::new(0, 0)).walkable, "T is impassable");
    assert!(map.rules_at(Cell::new(3, 1)).walkable, ". is passable");
    let scen =
        format::movingai::parse_scenarios(&std::fs::read_to_string(dir.join("arena.map.scen")).unwrap()).unwrap();
    assert_eq!(scen.len(), 160);
    assert_eq!(scen[2].start, Cell::new(1, 13));
    assert!((scen[2].optimal_length - 3.41421).abs() < 1e-9);
    assert_same(&round_trip(&map, "map"), &map, "arena through .map");
    assert_same(&round_trip(&map, "ron"), &map, "arena through .ron");
}

#[test]
fn movingai_says_which_cells_it_cannot_hold_as_they_are() {
    // A closed door, an open door, and tall grass (walkable, but it blocks sight).
    let map = ascii(
        "#####\n\
         #+.\"#\n\
         #'..#\n\
         #####\n",
    );
    let (warnings, text) = save_text(&map, "m.map");
    assert_eq!(
        warnings,
        [
            "2 doors are written as they stand, closed as `@` and open as `.`: MovingAI maps have no doors",
            "1 cell that blocks sight but can be walked through becomes ground `.`, which does not block sight: \
             MovingAI has no such terrain",
        ]
    );
    assert_eq!(
        text,
        "type octile\nheight 4\nwidth 5\nmap\n\
         @@@@@\n\
         @@..@\n\
         @...@\n\
         @@@@@\n"
    );
    // Plain floors and walls lose nothing that matters: no warning.
    assert_eq!(save_text(&ascii("###\n#.#\n###\n"), "plain.map").0, Vec::<String>::new());
}

#[test]
fn ascii_and_movingai_saves_name_the_custom_data_they_leave_out() {
    use sightline::core::PropertyValue;
    let mut map = load(&maps_dir().join("pillars.ron"));
    map.properties.insert("author".into(), PropertyValue::String("Ada".into()));
    map.layers[0].opacity = 0.5;
    let wall = map.tile_named("wall").unwrap();
    map.tiles[usize::from(wall)].properties.insert("material".into(), PropertyValue::String("stone".into()));
    let dir = tempfile::tempdir().unwrap();
    let ascii = format::save(&map, &dir.path().join("m.txt")).unwrap().warnings;
    assert!(ascii.contains(&"the map's custom properties (\"author\") are not kept in ASCII".to_owned()), "{ascii:?}");
    assert!(
        ascii.contains(
            &"layer opacity, tint, offset, parallax and custom properties (layer \"ground\") are not kept in ASCII"
                .to_owned()
        ),
        "{ascii:?}"
    );
    let movingai = format::save(&map, &dir.path().join("m.map")).unwrap().warnings;
    assert!(movingai.iter().any(|w| w.contains("\"author\") are not kept in MovingAI")), "{movingai:?}");
    assert!(
        movingai.contains(&"the custom properties of tile \"wall\" are not kept in MovingAI".to_owned()),
        "{movingai:?}"
    );
    // A map without any says nothing of them, nor of its one object layer.
    let mut plain = load(&maps_dir().join("pillars.ron"));
    assert_eq!(plain.object_layers.len(), 1);
    let warnings = format::save(&plain, &dir.path().join("p.txt")).unwrap().warnings;
    assert!(!warnings.iter().any(|w| w.contains("custom properties") || w.contains("object layers")), "{warnings:?}");
    // A second object layer is named.
    sightline::core::model::layers::add_object_layer(&mut plain, None, "zones").unwrap();
    let warnings = format::save(&plain, &dir.path().join("p.txt")).unwrap().warnings;
    let expected =
        "object layers (\"objects\", \"zones\") are not kept in ASCII: their objects are written on the one grid";
    assert!(warnings.contains(&expected.to_owned()), "{warnings:?}");
}
