// Resolve generated cases with the reference, in one Node.js process:
//   node resolve-cases.js JOBS.json
// For every job {dir, text, inputsText?, presets?} it writes DIR/template.yaml, DIR/inputs.yaml,
// DIR/test.yaml (with the reference's error, if any) and DIR/expected.yaml (the reference's result).
// reference's result as expected.yaml (or test.yaml error).
'use strict'
const fs = require('fs'), path = require('path'), os = require('os')
const PKG = process.env.VINTNER_PKG || path.join(process.env.VINTNER_DIR || path.join(os.homedir(), '.cache', 'v4t', 'vintner'), 'node_modules', 'opentosca-vintner')
process.env.OPENTOSCA_VINTNER_HOME_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'vintner-home-'))
const yaml = require(require.resolve('js-yaml', {paths: [PKG]}))
const resolve = require(path.join(PKG, 'build/controller/template/resolve')).default
const testmod = require(path.join(PKG, 'build/controller/template/test'))

async function main() {
    const [jobsFile] = process.argv.slice(2)
    const jobs = JSON.parse(fs.readFileSync(jobsFile, 'utf8'))
    let i = 0
    for (const job of jobs) {
        i++
        fs.mkdirSync(job.dir, {recursive: true})
        const tpl = path.join(job.dir, 'template.yaml')
        fs.writeFileSync(tpl, job.text)
        const test = {}
        if (job.presets && job.presets.length) test.presets = job.presets
        if (job.inputsText !== undefined) fs.writeFileSync(path.join(job.dir, 'inputs.yaml'), job.inputsText)
        const out = path.join(job.dir, 'expected.yaml')
        try {
            await resolve({template: tpl, presets: job.presets || [], inputs: job.inputsText !== undefined ? path.join(job.dir, 'inputs.yaml') : undefined, output: out, enrich: true})
        } catch (e) {
            test.error = e.message
            try { fs.unlinkSync(out) } catch (x) {}
        }
        fs.writeFileSync(path.join(job.dir, 'test.yaml'), yaml.dump(test))
        if (i % 200 === 0) console.error(`${i}/${jobs.length}`)
    }
}
main().catch(e => { console.error(e); process.exit(2) })
