//! The report processors of Puppet's `reports` setting that the server
//! runs besides `store` and `puppetdb`: `log`, which writes each message
//! of a report to the server's log under the node's name, and `http`,
//! which sends the report as YAML to `reporturl`, as Puppet's processors
//! of the same names do.

use marionette_server::ReportProcessor;

/// Each message of the report in the server's log, its source prefixed
/// with `//NODE/`, as Puppet's `log` processor hands them to its log.
#[derive(Debug)]
pub(crate) struct Log;

impl ReportProcessor for Log {
    fn name(&self) -> &str {
        "log"
    }

    fn process(
        &self,
        node: &str,
        report: &serde_json::Value,
        log: &dyn Fn(&str),
    ) -> Result<(), String> {
        let host = report["host"].as_str().unwrap_or(node);
        for entry in report["logs"].as_array().into_iter().flatten() {
            let text = |key: &str| entry[key].as_str().unwrap_or_default();
            let level = level_word(text("level"));
            log(&format!(
                "{level}: //{host}/{}: {}",
                text("source"),
                text("message")
            ));
        }
        Ok(())
    }
}

/// The report as Puppet writes it in YAML (its JSON form, tagged as
/// Ruby's report object), posted to `reporturl` with
/// `application/x-yaml`; credentials in the URL go as Basic
/// authentication. A refusal is logged in Puppet's words.
#[derive(Debug)]
pub(crate) struct Http {
    pub(crate) url: String,
}

impl ReportProcessor for Http {
    fn name(&self) -> &str {
        "http"
    }

    fn process(
        &self,
        _node: &str,
        report: &serde_json::Value,
        log: &dyn Fn(&str),
    ) -> Result<(), String> {
        let yaml = marionette_hiera::yaml::emit::dump(&marionette_catalog::from_data(report));
        let body = match yaml.strip_prefix("---") {
            Some(rest) => format!("--- !ruby/object:Puppet::Transaction::Report{rest}\n"),
            None => yaml,
        };
        let (status, reason) =
            marionette_types::web::post(&self.url, "application/x-yaml", body.as_bytes())?;
        if !(200..300).contains(&status) {
            log(&format!(
                "Error: Unable to submit report to {} [{status}] {reason}",
                self.url
            ));
        }
        Ok(())
    }
}

/// A report's level as Puppet's log lines begin (`Notice`, `Error`).
fn level_word(level: &str) -> String {
    match level {
        "err" => "Error".to_string(),
        other => {
            let mut chars = other.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_uppercase().chain(chars).collect()
            })
        }
    }
}
