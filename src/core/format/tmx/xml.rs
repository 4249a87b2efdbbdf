//! A Tiled XML file (TMX, TSX, TX) read once into a tree of elements, which the TMX reader then
//! walks. Tiled's files are small beside their layer data, so a tree is the plain way to read
//! them; the data, which can be millions of `<tile>` elements, is kept compact (see
//! [`Element::gids`]).
//!
//! Every limit a hostile file could push is checked here, where the line is known: how deep
//! elements nest and how many there are.

use quick_xml::events::{BytesStart, Event};

use crate::core::model::error::MapError;
use crate::core::model::limits::Limit;

/// How deep elements may nest. Tiled's deepest is a group's layer's object's property's class
/// member, about 10 plus the groups; a file past this is not a map.
const MAX_DEPTH: usize = 256;

/// How many elements a file may hold, besides the `<tile>`s of layer data: a map of a million
/// objects with a property each is well within it.
const MAX_ELEMENTS: usize = 4_000_000;

/// An element, its attributes unescaped and its text (character data and CDATA directly
/// inside it) joined.
#[derive(Debug, Default)]
pub(crate) struct Element {
    pub name: String,
    pub attributes: Vec<(String, String)>,
    pub children: Vec<Element>,
    pub text: String,
    /// The `gid` of each `<tile>` child of a `<data>` or `<chunk>` (XML-encoded layer data),
    /// which are kept here rather than as elements.
    pub gids: Vec<u32>,
    /// Its line in the file (from 1), for messages.
    pub line: usize,
}

impl Element {
    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub(crate) fn has(&self, name: &str) -> bool {
        self.attr(name).is_some()
    }

    /// The first child of that name.
    pub(crate) fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    pub(crate) fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// An error at this element's line.
    pub(crate) fn error(&self, message: impl Into<String>) -> MapError {
        MapError::invalid(message).at_line(self.line, None)
    }

    /// A whole-number attribute (`None`: absent), refused with its element, name and value when
    /// it is not one or is outside `limit` (see [`Limit`]: the only way the readers take a whole
    /// number from a file).
    pub(crate) fn int<T: TryFrom<i64>>(&self, name: &str, limit: Limit) -> Result<Option<T>, MapError> {
        let Some(text) = self.attr(name) else { return Ok(None) };
        let value: i64 = text
            .trim()
            .parse()
            .map_err(|_| self.error(format!("<{}> attribute {name}={text:?} is not a whole number", self.name)))?;
        let value = limit
            .check(value)
            .map_err(|why| self.error(format!("<{}> attribute {name}={text:?} is out of range: {why}", self.name)))?;
        T::try_from(value)
            .map(Some)
            .map_err(|_| self.error(format!("<{}> attribute {name}={text:?} is out of range", self.name)))
    }

    pub(crate) fn int_or<T: TryFrom<i64>>(&self, name: &str, default: T, limit: Limit) -> Result<T, MapError> {
        Ok(self.int(name, limit)?.unwrap_or(default))
    }

    /// A number attribute (`None`: absent). One too large for an `f64` reads as infinity, which
    /// the map's checks then name with what holds it (an object's shape is left out, a layer's
    /// offset refused); NaN is refused here.
    pub(crate) fn float(&self, name: &str) -> Result<Option<f64>, MapError> {
        let Some(text) = self.attr(name) else { return Ok(None) };
        match text.trim().parse::<f64>() {
            Ok(v) if !v.is_nan() => Ok(Some(v)),
            _ => Err(self.error(format!("<{}> attribute {name}={text:?} is not a number", self.name))),
        }
    }

    pub(crate) fn float_or(&self, name: &str, default: f64) -> Result<f64, MapError> {
        Ok(self.float(name)?.unwrap_or(default))
    }

    /// A 0/1 flag, as Tiled writes them (any whole number other than 0 is on; `true` and
    /// `false` are read too).
    pub(crate) fn flag_or(&self, name: &str, default: bool) -> Result<bool, MapError> {
        match self.attr(name).map(str::trim) {
            None => Ok(default),
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(_) => Ok(self.int::<i64>(name, Limit::FLAG)?.unwrap_or(0) != 0),
        }
    }

    /// An attribute, or "" when absent.
    pub(crate) fn string(&self, name: &str) -> String {
        self.attr(name).unwrap_or_default().to_owned()
    }
}

fn line_error(line: usize, message: impl std::fmt::Display) -> MapError {
    MapError::syntax("XML", message.to_string()).at_line(line, None)
}

