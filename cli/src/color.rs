//! The one decision whether the command line writes ANSI escape sequences (colours, bold, screen
//! control) to a stream: only to a terminal, and never when `NO_COLOR` is set to a non-empty value
//! (<https://no-color.org>) or `TERM` is `dumb`. Every command asks here.

use std::io::IsTerminal;

/// May stdout get escape sequences?
pub fn stdout() -> bool {
    allowed(std::io::stdout().is_terminal())
}

/// May stderr get escape sequences?
pub fn stderr() -> bool {
    allowed(std::io::stderr().is_terminal())
}

fn allowed(terminal: bool) -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    terminal && !no_color && !dumb
}
