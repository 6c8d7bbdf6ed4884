//! The two databases the store runs on, behind one small door: SQLite
//! (embedded, a file) and PostgreSQL (a server, by URL). Statements are
//! written once, in the SQL both understand, with numbered parameters
//! (`?1`), which PostgreSQL spells `$1`; values cross as [`Param`]s, so
//! no text of a query or a document is ever part of a statement.

use postgres::types::{ToSql, Type};

/// A value bound to a statement or read from a row.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) enum Param {
    #[default]
    Null,
    Text(String),
    Int(i64),
}

impl From<&str> for Param {
    fn from(text: &str) -> Param {
        Param::Text(text.to_string())
    }
}

impl From<String> for Param {
    fn from(text: String) -> Param {
        Param::Text(text)
    }
}

impl From<&String> for Param {
    fn from(text: &String) -> Param {
        Param::Text(text.clone())
    }
}

impl From<i64> for Param {
    fn from(n: i64) -> Param {
        Param::Int(n)
    }
}

impl From<bool> for Param {
    fn from(b: bool) -> Param {
        Param::Int(i64::from(b))
    }
}

impl<T: Into<Param>> From<Option<T>> for Param {
    fn from(value: Option<T>) -> Param {
        value.map_or(Param::Null, Into::into)
    }
}

/// `params![a, b]`: the values of a statement's parameters, in order.
macro_rules! params {
    ($($value:expr),* $(,)?) => {
        &[$($crate::db::Param::from($value)),*][..]
    };
}
pub(crate) use params;

/// A row: its columns' values, in the statement's order.
#[derive(Clone, Debug)]
pub(crate) struct Row(Vec<Param>);

impl Row {
    pub(crate) fn text(&self, index: usize) -> Option<String> {
        match self.0.get(index) {
            Some(Param::Text(text)) => Some(text.clone()),
            Some(Param::Int(n)) => Some(n.to_string()),
            _ => None,
        }
    }

    /// A text column, borrowed: what a row reads once needs no copy.
    pub(crate) fn str(&self, index: usize) -> Option<&str> {
        match self.0.get(index) {
            Some(Param::Text(text)) => Some(text),
            _ => None,
        }
    }

    pub(crate) fn int(&self, index: usize) -> Option<i64> {
        match self.0.get(index) {
            Some(Param::Int(n)) => Some(*n),
            Some(Param::Text(text)) => text.parse().ok(),
            _ => None,
        }
    }

    pub(crate) fn boolean(&self, index: usize) -> bool {
        self.int(index).is_some_and(|n| n != 0)
    }
}

/// What takes a merge's rows ([`Db::query_each_columns_merged`]): a
/// row's columns and its key's value; false to stop.
pub(crate) type Merged<'a> = dyn FnMut(&dyn Columns, Option<&[u8]>) -> bool + 'a;

/// A column's value as a row holds it, borrowed where it can be.
pub(crate) enum ColumnRef<'a> {
    Null,
    Int(i64),
    Text(std::borrow::Cow<'a, str>),
}

impl ColumnRef<'_> {
    /// A number, or a text that reads as one ([`Row::int`]).
    pub(crate) fn int(&self) -> Option<i64> {
        match self {
            ColumnRef::Int(n) => Some(*n),
            ColumnRef::Text(text) => text.parse().ok(),
            ColumnRef::Null => None,
        }
    }
}

/// A row's columns, read where they are: the database's own row while
/// its statement steps (SQLite), or a row read whole (PostgreSQL). A
/// fleet's answer written from them copies no column it need not.
pub(crate) trait Columns {
    fn column(&self, index: usize) -> ColumnRef<'_>;

    /// A column's text as the database holds it, not yet read as UTF-8
    /// (JSON's writer looks at it once for both); a number written out;
    /// nothing when null.
    fn bytes(&self, index: usize) -> Option<std::borrow::Cow<'_, [u8]>> {
        use std::borrow::Cow;
        match self.column(index) {
            ColumnRef::Text(Cow::Borrowed(text)) => Some(Cow::Borrowed(text.as_bytes())),
            ColumnRef::Text(Cow::Owned(text)) => Some(Cow::Owned(text.into_bytes())),
            ColumnRef::Int(n) => Some(Cow::Owned(n.to_string().into_bytes())),
            ColumnRef::Null => None,
        }
    }
}

