//! Small widgets the panels share.

use crate::core::model::object::MAX_RADIUS;

/// Gives a widget its accessible name (for screen readers and `get_by_label`).
pub(crate) fn name_widget(ui: &egui::Ui, response: &egui::Response, name: &str) {
    ui.ctx().accesskit_node_builder(response.id, |node| node.set_label(name.to_owned()));
}

/// A vision or light radius, 0 to [`MAX_RADIUS`] cells: a radius read from a file is shown as it
/// is (a field that clamped what it shows would change the object just by showing it).
pub(crate) fn radius_field<'a>(radius: &'a mut u32, prefix: &str) -> egui::DragValue<'a> {
    egui::DragValue::new(radius).range(0..=MAX_RADIUS).clamp_existing_to_range(false).prefix(prefix)
}
