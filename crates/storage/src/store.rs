//! The store: a database (SQLite, or PostgreSQL), PuppetDB's commands
//! into it, and its entities' rows out of it.

use std::path::Path;
use std::sync::Mutex;

use marionette_values::time::Timestamp;
use serde_json::{Map, Value, json};
use sha1::Digest;

use crate::db::{Db, DbError, params};
use crate::query::{self, Expr, Extract, Paging};
use crate::row::Row;
use crate::shape;
use crate::{StoreError, schema};

/// A node store. Cheap to share behind an `Arc`: commands and queries
/// take turns on one connection (SQLite writes one at a time anyway),
/// and each is short.
pub struct Store {
    /// The database's file, or its URL without its password.
    path: String,
    connection: Mutex<Db>,
    /// SQLite connections that only read: in WAL mode each reads while
    /// the others read and one writes, so one user's fleet-wide query
    /// does not hold up the others'. None on PostgreSQL, whose one
    /// connection serves both.
    readers: Option<crate::readers::Readers>,
    /// Where commands wait while the database is unavailable.
    queue: Option<crate::queue::Queue>,
    /// Changes this process made, for what is kept computed from the
    /// stored data.
    writes: std::sync::atomic::AtomicU64,
    /// The population last counted: when, after how many changes, and
    /// whether with its distinct resources.
    population: Mutex<Option<(std::time::Instant, u64, crate::meta::Population, bool)>>,
}

/// How long counted population metrics serve (PuppetDB counts them
/// periodically too): changes this process makes count again at once,
/// another server's on the same database within this time.
const POPULATION_KEPT: std::time::Duration = std::time::Duration::from_secs(5);

