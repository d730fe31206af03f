//! A fast, non-cryptographic hasher (rustc's FxHash) for the per-call tables: their keys come
//! from one call's input and the tables live for that call only, so SipHash's resistance to
//! chosen collisions buys nothing that a lookup's work budget does not already bound. No output
//! depends on a table's iteration order (the standard hasher's order is random per process).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            self.add(tail(rest) ^ ((rest.len() as u64) << 59));
        }
    }
    #[inline]
    fn write_u8(&mut self, value: u8) {
        self.add(u64::from(value));
    }
    #[inline]
    fn write_u16(&mut self, value: u16) {
        self.add(u64::from(value));
    }
    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.add(u64::from(value));
    }
    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.add(value);
    }
    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// The last 1 to 7 bytes as one word, read in at most two loads (a copy of a variable length
/// would call `memcpy`, and most keys are short words).
#[inline]
fn tail(rest: &[u8]) -> u64 {
    let len = rest.len();
    let u32_at = |at: usize| {
        let mut word = [0u8; 4];
        if let Some(bytes) = rest.get(at..at + 4) {
            word.copy_from_slice(bytes);
        }
        u64::from(u32::from_le_bytes(word))
    };
    if len >= 4 {
        u32_at(0) | (u32_at(len - 4) << 32)
    } else {
        let byte = |at: usize| u64::from(rest.get(at).copied().unwrap_or(0));
        byte(0) | (byte(len / 2) << 8) | (byte(len - 1) << 16)
    }
}

pub type FxBuild = BuildHasherDefault<FxHasher>;
pub type FxHashMap<K, V> = HashMap<K, V, FxBuild>;
pub type FxHashSet<K> = HashSet<K, FxBuild>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_work_with_every_key_shape() {
        let mut map: FxHashMap<(u8, Option<i64>), usize> = FxHashMap::default();
        for value in 0..1000 {
            map.insert((3, Some(value)), value as usize);
        }
        assert_eq!(map.get(&(3, Some(999))), Some(&999));
        let mut strings: FxHashSet<&str> = FxHashSet::default();
        strings.insert("abcdefghijk");
        assert!(strings.contains("abcdefghijk") && !strings.contains("abcdefghij"));
    }

    #[test]
    fn every_byte_of_a_short_tail_counts() {
        let hash = |bytes: &[u8]| {
            let mut hasher = FxHasher::default();
            hasher.write(bytes);
            hasher.finish()
        };
        for len in 1..=16 {
            let base = vec![b'a'; len];
            for at in 0..len {
                let mut changed = base.clone();
                changed[at] = b'b';
                assert_ne!(hash(&base), hash(&changed), "length {len}, byte {at}");
            }
        }
    }
}
