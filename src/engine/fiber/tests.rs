use super::*;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::sync::Mutex;

fn flags(n: usize) -> Vec<Arc<AtomicBool>> {
    (0..n).map(|_| Arc::new(AtomicBool::new(false))).collect()
}

fn wait_done(pool: Pool, done: &[Arc<AtomicBool>]) {
    let end = Instant::now() + Duration::from_secs(20);
    while !pool.finished() {
        assert!(Instant::now() < end, "fibers did not end");
        std::thread::sleep(Duration::from_millis(5));
    }
    pool.join();
    assert!(done.iter().all(|d| d.load(Ordering::SeqCst)));
}

#[test]
fn a_thousand_sleepers_share_two_threads() {
    let n = 1000;
    let slept = Arc::new(Mutex::new(Vec::new()));
    let bodies: Vec<Body> = (0..n)
        .map(|i| {
            let slept = slept.clone();
            Box::new(move || {
                assert!(in_fiber());
                let t = Instant::now();
                sleep(Duration::from_millis(20 + (i % 5) as u64 * 10));
                slept.lock().unwrap().push((i, t.elapsed()));
            }) as Body
        })
        .collect();
    let done = flags(n);
    let started = Instant::now();
    wait_done(
        Pool::spawn("t", 2, 64 * 1024, bodies, &done).unwrap(),
        &done,
    );
    let slept = slept.lock().unwrap();
    assert_eq!(slept.len(), n);
    for (i, d) in slept.iter() {
        assert!(
            *d >= Duration::from_millis(20 + (i % 5) as u64 * 10),
            "{i} slept {d:?}"
        );
    }
    // Slept side by side, not one after the other (1,000 x 20 ms = 20 s).
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(!in_fiber());
}

#[test]
fn fibers_on_one_thread_talk_through_sockets() {
    // Each pair: a fiber echoes what the other sends, 200 times, on one thread; a read
    // that blocked the thread would hang the pair.
    let pairs = 50;
    let mut bodies: Vec<Body> = Vec::new();
    let sums = Arc::new(Mutex::new(Vec::new()));
    for _ in 0..pairs {
        let (a, b) = UnixStream::pair().unwrap();
        bodies.push(Box::new(move || {
            let mut a = a;
            let nb = adopt(a.as_raw_fd()).unwrap();
            assert!(nb);
            let mut buf = [0u8; 8];
            for _ in 0..200 {
                let fd = a.as_raw_fd();
                let n = retry(fd, false, || a.read(&mut buf)).unwrap();
                assert_eq!(n, 8);
                retry(fd, true, || a.write(&buf)).unwrap();
            }
        }));
        let sums = sums.clone();
        bodies.push(Box::new(move || {
            let mut b = b;
            adopt(b.as_raw_fd()).unwrap();
            let mut sum = 0u64;
            let mut buf = [0u8; 8];
            for k in 0..200u64 {
                let fd = b.as_raw_fd();
                retry(fd, true, || b.write(&k.to_le_bytes())).unwrap();
                let n = retry(fd, false, || b.read(&mut buf)).unwrap();
                assert_eq!(n, 8);
                sum += u64::from_le_bytes(buf);
            }
            sums.lock().unwrap().push(sum);
        }));
    }
    let done = flags(bodies.len());
    wait_done(
        Pool::spawn("t", 1, 64 * 1024, bodies, &done).unwrap(),
        &done,
    );
    let sums = sums.lock().unwrap();
    assert_eq!(sums.len(), pairs);
    assert!(sums.iter().all(|&s| s == 199 * 200 / 2));
}

#[test]
fn news_wake_the_fibers_waiting_for_them() {
    let flag = Arc::new(AtomicBool::new(false));
    let n = 100;
    let woke = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let bodies: Vec<Body> = (0..n)
        .map(|_| {
            let (flag, woke) = (flag.clone(), woke.clone());
            Box::new(move || {
                let started = Instant::now();
                loop {
                    let seen = epoch();
                    if flag.load(Ordering::SeqCst) {
                        break;
                    }
                    // A long timer: only the news can end the wait in time.
                    wait_for_news(Some(Instant::now() + Duration::from_secs(600)), seen);
                }
                assert!(started.elapsed() < Duration::from_secs(60));
                woke.fetch_add(1, Ordering::SeqCst);
            }) as Body
        })
        .collect();
    let done = flags(n);
    let pool = Pool::spawn("t", 2, 64 * 1024, bodies, &done).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(woke.load(Ordering::SeqCst), 0);
    flag.store(true, Ordering::SeqCst);
    wake_all();
    wait_done(pool, &done);
    assert_eq!(woke.load(Ordering::SeqCst), n);
}

