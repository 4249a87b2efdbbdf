//! Tiled's object templates: instances keep their links, a save writes only what each sets
//! itself, and empty values are the template's.

use sightline::core::format;
use sightline::core::model::flip::Flip;
use sightline::core::{Cell, Map, ObjectKind};

use crate::{assert_same, fixture, load, round_trip, save_in};

/// The part of a TMX file from its first `<objectgroup` to the end of the last.
fn object_groups(text: &str) -> &str {
    let start = text.find(" <objectgroup").unwrap_or_else(|| panic!("no object layer: {text}"));
    let end = text.rfind("</objectgroup>\n").unwrap() + "</objectgroup>\n".len();
    &text[start..end]
}

/// The map with no object linked to a template (each keeps its values).
fn without_links(map: &Map) -> Map {
    let mut map = map.clone();
    for o in &mut map.objects {
        o.template = None;
    }
    map
}

#[test]
fn tiled_template_instances_keep_their_links_and_a_save_writes_only_what_each_sets_itself() {
    use sightline::core::PropertyValue;
    use sightline::core::model::object::ShapeKind;
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    let tsx = std::fs::read_to_string(fixture("tiny.tsx")).unwrap();
    std::fs::write(dir.path().join("tiny.tsx"), &tsx).unwrap();
    std::fs::write(dir.path().join("statues.tsx"), tsx.replace("name=\"tiny\"", "name=\"statues\"")).unwrap();
    // Templates in a folder of their own, as Tiled projects keep them: a chest tile from the
    // map's own tileset, a statue tile from a tileset the map does not use, and a plain marker
    // with a property.
    std::fs::create_dir(dir.path().join("templates")).unwrap();
    let template = |name: &str, body: &str| {
        let text = format!("<?xml version=\"1.0\"?>\n<template>\n{body}\n</template>\n");
        std::fs::write(dir.path().join("templates").join(name), text).unwrap();
    };
    template(
        "chest.tx",
        r#" <tileset firstgid="1" source="../tiny.tsx"/>
 <object name="chest" gid="4" width="8" height="8">
  <properties><property name="loot" value="gold"/></properties>
 </object>"#,
    );
    template(
        "statue.tx",
        r#" <tileset firstgid="1" source="../statues.tsx"/>
 <object name="statue" gid="2147483650" width="8" height="8"/>"#,
    );
    template(
        "marker.tx",
        r#" <object name="marker" type="Spawn" width="16" height="8">
  <properties><property name="wave" type="int" value="1"/><property name="side" value="left"/></properties>
 </object>"#,
    );
    let objects = r#" <objectgroup id="2" name="things">
  <object id="1" template="templates/chest.tx" x="0" y="16"/>
  <object id="2" template="templates/statue.tx" x="8" y="16"/>
  <object id="3" template="templates/statue.tx" x="16" y="16"/>
  <object id="4" template="templates/marker.tx" name="wave three" x="0" y="0">
   <properties>
    <property name="wave" type="int" value="3"/>
   </properties>
  </object>
 </objectgroup>
"#;
    let tmx = |objects: &str| {
        format!(
            r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="4" height="2" tilewidth="8" tileheight="8" infinite="0" nextobjectid="5">
 <tileset firstgid="1" source="tiny.tsx"/>
 <layer id="1" name="ground" width="4" height="2"><data encoding="csv">1,1,1,1,1,1,1,1</data></layer>
{objects}</map>"#
        )
    };
    let path = dir.path().join("templated.tmx");
    std::fs::write(&path, tmx(objects)).unwrap();
    let loaded = format::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(!loaded.warnings.iter().any(|w| w.contains("does not keep")), "{:?}", loaded.warnings);
    let added: Vec<&String> = loaded.warnings.iter().filter(|w| w.contains("of an object template")).collect();
    assert_eq!(added.len(), 1, "the statues' tileset is added once: {:?}", loaded.warnings);
    let statues = dir.path().join("statues.tsx").canonicalize().unwrap();
    assert!(added[0].contains(&format!("\"statues\" ({})", statues.display())), "a tidy path: {}", added[0]);
    let map = loaded.map;
    // Each instance has its template's tile (from the tileset the template names) and values.
    let tile_of = |id: u32| {
        let o = map.objects.iter().find(|o| o.id == id).unwrap();
        match o.shape.as_ref().map(|s| &s.kind) {
            Some(ShapeKind::Tile { tile, flip, .. }) => {
                let kind = &map.tiles[usize::from(*tile)];
                let sheet = &map.sheets[usize::from(kind.sprite.unwrap().sheet)];
                (sheet.name.clone(), kind.sprite.unwrap().index, *flip)
            }
            other => panic!("object {id}: {other:?}"),
        }
    };
    assert_eq!(tile_of(1), ("tiny".to_owned(), 3, Flip::NONE));
    assert_eq!(tile_of(2), ("statues".to_owned(), 1, Flip::HORIZONTAL));
    assert_eq!(tile_of(3), tile_of(2));
    let by_id = |map: &Map, id: u32| map.objects.iter().find(|o| o.id == id).unwrap().clone();
    assert_eq!(by_id(&map, 1).name, "chest");
    assert_eq!(by_id(&map, 1).properties["loot"], PropertyValue::String("gold".into()));
    let marker = by_id(&map, 4);
    assert_eq!((marker.name.as_str(), &marker.kind), ("wave three", &ObjectKind::Other("Spawn".into())));
    assert_eq!(marker.properties["wave"], PropertyValue::Int(3), "the instance's own value");
    assert_eq!(marker.properties["side"], PropertyValue::String("left".into()), "the template's");
    // ... and its link: the template's file, and what the instance sets itself.
    let link = marker.template.as_ref().expect("object 4 keeps its template");
    assert_eq!(link.path, dir.path().join("templates/marker.tx").canonicalize().unwrap());
    assert_eq!(link.own_values(&marker), ["name", "wave"]);
    assert_eq!(by_id(&map, 1).template.as_ref().unwrap().own_values(&by_id(&map, 1)), [] as [String; 0]);

    // Saved beside the templates, each instance writes its link and what it sets itself: the
    // file's object layer comes back as it was.
    let saved = dir.path().join("saved.tmx");
    let written = format::save(&map, &saved).unwrap_or_else(|e| panic!("{e}"));
    assert!(written.warnings.is_empty(), "{:?}", written.warnings);
    let text = std::fs::read_to_string(&saved).unwrap();
    assert_eq!(object_groups(&text), objects);
    assert_same(&map, &load(&saved), "saved tmx");
    // Saved elsewhere, the links lead to the same files; in every format.
    std::fs::create_dir(dir.path().join("out")).unwrap();
    let text = save_in(&map, &dir.path().join("out/saved.tmx"));
    assert!(text.contains(r#"<object id="1" template="../templates/chest.tx" x="0" y="16"/>"#), "{text}");
    for ext in ["tmx", "tmj", "ron"] {
        assert_same(&map, &round_trip(&map, ext), ext);
    }
    let text = save_in(&map, &dir.path().join("saved.ron"));
    assert!(text.contains(r#"path: "templates/marker.tx""#), "{text}");

    // Edited: the chest renamed and moved, the marker's side changed, a statue hidden. Only what differs from
    // the template is written; the statue lost its flip, which its GID (in the map's numbering) says.
    let mut edited = map.clone();
    let index = |id: u32| edited.objects.iter().position(|o| o.id == id).unwrap();
    let (chest, statue, other_statue, marker) = (index(1), index(2), index(3), index(4));
    edited.objects[chest].name = "big chest".into();
    edited.objects[chest].cell = Cell::new(2, 1);
    edited.objects[marker].properties.insert("side".into(), PropertyValue::String("right".into()));
    if let Some(ShapeKind::Tile { flip, .. }) = edited.objects[statue].shape.as_mut().map(|s| &mut s.kind) {
        *flip = Flip::NONE;
    }
    edited.objects[other_statue].visible = false;
    let text = save_in(&edited, &saved);
    assert_eq!(
        object_groups(&text),
        r#" <objectgroup id="2" name="things">
  <object id="1" template="templates/chest.tx" name="big chest" x="16" y="16"/>
  <object id="2" template="templates/statue.tx" gid="6" x="8" y="16"/>
  <object id="3" template="templates/statue.tx" x="16" y="16" visible="0"/>
  <object id="4" template="templates/marker.tx" name="wave three" x="0" y="0">
   <properties>
    <property name="side" value="right"/>
    <property name="wave" type="int" value="3"/>
   </properties>
  </object>
 </objectgroup>
"#
    );
    assert_same(&edited, &load(&saved), "edited, saved");
    // An instance without a property of its template cannot say so: it is saved whole, without
    // its link, and the save says why.
    let mut lacking = map.clone();
    let chest = lacking.objects.iter_mut().find(|o| o.id == 1).unwrap();
    chest.properties.remove("loot");
    assert_eq!(chest.template.as_ref().unwrap().own_values(chest), ["no loot"]);
    assert_eq!(chest.template.as_ref().unwrap().lacking(chest), ["loot"]);
    let written = format::save(&lacking, &saved).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        written.warnings,
        ["object \"chest\" is saved without its link to template templates/chest.tx: it lacks its template's \
             property \"loot\", which a Tiled file cannot say (it keeps all its values)"]
    );
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        text.contains(r#"<object id="1" name="chest" type="" gid="4" x="0" y="16" width="8" height="8"/>"#),
        "{text}"
    );
    let back = load(&saved);
    assert_same(&without_links(&lacking), &without_links(&back), "saved without the link");
    assert!(by_id(&back, 1).template.is_none() && by_id(&back, 4).template.is_some());
    // Nor can it say that its name is empty (Tiled then takes the template's).
    let mut nameless = map.clone();
    nameless.objects.iter_mut().find(|o| o.id == 1).unwrap().name.clear();
    let written = format::save(&nameless, &saved).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        written.warnings,
        ["object 1 is saved without its link to template templates/chest.tx: its name is empty where its \
             template's is not, which a Tiled file cannot say (it keeps all its values)"]
    );
    assert_same(&without_links(&nameless), &without_links(&load(&saved)), "nameless, saved without the link");
    // Nor that it is a rectangle over a template of another shape (a rectangle has no element).
    let mut boxed = map.clone();
    let chest = boxed.objects.iter_mut().find(|o| o.id == 1).unwrap();
    let shape = chest.shape.as_mut().unwrap();
    shape.kind = ShapeKind::Rectangle { width: 8.0, height: 8.0 };
    shape.offset[1] -= 8.0;
    let written = format::save(&boxed, &saved).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        written.warnings,
        ["object \"chest\" is saved without its link to template templates/chest.tx: its shape is not of its \
             template's kind, which a Tiled file cannot say (it keeps all its values)"]
    );
    assert_same(&without_links(&boxed), &without_links(&load(&saved)), "a rectangle, saved without the link");

    // The same map in Tiled JSON, with JSON templates, reads the same, linked to those.
    let json_template = |name: &str, tileset: &str, object: serde_json::Value| {
        let mut t = serde_json::json!({"type": "template", "object": object});
        if !tileset.is_empty() {
            t["tileset"] = serde_json::json!({"firstgid": 1, "source": tileset});
        }
        std::fs::write(dir.path().join("templates").join(name), t.to_string()).unwrap();
    };
    json_template(
        "chest.tj",
        "../tiny.tsx",
        serde_json::json!({"name": "chest", "gid": 4, "width": 8, "height": 8,
            "properties": [{"name": "loot", "type": "string", "value": "gold"}]}),
    );
    json_template(
        "statue.tj",
        "../statues.tsx",
        serde_json::json!({"name": "statue", "gid": 2147483650u32, "width": 8, "height": 8}),
    );
    json_template(
        "marker.tj",
        "",
        serde_json::json!({"name": "marker", "type": "Spawn", "width": 16, "height": 8, "properties": [
            {"name": "wave", "type": "int", "value": 1}, {"name": "side", "type": "string", "value": "left"}]}),
    );
    let tmj = |objects: serde_json::Value| {
        serde_json::json!({"width": 4, "height": 2, "tilewidth": 8, "tileheight": 8, "orientation": "orthogonal",
            "nextobjectid": 5, "tilesets": [{"firstgid": 1, "source": "tiny.tsx"}],
            "layers": [
                {"id": 1, "type": "tilelayer", "name": "ground", "width": 4, "height": 2, "data": [1, 1, 1, 1, 1, 1, 1, 1]},
                {"id": 2, "type": "objectgroup", "name": "things", "objects": objects}]})
        .to_string()
    };
    let json_objects = serde_json::json!([
        {"id": 1, "template": "templates/chest.tj", "x": 0.0, "y": 16.0},
        {"id": 2, "template": "templates/statue.tj", "x": 8.0, "y": 16.0},
        {"id": 3, "template": "templates/statue.tj", "x": 16.0, "y": 16.0},
        {"id": 4, "template": "templates/marker.tj", "name": "wave three", "x": 0.0, "y": 0.0,
         "properties": [{"name": "wave", "type": "int", "value": 3}]}]);
    let json_path = dir.path().join("templated.tmj");
    std::fs::write(&json_path, tmj(json_objects.clone())).unwrap();
    let from_json = format::load(&json_path).unwrap_or_else(|e| panic!("{e}"));
    assert_same(&without_links(&map), &without_links(&from_json.map), "tmj with .tj templates");
    let said = |w: &[String], what: &str| w.iter().filter(|w| w.contains(what)).count();
    assert_eq!(said(&from_json.warnings, "does not keep"), 0, "{:?}", from_json.warnings);
    assert_eq!(said(&from_json.warnings, "of an object template is added"), 1, "{:?}", from_json.warnings);
    let link = by_id(&from_json.map, 4).template.unwrap();
    assert_eq!(link.path, dir.path().join("templates/marker.tj").canonicalize().unwrap());
    // Saved as Tiled JSON beside them, its objects are the file's.
    let text = save_in(&from_json.map, &dir.path().join("saved.tmj"));
    let saved_json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved_json["layers"][1]["objects"], json_objects, "{text}");
    // Tiled lets either kind of map name either kind of template: a JSON map an XML template,
    // an XML map a JSON template.
    std::fs::write(&json_path, tmj(serde_json::json!([{"id": 1, "template": "templates/chest.tx", "x": 0, "y": 16}])))
        .unwrap();
    let crossed = format::load(&json_path).unwrap_or_else(|e| panic!("{e}")).map;
    assert_eq!(crossed.objects, [by_id(&map, 1)], "a JSON map naming an XML template");
    let crossed_path = dir.path().join("crossed.tmx");
    std::fs::write(&crossed_path, tmx(&objects.replace(".tx\"", ".tj\""))).unwrap();
    let crossed = format::load(&crossed_path).unwrap_or_else(|e| panic!("{e}")).map;
    assert_same(&without_links(&map), &without_links(&crossed), "an XML map naming JSON templates");
    assert_eq!(
        by_id(&crossed, 2).template.unwrap().path,
        dir.path().join("templates/statue.tj").canonicalize().unwrap()
    );
    // A missing template is an error that names it, from either kind of map.
    std::fs::write(&json_path, tmj(serde_json::json!([{"id": 1, "template": "templates/gone.tj", "x": 0, "y": 0}])))
        .unwrap();
    let error = format::load(&json_path).unwrap_err().to_string();
    assert!(error.contains("templates/gone.tj"), "{error}");
    std::fs::write(&crossed_path, tmx(&objects.replace("chest.tx", "gone.tx"))).unwrap();
    let error = format::load(&crossed_path).unwrap_err().to_string();
    assert!(error.contains("gone.tx"), "{error}");
}

