-- tpcc_stats: per-transaction-type counters and latency histograms of one sysbench thread.
-- Written for this project.
--
-- sysbench 1.0.20 gives every worker thread its own Lua state, and its report hooks run in
-- yet another state, so the threads cannot share a table. Each thread counts for itself and
-- prints one line at thread_done:
--   tpcc-stats {"thread": 0, "mode": "compat", "types": {"new_order": {...}, ...}}
-- which harness/workloads/tpcc/output.py sums over the threads. Latency buckets are
-- logarithmic: bucket b holds latencies in [2^(b/32), 2^((b+1)/32)) microseconds (2.2 % wide).

local base = require("tpcc_base")

local stats = {}

local BUCKETS_PER_DOUBLING = 32
local LOG2 = math.log(2)

local by_type = {}

local function entry(name)
   local e = by_type[name]
   if e == nil then
      e = { count = 0, commits = 0, rollbacks = 0, retries = 0, deadlocks = 0, lock_waits = 0,
         other_errors = 0, sum_us = 0, max_us = 0, hist = {} }
      by_type[name] = e
   end
   return e
end

-- One finished event: outcome "commit" or "rollback"; us from the start of its first attempt.
function stats.record(name, outcome, us)
   local e = entry(name)
   e.count = e.count + 1
   if outcome == "commit" then
      e.commits = e.commits + 1
   else
      e.rollbacks = e.rollbacks + 1
   end
   e.sum_us = e.sum_us + us
   if us > e.max_us then
      e.max_us = us
   end
   local bucket = math.floor(math.log(math.max(us, 1)) / LOG2 * BUCKETS_PER_DOUBLING)
   e.hist[bucket] = (e.hist[bucket] or 0) + 1
end

-- One attempt ended by an ignorable SQL error (the event is restarted).
function stats.retry(name, errno)
   local e = entry(name)
   e.retries = e.retries + 1
   if errno == 1213 then
      e.deadlocks = e.deadlocks + 1
   elseif errno == 1205 then
      e.lock_waits = e.lock_waits + 1
   else
      e.other_errors = e.other_errors + 1
   end
end

local function type_json(e)
   local buckets = {}
   for bucket, count in pairs(e.hist) do
      buckets[#buckets + 1] = string.format('"%d": %d', bucket, count)
   end
   table.sort(buckets)
   return string.format('{"count": %d, "commits": %d, "rollbacks": %d, "retries": %d, '
      .. '"deadlocks": %d, "lock_waits": %d, "other_errors": %d, "sum_us": %.0f, "max_us": %.0f, '
      .. '"hist": {%s}}', e.count, e.commits, e.rollbacks, e.retries, e.deadlocks, e.lock_waits,
      e.other_errors, e.sum_us, e.max_us, table.concat(buckets, ", "))
end

function stats.line(thread_id)
   local parts = {}
   local names = {}
   for name in pairs(by_type) do
      names[#names + 1] = name
   end
   table.sort(names)
   for _, name in ipairs(names) do
      parts[#parts + 1] = base.json_string(name) .. ": " .. type_json(by_type[name])
   end
   local c = base.run_constants()
   return string.format('tpcc-stats {"thread": %d, "mode": %s, "enable_purge": %s, '
      .. '"buckets_per_doubling": %d, "nurand_c": %s, "types": {%s}}', thread_id,
      base.json_string(sysbench.opt.tpcc_mode), tostring(base.purge_enabled()), BUCKETS_PER_DOUBLING,
      base.spec() and string.format('{"last": %d, "id": %d, "item": %d, "load_last": %d}', c.last,
         c.id, c.item, base.C_LOAD_LAST) or "null",
      table.concat(parts, ", "))
end

return stats
