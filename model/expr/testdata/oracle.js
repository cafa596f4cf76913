// Regenerates the expectations of node_oracle.json and node_dates.json from
// the reference implementation (OpenTOSCA Vintner 0.1.8) running on Node.js.
//
//   VINTNER_NODE_MODULES=<dir with opentosca-vintner, js-yaml> node oracle.js
//
// Value expressions are evaluated with the reference's own Solver methods
// (evaluateValueExpression, getInput) on documents loaded with js-yaml; date
// strings with Date.parse. Local time is Europe/Berlin (and America/New_York
// for the second date column); the Go tests use the same zones.
'use strict'
const fs = require('fs')
const path = require('path')

const modules = process.env.VINTNER_NODE_MODULES
if (!modules) throw new Error('set VINTNER_NODE_MODULES')
process.env.TZ = 'Europe/Berlin'
const yaml = require(path.join(modules, 'js-yaml'))
const Solver = require(path.join(modules, 'opentosca-vintner/build/resolver/solver.js')).default

function encode(v) {
    if (v === undefined) return 'undefined'
    if (typeof v === 'number') return Object.is(v, -0) ? 'num:-0' : 'num:' + String(v)
    if (v instanceof Date) return 'date:' + v.getTime()
    return JSON.stringify(v)
}

function evaluate(text) {
    const doc = yaml.load(text)
    const solver = Object.create(Solver.prototype)
    solver.options = {inputs: doc.inputs, expressions: doc.expressions}
    solver.inputs = doc.assigned || {}
    solver.weekday = 'weekday'
    try {
        const result = solver.evaluateValueExpression(doc.expr, {element: undefined})
        return {ok: encode(result), assigned: JSON.stringify(solver.inputs)}
    } catch (e) {
        return {err: e.message}
    }
}

// One entry per line keeps diffs readable.
const lines = list => '[\n' + list.map(x => JSON.stringify(x)).join(',\n') + '\n]\n'

const dir = __dirname
const oracle = path.join(dir, 'node_oracle.json')
const cases = JSON.parse(fs.readFileSync(oracle, 'utf8'))
for (const c of cases) c.want = evaluate(c.yaml)
fs.writeFileSync(oracle, lines(cases))

const datesFile = path.join(dir, 'node_dates.json')
const dates = JSON.parse(fs.readFileSync(datesFile, 'utf8'))
for (const zone of ['Europe/Berlin', 'America/New_York']) {
    process.env.TZ = zone
    for (const d of dates) d[zone] = Date.parse(d.s)
}
fs.writeFileSync(datesFile, lines(dates))
