//! YAML data files read as Puppet's Ruby reader (Psych, YAML 1.1) reads
//! them.
//!
//! A plain scalar's type is decided by its text, with Psych's rules rather
//! than YAML 1.2's: `yes`, `on` and `off` are booleans, `0755` is octal,
//! `1_000` and `1,000` are integers, `1e3` is a string (an exponent needs a
//! sign and a dot), `:name` is a symbol (read as a string), and a date is a
//! class the safe loader refuses. Quoted scalars are strings. Merge keys
//! (`<<`) merge a mapping or a list of mappings at the place they appear, as
//! Psych does, and a repeated key keeps its first place with the last value.
//! Only the first document of a stream is read.
//!
//! Aliases share the anchored value rather than copy it, but whatever
//! walks the result (a lookup, its interpolation, a merge) walks every
//! copy: a "billion laughs" of a few hundred bytes, anchors of ten aliases
//! of the anchor before, would be 10^12 values. A document whose aliases
//! expand to more values than [`alias_budget`] allows for its size is
//! refused, at the alias that crosses it, as safe YAML readers refuse it.

pub mod emit;

use std::collections::HashMap;

use granit_parser::{Event, Parser, ScalarStyle};
use marionette_values::{PHash, Value};

/// Why a document could not be read, with a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    pub problem: String,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            return f.write_str(&self.problem);
        }
        write!(
            f,
            "{} at line {} column {}",
            self.problem, self.line, self.column
        )
    }
}

/// A collection being built, with how many values it holds, aliases
/// expanded.
enum Frame {
    Sequence {
        items: Vec<Value>,
        anchor: usize,
        size: u64,
    },
    Mapping {
        hash: PHash,
        /// The key read, waiting for its value; `true` for a plain `<<`.
        key: Option<(Value, bool)>,
        anchor: usize,
        size: u64,
    },
}

impl Frame {
    fn size(&mut self) -> &mut u64 {
        match self {
            Frame::Sequence { size, .. } | Frame::Mapping { size, .. } => size,
        }
    }
}

/// How many values the aliases of a document of `len` bytes may add, in
/// all: many times what the text itself can hold (a value takes at least
/// two bytes), so that real data sharing its anchors never meets it, and
/// far below what would keep a lookup busy for minutes.
pub fn alias_budget(len: usize) -> u64 {
    (len as u64).saturating_mul(64).max(1 << 20)
}

