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

/// A usage error as one line, `Error: …` as every other error (without clap's usage block
/// and its pointer to `--help`), for stderr with exit code 2; None for what is not an error
/// (`--help`, `--version`), which clap prints itself.
pub fn usage_error_line(e: &clap::Error) -> Option<String> {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        return None;
    }
    let text = e.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:"))
        .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
        .collect();
    let line = parts.join(" ");
    Some(format!(
        "Error: {}",
        line.strip_prefix("error: ").unwrap_or(&line)
    ))
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
    fn usage_errors_are_one_line_and_help_is_not_an_error() {
        let e = parse_args(v("txbench replay --server p --probes 2")).unwrap_err();
        let line = usage_error_line(&e).unwrap();
        assert_eq!(
            line,
            "Error: the following required arguments were not provided: --balanced"
        );
        let e = parse_args(v("txbench run --nosuch 1 oltp_insert")).unwrap_err();
        let line = usage_error_line(&e).unwrap();
        assert!(
            line.starts_with("Error: unexpected argument '--nosuch' found"),
            "{line}"
        );
        assert!(!line.contains('\n') && !line.contains("Usage"), "{line}");
        let e = parse_args(v("txbench prepare tpcb --history-key uuid")).unwrap_err();
        let line = usage_error_line(&e).unwrap();
        assert!(
            line.ends_with("[possible values: autoinc, none, client]"),
            "{line}"
        );
        let e = parse_args(v("txbench --help")).unwrap_err();
        assert_eq!(usage_error_line(&e), None);
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
