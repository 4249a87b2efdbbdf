//! Random sessions, as a designer's hand makes them: strokes of every tool, layers added, moved,
//! grouped, merged and removed, objects placed and removed, tile rules edited, copies and
//! pastes, resizes and crops, on the bundled maps and the corpus's Tiled maps.
//! - After each action, one undo gives back the map as it was before the action, one redo the
//!   map after it, and an action that changed nothing leaves no step: what "nothing a user did
//!   is lost" and "each edit is one undo step" mean. Every object stands on the cell under its
//!   centre, where a save and a load put it.
//! - The maps such sessions leave, saved as RON, TMX and TMJ, read back the same (object
//!   positions within a thousandth of a pixel).
//! - Played through such edits, undos and redos (Live edits), the game follows the map.
//! - With every overlay on, each shows what a fresh one shows on the map as it is now.
//! - Copied in one map and pasted in another, tiles keep their tile types and objects their
//!   cells, in one undo step.
//!
//! `SIGHTLINE_SOAK=N` runs N times the sessions (see [`soaked`]).
#![cfg(feature = "gui")]

use sightline::app::map_dialogs::ResizeSpec;
use sightline::app::overlays::{Frame, GridCache, Overlay};
use sightline::app::{Command, DrawnLook, NewLayer, ObjectChoice, PropertiesOwner, SightlineApp, Tool};
use sightline::app::{
    FileCommand, HistoryCommand, LayerCommand, MapCommand, ObjectCommand, SelectionCommand, TileCommand, ToolCommand,
};
use sightline::core::Rgba;
use sightline::core::edit::RandomBrush;
use sightline::core::edit::TileRules;
use sightline::core::edit::selection::SelectionMode;
use sightline::core::edit::terrain::TerrainBrush;
use sightline::core::model::flip::Flip;
use sightline::core::model::flip::Turn;
use sightline::core::model::layers::Place;
use sightline::core::model::object::ShapeKind;
use sightline::core::model::tiled_settings::{LayerFormat, RenderOrder, TiledSettings};
use sightline::core::rng::Rng;
use sightline::core::{Anchor, Cell, LayerRef, Map, StackItem, TileId};
use sightline::core::{Properties, PropertyValue};

mod common;
use common::sample;

/// No error dialog is open. Random actions never meet one (a refusal, a locked layer say, is a
/// notice): an error dialog here is a failure, read and shown, never dismissed unread.
#[track_caller]
fn assert_no_error(app: &SightlineApp, context: &str) {
    if let Some(error) = &app.prompts.error {
        panic!("{context}: {}: {}", error.title, error.message);
    }
}

/// The real Tiled maps of `../shared/corpus/tiled`.
const CORPUS: [&str; 5] =
    ["desert.tmx", "sewers.tmx", "orthogonal-outside.tmx", "perspective_walls.tmx", "rpg/island.tmx"];

/// `../shared/corpus/tiled`, or `None` (and a note on stderr) when this checkout has no `../shared`.
fn corpus() -> Option<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/tiled");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped the corpus maps: ../shared/corpus is absent");
        None
    }
}

/// `seeds` times `SIGHTLINE_SOAK` (1 unless set): how many sessions a test runs. A soak, to hunt
/// with many more sessions than CI runs: `SIGHTLINE_SOAK=50 cargo test --release --test
/// random_sessions`.
fn soaked(seeds: u64) -> u64 {
    let factor = std::env::var("SIGHTLINE_SOAK").ok().and_then(|s| s.parse::<u64>().ok());
    seeds * factor.unwrap_or(1).max(1)
}

fn random_cell(rng: &mut Rng, map: &Map) -> Cell {
    // Now and then just off the map: a stroke that leaves the map, a click beside it.
    Cell::new(rng.range(-1, map.width() as i32 + 1), rng.range(-1, map.height() as i32 + 1))
}

fn random_item(rng: &mut Rng, map: &Map) -> StackItem {
    let groups = map.groups.len() as u32;
    if groups > 0 && rng.chance(0.2) {
        return StackItem::Group(rng.below(groups) as usize);
    }
    let layers = map.layers.len() as u32;
    let objects = map.object_layers.len() as u32;
    if objects > 0 && rng.chance(0.3) {
        StackItem::Layer(LayerRef::Objects(rng.below(objects) as usize))
    } else {
        StackItem::Layer(LayerRef::Tiles(rng.below(layers.max(1)) as usize))
    }
}

/// A property's name or a string value as people type them: plain words, and now and then what
/// a file format must escape (XML's `<&>"'`, JSON's `\` and `"`), line breaks, tabs, leading
/// and trailing spaces, accents and emoji.
fn random_text(rng: &mut Rng) -> String {
    const WORDS: [&str; 12] = [
        "hp",
        "loot table",
        "a<b & c>d",
        "quote \"q\" 'a'",
        "back\\slash",
        "two\nlines",
        "tab\there",
        " padded ",
        "été ñ ü",
        "🐉 dragon",
        "]]>",
        "{\"json\": 1}",
    ];
    WORDS[rng.below(WORDS.len() as u32) as usize].to_owned()
}

/// A property value of any of Tiled's types, lists and class members `depth` deep at most.
fn random_value(rng: &mut Rng, map: &Map, depth: u32) -> PropertyValue {
    use sightline::core::model::tile::EnumValue;
    match rng.below(if depth == 0 { 8 } else { 10 }) {
        0 => PropertyValue::Bool(rng.chance(0.5)),
        1 => PropertyValue::Int([0, -7, 42, i64::from(i32::MAX) + 5, -1 << 40][rng.below(5) as usize]),
        2 => PropertyValue::Float([0.5, -3.25, 1e-7, 123456.789, 0.1][rng.below(5) as usize]),
        3 => PropertyValue::String(random_text(rng)),
        4 => PropertyValue::Color(rng.chance(0.8).then(|| Rgba(rng.below(256) as u8, 10, 200, rng.below(256) as u8))),
        5 => PropertyValue::File(["", "art/tree.png", "../up/a b.txt"][rng.below(3) as usize].into()),
        6 => PropertyValue::Object(
            map.objects.get(rng.below(map.objects.len().max(1) as u32) as usize).map_or(0, |o| o.id),
        ),
        7 => PropertyValue::Enum {
            enum_type: "Faction".into(),
            value: if rng.chance(0.5) { EnumValue::String("orcs,elves".into()) } else { EnumValue::Int(3) },
        },
        8 => PropertyValue::List((0..rng.below(4)).map(|_| random_value(rng, map, depth - 1)).collect()),
        _ => {
            let mut members = Properties::new();
            for _ in 0..rng.below(3) {
                members.insert(random_text(rng), random_value(rng, map, depth - 1));
            }
            PropertyValue::Class { class: ["Stats", "Loot"][rng.below(2) as usize].into(), members }
        }
    }
}

