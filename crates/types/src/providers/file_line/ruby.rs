//! `file_line` as stdlib's `ruby` provider does it: the file is read
//! whole, whether the line is there is decided from its lines, and the
//! file is written back whole (atomically here, where Ruby rewrites it in
//! place).

use std::borrow::Cow;
use std::path::Path;

use marionette_ral::attribute::value_text;
use marionette_ral::parsedfile::{stage_or_write, staged};
use marionette_ral::{Context, Instance, Level, PropertyProvider, ProviderDef, ProviderError};
use marionette_values::Value;
use marionette_values::regex::Regex;

use crate::text::{chomp, lines, puts, ruby_io_error};
use crate::types::file_line::is_true;

/// What one resource asks for, read from it once per operation.
struct Request<'a> {
    path: String,
    line: Option<Cow<'a, str>>,
    matcher: Option<(String, Regex)>,
    after: Option<(String, Regex)>,
    utf8: bool,
    instance: &'a Instance<'a>,
}

impl<'a> Request<'a> {
    fn new(instance: &'a Instance<'a>) -> Result<Request<'a>, ProviderError> {
        let resource = instance.resource;
        let regex = |name: &str| -> Result<Option<(String, Regex)>, ProviderError> {
            match resource.get(name) {
                None => Ok(None),
                Some(value) => {
                    let source = value_text(value);
                    let regex = Regex::new(&source).map_err(ProviderError::new)?;
                    Ok(Some((source, regex)))
                }
            }
        };
        Ok(Request {
            path: resource.text("path").unwrap_or_default(),
            line: resource.get("line").map(|value| match value {
                Value::String(text) => Cow::Borrowed(&**text),
                Value::Sensitive(inner) => Cow::Owned(value_text(inner)),
                other => Cow::Owned(value_text(other)),
            }),
            matcher: regex("match")?,
            after: regex("after")?,
            utf8: resource
                .text("encoding")
                .is_none_or(|e| e.eq_ignore_ascii_case("utf-8") || e.eq_ignore_ascii_case("utf8")),
            instance,
        })
    }

    fn flag(&self, name: &str) -> bool {
        is_true(self.instance.resource.get(name))
    }

    fn text(&self, name: &str) -> Option<String> {
        self.instance.resource.text(name)
    }

    /// The file's content. A missing file is empty in a noop run, where
    /// Puppet only looks, and an error otherwise.
    fn read(&self, cx: &Context) -> Result<Vec<u8>, ProviderError> {
        if let Some((bytes, _)) = staged(Path::new(&self.path)) {
            return Ok(bytes.to_vec());
        }
        match std::fs::read(&self.path) {
            Ok(bytes) => Ok(bytes),
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound
                    && (cx.noop || self.instance.resource.noop()) =>
            {
                Ok(Vec::new())
            }
            Err(e) => Err(ProviderError::new(ruby_io_error(
                &e,
                "rb_sysopen",
                Path::new(&self.path),
            ))),
        }
    }

    /// Stages the new content (the session writes it; see
    /// `parsedfile::stage`).
    fn write(&self, bytes: Vec<u8>) -> Result<(), ProviderError> {
        let path = Path::new(&self.path);
        stage_or_write(path, bytes, self.instance.resource.reference_str())
            .map_err(|e| ProviderError::new(ruby_io_error(&e, "rb_sysopen", path)))
    }

    /// Whether a line, without its ending, is the resource's line.
    fn is_line(&self, line: &[u8]) -> bool {
        self.line
            .as_deref()
            .is_some_and(|wanted| chomp(line) == wanted.as_bytes())
    }

    /// Whether a regular expression matches a line, which is read in the
    /// resource's encoding: UTF-8 must be valid (Ruby's message otherwise);
    /// other encodings are taken byte for byte, as single-byte encodings
    /// are.
    fn matches(&self, regex: &Regex, line: &[u8]) -> Result<bool, ProviderError> {
        if self.utf8 {
            let text = std::str::from_utf8(line)
                .map_err(|_| ProviderError::new("invalid byte sequence in UTF-8"))?;
            Ok(regex.is_match(text))
        } else {
            let text: String = line.iter().map(|&b| b as char).collect();
            Ok(regex.is_match(&text))
        }
    }

    /// The lines a regular expression matches; with
    /// `replace_all_matches_not_matching_line`, lines that are already the
    /// resource's line do not count.
    fn count_matches(&self, regex: &Regex, lines: &[&[u8]]) -> Result<usize, ProviderError> {
        let skip_line = self.flag("replace_all_matches_not_matching_line");
        let mut count = 0;
        for line in lines {
            if skip_line && self.is_line(line) {
                continue;
            }
            if self.matches(regex, line)? {
                count += 1;
            }
        }
        Ok(count)
    }

    fn wanted_line(&self) -> &[u8] {
        self.line.as_deref().unwrap_or_default().as_bytes()
    }

    fn more_than_one_match(&self) -> ProviderError {
        ProviderError::new(format!(
            "More than one line in file '{}' matches pattern '{}'",
            self.path,
            self.matcher.as_ref().map(|(s, _)| s.as_str()).unwrap_or("")
        ))
    }
}

