//! Byte offsets of the engine's UTF-8 text to code-point offsets, the unit of Python's `str`.

/// Converts byte offsets of one text to code-point offsets. Offsets asked in increasing order cost
/// linear time in all (a cursor walks forward); a smaller offset restarts from the beginning.
pub struct CharOffsets<'a> {
    text: &'a str,
    byte: usize,
    chars: usize,
}

impl<'a> CharOffsets<'a> {
    pub fn new(text: &'a str) -> Self {
        CharOffsets {
            text,
            byte: 0,
            chars: 0,
        }
    }

    /// The code-point offset of byte offset `byte` (clamped to the text; a byte inside a
    /// character counts that character as before it).
    pub fn of(&mut self, byte: usize) -> usize {
        let byte = byte.min(self.text.len());
        if byte < self.byte {
            self.byte = 0;
            self.chars = 0;
        }
        let stretch = self
            .text
            .as_bytes()
            .get(self.byte..byte)
            .unwrap_or_default();
        // A code point starts at every byte that is not a continuation byte (0b10xx_xxxx).
        self.chars += stretch.iter().filter(|b| (**b as i8) >= -0x40).count();
        self.byte = byte;
        self.chars
    }
}

#[cfg(test)]
mod tests {
    use super::CharOffsets;

    #[test]
    fn counts_code_points_not_bytes() {
        let text = "é€$1,234 𝟙x";
        let mut offsets = CharOffsets::new(text);
        for (chars, (byte, _)) in text.char_indices().enumerate() {
            assert_eq!(offsets.of(byte), chars);
        }
        assert_eq!(offsets.of(text.len()), text.chars().count());
        assert_eq!(offsets.of(0), 0); // backwards restarts
        assert_eq!(offsets.of(usize::MAX), text.chars().count());
    }
}
