//! Semantic versions (`SemVer('1.2.3-rc.1')`) and version ranges
//! (`SemVerRange('>=1.0.0 <2.0.0')`, `~1.2`, `^1.2.3`, `1.x`, `a - b`,
//! alternatives joined by `||`).

use std::cmp::Ordering;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SemVer {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    /// Pre-release identifiers, `rc.1` as `["rc", "1"]`.
    pub pre: Vec<String>,
    pub build: Option<String>,
}

impl SemVer {
    pub fn new(major: u64, minor: u64, patch: u64) -> SemVer {
        SemVer {
            major,
            minor,
            patch,
            pre: Vec::new(),
            build: None,
        }
    }

    pub fn parse(text: &str) -> Option<SemVer> {
        let text = text.trim();
        let (rest, build) = match text.split_once('+') {
            Some((rest, build)) if !build.is_empty() => (rest, Some(build.to_string())),
            Some(_) => return None,
            None => (text, None),
        };
        let (core, pre) = match rest.split_once('-') {
            Some((core, pre)) if !pre.is_empty() => {
                (core, pre.split('.').map(str::to_string).collect())
            }
            Some(_) => return None,
            None => (rest, Vec::new()),
        };
        let numbers: Vec<u64> = core
            .split('.')
            .map(|n| n.parse().ok())
            .collect::<Option<_>>()?;
        let [major, minor, patch] = numbers.as_slice() else {
            return None;
        };
        Some(SemVer {
            major: *major,
            minor: *minor,
            patch: *patch,
            pre,
            build,
        })
    }
}

impl Ord for SemVer {
    /// Precedence as semver 2.0 defines it: build metadata does not count.
    fn cmp(&self, other: &SemVer) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => {
                    for (a, b) in self.pre.iter().zip(&other.pre) {
                        let ordering = match (a.parse::<u64>(), b.parse::<u64>()) {
                            (Ok(x), Ok(y)) => x.cmp(&y),
                            (Ok(_), Err(_)) => Ordering::Less,
                            (Err(_), Ok(_)) => Ordering::Greater,
                            (Err(_), Err(_)) => a.cmp(b),
                        };
                        if ordering != Ordering::Equal {
                            return ordering;
                        }
                    }
                    self.pre.len().cmp(&other.pre.len())
                }
            })
    }
}

impl PartialOrd for SemVer {
    fn partial_cmp(&self, other: &SemVer) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for SemVer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre.join("."))?;
        }
        if let Some(build) = &self.build {
            write!(f, "+{build}")?;
        }
        Ok(())
    }
}

/// One bound: `>=1.2.0`, `<2.0.0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Bound {
    version: SemVer,
    inclusive: bool,
}

/// A set of versions: alternatives, each a lower and an upper bound.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SemVerRange {
    text: String,
    alternatives: Vec<(Option<Bound>, Option<Bound>)>,
}

/// A version with missing or wildcard parts: `1`, `1.2`, `1.x`, `*`.
fn partial(text: &str) -> Option<(Vec<u64>, SemVer)> {
    if let Some(full) = SemVer::parse(text) {
        return Some((vec![full.major, full.minor, full.patch], full));
    }
    let mut numbers = Vec::new();
    for part in text.split('.') {
        match part {
            "x" | "X" | "*" => break,
            number => numbers.push(number.parse().ok()?),
        }
    }
    if numbers.len() > 3 {
        return None;
    }
    let version = SemVer::new(
        numbers.first().copied().unwrap_or(0),
        numbers.get(1).copied().unwrap_or(0),
        numbers.get(2).copied().unwrap_or(0),
    );
    Some((numbers, version))
}

/// The first version above everything that `numbers` (a partial version)
/// matches: `1.2` gives `1.3.0`, `1` gives `2.0.0`.
fn next_after(numbers: &[u64]) -> Option<SemVer> {
    match numbers {
        [] => None,
        [major] => Some(SemVer::new(major + 1, 0, 0)),
        [major, minor] => Some(SemVer::new(*major, minor + 1, 0)),
        [major, minor, patch] => Some(SemVer::new(*major, *minor, patch + 1)),
        _ => None,
    }
}

fn at_least(version: SemVer) -> Option<Bound> {
    Some(Bound {
        version,
        inclusive: true,
    })
}

fn below(version: Option<SemVer>) -> Option<Bound> {
    version.map(|version| Bound {
        version,
        inclusive: false,
    })
}

/// The range's text with each operator joined to its version, as
/// Puppet's parser first makes it: blanks after an operator go (`>= 1.0`),
/// else a `v` right after it (`>=v1.0`).
fn joined_operators(text: &str) -> String {
    let mut joined = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        joined.push(c);
        if !matches!(c, '>' | '<' | '=' | '~' | '^') {
            continue;
        }
        if chars.peek().is_some_and(|n| n.is_whitespace()) {
            while chars.peek().is_some_and(|n| n.is_whitespace()) {
                chars.next();
            }
        } else if chars.peek() == Some(&'v') {
            chars.next();
        }
    }
    joined
}