#[test]
fn an_instance_takes_its_templates_name_class_and_size_where_its_own_are_empty_as_tiled_reads_it() {
    use sightline::core::ObjectKind;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("crate.tx"),
        r#"<?xml version="1.0" encoding="UTF-8"?>
<template>
 <object name="crate" type="loot" width="16" height="8"/>
</template>"#,
    )
    .unwrap();
    // Name, class (Tiled 1.9's `class`, else `type`) and size of each instance, as Tiled reads
    // them: an empty one (or a size with a side of 0) is the template's.
    let instances = [
        (r#"class="mimic""#, ("crate", "mimic", [16.0, 8.0])),
        (r#"name="" type="""#, ("crate", "loot", [16.0, 8.0])),
        (r#"name="big crate" class="" type="cache" width="32" height="16""#, ("big crate", "cache", [32.0, 16.0])),
        (r#"width="0" height="16""#, ("crate", "loot", [16.0, 8.0])),
    ];
    let expected: Vec<(String, String, [f64; 2])> =
        instances.iter().map(|(_, (n, c, s))| (n.to_string(), c.to_string(), *s)).collect();
    let read = |map: &Map| -> Vec<(String, String, [f64; 2])> {
        map.objects
            .iter()
            .map(|o| {
                let ObjectKind::Other(class) = &o.kind else { panic!("{:?}", o.kind) };
                (o.name.clone(), class.clone(), o.shape.as_ref().and_then(|s| s.kind.size()).unwrap())
            })
            .collect()
    };
    let tmx_objects: String = instances
        .iter()
        .enumerate()
        .map(|(i, (attrs, _))| format!("  <object id=\"{}\" template=\"crate.tx\" {attrs} x=\"0\" y=\"0\"/>\n", i + 1))
        .collect();
    let tmx = dir.path().join("instances.tmx");
    std::fs::write(
        &tmx,
        format!(
            r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="4" height="2" tilewidth="8" tileheight="8" infinite="0">
 <objectgroup id="1" name="things">
{tmx_objects} </objectgroup>
</map>"#
        ),
    )
    .unwrap();
    assert_eq!(read(&load(&tmx)), expected, "tmx");
    // The same instances in Tiled JSON, attribute for key.
    let json_objects: Vec<serde_json::Value> = instances
        .iter()
        .enumerate()
        .map(|(i, (attrs, _))| {
            let mut o = serde_json::json!({"id": i + 1, "template": "crate.tx", "x": 0, "y": 0});
            for pair in attrs.split("\" ") {
                let (key, value) = pair.split_once("=\"").unwrap();
                let value = value.trim_end_matches('"');
                o[key] = match value.parse::<f64>() {
                    Ok(n) => n.into(),
                    Err(_) => value.into(),
                };
            }
            o
        })
        .collect();
    let tmj = dir.path().join("instances.tmj");
    let map = serde_json::json!({"width": 4, "height": 2, "tilewidth": 8, "tileheight": 8, "orientation": "orthogonal",
        "tilesets": [], "layers": [{"type": "objectgroup", "name": "things", "objects": json_objects}]});
    std::fs::write(&tmj, map.to_string()).unwrap();
    assert_eq!(read(&load(&tmj)), expected, "tmj");
}

/// A Tiled 1.1 JSON template (its object's properties as an object, with `propertytypes`) gives
/// its instances what its 1.2 form gives, and an instance's own old-form properties still win
/// by name.
#[test]
fn tiled_1_1_json_templates_read_as_their_current_form() {
    use sightline::core::PropertyValue;
    let dir = tempfile::tempdir().unwrap();
    let read = |template: &str, instance_properties: &str| {
        std::fs::write(dir.path().join("m.tj"), template).unwrap();
        let map = format!(
            r#"{{"width":2,"height":1,"tilewidth":8,"tileheight":8,"infinite":false,"tilesets":[],
            "layers":[{{"type":"objectgroup","name":"o","objects":[
            {{"id":1,"template":"m.tj","x":0,"y":0,{instance_properties}}}]}}]}}"#
        );
        let path = dir.path().join("map.tmj");
        std::fs::write(&path, map).unwrap();
        load(&path)
    };
    let old = read(
        r#"{"type":"template","object":{"name":"marker","type":"Spawn","width":8,"height":8,
        "properties":{"wave":1,"side":"left"},"propertytypes":{"wave":"int","side":"string"}}}"#,
        r#""properties":{"wave":"3"},"propertytypes":{"wave":"int"}"#,
    );
    let current = read(
        r#"{"type":"template","object":{"name":"marker","type":"Spawn","width":8,"height":8,
        "properties":[{"name":"wave","type":"int","value":1},{"name":"side","type":"string","value":"left"}]}}"#,
        r#""properties":[{"name":"wave","type":"int","value":3}]"#,
    );
    assert_same(&old, &current, "Tiled 1.1's template against 1.2's");
    let properties = &old.objects[0].properties;
    assert_eq!(properties.get("wave"), Some(&PropertyValue::Int(3)), "the instance's own value");
    assert_eq!(properties.get("side"), Some(&PropertyValue::String("left".into())), "the template's");
}

