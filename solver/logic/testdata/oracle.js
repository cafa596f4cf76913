#!/usr/bin/env node
// Oracle for package v4t/solver/logic: generates random logic-solver API
// programs, runs them through the real logic-solver 2.0.1 (with its
// Emscripten MiniSat) and records every result, so that the Go port can
// replay the programs and must reproduce the results exactly.
//
// Usage:
//   LOGIC_SOLVER=/path/to/node_modules/logic-solver \
//     node oracle.js [--seed N] [--scale K] [--profiles a,b] [--out FILE]
//
// Without --out the JSON goes to standard output; a FILE ending in .gz is
// gzipped. --scale multiplies the number of programs of every profile.
//
// Program format (JSON): {"name", "ops": [...], "res": [...], "end": [...]}.
// A value reference is a string (a NameTerm), a number (a NumTerm) or
// "#i", the value made by the i-th "f" op. Ops:
//   ["f", kind, ...]        construct a formula or Bits (result 0 or error)
//     kinds: not x | or/and/xor/exactlyOne/atMostOne [xs] | implies a b |
//            equiv a b | wsum [xs] [ws] | sum [xs] | const n | bits [xs] |
//            lt/lte/gt/gte/eqbits b1 b2
//   ["req", [xs]] ["forbid", [xs]]
//   ["solve"] ["sa", x]     solve / solveAssuming
//   ["min", [xs], [ws]] ["max", [xs], [ws]]  on the current solution
//   ["eval", x]             evaluate x in the current solution
//   ["ws", [xs], [ws]]      getWeightedSum in the current solution
//   ["var", name]           getVarNum(name)
// Results: solutions are [sha1(assignment bits)[0:16], numVars, decisions,
// conflicts, propagations, restarts, trueVars (only when numVars <= 64)]
// or null (the MiniSat counters are cumulative over the solver's life);
// errors are {"err": message}; other ops give their value or 0. "end" is
// [number of clauses, sha1(JSON of all clauses)[0:16]], followed by the
// clauses themselves with --clauses. --only NAME keeps just that program.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const zlib = require('zlib');

const dir = process.env.LOGIC_SOLVER;
if (!dir) {
    console.error('set LOGIC_SOLVER to the logic-solver package directory');
    process.exit(2);
}
const Logic = require(dir);

// ---------------------------------------------------------------- options
const argv = process.argv.slice(2);
const opt = {seed: 1, scale: 1, profiles: null, out: null, clauses: false, only: null};
for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seed') opt.seed = Number(argv[++i]);
    else if (a === '--scale') opt.scale = Number(argv[++i]);
    else if (a === '--profiles') opt.profiles = argv[++i].split(',');
    else if (a === '--out') opt.out = argv[++i];
    else if (a === '--clauses') opt.clauses = true;
    else if (a === '--only') opt.only = argv[++i];
    else {
        console.error('unknown argument ' + a);
        process.exit(2);
    }
}