/// One action a person might take, as the commands the UI sends for it.
fn random_action(rng: &mut Rng, app: &SightlineApp) -> Vec<Command> {
    let map = &app.document.map;
    let tile = rng.below(map.tiles.len() as u32) as TileId;
    match rng.below(46) {
        0..=7 => {
            let tools = [
                Tool::Brush,
                Tool::Eraser,
                Tool::Rectangle,
                Tool::Line,
                Tool::Fill,
                Tool::Select,
                Tool::MagicWand,
                Tool::SameTile,
                Tool::Object,
                Tool::Picker,
            ];
            let tool = tools[rng.below(tools.len() as u32) as usize];
            let mut out =
                vec![Command::Tools(ToolCommand::SelectTool(tool)), Command::Tiles(TileCommand::SelectTile(tile))];
            let mut at = random_cell(rng, map);
            out.push(Command::Tools(ToolCommand::StrokeBegin(at)));
            for _ in 0..rng.below(6) {
                at = Cell::new(at.x + rng.range(-3, 4), at.y + rng.range(-3, 4));
                out.push(Command::Tools(ToolCommand::StrokeMove(at)));
            }
            out.push(Command::Tools(ToolCommand::StrokeEnd));
            out
        }
        8 => vec![Command::Tools(ToolCommand::SetBrushSize(1 + rng.below(4)))],
        9 => {
            let kind = [NewLayer::Tiles, NewLayer::Objects, NewLayer::Group][rng.below(3) as usize];
            let above = rng.chance(0.7).then(|| random_item(rng, map));
            vec![Command::Layers(LayerCommand::AddLayer { above, kind })]
        }
        10 => vec![Command::Layers(LayerCommand::DuplicateLayer(random_item(rng, map)))],
        11 => vec![Command::Layers(LayerCommand::RemoveLayer(random_item(rng, map)))],
        12 => vec![Command::Layers(LayerCommand::MoveLayer { item: random_item(rng, map), up: rng.chance(0.5) })],
        13 => match random_item(rng, map) {
            StackItem::Layer(layer) => vec![Command::Layers(LayerCommand::MergeLayerDown(layer))],
            StackItem::Group(g) => vec![Command::Layers(LayerCommand::Ungroup(g))],
        },
        14 => vec![Command::Layers(LayerCommand::GroupLayer(random_item(rng, map)))],
        15 => {
            let item = random_item(rng, map);
            match rng.below(3) {
                0 => vec![Command::Layers(LayerCommand::SelectLayer(item))],
                1 => vec![Command::Layers(LayerCommand::SetLayerVisible(item, rng.chance(0.5)))],
                _ => vec![Command::Layers(LayerCommand::SetLayerOpacity(item, rng.below(11) as f32 / 10.0))],
            }
        }
        16 => {
            let name = if rng.chance(0.5) { format!("layer {}", rng.below(5)) } else { random_text(rng) };
            vec![Command::Layers(LayerCommand::RenameLayer(random_item(rng, map), name))]
        }
        17 => {
            let mut rules = TileRules::of(&map.tiles[usize::from(tile)]);
            rules.opaque = rng.chance(0.5);
            rules.walkable = rng.chance(0.5);
            rules.cost = [0.5, 1.0, 3.0][rng.below(3) as usize];
            vec![Command::Tiles(TileCommand::SetTileRules(tile, rules))]
        }
        18 => vec![Command::Tiles(TileCommand::AddTile)],
        19 => {
            let (w, h) = (map.width() as i32, map.height() as i32);
            let anchors = [Anchor::TopLeft, Anchor::Centre, Anchor::BottomRight, Anchor::Right];
            vec![Command::Map(MapCommand::ResizeMap(ResizeSpec {
                width: (w + rng.range(-4, 5)).max(1) as u32,
                height: (h + rng.range(-4, 5)).max(1) as u32,
                anchor: anchors[rng.below(4) as usize],
                fill_with_brush: rng.chance(0.5),
            }))]
        }
        20 => {
            let a = random_cell(rng, map);
            let b = Cell::new(a.x + rng.range(0, 6), a.y + rng.range(0, 6));
            let then = match rng.below(5) {
                0 => Command::Selection(SelectionCommand::Cut),
                1 => Command::Selection(SelectionCommand::DeleteSelection),
                2 => Command::Selection(SelectionCommand::CropToSelection),
                3 => Command::Selection(SelectionCommand::InvertSelection),
                _ => Command::Selection(SelectionCommand::Copy),
            };
            // Esc first: a stamp in hand would be laid by the drag.
            vec![
                Command::Selection(SelectionCommand::CancelSelection),
                Command::Tools(ToolCommand::SelectTool(Tool::Select)),
                Command::Tools(ToolCommand::StrokeBegin(a)),
                Command::Tools(ToolCommand::StrokeMove(b)),
                Command::Tools(ToolCommand::StrokeEnd),
                then,
            ]
        }
        21 => {
            let turn = [Turn::FlipHorizontally, Turn::RotateClockwise][rng.below(2) as usize];
            vec![
                Command::Selection(SelectionCommand::Paste),
                Command::Tools(ToolCommand::TurnStamp(turn)),
                Command::Selection(SelectionCommand::PasteAt(random_cell(rng, map))),
            ]
        }
        22 => vec![Command::Selection(SelectionCommand::PasteInPlace)],
        23 | 24 => {
            let choice = ObjectChoice::ALL[rng.below(ObjectChoice::ALL.len() as u32) as usize];
            let at = random_cell(rng, map);
            vec![
                Command::Tools(ToolCommand::SelectTool(Tool::Object)),
                Command::Objects(ObjectCommand::SetObjectChoice(choice)),
                Command::Objects(ObjectCommand::PlaceObject(at)),
            ]
        }
        25 => {
            let layer = rng.below(map.layers.len().max(1) as u32) as usize;
            let cell = random_cell(rng, map);
            vec![Command::Tiles(TileCommand::SetCellTile { layer, cell, tile, flip: Flip::default() })]
        }
        26 => vec![Command::Layers(LayerCommand::SetLayerCollision(
            rng.below(map.layers.len().max(1) as u32) as usize,
            rng.chance(0.5),
        ))],
        27 => {
            let mut properties = Properties::new();
            for _ in 0..rng.below(4) {
                properties.insert(random_text(rng), random_value(rng, map, 2));
            }
            let owner = match rng.below(6) {
                0 => PropertiesOwner::Map,
                1 => PropertiesOwner::Tile(tile),
                2 => PropertiesOwner::Layer(rng.below(map.layers.len().max(1) as u32) as usize),
                3 if !map.object_layers.is_empty() => {
                    PropertiesOwner::ObjectLayer(rng.below(map.object_layers.len() as u32) as usize)
                }
                4 if !map.sheets.is_empty() => PropertiesOwner::Tileset(rng.below(map.sheets.len() as u32) as usize),
                _ if !map.groups.is_empty() => PropertiesOwner::Group(rng.below(map.groups.len() as u32) as usize),
                _ => PropertiesOwner::Map,
            };
            vec![Command::Map(MapCommand::SetProperties(owner, properties))]
        }
        28 if !map.objects.is_empty() => {
            let n = rng.below(map.objects.len() as u32) as usize;
            let mut object = map.objects[n].clone();
            if rng.chance(0.5) {
                object.name = if rng.chance(0.5) { format!("renamed {}", rng.below(3)) } else { random_text(rng) };
                vec![Command::Objects(ObjectCommand::EditObject(n, object))]
            } else {
                let class = ["monster", "item", "light", "zone"][rng.below(4) as usize];
                vec![Command::Objects(ObjectCommand::ReclassObject { id: object.id, class: class.into() })]
            }
        }
        29 => {
            // A stroke of the terrain brush, with one of the map's terrains (a Tiled map's).
            let sets: Vec<(usize, usize, usize)> = map
                .sheets
                .iter()
                .enumerate()
                .flat_map(|(sheet, s)| s.wang_sets.iter().enumerate().map(move |(set, w)| (sheet, set, w.colors.len())))
                .filter(|&(_, _, colors)| colors > 0)
                .collect();
            let Some(&(sheet, set, colors)) = sets.get(rng.below(sets.len().max(1) as u32) as usize) else {
                return vec![Command::Tools(ToolCommand::SelectTool(Tool::Brush))];
            };
            let color = 1 + rng.below(colors as u32) as u8;
            let a = random_cell(rng, map);
            let b = Cell::new(a.x + rng.range(-3, 4), a.y + rng.range(-3, 4));
            vec![
                Command::Selection(SelectionCommand::CancelSelection),
                Command::Tools(ToolCommand::SetTerrainWholeTiles(rng.chance(0.5))),
                Command::Tools(ToolCommand::SetTerrain(TerrainBrush { sheet, set, color })),
                Command::Tools(ToolCommand::StrokeBegin(a)),
                Command::Tools(ToolCommand::StrokeMove(b)),
                Command::Tools(ToolCommand::StrokeEnd),
            ]
        }
        30 | 31 => {
            // A shape of Tiled's, where a click puts one (map pixels).
            let (w, h) = (rng.range(1, 40) as f64, rng.range(1, 40) as f64);
            let kind = match rng.below(5) {
                0 => ShapeKind::Point,
                1 => ShapeKind::Rectangle { width: w, height: h },
                2 => ShapeKind::Ellipse { width: w, height: h },
                3 => ShapeKind::Capsule { width: w, height: h },
                _ => ShapeKind::Polygon(vec![[0.0, 0.0], [w, 0.0], [w / 2.0, h]]),
            };
            let size = map.tile_size;
            let at = [
                rng.range(0, (map.width() * size[0]) as i32) as f64 + 0.5,
                rng.range(0, (map.height() * size[1]) as i32) as f64 + 0.25,
            ];
            vec![
                Command::Tools(ToolCommand::SelectTool(Tool::Object)),
                Command::Objects(ObjectCommand::AddShape(kind, at)),
            ]
        }
        32 if map.objects.iter().any(|o| o.shape.is_some()) => {
            let shaped: Vec<&sightline::core::MapObject> = map.objects.iter().filter(|o| o.shape.is_some()).collect();
            let o = shaped[rng.below(shaped.len() as u32) as usize];
            let size = matches!(
                o.shape.as_ref().unwrap().kind,
                ShapeKind::Rectangle { .. } | ShapeKind::Ellipse { .. } | ShapeKind::Capsule { .. }
            )
            .then(|| [rng.range(1, 50) as f64 * 0.5, rng.range(1, 50) as f64 * 0.5]);
            vec![Command::Objects(ObjectCommand::SetObjectGeometry {
                id: o.id,
                position: [rng.range(0, 400) as f64 + 0.125, rng.range(0, 400) as f64],
                size,
                rotation: [0.0, 15.0, 90.0, 200.0][rng.below(4) as usize],
            })]
        }
        33 => {
            let tint = rng.chance(0.5).then(|| Rgba(rng.below(256) as u8, 40, 200, 128));
            let look = DrawnLook {
                tint,
                offset: [rng.range(-20, 20) as f64, rng.range(-20, 20) as f64 * 0.5],
                parallax: [1.0, [1.0, 0.5, 2.0][rng.below(3) as usize]],
            };
            vec![Command::Layers(LayerCommand::SetLayerLook(random_item(rng, map), look))]
        }
        34 if !map.object_layers.is_empty() => {
            let j = rng.below(map.object_layers.len() as u32) as usize;
            vec![Command::Layers(LayerCommand::SetObjectLayerColor(
                j,
                rng.chance(0.7).then_some(Rgba(200, rng.below(256) as u8, 10, 255)),
            ))]
        }
        35 => vec![Command::Map(MapCommand::SetMapLook {
            class: if rng.chance(0.7) {
                ["", "dungeon", "level 2"][rng.below(3) as usize].into()
            } else {
                random_text(rng)
            },
            background: rng.chance(0.5).then_some(Rgba(10, 20, rng.below(256) as u8, 255)),
        })],
        36 => {
            let formats = [LayerFormat::Csv, LayerFormat::Base64, LayerFormat::Base64Zlib, LayerFormat::Base64Gzip];
            let orders = [RenderOrder::RightDown, RenderOrder::RightUp, RenderOrder::LeftDown];
            vec![Command::Map(MapCommand::SetTiledSettings(TiledSettings {
                layer_format: formats[rng.below(4) as usize],
                render_order: orders[rng.below(3) as usize],
                compression_level: [-1, 1, 9][rng.below(3) as usize],
                parallax_origin: [rng.range(0, 50) as f64, 0.0],
                ..map.tiled
            }))]
        }
        37 => {
            // A drag in the Layers panel.
            let item = random_item(rng, map);
            let place = match (rng.below(3), map.groups.len()) {
                (0, _) => Place::Above(random_item(rng, map)),
                (1, _) | (_, 0) => Place::Below(random_item(rng, map)),
                (_, groups) => Place::IntoTop(rng.below(groups as u32) as usize),
            };
            vec![Command::Layers(LayerCommand::MoveLayerTo { item, place })]
        }
        38 => {
            // The polygon tool: clicks, then a click on the first point, Enter, or Backspace.
            let size = map.tile_size.map(f64::from);
            let mut out = vec![
                Command::Tools(ToolCommand::SelectTool(Tool::Object)),
                Command::Objects(ObjectCommand::SetObjectChoice(ObjectChoice::Polygon)),
            ];
            let start = random_cell(rng, map);
            for _ in 0..1 + rng.below(4) {
                let p = [
                    (f64::from(start.x) + rng.range(-2, 3) as f64) * size[0],
                    (f64::from(start.y) + rng.range(-2, 3) as f64) * size[1],
                ];
                out.push(Command::Objects(ObjectCommand::AddShapePoint(p)));
            }
            if rng.chance(0.2) {
                out.push(Command::Objects(ObjectCommand::RemoveShapePoint));
            }
            out.push(Command::Objects(ObjectCommand::FinishShape { closed: rng.chance(0.5) }));
            out
        }
        39 => {
            let drawn: Vec<&sightline::core::MapObject> = map
                .objects
                .iter()
                .filter(|o| {
                    matches!(o.shape.as_ref().map(|s| &s.kind), Some(ShapeKind::Polygon(_) | ShapeKind::Polyline(_)))
                })
                .collect();
            if let Some(o) = drawn.get(rng.below(drawn.len().max(1) as u32) as usize) {
                let points =
                    (0..rng.below(5)).map(|_| [rng.range(-40, 40) as f64, rng.range(-40, 40) as f64 * 0.5]).collect();
                vec![Command::Objects(ObjectCommand::SetObjectPoints { id: o.id, points })]
            } else {
                vec![Command::Objects(ObjectCommand::RemoveObject(rng.below(map.objects.len().max(1) as u32) as usize))]
            }
        }
        40 => vec![Command::Layers(LayerCommand::SetLayerLocked(random_item(rng, map), rng.chance(0.3)))],
        41 => {
            // A tool's options, then a stroke with it.
            let other = rng.below(map.tiles.len() as u32) as TileId;
            let (tool, option) = match rng.below(6) {
                0 => (
                    Tool::Brush,
                    Command::Tools(ToolCommand::SetRandomBrush(
                        true,
                        RandomBrush { tiles: vec![(tile, 2), (other, 1)] },
                    )),
                ),
                1 => (Tool::Rectangle, Command::Tools(ToolCommand::SetRectFilled(rng.chance(0.5)))),
                2 => (Tool::Fill, Command::Tools(ToolCommand::SetFillEight(rng.chance(0.5)))),
                3 => (Tool::Fill, Command::Selection(SelectionCommand::SetFillSelection(true))),
                4 => (Tool::Brush, Command::Tools(ToolCommand::SetLineStroke(true))),
                _ => (Tool::Brush, Command::Tools(ToolCommand::SetBrushFlip(Flip::HORIZONTAL))),
            };
            let (a, b) = (random_cell(rng, map), random_cell(rng, map));
            vec![
                Command::Tools(ToolCommand::SelectTool(tool)),
                Command::Tiles(TileCommand::SelectTile(tile)),
                option,
                Command::Tools(ToolCommand::StrokeBegin(a)),
                Command::Tools(ToolCommand::StrokeMove(b)),
                Command::Tools(ToolCommand::StrokeEnd),
                Command::Tools(ToolCommand::SetRandomBrush(false, RandomBrush::default())),
                Command::Tools(ToolCommand::SetLineStroke(false)),
                Command::Selection(SelectionCommand::SetFillSelection(false)),
                Command::Tools(ToolCommand::SetBrushFlip(Flip::NONE)),
            ]
        }
        42 => {
            // A terrain fill, with one of the map's terrains.
            let Some((sheet, set, colors)) = map
                .sheets
                .iter()
                .enumerate()
                .flat_map(|(sheet, s)| s.wang_sets.iter().enumerate().map(move |(set, w)| (sheet, set, w.colors.len())))
                .find(|&(_, _, colors)| colors > 0)
            else {
                return vec![Command::Tools(ToolCommand::SetFillTerrain(false))];
            };
            let color = 1 + rng.below(colors as u32) as u8;
            let at = random_cell(rng, map);
            vec![
                Command::Tools(ToolCommand::SetTerrain(TerrainBrush { sheet, set, color })),
                Command::Tools(ToolCommand::SelectTool(Tool::Fill)),
                Command::Tools(ToolCommand::SetFillTerrain(true)),
                Command::Tools(ToolCommand::StrokeBegin(at)),
                Command::Tools(ToolCommand::StrokeEnd),
                Command::Tools(ToolCommand::SetFillTerrain(false)),
            ]
        }
        43 => {
            let (tool, setting) = if rng.chance(0.5) {
                (
                    ObjectChoice::Monster,
                    Command::Objects(ObjectCommand::SetMonster {
                        glyph: ['o', 'g', 'Z'][rng.below(3) as usize],
                        vision: rng.below(12),
                    }),
                )
            } else {
                (ObjectChoice::Light, Command::Objects(ObjectCommand::SetLightRadius(rng.below(10))))
            };
            vec![
                Command::Tools(ToolCommand::SelectTool(Tool::Object)),
                Command::Objects(ObjectCommand::SetObjectChoice(tool)),
                setting,
                Command::Objects(ObjectCommand::PlaceObject(random_cell(rng, map))),
            ]
        }
        44 => {
            // A selection, and another combined with it by a mode, then a cut or an erase (Esc
            // first: a stamp in hand would be laid by the drag).
            let modes = [SelectionMode::Add, SelectionMode::Subtract, SelectionMode::Intersect, SelectionMode::Replace];
            let (a, b) = (random_cell(rng, map), random_cell(rng, map));
            let then = [
                Command::Selection(SelectionCommand::DeleteSelection),
                Command::Selection(SelectionCommand::SelectAll),
                Command::Selection(SelectionCommand::Cut),
            ][rng.below(3) as usize]
                .clone();
            vec![
                Command::Selection(SelectionCommand::CancelSelection),
                Command::Tools(ToolCommand::SelectTool(Tool::Select)),
                Command::Tools(ToolCommand::StrokeBegin(random_cell(rng, map))),
                Command::Tools(ToolCommand::StrokeMove(random_cell(rng, map))),
                Command::Tools(ToolCommand::StrokeEnd),
                Command::Selection(SelectionCommand::SetSelectionMode(modes[rng.below(4) as usize])),
                Command::Tools(ToolCommand::SelectTool(
                    [Tool::Select, Tool::MagicWand, Tool::SameTile][rng.below(3) as usize],
                )),
                Command::Tools(ToolCommand::StrokeBegin(a)),
                Command::Tools(ToolCommand::StrokeMove(b)),
                Command::Tools(ToolCommand::StrokeEnd),
                then,
                Command::Selection(SelectionCommand::SetSelectionMode(SelectionMode::Replace)),
            ]
        }
        _ => vec![
            Command::Objects(ObjectCommand::RemoveObjectsAt(random_cell(rng, map))),
            Command::History(HistoryCommand::Undo),
            Command::History(HistoryCommand::Redo),
        ],
    }
}

