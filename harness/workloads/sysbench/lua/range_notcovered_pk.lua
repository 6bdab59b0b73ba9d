-- range-notcovered-pk: SELECT id, c WHERE id BETWEEN x AND x+range_size.
-- The shared module lives next to this file; sysbench does not put the script's directory on
-- package.path, so add it (works from any working directory, no LUA_PATH needed).
package.path = (sysbench.cmdline.script_path:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local bench = require("mybench_common")

local function range_end()
   return sysbench.opt.range_size
end

bench.between("range_notcovered_pk", "id, c", "id", range_end)
