//! Fibers: many virtual users on a few threads (`--client-threads`). Each user runs on a
//! stack of its own (a corosensei coroutine) on one of the threads. A read or a write that
//! would block its socket yields to the thread's scheduler, which waits on all its users'
//! sockets at once (one epoll) and resumes the users whose answers came: one thread wakes
//! for many answers, where a thread per user wakes once per answer.
//!
//! Code outside a fiber is unchanged: its sockets stay blocking, and [`sleep`] and
//! [`wait_fd`] block the thread. A connection opened inside a fiber is made non-blocking
//! ([`adopt`]) and is used by that fiber alone (a fiber never moves to another thread).
//!
//! Written here rather than taken from an async runtime: the workloads, the connection
//! libraries and sysbench's Lua scripts are blocking code, and a stackful coroutine runs
//! them unchanged. The epoll loop is a hand-written 100 lines: `polling` asks that a socket
//! be deleted before it is closed, which the connection libraries, closing their own
//! sockets, cannot promise.

use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use std::cell::Cell;
use std::collections::{BinaryHeap, VecDeque};
use std::io;
use std::os::fd::RawFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a fiber waits for.
#[derive(Debug, Clone, Copy)]
enum Wait {
    /// Its socket to be readable (or writable), until a time if any.
    Fd {
        fd: RawFd,
        write: bool,
        until: Option<Instant>,
    },
    /// Nothing: a socket it just opened is to be watched from now on.
    Adopted(RawFd),
    /// `at` (None: no time), or a [`wake_all`] after the epoch it saw (None: none).
    Until {
        at: Option<Instant>,
        seen: Option<u64>,
    },
}

/// Bumped by [`wake_all`]: fibers waiting for news look again.
static EPOCH: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The running fiber's way back to its scheduler (null: no fiber runs).
    static CURRENT: Cell<*const Yielder<(), Wait>> = const { Cell::new(std::ptr::null()) };
}

/// Whether this code runs in a fiber.
pub fn in_fiber() -> bool {
    !CURRENT.get().is_null()
}

/// Suspends the running fiber until its scheduler sees `w` met.
fn suspend(w: Wait) {
    let y = CURRENT.get();
    assert!(!y.is_null(), "fiber::suspend outside a fiber");
    // SAFETY: CURRENT is set by the fiber running on this thread to its own yielder, which
    // lives as long as the fiber's body, and is read only while that body runs.
    unsafe { (*y).suspend(w) };
    CURRENT.set(y);
}

/// The epoch to pass to [`wait_for_news`]: read it before looking at what may change.
pub fn epoch() -> u64 {
    EPOCH.load(Ordering::SeqCst)
}

/// Wakes every fiber waiting for news ([`wait_for_news`]), on every thread (within a
/// scheduler's tick, [`TICK`]).
pub fn wake_all() {
    EPOCH.fetch_add(1, Ordering::SeqCst);
}

/// In a fiber: waits until `at` (None: no time limit) or until [`wake_all`] is called
/// after `seen` ([`epoch`]) was read. The caller looks again at what it waits for.
pub fn wait_for_news(at: Option<Instant>, seen: u64) {
    suspend(Wait::Until {
        at,
        seen: Some(seen),
    });
}

/// Sleeps `d`: the fiber yields its thread, a thread sleeps.
pub fn sleep(d: Duration) {
    if !in_fiber() {
        return std::thread::sleep(d);
    }
    let end = Instant::now() + d;
    while Instant::now() < end {
        suspend(Wait::Until {
            at: Some(end),
            seen: None,
        });
    }
}

/// Waits until socket `fd` is readable (`write`: writable), after it said it would block.
pub fn wait_fd(fd: RawFd, write: bool) -> io::Result<()> {
    wait_fd_until(fd, write, None)
}

