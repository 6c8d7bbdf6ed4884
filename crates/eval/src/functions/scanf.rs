//! `scanf`: values read from a string by a C-style format, as Ruby's
//! `String#scanf` (which Puppet's function calls) reads them.
//!
//! The format is read directive by directive. A run of blanks matches any
//! amount of blank input, including none; other characters must match
//! exactly (`%%` is a `%`). A conversion `%[*][width]kind` skips leading
//! blanks (except `%c` and `%[...]`), reads at most `width` characters, and
//! converts: `d`/`u` decimal, `i` with a `0x` or `0` prefix choosing the
//! base, `o` octal, `x`/`X` hexadecimal, `f`/`e`/`E`/`g`/`G`/`a`/`A` floats,
//! `s` a word, `c` characters, `[set]` a run of characters of the set. `*`
//! reads without keeping. Reading stops at the first directive that does
//! not match; what was converted until then is the result.

use std::collections::HashMap;

use marionette_values::Value;

use super::{Builtin, Call};
use crate::error::EvalResult;
use crate::evaluator::Evaluator;

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("scanf", scanf);
}

/// `scanf(String data, String format) [|$values| ...]`.
fn scanf<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    call.arity(2, Some(2))?;
    let data = call.string(0, "data")?;
    let format = call.string(1, "format")?;
    let values = Value::array(scan(&data, &format));
    match call.lambda {
        Some(closure) => eval.call_lambda(&closure, vec![values], call.span),
        None => Ok(values),
    }
}

/// What a conversion reads.
#[derive(Debug)]
enum Kind {
    Decimal,
    Integer,
    Octal,
    Hex,
    Float,
    Word,
    Chars,
    Set {
        negated: bool,
        members: Vec<(char, char)>,
    },
}

