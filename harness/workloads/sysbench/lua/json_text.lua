-- json_text: JSON string literals for the lines the project's Lua prints (EXPLAIN rows of the
-- microbenchmarks, the TPC-C-like statistics and checks). A module of its own, with no
-- sysbench options, so both script folders can load it (tpcc/lua adds this folder to its path).

local json_text = {}

-- text (any value; numbers as tostring gives them) quoted, with quotes, backslashes and control
-- characters escaped; nil is JSON null.
function json_text.string(text)
   if text == nil then
      return "null"
   end
   local escaped = tostring(text):gsub('[%c"\\]', function(ch)
      if ch == '"' or ch == "\\" then
         return "\\" .. ch
      end
      return string.format("\\u%04x", ch:byte())
   end)
   return '"' .. escaped .. '"'
end

return json_text
