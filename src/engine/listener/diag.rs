//! The TCP sockets in LISTEN, asked of the kernel by sock_diag(7) (what `ss -lt` asks): the
//! kernel walks its listening sockets only. Reading /proc/net/tcp walks every bucket of the
//! established-connections table as well, however few sockets there are: 7 ms a read on a
//! 24-GiB host, and a run read it and /proc/net/tcp6 several times (a quarter of a short
//! run's client CPU). Two fixed C structures and one request: written here on `libc` rather
//! than with the rust-netlink crates (netlink-packet-sock-diag, -core, -utils, netlink-sys),
//! four crates for 60 lines.

use std::io;

/// `nlmsg_type` of a sock_diag request (linux/sock_diag.h).
const SOCK_DIAG_BY_FAMILY: u16 = 20;
/// linux/netlink.h: the end of a dump, and an error.
const NLMSG_DONE: u16 = 3;
const NLMSG_ERROR: u16 = 2;
/// `1 << TCP_LISTEN` (TCP_LISTEN is 10).
const TCPF_LISTEN: u32 = 1 << 10;
/// struct nlmsghdr.
const HEADER: usize = 16;
/// struct inet_diag_msg: family, state, timer, retrans; the socket id (48 bytes); expires,
/// rqueue, wqueue, uid, inode.
const MSG: usize = 72;
/// Where in an inet_diag_msg its source port (big-endian) and its inode are.
const SPORT_AT: usize = 4;
const INODE_AT: usize = 68;

/// The request for every TCP socket of `family` (AF_INET or AF_INET6) in LISTEN: a netlink
/// header and a struct inet_diag_req_v2 (family, protocol, ext, pad, states, and a zero
/// socket id: no other filter).
fn request(family: u8) -> [u8; HEADER + 56] {
    let mut r = [0u8; HEADER + 56];
    r[0..4].copy_from_slice(&((HEADER + 56) as u32).to_ne_bytes());
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

/// Reads one datagram of the dump into `inodes` (the sockets on `port`): Err on an error
/// message or a malformed one, never a panic whatever the bytes.
pub fn parse(buf: &[u8], port: u16, inodes: &mut Vec<u64>) -> io::Result<Part> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, format!("sock_diag: {what}"));
    let u32_at = |b: &[u8], at: usize| -> Option<u32> {
        Some(u32::from_ne_bytes(b.get(at..at + 4)?.try_into().ok()?))
    };
    let mut rest = buf;
    while !rest.is_empty() {
        let len = u32_at(rest, 0).ok_or_else(|| bad("a truncated header"))? as usize;
        if len < HEADER || len > rest.len() {
            return Err(bad("a message length out of bounds"));
        }
        let kind = u16::from_ne_bytes([rest[4], rest[5]]);
        let body = &rest[HEADER..len];
        match kind {
            NLMSG_DONE => return Ok(Part::Done),
            NLMSG_ERROR => {
                // struct nlmsgerr: a negative errno (0 is an acknowledgement, never a dump's).
                return match u32_at(body, 0).map(|e| (e as i32).checked_neg()) {
                    Some(Some(errno)) if errno > 0 => Err(io::Error::from_raw_os_error(errno)),
                    _ => Err(bad("an error message without an error")),
                };
            }
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

/// A netlink socket, closed when dropped.
struct Fd(i32);

impl Drop for Fd {
    fn drop(&mut self) {
        // SAFETY: the descriptor is this value's own.
        unsafe { libc::close(self.0) };
    }
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
    let fd = Fd(fd);
    let req = request(family as u8);
    // SAFETY: as above.
    if unsafe { libc::send(fd.0, req.as_ptr().cast(), req.len(), 0) } < 0 {
        return Err(io::Error::last_os_error());
    }
    let mut inodes = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        // SAFETY: as above.
        let n = unsafe { libc::recv(fd.0, buf.as_mut_ptr().cast(), buf.len(), 0) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        if n == 0 || parse(&buf[..n as usize], port, &mut inodes)? == Part::Done {
            return Ok(inodes);
        }
    }
}

#[cfg(test)]
#[path = "diag_tests.rs"]
mod tests;
