//! The per-state tabling analysis (`engine/src/solve/statememo.rs`) on the fixture
//! `tests/statememo/cases.pl`: each `% expect Name/Arity Bits` line gives the modes in which the
//! predicate may be tabled per state (and whether per context), after the meta-call
//! specialisation (`engine/src/solve/specialise.rs`). The answers themselves are checked against SWI-Prolog by the
//! differential tests and trajectories (chess uses these tables).

use sidl_engine::atom::Atom;
use sidl_engine::solve::{ProgramBuilder, SourceClause};

#[test]
fn state_memo_modes_match_the_fixture() {
    let src = include_str!("../statememo/cases.pl");
    let parsed = sidl_engine::syntax::parse_file(src);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let clauses = parsed.clauses.iter().map(|c| SourceClause {
        term: c.term.clone(),
        span: c.span,
        var_names: c.var_names.clone().into(),
    });
    let (program, diags) = ProgramBuilder::new()
        .host_predicates(&[
            (Atom::new("fact"), 1),
            (Atom::new("does"), 2),
            (Atom::new("tocreate"), 1),
            (Atom::new("create"), 1),
        ])
        .state_hosts(1)
        .context_hosts(0b110)
        .clauses(clauses)
        .build();
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    let mut checked = 0;
    for line in src.lines() {
        let Some(rest) = line.strip_prefix("% expect ") else {
            continue;
        };
        let (pi, bits) = rest.split_once(' ').expect("Name/Arity Bits");
        let (name, arity) = pi.rsplit_once('/').expect("Name/Arity");
        let arity: u32 = arity.parse().expect("arity");
        let bits: u8 = bits.trim().parse().expect("bits");
        let pred = program
            .pred(Atom::new(name), arity)
            .unwrap_or_else(|| panic!("{pi} not defined"));
        assert_eq!(pred.state_memo, bits, "{pi}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} expectations");
}
