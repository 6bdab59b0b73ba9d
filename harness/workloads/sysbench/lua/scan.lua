-- scan: a full scan of one table per event that returns no row (LENGTH(c) is never negative),
-- so it measures reading rows, not sending them. Thread t scans table (t mod tables) + 1.
-- The shared module lives next to this file; sysbench does not put the script's directory on
-- package.path, so add it (works from any working directory, no LUA_PATH needed).
package.path = (sysbench.cmdline.script_path:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local bench = require("mybench_common")

bench.install({
   name = "scan",
   sql = function(tname)
      return "SELECT * FROM " .. tname .. " WHERE LENGTH(c) < 0"
   end,
   binds = function()
      return {}
   end,
   values = function()
      return {}
   end,
   table_for_event = function()
      return sysbench.tid % sysbench.opt.tables + 1
   end,
})