// ---------------------------------------------------------------- random
function mulberry32(a) {
    return function () {
        a |= 0;
        a = (a + 0x6d2b79f5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

// ---------------------------------------------------------------- running
const sha = s => crypto.createHash('sha1').update(s).digest('hex').slice(0, 16);

function stats(solver) {
    const C = solver._minisat._C;
    const p = C.HEAP32[964];
    const u64 = off => C.HEAPU32[(p + off) >> 2] + C.HEAPU32[(p + off + 4) >> 2] * 4294967296;
    return [u64(168), u64(192), u64(184), u64(160)]; // decisions, conflicts, propagations, starts
}

function solutionResult(solver, sol) {
    if (!sol) return null;
    const a = sol._assignment;
    let bits = '';
    for (let i = 1; i < a.length; i++) bits += a[i] ? '1' : '0';
    const r = [sha(bits), a.length - 1, ...stats(solver)];
    if (a.length - 1 <= 64) r.push(sol.getTrueVars().join(','));
    return r;
}

function run(prog) {
    const s = new Logic.Solver();
    const vals = [];
    let cur = null;
    const ref = x => (typeof x === 'string' && x[0] === '#' ? vals[Number(x.slice(1))] : x);
    const refs = xs => xs.map(ref);
    const res = [];
    for (const op of prog.ops) {
        let r = 0;
        try {
            switch (op[0]) {
                case 'f':
                    vals.push(undefined);
                    vals[vals.length - 1] = construct(op, ref, refs);
                    break;
                case 'req':
                    s.require(refs(op[1]));
                    break;
                case 'forbid':
                    s.forbid(refs(op[1]));
                    break;
                default:
                    r = step(s, op, ref, refs, () => cur, c => (cur = c));
            }
        } catch (e) {
            r = {err: e.message};
        }
        res.push(r);
    }
    const clauses = s.clauses.map(c => c.terms);
    const end = [clauses.length, sha(JSON.stringify(clauses))];
    if (opt.clauses) end.push(clauses);
    return {res, end};
}

function construct(op, ref, refs) {
    const k = op[1];
    switch (k) {
        case 'not':
            return Logic.not(ref(op[2]));
        case 'or':
            return Logic.or(refs(op[2]));
        case 'and':
            return Logic.and(refs(op[2]));
        case 'xor':
            return Logic.xor(refs(op[2]));
        case 'exactlyOne':
            return Logic.exactlyOne(refs(op[2]));
        case 'atMostOne':
            return Logic.atMostOne(refs(op[2]));
        case 'implies':
            return Logic.implies(ref(op[2]), ref(op[3]));
        case 'equiv':
            return Logic.equiv(ref(op[2]), ref(op[3]));
        case 'wsum':
            return Logic.weightedSum(refs(op[2]), op[3]);
        case 'sum':
            return Logic.sum(refs(op[2]));
        case 'const':
            return Logic.constantBits(op[2]);
        case 'bits':
            return new Logic.Bits(refs(op[2]));
        case 'lt':
            return Logic.lessThan(ref(op[2]), ref(op[3]));
        case 'lte':
            return Logic.lessThanOrEqual(ref(op[2]), ref(op[3]));
        case 'gt':
            return Logic.greaterThan(ref(op[2]), ref(op[3]));
        case 'gte':
            return Logic.greaterThanOrEqual(ref(op[2]), ref(op[3]));
        case 'eqbits':
            return Logic.equalBits(ref(op[2]), ref(op[3]));
    }
    throw new Error('oracle: unknown kind ' + k);
}

function step(s, op, ref, refs, getCur, setCur) {
    switch (op[0]) {
        case 'solve': {
            const sol = s.solve();
            if (sol) setCur(sol);
            return solutionResult(s, sol);
        }
        case 'sa': {
            const sol = s.solveAssuming(ref(op[1]));
            if (sol) setCur(sol);
            return solutionResult(s, sol);
        }
        case 'min':
        case 'max': {
            const cur = getCur();
            const sol = op[0] === 'min'
                ? s.minimizeWeightedSum(cur, refs(op[1]), op[2])
                : s.maximizeWeightedSum(cur, refs(op[1]), op[2]);
            setCur(sol);
            return solutionResult(s, sol);
        }
        case 'eval':
            return getCur().evaluate(ref(op[1]));
        case 'ws':
            return getCur().getWeightedSum(refs(op[1]), op[2]);
        case 'var':
            return s.getVarNum(op[1]);
    }
    throw new Error('oracle: unknown op ' + op[0]);
}

// ---------------------------------------------------------------- generating
class Gen {
    constructor(rng, names) {
        this.rng = rng;
        this.names = names;
        this.ops = [];
        this.nf = 0;
        this.pool = []; // refs of made formulas, for reuse
        this.solved = false;
    }
    int(a, b) {
        return a + Math.floor(this.rng() * (b - a + 1));
    }
    pick(xs) {
        return xs[Math.floor(this.rng() * xs.length)];
    }
    chance(p) {
        return this.rng() < p;
    }
    f(kind, ...args) {
        this.ops.push(['f', kind, ...args]);
        return '#' + this.nf++;
    }
    lit() {
        const r = this.rng();
        if (r < 0.02) return this.pick(['$T', '$F', '-$T', '-$F']);
        if (r < 0.03) return this.pick([1, 2, -1, -2]);
        const n = this.pick(this.names);
        if (r < 0.04) return '--' + n;
        return this.chance(0.5) ? n : '-' + n;
    }
    argCount() {
        const r = this.rng();
        if (r < 0.04) return 0;
        if (r < 0.12) return 1;
        if (r < 0.42) return 2;
        if (r < 0.67) return 3;
        if (r < 0.95) return this.int(4, 8);
        return this.int(9, 14);
    }
    formula(d) {
        if (d <= 0 || this.chance(0.25)) {
            if (this.pool.length && this.chance(0.3)) return this.pick(this.pool);
            return this.lit();
        }
        const kind = this.pick(['or', 'and', 'not', 'xor', 'exactlyOne', 'atMostOne', 'implies', 'equiv', 'or', 'and']);
        let r;
        if (kind === 'not') r = this.f('not', this.formula(d - 1));
        else if (kind === 'implies' || kind === 'equiv') r = this.f(kind, this.formula(d - 1), this.formula(d - 1));
        else {
            const n = this.argCount();
            const xs = [];
            for (let i = 0; i < n; i++) xs.push(this.formula(d - 1));
            r = this.f(kind, xs);
        }
        this.pool.push(r);
        return r;
    }
    // mention all names once, in a clause satisfied by $T, so that later
    // evaluations know them
    mentionAll() {
        this.ops.push(['req', [this.f('or', this.names.concat(['$T']))]]);
    }
    weight() {
        const r = this.rng();
        if (r < 0.15) return 0;
        if (r < 0.5) return this.int(1, 3);
        if (r < 0.8) return this.int(1, 100);
        if (r < 0.95) return this.pick([100, 200, 1000, 65535, 65536]);
        return this.pick([1 << 20, (1 << 30) + 7, 1 << 30]);
    }
    terms(n, d) {
        const xs = [];
        for (let i = 0; i < n; i++) xs.push(this.chance(0.6) ? this.lit() : this.formula(d));
        return xs;
    }
    weights(n) {
        if (this.chance(0.3)) {
            const w = this.chance(0.8) ? 1 : this.weight();
            return Array(n).fill(w);
        }
        const ws = [];
        for (let i = 0; i < n; i++) ws.push(this.weight());
        return ws;
    }
    bits(d) {
        const r = this.rng();
        if (r < 0.4) {
            const n = this.int(0, 6);
            return this.f('wsum', this.terms(n, d), this.weights(n).map(w => w % 50));
        }
        if (r < 0.6) return this.f('sum', this.terms(this.int(0, 6), d));
        if (r < 0.8) return this.f('const', this.int(0, 40));
        return this.f('bits', this.terms(this.int(0, 4), d));
    }
    solve() {
        this.ops.push(['solve']);
        this.solved = true;
    }
    optimize(terms, weights) {
        if (!this.solved) this.solve();
        this.ops.push([this.chance(0.6) ? 'min' : 'max', terms, weights]);
    }
    randomOp(d) {
        const r = this.rng();
        if (r < 0.33) this.ops.push(['req', [this.formula(d)]]);
        else if (r < 0.36) this.ops.push(['req', [this.formula(d), this.formula(d)]]);
        else if (r < 0.42) this.ops.push(['forbid', [this.formula(d)]]);
        else if (r < 0.56) this.solve();
        else if (r < 0.68) this.ops.push(['sa', this.formula(d)]);
        else if (r < 0.8) {
            const n = this.int(0, 8);
            this.optimize(this.terms(n, d - 1), this.weights(n));
        } else if (r < 0.85) {
            if (!this.solved) this.solve();
            this.ops.push(['eval', this.chance(0.1) ? this.pick(['nobody', 'x-y z']) : this.formula(d)]);
        } else if (r < 0.87) {
            if (!this.solved) this.solve();
            const n = this.int(0, 5);
            this.ops.push(['ws', this.terms(n, d - 1), this.weights(n).map(w => w % 1000)]);
        } else if (r < 0.94) {
            const k = this.pick(['lt', 'lte', 'gt', 'gte', 'eqbits']);
            const x = this.f(k, this.bits(d - 1), this.bits(d - 1));
            this.ops.push([this.chance(0.8) ? 'req' : 'forbid', [x]]);
        } else if (r < 0.95) {
            this.ops.push(['var', this.pick(['$x', 'fresh', this.pick(this.names), '$T'])]);
        } else if (r < 0.96) {
            // invalid operands: construction errors (never referenced)
            this.f('or', [this.lit(), this.pick(['12', '', '-', '--3'])]);
        } else if (r < 0.97) {
            this.ops.push(['req', [this.pick(['$hidden', '-$x', 'ok'])]]);
        } else this.solve();
    }
}

const ODD = ['a b', 'é', 'Z', '_', '😀', '\uffee', 'x$1', '-'.repeat(0) + 'q'];

function names(prefix, n, rng, odd) {
    const xs = [];
    for (let i = 0; i < n; i++) xs.push(prefix + i);
    if (odd) for (const o of ODD) if (rng() < 0.3) xs.push(o);
    return xs;
}

const profiles = {
    // few variables, many ties
    tiny: {
        count: 1400,
        make(rng) {
            const g = new Gen(rng, ['a', 'b', 'c', 'd', 'e', 'f'].slice(0, 2 + Math.floor(rng() * 5)));
            if (g.chance(0.6)) g.mentionAll();
            const n = g.int(2, 14);
            for (let i = 0; i < n; i++) g.randomOp(g.int(1, 3));
            if (!g.ops.some(o => o[0] === 'solve')) g.solve();
            return g.ops;
        },
    },
    small: {
        count: 550,
        make(rng) {
            const g = new Gen(rng, names('x', rng() < 0.5 ? 8 : 20, rng, rng() < 0.3));
            if (g.chance(0.7)) g.mentionAll();
            const n = g.int(5, 40);
            for (let i = 0; i < n; i++) g.randomOp(g.int(1, 4));
            g.solve();
            return g.ops;
        },
    },
    // shaped like the reference resolver's use: presence conditions,
    // technologies with mutually exclusive conditions, optimisation and
    // uniqueness checks with solveAssuming
    resolver: {
        count: 400,
        make(rng) {
            const g = new Gen(rng, []);
            const inputs = names('p', g.int(1, 6), rng, false);
            g.names = inputs;
            const nodes = names('node', g.int(2, 14), rng, false);
            const techs = [];
            for (const n of nodes) {
                if (g.chance(0.5)) g.ops.push(['req', [g.f('equiv', n, g.formula(2))]]);
                else if (g.chance(0.5)) g.ops.push(['req', [g.f('implies', n, g.pick(nodes))]]);
                const k = g.int(0, 3);
                const ts = [];
                for (let j = 0; j < k; j++) ts.push(n + '_t' + j);
                for (let j = 0; j < k; j++) {
                    const others = ts.filter((_, i) => i !== j).map(t => g.f('not', t));
                    const cond = g.chance(0.5) ? g.formula(1) : '$T';
                    g.ops.push(['req', [g.f('equiv', ts[j], g.f('and', [n, cond].concat(others)))]]);
                }
                if (k > 0 && g.chance(0.7)) g.ops.push(['req', [g.f('implies', n, g.f('exactlyOne', ts))]]);
                techs.push(...ts);
            }
            if (g.chance(0.5)) g.ops.push(['req', [g.pick(nodes)]]);
            g.solve();
            const nodeW = g.chance(0.5) ? Array(nodes.length).fill(1) : nodes.map(() => g.int(0, 5) * 100);
            g.ops.push([g.chance(0.8) ? 'min' : 'max', nodes, nodeW]);
            const present = nodes.filter(() => g.chance(0.5));
            const absent = nodes.filter(n => !present.includes(n));
            g.ops.push(['sa', g.f('not', g.f('and', [g.f('and', present), g.f('not', g.f('or', absent))]))]);
            if (techs.length) {
                g.ops.push(['max', techs, techs.map(() => g.int(0, 3) * 100)]);
                const groups = [];
                for (const n of nodes) {
                    const ts = techs.filter(t => t.startsWith(n + '_'));
                    if (ts.length) groups.push(g.f('or', ts));
                }
                g.ops.push(['min', groups, Array(groups.length).fill(1)]);
                const tp = techs.filter(() => g.chance(0.5));
                const ta = techs.filter(t => !tp.includes(t));
                const conj = g.f('and', [g.f('and', tp), g.f('not', g.f('or', ta))]);
                g.ops.push(['sa', g.f('not', g.f('and', [conj]))]);
            }
            g.ops.push(['solve']);
            for (const n of nodes.slice(0, 3)) g.ops.push(['eval', n]);
            return g.ops;
        },
    },
    // random 3-SAT around the threshold: conflicts, restarts, learnt clause
    // reduction, garbage collection, simplification
    sat3: {
        count: 60,
        make(rng, i) {
            const g = new Gen(rng, []);
            const n = 20 + Math.floor((i / this.count) * 180) + g.int(0, 20);
            g.names = names('v', n, rng, false);
            const ratio = 3.6 + rng() * 0.9;
            const m = Math.round(n * ratio);
            for (let j = 0; j < m; j++) {
                const c = [g.lit(), g.lit(), g.lit()];
                if (g.chance(0.1)) g.ops.push(['req', [g.f('or', c)]]);
                else g.ops.push(['req', [g.f('or', c)]]);
            }
            g.solve();
            const k = g.int(3, 14);
            const ts = [];
            for (let j = 0; j < k; j++) ts.push(g.lit());
            g.optimize(ts, g.weights(k).map(w => (w > 1000 ? w % 1000 : w)));
            g.ops.push(['sa', g.f('and', [g.lit(), g.lit(), g.lit()])]);
            for (let j = 0; j < 5; j++) g.ops.push(['req', [g.f('or', [g.lit(), g.lit()])]]);
            g.solve();
            return g.ops;
        },
    },
    // larger random 3-SAT with a few formula layers on top
    big: {
        count: 5,
        make(rng, i) {
            const g = new Gen(rng, []);
            const n = 250 + (i % 5) * 30;
            g.names = names('w', n, rng, false);
            const m = Math.round(n * (4.15 + rng() * 0.15));
            for (let j = 0; j < m; j++) g.ops.push(['req', [g.f('or', [g.lit(), g.lit(), g.lit()])]]);
            for (let j = 0; j < 10; j++) g.ops.push(['req', [g.formula(3)]]);
            g.solve();
            g.ops.push(['sa', g.f('and', [g.lit(), g.lit(), g.lit(), g.lit()])]);
            const k = g.int(4, 10);
            const ts = [];
            for (let j = 0; j < k; j++) ts.push(g.lit());
            g.optimize(ts, Array(k).fill(1));
            g.solve();
            return g.ops;
        },
    },
    // pigeons into one hole too few, plus a spare hole behind a variable:
    // the first solveAssuming refutes a pigeonhole problem (tens of
    // thousands of conflicts, clause activity rescaling, failing
    // assumption), the solver then goes on with its learnt clauses
    php: {
        count: 5,
        make(rng, i) {
            const g = new Gen(rng, []);
            const P = 7 + (i % 3) + (this.extra || 0);
            const H = P - 1;
            const x = (p, h) => 'x' + p + '_' + h;
            for (let p = 0; p < P; p++) {
                const xs = [];
                for (let h = 0; h < H; h++) xs.push(x(p, h));
                xs.push('y' + p);
                g.ops.push(['req', [g.f('or', xs)]]);
                g.ops.push(['req', [g.f('implies', 'y' + p, 'spare')]]);
            }
            for (let h = 0; h < H; h++) {
                const xs = [];
                for (let p = 0; p < P; p++) xs.push(x(p, h));
                g.ops.push(['req', [g.f('atMostOne', xs)]]);
            }
            const ys = [];
            for (let p = 0; p < P; p++) ys.push('y' + p);
            g.ops.push(['req', [g.f('atMostOne', ys)]]);
            g.ops.push(['sa', '-spare']);
            g.ops.push(['solve']);
            g.ops.push(['min', ys, ys.map(() => g.int(1, 9))]);
            g.ops.push(['sa', g.f('and', [x(0, 0), x(1, 1)])]);
            g.ops.push(['max', ys.concat(['spare']), ys.map(() => 1).concat([5])]);
            g.ops.push(['solve']);
            return g.ops;
        },
    },
};

// on demand only (--profiles hard): about a million conflicts
profiles.hard = Object.assign({}, profiles.php, {count: 1, extra: 3});

// ---------------------------------------------------------------- main
function main() {
    const programs = [];
    const names = opt.profiles || Object.keys(profiles).filter(p => p !== 'hard');
    for (const pname of names) {
        const p = profiles[pname];
        if (!p) throw new Error('unknown profile ' + pname);
        const count = Math.max(1, Math.round(p.count * opt.scale));
        for (let i = 0; i < count; i++) {
            const seed = (opt.seed * 1000003 + i * 7919 + pname.length * 104729) | 0;
            const rng = mulberry32(seed);
            const ops = p.make(rng, i);
            if (opt.only && opt.only !== pname + '-' + i) continue;
            const {res, end} = run({ops});
            programs.push({name: pname + '-' + i, ops, res, end});
        }
    }
    const json = JSON.stringify({seed: opt.seed, programs});
    if (!opt.out) process.stdout.write(json + '\n');
    else if (opt.out.endsWith('.gz')) fs.writeFileSync(opt.out, zlib.gzipSync(json, {level: 9}));
    else fs.writeFileSync(opt.out, json);
}

main();