/// A PostgreSQL URL as it may be said: without its password.
fn without_password(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            let user = credentials.split(':').next().unwrap_or_default();
            format!("{}{user}{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_string(),
    }
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

/// The time now as PuppetDB prints times: UTC, milliseconds, `Z`.
pub(crate) fn now() -> String {
    Timestamp::now().format("%Y-%m-%dT%H:%M:%S.%LZ")
}

/// A time as PuppetDB prints it, from any ISO 8601 form; `None` when the
/// text is no time.
fn normalized(text: &str) -> Option<String> {
    Timestamp::parse(text).map(|t| t.format("%Y-%m-%dT%H:%M:%S.%LZ"))
}

fn sha1_hex(text: &str) -> String {
    sha1::Sha1::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Store {
    /// Opens (creating it when missing) the database at `path`, and
    /// brings its schema to this version.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let failed = |message: String| StoreError::Database {
            path: path.display().to_string(),
            message,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| failed(e.to_string()))?;
        }
        let open = |pragmas: &str| -> Result<rusqlite::Connection, StoreError> {
            let connection = rusqlite::Connection::open(path).map_err(|e| failed(e.to_string()))?;
            connection
                .execute_batch(pragmas)
                .map_err(|e| failed(e.to_string()))?;
            Ok(connection)
        };
        // WAL lets queries read while a command writes; FULL makes each
        // committed command survive a power loss, not just a crash. A
        // fleet's queries read much of the file, which the system's own
        // cache keeps: 4 MB of SQLite's cache per connection answer
        // 10,000 nodes about as fast as 64 MB did, in a tenth of the
        // memory.
        // (Reading through a memory map was as fast, but makes every
        // page read count in the process's memory.)
        const READING: &str = "PRAGMA busy_timeout = 10000;
             PRAGMA cache_size = -4096;";
        let connection = open(&format!(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = FULL;
             PRAGMA foreign_keys = ON;
             {READING}"
        ))?;
        let mut db = Db::Sqlite(connection);
        schema::migrate(&mut db).map_err(failed)?;
        let readers = (0..Store::concurrent_reads())
            .map(|_| open(&format!("PRAGMA query_only = ON; {READING}")).map(Db::Sqlite))
            .collect::<Result<_, _>>()?;
        Ok(Store {
            path: path.display().to_string(),
            connection: Mutex::new(db),
            readers: Some(crate::readers::Readers::new(readers)),
            queue: None,
            writes: Default::default(),
            population: Mutex::default(),
        })
    }

    /// Connects to the PostgreSQL database at `url`
    /// (`postgresql://USER:PASSWORD@HOST:PORT/DATABASE`), and brings its
    /// schema to this version. A connection lost later is made again at
    /// the next command or query.
    pub fn connect(url: &str) -> Result<Store, StoreError> {
        let path = without_password(url);
        let failed = |message: String| StoreError::Database {
            path: path.clone(),
            message,
        };
        let mut db = Db::postgres(url).map_err(|e| StoreError::Unavailable {
            path: path.clone(),
            message: e.message,
        })?;
        schema::migrate(&mut db).map_err(failed)?;
        Ok(Store {
            path: path.clone(),
            connection: Mutex::new(db),
            readers: None,
            queue: None,
            writes: Default::default(),
            population: Mutex::default(),
        })
    }

    /// The store, with commands that find the database unavailable
    /// queued in `dir` (created when missing) rather than refused, and
    /// stored in order once it is back ([`Store::drain`]).
    pub fn with_queue(mut self, dir: &Path) -> Result<Store, StoreError> {
        let queue = crate::queue::Queue::open(dir).map_err(|e| StoreError::Database {
            path: dir.display().to_string(),
            message: e.to_string(),
        })?;
        self.queue = Some(queue);
        Ok(self)
    }

    /// How many commands wait in the queue.
    pub fn queued(&self) -> usize {
        self.queue.as_ref().map_or(0, crate::queue::Queue::len)
    }

    /// Stores the queued commands, oldest first, until the queue is empty
    /// (their number) or the database is still unavailable (an error). A
    /// queued command the store or the database refuses (malformed, or
    /// breaking a constraint) is set aside in the queue's `refused/`.
    pub fn drain(&self) -> Result<usize, StoreError> {
        let Some(queue) = &self.queue else {
            return Ok(0);
        };
        let _turn = queue.lock();
        let mut stored = 0;
        for entry in queue.entries().map_err(|e| self.queue_failed(queue, e))? {
            let command = match crate::queue::Queue::read(&entry) {
                Ok(command) => command,
                Err(_) => {
                    queue
                        .refuse(&entry)
                        .map_err(|e| self.queue_failed(queue, e))?;
                    continue;
                }
            };
            match self.store_now(
                &command.command,
                command.version,
                &command.certname,
                &command.payload,
            ) {
                Ok(()) => {
                    queue
                        .remove(&entry)
                        .map_err(|e| self.queue_failed(queue, e))?;
                    stored += 1;
                }
                Err(error @ StoreError::Unavailable { .. }) => return Err(error),
                // Refused by the database itself (not for being away): it
                // would be refused again, and must not hold up the rest.
                Err(_) => queue
                    .refuse(&entry)
                    .map_err(|e| self.queue_failed(queue, e))?,
            }
        }
        Ok(stored)
    }

    fn queue_failed(&self, queue: &crate::queue::Queue, error: std::io::Error) -> StoreError {
        StoreError::Database {
            path: queue.dir().display().to_string(),
            message: error.to_string(),
        }
    }

    /// The schema version the database is at.
    pub fn schema_version(&self) -> usize {
        schema::CURRENT
    }

    pub(crate) fn failed(&self, error: DbError) -> StoreError {
        if error.unavailable {
            StoreError::Unavailable {
                path: self.path.clone(),
                message: error.message,
            }
        } else {
            StoreError::Database {
                path: self.path.clone(),
                message: error.message,
            }
        }
    }

    pub(crate) fn connection(&self) -> std::sync::MutexGuard<'_, Db> {
        // A panic while holding the lock cannot leave a half-written
        // command: its transaction was never committed.
        self.connection.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many queries a store reads at once (on SQLite, its reading
    /// connections): one per core, two to four.
    pub fn concurrent_reads() -> usize {
        std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4))
    }

    /// A connection to read with: a free reader, else the first to come
    /// free, in the order queries asked; the one connection where there
    /// are no readers.
    pub(crate) fn reader(&self) -> crate::readers::Reading<'_> {
        match &self.readers {
            Some(readers) => crate::readers::Reading::Reader(readers.get()),
            None => crate::readers::Reading::Shared(self.connection()),
        }
    }

    /// Runs one of PuppetDB's commands, as `/pdb/cmd/v1` takes it: its
    /// name (`replace facts` or `replace_facts`), version, node and
    /// payload. The whole command is stored, or none of it; with a queue,
    /// a command that finds the database unavailable (or commands queued
    /// before it) is queued on disk instead, and is stored later, in
    /// order.
    pub fn submit(
        &self,
        command: &str,
        version: u32,
        certname: &str,
        payload: &Value,
    ) -> Result<(), StoreError> {
        let Some(queue) = &self.queue else {
            return self.store_now(command, version, certname, payload);
        };
        // Commands keep their order: while some wait, this one waits
        // behind them.
        if queue.len() > 0 && self.drain().is_err() {
            return self.enqueue(queue, command, version, certname, payload);
        }
        match self.store_now(command, version, certname, payload) {
            Err(StoreError::Unavailable { .. }) => {
                self.enqueue(queue, command, version, certname, payload)
            }
            other => other,
        }
    }

    fn enqueue(
        &self,
        queue: &crate::queue::Queue,
        command: &str,
        version: u32,
        certname: &str,
        payload: &Value,
    ) -> Result<(), StoreError> {
        // What can be refused without the database is refused now.
        check_command(command, version, payload)?;
        queue
            .push(&crate::queue::Queued {
                command: command.to_string(),
                version,
                certname: certname.to_string(),
                payload: payload.clone(),
            })
            .map_err(|e| self.queue_failed(queue, e))
    }

    fn store_now(
        &self,
        command: &str,
        version: u32,
        certname: &str,
        payload: &Value,
    ) -> Result<(), StoreError> {
        let name = command.replace('_', " ");
        let malformed = |message: &str| StoreError::Payload {
            command: name.clone(),
            message: message.to_string(),
        };
        let payload = payload
            .as_object()
            .ok_or_else(|| malformed("it is not a JSON object"))?;
        let certname = payload
            .get("certname")
            .and_then(Value::as_str)
            .unwrap_or(certname);
        if certname.is_empty() {
            return Err(malformed("it names no certname"));
        }
        let store: Command = match (name.as_str(), version) {
            ("replace facts", 4 | 5) => replace_facts,
            ("replace catalog", 8 | 9) => replace_catalog,
            ("store report", 7 | 8) => store_report,
            ("deactivate node", 3) => deactivate,
            _ => {
                return Err(StoreError::UnknownCommand {
                    command: command.to_string(),
                    version,
                });
            }
        };
        let mut db = self.connection();
        match db.transaction(|db| store(db, certname, payload)) {
            Ok(()) => {
                self.changed();
                Ok(())
            }
            Err(Failure::Sql(e)) => Err(self.failed(e)),
            Err(Failure::Payload(message)) => Err(malformed(&message)),
        }
    }

    /// Answers a PuppetDB v4 query of `entity` (`nodes`, `facts`, ...):
    /// the rows, as PuppetDB returns them.
    pub fn query(
        &self,
        entity: &str,
        ast: Option<&Value>,
        paging: &Paging,
    ) -> Result<Vec<Value>, StoreError> {
        let mut extract = Store::extract(entity, ast, paging)?;
        let answer = self.run(&mut extract, paging)?;
        if entity == "fact-names" && extract.fields.is_none() {
            // PuppetDB answers fact names as a plain list.
            return Ok(answer
                .into_iter()
                .filter_map(|row| row.get("name").cloned())
                .collect());
        }
        Ok(answer)
    }

    /// Writes the answer of a PuppetDB v4 query ([`Store::query`]) to
    /// `out` as the JSON list PuppetDB answers, and tells how many rows
    /// it holds and, when `total` asks, how many there are without the
    /// paging's limit and offset (`X-Records`). A query that needs no
    /// sorting or grouping is written row by row as the database reads
    /// them: a fleet's answer is never all in memory at once. On an
    /// error, what was written is to be thrown away.
    pub fn query_to(
        &self,
        entity: &str,
        ast: Option<&Value>,
        paging: &Paging,
        total: bool,
        out: &mut dyn std::io::Write,
    ) -> Result<Written, StoreError> {
        let written = |e: std::io::Error| StoreError::Write(e.to_string());
        let mut list = List::new(out).map_err(written)?;
        let extract = Store::extract(entity, ast, paging)?;
        if let Some(narrowed) = query::narrowed(entity, &extract, paging) {
            self.write_narrowed(entity, &narrowed, &mut list)?;
            let rows = list.end().map_err(written)?;
            return Ok(Written {
                rows,
                total: total.then_some(rows),
            });
        }
        if !Store::streams(entity, &extract, paging) {
            let answer = self.query(entity, ast, paging)?;
            for row in &answer {
                if !list.push(row) {
                    break;
                }
            }
            let rows = list.end().map_err(written)?;
            let total = match total {
                true if paging.limit.is_none() && paging.offset == 0 => Some(rows),
                true => Some(self.query(entity, ast, &Paging::default())?.len()),
                false => None,
            };
            return Ok(Written { rows, total });
        }
        let counted = self.answer_each(entity, ast, paging, total, &mut |row| list.push(&row))?;
        let rows = list.end().map_err(written)?;
        Ok(Written {
            rows,
            total: counted,
        })
    }

    /// Writes the answer of a query the database alone narrows
    /// ([`query::narrowed`]) straight from its rows, active nodes' alone,
    /// as the engine would answer them ([`shape`]).
    fn write_narrowed(
        &self,
        entity: &str,
        narrowed: &query::Narrowed,
        list: &mut List,
    ) -> Result<(), StoreError> {
        let mut guard = self.reader();
        let connection = &mut *guard;
        let certname = narrowed.certname.as_deref();
        let read = match entity {
            "nodes" => {
                let environment = narrowed.catalog_environment.as_deref();
                let status = narrowed.latest_report_status.as_deref();
                let and = format!(
                    "{ACTIVE} AND {} AND {}",
                    given("c.catalog_environment", 2, environment.is_some()),
                    given("c.report_status", 3, status.is_some())
                );
                // Each node's answer is kept whole on its row (migration
                // 8), as `shape::NODE`'s fields would write it.
                connection.query_each_columns(
                    &nodes_select("c.answer", certname.is_some(), &and),
                    params![certname, environment, status],
                    &mut |columns| list.push(&shape::Kept(columns, 0)),
                )
            }
            "facts" => {
                // A fact's values across the fleet: its rows, in node
                // order (`fact_values`' key), merged with the active nodes
                // and their facts' environments where SQLite can.
                let name = narrowed.name.as_deref();
                let sql = |join: bool| {
                    format!(
                        "SELECT v.certname, v.name, v.value, {}
                         FROM fact_values v {}
                         WHERE v.name = ?2 AND ({}){}
                         ORDER BY v.certname",
                        if join { "c.facts_environment" } else { "NULL" },
                        if join {
                            "JOIN certnames c ON c.certname = v.certname"
                        } else {
                            ""
                        },
                        given("v.certname", 1, certname.is_some()),
                        if join { ACTIVE } else { "" }
                    )
                };
                let merged = certname.is_none()
                    && connection
                        .query_each_columns_merged(
                            &sql(false),
                            params![certname, name],
                            &active_nodes_sql("facts_environment"),
                            &mut |columns, environment| {
                                let columns = shape::With(columns, 3, environment);
                                list.push(&shape::Fields(shape::FACT, &columns))
                            },
                        )
                        .map_err(|e| self.failed(e))?;
                if merged {
                    Ok(())
                } else {
                    connection.query_each_columns(
                        &sql(true),
                        params![certname, name],
                        &mut |columns| list.push(&shape::Fields(shape::FACT, columns)),
                    )
                }
            }
            _ => {
                let (type_name, exported) = (narrowed.type_name.as_deref(), narrowed.exported);
                // Exported resources, which every collecting compile and
                // Puppetboard ask for fleet-wide, keep their answer whole
                // (migration 8); others are written from their columns.
                let kept = exported == Some(true);
                let sql = |nodes| {
                    resources_sql(
                        certname.is_some(),
                        type_name.is_some(),
                        exported,
                        nodes,
                        kept,
                    )
                };
                let mut write = |columns: &dyn crate::db::Columns| match kept {
                    true => list.push(&shape::Kept(columns, 1)),
                    false => list.push(&shape::Fields(shape::RESOURCE, columns)),
                };
                // Every node's resources (a type's, exported ones) are
                // merged with the active nodes where SQLite can; one
                // node's are joined.
                let merged = certname.is_none()
                    && connection
                        .query_each_columns_merged(
                            &sql(Nodes::Apart),
                            params![certname, type_name, exported],
                            &active_nodes_sql("catalog_environment"),
                            &mut |columns, environment| {
                                write(&shape::With(columns, 8, environment))
                            },
                        )
                        .map_err(|e| self.failed(e))?;
                if merged {
                    Ok(())
                } else {
                    connection.query_each_columns(
                        &sql(Nodes::Active),
                        params![certname, type_name, exported],
                        &mut write,
                    )
                }
            }
        };
        read.map_err(|e| self.failed(e))
    }

    /// Hands `each` every node's latest report's events, as the JSON
    /// list they are kept as, with the node's name, in name order, until
    /// it answers false.
    pub(crate) fn latest_events(
        &self,
        each: &mut dyn FnMut(&str, &str) -> bool,
    ) -> Result<(), StoreError> {
        let mut guard = self.reader();
        (*guard)
            .query_each_columns(
                "SELECT r.certname, r.resource_events FROM latest_reports r ORDER BY r.certname",
                &[],
                &mut |columns| {
                    let text = |index| match columns.column(index) {
                        crate::db::ColumnRef::Text(text) => text,
                        _ => std::borrow::Cow::Borrowed(""),
                    };
                    each(&text(0), &text(1))
                },
            )
            .map_err(|e| self.failed(e))
    }

    /// Whether a query's answer is written as its rows are read: it
    /// needs no sorting or grouping (and is not the fact names' plain
    /// list of names).
    fn streams(entity: &str, extract: &Extract, paging: &Paging) -> bool {
        query::streams(extract, paging) && entity != "fact-names"
    }

    /// Hands the rows of a query's answer ([`Store::query`]) to `each`,
    /// until it answers false: as the database reads them when the query
    /// needs no sorting or grouping, and then, when `count` asks, reading
    /// on past the paging's limit to tell how many rows match (the
    /// count), without handing them.
    pub(crate) fn answer_each(
        &self,
        entity: &str,
        ast: Option<&Value>,
        paging: &Paging,
        count: bool,
        each: &mut dyn FnMut(Row) -> bool,
    ) -> Result<Option<usize>, StoreError> {
        let mut extract = Store::extract(entity, ast, paging)?;
        if !Store::streams(entity, &extract, paging) {
            for row in self.query(entity, ast, paging)? {
                let Value::Object(row) = row else { continue };
                if !each(Row::from(row)) {
                    break;
                }
            }
            return Ok(None);
        }
        let shape = extract.clone();
        let limit = paging.limit.unwrap_or(usize::MAX);
        let (mut seen, mut handed, mut stopped) = (0, 0, false);
        self.scan(&mut extract, &mut |row| {
            seen += 1;
            if seen > paging.offset && handed < limit && !stopped {
                handed += 1;
                stopped = !each(query::shaped(&shape, row));
            }
            !stopped && (count || handed < limit)
        })?;
        Ok((count && !stopped).then_some(seen))
    }

    /// The extract a query of `entity` asks, its paging checked.
    fn extract(entity: &str, ast: Option<&Value>, paging: &Paging) -> Result<Extract, StoreError> {
        if matches!(entity, "event-counts" | "aggregate-event-counts") {
            // Asked through `event_counts`, which takes what to count.
            return Err(StoreError::Query(
                "Missing required query parameter 'summarize_by'".into(),
            ));
        }
        if query::fields_of(entity).is_none() {
            return Err(StoreError::UnknownEntity(entity.to_string()));
        }
        if let Some((field, _)) = paging.order_by.iter().find(|(field, _)| {
            !query::fields_of(entity)
                .unwrap_or(&[])
                .contains(&field.as_str())
        }) {
            return Err(StoreError::Query(format!(
                "Unrecognized column '{field}' specified in :order_by; Supported columns are '{}'",
                query::fields_of(entity).unwrap_or(&[]).join("', '")
            )));
        }
        query::parse(entity, ast)
    }

    /// Whether the database answers.
    pub fn is_up(&self) -> bool {
        self.connection()
            .query("SELECT count(*) FROM schema_migrations", &[])
            .is_ok()
    }

    /// Notes a change this process made to what is stored.
    pub(crate) fn changed(&self) {
        self.writes
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// How many nodes and resources are kept, for PuppetDB's population
    /// metrics, distinct resources included.
    pub fn population(&self) -> Result<crate::meta::Population, StoreError> {
        self.population_counted(true)
    }

    /// The population metrics, counted again after a change made here,
    /// or after [`POPULATION_KEPT`]; the distinct resources only when
    /// `distinct` asks them (counting them reads every active catalog's
    /// resources, which a fleet's dashboards must not wait for at every
    /// page), else as last counted.
    pub(crate) fn population_counted(
        &self,
        distinct: bool,
    ) -> Result<crate::meta::Population, StoreError> {
        let writes = self.writes.load(std::sync::atomic::Ordering::Relaxed);
        let kept = *self.population.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, counted_after, population, with_distinct)) = kept
            && counted_after == writes
            && at.elapsed() < POPULATION_KEPT
            && (with_distinct || !distinct)
        {
            return Ok(population);
        }
        let mut population = self.count_population(distinct)?;
        if !distinct && let Some((.., earlier, _)) = kept {
            population.distinct_resources = earlier.distinct_resources;
        }
        *self.population.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((std::time::Instant::now(), writes, population, distinct));
        Ok(population)
    }

    fn count_population(&self, distinct: bool) -> Result<crate::meta::Population, StoreError> {
        let mut db = self.reader();
        let mut count = |sql: &str| -> Result<u64, StoreError> {
            let row = db.query_one(sql, &[]).map_err(|e| self.failed(e))?;
            Ok(row
                .and_then(|row| row.int(0))
                .map_or(0, |n| u64::try_from(n).unwrap_or(0)))
        };
        let active = "c.deactivated IS NULL AND c.expired IS NULL";
        Ok(crate::meta::Population {
            active_nodes: count(&format!("SELECT count(*) FROM certnames c WHERE {active}"))?,
            inactive_nodes: count(&format!(
                "SELECT count(*) FROM certnames c WHERE NOT ({active})"
            ))?,
            resources: count(&format!(
                "SELECT CAST(COALESCE(sum(c.catalog_resource_count), 0) AS BIGINT)
                 FROM certnames c WHERE {active}"
            ))?,
            distinct_resources: if distinct {
                count(&format!(
                    "SELECT count(DISTINCT r.resource) FROM catalog_resources r
                     JOIN certnames c ON c.certname = r.certname WHERE {active}"
                ))?
            } else {
                0
            },
        })
    }

    fn run(&self, extract: &mut Extract, paging: &Paging) -> Result<Vec<Value>, StoreError> {
        let mut matching = Vec::new();
        self.scan(extract, &mut |row| {
            matching.push(row);
            true
        })?;
        Ok(query::finish(extract, matching, paging))
    }

    /// Hands the rows the extract's filter matches to `each`, as they
    /// are read, until it answers false; its subqueries answered first.
    fn scan(&self, extract: &mut Extract, each: Each) -> Result<(), StoreError> {
        if let Some(filter) = &mut extract.filter {
            filter.resolve(&mut |sub| {
                let mut sub = sub.clone();
                let paging = sub.paging.clone();
                self.run(&mut sub, &paging)
            })?;
        }
        let every_node = extract
            .filter
            .as_ref()
            .is_some_and(Expr::mentions_node_state);
        let follows_node = query::follows_node_state(&extract.entity);
        let filter = extract.filter.as_ref();
        self.rows(
            &extract.entity,
            filter,
            extract.mentions_facts(),
            &mut |row| {
                let kept = every_node
                    || !follows_node
                    || row.get("_node_state").and_then(Value::as_str) != Some("inactive");
                if kept && filter.is_none_or(|f| f.matches(&row)) {
                    each(row)
                } else {
                    true
                }
            },
        )
    }

    /// Hands the entity's rows to `each`, narrowed by what the filter
    /// requires of the node, (for resources) the type or (for facts) the
    /// name when it says; nodes carry their facts only when the query
    /// reads them.
    fn rows(
        &self,
        entity: &str,
        filter: Option<&Expr>,
        with_facts: bool,
        each: Each,
    ) -> Result<(), StoreError> {
        let certname = filter
            .and_then(|f| f.required("certname"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let latest = filter
            .and_then(|f| f.required("latest_report?"))
            .and_then(Value::as_bool);
        let mut guard = self.reader();
        let connection = &mut *guard;
        let read = match entity {
            "nodes" => nodes(connection, certname.as_deref(), with_facts, each),
            "facts" => {
                let name = filter
                    .and_then(|f| f.required("name"))
                    .and_then(Value::as_str)
                    .map(str::to_string);
                facts(connection, certname.as_deref(), name.as_deref(), each)
            }
            "fact-names" => handed(fact_names(connection), each),
            "environments" => handed(environments(connection), each),
            "resources" => {
                let type_name = filter
                    .and_then(|f| f.required("type"))
                    .and_then(Value::as_str)
                    .map(str::to_string);
                let exported = filter
                    .and_then(|f| f.required("exported"))
                    .and_then(Value::as_bool);
                resources(
                    connection,
                    certname.as_deref(),
                    type_name.as_deref(),
                    exported,
                    each,
                )
            }
            "catalogs" => handed(catalogs(connection, certname.as_deref()), each),
            "reports" => reports(connection, certname.as_deref(), latest, each),
            "events" => events(connection, certname.as_deref(), latest, each),
            "fact-contents" => handed(fact_contents(connection, certname.as_deref()), each),
            "fact-paths" => handed(fact_paths(connection), each),
            "inventory" => inventory(connection, certname.as_deref(), each),
            "producers" => handed(producers(connection), each),
            "packages" => handed(packages(connection), each),
            "package-inventory" => handed(package_inventory(connection, certname.as_deref()), each),
            other => return Err(StoreError::UnknownEntity(other.to_string())),
        };
        read.map_err(|e| self.failed(e))
    }
}

/// A JSON list written item by item ([`Store::query_to`]).
struct List<'a> {
    // JSON is written in small pieces, each a call of what `out` is (a
    // compressor, often): gathered first.
    out: std::io::BufWriter<&'a mut dyn std::io::Write>,
    items: usize,
    failed: Option<std::io::Error>,
}

