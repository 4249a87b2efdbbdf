//! The app's helpers: a harness that runs frames as eframe does, and clicks on cells as a hand
//! makes them.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sightline::app::SightlineApp;
use sightline::core::Cell;

/// The whole window at `width × height`, on the built-in map; each frame runs `logic` then `ui`.
///
/// Up to 12 frames a `run()`: an overlay's background job can finish a frame or two after it
/// starts, and its result asks for a repaint (kittest's default of 4 then fails at random,
/// depending on how busy the machine is); anything that keeps repainting still fails.
pub fn harness_sized(width: f32, height: f32) -> Harness<'static, SightlineApp> {
    Harness::builder().with_size(egui::vec2(width, height)).with_max_steps(12).build_ui_state(
        |ui, app: &mut SightlineApp| {
            // What eframe's `logic` does before each `ui` (but for the repaints it asks for:
            // `run()` steps until none is asked).
            app.logic_frame(ui.input(|i| i.stable_dt));
            app.window_title_frame(ui.ctx());
            app.ui_frame(ui);
        },
        SightlineApp::new(None),
    )
}

/// Opens the menu `menu` of the menu bar and clicks its item `item`, by their labels.
pub fn click_menu_item(h: &mut Harness<'static, SightlineApp>, menu: &str, item: &str) {
    h.get_by_label(menu).click();
    h.run();
    h.get_by_label(item).click();
    h.run();
}

/// The screen centre of a cell of the canvas.
pub fn cell_centre(h: &Harness<'static, SightlineApp>, c: Cell) -> egui::Pos2 {
    h.state().view.cell_rect(c).center()
}

/// A click on a cell, as a hand does it: move there, press, release.
pub fn click_cell(h: &mut Harness<'static, SightlineApp>, c: Cell) {
    let p = cell_centre(h, c);
    click_at(h, p);
}

/// A click at a screen position, as a hand does it: move there, press, release.
pub fn click_at(h: &mut Harness<'static, SightlineApp>, p: egui::Pos2) {
    h.hover_at(p);
    h.run();
    h.drag_at(p);
    h.run();
    h.drop_at(p);
    h.run();
}

/// A drag from `from` to `to` as a hand does it: press, move there in four steps, release.
pub fn drag_between(h: &mut Harness<'static, SightlineApp>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for k in 1..=4 {
        h.hover_at(from + (to - from) * (k as f32 / 4.0));
        h.run();
    }
    h.drop_at(to);
    h.run();
}

/// A drag with Shift held through `cells`, as a hand makes it: press on the first, move
/// through the others, release on the last.
pub fn shift_drag_through(h: &mut Harness<'static, SightlineApp>, cells: &[Cell]) {
    drag_through_holding(h, cells, egui::Modifiers::SHIFT);
}

/// A drag through `cells` (a click, for one cell) with `modifiers` held throughout.
pub fn drag_through_holding(h: &mut Harness<'static, SightlineApp>, cells: &[Cell], modifiers: egui::Modifiers) {
    let button =
        |pos, pressed| egui::Event::PointerButton { pos, button: egui::PointerButton::Primary, pressed, modifiers };
    let first = cell_centre(h, cells[0]);
    h.hover_at(first);
    h.run();
    h.event_modifiers(button(first, true), modifiers);
    h.run();
    for &c in &cells[1..] {
        let p = cell_centre(h, c);
        h.event_modifiers(egui::Event::PointerMoved(p), modifiers);
        h.run();
    }
    let last = cell_centre(h, *cells.last().unwrap());
    h.event_modifiers(button(last, false), modifiers);
    h.run();
}

/// The map's selection drawn as the map is: `#` selected, `.` not (all `.` when none).
pub fn selection_rows(app: &SightlineApp) -> Vec<String> {
    let map = &app.document.map;
    let selected = |c| app.editor.selection.as_ref().is_some_and(|s| s.contains(c));
    (0..map.height() as i32)
        .map(|y| (0..map.width() as i32).map(|x| if selected(Cell::new(x, y)) { '#' } else { '.' }).collect())
        .collect()
}
