-- hot-points: SELECT c WHERE id IN (the --random-points ids just above table_size/2): the same
-- rows every event, so it measures the cost of a lookup with everything hot.
-- The shared module lives next to this file; sysbench does not put the script's directory on
-- package.path, so add it (works from any working directory, no LUA_PATH needed).
package.path = (sysbench.cmdline.script_path:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local bench = require("mybench_common")

bench.install({
   name = "hot_points",
   sql = bench.in_random_points("SELECT c FROM %s WHERE id IN (%s)"),
   binds = function()
      return bench.repeated(bench.INT, sysbench.opt.random_points)
   end,
   values = function()
      local middle = math.floor(sysbench.opt.table_size / 2)
      local ids = {}
      for i = 1, sysbench.opt.random_points do
         ids[i] = middle + i
      end
      return ids
   end,
})
