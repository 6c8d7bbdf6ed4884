//! HOCON data files (placeholder until the parser lands).

use marionette_values::Value;

#[derive(Debug)]
pub struct HoconError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for HoconError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at line {}, column {}",
            self.message, self.line, self.column
        )
    }
}

pub fn parse(_text: &str) -> Result<Value, HoconError> {
    Err(HoconError {
        line: 1,
        column: 1,
        message: "HOCON is not supported yet".into(),
    })
}
