-- update-inlist: UPDATE c of --random-points random ids (default 10) in one statement.
-- The shared module lives next to this file; sysbench does not put the script's directory on
-- package.path, so add it (works from any working directory, no LUA_PATH needed).
package.path = (sysbench.cmdline.script_path:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local bench = require("mybench_common")

bench.install({
   name = "update_inlist",
   sql = bench.in_random_points("UPDATE %s SET c = ? WHERE id IN (%s)"),
   binds = function()
      local binds = { bench.C_VALUE }
      for i = 1, sysbench.opt.random_points do
         binds[i + 1] = bench.INT
      end
      return binds
   end,
   values = function()
      local values = { sysbench.rand.string(bench.C_TEMPLATE) }
      for i = 1, sysbench.opt.random_points do
         values[i + 1] = bench.random_row()
      end
      return values
   end,
})