/// Reads `data` by `format`. A malformed directive ends the reading, as a
/// directive that does not match does (Ruby reads it so).
fn scan(data: &str, format: &str) -> Vec<Value> {
    let input: Vec<char> = data.chars().collect();
    let mut at = 0;
    let mut values = Vec::new();
    let mut spec = format.chars().peekable();
    while let Some(c) = spec.next() {
        if c.is_whitespace() {
            while spec.peek().is_some_and(|c| c.is_whitespace()) {
                spec.next();
            }
            at = skip_blanks(&input, at);
            continue;
        }
        if c != '%' || spec.peek() == Some(&'%') {
            if c == '%' {
                spec.next();
            }
            if input.get(at) != Some(&c) {
                break;
            }
            at += 1;
            continue;
        }
        let keep = if spec.peek() == Some(&'*') {
            spec.next();
            false
        } else {
            true
        };
        let mut width: Option<usize> = None;
        while let Some(digit) = spec.peek().and_then(|c| c.to_digit(10)) {
            spec.next();
            width = Some(width.unwrap_or(0) * 10 + digit as usize);
        }
        let kind = match spec.next() {
            Some('d' | 'u') => Kind::Decimal,
            Some('i') => Kind::Integer,
            Some('o') => Kind::Octal,
            Some('x' | 'X') => Kind::Hex,
            Some('f' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A') => Kind::Float,
            Some('s') => Kind::Word,
            Some('c') => Kind::Chars,
            Some('[') => match set(&mut spec) {
                Some(set) => set,
                None => break,
            },
            _ => break,
        };
        if !matches!(kind, Kind::Chars | Kind::Set { .. }) {
            at = skip_blanks(&input, at);
        }
        let limit = match width {
            Some(0) | None => input.len(),
            Some(w) => (at + w).min(input.len()),
        };
        let Some((value, end)) = convert(&kind, &input[..limit], at, width) else {
            break;
        };
        at = end;
        if keep {
            values.push(value);
        }
    }
    values
}

fn skip_blanks(input: &[char], mut at: usize) -> usize {
    while input.get(at).is_some_and(|c| c.is_whitespace()) {
        at += 1;
    }
    at
}

/// The members of a `%[...]` set, after its `[`; `None` when it does not
/// end.
fn set(spec: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<Kind> {
    let negated = spec.peek() == Some(&'^');
    if negated {
        spec.next();
    }
    let mut members = Vec::new();
    let mut first = true;
    loop {
        let c = spec.next()?;
        // A `]` first in the set is a member, not its end.
        if c == ']' && !first {
            break;
        }
        first = false;
        let mut range = (c, c);
        if spec.peek() == Some(&'-') {
            let mut ahead = spec.clone();
            ahead.next();
            if let Some(&end) = ahead.peek()
                && end != ']'
            {
                spec.next();
                spec.next();
                range.1 = end;
            }
        }
        members.push(range);
    }
    Some(Kind::Set { negated, members })
}

/// Converts from `at`; `None` when nothing of the kind is there.
fn convert(kind: &Kind, input: &[char], at: usize, width: Option<usize>) -> Option<(Value, usize)> {
    let rest = &input[at..];
    match kind {
        Kind::Decimal => integer(rest, 10, false).map(|(v, n)| (v, at + n)),
        Kind::Integer => integer(rest, 0, false).map(|(v, n)| (v, at + n)),
        Kind::Octal => integer(rest, 8, false).map(|(v, n)| (v, at + n)),
        Kind::Hex => integer(rest, 16, true).map(|(v, n)| (v, at + n)),
        Kind::Float => float(rest).map(|(v, n)| (v, at + n)),
        Kind::Word => {
            let n = rest.iter().take_while(|c| !c.is_whitespace()).count();
            (n > 0).then(|| (Value::string(rest[..n].iter().collect::<String>()), at + n))
        }
        Kind::Chars => {
            let n = width.filter(|w| *w > 0).unwrap_or(1);
            (rest.len() >= n).then(|| (Value::string(rest[..n].iter().collect::<String>()), at + n))
        }
        Kind::Set { negated, members } => {
            let n = rest
                .iter()
                .take_while(|c| members.iter().any(|(lo, hi)| (lo..=hi).contains(c)) != *negated)
                .count();
            (n > 0).then(|| (Value::string(rest[..n].iter().collect::<String>()), at + n))
        }
    }
}

/// An optionally signed integer in `radix` (0: chosen by a `0x` or `0`
/// prefix), with its length. `prefixed` allows a `0x` before hex digits.
fn integer(text: &[char], radix: u32, prefixed: bool) -> Option<(Value, usize)> {
    let mut at = 0;
    let negative = match text.first() {
        Some('-') => {
            at = 1;
            true
        }
        Some('+') => {
            at = 1;
            false
        }
        _ => false,
    };
    let has_hex_prefix = |at: usize| {
        text.get(at) == Some(&'0')
            && matches!(text.get(at + 1), Some('x' | 'X'))
            && text.get(at + 2).is_some_and(char::is_ascii_hexdigit)
    };
    let radix = match radix {
        0 if has_hex_prefix(at) => {
            at += 2;
            16
        }
        0 if text.get(at) == Some(&'0') => 8,
        0 => 10,
        16 if prefixed && has_hex_prefix(at) => {
            at += 2;
            16
        }
        other => other,
    };
    let digits = text[at..].iter().take_while(|c| c.is_digit(radix)).count();
    if digits == 0 {
        return None;
    }
    let text_digits: String = text[at..at + digits].iter().collect();
    let magnitude = i128::from_str_radix(&text_digits, radix).ok()?;
    let value = if negative { -magnitude } else { magnitude };
    Some((Value::Integer(i64::try_from(value).ok()?), at + digits))
}

/// An optionally signed decimal float with an optional exponent.
fn float(text: &[char]) -> Option<(Value, usize)> {
    let mut at = usize::from(matches!(text.first(), Some('-' | '+')));
    let whole = text[at..].iter().take_while(|c| c.is_ascii_digit()).count();
    at += whole;
    let mut fraction = 0;
    if text.get(at) == Some(&'.') {
        fraction = text[at + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if whole + fraction > 0 {
            at += 1 + fraction;
        }
    }
    if whole + fraction == 0 {
        return None;
    }
    if matches!(text.get(at), Some('e' | 'E')) {
        let sign = usize::from(matches!(text.get(at + 1), Some('-' | '+')));
        let digits = text[at + 1 + sign..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits > 0 {
            at += 1 + sign + digits;
        }
    }
    let literal: String = text[..at].iter().collect();
    literal.parse::<f64>().ok().map(|f| (Value::Float(f), at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(data: &str, format: &str) -> String {
        let values = scan(data, format);
        marionette_values::format::to_s(&Value::array(values))
    }

    #[test]
    fn conversions_read_as_ruby_reads_them() {
        let cases = [
            ("42", "%i", "[42]"),
            ("0x1F 017 12", "%i %i %i", "[31, 15, 12]"),
            ("abc 123 4.5e2", "%s %d %f", "[abc, 123, 450.0]"),
            ("x=12,y=-3", "x=%d,y=%d", "[12, -3]"),
            ("12abc", "%d%s", "[12, abc]"),
            ("ff 777", "%x %o", "[255, 511]"),
            ("hello world", "%5s%c%c", "[hello,  , w]"),
            ("abc123", "%[a-z]%d", "[abc, 123]"),
            ("12 34", "%*d %d", "[34]"),
            ("nope", "%d", "[]"),
            ("  7  8", "%d%d", "[7, 8]"),
            ("100%", "%d%%", "[100]"),
            ("a,b", "%[^,],%s", "[a, b]"),
            ("-12.5e-1 +3", "%e %d", "[-1.25, 3]"),
            ("12345", "%2d%3d", "[12, 345]"),
            ("0x1A", "%x", "[26]"),
            (".5 5.", "%f %f", "[0.5, 5.0]"),
            ("1 x", "%d %d", "[1]"),
        ];
        for (data, format, expected) in cases {
            assert_eq!(texts(data, format), expected, "{data:?}.scanf({format:?})");
        }
    }

    #[test]
    fn a_malformed_directive_ends_the_reading() {
        assert_eq!(texts("1 2", "%d %q"), "[1]");
        assert_eq!(texts("1 2", "%d %[a-"), "[1]");
        assert_eq!(texts("1 2", "%d %"), "[1]");
        assert_eq!(texts("1 2", "%d %5"), "[1]");
    }
}
