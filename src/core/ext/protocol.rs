//! Protocol version 1, as `docs/protocol.md` specifies it: the requests as JSON lines, and each
//! reply read and checked, with a message that says what the program sent.

use std::fmt::Write as _;

use serde::Deserialize;

use crate::core::fov::{Opacity, OpacityGrid};
use crate::core::model::geometry::Cell;
use crate::core::path::{CostGrid, DiagonalPolicy, MoveRules, Moves};

/// The protocol version this sightline speaks.
pub const VERSION: u64 = 1;

/// What the program said of itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    pub name: String,
    pub fov: bool,
    pub path: bool,
}

/// A path as a program returned it, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtPath {
    /// `None`: the program found no path.
    pub path: Option<Vec<Cell>>,
    /// Its cost under the rules sent (checked as a walk).
    pub cost: Option<f64>,
    /// The cells in the order its search expanded them, when it told.
    pub expanded: Option<Vec<Cell>>,
}

/// Why a reply cannot be used.
#[derive(Debug)]
pub(crate) enum ReplyError {
    /// The program broke the protocol (not JSON, a wrong id): the exchange is out of step.
    Broken(String),
    /// It answered this request with an `error` reply.
    Refused(String),
    /// It answered this request wrongly (cells off the map, a path through a wall).
    Wrong(String),
}

/// Every field any reply has; which ones must be there depends on `type`.
#[derive(Deserialize)]
pub(crate) struct Reply {
    #[serde(rename = "type")]
    kind: String,
    id: Option<u64>,
    protocol: Option<u64>,
    name: Option<String>,
    provides: Option<Vec<String>>,
    message: Option<String>,
    /// Kept raw and read by [`scan_views`]: serde's generic path is most of a round trip's
    /// cost on views of hundreds of cells.
    views: Option<Box<serde_json::value::RawValue>>,
    /// Missing (`None`) is not `null` (`Some(None)`: no path).
    #[serde(default, deserialize_with = "present")]
    path: Option<Option<Vec<[i64; 2]>>>,
    expanded: Option<Vec<[i64; 2]>>,
    /// The raw line, for messages.
    #[serde(skip)]
    line: String,
}

fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// The start of a line, for a message (a reply can be megabytes).
fn excerpt(line: &str) -> String {
    const MAX: usize = 160;
    if line.len() <= MAX {
        return line.to_string();
    }
    let mut end = MAX;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &line[..end], line.len())
}

