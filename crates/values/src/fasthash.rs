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

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = (self.0.rotate_left(5) ^ n as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, FastBuild>;

/// Builds [`FastHasher`]s, for other maps (`IndexMap`) that take a hasher.
pub type FastBuild = BuildHasherDefault<FastHasher>;
