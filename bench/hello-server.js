// Baseline for the throughput ratio: a bare node:https server on the engine's own TLS key
// and certificate. It drains the request body (the same POST the engine gets) and answers
// a tiny JSON body. Run as a child process: prints {"port": N} on its first stdout line. A third
// argument, DELAY_MS, answers that long after the body (a timer, no work): a closed loop then runs
// at the rate an engine with that latency would, for bench/pg-fleet.js's fleet of hello worlds.
import {readFileSync} from 'node:fs'
import https from 'node:https'

const [keyFile, certFile, delayArg] = process.argv.slice(2)
const delayMs = Number(delayArg ?? 0)
const body = '{"hello":"world"}'
const server = https.createServer({key: readFileSync(keyFile), cert: readFileSync(certFile), keepAliveTimeout: 30_000}, (req, res) => {
  req.on('data', () => {})
  const answer = () => {
    res.writeHead(200, {'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body)})
    res.end(body)
  }
  req.on('end', delayMs > 0 ? () => setTimeout(answer, delayMs) : answer)
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({port: server.address().port}) + '\n')
})
process.on('SIGTERM', () => {
  server.close()
  server.closeAllConnections()
  process.exit(0)
})
