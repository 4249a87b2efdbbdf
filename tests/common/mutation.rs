//! Small random damage to a file's bytes, as a disk, a merge or a hand makes it: the fuzz tests'
//! input (`bad_input.rs`), and the odd-but-valid maps whose saves are checked
//! (`random_sessions.rs`).

use sightline::core::rng::Rng;

/// `bytes` with one to three random changes: a byte replaced or a bit flipped, a stretch cut
/// or repeated, a number or a token of the formats' syntax put in, or the end cut off.
pub fn mutate(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for _ in 0..1 + rng.below(3) {
        if out.is_empty() {
            out.push(b'0');
        }
        let len = out.len() as u32;
        let at = rng.below(len) as usize;
        match rng.below(7) {
            0 => out[at] = rng.below(256) as u8,
            1 => {
                let n = (rng.below(16) as usize).min(out.len() - at);
                out.drain(at..at + n);
            }
            2 => {
                let n = (rng.below(32) as usize).min(out.len() - at);
                let run: Vec<u8> = out[at..at + n].to_vec();
                out.splice(at..at, run);
            }
            3 => {
                let digits = ["9999999999", "-1", "0", "4096", "65536", "2147483648", "1e308", "NaN"];
                let d = digits[rng.below(digits.len() as u32) as usize];
                out.splice(at..at, d.bytes());
            }
            4 => {
                let tokens = ["<", ">", "\"", ",", "[", "]", "{", "}", "(", ")", "=", "\n", "'", "/>", "</data>"];
                let t = tokens[rng.below(tokens.len() as u32) as usize];
                out.splice(at..at, t.bytes());
            }
            5 => out.truncate(at),
            _ => out[at] ^= 1 << rng.below(8),
        }
    }
    out
}