/// The objects of `map` that do not stand on the cell under their shape's centre, the cell a
/// save and a load put them on (`core::object::cell_under`): each named, with both cells.
fn objects_off_their_cells(map: &Map) -> Vec<String> {
    let grid = map.tile_size.map(|t| f64::from(t.max(1)));
    map.objects
        .iter()
        .filter_map(|o| {
            let shape = o.shape.as_ref()?;
            let position = shape.position(o.cell, map.tile_size);
            let under =
                sightline::core::model::object::cell_under(&shape.kind, position, map.object_anchor(&shape.kind), grid);
            (under != o.cell)
                .then(|| format!("#{} {:?} stands on {:?} but its centre is on {under:?}", o.id, o.name, o.cell))
        })
        .collect()
}

/// Runs `actions` random actions on `map_file`, checking each against undo and redo.
fn random_session(map_file: &str, seed: u64, actions: usize) {
    let path = if map_file.contains('/') { std::path::PathBuf::from(map_file) } else { sample(map_file) };
    let mut app = SightlineApp::new(None);
    app.commands.push(Command::File(FileCommand::Open(path)));
    app.logic_frame(0.0);
    assert!(app.prompts.error.is_none(), "{map_file} opens");
    let mut rng = Rng::new(seed);
    let mut edits = 0;
    // Steps made so far, those the history's bound dropped included.
    let made = |app: &SightlineApp| app.document.undo.len() + app.document.forgotten();
    for i in 0..actions {
        let before = app.document.map.clone();
        let made_before = made(&app);
        let action = random_action(&mut rng, &app);
        app.commands.extend(action.iter().cloned());
        app.commands.push(Command::Objects(ObjectCommand::EndContinuedEdit));
        app.logic_frame(0.0);
        let after = app.document.map.clone();
        let context = format!("{map_file}, seed {seed}, action {i}: {action:?}");
        let off = objects_off_their_cells(&after);
        assert!(off.is_empty(), "{}: {context}", off.join("; "));
        // The action's steps: changes of the selection alone, and at most one of the map.
        let new_steps = made(&app) - made_before;
        let undo = &app.document.undo;
        let map_steps = undo[undo.len() - new_steps..].iter().filter(|s| s.changes_map()).count();
        assert_no_error(&app, &context);
        if after == before {
            assert_eq!(map_steps, 0, "an action that changed nothing left a step: {context}");
            continue;
        }
        edits += 1;
        assert_eq!(map_steps, 1, "one step for the action: {context}");
        app.commands.extend(std::iter::repeat_n(Command::History(HistoryCommand::Undo), new_steps));
        app.logic_frame(0.0);
        assert!(app.document.map == before, "undo gives back the map before the action: {context}");
        app.commands.extend(std::iter::repeat_n(Command::History(HistoryCommand::Redo), new_steps));
        app.logic_frame(0.0);
        assert!(app.document.map == after, "redo gives back the map after it: {context}");
        assert_no_error(&app, &context);
    }
    assert!(edits > actions / 4, "{map_file}: only {edits} of {actions} actions changed the map");
}

