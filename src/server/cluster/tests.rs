//! Unit tests of `server/cluster.rs`, beside it so the subject stays readable.

use super::*;

#[test]
fn bad_topologies_are_refused_naming_the_flag() {
    let e = Request {
        replicas: Some(0),
        ..Default::default()
    }
    .check()
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("--replicas 0:"), "{e}");
    let e = Request {
        galera: Some(1),
        ..Default::default()
    }
    .check()
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("--galera 1:"), "{e}");
    let e = Request {
        semisync: true,
        ..Default::default()
    }
    .check()
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("--semisync:"), "{e}");
}

#[test]
fn a_missing_galera_library_names_the_package() {
    let e = galera_available(Path::new("/nonexistent/libgalera_smm.so"), 3)
        .unwrap_err()
        .to_string();
    assert!(e.contains("galera-4"), "{e}");
    assert!(e.starts_with("--galera 3:"), "{e}");
}

#[test]
fn galera_nodes_list_every_peer_and_their_own_ports() {
    let rec = ServerRecord {
        name: "g-g2".into(),
        port: 3310,
        role: Role::Galera {
            cluster: "g".into(),
            index: 2,
            nodes: galera_names("g", 3),
            gcomm_ports: vec![20000, 20003, 20006],
        },
        ..ServerRecord::for_tests()
    };
    let text: Vec<String> = role_settings(&rec)
        .iter()
        .map(|s| format!("{}={}", s.key, s.value))
        .collect();
    assert!(
        text.contains(
            &"wsrep_cluster_address=gcomm://127.0.0.1:20000,127.0.0.1:20003,127.0.0.1:20006"
                .to_string()
        )
    );
    assert!(text.contains(&"wsrep_node_address=127.0.0.1:20003".to_string()));
    assert!(text.contains(&"wsrep_sst_receive_address=127.0.0.1:20005".to_string()));
    assert_eq!(galera_names("g", 3), ["g", "g-g2", "g-g3"]);
}
