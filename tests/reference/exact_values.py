#!/usr/bin/env python3
"""Exact reference values for pmc's self-contained reference set.

Each model of tests/reference/ (and examples/die, examples/consensus) is
built here a second time, from its definition in Python, with
fractions.Fraction probabilities and rates, and every property of the
manifest is computed in rational arithmetic:

- reachability and expected rewards: the linear systems solved exactly
  (sparse Gauss-Jordan elimination on Fractions), after the graph
  precomputation that decides the states of value 0, 1 or infinity;
- step-bounded properties (F<=k, C<=k, I=k): the k steps iterated exactly;
- long-run properties: the bottom SCCs' stationary distributions solved
  exactly, weighted by the probability of reaching each;
- MDP optima: exact policy iteration, started from the policy a
  floating-point value iteration picks, and ended only when no choice
  improves on the policy's exact values (the Bellman equation holds
  exactly; with the states of Pmax = 0 / Pmin = 0 fixed first, that makes
  the policy's values the optimum);
- CTMC time bounds: uniformisation, with e^(-qt) enclosed between two
  rationals and the Poisson series cut where its remaining mass is below
  1e-16; the manifest gives the midpoint and says how far off it can be.

No code of pmc is used for the values, so a bug in pmc's exploration or
solvers shows as a disagreement. The state counts are pmc's own (states,
transitions, choices as `pmc info` reports them), computed here the same way.

    python3 exact_values.py                write manifest.tsv
    python3 exact_values.py --check        exit 1 if manifest.tsv differs
    python3 exact_values.py --explicit PMC also rewrite explicit/ with
                                           `PMC convert SOURCE --const ...`
"""

import argparse
import os
import subprocess
import sys
from collections import defaultdict
from fractions import Fraction as F

HERE = os.path.dirname(os.path.abspath(__file__))
INF = "Infinity"


# ---------------------------------------------------------------- models

class Model:
    """A chain explored from `init` by `step(state)`, which returns a list
    of (action, [(probability or rate, next state)]) for the enabled
    commands. DTMC/CTMC: the commands' distributions are added up; MDP: each
    command is a choice. A state without commands gets a self-loop."""

    def __init__(self, kind, init, step):
        self.kind = kind
        self.states = [init]
        self.index = {init: 0}
        self.rows = []      # DTMC/CTMC: {t: value}; MDP: list of (action, {t: p})
        self.actions = []   # DTMC/CTMC: the actions of each state's commands
        todo = 0
        while todo < len(self.states):
            s = self.states[todo]
            commands = step(*s)
            if not commands:
                commands = [("", [(F(1), s)])]
            choices = []
            for action, dist in commands:
                row = defaultdict(F)
                for p, t in dist:
                    if p == 0:
                        continue
                    if t not in self.index:
                        self.index[t] = len(self.states)
                        self.states.append(t)
                    row[self.index[t]] += p
                choices.append((action, dict(row)))
            if kind == "mdp":
                self.rows.append(choices)
            else:
                row = defaultdict(F)
                for _, dist in choices:
                    for t, p in dist.items():
                        row[t] += p
                self.rows.append(dict(row))
                self.actions.append([a for a, _ in choices])
            todo += 1
        self.n = len(self.states)
        self.init = 0

    def counts(self):
        if self.kind == "mdp":
            choices = sum(len(c) for c in self.rows)
            transitions = sum(len(d) for c in self.rows for _, d in c)
            return self.n, transitions, choices
        return self.n, sum(len(r) for r in self.rows), ""

    def where(self, predicate):
        return {i for i, s in enumerate(self.states) if predicate(*s)}

    def successors(self, s):
        if self.kind == "mdp":
            return {t for _, d in self.rows[s] for t in d}
        return set(self.rows[s])


def embedded(m):
    """A CTMC's embedded DTMC (rows divided by the exit rates)."""
    rows = []
    for r in m.rows:
        e = sum(v for t, v in r.items())
        rows.append({t: v / e for t, v in r.items()})
    return rows


def exit_rates(m):
    return [sum(r.values()) for r in m.rows]


# ---------------------------------------------------------------- linear algebra