#[test]
fn every_action_on_the_dungeon_is_one_undo_step() {
    for seed in 1..=soaked(40) {
        random_session("dungeon.ron", seed, 300);
    }
}

#[test]
fn every_action_on_a_tiled_map_is_one_undo_step() {
    for seed in 101..=100 + soaked(40) {
        random_session("outdoor.tmx", seed, 300);
    }
    let Some(corpus) = corpus() else { return };
    for name in CORPUS {
        for seed in 1..=soaked(10) {
            random_session(corpus.join(name).to_str().unwrap(), seed, 150);
        }
    }
}

/// Saves `map` as each of sightline's formats that keep everything (RON, TMX, TMJ) and reads
/// it back: a save that warns of nothing gives back the same map.
fn saved_and_read_back(map: &Map, context: &str) -> Vec<String> {
    use sightline::core::format;
    let dir = tempfile::tempdir().unwrap();
    let mut differ = Vec::new();
    for ext in ["ron", "tmx", "tmj"] {
        let path = dir.path().join(format!("m.{ext}"));
        let saved = match format::save(map, &path) {
            Ok(saved) => saved,
            Err(e) => {
                differ.push(format!("{ext}: cannot save: {e} ({context})"));
                continue;
            }
        };
        if !saved.warnings.is_empty() {
            continue;
        }
        match format::load(&path) {
            Ok(loaded) if positions_as_saved(map, &loaded.map) == *map => {}
            Ok(loaded) => differ.push(format!(
                "{ext}: read back differs: {} ({context})",
                first_difference(map, &positions_as_saved(map, &loaded.map))
            )),
            Err(e) => differ.push(format!("{ext}: cannot read back: {e} ({context})")),
        }
    }
    differ
}

