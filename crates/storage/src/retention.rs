//! How long the store keeps what it is sent, as PuppetDB's `node-ttl`,
//! `node-purge-ttl` and `report-ttl` settings say: a node nothing was
//! heard from (facts, catalog or report, by their producer timestamps)
//! for `node-ttl` is expired (inactive, as if deactivated, until it is
//! heard from again); a node deactivated or expired for `node-purge-ttl`
//! is deleted with everything kept of it; a report produced more than
//! `report-ttl` ago is deleted, and the resource events of one produced
//! more than `resource-events-ttl` ago (the report stays, without them).
//! At most `node-purge-gc-batch-limit` nodes are purged at a time, the
//! longest gone first. The caller applies it when it opens the store and
//! then periodically ([`Store::collect_garbage`]); PuppetDB's admin
//! commands run some of it on demand ([`Store::clean`]) or delete one node
//! ([`Store::delete_node`]).

use std::time::Duration;

use marionette_values::time::Timestamp;

use crate::db::{Db, DbError, params};
use crate::{Store, StoreError};

/// The retention settings; `None` keeps forever (PuppetDB's `0s`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retention {
    pub node_ttl: Option<Duration>,
    pub node_purge_ttl: Option<Duration>,
    pub report_ttl: Option<Duration>,
    /// PuppetDB's default is the report TTL.
    pub resource_events_ttl: Option<Duration>,
    /// The most nodes one collection purges (PuppetDB's
    /// `node-purge-gc-batch-limit`); 0 purges every one due.
    pub node_purge_batch_limit: usize,
}

impl Default for Retention {
    /// PuppetDB's defaults: nodes expire after 7 days without news and
    /// are purged 14 days after; reports and their events are kept 14
    /// days.
    fn default() -> Retention {
        const DAY: u64 = 24 * 60 * 60;
        Retention {
            node_ttl: Some(Duration::from_secs(7 * DAY)),
            node_purge_ttl: Some(Duration::from_secs(14 * DAY)),
            report_ttl: Some(Duration::from_secs(14 * DAY)),
            resource_events_ttl: Some(Duration::from_secs(14 * DAY)),
            node_purge_batch_limit: 25,
        }
    }
}

/// Which parts of a collection to run, as PuppetDB's admin `clean`
/// command names them (`expire_nodes`, `purge_nodes`, `purge_reports`,
/// `purge_resource_events`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operations {
    pub expire_nodes: bool,
    pub purge_nodes: bool,
    /// The most nodes purged this time, instead of the retention's limit
    /// (the command's `batch_limit`).
    pub purge_batch_limit: Option<usize>,
    pub purge_reports: bool,
    pub purge_resource_events: bool,
}

impl Operations {
    /// Every part: a periodic collection.
    pub fn all() -> Operations {
        Operations {
            expire_nodes: true,
            purge_nodes: true,
            purge_batch_limit: None,
            purge_reports: true,
            purge_resource_events: true,
        }
    }

    /// None yet, for a command to name its own.
    pub fn none() -> Operations {
        Operations {
            expire_nodes: false,
            purge_nodes: false,
            purge_batch_limit: None,
            purge_reports: false,
            purge_resource_events: false,
        }
    }
}

/// What one collection did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Collected {
    /// Nodes newly expired.
    pub expired: usize,
    /// Nodes deleted.
    pub purged: usize,
    /// Reports deleted.
    pub reports: usize,
    /// Reports whose resource events were deleted.
    pub events: usize,
}

