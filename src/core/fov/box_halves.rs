//! The 9 × 9 box around a view's origin as two overlapping halves of six rows, each one word,
//! and the bit gathering that takes an octant's cells out of a half, or puts them back, in one
//! step (BMI2's `pext` and `pdep`, with a portable fallback): how MRPAS's table views and
//! shadowcast's looked-up first rows read and light their octants' cells, with no loop over rows
//! and no turning of columns into rows.
//!
//! A half's cells are bits `9 · row + column`, the origin at column 4: the top half holds rows
//! −4 to +1 from the origin, the bottom half rows −1 to +4. Every octant's cells within four
//! rows and columns of the origin lie in one of them, one step across its axis included.
//!
//! On processors whose `pext` is microcoded (AMD before Zen 3) a gather costs tens of cycles;
//! the views stay exact, only slower.

/// The box's side: a half's row is 9 bits.
pub(super) const SIDE: u32 = 9;

/// Rows in each half.
const HALF_ROWS: i32 = 6;

/// The three rows both halves hold: the top's last three, the bottom's first three.
const SHARED: u64 = (1 << (3 * SIDE)) - 1;

/// The bit of map offset `(dx, dy)` from the origin in a half.
pub(super) fn half_bit(bottom: bool, (dx, dy): (i32, i32)) -> u32 {
    let row = if bottom { dy + 1 } else { dy + 4 };
    debug_assert!((0..HALF_ROWS).contains(&row) && (-4..=4).contains(&dx));
    row as u32 * SIDE + (dx + 4) as u32
}

/// Whether cells at offsets `dy` all lie in the bottom half (else they must all lie in the top).
pub(super) fn in_bottom(mut dys: impl Iterator<Item = i32> + Clone) -> bool {
    let bottom = dys.clone().all(|dy| dy >= -1);
    debug_assert!(bottom || dys.all(|dy| dy <= 1));
    bottom
}

/// The two halves of a box given as nine 9-bit rows (row `i` for `dy = i − 4`).
#[inline(always)]
pub(super) fn halves(rows: &[u64; SIDE as usize]) -> (u64, u64) {
    let half = |first: usize| (0..HALF_ROWS as usize).fold(0, |half, i| half | rows[first + i] << (i as u32 * SIDE));
    (half(0), half(3))
}

/// Row `i` (`dy = i − 4`) of a box kept as halves, as 9 bits.
#[inline(always)]
pub(super) fn row_of(top: u64, bottom: u64, i: u32) -> u64 {
    let row = if i < HALF_ROWS as u32 { top >> (i * SIDE) } else { bottom >> ((i - 3) * SIDE) };
    row & ((1 << SIDE) - 1)
}

/// Adds cells `lit` of one half to the box's halves (`top`, `bottom`), keeping the rows both
/// hold alike.
#[inline(always)]
pub(super) fn add_to_halves(top: &mut u64, bottom: &mut u64, in_bottom: bool, lit: u64) {
    if in_bottom {
        *bottom |= lit;
        *top |= (lit & SHARED) << (3 * SIDE);
    } else {
        *top |= lit;
        *bottom |= lit >> (3 * SIDE);
    }
}

/// Two lookups that move bit `i` of a value to bit `map[i]`: the first indexed by the value's
/// bits `0..half`, the second by its bits `half..2 · half`.
pub(super) fn permutation<const N: usize>(map: &[u32], half: usize) -> [[u16; N]; 2] {
    let mut table = [[0; N]; 2];
    for (part, entries) in table.iter_mut().enumerate() {
        for (value, entry) in entries.iter_mut().enumerate() {
            for (i, &to) in map.iter().enumerate().skip(part * half).take(half) {
                if value >> (i - part * half) & 1 != 0 {
                    *entry |= 1 << to;
                }
            }
        }
    }
    table
}

/// Gathering a mask's bits to the bottom of a word, in order, and scattering them back.
pub(super) trait BitGather {
    fn gather(x: u64, mask: u64) -> u64;
    fn scatter(x: u64, mask: u64) -> u64;
}