impl<'a> List<'a> {
    fn new(out: &'a mut dyn std::io::Write) -> std::io::Result<List<'a>> {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
        std::io::Write::write_all(&mut out, b"[")?;
        Ok(List {
            out,
            items: 0,
            failed: None,
        })
    }

    /// Writes an item; false once writing failed.
    fn push(&mut self, item: &impl crate::row::WriteJson) -> bool {
        use std::io::Write as _;
        let separated = if self.items == 0 {
            Ok(())
        } else {
            self.out.write_all(b",")
        };
        match separated.and_then(|()| item.write_json(&mut self.out)) {
            Ok(()) => {
                self.items += 1;
                true
            }
            Err(e) => {
                self.failed = Some(e);
                false
            }
        }
    }

    /// Closes the list; how many items it holds.
    fn end(mut self) -> std::io::Result<usize> {
        use std::io::Write as _;
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.out.write_all(b"]")?;
        self.out.flush()?;
        Ok(self.items)
    }
}

/// What [`Store::query_to`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// The rows answered.
    pub rows: usize,
    /// The rows there are without the paging's limit and offset, when
    /// asked.
    pub total: Option<usize>,
}

/// A text column, empty when NULL.
fn text_or_empty(row: &crate::db::Row, index: usize) -> Value {
    Value::String(row.text(index).unwrap_or_default())
}

