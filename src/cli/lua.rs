//! The command line of the `lua` workload: a script's options are the script's to read
//! (`trailing_var_arg`), so txbench's own options written after the script (the driver's
//! --threads, --time, --url …, as sysbench's users write them) are moved before the
//! workload first, where clap reads them.

use super::*;
use clap::CommandFactory;

/// The verbs whose workload may be `lua FILE`, and `lua-command FILE NAME`.
const VERBS: [&str; 5] = ["prepare", "run", "check", "cleanup", "lua-command"];

/// An option txbench knows for a verb: whether it takes a value (Some(true): always,
/// Some(false): optionally).
struct Known {
    longs: Vec<(String, Option<bool>)>,
    shorts: Vec<(char, Option<bool>)>,
}

fn known(verb: &str) -> Known {
    let mut root = Cli::command();
    root.build();
    let mut out = Known {
        longs: Vec::new(),
        shorts: Vec::new(),
    };
    let mut add = |a: &clap::Arg| {
        // --help after the script lists the script's options.
        if matches!(
            a.get_action(),
            clap::ArgAction::Help
                | clap::ArgAction::HelpShort
                | clap::ArgAction::HelpLong
                | clap::ArgAction::Version
        ) {
            return;
        }
        let takes = a
            .get_action()
            .takes_values()
            .then(|| a.get_num_args().is_none_or(|n| n.min_values() > 0));
        if let Some(l) = a.get_long() {
            out.longs.push((l.to_string(), takes));
        }
        for l in a.get_all_aliases().unwrap_or_default() {
            out.longs.push((l.to_string(), takes));
        }
        if let Some(c) = a.get_short() {
            out.shorts.push((c, takes));
        }
    };
    root.get_arguments().for_each(&mut add);
    if let Some(sub) = root.find_subcommand(verb) {
        sub.get_arguments().for_each(&mut add);
    }
    out
}

/// `argv` with txbench's options that follow a `lua FILE` (or `lua-command FILE NAME`)
/// moved before `lua` (`lua-command`'s: before it); everything else as it was.
pub fn hoist_lua_options(argv: Vec<String>) -> Vec<String> {
    let Some(v) = argv.iter().position(|a| VERBS.contains(&a.as_str())) else {
        return argv;
    };
    let verb = argv[v].clone();
    // Where the workload starts (`lua`, or the verb itself for lua-command) and where the
    // script's options start.
    let (start, tail) = if verb == "lua-command" {
        (v, v + 3)
    } else {
        match argv[v + 1..].iter().position(|a| a == "lua") {
            Some(k) => (v + 1 + k, v + 1 + k + 2),
            None => return argv,
        }
    };
    if tail > argv.len() {
        return argv;
    }
    let k = known(&verb);
    let (mut moved, mut kept) = (Vec::new(), Vec::new());
    let mut i = tail;
    while i < argv.len() {
        let a = &argv[i];
        i += 1;
        let takes = if let Some(body) = a.strip_prefix("--") {
            let (name, inline) = (body.split('=').next().unwrap_or(body), body.contains('='));
            k.longs
                .iter()
                .find(|(l, _)| l == name)
                .map(|(_, t)| t.filter(|_| !inline))
        } else if a.len() == 2 && a.starts_with('-') {
            let c = a.chars().nth(1).unwrap_or(' ');
            k.shorts.iter().find(|(s, _)| *s == c).map(|(_, t)| *t)
        } else {
            None
        };
        let Some(takes) = takes else {
            kept.push(a.clone());
            continue;
        };
        moved.push(a.clone());
        let next_is_value = argv.get(i).is_some_and(|n| !n.starts_with("--"));
        if (takes == Some(true) || (takes == Some(false) && next_is_value))
            && let Some(n) = argv.get(i)
        {
            moved.push(n.clone());
            i += 1;
        }
    }
    let mut out: Vec<String> = argv[..start].to_vec();
    out.extend(moved);
    out.extend(argv[start..tail].iter().cloned());
    out.extend(kept);
    out
}

/// The command line parsed, with [`hoist_lua_options`] first.
pub fn parse_args(argv: Vec<String>) -> Result<Cli, clap::Error> {
    <Cli as Parser>::try_parse_from(hoist_lua_options(argv))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn driver_options_after_the_script_move_before_it() {
        let got = hoist_lua_options(v(
            "txbench run lua x.lua --tables 2 --threads=2 --time 3 -q --table-size=10 --url mysql://h/db",
        ));
        assert_eq!(
            got,
            v(
                "txbench run --threads=2 --time 3 -q --url mysql://h/db lua x.lua --tables 2 --table-size=10"
            )
        );
        let got = hoist_lua_options(v("txbench prepare lua x.lua --threads 2 --load-threads 3"));
        assert_eq!(
            got,
            v("txbench prepare --load-threads 3 lua x.lua --threads 2")
        );
        let got = hoist_lua_options(v("txbench lua-command t.lua check --scale 1 --quiet"));
        assert_eq!(got, v("txbench --quiet lua-command t.lua check --scale 1"));
        // Other workloads are left alone.
        let same = v("txbench run oltp_read_write --threads 2");
        assert_eq!(hoist_lua_options(same.clone()), same);
    }

    #[test]
    fn a_lua_command_line_parses() {
        let cli = parse_args(v("txbench run lua x.lua --tables 2 --threads 4 --time=3")).unwrap();
        let Command::Run(r) = cli.command else {
            panic!("not a run")
        };
        assert_eq!(r.driver.time, 3.0);
        let WorkloadChoice::Lua(a) = r.workload else {
            panic!("not lua")
        };
        assert_eq!(a.args, v("--tables 2"));
    }
}