impl Columns for Row {
    fn column(&self, index: usize) -> ColumnRef<'_> {
        match self.0.get(index) {
            Some(Param::Text(text)) => ColumnRef::Text(text.as_str().into()),
            Some(Param::Int(n)) => ColumnRef::Int(*n),
            _ => ColumnRef::Null,
        }
    }
}

/// SQLite's row as it steps.
struct SqliteColumns<'a, 'b>(&'a rusqlite::Row<'b>);

impl Columns for SqliteColumns<'_, '_> {
    fn column(&self, index: usize) -> ColumnRef<'_> {
        // Only a column beyond the statement's fails, which none asks.
        sqlite_column(self.0, index).unwrap_or(ColumnRef::Null)
    }

    fn bytes(&self, index: usize) -> Option<std::borrow::Cow<'_, [u8]>> {
        use rusqlite::types::ValueRef;
        match self.0.get_ref(index).ok()? {
            ValueRef::Null => None,
            ValueRef::Integer(n) => Some(n.to_string().into_bytes().into()),
            ValueRef::Real(f) => Some(f.to_string().into_bytes().into()),
            ValueRef::Text(t) | ValueRef::Blob(t) => Some(t.into()),
        }
    }
}

/// A column of SQLite's row, borrowed from it.
fn sqlite_column<'a>(row: &'a rusqlite::Row<'_>, index: usize) -> rusqlite::Result<ColumnRef<'a>> {
    use rusqlite::types::ValueRef;
    Ok(match row.get_ref(index)? {
        ValueRef::Null => ColumnRef::Null,
        ValueRef::Integer(n) => ColumnRef::Int(n),
        ValueRef::Real(f) => ColumnRef::Text(f.to_string().into()),
        // Valid UTF-8 (all the store writes) is checked the fast way;
        // the lossy decoding is the slow path, for what another writer
        // left.
        ValueRef::Text(t) | ValueRef::Blob(t) => ColumnRef::Text(match std::str::from_utf8(t) {
            Ok(text) => text.into(),
            Err(_) => String::from_utf8_lossy(t),
        }),
    })
}

/// Why a statement failed; `unavailable` when the database could not be
/// reached at all (a PostgreSQL server down), not when it refused.
#[derive(Clone, Debug)]
pub(crate) struct DbError {
    pub(crate) message: String,
    pub(crate) unavailable: bool,
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> DbError {
        DbError {
            message: e.to_string(),
            unavailable: false,
        }
    }
}

impl From<postgres::Error> for DbError {
    fn from(e: postgres::Error) -> DbError {
        // A closed connection or a failure to connect has no SQL state:
        // the server is not there.
        let unavailable = e.is_closed() || e.code().is_none() && e.as_db_error().is_none();
        let mut message = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(inner) = source {
            message.push_str(&format!(": {inner}"));
            source = inner.source();
        }
        DbError {
            message,
            unavailable,
        }
    }
}

impl From<DbError> for String {
    fn from(e: DbError) -> String {
        e.message
    }
}

/// Which database, and its connection.
pub(crate) enum Db {
    Sqlite(rusqlite::Connection),
    Postgres(Box<Postgres>),
}

/// A PostgreSQL connection (made again when lost), and the statements
/// prepared on it, by their SQL.
pub(crate) struct Postgres {
    url: String,
    client: Option<postgres::Client>,
    statements: std::collections::HashMap<String, postgres::Statement>,
}

impl Postgres {
    /// The connection, made again when it was lost (forgetting what was
    /// prepared on the old one).
    fn client(&mut self) -> Result<&mut postgres::Client, DbError> {
        if self.client.as_ref().is_none_or(postgres::Client::is_closed) {
            self.statements.clear();
            let connected = postgres::Client::connect(&self.url, postgres::NoTls).map_err(|e| {
                let mut error = DbError::from(e);
                error.unavailable = true;
                error
            })?;
            self.client = Some(connected);
        }
        self.client.as_mut().ok_or_else(|| DbError {
            message: "no connection".into(),
            unavailable: true,
        })
    }

    /// The statement of `sql`, prepared once per connection, and its
    /// parameters' values.
    fn prepare(
        &mut self,
        sql: &str,
        params: &[Param],
    ) -> Result<(postgres::Statement, Vec<Box<dyn ToSql + Sync>>), DbError> {
        let statement = match self.statements.get(sql) {
            Some(statement) if self.client.as_ref().is_some_and(|c| !c.is_closed()) => {
                statement.clone()
            }
            _ => {
                let statement = self.client()?.prepare(&dollars(sql))?;
                self.statements.insert(sql.to_string(), statement.clone());
                statement
            }
        };
        let values = statement
            .params()
            .iter()
            .zip(params)
            .map(|(ty, param)| pg_value(param, ty))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((statement, values))
    }
}

