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

/// A node's answer (`shape::NODE`'s fields) made by SQLite from the
/// columns of its row, in a trigger of migration 8.
macro_rules! sqlite_node_answer {
    () => {
        "json_object(
             'certname', certname, 'deactivated', deactivated, 'expired', expired,
             'catalog_timestamp', catalog_timestamp,
             'facts_timestamp', facts_timestamp,
             'report_timestamp', report_timestamp,
             'catalog_environment', catalog_environment,
             'facts_environment', facts_environment,
             'report_environment', report_environment,
             'latest_report_status', report_status,
             'latest_report_noop', json(report_noop),
             'latest_report_noop_pending', json(report_noop_pending),
             'latest_report_hash', report_hash,
             'latest_report_job_id', report_job_id,
             'latest_report_corrective_change', NULL,
             'cached_catalog_status', report_cached_catalog_status)"
    };
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
    // 4: what a fleet's queries read of every node, kept where they are
    // read without parsing whole documents. A report's summary as
    // columns (text as text; `noop`, `noop_pending` and
    // `configuration_version` as their JSON, which may be of any type),
    // for `nodes` and `events`. Each node's facts one row each, for a
    // fact's values across the fleet and the fact names. Each catalog's
    // number of resources, for the population metrics.
    Migration {
        both:
            "ALTER TABLE reports ADD COLUMN start_time TEXT;
               ALTER TABLE reports ADD COLUMN status TEXT;
               ALTER TABLE reports ADD COLUMN environment TEXT;
               ALTER TABLE reports ADD COLUMN job_id TEXT;
               ALTER TABLE reports ADD COLUMN cached_catalog_status TEXT;
               ALTER TABLE reports ADD COLUMN noop TEXT;
               ALTER TABLE reports ADD COLUMN noop_pending TEXT;
               ALTER TABLE reports ADD COLUMN configuration_version TEXT;
               CREATE TABLE fact_values (
                   certname TEXT NOT NULL REFERENCES factsets(certname) ON DELETE CASCADE,
                   name TEXT NOT NULL,
                   -- The fact's value as JSON.
                   value TEXT NOT NULL,
                   PRIMARY KEY (certname, name)
               );
               CREATE INDEX fact_values_name ON fact_values(name);
               ALTER TABLE catalogs ADD COLUMN resource_count INTEGER;
               UPDATE catalogs SET resource_count =
                   (SELECT count(*) FROM catalog_resources r WHERE r.certname = catalogs.certname);",
        sqlite: "UPDATE reports SET
                   start_time = report ->> '$.start_time',
                   status = report ->> '$.status',
                   environment = report ->> '$.environment',
                   job_id = report ->> '$.job_id',
                   cached_catalog_status = report ->> '$.cached_catalog_status',
                   noop = report -> '$.noop',
                   noop_pending = report -> '$.noop_pending',
                   configuration_version = report -> '$.configuration_version';
                 INSERT INTO fact_values (certname, name, value)
                   SELECT f.certname, j.key, f.facts -> ('$.' || json_quote(j.key))
                   FROM factsets f, json_each(f.facts) j;",
        postgres: "UPDATE reports SET
                     start_time = report::json ->> 'start_time',
                     status = report::json ->> 'status',
                     environment = report::json ->> 'environment',
                     job_id = report::json ->> 'job_id',
                     cached_catalog_status = report::json ->> 'cached_catalog_status',
                     noop = (report::json -> 'noop')::text,
                     noop_pending = (report::json -> 'noop_pending')::text,
                     configuration_version = (report::json -> 'configuration_version')::text;
                   INSERT INTO fact_values (certname, name, value)
                     SELECT f.certname, j.key, j.value::text
                     FROM factsets f, json_each(f.facts::json) j;",
    },
    // 5: each node's summary on its own row, as the `nodes` entity gives
    // it (its facts', catalog's and latest report's times, environments
    // and the report's status), kept by the commands that change it: a
    // fleet's `nodes` reads one table rather than joining four.
    Migration {
        both: "
               ALTER TABLE certnames ADD COLUMN facts_timestamp TEXT;
               ALTER TABLE certnames ADD COLUMN facts_environment TEXT;
               ALTER TABLE certnames ADD COLUMN catalog_timestamp TEXT;
               ALTER TABLE certnames ADD COLUMN catalog_environment TEXT;
               ALTER TABLE certnames ADD COLUMN report_timestamp TEXT;
               ALTER TABLE certnames ADD COLUMN report_environment TEXT;
               ALTER TABLE certnames ADD COLUMN report_status TEXT;
               ALTER TABLE certnames ADD COLUMN report_noop TEXT;
               ALTER TABLE certnames ADD COLUMN report_noop_pending TEXT;
               ALTER TABLE certnames ADD COLUMN report_hash TEXT;
               ALTER TABLE certnames ADD COLUMN report_job_id TEXT;
               ALTER TABLE certnames ADD COLUMN report_cached_catalog_status TEXT;
               UPDATE certnames SET (facts_timestamp, facts_environment) =
                   (SELECT f.timestamp, f.environment FROM factsets f
                    WHERE f.certname = certnames.certname);
               UPDATE certnames SET (catalog_timestamp, catalog_environment) =
                   (SELECT k.timestamp, k.environment FROM catalogs k
                    WHERE k.certname = certnames.certname);
               UPDATE certnames SET
                   (report_timestamp, report_environment, report_status, report_noop,
                    report_noop_pending, report_hash, report_job_id,
                    report_cached_catalog_status) =
                   (SELECT r.end_time, r.environment, r.status, r.noop, r.noop_pending, r.hash,
                           r.job_id, r.cached_catalog_status
                    FROM latest_reports l JOIN reports r ON r.hash = l.hash
                    WHERE l.certname = certnames.certname);",
        sqlite: "",
        postgres: "",
    },
    // 6: what the fleet-wide answers read, kept together.
    // - Each node's latest report's events, with the times and
    //   environment its events are answered with, beside which report it
    //   is: the events of the fleet's latest reports (Puppetboard's
    //   overview) are read from one table, not from 10,000 places among
    //   every report kept. By the report too, which deleting a report
    //   and every query of reports (saying whether each is the latest)
    //   look for.
    // - Each node's catalog's number of resources in its summary: the
    //   population metrics count them from it, not from every catalog.
    // - A fact's values across the fleet: on SQLite, `fact_values` in
    //   (name, node) order (a table without row ids, its key the order),
    //   so one fact's 10,000 values are read from consecutive pages.
    // - Exported resources, which every collecting compile and
    //   Puppetboard ask for: on SQLite, an index of them alone holding
    //   whole rows, read without the other resources' pages. PostgreSQL
    //   keeps an index's entries under a third of a page, which a
    //   resource's parameters may pass: it has their keys only.
    Migration {
        both: "ALTER TABLE certnames ADD COLUMN catalog_resource_count INTEGER;
               UPDATE certnames SET catalog_resource_count =
                   (SELECT k.resource_count FROM catalogs k
                    WHERE k.certname = certnames.certname);",
        sqlite: "CREATE TABLE latest_reports_by_node (
                   certname TEXT PRIMARY KEY REFERENCES certnames(certname) ON DELETE CASCADE,
                   hash TEXT NOT NULL REFERENCES reports(hash) ON DELETE CASCADE,
                   start_time TEXT,
                   end_time TEXT,
                   receive_time TEXT,
                   environment TEXT,
                   configuration_version TEXT,
                   resource_events TEXT NOT NULL DEFAULT '[]'
               ) WITHOUT ROWID;
               INSERT INTO latest_reports_by_node
                   SELECT l.certname, l.hash, r.start_time, r.end_time, r.receive_time,
                          r.environment, r.configuration_version, r.resource_events
                   FROM latest_reports l JOIN reports r ON r.hash = l.hash;
               DROP TABLE latest_reports;
               ALTER TABLE latest_reports_by_node RENAME TO latest_reports;
               CREATE INDEX latest_reports_hash ON latest_reports(hash);
               CREATE TABLE fact_values_by_name (
                   certname TEXT NOT NULL REFERENCES factsets(certname) ON DELETE CASCADE,
                   name TEXT NOT NULL,
                   value TEXT NOT NULL,
                   PRIMARY KEY (name, certname)
               ) WITHOUT ROWID;
               INSERT INTO fact_values_by_name (certname, name, value)
                   SELECT certname, name, value FROM fact_values;
               DROP TABLE fact_values;
               ALTER TABLE fact_values_by_name RENAME TO fact_values;
               CREATE INDEX fact_values_certname ON fact_values(certname);
               CREATE INDEX catalog_resources_exported_rows ON catalog_resources
                   (type, certname, position, title, exported, resource, tags, file, line,
                    parameters)
                   WHERE exported = 1;",
        postgres: "ALTER TABLE latest_reports ADD COLUMN start_time TEXT;
                   ALTER TABLE latest_reports ADD COLUMN end_time TEXT;
                   ALTER TABLE latest_reports ADD COLUMN receive_time TEXT;
                   ALTER TABLE latest_reports ADD COLUMN environment TEXT;
                   ALTER TABLE latest_reports ADD COLUMN configuration_version TEXT;
                   ALTER TABLE latest_reports ADD COLUMN resource_events TEXT NOT NULL DEFAULT '[]';
                   UPDATE latest_reports l SET
                       (start_time, end_time, receive_time, environment, configuration_version,
                        resource_events) =
                       (SELECT r.start_time, r.end_time, r.receive_time, r.environment,
                               r.configuration_version, r.resource_events
                        FROM reports r WHERE r.hash = l.hash);
                   CREATE INDEX latest_reports_hash ON latest_reports(hash);
                   CREATE INDEX catalog_resources_exported_rows ON catalog_resources
                       (type, certname, position) WHERE exported = 1;",
    },
    // 7: what a resource's answer reads of its node (whether it is
    // active, its catalog's environment), in an index of its own: the
    // fleet's exported resources (10,000 sshkeys) are answered from their
    // index and this one, small enough to stay in SQLite's cache, rather
    // than from the nodes' whole rows (about 9% of the answer's time).
    Migration {
        both: "CREATE INDEX certnames_state ON certnames
                   (certname, deactivated, expired, catalog_environment);",
        sqlite: "",
        postgres: "",
    },
    // 8: answers kept whole, so that a fleet's answer is one column a row
    // copied out, where writing ten or sixteen columns a row took about a
    // third of its time:
    // - each node's (`shape::NODE`'s fields, Puppetboard's nodes), on its
    //   row, remade by the database whenever a field of it changes. The
    //   JSON of the flags is kept valid by the store (`serde_json`'s text
    //   of the report's values);
    // - each exported resource's (`shape::RESOURCE`'s fields: every
    //   collecting compile's and Puppetboard's), made by the store as it
    //   keeps a catalog, and on SQLite in an index of its own.
    // The index of the nodes' state holds their facts' environments too,
    // which a fact's values across the fleet are answered with.
    Migration {
        both: "ALTER TABLE certnames ADD COLUMN answer TEXT;
               ALTER TABLE catalog_resources ADD COLUMN answer TEXT;
               DROP INDEX certnames_state;
               CREATE INDEX certnames_state ON certnames
                   (certname, deactivated, expired, catalog_environment, facts_environment);",
        sqlite: concat!(
            "CREATE TRIGGER certnames_answer_insert AFTER INSERT ON certnames BEGIN
                 UPDATE certnames SET answer = ",
            sqlite_node_answer!(),
            " WHERE certname = NEW.certname;
             END;
             CREATE TRIGGER certnames_answer_update AFTER UPDATE OF
                 certname, deactivated, expired, catalog_timestamp, facts_timestamp,
                 report_timestamp, catalog_environment, facts_environment,
                 report_environment, report_status, report_noop, report_noop_pending,
                 report_hash, report_job_id, report_cached_catalog_status
             ON certnames BEGIN
                 UPDATE certnames SET answer = ",
            sqlite_node_answer!(),
            " WHERE certname = NEW.certname;
             END;
             UPDATE certnames SET deactivated = deactivated;
             UPDATE catalog_resources SET answer = json_object(
                 'certname', certname, 'resource', resource, 'type', type, 'title', title,
                 'exported', json('true'), 'tags', json(tags), 'file', file, 'line', line,
                 'environment', (SELECT c.catalog_environment FROM certnames c
                                 WHERE c.certname = catalog_resources.certname),
                 'parameters', json(parameters))
             WHERE exported = 1;
             CREATE INDEX catalog_resources_exported_answers ON catalog_resources
                 (type, certname, position, answer) WHERE exported = 1;"
        ),
        postgres: "CREATE FUNCTION certnames_answer() RETURNS trigger AS $$
                   BEGIN
                       NEW.answer := json_build_object(
                           'certname', NEW.certname, 'deactivated', NEW.deactivated,
                           'expired', NEW.expired,
                           'catalog_timestamp', NEW.catalog_timestamp,
                           'facts_timestamp', NEW.facts_timestamp,
                           'report_timestamp', NEW.report_timestamp,
                           'catalog_environment', NEW.catalog_environment,
                           'facts_environment', NEW.facts_environment,
                           'report_environment', NEW.report_environment,
                           'latest_report_status', NEW.report_status,
                           'latest_report_noop', NEW.report_noop::json,
                           'latest_report_noop_pending', NEW.report_noop_pending::json,
                           'latest_report_hash', NEW.report_hash,
                           'latest_report_job_id', NEW.report_job_id,
                           'latest_report_corrective_change', NULL,
                           'cached_catalog_status', NEW.report_cached_catalog_status)::text;
                       RETURN NEW;
                   END
                   $$ LANGUAGE plpgsql;
                   CREATE TRIGGER certnames_answer BEFORE INSERT OR UPDATE ON certnames
                       FOR EACH ROW EXECUTE FUNCTION certnames_answer();
                   UPDATE certnames SET deactivated = deactivated;
                   UPDATE catalog_resources r SET answer = json_build_object(
                       'certname', r.certname, 'resource', r.resource, 'type', r.type,
                       'title', r.title, 'exported', true, 'tags', r.tags::json,
                       'file', r.file, 'line', r.line,
                       'environment', (SELECT c.catalog_environment FROM certnames c
                                       WHERE c.certname = r.certname),
                       'parameters', r.parameters::json)::text
                   WHERE r.exported = 1;",
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
                     '{\"producer\": \"server1\", \"producer_timestamp\": \"2026-11-20T10:00:00.500Z\", \"status\": \"changed\", \"noop\": false, \"environment\": \"production\"}',
                     '[]', '[]', '[]');
             INSERT INTO latest_reports (certname, hash) VALUES ('a.example', 'h1');
             INSERT INTO factsets (certname, environment, producer_timestamp, timestamp, hash,
                                   facts)
             VALUES ('a.example', 'production', '2026-11-20T10:00:00.000Z',
                     '2026-11-20T10:00:02.000Z', 'f1',
                     '{\"kernel\": \"Linux\", \"os\": {\"family\": \"Debian\"}, \"up\": true}');
             INSERT INTO catalogs (certname, producer_timestamp, timestamp, hash, edges)
             VALUES ('a.example', '2026-11-20T10:00:00.000Z', '2026-11-20T10:00:03.000Z', 'c1',
                     '[]');
             INSERT INTO catalog_resources (certname, position, type, title, exported, tags,
                                            parameters, resource)
             VALUES ('a.example', 0, 'File', '/tmp/x', 0, '[]', '{}', 'r1'),
                    ('a.example', 1, 'Sshkey', 'a', 1, '[\"sshkey\"]', '{\"key\": \"AAAA\"}',
                     'r2');
             UPDATE catalogs SET environment = 'production';",
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
        // Version 4 and 5: the report's summary, each fact on its own row,
        // the catalog's resource count, and the node's summary.
        let row = db
            .query_one(
                "SELECT status, noop, environment FROM reports WHERE hash = 'h1'",
                &[],
            )
            .unwrap()
            .unwrap();
        assert_eq!(
            (row.text(0), row.text(1), row.text(2)),
            (
                Some("changed".into()),
                Some("false".into()),
                Some("production".into())
            )
        );
        let facts = db
            .query(
                "SELECT name, value FROM fact_values WHERE certname = 'a.example' ORDER BY name",
                &[],
            )
            .unwrap();
        let facts: Vec<_> = facts
            .iter()
            .map(|row| (row.text(0).unwrap(), row.text(1).unwrap()))
            .collect();
        assert_eq!(
            facts,
            [
                ("kernel".into(), "\"Linux\"".into()),
                ("os".into(), "{\"family\":\"Debian\"}".into()),
                ("up".into(), "true".into())
            ]
        );
        let row = db
            .query_one(
                "SELECT c.facts_timestamp, c.catalog_timestamp, c.report_status, c.report_hash,
                        k.resource_count
                 FROM certnames c JOIN catalogs k ON k.certname = c.certname",
                &[],
            )
            .unwrap()
            .unwrap();
        assert_eq!(row.text(0).as_deref(), Some("2026-11-20T10:00:02.000Z"));
        assert_eq!(row.text(1).as_deref(), Some("2026-11-20T10:00:03.000Z"));
        assert_eq!(row.text(2).as_deref(), Some("changed"));
        assert_eq!(row.text(3).as_deref(), Some("h1"));
        assert_eq!(row.int(4), Some(2));
        let row = db
            .query_one("SELECT catalog_resource_count FROM certnames", &[])
            .unwrap()
            .unwrap();
        assert_eq!(row.int(0), Some(2));
        // Version 6: the latest report's summary and events beside it.
        let row = db
            .query_one(
                "SELECT hash, end_time, resource_events FROM latest_reports
                 WHERE certname = 'a.example'",
                &[],
            )
            .unwrap()
            .unwrap();
        assert_eq!(
            (row.text(0), row.text(1), row.text(2)),
            (
                Some("h1".into()),
                Some("2026-11-20T10:00:00.000Z".into()),
                Some("[]".into())
            )
        );
        // Version 8: the node's answer, kept whole, then remade as its
        // row changes.
        let answer = |db: &mut Db| -> serde_json::Value {
            let row = db
                .query_one("SELECT answer FROM certnames", &[])
                .unwrap()
                .unwrap();
            serde_json::from_str(&row.text(0).unwrap()).unwrap()
        };
        let kept = answer(&mut db);
        assert_eq!(kept["certname"], "a.example");
        assert_eq!(kept["latest_report_status"], "changed");
        assert_eq!(kept["latest_report_noop"], false);
        assert_eq!(kept["facts_timestamp"], "2026-11-20T10:00:02.000Z");
        assert!(kept["deactivated"].is_null());
        db.batch("UPDATE certnames SET deactivated = '2026-11-21T00:00:00.000Z'")
            .unwrap();
        assert_eq!(answer(&mut db)["deactivated"], "2026-11-21T00:00:00.000Z");
        let row = db
            .query(
                "SELECT answer FROM catalog_resources WHERE certname = 'a.example'
                 ORDER BY position",
                &[],
            )
            .unwrap();
        assert_eq!(row[0].text(0), None);
        let kept: serde_json::Value = serde_json::from_str(&row[1].text(0).unwrap()).unwrap();
        assert_eq!(
            kept,
            serde_json::json!({
                "certname": "a.example", "resource": "r2", "type": "Sshkey", "title": "a",
                "exported": true, "tags": ["sshkey"], "file": null, "line": null,
                "environment": "production", "parameters": {"key": "AAAA"}
            })
        );
        // The facts, kept by name, still go with their node.
        db.batch("PRAGMA foreign_keys = ON; DELETE FROM factsets WHERE certname = 'a.example';")
            .unwrap();
        let left = db
            .query_one("SELECT count(*) FROM fact_values", &[])
            .unwrap()
            .and_then(|row| row.int(0));
        assert_eq!(left, Some(0));
        let version = db
            .query_one("SELECT MAX(version) FROM schema_migrations", &[])
            .unwrap()
            .and_then(|row| row.int(0));
        assert_eq!(version, Some(CURRENT as i64));
        // Again: nothing to do.
        migrate(&mut db).unwrap();
    }
}