def solve(eqs):
    """eqs: {x: ({y: c}, b)} meaning x = sum c*y + b. Exact Gauss-Jordan
    elimination by substitution; returns {x: value}."""
    eqs = {x: (dict(c), F(b)) for x, (c, b) in eqs.items()}
    users = defaultdict(set)
    for x, (c, _) in eqs.items():
        for y in c:
            users[y].add(x)
    for x in list(eqs):
        c, b = eqs[x]
        own = c.pop(x, F(0))
        users[x].discard(x)
        if own:
            if own == 1:
                raise ArithmeticError(f"singular system at {x}")
            f = 1 / (1 - own)
            c = {y: v * f for y, v in c.items()}
            b *= f
        eqs[x] = (c, b)
        for u in list(users[x]):
            cu, bu = eqs[u]
            a = cu.pop(x)
            for y, v in c.items():
                cu[y] = cu.get(y, F(0)) + a * v
                if cu[y] == 0:
                    del cu[y]
                    users[y].discard(u)
                else:
                    users[y].add(u)
            eqs[u] = (cu, bu + a * b)
        users[x] = set()
    for x, (c, b) in eqs.items():
        assert not c, "elimination left a variable"
    return {x: b for x, (c, b) in eqs.items()}


def can_reach(rows_succ, n, targets, allowed=None):
    """States (within `allowed`) with a path to `targets`."""
    pred = defaultdict(set)
    for s in range(n):
        for t in rows_succ(s):
            pred[t].add(s)
    seen = set(targets)
    stack = list(targets)
    while stack:
        t = stack.pop()
        for s in pred[t]:
            if s not in seen and (allowed is None or s in allowed):
                seen.add(s)
                stack.append(s)
    return seen


# ---------------------------------------------------------------- DTMC / CTMC

def chain_rows(m):
    return embedded(m) if m.kind == "ctmc" else m.rows


def reach(m, target, allowed=None):
    """P(allowed U target) per state (allowed=None: everything)."""
    rows = chain_rows(m)
    good = can_reach(lambda s: rows[s], m.n, target, allowed)
    eqs = {s: ({t: p for t, p in rows[s].items() if t in good and t not in target},
               sum((p for t, p in rows[s].items() if t in target), F(0)))
           for s in good - set(target)}
    v = solve(eqs)
    return [F(1) if s in target else v.get(s, F(0)) for s in range(m.n)]


def step_rewards(m, name):
    """Expected reward of one step out of each state (DTMC): state reward
    plus the transition rewards of its commands; CTMC: state reward / exit
    rate (the expected time in the state times the rate)."""
    srew, trew = REWARDS[name]
    if m.kind == "ctmc":
        e = exit_rates(m)
        return [srew(*m.states[s]) / e[s] for s in range(m.n)]
    return [srew(*m.states[s]) + sum(trew(a, *m.states[s]) for a in m.actions[s]) for s in range(m.n)]


def reach_reward(m, target, name):
    p = reach(m, target)
    if p[m.init] != 1:
        return INF
    rows = chain_rows(m)
    r = step_rewards(m, name)
    sure = {s for s in range(m.n) if p[s] == 1}
    eqs = {s: ({t: q for t, q in rows[s].items() if t not in target}, r[s]) for s in sure - set(target)}
    return solve(eqs).get(m.init, F(0))


def bounded_reach(m, target, k):
    v = [F(1) if s in target else F(0) for s in range(m.n)]
    for _ in range(k):
        v = [F(1) if s in target else sum((p * v[t] for t, p in m.rows[s].items()), F(0)) for s in range(m.n)]
    return v[m.init]


def cumulative(m, name, k):
    r = step_rewards(m, name)
    v = [F(0)] * m.n
    for _ in range(k):
        v = [r[s] + sum((p * v[t] for t, p in m.rows[s].items()), F(0)) for s in range(m.n)]
    return v[m.init]


def instantaneous(m, name, k):
    srew, _ = REWARDS[name]
    v = [srew(*m.states[s]) for s in range(m.n)]
    for _ in range(k):
        v = [sum((p * v[t] for t, p in m.rows[s].items()), F(0)) for s in range(m.n)]
    return v[m.init]


def bottom_sccs(m):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):  # iterative Tarjan
        work = [(v, iter(sorted(m.successors(v))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            u, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(m.successors(w)))))
                    break
                if w in on:
                    low[u] = min(low[u], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[u])
                if low[u] == index[u]:
                    scc = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        scc.add(w)
                        if w == u:
                            break
                    if all(m.successors(x) <= scc for x in scc):
                        out.append(scc)

    for v in range(m.n):
        if v not in index:
            visit(v)
    return out


def long_run(m, f):
    """Long-run average of f (per state) from the initial state."""
    total = F(0)
    rates = exit_rates(m) if m.kind == "ctmc" else None
    for b in bottom_sccs(m):
        first = min(b)
        eqs = {}
        for s in b - {first}:
            coef, const = {}, F(0)
            for r in b:
                if s not in m.rows[r] or (m.kind == "ctmc" and r == s):
                    continue
                w = m.rows[r][s] / rates[s] if m.kind == "ctmc" else m.rows[r][s]
                if r == first:
                    const += w
                else:
                    coef[r] = coef.get(r, F(0)) + w
            eqs[s] = (coef, const)
        x = solve(eqs)
        x[first] = F(1)
        norm = sum(x.values())
        inside = sum(x[s] * f(s) for s in b) / norm
        total += reach(m, b)[m.init] * inside
    return total


