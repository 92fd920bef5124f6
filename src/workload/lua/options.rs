//! A script's options: what `sysbench.cmdline.options` declares (name, description,
//! default, type), sysbench's own options the sysbench API reads (--rand-type and its
//! parameters, --threads for parallel commands), and the command line's arguments after
//! the script read against them (`--name value`, `--name=value`, `-` and `_` alike).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An option's value, as `sysbench.opt` holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OptValue {
    /// on/off.
    Bool(bool),
    /// A number (sysbench's int, size and double options).
    Number(f64),
    /// Text.
    Text(String),
    /// A comma-separated list.
    List(Vec<String>),
}

/// sysbench's option types (sysbench.cmdline.ARG_*).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptType {
    /// ARG_BOOL.
    Bool,
    /// ARG_INT, ARG_SIZE, ARG_DOUBLE.
    Number,
    /// ARG_STRING, ARG_FILE.
    Text,
    /// ARG_LIST.
    List,
}

impl OptType {
    /// From sysbench.cmdline.ARG_* (the numbers sysbench gives them).
    pub fn from_arg(n: i64) -> Option<OptType> {
        match n {
            1 => Some(OptType::Bool),
            2..=4 => Some(OptType::Number),
            5 | 7 => Some(OptType::Text),
            6 => Some(OptType::List),
            _ => None,
        }
    }
}

/// One declared option.
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    /// Its name as the script spells it (`table_size`).
    pub name: String,
    /// Its description.
    pub desc: String,
    /// Its type.
    pub ty: OptType,
    /// Its default (None: no value unless given).
    pub default: Option<OptValue>,
}

/// sysbench's own options that the sysbench API reads, beside the script's:
/// (name, description, type, default).
pub fn builtins() -> Vec<Declared> {
    let d = |name: &str, desc: &str, ty, default| Declared {
        name: name.into(),
        desc: desc.into(),
        ty,
        default: Some(default),
    };
    vec![
        d(
            "rand_type",
            "sysbench.rand.default's distribution: uniform, gaussian, special, pareto, zipfian",
            OptType::Text,
            OptValue::Text("special".into()),
        ),
        d(
            "rand_spec_pct",
            "special: percent of the range that is hot",
            OptType::Number,
            OptValue::Number(1.0),
        ),
        d(
            "rand_spec_res",
            "special: percent of values that fall in the hot part",
            OptType::Number,
            OptValue::Number(75.0),
        ),
        d(
            "rand_pareto_h",
            "pareto: h",
            OptType::Number,
            OptValue::Number(0.2),
        ),
        d(
            "rand_zipfian_exp",
            "zipfian: exponent",
            OptType::Number,
            OptValue::Number(0.8),
        ),
        d(
            "threads",
            "prepare, cleanup and the script's commands: threads of a parallel command (run: txbench's --threads)",
            OptType::Number,
            OptValue::Number(1.0),
        ),
    ]
}

/// `s` as a value of type `ty`; None when it is not one.
fn parse_value(ty: OptType, s: &str) -> Option<OptValue> {
    match ty {
        OptType::Bool => match s.to_ascii_lowercase().as_str() {
            "on" | "true" | "1" | "yes" => Some(OptValue::Bool(true)),
            "off" | "false" | "0" | "no" => Some(OptValue::Bool(false)),
            _ => None,
        },
        OptType::Number => s
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(OptValue::Number),
        OptType::Text => Some(OptValue::Text(s.to_string())),
        OptType::List => Some(OptValue::List(
            s.split(',')
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect(),
        )),
    }
}

/// What the arguments after the script asked for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Given {
    /// Every option with its value (defaults included), by the script's name.
    pub values: BTreeMap<String, OptValue>,
    /// The options given on the command line, by the script's name.
    pub given: BTreeMap<String, OptValue>,
    /// `--help` was among them.
    pub help: bool,
}

