/**
 * `mediagw-mock [--port N] [--media-port N] [--speed S]`: runs the mock gateway until SIGINT or
 * SIGTERM and prints its base URL, media origin and keys.
 */
import { parseArgs } from 'node:util';
import { startMockGateway } from './gateway.js';

const USAGE = `Usage: mediagw-mock [--port N] [--media-port N] [--speed S]

  --port N        port of the gateway on 127.0.0.1 (default: a free port)
  --media-port N  port of the media origin on 127.0.0.1 (default: a free port)
  --speed S       mock seconds per real second (default: 1)
  --help          show this text`;

function parsePort(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${name} must be a port number from 0 to 65535`);
  return port;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'media-port': { type: 'string' },
      speed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const speed = values.speed === undefined ? 1 : Number(values.speed);
  if (!(speed > 0) || !Number.isFinite(speed)) throw new Error('--speed must be a positive number');
  const gateway = await startMockGateway({
    port: parsePort(values.port, '--port'),
    mediaPort: parsePort(values['media-port'], '--media-port'),
    speed,
  });
  const lines = [
    'mediagw mock gateway',
    `  base URL:     ${gateway.url}`,
    `  media origin: ${gateway.mediaUrl}`,
    `  speed:        ${speed}x`,
  ];
  for (const account of gateway.accounts) {
    lines.push(`  ${account.id} key: ${account.apiKey}`);
    if (account.restrictedKey) {
      lines.push(
        `  ${account.id} restricted key (${account.restrictedModels?.join(', ')}): ${account.restrictedKey}`,
      );
    }
  }
  lines.push(
    `  try: MEDIAGW_BASE_URL=${gateway.url} MEDIAGW_API_KEY=${gateway.apiKey}`,
    'Press Ctrl+C to stop.',
  );
  console.log(lines.join('\n'));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: closing the mock gateway`);
    gateway.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`mediagw-mock: ${error instanceof Error ? error.message : String(error)}`);
  console.error(USAGE);
  process.exit(1);
});
