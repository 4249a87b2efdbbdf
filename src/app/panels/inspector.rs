//! The inspector: what is under the pointer or in hand (each layer's tile, the rules they make, an object's fields).

use crate::app::widgets::{name_widget, radius_field};
use crate::app::{Command, ObjectCommand, SightlineApp, TileCommand};
use crate::core::MapObject;
use crate::core::model::flip::Flip;

/// The inspector: the hovered cell, or (when the pointer is off the canvas) the selected one,
/// which can then be edited: the tile on each layer, and the objects standing there.
pub(crate) fn inspector_ui(app: &mut SightlineApp, ui: &mut egui::Ui) {
    // The cell where the selection began, while it is selected.
    let selected =
        app.editor.selection_origin.filter(|&c| app.editor.selection.as_ref().is_some_and(|s| s.contains(c)));
    // With the object tool out, the object it last drew, placed or moved (Tiled selects it).
    let focused = crate::app::object_focus(&app.editor, &app.document.map).map(|hand| hand.object);
    let (cell, editable, why) = match (app.hovered, focused, selected) {
        (Some(c), ..) => (c, false, ""),
        (None, Some(o), _) => (o.cell, true, " (the object tool's)"),
        (None, None, Some(c)) if app.document.map.in_bounds(c) => (c, true, " (selected)"),
        _ => {
            ui.label("Hover a cell to see it; select one (S) to edit it here.");
            return;
        }
    };
    let map = &app.document.map;
    ui.label(format!("Cell {}, {}{why}", cell.x, cell.y));
    let rules = map.rules_at(cell);
    egui::Grid::new("cell_rules").num_columns(2).show(ui, |ui| {
        ui.label("opaque");
        ui.label(rules.opaque.to_string());
        ui.end_row();
        ui.label("walkable");
        ui.label(rules.walkable.to_string());
        ui.end_row();
        ui.label("cost");
        ui.label(format!("{}", rules.cost));
        ui.end_row();
    });
    ui.separator();
    let tile_options: Vec<(crate::core::TileId, String)> = map
        .tiles
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (i as crate::core::TileId, if i == 0 { "(empty)".to_owned() } else { format!("{} {}", t.glyph.ch, t.name) })
        })
        .collect();
    let mut commands = Vec::new();
    for (li, layer) in map.layers.iter().enumerate() {
        let Some((t, flip)) = map.flipped_tile(li, cell) else { continue };
        if editable {
            ui.horizontal(|ui| {
                ui.label(&layer.name);
                let mut tile = t;
                let options: Vec<_> = tile_options.iter().map(|(i, n)| (*i, n.as_str())).collect();
                crate::app::overlays::choice_with_id_ui(
                    ui,
                    ("tile on layer", li),
                    &format!("tile on {}", layer.name),
                    &mut tile,
                    &options,
                );
                if tile != t {
                    commands.push(Command::Tiles(TileCommand::SetCellTile { layer: li, cell, tile, flip }));
                }
            });
            if t != 0 {
                // The eight ways to turn a square; a hexagonal map's 120° bit stays as it is.
                let hex = flip.bits() & Flip::HEXAGONAL_120.bits();
                let options: Vec<(Flip, &str)> = (0..8u8)
                    .filter_map(|k| Flip::from_bits(k << 1 | hex))
                    .map(|f| (f, if f.describe().is_empty() { "as drawn" } else { f.describe() }))
                    .collect();
                let mut turned = flip;
                ui.horizontal(|ui| {
                    ui.label("  turned");
                    crate::app::overlays::choice_with_id_ui(
                        ui,
                        ("flip on layer", li),
                        &format!("flip on {}", layer.name),
                        &mut turned,
                        &options,
                    );
                });
                if turned != flip {
                    commands.push(Command::Tiles(TileCommand::SetCellTile { layer: li, cell, tile: t, flip: turned }));
                }
            }
        } else if t != 0 {
            let kind = &map.tiles[usize::from(t)];
            let turned = if flip.describe().is_empty() { String::new() } else { format!(", {}", flip.describe()) };
            ui.label(format!("{}: {} '{}'{turned}", layer.name, kind.name, kind.glyph.ch));
        }
        if let Some(d) = map.tiles.get(usize::from(t)).and_then(|k| k.door) {
            ui.label(format!("  door, {}", if d.open { "open" } else { "closed" }));
        }
        if let Some(frames) = map.tiles.get(usize::from(t)).map(|k| &k.animation).filter(|a| !a.is_empty()) {
            let ms: u64 = frames.iter().map(|f| u64::from(f.duration_ms)).sum();
            let n = frames.len();
            ui.label(format!("  animated: {n} frame{}, {ms} ms a loop", if n == 1 { "" } else { "s" }));
        }
    }
    for (index, o) in map.objects.iter().enumerate().filter(|(_, o)| o.cell == cell) {
        ui.separator();
        // An `object` property reads as the object it names.
        let value_text = |v: &crate::core::PropertyValue| match v {
            crate::core::PropertyValue::Object(id) => crate::core::model::object::reference_text(*id, &map.objects),
            other => other.to_string(),
        };
        let layer = map.object_layers.get(o.layer).map_or(String::new(), |l| {
            let hidden = if map.object_layer_visible(o.layer) { "" } else { ", hidden" };
            format!("  on {}{hidden}", l.name)
        });
        // An object whose Tiled type is empty is called what it is.
        let kind_name = match o.kind.type_name() {
            "" => "object",
            name => name,
        };
        if !editable {
            let hidden = if o.visible { "" } else { " (hidden)" };
            ui.label(format!("{kind_name} #{} {:?}{hidden}{layer}", o.id, o.name));
            if let Some(t) = &o.template {
                ui.label(format!("  instance of {}", t.file_name()));
            }
            if let Some(shape) = &o.shape {
                ui.label(format!("  {}", shape.describe()));
            }
            for (k, v) in &o.properties {
                ui.label(format!("  {k} = {}", value_text(v)));
            }
            continue;
        }
        let mut edited = o.clone();
        ui.horizontal(|ui| {
            ui.label(kind_name);
            let r = ui.add(egui::TextEdit::singleline(&mut edited.name).desired_width(120.0));
            name_widget(ui, &r, &format!("name of {kind_name}"));
            ui.weak(format!("#{}", o.id)).on_hover_text("The object's id, which `object` properties name");
        });
        if let crate::core::ObjectKind::Other(class) = &o.kind {
            // The class the designer's game reads (Tiled's class), edited in a draft applied
            // when the field is left (Esc drops it), as a layer's name is: a class the game
            // knows ("monster", "light", …) makes it that object, as loading a map would, and
            // must not do so halfway through typing "lighthouse".
            ui.horizontal(|ui| {
                ui.label("class");
                let draft_id = egui::Id::unique(("sightline object class draft", o.id));
                let mut text = ui.data(|d| d.get_temp::<String>(draft_id)).unwrap_or_else(|| class.clone());
                let r = ui.add(egui::TextEdit::singleline(&mut text).desired_width(120.0)).on_hover_text(
                    "Tiled's class: what the game takes the object for. player, monster, item and light are \
                     sightline's own objects; any other class is the designer's (a zone, a trigger)",
                );
                name_widget(ui, &r, &format!("class of object #{}", o.id));
                if r.lost_focus() {
                    ui.data_mut(|d| d.remove::<String>(draft_id));
                    if !ui.input(|i| i.key_pressed(egui::Key::Escape)) && text.trim() != class {
                        commands.push(Command::Objects(ObjectCommand::ReclassObject {
                            id: o.id,
                            class: text.trim().to_owned(),
                        }));
                    }
                } else if r.has_focus() {
                    ui.data_mut(|d| d.insert_temp(draft_id, text));
                }
            });
            // With no class, loading a map reads the kind from the name (a Tiled map's
            // objects named "player" are the player's start): say so before it surprises.
            if let Ok(read) = o.reclassed("").map(|r| r.kind)
                && class.is_empty()
                && !matches!(read, crate::core::ObjectKind::Other(_))
            {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!("named as a {}: loading makes it one; a class keeps it as it is", read.type_name()),
                );
            }
        }
        if map.object_layers.len() > 1 || !layer.is_empty() {
            ui.weak(layer.trim_start()).on_hover_text("The object layer it is on");
        }
        ui.horizontal(|ui| {
            let r = ui
                .checkbox(&mut edited.visible, "Visible")
                .on_hover_text("Drawn on the canvas; a hidden object is still in the game (Tiled's object visibility)");
            name_widget(ui, &r, &format!("visible {kind_name}"));
            let r = ui.add(
                egui::Slider::new(&mut edited.opacity, 0.0..=1.0)
                    .clamping(egui::SliderClamping::Edits)
                    .text("opacity")
                    .fixed_decimals(2),
            );
            name_widget(ui, &r, &format!("opacity of {kind_name}"));
        });
        if let Some(template) = &o.template {
            template_link_ui(ui, o, template, &mut edited);
        }
        if let Some(shape) = &o.shape {
            ui.label(format!("  {}", shape.describe()));
            ui.push_id(("object geometry", o.id), |ui| {
                commands.extend(object_geometry_ui(ui, o.id, o.cell, shape, map.tile_size));
            });
        }
        if let Some(crate::core::model::object::ShapeKind::Text { text, .. }) =
            edited.shape.as_mut().map(|s| &mut s.kind)
        {
            // Two text objects may stand on one cell: their combo boxes apart.
            ui.push_id(o.id, |ui| object_text_ui(ui, text));
        }
        match &mut edited.kind {
            crate::core::ObjectKind::Monster { glyph, vision_radius } => {
                ui.horizontal(|ui| {
                    let mut text = glyph.to_string();
                    let r = ui.add(egui::TextEdit::singleline(&mut text).desired_width(26.0));
                    name_widget(ui, &r, "glyph of the monster");
                    if let Some(ch) = text.chars().find(|c| c != glyph && c.is_alphabetic()) {
                        *glyph = ch;
                    }
                    let r = ui.add(radius_field(vision_radius, "vision "));
                    name_widget(ui, &r, "vision of the monster");
                });
            }
            crate::core::ObjectKind::Light { radius } => {
                let r = ui.add(radius_field(radius, "radius "));
                name_widget(ui, &r, "radius of the light");
            }
            _ => {}
        }
        if matches!(o.kind, crate::core::ObjectKind::Monster { .. } | crate::core::ObjectKind::PlayerStart) {
            // Its `light` property (also in the table below), which play reads as a torch.
            let mut light = o.carried_light().unwrap_or(0);
            let r = ui.add(radius_field(&mut light, "carries a light ")).on_hover_text(
                "The radius of a light it carries wherever it goes in play (0: none): its 'light' property",
            );
            name_widget(ui, &r, "light it carries");
            if r.changed() {
                let key = crate::core::model::object::CARRIED_LIGHT;
                if light == 0 {
                    edited.properties.remove(key);
                } else {
                    edited.properties.insert(key.into(), crate::core::PropertyValue::Int(i64::from(light)));
                }
            }
        }
        if o.kind == crate::core::ObjectKind::PlayerStart {
            // Its `vision` property (also in the table below): absent, the play preset's
            // vision; 0, blind in the dark (only what light lights).
            ui.horizontal(|ui| {
                let mut own = o.player_vision().is_some();
                let r = ui.checkbox(&mut own, "own vision").on_hover_text(
                    "How far the player sees in the dark, over the play preset's: its 'vision' property. \
                     0 sees only what light lights, as in Angband.",
                );
                name_widget(ui, &r, "player has a vision of its own");
                let mut vision = o.player_vision().unwrap_or(crate::core::model::object::DEFAULT_VISION_RADIUS);
                let v = ui.add_enabled(own, radius_field(&mut vision, "vision "));
                name_widget(ui, &v, "vision of the player");
                if r.changed() || v.changed() {
                    let key = crate::core::model::object::PLAYER_VISION;
                    if own {
                        edited.properties.insert(key.into(), crate::core::PropertyValue::Int(i64::from(vision)));
                    } else {
                        edited.properties.remove(key);
                    }
                }
            });
        }
        egui::CollapsingHeader::new(format!("Custom properties ({})", o.properties.len()))
            .id_salt(("sightline object properties", o.id))
            .default_open(true)
            .show(ui, |ui| {
                let owner = if o.name.is_empty() { format!("object #{}", o.id) } else { format!("object {}", o.name) };
                // What a Tiled file holds the kind's own fields in (edited above).
                let reserved: &[&str] = match o.kind {
                    crate::core::ObjectKind::Monster { .. } => &["glyph", "vision"],
                    crate::core::ObjectKind::Light { .. } => &["radius"],
                    _ => &[],
                };
                if let Some(properties) =
                    crate::app::panels::properties::properties_ui(ui, &owner, &o.properties, reserved, &map.objects)
                {
                    edited.properties = properties;
                }
            });
        if ui.button("Remove").on_hover_text("Remove this object").clicked() {
            commands.push(Command::Objects(ObjectCommand::RemoveObject(index)));
        } else if edited != *o {
            commands.push(Command::Objects(ObjectCommand::EditObject(index, edited)));
        }
    }
    app.commands.extend(commands);
}

