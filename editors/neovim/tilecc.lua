-- Neovim (0.10 or later): run `tilecc lsp` beside clangd on C++ buffers.
-- Put this file in ~/.config/nvim/plugin/ (or require it from init.lua).
vim.api.nvim_create_autocmd("FileType", {
  pattern = "cpp",
  callback = function(args)
    local root = vim.fs.root(args.buf, { "compile_commands.json", "build", ".git" })
    vim.lsp.start({
      name = "tilecc",
      cmd = { "tilecc", "lsp" },
      root_dir = root,
      -- Where compile_commands.json is, when it is neither beside the file nor in build/:
      -- init_options = { compilationDatabasePath = root .. "/out" },
    })
  end,
})
