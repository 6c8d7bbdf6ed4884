//! Parsing and validation must accept any text without panicking, and a tree
//! that parsed cleanly must print to text that parses again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use marionette_syntax::{SourceKind, check, parse, printer};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = check(text, SourceKind::Epp);
    let checked = check(text, SourceKind::Manifest);
    if checked.diagnostics.iter().all(|d| !d.is_error()) {
        let printed = printer::print(&checked.program);
        let reparsed = parse(&printed);
        // The printer adds parentheses, so input close to the nesting limit
        // may print to text beyond it; that is the limit, not a bug.
        if reparsed.diagnostics.iter().any(|d| d.code == "NESTING_TOO_DEEP") {
            return;
        }
        assert!(reparsed.diagnostics.iter().all(|d| !d.is_error()), "printed form does not parse:\n{printed}");
    }
});
