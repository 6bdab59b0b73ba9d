-- read-only-count: SELECT count(c) over range_size consecutive ids (x .. x+range_size-1).
-- The shared module lives next to this file; sysbench does not put the script's directory on
-- package.path, so add it (works from any working directory, no LUA_PATH needed).
package.path = (sysbench.cmdline.script_path:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local bench = require("mybench_common")

bench.between("read_only_count", "count(c)", "id", function()
   return sysbench.opt.range_size - 1
end)
