//! What the UI asks for. Collected during `ui`, applied in `logic`, once per frame.

use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Open a file (the open map stays if it fails).
    Open(PathBuf),
    /// Show the open dialog, then open.
    PickOpen,
    /// Save to the document's file (asks for one if it has none).
    Save,
    /// Save to a file, which becomes the document's file.
    SaveAs(PathBuf),
    /// Show the save dialog, then save.
    PickSaveAs,
    FitView,
    ToggleGrid,
    ZoomBy(f32),
    DismissError,
}
