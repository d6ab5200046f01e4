// Stepping as VS Code users know it, through VS Code's DebugClient on InspectSample: step in
// enters an async method, passes over property getters and operators (enableStepFiltering),
// steps into [DebuggerNonUserCode] only with justMyCode false, and a step over the end of a
// resumed async method arrives on its caller's await line. Every adapter message schema-checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markerLine, nextStopOrEnd, startClient, stopClient, targetDll, targetSource } from './support.mjs';

const SAMPLE = 'InspectSample';
const source = { path: targetSource(SAMPLE) };

/** One step request; resolves with the stopped location's top frame (after a `step` stop). */
async function step(client, kind, threadId) {
  const stopped = client.waitForEvent('stopped');
  await client.send(kind, { threadId });
  const event = await stopped;
  assert.equal(event.body.reason, 'step');
  const frames = (await client.stackTraceRequest({ threadId: event.body.threadId })).body.stackFrames;
  return { threadId: event.body.threadId, frame: frames[0] };
}

async function runToEnd(client, threadId) {
  await client.setBreakpointsRequest({ source, breakpoints: [] });
  await client.continueRequest({ threadId });
  assert.equal((await nextStopOrEnd(client)).event, 'terminated');
}

test('stepIn passes over getters and an operator into the called method', async t => {
  const client = await startClient();
  try {
    await client.hitBreakpoint({ program: targetDll(SAMPLE), args: ['stepin'] }, { ...source, line: markerLine(SAMPLE, 'stepin_filtered') });
    const { threadId, frame } = await step(client, 'stepIn', client.lastStop.threadId);
    assert.equal(frame.name, 'InspectSample.Program.Describe()');
    assert.equal(frame.line, markerLine(SAMPLE, 'describe_body') - 1);
    await runToEnd(client, threadId);
  } finally { await stopClient(client, t); }
});

test('enableStepFiltering false: stepIn stops in the property getter', async t => {
  const client = await startClient();
  try {
    await client.hitBreakpoint({ program: targetDll(SAMPLE), args: ['stepin'], enableStepFiltering: false },
      { ...source, line: markerLine(SAMPLE, 'stepin_filtered') });
    const { threadId, frame } = await step(client, 'stepIn', client.lastStop.threadId);
    assert.match(frame.name, /^InspectSample\.Account\..*Owner/);
    await runToEnd(client, threadId);
  } finally { await stopClient(client, t); }
});

test('justMyCode false: stepIn enters a method marked DebuggerNonUserCode', async t => {
  const client = await startClient();
  try {
    await client.hitBreakpoint({ program: targetDll(SAMPLE), args: ['stepin'], justMyCode: false },
      { ...source, line: markerLine(SAMPLE, 'stepin_nonuser') });
    const { threadId, frame } = await step(client, 'stepIn', client.lastStop.threadId);
    assert.equal(frame.name, 'InspectSample.Program.NotMine()');
    await runToEnd(client, threadId);
  } finally { await stopClient(client, t); }
});

test('stepIn on `await Steps(1)` enters the async method, not its state machine plumbing', async t => {
  const client = await startClient();
  try {
    await client.hitBreakpoint({ program: targetDll(SAMPLE), args: ['async'] }, { ...source, line: markerLine(SAMPLE, 'async_caller') });
    let { threadId, frame } = await step(client, 'stepIn', client.lastStop.threadId);
    assert.equal(frame.name, 'InspectSample.Program.Steps()');
    ({ threadId, frame } = await step(client, 'next', threadId));
    assert.equal(frame.line, markerLine(SAMPLE, 'async_start'));
    await runToEnd(client, threadId);
  } finally { await stopClient(client, t); }
});

test('next over the end of a resumed async method arrives on the caller\'s await, the next one after it', async t => {
  const client = await startClient();
  try {
    await client.hitBreakpoint({ program: targetDll(SAMPLE), args: ['async'] },
      { ...source, line: markerLine(SAMPLE, 'async_after_completed'), condition: 'start == 1' });
    await client.setBreakpointsRequest({ source, breakpoints: [] });
    let { threadId } = client.lastStop;
    let frame;
    for (let i = 0; i < 3; i++) ({ threadId, frame } = await step(client, 'next', threadId));
    assert.equal(frame.name, 'InspectSample.Program.Caller()');
    assert.equal(frame.line, markerLine(SAMPLE, 'async_caller'));
    ({ threadId, frame } = await step(client, 'next', threadId));
    assert.equal(frame.line, markerLine(SAMPLE, 'async_caller') + 1);
    await client.continueRequest({ threadId });
    assert.equal((await nextStopOrEnd(client)).event, 'terminated', 'no step left armed');
  } finally { await stopClient(client, t); }
});
