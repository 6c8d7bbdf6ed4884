//! Independent work on every resource of a large catalog (writing it into
//! the catalog, converting it, finding its automatic relationships, naming
//! its containment path, writing its report entry), split over the
//! machine's cores.

use std::ops::Range;

/// Below this many items the work stays on the calling thread: starting a
/// thread costs more than it saves.
const MIN_ITEMS: usize = 512;

/// The most threads one piece of work is split over.
const MAX_THREADS: usize = 8;

/// `f` of consecutive ranges that together cover `0..count`, in order: one
/// range on the calling thread when there are few items or one core, else
/// one range per thread. A panic in `f` reaches the caller as it would
/// without threads: the failed range is computed again on this thread.
pub fn chunks<T: Send>(count: usize, f: impl Fn(Range<usize>) -> T + Sync) -> Vec<T> {
    let threads = threads_for(count);
    if threads == 1 {
        return vec![f(0..count)];
    }
    let chunk = count.div_ceil(threads);
    let part = |t: usize| (t * chunk).min(count)..((t + 1) * chunk).min(count);
    std::thread::scope(|scope| {
        let f = &f;
        let others: Vec<_> = (1..threads)
            .map(|t| scope.spawn(move || f(part(t))))
            .collect();
        let mut results = Vec::with_capacity(threads);
        results.push(f(part(0)));
        for (t, other) in (1..threads).zip(others) {
            results.push(other.join().unwrap_or_else(|_| f(part(t))));
        }
        results
    })
}

/// The cores this process may use, asked once: the answer takes several
/// system calls (the affinity mask, the cgroup's quota).
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// How many threads to split `count` items over: one when they are few or
/// the machine has one core.
fn threads_for(count: usize) -> usize {
    let cores = cores();
    let threads = cores.min(MAX_THREADS).min(count / (MIN_ITEMS / 2));
    if count < MIN_ITEMS || threads < 2 {
        1
    } else {
        threads
    }
}

/// `f` of each item, in order, each item consumed (and so freed) as it is
/// done, on several threads when there are many: for turning one large
/// structure into another without holding both whole.
pub fn map_owned<T: Send, U: Send>(mut items: Vec<T>, f: impl Fn(T) -> U + Sync) -> Vec<U> {
    let count = items.len();
    let threads = threads_for(count);
    if threads == 1 {
        return items.into_iter().map(f).collect();
    }
    let chunk = count.div_ceil(threads);
    let mut parts = Vec::with_capacity(threads);
    while items.len() > chunk {
        parts.push(items.split_off(items.len() - chunk));
    }
    parts.push(items);
    parts.reverse();
    std::thread::scope(|scope| {
        let f = &f;
        let mut parts = parts.into_iter();
        let first = parts.next().unwrap_or_default();
        let others: Vec<_> = parts
            .map(|part| scope.spawn(move || part.into_iter().map(f).collect::<Vec<U>>()))
            .collect();
        let mut results: Vec<U> = Vec::with_capacity(count);
        results.extend(first.into_iter().map(f));
        for other in others {
            match other.join() {
                Ok(done) => results.extend(done),
                // The items went with the thread: its panic is the caller's.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        results
    })
}

/// `f` of each of `0..count`, in order, computed as [`chunks`] does.
pub fn map<T: Send>(count: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let mut parts = chunks(count, |range| {
        // The first part becomes the result, with room for the others:
        // only they are moved, once.
        let room = if range.start == 0 { count } else { range.len() };
        let mut part = Vec::with_capacity(room);
        part.extend(range.map(&f));
        part
    })
    .into_iter();
    let mut results = parts.next().unwrap_or_default();
    for part in parts {
        results.extend(part);
    }
    results
}

/// Drops a large structure (thousands of resources, a catalog, a report)
/// on a thread of its own: freeing it takes milliseconds that the caller
/// does not need to wait for. When no thread can be started, the value is
/// dropped here, with the closure that held it.
pub fn drop_aside<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new()
        .name("drop-aside".into())
        .spawn(move || drop(value));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_order_of_small_and_large_inputs() {
        for count in [0, 1, 511, 512, 513, 5_000] {
            let doubled = map(count, |i| i * 2);
            assert_eq!(doubled, (0..count).map(|i| i * 2).collect::<Vec<_>>());
        }
    }

    #[test]
    fn owned_items_keep_their_order() {
        for count in [0, 3, 512, 1_001, 5_000] {
            let items: Vec<String> = (0..count).map(|i| i.to_string()).collect();
            let lengths = map_owned(items, |s| s.parse::<usize>().unwrap());
            assert_eq!(lengths, (0..count).collect::<Vec<_>>());
        }
    }

    #[test]
    fn chunks_cover_every_item_once() {
        for count in [0, 7, 512, 1_001, 5_000] {
            let ranges = chunks(count, |range| range);
            let covered: Vec<usize> = ranges.into_iter().flatten().collect();
            assert_eq!(covered, (0..count).collect::<Vec<_>>());
        }
    }
}