/// `?1` as PostgreSQL numbers parameters: `$1`.
fn dollars(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        if c == '\'' {
            quoted = !quoted;
        }
        if c == '?' && !quoted && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

/// A PostgreSQL value for a parameter of type `ty`.
fn pg_value(param: &Param, ty: &Type) -> Result<Box<dyn ToSql + Sync>, DbError> {
    let wrong = || DbError {
        message: format!("a value {param:?} for a parameter of type {ty}"),
        unavailable: false,
    };
    Ok(match (param, ty) {
        (Param::Null, t) if *t == Type::INT8 => Box::new(None::<i64>),
        (Param::Null, t) if *t == Type::INT4 => Box::new(None::<i32>),
        (Param::Null, t) if *t == Type::BOOL => Box::new(None::<bool>),
        (Param::Null, _) => Box::new(None::<String>),
        (Param::Int(n), t) if *t == Type::INT8 => Box::new(*n),
        (Param::Int(n), t) if *t == Type::INT4 => Box::new(i32::try_from(*n).map_err(|_| wrong())?),
        (Param::Int(n), t) if *t == Type::BOOL => Box::new(*n != 0),
        (Param::Int(n), _) => Box::new(n.to_string()),
        (Param::Text(text), t) if *t == Type::INT8 => {
            Box::new(text.parse::<i64>().map_err(|_| wrong())?)
        }
        (Param::Text(text), _) => Box::new(text.clone()),
    })
}

fn pg_row(row: &postgres::Row) -> Result<Row, DbError> {
    let mut values = Vec::with_capacity(row.len());
    for (index, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let value = if *ty == Type::INT8 {
            row.try_get::<_, Option<i64>>(index)?.into()
        } else if *ty == Type::INT4 {
            row.try_get::<_, Option<i32>>(index)?.map(i64::from).into()
        } else if *ty == Type::BOOL {
            row.try_get::<_, Option<bool>>(index)?.into()
        } else {
            row.try_get::<_, Option<String>>(index)?.into()
        };
        values.push(value);
    }
    Ok(Row(values))
}

fn sqlite_row(row: &rusqlite::Row<'_>, columns: usize) -> rusqlite::Result<Row> {
    let mut values = Vec::with_capacity(columns);
    for index in 0..columns {
        values.push(match sqlite_column(row, index)? {
            ColumnRef::Null => Param::Null,
            ColumnRef::Int(n) => Param::Int(n),
            ColumnRef::Text(text) => Param::Text(text.into_owned()),
        });
    }
    Ok(Row(values))
}

impl Db {
    /// Connects to PostgreSQL at `url` (`postgresql://user@host/db`).
    pub(crate) fn postgres(url: &str) -> Result<Db, DbError> {
        let mut postgres = Postgres {
            url: url.to_string(),
            client: None,
            statements: std::collections::HashMap::new(),
        };
        postgres.client()?;
        Ok(Db::Postgres(Box::new(postgres)))
    }

    pub(crate) fn is_postgres(&self) -> bool {
        matches!(self, Db::Postgres(_))
    }

    /// Runs statements without parameters (schema changes).
    pub(crate) fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        match self {
            Db::Sqlite(connection) => Ok(connection.execute_batch(sql)?),
            Db::Postgres(postgres) => Ok(postgres.client()?.batch_execute(sql)?),
        }
    }

    /// Runs a statement; the rows it changed.
    pub(crate) fn execute(&mut self, sql: &str, params: &[Param]) -> Result<usize, DbError> {
        match self {
            Db::Sqlite(connection) => {
                let mut statement = connection.prepare_cached(sql)?;
                Ok(statement
                    .execute(rusqlite::params_from_iter(params.iter().map(sqlite_param)))?)
            }
            Db::Postgres(postgres) => {
                let (statement, values) = postgres.prepare(sql, params)?;
                let refs: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v.as_ref()).collect();
                let changed = postgres.client()?.execute(&statement, &refs)?;
                Ok(usize::try_from(changed).unwrap_or(usize::MAX))
            }
        }
    }

    /// The rows a query answers.
    pub(crate) fn query(&mut self, sql: &str, params: &[Param]) -> Result<Vec<Row>, DbError> {
        let mut rows = Vec::new();
        self.query_each(sql, params, &mut |row| {
            rows.push(row);
            true
        })?;
        Ok(rows)
    }

    /// Hands the rows a query answers to `each` as they are read, until
    /// it returns false: a fleet's answer is never all in memory at once.
    pub(crate) fn query_each(
        &mut self,
        sql: &str,
        params: &[Param],
        each: &mut dyn FnMut(Row) -> bool,
    ) -> Result<(), DbError> {
        match self {
            Db::Sqlite(connection) => {
                let mut statement = connection.prepare_cached(sql)?;
                let columns = statement.column_count();
                let mut rows =
                    statement.query(rusqlite::params_from_iter(params.iter().map(sqlite_param)))?;
                while let Some(row) = rows.next()? {
                    if !each(sqlite_row(row, columns)?) {
                        break;
                    }
                }
                Ok(())
            }
            Db::Postgres(postgres) => {
                use postgres::fallible_iterator::FallibleIterator;
                let (statement, values) = postgres.prepare(sql, params)?;
                let refs = values.iter().map(|v| v.as_ref() as &(dyn ToSql + Sync));
                let mut rows = postgres.client()?.query_raw(&statement, refs)?;
                while let Some(row) = rows.next()? {
                    if !each(pg_row(&row)?) {
                        break;
                    }
                }
                Ok(())
            }
        }
    }

    /// Hands the rows a query answers to `each` as they are read, read
    /// in place ([`Columns`]), until it returns false.
    pub(crate) fn query_each_columns(
        &mut self,
        sql: &str,
        params: &[Param],
        each: &mut dyn FnMut(&dyn Columns) -> bool,
    ) -> Result<(), DbError> {
        match self {
            Db::Sqlite(connection) => {
                let mut statement = connection.prepare_cached(sql)?;
                let mut rows =
                    statement.query(rusqlite::params_from_iter(params.iter().map(sqlite_param)))?;
                while let Some(row) = rows.next()? {
                    if !each(&SqliteColumns(row)) {
                        break;
                    }
                }
                Ok(())
            }
            Db::Postgres(_) => self.query_each(sql, params, &mut |row| each(&row)),
        }
    }

    /// Hands `each` the rows of `sql` whose first column is the first
    /// column of a row of `keys` (a statement of two columns and no
    /// parameters), with that row's second column, until it returns
    /// false. Both statements are ordered by their first column as text
    /// (SQLite's BINARY collation, the bytes' order) and read side by
    /// side: a merge join, which SQLite's planner never makes. It looks
    /// each row's key up in an index instead, and for a fleet's answer
    /// (every node's exported sshkey) those lookups are a good part of
    /// the database's time. True when it read them; on PostgreSQL it
    /// reads nothing and answers false: PostgreSQL's planner merges by
    /// itself, so the caller joins in its statement.
    pub(crate) fn query_each_columns_merged(
        &mut self,
        sql: &str,
        params: &[Param],
        keys: &str,
        each: &mut Merged<'_>,
    ) -> Result<bool, DbError> {
        use rusqlite::types::ValueRef;
        let Db::Sqlite(connection) = self else {
            return Ok(false);
        };
        // A column's text copied into `into`, which holds none when null.
        let copy = |value: ValueRef<'_>, into: &mut Vec<u8>| {
            into.clear();
            match value {
                ValueRef::Text(text) | ValueRef::Blob(text) => {
                    into.extend_from_slice(text);
                    true
                }
                _ => false,
            }
        };
        let mut statement = connection.prepare_cached(sql)?;
        let mut keyed = connection.prepare_cached(keys)?;
        let mut rows =
            statement.query(rusqlite::params_from_iter(params.iter().map(sqlite_param)))?;
        let mut key_rows = keyed.query([])?;
        // The key row reached, copied (into the same buffers each time):
        // the two cursors step apart.
        let (mut key, mut value, mut has_value) = (Vec::new(), Vec::new(), false);
        let mut keys_left = true;
        while let Some(row) = rows.next()? {
            let (ValueRef::Text(name) | ValueRef::Blob(name)) = row.get_ref(0)? else {
                continue;
            };
            while keys_left && key.as_slice() < name {
                match key_rows.next()? {
                    Some(found) => {
                        copy(found.get_ref(0)?, &mut key);
                        has_value = copy(found.get_ref(1)?, &mut value);
                    }
                    None => keys_left = false,
                }
            }
            if !keys_left {
                break;
            }
            let value = has_value.then_some(value.as_slice());
            if key.as_slice() == name && !each(&SqliteColumns(row), value) {
                break;
            }
        }
        Ok(true)
    }

    /// The first row a query answers, if any.
    pub(crate) fn query_one(
        &mut self,
        sql: &str,
        params: &[Param],
    ) -> Result<Option<Row>, DbError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }

    /// Runs `work` in one transaction: committed when it succeeds, rolled
    /// back when it fails.
    pub(crate) fn transaction<T, E: From<DbError>>(
        &mut self,
        work: impl FnOnce(&mut Db) -> Result<T, E>,
    ) -> Result<T, E> {
        // SQLite takes the write lock at once, so two processes on one
        // file wait for each other rather than fail.
        let begin = if self.is_postgres() {
            "BEGIN"
        } else {
            "BEGIN IMMEDIATE"
        };
        self.batch(begin)?;
        match work(self) {
            Ok(value) => match self.batch("COMMIT") {
                Ok(()) => Ok(value),
                Err(error) => {
                    let _ = self.batch("ROLLBACK");
                    Err(error.into())
                }
            },
            Err(error) => {
                let _ = self.batch("ROLLBACK");
                Err(error)
            }
        }
    }
}