/// Refuses what is no command this store runs, or no payload of one,
/// without asking the database.
fn check_command(command: &str, version: u32, payload: &Value) -> Result<(), StoreError> {
    let name = command.replace('_', " ");
    if !matches!(
        (name.as_str(), version),
        ("replace facts", 4 | 5)
            | ("replace catalog", 8 | 9)
            | ("store report", 7 | 8)
            | ("deactivate node", 3)
    ) {
        return Err(StoreError::UnknownCommand {
            command: command.to_string(),
            version,
        });
    }
    if !payload.is_object() {
        return Err(StoreError::Payload {
            command: name,
            message: "it is not a JSON object".into(),
        });
    }
    Ok(())
}

/// Why a command was not stored.
enum Failure {
    Sql(DbError),
    Payload(String),
}

impl From<DbError> for Failure {
    fn from(e: DbError) -> Failure {
        Failure::Sql(e)
    }
}

/// A command's work in its transaction: the node, the payload.
type Command = fn(&mut Db, &str, &Map<String, Value>) -> Result<(), Failure>;

/// The rows of the store's own reads.
type Rows = Result<Vec<Row>, DbError>;

/// Where the store's reads hand their rows, one by one as they are read;
/// it answers false to stop the reading.
type Each<'a> = &'a mut dyn FnMut(Row) -> bool;

/// What a read hands on, collected.
fn collected(read: impl FnOnce(Each) -> Result<(), DbError>) -> Rows {
    let mut rows = Vec::new();
    read(&mut |row| {
        rows.push(row);
        true
    })?;
    Ok(rows)
}

/// Hands collected rows on, as a read that streams would.
fn handed(rows: Rows, each: Each) -> Result<(), DbError> {
    for row in rows? {
        if !each(row) {
            break;
        }
    }
    Ok(())
}

fn text<'a>(payload: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    payload.get(key).and_then(Value::as_str)
}

/// The command's `producer_timestamp`, as PuppetDB prints times; now when
/// it has none.
fn produced(payload: &Map<String, Value>) -> Result<String, Failure> {
    match text(payload, "producer_timestamp") {
        Some(given) => normalized(given)
            .ok_or_else(|| Failure::Payload(format!("'{given}' is not a producer_timestamp"))),
        None => Ok(now()),
    }
}

/// Makes sure the node exists; a command newer than the node's
/// deactivation makes it active again, as in PuppetDB.
fn touch_node(transaction: &mut Db, certname: &str, produced: &str) -> Result<(), Failure> {
    transaction.execute(
        "INSERT INTO certnames (certname) VALUES (?1) ON CONFLICT DO NOTHING",
        params![certname],
    )?;
    transaction.execute(
        "UPDATE certnames SET deactivated = NULL, expired = NULL
         WHERE certname = ?1 AND (deactivated < ?2 OR expired IS NOT NULL)",
        params![certname, produced],
    )?;
    Ok(())
}

/// Whether what is stored for the node in `table` was produced after
/// `produced`: then the command is stale and PuppetDB ignores it.
fn newer_stored(
    transaction: &mut Db,
    table: &str,
    certname: &str,
    produced: &str,
) -> Result<bool, Failure> {
    let stored: Option<String> = transaction
        .query_one(
            &format!("SELECT producer_timestamp FROM {table} WHERE certname = ?1"),
            params![certname],
        )?
        .and_then(|row| row.text(0));
    Ok(stored.is_some_and(|stored| stored.as_str() > produced))
}

fn replace_facts(
    transaction: &mut Db,
    certname: &str,
    payload: &Map<String, Value>,
) -> Result<(), Failure> {
    let produced = produced(payload)?;
    let values = payload
        .get("values")
        .and_then(Value::as_object)
        .ok_or_else(|| Failure::Payload("it has no 'values' object".into()))?;
    touch_node(transaction, certname, &produced)?;
    if newer_stored(transaction, "factsets", certname, &produced)? {
        return Ok(());
    }
    let facts = Value::Object(values.clone()).to_string();
    let stored_at = now();
    transaction.execute(
        "INSERT INTO factsets
            (certname, environment, producer_timestamp, timestamp, producer, hash, facts,
             package_inventory)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (certname) DO UPDATE SET
            environment = excluded.environment,
            producer_timestamp = excluded.producer_timestamp,
            timestamp = excluded.timestamp, producer = excluded.producer,
            hash = excluded.hash, facts = excluded.facts,
            package_inventory = COALESCE(excluded.package_inventory,
                                         factsets.package_inventory)",
        params![
            certname,
            text(payload, "environment"),
            produced,
            &stored_at,
            text(payload, "producer"),
            sha1_hex(&facts),
            facts,
            // Kept when a command lists none, as PuppetDB keeps it.
            payload
                .get("package_inventory")
                .filter(|p| p.is_array())
                .map(Value::to_string)
        ],
    )?;
    transaction.execute(
        "UPDATE certnames SET facts_timestamp = ?2, facts_environment = ?3 WHERE certname = ?1",
        params![certname, &stored_at, text(payload, "environment")],
    )?;
    // Only what changed is written: from run to run most of a node's
    // facts are the same, and rewriting them all is most of a command's
    // writes (PuppetDB stores fact sets by difference too).
    let mut stored: std::collections::HashMap<String, String> = transaction
        .query(
            "SELECT name, value FROM fact_values WHERE certname = ?1",
            params![certname],
        )?
        .into_iter()
        .filter_map(|row| Some((row.text(0)?, row.text(1)?)))
        .collect();
    for (name, value) in values {
        let value = value.to_string();
        match stored.remove(name) {
            Some(old) if old == value => {}
            Some(_) => {
                transaction.execute(
                    "UPDATE fact_values SET value = ?3 WHERE certname = ?1 AND name = ?2",
                    params![certname, name, value],
                )?;
            }
            None => {
                transaction.execute(
                    "INSERT INTO fact_values (certname, name, value) VALUES (?1, ?2, ?3)",
                    params![certname, name, value],
                )?;
            }
        }
    }
    for name in stored.keys() {
        transaction.execute(
            "DELETE FROM fact_values WHERE certname = ?1 AND name = ?2",
            params![certname, name],
        )?;
    }
    Ok(())
}