def exp_enclosure(x, width):
    """Rationals lo <= e^(-x) <= hi (x >= 0 rational)."""
    term, s, k = F(1), F(1), 0
    while True:
        k += 1
        term = term * x / k
        s += term
        if k + 2 > 2 * x:
            tail = term * x / (k + 1) / (1 - x / (k + 2))
            if tail / s < width:
                return 1 / (s + tail), 1 / s


def time_bounded_reach(m, target, t):
    """P(F<=t target) in a CTMC: an enclosure [lo, hi] of width < 1e-16."""
    q = max(exit_rates(m))
    x = q * F(t)
    rows = []
    for s in range(m.n):
        if s in target:
            rows.append({s: F(1)})
        else:
            row = {u: r / q for u, r in m.rows[s].items() if u != s}
            row[s] = 1 - sum(row.values())
            rows.append(row)
    lo_e, hi_e = exp_enclosure(x, F(1, 10**18))
    v = [F(1) if s in target else F(0) for s in range(m.n)]  # p_n: in target after n steps
    weight, mass, acc, n = F(1), F(0), F(0), 0
    while True:
        mass += weight
        acc += weight * v[m.init]
        if n > x and 1 - lo_e * mass < F(1, 10**16):
            break
        n += 1
        weight = weight * x / n
        # v_n(s) = P(in target after n steps from s): iterate backwards
        v = [sum((p * v[u] for u, p in rows[s].items()), F(0)) for s in range(m.n)]
    return lo_e * acc, hi_e * acc + (1 - lo_e * mass), n


# ---------------------------------------------------------------- MDP

def q_value(m, s, c, v):
    return sum((p * v[t] for t, p in m.rows[s][c][1].items()), F(0))


def float_policy(m, fixed, unknown, maximize, reward=None, iterations=20000):
    """A policy from floating-point value iteration (the start of policy
    iteration; its exactness does not matter)."""
    v = [float(fixed.get(s, 0)) for s in range(m.n)]
    pick = max if maximize else min
    for _ in range(iterations):
        new = list(v)
        for s in unknown:
            new[s] = pick((reward(s, c) if reward else 0.0) +
                          sum(float(p) * v[t] for t, p in m.rows[s][c][1].items())
                          for c in allowed_choices(m, s, unknown, fixed))
        if max(abs(a - b) for a, b in zip(new, v)) < 1e-15:
            v = new
            break
        v = new
    policy = {}
    for s in unknown:
        cs = allowed_choices(m, s, unknown, fixed)
        key = lambda c: (reward(s, c) if reward else 0.0) + sum(float(p) * v[t] for t, p in m.rows[s][c][1].items())
        policy[s] = (max if maximize else min)(cs, key=key)
    return policy


def allowed_choices(m, s, unknown, fixed):
    return [c for c in range(len(m.rows[s])) if all(t in unknown or t in fixed for t in m.rows[s][c][1])]


def evaluate(m, policy, fixed, reward=None):
    """Exact values of a memoryless policy; states that cannot reach a fixed
    state under it get 0 (probabilities) or fail (rewards)."""
    succ = lambda s: m.rows[s][policy[s]][1] if s in policy else {}
    good = can_reach(succ, m.n, set(fixed), set(policy))
    eqs = {}
    for s in policy:
        if s not in good:
            if reward:
                raise ArithmeticError("policy is not proper")
            continue
        d = m.rows[s][policy[s]][1]
        coef = {t: p for t, p in d.items() if t in policy and t in good}
        const = sum((p * fixed[t] for t, p in d.items() if t in fixed), F(0)) + (reward(s, policy[s]) if reward else 0)
        eqs[s] = (coef, const)
    x = solve(eqs)
    v = [F(0)] * m.n
    for s, val in fixed.items():
        v[s] = val
    for s in policy:
        v[s] = x.get(s, F(0))
    return v


def policy_iteration(m, fixed, unknown, maximize, reward=None):
    policy = float_policy(m, fixed, unknown, maximize, reward)
    for _ in range(1000):
        v = evaluate(m, policy, fixed, reward)
        changed = False
        for s in unknown:
            best = policy[s]
            best_q = q_value(m, s, best, v) + (reward(s, best) if reward else 0)
            for c in allowed_choices(m, s, unknown, fixed):
                q = q_value(m, s, c, v) + (reward(s, c) if reward else 0)
                if (q > best_q) if maximize else (q < best_q):
                    best, best_q = c, q
            if best != policy[s]:
                policy[s], changed = best, True
        if not changed:
            return v
    raise ArithmeticError("policy iteration did not end")


