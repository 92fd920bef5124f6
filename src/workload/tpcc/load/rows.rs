//! What each table's rows hold (clause 4.3.3.1): one [`TableGen`] method per table, each
//! writing row `i` of its table (the next order's lines for ORDER-LINE), false past the
//! last one without writing anything.

use super::*;
use crate::workload::rand::{
    a_string, data_with_original, last_name, n_string, nurand, uniform, zip,
};

impl TableGen {
    /// ITEM row `i`.
    #[inline]
    pub(super) fn item(&mut self, i: u32, r: &mut Rows) -> bool {
        let rng = &mut self.rng;
        let s = &mut self.s;
        if i >= ITEMS {
            return false;
        }
        r.int(i64::from(i + 1));
        r.int(i64::from(uniform(rng, 1, 10_000)));
        a_string(rng, 14, 24, s);
        r.str(s);
        r.dec(i64::from(uniform(rng, 100, 10_000)), 2);
        data_with_original(rng, s);
        r.str(s);
        true
    }

    /// The WAREHOUSE row (`i` 0).
    #[inline]
    pub(super) fn warehouse(&mut self, i: u32, w: i64, r: &mut Rows) -> bool {
        let rng = &mut self.rng;
        let s = &mut self.s;
        if i >= 1 {
            return false;
        }
        r.int(w);
        address(rng, s, r);
        r.dec(i64::from(uniform(rng, 0, 2_000)), 4);
        r.dec(300_000 * 100, 2);
        true
    }

    /// DISTRICT row `i`.
    #[inline]
    pub(super) fn district(&mut self, i: u32, w: i64, r: &mut Rows) -> bool {
        let rng = &mut self.rng;
        let s = &mut self.s;
        if i >= DISTRICTS {
            return false;
        }
        r.int(i64::from(i + 1));
        r.int(w);
        address(rng, s, r);
        r.dec(i64::from(uniform(rng, 0, 2_000)), 4);
        r.dec(30_000 * 100, 2);
        r.int(i64::from(ORDERS + 1));
        true
    }

    /// STOCK row `i`.
    #[inline]
    pub(super) fn stock(&mut self, i: u32, w: i64, r: &mut Rows) -> bool {
        let rng = &mut self.rng;
        let s = &mut self.s;
        if i >= ITEMS {
            return false;
        }
        r.int(i64::from(i + 1));
        r.int(w);
        r.int(i64::from(uniform(rng, 10, 100)));
        for _ in 0..10 {
            a_string(rng, 24, 24, s);
            r.str(s);
        }
        r.int(0);
        r.int(0);
        r.int(0);
        data_with_original(rng, s);
        r.str(s);
        true
    }

    /// CUSTOMER row `i`.
    #[inline]
    pub(super) fn customer(&mut self, i: u32, w: i64, r: &mut Rows) -> bool {
        let now = self.pop.now.as_bytes();
        let rng = &mut self.rng;
        let s = &mut self.s;
        let Some((_, c)) = district_key(i, CUSTOMERS, w, r) else {
            return false;
        };
        a_string(rng, 8, 16, s);
        r.str(s);
        r.str(b"OE");
        // 4.3.3.1: the first 1,000 customers take the names 0..999 in order.
        let num = if c <= 1000 {
            c - 1
        } else {
            nurand(rng, 255, self.pop.c_last_load, 0, 999)
        };
        last_name(num, s);
        r.str(s);
        street(rng, s, r);
        n_string(rng, 16, 16, s);
        r.str(s);
        r.str(now);
        r.str(if uniform(rng, 1, 10) == 1 {
            b"BC"
        } else {
            b"GC"
        });
        r.dec(50_000 * 100, 2);
        r.dec(i64::from(uniform(rng, 0, 5_000)), 4);
        r.dec(-10_00, 2);
        r.dec(10_00, 2);
        r.int(1);
        r.int(0);
        a_string(rng, 300, 500, s);
        r.str(s);
        true
    }

    /// HISTORY row `i`.
    #[inline]
    pub(super) fn history(&mut self, i: u32, w: i64, r: &mut Rows) -> bool {
        let now = self.pop.now.as_bytes();
        let rng = &mut self.rng;
        let s = &mut self.s;
        let Some((d, _)) = district_key(i, CUSTOMERS, w, r) else {
            return false;
        };
        r.int(i64::from(d));
        r.int(w);
        r.str(now);
        r.dec(10_00, 2);
        a_string(rng, 12, 24, s);
        r.str(s);
        true
    }

