-- tpcc_base: options, names, random draws and SQL helpers shared by the TPC-C-like workload
-- (in the style of sysbench-tpcc: several table sets, each a full TPC-C schema). Written for
-- this project from the TPC-C specification's public definitions (NURand, last-name syllables); no sysbench-tpcc code.

local ffi = require("ffi")
local bit = require("bit")

local base = {}

-- ---------------------------------------------------------------------------------------------
-- Options. sysbench reads the declared options when the script starts, so this table is set
-- as soon as the entry script requires this module.

base.OPTIONS = {
   scale = { "Warehouses per table set", 100 },
   tables = { "Number of independent table sets (warehouse1.., warehouse2.., ...)", 1 },
   use_fk = { "1: create the 10 foreign keys (never enforced: sessions run with FOREIGN_KEY_CHECKS=0)", 1 },
   force_pk = { "1: history gets an AUTO_INCREMENT id primary key (Galera/PXC need one)", 0 },
   trx_level = { "Session isolation: RR, RC, SER (or RU)", "RR" },
   enable_purge = { "yes: a sixth transaction type deletes old orders and history rows", "no" },
   mysql_storage_engine = { "Storage engine of the tables", "innodb" },
   mysql_table_options = { "Text appended to every CREATE TABLE (e.g. a COLLATE clause)", "" },
   tpcc_mode = { "compat: sysbench-tpcc's mix, access pattern and quirks; spec: quirks fixed", "compat" },
   items = { "Rows in each item table and stock rows per warehouse (the rule is 100000; "
      .. "smaller only for tests, and recorded)", 100000 },
   nurand_c = { "spec mode: NURand constants C for last names, customer ids and item ids "
      .. "at run time, as 'last,id,item' (default: the project's fixed constants)", "" },
   after_load = { "check: the data was just loaded, also check condition 11 and the row counts",
      false },
   load_wait = { "prepare: seconds a loader waits for the other loaders' CREATE TABLEs", 600 },
}

sysbench.cmdline.options = base.OPTIONS

function base.opt()
   return sysbench.opt
end

function base.spec()
   return sysbench.opt.tpcc_mode == "spec"
end

function base.purge_enabled()
   return sysbench.opt.enable_purge == "yes"
end

function base.validate()
   local o = sysbench.opt
   if o.tpcc_mode ~= "compat" and o.tpcc_mode ~= "spec" then
      error("--tpcc_mode must be compat or spec, not " .. tostring(o.tpcc_mode))
   end
   if o.enable_purge ~= "yes" and o.enable_purge ~= "no" then
      error("--enable_purge must be yes or no")
   end
   if o.scale < 1 or o.tables < 1 or o.items < 100 then
      error("--scale and --tables must be >= 1 and --items >= 100")
   end
   if base.ISOLATION[o.trx_level] == nil then
      error("--trx_level must be RR, RC, SER or RU, not " .. tostring(o.trx_level))
   end
end

-- ---------------------------------------------------------------------------------------------
-- Names

base.TABLES = { "item", "warehouse", "district", "customer", "history", "orders", "new_orders",
   "stock", "order_line" }
base.LAST_TABLE = "order_line" -- created last in every set; its presence means the set's DDL is done

function base.t(name, set)
   return name .. set
end

-- ---------------------------------------------------------------------------------------------
-- Random draws. Everything uses sysbench's uniform generator explicitly, so --rand-type has
-- no effect on this workload.

local uniform = sysbench.rand.uniform

function base.rand(a, b)
   return uniform(a, b)
end

function base.rand_letters(min_len, max_len)
   return sysbench.rand.string(string.rep("@", uniform(min_len, max_len)))
end

function base.rand_digits(len)
   return sysbench.rand.string(string.rep("#", len))
end

-- A repetitive, compressible string: n copies of one random letter (how the load fills the long
-- text columns c_data, ol_dist_info and s_dist_xx).
function base.repeated_letter(n)
   return string.rep(sysbench.rand.string("@"), n)
end

-- s_data / i_data: 26..50 letters, 10 % of them with ORIGINAL somewhere inside.
function base.data_with_original()
   local text = base.rand_letters(26, 50)
   if uniform(1, 10) == 1 then
      local at = uniform(1, #text - 7)
      text = text:sub(1, at - 1) .. "ORIGINAL" .. text:sub(at + 8)
   end
   return text
end

function base.zip()
   return base.rand_digits(4) .. "11111"
end

-- NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) mod (y - x + 1)) + x.
-- The spec fixes C per run (and C for last names at run time differs from the load-time one
-- by 65..119, not 96 nor 112). compat draws C anew on every call, as sysbench-tpcc does.
base.C_LOAD_LAST = 157
local RUN_C = { last = 223, id = 259, item = 7911 } -- |223 - 157| = 66: a valid delta

