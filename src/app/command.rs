//! What the UI asks for. Collected during `ui`, applied in `logic`, once per frame.

use std::path::PathBuf;

/// Whose custom properties an edit changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertiesOwner {
    Map,
    Layer(usize),
    ObjectLayer(usize),
    Group(usize),
    Tile(crate::core::TileId),
    /// A tileset: the map's sprite sheet of that index.
    Tileset(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Open a file (asking first about unsaved changes; the open map stays if it fails).
    Open(PathBuf),
    /// Open a file now, whatever is unsaved (after the prompt).
    OpenNow(PathBuf),
    /// Close the window (asking first about unsaved changes).
    Quit,
    /// Answers to the unsaved-changes prompt.
    ConfirmSave,
    ConfirmDiscard,
    ConfirmCancel,
    /// Show the open dialog, then open.
    PickOpen,
    /// Save to the document's file (asks for one if it has none).
    Save,
    /// Save to a file, which becomes the document's file. Over the file the map came from, when
    /// that file holds what sightline does not keep, this asks first.
    SaveAs(PathBuf),
    /// Answers to "saving over this file drops …": save anyway, or not.
    ConfirmOverwrite,
    CancelOverwrite,
    /// Answers to "this file will not keep …" (a save in a format that holds less than the
    /// map: ASCII, MovingAI, a Tiled JSON class's member types): save anyway, which makes the
    /// file the map's own; export a copy there, the map keeping its own file and unsaved state;
    /// or neither.
    ConfirmLossySave,
    ExportLossyCopy,
    CancelLossySave,
    /// Write a tileset, as the map has it, to the tileset file it was read from (sheet index).
    /// When that loses something (changes made to the file since, or what sightline does not
    /// keep), this asks first.
    SaveTileset(usize),
    /// Answers to "writing this tileset file loses …".
    ConfirmTilesetWrite,
    CancelTilesetWrite,
    /// Show the save dialog, then save.
    PickSaveAs,
    /// Set how a Tiled save writes the map and the order its tiles are drawn in (Tiled's tile
    /// layer format, render order and compression level); one undo step.
    SetTiledSettings(crate::core::model::tiled_settings::TiledSettings),
    /// Set the map's class and background colour (Tiled's); successive changes, as a drag in
    /// the colour picker sends them, are one undo step.
    SetMapLook {
        class: String,
        background: Option<crate::core::Rgba>,
    },
    /// Write a copy (any format, by extension: Tiled TMX/TMJ, ASCII, MovingAI, RON); the document
    /// keeps its file.
    ExportCopy(PathBuf),
    PickExport,
    FitView,
    /// Pan so that `cell` is in the middle of the canvas (the minimap).
    CentreOn(crate::core::Cell),
    ToggleGrid,
    /// Draw image tiles from their tileset PNGs (or as glyphs).
    ShowSprites(bool),
    /// Play tile animations (or draw each tile as itself).
    AnimateTiles(bool),
    ZoomBy(f32),
    DismissError,
    /// The terrain brush paints this terrain (and becomes the tool).
    SetTerrain(crate::core::edit::terrain::TerrainBrush),
    /// The next brush stroke is a straight line (Shift is held).
    SetLineStroke(bool),
    /// The primary button went down on a cell: a stroke begins (or the picker picks).
    StrokeBegin(crate::core::Cell),
    /// The pointer moved to a cell during the stroke.
    StrokeMove(crate::core::Cell),
    /// The button went up: the stroke is one undo step.
    StrokeEnd,
    /// Takes the topmost tile at a cell as the brush's (right click, or the picker).
    PickAt(crate::core::Cell),
    SelectTool(super::editor::Tool),
    SelectTile(crate::core::TileId),
    /// Make a layer (tile or object layer) or a group the current one.
    SelectLayer(crate::core::StackItem),
    /// Show or hide a layer or a group (an edit: Tiled saves it in the map).
    SetLayerVisible(crate::core::StackItem, bool),
    /// Lock or unlock a layer or a group against the tools.
    SetLayerLocked(crate::core::StackItem, bool),
    /// Make a layer a collision layer (its tiles block sight and movement) or not.
    SetLayerCollision(usize, bool),
    /// Set how opaque a layer or a group is drawn (0 to 1; drawing only). Successive changes of
    /// one, as a slider's drag sends them, are one undo step.
    SetLayerOpacity(crate::core::StackItem, f32),
    /// Set how a tile layer or a group is drawn, as Tiled sets it: tint colour, offset, parallax
    /// factor. Successive changes of one, as a drag sends them, are one undo step.
    SetLayerLook(crate::core::StackItem, DrawnLook),
    /// Set the colour an object layer's shapes are drawn in (Tiled's object layer colour), or
    /// none (each object in its kind's colour).
    SetObjectLayerColor(usize, Option<crate::core::Rgba>),
    /// Set the order an object layer's objects are drawn in (Tiled's Drawing Order).
    SetObjectLayerDrawOrder(usize, crate::core::model::map::DrawOrder),
    /// Replace the custom properties of the map, a layer or a tile type (a properties table's
    /// edit).
    SetProperties(PropertiesOwner, crate::core::Properties),
    /// Show or hide the Map properties window.
    ShowMapProperties(bool),
    /// Open the History panel's section and scroll it into view (Edit › History).
    ShowHistory,
    /// Layer edits (Tiled's Layer menu), one undo step each. Each names the layer or group it
    /// was asked on; the new, copied, moved or merged one becomes the current one.
    AddLayer {
        /// Just above this layer, in its group; inside this group, at its top; `None`: at the
        /// top of the map.
        above: Option<crate::core::StackItem>,
        kind: NewLayer,
    },
    DuplicateLayer(crate::core::StackItem),
    RemoveLayer(crate::core::StackItem),
    RenameLayer(crate::core::StackItem, String),
    /// Set a layer's or group's Tiled class (Tiled's Class field; empty: none).
    SetLayerClass(crate::core::StackItem, String),
    /// Raise (`up`) or lower a layer or group one step, into and out of groups as Tiled does.
    MoveLayer {
        item: crate::core::StackItem,
        up: bool,
    },
    /// Move a layer or group straight to a place (a drag in the Layers panel); dropped where it
    /// already is, nothing changes and no undo step is left.
    MoveLayerTo {
        item: crate::core::StackItem,
        place: crate::core::model::layers::Place,
    },
    MergeLayerDown(crate::core::LayerRef),
    /// Put a layer or group into a new group, where it is (Tiled's Group Layers).
    GroupLayer(crate::core::StackItem),
    /// Dissolve a group, leaving what it holds where it is (Tiled's Ungroup Layers).
    Ungroup(usize),
    /// Fold (true) or unfold a group in the Layers panel, by its path of names (not an edit).
    FoldGroup(String, bool),
    SetBrushSize(u32),
    /// The selection tool: copy, cut (the current layer), start pasting, flip the stamp, place it.
    Copy,
    Cut,
    Paste,
    /// Lay the clipboard's stamp where it was copied from, on the current layer (Tiled's Paste
    /// in Place, Ctrl+Shift+V; one undo step).
    PasteInPlace,
    PasteAt(crate::core::Cell),
    /// The palette shows a tileset's image (`Some(sheet)`) or the list of every tile type.
    ShowPaletteSheet(Option<usize>),
    SetPaletteZoom(f32),
    /// Tiles dragged over in a tileset become the stamp, placed by clicks (Tiled's stamp brush).
    StampFromTileset(crate::core::edit::Stamp),
    /// How the brush's tile is turned (the tools bar's reset).
    SetBrushFlip(crate::core::model::flip::Flip),
    /// X, Y, Z, Shift+Z: turn the stamp being pasted, else the brush's tile.
    TurnStamp(crate::core::model::flip::Turn),
    /// Esc: stop pasting, or drop the selection.
    CancelSelection,
    /// Erase the selection on the current layer.
    DeleteSelection,
    /// Select every cell (Ctrl+A), none (Ctrl+Shift+A), or every cell not selected (Ctrl+I).
    SelectAll,
    SelectNone,
    InvertSelection,
    /// Cut the map down to the selection's bounding rectangle (one undo step).
    CropToSelection,
    /// How the selection tools combine their pick with the selection (the tools bar).
    SetSelectionMode(crate::core::edit::selection::SelectionMode),
    /// The mode the keys held as a selection drag begins ask for (sent before its
    /// `StrokeBegin`).
    HoldSelectionMode(Option<crate::core::edit::selection::SelectionMode>),
    /// Shift held as a fill begins: it fills the whole selection (Tiled's Fill Selection).
    SetFillSelection(bool),
    PlaceObject(crate::core::Cell),
    /// Where the object tool's press is (map pixels) and the slack its pick allows there (sent
    /// before its `StrokeBegin`): a drag from inside a zone, on a path or a text moves it.
    GrabAt([f64; 2], f64),
    /// A drag of one of the focused object's handles begins (its moves send
    /// `SetObjectGeometry`, one undo step), and ends.
    BeginResize(super::editor::Resize),
    EndResize,
    /// A click of the object tool on an object: the inspector edits it (Tiled selects it).
    FocusObject(u32),
    /// The shape the object tool is drawing, as the pointer moves (`None`: Esc drops it).
    SetShapeDraft(Option<super::editor::ShapeDraft>),
    /// A click of the polygon tool: one more point (map pixels, snapped).
    AddShapePoint([f64; 2]),
    /// A click of the polygon tool on an end of the path in hand: the tool goes on from it
    /// (Tiled's extending of a polyline).
    ExtendPath(super::editor::PathEnd),
    /// Backspace: the polygon being drawn loses its last point (and is dropped with its first).
    RemoveShapePoint,
    /// The drawn shape becomes an object (one undo step): a drag's box at its release, a
    /// polygon closed by a click on its first point, or a path ended by Enter or a right-click.
    FinishShape {
        closed: bool,
    },
    /// A click's shape (a cell's box, a point, a text at its own size), at this position in map
    /// pixels: an object on the cell under its centre (one undo step).
    AddShape(crate::core::model::object::ShapeKind, [f64; 2]),
    /// How drawn shapes snap (the tools bar).
    SetSnap(crate::core::model::geometry::Snap),
    /// The inspector: set one cell's tile on one layer, and how it is flipped.
    SetCellTile {
        layer: usize,
        cell: crate::core::Cell,
        tile: crate::core::TileId,
        flip: crate::core::model::flip::Flip,
    },
    /// The inspector: replace object `n` (its name, glyph, vision, radius).
    EditObject(usize, crate::core::MapObject),
    RemoveObject(usize),
    /// A field the inspector was editing was left (or its drag ended): the next edit is a new
    /// undo step.
    EndContinuedEdit,
    /// The inspector: object `id`'s class, which makes it what loading a map would (a monster,
    /// a light, …; see `MapObject::reclassed`); one undo step.
    ReclassObject {
        id: u32,
        class: String,
    },
    /// A polygon's or path's points (from its origin, which stays) become `points`: a drag
    /// of a point moves it, of a segment's middle adds one there (one undo step a drag), a
    /// right-click on a point takes it away. A polygon keeps three, a path two.
    SetObjectPoints {
        id: u32,
        points: Vec<[f64; 2]>,
    },
    /// The inspector: object `id`'s shape to `position` (map pixels, Tiled's `x`, `y`), its box
    /// to `size` (when it has one), turned `rotation` degrees; it stands on the cell under its
    /// new centre (a drag of the fields is one undo step).
    SetObjectGeometry {
        id: u32,
        position: [f64; 2],
        size: Option<[f64; 2]>,
        rotation: f64,
    },
    RemoveObjectsAt(crate::core::Cell),
    SetObjectChoice(super::editor::ObjectChoice),
    SetMonster {
        glyph: char,
        vision: u32,
    },
    SetLightRadius(u32),
    /// Random brush on or off, and its weighted tiles.
    SetRandomBrush(bool, crate::core::edit::RandomBrush),
    /// Set a tile type's glyph and rules (doors stay paired).
    SetTileRules(crate::core::TileId, crate::core::edit::TileRules),
    /// Add a tile type (and make it the brush's).
    AddTile,
    ShowTileTypes(bool),
    ShowNewMap,
    /// Take the work the last session left in the recovery file.
    Recover,
    DiscardRecovery,
    ShowResize,
    /// Replace the map with a new one (asking first about unsaved changes).
    NewMap(super::map_dialogs::NewMapSpec),
    /// Resize the map (one undo step).
    ResizeMap(super::map_dialogs::ResizeSpec),
    SetRectFilled(bool),
    SetFillEight(bool),
    /// The bucket fill lays the chosen terrain (fitting the region's rim) instead of a tile.
    SetFillTerrain(bool),
    /// The terrain brush paints whole tiles at size 1 (off: the nearest corner or edge).
    SetTerrainWholeTiles(bool),
    /// The corner or edge nearest the pointer (the canvas sends it as the pointer moves); a
    /// terrain stroke in progress paints it.
    TerrainSpot(Option<crate::core::edit::terrain::Part>),
    Undo,
    Redo,
    /// Undo or redo until `n` steps are done (the History panel's click on a step: the map as
    /// it was just after that step; 0, before every step remembered).
    UndoTo(usize),
    Overlay(super::overlays::OverlayCommand),
    Play(super::play::PlayCommand),
    /// Save the canvas as it is on screen, overlays included, as a PNG.
    ExportPng(PathBuf),
    /// Show the save dialog, then export.
    PickExportPng,
}

/// What [`Command::AddLayer`] adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewLayer {
    Tiles,
    Objects,
    Group,
}

/// A layer's or group's own look, as the Layers panel edits it (Tiled's tint colour,
/// offset in map pixels, parallax factor).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawnLook {
    pub tint: Option<crate::core::Rgba>,
    pub offset: [f64; 2],
    pub parallax: [f64; 2],
}
