/** Builds the service, relay, dev chains and backup tool into `outdir` (default `dist/`); returns it. */
export function buildService(outdir?: string): Promise<string>
