-- mybench_common: shared machinery for the project's sysbench 1.0.20 tests (Mark Callaghan's
-- microbenchmarks that stock sysbench lacks). Written for this project; it does not include or load
-- sysbench's own oltp_common.lua.
--
-- Data: tables sbtest1..sbtestN with the same definition, value formats and secondary index
-- k_<n> as sysbench's stock OLTP scripts, so a dataset made by `oltp_read_only prepare` and
-- one made by `<any of our tests> prepare` can be used by either.
--
-- A test file describes one statement (SQL with ? markers, the bind types and how to draw the
-- values for one event) and hands it to bench.install(), which defines the sysbench entry
-- points: run (thread_init/event/thread_done), and the commands prepare, cleanup and explain.
-- Each event executes that one statement in autocommit mode on a uniformly chosen table.
-- Statements go through con:prepare(), which sysbench turns into server-side prepared
-- statements with --db-ps-mode=auto and into plain text queries with --db-ps-mode=disable.

local bench = {}

local sqltype = sysbench.sql.type
bench.INT = sqltype.INT
bench.C_VALUE = { sqltype.CHAR, 120 }

-- Digit templates for sysbench.rand.string: '#' becomes a random digit. c holds 10 groups of
-- 11 digits joined by dashes (119 characters), pad 5 such groups (59 characters).
local DIGITS11 = string.rep("#", 11)
bench.C_TEMPLATE = string.rep(DIGITS11, 10, "-")
bench.PAD_TEMPLATE = string.rep(DIGITS11, 5, "-")

local OPTIONS = {
   tables = { "Number of tables", 1 },
   table_size = { "Number of rows per table", 10000 },
   random_points = { "Number of values in the IN () list of point and in-list tests", 10 },
   range_size = { "Rows per range: BETWEEN x AND x+range_size (x+range_size-1 for counts)", 100 },
   auto_inc = { "Let the server number id (AUTO_INCREMENT); off: ids 1..table_size", true },
   create_secondary = { "Create index k_<n> on k after loading", true },
   mysql_storage_engine = { "Storage engine of the tables", "innodb" },
   skip_trx = { "Autocommit, no BEGIN/COMMIT (must stay on; accepted as the references pass it)", true },
}

-- sysbench only knows options declared by the script when it starts, so this runs as soon as
-- a test file requires the module.
sysbench.cmdline.options = OPTIONS

local function opt()
   return sysbench.opt
end

function bench.table_name(tnum)
   return "sbtest" .. tnum
end

-- A value drawn with --rand-type (the harness always passes uniform) in [1, table_size].
function bench.random_row()
   return sysbench.rand.default(1, opt().table_size)
end

function bench.random_table()
   return sysbench.rand.uniform(1, opt().tables)
end

-- "?, ?, ..., ?" with n markers.
function bench.markers(n)
   return string.rep("?", n, ", ")
end

-- The statement builder of a test on --random-points ids: sql_format's first %s is the table
-- name, its second the list of markers.
function bench.in_random_points(sql_format)
   return function(tname)
      return string.format(sql_format, tname, bench.markers(opt().random_points))
   end
end

function bench.repeated(value, n)
   local list = {}
   for i = 1, n do
      list[i] = value
   end
   return list
end

-- ---------------------------------------------------------------------------------------------
-- Data: create, load, index, drop

local function load_table(con, tnum)
   local o = opt()
   local name = bench.table_name(tnum)
   local id_column = o.auto_inc and "id INTEGER NOT NULL AUTO_INCREMENT" or "id INTEGER NOT NULL"
   print(string.format("Creating table '%s'...", name))
   con:query(table.concat({
      "CREATE TABLE " .. name .. " (",
      "  " .. id_column .. ",",
      "  k INTEGER NOT NULL DEFAULT '0',",
      "  c CHAR(120) NOT NULL DEFAULT '',",
      "  pad CHAR(60) NOT NULL DEFAULT '',",
      "  PRIMARY KEY (id)",
      ") /*! ENGINE = " .. o.mysql_storage_engine .. " */",
   }, "\n"))

   if o.table_size > 0 then
      print(string.format("Inserting %d records into '%s'", o.table_size, name))
      local columns = o.auto_inc and "(k, c, pad)" or "(id, k, c, pad)"
      con:bulk_insert_init("INSERT INTO " .. name .. columns .. " VALUES")
      for row = 1, o.table_size do
         local k = bench.random_row()
         local c = sysbench.rand.string(bench.C_TEMPLATE)
         local pad = sysbench.rand.string(bench.PAD_TEMPLATE)
         if o.auto_inc then
            con:bulk_insert_next(string.format("(%d, '%s', '%s')", k, c, pad))
         else
            con:bulk_insert_next(string.format("(%d, %d, '%s', '%s')", row, k, c, pad))
         end
      end
      con:bulk_insert_done()
   end

   if o.create_secondary then
      print(string.format("Creating a secondary index on '%s'...", name))
      con:query(string.format("CREATE INDEX k_%d ON %s(k)", tnum, name))
   end
end

-- Parallel command: worker w loads tables w+1, w+1+threads, ... (table i by thread
-- (i-1) mod threads), so --threads=--tables loads every table at once.
local function cmd_prepare()
   local con = sysbench.sql.driver():connect()
   local o = opt()
   for tnum = sysbench.tid % o.threads + 1, o.tables, o.threads do
      load_table(con, tnum)
   end
   con:disconnect()
end

local function cmd_cleanup()
   local con = sysbench.sql.driver():connect()
   for tnum = 1, opt().tables do
      print(string.format("Dropping table '%s'...", bench.table_name(tnum)))
      con:query("DROP TABLE IF EXISTS " .. bench.table_name(tnum))
   end
   con:disconnect()
