// A scripted Sabaki session against warpstone, through Sabaki's own GTP
// controller (@sabaki/gtp): play, genmove, kata-analyze for a second
// stopped by `protocol_version` (as Sabaki stops an analysis), lz-analyze,
// and genmove_analyze (also after two passes, where the engine passes).
// Every response is checked; any failure exits 1.
//
//   npm install @sabaki/gtp   (in any directory; point NODE_PATH at its node_modules)
//   node protocol-tests/sabaki/session.js target/release/warpstone
'use strict'

const assert = require('assert')
const {Controller} = require('@sabaki/gtp')

const VERTEX = /^(PASS|[A-HJ-Z](1[0-9]|2[0-5]|[1-9]))$/i
// What Sabaki's analysis parser reads as a move: a vertex, or `pass` in
// lower case (as Leela Zero and KataGo write it); `PASS` makes it throw.
const ANALYSIS_MOVE = /^(pass|[A-HJ-Z](1[0-9]|2[0-5]|[1-9]))$/
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

// Splits one analysis line into its `info` entries (each with its `pv`
// and `pvVisits` lists), the `rootInfo` fields and the ownership list.
function parseInfoLine(line) {
  const [beforeOwnership, ownership] = line.split(/ ownership /)
  const [infos, rootText] = beforeOwnership.split(/ rootInfo /)
  const pairs = text => {
    const fields = text.trim().split(/\s+/)
    const out = {}
    for (let i = 0; i + 1 < fields.length; i += 2) out[fields[i]] = fields[i + 1]
    return out
  }
  const entries = infos
    .split(/(?:^| )info /)
    .filter(s => s.trim() !== '')
    .map(text => {
      const [withPv, pvVisits] = text.split(/ pvVisits /)
      const pvAt = withPv.indexOf(' pv ')
      const entry = pairs(pvAt < 0 ? withPv : withPv.slice(0, pvAt))
      entry.pv = pvAt < 0 ? [] : withPv.slice(pvAt + 4).trim().split(/\s+/)
      entry.pvVisits = pvVisits ? pvVisits.trim().split(/\s+/).map(Number) : null
      return entry
    })
  return {
    entries,
    rootInfo: rootText ? pairs(rootText) : null,
    ownership: ownership ? ownership.trim().split(/\s+/).map(Number) : null
  }
}

// Every move an analysis line names must be one Sabaki can read.
function checkMoves(line, entries) {
  for (const e of entries) {
    assert(ANALYSIS_MOVE.test(e.move), `Sabaki cannot read move ${e.move} in ${line}`)
    for (const mv of e.pv) assert(ANALYSIS_MOVE.test(mv), `Sabaki cannot read ${mv} in the pv of ${line}`)
  }
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
  // The engine exits on the session's `quit`; `engine.stop()` then writes its
  // own `quit` into the closed pipe. That EPIPE ends a finished session and is
  // no failure, but without a listener Node throws it.
  if (engine.process && engine.process.stdin) engine.process.stdin.on('error', () => {})
  try {
    assert.strictEqual(await send(engine, 'name'), 'Warpstone')
    await send(engine, 'boardsize', ['9'])
    await send(engine, 'clear_board')
    await send(engine, 'komi', ['7'])
    await send(engine, 'play', ['B', 'E5'])
    const reply = await send(engine, 'genmove', ['W'])
    assert(VERTEX.test(reply), `genmove answered ${reply}`)

    const kataArgs = ['B', '20', 'ownership', 'true', 'rootInfo', 'true', 'pvVisits', 'true']
    const kata = await analyze(engine, 'kata-analyze', kataArgs, 1000)
    assert(kata.length >= 2, `kata-analyze streamed ${kata.length} lines in 1 s`)
    for (const line of kata) {
      const {entries, rootInfo, ownership} = parseInfoLine(line)
      assert(entries.length > 0, `no candidates in: ${line}`)
      checkMoves(line, entries)
      assert(rootInfo && Number(rootInfo.visits) > 0, `rootInfo in ${line}`)
      assert(Number.isFinite(Number(rootInfo.scoreLead)), 'rootInfo scoreLead')
      entries.forEach((e, order) => {
        assert(VERTEX.test(e.move), `bad move in ${line}`)
        assert(Number(e.visits) > 0, 'visits')
        const w = Number(e.winrate)
        assert(w >= 0 && w <= 1, `kata winrate ${e.winrate} not in [0,1]`)
        assert(Number.isFinite(Number(e.scoreLead)), 'scoreLead')
        assert.strictEqual(Number(e.order), order, 'order')
        assert(e.pv.length > 0 && e.pv[0] === e.move, 'pv starts with the move')
        assert(e.pvVisits && e.pvVisits.length === e.pv.length, 'one pvVisits entry per pv move')
      })
      assert(ownership && ownership.length === 81, 'ownership has one value per point')
      assert(ownership.every(v => v >= -1 && v <= 1), 'ownership values in [-1,1]')
    }

    const lz = await analyze(engine, 'lz-analyze', ['B', '20'], 500)
    assert(lz.length >= 1, 'lz-analyze streamed nothing')
    for (const line of lz) {
      const {entries} = parseInfoLine(line)
      checkMoves(line, entries)
      for (const e of entries) {
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

    // After two passes: the search's lines name `pass`, and the `play`
    // line is the last line of the reply.
    await send(engine, 'play', ['W', 'pass'])
    await send(engine, 'play', ['B', 'pass'])
    const passLines = []
    const passed = await send(engine, 'lz-genmove_analyze', ['W', '10'], evt => {
      if (evt.line.startsWith('info')) passLines.push(evt.line)
    })
    for (const line of passLines) checkMoves(line, parseInfoLine(line).entries)
    const passLast = passed.trim().split('\n').pop()
    assert(/^play (pass|[A-HJ-Z]\d+)$/.test(passLast), `lz-genmove_analyze ended with ${passLast}`)

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