/// A PuppetDB duration (`7d`, `14d`, `1h`, `30m`, `45s`, `500ms`) of the
/// setting `setting`; `0s` (any zero) is `None`: keep forever.
pub fn parse_ttl(setting: &str, text: &str) -> Result<Option<Duration>, StoreError> {
    let wrong = || StoreError::Setting {
        setting: setting.to_string(),
        message: format!(
            "'{text}' is not a duration: a whole number with d, h, m, s or ms (such as 14d)"
        ),
    };
    let text = text.trim();
    let digits = text.find(|c: char| !c.is_ascii_digit()).ok_or_else(wrong)?;
    let count: u64 = text[..digits].parse().map_err(|_| wrong())?;
    let unit_ms: u64 = match &text[digits..] {
        "d" => 24 * 60 * 60 * 1000,
        "h" => 60 * 60 * 1000,
        "m" => 60 * 1000,
        "s" => 1000,
        "ms" => 1,
        _ => return Err(wrong()),
    };
    let ms = count.checked_mul(unit_ms).ok_or_else(wrong)?;
    Ok((ms > 0).then(|| Duration::from_millis(ms)))
}

/// The time `ttl` before `now`, as the store writes times.
fn before(now: Timestamp, ttl: Duration) -> String {
    let nanos = i64::try_from(ttl.as_nanos()).unwrap_or(i64::MAX);
    Timestamp(now.0.saturating_sub(nanos)).format("%Y-%m-%dT%H:%M:%S.%LZ")
}

impl Store {
    /// Expires, purges and deletes what `retention` no longer keeps, in
    /// one transaction.
    pub fn collect_garbage(&self, retention: &Retention) -> Result<Collected, StoreError> {
        self.clean(retention, &Operations::all())
    }

    /// The parts of a collection `operations` names, in one transaction.
    pub fn clean(
        &self,
        retention: &Retention,
        operations: &Operations,
    ) -> Result<Collected, StoreError> {
        let now = Timestamp::now();
        let mut db = self.connection();
        db.transaction(|db| -> Result<Collected, DbError> {
            let mut collected = Collected::default();
            if let (true, Some(ttl)) = (operations.purge_reports, retention.report_ttl) {
                collected.reports = db.execute(
                    "DELETE FROM reports WHERE producer_timestamp < ?1",
                    params![before(now, ttl)],
                )?;
                // A node whose latest report went has none to show.
                db.execute(
                    &crate::store::report_summary(
                        "report_hash IS NOT NULL AND NOT EXISTS
                            (SELECT 1 FROM latest_reports l
                             WHERE l.certname = certnames.certname)",
                    ),
                    &[],
                )?;
            }
            if let (true, Some(ttl)) = (
                operations.purge_resource_events,
                retention.resource_events_ttl,
            ) {
                // A run's events happen before its report is produced: a
                // report produced before the cutoff has only older events
                // (PuppetDB drops them by the day they happened).
                collected.events = db.execute(
                    "UPDATE reports SET resource_events = '[]'
                     WHERE producer_timestamp < ?1 AND resource_events <> '[]'",
                    params![before(now, ttl)],
                )?;
                // And the copy kept of each node's latest report's.
                db.execute(
                    "UPDATE latest_reports SET resource_events = '[]'
                     WHERE resource_events <> '[]' AND EXISTS
                        (SELECT 1 FROM reports r
                         WHERE r.hash = latest_reports.hash AND r.producer_timestamp < ?1)",
                    params![before(now, ttl)],
                )?;
            }
            if let (true, Some(ttl)) = (operations.expire_nodes, retention.node_ttl) {
                collected.expired =
                    expire(db, &now.format("%Y-%m-%dT%H:%M:%S.%LZ"), &before(now, ttl))?;
            }
            if let (true, Some(ttl)) = (operations.purge_nodes, retention.node_purge_ttl) {
                let limit = operations
                    .purge_batch_limit
                    .unwrap_or(retention.node_purge_batch_limit);
                collected.purged = purge(db, &before(now, ttl), limit)?;
            }
            Ok(collected)
        })
        .inspect(|_| self.changed())
        .map_err(|e| self.failed(e))
    }

