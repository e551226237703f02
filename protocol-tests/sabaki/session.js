// A scripted Sabaki session against warpstone, through Sabaki's own GTP
// controller (@sabaki/gtp): play, genmove, kata-analyze for a second
// stopped by `protocol_version` (as Sabaki stops an analysis), lz-analyze,
// and genmove_analyze. Every response is checked; any failure exits 1.
//
//   npm install @sabaki/gtp   (in any directory; point NODE_PATH at its node_modules)
//   node protocol-tests/sabaki/session.js target/release/warpstone
'use strict'

const assert = require('assert')
const {Controller} = require('@sabaki/gtp')

const VERTEX = /^(PASS|[A-HJ-Z](1[0-9]|2[0-5]|[1-9]))$/i
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

// Splits one analysis line into its `info` entries and the ownership list.
function parseInfoLine(line) {
  const [infos, ownership] = line.split(/ ownership /)
  const entries = infos
    .split(/(?:^| )info /)
    .filter(s => s.trim() !== '')
    .map(text => {
      const pvAt = text.indexOf(' pv ')
      const fields = (pvAt < 0 ? text : text.slice(0, pvAt)).trim().split(/\s+/)
      const entry = {pv: pvAt < 0 ? [] : text.slice(pvAt + 4).trim().split(/\s+/)}
      for (let i = 0; i + 1 < fields.length; i += 2) entry[fields[i]] = fields[i + 1]
      return entry
    })
  return {entries, ownership: ownership ? ownership.trim().split(/\s+/).map(Number) : null}
}

async function send(engine, name, args = [], subscriber) {
  const response = await engine.sendCommand({name, args}, subscriber)
  assert(!response.error, `${name} ${args.join(' ')} failed: ${response.content}`)
  return response.content
}

// Starts an analysis command, lets it run `ms`, stops it the way Sabaki
// does, and returns the analysis lines it streamed.
async function analyze(engine, name, args, ms) {
  const lines = []
  const running = engine.sendCommand({name, args}, evt => {
    if (evt.line.startsWith('info')) lines.push(evt.line)
  })
  await sleep(ms)
  const version = await send(engine, 'protocol_version')
  assert.strictEqual(version, '2', 'the command after an analysis gets its own answer')
  const response = await running
  assert(!response.error, `${name} failed: ${response.content}`)
  return lines
}

async function main() {
  const bin = process.argv[2] || 'target/release/warpstone'
  const engine = new Controller(bin, ['--threads', '1', '--seed', '1', '--playouts', '3000'])
  engine.start()
  try {
    assert.strictEqual(await send(engine, 'name'), 'Warpstone')
    await send(engine, 'boardsize', ['9'])
    await send(engine, 'clear_board')
    await send(engine, 'komi', ['7'])
    await send(engine, 'play', ['B', 'E5'])
    const reply = await send(engine, 'genmove', ['W'])
    assert(VERTEX.test(reply), `genmove answered ${reply}`)

    const kata = await analyze(engine, 'kata-analyze', ['B', '20', 'ownership', 'true'], 1000)
    assert(kata.length >= 2, `kata-analyze streamed ${kata.length} lines in 1 s`)
    for (const line of kata) {
      const {entries, ownership} = parseInfoLine(line)
      assert(entries.length > 0, `no candidates in: ${line}`)
      entries.forEach((e, order) => {
        assert(VERTEX.test(e.move), `bad move in ${line}`)
        assert(Number(e.visits) > 0, 'visits')
        const w = Number(e.winrate)
        assert(w >= 0 && w <= 1, `kata winrate ${e.winrate} not in [0,1]`)
        assert(Number.isFinite(Number(e.scoreLead)), 'scoreLead')
        assert.strictEqual(Number(e.order), order, 'order')
        assert(e.pv.length > 0 && e.pv[0].toUpperCase() === e.move.toUpperCase(), 'pv starts with the move')
      })
      assert(ownership && ownership.length === 81, 'ownership has one value per point')
      assert(ownership.every(v => v >= -1 && v <= 1), 'ownership values in [-1,1]')
    }

    const lz = await analyze(engine, 'lz-analyze', ['B', '20'], 500)
    assert(lz.length >= 1, 'lz-analyze streamed nothing')
    for (const line of lz) {
      for (const e of parseInfoLine(line).entries) {
        const w = Number(e.winrate)
        assert(Number.isInteger(w) && w >= 0 && w <= 10000, `lz winrate ${e.winrate}`)
        assert(Number.isInteger(Number(e.prior)), 'lz prior is an integer')
      }
    }

    const streamed = []
    const content = await send(engine, 'genmove_analyze', ['B', '10'], evt => {
      if (evt.line.startsWith('info')) streamed.push(evt.line)
    })
    const last = content.trim().split('\n').pop()
    const played = /^play (\S+)$/.exec(last)
    assert(played, `genmove_analyze ended with ${JSON.stringify(last)}`)
    assert(VERTEX.test(played[1]) || played[1] === 'resign', `played ${played[1]}`)
    if (played[1].toUpperCase() !== 'PASS' && played[1] !== 'resign') {
      const stones = (await send(engine, 'list_stones', ['black'])).split(/\s+/)
      assert(stones.includes(played[1].toUpperCase()), 'genmove_analyze played its move')
    }

    await send(engine, 'quit')
    console.log(
      `sabaki session: ok (kata-analyze ${kata.length} lines, lz-analyze ${lz.length}, ` +
        `genmove_analyze ${streamed.length} lines then ${last})`
    )
  } finally {
    await engine.stop().catch(() => {})
  }
}

main().catch(err => {
  console.error(`sabaki session: FAILED: ${err.stack || err}`)
  process.exit(1)
})
