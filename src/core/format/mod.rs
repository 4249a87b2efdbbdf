//! Map file formats. Each module reads into and writes from the same [`Map`] model; the API is
//! [`load`], [`save`], [`save_as`] and [`render`], which choose the format by extension.
//!
//! | extension        | module                     | reads | writes |
//! |------------------|----------------------------|-------|--------|
//! | `.ron`           | `ron_map`                  | yes   | yes    |
//! | `.txt`           | [`ascii`]                  | yes   | yes    |
//! | `.tmx` (+`.tsx`) | `tmx`, over `tiled_common` | yes   | yes    |
//! | `.tmj`, `.json`  | `tmj`, over `tiled_common` | yes   | yes    |
//! | `.map`           | [`movingai`]               | yes   | yes    |
//!
//! ASCII stays public as the tests' map language, MovingAI for its scenario files, and
//! [`tileset_file`] for writing a Tiled tileset file back. The Tiled document model and the
//! RON, TMX and TMJ modules are this room's own.
//!
//! Saves are atomic: the file is written beside its destination and renamed over it.

pub mod ascii;
pub mod movingai;
mod ron_map;
pub mod samples;
mod tiled_common;
mod tiled_files;
pub mod tileset_file;
mod tmj;
mod tmj_legacy;
mod tmx;

pub use tiled_common::{LOOK_PROPERTIES, RULE_PROPERTIES, WRITER_PROPERTY, encode_png_rgb, sheets_as_read};
pub use tmj::properties_json;

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::core::model::error::{MapError, MapErrorKind};
use crate::core::model::map::Map;

/// Files larger than this are refused before reading (no real map comes close; a 4096² map
/// in the most verbose format is about 100 MiB).
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Ron,
    Ascii,
    Tmx,
    Tmj,
    MovingAi,
}

impl Format {
    pub const ALL: [Format; 5] = [Format::Ron, Format::Ascii, Format::Tmx, Format::Tmj, Format::MovingAi];

    /// The format a file's extension names.
    pub fn from_path(path: &Path) -> Result<Format, MapError> {
        if path.is_dir() {
            return Err(MapError::invalid("this is a folder, not a map file").in_file(path));
        }
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
        match ext.as_str() {
            "ron" => Ok(Format::Ron),
            "txt" => Ok(Format::Ascii),
            "tmx" => Ok(Format::Tmx),
            "tmj" | "json" => Ok(Format::Tmj),
            "map" => Ok(Format::MovingAi),
            _ => Err(MapError::new(MapErrorKind::UnknownFormat(ext)).in_file(path)),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Ron => "sightline RON",
            Format::Ascii => "ASCII",
            Format::Tmx => "Tiled TMX",
            Format::Tmj => "Tiled JSON",
            Format::MovingAi => "MovingAI",
        }
    }

    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Ron => &["ron"],
            Format::Ascii => &["txt"],
            Format::Tmx => &["tmx"],
            Format::Tmj => &["tmj", "json"],
            Format::MovingAi => &["map"],
        }
    }
}

/// A loaded map and what the loader had to say about it that was not an error
/// (a missing tileset image, a fallback rule applied).
#[derive(Debug)]
pub struct Loaded {
    pub map: Map,
    pub warnings: Vec<String>,
    /// What the file holds that sightline does not keep (Tiled's Wang sets, animations, …): a
    /// save over the file drops them, so the app asks first. Empty for sightline's own formats.
    pub not_kept: Vec<&'static str>,
}

impl Loaded {
    pub fn clean(map: Map) -> Self {
        Self { map, warnings: Vec::new(), not_kept: Vec::new() }
    }
}

/// What a save wrote and what it could not keep (a format that cannot hold layers, say).
#[derive(Debug, Default)]
pub struct Saved {
    /// Every file written (a TMX save also writes its glyph tileset image).
    pub files: Vec<PathBuf>,
    pub warnings: Vec<String>,
}

