-- oltp_read_write.lua's event() with sysbench's API stubbed (natives do nothing): the Lua
-- VM's own share of an event, LuaJIT against Lua 5.4 (docs/workloads.md, "Why LuaJIT").
-- Usage: luajit scripts/lua-vm-event.lua [EVENTS]; lua5.4 scripts/lua-vm-event.lua [EVENTS]
package.path = "/usr/share/sysbench/?.lua;" .. package.path
unpack = unpack or table.unpack
local N = tonumber(arg[1]) or 200000
local stub_param = { set = function(self, v) self.v = v end, set_rand_str = function(self, t) self.v = t end }
stub_param.__index = stub_param
local stub_stmt = {}
stub_stmt.__index = stub_stmt
function stub_stmt:bind_create() return setmetatable({}, stub_param) end
function stub_stmt:bind_param(...) self.params = {...} end
function stub_stmt:execute() return nil end
function stub_stmt:close() end
local con = {}
function con:prepare(sql) return setmetatable({sql = sql}, stub_stmt) end
function con:query() return nil end
function con:disconnect() end
local drv = { connect = function() return con end, name = function() return "mysql" end }
local seed = 1
local function rnd(a, b) seed = (seed * 1103515245 + 12345) % 2147483648; return a + seed % (b - a + 1) end
sysbench = {
  tid = 0,
  cmdline = { command = "run", PARALLEL_COMMAND = 1, ARG_INT = 1 },
  sql = { driver = function() return drv end, type = { INT = 1, CHAR = 2, VARCHAR = 3, TINYINT = 4, BIGINT = 5 } },
  rand = { default = rnd, uniform = rnd, string = function(t) return t end },
  opt = {}, error = {}, hooks = {},
}
require("oltp_read_write")
for k, v in pairs(sysbench.cmdline.options) do sysbench.opt[k] = v[2] end
sysbench.opt.threads = 1; sysbench.opt.tables = 4; sysbench.opt.table_size = 100000
thread_init()
local t0 = os.clock()
for _ = 1, N do event() end
local t = os.clock() - t0
print(string.format("%s: %d events, %.3f s CPU, %.2f us per event", _VERSION .. (jit and (" " .. jit.version) or ""), N, t, t / N * 1e6))
