//! `sidl trace`: the machine-readable trajectory format (../shared/trace-format.md). Pure: returns lines.