/// `read` with each object's position taken from `saved` where the two are within a
/// thousandth of a pixel. A Tiled save writes positions to the millionth, but the `tiled` crate
/// reads a TMX position as a 32-bit float (about 7 significant digits: 348.33333 comes back as
/// 348.33334), and Tiled itself writes 6 digits; a map whose objects an edit moved by a
/// fraction comes back that close, not closer.
/// The same holds for a polygon's or path's points and a box's size, which a paste between
/// maps of other cell sizes scales to fractions of a pixel, and for a turn (within a whole
/// turn, as a map is read: `turns_within_one`).
fn positions_as_saved(saved: &Map, read: &Map) -> Map {
    use sightline::core::model::object::ShapeKind;
    let near = |a: [f64; 2], b: [f64; 2]| (0..2).all(|k| (a[k] - b[k]).abs() < 1e-3);
    let mut read = read.clone();
    for (s, r) in saved.objects.iter().zip(&mut read.objects) {
        let (Some(s), Some(r)) = (&s.shape, &mut r.shape) else { continue };
        if near(s.offset, r.offset) {
            r.offset = s.offset;
        }
        if near([s.rotation, 0.0], [r.rotation, 0.0]) {
            r.rotation = s.rotation;
        }
        if let (Some(a), Some(b)) = (s.kind.size(), r.kind.size())
            && near(a, b)
        {
            r.kind = r.kind.clone().with_size(a);
        }
        if let (ShapeKind::Polygon(a) | ShapeKind::Polyline(a), ShapeKind::Polygon(b) | ShapeKind::Polyline(b)) =
            (&s.kind, &mut r.kind)
            && a.len() == b.len()
            && a.iter().zip(b.iter()).all(|(p, q)| near(*p, *q))
        {
            b.clone_from(a);
        }
    }
    read
}

fn first_difference(a: &Map, b: &Map) -> String {
    if let Some(d) = a.first_difference(b) {
        return d;
    }
    let (da, db) = (format!("{a:?}"), format!("{b:?}"));
    let at = da.chars().zip(db.chars()).take_while(|(p, q)| p == q).count();
    let around = |s: &str| s.chars().skip(at.saturating_sub(100)).take(200).collect::<String>();
    format!("\n  saved: …{}…\n  read:  …{}…", around(&da), around(&db))
}

#[test]
fn edited_maps_save_and_read_back_the_same() {
    let mut files = vec![(sample("dungeon.ron"), 201), (sample("outdoor.tmx"), 301)];
    for (i, name) in CORPUS.iter().enumerate() {
        if let Some(corpus) = corpus() {
            files.push((corpus.join(name), 401 + 100 * i as u64));
        }
    }
    for (file, seed) in files {
        for s in seed..seed + soaked(20) {
            edit_at_random(&file, s, 120, 40, |map, context| {
                let differ = saved_and_read_back(map, context);
                assert!(differ.is_empty(), "{}", differ.join("\n"));
            });
        }
    }
}

/// Opens `file` and takes `actions` random actions (seed `seed`) with no check of their own;
/// after every `every` actions, `check` reads the map, with words naming the file, seed and
/// action for its messages.
fn edit_at_random(file: &std::path::Path, seed: u64, actions: usize, every: usize, mut check: impl FnMut(&Map, &str)) {
    let mut app = SightlineApp::new(None);
    app.commands.push(Command::File(FileCommand::Open(file.to_path_buf())));
    app.logic_frame(0.0);
    let mut rng = Rng::new(seed);
    for i in 0..actions {
        let action = random_action(&mut rng, &app);
        app.commands.extend(action);
        app.commands.push(Command::Objects(ObjectCommand::EndContinuedEdit));
        app.logic_frame(0.0);
        assert_no_error(&app, &format!("{}, seed {seed}, action {i}", file.display()));
        if i % every == every - 1 {
            check(&app.document.map, &format!("{}, seed {seed}, action {i}", file.display()));
        }
    }
}

/// Playing while editing (Live edits): random play keys, restarts and presets between random
/// edits, undos and redos. The game follows the map: same size, every actor on it, no two
/// living actors on one cell, and nothing panics.
#[test]
fn play_goes_on_through_random_edits_undos_and_redos() {
    use sightline::app::play::PlayCommand;
    use sightline::core::sim::{Action, Preset};
    let (mut total_played, mut total_restarts) = (0, 0);
    for seed in 1..=soaked(30) {
        let mut app = SightlineApp::new(None);
        app.commands.push(Command::File(FileCommand::Open(sample(if seed % 2 == 0 {
            "dungeon.ron"
        } else {
            "outdoor.tmx"
        }))));
        app.commands.push(Command::Play(PlayCommand::ShowPane(true)));
        app.commands.push(Command::Play(PlayCommand::SetActive(true)));
        app.logic_frame(0.0);
        let mut rng = Rng::new(1000 + seed);
        let (mut played, mut restarts, mut last) = (0, 0, 0);
        for i in 0..200 {
            let action = match rng.below(20) {
                0..=12 => {
                    let play = match rng.below(8) {
                        0 => Action::Wait,
                        1 => Action::Open,
                        2 => Action::Close,
                        3 => Action::Explore,
                        4 => Action::Travel(random_cell(&mut rng, &app.document.map)),
                        _ => Action::Move(rng.range(-1, 2), rng.range(-1, 2)),
                    };
                    vec![Command::Play(PlayCommand::Act(play))]
                }
                13 => vec![Command::History(HistoryCommand::Undo)],
                14 => vec![Command::History(HistoryCommand::Redo)],
                15 if rng.chance(0.2) => {
                    let presets =
                        [Preset::Picotron, Preset::CavesOfZircon, Preset::Terminus, Preset::Jsrlt, Preset::Grass];
                    vec![Command::Play(if rng.chance(0.5) {
                        PlayCommand::Restart
                    } else {
                        PlayCommand::SetPreset(presets[rng.below(5) as usize])
                    })]
                }
                _ => random_action(&mut rng, &app),
            };
            app.commands.extend(action.iter().cloned());
            app.commands.push(Command::Objects(ObjectCommand::EndContinuedEdit));
            // A few frames: a walk goes on step by step.
            for _ in 0..3 {
                app.logic_frame(0.1);
            }
            let context = format!("seed {seed}, action {i}: {action:?}");
            assert_no_error(&app, &context);
            let map = &app.document.map;
            if let Some(w) = app.play.world.as_ref() {
                if w.turn >= last {
                    played += w.turn - last;
                } else {
                    restarts += 1;
                }
                last = w.turn;
            }
            let Some(world) = app.play.world.as_ref() else {
                // No game only where there is nowhere to start.
                assert_eq!(sightline::core::sim::start_cell(map), None, "the game runs: {context}");
                continue;
            };
            assert_eq!((world.map.width(), world.map.height()), (map.width(), map.height()), "{context}");
            let mut standing = std::collections::HashMap::new();
            for (n, actor) in world.actors.iter().enumerate() {
                assert!(world.map.in_bounds(actor.cell), "actor {n} at {} is off the map: {context}", actor.cell);
                if actor.alive()
                    && let Some(other) = standing.insert(actor.cell, n)
                {
                    panic!("actors {other} and {n} both stand at {}: {context}", actor.cell);
                }
            }
        }
        total_played += played;
        total_restarts += restarts;
    }
    // Some sessions crop the map to a closet early; the sessions as a whole play on.
    let sessions = soaked(30);
    assert!(
        total_played > 20 * sessions,
        "only {total_played} turns played in {sessions} sessions ({total_restarts} restarts)"
    );
}