/// A path as a Tiled file writes it: `/` between its parts, as Tiled writes on every system. Only
/// Windows' own separator is turned: on other systems a backslash is a character a file's name
/// may hold, and turning it would name another file.
pub(crate) fn file_reference(path: &Path) -> String {
    let text = path.to_string_lossy();
    if cfg!(windows) { text.replace('\\', "/") } else { text.into_owned() }
}

/// Names for one warning about many things: all of them up to four, else the first three and
/// how many more (a Tiled map can have hundreds of tiles, and a warning a line each buries the
/// rest).
pub(crate) fn listed_names(names: &[&str]) -> String {
    listed(&names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>())
}

/// `items` as [`listed_names`] lists names, each as it is written (not quoted).
pub(crate) fn listed(items: &[String]) -> String {
    if items.len() <= 4 { items.join(", ") } else { format!("{} and {} more", items[..3].join(", "), items.len() - 3) }
}

/// The f64 written the way the f32 reads: 0.49, not the 0.49000000953674316 that `as f64` gives
/// (for JSON, where a layer's opacity would otherwise show the float's error).
pub fn shortest_f64(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(f64::from(x))
}

/// Warnings for a format that keeps no custom data (ASCII, MovingAI): the map's custom
/// properties, class, background colour and Tiled orientation, flipped tiles, layer groups, and the layers' opacity, look and custom properties, named so
/// that a save says what it leaves out.
pub(crate) fn custom_data_warnings(map: &Map, format: &str) -> Vec<String> {
    let mut warnings = Vec::new();
    if !map.properties.is_empty() {
        let names: Vec<&str> = map.properties.keys().map(String::as_str).collect();
        warnings.push(format!("the map's custom properties ({}) are not kept in {format}", listed_names(&names)));
    }
    let look = match (!map.class.is_empty(), map.background.is_some()) {
        (true, true) => Some("class and background colour are"),
        (true, false) => Some("class is"),
        (false, true) => Some("background colour is"),
        (false, false) => None,
    };
    if let Some(what) = look {
        warnings.push(format!("the map's {what} not kept in {format}"));
    }
    if !map.tiled_editor.export_target.is_empty() {
        warnings.push(format!(
            "the map's Tiled export target ({}) is not kept in {format}",
            map.tiled_editor.export_target
        ));
    }
    if map.tiled.infinite_origin.is_some() {
        warnings.push(format!(
            "the map is infinite in Tiled; {format} keeps the rectangle its tiles cover, numbered from 0, 0"
        ));
    }
    if !map.tiled.orientation.is_orthogonal() {
        warnings.push(format!(
            "the map's {} orientation is not kept in {format}: the file reads back as orthogonal",
            map.tiled.orientation.name()
        ));
    }
    let flipped: usize = map.layers.iter().map(|l| l.flips.count()).sum();
    if flipped > 0 {
        warnings.push(format!(
            "{flipped} tile{} flipped or turned (Tiled's flip flags) {} written unflipped in {format}",
            if flipped == 1 { "" } else { "s" },
            if flipped == 1 { "is" } else { "are" }
        ));
    }
    if !map.groups.is_empty() {
        let names: Vec<&str> = map.groups.iter().map(|g| g.name.as_str()).collect();
        warnings.push(format!(
            "layer groups ({}) are not kept in {format}, nor how they show their layers",
            listed_names(&names)
        ));
    }
    let plain = |l: &&crate::core::model::map::Layer| {
        l.opacity == 1.0
            && l.properties.is_empty()
            && l.tint.is_none()
            && l.offset == [0.0; 2]
            && l.parallax == [1.0; 2]
    };
    let layers: Vec<&str> = map.layers.iter().filter(|l| !plain(l)).map(|l| l.name.as_str()).collect();
    if !layers.is_empty() {
        warnings.push(format!(
            "layer opacity, tint, offset, parallax and custom properties (layer{} {}) are not kept in {format}",
            if layers.len() == 1 { "" } else { "s" },
            listed_names(&layers)
        ));
    }
    warnings
}