/// An instance's link to its Tiled template: the template, what the object sets itself (the
/// rest is the template's, and follows it when the template is edited in Tiled), and buttons to
/// take the template's values back or to cut the link (`edited` takes either).
fn template_link_ui(
    ui: &mut egui::Ui,
    object: &MapObject,
    template: &crate::core::model::object::ObjectTemplate,
    edited: &mut MapObject,
) {
    let own = template.own_values(object);
    ui.horizontal(|ui| {
        ui.label(format!("instance of {}", template.file_name()))
            .on_hover_text(format!("Tiled object template {}", template.path.display()));
        let reset = ui
            .add_enabled(!own.is_empty(), egui::Button::new("Reset"))
            .on_hover_text("Take the template's values back: name, type, shape and properties (it stays where it is)")
            .on_disabled_hover_text("It has all the template's values");
        name_widget(ui, &reset, "Reset to template");
        if reset.clicked() {
            *edited = template.reset(object);
        }
        let detach =
            ui.button("Detach").on_hover_text("Keep its values as its own, without the link: a save writes them all");
        name_widget(ui, &detach, "Detach from template");
        if detach.clicked() {
            edited.template = None;
        }
    });
    let own_text =
        if own.is_empty() { "all the template's values".to_owned() } else { format!("its own: {}", own.join(", ")) };
    let lacks = !template.lacking(object).is_empty();
    let r = ui.weak(format!("  {own_text}"));
    if lacks {
        r.on_hover_text("A Tiled file cannot say that an instance lacks a property of its template: a save writes this object without its link");
    } else {
        r.on_hover_text(
            "What the object sets itself; the rest is the template's, and follows it when the template changes",
        );
    }
}