    /// Deletes a node and everything kept of it at once (PuppetDB's admin
    /// `delete`); whether it was known.
    pub fn delete_node(&self, certname: &str) -> Result<bool, StoreError> {
        let mut db = self.connection();
        db.transaction(|db| {
            db.execute(
                "DELETE FROM certnames WHERE certname = ?1",
                params![certname],
            )
        })
        .inspect(|_| self.changed())
        .map(|deleted| deleted > 0)
        .map_err(|e| self.failed(e))
    }
}

/// Deletes the nodes deactivated or expired before `cutoff`, at most
/// `limit` of them (0: all), those gone longest first; facts, catalogs
/// and reports go with them (ON DELETE CASCADE).
fn purge(db: &mut Db, cutoff: &str, limit: usize) -> Result<usize, DbError> {
    let due = "SELECT certname FROM certnames WHERE deactivated < ?1 OR expired < ?1
               ORDER BY COALESCE(deactivated, expired), certname";
    if limit == 0 {
        return db.execute(
            &format!("DELETE FROM certnames WHERE certname IN ({due})"),
            params![cutoff],
        );
    }
    db.execute(
        &format!("DELETE FROM certnames WHERE certname IN ({due} LIMIT ?2)"),
        params![cutoff, i64::try_from(limit).unwrap_or(i64::MAX)],
    )
}

/// Expires, at `now`, the active nodes whose latest news (the latest of
/// their facts', catalog's and latest report's producer timestamps) is
/// older than `cutoff`.
fn expire(db: &mut Db, now: &str, cutoff: &str) -> Result<usize, DbError> {
    let stale = db.query(
        "SELECT c.certname, f.producer_timestamp, k.producer_timestamp, r.producer_timestamp
         FROM certnames c
         LEFT JOIN factsets f ON f.certname = c.certname
         LEFT JOIN catalogs k ON k.certname = c.certname
         LEFT JOIN latest_reports l ON l.certname = c.certname
         LEFT JOIN reports r ON r.hash = l.hash
         WHERE c.deactivated IS NULL AND c.expired IS NULL",
        &[],
    )?;
    let mut expired = 0;
    for row in stale {
        let latest = (1..=3)
            .filter_map(|i| row.text(i))
            .max()
            .unwrap_or_default();
        if latest.as_str() < cutoff {
            expired += db.execute(
                "UPDATE certnames SET expired = ?1
                 WHERE certname = ?2 AND deactivated IS NULL AND expired IS NULL",
                params![now, row.text(0)],
            )?;
        }
    }
    Ok(expired)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_as_puppetdb_writes_them() {
        let ttl = |t: &str| parse_ttl("node-ttl", t);
        assert_eq!(ttl("7d").unwrap(), Some(Duration::from_secs(7 * 86400)));
        assert_eq!(ttl("14d").unwrap(), Some(Duration::from_secs(14 * 86400)));
        assert_eq!(ttl("1h").unwrap(), Some(Duration::from_secs(3600)));
        assert_eq!(ttl("30m").unwrap(), Some(Duration::from_secs(1800)));
        assert_eq!(ttl(" 45s ").unwrap(), Some(Duration::from_secs(45)));
        assert_eq!(ttl("500ms").unwrap(), Some(Duration::from_millis(500)));
        assert_eq!(ttl("0s").unwrap(), None);
        assert_eq!(ttl("0d").unwrap(), None);
        for bad in ["", "7", "d", "7w", "-1d", "1.5h", "99999999999999999999d"] {
            let error = ttl(bad).unwrap_err();
            assert!(error.to_string().contains("node-ttl"), "{bad}: {error}");
            assert!(error.is_bad_request(), "{bad}: {error}");
        }
    }

    #[test]
    fn cutoffs_are_times_before_now() {
        let now = Timestamp::parse("2026-11-29T12:00:00.000Z").unwrap();
        assert_eq!(
            before(now, Duration::from_secs(86400)),
            "2026-11-28T12:00:00.000Z"
        );
        assert_eq!(
            before(now, Duration::from_millis(1)),
            "2026-11-29T11:59:59.999Z"
        );
    }
}
