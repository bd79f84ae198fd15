// The baseline server of the sandbox benches: bare node:http answering every request,
// once its body has arrived, with the fixed JSON in BARE_BODY. Started as a child process
// by bench/support/processes.js; prints {"port"} once it listens.
import { createServer } from 'node:http';

const body = Buffer.from(process.env.BARE_BODY ?? '{}');
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