/// Reads `args` against `declared` (the script's, then the builtins); errors name the
/// option and `file`.
pub fn parse(declared: &[Declared], args: &[String], file: &str) -> Result<Given, String> {
    let norm = |s: &str| s.replace('-', "_");
    let find = |name: &str| declared.iter().find(|d| norm(&d.name) == norm(name));
    let mut out = Given::default();
    for d in declared {
        if let Some(v) = &d.default {
            out.values
                .entry(d.name.clone())
                .or_insert_with(|| v.clone());
        }
    }
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--help" || arg == "-h" {
            out.help = true;
            continue;
        }
        let Some(body) = arg.strip_prefix("--") else {
            return Err(format!(
                "{file}: '{arg}' is not an option (options are --name value or --name=value)"
            ));
        };
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let Some(d) = find(name) else {
            return Err(format!(
                "{file} declares no option --{name} (its options: {})",
                declared
                    .iter()
                    .map(|d| d.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        };
        let value = match inline {
            Some(v) => parse_value(d.ty, &v),
            None if d.ty == OptType::Bool => {
                // `--flag` alone is on; `--flag off` takes the next word when it is a boolean.
                match args.get(i).and_then(|n| parse_value(OptType::Bool, n)) {
                    Some(v) => {
                        i += 1;
                        Some(v)
                    }
                    None => Some(OptValue::Bool(true)),
                }
            }
            None => {
                let Some(v) = args.get(i) else {
                    return Err(format!("{file}: --{name} needs a value"));
                };
                i += 1;
                parse_value(d.ty, v)
            }
        };
        let Some(value) = value else {
            return Err(format!(
                "{file}: --{name} takes {}, got '{}'",
                match d.ty {
                    OptType::Bool => "on or off",
                    OptType::Number => "a number",
                    _ => "a value",
                },
                args[i - 1]
                    .split_once('=')
                    .map_or(&args[i - 1][..], |x| x.1)
            ));
        };
        out.values.insert(d.name.clone(), value.clone());
        out.given.insert(d.name.clone(), value);
    }
    Ok(out)
}

/// The options listed for `--help`: the script's, then sysbench's that txbench reads.
pub fn help(script: &[Declared], file: &str) -> String {
    let line = |d: &Declared| {
        let default = match &d.default {
            Some(OptValue::Bool(b)) => format!(" [{}]", if *b { "on" } else { "off" }),
            Some(OptValue::Number(n)) => format!(" [{n}]"),
            Some(OptValue::Text(s)) => format!(" [{s}]"),
            Some(OptValue::List(l)) => format!(" [{}]", l.join(",")),
            None => String::new(),
        };
        format!("  --{}={}{}\n", d.name, d.desc, default)
    };
    let mut s = format!("{file} options:\n");
    s.extend(script.iter().map(line));
    s.push_str("sysbench options txbench reads:\n");
    s.extend(builtins().iter().map(line));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared() -> Vec<Declared> {
        let mut d = vec![
            Declared {
                name: "table_size".into(),
                desc: "rows".into(),
                ty: OptType::Number,
                default: Some(OptValue::Number(10000.0)),
            },
            Declared {
                name: "skip_trx".into(),
                desc: "no BEGIN".into(),
                ty: OptType::Bool,
                default: Some(OptValue::Bool(false)),
            },
        ];
        d.extend(builtins());
        d
    }

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn both_spellings_and_defaults() {
        let g = parse(
            &declared(),
            &args(&[
                "--table-size",
                "100",
                "--skip_trx=on",
                "--rand-type=uniform",
            ]),
            "x.lua",
        )
        .unwrap();
        assert_eq!(g.values["table_size"], OptValue::Number(100.0));
        assert_eq!(g.values["skip_trx"], OptValue::Bool(true));
        assert_eq!(g.values["rand_type"], OptValue::Text("uniform".into()));
        assert_eq!(g.values["rand_spec_pct"], OptValue::Number(1.0));
        assert_eq!(g.given.len(), 3);
        let flag = parse(&declared(), &args(&["--skip-trx"]), "x.lua").unwrap();
        assert_eq!(flag.values["skip_trx"], OptValue::Bool(true));
    }

    #[test]
    fn refusals_name_the_option_and_file() {
        let e = parse(&declared(), &args(&["--nope", "1"]), "x.lua").unwrap_err();
        assert!(e.starts_with("x.lua declares no option --nope"), "{e}");
        let e = parse(&declared(), &args(&["--table-size=many"]), "x.lua").unwrap_err();
        assert!(e.contains("--table-size takes a number, got 'many'"), "{e}");
        let e = parse(&declared(), &args(&["--table-size"]), "x.lua").unwrap_err();
        assert!(e.contains("needs a value"), "{e}");
    }
}