/// [`wait_fd`] until `until` at the latest: then Err(WouldBlock), as a blocking socket's
/// timeout says.
fn wait_fd_until(fd: RawFd, write: bool, until: Option<Instant>) -> io::Result<()> {
    let timed_out = || until.is_some_and(|u| Instant::now() >= u);
    if in_fiber() {
        suspend(Wait::Fd { fd, write, until });
        if timed_out() {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        return Ok(());
    }
    let mut p = libc::pollfd {
        fd,
        events: if write { libc::POLLOUT } else { libc::POLLIN },
        revents: 0,
    };
    let ms = until.map_or(-1, |u| {
        u.saturating_duration_since(Instant::now())
            .as_millis()
            .min(i32::MAX as u128) as i32
    });
    // SAFETY: one valid pollfd.
    match unsafe { libc::poll(&mut p, 1, ms) } {
        n if n < 0 => Err(io::Error::last_os_error()),
        0 => Err(io::ErrorKind::WouldBlock.into()),
        _ => Ok(()),
    }
}

/// A socket just opened: in a fiber it is made non-blocking (its reads and writes then
/// yield through [`wait_fd`]), and true is returned; outside one it is left as it is.
pub fn adopt(fd: RawFd) -> io::Result<bool> {
    if !in_fiber() {
        return Ok(false);
    }
    // SAFETY: fcntl on a descriptor the caller owns; flags read, then written back.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    // Watched at once, under this socket's identity (its number may be a closed one's).
    suspend(Wait::Adopted(fd));
    Ok(true)
}

/// A read or a write on a socket: on a non-blocking one ([`adopt`]ed), retried after
/// [`wait_fd`] while it would block, within the socket's own timeout (SO_RCVTIMEO or
/// SO_SNDTIMEO, as a blocking socket would time out); a blocking socket's timeout is
/// returned as it is.
pub fn retry<T>(fd: RawFd, write: bool, mut op: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    let mut until = None;
    loop {
        match op() {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock && nonblocking(fd) => {
                let until = *until
                    .get_or_insert_with(|| socket_timeout(fd, write).map(|t| Instant::now() + t));
                wait_fd_until(fd, write, until)?
            }
            r => return r,
        }
    }
}

/// The socket's receive (`write`: send) timeout, if it has one.
fn socket_timeout(fd: RawFd, write: bool) -> Option<Duration> {
    let mut tv = libc::timeval {
        tv_sec: 0,
        tv_usec: 0,
    };
    let mut len = std::mem::size_of::<libc::timeval>() as libc::socklen_t;
    let opt = if write {
        libc::SO_SNDTIMEO
    } else {
        libc::SO_RCVTIMEO
    };
    // SAFETY: a timeval and its length for getsockopt to fill.
    let ok = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            opt,
            (&mut tv as *mut libc::timeval).cast(),
            &mut len,
        )
    } == 0;
    let t = Duration::new(tv.tv_sec.max(0) as u64, (tv.tv_usec.max(0) as u32) * 1000);
    (ok && !t.is_zero()).then_some(t)
}

/// Whether `fd` is non-blocking (asked only when a call said it would block).
fn nonblocking(fd: RawFd) -> bool {
    // SAFETY: F_GETFL reads the descriptor's flags.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    flags >= 0 && flags & libc::O_NONBLOCK != 0
}

/// The longest a scheduler sleeps before it looks at the epoch again.
const TICK: Duration = Duration::from_millis(5);

/// The bodies of a pool of fibers.
pub type Body = Box<dyn FnOnce() + Send + 'static>;

/// Fibers spread over a few threads.
pub struct Pool {
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Pool {
    /// Starts `bodies` as fibers of `stack` bytes on `threads` threads (fiber i on thread
    /// i mod threads, named `name`-k); `done[i]` is set when body i has returned or panicked
    /// (a panic is the body's to report; it ends only its fiber).
    pub fn spawn(
        name: &str,
        threads: usize,
        stack: usize,
        bodies: Vec<Body>,
        done: &[Arc<AtomicBool>],
    ) -> io::Result<Pool> {
        let threads = threads.clamp(1, bodies.len().max(1));
        let mut shares: Vec<Vec<(Body, Arc<AtomicBool>)>> =
            (0..threads).map(|_| Vec::new()).collect();
        for (i, (b, d)) in bodies.into_iter().zip(done).enumerate() {
            shares[i % threads].push((b, d.clone()));
        }
        let mut handles = Vec::with_capacity(threads);
        for (k, share) in shares.into_iter().enumerate() {
            let mut fibers = Vec::with_capacity(share.len());
            for (body, done) in share {
                fibers.push(Fiber::new(body, done, stack)?);
            }
            handles.push(
                std::thread::Builder::new()
                    .name(format!("{name}-{k}"))
                    .spawn(move || Scheduler::new(fibers).run())?,
            );
        }
        Ok(Pool { threads: handles })
    }

    /// How many threads run the fibers (at most one per fiber).
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Whether every thread has ended (all its fibers returned).
    pub fn finished(&self) -> bool {
        self.threads.iter().all(|t| t.is_finished())
    }

    /// Joins the threads (call once [`Pool::finished`]).
    pub fn join(self) {
        for t in self.threads {
            let _ = t.join();
        }
    }
}

/// One fiber: its coroutine, the gate it runs behind, and which wait it is in.
struct Fiber {
    co: Coroutine<(), Wait, (), DefaultStack>,
    gate: Option<Arc<super::sessions::Gate>>,
    /// Counts its waits: a timer left from an earlier wait is ignored.
    generation: u64,
    /// The socket it waits on, and whether to write (None: it waits on none).
    on_fd: Option<(RawFd, bool)>,
    /// The sockets it has in the epoll, and the one watched for writing too, if any.
    watched: Vec<RawFd>,
    writing: Option<RawFd>,
}

// SAFETY: a fiber is created on one thread and handed, before it ever ran, to the thread
// that runs it and never leaves; its body is Send.
unsafe impl Send for Fiber {}

impl Fiber {
    fn new(body: Body, done: Arc<AtomicBool>, stack: usize) -> io::Result<Fiber> {
        let stack = DefaultStack::new(stack)?;
        let co = Coroutine::with_stack(stack, move |y: &Yielder<(), Wait>, ()| {
            CURRENT.set(y);
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body));
            done.store(true, Ordering::SeqCst);
        });
        Ok(Fiber {
            co,
            gate: None,
            generation: 0,
            on_fd: None,
            watched: Vec::new(),
            writing: None,
        })
    }
}

