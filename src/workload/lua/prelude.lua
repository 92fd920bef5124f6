-- txbench's sysbench 1.0 API, its Lua half: what sysbench writes in Lua over its C core
-- (sysbench.sql, sysbench.rand, sysbench.cmdline, the hooks), written here over txbench's
-- primitives (P, in Rust: src/workload/lua/sql.rs and state.rs). Loaded into every Lua
-- state before the user's script. What is not supported raises an error naming it.
local P, cfg = ...

local realffi = require("ffi")
-- The counter type sysbench's own cdefs declare, which scripts name in theirs
-- (sysbench-tpcc: void sb_counter_inc(int, sb_counter_type)).
realffi.cdef [[
typedef enum {
  SB_CNT_OTHER, SB_CNT_READ, SB_CNT_WRITE, SB_CNT_TRX, SB_CNT_ERROR,
  SB_CNT_RECONNECT, SB_CNT_BYTES_READ, SB_CNT_BYTES_WRITTEN, SB_CNT_MAX
} sb_counter_type;
]]

local function unsupported(what)
   error("txbench: " .. what .. " is not supported (docs/workloads.md, sysbench Lua scripts)", 3)
end

-- ffi.C: sysbench's C functions that scripts call, answered by txbench; the C library's
-- own (usleep, ...) through LuaJIT's ffi; the rest of sysbench's C API refused by name.
local C_own = {
   sb_counter_inc = function(_, what) P.counter_inc(tonumber(what)) end,
   usleep = function(us) P.usleep(tonumber(us)) return 0 end,
}
local C = setmetatable({}, {
   __index = function(_, name)
      local f = C_own[name]
      if f ~= nil then return f end
      if type(name) == "string" and (name:match("^sb_") or name:match("^db_")) then
         local ok, v = pcall(function() return realffi.C[name] end)
         -- enum constants (SB_CNT_*) pass; sysbench's C functions do not exist here
         if ok and type(v) ~= "cdata" then return v end
         unsupported("sysbench's C function ffi.C." .. name)
      end
      return realffi.C[name]
   end,
})
local ffi = setmetatable({ C = C }, { __index = realffi })
package.loaded.ffi = ffi
_G.ffi = ffi

-- The primitives an event calls most, C functions of txbench's called through the ffi
-- (lua/ffi.rs): the session they work on, the functions, their buffers and statuses.
local S = realffi.cast("void *", cfg.ffi.session)
local F = {}
for name, f in pairs(cfg.ffi.fns) do F[name] = realffi.cast(f[1], f[2]) end
-- Statuses below 0: SQL_ERROR (P.last_error() describes it), NO_ROW, or txbench's own
-- error (P.message() says it).
local SQL_ERROR, NO_ROW = cfg.ffi.SQL_ERROR, cfg.ffi.NO_ROW
local out = realffi.new("double[3]")
local len = realffi.new("size_t[1]")
local tostr = realffi.string

sysbench = {
   tid = cfg.tid,
   version = "1.0.20",
   version_string = "sysbench 1.0.20 API (txbench)",
   opt = cfg.opt,
   hooks = {},
   error = { NONE = 0, RESTART_EVENT = 1 },
   rand = {},
   sql = {},
   cmdline = {
      command = cfg.command,
      script_path = cfg.script_path,
      argv = cfg.argv,
      ARG_NULL = 0, ARG_BOOL = 1, ARG_INT = 2, ARG_SIZE = 3, ARG_DOUBLE = 4,
      ARG_STRING = 5, ARG_LIST = 6, ARG_FILE = 7, ARG_MAX = 8,
      PARALLEL_COMMAND = true,
   },
}

-- sysbench.cmdline -------------------------------------------------------------------
local cmdline = sysbench.cmdline

-- Options are read by txbench from sysbench.cmdline.options after the script loads.
function cmdline.read_cmdline_options() return true end

