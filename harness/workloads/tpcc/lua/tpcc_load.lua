-- tpcc_load: tables, parallel load and cleanup of the TPC-C-like workload.
-- Written for this project.
--
-- prepare is a parallel command. Phase 1: loader t creates the tables of sets t+1, t+1+T, ...
-- (T = --threads), indexes and foreign keys included, before any row is written. Phase 2,
-- once every set's tables exist (loaders poll for them; sysbench has no barrier between
-- threads): the work units, one item table per set then one unit per (set, warehouse), are
-- dealt round-robin, unit k to loader k mod T. So --threads spreads sets and warehouses alike.

local base = require("tpcc_base")

local load = {}

local DISTRICTS = 10
local CUSTOMERS = 3000 -- per district
local ORDERS = 3000 -- per district
local FIRST_NEW_ORDER = 2101 -- orders 2101..3000 are undelivered

-- ---------------------------------------------------------------------------------------------
-- DDL

local function table_options()
   local o = base.opt()
   local text = " ENGINE = " .. o.mysql_storage_engine
   if o.mysql_table_options ~= "" then
      text = text .. " " .. o.mysql_table_options
   end
   return text
end

local function fk(set, name, columns, parent, parent_columns)
   if base.opt().use_fk ~= 1 then
      return ""
   end
   return string.format(",\n  CONSTRAINT fk_%s%d FOREIGN KEY (%s) REFERENCES %s%d (%s)", name, set,
      columns, parent, set, parent_columns)
end

-- The columns warehouse and district share, each with its own prefix ("w", "d"): a name, an
-- address, the sales tax and the year-to-date balance.
local function name_to_ytd(prefix)
   return (string.gsub([[
  @_name VARCHAR(10),
  @_street_1 VARCHAR(20),
  @_street_2 VARCHAR(20),
  @_city VARCHAR(20),
  @_state CHAR(2),
  @_zip CHAR(9),
  @_tax DECIMAL(4,2),
  @_ytd DECIMAL(12,2),
]], "@", prefix))
end

