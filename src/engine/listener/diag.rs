//! The TCP sockets in LISTEN, asked of the kernel by sock_diag(7) (what `ss -lt` asks): the
//! kernel walks its listening sockets only. Reading /proc/net/tcp walks every bucket of the
//! established-connections table as well, however few sockets there are: 7 ms a read on a
//! 24-GiB host, and a run read it and /proc/net/tcp6 several times (a quarter of a short
//! run's client CPU). Two fixed C structures and one request: written here on `libc` rather
//! than with the rust-netlink crates (netlink-packet-sock-diag, -core, -utils, netlink-sys),
//! four crates for 60 lines.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// `nlmsg_type` of a sock_diag request (linux/sock_diag.h).
const SOCK_DIAG_BY_FAMILY: u16 = 20;
/// linux/netlink.h: an error, the end of a dump, lost data; and a dump's flag saying the
/// table changed while it was read (its answer may miss a socket).
const NLMSG_ERROR: u16 = 2;
const NLMSG_DONE: u16 = 3;
const NLMSG_OVERRUN: u16 = 4;
const NLM_F_DUMP_INTR: u16 = 0x10;
/// `1 << TCP_LISTEN` (TCP_LISTEN is 10).
const TCPF_LISTEN: u32 = 1 << 10;
/// struct nlmsghdr.
const HEADER: usize = 16;
/// struct inet_diag_req_v2.
const REQ: usize = 56;
/// struct inet_diag_msg: family, state, timer, retrans; the socket id (48 bytes); expires,
/// rqueue, wqueue, uid, inode.
const MSG: usize = 72;
/// Where in an inet_diag_msg its source port (big-endian) and its inode are.
const SPORT_AT: usize = 4;
const INODE_AT: usize = 68;

/// The request for every TCP socket of `family` (AF_INET or AF_INET6) in LISTEN: a netlink
/// header and a struct inet_diag_req_v2 (family, protocol, ext, pad, states, and a zero
/// socket id: no other filter).
fn request(family: u8) -> [u8; HEADER + REQ] {
    let mut r = [0u8; HEADER + REQ];
    r[0..4].copy_from_slice(&((HEADER + REQ) as u32).to_ne_bytes());
    r[4..6].copy_from_slice(&SOCK_DIAG_BY_FAMILY.to_ne_bytes());
    let flags = (libc::NLM_F_REQUEST | libc::NLM_F_DUMP) as u16;
    r[6..8].copy_from_slice(&flags.to_ne_bytes());
    r[HEADER] = family;
    r[HEADER + 1] = libc::IPPROTO_TCP as u8;
    r[HEADER + 4..HEADER + 8].copy_from_slice(&TCPF_LISTEN.to_ne_bytes());
    r
}

/// What one datagram of the answer held.
#[derive(Debug, PartialEq)]
pub enum Part {
    /// More datagrams follow.
    More,
    /// The dump ended (NLMSG_DONE).
    Done,
}

fn bad(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("sock_diag: {what}"))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_ne_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// A status the kernel put in an error or end-of-dump message: Err when it is an errno.
fn status(body: &[u8]) -> io::Result<()> {
    match u32_at(body, 0).map(|e| e as i32) {
        Some(e) if e < 0 => Err(io::Error::from_raw_os_error(e.checked_neg().unwrap_or(0))),
        _ => Ok(()),
    }
}

