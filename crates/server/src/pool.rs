//! A few threads of their own for PuppetDB's queries.
//!
//! A fleet-wide answer allocates tens of megabytes in small pieces. Run
//! on the runtime's blocking pool, whichever of its dozens of threads
//! took a query kept what it freed for its own next use, so the server's
//! memory grew with the threads that had ever answered one (1.1 GB after
//! a 10,000-node load) rather than with the queries running at once.

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, mpsc};

type Job = Box<dyn FnOnce() + Send>;

/// Threads taking jobs in turn from one queue.
pub(crate) struct Pool {
    jobs: mpsc::Sender<Job>,
}

/// The job panicked, or the pool is gone.
#[derive(Debug)]
pub(crate) struct Stopped;

impl Pool {
    /// `threads` threads named `name-N`.
    pub(crate) fn new(threads: usize, name: &str) -> std::io::Result<Pool> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for index in 0..threads.max(1) {
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("{name}-{index}"))
                .spawn(move || {
                    loop {
                        // The lock is held only while waiting for a job.
                        let job = queue.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                })?;
        }
        Ok(Pool { jobs })
    }

    /// Runs `work` on one of the pool's threads, after those queued
    /// before it.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Stopped> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            // A panic fails this job alone; the thread goes on.
            let _ = answer.send(std::panic::catch_unwind(AssertUnwindSafe(work)));
        });
        self.jobs.send(job).map_err(|_| Stopped)?;
        match answered.await {
            Ok(Ok(value)) => Ok(value),
            _ => Err(Stopped),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_run_on_the_pool_and_a_panic_fails_its_job_alone() {
        let pool = Pool::new(2, "mrtest-pool").unwrap();
        let name = pool
            .run(|| std::thread::current().name().map(str::to_string))
            .await
            .unwrap();
        assert!(name.is_some_and(|n| n.starts_with("mrtest-pool-")));
        assert!(pool.run(|| panic!("a failing job")).await.is_err());
        for n in 0..4 {
            assert_eq!(pool.run(move || n * 2).await.unwrap(), n * 2);
        }
    }
}
