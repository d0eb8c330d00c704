-- Checks a Neovim set-up for SIDL (one of the docs/lsp.md recipes, loaded with -u) on the game
-- given on the command line, which must have a syntax error at the second `fact` of its third line
-- (after non-ASCII text): run by scripts/editors-test.sh as
--   nvim --headless -n -i NONE -u RECIPE.lua +'luafile editors/neovim/check.lua' GAMES/unicode.sidl
-- Prints `ok - …` or `not ok - …` per check, and exits 0 only if all pass.
local failed = 0
local function check(name, f)
  local ok, err = pcall(f)
  if ok then
    io.stdout:write('ok - ' .. name .. '\n')
  else
    failed = failed + 1
    io.stdout:write('not ok - ' .. name .. ': ' .. tostring(err) .. '\n')
  end
end

local buf = vim.api.nvim_get_current_buf()
local get_clients = vim.lsp.get_clients or vim.lsp.get_active_clients

check('a .sidl file has the filetype sidl', function()
  assert(vim.bo[buf].filetype == 'sidl', 'filetype is ' .. vim.bo[buf].filetype)
end)

check('sidl-lsp attaches to the buffer', function()
  assert(vim.wait(30000, function() return #get_clients({ bufnr = buf }) > 0 end, 50), 'no client attached')
  local client = get_clients({ bufnr = buf })[1]
  assert(client.name == 'sidl', 'client ' .. client.name)
  assert(vim.fn.fnamemodify(client.config.cmd[1], ':t') == 'sidl-lsp', vim.inspect(client.config.cmd))
end)

check('the syntax error after non-ASCII text is at the second fact (byte column)', function()
  local severity = vim.diagnostic.severity.ERROR
  assert(vim.wait(30000, function() return #vim.diagnostic.get(buf, { severity = severity }) > 0 end, 50),
    'no error diagnostic')
  local d = vim.diagnostic.get(buf, { severity = severity })[1]
  local line = vim.api.nvim_buf_get_lines(buf, 2, 3, false)[1]
  local want = line:find('fact([y])', 1, true) - 1
  assert(d.lnum == 2 and d.col == want and d.end_col == want + 4,
    ('at %d:%d-%d, not 2:%d-%d: %s'):format(d.lnum, d.col, d.end_col, want, want + 4, d.message))
  assert(d.message:find("found 'fact'", 1, true), d.message)
end)

check('hover on the keyword game shows its documentation', function()
  local line = vim.api.nvim_buf_get_lines(buf, 1, 2, false)[1]
  assert(line:sub(1, 5) == 'game(', line)
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 1, character = 1 } }
  local results = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 10000) or {}
  local text = ''
  for _, r in pairs(results) do
    if r.result and r.result.contents then
      local c = r.result.contents
      text = text .. (type(c) == 'string' and c or c.value or vim.inspect(c))
    end
  end
  assert(text:find('game(Name)', 1, true), 'hover: ' .. text)
end)

vim.cmd(failed == 0 and 'qall!' or 'cquit!')
