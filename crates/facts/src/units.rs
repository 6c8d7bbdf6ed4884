//! Numbers as Facter prints them: sizes (`1.00 GiB`), speeds (`2.45 GHz`),
//! percentages, and floats in Ruby's `Float#to_s` form.
//!
//! Facter runs on Ruby, so its rounding and float printing are Ruby's; the
//! functions here reproduce them so that values compare equal as text.

/// A size in bytes as Facter prints it: `512 bytes`, `4.00 KiB`,
/// `23.54 GiB`. Two decimals, rounded half away from zero, with binary
/// prefixes; a value that rounds to 1024 of one unit is shown as 1.00 of the
/// next.
pub(crate) fn bytes_to_human(bytes: u64) -> String {
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    const PREFIXES: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut exponent = ((bytes as f64).log2() / 10.0).floor() as i32;
    let mut number = (100.0 * (bytes as f64 / 1024f64.powi(exponent))).round() / 100.0;
    if (number - 1024.0).abs() < f64::EPSILON {
        exponent += 1;
        number = 1.0;
    }
    let Some(prefix) = usize::try_from(exponent - 1)
        .ok()
        .and_then(|index| PREFIXES.get(index))
    else {
        return format!("{bytes} bytes");
    };
    let mut text = ruby_float_to_s(number);
    // Facter pads one decimal to two ("1.5" to "1.50") but leaves longer
    // forms alone.
    if text
        .rsplit('.')
        .next()
        .is_some_and(|decimals| decimals.len() == 1)
    {
        text.push('0');
    }
    format!("{text} {prefix}")
}

/// A frequency in hertz as Facter prints it: `2.45 GHz`, `800.00 MHz`.
/// `None` for zero, which Facter leaves out.
pub(crate) fn hertz_to_human(hertz: u64) -> Option<String> {
    if hertz == 0 {
        return None;
    }
    let power = (hertz as f64).log10().floor() as i32;
    let display_exponent = power - power.rem_euclid(3);
    let coefficient = if power == 0 {
        hertz as f64
    } else {
        hertz as f64 / 10f64.powi(display_exponent)
    };
    let prefix = match display_exponent {
        0 => "",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        _ => "",
    };
    Some(format!("{:.2} {prefix}Hz", ruby_round(coefficient, 2)))
}

/// `used / total` as a percentage with two decimals: `1.90%`. This is how
/// the `memory` facts print their capacity.
pub(crate) fn percentage(used: u64, total: u64) -> String {
    let ratio = if total == 0 {
        f64::NAN
    } else {
        used as f64 / total as f64 * 100.0
    };
    format!("{ratio:.2}%")
}

/// The capacity of a file system as the `mountpoints` facts print it:
/// `100%` when full (or empty and sizeless), `0%` when nothing is used, two
/// decimals otherwise.
pub(crate) fn mount_capacity(used: u64, total: u64) -> String {
    if used == total {
        "100%".to_string()
    } else if used > 0 {
        format!("{:.2}%", used as f64 / total as f64 * 100.0)
    } else {
        "0%".to_string()
    }
}

/// Ruby's `Float#round(digits)` for a positive number of digits: round half
/// away from zero, then correct the cases where scaling by a power of ten
/// lost the half (Ruby's `round_half_up`). `2.445.round(2)` is 2.45 in Ruby
/// although 2.445 is stored as 2.44499...
pub(crate) fn ruby_round(number: f64, digits: i32) -> f64 {
    if number == 0.0 || !number.is_finite() {
        return number;
    }
    let scale = 10f64.powi(digits);
    let mut rounded = (number * scale).round();
    if number > 0.0 {
        if (rounded + 0.5) / scale <= number {
            rounded += 1.0;
        }
    } else if (rounded - 0.5) / scale >= number {
        rounded -= 1.0;
    }
    rounded / scale
}