/// Reads the first document of `text`. An empty document is `Undef`.
pub fn parse(text: &str) -> Result<Value, YamlError> {
    // A byte-order mark is not content.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut parser = Parser::new_from_str(text);
    let mut stack: Vec<Frame> = Vec::new();
    // Each anchored value, and how many values it holds, aliases
    // expanded.
    let mut anchors: HashMap<usize, (Value, u64)> = HashMap::new();
    let budget = alias_budget(text.len());
    let mut expanded: u64 = 0;
    let mut root: Option<Value> = None;
    let mut in_document = false;
    while let Some(next) = parser.next_event() {
        let (event, span) = next.map_err(|e| YamlError {
            problem: e.info().to_string(),
            line: e.marker().line(),
            column: e.marker().col() + 1,
        })?;
        let at = |problem: String| YamlError {
            problem,
            line: span.start.line(),
            column: span.start.col() + 1,
        };
        let done = match event {
            Event::StreamStart => None,
            Event::StreamEnd => break,
            Event::DocumentStart(..) => {
                in_document = true;
                None
            }
            Event::DocumentEnd => {
                if in_document {
                    break;
                }
                None
            }
            Event::Alias(id) => match anchors.get(&id) {
                Some((value, size)) => {
                    expanded = expanded.saturating_add(*size);
                    if expanded > budget {
                        return Err(at(format!(
                            "the document's aliases expand to more than {budget} values, too many for its size (an alias bomb?)"
                        )));
                    }
                    Some((value.clone(), false, *size))
                }
                None => return Err(at("found undefined alias".to_string())),
            },
            Event::Scalar(text, style, anchor, tag) => {
                let plain = matches!(style, ScalarStyle::Plain);
                // A class the safe loader refuses is reported without a
                // place, as Psych reports it.
                let value = scalar(&text, plain, tag.as_deref()).map_err(|problem| YamlError {
                    problem,
                    line: 0,
                    column: 0,
                })?;
                if anchor > 0 {
                    anchors.insert(anchor, (value.clone(), 1));
                }
                Some((value, plain && &*text == "<<", 1))
            }
            Event::SequenceStart(_, anchor, tag) => {
                collection_tag(tag.as_deref()).map_err(|problem| YamlError {
                    problem,
                    line: 0,
                    column: 0,
                })?;
                stack.push(Frame::Sequence {
                    items: Vec::new(),
                    anchor,
                    size: 1,
                });
                None
            }
            Event::MappingStart(_, anchor, tag) => {
                collection_tag(tag.as_deref()).map_err(|problem| YamlError {
                    problem,
                    line: 0,
                    column: 0,
                })?;
                stack.push(Frame::Mapping {
                    hash: PHash::new(),
                    key: None,
                    anchor,
                    size: 1,
                });
                None
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (value, anchor, size) = match stack.pop() {
                    Some(Frame::Sequence {
                        items,
                        anchor,
                        size,
                    }) => (Value::array(items), anchor, size),
                    Some(Frame::Mapping {
                        hash, anchor, size, ..
                    }) => (Value::hash(hash), anchor, size),
                    None => return Err(at("unbalanced collection end".to_string())),
                };
                if anchor > 0 {
                    anchors.insert(anchor, (value.clone(), size));
                }
                Some((value, false, size))
            }
            #[allow(unreachable_patterns)]
            _ => None,
        };
        let Some((value, merge_key, size)) = done else {
            continue;
        };
        if let Some(parent) = stack.last_mut() {
            let held = parent.size();
            *held = held.saturating_add(size);
        }
        match stack.last_mut() {
            None => root = Some(value),
            Some(Frame::Sequence { items, .. }) => items.push(value),
            Some(Frame::Mapping { hash, key, .. }) => match key.take() {
                None => {
                    let value = match symbol_name(&value) {
                        Some(name) => Value::string(name),
                        None => value,
                    };
                    *key = Some((value, merge_key))
                }
                Some((_, true)) if merges(&value) => merge_into(hash, &value),
                Some((k, _)) => {
                    // A repeated key keeps its place and takes the new value.
                    hash.insert(k, value);
                }
            },
        }
    }
    Ok(root.unwrap_or(Value::Undef))
}

/// A Ruby symbol read as a value: not Puppet data, so a lookup that finds
/// one fails, as Puppet's does. As a key it becomes its name.
pub(crate) fn symbol(name: &str) -> Value {
    Value::Type(Box::new(marionette_values::PType::Runtime(Some(format!(
        "{SYMBOL}{name}"
    )))))
}

/// The marker of [`symbol`] values.
pub(crate) const SYMBOL: &str = "ruby Symbol ";

/// Whether a value is a symbol read by [`parse`].
pub(crate) fn is_symbol(value: &Value) -> bool {
    symbol_name(value).is_some()
}

/// A symbol's name, for a symbol read as a key.
fn symbol_name(value: &Value) -> Option<String> {
    match value {
        Value::Type(t) => match &**t {
            marionette_values::PType::Runtime(Some(name)) => {
                name.strip_prefix(SYMBOL).map(str::to_string)
            }
            _ => None,
        },
        _ => None,
    }
}

/// Whether a `<<` value is one Psych merges: a mapping or a list of them.
fn merges(value: &Value) -> bool {
    match value {
        Value::Hash(_) => true,
        Value::Array(items) => items.iter().all(|i| matches!(i, Value::Hash(_))),
        _ => false,
    }
}

