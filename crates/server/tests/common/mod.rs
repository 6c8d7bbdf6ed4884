//! What the server's tests share: a compiler that answers a small catalog
//! naming the node and counts what it is asked, and the CA's settings.

use std::sync::atomic::{AtomicUsize, Ordering};

use marionette_server::{CompileRequest, Compiler};

/// Answers every node a catalog of its own name; counts the compiles and
/// those whose facts or trusted data did not arrive as sent.
#[derive(Default)]
pub(crate) struct Counting {
    pub(crate) compiles: AtomicUsize,
    /// Times the server was told to forget its environments.
    pub(crate) flushes: AtomicUsize,
    pub(crate) wrong: AtomicUsize,
    /// The node whose facts and trusted name are checked.
    pub(crate) expect_node: &'static str,
}

impl Compiler for Counting {
    fn compile(&self, request: &CompileRequest) -> Result<Vec<u8>, String> {
        self.compiles.fetch_add(1, Ordering::Relaxed);
        // The facts and the trusted name must arrive as the agent sent them.
        if request.facts.get("mrtest_fact") != Some(&serde_json::json!("present"))
            || request.trusted["certname"] != self.expect_node
        {
            self.wrong.fetch_add(1, Ordering::Relaxed);
        }
        Ok(serde_json::json!({
            "name": request.node,
            "environment": request.environment,
            "version": 1,
            "resources": [],
            "edges": [],
            "classes": [],
        })
        .to_string()
        .into_bytes())
    }

    fn environment_of(&self, _node: &str) -> Result<Option<String>, String> {
        Ok(None)
    }

    fn modulepath(&self, environment: &str) -> Option<Vec<std::path::PathBuf>> {
        (environment == "production").then(Vec::new)
    }

    fn environments(&self) -> Vec<String> {
        vec!["production".into()]
    }

    fn flush_environments(&self, _environment: Option<&str>) {
        self.flushes.fetch_add(1, Ordering::Relaxed);
    }
}

/// The CA's settings for tests: 2048-bit keys keep them quick.
pub(crate) fn settings() -> marionette_ca::Settings {
    let mut settings = marionette_ca::Settings::new("localhost");
    settings.key_length = 2048;
    settings
}
