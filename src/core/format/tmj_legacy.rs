//! Tiled 1.0–1.1's JSON, brought to the form Tiled 1.2+ writes before the JSON reader reads it.
//!
//! Those versions (and Tiled's "JSON map files [Tiled 1.1]" export to this day) write custom
//! properties as an object, `"properties": {"door": true}`, their types in a second object,
//! `"propertytypes": {"door": "bool"}`, and a tileset's tile properties at the tileset's level,
//! `"tileproperties": {"3": {…}}` with `"tilepropertytypes"`, rather than in its `tiles`,
//! which may also be an object keyed by tile id. Tiled still reads all of this
//! (`varianttomapconverter.cpp`: `toProperties`, `toTileset`), and so does sightline, with the
//! same meaning: a name without a type takes its JSON value's type; a whole number or `true` given
//! as a string to an `int`, `float` or `bool` is converted as Tiled converts it. A save writes
//! the current form.
//!
//! Only the places Tiled reads properties from are rewritten (the map, layers, objects,
//! tilesets, tiles, Wang sets and colours, templates), never a property's value.

use serde_json::{Map as JsonObject, Value, json};

/// A map's JSON: the map, its layers and objects, and the tilesets it embeds.
pub(super) fn upgrade_map(map: &mut Value) {
    upgrade_properties(map);
    if let Some(layers) = map.get_mut("layers") {
        upgrade_layers(layers, 0);
    }
    if let Some(Value::Array(tilesets)) = map.get_mut("tilesets") {
        tilesets.iter_mut().for_each(upgrade_tileset);
    }
}

/// A tileset's JSON (a `.tsj` file or one a map embeds).
pub(super) fn upgrade_tileset(tileset: &mut Value) {
    upgrade_properties(tileset);
    let Some(o) = tileset.as_object_mut() else { return };
    // Tiles keyed by id (Tiled reads those first, then `tileproperties`, then an array).
    if let Some(Value::Object(keyed)) = o.get("tiles") {
        let tiles = keyed
            .iter()
            .filter_map(|(id, tile)| {
                let id = id.parse::<u64>().ok()?;
                let mut tile = tile.as_object()?.clone();
                // Tiled reads neither an id nor properties from an entry of this form.
                tile.remove("properties");
                tile.remove("propertytypes");
                tile.insert("id".into(), json!(id));
                Some(Value::Object(tile))
            })
            .collect();
        o.insert("tiles".into(), Value::Array(tiles));
    }
    if let Some(Value::Object(by_tile)) = o.remove("tileproperties") {
        let types = o.remove("tilepropertytypes");
        let tiles = o.entry("tiles").or_insert_with(|| json!([]));
        if let Value::Array(tiles) = tiles {
            for (id, properties) in by_tile {
                let Ok(id) = id.parse::<u64>() else { continue };
                let types = types.as_ref().and_then(|t| t.get(id.to_string()));
                let Some(properties) = array_form(&properties, types) else { continue };
                match tiles.iter_mut().find(|t| t.get("id").and_then(Value::as_u64) == Some(id)) {
                    // An entry of the array form (Tiled 1.2+) keeps its own properties.
                    Some(Value::Object(tile)) if tile.contains_key("properties") => {}
                    Some(Value::Object(tile)) => {
                        tile.insert("properties".into(), properties);
                    }
                    _ => tiles.push(json!({"id": id, "properties": properties})),
                }
            }
        }
    }
    if let Some(Value::Array(tiles)) = o.get_mut("tiles") {
        for tile in tiles {
            upgrade_properties(tile);
            if let Some(Value::Array(objects)) = tile.get_mut("objectgroup").and_then(|g| g.get_mut("objects")) {
                objects.iter_mut().for_each(upgrade_properties);
            }
        }
    }
    if let Some(Value::Array(sets)) = o.get_mut("wangsets") {
        for set in sets {
            upgrade_properties(set);
            for key in ["colors", "cornercolors", "edgecolors"] {
                if let Some(Value::Array(colours)) = set.get_mut(key) {
                    colours.iter_mut().for_each(upgrade_properties);
                }
            }
        }
    }
}