/// Loads a map, choosing the format by extension. Errors name the file.
pub fn load(path: &Path) -> Result<Loaded, MapError> {
    // A path that names no file says so, whatever its extension (a mistyped `maps/dungeon`
    // should not read as a format question).
    let format = Format::from_path(path).map_err(|e| match std::fs::metadata(path) {
        Err(io) if io.kind() == std::io::ErrorKind::NotFound => MapError::from(io).in_file(path),
        _ => e,
    })?;
    let bytes = read_file(path)?;
    load_bytes(&bytes, format, path).map_err(|e| e.in_file(path))
}

/// Loads a map from bytes already read. `path` names the file in messages and is where
/// relative references (Tiled's `.tsx` tilesets and images) are resolved from.
pub fn load_bytes(bytes: &[u8], format: Format, path: &Path) -> Result<Loaded, MapError> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(MapErrorKind::Empty.into());
    }
    let mut loaded = match format {
        Format::Ron => Loaded::clean(ron_map::parse(as_text(bytes, "RON")?, path)?),
        Format::Ascii => Loaded::clean(ascii::parse(as_text(bytes, "ASCII map")?)?),
        Format::Tmx => tmx::parse(bytes, path, &tiled_files::TiledFiles)?,
        Format::Tmj => tmj::parse(as_text(bytes, "JSON")?, path, &tiled_files::TiledFiles)?,
        Format::MovingAi => Loaded::clean(movingai::parse_map(as_text(bytes, "MovingAI map")?)?),
    };
    loaded.map.validate()?;
    let capped = crate::core::model::object::radii_within_limits(&mut loaded.map.objects);
    if !capped.is_empty() {
        let most = crate::core::model::object::MAX_RADIUS;
        loaded
            .warnings
            .push(format!("objects {} are given a radius of {most}, the most sightline gives", listed(&capped)));
    }
    crate::core::model::object::turns_within_one(&mut loaded.map.objects);
    // A Tiled file records the layer format in its tile layers' data: a map without one has
    // the default, whichever file it came from.
    if loaded.map.layers.is_empty() {
        loaded.map.tiled.layer_format = Default::default();
    }
    tiled_common::remember_tileset_files(&mut loaded.map);
    Ok(loaded)
}

/// Saves a map in the format its extension names, atomically.
pub fn save(map: &Map, path: &Path) -> Result<Saved, MapError> {
    let format = Format::from_path(path)?;
    save_as(map, path, format)
}

pub fn save_as(map: &Map, path: &Path, format: Format) -> Result<Saved, MapError> {
    render_as(map, path, format)?.write()
}

/// A save made ready and not yet written: the file's text, the files beside it (a TMX or TMJ
/// save's glyph tileset image), and what the file will not keep of the map. The app asks
/// before writing a save that warns (see [`Rendered::warnings`]); [`save`] writes at once.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    pub path: PathBuf,
    text: String,
    extra_files: Vec<(PathBuf, Vec<u8>)>,
    /// What the file will not keep of the map.
    pub warnings: Vec<String>,
    /// What the save says that loses nothing: a tileset written into the map rather than
    /// referred to in its own file.
    pub notes: Vec<String>,
}

impl Rendered {
    /// The map file's text, as [`Rendered::write`] writes it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Writes the files, each atomically: the extra files first, so that the map never names a
    /// missing image.
    pub fn write(&self) -> Result<Saved, MapError> {
        let warnings = self.warnings.iter().chain(&self.notes).cloned().collect();
        let mut saved = Saved { files: Vec::new(), warnings };
        for (extra, bytes) in &self.extra_files {
            write_atomic(extra, bytes).map_err(|e| e.in_file(extra))?;
            saved.files.push(extra.clone());
        }
        write_atomic(&self.path, self.text.as_bytes()).map_err(|e| e.in_file(&self.path))?;
        saved.files.push(self.path.clone());
        Ok(saved)
    }
}

/// What saving `map` to `path` would write, in the format its extension names, and what the
/// file would not keep; nothing is written.
pub fn render(map: &Map, path: &Path) -> Result<Rendered, MapError> {
    render_as(map, path, Format::from_path(path)?)
}

