// Random Variability4TOSCA templates for differential testing against the reference:
//   node random.js OUT_DIR JOBS.json COUNT SEED
// writes COUNT jobs (template text, inputs, presets) for resolve-cases.js.
const fs = require('fs'), path = require('path'), os = require('os')
const PKG = process.env.VINTNER_PKG || path.join(process.env.VINTNER_DIR || path.join(os.homedir(), '.cache', 'v4t', 'vintner'), 'node_modules', 'opentosca-vintner')
const yaml = require(require.resolve('js-yaml', {paths: [PKG]}))
const [outDir, jobsFile, countArg, seedArg] = process.argv.slice(2)
let seed = Number(seedArg || 1)
// mulberry32: the linear congruential generator used before repeated its
// low bits, so corner cases came in fixed patterns.
function rnd() {
    seed = (seed + 0x6D2B79F5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
function ri(n) { return Math.floor(rnd() * n) }
function pick(a) { return a[ri(a.length)] }
function chance(p) { return rnd() < p }

const versions = ['tosca_variability_1_0', 'tosca_variability_1_0_rc_2', 'tosca_variability_1_0_rc_3']
const modes = ['manual', 'consistent-strict', 'consistent-loose', 'default', 'semantic-strict', 'semantic-loose', undefined]
const nodeModes = ['incoming', 'incomingnaive', 'outgoing', 'artifact', 'host', 'incoming-artifact', 'incomingnaive-artifact-host', 'source', 'outgoingnaive-host', 'artifactnaive']

// CORNERS=1 (the default) mixes one to three corner cases into most
// templates: per-element default condition modes on every kind, invalid
// option values, nulls and wrong shapes at every level, technology rules
// with "*" and hosting cycles, and variability groups (issue 16).
const corners = process.env.CORNERS !== '0'
// SCALE=K multiplies the numbers of nodes, properties, requirements and
// artifacts by K, and LISTS=1 makes some conditions lists of up to a dozen
// conditions: larger elements than the default's (a list cutter that failed
// only from five entries on went unnoticed), with defaults and hosting
// relations rarer so that more of them still resolve. Both off, the jobs
// of a seed are those of the generator before them.
const scale = Math.max(1, Number(process.env.SCALE || 1))
const lists = process.env.LISTS === '1'
const kinds = ['node', 'relation', 'property', 'artifact', 'technology', 'policy', 'group', 'type', 'input', 'output']
const anyModes = ['container', 'incoming', 'managed', 'source-target', 'bogus', 7, null, 'artifact', 'incomingnaive']
function nodeOf(doc, names) { return doc.topology_template.node_templates[pick(names)] }
function corner(doc, names, cond) {
    const tt = doc.topology_template
    const opts = tt.variability.options
    // Options replaced by a wrong shape earlier take no more settings.
    const o = opts && typeof opts === 'object' && !Array.isArray(opts) ? opts : {}
    const n = nodeOf(doc, names)
    switch (ri(16)) {
    case 0: // a per-kind default condition mode option, valid or not
        o[`${pick(kinds)}_default_condition_mode`] = pick(anyModes); break
    case 1: { // a default_condition_mode on an element of another kind
        const e = pick([n.artifacts, n.technology, n.properties, n.requirements].filter(Array.isArray))
        if (e && e.length) { const item = e[0]; const v = item && typeof item === 'object' ? Object.values(item)[0] : undefined; if (v && typeof v === 'object') v.default_condition_mode = pick(anyModes) }
        else n.default_condition_mode = pick(anyModes)
        break }
    case 2: // invalid option values
        o[pick(['mode', 'optimization_topology', 'optimization_technologies', 'node_default_condition', 'pruning', 'checks', 'enrich_technologies'])] = pick(['bogus', 3, [], {}, null, 'true']); break
    case 3: // options or variability of the wrong shape
        if (chance(0.5)) tt.variability.options = pick([true, 'x', [], null, 5]); else tt.variability.inputs.a = null; break
    case 4: // nulls inside conditions, even where they are never evaluated
        n.conditions = pick([{in_range: [1, [0, null]]}, {and: [true, null]}, {equal: [null, 1]}, null, [null]]); break
    case 5: // a string where a map is expected
        n.properties = pick(['abc', 'x']); break
    case 6: // a string entry in a type list, an element list entry of the wrong kind
        n.type = [pick(['app', 'vm']), {db: {conditions: cond()}}]; break
    case 7: // outputs and imports of odd shapes
        if (chance(0.5)) tt.outputs = pick([5, 'x', [], null]); else doc.imports = [['x.yaml'], 'y.yaml', null].slice(0, 1 + ri(3)); break
    case 8: { // a hosting cycle
        const [a, b] = [pick(names), pick(names)]
        const na = tt.node_templates[a], nb = tt.node_templates[b]
        na.requirements = (na.requirements || []).concat([{host: b}])
        if (a !== b) nb.requirements = (nb.requirements || []).concat([{host: a}])
        break }
    case 9: // technology rules with "*"
        tt.variability.qualities = [
            {technology: 'ansible', component: pick(['app', 'runtime', 'db']), hosting: pick([['*', 'vm'], ['*'], ['runtime', '*', 'vm'], ['*', '*']]), weight: pick([0.5, 1])},
            {technology: 'terraform', component: pick(['app', 'vm']), hosting: pick([['vm'], ['*'], ['*', 'db']])},
        ]
        o.enrich_technologies = chance(0.8)
        break
    case 10: { // a variability group with properties, and a get_property naming it
        tt.groups = {vg: {type: 'variability.groups.ConditionalMembers', members: [pick(names)], conditions: cond(),
            ...(chance(0.5) ? {properties: [{gp: {value: {get_input: 'in1'}}}]} : {})}}
        if (chance(0.5)) tt.outputs = {og: {value: {get_property: ['vg', 'gp']}}}
        break }
    case 11: // inputs consumed only by a variability group's property
        tt.groups = {vg: {type: 'variability.groups.ConditionalMembers', members: [pick(names)], properties: [{gp: {value: {get_input: 'in1'}}}]}}
        o.input_pruning = true
        break
    case 12: // implies of odd shapes
        n.implies = pick([5, 'x', [5], [[]], [[pick(names), true, true]], null]); break
    case 13: // per-element switches of odd values
        n[pick(['pruning', 'default_condition', 'persistent', 'weight'])] = pick(['yes', null, [], -1, 'NaN']); break
    case 14: // technologies of odd shapes
        n.technology = pick([true, 'ansible', [{ansible: null}], [{ansible: {conditions: null}}], [null]]); break
    default: // a requirement of odd shape
        n.requirements = [pick([{host: null}, {host: {node: null}}, {host: 5}, 'x', null])]
    }
}

function gen(i) {
    const inputs = {a: {type: 'boolean'}, b: {type: 'boolean'}, n: {type: 'integer'}}
    const assign = {a: chance(0.5), b: chance(0.5), n: ri(4)}
    function cond() {
        if (lists && chance(0.2)) return Array.from({length: 1 + ri(12)}, one)
        return one()
    }
    function one() {
        const r = ri(12)
        if (r === 0) return true
        if (r === 1) return false
        if (r < 5) return {variability_input: pick(['a', 'b'])}
        if (r < 7) return {not: {variability_input: pick(['a', 'b'])}}
        if (r < 9) return {equal: [{variability_input: 'n'}, ri(4)]}
        if (r < 10) return {greater: [{variability_input: 'n'}, ri(3)]}
        if (r < 11) return {and: [{variability_input: 'a'}, {variability_input: 'b'}]}
        return {or: [{variability_input: 'a'}, {not: {variability_input: 'b'}}]}
    }
    const version = pick(versions)
    const nNodes = 2 + ri(5 * scale)
    const names = Array.from({length: nNodes}, (_, k) => `n${k}`)
    const types = ['app', 'runtime', 'vm', 'db']
    const node_types = {app: {derived_from: 'tosca.nodes.Root'}, runtime: {derived_from: 'tosca.nodes.Root'}, vm: {derived_from: 'tosca.nodes.Root'}, db: {derived_from: 'tosca.nodes.Root'}}
    if (chance(0.3)) node_types.vm.metadata = {vintner_abstract: 'true'}
    const artifact_types = {zip: {derived_from: 'tosca.artifacts.Root'}, jar: {derived_from: 'zip'}}
    const nodes = {}
    const rts = {}
    let rtCount = 0
    for (const [k, name] of names.entries()) {
        const t = {}
        if (chance(0.05)) t.type = [{[pick(types)]: {conditions: cond()}}, {[pick(types)]: chance(0.5) ? {default_alternative: true} : {conditions: cond()}}]
        else t.type = pick(types)
        if (chance(0.4)) t.conditions = cond()
        if (chance(0.25) || k === 0) t.persistent = true
        if (chance(0.1)) t.weight = pick([0, 0.5, 1])
        if (chance(0.2)) t.default_condition_mode = pick(nodeModes)
        if (chance(0.1)) t.pruning = chance(0.5)
        if (chance(0.1)) t.default_condition = chance(0.5)
        const props = []
        const np = ri(3 * scale)
        for (let p = 0; p < np; p++) {
            const pn = pick(['p', 'q', 'r'])
            const e = {value: pick([1, 'x', true, [1, 2], {get_input: 'in0'}])}
            if (chance(0.5)) e.conditions = cond()
            if (chance(0.15 / scale)) e.default_alternative = true
            if (chance(0.1)) e.implied = false
            if (chance(0.1)) { delete e.value; e.expression = {concat: ['v', {variability_input: 'n'}]} }
            props.push({[pn]: e})
        }
        if (props.length) t.properties = chance(0.2) ? Object.fromEntries(props.map(x => [Object.keys(x)[0], 5])) : props
        const reqs = []
        const nr = ri(3 * scale)
        for (let r = 0; r < nr; r++) {
            const target = pick(names.filter(x => x !== name))
            const rn = pick(scale > 1 ? ['host', 'connects', 'uses', 'depends'] : ['host', 'host', 'connects', 'uses'])
            const e = {node: target}
            if (chance(0.6)) e.conditions = cond()
            if (chance(0.1 / scale)) e.default_alternative = true
            if (chance(0.1)) e.implied = pick([true, false])
            if (chance(0.2)) { const r2 = `rt${rtCount++}`; e.relationship = r2; rts[r2] = {type: pick(['rtype', 'rtype2']), ...(chance(0.5) ? {properties: [{w: {value: 1, conditions: cond()}}]} : {})} }
            reqs.push({[rn]: chance(0.2) && !e.relationship && !e.conditions ? target : e})
        }
        if (reqs.length) t.requirements = reqs
        if (chance(0.3)) {
            const arts = []
            for (let a = 0; a < 1 + ri(2 * scale); a++) {
                const e = {type: pick(['zip', 'jar']), file: 'f'}
                if (chance(0.5)) e.conditions = cond()
                if (chance(0.1 / scale)) e.default_alternative = true
                arts.push({[pick(['art', 'bin'])]: e})
            }
            t.artifacts = arts
        }
        if (chance(0.1)) {
            t.technology = []
            for (let a = 0; a < 1 + ri(2); a++) {
                const e = {}
                if (chance(0.5)) e.conditions = cond()
                if (chance(0.3)) e.weight = pick([0.5, 1])
                t.technology.push({[pick(['ansible', 'terraform'])]: e})
            }
        }
        if (chance(0.1)) t.managed = chance(0.5)
        if (chance(0.05)) t.implies = [[pick(names), cond()]]
        nodes[name] = t
    }
    const tt = {variability: {inputs, options: {}}, node_templates: nodes}
    if (Object.keys(rts).length) tt.relationship_templates = rts
    const o = tt.variability.options
    const mode = pick(modes)
    if (mode) o.mode = mode
    for (const k of ['node_default_condition', 'relation_default_condition', 'type_default_condition', 'property_default_condition', 'artifact_default_condition',
        'node_pruning', 'relation_pruning', 'hosting_stack_constraint', 'unique_property_constraint', 'required_incoming_relation_constraint', 'required_artifact_constraint',
        'checks', 'persistent_check', 'optimization_topology_unique', 'optimization_technologies_unique', 'relation_default_implied', 'technology_constraint',
        'expected_incoming_relation_check', 'expected_hosting_check', 'input_pruning', 'output_pruning', 'enrich_technologies', 'constraints']) {
        if (chance(0.12)) o[k] = chance(0.5)
        if (k === 'checks' && chance(0.4)) o[k] = false
    }
    if (chance(0.2)) o.node_default_condition_mode = pick(nodeModes)
    if (chance(0.2)) o.optimization_topology = pick([true, false, 'min', 'max'])
    if (chance(0.1)) o.optimization_topology_mode = pick(['weight', 'count'])
    if (chance(0.15)) o.optimization_technologies = pick([true, false, 'min', 'max'])
    if (chance(0.1)) o.artifact_default_condition_mode = pick(['container', 'managed', 'container-managed'])
    if (chance(0.15)) {
        tt.variability.qualities = [
            {technology: 'ansible', component: 'app', hosting: ['vm'], weight: pick([0.5, 1])},
            {technology: 'terraform', component: 'vm', weight: 1},
            {technology: 'ansible', component: 'runtime', artifact: 'zip', hosting: ['*', 'vm']},
            {technology: 'terraform', component: 'tosca.nodes.Root'},
        ].filter(() => chance(0.7))
    }
    if (chance(0.15)) tt.variability.type_specific_conditions = {node_types: {db: {conditions: {has_incoming_relation: 'SELF'}}}}
    if (true) tt.inputs = {in0: {type: 'string', ...(chance(0.3) ? {conditions: cond()} : {})}, in1: {type: 'string'}}
    if (chance(0.3)) tt.outputs = {o0: {value: {get_property: [pick(names), 'p']}, ...(chance(0.3) ? {conditions: cond()} : {})}}
    if (chance(0.2)) tt.groups = {g0: {type: pick(['tosca.groups.Root', 'variability.groups.ConditionalMembers']), members: [pick(names)], conditions: cond()}}
    if (chance(0.2)) tt.policies = [{pol: {type: 'tosca.policies.Root', targets: [pick(names)], conditions: cond()}}]
    if (chance(0.2)) tt.variability.constraints = [{implies: [`node.${pick(names)}`, `node.${pick(names)}`]}]
    const doc = {tosca_definitions_version: version, node_types, artifact_types, relationship_types: {rtype: {}, rtype2: {derived_from: 'rtype'}}, topology_template: tt}
    if (chance(0.2)) doc.imports = [{file: 'x.yaml', conditions: cond()}, 'y.yaml']
    if (corners && chance(0.6)) for (let c = 1 + ri(3); c > 0; c--) corner(doc, names, cond)
    return {dir: path.join(outDir, 'random', `r${String(i).padStart(5, '0')}`), text: yaml.dump(doc, {lineWidth: -1, noRefs: true}), inputsText: yaml.dump(assign), presets: []}
}
const jobs = []
for (let i = 0; i < Number(countArg); i++) jobs.push(gen(i))
fs.writeFileSync(jobsFile, JSON.stringify(jobs))
console.error(`${jobs.length} jobs`)
