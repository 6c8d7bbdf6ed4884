//! Metaparameters: attributes every type accepts without declaring them.
//! The framework handles them; a type never sees them.

/// Each metaparameter with a one-line description, for `describe`.
pub const METAPARAMETERS: &[(&str, &str)] = &[
    ("alias", "Other names the resource can be referred to by."),
    (
        "audit",
        "Properties whose values are recorded on every run; a change since the last run is reported and refreshes subscribers (`all`: every property).",
    ),
    ("before", "Resources that must be applied after this one."),
    (
        "loglevel",
        "The level this resource's log messages are sent at.",
    ),
    (
        "noop",
        "Whether to only report what would change instead of changing it.",
    ),
    (
        "notify",
        "Resources applied after this one and refreshed when it changes.",
    ),
    ("require", "Resources that must be applied before this one."),
    (
        "schedule",
        "A schedule resource limiting when this resource is applied.",
    ),
    ("stage", "The run stage this resource belongs to."),
    (
        "subscribe",
        "Resources applied before this one; a change in them refreshes it.",
    ),
    (
        "tag",
        "Additional tags for selecting this resource with --tags.",
    ),
];

/// The log levels `loglevel` accepts.
pub const LOG_LEVELS: &[&str] = &[
    "debug", "info", "notice", "warning", "err", "alert", "emerg", "crit", "verbose",
];

pub fn is_metaparameter(name: &str) -> bool {
    METAPARAMETERS.iter().any(|(m, _)| *m == name)
}
