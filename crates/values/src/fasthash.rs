//! A fast hash for maps keyed by names the manifest or the engine chose.
//!
//! The multiply-rotate hash rustc uses (FxHash). Variable names, attribute
//! names and resource references are short and not chosen by an adversary
//! against the process that hashes them, so SipHash's protection is not
//! needed, and its cost showed in lambda-heavy code and in runs of
//! thousands of resources.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default)]
pub struct FastHasher(u64);

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FastHasher {
    /// Eight bytes at a time, the last few gathered into a word of their
    /// own: copying each piece into a buffer made every hash of a path a
    /// series of calls to `memcpy`.
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut whole = [0u8; 8];
            whole.copy_from_slice(word);
            self.add(u64::from_le_bytes(whole));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let last = rest
                .iter()
                .rev()
                .fold(0u64, |word, &byte| (word << 8) | u64::from(byte));
            self.add(last);
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, FastBuild>;

/// Builds [`FastHasher`]s, for other maps (`IndexMap`) that take a hasher.
pub type FastBuild = BuildHasherDefault<FastHasher>;

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(bytes: &[u8]) -> u64 {
        let mut hasher = FastHasher::default();
        hasher.write(bytes);
        hasher.finish()
    }

    #[test]
    fn every_byte_counts_whole_words_and_the_rest_alike() {
        // The tail is read as the little-endian word the bytes would make.
        let mut by_words = FastHasher::default();
        by_words.add(u64::from_le_bytes(*b"/tmp/mrb"));
        by_words.add(u64::from_le_bytes([b'x', b'y', 0, 0, 0, 0, 0, 0]));
        assert_eq!(hash(b"/tmp/mrbxy"), by_words.finish());
        let text = b"/tmp/mrbench-apply/5000/d0/f1.conf";
        for at in 0..text.len() {
            let mut changed = text.to_vec();
            changed[at] ^= 1;
            assert_ne!(hash(text), hash(&changed), "byte {at}");
        }
    }
}