#[test]
fn each_fiber_runs_behind_its_own_gate_and_a_panic_ends_only_its_own() {
    let gates: Vec<_> = (0..20)
        .map(|_| Arc::new(crate::engine::sessions::Gate::default()))
        .collect();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut bodies: Vec<Body> = gates
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let (g, seen) = (g.clone(), seen.clone());
            Box::new(move || {
                crate::engine::sessions::guard(Some(g.clone()));
                for _ in 0..5 {
                    sleep(Duration::from_millis(1 + i as u64 % 3));
                    let mine = crate::engine::sessions::current_gate()
                        .is_some_and(|c| Arc::ptr_eq(&c, &g));
                    seen.lock().unwrap().push(mine);
                }
            }) as Body
        })
        .collect();
    bodies.push(Box::new(|| panic!("a fiber's bug")));
    let done = flags(bodies.len());
    wait_done(
        Pool::spawn("t", 1, 64 * 1024, bodies, &done).unwrap(),
        &done,
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 100);
    assert!(seen.iter().all(|&m| m));
    // The scheduler's thread itself holds no fiber's gate.
    assert!(crate::engine::sessions::current_gate().is_none());
}

#[test]
fn outside_a_fiber_sockets_block_and_sleep_sleeps() {
    let (a, _b) = UnixStream::pair().unwrap();
    assert!(!adopt(a.as_raw_fd()).unwrap());
    let t = Instant::now();
    sleep(Duration::from_millis(10));
    assert!(t.elapsed() >= Duration::from_millis(10));
    // A blocking socket's timeout is returned, not waited through.
    a.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
    let mut a2 = &a;
    let mut buf = [0u8; 1];
    let r = retry(a.as_raw_fd(), false, || a2.read(&mut buf));
    assert_eq!(r.unwrap_err().kind(), std::io::ErrorKind::WouldBlock);
}

#[test]
fn a_non_blocking_socket_used_by_a_thread_waits_for_its_answer() {
    // A connection a fiber opened, used by a thread: its reads poll instead of failing.
    let (a, b) = UnixStream::pair().unwrap();
    a.set_nonblocking(true).unwrap();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        (&b).write_all(b"late").unwrap();
        b
    });
    let mut buf = [0u8; 4];
    let n = retry(a.as_raw_fd(), false, || (&a).read(&mut buf)).unwrap();
    assert_eq!(&buf[..n], b"late");
    drop(writer.join());
}

#[test]
fn a_socket_timeout_still_ends_a_fibers_wait() {
    // PostgreSQL's startup sets a timeout on its socket: a server that never answers must
    // fail the read within it, in a fiber as on a thread.
    let (a, _b) = UnixStream::pair().unwrap();
    let got = Arc::new(Mutex::new(None));
    let g = got.clone();
    let bodies: Vec<Body> = vec![Box::new(move || {
        let mut a = a;
        a.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
        assert!(adopt(a.as_raw_fd()).unwrap());
        let t = Instant::now();
        let mut buf = [0u8; 1];
        let r = retry(a.as_raw_fd(), false, || a.read(&mut buf));
        *g.lock().unwrap() = Some((r.map_err(|e| e.kind()), t.elapsed()));
    })];
    let done = flags(1);
    wait_done(
        Pool::spawn("t", 1, 64 * 1024, bodies, &done).unwrap(),
        &done,
    );
    let (r, took) = got.lock().unwrap().take().unwrap();
    assert_eq!(r, Err(std::io::ErrorKind::WouldBlock));
    assert!(
        took >= Duration::from_millis(50) && took < Duration::from_secs(5),
        "{took:?}"
    );
}
