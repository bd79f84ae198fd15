// A tiny app receiving webhooks, for ci.sh: it verifies each signature (Standard Webhooks)
// with WEBHOOK_SECRET, answers 204, and prints its port once it listens.
// FAIL_EVENTS=type,… makes it refuse those types (400), to see the job fail.
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.WEBHOOK_SECRET);
const failing = new Set((process.env.FAIL_EVENTS ?? '').split(',').filter(Boolean));

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    let event;
    try {
      event = webhook.verify(body, req.headers);
    } catch {
      return res.writeHead(401).end(); // not signed with our secret
    }
    console.error(`app: ${event.type} ${event.id}`);
    res.writeHead(failing.has(event.type) ? 400 : 204).end();
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(server.address().port));
