// Async logical call stacks through VS Code's DebugClient: stopped in an async method that
// resumed on the thread pool, the stack shows a label frame and then the method awaiting
// it, at its await, with source. Every adapter message schema-checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markerLine, startClient, stopClient, targetDll, targetSource } from './support.mjs';

const SAMPLE = 'InspectSample';

test('a resumed async method shows its awaiting caller after an [Async] label frame', async t => {
  const client = await startClient();
  try {
    await client.hitBreakpoint({ program: targetDll(SAMPLE), args: ['async'] },
      { path: targetSource(SAMPLE), line: markerLine(SAMPLE, 'async_after_delay'), condition: 'start == 1' });
    const frames = (await client.stackTraceRequest({ threadId: client.lastStop.threadId })).body.stackFrames;
    assert.equal(frames[0].name, 'InspectSample.Program.Steps()');
    assert.equal(frames[1].presentationHint, 'label');
    assert.equal(frames[2].name, 'InspectSample.Program.Caller()');
    assert.equal(frames[2].line, markerLine(SAMPLE, 'async_caller'));
    assert.equal(frames[2].source.path, targetSource(SAMPLE));
    assert.deepEqual((await client.scopesRequest({ frameId: frames[2].id })).body.scopes, []);
  } finally { await stopClient(client, t); }
});