def mdp_reach(m, target, maximize, allowed=None):
    """Pmax/Pmin(allowed U target) per state."""
    allowed = set(range(m.n)) if allowed is None else allowed
    if maximize:
        positive = can_reach(m.successors, m.n, target, allowed)
    else:  # Pmin > 0: every choice keeps a path to the target (Prob0A's complement)
        positive = set(target)
        grew = True
        while grew:
            grew = False
            for s in allowed - positive:
                if all(any(t in positive for t in d) for _, d in m.rows[s]):
                    positive.add(s)
                    grew = True
    fixed = {s: F(0) for s in range(m.n) if s not in positive}
    fixed.update({s: F(1) for s in target})
    unknown = positive - set(target)
    return policy_iteration(m, fixed, unknown, maximize)


def mdp_reach_reward(m, target, name, maximize):
    """Rmax/Rmin [F target] in the initial state (PRISM's semantics:
    infinite where the target is not reached almost surely: Rmin under the
    best scheduler, Rmax under the worst)."""
    p = mdp_reach(m, target, not maximize)
    if p[m.init] != 1:
        return INF
    srew, trew = REWARDS[name]
    reward = lambda s, c: srew(*m.states[s]) + trew(m.rows[s][c][0], *m.states[s])
    sure = {s for s in range(m.n) if p[s] == 1} - set(target)
    fixed = {s: F(0) for s in target}
    return policy_iteration(m, fixed, sure, maximize, reward)[m.init]


def mdp_bounded_reach(m, target, k, maximize):
    pick = max if maximize else min
    v = [F(1) if s in target else F(0) for s in range(m.n)]
    for _ in range(k):
        v = [F(1) if s in target else pick(q_value(m, s, c, v) for c in range(len(m.rows[s]))) for s in range(m.n)]
    return v[m.init]


# ---------------------------------------------------------------- the models

def die_step(s, d):
    half = F(1, 2)
    if s < 3:
        return [("", [(half, (2 * s + 1, d)), (half, (2 * s + 2, d))])]
    if s == 3:
        return [("", [(half, (1, d)), (half, (7, 1))])]
    if s == 6:
        return [("", [(half, (2, d)), (half, (7, 6))])]
    if s in (4, 5):
        return [("", [(half, (7, 2 * s - 6)), (half, (7, 2 * s - 5))])]
    return [("", [(F(1), (s, d))])]


def die():
    return Model("dtmc", (0, 0), die_step)


def dice_pair():
    def step(s1, d1, s2, d2):
        out = []
        if s1 < 7:
            out.append(("", [(p, (t1, e1, s2, d2)) for p, (t1, e1) in die_step(s1, d1)[0][1]]))
        if s2 < 7:
            out.append(("", [(p, (s1, d1, t2, e2)) for p, (t2, e2) in die_step(s2, d2)[0][1]]))
        if s1 == 7 and s2 == 7:
            out.append(("shown", [(F(1), (s1, d1, s2, d2))]))
        return out
    return Model("mdp", (0, 0, 0, 0), step)


def gambler(p, n, start):
    def step(x):
        if 0 < x < n:
            return [("bet", [(p, (x + 1,)), (1 - p, (x - 1,))])]
        return [("", [(F(1), (x,))])]
    return Model("dtmc", (start,), step)


def ehrenfest(n):
    def step(k):
        return [("", [(F(n - k, 2 * n), (min(k + 1, n),)), (F(k, 2 * n), (max(k - 1, 0),)), (F(1, 2), (k,))])]
    return Model("dtmc", (0,), step)


def mm1k(lam, mu, k):
    def step(q):
        out = []
        if q < k:
            out.append(("arrive", [(lam, (q + 1,))]))
        if q > 0:
            out.append(("serve", [(mu, (q - 1,))]))
        return out
    return Model("ctmc", (0,), step)


def repair():
    def step(a, b):
        out = []
        if a == 1:
            out.append(("", [(F(1, 5), (0, b))]))
        if b == 1:
            out.append(("", [(F(1, 2), (a, 0))]))
        if a == 0:
            out.append(("", [(F(2), (1, b))]))
        if a == 1 and b == 0:
            out.append(("", [(F(1), (a, 1))]))
        return out
    return Model("ctmc", (1, 1), step)


def branches():
    table = {0: [(F(1, 4), 1), (F(1, 4), 3), (F(1, 2), 6)], 1: [(F(1, 2), 1), (F(1, 2), 2)],
             2: [(F(1, 3), 1), (F(2, 3), 2)], 3: [(F(1), 4)], 4: [(F(1), 5)], 5: [(F(1), 3)],
             6: [(F(1, 5), 0), (F(4, 5), 7)], 7: []}
    return Model("dtmc", (0,), lambda s: [("", [(p, (t,)) for p, t in table[s]])] if table[s] else [])


