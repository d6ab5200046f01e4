// VS Code's own DAP test client (@vscode/debugadapter-testsupport) driving `pyinspect dap`,
// with every message the adapter sends checked against the DAP schema (schema.mjs). A
// schema violation fails the test that caused it, at its end.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { dapValidator } from './schema.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..', '..');
const validate = dapValidator();

/** `pyinspect` as build.py installs it (PYINSPECT overrides). */
export const pyinspect = process.env.PYINSPECT ?? join(repo, '.venv', 'bin', 'pyinspect');

export const targetDll = name => join(repo, 'tests', 'targets', '_build', name, `${name}.dll`);
export const targetSource = (name, file = 'Program.cs') => join(repo, 'tests', 'targets', name, file);

/** The 1-based line of `// @bp <marker>` in a target's source, never a hard-coded number. */
export function markerLine(name, marker, file = 'Program.cs') {
  const lines = readFileSync(targetSource(name, file), 'utf8').split('\n');
  const pattern = new RegExp(`//\\s*@bp\\s+${marker.replace(/[-]/g, '\\-')}\\b`);
  const index = lines.findIndex(line => pattern.test(line));
  if (index < 0) throw new Error(`marker @bp ${marker} not found in ${name}/${file}`);
  return index + 1;
}

/** A DebugClient whose incoming messages are all validated; `violations` lists failures. */
class ValidatingClient extends DebugClient {
  violations = [];
  messages = [];
  dispatch(body) {
    const message = JSON.parse(body);
    this.messages.push(message);
    if (message.type === 'event' && message.event === 'stopped') this.lastStop = message.body;
    const problem = validate(message);
    if (problem) this.violations.push(problem);
    super.dispatch(body);
  }
}

/** Start `pyinspect dap` under VS Code's DebugClient; `stop` ends it and checks the schema. */
export async function startClient() {
  const client = new ValidatingClient(pyinspect, 'dap', 'coreclr');
  client.defaultTimeout = 30000;
  await client.start();
  return client;
}

export async function stopClient(client, t) {
  // DebugClient.stop() sends `disconnect` and waits without a limit: after a disconnect of
  // our own the adapter has already gone, so it gets a few seconds, then the adapter is ended.
  await Promise.race([client.stop().catch(() => {}), sleep(5000)]);
  client.stopAdapter();
  if (client.violations.length) throw new Error(`schema violations:\n${client.violations.join('\n')}`);
  t?.diagnostic?.(`${client.messages.length} adapter messages validated`);
}

/** The next `stopped` or `terminated`, whichever comes first. */
export function nextStopOrEnd(client, timeout = 30000) {
  return Promise.race([
    client.waitForEvent('stopped', timeout),
    client.waitForEvent('terminated', timeout),
  ]);
}

/** DebuggeeLoop counting into a file, started outside the debugger (for attach). */
export function startCountingLoop(counterFile) {
  return spawn('dotnet', [targetDll('DebuggeeLoop'), counterFile], { stdio: 'ignore' });
}

export function readCounter(file) {
  try { return Number.parseInt(readFileSync(file, 'utf8'), 10); } catch { return NaN; }
}

export const sleep = ms => new Promise(done => setTimeout(done, ms));

/** The counter's value; the debuggee rewrites the file every 50 ms, so a read that lands
 *  mid-write (empty file) is retried rather than taken as "not counting". */
async function settledCounter(file, ms) {
  const until = Date.now() + ms;
  for (;;) {
    const value = readCounter(file);
    if (Number.isFinite(value) || Date.now() > until) return value;
    await sleep(20);
  }
}

/** Does the counter grow within `ms` (a frozen debuggee never writes a new value)? */
export async function counterMoves(file, ms = 1000) {
  const before = await settledCounter(file, ms);
  await sleep(ms);
  const after = await settledCounter(file, ms);
  return Number.isFinite(before) && Number.isFinite(after) && after > before;
}