fn replace_catalog(
    transaction: &mut Db,
    certname: &str,
    payload: &Map<String, Value>,
) -> Result<(), Failure> {
    let produced = produced(payload)?;
    let resources = payload
        .get("resources")
        .and_then(Value::as_array)
        .ok_or_else(|| Failure::Payload("it has no 'resources' list".into()))?;
    touch_node(transaction, certname, &produced)?;
    if newer_stored(transaction, "catalogs", certname, &produced)? {
        return Ok(());
    }
    let version = match payload.get("version") {
        Some(Value::String(v)) => Some(v.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let edges = payload
        .get("edges")
        .cloned()
        .unwrap_or_else(|| Value::Array(Vec::new()));
    let stored_at = now();
    transaction.execute(
        "UPDATE certnames SET catalog_timestamp = ?2, catalog_environment = ?3
         WHERE certname = ?1",
        params![certname, &stored_at, text(payload, "environment")],
    )?;
    transaction.execute(
        "DELETE FROM catalog_resources WHERE certname = ?1",
        params![certname],
    )?;
    transaction.execute(
        "INSERT INTO catalogs
            (certname, version, transaction_uuid, catalog_uuid, code_id, job_id, environment,
             producer_timestamp, timestamp, producer, hash, edges)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
         ON CONFLICT (certname) DO UPDATE SET
            version = excluded.version, transaction_uuid = excluded.transaction_uuid,
            catalog_uuid = excluded.catalog_uuid, code_id = excluded.code_id,
            job_id = excluded.job_id, environment = excluded.environment,
            producer_timestamp = excluded.producer_timestamp,
            timestamp = excluded.timestamp, producer = excluded.producer,
            hash = excluded.hash, edges = excluded.edges",
        params![
            certname,
            version,
            text(payload, "transaction_uuid"),
            text(payload, "catalog_uuid"),
            text(payload, "code_id"),
            text(payload, "job_id"),
            text(payload, "environment"),
            produced,
            &stored_at,
            text(payload, "producer"),
            sha1_hex(&Value::Object(payload.clone()).to_string()),
            edges.to_string()
        ],
    )?;
    let insert = "INSERT INTO catalog_resources
            (certname, position, type, title, exported, file, line, tags, parameters, resource,
             answer)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
         ON CONFLICT (certname, type, title) DO UPDATE SET
            position = excluded.position, exported = excluded.exported,
            file = excluded.file, line = excluded.line, tags = excluded.tags,
            parameters = excluded.parameters, resource = excluded.resource,
            answer = excluded.answer";
    let environment = text(payload, "environment");
    for (position, resource) in resources.iter().enumerate() {
        let field = |key: &str| resource.get(key);
        let (Some(Value::String(type_name)), Some(title)) = (field("type"), field("title")) else {
            return Err(Failure::Payload(format!(
                "resource {position} has no type or title"
            )));
        };
        let title = match title {
            Value::String(t) => t.clone(),
            other => other.to_string(),
        };
        let parameters = field("parameters")
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()));
        let tags = field("tags")
            .cloned()
            .unwrap_or_else(|| Value::Array(Vec::new()));
        let hash = sha1_hex(&json!([type_name, title, parameters]).to_string());
        let exported = field("exported").and_then(Value::as_bool).unwrap_or(false);
        let (file, line) = (
            field("file").and_then(Value::as_str),
            field("line").and_then(Value::as_i64),
        );
        // An exported resource's answer, as `shape::RESOURCE`'s fields
        // write it (its environment its catalog's, kept with it: a new
        // catalog replaces every resource).
        let answer = exported.then(|| {
            json!({
                "certname": certname, "resource": hash, "type": type_name, "title": title,
                "exported": true, "tags": tags, "file": file, "line": line,
                "environment": environment, "parameters": parameters,
            })
            .to_string()
        });
        transaction.execute(
            insert,
            params![
                certname,
                position as i64,
                type_name,
                title,
                exported,
                file,
                line,
                tags.to_string(),
                parameters.to_string(),
                hash,
                answer
            ],
        )?;
    }
    transaction.execute(
        "UPDATE catalogs SET resource_count =
            (SELECT count(*) FROM catalog_resources r WHERE r.certname = ?1)
         WHERE certname = ?1",
        params![certname],
    )?;
    transaction.execute(
        "UPDATE certnames SET catalog_resource_count =
            (SELECT k.resource_count FROM catalogs k WHERE k.certname = ?1)
         WHERE certname = ?1",
        params![certname],
    )?;
    Ok(())
}

fn store_report(
    transaction: &mut Db,
    certname: &str,
    payload: &Map<String, Value>,
) -> Result<(), Failure> {
    let produced = produced(payload)?;
    let time = |key: &str| text(payload, key).and_then(normalized);
    let end_time = time("end_time").unwrap_or_else(|| produced.clone());
    touch_node(transaction, certname, &produced)?;
    let hash = sha1_hex(&Value::Object(payload.clone()).to_string());
    let receive_time = now();
    let field = |key: &str| payload.get(key).cloned().unwrap_or(Value::Null);
    let href = |what: &str| format!("/pdb/query/v4/reports/{hash}/{what}");
    let report = json!({
        "hash": hash,
        "certname": certname,
        "puppet_version": field("puppet_version"),
        "receive_time": receive_time,
        "report_format": field("report_format"),
        "start_time": time("start_time"),
        "end_time": end_time,
        "producer_timestamp": produced,
        "producer": field("producer"),
        "transaction_uuid": field("transaction_uuid"),
        "status": field("status"),
        "noop": field("noop"),
        "noop_pending": field("noop_pending"),
        "environment": field("environment"),
        "configuration_version": field("configuration_version"),
        // Open-source PuppetDB keeps no corrective changes.
        "corrective_change": null,
        "cached_catalog_status": field("cached_catalog_status"),
        "catalog_uuid": field("catalog_uuid"),
        "code_id": field("code_id"),
        "job_id": field("job_id"),
        "type": payload.get("type").cloned().unwrap_or_else(|| json!("agent")),
        "resource_events": {"href": href("events")},
        "metrics": {"href": href("metrics")},
        "logs": {"href": href("logs")},
    });
    let events = report_events(payload);
    let metrics = field("metrics");
    let logs = field("logs");
    // The summary the fleet's queries read, beside the whole report.
    let as_text = |key: &str| report.get(key).and_then(Value::as_str).map(str::to_string);
    let as_json = |key: &str| report.get(key).map(Value::to_string);
    let inserted = transaction.execute(
        "INSERT INTO reports
            (hash, certname, end_time, receive_time, report, resource_events, metrics, logs,
             producer, producer_timestamp, start_time, status, environment, job_id,
             cached_catalog_status, noop, noop_pending, configuration_version)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                 ?18)
         ON CONFLICT DO NOTHING",
        params![
            &hash,
            certname,
            end_time.clone(),
            receive_time,
            report.to_string(),
            Value::Array(events).to_string(),
            if metrics.is_null() {
                json!([])
            } else {
                metrics
            }
            .to_string(),
            if logs.is_null() { json!([]) } else { logs }.to_string(),
            text(payload, "producer"),
            produced,
            as_text("start_time"),
            as_text("status"),
            as_text("environment"),
            as_text("job_id"),
            as_text("cached_catalog_status"),
            as_json("noop"),
            as_json("noop_pending"),
            as_json("configuration_version"),
        ],
    )?;
    if inserted == 0 {
        return Ok(());
    }
    let latest_end: Option<String> = transaction
        .query_one(
            "SELECT end_time FROM latest_reports WHERE certname = ?1",
            params![certname],
        )?
        .and_then(|row| row.text(0));
    if latest_end.is_none_or(|latest| latest <= end_time) {
        // The latest report's events are kept beside it too
        // (schema.rs, migration 6).
        transaction.execute(
            "INSERT INTO latest_reports
                (certname, hash, start_time, end_time, receive_time, environment,
                 configuration_version, resource_events)
             SELECT certname, hash, start_time, end_time, receive_time, environment,
                    configuration_version, resource_events
             FROM reports WHERE hash = ?2 AND certname = ?1
             ON CONFLICT (certname) DO UPDATE SET
                hash = excluded.hash, start_time = excluded.start_time,
                end_time = excluded.end_time, receive_time = excluded.receive_time,
                environment = excluded.environment,
                configuration_version = excluded.configuration_version,
                resource_events = excluded.resource_events",
            params![certname, &hash],
        )?;
        transaction.execute(&report_summary("certname = ?1"), params![certname])?;
    }
    Ok(())
}

