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

/// The server target reaches the handlers: its corpus's requests are
/// answered as a server answers them, not refused at the door.
#[test]
fn the_server_harness_answers_its_corpus() {
    let dir = tempfile_dir("server-harness");
    let harness = marionette_server::fuzzing::Harness::new(&dir).expect("the harness");
    let corpus = marionette_fuzz::repository().join("crates/fuzz/corpus/server-request");
    for (file, status) in [
        ("catalog.http", "HTTP/1.1 200"),
        ("content.http", "HTTP/1.1 200"),
        ("metadatas.http", "HTTP/1.1 200"),
        ("facts.http", "HTTP/1.1 200"),
        ("csr.http", "HTTP/1.1 400"),
        ("pdb.http", "HTTP/1.1 503"),
    ] {
        let input = std::fs::read(corpus.join(file)).unwrap();
        let answer = String::from_utf8_lossy(&harness.request(&input)).into_owned();
        assert!(answer.starts_with(status), "{file}: {answer}");
    }
    // The same request without a certificate is refused.
    let mut anonymous = std::fs::read(corpus.join("catalog.http")).unwrap();
    anonymous[0] = 0;
    let answer = String::from_utf8_lossy(&harness.request(&anonymous)).into_owned();
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mrtest-fuzz-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The CSR target reaches the CA's checks and signing: an unmutated
/// request of its corpus is signed.
#[test]
fn the_csr_target_signs_a_good_request() {
    let target = targets().iter().find(|t| t.name == "csr").unwrap();
    let signed = std::env::temp_dir().join("mrtest-fuzz-ca/signed/mrtest-fuzz.pem");
    let _ = std::fs::remove_file(&signed);
    let good = std::fs::read(
        marionette_fuzz::repository().join("crates/fuzz/corpus/csr/plain-alt-ext.der"),
    )
    .unwrap();
    target.run(&good);
    assert!(signed.exists(), "{} was not signed", signed.display());
}
