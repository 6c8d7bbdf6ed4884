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
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = cores.min(MAX_THREADS).min(count / (MIN_ITEMS / 2));
    if count < MIN_ITEMS || threads < 2 {
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

/// `f` of each of `0..count`, in order, computed as [`chunks`] does.
pub fn map<T: Send>(count: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let parts = chunks(count, |range| range.map(&f).collect::<Vec<T>>());
    let mut results = Vec::with_capacity(count);
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
    fn chunks_cover_every_item_once() {
        for count in [0, 7, 512, 1_001, 5_000] {
            let ranges = chunks(count, |range| range);
            let covered: Vec<usize> = ranges.into_iter().flatten().collect();
            assert_eq!(covered, (0..count).collect::<Vec<_>>());
        }
    }
}
