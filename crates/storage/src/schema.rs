//! The database's tables, and the migrations that make them.
//!
//! Each migration is applied once, in order, inside one transaction with
//! the row that records it in `schema_migrations`: a database is always
//! at exactly one version. A database written by a newer Marionette (a
//! version above the last migration here) is refused rather than
//! misread.
//!
//! Rows keep the indexed, queried keys as columns and the rest of each
//! document as JSON text: the query engine reads PuppetDB's fields from
//! both.
//!
//! The same migrations make the schema on SQLite and on PostgreSQL: each
//! is SQL both read (with `INTEGER` as PostgreSQL's `BIGINT`), and what
//! only one of them reads (JSON functions) comes after, apart.

use crate::db::{Db, params};

/// A migration: its SQL for both databases, then for one of them.
struct Migration {
    both: &'static str,
    sqlite: &'static str,
    postgres: &'static str,
}

/// The migrations, oldest first; the version of each is its position
/// plus one.
const MIGRATIONS: &[Migration] = &[
    // 1: nodes, their latest facts and catalog, and their reports.
    Migration {
        sqlite: "",
        postgres: "",
        both: r#"
    CREATE TABLE certnames (
        certname TEXT PRIMARY KEY,
        -- When `deactivate node` arrived (UTC, ISO 8601), or NULL.
        deactivated TEXT,
        -- When node-ttl expired the node, or NULL.
        expired TEXT
    );
    CREATE TABLE factsets (
        certname TEXT PRIMARY KEY REFERENCES certnames(certname) ON DELETE CASCADE,
        environment TEXT,
        producer_timestamp TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        producer TEXT,
        hash TEXT NOT NULL,
        -- The facts as one JSON object, in the order the node sent them.
        facts TEXT NOT NULL
    );
    CREATE TABLE catalogs (
        certname TEXT PRIMARY KEY REFERENCES certnames(certname) ON DELETE CASCADE,
        version TEXT,
        transaction_uuid TEXT,
        catalog_uuid TEXT,
        code_id TEXT,
        job_id TEXT,
        environment TEXT,
        producer_timestamp TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        producer TEXT,
        hash TEXT NOT NULL,
        -- Edges as PuppetDB returns them: source, target, relationship.
        edges TEXT NOT NULL
    );
    CREATE TABLE catalog_resources (
        certname TEXT NOT NULL REFERENCES catalogs(certname) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        type TEXT NOT NULL,
        title TEXT NOT NULL,
        exported INTEGER NOT NULL,
        file TEXT,
        line INTEGER,
        tags TEXT NOT NULL,
        parameters TEXT NOT NULL,
        resource TEXT NOT NULL,
        PRIMARY KEY (certname, type, title)
    );
    -- What every exported collection asks for.
    CREATE INDEX catalog_resources_exported ON catalog_resources(type, exported);
    CREATE TABLE reports (
        hash TEXT PRIMARY KEY,
        certname TEXT NOT NULL REFERENCES certnames(certname) ON DELETE CASCADE,
        end_time TEXT NOT NULL,
        receive_time TEXT NOT NULL,
        -- The report as the `reports` entity returns it, without its
        -- events, metrics and logs, which follow.
        report TEXT NOT NULL,
        resource_events TEXT NOT NULL,
        metrics TEXT NOT NULL,
        logs TEXT NOT NULL
    );
    CREATE INDEX reports_certname_end ON reports(certname, end_time);
    -- Which report is each node's latest, as the `nodes` entity shows it.
    CREATE TABLE latest_reports (
        certname TEXT PRIMARY KEY REFERENCES certnames(certname) ON DELETE CASCADE,
        hash TEXT NOT NULL REFERENCES reports(hash) ON DELETE CASCADE
    );
    "#,
    },
    // 2: a report's producer and producer timestamp as columns, for the
    // `producers` entity and `report-ttl`.
    Migration {
        both: "ALTER TABLE reports ADD COLUMN producer TEXT;
               ALTER TABLE reports ADD COLUMN producer_timestamp TEXT;",
        sqlite: "UPDATE reports SET
                   producer = json_extract(report, '$.producer'),
                   producer_timestamp = json_extract(report, '$.producer_timestamp');
                 CREATE INDEX reports_producer_timestamp ON reports(producer_timestamp);",
        postgres: "UPDATE reports SET
                     producer = report::json ->> 'producer',
                     producer_timestamp = report::json ->> 'producer_timestamp';
                   CREATE INDEX reports_producer_timestamp ON reports(producer_timestamp);",
    },
    // 3: the packages a node's facts command lists (`package_inventory`,
    // each `[name, version, provider]`), as JSON.
    Migration {
        both: "ALTER TABLE factsets ADD COLUMN package_inventory TEXT;",
        sqlite: "",
        postgres: "",
    },
];