def bets(p, n, start):
    def step(x):
        if 0 < x < n:
            b = min(x, n - x)
            return [("timid", [(p, (x + 1,)), (1 - p, (x - 1,))]), ("bold", [(p, (x + b,)), (1 - p, (x - b,))])]
        return [("", [(F(1), (x,))])]
    return Model("mdp", (start,), step)


def detour():
    table = {0: [("risk", [(F(1, 2), 1), (F(1, 2), 2)]), ("safe", [(F(1), 3)])],
             1: [("wait", [(F(1), 1)]), ("go", [(F(2, 3), 4), (F(1, 3), 5)])],
             2: [("retry", [(F(1, 4), 0), (F(3, 4), 5)])],
             3: [("try", [(F(1, 2), 3), (F(1, 2), 4)]), ("back", [(F(1), 0)])],
             4: [("", [(F(1), 4)])], 5: [("", [(F(1), 5)])]}
    return Model("mdp", (0,), lambda s: [(a, [(p, (t,)) for p, t in d]) for a, d in table[s]])


def consensus(k, n=2):
    barrier, limit = k * n, (k + 1) * n
    TOSS, MOVE, READ, DONE = range(4)

    def process(counter, phase, value):
        """The commands of one process: (probability, (counter, phase, value))."""
        if phase == TOSS:
            return [[(F(1, 2), (counter, MOVE, 0)), (F(1, 2), (counter, MOVE, 1))]]
        if phase == MOVE:
            if value == 1 and counter < limit:
                return [[(F(1), (counter + 1, READ, 0))]]
            if value == 0 and counter > -limit:
                return [[(F(1), (counter - 1, READ, 0))]]
            return []
        if phase == READ:
            if counter >= barrier:
                return [[(F(1), (counter, DONE, 1))]]
            if counter <= -barrier:
                return [[(F(1), (counter, DONE, 0))]]
            return [[(F(1), (counter, TOSS, value))]]
        return []

    def step(counter, p1, v1, p2, v2):
        out = []
        for dist in process(counter, p1, v1):
            out.append(("", [(p, (c, q, w, p2, v2)) for p, (c, q, w) in dist]))
        for dist in process(counter, p2, v2):
            out.append(("", [(p, (c, p1, v1, q, w)) for p, (c, q, w) in dist]))
        if p1 == DONE and p2 == DONE:
            out.append(("idle", [(F(1), (counter, p1, v1, p2, v2))]))
        return out
    return Model("mdp", (0, TOSS, 0, TOSS, 0), step)


# Reward structures by name: (state reward(*state), transition reward(action, *state)).
ZERO = lambda *a: F(0)
REWARDS = {
    "coin_flips": (lambda s, d: F(1) if s < 7 else F(0), ZERO),
    "flip": (lambda s1, d1, s2, d2: F(1) if s1 < 7 or s2 < 7 else F(0), ZERO),
    "bets": (ZERO, lambda a, x: F(1) if a in ("bet", "timid", "bold") else F(0)),
    "wealth": (lambda x: F(x), ZERO),
    "left": (lambda n: F(n), ZERO),
    "steps": (lambda *s: F(1), ZERO),
    "customers": (lambda q: F(q), ZERO),
    "time": (lambda *s: F(1), ZERO),
    "cost_repair": (lambda a, b: {2: F(0), 1: F(3), 0: F(10)}[a + b], ZERO),
    "r": (lambda s: {1: F(2), 2: F(5), 4: F(9), 7: F(1)}.get(s, F(0)), ZERO),
    "cost_detour": (ZERO, lambda a, s: {"risk": 1, "safe": 2, "go": 3, "retry": 1, "try": 1,
                                        "back": 1, "wait": 1}.get(a, 0) * F(1)),
}


def staked(n):
    return (ZERO, lambda a, x: F(1) if a == "timid" else (F(min(x, n - x)) if a == "bold" else F(0)))


# ---------------------------------------------------------------- the manifest

def exact_text(v):
    return INF if v == INF else (str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}")


def decimal(v):
    return INF if v == INF else repr(float(v))