/// Reads a whole file into its root element.
pub(crate) fn parse(bytes: &[u8]) -> Result<Element, MapError> {
    let mut reader = quick_xml::Reader::from_reader(bytes);
    let mut buf = Vec::new();
    // The open elements, outermost first.
    let mut open: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    let mut elements = 0usize;
    // The line of the reader's position, counted as it goes.
    let (mut line, mut counted_to) = (1usize, 0usize);
    loop {
        let pos = reader.buffer_position();
        line += bytes[counted_to.min(bytes.len())..pos.min(bytes.len())].iter().filter(|&&b| b == b'\n').count();
        counted_to = counted_to.max(pos);
        let event = reader.read_event_into(&mut buf).map_err(|e| {
            let at = reader.buffer_position().min(bytes.len());
            let line = line + bytes[counted_to.min(at)..at].iter().filter(|&&b| b == b'\n').count();
            line_error(line, e)
        })?;
        // A start tag's line is where it begins: skip the white space before it.
        let start_line =
            || line + bytes[pos..].iter().take_while(|b| b.is_ascii_whitespace()).filter(|&&b| b == b'\n').count();
        match event {
            Event::Start(e) | Event::Empty(e) if root.is_some() => {
                let _ = e;
                return Err(line_error(start_line(), "there is more than one root element"));
            }
            Event::Start(e) => {
                let element = start(&e, start_line())?;
                if open.len() >= MAX_DEPTH {
                    return Err(line_error(element.line, format!("elements nest deeper than {MAX_DEPTH}")));
                }
                elements += 1;
                if elements > MAX_ELEMENTS {
                    return Err(line_error(element.line, format!("the file has more than {MAX_ELEMENTS} elements")));
                }
                open.push(element);
            }
            Event::Empty(e) => {
                let element = start(&e, start_line())?;
                match open.last_mut() {
                    // XML-encoded layer data: one `<tile gid=".."/>` a cell.
                    Some(parent) if element.name == "tile" && (parent.name == "data" || parent.name == "chunk") => {
                        parent.gids.push(element.int_or("gid", 0u32, Limit::ID)?);
                    }
                    Some(parent) => {
                        elements += 1;
                        if elements > MAX_ELEMENTS {
                            return Err(line_error(
                                element.line,
                                format!("the file has more than {MAX_ELEMENTS} elements"),
                            ));
                        }
                        parent.children.push(element);
                    }
                    None => root = Some(element),
                }
            }
            Event::End(_) => {
                let Some(done) = open.pop() else { return Err(line_error(line, "an end tag closes nothing")) };
                match open.last_mut() {
                    Some(parent) if done.name == "tile" && (parent.name == "data" || parent.name == "chunk") => {
                        parent.gids.push(done.int_or("gid", 0u32, Limit::ID)?);
                    }
                    Some(parent) => parent.children.push(done),
                    None => root = Some(done),
                }
            }
            Event::Text(t) => {
                if let Some(element) = open.last_mut() {
                    let text = t.unescape().map_err(|e| line_error(line, e))?;
                    element.text.push_str(&text);
                }
            }
            Event::CData(t) => {
                if let Some(element) = open.last_mut() {
                    element.text.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    if !open.is_empty() {
        let line = line + bytes[counted_to.min(bytes.len())..].iter().filter(|&&b| b == b'\n').count();
        return Err(line_error(line, format!("the file ends before </{}> (it is cut short)", open[0].name)));
    }
    root.ok_or_else(|| MapError::syntax("XML", "the file holds no element"))
}

fn start(e: &BytesStart, line: usize) -> Result<Element, MapError> {
    let mut attributes = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| line_error(line, err))?;
        let value = a.unescape_value().map_err(|err| line_error(line, err))?;
        attributes.push((String::from_utf8_lossy(a.key.as_ref()).into_owned(), value.into_owned()));
    }
    Ok(Element {
        name: String::from_utf8_lossy(e.name().as_ref()).into_owned(),
        attributes,
        line,
        ..Element::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_elements_text_and_data_tiles() {
        let root =
            parse(b"<map a=\"1 &amp; 2\">\n <data><tile gid=\"3\"/><tile/></data>\n <p>x<![CDATA[<y>]]></p>\n</map>")
                .unwrap();
        assert_eq!((root.name.as_str(), root.attr("a"), root.line), ("map", Some("1 & 2"), 1));
        let data = root.child("data").unwrap();
        assert_eq!((data.gids.as_slice(), data.children.len(), data.line), (&[3, 0][..], 0, 2));
        assert_eq!(root.child("p").unwrap().text, "x<y>");
    }

    #[test]
    fn refuses_what_is_not_one_whole_tree() {
        let message = |xml: &str| parse(xml.as_bytes()).unwrap_err().to_string();
        assert!(message("<map>\n<layer>\n").contains("cut short"), "{}", message("<map>\n<layer>\n"));
        assert!(message("<a/><b/>").contains("more than one root"));
        assert!(message("").contains("no element"));
        let deep = "<a>".repeat(MAX_DEPTH + 1);
        assert!(message(&deep).contains("nest deeper"));
        let bad_gid = message("<map>\n<data>\n<tile gid=\"x\"/></data></map>");
        assert!(bad_gid.contains("line 3") && bad_gid.contains("gid=\"x\""), "{bad_gid}");
    }
}