fn render_as(map: &Map, path: &Path, format: Format) -> Result<Rendered, MapError> {
    let (text, extra_files, warnings, notes) = match format {
        Format::Ron => {
            // RON keeps everything; it says only which tilesets it writes whole.
            let (text, notes) = ron_map::to_string(map, path)?;
            (text, Vec::new(), Vec::new(), notes)
        }
        Format::Ascii => {
            let (text, warnings) = ascii::to_string(map)?;
            (text, Vec::new(), warnings, Vec::new())
        }
        Format::Tmx | Format::Tmj => {
            let out = if format == Format::Tmx { tmx::to_string(map, path)? } else { tmj::to_string(map, path)? };
            (out.text, out.extra_files, out.warnings, out.notes)
        }
        Format::MovingAi => {
            let (text, warnings) = movingai::map_to_string(map);
            (text, Vec::new(), warnings, Vec::new())
        }
    };
    Ok(Rendered { path: path.to_owned(), text, extra_files, warnings, notes })
}

/// Reads a whole file, refusing one over [`MAX_FILE_BYTES`].
pub fn read_file(path: &Path) -> Result<Vec<u8>, MapError> {
    let meta = std::fs::metadata(path).map_err(|e| MapError::from(e).in_file(path))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(MapError::invalid(format!(
            "the file is {} MiB; sightline reads map files up to {} MiB",
            meta.len() / (1024 * 1024),
            MAX_FILE_BYTES / (1024 * 1024)
        ))
        .in_file(path));
    }
    std::fs::read(path).map_err(|e| MapError::from(e).in_file(path))
}

fn as_text<'a>(bytes: &'a [u8], format: &'static str) -> Result<&'a str, MapError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
        MapError::syntax(format, "the file is not UTF-8 text").at_line(line, None)
    })?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk, then renames it over
/// `path`: a crash leaves either the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), MapError> {
    write_atomic_with(path, |file| file.write_all(bytes))
}

/// [`write_atomic`] with the file's content written by `write`, into the temporary file; on any
/// failure (creating the temporary file in a read-only folder, a full disk part-way through
/// `write`, the sync, the rename onto a folder) the temporary file is removed and `path` is as
/// it was. Public for the tests, which fail a write part-way as a full disk does.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<(), MapError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("map");
    // Unique within the process too (a save and the autosave may write at once), and created
    // new, so that no write ever opens another's temporary file.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
    let mut created = false;
    let result = (|| -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        created = true;
        write(&mut file)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)?;
        // The rename itself on disk, where the system lets a folder be synced.
        if let Ok(folder) = std::fs::File::open(&dir) {
            let _ = folder.sync_all();
        }
        Ok(())
    })();
    if result.is_err() && created {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(MapError::from)
}

/// `target` relative to the folder `base`, when one can be written; else `target` itself.
pub(crate) fn relative_path(target: &Path, base: &Path) -> PathBuf {
    use std::path::Component;
    let base = if base.as_os_str().is_empty() { Path::new(".") } else { base };
    let (Ok(target_abs), Ok(base_abs)) = (std::path::absolute(target), std::path::absolute(base)) else {
        return target.to_owned();
    };
    let (target_abs, base_abs) = (tiled_common::normalize_path(&target_abs), tiled_common::normalize_path(&base_abs));
    let t: Vec<Component> = target_abs.components().collect();
    let b: Vec<Component> = base_abs.components().collect();
    let common = t.iter().zip(&b).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return target_abs;
    }
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c.as_os_str());
    }
    out
}

/// `relative` (as written in a file) resolved against the file's folder `dir`, made absolute and
/// normalised, so the same image compares equal however the map was reached.
pub(crate) fn resolve_path(dir: &Path, relative: &Path) -> PathBuf {
    let joined = dir.join(relative);
    let absolute = std::path::absolute(&joined).unwrap_or(joined);
    tiled_common::normalize_path(&absolute)
}
