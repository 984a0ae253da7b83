// The bench's webhook receiver (bench/webhooks.ts forks it): reports each ACTIVITY_UPDATES delivery of
// a sign_raw_payload activity as {id, ms}, ms = receipt time − X-Sigil-Event-Created-Ms.
import { createServer } from 'node:http'

const server = createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const at = Date.now()
    const created = Number(req.headers['x-sigil-event-created-ms'])
    const { id, type } = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    if (type === 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2') process.send({ id, ms: at - created })
    res.end()
  })
})
server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}/hook` }))
process.on('disconnect', () => process.exit(0))