/// A bit at a time, for processors without BMI2.
pub(super) struct Portable;

impl BitGather for Portable {
    #[inline]
    fn gather(x: u64, mut mask: u64) -> u64 {
        let mut out = 0;
        let mut i = 0;
        while mask != 0 {
            out |= (x >> mask.trailing_zeros() & 1) << i;
            mask &= mask - 1;
            i += 1;
        }
        out
    }

    #[inline]
    fn scatter(x: u64, mut mask: u64) -> u64 {
        let mut out = 0;
        let mut i = 0;
        while mask != 0 {
            out |= (x >> i & 1) << mask.trailing_zeros();
            mask &= mask - 1;
            i += 1;
        }
        out
    }
}

/// BMI2's `pext` and `pdep`: only within a function compiled for BMI2.
#[cfg(target_arch = "x86_64")]
pub(super) struct Bmi2;

#[cfg(target_arch = "x86_64")]
impl BitGather for Bmi2 {
    #[inline(always)]
    fn gather(x: u64, mask: u64) -> u64 {
        // SAFETY: only called from functions compiled for BMI2, which run on processors with it.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }

    #[inline(always)]
    fn scatter(x: u64, mask: u64) -> u64 {
        // SAFETY: as above.
        unsafe { std::arch::x86_64::_pdep_u64(x, mask) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;

    /// The portable gather and scatter are `pext` and `pdep`: each other's inverse on the
    /// mask's bits, and the same as BMI2's where the processor has it.
    #[test]
    fn gather_and_scatter_take_and_put_back_a_masks_bits() {
        let mut rng = Rng::new(3);
        for _ in 0..10_000 {
            let (x, mask) = (rng.next_u64(), rng.next_u64() & rng.next_u64());
            let gathered = Portable::gather(x, mask);
            assert!(gathered >> mask.count_ones() == 0 || mask.count_ones() == 64);
            assert_eq!(Portable::scatter(gathered, mask), x & mask);
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("bmi2") {
                // SAFETY: the processor has BMI2.
                let (pext, pdep) =
                    unsafe { (std::arch::x86_64::_pext_u64(x, mask), std::arch::x86_64::_pdep_u64(gathered, mask)) };
                assert_eq!((gathered, x & mask), (pext, pdep));
            }
        }
        // A small case drawn out: mask 0b1011_0100 takes bits 2, 4, 5, 7 of x in order.
        assert_eq!(Portable::gather(0b1010_0100, 0b1011_0100), 0b1101);
        assert_eq!(Portable::scatter(0b1101, 0b1011_0100), 0b1010_0100);
    }

    /// Halves and rows: a box's rows go into the halves and come back out, the shared rows
    /// alike in both, and a half's cells added come back out as rows.
    #[test]
    fn rows_go_into_halves_and_come_back() {
        let mut rng = Rng::new(9);
        let rows: [u64; 9] = std::array::from_fn(|_| rng.next_u64() & 0x1ff);
        let (top, bottom) = halves(&rows);
        for (i, &row) in rows.iter().enumerate() {
            assert_eq!(row_of(top, bottom, i as u32), row, "row {i}");
        }
        assert_eq!(top >> (3 * SIDE), bottom & SHARED);
        let (mut seen_top, mut seen_bottom) = (0, 0);
        // The cell at (dx, dy) = (2, −1), in the bottom half, and (−3, 1), in the top.
        add_to_halves(&mut seen_top, &mut seen_bottom, true, 1 << half_bit(true, (2, -1)));
        add_to_halves(&mut seen_top, &mut seen_bottom, false, 1 << half_bit(false, (-3, 1)));
        assert_eq!(row_of(seen_top, seen_bottom, 3), 1 << 6);
        assert_eq!(row_of(seen_top, seen_bottom, 5), 1 << 1);
        assert_eq!((0..9).map(|i| row_of(seen_top, seen_bottom, i).count_ones()).sum::<u32>(), 2);
    }
}