def rows():
    """(source, constants, explicit stem, model, [(property, value, exact, method)])."""
    out = []

    def add(source, constants, stem, m, props):
        out.append((source, constants, stem, m, props))

    def prop(text, value, method):
        return (text, decimal(value), exact_text(value), method)

    def long(text, value):
        return prop(text, value, "bottom SCCs' stationary distributions, exact")

    # Knuth & Yao's die (examples/die): each face 1/6, 11/3 flips.
    m = die()
    six = m.where(lambda s, d: s == 7 and d == 6)
    done = m.where(lambda s, d: s == 7)
    add("../../examples/die/die.pm", "", "../../examples/die/die", m, [
        prop('P=? [ F "six" ]', reach(m, six)[0], "linear system, exact"),
        prop('P=? [ F "one" | "two" ]', reach(m, m.where(lambda s, d: s == 7 and d <= 2))[0], "linear system, exact"),
        prop('R{"coin_flips"}=? [ F "done" ]', reach_reward(m, done, "coin_flips"), "linear system, exact"),
        prop('P=? [ F<=3 "done" ]', bounded_reach(m, done, 3), "3 steps, exact"),
        prop('R{"coin_flips"}=? [ C<=5 ]', cumulative(m, "coin_flips", 5), "5 steps, exact"),
    ])

    # Gambler's ruin, fair and unfair.
    for p, n, start, name in [(F(1, 2), 10, 5, "fair"), (F(2, 5), 10, 3, "unfair"), (F(3, 5), 20, 10, "favourable")]:
        m = gambler(p, n, start)
        rich, ruin = m.where(lambda x: x == n), m.where(lambda x: x == 0)
        pd = float(p)
        stem = "gambler_" + name
        add("gambler.pm", f"p={pd:g},N={n},start={start}", "explicit/" + stem, m, [
            prop('P=? [ F "rich" ]', reach(m, rich)[0], "linear system, exact"),
            prop('P=? [ G !"ruin" ]', 1 - reach(m, ruin)[0], "1 - linear system, exact"),
            prop('R{"bets"}=? [ F "ruin" | "rich" ]', reach_reward(m, rich | ruin, "bets"), "linear system, exact"),
            prop('P=? [ F<=12 "rich" ]', bounded_reach(m, rich, 12), "12 steps, exact"),
            prop('R{"wealth"}=? [ I=7 ]', instantaneous(m, "wealth", 7), "7 steps, exact"),
            prop('R{"bets"}=? [ C<=9 ]', cumulative(m, "bets", 9), "9 steps, exact"),
        ])

    # A birth-death chain: Ehrenfest's lazy urn.
    for n, name in ((6, "small"), (11, "large")):
        m = ehrenfest(n)
        full, empty = m.where(lambda k: k == n), m.where(lambda k: k == 0)
        add("ehrenfest.pm", f"N={n}", "explicit/ehrenfest_" + name, m, [
            long('S=? [ "full" ]', long_run(m, lambda s: F(1) if s in full else F(0))),
            long('S=? [ "empty" | "full" ]', long_run(m, lambda s: F(1) if s in full | empty else F(0))),
            long('R{"left"}=? [ S ]', long_run(m, lambda s: REWARDS["left"][0](*m.states[s]))),
            prop('R{"steps"}=? [ F "full" ]', reach_reward(m, full, "steps"), "linear system, exact"),
            prop('P=? [ F<=10 "full" ]', bounded_reach(m, full, 10), "10 steps, exact"),
            prop('R{"left"}=? [ I=8 ]', instantaneous(m, "left", 8), "8 steps, exact"),
        ])

    # M/M/1/K queues.
    for lam, mu, k, t, name in [(F(2), F(3), 5, 2, "light"), (F(3), F(2), 8, 1, "heavy")]:
        m = mm1k(lam, mu, k)
        full = m.where(lambda q: q == k)
        lo, hi, terms = time_bounded_reach(m, full, t)
        mid = (lo + hi) / 2
        stem = "mm1k_" + name
        add("mm1k.sm", f"lambda={lam},mu={mu},K={k}", "explicit/" + stem, m, [
            long('S=? [ "full" ]', long_run(m, lambda s: F(1) if s in full else F(0))),
            long('R{"customers"}=? [ S ]', long_run(m, lambda s: F(m.states[s][0]))),
            prop('R{"time"}=? [ F "full" ]', reach_reward(m, full, "time"), "embedded chain, linear system, exact"),
            prop('R{"customers"}=? [ F "full" ]', reach_reward(m, full, "customers"),
                 "embedded chain, linear system, exact"),
            (f'P=? [ F<={t} "full" ]', repr(float(mid)), f"[{float(lo)!r}, {float(hi)!r}]",
             f"uniformisation, {terms} terms, e^-qt enclosed: |value - exact| <= {float((hi - lo) / 2):.1e}"),
        ])

    # A primary and a spare machine (CTMC, two variables).
    m = repair()
    down = m.where(lambda a, b: a == 0 and b == 0)
    degraded = m.where(lambda a, b: a + b == 1)
    lo, hi, terms = time_bounded_reach(m, down, 10)
    REWARDS["cost"] = REWARDS["cost_repair"]
    add("repair.sm", "", "explicit/repair", m, [
        long('S=? [ !"down" ]', long_run(m, lambda s: F(0) if s in down else F(1))),
        long('R{"cost"}=? [ S ]', long_run(m, lambda s: REWARDS["cost"][0](*m.states[s]))),
        prop('R{"time"}=? [ F "down" ]', reach_reward(m, down, "time"), "embedded chain, linear system, exact"),
        prop('P=? [ !"down" U "degraded" ]', reach(m, degraded, set(range(m.n)) - down)[0],
             "embedded chain, linear system, exact"),
        ('P=? [ F<=10 "down" ]', repr(float((lo + hi) / 2)), f"[{float(lo)!r}, {float(hi)!r}]",
         f"uniformisation, {terms} terms, e^-qt enclosed: |value - exact| <= {float((hi - lo) / 2):.1e}"),
    ])

    # Three bottom SCCs and a deadlock.
    m = branches()
    cycle, stuck, pair = m.where(lambda s: 3 <= s <= 5), m.where(lambda s: s == 7), m.where(lambda s: s in (1, 2))
    add("branches.pm", "", "explicit/branches", m, [
        prop('P=? [ F "cycle" ]', reach(m, cycle)[0], "linear system, exact"),
        prop('P=? [ G !"stuck" ]', 1 - reach(m, stuck)[0], "1 - linear system, exact"),
        long('S=? [ "pair" ]', long_run(m, lambda s: F(1) if s in pair else F(0))),
        long('S=? [ s=4 ]', long_run(m, lambda s: F(1) if m.states[s][0] == 4 else F(0))),
        long('R{"r"}=? [ S ]', long_run(m, lambda s: REWARDS["r"][0](*m.states[s]))),
        prop('R{"steps"}=? [ F "stuck" ]', reach_reward(m, stuck, "steps"), "P(F \"stuck\") < 1"),
        prop('R{"steps"}=? [ F "pair" | "cycle" | "stuck" ]', reach_reward(m, pair | cycle | stuck, "steps"),
             "linear system, exact"),
        prop('P=? [ F<=4 "stuck" ]', bounded_reach(m, stuck, 4), "4 steps, exact"),
    ])

    # A gambler choosing her stakes (MDP).
    for p, n, start, name in [(F(2, 5), 8, 3, "unfair"), (F(3, 5), 6, 2, "favourable")]:
        m = bets(p, n, start)
        goal, broke = m.where(lambda x: x == n), m.where(lambda x: x == 0)
        REWARDS["staked"] = staked(n)
        pd = float(p)
        pi = "exact policy iteration"
        add("bets.nm", f"p={pd:g},N={n},start={start}", "explicit/bets_" + name, m, [
            prop('Pmax=? [ F "goal" ]', mdp_reach(m, goal, True)[0], pi),
            prop('Pmin=? [ F "goal" ]', mdp_reach(m, goal, False)[0], pi),
            prop('R{"bets"}max=? [ F "goal" | "broke" ]', mdp_reach_reward(m, goal | broke, "bets", True), pi),
            prop('R{"bets"}min=? [ F "goal" | "broke" ]', mdp_reach_reward(m, goal | broke, "bets", False), pi),
            prop('R{"staked"}max=? [ F "goal" | "broke" ]', mdp_reach_reward(m, goal | broke, "staked", True), pi),
            prop('Pmax=? [ F<=3 "goal" ]', mdp_bounded_reach(m, goal, 3, True), "3 steps, exact"),
            prop('Pmin=? [ F<=5 "goal" ]', mdp_bounded_reach(m, goal, 5, False), "5 steps, exact"),
        ])

    # End components.
    m = detour()
    goal, fail = m.where(lambda s: s == 4), m.where(lambda s: s == 5)
    REWARDS["cost"] = REWARDS["cost_detour"]
    pi = "exact policy iteration"
    add("detour.nm", "", "explicit/detour", m, [
        prop('Pmax=? [ F "goal" ]', mdp_reach(m, goal, True)[0], pi),
        prop('Pmin=? [ F "goal" ]', mdp_reach(m, goal, False)[0], pi + " (an end component avoids the goal)"),
        prop('Pmax=? [ F "fail" ]', mdp_reach(m, fail, True)[0], pi),
        prop('Pmin=? [ F "goal" | "fail" ]', mdp_reach(m, goal | fail, False)[0], pi),
        prop('Pmax=? [ !"fail" U "goal" ]', mdp_reach(m, goal, True, set(range(m.n)) - fail)[0], pi),
        prop('R{"cost"}min=? [ F "goal" ]', mdp_reach_reward(m, goal, "cost", False), pi),
        prop('R{"cost"}max=? [ F "goal" ]', mdp_reach_reward(m, goal, "cost", True), "Pmin=? [ F \"goal\" ] < 1"),
        prop('R{"cost"}min=? [ F "goal" | "fail" ]', mdp_reach_reward(m, goal | fail, "cost", False), pi),
        prop('Pmax=? [ F<=4 "goal" ]', mdp_bounded_reach(m, goal, 4, True), "4 steps, exact"),
    ])

    # Two dice, the scheduler choosing which flips (MDP).
    m = dice_pair()
    both = m.where(lambda s1, d1, s2, d2: s1 == 7 and s2 == 7)
    total = lambda v: m.where(lambda s1, d1, s2, d2: s1 == 7 and s2 == 7 and d1 + d2 == v)
    pi = "exact policy iteration"
    add("dice_pair.nm", "", "explicit/dice_pair", m, [
        prop('Pmin=? [ F "two" ]', mdp_reach(m, total(2), False)[0], pi),
        prop('Pmax=? [ F "seven" ]', mdp_reach(m, total(7), True)[0], pi),
        prop('Pmin=? [ F "doubles" ]',
             mdp_reach(m, m.where(lambda s1, d1, s2, d2: s1 == 7 and s2 == 7 and d1 == d2), False)[0], pi),
        prop('R{"flip"}min=? [ F "done" ]', mdp_reach_reward(m, both, "flip", False), pi),
        prop('R{"flip"}max=? [ F "done" ]', mdp_reach_reward(m, both, "flip", True), pi),
        prop('Pmax=? [ F<=6 "done" ]', mdp_bounded_reach(m, both, 6, True), "6 steps, exact"),
        prop('Pmin=? [ F<=6 "done" ]', mdp_bounded_reach(m, both, 6, False), "6 steps, exact"),
    ])

    # Randomised consensus (examples/consensus), K=2.
    m = consensus(2)
    fin = m.where(lambda c, p1, v1, p2, v2: p1 == 3 and p2 == 3)
    disagree = {s for s in fin if m.states[s][2] != m.states[s][4]}
    ones = {s for s in fin if m.states[s][2] == 1 and m.states[s][4] == 1}
    pi = "exact policy iteration"
    add("../../examples/consensus/consensus.nm", "K=2", "", m, [
        prop('Pmax=? [ F "finished" & !"agree" ]', mdp_reach(m, disagree, True)[0], pi),
        prop('Pmin=? [ F "finished" & "all_coins_equal_1" ]', mdp_reach(m, ones, False)[0], pi),
        prop('R{"steps"}max=? [ F "finished" ]', mdp_reach_reward(m, fin, "steps", True), pi),
        prop('R{"steps"}min=? [ F "finished" ]', mdp_reach_reward(m, fin, "steps", False), pi),
        prop('Pmax=? [ F<=20 "finished" ]', mdp_bounded_reach(m, fin, 20, True), "20 steps, exact"),
    ])
    return out


