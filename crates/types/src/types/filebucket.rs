//! `filebucket`: a named, content-addressed store that `file` resources
//! back up into with `backup => NAME`.
//!
//! A bucket with a `path` is local: a directory with the same layout as
//! the run's own bucket (see `marionette_ral::filebucket`), so
//! `marionette filebucket --bucket PATH` reads it. Puppet's remote bucket
//! (`path => false`) is the server's: `marionette agent` sends backups to
//! the server it runs against (`file_bucket_file`); a run without a
//! server (`apply`) fails the backup, and so the change, rather than
//! keep no copy.

use marionette_ral::{AttrDef, Context, Filebucket, PropertyProvider, ProviderDef, TypeDef};
use marionette_values::Value;

/// The bucket every run has, used when `backup` names no declared bucket.
pub const DEFAULT_BUCKET: &str = "puppet";

pub fn definition() -> TypeDef {
    TypeDef::new("filebucket")
        .doc(
            "A place where file contents are saved, by their sha256 checksum,
            before a `file` resource changes or removes them. A `file` resource
            uses it with `backup => NAME`; without a declared bucket, `backup`
            names `puppet`, the run's own bucket under the state directory.

            A bucket with a `path` is a local directory. With `path => false` it
            is the Puppet server's: `marionette agent` sends the contents to the
            server it runs against; a run without a server fails the backup
            (and the change), keeping the file as it was.

            Example:

                filebucket { 'main': path => '/var/backups/marionette' }
                File { backup => 'main' }

            The contents can be listed and restored with
            `marionette filebucket list --bucket /var/backups/marionette`.",
        )
        .attr(
            AttrDef::param("name")
                .namevar()
                .doc("The name `file` resources give as `backup`."),
        )
        .attr(
            AttrDef::param("path")
                .doc(
                    "The directory of the bucket, an absolute path; created when the
                    first file is saved. Without it, the bucket is the run's own
                    (`clientbucket` under the state directory). `false`: the
                    server's bucket.",
                )
                .validate(|_, value| match value {
                    Value::Array(_) => Err("You can only have one filebucket path".into()),
                    Value::Boolean(false) => Ok(()),
                    Value::String(text) if text.starts_with('/') => Ok(()),
                    Value::String(_) => Err("Filebucket paths must be absolute".into()),
                    other => Err(format!(
                        "Filebucket paths must be absolute paths, not {}",
                        marionette_ral::attribute::inspect(other)
                    )),
                })
                // `false` (the server's bucket) stays a boolean.
                .munge(|_, value| match value {
                    Value::Boolean(false) => Ok(value),
                    other => Ok(crate::types::file::normalize_path_value(other)),
                }),
        )
        .attr(AttrDef::param("server").doc(
            "The Puppet server of a remote bucket. `marionette agent` keeps the
            backups on the server it runs against, whatever this names.",
        ))
        .attr(AttrDef::param("port").doc(
            "The port of a remote bucket's server; as `server`, the agent's own
            server's is used.",
        ))
}

/// The bucket a `backup` value names. `Ok(None)` when the run keeps no bucket of its own and the name means
/// that one.
pub fn resolve(cx: &Context, name: &str) -> Result<Option<Filebucket>, String> {
    match cx.find("filebucket", name) {
        Some(declared) if matches!(declared.get("path"), Some(Value::Boolean(false))) => {
            match &cx.remote_filebucket {
                Some(remote) => Ok(Some(remote.clone())),
                None => Err(format!(
                    "Filebucket {name} is a Puppet server's (path => false), and this run has no server: give the bucket a path, or run through `marionette agent`"
                )),
            }
        }
        Some(declared) => Ok(match declared.text("path") {
            Some(path) => Some(Filebucket::new(path)),
            None => cx.filebucket.clone(),
        }),
        None if name == DEFAULT_BUCKET => Ok(cx.filebucket.clone()),
        None => Err(format!(
            "Could not find filebucket {name} specified in backup"
        )),
    }
}

/// Nothing to do when a bucket is evaluated: it has no state of its own,
/// and its directory is made by the first backup.
struct Bucket;

impl PropertyProvider for Bucket {}

pub fn implementation() -> ProviderDef {
    ProviderDef::properties("filebucket", "filebucket", Bucket).implicit()
}