/// The statement setting the summary of its latest report on each
/// node's row `condition` chooses (none when it has no latest report).
pub(crate) fn report_summary(condition: &str) -> String {
    format!(
        "UPDATE certnames SET
            (report_timestamp, report_environment, report_status, report_noop,
             report_noop_pending, report_hash, report_job_id, report_cached_catalog_status) =
            (SELECT r.end_time, r.environment, r.status, r.noop, r.noop_pending, r.hash,
                    r.job_id, r.cached_catalog_status
             FROM latest_reports l JOIN reports r ON r.hash = l.hash
             WHERE l.certname = certnames.certname)
         WHERE {condition}"
    )
}

/// A report's resources' events, one list, as the `events` entity keeps
/// them; a skipped resource without events gets a `skipped` one, as
/// PuppetDB makes it.
fn report_events(payload: &Map<String, Value>) -> Vec<Value> {
    let mut out = Vec::new();
    let Some(resources) = payload.get("resources").and_then(Value::as_array) else {
        return out;
    };
    for resource in resources {
        let field = |key: &str| resource.get(key).cloned().unwrap_or(Value::Null);
        let containment = field("containment_path");
        // The class that contains the resource: the last step of its
        // containment path that is a class, which the path names bare
        // (`Main`, `Apache::Mod`), not as a reference (`Stage[main]`).
        let containing_class = containment
            .as_array()
            .and_then(|path| {
                path.iter()
                    .rev()
                    .filter_map(Value::as_str)
                    .find(|step| !step.contains('['))
                    .map(|step| Value::String(step.to_string()))
            })
            .unwrap_or(Value::Null);
        let mut events: Vec<Value> = field("events").as_array().cloned().unwrap_or_default();
        if events.is_empty() && field("skipped") == Value::Bool(true) {
            events.push(json!({
                "status": "skipped",
                "timestamp": field("timestamp"),
                "property": null, "name": null,
                "new_value": null, "old_value": null,
                "message": null,
                "corrective_change": false,
            }));
        }
        for event in events {
            let value = |key: &str| event.get(key).cloned().unwrap_or(Value::Null);
            let timestamp = value("timestamp")
                .as_str()
                .and_then(normalized)
                .map(Value::String)
                .unwrap_or(Value::Null);
            out.push(json!({
                "status": value("status"),
                "timestamp": timestamp,
                "resource_type": field("resource_type"),
                "resource_title": field("resource_title"),
                "property": value("property"),
                "name": value("name"),
                "new_value": value("new_value"),
                "old_value": value("old_value"),
                "message": value("message"),
                "file": field("file"),
                "line": field("line"),
                "containment_path": containment.clone(),
                "containing_class": containing_class.clone(),
                "corrective_change": null,
            }));
        }
    }
    out
}

fn deactivate(
    transaction: &mut Db,
    certname: &str,
    payload: &Map<String, Value>,
) -> Result<(), Failure> {
    let produced = produced(payload)?;
    transaction.execute(
        "INSERT INTO certnames (certname) VALUES (?1) ON CONFLICT DO NOTHING",
        params![certname],
    )?;
    transaction.execute(
        "UPDATE certnames SET deactivated = ?2 WHERE certname = ?1 AND deactivated IS NULL",
        params![certname, produced],
    )?;
    Ok(())
}

/// A condition on `column` when a value for it is given (as parameter
/// `index`), which the database answers from the column's index; else one
/// that holds for every row. (A single `?N IS NULL OR column = ?N` would
/// make SQLite scan the whole table either way.)
fn given(column: &str, index: u8, given: bool) -> String {
    if given {
        format!("{column} = ?{index}")
    } else {
        format!("CAST(?{index} AS TEXT) IS NULL")
    }
}

fn json_text(text: Option<&str>) -> Value {
    text.and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(Value::Null)
}

/// A node's state, from the columns of `row` that say when it was
/// deactivated and when it expired.
fn node_state(row: &dyn crate::db::Columns, deactivated: usize, expired: usize) -> Value {
    Value::String(if shape::active(row, deactivated, expired) {
        "active".into()
    } else {
        "inactive".into()
    })
}

fn nodes(
    connection: &mut Db,
    certname: Option<&str>,
    with_facts: bool,
    each: Each,
) -> Result<(), DbError> {
    connection.query_each_columns(
        &nodes_sql(certname.is_some(), with_facts, ""),
        params![certname],
        &mut |columns| {
            let mut node = shape::row(shape::NODE, columns, 2);
            node.push("_node_state", node_state(columns, 1, 2));
            let facts = match columns.column(5) {
                crate::db::ColumnRef::Text(facts) => Some(facts),
                _ => None,
            };
            node.push_json("_facts", facts.as_deref());
            each(node)
        },
    )
}

/// The statement of the nodes' rows ([`shape::NODE`]'s columns), of one
/// node when `one` (its certname the first parameter), with the
/// conditions `and` adds (` AND ...`).
fn nodes_sql(one: bool, with_facts: bool, and: &str) -> String {
    // The node's row keeps its summary. A node's facts are the bulk of
    // what its row would read: read only for a query that asks them.
    let columns = format!(
        "c.certname, c.deactivated, c.expired,
            c.facts_timestamp, c.facts_environment, {},
            c.catalog_timestamp, c.catalog_environment,
            c.report_timestamp, c.report_environment, c.report_status, c.report_noop,
            c.report_noop_pending, c.report_hash, c.report_job_id,
            c.report_cached_catalog_status",
        if with_facts {
            "(SELECT f.facts FROM factsets f WHERE f.certname = c.certname)"
        } else {
            "NULL"
        },
    );
    nodes_select(&columns, one, and)
}

/// The statement of `columns` of the nodes' rows (`c`), of one node when
/// `one` (its certname the first parameter), with the conditions `and`
/// adds (` AND ...`), in name order.
fn nodes_select(columns: &str, one: bool, and: &str) -> String {
    format!(
        "SELECT {columns} FROM certnames c WHERE {}{and} ORDER BY c.certname",
        given("c.certname", 1, one),
    )
}

/// The condition that keeps active nodes' rows alone (`c` the nodes).
const ACTIVE: &str = " AND c.deactivated IS NULL AND c.expired IS NULL";

/// The facts of every node (or one), each a row; only the fact `name`
/// when a query names one, read from its own rows.
fn facts(
    connection: &mut Db,
    certname: Option<&str>,
    name: Option<&str>,
    each: Each,
) -> Result<(), DbError> {
    if let Some(name) = name {
        return named_facts(connection, certname, name, each);
    }
    connection.query_each(
        &format!(
            "SELECT f.certname, f.environment, f.facts, c.deactivated, c.expired
         FROM factsets f JOIN certnames c ON c.certname = f.certname
         WHERE {}
         ORDER BY f.certname",
            given("f.certname", 1, certname.is_some())
        ),
        params![certname],
        &mut |row| {
            let certname = row.str(0).unwrap_or_default();
            let environment = row.str(1).map_or(Value::Null, Value::from);
            let state = node_state(&row, 3, 4);
            let Value::Object(facts) = json_text(row.str(2)) else {
                return true;
            };
            facts
                .into_iter()
                .all(|(name, value)| each(fact_row(certname, name, value, &environment, &state)))
        },
    )
}

/// Every node's (or one's) fact `name`.
fn named_facts(
    connection: &mut Db,
    certname: Option<&str>,
    name: &str,
    each: Each,
) -> Result<(), DbError> {
    // The fields of `shape::FACT`, as a fact's values across the fleet
    // are written when the database alone narrows them.
    connection.query_each_columns(
        &format!(
            "SELECT v.certname, v.name, v.value, c.facts_environment, c.deactivated, c.expired
         FROM fact_values v
         JOIN certnames c ON c.certname = v.certname
         WHERE v.name = ?2 AND ({})
         ORDER BY v.certname",
            given("v.certname", 1, certname.is_some())
        ),
        params![certname, name],
        &mut |columns| {
            let mut fact = shape::row(shape::FACT, columns, 1);
            fact.push("_node_state", node_state(columns, 4, 5));
            each(fact)
        },
    )
}

fn fact_row(certname: &str, name: String, value: Value, environment: &Value, state: &Value) -> Row {
    Row::from_iter([
        ("certname", Value::from(certname)),
        ("name", Value::String(name)),
        ("value", value),
        ("environment", environment.clone()),
        ("_node_state", state.clone()),
    ])
}

/// Each leaf of a structured value (not an empty map or list), with its
/// path: map keys as strings, list indexes as numbers.
fn leaves<'a>(value: &'a Value, path: &mut Vec<Value>, out: &mut Vec<(Vec<Value>, &'a Value)>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                path.push(Value::String(key.clone()));
                leaves(inner, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (index, inner) in items.iter().enumerate() {
                path.push(Value::from(index));
                leaves(inner, path, out);
                path.pop();
            }
        }
        leaf => out.push((path.clone(), leaf)),
    }
}

