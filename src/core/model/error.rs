//! Typed errors for everything that reads or writes a map. Each names the file and, where it
//! applies, the line/column, layer or tileset, so a designer can find the problem.

use std::fmt;
use std::path::{Path, PathBuf};

/// The part of a map the problem is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A named layer.
    Layer(String),
    /// A tileset, by name or file.
    Tileset(String),
    /// An object template, by file.
    Template(String),
    /// The tileset an object template names: the template's file and the tileset's (boxed, to
    /// keep every `Result<_, MapError>` small).
    TemplateTileset(Box<(String, String)>),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Layer(name) => write!(f, "layer {name:?}"),
            Location::Tileset(name) => write!(f, "tileset {name:?}"),
            Location::Template(file) => write!(f, "object template {file:?}"),
            Location::TemplateTileset(names) => {
                let (template, tileset) = names.as_ref();
                write!(f, "object template {template:?}, its tileset {tileset:?}")
            }
        }
    }
}

/// What is wrong.
#[derive(Debug, thiserror::Error)]
pub enum MapErrorKind {
    /// The system's reason, said once: its text is this error's text, not also its source
    /// (a chain printed whole, as the command line does, would say it twice).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error("the file is empty")]
    Empty,
    #[error("the file is not valid {format}: {message}")]
    Syntax { format: &'static str, message: String },
    #[error("unknown glyph {0:?} (not a built-in tile and not in the legend)")]
    UnknownGlyph(char),
    #[error("unknown tile id (GID) {0}: no tileset of the map contains it")]
    UnknownGid(u32),
    /// A GID past the tiles of the tileset it would belong to (the one with the greatest first
    /// GID not above it): often a tileset file that lost tiles since the map was drawn.
    /// `why` names that tileset and what it holds.
    #[error("unknown tile id (GID) {gid}: {why}")]
    GidPastTileset { gid: u32, why: String },
    #[error("the layer data has {found} tiles where the map size needs {expected}")]
    DataLength { expected: usize, found: usize },
    #[error(
        "the map size {width}×{height} is not allowed: each side must be 1 to {max}",
        max = crate::core::model::limits::MAX_MAP_SIDE
    )]
    Dimensions { width: i64, height: i64 },
    #[error(
        "the layers hold {cells} cells or more in all; sightline holds at most {max} (eight layers of {side}×{side})",
        max = crate::core::model::limits::MAX_LAYER_CELLS,
        side = crate::core::model::limits::MAX_MAP_SIDE
    )]
    TooManyCells { cells: u64 },
    #[error("the tileset file {0} cannot be read")]
    MissingTileset(PathBuf),
    #[error("the tile data cannot be decoded: {0}")]
    Decode(String),
    #[error("format version {0} is not supported (this sightline reads version 1)")]
    UnsupportedVersion(u32),
    #[error("{0}")]
    Unsupported(String),
    #[error("{0}")]
    Invalid(String),
    #[error("unknown map format {0:?}: use .ron, .txt, .tmx, .tmj/.json or .map")]
    UnknownFormat(String),
}

/// A load or save failure: the file, where in it, and what.
#[derive(Debug)]
pub struct MapError {
    pub file: Option<PathBuf>,
    /// 1-based line and, when known, 1-based column.
    pub line: Option<(usize, Option<usize>)>,
    pub location: Option<Location>,
    pub kind: MapErrorKind,
}

impl MapError {
    pub fn new(kind: MapErrorKind) -> Self {
        Self { file: None, line: None, location: None, kind }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(MapErrorKind::Invalid(message.into()))
    }

    pub fn syntax(format: &'static str, message: impl Into<String>) -> Self {
        Self::new(MapErrorKind::Syntax { format, message: message.into() })
    }

    pub fn at_line(mut self, line: usize, column: Option<usize>) -> Self {
        self.line.get_or_insert((line, column));
        self
    }

    pub fn in_layer(mut self, name: &str) -> Self {
        self.location.get_or_insert(Location::Layer(name.to_owned()));
        self
    }

    pub fn in_tileset(mut self, name: &str) -> Self {
        self.location.get_or_insert(Location::Tileset(name.to_owned()));
        self
    }

    /// Names the object template where the problem is, unless an inner step named a place
    /// other than a tileset (the template's tileset is then named with it).
    pub fn in_template(mut self, file: &str) -> Self {
        self.location = Some(match self.location.take() {
            None => Location::Template(file.to_owned()),
            // The tileset was read for the template: both are named.
            Some(Location::Tileset(tileset)) => Location::TemplateTileset(Box::new((file.to_owned(), tileset))),
            Some(inner) => inner,
        });
        self
    }

    /// Names the file, unless an inner step already named a more precise one (a tileset file).
    pub fn in_file(mut self, path: &Path) -> Self {
        self.file.get_or_insert_with(|| path.to_owned());
        self
    }
}

impl From<MapErrorKind> for MapError {
    fn from(kind: MapErrorKind) -> Self {
        Self::new(kind)
    }
}

impl From<std::io::Error> for MapError {
    fn from(e: std::io::Error) -> Self {
        Self::new(MapErrorKind::Io(e))
    }
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}: ", file.display())?;
        }
        match self.line {
            Some((line, Some(column))) => write!(f, "line {line}, column {column}: ")?,
            Some((line, None)) => write!(f, "line {line}: ")?,
            None => {}
        }
        if let Some(location) = &self.location {
            write!(f, "{location}: ")?;
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for MapError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.kind.source()
    }
}
