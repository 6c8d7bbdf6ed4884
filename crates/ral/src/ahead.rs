//! Checking resources ahead of the transaction, on other threads.
//!
//! In a run where little changes, most of the time goes to reading the
//! state of each resource and finding it in sync. For providers that allow
//! it ([`PropertyProvider::reads_ahead`](crate::provider::PropertyProvider::reads_ahead)),
//! the run starts checkers as soon
//! as its resources are known, before it orders them: each reads a
//! resource's state through the provider, compares every managed property
//! as the evaluation would, and records whether the resource is in sync.
//! The checkers take the resources from the last back while the
//! transaction evaluates them from the first on; every resource is decided
//! once, by whichever side reaches it first, and the checkers stop where
//! the two meet.
//!
//! A verdict only holds while nothing has changed: the transaction uses it
//! while the run's [`ChangeCount`] has not moved since the checkers
//! started. Any change, failure or refresh moves it, and from then on
//! every resource is read again when it is evaluated, exactly as without
//! the checkers. A resource found out of sync, or whose state could not be
//! read, is always evaluated in full.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use crate::provider::{ChangeCount, Context, Implementation, Instance, PropertyHash, ProviderDef};
use crate::resource::Resource;

thread_local! {
    static READING_AHEAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread checks resources ahead of the transaction: a
/// provider's read that would log (what Puppet says when it evaluates the
/// resource) fails there, and is made again when the resource is
/// evaluated.
pub fn reading_ahead() -> bool {
    READING_AHEAD.with(std::cell::Cell::get)
}

/// Below this many resources the checkers cost more than they save.
const MIN_RESOURCES: usize = 2;

/// The most checker threads of one run.
const MAX_THREADS: usize = 4;

pub(crate) struct Ahead {
    generation: ChangeCount,
    start: u64,
    resources: Arc<[Resource]>,
    /// The provider that reads ahead for each resource, if any.
    providers: Vec<Option<Arc<ProviderDef>>>,
    /// Each resource's verdict once decided: `Some(true)` in sync,
    /// `Some(false)` out of sync, `None` not known (not checked, or its
    /// state could not be read).
    verdicts: Vec<OnceLock<Option<bool>>>,
    /// The positions to check, in run order; the checkers take them from
    /// the end.
    order: Vec<usize>,
    next: AtomicUsize,
}

impl Ahead {
    /// Starts checking the resources at `positions` of `cx.catalog` whose
    /// providers read ahead (`provider_of` gives each position's). `None`
    /// when there is too little to check or no thread could start.
    pub(crate) fn start(
        cx: &Context,
        positions: &[usize],
        provider_of: impl Fn(usize) -> Option<Arc<ProviderDef>>,
    ) -> Option<Arc<Ahead>> {
        let resources = cx.catalog.clone();
        let mut providers = vec![None; resources.len()];
        let mut order = Vec::new();
        for &position in positions {
            let Some(provider) = provider_of(position) else {
                continue;
            };
            if let Implementation::Properties(p) = &provider.implementation
                && p.reads_ahead()
                && providers[position].is_none()
            {
                providers[position] = Some(provider.clone());
                order.push(position);
            }
        }
        if order.len() < MIN_RESOURCES {
            return None;
        }
        let ahead = Arc::new(Ahead {
            generation: cx.generation.clone(),
            start: cx.generation.current(),
            verdicts: (0..resources.len()).map(|_| OnceLock::new()).collect(),
            resources,
            providers,
            next: AtomicUsize::new(order.len()),
            order,
        });
        let threads = marionette_values::parallel::cores()
            .saturating_sub(1)
            .clamp(1, MAX_THREADS);
        let mut started = false;
        for _ in 0..threads {
            let worker = ahead.clone();
            let cx = cx.clone();
            started |= std::thread::Builder::new()
                .name("check-ahead".into())
                .spawn(move || worker.run(&cx))
                .is_ok();
        }
        started.then_some(ahead)
    }

    /// Whether nothing has changed since the checkers started.
    fn valid(&self) -> bool {
        self.generation.current() == self.start
    }

    fn run(&self, cx: &Context) {
        READING_AHEAD.with(|ahead| ahead.set(true));
        while let Ok(taken) = self
            .next
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
        {
            if !self.valid() {
                return;
            }
            let position = self.order[taken - 1];
            let verdict = &self.verdicts[position];
            // The transaction got here first: everything before is its own.
            if verdict.get().is_some() {
                return;
            }
            verdict.get_or_init(|| self.check(cx, position));
        }
    }

    fn check(&self, cx: &Context, position: usize) -> Option<bool> {
        let Implementation::Properties(provider) =
            &self.providers[position].as_ref()?.implementation
        else {
            return None;
        };
        let instance = Instance {
            resource: &self.resources[position],
            property_hash: PropertyHash::new(),
        };
        // A provider that panics is left for the transaction to report.
        catch_unwind(AssertUnwindSafe(|| {
            crate::sync::in_sync(provider.as_ref(), cx, &instance).ok()
        }))
        .ok()
        .flatten()
    }

    /// Whether `resource` was found in sync, if that still holds. Claims
    /// the resource when no checker has decided it yet, so that none
    /// starts on it: the transaction then evaluates it in full.
    pub(crate) fn in_sync(&self, resource: &Resource) -> bool {
        if !self.valid() {
            return false;
        }
        let Some(position) = self.position(resource) else {
            return false;
        };
        if self.providers[position].is_none() {
            return false;
        }
        *self.verdicts[position].get_or_init(|| None) == Some(true)
    }

    /// The position of `resource` in the checked resources, when it is
    /// one of them (not a copy).
    fn position(&self, resource: &Resource) -> Option<usize> {
        let size = std::mem::size_of::<Resource>();
        let base = self.resources.as_ptr() as usize;
        let at = resource as *const Resource as usize;
        let offset = at.checked_sub(base)?;
        let position = offset / size;
        (offset % size == 0 && position < self.resources.len()).then_some(position)
    }
}
