-- tpcc_txn: the five TPC-C-like transactions (and the optional purge) for one connection.
-- Written for this project from the TPC-C transaction profiles (clause 2). Every function runs one whole transaction on table set `set`, home
-- warehouse `w`, and returns "commit" or "rollback" (a user rollback: New-Order's unused
-- item). Differences between --tpcc_mode=compat and spec are marked COMPAT.

local base = require("tpcc_base")

local txn = {}

local format = string.format
local rand = base.rand

local function t(name, set)
   return name .. set
end

-- The customer picked by last name: the one in the middle of the list sorted by first name.
local function customer_by_name(con, set, w, d)
   local last = base.last_name(base.nurand("last", 0, 999))
   local where = format("c_w_id = %d AND c_d_id = %d AND c_last = '%s'", w, d, last)
   local count = tonumber(base.value(con, format("SELECT COUNT(c_id) FROM %s WHERE %s",
      t("customer", set), where)))
   local ids = base.rows(con, format("SELECT c_id FROM %s WHERE %s ORDER BY c_first",
      t("customer", set), where))
   if count == 0 or #ids == 0 then
      -- every name exists in every district after the load (c_id 1..1000); keep going anyway
      return base.nurand("id", 1, 3000)
   end
   return tonumber(ids[math.ceil(#ids / 2)][1])
end

-- Every transaction that gets to its end commits.
local function commit(con)
   con:query("COMMIT")
   return "commit"
end

local function pick_customer(con, set, w, d)
   if rand(1, 100) <= 60 then
      return customer_by_name(con, set, w, d)
   end
   return base.nurand("id", 1, 3000)
end

-- ---------------------------------------------------------------------------------------------
-- New-Order

function txn.new_order(con, set, w)
   local spec = base.spec()
   local items = base.opt().items
   local d = rand(1, 10)
   local c = base.nurand("id", 1, 3000)
   local count = rand(5, 15)
   -- 1 % of orders carry an unused item id and are rolled back. spec: on the last line, after
   -- all others were processed. COMPAT: on line count - 1.
   local unused_at = 0
   if rand(1, 100) == 1 then
      unused_at = spec and count or count - 1
   end
   local lines = {}
   local all_local = 1
   for n = 1, count do
      local supply = w
      if rand(1, 100) == 1 then
         -- remote supply warehouse. COMPAT: sysbench-tpcc's other_ware() gives the home
         -- warehouse back, yet the order is marked not all-local.
         supply = base.other_warehouse(w)
         if supply ~= w or not spec then
            all_local = 0
         end
      end
      local item = n == unused_at and items + 1 or base.nurand("item", 1, items)
      lines[n] = { item = item, supply = supply, quantity = rand(1, 10) }
   end

   con:query("BEGIN")
   base.row(con, format("SELECT c_discount, c_last, c_credit, w_tax FROM %s, %s WHERE w_id = %d "
      .. "AND c_w_id = w_id AND c_d_id = %d AND c_id = %d", t("customer", set),
      t("warehouse", set), w, d, c))
   local district = base.row(con, format("SELECT d_next_o_id, d_tax FROM %s WHERE d_w_id = %d "
      .. "AND d_id = %d FOR UPDATE", t("district", set), w, d))
   local o_id = tonumber(district[1])
   con:query(format("UPDATE %s SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = %d AND d_id = %d",
      t("district", set), w, d))
   con:query(format("INSERT INTO %s (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, "
      .. "o_all_local) VALUES (%d, %d, %d, %d, NOW(), %d, %d)", t("orders", set), o_id, d, w, c,
      count, all_local))
   con:query(format("INSERT INTO %s (no_o_id, no_d_id, no_w_id) VALUES (%d, %d, %d)",
      t("new_orders", set), o_id, d, w))

   local dist_column = format("s_dist_%02d", d)
   for n, line in ipairs(lines) do
      local item = base.row(con, format("SELECT i_price, i_name, i_data FROM %s WHERE i_id = %d",
         t("item", set), line.item))
      if item == nil then
         con:query("ROLLBACK")
         return "rollback"
      end
      local stock = base.row(con, format("SELECT s_quantity, s_data, %s FROM %s WHERE s_i_id = %d "
         .. "AND s_w_id = %d FOR UPDATE", dist_column, t("stock", set), line.item, line.supply))
      local quantity = tonumber(stock[1])
      if quantity >= line.quantity + 10 then
         quantity = quantity - line.quantity
      else
         quantity = quantity - line.quantity + 91
      end
      local amount = line.quantity * tonumber(item[1])
      local amount_text
      if spec then
         con:query(format("UPDATE %s SET s_quantity = %d, s_ytd = s_ytd + %d, s_order_cnt = "
            .. "s_order_cnt + 1, s_remote_cnt = s_remote_cnt + %d WHERE s_i_id = %d AND s_w_id = %d",
            t("stock", set), quantity, line.quantity, line.supply ~= w and 1 or 0, line.item,
            line.supply))
         amount_text = format("%.2f", amount)
         -- brand/generic goes back to the terminal only; computed for the work it costs
         local _ = (item[3]:find("ORIGINAL", 1, true) and stock[2]:find("ORIGINAL", 1, true))
      else
         -- COMPAT: only the quantity; the amount is written truncated to an integer
         con:query(format("UPDATE %s SET s_quantity = %d WHERE s_i_id = %d AND s_w_id = %d",
            t("stock", set), quantity, line.item, line.supply))
         amount_text = format("%d", math.floor(amount))
      end
      con:query(format("INSERT INTO %s (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, "
         .. "ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (%d, %d, %d, %d, %d, %d, "
         .. "%d, %s, '%s')", t("order_line", set), o_id, d, w, n, line.item, line.supply,
         line.quantity, amount_text, stock[3]))
   end
   return commit(con)
end

-- ---------------------------------------------------------------------------------------------
-- Payment

function txn.payment(con, set, w)
   local spec = base.spec()
   local d = rand(1, 10)
   local c_w, c_d = w, d
   if rand(1, 100) > 85 then
      -- remote customer (spec: 15 %). COMPAT: the "other" warehouse is the home one.
      c_w, c_d = base.other_warehouse(w), rand(1, 10)
   end
   -- spec: 1.00 .. 5000.00. COMPAT: an integer 1 .. 5000.
   local amount = spec and format("%.2f", rand(100, 500000) / 100) or tostring(rand(1, 5000))

   con:query("BEGIN")
   con:query(format("UPDATE %s SET w_ytd = w_ytd + %s WHERE w_id = %d", t("warehouse", set),
      amount, w))
   local warehouse = base.row(con, format("SELECT w_street_1, w_street_2, w_city, w_state, w_zip, "
      .. "w_name FROM %s WHERE w_id = %d", t("warehouse", set), w))
   con:query(format("UPDATE %s SET d_ytd = d_ytd + %s WHERE d_w_id = %d AND d_id = %d",
      t("district", set), amount, w, d))
   local district = base.row(con, format("SELECT d_street_1, d_street_2, d_city, d_state, d_zip, "
      .. "d_name FROM %s WHERE d_w_id = %d AND d_id = %d", t("district", set), w, d))
   local c = pick_customer(con, set, c_w, c_d)
   local key = format("c_w_id = %d AND c_d_id = %d AND c_id = %d", c_w, c_d, c)
   local customer = base.row(con, format("SELECT c_first, c_middle, c_last, c_street_1, c_street_2, "
      .. "c_city, c_state, c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_since "
      .. "FROM %s WHERE %s FOR UPDATE", t("customer", set), key))
   local bad_credit = customer ~= nil and customer[10] == "BC"
   local data_update = ""
   if bad_credit then
      -- the payment's ids and amount go in front of c_data, which keeps 500 characters
      data_update = format(", c_data = LEFT(CONCAT('%d %d %d %d %d %s | ', c_data), 500)", c, c_d,
         c_w, d, w, amount)
   end
   con:query(format("UPDATE %s SET c_balance = c_balance - %s, c_ytd_payment = c_ytd_payment + %s, "
      .. "c_payment_cnt = c_payment_cnt + 1%s WHERE %s", t("customer", set), amount, amount,
      data_update, key))
   con:query(format("INSERT INTO %s (h_c_d_id, h_c_w_id, h_c_id, h_d_id, h_w_id, h_date, h_amount, "
      .. "h_data) VALUES (%d, %d, %d, %d, %d, NOW(), %s, '%s    %s')", t("history", set), c_d, c_w,
      c, d, w, amount, warehouse[6], district[6]))
   return commit(con)
end

-- ---------------------------------------------------------------------------------------------
-- Order-Status (read only)

function txn.order_status(con, set, w)
   local d = rand(1, 10)
   con:query("BEGIN")
   local c = pick_customer(con, set, w, d)
   base.row(con, format("SELECT c_balance, c_first, c_middle, c_last FROM %s WHERE c_w_id = %d "
      .. "AND c_d_id = %d AND c_id = %d", t("customer", set), w, d, c))
   local spec = base.spec()
   -- COMPAT: no LIMIT (every order of the customer comes back) and the lines are looked up
   -- with the district number in place of the order id.
   local order = base.row(con, format("SELECT o_id, o_carrier_id, o_entry_d FROM %s WHERE o_w_id = "
      .. "%d AND o_d_id = %d AND o_c_id = %d ORDER BY o_id DESC%s", t("orders", set), w, d, c,
      spec and " LIMIT 1" or ""))
   if order ~= nil then
      local lines_of = spec and tonumber(order[1]) or d
      base.rows(con, format("SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d "
         .. "FROM %s WHERE ol_w_id = %d AND ol_d_id = %d AND ol_o_id = %d", t("order_line", set), w,
         d, lines_of))
   end
   return commit(con)
end

-- ---------------------------------------------------------------------------------------------
-- Delivery: the oldest undelivered order of each of the 10 districts, in one transaction

function txn.delivery(con, set, w)
   local carrier = rand(1, 10)
   con:query("BEGIN")
   for d = 1, 10 do
      local oldest = base.value(con, format("SELECT no_o_id FROM %s WHERE no_w_id = %d AND no_d_id = "
         .. "%d ORDER BY no_o_id ASC LIMIT 1 FOR UPDATE", t("new_orders", set), w, d))
      if oldest ~= nil then
         local o = tonumber(oldest)
         con:query(format("DELETE FROM %s WHERE no_w_id = %d AND no_d_id = %d AND no_o_id = %d",
            t("new_orders", set), w, d, o))
         local c = base.value(con, format("SELECT o_c_id FROM %s WHERE o_w_id = %d AND o_d_id = %d "
            .. "AND o_id = %d", t("orders", set), w, d, o))
         con:query(format("UPDATE %s SET o_carrier_id = %d WHERE o_w_id = %d AND o_d_id = %d AND "
            .. "o_id = %d", t("orders", set), carrier, w, d, o))
         con:query(format("UPDATE %s SET ol_delivery_d = NOW() WHERE ol_w_id = %d AND ol_d_id = %d "
            .. "AND ol_o_id = %d", t("order_line", set), w, d, o))
         local total = base.value(con, format("SELECT COALESCE(SUM(ol_amount), 0) FROM %s WHERE "
            .. "ol_w_id = %d AND ol_d_id = %d AND ol_o_id = %d", t("order_line", set), w, d, o))
         if c ~= nil then
            con:query(format("UPDATE %s SET c_balance = c_balance + %s, c_delivery_cnt = "
               .. "c_delivery_cnt + 1 WHERE c_w_id = %d AND c_d_id = %d AND c_id = %s",
               t("customer", set), total, w, d, c))
         end
      end
   end
   return commit(con)
end

-- ---------------------------------------------------------------------------------------------
-- Stock-Level (read only)

function txn.stock_level(con, set, w)
   local d = rand(1, 10)
   local threshold = rand(10, 20)
   con:query("BEGIN")
   local next_o = tonumber(base.value(con, format("SELECT d_next_o_id FROM %s WHERE d_w_id = %d AND "
      .. "d_id = %d", t("district", set), w, d)))
   base.value(con, format("SELECT COUNT(DISTINCT s_i_id) FROM %s, %s WHERE ol_w_id = %d AND "
      .. "ol_d_id = %d AND ol_o_id < %d AND ol_o_id >= %d AND s_w_id = %d AND s_i_id = ol_i_id AND "
      .. "s_quantity < %d", t("order_line", set), t("stock", set), w, d, next_o, next_o - 20, w,
      threshold))
   return commit(con)
end

-- ---------------------------------------------------------------------------------------------
-- Purge (--enable_purge=yes): keeps the data from growing. Ten times: in a random district,
-- a delivered order (2101 <= o_id < oldest undelivered) of a customer who has another order
-- is deleted with its lines, and up to 10 of that customer's history rows.

function txn.purge(con, set, w)
   con:query("BEGIN")
   for _ = 1, 10 do
      local d = rand(1, 10)
      local oldest = base.value(con, format("SELECT MIN(no_o_id) FROM %s WHERE no_w_id = %d AND "
         .. "no_d_id = %d", t("new_orders", set), w, d))
      if oldest ~= nil then
         local order = base.row(con, format("SELECT o.o_id, o.o_c_id FROM %s o WHERE o.o_w_id = %d "
            .. "AND o.o_d_id = %d AND o.o_id >= 2101 AND o.o_id < %s AND EXISTS (SELECT 1 FROM %s o2 "
            .. "WHERE o2.o_w_id = o.o_w_id AND o2.o_d_id = o.o_d_id AND o2.o_c_id = o.o_c_id AND "
            .. "o2.o_id <> o.o_id) ORDER BY o.o_id LIMIT 1 FOR UPDATE", t("orders", set), w, d,
            oldest, t("orders", set)))
         if order ~= nil then
            local key = format("%d AND ol_d_id = %d AND ol_o_id = %s", w, d, order[1])
            con:query(format("DELETE FROM %s WHERE ol_w_id = %s", t("order_line", set), key))
            con:query(format("DELETE FROM %s WHERE o_w_id = %d AND o_d_id = %d AND o_id = %s",
               t("orders", set), w, d, order[1]))
            con:query(format("DELETE FROM %s WHERE h_c_w_id = %d AND h_c_d_id = %d AND h_c_id = %s "
               .. "LIMIT 10", t("history", set), w, d, order[2]))
         end
      end
   end
   return commit(con)
end

-- Transaction types in the order of the draw: uniform(1, 23) (24 with purge) picks
-- 1-10 New-Order, 11-20 Payment, 21 Order-Status, 22 Delivery, 23 Stock-Level, 24 Purge.
txn.TYPES = { "new_order", "payment", "order_status", "delivery", "stock_level", "purge" }

local function card(r)
   if r <= 10 then
      return "new_order"
   elseif r <= 20 then
      return "payment"
   elseif r == 21 then
      return "order_status"
   elseif r == 22 then
      return "delivery"
   elseif r == 23 then
      return "stock_level"
   end
   return "purge"
end

-- COMPAT: every event draws its type independently, as sysbench-tpcc does; the achieved mix
-- then wanders around the target by binomial noise (about 0.8 points for New-Order over
-- 4,000 events).
function txn.draw(purge)
   return card(rand(1, purge and 24 or 23))
end

-- spec: the card deck the TPC-C mix rules allow (a shuffled deck of the same 23 or 24 cards
-- per thread, dealt to the end before a reshuffle), so the mix holds over any run length.
local deck, dealt = {}, 0

function txn.deal(purge)
   local size = purge and 24 or 23
   if dealt == 0 or dealt >= size then
      for i = 1, size do
         deck[i] = card(i)
      end
      for i = size, 2, -1 do
         local j = rand(1, i)
         deck[i], deck[j] = deck[j], deck[i]
      end
      dealt = 0
   end
   dealt = dealt + 1
   return deck[dealt]
end

return txn
