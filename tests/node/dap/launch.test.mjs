// Launch scenarios through VS Code's DebugClient: hitBreakpoint, configurationSequence,
// assertStoppedLocation, stepping, modules; every adapter message schema-checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markerLine, nextStopOrEnd, startClient, stopClient, targetDll, targetSource } from './support.mjs';

const SAMPLE = 'AdapterSample';
const launchArgs = { program: targetDll(SAMPLE) };

test('hitBreakpoint stops at a line breakpoint where the source says', async t => {
  const client = await startClient();
  try {
    const line = markerLine(SAMPLE, 'locals');
    await client.hitBreakpoint(launchArgs, { path: targetSource(SAMPLE), line });
  } finally { await stopClient(client, t); }
});

test('a next that lands on a breakpoint leaves no step behind: continue runs to the end', async t => {
  const client = await startClient();
  try {
    await client.hitBreakpoint(launchArgs, { path: targetSource(SAMPLE), line: markerLine(SAMPLE, 'call') });
    await client.setBreakpointsRequest({
      source: { path: targetSource(SAMPLE) },
      breakpoints: [{ line: markerLine(SAMPLE, 'call') }, { line: markerLine(SAMPLE, 'outer') }],
    });
    const threadId = client.lastStop.threadId;
    const stepped = client.assertStoppedLocation('breakpoint', { line: markerLine(SAMPLE, 'outer') });
    await client.nextRequest({ threadId: threadId });
    const stack = await stepped;
    const continued = client.waitForEvent('continued');
    await client.continueRequest({ threadId: threadId });
    const event = await nextStopOrEnd(client);
    assert.equal(event.event, 'terminated', `continue must run to the end, not stop: ${JSON.stringify(event.body)}`);
    assert.ok((await continued).body.threadId > 0, 'continued names the real thread');
    assert.ok(stack.body.stackFrames.length > 1);
  } finally { await stopClient(client, t); }
});

test('every stack frame names a module the modules request lists (moduleId == Module.id)', async t => {
  const client = await startClient();
  try {
    await client.hitBreakpoint(launchArgs, { path: targetSource(SAMPLE), line: markerLine(SAMPLE, 'inner') });
    const frames = (await client.stackTraceRequest({ threadId: client.lastStop.threadId })).body.stackFrames;
    const modules = (await client.modulesRequest({})).body.modules;
    const ids = new Set(modules.map(m => m.id));
    const withModule = frames.filter(f => f.moduleId !== undefined);
    assert.ok(withModule.length > 0);
    for (const frame of withModule) assert.ok(ids.has(frame.moduleId), `frame ${frame.name}: moduleId ${frame.moduleId} is no module's id`);
    assert.match(frames[0].name, /Chain\.Inner/);
  } finally { await stopClient(client, t); }
});

test('noDebug runs the program without stopping at breakpoints and reports its end', async t => {
  const client = await startClient();
  try {
    const output = [];
    client.on('output', event => output.push(event.body.output));
    const exited = client.waitForEvent('exited');
    const ended = client.waitForEvent('terminated');
    await Promise.all([
      client.configurationSequence(),
      client.launch({ program: targetDll(SAMPLE), args: ['', '4'], noDebug: true }),
    ]);
    await client.setBreakpointsRequest({ source: { path: targetSource(SAMPLE) }, breakpoints: [{ line: markerLine(SAMPLE, 'locals') }] });
    assert.equal((await exited).body.exitCode, 4);
    await ended;
    assert.ok(output.join('').includes('locals ready'));
    assert.ok(!client.messages.some(m => m.type === 'event' && m.event === 'stopped'));
  } finally { await stopClient(client, t); }
});
