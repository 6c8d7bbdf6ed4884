//! Helpers shared by the command-line tests.

/// Replaces run times, which vary, by `N`: "Applied catalog in N seconds".
pub(crate) fn timeless(text: &str) -> String {
    text.lines()
        .map(|line| match line.rfind(" in ") {
            Some(at) if line.ends_with(" seconds") => format!("{} in N seconds", &line[..at]),
            _ => line.to_string(),
        })
        .map(|line| line + "\n")
        .collect()
}