/// PuppetDB's name for the type of a fact's leaf value.
fn value_type(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "string",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "integer",
        Value::Bool(_) => "boolean",
        Value::Null => "null",
        Value::Array(_) => "array",
        Value::Object(_) => "map",
    }
}

/// The facts' leaves, one row each, as the `fact-contents` entity gives
/// them.
fn fact_contents(connection: &mut Db, certname: Option<&str>) -> Rows {
    let mut out = Vec::new();
    for fact in collected(|each| facts(connection, certname, None, each))? {
        let mut found = Vec::new();
        let name = fact.get("name").cloned().unwrap_or(Value::Null);
        let mut path = vec![name.clone()];
        if let Some(value) = fact.get("value") {
            leaves(value, &mut path, &mut found);
        }
        for (path, value) in found {
            let mut row = Row::new();
            for key in ["certname", "environment"] {
                row.insert(key, fact.get(key).cloned().unwrap_or(Value::Null));
            }
            row.insert("name", name.clone());
            row.insert("path", Value::Array(path));
            row.insert("value", value.clone());
            row.insert(
                "_node_state",
                fact.get("_node_state").cloned().unwrap_or(Value::Null),
            );
            out.push(row);
        }
    }
    Ok(out)
}

/// Every path to a leaf in any node's facts, with its value's type.
fn fact_paths(connection: &mut Db) -> Rows {
    let mut seen = std::collections::BTreeMap::new();
    for row in fact_contents(connection, None)? {
        let path = row.get("path").cloned().unwrap_or(Value::Null);
        let kind = value_type(row.get("value").unwrap_or(&Value::Null));
        let key = (path.to_string(), kind);
        seen.entry(key).or_insert_with(|| {
            Row::from_iter([
                (
                    "name".to_string(),
                    row.get("name").cloned().unwrap_or(Value::Null),
                ),
                ("path".to_string(), path),
                ("type".to_string(), Value::String(kind.to_string())),
            ])
        });
    }
    Ok(seen.into_values().collect())
}

/// Each node's facts as one row, with its trusted data beside them.
fn inventory(connection: &mut Db, certname: Option<&str>, each: Each) -> Result<(), DbError> {
    connection.query_each(
        &format!(
            "SELECT f.certname, f.timestamp, f.environment, f.facts, c.deactivated, c.expired
         FROM factsets f JOIN certnames c ON c.certname = f.certname
         WHERE {}
         ORDER BY f.certname",
            given("f.certname", 1, certname.is_some())
        ),
        params![certname],
        &mut |row| {
            let facts = json_text(row.str(3));
            let trusted = facts.get("trusted").cloned().unwrap_or(Value::Null);
            let mut out = Row::new();
            out.insert("certname", text_or_empty(&row, 0));
            out.insert("timestamp", text_or_empty(&row, 1));
            out.insert("environment", json!(row.text(2)));
            out.insert("facts", facts);
            out.insert("trusted", trusted);
            out.insert("_node_state", node_state(&row, 4, 5));
            each(out)
        },
    )
}

/// Each node's packages, one row each (`certname`, `package_name`,
/// `version`, `provider`).
fn package_inventory(connection: &mut Db, certname: Option<&str>) -> Rows {
    let found = connection.query(
        &format!(
            "SELECT f.certname, f.package_inventory, c.deactivated, c.expired
         FROM factsets f JOIN certnames c ON c.certname = f.certname
         WHERE f.package_inventory IS NOT NULL
           AND ({})
         ORDER BY f.certname",
            given("f.certname", 1, certname.is_some())
        ),
        params![certname],
    )?;
    let mut out = Vec::new();
    for row in &found {
        let state = node_state(row, 2, 3);
        let Value::Array(packages) = json_text(row.str(1)) else {
            continue;
        };
        for package in packages {
            let part = |index: usize| package.get(index).cloned().unwrap_or(Value::Null);
            let mut out_row = Row::new();
            out_row.insert("certname", json!(row.text(0)));
            out_row.insert("package_name", part(0));
            out_row.insert("version", part(1));
            out_row.insert("provider", part(2));
            out_row.insert("_node_state", state.clone());
            out.push(out_row);
        }
    }
    Ok(out)
}

/// Every package any node has, once per name, version and provider.
fn packages(connection: &mut Db) -> Rows {
    let mut seen = std::collections::BTreeMap::new();
    for mut row in package_inventory(connection, None)? {
        row.remove("certname");
        row.remove("_node_state");
        seen.entry(serde_json::to_string(&row).unwrap_or_default())
            .or_insert(row);
    }
    Ok(seen.into_values().collect())
}

/// Who produced what is stored: the servers named by facts, catalogs
/// and reports.
fn producers(connection: &mut Db) -> Rows {
    named_rows(
        connection,
        "SELECT producer FROM factsets WHERE producer IS NOT NULL
         UNION SELECT producer FROM catalogs WHERE producer IS NOT NULL
         UNION SELECT producer FROM reports WHERE producer IS NOT NULL
         ORDER BY 1",
    )
}

/// A `{"name": ...}` row for each value the one-column `sql` gives.
fn named_rows(connection: &mut Db, sql: &str) -> Rows {
    let found = connection.query(sql, &[])?;
    let rows = found.iter().map(|row| -> Result<_, DbError> {
        Ok(Row::from_iter([(
            "name".to_string(),
            text_or_empty(row, 0),
        )]))
    });
    rows.collect()
}

/// Every fact name of the kept factsets: each name once, found by
/// stepping from one to the next along the names' index, which reads
/// as many index entries as there are names, not as there are facts.
fn fact_names(connection: &mut Db) -> Rows {
    named_rows(
        connection,
        "WITH RECURSIVE names(name) AS (
             SELECT min(name) FROM fact_values
             UNION ALL
             SELECT (SELECT min(v.name) FROM fact_values v WHERE v.name > names.name)
             FROM names WHERE names.name IS NOT NULL
         )
         SELECT name FROM names WHERE name IS NOT NULL",
    )
    .map(|mut names| {
        // In bytes' order whatever the database's collation.
        let name = |row: &Row| row.get("name").and_then(Value::as_str).map(str::to_string);
        names.sort_by_key(name);
        names
    })
}

fn environments(connection: &mut Db) -> Rows {
    named_rows(
        connection,
        "SELECT environment FROM factsets WHERE environment IS NOT NULL
         UNION SELECT environment FROM catalogs WHERE environment IS NOT NULL
         ORDER BY 1",
    )
}

fn resources(
    connection: &mut Db,
    certname: Option<&str>,
    type_name: Option<&str>,
    exported: Option<bool>,
    each: Each,
) -> Result<(), DbError> {
    connection.query_each_columns(
        &resources_sql(
            certname.is_some(),
            type_name.is_some(),
            exported,
            Nodes::All,
            false,
        ),
        params![certname, type_name, exported],
        &mut |columns| {
            let mut resource = shape::row(shape::RESOURCE, columns, 1);
            resource.push("_node_state", node_state(columns, 10, 11));
            each(resource)
        },
    )
}

/// How a resource's statement reads its node's columns.
#[derive(Clone, Copy, PartialEq)]
enum Nodes {
    /// Joined, every node's.
    All,
    /// Joined, active nodes' alone.
    Active,
    /// Not read (nulls in their place): merged in from [`active_nodes_sql`].
    Apart,
}

/// The active nodes and their `environment` column (their catalogs' or
/// their facts'), ordered by name, to merge with resources read
/// [`Nodes::Apart`] or a fact's values (read from their own index,
/// `certnames_state`).
fn active_nodes_sql(environment: &str) -> String {
    format!(
        "SELECT c.certname, c.{environment} FROM certnames c WHERE 1{ACTIVE} ORDER BY c.certname"
    )
}

/// The statement of the resources' rows ([`shape::RESOURCE`]'s columns),
/// narrowed to a node, a type and exported or not when given (the
/// parameters, in that order), their nodes' columns read as `nodes` says;
/// or, when `kept`, their nodes' names and their kept answers alone
/// (exported resources', migration 8).
fn resources_sql(
    certname: bool,
    type_name: bool,
    exported: Option<bool>,
    nodes: Nodes,
    kept: bool,
) -> String {
    // Exported resources are asked for with the value written out, not
    // as a parameter: their own index serves only a query that says it
    // reads them alone.
    let exported_is = match exported {
        Some(true) => "r.exported = 1 AND CAST(?3 AS TEXT) IS NOT NULL".to_string(),
        _ => given("r.exported", 3, exported.is_some()),
    };
    let (node_columns, join) = match nodes {
        Nodes::Apart => ("NULL, r.parameters, NULL, NULL", ""),
        _ => (
            "c.catalog_environment, r.parameters, c.deactivated, c.expired",
            "JOIN certnames c ON c.certname = r.certname",
        ),
    };
    let columns = match kept {
        true => "r.certname, r.answer".to_string(),
        false => format!(
            "r.certname, r.resource, r.type, r.title, r.exported, r.tags, r.file, r.line,
             {node_columns}"
        ),
    };
    format!(
        "SELECT {columns}
         FROM catalog_resources r
         {join}
         WHERE ({}) AND ({}) AND ({}){}
         ORDER BY r.certname, r.position",
        given("r.certname", 1, certname),
        given("r.type", 2, type_name),
        exported_is,
        if nodes == Nodes::Active { ACTIVE } else { "" }
    )
}

