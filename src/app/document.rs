//! The open map and what the app knows about it: its file and whether it has unsaved changes.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::core::Map;
use crate::core::edit::selection::Selection;
use crate::core::model::map::MapDiff;

/// A number no map state had before: documents and edits draw from one counter, so a revision
/// never repeats even across documents (overlays key their results on it).
fn next_revision() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(1);
    COUNTER.fetch_add(1, Ordering::Relaxed)
}

/// What a step is called when no command named it.
pub(crate) const UNNAMED_STEP: &str = "Edit";

/// How many edits undo remembers.
pub(crate) const UNDO_LIMIT: usize = 200;

/// How much memory the undo history may take, about. Each step keeps what its edit changed (a
/// [`MapDiff`]), so a brush stroke costs kilobytes whatever the map's size and a 4096×4096 map
/// keeps its [`UNDO_LIMIT`] steps; edits that change a whole layer of such a map (a resize, a
/// fill of everything) cost 32 MiB each and reach this bound first. The last edit can always
/// be undone, however large.
pub(crate) const UNDO_BYTES: usize = 1 << 30;

/// One step of the undo history: what an edit changed of the map and the selection before it,
/// or (`change: None`) the selection before a change of the selection alone, as Tiled keeps
/// selection changes in its history.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The edit's change, holding the other side's values, and which of the map's states the
    /// other side is (see `Document::state`); `None` for a selection step.
    change: Option<(MapDiff, u64)>,
    selection: Option<Selection>,
    /// What the edit or selection change is called ("Paint", "Select all"): see
    /// [`Document::name_next_step`].
    name: String,
}

impl Step {
    /// Whether the step changes the map (else it changes the selection alone).
    pub fn changes_map(&self) -> bool {
        self.change.is_some()
    }

    /// What the edit or selection change is called.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// About how many bytes the step keeps.
    pub fn approx_bytes(&self) -> usize {
        self.change.as_ref().map_or(0, |(diff, _)| diff.approx_bytes())
            + self.selection.as_ref().map_or(0, Selection::approx_bytes)
    }
}

pub struct Document {
    pub map: Map,
    /// The steps before each edit or selection change, oldest first (at most `UNDO_LIMIT`).
    pub undo: Vec<Step>,
    /// Steps undone, most recent last.
    pub redo: Vec<Step>,
    /// The file it was opened from or saved to; `None` for the built-in map and new maps.
    pub path: Option<PathBuf>,
    /// Name shown when there is no file.
    pub(crate) untitled_name: String,
    /// Unsaved changes.
    pub dirty: bool,
    /// Which state the map is in: a number no other state had, given by each edit and carried
    /// through undo and redo with the map, so that undoing back to the saved state clears
    /// `dirty`, as in Tiled, and a selection step (the map unchanged) leaves it as it is.
    state: u64,
    /// The state saved (or opened).
    saved_state: u64,
    /// Changes whenever the map does (see [`Document::touch`]).
    revision: u64,
    /// What the file on disk holds that a save over it drops (see `format::Loaded::not_kept`);
    /// emptied once the user has agreed to it or saved elsewhere.
    pub(crate) not_kept: Vec<&'static str>,
    /// The undo history's memory budget ([`UNDO_BYTES`]; tests set less).
    pub(crate) undo_budget: usize,
    /// What the next step is called (the command being applied names it; `None`:
    /// [`UNNAMED_STEP`]).
    next_name: Option<String>,
    /// How many steps the history's bounds have dropped, oldest first.
    forgotten: usize,
    /// The map as the history last recorded it: as it was at the open edit's checkpoint, else as
    /// it is (unless changed outside the history, which the next checkpoint notices). An edit's
    /// change is found against it, so no step copies the map.
    shadow: Map,
    /// An edit's step is open: checkpointed, its change not taken yet. The change is taken when
    /// the history next moves (a checkpoint, a selection step, undo, redo), so the many frames
    /// of a stroke cost nothing.
    open: bool,
}