/// One thread's loop: runs its ready fibers, then waits on their sockets and timers.
struct Scheduler {
    fibers: Vec<Option<Fiber>>,
    live: usize,
    ready: VecDeque<usize>,
    /// Timers: (when, fiber, its wait's generation), earliest first.
    timers: BinaryHeap<std::cmp::Reverse<(Instant, usize, u64)>>,
    /// Fibers waiting for news: (fiber, the epoch it saw, its wait's generation).
    news: Vec<(usize, u64, u64)>,
    /// The epoch when the news were last delivered.
    delivered: u64,
    epoll: Epoll,
}

impl Scheduler {
    fn new(fibers: Vec<Fiber>) -> Scheduler {
        let n = fibers.len();
        Scheduler {
            fibers: fibers.into_iter().map(Some).collect(),
            live: n,
            ready: (0..n).collect(),
            timers: BinaryHeap::new(),
            news: Vec::new(),
            delivered: epoch(),
            epoll: Epoll::new(n),
        }
    }

    fn run(mut self) {
        let mut woken = Vec::new();
        while self.live > 0 {
            while let Some(i) = self.ready.pop_front() {
                self.resume(i);
            }
            if self.live == 0 {
                break;
            }
            let now = Instant::now();
            let next = self
                .timers
                .peek()
                .map_or(TICK, |t| t.0.0.saturating_duration_since(now));
            self.epoll.wait(next.min(TICK), &mut woken);
            for (i, events) in woken.drain(..) {
                self.socket_ready(i, events);
            }
            self.expire_timers();
            self.deliver_news();
        }
    }

    /// Runs fiber `i` until it waits or ends.
    fn resume(&mut self, i: usize) {
        let Some(f) = self.fibers[i].as_mut() else {
            return;
        };
        f.generation += 1;
        f.on_fd = None;
        super::sessions::swap_guard(&mut f.gate);
        let r = f.co.resume(());
        super::sessions::swap_guard(&mut f.gate);
        CURRENT.set(std::ptr::null());
        match r {
            CoroutineResult::Return(()) => {
                self.fibers[i] = None;
                self.live -= 1;
            }
            CoroutineResult::Yield(Wait::Fd { fd, write, until }) => {
                if self.epoll.watch(f, fd, write, i) {
                    f.on_fd = Some((fd, write));
                    if let Some(at) = until {
                        self.timers.push(std::cmp::Reverse((at, i, f.generation)));
                    }
                } else {
                    // Not a socket epoll takes (closed, or epoll out of room): the fiber
                    // polls, retrying in a millisecond (the retried call says what is wrong).
                    let at = Instant::now() + Duration::from_millis(1);
                    self.timers.push(std::cmp::Reverse((at, i, f.generation)));
                }
            }
            CoroutineResult::Yield(Wait::Adopted(fd)) => {
                f.watched.retain(|&w| w != fd);
                if f.writing == Some(fd) {
                    f.writing = None;
                }
                self.epoll.watch(f, fd, false, i);
                self.ready.push_back(i);
            }
            CoroutineResult::Yield(Wait::Until { at, seen }) => {
                if let Some(at) = at {
                    self.timers.push(std::cmp::Reverse((at, i, f.generation)));
                }
                match seen {
                    // News it has not seen came already.
                    Some(seen) if seen != epoch() => self.ready.push_back(i),
                    Some(seen) => self.news.push((i, seen, f.generation)),
                    None => {}
                }
            }
        }
    }

    /// Readies the fibers whose time came (still in the wait that set it).
    fn expire_timers(&mut self) {
        let now = Instant::now();
        while let Some(std::cmp::Reverse((at, i, g))) = self.timers.peek().copied() {
            if at > now {
                break;
            }
            self.timers.pop();
            if self.current(i, g) {
                self.readied(i);
            }
        }
    }