    /// ORDER row `i`.
    #[inline]
    pub(super) fn order(&mut self, i: u32, w: i64, r: &mut Rows) -> bool {
        let now = self.pop.now.as_bytes();
        let rng = &mut self.rng;
        let Some(orders) = &self.orders else {
            return false;
        };
        let Some((_, o)) = district_key(i, ORDERS, w, r) else {
            return false;
        };
        r.int(i64::from(orders.c_id[i as usize]));
        r.str(now);
        if o < FIRST_NEW_ORDER {
            r.int(i64::from(uniform(rng, 1, 10)));
        } else {
            undelivered_carrier(self.pop.null_dates, r);
        }
        r.int(i64::from(orders.ol_cnt[i as usize]));
        r.int(1);
        true
    }

    /// The ORDER-LINE rows of order `i` (the last one is ended by the caller).
    #[inline]
    pub(super) fn order_lines(&mut self, i: u32, w: i64, r: &mut Rows) -> bool {
        let now = self.pop.now.as_bytes();
        let rng = &mut self.rng;
        let s = &mut self.s;
        if i >= DISTRICTS * ORDERS {
            return false;
        }
        let Some(orders) = &self.orders else {
            return false;
        };
        let (d, o) = (i / ORDERS + 1, i % ORDERS + 1);
        for n in 1..=i64::from(orders.ol_cnt[i as usize]) {
            r.int(i64::from(o));
            r.int(i64::from(d));
            r.int(w);
            r.int(n);
            r.int(i64::from(uniform(rng, 1, ITEMS)));
            r.int(w);
            if o < FIRST_NEW_ORDER {
                r.str(now);
            } else {
                undelivered_date(self.pop.null_dates, r);
            }
            r.int(5);
            if o < FIRST_NEW_ORDER {
                r.dec(0, 2);
            } else {
                r.dec(i64::from(uniform(rng, 1, 999_999)), 2);
            }
            a_string(rng, 24, 24, s);
            r.str(s);
            if n < i64::from(orders.ol_cnt[i as usize]) {
                r.end();
            }
        }
        true
    }
}

/// NEW-ORDER row `i`.
#[inline]
pub(super) fn new_order(i: u32, w: i64, r: &mut Rows) -> bool {
    let per = ORDERS - FIRST_NEW_ORDER + 1;
    if i >= DISTRICTS * per {
        return false;
    }
    r.int(i64::from(FIRST_NEW_ORDER + i % per));
    r.int(i64::from(i / per + 1));
    r.int(w);
    true
}

/// Row `i` of a table with `per` rows in each district (customers, history, orders): its
/// keys written as (number, district, warehouse), and (district, number); None past the
/// warehouse's last row.
fn district_key(i: u32, per: u32, w: i64, r: &mut Rows) -> Option<(u32, u32)> {
    if i >= DISTRICTS * per {
        return None;
    }
    let (d, n) = (i / per + 1, i % per + 1);
    r.int(i64::from(n));
    r.int(i64::from(d));
    r.int(w);
    Some((d, n))
}

/// Name, two streets, city, state, zip (WAREHOUSE and DISTRICT, clause 4.3.3.1).
fn address(rng: &mut WorkerRng, s: &mut Vec<u8>, r: &mut Rows) {
    a_string(rng, 6, 10, s);
    r.str(s);
    street(rng, s, r);
}

/// Two streets, city, state, zip (an address after its name, CUSTOMER's too).
fn street(rng: &mut WorkerRng, s: &mut Vec<u8>, r: &mut Rows) {
    for _ in 0..3 {
        a_string(rng, 10, 20, s);
        r.str(s);
    }
    a_string(rng, 2, 2, s);
    r.str(s);
    zip(rng, s);
    r.str(s);
}

fn undelivered_carrier(nd: NullDates, r: &mut Rows) {
    match nd {
        NullDates::Null => r.null(),
        NullDates::Default => r.int(i64::from(super::super::CARRIER_SENTINEL)),
    }
}

fn undelivered_date(nd: NullDates, r: &mut Rows) {
    match nd {
        NullDates::Null => r.null(),
        NullDates::Default => r.str(super::super::DELIVERY_SENTINEL.as_bytes()),
    }
}