function cmdline.command_defined(name)
   return type(cmdline.commands) == "table" and cmdline.commands[name] ~= nil
      and cmdline.commands[name][1] ~= nil
end

function cmdline.command_parallel(name)
   return cmdline.command_defined(name)
      and cmdline.commands[name][2] == cmdline.PARALLEL_COMMAND
end

function cmdline.call_command(name)
   if not cmdline.command_defined(name) then return false end
   local rc = cmdline.commands[name][1]()
   if rc == nil then return true end
   return rc and true or false
end

function cmdline.print_test_options() P.print_options() end

-- sysbench.rand ----------------------------------------------------------------------
local rand = sysbench.rand
local f_rand = F.rand
function rand.uniform(a, b) return f_rand(S, 0, a, b) end
function rand.default(a, b) return f_rand(S, 1, a, b) end
function rand.special(a, b) return f_rand(S, 2, a, b) end
function rand.gaussian(a, b) return f_rand(S, 3, a, b) end
function rand.pareto(a, b) return f_rand(S, 4, a, b) end
function rand.zipfian(a, b) return f_rand(S, 5, a, b) end
function rand.unique() return F.rand_unique(S) end
function rand.uniform_uint64() return F.rand_uint64(S) end
function rand.uniform_double() return F.rand_double(S) end
function rand.string(fmt)
   local p = F.rand_string(S, fmt, #fmt, len)
   return tostr(p, len[0])
end
function rand.varstring(min_len, max_len)
   assert(min_len <= max_len)
   assert(max_len > 0)
   local p = F.rand_varstring(S, min_len, max_len, len)
   return tostr(p, len[0])
end

-- sysbench 1.0's compatibility names (sysbench.compat.lua's) ---------------------------
thread_id = sysbench.tid
test = cfg.script_path
function sb_rnd() return tonumber(rand.uniform_uint64() % 4294967296) end
sb_rand = rand.default
sb_rand_str = rand.string
sb_rand_uniform = rand.uniform
sb_rand_gaussian = rand.gaussian
sb_rand_special = rand.special
function sb_rand_uniq(a, b)
   a = a or 0
   b = b or 4294967295
   local res
   repeat res = rand.unique() until res >= a and res <= b
   return res
end
for _, name in ipairs({ "db_connect", "db_disconnect", "db_query", "db_bulk_insert_init",
   "db_bulk_insert_next", "db_bulk_insert_done", "db_prepare", "db_bind_param",
   "db_bind_result", "db_execute", "db_store_results", "db_free_results", "db_close" }) do
   _G[name] = function() unsupported("sysbench 0.5's " .. name .. "()") end
end

