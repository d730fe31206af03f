//! Units of measure one dimension apart by a fixed factor, and the unit or magnitude a JSON key
//! names (`scoring/units.py`): `{"weight_g": 2500}` read as `2.5 kg`, `{"size_bytes": 2621440}` as
//! `2.5 MB` (decimal byte units also read in binary), `revenue_usd_millions` in 10^6.

/// The longest key whose last word is read (a longer one is prose, not a key).
const MAX_KEY_CHARS: usize = 64;

/// (dimension, factor to the dimension's base unit) of a unit this module converts.
fn scale(unit: &str) -> Option<(&'static str, f64)> {
    Some(match unit {
        "ns" => ("time", 1e-9),
        "µs" | "μs" | "us" => ("time", 1e-6),
        "ms" => ("time", 1e-3),
        "s" | "sec" | "secs" => ("time", 1.0),
        "min" | "mins" => ("time", 60.0),
        "h" | "hr" | "hrs" => ("time", 3600.0),
        "d" => ("time", 86400.0),
        "mg" => ("mass", 1e-3),
        "g" => ("mass", 1.0),
        "kg" => ("mass", 1e3),
        "lb" | "lbs" => ("mass", 453.59237),
        "oz" => ("mass", 28.349523125),
        "mm" => ("length", 1e-3),
        "cm" => ("length", 1e-2),
        "m" => ("length", 1.0),
        "km" => ("length", 1e3),
        "ft" => ("length", 0.3048),
        "mi" => ("length", 1609.344),
        "B" => ("bytes", 1.0),
        "kB" | "KB" => ("bytes", 1e3),
        "MB" => ("bytes", 1e6),
        "GB" => ("bytes", 1e9),
        "TB" => ("bytes", 1e12),
        "PB" => ("bytes", 1e15),
        "KiB" => ("bytes", 1024.0),
        "MiB" => ("bytes", 1048576.0),
        "GiB" => ("bytes", 1073741824.0),
        "TiB" => ("bytes", 1099511627776.0),
        "bps" => ("bitrate", 1.0),
        "kbps" | "Kbps" => ("bitrate", 1e3),
        "Mbps" => ("bitrate", 1e6),
        "Gbps" => ("bitrate", 1e9),
        "Hz" => ("frequency", 1.0),
        "kHz" => ("frequency", 1e3),
        "MHz" => ("frequency", 1e6),
        "GHz" => ("frequency", 1e9),
        "W" => ("power", 1.0),
        "kW" => ("power", 1e3),
        "MW" => ("power", 1e6),
        "GW" => ("power", 1e9),
        "Wh" => ("energy", 1.0),
        "kWh" => ("energy", 1e3),
        "MWh" => ("energy", 1e6),
        "GWh" => ("energy", 1e9),
        _ => return None,
    })
}

/// The binary twin of a decimal byte unit (`MB` also read as `MiB`).
fn binary_twin(unit: &str) -> Option<f64> {
    Some(match unit {
        "kB" | "KB" => 1024.0,
        "MB" => 1048576.0,
        "GB" => 1073741824.0,
        "TB" => 1099511627776.0,
        "PB" => 1125899906842624.0,
        _ => return None,
    })
}

/// The unit a key's last word (lower-case) names ("weight_g", "durationMs").
fn named_unit(word: &str) -> Option<&'static str> {
    Some(match word {
        "ns" | "nanos" | "nanoseconds" => "ns",
        "us" | "micros" | "microseconds" => "us",
        "ms" | "millis" | "milliseconds" => "ms",
        "s" | "sec" | "secs" | "seconds" => "s",
        "min" | "mins" | "minutes" => "min",
        "h" | "hr" | "hrs" | "hours" => "h",
        "days" => "d",
        "mg" => "mg",
        "g" | "grams" => "g",
        "kg" | "kilograms" => "kg",
        "lb" | "lbs" => "lb",
        "oz" => "oz",
        "mm" => "mm",
        "cm" => "cm",
        "m" | "meters" | "metres" => "m",
        "km" => "km",
        "ft" | "feet" => "ft",
        "mi" | "miles" => "mi",
        "b" | "bytes" => "B",
        "kb" => "kB",
        "mb" => "MB",
        "gb" => "GB",
        "tb" => "TB",
        "kib" => "KiB",
        "mib" => "MiB",
        "gib" => "GiB",
        "tib" => "TiB",
        "bps" => "bps",
        "kbps" => "kbps",
        "mbps" => "Mbps",
        "gbps" => "Gbps",
        "hz" => "Hz",
        "khz" => "kHz",
        "mhz" => "MHz",
        "ghz" => "GHz",
        "w" | "watts" => "W",
        "kw" => "kW",
        "wh" => "Wh",
        "kwh" => "kWh",
        _ => return None,
    })
}