    /// A watched socket changed: fiber `i` runs again if it waits for what came (`events`).
    fn socket_ready(&mut self, i: usize, events: u32) {
        let Some(f) = self.fibers.get_mut(i).and_then(|f| f.as_mut()) else {
            return;
        };
        let Some((_, write)) = f.on_fd else {
            // Not waiting on a socket: it reads before it waits again.
            return;
        };
        let wanted = if write {
            libc::EPOLLOUT
        } else {
            libc::EPOLLIN | libc::EPOLLRDHUP
        };
        if events & (wanted | libc::EPOLLHUP | libc::EPOLLERR) as u32 != 0 {
            self.readied(i);
        }
    }

    /// Fiber `i`'s wait is over: it is queued once, and whatever else it waited for (its
    /// socket, its timer, news) no longer readies it.
    fn readied(&mut self, i: usize) {
        if let Some(f) = self.fibers[i].as_mut() {
            f.on_fd = None;
            f.generation += 1;
            self.ready.push_back(i);
        }
    }

    /// Whether fiber `i` is still in the wait of generation `g`.
    fn current(&self, i: usize, g: u64) -> bool {
        self.fibers[i].as_ref().is_some_and(|f| f.generation == g)
    }

    /// Readies the fibers waiting for news once the epoch moved past what they saw, and
    /// forgets the waits that ended otherwise (a timer).
    fn deliver_news(&mut self) {
        let now = epoch();
        if now == self.delivered && self.news.len() <= 2 * self.live + 16 {
            return;
        }
        let mut news = std::mem::take(&mut self.news);
        news.retain(|&(i, seen, g)| {
            if !self.current(i, g) {
                return false;
            }
            if seen != now {
                self.readied(i);
                return false;
            }
            true
        });
        self.news = news;
        self.delivered = now;
    }
}

/// One epoll instance: sockets armed one-shot, keyed by fiber.
struct Epoll {
    fd: RawFd,
    events: Vec<libc::epoll_event>,
}

impl Epoll {
    fn new(n: usize) -> Epoll {
        // SAFETY: plain syscall; a failure (-1) makes every arm fail, and fibers then poll.
        let fd = unsafe { libc::epoll_create1(libc::EPOLL_CLOEXEC) };
        Epoll {
            fd,
            events: vec![libc::epoll_event { events: 0, u64: 0 }; n.clamp(16, 1024)],
        }
    }

    /// Watches `fd` for fiber `f` (`key`), edge-triggered: once for reading, from its first
    /// wait (or its adoption) on; for writing too while it waits to write. An edge that
    /// comes while the fiber is not waiting is dropped: it reads until it would block before
    /// it waits. False when epoll refuses the socket.
    fn watch(&mut self, f: &mut Fiber, fd: RawFd, write: bool, key: usize) -> bool {
        let known = f.watched.contains(&fd);
        let out = f.writing == Some(fd);
        if known && out == write {
            return true;
        }
        let mut ev = libc::epoll_event {
            events: (libc::EPOLLIN
                | libc::EPOLLRDHUP
                | libc::EPOLLET
                | if write { libc::EPOLLOUT } else { 0 }) as u32,
            u64: key as u64,
        };
        let op = if known {
            libc::EPOLL_CTL_MOD
        } else {
            libc::EPOLL_CTL_ADD
        };
        // SAFETY: valid epoll descriptor and event.
        let ok = unsafe {
            libc::epoll_ctl(self.fd, op, fd, &mut ev) == 0
                || (op == libc::EPOLL_CTL_ADD
                    && io::Error::last_os_error().raw_os_error() == Some(libc::EEXIST)
                    && libc::epoll_ctl(self.fd, libc::EPOLL_CTL_MOD, fd, &mut ev) == 0)
        };
        if ok {
            if !known {
                f.watched.push(fd);
            }
            f.writing = write.then_some(fd);
        }
        ok
    }

    /// Waits up to `d` for watched sockets; their fibers and events go to `woken`.
    fn wait(&mut self, d: Duration, woken: &mut Vec<(usize, u32)>) {
        let ms = d.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
        // SAFETY: the buffer holds events.len() events.
        let n = unsafe {
            libc::epoll_wait(
                self.fd,
                self.events.as_mut_ptr(),
                self.events.len() as i32,
                ms,
            )
        };
        for e in self.events.iter().take(n.max(0) as usize) {
            woken.push((e.u64 as usize, e.events));
        }
    }
}

impl Drop for Epoll {
    fn drop(&mut self) {
        if self.fd >= 0 {
            // SAFETY: our own descriptor, closed once.
            unsafe { libc::close(self.fd) };
        }
    }
}

#[cfg(test)]
mod tests;
