//! Puppet's rules for certificate names. Certnames become file names under
//! `requests/` and `signed/`, so every public operation checks them first;
//! that also keeps `..` and `/` out of paths.

use crate::error::CaError;

const FORMAT_INVALID: &str = "Subject hostname format is invalid";

/// Checks a certname as puppetserver's `validate-subject!` does: lower case,
/// no wildcard, dot-separated labels of letters, digits, `-` and `_`, each
/// label ending in a letter, digit or `_`.
pub(crate) fn validate_certname(certname: &str) -> Result<(), CaError> {
    let refuse = |message: &str| {
        Err(CaError::InvalidCertname {
            certname: certname.to_string(),
            message: message.to_string(),
        })
    };
    if certname.to_lowercase() != certname {
        return refuse("Certificate names must be lower case.");
    }
    if certname.contains('*') {
        return refuse(&format!(
            "Subject contains a wildcard, which is not allowed: {certname}"
        ));
    }
    if certname.is_empty() || certname.ends_with('-') {
        return refuse(FORMAT_INVALID);
    }
    let label_ok = |label: &str| {
        let mut chars = label.chars();
        match chars.next_back() {
            Some(last) if last.is_ascii_alphanumeric() || last == '_' => {
                chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            }
            _ => false,
        }
    };
    let mut labels = certname.split('.');
    let first_ok = labels
        .clone()
        .next()
        .and_then(|l| l.chars().next())
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    if !first_ok || !labels.all(label_ok) {
        return refuse(FORMAT_INVALID);
    }
    Ok(())
}

/// Checks that the CN of a request is the certname it was submitted for, and
/// then the certname itself, in puppetserver's order.
pub(crate) fn validate_subject(certname: &str, subject: &str) -> Result<(), CaError> {
    if certname != subject {
        return Err(CaError::NameMismatch {
            certname: certname.to_string(),
            subject: subject.to_string(),
        });
    }
    validate_certname(certname)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_puppet_names() {
        for name in [
            "agent1",
            "web-01.example.com",
            "_x",
            "a_b.c_",
            "0.1.qux",
            "a.-b.c",
        ] {
            assert!(validate_certname(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn refuses_bad_names() {
        for name in [
            "",
            "Agent1",
            "*.example.com",
            "a-",
            "-a",
            "a..b",
            "a/b",
            "..",
            "a b",
            "a.b-",
            "a.",
            "é",
        ] {
            assert!(validate_certname(name).is_err(), "{name:?}");
        }
        let err = validate_certname("Agent1").unwrap_err();
        assert_eq!(err.to_string(), "Certificate names must be lower case.");
    }
}
