;;; sidl-mode.el --- Major mode for SIDL3.0 games, with the sidl-lsp language server  -*- lexical-binding: t; -*-

;; Copyright (C) the sidl authors
;; SPDX-License-Identifier: MIT OR Apache-2.0
;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1"))
;; Keywords: languages, games, prolog

;;; Commentary:

;; SIDL3.0 (Strategic Interaction Definition Language) games are Prolog-syntax rules over keywords
;; such as `legal', `switch', `owned', `do' and `payoff', in files ending in `.sidl'.  This mode is
;; `prolog-mode' (Prolog syntax, comments, indentation) with the SIDL keywords highlighted, and it
;; tells Eglot to use the language server `sidl-lsp' (diagnostics, hover, completion, navigation,
;; rename, quick fixes; see docs/lsp.md in the sidl repository).
;;
;; Install: put this file on `load-path' and add to your init file
;;
;;   (require 'sidl-mode)
;;   (add-hook 'sidl-mode-hook #'eglot-ensure)   ; start sidl-lsp in every .sidl buffer
;;
;; `sidl-lsp' must be on `exec-path' (or set `sidl-lsp-program').  Eglot is part of Emacs 29; for
;; Emacs 27 and 28 install it from GNU ELPA (or Debian's elpa-eglot).
;;
;; M-x sidl-check-hidden-information runs the server's hidden-information check (Def.1 §11) on
;; the current game and shows the report in a read-only buffer, one per game, replaced by the next
;; run.

;;; Code:

(require 'prolog)
(require 'subr-x)
(require 'url-util)

(defgroup sidl nil
  "SIDL3.0 games."
  :group 'languages
  :prefix "sidl-")

(defcustom sidl-lsp-program "sidl-lsp"
  "The SIDL language server that Eglot starts.
A program name on `exec-path', or a path."
  :type 'string)

(defcustom sidl-check-max-states nil
  "The most states `sidl-check-hidden-information' explores.
nil: the server's default."
  :type '(choice (const :tag "The server's default" nil) integer))

(defconst sidl-head-keywords
  '("game" "name" "init" "hidden" "legal" "switch" "unlimited" "owned" "default" "do" "payoff")
  "The keywords that start a clause (the game manager calls them).")

(defconst sidl-body-keywords
  '("player" "fact" "create" "delete" "tocreate" "todelete" "does")
  "The keywords that a clause body calls.")

(defconst sidl-font-lock-keywords
  `((,(concat "^" (regexp-opt sidl-head-keywords 'symbols) "(")
     1 font-lock-keyword-face)
    (,(concat (regexp-opt sidl-body-keywords 'symbols) "(")
     1 font-lock-builtin-face))
  "Highlighting of the SIDL keywords, added to `prolog-mode''s.")

;;;###autoload
(define-derived-mode sidl-mode prolog-mode "SIDL"
  "Major mode for SIDL3.0 game files (.sidl): Prolog syntax, SIDL keywords.
With Eglot, `eglot' (or `eglot-ensure' in `sidl-mode-hook') starts
`sidl-lsp-program'.

\\{sidl-mode-map}"
  (setq-local comment-start "% ")
  (setq-local comment-start-skip "\\(?:%+\\|/\\*+\\)[ \t]*")
  (font-lock-add-keywords nil sidl-font-lock-keywords))

(define-key sidl-mode-map (kbd "C-c C-h") #'sidl-check-hidden-information)

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.sidl\\'" . sidl-mode))

(defun sidl-eglot-contact (&optional _interactive)
  "The Eglot contact of `sidl-mode' buffers: `sidl-lsp-program' on stdio."
  (list sidl-lsp-program))

(with-eval-after-load 'eglot
  (defvar eglot-server-programs)
  (add-to-list 'eglot-server-programs '(sidl-mode . sidl-eglot-contact)))

;;; The hidden-information check

(declare-function eglot-current-server "eglot")
(declare-function jsonrpc-request "jsonrpc")

(defun sidl--file-uri (file)
  "The file: URI of FILE."
  (concat "file://" (url-hexify-string (expand-file-name file) url-path-allowed-chars)))

(defun sidl--report (file result)
  "The text of the report of the check of FILE, from the server's RESULT (a plist)."
  (let* ((ce (plist-get result :counterexample))
         (steps (and ce (append (plist-get ce :steps) nil)))
         (errors (append (plist-get result :errors) nil)))
    (string-join
     (append
      (list (format "Hidden-information check (Def.1 §11) of %s" file)
            ""
            (format "Result: %s"
                    (cond (ce (format "hidden information leaks to player %s through switch %s."
                                      (plist-get ce :player) (plist-get ce :switch)))
                          ((eq (plist-get result :complete) :json-false)
                           "no leak found, but the budget ran out before every reachable state was explored.")
                          (t "hidden information is consistent.")))
            (format "Server: %s" (plist-get result :message))
            "")
      (when ce
        (append (list "What differs")
                (mapcar (lambda (l) (concat "  " l)) (split-string (plist-get ce :description) "\n"))
                (list "" "How to reach the two states (one line per chronon)")
                (mapcar (lambda (s) (concat "  " s)) steps)
                (list "")))
      (when errors
        (cons "Runtime errors during the exploration"
              (mapcar (lambda (e) (concat "  " e)) errors))))
     "\n")))

(defun sidl-check-hidden-information ()
  "Run the hidden-information check (Def.1 §11) of sidl-lsp on the current game.
The report goes to the read-only buffer \"*SIDL hidden information: FILE*\",
replaced on the next run."
  (interactive)
  (unless (and (fboundp 'eglot-current-server) (eglot-current-server))
    (user-error "SIDL: no language server in this buffer (M-x eglot)"))
  (unless buffer-file-name
    (user-error "SIDL: the buffer visits no file"))
  (let* ((file buffer-file-name)
         (params (append (list :textDocument (list :uri (sidl--file-uri file)))
                         (when sidl-check-max-states (list :maxStates sidl-check-max-states))))
         (result (jsonrpc-request (eglot-current-server) :sidl/checkHiddenInformation params))
         (buffer (get-buffer-create (format "*SIDL hidden information: %s*" (file-name-nondirectory file)))))
    (with-current-buffer buffer
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (sidl--report (file-name-nondirectory file) result) "\n"))
      (special-mode)
      (goto-char (point-min)))
    (if (plist-get result :counterexample)
        (display-buffer buffer)
      (message "SIDL: %s" (plist-get result :message)))
    buffer))

(provide 'sidl-mode)
;;; sidl-mode.el ends here
