use super::*;

fn script(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.lua");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn declarations_are_read() {
    let (_d, path) = script(
        "sysbench.cmdline.options = { rows = {'Rows', 10}, fast = {'Fast', true}, name = {'Name'} }\n\
         sysbench.cmdline.commands = { check = {function() end, sysbench.cmdline.PARALLEL_COMMAND} }\n\
         function event() end\nfunction thread_init() end\n",
    );
    let s = Script::load(&path, "run").unwrap();
    let names: Vec<&str> = s.declared.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["fast", "name", "rows"]);
    assert_eq!(s.declared[0].ty, OptType::Bool);
    assert_eq!(s.declared[1].default, None);
    assert_eq!(s.declared[2].default, Some(OptValue::Number(10.0)));
    assert_eq!(s.commands, [("check".to_string(), true)]);
    assert!(s.defines("event") && s.defines("thread_init") && !s.defines("prepare"));
    assert_eq!(s.sha256.len(), 64);
    assert_eq!(s.kind(), "s");
}

#[test]
fn errors_name_file_and_line() {
    let (_d, path) = script("function event()\n  local x = = 1\nend\n");
    let e = Script::load(&path, "run").unwrap_err();
    assert!(e.starts_with(&format!("{}:2:", path.display())), "{e}");
    let (_d, path) = script("\n\nerror('no command')\n");
    let e = Script::load(&path, "run").unwrap_err();
    assert!(
        e.starts_with(&format!("{}:3: no command", path.display())),
        "{e}"
    );
    let e = Script::load(Path::new("/nonexistent/x.lua"), "run").unwrap_err();
    assert!(
        e.starts_with("/nonexistent/x.lua: cannot read the script"),
        "{e}"
    );
}

#[test]
fn sysbench_api_in_lua() {
    // The random functions, ffi's shim and the refusals, without a server.
    let (_d, path) = script(
        "local ffi = require('ffi')\n\
         ffi.cdef[[void sb_counter_inc(int, sb_counter_type);]]\n\
         assert(ffi.C.SB_CNT_ERROR == 4)\n\
         local v = sysbench.rand.uniform(5, 7) assert(v >= 5 and v <= 7)\n\
         local d = sysbench.rand.default(1, 100) assert(d >= 1 and d <= 100)\n\
         local s = sysbench.rand.string('##-@@') assert(#s == 5 and s:match('^%d%d%-%l%l$'))\n\
         local w = sysbench.rand.varstring(3, 4) assert(#w >= 3 and #w <= 4)\n\
         assert(sysbench.rand.unique() ~= sysbench.rand.unique())\n\
         assert(sb_rand(1, 2) <= 2)\n\
         assert(not pcall(function() return ffi.C.sb_histogram_new() end))\n\
         local ok, e = pcall(db_query, 'x') assert(not ok and e:match('not supported'))\n\
         function event() end\n",
    );
    Script::load(&path, "run").unwrap();
}