HEADER = ["source", "constants", "explicit", "type", "states", "transitions", "choices",
          "property", "value", "exact", "method"]


def manifest_text():
    lines = ["# pmc's self-contained reference set: written by tests/reference/exact_values.py, do not edit.",
             "# value: the exact value rounded to a double (CTMC time bounds: the middle of a rational",
             "# enclosure); exact: the rational, Infinity, or the enclosure; paths relative to tests/reference.",
             "\t".join(HEADER)]
    for source, constants, stem, m, props in rows():
        states, transitions, choices = m.counts()
        for text, value, exact, method in props:
            lines.append("\t".join(str(x) for x in [source, constants, stem, m.kind, states, transitions, choices,
                                                     text, value, exact, method]))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with manifest.tsv instead of writing it")
    ap.add_argument("--explicit", metavar="PMC", help="also write explicit/ with PMC convert")
    args = ap.parse_args()
    path = os.path.join(HERE, "manifest.tsv")
    text = manifest_text()
    if args.check:
        with open(path) as f:
            old = f.read()
        if old != text:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                       "manifest.tsv (committed)", "exact_values.py"))
            print("manifest.tsv differs from what exact_values.py computes")
            return 1
        print(f"manifest.tsv agrees with exact_values.py ({len(text.splitlines()) - 4} properties)")
        return 0
    with open(path, "w") as f:
        f.write(text)
    if args.explicit:
        seen = set()
        for line in text.splitlines()[4:]:
            source, constants, stem = line.split("\t")[:3]
            if not stem or stem in seen or not stem.startswith("explicit/"):
                continue
            seen.add(stem)
            os.makedirs(os.path.join(HERE, "explicit"), exist_ok=True)
            cmd = [args.explicit, "convert", os.path.join(HERE, source)]
            if constants:
                cmd += ["--const", constants]
            cmd.append(os.path.join(HERE, stem + ".tra"))
            subprocess.run(cmd, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
