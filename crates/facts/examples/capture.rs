//! Captures this machine as a test fixture: every file the built-in
//! collectors read is copied below DIR (keeping its absolute path), the
//! directories they list are recreated, and the answers of the system calls
//! are written to DIR/calls.json.
//!
//! ```text
//! cargo run -p marionette-facts --example capture -- crates/facts/tests/fixtures/NAME
//! ```
//!
//! Copies of real machines are then edited by hand into other shapes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use marionette_facts::system::{Access, RecordingCalls};
use marionette_facts::{Options, System, SystemRoot};

fn main() -> Result<(), String> {
    let target: PathBuf = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .ok_or("usage: capture DIR")?;
    let calls = Arc::new(RecordingCalls::default());
    let system = System {
        root: SystemRoot::live().recording(),
        calls: calls.clone(),
    };
    let options = Options {
        system: system.clone(),
        external: false,
        environment_facts: false,
        ..Options::default()
    };
    marionette_facts::collect(&options);
    let accesses = system.root.accesses();
    let inside = |path: &str| target.join(path.trim_start_matches('/'));
    let error = |path: &Path, error: std::io::Error| format!("{}: {error}", path.display());

    // Directories and existence first, then contents, then links, so that a
    // file's contents replace any placeholder made for it.
    for access in &accesses {
        match access {
            Access::Directory(path) => {
                let Ok(entries) = std::fs::read_dir(path) else {
                    continue;
                };
                std::fs::create_dir_all(inside(path)).map_err(|e| error(&inside(path), e))?;
                for entry in entries.flatten() {
                    let copy = inside(path).join(entry.file_name());
                    if entry.path().is_dir() {
                        std::fs::create_dir_all(&copy).map_err(|e| error(&copy, e))?;
                    } else if !copy.exists() {
                        std::fs::write(&copy, "").map_err(|e| error(&copy, e))?;
                    }
                }
            }
            Access::Exists(path) => {
                let original = Path::new(path);
                let copy = inside(path);
                if original.is_dir() {
                    std::fs::create_dir_all(&copy).map_err(|e| error(&copy, e))?;
                } else if original.exists() && !copy.exists() {
                    if let Some(parent) = copy.parent() {
                        std::fs::create_dir_all(parent).map_err(|e| error(parent, e))?;
                    }
                    std::fs::write(&copy, "").map_err(|e| error(&copy, e))?;
                }
            }
            _ => {}
        }
    }
    for access in &accesses {
        if let Access::File(path) = access
            && let Ok(contents) = std::fs::read(path)
        {
            let copy = inside(path);
            if let Some(parent) = copy.parent() {
                std::fs::create_dir_all(parent).map_err(|e| error(parent, e))?;
            }
            std::fs::write(&copy, contents).map_err(|e| error(&copy, e))?;
        }
    }
    for access in &accesses {
        if let Access::Link(path) = access
            && let Ok(destination) = std::fs::read_link(path)
        {
            let copy = inside(path);
            if let Some(parent) = copy.parent() {
                std::fs::create_dir_all(parent).map_err(|e| error(parent, e))?;
            }
            let _ = std::fs::remove_file(&copy);
            std::os::unix::fs::symlink(&destination, &copy).map_err(|e| error(&copy, e))?;
        }
    }
    let recorded = serde_json::to_string_pretty(&calls.recorded()).map_err(|e| e.to_string())?;
    std::fs::write(target.join("calls.json"), recorded + "\n").map_err(|e| error(&target, e))?;
    println!(
        "captured {} paths into {}",
        accesses.len(),
        target.display()
    );
    Ok(())
}
