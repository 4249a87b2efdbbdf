//! Light sources, and seeing by their light.
//!
//! **Lit cells.** A light at cell `L` with radius `r` lights exactly the cells of the field of
//! view from `L` with radius `r` under the game's FOV algorithm, the walls bounding it included
//! ([`crate::core::fov::compute`] with `light_walls`): light goes where sight goes, as in Angband, where a
//! light source lights the grids within its radius to which it has line of sight (Angband 4.2,
//! `src/cave-view.c`, `add_light`). A cell is lit when at least one light lights it. The lights
//! are the map's light objects and the lights its monsters and the player carry (a `light`
//! property: Angband's light-carrying monsters, and the player's torch), which move with them.
//!
//! **Seeing by light** ([`Lighting::sight`]). An actor with vision radius `v` sees the cells of
//! its own view, the FOV from its cell with radius `v` (what it sees without lights: its own
//! light, or eyes used to the dark), and beyond that the cells of its view with radius
//! [`SIGHT_RANGE`] that are lit *as seen from where it stands*: a transparent cell that is lit;
//! an opaque cell (a wall, a closed door) that is lit only when the cell one step from it toward
//! the actor is lit too, so that a lit room's walls do not shine into the dark corridor outside
//! (Angband 4.2, `become_viewable`: "for walls, check for a lit grid closer to the player"). So a
//! lit hall is seen from its dark doorway, a monster standing in it is seen from across it, and
//! a player standing in the light is seen by monsters from as far. The rule is the same for the
//! player and the monsters (Hauberk's hero sees what is in view and lit, `lighting.dart`).
//!
//! **Cache.** Each light keeps its view. An opacity change (a door opened or closed) is a named
//! event, [`Lighting::opacity_changed`], after Hauberk's `Lighting.dirtyFloorLight`: only the
//! lights whose view can have read the cell are computed again (those within their radius of it
//! plus one, on each axis: an FOV of radius `r` reads no cell farther than that), and the lit set
//! is rebuilt from the lights' views. A light moved (carried, or by an edit) is the other event,
//! [`Lighting::set_lights`]: only the lights that moved are computed again. The tests compare both
//! with a fresh computation after random changes.

use super::sight::SightSource;
use crate::core::fov::{Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet};
use crate::core::{Cell, Map, ObjectKind};

/// How far a lit cell can be seen, in cells (Angband's `max-sight`, 20 in 4.2's
/// `constants.txt`). An actor's own view is not limited by it.
pub const SIGHT_RANGE: u32 = 20;

/// A light source on the map: where, and how far it lights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Light {
    /// The map object it comes from.
    pub object: u32,
    pub cell: Cell,
    pub radius: u32,
}

/// One light's view: a bit a cell over the square its radius reaches (cut to the map), a row of
/// words a line, so that a light of any radius costs a bit a cell of its square at most.
#[derive(Clone, Debug, PartialEq, Eq)]
struct View {
    x0: i32,
    y0: i32,
    width: i32,
    height: i32,
    words: usize,
    bits: Vec<u64>,
}

impl View {
    /// The cells of `set` in the square of `radius` around `cell`, on a map `w` × `h`.
    fn of(set: &VisibleSet, cell: Cell, radius: u32, (w, h): (i32, i32)) -> View {
        let r = i64::from(radius).min(i64::from(w.max(h))) as i32;
        let (x0, y0) = ((cell.x - r).max(0), (cell.y - r).max(0));
        let (x1, y1) = ((cell.x + r).min(w - 1), (cell.y + r).min(h - 1));
        let (width, height) = (x1 - x0 + 1, y1 - y0 + 1);
        let words = (width as usize).div_ceil(64);
        let mut bits = vec![0u64; words * height as usize];
        for (row, line) in bits.chunks_exact_mut(words).enumerate() {
            for (k, word) in line.iter_mut().enumerate() {
                let from = x0 + 64 * k as i32;
                let cells = (width - 64 * k as i32).min(64);
                let mask = if cells == 64 { u64::MAX } else { (1 << cells) - 1 };
                *word = set.row_bits(y0 + row as i32, from) & mask;
            }
        }
        View { x0, y0, width, height, words, bits }
    }

    fn contains(&self, c: Cell) -> bool {
        let (x, y) = (c.x - self.x0, c.y - self.y0);
        (0..self.width).contains(&x)
            && (0..self.height).contains(&y)
            && self.bits[y as usize * self.words + x as usize / 64] >> (x % 64) & 1 != 0
    }

