//! The fuzz targets on a bounded number of inputs, and every input that
//! once found a bug, on each test run. The long searches (ten million
//! inputs per target) are `marionette-fuzz TARGET --runs N`.

use marionette_fuzz::{input, targets};

/// Inputs per target here: enough to notice a reader that panics easily,
/// few enough for the test command's time.
const RUNS: u64 = 3_000;

#[test]
fn every_target_survives_its_corpus_and_mutated_inputs() {
    for target in targets() {
        let corpus = target.corpus();
        assert!(
            corpus.len() >= 5,
            "{}: the corpus has {} files",
            target.name,
            corpus.len()
        );
        for entry in corpus.iter().chain(&target.regressions()) {
            target.run(entry);
        }
        for index in 0..RUNS {
            target.run(&input(target, &corpus, 7, index));
        }
    }
}

#[test]
fn inputs_are_the_same_for_the_same_numbers() {
    let target = &targets()[1];
    let corpus = target.corpus();
    assert_eq!(input(target, &corpus, 3, 99), input(target, &corpus, 3, 99));
    assert_ne!(
        input(target, &corpus, 3, 99),
        input(target, &corpus, 3, 100)
    );
}