end

-- ---------------------------------------------------------------------------------------------
-- explain: one JSON object per EXPLAIN row, on a line of its own

local json_string = require("json_text").string

-- EXPLAIN's columns by position: MariaDB (and MySQL 5.6) print 10, MySQL 5.7+ print 12
-- (partitions and filtered added). sysbench's result sets carry no column names.
local EXPLAIN_COLUMNS = {
   [10] = { "id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref",
      "rows", "Extra" },
   [12] = { "id", "select_type", "table", "partitions", "type", "possible_keys", "key",
      "key_len", "ref", "rows", "filtered", "Extra" },
}
local REPORTED = { "table", "type", "possible_keys", "key", "key_len", "rows", "Extra" }

-- The statement with its ? markers replaced by literal values, as EXPLAIN needs them.
local function with_literals(sql, values)
   local i = 0
   return (sql:gsub("%?", function()
      i = i + 1
      local value = values[i]
      if type(value) == "string" then
         return "'" .. value:gsub("'", "''") .. "'"
      end
      return tostring(value)
   end))
end

local function explain_statement(con, tnum, sql)
   local rs = con:query("EXPLAIN " .. sql)
   local columns = EXPLAIN_COLUMNS[rs.nfields]
   if columns == nil then
      error(string.format("EXPLAIN returned %d columns; expected 10 or 12", rs.nfields))
   end
   for _ = 1, rs.nrows do
      local raw = rs:fetch_row()
      local row = {}
      for position, column in ipairs(columns) do
         row[column] = raw[position]
      end
      local fields = { '"statement": ' .. json_string(sql), '"table_number": ' .. tnum }
      for _, column in ipairs(REPORTED) do
         fields[#fields + 1] = json_string(column) .. ": " .. json_string(row[column])
      end
      print("{" .. table.concat(fields, ", ") .. "}")
   end
end

-- ---------------------------------------------------------------------------------------------
-- The test's statement: prepared once per table and connection, executed once per event

-- test = {
--   name = "random_points",
--   sql = function(tname) return SQL with ? markers end,
--   binds = function() return list of bench.INT / bench.C_VALUE end,
--   values = function(tnum) return list of values for one execution end,
--   table_for_event = optional function() return tnum end (default: uniform over tables),
-- }
function bench.install(test)
   local con, statements, params

   local function prepare_statements()
      statements, params = {}, {}
      local binds = test.binds()
      for tnum = 1, opt().tables do
         local statement = con:prepare(test.sql(bench.table_name(tnum)))
         local list = {}
         for i, bind in ipairs(binds) do
            if type(bind) == "table" then
               list[i] = statement:bind_create(bind[1], bind[2])
            else
               list[i] = statement:bind_create(bind)
            end
         end
         if #list > 0 then
            statement:bind_param(unpack(list))
         end
         statements[tnum], params[tnum] = statement, list
      end
   end

   local function close_statements()
      for tnum = 1, #statements do
         statements[tnum]:close()
      end
   end

   local function cmd_explain()
      local explain_con = sysbench.sql.driver():connect()
      for tnum = 1, opt().tables do
         local sql = test.sql(bench.table_name(tnum))
         explain_statement(explain_con, tnum, with_literals(sql, test.values(tnum)))
      end
      explain_con:disconnect()
   end

   sysbench.cmdline.commands = {
      prepare = { cmd_prepare, sysbench.cmdline.PARALLEL_COMMAND },
      cleanup = { cmd_cleanup },
      explain = { cmd_explain },
   }

   local pick_table = test.table_for_event or bench.random_table

   function thread_init()
      if not opt().skip_trx then
         error(test.name .. " runs each statement in autocommit mode; --skip-trx=off is not supported")
      end
      con = sysbench.sql.driver():connect()
      prepare_statements()
   end

   function thread_done()
      close_statements()
      con:disconnect()
   end

   function event()
      local tnum = pick_table()
      local list = params[tnum]
      local values = test.values(tnum)
      for i = 1, #list do
         list[i]:set(values[i])
      end
      statements[tnum]:execute()
   end

   -- After a reconnect (a lost-connection errno listed in --mysql-ignore-errors) the old
   -- statement handles are gone: prepare them again before the event is retried.
   local CONNECTION_LOST = { [2006] = true, [2011] = true, [2013] = true, [2055] = true }
   sysbench.hooks.before_restart_event = function(err)
      if CONNECTION_LOST[err.sql_errno] then
         close_statements()
         prepare_statements()
      end
   end
end

-- ---------------------------------------------------------------------------------------------
-- Builders for the two shapes most tests share

-- SELECT <columns> FROM t WHERE <column> IN (random_points values drawn from [1, table_size]).
function bench.in_list(name, columns, column)
   bench.install({
      name = name,
      sql = bench.in_random_points(string.format("SELECT %s FROM %%s WHERE %s IN (%%s)", columns,
         column)),
      binds = function()
         return bench.repeated(bench.INT, opt().random_points)
      end,
      values = function()
         local values = {}
         for i = 1, opt().random_points do
            values[i] = bench.random_row()
         end
         return values
      end,
   })
end

-- SELECT <columns> FROM t WHERE <column> BETWEEN x AND x + last_offset, x drawn from [1, table_size].
function bench.between(name, columns, column, last_offset)
   bench.install({
      name = name,
      sql = function(tname)
         return string.format("SELECT %s FROM %s WHERE %s BETWEEN ? AND ?", columns, tname, column)
      end,
      binds = function()
         return { bench.INT, bench.INT }
      end,
      values = function()
         local low = bench.random_row()
         return { low, low + last_offset() }
      end,
   })
end

return bench