pub(crate) fn hello_request() -> String {
    format!(r#"{{"type":"hello","protocol":{VERSION}}}"#)
}

/// The map: opacity and walkability as rows of `0`/`1`, and the costs when not all 1 (0 where
/// the cell cannot be walked: JSON has no infinity).
pub(crate) fn map_request(opacity: &OpacityGrid, costs: &CostGrid) -> String {
    let (w, h) = (opacity.width(), opacity.height());
    debug_assert_eq!((w, h), (costs.width(), costs.height()));
    let mut out = String::with_capacity((w as usize + 4) * h as usize * 2 + 64);
    let _ = write!(out, r#"{{"type":"map","width":{w},"height":{h},"opaque":["#);
    let rows = |out: &mut String, bit: &dyn Fn(i32, i32) -> bool| {
        for y in 0..h {
            out.push_str(if y == 0 { "\"" } else { ",\"" });
            out.extend((0..w).map(|x| if bit(x, y) { '1' } else { '0' }));
            out.push('"');
        }
    };
    rows(&mut out, &|x, y| opacity.is_opaque(x, y));
    out.push_str(r#"],"walkable":["#);
    rows(&mut out, &|x, y| costs.passable(x, y));
    out.push(']');
    let uniform = (0..h).all(|y| (0..w).all(|x| !costs.passable(x, y) || costs.cost(x, y) == 1.0));
    if !uniform {
        out.push_str(r#","cost":["#);
        for y in 0..h {
            out.push_str(if y == 0 { "[" } else { ",[" });
            for x in 0..w {
                if x > 0 {
                    out.push(',');
                }
                let c = costs.cost(x, y);
                // f32's shortest form: 0.1, not 0.10000000149011612.
                let _ = if c.is_finite() { write!(out, "{c}") } else { write!(out, "0") };
            }
            out.push(']');
        }
        out.push(']');
    }
    out.push('}');
    out
}

pub(crate) fn fov_request(id: u64, origins: &[Cell], radius: Option<u32>, light_walls: bool) -> String {
    let mut out = String::with_capacity(origins.len() * 12 + 80);
    let _ = write!(out, r#"{{"type":"fov","id":{id},"origins":["#);
    push_cells(&mut out, origins);
    let radius = radius.map_or("null".to_string(), |r| r.to_string());
    let _ = write!(out, r#"],"radius":{radius},"light_walls":{light_walls}}}"#);
    out
}

pub(crate) fn path_request(id: u64, from: Cell, to: Cell, rules: &MoveRules) -> String {
    let moves = match rules.moves {
        Moves::Four => 4,
        Moves::Eight => 8,
    };
    serde_json::json!({
        "type": "path", "id": id, "from": [from.x, from.y], "to": [to.x, to.y], "moves": moves,
        "diagonal": diagonal_name(rules.diagonal), "diagonal_cost": rules.diagonal_length.value(),
    })
    .to_string()
}

/// The protocol's name of a diagonal policy.
pub fn diagonal_name(policy: DiagonalPolicy) -> &'static str {
    match policy {
        DiagonalPolicy::Always => "always",
        DiagonalPolicy::Never => "never",
        DiagonalPolicy::NoCornerCut => "no-corner-cut",
        DiagonalPolicy::OneBlocked => "one-blocked",
    }
}

fn push_cells(out: &mut String, cells: &[Cell]) {
    for (i, c) in cells.iter().enumerate() {
        let _ = write!(out, "{}[{},{}]", if i == 0 { "" } else { "," }, c.x, c.y);
    }
}

/// A stable hash of a message, to tell whether the program already has this map.
pub(crate) fn hash(message: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    message.hash(&mut h);
    h.finish()
}

/// Reads a reply line: JSON of the right shape, answering `what` with `id`. An `error` reply
/// becomes [`ReplyError::Refused`] with the program's message.
pub(crate) fn parse_reply(line: &str, what: &str, id: Option<u64>) -> Result<Reply, ReplyError> {
    let mut reply: Reply = serde_json::from_str(line).map_err(|e| {
        if serde_json::from_str::<serde_json::Value>(line).is_ok() {
            ReplyError::Broken(format!("its reply to the {what} request has the wrong shape ({e}): {}", excerpt(line)))
        } else {
            ReplyError::Broken(format!("it printed a line that is not JSON ({e}): {}", excerpt(line)))
        }
    })?;
    reply.line = line.to_string();
    if reply.id != id && !(reply.kind == "error" && reply.id.is_none() && id.is_none()) {
        let said = reply.id.map_or("no id".to_string(), |i| format!("id {i}"));
        let asked = id.map_or("no id".to_string(), |i| format!("id {i}"));
        return Err(ReplyError::Broken(format!(
            "it answered the {what} request ({asked}) with {said}: {}",
            excerpt(line)
        )));
    }
    if reply.kind == "error" {
        let message = reply.message.as_deref().unwrap_or("(no message)");
        return Err(ReplyError::Refused(format!("it answered the {what} request with an error: {message}")));
    }
    let expected = if what == "map" { "ok" } else { what };
    if reply.kind != expected {
        return Err(ReplyError::Broken(format!(
            "it answered the {what} request with a {:?} reply: {}",
            reply.kind,
            excerpt(line)
        )));
    }
    Ok(reply)
}

pub(crate) fn read_hello(reply: Reply) -> Result<Hello, String> {
    if reply.protocol != Some(VERSION) {
        let spoke = reply.protocol.map_or("no protocol".to_string(), |p| format!("protocol {p}"));
        return Err(format!(
            "its hello says {spoke}; this sightline speaks protocol {VERSION}: {}",
            excerpt(&reply.line)
        ));
    }
    let provides = reply.provides.unwrap_or_default();
    if let Some(other) = provides.iter().find(|p| *p != "fov" && *p != "path") {
        return Err(format!("its hello provides {other:?}: expected \"fov\" and/or \"path\""));
    }
    if provides.is_empty() {
        return Err(format!("its hello provides nothing: expected \"fov\" and/or \"path\": {}", excerpt(&reply.line)));
    }
    Ok(Hello {
        name: reply.name.filter(|n| !n.trim().is_empty()).unwrap_or_else(|| "(unnamed)".into()),
        fov: provides.iter().any(|p| p == "fov"),
        path: provides.iter().any(|p| p == "path"),
    })
}

/// Reads `views`, `[[[x, y], …], …]` (JSON already checked by serde), without serde's
/// generic machinery, each cell through `cell` with its view's index. Shape errors are
/// [`ReplyError::Broken`] with what was expected; coordinates beyond `i64` saturate.
fn scan_views(
    text: &str,
    mut cell: impl FnMut(usize, i64, i64) -> Result<Cell, ReplyError>,
) -> Result<Vec<Vec<Cell>>, ReplyError> {
    let mut s = Scanner { bytes: text.as_bytes(), at: 0 };
    let mut k = 0;
    let views = s.list(|s| {
        let view = s.list(|s| {
            s.expect(b'[')?;
            let x = s.int()?;
            s.expect(b',')?;
            let y = s.int()?;
            s.expect(b']')?;
            cell(k, x, y)
        });
        k += 1;
        view
    })?;
    s.skip_blanks();
    if s.at != s.bytes.len() {
        return Err(ReplyError::Broken(format!("unexpected {:?} after the views", s.bytes[s.at] as char)));
    }
    Ok(views)
}

struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Scanner<'_> {
    fn skip_blanks(&mut self) {
        while self.bytes.get(self.at).is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), ReplyError> {
        self.skip_blanks();
        match self.bytes.get(self.at) {
            Some(&b) if b == c => {
                self.at += 1;
                Ok(())
            }
            Some(&b) => Err(broken(format!("expected {:?} but found {:?} in the views", c as char, b as char))),
            None => Err(broken(format!("expected {:?} at the end of the views", c as char))),
        }
    }

    /// `[item, item, …]`.
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Result<T, ReplyError>) -> Result<Vec<T>, ReplyError> {
        self.expect(b'[')?;
        let mut out = Vec::new();
        self.skip_blanks();
        if self.bytes.get(self.at) == Some(&b']') {
            self.at += 1;
            return Ok(out);
        }
        loop {
            out.push(item(self)?);
            self.skip_blanks();
            match self.bytes.get(self.at) {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(&b) => return Err(broken(format!("expected ',' or ']' but found {:?} in the views", b as char))),
                None => return Err(broken("the views end early".into())),
            }
        }
    }

    fn int(&mut self) -> Result<i64, ReplyError> {
        self.skip_blanks();
        let negative = self.bytes.get(self.at) == Some(&b'-');
        self.at += usize::from(negative);
        let start = self.at;
        let mut value: i64 = 0;
        while let Some(&b) = self.bytes.get(self.at).filter(|b| b.is_ascii_digit()) {
            value = value.saturating_mul(10).saturating_add(i64::from(b - b'0'));
            self.at += 1;
        }
        if self.at == start {
            return Err(broken("a cell coordinate is not a number".into()));
        }
        if matches!(self.bytes.get(self.at), Some(b'.' | b'e' | b'E')) {
            return Err(broken("a cell coordinate is not a whole number".into()));
        }
        Ok(if negative { -value } else { value })
    }
}

fn broken(message: String) -> ReplyError {
    ReplyError::Broken(message)
}

/// A cell of a reply, checked to be on the map.
fn cell_on_map(c: [i64; 2], w: i32, h: i32) -> Option<Cell> {
    let (x, y) = (i32::try_from(c[0]).ok()?, i32::try_from(c[1]).ok()?);
    ((0..w).contains(&x) && (0..h).contains(&y)).then_some(Cell::new(x, y))
}

/// Which view last listed each cell, kept between replies: a duplicate is a cell already stamped
/// with the current view. (A fresh map-sized buffer per reply would cost more than the reply on a
/// big map.)
#[derive(Default)]
pub(crate) struct Stamps {
    marks: Vec<u32>,
    current: u32,
}

impl Stamps {
    /// Starts a view on a map of `cells` cells.
    fn next_view(&mut self, cells: usize) {
        if self.marks.len() != cells || self.current == u32::MAX {
            self.marks.clear();
            self.marks.resize(cells, 0);
            self.current = 0;
        }
        self.current += 1;
    }

    /// Marks cell `i`; false when the current view already had it.
    fn mark(&mut self, i: usize) -> bool {
        let fresh = self.marks[i] != self.current;
        self.marks[i] = self.current;
        fresh
    }
}

pub(crate) fn read_fov(
    reply: Reply,
    id: u64,
    origins: &[Cell],
    (w, h): (i32, i32),
    stamps: &mut Stamps,
) -> Result<Vec<Vec<Cell>>, ReplyError> {
    let line = &reply.line;
    let Some(views) = reply.views else {
        return Err(ReplyError::Wrong(format!("its fov reply {id} has no \"views\": {}", excerpt(line))));
    };
    let cells = w as usize * h as usize;
    let mut stamped = None;
    let views = scan_views(views.get(), |k, x, y| {
        if stamped != Some(k) {
            stamped = Some(k);
            stamps.next_view(cells);
        }
        // Only for a message: formatted when one is needed.
        let origin = || origins.get(k).map_or("beyond the origins".to_string(), |o| format!("from {o}"));
        let Some(cell) = cell_on_map([x, y], w, h) else {
            return Err(ReplyError::Wrong(format!(
                "its fov reply {id} lists [{x}, {y}] in the view {} (view {k}), off the {w}×{h} map",
                origin()
            )));
        };
        if !stamps.mark(cell.y as usize * w as usize + cell.x as usize) {
            return Err(ReplyError::Wrong(format!(
                "its fov reply {id} lists {cell} twice in the view {} (view {k})",
                origin()
            )));
        }
        Ok(cell)
    })
    .map_err(|e| match e {
        ReplyError::Broken(m) => {
            ReplyError::Broken(format!("its reply to the fov request has the wrong shape ({m}): {}", excerpt(line)))
        }
        other => other,
    })?;
    if views.len() != origins.len() {
        return Err(ReplyError::Wrong(format!(
            "its fov reply {id} has {} views for {} origins: {}",
            views.len(),
            origins.len(),
            excerpt(line)
        )));
    }
    Ok(views)
}

pub(crate) fn read_path(
    reply: Reply,
    id: u64,
    from: Cell,
    to: Cell,
    rules: &MoveRules,
    costs: &CostGrid,
) -> Result<ExtPath, ReplyError> {
    let (w, h) = (costs.width(), costs.height());
    let line = &reply.line;
    let Some(path) = reply.path else {
        return Err(ReplyError::Wrong(format!(
            "its path reply {id} has no \"path\" (null when none): {}",
            excerpt(line)
        )));
    };
    let on_map = |cells: Vec<[i64; 2]>, what: &str| -> Result<Vec<Cell>, ReplyError> {
        cells
            .into_iter()
            .map(|c| {
                cell_on_map(c, w, h).ok_or_else(|| {
                    ReplyError::Wrong(format!(
                        "its path reply {id} has [{}, {}] in its {what}, off the {w}×{h} map",
                        c[0], c[1]
                    ))
                })
            })
            .collect()
    };
    let expanded = reply.expanded.map(|e| on_map(e, "expanded cells")).transpose()?;
    let Some(path) = path else { return Ok(ExtPath { path: None, cost: None, expanded }) };
    let path = on_map(path, "path")?;
    let wrong = |m: String| ReplyError::Wrong(format!("its path reply {id} {m}"));
    match (path.first(), path.last()) {
        (Some(&a), Some(&b)) if a == from && b == to => {}
        (Some(a), Some(b)) => return Err(wrong(format!("goes from {a} to {b}, not from {from} to {to}"))),
        _ => return Err(wrong("is an empty list (null means no path)".into())),
    }
    if let Some(problem) = first_bad_step(&path, rules, costs) {
        return Err(wrong(problem));
    }
    let cost = rules.walk_cost(costs, &path);
    Ok(ExtPath { path: Some(path), cost, expanded })
}

/// The first step of `path` the rules forbid, in words; `None` for a valid walk.
pub(crate) fn first_bad_step(path: &[Cell], rules: &MoveRules, costs: &CostGrid) -> Option<String> {
    if let Some(&start) = path.first()
        && !costs.passable(start.x, start.y)
    {
        return Some(format!("starts on {start}, which cannot be walked on"));
    }
    for (k, pair) in path.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let step = k + 1;
        if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
            return Some(format!("jumps at step {step}, from {a} to {b} (not a neighbour)"));
        }
        if !costs.passable(b.x, b.y) {
            return Some(format!("goes through {b} at step {step}, which cannot be walked on (a wall)"));
        }
        if !rules.can_step(costs, a.x, a.y, dx, dy) {
            let rule = match rules.moves {
                Moves::Four => "4 moves allow no diagonal".to_string(),
                Moves::Eight => format!("the diagonal rule is {}", diagonal_name(rules.diagonal)),
            };
            return Some(format!("steps diagonally from {a} to {b} at step {step}, which the rules forbid ({rule})"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kind and the message, unescaped (as the user reads it).
    fn describe(e: ReplyError) -> String {
        match e {
            ReplyError::Broken(m) => format!("Broken: {m}"),
            ReplyError::Refused(m) => format!("Refused: {m}"),
            ReplyError::Wrong(m) => format!("Wrong: {m}"),
        }
    }

    #[test]
    fn the_map_request_has_rows_and_costs_only_when_not_all_one() {
        let opacity = OpacityGrid::from_ascii(&["#.", ".."]);
        let mut costs = CostGrid::from_ascii(&["#.", ".."]);
        assert_eq!(
            map_request(&opacity, &costs),
            r#"{"type":"map","width":2,"height":2,"opaque":["10","00"],"walkable":["01","11"]}"#
        );
        costs.set_cost(1, 1, 0.1);
        let v: serde_json::Value = serde_json::from_str(&map_request(&opacity, &costs)).unwrap();
        assert_eq!(v["cost"], serde_json::json!([[0, 1], [1, 0.1]]));
    }

    #[test]
    fn requests_are_the_documented_json() {
        let fov = fov_request(7, &[Cell::new(1, 2), Cell::new(0, 0)], None, true);
        assert_eq!(fov, r#"{"type":"fov","id":7,"origins":[[1,2],[0,0]],"radius":null,"light_walls":true}"#);
        let path: serde_json::Value =
            serde_json::from_str(&path_request(3, Cell::new(0, 0), Cell::new(2, 1), &MoveRules::MOVINGAI)).unwrap();
        assert_eq!(
            path,
            serde_json::json!({"type":"path","id":3,"from":[0,0],"to":[2,1],"moves":8,"diagonal":"no-corner-cut","diagonal_cost":std::f64::consts::SQRT_2})
        );
    }

    fn fov_reply(line: &str, origins: &[Cell]) -> Result<Vec<Vec<Cell>>, String> {
        let reply = parse_reply(line, "fov", Some(4)).map_err(describe)?;
        read_fov(reply, 4, origins, (3, 2), &mut Stamps::default()).map_err(describe)
    }

    #[test]
    fn fov_replies_are_checked_cell_by_cell() {
        let o = [Cell::new(0, 0)];
        assert_eq!(
            fov_reply(r#"{"type":"fov","id":4,"views":[[[0,0],[2,1]]]}"#, &o).unwrap(),
            [[Cell::new(0, 0), Cell::new(2, 1)]]
        );
        let err = fov_reply(r#"{"type":"fov","id":4,"views":[[[0,0],[3,1]]]}"#, &o).unwrap_err();
        assert!(err.contains("Wrong") && err.contains("[3, 1]") && err.contains("off the 3×2 map"), "{err}");
        let err = fov_reply(r#"{"type":"fov","id":4,"views":[[[1,1],[1,1]]]}"#, &o).unwrap_err();
        assert!(err.contains("1,1 twice"), "{err}");
        let err = fov_reply(r#"{"type":"fov","id":4,"views":[]}"#, &o).unwrap_err();
        assert!(err.contains("0 views for 1 origins"), "{err}");
        let err = fov_reply(r#"{"type":"fov","id":5,"views":[[]]}"#, &o).unwrap_err();
        assert!(err.contains("Broken") && err.contains("with id 5"), "{err}");
        let err = fov_reply("views: 1, 2", &o).unwrap_err();
        assert!(err.contains("Broken") && err.contains("not JSON"), "{err}");
        let err = fov_reply(r#"{"type":"fov","id":4,"views":[["a"]]}"#, &o).unwrap_err();
        assert!(err.contains("wrong shape") && err.contains("expected '[' but found"), "{err}");
        let err = fov_reply(r#"{"type":"fov","id":4,"views":[[[1.5,0]]]}"#, &o).unwrap_err();
        assert!(err.contains("not a whole number"), "{err}");
        let err = fov_reply(r#"{"type":"fov","id":4,"views":[[[1,0,2]]]}"#, &o).unwrap_err();
        assert!(err.contains("expected ']' but found ','"), "{err}");
        let err = fov_reply(r#"{"type":"fov","id":4,"views":{"a":1}}"#, &o).unwrap_err();
        assert!(err.contains("wrong shape"), "{err}");
        // Blanks anywhere, big and negative numbers (then off the map).
        assert_eq!(
            fov_reply("{\"type\":\"fov\",\"id\":4,\"views\":[ [ [ 2 , 1 ] ] ]}", &o).unwrap(),
            [[Cell::new(2, 1)]]
        );
        let err = fov_reply(r#"{"type":"fov","id":4,"views":[[[99999999999999999999999,-1]]]}"#, &o).unwrap_err();
        assert!(err.contains("[9223372036854775807, -1]"), "{err}");
        let err = fov_reply(r#"{"type":"error","id":4,"message":"no such radius"}"#, &o).unwrap_err();
        assert!(err.contains("Refused") && err.contains("no such radius"), "{err}");
        let err = fov_reply(r#"{"type":"path","id":4,"path":null}"#, &o).unwrap_err();
        assert!(err.contains("Broken") && err.contains("\"path\" reply"), "{err}");
    }

    #[test]
    fn paths_must_be_walks_the_rules_allow() {
        let costs = CostGrid::from_ascii(&["..#", ".#.", "..."]);
        let rules = MoveRules::MOVINGAI;
        let read = |line: &str| {
            let reply = parse_reply(line, "path", Some(1)).map_err(describe)?;
            read_path(reply, 1, Cell::new(0, 0), Cell::new(2, 2), &rules, &costs).map_err(describe)
        };
        let ok = read(r#"{"type":"path","id":1,"path":[[0,0],[0,1],[0,2],[1,2],[2,2]],"expanded":[[0,0]]}"#).unwrap();
        assert!((ok.cost.unwrap() - 4.0).abs() < 1e-9);
        // 0,1 to 1,2 would cut the wall's corner at 1,1.
        let err = read(r#"{"type":"path","id":1,"path":[[0,0],[0,1],[1,2],[2,2]]}"#).unwrap_err();
        assert!(err.contains("steps diagonally from 0,1 to 1,2 at step 2"), "{err}");
        assert_eq!(ok.expanded, Some(vec![Cell::new(0, 0)]));
        assert_eq!(read(r#"{"type":"path","id":1,"path":null}"#).unwrap().path, None);
        let err = read(r#"{"type":"path","id":1,"path":[[0,0],[1,1],[2,2]]}"#).unwrap_err();
        assert!(err.contains("goes through 1,1 at step 1"), "{err}");
        let err = read(r#"{"type":"path","id":1,"path":[[0,0],[1,0],[2,1],[2,2]]}"#).unwrap_err();
        assert!(err.contains("steps diagonally from 1,0 to 2,1"), "{err}");
        let err = read(r#"{"type":"path","id":1,"path":[[0,0],[0,2],[2,2]]}"#).unwrap_err();
        assert!(err.contains("jumps at step 1"), "{err}");
        let err = read(r#"{"type":"path","id":1,"path":[[0,1],[0,2],[1,2],[2,2]]}"#).unwrap_err();
        assert!(err.contains("goes from 0,1 to 2,2, not from 0,0"), "{err}");
        let err = read(r#"{"type":"path","id":1}"#).unwrap_err();
        assert!(err.contains("no \"path\""), "{err}");
    }
}
