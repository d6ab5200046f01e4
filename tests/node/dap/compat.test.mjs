// What a client configured for netcoredbg sends, through VS Code's DebugClient: stop at
// entry in an `async Task Main` and a next from there; a function breakpoint typed as just
// the method's name. CompatSample; every adapter message schema-checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markerLine, startClient, stopClient, targetDll } from './support.mjs';

const SAMPLE = 'CompatSample';

test('stopAtEntry in async Main stops on the user\'s Main and next steps to its next line', async t => {
  const client = await startClient();
  try {
    const entry = client.waitForEvent('stopped');
    await Promise.all([
      client.configurationSequence(),
      client.launch({ program: targetDll(SAMPLE), args: ['cwd'], stopAtEntry: true, cwd: '' }),
    ]);
    const stopped = (await entry).body;
    assert.equal(stopped.reason, 'entry');
    const frames = (await client.stackTraceRequest({ threadId: stopped.threadId })).body.stackFrames;
    assert.equal(frames[0].name, 'CompatSample.Program.Main()');
    assert.ok(frames[0].line > 0 && frames[0].line <= markerLine(SAMPLE, 'main_first'), `entry line ${frames[0].line}`);
    const stepped = client.waitForEvent('stopped');
    await client.nextRequest({ threadId: stopped.threadId });
    const step = (await stepped).body;
    assert.equal(step.reason, 'step');
    const after = (await client.stackTraceRequest({ threadId: step.threadId })).body.stackFrames[0];
    assert.equal(after.name, 'CompatSample.Program.Main()');
    assert.ok(after.line > frames[0].line, `next went from ${frames[0].line} to ${after.line}`);
  } finally { await stopClient(client, t); }
});

test('a function breakpoint typed as just "Deep" binds and stops there', async t => {
  const client = await startClient();
  try {
    await client.launch({ program: targetDll(SAMPLE) });
    const answer = await client.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'Deep' }, { name: 'funcbp1' }] });
    const [deep, missing] = answer.body.breakpoints;
    assert.equal(deep.verified, true);
    assert.equal(deep.line, markerLine(SAMPLE, 'deep'));
    assert.equal(missing.verified, false);
    assert.match(missing.message, /pending/);
    const stop = client.assertStoppedLocation('breakpoint', { line: markerLine(SAMPLE, 'deep') });
    await client.configurationDoneRequest();
    const stack = await stop;
    assert.equal(stack.body.stackFrames[0].name, 'CompatSample.Outer.Inner.Deep()');
  } finally { await stopClient(client, t); }
});
