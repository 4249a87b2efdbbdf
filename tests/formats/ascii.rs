//! ASCII maps: the glyphs and the legend mean what docs/formats.md says, and a save says what
//! it cannot keep.

use sightline::core::format;
use sightline::core::model::tile::{STANDARD_FLOOR, STANDARD_WALL};
use sightline::core::{Cell, Map, ObjectKind, Rgb, TileKind};

use crate::{ascii, assert_same, load, round_trip, save_text};

/// A map whose every cell is void (all erased) is lines of spaces in ASCII, which on their own
/// read as an empty file; the save marks it as a map with an empty legend.
#[test]
fn a_map_of_void_saves_as_ascii_and_reads_back() {
    let mut map = ascii("#####\n#...#\n#####\n");
    map.layers[0].cells.fill(sightline::core::model::tile::EMPTY);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("void.txt");
    format::save(&map, &path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "legend:\n---\n     \n \n \n");
    assert_same(&load(&path), &map, "void through .txt");
    // A map with a tile needs no legend.
    map.layers[0].cells[0] = STANDARD_WALL;
    format::save(&map, &path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "#    \n \n \n");
}

#[test]
fn ascii_builtin_glyphs_mean_what_the_readme_says() {
    let map = ascii(
        "#####\n\
         #@+'#\n\
         #~\"g#\n\
         #*! #\n\
         #####\n",
    );
    let r = |x, y| map.rules_at(Cell::new(x, y));
    assert!(r(0, 0).opaque && !r(0, 0).walkable);
    assert!(!r(1, 1).opaque && r(1, 1).walkable, "the player stands on floor");
    assert!(r(2, 1).opaque && !r(2, 1).walkable && r(2, 1).door.is_some());
    assert!(!r(3, 1).opaque && r(3, 1).walkable && r(3, 1).door.is_some());
    assert!(r(1, 2).walkable && r(1, 2).cost == 3.0, "water costs 3");
    assert!(r(2, 2).opaque && r(2, 2).walkable, "tall grass hides but can be walked through");
    assert!(r(3, 3).opaque && !r(3, 3).walkable, "void is like the outside");
    assert!(r(-1, 0).opaque && !r(-1, 0).walkable, "out of bounds is opaque");
    let kinds: Vec<_> = map.objects.iter().map(|o| (o.cell, o.kind.clone())).collect();
    assert_eq!(
        kinds,
        vec![
            (Cell::new(1, 1), ObjectKind::PlayerStart),
            (Cell::new(3, 2), ObjectKind::Monster { glyph: 'g', vision_radius: 8 }),
            (Cell::new(1, 3), ObjectKind::Item),
            (Cell::new(2, 3), ObjectKind::Light { radius: 6 }),
        ]
    );
    assert_eq!(map.objects[1].name, "goblin");
}

#[test]
fn ascii_legend_redefines_and_adds_glyphs() {
    let map = ascii(
        "legend:\n\
         T = tile name=\"old tree\" opaque fg=#22aa22\n\
         = = wall\n\
         D = tile name=\"portcullis\" opaque door=closed toggles=d\n\
         d = tile name=\"raised portcullis\" walkable door=open toggles=D\n\
         g = monster name=\"grey goblin\" vision=3\n\
         ---\n\
         ==D==\n\
         =T.g=\n\
         ==d==\n",
    );
    assert_eq!(map.tile(0, Cell::new(0, 0)), Some(STANDARD_WALL));
    let tree = &map.tiles[usize::from(map.tile(0, Cell::new(1, 1)).unwrap())];
    assert_eq!((tree.name.as_str(), tree.opaque, tree.walkable), ("old tree", true, false));
    assert_eq!(tree.glyph.fg, sightline::core::Rgb(0x22, 0xaa, 0x22));
    let mut m = map.clone();
    let raised = m.tile(0, Cell::new(2, 2));
    assert_eq!(m.toggle_door(Cell::new(2, 0)), raised);
    assert_eq!(map.objects[0].name, "grey goblin");
    assert_eq!(map.objects[0].kind, ObjectKind::Monster { glyph: 'g', vision_radius: 3 });
    assert_same(&round_trip(&map, "txt"), &map, "legend map through .txt");
}

