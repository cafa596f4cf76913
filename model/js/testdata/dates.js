// Regenerates the expectations of node_dates.json: V8's Date.parse of each
// string, with local time Europe/Berlin and America/New_York (the zones the
// Go tests use).
//
//   node dates.js
'use strict'
const fs = require('fs')
const path = require('path')

// One entry per line keeps diffs readable.
const lines = list => '[\n' + list.map(x => JSON.stringify(x)).join(',\n') + '\n]\n'

const datesFile = path.join(__dirname, 'node_dates.json')
const dates = JSON.parse(fs.readFileSync(datesFile, 'utf8'))
for (const zone of ['Europe/Berlin', 'America/New_York']) {
    process.env.TZ = zone
    for (const d of dates) d[zone] = Date.parse(d.s)
}
fs.writeFileSync(datesFile, lines(dates))
