;;; tilecc.el --- `tilecc lsp' beside clangd in lsp-mode  -*- lexical-binding: t; -*-
;;
;; Load after lsp-mode: (require 'tilecc) with this file on the load-path.  The client is an
;; add-on, so lsp-mode runs it together with clangd on the same C++ buffers.

(with-eval-after-load 'lsp-mode
  (lsp-register-client
   (make-lsp-client :new-connection (lsp-stdio-connection '("tilecc" "lsp"))
                    :activation-fn (lsp-activate-on "cpp")
                    :add-on? t
                    :server-id 'tilecc)))

(provide 'tilecc)
;;; tilecc.el ends here