impl Document {
    pub fn untitled(map: Map, name: &str) -> Self {
        Self {
            shadow: map.clone(),
            open: false,
            map,
            undo: Vec::new(),
            redo: Vec::new(),
            path: None,
            untitled_name: name.to_owned(),
            dirty: false,
            state: 0,
            saved_state: 0,
            revision: next_revision(),
            not_kept: Vec::new(),
            undo_budget: UNDO_BYTES,
            next_name: None,
            forgotten: 0,
        }
    }

    pub(crate) fn open(map: Map, path: PathBuf) -> Self {
        Self {
            shadow: map.clone(),
            open: false,
            map,
            undo: Vec::new(),
            redo: Vec::new(),
            path: Some(path),
            untitled_name: String::new(),
            dirty: false,
            state: 0,
            saved_state: 0,
            revision: next_revision(),
            not_kept: Vec::new(),
            undo_budget: UNDO_BYTES,
            next_name: None,
            forgotten: 0,
        }
    }

    /// Names the steps made from now on (by the command about to be applied; the app calls
    /// this before each command, so a step is never named after an earlier one).
    pub(crate) fn name_next_step(&mut self, name: Option<String>) {
        self.next_name = name;
    }

    fn next_step_name(&self) -> String {
        self.next_name.as_deref().unwrap_or(UNNAMED_STEP).to_owned()
    }

    /// How many of the oldest steps the history's bounds (`UNDO_LIMIT`, `UNDO_BYTES`)
    /// have dropped.
    pub fn forgotten(&self) -> usize {
        self.forgotten
    }

    /// Opens an edit's step, remembering the `selection` before it (the map's change is taken
    /// when the history next moves: see `Document::open`). The redo history goes only when the
    /// edit does change the map: see [`Document::touch`].
    pub fn checkpoint(&mut self, selection: &Option<Selection>) {
        self.close();
        // Changed outside the history (a change no step records): start from the map as it is.
        if self.map != self.shadow {
            self.shadow = self.map.clone();
        }
        let name = self.next_step_name();
        self.undo.push(Step { change: Some((MapDiff::default(), self.state)), selection: selection.clone(), name });
        self.open = true;
    }

    /// Takes the open edit's change into its step, and brings the history's copy of the map up
    /// to date with it (O(cells) to compare, O(change) to keep).
    fn close(&mut self) {
        if !std::mem::take(&mut self.open) {
            return;
        }
        let diff = MapDiff::between(&self.shadow, &self.map);
        diff.copy_covered(&mut self.shadow, &self.map);
        // The open step is the newest edit (selection steps may have come after it).
        if let Some((change, _)) = self.undo.iter_mut().rev().find_map(|s| s.change.as_mut()) {
            *change = diff;
        }
    }

    /// Forgets the last checkpoint (an edit that changed nothing).
    pub(crate) fn drop_checkpoint(&mut self) {
        self.undo.pop();
        self.open = false;
    }

    /// How many of the undo steps are edits of the map (the others change the selection alone).
    pub fn edits(&self) -> usize {
        self.undo.iter().filter(|s| s.changes_map()).count()
    }

    /// Whether the map is as the last checkpoint left it (an edit that changed nothing).
    pub(crate) fn unchanged_since_checkpoint(&self) -> bool {
        self.open && self.undo.last().is_some_and(Step::changes_map) && self.map == self.shadow
    }

    /// A change of the selection alone, from `before` to `now`: one undo step (none when it
    /// did not change). What was undone can no longer be redone, as after an edit; the map and
    /// whether it is saved stay as they are.
    pub(crate) fn selection_changed(&mut self, before: Option<Selection>, now: &Option<Selection>) {
        if before == *now {
            return;
        }
        self.close();
        self.undo.push(Step { change: None, selection: before, name: self.next_step_name() });
        self.redo.clear();
        self.trim();
    }

    /// Takes the last step back: the map and `selection` become what it holds (a selection
    /// step: the selection alone).
    pub fn undo(&mut self, selection: &mut Option<Selection>) -> bool {
        self.close();
        let Some(step) = self.undo.pop() else { return false };
        let undone = self.swap(step, selection);
        self.redo.push(undone);
        true
    }

    pub fn redo(&mut self, selection: &mut Option<Selection>) -> bool {
        self.close();
        let Some(step) = self.redo.pop() else { return false };
        let redone = self.swap(step, selection);
        self.undo.push(redone);
        true
    }

