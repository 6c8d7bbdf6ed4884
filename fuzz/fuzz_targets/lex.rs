//! The lexer must accept any text, manifest or template, without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = marionette_syntax::lexer::lex(text);
        let _ = marionette_syntax::lexer::lex_epp(text);
    }
});
