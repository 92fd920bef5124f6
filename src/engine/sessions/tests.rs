use super::*;
use proptest::prelude::*;

#[test]
fn statements_are_classed_by_their_first_word() {
    for (sql, class) in [
        ("BEGIN", Class::Begin),
        ("begin;", Class::Begin),
        ("BEGIN WORK", Class::Begin),
        ("START TRANSACTION READ ONLY", Class::Begin),
        ("start   transaction", Class::Begin),
        ("SELECT c FROM sbtest1 WHERE id=?", Class::Dml),
        ("  /* a comment */ select 1", Class::Dml),
        ("-- a comment\nUPDATE t SET a = 1", Class::Dml),
        ("# a comment\nDELETE FROM t", Class::Dml),
        ("(SELECT 1) UNION (SELECT 2)", Class::Dml),
        ("INSERT INTO t VALUES (1, ';')", Class::Other),
        ("REPLACE INTO t VALUES (1)", Class::Dml),
        ("DO SLEEP(0.002)", Class::Dml),
        ("WITH a AS (SELECT 1) SELECT * FROM a", Class::Dml),
        ("SELECT 1;", Class::Dml),
        ("SELECT 1;  \n", Class::Dml),
        ("SELECT 1; COMMIT", Class::Other),
        ("UPDATE t SET a = 1;/* */COMMIT", Class::Other),
        ("COMMIT", Class::Other),
        ("END", Class::Other),
        ("ROLLBACK", Class::Other),
        ("CALL neword(1, 2)", Class::Other),
        ("SET autocommit = 1", Class::Other),
        ("BEGIN NOT ATOMIC KILL CONNECTION 7; END", Class::Other),
        ("START SLAVE", Class::Other),
        ("SELECTED", Class::Other),
        ("", Class::Other),
        ("/* never closed", Class::Other),
        ("/*!00000 COMMIT; */ SELECT 1", Class::Other),
        ("/*M!100000 COMMIT */ SELECT 1", Class::Other),
    ] {
        assert_eq!(Class::of(sql), class, "{sql:?}");
    }
}

#[test]
fn inside_a_transaction_only_dml_ends_nothing_and_outside_only_begin() {
    assert!(!Class::Dml.may_end(Some(true)));
    assert!(Class::Dml.may_end(Some(false)), "autocommitted");
    assert!(!Class::Begin.may_end(Some(false)));
    assert!(
        Class::Begin.may_end(Some(true)),
        "MySQL's BEGIN commits the open transaction"
    );
    assert!(Class::Other.may_end(Some(true)) && Class::Other.may_end(Some(false)));
    // After an error the status is not known: a transaction may still be open.
    for c in [Class::Begin, Class::Dml, Class::Other] {
        assert!(c.may_end(None), "{c:?}");
    }
}

#[test]
fn a_gate_closes_only_while_clean_and_then_refuses() {
    let g = Gate::default();
    g.attempt(false);
    assert!(g.close(), "clean: the cut closes it");
    assert!(g.closed());
    assert!(
        !g.pass(),
        "closed: what could end a transaction must not go out"
    );
    g.attempt(false);
    assert!(g.closed(), "a new attempt does not reopen it");

    let g = Gate::default();
    g.attempt(false);
    assert!(g.pass() && g.pass(), "passed twice in one attempt");
    assert!(!g.close(), "a COMMIT may have gone out: not cut as clean");
    g.attempt(false);
    assert!(g.close(), "the next attempt starts clean");

    let g = Gate::default();
    g.attempt(true);
    assert!(
        !g.close(),
        "a transaction left open by an earlier attempt may end in this one"
    );
}

#[test]
fn a_thread_holds_the_gate_it_is_given() {
    guard(None);
    assert!(GATE.with(|g| g.borrow().is_none()));
    let closed = Arc::new(Gate::default());
    closed.attempt(false);
    assert!(closed.close());
    guard(Some(closed.clone()));
    let refused = GATE.with(|g| g.borrow().as_ref().map(|g| g.pass()));
    assert_eq!(refused, Some(false));
    guard(None);
}

proptest! {
    /// Whatever precedes it, a COMMIT after a `;` makes the text one that may end a
    /// transaction, and no text panics the classifier.
    #[test]
    fn a_commit_after_a_statement_is_never_dml(head in "[ -~\n]{0,40}") {
        let _ = Class::of(&head);
        let sql = format!("{head};COMMIT");
        prop_assert_ne!(Class::of(&sql), Class::Dml, "{:?}", sql);
    }
}
