-- points-covered-si: SELECT k by --random-points random k values; answered from index k_<n>.
-- The shared module lives next to this file; sysbench does not put the script's directory on
-- package.path, so add it (works from any working directory, no LUA_PATH needed).
package.path = (sysbench.cmdline.script_path:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local bench = require("mybench_common")

bench.in_list("points_covered_si", "k", "k")
