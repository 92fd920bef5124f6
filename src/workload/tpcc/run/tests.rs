//! Unit tests of `workload/tpcc/run.rs`, beside it so the subject stays readable.

use super::*;

fn options(terminals: TerminalWarehouse) -> RunOptions {
    RunOptions {
        terminals,
        think: ThinkTime::Off,
        mix: DECK,
        procedures: false,
        delivery: DeliveryMode::Interactive,
    }
}
use crate::workload::rand::valid_c_last_delta;

fn worker(w: u32, terminals: TerminalWarehouse) -> TpccWorker {
    let one = super::super::sets::TableSets::one(crate::engine::Engine::Mysql);
    let t = Tpcc::new(w, NullDates::Null, 100, &options(terminals), (0, &one), 7);
    TpccWorker {
        set: 0,
        schema: None,
        home: 1,
        district: 1,
        warehouses: w,
        terminals,
        think: ThinkTime::Off,
        mix: DECK,
        deck: Vec::new(),
        c_last: t.c_last,
        c_id: t.c_id,
        c_ol_i_id: t.c_ol_i_id,
        rng: worker_rng(3, 3),
        stmts: Stmts::default(),
        input: None,
        counters: t.counters.clone(),
        name: Vec::new(),
        procedures: false,
        deferred: None,
        started: false,
    }
}

#[test]
fn the_deck_deals_23_cards_in_the_specified_proportions() {
    let mut w = worker(1, TerminalWarehouse::Fixed);
    let mut counts = [0; 5];
    for _ in 0..23 * 100 {
        counts[w.next_kind()] += 1;
    }
    assert_eq!(counts, [1000, 1000, 100, 100, 100]);
}

#[test]
fn inputs_meet_the_required_rates() {
    let mut w = worker(10, TerminalWarehouse::Fixed);
    let (mut orders, mut rollbacks, mut lines, mut remote_lines) = (0, 0, 0, 0);
    let (mut payments, mut remote, mut by_name) = (0, 0, 0);
    for _ in 0..50_000 {
        if let Input::NewOrder(NewOrder {
            w: home, lines: ls, ..
        }) = w.input(0)
        {
            orders += 1;
            rollbacks += u32::from(ls.last().unwrap().i_id == ITEMS + 1);
            lines += ls.len();
            remote_lines += ls.iter().filter(|l| l.supply_w != home).count();
            assert!((5..=15).contains(&ls.len()));
        }
        if let Input::Payment(Payment {
            w: home,
            c_w,
            by,
            amount,
            ..
        }) = w.input(1)
        {
            payments += 1;
            remote += u32::from(c_w != home);
            by_name += u32::from(matches!(by, CustomerBy::Last(_)));
            assert!((100..=500_000).contains(&amount));
        }
    }
    let pct = |a: f64, b: f64| 100.0 * a / b;
    assert!((0.8..1.2).contains(&pct(rollbacks as f64, orders as f64)));
    assert!((9.9..10.1).contains(&(lines as f64 / orders as f64)));
    assert!((0.9..1.1).contains(&pct(remote_lines as f64, lines as f64)));
    assert!((14.5..15.5).contains(&pct(remote as f64, payments as f64)));
    assert!((59.0..61.0).contains(&pct(by_name as f64, payments as f64)));
}

#[test]
fn the_run_time_c_honours_the_delta_rule() {
    for seed in 0..200 {
        let t = Tpcc::new(
            1,
            NullDates::Null,
            (seed % 256) as u32,
            &options(TerminalWarehouse::Fixed),
            (
                0,
                &super::super::sets::TableSets::one(crate::engine::Engine::Mysql),
            ),
            seed,
        );
        assert!(valid_c_last_delta(t.c_last_load, t.c_last));
        assert!(t.c_id <= 1023 && t.c_ol_i_id <= 8191);
    }
}

#[test]
fn think_times_follow_the_specification() {
    let mut w = worker(1, TerminalWarehouse::Fixed);
    w.think = ThinkTime::Scaled(1.0);
    // The first pause is the start's (below).
    let _ = w.pauses(0);
    let mut sum = 0.0;
    for _ in 0..20_000 {
        let (key, think) = w.pauses(0);
        assert_eq!(key, Duration::from_secs(18));
        assert!(think <= Duration::from_secs(120));
        sum += think.as_secs_f64();
    }
    let mean = sum / 20_000.0;
    assert!((11.5..12.5).contains(&mean), "mean think {mean}");
    w.think = ThinkTime::Off;
    assert_eq!(w.pauses(3), (Duration::ZERO, Duration::ZERO));
}

/// Terminals start spread over one mean cycle of keying and think time, each fifth of it
/// taking a fifth of them, and then key as the specification says: all keying at once,
/// 10,000 terminals sent some 4,300 Payments in one instant.
#[test]
fn terminals_start_spread_over_one_mean_cycle() {
    let cycle = mean_cycle_s(&DECK);
    assert!((cycle - 476.0 / 23.0).abs() < 1e-9, "{cycle}");
    let mut fifths = [0u32; 5];
    for id in 0..2_000 {
        let mut w = worker(1, TerminalWarehouse::Fixed);
        w.rng = worker_rng(11, id);
        w.think = ThinkTime::Scaled(0.5);
        let (first, _) = w.pauses(1);
        let share = first.as_secs_f64() / (cycle * 0.5);
        assert!((0.0..1.0).contains(&share), "{first:?}");
        fifths[(share * 5.0) as usize] += 1;
        assert_eq!(w.pauses(1).0, Duration::from_secs_f64(1.5), "then keying");
    }
    assert!(
        fifths.iter().all(|&n| (320..480).contains(&n)),
        "{fifths:?}"
    );
}

#[test]
fn terminals_are_dealt_evenly_over_table_sets_and_their_warehouses() {
    let sets = super::super::sets::TableSets {
        base: "db".into(),
        count: 3,
        engine: crate::engine::Engine::Mysql,
    };
    let t = Tpcc::new(
        2,
        NullDates::Null,
        100,
        &options(TerminalWarehouse::Fixed),
        (12, &sets),
        7,
    );
    let mut seen = std::collections::BTreeMap::new();
    let mut districts = std::collections::BTreeSet::new();
    for id in 0..12 {
        let (set, home, district) = t.assign(id);
        *seen.entry((set, home)).or_insert(0) += 1;
        districts.insert((set, home, district));
    }
    assert_eq!(seen.len(), 6, "{seen:?}");
    assert_eq!(
        districts.len(),
        12,
        "two terminals of a home share no district"
    );
    let one = super::super::sets::TableSets::one(crate::engine::Engine::Mysql);
    let t1 = Tpcc::new(
        3,
        NullDates::Null,
        100,
        &options(TerminalWarehouse::Fixed),
        (7, &one),
        7,
    );
    for id in 0..7 {
        assert_eq!(t1.assign(id), (0, id % 3 + 1, (id / 3) % 10 + 1));
    }
    assert!(seen.values().all(|&n| n == 2), "{seen:?}");
    // Sharded, each shard's terminals have homes of their own across the sets.
    let a = t
        .shard_users(12, crate::shard::Shard { index: 1, count: 2 })
        .unwrap();
    let b = t
        .shard_users(12, crate::shard::Shard { index: 2, count: 2 })
        .unwrap();
    assert_eq!(a.len() + b.len(), 12);
    assert!(a.iter().all(|i| !b.contains(i)));
}