    /// Puts `step` in place, returning what it replaced as a step.
    fn swap(&mut self, step: Step, selection: &mut Option<Selection>) -> Step {
        let Step { change, selection: to, name } = step;
        let selection = std::mem::replace(selection, to);
        let change = change.map(|(mut diff, state)| {
            diff.swap(&mut self.map);
            diff.copy_covered(&mut self.shadow, &self.map);
            let state = std::mem::replace(&mut self.state, state);
            self.changed();
            (diff, state)
        });
        Step { change, selection, name }
    }

    /// Records an edit: the map changed, so it is unsaved, everything computed from it is stale,
    /// and what was undone can no longer be redone.
    pub fn touch(&mut self) {
        // A state no other had (a saved state in the redo history, now dropped, can no longer
        // be reached).
        self.state = next_revision();
        self.redo.clear();
        self.trim();
        self.changed();
    }

    /// The history is bounded in steps and in memory; the oldest steps go (only after an edit
    /// or a selection change, so an edit that changed nothing and dropped its checkpoint cost
    /// no history).
    fn trim(&mut self) {
        let mut bytes = 0usize;
        let keep = self
            .undo
            .iter()
            .rev()
            .take(UNDO_LIMIT)
            .take_while(|m| {
                bytes = bytes.saturating_add(m.approx_bytes());
                bytes <= self.undo_budget
            })
            .count()
            .max(1);
        let excess = self.undo.len().saturating_sub(keep);
        self.undo.drain(..excess);
        self.forgotten += excess;
    }

    /// The map changed (an edit, an undo, a redo): unsaved, unless undo or redo came back to
    /// the saved state.
    fn changed(&mut self) {
        self.dirty = self.saved_state != self.state;
        self.revision = next_revision();
    }

