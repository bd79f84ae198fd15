// The sandbox process's own typed errors, apart from daemon.ts so that main.ts can map
// them to exit codes without loading what starts a sandbox.

/** The port asked for is taken by another program. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
  constructor(readonly port: number) {
    super(`${port} is in use; choose another with --port N (or --port 0 for any free port).`);
  }
}

/** A background sandbox refused its own flags (exit 2): its message, and its error code (`port_in_use`…). */
export class SandboxStartError extends Error {
  override name = 'SandboxStartError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}
