-- tpcc_check: the consistency conditions of TPC-C clause 3.3.2 and
-- the population row counts, per table set. Written for this project.
--
-- check is a parallel command: thread t checks sets t+1, t+1+T, ... Every condition of every
-- set prints one line:
--   tpcc-check {"set": 1, "condition": "3", "name": "...", "result": "pass", "violations": 0,
--               "detail": "..."}
-- result is pass, fail or skip. Skipped: 8, 9, 10, 12 with --enable_purge=yes (purge deletes
-- history rows and delivered orders); 11 and "rows" unless --after_load=on (they hold only
-- on freshly loaded data).

local base = require("tpcc_base")

local check = {}

local format = string.format

-- Each condition: a query whose rows are the violations, as one text column describing each.
local CONDITIONS = {
   {
      number = "1",
      name = "W_YTD = sum(D_YTD) per warehouse",
      sql = [[
SELECT CONCAT('w=', w.w_id, ' w_ytd=', w.w_ytd, ' sum(d_ytd)=', COALESCE(d.s, 'none'))
FROM warehouse{S} w
LEFT JOIN (SELECT d_w_id, SUM(d_ytd) s FROM district{S} GROUP BY d_w_id) d ON d.d_w_id = w.w_id
WHERE d.s IS NULL OR w.w_ytd <> d.s]],
   },
   {
      number = "2",
      name = "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) per district",
      sql = [[
SELECT CONCAT('w=', d.d_w_id, ' d=', d.d_id, ' d_next_o_id=', d.d_next_o_id,
              ' max(o_id)=', COALESCE(o.m, 'none'), ' max(no_o_id)=', COALESCE(n.m, 'none'))
FROM district{S} d
LEFT JOIN (SELECT o_w_id, o_d_id, MAX(o_id) m FROM orders{S} GROUP BY o_w_id, o_d_id) o
  ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
LEFT JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) m FROM new_orders{S} GROUP BY no_w_id, no_d_id) n
  ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id
WHERE o.m IS NULL OR o.m <> d.d_next_o_id - 1 OR (n.m IS NOT NULL AND n.m <> d.d_next_o_id - 1)]],
   },
   {
      number = "3",
      name = "max(NO_O_ID) - min(NO_O_ID) + 1 = rows in NEW-ORDER per district",
      sql = [[
SELECT CONCAT('w=', no_w_id, ' d=', no_d_id, ' min=', MIN(no_o_id), ' max=', MAX(no_o_id),
              ' rows=', COUNT(*))
FROM new_orders{S} GROUP BY no_w_id, no_d_id
HAVING MAX(no_o_id) - MIN(no_o_id) + 1 <> COUNT(*)]],
   },
   {
      number = "4",
      name = "sum(O_OL_CNT) = rows in ORDER-LINE per district",
      sql = [[
SELECT CONCAT('w=', d.d_w_id, ' d=', d.d_id, ' sum(o_ol_cnt)=', COALESCE(o.s, 0),
              ' order_line rows=', COALESCE(l.c, 0))
FROM district{S} d
LEFT JOIN (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) s FROM orders{S} GROUP BY o_w_id, o_d_id) o
  ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) c FROM order_line{S} GROUP BY ol_w_id, ol_d_id) l
  ON l.ol_w_id = d.d_w_id AND l.ol_d_id = d.d_id