/// Merges the `<<` value into the mapping: its keys overwrite the ones
/// already there. Of a list, the earlier mappings win over the later.
fn merge_into(hash: &mut PHash, value: &Value) {
    match value {
        Value::Hash(from) => {
            for (k, v) in from.iter() {
                hash.insert(k.clone(), v.clone());
            }
        }
        Value::Array(items) => {
            let mut merged = PHash::new();
            for item in items.iter().rev() {
                if let Value::Hash(from) = item {
                    for (k, v) in from.iter() {
                        merged.insert(k.clone(), v.clone());
                    }
                }
            }
            for (k, v) in merged {
                hash.insert(k, v);
            }
        }
        _ => {}
    }
}

/// A tag on a mapping or sequence: the core ones are fine; Ruby classes
/// and sets are what the safe loader refuses.
fn collection_tag(tag: Option<&granit_parser::Tag>) -> Result<(), String> {
    let Some(tag) = tag else {
        return Ok(());
    };
    let (handle, suffix) = tag.parts();
    if handle == "tag:yaml.org,2002:" {
        return match suffix {
            "map" | "seq" | "omap" => Ok(()),
            "set" => Err("Tried to load unspecified class: Psych::Set".into()),
            other => Err(format!("Tried to load unspecified class: {other}")),
        };
    }
    if let Some(class) = suffix.strip_prefix("ruby/") {
        let class = class.split_once(':').map_or(class, |(_, name)| name);
        return Err(format!("Tried to load unspecified class: {class}"));
    }
    Ok(())
}

/// The value of a scalar: quoted ones are strings, tagged ones follow their
/// tag, plain ones are typed by their text.
fn scalar(text: &str, plain: bool, tag: Option<&granit_parser::Tag>) -> Result<Value, String> {
    if let Some(tag) = tag {
        let (handle, suffix) = tag.parts();
        if handle == "tag:yaml.org,2002:" {
            return match suffix {
                "str" => Ok(Value::string(text)),
                "binary" => Ok(Value::string(String::from_utf8_lossy(&base64_decode(text)))),
                "float" => Ok(match plain_scalar(text)? {
                    Value::Integer(i) => Value::Float(i as f64),
                    other => other,
                }),
                "int" | "bool" | "null" => Ok(plain_scalar(text)?),
                "map" | "seq" => Ok(Value::string(text)),
                other => Err(format!("Tried to load unspecified class: {other}")),
            };
        }
        if let Some(class) = suffix.strip_prefix("ruby/") {
            let class = class.split_once(':').map_or(class, |(_, name)| name);
            return Err(format!("Tried to load unspecified class: {class}"));
        }
    }
    if !plain {
        return Ok(Value::string(text));
    }
    plain_scalar(text)
}

/// `!!binary` content: base64, line breaks and spaces ignored.
fn base64_decode(text: &str) -> Vec<u8> {
    use base64::Engine;
    let cleaned: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    base64::engine::general_purpose::STANDARD
        .decode(cleaned)
        .unwrap_or_else(|_| text.as_bytes().to_vec())
}

/// Psych's typing of a plain scalar.
fn plain_scalar(text: &str) -> Result<Value, String> {
    if text.is_empty() || text == "~" || text.eq_ignore_ascii_case("null") {
        return Ok(Value::Undef);
    }
    if text.len() <= 5 {
        let lower = text.to_ascii_lowercase();
        match lower.as_str() {
            "yes" | "true" | "on" => return Ok(Value::Boolean(true)),
            "no" | "false" | "off" => return Ok(Value::Boolean(false)),
            _ => {}
        }
    }
    // Text starting like a word is a string; Psych checks this first so
    // hash-like keys and words never become numbers.
    if text.contains('\n') || looks_like_word(text) {
        return Ok(Value::string(text));
    }
    if is_date(text) {
        return Err("Tried to load unspecified class: Date".to_string());
    }
    if is_timestamp(text) {
        return Err("Tried to load unspecified class: Time".to_string());
    }
    match text.to_ascii_lowercase().as_str() {
        ".inf" | "+.inf" => return Ok(Value::Float(f64::INFINITY)),
        "-.inf" => return Ok(Value::Float(f64::NEG_INFINITY)),
        ".nan" => return Ok(Value::Float(f64::NAN)),
        _ => {}
    }
    if let Some(name) = text.strip_prefix(':')
        && !name.is_empty()
    {
        // Symbols are allowed by Puppet's loader: as keys they become
        // strings, as values they are not data.
        let name = match name.as_bytes()[0] {
            q @ (b'"' | b'\'') if name.len() >= 2 && name.as_bytes()[name.len() - 1] == q => {
                &name[1..name.len() - 1]
            }
            _ => name,
        };
        return Ok(symbol(name));
    }
    if let Some(value) = sexagesimal(text) {
        return Ok(value);
    }
    if is_float(text) {
        if matches!(text, "." | "+." | "-.") {
            return Ok(Value::string(text));
        }
        let cleaned: String = text.chars().filter(|c| !matches!(c, ',' | '_')).collect();
        let cleaned = cleaned.replace(".e", "e").replace(".E", "E");
        let cleaned = cleaned.strip_suffix('.').unwrap_or(&cleaned);
        return Ok(cleaned
            .parse::<f64>()
            .map(Value::Float)
            .unwrap_or_else(|_| Value::string(text)));
    }
    if let Some(i) = integer(text) {
        return Ok(Value::Integer(i));
    }
    Ok(Value::string(text))
}