fn sqlite_param(param: &Param) -> rusqlite::types::Value {
    match param {
        Param::Null => rusqlite::types::Value::Null,
        Param::Text(text) => rusqlite::types::Value::Text(text.clone()),
        Param::Int(n) => rusqlite::types::Value::Integer(*n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_numbered_with_dollars_for_postgresql() {
        assert_eq!(
            dollars("SELECT a FROM t WHERE b = ?1 AND (?2 IS NULL OR c = ?2) AND d = '?3'"),
            "SELECT a FROM t WHERE b = $1 AND ($2 IS NULL OR c = $2) AND d = '?3'"
        );
        assert_eq!(dollars("SELECT 1"), "SELECT 1");
    }

    #[test]
    fn rows_read_as_the_store_wants() {
        let row = Row(vec![Param::Text("7".into()), Param::Int(1), Param::Null]);
        assert_eq!(row.text(0).as_deref(), Some("7"));
        assert_eq!(row.int(0), Some(7));
        assert!(row.boolean(1));
        assert!(!row.boolean(2));
        assert_eq!(row.text(2), None);
        assert_eq!(row.text(9), None);
        assert_eq!(Param::from(Some("a")), Param::Text("a".into()));
        assert_eq!(Param::from(None::<&str>), Param::Null);
        assert_eq!(Param::from(true), Param::Int(1));
    }

    #[test]
    fn merged_rows_are_those_of_a_key_with_its_value() {
        let mut db = Db::Sqlite(rusqlite::Connection::open_in_memory().expect("a database"));
        // Rows before the first key, between keys, several of one key;
        // a key with no row; a name past ASCII, which the database orders
        // by its bytes, after "zz" (and so the last key); a row after it.
        db.batch(
            "CREATE TABLE r (k TEXT, n INTEGER);
             CREATE TABLE k (k TEXT PRIMARY KEY, e TEXT);
             INSERT INTO r VALUES ('a', 1), ('b', 2), ('b', 3), ('c', 4), ('é', 5), ('z', 6),
                                  ('zz', 7), ('ü', 8);
             INSERT INTO k VALUES ('b', 'B'), ('bb', 'BB'), ('é', NULL), ('z', 'Z');",
        )
        .expect("the tables");
        let mut seen = Vec::new();
        let merged = db
            .query_each_columns_merged(
                "SELECT k, n FROM r WHERE n > ?1 ORDER BY k, n",
                &[Param::Int(0)],
                "SELECT k, e FROM k ORDER BY k",
                &mut |columns, value| {
                    seen.push((
                        columns.column(1).int(),
                        value.map(|v| String::from_utf8_lossy(v).into_owned()),
                    ));
                    true
                },
            )
            .expect("the merge");
        assert!(merged);
        let named = |n: i64, value: Option<&str>| (Some(n), value.map(String::from));
        assert_eq!(
            seen,
            [
                named(2, Some("B")),
                named(3, Some("B")),
                named(6, Some("Z")),
                named(5, None)
            ]
        );
        // Stopped by `each`.
        let mut count = 0;
        db.query_each_columns_merged(
            "SELECT k, n FROM r WHERE n > ?1 ORDER BY k, n",
            &[Param::Int(0)],
            "SELECT k, e FROM k ORDER BY k",
            &mut |_, _| {
                count += 1;
                false
            },
        )
        .expect("the merge");
        assert_eq!(count, 1);
    }
}