-- sysbench's report formats, for a script's report hooks (report.rs calls them with
-- sysbench's stat table: counts over time_interval seconds, latency_pct in seconds).
local function rates(stat)
   local s = stat.time_interval
   if s <= 0 then s = 1 end
   return stat.events / s, (stat.reads + stat.writes + stat.other) / s, stat.reads / s,
      stat.writes / s, stat.other / s, stat.latency_pct * 1000, stat.errors / s,
      stat.reconnects / s
end

function sysbench.report_default(stat)
   local tps, qps, r, w, o, lat, err, rec = rates(stat)
   print(string.format("[ %.0fs ] thds: %u tps: %4.2f qps: %4.2f (r/w/o: %4.2f/%4.2f/%4.2f) "
      .. "lat (ms,%u%%): %4.2f err/s %4.2f reconn/s: %4.2f", stat.time_total,
      stat.threads_running, tps, qps, r, w, o, sysbench.opt.percentile, lat, err, rec))
end

function sysbench.report_csv(stat)
   local tps, qps, r, w, o, lat, err, rec = rates(stat)
   print(string.format("%.0f,%u,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f",
      stat.time_total, stat.threads_running, tps, qps, r, w, o, lat, err, rec))
end

-- A JSON array of intervals: opened by the first, closed when the reports end.
local json_reports = false
function sysbench.report_json(stat)
   io.write(json_reports and ",\n" or "[\n")
   json_reports = true
   local tps, qps, r, w, o, lat, err, rec = rates(stat)
   io.write(string.format('  {\n    "time": %4.0f,\n    "threads": %u,\n    "tps": %4.2f,\n'
      .. '    "qps": {\n      "total": %4.2f,\n      "reads": %4.2f,\n      "writes": %4.2f,\n'
      .. '      "other": %4.2f\n    },\n    "latency": %4.2f,\n    "errors": %4.2f,\n'
      .. '    "reconnects": %4.2f\n  }', stat.time_total, stat.threads_running, tps, qps, r,
      w, o, lat, err, rec))
end

-- sysbench.sql -----------------------------------------------------------------------
local sql = sysbench.sql
sql.type = {
   NONE = 0, TINYINT = 1, SMALLINT = 2, INT = 3, BIGINT = 4, FLOAT = 5, DOUBLE = 6,
   TIME = 7, DATE = 8, DATETIME = 9, TIMESTAMP = 10, CHAR = 11, VARCHAR = 12,
}
sql.error = { NONE = 0, IGNORABLE = 1, FATAL = 2 }
local T = sql.type

-- A failed statement: a RESTART_EVENT error (txbench's driver rolls back and retries it,
-- as --retries says) when the error is one txbench retries or the script's
-- sql_error_ignorable hook says so; otherwise sysbench's fatal message.
local function raise(con, err, query)
   local errdesc = {
      connection = con, query = query, sql_errno = err.sql_errno,
      sql_state = err.sql_state, sql_errmsg = err.sql_errmsg,
   }
   local hook = sysbench.hooks.sql_error_ignorable
   if err.retry or (type(hook) == "function" and hook(errdesc)) then
      errdesc.errcode = sysbench.error.RESTART_EVENT
      P.mark_restart()
      error(errdesc, 3)
   end
   error(string.format("SQL error, errno = %d, state = '%s': %s",
      err.sql_errno, err.sql_state, err.sql_errmsg), 3)
end

local result_mt = { __tostring = function() return "<sql_result>" end }
local result_methods = {}
result_mt.__index = result_methods

-- A statement's result, as sysbench's, from its status and `out` (rows, columns, its
-- number or 0 when it has no rows): nil for a statement without a result set (an UPDATE);
-- otherwise the connection's one result object (sysbench's con->rs), which the next
-- statement on the connection refills. Its rows stay in txbench (number) until fetched. A
-- failed statement raises its error.
local function result(con, st, query)
   if st <= 0 then
      if st == 0 then return nil end
      if st == SQL_ERROR then raise(con, P.last_error(), query) end
      error(P.message(), 2)
   end
   local rs = con.rs
   if rs == nil then
      rs = setmetatable({}, result_mt)
      con.rs = rs
   end
   local number = out[2]
   rs.nrows, rs.nfields, rs.pos = out[0], out[1], 0
   if number == 0 then rs.number = nil else rs.number = number end
   return rs
end

-- A row as sysbench gives it: every cell a string, NULL a nil.
function result_methods.fetch_row(self)
   if self.number == nil then return nil end
   self.pos = self.pos + 1
   local n = F.row(S, self.number, self.pos)
   if n < 0 then
      if n == NO_ROW then return nil end
      error(P.message(), 2)
   end
   local row = {}
   for j = 1, n do
      local p = F.cell(S, j - 1, len)
      if p ~= nil then row[j] = tostr(p, len[0]) end
   end
   return row
end

function result_methods.free(self)
   if self.number ~= nil then F.free(S, self.number) end
   self.number = nil
end

local param_mt = { __tostring = function() return "<sql_param>" end }
local param_methods = {}
param_mt.__index = param_methods

