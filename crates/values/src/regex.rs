//! Regular expressions with Ruby's semantics, through Onigmo (`onig`).
//!
//! Puppet compiles regexes with Ruby, so `^` and `$` anchor at line ends,
//! `\A`/`\z` at the string ends, and `(?<name>...)` names groups. Matching is
//! always a search: `=~` finds the pattern anywhere in the string.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use onig::{Captures, RegexOptions, Syntax};

#[derive(Clone)]
pub struct Regex {
    source: Arc<str>,
    compiled: Arc<onig::Regex>,
}

impl Regex {
    /// Compiles a pattern in Ruby syntax. The error is Onigmo's message.
    pub fn new(pattern: &str) -> Result<Regex, String> {
        Regex::with_options(pattern, RegexOptions::REGEX_OPTION_NONE)
    }

    /// Compiles with Ruby's `i` (ignore case), `m` (dot matches newline) and
    /// `x` (extended) flags as given.
    pub fn with_flags(
        pattern: &str,
        ignore_case: bool,
        multiline: bool,
        extended: bool,
    ) -> Result<Regex, String> {
        let mut options = RegexOptions::REGEX_OPTION_NONE;
        if ignore_case {
            options |= RegexOptions::REGEX_OPTION_IGNORECASE;
        }
        if multiline {
            options |= RegexOptions::REGEX_OPTION_MULTILINE;
        }
        if extended {
            options |= RegexOptions::REGEX_OPTION_EXTEND;
        }
        Regex::with_options(pattern, options)
    }

    /// Compiling is costly and manifests reuse the same few patterns (a
    /// `regsubst` in a loop), so compiled regexes are kept per thread.
    fn with_options(pattern: &str, options: RegexOptions) -> Result<Regex, String> {
        thread_local! {
            static CACHE: RefCell<HashMap<(String, u32), Regex>> = RefCell::new(HashMap::new());
        }
        let key = (pattern.to_string(), options.bits());
        if let Some(found) = CACHE.with(|cache| cache.borrow().get(&key).cloned()) {
            return Ok(found);
        }
        let regex = Regex::compile(pattern, options)?;
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.len() >= 1024 {
                cache.clear();
            }
            cache.insert(key, regex.clone());
        });
        Ok(regex)
    }

    fn compile(pattern: &str, options: RegexOptions) -> Result<Regex, String> {
        let compiled = onig::Regex::with_options(pattern, options, Syntax::ruby())
            .map_err(|e| e.description().to_string())?;
        Ok(Regex {
            source: Arc::from(pattern),
            compiled: Arc::new(compiled),
        })
    }

    /// The pattern as written, without slashes.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the pattern occurs anywhere in `text`.
    pub fn is_match(&self, text: &str) -> bool {
        self.compiled.find(text).is_some()
    }

    /// The first match: the whole match then each group (`None` for a group
    /// that did not take part).
    pub fn captures(&self, text: &str) -> Option<Vec<Option<String>>> {
        self.compiled
            .captures(text)
            .map(|captures| capture_list(&captures))
    }

    /// Every non-overlapping match, each as its capture list.
    pub fn captures_all(&self, text: &str) -> Vec<Vec<Option<String>>> {
        self.compiled
            .captures_iter(text)
            .map(|captures| capture_list(&captures))
            .collect()
    }

    /// Splits around matches, as Ruby's `String#split` with a regex does:
    /// trailing empty strings are removed.
    pub fn split(&self, text: &str) -> Vec<String> {
        if text.is_empty() {
            return Vec::new();
        }
        if self.source.is_empty() {
            return text.chars().map(String::from).collect();
        }
        let mut parts = Vec::new();
        let mut last = 0;
        for captures in self.compiled.captures_iter(text) {
            let Some((start, end)) = captures.pos(0) else {
                continue;
            };
            // Empty matches do not split (apart from the empty pattern).
            if start == end {
                continue;
            }
            parts.push(text[last..start].to_string());
            // As in Ruby, captured groups are part of the result.
            parts.extend(
                (1..captures.len())
                    .filter_map(|i| captures.at(i))
                    .map(str::to_string),
            );
            last = end;
        }
        parts.push(text[last..].to_string());
        while parts.last().is_some_and(String::is_empty) {
            parts.pop();
        }
        parts
    }

    /// Replaces the first (or every) match. In `replacement`, `\0`..`\9` and
    /// `\&` stand for groups and `\\` for a backslash, as in Ruby's `sub`.
    pub fn replace(&self, text: &str, replacement: &str, global: bool) -> String {
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for captures in self.compiled.captures_iter(text) {
            let Some((start, end)) = captures.pos(0) else {
                continue;
            };
            out.push_str(&text[last..start]);
            expand_replacement(replacement, &captures, &mut out);
            last = end;
            if !global {
                break;
            }
        }
        out.push_str(&text[last..]);
        out
    }
}

fn capture_list(captures: &Captures<'_>) -> Vec<Option<String>> {
    (0..captures.len())
        .map(|i| captures.at(i).map(str::to_string))
        .collect()
}

fn expand_replacement(replacement: &str, captures: &Captures<'_>, out: &mut String) {
    let mut chars = replacement.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        match chars.peek().copied() {
            Some(digit @ '0'..='9') => {
                chars.next();
                let index = digit as usize - '0' as usize;
                out.push_str(captures.at(index).unwrap_or(""));
            }
            Some('&') => {
                chars.next();
                out.push_str(captures.at(0).unwrap_or(""));
            }
            Some('\\') => {
                chars.next();
                out.push('\\');
            }
            _ => out.push('\\'),
        }
    }
}

impl PartialEq for Regex {
    fn eq(&self, other: &Regex) -> bool {
        self.source == other.source
    }
}

impl Eq for Regex {}

impl std::hash::Hash for Regex {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.source.hash(state);
    }
}

impl fmt::Debug for Regex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/{}/", self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_line_anchors_as_in_ruby() {
        let regex = Regex::new("^b$").unwrap();
        assert!(regex.is_match("a\nb\nc"));
    }

    #[test]
    fn replacement_expands_groups() {
        let regex = Regex::new("(\\w+)@(\\w+)").unwrap();
        assert_eq!(
            regex.replace("me@host you@there", "\\2:\\1", false),
            "host:me you@there"
        );
        assert_eq!(
            regex.replace("me@host you@there", "\\2:\\1", true),
            "host:me there:you"
        );
    }

    #[test]
    fn split_drops_trailing_empty_parts() {
        let regex = Regex::new(",").unwrap();
        assert_eq!(regex.split("a,b,,c,,"), vec!["a", "b", "", "c"]);
    }
}