/// Whether the resource's line is there, as stdlib decides it: with a
/// `match`, `ensure`, `replace`, `append_on_no_match` and
/// `match_for_absence` each turn "nothing to do" into "present" (for
/// `ensure => present`) or "absent".
fn exists(cx: &Context, request: &Request<'_>) -> Result<bool, ProviderError> {
    let content = request.read(cx)?;
    let lines = lines(&content);
    let lines_count = lines.iter().filter(|line| request.is_line(line)).count();
    let Some((_, matcher)) = &request.matcher else {
        return Ok(lines_count > 0);
    };
    let match_count = request.count_matches(matcher, &lines)?;
    let present = request.text("ensure").as_deref() != Some("absent");
    Ok(if present {
        if match_count == 0 {
            // Nothing to replace and nothing to append: "present" ends
            // the matter.
            lines_count > 0 || request.text("append_on_no_match").as_deref() == Some("false")
        } else if request.flag("replace_all_matches_not_matching_line") {
            false
        } else if lines_count == 0 {
            request.text("replace").as_deref() == Some("false")
        } else {
            true
        }
    } else if match_count == 0 {
        lines_count > 0
    } else if lines_count == 0 {
        request.flag("match_for_absence")
    } else {
        true
    })
}

fn create(cx: &Context, request: &Request<'_>) -> Result<(), ProviderError> {
    let content = request.read(cx)?;
    let lines = lines(&content);
    if !request.flag("replace") {
        match &request.matcher {
            Some((_, matcher)) if request.count_matches(matcher, &lines)? > 0 => return Ok(()),
            Some(_) => {}
            // Ruby matches each line against no pattern at all, which fails
            // as soon as there is a line.
            None if !lines.is_empty() => {
                return Err(ProviderError::new(
                    "wrong argument type nil (expected Regexp)",
                ));
            }
            None => {}
        }
    }
    let wanted = request.wanted_line();
    let mut out = Vec::with_capacity(content.len() + wanted.len() + 1);
    if let Some((_, matcher)) = &request.matcher {
        let mut match_count = request.count_matches(matcher, &lines)?;
        if match_count > 1 && !request.flag("multiple") {
            return Err(request.more_than_one_match());
        }
        for line in &lines {
            puts(
                &mut out,
                if request.matches(matcher, line)? {
                    wanted
                } else {
                    line
                },
            );
            if match_count == 0
                && let Some((_, after)) = &request.after
                && request.matches(after, line)?
            {
                puts(&mut out, wanted);
                // The line is in: later lines matching `after` get no copy.
                match_count += 1;
            }
        }
        if match_count == 0 {
            puts(&mut out, wanted);
        }
    } else if let Some((source, after)) = &request.after {
        let after_count = request.count_matches(after, &lines)?;
        if after_count > 1 && !request.flag("multiple") {
            return Err(ProviderError::new(format!(
                "{after_count} lines match pattern '{source}' in file '{}'. One or no line must match the pattern.",
                request.path
            )));
        }
        for line in &lines {
            puts(&mut out, line);
            if request.matches(after, line)? {
                puts(&mut out, wanted);
            }
        }
        if after_count == 0 {
            puts(&mut out, wanted);
        }
    } else {
        for line in &lines {
            puts(&mut out, line);
        }
        puts(&mut out, wanted);
    }
    request.write(out)
}

fn destroy(cx: &Context, request: &Request<'_>) -> Result<(), ProviderError> {
    let content = request.read(cx)?;
    let lines = lines(&content);
    let mut out = Vec::with_capacity(content.len());
    match &request.matcher {
        Some((_, matcher)) if request.flag("match_for_absence") => {
            if request.count_matches(matcher, &lines)? > 1 && !request.flag("multiple") {
                return Err(request.more_than_one_match());
            }
            for line in &lines {
                if !request.matches(matcher, line)? {
                    out.extend_from_slice(line);
                }
            }
        }
        _ => {
            for line in lines.iter().filter(|line| !request.is_line(line)) {
                out.extend_from_slice(line);
            }
        }
    }
    request.write(out)
}

/// Puppet logs an error raised while a change is made on its own, before
/// the failed change that reports it.
fn logged(cx: &Context, result: Result<(), ProviderError>) -> Result<(), ProviderError> {
    if let Err(e) = &result {
        cx.logger.log(Level::Err, "", &e.0);
    }
    result
}

struct FileLine;

impl PropertyProvider for FileLine {
    fn stages_files(&self) -> bool {
        true
    }

    fn exists(&self, cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        exists(cx, &Request::new(instance)?)
    }

    fn create(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        logged(cx, create(cx, &Request::new(instance)?))
    }

    fn destroy(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        logged(cx, destroy(cx, &Request::new(instance)?))
    }

    fn get(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        match attr {
            "ensure" => Ok(Some(marionette_ral::provider::presence(
                self.exists(cx, instance)?,
            ))),
            // The line is never out of sync by itself (see the type).
            _ => Ok(instance.resource.get(attr).cloned()),
        }
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("file_line", "ruby", FileLine).doc(
        "Reads the file whole, decides from its lines whether the line is there,
        and writes the file back whole.",
    )
}
