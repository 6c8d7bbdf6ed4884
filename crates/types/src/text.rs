//! Ruby's line handling, which the module types' providers reproduce:
//! `File.readlines` (each line keeps its newline, the last may have none)
//! and `IO#puts` (a newline is added to a line that lacks one).

use std::io;
use std::path::Path;

/// The lines of a text, each with its newline when it has one.
pub(crate) fn lines(text: &[u8]) -> Vec<&[u8]> {
    text.split_inclusive(|&b| b == b'\n').collect()
}

/// Appends a line as `IO#puts` writes it.
pub(crate) fn puts(out: &mut Vec<u8>, line: &[u8]) {
    out.extend_from_slice(line);
    if !line.ends_with(b"\n") {
        out.push(b'\n');
    }
}

/// A line without its line ending (Ruby's `chomp`: `\n`, `\r\n` or `\r`).
pub(crate) fn chomp(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// An I/O error as Ruby words it (the system's message, where, and the
/// path: `No such file or directory @ rb_sysopen - /etc/x`), since
/// Puppet's messages are Ruby's.
pub(crate) fn ruby_io_error(error: &io::Error, call: &str, path: &Path) -> String {
    let text = error.to_string();
    let message = match text.find(" (os error") {
        Some(end) => &text[..end],
        None => &text,
    };
    format!("{message} @ {call} - {}", path.display())
}
