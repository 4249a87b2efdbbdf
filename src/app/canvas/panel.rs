//! The canvas panel: the map drawn with the overlays and the marks over it (selection, objects,
//! shape drafts, pasted objects), in one view or split in two, and its pointer input handed on
//! to [`super::input`].

use super::input::GRAB_SLACK_PX;
use super::marks::{
    RING_STROKES, draw_object_focus, draw_object_ring, draw_pasted_objects, draw_selection, draw_shape_draft,
    side_label,
};
use crate::app::canvas::{self, View};
use crate::app::{
    Command, DEFAULT_OBJECT_TEXT, FileCommand, ObjectChoice, ObjectCommand, PointerAction, SightlineApp, Tool,
    ToolCommand, object_focus, selected_objects,
};

impl SightlineApp {
    /// The map canvas (two, side by side, when the pathfinding overlay splits it) with the
    /// overlays; the rest of the window is drawn around it by [`SightlineApp::ui_frame`].
    pub fn central_ui(&mut self, ui: &mut egui::Ui) {
        let preview = self.preview();
        self.update_selection_picture(ui.ctx());
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
            self.central_rect = ui.max_rect();
            let revision = self.document.revision();
            let draft_shift = self.new_object_shift();
            let pasted = self.pasted_objects_preview();
            let sheets = &self.sheets;
            let map = &self.document.map;
            let overlays = &self.overlays;
            let view = &mut self.view;
            let selection = self.editor.selection.as_ref();
            let draft = self.editor.shape_draft.as_ref().map(|d| (d, self.editor.object));
            let focus = object_focus(&self.editor, map);
            let selected = selected_objects(&self.editor, map);
            let selected_shift = self.editor.object_layer.and_then(|j| map.object_looks().get(j).map(|l| l.offset));
            let selected_shift = selected_shift.unwrap_or([0.0, 0.0]);
            let draw_objects = |p: &egui::Painter, v: &View| {
                for o in &selected {
                    draw_object_ring(p, v, map, o, selected_shift, &RING_STROKES);
                }
                // Drawn with the tile types they bring from another map, if any.
                let palette = preview.palette.as_ref().map_or(map, |(palette, _)| palette);
                draw_pasted_objects(p, v, palette, &pasted, draft_shift);
            };
            // Only a picture of this selection (one made before it changed is not shown).
            let picture = self
                .caches
                .selection_picture
                .as_ref()
                .filter(|(shown, _)| Some(shown) == selection)
                .map(|(_, texture)| texture.id());
            let response = if overlays.split() {
                // Side A left, side B right: one View, so pan and zoom stay in step.
                let size = ui.available_size();
                let half = egui::vec2((size.x - 2.0) / 2.0, size.y);
                let mut responses = Vec::new();
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 2.0;
                    for side in 0..2 {
                        ui.allocate_ui(half, |ui| {
                            let mut draw = |p: &egui::Painter, v: &View, c: canvas::VisibleCells| {
                                overlays.draw(p, v, c, Some(side));
                                // The selection keeps the paint inside it on both sides.
                                draw_selection(p, v, c, selection, picture);
                                draw_shape_draft(p, v, map.tile_size, draft, draft_shift);
                                draw_objects(p, v);
                                if let Some(hand) = &focus {
                                    draw_object_focus(p, v, map, hand);
                                }
                                side_label(p, v, side, overlays);
                            };
                            responses.push(canvas::canvas_ui(ui, map, revision, sheets, view, &preview, &mut draw));
                        });
                    }
                });
                let mut right = responses.pop().expect("two canvases");
                let left = responses.pop().expect("two canvases");
                // The canvas under the pointer answers.
                if left.hovered.is_some() || left.pointer.is_some() {
                    right.hovered = left.hovered;
                    right.pointer = left.pointer;
                    right.grid_point = left.grid_point;
                    right.press_point = left.press_point;
                }
                right.dropped_file = right.dropped_file.or(left.dropped_file);
                right
            } else {
                let mut draw = |p: &egui::Painter, v: &View, c: canvas::VisibleCells| {
                    overlays.draw(p, v, c, None);
                    draw_selection(p, v, c, selection, picture);
                    draw_shape_draft(p, v, map.tile_size, draft, draft_shift);
                    draw_objects(p, v);
                    if let Some(hand) = &focus {
                        draw_object_focus(p, v, map, hand);
                    }
                };
                canvas::canvas_ui(ui, map, revision, sheets, view, &preview, &mut draw)
            };
            self.hovered = response.hovered;
            // The terrain brush's corner or edge under the pointer. A drag begun this frame
            // starts from the one where the button went down, then goes on to the one now.
            let spot = self.terrain_spot_at(response.grid_point);
            let press_spot = response.press_point.and_then(|p| self.terrain_spot_at(Some(p)));
            if press_spot.is_some() {
                self.commands.push(Command::Tools(ToolCommand::TerrainSpot(press_spot)));
            } else if spot != self.editor.terrain_spot {
                self.commands.push(Command::Tools(ToolCommand::TerrainSpot(spot)));
            }
            if let Some(path) = response.dropped_file.clone() {
                self.commands.push(Command::File(FileCommand::Open(path)));
            }
            let modifiers = ui.input(|i| i.modifiers);
            self.shift_held = modifiers.shift;
            if self.editor.tool == Tool::Object
                && !self.editor.pasting
                && self.resize_pointer_action(&response, modifiers)
            {
                return;
            }
            // Where the object tool's press or right-click is, for picking a zone, path or
            // text by its shape: the slack is a few screen pixels.
            let grab_point = match response.pointer {
                Some(PointerAction::Pressed { .. }) => response.press_point,
                Some(PointerAction::SecondaryClicked(_)) => response.grid_point,
                _ => None,
            };
            if self.editor.tool == Tool::Object
                && let Some(g) = grab_point
            {
                let tile_size = self.document.map.tile_size;
                let at = canvas::pixels_from_grid(g, tile_size, [0.0, 0.0]);
                let slack = f64::from(GRAB_SLACK_PX / self.view.cell_px) * f64::from(tile_size[0].max(1));
                self.commands.push(Command::Objects(ObjectCommand::GrabAt(at, slack)));
            }
            if self.editor.tool == Tool::Object && self.editor.object.draws_shape() && !self.editor.pasting {
                // "Hello World" at Tiled's 16 px: a text object's own size, in map pixels (laid
                // out for the click that places one, not every frame).
                let text_size = if self.editor.object == ObjectChoice::Text
                    && matches!(response.pointer, Some(PointerAction::Clicked(_)))
                {
                    let font =
                        egui::FontId::proportional(crate::core::model::object::ObjectText::new("").pixel_size as f32);
                    let text = ui.painter().layout_no_wrap(DEFAULT_OBJECT_TEXT.into(), font, egui::Color32::BLACK);
                    [f64::from(text.size().x.ceil()), f64::from(text.size().y.ceil())]
                } else {
                    [0.0, 0.0]
                };
                self.shape_pointer_action(&response, modifiers, text_size);
            } else {
                self.pointer_action(response.pointer, modifiers);
            }
            if press_spot.is_some() && press_spot != spot {
                self.commands.push(Command::Tools(ToolCommand::TerrainSpot(spot)));
            }
        });
    }
}