/// A float as Ruby's `Float#to_s` prints it (and so as Facter's JSON does):
/// the shortest digits that read back to the same number, with a decimal
/// point and at least one decimal (`1.0`), in exponent form (`1.0e+16`,
/// `1.0e-05`) outside 0.0001 to 10¹⁶.
pub(crate) fn ruby_float_to_s(number: f64) -> String {
    if number.is_nan() {
        return "NaN".to_string();
    }
    if number.is_infinite() {
        return if number > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        }
        .to_string();
    }
    if number == 0.0 {
        return if number.is_sign_negative() {
            "-0.0"
        } else {
            "0.0"
        }
        .to_string();
    }
    // `{:e}` gives the shortest round-trip digits as `d.ddde±x`.
    let scientific = format!("{number:e}");
    let (mantissa, exponent) = scientific
        .split_once('e')
        .unwrap_or((scientific.as_str(), "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    // Ruby's decimal point position: the number is 0.DIGITS × 10^point.
    let point = exponent + 1;
    if -4 < point && point <= 16 {
        let mut text = String::from(sign);
        if point <= 0 {
            text.push_str("0.");
            text.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
            text.push_str(&digits);
        } else {
            let point = point as usize;
            if digits.len() <= point {
                text.push_str(&digits);
                text.extend(std::iter::repeat_n('0', point - digits.len()));
                text.push_str(".0");
            } else {
                text.push_str(&digits[..point]);
                text.push('.');
                text.push_str(&digits[point..]);
            }
        }
        text
    } else {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() { "0" } else { rest };
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        format!(
            "{sign}{first}.{rest}e{exponent_sign}{:02}",
            exponent.unsigned_abs()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_print_as_facter_prints_them() {
        let cases: &[(u64, &str)] = &[
            (0, "0 bytes"),
            (1023, "1023 bytes"),
            (1024, "1.00 KiB"),
            (4096, "4.00 KiB"),
            (1536, "1.50 KiB"),
            (480_120_832, "457.88 MiB"),
            (25_276_510_208, "23.54 GiB"),
            (274_877_906_944, "256.00 GiB"),
            (1024 * 1024 - 1, "1.00 MiB"),
            (12_630_519_808, "11.76 GiB"),
            (1_099_511_627_776, "1.00 TiB"),
        ];
        for &(bytes, expected) in cases {
            assert_eq!(bytes_to_human(bytes), expected, "{bytes} bytes");
        }
    }

    #[test]
    fn speeds_print_as_facter_prints_them() {
        let cases: &[(u64, Option<&str>)] = &[
            (0, None),
            (2_445_000_000, Some("2.45 GHz")),
            (800_000_000, Some("800.00 MHz")),
            (3_000_000_000, Some("3.00 GHz")),
            (999, Some("999.00 Hz")),
        ];
        for &(hertz, expected) in cases {
            assert_eq!(hertz_to_human(hertz).as_deref(), expected, "{hertz} Hz");
        }
    }

    #[test]
    fn floats_print_as_ruby_prints_them() {
        let cases: &[(f64, &str)] = &[
            (1.0, "1.0"),
            (1.5, "1.5"),
            (0.59, "0.59"),
            (24105.55859375, "24105.55859375"),
            (100.0, "100.0"),
            (1e15, "1000000000000000.0"),
            (1e16, "1.0e+16"),
            (1.5e20, "1.5e+20"),
            (0.0001, "0.0001"),
            (0.00001, "1.0e-05"),
            (-2.5, "-2.5"),
            (0.0, "0.0"),
        ];
        for &(number, expected) in cases {
            assert_eq!(ruby_float_to_s(number), expected, "{number:?}");
        }
    }

    #[test]
    fn rounding_follows_ruby() {
        assert_eq!(ruby_round(2.445, 2), 2.45);
        assert_eq!(ruby_round(2.444, 2), 2.44);
        assert_eq!(ruby_round(-2.445, 2), -2.45);
    }

    #[test]
    fn capacities_print_as_facter_prints_them() {
        assert_eq!(mount_capacity(0, 0), "100%");
        assert_eq!(mount_capacity(0, 10), "0%");
        assert_eq!(
            mount_capacity(14_626_234_368, 14_626_234_368 + 82_946_514_944),
            "14.99%"
        );
        assert_eq!(percentage(480_120_832, 25_276_510_208), "1.90%");
    }
}
