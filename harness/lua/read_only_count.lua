-- read-only-count: SELECT count(c) over range_size consecutive ids (x .. x+range_size-1).
-- The shared module lives next to this file; sysbench does not put the script's directory on
-- package.path, so add it (works from any working directory, no LUA_PATH needed).
package.path = (sysbench.cmdline.script_path:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local bench = require("mybench_common")

bench.install({
   name = "read_only_count",
   sql = function(tname)
      return "SELECT count(c) FROM " .. tname .. " WHERE id BETWEEN ? AND ?"
   end,
   binds = function()
      return { bench.INT, bench.INT }
   end,
   values = function()
      local low = bench.random_row()
      return { low, low + sysbench.opt.range_size - 1 }
   end,
})