/// Every overlay on while the map is edited at random: after each few edits, what each shows is
/// what a fresh overlay shows on the map as it is, with the same settings and the same cells
/// pinned (the LOS cache's what-if toggles replayed in order). Stale results kept past an edit
/// would show here. Timings are left out of the comparison.
#[test]
fn overlays_show_what_fresh_overlays_show_after_random_edits() {
    use sightline::app::overlays::Marker;
    use sightline::app::{OverlayCommand as O, OverlayKind, Overlays};
    use sightline::core::analysis::los_cache::LosCache;
    use sightline::core::fov::{Opacity, OpacityGrid};
    for seed in 1..=soaked(12) {
        let mut app = SightlineApp::new(None);
        app.commands.push(Command::File(FileCommand::Open(sample(if seed % 2 == 0 {
            "pillars.ron"
        } else {
            "dungeon.ron"
        }))));
        for kind in OverlayKind::ALL {
            app.commands.push(Command::Overlay(O::Show(kind, true)));
        }
        app.logic_frame(0.0);
        let mut rng = Rng::new(2000 + seed);
        for i in 0..60 {
            let action = if rng.chance(0.15) {
                // A Probe click: pins FOV, selects for symmetry, toggles a what-if, pins the
                // lighting viewer, moves the path's goal.
                let map = &app.document.map;
                vec![Command::Overlay(O::Probe(Cell::new(
                    rng.range(0, map.width() as i32),
                    rng.range(0, map.height() as i32),
                )))]
            } else {
                random_action(&mut rng, &app)
            };
            app.commands.extend(action.iter().cloned());
            app.commands.push(Command::Objects(ObjectCommand::EndContinuedEdit));
            app.logic_frame(0.0);
            assert_no_error(&app, &format!("seed {seed}, action {i}: {action:?}"));
            if i % 6 != 5 {
                continue;
            }
            app.wait_for_overlays();
            let (map, revision) = (&app.document.map, app.document.revision());
            let shown = &app.overlays;
            let mut fresh = Overlays::default();
            let mut commands: Vec<O> = OverlayKind::ALL.iter().map(|&k| O::Show(k, true)).collect();
            commands.extend([
                O::RulesSettings(shown.rules.settings.clone()),
                O::PathSettings(shown.path.settings.clone()),
                O::FovSettings(shown.fov.settings.clone()),
                O::SymmetrySettings(shown.symmetry.settings.clone()),
                O::CacheSettings(shown.cache.settings.clone()),
                O::LightingSettings(shown.lighting.settings.clone()),
            ]);
            commands.extend(shown.path.start.map(|c| O::MoveMarker(Marker::Start, c)));
            commands.extend(shown.path.goal.map(|c| O::MoveMarker(Marker::Goal, c)));
            commands.extend(shown.fov.pinned.map(O::PinFov));
            commands.extend(shown.symmetry.selected.map(O::SelectSymmetryCell));
            commands.extend(shown.lighting.pinned.map(O::PinViewer));
            for command in commands {
                fresh.apply(command, map);
            }
            // Unpinned, FOV and lighting keep the last cell they looked from (the pointer's, or
            // a pin since dropped): a fresh one is pointed there.
            let (mut grid, mut externals) = (GridCache::default(), Default::default());
            fresh.fov.update(&mut Frame::new(map, revision, shown.fov.origin, 0.0, &mut grid, &mut externals));
            fresh.lighting.update(&mut Frame::new(
                map,
                revision,
                shown.lighting.viewer,
                0.0,
                &mut grid,
                &mut externals,
            ));
            // The cache is built first, then toggled, as it was.
            fresh.wait_for_jobs(map, revision);
            for &c in &shown.cache.what_if {
                fresh.apply(O::ToggleWhatIf(c), map);
                fresh.wait_for_jobs(map, revision);
            }
            fresh.wait_for_jobs(map, revision);
            let context = format!("seed {seed}, action {i}: {action:?}");
            assert_eq!(untimed(&shown.numbers_text()), untimed(&fresh.numbers_text()), "{context}");
            // The LOS cache, kept up to date edit by edit, reads what one built now reads.
            let mut target = OpacityGrid::from_map(map);
            for c in &shown.cache.what_if {
                target.set(c.x, c.y, !target.is_opaque(c.x, c.y));
            }
            let kept = shown.cache.los_cache().expect("the cache is built");
            assert!(*kept.grid() == target, "the cache's opacity is the map's, what-ifs flipped: {context}");
            let s = &shown.cache.settings;
            let sightline::app::algorithms::FovChoice::Builtin(algorithm) = s.algorithm else {
                panic!("the sessions pick built-in algorithms")
            };
            let built = LosCache::build(&target, algorithm, s.radius).unwrap();
            for y in 0..map.height() as i32 {
                for x in 0..map.width() as i32 {
                    let c = Cell::new(x, y);
                    assert_eq!(kept.view(c), built.view(c), "the cache's view from {c}: {context}");
                }
            }
        }
    }
}

/// Overlay numbers without their timings (the `time_us` column of a table, "built in … ms"),
/// nor the LOS cache's last change (what the edits changed, which a fresh cache has not seen:
/// the test compares the caches' views instead).
fn untimed(numbers: &str) -> String {
    let mut timed_table = false;
    let mut out = String::new();
    for line in numbers.lines() {
        let mut line = line.to_owned();
        if !line.contains('\t') {
            timed_table = false;
        }
        if line.starts_with("toggled ") {
            continue;
        }
        if line.ends_with("\ttime_us") {
            timed_table = true;
        }
        if timed_table && let Some(last) = line.rfind('\t') {
            line.truncate(last);
        }
        if let Some(at) = line.find(", built in ") {
            let end = line[at..].find(" ms").map_or(line.len(), |e| at + e + 3);
            line.replace_range(at..end, "");
        }
        out += &line;
        out.push('\n');
    }
    out
}

/// A tile type as the game and the look read it, with its sprite's image told by its absolute
/// path (`folder` is its map's folder): what "the same tile type" means across two maps.
fn tile_identity(map: &Map, folder: Option<&std::path::Path>, id: TileId) -> String {
    let t = &map.tiles[usize::from(id)];
    let sprite = t.sprite.map(|s| {
        let sheet = &map.sheets[usize::from(s.sheet)];
        let image = match folder {
            Some(folder) if sheet.image.is_relative() => folder.join(&sheet.image),
            _ => sheet.image.clone(),
        };
        let image = std::fs::canonicalize(&image).unwrap_or(image);
        format!("{} #{} of {}", sheet.name, s.index, image.display())
    });
    format!(
        "{:?} class {:?} glyph {:?} sprite {sprite:?} opaque {} walkable {} cost {} door {} properties {:?} frames {} p {}",
        t.name,
        t.class,
        t.glyph,
        t.opaque,
        t.walkable,
        t.cost,
        t.door.is_some(),
        t.properties,
        t.animation.len(),
        t.probability
    )
}

