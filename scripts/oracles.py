"""The field's own tools as oracles for sidl's extensive forms (docs/analysis.md).

Run by scripts/oracles.sh inside its pinned virtual environment (pygambit, open-spiel):

- Gambit reads every exported .efg (and the .nfg of the one-shot games); for a fixture solved
  exactly (`method: lp`), Gambit's exact LP (`gbt.nash.lp_solve(g, rational=True)`) gives the
  value `sidl solve --method lp` reports, exactly; with `oracle_lp: float` in the fixture, Gambit's
  LP in floating point (its exact one takes about a minute on goofspiel3) gives it within 1e-9.
- OpenSpiel loads the same .efg (`pyspiel.load_efg_game`) and computes NashConv < 1e-3 for sidl's
  CFR+ profile (after the fixture's `oracle_iterations`, else `cfr_iterations`), equal to sidl's own.
- The trees of Kuhn and Leduc poker have as many decision and terminal histories and information
  sets as OpenSpiel's own kuhn_poker and leduc_poker.

Usage: python oracles.py SIDL FIXTURE_DIR. Prints one line per check and "N passed, M failed".
"""

import json
import os
import subprocess
import sys
import tempfile
from fractions import Fraction

import pygambit as gbt
import pyspiel
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import exploitability

SIDL, FIXTURES = sys.argv[1], sys.argv[2]
passed, failed = 0, 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name} {detail}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def sidl(*args):
    out = subprocess.run([SIDL, *args], check=True, capture_output=True, text=True).stdout
    return out


def read_fixture(path):
    kv = []
    for line in open(path):
        if ":" in line:
            k, v = line.split(":", 1)
            kv.append((k.strip(), v.strip()))
    return kv


def read_efg(path):
    if hasattr(gbt, "read_efg"):
        return gbt.read_efg(path)
    return gbt.Game.read_game(path)


def first_equilibrium(res):
    """The first equilibrium of a Gambit solver result (pygambit 16: `equilibria`; 17: `equilibrium`)."""
    if hasattr(res, "equilibria"):
        return res.equilibria[0]
    return res.equilibrium


def payoff(eq, player):
    """A player's expected payoff under a Gambit profile (pygambit 16: `payoff(p)`; 17: `payoffs[p]`)."""
    if hasattr(eq, "payoff"):
        return eq.payoff(player)
    return eq.payoffs[player]


def read_nfg(path):
    if hasattr(gbt, "read_nfg"):
        return gbt.read_nfg(path)
    return gbt.Game.read_game(path)


def counts(game):
    """Decision histories, terminal histories and information sets of an OpenSpiel game."""
    decision, terminal, infosets = 0, 0, set()
    stack = [game.new_initial_state()]
    while stack:
        s = stack.pop()
        if s.is_terminal():
            terminal += 1
            continue
        if s.is_chance_node():
            for a, _ in s.chance_outcomes():
                stack.append(s.child(a))
            continue
        decision += 1
        p = s.current_player()
        infosets.add((p, s.information_state_string(p)))
        for a in s.legal_actions():
            stack.append(s.child(a))
    return decision, terminal, len(infosets)


def os_profile(game, solution):
    """sidl's strategies as an OpenSpiel tabular policy of the loaded .efg game: each information
    state `owner-observer-number-label` is sidl's information set of that owner and label, each
    legal action the one of that name."""
    players = list(solution["values"].keys())
    by_key = {}
    for s in solution["strategies"]:
        by_key[(players.index(s["player"]), s["label"])] = {
            a["action"]: a["probability"] for a in s["actions"]}
    pol = os_policy.TabularPolicy(game)
    seen = set()
    stack = [game.new_initial_state()]
    while stack:
        s = stack.pop()
        if s.is_terminal():
            continue
        if s.is_chance_node():
            for a, _ in s.chance_outcomes():
                stack.append(s.child(a))
            continue
        p = s.current_player()
        key = s.information_state_string(p)
        if key not in seen:
            seen.add(key)
            owner, _observer, _number, name = key.split("-", 3)
            probs = by_key[(int(owner), name)]
            row = pol.policy_for_key(key)
            row[:] = 0
            for a in s.legal_actions():
                row[a] = probs[s.action_to_string(p, a)]
        for a in s.legal_actions():
            stack.append(s.child(a))
    return pol