function base.parse_nurand_c()
   local text = sysbench.opt.nurand_c
   if text ~= nil and text ~= "" then
      local last, id, item = text:match("^(%d+),(%d+),(%d+)$")
      if last == nil then
         error("--nurand_c must be 'last,id,item', e.g. 223,259,7911")
      end
      RUN_C = { last = tonumber(last), id = tonumber(id), item = tonumber(item) }
   end
   local delta = math.abs(RUN_C.last - base.C_LOAD_LAST)
   if delta < 65 or delta > 119 or delta == 96 or delta == 112 then
      error(string.format("NURand C for last names %d: |C_run - C_load(%d)| must be in 65..119, "
         .. "not 96 or 112", RUN_C.last, base.C_LOAD_LAST))
   end
   return RUN_C
end

local function nurand(a, x, y, c)
   return (bit.bor(uniform(0, a), uniform(x, y)) + c) % (y - x + 1) + x
end

-- kind: "last" (A 255), "id" (A 1023), "item" (A 8191); at_load: use the load-time constant.
local A = { last = 255, id = 1023, item = 8191 }
function base.nurand(kind, x, y, at_load)
   local a = A[kind]
   local c
   if not base.spec() then
      c = uniform(0, a)
   elseif at_load then
      c = kind == "last" and base.C_LOAD_LAST or RUN_C[kind]
   else
      c = RUN_C[kind]
   end
   return nurand(a, x, y, c)
end

function base.run_constants()
   return RUN_C
end

local SYLLABLES = { "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING" }

-- The customer last name for a number 0..999: its three digits as syllables.
function base.last_name(n)
   return SYLLABLES[math.floor(n / 100) + 1] .. SYLLABLES[math.floor(n / 10) % 10 + 1]
      .. SYLLABLES[n % 10 + 1]
end

-- A warehouse of the same set other than w (spec: remote supply / remote payment).
-- compat reproduces sysbench-tpcc: its loop ends only when it draws w, so it returns w.
function base.other_warehouse(w)
   local scale = sysbench.opt.scale
   if not base.spec() or scale == 1 then
      return w
   end
   local other = uniform(1, scale - 1)
   if other >= w then
      other = other + 1
   end
   return other
end

-- ---------------------------------------------------------------------------------------------
-- SQL helpers

base.ISOLATION = {
   RR = "REPEATABLE READ",
   RC = "READ COMMITTED",
   SER = "SERIALIZABLE",
   RU = "READ UNCOMMITTED",
}

function base.setup_session(con)
   con:query("SET SESSION TRANSACTION ISOLATION LEVEL " .. base.ISOLATION[sysbench.opt.trx_level])
   con:query("SET autocommit = 0")
   con:query("SET foreign_key_checks = 0")
end

-- First row of a query (a table of strings, nil for NULL columns) or nil when it has none.
function base.row(con, sql)
   local rs = con:query(sql)
   if rs == nil or rs.nrows == 0 then
      return nil
   end
   return rs:fetch_row()
end

-- All rows of a query.
function base.rows(con, sql)
   local rs = con:query(sql)
   local list = {}
   if rs == nil then
      return list
   end
   for i = 1, rs.nrows do
      list[i] = rs:fetch_row()
   end
   return list
end

function base.value(con, sql)
   local row = base.row(con, sql)
   return row and row[1]
end

function base.sleep(seconds)
   ffi.C.usleep(math.floor(seconds * 1e6))
end

ffi.cdef([[
int usleep(unsigned int usec);
typedef struct { long sec; long nsec; } tpcc_timespec;
int clock_gettime(int clock_id, tpcc_timespec *tp);
void sb_counter_inc(int thread_id, sb_counter_type type);
]])

local now_buffer = ffi.new("tpcc_timespec")
local CLOCK_MONOTONIC = 1

-- Monotonic time in microseconds.
function base.now_us()
   ffi.C.clock_gettime(CLOCK_MONOTONIC, now_buffer)
   return tonumber(now_buffer.sec) * 1e6 + tonumber(now_buffer.nsec) / 1e3
end

-- Count one error in sysbench's own error counter (err/s, "ignored errors"), as sysbench-tpcc
-- does for its intentional New-Order rollbacks.
function base.count_sysbench_error()
   ffi.C.sb_counter_inc(sysbench.tid, ffi.C.SB_CNT_ERROR)
end

-- JSON text for a Lua value (the sysbench scripts' module; tpcc.lua puts it on the path).
base.json_string = require("json_text").string

-- One line to stdout in a single write, so lines of parallel threads never interleave.
function base.emit(line)
   io.stdout:write(line .. "\n")
   io.stdout:flush()
end

return base
