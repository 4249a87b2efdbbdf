//! The files a Tiled map names besides itself, in either of Tiled's formats: Tiled lets a TMX
//! map name a JSON tileset (`.tsj`) or template (`.tj`), and a JSON map a TSX tileset or TX
//! template. Each reader is handed [`TiledFiles`] and reads through it, so the two readers
//! share the document model without calling each other.

use std::path::Path;

use super::tiled_common::{Doc, ObjectDoc, SideFiles, TemplateTilesets, TilesetDoc};
use crate::core::model::error::{MapError, MapErrorKind};

/// Reads side files from disk, choosing the format by what the file holds (JSON starts with
/// `{`), as Tiled does, rather than by its name.
pub(crate) struct TiledFiles;

/// Whether a file holds JSON (its first character that is not white space is `{`).
fn is_json(path: &Path) -> Result<bool, MapError> {
    use std::io::Read as _;
    let mut head = Vec::with_capacity(256);
    std::fs::File::open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .map_err(|e| MapError::from(e).in_file(path))?;
    Ok(head.iter().find(|b| !b.is_ascii_whitespace() && **b != 0xEF && **b != 0xBB && **b != 0xBF) == Some(&b'{'))
}

impl SideFiles for TiledFiles {
    fn tileset(&self, path: &Path) -> Result<TilesetDoc, MapError> {
        if !path.exists() {
            return Err(MapError::new(MapErrorKind::MissingTileset(path.to_owned())));
        }
        let called = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        if is_json(path)? { super::tmj::load_tsj(path, &called) } else { super::tmx::read_tsx(path) }
    }

    fn template(&self, path: &Path, tilesets: &mut TemplateTilesets, doc: &mut Doc) -> Result<ObjectDoc, MapError> {
        if is_json(path)? {
            super::tmj::read_tj(path, tilesets, doc, self)
        } else {
            super::tmx::read_tx(path, tilesets, doc, self)
        }
    }
}