/// Copies between maps, as a designer carries a room from one level to the next: a random
/// selection of a random layer of one map (tiles, or objects on an object layer), copied, another
/// map opened, and the stamp pasted in place or somewhere else on its current layer.
/// - The paste is one undo step: undo gives back the map as it was opened, tile types and
///   tilesets too, and redo the pasted one.
/// - Pasted in place, every copied cell that lands on the map holds the same tile type as it
///   did in the first map (by name, rules, look and image file), with the same flip; no other
///   cell of any layer changes.
/// - The pasted map saves as RON, TMX and TMJ and reads back the same.
#[test]
fn copies_between_maps_paste_the_same_tiles_in_one_undo_step() {
    let mut files = vec![sample("dungeon.ron"), sample("outdoor.tmx"), sample("caves.ron"), sample("dungeon.txt")];
    if let Some(corpus) = corpus() {
        files.extend(CORPUS.iter().map(|name| corpus.join(name)));
    }
    let mut checked_cells = 0;
    let mut pastes = 0;
    for seed in 1..=soaked(200) {
        let mut rng = Rng::new(seed);
        let pick = |rng: &mut Rng| files[rng.below(files.len() as u32) as usize].clone();
        let (from, to) = (pick(&mut rng), pick(&mut rng));
        let context = format!("seed {seed}: {} → {}", from.display(), to.display());
        let mut app = SightlineApp::new(None);
        app.commands.push(Command::File(FileCommand::Open(from.clone())));
        app.logic_frame(0.0);
        // A few edits first, so that the copied tiles are not only the file's.
        for _ in 0..rng.below(4) {
            let action = random_action(&mut rng, &app);
            app.commands.extend(action);
            app.commands.push(Command::Objects(ObjectCommand::EndContinuedEdit));
            app.logic_frame(0.0);
            assert_no_error(&app, &context);
        }
        let source = app.document.map.clone();
        let source_folder = app.document.folder().map(std::path::Path::to_path_buf);
        let item = random_item(&mut rng, &source);
        let a = Cell::new(rng.range(0, source.width() as i32 - 1), rng.range(0, source.height() as i32 - 1));
        let b = Cell::new(a.x + rng.range(0, 8), a.y + rng.range(0, 8));
        app.commands.extend([
            Command::Selection(SelectionCommand::CancelSelection),
            Command::Layers(LayerCommand::SelectLayer(item)),
            Command::Tools(ToolCommand::SelectTool(Tool::Select)),
            Command::Tools(ToolCommand::StrokeBegin(a)),
            Command::Tools(ToolCommand::StrokeMove(b)),
            Command::Tools(ToolCommand::StrokeEnd),
            Command::Selection(SelectionCommand::Copy),
        ]);
        app.logic_frame(0.0);
        let copied_layer = app.editor.layer;
        let copied_objects = matches!(item, StackItem::Layer(LayerRef::Objects(_)));
        if matches!(item, StackItem::Layer(LayerRef::Tiles(_))) {
            assert_eq!(app.editor.clipboard_origin, Some(a), "{context}: the selection copied");
        }

        // The edits are unsaved: the prompt's Discard, as a user carrying a room away answers.
        app.commands.extend([Command::File(FileCommand::Open(to.clone())), Command::File(FileCommand::ConfirmDiscard)]);
        app.logic_frame(0.0);
        assert!(app.prompts.error.is_none(), "{context}: {:?}", app.prompts.error);
        assert_eq!(app.document.path.as_deref(), Some(to.as_path()), "{context}: the second map is open");
        assert_eq!(app.document.edits(), 0, "{context}: a map just opened has no step");
        let opened = app.document.map.clone();
        let folder = app.document.folder().map(std::path::Path::to_path_buf);
        let target_layer = rng.below(opened.layers.len() as u32) as usize;
        app.commands.push(Command::Layers(LayerCommand::SelectLayer(StackItem::Layer(LayerRef::Tiles(target_layer)))));
        let in_place = rng.chance(0.7);
        if in_place {
            app.commands.push(Command::Selection(SelectionCommand::PasteInPlace));
        } else {
            let at = random_cell(&mut rng, &opened);
            app.commands.push(Command::Selection(SelectionCommand::Paste));
            if rng.chance(0.5) {
                let turns = [Turn::FlipHorizontally, Turn::FlipVertically, Turn::RotateClockwise];
                app.commands.push(Command::Tools(ToolCommand::TurnStamp(turns[rng.below(3) as usize])));
            }
            app.commands.push(Command::Selection(SelectionCommand::PasteAt(at)));
        }
        app.commands.push(Command::Objects(ObjectCommand::EndContinuedEdit));
        app.logic_frame(0.0);
        let pasted = app.document.map.clone();
        assert_no_error(&app, &context);
        if pasted == opened {
            // A locked layer, or nothing copied on the map: refused or nothing laid, no step.
            assert_eq!(app.document.edits(), 0, "{context}: a paste that laid nothing left a step");
            continue;
        }
        assert_eq!(app.document.edits(), 1, "{context}: one step for the paste");
        pastes += 1;
        let off = objects_off_their_cells(&pasted);
        assert!(off.is_empty(), "{}: {context}", off.join("; "));
        assert!(pasted.tiles.starts_with(&opened.tiles), "{context}: the map keeps every tile type it had");
        assert!(pasted.sheets.starts_with(&opened.sheets), "{context}: the map keeps every tileset it had");

        if in_place && !copied_objects {
            let layer = &pasted.layers[target_layer];
            for y in 0..pasted.height() as i32 {
                for x in 0..pasted.width() as i32 {
                    let cell = Cell::new(x, y);
                    let i = (y as u32 * pasted.width() + x as u32) as usize;
                    let copied = x >= a.x.min(b.x)
                        && x <= a.x.max(b.x)
                        && y >= a.y.min(b.y)
                        && y <= a.y.max(b.y)
                        && (x as u32) < source.width()
                        && (y as u32) < source.height();
                    let from_tile = copied.then(|| {
                        let j = (y as u32 * source.width() + x as u32) as usize;
                        (source.layers[copied_layer].cells[j], source.layers[copied_layer].flips.get(j))
                    });
                    match from_tile {
                        Some((tile, flip)) if tile != sightline::core::model::tile::EMPTY => {
                            assert_eq!(
                                tile_identity(&pasted, folder.as_deref(), layer.cells[i]),
                                tile_identity(&source, source_folder.as_deref(), tile),
                                "{context}: the tile pasted at {cell:?}"
                            );
                            assert_eq!(layer.flips.get(i), flip, "{context}: the flip pasted at {cell:?}");
                            checked_cells += 1;
                        }
                        _ => assert_eq!(
                            tile_identity(&pasted, folder.as_deref(), layer.cells[i]),
                            tile_identity(&opened, folder.as_deref(), opened.layers[target_layer].cells[i]),
                            "{context}: a cell the stamp does not cover changed at {cell:?}"
                        ),
                    }
                }
            }
            for (k, (now, then)) in pasted.layers.iter().zip(&opened.layers).enumerate() {
                if k != target_layer {
                    assert!(now.cells == then.cells, "{context}: layer {k}, not pasted on, changed");
                }
            }
        }

        app.commands.push(Command::History(HistoryCommand::Undo));
        app.logic_frame(0.0);
        assert!(app.document.map == opened, "{context}: undo gives back the map as opened");
        app.commands.push(Command::History(HistoryCommand::Redo));
        app.logic_frame(0.0);
        assert!(app.document.map == pasted, "{context}: redo gives back the pasted map");
        let differ = saved_and_read_back(&pasted, &context);
        assert!(differ.is_empty(), "{}", differ.join("\n"));
    }
    assert!(pastes > 50, "only {pastes} pastes laid something");
    assert!(checked_cells > 500, "only {checked_cells} pasted cells were checked");
}

/// The cells whose game rules (opaque, walkable, cost where walkable, door) differ between two
/// maps of one size, and the first of them.
fn cells_played_otherwise(a: &Map, b: &Map) -> (usize, Option<Cell>) {
    let mut out = (0, None);
    for y in 0..a.height() as i32 {
        for x in 0..a.width() as i32 {
            let c = Cell::new(x, y);
            let rules = |m: &Map| {
                let r = m.rules_at(c);
                (r.opaque, r.walkable, if r.walkable { r.cost } else { 0.0 }, r.door.is_some())
            };
            if rules(a) != rules(b) {
                out.0 += 1;
                out.1.get_or_insert(c);
            }
        }
    }
    out
}

/// Saved as ASCII or MovingAI, which hold less than the map (one layer, no collision flag,
/// unit costs), an edited map reads back playing otherwise only where the save said so: ASCII
/// names how many cells the game will read otherwise and the first of them, exactly; MovingAI
/// warns whenever a cell changes.
#[test]
fn lossy_saves_say_which_cells_will_play_otherwise() {
    use sightline::core::format;
    let mut files = vec![sample("dungeon.ron"), sample("outdoor.tmx"), sample("caves.ron")];
    if let Some(c) = corpus() {
        files.extend(CORPUS.iter().map(|n| c.join(n)));
    }
    let dir = tempfile::tempdir().unwrap();
    let mut changed_saves = 0;
    for file in &files {
        for s in 1..=soaked(6) {
            edit_at_random(file, s, 60, 20, |map, context| {
                for ext in ["txt", "map"] {
                    let path = dir.path().join(format!("m.{ext}"));
                    let Ok(saved) = format::save(map, &path) else { continue };
                    let loaded =
                        format::load(&path).unwrap_or_else(|e| panic!("{ext}: cannot read back: {e} ({context})"));
                    let (count, first) = cells_played_otherwise(map, &loaded.map);
                    changed_saves += usize::from(count > 0);
                    if ext == "txt" {
                        let said: Vec<&String> =
                            saved.warnings.iter().filter(|w| w.contains("will play otherwise")).collect();
                        match first {
                            None => {
                                assert!(said.is_empty(), "txt: {said:?}, but every cell plays the same ({context})")
                            }
                            Some(first) => {
                                let cells = if count == 1 { "1 cell".to_owned() } else { format!("{count} cells") };
                                let expected = format!("{cells} will play otherwise when read back (from {first})");
                                assert!(
                                    said.len() == 1 && said[0].starts_with(&expected),
                                    "txt: expected a warning starting {expected:?}, found {said:?} ({context})"
                                );
                            }
                        }
                    } else {
                        assert!(
                            count == 0 || !saved.warnings.is_empty(),
                            "map: {count} cells changed unsaid ({context})"
                        );
                    }
                }
            });
        }
    }
    assert!(changed_saves > 20, "only {changed_saves} saves changed a cell");
}