WHERE COALESCE(o.s, 0) <> COALESCE(l.c, 0)]],
   },
   {
      number = "5",
      name = "O_CARRIER_ID is NULL iff the order has a NEW-ORDER row",
      sql = [[
SELECT CONCAT('w=', o_w_id, ' d=', o_d_id, ' o_id=', o_id, ' o_carrier_id=',
              COALESCE(o_carrier_id, 'NULL'), ' new_orders row: ', IF(no_o_id IS NULL, 'no', 'yes'))
FROM orders{S} LEFT JOIN new_orders{S}
  ON no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id
WHERE (o_carrier_id IS NULL) <> (no_o_id IS NOT NULL)
UNION ALL
SELECT CONCAT('w=', no_w_id, ' d=', no_d_id, ' o_id=', no_o_id, ': new_orders row without an order')
FROM new_orders{S} LEFT JOIN orders{S}
  ON o_w_id = no_w_id AND o_d_id = no_d_id AND o_id = no_o_id
WHERE o_id IS NULL]],
   },
   {
      number = "6",
      name = "O_OL_CNT = the order's ORDER-LINE rows",
      sql = [[
SELECT CONCAT('w=', o_w_id, ' d=', o_d_id, ' o_id=', o_id, ' o_ol_cnt=', o_ol_cnt, ' lines=', n)
FROM (SELECT o_w_id, o_d_id, o_id, o_ol_cnt,
             (SELECT COUNT(*) FROM order_line{S}
              WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id) n
      FROM orders{S}) x
WHERE o_ol_cnt <> n]],
   },
   {
      number = "7",
      name = "OL_DELIVERY_D is NULL iff the order's O_CARRIER_ID is NULL",
      sql = [[
SELECT CONCAT('w=', ol_w_id, ' d=', ol_d_id, ' o_id=', ol_o_id, ' ol_number=', ol_number,
              ' ol_delivery_d=', COALESCE(ol_delivery_d, 'NULL'),
              ' o_carrier_id=', COALESCE(o_carrier_id, 'NULL'))
FROM order_line{S} JOIN orders{S}
  ON o_w_id = ol_w_id AND o_d_id = ol_d_id AND o_id = ol_o_id
WHERE (ol_delivery_d IS NULL) <> (o_carrier_id IS NULL)]],
   },
   {
      number = "8",
      name = "W_YTD = sum(H_AMOUNT) per warehouse",
      purge_breaks = true,
      sql = [[
SELECT CONCAT('w=', w_id, ' w_ytd=', w_ytd, ' sum(h_amount)=', COALESCE(h.s, 'none'))
FROM warehouse{S} LEFT JOIN (SELECT h_w_id, SUM(h_amount) s FROM history{S} GROUP BY h_w_id) h
  ON h.h_w_id = w_id
WHERE h.s IS NULL OR w_ytd <> h.s]],
   },
   {
      number = "9",
      name = "D_YTD = sum(H_AMOUNT) per district",
      purge_breaks = true,
      sql = [[
SELECT CONCAT('w=', d_w_id, ' d=', d_id, ' d_ytd=', d_ytd, ' sum(h_amount)=', COALESCE(h.s, 'none'))
FROM district{S}
LEFT JOIN (SELECT h_w_id, h_d_id, SUM(h_amount) s FROM history{S} GROUP BY h_w_id, h_d_id) h
  ON h.h_w_id = d_w_id AND h.h_d_id = d_id
WHERE h.s IS NULL OR d_ytd <> h.s]],
   },
   {
      number = "10",
      name = "C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT) per customer",
      purge_breaks = true,
      sql = [[
SELECT CONCAT('w=', c_w_id, ' d=', c_d_id, ' c=', c_id, ' c_balance=', c_balance,
              ' delivered=', COALESCE(l.s, 0), ' paid=', COALESCE(h.s, 0))
FROM customer{S} c
LEFT JOIN (SELECT o_w_id, o_d_id, o_c_id, SUM(ol_amount) s
           FROM orders{S} JOIN order_line{S} ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
           WHERE ol_delivery_d IS NOT NULL GROUP BY o_w_id, o_d_id, o_c_id) l
  ON l.o_w_id = c.c_w_id AND l.o_d_id = c.c_d_id AND l.o_c_id = c.c_id
LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, SUM(h_amount) s FROM history{S}
           GROUP BY h_c_w_id, h_c_d_id, h_c_id) h
  ON h.h_c_w_id = c.c_w_id AND h.h_c_d_id = c.c_d_id AND h.h_c_id = c.c_id
WHERE c.c_balance <> COALESCE(l.s, 0) - COALESCE(h.s, 0)]],
   },
   {
      number = "11",
      name = "rows in ORDER - rows in NEW-ORDER = 2100 per district (fresh load)",
      after_load_only = true,
      sql = [[
SELECT CONCAT('w=', d.d_w_id, ' d=', d.d_id, ' orders=', COALESCE(o.c, 0),
              ' new_orders=', COALESCE(n.c, 0))
FROM district{S} d
LEFT JOIN (SELECT o_w_id, o_d_id, COUNT(*) c FROM orders{S} GROUP BY o_w_id, o_d_id) o
  ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
LEFT JOIN (SELECT no_w_id, no_d_id, COUNT(*) c FROM new_orders{S} GROUP BY no_w_id, no_d_id) n
  ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id
WHERE COALESCE(o.c, 0) - COALESCE(n.c, 0) <> 2100]],
   },
   {
      number = "12",
      name = "C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT) per customer",
      purge_breaks = true,
      sql = [[
SELECT CONCAT('w=', c_w_id, ' d=', c_d_id, ' c=', c_id, ' c_balance=', c_balance,
              ' c_ytd_payment=', c_ytd_payment, ' delivered=', COALESCE(l.s, 0))
FROM customer{S} c
LEFT JOIN (SELECT o_w_id, o_d_id, o_c_id, SUM(ol_amount) s
           FROM orders{S} JOIN order_line{S} ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
           WHERE ol_delivery_d IS NOT NULL GROUP BY o_w_id, o_d_id, o_c_id) l
  ON l.o_w_id = c.c_w_id AND l.o_d_id = c.c_d_id AND l.o_c_id = c.c_id
WHERE c.c_balance + c.c_ytd_payment <> COALESCE(l.s, 0)]],
   },
}