/// Psych's test for text that is a string before anything else: an
/// optional first character that is not a digit, dot, colon or minus, then
/// letters or punctuation.
fn looks_like_word(text: &str) -> bool {
    let word = |c: char| {
        c.is_alphabetic() || c == '_' || c.is_whitespace() || "!@#$%^&*(){}<>|/\\~;=".contains(c)
    };
    let mut chars = text.chars();
    let (Some(first), second) = (chars.next(), chars.next()) else {
        return false;
    };
    word(first)
        || (!first.is_ascii_digit()
            && !matches!(first, '.' | ':' | '-')
            && second.is_some_and(word))
}

fn is_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    if parts.len() != 3 || parts[0].len() != 4 || !parts[0].bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let month_ok = match parts[1].as_bytes() {
        [d] => d.is_ascii_digit(),
        [b'1', b'0'..=b'2'] | [b'0', b'0'..=b'9'] => true,
        _ => false,
    };
    let day_ok = match parts[2].as_bytes() {
        [d] => d.is_ascii_digit(),
        [b'1' | b'2' | b'0', b'0'..=b'9'] | [b'3', b'0' | b'1'] => true,
        _ => false,
    };
    month_ok && day_ok
}

/// `2001-12-14t21:59:43.10-05:00` and its spaced forms.
fn is_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    // A date is ASCII: text whose tenth byte is inside a character is not
    // one (and cannot be sliced there).
    bytes.len() > 10
        && text.is_char_boundary(10)
        && is_date(&text[..10])
        && matches!(bytes[10], b'T' | b't' | b' ' | b'\t')
        && text[11..]
            .trim_start()
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_digit())
        && text.contains(':')
}

/// `1:30` (90) and `1:30.5`, base 60.
fn sexagesimal(text: &str) -> Option<Value> {
    let (sign, body) = match text.as_bytes().first()? {
        b'-' => (-1, &text[1..]),
        b'+' => (1, &text[1..]),
        _ => (1, text),
    };
    let (whole, fraction) = match body.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (body, None),
    };
    let parts: Vec<&str> = whole.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let head = parts[0];
    if head.is_empty()
        || !head.as_bytes()[0].is_ascii_digit()
        || !head.bytes().all(|b| b.is_ascii_digit() || b == b'_')
    {
        return None;
    }
    for part in &parts[1..] {
        let ok = match part.as_bytes() {
            [d] => d.is_ascii_digit(),
            [b'0'..=b'5', d] => d.is_ascii_digit(),
            _ => false,
        };
        if !ok {
            return None;
        }
    }
    if let Some(f) = fraction
        && !f.bytes().all(|b| b.is_ascii_digit() || b == b'_')
    {
        return None;
    }
    // Psych weighs the parts by 60 to the power of their distance from
    // the third part, so `1:30` is 5400 (not 90): its reading, not YAML's.
    let weight = |index: usize| 60f64.powi((index as i32 - 2).abs());
    match fraction {
        None => {
            let mut total: i64 = 0;
            for (index, part) in parts.iter().enumerate() {
                let n: i64 = part.replace('_', "").parse().ok()?;
                total = total.checked_add(n.checked_mul(weight(index) as i64)?)?;
            }
            Some(Value::Integer(sign * total))
        }
        Some(f) => {
            let mut total = 0.0;
            let last = parts.len() - 1;
            for (index, part) in parts.iter().enumerate() {
                let text = if index == last {
                    format!("{}.{}", part.replace('_', ""), f.replace('_', ""))
                } else {
                    part.replace('_', "")
                };
                let n: f64 = text.parse().ok()?;
                total += n * weight(index);
            }
            Some(Value::Float(sign as f64 * total))
        }
    }
}

