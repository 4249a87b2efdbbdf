//! The New map and Resize map dialogs.

use super::{Command, SightlineApp};
use crate::app::{FileCommand, MapCommand};
use crate::core::model::tile::{self, TileId};
use crate::core::{Anchor, Map, MapError, generate};

/// What a new map starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Template {
    /// Floor inside a wall border.
    Room,
    /// Every cell one tile.
    Filled(TileId),
    /// A generated dungeon of rooms and corridors.
    Dungeon,
    /// Generated caves.
    Caves,
}

/// The New map dialog's fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewMapSpec {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) template: Template,
    pub(crate) seed: u64,
}

impl Default for NewMapSpec {
    fn default() -> Self {
        Self { width: 48, height: 32, template: Template::Room, seed: 1 }
    }
}

impl NewMapSpec {
    /// The map this describes (the standard tiles).
    pub(crate) fn build(&self) -> Result<Map, MapError> {
        match self.template {
            Template::Room => {
                let mut map = Map::new_standard(self.width, self.height, tile::STANDARD_FLOOR)?;
                let (w, h) = (self.width as i32, self.height as i32);
                let border: Vec<_> = (0..w * h)
                    .map(|i| crate::core::Cell::new(i % w, i / w))
                    .filter(|c| c.x == 0 || c.y == 0 || c.x == w - 1 || c.y == h - 1)
                    .collect();
                crate::core::edit::paint(&mut map, 0, &border, tile::STANDARD_WALL);
                Ok(map)
            }
            Template::Filled(t) => Map::new_standard(self.width, self.height, t),
            Template::Dungeon => generate::dungeon(self.width, self.height, self.seed),
            Template::Caves => generate::caves(self.width, self.height, self.seed),
        }
    }
}

/// The Resize map dialog's fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResizeSpec {
    pub width: u32,
    pub height: u32,
    pub anchor: Anchor,
    /// New cells get the brush's tile on the bottom layer (otherwise they stay empty, void).
    pub fill_with_brush: bool,
}

/// Dialog state between frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapDialogs {
    pub new_map: Option<NewMapSpec>,
    pub resize: Option<ResizeSpec>,
}

pub(crate) fn map_dialogs_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    let mut commands = Vec::new();
    if let Some(mut spec) = app.dialogs.new_map {
        let mut keep = true;
        egui::Window::new("New map").collapsible(false).resizable(false).show(ui.ctx(), |ui| {
            size_ui(ui, &mut spec.width, &mut spec.height);
            let templates = [
                (Template::Room, "room (floor, wall border)"),
                (Template::Filled(tile::STANDARD_FLOOR), "all floor"),
                (Template::Filled(tile::STANDARD_WALL), "all wall"),
                (Template::Dungeon, "generated dungeon"),
                (Template::Caves, "generated caves"),
            ];
            ui.horizontal(|ui| {
                ui.label("template");
                super::overlays::choice_ui(ui, "template", &mut spec.template, &templates);
            });
            if matches!(spec.template, Template::Dungeon | Template::Caves) {
                let r = ui.add(egui::DragValue::new(&mut spec.seed).prefix("seed "));
                super::widgets::name_widget(ui, &r, "seed");
            }
            ui.horizontal(|ui| {
                if ui.button("Create").clicked() {
                    commands.push(Command::File(FileCommand::NewMap(spec)));
                    keep = false;
                }
                if ui.button("Cancel").clicked() {
                    keep = false;
                }
            });
        });
        app.dialogs.new_map = keep.then_some(spec);
    }
    if let Some(mut spec) = app.dialogs.resize {
        let mut keep = true;
        let (w, h) = (app.document.map.width(), app.document.map.height());
        egui::Window::new("Resize map").collapsible(false).resizable(false).show(ui.ctx(), |ui| {
            ui.label(format!("now {w} × {h}"));
            size_ui(ui, &mut spec.width, &mut spec.height);
            ui.label("keep the map at");
            egui::Grid::new("anchor").show(ui, |ui| {
                for (i, a) in Anchor::ALL.into_iter().enumerate() {
                    ui.radio_value(&mut spec.anchor, a, a.label());
                    if i % 3 == 2 {
                        ui.end_row();
                    }
                }
            });
            ui.checkbox(&mut spec.fill_with_brush, "Fill new cells with the brush's tile");
            ui.horizontal(|ui| {
                if ui.button("Resize").clicked() {
                    commands.push(Command::Map(MapCommand::ResizeMap(spec)));
                    keep = false;
                }
                if ui.button("Cancel").clicked() {
                    keep = false;
                }
            });
        });
        app.dialogs.resize = keep.then_some(spec);
    }
    app.commands.extend(commands);
}

fn size_ui(ui: &mut egui::Ui, width: &mut u32, height: &mut u32) {
    ui.horizontal(|ui| {
        let max = crate::core::MAX_MAP_SIDE;
        let r = ui.add(egui::DragValue::new(width).range(1..=max).prefix("width "));
        super::widgets::name_widget(ui, &r, "width");
        let r = ui.add(egui::DragValue::new(height).range(1..=max).prefix("height "));
        super::widgets::name_widget(ui, &r, "height");
    });
}