    /// Identifies the map's current state.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    pub(crate) fn saved_as(&mut self, path: PathBuf) {
        // The file written is the map as sightline holds it: nothing more to drop there.
        self.not_kept.clear();
        self.path = Some(path);
        self.dirty = false;
        self.saved_state = self.state;
    }

    /// A tileset file was written with `as_read`: every sheet read from that file, in the map
    /// and in every state undo and redo reach, now compares with what the file holds. (Undo
    /// changes the map, not files on disk: a state undone to still differs from the file in
    /// what it differs, and a save then writes its tileset into the map.) Not an edit of the
    /// map, but what a save of it writes changes, so views of it are stale.
    pub(crate) fn tileset_file_written(
        &mut self,
        path: &std::path::Path,
        as_read: &crate::core::model::sheet::FormatMemo,
    ) {
        self.close();
        let steps = self.undo.iter_mut().chain(self.redo.iter_mut());
        let in_steps = steps.filter_map(|s| s.change.as_mut().and_then(|(diff, _)| diff.sheets_mut()));
        let states = [&mut self.map.sheets, &mut self.shadow.sheets].into_iter().chain(in_steps);
        for sheets in states {
            for sheet in sheets.iter_mut() {
                if let Some(file) = sheet.file.as_mut().filter(|f| f.path == path) {
                    file.as_read = Some(as_read.clone());
                }
            }
        }
        self.revision = next_revision();
    }

    /// The folder of its file, where the map's relative paths start (`None` without a file).
    pub fn folder(&self) -> Option<&std::path::Path> {
        self.path.as_deref().and_then(|p| p.parent())
    }

    pub fn file_name(&self) -> String {
        self.path
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.untitled_name.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Cell;
    use crate::core::model::map::Layer;

    /// Paints `n` edits, one cell each, as the app does (checkpoint, change, touch); each
    /// changes its cell (tile 2 or 3, whichever it does not hold).
    fn edit(doc: &mut Document, n: usize) {
        for i in 0..n {
            doc.checkpoint(&None);
            let at = Cell::new((i % 8) as i32, 0);
            let tile = if doc.map.tile(0, at) == Some(2) { 3 } else { 2 };
            doc.map.set_tile(0, at, tile);
            doc.touch();
        }
    }

    #[test]
    fn undoing_back_to_the_saved_state_is_not_unsaved_but_an_edit_past_it_is() {
        let mut doc = Document::open(Map::new_standard(8, 2, 1).unwrap(), "m.ron".into());
        edit(&mut doc, 2);
        assert!(doc.dirty);
        doc.undo(&mut None);
        doc.undo(&mut None);
        assert!(!doc.dirty, "back where the file is");
        doc.redo(&mut None);
        assert!(doc.dirty);
        doc.saved_as("m.ron".into());
        doc.undo(&mut None);
        assert!(doc.dirty, "one step before the save");
        doc.redo(&mut None);
        assert!(!doc.dirty, "redone to the saved state");
        // Undo past the save, then edit: the saved state is gone from the history.
        doc.undo(&mut None);
        edit(&mut doc, 1);
        assert!(doc.dirty);
        doc.undo(&mut None);
        assert!(doc.dirty, "the state one step before the save was never saved");
        while doc.redo(&mut None) {}
        assert!(doc.dirty, "and the saved state cannot be redone to");
        // An edit with no checkpoint of its own (a name being typed) changes the saved state.
        doc.saved_as("m.ron".into());
        doc.map.set_tile(0, Cell::new(0, 1), 2);
        doc.touch();
        assert!(doc.dirty);
        doc.undo(&mut None);
        assert!(doc.dirty, "the state before was not saved either");
        // The history trimmed past the saved state: it is gone too.
        let mut doc = Document::open(Map::new_standard(8, 2, 1).unwrap(), "m.ron".into());
        doc.undo_budget = one_edit_bytes() * 3;
        edit(&mut doc, 5);
        while doc.undo(&mut None) {}
        assert!(doc.dirty, "the opened state fell out of the history");
    }

    /// A step keeps the name of the command that made it through undo and redo; steps the
    /// history's bounds drop are counted.
    #[test]
    fn steps_keep_their_names_through_undo_and_redo_and_dropped_ones_are_counted() {
        let mut doc = Document::open(Map::new_standard(8, 2, 1).unwrap(), "m.ron".into());
        let names = |steps: &[Step]| steps.iter().map(|s| s.name().to_owned()).collect::<Vec<_>>();
        doc.name_next_step(Some("Paint".into()));
        edit(&mut doc, 1);
        doc.name_next_step(Some("Select all".into()));
        doc.selection_changed(None, &Some(Selection::all(8, 2)));
        doc.name_next_step(None);
        edit(&mut doc, 1);
        assert_eq!(names(&doc.undo), ["Paint", "Select all", UNNAMED_STEP]);
        doc.undo(&mut None);
        doc.undo(&mut None);
        assert_eq!(names(&doc.undo), ["Paint"]);
        assert_eq!(names(&doc.redo), [UNNAMED_STEP, "Select all"], "the next to redo last");
        doc.redo(&mut None);
        assert_eq!(names(&doc.undo), ["Paint", "Select all"]);
        assert_eq!(doc.forgotten(), 0);
        // Two edits' worth, and the open edit (its change not taken yet, so it costs nothing).
        doc.undo_budget = one_edit_bytes() * 2 + one_edit_bytes() / 2;
        edit(&mut doc, 4);
        assert_eq!(doc.undo.len(), 3);
        assert_eq!(doc.forgotten(), 3, "Paint, the selection step and one edit");
    }

    /// A change of the selection alone is an undo step of its own, which leaves the map and its
    /// saved state as they are; an edit's step keeps the selection as it was before it.
    #[test]
    fn selection_changes_are_undone_in_turn_with_edits_and_leave_the_map_saved() {
        let mut doc = Document::open(Map::new_standard(8, 2, 1).unwrap(), "m.ron".into());
        let some = |x: i32| {
            let mut s = Selection::empty(8, 2);
            s.insert(Cell::new(x, 0));
            Some(s)
        };
        let mut selection = None;
        // Select, edit, select again.
        doc.selection_changed(std::mem::replace(&mut selection, some(1)), &selection);
        assert!(!doc.dirty, "a selection is not an unsaved change");
        doc.checkpoint(&selection);
        doc.map.set_tile(0, Cell::new(1, 0), 2);
        doc.touch();
        selection = some(5);
        doc.selection_changed(some(1), &selection);
        assert_eq!(doc.undo.len(), 3);
        // The same selection again is no step.
        doc.selection_changed(some(5), &selection);
        assert_eq!(doc.undo.len(), 3);
        // Undo: the selection first, then the edit (the map back, saved again), then the first
        // selection.
        assert!(doc.undo(&mut selection));
        assert_eq!((selection.clone(), doc.dirty), (some(1), true));
        assert!(doc.undo(&mut selection));
        assert_eq!((selection.clone(), doc.dirty, doc.map.tile(0, Cell::new(1, 0))), (some(1), false, Some(1)));
        assert!(doc.undo(&mut selection));
        assert_eq!((selection.clone(), doc.dirty), (None, false));
        assert!(!doc.undo(&mut selection));
        // And redo all of it.
        while doc.redo(&mut selection) {}
        assert_eq!((selection.clone(), doc.dirty, doc.map.tile(0, Cell::new(1, 0))), (some(5), true, Some(2)));
        // A selection change after undoing drops what could be redone, as an edit does.
        doc.undo(&mut selection);
        doc.selection_changed(selection.take(), &selection);
        assert!(doc.redo.is_empty());
    }

    /// What one edit of [`edit`] keeps.
    fn one_edit_bytes() -> usize {
        let mut doc = Document::untitled(Map::new_standard(8, 2, 1).unwrap(), "t");
        edit(&mut doc, 2);
        doc.undo[0].approx_bytes()
    }

    /// Fills the whole of layer 0, `n` times, with tiles 2 and 3 in turn: edits whose change is
    /// the whole layer.
    fn fill(doc: &mut Document, n: usize) {
        for i in 0..n {
            doc.checkpoint(&None);
            let tile = 2 + (i % 2) as crate::core::TileId;
            doc.map.layers[0].cells.fill(tile);
            doc.touch();
        }
    }

    #[test]
    fn the_undo_history_is_bounded_in_steps_and_in_memory() {
        let map = Map::new_standard(64, 64, 1).unwrap();
        let mut doc = Document::untitled(map.clone(), "t");
        edit(&mut doc, UNDO_LIMIT + 5);
        assert_eq!(doc.undo.len(), UNDO_LIMIT, "small edits keep the step limit");

        // Edits that change the whole layer cost the layer each.
        let layer = map.layers[0].approx_bytes();
        let mut doc = Document::untitled(map.clone(), "t");
        doc.undo_budget = 10 * layer + layer / 2;
        fill(&mut doc, 25);
        assert!(doc.undo[..doc.undo.len() - 1].iter().all(|s| s.approx_bytes() >= layer), "a filled layer each");
        assert_eq!(doc.undo.len(), 11, "ten changes fit in the budget, and the open edit");
        // Undo and redo move changes between the two histories, so the whole stays bounded.
        while doc.undo(&mut None) {}
        fill(&mut doc, 1);
        assert_eq!(doc.undo.len(), 1);
        assert!(doc.redo.is_empty());

        let mut doc = Document::untitled(map.clone(), "t");
        doc.undo_budget = layer / 2;
        fill(&mut doc, 3);
        assert_eq!(doc.undo.len(), 1, "the last edit can be undone, whatever the budget");
        assert!(doc.undo(&mut None));
        assert_eq!(doc.map.layers[0].cells[0], 3, "the map before the last fill");
    }

    /// A step keeps what its edit changed, not the map: on the largest map, one-cell edits cost
    /// bytes, and the history keeps all its steps.
    #[test]
    fn steps_cost_what_they_change_and_the_largest_map_keeps_its_whole_history() {
        let side = crate::core::model::map::MAX_MAP_SIDE;
        let mut doc = Document::untitled(Map::new_standard(side, side, 1).unwrap(), "big");
        let layer = doc.map.approx_bytes();
        for i in 0..UNDO_LIMIT + 10 {
            doc.checkpoint(&None);
            let at = Cell::new((i * 97 % side as usize) as i32, (i * 31 % side as usize) as i32);
            doc.map.set_tile(0, at, 2);
            doc.touch();
        }
        assert_eq!(doc.undo.len(), UNDO_LIMIT, "every step kept, to the step limit");
        let kept: usize = doc.undo.iter().map(Step::approx_bytes).sum();
        assert!(kept < 1 << 20, "{kept} bytes for {UNDO_LIMIT} one-cell edits (a copy would be {layer} each)");
        while doc.undo(&mut None) {}
        assert!(doc.map.layers[0].cells[..].iter().filter(|&&t| t == 2).count() == 10, "back to the oldest kept state");
    }

    /// Random edits of every kind (cells, flips, layers added and removed, objects, tile types,
    /// properties, a resize), undos and redos: after each, the map is the initial map with the
    /// edits then in effect replayed from the start.
    #[test]
    fn random_edits_undos_and_redos_match_a_replay_from_the_start() {
        use crate::core::rng::Rng;
        let initial = Map::new_standard(40, 30, 2).unwrap();
        for seed in 0..20 {
            let mut rng = Rng::new(seed);
            let mut doc = Document::untitled(initial.clone(), "t");
            // The edits in effect, oldest first, and those undone (the next to redo last).
            let (mut done, mut undone): (Vec<u64>, Vec<u64>) = (Vec::new(), Vec::new());
            for round in 0..150 {
                match rng.below(10) {
                    0..=5 => {
                        let edit_seed = rng.next_u64();
                        doc.checkpoint(&None);
                        random_edit(&mut doc.map, edit_seed);
                        doc.touch();
                        done.push(edit_seed);
                        undone.clear();
                    }
                    6..=7 => {
                        if doc.undo(&mut None) {
                            undone.push(done.pop().unwrap());
                        }
                    }
                    _ => {
                        if doc.redo(&mut None) {
                            done.push(undone.pop().unwrap());
                        }
                    }
                }
                let mut replayed = initial.clone();
                for &e in &done {
                    random_edit(&mut replayed, e);
                }
                if let Some(d) = doc.map.first_difference(&replayed) {
                    panic!("seed {seed}, round {round}: {d}");
                }
            }
        }
    }

    /// One random edit, the same for the same `seed` on the same map.
    fn random_edit(map: &mut Map, seed: u64) {
        use crate::core::model::flip::Flip;
        use crate::core::rng::Rng;
        let mut rng = Rng::new(seed);
        let (w, h) = (map.width() as i32, map.height() as i32);
        let cell = |rng: &mut Rng| Cell::new(rng.below(w as u32) as i32, rng.below(h as u32) as i32);
        match rng.below(9) {
            0..=2 => {
                // A stroke: a few cells of a layer.
                let layer = rng.below(map.layers.len() as u32) as usize;
                for _ in 0..1 + rng.below(20) {
                    let tile = rng.below(map.tiles.len() as u32) as crate::core::TileId;
                    map.set_tile(layer, cell(&mut rng), tile);
                }
            }
            3 => {
                let layer = rng.below(map.layers.len() as u32) as usize;
                let len = map.layers[layer].cells.len();
                let i = rng.below(len as u32) as usize;
                map.layers[layer].flips.set(i, Flip::from_bits(rng.below(8) as u8).unwrap_or_default(), len);
            }
            4 => {
                if map.layers.len() > 1 && rng.chance(0.5) {
                    map.layers.remove(rng.below(map.layers.len() as u32) as usize);
                } else {
                    let copy = map.layers[0].clone();
                    map.layers.push(Layer { name: format!("l{seed}"), ..copy });
                }
            }
            5 => {
                let layer = rng.below(map.layers.len() as u32) as usize;
                map.layers[layer].visible = !map.layers[layer].visible;
                map.layers[layer].name.push('x');
            }
            6 => {
                map.properties.insert(format!("p{}", rng.below(5)), crate::core::PropertyValue::Int(seed as i64));
            }
            7 => {
                let mut kind = map.tiles[1].clone();
                kind.name = format!("t{seed}");
                map.tiles.push(kind);
            }
            _ => {
                let (nw, nh) = (20 + rng.below(30), 15 + rng.below(25));
                *map = map.resized(nw, nh, crate::core::Anchor::ALL[rng.below(9) as usize], 0).unwrap();
            }
        }
    }
}