function param_methods.set(self, value)
   if value == nil then
      self.value = nil
      return
   end
   local t = self.type
   if t == T.BIGINT or t == T.DOUBLE then
      self.value = tonumber(value)
   elseif t == T.VARCHAR then
      value = tostring(value)
      if #value > self.max_len then value = value:sub(1, self.max_len) end
      self.value = value
   else
      error("Unsupported argument type: " .. tostring(t), 2)
   end
end

function param_methods.set_rand_str(self, fmt)
   if self.type ~= T.VARCHAR then
      error("Unsupported argument type: " .. tostring(self.type), 2)
   end
   local s = rand.string(fmt)
   if #s > self.max_len then s = s:sub(1, self.max_len) end
   self.value = s
end

local stmt_mt = { __tostring = function() return "<sql_statement>" end }
local stmt_methods = {}
stmt_mt.__index = stmt_methods

function stmt_methods.bind_create(self, btype, max_len)
   local p = setmetatable({}, param_mt)
   if btype == T.TINYINT or btype == T.SMALLINT or btype == T.INT or btype == T.BIGINT then
      p.type, p.max_len = T.BIGINT, 8
   elseif btype == T.FLOAT or btype == T.DOUBLE then
      p.type, p.max_len = T.DOUBLE, 8
   elseif btype == T.CHAR or btype == T.VARCHAR then
      p.type, p.max_len = T.VARCHAR, max_len
   else
      error("Unsupported argument type: " .. tostring(btype), 2)
   end
   return p
end

function stmt_methods.bind_param(self, ...)
   local n = select("#", ...)
   if n < 1 then return nil end
   self.params = { ... }
   self.nparams = n
   return 0
end

function stmt_methods.bind_result() unsupported("stmt:bind_result()") end
function stmt_methods.next_result() unsupported("stmt:next_result()") end

