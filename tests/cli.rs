//! The command line as a script would use it: output, exit codes, errors printed once.

use std::path::Path;
use std::process::Command;

fn sightline(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sightline")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn map(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("maps").join(name).display().to_string()
}

#[test]
fn info_reports_size_tiles_and_objects() {
    let (code, out, err) = sightline(&["info", &map("dungeon.ron")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("size      63×31"), "{out}");
    assert!(out.contains("closed door"), "{out}");
    assert!(out.contains("\n  #1    player   player           at 3,2\n"), "{out}");
    let (code, out, _) = sightline(&["info", &map("pillars.ron"), "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["width"], 41);
    assert_eq!(v["objects"].as_array().unwrap().len(), 3);
}

#[test]
fn convert_writes_the_format_the_extension_names() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("d.tmx");
    let (code, out, err) = sightline(&["convert", &map("dungeon.ron"), out_path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("d.tmx") && out.contains("d-glyphs.png"), "{out}");
    let back = dir.path().join("back.txt");
    let (code, _, err) = sightline(&["convert", out_path.to_str().unwrap(), back.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(back).unwrap(), std::fs::read_to_string(map("dungeon.txt")).unwrap());
}

#[test]
fn a_bad_file_exits_1_with_one_message_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("broken.tmj");
    std::fs::write(&bad, "{\"width\": 3,").unwrap();
    let (code, out, err) = sightline(&["info", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: ") && err.contains("broken.tmj") && err.contains("JSON"), "{err}");
    let (code, _, err) = sightline(&["info", "/no/such/map.ron"]);
    assert_eq!(code, 1);
    assert!(err.contains("/no/such/map.ron"), "{err}");
    // The system's reason, once (it was printed twice: as the error and as its source).
    let reason = std::fs::read("/no/such/map.ron").unwrap_err().to_string();
    assert_eq!(err.matches(reason.as_str()).count(), 1, "{err}");
    // A folder is named as one (it was "unknown map format").
    let (code, _, err) = sightline(&["info", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("this is a folder, not a map file"), "{err}");
    // A missing file without a map's extension (a mistyped name) is missing, not a format question.
    let (code, _, err) = sightline(&["info", "/no/such/dungeon"]);
    assert_eq!(code, 1);
    assert_eq!(err.trim(), format!("error: /no/such/dungeon: {}", std::fs::read("/no/such/dungeon").unwrap_err()));
}

/// `audit cache` at a radius whose cache would not fit in memory says so, instead of aborting
/// on the allocation.
#[test]
fn audit_cache_refuses_a_cache_too_large() {
    let (code, out, err) = sightline(&[
        "audit",
        "cache",
        &map("large.ron"),
        "--algorithm",
        "mrpas",
        "--radius",
        "5000",
        "--toggle",
        "3,3",
    ]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("radius 5000") && err.contains("give a smaller radius"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    let (code, _, err) = sightline(&["convert", "only-one-argument.ron"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn generate_writes_a_map_that_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("caves.ron");
    let (code, _, err) =
        sightline(&["generate", "caves", path.to_str().unwrap(), "--width", "30", "--height", "20", "--seed", "9"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = sightline(&["info", path.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("30×20"), "{out}");
}

#[test]
fn fov_prints_the_view_as_ascii_or_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("room.txt");
    std::fs::write(&path, "#######\n#.....#\n#..#..#\n#.....#\n#######\n").unwrap();
    let p = path.to_str().unwrap();
    let (code, out, err) = sightline(&["fov", p, "--algorithm", "symmetric", "--origin", "1,2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "#######\n#.....#\n#@.#\n#.....#\n#######\n");
    let (code, out, _) =
        sightline(&["fov", p, "--algorithm", "circle", "--origin", "3,1", "--radius", "1", "--format", "json"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), r#"{"visible":[[3,0],[2,1],[3,1],[4,1],[3,2]]}"#);
    let (code, out, _) = sightline(&[
        "fov",
        p,
        "--algorithm",
        "circle",
        "--origin",
        "3,1",
        "--radius",
        "1",
        "--no-light-walls",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), r#"{"visible":[[2,1],[3,1],[4,1]]}"#);
    let (code, out, _) = sightline(&["fov", p, "--algorithm", "all", "--origin", "1,1"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 10, "{out}");
    assert!(out.contains("mrpas") && out.contains("µs per call"));
    let (code, _, err) = sightline(&["fov", p, "--algorithm", "nope", "--origin", "1,1"]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown algorithm \"nope\"") && err.contains("symmetric"), "{err}");
    let (code, _, err) = sightline(&["fov", p, "--origin", "99,1"]);
    assert_eq!(code, 1);
    assert!(err.contains("outside"), "{err}");
}

#[test]
fn path_prints_the_route_or_says_there_is_none() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.txt");
    std::fs::write(&path, "#######\n#..#..#\n#..+..#\n#######\n").unwrap();
    let p = path.to_str().unwrap();
    let (code, _, err) = sightline(&["path", p, "--from", "1,1", "--to", "5,2"]);
    assert_eq!(code, 1);
    assert!(err.contains("no path from 1,1 to 5,2"), "{err}");
    let (code, out, err) =
        sightline(&["path", p, "--from", "1,1", "--to", "5,2", "--open-doors", "0", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["length"], 4);
    assert!((v["cost"].as_f64().unwrap() - (3.0 + std::f64::consts::SQRT_2)).abs() < 1e-6);
    assert_eq!(v["path"][0], serde_json::json!([1, 1]));
    let (code, out, _) = sightline(&["path", p, "--from", "1,1", "--to", "5,2", "--open-doors", "0", "--moves", "4"]);
    assert_eq!(code, 0);
    assert!(out.contains("cost 5.0000, 5 steps"), "{out}");
}

#[test]
fn path_runs_movingai_scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/movingai");
    if !dir.is_dir() {
        eprintln!("skipped: ../shared/corpus/movingai is absent");
        return;
    }
    let map = dir.join("arena.map");
    let scen = dir.join("arena.map.scen");
    let (code, out, err) = sightline(&["path", map.to_str().unwrap(), "--scen", scen.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("160 of 160 scenarios match"), "{out}");
    // With corner cutting allowed the optimal lengths no longer hold: exit 1, mismatches listed.
    let (code, out, _) =
        sightline(&["path", map.to_str().unwrap(), "--scen", scen.to_str().unwrap(), "--diagonal", "always"]);
    assert_eq!(code, 1);
    assert!(out.contains("expected"), "{out}");
}

/// A scenario file written for another map, or a row whose goal lies off the map, is bad input
/// (named by file and line), not a path to report missing.
#[test]
fn path_rejects_scenarios_of_another_map() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("small.map");
    std::fs::write(&map, "type octile\nheight 2\nwidth 3\nmap\n...\n...\n").unwrap();
    let scen = dir.path().join("small.map.scen");
    let run = |rows: &str| {
        std::fs::write(&scen, format!("version 1\n{rows}")).unwrap();
        sightline(&["path", map.to_str().unwrap(), "--scen", scen.to_str().unwrap()])
    };
    let (code, out, err) = run("0\tsmall.map\t3\t2\t0\t0\t2\t1\t2.41421356\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 of 1 scenarios match"), "{out}");
    let (code, _, err) = run("0\tsmall.map\t3\t2\t0\t0\t2\t1\t2.41421356\n0\tsmall.map\t3\t2\t0\t0\t9\t9\t12\n");
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("small.map.scen: line 3: the goal 9,9 lies outside the 3×2 map"), "{err}");
    let (code, _, err) = run("0\tarena.map\t49\t49\t0\t0\t2\t1\t2.41421356\n");
    assert_eq!(code, 1);
    assert!(err.contains("line 2: the scenario is for a 49×49 map (arena.map), and this map is 3×2"), "{err}");
}

#[test]
fn audit_symmetry_prints_a_row_per_algorithm_or_json() {
    let pillars = map("pillars.ron");
    let (code, out, err) = sightline(&["audit", "symmetry", &pillars, "--radius", "8"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2 + 9, "{out}");
    let row =
        |name: &str| out.lines().find(|l| l.starts_with(name)).unwrap().split_whitespace().nth(2).unwrap().to_owned();
    assert_eq!(row("symmetric"), "0");
    assert_eq!(row("permissive"), "0");
    assert_ne!(row("shadowcast"), "0");
    let (code, out, _) =
        sightline(&["audit", "symmetry", &pillars, "--algorithm", "ray", "--radius", "8", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let (pairs, violations) = (v["pairs"].as_f64().unwrap(), v["violations"].as_f64().unwrap());
    assert!(violations > 0.0 && (v["rate"].as_f64().unwrap() - violations / pairs).abs() < 1e-12);
    assert!(v["worst"][0].as_array().unwrap().len() == 3);
}

#[test]
fn path_from_a_wall_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.txt");
    std::fs::write(&path, "#####\n#...#\n#####\n").unwrap();
    let (code, _, err) = sightline(&["path", path.to_str().unwrap(), "--from", "0,0", "--to", "3,1"]);
    assert_eq!(code, 1);
    assert!(err.contains("--from 0,0 cannot be walked on"), "{err}");
}

#[test]
fn audit_cache_reports_the_three_regions() {
    let dungeon = map("dungeon.ron");
    // (11, 3) is the start room's east door.
    let (code, out, err) =
        sightline(&["audit", "cache", &dungeon, "--toggle", "11,3", "--radius", "8", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let n = |k: &str| v[k].as_u64().unwrap();
    assert!(n("changed") <= n("candidates") && n("candidates") < n("conservative"), "{out}");
    assert!(n("changed") > 0 && n("bytes") > 0 && v["update_us"].as_f64().is_some());
    let (code, out, _) = sightline(&["audit", "cache", &dungeon, "--toggle", "11,3"]);
    assert_eq!(code, 0);
    assert!(out.contains("conservative") && out.contains("candidates") && out.contains("changed"), "{out}");
}

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    // `sightline fov … | head -c 100`: every cell of a 512² map as JSON is megabytes, far past
    // the pipe's buffer, so the writes after the reader has gone fail.
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["fov", &map("large.ron"), "--origin", "40,32", "--algorithm", "circle", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0; 100];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    // (Dropping the read end closes the pipe.)
    let out = child.wait_with_output().unwrap();
    assert!(String::from_utf8_lossy(&head).starts_with("{\"visible\":[["));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.is_empty(), "{err}");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn info_lists_a_tiles_animation() {
    let (code, out, err) = sightline(&["info", "tests/fixtures/animated.tmx"]);
    assert_eq!(code, 0, "{err}");
    // The second frame of tile 2 names no tile: the load warns, and one frame is left.
    assert!(err.contains("an animation frame shows tile 9"), "{err}");
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("animated (")).collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].ends_with("walkable, animated (3 frames, 400 ms)"), "{}", lines[0]);
    assert!(lines[1].ends_with("walkable, animated (1 frame, 80 ms)"), "{}", lines[1]);
    let (_, json, _) = sightline(&["info", "tests/fixtures/animated.tmx", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let frames = &json["tiles"][0]["animation"];
    assert_eq!(frames, &serde_json::json!([{"tile": 1, "ms": 100}, {"tile": 2, "ms": 250}, {"tile": 4, "ms": 50}]));
}

#[test]
fn info_lists_objects_by_id_with_the_objects_their_properties_name() {
    let (code, out, err) = sightline(&["info", "tests/fixtures/object_ids.tmx"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "\n  #3    player   start            at 0,0\n  \
             #8    Gate     gate             at 4,2\n  \
             #11   Lever    lever            at 1,3      opens → #8 gate (Gate)\n"
        ),
        "{out}"
    );
    let (_, json, _) = sightline(&["info", "tests/fixtures/object_ids.tmx", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["objects"][2]["id"], 11);
    assert_eq!(json["objects"][2]["properties"], serde_json::json!([{"name": "opens", "type": "object", "value": 8}]));
}

#[test]
fn info_lists_object_layers_in_their_place_among_the_tile_layers() {
    let (code, out, err) = sightline(&["info", "tests/fixtures/object_layers.tmx"]);
    assert_eq!(code, 0, "{err}");
    let expected = "layers    6 (2 tile, 4 object), bottom first
  under                   object layer, 1 object, colour #ff0000
  ground
  spawns                  object layer, 2 objects, hidden, locked, opacity 50%, wave = 2 (int)
  roofs
  notes                   object layer, 0 objects
  zones                   object layer, 1 object
";
    assert!(out.contains(expected), "{out}");
    assert!(out.contains("  #5    monster  goblin           at 2,1      on spawns\n"), "{out}");
    let (_, json, _) = sightline(&["info", "tests/fixtures/object_layers.tmx", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["object_layers"][1]["name"], "spawns");
    assert_eq!(json["object_layers"][1]["tile_layers_below"], 1);
    assert_eq!(json["objects"][2]["layer"], 1);
}

#[test]
fn info_names_the_file_a_tileset_was_read_from() {
    let (code, out, err) = sightline(&["info", "tests/fixtures/external_tileset.tmx"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\n                          file tests/fixtures/tiny.tsx\n"), "{out}");
}

#[test]
fn info_lists_a_tilesets_wang_sets() {
    let (code, out, err) = sightline(&["info", "tests/fixtures/terrain.tmx"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\n                          Wang set paths (edge: road, river; 2 tiles)\n"), "{out}");
}

#[test]
fn info_says_how_a_tileset_draws_its_tiles_when_it_is_not_tileds_default() {
    let (code, out, err) = sightline(&["info", "tests/fixtures/tile_drawing.tmx"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "\n                          drawn at the grid's size, fitted keeping their aspect, tile objects aligned \
             center, editor transformations flip across, turn, preferring none\n"
        ),
        "{out}"
    );
    let (_, plain, _) = sightline(&["info", "tests/fixtures/objects.tmx"]);
    assert!(!plain.contains("drawn at") && !plain.contains("aligned"), "{plain}");
}

#[test]
fn info_names_each_layers_groups_and_lists_the_groups() {
    let (code, out, err) = sightline(&["info", "tests/fixtures/groups.tmx"]);
    assert_eq!(code, 0, "{err}");
    for line in [
        "  trunks                  in forest\n",
        "  leaves                  in forest/canopy, opacity 50%\n",
        "  birds                   object layer, 1 object, in forest/canopy\n",
        "  roof\n",
        "groups    3, outermost first\n",
        "  forest                  3 layers, locked, opacity 50%, tint #ff8000, offset 4, -2 px, season = autumn (string)\n",
        "  canopy                  2 layers, in forest, hidden, parallax 0.5 × 0.5\n",
        "  empty                   0 layers, in forest\n",
    ] {
        assert!(out.contains(line), "{line:?} in\n{out}");
    }
    let (code, json, _) = sightline(&["info", "tests/fixtures/groups.tmx", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["groups"][1]["name"], "canopy");
    assert_eq!((v["groups"][1]["parent"].as_u64(), v["groups"][1]["start"].as_u64()), (Some(0), Some(2)));
    assert_eq!(v["groups"][0]["locked"], true);
}

#[test]
fn info_lists_each_layers_flags_opacity_and_properties_and_the_maps_properties() {
    use sightline::core::{PropertyValue, Rgba};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("layers.ron");
    let mut pillars = sightline::core::format::load(Path::new(&map("pillars.ron"))).unwrap().map;
    let mut shadows = pillars.layers[0].clone();
    shadows.name = "shadows".into();
    (shadows.visible, shadows.locked, shadows.collision, shadows.opacity) = (false, true, true, 0.49);
    shadows.properties.insert("depth".into(), PropertyValue::Int(3));
    for i in [3, 4] {
        shadows.set(i, shadows.cells[i], sightline::core::model::flip::Flip::VERTICAL);
    }
    (shadows.tint, shadows.offset) = (Some(Rgba(0, 0, 255, 255)), [16.0, -8.0]);
    pillars.layers.push(shadows);
    pillars.properties.insert("tint".into(), PropertyValue::Color(Some(Rgba(255, 32, 0, 128))));
    let mut marks = sightline::core::ObjectLayer::new("marks", 2);
    marks.parallax = [0.5, 1.0];
    pillars.object_layers.push(marks);
    sightline::core::format::save(&pillars, &path).unwrap();
    let (code, out, err) = sightline(&["info", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let line = out.lines().find(|l| l.contains("shadows")).unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.ends_with(
            "hidden, locked, collision, opacity 49%, 2 tiles flipped or turned, tint #0000ff, offset 16, -8 px, \
             depth = 3 (int)"
        ),
        "{line}"
    );
    assert!(out.contains("\n  marks                   object layer, 0 objects, parallax 0.5 × 1\n"), "{out}");
    assert!(out.contains("\nproperties 1\n  tint                    #80ff2000 (color)\n"), "{out}");
    let (_, json, _) = sightline(&["info", path.to_str().unwrap(), "--format", "json"]);
    assert!(json.contains("\"opacity\": 0.49,"), "{json}");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["properties"], serde_json::json!([{"name": "tint", "type": "color", "value": "#80ff2000"}]));
    assert_eq!(json["layers"][1]["properties"], serde_json::json!([{"name": "depth", "type": "int", "value": 3}]));
    assert_eq!((json["layers"][0]["flipped"].as_u64(), json["layers"][1]["flipped"].as_u64()), (Some(0), Some(2)));
    assert_eq!(
        (&json["layers"][1]["tint"], &json["layers"][1]["offset"]),
        (&"#0000ff".into(), &serde_json::json!([16.0, -8.0]))
    );
    let marks = json["object_layers"].as_array().unwrap().iter().find(|l| l["name"] == "marks").unwrap();
    assert_eq!(marks["parallax"], serde_json::json!([0.5, 1.0]));
}

#[test]
fn info_gives_a_maps_class_and_background_colour() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("level.tmx");
    std::fs::write(
        &path,
        r##"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" class="level" orientation="orthogonal" width="1" height="1" tilewidth="8" tileheight="8" backgroundcolor="#3a6ea5">
 <layer id="1" name="ground" width="1" height="1"><data encoding="csv">0</data></layer>
</map>"##,
    )
    .unwrap();
    let (code, out, err) = sightline(&["info", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\nclass     level\nbackground #3a6ea5\n"), "{out}");
    let (_, json, _) = sightline(&["info", path.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!((&v["class"], &v["background"]), (&serde_json::json!("level"), &serde_json::json!("#3a6ea5")));
}

/// A light a monster or the player carries is drawn as its carrier and named after it.
#[test]
fn lights_draws_a_carried_light_as_its_carrier() {
    let dir = tempfile::tempdir().unwrap();
    let hall = dir.path().join("hall.txt");
    std::fs::write(&hall, "legend:\no = monster light=1\n@ = player light=1\n---\n#######\n#o...@#\n#######\n")
        .unwrap();
    let (code, out, err) = sightline(&["lights", hall.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        " #   #\n#o. .@#\n #   #\nlight carried by monster 'o' #1 at 1,1 (radius 1): 5 cells lit\n\
         light carried by the player #2 at 5,1 (radius 1): 5 cells lit\n2 lights (shadowcast): 10 cells lit\n"
    );
}

#[test]
fn lights_draws_what_the_lights_light_and_what_a_viewer_sees_by_them() {
    let dir = tempfile::tempdir().unwrap();
    let hall = dir.path().join("hall.txt");
    std::fs::write(
        &hall,
        "legend:\n! = light radius=3\n---\n#######\n#.....#########\n#..!..'.......#\n#.....#########\n#######\n",
    )
    .unwrap();
    let hall = hall.to_str().unwrap();
    let (code, out, err) = sightline(&["lights", hall]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        " #####\n .....\n#..!..'\n .....\n #####\nlight #1 at 3,2 (radius 3): 27 cells lit\n1 light (shadowcast): 27 cells lit\n"
    );
    // From the corridor's far end with a vision of 2: the lit hall as far as the corridor lets
    // the view spread into it, its far wall (lit on the face turned to the viewer), and the
    // corridor's last cells; its dark middle is not seen.
    let (code, out, err) = sightline(&["lights", hall, "--from", "13,2", "--vision", "2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "\n .....      ###\n#.....'    ..@#\n .....      ###\n\nshadowcast from 13,2, vision 2: 27 cells seen, 10 in its own view, 17 by light\n"
    );
    let (code, out, _) = sightline(&["lights", hall, "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["lights"][0]["radius"], 3);
    assert_eq!(v["lit"].as_array().unwrap().len(), 27);
    let (code, _, err) = sightline(&["lights", hall, "--from", "40,2"]);
    assert_eq!(code, 1);
    assert!(err.contains("--from 40,2 is outside the 15×5 map"), "{err}");
}

/// `play` plays the preview pane's game headless: the player walks to a closed door and opens
/// it (the east room comes into view, but for the corners the door frame hides), then steps
/// back west, and the east room's far corners are remembered, not seen.
#[test]
fn play_walks_opens_a_door_and_reports_what_the_player_knows() {
    let dir = tempfile::tempdir().unwrap();
    let hall = dir.path().join("hall.txt");
    std::fs::write(&hall, "#########\n#@..#...#\n#...+...#\n#...#...#\n#########\n").unwrap();
    let hall = hall.to_str().unwrap();
    let (code, out, err) = sightline(&["play", hall, "--keys", "ln o hh"]);
    assert_eq!(code, 0, "{err}");
    let expected = [
        "as believed:",
        "#####  ##",
        "#...#...#",
        "#@..'...#",
        "#...#...#",
        "#####  ##",
        "known (v in view, r remembered):",
        "vvvvv  rr",
        "vvvvvvvvv",
        "vvvvvvvvv",
        "vvvvvvvvv",
        "vvvvv  rr",
        "turn 5 · at 1, 2 · hp 20/20 · 0 carried · Grass: shadowcast FOV, memory last seen",
        "   2  you open the door at 4, 2",
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), expected);
    // Caves of Zircon's shroud remembers nothing; JSON says the same as data.
    let (code, out, err) =
        sightline(&["play", hall, "--preset", "caves of zircon", "--keys", "ln o hh", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["preset"], "Caves of Zircon");
    assert_eq!(report["player"]["cell"], serde_json::json!([1, 2]));
    assert_eq!(report["remembered"], serde_json::json!([]));
    assert_eq!(report["log"][0]["message"], "you open the door at 4, 2");
    // `>X,Y` travels as a click does: into the east room through the door seen open, and
    // not to a cell never seen.
    let (code, out, err) = sightline(&["play", hall, "--keys", "ln o h >6,2"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("turn 8 · at 6, 2") && out.ends_with("   4  travelling to 6, 2 (4 steps)\n   7  you arrive\n"),
        "{out}"
    );
    let (_, out, _) = sightline(&["play", hall, "--keys", ">7,1"]);
    assert!(out.contains("turn 0 · at 1, 1") && out.ends_with("   0  no known way there\n"), "{out}");
    // A key it does not know, or a preset, is refused by name.
    let (code, _, err) = sightline(&["play", hall, "--keys", "lnq"]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown key 'q'"), "{err}");
    let (code, _, err) = sightline(&["play", hall, "--preset", "nethack"]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown preset \"nethack\": use one of Grass, Terminus"), "{err}");
}

/// `x` explores until exploring stops: here everything reachable is known, the item picked up
/// on the way (the door opened on the way too).
#[test]
fn play_explores_a_map_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let rooms = dir.path().join("rooms.txt");
    std::fs::write(&rooms, "#######\n#@..#*#\n#...+.#\n#######\n").unwrap();
    let (code, out, err) = sightline(&["play", rooms.to_str().unwrap(), "--keys", "x"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // The player ends where the item was.
    assert_eq!(lines[1..5], ["#######", "#...#@#", "#...'.#", "#######"], "{out}");
    assert!(lines.iter().any(|l| l.contains("1 carried")), "{out}");
    assert!(lines.last().unwrap().ends_with("nothing left to explore"), "{out}");
}

/// `fov --to`: the "shot from the dark" of a side corridor. Under recursive shadowcasting the
/// monster's cell (5, 4) sees the player's (4, 1), which does not see it; under symmetric
/// shadowcasting neither sees the other, as the shot between them (one line, no tie) is stopped by
/// the corridor's corner. The map shows the shot's line, `X` where it is stopped.
#[test]
fn fov_to_checks_a_pair_and_the_shot_between_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corridor.txt");
    std::fs::write(&path, "##########\n#........#\n#####.####\n#####.####\n#####.####\n").unwrap();
    let path = path.to_str().unwrap();
    let (code, out, err) = sightline(&["fov", path, "--origin", "4,1", "--to", "5,4", "--algorithm", "shadowcast"]);
    assert_eq!(code, 0, "{err}");
    let expected = [
        "##########",
        "#...@....#",
        "####X.####",
        "#####*####",
        "#####T####",
        "shot from 4,1 at 5,4: does not reach it (blocked at 4,2)",
        "algorithm     sees  seen back",
        "shadowcast      no        yes  one-sided: 5,4 sees 4,1 unseen",
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), expected);
    let (code, out, _) = sightline(&["fov", path, "--origin", "4,1", "--to", "5,4", "--algorithm", "all"]);
    assert_eq!(code, 0);
    assert!(out.contains("\nsymmetric       no         no\n"), "{out}");
    assert_eq!(out.lines().filter(|l| l.contains("one-sided")).count(), 5, "{out}");
    let (code, out, _) = sightline(&["fov", path, "--origin", "4,1", "--to", "5,4", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["shot"]["clear"], false);
    assert_eq!(v["shot"]["blocked_at"][0], serde_json::json!([4, 2]));
    assert_eq!(v["sight"][0], serde_json::json!({"algorithm": "symmetric", "sees": false, "seen_back": false}));
    let (code, _, err) = sightline(&["fov", path, "--origin", "4,1", "--to", "50,1"]);
    assert_eq!(code, 1);
    assert!(err.contains("--to 50,1 is outside the 10×5 map"), "{err}");
}

/// `play --format json` lists the monsters that see the player ("watchers"), those the player
/// does not see too: the goblin down the side corridor, under Grass's shadowcasting.
#[test]
fn play_json_lists_the_monsters_watching_the_player() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corridor.txt");
    let rows =
        "legend:\ng = monster name=goblin vision=10\n---\n##########\n#...@....#\n#####.####\n#####.####\n#####g####\n";
    std::fs::write(&path, rows).unwrap();
    let (code, out, err) = sightline(&["play", path.to_str().unwrap(), "--keys", "", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["watchers"], serde_json::json!([{"name": "the goblin", "cell": [5, 4], "seen": false}]));
    assert_eq!(v["monsters_in_view"], serde_json::json!([]));
}

/// `audit rules`: the cells by what the rules make of them, what the start reaches, and the
/// findings, exit 1 when there is one (a map check for CI). The bundled dungeon has none.
#[test]
fn audit_rules_finds_what_is_out_of_reach() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pocket.txt");
    std::fs::write(&path, "############\n#@.+.#.##..#\n#...#.#.#o.#\n############\n").unwrap();
    let (code, out, err) = sightline(&["audit", "rules", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    let expected = [
        "cells     13 open, 0 block sight only, 0 block movement only, 35 block both",
        "doors     1 closed, 0 open",
        "costs     0 walkable cells cost other than 1",
        "reach     10 cells reached from the start at 1,1",
        "finding   4 walkable cells in 1 pocket cannot be reached from the start (from 9,1)",
        "finding   monster 'orc' (#2) at 9,2 cannot be reached from the start",
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), expected);
    assert!(err.contains("pocket.txt: 2 findings"), "{err}");
    let (code, out, err) = sightline(&["audit", "rules", &map("dungeon.ron"), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["findings"], serde_json::json!([]));
    assert_eq!(
        (v["closed_doors"].as_u64(), v["open_doors"].as_u64(), v["blocks_sight"].as_u64()),
        (Some(8), Some(11), Some(25))
    );
}