    /// Its cells, row by row.
    fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.bits.iter().enumerate().flat_map(move |(i, &word)| {
            let (y, k) = ((i / self.words) as i32, (i % self.words) as i32);
            std::iter::successors((word != 0).then_some(word), |w| Some(w & (w - 1)).filter(|&w| w != 0))
                .map(move |w| Cell::new(self.x0 + 64 * k + w.trailing_zeros() as i32, self.y0 + y))
        })
    }

    fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// The lit cells of a map and each light's view (see the module's documentation).
#[derive(Clone, Debug)]
pub struct Lighting {
    source: SightSource,
    lights: Vec<Light>,
    /// Each light's view, by light.
    views: Vec<View>,
    lit: VisibleSet,
    scratch: VisibleSet,
}

impl Lighting {
    /// The lights of `map` as placed ([`Lighting::lights_of`]), lit through `opacity` by
    /// `algorithm`.
    pub fn of_map(map: &Map, algorithm: Algorithm, opacity: &OpacityGrid) -> Self {
        Self::new(Self::lights_of(map), algorithm, opacity)
    }

    /// The lights of `map` as placed: its light objects, and the lights its monsters and its
    /// player start carry ([`MapObject::carried_light`](crate::core::MapObject::carried_light)),
    /// on their cells.
    pub fn lights_of(map: &Map) -> Vec<Light> {
        Self::placed(map, |o| o.carried_light())
    }

    /// The light objects of `map` alone: the lights that stay where they are.
    pub fn fixed_lights_of(map: &Map) -> Vec<Light> {
        Self::placed(map, |_| None)
    }

    /// The light objects of `map` on it, and the other objects `carried` gives a radius.
    fn placed(map: &Map, carried: impl Fn(&crate::core::MapObject) -> Option<u32>) -> Vec<Light> {
        let radius = |o: &crate::core::MapObject| match o.kind {
            ObjectKind::Light { radius } => Some(radius),
            _ => carried(o),
        };
        map.objects
            .iter()
            .filter(|o| map.in_bounds(o.cell))
            .filter_map(|o| Some(Light { object: o.id, cell: o.cell, radius: radius(o)? }))
            .collect()
    }

    /// `lights` (those off the grid are left out) lit through `opacity` by `algorithm`.
    pub fn new(lights: Vec<Light>, algorithm: Algorithm, opacity: &OpacityGrid) -> Self {
        Self::with_source(lights, SightSource::Builtin(algorithm), opacity)
    }

    /// `lights` lit through `opacity` by `source`, built in or external.
    pub fn with_source(lights: Vec<Light>, source: SightSource, opacity: &OpacityGrid) -> Self {
        let (w, h) = (opacity.width() as u32, opacity.height() as u32);
        let mut lighting = Self {
            source,
            views: Vec::new(),
            lights: Vec::new(),
            lit: VisibleSet::new(w, h),
            scratch: VisibleSet::new(w, h),
        };
        lighting.set_lights(lights, opacity);
        lighting
    }

    /// Where its views come from.
    pub fn source(&self) -> &SightSource {
        &self.source
    }

    pub fn lights(&self) -> &[Light] {
        &self.lights
    }

