//! Source positions and diagnostics shared by every layer of Marionette.
//!
//! Positions are kept as byte offsets ([`Span`]) because they are cheap to
//! carry on every syntax node; a [`SourceFile`] turns an offset into the
//! 1-based line and column that users see, counting columns in characters as
//! Puppet does. A [`Diagnostic`] is a value with a stable code; how it looks is
//! decided by the renderers here ([`SourceFile::one_line`] for Puppet's
//! one-line form, [`SourceFile::snippet`] for a terminal). Where log lines go
//! besides the console and files, the machine's syslog or journal, is
//! [`system_log`].

pub mod system_log;

use std::fmt;
use std::sync::OnceLock;

/// A half-open range of byte offsets into one source file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: offset(start),
            end: offset(end.max(start)),
        }
    }

    /// The smallest span that covers both `self` and `other`.
    pub fn cover(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Converts a byte offset to the stored width. Sources above 4 GiB are not
/// supported; saturating keeps such input from panicking.
fn offset(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    /// The label Puppet prints in front of a log line.
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "Error",
            Severity::Warning => "Warning",
        }
    }
}

/// One problem found in a source file.
///
/// `code` is stable and machine-readable (for example `SYNTAX_ERROR` or
/// `ILLEGAL_ASSIGNMENT`); `message` is the human text without location, which
/// the renderers append.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            span,
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Warning,
            message: message.into(),
            span,
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A named source text with lazily computed line starts.
#[derive(Debug)]
pub struct SourceFile {
    name: String,
    text: String,
    line_starts: OnceLock<Vec<usize>>,
}

/// A 1-based line and character column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
            line_starts: OnceLock::new(),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(
                    self.text
                        .bytes()
                        .enumerate()
                        .filter(|&(_, b)| b == b'\n')
                        .map(|(i, _)| i + 1),
                )
                .collect()
        })
    }

    /// Line and column of a byte offset. Offsets past the end map to the end;
    /// offsets inside a multi-byte character count that character.
    pub fn line_col(&self, byte_offset: u32) -> LineCol {
        let offset = (byte_offset as usize).min(self.text.len());
        let line_index = self.line(byte_offset) - 1;
        let line_start = self.line_starts()[line_index];
        let column = self.text.get(line_start..offset).map_or_else(
            || {
                self.text.as_bytes()[line_start..offset]
                    .iter()
                    .filter(|&&b| (b as i8) >= -0x40)
                    .count()
            },
            |prefix| prefix.chars().count(),
        );
        LineCol {
            line: line_index + 1,
            column: column + 1,
        }
    }

    /// The 1-based line of a byte offset, without counting the column's
    /// characters: resources and parameters record their line only.
    pub fn line(&self, byte_offset: u32) -> usize {
        let offset = (byte_offset as usize).min(self.text.len());
        self.line_starts().partition_point(|&start| start <= offset)
    }

    /// The text of a 1-based line, without its line terminator.
    pub fn line_text(&self, line: usize) -> &str {
        let starts = self.line_starts();
        let Some(&start) = starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = starts.get(line).map_or(self.text.len(), |&next| next - 1);
        self.text[start..end].trim_end_matches('\r')
    }

    /// Puppet's location suffix: `(file: F, line: L, column: C)`. A
    /// position at the very end of the text (an unexpected end of input) is
    /// shown as the file alone, as Puppet shows it (nothing for code without
    /// a file); the snippet form still points at it.
    pub fn location(&self, span: Span) -> String {
        if span.start as usize >= self.text.len() && span.start == span.end && !self.text.is_empty()
        {
            return if names_a_file(&self.name) {
                format!("(file: {})", self.name)
            } else {
                String::new()
            };
        }
        let LineCol { line, column } = self.line_col(span.start);
        location_text(&self.name, line, Some(column))
    }

    /// The one-line form Puppet users know:
    /// `Syntax error at '}' (file: x.pp, line: 3, column: 1)`.
    pub fn one_line(&self, diagnostic: &Diagnostic) -> String {
        let location = self.location(diagnostic.span);
        if location.is_empty() {
            diagnostic.message.clone()
        } else {
            format!("{} {location}", diagnostic.message)
        }
    }

    /// The one-line form followed by the source line and a caret under the
    /// offending text, for terminals.
    pub fn snippet(&self, diagnostic: &Diagnostic) -> String {
        let start = self.line_col(diagnostic.span.start);
        let line_text = self.line_text(start.line);
        let end = self.line_col(diagnostic.span.end);
        let width = if end.line == start.line {
            end.column.saturating_sub(start.column).max(1)
        } else {
            1
        };
        let gutter = start.line.to_string();
        let pad = " ".repeat(gutter.len());
        let indent: String = line_text
            .chars()
            .take(start.column - 1)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        format!(
            "{}\n{pad} |\n{gutter} | {line_text}\n{pad} | {indent}{}",
            self.one_line(diagnostic),
            "^".repeat(width)
        )
    }
}

/// Whether a source's name is a file's: code given on the command line
/// (`<command line>`) or made up (`<deferred>`) has none, and Puppet's
/// messages then name no file.
pub fn names_a_file(name: &str) -> bool {
    !(name.starts_with('<') && name.ends_with('>'))
}

/// Puppet's location suffix for a place, `(file: F, line: L, column: C)`:
/// without the column when unknown, and without the file for code that
/// has none (`puppet apply -e` says `(line: 1, column: 1)`).
pub fn location_text(file: &str, line: usize, column: Option<usize>) -> String {
    let file = if names_a_file(file) {
        format!("file: {file}, ")
    } else {
        String::new()
    };
    match column {
        Some(column) => format!("({file}line: {line}, column: {column})"),
        None => format!("({file}line: {line})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        let file = SourceFile::new("x.pp", "a\n\u{e9}t\u{e9} }\n");
        assert_eq!(file.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(file.line_col(2), LineCol { line: 2, column: 1 });
        // "été " is 6 bytes, 4 characters, so '}' is column 5.
        assert_eq!(file.line_col(8), LineCol { line: 2, column: 5 });
        assert_eq!(file.line_col(10_000), LineCol { line: 3, column: 1 });
    }

    #[test]
    fn renders_puppet_one_line_form_and_snippet() {
        let file = SourceFile::new("x.pp", "class a {\n  }}\n");
        let diagnostic =
            Diagnostic::error("SYNTAX_ERROR", "Syntax error at '}'", Span::new(13, 14));
        assert_eq!(
            file.one_line(&diagnostic),
            "Syntax error at '}' (file: x.pp, line: 2, column: 4)"
        );
        assert_eq!(
            file.snippet(&diagnostic),
            "Syntax error at '}' (file: x.pp, line: 2, column: 4)\n  |\n2 |   }}\n  |    ^"
        );
        let end = Diagnostic::error(
            "SYNTAX_ERROR",
            "Syntax error at end of input",
            Span::new(15, 15),
        );
        assert_eq!(
            file.one_line(&end),
            "Syntax error at end of input (file: x.pp)"
        );
    }
}