local function ddl(set)
   local history_id, history_pk = "", ""
   if base.opt().force_pk == 1 then
      history_id = "  id BIGINT NOT NULL AUTO_INCREMENT,\n"
      history_pk = ",\n  PRIMARY KEY (id)"
   end
   local s = set
   return {
      item = [[
  i_id INT NOT NULL,
  i_im_id INT,
  i_name VARCHAR(24),
  i_price DECIMAL(5,2),
  i_data VARCHAR(50),
  PRIMARY KEY (i_id)]],
      warehouse = "  w_id SMALLINT NOT NULL,\n" .. name_to_ytd("w") .. "  PRIMARY KEY (w_id)",
      district = "  d_id TINYINT NOT NULL,\n  d_w_id SMALLINT NOT NULL,\n" .. name_to_ytd("d")
         .. "  d_next_o_id INT,\n  PRIMARY KEY (d_w_id, d_id)" .. fk(s, "district_w", "d_w_id", "warehouse", "w_id"),
      customer = [[
  c_id INT NOT NULL,
  c_d_id TINYINT NOT NULL,
  c_w_id SMALLINT NOT NULL,
  c_first VARCHAR(16),
  c_middle CHAR(2),
  c_last VARCHAR(16),
  c_street_1 VARCHAR(20),
  c_street_2 VARCHAR(20),
  c_city VARCHAR(20),
  c_state CHAR(2),
  c_zip CHAR(9),
  c_phone CHAR(16),
  c_since DATETIME,
  c_credit CHAR(2),
  c_credit_lim BIGINT,
  c_discount DECIMAL(4,2),
  c_balance DECIMAL(12,2),
  c_ytd_payment DECIMAL(12,2),
  c_payment_cnt INT,
  c_delivery_cnt INT,
  c_data TEXT,
  PRIMARY KEY (c_w_id, c_d_id, c_id),
  KEY idx_customer (c_w_id, c_d_id, c_last, c_first)]]
         .. fk(s, "customer_d", "c_w_id, c_d_id", "district", "d_w_id, d_id"),
      history = history_id .. [[
  h_c_id INT,
  h_c_d_id TINYINT,
  h_c_w_id SMALLINT,
  h_d_id TINYINT,
  h_w_id SMALLINT,
  h_date DATETIME,
  h_amount DECIMAL(6,2),
  h_data VARCHAR(24)]] .. history_pk .. [[,
  KEY idx_history_c (h_c_w_id, h_c_d_id, h_c_id),
  KEY idx_history_d (h_w_id, h_d_id)]]
         .. fk(s, "history_c", "h_c_w_id, h_c_d_id, h_c_id", "customer", "c_w_id, c_d_id, c_id")
         .. fk(s, "history_d", "h_w_id, h_d_id", "district", "d_w_id, d_id"),
      orders = [[
  o_id INT NOT NULL,
  o_d_id TINYINT NOT NULL,
  o_w_id SMALLINT NOT NULL,
  o_c_id INT,
  o_entry_d DATETIME,
  o_carrier_id TINYINT,
  o_ol_cnt TINYINT,
  o_all_local TINYINT,
  PRIMARY KEY (o_w_id, o_d_id, o_id),
  KEY idx_orders (o_w_id, o_d_id, o_c_id, o_id)]]
         .. fk(s, "orders_c", "o_w_id, o_d_id, o_c_id", "customer", "c_w_id, c_d_id, c_id"),
      new_orders = [[
  no_o_id INT NOT NULL,
  no_d_id TINYINT NOT NULL,
  no_w_id SMALLINT NOT NULL,
  PRIMARY KEY (no_w_id, no_d_id, no_o_id)]]
         .. fk(s, "new_orders_o", "no_w_id, no_d_id, no_o_id", "orders", "o_w_id, o_d_id, o_id"),
      stock = [[
  s_i_id INT NOT NULL,
  s_w_id SMALLINT NOT NULL,
  s_quantity SMALLINT,
  s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_dist_03 CHAR(24), s_dist_04 CHAR(24),
  s_dist_05 CHAR(24), s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24),
  s_dist_09 CHAR(24), s_dist_10 CHAR(24),
  s_ytd DECIMAL(8,0),
  s_order_cnt INT,
  s_remote_cnt INT,
  s_data VARCHAR(50),
  PRIMARY KEY (s_w_id, s_i_id),
  KEY idx_stock_i (s_i_id)]]
         .. fk(s, "stock_w", "s_w_id", "warehouse", "w_id")
         .. fk(s, "stock_i", "s_i_id", "item", "i_id"),
      order_line = [[
  ol_o_id INT NOT NULL,
  ol_d_id TINYINT NOT NULL,
  ol_w_id SMALLINT NOT NULL,
  ol_number TINYINT NOT NULL,
  ol_i_id INT,
  ol_supply_w_id SMALLINT,
  ol_delivery_d DATETIME,
  ol_quantity TINYINT,
  ol_amount DECIMAL(6,2),
  ol_dist_info CHAR(24),
  PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number),
  KEY idx_order_line_s (ol_supply_w_id, ol_i_id)]]
         .. fk(s, "order_line_o", "ol_w_id, ol_d_id, ol_o_id", "orders", "o_w_id, o_d_id, o_id")
         .. fk(s, "order_line_s", "ol_supply_w_id, ol_i_id", "stock", "s_w_id, s_i_id"),
   }
end

local function create_set(con, set)
   local bodies = ddl(set)
   for _, name in ipairs(base.TABLES) do
      print(string.format("Creating table '%s'...", base.t(name, set)))
      con:query(string.format("CREATE TABLE %s (\n%s\n)%s", base.t(name, set), bodies[name],
         table_options()))
   end
end

-- ---------------------------------------------------------------------------------------------
-- Rows