/// An instance whose `gid` is 0 sets no tile, so it shows its template's, as in Tiled (which
/// reads a `gid` of 0 as none), in TMX and in JSON; a template's own `gid` of 0 is no tile either.
#[test]
fn an_instance_with_gid_0_shows_its_templates_tile() {
    use sightline::core::model::object::ShapeKind;
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tiny.png"), dir.path().join("tiny.png")).unwrap();
    std::fs::copy(fixture("tiny.tsx"), dir.path().join("tiny.tsx")).unwrap();
    let tx = |gid: u32| {
        format!(
            "<?xml version=\"1.0\"?>\n<template>\n <tileset firstgid=\"1\" source=\"tiny.tsx\"/>\n \
             <object name=\"chest\" gid=\"{gid}\" width=\"8\" height=\"8\"/>\n</template>\n"
        )
    };
    std::fs::write(dir.path().join("chest.tx"), tx(4)).unwrap();
    std::fs::write(dir.path().join("none.tx"), tx(0)).unwrap();
    let tj = serde_json::json!({"type": "template", "tileset": {"firstgid": 1, "source": "tiny.tsx"},
        "object": {"name": "chest", "gid": 4, "width": 8, "height": 8}});
    std::fs::write(dir.path().join("chest.tj"), tj.to_string()).unwrap();
    let tmx = r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="4" height="2" tilewidth="8" tileheight="8" infinite="0" nextobjectid="3">
 <tileset firstgid="1" source="tiny.tsx"/>
 <layer id="1" name="ground" width="4" height="2"><data encoding="csv">1,1,1,1,1,1,1,1</data></layer>
 <objectgroup id="2" name="things">
  <object id="1" template="chest.tx" gid="0" x="8" y="16"/>
  <object id="2" template="none.tx" x="16" y="0"/>
 </objectgroup>
</map>"#;
    let tmj = serde_json::json!({"width": 4, "height": 2, "tilewidth": 8, "tileheight": 8,
        "orientation": "orthogonal", "nextobjectid": 3, "tilesets": [{"firstgid": 1, "source": "tiny.tsx"}],
        "layers": [
            {"id": 1, "type": "tilelayer", "name": "ground", "width": 4, "height": 2, "data": [1, 1, 1, 1, 1, 1, 1, 1]},
            {"id": 2, "type": "objectgroup", "name": "things", "objects": [
                {"id": 1, "template": "chest.tj", "gid": 0, "x": 8.0, "y": 16.0}]}]});
    std::fs::write(dir.path().join("m.tmx"), tmx).unwrap();
    std::fs::write(dir.path().join("m.tmj"), tmj.to_string()).unwrap();
    for name in ["m.tmx", "m.tmj"] {
        let map = load(&dir.path().join(name));
        let chest = map.objects.iter().find(|o| o.id == 1).unwrap();
        let Some(ShapeKind::Tile { tile, .. }) = chest.shape.as_ref().map(|s| &s.kind) else {
            panic!("{name}: {:?}", chest.shape)
        };
        assert_eq!(map.tiles[usize::from(*tile)].sprite.map(|s| s.index), Some(3), "{name}");
        // Hung from its bottom-left corner (8, 16): the cell (1, 1).
        assert_eq!(chest.cell, Cell::new(1, 1), "{name}");
    }
    let map = load(&dir.path().join("m.tmx"));
    let plain = map.objects.iter().find(|o| o.id == 2).unwrap();
    assert_eq!(plain.shape.as_ref().unwrap().kind, ShapeKind::Rectangle { width: 8.0, height: 8.0 });
    assert_eq!(plain.cell, Cell::new(2, 0));
}