local f_param, f_execute = F.param, F.execute
function stmt_methods.execute(self)
   local n = self.nparams or 0
   local params = self.params
   for i = 1, n do
      local v = params[i].value
      local st
      if v == nil then
         st = f_param(S, i - 1, 0, 0, nil, 0)
      elseif type(v) == "number" then
         st = f_param(S, i - 1, 1, v, nil, 0)
      else
         st = f_param(S, i - 1, 2, 0, v, #v)
      end
      if st < 0 then error(P.message(), 2) end
   end
   return result(self.connection, f_execute(S, self.id or -1, n, out), "<prepared statement>")
end

function stmt_methods.close(self)
   if self.id then P.close(self.id) end
   self.id = nil
   return 0
end

local con_mt = { __tostring = function() return "<sql_connection>" end }
local con_methods = {}
con_mt.__index = con_methods

local f_query = F.query
function con_methods.query(self, query)
   return result(self, f_query(S, query, #query, out), query)
end

function con_methods.query_row(self, query)
   local rs = self:query(query)
   if rs == nil or rs.nrows == 0 then return nil end
   return unpack(rs:fetch_row(), 1, rs.nfields)
end

function con_methods.prepare(self, query)
   local id, err = P.prepare(query)
   if id == nil then raise(self, err, query) end
   return setmetatable({ id = id, connection = self }, stmt_mt)
end

-- Multi-row INSERTs as sysbench builds them: VALUES joined by commas, sent when the next
-- would pass 512 KiB (and, for PostgreSQL, COMMIT every 1,000 rows as sysbench does).
local BULK_SIZE = 512 * 1024
function con_methods.bulk_insert_init(self, query)
   self.bulk = { head = query, parts = {}, len = #query, rows = 0, uncommitted = 0 }
   return true
end

local function bulk_flush(self, last)
   local b = self.bulk
   if b.rows == 0 then return end
   self:query(b.head .. table.concat(b.parts, ","))
   if P.driver_name() == "pgsql" then
      b.uncommitted = b.uncommitted + b.rows
      if last or b.uncommitted >= 1000 then
         self:query("COMMIT")
         b.uncommitted = 0
      end
   end
   b.parts, b.len, b.rows = {}, #b.head, 0
end

function con_methods.bulk_insert_next(self, val)
   local b = self.bulk
   assert(b ~= nil, "bulk_insert_next() before bulk_insert_init()")
   if b.len + #val + 1 > BULK_SIZE then
      if b.rows == 0 then error("Query length exceeds the maximum value (" .. BULK_SIZE .. ")", 2) end
      bulk_flush(self, false)
   end
   b.rows = b.rows + 1
   b.parts[b.rows] = val
   b.len = b.len + #val + 1
   return true
end

function con_methods.bulk_insert_done(self)
   if self.bulk then bulk_flush(self, true) end
   self.bulk = nil
   return true
end

function con_methods.disconnect(self)
   P.disconnect()
   return true
end

function con_methods.reconnect() unsupported("con:reconnect()") end
function con_methods.more_results() return false end
function con_methods.next_result() unsupported("con:next_result()") end
function con_methods.check_error(_, rs) return rs end

local drv_mt = { __tostring = function() return "<sql_driver>" end }
local drv_methods = {}
drv_mt.__index = drv_methods

function drv_methods.connect(self)
   P.connect()
   return setmetatable({}, con_mt)
end

function drv_methods.name() return P.driver_name() end

function sql.driver(name)
   if name ~= nil and name ~= P.driver_name() then
      error("txbench: the target is " .. P.driver_name() .. ", not " .. tostring(name), 2)
   end
   return setmetatable({}, drv_mt)
end

-- sysbench.histogram (sysbench's own latency histogram object) is txbench's: refused.
sysbench.histogram = setmetatable({}, {
   __index = function(_, k) unsupported("sysbench.histogram." .. tostring(k)) end,
})

-- For txbench (kept in the registry, out of the script's sight) ------------------------
local function described(err)
   if type(err) == "table" then
      return string.format("SQL error, errno = %d, state = '%s': %s",
         err.sql_errno or 0, tostring(err.sql_state), tostring(err.sql_errmsg))
   end
   return tostring(err)
end

local hidden = {}

-- The kind of the event under way: the position (from 1) in wrap_kinds' list of the first
-- of those functions it called, 0 while it called none.
local kind = 0

-- The script's global functions that are transaction kinds (sysbench-tpcc's new_order,
-- payment, ...), each replaced by a function that marks the event's kind and calls it.
function hidden.wrap_kinds(names)
   for i, name in ipairs(names) do
      local f = _G[name]
      _G[name] = function(...)
         if kind == 0 then kind = i end
         return f(...)
      end
   end
end

-- One event, as sysbench's thread_run: a RESTART_EVENT error calls the
-- before_restart_event hook, and txbench's driver decides whether to run it again. An
-- event() that returns a value other than nil or false ends its thread's run (the third
-- result); the fourth is its kind.
function hidden.run_event(tid)
   kind = 0
   local ok, err = pcall(event, tid)
   if ok then return true, nil, err ~= nil and err ~= false, kind end
   if type(err) == "table" and err.errcode == sysbench.error.RESTART_EVENT
      and sysbench.hooks.before_restart_event then
      local hok, herr = pcall(sysbench.hooks.before_restart_event, err)
      if not hok then return false, described(herr), false, kind end
   end
   return false, described(err), false, kind
end

-- A global function or a command's function called: true, or false and the error.
function hidden.call(f, ...)
   local ok, err = pcall(f, ...)
   io.stdout:flush()
   if ok then return true end
   return false, described(err)
end

-- A report hook called with its stat table, and what it wrote flushed.
function hidden.report(name, stat)
   local hook = sysbench.hooks[name]
   if type(hook) == "function" then hook(stat) end
   io.stdout:flush()
end

-- The intervals' reports ended (the cumulative report follows, as in sysbench):
-- report_json's array closed; another level's opens a new one.
function hidden.reports_done()
   if json_reports then io.write("\n]\n") end
   json_reports = false
   io.stdout:flush()
end

return hidden
