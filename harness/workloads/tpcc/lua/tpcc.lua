-- tpcc: a TPC-C-like workload for sysbench 1.0.20, written for this project.
-- Not TPC-C: unaudited, no keying or think times, no terminals bound to warehouses.
--
--   sysbench tpcc.lua --scale=1 --tables=2 --threads=2 prepare      # parallel load
--   sysbench tpcc.lua --scale=1 --tables=2 --threads=2 --time=60 run
--   sysbench tpcc.lua --scale=1 --tables=2 --threads=2 check        # consistency conditions
--   sysbench tpcc.lua --scale=1 --tables=2 cleanup
--
-- --tpcc_mode=compat (default) reproduces sysbench-tpcc's mix, access pattern and quirks so
-- results compare with published sysbench-tpcc numbers; --tpcc_mode=spec fixes the quirks.
-- Every run thread prints one "tpcc-stats {json}" line when it ends (per-type counts,
-- rollbacks, retries, latency histogram); harness/workloads/tpcc/output.py adds
-- them up.

-- The modules live next to this file; sysbench does not put the script's directory on
-- package.path, so add it (works from any working directory, no LUA_PATH needed).
local script_dir = sysbench.cmdline.script_path:match("^(.*)/[^/]*$") or "."
-- json_text.lua is shared with the sysbench scripts next door.
package.path = script_dir .. "/?.lua;" .. script_dir .. "/../../sysbench/lua/?.lua;" .. package.path

local base = require("tpcc_base")
local load = require("tpcc_load")
local txn = require("tpcc_txn")
local stats = require("tpcc_stats")
local check = require("tpcc_check")

sysbench.cmdline.commands = {
   prepare = { load.prepare, sysbench.cmdline.PARALLEL_COMMAND },
   check = { check.run, sysbench.cmdline.PARALLEL_COMMAND },
   cleanup = { load.cleanup },
}

local con
local purge, spec
local current -- the type of the event in progress (kept over a retry in spec mode)
local started -- when the first attempt of the event in progress started (µs)

function thread_init()
   base.validate()
   base.parse_nurand_c()
   purge, spec = base.purge_enabled(), base.spec()
   con = sysbench.sql.driver():connect()
   base.setup_session(con)
end

function thread_done()
   base.emit(stats.line(sysbench.tid))
   con:disconnect()
end

function event()
   if started == nil then
      started = base.now_us()
   end
   -- A restarted event draws its type again in compat mode (sysbench-tpcc calls its event
   -- function afresh); spec mode retries the same type. compat draws each type independently,
   -- spec deals from a shuffled deck.
   if spec then
      current = current or txn.deal(purge)
   else
      current = txn.draw(purge)
   end
   local set = base.rand(1, sysbench.opt.tables)
   local w = base.rand(1, sysbench.opt.scale)
   local outcome = txn[current](con, set, w)
   stats.record(current, outcome, base.now_us() - started)
   if outcome == "rollback" and not spec then
      -- COMPAT: sysbench-tpcc counts its intentional rollbacks as sysbench errors
      base.count_sysbench_error()
   end
   current, started = nil, nil
end

-- An ignorable error (deadlock, lock wait timeout, ... per --mysql-ignore-errors) ended the
-- attempt: count it against the type that hit it, roll back what the attempt did (a lock
-- wait timeout rolls back only the statement), and restore the session after a reconnect.
local CONNECTION_LOST = { [2006] = true, [2011] = true, [2013] = true, [2055] = true }
sysbench.hooks.before_restart_event = function(err)
   stats.retry(current or "unknown", err.sql_errno)
   if CONNECTION_LOST[err.sql_errno] then
      base.setup_session(con)
   else
      con:query("ROLLBACK")
   end
end