/// The version a database is at once [`migrate`] is done.
pub(crate) const CURRENT: usize = MIGRATIONS.len();

/// Brings the database to the current version.
pub(crate) fn migrate(db: &mut Db) -> Result<(), String> {
    migrate_with(db, MIGRATIONS)
}

/// Brings the database to the last of `migrations`.
fn migrate_with(db: &mut Db, migrations: &[Migration]) -> Result<(), String> {
    db.batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version BIGINT PRIMARY KEY,
            applied TEXT NOT NULL
        );",
    )
    .map_err(|e| e.to_string())?;
    let at: usize = db
        .query_one(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            &[],
        )
        .map_err(|e| e.to_string())?
        .and_then(|row| row.int(0))
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0);
    if at > CURRENT {
        return Err(format!(
            "its schema is at version {at}, newer than this Marionette's {CURRENT}; use the Marionette that wrote it"
        ));
    }
    let postgres = db.is_postgres();
    for (index, migration) in migrations.iter().enumerate().skip(at) {
        let version = index + 1;
        let both = if postgres {
            migration.both.replace("INTEGER", "BIGINT")
        } else {
            migration.both.to_string()
        };
        let own = if postgres {
            migration.postgres
        } else {
            migration.sqlite
        };
        db.transaction(|db| -> Result<(), String> {
            db.batch(&both)
                .and_then(|()| db.batch(own))
                .map_err(|e| format!("migration {version}: {e}"))?;
            db.execute(
                "INSERT INTO schema_migrations (version, applied) VALUES (?1, ?2)",
                params![version as i64, crate::store::now()],
            )
            .map_err(|e| e.to_string())?;
            Ok(())
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database written at version 1 gains its reports' producers
    /// from their JSON when it is brought to version 2.
    #[test]
    fn version_1_is_brought_to_the_current_version_with_its_data() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v1.sqlite3");
        let mut db = Db::Sqlite(rusqlite::Connection::open(&path).unwrap());
        migrate_with(&mut db, &MIGRATIONS[..1]).unwrap();
        db.batch(
            "INSERT INTO certnames (certname) VALUES ('a.example');
             INSERT INTO reports (hash, certname, end_time, receive_time, report,
                                  resource_events, metrics, logs)
             VALUES ('h1', 'a.example', '2026-11-20T10:00:00.000Z', '2026-11-20T10:00:01.000Z',
                     '{\"producer\": \"server1\", \"producer_timestamp\": \"2026-11-20T10:00:00.500Z\"}',
                     '[]', '[]', '[]');",
        )
        .unwrap();
        migrate(&mut db).unwrap();
        let row = db
            .query_one(
                "SELECT producer, producer_timestamp FROM reports WHERE hash = 'h1'",
                &[],
            )
            .unwrap()
            .unwrap();
        assert_eq!(row.text(0).as_deref(), Some("server1"));
        assert_eq!(row.text(1).as_deref(), Some("2026-11-20T10:00:00.500Z"));
        let version = db
            .query_one("SELECT MAX(version) FROM schema_migrations", &[])
            .unwrap()
            .and_then(|row| row.int(0));
        assert_eq!(version, Some(CURRENT as i64));
        // Again: nothing to do.
        migrate(&mut db).unwrap();
    }
}