local function bulk(con, table_name, columns, count, make_row)
   con:bulk_insert_init(string.format("INSERT INTO %s (%s) VALUES", table_name, columns))
   for i = 1, count do
      con:bulk_insert_next(make_row(i))
   end
   con:bulk_insert_done()
end

local function load_items(con, set)
   local items = base.opt().items
   print(string.format("Loading %d items into '%s'", items, base.t("item", set)))
   bulk(con, base.t("item", set), "i_id, i_im_id, i_name, i_price, i_data", items, function(i)
      return string.format("(%d,%d,'%s',%.2f,'%s')", i, base.rand(1, 10000),
         base.rand_letters(14, 24), base.rand(100, 10000) / 100, base.data_with_original())
   end)
end

local function address()
   return string.format("'%s','%s','%s','%s','%s'", base.rand_letters(10, 20),
      base.rand_letters(10, 20), base.rand_letters(10, 20), base.rand_letters(2, 2), base.zip())
end

-- A random permutation of 1..n (Fisher-Yates with sysbench's generator).
local function permutation(n)
   local list = {}
   for i = 1, n do
      list[i] = i
   end
   for i = n, 2, -1 do
      local j = base.rand(1, i)
      list[i], list[j] = list[j], list[i]
   end
   return list
end

local function load_warehouse(con, set, w)
   local items = base.opt().items
   print(string.format("Loading warehouse %d of set %d", w, set))
   con:query(string.format("INSERT INTO %s (w_id, w_name, w_street_1, w_street_2, w_city, w_state, "
      .. "w_zip, w_tax, w_ytd) VALUES (%d,'%s',%s,%.2f,300000.00)", base.t("warehouse", set), w,
      base.rand_letters(6, 10), address(), base.rand(0, 20) / 100))

   bulk(con, base.t("district", set), "d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, "
      .. "d_state, d_zip, d_tax, d_ytd, d_next_o_id", DISTRICTS, function(d)
      return string.format("(%d,%d,'%s',%s,%.2f,30000.00,%d)", d, w, base.rand_letters(6, 10),
         address(), base.rand(0, 20) / 100, ORDERS + 1)
   end)

   local customers = DISTRICTS * CUSTOMERS
   bulk(con, base.t("customer", set), "c_id, c_d_id, c_w_id, c_first, c_middle, c_last, "
      .. "c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, "
      .. "c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, "
      .. "c_data", customers, function(k)
      local d = math.floor((k - 1) / CUSTOMERS) + 1
      local c = (k - 1) % CUSTOMERS + 1
      local last = c <= 1000 and base.last_name(c - 1) or base.last_name(base.nurand("last", 0, 999,
         true))
      return string.format("(%d,%d,%d,'%s','OE','%s',%s,'%s',NOW(),'%s',50000,%.2f,-10.00,10.00,"
         .. "1,0,'%s')", c, d, w, base.rand_letters(8, 16), last, address(), base.rand_digits(16),
         base.rand(1, 10) == 1 and "BC" or "GC", base.rand(0, 50) / 100,
         base.repeated_letter(base.rand(300, 500)))
   end)

   bulk(con, base.t("history", set), "h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, "
      .. "h_data", customers, function(k)
      local d = math.floor((k - 1) / CUSTOMERS) + 1
      local c = (k - 1) % CUSTOMERS + 1
      return string.format("(%d,%d,%d,%d,%d,NOW(),10.00,'%s')", c, d, w, d, w,
         base.rand_letters(12, 24))
   end)

   -- Orders: o_c_id is a permutation of the customers of the district; o_ol_cnt is kept for
   -- the order lines.
   local line_counts = {}
   local ordering = {}
   for d = 1, DISTRICTS do
      ordering[d] = permutation(ORDERS)
   end
   bulk(con, base.t("orders", set), "o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, "
      .. "o_ol_cnt, o_all_local", DISTRICTS * ORDERS, function(k)
      local d = math.floor((k - 1) / ORDERS) + 1
      local o = (k - 1) % ORDERS + 1
      local count = base.rand(5, 15)
      line_counts[k] = count
      local carrier = o < FIRST_NEW_ORDER and tostring(base.rand(1, 10)) or "NULL"
      return string.format("(%d,%d,%d,%d,NOW(),%s,%d,1)", o, d, w, ordering[d][o], carrier, count)
   end)

   con:bulk_insert_init(string.format("INSERT INTO %s (ol_o_id, ol_d_id, ol_w_id, ol_number, "
      .. "ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES",
      base.t("order_line", set)))
   for k = 1, DISTRICTS * ORDERS do
      local d = math.floor((k - 1) / ORDERS) + 1
      local o = (k - 1) % ORDERS + 1
      local delivered = o < FIRST_NEW_ORDER
      for number = 1, line_counts[k] do
         local amount = delivered and "0.00" or string.format("%.2f", base.rand(1, 999999) / 100)
         con:bulk_insert_next(string.format("(%d,%d,%d,%d,%d,%d,%s,5,%s,'%s')", o, d, w, number,
            base.rand(1, items), w, delivered and "NOW()" or "NULL", amount,
            base.repeated_letter(24)))
      end
   end
   con:bulk_insert_done()

   local per_district = ORDERS - FIRST_NEW_ORDER + 1
   bulk(con, base.t("new_orders", set), "no_o_id, no_d_id, no_w_id", DISTRICTS * per_district,
      function(k)
         local d = math.floor((k - 1) / per_district) + 1
         local o = FIRST_NEW_ORDER + (k - 1) % per_district
         return string.format("(%d,%d,%d)", o, d, w)
      end)

   bulk(con, base.t("stock", set), "s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, "
      .. "s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, "
      .. "s_order_cnt, s_remote_cnt, s_data", items, function(i)
      local dist = {}
      for n = 1, DISTRICTS do
         dist[n] = "'" .. base.repeated_letter(24) .. "'"
      end
      return string.format("(%d,%d,%d,%s,0,0,0,'%s')", i, w, base.rand(10, 100),
         table.concat(dist, ","), base.data_with_original())
   end)
end

-- Wait until every set's last table exists (the other loaders' phase 1 is done).
local function wait_for_tables(con)
   local o = base.opt()
   local names = {}
   for set = 1, o.tables do
      names[set] = "'" .. base.t(base.LAST_TABLE, set) .. "'"
   end
   local sql = "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() "
      .. "AND table_name IN (" .. table.concat(names, ",") .. ")"
   local waited = 0
   while tonumber(base.value(con, sql)) < o.tables do
      if waited >= o.load_wait then
         error(string.format("prepare: the tables of all %d sets did not appear within %d s",
            o.tables, o.load_wait))
      end
      base.sleep(0.2)
      waited = waited + 0.2
   end
end

function load.prepare()
   base.validate()
   local o = base.opt()
   local loaders, me = o.threads, sysbench.tid % o.threads
   local con = sysbench.sql.driver():connect()
   con:query("SET foreign_key_checks = 0")
   for set = me + 1, o.tables, loaders do
      create_set(con, set)
   end
   wait_for_tables(con)
   -- Work units: item tables first (one per set), then every (set, warehouse).
   local unit = 0
   for set = 1, o.tables do
      if unit % loaders == me then
         load_items(con, set)
      end
      unit = unit + 1
   end
   for w = 1, o.scale do
      for set = 1, o.tables do
         if unit % loaders == me then
            load_warehouse(con, set, w)
         end
         unit = unit + 1
      end
   end
   con:disconnect()
end

function load.cleanup()
   local con = sysbench.sql.driver():connect()
   con:query("SET foreign_key_checks = 0")
   for set = 1, base.opt().tables do
      for i = #base.TABLES, 1, -1 do
         local name = base.t(base.TABLES[i], set)
         print(string.format("Dropping table '%s'...", name))
         con:query("DROP TABLE IF EXISTS " .. name)
      end
   end
   con:disconnect()
end

return load