/// A text object's text and layout, as Tiled's properties panel edits them: the text (several
/// lines), font size, colour, wrap, alignment across and down its box, bold, italic, underline
/// and strike-out. The font family is kept as the file gave it.
fn object_text_ui(ui: &mut egui::Ui, text: &mut crate::core::model::object::ObjectText) {
    use crate::core::model::object::{HorizontalAlign, VerticalAlign};
    let r = ui.add(egui::TextEdit::multiline(&mut text.text).desired_rows(2).desired_width(f32::INFINITY));
    name_widget(ui, &r, "text of the object");
    ui.horizontal(|ui| {
        let r = ui.add(
            egui::DragValue::new(&mut text.pixel_size).range(1..=512).clamp_existing_to_range(false).suffix(" px"),
        );
        name_widget(ui, &r, "font size of the text");
        let c = text.color;
        let mut rgba = [c.0, c.1, c.2, c.3];
        let r = ui.color_edit_button_srgba_unmultiplied(&mut rgba);
        name_widget(ui, &r, "colour of the text");
        text.color = crate::core::Rgba(rgba[0], rgba[1], rgba[2], rgba[3]);
        let r = ui.checkbox(&mut text.wrap, "Wrap").on_hover_text("Break lines at the box's width");
        name_widget(ui, &r, "wrap the text");
    });
    ui.horizontal(|ui| {
        let across = [
            (HorizontalAlign::Left, "left"),
            (HorizontalAlign::Center, "centre"),
            (HorizontalAlign::Right, "right"),
            (HorizontalAlign::Justify, "justify"),
        ];
        crate::app::overlays::choice_ui(ui, "text alignment across", &mut text.halign, &across);
        let down = [(VerticalAlign::Top, "top"), (VerticalAlign::Center, "middle"), (VerticalAlign::Bottom, "bottom")];
        crate::app::overlays::choice_ui(ui, "text alignment down", &mut text.valign, &down);
    });
    ui.horizontal(|ui| {
        for (flag, label) in [
            (&mut text.bold, "Bold"),
            (&mut text.italic, "Italic"),
            (&mut text.underline, "Underline"),
            (&mut text.strikeout, "Strike"),
        ] {
            let r = ui.checkbox(flag, label);
            name_widget(ui, &r, &format!("{} text", label.to_lowercase()));
        }
    });
}