#[test]
fn ascii_keeps_lights_and_items_of_other_settings_under_glyphs_of_their_own() {
    let map = ascii(
        "legend:\nL = light name=torch radius=3\np = item name=potion\no = monster name=orc vision=8 light=2\n---\n\
         ########\n#!L.Lpo#\n########\n",
    );
    assert_eq!(map.objects.last().unwrap().carried_light(), Some(2), "the orc carries a light");
    let (text, warnings) = format::ascii::to_string(&map).unwrap();
    assert_eq!(warnings, Vec::<String>::new());
    // The built-in light keeps '!'; the torches share one new glyph, the potion another; the
    // orc's light is a setting of its glyph.
    assert_eq!(
        text,
        "legend:\n$ = light name=\"torch\" radius=3\n% = item name=\"potion\"\no = monster name=\"orc\" vision=8 light=2\n\
         ---\n########\n#!$.$%o#\n########\n"
    );
    assert_same(&round_trip(&map, "txt"), &map, "lights and items through .txt");
    // A second orc without the first one's light shares its letter: it says so, rather than
    // come back carrying a light; a name's quotes are escaped, its line break is a space.
    let mut two = map.clone();
    let orc = two.objects.last().unwrap().clone();
    let mut plain = sightline::core::MapObject::new(orc.kind.clone(), Cell::new(3, 1)).named("orc");
    plain.properties.clear();
    two.add_object(plain);
    two.objects[0].name = "a \"lamp\"\nhere".into();
    let (text, warnings) = format::ascii::to_string(&two).unwrap();
    assert!(text.contains("o = monster name=\"orc\" vision=8 light=2\n"), "{text}");
    assert!(text.contains("= light name=\"a \\\"lamp\\\" here\" radius=6\n"), "{text}");
    assert_eq!(
        warnings,
        [
            "name \"a \\\"lamp\\\"\\nhere\" is written as \"a \\\"lamp\\\" here\": an ASCII legend holds no line breaks in a name",
            "monster \"orc\" shares glyph 'o' with another of other settings (name, vision, light): it is written as that one",
            "objects are listed in reading order (ASCII keeps no other order)",
        ]
    );
    let back = format::ascii::parse(&text).unwrap();
    assert!(back.objects.iter().any(|o| o.name == "a \"lamp\" here"), "{:?}", back.objects);
}

