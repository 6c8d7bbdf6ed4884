//! The errors of the resource layer. Each names the resource, the attribute
//! and the value at fault, and where the resource was declared.

use std::fmt;
use std::sync::Arc;

/// Where a resource was declared, when known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// Shared: every resource of a manifest names the same file.
    pub file: Option<Arc<str>>,
    pub line: Option<u32>,
}

impl fmt::Display for Origin {
    /// Puppet's suffix: ` (file: site.pp, line: 3)`, or nothing; code
    /// given with `-e` has no file, so ` (line: 3)`, as Puppet says.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self
            .file
            .as_ref()
            .filter(|file| marionette_diagnostics::names_a_file(file));
        match (file, self.line) {
            (Some(file), Some(line)) => write!(f, " (file: {file}, line: {line})"),
            (Some(file), None) => write!(f, " (file: {file})"),
            (None, Some(line)) => write!(f, " (line: {line})"),
            (None, None) => Ok(()),
        }
    }
}

impl Origin {
    /// The place as Puppet's deprecation warnings give it, naming what they
    /// do not know: code given with `-e` is at `(file: unknown, line: 1)`.
    pub fn with_unknowns(&self) -> String {
        let file = self
            .file
            .as_deref()
            .filter(|file| marionette_diagnostics::names_a_file(file))
            .unwrap_or("unknown");
        let line = self
            .line
            .map_or_else(|| "unknown".to_string(), |line| line.to_string());
        format!("(file: {file}, line: {line})")
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RalError {
    /// A value an attribute refused.
    #[error("Parameter {attr} failed on {resource}: {message}{origin}")]
    Attribute {
        resource: String,
        attr: String,
        message: String,
        origin: Origin,
    },
    #[error("{resource}: no parameter named '{attr}'{origin}")]
    UnknownAttribute {
        resource: String,
        attr: String,
        origin: Origin,
    },
    /// A type's pre-run check refused a resource (Puppet logs it under
    /// the resource's path).
    #[error("{path}: {message}")]
    PreRunCheck { path: String, message: String },
    /// A check over the whole resource failed, or a required attribute is
    /// missing.
    #[error("Validation of {resource} failed: {message}{origin}")]
    Validation {
        resource: String,
        message: String,
        origin: Origin,
    },
    #[error("{resource}: no set of title patterns matched the title {title:?}{origin}")]
    TitlePattern {
        resource: String,
        title: String,
        origin: Origin,
    },
    #[error("Unknown resource type: '{0}'")]
    UnknownType(String),
    #[error("Invalid resource type definition: {0}")]
    InvalidType(String),
    #[error("Invalid provider definition: {0}")]
    InvalidProvider(String),
    #[error("Could not find a suitable provider for {type_name}{}", reasons_text(.reasons))]
    NoSuitableProvider {
        type_name: String,
        /// Each provider with why it was rejected.
        reasons: Vec<(String, String)>,
    },
    /// A provider asked for that cannot work here (Puppet's words; why is
    /// logged at debug level).
    #[error("Provider {provider} is not functional on this host")]
    Unsuitable { provider: String },
    #[error("Invalid provider '{provider}' for {resource}: {detail}{origin}")]
    BadProvider {
        resource: String,
        provider: String,
        detail: String,
        origin: Origin,
    },
    /// A provider failed while reading or changing the system.
    #[error("{resource}: {message}")]
    Provider { resource: String, message: String },
    /// No provider could list the type's instances: each that tried, with
    /// its error, the default provider first.
    #[error("Listing {type_name} instances: {}", listing_text(.errors))]
    Listing {
        type_name: String,
        errors: Vec<(String, String)>,
    },
}

fn listing_text(errors: &[(String, String)]) -> String {
    let list: Vec<String> = errors
        .iter()
        .map(|(provider, error)| format!("{provider}: {error}"))
        .collect();
    list.join("; ")
}

fn reasons_text(reasons: &[(String, String)]) -> String {
    if reasons.is_empty() {
        return ": the type has no providers".to_string();
    }
    let list: Vec<String> = reasons
        .iter()
        .map(|(provider, why)| format!("{provider} ({why})"))
        .collect();
    format!(": {}", list.join("; "))
}

/// A provider's failure, in its own words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ProviderError(pub String);

impl ProviderError {
    pub fn new(message: impl Into<String>) -> ProviderError {
        ProviderError(message.into())
    }

    /// The provider does not implement an optional operation.
    pub fn unsupported(operation: &str) -> ProviderError {
        ProviderError(format!("the provider does not support '{operation}'"))
    }
}

impl From<crate::command::CommandError> for ProviderError {
    fn from(error: crate::command::CommandError) -> ProviderError {
        ProviderError(error.to_string())
    }
}

impl From<std::io::Error> for ProviderError {
    fn from(error: std::io::Error) -> ProviderError {
        ProviderError(error.to_string())
    }
}