    /// The cells light `k` lights, row by row.
    pub fn view_of(&self, k: usize) -> impl Iterator<Item = Cell> + '_ {
        self.views[k].cells()
    }

    /// How many cells light `k` lights.
    pub fn lit_by(&self, k: usize) -> usize {
        self.views[k].len()
    }

    /// Whether some light lights `c`.
    pub fn is_lit(&self, c: Cell) -> bool {
        self.lit.contains_cell(c)
    }

    /// Every lit cell.
    pub fn lit(&self) -> &VisibleSet {
        &self.lit
    }

    /// The lights that light `c`, by index.
    pub fn lights_at(&self, c: Cell) -> impl Iterator<Item = usize> + '_ {
        (0..self.lights.len()).filter(move |&k| self.views[k].contains(c))
    }

    /// The opacity of `cells` changed (`opacity` is the grid after the change): the lights whose
    /// view can have read one of them are lit again. Returns them: the cells they light (each
    /// within its radius of it, on each axis) are the only ones whose light can have changed.
    pub fn opacity_changed(&mut self, cells: &[Cell], opacity: &OpacityGrid) -> Vec<Light> {
        let mut relit = Vec::new();
        for k in 0..self.lights.len() {
            let Light { cell: at, radius, .. } = self.lights[k];
            let reach = i64::from(radius) + 1;
            if cells.iter().any(|c| i64::from(c.chebyshev(at)) <= reach) {
                self.light(k, opacity);
                relit.push(self.lights[k]);
            }
        }
        if !relit.is_empty() {
            self.rebuild_lit();
        }
        relit
    }

    /// The lights are now `lights` (an edit moved, added or took some away): those unchanged
    /// keep their views (lit through `opacity` already), the others are lit. Returns the lights
    /// gone and those new: the cells they light are the only ones whose light can have changed.
    pub fn set_lights(&mut self, lights: Vec<Light>, opacity: &OpacityGrid) -> Vec<Light> {
        let lights: Vec<Light> = lights.into_iter().filter(|l| opacity.in_bounds(l.cell.x, l.cell.y)).collect();
        if lights == self.lights {
            return Vec::new();
        }
        let mut old: Vec<Option<(Light, View)>> = self.lights.drain(..).zip(self.views.drain(..)).map(Some).collect();
        let mut changed = Vec::new();
        for light in lights {
            let kept = old.iter_mut().find(|o| o.as_ref().is_some_and(|(l, _)| *l == light)).and_then(Option::take);
            self.lights.push(light);
            match kept {
                Some((_, view)) => self.views.push(view),
                None => {
                    self.views.push(View { x0: 0, y0: 0, width: 0, height: 0, words: 0, bits: Vec::new() });
                    self.light(self.lights.len() - 1, opacity);
                    changed.push(light);
                }
            }
        }
        changed.extend(old.into_iter().flatten().map(|(light, _)| light));
        self.rebuild_lit();
        changed
    }

    /// Computes light `k`'s view.
    fn light(&mut self, k: usize, opacity: &OpacityGrid) {
        let Light { cell, radius, .. } = self.lights[k];
        self.source.compute(opacity, FovParams::new(cell, Some(radius)), &mut self.scratch);
        self.views[k] = View::of(&self.scratch, cell, radius, (opacity.width(), opacity.height()));
    }

    fn rebuild_lit(&mut self) {
        self.lit.clear();
        for view in &self.views {
            for c in view.cells() {
                self.lit.insert(c.x, c.y);
            }
        }
    }

    /// Whether some cell within `range` of `c` (on each axis) is lit.
    fn lit_near(&self, c: Cell, range: i32) -> bool {
        let (w, h) = (self.lit.width(), self.lit.height());
        let (x0, x1) = ((c.x - range).max(0), (c.x + range).min(w - 1));
        (c.y - range).max(0) <= (c.y + range).min(h - 1)
            && ((c.y - range).max(0)..=(c.y + range).min(h - 1)).any(|y| {
                (x0..=x1).step_by(64).any(|x| {
                    let cells = (x1 - x + 1).min(64);
                    let mask = if cells == 64 { u64::MAX } else { (1u64 << cells) - 1 };
                    self.lit.row_bits(y, x) & mask != 0
                })
            })
    }

    /// Whether `c` is lit as seen from `viewer`: a lit transparent cell; a lit opaque cell only
    /// when the cell one step from it toward the viewer is lit too (its lit face is the one
    /// turned to the viewer).
    pub fn lit_as_seen_from(&self, c: Cell, viewer: Cell, opacity: &OpacityGrid) -> bool {
        if !self.is_lit(c) {
            return false;
        }
        if !opacity.is_opaque(c.x, c.y) {
            return true;
        }
        let toward = Cell::new(c.x + (viewer.x - c.x).signum(), c.y + (viewer.y - c.y).signum());
        toward == c || self.is_lit(toward)
    }

    /// What an actor at `origin` with vision radius `vision` (`None`: unlimited) sees, into
    /// `seen`: its own view, and the cells lit as seen from it within [`SIGHT_RANGE`] that it
    /// has in view (the module's documentation). Without a lit cell within that range, or when
    /// its vision reaches as far, that is its own view alone. `far` is scratch space of the
    /// map's size.
    pub fn sight(
        &self,
        opacity: &OpacityGrid,
        origin: Cell,
        vision: Option<u32>,
        seen: &mut VisibleSet,
        far: &mut VisibleSet,
    ) {
        self.source.compute(opacity, FovParams::new(origin, vision), seen);
        if vision.is_none_or(|v| v >= SIGHT_RANGE) || !self.lit_near(origin, SIGHT_RANGE as i32) {
            return;
        }
        self.source.compute(opacity, FovParams::new(origin, Some(SIGHT_RANGE)), far);
        for c in far.iter() {
            if !seen.contains_cell(c) && self.lit_as_seen_from(c, origin, opacity) {
                seen.insert(c.x, c.y);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fov;
    use crate::core::rng::Rng;

    fn cells(rows: &[&str], ch: char) -> Vec<Cell> {
        let mut out = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if c == ch {
                    out.push(Cell::new(x as i32, y as i32));
                }
            }
        }
        out
    }

    /// The cells of `rows` in a set, as drawn there; blank the others.
    fn drawn(rows: &[&str], lit: impl Fn(Cell) -> bool) -> Vec<String> {
        rows.iter()
            .enumerate()
            .map(|(y, row)| {
                row.chars()
                    .enumerate()
                    .map(|(x, ch)| if lit(Cell::new(x as i32, y as i32)) { ch } else { ' ' })
                    .collect::<String>()
                    .trim_end()
                    .to_owned()
            })
            .collect()
    }

    fn lights(rows: &[&str], radius: u32) -> Vec<Light> {
        cells(rows, '!').into_iter().enumerate().map(|(k, cell)| Light { object: k as u32 + 1, cell, radius }).collect()
    }

    #[test]
    fn a_light_lights_its_room_and_the_walls_around_it_not_past_them() {
        let rows = [
            "##########", //
            "#....#...#",
            "#.!..#...#",
            "#....'...#",
            "##########",
        ];
        let opacity = OpacityGrid::from_ascii(&rows);
        let lighting = Lighting::new(lights(&rows, 6), Algorithm::Symmetric, &opacity);
        // Through the open door, the cells in line with it and the walls beside them, as far as
        // the radius.
        assert_eq!(
            drawn(&rows, |c| lighting.is_lit(c)),
            [
                "######", //
                "#....#", "#.!..#", "#....'..", "########",
            ]
        );
        assert_eq!(lighting.lights_at(Cell::new(4, 2)).collect::<Vec<_>>(), [0]);
        assert_eq!(lighting.lights_at(Cell::new(8, 2)).count(), 0);
    }

    /// The player at the east end of a dark corridor, vision 2, a lit room to the west: the room
    /// is seen from afar through its door, its far wall too (lit on the face turned to the
    /// player); the corridor is seen only within 2. Without lights, the player's own view alone.
    #[test]
    fn a_lit_room_is_seen_from_the_end_of_a_dark_corridor() {
        let rows = [
            "#######", //
            "#.....#",
            "#..!..############",
            "#......'.........@",
            "#.....############",
            "#######",
        ];
        let opacity = OpacityGrid::from_ascii(&rows);
        let lighting = Lighting::new(lights(&rows, 4), Algorithm::Symmetric, &opacity);
        let (w, h) = (opacity.width() as u32, opacity.height() as u32);
        let (mut seen, mut far) = (VisibleSet::new(w, h), VisibleSet::new(w, h));
        let player = Cell::new(17, 3);
        lighting.sight(&opacity, player, Some(2), &mut seen, &mut far);
        assert_eq!(
            drawn(&rows, |c| seen.contains_cell(c)),
            [
                "", //
                "",
                "#               ##",
                "#......        ..@",
                "#               ##",
                "",
            ]
        );
        let dark = Lighting::new(Vec::new(), Algorithm::Symmetric, &opacity);
        dark.sight(&opacity, player, Some(2), &mut seen, &mut far);
        let mut own = VisibleSet::new(w, h);
        fov::compute(Algorithm::Symmetric, &opacity, FovParams::new(player, Some(2)), &mut own);
        assert_eq!(seen.iter().collect::<Vec<_>>(), own.iter().collect::<Vec<_>>());
    }

    /// A lit room's north wall seen from the dark outside: lit, in view, but its lit face is
    /// turned away, so it is not seen; from inside the room it is.
    #[test]
    fn a_wall_is_seen_by_light_only_from_its_lit_side() {
        let rows = [
            "..........", //
            "..........",
            "..........",
            "##########",
            "#..!.....#",
            "#........#",
            "##########",
        ];
        let opacity = OpacityGrid::from_ascii(&rows);
        let lighting = Lighting::new(lights(&rows, 9), Algorithm::Symmetric, &opacity);
        let (w, h) = (opacity.width() as u32, opacity.height() as u32);
        let (mut seen, mut far) = (VisibleSet::new(w, h), VisibleSet::new(w, h));
        let wall = Cell::new(5, 3);
        assert!(lighting.is_lit(wall));
        let outside = Cell::new(5, 0);
        lighting.sight(&opacity, outside, Some(1), &mut seen, &mut far);
        assert!(far.contains_cell(wall), "in view from outside");
        assert!(!seen.contains_cell(wall));
        assert_eq!(seen.count(), 4, "the viewer's own view alone: the cell and its three neighbours on the map");
        let inside = Cell::new(8, 5);
        lighting.sight(&opacity, inside, Some(1), &mut seen, &mut far);
        assert!(seen.contains_cell(wall));
    }

    /// After random doors open and close, the lights lit again by the event equal lights lit from
    /// scratch, for every algorithm, and a change far from every light lights nothing again; so
    /// after lights are moved, added and taken away.
    #[test]
    fn opacity_changes_leave_the_lighting_a_fresh_one_would_have() {
        let mut rng = Rng::new(11);
        for round in 0..60 {
            let algorithm = Algorithm::ALL[round % Algorithm::ALL.len()];
            // Every fourth map wide and lights far-reaching: views of several words a row.
            let wide = round % 4 == 3;
            let (w, h) = if wide {
                (100 + rng.below(100) as i32, 20 + rng.below(40) as i32)
            } else {
                (20 + rng.below(30) as i32, 10 + rng.below(20) as i32)
            };
            let mut opacity = OpacityGrid::new(w as u32, h as u32);
            for y in 0..h {
                for x in 0..w {
                    if rng.chance(0.3) {
                        opacity.set(x, y, true);
                    }
                }
            }
            let lights: Vec<Light> = (0..1 + rng.below(5))
                .map(|k| Light {
                    object: k + 1,
                    cell: Cell::new(rng.below(w as u32) as i32, rng.below(h as u32) as i32),
                    radius: if wide { 40 + rng.below(60) } else { 1 + rng.below(9) },
                })
                .collect();
            let mut lights = lights;
            let mut lighting = Lighting::new(lights.clone(), algorithm, &opacity);
            for step in 0..20 {
                if step % 5 == 4 {
                    // An edit of the lights: one moved, one added, the first taken away.
                    let k = rng.below(lights.len() as u32) as usize;
                    lights[k].cell = Cell::new(rng.below(w as u32) as i32, rng.below(h as u32) as i32);
                    lights.push(Light { object: 100 + step, cell: Cell::new(0, 0), radius: rng.below(6) });
                    if lights.len() > 2 {
                        lights.remove(0);
                    }
                    lighting.set_lights(lights.clone(), &opacity);
                    let fresh = Lighting::new(lights.clone(), algorithm, &opacity);
                    assert_eq!(lighting.views, fresh.views, "{algorithm} round {round} after the lights changed");
                    assert_eq!(lighting.lit.iter().collect::<Vec<_>>(), fresh.lit.iter().collect::<Vec<_>>());
                    continue;
                }
                let c = Cell::new(rng.below(w as u32) as i32, rng.below(h as u32) as i32);
                opacity.set(c.x, c.y, !opacity.is_opaque(c.x, c.y));
                let relit = lighting.opacity_changed(&[c], &opacity);
                let fresh = Lighting::new(lights.clone(), algorithm, &opacity);
                // A view is its light's FOV, every cell of it (the view's words, cut to the map).
                let k = rng.below(lights.len() as u32) as usize;
                let mut fov_cells = VisibleSet::new(w as u32, h as u32);
                let l = lighting.lights()[k];
                fov::compute(algorithm, &opacity, FovParams::new(l.cell, Some(l.radius)), &mut fov_cells);
                assert_eq!(lighting.view_of(k).collect::<Vec<_>>(), fov_cells.iter().collect::<Vec<_>>());
                assert_eq!(lighting.lit_by(k), fov_cells.count());
                assert_eq!(lighting.views, fresh.views, "{algorithm} round {round} after {c}");
                assert_eq!(lighting.lit.iter().collect::<Vec<_>>(), fresh.lit.iter().collect::<Vec<_>>());
                let near =
                    lights.iter().filter(|l| (l.cell.x - c.x).abs().max((l.cell.y - c.y).abs()) as u32 <= l.radius + 1);
                assert_eq!(relit.len(), near.count());
            }
        }
    }
}