impl SemVerRange {
    pub fn parse(text: &str) -> Option<SemVerRange> {
        let mut alternatives = Vec::new();
        for alternative in joined_operators(text).split("||") {
            let words: Vec<&str> = alternative.split_whitespace().collect();
            let mut lower: Option<Bound> = None;
            let mut upper: Option<Bound> = None;
            let mut tighten = |low: Option<Bound>, high: Option<Bound>| {
                if let Some(low) = low
                    && lower.as_ref().is_none_or(|l| low.version > l.version)
                {
                    lower = Some(low);
                }
                if let Some(high) = high
                    && upper.as_ref().is_none_or(|u| high.version < u.version)
                {
                    upper = Some(high);
                }
            };
            let mut index = 0;
            while index < words.len() {
                let word = words[index];
                if words.get(index + 1) == Some(&"-") {
                    let (_, from) = partial(word)?;
                    let (numbers, to) = partial(words.get(index + 2)?)?;
                    let high = if numbers.len() == 3 {
                        Some(Bound {
                            version: to,
                            inclusive: true,
                        })
                    } else {
                        below(next_after(&numbers))
                    };
                    tighten(at_least(from), high);
                    index += 3;
                    continue;
                }
                let (op, version) = match word
                    .find(|c: char| c.is_ascii_digit() || c == 'x' || c == 'X' || c == '*')
                {
                    Some(at) => word.split_at(at),
                    None => return None,
                };
                let (numbers, version) = partial(version)?;
                let exact = numbers.len() == 3;
                match op {
                    "" | "=" if exact => tighten(
                        at_least(version.clone()),
                        Some(Bound {
                            version,
                            inclusive: true,
                        }),
                    ),
                    "" | "=" => tighten(at_least(version), below(next_after(&numbers))),
                    ">=" => tighten(at_least(version), None),
                    ">" if exact => tighten(
                        Some(Bound {
                            version,
                            inclusive: false,
                        }),
                        None,
                    ),
                    ">" => tighten(next_after(&numbers).and_then(at_least), None),
                    "<" => tighten(None, below(Some(version))),
                    "<=" if exact => tighten(
                        None,
                        Some(Bound {
                            version,
                            inclusive: true,
                        }),
                    ),
                    "<=" => tighten(None, below(next_after(&numbers))),
                    "~" | "~>" => {
                        let limit = if numbers.len() <= 1 {
                            &numbers[..]
                        } else {
                            &numbers[..2]
                        };
                        tighten(at_least(version), below(next_after(limit)));
                    }
                    "^" => {
                        let significant = numbers
                            .iter()
                            .position(|&n| n != 0)
                            .unwrap_or(numbers.len().saturating_sub(1));
                        let limit = &numbers[..(significant + 1).min(numbers.len())];
                        tighten(at_least(version), below(next_after(limit)));
                    }
                    _ => return None,
                }
                index += 1;
            }
            alternatives.push((lower, upper));
        }
        Some(SemVerRange {
            text: text.trim().to_string(),
            alternatives,
        })
    }

    /// The range holding exactly one version.
    pub fn exact(version: &SemVer) -> SemVerRange {
        SemVerRange {
            text: format!("{version} - {version}"),
            alternatives: vec![(
                at_least(version.clone()),
                Some(Bound {
                    version: version.clone(),
                    inclusive: true,
                }),
            )],
        }
    }

    pub fn includes(&self, version: &SemVer) -> bool {
        self.alternatives.iter().any(|(lower, upper)| {
            lower.as_ref().is_none_or(|b| {
                if b.inclusive {
                    version >= &b.version
                } else {
                    version > &b.version
                }
            }) && upper.as_ref().is_none_or(|b| {
                if b.inclusive {
                    version <= &b.version
                } else {
                    version < &b.version
                }
            })
        })
    }
}

impl fmt::Display for SemVerRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> SemVer {
        SemVer::parse(text).unwrap()
    }

    #[test]
    fn versions_order_by_precedence() {
        assert!(v("1.2.3") < v("1.10.0"));
        assert!(v("1.0.0-rc.1") < v("1.0.0"));
        assert!(v("1.0.0-alpha") < v("1.0.0-alpha.1"));
        assert_eq!(v("1.0.0-rc.1+build.5").to_string(), "1.0.0-rc.1+build.5");
    }

    #[test]
    fn ranges_match_as_npm_style_ranges_do() {
        let range = SemVerRange::parse(">=1.0.0 <2.0.0").unwrap();
        assert!(range.includes(&v("1.5.0")) && !range.includes(&v("2.0.0")));
        let tilde = SemVerRange::parse("~1.2").unwrap();
        assert!(tilde.includes(&v("1.2.9")) && !tilde.includes(&v("1.3.0")));
        let caret = SemVerRange::parse("^0.2.3").unwrap();
        assert!(caret.includes(&v("0.2.9")) && !caret.includes(&v("0.3.0")));
        let either = SemVerRange::parse("1.x || >=3.0.0").unwrap();
        assert!(
            either.includes(&v("1.4.0"))
                && either.includes(&v("3.1.0"))
                && !either.includes(&v("2.0.0"))
        );
    }

    #[test]
    fn operators_may_stand_apart_from_their_versions() {
        let spaced = SemVerRange::parse(">= 2.0.0 < 8.0.0").unwrap();
        assert!(spaced.includes(&v("7.9.0")) && !spaced.includes(&v("8.0.0")));
        let prefixed = SemVerRange::parse(">=v1.2.0").unwrap();
        assert!(prefixed.includes(&v("1.2.0")) && !prefixed.includes(&v("1.1.9")));
        assert_eq!(spaced.to_string(), ">= 2.0.0 < 8.0.0");
    }
}
