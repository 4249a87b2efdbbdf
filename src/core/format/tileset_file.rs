//! Writing a sheet's tileset back to the Tiled tileset file it was read from (`.tsx` or `.tsj`),
//! as saving a tileset in Tiled does: an edit of its tiles' rules (opaque, walkable, door, cost)
//! then reaches every map that uses the file, and a save of the map refers to the file again
//! (see `tiled_common`'s "Tileset files").
//!
//! A write is prepared first ([`prepare`]), so that what it would lose is said before anything
//! is written ([`TilesetFileWrite::concerns`]): changes made to the file since the map read it
//! (in Tiled, say), and what the file holds that sightline does not keep (the collision shapes
//! of tiles, enum types on rule properties, the tileset's grid, background colour and export
//! settings). The file is written atomically.

use std::path::{Path, PathBuf};

use super::tiled_common::{self, Dropped, SideFiles, TilesetDoc};
use crate::core::model::error::MapError;
use crate::core::model::map::Map;
use crate::core::model::sheet::FormatMemo;
use crate::core::model::tile::PropertyValue;

/// A tileset file ready to be written, and what writing it would lose.
#[derive(Debug)]
pub struct TilesetFileWrite {
    /// The file, absolute.
    pub path: PathBuf,
    text: String,
    /// The tileset as the file holds it once written: what the map's sheets read from this
    /// file are compared with from then on ([`crate::core::model::sheet::TilesetFile::as_read`]).
    pub as_read: FormatMemo,
    /// Why writing needs the user's word, one sentence each; empty when nothing is lost.
    pub concerns: Vec<String>,
}

impl TilesetFileWrite {
    /// The file's name, as messages give it.
    pub fn file_name(&self) -> String {
        self.path.file_name().unwrap_or_default().to_string_lossy().into_owned()
    }

    /// Writes the file (atomically: a failure leaves it as it was).
    pub fn write(&self) -> Result<(), MapError> {
        super::write_atomic(&self.path, self.text.as_bytes()).map_err(|e| e.in_file(&self.path))
    }
}

/// Prepares writing sheet `sheet`'s tileset, as the map now has it, to the file it was read
/// from, its image path made relative to the file's folder. Errors: the sheet has no tileset
/// file, or one whose format sightline cannot write.
///
/// ```
/// use sightline::core::format::{self, tileset_file};
/// # let dir = std::env::temp_dir().join(format!("sightline-doc-tileset-file-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(
///     dir.join("t.tsx"),
///     r#"<tileset name="t" tilewidth="1" tileheight="1" tilecount="2" columns="2">
///          <image source="t.png" width="2" height="1"/>
///        </tileset>"#,
/// )
/// .unwrap();
/// std::fs::write(
///     dir.join("m.tmx"),
///     r#"<map version="1.10" orientation="orthogonal" width="1" height="1" tilewidth="1" tileheight="1">
///          <tileset firstgid="1" source="t.tsx"/>
///          <layer name="ground" width="1" height="1"><data encoding="csv">1</data></layer>
///        </map>"#,
/// )
/// .unwrap();
/// let mut map = format::load(&dir.join("m.tmx")).unwrap().map;
/// map.tiles[2].opaque = true; // the tileset's second tile blocks sight from now on
/// let write = tileset_file::prepare(&map, 0).unwrap();
/// assert!(write.concerns.is_empty());
/// write.write().unwrap();
/// assert!(std::fs::read_to_string(dir.join("t.tsx")).unwrap().contains(r#"<property name="opaque" type="bool" value="true"/>"#));
/// # std::fs::remove_dir_all(&dir).ok();
/// ```
pub fn prepare(map: &Map, sheet: usize) -> Result<TilesetFileWrite, MapError> {
    let s = map.sheets.get(sheet).ok_or_else(|| MapError::invalid(format!("the map has no tileset {sheet}")))?;
    let file = s
        .file
        .as_ref()
        .ok_or_else(|| MapError::invalid(format!("tileset {:?} was not read from a tileset file", s.name)))?;
    let path = file.path.clone();
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let (written, as_read) = tiled_common::sheet_tileset(map, sheet, &dir);
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let text = match extension.as_str() {
        "tsx" => super::tmx::tileset_file(&written),
        "tsj" | "json" => super::tmj::tileset_file(&written),
        _ => {
            return Err(MapError::invalid("sightline writes tileset files named .tsx (XML) or .tsj/.json (JSON) only")
                .in_file(&path));
        }
    };
    let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let mut concerns = Vec::new();
    if path.is_file() {
        let read_now = super::tiled_files::TiledFiles.tileset(&path);
        match read_now.and_then(|raw| Ok((tiled_common::tileset_as_read(&path, &raw)?, raw))) {
            Ok((now, raw)) => {
                if file.as_read.as_ref().and_then(FormatMemo::get::<TilesetDoc>) != Some(&now) {
                    concerns.push(format!(
                        "{name} was changed since this map read it (in Tiled, perhaps): writing it replaces those changes"
                    ));
                }
                let not_kept = not_kept_in(&raw, &path);
                if !not_kept.is_empty() {
                    concerns.push(format!(
                        "{name} has {}, which sightline does not keep: writing it drops them",
                        not_kept.join(", ")
                    ));
                }
            }
            Err(e) => concerns.push(format!("{name} cannot be read now ({e}): writing it replaces it")),
        }
    }
    Ok(TilesetFileWrite { path, text, as_read: FormatMemo::new(as_read), concerns })
}

/// What a tileset file holds that a write of it would drop, named for the question asked first.
fn not_kept_in(raw: &TilesetDoc, path: &Path) -> Vec<&'static str> {
    let mut kinds = Vec::new();
    if raw.tile_shapes {
        kinds.push(Dropped::TileShapes.label());
    }
    if raw.tiles_past_image() > 0 {
        kinds.push(Dropped::TilesPastImage.label());
    }
    let rule_keys = || tiled_common::RULE_PROPERTIES.iter().chain(tiled_common::LOOK_PROPERTIES.iter());
    if raw.tiles.values().any(|t| rule_keys().any(|k| matches!(t.properties.get(*k), Some(PropertyValue::Enum { .. }))))
    {
        kinds.push(Dropped::RuleEnumTypes.label());
    }
    // Tileset settings the readers pass over, looked for in the text itself.
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let json = !text.trim_start().starts_with('<');
    let top_keys: Vec<String> = if json {
        serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.as_object().map(|o| o.keys().cloned().collect()))
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let has = |xml: &str, key: &str| if json { top_keys.iter().any(|k| k == key) } else { text.contains(xml) };
    if has("<grid", "grid") {
        kinds.push("its grid settings (orientation and cell size, for isometric tiles)");
    }
    if has("backgroundcolor=", "backgroundcolor") {
        kinds.push("its background colour");
    }
    if has("<editorsettings", "editorsettings") {
        kinds.push("its editor settings (export target and format)");
    }
    kinds
}