local function emit(set, number, name, result, violations, detail)
   base.emit(format('tpcc-check {"set": %d, "condition": %s, "name": %s, "result": %s, '
      .. '"violations": %d, "detail": %s}', set, base.json_string(number), base.json_string(name),
      base.json_string(result), violations, base.json_string(detail)))
end

local function run_condition(con, set, condition)
   local sql = condition.sql:gsub("{S}", tostring(set))
   local rows = base.rows(con, sql)
   if #rows == 0 then
      emit(set, condition.number, condition.name, "pass", 0, "")
      return
   end
   local examples = {}
   for i = 1, math.min(#rows, 3) do
      examples[i] = rows[i][1] or "NULL"
   end
   emit(set, condition.number, condition.name, "fail", #rows, table.concat(examples, "; "))
end

-- Row counts against the population rules (fresh load only).
local function check_rows(con, set)
   local o = base.opt()
   local expected = {
      { "item", o.items },
      { "warehouse", o.scale },
      { "district", 10 * o.scale },
      { "customer", 30000 * o.scale },
      { "history", 30000 * o.scale },
      { "orders", 30000 * o.scale },
      { "new_orders", 9000 * o.scale },
      { "stock", o.items * o.scale },
   }
   local wrong, found = {}, {}
   for _, pair in ipairs(expected) do
      local n = tonumber(base.value(con, format("SELECT COUNT(*) FROM %s%d", pair[1], set)))
      found[#found + 1] = format("%s=%d", pair[1], n)
      if n ~= pair[2] then
         wrong[#wrong + 1] = format("%s has %d rows, expected %d", pair[1], n, pair[2])
      end
   end
   -- 5..15 lines per order
   local lines = tonumber(base.value(con, format("SELECT COUNT(*) FROM order_line%d", set)))
   found[#found + 1] = format("order_line=%d", lines)
   if lines < 150000 * o.scale or lines > 450000 * o.scale then
      wrong[#wrong + 1] = format("order_line has %d rows, expected %d..%d", lines, 150000 * o.scale,
         450000 * o.scale)
   end
   local name = "row counts per the population rules (fresh load)"
   if #wrong == 0 then
      emit(set, "rows", name, "pass", 0, table.concat(found, " "))
   else
      emit(set, "rows", name, "fail", #wrong, table.concat(wrong, "; "))
   end
end

function check.run()
   base.validate()
   local o = base.opt()
   local con = sysbench.sql.driver():connect()
   for set = sysbench.tid % o.threads + 1, o.tables, o.threads do
      for _, condition in ipairs(CONDITIONS) do
         if condition.purge_breaks and base.purge_enabled() then
            emit(set, condition.number, condition.name, "skip", 0,
               "does not hold with --enable_purge=yes")
         elseif condition.after_load_only and not o.after_load then
            emit(set, condition.number, condition.name, "skip", 0, "holds on a fresh load only")
         else
            run_condition(con, set, condition)
         end
      end
      if o.after_load then
         check_rows(con, set)
      end
   end
   con:disconnect()
end

return check