/// Psych's float pattern: digits, a dot, digits, and an exponent with a
/// sign.
fn is_float(text: &str) -> bool {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    let Some((int, rest)) = body.split_once('.') else {
        return false;
    };
    if !int.is_empty()
        && (!int.as_bytes()[0].is_ascii_digit()
            || !int
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'_' || b == b','))
    {
        return false;
    }
    let (frac, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    match exp {
        None => true,
        Some(exp) => {
            let digits = exp.strip_prefix(['-', '+']);
            digits.is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        }
    }
}

/// Psych's legacy integer forms: binary `0b`, octal `0`, decimal and hex
/// `0x`, with `_` and `,` as separators.
fn integer(text: &str) -> Option<i64> {
    let (negative, body) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let sep = |b: u8| b == b'_' || b == b',';
    let (radix, digits) = if let Some(d) = body.strip_prefix("0b") {
        (2, d)
    } else if let Some(d) = body.strip_prefix("0x") {
        (16, d)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() {
        return None;
    }
    let valid = match radix {
        2 => digits.bytes().all(|b| matches!(b, b'0' | b'1') || sep(b)),
        8 => digits.bytes().all(|b| matches!(b, b'0'..=b'7') || sep(b)),
        16 => digits.bytes().all(|b| b.is_ascii_hexdigit() || sep(b)),
        _ => {
            // `0`, or a non-zero digit then digits each optionally after
            // one separator.
            let bytes = digits.as_bytes();
            bytes == b"0"
                || (matches!(bytes[0], b'1'..=b'9')
                    && bytes.windows(2).all(|w| !(sep(w[0]) && sep(w[1])))
                    && bytes.iter().all(|&b| b.is_ascii_digit() || sep(b))
                    && !sep(bytes[bytes.len() - 1]))
        }
    };
    if !valid {
        return None;
    }
    let cleaned: String = digits.chars().filter(|c| !matches!(c, '_' | ',')).collect();
    if cleaned.is_empty() {
        return None;
    }
    let value = i64::from_str_radix(&cleaned, radix).ok()?;
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Value {
        match parse(&format!("k: {text}\n")).unwrap() {
            Value::Hash(h) => h.get(&Value::string("k")).unwrap().clone(),
            other => panic!("not a hash: {other:?}"),
        }
    }

    #[test]
    fn plain_scalars_are_typed_as_psych_types_them() {
        assert_eq!(one("yes"), Value::Boolean(true));
        assert_eq!(one("Off"), Value::Boolean(false));
        assert_eq!(one("y"), Value::string("y"));
        assert_eq!(one("~"), Value::Undef);
        assert_eq!(one("0755"), Value::Integer(0o755));
        assert_eq!(one("0o755"), Value::string("0o755"));
        assert_eq!(one("0x1F"), Value::Integer(31));
        assert_eq!(one("1_000"), Value::Integer(1000));
        assert_eq!(one("1e3"), Value::string("1e3"));
        assert_eq!(one("1.5"), Value::Float(1.5));
        assert_eq!(one("1.0e+3"), Value::Float(1000.0));
        assert_eq!(one(":sym"), symbol("sym"));
        assert_eq!(one("'yes'"), Value::string("yes"));
        assert_eq!(one("1:30"), Value::Integer(5400));
        assert_eq!(one("-12"), Value::Integer(-12));
        assert_eq!(one("a b"), Value::string("a b"));
    }

    #[test]
    fn dates_are_refused_like_the_safe_loader_does() {
        let err = parse("d: 2024-01-01\n").unwrap_err();
        assert_eq!(err.problem, "Tried to load unspecified class: Date");
    }

    #[test]
    fn merge_keys_and_anchors() {
        let text = "base: &b\n  a: 1\n  b: 2\nchild:\n  <<: *b\n  b: 3\n";
        let Value::Hash(h) = parse(text).unwrap() else {
            panic!()
        };
        let child = h.get(&Value::string("child")).unwrap();
        let Value::Hash(child) = child else { panic!() };
        let keys: Vec<_> = child.keys().cloned().collect();
        assert_eq!(keys, vec![Value::string("a"), Value::string("b")]);
        assert_eq!(child.get(&Value::string("b")), Some(&Value::Integer(3)));
    }

    /// A billion laughs (here 10^12 values from 700 bytes) is refused
    /// at the alias that crosses the budget, at once; anchors shared as
    /// real data shares them are not.
    #[test]
    fn alias_bombs_are_refused_where_they_cross_the_budget() {
        let mut text = String::from("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..12 {
            let aliases = vec![format!("*l{}", level - 1); 10].join(", ");
            text.push_str(&format!("l{level}: &l{level} [{aliases}]\n"));
        }
        let started = std::time::Instant::now();
        let err = parse(&text).unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert_eq!(
            err.problem,
            format!(
                "the document's aliases expand to more than {} values, too many for its size (an alias bomb?)",
                alias_budget(text.len())
            )
        );
        assert!(err.line >= 6, "{err:?}");
        assert!(err.column > 1, "{err:?}");

        let mut shared = String::from("defaults: &d {a: 1, b: [1, 2, 3], c: {d: e}}\n");
        for n in 0..500 {
            shared.push_str(&format!("host{n}: {{<<: *d, n: {n}}}\n"));
        }
        assert!(parse(&shared).is_ok());
    }

    #[test]
    fn errors_carry_line_and_column() {
        let err = parse("a: 1\n b: [\n").unwrap_err();
        assert!(err.line >= 1, "{err:?}");
    }

    #[test]
    fn repeated_keys_keep_first_place() {
        let Value::Hash(h) = parse("a: 1\nb: 2\na: 3\n").unwrap() else {
            panic!()
        };
        let pairs: Vec<_> = h.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        assert_eq!(
            pairs,
            vec![
                (Value::string("a"), Value::Integer(3)),
                (Value::string("b"), Value::Integer(2))
            ]
        );
    }
}

#[cfg(test)]
mod robustness {
    use super::*;

    const SAMPLE: &str = "---\nbase: &b\n  a: 1\n  list: [x, 'y', \"z\"]\nchild:\n  <<: *b\n  text: |\n    line\n  num: 0755\n  when: 1:30\n  sym: :name\n  tagged: !!float 1\n";

    #[test]
    fn no_input_makes_the_reader_panic() {
        // Every truncation, and every byte replaced by characters that
        // matter to YAML, gives a value or an error.
        for end in 0..=SAMPLE.len() {
            if SAMPLE.is_char_boundary(end) {
                let _ = parse(&SAMPLE[..end]);
            }
        }
        let bytes = SAMPLE.as_bytes();
        for i in 0..bytes.len() {
            for replacement in [
                b':', b'-', b'[', b'{', b'&', b'*', b'!', b'|', b'\'', b'"', b'\t', b'\n', b' ',
            ] {
                let mut mutated = bytes.to_vec();
                mutated[i] = replacement;
                if let Ok(text) = std::str::from_utf8(&mutated) {
                    let _ = parse(text);
                }
            }
        }
    }

    #[test]
    fn deep_nesting_is_no_stack_overflow() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let _ = parse(&deep);
        let nested_maps = "a:\n".to_string()
            + &(1..2000)
                .map(|i| format!("{}b:\n", " ".repeat(i)))
                .collect::<String>();
        let _ = parse(&nested_maps);
    }
}
