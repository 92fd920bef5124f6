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

proptest! {
    #[test]
    fn any_bytes_are_read_without_a_panic(buf in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut v = Vec::new();
        let _ = parse(&buf, 3306, &mut v);
    }
}

#[test]
fn the_kernel_names_a_listening_socket_as_proc_net_tcp_does() {
    use std::os::unix::fs::MetadataExt;
    use std::os::unix::io::AsRawFd;
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let inode = std::fs::metadata(format!("/proc/self/fd/{}", l.as_raw_fd()))
        .unwrap()
        .ino();
    let proc = std::fs::read_to_string("/proc/net/tcp").unwrap();
    assert_eq!(super::super::tcp_listen_inodes(&proc, port), vec![inode]);
    // A kernel without inet_diag refuses the request: the listener check reads /proc/net/tcp
    // instead (checked just above).
    match listen_inodes(libc::AF_INET, port) {
        Err(e) => eprintln!("sock_diag cannot answer on this host ({e})"),
        Ok(v) => {
            assert_eq!(v, vec![inode]);
            assert!(listen_inodes(libc::AF_INET6, port).unwrap().is_empty());
            drop(l);
            assert!(listen_inodes(libc::AF_INET, port).unwrap().is_empty());
        }
    }
}