/// A shaped object's place, size and turn in map pixels and degrees, as Tiled's Properties
/// panel shows them (X, Y, Width, Height, Rotation); the command that applies an edit.
fn object_geometry_ui(
    ui: &mut egui::Ui,
    id: u32,
    cell: crate::core::Cell,
    shape: &crate::core::model::object::ObjectShape,
    tile_size: [u32; 2],
) -> Vec<Command> {
    let mut position = shape.position(cell, tile_size);
    let mut size = shape.kind.size();
    let mut rotation = shape.rotation;
    let (mut changed, mut left) = (false, false);
    let mut field = |ui: &mut egui::Ui, value: &mut f64, label: &str, name: &str, range| {
        let r = ui.add(
            egui::DragValue::new(value)
                .speed(1.0)
                .range(range)
                .clamp_existing_to_range(false)
                .prefix(label)
                .max_decimals(2),
        );
        name_widget(ui, &r, name);
        changed |= r.changed();
        left |= r.lost_focus() || r.drag_stopped();
    };
    let far = 1.0e7;
    ui.horizontal(|ui| {
        field(ui, &mut position[0], "x ", "x of the object", -far..=far);
        field(ui, &mut position[1], "y ", "y of the object", -far..=far);
        if let Some([w, h]) = &mut size {
            field(ui, w, "w ", "width of the object", 0.0..=far);
            field(ui, h, "h ", "height of the object", 0.0..=far);
        }
    });
    ui.horizontal(|ui| {
        field(ui, &mut rotation, "turned ", "rotation of the object", -360.0..=360.0);
        ui.weak("° · map pixels").on_hover_text(
            "Tiled's X, Y (a box's top-left corner, a tile object's bottom-left, a path's first point), \
             width, height and rotation. The object stands on the cell under its centre.",
        );
    });
    // A drag of a field, or typing in one, is one undo step; the next field's is another.
    let mut commands: Vec<Command> = changed
        .then_some(Command::Objects(ObjectCommand::SetObjectGeometry { id, position, size, rotation }))
        .into_iter()
        .collect();
    if left {
        commands.push(Command::Objects(ObjectCommand::EndContinuedEdit));
    }
    commands
}