/// The power of ten a key's last word (lower-case) names its figures in.
fn named_magnitude(word: &str) -> Option<i32> {
    Some(match word {
        "thousands" | "k" => 3,
        "millions" | "m" | "mm" | "mn" | "mln" => 6,
        "billions" | "bn" | "b" | "bln" => 9,
        "trillions" | "tn" => 12,
        _ => return None,
    })
}

/// The dimension of a unit this module converts (`"mass"` for `kg`).
pub fn dimension(unit: &str) -> Option<&'static str> {
    scale(unit).map(|(dimension, _)| dimension)
}

/// The unit a JSON key's last word names (`weight_g` -> `g`, `durationMs` -> `ms`).
pub fn key_unit(key: &str) -> Option<&'static str> {
    named_unit(&last_word(key)?)
}

/// The power of ten a JSON key's last word names (`revenue_usd_millions`, `revenueInThousands`).
pub fn key_magnitude(key: &str) -> Option<i32> {
    named_magnitude(&last_word(key)?)
}

/// A key's last word, lower-cased; None for a key of one word ("ms", "m" name no quantity).
/// Words are `[A-Z]+(?![a-z])|[A-Z]?[a-z]+` (ASCII): a run of capitals not starting a
/// capitalised word, or a capitalised or lower-case word.
fn last_word(key: &str) -> Option<String> {
    if key.chars().count() > MAX_KEY_CHARS {
        return None;
    }
    let bytes = key.as_bytes();
    let run = |from: usize, class: fn(&u8) -> bool| {
        from + bytes
            .get(from..)
            .map_or(0, |rest| rest.iter().take_while(|b| class(b)).count())
    };
    let (mut words, mut last) = (0usize, (0, 0));
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        let span = if byte.is_ascii_uppercase() {
            let capitals = run(at, u8::is_ascii_uppercase);
            let lower_follows = bytes.get(capitals).is_some_and(u8::is_ascii_lowercase);
            match (lower_follows, capitals - at) {
                (false, _) => (at, capitals),
                (true, 1) => (at, run(capitals, u8::is_ascii_lowercase)),
                (true, _) => (at, capitals - 1), // the last capital starts the next word
            }
        } else if byte.is_ascii_lowercase() {
            (at, run(at, u8::is_ascii_lowercase))
        } else {
            at += 1;
            continue;
        };
        words += 1;
        last = span;
        at = span.1;
    }
    let word = key.get(last.0..last.1)?;
    (words >= 2).then(|| word.to_ascii_lowercase())
}

/// `value` in `unit` read in `target` (same dimension, other unit): one reading, or two when both
/// are byte units written in decimal or binary; none when they do not convert.
pub fn in_unit(value: f64, unit: &str, target: &str) -> Vec<f64> {
    let (Some(source), Some(wanted)) = (scale(unit), scale(target)) else {
        return Vec::new();
    };
    if source.0 != wanted.0 || unit == target {
        return Vec::new();
    }
    let mut readings = vec![value * source.1 / wanted.1];
    let (unit_twin, target_twin) = (binary_twin(unit), binary_twin(target));
    if unit_twin.is_some() || target_twin.is_some() {
        let binary = value * unit_twin.unwrap_or(source.1) / target_twin.unwrap_or(wanted.1);
        if readings.first() != Some(&binary) {
            readings.push(binary);
        }
    }
    readings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_units_and_magnitudes_by_their_last_word() {
        assert_eq!(key_unit("weight_g"), Some("g"));
        assert_eq!(key_unit("durationMs"), Some("ms"));
        assert_eq!(key_unit("sizeMB"), Some("MB"));
        assert_eq!(key_unit("ms"), None); // one word names no quantity
        assert_eq!(key_unit("HTTPServerMs"), Some("ms"));
        assert_eq!(key_magnitude("revenue_usd_millions"), Some(6));
        assert_eq!(key_magnitude("revenueInThousands"), Some(3));
        assert_eq!(key_magnitude(&format!("{}_m", "a".repeat(62))), Some(6));
        assert_eq!(key_magnitude(&format!("{}_m", "a".repeat(63))), None);
    }

    #[test]
    fn converts_within_a_dimension_and_reads_bytes_in_binary() {
        assert_eq!(in_unit(2500.0, "g", "kg"), vec![2.5]);
        assert_eq!(in_unit(2621440.0, "B", "MB"), vec![2.62144, 2.5]);
        assert!(in_unit(1.0, "g", "m").is_empty() && in_unit(1.0, "g", "g").is_empty());
        assert_eq!(dimension("GWh"), Some("energy"));
    }
}