/// An object template's JSON (a `.tj` file): its object.
pub(super) fn upgrade_template(template: &mut Value) {
    if let Some(object) = template.get_mut("object") {
        upgrade_properties(object);
    }
}

fn upgrade_layers(layers: &mut Value, depth: usize) {
    // Groups nest; one nested past what the reader takes is refused there, not here.
    let Some(layers) = layers.as_array_mut().filter(|_| depth < 64) else { return };
    for layer in layers {
        upgrade_properties(layer);
        if let Some(Value::Array(objects)) = layer.get_mut("objects") {
            objects.iter_mut().for_each(upgrade_properties);
        }
        if let Some(inner) = layer.get_mut("layers") {
            upgrade_layers(inner, depth + 1);
        }
    }
}

/// An element's `properties` in the object form, with its `propertytypes`, rewritten as the
/// array form; the array form is left as it is (and `propertytypes` dropped, as Tiled ignores it
/// then).
fn upgrade_properties(element: &mut Value) {
    let Some(o) = element.as_object_mut() else { return };
    let types = o.remove("propertytypes");
    if let Some(properties) = o.get("properties").filter(|p| p.is_object())
        && let Some(array) = array_form(properties, types.as_ref())
    {
        o.insert("properties".into(), array);
    }
}

/// `properties` (an object of values) with `types` (an object of type names) as Tiled 1.2's
/// array of `{name, type, value}`; `None` when `properties` is not an object.
fn array_form(properties: &Value, types: Option<&Value>) -> Option<Value> {
    let properties = properties.as_object()?;
    let types = types.and_then(Value::as_object);
    let array = properties
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(name, value)| {
            let declared = types.and_then(|t| t.get(name)).and_then(Value::as_str);
            let (ty, value) = typed(declared, value);
            json!({"name": name, "type": ty, "value": value})
        })
        .collect();
    Some(Value::Array(array))
}

/// A value's type and the value in it: the declared type, the value converted as Tiled converts
/// a string it is given for a number or a bool; without a declared type (or one Tiled 1.1
/// never wrote), the JSON value's own.
fn typed(declared: Option<&str>, value: &Value) -> (&'static str, Value) {
    let text = value.as_str().map(str::trim);
    match declared {
        Some("bool") => match (value, text) {
            (Value::String(_), Some("true")) => ("bool", json!(true)),
            (Value::String(_), Some("false")) => ("bool", json!(false)),
            _ => ("bool", value.clone()),
        },
        Some("int") => match text.and_then(|t| t.parse::<i64>().ok()) {
            Some(n) => ("int", json!(n)),
            None => ("int", value.clone()),
        },
        Some("float") => match text.and_then(|t| t.parse::<f64>().ok()).filter(|f| f.is_finite()) {
            Some(f) => ("float", json!(f)),
            None => ("float", value.clone()),
        },
        Some("string") => ("string", value.clone()),
        Some("color") => ("color", value.clone()),
        Some("file") => ("file", value.clone()),
        Some("object") => ("object", value.clone()),
        Some("class") => ("class", value.clone()),
        Some("list") => ("list", untyped_list(value)),
        _ => untyped(value),
    }
}

/// A value without a type: the type its JSON has, as Tiled reads it.
fn untyped(value: &Value) -> (&'static str, Value) {
    match value {
        Value::Bool(_) => ("bool", value.clone()),
        Value::Number(n) if n.is_i64() || n.is_u64() => ("int", value.clone()),
        Value::Number(_) => ("float", value.clone()),
        Value::Object(_) => ("class", value.clone()),
        Value::Array(_) => ("list", untyped_list(value)),
        _ => ("string", value.clone()),
    }
}

/// A list as Tiled 1.1's export writes it (bare values) with each item typed, as the array form's
/// items are.
fn untyped_list(value: &Value) -> Value {
    let Some(items) = value.as_array() else { return value.clone() };
    let typed_items = items
        .iter()
        .map(|item| {
            if item.get("type").is_some() && item.get("value").is_some() {
                return item.clone();
            }
            let (ty, value) = untyped(item);
            let mut o = JsonObject::new();
            o.insert("type".into(), json!(ty));
            o.insert("value".into(), value);
            Value::Object(o)
        })
        .collect();
    Value::Array(typed_items)
}
