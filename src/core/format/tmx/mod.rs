//! Tiled's XML formats: TMX maps, TSX tilesets and TX object templates. See
//! [`super::tiled_common`] for the document model both Tiled formats read into and write from,
//! and for what the tiles' properties mean.
//!
//! Each file is parsed once, with quick-xml, into an element tree ([`xml`]) that [`read`] walks
//! into the document model; [`write`] writes the model back as Tiled writes it.

mod read;
mod write;
mod xml;

use std::path::Path;

use super::Loaded;
use super::tiled_common::{self, SideFiles};
use crate::core::model::error::MapError;

pub(crate) use read::{read_tsx, read_tx};
pub(crate) use write::tileset_file;
pub(super) use write::to_string;

/// Reads a TMX map; the files it names are read through `files`.
pub(crate) fn parse(bytes: &[u8], path: &Path, files: &dyn SideFiles) -> Result<Loaded, MapError> {
    tiled_common::build_map(read::read_map(bytes, path, files)?)
}