fn catalogs(connection: &mut Db, certname: Option<&str>) -> Rows {
    let found = connection.query(
        &format!(
            "SELECT k.certname, k.version, k.transaction_uuid, k.catalog_uuid, k.code_id, k.job_id,
                k.producer_timestamp, k.producer, k.hash, k.environment, k.edges,
                c.deactivated, c.expired
         FROM catalogs k JOIN certnames c ON c.certname = k.certname
         WHERE {}
         ORDER BY k.certname",
            given("k.certname", 1, certname.is_some())
        ),
        params![certname],
    )?;
    let mut out = Vec::new();
    let rows = found.iter().map(|row| -> Result<_, DbError> {
        let certname: String = row.text(0).unwrap_or_default();
        let mut catalog = Row::new();
        catalog.insert("certname", Value::String(certname.clone()));
        for (index, key) in [
            (1, "version"),
            (2, "transaction_uuid"),
            (3, "catalog_uuid"),
            (4, "code_id"),
            (5, "job_id"),
            (6, "producer_timestamp"),
            (7, "producer"),
            (8, "hash"),
            (9, "environment"),
        ] {
            catalog.insert(key, json!(row.text(index)));
        }
        let edges: Vec<Value> = json_text(row.str(10))
            .as_array()
            .map(|edges| edges.iter().map(flat_edge).collect())
            .unwrap_or_default();
        catalog.insert(
            "edges",
            json!({
                "href": format!("/pdb/query/v4/catalogs/{certname}/edges"),
                "data": edges,
            }),
        );
        catalog.insert("_node_state", node_state(row, 11, 12));
        Ok(catalog)
    });
    for row in rows {
        let mut catalog = row?;
        let certname = catalog
            .get("certname")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let data: Vec<Value> =
            collected(|each| resources(connection, Some(&certname), None, None, each))?
                .into_iter()
                .map(|mut resource| {
                    for hidden in ["certname", "environment", "_node_state"] {
                        resource.remove(hidden);
                    }
                    resource.into_value()
                })
                .collect();
        catalog.insert(
            "resources",
            json!({
                "href": format!("/pdb/query/v4/catalogs/{certname}/resources"),
                "data": data,
            }),
        );
        out.push(catalog);
    }
    Ok(out)
}

/// An edge as PuppetDB answers it: its ends' types and titles side by
/// side.
fn flat_edge(edge: &Value) -> Value {
    let end = |which: &str, key: &str| {
        edge.get(which)
            .and_then(|e| e.get(key))
            .cloned()
            .unwrap_or(Value::Null)
    };
    json!({
        "relationship": edge.get("relationship").cloned().unwrap_or(Value::Null),
        "source_title": end("source", "title"),
        "source_type": end("source", "type"),
        "target_title": end("target", "title"),
        "target_type": end("target", "type"),
    })
}

/// The reports as the `reports` entity gives them (or only the latest,
/// or only the others), their events' times as PuppetDB prints them
/// inside a report.
fn reports(
    connection: &mut Db,
    certname: Option<&str>,
    latest: Option<bool>,
    each: Each,
) -> Result<(), DbError> {
    report_rows(
        connection,
        "r.report, r.resource_events, r.metrics, r.logs, l.hash IS NOT NULL",
        certname,
        latest,
        &mut |row| {
            let Value::Object(mut report) = json_text(row.str(0)) else {
                return each(Row::new());
            };
            for (index, key) in [(1, "resource_events"), (2, "metrics"), (3, "logs")] {
                if let Some(Value::Object(link)) = report.get_mut(key) {
                    // PuppetDB gives none rather than an empty list.
                    let data = match json_text(row.str(index)) {
                        Value::Array(items) if items.is_empty() => Value::Null,
                        data => data,
                    };
                    link.insert("data".into(), data);
                }
            }
            if let Some(Value::Array(events)) = report
                .get_mut("resource_events")
                .and_then(|l| l.get_mut("data"))
            {
                for event in events {
                    if let Some(time) = event.get_mut("timestamp") {
                        *time = embedded_time(time);
                    }
                }
            }
            let mut report = Row::from(report);
            report.insert("_latest_report?", Value::Bool(row.boolean(4)));
            each(report)
        },
    )
}

/// A time as PuppetDB prints it inside a report's events: whole seconds
/// with a `+00:00` offset, milliseconds only when there are some.
fn embedded_time(time: &Value) -> Value {
    match time.as_str().and_then(Timestamp::parse) {
        Some(t) if t.0 % 1_000_000_000 == 0 => Value::String(t.format("%Y-%m-%dT%H:%M:%S+00:00")),
        Some(t) => Value::String(t.format("%Y-%m-%dT%H:%M:%S.%L+00:00")),
        None => time.clone(),
    }
}

/// The events of every report (or one node's; or only the latest
/// reports'), one row each, with their report's summary beside them,
/// which is read from its columns.
fn events(
    connection: &mut Db,
    certname: Option<&str>,
    latest: Option<bool>,
    each: Each,
) -> Result<(), DbError> {
    // `r` a report; `is_latest` whether it is its node's latest.
    let columns = |is_latest: &str| {
        format!(
            "r.certname, r.hash, r.start_time, r.end_time, r.receive_time, r.environment,
             r.configuration_version, {is_latest}, r.resource_events"
        )
    };
    let mut read = |row: crate::db::Row| {
        let Value::Array(events) = json_text(row.str(8)) else {
            return true;
        };
        let text = |index: usize| row.str(index).map_or(Value::Null, Value::from);
        for event in events {
            let Value::Object(event) = event else {
                continue;
            };
            let mut out_row = Row::new();
            out_row.insert("certname", text(0));
            out_row.insert("report", text(1));
            out_row.extend(event);
            out_row.insert("run_start_time", text(2));
            out_row.insert("run_end_time", text(3));
            out_row.insert("report_receive_time", text(4));
            out_row.insert("environment", text(5));
            out_row.insert("configuration_version", json_text(row.str(6)));
            out_row.insert("_latest_report?", Value::Bool(row.boolean(7)));
            if !each(out_row) {
                return false;
            }
        }
        true
    };
    if latest == Some(true) {
        // The latest reports' events are kept with the nodes' latest
        // reports (schema.rs, migration 6).
        return connection.query_each(
            &format!(
                "SELECT {}
                 FROM latest_reports r
                 WHERE {}
                 ORDER BY r.certname",
                columns("TRUE"),
                given("r.certname", 1, certname.is_some())
            ),
            params![certname],
            &mut read,
        );
    }
    report_rows(
        connection,
        &columns("l.hash IS NOT NULL"),
        certname,
        latest,
        &mut read,
    )
}

/// The `columns` of every report (`r`, with `l` its node's latest
/// report), or one node's, or only the latest (or only the others), in
/// node and time order.
fn report_rows(
    connection: &mut Db,
    columns: &str,
    certname: Option<&str>,
    latest: Option<bool>,
    each: &mut dyn FnMut(crate::db::Row) -> bool,
) -> Result<(), DbError> {
    let sql = if latest == Some(true) {
        // A node's latest report, found from the nodes rather than among
        // every report kept.
        format!(
            "SELECT {columns}
             FROM latest_reports l JOIN reports r ON r.hash = l.hash
             WHERE {}
             ORDER BY l.certname",
            given("l.certname", 1, certname.is_some()),
        )
    } else {
        format!(
            "SELECT {columns}
             FROM reports r LEFT JOIN latest_reports l ON l.hash = r.hash
             WHERE ({}) AND ({})
             ORDER BY r.certname, r.end_time",
            given("r.certname", 1, certname.is_some()),
            only_latest(latest)
        )
    };
    connection.query_each(&sql, params![certname], each)
}

/// A condition keeping the latest reports only (`Some(true)`), the
/// others only (`Some(false)`), or all, on `latest_reports l`.
fn only_latest(latest: Option<bool>) -> &'static str {
    match latest {
        Some(true) => "l.hash IS NOT NULL",
        Some(false) => "l.hash IS NULL",
        None => "1 = 1",
    }
}
