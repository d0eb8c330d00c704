;;; sidl-mode-test.el --- Batch tests of sidl-mode.el  -*- lexical-binding: t; -*-

;; Run by scripts/editors-test.sh:
;;   SIDL_LSP=/path/to/sidl-lsp SIDL_GAMES=/dir/with/games \
;;     emacs --batch -Q -L editors/emacs -l editors/emacs/sidl-mode-test.el -f ert-run-tests-batch-and-exit
;; The mode and its Eglot registration; with Eglot installed (Emacs 29, or elpa-eglot), a real
;; session with sidl-lsp (SIDL_LSP): diagnostics at the right place after non-ASCII text, and the
;; hidden-information report. SIDL_GAMES holds unicode.sidl and kuhn_leaky.sidl.

;;; Code:

(require 'ert)
(require 'sidl-mode)

(defvar sidl-test-games (getenv "SIDL_GAMES"))
(defvar sidl-test-server (getenv "SIDL_LSP"))

(defun sidl-test-wait (what pred &optional seconds)
  "Waits up to SECONDS (default 60) for PRED to return non-nil (returned); fails naming WHAT."
  (let ((end (+ (float-time) (or seconds 60))) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) end))
      (accept-process-output nil 0.1))
    (or v (ert-fail (format "timed out waiting for %s" what)))))

(ert-deftest sidl-mode-is-the-mode-of-sidl-files ()
  (let ((file (make-temp-file "sidl-test" nil ".sidl" "game(t).\nlegal([main]) :- fact([x]).\n")))
    (unwind-protect
        (with-current-buffer (find-file-noselect file)
          (should (eq major-mode 'sidl-mode))
          (should (derived-mode-p 'prolog-mode))
          (should (equal comment-start "% "))
          (font-lock-ensure)
          (goto-char (point-min))
          (search-forward "legal")
          (should (eq (get-text-property (match-beginning 0) 'face) 'font-lock-keyword-face))
          (search-forward "fact")
          (should (eq (get-text-property (match-beginning 0) 'face) 'font-lock-builtin-face))
          (kill-buffer))
      (delete-file file))))

(ert-deftest sidl-mode-registers-sidl-lsp-with-eglot ()
  (skip-unless (require 'eglot nil t))
  (let ((entry (assoc 'sidl-mode eglot-server-programs)))
    (should entry)
    (should (equal (funcall (cdr entry) nil) '("sidl-lsp")))
    (let ((sidl-lsp-program "/opt/sidl/sidl-lsp"))
      (should (equal (funcall (cdr entry) t) '("/opt/sidl/sidl-lsp"))))))

(ert-deftest sidl-mode-report-text ()
  (let ((text (sidl--report "kuhn_leaky.sidl"
                            '(:consistent :json-false :complete t :states 49
                              :message "Def.1 §11 violation"
                              :counterexample (:player "[p2]" :switch "[p2]"
                                               :description "switch [p2] has actions\n[p2] sees: x"
                                               :steps ["first: chronon 1: a" "second: chronon 1: b"])
                              :errors []))))
    (should (string-match-p "^Result: hidden information leaks to player \\[p2\\] through switch \\[p2\\]\\.$" text))
    (should (string-match-p "^  \\[p2\\] sees: x$" text))
    (should (string-match-p "^  second: chronon 1: b$" text))))

(ert-deftest sidl-mode-eglot-session-with-sidl-lsp ()
  (skip-unless (and sidl-test-server sidl-test-games (require 'eglot nil t)))
  (let ((sidl-lsp-program sidl-test-server)
        (sidl-mode-hook '(eglot-ensure))
        (eglot-sync-connect t))
    ;; the documented set-up: eglot-ensure in sidl-mode-hook; it connects after the next command
    (with-current-buffer (find-file-noselect (expand-file-name "unicode.sidl" sidl-test-games))
      (run-hooks 'post-command-hook)
      (sidl-test-wait "the Eglot connection" #'eglot-current-server)
      (should (equal (process-command (jsonrpc--process (eglot-current-server))) (list sidl-test-server)))
      ;; the syntax error on line 3, after non-ASCII text (ö, 🎲, ü): at the second `fact'
      (let* ((want (save-excursion
                     (goto-char (point-min))
                     (search-forward "fact([x]) ")
                     (point)))
             (diag (sidl-test-wait "the diagnostics"
                                   (lambda ()
                                     ;; Flymake defers its start until the buffer shows in a
                                     ;; window, which never happens in batch mode: start it
                                     (flymake-start)
                                     (cl-find-if (lambda (d) (eq (flymake-diagnostic-type d) 'eglot-error))
                                                 (flymake-diagnostics))))))
        (should (string-match-p "found 'fact'" (flymake-diagnostic-text diag)))
        (should (= (flymake-diagnostic-beg diag) want))
        (should (= (flymake-diagnostic-end diag) (+ want 4)))))
    ;; the hidden-information check of a leaky game: its report buffer
    (with-current-buffer (find-file-noselect (expand-file-name "kuhn_leaky.sidl" sidl-test-games))
      (run-hooks 'post-command-hook)
      (sidl-test-wait "the Eglot connection" #'eglot-current-server)
      (let ((report (sidl-check-hidden-information)))
        (with-current-buffer report
          (should buffer-read-only)
          (should (string-match-p "^Result: hidden information leaks to player \\[p2\\] through switch \\[p2\\]\\.$"
                                  (buffer-string)))
          (should (string-match-p "^  first: chronon 1: nature plays \\[deal," (buffer-string))))
        ;; the next run replaces it
        (should (eq (sidl-check-hidden-information) report))))
    (eglot-shutdown-all)))

;;; sidl-mode-test.el ends here