/// Maps read from damaged files: whatever a mutated file still loads as (an odd name, a stray
/// property, a cut row, a flipped bit in a number) saves as RON, TMX and TMJ and reads back the
/// same, as an edited map does; one read from ASCII or MovingAI also in its own format. The
/// loaders accept more than the writers were tried on; this is where the two meet.
#[test]
fn maps_read_from_mutated_files_save_and_read_back_the_same() {
    use common::mutation::mutate;
    use sightline::core::format::{self, Format};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = [
        "typed_properties.tmx",
        "objects.tmx",
        "object_layers.tmx",
        "object_ids.tmx",
        "groups.tmx",
        "animated.tmx",
        "terrain.tmx",
        "tile_drawing.tmx",
        "infinite.tmx",
        "corners.tmx",
        "external_tileset.tmx",
    ];
    let files = ["pillars.ron", "dungeon.ron", "outdoor.ron", "dungeon.txt", "dungeon.tmj", "outdoor.tmx"]
        .map(sample)
        .into_iter()
        .chain(fixtures.map(|f| root.join("tests/fixtures").join(f)))
        .map(|path| (std::fs::read(&path).unwrap(), path));
    // An ASCII map with a legend of every kind, and a MovingAI map (their paths name no file:
    // nothing is read beside them).
    let legend = "legend:\nT = tile name=\"tree\" opaque fg=#22aa22 bg=#103010\nD = tile opaque door=closed toggles=d\n\
                  d = tile walkable door=open toggles=D cost=2.5\ng = monster name=goblin vision=6 light=2\n\
                  @ = player name=hero light=3 vision=5\n* = item name=gold\nL = light radius=4\n---\n\
                  ########\n#@T.g.*#\n#~\"L.D.#\n#..d...#\n########\n";
    let movingai = "type octile\nheight 3\nwidth 5\nmap\n@@@@@\n@.TW@\n@@@@@\n";
    let inline = [(legend, "legend.txt"), (movingai, "grid.map")]
        .map(|(text, name)| (text.as_bytes().to_vec(), root.join(name)));
    let dir = tempfile::tempdir().unwrap();
    let mut seed = 0;
    for (bytes, path) in files.chain(inline) {
        let format = Format::from_path(&path).unwrap();
        let mut loaded = 0;
        for _ in 0..soaked(60) {
            seed += 1;
            let mutated = mutate(&bytes, &mut Rng::new(seed));
            let Ok(read) = format::load_bytes(&mutated, format, &path) else { continue };
            loaded += 1;
            let context = format!("{} mutated, seed {seed}", path.display());
            let mut differ = saved_and_read_back(&read.map, &context);
            // A map read from ASCII or MovingAI saves in its own format again, and reads back the
            // same when the save warns of nothing.
            if matches!(format, Format::Ascii | Format::MovingAi) {
                let own = dir.path().join(path.file_name().unwrap());
                match format::save(&read.map, &own) {
                    Ok(saved) if saved.warnings.is_empty() => match format::load(&own) {
                        Ok(back) if back.map == read.map => {}
                        Ok(back) => differ.push(format!(
                            "its own format: read back differs: {} ({context})",
                            first_difference(&read.map, &back.map)
                        )),
                        Err(e) => differ.push(format!("its own format: cannot read back: {e} ({context})")),
                    },
                    Ok(_) => {}
                    Err(e) => differ.push(format!("its own format: cannot save: {e} ({context})")),
                }
            }
            if !differ.is_empty() {
                let kept = std::env::temp_dir().join(format!("sightline-mutated-{seed}"));
                std::fs::write(&kept, &mutated).unwrap();
                panic!("{}\n(the mutated file is kept in {})", differ.join("\n"), kept.display());
            }
        }
        assert!(loaded > 0, "{}: no mutation loaded", path.display());
    }
}

/// Edits on maps read from damaged files: a damaged file that still loads, then random edits,
/// and the map saves and reads back the same every few actions (the check of
/// `edited_maps_save_and_read_back_the_same`, on the odd maps only a damaged file makes).
#[test]
fn edits_on_maps_read_from_mutated_files_save_and_read_back_the_same() {
    use common::mutation::mutate;
    use sightline::core::format::{self, Format};
    // The sample maps' folder, copied: the files a map names are beside it.
    let dir = tempfile::tempdir().unwrap();
    let maps = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps");
    for entry in std::fs::read_dir(&maps).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n != "large.ron") {
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    let mut seed = 0;
    for name in ["pillars.ron", "dungeon.txt", "dungeon.tmj", "outdoor.tmx"] {
        let source = maps.join(name);
        let bytes = std::fs::read(&source).unwrap();
        let format = Format::from_path(&source).unwrap();
        let target = dir.path().join(format!("mutated-{name}"));
        for _ in 0..soaked(4) {
            // The next mutation that still loads.
            let mutated = loop {
                seed += 1;
                let mutated = mutate(&bytes, &mut Rng::new(seed));
                if format::load_bytes(&mutated, format, &target).is_ok() {
                    break mutated;
                }
            };
            std::fs::write(&target, &mutated).unwrap();
            edit_at_random(&target, seed, 60, 15, |map, context| {
                let differ = saved_and_read_back(map, context);
                if !differ.is_empty() {
                    let kept = std::env::temp_dir().join(format!("sightline-mutated-{seed}"));
                    std::fs::write(&kept, &mutated).unwrap();
                    panic!("{}\n(the mutated file is kept in {})", differ.join("\n"), kept.display());
                }
            });
        }
    }
}

/// A damaged tileset file that still loads, beside a sound map: the map saves and reads back
/// the same (the tileset referred to or written into the map, as its save decides).
#[test]
fn maps_of_mutated_tileset_files_save_and_read_back_the_same() {
    use common::mutation::mutate;
    use sightline::core::format;
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixtures.join("tiny.png"), dir.path().join("tiny.png")).unwrap();
    std::fs::copy(fixtures.join("external_tileset.tmx"), dir.path().join("map.tmx")).unwrap();
    // tiny.tsx, and rich.tsx: what sightline reads from a tileset file (rule properties of every
    // type, a class value, an animation, a tile's collision shapes, a terrain set).
    let sources = ["tiny.tsx", "rich.tsx"].map(|f| std::fs::read(fixtures.join(f)).unwrap());
    let mut loaded = 0;
    for seed in 1..=soaked(300) {
        let mutated = mutate(&sources[seed as usize % 2], &mut Rng::new(seed));
        std::fs::write(dir.path().join("tiny.tsx"), &mutated).unwrap();
        let Ok(read) = format::load(&dir.path().join("map.tmx")) else { continue };
        loaded += 1;
        let differ = saved_and_read_back(&read.map, &format!("tiny.tsx mutated, seed {seed}"));
        assert!(differ.is_empty(), "{}\nthe tileset:\n{}", differ.join("\n"), String::from_utf8_lossy(&mutated));
    }
    assert!(loaded > 0);
}