/// Reads one datagram of the dump into `inodes` (the sockets on `port`): Err on an error
/// message, a failed or interrupted dump, lost data or a malformed message (any of which
/// may leave a listener out), never a panic whatever the bytes.
pub fn parse(buf: &[u8], port: u16, inodes: &mut Vec<u64>) -> io::Result<Part> {
    let mut rest = buf;
    while !rest.is_empty() {
        let len = u32_at(rest, 0).ok_or_else(|| bad("a truncated header"))? as usize;
        if len < HEADER || len > rest.len() {
            return Err(bad("a message length out of bounds"));
        }
        let kind = u16::from_ne_bytes([rest[4], rest[5]]);
        if u16::from_ne_bytes([rest[6], rest[7]]) & NLM_F_DUMP_INTR != 0 {
            return Err(bad("the sockets changed while they were listed"));
        }
        let body = &rest[HEADER..len];
        match kind {
            // The dump's own status: negative when it failed (tcp_diag missing, say).
            NLMSG_DONE => return status(body).map(|_| Part::Done),
            NLMSG_ERROR => {
                // struct nlmsgerr: a negative errno (0 is an acknowledgement, never a dump's).
                status(body)?;
                return Err(bad("an acknowledgement where sockets were asked for"));
            }
            NLMSG_OVERRUN => return Err(bad("data lost")),
            SOCK_DIAG_BY_FAMILY => {
                if body.len() < MSG {
                    return Err(bad("a truncated inet_diag_msg"));
                }
                let sport = u16::from_be_bytes([body[SPORT_AT], body[SPORT_AT + 1]]);
                if sport == port {
                    inodes.push(u64::from(u32_at(body, INODE_AT).unwrap_or(0)));
                }
            }
            _ => {}
        }
        // Messages are aligned to 4 bytes.
        let next = (len + 3) & !3;
        rest = rest.get(next..).unwrap_or(&[]);
    }
    Ok(Part::More)
}

/// The inodes of the TCP sockets of `family` (AF_INET or AF_INET6) in LISTEN on `port`;
/// Err when sock_diag cannot answer (the inet_diag module absent, say).
pub fn listen_inodes(family: i32, port: u16) -> io::Result<Vec<u64>> {
    // SAFETY: plain socket calls on a descriptor this function owns; the buffers outlive
    // the calls that use them.
    let fd = unsafe {
        libc::socket(
            libc::AF_NETLINK,
            libc::SOCK_DGRAM | libc::SOCK_CLOEXEC,
            libc::NETLINK_SOCK_DIAG,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a new descriptor, owned by nothing else: closed when `fd` is dropped.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    // A kernel that does not answer within a second is not waited for: /proc is read.
    let timeout = libc::timeval {
        tv_sec: 1,
        tv_usec: 0,
    };
    let req = request(family as u8);
    // SAFETY: as above.
    let sent = unsafe {
        libc::setsockopt(
            fd.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_RCVTIMEO,
            (&timeout as *const libc::timeval).cast(),
            std::mem::size_of::<libc::timeval>() as libc::socklen_t,
        ) == 0
            && libc::send(fd.as_raw_fd(), req.as_ptr().cast(), req.len(), 0) >= 0
    };
    if !sent {
        return Err(io::Error::last_os_error());
    }
    let mut inodes = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = receive(&fd, &mut buf)?;
        if parse(&buf[..n], port, &mut inodes)? == Part::Done {
            return Ok(inodes);
        }
    }
}

/// One datagram from the kernel (netlink port 0) into `buf`: its length. Err on a failure,
/// an empty or cut datagram, or one from another sender.
fn receive(fd: &OwnedFd, buf: &mut [u8]) -> io::Result<usize> {
    // SAFETY: zeroed sockaddr_nl is a valid value; recvfrom writes at most `len` bytes into
    // `buf` and the address into `from`, both living through the call.
    let mut from: libc::sockaddr_nl = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::sockaddr_nl>() as libc::socklen_t;
    let n = unsafe {
        libc::recvfrom(
            fd.as_raw_fd(),
            buf.as_mut_ptr().cast(),
            buf.len(),
            libc::MSG_TRUNC,
            (&mut from as *mut libc::sockaddr_nl).cast(),
            &mut len,
        )
    };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    let n = n as usize;
    if n == 0 || n > buf.len() {
        return Err(bad("an empty or cut answer"));
    }
    if from.nl_pid != 0 {
        return Err(bad("an answer not from the kernel"));
    }
    Ok(n)
}

#[cfg(test)]
#[path = "diag_tests.rs"]
mod tests;
