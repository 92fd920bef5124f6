use super::*;
use proptest::prelude::*;

/// A netlink message of `kind` with `body`, padded to 4 bytes.
fn message(kind: u16, body: &[u8]) -> Vec<u8> {
    let mut m = Vec::new();
    m.extend_from_slice(&((HEADER + body.len()) as u32).to_ne_bytes());
    m.extend_from_slice(&kind.to_ne_bytes());
    m.extend_from_slice(&[0u8; 10]);
    m.extend_from_slice(body);
    while m.len() % 4 != 0 {
        m.push(0);
    }
    m
}

/// An inet_diag_msg for a socket on `port` with `inode` (and 8 bytes of attributes).
fn socket(port: u16, inode: u32) -> Vec<u8> {
    let mut b = vec![0u8; MSG + 8];
    b[0] = libc::AF_INET as u8;
    b[1] = 10;
    b[SPORT_AT..SPORT_AT + 2].copy_from_slice(&port.to_be_bytes());
    b[INODE_AT..INODE_AT + 4].copy_from_slice(&inode.to_ne_bytes());
    b
}

#[test]
fn the_request_asks_for_tcp_sockets_in_listen_of_one_family() {
    let r = request(libc::AF_INET6 as u8);
    assert_eq!(u32::from_ne_bytes(r[0..4].try_into().unwrap()), 72);
    assert_eq!(u16::from_ne_bytes([r[4], r[5]]), 20);
    assert_eq!(
        u16::from_ne_bytes([r[6], r[7]]),
        0x301,
        "NLM_F_REQUEST | NLM_F_DUMP"
    );
    assert_eq!(r[HEADER], libc::AF_INET6 as u8);
    assert_eq!(r[HEADER + 1], libc::IPPROTO_TCP as u8);
    assert_eq!(u32::from_ne_bytes(r[20..24].try_into().unwrap()), 1 << 10);
    assert!(r[24..].iter().all(|&b| b == 0), "no socket id to match");
}

#[test]
fn the_answer_gives_the_inodes_on_the_port_until_the_dump_ends() {
    let mut buf = message(SOCK_DIAG_BY_FAMILY, &socket(3307, 41234));
    buf.extend(message(SOCK_DIAG_BY_FAMILY, &socket(22, 1111)));
    buf.extend(message(SOCK_DIAG_BY_FAMILY, &socket(3307, 41235)));
    let mut v = Vec::new();
    assert_eq!(parse(&buf, 3307, &mut v).unwrap(), Part::More);
    assert_eq!(v, vec![41234, 41235]);
    buf.extend(message(NLMSG_DONE, &[0; 4]));
    // Nothing after the end is read.
    buf.extend(message(SOCK_DIAG_BY_FAMILY, &socket(3307, 9)));
    let mut v = Vec::new();
    assert_eq!(parse(&buf, 3307, &mut v).unwrap(), Part::Done);
    assert_eq!(v, vec![41234, 41235]);
}

#[test]
fn an_error_or_a_malformed_answer_is_an_error() {
    let mut v = Vec::new();
    let e = parse(
        &message(NLMSG_ERROR, &(-libc::ENOENT).to_ne_bytes()),
        1,
        &mut v,
    )
    .unwrap_err();
    assert_eq!(e.raw_os_error(), Some(libc::ENOENT));
    let ack = message(NLMSG_ERROR, &0i32.to_ne_bytes());
    assert!(parse(&ack, 1, &mut v).is_err());
    let short = message(SOCK_DIAG_BY_FAMILY, &socket(1, 1)[..MSG - 1]);
    assert!(
        parse(&short, 1, &mut v).is_err(),
        "a truncated inet_diag_msg"
    );
    let mut long = message(SOCK_DIAG_BY_FAMILY, &socket(1, 1));
    long[0] = 255;
    assert!(
        parse(&long, 1, &mut v).is_err(),
        "a length past the datagram"
    );
    assert!(parse(&[1, 0, 0], 1, &mut v).is_err(), "a truncated header");
    assert!(v.is_empty());
}

#[test]
fn a_failed_interrupted_or_overrun_dump_is_an_error_not_an_empty_list() {
    let mut v = Vec::new();
    // inet_diag present without tcp_diag: the dump ends with its failure.
    let mut buf = message(SOCK_DIAG_BY_FAMILY, &socket(3307, 5));
    buf.extend(message(NLMSG_DONE, &(-libc::ENOENT).to_ne_bytes()));
    let e = parse(&buf, 3307, &mut v).unwrap_err();
    assert_eq!(e.raw_os_error(), Some(libc::ENOENT));
    let mut intr = message(SOCK_DIAG_BY_FAMILY, &socket(3307, 5));
    intr[6..8].copy_from_slice(&(NLM_F_DUMP_INTR | 0x2).to_ne_bytes());
    assert!(parse(&intr, 3307, &mut v).is_err(), "the table changed");
    assert!(parse(&message(NLMSG_OVERRUN, &[]), 3307, &mut v).is_err());
    // A dump over two datagrams: the first says more, the second ends it.
    let mut v = Vec::new();
    let first = message(SOCK_DIAG_BY_FAMILY, &socket(3307, 7));
    let second = [
        message(SOCK_DIAG_BY_FAMILY, &socket(3307, 8)),
        message(NLMSG_DONE, &0i32.to_ne_bytes()),
    ]
    .concat();
    assert_eq!(parse(&first, 3307, &mut v).unwrap(), Part::More);
    assert_eq!(parse(&second, 3307, &mut v).unwrap(), Part::Done);
    assert_eq!(v, vec![7, 8]);
}

proptest! {
    #[test]
    fn any_bytes_are_read_without_a_panic(buf in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut v = Vec::new();
        let _ = parse(&buf, 3306, &mut v);
    }
}

/// The inode of a socket, as /proc/self/fd shows it.
fn inode_of(fd: i32) -> u64 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(format!("/proc/self/fd/{fd}"))
        .unwrap()
        .ino()
}

#[test]
fn the_kernel_names_a_listening_socket_as_proc_net_tcp_does() {
    use std::os::unix::io::AsRawFd;
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let inode = inode_of(l.as_raw_fd());
    let proc = std::fs::read_to_string("/proc/net/tcp").unwrap();
    assert_eq!(super::super::tcp_listen_inodes(&proc, port), vec![inode]);
    match listen_inodes(libc::AF_INET, port) {
        // A kernel without inet_diag or tcp_diag refuses the request: the listener check
        // reads /proc/net/tcp instead (checked just above). Any other error is a fault.
        Err(e) => {
            let refused = [
                libc::ENOENT,
                libc::EPROTONOSUPPORT,
                libc::EACCES,
                libc::EPERM,
            ];
            assert!(
                e.raw_os_error().is_some_and(|n| refused.contains(&n)),
                "{e}"
            );
            eprintln!("sock_diag cannot answer on this host ({e})");
        }
        Ok(v) => {
            assert_eq!(v, vec![inode]);
            assert!(
                !listen_inodes(libc::AF_INET6, port)
                    .unwrap()
                    .contains(&inode)
            );
            // IPv6 too, where the host has it.
            if let Ok(l6) = std::net::TcpListener::bind("[::1]:0") {
                let port6 = l6.local_addr().unwrap().port();
                let got = listen_inodes(libc::AF_INET6, port6).unwrap();
                assert_eq!(got, vec![inode_of(l6.as_raw_fd())]);
            }
            drop(l);
            assert!(!listen_inodes(libc::AF_INET, port).unwrap().contains(&inode));
        }
    }
}
