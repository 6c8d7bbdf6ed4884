//! The reading connections of a SQLite store, handed out first come,
//! first served.
//!
//! A query holds its connection while it reads, writes and compresses its
//! answer, which for a fleet-wide query is most of its time. With a
//! connection per core, a query that finds none free waits for the first
//! to come free, in the order the queries came: a lock per connection
//! would make it wait on one chosen in advance (while another comes free)
//! or let later queries overtake it, and a few users asking for megabytes
//! at once would see some answers wait two or three times as long as the
//! others.

use std::collections::VecDeque;
use std::ops::{Deref, DerefMut};
use std::sync::{Condvar, Mutex, MutexGuard};

use crate::db::Db;

pub(crate) struct Readers {
    state: Mutex<State>,
    freed: Condvar,
}

struct State {
    free: Vec<Db>,
    /// The tickets of the queries waiting, oldest first.
    waiting: VecDeque<u64>,
    next_ticket: u64,
}

impl Readers {
    pub(crate) fn new(connections: Vec<Db>) -> Readers {
        Readers {
            state: Mutex::new(State {
                free: connections,
                waiting: VecDeque::new(),
                next_ticket: 0,
            }),
            freed: Condvar::new(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // The state is a list of connections and tickets, whole after
        // every change: a panic elsewhere cannot leave it half made.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A free connection, once every query that asked before has one.
    pub(crate) fn get(&self) -> Reader<'_> {
        let mut state = self.state();
        let ticket = state.next_ticket;
        state.next_ticket += 1;
        state.waiting.push_back(ticket);
        loop {
            if state.waiting.front() == Some(&ticket)
                && let Some(db) = state.free.pop()
            {
                state.waiting.pop_front();
                // The next in line may find another connection free.
                self.freed.notify_all();
                return Reader {
                    readers: self,
                    db: Some(db),
                };
            }
            state = self.freed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// A connection lent to one query, given back when dropped.
pub(crate) struct Reader<'a> {
    readers: &'a Readers,
    db: Option<Db>,
}

impl Deref for Reader<'_> {
    type Target = Db;

    fn deref(&self) -> &Db {
        self.db
            .as_ref()
            .expect("a reader holds its connection until dropped")
    }
}

impl DerefMut for Reader<'_> {
    fn deref_mut(&mut self) -> &mut Db {
        self.db
            .as_mut()
            .expect("a reader holds its connection until dropped")
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        if let Some(db) = self.db.take() {
            self.readers.state().free.push(db);
            self.readers.freed.notify_all();
        }
    }
}

/// A connection to read with: a reader's, or (on PostgreSQL, which has
/// no readers) the store's one connection.
pub(crate) enum Reading<'a> {
    Reader(Reader<'a>),
    Shared(MutexGuard<'a, Db>),
}

impl Deref for Reading<'_> {
    type Target = Db;

    fn deref(&self) -> &Db {
        match self {
            Reading::Reader(reader) => reader,
            Reading::Shared(guard) => guard,
        }
    }
}

impl DerefMut for Reading<'_> {
    fn deref_mut(&mut self) -> &mut Db {
        match self {
            Reading::Reader(reader) => reader,
            Reading::Shared(guard) => guard,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    fn memory() -> Db {
        Db::Sqlite(rusqlite::Connection::open_in_memory().expect("an in-memory database"))
    }

    #[test]
    fn queries_get_connections_in_the_order_they_asked() {
        let readers = Arc::new(Readers::new(vec![memory()]));
        let held = readers.get();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut waiting = Vec::new();
        for n in 0..4 {
            let (asking, order) = (readers.clone(), order.clone());
            waiting.push(std::thread::spawn(move || {
                let _reader = asking.get();
                order.lock().unwrap().push(n);
                std::thread::sleep(Duration::from_millis(5));
            }));
            // Each asks before the next does.
            while readers.state().waiting.len() < n + 1 {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        drop(held);
        for thread in waiting {
            thread.join().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), [0, 1, 2, 3]);
        assert_eq!(readers.state().free.len(), 1);
    }

    #[test]
    fn a_query_takes_whichever_connection_comes_free() {
        let readers = Arc::new(Readers::new(vec![memory(), memory()]));
        let first = readers.get();
        let second = readers.get();
        let asking = {
            let readers = readers.clone();
            std::thread::spawn(move || drop(readers.get()))
        };
        while readers.state().waiting.is_empty() {
            std::thread::sleep(Duration::from_millis(1));
        }
        // The second comes free first; the one waiting takes it.
        drop(second);
        asking.join().unwrap();
        drop(first);
        assert_eq!(readers.state().free.len(), 2);
    }
}
