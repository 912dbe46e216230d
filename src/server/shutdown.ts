import type { FastifyInstance } from 'fastify';

/**
 * A graceful stop on SIGTERM (what service managers and container runtimes send) or SIGINT
 * (Ctrl-C): the server stops listening, answers requests that still arrive on open connections
 * with 503 (Fastify's default while closing), lets the requests in flight finish, closes the
 * database (the app's onClose hook) and exits 0.
 *
 * Node's server.close() waits for every open connection, and a keep-alive connection whose request
 * finished after the stop began would stay open for Fastify's keepAliveTimeout (72 s); so while
 * stopping, every answer says `Connection: close` and idle connections are closed as they appear.
 * Requests still running after `timeoutSeconds` are abandoned and the process exits 1: each write
 * is one transaction, so one cut short leaves nothing behind.
 */
export function stopOnSignals(app: FastifyInstance, timeoutSeconds: number): void {
  let stopping = false;
  app.addHook('onSend', async (_request, reply) => {
    if (stopping) reply.header('connection', 'close');
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: finishing the requests in flight, then stopping`);
    const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => {
      console.error(`Stopped after ${timeoutSeconds} s (SHUTDOWN_TIMEOUT) with requests still running or connections still open.`);
      process.exit(1);
    }, timeoutSeconds * 1000);
    app.close().then(
      () => {
        clearInterval(closeIdle);
        clearTimeout(deadline);
        process.exit(0);
      },
      (error: unknown) => {
        console.error(`Stopping failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
