// Attach scenarios through VS Code's DebugClient: the standard attach configuration
// (processId as a string), a breakpoint right after attach, detach that leaves the
// debuggee running; every adapter message schema-checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  counterMoves, markerLine, startClient, startCountingLoop, stopClient, targetSource, sleep, readCounter,
} from './support.mjs';

const LOOP = 'DebuggeeLoop';

async function countingLoop() {
  const counter = join(mkdtempSync(join(tmpdir(), 'pyinspect-dap-')), 'counter.txt');
  const child = startCountingLoop(counter);
  for (let i = 0; i < 300 && !Number.isFinite(readCounter(counter)); i++) await sleep(100);
  assert.ok(Number.isFinite(readCounter(counter)), 'DebuggeeLoop did not start counting');
  return { child, counter };
}

test('attach (processId as a string), hit a breakpoint, detach: the debuggee runs on', async t => {
  const { child, counter } = await countingLoop();
  const client = await startClient();
  try {
    await client.initializeRequest({ adapterID: 'coreclr', linesStartAt1: true, columnsStartAt1: true });
    await client.attachRequest({ processId: String(child.pid) });
    const set = await client.setBreakpointsRequest({
      source: { path: targetSource(LOOP) }, breakpoints: [{ line: markerLine(LOOP, 'tick') }],
    });
    assert.equal(set.body.breakpoints[0].verified, true, 'the module is loaded: the breakpoint binds at once');
    const process = client.messages.find(m => m.type === 'event' && m.event === 'process');
    assert.equal(process?.body.systemProcessId, child.pid, 'attach sends a process event');
    const stopped = client.assertStoppedLocation('breakpoint', { path: targetSource(LOOP), line: markerLine(LOOP, 'tick') });
    await client.configurationDoneRequest();
    await stopped;
    await client.disconnectRequest({ terminateDebuggee: false });
    assert.ok(await counterMoves(counter), 'the debuggee must run after detach');
  } finally {
    await stopClient(client, t);
    assert.equal(child.exitCode, null, 'detach must not end the debuggee');
    child.kill('SIGKILL');
    rmSync(dirname(counter), { recursive: true, force: true });
  }
});