/// Names keep their quotes and backslashes through an ASCII save: each is escaped (`\"`, `\\`).
/// A name ending in a backslash was written `name="\"`, whose last quote read as an escaped
/// one, so the save could not be read back (the fuzzer's round trip found it). A backslash
/// before anything else is itself, as it always was.
#[test]
fn names_with_quotes_and_backslashes_read_back_as_they_were() {
    let names = ["\\", "a\\", "\"", "say \"hi\"", "\\\"", "c:\\maps\\", "\\\\", "q\"\\"];
    let mut map = Map::new_standard(names.len() as u32 + 2, 3, STANDARD_FLOOR).unwrap();
    let first = map.tiles.len();
    for (i, name) in names.iter().enumerate() {
        let glyph = char::from(b'A' + i as u8);
        map.tiles.push(TileKind::new(name, glyph, Rgb(1, 2, 3), Rgb(0, 0, 0), false, true));
        map.layers[0].cells[i + 1] = (first + i) as u16;
        let light = sightline::core::MapObject::new(ObjectKind::Light { radius: 3 }, Cell::new(i as i32 + 1, 2));
        map.add_object(light.named(name));
    }
    map.validate().unwrap();
    let (warnings, text) = save_text(&map, "names.txt");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(text.contains(r#"name="c:\\maps\\""#), "{text}");
    assert_same(&map, &round_trip(&map, "txt"), "through ASCII");
    // Written by hand, a backslash before a letter stays.
    let map = ascii("legend:\nT = tile name=\"a\\b\"\n---\nT\n");
    assert_eq!(map.tiles.iter().find(|t| t.glyph.ch == 'T').unwrap().name, "a\\b");
}

/// The player's torch (the player start's `light`), vision and name are legend settings of `@`; a
/// second player start of other settings is written as the first, and says so.
#[test]
fn ascii_keeps_the_players_torch_and_name() {
    let map = ascii("legend:\n@ = player name=hero light=3 vision=0\n---\n#####\n#@..#\n#####\n");
    let start = map.objects.iter().find(|o| o.kind == sightline::core::ObjectKind::PlayerStart).unwrap();
    assert_eq!((start.name.as_str(), start.carried_light(), start.player_vision()), ("hero", Some(3), Some(0)));
    let (text, warnings) = format::ascii::to_string(&map).unwrap();
    assert_eq!(warnings, Vec::<String>::new());
    assert_eq!(text, "legend:\n@ = player name=\"hero\" light=3 vision=0\n---\n#####\n#@..#\n#####\n");
    assert_same(&round_trip(&map, "txt"), &map, "the player's torch through .txt");
    // A plain player start writes no legend line.
    let (plain, _) = format::ascii::to_string(&ascii("#@#\n")).unwrap();
    assert_eq!(plain, "#@#\n");
    let mut two = map.clone();
    two.add_object(
        sightline::core::MapObject::new(sightline::core::ObjectKind::PlayerStart, Cell::new(3, 1)).named("player"),
    );
    let (_, warnings) = format::ascii::to_string(&two).unwrap();
    assert_eq!(
        warnings,
        ["player start \"player\" has other settings (name, light, vision) than the first: it is written as that one"]
    );
    let err = format::ascii::parse("legend:\n@ = player light=bright\n---\n@\n").unwrap_err().to_string();
    assert!(err.contains("light=\"bright\" is not a valid number"), "{err}");
    // A torch of 3.5 (a Float from Tiled) is written as 3, and it says so; 2.0 is just 2.
    let mut half = map.clone();
    let start = half.objects.iter_mut().find(|o| o.kind == sightline::core::ObjectKind::PlayerStart).unwrap();
    start.properties.insert("light".into(), sightline::core::PropertyValue::Float(3.5));
    start.properties.insert("vision".into(), sightline::core::PropertyValue::Float(2.0));
    let (text, warnings) = format::ascii::to_string(&half).unwrap();
    assert!(text.starts_with("legend:\n@ = player name=\"hero\" light=3 vision=2\n"), "{text}");
    assert_eq!(warnings, ["object \"hero\": its light 3.5 is written as 3 (ASCII's settings are whole cells)"]);
}

#[test]
fn ragged_ascii_rows_are_padded_with_void() {
    let map = ascii("###\n#.\n###\n");
    assert_eq!(map.width(), 3);
    assert_eq!(map.tile(0, Cell::new(2, 1)), Some(0));
    assert_eq!(map.tile(0, Cell::new(1, 1)), Some(STANDARD_FLOOR));
}

#[test]
fn ascii_names_the_tiles_it_cannot_keep_in_one_warning() {
    let map = ascii("...\n");
    let tile = |i: usize| {
        let mut t = sightline::core::TileKind::new(
            &format!("sand {i}"),
            'x',
            sightline::core::Rgb(200, 180, 90),
            sightline::core::Rgb(0, 0, 0),
            false,
            true,
        );
        t.properties.insert("dune".into(), sightline::core::PropertyValue::Int(i as i64));
        t
    };
    for n in [1, 4, 40] {
        let mut many = map.clone();
        let first = many.tiles.len();
        many.tiles.extend((0..n).map(tile));
        many.layers[0].cells[0] = first as u16;
        many.validate().unwrap();
        let warnings = save_text(&many, "m.txt").0;
        let expected = match n {
            1 => "tile \"sand 0\": its sprite, animation and custom properties are not kept in ASCII".to_owned(),
            4 => "4 tiles (\"sand 0\", \"sand 1\", \"sand 2\", \"sand 3\"): their sprites, animations and custom properties are \
                  not kept in ASCII"
                .to_owned(),
            _ => "40 tiles (\"sand 0\", \"sand 1\", \"sand 2\" and 37 more): their sprites, animations and custom properties are \
                  not kept in ASCII"
                .to_owned(),
        };
        // All but the first sand give up their glyph 'x', which the first has.
        let moved = (n > 1).then(|| format!("{} tile types are written with other glyphs than their own", n - 1));
        assert_eq!(warnings.len(), 1 + usize::from(moved.is_some()), "{n} tiles: {warnings:?}");
        assert!(warnings.contains(&expected), "{n} tiles: {warnings:?}");
        if let Some(moved) = moved {
            assert!(warnings.iter().any(|w| w.starts_with(&moved) && w.contains(r#""sand 1" as "#)), "{warnings:?}");
        }
    }
}

#[test]
fn ascii_keeps_the_tiles_in_use_when_a_tileset_has_more_types_than_glyphs() {
    use sightline::core::model::tile::{Door, Rgb, TileKind};
    // A 25 000-tile tileset (more than ASCII's ~21 000 glyphs), of which the map uses two: a plain
    // tile and a closed door whose open counterpart no cell uses yet.
    let mut map = ascii("....\n");
    let first = map.tiles.len();
    for i in 0..25_000 {
        map.tiles.push(TileKind::new(&format!("tile {i}"), 'x', Rgb(1, 2, 3), Rgb(0, 0, 0), false, true));
    }
    let (closed, open) = (first + 7, first + 24_000);
    map.tiles[closed] = TileKind::new("gate", 'x', Rgb(9, 9, 9), Rgb(0, 0, 0), true, false);
    map.tiles[closed].door = Some(Door { open: false, toggles_to: open as u16 });
    map.tiles[open] = TileKind::new("open gate", 'x', Rgb(9, 9, 9), Rgb(0, 0, 0), false, true);
    map.tiles[open].door = Some(Door { open: true, toggles_to: closed as u16 });
    map.layers[0].cells[0] = (first + 3) as u16;
    map.layers[0].cells[1] = closed as u16;
    map.validate().unwrap();
    let (warnings, _) = save_text(&map, "big.txt");
    assert_eq!(warnings[0], "24997 tile types that no cell uses are not kept: ASCII has too few glyphs for all 25000");
    // The three kept share glyph 'x': two are written with others.
    assert!(warnings[1].starts_with("2 tile types are written with other glyphs than their own"), "{warnings:?}");
    assert_eq!(warnings.len(), 2);
    let back = round_trip(&map, "txt");
    let name = |m: &Map, x: i32| m.tiles[usize::from(m.top_tile(Cell::new(x, 0)).unwrap().1)].name.clone();
    assert_eq!((name(&back, 0), name(&back, 1), name(&back, 2)), ("tile 3".into(), "gate".into(), "floor".into()));
    // The gate still opens into its counterpart, kept though no cell uses it.
    let gate = &back.tiles[usize::from(back.top_tile(Cell::new(1, 0)).unwrap().1)];
    assert_eq!(back.tiles[usize::from(gate.door.unwrap().toggles_to)].name, "open gate");

    // A map whose cells use more types than there are glyphs cannot be written: an error, no file.
    let mut every = sightline::core::Map::new_standard(200, 125, STANDARD_FLOOR).unwrap();
    let first = every.tiles.len();
    every
        .tiles
        .extend((0..25_000).map(|i| TileKind::new(&format!("t{i}"), 'x', Rgb(1, 2, 3), Rgb(0, 0, 0), false, true)));
    for (i, c) in every.layers[0].cells.iter_mut().enumerate() {
        *c = (first + i) as u16;
    }
    every.validate().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let err = format::save(&every, &dir.path().join("every.txt")).unwrap_err().to_string();
    assert!(err.contains("uses 25000 tile types, more than ASCII has glyphs for"), "{err}");
    assert!(!dir.path().join("every.txt").exists());
}

/// A door whose counterpart is drawn `"` (tall grass's glyph) is written `toggles=\"`: a bare
/// quote opened a quote the legend line never closed, and the save could not be read back (the
/// fuzzer's round trip found it).
#[test]
fn a_door_toggling_to_a_quote_glyph_saves_and_reads_back() {
    let map = ascii("legend:\nD = tile name=\"gate\" opaque door=closed toggles=\\\"\n---\n#####\n#D\".#\n#####\n");
    let gate = map.tiles.iter().find(|t| t.name == "gate").expect("the gate");
    let to = usize::from(gate.door.expect("a door").toggles_to);
    assert_eq!(map.tiles[to].glyph.ch, '"');
    let (_, text) = save_text(&map, "gate.txt");
    assert!(text.contains("toggles=\\\""), "{text}");
    assert_same(&map, &round_trip(&map, "txt"), "through ASCII");
}

/// A monster whose glyph is not a letter (a legend can make `-` one) keeps its legend line in a
/// save: written bare, the glyph read back as unknown (the fuzzer's round trip found it).
#[test]
fn a_monster_of_a_glyph_no_letter_keeps_its_legend_line() {
    let map = ascii("legend:\n- = monster\n---\n#####\n#.-.#\n#####\n");
    assert!(matches!(map.objects[0].kind, ObjectKind::Monster { glyph: '-', .. }), "{:?}", map.objects[0].kind);
    let (_, text) = save_text(&map, "monster.txt");
    assert!(text.contains("- = monster"), "{text}");
    assert_same(&map, &round_trip(&map, "txt"), "through ASCII");
}

/// A monster drawn with a glyph the file gives a tile or a built-in object (a RON monster drawn
/// `'` among open doors, or `@` beside the player) is written with a free glyph, and says so: its
/// legend line turned the open doors into monsters, and the save could not be read back (the
/// fuzzer's round trip found it). Where nothing else uses the glyph, it keeps it.
#[test]
fn a_monster_drawn_as_a_tile_is_written_with_a_free_glyph() {
    let mut map = ascii("#######\n#.g'.h#\n#@....#\n#######\n");
    let monster = |glyph| ObjectKind::Monster { glyph, vision_radius: 5 };
    let goblin = map.objects.iter().position(|o| o.name == "goblin").unwrap();
    let dwarf = map.objects.iter().position(|o| o.name == "dwarf").unwrap();
    map.objects[goblin].kind = monster('\'');
    map.objects[dwarf].kind = monster('@');
    let (warnings, text) = save_text(&map, "clash.txt");
    let back = round_trip(&map, "txt");
    assert_eq!(back.tiles[usize::from(back.top_tile(Cell::new(3, 1)).unwrap().1)].name, "open door", "{text}");
    let kinds: Vec<(&str, &ObjectKind)> = back.objects.iter().map(|o| (o.name.as_str(), &o.kind)).collect();
    let [
        ("goblin", ObjectKind::Monster { glyph: g, vision_radius: 5 }),
        ("dwarf", ObjectKind::Monster { glyph: d, vision_radius: 5 }),
        ("player", ObjectKind::PlayerStart),
    ] = kinds[..]
    else {
        panic!("{kinds:?}\n{text}");
    };
    assert!(![*g, *d].iter().any(|c| ['\'', '@', '.', '#'].contains(c) || c.is_ascii_alphabetic()), "{g:?} {d:?}");
    assert_ne!(g, d);
    for (name, own) in [("goblin", "'\\''"), ("dwarf", "'@'")] {
        assert!(
            warnings.iter().any(|w| w.contains(&format!("monster \"{name}\" is written with glyph"))
                && w.contains(&format!("its own, {own},"))),
            "{warnings:?}"
        );
    }

    // Nothing on this map is drawn `'`: the monster keeps its glyph, and the round trip is exact.
    let map = ascii("legend:\n' = monster name=\"imp\"\n---\n#####\n#.'.#\n#####\n");
    let (warnings, _) = save_text(&map, "imp.txt");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_same(&map, &round_trip(&map, "txt"), "through ASCII");
}