tmp = tempfile.mkdtemp()
for fname in sorted(os.listdir(FIXTURES)):
    if not fname.endswith(".expect"):
        continue
    fx = read_fixture(os.path.join(FIXTURES, fname))
    d = dict(fx)
    if d.get("oracle") != "yes":
        continue
    name = fname[: -len(".expect")]
    game_path = os.path.normpath(os.path.join(FIXTURES, d["game"]))
    efg = os.path.join(tmp, name + ".efg")
    sidl("export", game_path, "--efg", "-o", efg)
    g = read_efg(efg)
    check(f"{name}: Gambit reads the .efg", len(g.players) == len(json.loads(
        sidl("solve", game_path, "--method", "cfr", "--iterations", "1", "--format", "json").splitlines()[-1])["values"]))
    if d.get("method") == "lp":
        sol = json.loads(sidl("solve", game_path, "--method", "lp", "--format", "json").splitlines()[-1])
        sidl_values = [Fraction(v) for v in sol["exact_values"].values()]
        if d.get("oracle_lp") == "float":
            eq = first_equilibrium(gbt.nash.lp_solve(g, rational=False))
            gambit_values = [float(payoff(eq, p)) for p in g.players]
            check(f"{name}: Gambit's LP value (floating point) = sidl's exact value within 1e-9",
                  len(gambit_values) == len(sidl_values)
                  and all(abs(a - float(b)) < 1e-9 for a, b in zip(gambit_values, sidl_values)),
                  f"gambit {gambit_values} sidl {[str(v) for v in sidl_values]}")
        else:
            eq = first_equilibrium(gbt.nash.lp_solve(g, rational=True))
            gambit_values = [Fraction(str(payoff(eq, p))) for p in g.players]
            check(f"{name}: Gambit's exact LP value = sidl's", gambit_values == sidl_values,
                  f"gambit {[str(v) for v in gambit_values]} sidl {[str(v) for v in sidl_values]}")
    try:
        sidl("export", game_path, "--nfg", "-o", os.path.join(tmp, name + ".nfg"))
        ng = read_nfg(os.path.join(tmp, name + ".nfg"))
        if d.get("method") == "lp":
            res = gbt.nash.lp_solve(ng, rational=True)
            v = [Fraction(str(payoff(first_equilibrium(res), p))) for p in ng.players]
            check(f"{name}: Gambit's LP on the .nfg = sidl's value", v == sidl_values)
        else:
            check(f"{name}: Gambit reads the .nfg", len(ng.players) >= 1)
    except subprocess.CalledProcessError:
        pass  # not a one-shot game
    iters = d.get("oracle_iterations", d.get("cfr_iterations", "1000"))
    bound = 1e-3
    sol = json.loads(sidl("solve", game_path, "--method", "cfr", "--iterations", iters,
                          "--format", "json").splitlines()[-1])
    if d.get("method") == "lp":
        cfr_values = list(sol["values"].values())
        check(f"{name}: sidl's CFR+ values within 1e-3 of Gambit's LP value",
              all(abs(a - float(b)) < 1e-3 for a, b in zip(cfr_values, gambit_values)),
              f"{cfr_values}")
    game = pyspiel.load_efg_game(open(efg).read())
    nc = exploitability.nash_conv(game, os_profile(game, sol))
    check(f"{name}: OpenSpiel's NashConv of sidl's CFR+ profile < {bound}", nc < bound,
          f"(OpenSpiel {nc:.2e}, sidl {sol['nash_conv']:.2e})")
    check(f"{name}: OpenSpiel's NashConv = sidl's", abs(nc - sol["nash_conv"]) < 1e-6,
          f"({nc:.3e} vs {sol['nash_conv']:.3e})")
    if name in ("kuhn", "leduc"):
        own = counts(pyspiel.load_game(name + "_poker"))
        loaded = counts(game)
        ours = (int(d["decision_nodes"]), int(d["terminal_nodes"]), int(d["infosets"]))
        check(f"{name}: histories and information sets = OpenSpiel's {name}_poker", own == ours,
              f"OpenSpiel {own}, sidl {ours}")
        check(f"{name}: the loaded .efg has the same", loaded == ours, f"{loaded}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
