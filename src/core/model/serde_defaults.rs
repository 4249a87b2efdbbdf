//! Defaults and skip tests for optional fields of what sightline serialises (RON maps): a field
//! left out of a file reads as its usual value, and a field at its usual value is not written.

/// `1.0`: full opacity, a tile's usual probability, a frame's weight.
pub(crate) fn one() -> f32 {
    1.0
}

pub(crate) fn is_one(x: &f32) -> bool {
    *x == 1.0
}

/// `true`: a layer is shown unless a file says otherwise.
pub(crate) fn yes() -> bool {
    true
}

pub(crate) fn is_yes(b: &bool) -> bool {
    *b
}

pub(crate) fn is_no(b: &bool) -> bool {
    !*b
}

/// A value at its type's default (an enum's first variant, an empty collection) is not written.
pub(crate) fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}
