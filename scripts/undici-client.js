// undici as the CLI bundle gives it to the service's client (src/client/client.ts), which
// needs only an Agent and undici's errors: undici's index.js also loads fetch, WebSocket,
// EventSource, caches and mocks, near half of what loading undici costs, for nothing.
// These are its own modules (undici is pinned: a release that moves them fails the build),
// wired as its index.js wires them. See scripts/bundle.js.
import api from 'undici/lib/api/index.js';
import errors from 'undici/lib/core/errors.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';

// A dispatcher's request(), stream()…: index.js adds them so.
Object.assign(Dispatcher.prototype, api);

export { Agent, errors };
